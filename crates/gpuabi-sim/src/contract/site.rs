//! The contract of one call site: the callee, its call ABI, the registers it must hand back
//! unchanged and where its stack begins.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::{self, Abi, AcoError, Demand, LimitInputs};
use gpuabi_layout::reg::{Reg, RegFile, RegRange, RegSet};

use crate::wave::SCALARS;

/// What the callee of one `s_swappc_b64` promises its caller. The code generator knows it
/// per call (each call has its callee's ABI, stack-pointer register and scratch
/// parameters); `gpuabi sim run --abi` has one for every call of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// The callee as the caller names it (an IR function or a label). Empty when the
    /// callee is only known by address: reports then name the label at the address.
    pub callee: String,
    /// Name of the callee's call ABI.
    pub abi: String,
    /// Registers the callee must hand back unchanged: the ABI's preserved registers below
    /// the register limit plus the registers of parameters that need explicit
    /// preservation, minus those that carry new values back (next-callee PCs, return
    /// values), which the caller leaves out.
    pub preserved: RegSet,
    /// The callee's stack pointer: one SGPR holding a per-lane scratch byte offset (gfx9
    /// and later) or the four SGPRs of a swizzled scratch buffer resource whose base the
    /// caller bumps (before gfx9). It must be unchanged at the return, and it sets the
    /// floor below which the callee may not store.
    pub stack_pointer: Option<RegRange>,
    /// Bytes per lane of the callee's scratch parameters, which lie just below its stack
    /// pointer and belong to the callee (it may write them).
    pub scratch_param_bytes: u32,
    /// The swizzled scratch buffer resource that a one-SGPR stack pointer is the wave's
    /// byte offset into, if it is one: LLVM's stack before gfx11 (`buffer_*` through
    /// s[0:3] with s32 as SOFFSET, the offset counting bytes of the whole wave). The floor
    /// then applies to stores through swizzled resources, as before gfx9.
    pub scratch_resource: Option<RegRange>,
}

impl CallSite {
    /// A call site whose callee is only known by address, with no scratch parameters.
    pub fn new(abi: impl Into<String>, preserved: RegSet, stack_pointer: Option<RegRange>) -> Self {
        CallSite {
            callee: String::new(),
            abi: abi.into(),
            preserved,
            stack_pointer,
            scratch_param_bytes: 0,
            scratch_resource: None,
        }
    }
}

/// The registers an ACO call ABI preserves under `limit` (the target's default
/// ray-tracing limit when `None`), plus `explicit` registers holding parameters that need
/// explicit preservation. Mesa: `aco_ir.h` (`ABI`, `RegisterBlock`) and
/// `aco_isel_helpers.cpp` (`needs_explicit_preservation`).
pub fn aco_preserved(
    abi: &Abi,
    target: Target,
    wave: WaveSize,
    limit: Option<Demand>,
    explicit: &[RegRange],
) -> Result<RegSet, AcoError> {
    let limit = match limit {
        Some(l) => l,
        None => aco::Target::new(target, wave.lanes())?.default_limit(LimitInputs::default()),
    };
    let mut preserved = aco::register_ranges(&abi.block, limit)?.preserved;
    for r in explicit {
        preserved.insert_range(*r);
    }
    Ok(preserved)
}

/// A call site with its registers listed once, so that a call copies them without testing
/// every register of the file.
#[derive(Debug, Clone)]
pub(super) struct Checks {
    pub site: CallSite,
    pub sgprs: Vec<u16>,
    pub vgprs: Vec<u16>,
    /// The stack-pointer SGPRs, those that exist.
    pub stack_pointer: Vec<u16>,
}

impl Checks {
    pub fn new(site: CallSite) -> Checks {
        let list = |file: RegFile| -> Vec<u16> {
            (0..file.capacity())
                .filter(|&n| site.preserved.contains(Reg { file, num: n }))
                .collect()
        };
        let stack_pointer = site
            .stack_pointer
            .filter(|r| r.file() == RegFile::Sgpr)
            .map(|r| {
                (r.first.num..r.end())
                    .filter(|&n| (n as usize) < SCALARS)
                    .collect()
            })
            .unwrap_or_default();
        Checks {
            sgprs: list(RegFile::Sgpr),
            vgprs: list(RegFile::Vgpr),
            stack_pointer,
            site,
        }
    }
}
