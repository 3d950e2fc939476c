//! Wait-count insertion: after lowering, where every operand is a register, `s_waitcnt`
//! goes where a loaded register is first read or overwritten, not after every load, so
//! that a load's latency overlaps the work that does not need it.
//!
//! The pass follows Mesa's `aco_insert_waitcnt.cpp`. Every register written by an
//! outstanding memory operation has an entry: per counter
//! ([`gpuabi_amdgpu::wait_events::Counter`]), the count at which the operation is known
//! complete, and the kinds of operation it waits for. A new operation of an ordered kind
//! raises the count of the entries waiting for that kind alone (`update_counters`): it
//! completes after them, so a wait may leave it outstanding. An entry of a kind that
//! completes in any order (scalar memory) keeps the count 0. Before an instruction that
//! reads or writes a register with an entry, the pass waits for that entry's counts (a
//! load overwriting the destination of an older load of the same ordered kind needs no
//! wait: they write in issue order, `check_instr`); before `s_setpc_b64` and
//! `s_swappc_b64` it waits for every entry (`kill`), so that a callee starts, and a
//! caller resumes, with no load outstanding. A wait removes the entries it covers.
//!
//! Over the control flow, the state entering a block joins the states leaving its
//! predecessors (an entry in any of them, the smaller count, the union of kinds),
//! repeated over loops until nothing changes.
//!
//! Flat accesses (global memory on GCN 1.2) count in `lgkmcnt` too, but gpuabi's flat
//! accesses only reach global memory, whose data returns on `vmcnt`: as ACO does for a
//! flat access without `may_use_lds`, only `vmcnt` is waited on.
//!
//! RDNA 4 (`gfx12`) has no `s_waitcnt`: it waits on each counter by itself
//! (`s_wait_loadcnt`, `s_wait_storecnt`, `s_wait_dscnt`, `s_wait_kmcnt`; "RDNA 4 Instruction
//! Set Architecture", and ACO's `wait_imm::build` for GFX12). There the pass keeps LDS
//! accesses apart from scalar memory in a counter of their own ([`DS`]), since DScnt and
//! KMcnt are separate counters, and emits one wait per counter it needs.
//!
//! No `s_waitcnt_vscnt` is needed: no register waits for a store, gpuabi's programs have
//! no barriers or atomics that would publish stores to other waves, and ACO's convention,
//! which this pass follows, waits for no store at calls and returns.

use crate::error::PassError;
use crate::mir::Function;
use crate::pipeline::Context;
use gpuabi_amdgpu::wait_events::{self, Counter, Event, Events};
use gpuabi_amdgpu::{Effects, Inst, Opcode, Operand, Target, Waitcnt};
use gpuabi_layout::reg::RegFile;

use crate::lower_to_hw::{block_label, HwBlock, HwInst};
use crate::mir::AbiCost;

/// No wait on a counter.
const UNSET: u16 = u16::MAX;
/// The counters the pass tracks: [`Counter`]'s four, then RDNA 4's DScnt, which counts the
/// LDS accesses that `lgkmcnt` counts on older targets.
const COUNTERS: usize = 5;
/// The index of RDNA 4's DScnt among the pass's counters.
const DS: usize = 4;
/// Registers tracked: SGPRs 0-127, then VGPRs 0-255.
const REGS: usize = 128 + 256;

/// What a register waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// Per counter: the count at which the operations writing it are complete.
    imm: [u16; COUNTERS],
    /// Per counter: the kinds of those operations, a bit per [`Event`].
    events: [u8; COUNTERS],
}

const NONE: Entry = Entry {
    imm: [UNSET; COUNTERS],
    events: [0; COUNTERS],
};

/// Counts per counter of the pass.
type Counts = [u16; COUNTERS];

impl Entry {
    fn is_none(&self) -> bool {
        self.imm == [UNSET; COUNTERS]
    }

    fn unordered(&self) -> bool {
        self.events.iter().any(|e| e & bit(Event::Smem) != 0)
    }
}

fn bit(e: Event) -> u8 {
    1 << e as u8
}

/// The entries of every register.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    regs: Vec<Entry>,
}

impl State {
    fn empty() -> State {
        State {
            regs: vec![NONE; REGS],
        }
    }

