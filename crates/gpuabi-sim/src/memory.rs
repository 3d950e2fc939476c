//! Global memory: named byte buffers at fixed addresses, with bounds, and optionally a
//! record of which bytes of chosen buffers were written, so that reads of bytes nothing
//! wrote can be reported. Optionally, every address outside the buffers answers with
//! seeded random bytes ([`Memory::answer_unmapped`]).

use std::collections::HashMap;

use fixedbitset::FixedBitSet;

use crate::seeded::SplitMix64;

/// Where the first buffer starts; buffers are 64 KiB aligned with a 64 KiB gap after each,
/// so that running off the end of one never reaches the next.
pub const GLOBAL_BASE: u64 = 0x1_0000_0000;
const ALIGN: u64 = 0x1_0000;

/// Index of a buffer in [`Memory`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferId(pub usize);

/// One global buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// Name for reports (`out`, `cb0`, `scratch`).
    pub name: String,
    /// Byte address of its first byte.
    pub base: u64,
    /// Its contents.
    pub data: Vec<u8>,
}

/// All global buffers of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    buffers: Vec<Buffer>,
    next: u64,
    total: u64,
    /// Watched buffers (see [`Memory::watch`]): the buffer's index and its written bytes.
    watched: Vec<(usize, FixedBitSet)>,
    /// Reads of unwritten bytes of watched buffers since the last
    /// [`Memory::take_unwritten_reads`].
    unwritten: Vec<UnwrittenRead>,
    /// The pages of random memory outside the buffers, when it answers.
    random: Option<RandomPages>,
}

/// Bytes of one page of random memory.
pub const RANDOM_PAGE_BYTES: u64 = 4096;

/// Memory outside the buffers that answers with seeded random bytes: what an address holds
/// depends only on the seed and the address, so reads need no storage; a page is kept once
/// something is stored into it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RandomPages {
    seed: u64,
    pages: HashMap<u64, Vec<u8>>,
    max_pages: usize,
}

impl RandomPages {
    /// The random bytes of the aligned eight bytes at `addr & !7`.
    fn word(&self, addr: u64) -> u64 {
        SplitMix64::new(self.seed ^ (addr / 8).wrapping_mul(0xd6e8_feb8_6659_fd93)).next_u64()
    }

    fn read_byte(&self, addr: u64) -> u8 {
        match self.pages.get(&(addr / RANDOM_PAGE_BYTES)) {
            Some(p) => p[(addr % RANDOM_PAGE_BYTES) as usize],
            None => (self.word(addr) >> (8 * (addr % 8))) as u8,
        }
    }

    /// The page holding `addr`, made from its random bytes when first written; `None` when
    /// making it would exceed the page budget.
    fn page(&mut self, addr: u64) -> Option<&mut Vec<u8>> {
        let number = addr / RANDOM_PAGE_BYTES;
        if !self.pages.contains_key(&number) {
            if self.pages.len() >= self.max_pages {
                return None;
            }
            let start = number * RANDOM_PAGE_BYTES;
            let bytes = (0..RANDOM_PAGE_BYTES / 8)
                .flat_map(|w| self.word(start + 8 * w).to_le_bytes())
                .collect();
            self.pages.insert(number, bytes);
        }
        self.pages.get_mut(&number)
    }

    fn write_byte(&mut self, addr: u64, value: u8) -> Option<()> {
        let at = (addr % RANDOM_PAGE_BYTES) as usize;
        self.page(addr).map(|p| p[at] = value)
    }
}

/// A read of bytes of a watched buffer that nothing wrote since the buffer was watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnwrittenRead {
    /// The buffer read.
    pub buffer: BufferId,
    /// Byte offset of the read in the buffer.
    pub offset: u64,
    /// Bytes read.
    pub bytes: u32,
}

/// An allocation would exceed the global memory limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("buffer `{name}` of {bytes} bytes exceeds the global memory limit of {limit} bytes")]
pub struct TooLarge {
    /// Buffer name.
    pub name: String,
    /// Requested size.
    pub bytes: u64,
    /// The limit.
    pub limit: u64,
}

impl Memory {
    /// No buffers.
    pub fn new() -> Memory {
        Memory {
            buffers: Vec::new(),
            next: GLOBAL_BASE,
            total: 0,
            watched: Vec::new(),
            unwritten: Vec::new(),
            random: None,
        }
    }

