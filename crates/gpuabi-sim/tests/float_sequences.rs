//! LLVM's correctly rounded f32 division and square root, as `llc-19
//! -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030` emits them for `fdiv float` and `llvm.sqrt.f32`
//! with IEEE fp32 denormals, run in the simulator on many inputs and compared bit for bit
//! with Rust's IEEE `a / b` and `f32::sqrt`.
//!
//! The expected values are IEEE results plus the vector ALU's NaN rule: a NaN operand gives
//! the first NaN operand (numerator, then denominator) with its quiet bit set; otherwise a
//! NaN result is the default NaN `0x7fc00000`, except for the invalid divisions 0/0 and
//! inf/inf, where V_DIV_FIXUP_F32 in AMD's RDNA2 ISA manual writes `0xffc00000`.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, Machine, Wave};

/// The division sequence: numerator in v10, denominator in v11, quotient in v0. LLVM's
/// `v_fmac_f32 d, a, b` (d = a·b + d) is written as the equal `v_fma_f32 d, a, b, d`.
const FDIV: &str = "main:
	v_div_scale_f32 v0, null, v11, v11, v10
	v_rcp_f32 v1, v0
	v_fma_f32 v2, -v0, v1, 1.0
	v_fma_f32 v1, v2, v1, v1
	v_div_scale_f32 v2, vcc_lo, v10, v11, v10
	v_mul_f32 v3, v2, v1
	v_fma_f32 v4, -v0, v3, v2
	v_fma_f32 v3, v4, v1, v3
	v_fma_f32 v0, -v0, v3, v2
	v_div_fmas_f32 v0, v0, v1, v3
	v_div_fixup_f32 v0, v0, v11, v10
	s_endpgm
";

/// The square-root sequence: input in v10, result in v0 (LLVM's scalar input `s0` is v10).
const FSQRT: &str = "main:
	v_mul_f32_e64 v0, 0x4f800000, v10
	v_cmp_gt_f32_e64 vcc_lo, 0xf800000, v10
	v_cndmask_b32 v0, v10, v0, vcc_lo
	v_sqrt_f32 v1, v0
	v_add_nc_u32 v2, -1, v1
	v_add_nc_u32 v3, 1, v1
	v_fma_f32 v4, -v2, v1, v0
	v_fma_f32 v5, -v3, v1, v0
	v_cmp_ge_f32_e64 s0, 0, v4
	v_cndmask_b32_e64 v1, v1, v2, s0
	v_cmp_lt_f32_e64 s0, 0, v5
	v_cndmask_b32_e64 v1, v1, v3, s0
	v_mul_f32 v2, 0x37800000, v1
	v_cndmask_b32 v1, v1, v2, vcc_lo
	v_cmp_class_f32_e64 vcc_lo, v0, 0x260
	v_cndmask_b32 v0, v1, v0, vcc_lo
	s_endpgm
";

const DEFAULT_NAN: u32 = 0x7fc0_0000;

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

fn expected_div(a: u32, b: u32) -> u32 {
    if is_nan(a) {
        return a | 0x0040_0000;
    }
    if is_nan(b) {
        return b | 0x0040_0000;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if (x == 0.0 && y == 0.0) || (x.is_infinite() && y.is_infinite()) {
        return 0xffc0_0000;
    }
    (x / y).to_bits()
}

fn expected_sqrt(a: u32) -> u32 {
    if is_nan(a) {
        return a | 0x0040_0000;
    }
    let r = f32::from_bits(a).sqrt();
    if r.is_nan() {
        DEFAULT_NAN
    } else {
        r.to_bits()
    }
}

struct Rng(u64);

impl Rng {
    fn u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }

    /// A float with a random significand and sign and a biased exponent in `exps`.
    fn with_exponent(&mut self, exps: std::ops::RangeInclusive<u32>) -> u32 {
        let span = exps.end() - exps.start() + 1;
        let e = exps.start() + self.u32() % span;
        (self.u32() & 0x807f_ffff) | e << 23
    }
}

/// Special values: zeros, denormals, the normal extremes, infinities, NaNs (quiet and
/// signalling, with payloads), and a few ordinary numbers.
const SPECIALS: [u32; 22] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0040_0000,
    0x0080_0000,
    0x8080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0001,
    0x7f80_0001,
    0xff90_0000,
    0x3f80_0000,
    0x4040_0000,
    0xbf80_0000,
    0x3eaa_aaab,
    0x5f80_0000,
    0x1f80_0000,
];

