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

use super::float::{f16_from_f64, f16_to_f64, fma_to_odd};
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

/// A two-source f16 operation evaluated on the f64 values of its sources.
pub fn binary16(a: u16, b: u16, f: impl Fn(f64, f64) -> f64) -> u16 {
    round16(&[a, b], f(f16_to_f64(a), f16_to_f64(b)))
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
        (x * super::double::pow2(64), 64)
    } else {
        (x, 0)
    };
    let e = ((y.to_bits() >> 52) & 0x7ff) as i32 - 1022;
    (y * super::double::pow2(-e), e - bias)
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

/// `fma(a, b, c)` of f16 values with one rounding: the product is exact, the sum rounded to
/// odd in f64 (so that rounding it to f16 rounds the exact value once).
pub fn fma16(a: u16, b: u16, c: u16) -> u16 {
    let [x, y, z] = [a, b, c].map(|h| f16_to_f64(h) as f32);
    round16(&[a, b, c], fma_to_odd(x, y, z))
}

/// GCN 1.2's `v_mac_f16`/`v_madmk_f16`/`v_madak_f16`: `a * b` rounded to f16, then `+ c`
/// rounded, with denormal inputs and results flushed to zero of the same sign (LLVM selects
/// these only when f16 denormals are flushed, as for f32's `v_mad_f32`), under the NaN
/// rule.
pub fn mad16(a: u16, b: u16, c: u16) -> u16 {
    let flush = |h: u16| if h & 0x7c00 == 0 { h & 0x8000 } else { h };
    let [x, y, z] = [a, b, c].map(flush);
    let product = flush(binary16(x, y, |p, q| p * q));
    let sum = binary16(product, z, |p, q| p + q);
    if is_nan16(a) || is_nan16(b) || is_nan16(c) {
        // The NaN rule names the first NaN operand, flushed or not.
        return round16(&[a, b, c], f64::NAN);
    }
    if is_nan16(sum) {
        sum
    } else {
        flush(sum)
    }
}

/// `v_min_f16`/`v_max_f16` in IEEE mode, as the f32 forms (see `valu::fmin`): a signalling
/// NaN gives itself quieted (the first one first), a quiet NaN gives the other operand, and
/// -0 orders below +0.
pub fn min_max16(a: u16, b: u16, min: bool) -> u16 {
    let signalling = |x: u16| is_nan16(x) && x & QUIET16 == 0;
    if signalling(a) {
        return a | QUIET16;
    }
    if signalling(b) {
        return b | QUIET16;
    }
    if is_nan16(a) {
        return b;
    }
    if is_nan16(b) {
        return a;
    }
    let (x, y) = (f16_to_f64(a), f16_to_f64(b));
    let a_first = if x == y {
        (a & 0x8000 != 0) == min
    } else {
        (x < y) == min
    };
    if a_first {
        a
    } else {
        b
    }
}

