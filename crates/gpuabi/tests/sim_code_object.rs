//! `gpuabi sim run FILE.o` and `gpuabi asm disasm FILE.o` on llc-19 code objects, and the
//! `llvm-gfx` contract catching a callee that breaks LLVM's convention: llc-19's assembly
//! of a call is edited so that the callee overwrites v40 (callee-saved in LLVM's
//! `CSR_AMDGPU_VGPRs`) without restoring it, assembled with llvm-mc-19, and run.
//!
//! Skipped with a message when llc-19 or llvm-mc-19 is missing, unless
//! `GPUABI_REQUIRE_LLVM_MC=1`.

mod common;

use std::process::Command;

use common::{fails, ok, scratch};

const IR: &str = "
define internal i32 @madd(i32 %a, i32 %b) noinline {
  %p = mul i32 %a, %b
  %r = add i32 %p, 7
  ret i32 %r
}

define amdgpu_kernel void @twice(ptr addrspace(1) %out, i32 %n) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 @madd(i32 %i, i32 %n)
  %b = call i32 @madd(i32 %a, i32 3)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %b, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @other(ptr addrspace(1) %out) {
  store i32 1, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
";

fn tools_available() -> bool {
    for tool in ["llc-19", "llvm-mc-19"] {
        let found = Command::new(tool)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if !found {
            let msg = format!(
                "{tool} not found: the code object CLI tests are skipped (install Debian's \
                 llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)"
            );
            if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
                panic!("{msg}");
            }
            eprintln!("{msg}");
            return false;
        }
    }
    true
}

