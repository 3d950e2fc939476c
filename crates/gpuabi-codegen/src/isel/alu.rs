//! Selection of plain operations: integer, float, comparison, conversion and launch values.
//!
//! Uniform integer operations use SALU instructions. Operations without a scalar form
//! (float arithmetic, 64-bit multiplication, division) run on the VALU with scalar operands
//! and a uniform result is read back with `v_readfirstlane_b32`.

use gpuabi_amdgpu::{Imm, Opcode, Operand};
use gpuabi_ir::ir::{Cond, Extra, OpInstr, Opcode as Op, Type, Value};
use smallvec::SmallVec;

use super::{dword, dwords_of, imm, Isel, Val};
use crate::error::CodegenError;
use crate::mir::{MInst, MOp, Opnd};

/// Selects one operation; returns where its result lives.
pub(crate) fn select(
    s: &mut Isel<'_>,
    op: &OpInstr,
    result: Option<Value>,
    uniform: bool,
) -> Result<Option<Val>, CodegenError> {
    let rty = result.map(|r| s.ty(r));
    let args: SmallVec<[Val; 3]> = op.args.iter().map(|a| s.val(a)).collect();
    let aty = op.args.first().map(|a| s.operand_ty(a));
    use Op::*;
    let out = match op.opcode {
        Const => args[0],
        Add | Sub | Mul | And | Or | Xor | Shl | Lshr | Ashr | Umin | Umax | Smin | Smax => {
            let ty = op.ty.unwrap_or(Type::I32);
            if ty == Type::I1 {
                bool_binop(s, op.opcode, args[0], args[1], uniform)
            } else if uniform
                && !(op.opcode == Mul
                    && ty == Type::I64
                    && s.target() != gpuabi_amdgpu::Target::Gfx12)
            {
                s_binop(s, op.opcode, ty, args[0], args[1])
            } else {
                let v = v_binop(s, op.opcode, ty, args[0], args[1]);
                s.uniform_result(v, ty, uniform)
            }
        }
        Udiv | Sdiv | Urem | Srem => {
            let ty = op.ty.unwrap_or(Type::I32);
            let v = super::float::divide(s, op.opcode, ty, args[0], args[1]);
            s.uniform_result(v, ty, uniform)
        }
        Not => {
            let ty = op.ty.unwrap_or(Type::I32);
            if ty == Type::I1 {
                bool_not(s, args[0], uniform)
            } else {
                let all = if ty == Type::I64 {
                    u64::MAX
                } else {
                    0xffff_ffff
                };
                if uniform {
                    s_binop(s, Xor, ty, args[0], Val::Const(all))
                } else {
                    v_binop(s, Xor, ty, args[0], Val::Const(all))
                }
            }
        }
        Neg => {
            let ty = op.ty.unwrap_or(Type::I32);
            if uniform {
                s_binop(s, Sub, ty, Val::Const(0), args[0])
            } else {
                v_binop(s, Sub, ty, Val::Const(0), args[0])
            }
        }
        Popcount => {
            let ty = op.ty.unwrap_or(Type::I32);
            popcount(s, ty, args[0], uniform)
        }
        Fadd | Fsub | Fmul | Fmin | Fmax | Ffma | Fneg | Fabs | Fdiv | Fsqrt | Frsq | Ffloor
        | Fceil | Ftrunc | Ffract | Fsin | Fcos | Fexp2 | Flog2 => {
            if matches!(op.opcode, Fneg | Fabs) && uniform {
                let (o, k) = if op.opcode == Fneg {
                    (Xor, 0x8000_0000u64)
                } else {
                    (And, 0x7fff_ffff)
                };
                s_binop(s, o, Type::I32, args[0], Val::Const(k))
            } else if let Some(v) = uniform
                .then(|| super::float::scalar_float_op(s, op.opcode, &args))
                .flatten()
            {
                v
            } else {
                let v = super::float::float_op(s, op.opcode, &args)?;
                s.uniform_result(v, Type::F32, uniform)
            }
        }
        Icmp => {
            let Extra::Cond(c) = op.extra else {
                unreachable!("verified: icmp has a condition")
            };
            let ty = op.ty.unwrap_or(Type::I32);
            icmp(s, c, ty, args[0], args[1], uniform)
        }
        Fcmp => {
            let Extra::Cond(c) = op.extra else {
                unreachable!("verified: fcmp has a condition")
            };
            if uniform && s.target() == gpuabi_amdgpu::Target::Gfx12 {
                scalar_fcmp(s, c, args[0], args[1])
            } else {
                let m = fcmp(s, c, args[0], args[1]);
                mask_result(s, m, uniform)
            }
        }
        Select => {
            let ty = op.ty.unwrap_or(Type::I32);
            select_op(s, ty, args[0], args[1], args[2], uniform)
        }
        Zext | Sext | Trunc | Bitcast => {
            let Extra::To(to) = op.extra else {
                unreachable!("verified: conversions name a target type")
            };
            let from = aty.unwrap_or(Type::I32);
            int_convert(s, op.opcode, from, to, args[0], uniform)
        }
        Sitofp | Uitofp | Fptosi | Fptoui => {
            let Extra::To(to) = op.extra else {
                unreachable!("verified: conversions name a target type")
            };
            let from = aty.unwrap_or(Type::I32);
            if let Some(v) = uniform
                .then(|| super::float::scalar_convert(s, op.opcode, from, to, args[0]))
                .flatten()
            {
                v
            } else {
                let v = super::float::convert(s, op.opcode, from, to, args[0])?;
                s.uniform_result(v, to, uniform)
            }
        }
        Ptradd => {
            let off_ty = op.args.get(1).map(|a| s.operand_ty(a)).unwrap_or(Type::I32);
            let off = if off_ty == Type::I32 {
                int_convert(s, Sext, Type::I32, Type::I64, args[1], uniform)
            } else {
                args[1]
            };
            if uniform {
                s_binop(s, Add, Type::I64, args[0], off)
            } else {
                v_binop(s, Add, Type::I64, args[0], off)
            }
        }
        Load | LoadU8 | LoadS8 | LoadU16 | LoadS16 => {
            let ty = rty.unwrap_or(Type::I32);
            let v = super::memory::load(s, op.opcode, ty, args[0])?;
            s.uniform_result(v, ty, uniform)
        }
        Store | Store8 | Store16 => {
            let ty = aty.unwrap_or(Type::I32);
            super::memory::store(s, op.opcode, ty, args[0], args[1])?;
            return Ok(None);
        }
        Alloca => {
            let Extra::Imm(size) = op.extra else {
                unreachable!("verified: alloca has a size")
            };
            super::memory::alloca(s, size)
        }
        Sload => {
            let ty = rty.unwrap_or(Type::I32);
            super::memory::sload(s, ty, args[0], args[1])?
        }
        Sstore => {
            let ty = aty.unwrap_or(Type::I32);
            super::memory::sstore(s, ty, args[0], args[1], args[2])?;
            return Ok(None);
        }
        LocalId | GroupId | GlobalId | GroupSize | NumGroups | GlobalSize | WorkDim
        | GlobalOffset => {
            let dim = match op.extra {
                Extra::Imm(d) => d as usize,
                _ => 0,
            };
            s.launch.builtin(op.opcode, dim)
        }
    };
    Ok(result.map(|_| out))
}

