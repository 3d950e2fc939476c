//! `run` and `sim run` take the same launch flags with the same syntax: sizes, buffers
//! and arguments in decimal or `0x` hex, buffer sizes with K/M suffixes, `--dump`, and
//! errors that name the flag. The flags every command shares (`--target`, `--wave`,
//! `-o/--output`, `--png`, `--stats`, `--dump`, `--format`) go through one table of
//! commands: each takes exactly its row's, names only flags it has in its help, and
//! parses, defaults and prints them alike.

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

/// The flags several commands share. Each is spelled, parsed and defaulted the same way by
/// every command that takes it; the table below says which command takes which.
const SHARED: [&str; 7] = [
    "--target", "--wave", "--output", "--png", "--stats", "--dump", "--format",
];

/// Every command and the shared flags it takes (a command missing here fails the test).
const COMMANDS: &[(&[&str], &[&str])] = &[
    (&["aco", "ranges"], &["--target", "--wave", "--format"]),
    (&["aco", "assign"], &["--target", "--wave", "--format"]),
    (&["aco", "overview"], &["--target", "--wave", "--format"]),
    (&["agx", "vs"], &["--format"]),
    (&["agx", "fs"], &["--format"]),
    (&["agx", "tilebuffer"], &["--format"]),
    (&["agx", "velem"], &["--format"]),
    (&["agx", "link"], &["--output", "--format"]),
    (&["agx", "asm"], &["--output", "--format"]),
    (&["agx", "disasm"], &["--format"]),
    (&["agx", "sim"], &["--format"]),
    (&["agx", "prolog"], &["--output", "--format"]),
    (&["agx", "epilog"], &["--output", "--format"]),
    (&["agx", "fs-prolog"], &["--output", "--format"]),
    (&["agx", "key"], &["--output"]),
    (&["agx", "run", "vertex"], &["--stats", "--format"]),
    (
        &["agx", "run", "fragment"],
        &["--png", "--stats", "--format"],
    ),
    (&["catalyst", "layout"], &["--format"]),
    (&["catalyst", "inspect"], &["--format"]),
    (&["catalyst", "build"], &["--output"]),
    (&["asm", "check"], &["--target", "--wave"]),
    (&["asm", "fmt"], &["--target", "--wave"]),
    (&["asm", "encode"], &["--target", "--wave", "--output"]),
    (&["asm", "disasm"], &["--target", "--wave"]),
    (
        &["sim", "run"],
        &["--target", "--wave", "--png", "--stats", "--dump"],
    ),
    (
        &["sim", "check-function"],
        &["--target", "--wave", "--format"],
    ),
    (&["radv", "run"], &["--stats", "--dump", "--format"]),
    (&["ir", "check"], &[]),
    (&["ir", "fmt"], &[]),
    (&["ir", "emit-llvm"], &["--output"]),
    (
        &["compile"],
        &["--target", "--wave", "--output", "--format"],
    ),
    (
        &["run"],
        &["--target", "--wave", "--png", "--stats", "--dump"],
    ),
];

/// (command, flag, why): a shared flag's name that a command takes in a form of its own.
const OWN_FORM: &[(&[&str], &str, &str)] = &[(
    &["radv", "run"],
    "--png",
    "`radv run --png FILE` writes the one output buffer, whose size in pixels the scene \
     gives, so it names no buffer and no WxH",
)];

/// `gpuabi ARGS --help`.
fn help(args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.push("--help");
    ok(&a)
}

/// The long flags a help text lists as its own options.
fn own_flags(help: &str) -> Vec<String> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            // `-o, --output`, `-w, --write`.
            let l = match l.as_bytes() {
                [b'-', c, b',', b' ', ..] if c.is_ascii_alphabetic() => &l[4..],
                _ => l,
            };
            let flag = l.strip_prefix("--")?;
            let name: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            Some(format!("--{name}"))
        })
        .collect()
}

/// The commands `gpuabi` has, from the help texts.
fn leaves(path: Vec<&'static str>, out: &mut Vec<Vec<&'static str>>) {
    let text = help(&path);
    let Some(list) = text.split("Commands:\n").nth(1) else {
        out.push(path);
        return;
    };
    for line in list.lines().take_while(|l| l.starts_with("  ")) {
        let name = line.split_whitespace().next().unwrap_or("help");
        if name != "help" {
            let mut p = path.clone();
            // The names live as long as the test; leaking them keeps the table's type.
            p.push(Box::leak(name.to_string().into_boxed_str()));
            leaves(p, out);
        }
    }
}

