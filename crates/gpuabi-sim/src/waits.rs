//! Outstanding memory operations and `s_waitcnt`: the check that a register a memory load
//! still writes is neither read nor overwritten before a wait guarantees the load done.
//!
//! The simulator completes every access at once, so a program that reads a load's
//! destination too early computes the right value here and garbage on hardware. The
//! hardware counts outstanding operations per counter and `s_waitcnt` waits until a count
//! is at most its operand ("Data Dependency Resolution" in AMD's "AMD GCN3 Instruction Set
//! Architecture" and in the "RDNA3 Instruction Set Architecture" guide, `S_WAITCNT`);
//! which instruction counts where is [`gpuabi_amdgpu::wait_events`].
//!
//! An operation is known complete after `s_waitcnt` with count N on a counter when it
//! returns in order and at least N younger operations of its kind on that counter are
//! outstanding (they complete after it, and at most N remain), or, for kinds that return
//! in any order (scalar memory), when N is 0; a flat access, when it is complete on
//! `vmcnt` (see [`Scoreboard::after`]). This is the model of LLVM's `SIInsertWaitcnts.cpp`
//! (`WaitcntBrackets`: in-order scores per counter, SMEM forcing a count of 0) and of Mesa's `aco_insert_waitcnt.cpp` (`update_counters`, which ages
//! only entries of the same in-order event). A load may overwrite the destination of an
//! older outstanding load of the same in-order kind on every counter the older one still
//! counts in (vector loads write their VGPRs in issue order, LDS reads theirs: the
//! exception in `check_instr` of `aco_insert_waitcnt.cpp`).
//!
//! Registers are tracked whole, not per lane, as both compilers track them.

use gpuabi_amdgpu::wait_events::{self, Counter, Event, Events};
use gpuabi_amdgpu::{Effects, Opcode, Target, Waitcnt, WaveSize};
use gpuabi_layout::reg::Reg;

use crate::image::{Decoded, Dst, Src};
use crate::undef::src_dwords;
use crate::wave::{Wave, EXEC, M0, SCALARS, VCC, VGPRS};

/// One outstanding memory operation that writes registers (operations that write none
/// are only counted, in the [`Pending::younger`] of older ones).
#[derive(Debug, Clone)]
struct Pending {
    /// Per counter (indexed by [`Counter`]): its kind there, while not known complete.
    parts: Events,
    /// Per counter: operations of the same ordered kind issued after it.
    younger: [u16; 4],
    /// The registers it writes: scalar (hardware numbering) or vector, first and count.
    regs: (bool, u16, u16),
    /// Index of the instruction in the image.
    index: u32,
}

/// A register read or overwritten while an outstanding load writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hazard {
    /// The register (`v3`, `s7`).
    pub register: String,
    /// Whether the instruction writes it (else reads it).
    pub write: bool,
    /// Index in the image of the load.
    pub load: u32,
}

/// The outstanding memory operations of one wave.
#[derive(Debug, Clone)]
pub struct Scoreboard {
    pending: Vec<Pending>,
    /// Per scalar register, the outstanding operations writing it.
    sgpr: [u16; SCALARS],
    /// Per VGPR, the outstanding operations writing it.
    vgpr: Vec<u16>,
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard {
            pending: Vec::new(),
            sgpr: [0; SCALARS],
            vgpr: vec![0; VGPRS],
        }
    }
}

/// A `s_waitcnt` operand as the decoded program holds it: a constant with `vmcnt` in bits
/// 0-7, `expcnt` in 8-15 and `lgkmcnt` in 16-23, 0xff where the wait names no count.
pub fn pack(w: &Waitcnt) -> u64 {
    let f = |c: Option<u8>| u64::from(c.unwrap_or(0xff));
    f(w.vmcnt) | f(w.expcnt) << 8 | f(w.lgkmcnt) << 16
}

