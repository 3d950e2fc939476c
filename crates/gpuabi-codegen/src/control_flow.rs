//! Control-flow lowering: the logical and linear CFGs of a function, from its branches
//! and block kinds, as ACO keeps both in every block (`Block::logical_preds`,
//! `Block::linear_preds`, built while `aco_instruction_selection.cpp` emits the blocks).
//!
//! The logical CFG is the program's control flow: a divergent `if`'s head goes to both
//! arms, a `p_break` to its loop's exit, a `p_continue` to its header, the arms of an `if`
//! to its merge. The linear CFG is where the program counter goes: through the then arm,
//! the invert block and the else arm in turn, from a lane-leaving branch to the next block,
//! from a loop's latch back to its header or on to the exit. The blocks that only manage
//! exec (invert, latch) are linear only; `p_cbranch_execz` skips are linear only.
//!
//! Then each phi's sources, which instruction selection gives as `block, value` pairs,
//! are ordered as the predecessor lists; a linear phi gets `undef` from a linear
//! predecessor that passes no value (a lane-leaving branch falling into a uniform merge).

use crate::error::Invalid;
use crate::error::PassError;
use crate::mir::{BlockId, BlockKind, Blocks, Function, MOp, Opnd, Pseudo};
use crate::pipeline::Context;

fn block_opnd(o: Option<&Opnd>) -> Result<BlockId, Invalid> {
    match o {
        Some(Opnd::Block(b)) => Ok(*b),
        other => Err(Invalid::function(format!(
            "branch target expected, found {other:?}"
        ))),
    }
}

/// The logical and linear successors of block `b`, from its branches.
fn successors(f: &Function, b: usize) -> Result<(Blocks, Blocks), Invalid> {
    let block = &f.blocks[b];
    let next = BlockId(b as u32 + 1);
    let has_next = b + 1 < f.blocks.len();
    let fall = |v: &mut Blocks| {
        if has_next && !v.contains(&next) {
            v.push(next);
        }
    };
    let Some(last) = block.insts.last().filter(|i| i.is_terminator()) else {
        // No branch: falls through on both graphs.
        let mut v = Blocks::new();
        fall(&mut v);
        return Ok((v.clone(), v));
    };
    let mut logical = Blocks::new();
    let mut linear = Blocks::new();
    match last.op {
        MOp::Hw(_) | MOp::DualY(_) => {
            let s = f.successors(BlockId(b as u32));
            return Ok((s.clone(), s));
        }
        MOp::Pseudo(Pseudo::Branch) => {
            let t = block_opnd(last.opnds.first())?;
            if block.kind.has(BlockKind::LOOP_LATCH) {
                linear.push(t);
                fall(&mut linear);
            } else {
                logical.push(t);
                if f.blocks[t.index()].kind.has(BlockKind::MERGE) {
                    // The end of a divergent arm: the wave goes on to the next arm.
                    fall(&mut linear);
                } else {
                    linear.push(t);
                }
            }
        }
        MOp::Pseudo(Pseudo::DivergentIf) => {
            fall(&mut logical);
            logical.push(block_opnd(last.opnds.get(1))?);
            fall(&mut linear);
            linear.push(block_opnd(last.opnds.get(2))?);
        }
        MOp::Pseudo(Pseudo::BranchExecz) => {
            if block.kind.is_logical() {
                fall(&mut logical);
            }
            fall(&mut linear);
            linear.push(block_opnd(last.opnds.first())?);
        }
        MOp::Pseudo(Pseudo::Break | Pseudo::Continue) => {
            logical.push(block_opnd(last.opnds.first())?);
            linear.push(block_opnd(last.opnds.get(1))?);
        }
        MOp::Pseudo(Pseudo::Return) => {
            linear.push(block_opnd(last.opnds.first())?);
            // In a called function the returning lanes' values meet at its exit block.
            if let Some(Opnd::Block(exit)) = last.opnds.get(1) {
                logical.push(*exit);
            }
        }
        MOp::Pseudo(Pseudo::ReturnToCaller) => {}
        MOp::Pseudo(p) => return Err(Invalid::block(b, format!("{p:?} is not a branch"))),
    }
    Ok((logical, linear))
}

/// Computes the edge lists of every block and orders the phis' sources.
pub fn build(f: &mut Function) -> Result<(), Invalid> {
    let nb = f.blocks.len();
    let mut edges = Vec::with_capacity(nb);
    for b in 0..nb {
        edges.push(successors(f, b)?);
    }
    for b in &mut f.blocks {
        b.logical_preds.clear();
        b.linear_preds.clear();
    }
    for (b, (logical, linear)) in edges.into_iter().enumerate() {
        let id = BlockId(b as u32);
        for s in &logical {
            f.blocks[s.index()].logical_preds.push(id);
        }
        for s in &linear {
            f.blocks[s.index()].linear_preds.push(id);
        }
        f.blocks[b].logical_succs = logical;
        f.blocks[b].linear_succs = linear;
    }
    order_phi_sources(f)
}

fn order_phi_sources(f: &mut Function) -> Result<(), Invalid> {
    for b in 0..f.blocks.len() {
        let (logical, linear) = (
            f.blocks[b].logical_preds.clone(),
            f.blocks[b].linear_preds.clone(),
        );
        for inst in f.blocks[b].insts.iter_mut() {
            if !inst.is_phi() {
                break;
            }
            let is_linear = inst.is(Pseudo::LinearPhi);
            let preds = if is_linear { &linear } else { &logical };
            let pairs: Vec<(BlockId, Opnd)> = inst.opnds[1..]
                .chunks(2)
                .map(|c| Ok((block_opnd(c.first())?, c[1].clone())))
                .collect::<Result<_, Invalid>>()?;
            for (p, _) in &pairs {
                if !preds.contains(p) {
                    return Err(Invalid::block(
                        b,
                        format!("a phi source comes from BB{}, not a predecessor", p.0),
                    ));
                }
            }
            let mut opnds = smallvec::SmallVec::new();
            opnds.push(inst.opnds[0].clone());
            for p in preds {
                match pairs.iter().find(|(q, _)| q == p) {
                    Some((_, v)) => opnds.push(v.clone()),
                    None if is_linear => opnds.push(Opnd::Undef),
                    None => {
                        return Err(Invalid::block(
                            b,
                            format!("no phi source from logical predecessor BB{}", p.0),
                        ))
                    }
                }
            }
            inst.opnds = opnds;
        }
    }
    Ok(())
}

/// The pass: builds the edge lists of `f` and orders its phis' sources.
pub fn run(_: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    build(f).map_err(|e| PassError::unexpected("control_flow", f, e))
}
