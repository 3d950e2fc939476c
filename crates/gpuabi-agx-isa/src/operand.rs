//! Operand values and their text: `r0l`, `$r2`, `^dr4`, `u3h`, `du8`, `r0_r1_r2`, `5`,
//! `-0.5`, `cf3`, `ts1`, `ss0`, with `.abs`/`.neg`/`.sx` suffixes, as Mesa's disassembler
//! (`src/asahi/isa/test/disasm.py`, function `operand`) prints them.

use std::fmt;

use gpuabi_layout::reg::AgxTuple;
use serde::Serialize;

/// Register file of a register operand: the register model of `gpuabi-layout`.
pub use gpuabi_layout::reg::AgxFile as RegFile;

/// Cache hint of a register operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub enum Hint {
    /// No hint.
    #[default]
    None,
    /// `$`: keep the value in the register cache.
    Cache,
    /// `^`: last use, the register cache may drop the value.
    Discard,
}

/// What an operand is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OperandKind {
    /// `count` consecutive registers of `size` bits starting at 16-bit half `base`.
    Reg {
        /// Register file.
        file: RegFile,
        /// First register, in 16-bit halves (`r1h` is 3, `r2` is 4).
        base: u32,
        /// Bits per register: 16, 32 or 64.
        size: u32,
        /// Number of registers.
        count: u32,
    },
    /// Integer immediate, as printed (signed fields are already sign-extended).
    Imm(i64),
    /// 8-bit float immediate code (see [`fimm_value`]).
    FImm(u8),
    /// Coefficient register.
    Cf(u32),
    /// Texture state slot.
    Ts(u32),
    /// Sampler state slot.
    Ss(u32),
}

/// An operand with its hint and source modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Operand {
    /// The value.
    pub kind: OperandKind,
    /// Cache hint (registers only).
    pub hint: Hint,
    /// Absolute value (float sources).
    pub abs: bool,
    /// Negation (float sources).
    pub neg: bool,
    /// Sign extension (integer sources and memory indices).
    pub sx: bool,
}

impl Operand {
    /// A plain operand without hint or modifiers.
    pub const fn plain(kind: OperandKind) -> Operand {
        Operand {
            kind,
            hint: Hint::None,
            abs: false,
            neg: false,
            sx: false,
        }
    }

    /// The registers of a register operand.
    pub fn tuple(&self) -> Option<AgxTuple> {
        match self.kind {
            OperandKind::Reg {
                file,
                base,
                size,
                count,
            } => Some(AgxTuple {
                file,
                base,
                size,
                count,
            }),
            _ => None,
        }
    }

    /// The operand with `.neg`.
    pub const fn neg(self) -> Operand {
        Operand { neg: true, ..self }
    }

    /// The operand with `.abs`.
    pub const fn abs(self) -> Operand {
        Operand { abs: true, ..self }
    }

    /// The operand with `.sx`.
    pub const fn sx(self) -> Operand {
        Operand { sx: true, ..self }
    }

    /// A single GPR of `size` bits at 16-bit half `base`.
    pub fn gpr(base: u32, size: u32) -> Operand {
        Operand::plain(OperandKind::Reg {
            file: RegFile::Gpr,
            base,
            size,
            count: 1,
        })
    }
}

/// The value of an 8-bit float immediate: sign, 3-bit exponent, 4-bit mantissa; exponent 0
/// is `m / 64`, otherwise `(16 + m) * 2^(e - 7)` (applegpu's `decode_float_immediate`).
pub fn fimm_value(code: u8) -> f64 {
    let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((code >> 4) & 7);
    let m = f64::from(code & 0xf);
    if e == 0 {
        sign * m / 64.0
    } else {
        sign * (16.0 + m) * 2f64.powi(e - 7)
    }
}

/// The decimal text of a float immediate: shortest round-trip digits, always with a
/// fractional part (`31.0`, `-0.0`, `0.234375`), as Python prints a float.
pub fn fimm_text(code: u8) -> String {
    let v = fimm_value(code);
    let s = format!("{v}");
    let s = if s == "0" && v.is_sign_negative() {
        "-0".to_string()
    } else {
        s
    };
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            OperandKind::Reg {
                file,
                base,
                size,
                count,
            } => {
                match self.hint {
                    Hint::None => {}
                    Hint::Cache => f.write_str("$")?,
                    Hint::Discard => f.write_str("^")?,
                }
                let tuple = AgxTuple {
                    file,
                    base,
                    size,
                    count,
                };
                write!(f, "{tuple}")?;
            }
            OperandKind::Imm(v) => write!(f, "{v}")?,
            OperandKind::FImm(c) => f.write_str(&fimm_text(c))?,
            OperandKind::Cf(n) => write!(f, "cf{n}")?,
            OperandKind::Ts(n) => write!(f, "ts{n}")?,
            OperandKind::Ss(n) => write!(f, "ss{n}")?,
        }
        for (on, name) in [(self.abs, ".abs"), (self.neg, ".neg"), (self.sx, ".sx")] {
            if on {
                f.write_str(name)?;
            }
        }
        Ok(())
    }
}

