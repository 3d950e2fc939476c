//! Structured control flow: `if` with uniform and divergent conditions yielding values,
//! and counted loops with early `break` and `continue` under uniform and divergent
//! conditions.
//!
//! Termination: every loop has a counter loop variable starting at 0 that every
//! `continue` passes incremented, and a first instruction that breaks once the counter
//! reaches a bound of at most [`super::GenConfig::max_trip`] (per invocation when the bound
//! is divergent). Nested loops are only written while the product of the enclosing bounds
//! stays within [`super::GenConfig::max_loop_work`].

use super::builder::{Base, Builder, LoopCtx};
use super::{call, digest, memory, ops, Ty};

/// Types an `if` or a loop carries besides its digest.
const CARRIED: &[Ty] = &[Ty::I1, Ty::I32, Ty::I32, Ty::I64, Ty::F32, Ty::F32, Ty::Ptr];

/// Writes an `i1` condition that is uniform (the same in every invocation of a wave) or
/// divergent (depending on the invocation); returns its name. A value that already
/// decided a branch is not reused as a condition: inside or after that branch it is known,
/// and the code it guards would never run.
pub(super) fn condition(b: &mut Builder, uniform: bool) -> String {
    let c = if uniform {
        uniform_condition(b)
    } else {
        divergent_condition(b)
    };
    b.vals[c].branched = true;
    b.use_val(c)
}

fn uniform_condition(b: &mut Builder) -> usize {
    match b.rng.below(6) {
        // A group pattern: uniform in each group, so each wave takes one arm, but
        // different groups take different arms.
        0..=2 => {
            let dim = if b.rng.chance(70) { 0 } else { b.rng.below(3) };
            let g = ops::builtin(b, "group_id", dim);
            let g = b.use_val(g);
            let t = b.def(Ty::I32, true, &format!("and i32 {g}, 1"));
            let t = b.use_val(t);
            let c = b.rng.pick(&["eq", "ne"]);
            b.def(Ty::I1, true, &format!("icmp {c} i32 {t}, 0"))
        }
        3 => match b.pick_where(|v| v.ty == Ty::I1 && v.uniform && !v.branched) {
            Some(c) => c,
            None => compare(b, Ty::I32, true),
        },
        4 => compare(b, Ty::F32, true),
        _ => compare(b, Ty::I32, true),
    }
}

fn divergent_condition(b: &mut Builder) -> usize {
    if b.rng.chance(67) {
        // A lane pattern: splits every wave of more than a few invocations.
        let lane = b.rng.pick(&b.lane_ids.clone());
        let lane = b.use_val(lane);
        let mask = b.rng.pick(&[1, 3, 7, 15, 31]);
        let t = b.def(Ty::I32, false, &format!("and i32 {lane}, {mask}"));
        let t = b.use_val(t);
        let k = b.rng.range(1, mask);
        let c = b.rng.pick(&["ult", "uge", "eq", "ne"]);
        return b.def(Ty::I1, false, &format!("icmp {c} i32 {t}, {k}"));
    }
    compare(b, Ty::I32, false)
}

/// Writes a comparison of two values of `ty` (`i32` or `f32`), both uniform, or the first
/// one divergent.
fn compare(b: &mut Builder, ty: Ty, uniform: bool) -> usize {
    let x = if uniform {
        b.uniform_value(ty)
    } else {
        match b.pick(ty, Some(false)) {
            Some(x) => x,
            None => b.rng.pick(&b.lane_ids.clone()),
        }
    };
    let x = b.use_val(x);
    let y = if uniform {
        let y = b.uniform_value(ty);
        b.use_val(y)
    } else {
        let mut u = false;
        b.operand(ty, &mut u)
    };
    if ty == Ty::F32 {
        let c = b.rng.pick(ops::FLOAT_CONDS);
        b.def(Ty::I1, uniform, &format!("fcmp {c} {x}, {y}"))
    } else {
        let c = b.rng.pick(ops::INT_CONDS);
        b.def(Ty::I1, uniform, &format!("icmp {c} i32 {x}, {y}"))
    }
}

/// Writes statements until `n` are written or the budget is spent.
pub(super) fn block(b: &mut Builder, n: usize) {
    for _ in 0..n {
        if b.budget == 0 {
            break;
        }
        statement(b);
    }
}

/// Writes one statement: an operation, an `if`, a loop, an early loop exit, or a call.
pub(super) fn statement(b: &mut Builder) {
    let nest = b.depth < b.cfg.max_depth && b.budget > 12;
    match b.rng.below(100) {
        0..=8 if nest => if_else(b),
        9..=15 if nest && b.work < b.cfg.max_loop_work => counted_loop(b),
        16..=21 if !b.loops.is_empty() => early_exit(b),
        22..=28 if !b.callees.is_empty() => call::call(b),
        _ => ops::any(b),
    }
}

