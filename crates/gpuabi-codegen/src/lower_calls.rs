//! After register allocation: the frame becomes final and the call ABI's
//! pseudo-instructions become machine code, as ACO's `aco_spill_preserved.cpp` and the
//! `p_call`/`p_return` cases of `aco_lower_to_hw_instr.cpp` do.
//!
//! The frame of a function, per lane, from its stack pointer (a kernel's from 0):
//!
//! ```text
//! | stack arrays | VGPR spill slots | linear VGPR saves | preserved VGPR saves |
//! ```
//!
//! and a call's scratch parameters follow it (spec: the callee's stack pointer is the
//! caller's plus the frame and the parameter area).
//!
//! * `p_call` becomes `s_add_u32 SP, SP, bump; s_swappc_b64 RA, UPC; s_sub_u32 SP, SP,
//!   bump` in the callee's registers. The VGPRs that hold spilled SGPRs (ACO's linear
//!   VGPRs) are whole-wave values: when the callee's ABI does not preserve them they are
//!   stored for every lane before the call and loaded after it (`s_or_saveexec -1`
//!   around the accesses; the project saves all lanes where Mesa's current code saves the
//!   active ones).
//! * A called function saves, right at its entry, every register its ABI preserves and
//!   it writes (its own allocation, the parameter registers of its calls, and whatever
//!   its callees may clobber): VGPRs to the frame for every lane, SGPRs into lanes of the
//!   VGPRs reserved for spilled SGPRs. `p_return_to_caller` restores them and jumps
//!   (`s_setpc_b64`). Restoring at the return rather than at the post-dominator of the
//!   writes (as ACO may) is the project's simplification: the code between is never
//!   re-entered.
//! * The exec backup at a function's entry and return is the first aligned run of SGPRs
//!   below the limit that its ABI does not preserve and no parameter uses (ACO's rule), or
//!   VCC when there is none (see `exec_backup`); at a call it is the callee's
//!   return-address registers, free until `s_swappc_b64`
//!   writes them (the project's choice: they always exist, where a wide signature can
//!   leave no other SGPR free).
//! * `p_store_arg`/`p_load_arg` become scratch accesses at their final offsets.

use crate::error::{CodegenError, Fault, PassError};
use crate::pipeline::Context;
use gpuabi_amdgpu::{Imm, MemMods, Opcode, Operand, Special, Target, WaveSize};
use gpuabi_layout::aco::{Demand, Location};
use gpuabi_layout::reg::{Reg, RegFile, RegRange, RegSet};

use crate::call_abi::Convention;
use crate::isel::call::{AREA_INCOMING, AREA_OUTGOING, AREA_PARAMS};
use crate::isel::exec_opnd;
use crate::mir::{AbiCost, Function, MInst, MOp, Opnd, Origin, Pseudo};
use crate::scratch::{self, Base};

/// The start of the error for a call whose parameter registers include a VGPR that holds
/// spilled SGPRs: the budget is too tight for the call's signature.
pub const SPILL_VGPR_IS_PARAMETER: &str = "no VGPR for spilled SGPRs at a call";

/// Why the calls of a function could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallLoweringError {
    /// The register allocator reserved fewer spill VGPRs than the saved SGPRs need: a
    /// compiler bug.
    #[error("{saved} SGPRs to save need {need} VGPRs of lanes, {reserved} were reserved")]
    SaveLanes {
        /// SGPRs the function saves.
        saved: usize,
        /// VGPRs their lanes need.
        need: u32,
        /// VGPRs reserved.
        reserved: u16,
    },
    /// The frame is beyond the scratch instructions' offsets.
    #[error(
        "the frame of {end} bytes per lane (and {outgoing} bytes of outgoing, {incoming} of \
         incoming scratch parameters) is beyond the scratch instructions' offsets"
    )]
    FrameBeyondOffsets {
        /// The end of the frame.
        end: u32,
        /// The largest outgoing scratch parameter area.
        outgoing: u32,
        /// The function's own incoming scratch parameter area.
        incoming: u32,
    },
    /// A `p_return_to_caller` in a function that is not called under a convention.
    #[error("BB{block}: a return to the caller in a kernel")]
    ReturnInKernel {
        /// The block.
        block: usize,
    },
    /// A VGPR holding spilled SGPRs is a parameter register of a call.
    #[error(
        "{SPILL_VGPR_IS_PARAMETER}: v{vgpr} holds spilled SGPRs but is a parameter register \
         of the call to `{callee}` under ABI `{abi}` (Mesa leaves the top registers to \
         clobbered parameters); raise --max-vgprs"
    )]
    SpillVgprIsParameter {
        /// The VGPR.
        vgpr: u16,
        /// The callee.
        callee: String,
        /// Its ABI.
        abi: String,
    },
}

