//! The 64-byte kernel descriptor of a code object (LLVM's AMDGPUUsage, "Kernel
//! Descriptor" for code object v3 and later) read into a [`KernelDescriptor`].

use crate::hsa::KernelDescriptor;
use crate::target::{Target, WaveSize};

/// Bytes of a kernel descriptor.
pub const KERNEL_DESCRIPTOR_BYTES: usize = 64;

/// Byte offsets of the descriptor's fields (AMDGPUUsage, "Kernel Descriptor for GFX6-GFX12").
mod at {
    pub const GROUP_SEGMENT_FIXED_SIZE: usize = 0;
    pub const PRIVATE_SEGMENT_FIXED_SIZE: usize = 4;
    pub const KERNARG_SIZE: usize = 8;
    pub const COMPUTE_PGM_RSRC1: usize = 48;
    pub const COMPUTE_PGM_RSRC2: usize = 52;
    pub const KERNEL_CODE_PROPERTIES: usize = 56;
}

fn u32_at(b: &[u8; KERNEL_DESCRIPTOR_BYTES], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn bits(word: u32, first: u32, count: u32) -> u32 {
    (word >> first) & ((1 << count) - 1)
}

/// The wave size the descriptor asks for (`KERNEL_CODE_PROPERTIES.ENABLE_WAVEFRONT_SIZE32`).
pub fn wave_of(b: &[u8; KERNEL_DESCRIPTOR_BYTES]) -> WaveSize {
    let props = u32_at(b, at::KERNEL_CODE_PROPERTIES) & 0xffff;
    if bits(props, 10, 1) != 0 {
        WaveSize::W32
    } else {
        WaveSize::W64
    }
}

/// Whether the kernel's stack has a size LLVM could not bound (recursion, calls through
/// pointers, dynamic allocas: `KERNEL_CODE_PROPERTIES.USES_DYNAMIC_STACK`), so that its
/// `private_segment_fixed_size` is only what the known frames need.
pub fn uses_dynamic_stack(b: &[u8; KERNEL_DESCRIPTOR_BYTES]) -> bool {
    bits(u32_at(b, at::KERNEL_CODE_PROPERTIES), 11, 1) != 0
}

/// Reads the fields of a descriptor for `target`. The VGPR and SGPR counts come back as
/// the granulated counts allow (the next multiple of the allocation granule), which bounds
/// what the kernel uses; on GFX10 and later the SGPR count is not in the descriptor and
/// is returned as 106, all the kernel may address.
pub fn read_descriptor(b: &[u8; KERNEL_DESCRIPTOR_BYTES], target: Target) -> KernelDescriptor {
    let wave = wave_of(b);
    let rsrc1 = u32_at(b, at::COMPUTE_PGM_RSRC1);
    let rsrc2 = u32_at(b, at::COMPUTE_PGM_RSRC2);
    let props = u32_at(b, at::KERNEL_CODE_PROPERTIES) & 0xffff;
    let flag = |word: u32, bit: u32| bits(word, bit, 1) != 0;
    // AMDGPUUsage, compute_pgm_rsrc1 GRANULATED_WORKITEM_VGPR_COUNT: granules of 4
    // VGPRs, or 8 in wave32 on GFX10 and later.
    let vgpr_granule = if target.is_rdna() && wave == WaveSize::W32 {
        8
    } else {
        4
    };
    let next_free_sgpr = if target.is_rdna() {
        106
    } else {
        (bits(rsrc1, 6, 4) + 1) * 8
    };
    let mut d = KernelDescriptor::new(target, wave);
    d.group_segment_fixed_size = u32_at(b, at::GROUP_SEGMENT_FIXED_SIZE);
    d.private_segment_fixed_size = u32_at(b, at::PRIVATE_SEGMENT_FIXED_SIZE);
    d.kernarg_size = u32_at(b, at::KERNARG_SIZE);
    d.next_free_vgpr = (bits(rsrc1, 0, 6) + 1) * vgpr_granule;
    d.next_free_sgpr = next_free_sgpr;
    d.float_denorm_mode_32 = bits(rsrc1, 16, 2) as u8;
    d.float_denorm_mode_16_64 = bits(rsrc1, 18, 2) as u8;
    // RDNA 4 gave bits 21 and 23 other meanings (AMDGPUUsage's compute_pgm_rsrc1 for
    // GFX12: WG_RR_EN and DISABLE_PERF): it has no DX10 clamp or IEEE mode bit.
    let before_gfx12 = target != Target::Gfx12;
    d.dx10_clamp = before_gfx12 && flag(rsrc1, 21);
    d.ieee_mode = before_gfx12 && flag(rsrc1, 23);
    d.system_sgpr_private_segment_wavefront_offset = flag(rsrc2, 0);
    d.user_sgpr_count = Some(bits(rsrc2, 1, 5));
    d.system_sgpr_workgroup_id_x = flag(rsrc2, 7);
    d.system_sgpr_workgroup_id_y = flag(rsrc2, 8);
    d.system_sgpr_workgroup_id_z = flag(rsrc2, 9);
    d.system_sgpr_workgroup_info = flag(rsrc2, 10);
    d.system_vgpr_workitem_id = bits(rsrc2, 11, 2) as u8;
    d.user_sgpr_private_segment_buffer = flag(props, 0);
    d.user_sgpr_dispatch_ptr = flag(props, 1);
    d.user_sgpr_queue_ptr = flag(props, 2);
    d.user_sgpr_kernarg_segment_ptr = flag(props, 3);
    d.user_sgpr_dispatch_id = flag(props, 4);
    d.user_sgpr_flat_scratch_init = flag(props, 5);
    d.user_sgpr_private_segment_size = flag(props, 6);
    d.wavefront_size32 = flag(props, 10);
    d
}
