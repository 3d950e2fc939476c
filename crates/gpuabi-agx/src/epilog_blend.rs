//! Blending in the fragment epilog: the source colour clamped, the destination read from
//! the tile buffer, the blend equations of Mesa's `nir_lower_blend` computed at the colour's
//! size (fp32 for 32-bit colours, fp16 with the 16-bit ALU for 16-bit ones), the result
//! stored.
//!
//! Order and precision: Mesa's, so that the tile bytes are those Honeykrisp's epilogs leave
//! (checked against them in `tests/mesa_parts.rs`) and a reference can repeat them bit for
//! bit. `nir_color_blend` (`src/compiler/nir/nir_lower_blend.c`) clamps its inputs to the
//! format (`nir_fsat_to_format`: `fadd x, −0.0, sat` for unorm, for snorm
//! `x > −1 ? x : −1` then `x > 1 ? 1 : x` with `csel`): the source, the dual-source colour
//! (location 1) and the blend constant (fp32 uniforms `u2`…`u5`, rounded to fp16 first for
//! 16-bit colours, `nir_f2f16`); the destination is loaded with `ld_tile` (the hardware
//! converts to the colour's size; a 16-bit colour of a 32-bit float format loads fp32 and
//! rounds it to fp16) and clamped when the tile holds fp16 for a normalised format (RGB565,
//! RGBA4: Mesa's `load_tilebuffer`); a missing destination channel reads 0, a missing alpha
//! 1.0. Factors are `nir_blend_factor_value`'s, an inverted one `fadd(−x, 1.0)` and
//! `src_alpha_saturate` `fmin(As, 1 − Ad)` (a `csel` on `fltn`), each computed once and
//! shared. NIR folds the constants 0 and 1: a factor of one leaves the value unmultiplied,
//! a factor (or value) of zero drops the term, and alpha-to-one and `loc0_w_1` make the
//! source alpha the constant 1.0 (so `1 − As` is a zero factor). The two terms then combine
//! as `nir_opt_algebraic`'s late rules fuse them (`fadd(fmul(a, b), c) → ffma(a, b, c)`,
//! tried first, then `fadd(fneg(fmul(a, b)), c) → ffma(−a, b, c)`, each on the `fadd`'s
//! sources in order): `add` is `first + second` with the source term first, `subtract`
//! `source − destination`, `reverse_subtract` `destination − source`; a product first is
//! fused with the other term (a product rounded on its own) as the addend, a plain value
//! first and a product second fuse the product, two plain values add, and a missing first
//! term leaves the second (negated for the subtractions: a product as `(−a)·b`, a value as
//! `−x + (−0.0)`); `min`/`max` are `csel` on `fltn`/`fgtn` (NaN gives the other operand).
//! Every operation is at the colour's size (fp32, or fp16 on the 16-bit ALU), rounded once
//! (fp32 flushing subnormals). The result is not clamped: the store converts it, as Mesa
//! stores the fused value. Mesa's optimiser also applies inexact rules that rewrite some
//! equations as a whole (`a·b + a·c → a·(b + c)` and the like when both terms share a
//! factor); gpuabi keeps to the equation there (`tests/mesa_parts.rs` lists the captured
//! case).

use gpuabi_agx_isa::regs::{half, r, rl, tuple as reg_tuple, u};
use gpuabi_agx_isa::{args, Arg, Builder, Operand, RegFile};

use crate::abi::FUNI_BLEND_R;
use crate::blend::{BlendFactor, BlendFunc, Equation};

/// Registers of the blend: source copies.
pub const SRC: u16 = 36;
/// First destination register, as loaded.
pub const DST: u16 = 41;
/// First register of the clamped destination (fp16 tiles of normalised formats), so that
/// colour-masked components keep the value loaded; also the 32-bit staging registers of a
/// 16-bit colour's loads and stores of 32-bit formats.
pub const DST_CLAMPED: u16 = 49;
/// First register of the dual-source colour's copy.
pub const SRC1: u16 = 53;
/// First register of the blend constant's components as the blend reads them (rounded to
/// fp16, clamped): past the registers the spilled targets' addressing uses (`spill.rs`).
const CONST16: u16 = 64;
/// Scratch for factors and terms.
const T0: u16 = 45;
const T1: u16 = 46;
/// Hold −1.0 and 1.0 for the snorm clamp.
const MINUS_ONE: u16 = 47;
const ONE: u16 = 48;

