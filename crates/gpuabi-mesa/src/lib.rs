//! gpuabi-mesa: reads what Mesa's drivers print about the code they compile, so that gpuabi
//! can check it.
//!
//! - [`aco_ir`]: ACO's IR as RADV prints it (`VK_KHR_pipeline_executable_properties`' "ACO
//!   IR", `RADV_DEBUG=ir`): the registers `p_startpgm` gives a function's parameters, and the
//!   operands and definitions of each `p_call` and `p_return`.
//! - [`capture`]: a folder of RADV's ray-tracing functions as `tools/mesa/capture-radv`
//!   writes it: which GPU, which pipelines, which stage each function implements and where
//!   its files are.
//!
//! The machine code itself (the "Assembly" files) is read by `gpuabi-amdgpu`'s assembler,
//! which understands ACO's disassembly.

pub mod aco_ir;
pub mod capture;
mod error;

pub use error::MesaError;
