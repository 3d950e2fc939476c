//! The f64 vector ALU: arithmetic on VGPR pairs (or 64-bit scalars and constants) and the
//! conversions to and from f64. Sources take f64 `neg`/`abs` on bit 63.
//!
//! The f64 rules, the project's model as for f32 (see [`super::float`]):
//! - f64 denormals are kept as inputs and results.
//! - NaN results: the first NaN operand with its quiet bit (51) set, otherwise the default
//!   NaN `0x7ff8000000000000`.
//! - The IEEE operations are correctly rounded (Rust's f64 arithmetic is IEEE's);
//!   `v_rcp_f64` and `v_sqrt_f64` are too, `v_rsq_f64` is `1 / sqrt(x)` with two roundings,
//!   where the hardware's are approximations within about 1 ulp.

use gpuabi_amdgpu::Opcode;

use super::half::frexp;
use super::valu::{for_active, source, source64, Lanes};
use crate::image::{Decoded, Dst};
use crate::wave::{Wave, LANE_STRIDE};

/// The default NaN of f64 results.
pub const DEFAULT_NAN64: u64 = 0x7ff8_0000_0000_0000;
const QUIET64: u64 = 1 << 51;

fn is_nan64(x: u64) -> bool {
    x & !(1 << 63) > 0x7ff0_0000_0000_0000
}

/// The result bits of an f64 operation on `inputs` that computed `result`, after the NaN
/// rule of the module documentation.
pub fn arith64(inputs: &[u64], result: f64) -> u64 {
    if let Some(nan) = inputs.iter().find(|x| is_nan64(**x)) {
        return nan | QUIET64;
    }
    if result.is_nan() {
        DEFAULT_NAN64
    } else {
        result.to_bits()
    }
}

/// A one-source f64 operation under the NaN rule.
pub fn unary64(a: u64, f: impl Fn(f64) -> f64) -> u64 {
    arith64(&[a], f(f64::from_bits(a)))
}

/// `x` (f64 bits) rounded to f32, ties to even (Rust's `as`); a NaN keeps its payload's
/// top bits and is quieted.
pub fn f64_to_f32_bits(x: u64) -> u32 {
    if is_nan64(x) {
        return (x >> 32) as u32 & 0x8000_0000 | 0x7fc0_0000 | (x >> 29) as u32 & 0x3f_ffff;
    }
    (f64::from_bits(x) as f32).to_bits()
}

/// `x` (f32 bits) as f64 bits: exact; a NaN keeps its payload and is quieted.
pub fn f32_to_f64_bits(x: u32) -> u64 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return u64::from(x & 0x8000_0000) << 32
            | 0x7ff8_0000_0000_0000
            | u64::from(x & 0x3f_ffff) << 29;
    }
    f64::from(f).to_bits()
}

/// V_FRACT_F64: `x - floor(x)`, below 1.0 (the largest f64 below 1 is 0x3fefffffffffffff,
/// as V_FRACT_F32 clamps); infinities give NaN.
pub fn fract64(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}

/// 2^n exactly, for n from -1074 (the smallest denormal) to 1023; 0 below, inf above.
/// (`f64::powi` may overflow in between for large negative `n`.)
pub fn pow2(n: i32) -> f64 {
    match n {
        -1022..=1023 => f64::from_bits(((n + 1023) as u64) << 52),
        -1074..=-1023 => f64::from_bits(1u64 << (n + 1074)),
        n if n < 0 => 0.0,
        _ => f64::INFINITY,
    }
}

/// A two-source f64 operation under the NaN rule.
pub fn binary64(a: u64, b: u64, f: impl Fn(f64, f64) -> f64) -> u64 {
    arith64(&[a, b], f(f64::from_bits(a), f64::from_bits(b)))
}

/// `fma(a, b, c)` with one rounding, under the NaN rule.
pub fn fma64(a: u64, b: u64, c: u64) -> u64 {
    let [x, y, z] = [a, b, c].map(f64::from_bits);
    arith64(&[a, b, c], x.mul_add(y, z))
}

