//! Instructions Mesa's ACO emits in RADV's ray-tracing shaders that the model gained for
//! them. Expected values are worked out by hand from the pseudocode of AMD's ISA reference
//! guides ("AMD GCN3 ISA", "RDNA2 ISA", "RDNA3 ISA"), named per case.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::image::Src;
use gpuabi_sim::{Image, LaneValues, Machine, Wave, WaveSetup};

const ALL: [(Target, WaveSize); 3] = [
    (Target::Gfx8, WaveSize::W64),
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W64),
];
const RDNA: [(Target, WaveSize); 2] = [
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W64),
];

/// Runs `body` in lane 0 only with v1.. and s1.. set to `vgprs` and `sgprs`.
fn run_one(target: Target, wave: WaveSize, body: &str, vgprs: &[u32], sgprs: &[u32]) -> Wave {
    run_lanes(target, wave, body, 1, vgprs, sgprs)
}

/// Runs `body` with execute mask `exec`, v1.. and s1.. set to `vgprs` and `sgprs` (every
/// lane alike).
fn run_lanes(
    target: Target,
    wave: WaveSize,
    body: &str,
    exec: u64,
    vgprs: &[u32],
    sgprs: &[u32],
) -> Wave {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        exec: Some(exec),
        vgprs: (1u16..)
            .zip(vgprs.iter().map(|v| LaneValues::Uniform(*v)))
            .collect(),
        sgprs: (1u16..).zip(sgprs.iter().copied()).collect(),
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap().expect("one wave")
}

fn s(w: &Wave, n: u16) -> u32 {
    w.s32(Src::Sgpr(n))
}

#[test]
fn negated_scalar_logic() {
    // S_NAND_B32 D = ~(S0 & S1), S_NOR_B32 D = ~(S0 | S1), SCC = D != 0 ("AMD GCN3 ISA",
    // "RDNA3 ISA", SOP2). S0 = 0xff00ff00, S1 = 0x0ff00ff0.
    let cases = [
        ("s_nand_b32", 0xff00_ff00, 0x0ff0_0ff0, 0xf0ff_f0ff, true),
        ("s_nor_b32", 0xff00_ff00, 0x0ff0_0ff0, 0x000f_000f, true),
        // All ones and'ed with itself: ~0xffffffff = 0, SCC clear.
        ("s_nand_b32", u32::MAX, u32::MAX, 0, false),
        // Anything or'ed with all ones: ~0xffffffff = 0.
        ("s_nor_b32", 0x1234, u32::MAX, 0, false),
        ("s_nor_b32", 0, 0, u32::MAX, true),
    ];
    for (t, w) in ALL {
        for (inst, a, b, expected, scc) in cases {
            // SCC starts set when the result should clear it, and clear otherwise.
            let body = format!(
                "\ts_cmp_{}_u32 s1, s1\n\t{inst} s5, s1, s2",
                if scc { "lg" } else { "eq" }
            );
            let wave = run_one(t, w, &body, &[], &[a, b]);
            assert_eq!(s(&wave, 5), expected, "{inst} {a:#x} {b:#x} on {t}");
            assert_eq!(wave.scc, scc, "{inst} {a:#x} {b:#x} on {t}: SCC = D != 0");
        }
    }
    // The 64-bit forms: S0 = s[2:3] = 0x00000000_ffffffff, S1 = s[4:5] =
    // 0xffffffff_00000000.
    let cases64 = [
        // ~(S0 & S1) = ~0 = all ones.
        ("s_nand_b64", u64::MAX, true),
        // ~(S0 | S1) = ~all ones = 0.
        ("s_nor_b64", 0, false),
        // ~(S0 ^ S1) = ~all ones = 0.
        ("s_xnor_b64", 0, false),
    ];
    for (t, w) in ALL {
        for (inst, expected, scc) in cases64 {
            let body = format!(
                "\ts_cmp_{}_u32 s1, s1\n\t{inst} s[6:7], s[2:3], s[4:5]",
                if scc { "lg" } else { "eq" }
            );
            let wave = run_one(t, w, &body, &[], &[0, u32::MAX, 0, 0, u32::MAX]);
            let got = u64::from(s(&wave, 6)) | u64::from(s(&wave, 7)) << 32;
            assert_eq!(got, expected, "{inst} on {t}");
            assert_eq!(wave.scc, scc, "{inst} on {t}: SCC = D != 0");
        }
        // ~(S0 ^ S1) of equal halves: bits that agree become ones.
        let wave = run_one(
            t,
            w,
            "\ts_xnor_b64 s[6:7], s[2:3], s[4:5]",
            &[],
            &[0, 0x0f0f_0f0f, 0x1234_5678, 0x0f0f_0f0f, 0x1234_5679],
        );
        assert_eq!((s(&wave, 6), s(&wave, 7)), (u32::MAX, 0xffff_fffe), "{t}");
        assert!(wave.scc, "{t}");
    }
}

