//! Uniformity (divergence) analysis: which values are the same in every active lane of a
//! wave.
//!
//! The rules are gpuabi's own, modelled on Mesa's NIR divergence analysis
//! (`src/compiler/nir/nir_divergence_analysis.c`) and LLVM's `UniformityAnalysis`
//! (`llvm/lib/Analysis/UniformityAnalysis.cpp`), specialised to the IR's structured control
//! flow. "Uniform" means: equal in all lanes that execute the definition together.
//!
//! * Uniform sources: literals and `const`, `group_id`, `group_size`, `num_groups`,
//!   `global_size`, `work_dim`, `global_offset`, `func_addr` and `alloca` (the handle; the
//!   array contents are per lane). Every parameter of a `kernel` is uniform (kernel
//!   arguments are the same for all work-items, with or without the `uniform` attribute); a
//!   parameter of any other function is uniform exactly when it has the `uniform`
//!   attribute (the caller's promise, which the verifier checks at every call).
//! * Divergent sources: `local_id`, `global_id`, the results of every direct and indirect
//!   call, and every `sload` (stack arrays are per lane).
//! * Every other operation is uniform iff all its operands are. This includes the global
//!   loads: a load from a uniform address is uniform. Programs in which lanes race on one
//!   address (one lane stores while another loads it, in the same wave) are outside the
//!   semantics, which are defined per invocation; for them the analysis may call a value
//!   uniform that the hardware gives differently per lane.
//! * `if`: when the condition is divergent, all results of the `if` are divergent;
//!   otherwise a result is uniform iff the operand every `yield` gives for it is uniform.
//! * Loops: a loop is divergent iff one of its own `break`/`continue` instructions lies
//!   inside an `if` with a divergent condition, counting the `if`s between the instruction
//!   and the loop (at any depth, but not beyond the loop; `break`/`continue` always belong
//!   to their innermost loop). Lanes then leave the loop or start a new iteration at
//!   different times, so all variables and results of a divergent loop are divergent. In a
//!   uniform loop a variable is uniform iff its initial value and every `continue` operand
//!   for it are uniform, and a result is uniform iff every `break` operand for it is.
//! * A `ret` or `unreachable` under a divergent `if` only removes lanes: the remaining
//!   lanes still agree on every uniform value.
//! * A value defined inside an `if` arm or a loop body is visible only there (the
//!   verifier's scoping), so values leave a construct only as its results, which the rules
//!   above cover: a value computed inside a divergent loop from uniform values is uniform
//!   among the lanes running each iteration, and no use can see it after lanes left the
//!   loop at different iterations (LLVM's "temporal divergence" cannot arise).
//!
//! Loop-carried values make the rules recursive; the analysis starts from "everything
//! uniform" and repeats over the function until nothing changes (values only ever move
//! from uniform to divergent, so this ends).

use crate::cfg::LoopId;
use crate::ir::{Function, Instr, InstrKind, Module, Opcode, Operand, Region, Value};

/// Why a value is divergent: its direct cause (follow [`Divergence::Operand`] and the
/// condition values to the root cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Divergence {
    /// A parameter of a function that is not a kernel, without the `uniform` attribute.
    Parameter,
    /// The result of `local_id` or `global_id`.
    LaneId(Opcode),
    /// The result of a direct or indirect call.
    CallResult,
    /// The result of an `sload`.
    StackLoad,
    /// Computed from, yielded as, or passed by `continue`/`break` or a loop's initial
    /// values from this divergent value.
    Operand(Value),
    /// A result of an `if` whose condition (this value) is divergent.
    IfCondition(Value),
    /// A variable or result of a divergent loop.
    Loop(LoopId),
}

/// The result of [`analyze`] for one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uniformity {
    /// Cause of divergence of each value; `None` for uniform values.
    values: Vec<Option<Divergence>>,
    /// For each loop (numbered in the order the loops are written, as
    /// [`crate::cfg::Cfg::loops`]): the divergent `if` condition a `break`/`continue` of
    /// the loop depends on, when the loop is divergent.
    loops: Vec<Option<Value>>,
}

impl Uniformity {
    /// True when `v` is the same in every active lane.
    pub fn is_uniform(&self, v: Value) -> bool {
        self.divergence(v).is_none()
    }

