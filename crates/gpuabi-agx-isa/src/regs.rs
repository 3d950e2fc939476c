//! Register operands by the names Mesa's disassembler prints (`r3`, `r3l`, `r3h`, `dr2`,
//! `u6`, `du8`, `r4_r5_r6`), and immediates, for building instructions; numbers are
//! register numbers as printed, halves are 16-bit half indices (`half(7)` is `r3h`).

use crate::operand::{Operand, OperandKind, RegFile};

/// `count` registers of `size` bits of `file` from half `base`.
pub const fn tuple(file: RegFile, base: u32, size: u32, count: u32) -> Operand {
    Operand::plain(OperandKind::Reg {
        file,
        base,
        size,
        count,
    })
}

/// 32-bit GPR `rN`.
pub const fn r(n: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n, 32, 1)
}

/// Low half `rNl`.
pub const fn rl(n: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n, 16, 1)
}

/// High half `rNh`.
pub const fn rh(n: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n + 1, 16, 1)
}

/// 16-bit GPR at half index `h` (`r3h` is 7).
pub const fn half(h: u32) -> Operand {
    tuple(RegFile::Gpr, h, 16, 1)
}

/// 64-bit GPR pair `drN` (`rN` and `rN+1`).
pub const fn dr(n: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n, 64, 1)
}

/// `count` consecutive 32-bit GPRs from `rN` (`r4_r5_r6`).
pub const fn rs(n: u32, count: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n, 32, count)
}

/// 32-bit uniform `uN`.
pub const fn u(n: u32) -> Operand {
    tuple(RegFile::Uniform, 2 * n, 32, 1)
}

/// 64-bit uniform pair `duN`.
pub const fn du(n: u32) -> Operand {
    tuple(RegFile::Uniform, 2 * n, 64, 1)
}

/// Integer immediate operand.
pub const fn imm(v: i64) -> Operand {
    Operand::plain(OperandKind::Imm(v))
}

/// Coefficient register `cfN`.
pub const fn cf(n: u32) -> Operand {
    Operand::plain(OperandKind::Cf(n))
}
