//! Call sites: direct calls and indirect calls through a per-invocation function pointer,
//! with their arguments and results.
//!
//! * `uniform` parameters get literals, dispatch values or values the IR's uniformity
//!   analysis knows to be uniform (see [`Builder::invariants`]), so that the verifier
//!   accepts every call wherever it is written (also under divergent `if`s and in loops).
//! * `return` parameters get values (the IR wants a variable there); their results, like
//!   every call result, are new values of the caller, used and digested like any other.
//! * A pointer parameter gets a pointer into input buffer 0, the slice or an input itself;
//!   a function pointer is made at the call site from `func_addr`s and `select`s and used
//!   only as the called address.
//!
//! Every value in scope that is not folded yet is live across the call and folded after
//! it, so the kernel's block of values kept to its end, and every other pending value,
//! must survive the call.

use super::builder::{Base, Builder};
use super::function::{Callee, Role, Signature, MAX_CALL_WORK, MAX_DEPTH};
use super::{control, literal, ops, Ty};

/// Base of a call result of type `ty`: a pointer result is a pointer into input buffer 0,
/// as every pointer a callee returns is.
pub(super) fn result_base(ty: Ty) -> Base {
    if ty == Ty::Ptr {
        Base::Input(0)
    } else {
        Base::None
    }
}

/// Writes a call to a callee group whose cost fits in the loops around this point, or an
/// operation when none does.
pub(super) fn call(b: &mut Builder) {
    let work = u64::from(b.work.max(1));
    let fits: Vec<usize> = (0..b.callees.len())
        .filter(|&k| work * b.callees[k].cost <= MAX_CALL_WORK)
        .collect();
    if fits.is_empty() {
        ops::any(b);
        return;
    }
    let k = b.rng.pick(&fits);
    group(b, k);
}

/// Writes a call to callee group `k` here, whatever its cost.
pub(super) fn group(b: &mut Builder, k: usize) {
    let work = u64::from(b.work.max(1));
    let callee = b.callees[k].clone();
    b.call_cost += work * callee.cost;
    if let Some(n) = b.calls_to.get_mut(k) {
        *n += 1;
    }
    let live = b.live_values();
    let c = &mut b.constructs;
    c.calls_in_loops += usize::from(!b.loops.is_empty());
    c.calls_under_divergent_if += usize::from(b.ifs.iter().any(|u| !u));
    c.calls_under_uniform_if += usize::from(!b.ifs.is_empty() && b.ifs.iter().all(|&u| u));
    c.live_across_call = c.live_across_call.max(live);
    if callee.names.len() > 1 && !b.rng.chance(15) {
        indirect(b, &callee);
    } else {
        direct(b, &callee, None);
    }
}

/// Writes a direct call to one function of `callee` (the only one, or a random member of a
/// family); `depth` is the depth argument of a recursive function's call of itself.
/// Returns the results, in the order of the `return` parameters.
pub(super) fn direct(b: &mut Builder, callee: &Callee, depth: Option<&str>) -> Vec<usize> {
    let name = b.rng.pick(&callee.names.iter().collect::<Vec<_>>()).clone();
    let args = arguments(b, &callee.sig, depth);
    b.constructs.direct_calls += 1;
    results(
        b,
        &callee.sig,
        &format!("call @{name}({})", args.join(", ")),
    )
}

/// Writes a call of the only function of `callee` that passes `params`, the names of the
/// calling function's own parameters, unmodified: a tail call when its results are
/// returned at once. Returns the results.
pub(super) fn tail(b: &mut Builder, callee: &Callee, params: &[String]) -> Vec<usize> {
    b.constructs.direct_calls += 1;
    b.constructs.tail_calls += 1;
    let name = &callee.names[0];
    results(
        b,
        &callee.sig,
        &format!("call @{name}({})", params.join(", ")),
    )
}

/// Writes an indirect call through `$sig` of a family: the pointer is one member's
/// `func_addr`, or a `select` between the members under a uniform condition (each wave
/// calls one function) or a divergent one (the lanes of a wave call different functions).
fn indirect(b: &mut Builder, callee: &Callee) {
    let mut members = callee.names.clone();
    for k in (1..members.len()).rev() {
        let j = b.rng.below(k + 1);
        members.swap(k, j);
    }
    let take = if b.rng.chance(70) {
        members.len()
    } else {
        b.rng.range(1, members.len() as u32) as usize
    };
    let divergent = take > 1 && b.rng.chance(70);
    // The conditions first: they may write values, which must not come between a
    // function pointer's definition and its one use.
    let conds: Vec<String> = (1..take)
        .map(|_| control::condition(b, !divergent))
        .collect();
    let mut p = b.temp(Ty::Ptr, &format!("func_addr @{}", members[0]));
    for (m, c) in members[1..take].iter().zip(conds) {
        let q = b.temp(Ty::Ptr, &format!("func_addr @{m}"));
        p = b.temp(Ty::Ptr, &format!("select ptr {c}, {q}, {p}"));
    }
    let args = arguments(b, &callee.sig, None);
    b.constructs.indirect_calls += 1;
    b.constructs.divergent_indirect_calls += usize::from(divergent);
    let sig = callee.sig_name.as_deref().unwrap_or_default();
    results(
        b,
        &callee.sig,
        &format!("call_indirect ${sig} {p}({})", args.join(", ")),
    );
}

