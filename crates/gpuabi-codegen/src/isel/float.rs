//! Float operations, conversions and integer division: the sequences that make the
//! hardware give exactly the IR's result.

use gpuabi_amdgpu::Opcode;
use gpuabi_ir::ir::{Opcode as Op, Type};

use super::alu::v_binop;
use super::{dword, dwords_of, imm, Isel, Val};
use crate::error::CodegenError;
use crate::mir::{Opnd, Pseudo, Temp};

fn d(t: Temp, i: u8) -> Opnd {
    Opnd::Temp(dword(t, i))
}

impl Isel<'_> {
    pub(crate) fn unsupported(&self, what: &str) -> CodegenError {
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
        Op::Fceil => s.vop1(Opcode::VCeilF32, args[0]),
        Op::Ftrunc => s.vop1(Opcode::VTruncF32, args[0]),
        Op::Ffract => {
            // x - floor(x) as one subtraction, which is what the IR defines (v_fract_f32
            // clamps below 1.0 and differs for tiny negative inputs).
            let f = s.vop1(Opcode::VFloorF32, args[0]);
            s.vop2(Opcode::VSubF32, args[0], Val::V(f))
        }
        Op::Fsqrt => sqrt(s, args[0]),
        Op::Fdiv => div(s, args[0], args[1]),
        Op::Frsq => {
            let root = sqrt(s, args[0]);
            div(s, Val::Const(0x3f80_0000), Val::V(root))
        }
        // The IR defines these as the hardware computes them: sine and cosine of x times
        // f32(1/(2π)) in revolutions, exp2 and log2 directly.
        Op::Fsin | Op::Fcos => {
            let t = s.vop2(Opcode::VMulF32, args[0], Val::Const(0x3e22_f983));
            let o = if op == Op::Fsin {
                Opcode::VSinF32
            } else {
                Opcode::VCosF32
            };
            s.vop1(o, Val::V(t))
        }
        Op::Fexp2 => s.vop1(Opcode::VExpF32, args[0]),
        Op::Flog2 => s.vop1(Opcode::VLogF32, args[0]),
        _ => unreachable!("not a float operation"),
    };
    Ok(Val::V(r))
}

/// A uniform f32 operation on RDNA 4's scalar ALU, or `None` when it has no scalar form
/// there (then it runs on the VALU and its result is read back). RDNA 4's scalar float
/// instructions round and keep denormals as the MODE register says, as the VALU's do, and
/// `s_min_num_f32`/`s_max_num_f32` are `v_min_num_f32`/`v_max_num_f32`'s operations
/// ("RDNA 4 Instruction Set Architecture", SOP1 and SOP2 opcodes); keeping the value in an
/// SGPR saves the VGPR, the `v_readfirstlane_b32` back, and the VALU issue.
pub(crate) fn scalar_float_op(s: &mut Isel<'_>, op: Op, args: &[Val]) -> Option<Val> {
    if s.target() != gpuabi_amdgpu::Target::Gfx12 {
        return None;
    }
    let (sop, sources) = match op {
        Op::Fadd => (Opcode::SAddF32, 2),
        Op::Fsub => (Opcode::SSubF32, 2),
        Op::Fmul => (Opcode::SMulF32, 2),
        Op::Fmin => (Opcode::SMinNumF32, 2),
        Op::Fmax => (Opcode::SMaxNumF32, 2),
        Op::Ffloor => (Opcode::SFloorF32, 1),
        Op::Fceil => (Opcode::SCeilF32, 1),
        Op::Ftrunc => (Opcode::STruncF32, 1),
        _ => return None,
    };
    let r = s.stemp(1);
    let mut opnds = vec![d(r, 0)];
    opnds.extend(args[..sources].iter().map(|a| s.src(*a, 0)));
    s.salu(sop, opnds);
    Some(Val::S(r))
}

/// A uniform conversion between f32 and 32-bit integers on RDNA 4's scalar ALU, or `None`
/// (see [`scalar_float_op`]). `s_cvt_i32_f32`/`s_cvt_u32_f32` truncate, saturate and give 0
/// for NaN as their VALU forms do.
pub(crate) fn scalar_convert(
    s: &mut Isel<'_>,
    op: Op,
    from: Type,
    to: Type,
    a: Val,
) -> Option<Val> {
    if s.target() != gpuabi_amdgpu::Target::Gfx12 {
        return None;
    }
    let sop = match (op, from, to) {
        (Op::Sitofp, Type::I32, Type::F32) => Opcode::SCvtF32I32,
        (Op::Uitofp, Type::I32, Type::F32) => Opcode::SCvtF32U32,
        (Op::Fptosi, Type::F32, Type::I32) => Opcode::SCvtI32F32,
        (Op::Fptoui, Type::F32, Type::I32) => Opcode::SCvtU32F32,
        _ => return None,
    };
    let r = s.stemp(1);
    let x = s.src(a, 0);
    s.salu(sop, vec![d(r, 0), x]);
    Some(Val::S(r))
}

