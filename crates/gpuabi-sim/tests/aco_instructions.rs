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

/// The ten classes of V_CMP_CLASS_* ("AMD GCN3 ISA", "RDNA3 ISA", VOPC): mask bit 0
/// signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
/// 8 +normal, 9 +inf; with an f16 example of each.
const F16_CLASSES: [(u32, u32, &str); 10] = [
    (0x7c01, 0, "signalling NaN (quiet bit 9 clear)"),
    (0x7e00, 1, "quiet NaN"),
    (0xfc00, 2, "-inf"),
    (0xbc00, 3, "-1.0"),
    (0x8001, 4, "-denormal"),
    (0x8000, 5, "-0"),
    (0x0000, 6, "+0"),
    (0x03ff, 7, "the largest +denormal"),
    (0x3c00, 8, "+1.0"),
    (0x7c00, 9, "+inf"),
];

#[test]
fn f16_class_tests() {
    // V_CMP_CLASS_F16: the class of S0[15:0] as an f16, tested against the mask S1.
    for (t, w) in ALL {
        let vcc = if w == WaveSize::W64 { "vcc" } else { "vcc_lo" };
        for (value, bit, why) in F16_CLASSES {
            // The value's own bit gives true, every other bit false; bits 31:16 of the
            // VGPR do not matter.
            for (mask, expected) in [(1 << bit, 1), (0x3ff & !(1 << bit), 0)] {
                let body = format!("\tv_cmp_class_f16_e32 {vcc}, v1, v2");
                let wave = run_one(t, w, &body, &[0xabcd_0000 | value, mask], &[]);
                assert_eq!(
                    s(&wave, 106) & 1,
                    expected,
                    "{value:#06x} ({why}), mask {mask:#x} on {t}"
                );
            }
        }
        // The modifiers act on the f16 sign, bit 15: -(+1.0) is -normal, |-inf| is +inf,
        // -|+inf| is -inf.
        for (src, value, bit) in [
            ("-v1", 0x3c00, 3),
            ("|v1|", 0xfc00, 9),
            ("-|v1|", 0x7c00, 2),
        ] {
            let body = format!("\tv_cmp_class_f16_e64 {vcc}, {src}, v2");
            let wave = run_one(t, w, &body, &[value, 1 << bit], &[]);
            assert_eq!(s(&wave, 106) & 1, 1, "{src} of {value:#06x} on {t}");
        }
        // An inline float is its f16 value: 1.0 is 0x3c00 (+normal), not the low half of
        // the f32 0x3f800000 (+0); the integer -1 is 0xffff, a quiet NaN.
        for (src, bit) in [("1.0", 8), ("-1", 1), ("0x7c01", 0)] {
            let body = format!("\tv_cmp_class_f16_e32 {vcc}, {src}, v1");
            let wave = run_one(t, w, &body, &[1 << bit], &[]);
            assert_eq!(s(&wave, 106) & 1, 1, "{src} on {t}");
        }
    }
}

#[test]
fn f32_class_tests_into_exec() {
    // V_CMPX_CLASS_F32 (GCN's also writes the named mask): the ten classes of
    // F16_CLASSES' bits, each tested with its own bit (true) and all the others (false).
    let classes: [(u32, u32, &str); 10] = [
        (0x7f80_0001, 0, "signalling NaN (quiet bit 22 clear)"),
        (0xffc0_0000, 1, "quiet NaN, sign set"),
        (NEG_INF, 2, "-inf"),
        (0xbf80_0000, 3, "-1.0"),
        (0x8000_0001, 4, "-denormal"),
        (NEG_ZERO, 5, "-0"),
        (0, 6, "+0"),
        (0x007f_ffff, 7, "the largest +denormal"),
        (0x0080_0000, 8, "the smallest +normal"),
        (INF, 9, "+inf"),
    ];
    for (t, w) in ALL {
        let inst = if t.is_rdna() {
            "v_cmpx_class_f32_e64 v1, v2"
        } else {
            "v_cmpx_class_f32_e64 s[4:5], v1, v2"
        };
        for (value, bit, why) in classes {
            for (mask, expected) in [(1 << bit, 1), (0x3ff & !(1 << bit), 0)] {
                let wave = run_one(t, w, &format!("\t{inst}"), &[value, mask], &[]);
                assert_eq!(
                    wave.exec(),
                    expected,
                    "{value:#010x} ({why}), mask {mask:#x} on {t}"
                );
                if !t.is_rdna() {
                    assert_eq!(s(&wave, 4), expected as u32, "{t}: the mask too");
                }
            }
        }
    }
}

