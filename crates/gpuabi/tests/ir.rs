//! The `gpuabi ir` and `gpuabi run` commands end to end.

mod common;

use std::process::Command;

use common::{fails, ok, scratch};

fn s(p: &std::path::Path) -> String {
    p.display().to_string()
}

#[test]
fn check_accepts_the_examples() {
    for ex in ["saxpy", "mandelbrot", "raytrace"] {
        let out = ok(&["ir", "check", &format!("examples/{ex}.gsir")]);
        assert!(out.contains(": ok ("), "{out}");
    }
}

#[test]
fn check_reports_line_column_and_caret() {
    let dir = scratch("check");
    let f = dir.join("bad.gsir");
    std::fs::write(&f, "fn @f(%a: i32) {\n  %b = add i32 %a, %zz\n}\n").unwrap();
    let err = fails(&["ir", "check", &s(&f)]);
    assert!(err.contains("error: undefined value `%zz`"), "{err}");
    assert!(err.contains("bad.gsir:2:20"), "{err}");
    assert!(err.contains("^^^ not defined before this point"), "{err}");
    std::fs::write(&f, "fn @f(%a: f32) {\n  %b = add i32 %a, 1\n}\n").unwrap();
    let err = fails(&["ir", "check", &s(&f)]);
    assert!(
        err.contains("operand 1 of `add` must be i32, but `%a` is f32"),
        "{err}"
    );
    assert!(err.contains("1 verifier error(s)"), "{err}");
    let err = fails(&["ir", "check", &s(&dir.join("missing.gsir"))]);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn emit_llvm_writes_stdout_or_the_output_file() {
    let dir = scratch("emit-llvm");
    let out = ok(&["ir", "emit-llvm", "examples/saxpy.gsir"]);
    assert!(
        out.contains("define amdgpu_kernel void @saxpy(i32 %n, float %a, ptr addrspace(1) %x, ptr addrspace(1) %y) #0 {"),
        "{out}"
    );
    let f = dir.join("saxpy.ll");
    assert_eq!(
        ok(&["ir", "emit-llvm", "examples/saxpy.gsir", "-o", &s(&f)]),
        ""
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), out);
    let inl = ok(&[
        "ir",
        "emit-llvm",
        "--allow-inlining",
        "examples/mandelbrot.gsir",
    ]);
    assert!(inl.contains("attributes #1 = { nounwind"), "{inl}");
    // The NaN rule's selects follow the ffma unless --loose-nans.
    assert!(out.contains("fcmp uno float"), "{out}");
    let loose = ok(&["ir", "emit-llvm", "--loose-nans", "examples/saxpy.gsir"]);
    assert!(!loose.contains("fcmp uno float"), "{loose}");
    assert!(loose.contains("call float @llvm.fma.f32("), "{loose}");
}

#[test]
fn emit_llvm_reports_located_errors() {
    let dir = scratch("emit-llvm-bad");
    let f = dir.join("bad.gsir");
    std::fs::write(&f, "fn @f(%a: i32) {\n  %b = add i32 %a, %zz\n}\n").unwrap();
    let err = fails(&["ir", "emit-llvm", &s(&f)]);
    assert!(err.contains("bad.gsir:2:20"), "{err}");
    std::fs::write(&f, "fn @k(%a: i32) kernel {\n  %b = add i32 %a,\n}\n").unwrap();
    let err = fails(&["ir", "emit-llvm", &s(&f)]);
    assert!(err.contains("bad.gsir:2:"), "{err}");
    // Valid IR that LLVM IR cannot express: a noreturn call from an ordinary function.
    std::fs::write(
        &f,
        "fn @end(%x: i32) noreturn {\n  ret\n}\n\nfn @f(%x: i32) {\n  call @end(%x)\n  ret\n}\n",
    )
    .unwrap();
    let out = dir.join("never.ll");
    let err = fails(&["ir", "emit-llvm", &s(&f), "-o", &s(&out)]);
    assert!(err.contains("bad.gsir:6:3"), "{err}");
    assert!(err.contains("cannot be written as LLVM IR"), "{err}");
    assert!(!out.exists(), "no output file after an error");
    let err = fails(&["ir", "emit-llvm", &s(&dir.join("missing.gsir"))]);
    assert!(err.contains("cannot read"), "{err}");
    // A missing folder is created; a file where the folder should be cannot be written.
    let made = dir.join("made/here.ll");
    ok(&["ir", "emit-llvm", "examples/saxpy.gsir", "-o", &s(&made)]);
    assert!(made.is_file());
    let err = fails(&[
        "ir",
        "emit-llvm",
        "examples/saxpy.gsir",
        "-o",
        &s(&made.join("dir.ll")),
    ]);
    assert!(err.contains("cannot write"), "{err}");
}