#[test]
fn every_command_takes_the_shared_flags_of_its_row() {
    let mut all = Vec::new();
    leaves(Vec::new(), &mut all);
    let listed: Vec<Vec<&str>> = COMMANDS.iter().map(|(c, _)| c.to_vec()).collect();
    for c in &all {
        assert!(
            listed.contains(c),
            "`gpuabi {}` has no row in COMMANDS",
            c.join(" ")
        );
    }
    assert_eq!(all.len(), COMMANDS.len(), "{all:?}");
    for (cmd, shared) in COMMANDS {
        let text = help(cmd);
        let own = own_flags(&text);
        let name = cmd.join(" ");
        for flag in SHARED {
            if OWN_FORM.iter().any(|(c, f, _)| *c == *cmd && *f == flag) {
                continue;
            }
            assert_eq!(
                own.iter().any(|f| f == flag),
                shared.contains(&flag),
                "`gpuabi {name}` and {flag}"
            );
        }
        // Help texts name only flags the command has.
        for word in text.split(|c: char| c.is_whitespace() || "()[],;`'\"".contains(c)) {
            if let Some(flag) = word.strip_prefix("--").filter(|f| f.len() > 1) {
                let flag: String = flag
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                let flag = format!("--{flag}");
                // `run` and `sim run` list the aliases --global and --local.
                let alias = text.contains(&format!("[alias: {flag}]"));
                assert!(
                    own.contains(&flag) || alias || flag == "--help",
                    "`gpuabi {name} --help` names {flag}, which it does not take"
                );
            }
        }
        // One spelling: -o beside --output; --wave's default said the same way.
        if shared.contains(&"--output") {
            assert!(
                text.contains("-o, --output"),
                "`gpuabi {name}`: -o, --output"
            );
        }
        if shared.contains(&"--wave") {
            assert!(
                text.contains("native wave size") && text.contains("wave32 on RDNA"),
                "`gpuabi {name} --help` does not give --wave's default: {text}"
            );
        }
        if shared.contains(&"--png") {
            assert!(
                text.contains(":WxH[:FILE]"),
                "`gpuabi {name}`: --png syntax"
            );
        }
    }
}

/// A file in a fresh scratch directory.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Runs `args` and returns standard output and error together.
fn both(args: &[&str]) -> String {
    let run = common::gpuabi(args);
    assert!(run.success(), "gpuabi {args:?}: {}", run.stderr);
    run.stdout + &run.stderr
}

#[test]
fn targets_and_wave_sizes_are_taken_alike() {
    let dir = scratch("shared-target");
    let endpgm = file(&dir, "end.s", "main:\n  s_endpgm\n");
    let saxpy = [
        "run",
        "examples/saxpy.gsir",
        "--grid",
        "64",
        "--group",
        "64",
        "--buffer",
        "x=256",
        "--buffer",
        "y=256",
        "--arg",
        "n=64",
        "--arg",
        "a=2",
    ];
    // For each command with --target and --wave: the invocation, and the text that
    // shows the target and wave size it ran with (`{}` for e.g. `gfx1030 wave32`).
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["aco", "ranges", "--abi", "traversal"],
            "ABI traversal on {},",
        ),
        (
            vec!["aco", "assign", "--stage", "raygen"],
            "ABI rt-recursive on {},",
        ),
        (vec!["aco", "overview"], "ABI traversal on {},"),
        (vec!["asm", "check", &endpgm], "({})"),
        (vec!["sim", "run", &endpgm], "ran main on {}:"),
        (saxpy.to_vec(), "compiled for {}:"),
    ];
    for (args, shows) in &cases {
        for (target, llvm_name, native) in [
            ("gfx8", "fiji", "gfx8 wave64"),
            ("gfx1030", "gfx1034", "gfx1030 wave32"),
            ("gfx1100", "gfx1102", "gfx1100 wave32"),
        ] {
            let want = shows.replace("{}", native);
            for spelled in [target, llvm_name] {
                let mut a = args.clone();
                a.extend(["--target", spelled]);
                let out = both(&a);
                assert!(out.contains(&want), "{a:?}: {out}");
            }
        }
        // An explicit wave size, and one the target does not run.
        let mut a = args.clone();
        a.extend(["--target", "gfx1030", "--wave", "64"]);
        let out = both(&a);
        assert!(
            out.contains(&shows.replace("{}", "gfx1030 wave64")),
            "{a:?}: {out}"
        );
        let mut a = args.clone();
        a.extend(["--target", "gfx8", "--wave", "32"]);
        assert!(fails(&a).contains("--wave"), "{a:?}");
        // An unknown target lists what is modelled.
        let mut a = args.clone();
        a.extend(["--target", "navi21"]);
        let e = fails(&a);
        assert!(
            e.contains("navi21") && e.contains("gfx8 (gfx801-gfx810: carrizo"),
            "{a:?}: {e}"
        );
    }
    // The rest of the machine-code commands read the target the same way (MachineArgs).
    for cmd in [["asm", "fmt"], ["asm", "disasm"]] {
        let e = fails(&[cmd[0], cmd[1], &endpgm, "--target", "navi21"]);
        assert!(e.contains("gfx1100 (gfx1100-gfx1103"), "{cmd:?}: {e}");
    }
}