impl Isel<'_> {
    /// A VALU result made uniform when the IR value is uniform.
    pub(crate) fn uniform_result(&mut self, v: Val, ty: Type, uniform: bool) -> Val {
        match (v, uniform) {
            (Val::Mask(m), true) => mask_result(self, m, true),
            (Val::V(_), true) => Val::S(self.sgpr_of(v, dwords_of(ty))),
            _ => v,
        }
    }

    /// Emits a VALU instruction after making its sources legal for the target: at most
    /// one literal (none on GCN 1.2, whose VOP3 encoding has no literal) and no more
    /// scalar sources than the constant bus allows; slots that take only VGPRs get VGPRs.
    pub(crate) fn valu(&mut self, op: Opcode, mut opnds: Vec<Opnd>) -> &mut MInst {
        let info = op.info();
        let ndst = info.dsts.len();
        let target = self.target();
        let limit = target.constant_bus_limit();
        // Lane masks and lane indices cannot move to VGPRs: they take the constant bus
        // first, and the other sources make do with what is left.
        let mut scalar: Vec<Opnd> = Vec::new();
        for (i, kind) in info.srcs.iter().enumerate() {
            if matches!(kind, gpuabi_amdgpu::Kind::MaskSrc) && !scalar.contains(&opnds[ndst + i]) {
                scalar.push(opnds[ndst + i].clone());
            }
        }
        for (i, kind) in info.srcs.iter().enumerate() {
            if matches!(
                kind,
                gpuabi_amdgpu::Kind::MaskSrc | gpuabi_amdgpu::Kind::Lane
            ) {
                continue;
            }
            let at = ndst + i;
            let o = opnds[at].clone();
            let is_sgpr = matches!(&o, Opnd::Temp(sl) if self.f.info(sl.temp).file == gpuabi_layout::reg::RegFile::Sgpr);
            let is_literal = matches!(&o, Opnd::Fixed(Operand::Imm(v)) if !v.is_inline(1));
            let vgpr_only = matches!(kind, gpuabi_amdgpu::Kind::VReg(_));
            let must_move = (vgpr_only && (is_sgpr || matches!(o, Opnd::Fixed(_))))
                || (is_literal && !target.is_rdna())
                || ((is_sgpr || is_literal) && !scalar.contains(&o) && scalar.len() >= limit)
                || (is_literal
                    && scalar.iter().any(|x| matches!(x, Opnd::Fixed(_)))
                    && !scalar.contains(&o));
            if must_move {
                let dwords = match kind {
                    gpuabi_amdgpu::Kind::VSrc(n) | gpuabi_amdgpu::Kind::VReg(n) => *n,
                    gpuabi_amdgpu::Kind::VSrcF64 => 2,
                    _ => 1,
                };
                let t = self.vtemp(dwords);
                if let Opnd::Temp(sl) = o {
                    for d in 0..dwords {
                        self.emit(
                            Opcode::VMovB32,
                            [
                                Opnd::Temp(dword(t, d)),
                                Opnd::Temp(dword(sl.temp, sl.offset + d)),
                            ],
                        );
                    }
                } else {
                    self.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, 0)), o]);
                }
                opnds[at] = Opnd::Temp(self.whole(t));
            } else if (is_sgpr || is_literal) && !scalar.contains(&o) {
                scalar.push(o);
            }
        }
        self.push(MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: Default::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
            origin: self.origin,
        })
    }

    /// A scalar instruction with at most one literal source (the others are moved into
    /// SGPRs first).
    pub(crate) fn salu(&mut self, op: Opcode, mut opnds: Vec<Opnd>) -> &mut MInst {
        let ndst = op.info().dsts.len();
        let mut literal_seen = false;
        for (i, kind) in op.info().srcs.iter().enumerate() {
            let i = ndst + i;
            if let Opnd::Fixed(Operand::Imm(v)) = &opnds[i] {
                let dwords = match kind {
                    gpuabi_amdgpu::Kind::SSrc(n) => *n,
                    _ => 1,
                };
                let wide_literal = dwords == 2 && !v.is_inline(2);
                if (!v.is_inline(1) && literal_seen) || wide_literal {
                    let bits = match v {
                        Imm::Int(x) => *x as u64,
                        Imm::Float(f) => (*f as f32).to_bits() as u64,
                    };
                    let t = self.sgpr_of(Val::Const(bits), dwords);
                    opnds[i] = Opnd::Temp(self.whole(t));
                } else if !v.is_inline(1) {
                    literal_seen = true;
                }
            }
        }
        self.push(MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: Default::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
            origin: self.origin,
        })
    }

    /// A 64-bit scalar source: an SGPR pair, or a constant that is an inline 64-bit value.
    fn s64(&mut self, v: Val) -> Opnd {
        match v {
            Val::Const(bits) if (bits as i64) >= -16 && (bits as i64) <= 64 => {
                Opnd::Fixed(Operand::Imm(Imm::Int(bits as i64)))
            }
            Val::S(t) => Opnd::Temp(self.whole(t)),
            other => {
                let t = self.sgpr_of(other, 2);
                Opnd::Temp(self.whole(t))
            }
        }
    }
}