    /// From now on, every address outside the buffers holds random bytes that depend only
    /// on `seed` and the address, and stores there are kept, page by page
    /// ([`RANDOM_PAGE_BYTES`]); at most `limit` bytes of pages are stored into (beyond that
    /// a store is outside memory, as without random memory).
    ///
    /// For code run without a driver behind it: loads of descriptors, tables and records
    /// through pointers find data, and nothing the code does depends on that data being
    /// anything in particular.
    pub fn answer_unmapped(&mut self, seed: u64, limit: u64) {
        self.random = Some(RandomPages {
            seed,
            pages: HashMap::new(),
            max_pages: usize::try_from(limit / RANDOM_PAGE_BYTES).unwrap_or(usize::MAX),
        });
    }

    /// Pages of random memory stored into so far.
    pub fn random_pages(&self) -> usize {
        self.random.as_ref().map_or(0, |r| r.pages.len())
    }

    /// Records from now on which bytes of buffer `id` are written, and reports reads of
    /// the others ([`Memory::take_unwritten_reads`]). Watching a buffer again keeps its
    /// record.
    ///
    /// Meant for a private segment: its zeros are not a value a program put there, so a
    /// read of them is a read of memory the program never defined (on hardware, whatever
    /// an earlier dispatch left).
    pub fn watch(&mut self, id: BufferId) {
        if id.0 < self.buffers.len() && !self.watched.iter().any(|(b, _)| *b == id.0) {
            let bits = FixedBitSet::with_capacity(self.buffers[id.0].data.len());
            self.watched.push((id.0, bits));
        }
    }

    /// The reads of unwritten bytes of watched buffers since the last call, in order.
    pub fn take_unwritten_reads(&mut self) -> Vec<UnwrittenRead> {
        std::mem::take(&mut self.unwritten)
    }

    /// Whether reads of unwritten bytes are waiting for [`Memory::take_unwritten_reads`].
    pub fn has_unwritten_reads(&self) -> bool {
        !self.unwritten.is_empty()
    }

    fn note_read(&mut self, buffer: usize, off: usize, bytes: usize) {
        if let Some((_, written)) = self.watched.iter().find(|(b, _)| *b == buffer) {
            if (off..off + bytes).any(|i| !written.contains(i)) {
                self.unwritten.push(UnwrittenRead {
                    buffer: BufferId(buffer),
                    offset: off as u64,
                    bytes: bytes as u32,
                });
            }
        }
    }

    fn note_write(&mut self, buffer: usize, off: usize, bytes: usize) {
        if let Some((_, written)) = self.watched.iter_mut().find(|(b, _)| *b == buffer) {
            written.insert_range(off..off + bytes);
        }
    }

    /// Adds a buffer with `data`; fails if all buffers together would exceed `limit` bytes.
    pub fn add(&mut self, name: &str, data: Vec<u8>, limit: u64) -> Result<BufferId, TooLarge> {
        let bytes = data.len() as u64;
        if self.total + bytes > limit {
            return Err(TooLarge {
                name: name.to_string(),
                bytes,
                limit,
            });
        }
        let base = self.next.max(GLOBAL_BASE);
        self.next = (base + bytes).div_ceil(ALIGN) * ALIGN + ALIGN;
        self.total += bytes;
        self.buffers.push(Buffer {
            name: name.to_string(),
            base,
            data,
        });
        Ok(BufferId(self.buffers.len() - 1))
    }

    /// Adds a buffer at a given address, as another memory model placed it (the IR
    /// interpreter puts buffer `i` at `(i + 1) << 32`), so that pointer values stored in
    /// memory are the same in both; later buffers without an address go after it. Fails
    /// on the memory limit or when the range overlaps a buffer (or is below the global
    /// base or wraps).
    pub fn add_at(
        &mut self,
        name: &str,
        base: u64,
        data: Vec<u8>,
        limit: u64,
    ) -> Result<BufferId, TooLarge> {
        let bytes = data.len() as u64;
        let id = self.place(name, base, data, limit, |end| {
            base >= GLOBAL_BASE && end.is_some()
        })?;
        self.next = self
            .next
            .max((base + bytes).div_ceil(ALIGN) * ALIGN + ALIGN);
        Ok(id)
    }

    /// Adds a buffer at `base` below [`GLOBAL_BASE`], in the 4 GiB of the code (whose
    /// addresses have a high half of 0), for data a program finds through the high half of
    /// its program counter, as a PAL shader finds its global information table. Fails on
    /// the memory limit, when the range reaches [`GLOBAL_BASE`] or starts at 0, or when it
    /// overlaps a buffer.
    pub fn add_in_code_space(
        &mut self,
        name: &str,
        base: u64,
        data: Vec<u8>,
        limit: u64,
    ) -> Result<BufferId, TooLarge> {
        self.place(name, base, data, limit, |end| {
            base != 0 && end.is_some_and(|e| e <= GLOBAL_BASE)
        })
    }