/// What a wait instruction waits for: the count per counter (`None`: that counter is not
/// waited on) and the kinds it waits for on `lgkmcnt` (`None`: all of them).
///
/// RDNA 4 waits on each counter by itself ("RDNA 4 Instruction Set Architecture",
/// `S_WAIT_LOADCNT` … `S_WAIT_KMCNT`): LOADcnt counts what RDNA 3's `vmcnt` counts (vector
/// memory loads), STOREcnt what `vscnt` counts, and `lgkmcnt` is split into DScnt (LDS
/// accesses) and KMcnt (scalar memory and messages). The machine model keeps RDNA 3's four
/// counters for RDNA 4 ([`gpuabi_amdgpu::wait_events`]); a wait on DScnt or KMcnt is a
/// wait on `lgkmcnt` for those kinds alone. `s_wait_loadcnt_dscnt` and
/// `s_wait_storecnt_dscnt` hold the LOADcnt or STOREcnt count in bits 13:8 and the DScnt
/// count in bits 5:0 (LLVM's `encodeLoadcntDscnt` in `AMDGPUBaseInfo.cpp`). SAMPLEcnt and
/// BVHcnt count image instructions. The model's only RDNA 4 ones, the BVH tests, run only
/// in `sim check-function`, which answers them at once ([`crate::UnmodelledAnswers`]) with
/// nothing left for a wait to wait for.
type Wait = ([Option<u32>; 4], Option<&'static [Event]>);

/// The kinds RDNA 4's DScnt counts.
const DS_KINDS: &[Event] = &[Event::Lds, Event::Flat];
/// The kinds RDNA 4's KMcnt counts.
const KM_KINDS: &[Event] = &[Event::Smem, Event::Message];

/// The wait `d` makes ([`Wait`]), or `None` when it is not a wait.
fn wait_of(d: &Decoded, w: &Wave) -> Option<Wait> {
    let explicit = |c: Counter| {
        let mut out = [None; 4];
        let n = w.s32(d.src[0]).saturating_add(w.s32(d.src[1]) & 0xffff);
        out[c as usize] = Some(n);
        Some((out, None))
    };
    let imm = || d.src.first().map_or(0, |s| w.s32(*s) & 0xffff);
    let one = |c: Counter, kinds: Option<&'static [Event]>| {
        let mut out = [None; 4];
        out[c as usize] = Some(imm());
        Some((out, kinds))
    };
    let with_ds = |c: Counter| {
        let mut out = [None; 4];
        out[c as usize] = Some(imm() >> 8 & 0x3f);
        out[Counter::Lgkm as usize] = Some(imm() & 0x3f);
        Some((out, Some(DS_KINDS)))
    };
    match d.op {
        Opcode::SWaitLoadcnt => one(Counter::Vm, None),
        Opcode::SWaitStorecnt => one(Counter::Vs, None),
        Opcode::SWaitExpcnt => one(Counter::Exp, None),
        Opcode::SWaitDscnt => one(Counter::Lgkm, Some(DS_KINDS)),
        Opcode::SWaitKmcnt => one(Counter::Lgkm, Some(KM_KINDS)),
        Opcode::SWaitLoadcntDscnt => with_ds(Counter::Vm),
        Opcode::SWaitStorecntDscnt => with_ds(Counter::Vs),
        Opcode::SWaitIdle => Some(([Some(0); 4], None)),
        Opcode::SWaitcnt => {
            let Src::Const(v) = d.src[0] else {
                return None;
            };
            let f = |shift: u32| match (v >> shift) as u8 {
                0xff => None,
                n => Some(u32::from(n)),
            };
            Some(([f(0), f(16), f(8), None], None))
        }
        Opcode::SWaitcntVscnt => explicit(Counter::Vs),
        Opcode::SWaitcntVmcnt => explicit(Counter::Vm),
        Opcode::SWaitcntLgkmcnt => explicit(Counter::Lgkm),
        Opcode::SWaitcntExpcnt => explicit(Counter::Exp),
        _ => None,
    }
}

/// Every register range `d` reads (`false`) or writes (`true`): scalar flag, first, count.
fn accesses(d: &Decoded, wave: WaveSize, out: &mut Vec<(bool, bool, u16, u16)>) {
    let info = d.op.info();
    let global_saddr = info
        .srcs
        .contains(&gpuabi_amdgpu::opcodes::Kind::GlobalSAddr)
        && d.src.iter().any(|s| matches!(s, Src::Sgpr(_)));
    for (kind, src) in info.srcs.iter().zip(d.src.iter()) {
        let n = src_dwords(*kind, wave, global_saddr);
        match *src {
            Src::Sgpr(r) => out.push((false, true, r, n)),
            Src::Vgpr(r) => out.push((false, false, r, n)),
            _ => {}
        }
    }
    for (kind, dst) in info.dsts.iter().zip(d.dst.iter()) {
        let n = src_dwords(*kind, wave, false);
        match *dst {
            Dst::Sgpr(r) => out.push((true, true, r, n)),
            Dst::Vgpr(r) => out.push((true, false, r, n)),
            _ => {}
        }
    }
    let mask = u16::from(wave.mask_dwords());
    for (effect, write, first, count) in [
        (Effects::READ_VCC, false, VCC, mask),
        (Effects::WRITE_VCC, true, VCC, mask),
        (Effects::READ_EXEC, false, EXEC, mask),
        (Effects::WRITE_EXEC, true, EXEC, mask),
        (Effects::READ_M0, false, M0, 1),
        (Effects::WRITE_M0, true, M0, 1),
    ] {
        if info.effects.contains(effect) {
            out.push((write, true, first as u16, count));
        }
    }
    if let Some(y) = &d.dual {
        accesses(y, wave, out);
    }
}

fn name(scalar: bool, r: u16) -> String {
    match (scalar, r) {
        (false, _) => Reg::vgpr(r).to_string(),
        (true, 106) => "vcc_lo".into(),
        (true, 107) => "vcc_hi".into(),
        (true, 124) => "m0".into(),
        (true, 126) => "exec_lo".into(),
        (true, 127) => "exec_hi".into(),
        (true, _) => Reg::sgpr(r).to_string(),
    }
}

impl Scoreboard {
    /// Forgets every outstanding operation (a new wave).
    pub fn clear(&mut self) {
        self.pending.clear();
        self.sgpr = [0; SCALARS];
        self.vgpr.fill(0);
    }

