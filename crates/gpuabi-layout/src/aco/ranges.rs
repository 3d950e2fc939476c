//! Preserved and clobbered register ranges of a register block under a register limit.

use serde::Serialize;

use super::abi::RegisterBlock;
use super::demand::Demand;
use super::error::AcoError;
use super::target::check_limit;
use crate::reg::{RegFile, RegRange, RegSet};

/// The preserved/clobbered split of both register files for one block and limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterRanges {
    /// The limit the pattern was cut at.
    pub limit: Demand,
    /// Preserved registers. Everything else of the 512-entry index space is clobbered,
    /// including registers at or above the limit (spec §3.1).
    pub preserved: RegSet,
    /// Things that are accepted but worth knowing (Mesa debug builds would assert).
    pub warnings: Vec<String>,
}

/// Half-open preserved runs `[start, end)` of one file (spec §3.1).
fn preserved_runs(p: u16, c: u16, clobbered_first: bool, limit: u16) -> Vec<(u16, u16)> {
    let mut runs = Vec::new();
    let mut off = if clobbered_first { c } else { 0 };
    while off < limit {
        // Saturating: P and C come from user files and may be near u16::MAX.
        let end = limit.min(off.saturating_add(p));
        if end > off {
            runs.push((off, end));
        }
        off = end.saturating_add(c);
    }
    runs
}

/// Computes the preserved set of `block` under `limit`.
///
/// Errors on a limit beyond the register files and on a block whose P + C is 0 in some file
/// (Mesa would never leave its loop). A block with P = 0 and the preserved part first
/// preserves nothing, as Mesa's release builds do; a warning says that debug builds assert.
pub fn register_ranges(block: &RegisterBlock, limit: Demand) -> Result<RegisterRanges, AcoError> {
    let limit = check_limit(limit)?;
    let mut preserved = RegSet::new();
    let mut warnings = Vec::new();
    for file in RegFile::ALL {
        let (p, c, l) = (
            block.preserved.get(file),
            block.clobbered.get(file),
            limit.get(file),
        );
        if p == 0 && c == 0 {
            return Err(AcoError::DegenerateBlock { file });
        }
        if p == 0 && !block.clobbered_first && l > 0 {
            warnings.push(format!(
                "{file}: 0 preserved registers with the preserved part first: Mesa's debug \
                 builds assert here; release builds (and gpuabi) preserve nothing"
            ));
        }
        for (start, end) in preserved_runs(p, c, block.clobbered_first, l) {
            preserved.insert_range(RegRange::new(file, start, end - start));
        }
    }
    Ok(RegisterRanges {
        limit,
        preserved,
        warnings,
    })
}

impl RegisterRanges {
    /// The clobbered set: the complement of the preserved set over the whole index space.
    pub fn clobbered(&self) -> RegSet {
        self.preserved.complement()
    }

    /// Preserved runs of `file` below the limit.
    pub fn preserved_runs(&self, file: RegFile) -> Vec<RegRange> {
        self.preserved.runs_below(file, self.limit.get(file))
    }

    /// Clobbered runs of `file` below the limit.
    pub fn clobbered_runs(&self, file: RegFile) -> Vec<RegRange> {
        self.clobbered().runs_below(file, self.limit.get(file))
    }

    /// Preserved registers of `file` below the limit.
    pub fn num_preserved(&self, file: RegFile) -> u16 {
        // At most 256, so the count fits.
        self.preserved.count_below(file, self.limit.get(file)) as u16
    }

    /// Clobbered registers of `file` below the limit.
    pub fn num_clobbered(&self, file: RegFile) -> u16 {
        self.limit.get(file) - self.num_preserved(file)
    }
}

/// Mesa's closed formula for the clobbered count of one file, kept for comparison: it
/// over-counts when `clobbered_first` is set and `limit mod (P + C) > C` (spec §3.2).
pub fn num_clobbered_mesa(block: &RegisterBlock, file: RegFile, limit: u16) -> u32 {
    let (p, c, l) = (
        u32::from(block.preserved.get(file)),
        u32::from(block.clobbered.get(file)),
        u32::from(limit),
    );
    let stride = p + c;
    if stride == 0 {
        return 0;
    }
    let start = if block.clobbered_first { 0 } else { p };
    (l / stride) * c + (l % stride).saturating_sub(start)
}

/// The inclusive `[first, last]` pairs of runs, for JSON.
#[derive(Debug, Clone, Serialize)]
pub struct FileRanges {
    /// Preserved runs below the limit.
    pub preserved: Vec<[u16; 2]>,
    /// Clobbered runs below the limit.
    pub clobbered: Vec<[u16; 2]>,
}

impl FileRanges {
    /// The runs of one file.
    pub fn of(ranges: &RegisterRanges, file: RegFile) -> FileRanges {
        let pairs = |runs: Vec<RegRange>| runs.iter().map(|r| [r.first.num, r.last()]).collect();
        FileRanges {
            preserved: pairs(ranges.preserved_runs(file)),
            clobbered: pairs(ranges.clobbered_runs(file)),
        }
    }
}