fn t(s: &Isel<'_>, t: crate::mir::Temp) -> Opnd {
    Opnd::Temp(s.whole(t))
}

fn d(t: crate::mir::Temp, i: u8) -> Opnd {
    Opnd::Temp(dword(t, i))
}

/// Uniform integer operation on SALU.
fn s_binop(s: &mut Isel<'_>, op: Op, ty: Type, a: Val, b: Val) -> Val {
    use Op::*;
    let wide = dwords_of(ty) == 2;
    let r = s.stemp(dwords_of(ty));
    if !wide {
        let sop = match op {
            Add => Opcode::SAddU32,
            Sub => Opcode::SSubU32,
            Mul => Opcode::SMulI32,
            And => Opcode::SAndB32,
            Or => Opcode::SOrB32,
            Xor => Opcode::SXorB32,
            Shl => Opcode::SLshlB32,
            Lshr => Opcode::SLshrB32,
            Ashr => Opcode::SAshrI32,
            Umin => Opcode::SMinU32,
            Umax => Opcode::SMaxU32,
            Smin => Opcode::SMinI32,
            Smax => Opcode::SMaxI32,
            _ => unreachable!("not a scalar binary operation"),
        };
        let (x, y) = (s.src(a, 0), s.src(b, 0));
        s.salu(sop, vec![d(r, 0), x, y]);
        return Val::S(r);
    }
    let gfx12 = s.target() == gpuabi_amdgpu::Target::Gfx12;
    match op {
        // RDNA 4's 64-bit scalar add, subtract and multiply (no carry, SCC untouched).
        Add | Sub | Mul if gfx12 => {
            let sop = match op {
                Add => Opcode::SAddNcU64,
                Sub => Opcode::SSubNcU64,
                _ => Opcode::SMulU64,
            };
            let (x, y) = (s.s64(a), s.s64(b));
            s.salu(sop, vec![t(s, r), x, y]);
        }
        Add | Sub => {
            let (lo, hi) = if op == Add {
                (Opcode::SAddU32, Opcode::SAddcU32)
            } else {
                (Opcode::SSubU32, Opcode::SSubbU32)
            };
            let (a0, b0, a1, b1) = (s.src(a, 0), s.src(b, 0), s.src(a, 1), s.src(b, 1));
            s.salu(lo, vec![d(r, 0), a0, b0]);
            s.salu(hi, vec![d(r, 1), a1, b1]);
        }
        And | Or | Xor => {
            let sop = match op {
                And => Opcode::SAndB64,
                Or => Opcode::SOrB64,
                _ => Opcode::SXorB64,
            };
            let (x, y) = (s.s64(a), s.s64(b));
            s.salu(sop, vec![t(s, r), x, y]);
        }
        Shl | Lshr | Ashr => {
            let sop = match op {
                Shl => Opcode::SLshlB64,
                Lshr => Opcode::SLshrB64,
                _ => Opcode::SAshrI64,
            };
            let x = s.s64(a);
            let y = s.src(b, 0);
            s.salu(sop, vec![t(s, r), x, y]);
        }
        Umin | Umax | Smin | Smax => {
            let signed = matches!(op, Smin | Smax);
            // a < b, then pick.
            scc_less64(s, a, b, signed);
            let (x, y) = (s.s64(a), s.s64(b));
            let (first, second) = if matches!(op, Umin | Smin) {
                (x, y)
            } else {
                (y, x)
            };
            s.salu(Opcode::SCselectB64, vec![t(s, r), first, second]);
        }
        _ => unreachable!("no 64-bit scalar form"),
    }
    Val::S(r)
}

