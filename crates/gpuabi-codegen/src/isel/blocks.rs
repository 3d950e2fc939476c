//! Control flow of instruction selection: the blocks of the shared CFG become machine
//! blocks in the same structured layout, block parameters become phis, and the ends of
//! blocks become branches: hardware branches for uniform control flow, pseudo-branches for
//! divergent control flow, as ACO's `begin_divergent_if_then`, `begin_loop` and
//! `emit_loop_jump` emit `p_cbranch_z`/`p_branch` with a block kind for
//! `aco_insert_exec_mask.cpp` to act on.
//!
//! The project's scheme (exec-mask insertion gives the masks; this pass places the blocks
//! and branches):
//!
//! * A uniform `if` compares its condition and branches on SCC to the else arm; the then
//!   arm ends with a jump to the merge.
//! * A divergent `if` ends its head block in `p_divergent_if`. When the else arm has code,
//!   an invert block (linear only) stands between the arms; the then arm's end falls into
//!   it on the linear CFG. The merge block restores exec.
//! * A loop is divergent as the uniformity analysis says (one of its `break`/`continue`
//!   lies under a divergent `if`). Its `break`s and `continue`s are `p_break`/`p_continue`
//!   and the body ends in `p_continue`; a latch block (linear only) after the body runs the
//!   lanes that continued again. A uniform loop's `break`/`continue` are plain jumps.
//! * `ret` outside every `if` and loop jumps to the end of the kernel; elsewhere it is
//!   `p_return`.
//! * A lane-leaving pseudo-branch continues the wave where the arm would have gone: the
//!   next block, or the merge of a uniform `if` at the end of its then arm.
//! * Wherever lanes may have left in the construct just closed (a merge, a loop exit),
//!   `p_cbranch_execz` skips to the end of the current divergent arm (or loop body, or
//!   kernel), so no uniform code (whose values may come from `v_readfirstlane_b32`) runs
//!   without an active lane.

use gpuabi_amdgpu::{Imm, Opcode, Operand};
use gpuabi_ir::cfg::{BlockId as CfgBlock, BlockKind as CfgKind, Cfg, IfId, LoopId, Terminator};
use gpuabi_ir::ir::{self, Type};

use super::{dwords_of, imm, Isel, Val};
use crate::error::CodegenError;
use crate::mir::{BlockId, BlockKind, MInst, Opnd, Origin, Pseudo};

/// Facts of the CFG's constructs that decide the shape of the machine blocks.
struct Plan {
    /// Per `if`: the condition is divergent.
    divergent_if: Vec<bool>,
    /// Per `if`: lanes may leave inside its arms (a `p_break`/`p_continue` of a loop
    /// around it, or a `p_return`).
    if_left: Vec<bool>,
    /// Per loop: divergent.
    divergent_loop: Vec<bool>,
    /// Per loop: a `ret` or `unreachable` inside its body.
    loop_returns: Vec<bool>,
    /// Per block: outside every `if` and loop.
    top_level: Vec<bool>,
    /// Per `if`: the else arm has code (otherwise it is a lone jump to the merge).
    has_else: Vec<bool>,
}

#[derive(Clone, Copy, PartialEq)]
enum Open {
    If(IfId),
    Loop(LoopId),
}

