//! Generated fragment epilogs with blending (16- and 32-bit colours, every function and
//! factor, the blend constant, dual source), logic ops, alpha-to-coverage, alpha-to-one,
//! several samples and sample shading, run in the simulator over random keys, tiles and
//! colours and compared bit for bit with a reference written here from the ABI text,
//! Mesa's `nir_lower_blend` equations and the format definitions (fp16 arithmetic from the
//! `half` crate).
//!
//! The reference performs the operations the generator documents (`epilog_blend.rs`,
//! `epilog_logic.rs`), which are Mesa's: per component, the inputs clamped to the format,
//! factors with the constants 0 and 1 folded, the terms combined as NIR fuses them (a
//! product first is fused with the other term into one rounding; otherwise a product
//! second; two plain values added), min and max with NaN giving the other operand, the
//! result unclamped; formats with masked stores store the colour-masked components only;
//! alpha-to-coverage is Mesa's dithered mask; logic ops on integers of 32 bits (the
//! colour's size for integer formats) with negations as `xor` with the channel's mask.
//! Sample shading is modelled as the linker's loop does it: the epilog runs once per
//! sample with that sample's bit in `r1l`.

use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation, LogicOp};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::spill::spill_bindings;
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_sim::{run, Fragment, Region, State, LANES};
use half::f16;

mod epilog_ref;
use epilog_ref::{
    encode, lcg, mem_destination, mem_layout, mem_store, rgb9e5, rgb9e5_value, small_float,
    small_float_value, srgb_to_linear, Enc, Numeric,
};

/// How a format blends and takes logic ops.
#[derive(Clone, Copy, PartialEq)]
enum Class {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
}

/// Formats: name, components, element bytes (4 for packed), encoding, class, bits per
/// channel (R, G, B, A), whether the tile holds fp16 for a normalised format.
struct Format {
    name: &'static str,
    comps: usize,
    el: usize,
    enc: Enc,
    class: Class,
    bits: [u32; 4],
}

const FORMATS: &[Format] = &[
    Format {
        name: "R8G8B8A8_UNORM",
        comps: 4,
        el: 1,
        enc: Enc::Unorm(8),
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "R16G16_UNORM",
        comps: 2,
        el: 2,
        enc: Enc::Unorm(16),
        class: Class::Unorm,
        bits: [16; 4],
    },
    Format {
        name: "R8G8B8A8_SNORM",
        comps: 4,
        el: 1,
        enc: Enc::Snorm(8),
        class: Class::Snorm,
        bits: [8; 4],
    },
    Format {
        name: "R16G16_SNORM",
        comps: 2,
        el: 2,
        enc: Enc::Snorm(16),
        class: Class::Snorm,
        bits: [16; 4],
    },
    Format {
        name: "R16G16B16A16_FLOAT",
        comps: 4,
        el: 2,
        enc: Enc::F16,
        class: Class::Float,
        bits: [16; 4],
    },
    Format {
        name: "B5G6R5_UNORM",
        comps: 3,
        el: 2,
        enc: Enc::F16,
        class: Class::Unorm,
        bits: [5, 6, 5, 0],
    },
    Format {
        name: "R4G4B4A4_UNORM",
        comps: 4,
        el: 2,
        enc: Enc::F16,
        class: Class::Unorm,
        bits: [4; 4],
    },
    Format {
        name: "R32G32B32A32_FLOAT",
        comps: 4,
        el: 4,
        enc: Enc::Raw32,
        class: Class::Float,
        bits: [32; 4],
    },
    Format {
        name: "R32_FLOAT",
        comps: 1,
        el: 4,
        enc: Enc::Raw32,
        class: Class::Float,
        bits: [32; 4],
    },
    Format {
        name: "R10G10B10A2_UNORM",
        comps: 4,
        el: 4,
        enc: Enc::Rgb10a2,
        class: Class::Unorm,
        bits: [10, 10, 10, 2],
    },
    Format {
        name: "R8G8B8A8_UINT",
        comps: 4,
        el: 1,
        enc: Enc::Uint(8),
        class: Class::Uint,
        bits: [8; 4],
    },
    Format {
        name: "R8G8_SINT",
        comps: 2,
        el: 1,
        enc: Enc::Sint(8),
        class: Class::Sint,
        bits: [8; 4],
    },
    Format {
        name: "R16G16B16A16_SINT",
        comps: 4,
        el: 2,
        enc: Enc::Sint(16),
        class: Class::Sint,
        bits: [16; 4],
    },
    Format {
        name: "R10G10B10A2_UINT",
        comps: 4,
        el: 2,
        enc: Enc::Uint(10),
        class: Class::Uint,
        bits: [10, 10, 10, 2],
    },
    Format {
        name: "R32_UINT",
        comps: 1,
        el: 4,
        enc: Enc::Raw32Uint,
        class: Class::Uint,
        bits: [32; 4],
    },
    Format {
        name: "R8_UNORM",
        comps: 1,
        el: 1,
        enc: Enc::Unorm(8),
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "R8G8_UNORM",
        comps: 2,
        el: 1,
        enc: Enc::Unorm(8),
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "R16_UNORM",
        comps: 1,
        el: 2,
        enc: Enc::Unorm(16),
        class: Class::Unorm,
        bits: [16; 4],
    },
    Format {
        name: "R16G16B16A16_UNORM",
        comps: 4,
        el: 2,
        enc: Enc::Unorm(16),
        class: Class::Unorm,
        bits: [16; 4],
    },
    Format {
        name: "R8_SNORM",
        comps: 1,
        el: 1,
        enc: Enc::Snorm(8),
        class: Class::Snorm,
        bits: [8; 4],
    },
    Format {
        name: "R8G8_SNORM",
        comps: 2,
        el: 1,
        enc: Enc::Snorm(8),
        class: Class::Snorm,
        bits: [8; 4],
    },
    Format {
        name: "R16_SNORM",
        comps: 1,
        el: 2,
        enc: Enc::Snorm(16),
        class: Class::Snorm,
        bits: [16; 4],
    },
    Format {
        name: "R16G16B16A16_SNORM",
        comps: 4,
        el: 2,
        enc: Enc::Snorm(16),
        class: Class::Snorm,
        bits: [16; 4],
    },
    Format {
        name: "R16_FLOAT",
        comps: 1,
        el: 2,
        enc: Enc::F16,
        class: Class::Float,
        bits: [16; 4],
    },
    Format {
        name: "R16G16_FLOAT",
        comps: 2,
        el: 2,
        enc: Enc::F16,
        class: Class::Float,
        bits: [16; 4],
    },
    Format {
        name: "R32G32_FLOAT",
        comps: 2,
        el: 4,
        enc: Enc::Raw32,
        class: Class::Float,
        bits: [32; 4],
    },
    Format {
        name: "B10G10R10A2_UNORM",
        comps: 4,
        el: 4,
        enc: Enc::Rgb10a2,
        class: Class::Unorm,
        bits: [10, 10, 10, 2],
    },
    Format {
        name: "R8_UINT",
        comps: 1,
        el: 1,
        enc: Enc::Uint(8),
        class: Class::Uint,
        bits: [8; 4],
    },
    Format {
        name: "R8G8_UINT",
        comps: 2,
        el: 1,
        enc: Enc::Uint(8),
        class: Class::Uint,
        bits: [8; 4],
    },
    Format {
        name: "R16_UINT",
        comps: 1,
        el: 2,
        enc: Enc::Uint(16),
        class: Class::Uint,
        bits: [16; 4],
    },
    Format {
        name: "R16G16_UINT",
        comps: 2,
        el: 2,
        enc: Enc::Uint(16),
        class: Class::Uint,
        bits: [16; 4],
    },
    Format {
        name: "R16G16B16A16_UINT",
        comps: 4,
        el: 2,
        enc: Enc::Uint(16),
        class: Class::Uint,
        bits: [16; 4],
    },
    Format {
        name: "R32G32_UINT",
        comps: 2,
        el: 4,
        enc: Enc::Raw32Uint,
        class: Class::Uint,
        bits: [32; 4],
    },
    Format {
        name: "R32G32B32A32_UINT",
        comps: 4,
        el: 4,
        enc: Enc::Raw32Uint,
        class: Class::Uint,
        bits: [32; 4],
    },
    Format {
        name: "R8_SINT",
        comps: 1,
        el: 1,
        enc: Enc::Sint(8),
        class: Class::Sint,
        bits: [8; 4],
    },
    Format {
        name: "R8G8B8A8_SINT",
        comps: 4,
        el: 1,
        enc: Enc::Sint(8),
        class: Class::Sint,
        bits: [8; 4],
    },
    Format {
        name: "R16_SINT",
        comps: 1,
        el: 2,
        enc: Enc::Sint(16),
        class: Class::Sint,
        bits: [16; 4],
    },
    Format {
        name: "R16G16_SINT",
        comps: 2,
        el: 2,
        enc: Enc::Sint(16),
        class: Class::Sint,
        bits: [16; 4],
    },
    Format {
        name: "R32_SINT",
        comps: 1,
        el: 4,
        enc: Enc::Sint(32),
        class: Class::Sint,
        bits: [32; 4],
    },
    Format {
        name: "R32G32_SINT",
        comps: 2,
        el: 4,
        enc: Enc::Sint(32),
        class: Class::Sint,
        bits: [32; 4],
    },
    Format {
        name: "R32G32B32A32_SINT",
        comps: 4,
        el: 4,
        enc: Enc::Sint(32),
        class: Class::Sint,
        bits: [32; 4],
    },
    Format {
        name: "B8G8R8A8_UNORM",
        comps: 4,
        el: 1,
        enc: Enc::Unorm(8),
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "R8G8B8A8_SRGB",
        comps: 4,
        el: 1,
        enc: Enc::Srgb8,
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "B8G8R8A8_SRGB",
        comps: 4,
        el: 1,
        enc: Enc::Srgb8,
        class: Class::Unorm,
        bits: [8; 4],
    },
    Format {
        name: "R11G11B10_FLOAT",
        comps: 3,
        el: 4,
        enc: Enc::Rg11b10,
        class: Class::Float,
        bits: [11, 11, 10, 0],
    },
    Format {
        name: "R9G9B9E5_FLOAT",
        comps: 3,
        el: 4,
        enc: Enc::Rgb9e5,
        class: Class::Float,
        bits: [9, 9, 9, 0],
    },
];

