//! Register allocation of SSA machine IR: linear scan over the live intervals of one
//! register file (Wimmer and Franz, "Linear Scan Register Allocation on SSA Form", with
//! one interval per temp rather than lifetime holes), rather than ACO's
//! `aco_register_allocation.cpp`, which assigns registers block by block. Phis stay in
//! place: a phi's destination and its sources prefer one another's registers (the copies
//! SSA elimination then makes vanish), and a temp the entry copy fills from a launch
//! register prefers that register. Register tuples are placed at their alignment (SGPR
//! pairs at even numbers, quads at multiples of four; VGPR tuples anywhere), as GCN and
//! RDNA require.
//!
//! When no aligned range is free, the allocator evicts the intervals occupying the range
//! whose owners end last (or spills the new interval if it ends after all of them),
//! never an interval marked `no_spill`. Evicted temps are returned to the caller, which
//! rewrites them to spill slots ([`crate::spill`]) and allocates again: each round only
//! adds short, unspillable reload temps, so rounds end. The pass ([`run`]) repeats this
//! for VGPRs, then SGPRs, until both fit. Before the first round it spills, all at once,
//! the values no register may hold across a call they live across (the callee's ABI
//! preserves none that is free of its parameters): rounds would find them one by one.

use gpuabi_amdgpu::{Imm, Operand};
use gpuabi_layout::reg::{Reg, RegFile};

use crate::liveness::{intervals, liveness};
use smallvec::SmallVec;

use crate::error::{CodegenError, Fault, PassError};
use crate::mir::{Function, Opnd, Pseudo, Temp};
use crate::pipeline::Context;
use crate::{scratch, Entry, Options};
use gpuabi_layout::aco::Demand;

/// The end of the error for a register budget below what the values that cannot be spilled
/// (precoloured parameters, the stack pointer, the entry's registers) need at one point.
pub const UNSPILLABLE: &str = "needed at once by values that cannot be spilled";

/// The first register of every temp of the file, or the temps to spill.
pub enum Outcome {
    /// Every temp of the file has a register (`None` for temps of the other file or never
    /// used).
    Assigned(Vec<Option<u16>>),
    /// These temps must be spilled first.
    Spill(Vec<Temp>),
    /// Some point needs more unspillable registers than the limit allows.
    TooFew(String),
}