#[test]
fn class_tests_into_exec() {
    // V_CMPX_CLASS_F32 / V_CMPX_CLASS_F16 on RDNA: EXEC = the class test in the active
    // lanes ("RDNA3 ISA"). Lanes 0-3 active; S1 per lane selects -inf (bit 2), +normal (8),
    // quiet NaN (1), signalling NaN (0).
    let masks = vec![1 << 2, 1 << 8, 1 << 1, 1 << 0];
    for (t, w) in RDNA {
        for (inst, src0, expected) in [
            // ACO's forms: -1 is 0xffffffff, a quiet NaN; 0xff800000 is -inf.
            ("v_cmpx_class_f32_e32", "-1", 0b0100),
            ("v_cmpx_class_f32_e32", "0xff800000", 0b0001),
            ("v_cmpx_class_f32_e64", "1.0", 0b0010),
            // The f16 signalling NaN 0x7c01 of ACO's `v_cmpx_class_f16_e32 0x7c01, v1`.
            ("v_cmpx_class_f16_e32", "0x7c01", 0b1000),
            ("v_cmpx_class_f16_e64", "-4.0", 0),
        ] {
            let text = format!("main:\n\t{inst} {src0}, v1\n\ts_endpgm\n");
            let p = parse(&text, t, w).unwrap();
            let mut m = Machine::new(Image::new(&p).unwrap());
            let setup = WaveSetup {
                exec: Some(0b1111),
                vgprs: vec![(1, LaneValues::PerLane(masks.clone()))],
                ..Default::default()
            };
            let wave = m.run("main", &[setup]).unwrap().expect("one wave");
            assert_eq!(wave.exec(), expected, "{inst} {src0} on {t}");
        }
    }
}

