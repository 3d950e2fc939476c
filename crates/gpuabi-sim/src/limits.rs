//! Limits that keep every run finite and bounded in memory.

/// Most waves one run may have. Waves run one after another in one reused register file, so
/// this bounds how long a dispatch can take rather than its memory.
pub const MAX_WAVES: usize = 4096;

/// Most scratch bytes per lane a run may use, whatever [`Limits::scratch_bytes_per_lane`]
/// says: 64 MiB per wave64, well above what the hardware gives a lane (its per-wave scratch
/// size field tops out at a few MiB), and small enough that a wave's scratch fits in memory.
pub const MAX_SCRATCH_BYTES_PER_LANE: u32 = 1 << 20;

/// Most LDS bytes a work-group may have: the 64 KiB a work-group can allocate on GCN3,
/// RDNA 2 and RDNA 3 (LLVM's AMDGPU usage documentation, "Memory Spaces": the maximum
/// group segment size).
pub const MAX_LDS_BYTES: u32 = 64 * 1024;

/// Bounds on a run; reaching one ends it with a [`crate::SimError`] that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Instructions one wave may execute.
    pub instructions_per_wave: u64,
    /// Nested `s_swappc_b64` calls not yet returned.
    pub call_depth: u32,
    /// Bytes of scratch per lane (RDNA `scratch_*` instructions); at most
    /// [`MAX_SCRATCH_BYTES_PER_LANE`] take effect.
    pub scratch_bytes_per_lane: u32,
    /// Bytes of all global buffers together.
    pub global_bytes: u64,
    /// Lines of trace kept.
    pub trace_lines: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions_per_wave: 10_000_000,
            call_depth: 64,
            scratch_bytes_per_lane: 64 * 1024,
            global_bytes: 1 << 30,
            trace_lines: 100_000,
        }
    }
}
