//! Conversions between integers and floats (`u8_to_f` ... `f_to_s32`) and the
//! single-source float functions (`floor`, `ceil`, `trunc`, `rint`, `rcp`, `rsqrt`,
//! `log2`, `exp2`).
//!
//! applegpu does not emulate these, so their rules here are gpuabi's: integer to float
//! rounds to nearest even (`rte`) or toward zero (`rtz`) into the destination's format;
//! float to integer rounds the same way, saturates to the destination range and maps NaN
//! to 0 (NIR leaves out-of-range conversions undefined; Mesa's compiler emits these with
//! `rtz` for `f2i`/`f2u`, `agx_compile.c`); the transcendental functions are computed in
//! f64 and rounded once to the destination, so they are the correctly rounded result
//! where the hardware is documented as approximate.

use crate::float::{f16_to_f64, f32_to_f64, to_f16, to_f32};
use crate::op::Unary;

/// Rounding mode code of the `round` field: 0 toward zero, 1 nearest even.
pub const RTZ: u32 = 0;

/// Rounds an exact value to the float format of `size` bits under `round`.
pub fn int_to_float(x: f64, size: u32, round: u32) -> u64 {
    let (bits, back) = if size == 16 {
        let b = to_f16(x);
        (u64::from(b), f16_to_f64(b))
    } else {
        let b = to_f32(x, true);
        (u64::from(b), f32_to_f64(b, false))
    };
    // Nearest-even went away from zero: step back one unit toward zero.
    if round == RTZ && back.abs() > x.abs() {
        bits - 1
    } else {
        bits
    }
}

/// Converts a float to an integer of `bits` bits (`signed` or not) under `round`,
/// saturating, NaN to 0; returns the two's-complement bits.
pub fn float_to_int(x: f64, bits: u32, signed: bool, round: u32) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = if round == RTZ {
        x.trunc()
    } else {
        x.round_ties_even()
    };
    let (lo, hi) = if signed {
        (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        )
    } else {
        (0.0, 2f64.powi(bits as i32) - 1.0)
    };
    let v = r.clamp(lo, hi) as i64;
    (v as u64) & ((1u64 << bits) - 1)
}

/// One single-source float function.
pub(crate) fn unary(f: Unary, x: f64) -> f64 {
    match f {
        Unary::Floor => x.floor(),
        Unary::Ceil => x.ceil(),
        Unary::Trunc => x.trunc(),
        Unary::Rint => x.round_ties_even(),
        Unary::Rcp => 1.0 / x,
        Unary::Rsqrt => 1.0 / x.sqrt(),
        Unary::Log2 => x.log2(),
        Unary::Exp2 => x.exp2(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_to_float_rounding() {
        // 2^24 + 1 is halfway between 2^24 and 2^24 + 2: nearest even is 2^24; toward
        // zero also 2^24. 2^24 + 3 rounds to 2^24 + 4 (even) or down to 2^24 + 2.
        assert_eq!(int_to_float(16_777_217.0, 32, 1), 0x4b80_0000);
        assert_eq!(int_to_float(16_777_219.0, 32, 1), 0x4b80_0002);
        assert_eq!(int_to_float(16_777_219.0, 32, RTZ), 0x4b80_0001);
        // fp16: 2049 -> 2048 either way; 65535 -> inf (nearest) or 65504 (toward zero).
        assert_eq!(int_to_float(2049.0, 16, 1), 0x6800);
        assert_eq!(int_to_float(65535.0, 16, 1), 0x7c00);
        assert_eq!(int_to_float(65535.0, 16, RTZ), 0x7bff);
    }

    #[test]
    fn float_to_integer_rounding_and_saturation() {
        assert_eq!(
            float_to_int(-2.5, 32, true, RTZ),
            (-2i64) as u64 & 0xffff_ffff
        );
        assert_eq!(
            float_to_int(-2.5, 32, true, 1),
            (-2i64) as u64 & 0xffff_ffff
        );
        assert_eq!(float_to_int(3.5, 32, true, 1), 4);
        assert_eq!(float_to_int(3e9, 32, true, RTZ), 0x7fff_ffff);
        assert_eq!(float_to_int(-1.0, 16, false, RTZ), 0);
        assert_eq!(float_to_int(70000.0, 16, false, RTZ), 0xffff);
        assert_eq!(float_to_int(f64::NAN, 32, false, RTZ), 0);
    }
}
