//! `gpuabi sim run` on PAL compute shaders: examples/pal/scale-gfx1030.s (llc-19's
//! assembly of examples/pal/scale.ll) with user data bound by register through `--buffer
//! sN=…` and `--arg sN=…`, the same shader compiled by llc-19 into objects for tonga and
//! gfx1100, and the errors of bindings that do not fit.
//!
//! The llc-19 parts are skipped with a message when it is missing, unless
//! `GPUABI_REQUIRE_LLVM_MC=1`.

mod common;

use std::process::Command;

use common::{fails_naming, ok, printed_u32s, repo, scratch};

const FACTOR: u32 = 3;
const BIAS: u32 = 7;

fn asm() -> String {
    repo()
        .join("examples/pal/scale-gfx1030.s")
        .display()
        .to_string()
}

fn check_scale(out: &str, buffer: &str, items: u32) {
    let values = printed_u32s(out, buffer);
    assert_eq!(values.len(), 256, "{out}");
    for (i, v) in values.iter().enumerate() {
        let i = i as u32;
        let want = if i < items { i * FACTOR + BIAS } else { 0 };
        assert_eq!(*v, want, "{buffer}[{i}]: {out}");
    }
}

#[test]
fn user_data_is_bound_by_register() {
    let file = asm();
    let base = [
        "sim", "run", &file, "--target", "gfx1030", "--kernel", "scale", "--grid", "192",
        "--group", "64",
    ];
    // A V# for a new buffer in s[1:4], factor and bias in s5 and s6.
    let mut args = base.to_vec();
    args.extend([
        "--buffer", "s1=1K", "--arg", "s5=3", "--arg", "s6=0x7", "--print", "s1",
    ]);
    check_scale(&ok(&args), "s1", 192);
    // The same with a named buffer bound as a V#, and both numbers in one flag.
    let mut args = base.to_vec();
    args.extend([
        "--buffer",
        "out=1K",
        "--arg",
        "s[1:4]=@out",
        "--arg",
        "s[5:6]=3,7",
        "--print",
        "out",
    ]);
    check_scale(&ok(&args), "out", 192);
}

#[test]
fn bindings_that_do_not_fit_name_the_flag() {
    let file = asm();
    let base = [
        "sim", "run", &file, "--target", "gfx1030", "--kernel", "scale", "--buffer", "s1=1K",
    ];
    let cases: [(&[&str], &str); 8] = [
        (
            &["--arg", "factor=3"],
            "--arg factor=3: a PAL shader's metadata names no arguments",
        ),
        (
            &["--arg", "s7=1"],
            "--arg s7=1: s7 is not in the shader's user data: its COMPUTE_PGM_RSRC2.USER_SGPR is 7 (s0-s6)",
        ),
        (
            &["--buffer", "s5=64"],
            "--buffer s5=64: s[5:8] straddles the end of the shader's user data",
        ),
        (
            &["--buffer", "s[5:6]=64"],
            "--buffer s[5:6]=64: a buffer's V# fills 4 SGPRs",
        ),
        (
            &["--arg", "s[5:6]=1"],
            "--arg s[5:6]=1: s[5:6] holds 2 dwords but 1 values were given",
        ),
        (&["--arg", "s5=many"], "--arg s5=many: `many` is not a 32-bit number"),
        (&["--arg", "s2=9"], "--arg s2=9: s2 is bound twice"),
        (&["--set", "s5=1"], "drop --set and --exec"),
    ];
    for (extra, needle) in cases {
        let mut args = base.to_vec();
        args.extend(extra);
        fails_naming(&args, needle);
    }
    fails_naming(
        &[
            "sim", "run", &file, "--target", "gfx1030", "--kernel", "main",
        ],
        "--kernel main: ",
    );
    // The file names its processor (`.amdgcn_target`): --target only confirms it.
    ok(&[
        "sim", "run", &file, "--kernel", "scale", "--buffer", "s1=1K", "--arg", "s5=3", "--arg",
        "s6=7",
    ]);
    fails_naming(
        &[
            "sim", "run", &file, "--target", "gfx1100", "--kernel", "scale", "--buffer", "s1=1K",
        ],
        "--target gfx1100: ",
    );
    fails_naming(
        &[
            "sim", "run", &file, "--target", "gfx1100", "--kernel", "scale", "--buffer", "s1=1K",
        ],
        "scale-gfx1030.s is for gfx1030",
    );
}

fn llc_available() -> bool {
    let found = Command::new("llc-19")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = "llc-19 not found: the PAL object CLI tests are skipped (install Debian's \
                   llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)";
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

fn llc(args: &[&str]) {
    let out = Command::new("llc-19").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "llc-19 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn llc_objects_and_the_example_assembly_run() {
    if !llc_available() {
        return;
    }
    let dir = scratch("sim_pal");
    let src = repo().join("examples/pal/scale.ll").display().to_string();
    // The example's assembly is llc-19's.
    let fresh = dir.join("scale-gfx1030.s").display().to_string();
    llc(&[
        "-mtriple=amdgcn-amd-amdpal",
        "-mcpu=gfx1030",
        "-O2",
        &src,
        "-o",
        &fresh,
    ]);
    assert_eq!(
        std::fs::read_to_string(&fresh).unwrap(),
        std::fs::read_to_string(asm()).unwrap(),
        "examples/pal/scale-gfx1030.s is not what llc-19 writes for scale.ll"
    );
    for cpu in ["tonga", "gfx1030", "gfx1100"] {
        for opt in ["-O0", "-O2"] {
            let obj = dir
                .join(format!("scale-{cpu}{opt}.o"))
                .display()
                .to_string();
            llc(&[
                "-mtriple=amdgcn-amd-amdpal",
                &format!("-mcpu={cpu}"),
                opt,
                "-filetype=obj",
                &src,
                "-o",
                &obj,
            ]);
            let out = ok(&[
                "sim", "run", &obj, "--grid", "256", "--group", "64", "--buffer", "s1=1K", "--arg",
                "s5=3", "--arg", "s6=7", "--print", "s1",
            ]);
            check_scale(&out, "s1", 256);
        }
    }
    // Wave64 on RDNA: the metadata has no COMPUTE_DISPATCH_INITIATOR.CS_W32_EN, so 256
    // work-items run as 4 waves.
    for cpu in ["gfx1030", "gfx1100"] {
        let obj = dir.join(format!("scale-{cpu}-w64.o")).display().to_string();
        llc(&[
            "-mtriple=amdgcn-amd-amdpal",
            &format!("-mcpu={cpu}"),
            "-mattr=+wavefrontsize64",
            "-filetype=obj",
            &src,
            "-o",
            &obj,
        ]);
        let out = ok(&[
            "sim", "run", &obj, "--grid", "256", "--group", "64", "--buffer", "s1=1K", "--arg",
            "s5=3", "--arg", "s6=7", "--print", "s1", "--stats",
        ]);
        check_scale(&out, "s1", 256);
        assert!(
            out.lines().any(|l| l.split_whitespace().eq(["waves", "4"])),
            "{out}"
        );
    }
}