#[test]
fn gcn_compares_write_the_mask_and_exec() {
    // GCN3's V_CMPX_*: "write VCC (or SDST) and EXEC" ("AMD GCN3 ISA", VOPC), with 0 in the
    // inactive lanes of both. Lanes 0-2 of 0-3 start active.
    let t = Target::Gfx8;
    let w = WaveSize::W64;
    let run = |body: &str, vgprs: Vec<(u16, Vec<u32>)>, sgprs: Vec<(u16, u32)>| {
        let text = format!("main:\n{body}\n\ts_endpgm\n");
        let p = parse(&text, t, w).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            exec: Some(0b0111),
            vgprs: vgprs
                .into_iter()
                .map(|(r, v)| (r, LaneValues::PerLane(v)))
                .collect(),
            sgprs,
            ..Default::default()
        };
        m.run("main", &[setup]).unwrap().expect("one wave")
    };
    let m1 = u32::MAX;
    // ACO's `v_cmpx_eq_i32_e32 vcc, -1, v9`: lanes 0 and 1 equal -1; lane 3 too but
    // inactive.
    let wave = run(
        "\tv_cmpx_eq_i32_e32 vcc, -1, v9",
        vec![(9, vec![m1, m1, 0, m1])],
        vec![],
    );
    assert_eq!(wave.exec(), 0b0011);
    assert_eq!((s(&wave, 106), s(&wave, 107)), (0b0011, 0), "vcc = exec");
    // `v_cmpx_ge_i32_e64 s[32:33], v58, v57`: the mask into s[32:33].
    let wave = run(
        "\tv_cmpx_ge_i32_e64 s[32:33], v58, v57",
        vec![(58, vec![5, (-5i32) as u32, 7, 9]), (57, vec![5, 0, 8, 0])],
        vec![(32, 0xffff), (33, 0xffff)],
    );
    assert_eq!(
        wave.exec(),
        0b0001,
        "5 >= 5; -5 < 0; 7 < 8; lane 3 inactive"
    );
    assert_eq!((s(&wave, 32), s(&wave, 33)), (0b0001, 0));
    // `v_cmpx_ngt_f32_e32 vcc, 0, v37`: !(0 > x), so true for x >= 0 and for NaN.
    let wave = run(
        "\tv_cmpx_ngt_f32_e32 vcc, 0, v37",
        vec![(37, vec![0xbf80_0000, 0x7fc0_0000, 0, ONE])],
        vec![],
    );
    assert_eq!(
        wave.exec(),
        0b0110,
        "-1 < 0 false; NaN true; 0 true; lane 3 inactive"
    );
    assert_eq!(s(&wave, 106), 0b0110);
    // `v_cmpx_class_f32_e64 s[26:27], s26, v1`: S0 is read before SDST is written; s26 =
    // 0x7fc00000 is a quiet NaN.
    let wave = run(
        "\tv_cmpx_class_f32_e64 s[26:27], s26, v1",
        vec![(1, vec![1 << 1, 1 << 0, 0x3ff, 1 << 1])],
        vec![(26, 0x7fc0_0000), (27, 0)],
    );
    assert_eq!(wave.exec(), 0b0101);
    assert_eq!((s(&wave, 26), s(&wave, 27)), (0b0101, 0));
    // `v_cmpx_class_f16_e32 vcc, 0x7c01, v9` and a 64-bit compare.
    let wave = run(
        "\tv_cmpx_class_f16_e32 vcc, 0x7c01, v9",
        vec![(9, vec![1, 2, 1, 1])],
        vec![],
    );
    assert_eq!((wave.exec(), s(&wave, 106)), (0b0101, 0b0101));
    let wave = run(
        "\tv_cmpx_lt_u64_e64 s[10:11], v[1:2], v[3:4]",
        vec![
            (1, vec![0, 5, 0, 0]),
            (2, vec![1, 0, 2, 0]),
            (3, vec![0, 5, m1, 9]),
            (4, vec![2, 0, 1, 0]),
        ],
        vec![],
    );
    assert_eq!(
        wave.exec(),
        0b0001,
        "2^32 < 2^33; 5 < 5 false; 2^33 < 2^33 - 1 false"
    );
    assert_eq!(s(&wave, 10), 0b0001);
}

#[test]
fn scc_as_a_source() {
    // `src_scc` (operand code 253, "AMD GCN3 ISA" and "RDNA3 ISA", "Scalar Operands"): SCC
    // read as the 32-bit value 0 or 1, in scalar and vector sources alike.
    for (t, w) in ALL {
        for scc in [false, true] {
            let set = if scc {
                "s_cmp_eq_u32 s1, s1"
            } else {
                "s_cmp_lg_u32 s1, s1"
            };
            let body = format!(
                "\t{set}\n\ts_mov_b32 s9, src_scc\n\tv_mov_b32 v0, src_scc\n\
                 \ts_add_u32 s7, s3, src_scc\n\ts_mov_b32 s8, src_scc\n\t{set}\n\
                 \ts_or_b32 s10, src_scc, s2"
            );
            let wave = run_one(t, w, &body, &[], &[0, 0x100, u32::MAX]);
            let v = u32::from(scc);
            assert_eq!(s(&wave, 9), v, "{t}: s_mov_b32 from SCC = {scc}");
            assert_eq!(s(&wave, 10), 0x100 | v, "{t}: s_or_b32 with SCC = {scc}");
            assert_eq!(wave.v(0, 0), v, "{t}: v_mov_b32 from SCC = {scc}");
            // ACO's carry: 0xffffffff + SCC wraps to 0 with a carry out when SCC is set.
            assert_eq!(s(&wave, 7), u32::MAX.wrapping_add(v), "{t}");
            assert_eq!(s(&wave, 8), v, "{t}: the add's carry");
            // s_or_b32 then sets SCC = D != 0.
            assert!(wave.scc, "{t}");
        }
    }
}

