//! Calls, function addresses, and a called function's entry and exit, as ACO's
//! `visit_call` and `aco_isel_helpers.cpp` (`get_callee_info`) build them from RADV's
//! lowered calls (`radv_nir_lower_call_abi.c`).
//!
//! At a call the arguments are brought into the class the callee's assignment gives them
//! (lane masks for `i1`, SGPRs for uniform values, VGPRs for the rest), scratch parameters
//! are stored to the callee's parameter area (`p_store_arg`), and one parallel copy puts
//! the register parameters, the stack pointer and both callee PCs into their registers.
//! `p_call` stands for the call; a parallel copy after it takes the return values out of
//! their registers (scratch return values come back with `p_load_arg`). The caller makes
//! exactly one hardware call, to the callee of the first active lane (its PC read with
//! `v_readfirstlane_b32`): the callees chain among themselves (see [`exit`]).
//!
//! A called function starts with the parallel copy out of its parameter registers and
//! ends with one into them, followed by `p_return_to_caller`; a DIVERGENT_CALL function
//! first computes the next callee of the chain (RADV's dispatch epilogue).
//!
//! Under LLVM's conventions (no callee PCs, see [`crate::call_abi`]) the caller jumps to
//! the callee's address through the convention's callee-PC registers and return values
//! come back from v0 on. A call through a pointer that differs between lanes becomes a
//! waterfall loop, as llc-19 compiles it (`SIInstrInfo`'s loop over the unique values of
//! a VGPR operand): the first pending lane's pointer is read with `v_readlane_b32`, the
//! lanes with that pointer call it with exec narrowed to them, and the loop goes on while
//! lanes are pending. Each round's return values are merged under the full exec with
//! `v_cndmask_b32` (the project's choice: llc keeps them in the return registers across
//! the later rounds, which trusts every callee to leave the inactive lanes of its return
//! registers alone, a promise LLVM's convention does not make). An `i1` argument or return
//! value travels as 0 or 1 in a VGPR and only its bit 0 is read, as llc-19 reads it.

use gpuabi_amdgpu::{Opcode, Operand};
use gpuabi_ir::ir::{self, FuncId, Type, Value};
use gpuabi_layout::aco::{Location, ParamLayout};
use gpuabi_layout::reg::{RegFile, RegRange};

use super::{dword, dwords_of, imm, Isel, Val};
use crate::call_abi::{CallSite, Convention};
use crate::entry::Launch;
use crate::error::CodegenError;
use crate::lower_call_abi::AddedParams;
use crate::mir::{AbiCost, MInst, Opnd, Pseudo, Temp};

/// Scratch-parameter areas of `p_store_arg`/`p_load_arg`.
pub(crate) const AREA_OUTGOING: u32 = 0;
/// This function's own incoming parameter area, from the stack pointer (which is past it).
pub(crate) const AREA_INCOMING: u32 = 1;
/// This function's own incoming parameter area, from a base at its start (GCN 1.2, whose
/// buffer offsets cannot be negative).
pub(crate) const AREA_PARAMS: u32 = 2;

/// What a called function keeps of its entry for its exit.
#[derive(Debug, Clone)]
pub(crate) struct CalleeEntry {
    /// The convention it is called under.
    pub conv: Convention,
    /// Where the added parameters are.
    pub added: AddedParams,
    /// The stack pointer.
    pub sp: Temp,
    /// The return address.
    pub ra: Temp,
    /// Per IR parameter (hidden ones included): the temp its register was copied into, or
    /// the temp it was loaded into from scratch.
    pub raw: Vec<Temp>,
}

/// The callee being called.
pub(crate) enum Callee<'o> {
    /// `call @f`.
    Direct(FuncId),
    /// `call_indirect $sig %ptr`.
    Indirect(ir::SigId, &'o ir::Operand),
}

fn fixed(r: RegRange) -> Opnd {
    Opnd::Fixed(Operand::Reg(r))
}

