//! Blending in the fragment epilog: the source colour clamped, the destination read from
//! the tile buffer, the blend equations of Mesa's `nir_lower_blend` computed at the colour's
//! size (fp32 for 32-bit colours, fp16 with the 16-bit ALU for 16-bit ones), the result
//! stored.
//!
//! Order and precision (gpuabi's, so that a reference can repeat them bit for bit): every
//! operation below is one instruction at the colour's size, rounded once to that size
//! (nearest even; fp32 flushes subnormals, fp16 keeps them). The source (and the
//! dual-source colour, location 1) is clamped for normalised formats (`add x, −0.0, sat` for
//! unorm; for snorm `x > −1 ? x : −1` then `x > 1 ? 1 : x` with `csel`, as
//! `nir_fsat_to_format` does); the destination is loaded with `ld_tile` (the hardware
//! converts to the colour's size; a 16-bit colour of a 32-bit float format loads fp32 and
//! rounds it to fp16) and clamped the same way when the tile holds fp16 for a normalised
//! format (RGB565, RGBA4: Mesa's `load_tilebuffer`); a missing destination alpha reads 1.0.
//! The blend constant is read from the fp32 uniforms `u2`…`u5` (halves 4..11 of the
//! fragment ABI), rounded to fp16 for 16-bit colours (`nir_f2f16`). A factor is its value;
//! an inverted factor `add(−x, 1.0)`; `src_alpha_saturate` is `a < t ? a : t` with
//! `t = add(−dst.a, 1.0)` (`t = +0.0` without a destination alpha) and 1 for alpha; factors
//! are clamped to the format as `should_clamp_factor` of `nir_lower_blend` says (constant
//! factors for normalised formats, inverted colour factors and `src_alpha_saturate` for
//! snorm). Each term is `mul(value, factor)`; a factor of zero contributes +0.0 and a factor
//! of one the value unmultiplied (NIR's algebraic rules fold both); `add` is `add(s, d)`,
//! `subtract` `add(s, −d)`, `reverse_subtract` `add(d, −s)`, `min`/`max` a `csel` on
//! `flt`/`fgt` of source and destination; the result is clamped again for normalised
//! formats. Colour-masked components keep the destination value as loaded, so the store
//! writes every component.

use crate::abi::FUNI_BLEND_R;
use crate::blend::{BlendFactor, BlendFunc, Equation};

/// Registers of the blend: source copies.
pub const SRC: u16 = 36;
/// First destination register, as loaded.
pub const DST: u16 = 41;
/// First register of the clamped destination (fp16 tiles of normalised formats), so that
/// colour-masked components keep the value loaded; also the 32-bit staging registers of a
/// 16-bit colour's loads and stores of 32-bit formats.
pub const DST_CLAMPED: u16 = 49;
/// First register of the dual-source colour's copy.
pub const SRC1: u16 = 53;
/// First register of the blend constant rounded to fp16.
const CONST16: u16 = 59;
/// Scratch for factors and terms.
const T0: u16 = 45;
const T1: u16 = 46;
/// Hold −1.0 and 1.0 for the snorm clamp.
const MINUS_ONE: u16 = 47;
const ONE: u16 = 48;

/// How a format's values are clamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// Not normalised.
    None,
    /// [0, 1].
    Unorm,
    /// [−1, 1].
    Snorm,
}

/// Component `c` of the `size`-bit vector starting at register `base`: register `base + c`,
/// or for 16 bits half `2·base + c` (tuples of 16-bit values are consecutive halves).
pub fn comp(base: u16, c: u16, size: u8) -> String {
    if size == 16 {
        let half = 2 * base + c;
        format!(
            "r{}{}",
            half / 2,
            if half.is_multiple_of(2) { "l" } else { "h" }
        )
    } else {
        format!("r{}", base + c)
    }
}

/// The tuple of components `0..n` of the vector at `base`.
pub fn tuple(base: u16, n: u16, size: u8) -> String {
    (0..n)
        .map(|c| comp(base, c, size))
        .collect::<Vec<_>>()
        .join("_")
}

/// Register `r` at `size` bits: the whole register, or its low half.
pub fn sized(r: u16, size: u8) -> String {
    if size == 16 {
        format!("r{r}l")
    } else {
        format!("r{r}")
    }
}

