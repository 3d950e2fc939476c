//! The fragment epilog generator: from an epilog key, the AGX code that blends and stores
//! each render target's colour into the tile buffer and emits deferred depth/stencil, as
//! Mesa's `agx_nir_fs_epilog` with `nir_lower_blend` and `agx_nir_lower_tilebuffer` does
//! (blending: [`crate::epilog_blend`], single-sampled fp32 colours of float and normalised
//! formats).
//!
//! For each render target with a format and a written location (location 0 for every
//! target under `broadcast_rt0`): the colour registers of the location (32-bit: one register
//! per component at `r(4(loc + 1) + c)`; 16-bit: packed halves), alpha replaced by 1.0 for
//! location 0 under `loc0_w_1`; the size of a target's colour is that of its location
//! (under broadcast every target must give location 0's size); pure-integer formats of at most 16 bits per channel clamped
//! to the channel's range (`nir_format_clamp_uint`/`_sint` in `store_tilebuffer`); 16-bit
//! colours widened for 32-bit formats (`f2f32`/`u2u32`/`i2i32` there); the write mask from
//! the colour mask (a partial mask on a format without masked stores is not generated);
//! one `st_tile` at the target's offset in the layout of [`tilebuffer_layout`], its samples
//! all (255) or, with `sample_mask_after_force_early`, the mask in `r3h`. Depth (`r2`) and
//! stencil (`r3l`) are emitted first with `zs_emit`, one instruction each.
//!
//! Temporaries are `r36`…`r40` (past the eight colour locations `r4`…`r35`); colour
//! registers are never changed except alphas set to 1.0 (`loc0_w_1` for location 0,
//! alpha-to-one for every location, Mesa's `agx_nir_fs_epilog` step after the deferred
//! depth/stencil). Not generated yet: blending of 16-bit colours, with several samples or
//! dual source, logic ops, alpha-to-coverage, spilled
//! render targets and sample shading; keys asking for them are errors.

use gpuabi_agx_isa::assemble;
use serde::Serialize;
use thiserror::Error;

use crate::abi::fout_colour;
use crate::blend::Equation;
use crate::epilog_blend::{self, Norm};
use crate::tilebuffer::{rt_format, tilebuffer_layout, Physical, TileBufferError};

/// One render target of an epilog key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpilogRt {
    /// Pipe-format name.
    pub format: String,
    /// Colour output location feeding the target.
    pub location: u8,
    /// Register size of the location's colour: 16 or 32 bits.
    pub size: u8,
    /// Colour mask: bit `c` for r, g, b, a.
    pub colormask: u8,
    /// Blend equations (colour, alpha), or `None` when the colour replaces the
    /// destination.
    pub blend: Option<[Equation; 2]>,
}

/// A fragment epilog key (the parts this generator handles).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpilogKey {
    /// Samples per pixel.
    pub samples: u8,
    /// Depth is written (from `r2`).
    pub write_z: bool,
    /// Stencil is written (from `r3l`).
    pub write_s: bool,
    /// Stores are masked by `r3h`.
    pub sample_mask_after_force_early: bool,
    /// Location 0's alpha is 1.0 and not exported.
    pub loc0_w_1: bool,
    /// Every colour's alpha is replaced by 1.0 before it is stored (alpha-to-one).
    pub alpha_to_one: bool,
    /// Location 0 feeds every render target.
    pub broadcast_rt0: bool,
    /// Render targets, index = target.
    pub rts: Vec<Option<EpilogRt>>,
    /// Requests outside this generator: blending, logic op, alpha-to-coverage,
    /// alpha-to-one, sample shading (each is an error when set).
    pub unsupported: Vec<&'static str>,
}

/// A key the generator cannot turn into code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EpilogError {
    /// The render-target set has no layout.
    #[error(transparent)]
    Layout(#[from] TileBufferError),
    /// A feature of the key that is not generated yet.
    #[error("{0} is not generated yet")]
    NotGenerated(String),
    /// A location beyond the eight colour outputs, or a bad size.
    #[error("render target {rt}: {what}")]
    Rt {
        /// The target.
        rt: usize,
        /// What is wrong.
        what: String,
    },
    /// Generated text that does not assemble: a defect of the generator.
    #[error("generated code does not assemble: {0}")]
    Assemble(String),
}

/// A generated epilog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Epilog {
    /// Assembly text in Mesa's syntax.
    pub text: String,
    /// Machine code.
    #[serde(skip)]
    pub code: Vec<u8>,
}

/// First temporary register of a store's tuple.
const TEMP: u16 = 36;
/// Temporary for clamp constants that do not fit an immediate.
const CONSTANT: u16 = 40;
/// Largest ALU immediate.
const MAX_ALU_IMM: i64 = 0xff;

