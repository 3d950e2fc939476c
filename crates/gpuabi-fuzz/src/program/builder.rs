//! The state of one program being written: its text, the SSA values in scope with what is
//! known about them, the output slots of a lane's slice, and the remaining budget.

use std::fmt::Write as _;

use super::function::Callee;
use super::literal;
use super::rng::Rng;
use super::{Constructs, GenConfig, Ty};

/// What a pointer value points into, so that it is only dereferenced where that is in
/// bounds and only compared or hashed in ways that do not depend on buffer addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Base {
    /// Not a pointer.
    None,
    /// The null pointer: never dereferenced, compared only for equality.
    Null,
    /// An 8-aligned address into input buffer `i` with at least 8 bytes after it.
    Input(usize),
}

/// One SSA value.
#[derive(Debug, Clone)]
pub(super) struct Val {
    /// Text name with its `%`.
    pub name: String,
    pub ty: Ty,
    /// Known to be the same in every invocation that computes it at the same point of a
    /// lockstep execution: derived only from arguments, uniform dispatch values, literals,
    /// loads from uniform addresses of read-only buffers, and loop counters of loops with
    /// a uniform bound (invocations still in such a loop agree on its iteration). A
    /// conservative claim: false when unsure.
    pub uniform: bool,
    pub base: Base,
    /// Used by some instruction (operand choice prefers unused values).
    pub used: bool,
    /// Folded into a digest or stored already. Every value is, once: at the end of its
    /// region, at a kernel-level checkpoint or in the epilogue, so that a wrong value
    /// reaches memory even when every instruction using it loses information.
    pub hashed: bool,
    /// Never picked as an operand: region digests (so that they reach the final digest
    /// whole) and the values kept live on purpose.
    pub pinned: bool,
    /// Kept live until the kernel's epilogue (not folded at checkpoints).
    pub keep: bool,
    /// An `i1` that decided a branch already.
    pub branched: bool,
}

/// A read-only input buffer as the kernel sees it.
#[derive(Debug, Clone)]
pub(super) struct Input {
    /// Kernel parameter name.
    pub param: String,
    /// Name of the value holding its address as `i64` (address-dependent: never stored).
    pub bits: String,
    /// Bytes the kernel may address from the parameter (a power of two).
    pub size: u32,
}

/// A stack array.
#[derive(Debug, Clone)]
pub(super) struct Alloca {
    pub name: String,
    pub size: u32,
    /// Largest power of two not above `size`: run-time offsets are masked to it.
    pub window: u32,
}

/// An enclosing loop.
#[derive(Debug, Clone)]
pub(super) struct LoopCtx {
    /// The counter loop variable (every `continue` passes it plus one).
    pub counter: usize,
    /// The loop variable carrying the digest of earlier iterations.
    pub digest: usize,
    /// Index of the body's scope in the scope stack.
    pub body_scope: usize,
    /// Types of the loop's results (the operands of every `break`).
    pub results: Vec<Ty>,
    /// A `break` or `continue` under a divergent condition was written.
    pub divergent_exit: bool,
    /// Length of [`Builder::ifs`] at the loop's start.
    pub ifs_at_start: usize,
}

/// Byte offset of the slot in each lane's slice that briefly holds a stored pointer; the
/// final digest overwrites it, because a buffer address differs between implementations.
pub(super) const PTR_SLOT: u32 = 0;
/// Byte offset and size of the window of a lane's slice written at run-time offsets.
pub(super) const WINDOW: (u32, u32) = (8, 64);

/// A program being written.
pub(super) struct Builder<'c> {
    pub rng: Rng,
    pub cfg: &'c GenConfig,
    text: String,
    indent: usize,
    pub vals: Vec<Val>,
    scopes: Vec<Vec<usize>>,
    /// Instructions still to write before the generator winds down.
    pub budget: usize,
    /// Nesting of `if` and `loop`.
    pub depth: u32,
    /// Product of the trip bounds of the enclosing loops.
    pub work: u32,
    pub loops: Vec<LoopCtx>,
    /// Uniformity of the conditions of the enclosing `if`s, outermost first.
    pub ifs: Vec<bool>,
    pub inputs: Vec<Input>,
    pub allocas: Vec<Alloca>,
    /// Stored output slots (offset, width), for loading values back.
    pub slots: Vec<(u32, u32)>,
    next_slot: u32,
    /// Per-invocation values (local and global ids) for divergent conditions.
    pub lane_ids: Vec<usize>,
    /// Values the IR's own uniformity analysis (`gpuabi_ir::uniformity`) finds uniform
    /// wherever they are visible: the kernel's scalar parameters and a callee's `uniform`
    /// parameters. Arguments of `uniform` parameters come from these, literals and dispatch
    /// values, because the verifier checks them with that analysis, which knows less than
    /// [`Val::uniform`] claims (a loop counter is divergent to it once any exit of the loop
    /// is, a value loaded back from a stack array always is).
    pub invariants: Vec<usize>,
    /// The callee groups this function may call.
    pub callees: Vec<Callee>,
    /// Calls written to each of [`Builder::callees`].
    pub calls_to: Vec<usize>,
    /// Estimated instructions the calls written so far run, each weighted by the trip
    /// counts of the loops around it.
    pub call_cost: u64,
    pub constructs: Constructs,
}