const FACTORS: [BlendFactor; 19] = [
    BlendFactor::Zero,
    BlendFactor::One,
    BlendFactor::SrcColor,
    BlendFactor::OneMinusSrcColor,
    BlendFactor::SrcAlpha,
    BlendFactor::OneMinusSrcAlpha,
    BlendFactor::DstColor,
    BlendFactor::OneMinusDstColor,
    BlendFactor::DstAlpha,
    BlendFactor::OneMinusDstAlpha,
    BlendFactor::SrcAlphaSaturate,
    BlendFactor::ConstantColor,
    BlendFactor::OneMinusConstantColor,
    BlendFactor::ConstantAlpha,
    BlendFactor::OneMinusConstantAlpha,
    BlendFactor::Src1Color,
    BlendFactor::OneMinusSrc1Color,
    BlendFactor::Src1Alpha,
    BlendFactor::OneMinusSrc1Alpha,
];
const FUNCS: [BlendFunc; 5] = [
    BlendFunc::Add,
    BlendFunc::Subtract,
    BlendFunc::ReverseSubtract,
    BlendFunc::Min,
    BlendFunc::Max,
];

// ---- floats at the colour's size ---------------------------------------------------

/// A float of the colour's size, with the operations of the generator rounded once.
trait Fl: Copy + PartialOrd {
    fn of(x: f64) -> Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// `self · o + c` rounded once.
    fn fma(self, o: Self, c: Self) -> Self;
    fn is_nan(self) -> bool;
    fn neg(self) -> Self;
    fn bits(self) -> u64;
    fn from_bits(b: u64) -> Self;
}

