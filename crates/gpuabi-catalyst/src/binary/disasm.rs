//! The kernel code of a binary as LLVM-syntax assembly, decoded with gpuabi's machine model
//! for the device's generation (GCN 1.0 is `gfx6`, 1.1 `gfx7`, 1.2 `gfx8`; Catalyst runs
//! every kernel in wave64).

use gpuabi_amdgpu::{asm, decode, Target, WaveSize};

use crate::driver::Generation;

/// The machine-model target of a device generation.
pub const fn target_of(generation: Generation) -> Target {
    match generation {
        Generation::Gcn10 => Target::Gfx6,
        Generation::Gcn11 => Target::Gfx7,
        Generation::Gcn12 => Target::Gfx8,
    }
}

/// The assembly of `code`, or why it does not decode (the byte offset of the first
/// instruction the machine model does not know, and what it found there).
pub fn disassemble(code: &[u8], generation: Generation) -> Result<String, String> {
    let target = target_of(generation);
    let program = decode(code, target, WaveSize::W64).map_err(|e| e.to_string())?;
    Ok(asm::print(&program))
}
