//! The AGX (G13) instructions the part linker emits: `ldimm` (applegpu's `mov_imm`),
//! `iadd` with shift, `while` (`while_icmp`), `jmp_any` (`jmp_exec_any`), `pop_exec`, `stop`
//! and `trap`.
//!
//! Each instruction is built from its typed operands by the instruction table of
//! `gpuabi_agx_isa`, which picks the shortest form, and printed in Mesa's disassembler
//! syntax. `ldimm` must fit its 4-byte
//! form, so its destination must be below half 64 (r32); the linker writes only r0l and
//! r1l. The variant names keep applegpu's spelling.

use std::fmt;

use gpuabi_agx_isa::{build_instruction, enums, regs, Arg};
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

/// Integer comparison of `while` (`while_icmp`); variant names are applegpu's.
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

/// 4-bit code of each comparison (bit 3 negates), as in the `cond` field of `while`.
const ICONDS: [(ICond, u32); 9] = [
    (ICond::Ueq, 0b0000),
    (ICond::Ult, 0b0001),
    (ICond::Ugt, 0b0010),
    (ICond::Seq, 0b0100),
    (ICond::Slt, 0b0101),
    (ICond::Sgt, 0b0110),
    (ICond::Nueq, 0b1000),
    (ICond::Ugte, 0b1001),
    (ICond::Ulte, 0b1010),
];

impl ICond {
    /// The condition's name in Mesa's syntax (`ieq`, `ult`, `ine`, ...), from the ISA table.
    pub fn name(self) -> &'static str {
        let code = ICONDS
            .iter()
            .find(|(c, _)| *c == self)
            .map_or(0, |(_, code)| *code);
        enums::ICOND.text(code).unwrap_or("ieq")
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

/// Builds `name` with `args` from the ISA table.
fn built(
    instr: &'static str,
    name: &str,
    args: &[Arg],
) -> Result<gpuabi_agx_isa::Instruction, EncodeError> {
    build_instruction(name, args).map_err(|_| EncodeError {
        instr,
        operand: "operands",
        value: 0,
        allowed: "operands the instruction table can encode",
    })
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
    /// The applegpu name of the instruction.
    fn name(&self) -> &'static str {
        match self {
            Instr::MovImm { .. } => "mov_imm",
            Instr::IAdd { .. } => "iadd",
            Instr::WhileICmp { .. } => "while_icmp",
            Instr::JmpExecAny { .. } => "jmp_exec_any",
            Instr::PopExec { .. } => "pop_exec",
            Instr::Stop => "stop",
            Instr::Trap => "trap",
        }
    }

    /// Checks the operand ranges the linker's forms allow.
    fn check(&self) -> Result<(), EncodeError> {
        let name = self.name();
        match *self {
            Instr::MovImm { dst, .. } => {
                // The 4-byte form has no room for the destination's extension bits.
                check(name, "dst", dst.into(), 63, "GPR halves 0..63 (r0l..r31h)")
            }
            Instr::IAdd { dst, a, b, shift } => {
                check(name, "dst", dst.into(), 255, "GPR halves 0..255")?;
                check_src(name, "a", a)?;
                check_src(name, "b", b)?;
                check(name, "shift", shift.into(), 4, "0..4")
            }
            Instr::WhileICmp { a, b, n, .. } => {
                check_src(name, "a", a)?;
                check_src(name, "b", b)?;
                check(name, "n", n.into(), 3, "0..3")
            }
            Instr::PopExec { n } => check(name, "n", n.into(), 3, "0..3"),
            Instr::JmpExecAny { .. } | Instr::Stop | Instr::Trap => Ok(()),
        }
    }

    /// The instruction in Mesa's disassembler syntax.
    pub fn text(&self) -> String {
        match *self {
            Instr::MovImm { dst, imm } => format!("ldimm {}, {imm}", half_name(dst)),
            Instr::IAdd { dst, a, b, shift } => {
                let mut t = format!("iadd {}, {a}, {b}", half_name(dst));
                if shift != 0 {
                    t += &format!(", lsl {shift}");
                }
                t
            }
            Instr::WhileICmp { cond, a, b, n } => format!("while {a}, {b}, {n}, {}", cond.name()),
            Instr::JmpExecAny { offset } => format!("jmp_any {offset}"),
            Instr::PopExec { n } => format!("pop_exec {n}"),
            Instr::Stop => "stop".into(),
            Instr::Trap => "trap".into(),
        }
    }

    /// The mnemonic and typed operands, in Mesa's printed order.
    fn args(&self) -> (&'static str, Vec<Arg>) {
        match *self {
            Instr::MovImm { dst, imm } => {
                ("ldimm", vec![regs::half(u32::from(dst)).into(), imm.into()])
            }
            Instr::IAdd { dst, a, b, shift } => {
                let mut args = vec![regs::half(u32::from(dst)).into(), a.arg(), b.arg()];
                if shift != 0 {
                    // `check` keeps the shift within the table's 1..4.
                    args.extend(enums::SHIFT.text(u32::from(shift)).map(Arg::Word));
                }
                ("iadd", args)
            }
            Instr::WhileICmp { cond, a, b, n } => (
                "while",
                vec![a.arg(), b.arg(), n.into(), cond.name().into()],
            ),
            Instr::JmpExecAny { offset } => ("jmp_any", vec![offset.into()]),
            Instr::PopExec { n } => ("pop_exec", vec![n.into()]),
            Instr::Stop => ("stop", Vec::new()),
            Instr::Trap => ("trap", Vec::new()),
        }
    }

    /// Size of the encoding in bytes.
    pub fn size(&self) -> usize {
        self.encode().map_or(0, |b| b.len())
    }

    /// Appends the little-endian encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.extend(self.encode()?);
        Ok(())
    }

    /// The encoding as bytes.
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        self.check()?;
        let (mnemonic, args) = self.args();
        let ins = built(self.name(), mnemonic, &args)?;
        if matches!(self, Instr::MovImm { .. }) && ins.length != 4 {
            return Err(EncodeError {
                instr: "mov_imm",
                operand: "dst",
                value: 0,
                allowed: "the 4-byte form",
            });
        }
        Ok(ins.bytes())
    }
}

fn half_name(h: u16) -> AgxRange {
    AgxRange::new(AgxFile::Gpr, h, 1)
}

impl Src {
    fn arg(self) -> Arg {
        match self {
            Src::Imm(v) => v.into(),
            Src::Half(h) => regs::half(u32::from(h)).into(),
        }
    }
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
    /// Mesa's disassembler syntax, e.g. `iadd r1l, 0, r1l, lsl 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
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
