//! One machine instruction: an opcode, its operands and its memory modifiers.

use smallvec::SmallVec;

use crate::opcodes::{Kind, Opcode};
use crate::operand::Operand;
use crate::output_mods::Omod;

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
    /// `dmask:N` of image instructions: the components (bit 0 x … bit 3 w) read or
    /// written, in register order.
    pub dmask: u8,
    /// `unorm`: image coordinates are texels, not normalized to [0, 1].
    pub unorm: bool,
    /// `da`: the image is an array (the last coordinate is the slice).
    pub da: bool,
    /// `r128`: the image resource is 128 bits.
    pub r128: bool,
    /// `tfe`: texture fail enable, one more data VGPR receives the fail status.
    pub tfe: bool,
    /// `lwe`: LOD warning enable.
    pub lwe: bool,
    /// `th:`, RDNA 4's temporal hint (the cache policy that replaced `glc`, `slc` and
    /// `dlc`), as the three-bit field holds it ([`crate::asm::cache_policy`] names the
    /// values). Bit 0 of an atomic's hint is `TH_ATOMIC_RETURN`, which [`MemMods::glc`]
    /// mirrors, so that an atomic's returning form is told apart the same way on every
    /// target.
    pub th: u8,
    /// `scope:`, RDNA 4's coherence scope: 0 `SCOPE_CU`, 1 `SCOPE_SE`, 2 `SCOPE_DEV`, 3
    /// `SCOPE_SYS`.
    pub scope: u8,
}

impl MemMods {
    /// The format LLVM gives a `tbuffer_*` instruction without `format:`
    /// (`BUF_DATA_FORMAT_8`, `BUF_NUM_FORMAT_UNORM`).
    pub const DEFAULT_FORMAT: u8 = 1;

    /// Whether an image modifier (`dmask`, `unorm`, `da`, `r128`, `tfe`, `lwe`) is set.
    pub const fn has_image_mods(&self) -> bool {
        self.dmask != 0 || self.unorm || self.da || self.r128 || self.tfe || self.lwe
    }

    /// VGPRs of an image instruction's data: one per component `dmask` enables (one when
    /// it enables none, as the hardware still returns x), and one more with `tfe`.
    pub const fn image_data_dwords(&self) -> u8 {
        let n = self.dmask.count_ones() as u8;
        (if n == 0 { 1 } else { n }) + self.tfe as u8
    }
}

/// The modifiers of a VOP3-encoded instruction: the floating-point source modifiers (bit
/// `i` of `neg`/`abs` applies to source `i`, counted from 0 after the destinations; the
/// absolute value is taken first, then the negation (`-|v1|`), as the hardware applies them
/// to f32 sources) and the output modifiers `clamp` and `omod` (see
/// [`crate::output_mods`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SrcMods {
    /// `-v1` / `neg(v1)`: the sign bit flipped.
    pub neg: u8,
    /// `|v1|` / `abs(v1)`: the sign bit cleared.
    pub abs: u8,
    /// `clamp`: an f32 result limited to [0.0, 1.0], an unsigned integer one saturated.
    pub clamp: bool,
    /// `mul:2`, `mul:4` or `div:2`: an f32 result scaled before `clamp`.
    pub omod: Omod,
}

impl SrcMods {
    /// Whether no modifier is set.
    pub const fn is_empty(self) -> bool {
        self.neg == 0 && self.abs == 0 && !self.clamp && matches!(self.omod, Omod::None)
    }

    /// Whether no source modifier (`neg`, `abs`) is set.
    pub const fn sources_plain(self) -> bool {
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

/// A part of a 32-bit register that an SDWA operand selects ("AMD GCN3 ISA", SDWA:
/// `SRC0_SEL`, `SRC1_SEL`, `DST_SEL`), numbered as the field encodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SdwaSel {
    /// Bits 7:0.
    Byte0 = 0,
    /// Bits 15:8.
    Byte1 = 1,
    /// Bits 23:16.
    Byte2 = 2,
    /// Bits 31:24.
    Byte3 = 3,
    /// Bits 15:0.
    Word0 = 4,
    /// Bits 31:16.
    Word1 = 5,
    /// All 32 bits.
    #[default]
    Dword = 6,
}

impl SdwaSel {
    /// Every selection in field order.
    pub const ALL: [SdwaSel; 7] = [
        SdwaSel::Byte0,
        SdwaSel::Byte1,
        SdwaSel::Byte2,
        SdwaSel::Byte3,
        SdwaSel::Word0,
        SdwaSel::Word1,
        SdwaSel::Dword,
    ];

    /// The spelling in LLVM's syntax (`BYTE_0`, `WORD_1`, `DWORD`).
    pub const fn name(self) -> &'static str {
        match self {
            SdwaSel::Byte0 => "BYTE_0",
            SdwaSel::Byte1 => "BYTE_1",
            SdwaSel::Byte2 => "BYTE_2",
            SdwaSel::Byte3 => "BYTE_3",
            SdwaSel::Word0 => "WORD_0",
            SdwaSel::Word1 => "WORD_1",
            SdwaSel::Dword => "DWORD",
        }
    }

    /// (lowest bit, width) of the selected part.
    pub const fn bits(self) -> (u32, u32) {
        match self {
            SdwaSel::Byte0 => (0, 8),
            SdwaSel::Byte1 => (8, 8),
            SdwaSel::Byte2 => (16, 8),
            SdwaSel::Byte3 => (24, 8),
            SdwaSel::Word0 => (0, 16),
            SdwaSel::Word1 => (16, 16),
            SdwaSel::Dword => (0, 32),
        }
    }
}

