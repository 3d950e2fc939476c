//! The figures of compiled functions: size, registers, spills, frame, and the
//! instructions of call-ABI overhead by kind.

use serde::Serialize;

use crate::call_abi::Convention;
use crate::mir::{self, Function};
use crate::pipeline::Context;
use gpuabi_layout::reg::RegFile;

/// Per-function figures of the compiled code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FunctionStats {
    /// Function name.
    pub name: String,
    /// Machine instructions emitted.
    pub instructions: usize,
    /// SGPRs used (highest register + 1).
    pub sgprs: u16,
    /// VGPRs used (highest register + 1, spill VGPRs included).
    pub vgprs: u16,
    /// Values spilled from VGPRs to scratch.
    pub vgpr_spills: usize,
    /// Values spilled from SGPRs to VGPR lanes.
    pub sgpr_spills: usize,
    /// Bytes of scratch per lane: the whole frame (stack arrays, spill slots, save areas).
    pub scratch_bytes: u32,
    /// The call ABI the function is called under (`None` for a kernel).
    pub abi: Option<String>,
    /// Preserved SGPRs it saves at entry and restores at return.
    pub saved_sgprs: usize,
    /// Preserved VGPRs it saves at entry and restores at return.
    pub saved_vgprs: usize,
    /// Calls it makes.
    pub calls: usize,
    /// The callee of its tail call, if its last call became one (a function, or `$sig`
    /// for an indirect call); the callee runs on this function's stack pointer.
    pub tail_call: Option<String>,
    /// Instructions of call-ABI overhead in its code, by kind.
    pub overhead: Overhead,
}

/// Instruction counts of call-ABI overhead, by kind ([`mir::AbiCost`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Overhead {
    /// Saves and restores of preserved registers in a called function.
    pub callee_saves: u64,
    /// Parameter and return-value moves and scratch parameter accesses.
    pub parameter_copies: u64,
    /// Stack bumps, calls, returns, dispatch epilogues, whole-wave saves around calls.
    pub call_linkage: u64,
    /// Spills and reloads.
    pub spills: u64,
}

impl Overhead {
    /// Adds `n` instructions of kind `c`.
    pub fn add(&mut self, c: mir::AbiCost, n: u64) {
        match c {
            mir::AbiCost::None => {}
            mir::AbiCost::CalleeSave => self.callee_saves += n,
            mir::AbiCost::Copy => self.parameter_copies += n,
            mir::AbiCost::Linkage => self.call_linkage += n,
            mir::AbiCost::Spill => self.spills += n,
        }
    }

    /// All kinds together.
    pub fn total(&self) -> u64 {
        self.callee_saves + self.parameter_copies + self.call_linkage + self.spills
    }
}

/// One instruction of call-ABI overhead in the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostItem {
    /// Index of the instruction in the program's items.
    pub item: usize,
    /// The function it belongs to: an index into [`crate::Compiled::functions`].
    pub function: usize,
    /// What it pays for.
    pub cost: mir::AbiCost,
    /// The call it serves, an index into [`crate::Compiled::calls`]: the parameter copies,
    /// stack bumps, call and whole-wave saves a call site compiles to (those with its
    /// source span, in its caller). `None` for a function's own saves, spills and returns.
    pub site: Option<usize>,
}

/// The overhead instructions of `costs` per call site (`sites` of them, by
/// [`CostItem::site`]): each counted once, the static count.
pub fn site_overhead(costs: &[CostItem], sites: usize) -> Vec<Overhead> {
    let mut out = vec![Overhead::default(); sites];
    for c in costs {
        if let Some(site) = c.site {
            out[site].add(c.cost, 1);
        }
    }
    out
}

/// The overhead instructions of `costs` a run executed, per function (`functions` of them,
/// by [`CostItem::function`]) and per call site (`sites`, by [`CostItem::site`]): each
/// counted as often as `executed(item)` says its instruction ran (`None`: not counted).
pub fn executed_overhead(
    costs: &[CostItem],
    functions: usize,
    sites: usize,
    executed: impl Fn(usize) -> Option<u64>,
) -> (Vec<Overhead>, Vec<Overhead>) {
    let mut per_function = vec![Overhead::default(); functions];
    let mut per_site = vec![Overhead::default(); sites];
    for c in costs {
        if let Some(n) = executed(c.item) {
            per_function[c.function].add(c.cost, n);
            if let Some(site) = c.site {
                per_site[site].add(c.cost, n);
            }
        }
    }
    (per_function, per_site)
}

/// One past the highest register of `file` a temp of `f` was given.
fn high(f: &Function, file: RegFile) -> u16 {
    f.temps
        .iter()
        .enumerate()
        .filter(|(_, t)| t.file == file)
        .filter_map(|(i, t)| {
            f.regs
                .get(i)
                .copied()
                .flatten()
                .map(|r| r + u16::from(t.dwords))
        })
        .max()
        .unwrap_or(0)
}

/// The figures of `f` once its passes ran: `instructions` emitted, `items` the share of
/// the call ABI of each emitted instruction, `conv` its convention when it is called,
/// `tail_call` the callee of its tail call.
pub(crate) fn function_stats(
    f: &Function,
    ctx: &Context<'_>,
    instructions: usize,
    items: &[(usize, mir::AbiCost)],
    conv: Option<&Convention>,
    tail_call: Option<String>,
) -> FunctionStats {
    let mut overhead = Overhead::default();
    for (_, c) in items {
        overhead.add(*c, 1);
    }
    // With spill VGPRs reserved at the top of the budget, the whole budget is used.
    let vgprs = if f.spill_slots.reserved > 0 {
        ctx.opts.max_vgprs
    } else {
        high(f, RegFile::Vgpr)
    };
    FunctionStats {
        name: f.name.clone(),
        instructions,
        sgprs: high(f, RegFile::Sgpr),
        vgprs,
        vgpr_spills: ctx.spilled[0],
        sgpr_spills: ctx.spilled[1],
        scratch_bytes: ctx.frame.end,
        abi: conv.map(|c| c.abi.name.clone()),
        saved_sgprs: ctx.saved.sgprs.len(),
        saved_vgprs: ctx.saved.vgprs.len(),
        calls: f.calls.len(),
        tail_call,
        overhead,
    }
}
