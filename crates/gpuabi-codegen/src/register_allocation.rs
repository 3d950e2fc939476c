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
//! adds short, unspillable reload temps, so rounds end.

use gpuabi_layout::reg::RegFile;

use crate::liveness::{intervals, liveness};
use smallvec::SmallVec;

use crate::mir::{Function, Temp};

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
        let positions = (0..=limit - n).filter(|p| p % align == 0);
        let fits = |p: u16, owner: &[Option<(u32, Temp)>]| {
            p.is_multiple_of(align)
                && p + n <= limit
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
                        "more than {limit} {}s are needed at once by values that cannot be spilled",
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
