//! Emission: lowered blocks become an `amdgpu::Program` with one label per block (the
//! kernel's symbol on the first), dropping branches to the block that follows anyway.

use gpuabi_amdgpu::program::Directive;
use gpuabi_amdgpu::{Item, Opcode, Operand, Origin as HwOrigin, Program};

use crate::lower_to_hw::{block_label, HwBlock, HwInst};
use crate::mir::{AbiCost, Origin};

/// Appends the function `name` to `program`, every instruction with its source span;
/// returns how many instructions it appended, and the item index and share of every
/// instruction that is call-ABI overhead.
pub fn emit(
    program: &mut Program,
    name: &str,
    blocks: &[HwBlock],
) -> (usize, Vec<(usize, AbiCost)>) {
    let mut count = 0;
    let mut costs = Vec::new();
    program.push(Item::Directive(Directive::Globl(name.to_string())));
    // The block whose code runs when control reaches block `b`: `b`, or the first
    // non-empty block after it.
    let mut lands = vec![blocks.len(); blocks.len() + 1];
    for b in (0..blocks.len()).rev() {
        lands[b] = if blocks[b].is_empty() {
            lands[b + 1]
        } else {
            b
        };
    }
    let label_block =
        |label: &str| (0..blocks.len()).find(|&b| block_label(name, b as u32) == label);
    for (b, block) in blocks.iter().enumerate() {
        program.push(Item::Label(block_label(name, b as u32)));
        for (i, HwInst { inst, origin, cost }) in block.iter().enumerate() {
            let last = i + 1 == block.len();
            let to_next = inst.op == Opcode::SBranch
                && matches!(inst.operands.first(), Some(Operand::Expr(e))
                    if e.minus.is_none() && label_block(&e.plus).is_some_and(|t| lands[t] == lands[b + 1]));
            if last && to_next {
                continue;
            }
            let Origin { start, end } = *origin;
            if *cost != AbiCost::None {
                costs.push((program.items.len(), *cost));
            }
            program.push_from(
                Item::Inst(inst.clone()),
                HwOrigin::Source {
                    function: name.to_string(),
                    start,
                    end,
                },
            );
            count += 1;
        }
    }
    (count, costs)
}
