//! Plain operations: arithmetic, comparisons, selects, conversions, constants and dispatch
//! intrinsics, each written with operands of its types picked from the values in scope.
//!
//! Every operation here is defined for every operand value in the IR: integer arithmetic
//! wraps, shift amounts are taken modulo the width, `fptosi`/`fptoui` saturate and map NaN
//! to 0, signed `MIN / -1` wraps. The one exception is division by zero, so divisors are
//! made odd (`or` with 1) or are non-zero literals.

use super::builder::Builder;
use super::{literal, memory, Ty};

/// Operations the generator picks uniformly, by IR opcode name, so that every opcode
/// appears in a few hundred programs. `alloca` is missing: stack arrays are made in the
/// kernel's prologue.
pub(super) const OPS: &[&str] = &[
    "const",
    "add",
    "sub",
    "mul",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "and",
    "or",
    "xor",
    "shl",
    "lshr",
    "ashr",
    "umin",
    "umax",
    "smin",
    "smax",
    "not",
    "neg",
    "popcount",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "fmin",
    "fmax",
    "ffma",
    "fneg",
    "fabs",
    "fsqrt",
    "frsq",
    "ffloor",
    "fceil",
    "ftrunc",
    "ffract",
    "fsin",
    "fcos",
    "fexp2",
    "flog2",
    "icmp",
    "fcmp",
    "select",
    "zext",
    "sext",
    "trunc",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "bitcast",
    "ptradd",
    "load",
    "load_u8",
    "load_s8",
    "load_u16",
    "load_s16",
    "store",
    "store_8",
    "store_16",
    "sload",
    "sstore",
    "local_id",
    "group_id",
    "global_id",
    "group_size",
    "num_groups",
    "global_size",
    "work_dim",
    "global_offset",
];

/// Transcendental opcodes, which [`super::GenConfig::transcendentals`] can leave out.
pub(super) const TRANSCENDENTAL: &[&str] = &["fsin", "fcos", "fexp2", "flog2"];

/// Stack-array opcodes, which [`super::GenConfig::stack_arrays`] can leave out.
pub(super) const STACK: &[&str] = &["sload", "sstore"];

/// Writes one operation chosen uniformly from [`OPS`].
pub(super) fn any(b: &mut Builder) {
    let mut name = b.rng.pick(OPS);
    while (!b.cfg.transcendentals && TRANSCENDENTAL.contains(&name))
        || (!b.cfg.stack_arrays && STACK.contains(&name))
    {
        name = b.rng.pick(OPS);
    }
    op(b, name);
}

fn int_ty(b: &mut Builder) -> Ty {
    if b.rng.chance(65) {
        Ty::I32
    } else {
        Ty::I64
    }
}

