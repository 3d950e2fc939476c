//! Instruction selection: a kernel's structured IR becomes machine IR with exec-mask
//! control flow, in the manner of ACO's `aco_instruction_selection.cpp`, which also walks
//! NIR's structured control flow (`visit_if`, `visit_loop`) rather than a flat CFG: the
//! structure is what says where exec masks are saved, narrowed and restored.
//!
//! Values live where their uniformity puts them: uniform values in SGPRs (computed with
//! SALU instructions, or with VALU ones followed by `v_readfirstlane_b32`), divergent values
//! in VGPRs, divergent `i1` values as lane masks, uniform `i1` values as 0/1 in an SGPR.
//!
//! Control flow (the project's own scheme, modelled on ACO's `begin_divergent_if_then`
//! and `emit_loop_break`/`emit_loop_continue`):
//!
//! * A uniform `if` branches on SCC. A divergent `if` saves exec with `s_and_saveexec`,
//!   runs the then arm on the lanes whose condition holds and the else arm on
//!   `saved & ~cond`, and restores `saved` minus the lanes that left inside it; an arm
//!   with no active lane is skipped with `s_cbranch_execz`.
//! * A loop is divergent when one of its `break`/`continue` instructions sits under a
//!   divergent `if` (the rule of the uniformity analysis). Its `break` and `continue`
//!   record the active lanes in a break or continue mask and clear exec; the latch
//!   re-enables the lanes that continued and leaves when there are none, with exec = the
//!   lanes that broke. A uniform loop's `break`/`continue` are plain branches.
//! * `ret` at the top level of a kernel ends the wave; elsewhere it records the active
//!   lanes in a return mask and clears exec.
//! * Wherever exec may have become empty, `s_cbranch_execz` skips to the end of the
//!   current arm, so no uniform code (whose values may come from `v_readfirstlane_b32`)
//!   ever runs without an active lane.
//! * A divergent `i1` that is an `if` result, a loop variable or a loop result is kept as
//!   0/1 in a VGPR: a lane mask is written whole, not per lane, so it cannot be merged by
//!   masked writes.

pub(crate) mod alu;
mod float;
mod memory;

use gpuabi_amdgpu::{Imm, MemMods, Opcode, Operand, Special, Target, WaveSize};
use gpuabi_ir::ir::{self, Instr, InstrKind, OpInstr, Region, Type, Value};
use gpuabi_layout::reg::RegFile;

use crate::entry::Launch;

use crate::error::CodegenError;
use crate::mir::{self, BlockId, MInst, MOp, Opnd, Origin, Slice, Temp};
use crate::options::Options;

/// Where an IR value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Val {
    /// A constant: raw bits, zero-extended.
    Const(u64),
    /// A uniform value in SGPRs (an `i1` as 0 or 1).
    S(Temp),
    /// A divergent value in VGPRs (an `i1` as 0 or 1).
    V(Temp),
    /// A divergent `i1` as a lane mask.
    Mask(Temp),
    /// A stack array: its byte offset in the frame and its size.
    Stack { base: u32, size: u32 },
}

/// Where lanes go when they leave a region, and the masks that record them.
#[derive(Debug, Clone)]
struct LoopCtx {
    /// Loop variables.
    vars: Vec<Val>,
    /// Loop results.
    results: Vec<Val>,
    /// The loop header (target of uniform `continue`).
    header: BlockId,
    /// After the loop (target of uniform `break`).
    exit: BlockId,
    /// Masks of a divergent loop: lanes that continued this iteration, lanes that broke.
    masks: Option<(Temp, Temp)>,
}

#[derive(Debug, Clone)]
enum Ctl {
    Loop(LoopCtx),
    /// An `if` and its results.
    If {
        results: Vec<Val>,
    },
}

