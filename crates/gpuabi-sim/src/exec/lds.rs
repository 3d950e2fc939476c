//! Local data share instructions (`ds_*`): reads, writes, two-address reads and writes,
//! and atomics on the work-group's shared memory, after the "Data Share Operations" and
//! DS opcode chapters of AMD's GCN3, RDNA2 and RDNA3 ISA guides.
//!
//! Decisions, as the guides describe the hardware:
//! - An address is the lane's ADDR VGPR plus the instruction's offset (single-address
//!   forms: `offset`, in bytes; two-address forms: `offset0`/`offset1` times the element
//!   size), wrapping at 32 bits. Each dword is checked on its own: a dword outside the work-group's LDS reads
//!   as 0 and is not written, and is counted in [`crate::Stats::lds_out_of_range`]. On
//!   GCN3 (`gfx8`) the limit is also `M0` (llc-19 writes `s_mov_b32 m0, -1` before LDS
//!   accesses there): addresses at or above `M0` are out of range.
//! - Lanes act one after another in increasing lane order; so for an atomic on one
//!   address, lane `i` returns the value that lanes below `i` left.

use gpuabi_amdgpu::{AtomicOp, DsOp, Target};

use crate::exec::atomic::apply;
use crate::image::{Decoded, Dst, Src};
use crate::stats::Stats;
use crate::wave::{Wave, M0};

/// The work-group's LDS while one of its waves runs, with the counters.
pub struct LdsCtx<'a> {
    /// The bytes of the work-group's LDS.
    pub lds: &'a mut [u8],
    /// The target (operand order of `ds_cmpst*`, the `M0` limit of GCN3).
    pub target: Target,
    /// Counters.
    pub stats: &'a mut Stats,
}

impl LdsCtx<'_> {
    /// The dword at byte `addr`, 0 when out of range.
    fn read(&mut self, addr: u64, limit: u64) -> u32 {
        match self.range(addr, limit) {
            Some(r) => u32::from_le_bytes([
                self.lds[r.start],
                self.lds[r.start + 1],
                self.lds[r.start + 2],
                self.lds[r.start + 3],
            ]),
            None => {
                self.stats.lds_out_of_range += 1;
                0
            }
        }
    }

    /// Writes the dword at byte `addr`, unless out of range.
    fn write(&mut self, addr: u64, limit: u64, value: u32) {
        match self.range(addr, limit) {
            Some(r) => self.lds[r].copy_from_slice(&value.to_le_bytes()),
            None => self.stats.lds_out_of_range += 1,
        }
    }

    /// The dword at byte `addr` of the LDS, `missing` when out of range (counted).
    pub(crate) fn read_or(&mut self, addr: u64, missing: u32) -> u32 {
        match self.range(addr, u64::MAX) {
            Some(_) => self.read(addr, u64::MAX),
            None => {
                self.stats.lds_out_of_range += 1;
                missing
            }
        }
    }

    /// Writes the dword at byte `addr` of the LDS, unless out of range (counted).
    pub(crate) fn write_dword(&mut self, addr: u64, value: u32) {
        self.write(addr, u64::MAX, value)
    }

    fn range(&self, addr: u64, limit: u64) -> Option<std::ops::Range<usize>> {
        let end = addr.checked_add(4)?;
        (end <= limit.min(self.lds.len() as u64)).then_some(addr as usize..end as usize)
    }
}

fn vreg(src: Src) -> u16 {
    match src {
        Src::Vgpr(r) => r,
        _ => 0,
    }
}

