//! The main oracle on random programs: for every generated kernel, target, wave size and
//! entry ABI, normally and under tight register limits, the compiled code in the simulator
//! leaves exactly the buffers the interpreter leaves.
//!
//! The `catalyst` entry has no scratch memory yet: its programs are generated without
//! stack arrays, and those it refuses for VGPR spills are counted and reported, not
//! compared; any other refusal fails.
//!
//! The default budget runs under `cargo test`; a longer run:
//! `GPUABI_RANDOM_PROGRAMS=5000 cargo test --release -p gpuabi-exec --test random_programs`.

use std::collections::BTreeMap;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::entry::catalyst::NO_SCRATCH;
use gpuabi_codegen::{Entry, Options};
use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_ir::interp::{Dispatch, Limits as IrLimits};

fn programs() -> u64 {
    std::env::var("GPUABI_RANDOM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

/// What became of one program.
enum Checked {
    /// Both runs left the same buffers.
    Agreed,
    /// The entry ABI cannot run it (scratch under `catalyst`), for this reason.
    Skipped(&'static str),
}

fn check(seed: u64, config: &GenConfig, opts: &Options) -> Result<Checked, String> {
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
    let expected = gpuabi_exec::interpret(&module, &p.kernel, &d, &args, &p.buffers, &limits)
        .map_err(|e| e.to_string())?;
    let compiled = match gpuabi_codegen::compile(&module, opts) {
        Ok(c) => c,
        Err(e) if opts.entry == Entry::Catalyst && e.to_string().contains(NO_SCRATCH) => {
            let why = if e.to_string().contains("stack array") {
                "stack arrays"
            } else {
                "VGPR spills"
            };
            return Ok(Checked::Skipped(why));
        }
        Err(e) => return Err(e.to_string()),
    };
    let out = gpuabi_exec::run(
        &compiled,
        &p.kernel,
        &d,
        &args,
        &p.buffers,
        &gpuabi_sim::Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    if let Some(diff) = gpuabi_exec::first_difference(&expected, &out.buffers) {
        return Err(format!(
            "buffer `{}` byte {}: interpreter {:#04x}, compiled {:#04x}",
            diff.buffer, diff.offset, diff.expected, diff.actual
        ));
    }
    Ok(Checked::Agreed)
}

fn targets() -> Vec<(Target, WaveSize, Entry)> {
    vec![
        (Target::Gfx1100, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1100, WaveSize::W64, Entry::Hsa),
        (Target::Gfx1030, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1030, WaveSize::W64, Entry::Hsa),
        (Target::Gfx8, WaveSize::W64, Entry::Hsa),
        (Target::Gfx8, WaveSize::W64, Entry::Catalyst),
    ]
}

fn run_all(tight: bool) {
    let n = programs();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (target, wave, entry) in targets() {
        let mut opts = Options::new(target);
        opts.wave = wave;
        opts.entry = entry;
        // Stack arrays always need scratch, which `catalyst` has not: its programs have
        // none, and its tight run limits SGPRs only (they spill into VGPR lanes), since
        // VGPR spills need scratch too.
        let catalyst = entry == Entry::Catalyst;
        let config = GenConfig {
            stack_arrays: !catalyst,
            ..GenConfig::default()
        };
        if tight {
            if !catalyst {
                opts.max_vgprs = 24;
            }
            opts.max_sgprs = 32;
        }
        let mut agreed = 0;
        let mut skipped: BTreeMap<&str, u64> = BTreeMap::new();
        for seed in 0..n {
            match check(seed, &config, &opts) {
                Ok(Checked::Agreed) => agreed += 1,
                Ok(Checked::Skipped(why)) => *skipped.entry(why).or_default() += 1,
                Err(e) => failures.push(format!(
                    "{} {wave} {} seed {seed}: {e}",
                    target.name(),
                    entry.name()
                )),
            }
        }
        if agreed == 0 && n >= 20 {
            failures.push(format!(
                "{} {wave} {}: no program was compared",
                target.name(),
                entry.name()
            ));
        }
        let skips: u64 = skipped.values().sum();
        let why: Vec<String> = skipped
            .iter()
            .map(|(w, k)| format!("{k} for {w}"))
            .collect();
        report.push(format!(
            "{} {wave} {}: {agreed} agreed, {} differ, {skips} skipped for want of scratch ({})",
            target.name(),
            entry.name(),
            n - agreed - skips,
            why.join(", ")
        ));
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} of {} runs differ:\n{}",
        failures.len(),
        n * targets().len() as u64,
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
    run_all(false);
}

#[test]
fn compiled_equals_interpreter_with_tight_register_limits() {
    run_all(true);
}