#[test]
fn fmt_is_stable_and_keeps_comments_safe() {
    let dir = scratch("fmt");
    let once = ok(&["ir", "fmt", "examples/raytrace.gsir"]);
    let f = dir.join("rt.gsir");
    std::fs::write(&f, &once).unwrap();
    assert_eq!(ok(&["ir", "fmt", &s(&f)]), once);
    // The canonical form has no comments, so --write may rewrite it ...
    ok(&["ir", "fmt", "--write", &s(&f)]);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), once);
    // ... but a file with comments is left alone.
    let err = fails(&["ir", "fmt", "--write", "examples/saxpy.gsir"]);
    assert!(err.contains("comments"), "{err}");
}

#[test]
fn run_saxpy_with_init_files_and_dump() {
    let dir = scratch("saxpy");
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 0.5 - 3.0).collect();
    let y: Vec<f32> = (0..32).map(|i| 10.0 - i as f32).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.join("x.bin"), bytes(&x)).unwrap();
    std::fs::write(dir.join("y.bin"), bytes(&y)).unwrap();
    let out_file = dir.join("y.out");
    let stdout = ok(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "32",
        "--group",
        "8",
        "--buffer",
        &format!("x=128:{}", s(&dir.join("x.bin"))),
        "--buffer",
        &format!("y=128:{}", s(&dir.join("y.bin"))),
        "--arg",
        "n=30",
        "--arg",
        "a=-1.5",
        "--dump",
        &format!("y:bin:{}", s(&out_file)),
        "--dump",
        "y:u32",
    ]);
    let got = std::fs::read(&out_file).unwrap();
    let want: Vec<f32> = (0..32)
        .map(|i| {
            if i < 30 {
                (-1.5f32).mul_add(x[i], y[i])
            } else {
                y[i]
            }
        })
        .collect();
    assert_eq!(got, bytes(&want));
    // The u32 dump shows the same words, four per line after the offset.
    let first: Vec<u32> = stdout
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(
        first,
        want[..4].iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
}

