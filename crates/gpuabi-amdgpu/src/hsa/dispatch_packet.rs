//! The HSA kernel dispatch packet (`hsa_kernel_dispatch_packet_t` of the HSA runtime's
//! `hsa.h`), which the dispatch pointer SGPRs point to: byte offsets of its fields.

/// Bytes of a packet.
pub const SIZE: usize = 64;
/// `header` (u16): packet type in bits 0-7, barrier bit 8, acquire fence scope bits 9-10,
/// release fence scope bits 11-12.
pub const HEADER: usize = 0;
/// `setup` (u16): grid dimensions in bits 0-1.
pub const SETUP: usize = 2;
/// `workgroup_size_x`, `_y`, `_z` (u16 each).
pub const WORKGROUP_SIZE: [usize; 3] = [4, 6, 8];
/// `grid_size_x`, `_y`, `_z` (u32 each), in work-items.
pub const GRID_SIZE: [usize; 3] = [12, 16, 20];
/// `private_segment_size` (u32): private bytes per work-item.
pub const PRIVATE_SEGMENT_SIZE: usize = 24;
/// `group_segment_size` (u32): group bytes per work-group.
pub const GROUP_SEGMENT_SIZE: usize = 28;
/// `kernel_object` (u64): address of the kernel descriptor.
pub const KERNEL_OBJECT: usize = 32;
/// `kernarg_address` (u64).
pub const KERNARG_ADDRESS: usize = 40;
/// `completion_signal` (u64).
pub const COMPLETION_SIGNAL: usize = 56;

/// `HSA_PACKET_TYPE_KERNEL_DISPATCH`.
pub const PACKET_TYPE_KERNEL_DISPATCH: u16 = 2;
/// Bit position of the acquire fence scope in the header.
pub const ACQUIRE_FENCE_SCOPE_SHIFT: u16 = 9;
/// Bit position of the release fence scope in the header.
pub const RELEASE_FENCE_SCOPE_SHIFT: u16 = 11;
/// `HSA_FENCE_SCOPE_SYSTEM`.
pub const FENCE_SCOPE_SYSTEM: u16 = 2;