impl Fl for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn add(self, o: f32) -> f32 {
        self + o
    }
    // AGX multiplies as `fma(a, b, +0)`: a zero product is +0 (the end states of
    // applegpu's emulator, which the simulator's vector tests check).
    fn mul(self, o: f32) -> f32 {
        self * o + 0.0
    }
    fn fma(self, o: f32, c: f32) -> f32 {
        self.mul_add(o, c)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn neg(self) -> f32 {
        -self
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits(b: u64) -> f32 {
        f32::from_bits(b as u32)
    }
}

impl Fl for f16 {
    fn of(x: f64) -> f16 {
        f16::from_f64(x)
    }
    fn add(self, o: f16) -> f16 {
        self + o
    }
    fn mul(self, o: f16) -> f16 {
        self * o + f16::ZERO
    }
    // The fp16 product is exact in f64; the sum's two roundings (to f64, then to fp16)
    // differ from one only on a tie of the second that the first made, which the test's
    // values do not reach.
    fn fma(self, o: f16, c: f16) -> f16 {
        f16::from_f64(self.to_f64().mul_add(o.to_f64(), c.to_f64()))
    }
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
    fn neg(self) -> f16 {
        -self
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits(b: u64) -> f16 {
        f16::from_bits(b as u16)
    }
}

fn one<F: Fl>() -> F {
    F::of(1.0)
}

/// `nir_fsat_to_format`: fsat (NaN and anything not above zero become +0) or the snorm
/// clamp `x > −1 ? x : −1`, `x > 1 ? 1 : x`.
fn clamp<F: Fl>(x: F, class: Class) -> F {
    match class {
        Class::Unorm => {
            if x.partial_cmp(&F::of(0.0)) != Some(std::cmp::Ordering::Greater) {
                F::of(0.0)
            } else if x > one() {
                one()
            } else {
                x
            }
        }
        Class::Snorm => {
            let x = if x > F::of(-1.0) { x } else { F::of(-1.0) };
            if x > one() {
                one()
            } else {
                x
            }
        }
        _ => x,
    }
}

/// A value of the blend: the constants NIR folds, or a number.
#[derive(Clone, Copy)]
enum Fac<F> {
    Zero,
    One,
    V(F),
}

impl<F: Fl> Fac<F> {
    fn get(self) -> F {
        match self {
            Fac::Zero => F::of(0.0),
            Fac::One => one(),
            Fac::V(x) => x,
        }
    }
}

struct BlendIn<F> {
    s: [Fac<F>; 4],
    s1: [Fac<F>; 4],
    d: [Fac<F>; 4],
    k: [F; 4],
}

fn one_minus<F: Fl>(x: Fac<F>) -> Fac<F> {
    match x {
        Fac::Zero => Fac::One,
        Fac::One => Fac::Zero,
        Fac::V(v) => Fac::V(v.neg().add(one())),
    }
}

/// `fmin` as the `fltn` select: `a` when it is smaller or `b` is NaN (and `a` is not).
fn min_n<F: Fl>(a: F, b: F) -> F {
    if !a.is_nan() && (b.is_nan() || a < b) {
        a
    } else {
        b
    }
}

/// `fmax` as the `fgtn` select.
fn max_n<F: Fl>(a: F, b: F) -> F {
    if !a.is_nan() && (b.is_nan() || a > b) {
        a
    } else {
        b
    }
}

/// Factor `f` for component `c` as `nir_lower_blend` builds it, constants folded.
fn factor<F: Fl>(f: BlendFactor, c: usize, b: &BlendIn<F>) -> Fac<F> {
    use BlendFactor as B;
    match f {
        B::Zero => Fac::Zero,
        B::One => Fac::One,
        B::SrcColor => b.s[c],
        B::OneMinusSrcColor => one_minus(b.s[c]),
        B::SrcAlpha => b.s[3],
        B::OneMinusSrcAlpha => one_minus(b.s[3]),
        B::Src1Color => b.s1[c],
        B::OneMinusSrc1Color => one_minus(b.s1[c]),
        B::Src1Alpha => b.s1[3],
        B::OneMinusSrc1Alpha => one_minus(b.s1[3]),
        B::DstColor => b.d[c],
        B::OneMinusDstColor => one_minus(b.d[c]),
        B::DstAlpha => b.d[3],
        B::OneMinusDstAlpha => one_minus(b.d[3]),
        // min(As, 1 − Ad) for colour, folded when both are constants; 1 for alpha.
        B::SrcAlphaSaturate if c == 3 => Fac::One,
        B::SrcAlphaSaturate => match (b.s[3], one_minus(b.d[3])) {
            (Fac::Zero, Fac::Zero | Fac::One) | (Fac::One, Fac::Zero) => Fac::Zero,
            (Fac::One, Fac::One) => Fac::One,
            (a, t) => Fac::V(min_n(a.get(), t.get())),
        },
        B::ConstantColor => Fac::V(b.k[c]),
        B::OneMinusConstantColor => one_minus(Fac::V(b.k[c])),
        B::ConstantAlpha => Fac::V(b.k[3]),
        B::OneMinusConstantAlpha => one_minus(Fac::V(b.k[3])),
    }
}

/// A term: absent (a zero factor or value), the value alone (a factor of one), a product.
enum Term<F> {
    Absent,
    Plain(F),
    Mul(F, F),
}

fn term<F: Fl>(v: Fac<F>, f: Fac<F>) -> Term<F> {
    match (v, f) {
        (_, Fac::Zero) | (Fac::Zero, _) => Term::Absent,
        (v, Fac::One) => Term::Plain(v.get()),
        (Fac::One, f) => Term::Plain(f.get()),
        (Fac::V(v), Fac::V(f)) => Term::Mul(v, f),
    }
}

/// `first ± second` as NIR fuses it: a product first takes the other term (rounded on its
/// own) as the addend of one fused operation; a plain value first and a product second
/// fuse the product; two plain values add; `0 − t` negates `t` (a product as `(−a)·b`,
/// a value as `−x + (−0.0)`).
fn combine<F: Fl>(first: Term<F>, second: Term<F>, subtract: bool) -> F {
    let sign = |x: F| if subtract { x.neg() } else { x };
    match (first, second) {
        (Term::Absent, Term::Absent) => F::of(0.0),
        (Term::Mul(a, b), Term::Absent) => a.mul(b),
        (Term::Plain(x), Term::Absent) => x,
        (Term::Absent, Term::Mul(a, b)) => sign(a).mul(b),
        (Term::Absent, Term::Plain(x)) if subtract => x.neg().add(F::of(-0.0)),
        (Term::Absent, Term::Plain(x)) => x,
        (Term::Mul(a, b), t) => {
            let c = match t {
                Term::Mul(x, y) => x.mul(y),
                Term::Plain(x) => x,
                Term::Absent => unreachable!(),
            };
            a.fma(b, sign(c))
        }
        (Term::Plain(x), Term::Mul(a, b)) => sign(a).fma(b, x),
        (Term::Plain(x), Term::Plain(y)) => x.add(sign(y)),
    }
}

/// One blended component.
fn blend_component<F: Fl>(eq: &Equation, c: usize, b: &BlendIn<F>) -> F {
    match eq.func {
        BlendFunc::Min => min_n(b.s[c].get(), b.d[c].get()),
        BlendFunc::Max => max_n(b.s[c].get(), b.d[c].get()),
        func => {
            let ts = term(b.s[c], factor(eq.src, c, b));
            let td = term(b.d[c], factor(eq.dst, c, b));
            match func {
                BlendFunc::Add => combine(ts, td, false),
                BlendFunc::Subtract => combine(ts, td, true),
                _ => combine(td, ts, true),
            }
        }
    }
}

// ---- logic ops -----------------------------------------------------------------------

/// Mesa's `nir_logicop_func` on 32-bit integers with channel mask `m`.
fn logic(op: LogicOp, s: u32, d: u32, m: u32) -> u32 {
    use LogicOp as L;
    match op {
        L::Clear => 0,
        L::Nor => (s | d) ^ m,
        L::AndInverted => (s ^ m) & d,
        L::CopyInverted => s ^ m,
        L::AndReverse => s & (d ^ m),
        L::Invert => d ^ m,
        L::Xor => s ^ d,
        L::Nand => (s & d) ^ m,
        L::And => s & d,
        L::Equiv => (s ^ d) ^ m,
        L::Noop => d,
        L::OrInverted => (s ^ m) | d,
        L::Copy => s,
        L::OrReverse => s | (d ^ m),
        L::Or => s | d,
        L::Set => u32::MAX,
    }
}

/// A normalised value to its integer (`nir_format_float_to_unorm`/`_snorm`): clamped,
/// multiplied by the scale in fp32, rounded to nearest even, saturated.
fn to_norm_int(x: f32, class: Class, bits: u32) -> u32 {
    let x = clamp(x, class);
    if class == Class::Snorm {
        let m = ((1u32 << (bits - 1)) - 1) as f32;
        let y = (x * m).round_ties_even();
        (y.clamp(i32::MIN as f32, i32::MAX as f32) as i32) as u32
    } else {
        let m = ((1u64 << bits) - 1) as f32;
        let y = (x * m).round_ties_even();
        if y.is_nan() {
            0
        } else {
            y.clamp(0.0, u32::MAX as f32) as u32
        }
    }
}

/// The integer back to a float: `u2f32`/`i2f32` times the fp32 reciprocal of the scale;
/// snorm sign-extended from `bits` first and limited to −1.
fn from_norm_int(r: u32, class: Class, bits: u32) -> f32 {
    if class == Class::Snorm {
        let m = (1u32 << (bits - 1)) - 1;
        let mask = ((1u64 << bits) - 1) as u32;
        let sign = 1u32 << (bits - 1);
        let v = ((r & mask) ^ sign).wrapping_sub(sign) as i32;
        let f = v as f32 * (1.0f32 / m as f32);
        if f > -1.0 {
            f
        } else {
            -1.0
        }
    } else {
        let m = ((1u64 << bits) - 1) as f32;
        r as f32 * (1.0f32 / m)
    }
}

// ---- tiles -------------------------------------------------------------------------

/// The exact value of component `c` of a normalised or float tile element.
fn decode(enc: Enc, el: usize, c: usize, bytes: &[u8]) -> f64 {
    let raw =
        |at: usize, n: usize| (0..n).fold(0u64, |v, k| v | u64::from(bytes[at + k]) << (8 * k));
    match enc {
        Enc::Unorm(b) => raw(c * el, el) as f64 / ((1u64 << b) - 1) as f64,
        Enc::Snorm(b) => {
            let v = raw(c * el, el);
            let s = ((v << (64 - b)) as i64 >> (64 - b)) as f64;
            let max = ((1u64 << (b - 1)) - 1) as f64;
            s.max(-max) / max
        }
        Enc::Rg11b10 => {
            let (shift, mant) = [(0, 6), (11, 6), (22, 5)][c];
            small_float_value((raw(0, 4) >> shift) & ((1 << (mant + 5)) - 1), mant)
        }
        Enc::Rgb9e5 => rgb9e5_value(raw(0, 4) as u32, c),
        Enc::Srgb8 if c < 3 => srgb_to_linear(raw(c, 1)),
        Enc::Srgb8 => raw(c, 1) as f64 / 255.0,
        Enc::F16 => f16::from_bits(raw(c * 2, 2) as u16).to_f64(),
        Enc::Raw32 => f64::from(f32::from_bits(raw(c * 4, 4) as u32)),
        Enc::Rgb10a2 => {
            let w = raw(0, 4);
            if c == 3 {
                (w >> 30) as f64 / 3.0
            } else {
                ((w >> (10 * c)) & 1023) as f64 / 1023.0
            }
        }
        _ => unreachable!(),
    }
}

/// An integer tile element as loaded into a register of `size` bits: zero-extended, or
/// sign-extended for signed formats narrower than the register, truncated to the register.
fn decode_int(f: &Format, c: usize, bytes: &[u8], size: u32) -> u64 {
    let v = (0..f.el).fold(0u64, |v, k| v | u64::from(bytes[c * f.el + k]) << (8 * k));
    let eb = 8 * f.el as u32;
    let v = if f.class == Class::Sint && eb < size {
        (((v << (64 - eb)) as i64) >> (64 - eb)) as u64
    } else {
        v
    };
    v & ((1u64 << size) - 1)
}

// ---- one key -----------------------------------------------------------------------

/// The colour register values of the locations, in bits at their sizes.
type Colours = [[u64; 4]; 8];

struct Case {
    key: EpilogKey,
    fmts: Vec<&'static Format>,
    sizes: [u8; 8],
}

/// A float register value in and around [−1, 1] at `size` bits.
fn float_value(size: u8, s: &mut u64) -> u64 {
    let x = (lcg(s) % 3000) as f64 / 1000.0 - 1.2;
    if size == 16 {
        f16::from_f64(x).bits()
    } else {
        (x as f32).bits()
    }
}

fn colour_value(f: &Format, size: u8, s: &mut u64) -> u64 {
    match f.class {
        Class::Uint | Class::Sint => {
            let v = if lcg(s).is_multiple_of(2) {
                lcg(s) % 300
            } else {
                lcg(s)
            };
            v & ((1u64 << size) - 1)
        }
        _ => float_value(size, s),
    }
}

/// A word of moderate non-negative values in a packed float format.
fn packed_float_word(enc: Enc, s: &mut u64) -> u32 {
    let v = [0; 3].map(|_| (lcg(s) % 2000) as f64 / 1000.0);
    match enc {
        Enc::Rg11b10 => {
            (small_float(v[0], 6) | small_float(v[1], 6) << 11 | small_float(v[2], 5) << 22) as u32
        }
        _ => rgb9e5(v),
    }
}

/// Runs the case in the simulator and in the reference; panics with the code on a
/// difference. With `linked`, a key with sample shading runs inside the part linker's
/// sample loop; otherwise the test runs the epilog once per sample with `r1l` set.
fn check(case: &Case, s: &mut u64, what: &str, linked: bool) {
    let key = &case.key;
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).unwrap();
    let spills = layout
        .render_targets
        .iter()
        .any(|p| p.offset_bytes.is_none());
    if spills && key.samples > 1 && !key.sample_shading {
        let e = fragment_epilog(key).unwrap_err();
        assert!(e.to_string().contains("spilled"), "{e}");
        assert!(e.to_string().contains("sample_shading"), "{e}");
        return;
    }
    let epilog = fragment_epilog(key).unwrap_or_else(|e| panic!("{what}: {e}"));
    let samples = usize::from(key.samples);
    let size_b = layout.sample_size_bytes as usize;
    let mut frag = Fragment::new(4, 2, u32::from(key.samples), layout.sample_size_bytes).unwrap();
    for b in frag.tib.iter_mut() {
        *b = lcg(s) as u8;
    }
    // Float tiles hold finite, moderate values.
    for (i, f) in case.fmts.iter().enumerate() {
        let off = layout
            .render_targets
            .iter()
            .find(|p| p.rt as usize == i)
            .unwrap();
        let Some(off) = off.offset_bytes else {
            continue;
        };
        let off = off as usize;
        for p in 0..8 * samples {
            for c in 0..f.comps {
                let v = (lcg(s) % 3000) as f32 / 1000.0 - 1.2;
                let at = p * size_b + off + c * f.el;
                match f.enc {
                    Enc::F16 => {
                        frag.tib[at..at + 2].copy_from_slice(&f16::from_f32(v).to_le_bytes())
                    }
                    Enc::Raw32 => frag.tib[at..at + 4].copy_from_slice(&v.to_le_bytes()),
                    Enc::Rg11b10 | Enc::Rgb9e5 if c == 0 => {
                        let w = packed_float_word(f.enc, s);
                        frag.tib[at..at + 4].copy_from_slice(&w.to_le_bytes());
                    }
                    _ => {}
                }
            }
        }
    }
    let mut want = frag.tib.clone();
    let mut st = State {
        exec: 0xff,
        frag: Some(Box::new(frag)),
        ..State::default()
    };
    // Spilled targets: 4×2 images with random pixels (finite, moderate floats).
    let bindings = spill_bindings(key, 4, 2, 0x1_0000, 0x2_0000).unwrap();
    let mut images = Vec::new();
    for img in &bindings.images {
        let f = case.fmts[usize::from(img.rt)];
        let (bpp, fields) = mem_layout(f.name);
        assert_eq!(bpp as u32, img.bytes_per_pixel, "{}", f.name);
        // Rows of the 4-pixel-wide framebuffer hold every sample, 16-byte aligned.
        assert_eq!(
            img.stride as usize,
            (4 * samples * bpp).next_multiple_of(16)
        );
        // Sample `k` of pixel (x, y) at element `x · samples + k` of row `y`.
        let mut bytes: Vec<u8> = (0..img.stride * 2).map(|_| lcg(s) as u8).collect();
        for e in 0..8 * samples {
            let (p, k) = (e / samples, e % samples);
            let at = (p / 4) * img.stride as usize + ((p % 4) * samples + k) * bpp;
            if matches!(f.enc, Enc::Rg11b10 | Enc::Rgb9e5) {
                let w = packed_float_word(f.enc, s);
                bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
                continue;
            }
            for &(_, shift, w) in &fields {
                let v = (lcg(s) % 3000) as f32 / 1000.0 - 1.2;
                let k = (shift / 8) as usize;
                match (f.class, w) {
                    (Class::Float, 16) => {
                        bytes[at + k..at + k + 2].copy_from_slice(&f16::from_f32(v).to_le_bytes())
                    }
                    (Class::Float, 32) => {
                        bytes[at + k..at + k + 4].copy_from_slice(&v.to_le_bytes())
                    }
                    _ => {}
                }
            }
        }
        images.push(RefImage {
            rt: usize::from(img.rt),
            stride: img.stride as usize,
            bpp,
            samples,
            bytes,
        });
    }
    if !bindings.images.is_empty() {
        st.memory.push(Region {
            address: bindings.heap_address,
            bytes: bindings.heap.clone(),
        });
        for (img, r) in bindings.images.iter().zip(&images) {
            st.memory.push(Region {
                address: img.address,
                bytes: r.bytes.clone(),
            });
        }
        for &(half, v) in &bindings.uniforms {
            st.set_uniform(u32::from(half), 16, u64::from(v)).unwrap();
        }
    }
    let k32: [f32; 4] = std::array::from_fn(|_| (lcg(s) % 1400) as f32 / 999.0 - 0.2);
    for (i, v) in k32.iter().enumerate() {
        st.set_uniform(4 + 2 * i as u32, 32, u64::from(v.to_bits()))
            .unwrap();
    }
    let mut coverage = [0xffu8 >> (8 - samples); 8];
    let mut depth = vec![None; 8 * samples];
    let mut stencil = vec![None; 8 * samples];
    // Through the linker: the epilog in the sample loop after a main shader that gives
    // every sample the same colours (copies of `r4`…`r35` kept in `r96`…`r127`, past the
    // epilog's temporaries, since the
    // epilog may set alphas to 1.0), run once.
    let main = gpuabi_agx_isa::assemble(
        &(4..36)
            .map(|r| format!("mov r{r}, r{}\n", r + 92))
            .collect::<String>(),
        "main.s",
    )
    .unwrap()
    .bytes;
    let linked_code = (linked && key.sample_shading).then(|| {
        link(&LinkInput {
            prolog: None,
            main: Part {
                code: &main,
                info: PartInfo {
                    gpr_halves: 256,
                    ..PartInfo::default()
                },
            },
            epilog: Some(Part {
                code: &epilog.code,
                info: PartInfo {
                    gpr_halves: 128,
                    reads_tib: true,
                    ..PartInfo::default()
                },
            }),
            samples: Some(key.samples),
        })
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .code
    });
    let iterations = if key.sample_shading && linked_code.is_none() {
        samples
    } else {
        1
    };
    for it in 0..iterations {
        // Fresh colours each run (the main shader runs per sample under sample shading).
        let mut colours: Vec<Colours> = vec![[[0; 4]; 8]; 8];
        // One sample per pixel has one bit of r3h.
        let r3h: Vec<u8> = (0..8)
            .map(|_| lcg(s) as u8 & if spills && samples == 1 { 1 } else { 0xff })
            .collect();
        for (lane, cl) in colours.iter_mut().enumerate() {
            for (loc, cl_loc) in cl.iter_mut().enumerate() {
                let size = case.sizes[loc];
                let f = case
                    .key
                    .rts
                    .iter()
                    .zip(&case.fmts)
                    .find(|(r, _)| r.as_ref().is_some_and(|r| usize::from(r.location) == loc))
                    .map_or(case.fmts[0], |(_, f)| *f);
                for c in 0..4u32 {
                    let v = colour_value(f, size, s);
                    cl_loc[c as usize] = v;
                    let half = 8 + 8 * loc as u32 + if size == 16 { c } else { 2 * c };
                    st.set_gpr(lane, half, u32::from(size), v).unwrap();
                }
            }
            st.set_gpr(lane, 4, 32, u64::from((lane as f32 + it as f32).to_bits()))
                .unwrap();
            st.set_gpr(lane, 7, 16, u64::from(r3h[lane])).unwrap();
            st.set_gpr(lane, 6, 16, (100 + lane + it) as u64).unwrap();
            if linked_code.is_none() {
                st.set_gpr(lane, 2, 16, 1 << it).unwrap();
            } else {
                for r in 4..36 {
                    let v = st.read_gpr(lane, 2 * r, 32).unwrap();
                    st.set_gpr(lane, 2 * (r + 92), 32, v).unwrap();
                }
            }
        }
        let samples_run: Vec<usize> = match &linked_code {
            Some(code) => {
                // Lanes without a pixel stay out of the loop's execution masks.
                for lane in 8..LANES {
                    st.set_gpr(lane, 0, 16, 1).unwrap();
                }
                run(code, &mut st, 1_000_000)
                    .unwrap_or_else(|e| panic!("{what} (linked): {e}\n{}", epilog.text));
                (0..samples).collect()
            }
            None => {
                run(&epilog.code, &mut st, 100_000)
                    .unwrap_or_else(|e| panic!("{what}: {e}\n{}", epilog.text));
                assert_eq!(
                    st.read_gpr(0, 2, 16).unwrap(),
                    1 << it,
                    "{what}: r1l changed"
                );
                vec![it]
            }
        };
        for smp in samples_run {
            let active: u8 = if key.sample_shading { 1 << smp } else { 0xff };
            for lane in 0..8 {
                reference_lane(
                    case,
                    &layout,
                    lane,
                    it,
                    active,
                    r3h[lane],
                    &colours[lane],
                    &k32,
                    &mut coverage[lane],
                    (&mut depth, &mut stencil),
                    &mut want,
                    &mut images,
                );
            }
        }
    }
    let f = st.frag.as_ref().unwrap();
    for (lane, cov) in coverage.iter().enumerate() {
        assert_eq!(
            f.coverage[lane], *cov,
            "{what}: coverage of lane {lane}\n{}",
            epilog.text
        );
    }
    assert_eq!(f.depth, depth, "{what}: depth\n{}", epilog.text);
    for (k, img) in images.iter().enumerate() {
        let got = &st.memory[1 + k].bytes;
        if *got != img.bytes {
            let at = got
                .iter()
                .zip(&img.bytes)
                .position(|(a, b)| a != b)
                .unwrap();
            panic!(
                "{what}: image of render target {} differs first at byte {at}: got {:#x}, \
                 want {:#x}\n{:?}\n{}",
                img.rt, got[at], img.bytes[at], key, epilog.text
            );
        }
    }
    assert_eq!(f.stencil, stencil, "{what}: stencil\n{}", epilog.text);
    if f.tib != want {
        let at = f.tib.iter().zip(&want).position(|(a, b)| a != b).unwrap();
        panic!(
            "{what}: tile differs first at byte {at} (pixel-sample {}, byte {} of the sample): got {:#x}, want {:#x}\n{:?}\n{}",
            at / size_b,
            at % size_b,
            f.tib[at],
            want[at],
            key,
            epilog.text
        );
    }
}

/// The reference for one lane in one run of the epilog.
#[allow(clippy::too_many_arguments)]
fn reference_lane(
    case: &Case,
    layout: &gpuabi_agx::tilebuffer::TileBufferLayout,
    lane: usize,
    it: usize,
    active: u8,
    r3h: u8,
    colours: &Colours,
    k32: &[f32; 4],
    coverage: &mut u8,
    (depth, stencil): (&mut [Option<u32>], &mut [Option<u16>]),
    want: &mut [u8],
    images: &mut [RefImage],
) {
    let key = &case.key;
    let samples = usize::from(key.samples);
    let size_b = layout.sample_size_bytes as usize;
    let loc_of = |r: &EpilogRt| {
        if key.broadcast_rt0 {
            0
        } else {
            usize::from(r.location)
        }
    };
    // Alpha-to-coverage from render target 0: Mesa's dithered mask (`alpha_to_coverage`
    // in `src/compiler/nir/nir_lower_alpha.c`), rotated by the pixel's parity (lane `l` is
    // pixel (l % 4, l / 4) of the 4×2 tile).
    if let (true, Some(Some(rt0))) = (key.alpha_to_coverage, key.rts.first()) {
        let loc = loc_of(rt0);
        if !(loc == 0 && key.loc0_w_1) {
            let a = colours[loc][3];
            let a = if case.sizes[loc] == 16 {
                f16::from_bits(a as u16).to_f64()
            } else {
                f64::from(f32::from_bits(a as u32))
            };
            let sat = if a > 0.0 { a.min(1.0) } else { 0.0 };
            let m = (sat * 16.0).round_ties_even() as u32;
            let mask =
                (0x1111 * ((0xf7540 >> (m & !3)) & 0xf)) | (0x0404 * (m & 2)) | (0x0080 * (m & 1));
            let rot = ((lane % 4) & 1) + ((lane / 4) & 1);
            let mask = ((mask >> rot) | (mask << (16 - rot))) & 0xffff;
            *coverage &= !(!(mask as u8) & active);
        }
    }
    let live = *coverage
        & active
        & if key.sample_mask_after_force_early {
            r3h
        } else {
            0xff
        };
    for smp in 0..samples {
        if key.write_z && live >> smp & 1 == 1 {
            depth[lane * samples + smp] = Some((lane as f32 + it as f32).to_bits());
        }
        if key.write_s && live >> smp & 1 == 1 {
            stencil[lane * samples + smp] = Some((100 + lane + it) as u16);
        }
    }
    for (i, rt) in key.rts.iter().enumerate() {
        let Some(rt) = rt else { continue };
        let f = case.fmts[i];
        let loc = loc_of(rt);
        let size = rt.size;
        let mut src = colours[loc];
        let one_bits = if size == 16 { 0x3c00 } else { 0x3f80_0000 };
        if key.alpha_to_one || (loc == 0 && key.loc0_w_1) {
            src[3] = one_bits;
        }
        let mut s1 = colours[1];
        if key.alpha_to_one {
            s1[3] = one_bits;
        }
        let all = (1u8 << f.comps) - 1;
        let mask = rt.colormask & all;
        if mask == 0 || key.logic_op == Some(LogicOp::Noop) {
            continue;
        }
        let off = layout
            .render_targets
            .iter()
            .find(|p| p.rt as usize == i)
            .unwrap();
        let Some(off) = off.offset_bytes else {
            // Spilled: each live sample of the pixel in the target's image (several
            // samples run one at a time under sample shading).
            for smp in 0..samples {
                if live >> smp & 1 == 0 {
                    continue;
                }
                let img = images.iter_mut().find(|m| m.rt == i).unwrap();
                let at = (lane / 4) * img.stride + ((lane % 4) * img.samples + smp) * img.bpp;
                let pixel = &mut img.bytes[at..at + img.bpp];
                let num = numeric(f.class);
                let dst = mem_destination(f.name, num, pixel, u32::from(size));
                let (mut out, full) = value(case, f, rt, &src, &s1, &dst, k32);
                if !full {
                    // Images have no masked stores: masked components keep the destination.
                    for (c, o) in out.iter_mut().enumerate().take(f.comps) {
                        if mask >> c & 1 == 0 {
                            *o = dst[c];
                        }
                    }
                }
                mem_store(f.name, num, &out, u32::from(size), pixel);
            }
            continue;
        };
        let off = off as usize;
        for smp in 0..samples {
            if live >> smp & 1 == 0 {
                continue;
            }
            let at = (lane * samples + smp) * size_b + off;
            let tile = &mut want[at..];
            let dst = tile_destination(f, tile, size);
            let out = value(case, f, rt, &src, &s1, &dst, k32);
            let store_mask = if out.1 { all } else { mask };
            encode(
                f.enc,
                f.comps as u32,
                f.el,
                &out.0,
                u32::from(size),
                store_mask,
                tile,
            );
        }
    }
}

/// The pixels of a spilled target's image, as the reference expects them.
struct RefImage {
    rt: usize,
    stride: usize,
    bpp: usize,
    samples: usize,
    bytes: Vec<u8>,
}

fn numeric(c: Class) -> Numeric {
    match c {
        Class::Float => Numeric::Float,
        Class::Unorm => Numeric::Unorm,
        Class::Snorm => Numeric::Snorm,
        Class::Uint => Numeric::Uint,
        Class::Sint => Numeric::Sint,
    }
}

/// The register values (colour size) stored for one target and sample, and whether every
/// component is stored (the destination kept in masked ones).
fn value(
    case: &Case,
    f: &Format,
    rt: &EpilogRt,
    src: &[u64; 4],
    s1: &[u64; 4],
    dst: &[u64; 4],
    k32: &[f32; 4],
) -> ([u64; 4], bool) {
    let key = &case.key;
    let size = rt.size;
    let all = (1u8 << f.comps) - 1;
    let mask = rt.colormask & all;
    let integer = matches!(f.class, Class::Uint | Class::Sint);
    let packed = matches!(f.enc, Enc::Rgb10a2 | Enc::Rg11b10 | Enc::Rgb9e5);
    // Components a partial colour mask keeps, for formats without masked stores.
    let keep_masked = || {
        let mut out = *src;
        for (c, o) in out.iter_mut().enumerate().take(f.comps) {
            if mask >> c & 1 == 0 {
                *o = dst[c];
            }
        }
        (out, true)
    };
    if let Some(op) = key.logic_op {
        if f.class == Class::Float || matches!(f.enc, Enc::Srgb8) {
            // Unchanged by the logic op, stored as it is.
            if mask != all && packed {
                return keep_masked();
            }
            return (*src, false);
        }
        let mut out = [0u64; 4];
        for c in 0..f.comps {
            let bits = f.bits[c];
            if integer {
                let d = dst[c];
                out[c] = if mask >> c & 1 == 0 {
                    d
                } else {
                    let m = ((1u64 << bits.min(u32::from(size))) - 1) as u32;
                    let r = logic(op, src[c] as u32, d as u32, m);
                    u64::from(r) & ((1u64 << size) - 1)
                };
            } else {
                let d = dst[c];
                out[c] = if mask >> c & 1 == 0 {
                    d
                } else {
                    let wide = |b: u64| {
                        if size == 16 {
                            f16::from_bits(b as u16).to_f32()
                        } else {
                            f32::from_bits(b as u32)
                        }
                    };
                    let si = to_norm_int(wide(src[c]), f.class, bits);
                    let di = to_norm_int(wide(d), f.class, bits);
                    let r = from_norm_int(
                        logic(op, si, di, ((1u64 << bits) - 1) as u32),
                        f.class,
                        bits,
                    );
                    if size == 16 {
                        f16::from_f32(r).bits()
                    } else {
                        r.bits()
                    }
                };
            }
        }
        return (out, packed);
    }
    let replace = rt
        .blend
        .is_none_or(|e| e.iter().all(|q| *q == Equation::REPLACE));
    if integer || replace {
        if mask != all && packed {
            return keep_masked();
        }
        return (*src, false);
    }
    let eqs = rt.blend.unwrap();
    // The constant alphas of alpha-to-one and `loc0_w_1`, which NIR folds.
    let loc = if key.broadcast_rt0 { 0 } else { rt.location };
    let alpha_one = (
        key.alpha_to_one || (loc == 0 && key.loc0_w_1),
        key.alpha_to_one,
    );
    let out = if size == 16 {
        blend_at::<f16>(f, &eqs, src, s1, dst, k32, mask, alpha_one)
    } else {
        blend_at::<f32>(f, &eqs, src, s1, dst, k32, mask, alpha_one)
    };
    // Formats with masked stores store the colour-masked components only.
    (out, packed)
}

/// The destination components as `ld_tile` gives them at `size` bits.
fn tile_destination(f: &Format, tile: &[u8], size: u8) -> [u64; 4] {
    let integer = matches!(f.class, Class::Uint | Class::Sint);
    std::array::from_fn(|c| {
        if c >= f.comps {
            0
        } else if integer {
            decode_int(f, c, tile, u32::from(size))
        } else {
            load_float(f, c, tile, size)
        }
    })
}

/// The destination component as `ld_tile` gives it at `size` bits (a 16-bit colour of a
/// 32-bit float format: fp32 rounded to fp16).
fn load_float(f: &Format, c: usize, tile: &[u8], size: u8) -> u64 {
    let x = decode(f.enc, f.el, c, tile);
    if size == 16 {
        f16::from_f64(x).bits()
    } else {
        (x as f32).bits()
    }
}

#[allow(clippy::too_many_arguments)]
fn blend_at<F: Fl>(
    f: &Format,
    eqs: &[Equation; 2],
    src: &[u64; 4],
    s1: &[u64; 4],
    dst: &[u64; 4],
    k32: &[f32; 4],
    mask: u8,
    alpha_one: (bool, bool),
) -> [u64; 4] {
    let class = f.class;
    let raw: [F; 4] = std::array::from_fn(|c| {
        if c < f.comps {
            F::from_bits(dst[c])
        } else {
            F::of(0.0)
        }
    });
    let fp16_tile_normalised = matches!(f.enc, Enc::F16) && class != Class::Float;
    // Missing destination channels: 0, alpha 1.0 (`nir_color_blend`).
    let d: [Fac<F>; 4] = std::array::from_fn(|c| {
        if c >= f.comps {
            if c == 3 {
                Fac::One
            } else {
                Fac::Zero
            }
        } else if fp16_tile_normalised {
            Fac::V(clamp(raw[c], class))
        } else {
            Fac::V(raw[c])
        }
    });
    let input = |v: &[u64; 4], alpha: bool| -> [Fac<F>; 4] {
        std::array::from_fn(|c| {
            if c == 3 && alpha {
                Fac::One
            } else {
                Fac::V(clamp(F::from_bits(v[c]), class))
            }
        })
    };
    let b = BlendIn {
        s: input(src, alpha_one.0),
        s1: input(s1, alpha_one.1),
        d,
        k: k32.map(|v| clamp(F::of(f64::from(v)), class)),
    };
    let mut out = [0u64; 4];
    for c in 0..f.comps {
        out[c] = if mask >> c & 1 == 0 {
            raw[c].bits()
        } else {
            let eq = if c == 3 { &eqs[1] } else { &eqs[0] };
            blend_component(eq, c, &b).bits()
        };
    }
    out
}

// ---- keys --------------------------------------------------------------------------

fn random_equation(s: &mut u64, dual: bool) -> Equation {
    let n = if dual { 19 } else { 15 };
    Equation {
        func: FUNCS[(lcg(s) % 5) as usize],
        src: FACTORS[(lcg(s) % n) as usize],
        dst: FACTORS[(lcg(s) % n) as usize],
    }
}

fn random_case(s: &mut u64) -> Case {
    let samples = [1u8, 2, 4][(lcg(s) % 3) as usize];
    let dual = lcg(s).is_multiple_of(4);
    let logic_op =
        (!dual && lcg(s).is_multiple_of(3)).then(|| LogicOp::ALL[(lcg(s) % 16) as usize]);
    let count = if dual { 1 } else { 1 + (lcg(s) % 3) as usize };
    let mut sizes = [32u8; 8];
    for sz in sizes.iter_mut() {
        *sz = if lcg(s).is_multiple_of(2) { 16 } else { 32 };
    }
    if dual {
        sizes[1] = sizes[0];
    }
    // Under broadcast every target reads location 0 at its size; its colours are floats.
    let broadcast = !dual && lcg(s).is_multiple_of(5);
    let mut rts = Vec::new();
    let mut fmts = Vec::new();
    for (i, &own_size) in sizes.iter().enumerate().take(count) {
        let size = if broadcast { sizes[0] } else { own_size };
        let mut f = &FORMATS[(lcg(s) % FORMATS.len() as u64) as usize];
        while broadcast && matches!(f.class, Class::Uint | Class::Sint) {
            f = &FORMATS[(lcg(s) % FORMATS.len() as u64) as usize];
        }
        let all = (1u8 << f.comps) - 1;
        let colormask = if lcg(s).is_multiple_of(2) {
            all
        } else {
            lcg(s) as u8 & 0xf
        };
        let blend = (dual || !lcg(s).is_multiple_of(4)).then(|| {
            let mut eqs = [random_equation(s, dual), random_equation(s, dual)];
            if dual {
                eqs[0].src = BlendFactor::Src1Color;
            }
            eqs
        });
        rts.push(Some(EpilogRt {
            format: f.name.to_string(),
            location: i as u8,
            size,
            colormask,
            blend,
        }));
        fmts.push(f);
    }
    let key = EpilogKey {
        samples,
        sample_shading: samples > 1 && lcg(s).is_multiple_of(2),
        // Integer colours are no floats: alpha-to-coverage of those is not compared.
        alpha_to_coverage: !matches!(fmts[0].class, Class::Uint | Class::Sint)
            && lcg(s).is_multiple_of(3),
        logic_op,
        write_z: lcg(s).is_multiple_of(2),
        write_s: lcg(s).is_multiple_of(2),
        sample_mask_after_force_early: lcg(s).is_multiple_of(3),
        loc0_w_1: lcg(s).is_multiple_of(5),
        alpha_to_one: lcg(s).is_multiple_of(4),
        broadcast_rt0: broadcast,
        rts,
        unsupported: Vec::new(),
    };
    Case { key, fmts, sizes }
}

#[test]
fn random_keys_match_the_reference_bit_for_bit() {
    let mut s = 2024u64;
    for round in 0..400 {
        let case = random_case(&mut s);
        check(&case, &mut s, &format!("round {round}"), false);
    }
}

#[test]
fn random_sample_shading_keys_match_the_reference_in_the_linker_loop() {
    let mut s = 31u64;
    let mut done = 0;
    let mut spilled = 0;
    for round in 0..300 {
        let case = if round % 2 == 0 {
            random_case(&mut s)
        } else {
            random_spill_case(&mut s)
        };
        if !case.key.sample_shading {
            continue;
        }
        spilled += round % 2;
        done += 1;
        check(&case, &mut s, &format!("linked round {round}"), true);
    }
    assert!(
        done > 100 && spilled > 40,
        "{done} keys, {spilled} spilling"
    );
}

/// A key with five to eight targets, large formats first until some spill; with several
/// samples under sample shading.
fn random_spill_case(s: &mut u64) -> Case {
    let samples = [1u8, 2, 4][(lcg(s) % 3) as usize];
    let logic_op = lcg(s)
        .is_multiple_of(3)
        .then(|| LogicOp::ALL[(lcg(s) % 16) as usize]);
    let broadcast = lcg(s).is_multiple_of(5);
    let count = 5 + (lcg(s) % 4) as usize;
    let mut sizes = [32u8; 8];
    for sz in sizes.iter_mut() {
        *sz = if lcg(s).is_multiple_of(2) { 16 } else { 32 };
    }
    let big = FORMATS
        .iter()
        .position(|f| f.name == "R32G32B32A32_FLOAT")
        .unwrap();
    let mut rts = Vec::new();
    let mut fmts = Vec::new();
    for i in 0..count {
        let size = if broadcast { sizes[0] } else { sizes[i] };
        let mut f = &FORMATS[(lcg(s) % FORMATS.len() as u64) as usize];
        while broadcast && matches!(f.class, Class::Uint | Class::Sint) {
            f = &FORMATS[(lcg(s) % FORMATS.len() as u64) as usize];
        }
        // Three 16-byte targets leave 16 bytes, which the others overflow.
        if i < 3 && !lcg(s).is_multiple_of(4) {
            f = &FORMATS[big];
        }
        let all = (1u8 << f.comps) - 1;
        let colormask = if lcg(s).is_multiple_of(2) {
            all
        } else {
            lcg(s) as u8 & 0xf
        };
        let blend = (!lcg(s).is_multiple_of(4))
            .then(|| [random_equation(s, false), random_equation(s, false)]);
        rts.push(Some(EpilogRt {
            format: f.name.to_string(),
            location: i as u8,
            size,
            colormask,
            blend,
        }));
        fmts.push(f);
    }
    let key = EpilogKey {
        samples,
        sample_shading: samples > 1,
        // Integer colours are no floats: alpha-to-coverage of those is not compared.
        alpha_to_coverage: !matches!(fmts[0].class, Class::Uint | Class::Sint)
            && !lcg(s).is_multiple_of(3),
        logic_op,
        write_z: lcg(s).is_multiple_of(2),
        write_s: lcg(s).is_multiple_of(2),
        sample_mask_after_force_early: lcg(s).is_multiple_of(3),
        loc0_w_1: lcg(s).is_multiple_of(5),
        alpha_to_one: lcg(s).is_multiple_of(4),
        broadcast_rt0: broadcast,
        rts,
        unsupported: Vec::new(),
    };
    Case { key, fmts, sizes }
}

#[test]
fn random_spilled_keys_match_the_reference_bit_for_bit() {
    let mut s = 7u64;
    let mut spilled = 0;
    let mut with_a2c = 0;
    let mut multisampled = 0;
    for round in 0..120 {
        let case = random_spill_case(&mut s);
        let formats: Vec<Option<&str>> = case.fmts.iter().map(|f| Some(f.name)).collect();
        let layout = tilebuffer_layout(&formats, case.key.samples).unwrap();
        let n = layout
            .render_targets
            .iter()
            .filter(|p| p.offset_bytes.is_none())
            .count();
        spilled += n;
        if n > 0 && case.key.alpha_to_coverage {
            with_a2c += 1;
        }
        if n > 0 && case.key.samples > 1 {
            multisampled += 1;
        }
        check(&case, &mut s, &format!("spill round {round}"), false);
    }
    assert!(spilled > 60, "only {spilled} spilled targets");
    assert!(
        with_a2c > 20,
        "only {with_a2c} spilling keys with alpha-to-coverage"
    );
    assert!(
        multisampled > 40,
        "only {multisampled} multisampled spilling keys"
    );
}

// ---- hand-computed cases -----------------------------------------------------------

fn rt(format: &str, location: u8, size: u8, blend: Option<[Equation; 2]>) -> Option<EpilogRt> {
    Some(EpilogRt {
        format: format.into(),
        location,
        size,
        colormask: 0xf,
        blend,
    })
}

/// Runs `key` on a 4×2 tile after `setup`; returns the state.
fn run_key(key: &EpilogKey, setup: impl FnOnce(&mut State)) -> State {
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).unwrap();
    let frag = Fragment::new(4, 2, u32::from(key.samples), layout.sample_size_bytes).unwrap();
    let mut st = State {
        exec: 0xff,
        frag: Some(Box::new(frag)),
        ..State::default()
    };
    setup(&mut st);
    let epilog = fragment_epilog(key).unwrap();
    run(&epilog.code, &mut st, 100_000).unwrap_or_else(|e| panic!("{e}\n{}", epilog.text));
    st
}

