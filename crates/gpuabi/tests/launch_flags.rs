//! `run` and `sim run` take the same launch flags with the same syntax: sizes, buffers
//! and arguments in decimal or `0x` hex, buffer sizes with K/M suffixes, `--dump`, and
//! errors that name the flag.

mod common;

use common::{fails, ok, scratch};

/// The saxpy example with x[i] = i and a = 2: y[i] = 2·i for i < n (hand computation).
fn saxpy(grid: &str, x: &str, y: &str, n: &str, a: &str) -> String {
    let dir = scratch(&format!("saxpy-{grid}-{x}"));
    let xs: Vec<u8> = (0..16).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let file = dir.join("x.bin");
    std::fs::write(&file, xs).unwrap();
    let x = format!("x={x}:{}", file.display());
    ok(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        grid,
        "--group",
        "0x4",
        "--buffer",
        &x,
        "--buffer",
        &format!("y={y}"),
        "--arg",
        &format!("n={n}"),
        "--arg",
        &format!("a={a}"),
        "--dump",
        "y:f32",
    ])
}

#[test]
fn run_takes_decimal_hex_and_suffixed_numbers() {
    let decimal = saxpy("16", "64", "64", "16", "2");
    assert!(
        decimal.starts_with("y:\n00000000: 0.0 2.0 4.0 6.0\n"),
        "{decimal}"
    );
    assert!(
        decimal.contains("00000030: 24.0 26.0 28.0 30.0\n"),
        "{decimal}"
    );
    // The same launch spelled in hex: the grid that failed to parse before.
    assert_eq!(saxpy("0x10", "0x40", "0x40", "0x10", "2"), decimal);
    // A 1 KiB y buffer: the first 64 bytes as above, the rest untouched zeros.
    let k = saxpy("0x10", "64", "1K", "16", "2");
    assert!(k.starts_with(&decimal), "{k}");
    assert!(k.contains("000003f0: 0.0 0.0 0.0 0.0\n"), "{k}");
}

fn scale(flags: &[&str]) -> String {
    let mut args = vec![
        "sim",
        "run",
        "examples/asm/catalyst_scale.s",
        "--target",
        "gfx8",
        "--catalyst",
        "examples/asm/catalyst_scale.cl",
        "--arg",
        "factor=2",
        "--arg",
        "bias=0x1",
        "--print",
        "out",
    ];
    args.extend_from_slice(flags);
    ok(&args)
}

#[test]
fn sim_run_takes_the_same_flags() {
    // out[gid] = gid * 2 + 1 (the kernel's source): 1, 3, 5, 7 ...
    let old = scale(&[
        "--global", "128", "--local", "64", "--arg", "out=@out", "--buffer", "out=512",
    ]);
    assert!(old.starts_with("buffer out (512 bytes"), "{old}");
    assert!(
        old.contains("  0x0000:          1          3          5          7"),
        "{old}"
    );
    let new = scale(&[
        "--grid",
        "0x80",
        "--group",
        "0x40",
        "--arg",
        "out=out",
        "--buffer",
        "out=0x200",
    ]);
    assert_eq!(new, old);
    // `--buffer out=1K` used to be refused by `sim run`; --dump prints like `run`.
    let k = scale(&[
        "--grid", "128", "--group", "64", "--arg", "out=out", "--buffer", "out=1K", "--dump",
        "out:u32",
    ]);
    assert!(k.starts_with("buffer out (1024 bytes"), "{k}");
    // 128 work-items wrote dwords 0..128; dword 127 is 255, then zeros.
    assert!(k.contains("out:\n00000000: 1 3 5 7\n"), "{k}");
    assert!(
        k.contains("000001f0: 249 251 253 255\n00000200: 0 0 0 0\n"),
        "{k}"
    );
}

#[test]
fn both_commands_name_the_flag_in_errors() {
    let sim = |extra: &[&str]| {
        let mut v = vec![
            "sim",
            "run",
            "examples/asm/catalyst_scale.s",
            "--target",
            "gfx8",
            "--catalyst",
            "examples/asm/catalyst_scale.cl",
            "--arg",
            "factor=2",
            "--arg",
            "bias=1",
            "--arg",
            "out=out",
        ];
        v.extend_from_slice(extra);
        fails(&v)
    };
    let run = |extra: &[&str]| {
        let mut v = vec![
            "run",
            "examples/saxpy.gsir",
            "--buffer",
            "x=64",
            "--buffer",
            "y=64",
            "--arg",
            "n=16",
            "--arg",
            "a=1",
        ];
        v.extend_from_slice(extra);
        fails(&v)
    };
    for (what, err) in [
        ("sim", sim(&["--buffer", "out=lots"])),
        ("run", run(&["--grid", "16", "--buffer", "z=lots"])),
    ] {
        assert!(
            err.contains("=lots: `lots` is not a size in bytes (decimal or 0x hex, K/M suffixes)"),
            "{what}: {err}"
        );
    }
    for err in [
        sim(&["--buffer", "out=64", "--grid", "0xZZ"]),
        run(&["--grid", "0xZZ"]),
    ] {
        assert!(
            err.contains("--grid 0xZZ: `0xZZ` is not a number from 0 to 4294967295"),
            "{err}"
        );
    }
    for err in [
        sim(&["--buffer", "out=64", "--global", "1,2,3,4"]),
        run(&["--grid", "1,2,3,4"]),
    ] {
        assert!(err.contains("--grid 1,2,3,4: expected 1 to 3"), "{err}");
    }
    for err in [
        sim(&["--buffer", "out=64", "--dump", "out:oct"]),
        run(&["--grid", "16", "--dump", "y:oct"]),
    ] {
        assert!(err.contains(":oct: format `oct` is not one of"), "{err}");
    }
    assert!(run(&["--grid", "16", "--max-steps", "many"]).contains("--max-steps"));
    assert!(
        sim(&["--buffer", "out=64", "--max-instructions", "many"]).contains("--max-instructions")
    );
    assert!(
        sim(&["--buffer", "out=64", "--max-memory", "0x10"]).contains("exceeds the memory limit")
    );
}
