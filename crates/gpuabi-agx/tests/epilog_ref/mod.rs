//! The reference of the epilog tests: tile bytes written from the format definitions
//! (normalised values clamped and rounded to nearest even, Mesa's `_mesa_float_to_unorm`;
//! integers clamped to the logical channel range, `nir_format_clamp_uint`/`_sint`; fp16 from
//! the `half` crate; 10-10-10-2 packed low field first) and read back the same way.

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
            Enc::Rgb10a2 => unreachable!(),
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
