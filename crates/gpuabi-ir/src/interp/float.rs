//! The f32 operations of the IR, defined so that AMD hardware (and the SIMT simulator that
//! models it) can reproduce every result bit for bit, NaNs included.
//!
//! NaN rule, for every arithmetic operation whose exact IEEE result is NaN: when an
//! operand is NaN, the result is the first NaN operand in operand order with its quiet bit
//! (bit 22) set; otherwise it is the default NaN `0x7fc00000`. `fdiv` is the one exception
//! to the default: `0/0` and `inf/inf` give `0xffc00000`, the NaN AMD's
//! `v_div_fixup_f32` writes for them (AMD RDNA ISA manual, V_DIV_FIXUP_F32, whose NaN checks
//! look at the numerator first, as the rule does). The x86 host makes `0xffc00000` for
//! every invalid operation, so results are canonicalised here rather than taken from the
//! host.
//!
//! `fsqrt` and `fdiv` are correctly rounded. `fsin`/`fcos` first scale by `f32(1/(2π))`
//! (one rounded f32 multiplication) and then take the sine of the fraction of a revolution,
//! exactly the `v_mul_f32` + `v_sin_f32`/`v_cos_f32` sequence, whose hardware input is in
//! revolutions. `fexp2`/`flog2` round the f64 result of the host's `exp2`/`log2` to f32.

/// The default NaN: positive, quiet, no payload.
pub const DEFAULT_NAN: u32 = 0x7fc0_0000;

/// The quiet bit of an f32 NaN.
const QUIET: u32 = 1 << 22;

/// `f32(1 / (2π))`, the factor that turns radians into revolutions for `v_sin_f32`.
pub const INV_TWO_PI: u32 = 0x3e22_f983;

#[inline(always)]
fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// The NaN an operation gives when its IEEE result is NaN: the first NaN of `ops`,
/// quieted, or the default NaN.
#[cold]
fn nan_of(ops: &[u32]) -> u32 {
    ops.iter()
        .find(|&&x| is_nan(x))
        .map_or(DEFAULT_NAN, |&x| x | QUIET)
}

/// The bits of `r`, or the NaN `ops` give when `r` is NaN.
#[inline(always)]
fn canon(r: f32, ops: &[u32]) -> u32 {
    if r.is_nan() {
        nan_of(ops)
    } else {
        r.to_bits()
    }
}

#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// `a + b`.
#[inline(always)]
pub fn fadd(a: u32, b: u32) -> u32 {
    canon(f(a) + f(b), &[a, b])
}

/// `a - b`.
#[inline(always)]
pub fn fsub(a: u32, b: u32) -> u32 {
    canon(f(a) - f(b), &[a, b])
}

/// `a * b`.
#[inline(always)]
pub fn fmul(a: u32, b: u32) -> u32 {
    canon(f(a) * f(b), &[a, b])
}

/// `a / b`, correctly rounded; a NaN `b` wins over a NaN `a`.
#[inline(always)]
pub fn fdiv(a: u32, b: u32) -> u32 {
    let (x, y) = (f(a), f(b));
    let invalid = (x == 0.0 && y == 0.0) || (x.is_infinite() && y.is_infinite());
    if invalid {
        return 0xffc0_0000;
    }
    canon(x / y, &[a, b])
}

/// `a * b + c` rounded once.
#[inline(always)]
pub fn ffma(a: u32, b: u32, c: u32) -> u32 {
    canon(f(a).mul_add(f(b), f(c)), &[a, b, c])
}

/// Minimum as AMD's `v_min_f32` computes it in IEEE mode (RDNA2 ISA manual, V_MIN_F32): a
/// signalling NaN operand gives itself quieted (the first operand checked first), a quiet
/// NaN operand gives the other operand (two quiet NaNs give the second), and -0 orders
/// below +0.
#[inline(always)]
pub fn fmin(a: u32, b: u32) -> u32 {
    min_max(a, b, true)
}

/// Maximum: as [`fmin`], with +0 above -0.
#[inline(always)]
pub fn fmax(a: u32, b: u32) -> u32 {
    min_max(a, b, false)
}

#[inline(always)]
fn min_max(a: u32, b: u32, min: bool) -> u32 {
    let signalling = |x: u32| is_nan(x) && x & QUIET == 0;
    if signalling(a) {
        return a | QUIET;
    }
    if signalling(b) {
        return b | QUIET;
    }
    match (is_nan(a), is_nan(b)) {
        (true, _) => b,
        (false, true) => a,
        (false, false) => {
            let (x, y) = (f(a), f(b));
            // Equal values differ only for ±0, where the sign decides.
            let a_first = if x == y {
                (a >> 31 == 1) == min
            } else {
                (x < y) == min
            };
            if a_first {
                a
            } else {
                b
            }
        }
    }
}

