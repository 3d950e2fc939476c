//! Vector compares of every type and condition (VOPC, and their VOP3 forms) besides the
//! first rows of the table, which `valu` runs: each sets a lane's bit of the mask
//! destination when the condition holds between source 0 and source 1, after the VOPC
//! tables of AMD's "AMD GCN3 ISA", "RDNA2 ISA" and "RDNA3 ISA" guides.
//!
//! - `f` is false and `t` (`tru` for floats before RDNA 3) true, whatever the sources.
//! - Float conditions are IEEE comparisons (-0 equals +0); `lg` (not equal) and `o`
//!   (ordered) are false and `u` true when a source is NaN; the negated conditions `nge`,
//!   `nlg`, `ngt`, `nle`, `neq` and `nlt` are the negations of `ge`, `lg`, `gt`, `le`, `eq`
//!   and `lt`, so true when a source is NaN.
//! - Integer `lg` is `ne`. 16-bit sources compare their low halves (as the SDWA selection
//!   left them), f16 inline constants as their f16 values.
//! - `class` tests the class of source 0 against the mask in source 1 (see
//!   [`super::float::class`]).
//! - The `v_cmpx_*` forms also write the mask into EXEC (RDNA: into EXEC alone), lanes that
//!   were inactive staying off.

use std::cmp::Ordering;

use gpuabi_amdgpu::Opcode;

use super::float::{self, f16_to_f64};
use super::valu::{for_active, source, source16, source64, Lanes};
use crate::image::Decoded;
use crate::wave::{Wave, LANE_STRIDE};

/// The type of the sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// The condition, in VOPC's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
    Class,
}

/// Whether `c` holds between the floats `a` and `b` (`None` orders a NaN).
fn float_holds(c: Cond, a: f64, b: f64) -> bool {
    let o = a.partial_cmp(&b);
    let is = |want: &[Ordering]| o.is_some_and(|o| want.contains(&o));
    let (lt, eq, gt) = (Ordering::Less, Ordering::Equal, Ordering::Greater);
    match c {
        Cond::F | Cond::Class => false,
        Cond::Lt => is(&[lt]),
        Cond::Eq => is(&[eq]),
        Cond::Le => is(&[lt, eq]),
        Cond::Gt => is(&[gt]),
        Cond::Lg => is(&[lt, gt]),
        Cond::Ge => is(&[gt, eq]),
        Cond::O => o.is_some(),
        Cond::U => o.is_none(),
        Cond::Nge => !is(&[gt, eq]),
        Cond::Nlg => !is(&[lt, gt]),
        Cond::Ngt => !is(&[gt]),
        Cond::Nle => !is(&[lt, eq]),
        Cond::Neq => !is(&[eq]),
        Cond::Nlt => !is(&[lt]),
        Cond::Tru => true,
    }
}

/// Whether `c` holds between two integers ordered `o`.
fn int_holds(c: Cond, o: Ordering) -> bool {
    match c {
        Cond::Lt => o == Ordering::Less,
        Cond::Eq => o == Ordering::Equal,
        Cond::Le => o != Ordering::Greater,
        Cond::Gt => o == Ordering::Greater,
        Cond::Lg => o != Ordering::Equal,
        Cond::Ge => o != Ordering::Less,
        Cond::Tru => true,
        _ => false,
    }
}