/// Selects instructions for one kernel.
pub(crate) struct Isel<'a> {
    pub(crate) opts: &'a Options,
    pub(crate) func: &'a ir::Function,
    uniform: &'a [bool],
    pub(crate) f: mir::Function,
    cur: BlockId,
    /// Emission order of blocks (ids are creation order until [`Isel::finish`]).
    order: Vec<BlockId>,
    values: Vec<Option<Val>>,
    ctl: Vec<Ctl>,
    /// Where to go when exec becomes empty in the arm being compiled.
    arm_exit: Vec<BlockId>,
    /// Lanes that returned (kernels whose `ret` may be divergent).
    ret_mask: Option<Temp>,
    exit: BlockId,
    pub(crate) origin: Origin,
    pub(crate) launch: Launch,
}

impl<'a> Isel<'a> {
    /// Compiles the kernel `func` to machine IR; also returns how it is entered.
    pub(crate) fn run(
        opts: &'a Options,
        func: &'a ir::Function,
        uniform: &'a [bool],
    ) -> Result<(mir::Function, crate::KernelEntry), CodegenError> {
        let mut s = Isel {
            opts,
            func,
            uniform,
            f: mir::Function::new(&func.name),
            cur: BlockId(0),
            order: vec![BlockId(0)],
            values: vec![None; func.values.len()],
            ctl: Vec::new(),
            arm_exit: Vec::new(),
            ret_mask: None,
            exit: BlockId(0),
            origin: Origin {
                start: func.span.start,
                end: func.span.end,
            },
            launch: Launch::default(),
        };
        let (launch, entry) = match opts.entry {
            crate::Entry::Hsa => {
                let (launch, k) =
                    crate::entry::enter_hsa(&mut s).map_err(|what| CodegenError::Unsupported {
                        function: func.name.clone(),
                        start: func.span.start,
                        end: func.span.end,
                        what,
                    })?;
                (launch, crate::KernelEntry::Hsa(k))
            }
            crate::Entry::Catalyst => {
                let (launch, l) = crate::entry::catalyst::enter_catalyst(&mut s)?;
                (launch, crate::KernelEntry::Catalyst(Box::new(l)))
            }
        };
        s.launch = launch;
        for (p, v) in func.params.iter().zip(s.launch.params.clone()) {
            s.values[p.value.index()] = Some(v);
        }
        s.exit = s.new_block();
        s.arm_exit.push(s.exit);
        if nested_ret(&func.body) {
            let m = s.mask_temp();
            s.emit_mask(Opcode::SMovB64, [Opnd::Temp(s.whole(m)), imm(0)]);
            s.ret_mask = Some(m);
        }
        let body = s.new_block();
        s.start_block(body);
        s.region(&func.body)?;
        s.start_block(s.exit);
        s.emit(Opcode::SEndpgm, []);
        // Stack arrays are zero-filled once, at the end of the entry block, with every lane.
        let frame = s.f.stack_bytes;
        let resume = s.cur;
        s.cur = BlockId(0);
        memory::zero_frame(&mut s, frame);
        s.cur = resume;
        Ok((s.finish(), entry))
    }

    // ---- blocks and instructions -------------------------------------------------------

    pub(crate) fn new_block(&mut self) -> BlockId {
        self.f.blocks.push(mir::Block::default());
        BlockId(self.f.blocks.len() as u32 - 1)
    }

    /// Places `b` next in emission order and makes it current.
    pub(crate) fn start_block(&mut self, b: BlockId) {
        self.order.push(b);
        self.cur = b;
    }

    /// Renumbers blocks into emission order.
    fn finish(mut self) -> mir::Function {
        let mut new_id = vec![0u32; self.f.blocks.len()];
        for (pos, b) in self.order.iter().enumerate() {
            new_id[b.index()] = pos as u32;
        }
        let mut old = std::mem::take(&mut self.f.blocks);
        let mut blocks = Vec::with_capacity(self.order.len());
        for b in &self.order {
            let mut block = std::mem::take(&mut old[b.index()]);
            for inst in &mut block.insts {
                for o in &mut inst.opnds {
                    if let Opnd::Block(t) = o {
                        *t = BlockId(new_id[t.index()]);
                    }
                }
            }
            blocks.push(block);
        }
        self.f.blocks = blocks;
        self.f
    }

