//! Every function RADV compiled, assembled from ACO's disassembly and run by check-function
//! against its ABI: the bytes equal the encodings ACO listed, and no trial breaks the
//! contract.
//!
//! The default run gives each function [`TRIALS`] trials; the full run of 1,000 trials per
//! function is `cargo test --release -p gpuabi-mesa --test functions -- --ignored`.

mod common;

use gpuabi_amdgpu::asm::listing::adopt;
use gpuabi_amdgpu::asm::parse_listed;
use gpuabi_amdgpu::{encode, Target, WaveSize};
use gpuabi_layout::aco::{LimitInputs, Target as AcoTarget};
use gpuabi_mesa::capture::{read_capture, Function};
use gpuabi_sim::check_function::{check_function, FunctionSpec, Placement};
use gpuabi_sim::{Image, Limits};

/// Trials per function in the default run.
const TRIALS: u32 = 25;

fn program(f: &Function) -> Result<gpuabi_amdgpu::Program, String> {
    let target = f.gfx.ok_or("not modelled")?;
    let wave = WaveSize::from_lanes(f.wave).ok_or("bad wave size")?;
    let text = std::fs::read_to_string(&f.assembly).map_err(|e| e.to_string())?;
    let (mut program, listed) = parse_listed(&text, target, wave).map_err(|e| e.to_string())?;
    let mismatches = adopt(&mut program, &listed);
    if let Some(m) = mismatches.first() {
        return Err(format!(
            "line {}: gpuabi encodes {:02x?}, ACO listed {:02x?}",
            m.line, m.ours, m.listed
        ));
    }
    let listed_bytes: Vec<u8> = listed
        .iter()
        .flat_map(|l| l.words.iter().flat_map(|w| w.to_le_bytes()))
        .collect();
    let bytes = encode(&program).map_err(|e| e.to_string())?;
    if bytes != listed_bytes {
        return Err("the program's bytes differ from the listing".into());
    }
    Ok(program)
}

fn check(f: &Function, payload: u32, hit_attribs: u32, trials: u32) -> Result<(), String> {
    let program = program(f)?;
    let target: Target = program.target;
    let place = Placement {
        entry: "BB0".into(),
        name: f.label(),
        target,
        wave: program.wave,
        limit: AcoTarget::new(target, f.wave)
            .map_err(|e| e.to_string())?
            .default_limit(LimitInputs::default()),
    };
    let spec = FunctionSpec::for_stage(&place, f.stage, payload, hit_attribs, None)
        .map_err(|e| e.to_string())?;
    let image = Image::new(&program).map_err(|e| e.to_string())?;
    let report =
        check_function(&image, &spec, trials, 0, Limits::default()).map_err(|e| e.to_string())?;
    if let Some(v) = report.violations.first() {
        return Err(format!(
            "{} violations, first in trial {}: {}",
            report.violations.len(),
            v.trial,
            v.message
        ));
    }
    if let Some(s) = report.stopped.first() {
        return Err(format!(
            "{} trials stopped, first {}: {}",
            report.stopped.len(),
            s.trial,
            s.message
        ));
    }
    Ok(())
}

fn run_all(trials: u32) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for capture in common::captures() {
        for f in read_capture(&capture.radv).unwrap() {
            if f.gfx.is_none() {
                continue;
            }
            let (payload, hit_attribs) = (capture.sizes)(&f.pipeline);
            match check(&f, payload, hit_attribs, trials) {
                Ok(()) => checked += 1,
                Err(e) => failures.push(format!("{} {}: {e}", capture.name, f.label())),
            }
        }
    }
    eprintln!("{checked} functions passed {trials} trials each");
    assert!(
        failures.is_empty(),
        "{} functions fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_function_assembles_to_acos_bytes_and_keeps_its_contract() {
    run_all(TRIALS);
}

#[test]
#[ignore = "1,000 trials per function: cargo test --release -p gpuabi-mesa --test functions -- --ignored"]
fn every_function_keeps_its_contract_over_1000_trials() {
    run_all(1000);
}
