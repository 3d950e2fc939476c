//! Vector moves that choose their register by an index in M0 (`v_movrels_b32`,
//! `v_movreld_b32`, `v_movrelsd_b32`, RDNA's `v_movrelsd_2_b32` and `v_swaprel_b32`) or
//! their lane by a permutation (RDNA 3's `v_permlane64_b32`, RDNA's `v_permlane16_b32` and
//! `v_permlanex16_b32`), after the entries of AMD's "AMD GCN3 ISA", "RDNA2 ISA" and "RDNA3
//! ISA" guides. They act on the active lanes.
//!
//! Decision of the project (the guides leave it open): an index past v255 reads 0 and
//! writes nothing.

use gpuabi_amdgpu::Opcode;

use super::valu::{for_active, source, Lanes};
use crate::image::{Decoded, Dst, Src};
use crate::wave::{Wave, LANE_STRIDE, M0, VGPRS};

/// VGPR `base + offset`, or `None` past v255.
fn relative(base: u16, offset: u32) -> Option<u16> {
    let index = u32::from(base).checked_add(offset)?;
    (index < VGPRS as u32).then_some(index as u16)
}

/// The VGPR a relative source reads: `src` (a VGPR) plus `offset`.
fn source_reg(src: Src, offset: u32) -> Option<u16> {
    match src {
        Src::Vgpr(v) => relative(v, offset),
        _ => None,
    }
}

/// The VGPR a relative destination writes: `dst` plus `offset`.
fn dest_reg(dst: Dst, offset: u32) -> Option<u16> {
    match dst {
        Dst::Vgpr(v) => relative(v, offset),
        _ => None,
    }
}

/// Copies VGPR `from` (0 where `None`) into VGPR `to` in the active lanes.
fn copy(w: &mut Wave, from: Option<u16>, to: Option<u16>) {
    let Some(to) = to else {
        return;
    };
    let values: Lanes = match from {
        Some(r) => *w.vreg(r),
        None => [0; LANE_STRIDE],
    };
    let (exec, lanes) = (w.exec(), w.lanes());
    let out = w.vreg_mut(to);
    for_active(exec, lanes, |l| out[l] = values[l]);
}

/// Runs `d` if it is an instruction of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use Opcode::*;
    let m0 = w.sgpr[M0];
    // RDNA's two-index forms: the source index in M0[9:0], the destination's in M0[25:16].
    let (src_index, dst_index) = (m0 & 0x3ff, m0 >> 16 & 0x3ff);
    match d.op {
        // V_MOVRELS_B32: D = VGPR[S0 + M0].
        VMovrelsB32 => copy(w, source_reg(d.src[0], m0), dest_reg(d.dst[0], 0)),
        // V_MOVRELD_B32: VGPR[D + M0] = S0 (any source).
        VMovreldB32 => {
            let mut a: Lanes = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            if let Some(to) = dest_reg(d.dst[0], m0) {
                let (exec, lanes) = (w.exec(), w.lanes());
                let out = w.vreg_mut(to);
                for_active(exec, lanes, |l| out[l] = a[l]);
            }
        }
        // V_MOVRELSD_B32: VGPR[D + M0] = VGPR[S0 + M0].
        VMovrelsdB32 => copy(w, source_reg(d.src[0], m0), dest_reg(d.dst[0], m0)),
        // V_MOVRELSD_2_B32: VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]] ("RDNA2 ISA").
        VMovrelsd2B32 => copy(
            w,
            source_reg(d.src[0], src_index),
            dest_reg(d.dst[0], dst_index),
        ),
        // V_SWAPREL_B32: VGPR[D + M0[25:16]] and VGPR[S0 + M0[9:0]] exchanged.
        VSwaprelB32 => {
            let (a, b) = (
                dest_reg(d.dst[0], dst_index),
                source_reg(d.src[0], src_index),
            );
            if let (Some(a), Some(b)) = (a, b) {
                let (exec, lanes) = (w.exec(), w.lanes());
                for_active(exec, lanes, |l| {
                    let (x, y) = (w.v(a, l), w.v(b, l));
                    w.set_v(a, l, y);
                    w.set_v(b, l, x);
                });
            }
        }
        // V_PERMLANE64_B32: in wave64, lane i takes S0 of lane i ^ 32 (every lane's S0
        // read first); "treated as scalar NOP in wave32" ("RDNA3 ISA").
        VPermlane64B32 => {
            if w.lanes() == 64 {
                let values: Lanes = match d.src[0] {
                    Src::Vgpr(r) => *w.vreg(r),
                    _ => [0; LANE_STRIDE],
                };
                let exec = w.exec();
                if let Dst::Vgpr(r) = d.dst[0] {
                    let out = w.vreg_mut(r);
                    for_active(exec, 64, |l| out[l] = values[l ^ 32]);
                }
            }
        }
        // V_PERMLANE16_B32 / V_PERMLANEX16_B32 ("RDNA2 ISA"): lane i of each row of 16 reads
        // S0 of the lane its nibble of {S2, S1} selects, in the same row or (`x16`) in the
        // other row of the same 32; with FI and BOUND_CTRL clear (the model's only form), a
        // lane whose source lane is inactive keeps its destination.
        VPermlane16B32 | VPermlanex16B32 => {
            let select = u64::from(w.s32(d.src[2])) << 32 | u64::from(w.s32(d.src[1]));
            let values: Lanes = match d.src[0] {
                Src::Vgpr(r) => *w.vreg(r),
                _ => [0; LANE_STRIDE],
            };
            let (exec, lanes) = (w.exec(), w.lanes());
            let across = d.op == VPermlanex16B32;
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    let row = if across { (l & !15) ^ 16 } else { l & !15 };
                    let from = row + (select >> (4 * (l % 16)) & 15) as usize;
                    if exec >> from & 1 != 0 {
                        out[l] = values[from];
                    }
                });
            }
        }
        // No operation: `v_clrexcp` clears exception flags the model does not keep.
        VNop | VPipeflush | VClrexcp => {}
        _ => return false,
    }
    true
}
