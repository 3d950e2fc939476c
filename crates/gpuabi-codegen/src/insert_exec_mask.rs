//! Exec-mask insertion: the branch pseudo-instructions and block kinds of divergent
//! control flow become exec-mask code and hardware branches, as ACO's
//! `aco_insert_exec_mask.cpp` (`add_branch_code`) does. The scheme is the project's own,
//! modelled on ACO's:
//!
//! * `p_divergent_if cond`: `s_and_saveexec saved, cond` runs the then arm on the lanes
//!   whose condition holds; `s_cbranch_execz` skips the arm when none does. The invert
//!   block sets exec to `saved & ~cond` for the else arm and skips it when empty. The merge
//!   block restores `saved`, minus the lanes that left inside the `if` (those recorded in
//!   the break and continue masks of the loop around it, and in the return mask).
//! * A divergent loop keeps a continue mask and a break mask, cleared before it starts.
//!   `p_continue` and `p_break` add the active lanes to them and clear exec; the latch sets
//!   exec to the lanes that continued, clears the continue mask and repeats while any lane
//!   is active; the loop exit sets exec to the lanes that broke.
//! * `p_return` adds the active lanes to the kernel's return mask (cleared at the entry)
//!   and clears exec.
//! * `p_branch` becomes `s_branch` where the linear CFG branches (nothing where the wave
//!   falls through), `p_cbranch_execz` becomes `s_cbranch_execz`.
//!
//! The code stays SSA but for the masks: the saved exec of an `if` is written once, the
//! loop and return masks are SGPR temps written more than once, which liveness treats as
//! any temp (killed by a write of every dword). Phis stay at the top of their blocks; the
//! exec code of a block's start goes after them.

use crate::error::PassError;
use crate::pipeline::Context;
use gpuabi_amdgpu::{Opcode, WaveSize};
use gpuabi_layout::reg::RegFile;
use smallvec::SmallVec;

use crate::error::Invalid;
use crate::isel::{exec_opnd, imm, mask_opcode};
use crate::mir::{BlockId, BlockKind, Function, MInst, MOp, Opnd, Origin, Pseudo, Temp};

#[derive(Debug, Clone, Copy)]
enum Ctl {
    /// A divergent `if`: exec before it, its condition, and whether lanes left inside it
    /// through its loop's masks or by returning.
    If {
        saved: Temp,
        cond: Temp,
        left_loop: bool,
        left_ret: bool,
    },
    /// A divergent loop: lanes that continued this iteration, lanes that broke.
    Loop { cont: Temp, brk: Temp },
}

struct Ctx {
    wave: WaveSize,
    stack: Vec<Ctl>,
    ret_mask: Option<Temp>,
}

impl Ctx {
    fn inst<const N: usize>(&self, w64: Opcode, opnds: [Opnd; N], origin: Origin) -> MInst {
        MInst {
            op: MOp::Hw(mask_opcode(self.wave, w64)),
            opnds: opnds.into_iter().collect(),
            mods: Default::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
            origin,
        }
    }

    fn exec(&self) -> Opnd {
        exec_opnd(self.wave)
    }

    fn innermost_loop(&self) -> Option<(Temp, Temp)> {
        self.stack.iter().rev().find_map(|c| match *c {
            Ctl::Loop { cont, brk } => Some((cont, brk)),
            Ctl::If { .. } => None,
        })
    }

    /// `mask |= exec; exec = 0`.
    fn leave(&self, mask: Temp, f: &Function, origin: Origin, out: &mut Vec<MInst>) {
        let m = Opnd::Temp(f.whole(mask));
        out.push(self.inst(Opcode::SOrB64, [m.clone(), m, self.exec()], origin));
        out.push(self.inst(Opcode::SMovB64, [self.exec(), imm(0)], origin));
    }

