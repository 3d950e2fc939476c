//! SSA elimination, after register allocation: every phi becomes copies at the end of its
//! predecessors, as ACO's `aco_ssa_elimination.cpp` does: the sources of a block's `p_phi`s become one parallel
//! copy at the end of the logical part of each logical predecessor (so it runs with that
//! path's exec mask), the sources of its `p_linear_phi`s one parallel copy at the very end
//! of each linear predecessor. The structured CFG has no critical edges: a predecessor of a
//! block with phis has no other successor on that graph.
//!
//! The copies are between the registers the allocator gave the phi's destination and its
//! sources (none where they share one, as the allocator prefers). The merged temp is then
//! written on every path that reaches the merge; a VGPR write is masked by exec, so each
//! lane keeps the value of the path it took.

use crate::error::PassError;
use crate::pipeline::Context;
use gpuabi_amdgpu::{Imm, Operand};
use smallvec::SmallVec;

use crate::error::Invalid;
use crate::mir::{Function, MInst, Opnd, Pseudo, Slice};

/// The copies of one phi source: whole temps stay whole (lowering splits them by dword),
/// constants are split into their dwords.
fn copies(dst: Slice, src: &Opnd, out: &mut SmallVec<[Opnd; 4]>) {
    match src {
        Opnd::Undef => {}
        Opnd::Fixed(Operand::Imm(Imm::Int(bits))) if dst.dwords > 1 => {
            for k in 0..dst.dwords {
                out.push(Opnd::Temp(Slice {
                    temp: dst.temp,
                    offset: dst.offset + k,
                    dwords: 1,
                }));
                let d = (*bits as u64 >> (32 * u32::from(k))) as u32;
                out.push(Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(d)))));
            }
        }
        other => {
            out.push(Opnd::Temp(dst));
            out.push(other.clone());
        }
    }
}

/// Replaces the phis of `f` by parallel copies in the predecessors.
pub fn eliminate(f: &mut Function) -> Result<(), Invalid> {
    // Per block: the copies to add for logical successors, then for linear ones.
    let nb = f.blocks.len();
    let mut logical: Vec<SmallVec<[Opnd; 4]>> = vec![SmallVec::new(); nb];
    let mut linear: Vec<SmallVec<[Opnd; 4]>> = vec![SmallVec::new(); nb];
    for b in 0..nb {
        let block = &f.blocks[b];
        for phi in block.insts.iter().take_while(|i| i.is_phi()) {
            let Some(Opnd::Temp(dst)) = phi.opnds.first() else {
                return Err(Invalid::block(b, "phi without a destination"));
            };
            let (preds, out) = if phi.is(Pseudo::Phi) {
                (&block.logical_preds, &mut logical)
            } else {
                (&block.linear_preds, &mut linear)
            };
            if phi.opnds.len() != preds.len() + 1 {
                return Err(Invalid::block(
                    b,
                    "phi sources do not match the predecessors",
                ));
            }
            for (p, src) in preds.iter().zip(&phi.opnds[1..]) {
                copies(*dst, src, &mut out[p.index()]);
            }
        }
    }
    for b in 0..nb {
        let origin = f.blocks[b]
            .insts
            .last()
            .map(|i| i.origin)
            .unwrap_or_default();
        let insts = &mut f.blocks[b].insts;
        insts.retain(|i| !i.is_phi());
        let end = insts.len() - insts.iter().rev().take_while(|i| i.is_terminator()).count();
        if !linear[b].is_empty() {
            let pc = MInst::pseudo(Pseudo::ParallelCopy, linear[b].drain(..), origin);
            insts.insert(end, pc);
        }
        if !logical[b].is_empty() {
            let at = insts
                .iter()
                .position(|i| i.is(Pseudo::LogicalEnd))
                .unwrap_or(end);
            let pc = MInst::pseudo(Pseudo::ParallelCopy, logical[b].drain(..), origin);
            insts.insert(at, pc);
        }
    }
    Ok(())
}

/// The pass: replaces the phis of `f` by parallel copies.
pub fn run(_: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    eliminate(f).map_err(|e| PassError::unexpected("ssa_elimination", f, e))
}
