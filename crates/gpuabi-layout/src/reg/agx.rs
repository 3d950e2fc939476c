//! Apple AGX registers, counted in 16-bit halves as Mesa's Asahi compiler does.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::parse_error::{number, RegParseError};

/// An AGX register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AgxFile {
    /// General-purpose registers `r0`..`r127` (halves 0..255).
    Gpr,
    /// Uniform registers `u0`..`u255` (halves 0..511: "Uniform" and "Uniform High").
    Uniform,
}

impl AgxFile {
    /// Number of 16-bit halves in the file.
    pub const fn halves(self) -> u16 {
        match self {
            AgxFile::Gpr => 256,
            AgxFile::Uniform => 512,
        }
    }

    /// The letter that names the file's registers (`r`, `u`).
    pub const fn prefix(self) -> char {
        match self {
            AgxFile::Gpr => 'r',
            AgxFile::Uniform => 'u',
        }
    }

    /// The file whose registers are named with the letter `b`.
    pub const fn from_prefix(b: u8) -> Option<AgxFile> {
        match b {
            b'r' => Some(AgxFile::Gpr),
            b'u' => Some(AgxFile::Uniform),
            _ => None,
        }
    }
}

/// Number of 16-bit halves a register of `bits` bits (16, 32 or 64) covers.
pub const fn size_halves(bits: u32) -> u32 {
    bits / 16
}

/// One register of one size at a half index, named as Mesa's disassembler names it
/// (`src/asahi/isa/test/disasm.py`, function `operand`): a 16-bit half `r3l`/`r3h`, a 32-bit
/// register `r3` (the number is the half index over 2), a 64-bit pair `dr2`; uniforms `u`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgxRegName {
    /// The file.
    pub file: AgxFile,
    /// Index of the first half.
    pub half: u32,
    /// Size in bits: 16, 32 or 64.
    pub size: u32,
}

impl AgxRegName {
    /// Reads a 16- or 32-bit name (`r3l`, `r3h`, `r8`, `u6`) at byte `pos` of `text`; returns
    /// it and the position after it. Errors give the column (from 1) within `text`.
    pub fn scan(text: &str, pos: usize) -> Result<(AgxRegName, usize), RegParseError> {
        let file = text
            .as_bytes()
            .get(pos)
            .and_then(|&b| AgxFile::from_prefix(b))
            .ok_or_else(|| RegParseError::new(text, pos + 1, "expected `r` or `u`"))?;
        let (num, mut next) = number(text, pos + 1, "a register number")?;
        let (half, size) = match text.as_bytes().get(next) {
            Some(b'l') => {
                next += 1;
                (num.saturating_mul(2), 16)
            }
            Some(b'h') => {
                next += 1;
                (num.saturating_mul(2).saturating_add(1), 16)
            }
            _ => (num.saturating_mul(2), 32),
        };
        Ok((AgxRegName { file, half, size }, next))
    }

    /// Parses one name of Mesa's disassembler syntax, 64-bit pairs (`dr4`, `du8`) included;
    /// `None` unless all of `text` is one name with a register number of 1 to 4 digits.
    pub fn parse(text: &str) -> Option<AgxRegName> {
        let (wide, rest) = match text.strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (name, next) = AgxRegName::scan(rest, 0).ok()?;
        let digits = next - 1 - usize::from(name.size == 16);
        if next != rest.len() || digits > 4 || (wide && name.size == 16) {
            return None;
        }
        Some(if wide {
            AgxRegName { size: 64, ..name }
        } else {
            name
        })
    }
}

impl fmt::Display for AgxRegName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.file.prefix();
        let n = self.half >> 1;
        match self.size {
            16 => write!(f, "{p}{n}{}", if self.half & 1 == 1 { 'h' } else { 'l' }),
            64 => write!(f, "d{p}{n}"),
            _ => write!(f, "{p}{n}"),
        }
    }
}

