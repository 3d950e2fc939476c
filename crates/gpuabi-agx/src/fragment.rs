//! The fragment ABI engine: from the colour outputs and the depth/stencil/sample-mask
//! behaviour of a main fragment shader, the registers the epilog reads, the fragment
//! prolog's contract, the epilog link info and the uniform map.
//!
//! Decisions where the spec leaves room: a location given twice is an error, and so is
//! dual-source blending without a location-0 output (the second colour pairs with it);
//! the dual-source colour's type defaults to location 0's on the command line.

use std::fmt;
use std::str::FromStr;

use gpuabi_layout::reg::{AgxFile, AgxRange};
use serde::Serialize;
use thiserror::Error;

use crate::abi::{
    fout_colour, FIN_SAMPLE_MASK, FOUT_S, FOUT_WRITE_SAMPLES, FOUT_Z, FUNI_BLEND_R, FUNI_COUNT,
    FUNI_EMRT_HEAP, FUNI_ROOT, MAX_COLOR_LOCATIONS, NESTING_COUNTER,
};
use crate::slot::{RegSlot, UniformSlot};

/// Base type of a colour output; only the width matters to the ABI, the base is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorBase {
    /// Floating point (`f`).
    Float,
    /// Signed integer (`i`).
    Sint,
    /// Unsigned integer (`u`).
    Uint,
}

/// A colour output's type: base, 16 or 32 bits per component, 1..4 components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ColorType {
    /// Base type.
    pub base: ColorBase,
    /// Bits per component, 16 or 32.
    pub bits: u8,
    /// Components, 1..4.
    pub components: u8,
}

impl fmt::Display for ColorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = match self.base {
            ColorBase::Float => 'f',
            ColorBase::Sint => 'i',
            ColorBase::Uint => 'u',
        };
        write!(f, "{b}{}x{}", self.bits, self.components)
    }
}

impl FromStr for ColorType {
    type Err = String;

    /// Parses `f16x4`, `u32x2`, `i16` (4 components when `xN` is left out).
    fn from_str(text: &str) -> Result<ColorType, String> {
        let base = match text.chars().next() {
            Some('f') => ColorBase::Float,
            Some('i') => ColorBase::Sint,
            Some('u') => ColorBase::Uint,
            _ => {
                return Err(format!(
                    "`{text}`: expected a type like f16x4, u32x2 or i16"
                ))
            }
        };
        let rest = &text[1..];
        let (bits, count) = match rest.split_once('x') {
            Some((b, c)) => (b, Some(c)),
            None => (rest, None),
        };
        let bits = match bits {
            "16" => 16,
            "32" => 32,
            _ => {
                return Err(format!(
                    "`{text}`: expected 16 or 32 bits after `{}`",
                    &text[..1]
                ))
            }
        };
        let components = match count {
            None => 4,
            Some(c) => match c.parse::<u8>() {
                Ok(n @ 1..=4) => n,
                _ => return Err(format!("`{text}`: expected 1 to 4 components after `x`")),
            },
        };
        Ok(ColorType {
            base,
            bits,
            components,
        })
    }
}

/// One colour output of the main fragment shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ColorOutput {
    /// Output location (render target before remapping), 0..7.
    pub location: u8,
    /// Its type.
    pub ty: ColorType,
}

impl FromStr for ColorOutput {
    type Err = String;

