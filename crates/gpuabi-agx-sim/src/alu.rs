//! The arithmetic units applied to the whole SIMD group: each instruction runs over the
//! active lanes of the execution mask (all 32 in a straight loop when all are active) with
//! operands already resolved by [`crate::program`], so no lane reads a name, decodes an
//! operand or allocates.
//!
//! Integer results are computed modulo 2^64 (wrapping), or modulo 2^32 for destinations
//! of at most 32 bits, which gives the low bits the destination keeps; only the saturating
//! forms compute the exact wide value. Float results follow applegpu's rule (`fma.py`):
//! the exact value rounded once, fp32 flushing subnormal inputs and results
//! (`crate::float`). `fadd` and `fmul` to fp32 run in native fp32 arithmetic where that
//! gives the rule's bits ([`f32_arith`] names the cases it corrects); fp16 results and
//! fused multiply-adds round in software.

use crate::convert::{float_to_int, int_to_float, unary};
use crate::exec::{Fail, R};
use crate::float::{f16_to_f64, f32_to_f64, fma_exact, saturate, to_f16, to_f32, F32_NAN};
use crate::op::{Field, Nest, Op, Unary};
use crate::program::{Decoded, Loc, Opnd};
use crate::state::{State, LANES};

/// One value per lane.
type Row = [u64; LANES];

/// `[f(0), f(1), …, f(31)]`, built by a plain loop the compiler can vectorise.
#[inline(always)]
fn lanes<T: Copy + Default>(f: impl Fn(usize) -> T) -> [T; LANES] {
    let mut out = [T::default(); LANES];
    for (l, v) in out.iter_mut().enumerate() {
        *v = f(l);
    }
    out
}