fn set_f32(st: &mut State, lane: usize, loc: u32, v: [f32; 4]) {
    for (c, x) in v.iter().enumerate() {
        st.set_gpr(lane, 8 + 8 * loc + 2 * c as u32, 32, u64::from(x.to_bits()))
            .unwrap();
    }
}

#[test]
fn logic_ops_by_hand() {
    // The layout sorts by alignment: R16G16_FLOAT (2) first at byte 0, then RGBA8 UINT at
    // 4, RG8 SINT at 8, RGBA8 UNORM at 10.
    let key = EpilogKey {
        logic_op: Some(LogicOp::Xor),
        rts: vec![
            rt("R8G8B8A8_UINT", 0, 32, None),
            rt("R8G8_SINT", 1, 32, None),
            rt("R8G8B8A8_UNORM", 2, 32, None),
            rt("R16G16_FLOAT", 3, 32, None),
        ],
        ..EpilogKey::default()
    };
    let st = run_key(&key, |st| {
        for lane in 0..8 {
            for (c, v) in [5u32, 300, 0xffff_ffff, 7].iter().enumerate() {
                st.set_gpr(lane, 8 + 2 * c as u32, 32, u64::from(*v))
                    .unwrap();
            }
            for (c, v) in [-2i32, 5].iter().enumerate() {
                st.set_gpr(lane, 16 + 2 * c as u32, 32, u64::from(*v as u32))
                    .unwrap();
            }
            set_f32(st, lane, 2, [0.5, 1.0, 0.0, 0.2]);
            set_f32(st, lane, 3, [0.5, -2.0, 0.0, 0.0]);
        }
        let f = st.frag.as_mut().unwrap();
        let size = f.sample_size as usize;
        for p in 0..8 {
            let t = &mut f.tib[p * size..];
            t[4..8].copy_from_slice(&[3, 0x0f, 0x80, 0xff]);
            t[8..10].copy_from_slice(&[0x01, 0xfe]);
            t[10..14].copy_from_slice(&[0x0f, 0xf0, 0xaa, 0x33]);
        }
    });
    let f = st.frag.as_ref().unwrap();
    let size = f.sample_size as usize;
    for p in 0..8 {
        let t = &f.tib[p * size..];
        // 5^3, 300^15 = 291 → 255, 0xffffffff^0x80 → 255, 7^255.
        assert_eq!(t[4..8], [6, 255, 255, 248]);
        // −2 ^ 1 = −1, 5 ^ −2 = −5 (the destination −2 sign-extended).
        assert_eq!(t[8..10], [0xff, 0xfb]);
        // 0.5·255 → 128 ^ 15, 255 ^ 240, 0 ^ 170, 0.2·255 → 51 ^ 51.
        assert_eq!(t[10..14], [0x8f, 0x0f, 0xaa, 0x00]);
        // Float formats ignore the logic op.
        assert_eq!(t[0..4], [0x00, 0x38, 0x00, 0xc0]);
    }
}

