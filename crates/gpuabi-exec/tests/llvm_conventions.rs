//! gpuabi's code with every function under one of LLVM's conventions for callable
//! functions (`--abi-override '*=llvm-gfx'`), checked by gpuabi-sim's own LLVM contract
//! rather than by the code generator's call sites: the compiled assembly text is read back
//! and run exactly as llc-19's is (`Assembly::run`, every call checked against the
//! `llvm-gfx` contract: `CSR_AMDGPU` preserved in every lane, s32 restored, no store below
//! the callee's s32), and must leave the interpreter's buffers, for every example with
//! calls on tonga, gfx1030 and gfx1100.

mod common;

use common::versus_llc::{examples, Launch, CPUS};
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_exec::{Assembly, Outcome};

/// `launch` compiled with every function under `abi`, as assembly text.
fn assembly(launch: &Launch, target: Target, wave: WaveSize, abi: &str) -> String {
    let module = gpuabi_ir::parse(&launch.source).expect("the example parses");
    let mut opts = gpuabi_codegen::Options::new(target);
    opts.wave = wave;
    let call_opts = gpuabi_codegen::CallOptions {
        overrides: vec![("*".into(), abi.into())],
        ..Default::default()
    };
    let compiled = gpuabi_codegen::compile_with(&module, &opts, &call_opts)
        .unwrap_or_else(|e| panic!("{} under {abi}: {e}", launch.name));
    compiled.assembly().expect("prints")
}

/// Runs `text` as another compiler's assembly (checked against `llvm-gfx`); returns the
/// outcome and the interpreter's buffers.
fn run_as_llc(
    launch: &Launch,
    text: &str,
    target: Target,
    wave: WaveSize,
) -> (Outcome, Vec<(String, Vec<u8>)>) {
    let module = gpuabi_ir::parse(&launch.source).expect("parses");
    let asm = Assembly::parse(text, target, wave).expect("gpuabi's assembly reads back");
    let addrs = asm.function_addresses(&module).expect("addresses");
    let expected = gpuabi_exec::interpret_at(
        &module,
        &addrs,
        &launch.kernel,
        &launch.dispatch,
        &launch.args,
        &launch.buffers,
        &gpuabi_ir::interp::Limits::default(),
    )
    .expect("the interpreter runs the example");
    let out = asm
        .run(
            &launch.kernel,
            &launch.dispatch,
            &launch.args,
            &launch.buffers,
            &gpuabi_sim::Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", launch.name));
    (out, expected)
}

fn with_calls() -> Vec<Launch> {
    examples()
        .into_iter()
        .filter(|l| gpuabi_ir::parse(&l.source).expect("parses").functions.len() > 1)
        .collect()
}

#[test]
fn examples_under_llvm_gfx_keep_llvms_own_contract() {
    let launches = with_calls();
    assert!(launches.iter().any(|l| l.name == "raytrace"));
    for launch in &launches {
        for (cpu, target, wave) in CPUS {
            let text = assembly(launch, target, wave, "llvm-gfx");
            let (out, expected) = run_as_llc(launch, &text, target, wave);
            let what = format!("{} on {cpu}", launch.name);
            assert!(
                out.violations.is_empty(),
                "{what}: {} violations, the first: {}",
                out.violations.len(),
                out.violations[0]
            );
            assert!(out.checked_returns > 0, "{what}: no call was checked");
            if let Some(d) = gpuabi_exec::first_difference(&expected, &out.buffers) {
                panic!("{what}: buffer `{}` byte {} differs", d.buffer, d.offset);
            }
        }
    }
}

/// The check can fail: `amdgpu_gfx` functions may clobber s32-s63 but for the stack and
/// frame pointers, which `CSR_AMDGPU` preserves, and gpuabi's callers put the callee's
/// address in s[34:35] under `llvm-amdgpu-gfx`. Checked against `llvm-gfx`, a function
/// that calls another breaks its own caller's s34.
#[test]
fn llvm_amdgpu_gfx_code_breaks_the_llvm_gfx_contract() {
    let launch = with_calls()
        .into_iter()
        .find(|l| l.name == "raytrace")
        .expect("raytrace");
    let (cpu, target, wave) = CPUS[2];
    let text = assembly(&launch, target, wave, "llvm-amdgpu-gfx");
    let (out, _) = run_as_llc(&launch, &text, target, wave);
    let first = out
        .violations
        .first()
        .unwrap_or_else(|| panic!("{cpu}: no violation"))
        .to_string();
    assert!(first.contains("s34") || first.contains("s35"), "{first}");
}

/// Under `llvm-amdgpu-gfx` every call is checked against the code generator's call sites,
/// whose preserved registers are `CSR_AMDGPU_SI_Gfx` (gpuabi-layout's list, the one
/// gpuabi-sim's `llvm-amdgpu-gfx` contract reads) below the register limit.
#[test]
fn examples_under_llvm_amdgpu_gfx_match_the_interpreter() {
    use gpuabi_layout::llvm::LlvmAbi;
    use gpuabi_layout::reg::{Reg, RegFile};
    for launch in &with_calls() {
        let module = gpuabi_ir::parse(&launch.source).expect("parses");
        for (cpu, target, wave) in CPUS {
            let mut opts = gpuabi_codegen::Options::new(target);
            opts.wave = wave;
            let call_opts = gpuabi_codegen::CallOptions {
                overrides: vec![("*".into(), "llvm-amdgpu-gfx".into())],
                ..Default::default()
            };
            let compiled =
                gpuabi_codegen::compile_with(&module, &opts, &call_opts).expect("compiles");
            let csr = LlvmAbi::AmdgpuGfx.preserved();
            for c in &compiled.calls {
                assert_eq!(c.abi, "llvm-amdgpu-gfx");
                for num in [4, 31, 64] {
                    let r = Reg {
                        file: RegFile::Sgpr,
                        num,
                    };
                    assert!(csr.contains(r) && c.preserved.contains(r), "s{num}");
                }
                assert!(!c.preserved.contains(Reg {
                    file: RegFile::Sgpr,
                    num: 34
                }));
            }
            let addrs = gpuabi_exec::function_addresses(&module, &compiled).expect("addresses");
            let expected = gpuabi_exec::interpret_at(
                &module,
                &addrs,
                &launch.kernel,
                &launch.dispatch,
                &launch.args,
                &launch.buffers,
                &gpuabi_ir::interp::Limits::default(),
            )
            .expect("interprets");
            let out = gpuabi_exec::run(
                &compiled,
                &launch.kernel,
                &launch.dispatch,
                &launch.args,
                &launch.buffers,
                &gpuabi_sim::Limits::default(),
            )
            .expect("runs");
            let what = format!("{} on {cpu}", launch.name);
            assert!(out.violations.is_empty(), "{what}: {}", out.violations[0]);
            assert!(
                gpuabi_exec::first_difference(&expected, &out.buffers).is_none(),
                "{what}"
            );
        }
    }
}
