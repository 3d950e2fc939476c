//! A symbolic checker of register allocation, after regalloc2's `checker.rs`: it follows
//! the code recording which temp dword each physical register holds, and fails when an
//! instruction reads a register that holds another value. It runs on the code after SSA
//! elimination, where phis are parallel copies.
//!
//! SGPRs are followed along the linear CFG, VGPRs along the logical CFG: a VGPR write is
//! masked by exec, so the lanes that reach a block along a logical edge see the VGPRs as
//! their own path left them (the reasoning of the allocator's liveness, checked here
//! independently of it). At a join, a register that holds a value on one path and nothing
//! known on another keeps the value; two different values make it hold neither, and
//! reading it is an error.

use crate::error::PassError;
use crate::pipeline::Context;
use gpuabi_layout::reg::RegFile;

use smallvec::{smallvec, SmallVec};

use crate::error::Invalid;
use crate::mir::{BlockId, Function, MOp, Opnd, Pseudo, Temp};

/// What a register holds: the temp dwords whose value it has (several after a copy
/// between temps given one register).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cell {
    Unknown,
    Holds(SmallVec<[(Temp, u8); 2]>),
    Conflict,
}

impl Cell {
    fn one(t: Temp, dword: u8) -> Cell {
        Cell::Holds(smallvec![(t, dword)])
    }

    fn has(&self, t: Temp, dword: u8) -> bool {
        match self {
            Cell::Unknown => true,
            Cell::Holds(v) => v.contains(&(t, dword)),
            Cell::Conflict => false,
        }
    }
}

fn join(a: &Cell, b: &Cell) -> Cell {
    match (a, b) {
        (Cell::Unknown, x) | (x, Cell::Unknown) => x.clone(),
        (Cell::Holds(x), Cell::Holds(y)) => {
            let both: SmallVec<[(Temp, u8); 2]> =
                x.iter().filter(|e| y.contains(e)).copied().collect();
            if both.is_empty() {
                Cell::Conflict
            } else {
                Cell::Holds(both)
            }
        }
        _ => Cell::Conflict,
    }
}