/// SCC = a < b for 64-bit uniform values: the borrow of `a - b` (signed: with the sign
/// bits flipped first, which maps signed order onto unsigned order).
fn scc_less64(s: &mut Isel<'_>, a: Val, b: Val, signed: bool) {
    let (mut a1, mut b1) = (s.src(a, 1), s.src(b, 1));
    if signed {
        for x in [&mut a1, &mut b1] {
            let f = s.stemp(1);
            let src = x.clone();
            s.salu(Opcode::SXorB32, vec![d(f, 0), src, imm(0x8000_0000)]);
            *x = d(f, 0);
        }
    }
    let junk = s.stemp(2);
    let (a0, b0) = (s.src(a, 0), s.src(b, 0));
    s.salu(Opcode::SSubU32, vec![d(junk, 0), a0, b0]);
    s.salu(Opcode::SSubbU32, vec![d(junk, 1), a1, b1]);
}

/// Divergent (or VALU-only) integer operation.
pub(crate) fn v_binop(s: &mut Isel<'_>, op: Op, ty: Type, a: Val, b: Val) -> Val {
    use Op::*;
    let wide = dwords_of(ty) == 2;
    let r = s.vtemp(dwords_of(ty));
    let rdna = s.target().is_rdna();
    if !wide {
        let (x, y) = (s.src(a, 0), s.src(b, 0));
        match op {
            Add | Sub if rdna => {
                let o = if op == Add {
                    Opcode::VAddNcU32
                } else {
                    Opcode::VSubNcU32
                };
                s.valu(o, vec![d(r, 0), x, y]);
            }
            Add | Sub => {
                let o = if op == Add {
                    Opcode::VAddCoU32
                } else {
                    Opcode::VSubCoU32
                };
                let c = s.mask_temp();
                s.valu(o, vec![d(r, 0), t(s, c), x, y]);
            }
            Shl | Lshr | Ashr => {
                let o = match op {
                    Shl => Opcode::VLshlrevB32,
                    Lshr => Opcode::VLshrrevB32,
                    _ => Opcode::VAshrrevI32,
                };
                s.valu(o, vec![d(r, 0), y, x]);
            }
            _ => {
                let o = match op {
                    Mul => Opcode::VMulLoU32,
                    And => Opcode::VAndB32,
                    Or => Opcode::VOrB32,
                    Xor => Opcode::VXorB32,
                    Umin => Opcode::VMinU32,
                    Umax => Opcode::VMaxU32,
                    Smin => Opcode::VMinI32,
                    Smax => Opcode::VMaxI32,
                    _ => unreachable!("not a vector binary operation"),
                };
                s.valu(o, vec![d(r, 0), x, y]);
            }
        }
        return Val::V(r);
    }
    match op {
        Add | Sub => {
            let (lo, hi) = if op == Add {
                (Opcode::VAddCoU32, Opcode::VAddcCoU32)
            } else {
                (Opcode::VSubCoU32, Opcode::VSubbCoU32)
            };
            let c = s.mask_temp();
            let c2 = s.mask_temp();
            let (a0, b0, a1, b1) = (s.src(a, 0), s.src(b, 0), s.src(a, 1), s.src(b, 1));
            s.valu(lo, vec![d(r, 0), t(s, c), a0, b0]);
            s.valu(hi, vec![d(r, 1), t(s, c2), a1, b1, t(s, c)]);
        }
        Mul => {
            let (a0, b0, a1, b1) = (s.src(a, 0), s.src(b, 0), s.src(a, 1), s.src(b, 1));
            let hi = s.vtemp(1);
            let x = s.vtemp(1);
            let y = s.vtemp(1);
            s.valu(Opcode::VMulLoU32, vec![d(r, 0), a0.clone(), b0.clone()]);
            s.valu(Opcode::VMulHiU32, vec![d(hi, 0), a0.clone(), b0.clone()]);
            s.valu(Opcode::VMulLoU32, vec![d(x, 0), a0, b1]);
            s.valu(Opcode::VMulLoU32, vec![d(y, 0), a1, b0]);
            let sum = v_binop(s, Add, Type::I32, Val::V(hi), Val::V(x));
            let out = v_binop(s, Add, Type::I32, sum, Val::V(y));
            let Val::V(o) = out else { unreachable!() };
            s.emit(Opcode::VMovB32, [d(r, 1), d(o, 0)]);
        }
        And | Or | Xor => {
            let o = match op {
                And => Opcode::VAndB32,
                Or => Opcode::VOrB32,
                _ => Opcode::VXorB32,
            };
            for i in 0..2 {
                let (x, y) = (s.src(a, i), s.src(b, i));
                s.valu(o, vec![d(r, i), x, y]);
            }
        }
        Shl | Lshr | Ashr => {
            let o = match op {
                Shl => Opcode::VLshlrevB64,
                Lshr => Opcode::VLshrrevB64,
                _ => Opcode::VAshrrevI64,
            };
            let amount = s.src(b, 0);
            let src = match a {
                Val::V(x) => t(s, x),
                other => {
                    let x = s.vgpr_of(other, 2);
                    t(s, x)
                }
            };
            s.valu(o, vec![t(s, r), amount, src]);
        }
        Umin | Umax | Smin | Smax => {
            let signed = matches!(op, Smin | Smax);
            let lt = v_less64(s, a, b, signed);
            // Umin: lt ? a : b (v_cndmask picks src1 where the mask is set).
            let (when_set, when_clear) = if matches!(op, Umin | Smin) {
                (a, b)
            } else {
                (b, a)
            };
            for i in 0..2 {
                let (x, y) = (s.src(when_clear, i), s.src(when_set, i));
                s.valu(Opcode::VCndmaskB32, vec![d(r, i), x, y, t(s, lt)]);
            }
        }
        _ => unreachable!("no 64-bit vector form"),
    }
    Val::V(r)
}

