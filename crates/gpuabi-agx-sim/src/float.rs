//! Float formats and rounding as applegpu's emulator models the hardware (`fma.py`):
//! results are rounded once from the exact value, round to nearest even; fp32 flushes
//! subnormal inputs and results to signed zero, fp16 keeps them; NaN results are the
//! default NaN.

/// The default fp32 NaN.
pub const F32_NAN: u32 = 0x7fc0_0000;
/// The default fp16 NaN.
pub const F16_NAN: u16 = 0x7e00;

/// An fp32 value as f64; subnormals become signed zero when `ftz`.
pub fn f32_to_f64(bits: u32, ftz: bool) -> f64 {
    let v = f32::from_bits(bits);
    if ftz && v.is_subnormal() {
        if bits >> 31 == 1 {
            -0.0
        } else {
            0.0
        }
    } else {
        f64::from(v)
    }
}

/// An fp16 value as f64 (exact, subnormals kept).
pub fn f16_to_f64(bits: u16) -> f64 {
    let sign = u64::from(bits >> 15) << 63;
    let e = u64::from((bits >> 10) & 0x1f);
    let m = u64::from(bits & 0x3ff);
    match e {
        // m · 2^-24, exact in f64.
        0 => f64::from_bits(sign) + (m as f64) * (1.0 / 16_777_216.0) * sign_of(sign),
        0x1f if m == 0 => f64::from_bits(sign | 0x7ff0_0000_0000_0000),
        0x1f => f64::NAN,
        // Rebias the exponent (15 to 1023) and widen the fraction (10 to 52 bits).
        _ => f64::from_bits(sign | (e + 1023 - 15) << 52 | m << 42),
    }
}

fn sign_of(sign: u64) -> f64 {
    if sign == 0 {
        1.0
    } else {
        -1.0
    }
}

/// Rounds a finite magnitude to `mant_bits` fraction bits with exponent range
/// `[emin, emax]` (unbiased, normal numbers), round to nearest even, subnormals kept.
/// Returns `(biased exponent, fraction)`, exponent `emax + bias + 1` meaning infinity.
pub(crate) fn round_parts(x: f64, mant_bits: u32, emin: i32, bias: i32) -> (u64, u64) {
    let bits = x.to_bits() & !(1 << 63);
    let e64 = ((bits >> 52) & 0x7ff) as i32;
    let f64m = bits & ((1 << 52) - 1);
    if e64 == 0 && f64m == 0 {
        return (0, 0);
    }
    // Significand with the implicit bit as an integer, value = sig * 2^(exp - 52).
    let (sig, exp) = if e64 == 0 {
        (f64m, -1022)
    } else {
        (f64m | (1 << 52), e64 - 1023)
    };
    // Target: normal numbers keep `mant_bits` bits after the leading one; below `emin` the
    // spacing is fixed at 2^(emin - mant_bits).
    let lsb_exp = exp.max(emin) - mant_bits as i32;
    let shift = lsb_exp - (exp - 52);
    let (q, rem_half) = if shift <= 0 {
        (sig << (-shift) as u32, std::cmp::Ordering::Less)
    } else if shift >= 64 {
        // sig < 2^53, far below half a unit.
        (0, std::cmp::Ordering::Less)
    } else {
        let q = sig >> shift;
        let rem = sig & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        (q, rem.cmp(&half))
    };
    let mut q = q;
    if rem_half == std::cmp::Ordering::Greater
        || (rem_half == std::cmp::Ordering::Equal && q & 1 == 1)
    {
        q += 1;
    }
    // q counts units of 2^lsb_exp.
    let unit = lsb_exp;
    if q == 0 {
        return (0, 0);
    }
    let top = 63 - q.leading_zeros() as i32; // q = 1.x * 2^top
    let value_exp = unit + top;
    if value_exp < emin {
        // Subnormal: fraction is q itself (units of 2^(emin - mant_bits)).
        return (0, q);
    }
    let frac = q & ((1u64 << mant_bits) - 1);
    let frac = if top as u32 > mant_bits {
        (q >> (top as u32 - mant_bits)) & ((1u64 << mant_bits) - 1)
    } else {
        frac
    };
    ((value_exp + bias) as u64, frac)
}

/// Rounds `x` to fp32 (nearest even); subnormal results become signed zero when `ftz`
/// (judged on the value before rounding, as applegpu's `f64_to_f32` does).
///
/// The conversion `x as f32` rounds to nearest even, overflowing to infinity and keeping
/// subnormals, which is the rule; only NaN (the default NaN) and the flush need handling.
pub fn to_f32(x: f64, ftz: bool) -> u32 {
    if x.is_nan() {
        return F32_NAN;
    }
    if ftz && x.abs() < f64::from(f32::MIN_POSITIVE) {
        return (x.is_sign_negative() as u32) << 31;
    }
    (x as f32).to_bits()
}

/// Rounds `x` to fp16 (nearest even, subnormals kept).
pub fn to_f16(x: f64) -> u16 {
    if x.is_nan() {
        return F16_NAN;
    }
    let sign = (x.is_sign_negative() as u16) << 15;
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let (e, f) = round_parts(x, 10, -14, 15);
    if e >= 31 {
        return sign | 0x7c00;
    }
    sign | ((e as u16) << 10) | f as u16
}