/// Negation: flips the sign bit, NaNs included.
#[inline(always)]
pub fn fneg(a: u32) -> u32 {
    a ^ 0x8000_0000
}

/// Absolute value: clears the sign bit, NaNs included.
#[inline(always)]
pub fn fabs(a: u32) -> u32 {
    a & 0x7fff_ffff
}

/// Square root, correctly rounded.
#[inline(always)]
pub fn fsqrt(a: u32) -> u32 {
    canon(f(a).sqrt(), &[a])
}

/// Reciprocal square root: `fdiv(1.0, fsqrt(x))`, two correctly rounded steps.
#[inline(always)]
pub fn frsq(a: u32) -> u32 {
    fdiv(1.0f32.to_bits(), fsqrt(a))
}

/// Round toward minus infinity.
#[inline(always)]
pub fn ffloor(a: u32) -> u32 {
    canon(f(a).floor(), &[a])
}

/// Round toward plus infinity.
#[inline(always)]
pub fn fceil(a: u32) -> u32 {
    canon(f(a).ceil(), &[a])
}

/// Round toward zero.
#[inline(always)]
pub fn ftrunc(a: u32) -> u32 {
    canon(f(a).trunc(), &[a])
}

/// `x - ffloor(x)` as one f32 subtraction.
#[inline(always)]
pub fn ffract(a: u32) -> u32 {
    fsub(a, ffloor(a))
}

/// Sine of `x` radians: [`sin_revolutions`] of `fmul(x, f32(1/(2π)))`.
pub fn fsin(a: u32) -> u32 {
    sin_revolutions(fmul(a, INV_TWO_PI))
}

/// Cosine of `x` radians: [`cos_revolutions`] of `fmul(x, f32(1/(2π)))`.
pub fn fcos(a: u32) -> u32 {
    cos_revolutions(fmul(a, INV_TWO_PI))
}

/// `S(t)`, the model of `v_sin_f32`: the sine of `t` revolutions. With
/// `r = t - round_ties_even(t)` in f64, the result is `f32(sin(r * 2π))` in f64; a NaN `t`
/// gives `t` quieted and an infinite one the default NaN.
pub fn sin_revolutions(t: u32) -> u32 {
    revolutions(t, f64::sin)
}

/// The model of `v_cos_f32`: as [`sin_revolutions`] with the cosine.
pub fn cos_revolutions(t: u32) -> u32 {
    revolutions(t, f64::cos)
}

fn revolutions(t: u32, g: fn(f64) -> f64) -> u32 {
    let x = f(t);
    if !x.is_finite() {
        return nan_of(&[t]);
    }
    let x = f64::from(x);
    let r = x - x.round_ties_even();
    (g(r * std::f64::consts::TAU) as f32).to_bits()
}

/// `2^x`: the host's f64 `exp2` rounded to f32.
pub fn fexp2(a: u32) -> u32 {
    if is_nan(a) {
        return nan_of(&[a]);
    }
    (f64::from(f(a)).exp2() as f32).to_bits()
}