/// Lane mask of a < b for 64-bit values: the borrow out of `a - b`.
pub(crate) fn v_less64(s: &mut Isel<'_>, a: Val, b: Val, signed: bool) -> crate::mir::Temp {
    let (mut a1, mut b1) = (s.src(a, 1), s.src(b, 1));
    if signed {
        for x in [&mut a1, &mut b1] {
            let f = s.vtemp(1);
            let src = x.clone();
            s.valu(Opcode::VXorB32, vec![d(f, 0), src, imm(0x8000_0000)]);
            *x = d(f, 0);
        }
    }
    let junk = s.vtemp(2);
    let c = s.mask_temp();
    let out = s.mask_temp();
    let (a0, b0) = (s.src(a, 0), s.src(b, 0));
    s.valu(Opcode::VSubCoU32, vec![d(junk, 0), t(s, c), a0, b0]);
    s.valu(
        Opcode::VSubbCoU32,
        vec![d(junk, 1), t(s, out), a1, b1, t(s, c)],
    );
    out
}

fn popcount(s: &mut Isel<'_>, ty: Type, a: Val, uniform: bool) -> Val {
    if uniform {
        let r = s.stemp(dwords_of(ty));
        let src = if ty == Type::I64 {
            s.s64(a)
        } else {
            s.src(a, 0)
        };
        let o = if ty == Type::I64 {
            Opcode::SBcnt1I32B64
        } else {
            Opcode::SBcnt1I32B32
        };
        s.salu(o, vec![d(r, 0), src]);
        if ty == Type::I64 {
            s.emit(Opcode::SMovB32, [d(r, 1), imm(0)]);
        }
        return Val::S(r);
    }
    let lo = s.vtemp(1);
    let x = s.src(a, 0);
    s.valu(Opcode::VBcntU32B32, vec![d(lo, 0), x, imm(0)]);
    if ty != Type::I64 {
        return Val::V(lo);
    }
    // v_bcnt_u32_b32 adds its second source: count the high word on top.
    let r = s.vtemp(2);
    let y = s.src(a, 1);
    s.valu(Opcode::VBcntU32B32, vec![d(r, 0), y, d(lo, 0)]);
    s.emit(Opcode::VMovB32, [d(r, 1), imm(0)]);
    Val::V(r)
}

/// A lane mask as the IR value it stands for: kept as a mask, or turned into a uniform
/// 0/1 (all active lanes agree, so the mask is either exec or zero).
pub(crate) fn mask_result(s: &mut Isel<'_>, m: crate::mir::Temp, uniform: bool) -> Val {
    if !uniform {
        return Val::Mask(m);
    }
    let w = s.mask_op(Opcode::SCmpLgU64);
    s.salu(w, vec![t(s, m), imm(0)]);
    s.bool_from_scc()
}

