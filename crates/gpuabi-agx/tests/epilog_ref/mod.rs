//! The reference of the epilog tests: tile bytes written from the format definitions
//! (normalised values clamped and rounded to nearest even, Mesa's `_mesa_float_to_unorm`;
//! integers clamped to the logical channel range, `nir_format_clamp_uint`/`_sint`; fp16 from
//! the `half` crate; 10-10-10-2 packed low field first) and read back the same way, and the
//! pixels of spilled targets' images in the memory layout of their pipe formats.

#![allow(dead_code)]

use half::f16;

#[derive(Clone, Copy)]
pub enum Enc {
    Unorm(u32),
    Snorm(u32),
    Uint(u32),
    Sint(u32),
    Raw32,
    Raw32Uint,
    F16,
    Rgb10a2,
    /// sRGB-encoded red, green and blue bytes with a linear alpha byte.
    Srgb8,
    /// 11-11-10-bit unsigned floats in one word, rounded to nearest even.
    Rg11b10,
    /// 9-bit mantissas with a shared 5-bit exponent in one word.
    Rgb9e5,
}

/// The unsigned float with a 5-bit exponent (bias 15) and `mant` fraction bits nearest to
/// `x` (ties to even): negative values and −inf give 0, NaN the all-ones exponent with the
/// top fraction bit, values rounding past the largest finite one infinity (IEEE 754).
pub fn small_float(x: f64, mant: u32) -> u64 {
    let inf = 0x1fu64 << mant;
    if x.is_nan() {
        return inf | 1 << (mant - 1);
    }
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return inf;
    }
    let e = ((((x.to_bits() >> 52) & 0x7ff) as i32) - 1023).max(-14);
    let m = (x / 2f64.powi(e - mant as i32)).round_ties_even() as u64;
    if m < 1 << mant {
        // Subnormal (or rounded up to the smallest normal, which is the same code).
        return m;
    }
    let (m, e) = if m >> (mant + 1) != 0 {
        (m >> 1, e + 1)
    } else {
        (m, e)
    };
    let biased = e + 15;
    if biased >= 31 {
        return inf;
    }
    (biased as u64) << mant | (m & ((1 << mant) - 1))
}

/// The value of a 5-bit-exponent unsigned float with `mant` fraction bits.
pub fn small_float_value(n: u64, mant: u32) -> f64 {
    let e = (n >> mant) & 0x1f;
    let m = n & ((1 << mant) - 1);
    match e {
        0x1f if m != 0 => f64::NAN,
        0x1f => f64::INFINITY,
        0 => m as f64 * 2f64.powi(-14 - mant as i32),
        _ => (m | 1 << mant) as f64 * 2f64.powi(e as i32 - 15 - mant as i32),
    }
}

/// Red, green and blue as `rgb9e5`, by the algorithm of the OpenGL
/// `EXT_texture_shared_exponent` specification (N = 9, B = 15, Emax = 31).
pub fn rgb9e5(v: [f64; 3]) -> u32 {
    let max_value = 511.0 / 512.0 * 65536.0;
    let c = v.map(|x| {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, max_value)
        }
    });
    let maxc = c[0].max(c[1]).max(c[2]);
    let floor_log2 = if maxc > 0.0 {
        (((maxc.to_bits() >> 52) & 0x7ff) as i32) - 1023
    } else {
        -16
    };
    let mut exp = floor_log2.max(-16) + 1 + 15;
    let maxm = (maxc / 2f64.powi(exp - 15 - 9) + 0.5).floor();
    if maxm == 512.0 {
        exp += 1;
    }
    let scale = 2f64.powi(exp - 15 - 9);
    let m = c.map(|x| (x / scale + 0.5).floor() as u32);
    m[0] | m[1] << 9 | m[2] << 18 | (exp as u32) << 27
}

/// Component `c` of an `rgb9e5` word.
pub fn rgb9e5_value(w: u32, c: usize) -> f64 {
    let m = (w >> (9 * c)) & 0x1ff;
    f64::from(m) * 2f64.powi((w >> 27) as i32 - 15 - 9)
}

/// Linear to sRGB (IEC 61966-2-1), clamped to [0, 1], NaN to 0.
pub fn linear_to_srgb(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else if x <= 0.0031308 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

/// sRGB byte `k` to linear as the hardware gives it: the exact value quantised to 12 bits,
/// `round(linear · 4095) / 4095`, held as fp32 (the table of applegpu's `srgb.py`).
pub fn srgb_to_linear(k: u64) -> f64 {
    let c = k as f64 / 255.0;
    let lin = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    f64::from(((lin * 4095.0).round() / 4095.0) as f32)
}

pub fn unorm(x: f64, bits: u32) -> u64 {
    let max = ((1u64 << bits) - 1) as f64;
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * max).round_ties_even() as u64
    }
}

pub fn snorm(x: f64, bits: u32) -> u64 {
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    let v = if x.is_nan() {
        0
    } else {
        (x.clamp(-1.0, 1.0) * max).round_ties_even() as i64
    };
    (v as u64) & ((1u64 << bits) - 1)
}