/// The most consecutive VGPRs one save or restore with `scratch_*` moves (`*_dwordx4`).
const WIDEST_SAVE: usize = 4;

/// The registers a called function saves at entry and restores at return.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Saved {
    /// SGPRs, into lanes of the spill VGPRs.
    pub sgprs: Vec<u16>,
    /// VGPRs, to the frame.
    pub vgprs: Vec<u16>,
}

/// The final layout of a function's frame, in bytes per lane.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Frame {
    /// Where the linear VGPRs are stored around calls.
    pub linear_save: u32,
    /// Where the preserved VGPRs are saved.
    pub callee_save: u32,
    /// The end of the frame: a call's parameter area starts here.
    pub end: u32,
}

fn range_of(f: &Function, regs: &[Option<u16>], o: &Opnd, vlimit: u16) -> Option<RegRange> {
    match o {
        Opnd::Temp(s) => {
            let info = f.info(s.temp);
            let first = regs[s.temp.index()]? + u16::from(s.offset);
            Some(RegRange::new(info.file, first, u16::from(s.dwords)))
        }
        Opnd::Fixed(Operand::Reg(r)) => Some(*r),
        Opnd::SpillVgpr(k) => Some(RegRange::new(RegFile::Vgpr, vlimit - 1 - k, 1)),
        _ => None,
    }
}

fn param_regs(conv: &Convention) -> Vec<RegRange> {
    conv.assignment
        .params
        .iter()
        .filter_map(|p| match p.location {
            Location::Reg(r) => Some(r),
            Location::Scratch { .. } => None,
        })
        .collect()
}

fn call_index(inst: &MInst) -> usize {
    match inst.opnds.first() {
        Some(Opnd::Fixed(Operand::Imm(Imm::Int(k)))) => *k as usize,
        _ => unreachable!("p_call names its call"),
    }
}

/// The preserved registers of its own ABI a called function writes (none for a kernel).
/// Before SSA elimination a phi counts as a write of its destination, so the count is an
/// upper bound of the final one.
pub fn saved_registers(
    f: &Function,
    regs: &[Option<u16>],
    limit: Demand,
    spill_vgprs: u16,
) -> Saved {
    let Some(callee) = &f.callee else {
        return Saved::default();
    };
    let mut written = RegSet::new();
    let mut mark = |r: RegRange| written.insert_range(r);
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        match inst.op {
            MOp::Pseudo(Pseudo::ParallelCopy) => {
                for pair in inst.opnds.chunks(2) {
                    let d = range_of(f, regs, &pair[0], limit.vgpr);
                    let s = pair.get(1).and_then(|o| range_of(f, regs, o, limit.vgpr));
                    if let Some(d) = d.filter(|d| Some(*d) != s) {
                        mark(d);
                    }
                }
            }
            MOp::Pseudo(Pseudo::Call) => {
                let conv = &f.calls[call_index(inst)].conv;
                for (file, l) in [(RegFile::Sgpr, limit.sgpr), (RegFile::Vgpr, limit.vgpr)] {
                    for num in 0..l {
                        let reg = Reg { file, num };
                        if !conv.preserved.contains(reg) {
                            mark(RegRange::new(file, num, 1));
                        }
                    }
                }
                mark(conv.reg("return_address"));
                mark(conv.reg("stack_pointer"));
            }
            MOp::Pseudo(_) => {
                for o in inst.opnds.iter().take(inst.num_defs()) {
                    if let Some(r) = range_of(f, regs, o, limit.vgpr) {
                        mark(r);
                    }
                }
            }
            MOp::Hw(op) | MOp::DualY(op) => {
                for o in inst.opnds.iter().take(op.info().dsts.len()) {
                    if let Some(r) = range_of(f, regs, o, limit.vgpr) {
                        mark(r);
                    }
                }
            }
        }
    }
    for k in 0..spill_vgprs {
        mark(RegRange::new(RegFile::Vgpr, limit.vgpr - 1 - k, 1));
    }
    let pick = |file: RegFile, l: u16| -> Vec<u16> {
        (0..l)
            .filter(|&num| {
                let reg = Reg { file, num };
                written.contains(reg) && callee.conv.preserved.contains(reg)
            })
            .collect()
    };
    Saved {
        sgprs: pick(RegFile::Sgpr, limit.sgpr),
        vgprs: pick(RegFile::Vgpr, limit.vgpr),
    }
}

