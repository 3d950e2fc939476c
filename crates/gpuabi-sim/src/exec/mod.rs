//! Instruction semantics, one file per unit: scalar ALU, vector ALU, memory, branches.
//! Each instruction's behaviour is written once, after the AMD GCN3/RDNA2/RDNA3 ISA
//! manuals.

pub mod atomic;
pub mod branch;
pub(crate) mod bvh;
pub mod bvh_stack;
pub mod compare;
pub mod double;
pub mod float;
pub mod half;
pub mod image_access;
pub mod lane_moves;
pub mod lds;
pub mod media;
pub mod mem_atomic;
pub mod memory;
pub mod salu;
pub mod scalar_float;
pub mod typed;
pub mod valu;

use gpuabi_amdgpu::Opcode;

/// The instructions [`UnmodelledAnswers`] answers when a run has them (`sim
/// check-function`, which runs a function without a hierarchy in memory): RDNA's ray
/// intersection (`image_bvh*_intersect_ray`, run as [`bvh`] describes otherwise) and RDNA
/// 3's BVH traversal stack (`ds_bvh_stack_rtn_b32`, run as [`bvh_stack`] describes
/// otherwise).
pub fn not_modelled(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::ImageBvhIntersectRay | Opcode::ImageBvh64IntersectRay | Opcode::DsBvhStackRtnB32
    )
}

/// Answers for the instructions of [`not_modelled`], given with data the program cannot
/// predict rather than computed. A box or triangle test's four result dwords are each an
/// invalid node (`0xffffffff`) with probability 7/8 and random otherwise, so that a
/// traversal pushes fewer nodes than it pops and its loop ends (with more, a traversal
/// whose stack is in LDS, as RDNA 2's, would never empty it); the BVH stack's next node is
/// an invalid node or the terminal node RADV puts at the bottom of its traversal stack
/// (`0xfffffffe`) with probability 1/4 each and random otherwise, and the stack address is
/// left as it was. Those instructions read the acceleration structure and the LDS stack,
/// so these are results of some memory contents; what a ray really hits is not modelled.
#[derive(Debug, Clone)]
pub struct UnmodelledAnswers {
    rng: crate::seeded::SplitMix64,
}

impl UnmodelledAnswers {
    /// Answers drawn from `seed`.
    pub fn new(seed: u64) -> UnmodelledAnswers {
        UnmodelledAnswers {
            rng: crate::seeded::SplitMix64::new(seed),
        }
    }

    /// Writes the answer of `d` into the active lanes of its result registers.
    pub(crate) fn answer(&mut self, d: &crate::image::Decoded, w: &mut crate::wave::Wave) {
        let crate::image::Dst::Vgpr(first) = d.dst[0] else {
            return;
        };
        let test = matches!(
            d.op,
            Opcode::ImageBvhIntersectRay | Opcode::ImageBvh64IntersectRay
        );
        let dwords = if test { 4 } else { 1 };
        let exec = w.exec();
        for lane in 0..w.lanes() {
            if exec >> lane & 1 == 0 {
                continue;
            }
            for k in 0..dwords {
                let bits = self.rng.next_u64();
                let v = match (test, bits & 7) {
                    (true, 0) | (false, 2..) => (bits >> 32) as u32,
                    (true, _) | (false, 0) => u32::MAX,
                    (false, 1) => u32::MAX - 1,
                };
                w.set_v(first + k, lane, v);
            }
        }
    }
}

/// Where execution continues after an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// The next instruction.
    Next,
    /// Instruction index `0`.
    Goto(u32),
    /// The byte address `0` (from `s_setpc_b64`/`s_swappc_b64`).
    Jump(u64),
    /// The wave ended (`s_endpgm`).
    End,
    /// The wave entered the trap handler (`s_trap`) or halted (`s_sethalt`), which the
    /// simulator does not model: the run stops with [`crate::SimError::Trap`].
    Trap,
    /// The wave waits at `s_barrier` until the other waves of its work-group arrive (or
    /// end); it then continues with the next instruction.
    Barrier,
}

#[cfg(test)]
mod tests {
    use gpuabi_amdgpu::opcodes::TABLE;
    use gpuabi_amdgpu::{Class, MemMods, WaveSize};

    use super::*;
    use crate::image::{Decoded, Dst, Src};
    use crate::memory::Memory;
    use crate::stats::Stats;
    use crate::wave::Wave;

    /// Every instruction of the table reaches its unit's semantics (no `unreachable!`).
    #[test]
    fn every_opcode_has_semantics() {
        for info in TABLE.iter().filter(|i| !not_modelled(i.op)) {
            let d = Decoded {
                op: info.op,
                class: info.class,
                dst: [Dst::Vgpr(0), Dst::Sgpr(0)],
                src: [Src::Const(0), Src::Vgpr(1), Src::Sgpr(4), Src::Const(0)],
                mods: MemMods::default(),
                src_mods: Default::default(),
                sdwa: None,
                dual: None,
                addr: 0,
                next_addr: 4,
                target: 0,
                origin: Default::default(),
            };
            let mut w = Wave::new(WaveSize::W64);
            match info.class {
                Class::Valu => valu::exec(&d, &mut w),
                Class::Salu if info.op != Opcode::SGetpcB64 => {
                    let d = Decoded {
                        dst: [Dst::Sgpr(0), Dst::None],
                        ..d.clone()
                    };
                    salu::exec(&d, &mut w)
                }
                Class::Lds => {
                    let mut lds = vec![0; 16];
                    let mut stats = Stats::default();
                    let mut cx = lds::LdsCtx {
                        lds: &mut lds,
                        target: gpuabi_amdgpu::Target::Gfx8,
                        stats: &mut stats,
                    };
                    lds::exec(&d, &mut w, &mut cx);
                }
                Class::Smem | Class::Vmem | Class::Scratch => {
                    let mut mem = Memory::new();
                    let mut stats = Stats::default();
                    let mut ctx = memory::MemCtx {
                        mem: &mut mem,
                        stats: &mut stats,
                        scratch_limit: 1024,
                        contract: None,
                    };
                    // Addresses are 0, outside every buffer: an error, not a panic.
                    let _ = memory::exec(&d, &mut w, &mut ctx);
                }
                _ => {
                    let _ = branch::exec(&d, &mut w);
                }
            }
        }
    }
}