#[test]
fn alpha_to_coverage_by_hand() {
    let key = EpilogKey {
        samples: 4,
        alpha_to_coverage: true,
        write_z: true,
        rts: vec![rt("R8_UNORM", 0, 32, None)],
        ..EpilogKey::default()
    };
    // Mesa's dithered mask: m = round(16 · sat(alpha)) = 8, 0, 16, 5, 0, 16, 4, 12 gives
    // 0x5555, 0, 0xffff, 0x44c4, 0, 0xffff, 0x4444, 0x7777, rotated right by
    // (x & 1) + (y & 1) of lane l's pixel (l % 4, l / 4): 0, 1, 0, 1, 1, 2, 1, 2.
    let alphas = [0.5f32, 0.0, 1.0, 0.3, -0.5, 0.99, 0.25, 0.75];
    let covered = [0b0101u8, 0, 0b1111, 0b0010, 0, 0b1111, 0b0010, 0b1101];
    let st = run_key(&key, |st| {
        for (lane, a) in alphas.iter().enumerate() {
            set_f32(st, lane, 0, [1.0, 0.0, 0.0, *a]);
            st.set_gpr(lane, 4, 32, u64::from(2.0f32.to_bits()))
                .unwrap();
        }
    });
    let f = st.frag.as_ref().unwrap();
    for (lane, &cov) in covered.iter().enumerate() {
        assert_eq!(f.coverage[lane], cov, "lane {lane}");
        for s in 0..4 {
            let on = cov >> s & 1 == 1;
            assert_eq!(
                f.depth[lane * 4 + s].is_some(),
                on,
                "lane {lane} sample {s}"
            );
            let byte = f.tib[(lane * 4 + s) * f.sample_size as usize];
            assert_eq!(byte, if on { 255 } else { 0 }, "lane {lane} sample {s}");
        }
    }
}

