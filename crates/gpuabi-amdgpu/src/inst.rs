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
    /// `addr64`: the address is a VGPR pair added to the resource's base (buffer
    /// instructions on `gfx6`/`gfx7`).
    pub addr64: bool,
    /// `format:N` of typed buffer instructions: the data format in bits 3:0 and the number
    /// format in bits 6:4, as LLVM numbers them on `gfx6`/`gfx7`; `None` is LLVM's default
    /// ([`MemMods::DEFAULT_FORMAT`]).
    pub format: Option<u8>,
    /// `offset0:N` of the two-address `ds_read2_*`/`ds_write2_*`: the first address's
    /// offset in elements.
    pub offset0: u8,
    /// `offset1:N` of the two-address `ds_*` instructions: the second address's offset in
    /// elements.
    pub offset1: u8,
}

impl MemMods {
    /// The format LLVM gives a `tbuffer_*` instruction without `format:`
    /// (`BUF_DATA_FORMAT_8`, `BUF_NUM_FORMAT_UNORM`).
    pub const DEFAULT_FORMAT: u8 = 1;
}

/// Floating-point source modifiers of a VOP3-encoded instruction: bit `i` of `neg`/`abs`
/// applies to source `i` (counted from 0 after the destinations). The absolute value is taken
/// first, then the negation (`-|v1|`), as the hardware applies them to f32 sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SrcMods {
    /// `-v1` / `neg(v1)`: the sign bit flipped.
    pub neg: u8,
    /// `|v1|` / `abs(v1)`: the sign bit cleared.
    pub abs: u8,
}

impl SrcMods {
    /// Whether no modifier is set.
    pub const fn is_empty(self) -> bool {
        self.neg == 0 && self.abs == 0
    }

    /// The f32 bits of source `i` after its modifiers.
    pub const fn apply(self, i: usize, bits: u32) -> u32 {
        let bits = if self.abs >> i & 1 != 0 {
            bits & 0x7fff_ffff
        } else {
            bits
        };
        if self.neg >> i & 1 != 0 {
            bits ^ 0x8000_0000
        } else {
            bits
        }
    }
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
    /// f32 source modifiers (they need the VOP3 encoding).
    pub src_mods: SrcMods,
}

impl Inst {
    /// An instruction with default modifiers.
    pub fn new(op: Opcode, operands: impl IntoIterator<Item = Operand>) -> Inst {
        Inst {
            op,
            operands: operands.into_iter().collect(),
            mods: MemMods::default(),
            e64: false,
            src_mods: SrcMods::default(),
        }
    }
}
