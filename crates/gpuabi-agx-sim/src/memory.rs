//! Device memory by page: an index from 4 KiB page to the regions of [`State::memory`]
//! that overlap it, so that a load or store finds its element's bytes with one look-up
//! and copies them whole.
//!
//! The index belongs to a run and follows the region list: it is rebuilt when a region is
//! added, removed, moved or resized (checked before each memory instruction, once, not per
//! byte). An element that the first region holding its first byte does not hold whole, or
//! that an earlier region overlaps, goes byte by byte through [`State::read_byte`] and
//! [`State::write_byte`], which give each byte to the first region holding it and apply
//! soft fault.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::exec::{Fail, R};
use crate::state::{Region, State};

/// log2 of the page size.
const PAGE_BITS: u32 = 12;

/// A hasher for page numbers: one multiplication by an odd constant (Knuth's
/// multiplicative hashing), where the standard library's keyed hash would cost more than
/// the element copy it guards. Page numbers are not chosen by an adversary.
#[derive(Debug, Default)]
struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// No page looked up yet.
const NO_PAGE: (u64, u32) = (u64::MAX, u32::MAX);

/// The page index of a list of regions.
#[derive(Debug)]
pub(crate) struct Pages {
    /// Address and length of each region the index was built from.
    shape: Vec<(u64, usize)>,
    /// Page number → index in `lists`.
    pages: HashMap<u64, u32, BuildHasherDefault<PageHasher>>,
    /// Indices of the regions overlapping a page, in list order.
    lists: Vec<Vec<u32>>,
    /// The page last looked up and its list: the lanes of a SIMD group mostly access
    /// one page after another.
    last: Cell<(u64, u32)>,
}

impl Default for Pages {
    fn default() -> Pages {
        Pages {
            shape: Vec::new(),
            pages: HashMap::default(),
            lists: Vec::new(),
            last: Cell::new(NO_PAGE),
        }
    }
}

impl Pages {
    /// Rebuilds the index when the regions changed since it was built.
    pub(crate) fn follow(&mut self, regions: &[Region]) {
        let same = self.shape.len() == regions.len()
            && self
                .shape
                .iter()
                .zip(regions)
                .all(|(&(a, n), r)| a == r.address && n == r.bytes.len());
        if same {
            return;
        }
        self.shape = regions.iter().map(|r| (r.address, r.bytes.len())).collect();
        self.pages.clear();
        self.lists.clear();
        self.last.set(NO_PAGE);
        for (i, r) in regions.iter().enumerate() {
            let Some(last) = (r.bytes.len() as u64)
                .checked_sub(1)
                .and_then(|n| r.address.checked_add(n))
            else {
                continue;
            };
            for page in r.address >> PAGE_BITS..=last >> PAGE_BITS {
                let next = self.lists.len() as u32;
                let list = *self.pages.entry(page).or_insert(next);
                if list == next {
                    self.lists.push(Vec::new());
                }
                self.lists[list as usize].push(i as u32);
            }
        }
    }

    /// The region and offset holding the `n` bytes at `at` whole, when the first region
    /// holding `at` holds them all and no earlier region holds any of them.
    fn find(&self, regions: &[Region], at: u64, n: u64) -> Option<(usize, usize)> {
        let end = at.checked_add(n)?;
        if (end - 1) >> PAGE_BITS != at >> PAGE_BITS {
            return None;
        }
        let page = at >> PAGE_BITS;
        let (last_page, last_list) = self.last.get();
        let list = if last_page == page {
            last_list
        } else {
            let list = *self.pages.get(&page)?;
            self.last.set((page, list));
            list
        };
        for &i in &self.lists[list as usize] {
            let r = &regions[i as usize];
            let r_end = r.address + r.bytes.len() as u64;
            if r.address <= at && at < r_end {
                return (end <= r_end).then(|| (i as usize, (at - r.address) as usize));
            }
            if r.address < end && at < r_end {
                // An earlier region holds a later byte of the element.
                return None;
            }
        }
        None
    }

    /// Reads the `n`-byte little-endian element at `at` for `lane`.
    pub(crate) fn read(&self, st: &State, at: u64, n: u64, lane: usize) -> R<u64> {
        if let Some((i, o)) = self.find(&st.memory, at, n) {
            let bytes = &st.memory[i].bytes[o..o + n as usize];
            return Ok(bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b)));
        }
        let mut v = 0u64;
        for k in 0..n {
            let address = at.wrapping_add(k);
            let byte = st.read_byte(address).ok_or(Fail::Fault { lane, address })?;
            v |= u64::from(byte) << (8 * k);
        }
        Ok(v)
    }

    /// Writes the `n` low bytes of `v`, little-endian, at `at` for `lane`.
    pub(crate) fn write(&self, st: &mut State, at: u64, n: u64, v: u64, lane: usize) -> R<()> {
        if let Some((i, o)) = self.find(&st.memory, at, n) {
            let bytes = &mut st.memory[i].bytes[o..o + n as usize];
            for (k, b) in bytes.iter_mut().enumerate() {
                *b = (v >> (8 * k)) as u8;
            }
            return Ok(());
        }
        for k in 0..n {
            let address = at.wrapping_add(k);
            if !st.write_byte(address, (v >> (8 * k)) as u8) {
                return Err(Fail::Fault { lane, address });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(regions: &[(u64, usize)]) -> State {
        let mut st = State::default();
        for (k, &(address, len)) in regions.iter().enumerate() {
            st.memory.push(Region {
                address,
                bytes: (0..len)
                    .map(|i| (i as u8).wrapping_add(16 * k as u8))
                    .collect(),
            });
        }
        st
    }

    /// Every read and write of 1, 2, 4 and 8 bytes around overlapping, page-straddling
    /// and adjacent regions gives what the byte-by-byte access gives.
    #[test]
    fn whole_elements_match_bytes() {
        let layout = [
            (0x0ff8, 16),
            (0x1004, 8),
            (0x1000, 4),
            (0x2000, 3),
            (0x2003, 5),
        ];
        for n in [1u64, 2, 4, 8] {
            for at in 0x0ff0..0x2010u64 {
                for soft in [false, true] {
                    let mut st = state(&layout);
                    st.soft_fault = soft;
                    let mut pages = Pages::default();
                    pages.follow(&st.memory);
                    let by_bytes: Option<u64> = (0..n).try_fold(0u64, |v, k| {
                        st.read_byte(at + k).map(|b| v | u64::from(b) << (8 * k))
                    });
                    let got = pages.read(&st, at, n, 0).ok();
                    assert_eq!(got, by_bytes, "read {n} at {at:#x}");
                    let mut reference = st.clone();
                    let v = 0x1122_3344_5566_7788u64;
                    let ok = (0..n).all(|k| reference.write_byte(at + k, (v >> (8 * k)) as u8));
                    let wrote = pages.write(&mut st, at, n, v, 0).is_ok();
                    assert_eq!(wrote, ok, "write {n} at {at:#x}");
                    assert_eq!(st.memory, reference.memory, "write {n} at {at:#x}");
                }
            }
        }
    }

    #[test]
    fn follows_added_regions() {
        let mut st = state(&[(0x1000, 4)]);
        let mut pages = Pages::default();
        pages.follow(&st.memory);
        assert!(pages.read(&st, 0x3000, 4, 0).is_err());
        st.memory.push(Region {
            address: 0x3000,
            bytes: vec![1, 2, 3, 4],
        });
        pages.follow(&st.memory);
        assert_eq!(pages.read(&st, 0x3000, 4, 0).ok(), Some(0x0403_0201));
    }
}