#[test]
fn modified_constants() {
    // `neg(1)`: the inline integer 1 (0x00000001, the smallest positive denormal as an f32)
    // with its sign bit flipped, 0x80000001, the smallest negative denormal: class bit 4
    // ("AMD GCN3 ISA", V_CMP_CLASS_F32). ACO writes it on gfx8.
    let t = Target::Gfx8;
    let w = WaveSize::W64;
    let wave = run_one(
        t,
        w,
        "\tv_cmp_class_f32_e64 s[28:29], neg(1), v1\n\tv_cmp_class_f32_e64 s[30:31], neg(1), v2\n\
         \tv_add_f32_e64 v0, neg(1), v3\n\tv_mul_f32_e64 v4, |-2.0|, neg(0.5)",
        &[1 << 4, 1 << 7, 0],
        &[],
    );
    assert_eq!(s(&wave, 28) & 1, 1, "-denormal");
    assert_eq!(s(&wave, 30) & 1, 0, "not +denormal");
    assert_eq!(
        wave.v(0, 0),
        0x8000_0001,
        "-denormal + 0 keeps the denormal"
    );
    assert_eq!(wave.v(4, 0), 0xbf80_0000, "|-2| * -0.5 = -1");
    // In SDWA (RDNA 2): ACO's `v_cmp_class_f32_sdwa s26, neg(1), v71 src0_sel:DWORD
    // src1_sel:BYTE_3`: the mask is byte 3 of v71.
    for (mask, expected) in [(0x1000_0000, 1), (0x0000_0010, 0), (0x8000_0000, 0)] {
        let wave = run_one(
            Target::Gfx1030,
            WaveSize::W32,
            "\tv_cmp_class_f32_sdwa s26, neg(1), v1 src0_sel:DWORD src1_sel:BYTE_3",
            &[mask],
            &[],
        );
        assert_eq!(
            s(&wave, 26) & 1,
            expected,
            "mask {mask:#x}: byte 3 is the mask"
        );
    }
    // SDWA f32 modifiers on VGPRs: -(1.0) + |-2.0| = 1.0, on gfx8 and gfx1030.
    for (t, w) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
    ] {
        let wave = run_one(
            t,
            w,
            "\tv_add_f32_sdwa v0, -v1, |v2| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
            &[ONE, 0xc000_0000],
            &[],
        );
        assert_eq!(wave.v(0, 0), ONE, "{t}");
    }
    // An inline constant and an SGPR as SDWA sources (RDNA 2): 1 | byte 1 of s2.
    let wave = run_one(
        Target::Gfx1030,
        WaveSize::W32,
        "\tv_or_b32_sdwa v0, 1, s1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_1",
        &[],
        &[0xabcd],
    );
    assert_eq!(wave.v(0, 0), 0xab, "1 | 0xab");
}

