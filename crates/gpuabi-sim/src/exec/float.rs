//! The f32 rules of the vector ALU: NaN results, rounding helpers, the models of the
//! transcendental instructions and the division helpers `v_div_scale_f32`,
//! `v_div_fmas_f32` and `v_div_fixup_f32`.
//!
//! Decisions (the project's model of the hardware):
//! - fp32 denormals are kept as inputs and results, never flushed: code generators declare
//!   the IEEE fp32 denormal mode.
//! - NaN results: if an operand is a NaN, the result is the first NaN operand in operand
//!   order with its quiet bit set; otherwise a NaN result is the default NaN `0x7fc00000`
//!   (the host's default NaN may differ, so every result goes through [`arith`]).
//! - `v_rcp_f32`, `v_sqrt_f32`, `v_rsq_f32` are correctly rounded (the hardware is within
//!   1 ulp of these); `v_rsq_f32` is evaluated in f64 and rounded once to f32.
//! - `v_exp_f32(x)` is `2^x` and `v_log_f32(x)` is `log2(x)`, both evaluated in f64 and
//!   rounded to f32; `v_log_f32` of a negative number is the default NaN and of ±0 is -inf.
//! - `v_sin_f32(t)`/`v_cos_f32(t)` take revolutions: `sin(2π·r)` with `r = t - round(t)`
//!   (ties to even) in f64, rounded to f32; ±inf give the default NaN. The hardware is
//!   accurate to about 1 ulp.

/// The default NaN of the vector ALU.
pub const DEFAULT_NAN: u32 = 0x7fc0_0000;
const QUIET: u32 = 0x0040_0000;
const SIGN: u32 = 0x8000_0000;

fn is_nan(bits: u32) -> bool {
    bits & 0x7fff_ffff > 0x7f80_0000
}

/// The result bits of an f32 operation on `inputs` that computed `result`, after the NaN
/// rule of the module documentation.
pub fn arith(inputs: &[u32], result: f32) -> u32 {
    if let Some(nan) = inputs.iter().find(|b| is_nan(**b)) {
        return nan | QUIET;
    }
    if result.is_nan() {
        DEFAULT_NAN
    } else {
        result.to_bits()
    }
}

/// [`arith`] for an operation whose result is NaN whenever an operand is (every IEEE
/// operation, and the models below): a number needs no look at the operands.
#[inline(always)]
fn propagate(inputs: &[u32], result: f32) -> u32 {
    if result.is_nan() {
        arith(inputs, result)
    } else {
        result.to_bits()
    }
}

/// A one-source f32 operation under the NaN rule (`f` must return NaN for a NaN).
pub fn unary(a: u32, f: impl Fn(f32) -> f32) -> u32 {
    propagate(&[a], f(f32::from_bits(a)))
}

/// A two-source f32 operation under the NaN rule (`f` must return NaN for a NaN operand).
pub fn binary(a: u32, b: u32, f: impl Fn(f32, f32) -> f32) -> u32 {
    propagate(&[a, b], f(f32::from_bits(a), f32::from_bits(b)))
}

/// `fma(a, b, c)` with one rounding, under the NaN rule.
pub fn fma(a: u32, b: u32, c: u32) -> u32 {
    propagate(
        &[a, b, c],
        f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c)),
    )
}

/// GCN's `v_mad_f32`/`v_mac_f32`: `a * b` rounded, then `+ c` rounded, with denormal
/// inputs and results flushed to zero of the same sign (the GCN3 guide: MAD and MAC do not
/// support denormals), under the NaN rule.
pub fn mad(a: u32, b: u32, c: u32) -> u32 {
    let flush = |x: f32| {
        if x.is_subnormal() {
            f32::from_bits(x.to_bits() & 0x8000_0000)
        } else {
            x
        }
    };
    let [x, y, z] = [a, b, c].map(|v| flush(f32::from_bits(v)));
    let product = flush(x * y);
    let bits = propagate(&[a, b, c], flush(product + z));
    // A quieted NaN operand or the default NaN is never denormal; a number is flushed.
    if is_nan(bits) {
        bits
    } else {
        flush(f32::from_bits(bits)).to_bits()
    }
}

/// `x · 2^n` rounded once (f64 holds every f32 times any power of two in range exactly).
pub fn ldexp(x: f32, n: i32) -> f32 {
    // Beyond ±400 every finite nonzero f32 over- or underflows either way.
    (f64::from(x) * 2f64.powi(n.clamp(-400, 400))) as f32
}

/// `1/sqrt(x)`, evaluated in f64.
pub fn rsq(x: f32) -> f32 {
    (1.0 / f64::from(x).sqrt()) as f32
}

