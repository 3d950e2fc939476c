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

    const fn prefix(self) -> char {
        match self {
            AgxFile::Gpr => 'r',
            AgxFile::Uniform => 'u',
        }
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
        let p = self.file.prefix();
        let mut h = self.first_half;
        let mut sep = "";
        while h < self.end_half() {
            let whole = h.is_multiple_of(2) && h + 1 < self.end_half();
            if whole {
                write!(f, "{sep}{p}{}", h / 2)?;
                h += 2;
            } else {
                let suffix = if h.is_multiple_of(2) { 'l' } else { 'h' };
                write!(f, "{sep}{p}{}{suffix}", h / 2)?;
                h += 1;
            }
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
            let file = match text.as_bytes().get(pos) {
                Some(b'r') => AgxFile::Gpr,
                Some(b'u') => AgxFile::Uniform,
                _ => return Err(RegParseError::new(text, pos + 1, "expected `r` or `u`")),
            };
            let (num, mut next) = number(text, pos + 1, "a register number")?;
            let piece_start = pos;
            let (first, halves) = match text.as_bytes().get(next) {
                Some(b'l') => {
                    next += 1;
                    (num.saturating_mul(2), 1)
                }
                Some(b'h') => {
                    next += 1;
                    (num.saturating_mul(2).saturating_add(1), 1)
                }
                _ => (num.saturating_mul(2), 2),
            };
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
