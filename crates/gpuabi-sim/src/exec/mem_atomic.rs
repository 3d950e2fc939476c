//! Atomics on global, flat and buffer memory (`global_atomic_*`, `flat_atomic_*`,
//! `buffer_atomic_*`), after the FLAT and MUBUF chapters of AMD's GCN3, RDNA2 and RDNA3 ISA
//! guides.
//!
//! Per lane, the address is formed as for a store of the same format; the memory's value is
//! read, combined with the data ([`crate::exec::atomic::apply`]) and written back. With
//! `glc` the value from before the operation is returned: into the destination operand for
//! global and flat atomics, into the data register for buffer atomics (whose `cmpswap`
//! returns into the low half of its data tuple, the new-value half).
//!
//! Decisions: the lanes of one instruction act in increasing lane order (the guides leave
//! the order open), so lanes that hit one address see the results of the lanes below them;
//! every lane's address and data are read before any lane's result is written, as the
//! registers are read at issue. A buffer atomic whose address is out of the descriptor's
//! range changes no memory and returns 0, as an out-of-range buffer load reads 0 ("AMD
//! GCN3 ISA", "Buffer Addressing": out-of-range writes are dropped, reads return 0); it is
//! counted in [`crate::Stats::buffer_out_of_range`]. A global or flat address outside every
//! buffer is an error, as for loads and stores.

use gpuabi_amdgpu::{Format, MemAtomic};

use crate::error::SimError;
use crate::exec::atomic::apply;
use crate::exec::memory::{bad_address, lane_address, MemCtx};
use crate::image::{Decoded, Dst, Src};
use crate::wave::Wave;

/// Executes the atomic `a` of `d` on the active lanes.
pub fn exec(d: &Decoded, a: MemAtomic, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    let format = d.op.info().format;
    // Operand positions are those of a store of the format: buffer `vdata, vaddr, rsrc,
    // soffset`; global `vaddr, vdata, saddr`; flat `vaddr, vdata`.
    let (data, addr_src, third, fourth) = match format {
        Format::Mubuf => (d.src[0], d.src[1], d.src[2], d.src[3]),
        _ => (d.src[1], d.src[0], d.src[2], Src::None),
    };
    let Src::Vgpr(data) = data else {
        return Ok(());
    };
    let returns = d.mods.glc;
    let ret = match (format, d.dst[0]) {
        (Format::Mubuf, _) if returns => Some(data),
        (_, Dst::Vgpr(r)) => Some(r),
        _ => None,
    };
    let n = u16::from(a.dwords);
    let bits = 32 * u32::from(a.dwords);
    let value = |w: &Wave, reg: u16, lane: usize| {
        (0..n).fold(0u64, |v, k| v | u64::from(w.v(reg + k, lane)) << (32 * k))
    };
    let mut results = Vec::new();
    let mut m = w.exec();
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let new = value(w, data, lane);
        // `cmpswap` holds the new value in the low half of its data tuple and the compared
        // one in the high half.
        let cmp = value(w, data + n, lane);
        let Some(addr) = lane_address(d, w, lane, addr_src, third, fourth) else {
            ctx.stats.buffer_out_of_range += 1;
            results.push((lane, 0));
            continue;
        };
        let mut old = 0u64;
        for k in 0..u64::from(n) {
            let at = addr.wrapping_add(4 * k);
            let v = ctx
                .mem
                .read_u32(at)
                .ok_or_else(|| bad_address(d, "atomic", at, 4, lane))?;
            old |= u64::from(v) << (32 * k);
        }
        let stored = apply(a.op, old, new, cmp, bits);
        for k in 0..u64::from(n) {
            let at = addr.wrapping_add(4 * k);
            ctx.mem
                .write_u32(at, (stored >> (32 * k)) as u32)
                .ok_or_else(|| bad_address(d, "atomic", at, 4, lane))?;
        }
        results.push((lane, old));
    }
    if let Some(r) = ret {
        for (lane, old) in results {
            for k in 0..n {
                w.set_v(r + k, lane, (old >> (32 * k)) as u32);
            }
        }
    }
    Ok(())
}