/// `x` (f32 bits) rounded towards zero to f16 (`v_cvt_pkrtz_f16_f32`): an overflow gives the
/// largest finite f16, an infinity stays infinite, a NaN is quieted.
pub fn f32_bits_to_f16_rtz(x: u32) -> u16 {
    let f = f32::from_bits(x);
    if f.is_nan() || f.is_infinite() {
        return f32_bits_to_f16(x);
    }
    let sign = (x >> 16) as u16 & 0x8000;
    let a = f64::from(f.abs());
    if a < 2f64.powi(-14) {
        return sign | (a * 2f64.powi(24)).trunc() as u16;
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if e > 15 {
        return sign | 0x7bff;
    }
    let m = (a * 2f64.powi(10 - e)).trunc() as u16;
    sign | ((e + 15) as u16) << 10 | (m & 0x3ff)
}

/// `v_div_fixup_f16 D, S0, S1, S2` (S0 the quotient, S1 the denominator, S2 the
/// numerator): the special cases of IEEE division, after V_DIV_FIXUP_F16 of AMD's "RDNA3
/// ISA" guide (NaNs of S2 then S1 quieted, 0/0 and inf/inf 0xfe00, x/0 and inf/y an
/// infinity, x/inf and 0/y a zero, otherwise |S0| with the quotient's sign).
pub fn div_fixup16(s0: u16, s1: u16, s2: u16) -> u16 {
    let (den, num) = (f16_to_f64(s1), f16_to_f64(s2));
    let sign_out = (s1 ^ s2) & 0x8000;
    if is_nan16(s2) {
        s2 | QUIET16
    } else if is_nan16(s1) {
        s1 | QUIET16
    } else if (den == 0.0 && num == 0.0) || (den.is_infinite() && num.is_infinite()) {
        0xfe00
    } else if den == 0.0 || num.is_infinite() {
        sign_out | 0x7c00
    } else if den.is_infinite() || num == 0.0 {
        sign_out
    } else {
        sign_out | (s0 & 0x7fff)
    }
}

/// The median of three f16 values as V_MED3_F16 has it ("RDNA3 ISA", as V_MED3_F32): with a
/// NaN operand `min(min(a, b), c)`, otherwise the maximum of the two other than the
/// maximum of all three.
pub fn med3_16(a: u16, b: u16, c: u16) -> u16 {
    let (min, max) = (|x, y| min_max16(x, y, true), |x, y| min_max16(x, y, false));
    if is_nan16(a) || is_nan16(b) || is_nan16(c) {
        return min(min(a, b), c);
    }
    let m = max(max(a, b), c);
    if m == a {
        max(b, c)
    } else if m == b {
        max(a, c)
    } else {
        max(a, b)
    }
}

/// `v_dot2_f16_f16`'s sum: S0.f16[0] · S1.f16[0] + S0.f16[1] · S1.f16[1] + S2.f16. The
/// guide gives no precision; the project's model takes the products exactly, sums in f64
/// and rounds once to f16, under the NaN rule over the five halves in that order.
pub fn dot2_f16(a: u32, b: u32, c: u16) -> u16 {
    let halves = [a as u16, b as u16, (a >> 16) as u16, (b >> 16) as u16, c];
    let [x0, y0, x1, y1, z] = halves.map(f16_to_f64);
    round16(&halves, x0 * y0 + x1 * y1 + z)
}

/// The value of the bf16 `h` (its bits are an f32's top half).
pub fn bf16_to_f64(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// `x` rounded to the nearest bf16, ties to even (an f32 with 8 significand bits: the f32
/// denormals and exponent range), under the NaN rule with bf16's quiet bit (6).
pub fn bf16_from_f64(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7fc0;
    }
    let a = x.abs();
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if a.is_infinite() {
        return sign | 0x7f80;
    }
    // The bf16 grid: 2^(e - 7) for normal values of exponent e, 2^-133 below 2^-126.
    let e = if a < 2f64.powi(-126) {
        -126
    } else {
        ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
    };
    let ulp = 2f64.powi(e - 7);
    let rounded = (a / ulp).round_ties_even() * ulp;
    let bits = (rounded as f32).to_bits();
    if rounded >= 2f64.powi(128) {
        return sign | 0x7f80;
    }
    sign | (bits >> 16) as u16
}

/// RDNA 3's `v_dot2_bf16_bf16`: S0.bf16[0] · S1.bf16[0] + S0.bf16[1] · S1.bf16[1] +
/// S2.bf16, the products exact, summed in f64 and rounded once to bf16 (the project's
/// model, as for [`dot2_f16`]); a NaN operand gives the first one quieted.
pub fn dot2_bf16(a: u32, b: u32, c: u16) -> u16 {
    let halves = [a as u16, b as u16, (a >> 16) as u16, (b >> 16) as u16, c];
    if let Some(nan) = halves.iter().find(|h| *h & 0x7fff > 0x7f80) {
        return nan | 0x40;
    }
    let [x0, y0, x1, y1, z] = halves.map(bf16_to_f64);
    bf16_from_f64(x0 * y0 + x1 * y1 + z)
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
        // Two sources: "RDNA3 ISA" V_ADD_F16 ... V_LDEXP_F16 (D = S0 * 2^S1.i16).
        VAddF16 => map16_2(w, d, |a, b| binary16(a, b, |x, y| x + y)),
        VSubF16 => map16_2(w, d, |a, b| binary16(a, b, |x, y| x - y)),
        VSubrevF16 => map16_2(w, d, |a, b| binary16(a, b, |x, y| y - x)),
        VMulF16 => map16_2(w, d, |a, b| binary16(a, b, |x, y| x * y)),
        VMaxF16 => map16_2(w, d, |a, b| min_max16(a, b, false)),
        VMinF16 => map16_2(w, d, |a, b| min_max16(a, b, true)),
        VLdexpF16 => {
            let mut b: Lanes = [0; LANE_STRIDE];
            source(w, d, 1, &mut b);
            let mut a: Lanes = [0; LANE_STRIDE];
            source16(w, d, 0, &mut a);
            let n: [i32; LANE_STRIDE] = b.map(|v| i32::from(v as u16 as i16).clamp(-100, 100));
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    out[l] = u32::from(unary16(a[l] as u16, |x| x * 2f64.powi(n[l])))
                });
            }
        }
        // The 16-bit integer instructions wrap ("AMD GCN3 ISA" V_ADD_U16 ...).
        VAddU16 => map16_2(w, d, |a, b| a.wrapping_add(b)),
        VSubU16 => map16_2(w, d, |a, b| a.wrapping_sub(b)),
        VSubrevU16 => map16_2(w, d, |a, b| b.wrapping_sub(a)),
        VMulLoU16 => map16_2(w, d, |a, b| a.wrapping_mul(b)),
        VMaxU16 => map16_2(w, d, |a, b| a.max(b)),
        VMinU16 => map16_2(w, d, |a, b| a.min(b)),
        VMaxI16 => map16_2(w, d, |a, b| (a as i16).max(b as i16) as u16),
        VMinI16 => map16_2(w, d, |a, b| (a as i16).min(b as i16) as u16),
        // V_MAC_F16: D = S0 * S1 + D; V_MADMK_F16 D = S0 * K + S1 and V_MADAK_F16
        // D = S0 * S1 + K with K where the table puts it ("AMD GCN3 ISA"); the FMA forms of
        // RDNA likewise, fused.
        VMacF16 => map16_acc(w, d, mad16),
        VFmacF16 => map16_acc(w, d, fma16),
        VMadmkF16 | VMadakF16 => map16_3(w, d, mad16),
        VFmamkF16 | VFmaakF16 => map16_3(w, d, fma16),
        // V_PK_FMAC_F16: each half of D = fma of the halves of S0, S1 and D ("RDNA2 ISA").
        VPkFmacF16 => map_acc32(w, d, |a, b, c| {
            let lo = fma16(a as u16, b as u16, c as u16);
            let hi = fma16((a >> 16) as u16, (b >> 16) as u16, (c >> 16) as u16);
            u32::from(lo) | u32::from(hi) << 16
        }),
        // Three sources ("RDNA3 ISA" V_FMA_F16, V_DIV_FIXUP_F16, V_MIN3_F16 ...; GCN 1.2's
        // V_MAD_F16 rounds the product first, as V_MAC_F16).
        VFmaF16 => map16_3(w, d, fma16),
        VMadF16 => map16_3(w, d, mad16),
        VDivFixupF16 => map16_3(w, d, div_fixup16),
        VMin3F16 => map16_3(w, d, |a, b, c| min_max16(min_max16(a, b, true), c, true)),
        VMax3F16 => map16_3(w, d, |a, b, c| min_max16(min_max16(a, b, false), c, false)),
        VMed3F16 => map16_3(w, d, med3_16),
        // V_MAXMIN_F16: min(max(S0, S1), S2); V_MINMAX_F16 the other way round.
        VMaxminF16 => map16_3(w, d, |a, b, c| min_max16(min_max16(a, b, false), c, true)),
        VMinmaxF16 => map16_3(w, d, |a, b, c| min_max16(min_max16(a, b, true), c, false)),
        // V_CNDMASK_B16: D = the lane's mask bit ? S1 : S0.
        VCndmaskB16 => {
            let mask = w.mask(d.src[2]);
            let mut a: Lanes = [0; LANE_STRIDE];
            let mut b: Lanes = [0; LANE_STRIDE];
            source16(w, d, 0, &mut a);
            source16(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    out[l] = if mask >> l & 1 != 0 { b[l] } else { a[l] } & 0xffff
                });
            }
        }
        VDot2F16F16 => map3_32(w, d, |a, b, c| u32::from(dot2_f16(a, b, c as u16))),
        VDot2Bf16Bf16 => map3_32(w, d, |a, b, c| u32::from(dot2_bf16(a, b, c as u16))),
        // 16-bit integers: V_MAD_U16/I16 D = S0 * S1 + S2 (the low 16 bits), the adds and
        // subtractions wrap, V_MED3_I16/U16 as V_MED3_I32.
        VMadU16 | VMadI16 => map16_3(w, d, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
        VAddNcI16 => map16_2(w, d, |a, b| a.wrapping_add(b)),
        VSubNcI16 => map16_2(w, d, |a, b| a.wrapping_sub(b)),
        VMin3I16 => map16_3(w, d, |a, b, c| {
            (a as i16).min(b as i16).min(c as i16) as u16
        }),
        VMax3I16 => map16_3(w, d, |a, b, c| {
            (a as i16).max(b as i16).max(c as i16) as u16
        }),
        VMin3U16 => map16_3(w, d, |a, b, c| a.min(b).min(c)),
        VMax3U16 => map16_3(w, d, |a, b, c| a.max(b).max(c)),
        VMed3I16 => map16_3(w, d, |a, b, c| {
            super::valu::med3(a as i16, b as i16, c as i16) as u16
        }),
        VMed3U16 => map16_3(w, d, super::valu::med3),
        VAndB16 => map16_2(w, d, |a, b| a & b),
        VOrB16 => map16_2(w, d, |a, b| a | b),
        VXorB16 => map16_2(w, d, |a, b| a ^ b),
        // V_MAD_U32_U16 / V_MAD_I32_I16: D.32 = S0.16 * S1.16 + S2.32 ("RDNA2 ISA").
        VMadU32U16 => map3_32(w, d, |a, b, c| {
            (a & 0xffff).wrapping_mul(b & 0xffff).wrapping_add(c)
        }),
        VMadI32I16 => map3_32(w, d, |a, b, c| {
            let (x, y) = (i32::from(a as u16 as i16), i32::from(b as u16 as i16));
            x.wrapping_mul(y).wrapping_add(c as i32) as u32
        }),
        // V_CVT_PKNORM_I16_F16 / U16: D = {norm(S1), norm(S0)}; V_PACK_B32_F16: D = {S1,
        // S0} ("RDNA2 ISA").
        VCvtPknormI16F16 | VCvtPknormU16F16 => map16_2_32(w, d, |a, b| {
            let signed = d.op == VCvtPknormI16F16;
            let n = |h: u16| u32::from(to_norm16(f16_to_f64(h), signed));
            n(a) | n(b) << 16
        }),
        VPackB32F16 => map16_2_32(w, d, |a, b| u32::from(a) | u32::from(b) << 16),
        // V_DOT2C_F32_F16 (RDNA 3's V_DOT2ACC_F32_F16): D = S0.f16[0] * S1.f16[0] +
        // S0.f16[1] * S1.f16[1] + D.f32. The guides give no precision; the project's model
        // takes the products exactly, sums them with D in f64 and rounds once to f32.
        VDot2cF32F16 => map_acc32(w, d, dot2_f32_f16),
        // V_CVT_PKRTZ_F16_F32: D = {rtz_f16(S1), rtz_f16(S0)} ("RDNA2 ISA").
        VCvtPkrtzF16F32 => {
            let mut a: Lanes = [0; LANE_STRIDE];
            let mut b: Lanes = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    out[l] = u32::from(f32_bits_to_f16_rtz(a[l]))
                        | u32::from(f32_bits_to_f16_rtz(b[l])) << 16
                });
            }
        }
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

