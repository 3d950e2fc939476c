//! Checks the machine IR between passes: operands fit their temps, every branch target
//! exists, phis stand at the top of their block, and blocks end only in terminators;
//! [`validate_ssa`] adds the SSA rules of instruction selection's output, [`validate_cfg`]
//! the agreement of the edge lists with the branches and phis. A failure is a compiler
//! bug, reported with the pass that produced it.

use gpuabi_layout::reg::RegFile;
use smallvec::SmallVec;

use super::{BlockId, Function, MOp, Opnd, Pseudo};
use crate::error::Invalid;

/// Checks `f`; the error names the block, the instruction and what is wrong.
pub fn validate(f: &Function) -> Result<(), Invalid> {
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut seen_terminator = false;
        let mut seen_non_phi = false;
        let mut logical = 0;
        for (ii, inst) in b.insts.iter().enumerate() {
            if seen_terminator && !inst.is_terminator() {
                return Err(Invalid::inst(bi, ii, "instruction after a branch"));
            }
            seen_terminator |= inst.is_terminator();
            if inst.is_phi() && seen_non_phi {
                return Err(Invalid::inst(bi, ii, "phi after other instructions"));
            }
            seen_non_phi |= !inst.is_phi();
            match inst.op {
                MOp::Hw(op) => {
                    let slots = op.info().dsts.len() + op.info().srcs.len();
                    if inst.opnds.len() != slots {
                        return Err(Invalid::inst(
                            bi,
                            ii,
                            format!(
                                "{:?} has {} operands, its row has {slots}",
                                op,
                                inst.opnds.len()
                            ),
                        ));
                    }
                }
                MOp::Pseudo(Pseudo::ParallelCopy) if inst.opnds.len() % 2 != 0 => {
                    return Err(Invalid::inst(
                        bi,
                        ii,
                        "parallel copy with an odd operand count",
                    ));
                }
                MOp::Pseudo(Pseudo::LogicalStart) if logical != 0 => {
                    return Err(Invalid::inst(bi, ii, "p_logical_start out of place"));
                }
                MOp::Pseudo(Pseudo::LogicalStart) => logical = 1,
                MOp::Pseudo(Pseudo::LogicalEnd) if logical != 1 => {
                    return Err(Invalid::inst(
                        bi,
                        ii,
                        "p_logical_end without p_logical_start",
                    ));
                }
                MOp::Pseudo(Pseudo::LogicalEnd) => logical = 2,
                _ => {}
            }
            if inst.is_phi() && !matches!(inst.opnds.first(), Some(Opnd::Temp(_))) {
                return Err(Invalid::inst(bi, ii, "phi without a temp destination"));
            }
            for o in &inst.opnds {
                match o {
                    Opnd::Temp(s) => {
                        let Some(info) = f.temps.get(s.temp.index()) else {
                            return Err(Invalid::inst(
                                bi,
                                ii,
                                format!("unknown temp {}", s.temp.0),
                            ));
                        };
                        if s.dwords == 0 || s.offset + s.dwords > info.dwords {
                            return Err(Invalid::inst(
                                bi,
                                ii,
                                format!(
                                    "slice {}+{} of a {}-dword temp",
                                    s.offset, s.dwords, info.dwords
                                ),
                            ));
                        }
                    }
                    Opnd::Block(t) if t.index() >= f.blocks.len() => {
                        return Err(Invalid::inst(
                            bi,
                            ii,
                            format!("branch to missing BB{}", t.0),
                        ));
                    }
                    _ => {}
                }
            }
        }
        if logical == 1 {
            return Err(Invalid::block(bi, "p_logical_start without p_logical_end"));
        }
    }
    Ok(())
}