    /// Appends a hardware instruction to the current block.
    pub(crate) fn emit<const N: usize>(&mut self, op: Opcode, opnds: [Opnd; N]) -> &mut MInst {
        self.push(MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            origin: self.origin,
        })
    }

    pub(crate) fn push(&mut self, inst: MInst) -> &mut MInst {
        let insts = &mut self.f.blocks[self.cur.index()].insts;
        insts.push(inst);
        let last = insts.len() - 1;
        &mut insts[last]
    }

    pub(crate) fn wave(&self) -> WaveSize {
        self.opts.wave
    }

    pub(crate) fn target(&self) -> Target {
        self.opts.target
    }

    pub(crate) fn whole(&self, t: Temp) -> Slice {
        self.f.whole(t)
    }

    pub(crate) fn stemp(&mut self, dwords: u8) -> Temp {
        let align = if dwords >= 4 {
            4
        } else if dwords == 2 {
            2
        } else {
            1
        };
        self.f.temp(RegFile::Sgpr, dwords, align)
    }

    pub(crate) fn vtemp(&mut self, dwords: u8) -> Temp {
        self.f.temp(RegFile::Vgpr, dwords, 1)
    }

    pub(crate) fn mask_temp(&mut self) -> Temp {
        let n = self.wave().mask_dwords();
        self.f.temp(RegFile::Sgpr, n, n)
    }

    /// `exec` as an operand of this wave size.
    pub(crate) fn exec(&self) -> Opnd {
        Opnd::Fixed(Operand::Special(match self.wave() {
            WaveSize::W32 => Special::ExecLo,
            WaveSize::W64 => Special::Exec,
        }))
    }

    /// The opcode of a lane-mask operation for this wave size.
    pub(crate) fn mask_op(&self, w64: Opcode) -> Opcode {
        if self.wave() == WaveSize::W64 {
            return w64;
        }
        match w64 {
            Opcode::SMovB64 => Opcode::SMovB32,
            Opcode::SAndB64 => Opcode::SAndB32,
            Opcode::SOrB64 => Opcode::SOrB32,
            Opcode::SXorB64 => Opcode::SXorB32,
            Opcode::SAndn2B64 => Opcode::SAndn2B32,
            Opcode::SOrn2B64 => Opcode::SOrn2B32,
            Opcode::SCselectB64 => Opcode::SCselectB32,
            Opcode::SAndSaveexecB64 => Opcode::SAndSaveexecB32,
            Opcode::SCmpLgU64 => Opcode::SCmpLgU32,
            other => other,
        }
    }

    /// Emits a lane-mask instruction (64-bit opcode given, narrowed in wave32).
    pub(crate) fn emit_mask<const N: usize>(&mut self, w64: Opcode, opnds: [Opnd; N]) {
        let op = self.mask_op(w64);
        self.emit(op, opnds);
    }

    // ---- values ------------------------------------------------------------------------

    pub(crate) fn ty(&self, v: Value) -> Type {
        self.func.ty(v)
    }

    pub(crate) fn is_uniform(&self, v: Value) -> bool {
        self.uniform[v.index()]
    }

    pub(crate) fn val(&self, o: &ir::Operand) -> Val {
        match *o {
            ir::Operand::Imm { bits, .. } => Val::Const(bits),
            ir::Operand::Value(v) => self.values[v.index()].expect("verified: defined before use"),
        }
    }

    pub(crate) fn operand_ty(&self, o: &ir::Operand) -> Type {
        match *o {
            ir::Operand::Imm { ty, .. } => ty,
            ir::Operand::Value(v) => self.ty(v),
        }
    }

    pub(crate) fn define(&mut self, v: Value, val: Val) {
        self.values[v.index()] = Some(val);
    }

    /// A fresh destination for a value of type `ty`, uniform or not.
    pub(crate) fn dest(&mut self, ty: Type, uniform: bool) -> Val {
        let dwords = dwords_of(ty);
        match (ty, uniform) {
            (Type::I1, false) => Val::Mask(self.mask_temp()),
            (_, true) => Val::S(self.stemp(dwords)),
            (_, false) => Val::V(self.vtemp(dwords)),
        }
    }

    /// A destination for a merged value (`if` result, loop variable or result): as
    /// [`Isel::dest`], except that a divergent `i1` is 0/1 in a VGPR.
    fn merge_dest(&mut self, ty: Type, uniform: bool) -> Val {
        match (ty, uniform) {
            (Type::I1, false) => Val::V(self.vtemp(1)),
            _ => self.dest(ty, uniform),
        }
    }

    /// Dword `i` of a value as a source operand of any instruction that accepts
    /// registers and constants (constants as 32-bit immediates).
    pub(crate) fn src(&self, val: Val, i: u8) -> Opnd {
        match val {
            Val::Const(bits) => imm((bits >> (32 * u32::from(i))) as u32),
            Val::S(t) | Val::V(t) | Val::Mask(t) => Opnd::Temp(Slice {
                temp: t,
                offset: i,
                dwords: 1,
            }),
            Val::Stack { base, .. } => imm(base),
        }
    }

    /// A value of `dwords` dwords in SGPRs (constants are moved in).
    pub(crate) fn sgpr_of(&mut self, val: Val, dwords: u8) -> Temp {
        match val {
            Val::S(t) => t,
            Val::Const(bits) => {
                let t = self.stemp(dwords);
                for i in 0..dwords {
                    let src = imm((bits >> (32 * u32::from(i))) as u32);
                    self.emit(Opcode::SMovB32, [Opnd::Temp(dword(t, i)), src]);
                }
                t
            }
            Val::V(v) => {
                let t = self.stemp(dwords);
                for i in 0..dwords {
                    self.emit(
                        Opcode::VReadfirstlaneB32,
                        [Opnd::Temp(dword(t, i)), Opnd::Temp(dword(v, i))],
                    );
                }
                t
            }
            Val::Mask(_) | Val::Stack { .. } => unreachable!("not a scalar value"),
        }
    }

    /// A value of `dwords` dwords in VGPRs (SGPRs and constants are moved in).
    pub(crate) fn vgpr_of(&mut self, val: Val, dwords: u8) -> Temp {
        match val {
            Val::V(t) => t,
            Val::Mask(m) => {
                let t = self.vtemp(1);
                self.emit(
                    Opcode::VCndmaskB32,
                    [
                        Opnd::Temp(self.whole(t)),
                        imm(0),
                        imm(1),
                        Opnd::Temp(self.whole(m)),
                    ],
                )
                .e64 = true;
                t
            }
            other => {
                let t = self.vtemp(dwords);
                for i in 0..dwords {
                    let src = self.src(other, i);
                    self.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, i)), src]);
                }
                t
            }
        }
    }

    /// An `i1` value as a lane mask.
    pub(crate) fn mask_of(&mut self, val: Val) -> Temp {
        match val {
            Val::Mask(m) => m,
            Val::V(t) => {
                let m = self.mask_temp();
                self.emit(
                    Opcode::VCmpNeU32,
                    [Opnd::Temp(self.whole(m)), imm(0), Opnd::Temp(self.whole(t))],
                )
                .e64 = true;
                m
            }
            Val::S(t) => {
                let m = self.mask_temp();
                self.emit(Opcode::SCmpLgU32, [Opnd::Temp(self.whole(t)), imm(0)]);
                let exec = self.exec();
                self.emit_mask(
                    Opcode::SCselectB64,
                    [Opnd::Temp(self.whole(m)), exec, imm(0)],
                );
                m
            }
            Val::Const(bits) => {
                let m = self.mask_temp();
                let src = if bits & 1 != 0 { self.exec() } else { imm(0) };
                self.emit_mask(Opcode::SMovB64, [Opnd::Temp(self.whole(m)), src]);
                m
            }
            Val::Stack { .. } => unreachable!("not a boolean"),
        }
    }

    /// Sets SCC from a uniform `i1` (0 or 1 in an SGPR, or a constant).
    pub(crate) fn scc_from_bool(&mut self, val: Val) {
        match val {
            Val::S(t) => {
                self.emit(Opcode::SCmpLgU32, [Opnd::Temp(self.whole(t)), imm(0)]);
            }
            Val::Const(bits) => {
                self.emit(Opcode::SCmpLgU32, [imm((bits & 1) as u32), imm(0)]);
            }
            _ => unreachable!("uniform boolean expected"),
        }
    }

    /// Writes SCC as 0/1 into a new SGPR.
    pub(crate) fn bool_from_scc(&mut self) -> Val {
        let t = self.stemp(1);
        self.emit(
            Opcode::SCselectB32,
            [Opnd::Temp(self.whole(t)), imm(1), imm(0)],
        );
        Val::S(t)
    }

    /// Copies `from` into the merge destination `to` (masked by exec for VGPRs).
    fn copy_into(&mut self, to: Val, from: Val, ty: Type) {
        match to {
            Val::S(t) => {
                let src = match from {
                    Val::Mask(_) => unreachable!("uniform merge of a lane mask"),
                    other => other,
                };
                for i in 0..dwords_of(ty) {
                    let s = self.src(src, i);
                    self.emit(Opcode::SMovB32, [Opnd::Temp(dword(t, i)), s]);
                }
            }
            Val::V(t) => {
                if let Val::Mask(m) = from {
                    self.emit(
                        Opcode::VCndmaskB32,
                        [
                            Opnd::Temp(self.whole(t)),
                            imm(0),
                            imm(1),
                            Opnd::Temp(self.whole(m)),
                        ],
                    )
                    .e64 = true;
                    return;
                }
                for i in 0..dwords_of(ty) {
                    let s = self.src(from, i);
                    self.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, i)), s]);
                }
            }
            _ => unreachable!("merge destinations are registers"),
        }
    }

    fn copy_list(&mut self, to: &[Val], from: &[ir::Operand]) {
        // Sources are read before any destination is written: a `continue` may pass loop
        // variables in another order.
        let vals: Vec<(Val, Type)> = from
            .iter()
            .map(|o| (self.val(o), self.operand_ty(o)))
            .collect();
        let mut staged = Vec::with_capacity(vals.len());
        for (v, ty) in vals {
            let aliased = to.contains(&v);
            if aliased {
                let tmp = match v {
                    Val::S(_) => Val::S(self.stemp(dwords_of(ty))),
                    _ => Val::V(self.vtemp(dwords_of(ty).max(1))),
                };
                self.copy_into(tmp, v, ty);
                staged.push((tmp, ty));
            } else {
                staged.push((v, ty));
            }
        }
        for (dst, (v, ty)) in to.iter().zip(staged) {
            self.copy_into(*dst, v, ty);
        }
    }

    // ---- control flow ------------------------------------------------------------------

    fn region(&mut self, r: &Region) -> Result<(), CodegenError> {
        for i in &r.instrs {
            self.instr(i)?;
        }
        Ok(())
    }

    fn instr(&mut self, i: &Instr) -> Result<(), CodegenError> {
        self.origin = Origin {
            start: i.span.start,
            end: i.span.end,
        };
        match &i.kind {
            InstrKind::Op(op) => self.operation(i, op),
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => {
                let c = self.val(cond);
                if matches!(c, Val::Const(_) | Val::S(_)) {
                    self.uniform_if(i, c, then_region, else_region)
                } else {
                    self.divergent_if(i, c, then_region, else_region)
                }
            }
            InstrKind::Loop { params, init, body } => self.compile_loop(i, params, init, body),
            InstrKind::Yield(ops) => {
                let Some(Ctl::If { results, .. }) = self.ctl.last().cloned() else {
                    unreachable!("verified: yield inside an if");
                };
                self.copy_list(&results, ops);
                Ok(())
            }
            InstrKind::Break(ops) | InstrKind::Continue(ops) => {
                let is_break = matches!(i.kind, InstrKind::Break(_));
                self.leave_loop(is_break, ops);
                Ok(())
            }
            InstrKind::Ret(_) | InstrKind::Unreachable => {
                self.ret();
                Ok(())
            }
            InstrKind::Call { .. }
            | InstrKind::CallIndirect { .. }
            | InstrKind::FuncAddr { .. } => Err(CodegenError::Unsupported {
                function: self.func.name.clone(),
                start: i.span.start,
                end: i.span.end,
                what: "calls and function addresses are not compiled yet".into(),
            }),
        }
    }

    fn if_results(&mut self, i: &Instr) -> Vec<Val> {
        i.results
            .iter()
            .map(|r| {
                let u = self.is_uniform(*r);
                let v = self.merge_dest(self.ty(*r), u);
                self.define(*r, v);
                v
            })
            .collect()
    }

    /// After a construct that lanes may have left: skip to the arm's end if none remain.
    fn skip_if_empty(&mut self) {
        let target = *self.arm_exit.last().expect("function arm");
        let next = self.new_block();
        self.emit(Opcode::SCbranchExecz, [Opnd::Block(target)]);
        self.start_block(next);
    }

    fn uniform_if(
        &mut self,
        i: &Instr,
        c: Val,
        then_r: &Region,
        else_r: &Region,
    ) -> Result<(), CodegenError> {
        let results = self.if_results(i);
        let then_b = self.new_block();
        let else_b = self.new_block();
        let end = self.new_block();
        self.scc_from_bool(c);
        self.emit(Opcode::SCbranchScc0, [Opnd::Block(else_b)]);
        self.start_block(then_b);
        self.ctl.push(Ctl::If {
            results: results.clone(),
        });
        self.region(then_r)?;
        self.emit(Opcode::SBranch, [Opnd::Block(end)]);
        self.start_block(else_b);
        self.region(else_r)?;
        self.ctl.pop();
        self.start_block(end);
        if region_may_leave(then_r) || region_may_leave(else_r) {
            self.skip_if_empty();
        }
        Ok(())
    }

    fn divergent_if(
        &mut self,
        i: &Instr,
        c: Val,
        then_r: &Region,
        else_r: &Region,
    ) -> Result<(), CodegenError> {
        let results = self.if_results(i);
        let cond = self.mask_of(c);
        let saved = self.mask_temp();
        let else_b = self.new_block();
        let end = self.new_block();
        let then_b = self.new_block();
        let has_else = !else_r.instrs.is_empty();
        let after_then = if has_else { else_b } else { end };
        self.emit_mask(
            Opcode::SAndSaveexecB64,
            [Opnd::Temp(self.whole(saved)), Opnd::Temp(self.whole(cond))],
        );
        self.emit(Opcode::SCbranchExecz, [Opnd::Block(after_then)]);
        self.start_block(then_b);
        self.ctl.push(Ctl::If {
            results: results.clone(),
        });
        self.arm_exit.push(after_then);
        self.region(then_r)?;
        self.arm_exit.pop();
        if has_else {
            self.start_block(else_b);
            let exec = self.exec();
            self.emit_mask(
                Opcode::SAndn2B64,
                [
                    exec,
                    Opnd::Temp(self.whole(saved)),
                    Opnd::Temp(self.whole(cond)),
                ],
            );
            let body = self.new_block();
            self.emit(Opcode::SCbranchExecz, [Opnd::Block(end)]);
            self.start_block(body);
            self.arm_exit.push(end);
            self.region(else_r)?;
            self.arm_exit.pop();
        }
        self.ctl.pop();
        self.start_block(end);
        let left = region_may_leave(then_r) || region_may_leave(else_r);
        self.restore_exec(saved, left);
        if left {
            self.skip_if_empty();
        }
        Ok(())
    }

    /// exec = `saved` minus every lane that left since (continued, broke or returned).
    fn restore_exec(&mut self, saved: Temp, lanes_may_have_left: bool) {
        let exec = self.exec();
        let mut gone: Vec<Temp> = Vec::new();
        if lanes_may_have_left {
            if let Some(Ctl::Loop(l)) = self.ctl.iter().rev().find(|c| matches!(c, Ctl::Loop(_))) {
                if let Some((cont, brk)) = l.masks {
                    gone.push(cont);
                    gone.push(brk);
                }
            }
            gone.extend(self.ret_mask);
        }
        let Some((&first, rest)) = gone.split_first() else {
            self.emit_mask(Opcode::SMovB64, [exec, Opnd::Temp(self.whole(saved))]);
            return;
        };
        let mut acc = first;
        for &m in rest {
            let t = self.mask_temp();
            self.emit_mask(
                Opcode::SOrB64,
                [
                    Opnd::Temp(self.whole(t)),
                    Opnd::Temp(self.whole(acc)),
                    Opnd::Temp(self.whole(m)),
                ],
            );
            acc = t;
        }
        self.emit_mask(
            Opcode::SAndn2B64,
            [
                exec,
                Opnd::Temp(self.whole(saved)),
                Opnd::Temp(self.whole(acc)),
            ],
        );
    }

    fn compile_loop(
        &mut self,
        i: &Instr,
        params: &[Value],
        init: &[ir::Operand],
        body: &Region,
    ) -> Result<(), CodegenError> {
        let divergent = loop_is_divergent(body, &|v| self.is_uniform_operand(v));
        let vars: Vec<Val> = params
            .iter()
            .map(|p| {
                let u = self.is_uniform(*p);
                let v = self.merge_dest(self.ty(*p), u);
                self.define(*p, v);
                v
            })
            .collect();
        let results: Vec<Val> = i
            .results
            .iter()
            .map(|r| {
                let u = self.is_uniform(*r);
                let v = self.merge_dest(self.ty(*r), u);
                self.define(*r, v);
                v
            })
            .collect();
        self.copy_list(&vars, init);
        let masks = if divergent {
            let cont = self.mask_temp();
            let brk = self.mask_temp();
            self.emit_mask(Opcode::SMovB64, [Opnd::Temp(self.whole(cont)), imm(0)]);
            self.emit_mask(Opcode::SMovB64, [Opnd::Temp(self.whole(brk)), imm(0)]);
            Some((cont, brk))
        } else {
            None
        };
        let header = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        self.start_block(header);
        self.ctl.push(Ctl::Loop(LoopCtx {
            vars,
            results,
            header,
            exit,
            masks,
        }));
        if divergent {
            self.arm_exit.push(latch);
        }
        self.region(body)?;
        if body.falls_through() {
            // Falling off the end is `continue` (a loop without variables).
            self.leave_loop(false, &[]);
        }
        if divergent {
            self.arm_exit.pop();
        }
        self.ctl.pop();
        if let Some((cont, brk)) = masks {
            self.start_block(latch);
            let exec = self.exec();
            self.emit_mask(
                Opcode::SMovB64,
                [exec.clone(), Opnd::Temp(self.whole(cont))],
            );
            self.emit_mask(Opcode::SMovB64, [Opnd::Temp(self.whole(cont)), imm(0)]);
            self.emit(Opcode::SCbranchExecnz, [Opnd::Block(header)]);
            let exit_prep = self.new_block();
            self.start_block(exit_prep);
            self.emit_mask(Opcode::SMovB64, [exec, Opnd::Temp(self.whole(brk))]);
        }
        self.start_block(exit);
        if region_may_return(body) {
            self.skip_if_empty();
        }
        Ok(())
    }

    fn is_uniform_operand(&self, o: &ir::Operand) -> bool {
        match o {
            ir::Operand::Imm { .. } => true,
            ir::Operand::Value(v) => self.is_uniform(*v),
        }
    }

    fn leave_loop(&mut self, is_break: bool, ops: &[ir::Operand]) {
        let Some(Ctl::Loop(l)) = self
            .ctl
            .iter()
            .rev()
            .find(|c| matches!(c, Ctl::Loop(_)))
            .cloned()
        else {
            unreachable!("verified: break/continue inside a loop");
        };
        let to = if is_break { &l.results } else { &l.vars };
        self.copy_list(to, ops);
        match l.masks {
            None => {
                let target = if is_break { l.exit } else { l.header };
                self.emit(Opcode::SBranch, [Opnd::Block(target)]);
                let dead = self.new_block();
                self.start_block(dead);
            }
            Some((cont, brk)) => {
                let m = if is_break { brk } else { cont };
                let exec = self.exec();
                self.emit_mask(
                    Opcode::SOrB64,
                    [
                        Opnd::Temp(self.whole(m)),
                        Opnd::Temp(self.whole(m)),
                        exec.clone(),
                    ],
                );
                // The arm ends here: what follows it sets exec (a divergent arm's end, the
                // latch) or finds it empty (a uniform arm's end).
                self.emit_mask(Opcode::SMovB64, [exec, imm(0)]);
            }
        }
    }

    fn ret(&mut self) {
        let top_level = self.ctl.is_empty();
        match self.ret_mask {
            Some(m) if !top_level => {
                let exec = self.exec();
                self.emit_mask(
                    Opcode::SOrB64,
                    [
                        Opnd::Temp(self.whole(m)),
                        Opnd::Temp(self.whole(m)),
                        exec.clone(),
                    ],
                );
                self.emit_mask(Opcode::SMovB64, [exec, imm(0)]);
            }
            _ => {
                self.emit(Opcode::SBranch, [Opnd::Block(self.exit)]);
                let dead = self.new_block();
                self.start_block(dead);
            }
        }
    }

    fn operation(&mut self, i: &Instr, op: &OpInstr) -> Result<(), CodegenError> {
        let result = i.results.first().copied();
        let uniform = result.is_some_and(|r| self.is_uniform(r));
        let out = alu::select(self, op, result, uniform)?;
        if let (Some(r), Some(v)) = (result, out) {
            self.define(r, v);
        }
        Ok(())
    }
}

