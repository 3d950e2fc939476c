//! `gpuabi compile` and `gpuabi run --target`.

mod common;

use common::{fails, json, ok};

#[test]
fn compile_prints_code_and_a_kernel_descriptor() {
    for target in ["gfx8", "gfx1030", "gfx1100"] {
        let asm = ok(&["compile", "examples/saxpy.gsir", "--target", target]);
        assert!(
            asm.contains(&format!(
                "\"amdgcn-amd-amdhsa--{}",
                if target == "gfx8" { "gfx802" } else { target }
            )),
            "{asm}"
        );
        assert!(asm.contains(".amdhsa_kernel saxpy"), "{asm}");
        assert!(asm.contains("saxpy:"), "{asm}");
        assert!(asm.contains("s_endpgm"), "{asm}");
    }
}

#[test]
fn compile_json_gives_the_statistics() {
    let v = json(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx1100",
        "--wave",
        "64",
        "--format",
        "json",
    ]);
    assert_eq!(v["target"], "gfx1100");
    assert_eq!(v["wave"], 64);
    let f = &v["functions"][0];
    assert_eq!(f["name"], "saxpy");
    assert!(f["instructions"].as_u64().unwrap() > 10);
    assert!(f["sgprs"].as_u64().unwrap() >= 4);
    assert_eq!(f["vgpr_spills"], 0);
    assert_eq!(f["scratch_bytes"], 0);
}

#[test]
fn run_target_agrees_with_the_interpreter() {
    for t in [
        &["--target", "gfx1100"][..],
        &["--target", "gfx1100", "--wave", "64"],
        &["--target", "gfx1030"],
        &["--target", "gfx1030", "--wave", "64"],
        &["--target", "gfx8"],
        &["--target", "gfx8", "--max-vgprs", "8", "--max-sgprs", "24"],
    ] {
        let mut args = vec![
            "run",
            "examples/saxpy.gsir",
            "--grid",
            "1024",
            "--group",
            "64",
            "--buffer",
            "x=4K",
            "--buffer",
            "y=4K",
            "--arg",
            "n=1000",
            "--arg",
            "a=2.5",
            "--compare",
        ];
        args.extend_from_slice(t);
        let run = common::gpuabi(&args);
        assert!(run.success(), "{t:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("every buffer is identical"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn bad_targets_and_flags_are_refused() {
    let e = fails(&["compile", "examples/saxpy.gsir", "--target", "gfx9"]);
    assert!(e.contains("gfx9"), "{e}");
    let e = fails(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx8",
        "--wave",
        "32",
    ]);
    assert!(e.contains("--wave 32"), "{e}");
    let e = fails(&["compile", "examples/saxpy.gsir"]);
    assert!(e.contains("--target"), "{e}");
    let e = fails(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx1100",
        "--max-vgprs",
        "2",
    ]);
    assert!(e.contains("--max-vgprs 2"), "{e}");
    let e = fails(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "64",
        "--buffer",
        "x=4K",
        "--buffer",
        "y=4K",
        "--arg",
        "n=1",
        "--arg",
        "a=1",
        "--compare",
    ]);
    assert!(e.contains("--target"), "{e}");
}

#[test]
fn calls_are_refused_at_their_location() {
    let e = fails(&["compile", "examples/mandelbrot.gsir", "--target", "gfx1100"]);
    assert!(e.contains("mandelbrot.gsir:"), "{e}");
    assert!(e.contains("call"), "{e}");
}
