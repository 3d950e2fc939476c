//! NaN results of the f32 vector ALU against AMD's pseudocode, in IEEE mode (the mode of
//! compute kernels from LLVM's AMDGPU back end).
//!
//! `v_min_f32`/`v_max_f32` follow V_MIN_F32/V_MAX_F32 of AMD's "RDNA2 ISA" and "CDNA3 ISA"
//! reference guides: with WAVE_MODE.IEEE, a signalling NaN operand (S0 first, then S1)
//! gives itself quieted (`cvtToQuietNAN`); otherwise a NaN S0 gives S1 and a NaN S1 gives
//! S0, so two quiet NaNs give S1. Arithmetic quiets a signalling NaN operand ("floating
//! point opcodes that support exception flag gathering quiet and propagate signalling NaN
//! inputs", the MODE register's IEEE bit), and an invalid operation without a NaN operand
//! (inf - inf, 0 · inf, sqrt(-1)) gives the default NaN 0x7fc00000, positive with only the
//! quiet bit, where an x86 host makes 0xffc00000. Expected bits are worked out by hand.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, WaveSetup};

const SNAN: u32 = 0x7f80_0001;
const SNAN_QUIETED: u32 = 0x7fc0_0001;
const SNAN_NEG: u32 = 0xff80_0002;
const SNAN_NEG_QUIETED: u32 = 0xffc0_0002;
const QNAN: u32 = 0x7fc0_1234;
const QNAN_NEG: u32 = 0xffc0_0005;
const ONE: u32 = 0x3f80_0000;
const INF: u32 = 0x7f80_0000;
const MINUS_ONE: u32 = 0xbf80_0000;
const DEFAULT_NAN: u32 = 0x7fc0_0000;

/// Runs `inst v0, v1, v2[, v3]` with the given sources on every modelled target; returns v0.
fn run(inst: &str, sources: &[u32]) -> Vec<u32> {
    let operands: Vec<String> = (1..=sources.len()).map(|i| format!("v{i}")).collect();
    let text = format!("main:\n\t{inst} v0, {}\n\ts_endpgm\n", operands.join(", "));
    [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W32),
    ]
    .into_iter()
    .map(|(target, wave)| {
        let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            vgprs: (1u16..)
                .zip(sources.iter().map(|v| LaneValues::Uniform(*v)))
                .collect(),
            ..Default::default()
        };
        m.run("main", &[setup]).unwrap().expect("one wave").v(0, 0)
    })
    .collect()
}

fn check(inst: &str, sources: &[u32], expected: u32, why: &str) {
    for got in run(inst, sources) {
        assert_eq!(
            got, expected,
            "{inst} {sources:#010x?}: got {got:#010x}, expected {expected:#010x} ({why})"
        );
    }
}

#[test]
fn min_max_follow_ieee_mode() {
    for inst in ["v_min_f32", "v_max_f32"] {
        check(
            inst,
            &[SNAN, ONE],
            SNAN_QUIETED,
            "signalling S0: quieted S0",
        );
        check(
            inst,
            &[ONE, SNAN],
            SNAN_QUIETED,
            "signalling S1: quieted S1",
        );
        check(
            inst,
            &[SNAN, SNAN_NEG],
            SNAN_QUIETED,
            "two signalling: S0 first",
        );
        check(
            inst,
            &[QNAN, SNAN_NEG],
            SNAN_NEG_QUIETED,
            "a signalling NaN wins over a quiet one",
        );
        check(inst, &[QNAN, ONE], ONE, "quiet S0: S1");
        check(inst, &[ONE, QNAN], ONE, "quiet S1: S0");
        check(
            inst,
            &[QNAN, QNAN_NEG],
            QNAN_NEG,
            "two quiet NaNs: isNAN(S0) gives S1",
        );
        // LLVM canonicalizes with v_max_f32 x, x, x: a signalling NaN comes out quiet.
        check(inst, &[SNAN, SNAN], SNAN_QUIETED, "canonicalize idiom");
    }
}

#[test]
fn arithmetic_quiets_and_invalid_operations_give_the_default_nan() {
    check(
        "v_add_f32",
        &[SNAN, ONE],
        SNAN_QUIETED,
        "a signalling operand is quieted",
    );
    check(
        "v_mul_f32",
        &[ONE, SNAN_NEG],
        SNAN_NEG_QUIETED,
        "a signalling operand is quieted",
    );
    check("v_sub_f32", &[INF, INF], DEFAULT_NAN, "inf - inf");
    check("v_add_f32", &[INF, 0xff80_0000], DEFAULT_NAN, "inf + -inf");
    check("v_mul_f32", &[0, INF], DEFAULT_NAN, "0 * inf");
    check("v_mul_f32", &[0x8000_0000, INF], DEFAULT_NAN, "-0 * inf");
    check("v_fma_f32", &[0, INF, ONE], DEFAULT_NAN, "fma(0, inf, 1)");
    check("v_sqrt_f32", &[MINUS_ONE], DEFAULT_NAN, "sqrt(-1)");
    check("v_rsq_f32", &[MINUS_ONE], DEFAULT_NAN, "rsq(-1)");
    check("v_log_f32", &[MINUS_ONE], DEFAULT_NAN, "log2(-1)");
}
