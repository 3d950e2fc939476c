//! The 16-bit vector ALU: f16 arithmetic and conversions, and the i16/u16 instructions.
//! Each computes its 16-bit result into bits 15:0 of the destination; which bits of the
//! register it keeps is the caller's (GCN 1.2 zeroes bits 31:16, RDNA keeps them: see
//! `gpuabi_amdgpu::OpInfo::half_dst`). Sources are their bits 15:0, with f16 `neg`/`abs` on
//! bit 15.
//!
//! The f16 rules, the project's model as for f32 (see [`super::float`]):
//! - f16 denormals are kept as inputs and results (the mode llc-19's kernels declare for
//!   f16 and f64).
//! - NaN results: the first NaN operand with its quiet bit (9) set, otherwise the default
//!   NaN `0x7e00`.
//! - Arithmetic is computed exactly (f16 values are exact in f64, and so are the sums and
//!   products of two of them) or in f64, then rounded once to f16, to nearest even:
//!   correctly rounded for the IEEE operations; `v_rcp_f16`, `v_sqrt_f16`, `v_rsq_f16`,
//!   `v_exp_f16` (2^x), `v_log_f16` (log2 x; -inf for ±0, NaN for negatives), `v_sin_f16`
//!   and `v_cos_f16` (of revolutions, as the f32 forms) are evaluated in f64 and rounded
//!   once, where the hardware is within about 1 ulp.

use gpuabi_amdgpu::Opcode;

use super::float::{f16_from_f64, f16_to_f64};
use super::valu::{for_active, source, source16, Lanes};
use crate::image::{Decoded, Dst};
use crate::wave::{Wave, LANE_STRIDE};

/// The default NaN of f16 results.
pub const DEFAULT_NAN16: u16 = 0x7e00;
const QUIET16: u16 = 0x0200;

/// Whether the f16 `x` is a NaN.
pub fn is_nan16(x: u16) -> bool {
    x & 0x7fff > 0x7c00
}

/// The f16 result of an operation on `inputs` that computed `result` (in f64, rounded
/// here), after the NaN rule of the module documentation.
pub fn round16(inputs: &[u16], result: f64) -> u16 {
    if let Some(nan) = inputs.iter().find(|x| is_nan16(**x)) {
        return nan | QUIET16;
    }
    if result.is_nan() {
        DEFAULT_NAN16
    } else {
        f16_from_f64(result)
    }
}

/// A one-source f16 operation evaluated on the f64 value of its source.
pub fn unary16(a: u16, f: impl Fn(f64) -> f64) -> u16 {
    round16(&[a], f(f16_to_f64(a)))
}

/// `x` as an f32 bit pattern: exact; a NaN keeps its payload's top bits and is quieted.
pub fn f16_to_f32_bits(x: u16) -> u32 {
    if is_nan16(x) {
        return u32::from(x & 0x8000) << 16 | 0x7fc0_0000 | u32::from(x & 0x1ff) << 13;
    }
    (f16_to_f64(x) as f32).to_bits()
}

/// `x` (an f32 bit pattern) rounded to f16, ties to even; a NaN is quieted.
pub fn f32_bits_to_f16(x: u32) -> u16 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return (x >> 16) as u16 & 0x8000 | 0x7e00 | (x >> 13) as u16 & 0x1ff;
    }
    f16_from_f64(f64::from(f))
}

/// `frexp`'s parts of `x`: the significand in [0.5, 1) with the sign of `x`, and the
/// exponent; ±0 is (±0, 0). Infinities and NaNs are the callers'.
pub fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    // Normalise denormals first so that the exponent field is meaningful.
    let (y, bias) = if x.is_subnormal() {
        (x * 2f64.powi(64), 64)
    } else {
        (x, 0)
    };
    let e = ((y.to_bits() >> 52) & 0x7ff) as i32 - 1022;
    (y * 2f64.powi(-e), e - bias)
}

/// The fraction of a revolution `t` in [-0.5, 0.5] (as the f32 `v_sin_f32` takes it).
fn revolution(t: f64) -> f64 {
    t - t.round_ties_even()
}

