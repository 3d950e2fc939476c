//! Register demand: a pair of SGPR and VGPR dword counts.

use std::fmt;
use std::ops::Add;

use serde::{Deserialize, Serialize};

use crate::reg::RegFile;

/// A number of SGPR and VGPR dwords (Mesa's `RegisterDemand`, with named fields only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demand {
    /// Scalar dwords.
    pub sgpr: u16,
    /// Vector dwords.
    pub vgpr: u16,
}

impl Demand {
    /// A demand of `sgpr` scalar and `vgpr` vector dwords.
    pub const fn new(sgpr: u16, vgpr: u16) -> Demand {
        Demand { sgpr, vgpr }
    }

    /// The count for one file.
    pub const fn get(self, file: RegFile) -> u16 {
        match file {
            RegFile::Sgpr => self.sgpr,
            RegFile::Vgpr => self.vgpr,
        }
    }

    /// `dwords` of `file` and nothing of the other.
    pub const fn of(file: RegFile, dwords: u16) -> Demand {
        match file {
            RegFile::Sgpr => Demand::new(dwords, 0),
            RegFile::Vgpr => Demand::new(0, dwords),
        }
    }

    /// Mesa's `exceeds`: true when either count is above `other`'s.
    pub const fn exceeds(self, other: Demand) -> bool {
        self.sgpr > other.sgpr || self.vgpr > other.vgpr
    }

    /// Whether both counts are zero.
    pub const fn is_zero(self) -> bool {
        self.sgpr == 0 && self.vgpr == 0
    }
}

impl Add for Demand {
    type Output = Demand;
    fn add(self, rhs: Demand) -> Demand {
        Demand::new(
            self.sgpr.saturating_add(rhs.sgpr),
            self.vgpr.saturating_add(rhs.vgpr),
        )
    }
}

impl fmt::Display for Demand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{sgpr {}, vgpr {}}}", self.sgpr, self.vgpr)
    }
}
