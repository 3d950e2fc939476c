//! Liveness of temps over the linear CFG, and one live interval per temp.
//!
//! Instructions are numbered in emission order; instruction `g` reads its operands at
//! point `2g` and writes its results at `2g + 1`, so a result may take the register of an
//! operand that dies there. A temp is killed once every one of its dwords has been written
//! (by one instruction or several, as the halves of a 64-bit value are).
//! A write of a VGPR is masked by exec, and still counts as a kill: a lane only reads the
//! values its own path wrote (see the machine IR's notes), so the lanes a masked write
//! leaves alone hold nothing any later read of that temp needs.
//!
//! The interval of a temp spans every point where it is live, holes included: linear
//! scan over such intervals never gives two temps live at one point one register.

use fixedbitset::FixedBitSet;

use crate::mir::{BlockId, Function};

/// Live temps at each block's start and end.
#[derive(Debug, Clone)]
pub struct Liveness {
    /// Temps live on entry to each block.
    pub live_in: Vec<FixedBitSet>,
    /// Temps live on exit from each block.
    pub live_out: Vec<FixedBitSet>,
}

/// Computes liveness by the usual backward fixed point.
pub fn liveness(f: &Function) -> Liveness {
    let n = f.temps.len();
    let nb = f.blocks.len();
    let mut gen = vec![FixedBitSet::with_capacity(n); nb];
    let mut kill = vec![FixedBitSet::with_capacity(n); nb];
    let slice_mask = |offset: u8, dwords: u8| ((1u32 << dwords) - 1) << offset;
    for (b, block) in f.blocks.iter().enumerate() {
        // Dwords of each temp written so far in the block.
        let mut written: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
        for inst in &block.insts {
            let (uses, defs) = inst.temp_uses_defs();
            for u in uses {
                let have = written.get(&u.temp.index()).copied().unwrap_or(0);
                let need = slice_mask(u.offset, u.dwords);
                if have & need != need {
                    gen[b].insert(u.temp.index());
                }
            }
            for d in defs {
                let w = written.entry(d.temp.index()).or_insert(0);
                *w |= slice_mask(d.offset, d.dwords);
                if *w == slice_mask(0, f.info(d.temp).dwords) {
                    kill[b].insert(d.temp.index());
                }
            }
        }
    }
    let succs: Vec<_> = (0..nb).map(|b| f.successors(BlockId(b as u32))).collect();
    let mut live_in = vec![FixedBitSet::with_capacity(n); nb];
    let mut live_out = vec![FixedBitSet::with_capacity(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = FixedBitSet::with_capacity(n);
            for s in &succs[b] {
                out.union_with(&live_in[s.index()]);
            }
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
            for u in uses {
                extend(u.temp.index(), 2 * g);
            }
            for d in defs {
                extend(d.temp.index(), 2 * g + 1);
            }
            g += 1;
        }
        // An empty block still has a point, so values live through it stay live there.
        let last = if block.insts.is_empty() {
            g += 1;
            2 * g - 1
        } else {
            2 * g - 1
        };
        for t in live.live_in[b].ones() {
            extend(t, first);
        }
        for t in live.live_out[b].ones() {
            extend(t, last);
        }
    }
    iv
}