fn bool_binop(s: &mut Isel<'_>, op: Op, a: Val, b: Val, uniform: bool) -> Val {
    if uniform {
        let o = match op {
            Op::And => Opcode::SAndB32,
            Op::Or => Opcode::SOrB32,
            _ => Opcode::SXorB32,
        };
        let r = s.stemp(1);
        let (x, y) = (s.src(a, 0), s.src(b, 0));
        s.salu(o, vec![d(r, 0), x, y]);
        return Val::S(r);
    }
    let (x, y) = (s.mask_of(a), s.mask_of(b));
    let r = s.mask_temp();
    let o = match op {
        Op::And => Opcode::SAndB64,
        Op::Or => Opcode::SOrB64,
        _ => Opcode::SXorB64,
    };
    let o = s.mask_op(o);
    s.salu(o, vec![t(s, r), t(s, x), t(s, y)]);
    Val::Mask(r)
}

fn bool_not(s: &mut Isel<'_>, a: Val, uniform: bool) -> Val {
    if uniform {
        let r = s.stemp(1);
        let x = s.src(a, 0);
        s.salu(Opcode::SXorB32, vec![d(r, 0), x, imm(1)]);
        return Val::S(r);
    }
    let x = s.mask_of(a);
    let r = s.mask_temp();
    let exec = s.exec();
    let o = s.mask_op(Opcode::SAndn2B64);
    s.salu(o, vec![t(s, r), exec, t(s, x)]);
    Val::Mask(r)
}

/// Integer comparisons. `i1` operands are compared as 0/1 (unsigned) or 0/-1 (signed).
fn icmp(s: &mut Isel<'_>, c: Cond, ty: Type, a: Val, b: Val, uniform: bool) -> Val {
    let (a, b, ty) = if ty == Type::I1 {
        let signed = matches!(c, Cond::Slt | Cond::Sle | Cond::Sgt | Cond::Sge);
        let widen = |s: &mut Isel<'_>, v: Val| -> Val {
            let one = if signed { 0xffff_ffff } else { 1 };
            match v {
                Val::Const(bits) => Val::Const(if bits & 1 != 0 { u64::from(one) } else { 0 }),
                Val::S(t) if signed => {
                    let r = s.stemp(1);
                    s.salu(Opcode::SSubU32, vec![d(r, 0), imm(0), d(t, 0)]);
                    Val::S(r)
                }
                Val::S(t) => Val::S(t),
                Val::Mask(m) => {
                    let r = s.vtemp(1);
                    s.valu(
                        Opcode::VCndmaskB32,
                        vec![d(r, 0), imm(0), imm(one), Opnd::Temp(s.whole(m))],
                    );
                    Val::V(r)
                }
                Val::V(t) if signed => v_binop(s, Op::Sub, Type::I32, Val::Const(0), Val::V(t)),
                other => other,
            }
        };
        (widen(s, a), widen(s, b), Type::I32)
    } else {
        (a, b, ty)
    };
    if dwords_of(ty) == 2 {
        return icmp64(s, c, a, b, uniform);
    }
    if uniform {
        let o = match c {
            Cond::Eq => Opcode::SCmpEqU32,
            Cond::Ne => Opcode::SCmpLgU32,
            Cond::Ult => Opcode::SCmpLtU32,
            Cond::Ule => Opcode::SCmpLeU32,
            Cond::Ugt => Opcode::SCmpGtU32,
            Cond::Uge => Opcode::SCmpGeU32,
            Cond::Slt => Opcode::SCmpLtI32,
            Cond::Sle => Opcode::SCmpLeI32,
            Cond::Sgt => Opcode::SCmpGtI32,
            Cond::Sge => Opcode::SCmpGeI32,
            _ => unreachable!("integer condition"),
        };
        let (x, y) = (s.src(a, 0), s.src(b, 0));
        s.salu(o, vec![x, y]);
        return s.bool_from_scc();
    }
    let o = match c {
        Cond::Eq => Opcode::VCmpEqU32,
        Cond::Ne => Opcode::VCmpNeU32,
        Cond::Ult => Opcode::VCmpLtU32,
        Cond::Ule => Opcode::VCmpLeU32,
        Cond::Ugt => Opcode::VCmpGtU32,
        Cond::Uge => Opcode::VCmpGeU32,
        Cond::Slt => Opcode::VCmpLtI32,
        Cond::Sle => Opcode::VCmpLeI32,
        Cond::Sgt => Opcode::VCmpGtI32,
        Cond::Sge => Opcode::VCmpGeI32,
        _ => unreachable!("integer condition"),
    };
    let m = s.mask_temp();
    let (x, y) = (s.src(a, 0), s.src(b, 0));
    s.valu(o, vec![t(s, m), x, y]);
    Val::Mask(m)
}

