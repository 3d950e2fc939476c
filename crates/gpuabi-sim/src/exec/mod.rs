//! Instruction semantics, one file per unit: scalar ALU, vector ALU, memory, branches.
//! Each instruction's behaviour is written once, after the AMD GCN3/RDNA2/RDNA3 ISA
//! manuals.

pub mod atomic;
pub mod branch;
pub mod float;
pub mod image_access;
pub mod lds;
pub mod mem_atomic;
pub mod memory;
pub mod salu;
pub mod typed;
pub mod valu;

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
    use gpuabi_amdgpu::{Class, MemMods, Opcode, WaveSize};

    use super::*;
    use crate::image::{Decoded, Dst, Src};
    use crate::memory::Memory;
    use crate::stats::Stats;
    use crate::wave::Wave;

    /// Every instruction of the table reaches its unit's semantics (no `unreachable!`).
    #[test]
    fn every_opcode_has_semantics() {
        for info in TABLE {
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