/// Writes operation `name` with fresh operands.
pub(super) fn op(b: &mut Builder, name: &str) {
    match name {
        "const" => {
            let ty = b
                .rng
                .pick(&[Ty::I1, Ty::I32, Ty::I64, Ty::F32, Ty::F32, Ty::Ptr]);
            b.constant(ty);
        }
        "add" | "sub" | "mul" | "shl" | "lshr" | "ashr" | "umin" | "umax" | "smin" | "smax" => {
            let ty = int_ty(b);
            binary(b, name, ty);
        }
        "and" | "or" | "xor" => {
            let ty = b.rng.pick(&[Ty::I1, Ty::I32, Ty::I32, Ty::I64]);
            binary(b, name, ty);
        }
        "udiv" | "sdiv" | "urem" | "srem" => division(b, name),
        "not" => {
            let ty = b.rng.pick(&[Ty::I1, Ty::I32, Ty::I64]);
            unary(b, name, ty);
        }
        "neg" | "popcount" => {
            let ty = int_ty(b);
            unary(b, name, ty);
        }
        "fadd" | "fsub" | "fmul" | "fdiv" | "fmin" | "fmax" => {
            let mut u = true;
            let x = b.operand(Ty::F32, &mut u);
            let y = b.operand(Ty::F32, &mut u);
            b.def(Ty::F32, u, &format!("{name} {x}, {y}"));
        }
        "ffma" => {
            let mut u = true;
            let x = b.operand_val(Ty::F32, &mut u);
            let y = b.operand(Ty::F32, &mut u);
            let z = b.operand(Ty::F32, &mut u);
            b.def(Ty::F32, u, &format!("ffma {x}, {y}, {z}"));
        }
        "fneg" | "fabs" | "fsqrt" | "frsq" | "ffloor" | "fceil" | "ftrunc" | "ffract" | "fsin"
        | "fcos" | "fexp2" | "flog2" => {
            let mut u = true;
            let x = b.operand_val(Ty::F32, &mut u);
            b.def(Ty::F32, u, &format!("{name} {x}"));
        }
        "icmp" => {
            if b.rng.chance(15) {
                pointer_compare(b);
            } else {
                let ty = b.rng.pick(&[Ty::I1, Ty::I32, Ty::I32, Ty::I64]);
                let mut u = true;
                let x = b.operand_val(ty, &mut u);
                let y = b.operand(ty, &mut u);
                let c = b.rng.pick(INT_CONDS);
                b.def(Ty::I1, u, &format!("icmp {c} {} {x}, {y}", ty.name()));
            }
        }
        "fcmp" => {
            let mut u = true;
            let x = b.operand_val(Ty::F32, &mut u);
            let y = b.operand(Ty::F32, &mut u);
            let c = b.rng.pick(FLOAT_CONDS);
            b.def(Ty::I1, u, &format!("fcmp {c} {x}, {y}"));
        }
        "select" => select(b),
        "zext" | "sext" => {
            let (from, to) =
                b.rng
                    .pick(&[(Ty::I1, Ty::I32), (Ty::I1, Ty::I64), (Ty::I32, Ty::I64)]);
            convert(b, name, from, to);
        }
        "trunc" => {
            let (from, to) =
                b.rng
                    .pick(&[(Ty::I32, Ty::I1), (Ty::I64, Ty::I1), (Ty::I64, Ty::I32)]);
            convert(b, name, from, to);
        }
        "sitofp" | "uitofp" => {
            let from = int_ty(b);
            convert(b, name, from, Ty::F32);
        }
        "fptosi" | "fptoui" => {
            let to = int_ty(b);
            convert(b, name, Ty::F32, to);
        }
        "bitcast" => bitcast(b),
        "ptradd" => {
            memory::new_pointer(b);
        }
        "load" | "load_u8" | "load_s8" | "load_u16" | "load_s16" => memory::load(b, name),
        "store" | "store_8" | "store_16" => memory::store(b, name),
        "sload" => memory::stack_load(b),
        "sstore" => memory::stack_store(b),
        "local_id" | "group_id" | "global_id" | "group_size" | "num_groups" | "global_size"
        | "global_offset" => {
            let dim = b.rng.below(3);
            builtin(b, name, dim);
        }
        "work_dim" => {
            b.def(Ty::I32, true, "work_dim");
        }
        other => unreachable!("operation `{other}` is not in the generator's table"),
    }
}

/// Integer `icmp` conditions.
pub(super) const INT_CONDS: &[&str] = &[
    "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
];
/// `fcmp` conditions.
pub(super) const FLOAT_CONDS: &[&str] = &["oeq", "une", "olt", "ole", "ogt", "oge", "ord", "uno"];

/// Writes a dispatch intrinsic; local and global ids differ between invocations.
pub(super) fn builtin(b: &mut Builder, name: &str, dim: usize) -> usize {
    let uniform = !matches!(name, "local_id" | "global_id");
    b.def(Ty::I32, uniform, &format!("{name} {dim}"))
}

fn binary(b: &mut Builder, name: &str, ty: Ty) {
    let mut u = true;
    let x = b.operand_val(ty, &mut u);
    let y = b.operand(ty, &mut u);
    b.def(ty, u, &format!("{name} {} {x}, {y}", ty.name()));
}

fn unary(b: &mut Builder, name: &str, ty: Ty) {
    let mut u = true;
    let x = b.operand_val(ty, &mut u);
    b.def(ty, u, &format!("{name} {} {x}", ty.name()));
}

