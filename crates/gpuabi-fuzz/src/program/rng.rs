//! The generator's random numbers: SplitMix64, so that a seed names one program forever.
//!
//! SplitMix64 is Steele, Lea and Flood's generator ("Fast splittable pseudorandom number
//! generators", OOPSLA 2014); its output depends only on the seed, never on the platform
//! or on a crate version.

/// A deterministic stream of random numbers.
#[derive(Debug, Clone)]
pub(super) struct Rng(u64);

impl Rng {
    /// The stream of `seed`.
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub(super) fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo) as usize + 1) as u32
    }

    /// True with probability `percent` / 100.
    pub(super) fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One element of a non-empty slice.
    pub(super) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
