//! The call-ABI overhead of each call site of RADV's code, in the terms gpuabi's code
//! generator reports for its own code (`gpuabi run --stats`): parameter copies, linkage
//! (stack adjustment, the call, whole-wave saves) and spills (saves and restores of values
//! live across the call).
//!
//! gpuabi's code generator marks every instruction it emits with the share of the call ABI
//! it is ([`gpuabi_codegen::mir::AbiCost`]); ACO's listing carries no such mark. Here each
//! instruction around a call is classified from the code and the callee's ACO ABI (the
//! layout and preserved registers the run checks the call against), by these rules, and the
//! marks are then counted by the same code as gpuabi's ([`gpuabi_codegen::stats`]):
//!
//! - The call's straight-line code: *before* it, back to the previous label, branch or call;
//!   *after* it, up to the next label, branch, call or `s_endpgm`.
//! - Linkage: the `s_swappc_b64`; the instruction right before it when it adds a constant to
//!   the callee's stack pointer (`s_add_u32 s4, s4, 0x70`) and the one right after it when it
//!   subtracts one; and a scratch store before or load after of a VGPR the function uses as
//!   lane storage (`v_writelane_b32`/`v_readlane_b32`: ACO's linear VGPR of spilled SGPRs,
//!   saved for the whole wave around a call).
//! - Spills: the other scratch stores (`scratch_store_*`, gfx8's `buffer_store_*`) and
//!   `v_writelane_b32` before the call whose stored register the callee's ABI does not
//!   preserve, and the other scratch loads and `v_readlane_b32` after it.
//! - Parameter copies: before the call, a copy (`v_mov_b32`, `s_mov_b32`, `s_mov_b64`, or
//!   ACO's 64-bit VGPR copy `v_lshrrev_b64 vD, 0, vS`) from a register into registers that
//!   are all parameter registers of the callee's layout (the stack pointer among them: the
//!   Raytracing prolog sets raygen's), the last write of them before the call (a constant put straight into a parameter register is the value's computation, not
//!   a copy); after it, a copy from registers that are all return registers of the layout,
//!   before anything after the call writes them.
//!
//! A site the run never reached has no known callee; only its `s_swappc_b64` is counted.

use std::collections::{BTreeMap, BTreeSet};

use gpuabi_amdgpu::{Class, Imm, Item, Operand, Program};
use gpuabi_codegen::mir::AbiCost;
use gpuabi_codegen::stats::{executed_overhead, site_overhead, CostItem};
use gpuabi_codegen::Overhead;
use gpuabi_layout::aco::{Assignment, Location};
use gpuabi_layout::reg::{RegFile, RegRange, RegSet};

/// What the run checks a callee against, which the classification reads.
#[derive(Debug, Clone)]
pub struct CalleeAbi {
    /// The callee's label.
    pub label: String,
    /// Its ABI's name.
    pub abi: String,
    /// Its parameters' registers.
    pub layout: Assignment,
    /// The registers a call of it keeps.
    pub preserved: RegSet,
    /// Its stack pointer register.
    pub stack_pointer: RegRange,
}

/// A function a call site called, and how often.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reached {
    /// Its label.
    pub function: String,
    /// Calls that went to it.
    pub calls: u64,
}

/// One call site of RADV's code with its overhead.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SiteStats {
    /// `FILE:LINE` of its `s_swappc_b64` in RADV's listing.
    pub site: String,
    /// The function holding it.
    pub caller: String,
    /// The functions it called in the run, most called first (a divergent call's first
    /// callee; the others are reached from there).
    pub callees: Vec<Reached>,
    /// The ABI the classification used (the first callee's), if the run reached the site.
    pub abi: Option<String>,
    /// Times the wave executed its `s_swappc_b64`.
    pub calls: u64,
    /// Overhead instructions the waves executed, by kind.
    pub executed: Overhead,
    /// Overhead instructions in the code, by kind.
    pub listed: Overhead,
}

fn mnemonic(p: &Program, item: usize) -> Option<&'static str> {
    match &p.items[item].item {
        Item::Inst(i) => Some(i.op.info().mnemonic),
        _ => None,
    }
}

fn inst(p: &Program, item: usize) -> Option<&gpuabi_amdgpu::Inst> {
    match &p.items[item].item {
        Item::Inst(i) => Some(i),
        _ => None,
    }
}

/// Whether the straight-line code around a call stops at `item`.
fn ends_block(p: &Program, item: usize) -> bool {
    match &p.items[item].item {
        Item::Inst(i) => {
            let info = i.op.info();
            info.class == Class::Branch || info.mnemonic == "s_endpgm"
        }
        Item::Label(_) => true,
        Item::Directive(_) => false,
    }
}