fn icmp64(s: &mut Isel<'_>, c: Cond, a: Val, b: Val, uniform: bool) -> Val {
    use Cond::*;
    if uniform {
        match c {
            Eq | Ne => {
                let o = if c == Eq {
                    Opcode::SCmpEqU64
                } else {
                    Opcode::SCmpLgU64
                };
                let (x, y) = (s.s64(a), s.s64(b));
                s.salu(o, vec![x, y]);
                return s.bool_from_scc();
            }
            _ => {
                let signed = matches!(c, Slt | Sle | Sgt | Sge);
                // a < b; a > b is b < a; a <= b is !(b < a); a >= b is !(a < b).
                let (x, y, negate) = match c {
                    Ult | Slt => (a, b, false),
                    Ugt | Sgt => (b, a, false),
                    Ule | Sle => (b, a, true),
                    _ => (a, b, true),
                };
                scc_less64(s, x, y, signed);
                let r = s.stemp(1);
                let (one, zero) = if negate { (0, 1) } else { (1, 0) };
                s.emit(Opcode::SCselectB32, [d(r, 0), imm(one), imm(zero)]);
                return Val::S(r);
            }
        }
    }
    let m = match c {
        Eq | Ne => {
            let lo = s.mask_temp();
            let hi = s.mask_temp();
            let (a0, b0, a1, b1) = (s.src(a, 0), s.src(b, 0), s.src(a, 1), s.src(b, 1));
            s.valu(Opcode::VCmpEqU32, vec![t(s, lo), a0, b0]);
            s.valu(Opcode::VCmpEqU32, vec![t(s, hi), a1, b1]);
            let eq = s.mask_temp();
            let o = s.mask_op(Opcode::SAndB64);
            s.salu(o, vec![t(s, eq), t(s, lo), t(s, hi)]);
            if c == Eq {
                eq
            } else {
                let ne = s.mask_temp();
                let exec = s.exec();
                let o = s.mask_op(Opcode::SAndn2B64);
                s.salu(o, vec![t(s, ne), exec, t(s, eq)]);
                ne
            }
        }
        _ => {
            let signed = matches!(c, Slt | Sle | Sgt | Sge);
            let (x, y, negate) = match c {
                Ult | Slt => (a, b, false),
                Ugt | Sgt => (b, a, false),
                Ule | Sle => (b, a, true),
                _ => (a, b, true),
            };
            let lt = v_less64(s, x, y, signed);
            if negate {
                let r = s.mask_temp();
                let exec = s.exec();
                let o = s.mask_op(Opcode::SAndn2B64);
                s.salu(o, vec![t(s, r), exec, t(s, lt)]);
                r
            } else {
                lt
            }
        }
    };
    Val::Mask(m)
}

/// Float comparison as a lane mask. Ordered conditions are false on NaN, `une` true,
/// matching `v_cmp_{eq,lt,le,gt,ge}_f32` and `v_cmp_neq_f32`.
fn fcmp(s: &mut Isel<'_>, c: Cond, a: Val, b: Val) -> crate::mir::Temp {
    let m = s.mask_temp();
    let (x, y) = (s.src(a, 0), s.src(b, 0));
    let o = match c {
        Cond::Oeq => Opcode::VCmpEqF32,
        Cond::Une => Opcode::VCmpNeqF32,
        Cond::Olt => Opcode::VCmpLtF32,
        Cond::Ole => Opcode::VCmpLeF32,
        Cond::Ogt => Opcode::VCmpGtF32,
        Cond::Oge => Opcode::VCmpGeF32,
        Cond::Uno | Cond::Ord => Opcode::VCmpUF32,
        _ => unreachable!("float condition"),
    };
    s.valu(o, vec![t(s, m), x, y]);
    if c == Cond::Ord {
        let r = s.mask_temp();
        let exec = s.exec();
        let o = s.mask_op(Opcode::SAndn2B64);
        s.salu(o, vec![t(s, r), exec, t(s, m)]);
        return r;
    }
    m
}

/// A uniform f32 comparison on RDNA 4's scalar ALU (`s_cmp_*_f32` into SCC): the
/// conditions as [`fcmp`] maps them, `s_cmp_neq_f32` being true for unordered operands
/// as `une` is.
fn scalar_fcmp(s: &mut Isel<'_>, c: Cond, a: Val, b: Val) -> Val {
    let o = match c {
        Cond::Oeq => Opcode::SCmpEqF32,
        Cond::Une => Opcode::SCmpNeqF32,
        Cond::Olt => Opcode::SCmpLtF32,
        Cond::Ole => Opcode::SCmpLeF32,
        Cond::Ogt => Opcode::SCmpGtF32,
        Cond::Oge => Opcode::SCmpGeF32,
        Cond::Uno => Opcode::SCmpUF32,
        Cond::Ord => Opcode::SCmpOF32,
        _ => unreachable!("float condition"),
    };
    let (x, y) = (s.src(a, 0), s.src(b, 0));
    s.salu(o, vec![x, y]);
    s.bool_from_scc()
}

