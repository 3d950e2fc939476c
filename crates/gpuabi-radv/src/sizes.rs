//! The payload and hit-attribute sizes every function of a pipeline carries, read from
//! RADV's code: RADV sizes them over the whole pipeline (`radv_rt_compile_shaders` in
//! `src/amd/vulkan/radv_pipeline_rt.c`), and they fix where each parameter lies. They are
//! the smallest sizes (payload from 0, hit attributes from RADV's minimum of 8, in steps of
//! 4 bytes) for which gpuabi's layout of every function's stage puts each parameter where
//! ACO's `p_startpgm` has it.

use gpuabi_layout::aco::{stage_assignment, Assignment, Demand, Location, Policy, Target};
use gpuabi_layout::reg::RegRange;
use gpuabi_mesa::aco_ir::AcoIr;
use gpuabi_mesa::capture::Function;

use crate::error::RadvError;

/// The registers of a layout in `p_startpgm`'s order: stack pointer, return address, then
/// the other register parameters.
fn registers(layout: &Assignment) -> Option<Vec<RegRange>> {
    let reg = |name: &str| match layout.param(name).map(|p| p.location) {
        Some(Location::Reg(r)) => Some(r),
        _ => None,
    };
    let mut out = vec![reg("stack_pointer")?, reg("return_address")?];
    for p in &layout.params {
        if matches!(p.name.as_str(), "stack_pointer" | "return_address") {
            continue;
        }
        if let Location::Reg(r) = p.location {
            out.push(r);
        }
    }
    Some(out)
}

/// `(payload, hit attributes)` of the pipeline of `functions`.
pub fn pipeline_sizes(
    functions: &[Function],
    target: Target,
    limit: Demand,
) -> Result<(u32, u32), RadvError> {
    let mut starts = Vec::new();
    for f in functions {
        let ir = AcoIr::read(&f.aco_ir).map_err(|e| RadvError::Sim(e.to_string()))?;
        let regs: Vec<Option<RegRange>> = ir.startpgm.defs.iter().map(|d| d.regs()).collect();
        starts.push((f, regs));
    }
    for payload in (0..=256).step_by(4) {
        for hit in (8..=64).step_by(4) {
            let fits = starts.iter().all(|(f, aco)| {
                let Ok((_, layout)) =
                    stage_assignment(f.stage, payload, hit, target, limit, Policy::Mesa)
                else {
                    return false;
                };
                let Some(want) = registers(&layout) else {
                    return false;
                };
                want.len() <= aco.len()
                    && want.iter().zip(aco).all(|(w, a)| Some(*w) == *a)
                    && aco[want.len()..].iter().all(Option::is_none)
            });
            if fits {
                return Ok((payload, hit));
            }
        }
    }
    Err(RadvError::Unsupported(
        "no payload and hit-attribute sizes up to 256 and 64 bytes give every function ACO's \
         p_startpgm registers"
            .into(),
    ))
}
