//! Resource limits of a run: each ends the run with an error naming the limit.

/// Register slots (64-bit values) the frames on one invocation's call stack may hold
/// together, each frame's bookkeeping counted as 4 more: 128 MiB of registers at most, so
/// that deep recursion under a raised `max_call_depth` ends with an error instead of taking
/// all memory.
pub const MAX_FRAME_SLOTS: usize = 1 << 24;

/// Limits enforced by the interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Executed instructions per invocation.
    pub max_steps: u64,
    /// Nested calls per invocation (the kernel itself is depth 0).
    pub max_call_depth: u32,
    /// Stack-array bytes live at once per invocation (sum of the frames on the call stack).
    pub max_stack_bytes: u32,
    /// Bytes of global memory (all buffers together).
    pub max_memory_bytes: u64,
    /// Invocations per dispatch.
    pub max_invocations: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 10_000_000,
            max_call_depth: 64,
            max_stack_bytes: 64 * 1024,
            max_memory_bytes: 1 << 30,
            max_invocations: 1 << 24,
        }
    }
}
