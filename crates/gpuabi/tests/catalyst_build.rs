//! `gpuabi catalyst build`: binaries from assembly and from `.gsir`, read back by
//! `catalyst inspect` and run by `sim run`.

mod common;

use std::path::Path;

use common::{fails, fails_naming, gpuabi, json, ok, printed_u32s, scratch, shared_data};

/// The encoding llvm-mc-19 gives the Pitcairn assembly in `file` (from the repository
/// root), as hex; `None` when llvm-mc-19 is not installed, unless
/// `GPUABI_REQUIRE_LLVM_MC=1`.
fn llvm_mc_hex(file: &str) -> Option<String> {
    let out = std::process::Command::new("llvm-mc-19")
        .args(["-triple=amdgcn", "-mcpu=pitcairn", "-show-encoding"])
        .arg(common::repo().join(file))
        .output();
    let Ok(out) = out else {
        assert!(
            std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() != Ok("1"),
            "llvm-mc-19 not found"
        );
        eprintln!("llvm-mc-19 not found: the code is not checked against it");
        return None;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut hex = String::new();
    for line in text.lines() {
        if let Some((_, enc)) = line.split_once("encoding: [") {
            for byte in enc.trim_end_matches(']').split(',') {
                hex.push_str(byte.trim().trim_start_matches("0x"));
            }
        }
    }
    Some(hex)
}

/// examples/catalyst/iota.s (hand-written for the layout of iota.cl) built for Pitcairn:
/// `inspect` reads back the layout `catalyst layout` computes, and the simulator writes
/// `out[i] = base + i` for the global ids `offset .. offset + grid`.
#[test]
fn hand_written_assembly_builds_reads_back_and_runs() {
    let dir = scratch("iota");
    let clo = dir.join("iota.clo");
    let clo = clo.to_str().unwrap();
    ok(&[
        "catalyst",
        "build",
        "examples/catalyst/iota.s",
        "--source",
        "examples/catalyst/iota.cl",
        "--dims",
        "x",
        "-o",
        clo,
    ]);
    let back = json(&["catalyst", "inspect", clo, "--format", "json"]);
    assert_eq!(back["driver"], 170203);
    assert_eq!(back["machine"], 0x3fe);
    let k = &back["kernels"][0];
    let lay = json(&[
        "catalyst",
        "layout",
        "examples/catalyst/iota.cl",
        "--dims",
        "x",
        "--notes",
        "amd",
        "--vec3-64",
        "amd",
        "--format",
        "json",
    ]);
    for key in [
        "kernel",
        "device",
        "bits",
        "dims",
        "uavid",
        "cbid",
        "printfid",
        "privateid",
        "uavprivate",
        "userdata",
        "user_sgprs",
        "group_id_sgprs",
        "local_id_vgprs",
        "pgm_rsrc2",
        "header",
        "uav_note",
        "cbmask",
        "uav_mask",
        "metadata",
    ] {
        assert_eq!(k[key], lay[key], "{key}");
    }
    // The registers the code names: s16 (group id) and v1, so 17 SGPRs and 2 VGPRs; the
    // code is llvm-mc's encoding of the text.
    assert_eq!(
        (k["sgprs"].as_u64(), k["vgprs"].as_u64()),
        (Some(17), Some(2))
    );
    assert!(
        k["disassembly"]
            .as_str()
            .unwrap()
            .contains("tbuffer_store_format_x v1, v0, s[4:7], 0"),
        "{}",
        k["disassembly"]
    );
    if let Some(hex) = llvm_mc_hex("examples/catalyst/iota.s") {
        assert_eq!(
            k["code"]["hex"].as_str(),
            Some(hex.as_str()),
            "llvm-mc's encoding"
        );
    }
    let out = ok(&[
        "sim",
        "run",
        clo,
        "--grid",
        "8",
        "--group",
        "4",
        "--offset",
        "2",
        "--buffer",
        "o=u32:7,7,7,7,7,7,7,7,7,7,7,7",
        "--arg",
        "base=100",
        "--arg",
        "out=@o",
        "--print",
        "o",
    ]);
    assert_eq!(
        printed_u32s(&out, "o"),
        vec![7, 7, 102, 103, 104, 105, 106, 107, 108, 109, 7, 7],
        "{out}"
    );
}

/// AMD's `add` (samplekernels.clo), disassembled and built again from the text with the
/// prototype of samplekernels.cl: the binary reads back as AMD's kernel does (layout,
/// notes, metadata, code) and runs: `cdat[i] = adat[i] + bdat[i]` for `i < n`.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn amds_add_rebuilt_from_its_disassembly_reads_back_as_amds() {
    let Some(data) = shared_data("amd-catalyst") else {
        return;
    };
    let amd_clo = data.join("samplekernels.clo");
    let amd = json(&[
        "catalyst",
        "inspect",
        amd_clo.to_str().unwrap(),
        "--kernel",
        "add",
        "--format",
        "json",
    ]);
    let dir = scratch("add");
    let s = dir.join("add.s");
    std::fs::write(&s, amd["disassembly"].as_str().unwrap()).unwrap();
    let clo = dir.join("add.clo");
    ok(&[
        "catalyst",
        "build",
        s.to_str().unwrap(),
        "--source",
        data.join("samplekernels.cl").to_str().unwrap(),
        "--kernel",
        "add",
        "--dims",
        "x",
        "-o",
        clo.to_str().unwrap(),
    ]);
    let ours = json(&[
        "catalyst",
        "inspect",
        clo.to_str().unwrap(),
        "--kernel",
        "add",
        "--format",
        "json",
    ]);
    let fields = amd.as_object().unwrap();
    for (key, value) in fields {
        match key.as_str() {
            // File offsets: AMD's file has 2000 bytes of `.llvmir` and a second kernel.
            "cal_notes" | "code" => {}
            // AMD compiled two kernels: `;function:1:1028` (ours: one kernel, 1026).
            "metadata" => {
                let strip = |m: &str| m.replace(";function:1:1028", ";function:1:1026");
                assert_eq!(ours[key].as_str().map(strip), value.as_str().map(strip));
            }
            _ => assert_eq!(&ours[key], value, "{key}"),
        }
    }
    assert_eq!(ours["code"]["hex"], amd["code"]["hex"]);
    let sizes = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["cal_notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["size"].clone())
            .collect()
    };
    assert_eq!(sizes(&ours), sizes(&amd));
    let a: Vec<String> = (0..128u32).map(|i| (1000 + 3 * i).to_string()).collect();
    let b: Vec<String> = (0..128u32).map(|i| (7 * i).to_string()).collect();
    let out = ok(&[
        "sim",
        "run",
        clo.to_str().unwrap(),
        "--grid",
        "128",
        "--group",
        "64",
        "--buffer",
        &format!("a=u32:{}", a.join(",")),
        "--buffer",
        &format!("b=u32:{}", b.join(",")),
        "--buffer",
        &format!("c=u32:{}", vec!["9"; 128].join(",")),
        "--arg",
        "n=100",
        "--arg",
        "adat=@a",
        "--arg",
        "bdat=@b",
        "--arg",
        "cdat=@c",
        "--print",
        "c",
    ]);
    let want: Vec<u32> = (0..128u32)
        .map(|i| if i < 100 { 1000 + 10 * i } else { 9 })
        .collect();
    assert_eq!(printed_u32s(&out, "c"), want);
}

