//! Logic ops in the fragment epilog, as `nir_blend_logicop` of Mesa's `nir_lower_blend`
//! computes them: on integer formats the bits of the colour and of the destination
//! (destinations of signed formats sign-extended as Mesa's `load_tilebuffer` leaves them);
//! on normalised formats the values converted to integers and back; float and sRGB formats
//! are stored unchanged (the OpenGL rule that a logic op has no effect there) and handled by
//! the caller.
//!
//! Order and precision (gpuabi's, for a reference to repeat): a normalised component `x`
//! of `b` bits with `m = 2^b − 1` (unorm) or `m = 2^(b−1) − 1` (snorm) becomes the integer
//! `f_to_u32`/`f_to_s32` (round to nearest even, saturating) of `fmul(clamp(x), m)`, where
//! the clamp is `fadd x, −0.0, sat` for unorm and the two `csel` of the blend's snorm clamp;
//! 16-bit colours and destinations are widened to fp32 first (`fmul x, 1.0`). The op is
//! Mesa's expression in `and`/`or`/`xor` with every negation an `xor` with the channel's
//! bit mask `2^b − 1`, on 32 bits (the colour's size for integer formats). The result goes
//! back to a float as `fmul(u32_to_f(r), 1/m)` for unorm and, for snorm, sign-extended from
//! `b` bits (`((r ∧ (2^b − 1)) ⊕ 2^(b−1)) − 2^(b−1)`), `fmul(s32_to_f(r), 1/m)` then `r > −1 ? r : −1`; `1/m` is the fp32 reciprocal
//! rounded to nearest (`nir_format_unorm_to_float` divides; AGX lowers a division by a
//! constant to a multiplication by its reciprocal); 16-bit colours round it to fp16.

use gpuabi_agx_isa::regs::{imm, r};
use gpuabi_agx_isa::{args, Builder, Operand};

use crate::blend::LogicOp;
use crate::epilog_blend::{clamp, sized, Norm};

/// Scratch registers of the conversions: the scale, its reciprocal, the bit mask, the
/// result of each step.
const SCALE: u16 = 45;
const RECIP: u16 = 46;
const MASK: u16 = 40;
const RESULT: u16 = 57;

/// An operand of a logic-op step: source, destination, the channel mask, the result.
#[derive(Clone, Copy)]
enum Var {
    S,
    D,
    M,
    T,
}

/// One step `t = op(a, b)`.
type Step = (&'static str, Var, Var);

/// The steps of each op (Mesa's `nir_logicop_func`), each `t = op(a, b)`; `noop` stores
/// nothing and has none.
const STEPS: [(LogicOp, &[Step]); 16] = {
    use Var::*;
    [
        (LogicOp::Clear, &[("zero", S, D)]),
        (LogicOp::Nor, &[("or", S, D), ("xor", T, M)]),
        (LogicOp::AndInverted, &[("xor", S, M), ("and", T, D)]),
        (LogicOp::CopyInverted, &[("xor", S, M)]),
        (LogicOp::AndReverse, &[("xor", D, M), ("and", S, T)]),
        (LogicOp::Invert, &[("xor", D, M)]),
        (LogicOp::Xor, &[("xor", S, D)]),
        (LogicOp::Nand, &[("and", S, D), ("xor", T, M)]),
        (LogicOp::And, &[("and", S, D)]),
        (LogicOp::Equiv, &[("xor", S, D), ("xor", T, M)]),
        (LogicOp::Noop, &[]),
        (LogicOp::OrInverted, &[("xor", S, M), ("or", T, D)]),
        (LogicOp::Copy, &[("or", S, S)]),
        (LogicOp::OrReverse, &[("xor", D, M), ("or", S, T)]),
        (LogicOp::Or, &[("or", S, D)]),
        (LogicOp::Set, &[("one", S, D)]),
    ]
};

/// Whether `op` reads the destination.
pub fn reads_destination(op: LogicOp) -> bool {
    STEPS.iter().find(|e| e.0 == op).is_some_and(|e| {
        e.1.iter()
            .any(|&(_, a, b)| matches!(a, Var::D) || matches!(b, Var::D))
    })
}

/// The kind of values a logic op works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Integer bits.
    Integer,
    /// Normalised values of a clamp.
    Normalised(Norm),
}

