//! The main oracle on random programs: for every generated kernel, target and wave size,
//! normally and under tight register limits, the compiled code in the simulator leaves
//! exactly the buffers the interpreter leaves.
//!
//! The default budget runs under `cargo test`; a longer run:
//! `GPUABI_RANDOM_PROGRAMS=5000 cargo test --release -p gpuabi-exec --test random_programs`.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;
use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_ir::interp::{Dispatch, Limits as IrLimits};

fn programs() -> u64 {
    std::env::var("GPUABI_RANDOM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn check(seed: u64, config: &GenConfig, opts: &Options) -> Result<(), String> {
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
    let compiled = gpuabi_codegen::compile(&module, opts).map_err(|e| e.to_string())?;
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
    Ok(())
}

fn targets() -> Vec<(Target, WaveSize)> {
    vec![
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx8, WaveSize::W64),
    ]
}

fn run_all(tight: bool) {
    let config = GenConfig::default();
    let n = programs();
    let mut failures = Vec::new();
    for (target, wave) in targets() {
        let mut opts = Options::new(target);
        opts.wave = wave;
        if tight {
            opts.max_vgprs = 24;
            opts.max_sgprs = 32;
        }
        for seed in 0..n {
            if let Err(e) = check(seed, &config, &opts) {
                failures.push(format!("{} {wave} seed {seed}: {e}", target.name()));
            }
        }
    }
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