fn isa_format(p: Physical) -> &'static str {
    match p {
        Physical::I8 => "i8",
        Physical::I16 => "i16",
        Physical::I32 => "i32",
        Physical::F16 => "f16",
        Physical::U8Norm => "u8norm",
        Physical::S8Norm => "s8norm",
        Physical::U16Norm => "u16norm",
        Physical::S16Norm => "s16norm",
        Physical::Rgb10A2 => "rgb10a2",
        Physical::Srgba8 => "srgba8",
        Physical::Rg11B10F => "rg11b10f",
        Physical::Rgb9E5 => "rgb9e5",
    }
}

/// Channel sizes in bits of a pipe-format name (`R10G10B10A2_UINT` → 10, 10, 10, 2).
fn channel_bits(name: &str) -> Vec<u32> {
    let layout = name.rsplit_once('_').map_or(name, |(l, _)| l);
    let mut bits = Vec::new();
    let mut cur: Option<u32> = None;
    for ch in layout.chars() {
        match ch.to_digit(10) {
            Some(d) => cur = Some(cur.unwrap_or(0) * 10 + d),
            None => bits.extend(cur.take()),
        }
    }
    bits.extend(cur);
    bits
}

const MASK_NAMES: [&str; 16] = [
    "", "x", "y", "xy", "z", "xz", "yz", "xyz", "w", "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw",
];

/// A register of `size` bits holding component `c` of location `loc`.
fn colour_reg(loc: u8, c: u16, size: u8) -> String {
    let half = fout_colour(loc) + if size == 16 { c } else { 2 * c };
    reg(half, size)
}

fn reg(half: u16, size: u8) -> String {
    if size == 16 {
        format!(
            "r{}{}",
            half / 2,
            if half.is_multiple_of(2) { "l" } else { "h" }
        )
    } else {
        format!("r{}", half / 2)
    }
}