    /// Adds a buffer at `base` when all buffers together stay within `limit`, `in_range`
    /// accepts the end of its range (`None` when the range wraps) and it overlaps no
    /// buffer.
    fn place(
        &mut self,
        name: &str,
        base: u64,
        data: Vec<u8>,
        limit: u64,
        in_range: impl Fn(Option<u64>) -> bool,
    ) -> Result<BufferId, TooLarge> {
        let bytes = data.len() as u64;
        let end = base.checked_add(bytes);
        let overlaps =
            |b: &Buffer| end.is_some_and(|e| base < b.base + b.data.len() as u64 && b.base < e);
        if self.total + bytes > limit || !in_range(end) || self.buffers.iter().any(overlaps) {
            return Err(TooLarge {
                name: name.to_string(),
                bytes,
                limit,
            });
        }
        self.total += bytes;
        self.buffers.push(Buffer {
            name: name.to_string(),
            base,
            data,
        });
        Ok(BufferId(self.buffers.len() - 1))
    }

    /// Adds a buffer a program brings along (a data section) at `base`, which is above
    /// where other buffers are placed; unlike [`Memory::add_at`] later buffers without an
    /// address are not moved after it. Fails when the range overlaps a buffer.
    pub fn add_segment(
        &mut self,
        name: &str,
        base: u64,
        data: Vec<u8>,
    ) -> Result<BufferId, TooLarge> {
        let next = self.next;
        let id = self.add_at(name, base, data, u64::MAX)?;
        self.next = next;
        Ok(id)
    }