/// The exact sum `a + b` rounded to odd in f64 (round toward zero, then set the last bit
/// when inexact): rounding that to a format with fewer bits equals rounding the exact
/// sum once. Finite inputs only.
#[inline]
fn add_round_to_odd(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return s;
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err == 0.0 {
        return s;
    }
    // `s` is the nearest; step toward the exact value when it overshot, then make odd.
    let mut bits = s.to_bits();
    let toward_zero_needed = (err < 0.0) != s.is_sign_negative();
    if toward_zero_needed {
        // exact is closer to zero than s: truncate by one ulp toward zero
        bits -= 1;
    }
    f64::from_bits(bits | 1)
}

/// `a * b + c` computed exactly and rounded to odd in f64 (`a * b` must be exact in f64,
/// which holds for fp32 and fp16 inputs). NaN inputs and invalid operations give NaN.
#[inline]
pub fn fma_exact(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    if !p.is_finite() || !c.is_finite() {
        return p + c;
    }
    if p == 0.0 || c == 0.0 {
        return p + c;
    }
    add_round_to_odd(p, c)
}

/// Clamps to [0, 1]; NaN and negative values (also -0) become +0 (applegpu's
/// `saturate64`).
pub fn saturate(x: f64) -> f64 {
    if x.is_nan() || x.is_sign_negative() {
        0.0
    } else if x > 1.0 {
        1.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(to_f16(1.0), 0x3c00);
        assert_eq!(to_f16(65504.0), 0x7bff);
        assert_eq!(to_f16(65520.0), 0x7c00); // rounds to infinity
        assert_eq!(to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(to_f16(2f64.powi(-25)), 0x0000); // tie to even
        assert_eq!(to_f16(3.0 * 2f64.powi(-25)), 0x0002);
        assert_eq!(to_f16(-0.0), 0x8000);
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(f16_to_f64(0xc000), -2.0);
        assert_eq!(to_f32(1.0, true), 0x3f80_0000);
        assert_eq!(to_f32(2f64.powi(-130), true), 0);
        assert_eq!(to_f32(-(2f64.powi(-130)), true), 0x8000_0000);
        assert_eq!(to_f32(2f64.powi(-130), false), 1 << 19);
        assert_eq!(to_f32(1.0 + 2f64.powi(-24), true), 0x3f80_0000); // tie to even
        assert_eq!(to_f32(1.0 + 3.0 * 2f64.powi(-24), true), 0x3f80_0002);
    }

    /// `to_f32` by integer rounding of the significand (`round_parts`), an implementation
    /// independent of the float conversion `to_f32` uses.
    fn to_f32_by_parts(x: f64, ftz: bool) -> u32 {
        if x.is_nan() {
            return F32_NAN;
        }
        let sign = (x.is_sign_negative() as u32) << 31;
        if x.is_infinite() {
            return sign | 0x7f80_0000;
        }
        if ftz && x.abs() < 2f64.powi(-126) {
            return sign;
        }
        let (e, f) = round_parts(x, 23, -126, 127);
        if e >= 255 {
            return sign | 0x7f80_0000;
        }
        sign | ((e as u32) << 23) | f as u32
    }

    /// The fp16 value by its formula.
    fn f16_by_formula(bits: u16) -> f64 {
        let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
        let e = i32::from((bits >> 10) & 0x1f);
        let m = f64::from(bits & 0x3ff);
        match e {
            0 => sign * m * 2f64.powi(-24),
            0x1f if m == 0.0 => sign * f64::INFINITY,
            0x1f => f64::NAN,
            _ => sign * (1024.0 + m) * 2f64.powi(e - 25),
        }
    }

    #[test]
    fn native_fp32_rounding_matches_rounding_by_parts() {
        // Every exponent around the fp32 range, with significands that land on, just
        // below, just above and exactly between fp32 neighbours, both signs.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for e in (1023 - 160)..(1023 + 132) {
            for k in 0..64u64 {
                let frac = match k {
                    0 => 0,
                    1 => 1 << 28,                     // exactly half an fp32 unit
                    2 => (1 << 28) | 1,               // just above half
                    3 => (1 << 28) - 1,               // just below half
                    4 => (3 << 28) & ((1 << 52) - 1), // odd unit plus half: ties up
                    _ => next() & ((1 << 52) - 1),
                };
                for sign in [0, 1u64 << 63] {
                    let x = f64::from_bits(sign | (e << 52) | frac);
                    for ftz in [false, true] {
                        assert_eq!(to_f32(x, ftz), to_f32_by_parts(x, ftz), "{x:e} ftz {ftz}");
                    }
                }
            }
        }
        for x in [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            0.0,
            -0.0,
            f64::MAX,
            3.4028235677973366e38,
        ] {
            assert_eq!(to_f32(x, true), to_f32_by_parts(x, true), "{x:e}");
        }
    }

    #[test]
    fn fp16_values_match_the_formula() {
        for bits in 0..=u16::MAX {
            let (a, b) = (f16_to_f64(bits), f16_by_formula(bits));
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{bits:#x}"
            );
        }
    }

    #[test]
    fn fma_rounds_once() {
        // 1 + 2^-24 + 2^-60: nearest-even f64 sum then f32 would round to 1.0 twice;
        // rounding once must round up.
        let x = fma_exact(1.0 + 2f64.powi(-24), 1.0, 2f64.powi(-60));
        assert_eq!(to_f32(x, true), 0x3f80_0001);
        assert_eq!(fma_exact(-0.0, 5.0, 0.0), 0.0);
        assert!(fma_exact(f64::INFINITY, 0.0, 1.0).is_nan());
    }
}
