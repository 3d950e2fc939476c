//! One line of a layout: a register or uniform range with what it holds.

use gpuabi_layout::reg::{AgxFile, AgxRange};
use serde::Serialize;

/// A GPR range and its meaning; `half` is the first 16-bit half, `reg` the vendor name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegSlot {
    /// First 16-bit half.
    pub half: u16,
    /// The registers in AGX syntax (`r8`, `r3l`, `r3h`).
    pub reg: AgxRange,
    /// What the registers hold.
    pub meaning: String,
}

impl RegSlot {
    /// A slot for `reg` holding `meaning`.
    pub fn new(reg: AgxRange, meaning: impl Into<String>) -> RegSlot {
        RegSlot {
            half: reg.first_half,
            reg,
            meaning: meaning.into(),
        }
    }
}

/// A uniform range and its meaning, in 16-bit halves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UniformSlot {
    /// First 16-bit uniform half.
    pub half: u16,
    /// Number of halves.
    pub size_halves: u16,
    /// The uniforms in AGX syntax (`u0_u1`, `u5l`).
    pub reg: AgxRange,
    /// What the uniforms hold.
    pub meaning: String,
}

impl UniformSlot {
    /// `size_halves` uniform halves from `half`, holding `meaning`.
    pub fn new(half: u16, size_halves: u16, meaning: impl Into<String>) -> UniformSlot {
        UniformSlot {
            half,
            size_halves,
            reg: AgxRange::new(AgxFile::Uniform, half, size_halves),
            meaning: meaning.into(),
        }
    }

    /// One past the last half.
    pub fn end_half(&self) -> u16 {
        self.half + self.size_halves
    }
}