/// RDNA 3's LDS traversal stack as RADV's traversal uses it (`ds_bvh_stack_rtn_b32`, see
/// `gpuabi_sim::exec::bvh_stack` for the rules and their sources), in lanes 0 and 32 of a
/// wave64, whose stacks RADV places at dword bases 0 and 512 + 0
/// (`radv_build_bvh_stack_rtn_addr`: 16 entries of 32 lanes × 4 bytes per group of 32
/// lanes). A box's children 10 and 11 (the others missed, the last visited node invalid)
/// push 10 and return 11 with the index 1; a triangle (last visited node 0xfffffffe) pops
/// 10 and brings the index back to 0; the next pop finds the stack empty and returns
/// 0xfffffffe. The popped entry reads 0xffffffff afterwards.
#[test]
fn the_bvh_stack_pushes_and_pops_per_lane() {
    let body = "\tds_bvh_stack_rtn_b32 v22, v1, v2, v[40:43] offset:4096\n\
                \tv_mov_b32 v30, v22\n\tv_mov_b32 v31, v1\n\
                \tds_bvh_stack_rtn_b32 v22, v1, v3, v[40:43] offset:4096\n\
                \tv_mov_b32 v32, v22\n\tv_mov_b32 v33, v1\n\
                \tds_bvh_stack_rtn_b32 v22, v1, v3, v[40:43] offset:4096\n\
                \tv_lshrrev_b32 v4, 16, v1\n\tds_load_b32 v34, v4\n\ts_waitcnt lgkmcnt(0)";
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, Target::Gfx1100, WaveSize::W64).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let mut addr = vec![0u32; 64];
    addr[32] = 512 << 18;
    let setup = WaveSetup {
        exec: Some(1 | 1 << 32),
        vgprs: vec![
            (1, LaneValues::PerLane(addr)),
            (2, LaneValues::Uniform(0xffff_ffff)),
            (3, LaneValues::Uniform(0xffff_fffe)),
            (40, LaneValues::Uniform(10)),
            (41, LaneValues::Uniform(11)),
            (42, LaneValues::Uniform(0xffff_ffff)),
            (43, LaneValues::Uniform(0xffff_ffff)),
        ],
        lds_bytes: 4096,
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    for (lane, base) in [(0, 0u32), (32, 512)] {
        assert_eq!(
            w.v(30, lane),
            11,
            "lane {lane}: DATA1[1] last pushed, popped"
        );
        assert_eq!(w.v(31, lane), base << 18 | 1, "lane {lane}: one entry");
        assert_eq!(w.v(32, lane), 10, "lane {lane}");
        assert_eq!(w.v(33, lane), base << 18, "lane {lane}: empty again");
        assert_eq!(w.v(22, lane), 0xffff_fffe, "lane {lane}: the terminal node");
        assert_eq!(w.v(1, lane), base << 18, "lane {lane}");
        // v4 = the address >> 16 = base * 4 bytes: entry 0, popped.
        assert_eq!(w.v(34, lane), 0xffff_ffff, "lane {lane}");
    }
    assert_eq!(m.stats.lds_out_of_range, 0);
}

/// RDNA 3's true16 `v_mov_b16` ("RDNA3 ISA", V_MOV_B16: `D0.b16 = S0.b16`; "16-bit Math and
/// VGPRs": `v1.l` is bits 15:0, `v1.h` bits 31:16): only the named half of the destination
/// changes, from the named half of the source; a constant's 16 bits, and an SGPR's bits
/// 15:0.
#[test]
fn true16_moves_write_one_half() {
    let body = "\tv_mov_b16_e32 v1.h, v2.l\n\tv_mov_b16_e32 v3.l, 0x804c\n\
                \tv_mov_b16_e32 v4.l, v5.h\n\tv_mov_b16 v6.h, s1\n\tv_mov_b16 v7.l, -1";
    let v = [
        0x1111_2222,
        0x3333_4444,
        0xaaaa_bbbb,
        0xcccc_dddd,
        0x1234_5678,
        0x0000_0000,
        0x5555_6666,
    ];
    let w = run_one(Target::Gfx1100, WaveSize::W32, body, &v, &[0x9876_5432]);
    assert_eq!(w.v(1, 0), 0x4444_2222);
    assert_eq!(w.v(2, 0), 0x3333_4444, "the source is unchanged");
    assert_eq!(w.v(3, 0), 0xaaaa_804c);
    assert_eq!(w.v(4, 0), 0xcccc_1234);
    assert_eq!(w.v(6, 0), 0x5432_0000);
    assert_eq!(w.v(7, 0), 0x5555_ffff);
}

