//! Limits that keep every run finite and bounded in memory.

/// Bounds on a run; reaching one ends it with a [`crate::SimError`] that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Instructions one wave may execute.
    pub instructions_per_wave: u64,
    /// Nested `s_swappc_b64` calls not yet returned.
    pub call_depth: u32,
    /// Bytes of scratch per lane (RDNA `scratch_*` instructions).
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