/// The type, condition and whether it writes EXEC, of a compare this module runs.
fn compare_of(op: Opcode) -> Option<(Ty, Cond, bool)> {
    use Cond::*;
    use Opcode::*;
    use Ty::*;
    Some(match op {
        VCmpFF16 => (F16, F, false),
        VCmpLtF16 => (F16, Lt, false),
        VCmpEqF16 => (F16, Eq, false),
        VCmpLeF16 => (F16, Le, false),
        VCmpGtF16 => (F16, Gt, false),
        VCmpLgF16 => (F16, Lg, false),
        VCmpGeF16 => (F16, Ge, false),
        VCmpOF16 => (F16, O, false),
        VCmpUF16 => (F16, U, false),
        VCmpNgeF16 => (F16, Nge, false),
        VCmpNlgF16 => (F16, Nlg, false),
        VCmpNgtF16 => (F16, Ngt, false),
        VCmpNleF16 => (F16, Nle, false),
        VCmpNeqF16 => (F16, Neq, false),
        VCmpNltF16 => (F16, Nlt, false),
        VCmpTruF16 => (F16, Tru, false),
        VCmpFF32 => (F32, F, false),
        VCmpTruF32 => (F32, Tru, false),
        VCmpFF64 => (F64, F, false),
        VCmpLtF64 => (F64, Lt, false),
        VCmpEqF64 => (F64, Eq, false),
        VCmpLeF64 => (F64, Le, false),
        VCmpGtF64 => (F64, Gt, false),
        VCmpLgF64 => (F64, Lg, false),
        VCmpGeF64 => (F64, Ge, false),
        VCmpOF64 => (F64, O, false),
        VCmpUF64 => (F64, U, false),
        VCmpNgeF64 => (F64, Nge, false),
        VCmpNlgF64 => (F64, Nlg, false),
        VCmpNgtF64 => (F64, Ngt, false),
        VCmpNleF64 => (F64, Nle, false),
        VCmpNeqF64 => (F64, Neq, false),
        VCmpNltF64 => (F64, Nlt, false),
        VCmpTruF64 => (F64, Tru, false),
        VCmpClassF64 => (F64, Class, false),
        VCmpFI16 => (I16, F, false),
        VCmpLtI16 => (I16, Lt, false),
        VCmpEqI16 => (I16, Eq, false),
        VCmpLeI16 => (I16, Le, false),
        VCmpGtI16 => (I16, Gt, false),
        VCmpGeI16 => (I16, Ge, false),
        VCmpNeI16 => (I16, Lg, false),
        VCmpTI16 => (I16, Tru, false),
        VCmpFU16 => (U16, F, false),
        VCmpLtU16 => (U16, Lt, false),
        VCmpEqU16 => (U16, Eq, false),
        VCmpLeU16 => (U16, Le, false),
        VCmpGtU16 => (U16, Gt, false),
        VCmpGeU16 => (U16, Ge, false),
        VCmpNeU16 => (U16, Lg, false),
        VCmpTU16 => (U16, Tru, false),
        VCmpFI32 => (I32, F, false),
        VCmpTI32 => (I32, Tru, false),
        VCmpFU32 => (U32, F, false),
        VCmpTU32 => (U32, Tru, false),
        VCmpFI64 => (I64, F, false),
        VCmpTI64 => (I64, Tru, false),
        VCmpFU64 => (U64, F, false),
        VCmpTU64 => (U64, Tru, false),
        VCmpxFF16 => (F16, F, true),
        VCmpxLtF16 => (F16, Lt, true),
        VCmpxEqF16 => (F16, Eq, true),
        VCmpxLeF16 => (F16, Le, true),
        VCmpxGtF16 => (F16, Gt, true),
        VCmpxLgF16 => (F16, Lg, true),
        VCmpxGeF16 => (F16, Ge, true),
        VCmpxOF16 => (F16, O, true),
        VCmpxUF16 => (F16, U, true),
        VCmpxNgeF16 => (F16, Nge, true),
        VCmpxNlgF16 => (F16, Nlg, true),
        VCmpxNgtF16 => (F16, Ngt, true),
        VCmpxNleF16 => (F16, Nle, true),
        VCmpxNeqF16 => (F16, Neq, true),
        VCmpxNltF16 => (F16, Nlt, true),
        VCmpxTruF16 => (F16, Tru, true),
        VCmpxFF32 => (F32, F, true),
        VCmpxLgF32 => (F32, Lg, true),
        VCmpxNlgF32 => (F32, Nlg, true),
        VCmpxTruF32 => (F32, Tru, true),
        VCmpxFF64 => (F64, F, true),
        VCmpxLtF64 => (F64, Lt, true),
        VCmpxEqF64 => (F64, Eq, true),
        VCmpxLeF64 => (F64, Le, true),
        VCmpxGtF64 => (F64, Gt, true),
        VCmpxLgF64 => (F64, Lg, true),
        VCmpxGeF64 => (F64, Ge, true),
        VCmpxOF64 => (F64, O, true),
        VCmpxUF64 => (F64, U, true),
        VCmpxNgeF64 => (F64, Nge, true),
        VCmpxNlgF64 => (F64, Nlg, true),
        VCmpxNgtF64 => (F64, Ngt, true),
        VCmpxNleF64 => (F64, Nle, true),
        VCmpxNeqF64 => (F64, Neq, true),
        VCmpxNltF64 => (F64, Nlt, true),
        VCmpxTruF64 => (F64, Tru, true),
        VCmpxClassF64 => (F64, Class, true),
        VCmpxLtI16 => (I16, Lt, true),
        VCmpxEqI16 => (I16, Eq, true),
        VCmpxLeI16 => (I16, Le, true),
        VCmpxGtI16 => (I16, Gt, true),
        VCmpxGeI16 => (I16, Ge, true),
        VCmpxNeI16 => (I16, Lg, true),
        VCmpxLtU16 => (U16, Lt, true),
        VCmpxEqU16 => (U16, Eq, true),
        VCmpxLeU16 => (U16, Le, true),
        VCmpxGtU16 => (U16, Gt, true),
        VCmpxGeU16 => (U16, Ge, true),
        VCmpxNeU16 => (U16, Lg, true),
        VCmpxFI32 => (I32, F, true),
        VCmpxTI32 => (I32, Tru, true),
        VCmpxFU32 => (U32, F, true),
        VCmpxTU32 => (U32, Tru, true),
        VCmpxFI64 => (I64, F, true),
        VCmpxTI64 => (I64, Tru, true),
        VCmpxFU64 => (U64, F, true),
        VCmpxTU64 => (U64, Tru, true),
        VCmpxFF16Gcn => (F16, F, true),
        VCmpxLtF16Gcn => (F16, Lt, true),
        VCmpxEqF16Gcn => (F16, Eq, true),
        VCmpxLeF16Gcn => (F16, Le, true),
        VCmpxGtF16Gcn => (F16, Gt, true),
        VCmpxLgF16Gcn => (F16, Lg, true),
        VCmpxGeF16Gcn => (F16, Ge, true),
        VCmpxOF16Gcn => (F16, O, true),
        VCmpxUF16Gcn => (F16, U, true),
        VCmpxNgeF16Gcn => (F16, Nge, true),
        VCmpxNlgF16Gcn => (F16, Nlg, true),
        VCmpxNgtF16Gcn => (F16, Ngt, true),
        VCmpxNleF16Gcn => (F16, Nle, true),
        VCmpxNeqF16Gcn => (F16, Neq, true),
        VCmpxNltF16Gcn => (F16, Nlt, true),
        VCmpxTruF16Gcn => (F16, Tru, true),
        VCmpxFF32Gcn => (F32, F, true),
        VCmpxLgF32Gcn => (F32, Lg, true),
        VCmpxNlgF32Gcn => (F32, Nlg, true),
        VCmpxTruF32Gcn => (F32, Tru, true),
        VCmpxFF64Gcn => (F64, F, true),
        VCmpxLtF64Gcn => (F64, Lt, true),
        VCmpxEqF64Gcn => (F64, Eq, true),
        VCmpxLeF64Gcn => (F64, Le, true),
        VCmpxGtF64Gcn => (F64, Gt, true),
        VCmpxLgF64Gcn => (F64, Lg, true),
        VCmpxGeF64Gcn => (F64, Ge, true),
        VCmpxOF64Gcn => (F64, O, true),
        VCmpxUF64Gcn => (F64, U, true),
        VCmpxNgeF64Gcn => (F64, Nge, true),
        VCmpxNlgF64Gcn => (F64, Nlg, true),
        VCmpxNgtF64Gcn => (F64, Ngt, true),
        VCmpxNleF64Gcn => (F64, Nle, true),
        VCmpxNeqF64Gcn => (F64, Neq, true),
        VCmpxNltF64Gcn => (F64, Nlt, true),
        VCmpxTruF64Gcn => (F64, Tru, true),
        VCmpxClassF64Gcn => (F64, Class, true),
        VCmpxFI16Gcn => (I16, F, true),
        VCmpxLtI16Gcn => (I16, Lt, true),
        VCmpxEqI16Gcn => (I16, Eq, true),
        VCmpxLeI16Gcn => (I16, Le, true),
        VCmpxGtI16Gcn => (I16, Gt, true),
        VCmpxGeI16Gcn => (I16, Ge, true),
        VCmpxNeI16Gcn => (I16, Lg, true),
        VCmpxTI16Gcn => (I16, Tru, true),
        VCmpxFU16Gcn => (U16, F, true),
        VCmpxLtU16Gcn => (U16, Lt, true),
        VCmpxEqU16Gcn => (U16, Eq, true),
        VCmpxLeU16Gcn => (U16, Le, true),
        VCmpxGtU16Gcn => (U16, Gt, true),
        VCmpxGeU16Gcn => (U16, Ge, true),
        VCmpxNeU16Gcn => (U16, Lg, true),
        VCmpxTU16Gcn => (U16, Tru, true),
        VCmpxFI32Gcn => (I32, F, true),
        VCmpxTI32Gcn => (I32, Tru, true),
        VCmpxFU32Gcn => (U32, F, true),
        VCmpxTU32Gcn => (U32, Tru, true),
        VCmpxFI64Gcn => (I64, F, true),
        VCmpxTI64Gcn => (I64, Tru, true),
        VCmpxFU64Gcn => (U64, F, true),
        VCmpxTU64Gcn => (U64, Tru, true),
        _ => return None,
    })
}

