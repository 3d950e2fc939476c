//! Integer, comparison, selection and conversion operations.

use gpuabi_ir::ir::{Extra, OpInstr, Opcode, Operand, Type};

use crate::function::FnBuilder;
use crate::names;

/// Operations that are one LLVM instruction: opcode → LLVM instruction.
const PLAIN: &[(Opcode, &str)] = &[
    (Opcode::Add, "add"),
    (Opcode::Sub, "sub"),
    (Opcode::Mul, "mul"),
    (Opcode::And, "and"),
    (Opcode::Or, "or"),
    (Opcode::Xor, "xor"),
];

/// Shifts, whose amount the IR takes modulo the width (LLVM: poison at or above it).
const SHIFTS: &[(Opcode, &str)] = &[
    (Opcode::Shl, "shl"),
    (Opcode::Lshr, "lshr"),
    (Opcode::Ashr, "ashr"),
];

/// Operations that are one overloaded LLVM intrinsic on the operand type.
const INTRINSICS: &[(Opcode, &str)] = &[
    (Opcode::Umin, "llvm.umin"),
    (Opcode::Umax, "llvm.umax"),
    (Opcode::Smin, "llvm.smin"),
    (Opcode::Smax, "llvm.smax"),
    (Opcode::Popcount, "llvm.ctpop"),
];

/// Conversions that are one LLVM cast: opcode → cast.
const CASTS: &[(Opcode, &str)] = &[
    (Opcode::Zext, "zext"),
    (Opcode::Sext, "sext"),
    (Opcode::Trunc, "trunc"),
    (Opcode::Sitofp, "sitofp"),
    (Opcode::Uitofp, "uitofp"),
];

/// Saturating float-to-integer conversions (NaN → 0, as the IR and Rust's `as` define).
const SATURATING: &[(Opcode, &str)] = &[
    (Opcode::Fptosi, "llvm.fptosi.sat"),
    (Opcode::Fptoui, "llvm.fptoui.sat"),
];

fn find(table: &[(Opcode, &'static str)], op: Opcode) -> Option<&'static str> {
    table.iter().find(|(o, _)| *o == op).map(|(_, s)| *s)
}

/// The overload suffix of an intrinsic for a type.
pub(crate) fn suffix(t: Type) -> &'static str {
    match t {
        Type::F32 => "f32",
        Type::I1 => "i1",
        Type::I32 => "i32",
        _ => "i64",
    }
}

impl FnBuilder<'_> {
    pub(crate) fn int_op(&mut self, op: &OpInstr) -> Option<String> {
        let ty = op.ty.unwrap_or(Type::I32);
        let t = names::ty(ty);
        let args: Vec<String> = op.args.iter().map(|a| self.operand(a)).collect();
        let a = || args[0].clone();
        let b = || args[1].clone();
        if let Some(i) = find(PLAIN, op.opcode) {
            return Some(self.def(&format!("{i} {t} {}, {}", a(), b())));
        }
        if let Some(i) = find(SHIFTS, op.opcode) {
            let bits = ty.bits() - 1;
            let amount = match op.args[1] {
                Operand::Imm { bits: n, .. } => (n & u64::from(bits)).to_string(),
                Operand::Value(_) => self.def(&format!("and {t} {}, {bits}", b())),
            };
            return Some(self.def(&format!("{i} {t} {}, {amount}", a())));
        }
        if let Some(name) = find(INTRINSICS, op.opcode) {
            let full = format!("{name}.{}", suffix(ty));
            let list: Vec<(&str, &str)> = args.iter().map(|x| (t, x.as_str())).collect();
            return Some(self.intrinsic(t, &full, &list));
        }
        if let Some(c) = find(CASTS, op.opcode) {
            let to = to_type(op);
            return Some(self.def(&format!("{c} {t} {} to {}", a(), names::ty(to))));
        }
        if let Some(name) = find(SATURATING, op.opcode) {
            let to = to_type(op);
            let full = format!("{name}.{}.f32", suffix(to));
            return Some(self.intrinsic(names::ty(to), &full, &[("float", &a())]));
        }
        Some(match op.opcode {
            Opcode::Const => a(),
            Opcode::Not => {
                let ones = if ty == Type::I1 { "true" } else { "-1" };
                self.def(&format!("xor {t} {}, {ones}", a()))
            }
            Opcode::Neg => self.def(&format!("sub {t} 0, {}", a())),
            Opcode::Udiv | Opcode::Urem | Opcode::Sdiv | Opcode::Srem => {
                self.division(op.opcode, t, &a(), &b())
            }
            Opcode::Icmp => {
                let Extra::Cond(c) = op.extra else {
                    return None;
                };
                self.def(&format!("icmp {} {t} {}, {}", c.name(), a(), b()))
            }
            Opcode::Fcmp => {
                let Extra::Cond(c) = op.extra else {
                    return None;
                };
                self.def(&format!("fcmp {} float {}, {}", c.name(), a(), b()))
            }
            Opcode::Select => self.def(&format!("select i1 {}, {t} {}, {t} {}", a(), b(), args[2])),
            Opcode::Bitcast => {
                let to = to_type(op);
                let cast = match (ty, to) {
                    (Type::Ptr, _) => "ptrtoint",
                    (_, Type::Ptr) => "inttoptr",
                    _ => "bitcast",
                };
                self.def(&format!("{cast} {t} {} to {}", a(), names::ty(to)))
            }
            _ => return None,
        })
    }

    /// Integer division and remainder: a zero divisor traps (the interpreter stops), and the
    /// smallest integer divided by -1, undefined in LLVM, wraps as the interpreter defines
    /// (quotient: the dividend negated; remainder: 0).
    ///
    /// The operands of `udiv` and `urem` pass through `freeze` first. llc-19 otherwise
    /// narrows an unsigned division to its 24-bit (f32) expansion when the operands have
    /// many *sign* bits, which is only right for signed ones: `udiv i64 (sext i1 %b), 99`
    /// gives 84 for `%b` true, and `urem i32 -2338, (sext i8 %x | 1)` keeps 12 bits of the
    /// remainder. `freeze` hides the sign bits from that analysis and changes no defined
    /// value.
    fn division(&mut self, op: Opcode, t: &str, a: &str, b: &str) -> String {
        let zero = self.def(&format!("icmp eq {t} {b}, 0"));
        self.trap_if(&zero);
        let signed = matches!(op, Opcode::Sdiv | Opcode::Srem);
        if !signed {
            let i = if op == Opcode::Udiv { "udiv" } else { "urem" };
            let a = self.def(&format!("freeze {t} {a}"));
            let b = self.def(&format!("freeze {t} {b}"));
            return self.def(&format!("{i} {t} {a}, {b}"));
        }
        let minus_one = self.def(&format!("icmp eq {t} {b}, -1"));
        let safe = self.def(&format!("select i1 {minus_one}, {t} 1, {t} {b}"));
        if op == Opcode::Sdiv {
            let q = self.def(&format!("sdiv {t} {a}, {safe}"));
            let neg = self.def(&format!("sub {t} 0, {a}"));
            self.def(&format!("select i1 {minus_one}, {t} {neg}, {t} {q}"))
        } else {
            let r = self.def(&format!("srem {t} {a}, {safe}"));
            self.def(&format!("select i1 {minus_one}, {t} 0, {t} {r}"))
        }
    }
}

/// The `to` type of a conversion.
fn to_type(op: &OpInstr) -> Type {
    match op.extra {
        Extra::To(t) => t,
        _ => Type::I32,
    }
}