    /// exec = `saved` minus the lanes that left.
    fn restore(&self, f: &mut Function, ctl: Ctl, origin: Origin, out: &mut Vec<MInst>) {
        let Ctl::If {
            saved,
            left_loop,
            left_ret,
            ..
        } = ctl
        else {
            unreachable!("an if")
        };
        let mut gone: SmallVec<[Temp; 3]> = SmallVec::new();
        if left_loop {
            if let Some((cont, brk)) = self.innermost_loop() {
                gone.extend([cont, brk]);
            }
        }
        if left_ret {
            gone.extend(self.ret_mask);
        }
        let saved = Opnd::Temp(f.whole(saved));
        let Some((&first, rest)) = gone.split_first() else {
            out.push(self.inst(Opcode::SMovB64, [self.exec(), saved], origin));
            return;
        };
        let mut acc = first;
        for &m in rest {
            let t = mask_temp(f, self.wave);
            let (a, b, d) = (f.whole(acc), f.whole(m), f.whole(t));
            out.push(self.inst(
                Opcode::SOrB64,
                [Opnd::Temp(d), Opnd::Temp(a), Opnd::Temp(b)],
                origin,
            ));
            acc = t;
        }
        let acc = Opnd::Temp(f.whole(acc));
        out.push(self.inst(Opcode::SAndn2B64, [self.exec(), saved, acc], origin));
    }

    /// Marks the `if`s that lanes leave by a `p_break`/`p_continue` (those inside the
    /// loop) or a `p_return` (all).
    fn mark_left(&mut self, ret: bool) {
        for c in self.stack.iter_mut().rev() {
            match c {
                Ctl::If {
                    left_loop,
                    left_ret,
                    ..
                } => {
                    if ret {
                        *left_ret = true;
                    } else {
                        *left_loop = true;
                    }
                }
                Ctl::Loop { .. } if !ret => break,
                Ctl::Loop { .. } => {}
            }
        }
    }
}

fn mask_temp(f: &mut Function, wave: WaveSize) -> Temp {
    let n = wave.mask_dwords();
    f.temp(RegFile::Sgpr, n, n)
}

fn target(inst: &MInst, i: usize) -> Result<BlockId, Invalid> {
    match inst.opnds.get(i) {
        Some(Opnd::Block(b)) => Ok(*b),
        other => Err(Invalid::function(format!(
            "branch target expected, found {other:?}"
        ))),
    }
}

fn branch(op: Opcode, to: BlockId, origin: Origin) -> MInst {
    MInst {
        op: MOp::Hw(op),
        opnds: [Opnd::Block(to)].into_iter().collect(),
        mods: Default::default(),
        e64: false,
        cost: crate::mir::AbiCost::None,
        origin,
    }
}

