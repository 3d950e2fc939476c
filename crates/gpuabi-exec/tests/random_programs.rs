//! The main oracle on random programs: for every generated kernel, target, wave size and
//! entry ABI, normally and under tight register limits, the compiled code in the simulator
//! leaves exactly the buffers the interpreter leaves.
//!
//! Every configuration, `catalyst` included, runs programs with stack arrays and, under
//! tight limits, VGPR and SGPR spills; every program must compile and agree.
//!
//! The default budget runs under `cargo test`; a longer run:
//! `GPUABI_RANDOM_PROGRAMS=5000 cargo test --release -p gpuabi-exec --test random_programs`.
//! Programs with calls (`random_programs_with_calls`) run on the RDNA targets, where calls
//! are compiled; every call is also checked against its callee's ABI.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::{Entry, Options};
use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_ir::interp::{Dispatch, Limits as IrLimits};

/// Programs per configuration: `GPUABI_RANDOM_PROGRAMS`, else 200 (40 with calls, which
/// are larger: several functions each).
fn programs(config: &GenConfig) -> u64 {
    std::env::var("GPUABI_RANDOM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if config.calls { 40 } else { 200 })
}

/// Compiles and runs one program; when both runs left the same buffers, whether it uses
/// scratch (stack arrays or VGPR spills), whether its VGPRs spill and whether a function
/// ends in a tail call.
fn check(seed: u64, config: &GenConfig, opts: &Options) -> Result<[bool; 3], String> {
    let p = generate(seed, config);
    let module = gpuabi_ir::parse(&p.source).map_err(|e| format!("{e:?}"))?;
    let address = |name: &str| {
        let i = p
            .buffers
            .iter()
            .position(|(n, _)| n == name)
            .expect("named buffer");
        gpuabi_exec::buffer_address(i)
    };
    let args = p.arg_bits(address);
    let d = Dispatch {
        global_size: p.grid,
        group_size: p.group,
        global_offset: p.offset,
        work_dim: p.work_dim,
    };
    let limits = IrLimits::default();
    let compiled = gpuabi_codegen::compile(&module, opts).map_err(|e| e.to_string())?;
    // Function pointers are the compiled code's addresses in both runs.
    let addrs = gpuabi_exec::function_addresses(&module, &compiled).map_err(|e| e.to_string())?;
    let expected =
        gpuabi_exec::interpret_at(&module, &addrs, &p.kernel, &d, &args, &p.buffers, &limits)
            .map_err(|e| e.to_string())?;
    let scratch = compiled.kernels.iter().any(|k| k.stats.scratch_bytes > 0);
    let spills = compiled.kernels.iter().any(|k| k.stats.vgpr_spills > 0);
    let tail_calls = compiled.functions.iter().any(|f| f.tail_call.is_some());
    let out = gpuabi_exec::run(
        &compiled,
        &p.kernel,
        &d,
        &args,
        &p.buffers,
        &gpuabi_sim::Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    if let Some(v) = out.violations.first() {
        return Err(format!(
            "{} contract violation(s), the first: {v}",
            out.violations.len()
        ));
    }
    // A spill is reloaded only for lanes it was stored for, and nothing else reads private
    // memory before writing it.
    if let Some(u) = out.unwritten.first() {
        return Err(format!(
            "reads {} byte(s) at offset {:#x} of `{}` that nothing wrote (at {:?})",
            u.bytes, u.offset, u.buffer, u.origin
        ));
    }
    if let Some(diff) = gpuabi_exec::first_difference(&expected, &out.buffers) {
        return Err(format!(
            "buffer `{}` byte {}: interpreter {:#04x}, compiled {:#04x}",
            diff.buffer, diff.offset, diff.expected, diff.actual
        ));
    }
    Ok([scratch, spills, tail_calls])
}

fn targets(config: &GenConfig) -> Vec<(Target, WaveSize, Entry)> {
    let all = vec![
        (Target::Gfx12, WaveSize::W32, Entry::Hsa),
        (Target::Gfx12, WaveSize::W64, Entry::Hsa),
        (Target::Gfx1100, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1100, WaveSize::W64, Entry::Hsa),
        (Target::Gfx1030, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1030, WaveSize::W64, Entry::Hsa),
        (Target::Gfx8, WaveSize::W64, Entry::Hsa),
        (Target::Gfx8, WaveSize::W64, Entry::Catalyst),
    ];
    // Calls are compiled under the `hsa` entry.
    all.into_iter()
        .filter(|(_, _, e)| !config.calls || *e == Entry::Hsa)
        .collect()
}

fn run_all(tight: bool, config: &GenConfig) {
    let n = programs(config);
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (target, wave, entry) in targets(config) {
        let mut opts = Options::new(target);
        opts.wave = wave;
        opts.entry = entry;
        if tight {
            opts.max_vgprs = 24;
            opts.max_sgprs = 32;
            if config.calls {
                opts.max_vgprs = 64;
                // GCN 1.2's stack pointer is a 4-SGPR resource where RDNA's is one SGPR.
                opts.max_sgprs = if target.is_rdna() { 48 } else { 52 };
            }
        }
        let mut agreed = 0u64;
        let mut with_scratch = 0u64;
        let mut with_spills = 0u64;
        let mut with_tail_calls = 0u64;
        let mut refused = 0u64;
        for seed in 0..n {
            match check(seed, config, &opts) {
                Ok([scratch, spills, tail_calls]) => {
                    agreed += 1;
                    with_scratch += u64::from(scratch);
                    with_spills += u64::from(spills);
                    with_tail_calls += u64::from(tail_calls);
                }
                // Mesa leaves the top registers, and those above the limit, to clobbered
                // parameters: under the tight limits a call's signature may want the VGPR
                // that holds spilled SGPRs, or more SGPRs at once than the budget (its
                // parameters are precoloured and cannot be spilled), and a wide signature
                // may want SGPRs the target cannot name. The compiler refuses each with a
                // message, counted below.
                Err(e)
                    if (tight
                        && (e.contains(gpuabi_codegen::lower_calls::SPILL_VGPR_IS_PARAMETER)
                            || e.contains(gpuabi_codegen::register_allocation::UNSPILLABLE)))
                        || e.contains(gpuabi_codegen::call_abi::PARAMETER_BEYOND_SGPRS)
                        // A signature past LLVM's 32 argument VGPRs (with the hidden launch
                        // values the generator cannot count) under one of LLVM's conventions.
                        || e.contains(gpuabi_layout::llvm::ON_LLVMS_STACK) =>
                {
                    refused += 1
                }
                Err(e) => failures.push(format!(
                    "{} {wave} {} seed {seed}: {e}",
                    target.name(),
                    entry.name()
                )),
            }
        }
        if refused * 20 > n {
            failures.push(format!(
                "{} {wave} {}: {refused} of {n} programs refused for their call signatures",
                target.name(),
                entry.name()
            ));
        }
        if agreed == 0 && n >= 20 {
            failures.push(format!(
                "{} {wave} {}: no program was compared",
                target.name(),
                entry.name()
            ));
        }
        // Scratch must be exercised, not only allowed.
        if with_scratch == 0 && n >= 20 {
            failures.push(format!(
                "{} {wave} {}: no program used scratch",
                target.name(),
                entry.name()
            ));
        }
        if config.calls && with_tail_calls == 0 && n >= 20 {
            failures.push(format!(
                "{} {wave} {}: no program made a tail call",
                target.name(),
                entry.name()
            ));
        }
        if tight && with_spills == 0 && n >= 20 {
            failures.push(format!(
                "{} {wave} {}: no program spilled VGPRs under the tight limits",
                target.name(),
                entry.name()
            ));
        }
        report.push(format!(
            "{} {wave} {}: {agreed}/{n} agreed ({with_scratch} with scratch, {with_spills} \
             with VGPR spills, {with_tail_calls} with tail calls, {refused} refused)",
            target.name(),
            entry.name(),
        ));
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} of {} runs differ:\n{}",
        failures.len(),
        n * targets(config).len() as u64,
        failures
            .iter()
            .take(400)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn compiled_equals_interpreter() {
    run_all(false, &GenConfig::default());
}

#[test]
fn compiled_equals_interpreter_with_tight_register_limits() {
    run_all(true, &GenConfig::default());
}

/// The same oracle on programs with calls (direct, indirect through per-lane pointers,
/// recursive, wide signatures with scratch parameters, every ACO ABI), on every target
/// and wave size, normally and under tight register limits (64 VGPRs and 48 SGPRs, 52 on
/// GCN 1.2 whose stack pointer takes three SGPRs more:
/// below the ABIs' 48-register parameter demand plus what callers keep across calls, so
/// calls spill, but above the 24/32 of the programs without calls, under which a wide
/// signature's parameters alone exceed the file). At most one program in twenty may be
/// refused because a call's parameters land on the VGPR that holds spilled SGPRs or need
/// more unspillable SGPRs than the budget (under the tight limits), or land on SGPRs the
/// target cannot name (Mesa's assignment, GCN 1.2).
#[test]
fn random_programs_with_calls() {
    let config = GenConfig {
        calls: true,
        ..GenConfig::default()
    };
    run_all(false, &config);
    run_all(true, &config);
}