fn run_tool(tool: &str, args: &[&str]) {
    let out = Command::new(tool).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The kernel `twice` as the test computes it: madd(madd(i, n), 3), madd(a, b) = a*b + 7.
fn twice(i: u32, n: u32) -> u32 {
    let madd = |a: u32, b: u32| a.wrapping_mul(b).wrapping_add(7);
    madd(madd(i, n), 3)
}

const CPUS: [&str; 2] = ["tonga", "gfx1100"];

/// The numbers of buffer `out` as `sim run --print out` shows them: the indented lines
/// after its header.
fn printed_out(text: &str) -> Vec<u32> {
    text.lines()
        .skip_while(|l| !l.starts_with("buffer out "))
        .skip(1)
        .take_while(|l| l.starts_with("  0x"))
        .flat_map(|l| l.split_once(':').map_or("", |p| p.1).split_whitespace())
        .map(|v| v.parse().unwrap())
        .collect()
}

/// llc-19's flags for `cpu`.
fn llc_flags(cpu: &str) -> [String; 2] {
    ["-mtriple=amdgcn-amd-amdhsa".into(), format!("-mcpu={cpu}")]
}

#[test]
fn sim_run_dispatches_a_code_object_kernel_by_name() {
    if !tools_available() {
        return;
    }
    let dir = scratch("code-object-run");
    let ll = dir.join("twice.ll");
    std::fs::write(&ll, IR).unwrap();
    for cpu in CPUS {
        let obj = dir.join(format!("twice-{cpu}.o"));
        let (ll_s, obj_s) = (ll.to_str().unwrap(), obj.to_str().unwrap());
        let [triple, mcpu] = llc_flags(cpu);
        run_tool(
            "llc-19",
            &[&triple, &mcpu, "-O2", "-filetype=obj", ll_s, "-o", obj_s],
        );
        let out = ok(&[
            "sim", "run", obj_s, "--kernel", "twice", "--grid", "64", "--group", "64", "--buffer",
            "out=256", "--arg", "out=out", "--arg", "n=11", "--abi", "llvm-gfx", "--print", "out",
        ]);
        let values = printed_out(&out);
        let want: Vec<u32> = (0..64).map(|i| twice(i, 11)).collect();
        assert_eq!(values, want, "{cpu}: {out}");
        // Two calls per wave: one wave of 64 on tonga, two of 32 on gfx1100 (llc's
        // default wave size there).
        let calls = if cpu == "tonga" { 2 } else { 4 };
        let summary = format!("contract llvm-gfx: {calls} calls returned, 0 violations");
        assert!(out.contains(&summary), "{cpu}: {out}");
        // A pointer argument may point into a buffer (NAME+OFFSET), as with `run`.
        let out = ok(&[
            "sim",
            "run",
            obj_s,
            "--kernel",
            "twice",
            "--grid",
            "48",
            "--group",
            "48",
            "--buffer",
            "out=256",
            "--arg",
            "out=out+0x40",
            "--arg",
            "n=11",
            "--print",
            "out",
        ]);
        let want: Vec<u32> = std::iter::repeat_n(0, 16)
            .chain((0..48).map(|i| twice(i, 11)))
            .collect();
        assert_eq!(printed_out(&out), want, "{cpu}: {out}");
        // Two kernels: the name is needed, and a wrong one lists them.
        let e = fails(&["sim", "run", obj_s, "--grid", "64", "--buffer", "out=256"]);
        assert!(e.contains("twice, other"), "{e}");
        let e = fails(&["sim", "run", obj_s, "--kernel", "thrice"]);
        assert!(e.contains("no kernel `thrice`"), "{e}");
        // The disassembly names both functions and the relocated call.
        let text = ok(&["asm", "disasm", obj_s]);
        for needle in [
            "madd:",
            "twice:",
            "other:",
            "s_getpc_b64",
            "s_swappc_b64 s[30:31]",
        ] {
            assert!(text.contains(needle), "{cpu}: no `{needle}` in\n{text}");
        }
    }
}

#[test]
fn llvm_gfx_reports_a_callee_that_clobbers_a_callee_saved_vgpr() {
    if !tools_available() {
        return;
    }
    let dir = scratch("code-object-violation");
    let ll = dir.join("twice.ll");
    std::fs::write(&ll, IR).unwrap();
    for cpu in CPUS {
        let s = dir.join(format!("twice-{cpu}.s"));
        let obj = dir.join(format!("twice-{cpu}.o"));
        let [triple, mcpu] = llc_flags(cpu);
        let (ll_s, s_s, obj_s) = (
            ll.to_str().unwrap(),
            s.to_str().unwrap(),
            obj.to_str().unwrap(),
        );
        run_tool("llc-19", &[&triple, &mcpu, "-O2", ll_s, "-o", s_s]);
        // madd returns with `s_setpc_b64 s[30:31]`; overwrite v40 just before.
        let asm = std::fs::read_to_string(&s).unwrap();
        let at = asm.find("madd:").unwrap();
        let ret = at + asm[at..].find("s_setpc_b64 s[30:31]").unwrap();
        let edited = format!("{}v_mov_b32 v40, 0x1234\n\t{}", &asm[..ret], &asm[ret..]);
        std::fs::write(&s, edited).unwrap();
        run_tool(
            "llvm-mc-19",
            &[
                "-triple=amdgcn-amd-amdhsa",
                &mcpu,
                "-filetype=obj",
                s_s,
                "-o",
                obj_s,
            ],
        );
        let run = common::gpuabi(&[
            "sim", "run", obj_s, "--kernel", "twice", "--grid", "64", "--group", "64", "--buffer",
            "out=256", "--arg", "out=out", "--arg", "n=11", "--abi", "llvm-gfx",
        ]);
        assert_eq!(run.code, 1, "{cpu}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("violations of the llvm-gfx call contract"),
            "{cpu}: {}",
            run.stderr
        );
        let violation = run
            .stdout
            .lines()
            .find(|l| l.contains("violation:"))
            .unwrap_or_else(|| panic!("{cpu}: no violation in {}", run.stdout));
        assert!(
            violation.contains("v40") && violation.contains("madd"),
            "{cpu}: {violation}"
        );
        // Without the contract the same object runs to the end.
        ok(&[
            "sim", "run", obj_s, "--kernel", "twice", "--grid", "64", "--group", "64", "--buffer",
            "out=256", "--arg", "out=out", "--arg", "n=11",
        ]);
    }
}