/// A VALU instruction of three sources into a new VGPR.
fn vop3(s: &mut Isel<'_>, op: Opcode, a: Val, b: Val, c: Val) -> Temp {
    let r = s.vtemp(1);
    let (x, y, z) = (s.src(a, 0), s.src(b, 0), s.src(c, 0));
    s.valu(op, vec![d(r, 0), x, y, z]);
    r
}

fn neg(s: &mut Isel<'_>, a: Val) -> Val {
    Val::V(s.vop2(Opcode::VXorB32, a, Val::Const(0x8000_0000)))
}

/// Correctly rounded `a / b`: the sequence llc-19 emits for `fdiv float` with IEEE
/// denormals (AMDGPU's `LowerFDIV32`): both operands scaled by `v_div_scale_f32`, a
/// Newton-Raphson refinement of `v_rcp_f32`, `v_div_fmas_f32` undoing the scale (it
/// reads the second `v_div_scale_f32`'s flag in VCC), and `v_div_fixup_f32` for the
/// special cases (zeros, infinities, NaNs: the denominator's NaN first).
fn div(s: &mut Isel<'_>, a: Val, b: Val) -> Temp {
    let vcc = Opnd::Fixed(gpuabi_amdgpu::Operand::Special(match s.wave() {
        gpuabi_amdgpu::WaveSize::W32 => gpuabi_amdgpu::Special::VccLo,
        gpuabi_amdgpu::WaveSize::W64 => gpuabi_amdgpu::Special::Vcc,
    }));
    let den = s.vtemp(1);
    let unused = s.mask_temp();
    let (x, y, z) = (s.src(b, 0), s.src(b, 0), s.src(a, 0));
    s.valu(
        Opcode::VDivScaleF32,
        vec![d(den, 0), Opnd::Temp(s.whole(unused)), x, y, z],
    );
    let nden = neg(s, Val::V(den));
    let rcp = s.vop1(Opcode::VRcpF32, Val::V(den));
    let e = vop3(
        s,
        Opcode::VFmaF32,
        nden,
        Val::V(rcp),
        Val::Const(0x3f80_0000),
    );
    let rcp = vop3(s, Opcode::VFmaF32, Val::V(e), Val::V(rcp), Val::V(rcp));
    let num = s.vtemp(1);
    let (x, y, z) = (s.src(a, 0), s.src(b, 0), s.src(a, 0));
    s.valu(Opcode::VDivScaleF32, vec![d(num, 0), vcc, x, y, z]);
    let q = s.vop2(Opcode::VMulF32, Val::V(num), Val::V(rcp));
    let r = vop3(s, Opcode::VFmaF32, nden, Val::V(q), Val::V(num));
    let q = vop3(s, Opcode::VFmaF32, Val::V(r), Val::V(rcp), Val::V(q));
    let r = vop3(s, Opcode::VFmaF32, nden, Val::V(q), Val::V(num));
    let f = vop3(s, Opcode::VDivFmasF32, Val::V(r), Val::V(rcp), Val::V(q));
    vop3(s, Opcode::VDivFixupF32, Val::V(f), b, a)
}

