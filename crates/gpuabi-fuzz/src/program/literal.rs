//! Values worth testing and their text in the canonical `.gsir` form.

use super::rng::Rng;
use super::Ty;

/// f32 bit patterns where implementations differ: signed zeros, the smallest and largest
/// denormals, the normal boundaries, infinities, the default NaN `0x7fc00000`, a negative
/// quiet NaN, quiet NaNs with payloads, a signalling NaN, values that round or saturate
/// in conversions (2^31, 2^32, 2^63, 2^64 and their neighbours), and halves (rounding).
pub(super) const F32_BITS: &[u32] = &[
    0x0000_0000, // 0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007f_ffff, // largest denormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // largest finite
    0xff7f_ffff,
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // default NaN
    0xffc0_0000,
    0x7fc0_1234, // quiet NaN with payload
    0x7f80_0001, // signalling NaN
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0x3fc0_0000, // 1.5
    0xc020_0000, // -2.5
    0x4f00_0000, // 2^31
    0x4eff_ffff, // just below 2^31
    0xcf00_0000, // -2^31
    0xcf00_0001, // just below -2^31
    0x4f80_0000, // 2^32
    0x5f00_0000, // 2^63
    0x5f80_0000, // 2^64
    0xdf00_0000, // -2^63
    0x4b80_0000, // 2^24
    0x4b7f_ffff, // 2^24 - 1 (largest odd integer)
    0x3eaa_aaab, // 1/3
    0x4049_0fdb, // pi
    0x2f80_0000, // tiny normal
];

/// i32 values at the edges of signed and unsigned ranges and of shift amounts.
pub(super) const I32_VALUES: &[i32] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    31,
    32,
    33,
    255,
    256,
    65535,
    65536,
    i32::MAX,
    i32::MIN,
    i32::MIN + 1,
    0x5555_5555,
    -0x5555_5556,
    1000,
    -1000,
];

/// i64 values at the edges of the 32- and 64-bit ranges.
pub(super) const I64_VALUES: &[i64] = &[
    0,
    1,
    -1,
    63,
    64,
    65,
    0xffff_ffff,
    0x1_0000_0000,
    -0x1_0000_0000,
    i32::MAX as i64,
    i32::MIN as i64,
    i64::MAX,
    i64::MIN,
    i64::MIN + 1,
    0x5555_5555_5555_5555,
    0x0123_4567_89ab_cdef,
];

/// A random literal of `ty` (`ty` is not `ptr`), interesting values most of the time.
pub(super) fn random(rng: &mut Rng, ty: Ty) -> String {
    match ty {
        Ty::I1 => text(ty, rng.below(2) as u64),
        Ty::I32 => {
            let v = if rng.chance(70) {
                rng.pick(I32_VALUES)
            } else {
                rng.next_u64() as i32 >> rng.below(32)
            };
            text(ty, u64::from(v as u32))
        }
        Ty::I64 => {
            let v = if rng.chance(70) {
                rng.pick(I64_VALUES)
            } else {
                rng.next_u64() as i64 >> rng.below(64)
            };
            text(ty, v as u64)
        }
        Ty::F32 => text(ty, u64::from(random_f32(rng))),
        Ty::Ptr => text(ty, 0),
    }
}

/// Bits of a random f32: interesting ones most of the time, otherwise random bits
/// (which include more NaNs and denormals) or a small number.
pub(super) fn random_f32(rng: &mut Rng) -> u32 {
    match rng.below(10) {
        0..=5 => rng.pick(F32_BITS),
        6 | 7 => rng.next_u64() as u32,
        _ => ((rng.range(0, 64) as f32 - 32.0) * 0.25).to_bits(),
    }
}

/// The canonical text of a literal, as the `.gsir` printer writes it: `i1` as
/// `true`/`false`, integers in signed decimal, finite f32 in the shortest decimal that
/// reads back to the same bits, other f32 (infinities, NaNs) as raw bits `0x7fc00000`,
/// pointers in hex.
pub(super) fn text(ty: Ty, bits: u64) -> String {
    match ty {
        Ty::I1 => if bits & 1 != 0 { "true" } else { "false" }.to_string(),
        Ty::I32 => (bits as u32 as i32).to_string(),
        Ty::I64 => (bits as i64).to_string(),
        Ty::F32 => {
            let f = f32::from_bits(bits as u32);
            if f.is_finite() {
                format!("{f:?}")
            } else {
                format!("{:#010x}", bits as u32)
            }
        }
        Ty::Ptr => format!("{bits:#x}"),
    }
}
