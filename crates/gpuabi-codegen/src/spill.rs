//! Spilling: a temp the allocator could not keep in registers lives in memory, stored
//! after every write and reloaded into a short-lived temp before every read ("spill
//! everywhere", the simplest correct placement).
//!
//! VGPRs go to per-lane scratch slots after the frame's stack arrays. SGPRs go to lanes of
//! VGPRs reserved for the purpose (`v_writelane_b32`/`v_readlane_b32`, which ignore exec),
//! as ACO does (`aco_spill.cpp`, linear VGPRs holding spilled SGPRs); those VGPRs are the
//! highest of the VGPR budget.
//!
//! The stores and loads are `p_spill`/`p_reload` pseudo-instructions while registers are
//! allocated (they name the slot, and the scratch buffer registers a VGPR spill needs on
//! GCN 1.2, so liveness sees those read); [`crate::lower_spills`] expands them once
//! allocation is done.

use gpuabi_amdgpu::{Imm, Operand, Target, WaveSize};
use gpuabi_layout::reg::RegFile;
use smallvec::{smallvec, SmallVec};

use crate::error::CodegenError;
use crate::mir::{Function, MInst, Opnd, Pseudo, Slice, Temp, TempInfo};
use crate::scratch::{self, BufferRegs};

/// Where spilled values go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slots {
    /// Bytes of per-lane scratch used by VGPR spill slots (after the stack arrays).
    pub vgpr_bytes: u32,
    /// SGPR dwords spilled (each one VGPR lane).
    pub sgpr_dwords: u32,
    /// VGPRs reserved at the top of the budget for spilled (and saved) SGPRs.
    pub reserved: u16,
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
    // A called function's frame starts at its stack pointer, which may itself have been
    // spilled in an earlier round: then each new VGPR transfer reloads it first.
    let sp = match (f.stack_pointer, f.stack_pointer_slot) {
        (_, Some(lane)) => StackPointer::Slot(lane),
        (Some(t), None) => StackPointer::Temp(f.whole(t)),
        (None, None) => StackPointer::None,
    };
    if let Some(t) = f.stack_pointer {
        if let Some(lane) = slot[t.index()] {
            f.stack_pointer_slot = Some(lane);
        }
    }
    // Reloads of phi sources, placed at the end of the predecessor they come from:
    // (block, whether at the end of its logical part, reload).
    let mut at_end: Vec<(usize, bool, MInst)> = Vec::new();
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        // Stores of phi destinations wait for the block's logical part, which starts after
        // the phis and the exec-mask code at the top of the block (a merge's restored exec
        // covers the lanes of both arms).
        let mut after_phis = Vec::new();
        for mut inst in old {
            let starts_logical = inst.is(Pseudo::LogicalStart);
            let ndefs = inst.num_defs();
            let is_phi = inst.is_phi();
            let is_copy = inst.is(crate::mir::Pseudo::ParallelCopy);
            let mut after = Vec::new();
            // The entry copy defines the stack pointer with the other parameters: the
            // stores after it read the stack pointer there, before its own spill.
            let sp_defined = (is_copy && matches!(sp, StackPointer::Slot(_)))
                .then(|| {
                    let own = f.stack_pointer_reg?;
                    inst.opnds.chunks(2).find_map(|p| match (&p[0], p.get(1)) {
                        (Opnd::Temp(d), Some(Opnd::Fixed(Operand::Reg(r)))) if *r == own => {
                            Some(*d)
                        }
                        _ => None,
                    })
                })
                .flatten();
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
                if !is_def && !inst.is_phi() {
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
                let first = match info.file {
                    RegFile::Vgpr => at + 4 * u32::from(s.offset),
                    RegFile::Sgpr => at + u32::from(s.offset),
                };
                let slot_opnd = Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(first))));
                let data = Opnd::Temp(fresh_slice);
                let mut opnds: SmallVec<[Opnd; 4]> = smallvec![data, slot_opnd];
                if let (RegFile::Vgpr, Some(b)) = (info.file, buffer) {
                    opnds.push(Opnd::Temp(b.rsrc));
                    opnds.extend(b.wave_offset.map(Opnd::Temp));
                }
                let mut sp_reload = None;
                if info.file == RegFile::Vgpr && buffer.is_none() {
                    match sp {
                        StackPointer::None => {}
                        StackPointer::Temp(t) => opnds.push(Opnd::Temp(t)),
                        StackPointer::Slot(_) if is_def && sp_defined.is_some() => {
                            if let Some(d) = sp_defined {
                                opnds.push(Opnd::Temp(d));
                            }
                        }
                        StackPointer::Slot(lane) => {
                            let dwords = f.stack_pointer.map_or(1, |t| f.info(t).dwords);
                            let r = new_temp(
                                f,
                                TempInfo {
                                    file: RegFile::Sgpr,
                                    dwords,
                                    align: dwords,
                                    no_spill: true,
                                },
                                dwords,
                            );
                            let r = f.whole(r);
                            sp_reload = Some(MInst::pseudo(
                                Pseudo::Reload,
                                [
                                    Opnd::Temp(r),
                                    Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(lane)))),
                                ],
                                inst.origin,
                            ));
                            opnds.push(Opnd::Temp(r));
                        }
                    }
                }
                let p = if is_def {
                    Pseudo::Spill
                } else {
                    Pseudo::Reload
                };
                let mut transfer = MInst::pseudo(p, opnds, inst.origin);
                transfer.cost = crate::mir::AbiCost::Spill;
                if is_def {
                    after.extend(sp_reload);
                    after.push(transfer);
                } else if inst.is_phi() {
                    let logical = inst.is(Pseudo::Phi);
                    let block = &f.blocks[b];
                    let preds = if logical {
                        &block.logical_preds
                    } else {
                        &block.linear_preds
                    };
                    // Each goes after the ones pushed earlier (at the end of the block's
                    // part): the stack pointer's reload first, then the transfer.
                    let pred = preds[i - 1].index();
                    if let Some(r) = sp_reload {
                        at_end.push((pred, logical, r));
                    }
                    at_end.push((pred, logical, transfer));
                } else {
                    reloaded.push((s, fresh_slice));
                    out.extend(sp_reload);
                    out.push(transfer);
                }
            }
            out.push(inst);
            if is_phi {
                after_phis.extend(after);
            } else {
                out.extend(after);
            }
            if starts_logical {
                out.append(&mut after_phis);
            }
        }
        out.append(&mut after_phis);
        f.blocks[b].insts = out;
    }
    for (b, logical, reload) in at_end {
        let insts = &mut f.blocks[b].insts;
        let end = insts.len() - insts.iter().rev().take_while(|i| i.is_terminator()).count();
        let at = if logical {
            insts
                .iter()
                .position(|i| i.is(Pseudo::LogicalEnd))
                .unwrap_or(end)
        } else {
            end
        };
        insts.insert(at, reload);
    }
    share_stack_pointer_reloads(f);
    Ok(())
}

