//! cb1, the argument buffer: each argument's byte offset and size in declaration order.

use serde::Serialize;

use crate::args::{cb1_bytes, Vec3Policy};
use crate::types::KernelArg;

/// Offset and size in bytes of one argument in cb1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Slot {
    /// Byte offset from the start of cb1 (a multiple of 16).
    pub offset: u32,
    /// Bytes the argument occupies (a multiple of 16).
    pub size: u32,
}

/// Lays the arguments out from byte 0; returns the slots and `argsSpace` (the end).
pub fn place(args: &[KernelArg], policy: Vec3Policy) -> (Vec<Slot>, u32) {
    let mut offset = 0u32;
    let slots = args
        .iter()
        .map(|a| {
            let size = cb1_bytes(&a.ty, policy);
            let slot = Slot { offset, size };
            offset = offset.saturating_add(size);
            slot
        })
        .collect();
    (slots, offset)
}