/// The exec backup of a function's entry and return: the first aligned run of lane-mask
/// size of SGPRs the target can name that `preserved` (the ABI's preserved registers below
/// the limit) does not hold and `busy` (the parameter registers) does not use (ACO's rule).
/// It lies below the limit unless the ABI preserves every SGPR there; registers at or above
/// the limit are clobbered by every ABI and hold no value of the function.
///
/// When a wide signature leaves no such run, the backup is VCC: the project's choice, since
/// VCC is clobbered by every ABI, is never a parameter (a parameter the target cannot name
/// as an SGPR is refused by [`crate::call_abi`]) and holds no value at a function's first
/// and last instruction.
fn exec_backup(target: Target, preserved: &RegSet, busy: &[RegRange], wave: WaveSize) -> Operand {
    let n = u16::from(wave.mask_dwords());
    (0..target.addressable_sgprs().saturating_sub(n - 1))
        .step_by(usize::from(n))
        .map(|p| RegRange::new(RegFile::Sgpr, p, n))
        .find(|r| {
            r.regs().all(|x| !preserved.contains(x))
                && !busy
                    .iter()
                    .any(|b| b.file() == RegFile::Sgpr && b.overlaps(r))
        })
        .map_or(
            Operand::Special(match wave {
                WaveSize::W32 => Special::VccLo,
                WaveSize::W64 => Special::Vcc,
            }),
            Operand::Reg,
        )
}

struct Ctx {
    target: Target,
    wave: WaveSize,
    origin: Origin,
    cost: AbiCost,
}