fn division(b: &mut Builder, name: &str) {
    let ty = int_ty(b);
    let t = ty.name();
    let mut u = true;
    if name == "sdiv" && b.rng.chance(10) {
        // The one overflowing signed division, which the IR defines to wrap.
        let min = if ty == Ty::I32 {
            literal::text(ty, u64::from(i32::MIN as u32))
        } else {
            literal::text(ty, i64::MIN as u64)
        };
        let x = b.def(ty, true, &format!("const {t} {min}"));
        let x = b.use_val(x);
        b.def(ty, true, &format!("sdiv {t} {x}, -1"));
        return;
    }
    let x = b.operand(ty, &mut u);
    let divisor = if b.rng.chance(25) {
        let d = b.rng.range(1, 100) as i32 * if b.rng.chance(30) { -1 } else { 1 };
        d.to_string()
    } else {
        let y = b.operand_val(ty, &mut u);
        let odd = b.def(ty, u, &format!("or {t} {y}, 1"));
        b.use_val(odd)
    };
    b.def(ty, u, &format!("{name} {t} {x}, {divisor}"));
}

fn convert(b: &mut Builder, name: &str, from: Ty, to: Ty) {
    let mut u = true;
    let x = b.operand_val(from, &mut u);
    b.def(
        to,
        u,
        &format!("{name} {} {x} to {}", from.name(), to.name()),
    );
}

/// `bitcast` between `i32` and `f32`, or between `ptr` and `i64`. A pointer's bits are an
/// address, which differs between implementations, so they are only used relative to the
/// address of the pointer's buffer.
fn bitcast(b: &mut Builder) {
    match b.rng.below(4) {
        0 => convert(b, "bitcast", Ty::I32, Ty::F32),
        1 => convert(b, "bitcast", Ty::F32, Ty::I32),
        2 => {
            if let Some(p) = b.pick(Ty::Ptr, None) {
                memory::pointer_offset(b, p);
            }
        }
        _ => memory::pointer_from_bits(b),
    }
}

/// `icmp` of two pointers: any condition between pointers into one buffer, equality
/// otherwise (the order of two buffers' addresses is the implementation's choice).
fn pointer_compare(b: &mut Builder) {
    let Some(p) = b.pick_where(|v| v.ty == Ty::Ptr) else {
        return;
    };
    let base = b.vals[p].base;
    let same = b.pick_where(|v| v.ty == Ty::Ptr && v.base == base);
    let (q, conds) = match same {
        Some(q) if !b.rng.chance(20) => (b.use_val(q), INT_CONDS),
        _ => ("0x0".to_string(), &INT_CONDS[..2]),
    };
    let c = b.rng.pick(conds);
    let u = b.vals[p].uniform && same.is_none_or(|q| b.vals[q].uniform);
    let p = b.use_val(p);
    b.def(Ty::I1, u, &format!("icmp {c} ptr {p}, {q}"));
}

/// `select` of any type; pointers only between pointers into one buffer, so that the
/// result still has a known buffer.
fn select(b: &mut Builder) {
    let ty = b.rng.pick(&[Ty::I1, Ty::I32, Ty::I64, Ty::F32, Ty::Ptr]);
    let mut u = true;
    let c = b.operand_val(Ty::I1, &mut u);
    if ty == Ty::Ptr {
        let Some(p) = b.pick(Ty::Ptr, None) else {
            return;
        };
        let base = b.vals[p].base;
        let q = b
            .pick_where(|v| v.ty == Ty::Ptr && v.base == base)
            .unwrap_or(p);
        u &= b.vals[p].uniform && b.vals[q].uniform;
        let (p, q) = (b.use_val(p), b.use_val(q));
        b.def_ptr(Ty::Ptr, u, base, &format!("select ptr {c}, {p}, {q}"));
        return;
    }
    let x = b.operand(ty, &mut u);
    let y = b.operand(ty, &mut u);
    b.def(ty, u, &format!("select {} {c}, {x}, {y}", ty.name()));
}