#[test]
fn sixteen_bit_packs() {
    // S_PACK_{LL,LH,HH}_B32_B16 ("RDNA2 ISA"), S_PACK_HL_B32_B16 ("RDNA3 ISA"): D[15:0]
    // takes the half of S0 the first letter names, D[31:16] the half of S1 the second
    // names. S0 = 0xaaaa_bbbb, S1 = 0xcccc_dddd.
    let (a, b) = (0xaaaa_bbbb, 0xcccc_dddd);
    let mut cases = vec![
        ("s_pack_ll_b32_b16", 0xdddd_bbbb),
        ("s_pack_lh_b32_b16", 0xcccc_bbbb),
        ("s_pack_hh_b32_b16", 0xcccc_aaaa),
    ];
    for (t, w) in RDNA {
        if t == Target::Gfx1100 {
            cases.push(("s_pack_hl_b32_b16", 0xdddd_aaaa));
        }
        for (inst, expected) in &cases {
            // SCC set by the compare is not written.
            let body = format!("\ts_cmp_eq_u32 s1, s1\n\t{inst} s5, s1, s2");
            let wave = run_one(t, w, &body, &[], &[a, b]);
            assert_eq!(s(&wave, 5), *expected, "{inst} on {t}");
            assert!(wave.scc, "{inst} on {t}: SCC untouched");
        }
        // ACO's `s_pack_ll_b32_b16 s5, s5, 0`: zero-extends the low half.
        let wave = run_one(t, w, "\ts_pack_ll_b32_b16 s1, s1, 0", &[], &[a]);
        assert_eq!(s(&wave, 1), 0xbbbb, "{t}");
    }
}

#[test]
fn shift_and_add() {
    // S_LSHL{N}_ADD_U32 ("RDNA3 ISA"): tmp = (64-bit S0 << N) + S1; D = tmp[31:0]; SCC =
    // tmp >= 2^32.
    let cases = [
        // 5 << 3 + 7 = 47, no carry.
        ("s_lshl3_add_u32", 5, 7, 47, false),
        // 0x40000000 << 2 = 2^32: D = 0 + 1, and the bit shifted out is the carry.
        ("s_lshl2_add_u32", 0x4000_0000, 1, 1, true),
        // 0x7fffffff << 1 = 0xfffffffe, + 2 = 2^32: D = 0, SCC set by the add.
        ("s_lshl1_add_u32", 0x7fff_ffff, 2, 0, true),
        // 0x0fffffff << 4 = 0xfffffff0, + 0xf = 0xffffffff, no carry.
        ("s_lshl4_add_u32", 0x0fff_ffff, 0xf, u32::MAX, false),
    ];
    for (t, w) in RDNA {
        for (inst, a, b, expected, scc) in cases {
            let body = format!(
                "\ts_cmp_{}_u32 s1, s1\n\t{inst} s5, s1, s2",
                if scc { "lg" } else { "eq" }
            );
            let wave = run_one(t, w, &body, &[], &[a, b]);
            assert_eq!(s(&wave, 5), expected, "{inst} {a:#x} {b:#x} on {t}");
            assert_eq!(wave.scc, scc, "{inst} {a:#x} {b:#x} on {t}: carry");
        }
    }
}