    /// True for literals and uniform values.
    pub fn is_uniform_operand(&self, op: &Operand) -> bool {
        match op {
            Operand::Value(v) => self.is_uniform(*v),
            Operand::Imm { .. } => true,
        }
    }

    /// Why `v` is divergent, or `None` when it is uniform.
    pub fn divergence(&self, v: Value) -> Option<Divergence> {
        self.values.get(v.index()).copied().flatten()
    }

    /// True when lanes may leave loop `l` (numbered as [`crate::cfg::Cfg::loops`]) or
    /// start its next iteration at different times.
    pub fn is_divergent_loop(&self, l: LoopId) -> bool {
        self.loops.get(l.0 as usize).is_some_and(|c| c.is_some())
    }

    /// Explains in words why `v` is divergent, following the causes to the root, e.g.
    /// "`%y` is computed from `%i`; `%i` is the result of `global_id`, which differs
    /// between work-items". Empty for a uniform value.
    pub fn explain(&self, f: &Function, v: Value) -> String {
        let mut parts = Vec::new();
        let mut at = v;
        // Causes point to values marked earlier, so the chain ends; the bound keeps the
        // text short.
        for _ in 0..8 {
            let Some(d) = self.divergence(at) else {
                break;
            };
            let name = format!("`%{}`", f.value_name(at));
            let (text, next) = match d {
                Divergence::Parameter => (
                    format!("{name} is a parameter without `uniform` of a function that is not a kernel"),
                    None,
                ),
                Divergence::LaneId(op) => (
                    format!("{name} is the result of `{}`, which differs between work-items", op.name()),
                    None,
                ),
                Divergence::CallResult => (
                    format!("{name} is the result of a call (call results are divergent)"),
                    None,
                ),
                Divergence::StackLoad => (
                    format!("{name} is loaded from a stack array (`sload` is divergent)"),
                    None,
                ),
                Divergence::Operand(w) => (
                    format!("{name} depends on `%{}`", f.value_name(w)),
                    Some(w),
                ),
                Divergence::IfCondition(c) => (
                    format!(
                        "{name} is a result of an `if` on the divergent condition `%{}`",
                        f.value_name(c)
                    ),
                    Some(c),
                ),
                Divergence::Loop(l) => {
                    let c = self.loops.get(l.0 as usize).copied().flatten();
                    let cond = c.map_or(String::new(), |c| {
                        format!(" on the divergent condition `%{}`", f.value_name(c))
                    });
                    (
                        format!(
                            "{name} belongs to a loop that lanes leave at different times (a `break` or `continue` under an `if`{cond})"
                        ),
                        c,
                    )
                }
            };
            parts.push(text);
            match next {
                Some(n) => at = n,
                None => break,
            }
        }
        parts.join("; ")
    }
}

/// Analyses one function of `module`. The function must have passed the verifier's
/// structural checks (values in range, `break`/`continue` inside loops); for others the
/// result is unspecified but the analysis does not panic. The module is not consulted by
/// today's rules (every call result is divergent) and is taken so that interprocedural
/// rules can be added without changing callers.
pub fn analyze(_module: &Module, f: &Function) -> Uniformity {
    let mut a = Analysis {
        values: vec![None; f.values.len()],
        loops: Vec::new(),
        changed: false,
        ctx: Vec::new(),
        next_loop: 0,
    };
    if !f.attrs.kernel {
        for p in &f.params {
            if !p.attrs.uniform {
                a.mark(p.value, Divergence::Parameter);
            }
        }
    }
    loop {
        a.changed = false;
        a.next_loop = 0;
        a.region(&f.body);
        if !a.changed {
            break;
        }
    }
    Uniformity {
        values: a.values,
        loops: a.loops,
    }
}

/// The constructs around the instruction being looked at, innermost last.
enum Ctx<'f> {
    /// An `if`, with its condition when that is divergent.
    If(Option<Value>),
    /// A loop: its number, variables and results.
    Loop {
        id: LoopId,
        params: &'f [Value],
        results: &'f [Value],
    },
}

struct Analysis<'f> {
    values: Vec<Option<Divergence>>,
    loops: Vec<Option<Value>>,
    changed: bool,
    ctx: Vec<Ctx<'f>>,
    next_loop: u32,
}