/// The registers an instruction's destination operands name.
fn written(i: &gpuabi_amdgpu::Inst) -> Vec<RegRange> {
    i.operands
        .iter()
        .take(i.dsts().len())
        .filter_map(|o| match o {
            Operand::Reg(r) => Some(*r),
            _ => None,
        })
        .collect()
}

/// The source of a copy and its destination, if `i` is one (see the module documentation).
fn copy(i: &gpuabi_amdgpu::Inst) -> Option<(RegRange, RegRange)> {
    let m = i.op.info().mnemonic;
    let reg = |k: usize| match i.operands.get(k) {
        Some(Operand::Reg(r)) => Some(*r),
        _ => None,
    };
    match m {
        "v_mov_b32" | "s_mov_b32" | "s_mov_b64" if i.sdwa.is_none() => Some((reg(1)?, reg(0)?)),
        "v_lshrrev_b64" => match i.operands.get(1) {
            Some(Operand::Imm(Imm::Int(0))) => Some((reg(2)?, reg(0)?)),
            _ => None,
        },
        _ => None,
    }
}

/// The register a store writes to memory: its first register source in a `VReg` slot.
fn stored(i: &gpuabi_amdgpu::Inst) -> Option<RegRange> {
    let d = i.dsts().len();
    i.slots()
        .zip(&i.operands)
        .skip(d)
        .find_map(|(k, o)| match (k, o) {
            (gpuabi_amdgpu::Kind::VReg(_), Operand::Reg(r)) => Some(*r),
            _ => None,
        })
}

fn is_store(m: &str) -> bool {
    m.starts_with("scratch_store") || m.starts_with("buffer_store")
}

fn is_load(m: &str) -> bool {
    m.starts_with("scratch_load") || m.starts_with("buffer_load")
}

/// The registers of `layout`'s parameters (`returns`: only return parameters), the return
/// address left out (the call sets it).
fn param_regs(layout: &Assignment, returns: bool) -> RegSet {
    let mut set = RegSet::new();
    for p in &layout.params {
        if p.name == "return_address" || (returns && !p.is_return) {
            continue;
        }
        if let Location::Reg(r) = p.location {
            set.insert_range(r);
        }
    }
    set
}

/// Classifies the straight-line code around the call at `call` (an item index) of the
/// function whose items are `body`, against `callee` when known; pushes the marks.
fn classify(
    p: &Program,
    body: std::ops::Range<usize>,
    call: usize,
    callee: Option<&CalleeAbi>,
    lane_storage: &BTreeSet<RegRange>,
    mut mark: impl FnMut(usize, AbiCost),
) {
    mark(call, AbiCost::Linkage);
    let Some(callee) = callee else {
        return;
    };
    let sp = callee.stack_pointer;
    let mut before = call;
    while before > body.start
        && !ends_block(p, before - 1)
        && mnemonic(p, before - 1) != Some("s_swappc_b64")
    {
        before -= 1;
    }
    let mut after = call + 1;
    while after < body.end && !ends_block(p, after) && mnemonic(p, after) != Some("s_swappc_b64") {
        after += 1;
    }
    let bump = |item: usize, op: &str| {
        inst(p, item).is_some_and(|i| {
            i.op.info().mnemonic == op
                && matches!(i.operands.first(), Some(Operand::Reg(r)) if *r == sp)
                && matches!(i.operands.get(1), Some(Operand::Reg(r)) if *r == sp)
                && matches!(i.operands.get(2), Some(Operand::Imm(_)))
        })
    };
    let bumped_before = call > before && bump(call - 1, "s_add_u32");
    let bumped_after = call + 1 < after && bump(call + 1, "s_sub_u32");
    if bumped_before {
        mark(call - 1, AbiCost::Linkage);
    }
    if bumped_after {
        mark(call + 1, AbiCost::Linkage);
    }
    let params = param_regs(&callee.layout, false);
    let returns = param_regs(&callee.layout, true);
    let lane = |r: RegRange| lane_storage.contains(&r);
    // Before the call, last first: a copy counts when no later instruction writes its
    // destination.
    let mut later_writes: Vec<RegRange> = Vec::new();
    let end = if bumped_before { call - 1 } else { call };
    for item in (before..end).rev() {
        let Some(i) = inst(p, item) else {
            continue;
        };
        let m = i.op.info().mnemonic;
        if is_store(m) {
            if let Some(r) = stored(i) {
                if lane(r) {
                    mark(item, AbiCost::Linkage);
                } else if !callee.preserved.contains_range(r) {
                    mark(item, AbiCost::Spill);
                }
            }
        } else if m == "v_writelane_b32" {
            if let Some(Operand::Reg(s)) = i.operands.get(1) {
                if !callee.preserved.contains_range(*s) {
                    mark(item, AbiCost::Spill);
                }
            }
        } else if let Some((_, dst)) = copy(i) {
            if params.contains_range(dst) && !later_writes.iter().any(|w| w.overlaps(&dst)) {
                mark(item, AbiCost::Copy);
            }
        }
        later_writes.extend(written(i));
    }
    // After the call, in order: a copy of a return register counts until the register is
    // written.
    let start = if bumped_after { call + 2 } else { call + 1 };
    let mut earlier_writes: Vec<RegRange> = Vec::new();
    for item in start..after {
        let Some(i) = inst(p, item) else {
            continue;
        };
        let m = i.op.info().mnemonic;
        if is_load(m) {
            match i.operands.first() {
                Some(Operand::Reg(r)) if lane(*r) => mark(item, AbiCost::Linkage),
                _ => mark(item, AbiCost::Spill),
            }
        } else if m == "v_readlane_b32" {
            mark(item, AbiCost::Spill);
        } else if let Some((src, _)) = copy(i) {
            if returns.contains_range(src) && !earlier_writes.iter().any(|w| w.overlaps(&src)) {
                mark(item, AbiCost::Copy);
            }
        }
        earlier_writes.extend(written(i));
    }
}

