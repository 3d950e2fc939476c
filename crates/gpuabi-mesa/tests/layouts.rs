//! Every function RADV compiled, against gpuabi's layout engine: the registers ACO's
//! `p_startpgm` gives the stack pointer, the return address and each register parameter are
//! the ones `stage_assignment` computes for the function's stage under its ABI, and every
//! `p_call` passes its operands where the callee's layout puts them.

mod common;

use gpuabi_layout::aco::{
    stage_assignment, Assignment, LimitInputs, Location, Policy, RtStage, Target,
};
use gpuabi_layout::reg::RegRange;
use gpuabi_mesa::aco_ir::{AcoIr, Instr};
use gpuabi_mesa::capture::{read_capture, Function};

/// The registers ACO lists for a function or call of this layout: the stack pointer, then
/// (for `p_startpgm`) the return address, then every parameter in registers, in order.
fn expected(layout: &Assignment, with_return_address: bool) -> Vec<(String, RegRange)> {
    let reg = |name: &str| match layout.param(name).map(|p| p.location) {
        Some(Location::Reg(r)) => r,
        other => panic!("`{name}` is not in registers: {other:?}"),
    };
    let mut out = vec![("stack_pointer".to_string(), reg("stack_pointer"))];
    if with_return_address {
        out.push(("return_address".to_string(), reg("return_address")));
    }
    for p in &layout.params {
        if matches!(p.name.as_str(), "stack_pointer" | "return_address") {
            continue;
        }
        if let Location::Reg(r) = p.location {
            out.push((p.name.clone(), r));
        }
    }
    out
}

/// The first difference between ACO's registers and the expected ones, if any.
fn compare(what: &str, aco: &[Option<RegRange>], want: &[(String, RegRange)]) -> Option<String> {
    for (i, (name, reg)) in want.iter().enumerate() {
        match aco.get(i) {
            Some(Some(r)) if r == reg => {}
            Some(Some(r)) => return Some(format!("{what}: `{name}` is {r} in ACO, {reg} here")),
            _ => return Some(format!("{what}: `{name}` ({reg}) has no register in ACO")),
        }
    }
    // ACO may define further values without a register (linear VGPRs) after the parameters.
    if let Some(extra) = aco[want.len()..].iter().flatten().next() {
        return Some(format!(
            "{what}: ACO has more register parameters than gpuabi's {} (next {extra})",
            want.len()
        ));
    }
    None
}

/// The stages a function of `stage` calls: traversal and callables from the recursive
/// stages, closest hit / miss and the any-hit/intersection functions from traversal
/// (`radv_pipeline_rt.c`, `radv_nir_lower_rt_abi`).
fn callees(stage: RtStage) -> &'static [RtStage] {
    match stage {
        RtStage::Traversal => &[RtStage::ClosestHit, RtStage::AnyHit],
        RtStage::AnyHit | RtStage::Intersection => &[],
        _ => &[RtStage::Traversal, RtStage::Callable],
    }
}

/// Checks one call: the callee whose layout has as many register parameters as the call
/// passes, and every operand in its register (the scratch byte count as a constant).
fn check_call(call: &Instr, candidates: &[(RtStage, Assignment)]) -> Result<RtStage, String> {
    let aco: Vec<Option<RegRange>> = call
        .ops
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, v)| v.regs())
        .collect();
    let mut why = Vec::new();
    for (stage, layout) in candidates {
        let want = expected(layout, false);
        if want.len() != aco.len() {
            why.push(format!(
                "{stage}: {} register operands, ACO passes {}",
                want.len(),
                aco.len()
            ));
            continue;
        }
        match compare(&format!("p_call on line {}", call.line), &aco, &want) {
            None => return Ok(*stage),
            Some(d) => why.push(format!("{stage}: {d}")),
        }
    }
    Err(format!(
        "p_call on line {}: no callee fits: {}",
        call.line,
        why.join("; ")
    ))
}

/// The layout comparison of one function: `Ok(calls checked)` or the first difference.
fn check(f: &Function, payload: u32, hit_attribs: u32) -> Result<usize, String> {
    let gfx = f.gfx.expect("modelled");
    let target = Target::new(gfx, f.wave).map_err(|e| e.to_string())?;
    let limit = target.default_limit(LimitInputs::default());
    let layout_of = |stage| {
        stage_assignment(stage, payload, hit_attribs, target, limit, Policy::Mesa)
            .map(|(_, a)| a)
            .map_err(|e| format!("{stage}: {e}"))
    };
    let ir = AcoIr::read(&f.aco_ir).map_err(|e| e.to_string())?;
    let own = layout_of(f.stage)?;
    let aco: Vec<Option<RegRange>> = ir.startpgm.defs.iter().map(|d| d.regs()).collect();
    if let Some(d) = compare("p_startpgm", &aco, &expected(&own, true)) {
        return Err(d);
    }
    let candidates: Vec<(RtStage, Assignment)> = callees(f.stage)
        .iter()
        .map(|&s| layout_of(s).map(|a| (s, a)))
        .collect::<Result<_, _>>()?;
    for call in &ir.calls {
        check_call(call, &candidates)?;
    }
    Ok(ir.calls.len())
}

/// Compares every function of `capture` with ACO's registers.
fn check_capture(capture: &common::Capture) {
    let mut failures = Vec::new();
    let functions = read_capture(&capture.radv).unwrap();
    assert!(!functions.is_empty(), "{}: no functions", capture.name);
    let mut calls = 0;
    let mut skipped: Vec<String> = Vec::new();
    let mut compared = 0;
    for f in &functions {
        if f.gfx.is_none() {
            if !skipped.contains(&f.chip) {
                skipped.push(f.chip.clone());
            }
            continue;
        }
        compared += 1;
        let (payload, hit_attribs) = (capture.sizes)(&f.pipeline);
        match check(f, payload, hit_attribs) {
            Ok(n) => calls += n,
            Err(e) => failures.push(format!("{} {}: {e}", capture.name, f.label())),
        }
    }
    eprintln!(
        "{}: {compared} functions and {calls} calls compared with ACO; chips not modelled: \
         {skipped:?}",
        capture.name,
    );
    assert!(
        compared > 0,
        "{}: no function of a modelled chip",
        capture.name
    );
    assert!(
        failures.is_empty(),
        "{} functions differ from ACO:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_function_of_the_project_capture_has_acos_registers() {
    check_capture(&common::own_capture());
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn every_function_of_the_shared_capture_has_acos_registers() {
    if let Some(capture) = common::shared_capture() {
        check_capture(&capture);
    }
}
