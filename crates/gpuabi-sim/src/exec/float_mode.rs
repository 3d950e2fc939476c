//! The f32 fields of the MODE hardware register and f32 arithmetic under them: rounding
//! toward nearest even, +∞, -∞ or zero, and the flushing of denormal inputs and results to
//! a zero of the same sign ("RDNA 4 Instruction Set Architecture", the MODE register:
//! FP_ROUND bits 1:0 round single-precision results, 0 nearest even, 1 toward +∞, 2 toward
//! -∞, 3 toward zero; FP_DENORM, MODE bits 5:4, keeps single-precision denormals: 0 flushes
//! inputs and results, 1 keeps inputs and flushes results, 2 flushes inputs and keeps
//! results, 3 keeps both).
//!
//! An operation computes its exact result as the unevaluated sum of two f64 values (a sum of
//! two f32 with the f64 sum and its exact error, a product exactly in f64, a fused
//! multiply-add as the exact product plus the addend, summed so), then rounds that once to
//! f32 in the mode's direction.

/// The MODE register of a wave at its start, as the project's decision: every rounding
/// toward nearest even and every denormal kept (FP_DENORM 0xf), the mode llc-19 and RADV
/// run compute code with.
pub const DEFAULT_MODE: u32 = 0xf0;

/// The MODE bits the simulator follows: FP_ROUND (3:0) and FP_DENORM (7:4).
pub const FLOAT_MODE_BITS: u32 = 0xff;

/// The id of the MODE register in `s_setreg_b32`/`s_getreg_b32`'s SIMM16.
pub const HW_REG_MODE: u32 = 1;

/// The register id, field offset and field size (1..32) a SIMM16 of `s_setreg_b32` or
/// `s_getreg_b32` names (id in bits 5:0, offset in 10:6, size - 1 in 15:11).
pub fn hwreg_field(simm16: u32) -> (u32, u32, u32) {
    (simm16 & 0x3f, simm16 >> 6 & 0x1f, (simm16 >> 11 & 0x1f) + 1)
}

/// A rounding direction of FP_ROUND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// To the nearest value, ties to the even one.
    NearestEven,
    /// Toward +∞.
    Up,
    /// Toward -∞.
    Down,
    /// Toward zero.
    Zero,
}

/// The single-precision fields of a MODE value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct F32Mode {
    /// FP_ROUND bits 1:0.
    pub round: Round,
    /// Denormal inputs are kept (FP_DENORM bit 0), else read as zero.
    pub keep_inputs: bool,
    /// Denormal results are kept (FP_DENORM bit 1), else written as zero.
    pub keep_results: bool,
}

impl F32Mode {
    /// The single-precision fields of `mode`.
    pub fn of(mode: u32) -> F32Mode {
        F32Mode {
            round: match mode & 3 {
                0 => Round::NearestEven,
                1 => Round::Up,
                2 => Round::Down,
                _ => Round::Zero,
            },
            keep_inputs: mode >> 4 & 1 == 1,
            keep_results: mode >> 5 & 1 == 1,
        }
    }

    /// The input `x` as the operation reads it: a denormal flushed to a zero of its sign
    /// unless kept.
    pub fn input(self, x: u32) -> u32 {
        if !self.keep_inputs && f32::from_bits(x).is_subnormal() {
            x & 0x8000_0000
        } else {
            x
        }
    }

    /// The result `x` as written: a denormal flushed to a zero of its sign unless kept.
    pub fn result(self, x: u32) -> u32 {
        if !self.keep_results && f32::from_bits(x).is_subnormal() {
            x & 0x8000_0000
        } else {
            x
        }
    }

