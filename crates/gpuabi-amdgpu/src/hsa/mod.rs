//! The AMDHSA kernel entry ABI as LLVM's AMDGPU backend uses it for `amdgpu_kernel`
//! functions (LLVM's AMDGPUUsage document, sections "Kernel Descriptor", "Initial Kernel
//! Execution State", "Kernel Dispatch" and "Code Object V5 Metadata").
//!
//! A [`KernelDescriptor`] names its fields after LLVM's `.amdhsa_*` assembler directives, so
//! that the descriptors gpuabi's code generator fills and the ones llc-19 prints are the same
//! data. [`initial_state`] says where every value the hardware loads at wave launch lands;
//! [`layout_kernargs`] places explicit and hidden kernel arguments as LLVM 19 does for code
//! object version 5; [`print_kernel_descriptor`] prints the `.amdhsa_kernel` block that
//! llvm-mc-19 assembles, and [`parse_kernel_descriptors`], [`parse_kernel_metadata`] and
//! [`read_kernels`] read llc-19's descriptors and argument metadata back. [`features`]
//! holds what differs per target, [`dispatch_packet`] the AQL packet's field offsets.

mod descriptor;
mod directives;
pub mod dispatch_packet;
mod features;
mod initial_state;
mod kernarg;
mod metadata;
mod print;

pub use descriptor::{DescriptorError, KernelDescriptor, MAX_USER_SGPRS};
pub use directives::{parse_kernel_descriptors, print_kernel_descriptor, DirectiveError};
pub use features::{features, HsaFeatures};
pub use initial_state::{
    initial_state, InitialState, SgprInput, PACKED_WORK_ITEM_ID_BITS, PACKED_WORK_ITEM_ID_SHIFT,
};
pub use kernarg::{
    hidden_arg, layout_kernargs, ArgSpec, HiddenArgs, KernArg, KernargLayout, Kernel, LayoutError,
    UnknownValueKind, ValueKind, ValueType, HIDDEN_AREA_ALIGN, HIDDEN_AREA_BYTES,
};
pub(crate) use metadata::arg_align;
pub use metadata::{parse_kernel_metadata, read_kernels, KernelMetadata};
pub use print::{print_metadata, print_preamble, CODE_OBJECT_VERSION};

/// Private bytes per work-item gpuabi gives a kernel whose stack has no static bound
/// (recursion, calls through pointers): the stack LLVM assumes for a call it cannot see
/// (`amdgpu-assume-external-call-stack-size` in LLVM's `AMDGPUResourceUsageAnalysis.cpp`,
/// 16 KiB), far above the 1 KiB default stack of AMD's HIP runtime.
pub const ASSUMED_STACK_BYTES: u32 = 16 * 1024;