/// Pairs (numerator, denominator): all pairs of specials, random bit patterns, quotients
/// near overflow and underflow, denormal numerators and denominators, huge denominators.
fn division_inputs() -> Vec<(u32, u32)> {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut v = Vec::new();
    for a in SPECIALS {
        for b in SPECIALS {
            v.push((a, b));
        }
    }
    for _ in 0..20_000 {
        v.push((rng.u32(), rng.u32()));
    }
    for _ in 0..4_000 {
        // Quotients near the largest f32 (exponent difference around +127).
        let b = rng.with_exponent(1..=130);
        let eb = (b >> 23) & 0xff;
        let a = rng.with_exponent((eb + 120).min(254)..=(eb + 128).min(254));
        v.push((a, b));
        // Quotients near and below the smallest normal and denormal.
        let a = rng.with_exponent(1..=120);
        let ea = (a >> 23) & 0xff;
        let b = rng.with_exponent((ea + 100).min(254)..=(ea + 160).min(254));
        v.push((a, b));
        // Denormal numerators, denormal denominators, huge denominators.
        v.push((rng.u32() & 0x807f_ffff, rng.u32()));
        v.push((rng.u32(), rng.u32() & 0x807f_ffff));
        v.push((rng.u32() & 0x807f_ffff, rng.u32() & 0x807f_ffff));
        v.push((rng.u32(), rng.with_exponent(230..=254)));
        v.push((rng.with_exponent(0..=30), rng.with_exponent(200..=254)));
    }
    v
}

fn sqrt_inputs() -> Vec<u32> {
    let mut rng = Rng(0x0fed_cba9_8765_4321);
    let mut v: Vec<u32> = SPECIALS.to_vec();
    for _ in 0..20_000 {
        v.push(rng.u32());
        v.push(rng.u32() & 0x007f_ffff);
        v.push(rng.with_exponent(0..=40));
        v.push(rng.with_exponent(100..=160) & 0x7fff_ffff);
    }
    v
}

/// Runs `text` on gfx1030 wave32 (as llc emitted it), 32 inputs per wave in v10, v11, …,
/// and returns v0 of every lane.
fn run_lanes(text: &str, inputs: &[Vec<u32>]) -> Vec<u32> {
    let program = parse(text, Target::Gfx1030, WaveSize::W32).expect("sequence parses");
    let mut m = Machine::new(Image::new(&program).expect("valid program"));
    let n = inputs[0].len();
    let mut out = Vec::with_capacity(n);
    let mut wave = Wave::new(WaveSize::W32);
    for start in (0..n).step_by(32) {
        wave.reset();
        let lanes = (n - start).min(32);
        for (k, values) in inputs.iter().enumerate() {
            for l in 0..lanes {
                wave.set_v(10 + k as u16, l, values[start + l]);
            }
        }
        m.run_wave(&mut wave, 0, None).expect("the sequence runs");
        out.extend((0..lanes).map(|l| wave.v(0, l)));
    }
    out
}

#[test]
fn llvm_fdiv_sequence_is_correctly_rounded() {
    let pairs = division_inputs();
    let a: Vec<u32> = pairs.iter().map(|p| p.0).collect();
    let b: Vec<u32> = pairs.iter().map(|p| p.1).collect();
    let got = run_lanes(FDIV, &[a, b]);
    let bad: Vec<String> = pairs
        .iter()
        .zip(&got)
        .filter(|((a, b), g)| expected_div(*a, *b) != **g)
        .map(|((a, b), g)| {
            format!(
                "{:e} / {:e} (0x{a:08x} / 0x{b:08x}): 0x{g:08x}, expected 0x{:08x}",
                f32::from_bits(*a),
                f32::from_bits(*b),
                expected_div(*a, *b)
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} quotients differ:\n{}",
        bad.len(),
        pairs.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn llvm_sqrt_sequence_is_correctly_rounded() {
    let xs = sqrt_inputs();
    let got = run_lanes(FSQRT, std::slice::from_ref(&xs));
    let bad: Vec<String> = xs
        .iter()
        .zip(&got)
        .filter(|(x, g)| expected_sqrt(**x) != **g)
        .map(|(x, g)| {
            format!(
                "sqrt({:e}) (0x{x:08x}): 0x{g:08x}, expected 0x{:08x}",
                f32::from_bits(*x),
                expected_sqrt(*x)
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} square roots differ:\n{}",
        bad.len(),
        xs.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}