fn png_size(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn run_raytrace_writes_the_png_of_the_buffer() {
    let dir = scratch("rt");
    let png_file = dir.join("rt.png");
    let raw = dir.join("rt.raw");
    ok(&[
        "run",
        "examples/raytrace.gsir",
        "--grid",
        "32,24",
        "--group",
        "8,8",
        "--buffer",
        "image=4K",
        "--buffer",
        "scene=1K",
        "--arg",
        "width=32",
        "--arg",
        "height=24",
        "--png",
        &format!("image:32x24:{}", s(&png_file)),
        "--dump",
        &format!("image:bin:{}", s(&raw)),
    ]);
    let (w, h, pixels) = png_size(&png_file);
    assert_eq!((w, h), (32, 24));
    let raw = std::fs::read(&raw).unwrap();
    assert_eq!(pixels, raw[..32 * 24 * 4]);
    // Alpha is opaque everywhere and the picture is not blank.
    assert!(pixels.chunks(4).all(|p| p[3] == 255));
    assert!(pixels.chunks(4).any(|p| p[0] != pixels[0]));
}

#[test]
fn png_default_file_name_is_the_buffer_name() {
    let dir = scratch("pngname");
    let out = Command::new(env!("CARGO_BIN_EXE_gpuabi"))
        .args([
            "run",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../examples/mandelbrot.gsir"
            ),
            "--grid",
            "16,16",
            "--buffer",
            "image=1K",
            "--arg",
            "width=16",
            "--arg",
            "height=16",
            "--arg",
            "max_iter=20",
            "--png",
            "image:16x16",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(png_size(&dir.join("image.png")).0, 16);
}

#[test]
fn flag_errors_name_the_flag() {
    let base = [
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "16",
        "--buffer",
        "x=64",
        "--buffer",
        "y=64",
        "--arg",
        "n=16",
    ];
    let with = |extra: &[&str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        fails(&v)
    };
    assert!(with(&["--arg", "a=fast"]).contains("--arg a=fast: not a valid f32"));
    assert!(
        with(&["--arg", "a=1", "--arg", "b=2"]).contains("--arg b=2: @saxpy has no parameter `b`")
    );
    assert!(
        with(&["--arg", "a=1", "--group", "5"]).contains("not a positive multiple of group size 5")
    );
    assert!(with(&["--arg", "a=1", "--buffer", "z=lots"])
        .contains("--buffer z=lots: `lots` is not a size in bytes"));
    assert!(with(&["--arg", "a=1", "--buffer", "x=8"])
        .contains("--buffer x=8: buffer `x` is defined twice"));
    assert!(with(&["--arg", "a=1", "--dump", "q"]).contains("--dump q: no buffer `q`"));
    assert!(with(&["--arg", "a=1", "--dump", "x:oct"]).contains("format `oct` is not one of"));
    assert!(
        with(&["--arg", "a=1", "--png", "x:4by4"]).contains("--png x:4by4: `4by4` is not a size")
    );
    assert!(with(&["--arg", "a=1", "--png", "x:64x64"])
        .contains("needs 16384 bytes but buffer `x` has 64"));
    let e = with(&["--arg", "a=1", "--kernel", "nope"]);
    assert!(
        e.contains("--kernel nope: ") && e.contains("has no kernel `nope`"),
        "{e}"
    );
    assert!(with(&["--arg", "a=1", "--max-memory", "100"]).contains("exceeds the memory limit"));
    let err = fails(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "1,2,3,4",
        "--arg",
        "n=1",
        "--arg",
        "a=1",
    ]);
    assert!(err.contains("--grid 1,2,3,4: expected 1 to 3"), "{err}");
    let err = fails(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "4",
        "--arg",
        "n=1",
        "--arg",
        "a=1",
    ]);
    assert!(
        err.contains("missing --arg x=VALUE for parameter %x: ptr of @saxpy"),
        "{err}"
    );
}

#[test]
fn runtime_errors_name_place_invocation_and_limit() {
    // n = 32 but the buffers hold 16 floats: invocation 16 reads out of bounds.
    let err = fails(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "32",
        "--buffer",
        "x=64",
        "--buffer",
        "y=64",
        "--arg",
        "n=32",
        "--arg",
        "a=1",
    ]);
    assert!(
        err.contains(
            "examples/saxpy.gsir:13:5: invocation [16, 0, 0] in `@saxpy`: out-of-bounds access"
        ),
        "{err}"
    );
    let err = fails(&[
        "run",
        "examples/mandelbrot.gsir",
        "--grid",
        "4,4",
        "--buffer",
        "image=64",
        "--arg",
        "width=4",
        "--arg",
        "height=4",
        "--arg",
        "max_iter=1000",
        "--max-steps",
        "500",
    ]);
    assert!(
        err.contains("step limit hit: more than 500 instructions"),
        "{err}"
    );
    assert!(err.contains("in `@escape_time`"), "{err}");
    let err = fails(&[
        "run",
        "examples/raytrace.gsir",
        "--grid",
        "8,8",
        "--buffer",
        "image=256",
        "--buffer",
        "scene=1K",
        "--arg",
        "width=8",
        "--arg",
        "height=8",
        "--max-call-depth",
        "3",
    ]);
    assert!(
        err.contains("call depth limit hit: more than 3 nested calls"),
        "{err}"
    );
    assert!(err.contains("called from `@raygen`"), "{err}");
}
