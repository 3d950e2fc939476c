//! Argument kinds and their sizes in cb1 (the argument buffer).
//!
//! Every argument starts on a 16-byte boundary and every size is a multiple of 16.

use serde::{Deserialize, Serialize};

use crate::types::{ArgType, ValueType};

/// Alignment and size granule of cb1 arguments, in bytes.
pub const CB1_ALIGN: u32 = 16;

/// cb1 bytes of a pointer (any space, any bitness).
pub const POINTER_BYTES: u32 = 16;
/// cb1 bytes of an image (8 dwords: width, height, depth, data type, …, order).
pub const IMAGE_BYTES: u32 = 32;
/// cb1 bytes of a sampler (one u32 in a 16-byte slot).
pub const SAMPLER_BYTES: u32 = 16;
/// cb1 bytes of a `counter32_t`.
pub const COUNTER_BYTES: u32 = 16;

/// How 64-bit 3-component vectors (`long3`, `ulong3`, `double3`) are sized in cb1.
///
/// Open point decided: the `amd` rule is applied to `double3` too, by analogy with
/// `long3`/`ulong3` (the only ones observed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vec3Policy {
    /// CLRX: `roundup16(4 * 8)` = 32 bytes.
    #[default]
    Clrx,
    /// AMD's compilers (observed with 1702.3): 16 bytes.
    Amd,
}

/// The broad kind of an argument, as the JSON output names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgKind {
    /// Scalar or vector by value.
    Value,
    /// Structure by value.
    Struct,
    /// Global, constant or local pointer.
    Pointer,
    /// Image.
    Image,
    /// Sampler.
    Sampler,
    /// `counter32_t`.
    Counter,
}

impl ArgKind {
    /// The kind of `ty`.
    pub fn of(ty: &ArgType) -> ArgKind {
        match ty {
            ArgType::Value { .. } => ArgKind::Value,
            ArgType::Struct { .. } => ArgKind::Struct,
            ArgType::Pointer { .. } => ArgKind::Pointer,
            ArgType::Image { .. } => ArgKind::Image,
            ArgType::Sampler => ArgKind::Sampler,
            ArgType::Counter32 => ArgKind::Counter,
        }
    }
}

/// Rounds `bytes` up to a multiple of 16.
pub fn roundup16(bytes: u32) -> u32 {
    bytes.div_ceil(CB1_ALIGN).saturating_mul(CB1_ALIGN)
}

/// cb1 bytes of a value: `roundup16((n == 3 ? 4 : n) * max(4, e))`; 8- and 16-bit
/// elements each take a whole dword.
pub fn value_bytes(ty: ValueType, policy: Vec3Policy) -> u32 {
    let e = ty.scalar.bytes();
    if policy == Vec3Policy::Amd && e == 8 && ty.lanes == 3 {
        return 16;
    }
    roundup16(ty.stored_lanes() * e.max(4))
}

/// cb1 bytes of an argument of type `ty`.
pub fn cb1_bytes(ty: &ArgType, policy: Vec3Policy) -> u32 {
    match ty {
        ArgType::Value { ty } => value_bytes(*ty, policy),
        ArgType::Struct { ty } => roundup16(ty.size),
        ArgType::Pointer { .. } => POINTER_BYTES,
        ArgType::Image { .. } => IMAGE_BYTES,
        ArgType::Sampler => SAMPLER_BYTES,
        ArgType::Counter32 => COUNTER_BYTES,
    }
}

/// The contribution of one argument to the old (before 1598.05) `uavprivate` sum:
/// pointers and structures 32, other kinds `ceil((n == 3 ? 4 : n) * e / 16) * 32`
/// (images, samplers and counters 32).
pub fn old_uavprivate_bytes(ty: &ArgType) -> u32 {
    match ty {
        ArgType::Value { ty } => (ty.stored_lanes() * ty.scalar.bytes()).div_ceil(16) * 32,
        _ => 32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    #[test]
    fn rounding() {
        assert_eq!(roundup16(0), 0);
        assert_eq!(roundup16(1), 16);
        assert_eq!(roundup16(16), 16);
        assert_eq!(roundup16(17), 32);
    }

    #[test]
    fn vec3_policy() {
        let l3 = ValueType {
            scalar: Scalar::Long,
            lanes: 3,
        };
        assert_eq!(value_bytes(l3, Vec3Policy::Clrx), 32);
        assert_eq!(value_bytes(l3, Vec3Policy::Amd), 16);
        let f3 = ValueType {
            scalar: Scalar::Float,
            lanes: 3,
        };
        assert_eq!(value_bytes(f3, Vec3Policy::Amd), 16);
    }
}
