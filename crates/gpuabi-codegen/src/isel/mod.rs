//! Instruction selection: a kernel becomes SSA machine IR, walking the blocks of the
//! shared control-flow graph (`gpuabi_ir::cfg`) in their structured layout, as ACO's
//! `aco_instruction_selection.cpp` walks NIR's structured control flow (`visit_if`,
//! `visit_loop`): the structure each block records (its [`gpuabi_ir::cfg::BlockKind`], the
//! `if`s and loops) says where divergent constructs begin and end.
//!
//! Values live where their uniformity puts them: uniform values in SGPRs (computed with
//! SALU instructions, or with VALU ones followed by `v_readfirstlane_b32`), divergent values
//! in VGPRs, divergent `i1` values as lane masks, uniform `i1` values as 0/1 in an SGPR.
//!
//! Control flow (see [`blocks`]): block parameters become phis (`p_linear_phi` for SGPR
//! values, which only uniform constructs merge, `p_phi` for VGPR values); a uniform `if`
//! branches on SCC; divergent `if`s, the `break`/`continue` of divergent loops and nested
//! `ret`s become branch pseudo-instructions carrying their condition, with the linear-only
//! blocks (invert, loop latch) that exec-mask insertion ([`crate::insert_exec_mask`]) fills
//! in. A divergent `i1` that is merged (an `if` result, a loop variable or result) is kept
//! as 0/1 in a VGPR, as a lane mask is written whole, not per lane.

pub(crate) mod alu;
mod blocks;
pub(crate) mod call;
mod float;
mod memory;

use gpuabi_amdgpu::{Imm, MemMods, Opcode, Operand, Special, Target, WaveSize};
use gpuabi_ir::ir::{self, Type, Value};
use gpuabi_layout::reg::RegFile;

use crate::entry::Launch;

use crate::error::CodegenError;
use crate::mir::{self, BlockId, MInst, MOp, Opnd, Origin, Pseudo, Slice, Temp};
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
    pub(crate) origin: Origin,
    pub(crate) launch: Launch,
    /// The module's conventions and layout.
    pub(crate) ctx: &'a crate::call_abi::ModuleCtx<'a>,
    /// The function's id in the module.
    pub(crate) func_id: ir::FuncId,
    /// How a called function was entered (`None` in a kernel).
    pub(crate) callee: Option<call::CalleeEntry>,
}

/// How the function being selected is entered.
pub(crate) enum Role<'c> {
    /// A kernel, through its entry ABI.
    Kernel,
    /// A function called under this convention; the IR function is the one
    /// [`crate::lower_call_abi`] made.
    Callee(
        &'c crate::call_abi::Convention,
        crate::lower_call_abi::AddedParams,
    ),
}

