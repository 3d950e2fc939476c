//! AMD GCN/RDNA scalar and vector registers in LLVM's AMDGPU syntax.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::parse_error::{number, RegParseError};

/// Size of the register index space shared by both files: SGPR `sN` is index N,
/// VGPR `vN` is index 256 + N, and 128..255 are not registers (as in Mesa's `PhysReg`).
pub const INDEX_SPACE: usize = 512;

/// An AMD register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegFile {
    /// Scalar registers, one value per wave.
    Sgpr,
    /// Vector registers, one value per lane.
    Vgpr,
}

impl RegFile {
    /// Both files, SGPRs first.
    pub const ALL: [RegFile; 2] = [RegFile::Sgpr, RegFile::Vgpr];

    /// Where the file starts in the index space.
    pub const fn base(self) -> u16 {
        match self {
            RegFile::Sgpr => 0,
            RegFile::Vgpr => 256,
        }
    }

    /// How many registers of this file an instruction can name.
    pub const fn capacity(self) -> u16 {
        match self {
            RegFile::Sgpr => 128,
            RegFile::Vgpr => 256,
        }
    }

    /// The letter that starts a register name (`s` or `v`).
    pub const fn prefix(self) -> char {
        match self {
            RegFile::Sgpr => 's',
            RegFile::Vgpr => 'v',
        }
    }

    /// Lower-case name of the file (`sgpr`, `vgpr`).
    pub const fn name(self) -> &'static str {
        match self {
            RegFile::Sgpr => "sgpr",
            RegFile::Vgpr => "vgpr",
        }
    }
}

impl fmt::Display for RegFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One 32-bit register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    /// The file it belongs to.
    pub file: RegFile,
    /// Its number within the file (`s5` → 5).
    pub num: u16,
}

impl Reg {
    /// Scalar register `sN`.
    pub const fn sgpr(num: u16) -> Reg {
        Reg {
            file: RegFile::Sgpr,
            num,
        }
    }

    /// Vector register `vN`.
    pub const fn vgpr(num: u16) -> Reg {
        Reg {
            file: RegFile::Vgpr,
            num,
        }
    }

    /// Position in the 512-entry index space.
    pub const fn index(self) -> u16 {
        self.file.base() + self.num
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file.prefix(), self.num)
    }
}

/// A register class: a file and a size in dwords (`s2`, `v3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RegClass {
    /// The file.
    pub file: RegFile,
    /// Number of consecutive 32-bit registers.
    pub dwords: u16,
}

impl fmt::Display for RegClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file.prefix(), self.dwords)
    }
}

/// Consecutive registers of one file: a single register or a tuple (`s4`, `s[0:1]`, `v[4:6]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegRange {
    /// First register.
    pub first: Reg,
    /// Number of registers, at least 1.
    pub count: u16,
}

impl RegRange {
    /// `count` registers of `file` starting at number `first`.
    pub const fn new(file: RegFile, first: u16, count: u16) -> RegRange {
        RegRange {
            first: Reg { file, num: first },
            count,
        }
    }

    /// The file of the range.
    pub const fn file(&self) -> RegFile {
        self.first.file
    }

    /// Number of the last register (inclusive).
    pub const fn last(&self) -> u16 {
        self.first.num + self.count - 1
    }

    /// Number one past the last register.
    pub const fn end(&self) -> u16 {
        self.first.num + self.count
    }

    /// Whether the first register's number is a multiple of `align`.
    pub const fn is_aligned(&self, align: u16) -> bool {
        align <= 1 || self.first.num.is_multiple_of(align)
    }

    /// Whether the two ranges share a register.
    pub fn overlaps(&self, other: &RegRange) -> bool {
        self.file() == other.file() && self.first.num < other.end() && other.first.num < self.end()
    }

    /// The registers of the range in order.
    pub fn regs(&self) -> impl Iterator<Item = Reg> + '_ {
        (self.first.num..self.end()).map(move |num| Reg {
            file: self.file(),
            num,
        })
    }

    /// Whether the range lies inside its file's addressable registers.
    pub const fn fits_file(&self) -> bool {
        self.count >= 1 && self.end() <= self.file().capacity()
    }
}

impl fmt::Display for RegRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 1 {
            write!(f, "{}", self.first)
        } else {
            write!(
                f,
                "{}[{}:{}]",
                self.file().prefix(),
                self.first.num,
                self.last()
            )
        }
    }
}

impl From<Reg> for RegRange {
    fn from(reg: Reg) -> RegRange {
        RegRange {
            first: reg,
            count: 1,
        }
    }
}

impl FromStr for RegRange {
    type Err = RegParseError;

    /// Parses `s4`, `v17`, `s[0:1]` or `v[4:6]`; the range must lie inside the file.
    fn from_str(text: &str) -> Result<RegRange, RegParseError> {
        let file = match text.as_bytes().first() {
            Some(b's') => RegFile::Sgpr,
            Some(b'v') => RegFile::Vgpr,
            _ => return Err(RegParseError::new(text, 1, "expected `s` or `v`")),
        };
        let (first, last, end) = if text.as_bytes().get(1) == Some(&b'[') {
            let (first, pos) = number(text, 2, "the first register number")?;
            if text.as_bytes().get(pos) != Some(&b':') {
                return Err(RegParseError::new(text, pos + 1, "expected `:`"));
            }
            let (last, pos) = number(text, pos + 1, "the last register number")?;
            if text.as_bytes().get(pos) != Some(&b']') {
                return Err(RegParseError::new(text, pos + 1, "expected `]`"));
            }
            if last < first {
                return Err(RegParseError::new(
                    text,
                    pos,
                    format!("the last register must not be below the first ({first})"),
                ));
            }
            (first, last, pos + 1)
        } else {
            let (num, pos) = number(text, 1, "a register number or `[`")?;
            (num, num, pos)
        };
        if end != text.len() {
            return Err(RegParseError::new(
                text,
                end + 1,
                "expected the end of the name",
            ));
        }
        let cap = u32::from(file.capacity());
        if last >= cap {
            return Err(RegParseError::new(
                text,
                2,
                format!("{} has registers 0..{}", file, cap - 1),
            ));
        }
        // Both numbers are below the capacity (at most 256), so they fit in u16.
        Ok(RegRange::new(file, first as u16, (last - first + 1) as u16))
    }
}

impl Serialize for RegRange {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RegRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RegRange, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_vendor_syntax() {
        assert_eq!(RegRange::new(RegFile::Sgpr, 4, 1).to_string(), "s4");
        assert_eq!(RegRange::new(RegFile::Sgpr, 0, 2).to_string(), "s[0:1]");
        assert_eq!(RegRange::new(RegFile::Vgpr, 4, 3).to_string(), "v[4:6]");
        assert_eq!(Reg::vgpr(255).index(), 511);
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            "v[4:6]".parse::<RegRange>(),
            Ok(RegRange::new(RegFile::Vgpr, 4, 3))
        );
        assert_eq!("s127".parse::<RegRange>().map(|r| r.last()), Ok(127));
        for (bad, column) in [
            ("x1", 1),
            ("s", 2),
            ("s[1:", 5),
            ("s[3:1]", 5),
            ("s128", 2),
            ("v[0:256]", 2),
            ("s1x", 3),
            ("s[0;1]", 4),
            ("s99999999999", 2),
        ] {
            let err = bad.parse::<RegRange>().unwrap_err();
            assert_eq!(err.column, column, "{bad}: {err}");
        }
    }
}
