//! The f64 vector ALU: arithmetic on VGPR pairs (or 64-bit scalars and constants) and the
//! conversions to and from f64. Sources take f64 `neg`/`abs` on bit 63.
//!
//! The f64 rules, the project's model as for f32 (see [`super::float`]):
//! - f64 denormals are kept as inputs and results.
//! - NaN results: the first NaN operand with its quiet bit (51) set, otherwise the default
//!   NaN `0x7ff8000000000000`.
//! - The IEEE operations are correctly rounded (Rust's f64 arithmetic is IEEE's);
//!   `v_rcp_f64` and `v_sqrt_f64` are too, `v_rsq_f64` is `1 / sqrt(x)` with two roundings,
//!   where the hardware's are approximations within about 1 ulp.

use gpuabi_amdgpu::Opcode;

use super::half::frexp;
use super::valu::{for_active, source, source64, Lanes};
use crate::image::{Decoded, Dst};
use crate::wave::{Wave, LANE_STRIDE};

/// The default NaN of f64 results.
pub const DEFAULT_NAN64: u64 = 0x7ff8_0000_0000_0000;
const QUIET64: u64 = 1 << 51;

fn is_nan64(x: u64) -> bool {
    x & !(1 << 63) > 0x7ff0_0000_0000_0000
}

/// The result bits of an f64 operation on `inputs` that computed `result`, after the NaN
/// rule of the module documentation.
pub fn arith64(inputs: &[u64], result: f64) -> u64 {
    if let Some(nan) = inputs.iter().find(|x| is_nan64(**x)) {
        return nan | QUIET64;
    }
    if result.is_nan() {
        DEFAULT_NAN64
    } else {
        result.to_bits()
    }
}

/// A one-source f64 operation under the NaN rule.
pub fn unary64(a: u64, f: impl Fn(f64) -> f64) -> u64 {
    arith64(&[a], f(f64::from_bits(a)))
}

/// `x` (f64 bits) rounded to f32, ties to even (Rust's `as`); a NaN keeps its payload's
/// top bits and is quieted.
pub fn f64_to_f32_bits(x: u64) -> u32 {
    if is_nan64(x) {
        return (x >> 32) as u32 & 0x8000_0000 | 0x7fc0_0000 | (x >> 29) as u32 & 0x3f_ffff;
    }
    (f64::from_bits(x) as f32).to_bits()
}

/// `x` (f32 bits) as f64 bits: exact; a NaN keeps its payload and is quieted.
pub fn f32_to_f64_bits(x: u32) -> u64 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return u64::from(x & 0x8000_0000) << 32
            | 0x7ff8_0000_0000_0000
            | u64::from(x & 0x3f_ffff) << 29;
    }
    f64::from(f).to_bits()
}

/// V_FRACT_F64: `x - floor(x)`, below 1.0 (the largest f64 below 1 is 0x3fefffffffffffff,
/// as V_FRACT_F32 clamps); infinities give NaN.
pub fn fract64(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}

/// Runs `d` if it is an f64 instruction of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use Opcode::*;
    let f1 = |f: fn(f64) -> f64| move |a: u64| unary64(a, f);
    match d.op {
        // "RDNA3 ISA" V_RCP_F64, V_RSQ_F64, V_SQRT_F64, V_FLOOR_F64 ...
        VRcpF64 => map64(w, d, f1(|x| 1.0 / x)),
        VRsqF64 => map64(w, d, f1(|x| 1.0 / x.sqrt())),
        VSqrtF64 => map64(w, d, f1(f64::sqrt)),
        VFloorF64 => map64(w, d, f1(f64::floor)),
        VCeilF64 => map64(w, d, f1(f64::ceil)),
        VTruncF64 => map64(w, d, f1(f64::trunc)),
        VRndneF64 => map64(w, d, f1(f64::round_ties_even)),
        VFractF64 => map64(w, d, f1(fract64)),
        // V_FREXP_MANT_F64: the significand in [0.5, 1), ±inf and NaN as they are;
        // V_FREXP_EXP_I32_F64: the exponent, 0 for ±inf and NaN ("RDNA3 ISA").
        VFrexpMantF64 => map64(w, d, f1(|x| frexp(x).0)),
        VFrexpExpI32F64 => map64_to32(w, d, |a| frexp(f64::from_bits(a)).1 as u32),
        VCvtF32F64 => map64_to32(w, d, f64_to_f32_bits),
        // Truncated towards zero, saturated, NaN giving 0 (Rust's `as` is the rule).
        VCvtI32F64 => map64_to32(w, d, |a| f64::from_bits(a) as i32 as u32),
        VCvtU32F64 => map64_to32(w, d, |a| f64::from_bits(a) as u32),
        VCvtF64F32 => map32_to64(w, d, f32_to_f64_bits),
        VCvtF64I32 => map32_to64(w, d, |a| f64::from(a as i32).to_bits()),
        VCvtF64U32 => map32_to64(w, d, |a| f64::from(a).to_bits()),
        _ => return false,
    }
    true
}

/// Writes the 64-bit `results` of the active lanes to the destination pair.
pub(super) fn write64(w: &mut Wave, d: &Decoded, results: &[u64; LANE_STRIDE]) {
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        for_active(exec, lanes, |l| {
            w.set_v(r, l, results[l] as u32);
            w.set_v(r + 1, l, (results[l] >> 32) as u32);
        });
    }
}

/// One f64 source to an f64 result.
fn map64(w: &mut Wave, d: &Decoded, f: impl Fn(u64) -> u64) {
    let mut a = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l]));
    write64(w, d, &r);
}

/// One f64 source to a 32-bit result.
fn map64_to32(w: &mut Wave, d: &Decoded, f: impl Fn(u64) -> u32) {
    let mut a = [0u64; LANE_STRIDE];
    source64(w, d, 0, true, &mut a);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l]));
    }
}

/// One 32-bit source (f32 modifiers) to an f64 result.
fn map32_to64(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u64) {
    let mut a: Lanes = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    let mut r = [0u64; LANE_STRIDE];
    for_active(w.exec(), w.lanes(), |l| r[l] = f(a[l]));
    write64(w, d, &r);
}
