//! LLVM's AMDGPU calling conventions for callable functions: which registers carry the
//! arguments, the return values, the return address and the stack pointer, and which
//! registers a callee preserves, as LLVM 19 defines them and llc-19 compiles them.
//!
//! Two conventions, named as gpuabi's contract checker names them:
//!
//! * `llvm-gfx`: the default (`C`) convention of callable functions of `amdgcn-amd-amdhsa`,
//!   the one `gpuabi ir emit-llvm` gives every non-kernel function. Preserved:
//!   `CSR_AMDGPU` (`llvm/lib/Target/AMDGPU/AMDGPUCallingConv.td`): s30-s105 and
//!   v40-v47, v56-v63, ..., v248-v255 (the upper 8 of every 16 VGPRs from v32 on).
//! * `llvm-amdgpu-gfx`: the `amdgpu_gfx` convention (PAL graphics functions). Preserved:
//!   `CSR_AMDGPU_SI_Gfx`: s4-s31, s64-s105 and the same VGPRs.
//!
//! Both: the return address in s[30:31] (`s_swappc_b64 s[30:31], ...`, returned to with
//! `s_setpc_b64 s[30:31]`), the stack pointer in s32 (restored by the callee), arguments in
//! VGPRs from v0 on, one per dword in order, a 64-bit value in the next two VGPRs without
//! alignment (`CC_AMDGPU_Func`, `CC_SI_Gfx`), return values likewise from v0 on
//! (`RetCC_AMDGPU_Func`, `RetCC_SI_Gfx`; a struct's fields in order, an `i1` as 0 or 1).
//! `amdgpu_gfx` passes `inreg` arguments in SGPRs from s4 to s29, in order and unaligned
//! (`CC_SI_Gfx`). Each of these facts was read off llc-19's output
//! (`llc-19 -mtriple=amdgcn-amd-amdhsa` for the `C` convention, `amdgcn-amd-amdpal` for
//! `amdgpu_gfx`, on tonga, gfx1030 and gfx1100) for functions taking and returning
//! `i32`, `i64`, `float`, `i1` and `inreg` values; gpuabi-sim's `tests/llc_objects.rs` checks
//! the preserved lists against what llc-19 saves in a function that clobbers every register.
//!
//! gpuabi's decisions where LLVM's convention says more than gpuabi implements:
//!
//! * Arguments past v31 (or, for `inreg` ones, past s29) and return values past v31 go on
//!   LLVM's stack; gpuabi refuses such a signature ([`LlvmError::TooManyDwords`]).
//! * A uniform parameter is `inreg` under `amdgpu_gfx` (a uniform `i1` excepted: LLVM
//!   passes `inreg i1` as an integer, gpuabi's lane masks are not). Under the `C`
//!   convention every argument is in VGPRs: `emit-llvm` writes no `inreg`, and llc-19 does
//!   not place `inreg` arguments of the `C` convention consistently (on gfx1030 a caller
//!   passes them from s0, while its callee, whose s[0:3] hold the scratch resource, reads
//!   them from s6).
//! * The callee's address at a call: s[16:17] under `llvm-gfx` and s[34:35] under
//!   `llvm-amdgpu-gfx`, clobbered registers that hold no argument (llc-19 picks such
//!   registers too; the callee never reads them).
//! * The stack pointer register holds what the caller's code generator addresses its
//!   stack with: for gpuabi, the per-lane byte offset of `scratch_*` (gfx1030, gfx1100),
//!   or on GCN 1.2 the swizzled scratch buffer resource itself, which gpuabi keeps where
//!   LLVM keeps its scratch resource, s[0:3] (see [`stack_pointer`]). On gfx1100 this is
//!   LLVM's stack exactly (`scratch_*` from s32); on gfx1030 and GCN 1.2 llc-19 addresses its
//!   stack through the resource s[0:3] with s32 as the wave's byte offset, so there only the
//!   registers agree, not the stack.
//! * The implicit inputs of the `C` convention (dispatch pointer and the rest in s4-s15,
//!   work-item ids in v31) are not passed: gpuabi hands launch values to callees as
//!   leading parameters instead.

