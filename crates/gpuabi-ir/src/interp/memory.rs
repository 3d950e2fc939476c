//! Global memory: named buffers at fixed, disjoint addresses.
//!
//! Buffer `i` lives at `(i + 1) << 32`, so an address names its buffer in its high half and
//! the offset in its low half; address 0 and everything between buffers is unmapped.

use super::error::RunErrorKind;

/// Largest single buffer (the low half of an address).
pub const MAX_BUFFER_BYTES: u64 = 1 << 32;

/// One global buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// Name used by `--buffer`, `--arg` and `--dump`.
    pub name: String,
    /// Contents.
    pub data: Vec<u8>,
}

/// All global buffers of a dispatch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Buffers in address order.
    pub buffers: Vec<Buffer>,
    limit: u64,
}

/// Why a buffer could not be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    /// Two buffers with one name.
    #[error("buffer `{0}` is defined twice")]
    Duplicate(String),
    /// Over the memory limit.
    #[error("buffer `{name}` of {size} bytes exceeds the memory limit of {limit} bytes (all buffers together)")]
    Limit {
        /// Buffer name.
        name: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
}

impl Memory {
    /// Empty memory holding at most `limit` bytes.
    pub fn new(limit: u64) -> Memory {
        Memory {
            buffers: Vec::new(),
            limit,
        }
    }

    /// Adds a buffer and returns its address.
    pub fn add(&mut self, name: &str, data: Vec<u8>) -> Result<u64, MemoryError> {
        if self.buffer(name).is_some() {
            return Err(MemoryError::Duplicate(name.to_string()));
        }
        let used: u64 = self.buffers.iter().map(|b| b.data.len() as u64).sum();
        let size = data.len() as u64;
        if size >= MAX_BUFFER_BYTES || used + size > self.limit {
            return Err(MemoryError::Limit {
                name: name.to_string(),
                size,
                limit: self.limit.min(MAX_BUFFER_BYTES - 1),
            });
        }
        self.buffers.push(Buffer {
            name: name.to_string(),
            data,
        });
        Ok((self.buffers.len() as u64) << 32)
    }

    /// A buffer by name.
    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// Address of a buffer by name.
    pub fn address(&self, name: &str) -> Option<u64> {
        let i = self.buffers.iter().position(|b| b.name == name)?;
        Some(((i + 1) as u64) << 32)
    }

    /// The bytes at `addr..addr+len`, all inside one buffer.
    pub(crate) fn bytes(&mut self, addr: u64, len: usize) -> Result<&mut [u8], RunErrorKind> {
        let oob = || RunErrorKind::OutOfBounds { addr, len };
        let index = (addr >> 32).checked_sub(1).ok_or_else(oob)? as usize;
        let offset = (addr & 0xffff_ffff) as usize;
        let buf = self.buffers.get_mut(index).ok_or_else(oob)?;
        buf.data.get_mut(offset..offset + len).ok_or_else(oob)
    }
}