impl<'a> Isel<'a> {
    /// Compiles the kernel `func` to machine IR; also returns how it is entered.
    /// `cfg` is the function's CFG; `divergent_loops` says, per loop of it, whether it is
    /// divergent; `catalyst_scratch` whether a `catalyst` entry sets up scratch.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        opts: &'a Options,
        ctx: &'a crate::call_abi::ModuleCtx<'a>,
        func_id: ir::FuncId,
        role: Role<'_>,
        func: &'a ir::Function,
        uniform: &'a [bool],
        cfg: &gpuabi_ir::cfg::Cfg,
        divergent_loops: &[bool],
        catalyst_scratch: bool,
    ) -> Result<(mir::Function, Option<crate::KernelEntry>), CodegenError> {
        let mut s = Isel {
            opts,
            func,
            uniform,
            f: mir::Function::new(&func.name),
            cur: BlockId(0),
            order: vec![BlockId(0)],
            values: vec![None; func.values.len()],
            origin: Origin {
                start: func.span.start,
                end: func.span.end,
            },
            launch: Launch::default(),
            ctx,
            func_id,
            callee: None,
        };
        s.logical_start();
        let (launch, entry) = match (role, opts.entry) {
            (Role::Callee(conv, added), _) => {
                s.f.callee = Some(crate::call_abi::CalleeFrame { conv: conv.clone() });
                (s.enter_callee(conv, added), None)
            }
            (Role::Kernel, crate::Entry::Hsa) => {
                let (launch, k) =
                    crate::entry::enter_hsa(&mut s).map_err(|e| CodegenError::Unsupported {
                        function: func.name.clone(),
                        start: func.span.start,
                        end: func.span.end,
                        what: e.to_string(),
                    })?;
                (launch, Some(crate::KernelEntry::Hsa(k)))
            }
            (Role::Kernel, crate::Entry::Catalyst) => {
                let (launch, l) = crate::entry::catalyst::enter_catalyst(&mut s, catalyst_scratch)?;
                (launch, Some(crate::KernelEntry::Catalyst(Box::new(l))))
            }
        };
        s.launch = launch;
        for (p, v) in func.params.iter().zip(s.launch.params.clone()) {
            s.values[p.value.index()] = Some(v);
        }
        let entry_end = s.cur;
        let body = blocks::select(&mut s, cfg, divergent_loops)?;
        // Stack arrays are zero-filled once, at the end of the entry code, with every lane.
        let frame = s.f.stack_bytes;
        s.cur = entry_end;
        memory::zero_frame(&mut s, frame);
        s.end_block(Pseudo::Branch, [Opnd::Block(body)]);
        Ok((s.finish(), entry))
    }

    // ---- blocks and instructions -------------------------------------------------------

    pub(crate) fn new_block(&mut self) -> BlockId {
        self.f.blocks.push(mir::Block::default());
        BlockId(self.f.blocks.len() as u32 - 1)
    }

    /// Places `b` next in emission order and makes it current, without a logical part
    /// yet.
    fn open(&mut self, b: BlockId, kind: mir::BlockKind) {
        self.f.blocks[b.index()].kind |= kind;
        self.order.push(b);
        self.cur = b;
    }

    fn logical_start(&mut self) {
        let origin = self.origin;
        self.push(MInst::pseudo(Pseudo::LogicalStart, [], origin));
    }

    /// Ends the logical part of the current block, before the branches that end it.
    fn close_logical(&mut self) {
        let origin = self.origin;
        let insts = &mut self.f.blocks[self.cur.index()].insts;
        let open = insts.iter().any(|i| i.is(Pseudo::LogicalStart))
            && !insts.iter().any(|i| i.is(Pseudo::LogicalEnd));
        if open {
            let at = insts.len() - insts.iter().rev().take_while(|i| i.is_terminator()).count();
            insts.insert(at, MInst::pseudo(Pseudo::LogicalEnd, [], origin));
        }
    }

    /// Ends the current block with a branch pseudo-instruction.
    fn end_block<const N: usize>(&mut self, p: Pseudo, opnds: [Opnd; N]) {
        self.close_logical();
        let origin = self.origin;
        self.push(MInst::pseudo(p, opnds, origin));
    }

    /// Continues the current code in block `b`, placed next in emission order (the
    /// current block falls through to it or ends in its own branches).
    pub(crate) fn start_block(&mut self, b: BlockId) {
        self.close_logical();
        self.open(b, mir::BlockKind::default());
        self.logical_start();
    }

    /// The block being filled.
    pub(crate) fn cur_block(&self) -> BlockId {
        self.cur
    }

    /// Starts block `b` with phis `(kind, destination, predecessor, source)`; the sources
    /// of other predecessors come with [`Isel::add_phi_sources`].
    pub(crate) fn start_block_with_phis(
        &mut self,
        b: BlockId,
        phis: &[(Pseudo, Temp, BlockId, Opnd)],
    ) {
        self.close_logical();
        self.open(b, mir::BlockKind::default());
        for (kind, dst, pred, src) in phis {
            let origin = self.origin;
            let dst = Opnd::Temp(self.whole(*dst));
            self.push(MInst::pseudo(
                *kind,
                [dst, Opnd::Block(*pred), src.clone()],
                origin,
            ));
        }
        self.logical_start();
    }

    /// Adds the sources from `pred` to the leading phis of block `b`, one per phi.
    pub(crate) fn add_phi_sources(&mut self, b: BlockId, pred: BlockId, srcs: &[Opnd]) {
        let insts = &mut self.f.blocks[b.index()].insts;
        for (phi, src) in insts.iter_mut().zip(srcs) {
            phi.opnds.push(Opnd::Block(pred));
            phi.opnds.push(src.clone());
        }
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
                    if let Opnd::Block(t) | Opnd::Addr { anchor: t, .. } = o {
                        *t = BlockId(new_id[t.index()]);
                    }
                }
            }
            blocks.push(block);
        }
        self.f.blocks = blocks;
        self.f
    }

    pub(crate) fn emit<const N: usize>(&mut self, op: Opcode, opnds: [Opnd; N]) -> &mut MInst {
        self.push(MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
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
        exec_opnd(self.wave())
    }

    /// The opcode of a lane-mask operation for this wave size.
    pub(crate) fn mask_op(&self, w64: Opcode) -> Opcode {
        mask_opcode(self.wave(), w64)
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
    fn is_uniform_operand(&self, o: &ir::Operand) -> bool {
        match o {
            ir::Operand::Imm { .. } => true,
            ir::Operand::Value(v) => self.is_uniform(*v),
        }
    }
}

/// `exec` as an operand of a wave size.
pub(crate) fn exec_opnd(wave: WaveSize) -> Opnd {
    Opnd::Fixed(Operand::Special(match wave {
        WaveSize::W32 => Special::ExecLo,
        WaveSize::W64 => Special::Exec,
    }))
}

/// The opcode of a lane-mask operation (given by its 64-bit form) for a wave size.
pub(crate) fn mask_opcode(wave: WaveSize, w64: Opcode) -> Opcode {
    if wave == WaveSize::W64 {
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

/// The pass: selects the machine code of the IR function the context carries, replacing
/// `f`; the kernel's entry goes to the context.
pub(crate) fn run(
    ctx: &mut crate::pipeline::Context<'_>,
    f: &mut mir::Function,
) -> Result<(), crate::error::PassError> {
    use crate::error::{Invalid, PassError};
    let Some(input) = ctx.input.as_ref() else {
        return Err(PassError::unexpected(
            "isel",
            f,
            Invalid::function("instruction selection needs the IR function"),
        ));
    };
    let role = match input.callee {
        Some((conv, added)) => Role::Callee(conv, added),
        None => Role::Kernel,
    };
    let (mf, entry) = Isel::run(
        &ctx.opts,
        input.module,
        input.fid,
        role,
        input.func,
        &input.uniform,
        &input.cfg,
        &input.divergent_loops,
        ctx.catalyst_scratch,
    )
    .map_err(|e| match e {
        CodegenError::Internal(p) => *p,
        e => PassError::input("isel", &input.func.name, e),
    })?;
    *f = mf;
    ctx.entry = entry;
    Ok(())
}