/// An f32 in lane 0 of `v0` after `inst v0, v1, v2[, v3]` with the given sources.
fn f32_result(target: Target, wave: WaveSize, inst: &str, sources: &[u32]) -> u32 {
    let regs: Vec<String> = (1..=sources.len()).map(|i| format!("v{i}")).collect();
    let body = format!("\t{inst} v0, {}", regs.join(", "));
    run_one(target, wave, &body, sources, &[]).v(0, 0)
}

const ONE: u32 = 0x3f80_0000;
const TWO: u32 = 0x4000_0000;
const THREE: u32 = 0x4040_0000;
const INF: u32 = 0x7f80_0000;
const NEG_INF: u32 = 0xff80_0000;
const NEG_ZERO: u32 = 0x8000_0000;
const SNAN: u32 = 0x7f80_0001;

#[test]
fn three_source_min_max() {
    // V_MIN3_F32 = v_min_f32(v_min_f32(S0, S1), S2), V_MAX3_F32 likewise ("RDNA3 ISA",
    // "AMD GCN3 ISA"), in IEEE mode: a quiet NaN loses to a number, a signalling NaN gives
    // itself quieted, -0 orders below +0.
    let min3 = [
        ([THREE, ONE, TWO], ONE, "the smallest"),
        ([NEG_ZERO, 0, ONE], NEG_ZERO, "-0 below +0"),
        ([0x7fc0_0000, ONE, TWO], ONE, "a quiet NaN loses"),
        // min(sNaN, 1) = the quieted NaN, then min(qNaN, 2) = 2: the composition the
        // manual writes, not "NaN if any source is".
        (
            [SNAN, ONE, TWO],
            TWO,
            "a signalling NaN first is quieted, then loses",
        ),
        (
            [ONE, TWO, SNAN],
            0x7fc0_0001,
            "a signalling NaN last is returned quieted",
        ),
        (
            [0x7fc0_0001, 0x7fc0_0002, 0x7fc0_0003],
            0x7fc0_0003,
            "all quiet NaNs: each step returns its second operand",
        ),
        (
            [0x0000_0001, 0x8000_0001, ONE],
            0x8000_0001,
            "denormals are kept",
        ),
        ([NEG_INF, ONE, INF], NEG_INF, "-inf"),
    ];
    let max3 = [
        ([THREE, ONE, TWO], THREE, "the largest"),
        ([NEG_ZERO, 0, 0xbf80_0000], 0, "+0 above -0 and -1"),
        ([INF, 0x7fc0_0000, ONE], INF, "a quiet NaN loses to inf"),
        (
            [SNAN, ONE, TWO],
            TWO,
            "a signalling NaN first is quieted, then loses",
        ),
    ];
    for (t, w) in ALL {
        for (inst, cases) in [("v_min3_f32", &min3[..]), ("v_max3_f32", &max3[..])] {
            for (sources, expected, why) in cases {
                let got = f32_result(t, w, inst, sources);
                assert_eq!(got, *expected, "{inst} {sources:#x?} on {t}: {why}");
            }
        }
        // Source modifiers apply before the comparisons: min(-|3|, 1, 2) = -3.
        let wave = run_one(
            t,
            w,
            "\tv_min3_f32 v0, -|v1|, v2, v3",
            &[THREE, ONE, TWO],
            &[],
        );
        assert_eq!(wave.v(0, 0), 0xc040_0000, "{t}: -|3.0|");
        // The integer forms: S0 = 5, S1 = -3, S2 = 2 (signed), 0xfffffffd unsigned.
        for (inst, expected) in [
            ("v_min3_i32", (-3i32) as u32),
            ("v_max3_i32", 5),
            ("v_min3_u32", 2),
            ("v_max3_u32", (-3i32) as u32),
        ] {
            let got = f32_result(t, w, inst, &[5, (-3i32) as u32, 2]);
            assert_eq!(got, expected, "{inst} on {t}");
        }
    }
}

