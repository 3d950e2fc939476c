//! Spilling: a temp the allocator could not keep in registers lives in memory, stored
//! after every write and reloaded into a short-lived temp before every read ("spill
//! everywhere", the simplest correct placement).
//!
//! VGPRs go to per-lane scratch slots after the frame's stack arrays. SGPRs go to lanes of
//! VGPRs reserved for the purpose (`v_writelane_b32`/`v_readlane_b32`, which ignore exec),
//! as ACO does (`aco_spill.cpp`, linear VGPRs holding spilled SGPRs); those VGPRs are the
//! highest of the VGPR budget.

use gpuabi_amdgpu::{Imm, Opcode, Operand, Target, WaveSize};
use gpuabi_layout::reg::RegFile;
use smallvec::smallvec;

use crate::error::CodegenError;
use crate::mir::{Function, MInst, MOp, Opnd, Slice, Temp, TempInfo};
use crate::scratch::{self, Base, BufferRegs};

/// Where spilled values go.
#[derive(Debug, Clone, Default)]
pub struct Slots {
    /// Bytes of per-lane scratch used by VGPR spill slots (after the stack arrays).
    pub vgpr_bytes: u32,
    /// SGPR dwords spilled (each one VGPR lane).
    pub sgpr_dwords: u32,
}

impl Slots {
    /// VGPRs reserved for spilled SGPRs with `lanes` lanes per VGPR.
    pub fn sgpr_spill_vgprs(&self, wave: WaveSize) -> u16 {
        self.sgpr_dwords.div_ceil(wave.lanes()) as u16
    }
}

/// Rewrites `victims` to memory.
pub fn spill(
    f: &mut Function,
    victims: &[Temp],
    slots: &mut Slots,
    target: Target,
    wave: WaveSize,
    buffer: Option<BufferRegs>,
) -> Result<(), CodegenError> {
    // Slot of each victim: a byte offset (VGPR) or a first lane index (SGPR).
    let mut slot = vec![None; f.temps.len()];
    for &t in victims {
        let info = f.info(t);
        match info.file {
            RegFile::Vgpr => {
                slot[t.index()] = Some(f.stack_bytes.next_multiple_of(8) + slots.vgpr_bytes);
                slots.vgpr_bytes += 4 * u32::from(info.dwords);
            }
            RegFile::Sgpr => {
                slot[t.index()] = Some(slots.sgpr_dwords);
                slots.sgpr_dwords += u32::from(info.dwords);
            }
        }
    }
    let frame_end = f.stack_bytes.next_multiple_of(8) + slots.vgpr_bytes;
    let max = scratch::max_offset(target) as u32;
    if frame_end > max + 1 {
        return Err(CodegenError::FrameTooLarge {
            function: f.name.clone(),
            bytes: frame_end,
            max: max + 1,
        });
    }
    let lanes = wave.lanes();
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        for mut inst in old {
            let ndefs = inst.num_defs();
            let is_copy = matches!(inst.op, MOp::Pseudo(_));
            let mut after = Vec::new();
            // One reload per slice read, however often the instruction reads it: a VALU
            // instruction reading one SGPR twice uses the constant bus once.
            let mut reloaded: Vec<(Slice, Slice)> = Vec::new();
            for i in 0..inst.opnds.len() {
                let Opnd::Temp(s) = inst.opnds[i] else {
                    continue;
                };
                let Some(at) = slot[s.temp.index()] else {
                    continue;
                };
                let info = f.info(s.temp);
                let is_def = if is_copy { i % 2 == 0 } else { i < ndefs };
                if !is_def {
                    if let Some((_, r)) = reloaded.iter().find(|(o, _)| *o == s) {
                        inst.opnds[i] = Opnd::Temp(*r);
                        continue;
                    }
                }
                let fresh = new_temp(f, info, s.dwords);
                let fresh_slice = Slice {
                    temp: fresh,
                    offset: 0,
                    dwords: s.dwords,
                };
                inst.opnds[i] = Opnd::Temp(fresh_slice);
                let moves = transfer(
                    target,
                    info.file,
                    !is_def,
                    fresh_slice,
                    at,
                    s.offset,
                    lanes,
                    buffer,
                    inst.origin,
                );
                if is_def {
                    after.extend(moves);
                } else {
                    reloaded.push((s, fresh_slice));
                    out.extend(moves);
                }
            }
            out.push(inst);
            out.extend(after);
        }
        f.blocks[b].insts = out;
    }
    Ok(())
}

fn new_temp(f: &mut Function, like: TempInfo, dwords: u8) -> Temp {
    f.temps.push(TempInfo {
        file: like.file,
        dwords,
        align: if like.file == RegFile::Sgpr && dwords >= 2 {
            like.align
        } else {
            1
        },
        no_spill: true,
    });
    Temp(f.temps.len() as u32 - 1)
}

/// The instructions that reload (`load`) or store a slice of a spilled temp.
#[allow(clippy::too_many_arguments)]
fn transfer(
    target: Target,
    file: RegFile,
    load: bool,
    data: Slice,
    slot: u32,
    offset: u8,
    lanes: u32,
    buffer: Option<BufferRegs>,
    origin: crate::mir::Origin,
) -> Vec<MInst> {
    match file {
        RegFile::Vgpr => {
            let at = slot + 4 * u32::from(offset);
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
                    Base::None,
                    (at + 4 * u32::from(done)) as i32,
                    buffer,
                    origin,
                ));
                done += n;
            }
            if load {
                v.push(MInst {
                    op: MOp::Hw(Opcode::SWaitcnt),
                    opnds: smallvec![Opnd::Fixed(Operand::Waitcnt(gpuabi_amdgpu::Waitcnt {
                        vmcnt: Some(0),
                        ..Default::default()
                    }))],
                    mods: Default::default(),
                    e64: false,
                    origin,
                });
            }
            v
        }
        RegFile::Sgpr => (0..data.dwords)
            .map(|i| {
                let k = slot + u32::from(offset) + u32::from(i);
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
                    origin,
                }
            })
            .collect(),
    }
}
