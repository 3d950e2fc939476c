//! Instructions and the opcode property table.
//!
//! Every plain operation (`OpInstr`) is described by one row of [`OPCODES`]: which type
//! token it takes, its operand types, its result type and any extra token (condition code,
//! conversion target, dimension, size). The parser, printer, verifier and interpreter all
//! read this table instead of matching on opcodes one by one.
//!
//! f32 operations are defined bit for bit, so that AMD hardware can reproduce them
//! (`gpuabi_ir::interp::float` holds the formulas). The NaN rule, referred to below: when
//! the exact IEEE result of an operation is NaN, the result is the first NaN operand in
//! operand order with its quiet bit (bit 22) set, or the default NaN `0x7fc00000` when no
//! operand is NaN.

use smallvec::SmallVec;

use super::{FuncId, Region, SigId, Span, Type, Value};

/// An operand: an SSA value or a literal of a known type (raw bits, `f32` as its bit pattern).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A named SSA value.
    Value(Value),
    /// A literal.
    Imm {
        /// Type of the literal (from the instruction's operand table).
        ty: Type,
        /// Bits, zero-extended to 64.
        bits: u64,
    },
}

/// One instruction: its results, what it does, and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Instr {
    /// Values defined by the instruction.
    pub results: SmallVec<[Value; 2]>,
    /// The operation.
    pub kind: InstrKind,
    /// Source position (metadata, ignored by equality).
    pub span: Span,
}

/// What an instruction does.
#[derive(Debug, Clone, PartialEq)]
pub enum InstrKind {
    /// A plain operation described by the opcode table.
    Op(OpInstr),
    /// `if %c -> T... { then } else { else }`; results are the values yielded by the taken arm.
    If {
        /// `i1` condition.
        cond: Operand,
        /// Region run when the condition is true.
        then_region: Region,
        /// Region run when the condition is false (may be empty).
        else_region: Region,
    },
    /// `loop (%p: T = init, ...) -> T... { body }`: `continue` runs the body again with new
    /// values of the loop variables, `break` leaves it giving the loop's results.
    Loop {
        /// Loop variables, defined at the top of the body.
        params: Vec<Value>,
        /// Their values on entry.
        init: Vec<Operand>,
        /// The body.
        body: Region,
    },
    /// Ends an `if` arm giving the `if`'s results.
    Yield(Vec<Operand>),
    /// Leaves the innermost loop giving its results.
    Break(Vec<Operand>),
    /// Starts the next iteration of the innermost loop with new loop-variable values.
    Continue(Vec<Operand>),
    /// Returns from the function giving the final values of its `return` parameters.
    Ret(Vec<Operand>),
    /// Marks a point that must never be reached.
    Unreachable,
    /// Direct call; results are the new values of the callee's `return` parameters.
    Call {
        /// The function called.
        callee: FuncId,
        /// One argument per parameter.
        args: Vec<Operand>,
    },
    /// Call through a function address with a named signature.
    CallIndirect {
        /// The signature the callee must have.
        sig: SigId,
        /// `ptr` holding a function address from `func_addr`.
        callee: Operand,
        /// One argument per parameter.
        args: Vec<Operand>,
    },
    /// The address of a function, usable by `call_indirect`.
    FuncAddr {
        /// The function.
        func: FuncId,
    },
}

impl InstrKind {
    /// The regions nested in the instruction: an `if`'s then and else arms, a loop's body.
    pub fn regions(&self) -> impl Iterator<Item = &Region> {
        let (a, b) = match self {
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => (Some(then_region), Some(else_region)),
            InstrKind::Loop { body, .. } => (Some(body), None),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// True when control never continues with the next instruction of the same region.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstrKind::Yield(_)
                | InstrKind::Break(_)
                | InstrKind::Continue(_)
                | InstrKind::Ret(_)
                | InstrKind::Unreachable
        )
    }
}

