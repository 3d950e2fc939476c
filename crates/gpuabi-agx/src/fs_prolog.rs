//! The fragment prolog generator: from a fragment prolog key, the AGX code that runs once
//! per pixel before the main fragment shader, as Mesa's `agx_nir_fs_prolog`
//! (`src/asahi/lib/agx_nir_prolog_epilog.c`) builds it:
//!
//! 1. **API sample mask** other than 0xff: the samples outside the mask are killed with
//!    `sample_mask killed, 0` (Mesa's `nir_discard_agx(mask ^ 0xff)`, lowered by
//!    `agx_nir_lower_sample_mask`).
//! 2. **Statistics**: `popcount(input_sample_mask)` is added atomically to the 32-bit
//!    fragment-invocation counter (`agx_nir_lower_stats_fs`). A helper invocation covers no
//!    sample, so it adds 0 and the counter is the same with or without a helper check.
//! 3. **Cull distances** (`agx_nir_lower_cull_distance_fs`): the vertex shader exports
//!    `cull ≥ 0 ? 1.0 : 0.0` per distance as a varying; it is 0 at every vertex (the
//!    primitive is culled) exactly when its plane `(a, b, c)` is all zero. Distance `i` is
//!    read with `ldcf` from coefficient register `cf_base + i` (gpuabi's reading of the
//!    linker appending the prolog's bindings after the main shader's, one register per
//!    component); a float is ±0 when its bits shifted left by one are 0. Any culled
//!    distance kills every sample.
//! 4. **Polygon stipple**: the pattern word of row `y mod 32` is loaded and bit
//!    `(~x) mod 32` extracted (X reversed, `agx_nir_lower_poly_stipple`); when it is 0 every
//!    sample is killed (`nir_demote_if`, lowered to `sample_mask` with a selected target).
//!    The pixel coordinates are `thread_in_grid_x`/`_y`, which Mesa's `agx_compile.c` reads
//!    for `load_pixel_coord`.
//! 5. **Tests**: when the key runs the depth/stencil tests (`run_zs_tests`) and the prolog
//!    discards, `sample_mask 255, 255` runs them for the samples still alive at the end
//!    (`lower_tests_zs` turning `load_shader_part_tests_zs_agx` into 0xff).
//!
//! The counter's and the pattern's addresses come through the root descriptor, whose
//! 64-bit address is in uniform halves 12..15 (`u6_u7`). Decision: Mesa's GL driver keeps
//! both in its `agx_draw_uniforms` record, whose layout is the driver's own; gpuabi fixes
//! the record as two 64-bit pointers, the counter's address at byte
//! [`ROOT_PS_INVOCATIONS`] and the 32-word stipple pattern's at byte
//! [`ROOT_POLYGON_STIPPLE`]. Temporaries are `r2`…`r6` (the prolog has no register inputs
//! and may clobber anything).

use gpuabi_agx_isa::regs::{cf, dr, du, r, rl, rs};
use gpuabi_agx_isa::{args, Arg, Builder, Operand};
use serde::Serialize;
use thiserror::Error;

use crate::abi::FUNI_ROOT;
use crate::prolog::register_use;

/// Byte offset in the root descriptor of the fragment-invocation counter's 64-bit address.
pub const ROOT_PS_INVOCATIONS: u32 = 0;
/// Byte offset in the root descriptor of the polygon-stipple pattern's 64-bit address.
pub const ROOT_POLYGON_STIPPLE: u32 = 8;
/// Every sample of a pixel (the `sample_mask` target and the key's "no mask" value).
pub const ALL_SAMPLES: u8 = 0xff;

/// A fragment prolog key (Mesa's `agx_fs_prolog_key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FsPrologKey {
    /// Samples the API's sample mask keeps (0xff: all).
    pub api_sample_mask: u8,
    /// Count fragment invocations.
    pub statistics: bool,
    /// Apply the GL polygon stipple.
    pub polygon_stipple: bool,
    /// Cull distances to test (0: none).
    pub cull_distance_size: u8,
    /// The prolog runs the depth/stencil tests (neither the main shader nor the epilog
    /// does).
    pub run_zs_tests: bool,
    /// First coefficient register of the cull-distance varyings.
    pub cf_base: u8,
}

impl Default for FsPrologKey {
    /// A key that asks for nothing.
    fn default() -> FsPrologKey {
        FsPrologKey {
            api_sample_mask: ALL_SAMPLES,
            statistics: false,
            polygon_stipple: false,
            cull_distance_size: 0,
            run_zs_tests: false,
            cf_base: 0,
        }
    }
}

