//! Counters gathered during a run.

use gpuabi_amdgpu::Class;

/// Execution statistics of all waves of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Instructions executed per class, in the order of [`Class::ALL`].
    pub by_class: [u64; Class::ALL.len()],
    /// Sum over vector ALU instructions of their active lanes.
    pub valu_active_lanes: u64,
    /// Lane-instructions: active lanes summed over vector instructions plus one per scalar one.
    pub lane_instructions: u64,
    /// `s_swappc_b64` calls.
    pub calls: u64,
    /// Bytes loaded from scratch (all lanes).
    pub scratch_bytes_loaded: u64,
    /// Bytes stored to scratch (all lanes).
    pub scratch_bytes_stored: u64,
    /// Buffer accesses (per lane) outside their descriptor's range: loads give 0, stores are
    /// dropped, as the hardware does.
    pub buffer_out_of_range: u64,
    /// Dwords of LDS accesses (per lane) outside the work-group's LDS (or, on GCN3, at or
    /// above `M0`): reads give 0 and writes are dropped, as the hardware does.
    pub lds_out_of_range: u64,
    /// Work-group barriers released (one per `s_barrier` that all waves of a work-group
    /// still running reached).
    pub barriers: u64,
    /// Waves run.
    pub waves: u64,
    /// Scheduling hints (`s_setprio`, `s_clause`, `s_inst_prefetch`, `s_delay_alu`) run as
    /// no-ops.
    pub scheduling_hints: u64,
    /// Waits for outstanding memory operations (`s_waitcnt` and its per-counter forms,
    /// RDNA 4's `s_wait_loadcnt`, `s_wait_dscnt`, `s_wait_kmcnt`, …, `s_wait_alu`) run as
    /// no-ops: the simulator completes every access at once (the wait check, when on,
    /// still follows what each wait guarantees).
    pub waits: u64,
}

impl Stats {
    /// Instructions executed of `class`.
    pub fn count(&self, class: Class) -> u64 {
        self.by_class[class_index(class)]
    }

    /// All instructions executed.
    pub fn instructions(&self) -> u64 {
        self.by_class.iter().sum()
    }

    /// Average active lanes per vector ALU instruction (0 if none ran).
    pub fn average_valu_lanes(&self) -> f64 {
        let n = self.count(Class::Valu);
        if n == 0 {
            0.0
        } else {
            self.valu_active_lanes as f64 / n as f64
        }
    }
}

/// Position of `class` in [`Class::ALL`].
pub fn class_index(class: Class) -> usize {
    class as usize
}