/// `log2(x)`: the host's f64 `log2` rounded to f32; negative `x` (including -inf) gives the
/// default NaN and ±0 gives -inf.
pub fn flog2(a: u32) -> u32 {
    let x = f(a);
    if is_nan(a) {
        return nan_of(&[a]);
    }
    if x == 0.0 {
        return f32::NEG_INFINITY.to_bits();
    }
    if x < 0.0 {
        return DEFAULT_NAN;
    }
    (f64::from(x).log2() as f32).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: u32 = 0x3f80_0000;
    const TWO: u32 = 0x4000_0000;
    const INF: u32 = 0x7f80_0000;
    const NEG_INF: u32 = 0xff80_0000;
    const NEG_ZERO: u32 = 0x8000_0000;

    #[test]
    fn invalid_operations_give_the_default_nan() {
        assert_eq!(fsub(INF, INF), 0x7fc0_0000);
        assert_eq!(fadd(INF, NEG_INF), 0x7fc0_0000);
        assert_eq!(fmul(0, INF), 0x7fc0_0000);
        assert_eq!(ffma(INF, 0, ONE), 0x7fc0_0000);
        // sqrt(-1): the x86 host would give 0xffc00000.
        assert_eq!(fsqrt(0xbf80_0000), 0x7fc0_0000);
        assert_eq!(frsq(0xbf80_0000), 0x7fc0_0000);
        assert_eq!(ffract(INF), 0x7fc0_0000);
    }

    #[test]
    fn nan_operands_propagate_quieted_in_operand_order() {
        // Signalling NaN 0x7f800001 gains the quiet bit 0x00400000.
        assert_eq!(fadd(0x7f80_0001, ONE), 0x7fc0_0001);
        assert_eq!(fadd(ONE, 0xff80_0002), 0xffc0_0002);
        assert_eq!(fmul(0x7fc0_0003, 0x7fc0_0004), 0x7fc0_0003);
        assert_eq!(ffma(ONE, 0x7f80_0007, 0x7fc0_0008), 0x7fc0_0007);
        assert_eq!(ffma(ONE, TWO, 0x7f80_0009), 0x7fc0_0009);
        assert_eq!(fsqrt(0x7f80_0005), 0x7fc0_0005);
        assert_eq!(ffloor(0xff80_0001), 0xffc0_0001);
        assert_eq!(ffract(0x7f80_0001), 0x7fc0_0001);
    }

    #[test]
    fn fdiv_follows_v_div_fixup() {
        // The numerator's NaN first, then the denominator's (V_DIV_FIXUP_F32 checks S2,
        // the numerator, before S1).
        assert_eq!(fdiv(0x7fc0_0005, 0x7fc0_0009), 0x7fc0_0005);
        assert_eq!(fdiv(TWO, 0x7f80_0009), 0x7fc0_0009);
        // 0/0 and inf/inf: the NaN with the sign bit set that V_DIV_FIXUP_F32 writes.
        assert_eq!(fdiv(0, 0x8000_0000), 0xffc0_0000);
        assert_eq!(fdiv(0x7f80_0000, 0xff80_0000), 0xffc0_0000);
        assert_eq!(frsq(0x7f80_0003), 0x7fc0_0003);
    }

    #[test]
    fn sign_operations_touch_only_the_sign_bit() {
        assert_eq!(fneg(0x7f80_0001), 0xff80_0001);
        assert_eq!(fabs(0xffc0_0000), 0x7fc0_0000);
        assert_eq!(fneg(0), NEG_ZERO);
    }

    #[test]
    fn min_and_max() {
        assert_eq!(fmin(0x7fc0_0001, TWO), TWO);
        // Signalling NaNs come back quieted; two quiet NaNs give the second (V_MAX_F32).
        assert_eq!(fmax(ONE, 0x7f80_0001), 0x7fc0_0001);
        assert_eq!(fmin(0x7f80_0001, 0x7fc0_0002), 0x7fc0_0001);
        assert_eq!(fmin(0x7fc0_0001, 0x7fc0_0002), 0x7fc0_0002);
        assert_eq!(fmax(0xffc0_0000, 0xffc0_0000), 0xffc0_0000);
        assert_eq!(fmin(0, NEG_ZERO), NEG_ZERO);
        assert_eq!(fmin(NEG_ZERO, 0), NEG_ZERO);
        assert_eq!(fmax(NEG_ZERO, 0), 0);
        assert_eq!(fmax(0, NEG_ZERO), 0);
        assert_eq!(fmin(ONE, TWO), ONE);
        assert_eq!(fmax(ONE, TWO), TWO);
    }

    #[test]
    fn correctly_rounded_division_and_root() {
        // 1/3 rounds to nearest: 0x3eaaaaab.
        assert_eq!(fdiv(ONE, 0x4040_0000), 0x3eaa_aaab);
        // sqrt(2) = 1.41421356... rounds to 0x3fb504f3.
        assert_eq!(fsqrt(TWO), 0x3fb5_04f3);
        // 1/sqrt(4) = 0.5 exactly.
        assert_eq!(frsq(0x4080_0000), 0x3f00_0000);
        assert_eq!(frsq(0), INF);
    }

    #[test]
    fn transcendentals() {
        assert_eq!(fsin(0), 0);
        assert_eq!(fcos(0), ONE);
        assert_eq!(fsin(INF), 0x7fc0_0000);
        assert_eq!(fsin(0x7f80_0001), 0x7fc0_0001);
        // A quarter revolution: sin(0.25 * 2π) = 1 exactly in f64.
        assert_eq!(sin_revolutions(0x3e80_0000), ONE);
        // Half a revolution: cos(π) = -1.
        assert_eq!(cos_revolutions(0x3f00_0000), 0xbf80_0000);
        // Whole revolutions (every f32 at or above 2^23 is an integer) give sin 0, cos 1.
        assert_eq!(sin_revolutions(0x4b00_0000), 0);
        assert_eq!(cos_revolutions(0x4b00_0001), ONE);
        assert_eq!(fexp2(ONE), TWO);
        assert_eq!(fexp2(NEG_INF), 0);
        assert_eq!(fexp2(0x7f80_0001), 0x7fc0_0001);
        assert_eq!(flog2(0xbf80_0000), 0x7fc0_0000);
        assert_eq!(flog2(NEG_INF), 0x7fc0_0000);
        assert_eq!(flog2(0), NEG_INF);
        assert_eq!(flog2(NEG_ZERO), NEG_INF);
        assert_eq!(flog2(0x4100_0000), 0x4040_0000); // log2(8) = 3
        assert_eq!(flog2(0xffc0_0001), 0xffc0_0001);
    }
}