/// `v_min_f64`/`v_max_f64` in IEEE mode, as the f32 forms (see `valu::fmin`): a
/// signalling NaN gives itself quieted (the first one first), a quiet NaN gives the other
/// operand, and -0 orders below +0.
pub fn min_max64(a: u64, b: u64, min: bool) -> u64 {
    let signalling = |x: u64| is_nan64(x) && x & QUIET64 == 0;
    if signalling(a) {
        return a | QUIET64;
    }
    if signalling(b) {
        return b | QUIET64;
    }
    if is_nan64(a) {
        return b;
    }
    if is_nan64(b) {
        return a;
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let a_first = if x == y {
        (a >> 63 == 1) == min
    } else {
        (x < y) == min
    };
    if a_first {
        a
    } else {
        b
    }
}

/// `x · 2^n` rounded once (V_LDEXP_F64): the significand is scaled into place in one
/// multiplication by a power of two, which is exact unless the result is a denormal, where
/// it rounds once.
pub fn ldexp64(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let (m, e) = frexp(x);
    // x = m · 2^e with 0.5 <= |m| < 1; the result's exponent is e + n.
    let t = i64::from(e) + i64::from(n);
    if t > 1024 {
        return f64::INFINITY.copysign(x);
    }
    if t < -1075 {
        return 0.0f64.copysign(x);
    }
    let t = t as i32;
    // 2^t for t down to -1074 is exact; m · 2^1024 = (2m) · 2^1023, m · 2^-1075 =
    // (m / 2) · 2^-1074, each halving or doubling of m exact.
    if t == 1024 {
        (m * 2.0) * pow2(1023)
    } else if t == -1075 {
        (m * 0.5) * pow2(-1074)
    } else {
        m * pow2(t)
    }
}

/// The biased exponent field of `x` (0 for zeros and denormals, 2047 for infinities and
/// NaNs).
fn exponent64(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32
}

fn is_denorm64(x: f64) -> bool {
    x != 0.0 && x.is_subnormal()
}

/// `v_div_scale_f64 D, VCC, S0, S1, S2` (S1 the denominator, S2 the numerator, S0 the one
/// of them to scale): the scaled value and the lane's VCC bit, after V_DIV_SCALE_F64 of AMD's
/// "RDNA3 ISA" and "AMD GCN3 ISA" guides, with the reading of V_DIV_SCALE_F32 in
/// [`super::float::div_scale`] (a denominator whose inverse and quotient are both denormal
/// is scaled down, not up). Where the pseudocode assigns D nothing, D is S0.
pub fn div_scale64(s0: f64, s1: f64, s2: f64) -> (u64, bool) {
    let mut d = s0;
    let mut vcc = false;
    let inverse_is_denorm = |x: f64| {
        let inv = (1.0 / x).abs();
        inv != 0.0 && inv < f64::MIN_POSITIVE
    };
    if s2 == 0.0 || s1 == 0.0 {
        return (DEFAULT_NAN64, false);
    } else if exponent64(s2) - exponent64(s1) >= 768 {
        // N/D near the largest f64: only the denominator is scaled.
        vcc = true;
        if s0 == s1 {
            d = ldexp64(s0, 128);
        }
    } else if is_denorm64(s1) {
        d = ldexp64(s0, 128);
    } else if inverse_is_denorm(s1) && is_denorm64(s2 / s1) {
        vcc = true;
        if s0 == s1 {
            d = ldexp64(s0, -128);
        }
    } else if inverse_is_denorm(s1) {
        d = ldexp64(s0, -128);
    } else if is_denorm64(s2 / s1) {
        vcc = true;
        if s0 == s2 {
            d = ldexp64(s0, 128);
        }
    } else if exponent64(s2) <= 53 {
        // The numerator is tiny.
        d = ldexp64(s0, 128);
    }
    (arith64(&[s0.to_bits(), s1.to_bits(), s2.to_bits()], d), vcc)
}

/// `v_div_fmas_f64`: `fma(S0, S1, S2)`, and in lanes whose VCC bit `v_div_scale_f64` set,
/// scaled by 2^128 when S2 (the scaled quotient) is at least 2 and by 2^-128 otherwise,
/// after V_DIV_FMAS_F64 of AMD's "RDNA3 ISA" (as `float::div_fmas` for f32). The scaling is
/// exact unless the scaled result is a denormal, where it rounds a second time.
pub fn div_fmas64(s0: u64, s1: u64, s2: u64, vcc: bool) -> u64 {
    let r = fma64(s0, s1, s2);
    if !vcc || is_nan64(r) {
        return r;
    }
    let scale = if exponent64(f64::from_bits(s2)) >= 1024 {
        128
    } else {
        -128
    };
    arith64(&[s0, s1, s2], ldexp64(f64::from_bits(r), scale))
}

/// `v_div_fixup_f64 D, S0, S1, S2` (S0 the quotient, S1 the denominator, S2 the numerator):
/// the special cases of IEEE division, after V_DIV_FIXUP_F64 of AMD's "RDNA3 ISA" and "AMD
/// GCN3 ISA" guides, read as `float::div_fixup` reads V_DIV_FIXUP_F32.
pub fn div_fixup64(s0: u64, s1: u64, s2: u64) -> u64 {
    let (q, den, num) = (f64::from_bits(s0), f64::from_bits(s1), f64::from_bits(s2));
    let sign_out = (s1 ^ s2) & (1 << 63);
    let signed = |magnitude: u64| magnitude | sign_out;
    if is_nan64(s2) {
        s2 | QUIET64
    } else if is_nan64(s1) {
        s1 | QUIET64
    } else if (den == 0.0 && num == 0.0) || (den.is_infinite() && num.is_infinite()) {
        0xfff8_0000_0000_0000
    } else if den == 0.0 || num.is_infinite() {
        signed(0x7ff0_0000_0000_0000)
    } else if den.is_infinite() || num == 0.0 {
        signed(0)
    } else if exponent64(num) - exponent64(den) < -1075 {
        // Underflow: below half the smallest denormal, rounds to zero.
        signed(0)
    } else if exponent64(q) == 2047 {
        // The quotient overflowed in the scaled computation (see `float::div_fixup`).
        signed(0x7ff0_0000_0000_0000)
    } else {
        signed(q.abs().to_bits())
    }
}

/// The 1201 fraction bits of 2/π, from the most significant: 2/π = 0.{b1200 ... b0}, left
/// aligned in 19 words (the last 15 bits zero); computed to 1400 bits with Machin's formula.
const TWO_OVER_PI: [u64; 19] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b0000,
];