fn parse_slot(s: &str, prefix: &str) -> Option<u32> {
    let d = s.strip_prefix(prefix)?;
    if d.is_empty() || d.len() > 4 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

/// The float immediate code printed as `s`, if any.
fn parse_fimm(s: &str) -> Option<u8> {
    (0..=255u8).find(|&c| fimm_text(c) == s)
}

/// Parses one operand token; `None` when the token is not an operand (an enum name or a
/// label, which the caller matches against the instruction's fields).
///
/// An empty token is an empty register tuple: Mesa prints a memory access whose channel
/// mask is `none` with no registers, so the register number is not in the text and reads
/// as r0.
pub fn parse_operand(token: &str) -> Option<Operand> {
    if token.is_empty() {
        return Some(Operand::plain(OperandKind::Reg {
            file: RegFile::Gpr,
            base: 0,
            size: 16,
            count: 0,
        }));
    }
    let (hint, mut body) = match token.as_bytes().first()? {
        b'$' => (Hint::Cache, &token[1..]),
        b'^' => (Hint::Discard, &token[1..]),
        _ => (Hint::None, token),
    };
    let mut flags = [false; 3];
    for (i, suffix) in [".sx", ".neg", ".abs"].iter().enumerate() {
        if let Some(rest) = body.strip_suffix(suffix) {
            flags[2 - i] = true;
            body = rest;
        }
    }
    let [abs, neg, sx] = flags;
    let kind = if let Some(k) = parse_reg_tuple(body) {
        k
    } else if hint != Hint::None {
        return None;
    } else if let Some(n) = parse_slot(body, "cf") {
        OperandKind::Cf(n)
    } else if let Some(n) = parse_slot(body, "ts") {
        OperandKind::Ts(n)
    } else if let Some(n) = parse_slot(body, "ss") {
        OperandKind::Ss(n)
    } else if body.contains('.') {
        OperandKind::FImm(parse_fimm(body)?)
    } else {
        let digits = body.strip_prefix('-').unwrap_or(body);
        if digits.is_empty() || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        OperandKind::Imm(body.parse().ok()?)
    };
    Some(Operand {
        kind,
        hint,
        abs,
        neg,
        sx,
    })
}

fn parse_reg_tuple(body: &str) -> Option<OperandKind> {
    let t = AgxTuple::parse(body)?;
    Some(OperandKind::Reg {
        file: t.file,
        base: t.base,
        size: t.size,
        count: t.count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_immediates_print_like_python() {
        assert_eq!(fimm_text(0), "0.0");
        assert_eq!(fimm_text(0x80), "-0.0");
        assert_eq!(fimm_text(0x0f), "0.234375"); // 15/64
        assert_eq!(fimm_text(0x7f), "31.0"); // 31 * 2^0
        assert_eq!(fimm_text(0x30), "1.0"); // 16 * 2^-4
    }

    #[test]
    fn operands_round_trip() {
        for t in [
            "r0l",
            "r0h",
            "r5",
            "dr4",
            "u3h",
            "du8",
            "$r2",
            "^r1l.abs.neg",
            "r0.sx",
            "r4_r5_r6",
            "r2l_r2h_r3l",
            "cf3",
            "ts1",
            "ss0",
            "-5",
            "31.0",
            "-0.0",
        ] {
            let op = parse_operand(t).unwrap_or_else(|| panic!("{t}"));
            assert_eq!(op.to_string(), t);
        }
        assert_eq!(
            parse_operand("r1h").map(|o| o.kind),
            Some(OperandKind::Reg {
                file: RegFile::Gpr,
                base: 3,
                size: 16,
                count: 1
            })
        );
        for bad in ["r", "dr1l", "r1_r3", "x", "$5", "0.3"] {
            assert!(parse_operand(bad).is_none(), "{bad}");
        }
    }
}