/// The registers of one component: source (where the result goes) and destination at the
/// colour's size, and two 32-bit scratch registers for their converted values (the
/// source's may be the source register itself for 32-bit colours).
pub struct Regs {
    /// Source and result.
    pub s: Operand,
    /// Destination as loaded.
    pub d: Operand,
    /// The source as an integer.
    pub s_wide: Operand,
    /// The destination as an integer.
    pub d_wide: Operand,
}

/// Emits `op` on one component (`size` bits); `bits` is the channel's width.
pub fn component(code: &mut Builder, op: LogicOp, kind: Kind, regs: &Regs, bits: u32, size: u8) {
    let steps = STEPS.iter().find(|e| e.0 == op).map_or(&[][..], |e| e.1);
    let Kind::Normalised(norm) = kind else {
        let mask = (1u64 << bits.min(u32::from(size))) - 1;
        run(code, steps, regs.s, regs.d, mask, size);
        return;
    };
    let signed = norm == Norm::Snorm;
    let max = if signed {
        (1u32 << (bits - 1)) - 1
    } else {
        (1u32 << bits) - 1
    };
    let (sr, dr) = (regs.s_wide, regs.d_wide);
    let scale = r(u32::from(SCALE));
    code.push("ldimm", &args![scale, (max as f32).to_bits()]);
    let to_int = if signed { "f_to_s32" } else { "f_to_u32" };
    let inputs = if reads_destination(op) {
        vec![(sr, regs.s), (dr, regs.d)]
    } else {
        vec![(sr, regs.s)]
    };
    for (r, from) in inputs {
        if size == 16 {
            code.push("fmul", &args![r, from, 1.0]);
        } else if r != from {
            code.push("mov", &args![r, from]);
        }
        clamp(code, r, norm, 32);
        code.push("fmul", &args![r, r, scale]);
        code.push(to_int, &args![r, r, "rte"]);
    }
    run(code, steps, sr, dr, (1u64 << bits) - 1, 32);
    if signed && bits < 32 {
        // Sign extension of the low `bits`: `((r ∧ mask) ⊕ sign) − sign`.
        let sign = 1u64 << (bits - 1);
        let m = constant(code, (1u64 << bits) - 1, 32);
        code.push("and", &args![sr, sr, m]);
        let k = constant(code, sign, 32);
        code.push("xor", &args![sr, sr, k]);
        code.push("isub", &args![sr, sr, k]);
    }
    let to_float = if signed { "s32_to_f" } else { "u32_to_f" };
    code.push(to_float, &args![sr, sr, "rte"]);
    let recip = r(u32::from(RECIP));
    code.push("ldimm", &args![recip, (1.0f32 / max as f32).to_bits()]);
    code.push("fmul", &args![sr, sr, recip]);
    if signed {
        let m = r(u32::from(SCALE));
        code.push("ldimm", &args![m, (-1.0f32).to_bits()]);
        code.push("csel", &args![sr, sr, m, sr, m, "fgt"]);
    }
    if size == 16 {
        code.push("fadd", &args![regs.s, sr, -0.0]);
    }
}

/// Emits the steps on registers `s` and `d` of `size` bits, the result in `s`.
fn run(code: &mut Builder, steps: &[Step], s: Operand, d: Operand, mask: u64, size: u8) {
    let m = constant(code, mask, size);
    let t = sized(RESULT, size);
    for (i, &(op, a, b)) in steps.iter().enumerate() {
        let name = |x: Var| match x {
            Var::S => s,
            Var::D => d,
            Var::M => m,
            Var::T => t,
        };
        // The last step writes the result in place of the source.
        let to = if i + 1 == steps.len() { s } else { t };
        code.push(op, &args![to, name(a), name(b)]);
    }
}

/// An integer operand: an immediate up to 255, else loaded into the mask register.
fn constant(code: &mut Builder, v: u64, size: u8) -> Operand {
    if v <= 0xff {
        imm(v as i64)
    } else {
        let r = sized(MASK, size);
        // Below 2^32: masks and sign bits of at most 32-bit channels.
        code.push("ldimm", &args![r, v as u32]);
        r
    }
}