/// `v_fract_f32`: `x - floor(x)`, below 1.0 (LLVM's `llvm.amdgcn.fract` is documented as
/// `min(x - floor(x), 0x1.fffffep-1)`); infinities give NaN.
pub fn fract(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    (x - x.floor()).min(f32::from_bits(0x3f7f_ffff))
}

/// `v_exp_f32`: `2^x`.
pub fn exp(x: f32) -> f32 {
    f64::from(x).exp2() as f32
}

/// `v_log_f32`: `log2(x)`; negative inputs give NaN, ±0 gives -inf.
pub fn log(x: f32) -> f32 {
    if x == 0.0 {
        f32::NEG_INFINITY
    } else if x < 0.0 {
        f32::NAN
    } else {
        f64::from(x).log2() as f32
    }
}

/// The fraction of a revolution `t` in [-0.5, 0.5], or `None` for infinities.
fn revolution(t: f32) -> Option<f64> {
    if t.is_infinite() {
        return None;
    }
    let t = f64::from(t);
    Some(t - t.round_ties_even())
}

/// `v_sin_f32`: the sine of `t` revolutions.
pub fn sin(t: f32) -> f32 {
    revolution(t).map_or(f32::NAN, |r| (r * std::f64::consts::TAU).sin() as f32)
}

/// `v_cos_f32`: the cosine of `t` revolutions.
pub fn cos(t: f32) -> f32 {
    revolution(t).map_or(f32::NAN, |r| (r * std::f64::consts::TAU).cos() as f32)
}

/// The biased exponent field (0 for zeros and denormals, 255 for infinities and NaNs).
fn exponent(x: f32) -> i32 {
    ((x.to_bits() >> 23) & 0xff) as i32
}

fn is_denorm32(x: f32) -> bool {
    x != 0.0 && x.is_subnormal()
}

/// Whether `1/x` is an f32 denormal (evaluated in f64).
fn inverse_is_denorm(x: f32) -> bool {
    let inv = (1.0 / f64::from(x)).abs();
    inv != 0.0 && inv < f64::from(f32::MIN_POSITIVE)
}

/// `v_div_scale_f32 D, VCC, S0, S1, S2` (S1 the denominator, S2 the numerator, S0 the one of
/// them to scale): the scaled value and the lane's VCC bit, following the pseudocode of
/// V_DIV_SCALE_F32 in AMD's "RDNA2 ISA" (VOP3 opcodes) and "AMD GCN3 ISA" manuals, with one
/// correction marked below. Where the pseudocode assigns D nothing, D is S0. `1/S1` is
/// tested for an f32 denormal in f64, `S2/S1` in f32.
pub fn div_scale(s0: f32, s1: f32, s2: f32) -> (u32, bool) {
    let mut d = s0;
    let mut vcc = false;
    if s2 == 0.0 || s1 == 0.0 {
        return (DEFAULT_NAN, false);
    } else if exponent(s2) - exponent(s1) >= 96 {
        // N/D near the largest f32.
        vcc = true;
        if s0 == s1 {
            // Only the denominator is scaled.
            d = ldexp(s0, 64);
        }
    } else if is_denorm32(s1) {
        d = ldexp(s0, 64);
    } else if inverse_is_denorm(s1) && is_denorm32(s2 / s1) {
        vcc = true;
        if s0 == s1 {
            // Only the denominator is scaled. The manual's text scales by 2^64 here, which
            // overflows every such denominator (|S1| > 2^126); the scaled quotient must move
            // up into the normal range, so the project scales the denominator down.
            d = ldexp(s0, -64);
        }
    } else if inverse_is_denorm(s1) {
        d = ldexp(s0, -64);
    } else if is_denorm32(s2 / s1) {
        vcc = true;
        if s0 == s2 {
            // Only the numerator is scaled.
            d = ldexp(s0, 64);
        }
    } else if exponent(s2) <= 23 {
        // The numerator is tiny.
        d = ldexp(s0, 64);
    }
    (arith(&[s0.to_bits(), s1.to_bits(), s2.to_bits()], d), vcc)
}

/// `a·b + c` in f64, rounded to odd: rounding this to f32 (or scaling it by a power of two
/// first) rounds the exact value once, as 53 bits hold 24 + 2.
pub(super) fn fma_to_odd(a: f32, b: f32, c: f32) -> f64 {
    // The product of two f32 values has at most 48 significant bits: exact in f64.
    let p = f64::from(a) * f64::from(b);
    let c = f64::from(c);
    let s = p + c;
    // The exact error of the addition (Knuth's TwoSum).
    let bv = s - p;
    let err = (p - (s - bv)) + (c - bv);
    if err == 0.0 || s.to_bits() & 1 == 1 || !s.is_finite() {
        return s;
    }
    // The neighbour of an even significand towards the exact value is odd.
    let away_from_zero = (err > 0.0) == (s > 0.0);
    f64::from_bits(if away_from_zero {
        s.to_bits() + 1
    } else {
        s.to_bits() - 1
    })
}

