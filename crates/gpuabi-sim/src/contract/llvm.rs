//! LLVM's AMDGPU calling convention for callable functions as a contract: what llc-19's
//! callees (the default `C`/`amdgpu_gfx`-style function convention of `amdgcn-amd-amdhsa`)
//! promise their callers.
//!
//! LLVM 19, `llvm/lib/Target/AMDGPU/AMDGPUCallingConv.td`: `CSR_AMDGPU` is
//! `CSR_AMDGPU_SGPRs` (s30–s105: the return address s[30:31], the stack pointer s32, the
//! frame and base pointers s33/s34 and the rest) and `CSR_AMDGPU_VGPRs` (v40–v47, v56–v63,
//! …, v248–v255: the upper 8 of every 16 VGPRs from v32 on), and
//! `SIRegisterInfo::getCalleeSavedRegs` (`SIRegisterInfo.cpp`) uses it for the `C` and
//! `Fast` conventions on every target gpuabi models (gfx8, gfx10.3, gfx11; only gfx90a
//! adds AGPRs). AMDGPUUsage, "Calling Conventions", names s32 the stack pointer and
//! s[30:31] the return address. `amdgpu_gfx` functions use `CSR_AMDGPU_SI_Gfx` instead
//! (s4–s31 and s64–s105 with the same VGPRs), which is [`llvm_amdgpu_gfx_preserved`].
//!
//! The lists are checked against llc-19 (gpuabi-sim's `tests/llc_objects.rs`): a function
//! that clobbers every register saves exactly these (less the stack pointer, which it
//! restores by arithmetic), for tonga, gfx1030 and gfx1100, and for `amdgpu_gfx` under
//! `amdgcn-amd-amdpal` on gfx1030 and gfx1100. The lists themselves are gpuabi-layout's
//! (`gpuabi_layout::llvm`), which the code generator compiles to.

use gpuabi_layout::llvm::LlvmAbi;
use gpuabi_layout::reg::{RegFile, RegRange, RegSet};

use super::Contract;

/// The name of the built-in contract of LLVM's callable-function convention.
pub const LLVM_GFX: &str = gpuabi_layout::llvm::LLVM_GFX;

/// The name of the built-in contract of LLVM's `amdgpu_gfx` convention.
pub const LLVM_AMDGPU_GFX: &str = gpuabi_layout::llvm::LLVM_AMDGPU_GFX;

/// LLVM's stack pointer for callable functions (AMDGPUUsage, "Call Convention").
pub const LLVM_STACK_POINTER: u16 = gpuabi_layout::llvm::STACK_POINTER;

/// The registers `CSR_AMDGPU` preserves (the `C` convention of callable functions).
pub fn llvm_gfx_preserved() -> RegSet {
    LlvmAbi::Gfx.preserved()
}

/// The registers `CSR_AMDGPU_SI_Gfx` preserves (the `amdgpu_gfx` convention).
pub fn llvm_amdgpu_gfx_preserved() -> RegSet {
    LlvmAbi::AmdgpuGfx.preserved()
}

impl Contract {
    /// The built-in contract named `name` ([`LLVM_GFX`] or [`LLVM_AMDGPU_GFX`]) for every
    /// call, with s32 as the stack pointer; `None` for other names. The lists are the same
    /// for every target and wave size gpuabi models.
    pub fn llvm(name: &str) -> Option<Contract> {
        let preserved = match name {
            LLVM_GFX => llvm_gfx_preserved(),
            LLVM_AMDGPU_GFX => llvm_amdgpu_gfx_preserved(),
            _ => return None,
        };
        let sp = RegRange::new(RegFile::Sgpr, LLVM_STACK_POINTER, 1);
        Some(Contract::new(name, preserved, Some(sp)))
    }

    /// The contract of LLVM's callable-function convention ([`LLVM_GFX`]) for every call.
    pub fn llvm_gfx() -> Contract {
        let sp = RegRange::new(RegFile::Sgpr, LLVM_STACK_POINTER, 1);
        Contract::new(LLVM_GFX, llvm_gfx_preserved(), Some(sp))
    }
}
