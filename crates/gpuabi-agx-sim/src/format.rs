//! Writing the converted memory and tile-buffer formats: the inverse of the conversions
//! `device_load` and `ld_tile` perform ([`crate::load::convert`]).
//!
//! The rules are gpuabi's, following the conversions Mesa's driver relies on:
//! * normalised formats clamp to the format's range, map NaN to 0 and round to nearest
//!   even, as Mesa's `_mesa_float_to_unorm` / `_mesa_float_to_snorm`
//!   (`src/util/format/format_utils.h`) do;
//! * `srgba8` encodes red, green and blue with the sRGB transfer function
//!   (IEC 61966-2-1, Mesa's `util_format_linear_to_srgb_float`) computed exactly and
//!   rounded to nearest even, alpha as `u8norm`;
//! * `rg11b10f` rounds to nearest even, `rg11b10f_rtz` toward zero (the two codes of
//!   Mesa's `src/asahi/isa/AGX2.xml` format enum); negative values and -inf become 0,
//!   NaN becomes the exponent-all-ones pattern with the top fraction bit, a finite value
//!   past the largest finite one becomes infinity under nearest-even and the largest
//!   finite value toward zero (IEEE 754 overflow rules);
//! * `rgb9e5` follows the shared-exponent algorithm of the OpenGL
//!   `EXT_texture_shared_exponent` specification (clamp to [0, 65408], NaN to 0, shared
//!   exponent from the largest component, mantissas rounded half up); `rgb9e5_rtz`
//!   truncates the mantissas instead.

use crate::float::round_parts;

/// Format codes of the `format` field (Mesa's `AGX2.xml`).
pub mod code {
    /// Raw bytes.
    pub const I8: u32 = 0;
    /// Raw 16-bit elements.
    pub const I16: u32 = 1;
    /// Raw 32-bit elements.
    pub const I32: u32 = 2;
    /// Half floats.
    pub const F16: u32 = 3;
    /// Unsigned normalised bytes.
    pub const U8NORM: u32 = 4;
    /// Signed normalised bytes.
    pub const S8NORM: u32 = 5;
    /// Unsigned normalised 16-bit.
    pub const U16NORM: u32 = 6;
    /// Signed normalised 16-bit.
    pub const S16NORM: u32 = 7;
    /// 10-10-10-2 unsigned normalised, one word.
    pub const RGB10A2: u32 = 8;
    /// sRGB bytes with linear alpha.
    pub const SRGBA8: u32 = 10;
    /// 11-11-10 unsigned floats, one word, rounded to nearest even.
    pub const RG11B10F: u32 = 12;
    /// 9-9-9 mantissas with a shared 5-bit exponent, rounded.
    pub const RGB9E5: u32 = 13;
    /// `rg11b10f` rounded toward zero.
    pub const RG11B10F_RTZ: u32 = 14;
    /// `rgb9e5` truncated.
    pub const RGB9E5_RTZ: u32 = 15;
}

pub(crate) fn unorm(x: f64, bits: u32) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let max = ((1u64 << bits) - 1) as f64;
    (x.clamp(0.0, 1.0) * max).round_ties_even() as u64
}

pub(crate) fn snorm(x: f64, bits: u32) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let max = ((1u64 << (bits - 1)) - 1) as f64;
    let v = (x.clamp(-1.0, 1.0) * max).round_ties_even() as i64;
    (v as u64) & ((1u64 << bits) - 1)
}

/// The sRGB encoding of a linear value, exact.
fn linear_to_srgb(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else if x <= 0.003_130_8 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `mant` fraction bits.
fn small_float(x: f64, mant: u32, rtz: bool) -> u64 {
    let exp_mask = 0x1fu64 << mant;
    if x.is_nan() {
        return exp_mask | 1 << (mant - 1);
    }
    if x.is_sign_negative() || x == 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return exp_mask;
    }
    let (e, f) = round_parts(x, mant, -14, 15);
    let mut bits = if e >= 31 { exp_mask } else { e << mant | f };
    if rtz && crate::load::small_float_value(bits, mant) > x {
        // Nearest even went up (possibly to infinity): the value below is the truncation.
        bits -= 1;
    }
    bits
}

