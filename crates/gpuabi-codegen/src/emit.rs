//! Emission: lowered blocks become an `amdgpu::Program` with one label per block (the
//! kernel's symbol on the first), dropping branches to the block that follows anyway.

use gpuabi_amdgpu::program::Directive;
use gpuabi_amdgpu::{Item, Opcode, Operand, Program};

use crate::lower_to_hw::{block_label, HwBlock, HwInst};
use crate::mir::Origin;

/// Appends the function `name` to `program`; returns the origin of every instruction
/// appended, in order.
pub fn emit(program: &mut Program, name: &str, blocks: &[HwBlock]) -> Vec<Origin> {
    let mut origins = Vec::new();
    program.push(Item::Directive(Directive::Globl(name.to_string())));
    for (b, block) in blocks.iter().enumerate() {
        program.push(Item::Label(block_label(name, b as u32)));
        let next = block_label(name, b as u32 + 1);
        for (i, HwInst { inst, origin }) in block.iter().enumerate() {
            let last = i + 1 == block.len();
            let to_next = inst.op == Opcode::SBranch
                && matches!(inst.operands.first(), Some(Operand::Expr(e)) if e.plus == next && e.minus.is_none());
            if last && to_next {
                continue;
            }
            program.push(Item::Inst(inst.clone()));
            origins.push(*origin);
        }
    }
    origins
}
