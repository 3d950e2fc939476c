//! One machine instruction: an opcode, its operands and its memory modifiers.

use smallvec::SmallVec;

use crate::opcodes::Opcode;
use crate::operand::Operand;

/// Modifiers of memory instructions (`offen`, `offset:N`, `glc`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MemMods {
    /// `offset:N`: the immediate byte offset.
    pub offset: i32,
    /// `offen`: the address VGPR holds a byte offset (buffer instructions).
    pub offen: bool,
    /// `idxen`: the address VGPR holds a record index (buffer instructions).
    pub idxen: bool,
    /// `glc`: globally coherent.
    pub glc: bool,
    /// `slc`: system level coherent.
    pub slc: bool,
    /// `dlc`: device level coherent (RDNA).
    pub dlc: bool,
}

/// One instruction with operands in assembly order (destinations first).
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// The instruction.
    pub op: Opcode,
    /// Operands in the order of [`crate::OpInfo::slots`].
    pub operands: SmallVec<[Operand; 4]>,
    /// Memory modifiers (all default for non-memory instructions).
    pub mods: MemMods,
    /// Written with an explicit `_e64` suffix: use the 64-bit VOP3 encoding even when the
    /// 32-bit one would do.
    pub e64: bool,
}

impl Inst {
    /// An instruction with default modifiers.
    pub fn new(op: Opcode, operands: impl IntoIterator<Item = Operand>) -> Inst {
        Inst {
            op,
            operands: operands.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
        }
    }
}
