//! The machine IR: AMD instructions over virtual registers, in blocks laid out in the order
//! they will be emitted, after ACO's `aco_ir.h`.
//!
//! A [`Temp`] is a virtual register of one file (SGPR or VGPR), a size in dwords and an
//! alignment; lane masks are SGPR temps of one dword (wave32) or two (wave64), aligned to
//! their size. Operands name a dword slice of a temp, so the halves of a 64-bit value are
//! used without copies. Hardware instructions keep the operand order of the instruction
//! table (destinations first); pseudo-instructions ([`Pseudo`]) cover what has no single
//! hardware form: phis, parallel copies, the bounds of a block's logical part, spill code,
//! and the branches of divergent control flow.
//!
//! Instruction selection produces SSA: every dword of a temp is written once, and values
//! that merge control flow are phis at the top of the merge block. Each block has a kind
//! ([`BlockKind`]) and two sets of edges ([`Block::logical_preds`],
//! [`Block::linear_preds`] and the successor lists), as ACO's `Block`: the *logical* CFG
//! is the program's own control flow, which the lanes follow, and the *linear* CFG is the
//! path the wave's program counter takes, through both arms of a divergent `if` and into
//! the blocks that only manage exec. A `p_phi` merges VGPR values and has one operand per
//! logical predecessor; a `p_linear_phi` merges SGPR values and has one operand per linear
//! predecessor (undefined where no value comes along that edge).
//!
//! The code stays SSA through register allocation, but for the exec masks that exec-mask
//! insertion adds. After it, SSA elimination ([`crate::ssa_elimination`]) makes the phis
//! parallel copies at the end of the predecessors, so a merged value is written on every
//! path that reaches the merge. That stays correct under divergence because a VGPR write
//! is masked by exec: a lane only ever sees the writes of its own logical path.

mod parse;
mod print;
mod validate;

pub use parse::{parse_function, parse_functions, ParseError};
pub use print::{inst_text, print_function, pseudo_name};
pub use validate::{validate, validate_cfg, validate_ssa};

use gpuabi_amdgpu::{MemMods, Opcode, Operand};
use gpuabi_layout::reg::RegFile;
use smallvec::SmallVec;

/// A virtual register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Temp(pub u32);

impl Temp {
    /// Index into [`Function::temps`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the register allocator must know of a temp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TempInfo {
    /// Register file.
    pub file: RegFile,
    /// Size in dwords.
    pub dwords: u8,
    /// Required alignment of the first register (1, 2 or 4).
    pub align: u8,
    /// Never spilled: reload temps, and registers the spill code itself needs.
    pub no_spill: bool,
}

/// A dword slice of a temp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slice {
    /// The temp.
    pub temp: Temp,
    /// First dword.
    pub offset: u8,
    /// Number of dwords.
    pub dwords: u8,
}

/// An operand of a machine instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Opnd {
    /// A virtual register slice (replaced by its register after allocation).
    Temp(Slice),
    /// A fixed operand: a physical register, `exec`, `vcc`, a constant, `off`, counters.
    Fixed(Operand),
    /// A branch target.
    Block(BlockId),
    /// The `n`th VGPR reserved for SGPR spill slots (numbered from the top of the budget).
    SpillVgpr(u16),
    /// No value: the operand of a linear phi along an edge that carries none.
    Undef,
    /// The distance in bytes from the start of block `anchor` of this function to the
    /// label `label` (a 32-bit literal): with `s_getpc_b64` just before `anchor`, a
    /// function's address.
    Addr {
        /// The label reached.
        label: String,
        /// The block whose start `s_getpc_b64` reads.
        anchor: BlockId,
    },
}

impl Opnd {
    /// The slice, if a temp.
    pub fn slice(&self) -> Option<Slice> {
        match self {
            Opnd::Temp(s) => Some(*s),
            _ => None,
        }
    }
}