impl Isel<'_> {
    /// The layout of IR parameter `j` of the function being compiled under `entry`.
    fn own_param(entry: &CalleeEntry, j: usize) -> &ParamLayout {
        let a = entry.added;
        if j < a.launch {
            entry.conv.arg(j)
        } else if j < a.divergent_pc {
            entry.conv.launch(j - a.launch)
        } else if j == a.divergent_pc {
            entry.conv.param("divergent_pc")
        } else {
            entry.conv.param("uniform_pc")
        }
    }

    /// A value as the class of the parameter it is passed in: a lane mask, SGPRs or
    /// VGPRs (scratch parameters always travel in VGPRs, an `i1` as 0 or 1).
    fn as_param(&mut self, val: Val, ty: Type, layout: &ParamLayout) -> Temp {
        let dwords = dwords_of(ty);
        match (&layout.location, layout.class.file) {
            (Location::Reg(_), RegFile::Sgpr) if ty == Type::I1 => self.mask_of(val),
            (Location::Reg(_), RegFile::Sgpr) => self.sgpr_of(val, dwords),
            _ => self.vgpr_of(val, dwords),
        }
    }

    fn scratch_arg(&mut self, p: Pseudo, data: Temp, offset: u32, area: u32) {
        let mut area = area;
        let mut base = self.f.stack_pointer.map(|sp| self.whole(sp));
        if let (Some(sp), AREA_INCOMING) = (base, area) {
            if crate::scratch::is_resource(sp.dwords) {
                base = Some(self.params_base(sp));
                area = AREA_PARAMS;
            }
        }
        let mut opnds = vec![Opnd::Temp(self.whole(data)), imm(offset), imm(area)];
        opnds.extend(base.map(Opnd::Temp));
        let origin = self.origin;
        self.push(MInst::pseudo(p, opnds, origin)).cost = AbiCost::Copy;
    }

    /// The start of this function's incoming scratch parameters when its stack pointer is
    /// a scratch resource: the resource with its base moved back by the parameter bytes
    /// of every lane (the wave's lanes are interleaved in it).
    fn params_base(&mut self, sp: crate::mir::Slice) -> crate::mir::Slice {
        let bytes = self
            .f
            .callee
            .as_ref()
            .map_or(0, |c| c.conv.assignment.scratch_param_size);
        let lanes = self.wave().lanes();
        let b = self.stemp(4);
        let part = super::dword;
        let of_sp = |k: u8| crate::mir::Slice {
            offset: sp.offset + k,
            dwords: 1,
            ..sp
        };
        self.emit(
            Opcode::SSubU32,
            [
                Opnd::Temp(part(b, 0)),
                Opnd::Temp(of_sp(0)),
                imm(bytes * lanes),
            ],
        );
        self.emit(
            Opcode::SSubbU32,
            [Opnd::Temp(part(b, 1)), Opnd::Temp(of_sp(1)), imm(0)],
        );
        for k in 2..4 {
            self.emit(
                Opcode::SMovB32,
                [Opnd::Temp(part(b, k)), Opnd::Temp(of_sp(k))],
            );
        }
        self.whole(b)
    }

    /// `func_addr @f`: `s_getpc_b64` and the distance to `f`'s label (a label right after
    /// `s_getpc_b64`, which reads the address of the next instruction, starts a block).
    pub(crate) fn func_addr(&mut self, func: FuncId) -> Val {
        let name = self.ctx.module.functions[func.index()].name.clone();
        let pc = self.stemp(2);
        self.emit(Opcode::SGetpcB64, [Opnd::Temp(self.whole(pc))]);
        let anchor = self.new_block();
        self.start_block(anchor);
        // The functions are laid out in a known order: the distance is negative when `f`
        // comes first (or is this function, whose label is before the anchor).
        let forward = self.ctx.position[func.index()] > self.ctx.position[self.func_id.index()];
        let r = self.stemp(2);
        self.emit(
            Opcode::SAddU32,
            [
                Opnd::Temp(dword(r, 0)),
                Opnd::Temp(dword(pc, 0)),
                Opnd::Addr {
                    label: name,
                    anchor,
                },
            ],
        );
        self.emit(
            Opcode::SAddcU32,
            [
                Opnd::Temp(dword(r, 1)),
                Opnd::Temp(dword(pc, 1)),
                imm(if forward { 0 } else { u32::MAX }),
            ],
        );
        Val::S(r)
    }

    /// A call; defines `results` (the new values of the callee's `return` parameters).
    pub(crate) fn call(
        &mut self,
        callee: Callee<'_>,
        args: &[ir::Operand],
        results: &[Value],
    ) -> Result<(), CodegenError> {
        let ctx = self.ctx;
        let (name, conv, params) = match &callee {
            Callee::Direct(f) => {
                let func = &ctx.module.functions[f.index()];
                (func.name.clone(), ctx.abis.func(*f), func.sig_params())
            }
            Callee::Indirect(sig, _) => {
                let s = &ctx.module.sigs[sig.index()];
                (
                    format!("${}", s.name),
                    &ctx.abis.sigs[sig.index()],
                    s.params.clone(),
                )
            }
        };
        if conv.noreturn && !(self.func.attrs.kernel || self.func.attrs.noreturn) {
            // See `lower_noreturn_calls`: only a caller whose `ret` ends the invocation
            // can end it after the call.
            return Err(self.unsupported(
                "a call to a `noreturn` function from a function that returns: gpuabi \
                 compiles such calls in kernels and `noreturn` functions only",
            ));
        }
        if !conv.has_callee_pcs() {
            return self.llvm_call(callee, name, conv, &params, args, results);
        }
        // The callee PCs: the uniform one of the first active lane, the per-lane one.
        let (dpc, upc) = match callee {
            Callee::Direct(f) => {
                let Val::S(u) = self.func_addr(f) else {
                    unreachable!("a function address is uniform")
                };
                let d = self.vgpr_of(Val::S(u), 2);
                (d, u)
            }
            Callee::Indirect(_, ptr) => match self.val(ptr) {
                Val::V(d) => (d, self.sgpr_of(Val::V(d), 2)),
                other => {
                    let u = self.sgpr_of(other, 2);
                    (self.vgpr_of(Val::S(u), 2), u)
                }
            },
        };
        let mut copies: Vec<Opnd> = Vec::new();
        let mut stores: Vec<(Temp, u32)> = Vec::new();
        let mut pass = |s: &mut Self, val: Val, ty: Type, layout: &ParamLayout| {
            let t = s.as_param(val, ty, layout);
            match layout.location {
                Location::Reg(r) => {
                    copies.push(fixed(r));
                    copies.push(Opnd::Temp(s.whole(t)));
                }
                Location::Scratch { offset } => stores.push((t, offset)),
            }
        };
        for (k, &(op, dim)) in ctx.abis.hidden.iter().enumerate() {
            let v = self.launch.builtin(op, dim as usize);
            let ty = Type::I32;
            pass(self, v, ty, conv.launch(k));
        }
        for (k, (a, p)) in args.iter().zip(&params).enumerate() {
            let v = self.val(a);
            pass(self, v, p.ty, conv.arg(k));
        }
        for (t, offset) in stores {
            self.scratch_arg(Pseudo::StoreArg, t, offset, AREA_OUTGOING);
        }
        let sp_reg = conv.reg("stack_pointer");
        let sp = match self.f.stack_pointer {
            Some(sp) => Opnd::Temp(self.whole(sp)),
            None => imm(0),
        };
        copies.extend([sp_reg_opnd(sp_reg), sp]);
        copies.extend([
            fixed(conv.reg("divergent_pc")),
            Opnd::Temp(self.whole(dpc)),
            fixed(conv.reg("uniform_pc")),
            Opnd::Temp(self.whole(upc)),
        ]);
        let origin = self.origin;
        self.push(MInst::pseudo(Pseudo::ParallelCopy, copies, origin))
            .cost = AbiCost::Copy;
        let site = self.f.calls.len() as u32;
        self.f.calls.push(CallSite {
            callee: name,
            conv: conv.clone(),
            origin,
        });
        self.push(MInst::pseudo(Pseudo::Call, [imm(site)], origin))
            .cost = AbiCost::Linkage;
        // Return values.
        let mut out: Vec<Opnd> = Vec::new();
        let mut loads: Vec<(Temp, u32)> = Vec::new();
        let mut vals = Vec::new();
        for (k, p) in params.iter().enumerate().filter(|(_, p)| p.attrs.ret) {
            let location = conv.ret_location(k);
            let (t, v) = match (location, p.ty) {
                (Location::Reg(r), Type::I1) if r.file() == RegFile::Sgpr => {
                    let m = self.mask_temp();
                    (m, Val::Mask(m))
                }
                _ => {
                    let t = self.vtemp(dwords_of(p.ty));
                    (t, Val::V(t))
                }
            };
            match location {
                Location::Reg(r) => {
                    out.push(Opnd::Temp(self.whole(t)));
                    out.push(fixed(r));
                }
                Location::Scratch { offset } => loads.push((t, offset)),
            }
            vals.push(v);
        }
        if !out.is_empty() {
            self.push(MInst::pseudo(Pseudo::ParallelCopy, out, origin))
                .cost = AbiCost::Copy;
        }
        for (t, offset) in loads {
            self.scratch_arg(Pseudo::LoadArg, t, offset, AREA_OUTGOING);
        }
        for (r, v) in results.iter().zip(vals) {
            self.define(*r, v);
        }
        Ok(())
    }

    /// The entry of a called function: its parameters out of their registers (and
    /// scratch) into temps.
    pub(crate) fn enter_callee(&mut self, conv: &Convention, added: AddedParams) -> Launch {
        let sp = self.stemp(conv.reg("stack_pointer").count as u8);
        let ra = self.stemp(2);
        self.f.stack_pointer = Some(sp);
        self.f.stack_pointer_reg = Some(conv.reg("stack_pointer"));
        let mut copies = vec![
            Opnd::Temp(self.whole(sp)),
            fixed(conv.reg("stack_pointer")),
            Opnd::Temp(self.whole(ra)),
            fixed(conv.reg("return_address")),
        ];
        let mut entry = CalleeEntry {
            conv: conv.clone(),
            added,
            sp,
            ra,
            raw: Vec::new(),
        };
        let mut loads = Vec::new();
        let n = self.func.params.len();
        for j in 0..n {
            let p = &self.func.params[j];
            let ty = self.ty(p.value);
            let layout = Self::own_param(&entry, j).clone();
            let t = match (layout.location, layout.class.file) {
                (Location::Reg(_), RegFile::Sgpr) if ty == Type::I1 => self.mask_temp(),
                (Location::Reg(r), RegFile::Sgpr) => self.stemp(r.count as u8),
                (Location::Reg(r), RegFile::Vgpr) => self.vtemp(r.count as u8),
                (Location::Scratch { offset }, _) => {
                    let t = self.vtemp(dwords_of(ty));
                    loads.push((t, offset));
                    t
                }
            };
            if let Location::Reg(r) = layout.location {
                copies.push(Opnd::Temp(self.whole(t)));
                copies.push(fixed(r));
            }
            entry.raw.push(t);
        }
        let origin = self.origin;
        self.push(MInst::pseudo(Pseudo::ParallelCopy, copies, origin))
            .cost = AbiCost::Copy;
        for (t, offset) in loads {
            self.scratch_arg(Pseudo::LoadArg, t, offset, AREA_INCOMING);
        }
        let mut params = Vec::with_capacity(n);
        for j in 0..n {
            let p = &self.func.params[j];
            let ty = self.ty(p.value);
            let uniform = self.is_uniform(p.value);
            let mut t = entry.raw[j];
            if conv.llvm.is_some() && ty == Type::I1 && self.f.info(t).file == RegFile::Vgpr {
                t = self.low_bit(t);
            }
            let v = match (self.f.info(t).file, ty, uniform) {
                (RegFile::Sgpr, Type::I1, false) => Val::Mask(t),
                (RegFile::Sgpr, Type::I1, true) => {
                    let exec = self.exec();
                    let m = self.mask_temp();
                    self.emit_mask(
                        Opcode::SAndB64,
                        [Opnd::Temp(self.whole(m)), Opnd::Temp(self.whole(t)), exec],
                    );
                    let cmp = self.mask_op(Opcode::SCmpLgU64);
                    self.emit(cmp, [Opnd::Temp(self.whole(m)), imm(0)]);
                    self.bool_from_scc()
                }
                (RegFile::Sgpr, _, _) => Val::S(t),
                (RegFile::Vgpr, _, true) => Val::S(self.sgpr_of(Val::V(t), dwords_of(ty))),
                (RegFile::Vgpr, _, false) => Val::V(t),
            };
            params.push(v);
        }
        let builtins = self
            .ctx
            .abis
            .hidden
            .iter()
            .enumerate()
            .map(|(k, &(op, dim))| ((op, dim as usize), params[added.launch + k]))
            .collect();
        self.callee = Some(entry);
        Launch {
            params,
            builtins,
            scratch: None,
        }
    }

    /// The end of a called function: `rets` are the final values of its `return`
    /// parameters (VGPRs, an `i1` as 0 or 1), merged at its exit block.
    pub(crate) fn exit_callee(&mut self, rets: &[Val]) {
        let entry = self.callee.clone().expect("a called function has an entry");
        let conv = &entry.conv;
        // The next callee of a chain (divergent or tail call) reads every parameter.
        let chain = conv.divergent_call || entry.added.tail_call;
        let mut copies: Vec<Opnd> = Vec::new();
        let mut rets = rets.iter();
        let own = self.func.params.len();
        for j in 0..own {
            let p = &self.func.params[j];
            let layout = Self::own_param(&entry, j).clone();
            if j >= entry.added.divergent_pc {
                continue;
            }
            let ty = self.ty(p.value);
            let location = if p.attrs.ret {
                conv.ret_location(j)
            } else {
                layout.location
            };
            let value = if p.attrs.ret {
                let v = *rets.next().expect("one value per return parameter");
                match location {
                    Location::Reg(r) if r.file() == RegFile::Sgpr => self.mask_of(v),
                    _ => self.vgpr_of(v, dwords_of(ty)),
                }
            } else if chain || layout.needs_explicit_preservation {
                entry.raw[j]
            } else {
                continue;
            };
            match location {
                Location::Reg(r) => {
                    copies.push(fixed(r));
                    copies.push(Opnd::Temp(self.whole(value)));
                }
                Location::Scratch { offset } if p.attrs.ret => {
                    self.scratch_arg(Pseudo::StoreArg, value, offset, AREA_INCOMING);
                }
                Location::Scratch { .. } => {}
            }
        }
        if !entry.added.pcs {
            copies.extend([
                fixed(conv.reg("stack_pointer")),
                Opnd::Temp(self.whole(entry.sp)),
                fixed(conv.reg("return_address")),
                Opnd::Temp(self.whole(entry.ra)),
            ]);
            let origin = self.origin;
            self.push(MInst::pseudo(Pseudo::ParallelCopy, copies, origin))
                .cost = AbiCost::Copy;
            self.end_block(Pseudo::ReturnToCaller, [fixed(conv.reg("return_address"))]);
            let cur = self.cur_block();
            if let Some(last) = self.f.blocks[cur.index()].insts.last_mut() {
                last.cost = AbiCost::Linkage;
            }
            return;
        }
        let dpc = entry.raw[entry.added.divergent_pc];
        let upc = entry.raw[entry.added.divergent_pc + 1];
        // A tail call's lanes leave their next PC as the divergent PC's return value.
        let tail_next = entry
            .added
            .tail_call
            .then(|| *rets.next().expect("the next PC is the last return value"));
        let (next_d, next_u) = if chain {
            let cur = self.cur_block();
            let first = self.f.blocks[cur.index()].insts.len();
            let next = match tail_next {
                Some(v) => self.vgpr_of(v, 2),
                None => self.pending_pc(dpc, upc),
            };
            let next = self.dispatch(next, entry.ra);
            for i in &mut self.f.blocks[cur.index()].insts[first..] {
                i.cost = AbiCost::Linkage;
            }
            next
        } else {
            (dpc, upc)
        };
        let sp_reg = conv.reg("stack_pointer");
        copies.extend([
            sp_reg_opnd(sp_reg),
            Opnd::Temp(self.whole(entry.sp)),
            fixed(conv.reg("return_address")),
            Opnd::Temp(self.whole(entry.ra)),
            fixed(conv.reg("divergent_pc")),
            Opnd::Temp(self.whole(next_d)),
            fixed(conv.reg("uniform_pc")),
            Opnd::Temp(self.whole(next_u)),
        ]);
        let origin = self.origin;
        self.push(MInst::pseudo(Pseudo::ParallelCopy, copies, origin))
            .cost = AbiCost::Copy;
        let target = if chain {
            conv.reg("uniform_pc")
        } else {
            conv.reg("return_address")
        };
        self.end_block(Pseudo::ReturnToCaller, [fixed(target)]);
        let cur = self.cur_block();
        if let Some(last) = self.f.blocks[cur.index()].insts.last_mut() {
            last.cost = AbiCost::Linkage;
        }
    }

    /// `t & 1`: the `i1` an LLVM convention passes in bit 0 of a VGPR.
    fn low_bit(&mut self, t: Temp) -> Temp {
        let b = self.vtemp(1);
        self.valu(
            Opcode::VAndB32,
            vec![Opnd::Temp(self.whole(b)), imm(1), Opnd::Temp(self.whole(t))],
        );
        b
    }

    /// A call under one of LLVM's conventions: see the module documentation.
    fn llvm_call(
        &mut self,
        callee: Callee<'_>,
        name: String,
        conv: &Convention,
        params: &[ir::SigParam],
        args: &[ir::Operand],
        results: &[Value],
    ) -> Result<(), CodegenError> {
        let ctx = self.ctx;
        // The arguments in their classes, once: a waterfall loop copies them in every round.
        let mut copies: Vec<Opnd> = Vec::new();
        let mut pass = |s: &mut Self, val: Val, ty: Type, layout: &ParamLayout| {
            let t = s.as_param(val, ty, layout);
            let Location::Reg(r) = layout.location else {
                unreachable!("LLVM's conventions pass everything in registers")
            };
            copies.push(fixed(r));
            copies.push(Opnd::Temp(s.whole(t)));
        };
        for (k, &(op, dim)) in ctx.abis.hidden.iter().enumerate() {
            let v = self.launch.builtin(op, dim as usize);
            pass(self, v, Type::I32, conv.launch(k));
        }
        for (k, (a, p)) in args.iter().zip(params).enumerate() {
            let v = self.val(a);
            pass(self, v, p.ty, conv.arg(k));
        }
        let sp = match self.f.stack_pointer {
            Some(sp) => Opnd::Temp(self.whole(sp)),
            None => imm(0),
        };
        copies.extend([fixed(conv.reg("stack_pointer")), sp]);
        let rets: Vec<(Type, RegRange)> = params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.attrs.ret)
            .map(|(k, p)| match conv.ret_location(k) {
                Location::Reg(r) => (p.ty, r),
                Location::Scratch { .. } => unreachable!("LLVM returns values in VGPRs"),
            })
            .collect();
        let pointer = match callee {
            Callee::Direct(f) => self.func_addr(f),
            Callee::Indirect(_, ptr) => self.val(ptr),
        };
        let outs = match pointer {
            Val::V(ptr) => self.waterfall(&name, conv, copies, ptr, &rets),
            other => {
                let pc = self.sgpr_of(other, 2);
                self.llvm_call_once(&name, conv, copies, pc, &rets)
            }
        };
        for (r, (t, (ty, _))) in results.iter().zip(outs.into_iter().zip(&rets)) {
            let t = if *ty == Type::I1 { self.low_bit(t) } else { t };
            self.define(*r, Val::V(t));
        }
        Ok(())
    }

    /// One hardware call to `pc` under an LLVM convention: the argument `copies`, the
    /// callee's address, `p_call`, and the return values out of their registers.
    fn llvm_call_once(
        &mut self,
        name: &str,
        conv: &Convention,
        mut copies: Vec<Opnd>,
        pc: Temp,
        rets: &[(Type, RegRange)],
    ) -> Vec<Temp> {
        copies.extend([fixed(conv.call_target()), Opnd::Temp(self.whole(pc))]);
        let origin = self.origin;
        self.push(MInst::pseudo(Pseudo::ParallelCopy, copies, origin))
            .cost = AbiCost::Copy;
        let site = self.f.calls.len() as u32;
        self.f.calls.push(CallSite {
            callee: name.to_string(),
            conv: conv.clone(),
            origin,
        });
        self.push(MInst::pseudo(Pseudo::Call, [imm(site)], origin))
            .cost = AbiCost::Linkage;
        let mut out = Vec::new();
        let mut temps = Vec::new();
        for &(_, r) in rets {
            let t = self.vtemp(r.count as u8);
            out.push(Opnd::Temp(self.whole(t)));
            out.push(fixed(r));
            temps.push(t);
        }
        if !out.is_empty() {
            self.push(MInst::pseudo(Pseudo::ParallelCopy, out, origin))
                .cost = AbiCost::Copy;
        }
        temps
    }

    /// A call through the per-lane pointers `ptr` under an LLVM convention: one call per
    /// distinct pointer (see the module documentation). Returns the merged return values.
    fn waterfall(
        &mut self,
        name: &str,
        conv: &Convention,
        copies: Vec<Opnd>,
        ptr: Temp,
        rets: &[(Type, RegRange)],
    ) -> Vec<Temp> {
        let linkage = |s: &mut Self, first: usize| {
            let cur = s.cur_block();
            for i in &mut s.f.blocks[cur.index()].insts[first..] {
                i.cost = AbiCost::Linkage;
            }
        };
        let first = self.f.blocks[self.cur_block().index()].insts.len();
        let all = self.mask_temp();
        let exec = self.exec();
        self.emit_mask(Opcode::SMovB64, [Opnd::Temp(self.whole(all)), exec]);
        let mut start = Vec::new();
        for &(_, r) in rets {
            let t = self.vtemp(r.count as u8);
            for i in 0..r.count as u8 {
                self.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, i)), imm(0)]);
            }
            start.push(t);
        }
        linkage(self, first);
        let pre = self.cur_block();
        let header = self.new_block();
        let pending = self.mask_temp();
        let merged: Vec<Temp> = rets
            .iter()
            .map(|&(_, r)| self.vtemp(r.count as u8))
            .collect();
        let mut phis = vec![(Pseudo::LinearPhi, pending, pre, Opnd::Temp(self.whole(all)))];
        for (m, s0) in merged.iter().zip(&start) {
            phis.push((Pseudo::Phi, *m, pre, Opnd::Temp(self.whole(*s0))));
        }
        self.start_block_with_phis(header, &phis);
        let first = self.f.blocks[self.cur_block().index()].insts.len();
        let ff1 = match self.wave() {
            gpuabi_amdgpu::WaveSize::W32 => Opcode::SFf1I32B32,
            gpuabi_amdgpu::WaveSize::W64 => Opcode::SFf1I32B64,
        };
        let lane = self.stemp(1);
        self.emit(
            ff1,
            [
                Opnd::Temp(self.whole(lane)),
                Opnd::Temp(self.whole(pending)),
            ],
        );
        let pc = self.stemp(2);
        for i in 0..2 {
            self.emit(
                Opcode::VReadlaneB32,
                [
                    Opnd::Temp(dword(pc, i)),
                    Opnd::Temp(dword(ptr, i)),
                    Opnd::Temp(self.whole(lane)),
                ],
            );
        }
        let mine = self.mask_temp();
        self.valu(
            Opcode::VCmpEqU64,
            vec![
                Opnd::Temp(self.whole(mine)),
                Opnd::Temp(self.whole(pc)),
                Opnd::Temp(self.whole(ptr)),
            ],
        )
        .e64 = true;
        let exec = self.exec();
        self.emit_mask(Opcode::SMovB64, [exec, Opnd::Temp(self.whole(mine))]);
        linkage(self, first);
        let got = self.llvm_call_once(name, conv, copies, pc, rets);
        let first = self.f.blocks[self.cur_block().index()].insts.len();
        let exec = self.exec();
        self.emit_mask(Opcode::SMovB64, [exec, Opnd::Temp(self.whole(all))]);
        let mut next = Vec::new();
        for ((m, g), &(_, r)) in merged.iter().zip(&got).zip(rets) {
            let t = self.vtemp(r.count as u8);
            for i in 0..r.count as u8 {
                self.valu(
                    Opcode::VCndmaskB32,
                    vec![
                        Opnd::Temp(dword(t, i)),
                        Opnd::Temp(dword(*m, i)),
                        Opnd::Temp(dword(*g, i)),
                        Opnd::Temp(self.whole(mine)),
                    ],
                )
                .e64 = true;
            }
            next.push(t);
        }
        let left = self.mask_temp();
        self.emit_mask(
            Opcode::SAndn2B64,
            [
                Opnd::Temp(self.whole(left)),
                Opnd::Temp(self.whole(pending)),
                Opnd::Temp(self.whole(mine)),
            ],
        );
        // The loop goes back through a block of its own: the body has two successors and
        // the header two predecessors, so a direct back edge would be critical, and the
        // copies resolving the header's phis on it would run on the way out too,
        // overwriting a register that a value live after the loop holds.
        let after = self.new_block();
        self.emit(Opcode::SCbranchScc0, [Opnd::Block(after)]);
        linkage(self, first);
        let latch = self.new_block();
        self.start_block(latch);
        let first = self.f.blocks[self.cur_block().index()].insts.len();
        self.emit(Opcode::SBranch, [Opnd::Block(header)]);
        linkage(self, first);
        let mut back = vec![Opnd::Temp(self.whole(left))];
        back.extend(next.iter().map(|t| Opnd::Temp(self.whole(*t))));
        self.add_phi_sources(header, latch, &back);
        self.start_block(after);
        next
    }

    /// Each lane's next PC after a DIVERGENT_CALL function without a tail call: 0 where
    /// this function was the lane's callee, its own callee's PC where that is another
    /// function (RADV's `tail_call_pc` as the guard leaves it).
    fn pending_pc(&mut self, dpc: Temp, upc: Temp) -> Temp {
        let here = self.mask_temp();
        self.valu(
            Opcode::VCmpEqU64,
            vec![
                Opnd::Temp(self.whole(here)),
                Opnd::Temp(self.whole(dpc)),
                Opnd::Temp(self.whole(upc)),
            ],
        )
        .e64 = true;
        let next = self.vtemp(2);
        for i in 0..2 {
            self.emit(
                Opcode::VCndmaskB32,
                [
                    Opnd::Temp(dword(next, i)),
                    Opnd::Temp(dword(dpc, i)),
                    imm(0),
                    Opnd::Temp(self.whole(here)),
                ],
            )
            .e64 = true;
        }
        next
    }

    /// RADV's dispatch epilogue: the lanes whose `next` PC is not 0 are still pending (lanes
    /// that finished earlier in the chain came with 0); the wave goes on to the callee of
    /// the first of them, or back to the return address when none is left. Returns the
    /// next divergent and uniform PCs.
    fn dispatch(&mut self, next: Temp, ra: Temp) -> (Temp, Temp) {
        let pending = self.mask_temp();
        self.valu(
            Opcode::VCmpNeU64,
            vec![
                Opnd::Temp(self.whole(pending)),
                Opnd::Temp(self.whole(next)),
                imm(0),
            ],
        )
        .e64 = true;
        let ff1 = match self.wave() {
            gpuabi_amdgpu::WaveSize::W32 => Opcode::SFf1I32B32,
            gpuabi_amdgpu::WaveSize::W64 => Opcode::SFf1I32B64,
        };
        let first = self.stemp(1);
        self.emit(
            ff1,
            [
                Opnd::Temp(self.whole(first)),
                Opnd::Temp(self.whole(pending)),
            ],
        );
        // No lane pending: -1; any lane index will do, as the return address is taken.
        let lane = self.stemp(1);
        self.emit(
            Opcode::SAndB32,
            [
                Opnd::Temp(self.whole(lane)),
                Opnd::Temp(self.whole(first)),
                imm(self.wave().lanes() - 1),
            ],
        );
        let pc = self.stemp(2);
        for i in 0..2 {
            self.emit(
                Opcode::VReadlaneB32,
                [
                    Opnd::Temp(dword(pc, i)),
                    Opnd::Temp(dword(next, i)),
                    Opnd::Temp(self.whole(lane)),
                ],
            );
        }
        let cmp = self.mask_op(Opcode::SCmpLgU64);
        self.emit(cmp, [Opnd::Temp(self.whole(pending)), imm(0)]);
        let uniform = self.stemp(2);
        self.emit(
            Opcode::SCselectB64,
            [
                Opnd::Temp(self.whole(uniform)),
                Opnd::Temp(self.whole(pc)),
                Opnd::Temp(self.whole(ra)),
            ],
        );
        (next, uniform)
    }
}

fn sp_reg_opnd(r: RegRange) -> Opnd {
    fixed(r)
}