/// Checks the SSA form of instruction selection's output once the edge lists are built:
/// every dword of a temp is written by one instruction only, and that write dominates
/// every read of it, on the logical CFG for VGPR temps and on the linear CFG for SGPR
/// temps (ACO's rule: the lanes follow the logical CFG, the scalar unit the linear one).
/// A phi reads its sources at the end of the matching predecessors. Reads in blocks the
/// entry does not reach (code after a construct every path of which leaves) are not
/// checked.
pub fn validate_ssa(f: &Function) -> Result<(), Invalid> {
    // Where each dword of each temp is written: (block, instruction).
    let mut def: Vec<SmallVec<[(u32, u32, u32); 1]>> = vec![SmallVec::new(); f.temps.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            for d in inst.temp_uses_defs().1 {
                let mask = ((1u32 << d.dwords) - 1) << d.offset;
                let defs = &mut def[d.temp.index()];
                if defs.iter().any(|&(m, _, _)| m & mask != 0) {
                    return Err(Invalid::inst(
                        bi,
                        ii,
                        format!("temp {} written a second time", d.temp.0),
                    ));
                }
                defs.push((mask, bi as u32, ii as u32));
            }
        }
    }
    let logical = Dominators::new(f, true);
    let linear = Dominators::new(f, false);
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            let (uses, _) = inst.temp_uses_defs();
            for (k, u) in uses.iter().enumerate() {
                let dom = match f.info(u.temp).file {
                    RegFile::Vgpr => &logical,
                    RegFile::Sgpr => &linear,
                };
                // A phi's k-th source is read at the end of its k-th predecessor.
                let (ub, ui) = if inst.is(Pseudo::Phi) || inst.is(Pseudo::LinearPhi) {
                    let preds = if inst.is(Pseudo::Phi) {
                        &b.logical_preds
                    } else {
                        &b.linear_preds
                    };
                    let Some(pos) = inst.opnds[1..]
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| matches!(o, Opnd::Temp(_)))
                        .nth(k)
                        .map(|(pos, _)| pos)
                    else {
                        continue;
                    };
                    (preds[pos].index(), u32::MAX)
                } else {
                    (bi, ii as u32)
                };
                if !dom.reached(ub) {
                    continue;
                }
                let mask = ((1u32 << u.dwords) - 1) << u.offset;
                let mut covered = 0;
                for &(m, db, di) in &def[u.temp.index()] {
                    if m & mask == 0 {
                        continue;
                    }
                    let ok = if db as usize == ub {
                        di < ui
                    } else {
                        dom.dominates(db as usize, ub)
                    };
                    if !ok {
                        return Err(Invalid::inst(
                            bi,
                            ii,
                            format!(
                                "temp {} read where its write in BB{db} does not dominate",
                                u.temp.0
                            ),
                        ));
                    }
                    covered |= m & mask;
                }
                if covered != mask {
                    return Err(Invalid::inst(
                        bi,
                        ii,
                        format!("temp {} read but never written", u.temp.0),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Immediate dominators of one CFG of a function (Cooper, Harvey and Kennedy, "A Simple,
/// Fast Dominance Algorithm").
struct Dominators {
    /// Per block: its immediate dominator (the entry its own), `None` when unreached.
    idom: Vec<Option<usize>>,
    /// Per block: when the depth-first walk of the dominator tree enters it.
    pre: Vec<u32>,
    /// Per block: when that walk leaves it.
    post: Vec<u32>,
}

impl Dominators {
    fn new(f: &Function, logical: bool) -> Dominators {
        let n = f.blocks.len();
        let succs = |b: usize| {
            if logical {
                &f.blocks[b].logical_succs
            } else {
                &f.blocks[b].linear_succs
            }
        };
        let preds = |b: usize| {
            if logical {
                &f.blocks[b].logical_preds
            } else {
                &f.blocks[b].linear_preds
            }
        };
        // Postorder by an explicit stack: (block, next successor to visit).
        let mut seen = vec![false; n];
        let mut post = Vec::with_capacity(n);
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some((b, i)) = stack.pop() {
            if let Some(s) = succs(b).get(i) {
                stack.push((b, i + 1));
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push((s.index(), 0));
                }
            } else {
                post.push(b);
            }
        }
        let mut rpo_pos = vec![usize::MAX; n];
        for (i, &b) in post.iter().rev().enumerate() {
            rpo_pos[b] = i;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        idom[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in post.iter().rev().skip(1) {
                let mut new: Option<usize> = None;
                for p in preds(b) {
                    let p = p.index();
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(mut a) => {
                            let mut c = p;
                            while a != c {
                                while rpo_pos[a] > rpo_pos[c] {
                                    a = idom[a].expect("processed");
                                }
                                while rpo_pos[c] > rpo_pos[a] {
                                    c = idom[c].expect("processed");
                                }
                            }
                            a
                        }
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        // Numbers of the dominator tree in depth-first order, for constant-time queries.
        let mut children = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate() {
            if let Some(d) = *d {
                if d != b {
                    children[d].push(b);
                }
            }
        }
        let (mut pre, mut post) = (vec![0u32; n], vec![0u32; n]);
        let mut clock = 0u32;
        let mut stack = vec![(0usize, 0usize)];
        pre[0] = 0;
        while let Some((b, i)) = stack.pop() {
            if let Some(&c) = children[b].get(i) {
                stack.push((b, i + 1));
                clock += 1;
                pre[c] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                post[b] = clock;
            }
        }
        Dominators { idom, pre, post }
    }

    fn reached(&self, b: usize) -> bool {
        self.idom[b].is_some()
    }

    /// Whether `a` dominates `b` (`b` reached).
    fn dominates(&self, a: usize, b: usize) -> bool {
        self.idom[a].is_some() && self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// Checks the edge lists: every successor lists the block among its predecessors and the
/// other way round, and each phi has one source per predecessor of its CFG (logical for
/// `p_phi`, linear for `p_linear_phi`). With `hardware`, the linear successors must also
/// be those of the hardware branches, as they are once exec-mask insertion is done.
pub fn validate_cfg(f: &Function, hardware: bool) -> Result<(), Invalid> {
    for (bi, b) in f.blocks.iter().enumerate() {
        let id = BlockId(bi as u32);
        let pairs = [
            (&b.logical_succs, true, "logical"),
            (&b.linear_succs, false, "linear"),
        ];
        for (succs, logical, name) in pairs {
            for s in succs {
                let sb = f
                    .blocks
                    .get(s.index())
                    .ok_or(Invalid::block(bi, format!("missing BB{}", s.0)))?;
                let preds = if logical {
                    &sb.logical_preds
                } else {
                    &sb.linear_preds
                };
                if !preds.contains(&id) {
                    return Err(Invalid::block(
                        bi,
                        format!("{name} successor BB{} lacks it", s.0),
                    ));
                }
            }
        }
        for p in &b.logical_preds {
            if !f.blocks[p.index()].logical_succs.contains(&id) {
                return Err(Invalid::block(
                    bi,
                    format!("logical predecessor BB{} lacks it", p.0),
                ));
            }
        }
        for p in &b.linear_preds {
            if !f.blocks[p.index()].linear_succs.contains(&id) {
                return Err(Invalid::block(
                    bi,
                    format!("linear predecessor BB{} lacks it", p.0),
                ));
            }
        }
        for (ii, inst) in b.insts.iter().enumerate().take_while(|(_, i)| i.is_phi()) {
            let preds = if inst.is(Pseudo::Phi) {
                b.logical_preds.len()
            } else {
                b.linear_preds.len()
            };
            if inst.opnds.len() != preds + 1 {
                return Err(Invalid::inst(
                    bi,
                    ii,
                    format!(
                        "phi with {} sources for {preds} predecessors",
                        inst.opnds.len() - 1
                    ),
                ));
            }
        }
        if hardware {
            let mut hw = f.successors(id);
            let mut lin = b.linear_succs.clone();
            hw.sort();
            lin.sort();
            if hw != lin {
                return Err(Invalid::block(
                    bi,
                    format!("linear successors {lin:?} differ from the branches' {hw:?}"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use gpuabi_amdgpu::{Imm, MemMods, Opcode, Operand};

    use super::*;
    use crate::mir::{Block, BlockId, MInst, Temp};

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

    fn imm(v: i64) -> Opnd {
        Opnd::Fixed(Operand::Imm(Imm::Int(v)))
    }

    /// A uniform diamond: BB0 branches to BB2 or falls into BB1, both reach BB3. `then`
    /// and `join` are the instructions of BB1 and of BB3 (before `s_endpgm`).
    fn diamond(f: &mut Function, then: Vec<MInst>, join: Vec<MInst>) {
        f.blocks = vec![Block::default(); 4];
        f.blocks[0].insts = vec![hw(Opcode::SCbranchScc0, vec![Opnd::Block(BlockId(2))])];
        f.blocks[1].insts = then;
        f.blocks[1]
            .insts
            .push(hw(Opcode::SBranch, vec![Opnd::Block(BlockId(3))]));
        f.blocks[3].insts = join;
        f.blocks[3].insts.push(hw(Opcode::SEndpgm, vec![]));
        crate::control_flow::build(f).expect("edges");
    }

    fn s(f: &Function, t: Temp) -> Opnd {
        Opnd::Temp(f.whole(t))
    }

    #[test]
    fn a_second_write_is_not_ssa() {
        let mut f = Function::new("k");
        let t = f.temp(RegFile::Sgpr, 1, 1);
        let (a, b) = (
            hw(Opcode::SMovB32, vec![s(&f, t), imm(1)]),
            hw(Opcode::SMovB32, vec![s(&f, t), imm(2)]),
        );
        diamond(&mut f, vec![a, b], vec![]);
        let e = validate_ssa(&f).unwrap_err();
        assert!(e.to_string().contains("written a second time"), "{e}");
    }

    #[test]
    fn a_read_needs_a_dominating_write() {
        let mut f = Function::new("k");
        let (t, u) = (f.temp(RegFile::Sgpr, 1, 1), f.temp(RegFile::Sgpr, 1, 1));
        let def = hw(Opcode::SMovB32, vec![s(&f, t), imm(1)]);
        let read = hw(Opcode::SMovB32, vec![s(&f, u), s(&f, t)]);
        // Written in one arm, read after the join: BB1 does not dominate BB3.
        diamond(&mut f, vec![def.clone()], vec![read.clone()]);
        let e = validate_ssa(&f).unwrap_err();
        assert!(e.to_string().contains("does not dominate"), "{e}");
        // Written before the branch: fine.
        diamond(&mut f, vec![], vec![read]);
        f.blocks[0].insts.insert(0, def);
        assert_eq!(validate_ssa(&f), Ok(()));
    }

    #[test]
    fn a_phi_has_one_source_per_predecessor() {
        let mut f = Function::new("k");
        let (t, m) = (f.temp(RegFile::Sgpr, 1, 1), f.temp(RegFile::Sgpr, 1, 1));
        let def = hw(Opcode::SMovB32, vec![s(&f, t), imm(1)]);
        // As instruction selection gives it: each source after its predecessor.
        let phi = MInst::pseudo(
            Pseudo::LinearPhi,
            [
                s(&f, m),
                Opnd::Block(BlockId(2)),
                imm(0),
                Opnd::Block(BlockId(1)),
                s(&f, t),
            ],
            Default::default(),
        );
        f.blocks[0].insts.push(def);
        let mut g = f.clone();
        diamond(&mut g, vec![], vec![phi]);
        g.blocks[0].insts.insert(0, f.blocks[0].insts[0].clone());
        // Ordered as the predecessors, BB1 then BB2.
        assert_eq!(g.blocks[3].insts[0].opnds[1..], [s(&g, t), imm(0)]);
        assert_eq!(validate_cfg(&g, true), Ok(()));
        assert_eq!(validate_ssa(&g), Ok(()));
        g.blocks[3].insts[0].opnds.pop();
        let e = validate_cfg(&g, true).unwrap_err();
        assert!(
            e.to_string().contains("1 sources for 2 predecessors"),
            "{e}"
        );
    }
}
