//! Hostile input on the command line: huge numbers in flags, endless, empty, binary and
//! missing files, directories where files belong. Every run must end with a message and
//! exit 1 or 2 (0 where the input is valid), never a panic, a hang or a huge allocation.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, fails_naming, gpuabi, scratch};

/// Runs `gpuabi ARGS` and checks that it ended cleanly, whatever the verdict.
fn ends_cleanly(args: &[&str]) {
    let run = gpuabi(args);
    assert!(
        matches!(run.code, 0..=2) && !run.stderr.contains("panicked"),
        "gpuabi {args:?} ended with {}: {}",
        run.code,
        run.stderr
    );
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// An empty file, a file of binary garbage and a directory, in a fresh scratch directory.
fn bad_inputs(name: &str) -> [PathBuf; 3] {
    let dir = scratch(name);
    let empty = dir.join("empty");
    std::fs::write(&empty, b"").unwrap();
    let garbage = dir.join("garbage");
    // A fixed byte pattern covering every byte value, invalid UTF-8 included.
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&garbage, bytes).unwrap();
    let sub = dir.join("a-directory");
    std::fs::create_dir_all(&sub).unwrap();
    [empty, garbage, sub]
}

const SAXPY: [&str; 10] = [
    "run",
    "examples/saxpy.gsir",
    "--buffer",
    "x=64",
    "--buffer",
    "y=64",
    "--arg",
    "n=1",
    "--arg",
    "a=1",
];