/// An immediate operand from 32 bits.
pub(crate) fn imm(bits: u32) -> Opnd {
    Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(bits))))
}

/// Dword `i` of a temp.
pub(crate) fn dword(t: Temp, i: u8) -> Slice {
    Slice {
        temp: t,
        offset: i,
        dwords: 1,
    }
}

/// Register dwords of a value of type `ty`.
pub(crate) fn dwords_of(ty: Type) -> u8 {
    match ty {
        Type::I64 | Type::Ptr => 2,
        _ => 1,
    }
}

/// Whether an instruction satisfying `leaf` occurs in `r` at any depth; `nested_only`
/// skips the instructions of `r` itself and looks only inside its `if`s and loops.
fn occurs(r: &Region, nested_only: bool, leaf: &dyn Fn(&InstrKind) -> bool) -> bool {
    r.instrs.iter().any(|i| match &i.kind {
        InstrKind::If {
            then_region,
            else_region,
            ..
        } => occurs(then_region, false, leaf) || occurs(else_region, false, leaf),
        InstrKind::Loop { body, .. } => occurs(body, false, leaf),
        kind => !nested_only && leaf(kind),
    })
}

fn is_leave(k: &InstrKind) -> bool {
    matches!(
        k,
        InstrKind::Break(_) | InstrKind::Continue(_) | InstrKind::Ret(_) | InstrKind::Unreachable
    )
}

