//! RDNA 4's scalar float instructions: the SOP1/SOP2 f32 arithmetic and conversions, the
//! SOPC f32 compares, the 64-bit integer adds and multiply without a carry, and the VOP3
//! transcendentals of one scalar (`v_s_rcp_f32`, …), after the pseudocode of AMD's "RDNA 4
//! Instruction Set Architecture" (S_ADD_F32 … S_CMP_NLT_F32, S_ADD_NC_U64, S_MUL_U64,
//! V_S_EXP_F32 … V_S_SQRT_F32).
//!
//! The scalar f32 operations follow the wave's MODE register ([`super::float_mode`]), which
//! `s_round_mode` and `s_denorm_mode` set: `s_add_f32`, `s_sub_f32`, `s_mul_f32`,
//! `s_fmac_f32` and the conversions from integers round in FP_ROUND's direction; every f32
//! input is read as FP_DENORM says (a denormal as a zero of its sign when inputs are
//! flushed) and the arithmetic's results written so. Otherwise an operation computes as the
//! vector ALU's operation of the same name does in one lane ([`super::float`]: the NaN rule;
//! [`super::valu::fmin`] for `s_min_num_f32`). The transcendentals, computed by the vector
//! ALU, run under the default MODE only (the machine stops a vector float instruction under
//! another). None of these instructions touches SCC except the compares, which set it to the
//! condition; the transcendentals take the VOP3 source modifiers and `clamp`/`omod` as their
//! vector forms.

use gpuabi_amdgpu::output_mods::apply_f32;
use gpuabi_amdgpu::Opcode;

use super::float;
use super::float_mode::F32Mode;
use super::valu::{fmax, fmin};
use crate::image::{Decoded, Dst};
use crate::wave::Wave;

/// Runs `d` if it is one of this module's instructions; `false` otherwise.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    use Opcode::*;
    // Rows of RDNA 4 alone (the vector ALU asks for every instruction it runs).
    if !d.op.info().targets.contains(gpuabi_amdgpu::Target::Gfx12)
        || d.op.info().targets.contains(gpuabi_amdgpu::Target::Gfx1100)
    {
        return false;
    }
    let mode = F32Mode::of(w.mode);
    let (a_int, b_int) = (w.s32(d.src[0]), w.s32(d.src[1]));
    // Every other operand of these instructions is an f32.
    let a = mode.input(a_int);
    let b = mode.input(b_int);
    let f = f32::from_bits;
    let dst = d.dst[0];
    let ord = || f(a).partial_cmp(&f(b));
    match d.op {
        // S_ROUND_MODE / S_DENORM_MODE: MODE's FP_ROUND (3:0) / FP_DENORM (7:4) = SIMM16[3:0].
        SRoundMode => w.mode = (w.mode & !0xf) | (a_int & 0xf),
        SDenormMode => w.mode = (w.mode & !0xf0) | (a_int & 0xf) << 4,
        // S_GETREG_B32 of a field of MODE (the only register `check_inst` lets it read),
        // zero-extended.
        SGetregB32 => {
            let (_, offset, size) = super::float_mode::hwreg_field(a_int);
            let mask = ((1u64 << size) - 1) as u32;
            w.write_s32(dst, w.mode >> offset & mask);
        }
        SAddF32 => w.write_s32(dst, mode.add(a, b)),
        SSubF32 => w.write_s32(dst, mode.sub(a, b)),
        SMulF32 => w.write_s32(dst, mode.mul(a, b)),
        SMinNumF32 => w.write_s32(dst, fmin(f(a), f(b)).to_bits()),
        SMaxNumF32 => w.write_s32(dst, fmax(f(a), f(b)).to_bits()),
        // S_FMAC_F32: D = fma(S0, S1, D).
        SFmacF32 => {
            let d0 = match dst {
                Dst::Sgpr(i) => w.sgpr[i as usize],
                _ => 0,
            };
            w.write_s32(dst, mode.fma(a, b, d0));
        }
        // S_FMAAK_F32: D = fma(S0, S1, K); S_FMAMK_F32: D = fma(S0, K, S1) (K the literal).
        SFmaakF32 | SFmamkF32 => w.write_s32(dst, mode.fma(a, b, w.s32(d.src[2]))),
        SCvtF32I32 => w.write_s32(dst, mode.int_to_f32(i64::from(a_int as i32))),
        SCvtF32U32 => w.write_s32(dst, mode.int_to_f32(i64::from(a_int))),
        // As V_CVT_I32_F32/V_CVT_U32_F32 in the simulator: saturating, NaN gives 0.
        SCvtI32F32 => w.write_s32(dst, f(a) as i32 as u32),
        SCvtU32F32 => w.write_s32(dst, f(a) as u32),
        SCeilF32 => w.write_s32(dst, float::unary(a, f32::ceil)),
        SFloorF32 => w.write_s32(dst, float::unary(a, f32::floor)),
        STruncF32 => w.write_s32(dst, float::unary(a, f32::trunc)),
        SRndneF32 => w.write_s32(dst, float::unary(a, f32::round_ties_even)),
        // IEEE comparisons: `None` is unordered (a NaN), so the negated forms hold then.
        SCmpLtF32 => w.scc = matches!(ord(), Some(Less)),
        SCmpEqF32 => w.scc = matches!(ord(), Some(Equal)),
        SCmpLeF32 => w.scc = matches!(ord(), Some(Less | Equal)),
        SCmpGtF32 => w.scc = matches!(ord(), Some(Greater)),
        SCmpLgF32 => w.scc = matches!(ord(), Some(Less | Greater)),
        SCmpGeF32 => w.scc = matches!(ord(), Some(Greater | Equal)),
        SCmpOF32 => w.scc = ord().is_some(),
        SCmpUF32 => w.scc = ord().is_none(),
        SCmpNgeF32 => w.scc = !matches!(ord(), Some(Greater | Equal)),
        SCmpNlgF32 => w.scc = !matches!(ord(), Some(Less | Greater)),
        SCmpNgtF32 => w.scc = !matches!(ord(), Some(Greater)),
        SCmpNleF32 => w.scc = !matches!(ord(), Some(Less | Equal)),
        SCmpNeqF32 => w.scc = !matches!(ord(), Some(Equal)),
        SCmpNltF32 => w.scc = !matches!(ord(), Some(Less)),
        SAddNcU64 => w.write_s64(dst, w.s64(d.src[0]).wrapping_add(w.s64(d.src[1]))),
        SSubNcU64 => w.write_s64(dst, w.s64(d.src[0]).wrapping_sub(w.s64(d.src[1]))),
        SMulU64 => w.write_s64(dst, w.s64(d.src[0]).wrapping_mul(w.s64(d.src[1]))),
        VSExpF32 | VSLogF32 | VSRcpF32 | VSRsqF32 | VSSqrtF32 => {
            let x = d.src_mods.apply(0, a);
            let r = match d.op {
                VSExpF32 => float::unary(x, float::exp),
                VSLogF32 => float::unary(x, float::log),
                VSRcpF32 => float::unary(x, |v| 1.0 / v),
                VSRsqF32 => float::unary(x, float::rsq),
                _ => float::unary(x, f32::sqrt),
            };
            w.write_s32(dst, apply_f32(r, d.src_mods.omod, d.src_mods.clamp));
        }
        _ => return false,
    }
    true
}
