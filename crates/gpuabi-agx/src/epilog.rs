//! The fragment epilog generator: from an epilog key, the AGX code that blends and stores
//! each render target's colour into the tile buffer and emits deferred depth/stencil, as
//! Mesa's `agx_nir_fs_epilog` with `nir_lower_blend` and `agx_nir_lower_tilebuffer` does
//! (blending: [`crate::epilog_blend`], logic ops: [`crate::epilog_logic`]).
//!
//! In order:
//! 1. Alpha-to-coverage (`nir_lower_alpha_to_coverage`), when render target 0 has a
//!    format: Mesa's dithered mask of its alpha `a` (`alpha_to_coverage` in
//!    `src/compiler/nir/nir_lower_alpha.c`): `m = f2i32(round_even(fsat(a) · 16))`,
//!    `mask = 0x1111 · ((0xf7540 >> (m & ~3)) & 0xf) | 0x0404 · (m & 2) | 0x0080 · (m & 1)`,
//!    rotated right within 16 bits by `(x & 1) + (y & 1)` of the pixel
//!    (`thread_in_grid_x`/`_y`); the pixel's samples outside it are killed with
//!    `sample_mask killed, 0` (also `∧ r1l` under sample shading), as Mesa lowers the
//!    discard; nothing is emitted when the alpha is 1.0 (`loc0_w_1`).
//! 2. Depth (`r2`) and stencil (`r3l`) with `zs_emit`, one instruction each, after
//!    alpha-to-coverage so that killed samples get none.
//! 3. For each render target with a format and a written location (location 0 for every
//!    target under `broadcast_rt0`): the colour registers of the location (32-bit: one
//!    register per component at `r(4(loc + 1) + c)`; 16-bit: packed halves), alpha replaced
//!    by 1.0 for location 0 under `loc0_w_1` and for every location under alpha-to-one (the
//!    dual-source colour too); the size of a target's colour is that of its location (under
//!    broadcast every target must give location 0's size; the dual-source colour, location
//!    1, has the size of location 0: the key records one size per target). Dual-source
//!    blending needs the only such target at location 0 and no other output at location 1
//!    (`DualSourceConflict` otherwise).
//!    * A target whose value depends on the destination — blending other than replace on a
//!      float or normalised format, a logic op on an integer or normalised format, or a
//!      partial colour mask on a format without masked stores — loads the destination with
//!      `ld_tile` and computes the value: formats with masked stores compute and store the
//!      colour-masked components only (Mesa hands the mask to the tile-buffer store when
//!      `agx_tilebuffer_supports_mask`); the packed formats keep the destination in the
//!      masked components and store every component (`nir_color_mask`).
//!    * Otherwise the colour is stored directly: pure-integer formats of at most 16 bits per
//!      channel clamped to the channel's range (`nir_format_clamp_uint`/`_sint` in
//!      `store_tilebuffer`); 16-bit colours widened for 32-bit formats (`f2f32`/`u2u32`/
//!      `i2i32` there); the write mask from the colour mask. Pure-integer formats are never
//!      blended, and a logic op leaves float and sRGB formats unchanged (`nir_lower_blend`);
//!      logic op `noop` stores nothing.
//!
//!    Stores write all samples (255), with `sample_mask_after_force_early` the mask in
//!    `r3h`; under sample shading (the linker's sample loop) the samples in `r1l` (and `r3h`),
//!    loads read the sample in `r1l`, and `r1l` is left unchanged for the loop footer. With
//!    several samples and no sample shading, a target that reads the destination is blended
//!    once per sample (loads and stores of sample `1 << s`, s = 0 … samples − 1), the unrolled
//!    form of the sample loop Mesa's `agx_nir_lower_monolithic_msaa` wraps around such an
//!    epilog; its other parts give the same result once.
//!
//! 4. Unless samples are shaded, `stop` and 8 `trap`: the epilog ends the program, and the
//!    linker adds no terminal code of its own ([`link`](mod@crate::link)).
//!
//! Registers: temporaries are `r36`…`r79` (past the eight colour locations `r4`…`r35`;
//! `r64` and up only for blend constants and shared blend values); colour registers are
//! never changed except alphas set to 1.0 for stores and logic ops (blending takes the
//! constant 1.0 as NIR folds it).
//!
//! Spilled render targets (past the tile buffer's capacity) are read
//! with the texel fetch `smpi` and written with `imgw` through the descriptors of the
//! render-target heap ([`crate::spill`] states where they are and builds them); they have
//! no masked stores, so a partial colour mask loads the destination; pure integers are
//! clamped and 16-bit colours widened for 32-bit formats as for the tile buffer, so that
//! the image holds what the tile buffer would. Image writes are not masked by coverage, so
//! with alpha-to-coverage and spilled targets the stores' sample operand (`r63l`) leaves
//! out the samples alpha-to-coverage killed, and a spilled target's store is skipped for
//! them. With several samples a spilled target's image holds each pixel's samples
//! ([`crate::spill`] states the layout) and the key needs sample shading, as Mesa runs such
//! epilogs per sample; keys without it are errors. The PBE-to-texture fence Mesa ends such shaders with has no
//! instruction in the disassembler syntax gpuabi assembles and is left out.

