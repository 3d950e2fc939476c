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
pub mod float_mode;
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
/// intersection (`image_bvh*_intersect_ray`, run as [`bvh`] describes otherwise on RDNA 2
/// and 3), RDNA 4's BVH8 and dual tests and the BVH traversal stacks of RDNA 3 and 4
/// (`ds_bvh_stack_*`; RDNA 3's run as [`bvh_stack`] describes otherwise), which otherwise
/// stop a run with [`crate::SimError::NotModelled`].
pub fn not_modelled(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::ImageBvhIntersectRay
            | Opcode::ImageBvh64IntersectRay
            | Opcode::DsBvhStackRtnB32
            | Opcode::ImageBvh8IntersectRay
            | Opcode::ImageBvhDualIntersectRay
            | Opcode::DsBvhStackPush4Pop1RtnB32
            | Opcode::DsBvhStackPush8Pop1RtnB32
            | Opcode::DsBvhStackPush8Pop2RtnB64
    )
}

/// The VGPRs an RDNA 4 BVH test writes the ray back into, given its address's VGPRs dword
/// by dword ([`crate::Image::nsa_vgprs`]): the origin and direction entries
/// ([`Opcode::bvh_ray_write_back`]). Empty for other instructions.
pub fn ray_write_back(op: Opcode, target: gpuabi_amdgpu::Target, address: &[u16]) -> Vec<u16> {
    let entries = op.bvh_ray_write_back();
    let Some(gpuabi_amdgpu::Kind::ImageAddr(dwords)) = op.info().srcs.first() else {
        return Vec::new();
    };
    let Some(counts) = gpuabi_amdgpu::validate::nsa_layout(target, *dwords) else {
        return Vec::new();
    };
    let mut first = 0usize;
    let mut regs = Vec::new();
    for (entry, count) in counts.iter().enumerate() {
        let count = usize::from(*count);
        if entries.contains(&entry) {
            regs.extend(address.iter().skip(first).take(count));
        }
        first += count;
    }
    regs
}

/// Answers for the instructions of [`not_modelled`], given with data the program cannot
/// predict rather than computed. A box or triangle test's result dwords (four, ten for RDNA
/// 4's BVH8 and dual tests) are each an invalid node (`0xffffffff`) with probability 7/8
/// and random otherwise, so that a traversal pushes fewer nodes than it pops and its loop
/// ends (with more, a traversal whose stack is in LDS, as RDNA 2's, would never empty it);
/// RDNA 4's tests also write the ray back into their origin and direction registers
/// ([`ray_write_back`]): unchanged, as for a box or triangle node, with probability 7/8,
/// otherwise random, as for an instance node, whose transform moves the ray into the
/// instance's space. The BVH stack's next node (each of the two `push8_pop2` pops) is an
/// invalid node or the terminal node RADV puts at the bottom of its traversal stack
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

    /// Writes the answer of `d` into the active lanes of its result registers and, for
    /// RDNA 4's tests, of the ray registers `write_back` ([`ray_write_back`]).
    pub(crate) fn answer(
        &mut self,
        d: &crate::image::Decoded,
        write_back: &[u16],
        w: &mut crate::wave::Wave,
    ) {
        let crate::image::Dst::Vgpr(first) = d.dst[0] else {
            return;
        };
        let (test, dwords) = match d.op {
            Opcode::ImageBvhIntersectRay | Opcode::ImageBvh64IntersectRay => (true, 4),
            Opcode::ImageBvh8IntersectRay | Opcode::ImageBvhDualIntersectRay => (true, 10),
            Opcode::DsBvhStackPush8Pop2RtnB64 => (false, 2),
            _ => (false, 1),
        };
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
            if !write_back.is_empty() && self.rng.next_u64() & 7 == 0 {
                for &r in write_back {
                    w.set_v(r, lane, (self.rng.next_u64() >> 32) as u32);
                }
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

    /// The registers an answer writes, lane by lane, over many seeds: RDNA 4's BVH8 test
    /// writes its 10 result dwords in every active lane and the ray (v48-v53, the origin and
    /// direction entries of its address) in some lanes, nothing else; `push8_pop2` writes
    /// its two popped nodes and leaves the stack address (its second destination) alone.
    #[test]
    fn rdna4_bvh_answers_write_their_registers_only() {
        let text = "\timage_bvh8_intersect_ray v[78:87], [v[76:77], v[44:45], v[48:50], \
                    v[51:53], v1], s[20:23]\n\
                    \tds_bvh_stack_push8_pop2_rtn_b64 v[10:11], v43, v57, v[78:85] offset:16\n";
        let program =
            gpuabi_amdgpu::asm::parse(text, gpuabi_amdgpu::Target::Gfx12, WaveSize::W32).unwrap();
        let image = crate::Image::new(&program).unwrap();
        let address = image.nsa_vgprs(0).unwrap();
        let write_back = ray_write_back(image.insts[0].op, image.target, address);
        assert_eq!(write_back, [48, 49, 50, 51, 52, 53]);
        let (mut ray_rewritten, mut ray_kept) = (0, 0);
        for seed in 0..8 {
            let mut answers = UnmodelledAnswers::new(seed);
            let mut w = Wave::new(WaveSize::W32);
            let before = |r: u16, lane: usize| (u32::from(r) << 8) | lane as u32;
            for r in 0..256u16 {
                for lane in 0..32 {
                    w.set_v(r, lane, before(r, lane));
                }
            }
            // Lane 31 inactive: its registers stay.
            w.set_exec(0x7fff_ffff);
            answers.answer(&image.insts[0], &write_back, &mut w);
            answers.answer(&image.insts[1], &[], &mut w);
            for lane in 0..32 {
                let changed: Vec<u16> = (0..256u16)
                    .filter(|&r| w.v(r, lane) != before(r, lane))
                    .collect();
                if lane == 31 {
                    assert!(changed.is_empty(), "inactive lane: {changed:?}");
                    continue;
                }
                let ray: Vec<u16> = changed
                    .iter()
                    .copied()
                    .filter(|r| (48..54).contains(r))
                    .collect();
                let rest: Vec<u16> = changed.into_iter().filter(|r| !ray.contains(r)).collect();
                // Random answers equal the old value with probability 2^-32 a dword: the
                // seeds here do not.
                let results: Vec<u16> = (10..12).chain(78..88).collect();
                assert_eq!(rest, results, "seed {seed} lane {lane}");
                match ray.len() {
                    0 => ray_kept += 1,
                    6 => ray_rewritten += 1,
                    n => panic!("{n} of the ray's six registers rewritten"),
                }
            }
        }
        assert!(
            ray_rewritten > 0 && ray_kept > ray_rewritten,
            "{ray_rewritten} {ray_kept}"
        );
    }

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