/// `count` consecutive registers of `size` bits from half `base`, as one instruction operand
/// names them: the names joined by `_` (`r4_r5_r6`, `r2l_r2h`); every piece has the same
/// size and follows the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgxTuple {
    /// The file.
    pub file: AgxFile,
    /// Index of the first half.
    pub base: u32,
    /// Bits per register: 16, 32 or 64.
    pub size: u32,
    /// Number of registers.
    pub count: u32,
}

impl AgxTuple {
    /// Halves covered.
    pub const fn halves(&self) -> u32 {
        size_halves(self.size) * self.count
    }

    /// The half indices covered.
    pub fn half_range(&self) -> std::ops::Range<u32> {
        self.base..self.base + self.halves()
    }

    /// Parses `r4_r5_r6`, `r2l_r2h_r3l`, `dr4`: names of [`AgxRegName::parse`] of one file
    /// and size, each right after the previous one.
    pub fn parse(text: &str) -> Option<AgxTuple> {
        let mut parts = text.split('_');
        let first = AgxRegName::parse(parts.next()?)?;
        let mut t = AgxTuple {
            file: first.file,
            base: first.half,
            size: first.size,
            count: 1,
        };
        for p in parts {
            let n = AgxRegName::parse(p)?;
            if n.file != t.file || n.size != t.size || n.half != t.base + t.halves() {
                return None;
            }
            t.count += 1;
        }
        Some(t)
    }
}

impl fmt::Display for AgxTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.count {
            if i > 0 {
                f.write_str("_")?;
            }
            let name = AgxRegName {
                file: self.file,
                half: self.base + i * size_halves(self.size),
                size: self.size,
            };
            write!(f, "{name}")?;
        }
        Ok(())
    }
}

/// Consecutive 16-bit halves of one AGX file (`r3l`, `r8`, `u6_u7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgxRange {
    /// The file.
    pub file: AgxFile,
    /// Index of the first half.
    pub first_half: u16,
    /// Number of halves, at least 1.
    pub halves: u16,
}

impl AgxRange {
    /// `halves` halves of `file` from half `first_half`.
    pub const fn new(file: AgxFile, first_half: u16, halves: u16) -> AgxRange {
        AgxRange {
            file,
            first_half,
            halves,
        }
    }

    /// 32-bit GPR `rN`.
    pub const fn gpr32(n: u16) -> AgxRange {
        AgxRange::new(AgxFile::Gpr, 2 * n, 2)
    }

    /// One past the last half.
    pub const fn end_half(&self) -> u16 {
        self.first_half + self.halves
    }

    /// The half indices as text: `16` for one half, `12..15` for several (inclusive).
    pub fn half_text(&self) -> String {
        if self.halves == 1 {
            self.first_half.to_string()
        } else {
            format!("{}..{}", self.first_half, self.end_half() - 1)
        }
    }
}

impl fmt::Display for AgxRange {
    /// Vendor syntax: a lone half `r3l`/`r3h`, whole registers `r8`, several joined by `_`
    /// (`u6_u7`), with a leading or trailing half where the range is not 32-bit aligned.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut h = self.first_half;
        let mut sep = "";
        while h < self.end_half() {
            let whole = h.is_multiple_of(2) && h + 1 < self.end_half();
            let name = AgxRegName {
                file: self.file,
                half: u32::from(h),
                size: if whole { 32 } else { 16 },
            };
            write!(f, "{sep}{name}")?;
            h += if whole { 2 } else { 1 };
            sep = "_";
        }
        Ok(())
    }
}

impl FromStr for AgxRange {
    type Err = RegParseError;