use gpuabi_agx_isa::regs::{half, imm, r, rh, rl};
use gpuabi_agx_isa::{args, Builder, Operand};
use serde::Serialize;
use thiserror::Error;

use crate::abi::fout_colour;
use crate::blend::{Equation, LogicOp};
use crate::epilog_blend::{self, comp, dual_source, sized, tuple, BlendInput, Norm};
use crate::epilog_logic::{self, Kind};
use crate::link::TRAPS_AFTER_STOP;
use crate::spill;
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

/// A fragment epilog key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpilogKey {
    /// Samples per pixel.
    pub samples: u8,
    /// The main shader runs once per sample inside the linker's sample loop (`r1l` holds the
    /// sample's bit).
    pub sample_shading: bool,
    /// Alpha-to-coverage: render target 0's alpha kills samples.
    pub alpha_to_coverage: bool,
    /// The logic op replacing blending; `None` when logic ops are off.
    pub logic_op: Option<LogicOp>,
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
    /// Requests outside this generator (each is an error when set).
    pub unsupported: Vec<&'static str>,
}

impl Default for EpilogKey {
    /// One sample, no render target, every feature off.
    fn default() -> EpilogKey {
        EpilogKey {
            samples: 1,
            sample_shading: false,
            alpha_to_coverage: false,
            logic_op: None,
            write_z: false,
            write_s: false,
            sample_mask_after_force_early: false,
            loc0_w_1: false,
            alpha_to_one: false,
            broadcast_rt0: false,
            rts: Vec::new(),
            unsupported: Vec::new(),
        }
    }
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
    /// Dual-source blending on a target that is not at location 0, on several targets, or
    /// with a real output at location 1 (the second colour's location).
    #[error(
        "render target {0}: dual-source blending needs the only blended target at location 0 \
         and no other output at location 1 (the second colour's location)"
    )]
    DualSourceConflict(usize),
    /// Generated code that does not build: a defect of the generator.
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
fn colour_reg(loc: u8, c: u16, size: u8) -> Operand {
    let half = fout_colour(loc) + if size == 16 { c } else { 2 * c };
    reg(half, size)
}

/// The register of `size` bits at half `h`.
fn reg(h: u16, size: u8) -> Operand {
    if size == 16 {
        half(u32::from(h))
    } else {
        r(u32::from(h / 2))
    }
}

/// `r63l`: the samples every store writes when that is `r1l ∧ r3h` or leaves out samples
/// alpha-to-coverage killed; `r63h`: one sample's bit combined with `r3h`.
const SAMPLES: u16 = 63;
/// Alpha-to-coverage's scratch register.
const COVERAGE: u16 = 58;

/// What a render target's value is computed with.
#[derive(Debug, Clone, Copy)]
enum Work {
    /// The colour as it is.
    Plain,
    /// The colour, with the destination kept in colour-masked components.
    MaskOnly,
    /// Blending.
    Blend([Equation; 2]),
    /// A logic op.
    Logic(LogicOp, Kind),
}

