//! The functions check-function knows how to enter: RADV's ray-tracing stages under Mesa's
//! ABIs, any signature under an ACO ABI, and LLVM's callable functions.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::{
    assign, stage_assignment, Abi, AssignRequest, Assignment, Demand, Location, ParamKind,
    ParamLayout, Policy, RtStage, Signature, Target as AcoTarget, DIVERGENT_CALL, NORETURN,
};
use gpuabi_layout::reg::{RegClass, RegFile, RegRange, RegSet};

use super::{handed_back, stack_pointer, Callee, CheckError, FunctionSpec};
use crate::contract::{
    aco_preserved, llvm_amdgpu_gfx_preserved, llvm_gfx_preserved, LLVM_AMDGPU_GFX, LLVM_GFX,
    LLVM_STACK_POINTER,
};

/// Where and under what a function is checked, besides its ABI and parameters.
#[derive(Debug, Clone)]
pub struct Placement {
    /// The label where it starts.
    pub entry: String,
    /// A name for reports.
    pub name: String,
    /// The program's target.
    pub target: Target,
    /// The program's wave size.
    pub wave: WaveSize,
    /// The register limit of the ACO ABIs' preserved ranges.
    pub limit: Demand,
}

impl Placement {
    fn aco_target(&self) -> Result<AcoTarget, CheckError> {
        Ok(AcoTarget::new(self.target, self.wave.lanes())?)
    }

    /// A callee under `abi` with `layout` (the registers of its explicitly preserved
    /// parameters come back); without a layout, its stack pointer is `sp`.
    fn callee(
        &self,
        name: &str,
        abi: &Abi,
        layout: Option<&Assignment>,
        sp: RegRange,
    ) -> Result<Callee, CheckError> {
        let explicit = layout.map(handed_back).unwrap_or_default();
        let preserved = aco_preserved(abi, self.target, self.wave, Some(self.limit), &explicit)?;
        let stack_pointer = match layout {
            Some(l) => {
                stack_pointer(l).ok_or(CheckError::NotInRegisters("callee's stack pointer"))?
            }
            None => sp,
        };
        let mut parameters = RegSet::new();
        for p in layout.map_or(&[][..], |l| &l.params[..]) {
            if let Location::Reg(r) = p.location {
                parameters.insert_range(r);
            }
        }
        Ok(Callee {
            name: name.to_string(),
            preserved,
            stack_pointer,
            parameters,
        })
    }

    fn spec(
        &self,
        abi: &Abi,
        layout: Assignment,
        flags: u32,
        callees_by_param: Vec<(String, Callee)>,
        default_callee: Callee,
    ) -> Result<FunctionSpec, CheckError> {
        let preserved = aco_preserved(
            abi,
            self.target,
            self.wave,
            Some(self.limit),
            &handed_back(&layout),
        )?;
        Ok(FunctionSpec {
            name: self.name.clone(),
            entry: self.entry.clone(),
            abi: abi.name.clone(),
            preserved,
            layout,
            divergent: flags & DIVERGENT_CALL != 0,
            noreturn: flags & NORETURN != 0,
            callees_by_param,
            default_callee,
            scratch_resource: None,
        })
    }
}