    /// Writes bytes at `addr`, all inside one buffer (or random memory); `None` otherwise.
    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) -> Option<()> {
        let Some((i, off)) = self.locate(addr, u32::try_from(bytes.len()).ok()?) else {
            let random = self.random.as_mut()?;
            // A page at a time; random memory covers every address, wrapping at 2^64.
            let mut done = 0;
            while done < bytes.len() {
                let at = addr.wrapping_add(done as u64);
                let in_page = (at % RANDOM_PAGE_BYTES) as usize;
                let n = (RANDOM_PAGE_BYTES as usize - in_page).min(bytes.len() - done);
                random.page(at)?[in_page..in_page + n].copy_from_slice(&bytes[done..done + n]);
                done += n;
            }
            return Some(());
        };
        self.buffers[i].data[off..off + bytes.len()].copy_from_slice(bytes);
        self.note_write(i, off, bytes.len());
        Some(())
    }

    /// The buffer `id`.
    pub fn buffer(&self, id: BufferId) -> &Buffer {
        &self.buffers[id.0]
    }

    /// The buffer named `name`.
    pub fn find(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// All buffers in allocation order.
    pub fn buffers(&self) -> &[Buffer] {
        &self.buffers
    }

    fn locate(&self, addr: u64, bytes: u32) -> Option<(usize, usize)> {
        let end = addr.checked_add(u64::from(bytes))?;
        self.buffers.iter().enumerate().find_map(|(i, b)| {
            (addr >= b.base && end <= b.base + b.data.len() as u64)
                .then(|| (i, (addr - b.base) as usize))
        })
    }

    /// Reads a little-endian dword; `None` if outside every buffer.
    pub fn read_u32(&mut self, addr: u64) -> Option<u32> {
        self.read(addr, 4)
    }

    /// Reads `bytes` (1, 2 or 4) little-endian bytes, zero-extended; `None` if outside every
    /// buffer.
    pub fn read(&mut self, addr: u64, bytes: u32) -> Option<u32> {
        let Some((i, off)) = self.locate(addr, bytes) else {
            let random = self.random.as_ref()?;
            let mut v = 0u32;
            for k in (0..u64::from(bytes)).rev() {
                v = v << 8 | u32::from(random.read_byte(addr.wrapping_add(k)));
            }
            return Some(v);
        };
        if !self.watched.is_empty() {
            self.note_read(i, off, bytes as usize);
        }
        let d = &self.buffers[i].data[off..off + bytes as usize];
        Some(d.iter().rev().fold(0u32, |v, b| v << 8 | u32::from(*b)))
    }

    /// Writes the low `bytes` (1, 2 or 4) bytes of `value`, little-endian; `None` if outside
    /// every buffer.
    pub fn write(&mut self, addr: u64, bytes: u32, value: u32) -> Option<()> {
        let Some((i, off)) = self.locate(addr, bytes) else {
            let random = self.random.as_mut()?;
            for (k, b) in value.to_le_bytes()[..bytes as usize].iter().enumerate() {
                random.write_byte(addr.wrapping_add(k as u64), *b)?;
            }
            return Some(());
        };
        let n = bytes as usize;
        self.buffers[i].data[off..off + n].copy_from_slice(&value.to_le_bytes()[..n]);
        if !self.watched.is_empty() {
            self.note_write(i, off, n);
        }
        Some(())
    }

    /// Writes a little-endian dword; `None` if outside every buffer.
    pub fn write_u32(&mut self, addr: u64, value: u32) -> Option<()> {
        self.write(addr, 4, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_gaps() {
        let mut m = Memory::new();
        let a = m.add("a", vec![0; 8], 1 << 20).unwrap();
        let b = m.add("b", vec![0; 4], 1 << 20).unwrap();
        let (ba, bb) = (m.buffer(a).base, m.buffer(b).base);
        assert!(bb >= ba + 8 + ALIGN);
        m.write_u32(ba + 4, 0xdead_beef).unwrap();
        assert_eq!(m.read_u32(ba + 4), Some(0xdead_beef));
        assert_eq!(m.read_u32(ba + 6), None);
        assert_eq!(m.read_u32(ba + 8), None);
        assert!(m.add("c", vec![0; 1 << 20], 1 << 20).is_err());
    }

    #[test]
    fn random_memory_answers_outside_the_buffers() {
        let mut m = Memory::new();
        let a = m.add("a", vec![5; 8], 1 << 20).unwrap();
        let ba = m.buffer(a).base;
        m.answer_unmapped(7, 2 * RANDOM_PAGE_BYTES);
        // Buffers answer as before.
        assert_eq!(m.read_u32(ba), Some(0x0505_0505));
        // Elsewhere: the eight bytes at an aligned address A are SplitMix64's first number
        // seeded with 7 ^ (A / 8) * constant, read without storing anything.
        let page = 0x1234_5678_9000u64;
        let word =
            |a: u64| SplitMix64::new(7 ^ (a / 8).wrapping_mul(0xd6e8_feb8_6659_fd93)).next_u64();
        assert_eq!(m.read_u32(page), Some(word(page) as u32));
        assert_eq!(
            m.read(page + 4, 2),
            Some((word(page) >> 32) as u32 & 0xffff)
        );
        assert_eq!(
            m.read_u32(page + 6),
            Some((word(page) >> 48) as u32 | (word(page + 8) as u32) << 16)
        );
        for far in [8 * RANDOM_PAGE_BYTES, 80 * RANDOM_PAGE_BYTES] {
            assert!(m.read_u32(page + far).is_some());
        }
        assert_eq!(m.random_pages(), 0);
        // Stores stay, also across a page boundary, and keep the page's other bytes.
        m.write_u32(page + RANDOM_PAGE_BYTES - 2, 0xaabb_ccdd)
            .unwrap();
        assert_eq!(m.read_u32(page + RANDOM_PAGE_BYTES - 2), Some(0xaabb_ccdd));
        assert_eq!(m.read_u32(page), Some(word(page) as u32));
        assert_eq!(m.random_pages(), 2);
        // A third page stored into is beyond the budget; reads still answer.
        assert_eq!(m.write_u32(page + 4 * RANDOM_PAGE_BYTES, 1), None);
        assert!(m.read_u32(page + 4 * RANDOM_PAGE_BYTES).is_some());
    }

    #[test]
    fn watched_buffers_report_reads_of_unwritten_bytes() {
        let mut m = Memory::new();
        let a = m.add("a", vec![7; 16], 1 << 20).unwrap();
        let b = m.add("b", vec![0; 16], 1 << 20).unwrap();
        let (ba, bb) = (m.buffer(a).base, m.buffer(b).base);
        m.watch(a);
        m.write(ba + 4, 2, 0xbeef).unwrap();
        // Bytes 4 and 5 were written; 6 and 7 were not, so only the wider reads report.
        assert_eq!(m.read(ba + 4, 2), Some(0xbeef));
        assert!(!m.has_unwritten_reads());
        assert_eq!(m.read_u32(ba + 4), Some(0x0707_beef));
        assert_eq!(m.read(ba, 1), Some(7));
        // An unwatched buffer never reports.
        m.read_u32(bb).unwrap();
        let reads = m.take_unwritten_reads();
        let expected = [
            UnwrittenRead {
                buffer: a,
                offset: 4,
                bytes: 4,
            },
            UnwrittenRead {
                buffer: a,
                offset: 0,
                bytes: 1,
            },
        ];
        assert_eq!(reads, expected);
        assert!(!m.has_unwritten_reads());
    }
}