/// `v_div_fmas_f32`: `fma(S0, S1, S2)`, and in lanes whose VCC bit `v_div_scale_f32` set,
/// scaled by 2^64 when S2 (the scaled quotient) is at least 2 (the denominator was scaled
/// up) and by 2^-64 otherwise (the numerator was), with one rounding; after
/// V_DIV_FMAS_F32 in AMD's "RDNA3 ISA" manual.
pub fn div_fmas(s0: u32, s1: u32, s2: u32, vcc: bool) -> u32 {
    let r = fma(s0, s1, s2);
    if !vcc || is_nan(r) {
        return r;
    }
    let (a, b, c) = (f32::from_bits(s0), f32::from_bits(s1), f32::from_bits(s2));
    let scale = if exponent(c) >= 128 { 64 } else { -64 };
    arith(
        &[s0, s1, s2],
        (fma_to_odd(a, b, c) * 2f64.powi(scale)) as f32,
    )
}

/// `v_div_fixup_f32 D, S0, S1, S2` (S0 the quotient, S1 the denominator, S2 the numerator):
/// the special cases of IEEE division, after V_DIV_FIXUP_F32 in AMD's "RDNA2 ISA" and "AMD
/// GCN3 ISA" manuals, with one reading marked below. The NaN checks look at the numerator S2
/// first, then the denominator S1, as the manuals write them.
pub fn div_fixup(s0: u32, s1: u32, s2: u32) -> u32 {
    let (q, den, num) = (f32::from_bits(s0), f32::from_bits(s1), f32::from_bits(s2));
    let sign_out = (s1 ^ s2) & SIGN;
    let signed = |magnitude: u32| magnitude | sign_out;
    if is_nan(s2) {
        s2 | QUIET
    } else if is_nan(s1) {
        s1 | QUIET
    } else if (den == 0.0 && num == 0.0) || (den.is_infinite() && num.is_infinite()) {
        // 0/0 and inf/inf: the manual writes this NaN (sign set), not the default NaN.
        0xffc0_0000
    } else if den == 0.0 || num.is_infinite() {
        signed(0x7f80_0000)
    } else if den.is_infinite() || num == 0.0 {
        signed(0)
    } else if exponent(num) - exponent(den) < -150 {
        // Underflow: below half the smallest denormal, rounds to zero.
        signed(0)
    } else if exponent(q) == 255 {
        // The manual tests exponent(S1) here, which the branches above have ruled out; the
        // project reads it as the quotient: a quotient that overflowed in the scaled
        // computation (inf, or the NaN of inf - inf in the refinement) is an overflow.
        signed(0x7f80_0000)
    } else {
        signed(q.abs().to_bits())
    }
}

/// `v_cmp_class_f16`: whether the class of the f16 `x` is in `mask`, with the bits of
/// [`class`] (an f16 has a 5-bit exponent at 14:10 and its quiet bit at 9).
pub fn class_f16(x: u16, mask: u32) -> bool {
    let neg = x & 0x8000 != 0;
    let (exponent, fraction) = ((x >> 10) & 0x1f, x & 0x3ff);
    let bit = match (exponent, fraction) {
        (0x1f, 0) => {
            if neg {
                2
            } else {
                9
            }
        }
        (0x1f, f) => {
            if f & 0x200 != 0 {
                1
            } else {
                0
            }
        }
        (0, 0) => {
            if neg {
                5
            } else {
                6
            }
        }
        (0, _) => {
            if neg {
                4
            } else {
                7
            }
        }
        _ => {
            if neg {
                3
            } else {
                8
            }
        }
    };
    mask >> bit & 1 != 0
}

/// The value of the f16 `h` (exact in f64).
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exponent, fraction) = (i32::from(h >> 10 & 0x1f), f64::from(h & 0x3ff));
    match exponent {
        0 => sign * fraction * 2f64.powi(-24),
        0x1f if fraction == 0.0 => sign * f64::INFINITY,
        // A NaN keeps its payload in the f64's top fraction bits.
        0x1f => f64::from_bits(
            u64::from(h & 0x8000) << 48 | 0x7ff0_0000_0000_0000 | u64::from(h & 0x3ff) << 42,
        ),
        e => sign * (1024.0 + fraction) * 2f64.powi(e - 25),
    }
}

/// `x` rounded to the nearest f16, ties to even (one rounding of the exact value, with
/// every bit below the f16's last one counted, as IEEE 754 rounds); overflow gives ±inf,
/// a NaN keeps the top bits of its payload and is quieted.
pub fn f16_from_f64(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00 | (x.to_bits() >> 42) as u16 & 0x1ff;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Denormal (or zero): a whole number of 2^-24; 1024 of them is the smallest
        // normal, whose bits follow.
        return sign | (a * 2f64.powi(24)).round_ties_even() as u16;
    }
    let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    // The significand as an integer of 11 bits and a fraction: exact, a power of two apart.
    let mut m = (a * 2f64.powi(10 - e)).round_ties_even();
    if m == 2048.0 {
        e += 1;
        m = 1024.0;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | ((e + 15) as u16) << 10 | (m as u16 & 0x3ff)
}