/// Pseudo-instructions, named as ACO names its own (`p_...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pseudo {
    /// `p_parallelcopy`: copies every source to its destination at once: operands are
    /// `dst0, src0, dst1, src1, ...`; sources may be fixed registers or constants.
    ParallelCopy,
    /// `p_phi dst, src...`: a VGPR value merged at the top of a block, one source per
    /// logical predecessor in the order of [`Block::logical_preds`].
    Phi,
    /// `p_linear_phi dst, src...`: an SGPR value merged at the top of a block, one source
    /// per linear predecessor in the order of [`Block::linear_preds`].
    LinearPhi,
    /// `p_logical_start`: the block's logical part (code the lanes run) begins.
    LogicalStart,
    /// `p_logical_end`: the block's logical part ends; what follows manages exec and
    /// branches.
    LogicalEnd,
    /// `p_spill src, slot`: stores a temp to its spill slot (a constant: the byte offset in
    /// scratch of a VGPR value, the first lane of an SGPR value); a VGPR spill on GCN 1.2
    /// also reads the scratch buffer registers, named after the slot.
    Spill,
    /// `p_reload dst, slot`: loads a temp from its spill slot; further operands as
    /// [`Pseudo::Spill`].
    Reload,
    /// `p_branch target`: an unconditional jump along the logical CFG (on the linear CFG
    /// it may fall through, at the end of a divergent `if`'s arm).
    Branch,
    /// `p_divergent_if cond, else, skip`: the head of a divergent `if`: the then arm runs
    /// on the lanes where the lane mask `cond` holds; `else` is the first block of the
    /// else arm and `skip` where the wave goes when no lane takes the then arm.
    DivergentIf,
    /// `p_break exit, next`: the active lanes leave their divergent loop for `exit`; the
    /// wave continues at `next`.
    Break,
    /// `p_continue header, next`: the active lanes start the next iteration of their
    /// divergent loop; the wave continues at `next`.
    Continue,
    /// `p_return next`: the active lanes end; the wave continues at `next`.
    Return,
    /// `p_cbranch_execz target`: skips to `target` when no lane is active.
    BranchExecz,
    /// `p_call site`: the call described by [`Function::calls`]`[site]` (ACO's `p_call`):
    /// its parameters are already in their registers, put there by the parallel copy
    /// before it; the copy after it takes the return values out of theirs. Lowered once
    /// the frame is final ([`crate::lower_calls`]) to the stack bump around
    /// `s_swappc_b64`.
    Call,
    /// `p_store_arg src, offset, area[, sp]`: stores a parameter that the ABI put in
    /// scratch: `area` 0 is the parameter area of the call being made (after this
    /// function's frame), 1 this function's own incoming parameter area (below its stack
    /// pointer, for return values); `sp` is the stack pointer temp in a function that
    /// has one.
    StoreArg,
    /// `p_load_arg dst, offset, area[, sp]`: loads a scratch parameter, as
    /// [`Pseudo::StoreArg`] stores one.
    LoadArg,
    /// `p_return_to_caller`: the end of a function called under a call ABI: its
    /// parameters and the next program counter are in their registers; restores the
    /// preserved registers it saved and jumps (ACO's `p_return`; the lane-leaving
    /// [`Pseudo::Return`] is another thing).
    ReturnToCaller,
}

/// What an instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MOp {
    /// A hardware instruction; operands in the order of its table row.
    Hw(Opcode),
    /// A pseudo-instruction.
    Pseudo(Pseudo),
    /// The Y half of an RDNA 3/4 VOPD pair whose X half is the instruction before it
    /// (lowered code only, after `form_vopd`); printed after `:: `, as in the assembly.
    DualY(Opcode),
}

/// Where an instruction came from: the byte span of the IR instruction in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Origin {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// One machine instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct MInst {
    /// The operation.
    pub op: MOp,
    /// Operands: destinations first for hardware instructions.
    pub opnds: SmallVec<[Opnd; 4]>,
    /// Memory modifiers.
    pub mods: MemMods,
    /// Forces the 64-bit VOP3 encoding.
    pub e64: bool,
    /// What of the call ABI the instruction pays for, if anything.
    pub cost: AbiCost,
    /// Source position.
    pub origin: Origin,
}

/// The share of the call ABI an instruction is, for the ABI-overhead figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AbiCost {
    /// Not ABI overhead.
    None,
    /// A called function's saves of the preserved registers it writes, and their restores.
    CalleeSave,
    /// Moves of parameters and return values into and out of their registers and scratch
    /// slots, at calls, entries and returns.
    Copy,
    /// The call itself: stack bumps, `s_swappc_b64`, `s_setpc_b64`, the dispatch epilogue
    /// of a divergent callee, and the whole-wave saves of spill VGPRs around calls.
    Linkage,
    /// Spills and reloads (of values live across calls, and of any other).
    Spill,
}

impl AbiCost {
    /// Every kind of overhead, in report order.
    pub const ALL: [AbiCost; 4] = [
        AbiCost::CalleeSave,
        AbiCost::Copy,
        AbiCost::Linkage,
        AbiCost::Spill,
    ];

    /// Report name.
    pub fn name(self) -> &'static str {
        match self {
            AbiCost::None => "none",
            AbiCost::CalleeSave => "callee saves",
            AbiCost::Copy => "parameter copies",
            AbiCost::Linkage => "call linkage",
            AbiCost::Spill => "spills and reloads",
        }
    }
}

impl MInst {
    /// Number of leading operands that are written.
    pub fn num_defs(&self) -> usize {
        match self.op {
            MOp::Hw(op) | MOp::DualY(op) => op.info().dsts.len(),
            MOp::Pseudo(Pseudo::Phi | Pseudo::LinearPhi | Pseudo::Reload | Pseudo::LoadArg) => 1,
            MOp::Pseudo(_) => 0,
        }
    }