/// Correctly rounded square root: the sequence llc-19 emits for `llvm.sqrt.f32`
/// (AMDGPU's `lowerFSQRTF32`): tiny inputs scaled by 2^32, `v_sqrt_f32`, the result
/// moved by one ulp where the residual `x - r·r` says so, the scale undone, and zeros and
/// +infinity passed through. It does not depend on `v_sqrt_f32` being exact.
fn sqrt(s: &mut Isel<'_>, x: Val) -> Temp {
    let scaled = s.vop2(Opcode::VMulF32, Val::Const(0x4f80_0000), x);
    let tiny = s.mask_temp();
    let xv = s.src(x, 0);
    s.valu(
        Opcode::VCmpGtF32,
        vec![Opnd::Temp(s.whole(tiny)), imm(0x0f80_0000), xv.clone()],
    );
    let xs = s.vtemp(1);
    s.valu(
        Opcode::VCndmaskB32,
        vec![d(xs, 0), xv, d(scaled, 0), Opnd::Temp(s.whole(tiny))],
    );
    let r = s.vop1(Opcode::VSqrtF32, Val::V(xs));
    let down = v_binop(s, Op::Add, Type::I32, Val::V(r), Val::Const(0xffff_ffff));
    let up = v_binop(s, Op::Add, Type::I32, Val::V(r), Val::Const(1));
    let ndown = neg(s, down);
    let nup = neg(s, up);
    let res_down = vop3(s, Opcode::VFmaF32, ndown, Val::V(r), Val::V(xs));
    let res_up = vop3(s, Opcode::VFmaF32, nup, Val::V(r), Val::V(xs));
    let c1 = s.mask_temp();
    s.valu(
        Opcode::VCmpGeF32,
        vec![Opnd::Temp(s.whole(c1)), imm(0), d(res_down, 0)],
    );
    let r1 = s.vtemp(1);
    let down0 = s.src(down, 0);
    s.valu(
        Opcode::VCndmaskB32,
        vec![d(r1, 0), d(r, 0), down0, Opnd::Temp(s.whole(c1))],
    );
    let c2 = s.mask_temp();
    s.valu(
        Opcode::VCmpLtF32,
        vec![Opnd::Temp(s.whole(c2)), imm(0), d(res_up, 0)],
    );
    let r2 = s.vtemp(1);
    let up0 = s.src(up, 0);
    s.valu(
        Opcode::VCndmaskB32,
        vec![d(r2, 0), d(r1, 0), up0, Opnd::Temp(s.whole(c2))],
    );
    let unscaled = s.vop2(Opcode::VMulF32, Val::Const(0x3780_0000), Val::V(r2));
    let r3 = s.vtemp(1);
    s.valu(
        Opcode::VCndmaskB32,
        vec![
            d(r3, 0),
            d(r2, 0),
            d(unscaled, 0),
            Opnd::Temp(s.whole(tiny)),
        ],
    );
    // Class bits 5, 6 and 9: -0, +0, +infinity.
    let special = s.mask_temp();
    s.valu(
        Opcode::VCmpClassF32,
        vec![Opnd::Temp(s.whole(special)), d(xs, 0), imm(0x260)],
    );
    let out = s.vtemp(1);
    s.valu(
        Opcode::VCndmaskB32,
        vec![d(out, 0), d(r3, 0), d(xs, 0), Opnd::Temp(s.whole(special))],
    );
    out
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
        (Op::Uitofp, Type::I64, _) => u64_to_f32(s, a),
        (Op::Sitofp, Type::I64, _) => {
            let sign = v_binop(s, Op::Ashr, Type::I64, a, Val::Const(63));
            let flipped = v_binop(s, Op::Xor, Type::I64, a, sign);
            let magnitude = v_binop(s, Op::Sub, Type::I64, flipped, sign);
            let f = u64_to_f32(s, magnitude);
            let sign_hi = s.src(sign, 1);
            let bit = s.vtemp(1);
            s.valu(Opcode::VAndB32, vec![d(bit, 0), sign_hi, imm(0x8000_0000)]);
            s.vop2(Opcode::VXorB32, Val::V(f), Val::V(bit))
        }
        (Op::Fptoui, _, Type::I64) => return Ok(f32_to_u64(s, a, false)),
        (Op::Fptosi, _, Type::I64) => return Ok(f32_to_u64(s, a, true)),
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

/// u64 → f32, round to nearest even: normalise so the top bit is set, keep the high 32
/// bits with a sticky bit for everything below them, convert those (one rounding, which
/// the sticky bit makes exact-tie-aware), and scale back with `v_ldexp_f32` (exact). The
/// expansion LLVM's `LowerINT_TO_FP` uses for 64-bit sources.
fn u64_to_f32(s: &mut Isel<'_>, a: Val) -> Temp {
    let hi = s.src(a, 1);
    let lz = s.vtemp(1);
    s.valu(Opcode::VFfbhU32, vec![d(lz, 0), hi]);
    // v_ffbh_u32 gives -1 (all ones) for 0: clamp to 32.
    let lz = s.vop2(Opcode::VMinU32, Val::V(lz), Val::Const(32));
    let n = v_binop(s, Op::Shl, Type::I64, a, Val::V(lz));
    let lo = s.src(n, 0);
    let sticky = s.vtemp(1);
    s.valu(Opcode::VMinU32, vec![d(sticky, 0), lo, imm(1)]);
    let top = s.src(n, 1);
    let h = s.vtemp(1);
    s.valu(Opcode::VOrB32, vec![d(h, 0), top, d(sticky, 0)]);
    let f = s.vop1(Opcode::VCvtF32U32, Val::V(h));
    let e = v_binop(s, Op::Sub, Type::I32, Val::Const(32), Val::V(lz));
    s.vop2(Opcode::VLdexpF32, Val::V(f), e)
}

/// f32 → 64-bit integer, toward zero, saturating, NaN → 0 (the IR's definition): the
/// magnitude's high and low words by `floor(t·2^-32)` and `fma(hi, -2^32, t)` (both exact
/// for |t| < 2^64), converted with `v_cvt_u32_f32`; then the sign, and the clamps.
fn f32_to_u64(s: &mut Isel<'_>, a: Val, signed: bool) -> Val {
    let mag = s.vop2(Opcode::VAndB32, a, Val::Const(0x7fff_ffff));
    let t = s.vop1(Opcode::VTruncF32, Val::V(mag));
    let scaled = s.vop2(Opcode::VMulF32, Val::V(t), Val::Const(0x2f80_0000));
    let hi_f = s.vop1(Opcode::VFloorF32, Val::V(scaled));
    let lo_f = vop3(
        s,
        Opcode::VFmaF32,
        Val::V(hi_f),
        Val::Const(0xcf80_0000),
        Val::V(t),
    );
    let hi = s.vop1(Opcode::VCvtU32F32, Val::V(hi_f));
    let lo = s.vop1(Opcode::VCvtU32F32, Val::V(lo_f));
    let u = s.vtemp(2);
    s.emit(Opcode::VMovB32, [d(u, 0), d(lo, 0)]);
    s.emit(Opcode::VMovB32, [d(u, 1), d(hi, 0)]);
    let x = s.src(a, 0);
    let negative = s.mask_temp();
    s.valu(
        Opcode::VCmpLtF32,
        vec![Opnd::Temp(s.whole(negative)), x.clone(), imm(0)],
    );
    let nan = s.mask_temp();
    s.valu(
        Opcode::VCmpUF32,
        vec![Opnd::Temp(s.whole(nan)), x.clone(), x.clone()],
    );
    // Limits: 2^63 (signed) or 2^64 (unsigned) and above saturate.
    let (limit, max) = if signed {
        (0x5f00_0000u32, [0xffff_ffffu32, 0x7fff_ffff])
    } else {
        (0x5f80_0000, [0xffff_ffff, 0xffff_ffff])
    };
    let big = s.mask_temp();
    s.valu(
        Opcode::VCmpGeF32,
        vec![Opnd::Temp(s.whole(big)), d(mag, 0), imm(limit)],
    );
    let value = if signed {
        // (u ^ sign) - sign, sign = all ones for negative inputs.
        let sign = s.vtemp(2);
        for k in 0..2 {
            s.valu(
                Opcode::VCndmaskB32,
                vec![
                    d(sign, k),
                    imm(0),
                    imm(0xffff_ffff),
                    Opnd::Temp(s.whole(negative)),
                ],
            );
        }
        let flipped = v_binop(s, Op::Xor, Type::I64, Val::V(u), Val::V(sign));
        v_binop(s, Op::Sub, Type::I64, flipped, Val::V(sign))
    } else {
        Val::V(u)
    };
    let r = s.vtemp(2);
    for k in 0..2 {
        let v = s.src(value, k);
        // Too big: the maximum (signed: the minimum for negative inputs).
        let sat = if signed {
            let m = s.vtemp(1);
            let minimum = if k == 1 { 0x8000_0000 } else { 0 };
            s.valu(
                Opcode::VCndmaskB32,
                vec![
                    d(m, 0),
                    imm(max[k as usize]),
                    imm(minimum),
                    Opnd::Temp(s.whole(negative)),
                ],
            );
            d(m, 0)
        } else {
            imm(max[k as usize])
        };
        let t1 = s.vtemp(1);
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(t1, 0), v, sat, Opnd::Temp(s.whole(big))],
        );
        let t2 = s.vtemp(1);
        if signed {
            s.emit(Opcode::VMovB32, [d(t2, 0), d(t1, 0)]);
        } else {
            // Negative inputs give 0.
            s.valu(
                Opcode::VCndmaskB32,
                vec![d(t2, 0), d(t1, 0), imm(0), Opnd::Temp(s.whole(negative))],
            );
        }
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(r, k), d(t2, 0), imm(0), Opnd::Temp(s.whole(nan))],
        );
    }
    Val::V(r)
}