impl Plan {
    fn new(cfg: &Cfg, s: &Isel, divergent_loops: &[bool]) -> Plan {
        let divergent_if: Vec<bool> = cfg
            .ifs
            .iter()
            .map(|i| !s.is_uniform_operand(&i.cond))
            .collect();
        let divergent_loop: Vec<bool> = (0..cfg.loops.len())
            .map(|l| divergent_loops.get(l).copied().unwrap_or(true))
            .collect();
        let has_else = cfg
            .ifs
            .iter()
            .map(|i| {
                let e = cfg.block(i.else_block);
                !e.insts.is_empty()
                    || !matches!(&e.term, Terminator::Jump { target, args }
                        if *target == i.merge && args.is_empty())
            })
            .collect();
        let mut plan = Plan {
            divergent_if,
            if_left: vec![false; cfg.ifs.len()],
            divergent_loop,
            loop_returns: vec![false; cfg.loops.len()],
            top_level: vec![false; cfg.blocks.len()],
            has_else,
        };
        let mut stack: Vec<Open> = Vec::new();
        for (b, block) in cfg.blocks.iter().enumerate() {
            match block.kind {
                CfgKind::IfThen(i) => stack.push(Open::If(i)),
                CfgKind::IfMerge(_) | CfgKind::LoopExit(_) => {
                    stack.pop();
                }
                CfgKind::LoopHeader(l) => stack.push(Open::Loop(l)),
                CfgKind::Entry | CfgKind::IfElse(_) => {}
            }
            plan.top_level[b] = stack.is_empty();
            match &block.term {
                Terminator::Return(_) | Terminator::Unreachable if !stack.is_empty() => {
                    for o in &stack {
                        match *o {
                            Open::If(i) => plan.if_left[i.0 as usize] = true,
                            Open::Loop(l) => plan.loop_returns[l.0 as usize] = true,
                        }
                    }
                }
                Terminator::Jump { target, .. } => {
                    if let Some(l) = leaving_jump(cfg, CfgBlock(b as u32), *target) {
                        if plan.divergent_loop[l.0 as usize] {
                            for o in stack.iter().rev() {
                                match *o {
                                    Open::If(i) => plan.if_left[i.0 as usize] = true,
                                    Open::Loop(_) => break,
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        plan
    }
}

/// The loop a jump from `from` to `to` breaks out of or continues (not the entry jump).
fn leaving_jump(cfg: &Cfg, from: CfgBlock, to: CfgBlock) -> Option<LoopId> {
    match cfg.block(to).kind {
        CfgKind::LoopExit(l) => Some(l),
        CfgKind::LoopHeader(l) if from >= cfg.loop_info(l).header => Some(l),
        _ => None,
    }
}

/// The machine blocks planned for the CFG's blocks and constructs.
struct Layout {
    /// Per CFG block: its machine block.
    block: Vec<BlockId>,
    /// Per `if` with a divergent condition and an else arm: the invert block.
    invert: Vec<Option<BlockId>>,
    /// Per divergent loop: the latch block.
    latch: Vec<Option<BlockId>>,
    /// The kernel's last block.
    exit: BlockId,
    /// Per CFG block with parameters: the machine block and values of each jump to it.
    incoming: Vec<Vec<(BlockId, Vec<Opnd>)>>,
    /// In a called function: the phis of its return values at the exit block, and the
    /// machine block and values of each `ret`.
    ret_phis: Vec<(Val, Type)>,
    ret_incoming: Vec<(BlockId, Vec<Opnd>)>,
}

/// Selects every block of `cfg`; returns the machine block of the CFG's entry.
pub(super) fn select(
    s: &mut Isel,
    cfg: &Cfg,
    divergent_loops: &[bool],
) -> Result<BlockId, CodegenError> {
    let plan = Plan::new(cfg, s, divergent_loops);
    let block: Vec<BlockId> = cfg.blocks.iter().map(|_| s.new_block()).collect();
    let invert = (0..cfg.ifs.len())
        .map(|i| (plan.divergent_if[i] && plan.has_else[i]).then(|| s.new_block()))
        .collect();
    let latch = (0..cfg.loops.len())
        .map(|l| plan.divergent_loop[l].then(|| s.new_block()))
        .collect();
    let exit = s.new_block();
    let mut lay = Layout {
        block,
        invert,
        latch,
        exit,
        incoming: vec![Vec::new(); cfg.blocks.len()],
        ret_phis: Vec::new(),
        ret_incoming: Vec::new(),
    };
    if s.callee.is_some() {
        for ty in s.func.return_types() {
            let v = s.merge_dest(ty, false);
            lay.ret_phis.push((v, ty));
        }
    }
    // Merged values get their temps up front: a loop header's phis are used before the
    // jumps that feed them are selected.
    for cb in &cfg.blocks {
        for &p in &cb.params {
            let v = s.merge_dest(s.ty(p), s.is_uniform(p));
            s.define(p, v);
        }
    }
    // Where `p_cbranch_execz` skips to: the end of the innermost divergent arm or loop
    // body, or the kernel's end.
    let mut arm_exit = vec![exit];
    for b in 0..cfg.blocks.len() {
        let cb = &cfg.blocks[b];
        let mut kind = BlockKind::default();
        match cb.kind {
            CfgKind::IfThen(i) if plan.divergent_if[i.0 as usize] => {
                arm_exit.push(skip_target(cfg, &lay, i));
            }
            CfgKind::IfElse(i) if plan.divergent_if[i.0 as usize] => {
                arm_exit.pop();
                let merge = lay.block[cfg.if_info(i).merge.index()];
                if let Some(inv) = lay.invert[i.0 as usize] {
                    s.origin = origin(cfg.if_info(i).span);
                    s.open(inv, BlockKind::INVERT);
                    s.end_block(Pseudo::BranchExecz, [Opnd::Block(merge)]);
                }
                arm_exit.push(merge);
            }
            CfgKind::IfMerge(i) if plan.divergent_if[i.0 as usize] => {
                arm_exit.pop();
                kind = BlockKind::MERGE;
            }
            CfgKind::LoopHeader(l) => {
                kind = BlockKind::LOOP_HEADER;
                if let Some(latch) = lay.latch[l.0 as usize] {
                    kind |= BlockKind::DIVERGENT;
                    arm_exit.push(latch);
                }
            }
            CfgKind::LoopExit(l) => {
                kind = BlockKind::LOOP_EXIT;
                if let Some(latch) = lay.latch[l.0 as usize] {
                    kind |= BlockKind::DIVERGENT;
                    arm_exit.pop();
                    let info = cfg.loop_info(l);
                    s.origin = origin(info.span);
                    s.open(latch, BlockKind::LOOP_LATCH | BlockKind::DIVERGENT);
                    s.end_block(
                        Pseudo::Branch,
                        [Opnd::Block(lay.block[info.header.index()])],
                    );
                }
            }
            _ => {}
        }
        s.origin = origin(cb.term_span);
        s.open(lay.block[b], kind);
        phis(s, cb);
        s.logical_start();
        let lanes_left = match cb.kind {
            CfgKind::IfMerge(i) => plan.if_left[i.0 as usize],
            CfgKind::LoopExit(l) => plan.loop_returns[l.0 as usize],
            _ => false,
        };
        if lanes_left {
            let target = *arm_exit.last().expect("the kernel's end");
            s.end_block(Pseudo::BranchExecz, [Opnd::Block(target)]);
            let next = s.new_block();
            s.start_block(next);
        }
        for inst in &cb.insts {
            s.origin = origin(inst.span);
            match &inst.kind {
                gpuabi_ir::cfg::InstKind::Op(op) => {
                    let result = inst.results.first().copied();
                    let uniform = result.is_some_and(|r| s.is_uniform(r));
                    let out = super::alu::select(s, op, result, uniform)?;
                    if let (Some(r), Some(v)) = (result, out) {
                        s.define(r, v);
                    }
                }
                gpuabi_ir::cfg::InstKind::Call { callee, args } => {
                    s.call(super::call::Callee::Direct(*callee), args, &inst.results)?;
                }
                gpuabi_ir::cfg::InstKind::CallIndirect { sig, callee, args } => {
                    s.call(
                        super::call::Callee::Indirect(*sig, callee),
                        args,
                        &inst.results,
                    )?;
                }
                gpuabi_ir::cfg::InstKind::FuncAddr { func } => {
                    let v = s.func_addr(*func);
                    if let Some(r) = inst.results.first() {
                        s.define(*r, v);
                    }
                }
            }
        }
        s.origin = origin(cb.term_span);
        terminator(s, cfg, &plan, &mut lay, CfgBlock(b as u32))?;
    }
    s.origin = Origin::default();
    s.open(exit, BlockKind::EXIT);
    if s.callee.is_some() {
        let mut rets = Vec::new();
        for (v, _) in &lay.ret_phis {
            let (Val::V(t) | Val::S(t)) = *v else {
                unreachable!("return values merge in registers")
            };
            let origin = s.origin;
            let mut phi = MInst::pseudo(Pseudo::Phi, [Opnd::Temp(s.whole(t))], origin);
            for (pred, vals) in &lay.ret_incoming {
                phi.opnds.push(Opnd::Block(*pred));
                phi.opnds.push(vals[rets.len()].clone());
            }
            s.push(phi);
            rets.push(*v);
        }
        s.logical_start();
        s.exit_callee(&rets);
    } else {
        s.logical_start();
        s.close_logical();
        s.emit(Opcode::SEndpgm, []);
    }
    // Each phi names the block each source comes from; the control-flow pass orders the
    // sources as the predecessor lists.
    for (b, inc) in lay.incoming.iter().enumerate() {
        let params = &cfg.blocks[b].params;
        if params.is_empty() {
            continue;
        }
        let insts = &mut s.f.blocks[lay.block[b].index()].insts;
        for (k, phi) in insts.iter_mut().take(params.len()).enumerate() {
            for (pred, vals) in inc {
                phi.opnds.push(Opnd::Block(*pred));
                phi.opnds.push(vals[k].clone());
            }
        }
    }
    Ok(lay.block[0])
}

fn origin(span: gpuabi_ir::ir::Span) -> Origin {
    Origin {
        start: span.start,
        end: span.end,
    }
}

/// Where the wave goes when no lane takes a divergent `if`'s then arm.
fn skip_target(cfg: &Cfg, lay: &Layout, i: IfId) -> BlockId {
    lay.invert[i.0 as usize].unwrap_or(lay.block[cfg.if_info(i).else_block.index()])
}

/// The phis of a block's parameters (their sources are added at the end).
fn phis(s: &mut Isel, cb: &gpuabi_ir::cfg::Block) {
    for &p in &cb.params {
        let (t, kind) = match s.values[p.index()].expect("merged values are defined first") {
            Val::S(t) => (t, Pseudo::LinearPhi),
            Val::V(t) => (t, Pseudo::Phi),
            other => unreachable!("merged values are registers, not {other:?}"),
        };
        let origin = s.origin;
        let dst = Opnd::Temp(s.whole(t));
        s.push(MInst::pseudo(kind, [dst], origin));
    }
}

/// The block the wave reaches after CFG block `b` when it does not branch: the next
/// machine block, or the merge of a uniform `if` at the end of its then arm.
fn next_linear(cfg: &Cfg, plan: &Plan, lay: &Layout, b: CfgBlock) -> BlockId {
    let Some(next) = cfg.blocks.get(b.index() + 1) else {
        return lay.exit;
    };
    match next.kind {
        CfgKind::IfElse(i) if !plan.divergent_if[i.0 as usize] => {
            lay.block[cfg.if_info(i).merge.index()]
        }
        CfgKind::IfElse(i) => skip_target(cfg, lay, i),
        CfgKind::LoopExit(l) => lay.latch[l.0 as usize].unwrap_or(lay.block[b.index() + 1]),
        _ => lay.block[b.index() + 1],
    }
}

/// The sources of the phis of `target` along a jump with `args`, converted in the
/// current block to what each phi merges.
fn incoming(s: &mut Isel, cfg: &Cfg, lay: &mut Layout, target: CfgBlock, args: &[ir::Operand]) {
    let params = &cfg.block(target).params;
    let dests: Vec<(Option<Val>, Type)> = params
        .iter()
        .map(|p| (s.values[p.index()], s.ty(*p)))
        .collect();
    let vals = sources(s, &dests, args);
    let cur = s.cur;
    lay.incoming[target.index()].push((cur, vals));
}

/// The sources of phis whose destinations are `dests` along a jump with `args`, converted
/// in the current block to what each phi merges.
fn sources(s: &mut Isel, dests: &[(Option<Val>, Type)], args: &[ir::Operand]) -> Vec<Opnd> {
    let mut vals = Vec::with_capacity(args.len());
    for (&(dest, ty), a) in dests.iter().zip(args) {
        let from = s.val(a);
        let src = match (dest, from) {
            (Some(Val::V(_)), Val::Mask(m)) => {
                let t = s.vtemp(1);
                s.emit(
                    Opcode::VCndmaskB32,
                    [
                        Opnd::Temp(s.whole(t)),
                        imm(0),
                        imm(1),
                        Opnd::Temp(s.whole(m)),
                    ],
                )
                .e64 = true;
                Opnd::Temp(s.whole(t))
            }
            (_, Val::S(t) | Val::V(t)) => Opnd::Temp(s.whole(t)),
            (_, Val::Const(bits)) => const_opnd(bits, ty),
            // A stack array's handle is its frame offset in every dword, as any other use
            // of it as a source operand.
            (_, Val::Stack { base, .. }) => {
                let b = u64::from(base);
                const_opnd(b | b << 32, ty)
            }
            (_, Val::Mask(_)) => unreachable!("uniform merge of a lane mask"),
        };
        vals.push(src);
    }
    vals
}

fn const_opnd(bits: u64, ty: Type) -> Opnd {
    let bits = if dwords_of(ty) == 1 {
        bits & 0xffff_ffff
    } else {
        bits
    };
    Opnd::Fixed(Operand::Imm(Imm::Int(bits as i64)))
}

fn terminator(
    s: &mut Isel,
    cfg: &Cfg,
    plan: &Plan,
    lay: &mut Layout,
    b: CfgBlock,
) -> Result<(), CodegenError> {
    let cb = cfg.block(b);
    let mut kind = BlockKind::default();
    match &cb.term {
        Terminator::Jump { target, args } => {
            incoming(s, cfg, lay, *target, args);
            let to = lay.block[target.index()];
            match cfg.block(*target).kind {
                CfgKind::LoopHeader(_) if b < *target => {
                    kind = BlockKind::LOOP_PREHEADER;
                    s.end_block(Pseudo::Branch, [Opnd::Block(to)]);
                }
                CfgKind::LoopHeader(l) | CfgKind::LoopExit(l)
                    if plan.divergent_loop[l.0 as usize] =>
                {
                    kind = BlockKind::LEAVE;
                    let p = if matches!(cfg.block(*target).kind, CfgKind::LoopExit(_)) {
                        Pseudo::Break
                    } else {
                        Pseudo::Continue
                    };
                    let next = next_linear(cfg, plan, lay, b);
                    s.end_block(p, [Opnd::Block(to), Opnd::Block(next)]);
                }
                _ => s.end_block(Pseudo::Branch, [Opnd::Block(to)]),
            }
        }
        Terminator::Branch {
            cond,
            then_block,
            else_block,
            construct,
            ..
        } => {
            debug_assert_eq!(then_block.index(), b.index() + 1);
            let c = s.val(cond);
            let else_b = lay.block[else_block.index()];
            if plan.divergent_if[construct.0 as usize] {
                kind = BlockKind::BRANCH;
                let m = s.mask_of(c);
                let skip = skip_target(cfg, lay, *construct);
                let m = Opnd::Temp(s.whole(m));
                s.end_block(
                    Pseudo::DivergentIf,
                    [m, Opnd::Block(else_b), Opnd::Block(skip)],
                );
            } else {
                s.scc_from_bool(c);
                s.close_logical();
                s.emit(Opcode::SCbranchScc0, [Opnd::Block(else_b)]);
            }
        }
        Terminator::Return(vals) if s.callee.is_some() => {
            let dests: Vec<(Option<Val>, Type)> =
                lay.ret_phis.iter().map(|&(v, t)| (Some(v), t)).collect();
            let srcs = sources(s, &dests, vals);
            let cur = s.cur;
            lay.ret_incoming.push((cur, srcs));
            if plan.top_level[b.index()] {
                s.end_block(Pseudo::Branch, [Opnd::Block(lay.exit)]);
            } else {
                kind = BlockKind::LEAVE;
                let next = next_linear(cfg, plan, lay, b);
                s.end_block(Pseudo::Return, [Opnd::Block(next), Opnd::Block(lay.exit)]);
            }
        }
        Terminator::Return(_) | Terminator::Unreachable => {
            if plan.top_level[b.index()] {
                s.end_block(Pseudo::Branch, [Opnd::Block(lay.exit)]);
            } else {
                kind = BlockKind::LEAVE;
                let next = next_linear(cfg, plan, lay, b);
                s.end_block(Pseudo::Return, [Opnd::Block(next)]);
            }
        }
    }
    let cur = s.cur;
    s.f.blocks[cur.index()].kind |= kind;
    Ok(())
}
