//! Device loads: addressing and format conversion as applegpu's emulator models
//! `device_load` (`applegpu.py`, `DeviceLoadInstructionDesc`).

/// How a memory format is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One element of this many bytes per mask bit, copied zero-extended.
    Raw(u64),
    /// One element of this many bytes per mask bit, converted to float.
    Convert(u64),
    /// One aligned 32-bit word holding this many components, converted to float.
    Packed(u32),
}

/// The layout of format code `f` (the `format` field), or `None` when not modelled.
pub fn layout(f: u32) -> Option<Layout> {
    Some(match f {
        0 => Layout::Raw(1),
        1 | 3 => Layout::Raw(2),
        2 => Layout::Raw(4),
        4 | 5 | 10 => Layout::Convert(1),
        6 | 7 => Layout::Convert(2),
        8 => Layout::Packed(4),
        12 | 13 => Layout::Packed(3),
        _ => return None,
    })
}

/// sRGB to linear (the sRGB transfer function), quantised to 12 bits and held as fp32:
/// `round(linear(k / 255) * 4095) / 4095`, which reproduces the table of hardware
/// results in applegpu's `srgb.py` for every byte.
fn srgb_to_linear(k: u64) -> f64 {
    let c = k as f64 / 255.0;
    let lin = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    f64::from(((lin * 4095.0).round() / 4095.0) as f32)
}

/// An 11- or 10-bit unsigned float (5-bit exponent, `mant` fraction bits).
pub(crate) fn small_float_value(n: u64, mant: u32) -> f64 {
    let e = ((n >> mant) & 0x1f) as i32;
    let m = n & ((1 << mant) - 1);
    if e == 0x1f {
        return if m != 0 { f64::NAN } else { f64::INFINITY };
    }
    let (implicit, e) = if e == 0 { (0, 1) } else { (1u64 << mant, e) };
    ((implicit | m) as f64 / (1u64 << mant) as f64) * 2f64.powi(e - 15)
}

/// The real value of element `n` of a converted format `f` read as `value` (for packed
/// formats, `value` is the whole 32-bit word).
pub fn convert(f: u32, n: u32, value: u64) -> f64 {
    let sext = |v: u64, bits: u32| ((v << (64 - bits)) as i64) >> (64 - bits);
    match f {
        4 => value as f64 / 255.0,
        5 => sext(value, 8).max(-127) as f64 / 127.0,
        6 => value as f64 / 65535.0,
        7 => sext(value, 16).max(-32767) as f64 / 32767.0,
        8 => match n {
            3 => ((value >> 30) & 3) as f64 / 3.0,
            _ => ((value >> (10 * n)) & 1023) as f64 / 1023.0,
        },
        10 if n == 3 => value as f64 / 255.0,
        10 => srgb_to_linear(value),
        12 | 14 => match n {
            0 => small_float_value(value & 0x7ff, 6),
            1 => small_float_value((value >> 11) & 0x7ff, 6),
            _ => small_float_value((value >> 22) & 0x3ff, 5),
        },
        13 | 15 => {
            let e = (value >> 27) as i32 - 15;
            let m = (value >> (9 * n)) & 0x1ff;
            2f64.powi(e) * m as f64 / 512.0
        }
        _ => 0.0,
    }
}
