//! Folding values into `i32` digests and storing them, so that every computed value reaches
//! memory: a wrong value anywhere changes the bytes a lane leaves behind.

use super::builder::{Builder, PTR_SLOT};
use super::{memory, Ty};

/// FNV-1a's 32-bit prime: multiplying by it after each `xor` spreads every input bit.
const FNV_PRIME: i32 = 16_777_619;

/// Writes the `i32` image of value `id` (marking it used) and returns its name: `i1`
/// zero-extended, `i64` as its halves combined, `f32` as its bits, a pointer as its offset
/// in its buffer.
fn image(b: &mut Builder, id: usize) -> String {
    let ty = b.vals[id].ty;
    match ty {
        Ty::I32 => b.use_val(id),
        Ty::I1 => {
            let v = b.use_val(id);
            b.temp(Ty::I32, &format!("zext i1 {v} to i32"))
        }
        Ty::F32 => {
            let v = b.use_val(id);
            b.temp(Ty::I32, &format!("bitcast f32 {v} to i32"))
        }
        Ty::I64 => {
            let v = b.use_val(id);
            fold64(b, &v)
        }
        Ty::Ptr => {
            let o = memory::pointer_offset(b, id);
            let o = b.use_val(o);
            fold64(b, &o)
        }
    }
}

fn fold64(b: &mut Builder, v: &str) -> String {
    let hi = b.temp(Ty::I64, &format!("lshr i64 {v}, 32"));
    let x = b.temp(Ty::I64, &format!("xor i64 {v}, {hi}"));
    b.temp(Ty::I32, &format!("trunc i64 {x} to i32"))
}

/// Writes a digest of `ids` starting from `seed` (a literal or value name) and returns the
/// final `i32` value, which is left unused for the caller.
/// Digests are written outside the instruction budget, which counts what the program
/// computes.
pub(super) fn digest(b: &mut Builder, seed: &str, ids: &[usize]) -> usize {
    let budget = b.budget;
    let mut h = seed.to_string();
    for &id in ids {
        let c = image(b, id);
        let x = b.temp(Ty::I32, &format!("xor i32 {h}, {c}"));
        h = b.temp(Ty::I32, &format!("mul i32 {x}, {FNV_PRIME}"));
    }
    let d = b.def(Ty::I32, false, &format!("add i32 {h}, 0"));
    b.budget = budget;
    d
}

/// Writes a digest of the innermost scope's unused values, seeded by `seed`.
pub(super) fn digest_locals(b: &mut Builder, seed: &str) -> usize {
    let ids = b.unused_locals();
    digest(b, seed, &ids)
}

/// Writes a store of value `id` into a new slot of this invocation's slice, in the store
/// width of its type.
fn store_value(b: &mut Builder, id: usize) {
    let ty = b.vals[id].ty;
    let (op, v, width) = match ty {
        Ty::I1 => {
            let v = b.use_val(id);
            let z = b.temp(Ty::I32, &format!("zext i1 {v} to i32"));
            ("store_8".to_string(), z, 1)
        }
        Ty::Ptr => {
            let o = memory::pointer_offset(b, id);
            ("store i64".to_string(), b.use_val(o), 8)
        }
        _ => (format!("store {}", ty.name()), b.use_val(id), ty.bytes()),
    };
    let off = b.slot(width);
    let addr = b.temp(Ty::Ptr, &format!("ptradd %slice, {off}"));
    b.line(&format!("{op} {v}, {addr}"));
}

/// Writes a store of `i32` digest `d` into a new slot of this invocation's slice.
pub(super) fn store(b: &mut Builder, d: usize) {
    store_value(b, d);
}

/// Writes the kernel's epilogue: every kernel-level value still unused (including the
/// pinned ones kept live on purpose) is stored or folded into the final digest, which
/// overwrites the pointer slot. Returns how many `i32`/`f32` values were live together at
/// its start.
pub(super) fn finish(b: &mut Builder) -> usize {
    let pending: Vec<usize> = b
        .top_level()
        .into_iter()
        .filter(|&v| !b.vals[v].used)
        .collect();
    let live = pending
        .iter()
        .filter(|&&v| matches!(b.vals[v].ty, Ty::I32 | Ty::F32))
        .count();
    let mut hashed = Vec::new();
    for v in pending {
        if b.rng.chance(30) {
            store_value(b, v);
        } else {
            hashed.push(v);
        }
    }
    let h = digest(b, "-2128831035", &hashed);
    let h = b.use_val(h);
    let wide = b.temp(Ty::I64, &format!("zext i32 {h} to i64"));
    let addr = b.temp(Ty::Ptr, &format!("ptradd %slice, {PTR_SLOT}"));
    b.line(&format!("store i64 {wide}, {addr}"));
    live
}