/// How a format's values are clamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// Not normalised.
    None,
    /// [0, 1].
    Unorm,
    /// [−1, 1].
    Snorm,
}

/// Component `c` of the `size`-bit vector starting at register `base`: register `base + c`,
/// or for 16 bits half `2·base + c` (tuples of 16-bit values are consecutive halves).
pub fn comp(base: u16, c: u16, size: u8) -> Operand {
    if size == 16 {
        half(u32::from(2 * base + c))
    } else {
        r(u32::from(base + c))
    }
}

/// The tuple of components `0..n` of the vector at `base`.
pub fn tuple(base: u16, n: u16, size: u8) -> Operand {
    reg_tuple(
        RegFile::Gpr,
        u32::from(2 * base),
        u32::from(size),
        u32::from(n),
    )
}

/// Register `r` at `size` bits: the whole register, or its low half.
pub fn sized(reg: u16, size: u8) -> Operand {
    if size == 16 {
        rl(u32::from(reg))
    } else {
        r(u32::from(reg))
    }
}

/// The float add and multiply mnemonics of a size (the 16-bit ALU for fp16).
pub fn float_ops(size: u8) -> (&'static str, &'static str) {
    if size == 16 {
        ("hadd", "hmul")
    } else {
        ("fadd", "fmul")
    }
}

/// The bits of `x` as a float of `size` bits.
pub fn float_bits(x: f32, size: u8) -> u32 {
    if size == 16 {
        u32::from(half_bits(x))
    } else {
        x.to_bits()
    }
}

/// fp16 bits of the small exact constants the epilog loads (±1.0).
fn half_bits(x: f32) -> u16 {
    match x {
        1.0 => 0x3c00,
        -1.0 => 0xbc00,
        _ => 0,
    }
}

/// Emits a clamp of `r` (`size` bits) in place.
pub fn clamp(code: &mut Builder, r: Operand, norm: Norm, size: u8) {
    let (add, _) = float_ops(size);
    match norm {
        Norm::None => {}
        Norm::Unorm => {
            code.push(add, &args![r, r, -0.0, "sat"]);
        }
        Norm::Snorm => {
            // The selected values of a select are registers or integers: the bounds go
            // through registers.
            let (m, p) = (sized(MINUS_ONE, size), sized(ONE, size));
            code.push("ldimm", &args![m, float_bits(-1.0, size)]);
            code.push("ldimm", &args![p, float_bits(1.0, size)]);
            code.push("csel", &args![r, r, m, r, m, "fgt"]);
            code.push("csel", &args![r, r, p, p, r, "fgt"]);
        }
    }
}

/// What one blend of a render target works on.
#[derive(Debug, Clone, Copy)]
pub struct BlendInput {
    /// Colour size in bits.
    pub size: u8,
    /// Components of the format.
    pub comps: u16,
    /// Clamp of the format.
    pub norm: Norm,
    /// First register of the destination as loaded.
    pub dst: u16,
    /// The tile holds fp16 for a normalised format: each destination channel read is
    /// clamped (Mesa's `load_tilebuffer`).
    pub dst_clamp: bool,
    /// First half of the source colour (its location's registers).
    pub src: u16,
    /// The source alpha is the constant 1.0 (alpha-to-one, or `loc0_w_1` for location 0).
    pub src_alpha_one: bool,
    /// The dual-source colour's alpha is the constant 1.0 (alpha-to-one).
    pub src1_alpha_one: bool,
}

/// A value of the blend: a register (or uniform), or a constant NIR folds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Reg(Operand),
    Zero,
    One,
}

impl Op {
    /// The operand: the register, or the float immediate.
    fn arg(&self) -> Arg {
        match self {
            Op::Reg(r) => Arg::Op(*r),
            Op::Zero => Arg::Float(0.0),
            Op::One => Arg::Float(1.0),
        }
    }

    /// The operand negated (`fneg` as a source modifier).
    fn neg(&self) -> Arg {
        match self {
            Op::Reg(r) => Arg::Op(r.neg()),
            Op::Zero => Arg::Float(-0.0),
            Op::One => Arg::Float(-1.0),
        }
    }

