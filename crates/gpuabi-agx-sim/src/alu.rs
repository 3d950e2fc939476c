//! The arithmetic units applied to the whole SIMD group: each instruction runs over the
//! active lanes of the execution mask (all 32 in a straight loop when all are active) with
//! operands already resolved by [`crate::program`], so no lane reads a name, decodes an
//! operand or allocates.
//!
//! Integer results are computed modulo 2^64 (wrapping), which gives the low bits the
//! destination keeps; only the saturating forms compute the exact wide value. Float
//! results follow applegpu's rule (`fma.py`): the exact value rounded once, fp32 flushing
//! subnormal inputs and results (`crate::float`).

use crate::convert::{float_to_int, int_to_float, unary};
use crate::exec::{Fail, R};
use crate::float::{f16_to_f64, f32_to_f64, fma_exact, saturate, to_f16, to_f32};
use crate::op::{Field, Nest, Op};
use crate::program::{Decoded, Loc, Opnd};
use crate::state::{State, LANES};

/// Calls `f` for each lane set in `exec`, in lane order.
#[inline(always)]
pub(crate) fn each(exec: u32, mut f: impl FnMut(usize)) {
    if exec == u32::MAX {
        for lane in 0..LANES {
            f(lane);
        }
    } else {
        let mut m = exec;
        while m != 0 {
            f(m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
}

/// Joins `size / 16` halves from `half` on, lowest first.
#[inline(always)]
fn join(get: impl Fn(usize) -> u16, half: u16, size: u32) -> u64 {
    let h = half as usize;
    match size {
        16 => u64::from(get(h)),
        32 => u64::from(get(h)) | u64::from(get(h + 1)) << 16,
        _ => (0..4).fold(0, |v, i| v | u64::from(get(h + i)) << (16 * i)),
    }
}

/// The raw bits of an operand in `lane` (immediates: their 16 low bits or float code).
#[inline(always)]
pub(crate) fn bits(st: &State, o: &Opnd, lane: usize) -> u64 {
    match o.loc {
        Loc::Gpr => join(|h| st.half(lane, h), o.half, o.size),
        Loc::Uniform => join(|h| st.uniforms[h], o.half, o.size),
        Loc::Imm | Loc::FImm => o.imm,
        Loc::None => 0,
    }
}

/// Sign-extends the low `size` bits of `v`.
#[inline(always)]
fn sext64(v: u64, size: u32) -> i64 {
    if size >= 64 {
        v as i64
    } else {
        ((v << (64 - size)) as i64) >> (64 - size)
    }
}

/// An integer source as 64 bits: sign-extended from its width when it carries `.sx`.
#[inline(always)]
fn int(st: &State, o: &Opnd, lane: usize) -> u64 {
    let v = bits(st, o, lane);
    if o.sx {
        sext64(v, o.size) as u64
    } else {
        v
    }
}

/// An integer source's exact value (for saturation).
#[inline(always)]
fn wide(v: u64, o: &Opnd) -> i128 {
    if o.sx {
        i128::from(v as i64)
    } else {
        i128::from(v)
    }
}

/// A float source as f64: fp16 exact, fp32 with subnormals flushed, then `.abs`/`.neg`.
/// 64-bit float sources are refused when the program is decoded.
#[inline(always)]
fn float(st: &State, o: &Opnd, lane: usize) -> f64 {
    let mut x = match o.loc {
        Loc::FImm => o.fimm,
        _ => {
            let v = bits(st, o, lane);
            if o.size == 16 {
                f16_to_f64(v as u16)
            } else {
                f32_to_f64(v as u32, true)
            }
        }
    };
    if o.abs {
        x = x.abs();
    }
    if o.neg {
        x = -x;
    }
    x
}

/// Writes the low `size` bits of `v` to the destination in `lane`.
#[inline(always)]
fn put(st: &mut State, d: &Opnd, lane: usize, v: u64) {
    let h = d.half as usize;
    match d.size {
        16 => st.set_half(lane, h, v as u16),
        32 => {
            st.set_half(lane, h, v as u16);
            st.set_half(lane, h + 1, (v >> 16) as u16);
        }
        _ => {
            for i in 0..4 {
                st.set_half(lane, h + i, (v >> (16 * i)) as u16);
            }
        }
    }
}

/// Float result bits for the destination: fp32 destinations round with flush-to-zero,
/// fp16 ones keep subnormals; `sat` clamps first.
#[inline(always)]
fn float_bits(d: &Opnd, x: f64, sat: bool) -> u64 {
    let x = if sat { saturate(x) } else { x };
    if d.size == 16 {
        u64::from(to_f16(x))
    } else {
        u64::from(to_f32(x, true))
    }
}

/// Runs `f(st, lane)` for each active lane and writes its result to the destination,
/// marking the destination's halves written once when any lane is active.
#[inline(always)]
fn map(st: &mut State, d: &Decoded, f: impl Fn(&State, usize) -> u64) {
    let exec = st.exec;
    if exec == 0 {
        return;
    }
    let dst = d.dst;
    each(exec, |lane| {
        let v = f(st, lane);
        put(st, &dst, lane, v);
    });
    st.mark_written(dst.half as usize, dst.size);
}

/// Integer comparison: code bits 0..1 select ==, <, >; bit 2 compares signed; bit 3
/// negates (`icompare_thread` in applegpu). Code 3 is refused before the lanes run.
#[inline(always)]
fn icompare(code: u32, x: u64, a: &Opnd, y: u64, b: &Opnd) -> bool {
    let r = if code & 4 != 0 {
        let (x, y) = (sext64(x, a.size), sext64(y, b.size));
        match code & 3 {
            0 => x == y,
            1 => x < y,
            _ => x > y,
        }
    } else {
        match code & 3 {
            0 => x == y,
            1 => x < y,
            _ => x > y,
        }
    };
    r != (code & 8 != 0)
}

/// Float comparison: ==, <, >, >=, <= (codes 0, 1, 2, 5, 6); bit 3 negates. Code 4 is
/// refused before the lanes run.
///
/// Codes 3 and 7 (`fltn`, `fgtn`) are the orderings of minimum and maximum: Mesa's
/// `agx_fminmax_to` (`src/asahi/compiler/agx_compile.c`) computes NIR's `fmin`/`fmax` as
/// `csel a, b, a, b, fltn|fgtn`, and NIR's `fmin`/`fmax` return the other operand when one
/// is NaN. So `a <n b` is true when `b` alone is NaN, false when `a` is NaN (both NaN:
/// false, giving `b`), and `a < b` otherwise; the same with `>` for `fgtn`. Signed zeros
/// compare equal, giving `b`: Mesa's comment there says these modes are incorrect for
/// signed zeros, and lowers the `fmin`/`fmax` that must tell them apart.
#[inline(always)]
fn fcompare(code: u32, x: f64, y: f64) -> bool {
    let r = match code & 7 {
        0 => x == y,
        1 => x < y,
        2 => x > y,
        3 => !x.is_nan() && (y.is_nan() || x < y),
        5 => x >= y,
        6 => x <= y,
        _ => !x.is_nan() && (y.is_nan() || x > y),
    };
    r != (code & 8 != 0)
}

/// Refuses the comparison codes no unit defines (integer 3, float 4).
fn check_condition(float: bool, code: u32) -> R<()> {
    match (float, code) {
        (false, c) if c & 3 == 3 => Err(Fail::Unsupported("integer condition 3")),
        (true, c) if c & 7 == 4 => Err(Fail::Unsupported("float condition 4")),
        _ => Ok(()),
    }
}

/// The comparison of sources 0 and 1 in `lane`.
#[inline(always)]
fn compare(st: &State, d: &Decoded, float_cmp: bool, lane: usize) -> bool {
    let (a, b) = (&d.src[0], &d.src[1]);
    if float_cmp {
        fcompare(d.mods.cond, float(st, a, lane), float(st, b, lane))
    } else {
        icompare(d.mods.cond, bits(st, a, lane), a, bits(st, b, lane), b)
    }
}

fn saturate_int(v: i128, size: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (size - 1)), (1i128 << (size - 1)) - 1)
    } else {
        (0, (1i128 << size) - 1)
    };
    v.clamp(lo, hi)
}