/// 53 bits of 2/π from the `from`-th fraction bit on (bit `from` of the fraction the most
/// significant), as an integer; bits past the 1201 of the table are 0.
fn two_over_pi_bits(from: u32) -> u64 {
    let bit = |i: u32| -> u64 {
        if i >= 1201 {
            return 0;
        }
        TWO_OVER_PI[(i / 64) as usize] >> (63 - i % 64) & 1
    };
    (from..from + 53).fold(0u64, |acc, i| acc << 1 | bit(i))
}

/// V_TRIG_PREOP_F64 ("AMD GCN3 ISA", "RDNA3 ISA"): segment S1[4:0] of 53 bits of 2/π,
/// aligned for the range reduction of S0: shift = 53 · S1[4:0], plus exponent(S0) - 1077
/// when the biased exponent is above 1077; the bits of 2/π from the shift-th on, scaled by
/// 2^(-53 - shift), and by 2^128 more when exponent(S0) >= 1968; rounded towards zero.
pub fn trig_preop(s0: u64, s1: u32) -> u64 {
    let e = ((s0 >> 52) & 0x7ff) as u32;
    let mut shift = (s1 & 31) * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let segment = two_over_pi_bits(shift);
    let mut scale = -53 - shift as i32;
    if e >= 1968 {
        scale += 128;
    }
    if segment == 0 {
        return 0;
    }
    let top = 63 - segment.leading_zeros() as i32;
    if top + scale >= -1022 {
        // A normal number: the 53-bit segment times a power of two, exact.
        return ldexp64(segment as f64, scale).to_bits();
    }
    // A denormal: keep the bits at or above 2^-1074, the rest truncated.
    match -1074 - scale {
        drop if drop >= 64 => 0,
        drop if drop >= 0 => segment >> drop,
        // Fewer than 53 significant bits whose lowest lies above 2^-1074: exact.
        drop => segment << -drop,
    }
}