/// A float in [-1, 1] or [0, 1] (`signed`) to a 16-bit normalised integer: clamped, scaled
/// by 32767 or 65535 and rounded to nearest even; NaN gives 0. AMD's guides write only
/// `flt16_to_snorm`/`flt16_to_unorm` (V_CVT_NORM_I16_F16, "RDNA2 ISA"); the project follows
/// the float-to-normalised conversion of Direct3D 11, which those formats come from.
pub fn to_norm16(x: f64, signed: bool) -> u16 {
    if x.is_nan() {
        return 0;
    }
    if signed {
        (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
    } else {
        (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
    }
}

/// Runs `d` if it is a 16-bit instruction of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use Opcode::*;
    let f1 = |f: fn(f64) -> f64| move |a: u32| u32::from(unary16(a as u16, f));
    match d.op {
        // "RDNA3 ISA" V_RCP_F16, V_SQRT_F16, V_RSQ_F16, V_LOG_F16, V_EXP_F16.
        VRcpF16 => map16(w, d, f1(|x| 1.0 / x)),
        VSqrtF16 => map16(w, d, f1(f64::sqrt)),
        VRsqF16 => map16(w, d, f1(|x| 1.0 / x.sqrt())),
        VLogF16 => map16(w, d, f1(log2)),
        VExpF16 => map16(w, d, f1(f64::exp2)),
        VFloorF16 => map16(w, d, f1(f64::floor)),
        VCeilF16 => map16(w, d, f1(f64::ceil)),
        VTruncF16 => map16(w, d, f1(f64::trunc)),
        VRndneF16 => map16(w, d, f1(f64::round_ties_even)),
        VSinF16 => map16(
            w,
            d,
            f1(|t| {
                if t.is_infinite() {
                    f64::NAN
                } else {
                    (revolution(t) * std::f64::consts::TAU).sin()
                }
            }),
        ),
        VCosF16 => map16(
            w,
            d,
            f1(|t| {
                if t.is_infinite() {
                    f64::NAN
                } else {
                    (revolution(t) * std::f64::consts::TAU).cos()
                }
            }),
        ),
        // V_FRACT_F16: S0 - floor(S0) rounded to f16, then below 1.0 (the largest f16
        // below 1 is 0x3bff), as V_FRACT_F32; infinities give NaN.
        VFractF16 => map16(w, d, |a| {
            let r = unary16(a as u16, |x| {
                if x.is_infinite() {
                    f64::NAN
                } else {
                    x - x.floor()
                }
            });
            u32::from(if !is_nan16(r) && r >= 0x3c00 {
                0x3bff
            } else {
                r
            })
        }),
        // V_FREXP_MANT_F16: the significand in [0.5, 1), ±inf and NaN as they are (the
        // NaN quieted); V_FREXP_EXP_I16_F16: the exponent, 0 for ±inf and NaN ("RDNA3
        // ISA").
        VFrexpMantF16 => map16(w, d, f1(|x| frexp(x).0)),
        VFrexpExpI16F16 => map16(w, d, |a| {
            let x = f16_to_f64(a as u16);
            u32::from(frexp(x).1 as i16 as u16)
        }),
        VCvtF16F32 => map32(w, d, |a| u32::from(f32_bits_to_f16(a))),
        VCvtF32F16 => map16(w, d, |a| f16_to_f32_bits(a as u16)),
        VCvtF16U16 => map16(w, d, |a| u32::from(f16_from_f64(f64::from(a as u16)))),
        VCvtF16I16 => map16(w, d, |a| u32::from(f16_from_f64(f64::from(a as i16)))),
        // Truncated towards zero, saturated, NaN giving 0 (Rust's `as` is the rule).
        VCvtU16F16 => map16(w, d, |a| u32::from(f16_to_f64(a as u16) as u16)),
        VCvtI16F16 => map16(w, d, |a| u32::from(f16_to_f64(a as u16) as i16 as u16)),
        VCvtNormI16F16 => map16(w, d, |a| u32::from(to_norm16(f16_to_f64(a as u16), true))),
        VCvtNormU16F16 => map16(w, d, |a| u32::from(to_norm16(f16_to_f64(a as u16), false))),
        // V_SAT_PK_U8_I16: the two signed halves of S0 saturated to 0..255, packed into
        // D[15:0] ("RDNA2 ISA").
        VSatPkU8I16 => map32(w, d, |a| {
            let sat = |h: u32| u32::from((h as u16 as i16).clamp(0, 255) as u8);
            sat(a) | sat(a >> 16) << 8
        }),
        VCvtI32I16 => map32(w, d, |a| a as u16 as i16 as i32 as u32),
        VNotB16 => map32(w, d, |a| !a & 0xffff),
        _ => return false,
    }
    true
}

/// `log2` as V_LOG_F16 and V_LOG_F32 have it: -inf for ±0, NaN for negative numbers.
fn log2(x: f64) -> f64 {
    if x == 0.0 {
        f64::NEG_INFINITY
    } else if x < 0.0 {
        f64::NAN
    } else {
        x.log2()
    }
}

/// One f16 source (f16 modifiers) to a result in the active lanes.
fn map16(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u32) {
    let mut a: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    write(w, d, &a, f);
}

/// One 32-bit source (f32 modifiers) to a result in the active lanes.
fn map32(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u32) {
    let mut a: Lanes = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    write(w, d, &a, f);
}

fn write(w: &mut Wave, d: &Decoded, a: &Lanes, f: impl Fn(u32) -> u32) {
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frexp_parts() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-0.75), (-0.75, 0));
        assert_eq!(frexp(2f64.powi(-1074)), (0.5, -1073));
        assert_eq!(frexp(-0.0).1, 0);
    }

    #[test]
    fn norm16() {
        assert_eq!(to_norm16(1.5, true), 0x7fff);
        assert_eq!(to_norm16(-1.0, true), 0x8001);
        assert_eq!(
            to_norm16(0.5, false),
            0x8000,
            "32767.5 rounds to even 32768"
        );
        assert_eq!(to_norm16(f64::NAN, false), 0);
    }
}
