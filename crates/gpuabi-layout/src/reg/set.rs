//! Sets of AMD registers over the 512-entry index space.

use fixedbitset::FixedBitSet;

use super::amd::{Reg, RegFile, RegRange, INDEX_SPACE};

/// A set of entries of the 512-entry index space (SGPRs, the non-register gap, VGPRs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegSet(FixedBitSet);

impl Default for RegSet {
    fn default() -> Self {
        Self::new()
    }
}

impl RegSet {
    /// The empty set.
    pub fn new() -> RegSet {
        RegSet(FixedBitSet::with_capacity(INDEX_SPACE))
    }

    /// Every entry of the index space, the non-register gap 128..255 included.
    pub fn full() -> RegSet {
        let mut set = RegSet::new();
        set.0.insert_range(..);
        set
    }

    /// The entries not in `self`, over the whole index space.
    pub fn complement(&self) -> RegSet {
        let mut set = self.clone();
        set.0.toggle_range(..);
        set
    }

    /// Adds the raw index range `[start, end)`.
    pub fn insert_indices(&mut self, start: usize, end: usize) {
        self.0
            .insert_range(start.min(INDEX_SPACE)..end.min(INDEX_SPACE));
    }

    /// Adds every register of `range`.
    pub fn insert_range(&mut self, range: RegRange) {
        let start = usize::from(range.first.index());
        self.insert_indices(start, start + usize::from(range.count));
    }

    /// Removes every register of `range`.
    pub fn remove_range(&mut self, range: RegRange) {
        let start = usize::from(range.first.index());
        let end = (start + usize::from(range.count)).min(INDEX_SPACE);
        self.0.set_range(start..end, false);
    }

    /// Whether `reg` is in the set.
    pub fn contains(&self, reg: Reg) -> bool {
        self.0.contains(usize::from(reg.index()))
    }

    /// Whether every register of `range` is in the set (false if it leaves the file).
    pub fn contains_range(&self, range: RegRange) -> bool {
        range.fits_file() && range.regs().all(|r| self.contains(r))
    }

    /// Whether nothing is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.is_clear()
    }

    /// Number of registers of `file` below number `limit` in the set.
    pub fn count_below(&self, file: RegFile, limit: u16) -> usize {
        let base = usize::from(file.base());
        self.0
            .count_ones(base..base + usize::from(limit.min(file.capacity())))
    }

    /// Maximal runs of registers of `file` below number `limit` that are in the set.
    pub fn runs_below(&self, file: RegFile, limit: u16) -> Vec<RegRange> {
        let mut runs = Vec::new();
        let mut start: Option<u16> = None;
        for num in 0..limit.min(file.capacity()) {
            let inside = self.contains(Reg { file, num });
            match (inside, start) {
                (true, None) => start = Some(num),
                (false, Some(s)) => {
                    runs.push(RegRange::new(file, s, num - s));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push(RegRange::new(file, s, limit.min(file.capacity()) - s));
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_complement() {
        let mut set = RegSet::new();
        set.insert_range(RegRange::new(RegFile::Sgpr, 2, 3));
        set.insert_range(RegRange::new(RegFile::Vgpr, 0, 1));
        assert_eq!(
            set.runs_below(RegFile::Sgpr, 128),
            vec![RegRange::new(RegFile::Sgpr, 2, 3)]
        );
        let comp = set.complement();
        assert!(!comp.contains(Reg::sgpr(3)));
        assert!(comp.contains(Reg::sgpr(5)));
        assert_eq!(comp.count_below(RegFile::Vgpr, 256), 255);
        assert!(!set.contains_range(RegRange::new(RegFile::Sgpr, 127, 2)));
    }
}