/// Executes a `ds_*` instruction for the active lanes of `w`.
pub fn exec(d: &Decoded, w: &mut Wave, cx: &mut LdsCtx<'_>) {
    let Some(access) = d.op.info().ds else {
        if d.op == gpuabi_amdgpu::Opcode::DsBvhStackRtnB32 {
            super::bvh_stack::exec(d, w, cx);
        }
        return;
    };
    let limit = if cx.target == Target::Gfx8 {
        u64::from(w.sgpr[M0])
    } else {
        u64::MAX
    };
    let n = u16::from(access.dwords);
    let elem = u32::from(access.dwords) * 4;
    let dst = match d.dst[0] {
        Dst::Vgpr(r) => Some(r),
        _ => None,
    };
    let addr_reg = vreg(d.src[0]);
    let (data0, data1) = (vreg(d.src[1]), vreg(d.src[2]));
    let exec = w.exec();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        // The sum wraps at 32 bits, as the address adder does: llc-19 folds a negative
        // VGPR address and a positive offset (`v_sub_nc_u32 v2, 0, v1` then
        // `ds_read_b32 v0, v2 offset:252`).
        let base = w.v(addr_reg, lane);
        let single = u64::from(base.wrapping_add(d.mods.offset as u32));
        // The `st64` forms count their offsets in strides of 64 elements ("AMD GCN3 ISA",
        // DS_READ2ST64_B32: DS[ADDR + offset0 * 4 * 64]).
        let stride = match access.op {
            DsOp::Read2St64 | DsOp::Write2St64 => 64 * elem,
            _ => elem,
        };
        let pair = [d.mods.offset0, d.mods.offset1]
            .map(|o| u64::from(base.wrapping_add(u32::from(o) * stride)));
        match access.op {
            DsOp::Read => {
                let values: Vec<u32> = (0..n)
                    .map(|i| cx.read(single + 4 * u64::from(i), limit))
                    .collect();
                if let Some(r) = dst {
                    for (i, v) in (0..n).zip(values) {
                        w.set_v(r + i, lane, v);
                    }
                }
            }
            DsOp::Write => {
                for i in 0..n {
                    let v = w.v(data0 + i, lane);
                    cx.write(single + 4 * u64::from(i), limit, v);
                }
            }
            DsOp::Read2 | DsOp::Read2St64 => {
                let mut values = Vec::with_capacity(2 * usize::from(n));
                for a in pair {
                    for i in 0..n {
                        values.push(cx.read(a + 4 * u64::from(i), limit));
                    }
                }
                if let Some(r) = dst {
                    for (i, v) in (0..2 * n).zip(values) {
                        w.set_v(r + i, lane, v);
                    }
                }
            }
            DsOp::Write2 | DsOp::Write2St64 => {
                for (a, data) in pair.into_iter().zip([data0, data1]) {
                    for i in 0..n {
                        let v = w.v(data + i, lane);
                        cx.write(a + 4 * u64::from(i), limit, v);
                    }
                }
            }
            DsOp::Atomic(op) => {
                let wide = n == 2;
                let read = |cx: &mut LdsCtx<'_>| {
                    let lo = u64::from(cx.read(single, limit));
                    if wide {
                        lo | u64::from(cx.read(single + 4, limit)) << 32
                    } else {
                        lo
                    }
                };
                let operand = |reg: u16| {
                    let lo = u64::from(w.v(reg, lane));
                    if wide {
                        lo | u64::from(w.v(reg + 1, lane)) << 32
                    } else {
                        lo
                    }
                };
                // GCN3 and RDNA 2 compare with the first data operand and store the
                // second; RDNA 3's `ds_cmpstore_*` stores the first and compares with the
                // second.
                let (data, cmp) = match (op, cx.target) {
                    (AtomicOp::CmpStore, Target::Gfx1100) => (operand(data0), operand(data1)),
                    (AtomicOp::CmpStore, _) => (operand(data1), operand(data0)),
                    _ => (operand(data0), 0),
                };
                let old = read(cx);
                let new = apply(op, old, data, cmp, 32 * u32::from(n));
                cx.write(single, limit, new as u32);
                if wide {
                    cx.write(single + 4, limit, (new >> 32) as u32);
                }
                if let Some(r) = dst {
                    w.set_v(r, lane, old as u32);
                    if wide {
                        w.set_v(r + 1, lane, (old >> 32) as u32);
                    }
                }
            }
        }
    }
}