    /// The slices read, and the slices written, in operand order.
    pub fn temp_uses_defs(&self) -> (SmallVec<[Slice; 4]>, SmallVec<[Slice; 2]>) {
        let mut uses = SmallVec::new();
        let mut defs = SmallVec::new();
        match self.op {
            MOp::Pseudo(Pseudo::ParallelCopy) => {
                for pair in self.opnds.chunks(2) {
                    if let Some(d) = pair[0].slice() {
                        defs.push(d);
                    }
                    if let Some(s) = pair.get(1).and_then(Opnd::slice) {
                        uses.push(s);
                    }
                }
            }
            MOp::Pseudo(Pseudo::Spill | Pseudo::StoreArg) => {
                uses.extend(self.opnds.iter().filter_map(Opnd::slice));
            }
            _ => {
                let n = self.num_defs();
                for (i, o) in self.opnds.iter().enumerate() {
                    if let Some(s) = o.slice() {
                        if i < n {
                            defs.push(s);
                        } else {
                            uses.push(s);
                        }
                    }
                }
            }
        }
        (uses, defs)
    }

    /// A pseudo-instruction with these operands.
    pub fn pseudo(p: Pseudo, opnds: impl IntoIterator<Item = Opnd>, origin: Origin) -> MInst {
        MInst {
            op: MOp::Pseudo(p),
            opnds: opnds.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            cost: crate::mir::AbiCost::None,
            origin,
        }
    }

    /// Whether it is this pseudo-instruction.
    pub fn is(&self, p: Pseudo) -> bool {
        self.op == MOp::Pseudo(p)
    }

    /// Whether it is a `p_phi` or `p_linear_phi`.
    pub fn is_phi(&self) -> bool {
        self.is(Pseudo::Phi) || self.is(Pseudo::LinearPhi)
    }

    /// Whether it ends a block (a branch or the end of the program).
    pub fn is_terminator(&self) -> bool {
        matches!(
            self.op,
            MOp::Pseudo(
                Pseudo::Branch
                    | Pseudo::DivergentIf
                    | Pseudo::Break
                    | Pseudo::Continue
                    | Pseudo::Return
                    | Pseudo::BranchExecz
                    | Pseudo::ReturnToCaller
            ) | MOp::Hw(
                Opcode::SBranch
                    | Opcode::SCbranchScc0
                    | Opcode::SCbranchScc1
                    | Opcode::SCbranchVccz
                    | Opcode::SCbranchVccnz
                    | Opcode::SCbranchExecz
                    | Opcode::SCbranchExecnz
                    | Opcode::SEndpgm
            )
        )
    }
}

/// A block id: its position in [`Function::blocks`], which is also the emission order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// Index into [`Function::blocks`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a block is for, as a set of flags (after ACO's `block_kind_*`): the passes that
/// manage exec find the constructs they act on here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockKind(pub u16);

impl BlockKind {
    /// The kernel's entry block (launch registers, arguments).
    pub const ENTRY: BlockKind = BlockKind(1);
    /// The kernel's last block (`s_endpgm`).
    pub const EXIT: BlockKind = BlockKind(1 << 1);
    /// Ends in the `p_divergent_if` of a divergent `if`.
    pub const BRANCH: BlockKind = BlockKind(1 << 2);
    /// Between the arms of a divergent `if` (linear only): exec becomes the else lanes.
    pub const INVERT: BlockKind = BlockKind(1 << 3);
    /// Where the arms of a divergent `if` join: exec is restored.
    pub const MERGE: BlockKind = BlockKind(1 << 4);
    /// Ends in the jump into a loop.
    pub const LOOP_PREHEADER: BlockKind = BlockKind(1 << 5);
    /// First block of a loop body.
    pub const LOOP_HEADER: BlockKind = BlockKind(1 << 6);
    /// The back edge of a divergent loop (linear only): exec becomes the lanes that
    /// continued, and the loop repeats while there are some.
    pub const LOOP_LATCH: BlockKind = BlockKind(1 << 7);
    /// Where a loop's `break`s arrive.
    pub const LOOP_EXIT: BlockKind = BlockKind(1 << 8);
    /// With `LOOP_*`: the loop is divergent (lanes leave it at different iterations).
    pub const DIVERGENT: BlockKind = BlockKind(1 << 9);
    /// Ends in a `p_break`, `p_continue` or `p_return`: lanes leave.
    pub const LEAVE: BlockKind = BlockKind(1 << 10);
    /// Names of the flags, in bit order, for the printer.
    pub const NAMES: [&'static str; 11] = [
        "entry",
        "exit",
        "branch",
        "invert",
        "merge",
        "loop_preheader",
        "loop_header",
        "loop_latch",
        "loop_exit",
        "divergent",
        "leave",
    ];