impl FunctionSpec {
    /// RADV's function of a ray-tracing `stage` in a pipeline whose functions carry
    /// `payload` bytes of payload and `hit_attribs` bytes of hit attributes, under `abi`
    /// (the stage's own when `None`), with RADV's callees: raygen, callable, closest-hit
    /// and miss functions call the traversal function through the address in
    /// `traversal_addr` and callables anywhere else; traversal calls any-hit and
    /// intersection functions (`radv_pipeline_rt.c`, `radv_nir_lower_rt_abi`).
    pub fn for_stage(
        place: &Placement,
        stage: RtStage,
        payload: u32,
        hit_attribs: u32,
        abi: Option<&Abi>,
    ) -> Result<FunctionSpec, CheckError> {
        let target = place.aco_target()?;
        let layout_of = |s: RtStage| {
            stage_assignment(s, payload, hit_attribs, target, place.limit, Policy::Mesa)
        };
        let (signature, own) = layout_of(stage)?;
        let own_abi = signature.abi.abi();
        let abi = abi.unwrap_or(&own_abi);
        let layout = if abi.name == own_abi.name {
            own
        } else {
            assign(&AssignRequest {
                abi,
                target,
                limit: place.limit,
                signature: &signature.signature,
                policy: Policy::Mesa,
                hints: None,
            })?
        };
        let sp = stack_pointer(&layout).ok_or(CheckError::NotInRegisters("stack pointer"))?;
        let callee = |s: RtStage| -> Result<Callee, CheckError> {
            let (sig, l) = layout_of(s)?;
            place.callee(&s.to_string(), &sig.abi.abi(), Some(&l), sp)
        };
        let (by_param, default) = match stage {
            RtStage::Traversal => (Vec::new(), callee(RtStage::AnyHit)?),
            RtStage::AnyHit | RtStage::Intersection => {
                (Vec::new(), place.callee("unknown callee", abi, None, sp)?)
            }
            _ => (
                vec![("traversal_addr".to_string(), callee(RtStage::Traversal)?)],
                callee(RtStage::Callable)?,
            ),
        };
        place.spec(abi, layout, signature.flags, by_param, default)
    }

    /// A function of `signature` under `abi`, entered by a plain call (neither divergent
    /// nor NORETURN), whose calls are made under the same ABI.
    pub fn for_signature(
        place: &Placement,
        abi: &Abi,
        signature: &Signature,
    ) -> Result<FunctionSpec, CheckError> {
        let layout = assign(&AssignRequest {
            abi,
            target: place.aco_target()?,
            limit: place.limit,
            signature,
            policy: Policy::Mesa,
            hints: None,
        })?;
        let sp = stack_pointer(&layout).ok_or(CheckError::NotInRegisters("stack pointer"))?;
        let callee = place.callee(&abi.name, abi, None, sp)?;
        place.spec(abi, layout, 0, Vec::new(), callee)
    }

    /// A callable function of LLVM's convention `name` (`llvm-gfx` or `llvm-amdgpu-gfx`):
    /// the return address in s[30:31], the stack pointer s32 (LLVM's AMDGPUUsage, "Call
    /// Convention"), its callee-saved registers preserved; calls follow the same
    /// convention. Before gfx11 llc-19 keeps the stack in the private segment buffer whose
    /// resource is in s[0:3], and s32 counts bytes of the whole wave; gfx11 uses `scratch_*`
    /// with s32 as a lane's offset. Its parameters get random values like every other
    /// register, so their places do not matter. `None` for other names.
    pub fn llvm(place: &Placement, name: &str) -> Option<FunctionSpec> {
        let (abi, preserved) = match name {
            LLVM_GFX => (LLVM_GFX, llvm_gfx_preserved()),
            LLVM_AMDGPU_GFX => (LLVM_AMDGPU_GFX, llvm_amdgpu_gfx_preserved()),
            _ => return None,
        };
        let sp = RegRange::new(RegFile::Sgpr, LLVM_STACK_POINTER, 1);
        let param = |name: &str, range: RegRange| ParamLayout {
            name: name.to_string(),
            kind: ParamKind::System,
            class: RegClass {
                file: RegFile::Sgpr,
                dwords: range.count,
            },
            location: Location::Reg(range),
            needs_explicit_preservation: false,
            discardable: false,
            is_return: false,
        };
        let layout = Assignment {
            params: vec![
                param("return_address", RegRange::new(RegFile::Sgpr, 30, 2)),
                param("stack_pointer", sp),
            ],
            scratch_param_size: 0,
            reg_param_count: 0,
            reg_discardable_param_count: 0,
            demand: Demand::new(3, 0),
            warnings: Vec::new(),
        };
        Some(FunctionSpec {
            name: place.name.clone(),
            entry: place.entry.clone(),
            abi: abi.to_string(),
            preserved: preserved.clone(),
            layout,
            divergent: false,
            noreturn: false,
            callees_by_param: Vec::new(),
            default_callee: Callee {
                name: abi.to_string(),
                preserved,
                stack_pointer: sp,
                parameters: RegSet::new(),
            },
            scratch_resource: (place.target != Target::Gfx1100)
                .then(|| RegRange::new(RegFile::Sgpr, 0, 4)),
        })
    }
}