    /// `a + b` rounded once ([`F32Mode::input`] and [`F32Mode::result`] applied).
    pub fn add(self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.input(a), self.input(b));
        let (x, y) = (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)));
        if !(x.is_finite() && y.is_finite()) {
            return super::float::binary(a, b, |p, q| p + q);
        }
        self.result(self.sum(x, y))
    }

    /// `a - b` rounded once.
    pub fn sub(self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.input(a), self.input(b));
        let (x, y) = (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)));
        if !(x.is_finite() && y.is_finite()) {
            return super::float::binary(a, b, |p, q| p - q);
        }
        self.result(self.sum(x, -y))
    }

    /// `a * b` rounded once.
    pub fn mul(self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.input(a), self.input(b));
        let (x, y) = (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)));
        if !(x.is_finite() && y.is_finite()) {
            return super::float::binary(a, b, |p, q| p * q);
        }
        // 24-bit significands: the product is exact in f64.
        self.result(self.round(x * y, 0.0))
    }

    /// `a * b + c` rounded once.
    pub fn fma(self, a: u32, b: u32, c: u32) -> u32 {
        let (a, b, c) = (self.input(a), self.input(b), self.input(c));
        let [x, y, z] = [a, b, c].map(|v| f64::from(f32::from_bits(v)));
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            return super::float::fma(a, b, c);
        }
        self.result(self.sum(x * y, z))
    }

    /// The integer `v` (an i32 or u32) as f32, rounded.
    pub fn int_to_f32(self, v: i64) -> u32 {
        // Exact in f64.
        self.result(self.round(v as f64, 0.0))
    }

    /// `x + y` for finite f64 `x` and `y` (each an f32 or an exact product of two),
    /// rounded once; an exact zero from addends of different signs is +0, or -0 toward
    /// -∞ (IEEE 754).
    fn sum(self, x: f64, y: f64) -> u32 {
        // Knuth's TwoSum: s + e == x + y exactly.
        let s = x + y;
        let bb = s - x;
        let e = (x - (s - bb)) + (y - bb);
        if s == 0.0 && e == 0.0 && x.is_sign_negative() != y.is_sign_negative() {
            return if self.round == Round::Down {
                0x8000_0000
            } else {
                0
            };
        }
        self.round(s, e)
    }

    /// The f32 of the exact value `hi + lo` in this mode's direction, where `hi` is that
    /// value rounded to f64 (so `|lo|` is at most half an f64 ulp of `hi`).
    fn round(self, hi: f64, lo: f64) -> u32 {
        let t = hi as f32; // to nearest even
        let tf = f64::from(t);
        // Which side of t the exact value lies: f32 values are f64 values, so where t
        // differs from hi, lo cannot carry the value past t.
        let side = if tf != hi {
            (hi - tf).signum()
        } else if lo != 0.0 {
            lo.signum()
        } else {
            return t.to_bits();
        };
        let n = step(t, side > 0.0);
        let (below, above) = if side > 0.0 { (t, n) } else { (n, t) };
        let chosen = match self.round {
            Round::Up => above,
            Round::Down => below,
            Round::Zero => {
                if hi > 0.0 {
                    below
                } else {
                    above
                }
            }
            Round::NearestEven => {
                // t is hi rounded to nearest; the exact value rounds elsewhere only when hi
                // is the midpoint and lo moves it toward n.
                let mid = (f64::from(below) + f64::from(above)) / 2.0;
                if hi == mid && lo != 0.0 && lo.signum() == side {
                    n
                } else {
                    t
                }
            }
        };
        chosen.to_bits()
    }
}

/// The f32 next to `t` toward +∞ (`up`) or -∞.
fn step(t: f32, up: bool) -> f32 {
    let bits = t.to_bits();
    let next = if t == 0.0 {
        if up {
            1
        } else {
            0x8000_0001
        }
    } else if (t > 0.0) == up {
        bits + 1
    } else {
        bits - 1
    };
    f32::from_bits(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODES: [Round; 4] = [Round::NearestEven, Round::Up, Round::Down, Round::Zero];

    fn mode(round: Round) -> F32Mode {
        F32Mode {
            round,
            keep_inputs: true,
            keep_results: true,
        }
    }

    /// Against an independent rounding: the exact sum of two f32 whose exponents are close
    /// is an integer multiple of the smaller ulp; rounding that integer's bits by hand.
    #[test]
    fn sums_round_as_integer_arithmetic_does() {
        // Values m * 2^-20 with m < 2^28: every sum is exact in i64 units of 2^-20.
        let values: [i64; 9] = [
            1 << 20,
            (1 << 20) + 1,
            3,
            -(1 << 27) - 5,
            (1 << 24) + 1,
            (1 << 25) + 3,
            -(1 << 24) - 1,
            7 << 21,
            -1,
        ];
        for &p in &values {
            for &q in &values {
                let (a, b) = (p as f32, q as f32);
                if a as i64 != p || b as i64 != q {
                    continue; // not exactly representable: skip
                }
                let exact = p + q;
                for round in MODES {
                    let want = round_int(exact, round);
                    let got = mode(round).add(a.to_bits(), b.to_bits());
                    assert_eq!(got, want.to_bits(), "{p} + {q} {round:?}");
                }
            }
        }
    }

    /// The integer `v` rounded to f32 by hand: its top 24 significant bits, the rest
    /// deciding the direction.
    fn round_int(v: i64, round: Round) -> f32 {
        if v == 0 {
            return if round == Round::Down { -0.0 } else { 0.0 };
        }
        let (neg, mag) = (v < 0, v.unsigned_abs());
        let bits = 64 - mag.leading_zeros();
        let shift = bits.saturating_sub(24);
        let (kept, rest) = (mag >> shift, mag & ((1u64 << shift) - 1));
        let half = if shift == 0 { 0 } else { 1u64 << (shift - 1) };
        let away = match round {
            _ if rest == 0 => false,
            Round::NearestEven => rest > half || (rest == half && kept & 1 == 1),
            Round::Up => !neg,
            Round::Down => neg,
            Round::Zero => false,
        };
        let m = (kept + u64::from(away)) << shift;
        let f = m as f32; // exact: at most 25 significant bits, the 25th only a carry
        if neg {
            -f
        } else {
            f
        }
    }
}