#[test]
fn dx9_multiply() {
    // V_MUL_LEGACY_F32 ("AMD GCN3 ISA": DX9 rules, 0.0 * x = 0.0), RDNA 3's
    // V_MUL_DX9_ZERO_F32 ("RDNA3 ISA": if S0 == 0.0 or S1 == 0.0 then D0 = 0.0F else
    // S0 * S1): a zero source gives +0 whatever the other is.
    let cases = [
        ([0, INF], 0, "0 * inf is +0, not NaN"),
        ([0x7fc0_0000, 0], 0, "NaN * 0 is +0"),
        ([SNAN, NEG_ZERO], 0, "sNaN * -0 is +0"),
        ([NEG_ZERO, 0x40a0_0000], 0, "-0 * 5 is +0, not -0"),
        ([NEG_INF, NEG_ZERO], 0, "-inf * -0 is +0"),
        ([TWO, THREE], 0x40c0_0000, "2 * 3 = 6"),
        ([0xc000_0000, THREE], 0xc0c0_0000, "-2 * 3 = -6"),
        (
            [0x7fc0_0001, TWO],
            0x7fc0_0001,
            "a NaN times a number is that NaN",
        ),
        ([SNAN, TWO], 0x7fc0_0001, "quieted"),
        (
            [0x0000_0001, INF],
            INF,
            "a denormal is not zero: denormal * inf = inf",
        ),
        ([INF, TWO], INF, "inf * 2"),
    ];
    for (t, w) in ALL {
        let inst = if t == Target::Gfx1100 {
            "v_mul_dx9_zero_f32"
        } else {
            "v_mul_legacy_f32"
        };
        for (sources, expected, why) in cases {
            for form in ["_e32", "_e64"] {
                let got = f32_result(t, w, &format!("{inst}{form}"), &sources);
                assert_eq!(got, expected, "{inst}{form} {sources:#x?} on {t}: {why}");
            }
        }
        // The modifiers come first: -|0| is still zero, so the product is +0.
        let wave = run_one(t, w, &format!("\t{inst}_e64 v0, -|v1|, v2"), &[0, INF], &[]);
        assert_eq!(wave.v(0, 0), 0, "{t}: -|0| * inf");
        // ACO's `v_mul_legacy_f32 v40, 0x7f800000, v36`: inf times a zero lane is +0.
        let wave = run_one(t, w, &format!("\t{inst}_e32 v0, 0x7f800000, v1"), &[0], &[]);
        assert_eq!(wave.v(0, 0), 0, "{t}: inf * 0");
    }
}

#[test]
fn exec_masked_swap() {
    // V_SWAP_B32 ("RDNA2 ISA", "RDNA3 ISA"): tmp = D0; D0 = S0; S0 = tmp, in the active
    // lanes only. Lanes 0 and 2 of 0..3 are active.
    for (t, w) in RDNA {
        let text = "main:\n\tv_swap_b32 v1, v2\n\ts_endpgm\n";
        let p = parse(text, t, w).unwrap();
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            exec: Some(0b0101),
            vgprs: vec![
                (1, LaneValues::PerLane(vec![10, 11, 12, 13])),
                (2, LaneValues::PerLane(vec![20, 21, 22, 23])),
            ],
            ..Default::default()
        };
        let wave = m.run("main", &[setup]).unwrap().expect("one wave");
        let lanes = |r: u16| (0..4).map(|l| wave.v(r, l)).collect::<Vec<_>>();
        assert_eq!(
            lanes(1),
            [20, 11, 22, 13],
            "{t}: v1 takes v2 in lanes 0 and 2"
        );
        assert_eq!(
            lanes(2),
            [10, 21, 12, 23],
            "{t}: v2 takes v1 in lanes 0 and 2"
        );
        // A register swapped with itself keeps its value.
        let wave = run_one(t, w, "\tv_swap_b32 v1, v1", &[7], &[]);
        assert_eq!(wave.v(1, 0), 7, "{t}");
    }
}