/// A 32-bit box node in memory, tested by `image_bvh64_intersect_ray` (NSA address, as
/// RADV's code on gfx1030 and gfx1100 writes it) and `image_bvh_intersect_ray` (a
/// sequential address): a ray from the origin along +x with extent 10 enters the boxes at
/// x = 5 and x = 2 (children 11 and 12), not the one behind it (13) nor the one beyond its
/// extent (14); with box sorting on, nearest first, the misses as 0xffffffff after them.
#[test]
fn ray_box_test_returns_the_children_hit_nearest_first() {
    let mut node = Vec::new();
    for c in [11u32, 12, 13, 14] {
        node.extend_from_slice(&c.to_le_bytes());
    }
    for x in [5.0f32, 2.0, -3.0, 20.0] {
        for v in [x, -1.0, -1.0, x + 1.0, 1.0, 1.0] {
            node.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    node.resize(128, 0);
    let base = 0x1_0000_0000u64;
    let ptr = (base >> 3) | 5;
    let ray = [
        10.0f32,
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        1.0,
        f32::INFINITY,
        f32::INFINITY,
    ];
    let cases = [
        (
            Target::Gfx1030,
            WaveSize::W32,
            "image_bvh64_intersect_ray v[40:43], [v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31], s[16:19]",
            true,
        ),
        (
            Target::Gfx1100,
            WaveSize::W32,
            "image_bvh64_intersect_ray v[40:43], [v[20:21], v22, v[23:25], v[26:28], v[29:31]], s[16:19]",
            true,
        ),
        (
            Target::Gfx1100,
            WaveSize::W64,
            "image_bvh_intersect_ray v[40:43], v[21:31], s[16:19]",
            false,
        ),
    ];
    for (t, w, inst, wide) in cases {
        let text = format!("main:\n\t{inst}\n\ts_endpgm\n");
        let p = parse(&text, t, w).unwrap_or_else(|e| panic!("{t}: {e}"));
        let mut m = Machine::new(Image::new(&p).unwrap());
        m.memory
            .add_at("node", base, node.clone(), 1 << 20)
            .unwrap();
        let mut vgprs = Vec::new();
        if wide {
            vgprs.push((20, LaneValues::Uniform(ptr as u32)));
            vgprs.push((21, LaneValues::Uniform((ptr >> 32) as u32)));
        } else {
            // The 32-bit node pointer counts from the resource's base.
            vgprs.push((21, LaneValues::Uniform(5)));
        }
        for (k, v) in ray.iter().enumerate() {
            vgprs.push((22 + k as u16, LaneValues::Uniform(v.to_bits())));
        }
        let resource_base = if wide { 0 } else { (base >> 8) as u32 };
        let setup = WaveSetup {
            sgprs: vec![
                (16, resource_base),
                (17, 1 << 31),
                (18, u32::MAX),
                (19, 1 << 24 | 1 << 31),
            ],
            vgprs,
            ..Default::default()
        };
        let wave = m.run("main", &[setup]).unwrap().unwrap();
        let got: Vec<u32> = (40..44).map(|r| wave.v(r, 0)).collect();
        assert_eq!(got, [12, 11, u32::MAX, u32::MAX], "{t} {w:?}: {inst}");
    }
}

#[test]
fn nlt_compares_and_the_u16_conversion() {
    // "RDNA3 ISA", V_CMPX_NLT_F32: EXEC = !(S0 < S1), true for NaN. RADV's intersection
    // shaders (the project's capture) write `v_cmpx_nlt_f32_e32 v97, v103`. Lanes 0-3 of
    // 0-4 start active; lane 4 compares true but stays inactive.
    for (t, w) in RDNA {
        let text = "main:\n\tv_cmpx_nlt_f32_e32 v1, v2\n\ts_endpgm\n";
        let p = parse(text, t, w).unwrap();
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            exec: Some(0b01111),
            vgprs: vec![
                (1, LaneValues::PerLane(vec![ONE, 0, 0x7fc0_0000, ONE, ONE])),
                (2, LaneValues::PerLane(vec![ONE, ONE, 0, 0x4000_0000, 0])),
            ],
            ..Default::default()
        };
        let wave = m.run("main", &[setup]).unwrap().expect("one wave");
        assert_eq!(wave.exec(), 0b0101, "{t}: 1 < 1 false; 0 < 1; NaN; 1 < 2");
    }
    // "RDNA3 ISA", V_CVT_U32_U16: D0.u32 = 32'U(S0.u16): the high half of the source is
    // dropped.
    let wave = run_one(
        Target::Gfx1100,
        WaveSize::W32,
        "\tv_cvt_u32_u16_e32 v3, v1",
        &[0xabcd_8765],
        &[],
    );
    assert_eq!(wave.v(3, 0), 0x8765);
}