/// Replaces the branch pseudo-instructions of `f` by exec-mask code and hardware
/// branches. Needs the edge lists of [`crate::control_flow::build`].
pub fn insert(f: &mut Function, wave: WaveSize) -> Result<(), Invalid> {
    let returns = f
        .blocks
        .iter()
        .any(|b| b.insts.last().is_some_and(|i| i.is(Pseudo::Return)));
    // (A called function's exit restores the lanes of its return mask.)
    let mut cx = Ctx {
        wave,
        stack: Vec::new(),
        ret_mask: returns.then(|| mask_temp(f, wave)),
    };
    for b in 0..f.blocks.len() {
        let kind = f.blocks[b].kind;
        let origin = f.blocks[b]
            .insts
            .first()
            .map(|i| i.origin)
            .unwrap_or_default();
        let mut head = Vec::new();
        if kind.has(BlockKind::INVERT) {
            let Some(Ctl::If { saved, cond, .. }) = cx.stack.last().copied() else {
                return Err(Invalid::block(b, "invert block outside a divergent if"));
            };
            let (s, c) = (f.whole(saved), f.whole(cond));
            head.push(cx.inst(
                Opcode::SAndn2B64,
                [cx.exec(), Opnd::Temp(s), Opnd::Temp(c)],
                origin,
            ));
        }
        if kind.has(BlockKind::MERGE) {
            let Some(ctl @ Ctl::If { .. }) = cx.stack.pop() else {
                return Err(Invalid::block(b, "merge block without its divergent if"));
            };
            cx.restore(f, ctl, origin, &mut head);
        }
        if kind.has(BlockKind::LOOP_EXIT | BlockKind::DIVERGENT) {
            let Some(Ctl::Loop { brk, .. }) = cx.stack.pop() else {
                return Err(Invalid::block(b, "loop exit without its divergent loop"));
            };
            let brk = Opnd::Temp(f.whole(brk));
            head.push(cx.inst(Opcode::SMovB64, [cx.exec(), brk], origin));
        }
        // A called function returns with the exec it was entered with: the lanes that
        // returned early come back.
        if kind.has(BlockKind::EXIT) && f.callee.is_some() {
            if let Some(m) = cx.ret_mask {
                let m = Opnd::Temp(f.whole(m));
                head.push(cx.inst(Opcode::SOrB64, [cx.exec(), cx.exec(), m], origin));
            }
        }
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        let phis = insts.iter().take_while(|i| i.is_phi()).count();
        insts.splice(phis..phis, head);
        let last = insts.pop_if(|i| matches!(i.op, MOp::Pseudo(_)) && i.is_terminator());
        let mut tail = Vec::new();
        if b == 0 {
            if let Some(m) = cx.ret_mask {
                let m = Opnd::Temp(f.whole(m));
                tail.push(cx.inst(Opcode::SMovB64, [m, imm(0)], origin));
            }
        }
        let next = BlockId(b as u32 + 1);
        let falls = f.blocks[b].linear_succs.as_slice() == [next];
        if let Some(last) = last {
            let origin = last.origin;
            let MOp::Pseudo(p) = last.op else {
                unreachable!("popped a pseudo-instruction")
            };
            match p {
                Pseudo::Branch if kind.has(BlockKind::LOOP_LATCH) => {
                    let Some((cont, _)) = cx.innermost_loop() else {
                        return Err(Invalid::block(b, "latch outside a divergent loop"));
                    };
                    let c = Opnd::Temp(f.whole(cont));
                    tail.push(cx.inst(Opcode::SMovB64, [cx.exec(), c.clone()], origin));
                    tail.push(cx.inst(Opcode::SMovB64, [c, imm(0)], origin));
                    tail.push(branch(Opcode::SCbranchExecnz, target(&last, 0)?, origin));
                }
                Pseudo::Branch => {
                    let to = target(&last, 0)?;
                    let header = f.blocks[to.index()].kind;
                    if kind.has(BlockKind::LOOP_PREHEADER)
                        && header.has(BlockKind::LOOP_HEADER | BlockKind::DIVERGENT)
                    {
                        let (cont, brk) = (mask_temp(f, wave), mask_temp(f, wave));
                        for m in [cont, brk] {
                            let m = Opnd::Temp(f.whole(m));
                            tail.push(cx.inst(Opcode::SMovB64, [m, imm(0)], origin));
                        }
                        cx.stack.push(Ctl::Loop { cont, brk });
                    }
                    if !falls {
                        tail.push(branch(Opcode::SBranch, to, origin));
                    }
                }
                Pseudo::DivergentIf => {
                    let Some(Opnd::Temp(cond)) = last.opnds.first().cloned() else {
                        return Err(Invalid::block(b, "p_divergent_if without a condition"));
                    };
                    let saved = mask_temp(f, wave);
                    let s = Opnd::Temp(f.whole(saved));
                    tail.push(cx.inst(Opcode::SAndSaveexecB64, [s, Opnd::Temp(cond)], origin));
                    tail.push(branch(Opcode::SCbranchExecz, target(&last, 2)?, origin));
                    cx.stack.push(Ctl::If {
                        saved,
                        cond: cond.temp,
                        left_loop: false,
                        left_ret: false,
                    });
                }
                Pseudo::BranchExecz => {
                    tail.push(branch(Opcode::SCbranchExecz, target(&last, 0)?, origin));
                }
                Pseudo::Break | Pseudo::Continue | Pseudo::Return => {
                    let (mask, lin) =
                        if p == Pseudo::Return {
                            (cx.ret_mask, target(&last, 0)?)
                        } else {
                            let m = cx.innermost_loop().map(|(cont, brk)| {
                                if p == Pseudo::Break {
                                    brk
                                } else {
                                    cont
                                }
                            });
                            (m, target(&last, 1)?)
                        };
                    let Some(mask) = mask else {
                        return Err(Invalid::block(b, format!("{p:?} outside its construct")));
                    };
                    cx.leave(mask, f, origin, &mut tail);
                    cx.mark_left(p == Pseudo::Return);
                    if lin != next {
                        tail.push(branch(Opcode::SBranch, lin, origin));
                    }
                }
                Pseudo::ReturnToCaller => tail.push(last),
                other => return Err(Invalid::block(b, format!("{other:?} is not a branch"))),
            }
        }
        insts.extend(tail);
        f.blocks[b].insts = insts;
    }
    if !cx.stack.is_empty() {
        return Err(Invalid::function("a divergent construct was not closed"));
    }
    Ok(())
}

/// The pass: lowers the branch pseudo-instructions of `f` to exec-mask code.
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    insert(f, ctx.opts.wave).map_err(|e| PassError::unexpected("insert_exec_mask", f, e))
}
