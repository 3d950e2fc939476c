//! Spill lowering: once registers are allocated, every `p_spill` and `p_reload` that
//! spilling ([`crate::spill`]) placed becomes the instructions that store or load its
//! slot: scratch stores and loads of VGPR values (one to four dwords per access, from the
//! frame's base: nothing in a kernel, the stack pointer in a called function, the scratch
//! buffer registers on GCN 1.2), and `v_writelane_b32`/`v_readlane_b32` of SGPR values into
//! lanes of the reserved spill VGPRs.

use gpuabi_amdgpu::{Imm, Opcode, Operand, Target, WaveSize};
use gpuabi_layout::reg::RegFile;
use smallvec::smallvec;

use crate::error::PassError;
use crate::mir::{Function, MInst, MOp, Opnd, Pseudo, Slice};
use crate::pipeline::Context;
use crate::scratch::{self, Base, BufferRegs};

/// The pass: expands the spill pseudo-instructions of `f`.
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    lower(f, ctx.opts.target, ctx.opts.wave);
    Ok(())
}

/// Expands every `p_spill` and `p_reload` of `f` into the instructions that store or
/// load the slot.
pub fn lower(f: &mut Function, target: Target, wave: WaveSize) {
    for b in 0..f.blocks.len() {
        if !f.blocks[b]
            .insts
            .iter()
            .any(|i| i.is(Pseudo::Spill) || i.is(Pseudo::Reload))
        {
            continue;
        }
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        for inst in old {
            let load = inst.is(Pseudo::Reload);
            if !load && !inst.is(Pseudo::Spill) {
                out.push(inst);
                continue;
            }
            let (Some(Opnd::Temp(data)), Some(Opnd::Fixed(Operand::Imm(Imm::Int(slot))))) =
                (inst.opnds.first(), inst.opnds.get(1))
            else {
                unreachable!("spill code names its data and slot")
            };
            // After the slot: the kernel's private segment buffer and wave offset, or the
            // stack pointer (a byte offset, or on GCN 1.2 the scratch resource itself).
            let (buffer, base) = match (inst.opnds.get(2), inst.opnds.get(3)) {
                (Some(Opnd::Temp(rsrc)), Some(Opnd::Temp(wave_offset))) => (
                    Some(BufferRegs {
                        rsrc: *rsrc,
                        wave_offset: Some(*wave_offset),
                    }),
                    Base::None,
                ),
                (Some(Opnd::Temp(sp)), None) if scratch::is_resource(sp.dwords) => {
                    (Some(BufferRegs::stack_pointer(*sp)), Base::None)
                }
                (Some(Opnd::Temp(sp)), None) => (None, Base::Sgpr(*sp)),
                _ => (None, Base::None),
            };
            let file = f.info(data.temp).file;
            let cost = inst.cost;
            out.extend(
                transfer(
                    target,
                    file,
                    load,
                    *data,
                    *slot as u32,
                    wave.lanes(),
                    buffer,
                    base,
                    inst.origin,
                )
                .into_iter()
                .map(|mut i| {
                    i.cost = cost;
                    i
                }),
            );
        }
        f.blocks[b].insts = out;
    }
}

/// The instructions that reload (`load`) or store a temp from or to its slot: a byte
/// offset in scratch (VGPRs) or the first of its lanes (SGPRs).
#[allow(clippy::too_many_arguments)]
fn transfer(
    target: Target,
    file: RegFile,
    load: bool,
    data: Slice,
    slot: u32,
    lanes: u32,
    buffer: Option<BufferRegs>,
    base: Base,
    origin: crate::mir::Origin,
) -> Vec<MInst> {
    match file {
        RegFile::Vgpr => {
            let at = slot;
            let mut v = Vec::new();
            // 1, 2 or 4 dwords per access; 3 as 2 + 1.
            let mut done = 0u8;
            while done < data.dwords {
                let n = match data.dwords - done {
                    1 | 3 => 1,
                    2 => 2,
                    _ => 4,
                };
                let part = Slice {
                    temp: data.temp,
                    offset: data.offset + done,
                    dwords: n,
                };
                v.push(scratch::access(
                    target,
                    !load,
                    part,
                    base,
                    (at + 4 * u32::from(done)) as i32,
                    buffer,
                    origin,
                ));
                done += n;
            }
            v
        }
        RegFile::Sgpr => (0..data.dwords)
            .map(|i| {
                let k = slot + u32::from(i);
                let vreg = Opnd::SpillVgpr((k / lanes) as u16);
                let lane = Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(k % lanes))));
                let sreg = Opnd::Temp(Slice {
                    temp: data.temp,
                    offset: data.offset + i,
                    dwords: 1,
                });
                let (op, opnds) = if load {
                    (Opcode::VReadlaneB32, smallvec![sreg, vreg, lane])
                } else {
                    (Opcode::VWritelaneB32, smallvec![vreg, sreg, lane])
                };
                MInst {
                    op: MOp::Hw(op),
                    opnds,
                    mods: Default::default(),
                    e64: false,
                    cost: crate::mir::AbiCost::None,
                    origin,
                }
            })
            .collect(),
    }
}
