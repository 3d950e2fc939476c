//! A symbolic checker of register allocation, after regalloc2's `checker.rs`: it follows
//! the linear CFG recording which temp dword each physical register holds, and fails when
//! an instruction reads a register that holds another value.
//!
//! At a join, a register that holds a value on one path and nothing known on another
//! keeps the value (a masked write on one path is how merged VGPR values are made); two
//! different values make it hold neither, and reading it is an error.

use gpuabi_layout::reg::RegFile;

use crate::mir::{BlockId, Function, MOp, Opnd, Temp};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Unknown,
    Holds(Temp, u8),
    Conflict,
}

fn join(a: Cell, b: Cell) -> Cell {
    match (a, b) {
        (Cell::Unknown, x) | (x, Cell::Unknown) => x,
        (x, y) if x == y => x,
        _ => Cell::Conflict,
    }
}

/// Checks `f` with `sgpr[t]`/`vgpr[t]` the first register of each temp.
pub fn check(f: &Function, regs: &[Option<u16>], sgprs: u16, vgprs: u16) -> Result<(), String> {
    let width = usize::from(sgprs) + usize::from(vgprs);
    let index = |file: RegFile, r: u16| match file {
        RegFile::Sgpr => usize::from(r),
        RegFile::Vgpr => usize::from(sgprs) + usize::from(r),
    };
    let nb = f.blocks.len();
    let mut entry: Vec<Option<Vec<Cell>>> = vec![None; nb];
    entry[0] = Some(vec![Cell::Unknown; width]);
    let mut work = vec![BlockId(0)];
    let mut visits = 0usize;
    while let Some(b) = work.pop() {
        visits += 1;
        if visits > 64 * nb + 64 {
            return Err("the checker did not converge".into());
        }
        let mut state = entry[b.index()].clone().expect("queued with a state");
        for (ii, inst) in f.blocks[b.index()].insts.iter().enumerate() {
            let (uses, defs) = inst.temp_uses_defs();
            for u in &uses {
                let info = f.info(u.temp);
                let r = regs[u.temp.index()]
                    .ok_or_else(|| format!("temp {} has no register", u.temp.0))?;
                for k in 0..u.dwords {
                    let at = index(info.file, r + u16::from(u.offset + k));
                    let want = Cell::Holds(u.temp, u.offset + k);
                    if state[at] != want && state[at] != Cell::Unknown {
                        return Err(format!(
                            "BB{}, instruction {ii}: reads temp {} dword {} from a register holding {:?}",
                            b.0,
                            u.temp.0,
                            u.offset + k,
                            state[at]
                        ));
                    }
                }
            }
            // Parallel copies read everything before writing; other instructions too, as
            // far as the registers are concerned.
            for d in &defs {
                let info = f.info(d.temp);
                let r = regs[d.temp.index()]
                    .ok_or_else(|| format!("temp {} has no register", d.temp.0))?;
                for k in 0..d.dwords {
                    state[index(info.file, r + u16::from(d.offset + k))] =
                        Cell::Holds(d.temp, d.offset + k);
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
        for s in f.successors(b) {
            let merged = match &entry[s.index()] {
                None => state.clone(),
                Some(old) => old.iter().zip(&state).map(|(a, b)| join(*a, *b)).collect(),
            };
            if entry[s.index()].as_ref() != Some(&merged) {
                entry[s.index()] = Some(merged);
                work.push(s);
            }
        }
    }
    Ok(())
}