/// One render target being stored.
struct Target {
    canon: &'static str,
    comps: u16,
    phys: Physical,
    offset: u32,
    /// The render target's index when it is spilled to memory.
    spill: Option<usize>,
    /// The key's samples per pixel.
    samples: u8,
    loc: u8,
    size: u8,
    mask: u8,
    all: u8,
    norm: Norm,
    integer: bool,
    signed: bool,
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
    let mut code = Builder::new();
    let line = &mut code;
    let samples = match (key.sample_shading, key.sample_mask_after_force_early) {
        (false, false) => imm(255),
        (false, true) => rh(3),
        (true, false) => rl(1),
        (true, true) => {
            let r = comp(SAMPLES, 0, 16);
            line.push("and", &args![r, rl(1), rh(3)]);
            r
        }
    };
    for (i, rt) in key.rts.iter().enumerate() {
        if let Some(rt) = rt {
            if rt.location >= 8 || !matches!(rt.size, 16 | 32) {
                return Err(EpilogError::Rt {
                    rt: i,
                    what: format!(
                        "location {} with {}-bit colour (expected 0..7, 16 or 32)",
                        rt.location, rt.size
                    ),
                });
            }
        }
    }
    let kept = alpha_to_coverage(line, key);
    if key.write_z {
        line.push("zs_emit", &args![samples, r(2)]);
    }
    if key.write_s {
        line.push("zs_emit", &args![samples, rl(3)]);
    }
    let spills = layout
        .render_targets
        .iter()
        .any(|p| p.offset_bytes.is_none());
    // Image writes are not masked by coverage: the samples alpha-to-coverage killed leave
    // the stores' sample operand, so that a spilled target's store is skipped where the
    // tile buffer's would be masked (Mesa's `store_memory` tests the coverage for the
    // same reason).
    let samples = match kept {
        Some(k) if spills => {
            let r = comp(SAMPLES, 0, 16);
            line.push("and", &args![r, k, samples]);
            r
        }
        _ => samples,
    };
    let dual_users = key
        .rts
        .iter()
        .flatten()
        .filter(|rt| key.logic_op.is_none() && rt.blend.is_some_and(|e| dual_source(&e)))
        .count();
    let mut spill_ready = false;
    for (i, rt) in key.rts.iter().enumerate() {
        let Some(rt) = rt else { continue };
        let loc = if key.broadcast_rt0 { 0 } else { rt.location };
        let (canon, comps, phys) = rt_format(&rt.format)?;
        let place = layout
            .render_targets
            .iter()
            .find(|p| usize::from(p.rt) == i)
            .ok_or_else(|| EpilogError::NotGenerated("a render target without layout".into()))?;
        if place.offset_bytes.is_none() && key.samples > 1 && !key.sample_shading {
            return Err(EpilogError::NotGenerated(
                "multisampled spilled render targets without sample_shading (Mesa runs \
                 such epilogs once per sample in the linker's sample loop)"
                    .into(),
            ));
        }
        let all = (1u8 << comps) - 1;
        let t = Target {
            canon,
            comps: comps as u16,
            phys,
            offset: place.offset_bytes.unwrap_or(0),
            spill: place.offset_bytes.is_none().then_some(i),
            samples: key.samples,
            loc,
            size: rt.size,
            mask: rt.colormask & all,
            all,
            norm: if canon.ends_with("_SNORM") {
                Norm::Snorm
            } else if canon.ends_with("_UNORM") || canon.ends_with("_SRGB") {
                Norm::Unorm
            } else {
                Norm::None
            },
            integer: canon.ends_with("_UINT") || canon.ends_with("_SINT"),
            signed: canon.ends_with("_SINT"),
        };
        if t.mask == 0 || key.logic_op == Some(LogicOp::Noop) {
            continue;
        }
        let mut work = match (key.logic_op, rt.blend) {
            (Some(op), _) if t.integer => Work::Logic(op, Kind::Integer),
            (Some(_), _) if t.norm == Norm::None || canon.ends_with("_SRGB") => Work::Plain,
            (Some(op), _) => Work::Logic(op, Kind::Normalised(t.norm)),
            (None, Some(eqs)) if !t.integer && !epilog_blend::is_replace(&eqs) => Work::Blend(eqs),
            _ => Work::Plain,
        };
        if matches!(work, Work::Plain)
            && t.mask != all
            && (!phys.supports_mask() || t.spill.is_some())
        {
            work = Work::MaskOnly;
        }
        let dual = matches!(work, Work::Blend(eqs) if dual_source(&eqs));
        if dual {
            let conflict = !key.broadcast_rt0 && key.rts.iter().flatten().any(|r| r.location == 1);
            if loc != 0 || conflict || dual_users > 1 {
                return Err(EpilogError::DualSourceConflict(i));
            }
        }
        if t.spill.is_some() && !spill_ready {
            spill::setup(line);
            spill_ready = true;
        }
        let one = epilog_blend::float_bits(1.0, t.size);
        // Blending reads the source alpha even when the format has no alpha channel.
        // (Blending takes the constant 1.0 itself, as NIR folds it.)
        let alpha_used = matches!(work, Work::Logic(..) | Work::MaskOnly)
            || (matches!(work, Work::Plain) && comps == 4 && t.mask & 8 != 0);
        if (key.alpha_to_one || (loc == 0 && key.loc0_w_1)) && alpha_used {
            line.push("ldimm", &args![colour_reg(loc, 3, t.size), one]);
        }
        if matches!(work, Work::Plain) {
            let src = |c: u16| colour_reg(loc, c, t.size);
            store_plain(line, &t, &src, t.mask, samples);
            continue;
        }
        if key.samples > 1 && !key.sample_shading {
            for s in 0..key.samples {
                let bit = 1u8 << s;
                let st = if key.sample_mask_after_force_early {
                    let r = comp(SAMPLES, 1, 16);
                    line.push("and", &args![r, rh(3), bit]);
                    r
                } else {
                    imm(i64::from(bit))
                };
                through_destination(line, key, &t, work, imm(i64::from(bit)), st);
            }
        } else {
            let ld = if key.sample_shading { rl(1) } else { imm(255) };
            through_destination(line, key, &t, work, ld, samples);
        }
    }
    // The epilog ends the program unless the linker's sample loop follows it: then Mesa
    // compiles it with `stop` (`epilog_stop` in `hk_get_fast_linked_locked_fs`,
    // `src/asahi/vulkan/hk_cmd_draw.c`), which `agx_pack_binary` follows with 8 `trap`.
    if !key.sample_shading {
        line.push("stop", &[]);
        for _ in 0..TRAPS_AFTER_STOP {
            line.push("trap", &[]);
        }
    }
    let program = code
        .finish()
        .map_err(|e| EpilogError::Assemble(e.to_string()))?;
    Ok(Epilog {
        text: program.text(),
        code: program.bytes,
    })
}

