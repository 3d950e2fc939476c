//! The compute registers PAL metadata sets (`.registers`, keyed by register offset in
//! dwords), and their fields, as AMD's register specifications and LLVM's `SIDefines.h`
//! (`S_00B848_*` for COMPUTE_PGM_RSRC1, `S_00B84C_*` for COMPUTE_PGM_RSRC2) define them.

/// `COMPUTE_DISPATCH_INITIATOR` (0x2e00).
pub const COMPUTE_DISPATCH_INITIATOR: u32 = 0x2e00;
/// `COMPUTE_PGM_RSRC1` (0x2e12).
pub const COMPUTE_PGM_RSRC1: u32 = 0x2e12;
/// `COMPUTE_PGM_RSRC2` (0x2e13).
pub const COMPUTE_PGM_RSRC2: u32 = 0x2e13;

/// A bit field of a register: first bit and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Lowest bit.
    pub shift: u32,
    /// Bits.
    pub width: u32,
}

impl Field {
    const fn new(shift: u32, width: u32) -> Field {
        Field { shift, width }
    }

    /// The field's value in `word`.
    pub fn get(self, word: u32) -> u32 {
        (word >> self.shift) & ((1u32 << self.width) - 1)
    }
}

/// `COMPUTE_DISPATCH_INITIATOR.CS_W32_EN` (GFX10 and later): the dispatch runs wave32.
pub const CS_W32_EN: Field = Field::new(15, 1);

/// `COMPUTE_PGM_RSRC1.FLOAT_MODE`: rounding (bits 0-3) and denormal (bits 4-7) modes.
pub const FLOAT_MODE: Field = Field::new(12, 8);
/// `COMPUTE_PGM_RSRC1.IEEE_MODE`.
pub const IEEE_MODE: Field = Field::new(23, 1);

/// `COMPUTE_PGM_RSRC2.SCRATCH_EN`: the waves get private memory and a wave offset SGPR.
pub const SCRATCH_EN: Field = Field::new(0, 1);
/// `COMPUTE_PGM_RSRC2.USER_SGPR`: user-data SGPRs loaded from COMPUTE_USER_DATA_*.
pub const USER_SGPR: Field = Field::new(1, 5);
/// `COMPUTE_PGM_RSRC2.TGID_X_EN`, `_Y_EN`, `_Z_EN`: work-group id SGPRs.
pub const TGID_EN: [Field; 3] = [Field::new(7, 1), Field::new(8, 1), Field::new(9, 1)];
/// `COMPUTE_PGM_RSRC2.TG_SIZE_EN`: the work-group information SGPR.
pub const TG_SIZE_EN: Field = Field::new(10, 1);
/// `COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT`: work-item id components beyond x (0, 1 or 2).
pub const TIDIG_COMP_CNT: Field = Field::new(11, 2);
/// `COMPUTE_PGM_RSRC2.LDS_SIZE`: LDS per work-group in granules of [`LDS_GRANULE`].
pub const LDS_SIZE: Field = Field::new(15, 9);

/// Bytes of one `LDS_SIZE` granule on GFX7 and later (128 dwords; LLVM's
/// `AMDGPUAsmPrinter::getSIProgramInfo`, `LDSAlignShift` 9).
pub const LDS_GRANULE: u32 = 512;

/// User-data SGPRs a compute dispatch can load: `COMPUTE_USER_DATA_0` to `_15`.
pub const MAX_COMPUTE_USER_SGPRS: u32 = 16;
