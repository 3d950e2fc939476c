//! LLVM IR emitter of gpuabi: turns a verified `.gsir` module into textual LLVM IR (`.ll`)
//! for LLVM's AMDGPU backend, so that `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=...` can
//! compile the same program gpuabi's own code generator compiles.
//!
//! The output is deterministic: the same module always gives the same text (functions in
//! module order, declarations sorted by name, temporaries and blocks numbered in emission
//! order).
//!
//! # Kernel ABI of the output
//!
//! * Every `kernel` function becomes `define amdgpu_kernel void @NAME(...)` with one LLVM
//!   argument per `.gsir` parameter, in the `.gsir` order and with the `.gsir` names, so the
//!   AMDGPU backend's code-object metadata (`.args[].name`) carries the names that
//!   `--arg NAME=` and `--buffer NAME=` bind. Types: `i1` → `i1` (one byte in the kernarg
//!   segment), `i32` → `i32`, `i64` → `i64`, `f32` → `float`, `ptr` → `ptr addrspace(1)`
//!   (metadata `global_buffer`, 8 bytes); scalars are `by_value`. Offsets and sizes are the
//!   backend's (natural alignment, in order; see "Kernel Argument" in LLVM's AMDGPUUsage
//!   documentation).
//! * The grid is described by the HSA kernel dispatch packet (`llvm.amdgcn.dispatch.ptr`,
//!   layout `hsa_kernel_dispatch_packet_t` of ROCR's `hsa.h`): `group_size d` is the `u16`
//!   `workgroup_size_{x,y,z}` at byte 4 + 2d, `global_size d` the `u32` `grid_size_{x,y,z}`
//!   at byte 12 + 4d, `num_groups d` is `grid_size / workgroup_size` (the interpreter
//!   requires the grid to be a multiple of the group), `work_dim` the low two bits of
//!   `setup` (byte 2). `global_offset d` is the low 32 bits of the implicit kernel argument
//!   `hidden_global_offset_{x,y,z}` (code object v5: byte 40 + 8d of the hidden arguments,
//!   which the backend places after the explicit ones and lists in the metadata;
//!   `llvm.amdgcn.implicitarg.ptr`). `local_id` and `group_id` are `llvm.amdgcn.workitem.id.*` and
//!   `llvm.amdgcn.workgroup.id.*`; `global_id d` is
//!   `group_id * group_size + local_id + global_offset`, wrapping, as the interpreter
//!   computes it.
//!
//! # Callable functions
//!
//! Non-kernel functions use LLVM's default calling convention (`define hidden`), not
//! `amdgpu_gfx`: the default convention is the one AMDGPU defines for callable functions
//! of compute kernels (`amdgpu_kernel` may call it, directly and through function pointers),
//! and it runs with the kernel's IEEE mode (`amdgpu_gfx` is a graphics-shader convention
//! whose IEEE mode is off, which changes `v_min_f32`/`v_max_f32` on NaNs). `hidden`
//! keeps calls relocation-free while the signature stays external, so LLVM cannot rewrite
//! it. `func_addr` gives the function's code address (`ptrtoint`, then `inttoptr` to the
//! IR's `ptr`); `call_indirect` converts it back to a function pointer and calls it with
//! the signature's types. `return` parameters stay ordinary parameters (their value going in) and the function
//! returns a literal struct of their final values, `{ T1, T2, ... }` (`void` when there are
//! none); a call extracts the struct's fields as its results. The ACO ABI attributes
//! (`abi(...)`, `uniform`, `discardable`, `divergent_call`) have no LLVM counterpart and are
//! not written. Callables are `noinline` unless [`EmitOptions::allow_inlining`], so that the
//! calls gpuabi compares stay calls.
//!
//! # Semantics
//!
//! The emitted code computes what gpuabi's reference interpreter computes
//! (`gpuabi_ir::interp`), bit for bit, with these means:
//!
//! * f32 NaN results follow the IR's NaN rule (first NaN operand quieted, else
//!   `0x7fc00000`; `0xffc00000` for `0/0` and `inf/inf`) through explicit integer selects
//!   after each operation, because LangRef leaves the payload of a NaN result unspecified.
//!   `fmin`/`fmax` are written out as selects (neither `llvm.minnum` nor `llvm.minimum`
//!   returns a signalling NaN quieted and orders -0 below +0 as AMD's `v_min_f32` does).
//! * `fdiv` is LLVM's `fdiv` without fast-math flags and without `!fpmath`, in functions
//!   with `"denormal-fp-math-f32"="ieee,ieee"`: the AMDGPU backend then emits its correctly
//!   rounded division sequence. `fsqrt` is `llvm.sqrt.f32` (correctly rounded without
//!   `!fpmath`), `frsq` is `fdiv 1.0, sqrt(x)`, `ffma` is `llvm.fma.f32`; no operation
//!   carries `contract`, so nothing is fused.
//! * `fsin`/`fcos` multiply by `f32(1/(2π))` and call `llvm.amdgcn.sin`/`llvm.amdgcn.cos`
//!   (`v_sin_f32`/`v_cos_f32`, input in revolutions); `fexp2`/`flog2` are
//!   `llvm.amdgcn.exp2`/`llvm.amdgcn.log` (`v_exp_f32`/`v_log_f32`). The interpreter's
//!   formulas are the model of these instructions, so they are exact on AMD hardware (and in
//!   a simulator of it), not on other targets.
//! * `fptosi`/`fptoui` are `llvm.fptosi.sat`/`llvm.fptoui.sat` (saturating, NaN → 0).
//! * Shift amounts are masked to the width; integer division by zero and the `unreachable`
//!   instruction call `llvm.trap` (the interpreter stops with an error); `sdiv`/`srem` of
//!   the smallest integer by -1 give the wrapped quotient and 0 without LLVM's undefined
//!   behaviour. Stack-array accesses (`sload`/`sstore`) are bounds-checked against the
//!   `alloca` size and trap outside it; arrays are zero-filled on function entry
//!   (`llvm.memset` of an `alloca` in address space 5, 8-byte aligned).
//! * Global loads and stores are `align 1` (the IR allows any byte address).
//!
//! Not representable, hence not checked by the emitted code (the interpreter stops with an
//! error, the compiled code does whatever the hardware does): global accesses outside every
//! buffer (a `ptr` does not carry its buffer's bounds), `call_indirect` through a value that
//! is not a function address or a function whose signature differs from the call's, and
//! the interpreter's step, call-depth and stack limits. A call to a `noreturn` function
//! ends the invocation: the emitter returns from the caller right after the call, which is
//! only possible when the caller is a kernel or itself `noreturn`; anywhere else it is an
//! [`EmitError::Unsupported`] naming the call's position.
//!
//! # Known limits of llc-19
//!
//! LLVM 19 assumes that the unknown callee of an indirect call uses every SGPR a function
//! may use (`AMDGPUResourceUsageAnalysis`); on GFX8 (`-mcpu=tonga`) that is the whole
//! budget of 96, so a kernel that itself makes indirect calls and needs a few more SGPRs is
//! refused by llc with "scalar registers (N) exceeds limit (96)". The output is valid LLVM
//! IR; gfx1030 and gfx1100 compile it.

#![warn(missing_docs)]

mod control;
mod decls;
mod dispatch;
mod error;
mod float;
mod function;
mod int;
mod memory;
mod names;

pub use error::EmitError;

use gpuabi_ir::Module;

/// Choices of the emitter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// Leave callable functions without `noinline`, so LLVM may inline them (the calls then
    /// disappear from the output of `llc`).
    pub allow_inlining: bool,
    /// Leave NaN results as LLVM makes them instead of selecting the NaN rule's NaN after
    /// every f32 operation, and write `fmin`/`fmax` as `llvm.minnum`/`llvm.maxnum`: code
    /// as a compiler would write it, for comparing code quality. Results then differ from
    /// the interpreter's only in which NaN a NaN result is and in `fmin`/`fmax` of zeros of
    /// different signs or with a signalling NaN (LangRef lets `llvm.minnum` return the other
    /// operand or a quiet NaN).
    pub loose_nans: bool,
}

/// Verifies `module` and writes it as textual LLVM IR for `amdgcn-amd-amdhsa`.
pub fn emit(module: &Module, options: &EmitOptions) -> Result<String, EmitError> {
    gpuabi_ir::verify(module).map_err(EmitError::Invalid)?;
    function::emit_module(module, options)
}
