//! Blending in the generated fragment epilog: the destination loaded from the tile buffer,
//! the blend equations of Mesa's `nir_lower_blend` computed in fp32, the result stored.
//!
//! Registers `r36`…`r52` are the blend's temporaries. Order and precision (gpuabi's, so a reference can repeat them bit for bit): the source
//! is clamped for normalised formats (`fadd x, -0.0, sat` for unorm, the same clamp to
//! [−1, 1] with `csel` for snorm, as `nir_fsat_to_format` does); the destination is loaded
//! with `ld_tile` (the hardware converts) and clamped the same way when the tile holds
//! fp16 for a normalised format (RGB565, RGBA4: Mesa's `load_tilebuffer`); each term is
//! `fmul(value, factor)` rounded to fp32, a factor of zero contributes 0 and a factor of one
//! the value unmultiplied (NIR's algebraic rules fold both); `add` is `fadd(s, d)`,
//! `subtract` `fadd(s, −d)`, `reverse_subtract` `fadd(d, −s)`, `min`/`max` a `csel` on
//! `flt`/`fgt`; the result is clamped again for normalised formats. A missing destination
//! alpha reads 1.0. Colour-masked components keep the destination value, so the store
//! writes every component. The blend constant is read from the fp32 uniforms `u2`…`u5`
//! (halves 4..11 of the fragment ABI).

use crate::abi::FUNI_BLEND_R;
use crate::blend::{BlendFactor, BlendFunc, Equation};

/// Registers of the blend: source copies, destination, two scratch registers.
pub const SRC: u16 = 36;
/// First destination register, as loaded.
pub const DST: u16 = 41;
/// First register of the clamped destination (fp16 tiles of normalised formats), so that
/// colour-masked components keep the value loaded.
pub const DST_CLAMPED: u16 = 49;
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

/// Emits a clamp of `r` in place.
pub fn clamp(line: &mut dyn FnMut(String), r: &str, norm: Norm) {
    match norm {
        Norm::None => {}
        Norm::Unorm => line(format!("fadd {r}, {r}, -0.0, sat")),
        Norm::Snorm => {
            // The selected values of a select are registers or integers: the bounds go
            // through registers.
            let (m, p) = (format!("r{MINUS_ONE}"), format!("r{ONE}"));
            line(format!("ldimm {m}, {}", (-1.0f32).to_bits()));
            line(format!("ldimm {p}, {}", 1.0f32.to_bits()));
            line(format!("csel {r}, {r}, {m}, {r}, {m}, fgt"));
            line(format!("csel {r}, {r}, {p}, {p}, {r}, fgt"));
        }
    }
}

/// The operand of factor `f` for component `c`, emitting into `into` what it needs; `None`
/// for zero, `Some("1")` marks one.
fn factor(
    line: &mut dyn FnMut(String),
    f: BlendFactor,
    c: u16,
    comps: u16,
    dst: u16,
    into: &str,
) -> Option<String> {
    let s = |k: u16| format!("r{}", SRC + k);
    let d = |k: u16| {
        if k >= comps {
            "1.0".to_string()
        } else {
            format!("r{}", dst + k)
        }
    };
    let constant = |k: u16| format!("u{}", (FUNI_BLEND_R + 2 * k) / 2);
    let one_minus = |line: &mut dyn FnMut(String), x: String| {
        line(format!("fadd {into}, {x}.neg, 1.0"));
        Some(into.to_string())
    };
    match f {
        BlendFactor::Zero => None,
        BlendFactor::One => Some("1".into()),
        BlendFactor::SrcColor => Some(s(c)),
        BlendFactor::OneMinusSrcColor => one_minus(line, s(c)),
        BlendFactor::SrcAlpha => Some(s(3)),
        BlendFactor::OneMinusSrcAlpha => one_minus(line, s(3)),
        BlendFactor::DstColor => Some(d(c)),
        BlendFactor::OneMinusDstColor if c >= comps => None,
        BlendFactor::OneMinusDstColor => one_minus(line, d(c)),
        BlendFactor::DstAlpha => Some(d(3)),
        BlendFactor::OneMinusDstAlpha if comps < 4 => None,
        BlendFactor::OneMinusDstAlpha => one_minus(line, d(3)),
        BlendFactor::SrcAlphaSaturate if c == 3 => Some("1".into()),
        BlendFactor::SrcAlphaSaturate if comps < 4 => None,
        BlendFactor::SrcAlphaSaturate => {
            line(format!("fadd {into}, {}.neg, 1.0", d(3)));
            line(format!(
                "csel {into}, {}, {into}, {}, {into}, flt",
                s(3),
                s(3)
            ));
            Some(into.to_string())
        }
        BlendFactor::ConstantColor => Some(constant(c)),
        BlendFactor::OneMinusConstantColor => one_minus(line, constant(c)),
        BlendFactor::ConstantAlpha => Some(constant(3)),
        BlendFactor::OneMinusConstantAlpha => one_minus(line, constant(3)),
        // Dual source is rejected before.
        _ => None,
    }
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

/// A term `value · factor` into `into` (or nothing for a zero factor).
fn term(
    line: &mut dyn FnMut(String),
    value: &str,
    f: Option<String>,
    into: &str,
) -> Option<String> {
    match f {
        None => None,
        Some(one) if one == "1" => Some(value.to_string()),
        Some(x) => {
            line(format!("fmul {into}, {value}, {x}"));
            Some(into.to_string())
        }
    }
}

/// Emits the blended component `c` into `r(SRC + c)` (sources loaded, the destination
/// from `r(dst_base)` on).
pub fn component(line: &mut dyn FnMut(String), eq: &Equation, c: u16, comps: u16, dst_base: u16) {
    let out = format!("r{}", SRC + c);
    let dst = format!("r{}", dst_base + c);
    match eq.func {
        BlendFunc::Min => line(format!("csel {out}, {out}, {dst}, {out}, {dst}, flt")),
        BlendFunc::Max => line(format!("csel {out}, {out}, {dst}, {out}, {dst}, fgt")),
        _ => {
            let (t0, t1) = (format!("r{T0}"), format!("r{T1}"));
            let sf = factor(line, eq.src, c, comps, dst_base, &t0);
            let a = term(line, &out, sf, &t0);
            let df = factor(line, eq.dst, c, comps, dst_base, &t1);
            let b = term(line, &dst, df, &t1);
            let zero = "0.0".to_string();
            let (a, b) = (a.unwrap_or_else(|| zero.clone()), b.unwrap_or(zero));
            match eq.func {
                BlendFunc::Add => line(format!("fadd {out}, {a}, {b}")),
                BlendFunc::Subtract => line(format!("fadd {out}, {a}, {}", neg(&b))),
                _ => line(format!("fadd {out}, {b}, {}", neg(&a))),
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