impl<'f> Analysis<'f> {
    fn mark(&mut self, v: Value, why: Divergence) {
        if let Some(slot) = self.values.get_mut(v.index()) {
            if slot.is_none() {
                *slot = Some(why);
                self.changed = true;
            }
        }
    }

    /// The divergent value among `ops`, if any.
    fn divergent(&self, ops: &[Operand]) -> Option<Value> {
        ops.iter().find_map(|o| match o {
            Operand::Value(v) if self.values.get(v.index()).is_some_and(|d| d.is_some()) => {
                Some(*v)
            }
            _ => None,
        })
    }

    fn region(&mut self, r: &'f Region) {
        for i in &r.instrs {
            self.instr(i);
        }
    }

    fn instr(&mut self, i: &'f Instr) {
        match &i.kind {
            InstrKind::Op(op) => {
                let why = match op.opcode {
                    Opcode::LocalId | Opcode::GlobalId => Some(Divergence::LaneId(op.opcode)),
                    Opcode::Sload => Some(Divergence::StackLoad),
                    _ => self.divergent(&op.args).map(Divergence::Operand),
                };
                if let Some(why) = why {
                    for v in &i.results {
                        self.mark(*v, why);
                    }
                }
            }
            InstrKind::Call { .. } | InstrKind::CallIndirect { .. } => {
                for v in &i.results {
                    self.mark(*v, Divergence::CallResult);
                }
            }
            InstrKind::FuncAddr { .. } => {}
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => {
                let div_cond = self.divergent(std::slice::from_ref(cond));
                self.ctx.push(Ctx::If(div_cond));
                self.region(then_region);
                self.region(else_region);
                self.ctx.pop();
                for (k, v) in i.results.iter().enumerate() {
                    if let Some(c) = div_cond {
                        self.mark(*v, Divergence::IfCondition(c));
                        continue;
                    }
                    for arm in [then_region, else_region] {
                        if let Some(Instr {
                            kind: InstrKind::Yield(ops),
                            ..
                        }) = arm.instrs.last()
                        {
                            if let Some(w) = self.divergent(ops.get(k..k + 1).unwrap_or(&[])) {
                                self.mark(*v, Divergence::Operand(w));
                            }
                        }
                    }
                }
            }
            InstrKind::Loop { params, init, body } => {
                let id = LoopId(self.next_loop);
                self.next_loop += 1;
                if self.loops.len() <= id.0 as usize {
                    self.loops.resize(id.0 as usize + 1, None);
                }
                for (p, init) in params.iter().zip(init) {
                    if let Some(w) = self.divergent(std::slice::from_ref(init)) {
                        self.mark(*p, Divergence::Operand(w));
                    }
                }
                self.ctx.push(Ctx::Loop {
                    id,
                    params,
                    results: &i.results[..],
                });
                self.region(body);
                self.ctx.pop();
                if self.loops[id.0 as usize].is_some() {
                    for v in params.iter().chain(&i.results) {
                        self.mark(*v, Divergence::Loop(id));
                    }
                }
            }
            InstrKind::Break(ops) | InstrKind::Continue(ops) => {
                let is_break = matches!(i.kind, InstrKind::Break(_));
                // The innermost loop, and the first divergent condition on the way to it.
                let mut cond = None;
                let mut target = None;
                for c in self.ctx.iter().rev() {
                    match c {
                        Ctx::If(d) => cond = cond.or(*d),
                        Ctx::Loop {
                            id,
                            params,
                            results,
                        } => {
                            target = Some((*id, if is_break { *results } else { *params }));
                            break;
                        }
                    }
                }
                let Some((id, dsts)) = target else {
                    return;
                };
                if let Some(c) = cond {
                    if self.loops[id.0 as usize].is_none() {
                        self.loops[id.0 as usize] = Some(c);
                        self.changed = true;
                    }
                }
                for (v, op) in dsts.iter().zip(ops) {
                    if let Some(w) = self.divergent(std::slice::from_ref(op)) {
                        self.mark(*v, Divergence::Operand(w));
                    }
                }
            }
            InstrKind::Yield(_) | InstrKind::Ret(_) | InstrKind::Unreachable => {}
        }
    }
}