#[test]
fn fp16_and_dual_source_blending_by_hand() {
    let over = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::SrcAlpha,
        dst: BlendFactor::OneMinusSrcAlpha,
    };
    let key = EpilogKey {
        rts: vec![rt(
            "R16G16B16A16_FLOAT",
            0,
            16,
            Some([over, Equation::REPLACE]),
        )],
        ..EpilogKey::default()
    };
    let st = run_key(&key, |st| {
        for lane in 0..8 {
            for (c, v) in [1.0f32, 0.5, 0.25, 0.75].iter().enumerate() {
                st.set_gpr(
                    lane,
                    8 + c as u32,
                    16,
                    u64::from(f16::from_f32(*v).to_bits()),
                )
                .unwrap();
            }
        }
        let f = st.frag.as_mut().unwrap();
        for p in 0..8 {
            for (c, v) in [0.0f32, 1.0, 0.5, 0.5].iter().enumerate() {
                let at = p * 8 + 2 * c;
                f.tib[at..at + 2].copy_from_slice(&f16::from_f32(*v).to_le_bytes());
            }
        }
    });
    // s·0.75 + d·0.25: 0.75, 0.625, 0.3125; alpha replaced: 0.75.
    let f = st.frag.as_ref().unwrap();
    for p in 0..8 {
        let got: Vec<u16> = (0..4)
            .map(|c| u16::from_le_bytes([f.tib[p * 8 + 2 * c], f.tib[p * 8 + 2 * c + 1]]))
            .collect();
        assert_eq!(got, [0x3a00, 0x3900, 0x3500, 0x3a00]);
    }

    let dual = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::Src1Color,
        dst: BlendFactor::OneMinusSrc1Alpha,
    };
    let key = EpilogKey {
        rts: vec![rt(
            "R32G32B32A32_FLOAT",
            0,
            32,
            Some([dual, Equation::REPLACE]),
        )],
        ..EpilogKey::default()
    };
    let st = run_key(&key, |st| {
        for lane in 0..8 {
            set_f32(st, lane, 0, [0.5, 0.5, 0.5, 1.0]);
            set_f32(st, lane, 1, [0.5, 0.25, 1.0, 0.5]);
        }
        let f = st.frag.as_mut().unwrap();
        for p in 0..8 {
            for c in 0..4 {
                let at = p * 16 + 4 * c;
                f.tib[at..at + 4].copy_from_slice(&1.0f32.to_le_bytes());
            }
        }
    });
    // s·s1 + d·(1 − s1.a): 0.25 + 0.5, 0.125 + 0.5, 0.5 + 0.5; alpha 1.
    let f = st.frag.as_ref().unwrap();
    for p in 0..8 {
        let got: Vec<f32> = (0..4)
            .map(|c| {
                f32::from_le_bytes(
                    f.tib[p * 16 + 4 * c..p * 16 + 4 * c + 4]
                        .try_into()
                        .unwrap(),
                )
            })
            .collect();
        assert_eq!(got, [0.75, 0.625, 1.0, 1.0]);
    }
}

