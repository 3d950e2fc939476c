//! An encoder for exactly the AGX (G13) instructions the part linker emits: `mov_imm`,
//! `iadd` with shift, `while_icmp`, `jmp_exec_any`, `pop_exec`, `stop` and `trap`.
//!
//! Each instruction is a little-endian bit string; its fixed bits and the positions of its
//! operand fields are listed in tables below (field positions as in the independent
//! `applegpu` disassembler), and the bytes are computed from the operand values.
//! `mov_imm` is encoded in its 4-byte form only, so its destination must be below half
//! 64 (r32); the linker writes only r0l and r1l.

use std::fmt;

use gpuabi_layout::reg::{AgxFile, AgxRange};
use thiserror::Error;

/// A source operand: an 8-bit immediate or a 16-bit GPR given by its half index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// Zero-extended 8-bit immediate.
    Imm(u8),
    /// 16-bit GPR half (`r1l` is half 2).
    Half(u16),
}

/// Integer comparison of `while_icmp`; the code is `ccn << 3 | cc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ICond {
    /// Unsigned equal.
    Ueq,
    /// Unsigned less than.
    Ult,
    /// Unsigned greater than.
    Ugt,
    /// Signed equal.
    Seq,
    /// Signed less than.
    Slt,
    /// Signed greater than.
    Sgt,
    /// Unsigned not equal.
    Nueq,
    /// Unsigned greater or equal.
    Ugte,
    /// Unsigned less or equal.
    Ulte,
}

/// Name and 4-bit code of each comparison.
const ICONDS: [(ICond, &str, u64); 9] = [
    (ICond::Ueq, "ueq", 0b0000),
    (ICond::Ult, "ult", 0b0001),
    (ICond::Ugt, "ugt", 0b0010),
    (ICond::Seq, "seq", 0b0100),
    (ICond::Slt, "slt", 0b0101),
    (ICond::Sgt, "sgt", 0b0110),
    (ICond::Nueq, "nueq", 0b1000),
    (ICond::Ugte, "ugte", 0b1001),
    (ICond::Ulte, "ulte", 0b1010),
];

impl ICond {
    fn entry(self) -> (&'static str, u64) {
        let (_, name, code) = ICONDS
            .iter()
            .find(|(c, _, _)| *c == self)
            .copied()
            .unwrap_or((ICond::Ueq, "ueq", 0));
        (name, code)
    }
}

/// One instruction the linker emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instr {
    /// `mov_imm dst, imm`: 16-bit immediate into a 16-bit GPR half.
    MovImm {
        /// Destination half.
        dst: u16,
        /// The immediate.
        imm: u16,
    },
    /// `iadd dst, a, b, lsl shift`: 16-bit add with B shifted left.
    IAdd {
        /// Destination half.
        dst: u16,
        /// First source.
        a: Src,
        /// Second source, shifted.
        b: Src,
        /// Left shift of B, 0..4.
        shift: u8,
    },
    /// `while_icmp r0l, cond, a, b, n`: loop-continue test on the nesting counter.
    WhileICmp {
        /// Comparison.
        cond: ICond,
        /// First source.
        a: Src,
        /// Second source.
        b: Src,
        /// Nesting depth, 0..3.
        n: u8,
    },
    /// `jmp_exec_any off`: branch by `off` bytes from this instruction if any lane is active.
    JmpExecAny {
        /// PC-relative byte offset.
        offset: i32,
    },
    /// `pop_exec r0l, n`.
    PopExec {
        /// Levels popped, 0..3.
        n: u8,
    },
    /// `stop`: end of the program.
    Stop,
    /// `trap`: padding after `stop` that faults if reached.
    Trap,
}

/// An operand that does not fit its field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{instr}: operand {operand} = {value} does not fit (allowed {allowed})")]
pub struct EncodeError {
    /// Instruction name.
    pub instr: &'static str,
    /// Operand name.
    pub operand: &'static str,
    /// The value given.
    pub value: i64,
    /// The allowed range.
    pub allowed: &'static str,
}

/// An instruction form: name, size in bytes and fixed bits `(start, width, value)`.
struct Form {
    name: &'static str,
    size: usize,
    fixed: &'static [(u32, u32, u64)],
}