use std::fmt;

use crate::aco::{Assignment, Demand, Location, ParamKind, ParamLayout, ScalarType, Signature};
use crate::reg::{RegClass, RegFile, RegRange, RegSet};

/// One of LLVM's conventions for callable functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LlvmAbi {
    /// The default (`C`) convention: `llvm-gfx`.
    Gfx,
    /// `amdgpu_gfx`: `llvm-amdgpu-gfx`.
    AmdgpuGfx,
}

/// The name of [`LlvmAbi::Gfx`].
pub const LLVM_GFX: &str = "llvm-gfx";

/// The name of [`LlvmAbi::AmdgpuGfx`].
pub const LLVM_AMDGPU_GFX: &str = "llvm-amdgpu-gfx";

/// LLVM's stack pointer, s32.
pub const STACK_POINTER: u16 = 32;

/// LLVM's return address, s[30:31].
pub const RETURN_ADDRESS: u16 = 30;

/// VGPRs that carry arguments and return values: v0-v31.
pub const ARG_VGPRS: u16 = 32;

/// The first SGPR of `amdgpu_gfx`'s `inreg` arguments.
pub const FIRST_INREG_SGPR: u16 = 4;

/// One past the last SGPR of `amdgpu_gfx`'s `inreg` arguments (s29 is the last).
pub const END_INREG_SGPRS: u16 = 30;

impl LlvmAbi {
    /// Both conventions.
    pub const ALL: [LlvmAbi; 2] = [LlvmAbi::Gfx, LlvmAbi::AmdgpuGfx];

    /// Its name: `llvm-gfx` or `llvm-amdgpu-gfx`.
    pub fn name(self) -> &'static str {
        match self {
            LlvmAbi::Gfx => LLVM_GFX,
            LlvmAbi::AmdgpuGfx => LLVM_AMDGPU_GFX,
        }
    }

    /// The convention named `name`, with `_` accepted for `-` (the IR's `abi(llvm_gfx)`).
    pub fn from_name(name: &str) -> Option<LlvmAbi> {
        let wanted = name.replace('_', "-");
        LlvmAbi::ALL.into_iter().find(|a| a.name() == wanted)
    }

    /// The registers a callee preserves (`CSR_AMDGPU` or `CSR_AMDGPU_SI_Gfx`), the same
    /// on every target gpuabi models.
    pub fn preserved(self) -> RegSet {
        let mut set = RegSet::new();
        match self {
            LlvmAbi::Gfx => set.insert_range(RegRange::new(RegFile::Sgpr, 30, 106 - 30)),
            LlvmAbi::AmdgpuGfx => {
                set.insert_range(RegRange::new(RegFile::Sgpr, 4, 32 - 4));
                set.insert_range(RegRange::new(RegFile::Sgpr, 64, 106 - 64));
            }
        }
        for first in (40..256).step_by(16) {
            set.insert_range(RegRange::new(RegFile::Vgpr, first, 8));
        }
        set
    }

    /// Where a caller puts the callee's address for `s_swappc_b64` (gpuabi's choice, see
    /// the module documentation).
    pub fn callee_pc(self) -> RegRange {
        match self {
            LlvmAbi::Gfx => RegRange::new(RegFile::Sgpr, 16, 2),
            LlvmAbi::AmdgpuGfx => RegRange::new(RegFile::Sgpr, 34, 2),
        }
    }
}

impl fmt::Display for LlvmAbi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The stack pointer's registers under LLVM's conventions for a code generator whose stack
/// pointer is `dwords` SGPRs: s32 for a byte offset, s[0:3] for a 4-SGPR scratch resource.
pub fn stack_pointer(dwords: u16) -> RegRange {
    if dwords == 4 {
        RegRange::new(RegFile::Sgpr, 0, 4)
    } else {
        RegRange::new(RegFile::Sgpr, STACK_POINTER, dwords)
    }
}

/// What every [`LlvmError::TooManyDwords`] message says: a signature that would need
/// LLVM's stack arguments.
pub const ON_LLVMS_STACK: &str = "on LLVM's stack, which gpuabi does not implement";