/// Allocates the temps of `file` to registers `0..limit`.
pub fn allocate(f: &Function, file: RegFile, limit: u16) -> Outcome {
    let live = liveness(f);
    let iv = intervals(f, &live);
    let mut order: Vec<(u32, u32, Temp)> = iv
        .iter()
        .enumerate()
        .filter_map(|(t, i)| {
            let (a, b) = (*i)?;
            (f.temps[t].file == file).then_some((a, b, Temp(t as u32)))
        })
        .collect();
    order.sort_by_key(|&(a, b, t)| (a, std::cmp::Reverse(b), t));
    // A temp the entry copy fills from a launch register prefers that register, so the
    // copy disappears.
    let mut hint: Vec<Option<u16>> = vec![None; f.temps.len()];
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if inst.is(crate::mir::Pseudo::ParallelCopy) {
            for pair in inst.opnds.chunks(2) {
                if let (
                    crate::mir::Opnd::Temp(d),
                    Some(crate::mir::Opnd::Fixed(gpuabi_amdgpu::Operand::Reg(r))),
                ) = (&pair[0], pair.get(1))
                {
                    if r.file() == file {
                        hint[d.temp.index()] = Some(r.first.num);
                    }
                }
            }
        }
    }
    // A phi's destination and sources: registers shared among them need no copy.
    let mut partners: Vec<SmallVec<[Temp; 2]>> = vec![SmallVec::new(); f.temps.len()];
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if !inst.is_phi() {
            continue;
        }
        let Some(d) = inst.opnds[0].slice() else {
            continue;
        };
        for s in inst.opnds[1..].iter().filter_map(crate::mir::Opnd::slice) {
            if s.temp != d.temp && f.info(s.temp).file == file {
                partners[d.temp.index()].push(s.temp);
                partners[s.temp.index()].push(d.temp);
            }
        }
    }
    let forbidden = call_constraints(f, file, limit, &iv);
    // A called function prefers registers its ABI does not preserve: those it writes
    // cost a save at entry and a restore at return.
    let avoid: Option<Vec<bool>> = f.callee.as_ref().map(|c| {
        (0..limit)
            .map(|r| c.conv.preserved.contains(Reg { file, num: r }))
            .collect()
    });
    let mut owner: Vec<Option<(u32, Temp)>> = vec![None; usize::from(limit)];
    let mut reg: Vec<Option<u16>> = vec![None; f.temps.len()];
    let mut spilled: Vec<Temp> = Vec::new();
    for &(start, end, t) in &order {
        let info = f.info(t);
        let n = u16::from(info.dwords);
        let align = u16::from(info.align.max(1));
        if n > limit {
            return Outcome::TooFew(format!(
                "a value of {n} registers does not fit in {limit} {}s",
                file.name()
            ));
        }
        let free = |r: usize, owner: &[Option<(u32, Temp)>]| match owner[r] {
            None => true,
            Some((e, _)) => e < start,
        };
        let allowed = |p: u16| match &forbidden[t.index()] {
            None => true,
            Some(set) => (p..p + n).all(|r| !set[usize::from(r)]),
        };
        // The aligned positions the call constraints allow, those touching no register to
        // avoid first (a lazy stable partition: this runs once per temp).
        let avoided = |p: u16| {
            avoid
                .as_ref()
                .is_some_and(|a| (p..p + n).any(|r| a[usize::from(r)]))
        };
        let aligned = (0..=limit - n)
            .step_by(usize::from(align))
            .filter(|&p| allowed(p));
        let positions = aligned
            .clone()
            .filter(|&p| !avoided(p))
            .chain(aligned.filter(|&p| avoided(p)));
        let fits = |p: u16, owner: &[Option<(u32, Temp)>]| {
            p.is_multiple_of(align)
                && p + n <= limit
                && allowed(p)
                && (p..p + n).all(|r| free(usize::from(r), owner))
        };
        let mut found = hint[t.index()].filter(|&p| fits(p, &owner));
        if found.is_none() {
            found = partners[t.index()]
                .iter()
                .filter_map(|o| reg[o.index()])
                .find(|&p| fits(p, &owner));
        }
        for p in positions.clone().filter(|_| found.is_none()) {
            if (p..p + n).all(|r| free(usize::from(r), &owner)) {
                found = Some(p);
                break;
            }
        }
        if found.is_none() {
            // Evict the owners of the range whose earliest-ending owner ends last.
            let mut best: Option<(u16, u32)> = None;
            for p in positions {
                let mut min_end = u32::MAX;
                let mut ok = true;
                for r in p..p + n {
                    if let Some((e, o)) = owner[usize::from(r)] {
                        if e >= start {
                            if f.info(o).no_spill {
                                ok = false;
                                break;
                            }
                            min_end = min_end.min(e);
                        }
                    }
                }
                if ok && best.is_none_or(|(_, m)| min_end > m) {
                    best = Some((p, min_end));
                }
            }
            match best {
                Some((p, min_end)) if info.no_spill || min_end > end => {
                    for r in p..p + n {
                        if let Some((e, o)) = owner[usize::from(r)] {
                            if e >= start {
                                if !spilled.contains(&o) {
                                    spilled.push(o);
                                }
                                for slot in owner.iter_mut() {
                                    if matches!(slot, Some((_, x)) if *x == o) {
                                        *slot = None;
                                    }
                                }
                            }
                        }
                    }
                    found = Some(p);
                }
                _ if !info.no_spill => {
                    spilled.push(t);
                    continue;
                }
                _ => {
                    return Outcome::TooFew(format!(
                        "more than {limit} {}s are {UNSPILLABLE}",
                        file.name()
                    ))
                }
            }
        }
        let p = found.expect("a range was found or freed");
        for r in p..p + n {
            owner[usize::from(r)] = Some((end, t));
        }
        reg[t.index()] = Some(p);
    }
    if spilled.is_empty() {
        Outcome::Assigned(reg)
    } else {
        Outcome::Spill(spilled)
    }
}

