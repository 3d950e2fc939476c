//! Which counters of outstanding memory operations an instruction counts in, and as what:
//! the facts `s_waitcnt` is placed by (the code generator's wait-count pass) and checked
//! by (the simulator).
//!
//! From "Data Dependency Resolution" and `S_WAITCNT` in AMD's "AMD GCN3 Instruction Set
//! Architecture" and "RDNA3 Instruction Set Architecture" guides, as Mesa's
//! `aco_insert_waitcnt.cpp` (`target_info`, `gen`) and LLVM's `SIInsertWaitcnts.cpp`
//! apply them:
//!
//! - `vmcnt`: vector memory (buffer, global, flat, scratch, image) loads, and on GCN its
//!   stores too; they complete in issue order;
//! - `vscnt` (RDNA): vector memory stores, in issue order;
//! - `lgkmcnt`: LDS accesses (in order among themselves), scalar memory (in any order),
//!   `s_sendmsg`, and flat accesses, which may reach the LDS (in any order relative to it);
//! - `expcnt`: exports (which no instruction of the table is).
//!
//! RDNA 4 (`gfx12`) counts the same operations in counters of other names, waited on one
//! by one ("RDNA 4 Instruction Set Architecture", `S_WAIT_LOADCNT` … `S_WAIT_KMCNT`):
//! LOADcnt is `vmcnt` (loads), STOREcnt `vscnt`, and DScnt and KMcnt split `lgkmcnt` into
//! its LDS accesses and its scalar memory and messages. The model keeps the four counters
//! for RDNA 4 and tells DScnt and KMcnt apart by the [`Event`] on `lgkmcnt`.

use crate::opcodes::{Class, Opcode};
use crate::target::Target;

/// A counter of outstanding operations that `s_waitcnt` waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// `vmcnt`.
    Vm = 0,
    /// `lgkmcnt`.
    Lgkm = 1,
    /// `expcnt`.
    Exp = 2,
    /// `vscnt` (RDNA, `s_waitcnt_vscnt`).
    Vs = 3,
}

impl Counter {
    /// Every counter, in index order.
    pub const ALL: [Counter; 4] = [Counter::Vm, Counter::Lgkm, Counter::Exp, Counter::Vs];
}

/// What an operation is on one counter. Operations of one ordered kind complete in issue
/// order among themselves; operations of different kinds, or of an unordered kind, in any
/// order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// A vector memory access counted in `vmcnt`.
    Vmem = 0,
    /// An RDNA vector memory store, counted in `vscnt`.
    VmemStore = 1,
    /// An LDS access.
    Lds = 2,
    /// A scalar memory access: returns in any order.
    Smem = 3,
    /// A flat access on `lgkmcnt`: in any order relative to the LDS accesses.
    Flat = 4,
    /// `s_sendmsg`.
    Message = 5,
}

impl Event {
    /// Whether operations of this kind complete in issue order among themselves.
    pub fn ordered(self) -> bool {
        !matches!(self, Event::Smem | Event::Flat)
    }
}

/// The counters an instruction counts in, indexed by [`Counter`], with its kind on each.
pub type Events = [Option<Event>; 4];

/// What `op` (an atomic returning its old value when `glc`) counts in on `target`, or
/// `None` for an instruction that counts in none. A memory instruction with destinations
/// (a load, an atomic that returns) writes them when it completes.
pub fn events(op: Opcode, glc: bool, target: Target) -> Option<Events> {
    let info = op.info();
    let mut e: Events = [None; 4];
    match info.class {
        Class::Smem => e[Counter::Lgkm as usize] = Some(Event::Smem),
        Class::Lds => e[Counter::Lgkm as usize] = Some(Event::Lds),
        Class::Vmem | Class::Scratch => {
            if !info.dsts_with(glc).is_empty() || !target.is_rdna() {
                e[Counter::Vm as usize] = Some(Event::Vmem);
            } else {
                e[Counter::Vs as usize] = Some(Event::VmemStore);
            }
            if info.mnemonic.starts_with("flat_") {
                e[Counter::Lgkm as usize] = Some(Event::Flat);
            }
        }
        _ if op == Opcode::SSendmsg => e[Counter::Lgkm as usize] = Some(Event::Message),
        _ => return None,
    }
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-read from the ISA guides' counter lists.
    #[test]
    fn counters_per_target() {
        use Event::*;
        let gfx8 = Target::Gfx8;
        let gfx11 = Target::Gfx1100;
        assert_eq!(
            events(Opcode::FlatLoadDword, false, gfx8),
            Some([Some(Vmem), Some(Flat), None, None])
        );
        assert_eq!(
            events(Opcode::FlatStoreDword, false, gfx8),
            Some([Some(Vmem), Some(Flat), None, None])
        );
        assert_eq!(
            events(Opcode::GlobalLoadDword, false, gfx11),
            Some([Some(Vmem), None, None, None])
        );
        assert_eq!(
            events(Opcode::GlobalStoreDword, false, gfx11),
            Some([None, None, None, Some(VmemStore)])
        );
        assert_eq!(
            events(Opcode::SLoadDwordx2, false, gfx11),
            Some([None, Some(Smem), None, None])
        );
        assert_eq!(events(Opcode::VAddNcU32, false, gfx11), None);
        assert!(Lds.ordered() && Vmem.ordered() && !Smem.ordered() && !Flat.ordered());
    }
}