/// A plain operation: opcode, optional type token, optional extra token, operands.
#[derive(Debug, Clone, PartialEq)]
pub struct OpInstr {
    /// What to compute.
    pub opcode: Opcode,
    /// The type token (`add i32 ...`); `None` when the opcode takes none.
    pub ty: Option<Type>,
    /// The extra token the opcode takes, if any.
    pub extra: Extra,
    /// Operands, as many as the opcode's row says.
    pub args: SmallVec<[Operand; 3]>,
}

/// Extra token of an operation besides its type and operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// No extra token.
    None,
    /// Comparison condition (`icmp ult`, `fcmp olt`).
    Cond(Cond),
    /// Conversion target type (`zext i32 %x to i64`).
    To(Type),
    /// Dispatch dimension 0, 1 or 2 (`global_id 0`), or `alloca` size in bytes.
    Imm(u32),
}

/// Comparison conditions. Integer ones apply to `icmp`, float ones to `fcmp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater or equal.
    Uge,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
    /// Signed greater than.
    Sgt,
    /// Signed greater or equal.
    Sge,
    /// Ordered and equal.
    Oeq,
    /// Unordered or not equal.
    Une,
    /// Ordered and less than.
    Olt,
    /// Ordered and less or equal.
    Ole,
    /// Ordered and greater than.
    Ogt,
    /// Ordered and greater or equal.
    Oge,
    /// Neither operand is NaN.
    Ord,
    /// Either operand is NaN.
    Uno,
}

impl Cond {
    /// All conditions with their text names; the first ten are integer conditions.
    pub const ALL: [(Cond, &'static str); 18] = [
        (Cond::Eq, "eq"),
        (Cond::Ne, "ne"),
        (Cond::Ult, "ult"),
        (Cond::Ule, "ule"),
        (Cond::Ugt, "ugt"),
        (Cond::Uge, "uge"),
        (Cond::Slt, "slt"),
        (Cond::Sle, "sle"),
        (Cond::Sgt, "sgt"),
        (Cond::Sge, "sge"),
        (Cond::Oeq, "oeq"),
        (Cond::Une, "une"),
        (Cond::Olt, "olt"),
        (Cond::Ole, "ole"),
        (Cond::Ogt, "ogt"),
        (Cond::Oge, "oge"),
        (Cond::Ord, "ord"),
        (Cond::Uno, "uno"),
    ];

    /// Text name.
    pub fn name(self) -> &'static str {
        Cond::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("?", |(_, n)| n)
    }

    /// Looks a condition up by name.
    pub fn from_name(name: &str) -> Option<Cond> {
        Cond::ALL.iter().find(|(_, n)| *n == name).map(|(c, _)| *c)
    }

    /// True for conditions of `icmp`.
    pub fn is_int(self) -> bool {
        Cond::ALL[..10].iter().any(|(c, _)| *c == self)
    }
}

/// Which types the type token of an opcode may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TyClass {
    /// The opcode takes no type token.
    None,
    /// `i32` or `i64`.
    Int,
    /// `i1`, `i32` or `i64`.
    IntBool,
    /// `i1`, `i32`, `i64` or `ptr` (integer comparisons).
    IntPtr,
    /// Any first-class type: `i1`, `i32`, `i64`, `f32`, `ptr`.
    Value,
    /// A type with a memory image: `i32`, `i64`, `f32`, `ptr`.
    Mem,
}

impl TyClass {
    /// True when `ty` is allowed.
    pub fn allows(self, ty: Type) -> bool {
        use Type::*;
        match self {
            TyClass::None => false,
            TyClass::Int => matches!(ty, I32 | I64),
            TyClass::IntBool => matches!(ty, I1 | I32 | I64),
            TyClass::IntPtr => matches!(ty, I1 | I32 | I64 | Ptr),
            TyClass::Value => ty.is_first_class(),
            TyClass::Mem => matches!(ty, I32 | I64 | F32 | Ptr),
        }
    }