/// The stored bytes of `rt`'s components (registers `regs`, `size` bits each; only masked
/// components change `out`).
pub fn encode(
    enc: Enc,
    comps: u32,
    el: usize,
    regs: &[u64; 4],
    size: u32,
    mask: u8,
    out: &mut [u8],
) {
    let real = |v: u64| {
        if size == 16 {
            f16::from_bits(v as u16).to_f64()
        } else {
            f64::from(f32::from_bits(v as u32))
        }
    };
    let put = |out: &mut [u8], at: usize, v: u64, n: usize| {
        for b in 0..n {
            out[at + b] = (v >> (8 * b)) as u8;
        }
    };
    if let Enc::Rg11b10 | Enc::Rgb9e5 = enc {
        // The generator stores every component of these (they have no masked stores).
        assert_eq!(mask, 7, "packed floats are stored whole");
        let v = [real(regs[0]), real(regs[1]), real(regs[2])];
        let w = match enc {
            Enc::Rg11b10 => {
                small_float(v[0], 6) | small_float(v[1], 6) << 11 | small_float(v[2], 5) << 22
            }
            _ => u64::from(rgb9e5(v)),
        };
        put(out, 0, w, 4);
        return;
    }
    if let Enc::Rgb10a2 = enc {
        let mut w = u32::from_le_bytes(out[..4].try_into().unwrap()) as u64;
        for c in 0..4 {
            let (shift, bits) = if c == 3 { (30, 2) } else { (10 * c, 10) };
            if mask >> c & 1 == 1 {
                w = (w & !(((1u64 << bits) - 1) << shift))
                    | unorm(real(regs[c as usize]), bits) << shift;
            }
        }
        put(out, 0, w, 4);
        return;
    }
    for (c, &v) in regs.iter().enumerate().take(comps as usize) {
        if mask >> c & 1 == 0 {
            continue;
        }
        let stored = match enc {
            Enc::Unorm(b) => unorm(real(v), b),
            Enc::Srgb8 if c < 3 => unorm(linear_to_srgb(real(v)), 8),
            Enc::Srgb8 => unorm(real(v), 8),
            Enc::Snorm(b) => snorm(real(v), b),
            Enc::F16 => {
                if size == 16 {
                    v
                } else {
                    u64::from(f16::from_f32(f32::from_bits(v as u32)).to_bits())
                }
            }
            Enc::Raw32 => {
                if size == 32 {
                    v
                } else {
                    // Widened: fp16 to fp32 for floats, zero-extension for uints.
                    u64::from(f16::from_bits(v as u16).to_f32().to_bits())
                }
            }
            // Widened from 16 bits by zero extension.
            Enc::Raw32Uint => v,
            Enc::Uint(b) => {
                let b = if b == 10 && c == 3 { 2 } else { b };
                v.min((1u64 << b) - 1)
            }
            Enc::Sint(b) => {
                let s = if size == 16 {
                    v as u16 as i16 as i64
                } else {
                    v as u32 as i32 as i64
                };
                let (lo, hi) = (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1);
                s.clamp(lo, hi) as u64
            }
            Enc::Rgb10a2 | Enc::Rg11b10 | Enc::Rgb9e5 => unreachable!(),
        };
        put(out, c * el, stored, el);
    }
}

pub fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

// ---- images of spilled render targets ----------------------------------------------

/// The numeric kind of a format's channels.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Numeric {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
}