/// `v_dot2c_f32_f16`'s sum (see its entry in [`exec`]) under the NaN rules: the first NaN
/// of S0.f16[0], S1.f16[0], S0.f16[1], S1.f16[1] and D, quieted.
pub fn dot2_f32_f16(a: u32, b: u32, acc: u32) -> u32 {
    let halves = [a as u16, b as u16, (a >> 16) as u16, (b >> 16) as u16];
    if let Some(nan) = halves.iter().find(|h| is_nan16(**h)) {
        return f16_to_f32_bits(*nan);
    }
    let [x0, y0, x1, y1] = halves.map(f16_to_f64);
    let sum = x0 * y0 + x1 * y1 + f64::from(f32::from_bits(acc));
    super::float::arith(&[acc], sum as f32)
}

/// Two 16-bit sources (f16 modifiers where the row takes them) to a 16-bit result.
fn map16_2(w: &mut Wave, d: &Decoded, f: impl Fn(u16, u16) -> u16) {
    let mut a: Lanes = [0; LANE_STRIDE];
    let mut b: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    source16(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| {
            out[l] = u32::from(f(a[l] as u16, b[l] as u16))
        });
    }
}

/// Three f16 sources (the third a VGPR or the constant K) to a 16-bit result.
fn map16_3(w: &mut Wave, d: &Decoded, f: impl Fn(u16, u16, u16) -> u16) {
    let mut a: Lanes = [0; LANE_STRIDE];
    let mut b: Lanes = [0; LANE_STRIDE];
    let mut c: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    source16(w, d, 1, &mut b);
    source16(w, d, 2, &mut c);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| {
            out[l] = u32::from(f(a[l] as u16, b[l] as u16, c[l] as u16))
        });
    }
}