/// Writes `results = rhs` for a call of `sig`; returns the results.
fn results(b: &mut Builder, sig: &Signature, rhs: &str) -> Vec<usize> {
    let rets = sig.returns();
    b.constructs.return_values += rets.iter().filter(|p| p.role == Role::Value).count();
    let results: Vec<usize> = rets
        .iter()
        .map(|p| b.detached(p.ty, false, result_base(p.ty)))
        .collect();
    if results.is_empty() {
        b.line(rhs);
    } else {
        let names: Vec<String> = results.iter().map(|&r| b.name(r)).collect();
        b.line(&format!("{} = {rhs}", names.join(", ")));
    }
    for &r in &results {
        b.attach(r);
    }
    results
}

/// The argument texts of a call of `sig`.
fn arguments(b: &mut Builder, sig: &Signature, depth: Option<&str>) -> Vec<String> {
    let mut args = Vec::new();
    for p in &sig.params {
        let a = match p.role {
            Role::Slice => "%slice".to_string(),
            Role::Input(i) => b.inputs[i].param.clone(),
            Role::Depth => match depth {
                Some(d) => d.to_string(),
                None => depth_argument(b, p.uniform),
            },
            Role::Digest => {
                let v = b.value(Ty::I32);
                b.use_val(v)
            }
            Role::Value if p.ty == Ty::Ptr => {
                let v = control::carried(b, Ty::Ptr);
                b.use_val(v)
            }
            Role::Value if p.ret => {
                let v = b.value(p.ty);
                b.use_val(v)
            }
            Role::Value if p.uniform => uniform_argument(b, p.ty),
            Role::Value => {
                let mut u = false;
                b.operand(p.ty, &mut u)
            }
        };
        args.push(a);
    }
    args
}

/// Writes a recursion depth from 0 to [`MAX_DEPTH`]: the same in every invocation when
/// `uniform`, otherwise mostly different per invocation.
fn depth_argument(b: &mut Builder, uniform: bool) -> String {
    let x = if uniform {
        uniform_argument(b, Ty::I32)
    } else {
        let v = match b.pick(Ty::I32, Some(false)) {
            Some(v) if b.rng.chance(50) => v,
            _ => b.rng.pick(&b.lane_ids.clone()),
        };
        b.use_val(v)
    };
    let d = b.def(Ty::I32, uniform, &format!("and i32 {x}, {MAX_DEPTH}"));
    b.use_val(d)
}

/// An operand of `ty` (not `ptr`) that the IR's uniformity analysis finds uniform: a
/// literal, an invariant value, or a value computed from a group id.
fn uniform_argument(b: &mut Builder, ty: Ty) -> String {
    let invariants: Vec<usize> = b
        .invariants
        .iter()
        .copied()
        .filter(|&v| b.vals[v].ty == ty)
        .collect();
    match b.rng.below(10) {
        0..=2 => return literal::random(&mut b.rng, ty),
        3..=6 if !invariants.is_empty() => {
            let v = b.rng.pick(&invariants);
            return b.use_val(v);
        }
        _ => {}
    }
    let dim = b.rng.below(3);
    let g = ops::builtin(b, "group_id", dim);
    let g = b.use_val(g);
    let v = match ty {
        Ty::I1 => {
            let t = b.def(Ty::I32, true, &format!("and i32 {g}, 1"));
            let t = b.use_val(t);
            b.def(Ty::I1, true, &format!("icmp eq i32 {t}, 0"))
        }
        Ty::I32 => {
            let k = literal::random(&mut b.rng, Ty::I32);
            b.def(Ty::I32, true, &format!("xor i32 {g}, {k}"))
        }
        Ty::I64 => b.def(Ty::I64, true, &format!("zext i32 {g} to i64")),
        _ => b.def(Ty::F32, true, &format!("uitofp i32 {g} to f32")),
    };
    b.use_val(v)
}