impl Ctx {
    fn hw<const N: usize>(&self, op: Opcode, opnds: [Opnd; N]) -> MInst {
        MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            cost: self.cost,
            origin: self.origin,
        }
    }

    fn exec(&self) -> Opnd {
        exec_opnd(self.wave)
    }

    /// Moves the stack pointer `sp` up (`up`) or back down by `bytes` per lane: a byte
    /// offset directly; a scratch resource (GCN 1.2) in its 48-bit base, by the bytes of
    /// every lane of the wave, with the carry into the base's high bits.
    fn bump(&self, up: bool, sp: RegRange, bytes: u32, out: &mut Vec<MInst>) {
        if bytes == 0 {
            return;
        }
        let (lo, hi) = if up {
            (Opcode::SAddU32, Opcode::SAddcU32)
        } else {
            (Opcode::SSubU32, Opcode::SSubbU32)
        };
        if scratch::is_resource(sp.count as u8) {
            let dword = |k: u16| reg(RegRange::new(RegFile::Sgpr, sp.first.num + k, 1));
            out.push(self.hw(lo, [dword(0), dword(0), imm(bytes * self.wave.lanes())]));
            out.push(self.hw(hi, [dword(1), dword(1), imm(0)]));
        } else {
            out.push(self.hw(lo, [reg(sp), reg(sp), imm(bytes)]));
        }
    }

    /// Stores (or loads) `vgprs` for every lane at `offset + 4 k` from `sp`. With
    /// `scratch_*` (a stack pointer that is a byte offset), runs of 4 or 2 consecutive
    /// registers whose slots are as aligned as their size move in one access, as LLVM's
    /// flat-scratch spills of register tuples do; the swizzled private segment buffer of
    /// GCN 1.2 (element size 4) takes one dword per access.
    fn whole_wave(
        &self,
        store: bool,
        vgprs: &[u16],
        sp: Option<RegRange>,
        offset: u32,
        bak: Operand,
        out: &mut Vec<MInst>,
    ) {
        if vgprs.is_empty() {
            return;
        }
        let (save, mov) = match self.wave {
            WaveSize::W32 => (Opcode::SOrSaveexecB32, Opcode::SMovB32),
            WaveSize::W64 => (Opcode::SOrSaveexecB64, Opcode::SMovB64),
        };
        out.push(self.hw(
            save,
            [
                Opnd::Fixed(bak.clone()),
                Opnd::Fixed(Operand::Imm(Imm::Int(-1))),
            ],
        ));
        let wide = !sp.is_some_and(|r| scratch::is_resource(r.count as u8));
        let mut k = 0;
        while k < vgprs.len() {
            let at = offset + 4 * k as u32;
            let run = |n: usize| {
                wide && k + n <= vgprs.len()
                    && at.is_multiple_of(4 * n as u32)
                    && vgprs[k..k + n]
                        .iter()
                        .zip(vgprs[k]..)
                        .all(|(&v, want)| v == want)
            };
            let n = [WIDEST_SAVE, 2].into_iter().find(|&n| run(n)).unwrap_or(1);
            let mut a = scratch::access_regs(
                self.target,
                store,
                RegRange::new(RegFile::Vgpr, vgprs[k], n as u16),
                sp,
                at as i32,
                self.origin,
            );
            a.cost = self.cost;
            out.push(a);
            k += n;
        }
        out.push(self.hw(mov, [self.exec(), Opnd::Fixed(bak)]));
    }
}

fn imm(v: u32) -> Opnd {
    Opnd::Fixed(Operand::Imm(Imm::Int(i64::from(v))))
}

fn reg(r: RegRange) -> Opnd {
    Opnd::Fixed(Operand::Reg(r))
}

/// What [`lower`] needs besides the function.
pub struct Inputs<'a> {
    /// First register of every temp.
    pub regs: &'a [Option<u16>],
    /// Target.
    pub target: Target,
    /// Wave size.
    pub wave: WaveSize,
    /// The register limit.
    pub limit: Demand,
    /// Bytes of VGPR spill slots.
    pub vgpr_spill_bytes: u32,
    /// SGPR dwords spilled to VGPR lanes (the saved SGPRs take the lanes after them).
    pub sgpr_spill_dwords: u32,
    /// VGPRs reserved for spilled SGPRs, at the top of the limit.
    pub spill_vgprs: u16,
}