/// Per temp of `file` live across a call: the registers it may not have there (spec: the
/// complement of the callee's preserved registers, and the registers the call's own
/// parameters occupy). The parallel copy into the parameter registers stands right before
/// each `p_call`; a temp live across it is live across the call.
fn call_constraints(
    f: &Function,
    file: RegFile,
    limit: u16,
    iv: &[Option<(u32, u32)>],
) -> Vec<Option<Vec<bool>>> {
    let mut out: Vec<Option<Vec<bool>>> = vec![None; f.temps.len()];
    if f.calls.is_empty() {
        return out;
    }
    let mut g = 0u32;
    let mut sites = Vec::new();
    for block in &f.blocks {
        for inst in &block.insts {
            if inst.is(Pseudo::Call) {
                if let Some(Opnd::Fixed(Operand::Imm(Imm::Int(k)))) = inst.opnds.first() {
                    sites.push((g, *k as usize));
                }
            }
            g += 1;
        }
        if block.insts.is_empty() {
            g += 1;
        }
    }
    for (g, k) in sites {
        let conv = &f.calls[k].conv;
        let mut set: Vec<bool> = (0..limit)
            .map(|r| !conv.preserved.contains(Reg { file, num: r }))
            .collect();
        for p in &conv.assignment.params {
            if let gpuabi_layout::aco::Location::Reg(r) = p.location {
                if r.file() == file {
                    for x in r.regs() {
                        if x.num < limit {
                            set[usize::from(x.num)] = true;
                        }
                    }
                }
            }
        }
        let copy = 2 * g.saturating_sub(1);
        for (t, i) in iv.iter().enumerate() {
            let Some((a, b)) = *i else { continue };
            if f.temps[t].file != file || a >= copy || b <= copy {
                continue;
            }
            match &mut out[t] {
                Some(old) => old.iter_mut().zip(&set).for_each(|(o, n)| *o |= *n),
                none => *none = Some(set.clone()),
            }
        }
    }
    out
}

/// The spillable temps of `file` live across a call where no aligned range of registers
/// below `limit` is allowed to them ([`call_constraints`]): the callee's ABI preserves too
/// few registers of the file, or only ones its parameters take.
fn call_victims(f: &Function, file: RegFile, limit: u16) -> Vec<Temp> {
    if f.calls.is_empty() {
        return Vec::new();
    }
    let live = liveness(f);
    let iv = intervals(f, &live);
    let forbidden = call_constraints(f, file, limit, &iv);
    forbidden
        .iter()
        .enumerate()
        .filter_map(|(t, set)| {
            let set = set.as_ref()?;
            let info = f.temps[t];
            if info.no_spill {
                return None;
            }
            let n = u16::from(info.dwords);
            let align = usize::from(info.align.max(1));
            let fits = n <= limit
                && (0..=limit - n)
                    .step_by(align)
                    .any(|p| (p..p + n).all(|r| !set[usize::from(r)]));
            (!fits).then_some(Temp(t as u32))
        })
        .collect()
}

/// The pass: allocates VGPRs, then SGPRs, spilling until both fit ([`allocate`]); the
/// registers and the spill slots go to `f`, the spill counts to the context.
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    match allocate_all(f, &ctx.opts) {
        Ok(Some((regs, slots, spilled))) => {
            f.regs = regs;
            f.spill_slots = slots;
            ctx.spilled = spilled;
            Ok(())
        }
        Ok(None) => Err(PassError::new(
            "register_allocation",
            f,
            Fault::NeedsScratch,
        )),
        Err(e) => Err(PassError::input("register_allocation", &f.name, e)),
    }
}

/// The register of every temp (`None`: unallocated), the spill slots, and the values
/// spilled from VGPRs and from SGPRs.
type Allocation = (Vec<Option<u16>>, crate::spill::Slots, [usize; 2]);

