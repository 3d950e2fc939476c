//! The adversarial callee: what a call from the function under test meets.

use gpuabi_layout::reg::{Reg, RegRange, RegSet};

use super::trial::Entry;
use super::{Callee, FunctionSpec, InactiveLanes};
use crate::error::SimError;
use crate::exec::memory::Descriptor;
use crate::machine::Machine;
use crate::seeded::SplitMix64;
use crate::wave::{Wave, LANE_STRIDE, M0, VCC, VGPRS};

/// Bytes per lane above its stack pointer that a stub overwrites with random bytes: a
/// callee's frame, which the caller may not keep anything in.
const SCRIBBLE_BYTES: u32 = 512;

/// One callee as a stub plays it.
struct Stub {
    /// Registers it hands back unchanged.
    preserved: RegSet,
    /// Registers whose inactive lanes it leaves alone.
    keep_inactive: RegSet,
    /// Its stack pointer's registers.
    stack_pointer: RegRange,
}

/// The stubs of a function's callees, in the order of [`FunctionSpec::callees_by_param`],
/// then the default one.
pub(super) struct Stubs {
    stubs: Vec<Stub>,
    /// The scratch resource the callees' stack pointers are wave offsets into, if any.
    scratch_resource: Option<RegRange>,
}

impl Stubs {
    pub fn new(spec: &FunctionSpec, inactive_lanes: InactiveLanes) -> Stubs {
        let stub = |callee: &Callee| {
            let mut preserved = callee.preserved.clone();
            preserved.insert_range(callee.stack_pointer);
            // Every function keeps the scratch resource (LLVM reserves it:
            // `SIRegisterInfo::getReservedRegs` in SIRegisterInfo.cpp).
            if let Some(r) = spec.scratch_resource {
                preserved.insert_range(r);
            }
            Stub {
                preserved,
                keep_inactive: match inactive_lanes {
                    InactiveLanes::Clobber => RegSet::new(),
                    InactiveLanes::KeepParameters => callee.parameters.clone(),
                },
                stack_pointer: callee.stack_pointer,
            }
        };
        let mut stubs: Vec<Stub> = spec.callees_by_param.iter().map(|(_, c)| stub(c)).collect();
        stubs.push(stub(&spec.default_callee));
        Stubs {
            stubs,
            scratch_resource: spec.scratch_resource,
        }
    }

    /// Plays the callee at `target` for a call that returns to `next`: clobbers what its
    /// ABI lets it clobber, scribbles over its frame, and returns with exec unchanged.
    pub fn call(
        &self,
        machine: &mut Machine,
        entry: &mut Entry,
        target: u64,
        next: u64,
        rng: &mut SplitMix64,
    ) -> Result<(), SimError> {
        let index = entry
            .callee_addrs
            .iter()
            .position(|&a| a == target)
            .unwrap_or(self.stubs.len() - 1);
        let stub = &self.stubs[index];
        let wave = &mut entry.wave;
        // SGPRs, VCC and M0 (exec is the caller's, and comes back as it went).
        for n in (0..VCC + 2).chain([M0]) {
            if !stub.preserved.contains(Reg::sgpr(n as u16)) {
                wave.sgpr[n] = rng.next_u32();
            }
        }
        wave.scc = rng.next_u64() & 1 != 0;
        let lanes = wave.lanes();
        let exec = wave.exec();
        for v in 0..VGPRS {
            let reg = Reg::vgpr(v as u16);
            if stub.preserved.contains(reg) {
                continue;
            }
            let first = v * LANE_STRIDE;
            if stub.keep_inactive.contains(reg) {
                for l in 0..lanes {
                    if exec >> l & 1 != 0 {
                        wave.vgpr[first + l] = rng.next_u32();
                    }
                }
            } else {
                rng.fill_u32(&mut wave.vgpr[first..first + lanes]);
            }
        }
        scribble(
            machine,
            wave,
            stub.stack_pointer,
            self.scratch_resource,
            rng,
        );
        let index = machine.image.index_at(next).ok_or(SimError::BadJump {
            pc: target,
            origin: Default::default(),
            target: next,
        })?;
        wave.pc = index;
        Ok(())
    }
}

/// Random bytes over the callee's frame: [`SCRIBBLE_BYTES`] per lane above its stack
/// pointer, in every lane.
fn scribble(
    machine: &mut Machine,
    wave: &mut Wave,
    sp: RegRange,
    resource: Option<RegRange>,
    rng: &mut SplitMix64,
) {
    let first = sp.first.num as usize;
    let lanes = wave.lanes();
    let descriptor = |first: usize| {
        Descriptor::decode([
            wave.sgpr[first],
            wave.sgpr[first + 1],
            wave.sgpr[first + 2],
            wave.sgpr[first + 3],
        ])
    };
    // A swizzled buffer: the next SCRIBBLE_BYTES of every lane are the next
    // SCRIBBLE_BYTES x lanes bytes from where the stack pointer points.
    let swizzled = match (sp.count, resource) {
        (4, _) => Some(descriptor(first).base),
        (1, Some(r)) => Some(
            descriptor(r.first.num as usize)
                .base
                .wrapping_add(u64::from(wave.sgpr[first])),
        ),
        _ => None,
    };
    if let Some(base) = swizzled {
        let mut bytes = vec![0; SCRIBBLE_BYTES as usize * lanes];
        rng.fill(&mut bytes);
        let _ = machine.memory.write_bytes(base, &bytes);
        return;
    }
    let offset = wave.sgpr[first] as usize;
    let limit = machine.limits.scratch_bytes_per_lane as usize;
    let end = (offset + SCRIBBLE_BYTES as usize).min(limit);
    if offset >= end {
        return;
    }
    for l in 0..lanes {
        let mem = &mut wave.scratch[l];
        if mem.len() < end {
            mem.resize(end, 0);
        }
        rng.fill(&mut mem[offset..end]);
    }
}