/// Integer division and remainder: 32-bit values from a reciprocal
/// ([`reciprocal_division`]), 64-bit ones by restoring division, one quotient bit per
/// iteration of a uniform loop, branch-free per lane. Signed forms divide the
/// magnitudes and fix the signs: the quotient is negative when the signs differ, the
/// remainder takes the dividend's sign, and `MIN / -1` wraps to `MIN`, as the IR defines.
/// Division by zero, an error in the IR, gives an unspecified value.
pub(crate) fn divide(s: &mut Isel<'_>, op: Op, ty: Type, a: Val, b: Val) -> Val {
    let signed = matches!(op, Op::Sdiv | Op::Srem);
    let (num, den, sn, sd) = if signed {
        let (an, sn) = magnitude(s, ty, a);
        let (ad, sd) = magnitude(s, ty, b);
        (an, ad, Some(sn), Some(sd))
    } else {
        (a, b, None, None)
    };
    let (qn, rn) = if ty == Type::I64 {
        restoring_division(s, ty, num, den)
    } else {
        reciprocal_division(s, num, den)
    };
    let rem = matches!(op, Op::Urem | Op::Srem);
    match (sn, sd) {
        (Some(sn), Some(_)) if rem => apply_sign(s, ty, Val::V(rn), sn),
        (Some(sn), Some(sd)) => {
            let sign = v_binop(s, Op::Xor, ty, sn, sd);
            apply_sign(s, ty, Val::V(qn), sign)
        }
        _ if rem => Val::V(rn),
        _ => Val::V(qn),
    }
}