    /// Words for messages ("i32 or i64").
    pub fn describe(self) -> &'static str {
        match self {
            TyClass::None => "no type",
            TyClass::Int => "i32 or i64",
            TyClass::IntBool => "i1, i32 or i64",
            TyClass::IntPtr => "i1, i32, i64 or ptr",
            TyClass::Value => "i1, i32, i64, f32 or ptr",
            TyClass::Mem => "i32, i64, f32 or ptr",
        }
    }
}

/// Type of one operand of an opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgTy {
    /// The instruction's type token.
    T,
    /// A fixed type.
    Is(Type),
    /// `i32` (sign-extended) or `i64`; a literal here is `i64`.
    AnyInt,
}

/// Result type of an opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResTy {
    /// No result.
    None,
    /// The instruction's type token.
    T,
    /// A fixed type.
    Is(Type),
    /// The conversion target (`to` type).
    To,
}

/// Which extra token an opcode takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraKind {
    /// None.
    None,
    /// An `icmp` condition before the type.
    IntCond,
    /// An `fcmp` condition.
    FloatCond,
    /// `to TYPE` after the operand.
    To,
    /// A dimension 0..=2 after the opcode.
    Dim,
    /// A byte size after the opcode.
    Size,
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// Text name.
    pub name: &'static str,
    /// Allowed type tokens.
    pub ty: TyClass,
    /// Extra token.
    pub extra: ExtraKind,
    /// Operand types.
    pub args: &'static [ArgTy],
    /// Result type.
    pub result: ResTy,
}

macro_rules! opcodes {
    ($($(#[$doc:meta])* $v:ident = $name:literal, $ty:ident, $extra:ident, [$($arg:expr),*], $res:expr;)*) => {
        /// Plain operations. Properties are in [`OPCODES`], indexed by `opcode as usize`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Opcode { $($(#[$doc])* $v,)* }

        /// The opcode property table, in the order of [`Opcode`].
        pub const OPCODES: &[OpInfo] = &[$(OpInfo {
            name: $name,
            ty: TyClass::$ty,
            extra: ExtraKind::$extra,
            args: &[$($arg),*],
            result: $res,
        },)*];

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$v,)*];
        }
    };
}

use ArgTy::{AnyInt, Is, T};
use Type::{Ptr, Stack, F32, I1, I32};

