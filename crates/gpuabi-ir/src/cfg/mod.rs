//! A function's body as a control-flow graph of basic blocks with block parameters.
//!
//! The structured body (`if`, `loop`, `yield`, `break`, `continue`) is flattened once here,
//! for the interpreter and for code generators. The form is SSA without phis: a block's
//! parameters are defined on entry from the arguments of the jump that reached it. Values
//! keep their [`Value`] numbers: the results of an `if` are the parameters of its merge
//! block, a loop's variables are the parameters of its header, its results the parameters
//! of its exit block.
//!
//! Structure stays recoverable, so a GPU backend can rebuild its exec-mask nesting (as
//! Mesa's ACO does from NIR's structured control flow in its instruction selection:
//! `begin_divergent_if_then`, `begin_loop`, `emit_loop_jump`): every block records the construct
//! it came from ([`BlockKind`]) and its innermost loop, every [`Terminator::Branch`] names
//! its `if` and merge block, and [`LoopInfo`] gives each loop's header, exit block and
//! nesting depth.
//!
//! Layout: blocks are numbered in a structured order. Block 0 is the entry; an `if`'s head
//! block comes first, then the blocks of its then arm, of its else arm, then its merge; a
//! loop's header comes first, then the blocks of its body, then its exit. Every `if` has
//! both arm blocks and a merge block, and every loop an exit block, even when nothing
//! reaches them (an empty else arm is a block holding only a jump to the merge; the merge of
//! an `if` whose arms both `break` has no predecessors). A loop's header is also the first
//! block of its body; the blocks of the body are those between header and exit, and
//! [`Block::in_loop`] names the innermost loop of each.

mod build;
mod print;

pub use print::print;

use smallvec::SmallVec;

use crate::ir::{FuncId, Function, OpInstr, Operand, SigId, Span, Value};

/// A basic block: an index into [`Cfg::blocks`], in layout order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// Index into [`Cfg::blocks`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An `if` of the function: an index into [`Cfg::ifs`], numbered in the order the `if`s
/// are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IfId(pub u32);

/// A loop of the function: an index into [`Cfg::loops`], numbered in the order the loops
/// are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// The construct a block came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// The first block of the function.
    Entry,
    /// First block of an `if`'s then arm.
    IfThen(IfId),
    /// First block of an `if`'s else arm (present even when the arm is empty).
    IfElse(IfId),
    /// Where an `if`'s arms join; its parameters are the `if`'s results.
    IfMerge(IfId),
    /// First block of a loop body, target of the loop entry and of every `continue`; its
    /// parameters are the loop variables.
    LoopHeader(LoopId),
    /// Target of every `break` of a loop; its parameters are the loop's results.
    LoopExit(LoopId),
}

/// A straight-line instruction of a block (control flow is in the [`Terminator`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// Values defined.
    pub results: SmallVec<[Value; 2]>,
    /// The operation.
    pub kind: InstKind,
    /// Where it was written.
    pub span: Span,
}

/// What a straight-line instruction does; as the same kinds of [`crate::ir::InstrKind`].
#[derive(Debug, Clone, PartialEq)]
pub enum InstKind {
    /// A plain operation.
    Op(OpInstr),
    /// Direct call; results are the new values of the callee's `return` parameters.
    Call {
        /// The function called.
        callee: FuncId,
        /// One argument per parameter.
        args: Vec<Operand>,
    },
    /// Indirect call through a function address.
    CallIndirect {
        /// The signature the callee must have.
        sig: SigId,
        /// The `ptr` called.
        callee: Operand,
        /// One argument per parameter.
        args: Vec<Operand>,
    },
    /// The address of a function.
    FuncAddr {
        /// The function.
        func: FuncId,
    },
}