/// Unsigned 32-bit `num / den` and `num % den` (quotient and remainder) from a reciprocal,
/// the expansion LLVM's AMDGPU back end uses for 32-bit division
/// (`AMDGPUTargetLowering::LowerUDIVREM` with `AMDGPUISD::URECIP`): z ≈ 2^32 / den from
/// `v_rcp_iflag_f32` of the float of `den` scaled by 0x4f7ffffe (2^32 - 512, so that z does
/// not exceed 2^32 / den), one Newton-Raphson step in integers (z += mulhi(z, -den * z)),
/// then q = mulhi(num, z) and r = num - q * den, which are at most two below the quotient
/// and two divisors above the remainder: two steps of "if r >= den then q += 1, r -= den"
/// make them exact for every `num` and every nonzero `den`.
fn reciprocal_division(s: &mut Isel<'_>, num: Val, den: Val) -> (Temp, Temp) {
    let ty = Type::I32;
    let fden = s.vop1(Opcode::VCvtF32U32, den);
    let rcp = s.vop1(Opcode::VRcpIflagF32, Val::V(fden));
    let scaled = s.vop2(Opcode::VMulF32, Val::V(rcp), Val::Const(0x4f7f_fffe));
    let z0 = s.vop1(Opcode::VCvtU32F32, Val::V(scaled));
    let neg_den = v_binop(s, Op::Sub, ty, Val::Const(0), den);
    let e = v_binop(s, Op::Mul, ty, neg_den, Val::V(z0));
    let correction = s.vop2(Opcode::VMulHiU32, Val::V(z0), e);
    let z = v_binop(s, Op::Add, ty, Val::V(z0), Val::V(correction));
    let mut q = Val::V(s.vop2(Opcode::VMulHiU32, num, z));
    let qd = v_binop(s, Op::Mul, ty, q, den);
    let mut r = v_binop(s, Op::Sub, ty, num, qd);
    for _ in 0..2 {
        let ge = s.mask_temp();
        let (x, y) = (s.src(r, 0), s.src(den, 0));
        s.valu(Opcode::VCmpGeU32, vec![Opnd::Temp(s.whole(ge)), x, y]);
        let q1 = v_binop(s, Op::Add, ty, q, Val::Const(1));
        let r1 = v_binop(s, Op::Sub, ty, r, den);
        let (qs, rs) = (s.vtemp(1), s.vtemp(1));
        let (a, b) = (s.src(q, 0), s.src(q1, 0));
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(qs, 0), a, b, Opnd::Temp(s.whole(ge))],
        );
        let (a, b) = (s.src(r, 0), s.src(r1, 0));
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(rs, 0), a, b, Opnd::Temp(s.whole(ge))],
        );
        (q, r) = (Val::V(qs), Val::V(rs));
    }
    let (Val::V(q), Val::V(r)) = (q, r) else {
        unreachable!("VGPR results")
    };
    (q, r)
}