    /// The operand as a selected value of `csel` (integers or registers): 0 for zero.
    fn selected(&self) -> Arg {
        match self {
            Op::Zero => Arg::Int(0),
            other => other.arg(),
        }
    }
}

/// A term of the blend equation: absent (a zero factor), the value itself (a factor of
/// one) or `value · factor`.
#[derive(Debug, Clone, PartialEq)]
enum Term {
    Absent,
    Plain(Op),
    Mul(Op, Op),
}

/// What a pooled register holds, so that a value is computed once per blend.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    /// The operand clamped to the format.
    Clamped(Operand),
    /// The blend constant's uniform rounded to fp16.
    F2f16(Operand),
    /// `1 − x`.
    OneMinus(Operand),
    /// `min(a, b)`.
    Min(Op, Op),
}

/// Registers for values computed once per blend (inverted factors, the saturate factor,
/// clamped inputs beyond the source's own registers), clear of the other roles.
const POOL: [u16; 14] = [57, 40, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79];

/// The blend of one render target being emitted.
struct Blend<'a> {
    code: &'a mut Builder,
    inp: &'a BlendInput,
    /// Values computed so far.
    memo: Vec<(Value, Op)>,
    next: usize,
}

impl Blend<'_> {
    fn emit(&mut self, name: &str, args: &[Arg]) {
        self.code.push(name, args);
    }

    fn memo(&self, key: Value) -> Option<Op> {
        self.memo.iter().find(|(k, _)| *k == key).map(|(_, op)| *op)
    }

    /// A pooled register for `key`, and whether it is new.
    fn slot(&mut self, key: Value) -> (Op, bool) {
        if let Some(op) = self.memo(key) {
            return (op, false);
        }
        let r = POOL[self.next.min(POOL.len() - 1)];
        self.next += 1;
        let op = Op::Reg(sized(r, self.inp.size));
        self.memo.push((key, op));
        (op, true)
    }

    /// `x` clamped to the format into a register (once per value).
    fn clamped(&mut self, x: Operand, into: Option<Operand>) -> Op {
        let size = self.inp.size;
        let key = Value::Clamped(x);
        if let Some(op) = self.memo(key) {
            return op;
        }
        let r = match into {
            Some(r) => {
                let op = Op::Reg(r);
                self.memo.push((key, op));
                op
            }
            None => self.slot(key).0,
        };
        let rt = r.arg();
        let (add, _) = float_ops(size);
        match self.inp.norm {
            Norm::None => unreachable!("only normalised formats clamp"),
            Norm::Unorm => self.emit(add, &args![rt, x, -0.0, "sat"]),
            Norm::Snorm => {
                let (m, p) = (sized(MINUS_ONE, size), sized(ONE, size));
                self.emit("ldimm", &args![m, float_bits(-1.0, size)]);
                self.emit("ldimm", &args![p, float_bits(1.0, size)]);
                self.emit("csel", &args![rt, x, m, x, m, "fgt"]);
                self.emit("csel", &args![rt, rt, p, p, rt, "fgt"]);
            }
        }
        r
    }

    /// Source colour component `c`, clamped for normalised formats (into the source
    /// registers `SRC`, which the results later take).
    fn src(&mut self, c: u16) -> Op {
        if c == 3 && self.inp.src_alpha_one {
            return Op::One;
        }
        let reg = comp_half(self.inp.src, c, self.inp.size);
        if self.inp.norm == Norm::None {
            return Op::Reg(reg);
        }
        self.clamped(reg, Some(comp(SRC, c, self.inp.size)))
    }

    /// Dual-source colour component `c` (location 1), clamped as the source.
    fn src1(&mut self, c: u16) -> Op {
        if c == 3 && self.inp.src1_alpha_one {
            return Op::One;
        }
        let reg = comp_half(crate::abi::fout_colour(1), c, self.inp.size);
        if self.inp.norm == Norm::None {
            return Op::Reg(reg);
        }
        self.clamped(reg, Some(comp(SRC1, c, self.inp.size)))
    }

    /// Destination component `c`: 0 for a missing colour channel, 1.0 for a missing
    /// alpha (`nir_color_blend`), clamped when the tile holds fp16 of a normalised format.
    fn dst(&mut self, c: u16) -> Op {
        if c >= self.inp.comps {
            return if c == 3 { Op::One } else { Op::Zero };
        }
        let reg = comp(self.inp.dst, c, self.inp.size);
        if !self.inp.dst_clamp {
            return Op::Reg(reg);
        }
        self.clamped(reg, Some(comp(DST_CLAMPED, c, self.inp.size)))
    }

    /// Blend constant component `c` (fp32 uniforms `u2`…`u5`), rounded to fp16 for 16-bit
    /// colours (`nir_f2f16`) and clamped for normalised formats (`nir_fsat_to_format`).
    fn constant(&mut self, c: u16) -> Op {
        let size = self.inp.size;
        let u = u(u32::from((FUNI_BLEND_R + 2 * c) / 2));
        if size == 16 {
            let r = comp(CONST16, c, 16);
            let (r_op, new) = {
                let key = Value::F2f16(u);
                if let Some(op) = self.memo(key) {
                    (op, false)
                } else {
                    let op = Op::Reg(r);
                    self.memo.push((key, op));
                    (op, true)
                }
            };
            if new {
                self.emit("fadd", &args![r, u, -0.0]);
            }
            if self.inp.norm == Norm::None {
                return r_op;
            }
            return self.clamped(r, None);
        }
        if self.inp.norm == Norm::None {
            return Op::Reg(u);
        }
        self.clamped(u, Some(r(u32::from(CONST16 + c))))
    }

    /// `1 − x`, folded for constants (`fadd(fneg(x), 1.0)`, shared between uses).
    fn one_minus(&mut self, x: Op) -> Op {
        match x {
            Op::Zero => Op::One,
            Op::One => Op::Zero,
            Op::Reg(r) => {
                let (add, _) = float_ops(self.inp.size);
                let (out, new) = self.slot(Value::OneMinus(r));
                if new {
                    self.emit(add, &args![out.arg(), r.neg(), 1.0]);
                }
                out
            }
        }
    }

    /// Factor `f` for component `c` (`nir_blend_factor_value`, inverted factors as
    /// `1 − x`).
    fn factor(&mut self, f: BlendFactor, c: u16) -> Op {
        use BlendFactor as F;
        match f {
            F::Zero => Op::Zero,
            F::One => Op::One,
            F::SrcColor => self.src(c),
            F::SrcAlpha => self.src(3),
            F::Src1Color => self.src1(c),
            F::Src1Alpha => self.src1(3),
            F::DstColor => self.dst(c),
            F::DstAlpha => self.dst(3),
            F::ConstantColor => self.constant(c),
            F::ConstantAlpha => self.constant(3),
            F::OneMinusSrcColor => {
                let x = self.src(c);
                self.one_minus(x)
            }
            F::OneMinusSrcAlpha => {
                let x = self.src(3);
                self.one_minus(x)
            }
            F::OneMinusSrc1Color => {
                let x = self.src1(c);
                self.one_minus(x)
            }
            F::OneMinusSrc1Alpha => {
                let x = self.src1(3);
                self.one_minus(x)
            }
            F::OneMinusDstColor => {
                let x = self.dst(c);
                self.one_minus(x)
            }
            F::OneMinusDstAlpha => {
                let x = self.dst(3);
                self.one_minus(x)
            }
            F::OneMinusConstantColor => {
                let x = self.constant(c);
                self.one_minus(x)
            }
            F::OneMinusConstantAlpha => {
                let x = self.constant(3);
                self.one_minus(x)
            }
            // `nir_alpha_saturate`: min(As, 1 − Ad) for colour, 1 for alpha.
            F::SrcAlphaSaturate if c == 3 => Op::One,
            F::SrcAlphaSaturate => {
                let a = self.src(3);
                let d = self.dst(3);
                let t = self.one_minus(d);
                self.min(a, t)
            }
        }
    }

    /// `fmin(a, b)` as Mesa's `agx_fminmax_to` computes it (`csel` on `fltn`).
    fn min(&mut self, a: Op, b: Op) -> Op {
        match (&a, &b) {
            (Op::Zero, Op::Zero) | (Op::Zero, Op::One) | (Op::One, Op::Zero) => Op::Zero,
            (Op::One, Op::One) => Op::One,
            _ => {
                let (out, new) = self.slot(Value::Min(a, b));
                if new {
                    let o = out.arg();
                    // The selected values are registers: a constant is loaded.
                    let reg = |this: &mut Self, x: &Op| match x {
                        Op::One => {
                            let one = float_bits(1.0, this.inp.size);
                            this.emit("ldimm", &args![o, one]);
                            o
                        }
                        _ => x.arg(),
                    };
                    let (ra, rb) = (reg(self, &a), reg(self, &b));
                    let sel = |x: &Op, r: Arg| match x {
                        Op::Zero => Arg::Int(0),
                        _ => r,
                    };
                    self.emit("csel", &args![o, ra, rb, sel(&a, ra), sel(&b, rb), "fltn"]);
                }
                out
            }
        }
    }

    /// `value · factor`, folded for the constants 0 and 1 (`fmul(a, 1.0)` and the zero
    /// term of `a + 0·b`).
    fn term(value: Op, factor: Op) -> Term {
        match (value, factor) {
            (_, Op::Zero) | (Op::Zero, _) => Term::Absent,
            (v, Op::One) => Term::Plain(v),
            (Op::One, f) => Term::Plain(f),
            (v, f) => Term::Mul(v, f),
        }
    }

    /// The value of a term as an operand, computing a product into `tmp`.
    fn operand(&mut self, t: &Term, tmp: Operand) -> Op {
        let (_, mul) = float_ops(self.inp.size);
        match t {
            Term::Absent => Op::Zero,
            Term::Plain(op) => *op,
            Term::Mul(a, b) => {
                self.emit(mul, &args![tmp, a.arg(), b.arg()]);
                Op::Reg(tmp)
            }
        }
    }

    /// Writes `op` to `out`.
    fn materialize(&mut self, op: &Op, out: Operand) {
        match op {
            Op::Reg(r) if *r == out => {}
            Op::Reg(r) => self.emit("mov", &args![out, *r]),
            Op::Zero => self.emit("mov", &args![out, 0]),
            Op::One => self.emit("ldimm", &args![out, float_bits(1.0, self.inp.size)]),
        }
    }

    /// `first + second` or `first − second` into `out`, as NIR fuses it: a product
    /// first is fused into `ffma` with the other term as the addend (computed and rounded
    /// first); otherwise a product second is fused with the first as the addend; two
    /// plain values are added (`nir_opt_algebraic`'s late `fadd(fmul(a, b), c) →
    /// ffma(a, b, c)` and `fadd(fneg(fmul(a, b)), c) → ffma(−a, b, c)`, tried in that
    /// order and on the `fadd`'s sources in order).
    fn combine(&mut self, first: Term, second: Term, subtract: bool, out: Operand) {
        let size = self.inp.size;
        let (add, mul) = float_ops(size);
        let fma = if size == 16 { "hfma" } else { "ffma" };
        match (&first, &second) {
            (Term::Absent, Term::Absent) => self.materialize(&Op::Zero, out),
            (t, Term::Absent) => match t {
                Term::Mul(a, b) => self.emit(mul, &args![out, a.arg(), b.arg()]),
                Term::Plain(op) => self.materialize(op, out),
                Term::Absent => {}
            },
            (Term::Absent, t) => {
                if !subtract {
                    match t {
                        Term::Mul(a, b) => self.emit(mul, &args![out, a.arg(), b.arg()]),
                        Term::Plain(op) => self.materialize(op, out),
                        Term::Absent => {}
                    }
                } else {
                    // `0 − t` is `fneg(t)`.
                    match t {
                        Term::Mul(a, b) => self.emit(mul, &args![out, a.neg(), b.arg()]),
                        Term::Plain(op) => self.emit(add, &args![out, op.neg(), -0.0]),
                        Term::Absent => {}
                    }
                }
            }
            (Term::Mul(a, b), t) => {
                let c = self.operand(t, sized(T1, size));
                let c = if subtract { c.neg() } else { c.arg() };
                self.emit(fma, &args![out, a.arg(), b.arg(), c]);
            }
            (Term::Plain(x), Term::Mul(a, b)) => {
                let a = if subtract { a.neg() } else { a.arg() };
                self.emit(fma, &args![out, a, b.arg(), x.arg()]);
            }
            (Term::Plain(x), Term::Plain(y)) => {
                let y = if subtract { y.neg() } else { y.arg() };
                self.emit(add, &args![out, x.arg(), y]);
            }
        }
    }

    /// Component `c` of the blend of `eq` into `out`.
    fn component(&mut self, eq: &Equation, c: u16, out: Operand) {
        match eq.func {
            BlendFunc::Min | BlendFunc::Max => {
                let s = self.src(c);
                let d = self.dst(c);
                let cond = if eq.func == BlendFunc::Min {
                    "fltn"
                } else {
                    "fgtn"
                };
                if matches!(s, Op::One) || matches!(d, Op::One) {
                    // A constant 1.0 is selected from a register.
                    let k = sized(T0, self.inp.size);
                    self.emit("ldimm", &args![k, float_bits(1.0, self.inp.size)]);
                    let pick = |x: &Op| {
                        if matches!(x, Op::One) {
                            Arg::Op(k)
                        } else {
                            x.selected()
                        }
                    };
                    let (ps, pd) = (pick(&s), pick(&d));
                    self.emit("csel", &args![out, s.arg(), d.arg(), ps, pd, cond]);
                } else {
                    let (ps, pd) = (s.selected(), d.selected());
                    self.emit("csel", &args![out, s.arg(), d.arg(), ps, pd, cond]);
                }
            }
            func => {
                let fs = self.factor(eq.src, c);
                let fd = self.factor(eq.dst, c);
                let s = self.src(c);
                let d = self.dst(c);
                let ts = Self::term(s, fs);
                let td = Self::term(d, fd);
                match func {
                    BlendFunc::Add => self.combine(ts, td, false, out),
                    BlendFunc::Subtract => self.combine(ts, td, true, out),
                    _ => self.combine(td, ts, true, out),
                }
            }
        }
    }
}