// Fixed bits of each form. Opcodes: mov_imm 0b1100010 in bits 0..6; iadd 0b001110 in
// bits 0..5 with S (bit 6), the long-form bit 15 and N (subtract, bit 27) clear;
// while_icmp/pop_exec share opcode 0x52 with the operation in bits 9..10 (2 = while,
// 3 = pop); jmp_exec_any is 0xc000 in bits 0..15.
const MOV_IMM: Form = Form {
    name: "mov_imm",
    size: 4,
    fixed: &[(0, 7, 0b110_0010), (7, 2, 0), (15, 1, 0)],
};
const IADD: Form = Form {
    name: "iadd",
    size: 8,
    fixed: &[
        (0, 6, 0b00_1110),
        (6, 1, 0),
        (7, 2, 0),
        (15, 1, 0),
        (27, 1, 0),
    ],
};
const WHILE_ICMP: Form = Form {
    name: "while_icmp",
    size: 6,
    fixed: &[
        (0, 7, 0x52),
        (7, 1, 0),
        (9, 2, 2),
        (26, 2, 0),
        (38, 2, 0),
        (44, 2, 0),
    ],
};
const JMP_EXEC_ANY: Form = Form {
    name: "jmp_exec_any",
    size: 6,
    fixed: &[(0, 16, 0xc000)],
};
const POP_EXEC: Form = Form {
    name: "pop_exec",
    size: 6,
    fixed: &[(0, 7, 0x52), (7, 1, 0), (9, 2, 3), (13, 35, 0)],
};
const STOP: Form = Form {
    name: "stop",
    size: 2,
    fixed: &[(0, 16, 0x88)],
};
const TRAP: Form = Form {
    name: "trap",
    size: 2,
    fixed: &[(0, 16, 0x08)],
};

/// Operand field positions: destination value bits 9..14 with 2 extension bits at 44;
/// sources A at 16 (extension 42) and B at 28 (extension 40), each a 6-bit value, then a
/// 4-bit type; the `n` push/pop count at 11..12; the comparison at 13..15 with its
/// negation bit at 8; the shift's low bit at 39 and high bits at 52..53.
const DST: (u32, u32) = (9, 44);
const SRC_A: (u32, u32) = (16, 42);
const SRC_B: (u32, u32) = (28, 40);
const N_FIELD: u32 = 11;
const CC_FIELD: u32 = 13;
const CCN_FIELD: u32 = 8;
const SHIFT_LOW: u32 = 39;
const SHIFT_HIGH: u32 = 52;
/// Source type: immediate.
const SRC_TYPE_IMM: u64 = 0b0000;
/// Source type: 16-bit GPR without cache/discard hint.
const SRC_TYPE_GPR16: u64 = 0b0001;

struct Bits(u64);

impl Bits {
    fn put(&mut self, start: u32, width: u32, value: u64) {
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        };
        self.0 = (self.0 & !(mask << start)) | ((value & mask) << start);
    }

    /// An 8-bit value split into 6 low bits at `start` and 2 high bits at `ext`.
    fn put_split(&mut self, (start, ext): (u32, u32), value: u64) {
        self.put(start, 6, value);
        self.put(ext, 2, value >> 6);
    }

    fn put_src(&mut self, field: (u32, u32), src: Src) {
        let (value, ty) = match src {
            Src::Imm(v) => (u64::from(v), SRC_TYPE_IMM),
            Src::Half(h) => (u64::from(h), SRC_TYPE_GPR16),
        };
        self.put_split(field, value);
        self.put(field.0 + 6, 4, ty);
    }
}

fn check(
    instr: &'static str,
    operand: &'static str,
    value: i64,
    max: i64,
    allowed: &'static str,
) -> Result<(), EncodeError> {
    if (0..=max).contains(&value) {
        Ok(())
    } else {
        Err(EncodeError {
            instr,
            operand,
            value,
            allowed,
        })
    }
}

fn check_src(instr: &'static str, operand: &'static str, src: Src) -> Result<(), EncodeError> {
    match src {
        Src::Imm(_) => Ok(()),
        Src::Half(h) => check(instr, operand, h.into(), 255, "GPR halves 0..255"),
    }
}