/// What an SDWA result does to the destination bits outside `dst_sel` ("AMD GCN3 ISA",
/// SDWA: `DST_UNUSED`), numbered as the field encodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DstUnused {
    /// Zero them.
    #[default]
    Pad = 0,
    /// Fill the bits above the result with its sign bit, the bits below with zeros.
    Sext = 1,
    /// Keep the destination's previous bits.
    Preserve = 2,
}

impl DstUnused {
    /// Every value in field order.
    pub const ALL: [DstUnused; 3] = [DstUnused::Pad, DstUnused::Sext, DstUnused::Preserve];

    /// The spelling in LLVM's syntax.
    pub const fn name(self) -> &'static str {
        match self {
            DstUnused::Pad => "UNUSED_PAD",
            DstUnused::Sext => "UNUSED_SEXT",
            DstUnused::Preserve => "UNUSED_PRESERVE",
        }
    }
}

/// The sub-dword selections of an instruction in the SDWA encoding (`v_or_b32_sdwa`):
/// which part of each source it reads (zero-extended) and where its result goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sdwa {
    /// The part of the destination written.
    pub dst_sel: SdwaSel,
    /// What happens to the other destination bits.
    pub dst_unused: DstUnused,
    /// The part of source 0 read.
    pub src0_sel: SdwaSel,
    /// The part of source 1 read (two-source instructions).
    pub src1_sel: SdwaSel,
    /// `sext(..)` on source 0: the selected part is sign-extended, not zero-extended.
    pub src0_sext: bool,
    /// `sext(..)` on source 1.
    pub src1_sext: bool,
}

impl Sdwa {
    /// `value` from a source register under `sel`, zero-extended (sign-extended with
    /// `sext`).
    pub const fn select(sel: SdwaSel, sext: bool, value: u32) -> u32 {
        let (lo, width) = sel.bits();
        if width == 32 {
            value
        } else if sext {
            (((value >> lo) << (32 - width)) as i32 >> (32 - width)) as u32
        } else {
            (value >> lo) & ((1 << width) - 1)
        }
    }

    /// The destination register after writing `result` under `dst_sel`/`dst_unused` over
    /// its previous value `old` (the result's low bits land in the selected part).
    pub const fn merge(self, old: u32, result: u32) -> u32 {
        let (lo, width) = self.dst_sel.bits();
        if width == 32 {
            return result;
        }
        let mask = ((1u32 << width) - 1) << lo;
        let placed = (result << lo) & mask;
        match self.dst_unused {
            DstUnused::Pad => placed,
            DstUnused::Preserve => (old & !mask) | placed,
            DstUnused::Sext => {
                let top = lo + width;
                let sign = placed >> (top - 1) & 1;
                let above = if top == 32 || sign == 0 {
                    0
                } else {
                    u32::MAX << top
                };
                placed | above
            }
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
    /// The SDWA encoding's selections (`_sdwa`), GCN 1.2 and RDNA 2.
    pub sdwa: Option<Sdwa>,
    /// The second half of an RDNA 3 dual-issue instruction (`v_dual_* X :: v_dual_* Y`);
    /// `self` is the X half. Both halves read their sources before either writes.
    pub dual: Option<Box<Inst>>,
    /// The bits of the instruction word that the hardware ignores in this form, as the
    /// code's producer wrote them: their difference from the encoder's own choice
    /// (llvm-mc's), within [`crate::dont_care::mask`]. 0 for code written as text or
    /// generated; set by the decoder and by encoding listings such as Mesa's (ACO writes
    /// 0x80 into the unused address field of `scratch_load_dword v0, off, s4`).
    pub dont_care: u64,
    /// RDNA 3's true16 operand halves ([`crate::Kind::VDstT16`], [`crate::Kind::VSrcT16`]):
    /// bit `i` set when operand `i` names bits 31:16 of its VGPR (`v1.h`) rather than bits
    /// 15:0 (`v1.l`). 0 for every other instruction.
    pub hi16: u8,
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
            sdwa: None,
            dual: None,
            dont_care: 0,
            hi16: 0,
        }
    }

    /// The destination slots of this instruction's form: an atomic without `glc` has none
    /// ([`crate::OpInfo::dsts_with`]).
    pub fn dsts(&self) -> &'static [Kind] {
        self.op.info().dsts_with(self.mods.glc)
    }

    /// The operand slots of this instruction's form, in the order of [`Inst::operands`].
    pub fn slots(&self) -> impl Iterator<Item = Kind> + '_ {
        self.op.info().slots_with(self.mods.glc)
    }

    /// Whether a source that is a constant carries `neg` or `abs` (`neg(1)`). llvm-mc folds
    /// such a constant into a literal when it may choose the 32-bit encoding, so these are
    /// written with `_e64` where one exists.
    pub fn modifies_constant(&self) -> bool {
        let modified = self.src_mods.neg | self.src_mods.abs;
        self.operands
            .iter()
            .skip(self.dsts().len())
            .enumerate()
            .any(|(i, o)| i < 8 && modified >> i & 1 != 0 && matches!(o, Operand::Imm(_)))
    }

    /// Whether this is an atomic that returns the memory's previous value (`glc`).
    pub fn returns_atomic(&self) -> bool {
        self.op.info().atomic.is_some() && self.mods.glc
    }
}
