//! Hardware opcode numbers per target. Each row of the instruction table
//! ([`crate::opcodes`]) carries its number on gfx8, gfx1030, gfx1100, gfx6, gfx7 and gfx12
//! (`NONE` where the target lacks the instruction); this module reads them.
//!
//! The numbers are those of AMD's ISA reference guides: "Southern Islands Series Instruction
//! Set Architecture" (gfx6), "Sea Islands Series Instruction Set Architecture" (gfx7), "AMD
//! GCN3 ISA" (Graphics Core Next 3, gfx8), "RDNA2 ISA" (gfx1030), "RDNA3 ISA" (gfx1100) and
//! "RDNA 4 Instruction Set Architecture" (gfx12), chapter "Microcode Formats",
//! the opcode tables of each format. They are the value of the format's `OP` field, except
//! for vector ALU instructions (VOP1, VOP2, VOPC, VOP3): there the row holds the 10-bit
//! opcode of the 64-bit VOP3 encoding, and the 32-bit encoding's opcode is that number minus
//! the format's base in the VOP3 opcode space ([`vop3_base`]): the manuals list VOPC at
//! 0x000, VOP2 at 0x100 and VOP1 at 0x140 (GCN3) or 0x180 (RDNA2, RDNA3, RDNA 4).
//!
//! The gfx12 column was taken from llvm-mc-19 (`-mcpu=gfx1201 -show-encoding` of each row
//! spelled for gfx1100, the opcode field read from the bytes), and a row has the column's
//! number exactly where llvm-mc-19 assembles it for gfx1201; the corpus tests check every
//! number against llvm-mc-19's bytes.

use crate::opcodes::Format;
use crate::opcodes::Opcode::{self, *};
use crate::target::Target;

/// The target lacks the instruction.
pub const NONE: u16 = u16::MAX;

/// Where the 32-bit encodings of a vector ALU format start in the VOP3 opcode space of
/// `target` (`None` for other formats).
pub const fn vop3_base(format: Format, target: Target) -> Option<u16> {
    match (format, target) {
        (Format::Vopc, _) => Some(0x000),
        (Format::Vop2, _) => Some(0x100),
        (Format::Vop1, Target::Gfx8) => Some(0x140),
        // GCN 1.0/1.1 put VOP1 at 0x180 like RDNA ("Southern Islands Series ISA" and
        // "Sea Islands Series ISA", VOP3 opcode tables).
        (Format::Vop1, _) => Some(0x180),
        _ => None,
    }
}

/// The opcode number of `op` on `target`: the format's `OP` field, or for vector ALU
/// instructions the VOP3 opcode. `None` if the target lacks the instruction.
pub fn number(op: Opcode, target: Target) -> Option<u16> {
    let column = match target {
        Target::Gfx8 => 0,
        Target::Gfx1030 => 1,
        Target::Gfx1100 => 2,
        Target::Gfx6 => 3,
        Target::Gfx7 => 4,
        Target::Gfx12 => 5,
        Target::Gfx9 => return None,
    };
    match op.info().numbers[column] {
        NONE => None,
        n => Some(n),
    }
}

/// The instructions RDNA 3's dual-issue VOPD encoding takes, with their opcodes there
/// ("RDNA3 ISA", "VOPD" opcode table): OPX where the instruction may be the X half, OPY.
/// LLVM 19 (`VOPDInstructions.td` and the VOPD rows of `VOP2Instructions.td`) has one more,
/// `v_dual_dot2acc_f32_f16` (12), for an instruction the machine model does not have
/// (llc-19 writes it only for the `fdot2` intrinsics).
pub static VOPD_OPCODES: [(Opcode, Option<u8>, u8); 15] = [
    (VFmacF32, Some(0), 0),
    (VFmaakF32, Some(1), 1),
    (VFmamkF32, Some(2), 2),
    (VMulF32, Some(3), 3),
    (VAddF32, Some(4), 4),
    (VSubF32, Some(5), 5),
    (VSubrevF32, Some(6), 6),
    (VMulLegacyF32, Some(7), 7),
    (VMovB32, Some(8), 8),
    (VCndmaskB32, Some(9), 9),
    (VMaxF32, Some(10), 10),
    (VMinF32, Some(11), 11),
    (VAddNcU32, None, 16),
    (VLshlrevB32, None, 17),
    (VAndB32, None, 18),
];

/// The VOPD opcodes of `op`: (OPX if it may be the X half, OPY); `None` if VOPD lacks it.
pub fn vopd_opcodes(op: Opcode) -> Option<(Option<u8>, u8)> {
    VOPD_OPCODES
        .iter()
        .find(|(o, _, _)| *o == op)
        .map(|&(_, x, y)| (x, y))
}

/// The instruction of VOPD opcode `code` in the X half (`y` false) or the Y half.
pub fn vopd_op(code: u8, y: bool) -> Option<Opcode> {
    VOPD_OPCODES
        .iter()
        .find(|(_, x, yc)| if y { *yc == code } else { *x == Some(code) })
        .map(|(o, _, _)| *o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opcodes::TABLE;

    #[test]
    fn a_number_exactly_on_the_targets_of_the_row() {
        for info in TABLE {
            let (op, nums) = (info.op, &info.numbers);
            for (t, n) in [
                Target::Gfx8,
                Target::Gfx1030,
                Target::Gfx1100,
                Target::Gfx6,
                Target::Gfx7,
                Target::Gfx12,
            ]
            .iter()
            .zip(nums)
            {
                assert_eq!(op.info().targets.contains(*t), *n != NONE, "{op:?} on {t}");
            }
        }
    }
}
