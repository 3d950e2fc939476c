//! A simulator of one Apple AGX (G13) SIMD group: 32 lanes, the register file in 16-bit
//! halves, uniform registers, the execution mask driven by the nesting counter in `r0l`
//! (`if`/`else`/`while`/`pop_exec`), and device loads with their format conversions.
//!
//! Semantics follow Dougall Johnson's applegpu (`applegpu.py` and `fma.py`): integer
//! arithmetic with shifts and saturation, the bitfield unit, the truth-table bitwise
//! unit, fp32/fp16 arithmetic rounded once (fp32 flushing subnormals), compare-and-select,
//! ballots, shuffles and `device_load`. Beyond what applegpu emulates, it runs stores of
//! every memory format (`format` states the conversions), integer/float conversions and
//! the rounding and transcendental float functions (rules in `convert`), and, given a
//! [`Fragment`] context, the tile buffer per pixel and sample with every physical format
//! (`st_tile`/`ld_tile`), `sample_mask`, `zs_emit` and `iter`/`ldcf` from coefficient
//! registers (rules in `fragment`), device atomics, bindless image writes and texel
//! fetches of linear 2D images (`imgw`, `smpi`; rules in `image`, descriptors in
//! `gpuabi_agx_isa::descriptor`, bindless or bound to texture-state registers), the block
//! store of a render target of the tile to a linear image (`imgwblk`, the end-of-tile
//! store; rules in `block`), in fragment code the pixel coordinates and input
//! sample mask as special registers, the vertex outputs `st_var` stores (in
//! [`State::varyings`]) and the uniform writes by which a preamble hands values to its
//! shader. Instructions outside that set end the run with an
//! error naming the instruction. [`run_observed`] calls back before each instruction, for
//! counting and for checking a contract at an offset.

mod alu;
mod block;
mod convert;
mod error;
mod exec;
mod float;
mod format;
mod fragment;
mod image;
mod load;
mod memory;
mod op;
mod program;
mod session;
mod state;
mod tile;

pub use error::SimError;
pub use exec::{run, run_observed, run_program, run_program_observed};
pub use float::{f16_to_f64, f32_to_f64, to_f16, to_f32};
pub use format::code as format_code;
pub use program::Program;
pub use session::Session;
pub use state::{Region, State, GPR_HALVES, LANES, UNIFORM_HALVES};
pub use tile::{default_sample_positions, Fragment, MAX_SAMPLES, MAX_SAMPLE_SIZE, MAX_TILE_PIXELS};
