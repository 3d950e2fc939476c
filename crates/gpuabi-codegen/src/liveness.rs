//! Liveness of temps, and one live interval per temp, over SSA machine IR as ACO's
//! `aco_live_var_analysis.cpp` computes it: VGPR temps over the logical CFG, SGPR temps
//! (lane masks included) over the linear CFG.
//!
//! Why VGPRs may follow the logical CFG although the wave runs the linear one: every VGPR
//! write is masked by exec, so code of one arm of a divergent `if` only writes the lanes of
//! that arm. A VGPR value needed only by the else arm may share its register with values of
//! the then arm: the then arm overwrites it in lanes that never read it again.
//!
//! A phi defines its temp at the top of its block; its sources are read at the end of the
//! matching predecessors (live out of them, not live into the phi's block), where SSA
//! elimination places their copies. The exec masks that exec-mask insertion adds are
//! SGPR temps written more than once; a write of every dword of a temp kills it.
//!
//! Instructions are numbered in emission order; instruction `g` reads its operands at
//! point `2g` and writes its results at `2g + 1`, so a result may take the register of an
//! operand that dies there. The interval of a temp spans every point where it is live,
//! holes included: linear scan over such intervals never gives two temps live at one
//! point one register.

use fixedbitset::FixedBitSet;
use gpuabi_layout::reg::RegFile;

use crate::mir::{Function, Pseudo};

/// Live temps at each block's start and end.
#[derive(Debug, Clone)]
pub struct Liveness {
    /// Temps live on entry to each block (phi destinations are not: they are defined
    /// there).
    pub live_in: Vec<FixedBitSet>,
    /// Temps live on exit from each block, phi sources of its successors included.
    pub live_out: Vec<FixedBitSet>,
}

/// Computes liveness by the usual backward fixed point.
pub fn liveness(f: &Function) -> Liveness {
    let n = f.temps.len();
    let nb = f.blocks.len();
    let mut vgprs = FixedBitSet::with_capacity(n);
    for (t, info) in f.temps.iter().enumerate() {
        vgprs.set(t, info.file == RegFile::Vgpr);
    }
    let mut sgprs = vgprs.clone();
    sgprs.toggle_range(..);
    let mut gen = vec![FixedBitSet::with_capacity(n); nb];
    let mut kill = vec![FixedBitSet::with_capacity(n); nb];
    // Phi sources, live out of the predecessor they come from.
    let mut phi_out = vec![FixedBitSet::with_capacity(n); nb];
    let slice_mask = |offset: u8, dwords: u8| ((1u32 << dwords) - 1) << offset;
    // Dwords of each temp written so far in the block being scanned.
    let mut written: Vec<u32> = vec![0; n];
    for (b, block) in f.blocks.iter().enumerate() {
        let mut touched = Vec::new();
        for inst in &block.insts {
            let (uses, defs) = inst.temp_uses_defs();
            if inst.is_phi() {
                let preds = if inst.is(Pseudo::Phi) {
                    &block.logical_preds
                } else {
                    &block.linear_preds
                };
                for (p, src) in preds.iter().zip(&inst.opnds[1..]) {
                    if let Some(s) = src.slice() {
                        phi_out[p.index()].insert(s.temp.index());
                    }
                }
            } else {
                for u in uses {
                    let need = slice_mask(u.offset, u.dwords);
                    if written[u.temp.index()] & need != need {
                        gen[b].insert(u.temp.index());
                    }
                }
            }
            for d in defs {
                let t = d.temp.index();
                if written[t] == 0 {
                    touched.push(t);
                }
                written[t] |= slice_mask(d.offset, d.dwords);
                if written[t] == slice_mask(0, f.info(d.temp).dwords) {
                    kill[b].insert(t);
                }
            }
        }
        for t in touched {
            written[t] = 0;
        }
    }
    let mut live_in = vec![FixedBitSet::with_capacity(n); nb];
    let mut live_out = vec![FixedBitSet::with_capacity(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let block = &f.blocks[b];
            let mut out = phi_out[b].clone();
            let mut v = FixedBitSet::with_capacity(n);
            for s in &block.logical_succs {
                v.union_with(&live_in[s.index()]);
            }
            v.intersect_with(&vgprs);
            out.union_with(&v);
            let mut s = FixedBitSet::with_capacity(n);
            for succ in &block.linear_succs {
                s.union_with(&live_in[succ.index()]);
            }
            s.intersect_with(&sgprs);
            out.union_with(&s);
            let mut inn = out.clone();
            inn.difference_with(&kill[b]);
            inn.union_with(&gen[b]);
            if inn != live_in[b] {
                live_in[b] = inn;
                changed = true;
            }
            live_out[b] = out;
        }
    }
    Liveness { live_in, live_out }
}

/// One interval per temp, `None` for temps that never occur: `(first point, last point)`.
pub fn intervals(f: &Function, live: &Liveness) -> Vec<Option<(u32, u32)>> {
    let mut iv: Vec<Option<(u32, u32)>> = vec![None; f.temps.len()];
    let mut extend = |t: usize, p: u32| {
        iv[t] = Some(match iv[t] {
            None => (p, p),
            Some((a, b)) => (a.min(p), b.max(p)),
        });
    };
    let mut g = 0u32;
    for (b, block) in f.blocks.iter().enumerate() {
        let first = 2 * g;
        for inst in &block.insts {
            let (uses, defs) = inst.temp_uses_defs();
            // A phi's sources are read at the ends of the predecessors (live out there).
            if !inst.is_phi() {
                for u in uses {
                    extend(u.temp.index(), 2 * g);
                }
            }
            for d in defs {
                extend(d.temp.index(), 2 * g + 1);
            }
            g += 1;
        }
        // An empty block still has a point, so values live through it stay live there.
        if block.insts.is_empty() {
            g += 1;
        }
        let last = 2 * g - 1;
        for t in live.live_in[b].ones() {
            extend(t, first);
        }
        for t in live.live_out[b].ones() {
            extend(t, last);
        }
    }
    iv
}