opcodes! {
    /// A literal: `const i32 5`, `const f32 0.5`, `const f32 0x7fc00000` (raw bits).
    Const = "const", Value, None, [T], ResTy::T;
    /// Wrapping addition.
    Add = "add", Int, None, [T, T], ResTy::T;
    /// Wrapping subtraction.
    Sub = "sub", Int, None, [T, T], ResTy::T;
    /// Wrapping multiplication.
    Mul = "mul", Int, None, [T, T], ResTy::T;
    /// Unsigned division (division by zero is a runtime error).
    Udiv = "udiv", Int, None, [T, T], ResTy::T;
    /// Signed division rounding toward zero (by zero: error; MIN / -1 wraps).
    Sdiv = "sdiv", Int, None, [T, T], ResTy::T;
    /// Unsigned remainder.
    Urem = "urem", Int, None, [T, T], ResTy::T;
    /// Signed remainder (sign of the dividend).
    Srem = "srem", Int, None, [T, T], ResTy::T;
    /// Bitwise and.
    And = "and", IntBool, None, [T, T], ResTy::T;
    /// Bitwise or.
    Or = "or", IntBool, None, [T, T], ResTy::T;
    /// Bitwise exclusive or.
    Xor = "xor", IntBool, None, [T, T], ResTy::T;
    /// Shift left; the amount is taken modulo the bit width.
    Shl = "shl", Int, None, [T, T], ResTy::T;
    /// Logical shift right (amount modulo the bit width).
    Lshr = "lshr", Int, None, [T, T], ResTy::T;
    /// Arithmetic shift right (amount modulo the bit width).
    Ashr = "ashr", Int, None, [T, T], ResTy::T;
    /// Unsigned minimum.
    Umin = "umin", Int, None, [T, T], ResTy::T;
    /// Unsigned maximum.
    Umax = "umax", Int, None, [T, T], ResTy::T;
    /// Signed minimum.
    Smin = "smin", Int, None, [T, T], ResTy::T;
    /// Signed maximum.
    Smax = "smax", Int, None, [T, T], ResTy::T;
    /// Bitwise not.
    Not = "not", IntBool, None, [T], ResTy::T;
    /// Two's complement negation.
    Neg = "neg", Int, None, [T], ResTy::T;
    /// Number of set bits.
    Popcount = "popcount", Int, None, [T], ResTy::T;
    /// f32 addition, round to nearest even; NaN rule.
    Fadd = "fadd", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// f32 subtraction, round to nearest even; NaN rule.
    Fsub = "fsub", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// f32 multiplication, round to nearest even; NaN rule.
    Fmul = "fmul", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// f32 division `a / b`, correctly rounded; NaN rule, except that `0/0` and `inf/inf`
    /// give `0xffc00000` (the NaN AMD's `v_div_fixup_f32` writes for them).
    Fdiv = "fdiv", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// Minimum as AMD's `v_min_f32` in IEEE mode: a signalling NaN gives itself quieted, a
    /// quiet NaN gives the other operand (two quiet NaNs: the second); -0 orders below +0.
    Fmin = "fmin", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// Maximum as AMD's `v_max_f32` in IEEE mode (NaNs as `fmin`); +0 orders above -0.
    Fmax = "fmax", None, None, [Is(F32), Is(F32)], ResTy::Is(F32);
    /// Fused multiply-add `a * b + c`, rounded once; NaN rule.
    Ffma = "ffma", None, None, [Is(F32), Is(F32), Is(F32)], ResTy::Is(F32);
    /// Negation: flips the sign bit only (NaNs included).
    Fneg = "fneg", None, None, [Is(F32)], ResTy::Is(F32);
    /// Absolute value: clears the sign bit only (NaNs included).
    Fabs = "fabs", None, None, [Is(F32)], ResTy::Is(F32);
    /// Square root, correctly rounded; NaN rule (a negative operand gives `0x7fc00000`).
    Fsqrt = "fsqrt", None, None, [Is(F32)], ResTy::Is(F32);
    /// Reciprocal square root, defined as `fdiv(1.0, fsqrt(x))`: two correctly rounded steps.
    Frsq = "frsq", None, None, [Is(F32)], ResTy::Is(F32);
    /// Round toward minus infinity; NaN rule.
    Ffloor = "ffloor", None, None, [Is(F32)], ResTy::Is(F32);
    /// Round toward plus infinity; NaN rule.
    Fceil = "fceil", None, None, [Is(F32)], ResTy::Is(F32);
    /// Round toward zero; NaN rule.
    Ftrunc = "ftrunc", None, None, [Is(F32)], ResTy::Is(F32);
    /// `x - ffloor(x)` computed as one f32 subtraction; NaN rule (`ffract inf` gives
    /// `0x7fc00000`).
    Ffract = "ffract", None, None, [Is(F32)], ResTy::Is(F32);
    /// Sine of radians: `t = x * f32(1/(2π))` (`0x3e22f983`, one rounded f32
    /// multiplication), then `S(t)`: NaN rule when `t` is NaN, `0x7fc00000` when `t` is
    /// infinite, else `f32(sin(r * 2π))` computed in f64 with `r = t - round_ties_even(t)`.
    /// This is AMD's `v_mul_f32` by `1/(2π)` followed by `v_sin_f32`, whose input is in
    /// revolutions.
    Fsin = "fsin", None, None, [Is(F32)], ResTy::Is(F32);
    /// Cosine of radians: as `fsin`, with the cosine (AMD's `v_cos_f32`).
    Fcos = "fcos", None, None, [Is(F32)], ResTy::Is(F32);
    /// `2^x`: `f32(exp2(f64(x)))`; NaN rule.
    Fexp2 = "fexp2", None, None, [Is(F32)], ResTy::Is(F32);
    /// `log2(x)`: `f32(log2(f64(x)))`; a negative `x` (and -inf) gives `0x7fc00000`, ±0 gives
    /// -inf, a NaN `x` follows the NaN rule.
    Flog2 = "flog2", None, None, [Is(F32)], ResTy::Is(F32);
    /// Integer or pointer comparison: `icmp ult i32 %a, %b`.
    Icmp = "icmp", IntPtr, IntCond, [T, T], ResTy::Is(I1);
    /// Float comparison: `fcmp olt %a, %b`.
    Fcmp = "fcmp", None, FloatCond, [Is(F32), Is(F32)], ResTy::Is(I1);
    /// `select T %c, %a, %b`: `%a` when `%c` is true.
    Select = "select", Value, None, [Is(I1), T, T], ResTy::T;
    /// Zero extension: `zext i32 %x to i64`.
    Zext = "zext", IntBool, To, [T], ResTy::To;
    /// Sign extension.
    Sext = "sext", IntBool, To, [T], ResTy::To;
    /// Truncation to a narrower integer.
    Trunc = "trunc", IntBool, To, [T], ResTy::To;
    /// Signed integer to f32 (round to nearest even; never NaN).
    Sitofp = "sitofp", Int, To, [T], ResTy::To;
    /// Unsigned integer to f32 (round to nearest even; never NaN).
    Uitofp = "uitofp", Int, To, [T], ResTy::To;
    /// f32 to signed integer, toward zero, saturating; NaN gives 0.
    Fptosi = "fptosi", Value, To, [T], ResTy::To;
    /// f32 to unsigned integer, toward zero, saturating; NaN gives 0.
    Fptoui = "fptoui", Value, To, [T], ResTy::To;
    /// Same bits, other type of the same width (`i32`/`f32`, `i64`/`ptr`).
    Bitcast = "bitcast", Value, To, [T], ResTy::To;
    /// Address plus a byte offset: `ptradd %p, %off` (`i32` offsets are sign-extended).
    Ptradd = "ptradd", None, None, [Is(Ptr), AnyInt], ResTy::Is(Ptr);
    /// Global load of the type's width: `load f32 %p`.
    Load = "load", Mem, None, [Is(Ptr)], ResTy::T;
    /// Global load of a byte, zero-extended to i32.
    LoadU8 = "load_u8", None, None, [Is(Ptr)], ResTy::Is(I32);
    /// Global load of a byte, sign-extended to i32.
    LoadS8 = "load_s8", None, None, [Is(Ptr)], ResTy::Is(I32);
    /// Global load of 16 bits, zero-extended to i32.
    LoadU16 = "load_u16", None, None, [Is(Ptr)], ResTy::Is(I32);
    /// Global load of 16 bits, sign-extended to i32.
    LoadS16 = "load_s16", None, None, [Is(Ptr)], ResTy::Is(I32);
    /// Global store of the type's width: `store f32 %v, %p`.
    Store = "store", Mem, None, [T, Is(Ptr)], ResTy::None;
    /// Global store of the low byte of an i32.
    Store8 = "store_8", None, None, [Is(I32), Is(Ptr)], ResTy::None;
    /// Global store of the low 16 bits of an i32.
    Store16 = "store_16", None, None, [Is(I32), Is(Ptr)], ResTy::None;
    /// Per-invocation stack array of N bytes, zero-filled on function entry: `alloca 64`.
    Alloca = "alloca", None, Size, [], ResTy::Is(Stack);
    /// Load from a stack array at a byte offset: `sload f32 %a, %off`.
    Sload = "sload", Mem, None, [Is(Stack), Is(I32)], ResTy::T;
    /// Store into a stack array at a byte offset: `sstore f32 %v, %a, %off`.
    Sstore = "sstore", Mem, None, [T, Is(Stack), Is(I32)], ResTy::None;
    /// Work-item index within its group in a dimension: `local_id 0`.
    LocalId = "local_id", None, Dim, [], ResTy::Is(I32);
    /// Group index in a dimension.
    GroupId = "group_id", None, Dim, [], ResTy::Is(I32);
    /// Global work-item index including the global offset.
    GlobalId = "global_id", None, Dim, [], ResTy::Is(I32);
    /// Work-group size in a dimension.
    GroupSize = "group_size", None, Dim, [], ResTy::Is(I32);
    /// Number of groups in a dimension.
    NumGroups = "num_groups", None, Dim, [], ResTy::Is(I32);
    /// Global size (work-items) in a dimension.
    GlobalSize = "global_size", None, Dim, [], ResTy::Is(I32);
    /// Number of dimensions of the dispatch (1 to 3).
    WorkDim = "work_dim", None, None, [], ResTy::Is(I32);
    /// Global offset in a dimension.
    GlobalOffset = "global_offset", None, Dim, [], ResTy::Is(I32);
}