/// Emits alpha-to-coverage from render target 0's alpha; returns the 16-bit register
/// that holds the pixel's samples it keeps, if it emitted anything.
///
/// The mask is Mesa's dithered one (`alpha_to_coverage` in
/// `src/compiler/nir/nir_lower_alpha.c`): `m = f2i32(round_even(fsat(alpha) · 16))`,
/// `mask = 0x1111 · ((0xf7540 >> (m & ~3)) & 0xf) | 0x0404 · (m & 2) | 0x0080 · (m & 1)`,
/// rotated right within 16 bits by `(x & 1) + (y & 1)` of the pixel; sample `s` survives
/// when bit `s` of the rotated mask is set.
fn alpha_to_coverage(line: &mut Builder, key: &EpilogKey) -> Option<Operand> {
    let Some(Some(rt0)) = key.rts.first().filter(|_| key.alpha_to_coverage) else {
        return None;
    };
    let loc = if key.broadcast_rt0 { 0 } else { rt0.location };
    if loc == 0 && key.loc0_w_1 {
        // Alpha 1.0 covers every sample.
        return None;
    }
    let at = |k: u16| r(u32::from(COVERAGE + k));
    let (t, a, b, c, k) = (at(0), at(1), at(2), at(3), at(4));
    let low = sized(COVERAGE, 16);
    // m, computed at fp32 (exact for fp16 colours: the clamp and the scaling by 16 are).
    let alpha = colour_reg(loc, 3, rt0.size);
    line.push("fadd", &args![t, alpha, -0.0, "sat"]);
    line.push("fmul", &args![t, t, 16.0]);
    line.push("rint", &args![t, t]);
    line.push("f_to_s32", &args![t, t, "rtz"]);
    line.push("and", &args![a, t, 28]);
    line.push("ldimm", &args![k, 0xf7540]);
    line.push("shr", &args![a, k, a]);
    line.push("and", &args![a, a, 15]);
    line.push("ldimm", &args![k, 0x1111]);
    line.push("imul", &args![a, a, k]);
    line.push("and", &args![b, t, 2]);
    line.push("ldimm", &args![k, 0x0404]);
    line.push("imul", &args![b, b, k]);
    line.push("and", &args![c, t, 1]);
    line.push("shl", &args![c, c, 7]);
    line.push("or", &args![a, a, b]);
    line.push("or", &args![a, a, c]);
    // The rotation by (x & 1) + (y & 1), over the 16-bit mask doubled to 32 bits.
    line.push("mov", &args![b, "thread_in_grid_x"]);
    line.push("and", &args![b, b, 1]);
    line.push("mov", &args![c, "thread_in_grid_y"]);
    line.push("and", &args![c, c, 1]);
    line.push("iadd", &args![b, b, c]);
    line.push("shl", &args![c, a, 16]);
    line.push("or", &args![a, a, c]);
    line.push("shr", &args![t, a, b]);
    // The pixel's samples the mask keeps, then those it kills (under sample shading, of
    // the iteration's sample).
    let all = (1u32 << key.samples) - 1;
    let kill = sized(COVERAGE + 1, 16);
    line.push("and", &args![low, low, all]);
    line.push("xor", &args![kill, low, all]);
    if key.sample_shading {
        line.push("and", &args![kill, kill, rl(1)]);
    }
    line.push("sample_mask", &args![kill, 0]);
    Some(low)
}