#[test]
fn outputs_are_written_by_o_and_output() {
    let dir = scratch("shared-output");
    let endpgm = file(&dir, "end.s", "main:\n  s_endpgm\n");
    let agx = file(&dir, "p.agx.s", "stop\n");
    let cases: Vec<Vec<&str>> = vec![
        vec!["compile", "examples/saxpy.gsir", "--target", "gfx8"],
        vec![
            "catalyst",
            "build",
            "examples/catalyst/iota.s",
            "--source",
            "examples/catalyst/iota.cl",
            "--dims",
            "x",
        ],
        vec!["asm", "encode", &endpgm, "--target", "gfx1030"],
        vec!["ir", "emit-llvm", "examples/saxpy.gsir"],
        vec!["agx", "asm", &agx],
        vec!["agx", "prolog", "--key", "examples/agx/vertex_key.toml"],
        vec!["agx", "epilog", "--key", "examples/agx/fragment_key.toml"],
    ];
    for args in &cases {
        let (short, long) = (dir.join("short.out"), dir.join("long.out"));
        let mut a = args.clone();
        a.extend(["-o", short.to_str().unwrap()]);
        ok(&a);
        let mut a = args.clone();
        a.extend(["--output", long.to_str().unwrap()]);
        ok(&a);
        let (s, l) = (
            std::fs::read(&short).unwrap(),
            std::fs::read(&long).unwrap(),
        );
        assert!(!s.is_empty() && s == l, "{args:?}");
    }
}