/// The half of component `c` of a vector whose first half is `base` at `size` bits.
fn comp_half(base: u16, c: u16, size: u8) -> Operand {
    let h = base + if size == 16 { c } else { 2 * c };
    if size == 16 {
        half(u32::from(h))
    } else {
        r(u32::from(h / 2))
    }
}

/// Emits the blend of `eqs` for the components in `mask` into the source registers
/// `SRC` (component `c` in `SRC + c` at the colour's size): the inputs clamped to the
/// format as `nir_color_blend` does (source, dual-source colour and blend constant; the
/// destination of fp16 tiles of normalised formats by `load_tilebuffer`), each factor
/// and term as `nir_blend_factor` builds it with NIR's folding of the constants 0 and 1,
/// shared values computed once, and the terms combined as NIR fuses them ([`Blend`]'s
/// `combine`). The result is not clamped: the store converts it (Mesa stores the fused
/// value).
pub fn blend(code: &mut Builder, eqs: &[Equation; 2], inp: &BlendInput, mask: u8) {
    let mut b = Blend {
        code,
        inp,
        memo: Vec::new(),
        next: 0,
    };
    // Colour channels first: they read the source alpha, whose register the alpha
    // result replaces.
    for c in 0..4u16 {
        if mask >> c & 1 == 0 {
            continue;
        }
        let eq = if c == 3 { &eqs[1] } else { &eqs[0] };
        b.component(eq, c, comp(SRC, c, inp.size));
    }
}

/// Whether the equations use dual-source factors.
pub fn dual_source(eqs: &[Equation; 2]) -> bool {
    eqs.iter().any(|e| {
        [e.src, e.dst].iter().any(|f| {
            matches!(
                f,
                BlendFactor::Src1Color
                    | BlendFactor::OneMinusSrc1Color
                    | BlendFactor::Src1Alpha
                    | BlendFactor::OneMinusSrc1Alpha
            )
        })
    })
}

/// Whether the equations leave the source unchanged (`src·1 + dst·0` for both).
pub fn is_replace(eqs: &[Equation; 2]) -> bool {
    eqs.iter().all(|e| *e == Equation::REPLACE)
}