/// Runs `d` if it is an f64 instruction of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use Opcode::*;
    let f1 = |f: fn(f64) -> f64| move |a: u64| unary64(a, f);
    match d.op {
        // "RDNA3 ISA" V_RCP_F64, V_RSQ_F64, V_SQRT_F64, V_FLOOR_F64 ...
        VRcpF64 => map64(w, d, f1(|x| 1.0 / x)),
        VRsqF64 => map64(w, d, f1(|x| 1.0 / x.sqrt())),
        VSqrtF64 => map64(w, d, f1(f64::sqrt)),
        VFloorF64 => map64(w, d, f1(f64::floor)),
        VCeilF64 => map64(w, d, f1(f64::ceil)),
        VTruncF64 => map64(w, d, f1(f64::trunc)),
        VRndneF64 => map64(w, d, f1(f64::round_ties_even)),
        VFractF64 => map64(w, d, f1(fract64)),
        // V_FREXP_MANT_F64: the significand in [0.5, 1), ±inf and NaN as they are;
        // V_FREXP_EXP_I32_F64: the exponent, 0 for ±inf and NaN ("RDNA3 ISA").
        VFrexpMantF64 => map64(w, d, f1(|x| frexp(x).0)),
        VFrexpExpI32F64 => map64_to32(w, d, |a| frexp(f64::from_bits(a)).1 as u32),
        VCvtF32F64 => map64_to32(w, d, f64_to_f32_bits),
        // Truncated towards zero, saturated, NaN giving 0 (Rust's `as` is the rule).
        VCvtI32F64 => map64_to32(w, d, |a| f64::from_bits(a) as i32 as u32),
        VCvtU32F64 => map64_to32(w, d, |a| f64::from_bits(a) as u32),
        VCvtF64F32 => map32_to64(w, d, f32_to_f64_bits),
        VCvtF64I32 => map32_to64(w, d, |a| f64::from(a as i32).to_bits()),
        VCvtF64U32 => map32_to64(w, d, |a| f64::from(a).to_bits()),
        // "RDNA3 ISA" V_ADD_F64, V_MUL_F64, V_MIN_F64, V_MAX_F64 (IEEE mode), V_FMA_F64.
        VAddF64 => map64_2(w, d, true, |a, b| binary64(a, b, |x, y| x + y)),
        VMulF64 => map64_2(w, d, true, |a, b| binary64(a, b, |x, y| x * y)),
        VMinF64 => map64_2(w, d, true, |a, b| min_max64(a, b, true)),
        VMaxF64 => map64_2(w, d, true, |a, b| min_max64(a, b, false)),
        VFmaF64 => map64_3(w, d, fma64),
        VDivFixupF64 => map64_3(w, d, div_fixup64),
        // V_LDEXP_F64: S0 · 2^S1.i32; V_TRIG_PREOP_F64 (see [`trig_preop`]).
        VLdexpF64 => map64_2(w, d, false, |a, b| {
            unary64(a, |x| ldexp64(x, b as u32 as i32))
        }),
        VTrigPreopF64 => map64_2(w, d, false, |a, b| {
            if is_nan64(a) {
                a | QUIET64
            } else {
                trig_preop(a, b as u32)
            }
        }),
        VDivFmasF64 => {
            let vcc = w.vcc();
            let mut a = [0u64; LANE_STRIDE];
            let mut b = [0u64; LANE_STRIDE];
            let mut c = [0u64; LANE_STRIDE];
            source64(w, d, 0, true, &mut a);
            source64(w, d, 1, true, &mut b);
            source64(w, d, 2, true, &mut c);
            let mut r = [0u64; LANE_STRIDE];
            for_active(w.exec(), w.lanes(), |l| {
                r[l] = div_fmas64(a[l], b[l], c[l], vcc >> l & 1 != 0)
            });
            write64(w, d, &r);
        }
        VDivScaleF64 => {
            let mut a = [0u64; LANE_STRIDE];
            let mut b = [0u64; LANE_STRIDE];
            let mut c = [0u64; LANE_STRIDE];
            source64(w, d, 0, true, &mut a);
            source64(w, d, 1, true, &mut b);
            source64(w, d, 2, true, &mut c);
            let mut r = [0u64; LANE_STRIDE];
            let mut mask = 0u64;
            for_active(w.exec(), w.lanes(), |l| {
                let [x, y, z] = [a[l], b[l], c[l]].map(f64::from_bits);
                let (v, vcc) = div_scale64(x, y, z);
                r[l] = v;
                mask |= u64::from(vcc) << l;
            });
            write64(w, d, &r);
            w.write_mask(d.dst[1], mask);
        }
        _ => return false,
    }
    true
}

/// Writes the 64-bit `results` of the active lanes to the destination pair.
pub(super) fn write64(w: &mut Wave, d: &Decoded, results: &[u64; LANE_STRIDE]) {
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        for_active(exec, lanes, |l| {
            w.set_v(r, l, results[l] as u32);
            w.set_v(r + 1, l, (results[l] >> 32) as u32);
        });
    }
}

/// One f64 source to an f64 result.
fn map64(w: &mut Wave, d: &Decoded, f: impl Fn(u64) -> u64) {
    let mut a = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l]));
    write64(w, d, &r);
}

/// Two sources to an f64 result: source 0 an f64, source 1 an f64 (`f64_src1`, its value
/// in the low bits otherwise: a 32-bit integer).
fn map64_2(w: &mut Wave, d: &Decoded, f64_src1: bool, f: impl Fn(u64, u64) -> u64) {
    let mut a = [0u64; LANE_STRIDE];
    let mut b = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    if f64_src1 {
        source64(w, d, 1, true, &mut b);
    } else {
        let mut lo: Lanes = [0; LANE_STRIDE];
        source(w, d, 1, &mut lo);
        b = lo.map(u64::from);
    }
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l], b[l]));
    write64(w, d, &r);
}

/// Three f64 sources to an f64 result.
fn map64_3(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u64, u64) -> u64) {
    let mut a = [0u64; LANE_STRIDE];
    let mut b = [0u64; LANE_STRIDE];
    let mut c = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    source64(w, d, 1, true, &mut b);
    source64(w, d, 2, true, &mut c);
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l], b[l], c[l]));
    write64(w, d, &r);
}

/// One f64 source to a 32-bit result.
fn map64_to32(w: &mut Wave, d: &Decoded, f: impl Fn(u64) -> u32) {
    let mut a = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l]));
    }
}

/// One 32-bit source (f32 modifiers) to an f64 result.
fn map32_to64(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u64) {
    let mut a: Lanes = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l]));
    write64(w, d, &r);
}
