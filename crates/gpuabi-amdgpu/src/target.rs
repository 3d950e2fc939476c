//! Targets (GPU generations) and wave sizes: the types of `gpuabi-layout`, so that a caller
//! uses one target type for layouts and machine programs alike.

pub use gpuabi_layout::gfx::{modelled_text, Gfx, Processor, UnknownGfx, WaveSize, PROCESSORS};

/// The machine model's name for a GPU generation: the same type as
/// [`gpuabi_layout::gfx::Gfx`]. Programs for `gfx9`, which the machine model has no
/// encodings for, fail [`crate::Program::validate`] and the parser with an error saying so.
pub use gpuabi_layout::gfx::Gfx as Target;

/// The targets gpuabi compiles for and simulates in full, oldest first: the code generator
/// accepts exactly these.
pub const MODELLED_TARGETS: [Target; 4] = [
    Target::Gfx8,
    Target::Gfx1030,
    Target::Gfx1100,
    Target::Gfx12,
];

/// The targets the machine model has encodings for (assembler, encoder, decoder), oldest
/// first: [`MODELLED_TARGETS`] and GCN 1.0/1.1 (`gfx6`, `gfx7`), whose code gpuabi reads,
/// assembles and runs (AMD's Catalyst binaries) but does not generate.
pub const ENCODED_TARGETS: [Target; 6] = [
    Target::Gfx6,
    Target::Gfx7,
    Target::Gfx8,
    Target::Gfx1030,
    Target::Gfx1100,
    Target::Gfx12,
];
