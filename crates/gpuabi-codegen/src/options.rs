//! What to compile for.

use gpuabi_amdgpu::{Target, WaveSize};

/// How a kernel is entered: which registers and buffers hold its arguments and launch ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// The AMDHSA kernel ABI as LLVM uses it for `amdgpu_kernel` (kernarg segment pointer in
    /// user SGPRs, workgroup ids after them, work-item ids in v0–v2 or packed in v0).
    Hsa,
    /// AMD's Catalyst OpenCL 1.2 kernel ABI (GCN only), as `gpuabi catalyst layout` computes
    /// it.
    Catalyst,
}

impl Entry {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Entry::Hsa => "hsa",
            Entry::Catalyst => "catalyst",
        }
    }
}

/// Compilation options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The GPU generation.
    pub target: Target,
    /// The wave size.
    pub wave: WaveSize,
    /// The kernel entry ABI.
    pub entry: Entry,
    /// SGPRs the allocator may use (the kernel's own registers; `vcc` is never allocated).
    pub max_sgprs: u16,
    /// VGPRs the allocator may use.
    pub max_vgprs: u16,
}

impl Options {
    /// The defaults for a target: its default wave size, `hsa`, 256 VGPRs, and the SGPRs a
    /// kernel descriptor can declare: every SGPR an instruction can name on RDNA
    /// (s0–s105), and on GCN 1.2 s0–s89, since the descriptor's SGPR count also covers
    /// `vcc`, `flat_scratch` and `xnack_mask` in granules of 8 out of 102 (llvm-mc-19
    /// refuses `.amdhsa_next_free_sgpr` above 90 for tonga).
    pub fn new(target: Target) -> Options {
        Options {
            target,
            wave: target.default_wave(),
            entry: Entry::Hsa,
            max_sgprs: match target {
                Target::Gfx8 => 90,
                _ => target.addressable_sgprs(),
            },
            max_vgprs: 256,
        }
    }
}