/// Emits the store of a target whose value depends on the destination: loads it (sample
/// operand `ld`), computes the value and stores it (sample operand `st`). Formats with
/// masked stores compute and store the colour-masked components only (Mesa's
/// `agx_nir_fs_epilog` hands the mask to the tile-buffer store when
/// `agx_tilebuffer_supports_mask`); the others keep the destination in the masked
/// components and store every component (`nir_color_mask`).
fn through_destination(
    line: &mut Builder,
    key: &EpilogKey,
    t: &Target,
    work: Work,
    ld: Operand,
    st: Operand,
) {
    use epilog_blend::{DST, DST_CLAMPED, SRC, SRC1};
    let (size, n, loc) = (t.size, t.comps, t.loc);
    let fmt = isa_format(t.phys);
    let all_mask = MASK_NAMES[usize::from(t.all)];
    let masked = t.spill.is_none() && t.phys.supports_mask();
    if !matches!(work, Work::Blend(_)) {
        // The logic op's conversions work on copies of the colour.
        for c in 0..4 {
            line.push("mov", &args![comp(SRC, c, size), colour_reg(loc, c, size)]);
        }
    }
    let dst = |c: u16| comp(DST, c, size);
    let wide = |c: u16| u32::from(DST_CLAMPED + c);
    // A logic op that ignores the destination needs it only to keep masked components of
    // formats without masked stores.
    let loads = match work {
        Work::Logic(op, _) => epilog_logic::reads_destination(op) || (!masked && t.mask != t.all),
        _ => true,
    };
    if let (true, Some(rt)) = (loads, t.spill) {
        // The image holds the logical format: the fetch converts to the colour's size,
        // clamped and sign-extended by the format.
        spill::load(line, rt, key.samples, tuple(DST, 4, size));
    } else if loads && size == 16 && t.phys == Physical::I32 {
        // The tile holds 32 bits: load them and narrow (`f2f16`/`u2u16`).
        let regs = tuple(DST_CLAMPED, n, 32);
        line.push("ld_tile", &args![regs, 0, ld, t.offset, fmt, all_mask]);
        for c in 0..n {
            if t.integer {
                line.push("mov", &args![dst(c), rl(wide(c))]);
            } else {
                line.push("fadd", &args![dst(c), r(wide(c)), -0.0]);
            }
        }
    } else if loads {
        let regs = tuple(DST, n, size);
        line.push("ld_tile", &args![regs, 0, ld, t.offset, fmt, all_mask]);
    }
    let element_bits = 8 * t.phys.block_bytes() / t.phys.channels();
    if loads && t.spill.is_none() && t.signed && element_bits < u32::from(size) {
        // Sign-extend the loaded channel as `load_tilebuffer` does.
        for c in 0..n {
            if element_bits == 16 {
                line.push("iadd", &args![dst(c), comp(DST + c, 0, 16).sx(), 0]);
            } else {
                let sign = 1u32 << (element_bits - 1);
                line.push("xor", &args![dst(c), dst(c), sign]);
                line.push("isub", &args![dst(c), dst(c), sign]);
            }
        }
    }
    let keep = |line: &mut Builder, c: u16| {
        line.push("mov", &args![comp(SRC, c, size), dst(c)]);
    };
    match work {
        Work::Plain | Work::MaskOnly => {
            for c in (0..n).filter(|c| t.mask >> c & 1 == 0) {
                keep(line, c);
            }
        }
        Work::Blend(eqs) => {
            let inp = BlendInput {
                size,
                comps: n,
                norm: t.norm,
                dst: DST,
                dst_clamp: t.phys == Physical::F16 && t.norm != Norm::None,
                src: fout_colour(loc),
                src_alpha_one: key.alpha_to_one || (loc == 0 && key.loc0_w_1),
                src1_alpha_one: key.alpha_to_one,
            };
            epilog_blend::blend(line, &eqs, &inp, t.mask & t.all);
            if !masked {
                for c in (0..n).filter(|c| t.mask >> c & 1 == 0) {
                    keep(line, c);
                }
            }
        }
        Work::Logic(op, kind) => {
            let bits = channel_bits(t.canon);
            for c in 0..n {
                if t.mask >> c & 1 == 0 {
                    if !masked {
                        keep(line, c);
                    }
                    continue;
                }
                let regs = epilog_logic::Regs {
                    s: comp(SRC, c, size),
                    d: dst(c),
                    s_wide: if size == 16 {
                        r(u32::from(SRC1 + c))
                    } else {
                        comp(SRC, c, 32)
                    },
                    d_wide: r(wide(c)),
                };
                let b = bits.get(usize::from(c)).copied().unwrap_or(bits[0]);
                epilog_logic::component(line, op, kind, &regs, b, size);
            }
        }
    }
    let src = |c: u16| comp(SRC, c, size);
    if masked {
        store_plain(line, t, &src, t.mask, st);
    } else if t.integer {
        store_plain(line, t, &src, t.all, st);
    } else if size == 16 && t.phys == Physical::I32 {
        for c in 0..n {
            line.push("fmul", &args![r(wide(c)), comp(SRC, c, size), 1.0]);
        }
        match t.spill {
            Some(rt) => spill::store(line, rt, key.samples, tuple(DST_CLAMPED, 4, 32), st),
            None => {
                let regs = tuple(DST_CLAMPED, n, 32);
                line.push("st_tile", &args![regs, 0, st, t.offset, fmt, all_mask]);
            }
        }
    } else {
        match t.spill {
            Some(rt) => spill::store(line, rt, key.samples, tuple(SRC, 4, size), st),
            None => {
                let regs = tuple(SRC, n, size);
                line.push("st_tile", &args![regs, 0, st, t.offset, fmt, all_mask]);
            }
        }
    }
}