/// Runs `d` if it is a compare of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    let Some((ty, cond, to_exec)) = compare_of(d.op) else {
        return false;
    };
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    let mut set = |l: usize, holds: bool| bits |= u64::from(holds) << l;
    match ty {
        Ty::F16 | Ty::F32 | Ty::I16 | Ty::U16 | Ty::I32 | Ty::U32 => {
            let mut a: Lanes = [0; LANE_STRIDE];
            let mut b: Lanes = [0; LANE_STRIDE];
            match ty {
                Ty::F16 => source16(w, d, 0, &mut a),
                _ => source(w, d, 0, &mut a),
            }
            match (ty, cond) {
                (_, Cond::Class) => source(w, d, 1, &mut b),
                (Ty::F16, _) => source16(w, d, 1, &mut b),
                _ => source(w, d, 1, &mut b),
            }
            for_active(exec, lanes, |l| {
                let (x, y) = (a[l], b[l]);
                set(
                    l,
                    match (ty, cond) {
                        (Ty::F16, Cond::Class) => float::class_f16(x as u16, y),
                        (Ty::F32, Cond::Class) => float::class(x, y),
                        (Ty::F16, c) => float_holds(c, f16_to_f64(x as u16), f16_to_f64(y as u16)),
                        (Ty::F32, c) => float_holds(
                            c,
                            f64::from(f32::from_bits(x)),
                            f64::from(f32::from_bits(y)),
                        ),
                        (Ty::I16, c) => int_holds(c, (x as i16).cmp(&(y as i16))),
                        (Ty::U16, c) => int_holds(c, (x as u16).cmp(&(y as u16))),
                        (Ty::I32, c) => int_holds(c, (x as i32).cmp(&(y as i32))),
                        (_, c) => int_holds(c, x.cmp(&y)),
                    },
                )
            });
        }
        Ty::F64 | Ty::I64 | Ty::U64 => {
            let mut a = [0u64; LANE_STRIDE];
            let mut b = [0u64; LANE_STRIDE];
            source64(w, d, 0, ty == Ty::F64, &mut a);
            let mut mask: Lanes = [0; LANE_STRIDE];
            if cond == Cond::Class {
                source(w, d, 1, &mut mask);
            } else {
                source64(w, d, 1, ty == Ty::F64, &mut b);
            }
            for_active(exec, lanes, |l| {
                let (x, y) = (a[l], b[l]);
                set(
                    l,
                    match (ty, cond) {
                        (_, Cond::Class) => float::class_f64(x, mask[l]),
                        (Ty::F64, c) => float_holds(c, f64::from_bits(x), f64::from_bits(y)),
                        (Ty::I64, c) => int_holds(c, (x as i64).cmp(&(y as i64))),
                        (_, c) => int_holds(c, x.cmp(&y)),
                    },
                )
            });
        }
    }
    w.write_mask(d.dst[0], bits);
    if to_exec {
        w.set_exec(bits);
    }
    true
}