/// The memory layout of a pipe format as its name defines it (`u_format.csv`): bytes per
/// pixel and, per field from the lowest bits up, the logical component, bit offset and
/// width. Array formats have component `c` at bit `c · width`; packed ones list their
/// channels from the least significant bits (`B5G6R5` starts with blue).
pub fn mem_layout(name: &str) -> (usize, Vec<(usize, u32, u32)>) {
    let array = |comps: usize, w: u32| {
        (
            comps * w as usize / 8,
            (0..comps).map(|c| (c, c as u32 * w, w)).collect(),
        )
    };
    match name {
        "B5G6R5_UNORM" => (2, vec![(2, 0, 5), (1, 5, 6), (0, 11, 5)]),
        "R4G4B4A4_UNORM" => (2, (0..4).map(|c| (c, 4 * c as u32, 4)).collect()),
        "R10G10B10A2_UNORM" | "R10G10B10A2_UINT" => {
            (4, vec![(0, 0, 10), (1, 10, 10), (2, 20, 10), (3, 30, 2)])
        }
        "B10G10R10A2_UNORM" => (4, vec![(2, 0, 10), (1, 10, 10), (0, 20, 10), (3, 30, 2)]),
        "B8G8R8A8_SRGB" => (4, vec![(2, 0, 8), (1, 8, 8), (0, 16, 8), (3, 24, 8)]),
        "R11G11B10_FLOAT" => (4, vec![(0, 0, 11), (1, 11, 11), (2, 22, 10)]),
        // The shared exponent is handled whole by `mem_destination` and `mem_store`.
        "R9G9B9E5_FLOAT" => (4, vec![(0, 0, 9), (1, 9, 9), (2, 18, 9)]),
        "B8G8R8A8_UNORM" => (4, vec![(2, 0, 8), (1, 8, 8), (0, 16, 8), (3, 24, 8)]),
        _ => {
            let layout = name.rsplit_once('_').unwrap().0;
            let comps = layout.matches(['R', 'G', 'B', 'A']).count();
            let w: u32 = layout[1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .unwrap();
            array(comps, w)
        }
    }
}

fn field(bytes: &[u8], shift: u32, w: u32) -> u64 {
    let word = bytes
        .iter()
        .rev()
        .fold(0u128, |v, &b| v << 8 | u128::from(b));
    ((word >> shift) & ((1u128 << w) - 1)) as u64
}

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

fn at_size(x: f64, size: u32) -> u64 {
    if size == 16 {
        u64::from(f16::from_f64(x).to_bits())
    } else {
        u64::from((x as f32).to_bits())
    }
}

/// A real as a register of `size` bits (rounded to fp16 or fp32).
fn float_at_size(x: f64, size: u32) -> u64 {
    if size == 16 {
        u64::from(f16::from_f64(x).to_bits())
    } else {
        u64::from((x as f32).to_bits())
    }
}

/// The destination of a spilled target as the texel fetch gives it at `size` bits: the
/// pixel's fields converted (normalised to reals, floats exact or rounded to fp16,
/// integers zero- or sign-extended and truncated to the register).
pub fn mem_destination(name: &str, numeric: Numeric, pixel: &[u8], size: u32) -> [u64; 4] {
    let mut out = [0u64; 4];
    let reg_mask = (1u64 << size) - 1;
    let srgb = name.ends_with("_SRGB");
    if name == "R9G9B9E5_FLOAT" {
        let w = field(pixel, 0, 32) as u32;
        for (c, o) in out.iter_mut().enumerate().take(3) {
            *o = float_at_size(rgb9e5_value(w, c), size);
        }
        return out;
    }
    for (c, shift, w) in mem_layout(name).1 {
        let v = field(pixel, shift, w);
        out[c] = match numeric {
            Numeric::Float if w < 16 => float_at_size(small_float_value(v, w - 5), size),
            Numeric::Unorm if srgb && c < 3 => at_size(srgb_to_linear(v), size),
            Numeric::Unorm => at_size(v as f64 / ((1u64 << w) - 1) as f64, size),
            Numeric::Snorm => {
                let max = ((1i64 << (w - 1)) - 1) as f64;
                at_size((sext(v, w) as f64).max(-max) / max, size)
            }
            Numeric::Float if w == 16 => {
                if size == 16 {
                    v
                } else {
                    u64::from(f16::from_bits(v as u16).to_f32().to_bits())
                }
            }
            Numeric::Float => {
                if size == 32 {
                    v
                } else {
                    u64::from(f16::from_f32(f32::from_bits(v as u32)).to_bits())
                }
            }
            Numeric::Uint => v & reg_mask,
            Numeric::Sint => (sext(v, w) as u64) & reg_mask,
        };
    }
    out
}

/// Writes the register values `regs` (`size` bits) of every component into a spilled
/// target's pixel: normalised values rounded to nearest even, floats rounded to fp16 or
/// widened exactly, integers of at most 16 bits per channel clamped to the channel (as the
/// tile buffer's stores), wider ones zero- or sign-extended from 16-bit registers.
pub fn mem_store(name: &str, numeric: Numeric, regs: &[u64; 4], size: u32, pixel: &mut [u8]) {
    let real = |v: u64| {
        if size == 16 {
            f16::from_bits(v as u16).to_f64()
        } else {
            f64::from(f32::from_bits(v as u32))
        }
    };
    let srgb = name.ends_with("_SRGB");
    if name == "R9G9B9E5_FLOAT" {
        let w = rgb9e5([real(regs[0]), real(regs[1]), real(regs[2])]);
        pixel.copy_from_slice(&w.to_le_bytes());
        return;
    }
    let mut word = 0u128;
    for (c, shift, w) in mem_layout(name).1 {
        let v = regs[c];
        let stored = match numeric {
            Numeric::Float if w < 16 => small_float(real(v), w - 5),
            Numeric::Unorm if srgb && c < 3 => unorm(linear_to_srgb(real(v)), w),
            Numeric::Unorm => unorm(real(v), w),
            Numeric::Snorm => snorm(real(v), w),
            Numeric::Float if w == 16 => {
                if size == 16 {
                    v
                } else {
                    u64::from(f16::from_f32(f32::from_bits(v as u32)).to_bits())
                }
            }
            Numeric::Float => {
                if size == 32 {
                    v
                } else {
                    u64::from(f16::from_bits(v as u16).to_f32().to_bits())
                }
            }
            Numeric::Uint if w <= 16 => v.min((1u64 << w) - 1),
            Numeric::Uint => v,
            Numeric::Sint => {
                let s = sext(v, size);
                if w <= 16 {
                    s.clamp(-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1) as u64
                } else {
                    s as u64
                }
            }
        };
        word |= u128::from(stored & ((1u64 << w) - 1)) << shift;
    }
    for (i, b) in pixel.iter_mut().enumerate() {
        *b = (word >> (8 * i)) as u8;
    }
}