/// A signature LLVM's conventions cannot carry in registers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlvmError {
    /// Arguments or return values beyond the registers of the convention.
    #[error(
        "{what} of `{param}` would need {file}{end} and up; {abi} passes further {what}s on \
         LLVM's stack, which gpuabi does not implement (at most {limit} dwords)"
    )]
    TooManyDwords {
        /// The convention.
        abi: LlvmAbi,
        /// The parameter that does not fit.
        param: String,
        /// `argument` or `return value`.
        what: &'static str,
        /// `v` or `s`.
        file: &'static str,
        /// The first register past the convention's.
        end: u16,
        /// Dwords of such values the convention has registers for.
        limit: u16,
    },
}

/// Where a signature's values go under an LLVM convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlvmAssignment {
    /// The arguments (and the return address, stack pointer and callee address first, as
    /// `return_address`, `stack_pointer` and `callee_pc`), in the shape of an ACO
    /// assignment: nothing goes to scratch, nothing needs explicit preservation.
    pub assignment: Assignment,
    /// Per parameter of the signature: where a `return` parameter's final value comes
    /// back (`None` for the others).
    pub returns: Vec<Option<RegRange>>,
}

fn dwords(p: &crate::aco::Param) -> u16 {
    (p.ty.bit_size().max(32) / 32) * u16::from(p.components)
}