    /// Parses `LOC:TYPE`, e.g. `0:f16x4`.
    fn from_str(text: &str) -> Result<ColorOutput, String> {
        let (loc, ty) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}`: expected LOCATION:TYPE, e.g. 0:f16x4"))?;
        let location = loc
            .parse::<u8>()
            .map_err(|_| format!("`{text}`: expected a location number before `:`"))?;
        Ok(ColorOutput {
            location,
            ty: ty.parse()?,
        })
    }
}

/// What the fragment ABI depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FragmentInput {
    /// Colour outputs, any order.
    pub colors: Vec<ColorOutput>,
    /// Dual-source blending, with the type of the second colour.
    pub dual_source: Option<ColorType>,
    /// The shader writes depth.
    pub depth: bool,
    /// The shader writes stencil.
    pub stencil: bool,
    /// Sample shading (the main shader and epilog run per sample in a loop).
    pub sample_shading: bool,
    /// Forced early fragment tests together with discard (`sample_mask_after_force_early`).
    pub early_tests_with_discard: bool,
}

/// A fragment shader that does not fit the ABI.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FragmentError {
    /// A location outside 0..7.
    #[error("colour location {0} is out of range: AGX has {MAX_COLOR_LOCATIONS} locations (0..7)")]
    TooManyLocations(u8),
    /// The same location given twice.
    #[error("colour location {0} is given twice")]
    DuplicateLocation(u8),
    /// Dual-source blending with a real location-1 output.
    #[error("dual-source blending puts the second colour in location 1 (r8..r11), but the shader also writes location 1")]
    DualSourceConflict,
    /// Dual-source blending without location 0 to pair with.
    #[error("dual-source blending pairs the second colour with location 0, but location 0 is not written")]
    DualSourceWithoutLocation0,
}

/// The 32-bit link info the main fragment shader hands to the epilog (the parts the ABI
/// determines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LinkInfo {
    /// Bit per location written (dual source sets bit 1).
    pub loc_written: u8,
    /// Bit per location whose colour is 32-bit.
    pub size_32: u8,
    /// Depth is exported in r2.
    pub write_z: bool,
    /// Stencil is exported in r3l.
    pub write_s: bool,
    /// The shader runs per sample, r1l is live.
    pub sample_shading: bool,
    /// r3h holds the logically emitted sample mask.
    pub sample_mask_after_force_early: bool,
}

/// The fragment prolog's side of the contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrologContract {
    /// Registers defined on entry: none.
    pub register_inputs: Vec<RegSlot>,
    /// The prolog may clobber every register.
    pub clobbers_all_registers: bool,
    /// The prolog runs once per pixel, before any sample loop.
    pub runs_once_per_pixel: bool,
    /// The ABI uniforms it may read.
    pub uniforms_read: Vec<UniformSlot>,
}

/// The fragment ABI for one main fragment shader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FragmentAbi {
    /// Registers defined at entry to the main shader (and to the epilog's loop body).
    pub main_inputs: Vec<RegSlot>,
    /// Registers the epilog reads, by half: what the main shader must leave there.
    pub registers: Vec<RegSlot>,
    /// Link info handed to the epilog.
    pub link_info: LinkInfo,
    /// The fragment prolog's contract.
    pub prolog: PrologContract,
    /// Uniform block, by half.
    pub uniforms: Vec<UniformSlot>,
    /// First uniform half free for the main shader.
    pub first_free_uniform_half: u16,
    /// GPR halves the epilog may read: one past its highest input half.
    pub epilog_input_halves: u16,
}

/// The ABI's fragment uniform block (the same for every fragment shader).
pub fn fragment_uniforms() -> Vec<UniformSlot> {
    let mut u = vec![UniformSlot::new(
        FUNI_EMRT_HEAP.first_half,
        FUNI_EMRT_HEAP.halves,
        "render-target texture heap pointer (64-bit; spilled render targets)",
    )];
    for (i, ch) in ["R", "G", "B", "A"].into_iter().enumerate() {
        u.push(UniformSlot::new(
            FUNI_BLEND_R + 2 * i as u16,
            2,
            format!("blend constant {ch} (fp32)"),
        ));
    }
    u.push(UniformSlot::new(
        FUNI_ROOT.first_half,
        FUNI_ROOT.halves,
        "root descriptor pointer (64-bit)",
    ));
    u
}

/// Computes the fragment ABI.
pub fn fragment_abi(input: &FragmentInput) -> Result<FragmentAbi, FragmentError> {
    let mut colors = input.colors.clone();
    colors.sort_by_key(|c| c.location);
    for c in &colors {
        if c.location >= MAX_COLOR_LOCATIONS {
            return Err(FragmentError::TooManyLocations(c.location));
        }
    }
    for w in colors.windows(2) {
        if w[0].location == w[1].location {
            return Err(FragmentError::DuplicateLocation(w[0].location));
        }
    }
    if let Some(ty) = input.dual_source {
        if colors.iter().any(|c| c.location == 1) {
            return Err(FragmentError::DualSourceConflict);
        }
        if colors.first().map(|c| c.location) != Some(0) {
            return Err(FragmentError::DualSourceWithoutLocation0);
        }
        // The second colour is treated as location 1.
        colors.insert(1, ColorOutput { location: 1, ty });
    }

    let mut main_inputs = Vec::new();
    let mut registers = Vec::new();
    if input.sample_shading {
        main_inputs.push(RegSlot::new(NESTING_COUNTER, "nesting counter (= 0)"));
        main_inputs.push(RegSlot::new(
            FIN_SAMPLE_MASK,
            "mask of the samples shaded in this iteration",
        ));
        registers.push(RegSlot::new(NESTING_COUNTER, "nesting counter (= 0)"));
        registers.push(RegSlot::new(
            FIN_SAMPLE_MASK,
            "sample mask of this iteration (preserved through the main shader)",
        ));
    }
    if input.depth {
        registers.push(RegSlot::new(FOUT_Z, "depth (fp32)"));
    }
    if input.stencil {
        registers.push(RegSlot::new(FOUT_S, "stencil (16-bit)"));
    }
    if input.early_tests_with_discard {
        registers.push(RegSlot::new(
            FOUT_WRITE_SAMPLES,
            "logically emitted sample mask (predicates the epilog's stores)",
        ));
    }
    let mut loc_written = 0u8;
    let mut size_32 = 0u8;
    for c in &colors {
        loc_written |= 1 << c.location;
        let wide = c.ty.bits == 32;
        if wide {
            size_32 |= 1 << c.location;
        }
        let what = if input.dual_source.is_some() && c.location == 1 {
            "dual-source colour".to_string()
        } else {
            format!("colour {}", c.location)
        };
        for comp in 0..c.ty.components {
            // 32-bit components take one register each; 16-bit ones are packed two per
            // register.
            let (half, halves) = if wide {
                (fout_colour(c.location) + 2 * u16::from(comp), 2)
            } else {
                (fout_colour(c.location) + u16::from(comp), 1)
            };
            registers.push(RegSlot::new(
                AgxRange::new(AgxFile::Gpr, half, halves),
                format!(
                    "{what}.{} ({})",
                    ["x", "y", "z", "w"][usize::from(comp)],
                    c.ty
                ),
            ));
        }
    }
    let epilog_input_halves = registers
        .iter()
        .map(|r| r.reg.end_half())
        .max()
        .unwrap_or(0);

    Ok(FragmentAbi {
        main_inputs,
        registers,
        link_info: LinkInfo {
            loc_written,
            size_32,
            write_z: input.depth,
            write_s: input.stencil,
            sample_shading: input.sample_shading,
            sample_mask_after_force_early: input.early_tests_with_discard,
        },
        prolog: PrologContract {
            register_inputs: Vec::new(),
            clobbers_all_registers: true,
            runs_once_per_pixel: true,
            uniforms_read: vec![UniformSlot::new(
                FUNI_ROOT.first_half,
                FUNI_ROOT.halves,
                "root descriptor pointer (invocation counter, polygon stipple)",
            )],
        },
        uniforms: fragment_uniforms(),
        first_free_uniform_half: FUNI_COUNT,
        epilog_input_halves,
    })
}