    fn count(&mut self, scalar: bool, r: u16) -> Option<&mut u16> {
        if scalar {
            self.sgpr.get_mut(r as usize)
        } else {
            self.vgpr.get_mut(r as usize)
        }
    }

    /// Before `d` executes: applies it if it is a wait, else checks the registers it reads
    /// and writes against the outstanding loads (`scratch` is a buffer reused between
    /// calls).
    pub fn before(
        d: &Decoded,
        w: &mut Wave,
        target: Target,
        scratch: &mut Vec<(bool, bool, u16, u16)>,
    ) -> Result<(), Hazard> {
        if w.waits.pending.is_empty() {
            return Ok(());
        }
        if let Some((counts, kinds)) = wait_of(d, w) {
            w.waits.wait(counts, kinds);
            return Ok(());
        }
        scratch.clear();
        accesses(d, w.size, scratch);
        let this = &mut w.waits;
        let new = wait_events::events(d.op, d.mods.glc, target);
        for &(write, scalar, first, n) in scratch.iter() {
            for r in first..first + n {
                if this.count(scalar, r).is_none_or(|c| *c == 0) {
                    continue;
                }
                let blocking = this.pending.iter().find(|p| {
                    let (s, f, k) = p.regs;
                    s == scalar
                        && (f..f + k).contains(&r)
                        && !(write && new.is_some_and(|new| writes_after(&p.parts, &new)))
                });
                if let Some(p) = blocking {
                    return Err(Hazard {
                        register: name(scalar, r),
                        write,
                        load: p.index,
                    });
                }
            }
        }
        Ok(())
    }

    /// After `d` (instruction `index`) issued: records it if it is a memory operation.
    pub fn after(&mut self, d: &Decoded, index: u32, wave: WaveSize, target: Target) {
        let Some(mut parts) = wait_events::events(d.op, d.mods.glc, target) else {
            return;
        };
        // A flat access reaches the LDS or global memory; the simulator's flat accesses
        // reach global memory only, whose data returns on `vmcnt`, so the register waits
        // for that counter alone (as for a flat access LLVM's `mayAccessLDSThroughFlat`
        // and ACO's `may_use_lds` rule out the LDS for).
        for p in &mut parts {
            if *p == Some(Event::Flat) {
                *p = None;
            }
        }
        for p in &mut self.pending {
            for (c, k) in parts.iter().enumerate() {
                if k.is_some_and(Event::ordered) && p.parts[c] == *k {
                    p.younger[c] = p.younger[c].saturating_add(1);
                }
            }
        }
        let info = d.op.info();
        let (Some(kind), Some(dst)) = (info.dsts_with(d.mods.glc).first(), d.dst.first()) else {
            return;
        };
        let n = src_dwords(*kind, wave, false);
        let regs = match *dst {
            Dst::Sgpr(r) => (true, r, n),
            Dst::Vgpr(r) => (false, r, n),
            _ => return,
        };
        if parts.iter().all(Option::is_none) {
            return;
        }
        let (scalar, first, n) = regs;
        for r in first..first + n {
            if let Some(c) = self.count(scalar, r) {
                *c += 1;
            }
        }
        self.pending.push(Pending {
            parts,
            younger: [0; 4],
            regs,
            index,
        });
    }

    /// `s_waitcnt`: marks the operations the counts guarantee complete and forgets those
    /// complete on every counter; on `lgkmcnt` only those of `lgkm_kinds` when given.
    fn wait(&mut self, counts: [Option<u32>; 4], lgkm_kinds: Option<&[Event]>) {
        for (c, n) in counts.iter().enumerate() {
            let Some(n) = *n else { continue };
            for p in &mut self.pending {
                let Some(kind) = p.parts[c] else { continue };
                if c == Counter::Lgkm as usize && lgkm_kinds.is_some_and(|k| !k.contains(&kind)) {
                    continue;
                }
                // At most n remain: if this one did, so would the younger ones of its
                // ordered kind, which complete after it.
                let done = if kind.ordered() {
                    u32::from(p.younger[c]) >= n
                } else {
                    n == 0
                };
                if done {
                    p.parts[c] = None;
                }
            }
        }
        let (sgpr, vgpr) = (&mut self.sgpr, &mut self.vgpr);
        self.pending.retain(|p| {
            let outstanding = p.parts.iter().any(Option::is_some);
            if !outstanding {
                let (scalar, first, n) = p.regs;
                for r in first..first + n {
                    let c = if scalar {
                        sgpr.get_mut(r as usize)
                    } else {
                        vgpr.get_mut(r as usize)
                    };
                    if let Some(c) = c {
                        *c -= 1;
                    }
                }
            }
            outstanding
        });
    }
}

/// Whether a new memory operation with `new` parts may overwrite the registers of an older
/// outstanding one with `old` parts: on every counter the old one still counts in, the new
/// one counts as the same ordered kind, so it writes after the old one.
fn writes_after(old: &Events, new: &Events) -> bool {
    old.iter().zip(new.iter()).all(|(o, n)| match (o, n) {
        (None, _) => true,
        (Some(o), Some(n)) => o == n && o.ordered(),
        (Some(_), None) => false,
    })
}
