//! Register operands by the names Mesa's disassembler prints (`r3`, `r3l`, `r3h`, `dr2`,
//! `u6`, `du8`, `r4_r5_r6`), for building instructions; numbers are register numbers as
//! printed, halves are 16-bit half indices (`half(7)` is `r3h`).

use crate::operand::{Operand, OperandKind, RegFile};

/// `count` registers of `size` bits of `file` from half `base`.
pub fn tuple(file: RegFile, base: u32, size: u32, count: u32) -> Operand {
    Operand::plain(OperandKind::Reg {
        file,
        base,
        size,
        count,
    })
}

/// 32-bit GPR `rN`.
pub fn r(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Gpr, 2 * n.into(), 32, 1)
}

/// Low half `rNl`.
pub fn rl(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Gpr, 2 * n.into(), 16, 1)
}

/// High half `rNh`.
pub fn rh(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Gpr, 2 * n.into() + 1, 16, 1)
}

/// 16-bit GPR at half index `h` (`r3h` is 7).
pub fn half(h: impl Into<u32>) -> Operand {
    tuple(RegFile::Gpr, h.into(), 16, 1)
}

/// 64-bit GPR pair `drN` (`rN` and `rN+1`).
pub fn dr(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Gpr, 2 * n.into(), 64, 1)
}

/// `count` consecutive 32-bit GPRs from `rN` (`r4_r5_r6`).
pub fn rs(n: impl Into<u32>, count: u32) -> Operand {
    tuple(RegFile::Gpr, 2 * n.into(), 32, count)
}

/// 32-bit uniform `uN`.
pub fn u(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Uniform, 2 * n.into(), 32, 1)
}

/// 64-bit uniform pair `duN`.
pub fn du(n: impl Into<u32>) -> Operand {
    tuple(RegFile::Uniform, 2 * n.into(), 64, 1)
}