/// Lays out the frame and lowers the call pseudo-instructions of `f`.
/// Also returns the call sites in the order their `s_swappc_b64` are laid out.
pub fn lower(
    f: &mut Function,
    inp: &Inputs<'_>,
) -> Result<(Frame, Saved, Vec<usize>), CallLoweringError> {
    let saved = saved_registers(f, inp.regs, inp.limit, inp.spill_vgprs);
    let lanes = inp.wave.lanes();
    let need = (inp.sgpr_spill_dwords + saved.sgprs.len() as u32).div_ceil(lanes);
    if need > u32::from(inp.spill_vgprs) {
        return Err(CallLoweringError::SaveLanes {
            saved: saved.sgprs.len(),
            need,
            reserved: inp.spill_vgprs,
        });
    }
    let own = f.callee.as_ref().map(|c| c.conv.clone());
    let own_sp = own.as_ref().map(|c| c.reg("stack_pointer"));
    let spill_end = f.stack_bytes.next_multiple_of(8) + inp.vgpr_spill_bytes;
    let linear: Vec<u16> = (0..inp.spill_vgprs)
        .map(|k| inp.limit.vgpr - 1 - k)
        .collect();
    let linear_save = spill_end;
    let callee_save = linear_save
        + if f.calls.is_empty() {
            0
        } else {
            4 * linear.len() as u32
        };
    // With `scratch_*` the preserved VGPRs' saves start aligned to the widest access, so that runs of
    // consecutive registers move four at a time (see `Ctx::whole_wave`).
    let wide = own_sp.is_some_and(|r| !scratch::is_resource(r.count as u8));
    let callee_save = if wide {
        callee_save.next_multiple_of(4 * WIDEST_SAVE as u32)
    } else {
        callee_save
    };
    let end = callee_save + 4 * saved.vgprs.len() as u32;
    let frame = Frame {
        linear_save,
        callee_save,
        end,
    };
    let max = scratch::max_offset(inp.target) as u32;
    let own_params = f
        .callee
        .as_ref()
        .map_or(0, |c| c.conv.assignment.scratch_param_size);
    let largest_out = f
        .calls
        .iter()
        .map(|c| c.conv.assignment.scratch_param_size)
        .max()
        .unwrap_or(0);
    if end + largest_out > max + 1 || own_params > 2048 {
        return Err(CallLoweringError::FrameBeyondOffsets {
            end,
            outgoing: largest_out,
            incoming: own_params,
        });
    }
    let calls = f.calls.clone();
    let mut order = Vec::new();
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        for inst in old {
            let cx = Ctx {
                target: inp.target,
                wave: inp.wave,
                origin: inst.origin,
                cost: if inst.is(Pseudo::ReturnToCaller) {
                    AbiCost::CalleeSave
                } else {
                    AbiCost::Linkage
                },
            };
            match inst.op {
                MOp::Pseudo(Pseudo::Call) => {
                    order.push(call_index(&inst));
                    let conv = &calls[call_index(&inst)].conv;
                    let sp = conv.reg("stack_pointer");
                    let busy = param_regs(conv);
                    for v in &linear {
                        if busy
                            .iter()
                            .any(|r| r.overlaps(&RegRange::new(RegFile::Vgpr, *v, 1)))
                        {
                            return Err(CallLoweringError::SpillVgprIsParameter {
                                vgpr: *v,
                                callee: calls[call_index(&inst)].callee.clone(),
                                abi: conv.abi.name.clone(),
                            });
                        }
                    }
                    // The return-address registers are free until `s_swappc_b64` writes
                    // them, and no longer needed after the return: they back exec up.
                    let ra = conv.reg("return_address");
                    let bak = Operand::Reg(RegRange::new(
                        RegFile::Sgpr,
                        ra.first.num,
                        u16::from(inp.wave.mask_dwords()),
                    ));
                    let clobbered: Vec<u16> = linear
                        .iter()
                        .copied()
                        .filter(|&v| {
                            !conv.preserved.contains(Reg {
                                file: RegFile::Vgpr,
                                num: v,
                            })
                        })
                        .collect();
                    cx.whole_wave(
                        true,
                        &clobbered,
                        Some(sp),
                        linear_save,
                        bak.clone(),
                        &mut out,
                    );
                    let bump = end + conv.assignment.scratch_param_size;
                    cx.bump(true, sp, bump, &mut out);
                    out.push(cx.hw(
                        Opcode::SSwappcB64,
                        [reg(conv.reg("return_address")), reg(conv.call_target())],
                    ));
                    cx.bump(false, sp, bump, &mut out);
                    cx.whole_wave(false, &clobbered, Some(sp), linear_save, bak, &mut out);
                }
                MOp::Pseudo(p @ (Pseudo::StoreArg | Pseudo::LoadArg)) => {
                    let (Some(Opnd::Temp(data)), Some(off), Some(area)) = (
                        inst.opnds.first().cloned(),
                        inst.opnds.get(1).cloned(),
                        inst.opnds.get(2).cloned(),
                    ) else {
                        unreachable!("scratch parameters name data, offset and area")
                    };
                    let value = |o: Opnd| match o {
                        Opnd::Fixed(Operand::Imm(Imm::Int(v))) => v,
                        _ => unreachable!("constant operand"),
                    };
                    let (off, area) = (value(off), value(area) as u32);
                    let at = match area {
                        AREA_OUTGOING => i64::from(end) + off,
                        AREA_INCOMING => off - i64::from(own_params),
                        AREA_PARAMS => off,
                        _ => unreachable!("three areas"),
                    };
                    let (base, buffer) = match inst.opnds.get(3) {
                        Some(Opnd::Temp(sp)) if scratch::is_resource(sp.dwords) => {
                            (Base::None, Some(scratch::BufferRegs::stack_pointer(*sp)))
                        }
                        Some(Opnd::Temp(sp)) => (Base::Sgpr(*sp), None),
                        _ => (Base::None, None),
                    };
                    let mut a = scratch::access(
                        inp.target,
                        p == Pseudo::StoreArg,
                        data,
                        base,
                        at as i32,
                        buffer,
                        inst.origin,
                    );
                    a.cost = AbiCost::Copy;
                    out.push(a);
                }
                MOp::Pseudo(Pseudo::ReturnToCaller) => {
                    let conv = own
                        .as_ref()
                        .ok_or(CallLoweringError::ReturnInKernel { block: b })?;
                    let Some(Opnd::Fixed(Operand::Reg(target))) = inst.opnds.first().cloned()
                    else {
                        unreachable!("the return names its target")
                    };
                    let bak = exec_backup(inp.target, &conv.preserved, &param_regs(conv), inp.wave);
                    for (i, &s) in saved.sgprs.iter().enumerate() {
                        let k = inp.sgpr_spill_dwords + i as u32;
                        out.push(cx.hw(
                            Opcode::VReadlaneB32,
                            [
                                reg(RegRange::new(RegFile::Sgpr, s, 1)),
                                Opnd::SpillVgpr((k / lanes) as u16),
                                imm(k % lanes),
                            ],
                        ));
                    }
                    cx.whole_wave(false, &saved.vgprs, own_sp, callee_save, bak, &mut out);
                    let mut jump = cx.hw(Opcode::SSetpcB64, [reg(target)]);
                    jump.cost = AbiCost::Linkage;
                    out.push(jump);
                }
                _ => out.push(inst),
            }
        }
        f.blocks[b].insts = out;
    }
    // The saves, before anything the function does.
    if let Some(conv) = &own {
        let cx = Ctx {
            target: inp.target,
            wave: inp.wave,
            origin: Origin::default(),
            cost: AbiCost::CalleeSave,
        };
        let bak = exec_backup(inp.target, &conv.preserved, &param_regs(conv), inp.wave);
        let mut head = Vec::new();
        cx.whole_wave(true, &saved.vgprs, own_sp, callee_save, bak, &mut head);
        for (i, &s) in saved.sgprs.iter().enumerate() {
            let k = inp.sgpr_spill_dwords + i as u32;
            head.push(cx.hw(
                Opcode::VWritelaneB32,
                [
                    Opnd::SpillVgpr((k / lanes) as u16),
                    reg(RegRange::new(RegFile::Sgpr, s, 1)),
                    imm(k % lanes),
                ],
            ));
        }
        f.blocks[0].insts.splice(0..0, head);
    }
    Ok((frame, saved, order))
}