/// Checks `f` with `sgpr[t]`/`vgpr[t]` the first register of each temp.
pub fn check(f: &Function, regs: &[Option<u16>], sgprs: u16, vgprs: u16) -> Result<(), Invalid> {
    // Only the registers some temp has are followed (the limits bound them).
    let (mut s_high, mut v_high) = (0u16, 0u16);
    for (t, r) in regs.iter().enumerate() {
        let (Some(r), Some(info)) = (r, f.temps.get(t)) else {
            continue;
        };
        let end = r + u16::from(info.dwords);
        let (high, limit) = match info.file {
            RegFile::Sgpr => (&mut s_high, sgprs),
            RegFile::Vgpr => (&mut v_high, vgprs),
        };
        if end > limit {
            return Err(Invalid::function(format!(
                "temp {t} ends at register {end}, beyond the limit {limit}"
            )));
        }
        *high = (*high).max(end);
    }
    let (sgprs, vgprs) = (s_high, v_high);
    let width = usize::from(sgprs) + usize::from(vgprs);
    let index = |file: RegFile, r: u16| match file {
        RegFile::Sgpr => usize::from(r),
        RegFile::Vgpr => usize::from(sgprs) + usize::from(r),
    };
    let nb = f.blocks.len();
    // The state at the end of each block, once visited.
    let mut exit: Vec<Option<Vec<Cell>>> = vec![None; nb];
    let mut queued = vec![false; nb];
    let mut work = std::collections::VecDeque::from([BlockId(0)]);
    queued[0] = true;
    let mut visits = 0usize;
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        visits += 1;
        if visits > 256 * nb + 64 {
            return Err(Invalid::function("the checker did not converge"));
        }
        let block = &f.blocks[b.index()];
        let mut state = vec![Cell::Unknown; width];
        let split = usize::from(sgprs);
        for (preds, range) in [
            (&block.linear_preds, 0..split),
            (&block.logical_preds, split..width),
        ] {
            for p in preds {
                let Some(out) = &exit[p.index()] else {
                    continue;
                };
                for at in range.clone() {
                    if state[at] != out[at] {
                        state[at] = join(&state[at], &out[at]);
                    }
                }
            }
        }
        for (ii, inst) in block.insts.iter().enumerate() {
            let (uses, defs) = inst.temp_uses_defs();
            for u in &uses {
                let info = f.info(u.temp);
                let r = regs[u.temp.index()].ok_or_else(|| {
                    Invalid::function(format!("temp {} has no register", u.temp.0))
                })?;
                for k in 0..u.dwords {
                    let at = index(info.file, r + u16::from(u.offset + k));
                    if !state[at].has(u.temp, u.offset + k) {
                        return Err(Invalid::inst(
                            b.index(),
                            ii,
                            format!(
                                "reads temp {} dword {} from a register holding {:?}",
                                u.temp.0,
                                u.offset + k,
                                state[at]
                            ),
                        ));
                    }
                }
            }
            // A parallel copy reads every source before writing; a destination then holds
            // what its source register held, and its own temp.
            if inst.is(Pseudo::ParallelCopy) {
                let mut writes = Vec::new();
                for pair in inst.opnds.chunks(2) {
                    // A parameter register written for a call or a return holds no temp.
                    if let Opnd::Fixed(gpuabi_amdgpu::Operand::Reg(range)) = &pair[0] {
                        for reg in range.regs() {
                            let limit = match reg.file {
                                RegFile::Sgpr => sgprs,
                                RegFile::Vgpr => vgprs,
                            };
                            if reg.num < limit {
                                writes.push((index(reg.file, reg.num), Cell::Conflict));
                            }
                        }
                    }
                    let Some(d) = pair[0].slice() else { continue };
                    let dr = regs[d.temp.index()].ok_or_else(|| {
                        Invalid::function(format!("temp {} has no register", d.temp.0))
                    })?;
                    let dfile = f.info(d.temp).file;
                    for k in 0..d.dwords {
                        let mut cell = Cell::one(d.temp, d.offset + k);
                        if let Some(s) = pair.get(1).and_then(Opnd::slice) {
                            let sr = regs[s.temp.index()].ok_or_else(|| {
                                Invalid::function(format!("temp {} has no register", s.temp.0))
                            })?;
                            let from =
                                &state[index(f.info(s.temp).file, sr + u16::from(s.offset + k))];
                            // Nothing known of the source (only ever read leniently) stays
                            // nothing known, so the transfer is monotone.
                            match (from, &mut cell) {
                                (Cell::Unknown, _) => cell = Cell::Unknown,
                                (Cell::Holds(v), Cell::Holds(mine)) => {
                                    for e in v {
                                        if !mine.contains(e) {
                                            mine.push(*e);
                                        }
                                    }
                                }
                                _ => {}
                            }
                        }
                        writes.push((index(dfile, dr + u16::from(d.offset + k)), cell));
                    }
                }
                for (at, cell) in writes {
                    state[at] = cell;
                }
                continue;
            }
            // A call: every register the callee's ABI does not preserve, and those of its
            // parameters, hold nothing known after it.
            if inst.is(Pseudo::Call) {
                if let Some(Opnd::Fixed(gpuabi_amdgpu::Operand::Imm(gpuabi_amdgpu::Imm::Int(k)))) =
                    inst.opnds.first()
                {
                    let conv = &f.calls[*k as usize].conv;
                    for (file, limit) in [(RegFile::Sgpr, sgprs), (RegFile::Vgpr, vgprs)] {
                        for r in 0..limit {
                            let reg = gpuabi_layout::reg::Reg { file, num: r };
                            let param = conv.assignment.params.iter().any(|p| {
                                matches!(p.location, gpuabi_layout::aco::Location::Reg(x)
                                    if x.regs().any(|y| y == reg))
                            });
                            if param || !conv.preserved.contains(reg) {
                                state[index(file, r)] = Cell::Conflict;
                            }
                        }
                    }
                }
            }
            for d in &defs {
                let info = f.info(d.temp);
                let r = regs[d.temp.index()].ok_or_else(|| {
                    Invalid::function(format!("temp {} has no register", d.temp.0))
                })?;
                for k in 0..d.dwords {
                    state[index(info.file, r + u16::from(d.offset + k))] =
                        Cell::one(d.temp, d.offset + k);
                }
            }
            // A fixed destination register (entry copies write only temps; other fixed
            // writes are to exec, vcc or reserved spill VGPRs, outside the allocation).
            if let MOp::Hw(op) = inst.op {
                let n = op.info().dsts.len();
                for o in inst.opnds.iter().take(n) {
                    if let Opnd::Fixed(gpuabi_amdgpu::Operand::Reg(range)) = o {
                        for reg in range.regs() {
                            let limit = match reg.file {
                                RegFile::Sgpr => sgprs,
                                RegFile::Vgpr => vgprs,
                            };
                            if reg.num < limit {
                                state[index(reg.file, reg.num)] = Cell::Conflict;
                            }
                        }
                    }
                }
            }
        }
        if exit[b.index()].as_ref() != Some(&state) {
            exit[b.index()] = Some(state);
            for s in block.linear_succs.iter().chain(&block.logical_succs) {
                if !queued[s.index()] {
                    queued[s.index()] = true;
                    work.push_back(*s);
                }
            }
        }
    }
    Ok(())
}