fn select_op(s: &mut Isel<'_>, ty: Type, c: Val, a: Val, b: Val, uniform: bool) -> Val {
    if uniform {
        s.scc_from_bool(c);
        let n = dwords_of(ty);
        let r = s.stemp(n);
        if n == 2 {
            let (x, y) = (s.s64(a), s.s64(b));
            s.salu(Opcode::SCselectB64, vec![t(s, r), x, y]);
        } else {
            let (x, y) = (s.src(a, 0), s.src(b, 0));
            s.salu(Opcode::SCselectB32, vec![d(r, 0), x, y]);
        }
        return Val::S(r);
    }
    let m = s.mask_of(c);
    if ty == Type::I1 {
        let (x, y) = (s.mask_of(a), s.mask_of(b));
        let p = s.mask_temp();
        let q = s.mask_temp();
        let r = s.mask_temp();
        let and = s.mask_op(Opcode::SAndB64);
        let andn2 = s.mask_op(Opcode::SAndn2B64);
        let or = s.mask_op(Opcode::SOrB64);
        s.salu(and, vec![t(s, p), t(s, x), t(s, m)]);
        s.salu(andn2, vec![t(s, q), t(s, y), t(s, m)]);
        s.salu(or, vec![t(s, r), t(s, p), t(s, q)]);
        return Val::Mask(r);
    }
    let n = dwords_of(ty);
    let r = s.vtemp(n);
    for i in 0..n {
        let (x, y) = (s.src(b, i), s.src(a, i));
        s.valu(Opcode::VCndmaskB32, vec![d(r, i), x, y, t(s, m)]);
    }
    Val::V(r)
}

/// `zext`, `sext`, `trunc`, `bitcast`.
pub(crate) fn int_convert(
    s: &mut Isel<'_>,
    op: Op,
    from: Type,
    to: Type,
    a: Val,
    uniform: bool,
) -> Val {
    use Op::*;
    if op == Bitcast {
        return a;
    }
    if let Val::Const(bits) = a {
        let v = match (op, from) {
            (Zext, Type::I1) => bits & 1,
            (Sext, Type::I1) => (bits & 1).wrapping_neg(),
            (Zext, _) => bits & 0xffff_ffff,
            (Sext, _) => bits as u32 as i32 as i64 as u64,
            _ => bits,
        };
        let mask = match to {
            Type::I1 => 1,
            Type::I32 => 0xffff_ffff,
            _ => u64::MAX,
        };
        return Val::Const(v & mask);
    }
    match (op, from, to) {
        (Trunc, _, Type::I1) => {
            if uniform {
                let r = s.stemp(1);
                let x = s.src(a, 0);
                s.salu(Opcode::SAndB32, vec![d(r, 0), x, imm(1)]);
                Val::S(r)
            } else {
                let bit = s.vtemp(1);
                let x = s.src(a, 0);
                s.valu(Opcode::VAndB32, vec![d(bit, 0), x, imm(1)]);
                Val::Mask(s.mask_of(Val::V(bit)))
            }
        }
        (Trunc, _, _) => {
            if uniform {
                let r = s.stemp(1);
                let x = s.src(a, 0);
                s.emit(Opcode::SMovB32, [d(r, 0), x]);
                Val::S(r)
            } else {
                let r = s.vtemp(1);
                let x = s.src(a, 0);
                s.emit(Opcode::VMovB32, [d(r, 0), x]);
                Val::V(r)
            }
        }
        (Zext | Sext, Type::I1, _) => {
            let sext = op == Sext;
            let n = dwords_of(to);
            let one = if sext { 0xffff_ffff } else { 1 };
            if uniform {
                let r = s.stemp(n);
                s.scc_from_bool(a);
                s.emit(Opcode::SCselectB32, [d(r, 0), imm(one), imm(0)]);
                if n == 2 {
                    s.emit(
                        Opcode::SCselectB32,
                        [d(r, 1), imm(if sext { one } else { 0 }), imm(0)],
                    );
                }
                Val::S(r)
            } else {
                let m = s.mask_of(a);
                let r = s.vtemp(n);
                s.valu(
                    Opcode::VCndmaskB32,
                    vec![d(r, 0), imm(0), imm(one), t(s, m)],
                );
                if n == 2 {
                    let hi = if sext { one } else { 0 };
                    s.valu(Opcode::VCndmaskB32, vec![d(r, 1), imm(0), imm(hi), t(s, m)]);
                }
                Val::V(r)
            }
        }
        (Zext | Sext, Type::I32, Type::I64) => {
            let x = s.src(a, 0);
            if uniform {
                let r = s.stemp(2);
                s.emit(Opcode::SMovB32, [d(r, 0), x.clone()]);
                if op == Sext {
                    s.salu(Opcode::SAshrI32, vec![d(r, 1), x, imm(31)]);
                } else {
                    s.emit(Opcode::SMovB32, [d(r, 1), imm(0)]);
                }
                Val::S(r)
            } else {
                let r = s.vtemp(2);
                s.emit(Opcode::VMovB32, [d(r, 0), x.clone()]);
                if op == Sext {
                    s.valu(Opcode::VAshrrevI32, vec![d(r, 1), imm(31), x]);
                } else {
                    s.emit(Opcode::VMovB32, [d(r, 1), imm(0)]);
                }
                Val::V(r)
            }
        }
        _ => a,
    }
}
