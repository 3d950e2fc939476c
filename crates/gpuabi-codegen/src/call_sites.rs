//! The calls of the compiled program as the contract checker sees them: for every
//! `s_swappc_b64`, the caller, the callee, its ABI and what the callee must hand back;
//! and which call site each instruction of call-ABI overhead serves.

use gpuabi_amdgpu::{Item, Opcode, Program};
use gpuabi_layout::aco::{Demand, Location, ParamKind, ParamLayout};

use crate::mir::{self, Function};
use crate::stats::CostItem;

/// One call in the compiled program: what the contract checker holds the callee to.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSiteInfo {
    /// Index of the call's `s_swappc_b64` in the program's items.
    pub item: usize,
    /// The calling function.
    pub caller: String,
    /// The callee: a function, or `$sig` for an indirect call.
    pub callee: String,
    /// The callee's ABI.
    pub abi: String,
    /// Registers the callee must hand back unchanged: its ABI's preserved registers below
    /// the limit, and the parameters it preserves explicitly (the return address
    /// included; not the callee PCs, which carry the next callee, nor return values).
    pub preserved: gpuabi_layout::reg::RegSet,
    /// The stack-pointer register (also unchanged at the return).
    pub stack_pointer: gpuabi_layout::reg::RegRange,
    /// Bytes per lane of scratch parameters just below the callee's stack pointer.
    pub scratch_param_bytes: u32,
    /// Where every parameter of the callee goes, as its ABI assigns them: system and RADV
    /// parameters first, then the hidden launch values named `launch<k>`, then the IR's
    /// parameters named `arg<k>`.
    pub params: Vec<ParamLayout>,
    /// The register limit the callee's ABI blocks are cut at: every register below it that
    /// [`CallSiteInfo::preserved`] lacks is clobbered by the call.
    pub limit: Demand,
    /// Source span of the call.
    pub origin: mir::Origin,
}

/// The call sites of `f` in the order of their `s_swappc_b64` (`order`: indices into
/// [`Function::calls`]), their item not yet known.
pub(crate) fn call_sites(f: &Function, order: &[usize], limit: Demand) -> Vec<CallSiteInfo> {
    order
        .iter()
        .map(|&k| {
            let site = &f.calls[k];
            let conv = &site.conv;
            let mut preserved = conv.preserved.clone();
            for p in &conv.assignment.params {
                let explicit = p.needs_explicit_preservation
                    && !p.is_return
                    && p.kind != ParamKind::Radv
                    && p.name != "stack_pointer";
                if let (true, Location::Reg(r)) = (explicit, p.location) {
                    preserved.insert_range(r);
                }
            }
            CallSiteInfo {
                item: 0,
                caller: f.name.clone(),
                callee: site.callee.clone(),
                abi: conv.abi.name.clone(),
                preserved,
                stack_pointer: conv.reg("stack_pointer"),
                scratch_param_bytes: conv.assignment.scratch_param_size,
                params: conv.assignment.params.clone(),
                limit,
                origin: site.origin,
            }
        })
        .collect()
}

/// Places the call sites of the function `function` emitted from item `first_item` on:
/// each at its `s_swappc_b64`, appended to `calls`; and its overhead instructions `items`
/// appended to `costs`, each with the call site it serves.
pub(crate) fn place(
    program: &Program,
    first_item: usize,
    function: usize,
    sites: Vec<CallSiteInfo>,
    items: Vec<(usize, mir::AbiCost)>,
    calls: &mut Vec<CallSiteInfo>,
    costs: &mut Vec<CostItem>,
) {
    let swappcs = program.items[first_item..]
        .iter()
        .enumerate()
        .filter(|(_, it)| matches!(&it.item, Item::Inst(i) if i.op == Opcode::SSwappcB64))
        .map(|(i, _)| first_item + i);
    let first_call = calls.len();
    for (item, site) in swappcs.zip(sites) {
        calls.push(CallSiteInfo { item, ..site });
    }
    let site_of = |item: usize, cost: mir::AbiCost| -> Option<usize> {
        if cost == mir::AbiCost::CalleeSave {
            return None;
        }
        let gpuabi_amdgpu::Origin::Source { start, end, .. } = &program.items[item].origin else {
            return None;
        };
        calls[first_call..]
            .iter()
            .position(|c| c.origin.start == *start && c.origin.end == *end)
            .map(|k| first_call + k)
    };
    let placed: Vec<CostItem> = items
        .into_iter()
        .map(|(item, cost)| CostItem {
            item,
            function,
            cost,
            site: site_of(item, cost),
        })
        .collect();
    costs.extend(placed);
}