/// Three sources (f16 modifiers where the row takes them) to a 32-bit result.
fn map3_32(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32, u32) -> u32) {
    let mut a: Lanes = [0; LANE_STRIDE];
    let mut b: Lanes = [0; LANE_STRIDE];
    let mut c: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    source16(w, d, 1, &mut b);
    source16(w, d, 2, &mut c);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l], b[l], c[l]));
    }
}

/// Two 16-bit sources (f16 modifiers) to a 32-bit result.
fn map16_2_32(w: &mut Wave, d: &Decoded, f: impl Fn(u16, u16) -> u32) {
    let mut a: Lanes = [0; LANE_STRIDE];
    let mut b: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    source16(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l] as u16, b[l] as u16));
    }
}

/// Two f16 sources and the destination's bits 15:0 to a 16-bit result.
fn map16_acc(w: &mut Wave, d: &Decoded, f: impl Fn(u16, u16, u16) -> u16) {
    map_acc32(w, d, |a, b, c| u32::from(f(a as u16, b as u16, c as u16)))
}

/// Two sources (f16 modifiers) and the destination to a 32-bit result.
fn map_acc32(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32, u32) -> u32) {
    let mut a: Lanes = [0; LANE_STRIDE];
    let mut b: Lanes = [0; LANE_STRIDE];
    source16(w, d, 0, &mut a);
    source16(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l], b[l], out[l]));
    }
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
        assert_eq!(
            frexp(f64::MAX),
            (f64::MAX / 2f64.powi(1000) / 2f64.powi(24), 1024)
        );
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