fn shl(x: u128, s: u32) -> u128 {
    if s >= 128 {
        0
    } else {
        x << s
    }
}

fn shr(x: u128, s: u32) -> u128 {
    if s >= 128 {
        0
    } else {
        x >> s
    }
}

/// The bitfield and shift group (`bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`).
fn bitfield(kind: Field, a: u128, b: u128, s: u32, m: u32) -> u128 {
    let mask: u128 = if m == 0 { 0xffff_ffff } else { (1 << m) - 1 };
    match kind {
        Field::Insert => (a & !shl(mask, s)) | shl(b & mask, s),
        Field::Extract => (a & !mask) | (shr(b, s) & mask),
        Field::Extr => shr((b << 32) | a, s) & mask,
        Field::ShlHi => {
            let shifted = shl(mask, s.saturating_sub(32));
            let hi = if s >= 96 { 0 } else { (b << s) >> 32 };
            (hi & shifted) | (a & !shifted)
        }
        Field::ShrHi => {
            let shifted = (mask << 32) >> s.min(32);
            ((shr(b << 32, s)) & shifted) | (a & !shifted)
        }
    }
}

/// Nesting-counter update of `if`/`else`/`while` for one lane (applegpu's pseudocode).
fn nest(kind: Nest, lane: usize, v: u16, n: u16, cond: impl FnOnce() -> R<bool>) -> R<u16> {
    Ok(match kind {
        Nest::If => {
            if v != 0 {
                v.checked_add(n).ok_or(Fail::Nesting(lane))?
            } else if !cond()? {
                1
            } else {
                0
            }
        }
        Nest::Else => match v {
            0 => n,
            1 => u16::from(!cond()?),
            _ => v,
        },
        Nest::While => {
            if v < n {
                if cond()? {
                    0
                } else {
                    n
                }
            } else {
                v
            }
        }
    })
}