/// Calls `f` for each lane set in `exec`, in lane order.
#[inline(always)]
pub(crate) fn each(exec: u32, mut f: impl FnMut(usize)) {
    let mut m = exec;
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
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

/// The raw bits of an operand in every lane (immediates: their 16 low bits or float
/// code). Inactive lanes are read too: the units have no side effects, and the mask
/// applies when the result is written.
#[inline(always)]
fn row(st: &State, o: &Opnd) -> Row {
    match o.loc {
        Loc::Gpr => {
            let (r, h) = (&st.regs, o.half as usize);
            match o.size {
                16 => {
                    let a = &r[h];
                    lanes(|l| u64::from(a[l]))
                }
                32 => {
                    let (a, b) = (&r[h], &r[h + 1]);
                    lanes(|l| u64::from(a[l]) | u64::from(b[l]) << 16)
                }
                _ => lanes(|l| join(|i| r[i][l], o.half, 64)),
            }
        }
        Loc::Uniform => [join(|h| st.uniforms[h], o.half, o.size); LANES],
        Loc::Imm | Loc::FImm => [o.imm; LANES],
        Loc::None => [0; LANES],
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

/// An integer source as 64 bits per lane: sign-extended from its width when it carries
/// `.sx`.
#[inline(always)]
fn int_row(st: &State, o: &Opnd) -> Row {
    let mut r = row(st, o);
    if o.sx {
        for v in &mut r {
            *v = sext64(*v, o.size) as u64;
        }
    }
    r
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

/// A float source as f64 per lane: fp16 exact, fp32 with subnormals flushed, then
/// `.abs`/`.neg`. 64-bit float sources are refused when the program is decoded.
#[inline(always)]
fn float_row(st: &State, o: &Opnd) -> [f64; LANES] {
    let sign = |x: f64| {
        let x = if o.abs { x.abs() } else { x };
        if o.neg {
            -x
        } else {
            x
        }
    };
    if o.loc == Loc::FImm {
        return [sign(o.fimm); LANES];
    }
    let r = row(st, o);
    if o.size == 16 {
        lanes(|l| sign(f16_to_f64(r[l] as u16)))
    } else {
        lanes(|l| sign(f32_to_f64(r[l] as u32, true)))
    }
}

/// Writes the low bits of each active lane's value to the destination and marks its
/// halves written.
#[inline(always)]
fn store(st: &mut State, d: &Opnd, out: &Row, exec: u32) {
    let h = d.half as usize;
    for i in 0..(d.size / 16) as usize {
        let dst = &mut st.regs[h + i];
        let shift = 16 * i;
        if exec == u32::MAX {
            for (r, v) in dst.iter_mut().zip(out) {
                *r = (v >> shift) as u16;
            }
        } else {
            for (l, (r, v)) in dst.iter_mut().zip(out).enumerate() {
                if exec >> l & 1 == 1 {
                    *r = (v >> shift) as u16;
                }
            }
        }
    }
    st.mark_written(h, d.size);
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

/// Computes `f(lane)` for every lane and writes the active lanes' results to the
/// destination (nothing, not even the written marks, when no lane is active).
#[inline(always)]
fn map(st: &mut State, d: &Decoded, f: impl Fn(usize) -> u64) {
    let exec = st.exec;
    if exec == 0 {
        return;
    }
    let out: Row = lanes(f);
    store(st, &d.dst, &out, exec);
}

/// One 32-bit value per lane: the form of every operation whose destination has at most
/// 32 bits and whose low 32 result bits depend only on the low 32 bits of its sources
/// (wrapping addition, multiplication, the bitwise unit, selects). Four lanes fit a
/// 128-bit vector instead of two, and a 32-bit register is two halves interleaved.
type Row32 = [u32; LANES];

/// The low 32 bits of an operand in every lane; with `sx`, a 16-bit operand carrying
/// `.sx` is sign-extended (wider operands keep their low 32 bits either way).
#[inline(always)]
fn row32(st: &State, o: &Opnd, sx: bool) -> Row32 {
    let sx = sx && o.sx && o.size == 16;
    match o.loc {
        Loc::Gpr => {
            let (r, h) = (&st.regs, o.half as usize);
            let lo = &r[h];
            if o.size == 16 {
                if sx {
                    lanes(|l| lo[l] as i16 as i32 as u32)
                } else {
                    lanes(|l| u32::from(lo[l]))
                }
            } else {
                let hi = &r[h + 1];
                lanes(|l| u32::from(lo[l]) | u32::from(hi[l]) << 16)
            }
        }
        Loc::Uniform | Loc::Imm | Loc::FImm => {
            let v = match o.loc {
                Loc::Uniform => join(|h| st.uniforms[h], o.half, o.size.min(32)) as u32,
                _ => o.imm as u32,
            };
            [if sx { v as u16 as i16 as i32 as u32 } else { v }; LANES]
        }
        Loc::None => [0; LANES],
    }
}

/// [`map`] for a destination of at most 32 bits, computing 32 bits per lane.
#[inline(always)]
fn map32(st: &mut State, d: &Decoded, f: impl Fn(usize) -> u32) {
    let exec = st.exec;
    if exec == 0 {
        return;
    }
    let out: Row32 = lanes(f);
    let h = d.dst.half as usize;
    for i in 0..(d.dst.size / 16) as usize {
        let dst = &mut st.regs[h + i];
        let shift = 16 * i;
        if exec == u32::MAX {
            for (r, v) in dst.iter_mut().zip(&out) {
                *r = (v >> shift) as u16;
            }
        } else {
            for (l, (r, v)) in dst.iter_mut().zip(&out).enumerate() {
                if exec >> l & 1 == 1 {
                    *r = (v >> shift) as u16;
                }
            }
        }
    }
    st.mark_written(h, d.dst.size);
}

/// Whether the 32-bit forms ([`row32`], [`map32`]) give the instruction's result: a
/// destination of at most 32 bits.
#[inline(always)]
fn narrow(d: &Decoded) -> bool {
    d.dst.size <= 32
}

/// An fp32 source in every lane as fp32 bits, without branches: a subnormal becomes the
/// zero of its sign, then `.abs` clears and `.neg` flips the sign bit. A float immediate
/// (an 8-bit float, exact in fp32) is its value.
#[inline(always)]
fn f32_bits(st: &State, o: &Opnd) -> Row32 {
    const SIGN: u32 = 1 << 31;
    let and = if o.abs { !SIGN } else { !0 };
    let xor = if o.neg { SIGN } else { 0 };
    if o.loc == Loc::FImm {
        return [((o.fimm as f32).to_bits() & and) ^ xor; LANES];
    }
    let r = row32(st, o, false);
    lanes(|l| {
        let b = r[l];
        let b = if b & 0x7f80_0000 == 0 { b & SIGN } else { b };
        (b & and) ^ xor
    })
}

/// An fp32 source in every lane as f64 ([`f32_bits`] widened, exactly).
#[inline(always)]
fn f32_row(st: &State, o: &Opnd) -> [f64; LANES] {
    let b = f32_bits(st, o);
    lanes(|l| f64::from(f32::from_bits(b[l])))
}

/// `fadd`, `fmul` and `ffma` of fp32 sources to an fp32 destination without saturation.
///
/// `fadd` and `fmul` run in native fp32 arithmetic, which rounds the exact result once to
/// nearest even as the rule does. What remains is the flush: a sum of two fp32 values
/// below the smallest normal is exact (both are multiples of the smallest subnormal), so
/// flushing a subnormal sum after rounding is flushing the exact sum. A product can round
/// up to the smallest normal from below it, and an exact zero product gives +0 (`a·b +
/// 0`), so lanes whose product is at most the smallest normal in magnitude are recomputed
/// from the exact f64 product. `ffma` rounds to odd in f64 (`fma_exact`), then every lane
/// is rounded to fp32 in one loop without branches.
fn f32_arith(st: &mut State, d: &Decoded) {
    let (x, y) = (f32_bits(st, &d.src[0]), f32_bits(st, &d.src[1]));
    let f = |v: u32| f32::from_bits(v);
    let nan_or = |nan: bool, bits: u32| if nan { F32_NAN } else { bits };
    let out: Row32 = match d.op {
        Op::Fadd => lanes(|l| {
            let r = f(x[l]) + f(y[l]);
            let bits = r.to_bits();
            let flushed = if bits & 0x7f80_0000 == 0 {
                bits & 0x8000_0000
            } else {
                bits
            };
            nan_or(r.is_nan(), flushed)
        }),
        Op::Fmul => {
            let mut out: Row32 = lanes(|l| {
                let r = f(x[l]) * f(y[l]);
                nan_or(r.is_nan(), r.to_bits())
            });
            let tiny = (0..LANES).fold(0u32, |m, l| {
                m | u32::from(out[l] & 0x7fff_ffff <= 0x0080_0000) << l
            });
            each(tiny, |l| {
                let exact = f64::from(f(x[l])) * f64::from(f(y[l])) + 0.0;
                out[l] = to_f32(exact, true);
            });
            out
        }
        _ => {
            let z = f32_bits(st, &d.src[2]);
            let wide = |v: u32| f64::from(f(v));
            let exact: [f64; LANES] = lanes(|l| fma_exact(wide(x[l]), wide(y[l]), wide(z[l])));
            lanes(|l| {
                let e = exact[l];
                let sign = ((e.to_bits() >> 32) as u32) & 0x8000_0000;
                let r = if e.abs() < f64::from(f32::MIN_POSITIVE) {
                    sign
                } else {
                    (e as f32).to_bits()
                };
                nan_or(e.is_nan(), r)
            })
        }
    };
    map32(st, d, |l| out[l]);
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

/// The comparison of sources 0 and 1 in every lane.
#[inline(always)]
fn conditions(st: &State, d: &Decoded, float_cmp: bool) -> [bool; LANES] {
    let (a, b) = (&d.src[0], &d.src[1]);
    let code = d.mods.cond;
    if float_cmp {
        let (x, y) = (float_row(st, a), float_row(st, b));
        lanes(|l| fcompare(code, x[l], y[l]))
    } else if a.size <= 32 && b.size <= 32 {
        // 32-bit values compare as their 64-bit extensions do. Each comparison is its own
        // loop over the lanes, so that each is a few vector instructions.
        let (x, y) = (row32(st, a, false), row32(st, b, false));
        let (x, y): ([i64; LANES], [i64; LANES]) = if code & 4 != 0 {
            (
                lanes(|l| sext64(u64::from(x[l]), a.size)),
                lanes(|l| sext64(u64::from(y[l]), b.size)),
            )
        } else {
            (lanes(|l| i64::from(x[l])), lanes(|l| i64::from(y[l])))
        };
        let r: [bool; LANES] = match code & 3 {
            0 => lanes(|l| x[l] == y[l]),
            1 => lanes(|l| x[l] < y[l]),
            _ => lanes(|l| x[l] > y[l]),
        };
        if code & 8 != 0 {
            lanes(|l| !r[l])
        } else {
            r
        }
    } else {
        let (x, y) = (row(st, a), row(st, b));
        lanes(|l| icompare(code, x[l], a, y[l], b))
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

/// [`nest`] over all lanes with the comparisons known and no `if` overflowing the
/// counter: one loop per kind, so that each is a few vector instructions.
#[inline(always)]
fn nest_values(kind: Nest, r0: &[u16; LANES], n: u16, c: &[bool; LANES]) -> [u16; LANES] {
    match kind {
        Nest::If => lanes(|l| {
            let v = r0[l];
            if v != 0 {
                v.wrapping_add(n)
            } else {
                u16::from(!c[l])
            }
        }),
        Nest::Else => lanes(|l| match r0[l] {
            0 => n,
            1 => u16::from(!c[l]),
            v => v,
        }),
        Nest::While => lanes(|l| {
            let v = r0[l];
            if v >= n {
                v
            } else if c[l] {
                0
            } else {
                n
            }
        }),
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

/// A 32-bit float operation's result rounded to fp32 with flush-to-zero: `fadd` and
/// `fmul` in native f64 arithmetic, `ffma` exactly (`fma_exact`).
///
/// The product of two fp32 (or fp16) values is exact in f64, so `fmul` rounds once. The
/// f64 sum of two fp32 values rounded again to fp32 equals the exact sum rounded once,
/// because f64 carries more than 2·24 + 2 bits (double rounding is innocuous for
/// addition then, Figueroa, "When is double rounding innocuous?", SIGNUM 1995); sums
/// below the smallest normal fp32 are exact in f64, so the flush sees the exact value. A
/// fused multiply-add needs up to 74 bits, so `ffma` rounds to odd in f64 first
/// (software, `crate::float::fma_exact`). `fmul` is the fused form with a +0 addend,
/// `a·b + 0`, the rule this simulator has always applied (a -0 product gives +0).
#[inline(always)]
fn f32_op(op: Op, x: f64, y: f64, z: f64) -> u32 {
    let exact = match op {
        Op::Fadd => x + y,
        Op::Fmul => x * y + 0.0,
        _ => fma_exact(x, y, z),
    };
    to_f32(exact, true)
}

/// Runs an arithmetic instruction; `false` when `d.op` is not one. Each unit is its own
/// function so that the dispatch jumps into a small frame rather than one frame sized for
/// every unit's lane arrays.
pub(crate) fn run(st: &mut State, d: &Decoded) -> R<bool> {
    match d.op {
        Op::Ldimm => ldimm(st, d)?,
        Op::Iadd | Op::Isub => iadd(st, d)?,
        Op::Imul | Op::Imadd | Op::Imsub => imul(st, d)?,
        Op::Bitfield { kind, two } => bitfield_op(st, d, kind, two)?,
        Op::Asr | Op::Asrh => asr(st, d)?,
        Op::Fadd | Op::Fmul | Op::Ffma => float32(st, d)?,
        Op::Hadd | Op::Hmul | Op::Hfma => float16(st, d)?,
        Op::Bitop => bitop(st, d)?,
        Op::Bitrev | Op::Popcnt | Op::Ffs => bitcount(st, d)?,
        Op::Intl => intl(st, d)?,
        Op::Icsel | Op::Fcsel => csel(st, d)?,
        Op::Nest { kind, float } => nesting(st, d, kind, float)?,
        Op::PopExec => pop_exec(st, d)?,
        Op::UpdateExec => st.exec_from_r0l(),
        Op::Ballot => ballot(st, d)?,
        Op::IcmpBallot | Op::FcmpBallot => cmp_ballot(st, d)?,
        Op::IntToFloat { bits, signed } => int_to_float_op(st, d, bits, signed)?,
        Op::FloatToInt { bits, signed } => float_to_int_op(st, d, bits, signed)?,
        Op::Unary(f) => unary_op(st, d, f)?,
        _ => return Ok(false),
    }
    Ok(true)
}

#[inline(never)]
fn ldimm(st: &mut State, d: &Decoded) -> R<()> {
    let v = d.imm as u64;
    if narrow(d) {
        map32(st, d, |_| v as u32);
    } else {
        map(st, d, |_| v);
    }
    Ok(())
}

#[inline(never)]
fn iadd(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b) = (d.src[0], d.src[1]);
    let sat = d.mods.saturate;
    let shift = d.mods.shift;
    let sat = sat && shift == 0 && a.size <= 32 && b.size <= 32 && d.dst.size <= 32;
    let sub = d.op == Op::Isub;
    let (dsize, signed) = (d.dst.size, a.sx || b.sx);
    if !sat && narrow(d) {
        let (x, y) = (row32(st, &a, true), row32(st, &b, true));
        map32(st, d, |l| {
            let y = if sub { y[l].wrapping_neg() } else { y[l] };
            let y = if shift < 5 { y << shift } else { 0 };
            x[l].wrapping_add(y)
        });
        return Ok(());
    }
    let (x, y) = (int_row(st, &a), int_row(st, &b));
    if sat {
        map(st, d, |l| {
            let y = if sub { -wide(y[l], &b) } else { wide(y[l], &b) };
            saturate_int(wide(x[l], &a) + y, dsize, signed) as u64
        });
    } else {
        map(st, d, |l| {
            let y = if sub { y[l].wrapping_neg() } else { y[l] };
            let y = if shift < 5 { y << shift } else { 0 };
            x[l].wrapping_add(y)
        });
    }
    Ok(())
}

#[inline(never)]
fn imul(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b, c) = (d.src[0], d.src[1], d.src[2]);
    let sat = d.mods.saturate;
    let shift = d.mods.shift;
    let three = d.op != Op::Imul;
    let c_size = if three { c.size } else { 16 };
    let sat = sat && shift == 0 && c_size <= 32 && d.dst.size <= 32;
    let signed = a.sx || b.sx || (three && c.sx);
    let sub = d.op == Op::Imsub;
    let dsize = d.dst.size;
    if !sat && narrow(d) {
        let (x, y) = (row32(st, &a, true), row32(st, &b, true));
        let z = if three {
            row32(st, &c, true)
        } else {
            [0; LANES]
        };
        map32(st, d, |l| {
            let z = if sub { z[l].wrapping_neg() } else { z[l] };
            let z = if shift < 5 { z << shift } else { 0 };
            x[l].wrapping_mul(y[l]).wrapping_add(z)
        });
        return Ok(());
    }
    let (x, y) = (int_row(st, &a), int_row(st, &b));
    let z = if three { int_row(st, &c) } else { [0; LANES] };
    if sat {
        map(st, d, |l| {
            let z = if sub { -wide(z[l], &c) } else { wide(z[l], &c) };
            let r = wide(x[l], &a).wrapping_mul(wide(y[l], &b)) + z;
            saturate_int(r, dsize, signed) as u64
        });
    } else {
        map(st, d, |l| {
            let z = if sub { z[l].wrapping_neg() } else { z[l] };
            let z = if shift < 5 { z << shift } else { 0 };
            x[l].wrapping_mul(y[l]).wrapping_add(z)
        });
    }
    Ok(())
}

#[inline(never)]
fn bitfield_op(st: &mut State, d: &Decoded, kind: Field, two: bool) -> R<()> {
    let (a, b, c) = (d.src[0], d.src[1], d.src[2]);
    let m = if two { 0 } else { d.imm as u32 };
    let (v0, v1) = (row(st, &a), row(st, &b));
    let v2 = if two { [0; LANES] } else { row(st, &c) };
    map(st, d, |l| {
        let (x, y, s) = if two {
            (0, v0[l], v1[l])
        } else {
            (v0[l], v1[l], v2[l])
        };
        bitfield(kind, u128::from(x), u128::from(y), (s & 0x7f) as u32, m) as u64
    });
    Ok(())
}

#[inline(never)]
fn asr(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b) = (d.src[0], d.src[1]);
    let high = d.op == Op::Asrh;
    let (xs, ss) = (row(st, &a), row(st, &b));
    map(st, d, |l| {
        let x = i128::from(sext64(xs[l], a.size));
        let s = (ss[l] & 0x7f) as u32;
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
    Ok(())
}

#[inline(never)]
fn float32(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b, c) = (d.src[0], d.src[1], d.src[2]);
    let sat = d.mods.saturate;
    let dst = d.dst;
    let op = d.op;
    let fp32 = |o: &Opnd| o.size == 32 || o.loc == Loc::FImm;
    if dst.size == 32 && !sat && fp32(&a) && fp32(&b) && (op != Op::Ffma || fp32(&c)) {
        f32_arith(st, d);
        return Ok(());
    }
    let f = |o: &Opnd| {
        if o.size == 32 {
            f32_row(st, o)
        } else {
            float_row(st, o)
        }
    };
    let (x, y) = (f(&a), f(&b));
    let z = if op == Op::Ffma { f(&c) } else { [0.0; LANES] };
    if dst.size == 32 && !sat {
        map(st, d, |l| u64::from(f32_op(op, x[l], y[l], z[l])));
    } else {
        // A 32-bit operation rounds to fp32 first, also for a 16-bit destination.
        map(st, d, |l| {
            let r = f32::from_bits(f32_op(op, x[l], y[l], z[l]));
            float_bits(&dst, f64::from(r), sat)
        });
    }
    Ok(())
}

#[inline(never)]
fn float16(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b, c) = (d.src[0], d.src[1], d.src[2]);
    let sat = d.mods.saturate;
    // fp16 results round from the exact value in software (`to_f16`): there is no
    // native fp16 arithmetic to round with.
    let dst = d.dst;
    let op = d.op;
    let (x, y) = (float_row(st, &a), float_row(st, &b));
    let z = if op == Op::Hfma {
        float_row(st, &c)
    } else {
        [0.0; LANES]
    };
    map(st, d, |l| {
        let exact = match op {
            Op::Hadd => fma_exact(x[l], 1.0, y[l]),
            Op::Hmul => fma_exact(x[l], y[l], 0.0),
            _ => fma_exact(x[l], y[l], z[l]),
        };
        float_bits(&dst, exact, sat)
    });
    Ok(())
}

#[inline(never)]
fn bitop(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b) = (d.src[0], d.src[1]);
    let tt = d.table;
    if narrow(d) {
        let (x, y) = (row32(st, &a, false), row32(st, &b, false));
        if tt == 0b0011 || tt == 0b1100 {
            map32(st, d, |l| x[l]);
        } else {
            // The minterms the table selects, as all-ones or zero masks.
            let m: [u32; 4] = std::array::from_fn(|bit| 0u32.wrapping_sub(tt >> bit & 1));
            map32(st, d, |l| {
                let (x, y) = (x[l], y[l]);
                (!x & !y & m[0]) | (x & !y & m[1]) | (!x & y & m[2]) | (x & y & m[3])
            });
        }
        return Ok(());
    }
    let (x, y) = (row(st, &a), row(st, &b));
    if tt == 0b0011 || tt == 0b1100 {
        map(st, d, |l| x[l]);
    } else {
        // Each set bit of the table adds its minterm: bit `a + 2b` is (a, b).
        let term = |bit: u32, v: u64| if tt >> bit & 1 == 1 { v } else { 0 };
        map(st, d, |l| {
            let (x, y) = (x[l], y[l]);
            term(0, !x & !y) | term(1, x & !y) | term(2, !x & y) | term(3, x & y)
        });
    }
    Ok(())
}

#[inline(never)]
fn bitcount(st: &mut State, d: &Decoded) -> R<()> {
    let a = d.src[0];
    let op = d.op;
    let xs = row(st, &a);
    map(st, d, |l| {
        let x = xs[l] as u32;
        match op {
            Op::Bitrev => u64::from(x.reverse_bits()),
            Op::Popcnt => u64::from(x.count_ones()),
            _ if x == 0 => u64::MAX,
            _ => u64::from(31 - x.leading_zeros()),
        }
    });
    Ok(())
}

#[inline(never)]
fn intl(st: &mut State, d: &Decoded) -> R<()> {
    let (a, b) = (d.src[0], d.src[1]);
    let (xs, ys) = (row(st, &a), row(st, &b));
    map(st, d, |l| {
        let (x, y) = (xs[l], ys[l]);
        (0..16).fold(0u64, |r, i| {
            r | ((x >> i & 1) << (2 * i)) | ((y >> i & 1) << (2 * i + 1))
        })
    });
    Ok(())
}

#[inline(never)]
fn csel(st: &mut State, d: &Decoded) -> R<()> {
    let float_cmp = d.op == Op::Fcsel;
    if st.exec != 0 {
        check_condition(float_cmp, d.mods.cond)?;
    }
    let cond = conditions(st, d, float_cmp);
    if narrow(d) {
        let (x, y) = (row32(st, &d.src[2], false), row32(st, &d.src[3], false));
        map32(st, d, |l| if cond[l] { x[l] } else { y[l] });
        return Ok(());
    }
    let (x, y) = (row(st, &d.src[2]), row(st, &d.src[3]));
    map(st, d, |l| if cond[l] { x[l] } else { y[l] });
    Ok(())
}

#[inline(never)]
fn nesting(st: &mut State, d: &Decoded, kind: Nest, float: bool) -> R<()> {
    let n = d.imm as u16;
    let checked = check_condition(float, d.mods.cond);
    let cond = conditions(st, d, float);
    if d.bad.is_none() && checked.is_ok() {
        // Every lane's comparison is readable: update all lanes at once unless one
        // overflows, whose error the lane-by-lane loop below reports.
        let r0 = &st.regs[0];
        let overflows =
            matches!(kind, Nest::If) && r0.iter().any(|&v| v != 0 && v.checked_add(n).is_none());
        if !overflows {
            let next = nest_values(kind, r0, n, &cond);
            st.regs[0] = next;
            st.mark_written(0, 16);
            st.exec_from_r0l();
            return Ok(());
        }
    }
    for (lane, &c) in cond.iter().enumerate() {
        let v = st.regs[0][lane];
        let r = nest(kind, lane, v, n, || {
            if let Some(bad) = d.bad {
                return Err(bad.fail());
            }
            if let Err(Fail::Unsupported(why)) = checked {
                return Err(Fail::Unsupported(why));
            }
            Ok(c)
        })?;
        st.regs[0][lane] = r;
    }
    st.mark_written(0, 16);
    st.exec_from_r0l();
    Ok(())
}

#[inline(never)]
fn pop_exec(st: &mut State, d: &Decoded) -> R<()> {
    let n = d.imm as u16;
    for v in &mut st.regs[0] {
        *v = v.saturating_sub(n);
    }
    st.mark_written(0, 16);
    st.exec_from_r0l();
    Ok(())
}

#[inline(never)]
fn ballot(st: &mut State, d: &Decoded) -> R<()> {
    let v = u64::from(st.exec);
    map(st, d, |_| v);
    Ok(())
}

#[inline(never)]
fn cmp_ballot(st: &mut State, d: &Decoded) -> R<()> {
    let float_cmp = d.op == Op::FcmpBallot;
    if st.exec != 0 {
        check_condition(float_cmp, d.mods.cond)?;
    }
    let cond = conditions(st, d, float_cmp);
    let mut result = 0u64;
    each(st.exec, |lane| result |= u64::from(cond[lane]) << lane);
    map(st, d, |_| result);
    Ok(())
}

#[inline(never)]
fn int_to_float_op(st: &mut State, d: &Decoded, width: u32, signed: bool) -> R<()> {
    let a = d.src[0];
    let (size, round) = (d.dst.size, d.mods.round);
    let xs = row(st, &a);
    map(st, d, |l| {
        let v = xs[l] & ((1u64 << width) - 1);
        let x = if signed {
            sext64(v, width) as f64
        } else {
            v as f64
        };
        int_to_float(x, size, round)
    });
    Ok(())
}

#[inline(never)]
fn float_to_int_op(st: &mut State, d: &Decoded, width: u32, signed: bool) -> R<()> {
    let a = d.src[0];
    let round = d.mods.round;
    let xs = row(st, &a);
    map(st, d, |l| {
        let x = if a.size == 16 {
            f16_to_f64(xs[l] as u16)
        } else {
            f32_to_f64(xs[l] as u32, true)
        };
        float_to_int(x, width, signed, round)
    });
    Ok(())
}

#[inline(never)]
fn unary_op(st: &mut State, d: &Decoded, f: Unary) -> R<()> {
    let a = d.src[0];
    let sat = d.mods.saturate;
    let dst = d.dst;
    let xs = float_row(st, &a);
    map(st, d, |l| float_bits(&dst, unary(f, xs[l]), sat));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fp32 bit patterns that reach every case of the native paths: zeros and subnormals
    /// of both signs (flushed on input), values around the smallest normal (products that
    /// round up to it), halves of odd values (ties), infinities, NaN, and random patterns.
    fn fp32_pattern(r: u64) -> u32 {
        let sign = ((r >> 63) as u32) << 31;
        let pick = (r >> 8) as u32;
        sign | match r % 8 {
            0 => [
                0,
                1,
                0x7f_ffff,
                0x7f80_0000,
                0x7fc0_0001,
                0x0080_0000,
                0x0080_0001,
                // 1 - 2^-24: times the smallest normal, a tie just below it that rounds
                // up to it.
                0x3f7f_ffff,
            ][pick as usize % 8],
            // Square roots of the smallest normal and the exponents around it, so that
            // products land on both sides of the flush boundary.
            1 => (0x1f00_0000 + (pick % 0x0100_0000)) & 0x7fff_ffff,
            2 => 0x3f80_0000 | (pick & 0x7f_ffff),
            3 => (0x0080_0000 + pick % 0x0200_0000) & 0x7fff_ffff,
            _ => pick & 0x7fff_ffff,
        }
    }

    /// `fadd`, `fmul` and `ffma` to fp32 registers, which run in native fp32 (or round
    /// through one loop), against the f64 rule ([`f32_op`] on flushed f64 sources, the
    /// path saturating and 16-bit destinations take), lane by lane, with every source
    /// modifier.
    #[test]
    fn native_fp32_paths_follow_the_f64_rule() {
        use crate::exec::run;
        use gpuabi_agx_isa::assemble;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let forms = [
            ("fadd r8, r2, r4", Op::Fadd),
            ("fadd r8, r2.neg, r4.abs", Op::Fadd),
            ("fmul r8, r2, r4", Op::Fmul),
            ("fmul r8, r2.abs, r4.neg", Op::Fmul),
            ("ffma r8, r2, r4, r6", Op::Ffma),
            ("ffma r8, r2, r4.neg, r6.abs", Op::Ffma),
        ];
        for (text, op) in forms {
            let code = assemble(&format!("{text}\nstop\n"), "t.s")
                .expect("the form assembles")
                .bytes;
            // The modifiers written after a source register in the form's text.
            let mods = |reg: &str| {
                let at = text.find(reg).map_or("", |i| &text[i + reg.len()..]);
                (at.starts_with(".abs"), at.starts_with(".neg"))
            };
            for _ in 0..2000 {
                let mut st = State::default();
                // The three sources of each lane: r2, r4, r6.
                let mut srcs = [[0u32; 3]; LANES];
                for (l, lane) in srcs.iter_mut().enumerate() {
                    for (k, v) in lane.iter_mut().enumerate() {
                        *v = fp32_pattern(next());
                        st.set_gpr(l, 4 + 4 * k as u32, 32, u64::from(*v)).unwrap();
                    }
                }
                run(&code, &mut st, 10).expect("the form runs");
                for (l, lane) in srcs.iter().enumerate() {
                    let src = |k: usize, reg: &str| {
                        let (abs, neg) = mods(reg);
                        let x = f32_to_f64(lane[k], true);
                        let x = if abs { x.abs() } else { x };
                        if neg {
                            -x
                        } else {
                            x
                        }
                    };
                    let (x, y) = (src(0, "r2"), src(1, "r4"));
                    let z = if op == Op::Ffma { src(2, "r6") } else { 0.0 };
                    let want = f32_op(op, x, y, z);
                    let got = st.read_gpr(l, 16, 32).unwrap() as u32;
                    assert_eq!(
                        got, want,
                        "{text}: lane {l}: {:#x} {:#x} {:#x}: {got:#x}, want {want:#x}",
                        lane[0], lane[1], lane[2]
                    );
                }
            }
        }
    }

    /// The native f64 sum rounded to fp32 against the exact sum rounded once (rounded to
    /// odd in f64 first, `fma_exact`), over pairs whose exponents are close enough for
    /// the sum to need rounding, ties included, and across the flush boundary.
    #[test]
    fn fadd_rounds_like_the_exact_sum() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..200_000u32 {
            let r = next();
            let e = 1 + (r % 253) as u32;
            let d = ((r >> 8) % 40) as u32;
            let e2 = e.saturating_sub(d).max(if i % 7 == 0 { 0 } else { 1 });
            let x =
                f32::from_bits(((r >> 63) as u32) << 31 | e << 23 | (r >> 16) as u32 & 0x7f_ffff);
            let y = f32::from_bits(
                (((r >> 62) & 1) as u32) << 31 | e2 << 23 | (r >> 40) as u32 & 0x7f_ffff,
            );
            let (x, y) = (f64::from(x), f64::from(y));
            let want = to_f32(fma_exact(x, 1.0, y), true);
            assert_eq!(f32_op(Op::Fadd, x, y, 0.0), want, "{x:e} + {y:e}");
            assert_eq!(
                f32_op(Op::Fmul, x, y, 0.0),
                to_f32(fma_exact(x, y, 0.0), true),
                "{x:e} * {y:e}"
            );
        }
    }
}