#[test]
fn blending_reads_each_sample_by_hand() {
    let add = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::One,
        dst: BlendFactor::One,
    };
    for shading in [false, true] {
        let key = EpilogKey {
            samples: 2,
            sample_shading: shading,
            rts: vec![rt("R32_FLOAT", 0, 32, Some([add, add]))],
            ..EpilogKey::default()
        };
        let runs = if shading { 2 } else { 1 };
        let formats = [Some("R32_FLOAT")];
        let layout = tilebuffer_layout(&formats, 2).unwrap();
        let mut st = State {
            exec: 0xff,
            frag: Some(Box::new(
                Fragment::new(4, 2, 2, layout.sample_size_bytes).unwrap(),
            )),
            ..State::default()
        };
        let size = layout.sample_size_bytes as usize;
        {
            let f = st.frag.as_mut().unwrap();
            for p in 0..8 {
                f.tib[2 * p * size..2 * p * size + 4].copy_from_slice(&1.0f32.to_le_bytes());
                f.tib[(2 * p + 1) * size..(2 * p + 1) * size + 4]
                    .copy_from_slice(&2.0f32.to_le_bytes());
            }
        }
        let epilog = fragment_epilog(&key).unwrap();
        for it in 0..runs {
            for lane in 0..8 {
                set_f32(&mut st, lane, 0, [0.5 + it as f32, 0.0, 0.0, 0.0]);
                st.set_gpr(lane, 2, 16, 1 << it).unwrap();
            }
            run(&epilog.code, &mut st, 100_000).unwrap();
        }
        // Without sample shading one source for both samples: 1.5, 2.5; with it sample 1
        // gets the second run's source: 1.5, 3.5.
        let want = if shading { [1.5f32, 3.5] } else { [1.5, 2.5] };
        let f = st.frag.as_ref().unwrap();
        for p in 0..8 {
            for (s, w) in want.iter().enumerate() {
                let at = (2 * p + s) * size;
                let v = f32::from_le_bytes(f.tib[at..at + 4].try_into().unwrap());
                assert_eq!(v, *w, "shading {shading} pixel {p} sample {s}");
            }
        }
    }
}

