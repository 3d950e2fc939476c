//! Float operations, conversions and integer division: the sequences that make the
//! hardware give exactly the IR's result.

use gpuabi_amdgpu::Opcode;
use gpuabi_ir::ir::{Opcode as Op, Type};

use super::alu::v_binop;
use super::{dword, dwords_of, imm, Isel, Val};
use crate::error::CodegenError;
use crate::mir::{Opnd, Temp};

fn d(t: Temp, i: u8) -> Opnd {
    Opnd::Temp(dword(t, i))
}

impl Isel<'_> {
    fn unsupported(&self, what: &str) -> CodegenError {
        CodegenError::Unsupported {
            function: self.func.name.clone(),
            start: self.origin.start,
            end: self.origin.end,
            what: what.to_string(),
        }
    }

    /// A one-source VALU operation into a new VGPR.
    pub(crate) fn vop1(&mut self, op: Opcode, a: Val) -> Temp {
        let r = self.vtemp(1);
        let x = self.src(a, 0);
        self.valu(op, vec![d(r, 0), x]);
        r
    }

    /// A two-source VALU operation into a new VGPR.
    pub(crate) fn vop2(&mut self, op: Opcode, a: Val, b: Val) -> Temp {
        let r = self.vtemp(1);
        let (x, y) = (self.src(a, 0), self.src(b, 0));
        self.valu(op, vec![d(r, 0), x, y]);
        r
    }
}

/// f32 operations, always on the VALU.
pub(crate) fn float_op(s: &mut Isel<'_>, op: Op, args: &[Val]) -> Result<Val, CodegenError> {
    let r = match op {
        Op::Fadd => s.vop2(Opcode::VAddF32, args[0], args[1]),
        Op::Fsub => s.vop2(Opcode::VSubF32, args[0], args[1]),
        Op::Fmul => s.vop2(Opcode::VMulF32, args[0], args[1]),
        Op::Fmin => s.vop2(Opcode::VMinF32, args[0], args[1]),
        Op::Fmax => s.vop2(Opcode::VMaxF32, args[0], args[1]),
        Op::Ffma => {
            let r = s.vtemp(1);
            let (x, y, z) = (s.src(args[0], 0), s.src(args[1], 0), s.src(args[2], 0));
            s.valu(Opcode::VFmaF32, vec![d(r, 0), x, y, z]);
            r
        }
        // Sign-bit operations, also on NaN (the IR's definition).
        Op::Fneg => s.vop2(Opcode::VXorB32, args[0], Val::Const(0x8000_0000)),
        Op::Fabs => s.vop2(Opcode::VAndB32, args[0], Val::Const(0x7fff_ffff)),
        Op::Ffloor => s.vop1(Opcode::VFloorF32, args[0]),
        Op::Fceil => ceil(s, args[0]),
        Op::Ftrunc => {
            // Toward zero: ceil below zero, floor otherwise (NaN takes floor, which keeps it).
            let f = s.vop1(Opcode::VFloorF32, args[0]);
            let c = ceil(s, args[0]);
            let neg = s.mask_temp();
            let x = s.src(args[0], 0);
            s.valu(Opcode::VCmpLtF32, vec![Opnd::Temp(s.whole(neg)), x, imm(0)]);
            let r = s.vtemp(1);
            s.valu(
                Opcode::VCndmaskB32,
                vec![d(r, 0), d(f, 0), d(c, 0), Opnd::Temp(s.whole(neg))],
            );
            r
        }
        Op::Ffract => {
            // x - floor(x) as one subtraction, which is what the IR defines (v_fract_f32
            // clamps below 1.0 and differs for tiny negative inputs).
            let f = s.vop1(Opcode::VFloorF32, args[0]);
            s.vop2(Opcode::VSubF32, args[0], Val::V(f))
        }
        Op::Fsqrt => s.vop1(Opcode::VSqrtF32, args[0]),
        Op::Fdiv | Op::Frsq | Op::Fsin | Op::Fcos | Op::Fexp2 | Op::Flog2 => {
            return Err(s.unsupported(&format!("`{}` is not compiled yet", op.name())));
        }
        _ => unreachable!("not a float operation"),
    };
    Ok(Val::V(r))
}

/// ceil(x) = -floor(-x), exact.
fn ceil(s: &mut Isel<'_>, a: Val) -> Temp {
    let n = s.vop2(Opcode::VXorB32, a, Val::Const(0x8000_0000));
    let f = s.vop1(Opcode::VFloorF32, Val::V(n));
    s.vop2(Opcode::VXorB32, Val::V(f), Val::Const(0x8000_0000))
}

/// Integer/float conversions.
pub(crate) fn convert(
    s: &mut Isel<'_>,
    op: Op,
    from: Type,
    to: Type,
    a: Val,
) -> Result<Val, CodegenError> {
    let r = match (op, from, to) {
        (Op::Sitofp, Type::I32, _) => s.vop1(Opcode::VCvtF32I32, a),
        (Op::Uitofp, Type::I32, _) => s.vop1(Opcode::VCvtF32U32, a),
        // v_cvt_i32_f32/v_cvt_u32_f32 truncate, saturate and give 0 for NaN, as the IR.
        (Op::Fptosi, _, Type::I32) => s.vop1(Opcode::VCvtI32F32, a),
        (Op::Fptoui, _, Type::I32) => s.vop1(Opcode::VCvtU32F32, a),
        _ => {
            return Err(s.unsupported(&format!(
                "`{} {} to {}` is not compiled yet",
                op.name(),
                from,
                to
            )))
        }
    };
    Ok(Val::V(r))
}