/// A dispatch of a `.gsir` module: `buffers` and `values` are `--buffer` and numeric
/// `--arg` flags; `pointers` the pointer arguments, each bound to the buffer of its name.
struct GsirRun<'a> {
    gsir: &'a str,
    device: &'a str,
    grid: &'a str,
    group: &'a str,
    buffers: &'a [String],
    values: &'a [&'a str],
    pointers: &'a [&'a str],
    out: &'a str,
}

impl GsirRun<'_> {
    /// Builds the module with `catalyst build --device DEVICE`, runs the binary with `sim
    /// run` and the module with the reference interpreter; returns the binary's `inspect`
    /// JSON and the bytes of buffer `out` after each run (simulator, interpreter).
    fn run(&self, dir: &Path) -> (serde_json::Value, Vec<u8>, Vec<u8>) {
        let clo = dir.join("kernel.clo");
        let clo = clo.to_str().unwrap();
        ok(&[
            "catalyst",
            "build",
            self.gsir,
            "--device",
            self.device,
            "-o",
            clo,
        ]);
        let back = json(&["catalyst", "inspect", clo, "--format", "json"]);
        let (sim_out, ir_out) = (dir.join("out.sim"), dir.join("out.ir"));
        let launch = ["--grid", self.grid, "--group", self.group];
        let mut shared_flags: Vec<String> = launch.iter().map(|s| s.to_string()).collect();
        for b in self.buffers {
            shared_flags.extend(["--buffer".to_string(), b.clone()]);
        }
        for v in self.values {
            shared_flags.extend(["--arg".to_string(), v.to_string()]);
        }
        let mut sim: Vec<String> = vec!["sim".into(), "run".into(), clo.into()];
        sim.extend(shared_flags.iter().cloned());
        for p in self.pointers {
            sim.extend(["--arg".to_string(), format!("{p}=@{p}")]);
        }
        sim.extend([
            "--print".to_string(),
            self.out.to_string(),
            "--dump".to_string(),
            format!("{}:bin:{}", self.out, sim_out.display()),
        ]);
        let mut ir: Vec<String> = vec!["run".into(), self.gsir.into()];
        ir.extend(shared_flags);
        for p in self.pointers {
            ir.extend(["--arg".to_string(), format!("{p}={p}")]);
        }
        ir.extend([
            "--dump".to_string(),
            format!("{}:bin:{}", self.out, ir_out.display()),
        ]);
        for args in [&sim, &ir] {
            ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        }
        (
            back,
            std::fs::read(&sim_out).unwrap(),
            std::fs::read(&ir_out).unwrap(),
        )
    }
}