/// The pass: lays out the frame of `f` and lowers its calls, saves and returns; the
/// frame, the saved registers and the calls' order go to the context.
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    let regs = std::mem::take(&mut f.regs);
    let o = &ctx.opts;
    let slots = f.spill_slots.clone();
    let result = lower(
        f,
        &Inputs {
            regs: &regs,
            target: o.target,
            wave: o.wave,
            limit: Demand::new(o.max_sgprs, o.max_vgprs),
            vgpr_spill_bytes: slots.vgpr_bytes,
            sgpr_spill_dwords: slots.sgpr_dwords,
            spill_vgprs: slots.reserved,
        },
    );
    f.regs = regs;
    match result {
        Ok((frame, saved, order)) => {
            ctx.frame = frame;
            ctx.saved = saved;
            ctx.call_order = order;
            Ok(())
        }
        // The budget is too tight for the frame or a call's signature: the user's limit.
        Err(
            e @ (CallLoweringError::FrameBeyondOffsets { .. }
            | CallLoweringError::SpillVgprIsParameter { .. }),
        ) => Err(PassError::input(
            "lower_calls",
            &f.name,
            CodegenError::Registers {
                function: f.name.clone(),
                what: e.to_string(),
            },
        )),
        Err(e) => Err(PassError::new("lower_calls", f, Fault::CallLowering(e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgprs(first: u16, count: u16) -> RegRange {
        RegRange::new(RegFile::Sgpr, first, count)
    }

    #[test]
    fn the_exec_backup_is_the_first_free_clobbered_run_or_vcc() {
        // AHIT_ISEC below a limit of 106: s0-s79 preserved.
        let mut preserved = RegSet::new();
        preserved.insert_range(sgprs(0, 80));
        let params = [sgprs(80, 6)];
        assert_eq!(
            exec_backup(Target::Gfx1100, &preserved, &params, WaveSize::W64),
            Operand::Reg(sgprs(86, 2))
        );
        assert_eq!(
            exec_backup(Target::Gfx1100, &preserved, &params, WaveSize::W32),
            Operand::Reg(sgprs(86, 1))
        );
        // Parameters on every clobbered SGPR the target can name (s80-s105 on RDNA,
        // s80-s101 on GCN 1.2): VCC.
        let all = [sgprs(80, 26)];
        assert_eq!(
            exec_backup(Target::Gfx1100, &preserved, &all, WaveSize::W64),
            Operand::Special(Special::Vcc)
        );
        assert_eq!(
            exec_backup(Target::Gfx1030, &preserved, &all, WaveSize::W32),
            Operand::Special(Special::VccLo)
        );
        let gcn = [sgprs(80, 22)];
        assert_eq!(
            exec_backup(Target::Gfx8, &preserved, &gcn, WaveSize::W64),
            Operand::Special(Special::Vcc)
        );
    }

    /// (opcode, first VGPR, dwords, offset) of each access `whole_wave` emits.
    fn accesses(sp: RegRange, vgprs: &[u16], offset: u32) -> Vec<(Opcode, u16, u16, i32)> {
        let cx = Ctx {
            target: Target::Gfx1100,
            wave: WaveSize::W32,
            origin: Origin::default(),
            cost: AbiCost::CalleeSave,
        };
        let mut out = Vec::new();
        let bak = Operand::Reg(sgprs(100, 1));
        cx.whole_wave(true, vgprs, Some(sp), offset, bak, &mut out);
        out.iter()
            .filter_map(|i| match (i.op, i.opnds.get(1)) {
                (MOp::Hw(op), Some(Opnd::Fixed(Operand::Reg(r)))) if r.file() == RegFile::Vgpr => {
                    Some((op, r.first.num, r.count, i.mods.offset))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn whole_wave_saves_move_aligned_runs_together() {
        use Opcode::*;
        let vgprs = [0, 1, 2, 3, 4, 5, 8];
        // From a 16-byte aligned offset: v[0:3] at 16, v[4:5] at 32, v8 at 40.
        assert_eq!(
            accesses(sgprs(32, 1), &vgprs, 16),
            [
                (ScratchStoreDwordx4, 0, 4, 16),
                (ScratchStoreDwordx2, 4, 2, 32),
                (ScratchStoreDword, 8, 1, 40)
            ]
        );
        // From offset 20 no four-dword slot is 16-byte aligned where a run of four starts.
        assert_eq!(
            accesses(sgprs(32, 1), &vgprs, 20),
            [
                (ScratchStoreDword, 0, 1, 20),
                (ScratchStoreDwordx2, 1, 2, 24),
                (ScratchStoreDwordx2, 3, 2, 32),
                (ScratchStoreDword, 5, 1, 40),
                (ScratchStoreDword, 8, 1, 44)
            ]
        );
    }
}