    /// Whether every flag of `other` is set.
    pub fn has(self, other: BlockKind) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the block has a logical part: the linear-only blocks (invert, latch) have
    /// none.
    pub fn is_logical(self) -> bool {
        !self.has(BlockKind::INVERT) && !self.has(BlockKind::LOOP_LATCH)
    }
}

impl std::ops::BitOr for BlockKind {
    type Output = BlockKind;
    fn bitor(self, o: BlockKind) -> BlockKind {
        BlockKind(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for BlockKind {
    fn bitor_assign(&mut self, o: BlockKind) {
        self.0 |= o.0;
    }
}

/// A list of blocks (predecessors or successors).
pub type Blocks = SmallVec<[BlockId; 2]>;

/// A straight-line run of instructions; only the last ones may branch (a conditional
/// branch may be followed by an unconditional one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Block {
    /// Instructions in order.
    pub insts: Vec<MInst>,
    /// What the block is for.
    pub kind: BlockKind,
    /// Predecessors in the logical CFG, in block order ([`crate::control_flow`]).
    pub logical_preds: Blocks,
    /// Successors in the logical CFG.
    pub logical_succs: Blocks,
    /// Predecessors in the linear CFG, in block order.
    pub linear_preds: Blocks,
    /// Successors in the linear CFG: where the program counter may go next.
    pub linear_succs: Blocks,
}

/// A function being compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Every temp.
    pub temps: Vec<TempInfo>,
    /// Blocks in emission order; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// Bytes of per-lane scratch taken by `alloca` arrays (spill slots come after them).
    pub stack_bytes: u32,
    /// The stack pointer temp of a function called under a call ABI (its scratch is
    /// addressed from it); `None` in a kernel, whose frame starts at 0.
    pub stack_pointer: Option<Temp>,
    /// The SGPR spill slot of the stack pointer once it has been spilled.
    pub stack_pointer_slot: Option<u32>,
    /// The register the entry copy takes the stack pointer from.
    pub stack_pointer_reg: Option<gpuabi_layout::reg::RegRange>,
    /// The calls the function makes, indexed by their `p_call`.
    pub calls: Vec<crate::call_abi::CallSite>,
    /// How the function is entered and left when it is called under a call ABI (`None`:
    /// a kernel).
    pub callee: Option<crate::call_abi::CalleeFrame>,
    /// The first register of every temp once registers are allocated (empty before; a
    /// temp without one is `None`).
    pub regs: Vec<Option<u16>>,
    /// The spill slots register allocation laid out.
    pub spill_slots: crate::spill::Slots,
}

impl Function {
    /// An empty function with one empty entry block.
    pub fn new(name: &str) -> Function {
        Function {
            name: name.to_string(),
            temps: Vec::new(),
            blocks: vec![Block {
                kind: BlockKind::ENTRY,
                ..Block::default()
            }],
            stack_bytes: 0,
            stack_pointer: None,
            stack_pointer_slot: None,
            stack_pointer_reg: None,
            calls: Vec::new(),
            callee: None,
            regs: Vec::new(),
            spill_slots: crate::spill::Slots::default(),
        }
    }

    /// A new temp.
    pub fn temp(&mut self, file: RegFile, dwords: u8, align: u8) -> Temp {
        self.temps.push(TempInfo {
            file,
            dwords,
            align,
            no_spill: false,
        });
        Temp(self.temps.len() as u32 - 1)
    }

    /// The info of a temp.
    pub fn info(&self, t: Temp) -> TempInfo {
        self.temps[t.index()]
    }

    /// The whole of a temp as a slice.
    pub fn whole(&self, t: Temp) -> Slice {
        Slice {
            temp: t,
            offset: 0,
            dwords: self.info(t).dwords,
        }
    }

    /// Successors of a block by its hardware branches: their targets, and the next block
    /// when the block can fall through (once exec-mask insertion has replaced the branch
    /// pseudo-instructions, these are the linear successors).
    pub fn successors(&self, b: BlockId) -> SmallVec<[BlockId; 2]> {
        let mut out = SmallVec::new();
        let block = &self.blocks[b.index()];
        let mut falls = true;
        for inst in block.insts.iter().rev().take_while(|i| i.is_terminator()) {
            if let Some(Opnd::Block(t)) = inst.opnds.first() {
                if !out.contains(t) {
                    out.push(*t);
                }
            }
            if matches!(inst.op, MOp::Hw(Opcode::SBranch | Opcode::SEndpgm)) {
                falls = false;
            }
        }
        if falls && b.index() + 1 < self.blocks.len() {
            let next = BlockId(b.0 + 1);
            if !out.contains(&next) {
                out.push(next);
            }
        }
        out
    }
}