/// examples/saxpy.gsir built for Tonga runs in the simulator from the binary exactly as
/// the reference interpreter runs the IR: the same bytes of `y`.
#[test]
fn gsir_binary_runs_as_the_interpreter() {
    let dir = scratch("saxpy");
    let x: Vec<u8> = (0..1024)
        .flat_map(|i| (i as f32 * 0.5).to_le_bytes())
        .collect();
    let y: Vec<u8> = (0..1024)
        .flat_map(|i| (1.0 + i as f32 * 0.25).to_le_bytes())
        .collect();
    let (px, py) = (dir.join("x.bin"), dir.join("y.bin"));
    std::fs::write(&px, &x).unwrap();
    std::fs::write(&py, &y).unwrap();
    let (back, s, i) = GsirRun {
        gsir: "examples/saxpy.gsir",
        device: "tonga",
        grid: "1024",
        group: "64",
        buffers: &[
            format!("x=4096:{}", px.display()),
            format!("y=4096:{}", py.display()),
        ],
        values: &["n=1000", "a=2.5"],
        pointers: &["x", "y"],
        out: "y",
    }
    .run(&dir);
    assert_eq!(back["bits"], 64);
    assert_eq!(back["machine"], 0x40a);
    assert_eq!(back["kernels"][0]["kernel"], "saxpy");
    assert_eq!(back["kernels"][0]["device"], "tonga");
    assert_eq!(s.len(), 4096);
    assert!(s == i, "the simulator's y differs from the interpreter's");
    // y[3] = 2.5 * 1.5 + 1.75 = 5.5; y[1000] is beyond n: unchanged.
    assert_eq!(&s[12..16], &5.5f32.to_le_bytes());
    assert_eq!(&s[4000..4004], &y[4000..4004]);
}