/// The float add and multiply mnemonics of a size (the 16-bit ALU for fp16).
pub fn float_ops(size: u8) -> (&'static str, &'static str) {
    if size == 16 {
        ("hadd", "hmul")
    } else {
        ("fadd", "fmul")
    }
}

/// The bits of `x` as a float of `size` bits.
pub fn float_bits(x: f32, size: u8) -> u32 {
    if size == 16 {
        u32::from(half_bits(x))
    } else {
        x.to_bits()
    }
}

/// fp16 bits of the small exact constants the epilog loads (±1.0).
fn half_bits(x: f32) -> u16 {
    match x {
        1.0 => 0x3c00,
        -1.0 => 0xbc00,
        _ => 0,
    }
}

/// Emits a clamp of `r` (`size` bits) in place.
pub fn clamp(line: &mut dyn FnMut(String), r: &str, norm: Norm, size: u8) {
    let (add, _) = float_ops(size);
    match norm {
        Norm::None => {}
        Norm::Unorm => line(format!("{add} {r}, {r}, -0.0, sat")),
        Norm::Snorm => {
            // The selected values of a select are registers or integers: the bounds go
            // through registers.
            let (m, p) = (sized(MINUS_ONE, size), sized(ONE, size));
            line(format!("ldimm {m}, {}", float_bits(-1.0, size)));
            line(format!("ldimm {p}, {}", float_bits(1.0, size)));
            line(format!("csel {r}, {r}, {m}, {r}, {m}, fgt"));
            line(format!("csel {r}, {r}, {p}, {p}, {r}, fgt"));
        }
    }
}

/// What one blend of a render target works on.
#[derive(Debug, Clone, Copy)]
pub struct BlendInput {
    /// Colour size in bits.
    pub size: u8,
    /// Components of the format.
    pub comps: u16,
    /// First register of the destination the factors read.
    pub dst: u16,
    /// Clamp of the format.
    pub norm: Norm,
}

/// Whether `should_clamp_factor` of `nir_lower_blend` clamps factor `f`.
fn clamps_factor(f: BlendFactor, norm: Norm) -> bool {
    use BlendFactor as F;
    match f {
        F::Zero | F::One => false,
        F::ConstantColor
        | F::OneMinusConstantColor
        | F::ConstantAlpha
        | F::OneMinusConstantAlpha => norm != Norm::None,
        F::OneMinusSrcColor
        | F::OneMinusSrcAlpha
        | F::OneMinusDstColor
        | F::OneMinusDstAlpha
        | F::OneMinusSrc1Color
        | F::OneMinusSrc1Alpha
        | F::SrcAlphaSaturate => norm == Norm::Snorm,
        _ => false,
    }
}