/// Integer division and remainder by restoring division, one quotient bit per iteration of
/// a uniform loop (32 or 64 iterations), branch-free per lane. Signed forms divide the
/// magnitudes and fix the signs: the quotient is negative when the signs differ, the
/// remainder takes the dividend's sign, and `MIN / -1` wraps to `MIN`, as the IR defines.
/// Division by zero, an error in the IR, gives an unspecified value.
pub(crate) fn divide(s: &mut Isel<'_>, op: Op, ty: Type, a: Val, b: Val) -> Val {
    let n = dwords_of(ty);
    let bits = 32 * u32::from(n);
    let signed = matches!(op, Op::Sdiv | Op::Srem);
    let (num, den, sn, sd) = if signed {
        let (an, sn) = magnitude(s, ty, a);
        let (ad, sd) = magnitude(s, ty, b);
        (an, ad, Some(sn), Some(sd))
    } else {
        (a, b, None, None)
    };
    let num = Val::V(s.to_vgpr(num, n));
    let den = Val::V(s.to_vgpr(den, n));
    let q = s.vtemp(n);
    let r = s.vtemp(n);
    for i in 0..n {
        s.emit(Opcode::VMovB32, [d(q, i), imm(0)]);
        s.emit(Opcode::VMovB32, [d(r, i), imm(0)]);
    }
    let i = s.stemp(1);
    s.emit(Opcode::SMovB32, [d(i, 0), imm(bits - 1)]);
    let header = s.new_block();
    s.start_block(header);
    // r = r << 1 | (num >> i) & 1, remembering the bit shifted out of r.
    let shifted = v_binop(s, Op::Lshr, ty, num, Val::S(i));
    let bit = v_binop(s, Op::And, ty, shifted, Val::Const(1));
    let top = v_binop(s, Op::Lshr, ty, Val::V(r), Val::Const(u64::from(bits - 1)));
    let r2 = v_binop(s, Op::Shl, ty, Val::V(r), Val::Const(1));
    let r3 = v_binop(s, Op::Or, ty, r2, bit);
    let carry = s.mask_temp();
    let top_lo = s.src(top, 0);
    s.valu(Opcode::VCmpNeU32, vec![Opnd::Temp(s.whole(carry)), top_lo, imm(0)]);
    let lt = if ty == Type::I64 {
        super::alu::v_less64(s, r3, den, false)
    } else {
        let m = s.mask_temp();
        let (x, y) = (s.src(r3, 0), s.src(den, 0));
        s.valu(Opcode::VCmpLtU32, vec![Opnd::Temp(s.whole(m)), x, y]);
        m
    };
    // ge = carry | !(r3 < den)
    let ge = s.mask_temp();
    let exec = s.exec();
    let andn2 = s.mask_op(Opcode::SAndn2B64);
    s.salu(andn2, vec![Opnd::Temp(s.whole(ge)), exec, Opnd::Temp(s.whole(lt))]);
    let ge2 = s.mask_temp();
    let or = s.mask_op(Opcode::SOrB64);
    s.salu(
        or,
        vec![Opnd::Temp(s.whole(ge2)), Opnd::Temp(s.whole(ge)), Opnd::Temp(s.whole(carry))],
    );
    let diff = v_binop(s, Op::Sub, ty, r3, den);
    let qbit = v_binop(s, Op::Shl, ty, Val::Const(1), Val::S(i));
    let qnew = v_binop(s, Op::Or, ty, Val::V(q), qbit);
    for k in 0..n {
        let (x, y) = (s.src(r3, k), s.src(diff, k));
        s.valu(Opcode::VCndmaskB32, vec![d(r, k), x, y, Opnd::Temp(s.whole(ge2))]);
        let (x, y) = (d(q, k), s.src(qnew, k));
        s.valu(Opcode::VCndmaskB32, vec![d(q, k), x, y, Opnd::Temp(s.whole(ge2))]);
    }
    s.emit(Opcode::SAddI32, [d(i, 0), d(i, 0), imm(0xffff_ffff)]);
    s.emit(Opcode::SCmpGeI32, [d(i, 0), imm(0)]);
    s.emit(Opcode::SCbranchScc1, [Opnd::Block(header)]);
    let after = s.new_block();
    s.start_block(after);
    let rem = matches!(op, Op::Urem | Op::Srem);
    match (sn, sd) {
        (Some(sn), Some(_)) if rem => apply_sign(s, ty, Val::V(r), sn),
        (Some(sn), Some(sd)) => {
            let sign = v_binop(s, Op::Xor, ty, sn, sd);
            apply_sign(s, ty, Val::V(q), sign)
        }
        _ if rem => Val::V(r),
        _ => Val::V(q),
    }
}

/// |x| and the sign mask (0 or all ones) of a signed value.
fn magnitude(s: &mut Isel<'_>, ty: Type, x: Val) -> (Val, Val) {
    let bits = if ty == Type::I64 { 63 } else { 31 };
    let sign = v_binop(s, Op::Ashr, ty, x, Val::Const(bits));
    (apply_sign(s, ty, x, sign), sign)
}

/// (x ^ sign) - sign: negates x where sign is all ones.
fn apply_sign(s: &mut Isel<'_>, ty: Type, x: Val, sign: Val) -> Val {
    let flipped = v_binop(s, Op::Xor, ty, x, sign);
    v_binop(s, Op::Sub, ty, flipped, sign)
}

