//! Why a run stops.

use thiserror::Error;

/// An error of the simulator; instruction errors name the byte offset and text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SimError {
    /// The code does not decode.
    #[error(transparent)]
    Decode(#[from] gpuabi_agx_isa::DecodeError),
    /// A register tuple runs past r127h.
    #[error("register half {half} with {size} bits runs past the register file")]
    RegisterRange {
        /// First half.
        half: u32,
        /// Size in bits.
        size: u32,
    },
    /// A uniform tuple runs past u255h.
    #[error("uniform half {half} with {size} bits runs past the uniform file")]
    UniformRange {
        /// First half.
        half: u32,
        /// Size in bits.
        size: u32,
    },
    /// An instruction the simulator does not model.
    #[error("byte offset {offset}: `{text}` is not simulated ({why})")]
    Unsupported {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// What is missing.
        why: &'static str,
    },
    /// A lane read unmapped memory without soft fault.
    #[error("byte offset {offset}: `{text}`: lane {lane} reads unmapped address {address:#x}")]
    Fault {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// The lane.
        lane: usize,
        /// The address.
        address: u64,
    },
    /// A register access out of range, with the instruction.
    #[error("byte offset {offset}: `{text}`: {inner}")]
    At {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// The error.
        inner: Box<SimError>,
    },
    /// The nesting counter `r0l` of a lane would pass 65535.
    #[error("byte offset {offset}: `{text}`: the nesting counter r0l of lane {lane} overflows")]
    Nesting {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// The lane.
        lane: usize,
    },
    /// A fragment context of an impossible shape.
    #[error(
        "a tile of {width}x{height} pixels, {samples} samples of {sample_size} bytes is not \
         simulated (at most 1024 pixels, 1, 2 or 4 samples, 64 bytes per sample)"
    )]
    TileShape {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Samples per pixel.
        samples: u32,
        /// Bytes per sample.
        sample_size: u32,
    },
    /// A lane's tile-buffer access or coefficient read falls outside the fragment context.
    #[error("byte offset {offset}: `{text}`: lane {lane} {what}")]
    Tile {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// The lane.
        lane: usize,
        /// What is out of range.
        what: String,
    },
    /// A lane's image access (`imgw`, `smpi`) has a bad descriptor or falls outside the
    /// image.
    #[error("byte offset {offset}: `{text}`: lane {lane} {what}")]
    Image {
        /// Byte offset.
        offset: usize,
        /// The instruction.
        text: String,
        /// The lane.
        lane: usize,
        /// What is wrong.
        what: String,
    },
    /// The step limit was reached.
    #[error("stopped after {0} instructions without reaching the end")]
    StepLimit(usize),
}