/// A value of `ty` to carry out of a region: a pointer into input buffer 0 (so that both
/// arms of an `if` agree on the buffer), otherwise any value.
pub(super) fn carried(b: &mut Builder, ty: Ty) -> usize {
    if ty == Ty::Ptr {
        return match b.pick_where(|v| v.ty == Ty::Ptr && v.base == Base::Input(0)) {
            Some(p) if b.rng.chance(60) => p,
            _ => memory::new_pointer_into(b, 0),
        };
    }
    b.value(ty)
}

fn base_of(ty: Ty) -> Base {
    if ty == Ty::Ptr {
        Base::Input(0)
    } else {
        Base::None
    }
}

/// Writes an `if`; with an `else` arm it yields an `i32` digest of each arm plus a few
/// more values, without one its arm stores its digest.
fn if_else(b: &mut Builder) {
    let uniform = b.rng.chance(50);
    let cond = condition(b, uniform);
    if uniform {
        b.constructs.uniform_if += 1;
    } else {
        b.constructs.divergent_if += 1;
    }
    b.depth += 1;
    b.ifs.push(uniform);
    if b.rng.chance(25) {
        b.open(&format!("if {cond} {{"));
        let n = arm_length(b);
        block(b, n);
        let d = digest::digest_locals(b, "0");
        digest::accumulate(b, d);
        b.close("}");
        b.ifs.pop();
        b.depth -= 1;
        return;
    }
    let mut types = vec![Ty::I32];
    for _ in 0..b.rng.below(4) {
        types.push(b.rng.pick(CARRIED));
    }
    let results: Vec<usize> = types
        .iter()
        .map(|&t| b.detached(t, uniform, base_of(t)))
        .collect();
    let names: Vec<String> = results.iter().map(|&r| b.name(r)).collect();
    let tys: Vec<&str> = types.iter().map(|t| t.name()).collect();
    b.open(&format!(
        "{} = if {cond} -> {} {{",
        names.join(", "),
        tys.join(", ")
    ));
    for arm in 0..2 {
        if arm == 1 {
            b.reopen();
        }
        let n = arm_length(b);
        block(b, n);
        let mut yields = Vec::new();
        for (k, &t) in types.iter().enumerate().skip(1) {
            let v = carried(b, t);
            b.vals[results[k]].uniform &= b.vals[v].uniform;
            yields.push(v);
        }
        let d = digest::digest_locals(b, "1");
        let mut ops = vec![b.use_val(d)];
        for v in yields {
            ops.push(b.use_val(v));
        }
        b.vals[results[0]].uniform = false;
        b.line(&format!("yield {}", ops.join(", ")));
        b.close(if arm == 0 { "} else {" } else { "}" });
    }
    // The first result is a digest: kept whole for the enclosing region's digest.
    b.vals[results[0]].pinned = true;
    for r in results {
        b.attach(r);
    }
    b.ifs.pop();
    b.depth -= 1;
}

/// Statements of a nested region: fewer the deeper it is, so that the budget is spread
/// over many kernel-level statements instead of going to the first deep nest.
fn arm_length(b: &mut Builder) -> usize {
    let cap = (12u32 >> b.depth.min(3)).max(2);
    let by_budget = 1 + (b.budget / 10).min(64) as u32;
    b.rng.range(1, cap.min(by_budget)) as usize
}