/// Bad input is an error naming the flag, file or place.
#[test]
fn bad_input_is_named() {
    let dir = scratch("errors");
    let o = dir.join("o.clo");
    let o = o.to_str().unwrap();
    let iota = [
        "catalyst",
        "build",
        "examples/catalyst/iota.s",
        "--source",
        "examples/catalyst/iota.cl",
    ];
    fails_naming(
        &["catalyst", "build", "examples/catalyst/iota.s", "-o", o],
        "--source",
    );
    fails_naming(
        &[&iota[..], &["--device", "pitcairnx", "-o", o]].concat(),
        "unknown device `pitcairnx`; did you mean `pitcairn`?",
    );
    fails_naming(
        &[&iota[..], &["--kernel", "add", "-o", o]].concat(),
        "no kernel `add`",
    );
    // gfx6 spelling on a GCN 1.2 device: the assembly error names file, line and column.
    fails_naming(
        &[&iota[..], &["--device", "tonga", "-o", o]].concat(),
        "examples/catalyst/iota.s:16:2:",
    );
    let e = fails(&["catalyst", "build", "examples/saxpy.gsir", "-o", o]);
    assert!(
        e.contains("--device pitcairn") && e.contains("GCN 1.2"),
        "{e}"
    );
    fails_naming(
        &[
            "catalyst",
            "build",
            "examples/saxpy.gsir",
            "--device",
            "tonga",
            "--bits",
            "32",
            "-o",
            o,
        ],
        "--bits 32",
    );
    fails_naming(
        &[
            "catalyst",
            "build",
            "examples/saxpy.gsir",
            "--device",
            "fiji",
            "--dims",
            "xy",
            "-o",
            o,
        ],
        "only --device, --driver and --bits apply",
    );
    fails_naming(
        &[
            "catalyst",
            "build",
            "examples/saxpy.gsir",
            "--device",
            "tonga",
            "--kernel",
            "nope",
            "-o",
            o,
        ],
        "--kernel nope",
    );
    // Driver 1016.4 numbers the UAVs otherwise than 1702.3, for which the code was laid out.
    fails_naming(
        &[
            "catalyst",
            "build",
            "examples/saxpy.gsir",
            "--device",
            "tonga",
            "--driver",
            "101604",
            "-o",
            o,
        ],
        "moves the argument slots and resources",
    );
    let empty = dir.join("empty.s");
    std::fs::write(&empty, "// no code\n").unwrap();
    fails_naming(
        &[
            "catalyst",
            "build",
            empty.to_str().unwrap(),
            "--source",
            "examples/catalyst/iota.cl",
            "-o",
            o,
        ],
        "0 bytes of code",
    );
    assert!(!Path::new(o).exists(), "no output after an error");
    let run = gpuabi(&["catalyst", "build", "examples/catalyst/iota.s"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// examples/prefix_stack.gsir keeps a stack array in the scratch buffer: its binary (with
/// the SCRATCH_BUFFERS note and the scratch user data) runs in the simulator as the
/// interpreter runs the IR.
#[test]
fn gsir_with_scratch_runs_as_the_interpreter() {
    let dir = scratch("prefix");
    let (back, s, i) = GsirRun {
        gsir: "examples/prefix_stack.gsir",
        device: "ellesmere",
        grid: "192",
        group: "64",
        buffers: &["out=1K".to_string()],
        values: &["n=150"],
        pointers: &["out"],
        out: "out",
    }
    .run(&dir);
    assert_ne!(back["kernels"][0]["scratch_dwords"], 0, "{back}");
    assert!(s.iter().any(|&b| b != 0), "the kernel wrote nothing");
    assert!(s == i, "the simulator's out differs from the interpreter's");
}
