//! Every function RADV compiled, assembled from ACO's disassembly and run by check-function
//! against its ABI: the bytes equal the encodings ACO listed, and no trial breaks the
//! contract, with one finding in Mesa 26.1 kept as a test.
//!
//! **The finding.** A function that calls keeps values in a linear VGPR (ACO's whole-wave
//! registers: `v_writelane_b32 v95, s8, 0` puts an SGPR into lane 0 whatever the exec mask),
//! among them its saved exec masks and return address, and saves that register around the
//! call with a plain `scratch_store_b32`/`buffer_store_dword` under the call's exec mask
//! (Mesa's `src/amd/compiler/aco_spill_preserved.cpp`, `emit_call_spills`, which calls
//! `emit_vgpr_spills_reloads` without setting exec to all lanes, unlike the entry saves of
//! `emit_spills_reloads`). The lanes inactive at the call are not saved; a callee that uses
//! the register (every lane of a clobbered register is the callee's) destroys them, and the
//! function restores a wrong exec mask and jumps to a wrong address. Every function of the
//! captures that calls shows it; the same code with those saves and reloads made whole-wave
//! keeps its contract.
//!
//! RDNA 4's BVH instructions, which the LLVM 19 that printed the gfx1201 listings does not
//! know, are listed as `(invalid instruction)` lines; the assembler reads them from their
//! dwords (`gpuabi_amdgpu::asm::listing`), so every function must assemble.
//!
//! The default run gives each function [`TRIALS`] trials; the full run of 1,000 trials per
//! function is `cargo test --release -p gpuabi-mesa --test functions -- --ignored`.

mod common;

use gpuabi_amdgpu::asm::listing::adopt;
use gpuabi_amdgpu::asm::parse_listed;
use gpuabi_amdgpu::{encode, Program, WaveSize};
use gpuabi_layout::aco::{LimitInputs, Target as AcoTarget};
use gpuabi_mesa::capture::{read_capture, Function};
use gpuabi_sim::check_function::{
    check_function, CheckReport, FunctionSpec, InactiveLanes, Placement, Trials,
};
use gpuabi_sim::Image;

/// Trials per function in the default run.
const TRIALS: u32 = 100;

/// The function's program, checked against the encodings ACO listed.
fn program(f: &Function, text: &str) -> Result<Program, String> {
    let target = f.gfx.ok_or("not modelled")?;
    let wave = WaveSize::from_lanes(f.wave).ok_or("bad wave size")?;
    let (mut program, listed) = parse_listed(text, target, wave).map_err(|e| e.to_string())?;
    if let Some(m) = adopt(&mut program, &listed).first() {
        return Err(format!(
            "line {}: gpuabi encodes {:02x?}, ACO listed {:02x?}",
            m.line, m.ours, m.listed
        ));
    }
    let listed_bytes: Vec<u8> = listed
        .iter()
        .flat_map(|l| l.words.iter().flat_map(|w| w.to_le_bytes()))
        .collect();
    if encode(&program).map_err(|e| e.to_string())? != listed_bytes {
        return Err("the program's bytes differ from the listing".into());
    }
    Ok(program)
}

fn check(
    f: &Function,
    program: &Program,
    (payload, hit_attribs): (u32, u32),
    trials: u32,
    inactive_lanes: InactiveLanes,
) -> Result<CheckReport, String> {
    let place = Placement {
        entry: "BB0".into(),
        name: f.label(),
        target: program.target,
        wave: program.wave,
        limit: AcoTarget::new(program.target, f.wave)
            .map_err(|e| e.to_string())?
            .default_limit(LimitInputs::default()),
    };
    let spec = FunctionSpec::for_stage(&place, f.stage, payload, hit_attribs, None)
        .map_err(|e| e.to_string())?;
    let image = Image::new(program).map_err(|e| e.to_string())?;
    let trials = Trials {
        inactive_lanes,
        ..Trials::new(trials, 0)
    };
    check_function(&image, &spec, trials).map_err(|e| e.to_string())
}

/// `Ok` when the report passed ([`CheckReport::passed`]).
fn clean(report: &CheckReport) -> Result<(), String> {
    if report.passed() {
        return Ok(());
    }
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

/// The registers ACO uses as linear VGPRs: those it writes with `v_writelane_b32`.
fn linear_vgprs(text: &str) -> Vec<String> {
    let mut regs: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("v_writelane_b32 "))
        .filter_map(|rest| rest.split(',').next())
        .map(|r| r.trim().to_string())
        .collect();
    regs.sort();
    regs.dedup();
    regs
}

