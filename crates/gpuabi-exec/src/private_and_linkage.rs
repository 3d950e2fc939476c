//! A measure of call-ABI cost that needs nothing from the compiler, so that gpuabi's code
//! and another compiler's (llc's) are measured alike: dynamic counts, by mnemonic, of the
//! instructions a calling convention and register pressure make a program execute.
//!
//! This is gpuabi's own definition. Private-memory instructions are `scratch_*` and
//! `buffer_*`: in AMDHSA code from gpuabi and from llc, global memory is reached with
//! `global_*` and `flat_*`, and `buffer_*` only with the private segment's resource
//! (GCN 1.2 has no `scratch_*`). They pay for spills, callee saves, stack-passed
//! arguments and stack arrays alike. Lane moves (`v_readlane_b32`, `v_writelane_b32`)
//! save SGPRs into VGPR lanes across calls and spills. Linkage is `s_swappc_b64` (call)
//! and `s_setpc_b64` (return, or a jump through a register).

use gpuabi_sim::Machine;

/// Dynamic wave-instruction counts of a run's private-memory accesses, lane moves and
/// call linkage, by mnemonic (see the module documentation for the exact sets).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AbiInstructions {
    /// `scratch_*` and `buffer_*` instructions executed.
    pub private_memory: u64,
    /// `v_readlane_b32` and `v_writelane_b32` executed.
    pub lane_moves: u64,
    /// `s_swappc_b64` and `s_setpc_b64` executed.
    pub linkage: u64,
}

/// The instruction sets of [`AbiInstructions`], by mnemonic prefix.
const PRIVATE_MEMORY: [&str; 2] = ["scratch_", "buffer_"];
const LANE_MOVES: [&str; 2] = ["v_readlane_b32", "v_writelane_b32"];
const LINKAGE: [&str; 2] = ["s_swappc_b64", "s_setpc_b64"];

impl AbiInstructions {
    /// The counts of a finished run of `machine` (zero when it did not count
    /// instructions, [`Machine::count_instructions`]).
    pub fn of(machine: &Machine) -> AbiInstructions {
        let mut out = AbiInstructions::default();
        let Some(counts) = &machine.counts else {
            return out;
        };
        for (n, text) in counts.iter().zip(&machine.image.texts) {
            let mnemonic = text.split_whitespace().next().unwrap_or("");
            if PRIVATE_MEMORY.iter().any(|p| mnemonic.starts_with(p)) {
                out.private_memory += n;
            } else if LANE_MOVES.contains(&mnemonic) {
                out.lane_moves += n;
            } else if LINKAGE.contains(&mnemonic) {
                out.linkage += n;
            }
        }
        out
    }

    /// All three together.
    pub fn total(&self) -> u64 {
        self.private_memory + self.lane_moves + self.linkage
    }
}