fn saxpy_with(extra: &[&str]) -> Vec<String> {
    SAXPY.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn png_sizes_beyond_64_bits_are_refused() {
    // --png W×H×4 overflowed u64 (run.rs png_out).
    let v = saxpy_with(&["--grid", "16", "--png", "x:4294967295x4294967295"]);
    fails_naming(&args(&v), "--png");
}

#[test]
fn pointer_offsets_that_wrap_are_refused() {
    // NAME+OFFSET overflowed (run.rs arg_value).
    let v = saxpy_with(&["--grid", "16", "--arg", "x=x+18446744073709551615"]);
    fails_naming(&args(&v), "--arg x=x+18446744073709551615");
}

#[test]
fn huge_grids_and_buffers_are_refused() {
    for extra in [
        &["--grid", "4294967295,4294967295"][..],
        &[
            "--grid",
            "4294967295,4294967295,4294967295",
            "--group",
            "4294967295,4294967295,4294967295",
        ],
        &["--grid", "16", "--group", "0"],
        &["--grid", "0"],
        &["--grid", "16", "--offset", "4294967295"],
        &["--grid", "16", "--buffer", "z=999999999999G"],
        &["--grid", "16", "--buffer", "z=18446744073709551615"],
        &["--grid", "16", "--buffer", "z=99999999999999999999999K"],
    ] {
        let v = saxpy_with(extra);
        ends_cleanly(&args(&v));
    }
    let v = saxpy_with(&["--grid", "16", "--buffer", "z=4294967296"]);
    fails_naming(&args(&v), "--buffer z=4294967296");
}

#[test]
fn endless_files_are_read_with_a_bound() {
    // `/dev/zero` has no end; it was read until memory ran out.
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let z = s(zero);
    let v = saxpy_with(&["--grid", "16", "--buffer", &format!("z=16:{z}")]);
    fails_naming(&args(&v), "larger than 16 bytes");
    fails_naming(&["ir", "check", &z], "larger than");
    fails_naming(&["asm", "check", &z, "--target", "gfx1030"], "larger than");
    fails_naming(&["catalyst", "layout", &z], "larger than");
    let dir = scratch("endless");
    let out = s(&dir.join("linked.bin"));
    fails_naming(&["agx", "link", "--main", &z, "-o", &out], "larger than");
    fails_naming(&["agx", "disasm", &z], "larger than");
    fails_naming(&["agx", "asm", &z], "larger than");
    fails_naming(&["agx", "prolog", "--key", &z], "larger than");
    fails_naming(&["agx", "fs-prolog", "--key", &z], "larger than");
    fails_naming(
        &[
            "agx",
            "run",
            "fragment",
            "--key",
            "examples/agx/fragment_key.toml",
            "--outputs",
            &z,
            "--draw",
            "examples/agx/fragment_draw.toml",
        ],
        "larger than",
    );
}

#[test]
fn empty_binary_and_directory_inputs_end_with_a_message() {
    for input in bad_inputs("inputs") {
        let f = s(&input);
        ends_cleanly(&["ir", "check", &f]);
        ends_cleanly(&["ir", "fmt", &f]);
        ends_cleanly(&["run", &f, "--grid", "1"]);
        ends_cleanly(&["asm", "check", &f, "--target", "gfx1030"]);
        ends_cleanly(&["sim", "run", &f, "--target", "gfx1030"]);
        ends_cleanly(&["catalyst", "layout", &f]);
        ends_cleanly(&["aco", "ranges", "--abi", &f]);
        ends_cleanly(&["aco", "assign", "--abi", "rt-recursive", "--sig", &f]);
        ends_cleanly(&[
            "sim",
            "run",
            "examples/asm/divergent_call.s",
            "--target",
            "gfx1030",
            "--abi",
            &f,
        ]);
        ends_cleanly(&[
            "sim",
            "run",
            "examples/asm/catalyst_scale.s",
            "--target",
            "gfx8",
            "--catalyst",
            &f,
            "--global",
            "64",
        ]);
        let out = s(&input.with_extension("out"));
        ends_cleanly(&["agx", "link", "--main", &f, "--samples", "4", "-o", &out]);
        ends_cleanly(&["agx", "asm", &f]);
        ends_cleanly(&["agx", "disasm", &f]);
        ends_cleanly(&["agx", "sim", &f]);
        ends_cleanly(&["agx", "sim", &f, "--state", &f]);
        ends_cleanly(&["agx", "prolog", "--key", &f]);
        ends_cleanly(&["agx", "epilog", "--key", &f]);
        ends_cleanly(&["agx", "run", "vertex", "--key", &f, "--draw", &f]);
        ends_cleanly(&["agx", "fs-prolog", "--key", &f]);
        let key = "examples/agx/fragment_key.toml";
        let main = "examples/agx/fragment_main.s";
        let draw = "examples/agx/fragment_draw.toml";
        ends_cleanly(&[
            "agx", "run", "fragment", "--key", &f, "--main", main, "--draw", draw,
        ]);
        ends_cleanly(&[
            "agx", "run", "fragment", "--key", key, "--main", &f, "--draw", draw,
        ]);
        ends_cleanly(&[
            "agx", "run", "fragment", "--key", key, "--main", main, "--draw", &f,
        ]);
        ends_cleanly(&[
            "agx",
            "run",
            "fragment",
            "--key",
            key,
            "--outputs",
            &f,
            "--draw",
            draw,
        ]);
        ends_cleanly(&[
            "agx",
            "run",
            "fragment",
            "--key",
            key,
            "--main",
            main,
            "--draw",
            draw,
            "--prolog-key",
            &f,
        ]);
    }
    let [_, garbage, directory] = bad_inputs("inputs-fail");
    for f in [s(&garbage), s(&directory)] {
        fails(&["ir", "check", &f]);
        fails(&["catalyst", "layout", &f]);
    }
    fails_naming(&["ir", "check", &s(&directory)], "directory");
}

#[test]
fn huge_ray_payloads_name_their_flag() {
    // stage_signature made one parameter per payload dword: 2^30 of them.
    fails_naming(
        &[
            "aco",
            "assign",
            "--stage",
            "closest-hit",
            "--payload",
            "4294967295",
        ],
        "--payload",
    );
    fails_naming(
        &[
            "aco",
            "assign",
            "--stage",
            "any-hit",
            "--hit-attribs",
            "4294967295",
        ],
        "--hit-attribs",
    );
    fails_naming(
        &[
            "aco",
            "assign",
            "--stage",
            "any-hit",
            "--payload",
            "4294967295",
        ],
        "--payload",
    );
}

#[test]
fn catalyst_dispatches_beyond_the_wave_limit_are_refused() {
    let base = [
        "sim",
        "run",
        "examples/asm/catalyst_scale.s",
        "--target",
        "gfx8",
        "--catalyst",
        "examples/asm/catalyst_scale.cl",
        "--buffer",
        "buf=4096",
        "--arg",
        "out=@buf",
        "--arg",
        "factor=1",
        "--arg",
        "bias=1",
    ];
    // 65536 groups of 16 waves each were all set up (and kept) before the run: > 20 GB.
    let mut v = base.to_vec();
    v.extend(["--global", "67108864", "--local", "1024"]);
    fails_naming(&v, "limit of 4096");
    // The group count of three 2^32-1 dimensions overflowed 64 bits.
    let mut v = base.to_vec();
    v.extend([
        "--dims",
        "xyz",
        "--global",
        "4294967295,4294967295,4294967295",
        "--local",
        "1,1,1",
    ]);
    fails_naming(&v, "NDRange");
}

#[test]
fn hostile_flags_end_cleanly() {
    let sim = [
        "sim",
        "run",
        "examples/asm/divergent_call.s",
        "--target",
        "gfx1030",
    ];
    for extra in [
        &["--limit", "65535,65535", "--abi", "ahit-isec"][..],
        &["--limit", "4294967295,4294967295", "--abi", "ahit-isec"],
        &["--buffer", "out=999999999999"],
        &["--buffer", "out=18446744073709551615"],
        &["--buffer", "out=u32:"],
        &["--waves", "4294967295"],
        &["--waves", "0"],
        &["--set", "s999999=1"],
        &["--set", "v4294967296=1"],
        &["--set", "s[0:4294967295]=1"],
        &["--set", "v[0:511]=lane"],
        &["--wave", "0"],
        &["--exec", "99999999999999999999999"],
        &[
            "--sp",
            "s[0:4294967295]",
            "--abi",
            "ahit-isec",
            "--preserve",
            "v9999",
        ],
        &[
            "--buffer",
            "out=256",
            "--set",
            "s[2:3]=@out",
            "--scratch-per-lane",
            "4294967295",
        ],
    ] {
        let v: Vec<&str> = sim.iter().chain(extra).copied().collect();
        ends_cleanly(&v);
    }
    for v in [
        &[
            "aco",
            "ranges",
            "--abi",
            "examples/aco/generic.toml",
            "--limit",
            "65535,65535",
        ][..],
        &[
            "aco",
            "assign",
            "--abi",
            "rt-recursive",
            "--sig",
            "a: u32x255",
        ],
        &[
            "aco",
            "assign",
            "--abi",
            "rt-recursive",
            "--sig",
            "a: u32",
            "--min-waves",
            "0",
        ],
        &[
            "aco",
            "assign",
            "--abi",
            "rt-recursive",
            "--sig",
            "a: u32",
            "--min-waves",
            "4294967295",
        ],
        &[
            "aco",
            "assign",
            "--abi",
            "rt-recursive",
            "--sig",
            "a: u32",
            "--limit",
            "0,0",
        ],
        &[
            "aco",
            "assign",
            "--stage",
            "miss",
            "--payload",
            "65536",
            "--format",
            "json",
        ],
        &[
            "catalyst",
            "layout",
            "examples/catalyst/mixed.cl",
            "--cws",
            "4294967295,4294967295,4294967295",
        ],
        &[
            "catalyst",
            "layout",
            "examples/catalyst/mixed.cl",
            "--scratch",
            "4294967295",
            "--hwlocal",
            "4294967295",
        ],
        &[
            "catalyst",
            "layout",
            "examples/catalyst/mixed.cl",
            "--sgprs",
            "4294967295",
            "--vgprs",
            "4294967295",
        ],
        &[
            "catalyst",
            "layout",
            "examples/catalyst/mixed.cl",
            "--uavid",
            "4294967295",
            "--cbid",
            "4294967295",
        ],
        &[
            "catalyst",
            "layout",
            "examples/catalyst/mixed.cl",
            "--userdata",
            "IMM_UAV,4294967295,4294967295,4294967295",
        ],
        &["agx", "tilebuffer", "--rt", "R8_UNORM", "--samples", "0"],
        &["agx", "tilebuffer", "--rt", "R8_UNORM", "--samples", "255"],
        &["agx", "vs", "--components", "4294967295:x"],
        &[
            "agx",
            "vs",
            "--mask",
            "0xfffffffffffffffffffffffffffffffffff",
        ],
        &["agx", "fs", "--color", "255:f32x4"],
        &[
            "agx",
            "velem",
            "--vertex-format",
            "R32G32B32A32_FLOAT",
            "--stride",
            "4294967280",
        ],
    ] {
        ends_cleanly(v);
    }
    let dir = scratch("hostile-link");
    let part = dir.join("part.bin");
    std::fs::write(&part, [0x88u8, 0x00, 0x08]).unwrap();
    let (p, out) = (s(&part), s(&dir.join("out.bin")));
    for samples in ["0", "3", "255"] {
        ends_cleanly(&[
            "agx",
            "link",
            "--main",
            &p,
            "--samples",
            samples,
            "-o",
            &out,
        ]);
    }
    ends_cleanly(&[
        "agx",
        "link",
        "--main",
        &p,
        "--main-gprs",
        "65535",
        "-o",
        &out,
    ]);
    ends_cleanly(&["agx", "link", "--main", &p, "-o", &s(&dir)]);
}

#[test]
fn label_addends_near_the_i64_limits_run() {
    // program.rs Layout::eval: `label + addend` overflowed i64 when the simulator loaded it.
    let dir = scratch("addend");
    let f = dir.join("addend.s");
    std::fs::write(
        &f,
        "main:\n  s_add_u32 s6, s4, main+9223372036854775807\n  s_endpgm\n",
    )
    .unwrap();
    let run = gpuabi(&["sim", "run", &s(&f), "--target", "gfx1030"]);
    assert!(run.success(), "{}", run.stderr);
}

#[test]
fn buffers_are_printed_only_when_asked_for() {
    // `sim run` printed every buffer whole: 1 GB became 3 GB of text in 6 GB of memory.
    // Now it prints, as `run` does, only what --print, --dump or --png name.
    let run = gpuabi(&[
        "sim",
        "run",
        "examples/asm/divergent_call.s",
        "--target",
        "gfx1030",
        "--buffer",
        "out=1000000",
        "--set",
        "s[2:3]=@out",
        "--set",
        "v0=lane",
    ]);
    assert!(run.success(), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("ran main on gfx1030 wave32: 1 wave(s)"),
        "{}",
        run.stderr
    );
}

#[test]
fn scratch_per_lane_is_bounded() {
    // 4 GiB of scratch per lane was accepted; a store near 2 GiB grew every lane to it.
    let dir = scratch("scratch");
    let f = dir.join("scratch.s");
    std::fs::write(
        &f,
        "main:\n  v_mov_b32 v1, 0x7ffffff0\n  scratch_store_dword v1, v1, off\n  s_endpgm\n",
    )
    .unwrap();
    let f = s(&f);
    fails_naming(
        &[
            "sim",
            "run",
            &f,
            "--target",
            "gfx1030",
            "--scratch-per-lane",
            "4294967295",
        ],
        "--scratch-per-lane 4294967295",
    );
    // Within the bound the store is out of range: a message, not an allocation.
    fails_naming(
        &[
            "sim",
            "run",
            &f,
            "--target",
            "gfx1030",
            "--scratch-per-lane",
            "1048576",
        ],
        "scratch",
    );
}