    /// Joins `other` into `self`.
    fn join(&mut self, other: &State) {
        for (a, b) in self.regs.iter_mut().zip(&other.regs) {
            for c in 0..COUNTERS {
                a.imm[c] = a.imm[c].min(b.imm[c]);
                a.events[c] |= b.events[c];
            }
        }
    }

    /// Removes what a wait for `counts` covers.
    fn apply(&mut self, counts: &Counts) {
        for e in self.regs.iter_mut().filter(|e| !e.is_none()) {
            for (c, &n) in counts.iter().enumerate() {
                if n != UNSET && e.imm[c] != UNSET && e.imm[c] >= n {
                    e.imm[c] = UNSET;
                    e.events[c] = 0;
                }
            }
        }
    }
}

/// The register slots of a register operand.
fn slots(op: &Operand) -> Option<std::ops::Range<usize>> {
    let Operand::Reg(r) = op else { return None };
    let base = match r.file() {
        RegFile::Sgpr => 0,
        RegFile::Vgpr => 128,
    };
    let first = base + r.first.num as usize;
    Some(first..(first + r.count as usize).min(REGS))
}

/// What a memory instruction counts in, for waits, per counter of the pass: a flat
/// access's `lgkmcnt` part is left out (see the module documentation), and on RDNA 4 an LDS
/// access counts in DScnt rather than `lgkmcnt`.
fn parts(inst: &Inst, target: Target) -> Option<[Option<Event>; COUNTERS]> {
    let e: Events = wait_events::events(inst.op, inst.mods.glc, target)?;
    let mut out = [None; COUNTERS];
    for (c, p) in e.into_iter().enumerate() {
        match p {
            Some(Event::Flat) => {}
            Some(Event::Lds) if target == Target::Gfx12 => out[DS] = p,
            _ => out[c] = p,
        }
    }
    Some(out)
}

/// The pass over one function.
struct Pass {
    target: Target,
    /// Per counter, the largest count kept in an entry (one below the field's maximum,
    /// which means "no wait").
    cap: Counts,
}

impl Pass {
    fn new(target: Target) -> Pass {
        let mut cap = [0u16; COUNTERS];
        if target == Target::Gfx12 {
            // The 6-bit LOADcnt, STOREcnt and DScnt and the 5-bit KMcnt of the RDNA 4
            // guide's `S_WAIT_*` (LLVM's `getLoadcntBitMask` and siblings for GFX12).
            cap = [62; COUNTERS];
            cap[Counter::Lgkm as usize] = 30;
        } else {
            let (vm, exp, lgkm) = gpuabi_amdgpu::encode::waitcnt_max(target);
            cap[Counter::Vm as usize] = u16::from(vm) - 1;
            cap[Counter::Exp as usize] = u16::from(exp) - 1;
            cap[Counter::Lgkm as usize] = u16::from(lgkm) - 1;
            cap[Counter::Vs as usize] = 62;
        }
        Pass { target, cap }
    }

    /// The counts `inst` needs waited for before it runs.
    fn needs(&self, state: &State, inst: &Inst) -> Counts {
        let mut need = [UNSET; COUNTERS];
        let mut combine = |e: &Entry, skip: [bool; COUNTERS]| {
            for c in 0..COUNTERS {
                if !skip[c] {
                    need[c] = need[c].min(e.imm[c]);
                }
            }
        };
        if matches!(inst.op, Opcode::SSetpcB64 | Opcode::SSwappcB64) {
            for e in &state.regs {
                combine(e, [false; COUNTERS]);
            }
        }
        let new = parts(inst, self.target);
        let dsts = inst.dsts().len();
        for (k, op) in inst.operands.iter().enumerate() {
            let write = k < dsts;
            for r in slots(op).into_iter().flatten() {
                let e = &state.regs[r];
                if e.is_none() {
                    continue;
                }
                // Overwriting the destination of older loads of the same ordered kind.
                let mut skip = [false; COUNTERS];
                if let (true, Some(new)) = (write, new) {
                    for c in 0..COUNTERS {
                        skip[c] = matches!(new[c], Some(k) if k.ordered() && e.events[c] == bit(k));
                    }
                }
                combine(e, skip);
            }
        }
        need
    }