/// `v_cmp_class_f64`: whether the class of the f64 `x` is in `mask`, with the bits of
/// [`class`].
pub fn class_f64(x: u64, mask: u32) -> bool {
    let f = f64::from_bits(x);
    let neg = x >> 63 != 0;
    let bit = if f.is_nan() {
        if x >> 51 & 1 != 0 {
            1
        } else {
            0
        }
    } else if f.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if f == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if f.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    };
    mask >> bit & 1 != 0
}

/// `v_cmp_class_f32`: whether the class of `x` is in `mask` (bit 0 signalling NaN, 1 quiet
/// NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
pub fn class(x: u32, mask: u32) -> bool {
    let f = f32::from_bits(x);
    let neg = x & SIGN != 0;
    let bit = if is_nan(x) {
        if x & QUIET != 0 {
            1
        } else {
            0
        }
    } else if f.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if f == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if f.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    };
    mask >> bit & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_rule() {
        // The first NaN operand, quieted: 0x7f800001 is a signalling NaN.
        assert_eq!(binary(0x7f80_0001, 0xffc0_1234, |a, b| a + b), 0x7fc0_0001);
        assert_eq!(binary(0x3f80_0000, 0xffc0_1234, |a, b| a + b), 0xffc0_1234);
        // inf - inf has no NaN operand: the default NaN, whatever the host makes.
        assert_eq!(binary(0x7f80_0000, 0x7f80_0000, |a, b| a - b), DEFAULT_NAN);
        assert_eq!(fma(0, 0x7f80_0000, 0x3f80_0000), DEFAULT_NAN);
    }

    #[test]
    fn transcendentals() {
        // Hand values: sin(2π·0.25) = 1, cos(2π·0.5) = -1, 2^3 = 8, log2(1/8) = -3.
        assert_eq!(sin(0.25), 1.0);
        assert_eq!(sin(1.25), 1.0);
        assert_eq!(cos(0.5), -1.0);
        assert_eq!(exp(3.0), 8.0);
        assert_eq!(log(0.125), -3.0);
        assert_eq!(log(-0.0), f32::NEG_INFINITY);
        assert!(log(-1.0).is_nan() && sin(f32::INFINITY).is_nan());
        assert_eq!(fract(-1e-10).to_bits(), 0x3f7f_ffff);
        assert_eq!(fract(2.75), 0.75);
        assert_eq!(
            unary(0x7f80_0001, fract),
            0x7fc0_0001,
            "a NaN stays the NaN"
        );
        assert_eq!(ldexp(1.0, -149).to_bits(), 1);
        assert_eq!(
            ldexp(1.5, -150).to_bits(),
            1,
            "0.75 of the smallest denormal rounds up"
        );
    }

    #[test]
    fn f16_conversions() {
        // 1 + 2^-11 lies halfway between 1.0 and the next f16 (1 + 2^-10): even is 1.0;
        // a bit more rounds up, and a 2^-40 below the half rounds down.
        assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        assert_eq!(
            f16_from_f64(1.0 + 3.0 * 2f64.powi(-11)),
            0x3c02,
            "ties to even"
        );
        assert_eq!(f16_from_f64(65504.0), 0x7bff);
        assert_eq!(f16_from_f64(65520.0), 0x7c00, "halfway to 65536 overflows");
        assert_eq!(f16_from_f64(-2f64.powi(-24)), 0x8001);
        assert_eq!(
            f16_from_f64(2f64.powi(-25)),
            0,
            "half the smallest denormal: even 0"
        );
        assert_eq!(f16_from_f64(2f64.powi(-14) - 2f64.powi(-26)), 0x0400);
        for h in [
            0u16, 0x8000, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0xfbff, 0x7c00,
        ] {
            assert_eq!(f16_from_f64(f16_to_f64(h)), h, "{h:#x}");
        }
        assert_eq!(f16_to_f64(0x3555), 0.333251953125);
    }

    #[test]
    fn classes() {
        assert!(class(0x7f80_0001, 1 << 0));
        assert!(class(0x7fc0_0000, 1 << 1));
        assert!(class(0xff80_0000, 1 << 2));
        assert!(class(0x8000_0001, 1 << 4));
        assert!(class(0x0000_0000, 1 << 6));
        assert!(class(0x3f80_0000, 1 << 8));
        assert!(!class(0x3f80_0000, !(1 << 8) & 0x3ff));
    }
}