impl Opcode {
    /// The table row.
    pub fn info(self) -> &'static OpInfo {
        &OPCODES[self as usize]
    }

    /// Text name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks an opcode up by name.
    pub fn from_name(name: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.name() == name)
    }

    /// Whether a conversion from `from` to `to` is allowed for this conversion opcode.
    pub fn conversion_ok(self, from: Type, to: Type) -> bool {
        use Type::*;
        let int_rank = |t: Type| match t {
            I1 => Some(1),
            I32 => Some(32),
            I64 => Some(64),
            _ => None,
        };
        match self {
            Opcode::Zext | Opcode::Sext => {
                matches!((int_rank(from), int_rank(to)), (Some(a), Some(b)) if a < b)
            }
            Opcode::Trunc => matches!((int_rank(from), int_rank(to)), (Some(a), Some(b)) if a > b),
            Opcode::Sitofp | Opcode::Uitofp => matches!(from, I32 | I64) && to == F32,
            Opcode::Fptosi | Opcode::Fptoui => from == F32 && matches!(to, I32 | I64),
            Opcode::Bitcast => {
                from != to && matches!((from, to), (I32 | F32, I32 | F32) | (I64 | Ptr, I64 | Ptr))
            }
            _ => false,
        }
    }

    /// The type of operand `index` given the type token, or `None` for `AnyInt` operands.
    pub fn arg_type(self, index: usize, ty: Option<Type>) -> Option<Type> {
        match self.info().args.get(index)? {
            ArgTy::T => ty,
            ArgTy::Is(t) => Some(*t),
            ArgTy::AnyInt => None,
        }
    }

    /// The result type given the type token and the extra token.
    pub fn result_type(self, ty: Option<Type>, extra: Extra) -> Option<Type> {
        match self.info().result {
            ResTy::None => None,
            ResTy::T => ty,
            ResTy::Is(t) => Some(t),
            ResTy::To => match extra {
                Extra::To(t) => Some(t),
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_enum_order_and_names_are_unique() {
        for (i, op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
            assert_eq!(Opcode::from_name(op.name()), Some(*op));
        }
        assert_eq!(Opcode::ALL.len(), OPCODES.len());
    }

    #[test]
    fn conversions() {
        assert!(Opcode::Zext.conversion_ok(Type::I32, Type::I64));
        assert!(!Opcode::Zext.conversion_ok(Type::I64, Type::I32));
        assert!(Opcode::Bitcast.conversion_ok(Type::Ptr, Type::I64));
        assert!(!Opcode::Bitcast.conversion_ok(Type::I32, Type::I64));
        assert!(Opcode::Fptosi.conversion_ok(Type::F32, Type::I32));
    }
}