/// The pass: checks the allocation of `f` (it changes nothing).
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    check(f, &f.regs, ctx.opts.max_sgprs, ctx.opts.max_vgprs)
        .map_err(|e| PassError::unexpected("check_ra", f, e))
}

#[cfg(test)]
mod tests {
    use gpuabi_amdgpu::{Imm, MemMods, Opcode, Operand};

    use super::*;
    use crate::mir::MInst;

    fn hw(op: Opcode, opnds: Vec<Opnd>) -> MInst {
        MInst {
            op: MOp::Hw(op),
            opnds: opnds.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
            origin: Default::default(),
        }
    }

    /// `a = 1; b = 2; c = a` in VGPRs; then `d = b` after a parallel copy `e = b`.
    fn function() -> Function {
        let mut f = Function::new("k");
        let t: Vec<Temp> = (0..5).map(|_| f.temp(RegFile::Vgpr, 1, 1)).collect();
        let v = |i: usize| Opnd::Temp(f.whole(t[i]));
        let one = Opnd::Fixed(Operand::Imm(Imm::Int(1)));
        let two = Opnd::Fixed(Operand::Imm(Imm::Int(2)));
        f.blocks[0].insts = vec![
            hw(Opcode::VMovB32, vec![v(0), one]),
            hw(Opcode::VMovB32, vec![v(1), two]),
            hw(Opcode::VMovB32, vec![v(2), v(0)]),
            MInst::pseudo(Pseudo::ParallelCopy, [v(4), v(1)], Default::default()),
            hw(Opcode::VMovB32, vec![v(3), v(1)]),
            hw(Opcode::SEndpgm, vec![]),
        ];
        crate::control_flow::build(&mut f).expect("edges");
        f
    }

    #[test]
    fn a_clobbered_register_is_caught() {
        let f = function();
        // `b` overwrites `a` before `a` is read.
        let regs = [Some(0), Some(0), Some(1), Some(1), Some(2)];
        let e = check(&f, &regs, 8, 8).unwrap_err();
        assert!(e.to_string().contains("reads temp 0"), "{e}");
    }

    #[test]
    fn a_copy_into_the_same_register_keeps_both_temps() {
        let f = function();
        // `e` shares `b`'s register: reading `b` after the copy is fine.
        let regs = [Some(0), Some(1), Some(2), Some(3), Some(1)];
        assert_eq!(check(&f, &regs, 8, 8), Ok(()));
        // In a register of its own, `e` does not disturb `b` either.
        let regs = [Some(0), Some(1), Some(2), Some(3), Some(4)];
        assert_eq!(check(&f, &regs, 8, 8), Ok(()));
    }
}