/// Unsigned `num / den` and `num % den` of `ty` by restoring division, one quotient bit per
/// iteration of a uniform loop (64 iterations for 64-bit values).
fn restoring_division(s: &mut Isel<'_>, ty: Type, num: Val, den: Val) -> (Temp, Temp) {
    let n = dwords_of(ty);
    let bits = 32 * u32::from(n);
    let num = Val::V(s.vgpr_of(num, n));
    let den = Val::V(s.vgpr_of(den, n));
    // The loop's values are phis of its header: the zeros and the first bit index on
    // entry, the values of the last iteration along the back edge.
    let q0 = s.vtemp(n);
    let r0 = s.vtemp(n);
    for i in 0..n {
        s.emit(Opcode::VMovB32, [d(q0, i), imm(0)]);
        s.emit(Opcode::VMovB32, [d(r0, i), imm(0)]);
    }
    let i0 = s.stemp(1);
    s.emit(Opcode::SMovB32, [d(i0, 0), imm(bits - 1)]);
    let pre = s.cur_block();
    let header = s.new_block();
    let (q, r, i) = (s.vtemp(n), s.vtemp(n), s.stemp(1));
    s.start_block_with_phis(
        header,
        &[
            (Pseudo::Phi, q, pre, Opnd::Temp(s.whole(q0))),
            (Pseudo::Phi, r, pre, Opnd::Temp(s.whole(r0))),
            (Pseudo::LinearPhi, i, pre, Opnd::Temp(s.whole(i0))),
        ],
    );
    // r = r << 1 | (num >> i) & 1, remembering the bit shifted out of r.
    let shifted = v_binop(s, Op::Lshr, ty, num, Val::S(i));
    let bit = v_binop(s, Op::And, ty, shifted, Val::Const(1));
    let top = v_binop(s, Op::Lshr, ty, Val::V(r), Val::Const(u64::from(bits - 1)));
    let r2 = v_binop(s, Op::Shl, ty, Val::V(r), Val::Const(1));
    let r3 = v_binop(s, Op::Or, ty, r2, bit);
    let carry = s.mask_temp();
    let top_lo = s.src(top, 0);
    s.valu(
        Opcode::VCmpNeU32,
        vec![Opnd::Temp(s.whole(carry)), top_lo, imm(0)],
    );
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
    s.salu(
        andn2,
        vec![Opnd::Temp(s.whole(ge)), exec, Opnd::Temp(s.whole(lt))],
    );
    let ge2 = s.mask_temp();
    let or = s.mask_op(Opcode::SOrB64);
    s.salu(
        or,
        vec![
            Opnd::Temp(s.whole(ge2)),
            Opnd::Temp(s.whole(ge)),
            Opnd::Temp(s.whole(carry)),
        ],
    );
    let diff = v_binop(s, Op::Sub, ty, r3, den);
    let qbit = v_binop(s, Op::Shl, ty, Val::Const(1), Val::S(i));
    let qnew = v_binop(s, Op::Or, ty, Val::V(q), qbit);
    let (rn, qn) = (s.vtemp(n), s.vtemp(n));
    for k in 0..n {
        let (x, y) = (s.src(r3, k), s.src(diff, k));
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(rn, k), x, y, Opnd::Temp(s.whole(ge2))],
        );
        let (x, y) = (d(q, k), s.src(qnew, k));
        s.valu(
            Opcode::VCndmaskB32,
            vec![d(qn, k), x, y, Opnd::Temp(s.whole(ge2))],
        );
    }
    let inext = s.stemp(1);
    s.emit(Opcode::SAddI32, [d(inext, 0), d(i, 0), imm(0xffff_ffff)]);
    s.emit(Opcode::SCmpGeI32, [d(inext, 0), imm(0)]);
    s.emit(Opcode::SCbranchScc1, [Opnd::Block(header)]);
    let latch = s.cur_block();
    let back = [qn, rn, inext].map(|t| Opnd::Temp(s.whole(t)));
    s.add_phi_sources(header, latch, &back);
    let after = s.new_block();
    s.start_block(after);
    (qn, rn)
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
