//! gpuabi-sim: a SIMT simulator for gpuabi's AMD machine programs.
//!
//! Waves of 32 or 64 lanes execute in lockstep under `exec`, with `vcc` and `scc`,
//! byte-address program counters (so `s_getpc_b64`, `s_setpc_b64`, `s_swappc_b64` and
//! function pointers work), global memory as bounded byte buffers, per-lane scratch and
//! buffer resource descriptors. Runs end with an error naming the instruction when a limit
//! is hit, an address is bad or a jump leaves the program. An optional ABI contract checker
//! verifies that every call preserves what its ABI promises, and optional tracking reports
//! reads of registers nothing wrote.

pub mod catalyst;
pub mod check_function;
pub mod code_object;
pub mod contract;
pub mod dispatch;
pub mod error;
mod exec;
pub mod hsa;
pub mod image;
pub mod limits;
pub mod machine;
pub mod memory;
pub mod opencl_image;
pub mod pal;
pub mod seeded;
pub mod segments;
pub mod stats;
pub mod undef;
pub mod waits;
pub mod wave;
pub mod writes;

pub use contract::{Broken, CallSite, Contract, ContractViolation, WaveFrames};
pub use dispatch::{LaneValues, WaveSetup};
pub use error::SimError;
pub use exec::image_access::{
    border, clamp, filter, image_type, ImageResource, Sampler, LINEAR_TILING_INDEX,
};
pub use exec::memory::Descriptor;
pub use exec::not_modelled;
pub use exec::UnmodelledAnswers;
pub use image::Image;
pub use limits::Limits;
pub use machine::{Machine, WaveExit, WaveRun};
pub use memory::{BufferId, Memory};
pub use stats::Stats;
pub use wave::Wave;
