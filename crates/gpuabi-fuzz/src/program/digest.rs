//! Folding values into `i32` digests and storing them, so that every computed value reaches
//! memory: a wrong value anywhere changes the bytes a lane leaves behind.
//!
//! Every value is folded exactly once, whether or not something used it (a use may keep
//! only a bit of it, as a comparison does): at the end of its `if` arm or loop body into
//! the region's digest, which leaves the region as a result or loop variable and is never
//! an operand of anything but another digest; at a kernel-level checkpoint every few
//! statements; or in the epilogue. A `break` or `continue` before the end of a loop body
//! folds the body's values so far into the digest it passes on. An arm without `else`
//! folds its digest into a slot of the invocation's slice (load, fold, store), so that each
//! loop iteration's run of it counts.

use super::builder::{Base, Builder, PTR_SLOT};
use super::{memory, Ty};

/// FNV-1a's 32-bit prime: multiplying by it spreads every bit folded in so far.
const FNV_PRIME: i32 = 16_777_619;

/// Writes the `i32` image of value `id` (marking it used and folded) and returns its name:
/// `i1` zero-extended, `i64` as its halves combined, `f32` as its bits, a pointer as its
/// offset in its buffer.
fn image(b: &mut Builder, id: usize) -> String {
    b.vals[id].hashed = true;
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
    // Each step is a bijection of the digest so far and of the value folded in, so one
    // wrong value always changes the digest; multiplying after every second value keeps
    // two wrong values from cancelling in the common cases (the same bit of both).
    for (k, &id) in ids.iter().enumerate() {
        let c = image(b, id);
        h = b.temp(Ty::I32, &format!("xor i32 {h}, {c}"));
        if k % 2 == 1 || k + 1 == ids.len() {
            h = b.temp(Ty::I32, &format!("mul i32 {h}, {FNV_PRIME}"));
        }
    }
    let d = b.def(Ty::I32, false, &format!("add i32 {h}, 0"));
    b.budget = budget;
    d
}

/// Writes a digest of the innermost scope's values not folded yet, seeded by `seed`.
/// The digest is pinned: it reaches the enclosing region's digest whole.
pub(super) fn digest_locals(b: &mut Builder, seed: &str) -> usize {
    let ids = b.unhashed_locals();
    let d = digest(b, seed, &ids);
    b.vals[d].pinned = true;
    d
}

/// Writes the digest an early `break` or `continue` passes on: seeded by the loop's
/// digest `seed`, folding every value not folded yet from the loop body's scope
/// `body_scope` inward. Only the innermost scope's values count as folded afterwards: the
/// others are folded again where the body ends, for the invocations that get there.
pub(super) fn digest_exit(b: &mut Builder, seed: &str, body_scope: usize) -> usize {
    let ids = b.unhashed_from(body_scope);
    let inner = b.unhashed_locals();
    let d = digest(b, seed, &ids);
    for v in ids {
        b.vals[v].hashed = inner.contains(&v);
    }
    b.vals[d].pinned = true;
    d
}

/// Folds the kernel-level values written since the last checkpoint (except those kept
/// for the epilogue) into a digest and stores it, so that their live ranges can end.
pub(super) fn checkpoint(b: &mut Builder) {
    let budget = b.budget;
    let ids = b.unhashed_locals();
    let d = digest(b, "3", &ids);
    store_value(b, d);
    b.budget = budget;
}