/// The shared-exponent encoding of three components.
fn rgb9e5(v: [f64; 3], rtz: bool) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    let max_value = 511.0 / 512.0 * 2f64.powi(16);
    let c = v.map(|x| {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, max_value)
        }
    });
    let maxc = c[0].max(c[1]).max(c[2]);
    let floor_log2 = if maxc > 0.0 {
        maxc.log2().floor() as i32
    } else {
        -B - 1
    };
    let mut exp = floor_log2.max(-B - 1) + 1 + B;
    let round = |x: f64, exp: i32| {
        let scaled = x / 2f64.powi(exp - B - N);
        if rtz {
            scaled.floor()
        } else {
            (scaled + 0.5).floor()
        }
    };
    if round(maxc, exp) >= f64::from(1 << N) {
        exp += 1;
    }
    let m = c.map(|x| round(x, exp).min(511.0) as u32);
    (exp as u32) << 27 | m[2] << 18 | m[1] << 9 | m[0]
}

/// Element `n` of a per-element converted format (`u8norm`, `s8norm`, `u16norm`,
/// `s16norm`, `srgba8`) holding the real value `x`; `None` for other formats.
pub fn encode_element(format: u32, n: u32, x: f64) -> Option<u64> {
    Some(match format {
        code::U8NORM => unorm(x, 8),
        code::S8NORM => snorm(x, 8),
        code::U16NORM => unorm(x, 16),
        code::S16NORM => snorm(x, 16),
        code::SRGBA8 if n == 3 => unorm(x, 8),
        code::SRGBA8 => unorm(linear_to_srgb(x), 8),
        _ => return None,
    })
}

/// Components in the word of a packed format (`rgb10a2`, `rg11b10f`, `rgb9e5` and the
/// truncating variants), or `None` for element formats.
pub fn packed_components(format: u32) -> Option<u32> {
    match format {
        code::RGB10A2 => Some(4),
        code::RG11B10F | code::RGB9E5 | code::RG11B10F_RTZ | code::RGB9E5_RTZ => Some(3),
        _ => None,
    }
}

/// The word of a packed format holding `v` (components beyond the format's are ignored).
pub fn pack_word(format: u32, v: [f64; 4]) -> Option<u32> {
    Some(match format {
        code::RGB10A2 => {
            (unorm(v[0], 10) | unorm(v[1], 10) << 10 | unorm(v[2], 10) << 20 | unorm(v[3], 2) << 30)
                as u32
        }
        code::RG11B10F | code::RG11B10F_RTZ => {
            let rtz = format == code::RG11B10F_RTZ;
            (small_float(v[0], 6, rtz)
                | small_float(v[1], 6, rtz) << 11
                | small_float(v[2], 5, rtz) << 22) as u32
        }
        code::RGB9E5 | code::RGB9E5_RTZ => rgb9e5([v[0], v[1], v[2]], format == code::RGB9E5_RTZ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_floats_round_and_saturate() {
        // 1.0 = exponent 15, fraction 0.
        assert_eq!(small_float(1.0, 6, false), 15 << 6);
        // 1 + 1/128 is halfway between 1 and 1 + 1/64 (6 fraction bits): even is 1.0.
        assert_eq!(small_float(1.0 + 1.0 / 128.0, 6, false), 15 << 6);
        assert_eq!(small_float(1.0 + 3.0 / 128.0, 6, false), 15 << 6 | 2);
        assert_eq!(small_float(1.0 + 3.0 / 128.0, 6, true), 15 << 6 | 1);
        // Largest finite 11-bit float: (2 - 2^-6) * 2^15 = 65024; beyond rounds to infinity
        // or, toward zero, stays at the largest.
        assert_eq!(small_float(70000.0, 6, false), 0x7c0);
        assert_eq!(small_float(70000.0, 6, true), 0x7bf);
        assert_eq!(small_float(-3.0, 5, false), 0);
        assert_eq!(small_float(f64::NAN, 5, false), 0x3f0);
    }
}
