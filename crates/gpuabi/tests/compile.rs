//! `gpuabi compile` and `gpuabi run --target`.

mod common;

use common::{fails, json, ok, repo};

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

/// `compile`'s output carries each kernel's metadata (its arguments), so `asm check`
/// reads it as it reads llc-19's.
#[test]
fn asm_check_reads_the_compiled_kernels() {
    let dir = common::scratch("compile_check");
    for target in ["gfx8", "gfx1030", "gfx1100"] {
        let file = dir.join(format!("saxpy-{target}.s"));
        let path = file.display().to_string();
        ok(&[
            "compile",
            "examples/saxpy.gsir",
            "--target",
            target,
            "-o",
            &path,
        ]);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains(".name:           x"), "{text}");
        let check = ok(&["asm", "check", &path, "--target", target]);
        assert!(check.contains(": ok:"), "{check}");
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
fn call_sites_are_listed_with_their_locations() {
    let v = json(&[
        "compile",
        "examples/raytrace.gsir",
        "--target",
        "gfx1100",
        "--format",
        "json",
    ]);
    let src = std::fs::read_to_string(repo().join("examples/raytrace.gsir")).unwrap();
    // Every `call` and `call_indirect` in the source is one call site (the kernel's own
    // lines only: comments mention calls too).
    let sites: Vec<(usize, usize)> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with(';'))
        .filter_map(|(i, l)| {
            l.find("call @").or_else(|| l.find("call_indirect "))?;
            // An instruction starts at its first result, or at `call` without results.
            Some((i + 1, l.len() - l.trim_start().len() + 1))
        })
        .collect();
    let calls = v["calls"].as_array().unwrap();
    assert_eq!(calls.len(), sites.len(), "{v}");
    for c in calls {
        let loc = c["location"].as_str().unwrap();
        let mut parts = loc.rsplitn(3, ':');
        let col: usize = parts.next().unwrap().parse().unwrap();
        let line: usize = parts.next().unwrap().parse().unwrap();
        assert!(
            sites.contains(&(line, col)),
            "{loc} is not a call in the source"
        );
        let line_text = src.lines().nth(line - 1).unwrap();
        let callee = c["callee"].as_str().unwrap();
        assert!(
            line_text.contains(callee.trim_start_matches('$')),
            "{loc}: {callee}"
        );
    }
}

#[test]
fn calls_under_the_catalyst_entry_are_refused_naming_it() {
    let e = fails(&[
        "compile",
        "examples/raytrace.gsir",
        "--target",
        "gfx8",
        "--entry",
        "catalyst",
    ]);
    assert!(e.contains("raytrace.gsir"), "{e}");
    assert!(e.contains("catalyst"), "{e}");
}

/// `--print-after PASS` outputs the machine IR after the pass instead of the assembly,
/// headed by the target line the machine-IR reader and the pass file tests take; `all`
/// prints after every pass in order; an unknown pass is refused with the list of passes.
#[test]
fn compile_prints_the_machine_ir_after_a_pass() {
    let base = ["compile", "examples/saxpy.gsir", "--target", "gfx1100"];
    let one = ok(&[&base[..], &["--print-after", "register_allocation"]].concat());
    assert!(
        one.starts_with("; target: gfx1100 wave32\n; after register_allocation\nfunction @saxpy\n"),
        "{one}"
    );
    // Allocated temps print their registers; the assembly is not printed.
    assert!(one.contains(" reg v"), "{one}");
    assert!(!one.contains(".amdhsa_kernel"), "{one}");
    let all = ok(&[&base[..], &["--print-after", "all", "--verify"]].concat());
    let order: Vec<&str> = all
        .lines()
        .filter_map(|l| l.strip_prefix("; after "))
        .collect();
    assert_eq!(
        order,
        [
            "isel",
            "control_flow",
            "insert_exec_mask",
            "register_allocation",
            "ssa_elimination",
            "lower_spills",
            "check_ra",
            "lower_calls",
            "lower_to_hw",
            "insert_waitcnt",
            "form_vopd",
        ]
    );
    let err = fails(&[&base[..], &["--print-after", "regalloc"]].concat());
    assert!(
        err.contains("--print-after regalloc: unknown pass `regalloc`: expected `all` or one of isel, control_flow,"),
        "{err}"
    );
}