    /// Records that `inst` has been issued: the events it will signal are pending.
    fn gen(&self, state: &mut State, inst: &Inst) {
        let Some(parts) = parts(inst, self.target) else {
            return;
        };
        let ordered = parts.iter().flatten().all(|k| k.ordered());
        if ordered {
            for e in state
                .regs
                .iter_mut()
                .filter(|e| !e.is_none() && !e.unordered())
            {
                for (c, k) in parts.iter().enumerate() {
                    if let Some(k) = k {
                        if e.imm[c] != UNSET && e.events[c] == bit(*k) {
                            e.imm[c] = (e.imm[c] + 1).min(self.cap[c]);
                        }
                    }
                }
            }
        }
        if inst.dsts().is_empty() {
            return;
        }
        for r in slots(&inst.operands[0]).into_iter().flatten() {
            let e = &mut state.regs[r];
            for (c, k) in parts.iter().enumerate() {
                if let Some(k) = k {
                    e.imm[c] = 0;
                    e.events[c] |= bit(*k);
                }
            }
        }
    }

    /// Runs one block from `state`; with `out`, writes the block with its waits there.
    fn block(&self, state: &mut State, insts: &[HwInst], mut out: Option<&mut HwBlock>) {
        let mut queued = [UNSET; COUNTERS];
        for h in insts {
            if let Some(w) = wait_of(&h.inst) {
                // A wait already there joins the next one placed.
                for c in 0..COUNTERS {
                    queued[c] = queued[c].min(w[c]);
                }
                continue;
            }
            let need = self.needs(state, &h.inst);
            for c in 0..COUNTERS {
                queued[c] = queued[c].min(need[c]);
            }
            if queued != [UNSET; COUNTERS] {
                state.apply(&queued);
                if let Some(out) = out.as_deref_mut() {
                    emit_wait(out, &queued, h, self.target);
                }
                queued = [UNSET; COUNTERS];
            }
            self.gen(state, &h.inst);
            if let Some(out) = out.as_deref_mut() {
                out.push(h.clone());
            }
        }
        if queued != [UNSET; COUNTERS] {
            state.apply(&queued);
            if let (Some(out), Some(last)) = (out, insts.last()) {
                emit_wait(out, &queued, last, self.target);
            }
        }
    }
}

/// The counts of a wait instruction.
fn wait_of(inst: &Inst) -> Option<Counts> {
    let mut w = [UNSET; COUNTERS];
    let imm = |i: usize| match inst.operands.get(i) {
        Some(Operand::Imm(i)) => i.value32().map_or(0, |v| v.min(62) as u16),
        _ => 0,
    };
    match (inst.op, inst.operands.first()) {
        (Opcode::SWaitLoadcnt, _) => w[Counter::Vm as usize] = imm(0),
        (Opcode::SWaitStorecnt, _) => w[Counter::Vs as usize] = imm(0),
        (Opcode::SWaitKmcnt, _) => w[Counter::Lgkm as usize] = imm(0),
        (Opcode::SWaitDscnt, _) => w[DS] = imm(0),
        (Opcode::SWaitcnt, Some(Operand::Waitcnt(c))) => {
            let f = |v: Option<u8>| v.map_or(UNSET, u16::from);
            w[Counter::Vm as usize] = f(c.vmcnt);
            w[Counter::Exp as usize] = f(c.expcnt);
            w[Counter::Lgkm as usize] = f(c.lgkmcnt);
        }
        (Opcode::SWaitcntVscnt, _) => w[Counter::Vs as usize] = imm(1),
        _ => return None,
    }
    Some(w)
}