/// Writes a store of value `id` into a new slot of this invocation's slice, in the store
/// width of its type.
fn store_value(b: &mut Builder, id: usize) {
    b.vals[id].hashed = true;
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

/// Writes `d` folded into what a new slot of this invocation's slice holds, back into that
/// slot: an arm that runs in several iterations of a loop leaves every run's digest there,
/// not only the last one's.
pub(super) fn accumulate(b: &mut Builder, d: usize) {
    b.vals[d].hashed = true;
    let d = b.use_val(d);
    let off = b.slot(4);
    let addr = b.temp(Ty::Ptr, &format!("ptradd %slice, {off}"));
    let old = b.temp(Ty::I32, &format!("load i32 {addr}"));
    let x = b.temp(Ty::I32, &format!("xor i32 {old}, {d}"));
    let m = b.temp(Ty::I32, &format!("mul i32 {x}, {FNV_PRIME}"));
    b.line(&format!("store i32 {m}, {addr}"));
}

/// Writes the kernel's epilogue: every kernel-level value not folded yet (including the
/// ones kept live on purpose) and every word of every stack array go into the final digest
/// (see [`fold_pending`]), which overwrites the pointer slot. Returns how many `i32`/`f32`
/// values were live together at the epilogue's start.
pub(super) fn finish(b: &mut Builder) -> usize {
    let budget = b.budget;
    let live = b.live_values();
    let d = fold_pending(b, "-2128831035");
    let h = b.use_val(d);
    let wide = b.temp(Ty::I64, &format!("zext i32 {h} to i64"));
    let addr = b.temp(Ty::Ptr, &format!("ptradd %slice, {PTR_SLOT}"));
    b.line(&format!("store i64 {wide}, {addr}"));
    b.budget = budget;
    live
}

/// Writes the digest a function ends with, seeded by `seed`: every value of its outermost
/// scope not folded yet is stored or folded into it, together with every word of every
/// stack array (a value stored there and never loaded back would otherwise be lost). Half
/// the time the values are folded inside a loop run one to three times, so that they are
/// all live across it. Returns the digest.
pub(super) fn fold_pending(b: &mut Builder, seed: &str) -> usize {
    let budget = b.budget;
    let pending: Vec<usize> = b
        .top_level()
        .into_iter()
        .filter(|&v| !b.vals[v].hashed)
        .collect();
    let mut hashed = Vec::new();
    for v in pending {
        if b.rng.chance(30) {
            store_value(b, v);
        } else {
            hashed.push(v);
        }
    }
    let mut h = seed.to_string();
    for k in 0..b.allocas.len() {
        let (name, size) = (b.allocas[k].name.clone(), b.allocas[k].size);
        let d = counted(b, &h, size, 4, |b, i, h| {
            let w = b.temp(Ty::I32, &format!("sload i32 {name}, {i}"));
            let x = b.temp(Ty::I32, &format!("xor i32 {h}, {w}"));
            b.def(Ty::I32, false, &format!("mul i32 {x}, {FNV_PRIME}"))
        });
        h = b.use_val(d);
    }
    let d = if b.rng.chance(50) {
        let trip = b.rng.range(1, 3);
        counted(b, &h, trip, 1, |b, _, h| digest(b, h, &hashed))
    } else {
        digest(b, &h, &hashed)
    };
    b.budget = budget;
    d
}

/// Writes `loop (%i: i32 = 0, %h: i32 = seed) -> i32` that breaks with `%h` once `%i`
/// reaches `bound` and otherwise continues with `%i + step` and the value `body` writes
/// given the names of `%i` and `%h`. Returns the loop's result.
fn counted(
    b: &mut Builder,
    seed: &str,
    bound: u32,
    step: u32,
    body: impl FnOnce(&mut Builder, &str, &str) -> usize,
) -> usize {
    let i = b.detached(Ty::I32, true, Base::None);
    let h = b.detached(Ty::I32, false, Base::None);
    let r = b.detached(Ty::I32, false, Base::None);
    let (iname, hname, rname) = (b.use_val(i), b.use_val(h), b.name(r));
    b.open(&format!(
        "{rname} = loop ({iname}: i32 = 0, {hname}: i32 = {seed}) -> i32 {{"
    ));
    b.attach(i);
    b.attach(h);
    let done = b.temp(Ty::I1, &format!("icmp uge i32 {iname}, {bound}"));
    b.open(&format!("if {done} {{"));
    b.line(&format!("break {hname}"));
    b.close("}");
    let next_h = body(b, &iname, &hname);
    let next_h = b.use_val(next_h);
    let next_i = b.temp(Ty::I32, &format!("add i32 {iname}, {step}"));
    b.line(&format!("continue {next_i}, {next_h}"));
    b.close("}");
    b.attach(r);
    r
}
