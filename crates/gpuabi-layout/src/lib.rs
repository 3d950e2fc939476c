//! gpuabi-layout: the register model and the layout engines of gpuabi.
//!
//! Every engine is a pure function from a description (an ABI, a signature, a target) to a
//! value that can be printed, serialised and drawn; nothing here depends on an IR or a
//! machine model.

pub mod aco;
pub mod gfx;
pub mod llvm;
pub mod reg;
pub mod suggest;
pub mod svg;