/// The per-site overhead of a run of `program` (`pieces`: each function's label and its
/// item range; `placed(item)`: the `FILE:LINE` of an item; `inst_count(item)`: how often
/// the item's instruction ran; `calls_made`: the run's calls by call address and callee
/// address, with `addr_of(item)`; `callees`: what each callee address is checked against).
#[allow(clippy::too_many_arguments)]
pub fn site_stats(
    program: &Program,
    pieces: &[(String, std::ops::Range<usize>)],
    placed: impl Fn(usize) -> String,
    executed: impl Fn(usize) -> Option<u64>,
    addr_of: impl Fn(usize) -> Option<u64>,
    calls_made: &BTreeMap<(u64, u64), u64>,
    callees: &BTreeMap<u64, CalleeAbi>,
) -> Vec<SiteStats> {
    let mut costs = Vec::new();
    let mut sites = Vec::new();
    for (f, (label, body)) in pieces.iter().enumerate() {
        let mut lane_storage = BTreeSet::new();
        for item in body.clone() {
            if let Some(i) = inst(program, item) {
                let m = i.op.info().mnemonic;
                let k = match m {
                    "v_writelane_b32" => 0,
                    "v_readlane_b32" => 1,
                    _ => continue,
                };
                if let Some(Operand::Reg(r)) = i.operands.get(k) {
                    if r.file() == RegFile::Vgpr {
                        lane_storage.insert(*r);
                    }
                }
            }
        }
        for call in body.clone() {
            if mnemonic(program, call) != Some("s_swappc_b64") {
                continue;
            }
            let mut reached: Vec<(u64, u64)> = addr_of(call)
                .map(|a| {
                    calls_made
                        .range((a, 0)..=(a, u64::MAX))
                        .map(|(&(_, to), &n)| (to, n))
                        .collect()
                })
                .unwrap_or_default();
            reached.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let callee = reached.first().and_then(|(to, _)| callees.get(to));
            let site = sites.len();
            classify(
                program,
                body.clone(),
                call,
                callee,
                &lane_storage,
                |item, cost| {
                    costs.push(CostItem {
                        item,
                        function: f,
                        cost,
                        site: Some(site),
                    })
                },
            );
            sites.push(SiteStats {
                site: placed(call),
                caller: label.clone(),
                callees: reached
                    .iter()
                    .map(|(to, n)| Reached {
                        function: callees
                            .get(to)
                            .map_or_else(|| format!("0x{to:x}"), |c| c.label.clone()),
                        calls: *n,
                    })
                    .collect(),
                abi: callee.map(|c| c.abi.clone()),
                calls: executed(call).unwrap_or(0),
                executed: Overhead::default(),
                listed: Overhead::default(),
            });
        }
    }
    let listed = site_overhead(&costs, sites.len());
    let (_, run) = executed_overhead(&costs, pieces.len(), sites.len(), executed);
    for ((s, l), r) in sites.iter_mut().zip(listed).zip(run) {
        s.listed = l;
        s.executed = r;
    }
    sites
}