fn emit_wait(out: &mut HwBlock, counts: &Counts, before: &HwInst, target: Target) {
    let push = |out: &mut HwBlock, inst: Inst| {
        out.push(HwInst {
            inst,
            origin: before.origin,
            cost: AbiCost::None,
        })
    };
    if target == Target::Gfx12 {
        for (c, op) in [
            (Counter::Vm as usize, Opcode::SWaitLoadcnt),
            (Counter::Vs as usize, Opcode::SWaitStorecnt),
            (DS, Opcode::SWaitDscnt),
            (Counter::Lgkm as usize, Opcode::SWaitKmcnt),
        ] {
            if counts[c] != UNSET {
                let n = gpuabi_amdgpu::Imm::Int(i64::from(counts[c]));
                push(out, Inst::new(op, [Operand::Imm(n)]));
            }
        }
        return;
    }
    let c = |k: Counter| (counts[k as usize] != UNSET).then_some(counts[k as usize] as u8);
    let w = Waitcnt {
        vmcnt: c(Counter::Vm),
        expcnt: c(Counter::Exp),
        lgkmcnt: c(Counter::Lgkm),
    };
    if w != Waitcnt::default() {
        push(out, Inst::new(Opcode::SWaitcnt, [Operand::Waitcnt(w)]));
    }
    if let Some(vs) = c(Counter::Vs) {
        let operands = [
            Operand::Special(gpuabi_amdgpu::Special::Null),
            Operand::Imm(gpuabi_amdgpu::Imm::Int(i64::from(vs))),
        ];
        push(out, Inst::new(Opcode::SWaitcntVscnt, operands));
    }
}

/// The blocks control may reach from each block: branch targets, and the next block
/// unless the block ends in an instruction that never continues.
fn successors(name: &str, blocks: &[HwBlock]) -> Vec<Vec<usize>> {
    let index = |label: &str| (0..blocks.len()).find(|&b| block_label(name, b as u32) == label);
    (0..blocks.len())
        .map(|b| {
            let mut out = Vec::new();
            for h in &blocks[b] {
                if !h.inst.op.info().effects.contains(Effects::BRANCH) {
                    continue;
                }
                for op in &h.inst.operands {
                    if let Operand::Expr(e) = op {
                        if let Some(t) = e.minus.is_none().then(|| index(&e.plus)).flatten() {
                            out.push(t);
                        }
                    }
                }
            }
            // An empty block falls through to the next.
            let ends = blocks[b]
                .last()
                .is_some_and(|h| h.inst.op.info().effects.contains(Effects::TERMINATOR));
            if !ends && b + 1 < blocks.len() {
                out.push(b + 1);
            }
            out
        })
        .collect()
}

/// Inserts the waits of function `name` (its lowered blocks, block 0 its entry).
pub fn insert(name: &str, blocks: &mut [HwBlock], target: Target) {
    let pass = Pass::new(target);
    let succs = successors(name, blocks);
    let mut preds = vec![Vec::new(); blocks.len()];
    for (b, s) in succs.iter().enumerate() {
        for &t in s {
            preds[t].push(b);
        }
    }
    let mut out_state: Vec<Option<State>> = vec![None; blocks.len()];
    // Forward passes in block order until no state leaving a block changes: each pass
    // only lowers counts and adds entries and kinds, which are bounded, so this ends.
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..blocks.len() {
            let mut state = entry_state(b, &preds[b], &out_state);
            pass.block(&mut state, &blocks[b], None);
            if out_state[b].as_ref() != Some(&state) {
                out_state[b] = Some(state);
                changed = true;
            }
        }
    }
    for b in 0..blocks.len() {
        let mut state = entry_state(b, &preds[b], &out_state);
        let mut out = HwBlock::with_capacity(blocks[b].len() + 4);
        pass.block(&mut state, &blocks[b], Some(&mut out));
        blocks[b] = out;
    }
}

fn entry_state(b: usize, preds: &[usize], out_state: &[Option<State>]) -> State {
    let mut state = State::empty();
    if b != 0 {
        for p in preds {
            if let Some(s) = &out_state[*p] {
                state.join(s);
            }
        }
    }
    state
}