/// Runs an arithmetic instruction; `false` when `d.op` is not one.
pub(crate) fn run(st: &mut State, d: &Decoded) -> R<bool> {
    let (a, b, c) = (d.src[0], d.src[1], d.src[2]);
    let sat = d.mods.saturate;
    match d.op {
        Op::Ldimm => {
            let v = d.imm as u64;
            map(st, d, |_, _| v);
        }
        Op::Iadd | Op::Isub => {
            let shift = d.mods.shift;
            let sat = sat && shift == 0 && a.size <= 32 && b.size <= 32 && d.dst.size <= 32;
            let sub = d.op == Op::Isub;
            let (dsize, signed) = (d.dst.size, a.sx || b.sx);
            map(st, d, |st, lane| {
                let (x, y) = (int(st, &a, lane), int(st, &b, lane));
                if sat {
                    let y = if sub { -wide(y, &b) } else { wide(y, &b) };
                    saturate_int(wide(x, &a) + y, dsize, signed) as u64
                } else {
                    let y = if sub { y.wrapping_neg() } else { y };
                    let y = if shift < 5 { y << shift } else { 0 };
                    x.wrapping_add(y)
                }
            });
        }
        Op::Imul | Op::Imadd | Op::Imsub => {
            let shift = d.mods.shift;
            let three = d.op != Op::Imul;
            let c_size = if three { c.size } else { 16 };
            let sat = sat && shift == 0 && c_size <= 32 && d.dst.size <= 32;
            let signed = a.sx || b.sx || (three && c.sx);
            let sub = d.op == Op::Imsub;
            let dsize = d.dst.size;
            map(st, d, |st, lane| {
                let (x, y) = (int(st, &a, lane), int(st, &b, lane));
                let z = if three { int(st, &c, lane) } else { 0 };
                if sat {
                    let z = if sub { -wide(z, &c) } else { wide(z, &c) };
                    let r = wide(x, &a).wrapping_mul(wide(y, &b)) + z;
                    saturate_int(r, dsize, signed) as u64
                } else {
                    let z = if sub { z.wrapping_neg() } else { z };
                    let z = if shift < 5 { z << shift } else { 0 };
                    x.wrapping_mul(y).wrapping_add(z)
                }
            });
        }
        Op::Bitfield { kind, two } => {
            let m = if two { 0 } else { d.imm as u32 };
            map(st, d, |st, lane| {
                let v0 = u128::from(bits(st, &a, lane));
                let v1 = u128::from(bits(st, &b, lane));
                let (x, y, s) = if two {
                    (0, v0, v1)
                } else {
                    (v0, v1, u128::from(bits(st, &c, lane)))
                };
                bitfield(kind, x, y, (s & 0x7f) as u32, m) as u64
            });
        }
        Op::Asr | Op::Asrh => {
            let high = d.op == Op::Asrh;
            map(st, d, |st, lane| {
                let x = i128::from(sext64(bits(st, &a, lane), a.size));
                let s = (bits(st, &b, lane) & 0x7f) as u32;
                let x = if high { x << 32 } else { x };
                let r = if s >= 127 {
                    if x < 0 {
                        -1
                    } else {
                        0
                    }
                } else {
                    x >> s
                };
                r as u64
            });
        }
        Op::Fadd | Op::Fmul | Op::Ffma | Op::Hadd | Op::Hmul | Op::Hfma => {
            let half_op = matches!(d.op, Op::Hadd | Op::Hmul | Op::Hfma);
            let dst = d.dst;
            let op = d.op;
            map(st, d, |st, lane| {
                let x = float(st, &a, lane);
                let y = float(st, &b, lane);
                let exact = match op {
                    Op::Fadd | Op::Hadd => fma_exact(x, 1.0, y),
                    Op::Fmul | Op::Hmul => fma_exact(x, y, 0.0),
                    _ => fma_exact(x, y, float(st, &c, lane)),
                };
                // A 32-bit operation rounds to fp32 first, also for a 16-bit destination.
                let r = if half_op {
                    exact
                } else {
                    f64::from(f32::from_bits(to_f32(exact, true)))
                };
                float_bits(&dst, r, sat)
            });
        }
        Op::Bitop => {
            let tt = d.table;
            let copy = tt == 0b0011 || tt == 0b1100;
            map(st, d, |st, lane| {
                let (x, y) = (bits(st, &a, lane), bits(st, &b, lane));
                if copy {
                    x
                } else {
                    [!x & !y, x & !y, !x & y, x & y]
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| tt >> i & 1 == 1)
                        .fold(0, |r, (_, v)| r | v)
                }
            });
        }
        Op::Bitrev | Op::Popcnt | Op::Ffs => {
            let op = d.op;
            map(st, d, |st, lane| {
                let x = bits(st, &a, lane) as u32;
                match op {
                    Op::Bitrev => u64::from(x.reverse_bits()),
                    Op::Popcnt => u64::from(x.count_ones()),
                    _ if x == 0 => u64::MAX,
                    _ => u64::from(31 - x.leading_zeros()),
                }
            });
        }
        Op::Intl => map(st, d, |st, lane| {
            let (x, y) = (bits(st, &a, lane), bits(st, &b, lane));
            (0..16).fold(0u64, |r, i| {
                r | ((x >> i & 1) << (2 * i)) | ((y >> i & 1) << (2 * i + 1))
            })
        }),
        Op::Icsel | Op::Fcsel => {
            let float_cmp = d.op == Op::Fcsel;
            if st.exec != 0 {
                check_condition(float_cmp, d.mods.cond)?;
            }
            let (x, y) = (d.src[2], d.src[3]);
            map(st, d, |st, lane| {
                let pick = if compare(st, d, float_cmp, lane) {
                    &x
                } else {
                    &y
                };
                bits(st, pick, lane)
            });
        }
        Op::Nest { kind, float } => {
            let n = d.imm as u16;
            let checked = check_condition(float, d.mods.cond);
            for lane in 0..LANES {
                let v = st.half(lane, 0);
                let st_ref: &State = st;
                let r = nest(kind, lane, v, n, || {
                    if let Some(bad) = d.bad {
                        return Err(bad.fail());
                    }
                    if let Err(Fail::Unsupported(why)) = checked {
                        return Err(Fail::Unsupported(why));
                    }
                    Ok(compare(st_ref, d, float, lane))
                })?;
                st.set_half(lane, 0, r);
            }
            st.mark_written(0, 16);
            st.exec_from_r0l();
        }
        Op::PopExec => {
            let n = d.imm as u16;
            for lane in 0..LANES {
                let v = st.half(lane, 0).saturating_sub(n);
                st.set_half(lane, 0, v);
            }
            st.mark_written(0, 16);
            st.exec_from_r0l();
        }
        Op::UpdateExec => st.exec_from_r0l(),
        Op::Ballot => {
            let v = u64::from(st.exec);
            map(st, d, |_, _| v);
        }
        Op::IcmpBallot | Op::FcmpBallot => {
            let float_cmp = d.op == Op::FcmpBallot;
            if st.exec != 0 {
                check_condition(float_cmp, d.mods.cond)?;
            }
            let mut result = 0u64;
            each(st.exec, |lane| {
                result |= u64::from(compare(st, d, float_cmp, lane)) << lane;
            });
            map(st, d, |_, _| result);
        }
        Op::IntToFloat {
            bits: width,
            signed,
        } => {
            let (size, round) = (d.dst.size, d.mods.round);
            map(st, d, |st, lane| {
                let v = bits(st, &a, lane) & ((1u64 << width) - 1);
                let x = if signed {
                    sext64(v, width) as f64
                } else {
                    v as f64
                };
                int_to_float(x, size, round)
            });
        }
        Op::FloatToInt {
            bits: width,
            signed,
        } => {
            let round = d.mods.round;
            map(st, d, |st, lane| {
                let v = bits(st, &a, lane);
                let x = if a.size == 16 {
                    f16_to_f64(v as u16)
                } else {
                    f32_to_f64(v as u32, true)
                };
                float_to_int(x, width, signed, round)
            });
        }
        Op::Unary(f) => {
            let dst = d.dst;
            map(st, d, |st, lane| {
                float_bits(&dst, unary(f, float(st, &a, lane)), sat)
            });
        }
        _ => return Ok(false),
    }
    Ok(true)
}