/// The text with every scratch save and reload of a linear VGPR that does not already run
/// with all lanes wrapped in `s_or_saveexec -1` … `s_mov exec`, through an SGPR the
/// function does not use: the saves Mesa's entry code makes of preserved linear VGPRs, and
/// what `emit_call_spills` would need.
fn whole_wave_linear_spills(text: &str, wave: WaveSize) -> String {
    let linear = linear_vgprs(text);
    let free = (20u16..100)
        .step_by(2)
        .find(|n| {
            [*n, n + 1].iter().all(|r| {
                !text.contains(&format!("s{r},"))
                    && !text.contains(&format!("s{r} "))
                    && !text.contains(&format!("s[{r}:"))
                    && !text.contains(&format!(":{r}]"))
                    && !text.contains(&format!("s{r}\n"))
            })
        })
        .expect("a free SGPR pair");
    let (save, restore) = match wave {
        WaveSize::W32 => (
            format!("\ts_or_saveexec_b32 s{free}, -1"),
            format!("\ts_mov_b32 exec_lo, s{free}"),
        ),
        WaveSize::W64 => (
            format!("\ts_or_saveexec_b64 s[{free}:{}], -1", free + 1),
            format!("\ts_mov_b64 exec, s[{free}:{}]", free + 1),
        ),
    };
    let spill = |line: &str| {
        let l = line.trim();
        linear.iter().any(|r| {
            l.starts_with(&format!("scratch_store_b32 off, {r},"))
                || l.starts_with(&format!("scratch_store_dword off, {r},"))
                || l.starts_with(&format!("scratch_load_b32 {r},"))
                || l.starts_with(&format!("scratch_load_dword {r},"))
                || l.starts_with(&format!("buffer_store_dword {r},"))
                || l.starts_with(&format!("buffer_load_dword {r},"))
        })
    };
    let mut out = String::new();
    let mut previous = "";
    for line in text.lines() {
        if spill(line) && !previous.contains("saveexec") {
            out.push_str(&format!("{save}\n{line}\n{restore}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
        previous = line;
    }
    out
}

fn run_all(trials: u32, captures: &[common::Capture]) {
    let mut failures = Vec::new();
    let (mut without_calls, mut clean_calls) = (0, 0);
    let mut broken_by_spills = Vec::new();
    for capture in captures {
        for f in read_capture(&capture.radv).unwrap() {
            if f.gfx.is_none() {
                continue;
            }
            let sizes = (capture.sizes)(&f.pipeline);
            let text = std::fs::read_to_string(&f.assembly).unwrap();
            let result = (|| -> Result<(), String> {
                let original = program(&f, &text)?;
                if !text.contains("s_swappc_b64") {
                    without_calls += 1;
                    return clean(&check(
                        &f,
                        &original,
                        sizes,
                        trials,
                        InactiveLanes::Clobber,
                    )?);
                }
                // A function that calls, with callees that leave the inactive lanes of their
                // parameter registers alone: ACO's code keeps its contract, or breaks it
                // through the linear VGPR saved under the call's exec and keeps it when that
                // save is whole-wave.
                let keep = InactiveLanes::KeepParameters;
                let report = check(&f, &original, sizes, trials, keep)?;
                if report.violations.is_empty() {
                    clean_calls += 1;
                    return clean(&report);
                }
                broken_by_spills.push(format!("{} {}", capture.name, f.label()));
                let fixed_text = whole_wave_linear_spills(&text, original.wave);
                let fixed = gpuabi_amdgpu::asm::parse(&fixed_text, original.target, original.wave)
                    .map_err(|e| format!("the whole-wave copy: {e}"))?;
                clean(&check(&f, &fixed, sizes, trials, keep)?)
                    .map_err(|e| format!("the whole-wave copy: {e}"))
            })();
            if let Err(e) = result {
                failures.push(format!("{} {}: {e}", capture.name, f.label()));
            }
        }
    }
    eprintln!(
        "{without_calls} functions without calls passed {trials} trials each; {} functions \
         with calls lose the inactive lanes of their linear VGPR and pass with it saved \
         whole-wave ({}); {clean_calls} pass as they are",
        broken_by_spills.len(),
        broken_by_spills.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} functions fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_function_of_the_project_capture_assembles_and_keeps_its_contract() {
    run_all(TRIALS, &[common::own_capture()]);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn every_function_of_the_shared_capture_assembles_and_keeps_its_contract() {
    if let Some(shared) = common::shared_capture() {
        run_all(TRIALS, &[shared]);
    }
}

#[test]
#[ignore = "1,000 trials per function: cargo test --release -p gpuabi-mesa --test functions -- --ignored"]
fn every_function_keeps_its_contract_over_1000_trials() {
    let mut captures = vec![common::own_capture()];
    captures.extend(common::shared_capture());
    run_all(1000, &captures);
}
