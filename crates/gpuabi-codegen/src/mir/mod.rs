//! The machine IR: AMD instructions over virtual registers, in blocks laid out in the order
//! they will be emitted.
//!
//! A [`Temp`] is a virtual register of one file (SGPR or VGPR) and a size in dwords; lane
//! masks are SGPR temps of one dword (wave32) or two (wave64). Operands name a dword slice
//! of a temp, so the halves of a 64-bit value are used without copies. Hardware
//! instructions keep the operand order of the instruction table (destinations first);
//! pseudo-instructions cover what has no single hardware form: parallel copies (lowered
//! after register allocation, cycles included, as ACO's `p_parallelcopy`) and the entry
//! copy that takes a kernel's launch registers into temps.
//!
//! Temps are not in SSA form: the results of an `if`, the variables and results of a loop
//! are temps written on every path that reaches them, as the structured IR's `yield`,
//! `continue` and `break` name them. Every VGPR write is masked by `exec`, so a lane only
//! ever sees the writes of the path it took; that is what makes one register per merged
//! value correct under divergence (the same reasoning as ACO's logical CFG for VGPRs).

mod print;
mod validate;

pub use print::print_function;
pub use validate::validate;

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

/// Pseudo-instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pseudo {
    /// Copies every source to its destination at once: operands are `dst0, src0, dst1,
    /// src1, ...`; sources may be fixed registers or constants.
    ParallelCopy,
}

/// What an instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MOp {
    /// A hardware instruction; operands in the order of its table row.
    Hw(Opcode),
    /// A pseudo-instruction.
    Pseudo(Pseudo),
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
    /// Source position.
    pub origin: Origin,
}

impl MInst {
    /// Number of leading operands that are written.
    pub fn num_defs(&self) -> usize {
        match self.op {
            MOp::Hw(op) => op.info().dsts.len(),
            MOp::Pseudo(Pseudo::ParallelCopy) => 0,
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
            MOp::Hw(_) => {
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

    /// Whether it ends a block (a branch or the end of the program).
    pub fn is_terminator(&self) -> bool {
        matches!(
            self.op,
            MOp::Hw(
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

/// A straight-line run of instructions; only the last ones may branch (a conditional
/// branch may be followed by an unconditional one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Block {
    /// Instructions in order.
    pub insts: Vec<MInst>,
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
}

impl Function {
    /// An empty function with one empty entry block.
    pub fn new(name: &str) -> Function {
        Function {
            name: name.to_string(),
            temps: Vec::new(),
            blocks: vec![Block::default()],
            stack_bytes: 0,
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

    /// Successors of a block in the linear CFG: branch targets, and the next block when
    /// the block can fall through.
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