impl<'c> Builder<'c> {
    pub(super) fn new(rng: Rng, cfg: &'c GenConfig) -> Builder<'c> {
        Builder {
            rng,
            cfg,
            text: String::new(),
            indent: 1,
            vals: Vec::new(),
            scopes: vec![Vec::new()],
            budget: cfg.max_instrs,
            depth: 0,
            work: 1,
            loops: Vec::new(),
            ifs: Vec::new(),
            inputs: Vec::new(),
            allocas: Vec::new(),
            slots: Vec::new(),
            next_slot: WINDOW.0 + WINDOW.1,
            lane_ids: Vec::new(),
            invariants: Vec::new(),
            callees: Vec::new(),
            calls_to: Vec::new(),
            call_cost: 0,
            constructs: Constructs::default(),
        }
    }

    /// Makes `callees` the groups this function may call.
    pub(super) fn set_callees(&mut self, callees: Vec<Callee>) {
        self.calls_to = vec![0; callees.len()];
        self.callees = callees;
    }

    /// Makes this function's slots start at byte `at` of the slice, after the slots of the
    /// functions written before it.
    pub(super) fn start_slots_at(&mut self, at: u32) {
        self.next_slot = self.next_slot.max(at);
    }

    /// Lines written so far.
    pub(super) fn lines_written(&self) -> usize {
        self.text.lines().count()
    }

    /// Visible `i32` and `f32` values not folded into a digest yet: live at this point,
    /// since each is folded or stored later.
    pub(super) fn live_values(&self) -> usize {
        self.scopes
            .iter()
            .flatten()
            .filter(|&&v| !self.vals[v].hashed && matches!(self.vals[v].ty, Ty::I32 | Ty::F32))
            .count()
    }

    /// The text written so far.
    pub(super) fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// Bytes of each lane's output slice (a multiple of 8).
    pub(super) fn slice_bytes(&self) -> u32 {
        self.next_slot.div_ceil(8) * 8
    }

    /// A new slot of `width` bytes, aligned to its width.
    pub(super) fn slot(&mut self, width: u32) -> u32 {
        let at = self.next_slot.div_ceil(width) * width;
        self.next_slot = at + width;
        self.slots.push((at, width));
        at
    }

    /// Name of value `id`.
    pub(super) fn name(&self, id: usize) -> String {
        self.vals[id].name.clone()
    }

    /// Writes one line at the current indentation.
    pub(super) fn line(&mut self, s: &str) {
        let _ = writeln!(self.text, "{:w$}{s}", "", w = 2 * self.indent);
        self.budget = self.budget.saturating_sub(1);
    }

    /// Makes a value in the current scope without writing anything.
    pub(super) fn fresh(&mut self, ty: Ty, uniform: bool, base: Base) -> usize {
        let id = self.detached(ty, uniform, base);
        self.attach(id);
        id
    }

    /// Makes a value in no scope yet (for loop variables and results, `if` results).
    pub(super) fn detached(&mut self, ty: Ty, uniform: bool, base: Base) -> usize {
        let id = self.vals.len();
        self.vals.push(Val {
            name: format!("%v{id}"),
            ty,
            uniform,
            base,
            used: false,
            hashed: false,
            pinned: false,
            keep: false,
            branched: false,
        });
        id
    }

    /// Puts a value into the current scope.
    pub(super) fn attach(&mut self, id: usize) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(id);
        }
    }

    /// Writes `%vN = rhs` for an address-dependent or otherwise private value that is
    /// never picked as an operand, stored or hashed; returns its name.
    pub(super) fn temp(&mut self, ty: Ty, rhs: &str) -> String {
        let id = self.detached(ty, false, Base::None);
        self.vals[id].used = true;
        self.vals[id].hashed = true;
        self.vals[id].pinned = true;
        let name = self.name(id);
        self.line(&format!("{name} = {rhs}"));
        name
    }

    /// Writes `%vN = rhs` and returns the new value.
    pub(super) fn def(&mut self, ty: Ty, uniform: bool, rhs: &str) -> usize {
        self.def_ptr(ty, uniform, Base::None, rhs)
    }

    /// Writes `%vN = rhs` for a value with a pointer base.
    pub(super) fn def_ptr(&mut self, ty: Ty, uniform: bool, base: Base, rhs: &str) -> usize {
        let id = self.fresh(ty, uniform, base);
        self.line(&format!("{} = {rhs}", self.vals[id].name));
        id
    }

    /// Writes a header line ending in `{` and opens a scope.
    pub(super) fn open(&mut self, header: &str) {
        self.line(header);
        self.indent += 1;
        self.scopes.push(Vec::new());
    }

    /// Opens a scope one level in without writing a header (the `else` arm).
    pub(super) fn reopen(&mut self) {
        self.indent += 1;
        self.scopes.push(Vec::new());
    }

    /// Ends the current scope and writes `closing` (`}` or `} else {`) one level out.
    pub(super) fn close(&mut self, closing: &str) {
        self.scopes.pop();
        self.indent -= 1;
        let _ = writeln!(self.text, "{:w$}{closing}", "", w = 2 * self.indent);
    }

    /// Values of the outermost (kernel) scope.
    pub(super) fn top_level(&self) -> Vec<usize> {
        self.scopes.first().cloned().unwrap_or_default()
    }

    /// Number of open scopes.
    pub(super) fn scope_depth(&self) -> usize {
        self.scopes.len()
    }

    /// Values of scope `from` and the scopes inside it not folded into a digest yet,
    /// except those kept for the epilogue.
    pub(super) fn unhashed_from(&self, from: usize) -> Vec<usize> {
        self.scopes[from..]
            .iter()
            .flatten()
            .copied()
            .filter(|&v| !self.vals[v].hashed && !self.vals[v].keep)
            .collect()
    }

    /// Values of the innermost scope not folded into a digest yet, except those kept
    /// for the epilogue.
    pub(super) fn unhashed_locals(&self) -> Vec<usize> {
        self.scopes
            .last()
            .map(|s| {
                s.iter()
                    .copied()
                    .filter(|&v| !self.vals[v].hashed && !self.vals[v].keep)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Marks `id` used and returns its name.
    pub(super) fn use_val(&mut self, id: usize) -> String {
        self.vals[id].used = true;
        self.name(id)
    }

    /// A visible, unpinned value of `ty` (with the wanted uniformity), preferring unused
    /// and recent ones. Pointers picked here are dereferenceable.
    pub(super) fn pick(&mut self, ty: Ty, uniform: Option<bool>) -> Option<usize> {
        self.pick_where(|v| {
            v.ty == ty
                && uniform.is_none_or(|u| v.uniform == u)
                && (ty != Ty::Ptr || matches!(v.base, Base::Input(_)))
        })
    }

    /// A visible, unpinned value satisfying `ok`, preferring unused and recent ones.
    pub(super) fn pick_where(&mut self, ok: impl Fn(&Val) -> bool) -> Option<usize> {
        let all: Vec<usize> = self
            .scopes
            .iter()
            .flatten()
            .copied()
            .filter(|&v| !self.vals[v].pinned && ok(&self.vals[v]))
            .collect();
        if all.is_empty() {
            return None;
        }
        if self.rng.chance(50) {
            let unused: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&v| !self.vals[v].used)
                .collect();
            if !unused.is_empty() {
                return Some(self.rng.pick(&unused));
            }
        }
        if self.rng.chance(40) {
            let recent = all.len().saturating_sub(8);
            return Some(self.rng.pick(&all[recent..]));
        }
        Some(self.rng.pick(&all))
    }

    /// A value of `ty` (not `ptr`), writing a `const` when none is visible.
    pub(super) fn value(&mut self, ty: Ty) -> usize {
        match self.pick(ty, None) {
            Some(v) => v,
            None => self.constant(ty),
        }
    }

    /// A `const` of a random interesting value.
    pub(super) fn constant(&mut self, ty: Ty) -> usize {
        let lit = literal::random(&mut self.rng, ty);
        let base = if ty == Ty::Ptr {
            Base::Null
        } else {
            Base::None
        };
        self.def_ptr(ty, true, base, &format!("const {} {lit}", ty.name()))
    }

    /// An operand of `ty` (not `ptr`): a literal now and then, otherwise a value; clears
    /// `uniform` when the operand may differ between invocations.
    pub(super) fn operand(&mut self, ty: Ty, uniform: &mut bool) -> String {
        if self.rng.chance(15) {
            return literal::random(&mut self.rng, ty);
        }
        let v = self.value(ty);
        *uniform &= self.vals[v].uniform;
        self.use_val(v)
    }

    /// Like [`Builder::operand`] but always a value.
    pub(super) fn operand_val(&mut self, ty: Ty, uniform: &mut bool) -> String {
        let v = self.value(ty);
        *uniform &= self.vals[v].uniform;
        self.use_val(v)
    }

    /// A value of `ty` that is uniform, writing a `const` when none is visible.
    pub(super) fn uniform_value(&mut self, ty: Ty) -> usize {
        match self.pick(ty, Some(true)) {
            Some(v) => v,
            None => self.constant(ty),
        }
    }
}
