//! `gpuabi compile` and `gpuabi run --target` with `--entry catalyst`.

mod common;

use common::{fails, gpuabi, json, ok, repo};

fn saxpy_inputs(dir: &std::path::Path) -> (String, String) {
    let x: Vec<u8> = (0..1024)
        .flat_map(|i| (i as f32 * 0.5).to_le_bytes())
        .collect();
    let y: Vec<u8> = (0..1024)
        .flat_map(|i| (1.0 + i as f32).to_le_bytes())
        .collect();
    let (px, py) = (dir.join("x.bin"), dir.join("y.bin"));
    std::fs::write(&px, x).unwrap();
    std::fs::write(&py, y).unwrap();
    (px.display().to_string(), py.display().to_string())
}

#[test]
fn saxpy_runs_under_catalyst_as_the_interpreter_runs_it() {
    let dir = std::env::temp_dir().join(format!("gpuabi-catalyst-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (x, y) = saxpy_inputs(&dir);
    let (bx, by) = (format!("x=4096:{x}"), format!("y=4096:{y}"));
    let run = gpuabi(&[
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "1024",
        "--group",
        "64",
        "--buffer",
        &bx,
        "--buffer",
        &by,
        "--arg",
        "n=1000",
        "--arg",
        "a=2.5",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
        "--compare",
        "--dump",
        "y:f32",
    ]);
    assert!(run.success(), "{}", run.stderr);
    assert!(
        run.stderr.contains("every buffer is identical"),
        "{}",
        run.stderr
    );
    // y[3] = 2.5 * 1.5 + 4 and y[1000] is beyond n: unchanged.
    let values: Vec<&str> = run.stdout.split_whitespace().collect();
    assert!(
        values.contains(&"7.75"),
        "{}",
        &run.stdout[..200.min(run.stdout.len())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compile_prints_code_and_the_layout_as_comments() {
    let out = ok(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
    ]);
    assert!(!out.contains(".amdhsa_kernel"), "{out}");
    assert!(out.contains("; Catalyst OpenCL 1.2 entry"), "{out}");
    // Hand computation (amd user-data policy): cb0 and cb1 need 8 SGPRs and fit; the two
    // UAVs (12, 13) would need 8 more of the remaining 6, so they come through the UAV
    // table at s[2:3]; cb0 at s[4:7], cb1 at s[8:11]; cb1 slots 0, 16, 32, 48.
    // UAV 12 and 13 are entries 12 and 13 of the table, 32 bytes each: 0x180 and 0x1a0.
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "s[2:3] PTR_UAV_TABLE(0)",
        "s[4:7] IMM_CONST_BUFFER(0)",
        "s[8:11] IMM_CONST_BUFFER(1)",
        "s12 group id x",
        "s_buffer_load_dwordx2",
        ", 0x180",
        ", 0x1a0",
    ] {
        assert!(words.contains(want), "missing `{want}`:\n{out}");
    }
    let j = json(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
        "--format",
        "json",
    ]);
    assert_eq!(j["functions"][0]["name"], "saxpy");
    assert_eq!(j["functions"][0]["scratch_bytes"], 0);
}

#[test]
fn catalyst_is_gfx8_only() {
    let e = fails(&[
        "compile",
        "examples/saxpy.gsir",
        "--target",
        "gfx1100",
        "--entry",
        "catalyst",
    ]);
    assert!(e.contains("catalyst") && e.contains("gfx8"), "{e}");
    assert!(repo().join("examples/saxpy.gsir").exists());
}

#[test]
fn a_stack_array_runs_under_catalyst_in_the_scratch_buffer() {
    let run = gpuabi(&[
        "run",
        "examples/prefix_stack.gsir",
        "--grid",
        "192",
        "--group",
        "64",
        "--buffer",
        "out=1K",
        "--arg",
        "out=out",
        "--arg",
        "n=150",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
        "--compare",
        "--dump",
        "out:u32",
    ]);
    assert!(run.success(), "{}", run.stderr);
    assert!(
        run.stderr.contains("every buffer is identical"),
        "{}",
        run.stderr
    );
    // By hand: work-item i's array is [i, 3i, 0, 0, 0, 0, 0, i + 7] and it stores
    // a[i mod 8] + 3i: 0, 6, 6, 9, 12, 15, 18, 35 for i = 0..7; i = 15 gives 22 + 45.
    let values: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.split_once(": ").map(|(_, v)| v))
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(values[..8], ["0", "6", "6", "9", "12", "15", "18", "35"]);
    assert_eq!(values[15], "67");
    // Beyond n the buffer keeps its zeros.
    assert_eq!(values[150], "0");

    // The layout in the comment block has the scratch parts of the ABI.
    let out = ok(&[
        "compile",
        "examples/prefix_stack.gsir",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
    ]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "PTR_INTERNAL_GLOBAL_TABLE",
        "scratch wave offset",
        // Entry 1 of the internal global table, 16 bytes per entry.
        "s_load_dwordx4 s[",
        "], 16",
        "buffer_store_dword",
    ] {
        assert!(words.contains(want), "missing `{want}`:\n{out}");
    }
}