/// Allocates VGPRs, then SGPRs, spilling until both fit; SGPRs spill into VGPR lanes
/// reserved at the top of the VGPR budget, so a round that needs more of them starts the
/// VGPRs again with a smaller budget. `None`: VGPRs must spill but the entry set up no
/// scratch buffer registers (a `catalyst` entry compiled without scratch).
fn allocate_all(mf: &mut Function, opts: &Options) -> Result<Option<Allocation>, CodegenError> {
    let mut slots = crate::spill::Slots::default();
    let mut reserve = 0u16;
    let mut spilled = [0usize; 2];
    let buffer = scratch_regs(mf);
    // Values no register can hold across a call they live across are spilled before the
    // first round, all at once, as ACO's spiller spills what a call's preserved registers
    // cannot hold before its allocator runs (`spill_block` in `aco_spill.cpp`); the rounds
    // then only deal with the demand between calls.
    for (file, limit) in [
        (RegFile::Vgpr, opts.max_vgprs),
        (RegFile::Sgpr, opts.max_sgprs),
    ] {
        let victims = call_victims(mf, file, limit);
        let must_stop = file == RegFile::Vgpr
            && buffer.is_none()
            && scratch::uses_buffer(opts.target)
            && opts.entry == Entry::Catalyst;
        if victims.is_empty() || must_stop {
            continue;
        }
        spilled[usize::from(file == RegFile::Sgpr)] += victims.len();
        crate::spill::spill(mf, &victims, &mut slots, opts.target, buffer)?;
    }
    for _ in 0..64 {
        let vlimit = opts.max_vgprs.saturating_sub(reserve);
        let Some(vregs) = rounds(
            mf,
            RegFile::Vgpr,
            vlimit,
            &mut slots,
            opts,
            buffer,
            &mut spilled[0],
        )?
        else {
            return Ok(None);
        };
        let Some(sregs) = rounds(
            mf,
            RegFile::Sgpr,
            opts.max_sgprs,
            &mut slots,
            opts,
            buffer,
            &mut spilled[1],
        )?
        else {
            return Ok(None);
        };
        // SGPR spilling adds temps after the VGPRs were assigned: those are SGPRs.
        let regs: Vec<Option<u16>> = (0..mf.temps.len())
            .map(|t| {
                vregs
                    .get(t)
                    .copied()
                    .flatten()
                    .or(sregs.get(t).copied().flatten())
            })
            .collect();
        // A called function also saves the preserved SGPRs it writes into those lanes.
        let saved = crate::lower_calls::saved_registers(
            mf,
            &regs,
            Demand::new(opts.max_sgprs, opts.max_vgprs),
            reserve,
        )
        .sgprs
        .len() as u32;
        let need = (slots.sgpr_dwords + saved).div_ceil(opts.wave.lanes()) as u16;
        if need > reserve {
            reserve = need;
            continue;
        }
        slots.reserved = reserve;
        return Ok(Some((regs, slots, spilled)));
    }
    Err(CodegenError::Registers {
        function: mf.name.clone(),
        what: "register allocation did not settle".into(),
    })
}

fn scratch_regs(mf: &Function) -> Option<scratch::BufferRegs> {
    // The private segment buffer and wave offset temps are the unspillable SGPR temps the
    // entry made (GCN 1.2 only).
    let mut it = mf
        .temps
        .iter()
        .enumerate()
        .filter(|(_, t)| t.no_spill && t.file == RegFile::Sgpr);
    let (r, _) = it.next()?;
    let (w, _) = it.next()?;
    Some(scratch::BufferRegs {
        rsrc: mf.whole(Temp(r as u32)),
        wave_offset: Some(mf.whole(Temp(w as u32))),
    })
}

/// Allocation rounds of one file, spilling between them; `None` as [`allocate_all`].
fn rounds(
    mf: &mut Function,
    file: RegFile,
    limit: u16,
    slots: &mut crate::spill::Slots,
    opts: &Options,
    buffer: Option<scratch::BufferRegs>,
    spilled: &mut usize,
) -> Result<Option<Vec<Option<u16>>>, CodegenError> {
    for _ in 0..256 {
        match allocate(mf, file, limit) {
            Outcome::Assigned(r) => return Ok(Some(r)),
            Outcome::Spill(_)
                if file == RegFile::Vgpr
                    && buffer.is_none()
                    && scratch::uses_buffer(opts.target)
                    && opts.entry == Entry::Catalyst =>
            {
                return Ok(None);
            }
            Outcome::Spill(victims) => {
                *spilled += victims.len();
                crate::spill::spill(mf, &victims, slots, opts.target, buffer)?;
            }
            Outcome::TooFew(what) => {
                return Err(CodegenError::Registers {
                    function: mf.name.clone(),
                    what,
                })
            }
        }
    }
    Err(CodegenError::Registers {
        function: mf.name.clone(),
        what: format!("{} allocation did not settle", file.name()),
    })
}