/// Largest number of cull distances accepted: 8, the combined clip and cull distance count
/// GL requires at least (`GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES`); a gpuabi limit.
pub const MAX_CULL_DISTANCES: u8 = 8;

/// A key the generator cannot turn into code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FsPrologError {
    /// More cull distances than accepted, or coefficient registers past cf255.
    #[error("{0}")]
    CullDistances(String),
    /// Generated code that does not build or decode: a defect of the generator.
    #[error("generated code does not assemble: {0}")]
    Assemble(String),
}

/// A generated fragment prolog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FsProlog {
    /// Assembly text in Mesa's syntax, one instruction a line.
    pub text: String,
    /// Machine code.
    #[serde(skip)]
    pub code: Vec<u8>,
    /// GPR halves used: one past the highest half read or written.
    pub gpr_halves: u16,
    /// GPR halves read before written (none for a generated prolog).
    pub reads: Vec<u16>,
    /// GPR halves written.
    pub writes: Vec<u16>,
}

/// The root descriptor as a memory base operand (`du6`).
const fn root() -> Operand {
    du(FUNI_ROOT.first_half as u32 / 2)
}

/// Generates the fragment prolog of `key`.
pub fn fragment_prolog(key: &FsPrologKey) -> Result<FsProlog, FsPrologError> {
    if key.cull_distance_size > MAX_CULL_DISTANCES {
        return Err(FsPrologError::CullDistances(format!(
            "{} cull distances (at most {MAX_CULL_DISTANCES})",
            key.cull_distance_size
        )));
    }
    if u16::from(key.cf_base) + u16::from(key.cull_distance_size) > 256 {
        return Err(FsPrologError::CullDistances(format!(
            "cull distances from cf{} run past cf255",
            key.cf_base
        )));
    }
    let mut b = Builder::new();
    let mut op = |name: &str, args: &[Arg]| {
        b.push(name, args);
    };
    let mut discards = false;
    if key.api_sample_mask != ALL_SAMPLES {
        op("sample_mask", &args![!key.api_sample_mask, 0]);
        discards = true;
    }
    if key.statistics {
        op("mov", &args![rl(2), "input_sample_mask"]);
        op("popcnt", &args![r(3), rl(2)]);
        let at = ROOT_PS_INVOCATIONS / 4;
        op("load", &args![rs(4, 2), root(), at, "i32", "xy", "a"]);
        op("wait", &args!["a"]);
        op("atomic", &args![Arg::Absent, r(3), dr(4), 0, "add", "a"]);
    }
    if key.cull_distance_size != 0 {
        op("ldimm", &args![r(6), 0]);
        for i in 0..key.cull_distance_size {
            let c = u32::from(key.cf_base) + u32::from(i);
            op("ldcf", &args![rs(2, 3), cf(c)]);
            op("or", &args![r(5), r(2), r(3)]);
            op("or", &args![r(5), r(5), r(4)]);
            op("shl", &args![r(5), r(5), 1]);
            op("csel", &args![r(6), r(5), 0, ALL_SAMPLES, r(6), "ieq"]);
        }
        op("sample_mask", &args![rl(6), 0]);
        discards = true;
    }
    if key.polygon_stipple {
        op("mov", &args![r(2), "thread_in_grid_x"]);
        op("mov", &args![r(3), "thread_in_grid_y"]);
        op("and", &args![r(3), r(3), 31]);
        let at = ROOT_POLYGON_STIPPLE / 4;
        op("load", &args![rs(4, 2), root(), at, "i32", "xy", "a"]);
        op("wait", &args!["a"]);
        op("load", &args![r(6), dr(4), r(3), "i32", "x", "a"]);
        op("wait", &args!["a"]);
        op("not", &args![r(2), r(2)]);
        op("and", &args![r(2), r(2), 31]);
        op("bfeil", &args![r(6), 0, r(6), r(2), 1]);
        op("csel", &args![r(6), r(6), 0, ALL_SAMPLES, 0, "ieq"]);
        op("sample_mask", &args![rl(6), 0]);
        discards = true;
    }
    if key.run_zs_tests && discards {
        op("sample_mask", &args![ALL_SAMPLES, ALL_SAMPLES]);
    }
    let program = b
        .finish()
        .map_err(|e| FsPrologError::Assemble(e.to_string()))?;
    let (reads, writes) =
        register_use(&program.bytes).map_err(|e| FsPrologError::Assemble(e.to_string()))?;
    let gpr_halves = reads
        .iter()
        .chain(&writes)
        .map(|h| h + 1)
        .max()
        .unwrap_or(0);
    Ok(FsProlog {
        text: program.text(),
        code: program.bytes,
        gpr_halves,
        reads,
        writes,
    })
}