#[test]
fn run_and_sim_run_print_stats_dumps_and_pictures_alike() {
    let dir = scratch("shared-print");
    let png = dir.join("p.png");
    // `run`: saxpy with a = 2 and x[i] = i, so y[i] = 2i; `sim run`: the Catalyst scale
    // kernel with factor 2 and bias 1, so out[i] = 2i + 1. 64 work-items each.
    let xs: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let x = dir.join("x.bin");
    std::fs::write(&x, xs).unwrap();
    let xbuf = format!("x=256:{}", x.display());
    let run_with = |extra: &[&str]| {
        let mut a = vec![
            "run",
            "examples/saxpy.gsir",
            "--target",
            "gfx1030",
            "--grid",
            "64",
            "--group",
            "64",
            "--buffer",
            &xbuf,
            "--buffer",
            "y=256",
            "--arg",
            "n=64",
            "--arg",
            "a=2",
        ];
        a.extend(extra);
        common::gpuabi(&a)
    };
    let sim_with = |extra: &[&str]| {
        let mut a = vec![
            "sim",
            "run",
            "examples/asm/catalyst_scale.s",
            "--target",
            "gfx8",
            "--catalyst",
            "examples/asm/catalyst_scale.cl",
            "--grid",
            "64",
            "--group",
            "64",
            "--buffer",
            "out=256",
            "--arg",
            "factor=2",
            "--arg",
            "bias=1",
        ];
        a.extend(extra);
        common::gpuabi(&a)
    };
    // Nothing on standard output by default.
    for r in [run_with(&[]), sim_with(&[])] {
        assert!(r.success(), "{}", r.stderr);
        assert_eq!(r.stdout, "");
    }
    // --dump prints only what it names, in one layout.
    let r = run_with(&["--dump", "y:u32", "--dump", "y:f32"]);
    let s = sim_with(&["--dump", "out:u32", "--dump", "out:f32"]);
    assert!(
        r.stdout
            .starts_with("y:\n00000000: 0 1073741824 1082130432"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("y:\n00000000: 0.0 2.0 4.0 6.0\n"),
        "{}",
        r.stdout
    );
    assert!(
        s.stdout.starts_with("out:\n00000000: 1 3 5 7\n"),
        "{}",
        s.stdout
    );
    assert_eq!(r.stdout.lines().count(), s.stdout.lines().count());
    // --stats: one layout (the same labels in the same order).
    let labels = |out: &str| -> Vec<String> {
        out.lines()
            .take_while(|l| !l.is_empty())
            .map(|l| l.rsplit_once(' ').map_or(l, |p| p.0).trim_end().to_string())
            .collect()
    };
    let (r, s) = (run_with(&["--stats"]), sim_with(&["--stats"]));
    assert!(r.stdout.starts_with("statistics:\n  waves"), "{}", r.stdout);
    assert_eq!(
        labels(&r.stdout),
        labels(&s.stdout),
        "{}\n{}",
        r.stdout,
        s.stdout
    );
    // --png NAME:WxH:FILE in both.
    let p = |name: &str| format!("{name}:8x8:{}", png.display());
    for (name, is_sim) in [("y", false), ("out", true)] {
        let flags = ["--png", &p(name)];
        let r = if is_sim {
            sim_with(&flags)
        } else {
            run_with(&flags)
        };
        assert!(r.success(), "{}", r.stderr);
        let file = std::io::BufReader::new(std::fs::File::open(&png).unwrap());
        let reader = png::Decoder::new(file).read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (8, 8));
        std::fs::remove_file(&png).unwrap();
    }
    for r in [
        run_with(&["--png", "y.png"]),
        sim_with(&["--png", "out.png"]),
    ] {
        assert!(
            r.stderr.contains(".png: expected NAME:WxH[:FILE]"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn formats_and_abi_names_are_spelled_alike() {
    // --format json gives JSON wherever it is offered with that value.
    let cases: [&[&str]; 5] = [
        &["aco", "ranges", "--abi", "traversal"],
        &["catalyst", "layout", "examples/catalyst/iota.cl"],
        &["agx", "tilebuffer", "--rt", "R8G8B8A8_UNORM"],
        &["compile", "examples/saxpy.gsir", "--target", "gfx8"],
        &[
            "agx",
            "run",
            "vertex",
            "--key",
            "examples/agx/vertex_key.toml",
            "--draw",
            "examples/agx/vertex_draw.toml",
        ],
    ];
    for args in cases {
        let mut a = args.to_vec();
        a.extend(["--format", "json"]);
        let out = ok(&a);
        assert!(
            serde_json::from_str::<serde_json::Value>(&out).is_ok(),
            "{a:?}: {out}"
        );
    }
    // svg is offered only where a picture is drawn.
    let e = fails(&[
        "agx", "link", "--main", "x.bin", "-o", "y.bin", "--format", "svg",
    ]);
    assert!(e.contains("invalid value 'svg'"), "{e}");
    // The built-in ABIs: `rt-recursive`, with `rt_recursive` accepted, in every command.
    let compile = |abi: &str| {
        ok(&[
            "compile",
            "examples/raytrace.gsir",
            "--target",
            "gfx1100",
            "--abi-override",
            &format!("shade={abi}"),
        ])
    };
    assert_eq!(compile("rt-recursive"), compile("rt_recursive"));
    assert_eq!(compile("ahit-isec"), compile("ahit_isec"));
    assert_eq!(compile("llvm-amdgpu-gfx"), compile("llvm_amdgpu_gfx"));
    // `*` puts every function but the kernel under LLVM's convention: every call jumps
    // through s[16:17] and returns to s[30:31].
    let every = ok(&[
        "compile",
        "examples/raytrace.gsir",
        "--target",
        "gfx1100",
        "--abi-override",
        "*=llvm-gfx",
    ]);
    let calls: Vec<&str> = every
        .lines()
        .filter(|l| l.contains("s_swappc_b64"))
        .collect();
    assert!(calls.len() > 20, "{every}");
    assert!(
        calls
            .iter()
            .all(|l| l.trim() == "s_swappc_b64 s[30:31], s[16:17]"),
        "{calls:?}"
    );
    // An unknown ABI names the flag and lists the ABIs there are.
    let e = fails(&[
        "compile",
        "examples/raytrace.gsir",
        "--target",
        "gfx1100",
        "--abi-override",
        "*=llvm",
    ]);
    assert!(
        e.contains("--abi-override *=llvm: unknown ABI `llvm`"),
        "{e}"
    );
    for name in [
        "rt-recursive",
        "traversal",
        "ahit-isec",
        "compute",
        "llvm-gfx",
        "llvm-amdgpu-gfx",
    ] {
        assert!(e.contains(name), "{name}: {e}");
    }
    let ranges = |abi: &str| ok(&["aco", "ranges", "--abi", abi]);
    assert_eq!(ranges("ahit-isec"), ranges("ahit_isec"));
}

#[test]
fn a_catalyst_binary_binds_buffers_by_name() {
    // `catalyst build` then `sim run` with --buffer alone: the pointer `out` finds the
    // buffer `out` (it needed --arg out=@out). iota: out[i] = base + i.
    let dir = scratch("shared-catalyst");
    let clo = dir.join("iota.clo");
    ok(&[
        "catalyst",
        "build",
        "examples/catalyst/iota.s",
        "--source",
        "examples/catalyst/iota.cl",
        "--dims",
        "x",
        "--output",
        clo.to_str().unwrap(),
    ]);
    let out = ok(&[
        "sim",
        "run",
        clo.to_str().unwrap(),
        "--grid",
        "256",
        "--group",
        "64",
        "--buffer",
        "out=1K",
        "--arg",
        "base=100",
        "--dump",
        "out:u32",
    ]);
    assert!(
        out.starts_with("out:\n00000000: 100 101 102 103\n"),
        "{out}"
    );
    assert!(out.contains("000003f0: 352 353 354 355\n"), "{out}");
}