fn is_return(k: &InstrKind) -> bool {
    matches!(k, InstrKind::Ret(_) | InstrKind::Unreachable)
}

/// Whether lanes may leave inside `r` (any `break`, `continue`, `ret` or `unreachable` at
/// any depth): the constructs around it must then recompute exec and check it for empty.
pub(crate) fn region_may_leave(r: &Region) -> bool {
    occurs(r, false, &is_leave)
}

/// Whether `ret` or `unreachable` occurs inside an `if` or a loop of `r`.
fn nested_ret(r: &Region) -> bool {
    occurs(r, true, &is_return)
}

/// Whether `ret` or `unreachable` occurs inside `r` at any depth.
fn region_may_return(r: &Region) -> bool {
    occurs(r, false, &is_return)
}

/// A loop is divergent when one of its own `break`/`continue` instructions lies under an
/// `if` with a divergent condition (the uniformity analysis's rule).
fn loop_is_divergent(body: &Region, uniform: &dyn Fn(&ir::Operand) -> bool) -> bool {
    fn walk(r: &Region, under_divergent: bool, uniform: &dyn Fn(&ir::Operand) -> bool) -> bool {
        r.instrs.iter().any(|i| match &i.kind {
            InstrKind::Break(_) | InstrKind::Continue(_) => under_divergent,
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => {
                let d = under_divergent || !uniform(cond);
                walk(then_region, d, uniform) || walk(else_region, d, uniform)
            }
            // A nested loop's break/continue are its own.
            _ => false,
        })
    }
    walk(body, false, uniform)
}