/// Writes a counted loop carrying a digest and a few more values.
fn counted_loop(b: &mut Builder) {
    let max = (b.cfg.max_loop_work / b.work).min(b.cfg.max_trip).max(1);
    let trip = b.rng.range(1, max);
    let uniform_bound = b.rng.chance(50);
    let bound = loop_bound(b, uniform_bound, trip);
    let mut types = vec![Ty::I32];
    for _ in 0..b.rng.below(4) {
        types.push(b.rng.pick(CARRIED));
    }
    let mut inits = Vec::new();
    let seed = b.value(Ty::I32);
    inits.push(b.use_val(seed));
    for &t in &types[1..] {
        let v = carried(b, t);
        inits.push(b.use_val(v));
    }
    let counter = b.detached(Ty::I32, uniform_bound, Base::None);
    let params: Vec<usize> = types
        .iter()
        .map(|&t| b.detached(t, false, base_of(t)))
        .collect();
    let results: Vec<usize> = types
        .iter()
        .map(|&t| b.detached(t, false, base_of(t)))
        .collect();
    let mut vars = vec![format!("{}: i32 = 0", b.name(counter))];
    for (k, &p) in params.iter().enumerate() {
        vars.push(format!("{}: {} = {}", b.name(p), types[k].name(), inits[k]));
    }
    let names: Vec<String> = results.iter().map(|&r| b.name(r)).collect();
    let tys: Vec<&str> = types.iter().map(|t| t.name()).collect();
    b.open(&format!(
        "{} = loop ({}) -> {} {{",
        names.join(", "),
        vars.join(", "),
        tys.join(", ")
    ));
    b.attach(counter);
    for &p in &params {
        b.attach(p);
    }
    let i = b.use_val(counter);
    let done = b.def(Ty::I1, uniform_bound, &format!("icmp uge i32 {i}, {bound}"));
    b.vals[done].branched = true;
    let done = b.use_val(done);
    b.open(&format!("if {done} {{"));
    let outs: Vec<String> = params.iter().map(|&p| b.use_val(p)).collect();
    b.line(&format!("break {}", outs.join(", ")));
    b.close("}");

    b.loops.push(LoopCtx {
        counter,
        digest: params[0],
        body_scope: b.scope_depth() - 1,
        results: types.clone(),
        divergent_exit: !uniform_bound,
        ifs_at_start: b.ifs.len(),
    });
    b.depth += 1;
    b.work *= trip;
    let n = arm_length(b) + 2;
    block(b, n);
    let mut next = Vec::new();
    for &t in &types[1..] {
        let v = carried(b, t);
        next.push(v);
    }
    let h = b.name(params[0]);
    let d = digest::digest_locals(b, &h);
    let i1 = b.def(Ty::I32, uniform_bound, &format!("add i32 {i}, 1"));
    let mut ops = vec![b.use_val(i1), b.use_val(d)];
    for v in next {
        ops.push(b.use_val(v));
    }
    b.line(&format!("continue {}", ops.join(", ")));
    b.close("}");
    b.work /= trip;
    b.depth -= 1;
    let ctx = b.loops.pop();
    if ctx.is_some_and(|c| c.divergent_exit) {
        b.constructs.divergent_loop_exit += 1;
    } else {
        b.constructs.uniform_loop += 1;
    }
    // The first result is a digest: kept whole for the enclosing region's digest.
    b.vals[results[0]].pinned = true;
    for r in results {
        b.attach(r);
    }
}

/// Writes the trip bound of a loop: at most `trip`, uniform or per invocation, and
/// mostly at least 1 (a loop that never runs its body tests little but is kept as an edge
/// case); returns the operand.
fn loop_bound(b: &mut Builder, uniform: bool, trip: u32) -> String {
    if uniform && b.rng.chance(30) {
        return trip.to_string();
    }
    let x = if uniform {
        b.uniform_value(Ty::I32)
    } else {
        match b.pick(Ty::I32, Some(false)) {
            Some(x) if b.rng.chance(40) => x,
            _ => b.rng.pick(&b.lane_ids.clone()),
        }
    };
    let x = b.use_val(x);
    if b.rng.chance(20) {
        // 0 to `trip`.
        let (op, k) = b.rng.pick(&[("urem", trip + 1), ("umin", trip)]);
        let v = b.def(Ty::I32, uniform, &format!("{op} i32 {x}, {k}"));
        return b.use_val(v);
    }
    // 1 to `trip`.
    let r = b.def(Ty::I32, uniform, &format!("urem i32 {x}, {trip}"));
    let r = b.use_val(r);
    let v = b.def(Ty::I32, uniform, &format!("add i32 {r}, 1"));
    b.use_val(v)
}

/// Writes `if %c { ...; break }` or `if %c { ...; continue }` for the innermost loop.
fn early_exit(b: &mut Builder) {
    let Some(ctx) = b.loops.last().cloned() else {
        return;
    };
    let uniform = b.rng.chance(50);
    let cond = condition(b, uniform);
    // Under a divergent `if` inside the loop, even a uniform condition lets only some
    // invocations leave.
    let under_divergent_if = b.ifs[ctx.ifs_at_start..].iter().any(|u| !u);
    if !uniform || under_divergent_if {
        if let Some(l) = b.loops.last_mut() {
            l.divergent_exit = true;
        }
    }
    let is_break = b.rng.chance(50);
    b.depth += 1;
    b.open(&format!("if {cond} {{"));
    let n = b.rng.below(3);
    for _ in 0..n {
        ops::any(b);
    }
    let mut carried_vals = Vec::new();
    for &t in &ctx.results[1..] {
        carried_vals.push(carried(b, t));
    }
    // The exit skips the rest of the body and its digest: fold the loop's digest and
    // everything the body computed so far, as well as the arm's own values.
    let h = b.name(ctx.digest);
    let d = digest::digest_exit(b, &h, ctx.body_scope);
    let mut out = Vec::new();
    if !is_break {
        let i = b.use_val(ctx.counter);
        let i1 = b.def(Ty::I32, false, &format!("add i32 {i}, 1"));
        out.push(b.use_val(i1));
    }
    out.push(b.use_val(d));
    for v in carried_vals {
        out.push(b.use_val(v));
    }
    let word = if is_break { "break" } else { "continue" };
    b.line(&format!("{word} {}", out.join(", ")));
    b.close("}");
    b.depth -= 1;
    if is_break {
        b.constructs.early_break += 1;
    } else {
        b.constructs.early_continue += 1;
    }
}