/// How a block ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Terminator {
    /// Continue at `target`, whose parameters take `args` (one per parameter).
    Jump {
        /// The next block.
        target: BlockId,
        /// Values of the target's parameters.
        args: Vec<Operand>,
    },
    /// The two-way branch of an `if`: `then_block` when `cond` is true, else `else_block`.
    /// The arms pass the `if`'s results to `merge` with their jumps.
    Branch {
        /// `i1` condition.
        cond: Operand,
        /// First block of the then arm.
        then_block: BlockId,
        /// First block of the else arm.
        else_block: BlockId,
        /// Where the arms join.
        merge: BlockId,
        /// The `if` this branch belongs to.
        construct: IfId,
    },
    /// Return from the function with the final values of its `return` parameters.
    Return(Vec<Operand>),
    /// Never reached.
    Unreachable,
}

/// A basic block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The construct it came from.
    pub kind: BlockKind,
    /// Values defined on entry from the arguments of the jump that reached the block.
    pub params: Vec<Value>,
    /// Straight-line instructions.
    pub insts: Vec<Inst>,
    /// How it ends.
    pub term: Terminator,
    /// Where the terminator comes from (a `yield`, `break`, `continue` or `ret`, or the
    /// `if`/`loop` whose structure implies the jump).
    pub term_span: Span,
    /// Innermost loop whose body holds the block (a loop's exit block is outside it).
    pub in_loop: Option<LoopId>,
}

/// One `if`.
#[derive(Debug, Clone, PartialEq)]
pub struct IfInfo {
    /// The block ending in the `if`'s branch.
    pub head: BlockId,
    /// First block of the then arm.
    pub then_block: BlockId,
    /// First block of the else arm.
    pub else_block: BlockId,
    /// Where the arms join.
    pub merge: BlockId,
    /// The condition.
    pub cond: Operand,
    /// Innermost loop holding the `if`.
    pub in_loop: Option<LoopId>,
    /// Where the `if` was written.
    pub span: Span,
}

/// One loop.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopInfo {
    /// First block of the body; target of the entry jump and of every `continue`.
    pub header: BlockId,
    /// Target of every `break` (the break target).
    pub exit: BlockId,
    /// Number of loops around this one (0 for an outermost loop).
    pub depth: u32,
    /// The loop around this one.
    pub parent: Option<LoopId>,
    /// Where the loop was written.
    pub span: Span,
}

/// The control-flow graph of one function.
#[derive(Debug, Clone, PartialEq)]
pub struct Cfg {
    /// Blocks in layout order; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// The `if`s, in the order they are written.
    pub ifs: Vec<IfInfo>,
    /// The loops, in the order they are written.
    pub loops: Vec<LoopInfo>,
}

impl Cfg {
    /// Flattens a function's body. The function must have passed the verifier; for others
    /// the graph is unspecified but building it does not panic (a misplaced `yield`,
    /// `break` or `continue` becomes [`Terminator::Unreachable`]).
    pub fn build(f: &Function) -> Cfg {
        build::build(f)
    }

    /// The entry block.
    pub const ENTRY: BlockId = BlockId(0);

    /// A block.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }

    /// A loop.
    pub fn loop_info(&self, id: LoopId) -> &LoopInfo {
        &self.loops[id.0 as usize]
    }

    /// An `if`.
    pub fn if_info(&self, id: IfId) -> &IfInfo {
        &self.ifs[id.0 as usize]
    }

    /// The blocks a block's terminator may go to, in order (then before else).
    pub fn successors(&self, id: BlockId) -> SmallVec<[BlockId; 2]> {
        match &self.block(id).term {
            Terminator::Jump { target, .. } => SmallVec::from_slice(&[*target]),
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => SmallVec::from_slice(&[*then_block, *else_block]),
            Terminator::Return(_) | Terminator::Unreachable => SmallVec::new(),
        }
    }

    /// The predecessors of every block, each list in layout order.
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for b in 0..self.blocks.len() {
            let id = BlockId(b as u32);
            for s in self.successors(id) {
                if preds[s.index()].last() != Some(&id) {
                    preds[s.index()].push(id);
                }
            }
        }
        preds
    }
}
