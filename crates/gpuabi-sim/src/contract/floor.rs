//! The caller's frame: while a call is open, its callee (and everything the callee calls)
//! may not store below the floor of the callee's stack, which is where the caller's frame
//! ends and the callee's scratch parameters begin.

use gpuabi_layout::reg::RegRange;

use crate::exec::memory::Descriptor;
use crate::wave::{Wave, SCALARS};

/// How a program reaches its stack, which decides the stores a floor applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StackPath {
    /// gfx9 and later: `scratch_*` instructions address the lane's private scratch by a
    /// per-lane byte offset (the stack pointer is that offset).
    Scratch,
    /// Before gfx9: buffer instructions through a swizzled scratch buffer resource (the
    /// stack pointer is that resource), addressed as global memory.
    SwizzledBuffer,
}

impl StackPath {
    /// Both paths, in the order of [`StackPath::index`].
    pub const ALL: [StackPath; 2] = [StackPath::Scratch, StackPath::SwizzledBuffer];

    /// Position in per-path tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Where the caller's frame ends, for one open call.
///
/// gfx9 and later (Mesa `aco_instruction_selection.cpp`: scratch accesses use
/// `scratch_*` with SADDR = the stack pointer): the floor is the callee's stack-pointer
/// SGPR at the call minus the scratch parameter bytes, a per-lane byte offset compared
/// with the offset of every `scratch_*` store in every lane.
///
/// Before gfx9 the stack pointer is a swizzled scratch buffer resource whose base the
/// caller bumps by the frame size times the wave size. The simulator keeps such buffers in
/// global memory, where per-lane byte `o` of lane `l` lies at
/// `base + (o / element_size) · element_size · index_stride + l · element_size +
/// o % element_size` (AMD "GCN3 ISA", Swizzled Buffer Addressing). gpuabi's rule: the
/// floor is the global address `base − scratch_param_bytes · index_stride` of the
/// callee's stack-pointer resource at the call, and a store through any swizzled buffer
/// resource (the model's only swizzled buffers are scratch) to an address below it is a
/// write into the caller's frame. When the index stride covers the wave (Mesa sets it to
/// the wave size) and the parameter bytes are whole elements, a lane's byte lies below
/// this address exactly when its per-lane offset lies below the stack pointer minus the
/// parameters. Unswizzled buffer and global stores are never checked. A stack pointer
/// that is neither one SGPR nor the four SGPRs of a swizzled resource sets no floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Floor {
    /// A per-lane scratch byte offset.
    Scratch(u64),
    /// A global byte address in a swizzled scratch buffer, with that buffer's geometry.
    Swizzled {
        address: u64,
        element_size: u32,
        index_stride: u32,
    },
}

impl Floor {
    /// The floor of a call whose callee's stack pointer is `stack_pointer`, read from
    /// `wave` at the call; `resource` is the swizzled scratch buffer resource a one-SGPR
    /// stack pointer is the wave's byte offset into, if it is one (LLVM's stack before
    /// gfx11: the per-lane bytes below the floor are the wave bytes below
    /// `base + stack pointer − parameter bytes × index stride`).
    pub fn at_call(
        wave: &Wave,
        stack_pointer: Option<RegRange>,
        param_bytes: u32,
        resource: Option<RegRange>,
    ) -> Option<Floor> {
        let r = stack_pointer?;
        let first = r.first.num as usize;
        if first + r.count as usize > SCALARS {
            return None;
        }
        let params = u64::from(param_bytes);
        let descriptor = |first: usize| {
            (first + 4 <= SCALARS).then(|| {
                Descriptor::decode([
                    wave.sgpr[first],
                    wave.sgpr[first + 1],
                    wave.sgpr[first + 2],
                    wave.sgpr[first + 3],
                ])
            })
        };
        let swizzled = |d: Descriptor, base: u64| {
            d.swizzle.then(|| Floor::Swizzled {
                address: base.saturating_sub(params * u64::from(d.index_stride)),
                element_size: d.element_size,
                index_stride: d.index_stride,
            })
        };
        match (r.count, resource) {
            (1, Some(rsrc)) => {
                let d = descriptor(rsrc.first.num as usize)?;
                swizzled(d, d.base.wrapping_add(u64::from(wave.sgpr[first])))
            }
            (1, None) => Some(Floor::Scratch(
                u64::from(wave.sgpr[first]).saturating_sub(params),
            )),
            (4, _) => {
                let d = descriptor(first)?;
                swizzled(d, d.base)
            }
            _ => None,
        }
    }

    /// The stores this floor applies to.
    pub fn path(self) -> StackPath {
        match self {
            Floor::Scratch(_) => StackPath::Scratch,
            Floor::Swizzled { .. } => StackPath::SwizzledBuffer,
        }
    }

    /// The floor as a scratch offset or global address.
    pub fn address(self) -> u64 {
        match self {
            Floor::Scratch(a) | Floor::Swizzled { address: a, .. } => a,
        }
    }

    /// Bytes of the storing lane's own stack between a store at `address` (below the
    /// floor) and the floor.
    pub fn bytes_below(self, address: u64) -> u64 {
        match self {
            Floor::Scratch(floor) => floor.saturating_sub(address),
            Floor::Swizzled {
                address: floor,
                element_size,
                index_stride,
            } => {
                // Undo the swizzle relative to the floor: whole rows of elements (one
                // element of every lane) and the byte within the lane's element.
                let es = i128::from(element_size.max(1));
                let row = es * i128::from(index_stride.max(1));
                let rel = i128::from(address) - i128::from(floor);
                let offset = rel.div_euclid(row) * es + rel.rem_euclid(row) % es;
                u64::try_from(-offset).unwrap_or(0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzled_bytes_below_count_the_lanes_own_bytes() {
        let f = Floor::Swizzled {
            address: 0x1_0000_1000,
            element_size: 4,
            index_stride: 64,
        };
        // Lane 3's dword at per-lane offset -4: one row (256 bytes) down, element 3.
        assert_eq!(f.bytes_below(0x1_0000_1000 - 256 + 12), 4);
        // Lane 0's byte 2 of the dword at per-lane offset -8.
        assert_eq!(f.bytes_below(0x1_0000_1000 - 512 + 2), 6);
        assert_eq!(Floor::Scratch(64).bytes_below(56), 8);
    }
}