    /// Parses `r8`, `r3l`, `r3h`, `u6_u7`, `r8_r9_r10`: pieces joined by `_` must be contiguous.
    fn from_str(text: &str) -> Result<AgxRange, RegParseError> {
        let mut range: Option<AgxRange> = None;
        let mut pos = 0;
        loop {
            let piece_start = pos;
            let (name, next) = AgxRegName::scan(text, pos)?;
            let (file, first, halves) = (name.file, name.half, size_halves(name.size));
            if first.saturating_add(halves) > u32::from(file.halves()) {
                return Err(RegParseError::new(
                    text,
                    piece_start + 2,
                    format!(
                        "{} has registers 0..{}",
                        file.prefix(),
                        file.halves() / 2 - 1
                    ),
                ));
            }
            // Below the file size (at most 512), so it fits in u16.
            let piece = AgxRange::new(file, first as u16, halves as u16);
            range = Some(match range {
                None => piece,
                Some(r) if r.file == piece.file && r.end_half() == piece.first_half => {
                    AgxRange::new(r.file, r.first_half, r.halves + piece.halves)
                }
                Some(r) => {
                    return Err(RegParseError::new(
                        text,
                        piece_start + 1,
                        format!("expected the piece right after {r}"),
                    ))
                }
            });
            match text.as_bytes().get(next) {
                None => break,
                Some(b'_') => pos = next + 1,
                Some(_) => {
                    return Err(RegParseError::new(
                        text,
                        next + 1,
                        "expected `_` or the end",
                    ))
                }
            }
        }
        range.ok_or_else(|| RegParseError::new(text, 1, "expected a register"))
    }
}

impl Serialize for AgxRange {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_mesa() {
        assert_eq!(AgxRange::gpr32(8).to_string(), "r8");
        assert_eq!(AgxRange::gpr32(8).half_text(), "16..17");
        assert_eq!(AgxRange::new(AgxFile::Gpr, 6, 1).to_string(), "r3l");
        assert_eq!(AgxRange::new(AgxFile::Gpr, 7, 1).to_string(), "r3h");
        let u = AgxRange::new(AgxFile::Uniform, 12, 4);
        assert_eq!(u.to_string(), "u6_u7");
        assert_eq!(u.half_text(), "12..15");
        assert_eq!(AgxRange::new(AgxFile::Gpr, 7, 3).to_string(), "r3h_r4");
    }

    #[test]
    fn names_and_tuples_print_and_parse() {
        let name = |file, half, size| AgxRegName { file, half, size };
        for (n, text) in [
            (name(AgxFile::Gpr, 0, 16), "r0l"),
            (name(AgxFile::Gpr, 1, 16), "r0h"),
            (name(AgxFile::Gpr, 10, 32), "r5"),
            (name(AgxFile::Gpr, 8, 64), "dr4"),
            (name(AgxFile::Uniform, 7, 16), "u3h"),
            (name(AgxFile::Uniform, 16, 64), "du8"),
        ] {
            assert_eq!(n.to_string(), text);
            assert_eq!(AgxRegName::parse(text), Some(n), "{text}");
        }
        for bad in ["r", "dr1l", "x", "r12345", "r1q", "d5"] {
            assert_eq!(AgxRegName::parse(bad), None, "{bad}");
        }
        let t = AgxTuple {
            file: AgxFile::Gpr,
            base: 4,
            size: 16,
            count: 3,
        };
        assert_eq!(t.to_string(), "r2l_r2h_r3l");
        assert_eq!(t.half_range(), 4..7);
        assert_eq!(AgxTuple::parse("r2l_r2h_r3l"), Some(t));
        assert_eq!(AgxTuple::parse("r4_r5_r6").map(|t| t.halves()), Some(6));
        assert_eq!(AgxTuple::parse("r1_r3"), None);
        assert_eq!(AgxTuple::parse("r1_r2l"), None);
    }

    #[test]
    fn parse_round_trips_and_rejects() {
        for text in ["r8", "r3l", "r3h", "u6_u7", "r3h_r4", "u255h", "r8_r9_r10"] {
            let r: AgxRange = text.parse().unwrap();
            assert_eq!(r.to_string(), text);
        }
        for (bad, col) in [("x1", 1), ("r128", 2), ("u6_u8", 4), ("r3q", 3), ("r", 2)] {
            assert_eq!(bad.parse::<AgxRange>().unwrap_err().column, col, "{bad}");
        }
    }
}
