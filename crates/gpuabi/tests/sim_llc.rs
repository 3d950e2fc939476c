//! llc-19's assembly and objects for gfx803 (Fiji, Polaris), gfx1030 and gfx1100 run with
//! `sim run FILE --kernel K --buffer NAME=SIZE --arg ...` and nothing more: the file names
//! its processor and wave size, each buffer binds the pointer argument of its name, a
//! 64-bit argument arrives with all its bits, and only what `--dump` names is printed.
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

mod common;

use std::process::Command;

use common::{fails, gpuabi, scratch};

/// `out[i] = i * seed + n` (64-bit, n sign-extended) and `f[i] = i * scale` for the
/// work-item id i of one work-group.
const IR: &str = "
define amdgpu_kernel void @mix(ptr addrspace(1) %out, ptr addrspace(1) %f, i64 %seed,
                               i32 %n, float %scale) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %x = zext i32 %i to i64
  %m = mul i64 %x, %seed
  %nn = sext i32 %n to i64
  %v = add i64 %m, %nn
  %p = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %v, ptr addrspace(1) %p
  %fi = uitofp i32 %i to float
  %s = fmul float %fi, %scale
  %q = getelementptr float, ptr addrspace(1) %f, i32 %i
  store float %s, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
";

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
const N: i32 = -7;
const SCALE: f32 = 0.5;

fn llc_available() -> bool {
    let found = Command::new("llc-19")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = "llc-19 not found: the llc-19 sim run tests are skipped (install Debian's \
                   llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)";
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

/// The bytes of each buffer `--dump NAME:hex` printed, by name.
fn dumped(stdout: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for line in stdout.lines() {
        if let Some(name) = line.strip_suffix(':') {
            out.push((name.to_string(), Vec::new()));
            continue;
        }
        let (_, bytes) = line.split_once(": ").expect("a dump line");
        let last = out.last_mut().expect("a dump header first");
        last.1.extend(
            bytes
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap()),
        );
    }
    out
}

#[test]
fn llc_files_run_with_buffers_and_arguments_alone() {
    if !llc_available() {
        return;
    }
    let dir = scratch("sim-llc");
    let ll = dir.join("mix.ll");
    std::fs::write(&ll, IR).unwrap();
    let seed = format!("seed=0x{SEED:X}");
    let n = format!("n={N}");
    let scale = format!("scale={SCALE}");
    for cpu in ["gfx803", "gfx1030", "gfx1100"] {
        for filetype in ["asm", "obj"] {
            let file = dir.join(format!("mix-{cpu}.{filetype}"));
            let made = Command::new("llc-19")
                .args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={cpu}")])
                .arg(format!("-filetype={filetype}"))
                .arg(&ll)
                .arg("-o")
                .arg(&file)
                .status()
                .unwrap();
            assert!(made.success(), "llc-19 -mcpu={cpu} -filetype={filetype}");
            let file = file.to_str().unwrap();
            let run = gpuabi(&[
                "sim", "run", file, "--kernel", "mix", "--buffer", "out=512", "--buffer", "f=256",
                "--arg", &seed, "--arg", &n, "--arg", &scale, "--dump", "out", "--dump", "f",
            ]);
            assert!(run.success(), "{cpu} {filetype}: {}", run.stderr);
            // Only the two dumps: no other buffer (the object's .rodata, kernarg) is printed.
            let dumps = dumped(&run.stdout);
            let names: Vec<&str> = dumps.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["out", "f"], "{cpu} {filetype}");
            // The default dispatch: 64 work-items in one work-group.
            for i in 0..64usize {
                let o = &dumps[0].1[8 * i..8 * i + 8];
                let want = (i as u64)
                    .wrapping_mul(SEED)
                    .wrapping_add(i64::from(N) as u64);
                assert_eq!(
                    u64::from_le_bytes(o.try_into().unwrap()),
                    want,
                    "{cpu} {filetype}: out[{i}]"
                );
                let f = &dumps[1].1[4 * i..4 * i + 4];
                assert_eq!(
                    f32::from_le_bytes(f.try_into().unwrap()),
                    i as f32 * SCALE,
                    "{cpu} {filetype}: f[{i}]"
                );
            }
            // The file's own processor decides; --target may only confirm it.
            let e = fails(&[
                "sim", "run", file, "--kernel", "mix", "--buffer", "out=512", "--buffer", "f=256",
                "--arg", &seed, "--arg", &n, "--arg", &scale, "--target", "gfx6",
            ]);
            assert!(e.contains("--target gfx6: "), "{e}");
            assert!(e.contains(&format!("is for {cpu}")), "{e}");
        }
    }
}

/// A callee and a kernel that calls it: `out[i] = madd(i, n)`.
const CALL_IR: &str = "
define internal i32 @madd(i32 %a, i32 %b) noinline {
  %p = mul i32 %a, %b
  %r = add i32 %p, 7
  ret i32 %r
}

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 @madd(i32 %i, i32 %n)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %a, ptr addrspace(1) %p
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
";

#[test]
fn a_callee_returning_past_its_return_address_is_a_violation() {
    if !llc_available() {
        return;
    }
    let dir = scratch("sim-llc-return");
    let ll = dir.join("call.ll");
    std::fs::write(&ll, CALL_IR).unwrap();
    for cpu in ["gfx803", "gfx1100"] {
        let s = dir.join(format!("call-{cpu}.s"));
        let made = Command::new("llc-19")
            .args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={cpu}")])
            .arg(&ll)
            .arg("-o")
            .arg(&s)
            .status()
            .unwrap();
        assert!(made.success(), "llc-19 -mcpu={cpu}");
        let file = s.to_str().unwrap();
        let args = [
            "sim", "run", file, "--kernel", "k", "--buffer", "out=256", "--arg", "n=3", "--abi",
            "llvm-gfx",
        ];
        let run = gpuabi(&args);
        assert!(run.success(), "{cpu}: {}", run.stderr);
        // The callee returns 8 bytes past its return address through s[4:5], which LLVM's
        // convention lets it clobber: only the return itself is wrong.
        let text = std::fs::read_to_string(&s).unwrap();
        assert_eq!(text.matches("s_setpc_b64 s[30:31]").count(), 1, "{cpu}");
        let broken = text.replace(
            "s_setpc_b64 s[30:31]",
            "s_add_u32 s4, s30, 8\n\ts_addc_u32 s5, s31, 0\n\ts_setpc_b64 s[4:5]",
        );
        std::fs::write(&s, broken).unwrap();
        let run = gpuabi(&args);
        assert!(!run.success(), "{cpu}: {}", run.stdout);
        assert!(
            run.stdout
                .contains("contract llvm-gfx: 1 calls returned, 1 violations"),
            "{cpu}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("went back into its caller at 0x"),
            "{cpu}: {}",
            run.stdout
        );
        // Named by the function that returns, not by the label that ends the one before.
        assert!(
            run.stdout.contains(", in madd, not to the return address"),
            "{cpu}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains(".Lfunc_end"), "{cpu}: {}", run.stdout);
    }
}