/// The pass: places the waits in the lowered code (a function given as machine IR whose
/// every operand is a register is taken as lowered code).
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    if ctx.hw.is_none() {
        let hw = crate::lower_to_hw::from_machine_ir(f)
            .map_err(|e| PassError::unexpected("insert_waitcnt", f, e))?;
        ctx.hw = Some(hw);
    }
    let hw = ctx.hw.as_mut().expect("set above");
    insert(&f.name, hw, ctx.opts.target);
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Hand-written blocks; the expected waits are derived by hand from the counters'
    //! rules in the module documentation.

    use super::*;
    use gpuabi_amdgpu::{Expr, Imm};
    use gpuabi_layout::reg::RegRange;

    const F: &str = "f";

    fn v(n: u16, count: u16) -> Operand {
        Operand::Reg(RegRange::new(RegFile::Vgpr, n, count))
    }

    fn s(n: u16, count: u16) -> Operand {
        Operand::Reg(RegRange::new(RegFile::Sgpr, n, count))
    }

    fn hw(op: Opcode, operands: impl IntoIterator<Item = Operand>) -> HwInst {
        HwInst {
            inst: Inst::new(op, operands),
            origin: Default::default(),
            cost: AbiCost::None,
        }
    }

    fn load(dst: u16) -> HwInst {
        hw(Opcode::GlobalLoadDword, [v(dst, 1), v(0, 2), Operand::Off])
    }

    fn mov(dst: u16, src: u16) -> HwInst {
        hw(Opcode::VMovB32, [v(dst, 1), v(src, 1)])
    }

    fn branch(op: Opcode, to: u32) -> HwInst {
        hw(
            op,
            [Operand::Expr(Box::new(Expr::label(block_label(F, to))))],
        )
    }

    fn run(target: Target, mut blocks: Vec<HwBlock>) -> Vec<Vec<String>> {
        insert(F, &mut blocks, target);
        blocks
            .iter()
            .map(|b| {
                b.iter()
                    .map(|h| gpuabi_amdgpu::asm::printer::print_inst(&h.inst, target))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn in_order_loads_wait_with_a_count() {
        // Two loads, then the first one's value: one younger load may stay outstanding.
        let out = run(
            Target::Gfx1030,
            vec![vec![load(2), load(3), mov(4, 2), mov(5, 3), mov(6, 2)]],
        );
        assert_eq!(
            out[0],
            [
                "global_load_dword v2, v[0:1], off",
                "global_load_dword v3, v[0:1], off",
                "s_waitcnt vmcnt(1)",
                "v_mov_b32 v4, v2",
                "s_waitcnt vmcnt(0)",
                "v_mov_b32 v5, v3",
                "v_mov_b32 v6, v2",
            ]
        );
    }

    #[test]
    fn scalar_loads_wait_for_zero() {
        // Scalar loads return in any order: the first one's value needs lgkmcnt(0).
        let sload = |d: u16| {
            hw(
                Opcode::SLoadDword,
                [s(d, 1), s(0, 2), Operand::Imm(Imm::Int(0))],
            )
        };
        let out = run(
            Target::Gfx1100,
            vec![vec![
                sload(4),
                sload(5),
                hw(Opcode::SMovB32, [s(6, 1), s(4, 1)]),
                hw(Opcode::SMovB32, [s(7, 1), s(5, 1)]),
            ]],
        );
        assert_eq!(
            out[0],
            [
                "s_load_b32 s4, s[0:1], 0",
                "s_load_b32 s5, s[0:1], 0",
                "s_waitcnt lgkmcnt(0)",
                "s_mov_b32 s6, s4",
                "s_mov_b32 s7, s5",
            ]
        );
    }

    #[test]
    fn flat_loads_of_gcn_wait_on_vmcnt_only() {
        let fload = |d: u16| hw(Opcode::FlatLoadDword, [v(d, 1), v(0, 2)]);
        let out = run(Target::Gfx8, vec![vec![fload(2), fload(3), mov(4, 2)]]);
        assert_eq!(
            out[0],
            [
                "flat_load_dword v2, v[0:1]",
                "flat_load_dword v3, v[0:1]",
                "s_waitcnt vmcnt(1)",
                "v_mov_b32 v4, v2",
            ]
        );
    }

    #[test]
    fn overwrites() {
        // A later load may overwrite an outstanding load's register (in-order writes); an
        // ALU instruction may not. A store's data register is free once issued.
        let store = hw(Opcode::GlobalStoreDword, [v(0, 2), v(7, 1), Operand::Off]);
        let out = run(
            Target::Gfx1100,
            vec![vec![load(2), load(2), store, mov(7, 0), mov(2, 0)]],
        );
        assert_eq!(
            out[0],
            [
                "global_load_b32 v2, v[0:1], off",
                "global_load_b32 v2, v[0:1], off",
                "global_store_b32 v[0:1], v7, off",
                "v_mov_b32 v7, v0",
                "s_waitcnt vmcnt(0)",
                "v_mov_b32 v2, v0",
            ]
        );
    }

    #[test]
    fn joins_and_loops() {
        // Block 0 loads v2 and may skip block 1; block 1 reads v2, then the loop of
        // blocks 2-3 reads v3 before loading it again. Block 2 is entered with v2
        // outstanding from block 0 (joined with block 1's state, where it is done), and
        // with v3 outstanding from the back edge.
        let out = run(
            Target::Gfx1030,
            vec![
                vec![load(2), load(3), branch(Opcode::SCbranchScc0, 2)],
                vec![mov(4, 2)],
                vec![mov(5, 2), mov(6, 3)],
                vec![load(3), branch(Opcode::SCbranchScc1, 2)],
                vec![hw(Opcode::SEndpgm, [])],
            ],
        );
        assert_eq!(
            out,
            [
                vec![
                    "global_load_dword v2, v[0:1], off",
                    "global_load_dword v3, v[0:1], off",
                    "s_cbranch_scc0 .Lf_2",
                ],
                vec!["s_waitcnt vmcnt(1)", "v_mov_b32 v4, v2"],
                vec![
                    "s_waitcnt vmcnt(1)",
                    "v_mov_b32 v5, v2",
                    "s_waitcnt vmcnt(0)",
                    "v_mov_b32 v6, v3",
                ],
                vec!["global_load_dword v3, v[0:1], off", "s_cbranch_scc1 .Lf_2"],
                vec!["s_endpgm"],
            ]
        );
    }

    #[test]
    fn rdna4_waits_on_each_counter() {
        // A scalar load, two LDS loads and a global load, then their values in turn: RDNA 4
        // counts the LDS loads in DScnt apart from the scalar load's KMcnt, so the first
        // LDS value needs dscnt 1 (the younger LDS load may stay outstanding) where RDNA 3's
        // shared lgkmcnt would also count the scalar load; the global load waits on
        // LOADcnt, and a store is not waited for.
        let sload = hw(
            Opcode::SLoadDword,
            [s(4, 1), s(0, 2), Operand::Imm(Imm::Int(0))],
        );
        let ds = |d: u16| hw(Opcode::DsReadB32, [v(d, 1), v(1, 1)]);
        let store = hw(Opcode::GlobalStoreDword, [v(0, 2), v(9, 1), Operand::Off]);
        let out = run(
            Target::Gfx12,
            vec![vec![
                sload,
                ds(2),
                ds(3),
                load(5),
                store,
                mov(6, 2),
                hw(Opcode::SMovB32, [s(5, 1), s(4, 1)]),
                mov(7, 5),
                mov(8, 3),
            ]],
        );
        assert_eq!(
            out[0],
            [
                "s_load_b32 s4, s[0:1], 0",
                "ds_load_b32 v2, v1",
                "ds_load_b32 v3, v1",
                "global_load_b32 v5, v[0:1], off",
                "global_store_b32 v[0:1], v9, off",
                "s_wait_dscnt 1",
                "v_mov_b32 v6, v2",
                "s_wait_kmcnt 0",
                "s_mov_b32 s5, s4",
                "s_wait_loadcnt 0",
                "v_mov_b32 v7, v5",
                "s_wait_dscnt 0",
                "v_mov_b32 v8, v3",
            ]
        );
    }

    #[test]
    fn returns_and_calls_wait_for_every_load() {
        let out = run(
            Target::Gfx1100,
            vec![vec![
                load(2),
                hw(Opcode::SSwappcB64, [s(30, 2), s(4, 2)]),
                load(3),
                hw(Opcode::SSetpcB64, [s(30, 2)]),
            ]],
        );
        assert_eq!(
            out[0],
            [
                "global_load_b32 v2, v[0:1], off",
                "s_waitcnt vmcnt(0)",
                "s_swappc_b64 s[30:31], s[4:5]",
                "global_load_b32 v3, v[0:1], off",
                "s_waitcnt vmcnt(0)",
                "s_setpc_b64 s[30:31]",
            ]
        );
    }
}