/// Assigns `signature` under `abi`; `stack_pointer` is where the stack pointer goes
/// ([`stack_pointer`]).
pub fn assign(
    abi: LlvmAbi,
    signature: &Signature,
    stack_pointer: RegRange,
) -> Result<LlvmAssignment, LlvmError> {
    let system = |name: &str, r: RegRange| ParamLayout {
        name: name.to_string(),
        kind: ParamKind::System,
        class: RegClass {
            file: r.file(),
            dwords: r.count,
        },
        location: Location::Reg(r),
        needs_explicit_preservation: false,
        discardable: false,
        is_return: false,
    };
    let mut params = vec![
        system(
            "return_address",
            RegRange::new(RegFile::Sgpr, RETURN_ADDRESS, 2),
        ),
        system("stack_pointer", stack_pointer),
        system("callee_pc", abi.callee_pc()),
    ];
    let (mut vgpr, mut sgpr) = (0u16, FIRST_INREG_SGPR);
    let mut reg_param_count = 0;
    for p in &signature.params {
        let n = dwords(p);
        let inreg = abi == LlvmAbi::AmdgpuGfx && p.uniform && p.ty != ScalarType::Bool;
        let (file, next, end, prefix) = if inreg {
            (RegFile::Sgpr, &mut sgpr, END_INREG_SGPRS, "s")
        } else {
            (RegFile::Vgpr, &mut vgpr, ARG_VGPRS, "v")
        };
        if *next + n > end {
            return Err(LlvmError::TooManyDwords {
                abi,
                param: p.name.clone(),
                what: "argument",
                file: prefix,
                end,
                limit: if inreg {
                    END_INREG_SGPRS - FIRST_INREG_SGPR
                } else {
                    ARG_VGPRS
                },
            });
        }
        let r = RegRange::new(file, *next, n);
        *next += n;
        reg_param_count += 1;
        params.push(ParamLayout {
            name: p.name.clone(),
            kind: ParamKind::User,
            class: RegClass { file, dwords: n },
            location: Location::Reg(r),
            needs_explicit_preservation: false,
            discardable: p.discardable,
            is_return: p.is_return,
        });
    }
    let mut returns = Vec::with_capacity(signature.params.len());
    let mut ret = 0u16;
    for p in &signature.params {
        if !p.is_return {
            returns.push(None);
            continue;
        }
        let n = dwords(p);
        if ret + n > ARG_VGPRS {
            return Err(LlvmError::TooManyDwords {
                abi,
                param: p.name.clone(),
                what: "return value",
                file: "v",
                end: ARG_VGPRS,
                limit: ARG_VGPRS,
            });
        }
        returns.push(Some(RegRange::new(RegFile::Vgpr, ret, n)));
        ret += n;
    }
    Ok(LlvmAssignment {
        assignment: Assignment {
            params,
            scratch_param_size: 0,
            reg_param_count,
            reg_discardable_param_count: 0,
            demand: Demand::new(sgpr - FIRST_INREG_SGPR + 2 + stack_pointer.count + 2, vgpr),
            warnings: Vec::new(),
        },
        returns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aco::Param;

    fn v(first: u16, n: u16) -> Location {
        Location::Reg(RegRange::new(RegFile::Vgpr, first, n))
    }

    fn s(first: u16, n: u16) -> Location {
        Location::Reg(RegRange::new(RegFile::Sgpr, first, n))
    }

    /// The placements llc-19 gives `f(i32 %a, i32 inreg %u, float %b, i64 inreg %w, i64 %x)`
    /// and `h2(i32, i64) -> i64` (read off its gfx1100 output): `C` ignores `inreg` here
    /// (gpuabi's uniform values go to VGPRs), `amdgpu_gfx` puts %u in s4 and %w in s[5:6].
    #[test]
    fn arguments_follow_llc() {
        let sig = Signature {
            params: vec![
                Param::new("a", ScalarType::I32, 1),
                Param::new("u", ScalarType::I32, 1).uniform(),
                Param::new("b", ScalarType::F32, 1),
                Param::new("w", ScalarType::I64, 1).uniform(),
                Param::new("x", ScalarType::I64, 1).returned(),
            ],
        };
        let sp = stack_pointer(1);
        let g = assign(LlvmAbi::AmdgpuGfx, &sig, sp).unwrap();
        let at = |a: &LlvmAssignment, n: &str| a.assignment.param(n).unwrap().location;
        assert_eq!(at(&g, "a"), v(0, 1));
        assert_eq!(at(&g, "u"), s(4, 1));
        assert_eq!(at(&g, "b"), v(1, 1));
        assert_eq!(at(&g, "w"), s(5, 2));
        assert_eq!(at(&g, "x"), v(2, 2));
        assert_eq!(at(&g, "stack_pointer"), s(32, 1));
        assert_eq!(at(&g, "return_address"), s(30, 2));
        let c = assign(LlvmAbi::Gfx, &sig, sp).unwrap();
        assert_eq!(at(&c, "u"), v(1, 1));
        assert_eq!(at(&c, "w"), v(3, 2));
        assert_eq!(at(&c, "x"), v(5, 2));
        // The one return value comes back from v0 whatever its argument register was.
        assert_eq!(
            c.returns,
            vec![
                None,
                None,
                None,
                None,
                Some(RegRange::new(RegFile::Vgpr, 0, 2))
            ]
        );
    }

    #[test]
    fn past_v31_is_refused() {
        let mut params: Vec<Param> = (0..31)
            .map(|k| Param::new(&format!("p{k}"), ScalarType::F32, 1))
            .collect();
        params.push(Param::new("wide", ScalarType::I64, 1));
        let e = assign(LlvmAbi::Gfx, &Signature { params }, stack_pointer(1)).unwrap_err();
        assert!(e.to_string().contains("`wide` would need v32"), "{e}");
    }

    /// `CSR_AMDGPU_SI_Gfx` keeps s4-s31 (where `inreg` arguments arrive) but not s32-s63.
    #[test]
    fn preserved_lists() {
        let reg = |file, num| crate::reg::Reg { file, num };
        let gfx = LlvmAbi::AmdgpuGfx.preserved();
        assert!(gfx.contains(reg(RegFile::Sgpr, 4)) && !gfx.contains(reg(RegFile::Sgpr, 34)));
        let c = LlvmAbi::Gfx.preserved();
        assert!(!c.contains(reg(RegFile::Sgpr, 29)) && c.contains(reg(RegFile::Sgpr, 30)));
        for (n, kept) in [
            (39, false),
            (40, true),
            (47, true),
            (48, false),
            (255, true),
        ] {
            assert_eq!(c.contains(reg(RegFile::Vgpr, n)), kept, "v{n}");
        }
        assert_eq!(
            LlvmAbi::from_name("llvm_amdgpu_gfx"),
            Some(LlvmAbi::AmdgpuGfx)
        );
    }
}