impl Instr {
    fn form(&self) -> &'static Form {
        match self {
            Instr::MovImm { .. } => &MOV_IMM,
            Instr::IAdd { .. } => &IADD,
            Instr::WhileICmp { .. } => &WHILE_ICMP,
            Instr::JmpExecAny { .. } => &JMP_EXEC_ANY,
            Instr::PopExec { .. } => &POP_EXEC,
            Instr::Stop => &STOP,
            Instr::Trap => &TRAP,
        }
    }

    /// Size of the encoding in bytes.
    pub fn size(&self) -> usize {
        self.form().size
    }

    /// Appends the little-endian encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let form = self.form();
        let name = form.name;
        let mut bits = Bits(0);
        for &(start, width, value) in form.fixed {
            bits.put(start, width, value);
        }
        match *self {
            Instr::MovImm { dst, imm } => {
                // The 4-byte form has no room for the destination's extension bits.
                check(name, "dst", dst.into(), 63, "GPR halves 0..63 (r0l..r31h)")?;
                bits.put_split(DST, dst.into());
                bits.put(16, 16, imm.into());
            }
            Instr::IAdd { dst, a, b, shift } => {
                check(name, "dst", dst.into(), 255, "GPR halves 0..255")?;
                check_src(name, "a", a)?;
                check_src(name, "b", b)?;
                check(name, "shift", shift.into(), 4, "0..4")?;
                bits.put_split(DST, dst.into());
                bits.put_src(SRC_A, a);
                bits.put_src(SRC_B, b);
                bits.put(SHIFT_LOW, 1, shift.into());
                bits.put(SHIFT_HIGH, 2, u64::from(shift) >> 1);
            }
            Instr::WhileICmp { cond, a, b, n } => {
                check_src(name, "a", a)?;
                check_src(name, "b", b)?;
                check(name, "n", n.into(), 3, "0..3")?;
                let (_, code) = cond.entry();
                bits.put(CC_FIELD, 3, code);
                bits.put(CCN_FIELD, 1, code >> 3);
                bits.put_src(SRC_A, a);
                bits.put_src(SRC_B, b);
                bits.put(N_FIELD, 2, n.into());
            }
            Instr::JmpExecAny { offset } => bits.put(16, 32, u64::from(offset as u32)),
            Instr::PopExec { n } => {
                check(name, "n", n.into(), 3, "0..3")?;
                bits.put(N_FIELD, 2, n.into());
            }
            Instr::Stop | Instr::Trap => {}
        }
        out.extend_from_slice(&bits.0.to_le_bytes()[..form.size]);
        Ok(())
    }

    /// The encoding as bytes.
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(8);
        self.encode_into(&mut out)?;
        Ok(out)
    }
}

fn half_name(h: u16) -> AgxRange {
    AgxRange::new(AgxFile::Gpr, h, 1)
}

impl fmt::Display for Src {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Src::Imm(v) => write!(f, "{v}"),
            Src::Half(h) => write!(f, "{}", half_name(*h)),
        }
    }
}

impl fmt::Display for Instr {
    /// Assembly in the `applegpu` syntax, e.g. `iadd r1l, 0, r1l, lsl 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Instr::MovImm { dst, imm } => write!(f, "mov_imm {}, {imm}", half_name(dst)),
            Instr::IAdd { dst, a, b, shift } => {
                write!(f, "iadd {}, {a}, {b}", half_name(dst))?;
                if shift != 0 {
                    write!(f, ", lsl {shift}")?;
                }
                Ok(())
            }
            Instr::WhileICmp { cond, a, b, n } => {
                write!(f, "while_icmp r0l, {}, {a}, {b}, {n}", cond.entry().0)
            }
            Instr::JmpExecAny { offset } => write!(f, "jmp_exec_any {offset}"),
            Instr::PopExec { n } => write!(f, "pop_exec r0l, {n}"),
            Instr::Stop => f.write_str("stop"),
            Instr::Trap => f.write_str("trap"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_table_encodings() {
        let cases: [(Instr, &[u8]); 7] = [
            (Instr::MovImm { dst: 0, imm: 0 }, &[0x62, 0x00, 0x00, 0x00]),
            (Instr::MovImm { dst: 2, imm: 1 }, &[0x62, 0x04, 0x01, 0x00]),
            (
                Instr::IAdd {
                    dst: 2,
                    a: Src::Imm(0),
                    b: Src::Half(2),
                    shift: 1,
                },
                &[0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00],
            ),
            (
                Instr::WhileICmp {
                    cond: ICond::Ult,
                    a: Src::Half(2),
                    b: Src::Imm(15),
                    n: 1,
                },
                &[0x52, 0x2c, 0x42, 0xf0, 0x00, 0x00],
            ),
            (
                Instr::JmpExecAny { offset: -100 },
                &[0x00, 0xc0, 0x9c, 0xff, 0xff, 0xff],
            ),
            (Instr::PopExec { n: 1 }, &[0x52, 0x0e, 0, 0, 0, 0]),
            (Instr::Stop, &[0x88, 0x00]),
        ];
        for (i, bytes) in cases {
            assert_eq!(i.encode().unwrap(), bytes, "{i}");
            assert_eq!(i.size(), bytes.len());
        }
        assert_eq!(Instr::Trap.encode().unwrap(), [0x08, 0x00]);
    }

    #[test]
    fn operands_out_of_range_are_errors() {
        assert!(Instr::PopExec { n: 4 }.encode().is_err());
        assert!(Instr::MovImm { dst: 64, imm: 0 }.encode().is_err());
        let e = Instr::IAdd {
            dst: 2,
            a: Src::Imm(0),
            b: Src::Half(2),
            shift: 5,
        }
        .encode()
        .unwrap_err();
        assert_eq!(e.operand, "shift");
    }
}