/// Drops each reload of a spilled stack pointer that follows another one in the same run
/// of spill transfers (`p_spill`/`p_reload` with nothing else between), and reads the first
/// one instead. Every VGPR transfer of a called function needs the stack pointer, and
/// spilling adds a reload of it per transfer (and victims of later allocation rounds add
/// theirs beside the ones already there): without this, a call's spilled arguments cost
/// two reloads each. The stack pointer is written once (by the entry copy), so every
/// reload of its slot yields the same value; a run is a few instructions long, so the
/// shared reload's short life does not crowd the SGPRs.
fn share_stack_pointer_reloads(f: &mut Function) {
    let (Some(lane), Some(sp)) = (f.stack_pointer_slot, f.stack_pointer) else {
        return;
    };
    let dwords = f.info(sp).dwords;
    let whole_sp = |f: &Function, inst: &MInst| -> Option<Slice> {
        if !inst.is(Pseudo::Reload) || inst.opnds.len() != 2 {
            return None;
        }
        let (Opnd::Temp(d), Opnd::Fixed(Operand::Imm(Imm::Int(at)))) =
            (&inst.opnds[0], &inst.opnds[1])
        else {
            return None;
        };
        (f.info(d.temp).file == RegFile::Sgpr
            && *at == i64::from(lane)
            && d.offset == 0
            && d.dwords == dwords)
            .then_some(*d)
    };
    let mut renamed: Vec<Option<Slice>> = vec![None; f.temps.len()];
    let mut any = false;
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        let mut kept: Option<Slice> = None;
        for inst in old {
            if !(inst.is(Pseudo::Spill) || inst.is(Pseudo::Reload)) {
                kept = None;
                out.push(inst);
                continue;
            }
            match (whole_sp(f, &inst), kept) {
                (Some(d), Some(k)) => {
                    renamed[d.temp.index()] = Some(k);
                    any = true;
                }
                (Some(d), None) => {
                    kept = Some(d);
                    out.push(inst);
                }
                (None, _) => out.push(inst),
            }
        }
        f.blocks[b].insts = out;
    }
    if !any {
        return;
    }
    for inst in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        for o in inst.opnds.iter_mut() {
            if let Opnd::Temp(s) = o {
                if let Some(k) = renamed[s.temp.index()] {
                    *o = Opnd::Temp(Slice {
                        temp: k.temp,
                        offset: s.offset,
                        dwords: s.dwords,
                    });
                }
            }
        }
    }
}

/// Where a VGPR transfer finds the stack pointer.
#[derive(Clone, Copy)]
enum StackPointer {
    /// A kernel: the frame starts at 0.
    None,
    /// In this temp.
    Temp(Slice),
    /// Spilled to this SGPR slot.
    Slot(u32),
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