/// The operand of factor `f` for component `c`, emitting into `into` what it needs; `None`
/// for zero, `Some("1")` marks one.
fn factor(
    line: &mut dyn FnMut(String),
    f: BlendFactor,
    c: u16,
    inp: &BlendInput,
    into: &str,
) -> Option<String> {
    use BlendFactor as F;
    let size = inp.size;
    let (add, _) = float_ops(size);
    let s = |k: u16| comp(SRC, k, size);
    let s1 = |k: u16| comp(SRC1, k, size);
    let d = |k: u16| {
        if k >= inp.comps {
            "1.0".to_string()
        } else {
            comp(inp.dst, k, size)
        }
    };
    let constant = |line: &mut dyn FnMut(String), k: u16| {
        let u = format!("u{}", (FUNI_BLEND_R + 2 * k) / 2);
        if size == 16 {
            let r = comp(CONST16, k, 16);
            line(format!("fadd {r}, {u}, -0.0"));
            r
        } else {
            u
        }
    };
    let one_minus = |line: &mut dyn FnMut(String), x: String| {
        line(format!("{add} {into}, {x}.neg, 1.0"));
        into.to_string()
    };
    let value = match f {
        F::Zero => return None,
        F::One => return Some("1".into()),
        F::SrcColor => s(c),
        F::OneMinusSrcColor => one_minus(line, s(c)),
        F::SrcAlpha => s(3),
        F::OneMinusSrcAlpha => one_minus(line, s(3)),
        F::Src1Color => s1(c),
        F::OneMinusSrc1Color => one_minus(line, s1(c)),
        F::Src1Alpha => s1(3),
        F::OneMinusSrc1Alpha => one_minus(line, s1(3)),
        F::DstColor => d(c),
        F::OneMinusDstColor => one_minus(line, d(c)),
        F::DstAlpha => d(3),
        F::OneMinusDstAlpha if inp.comps < 4 => return None,
        F::OneMinusDstAlpha => one_minus(line, d(3)),
        F::SrcAlphaSaturate if c == 3 => return Some("1".into()),
        F::SrcAlphaSaturate => {
            if inp.comps < 4 {
                line(format!("mov {into}, 0"));
            } else {
                line(format!("{add} {into}, {}.neg, 1.0", d(3)));
            }
            line(format!(
                "csel {into}, {}, {into}, {}, {into}, flt",
                s(3),
                s(3)
            ));
            into.to_string()
        }
        F::ConstantColor => constant(line, c),
        F::OneMinusConstantColor => {
            let k = constant(line, c);
            one_minus(line, k)
        }
        F::ConstantAlpha => constant(line, 3),
        F::OneMinusConstantAlpha => {
            let k = constant(line, 3);
            one_minus(line, k)
        }
    };
    if clamps_factor(f, inp.norm) {
        if value != into {
            line(format!("{add} {into}, {value}, -0.0"));
        }
        clamp(line, into, inp.norm, size);
        return Some(into.to_string());
    }
    Some(value)
}

/// Whether the equations use dual-source factors.
pub fn dual_source(eqs: &[Equation; 2]) -> bool {
    eqs.iter().any(|e| {
        [e.src, e.dst].iter().any(|f| {
            matches!(
                f,
                BlendFactor::Src1Color
                    | BlendFactor::OneMinusSrc1Color
                    | BlendFactor::Src1Alpha
                    | BlendFactor::OneMinusSrc1Alpha
            )
        })
    })
}

/// Whether the equations leave the source unchanged (`src·1 + dst·0` for both).
pub fn is_replace(eqs: &[Equation; 2]) -> bool {
    eqs.iter().all(|e| *e == Equation::REPLACE)
}

/// A term `value · factor` into `into` (or nothing for a zero factor).
fn term(
    line: &mut dyn FnMut(String),
    value: &str,
    f: Option<String>,
    into: &str,
    size: u8,
) -> Option<String> {
    let (_, mul) = float_ops(size);
    match f {
        None => None,
        Some(one) if one == "1" => Some(value.to_string()),
        Some(x) => {
            line(format!("{mul} {into}, {value}, {x}"));
            Some(into.to_string())
        }
    }
}

/// Emits the blended component `c` into the source register `c` (sources loaded and
/// clamped, the destination from `inp.dst` on).
pub fn component(line: &mut dyn FnMut(String), eq: &Equation, c: u16, inp: &BlendInput) {
    let size = inp.size;
    let (add, _) = float_ops(size);
    let out = comp(SRC, c, size);
    let dst = comp(inp.dst, c, size);
    match eq.func {
        BlendFunc::Min => line(format!("csel {out}, {out}, {dst}, {out}, {dst}, flt")),
        BlendFunc::Max => line(format!("csel {out}, {out}, {dst}, {out}, {dst}, fgt")),
        _ => {
            let (t0, t1) = (sized(T0, size), sized(T1, size));
            let sf = factor(line, eq.src, c, inp, &t0);
            let a = term(line, &out, sf, &t0, size);
            let df = factor(line, eq.dst, c, inp, &t1);
            let b = term(line, &dst, df, &t1, size);
            let zero = "0.0".to_string();
            let (a, b) = (a.unwrap_or_else(|| zero.clone()), b.unwrap_or(zero));
            match eq.func {
                BlendFunc::Add => line(format!("{add} {out}, {a}, {b}")),
                BlendFunc::Subtract => line(format!("{add} {out}, {a}, {}", neg(&b))),
                _ => line(format!("{add} {out}, {b}, {}", neg(&a))),
            }
        }
    }
}

fn neg(x: &str) -> String {
    if x == "0.0" {
        "-0.0".into()
    } else {
        format!("{x}.neg")
    }
}
