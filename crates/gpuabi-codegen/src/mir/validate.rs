//! Checks the machine IR between passes: operands fit their temps, every branch target
//! exists, and blocks end only in terminators. A failure is a compiler bug, reported with
//! the pass that produced it.

use super::{Function, MOp, Opnd};

/// Checks `f`; the error names the block, the instruction and what is wrong.
pub fn validate(f: &Function) -> Result<(), String> {
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut seen_terminator = false;
        for (ii, inst) in b.insts.iter().enumerate() {
            let at = || format!("BB{bi}, instruction {ii}");
            if seen_terminator && !inst.is_terminator() {
                return Err(format!("{}: instruction after a branch", at()));
            }
            seen_terminator |= inst.is_terminator();
            if let MOp::Hw(op) = inst.op {
                let slots = op.info().dsts.len() + op.info().srcs.len();
                if inst.opnds.len() != slots {
                    return Err(format!(
                        "{}: {:?} has {} operands, its row has {slots}",
                        at(),
                        op,
                        inst.opnds.len()
                    ));
                }
            } else if inst.opnds.len() % 2 != 0 {
                return Err(format!("{}: parallel copy with an odd operand count", at()));
            }
            for o in &inst.opnds {
                match o {
                    Opnd::Temp(s) => {
                        let Some(info) = f.temps.get(s.temp.index()) else {
                            return Err(format!("{}: unknown temp {}", at(), s.temp.0));
                        };
                        if s.dwords == 0 || s.offset + s.dwords > info.dwords {
                            return Err(format!(
                                "{}: slice {}+{} of a {}-dword temp",
                                at(),
                                s.offset,
                                s.dwords,
                                info.dwords
                            ));
                        }
                    }
                    Opnd::Block(t) if t.index() >= f.blocks.len() => {
                        return Err(format!("{}: branch to missing BB{}", at(), t.0));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}
