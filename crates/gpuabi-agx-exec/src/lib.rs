//! gpuabi-agx-exec: runs the parts of an Asahi draw in the AGX simulator the way the
//! hardware runs them, and checks the contract at each boundary between parts.
//!
//! * [`vertex`]: a vertex prolog over a draw ([`VertexDraw`]): the vertex buffers placed in
//!   device memory, the uniforms filled as the ABI places them, one SIMD group per 32
//!   vertices of each instance, and the registers each invocation hands to the main vertex
//!   shader.
//! * [`fragment`]: a fragment prolog (optional), the main fragment shader (or the registers
//!   it leaves) and the epilog linked by `gpuabi_agx::link`, run over a tile of pixels and
//!   samples ([`FragmentDraw`]), with the sample loop's footer checked at every iteration.
//! * [`Stats`]: the instructions each part executed, by kind, and the tile and memory
//!   traffic.
//! * [`rt_rgba`]: a render target of the tile after a run, as 8-bit RGBA.
//!
//! Each program is decoded once per draw and its groups share one device memory, as a
//! draw's groups do on the hardware.

#![warn(missing_docs)]

pub mod fragment;
mod rgba;
mod stats;
pub mod vertex;

pub use fragment::{FragmentDraw, FragmentError, FragmentOutcome, FragmentProgram, Tile};
pub use rgba::{rt_rgba, RgbaError};
pub use stats::{PartCounts, Stats};
pub use vertex::{VertexDraw, VertexError, VertexOutcome, VertexProgram};

/// Instructions one SIMD group may run before the run is stopped.
pub const MAX_STEPS: usize = 1_000_000;

/// What the caller calls its inputs, for messages: errors name the file (and the key in
/// it) they are about, as `KEY.toml: …` or `DRAW.toml: index: …`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// The key (its file name).
    pub key: String,
    /// The draw (its file name).
    pub draw: String,
}