/// The tuple of `n` registers from `first` (the registers a store names, consecutive by
/// construction: components of one vector).
fn joined(first: Operand, n: u16) -> Operand {
    match first.tuple() {
        Some(t) => gpuabi_agx_isa::regs::tuple(t.file, t.base, t.size, u32::from(n)),
        None => first,
    }
}

/// Emits the store of components `mask` of `t` from registers `src(c)` (the colour's size):
/// pure integers clamped, 16-bit values widened for 32-bit formats, one `st_tile`.
fn store_plain(
    line: &mut Builder,
    t: &Target,
    src: &dyn Fn(u16) -> Operand,
    mask: u8,
    samples: Operand,
) {
    let size = t.size;
    let bits = channel_bits(t.canon);
    let widen = size == 16 && t.phys == Physical::I32;
    let clamp = t.integer && !widen && bits.iter().all(|&b| b <= 16);
    let prefix = mask & (mask + 1) == 0;
    let tuple_size = if widen { 32 } else { size };
    let base = if widen {
        epilog_blend::DST_CLAMPED
    } else {
        TEMP
    };
    // The store's register tuple: the value registers when the mask is a prefix and
    // nothing changes them, otherwise copies in the temporaries (a location may feed
    // several targets, so its registers stay as the main shader left them).
    let tuple: Vec<(u16, Operand)> = if prefix && !widen && !clamp {
        (0..mask.count_ones() as u16).map(|c| (c, src(c))).collect()
    } else {
        let mut regs = Vec::new();
        let picked: Vec<(usize, u16)> = (0..4u16)
            .filter(|c| mask >> c & 1 == 1)
            .enumerate()
            .collect();
        // Widened copies are twice the size of their sources, which may be 16-bit halves
        // of the temporaries (`through_destination` computes there): they go to the
        // staging registers past them. Narrow copies keep their size and land, in order,
        // on registers already read.
        let order = picked;
        for (k, c) in order {
            let tr = comp(base, k as u16, tuple_size);
            let from = src(c);
            if clamp {
                // The clamp below copies.
            } else if !widen {
                if tr != from {
                    line.push("mov", &args![tr, from]);
                }
            } else if !t.integer {
                line.push("fmul", &args![tr, from, 1.0]);
            } else if t.signed {
                line.push("iadd", &args![tr, from.sx(), 0]);
            } else {
                line.push("iadd", &args![tr, from, 0]);
            }
            regs.push((c, tr));
        }
        regs.sort_by_key(|(c, _)| *c);
        regs
    };
    // Clamp pure integers of at most 16 bits per channel to the channel's range, copying
    // into the tuple with the first select; bounds that are no immediates are loaded once.
    if clamp {
        let checks_of = |c: u16| -> Vec<(i64, &'static str)> {
            let b = bits.get(usize::from(c)).copied().unwrap_or(bits[0]);
            let (lo, hi) = if t.signed {
                (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)
            } else {
                (0, (1i64 << b) - 1)
            };
            if t.signed {
                vec![(hi, "sgt"), (lo, "slt")]
            } else if b < u32::from(size) {
                vec![(hi, "ugt")]
            } else {
                Vec::new()
            }
        };
        let mut loaded: Vec<(i64, Operand)> = Vec::new();
        for (c, _) in &tuple {
            for (v, _) in checks_of(*c) {
                if !(0..=MAX_ALU_IMM).contains(&v) && !loaded.iter().any(|(x, _)| *x == v) {
                    let r = reg(2 * [CONSTANT, 45, 46, 47][loaded.len().min(3)], size);
                    // The bound's bits at the register's size (at most 32).
                    let bits = ((v as u64) & ((1u64 << size) - 1)) as u32;
                    line.push("ldimm", &args![r, bits]);
                    loaded.push((v, r));
                }
            }
        }
        let operand = |v: i64| -> Operand {
            loaded
                .iter()
                .find(|(x, _)| *x == v)
                .map_or_else(|| imm(v), |(_, r)| *r)
        };
        for (c, r) in &tuple {
            let mut from = src(*c);
            let checks = checks_of(*c);
            if checks.is_empty() && *r != from {
                line.push("mov", &args![*r, from]);
            }
            for (v, cond) in checks {
                let op = operand(v);
                line.push("csel", &args![*r, from, op, op, from, cond]);
                from = *r;
            }
        }
    }
    if let Some(rt) = t.spill {
        // Image writes take four registers and store every channel (spilled targets have
        // no masked stores, so the mask is complete here).
        let first = if prefix && !widen && !clamp {
            src(0)
        } else {
            comp(base, 0, tuple_size)
        };
        spill::store(line, rt, t.samples, joined(first, 4), samples);
        return;
    }
    let Some(&(_, first)) = tuple.first() else {
        return;
    };
    let regs = joined(first, tuple.len() as u16);
    line.push(
        "st_tile",
        &args![
            regs,
            0,
            samples,
            t.offset,
            isa_format(t.phys),
            MASK_NAMES[usize::from(mask)]
        ],
    );
}