/// Every render-target format of the table, at both sizes, with and without several samples
/// and sample shading, blending, logic ops and partial masks: the generator either makes
/// code (which assembles) or reports the key, never a defect of its own.
#[test]
fn every_format_and_feature_generates_or_is_refused() {
    use gpuabi_agx::epilog::EpilogError;
    use gpuabi_agx::tilebuffer::RT_FORMATS;
    let mut s = 5u64;
    let mut made = 0;
    for &(name, _, _) in RT_FORMATS {
        for size in [16u8, 32] {
            for (samples, shading) in [(1u8, false), (4, false), (2, true)] {
                for mode in 0..5 {
                    let blend = (mode == 1 || mode == 4)
                        .then(|| [random_equation(&mut s, true), random_equation(&mut s, true)]);
                    let key = EpilogKey {
                        samples,
                        sample_shading: shading,
                        alpha_to_coverage: mode == 4,
                        logic_op: (mode == 2).then(|| LogicOp::ALL[(lcg(&mut s) % 16) as usize]),
                        write_z: true,
                        alpha_to_one: mode == 3,
                        loc0_w_1: mode == 4,
                        rts: vec![Some(EpilogRt {
                            format: name.into(),
                            location: 0,
                            size,
                            colormask: if mode == 3 { 0b0101 } else { 0xf },
                            blend,
                        })],
                        ..EpilogKey::default()
                    };
                    match fragment_epilog(&key) {
                        Ok(e) => {
                            assert!(!e.code.is_empty() || key.logic_op == Some(LogicOp::Noop));
                            made += 1;
                        }
                        Err(EpilogError::Layout(_)) => {}
                        Err(e) => panic!("{name} {size} {samples} {mode}: {e}"),
                    }
                }
            }
        }
    }
    assert!(made > 1000, "{made}");
}

#[test]
fn dual_source_conflicts_and_noop_by_hand() {
    use gpuabi_agx::epilog::EpilogError;
    let dual = Some([
        Equation {
            func: BlendFunc::Add,
            src: BlendFactor::One,
            dst: BlendFactor::Src1Alpha,
        },
        Equation::REPLACE,
    ]);
    let conflict = |rts: Vec<Option<EpilogRt>>, broadcast_rt0: bool| {
        let key = EpilogKey {
            rts,
            broadcast_rt0,
            ..EpilogKey::default()
        };
        fragment_epilog(&key).unwrap_err()
    };
    // Not at location 0; a real location-1 output; two dual-source targets.
    let e = conflict(vec![rt("R8G8B8A8_UNORM", 2, 32, dual)], false);
    assert_eq!(e, EpilogError::DualSourceConflict(0));
    let e = conflict(
        vec![
            rt("R8G8B8A8_UNORM", 0, 32, dual),
            rt("R8_UNORM", 1, 32, None),
        ],
        false,
    );
    assert_eq!(e, EpilogError::DualSourceConflict(0));
    let e = conflict(
        vec![
            rt("R8G8B8A8_UNORM", 0, 32, dual),
            rt("R8_UNORM", 1, 32, dual),
        ],
        true,
    );
    assert!(matches!(e, EpilogError::DualSourceConflict(_)), "{e}");

    // A noop logic op leaves the tile as it was.
    let key = EpilogKey {
        logic_op: Some(LogicOp::Noop),
        rts: vec![rt("R8G8B8A8_UNORM", 0, 32, None)],
        ..EpilogKey::default()
    };
    let st = run_key(&key, |st| {
        for lane in 0..8 {
            set_f32(st, lane, 0, [1.0; 4]);
        }
        st.frag.as_mut().unwrap().tib.fill(7);
    });
    assert!(st.frag.as_ref().unwrap().tib.iter().all(|&b| b == 7));
}

#[test]
fn spilled_blending_by_hand() {
    // Four 16-byte targets fill the 64 bytes of a sample; render target 4 spills. Its
    // texture descriptor is heap index 2·4 = 8 (byte 192), its PBE index 9 (byte 216);
    // its image is 4×2 RGBA8 UNORM with rows of align(4·4, 16) = 16 bytes at 0x20000.
    let over = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::SrcAlpha,
        dst: BlendFactor::OneMinusSrcAlpha,
    };
    let mut rts = vec![rt("R32G32B32A32_FLOAT", 0, 32, None); 4];
    rts.push(rt("R8G8B8A8_UNORM", 4, 32, Some([over, over])));
    let key = EpilogKey {
        rts,
        ..EpilogKey::default()
    };
    let b = spill_bindings(&key, 4, 2, 0x1_0000, 0x2_0000).unwrap();
    assert_eq!(b.images.len(), 1);
    assert_eq!((b.images[0].address, b.images[0].stride), (0x2_0000, 16));
    assert_eq!(b.heap.len(), 240);
    // PBE: dimension 2D array (3) in bits 0-3, width − 1 = 3 at bit 24, height − 1 = 1 at
    // bit 38, address >> 4 = 0x2000 at bit 64, stride − 4 = 12 at bit 104.
    let pbe = &b.heap[216..240];
    assert_eq!(pbe[0] & 0xf, 3);
    assert_eq!(pbe[3], 3);
    assert_eq!(pbe[4] >> 6, 1);
    assert_eq!(u16::from_le_bytes([pbe[8], pbe[9]]), 0x2000);
    assert_eq!(pbe[13], 12);
    // Texture: channels R8G8B8A8 (0x28) at bit 6, width − 1 at bit 28.
    let tex = &b.heap[192..216];
    assert_eq!((u16::from_le_bytes([tex[0], tex[1]]) >> 6) & 0x7f, 0x28);
    assert_eq!(tex[3] >> 4, 3);
    assert_eq!(b.uniforms, vec![(0, 0), (1, 1), (2, 0), (3, 0)]);
    let st = run_key(&key, |st| {
        let mut img = vec![0u8; 32];
        for p in 0..8 {
            img[(p / 4) * 16 + (p % 4) * 4..][..4].copy_from_slice(&[0, 255, 100, 255]);
        }
        st.memory.push(Region {
            address: b.heap_address,
            bytes: b.heap.clone(),
        });
        st.memory.push(Region {
            address: 0x2_0000,
            bytes: img,
        });
        for &(h, v) in &b.uniforms {
            st.set_uniform(u32::from(h), 16, u64::from(v)).unwrap();
        }
        for lane in 0..8 {
            set_f32(st, lane, 4, [1.0, 0.0, 0.5, 0.5]);
        }
    });
    // 0.5·src + 0.5·dst: r 0.5 → 127.5 → 128, g 0.5 → 128, b 0.25 + 0.5·100/255 → 113.75 →
    // 114, a 0.25 + 0.5 → 191.25 → 191.
    let img = &st.memory[1].bytes;
    for p in 0..8 {
        assert_eq!(img[(p / 4) * 16 + (p % 4) * 4..][..4], [128, 128, 114, 191]);
    }
}