/// Generates the epilog of `key`.
pub fn fragment_epilog(key: &EpilogKey) -> Result<Epilog, EpilogError> {
    if let Some(what) = key.unsupported.first() {
        return Err(EpilogError::NotGenerated(what.to_string()));
    }
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples)?;
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };
    let samples = if key.sample_mask_after_force_early {
        "r3h"
    } else {
        "255"
    };
    if key.write_z {
        line(format!("zs_emit {samples}, r2"));
    }
    if key.write_s {
        line(format!("zs_emit {samples}, r3l"));
    }
    for (i, rt) in key.rts.iter().enumerate() {
        let Some(rt) = rt else { continue };
        if rt.location >= 8 || !matches!(rt.size, 16 | 32) {
            return Err(EpilogError::Rt {
                rt: i,
                what: format!(
                    "location {} with {}-bit colour (expected 0..7, 16 or 32)",
                    rt.location, rt.size
                ),
            });
        }
        let loc = if key.broadcast_rt0 { 0 } else { rt.location };
        let (canon, comps, phys) = rt_format(&rt.format)?;
        let place = layout
            .render_targets
            .iter()
            .find(|p| usize::from(p.rt) == i)
            .ok_or_else(|| EpilogError::NotGenerated("a render target without layout".into()))?;
        let offset = place
            .offset_bytes
            .ok_or_else(|| EpilogError::NotGenerated("spilled render targets".into()))?;
        let all = (1u8 << comps) - 1;
        let mask = rt.colormask & all;
        if mask == 0 {
            continue;
        }
        if mask != all && !phys.supports_mask() && rt.blend.is_none() {
            return Err(EpilogError::NotGenerated(format!(
                "a partial colour mask on {canon} (stored through blending in Mesa)"
            )));
        }
        let size = rt.size;
        let one = if size == 16 { 0x3c00 } else { 0x3f80_0000u32 };
        // Blending reads the source alpha even when the format has no alpha channel.
        let alpha_used = rt.blend.is_some() || (comps == 4 && mask & 8 != 0);
        if (key.alpha_to_one || (loc == 0 && key.loc0_w_1)) && alpha_used {
            line(format!("ldimm {}, {one}", colour_reg(loc, 3, size)));
        }
        if let Some(eqs) = &rt.blend {
            let fail = |what: &str| Err(EpilogError::NotGenerated(what.to_string()));
            if size != 32 {
                return fail("blending 16-bit colours");
            }
            if key.samples != 1 {
                return fail("blending with more than one sample (it needs sample shading)");
            }
            if canon.ends_with("_UINT") || canon.ends_with("_SINT") {
                return fail("blending an integer format");
            }
            if epilog_blend::dual_source(eqs) {
                return fail("dual-source blending");
            }
            let norm = if canon.ends_with("_SNORM") {
                Norm::Snorm
            } else if canon.ends_with("_UNORM") || canon.ends_with("_SRGB") {
                Norm::Unorm
            } else {
                Norm::None
            };
            let n = comps as u16;
            let fmt = isa_format(phys);
            let all_mask = MASK_NAMES[usize::from(all)];
            // All four source components: the factors read the source alpha.
            for c in 0..4 {
                let r = format!("r{}", epilog_blend::SRC + c);
                line(format!("mov {r}, {}", colour_reg(loc, c, 32)));
                epilog_blend::clamp(&mut line, &r, norm);
            }
            let dst: Vec<String> = (0..n)
                .map(|c| format!("r{}", epilog_blend::DST + c))
                .collect();
            line(format!(
                "ld_tile {}, 0, 255, {offset}, {fmt}, {all_mask}",
                dst.join("_")
            ));
            let dst_base = if phys == Physical::F16 && norm != Norm::None {
                for c in 0..n {
                    let d = format!("r{}", epilog_blend::DST_CLAMPED + c);
                    line(format!("mov {d}, {}", dst[usize::from(c)]));
                    epilog_blend::clamp(&mut line, &d, norm);
                }
                epilog_blend::DST_CLAMPED
            } else {
                epilog_blend::DST
            };
            for c in 0..n {
                let r = format!("r{}", epilog_blend::SRC + c);
                if mask >> c & 1 == 0 {
                    line(format!("mov {r}, {}", dst[usize::from(c)]));
                    continue;
                }
                let eq = if c == 3 { &eqs[1] } else { &eqs[0] };
                epilog_blend::component(&mut line, eq, c, n, dst_base);
                epilog_blend::clamp(&mut line, &r, norm);
            }
            let src: Vec<String> = (0..n)
                .map(|c| format!("r{}", epilog_blend::SRC + c))
                .collect();
            line(format!(
                "st_tile {}, 0, {samples}, {offset}, {fmt}, {all_mask}",
                src.join("_")
            ));
            continue;
        }
        let integer = canon.ends_with("_UINT") || canon.ends_with("_SINT");
        let signed = canon.ends_with("_SINT");
        let bits = channel_bits(canon);
        let widen = size == 16 && phys == Physical::I32;
        let clamp = integer && !widen && bits.iter().all(|&b| b <= 16);
        let prefix = mask & (mask + 1) == 0;
        let tuple_size = if widen { 32 } else { size };
        // The store's register tuple: the colour registers when the mask is a prefix and
        // nothing changes them, otherwise copies in the temporaries (a location may feed
        // several targets, so its registers stay as the main shader left them).
        let tuple: Vec<(u16, String)> = if prefix && !widen && !clamp {
            (0..mask.count_ones() as u16)
                .map(|c| (c, colour_reg(loc, c, size)))
                .collect()
        } else {
            let mut regs = Vec::new();
            for (k, c) in (0..4u16).filter(|c| mask >> c & 1 == 1).enumerate() {
                let t = if tuple_size == 16 {
                    reg(2 * TEMP + k as u16, 16)
                } else {
                    reg(2 * (TEMP + k as u16), 32)
                };
                let src = colour_reg(loc, c, size);
                if !widen {
                    line(format!("mov {t}, {src}"));
                } else if !integer {
                    line(format!("fmul {t}, {src}, 1.0"));
                } else if signed {
                    line(format!("iadd {t}, {src}.sx, 0"));
                } else {
                    line(format!("iadd {t}, {src}, 0"));
                }
                regs.push((c, t));
            }
            regs
        };
        // Clamp pure integers of at most 16 bits per channel to the channel's range.
        if clamp {
            let k = reg(2 * CONSTANT, size);
            for (c, r) in &tuple {
                let b = bits.get(usize::from(*c)).copied().unwrap_or(bits[0]);
                let (lo, hi) = if signed {
                    (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)
                } else {
                    (0, (1i64 << b) - 1)
                };
                // A bound as an operand, with the `ldimm` it needs when it is no immediate.
                let bound = |v: i64| -> (Option<String>, String) {
                    if (0..=MAX_ALU_IMM).contains(&v) {
                        (None, v.to_string())
                    } else {
                        let bits = (v as u64) & ((1u64 << size) - 1);
                        (Some(format!("ldimm {k}, {bits}")), k.clone())
                    }
                };
                let checks: &[(i64, &str)] = if signed {
                    &[(hi, "sgt"), (lo, "slt")]
                } else if b < u32::from(size) {
                    &[(hi, "ugt")]
                } else {
                    &[]
                };
                for &(v, cond) in checks {
                    let (load, op) = bound(v);
                    if let Some(l) = load {
                        line(l);
                    }
                    line(format!("csel {r}, {r}, {op}, {op}, {r}, {cond}"));
                }
            }
        }
        let tuple: Vec<String> = tuple.into_iter().map(|(_, r)| r).collect();
        line(format!(
            "st_tile {}, 0, {samples}, {offset}, {}, {}",
            tuple.join("_"),
            isa_format(phys),
            MASK_NAMES[usize::from(mask)]
        ));
    }
    let program = assemble(&text, "epilog.s").map_err(|e| EpilogError::Assemble(e.to_string()))?;
    Ok(Epilog {
        text: program
            .instructions
            .iter()
            .map(|(_, _, i)| format!("{i}\n"))
            .collect(),
        code: program.bytes,
    })
}
