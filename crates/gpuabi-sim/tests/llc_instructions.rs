//! Instructions LLVM's AMDGPU back end emits that the model gained for them: three-source
//! integer and bit-field instructions, medians and scheduling hints. Expected values are
//! worked out by hand from the pseudocode of AMD's ISA reference guides named per case.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, Stats, WaveSetup};

const RDNA: [(Target, WaveSize); 2] = [
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W64),
];
const ALL: [(Target, WaveSize); 3] = [
    (Target::Gfx8, WaveSize::W64),
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W64),
];

/// Runs `body` with v1.. set to `sources` in every lane; returns v0 of lane 0 and the stats.
fn run(target: Target, wave: WaveSize, body: &str, sources: &[u32]) -> (u32, Stats) {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        vgprs: (1u16..)
            .zip(sources.iter().map(|v| LaneValues::Uniform(*v)))
            .collect(),
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    (w.v(0, 0), m.stats.clone())
}

fn check(targets: &[(Target, WaveSize)], inst: &str, sources: &[u32], expected: u32, why: &str) {
    let body = format!("\t{inst} v0, v1, v2, v3");
    for (t, w) in targets {
        let (got, _) = run(*t, *w, &body, sources);
        assert_eq!(got, expected, "{inst} {sources:#x?} on {t}: {why}");
    }
}

#[test]
fn three_source_integer_and_bit_field() {
    // V_ADD3_U32: D0 = S0 + S1 + S2 (wrapping).
    check(
        &RDNA,
        "v_add3_u32",
        &[u32::MAX, 2, 3],
        4,
        "0xffffffff + 2 + 3 wraps to 4",
    );
    // V_LSHL_ADD_U32: D0 = (S0 << S1[4:0]) + S2.
    check(
        &RDNA,
        "v_lshl_add_u32",
        &[3, 34, 1],
        13,
        "(3 << 2) + 1; the amount is S1[4:0]",
    );
    // V_BFE_U32: D0 = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1).
    check(&ALL, "v_bfe_u32", &[0xabcd_1234, 8, 8], 0x12, "byte 1");
    check(&ALL, "v_bfe_u32", &[0xabcd_1234, 8, 0], 0, "width 0");
    // V_BFE_I32: the same field, sign-extended from bit S2[4:0] - 1.
    check(
        &ALL,
        "v_bfe_i32",
        &[0xabcd_1234, 16, 8],
        0xffff_ffcd,
        "0xcd has its sign bit set",
    );
    check(
        &ALL,
        "v_bfe_i32",
        &[0xabcd_1234, 8, 8],
        0x12,
        "0x12 is positive",
    );
    // V_BFI_B32: D0 = (S0 & S1) | (~S0 & S2).
    check(
        &ALL,
        "v_bfi_b32",
        &[0x0000_ffff, 0x1234_5678, 0xabcd_ef01],
        0xabcd_5678,
        "low half from S1",
    );
}

#[test]
fn medians() {
    // V_MED3_I32/U32: the median of the three.
    check(
        &ALL,
        "v_med3_i32",
        &[u32::MAX, 5, 2],
        2,
        "median of -1, 5, 2",
    );
    check(
        &ALL,
        "v_med3_u32",
        &[u32::MAX, 5, 2],
        5,
        "median of 0xffffffff, 5, 2",
    );
    check(&ALL, "v_med3_i32", &[7, 7, 1], 7, "a repeated maximum");
    let f = |x: f32| x.to_bits();
    check(
        &ALL,
        "v_med3_f32",
        &[f(3.0), f(-1.0), f(0.5)],
        f(0.5),
        "median of 3, -1, 0.5",
    );
    check(
        &ALL,
        "v_med3_f32",
        &[f(-2.0), f(-4.0), f(8.0)],
        f(-2.0),
        "median of -2, -4, 8",
    );
    // A NaN operand: min(min(S0, S1), S2) with the IEEE-mode v_min_f32, where a quiet NaN
    // gives the other operand: min(min(qNaN, 4), 1) = 1.
    check(
        &ALL,
        "v_med3_f32",
        &[0x7fc0_0000, f(4.0), f(1.0)],
        f(1.0),
        "quiet NaN S0",
    );
    // A signalling NaN comes back quieted: min(min(2, sNaN), 9) = min(qNaN', 9) = 9.
    check(
        &ALL,
        "v_med3_f32",
        &[f(2.0), 0x7f80_0001, f(9.0)],
        f(9.0),
        "signalling NaN S1",
    );
    // The clamp LLVM makes of max(x, lo) then min(.., hi): med3(x, -8, 7).
    check(
        &ALL,
        "v_med3_f32",
        &[f(100.0), f(-8.0), f(7.0)],
        f(7.0),
        "clamped above",
    );
}

#[test]
fn scheduling_hints_run_as_counted_no_ops() {
    for (target, wave, body) in [
        (
            Target::Gfx8,
            WaveSize::W64,
            "\ts_setprio 3\n\tv_mov_b32 v0, 5\n\ts_setprio 0",
        ),
        (
            Target::Gfx1030,
            WaveSize::W32,
            "\ts_inst_prefetch 3\n\ts_clause 1\n\tv_mov_b32 v0, 5\n\ts_setprio 2",
        ),
        (
            Target::Gfx1100,
            WaveSize::W32,
            "\ts_set_inst_prefetch_distance 1\n\ts_clause 1\n\tv_mov_b32 v0, 5",
        ),
    ] {
        let (v0, stats) = run(target, wave, body, &[]);
        assert_eq!(v0, 5, "{target}");
        assert_eq!(
            stats.scheduling_hints,
            body.matches("\ts_").count() as u64,
            "{target}"
        );
    }
}

#[test]
fn gfx11_kernel_tail_runs() {
    // A store, its wait, the VGPR deallocation message and the hints llc puts around them.
    let body = "\tv_mov_b32 v0, 7\n\
                \ts_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)\n\
                \tv_add_nc_u32 v0, v0, 1\n\
                \ts_waitcnt vmcnt(0) & lgkmcnt(0)\n\
                \ts_waitcnt_vscnt null, 0x0\n\
                \ts_nop 0\n\
                \ts_sendmsg sendmsg(MSG_DEALLOC_VGPRS)";
    let (v0, stats) = run(Target::Gfx1100, WaveSize::W32, body, &[]);
    assert_eq!(v0, 8);
    assert_eq!(stats.scheduling_hints, 1, "s_delay_alu is the one hint");
}

#[test]
fn cmpx_writes_exec_in_the_active_lanes() {
    // V_CMPX_GT_U32 (RDNA): EXEC[lane] = S0 > S1 for active lanes; the others stay off.
    for (target, wave) in RDNA {
        let text = "main:\n\tv_cmpx_gt_u32 4, v0\n\tv_mov_b32 v1, 9\n\ts_endpgm\n";
        let p = parse(text, target, wave).unwrap();
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            exec: Some(0b1010_1010),
            vgprs: vec![(0, LaneValues::LaneId(0))],
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        // Lanes 0..3 pass 4 > lane; of those, 1 and 3 were active.
        assert_eq!(w.exec(), 0b1010, "{target}");
        assert_eq!((w.v(1, 1), w.v(1, 3), w.v(1, 0), w.v(1, 5)), (9, 9, 0, 0));
    }
    // f32: neq is true on NaN, lt false (the ordered compare).
    for (inst, expected) in [("v_cmpx_neq_f32", 1u64), ("v_cmpx_lt_f32", 0)] {
        let text = format!("main:\n\t{inst} v1, v2\n\ts_endpgm\n");
        let p = parse(&text, Target::Gfx1100, WaveSize::W32).unwrap();
        let mut m = Machine::new(Image::new(&p).unwrap());
        let setup = WaveSetup {
            exec: Some(1),
            vgprs: vec![
                (1, LaneValues::Uniform(0x7fc0_0000)),
                (2, LaneValues::Uniform(0x3f80_0000)),
            ],
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        assert_eq!(w.exec(), expected, "{inst}");
    }
}

#[test]
fn k_forms_read_their_destination() {
    // `s_addk_i32 s5, 1` reads s5: a read of a register nothing wrote is reported.
    let text = "main:\n\ts_addk_i32 s5, 1\n\ts_mov_b32 s6, 0\n\ts_mulk_i32 s6, 3\n\ts_endpgm\n";
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.track_undefined = true;
    m.run("main", &[WaveSetup::default()]).unwrap();
    let regs: Vec<String> = m.undefined.iter().map(|u| u.register.to_string()).collect();
    assert_eq!(regs, ["s5"], "s6 was written before s_mulk_i32 read it");
}

#[test]
fn fmac_and_two_step_min_max() {
    let f = |x: f32| x.to_bits();
    // V_FMAC_F32: D0 = fma(S0, S1, D0) = 2 * 3 + 1.
    for (t, w) in RDNA {
        let body = "\tv_mov_b32 v0, 1.0\n\tv_fmac_f32 v0, v1, v2";
        assert_eq!(run(t, w, body, &[f(2.0), f(3.0)]).0, f(7.0), "{t}");
        // 0 * inf: the default NaN.
        let inf = f32::INFINITY.to_bits();
        assert_eq!(run(t, w, body, &[0, inf]).0, 0x7fc0_0000, "{t}");
    }
    let gfx11 = [(Target::Gfx1100, WaveSize::W32)];
    // V_MAXMIN_F32: min(max(S0, S1), S2); V_MINMAX_F32: max(min(S0, S1), S2).
    check(
        &gfx11,
        "v_maxmin_f32",
        &[f(1.0), f(5.0), f(3.0)],
        f(3.0),
        "min(5, 3)",
    );
    check(
        &gfx11,
        "v_maxmin_f32",
        &[f(-9.0), f(-8.0), f(7.0)],
        f(-8.0),
        "llc's clamp to [-8, 7]",
    );
    check(
        &gfx11,
        "v_minmax_f32",
        &[f(4.0), f(5.0), f(3.0)],
        f(4.0),
        "max(4, 3)",
    );
    check(
        &gfx11,
        "v_minmax_f32",
        &[0x7fc0_0000, f(5.0), f(3.0)],
        f(5.0),
        "max(min(qNaN, 5), 3)",
    );
    let (v0, _) = run(
        Target::Gfx1100,
        WaveSize::W32,
        "\ts_waitcnt_depctr 0xfff\n\tv_mov_b32 v0, 2",
        &[],
    );
    assert_eq!(v0, 2);
}

/// Runs `body` on one lane with v1.. = `vgprs` and s1.. = `sgprs`; returns the wave.
fn run_one(
    target: Target,
    wave: WaveSize,
    body: &str,
    vgprs: &[u32],
    sgprs: &[u32],
) -> gpuabi_sim::Wave {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        exec: Some(1),
        vgprs: (1u16..)
            .zip(vgprs.iter().map(|v| LaneValues::Uniform(*v)))
            .collect(),
        sgprs: (1u16..).zip(sgprs.iter().copied()).collect(),
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap().expect("one wave")
}

#[test]
fn llc_integer_additions() {
    // S_MUL_HI_U32 ("RDNA2 ISA"): D0 = (S0 * S1) >> 32; 0xffffffff * 0x10 = 0xf_ffff_fff0.
    for (t, w) in RDNA {
        let wave = run_one(t, w, "\ts_mul_hi_u32 s5, s1, s2", &[], &[u32::MAX, 0x10]);
        assert_eq!(wave.s32(gpuabi_sim::image::Src::Sgpr(5)), 0xf, "{t}");
    }
    // V_OR3_B32: S0 | S1 | S2; V_XAD_U32: (S0 ^ S1) + S2 ("RDNA2 ISA", "RDNA3 ISA").
    check(&RDNA, "v_or3_b32", &[1, 0x10, 0x100], 0x111, "three bits");
    check(
        &RDNA,
        "v_xad_u32",
        &[0xff, 0x0f, u32::MAX],
        0xef,
        "0xf0 - 1, wrapping",
    );
    // V_MUL_U32_U24: S0[23:0] * S1[23:0], low 32 bits; the top bytes are ignored.
    for (t, w) in ALL {
        let wave = run_one(
            t,
            w,
            "\tv_mul_u32_u24_e32 v0, v1, v2",
            &[0xff00_0003, 0x0100_0005],
            &[],
        );
        assert_eq!(wave.v(0, 0), 15, "{t}");
        let wave = run_one(
            t,
            w,
            "\tv_mul_u32_u24_e32 v0, v1, v2",
            &[0xff_ffff, 0xff_ffff],
            &[],
        );
        assert_eq!(
            wave.v(0, 0),
            0xfe00_0001,
            "{t}: (2^24-1)^2 = 2^48 - 2^25 + 1, mod 2^32"
        );
    }
}

#[test]
fn reversed_subtractions_borrow() {
    // V_SUBREV_CO_U32 (GCN3 V_SUBREV_U32): D = S1 - S0, VCC = borrow (S0 > S1).
    // V_SUBREV_CO_CI_U32 (GCN3 V_SUBBREV_U32): D = S1 - S0 - VCC, borrow out.
    let cases = [
        (
            Target::Gfx8,
            WaveSize::W64,
            "v_subrev_u32_e32 v0, vcc, v1, v2",
            "v_subbrev_u32_e32 v3, vcc, v4, v5, vcc",
        ),
        (
            Target::Gfx1030,
            WaveSize::W32,
            "v_subrev_co_u32 v0, vcc_lo, v1, v2",
            "v_subrev_co_ci_u32_e32 v3, vcc_lo, v4, v5, vcc_lo",
        ),
        (
            Target::Gfx1100,
            WaveSize::W32,
            "v_subrev_co_u32 v0, vcc_lo, v1, v2",
            "v_subrev_co_ci_u32_e32 v3, vcc_lo, v4, v5, vcc_lo",
        ),
    ];
    for (t, w, lo, hi) in cases {
        // 64-bit 0x1_0000_0000 - 0x0_0000_0001 = 0x0_ffff_ffff: the low half borrows.
        let body = format!("\t{lo}\n\t{hi}");
        let wave = run_one(t, w, &body, &[1, 0, 0, 0, 1], &[]);
        assert_eq!((wave.v(0, 0), wave.v(3, 0)), (u32::MAX, 0), "{t}");
        assert_eq!(wave.vcc() & 1, 0, "{t}: no borrow out of the high half");
        // 0 - 1 in the high half borrows out.
        let wave = run_one(t, w, &body, &[0, 0, 0, 1, 0], &[]);
        assert_eq!((wave.v(0, 0), wave.v(3, 0)), (0, u32::MAX), "{t}");
        assert_eq!(wave.vcc() & 1, 1, "{t}");
    }
}

#[test]
fn gcn_mac_rounds_twice_and_flushes_denormals() {
    // V_MAC_F32 ("GCN3 ISA"): D = S0 * S1 + D, MAD semantics without denormals.
    let t = (Target::Gfx8, WaveSize::W64);
    let one_ulp = f32::from_bits(0x3f80_0001);
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounded to 1 + 2^-22, then - (1 + 2^-22) = 0;
    // a fused multiply-add would give 2^-46.
    let wave = run_one(
        t.0,
        t.1,
        "\tv_mac_f32_e32 v3, v1, v2",
        &[
            one_ulp.to_bits(),
            one_ulp.to_bits(),
            (-f32::from_bits(0x3f80_0002)).to_bits(),
        ],
        &[],
    );
    assert_eq!(wave.v(3, 0), 0, "rounded product");
    // 2^-100 * 2^-30 = 2^-130 is denormal: flushed, so the sum is D = 0.0.
    let wave = run_one(
        t.0,
        t.1,
        "\tv_mac_f32_e32 v3, v1, v2",
        &[2f32.powi(-100).to_bits(), 2f32.powi(-30).to_bits(), 0],
        &[],
    );
    assert_eq!(wave.v(3, 0), 0, "denormal product flushed");
    let wave = run_one(
        t.0,
        t.1,
        "\tv_mac_f32_e32 v3, v1, v2",
        &[2f32.to_bits(), 3f32.to_bits(), 1f32.to_bits()],
        &[],
    );
    assert_eq!(f32::from_bits(wave.v(3, 0)), 7.0);
}

#[test]
fn cmpx_u64_and_flat_scratch() {
    // V_CMPX_EQ_U64 / V_CMPX_NE_U64 (RDNA): EXEC = the 64-bit compare.
    for (t, w) in RDNA {
        let wave = run_one(
            t,
            w,
            "\tv_cmpx_eq_u64_e32 v[1:2], v[3:4]",
            &[5, 7, 5, 7],
            &[],
        );
        assert_eq!(wave.exec(), 1, "{t}");
        let wave = run_one(
            t,
            w,
            "\tv_cmpx_eq_u64_e32 v[1:2], v[3:4]",
            &[5, 7, 5, 8],
            &[],
        );
        assert_eq!(wave.exec(), 0, "{t}: the high halves differ");
        let wave = run_one(
            t,
            w,
            "\tv_cmpx_ne_u64_e32 v[1:2], v[3:4]",
            &[5, 7, 5, 8],
            &[],
        );
        assert_eq!(wave.exec(), 1, "{t}");
    }
    // gfx8 kernels set flat_scratch (s102/s103 in the encoding) from their inputs.
    let wave = run_one(
        Target::Gfx8,
        WaveSize::W64,
        "\ts_mov_b32 flat_scratch_lo, s1\n\ts_lshr_b32 flat_scratch_hi, s2, 8",
        &[],
        &[7, 0x300],
    );
    assert_eq!(
        (
            wave.s32(gpuabi_sim::image::Src::Sgpr(102)),
            wave.s32(gpuabi_sim::image::Src::Sgpr(103))
        ),
        (7, 3)
    );
    let e = parse(
        "\ts_mov_b32 flat_scratch_lo, s1\n",
        Target::Gfx1030,
        WaveSize::W32,
    )
    .unwrap_err();
    assert!(e.message.contains("gfx8 only"), "{e}");
}

#[test]
fn setreg_of_flat_scratch_only() {
    // S_SETREG_B32 hwreg(HW_REG_FLAT_SCR_HI) (RDNA 2 kernels set their flat scratch base):
    // it changes no register the model has; any other hardware register is refused.
    let wave = run_one(
        Target::Gfx1030,
        WaveSize::W32,
        "\ts_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s1\n\ts_mov_b32 s2, s1",
        &[],
        &[0x1234],
    );
    assert_eq!(wave.s32(gpuabi_sim::image::Src::Sgpr(2)), 0x1234);
    let e = parse(
        "\ts_setreg_b32 hwreg(HW_REG_MODE), s1\n",
        Target::Gfx1030,
        WaveSize::W32,
    )
    .unwrap_err();
    assert!(e.message.contains("HW_REG_FLAT_SCR_LO"), "{e}");
    let e = parse("\ts_setreg_b32 0x801, s1\n", Target::Gfx1030, WaveSize::W32).unwrap_err();
    assert!(
        e.message.contains("flat_scr") || e.message.contains("FLAT_SCR"),
        "{e}"
    );
}

#[test]
fn funnel_shift_and_byte_permute() {
    // V_ALIGNBIT_B32: D = ({S0, S1} >> S2[4:0])[31:0].
    let (s0, s1) = (0x1234_5678, 0x9abc_def0);
    check(
        &ALL,
        "v_alignbit_b32",
        &[s0, s1, 8],
        0x789a_bcde,
        "0x123456789abcdef0 >> 8",
    );
    check(
        &ALL,
        "v_alignbit_b32",
        &[s0, s1, 40],
        0x789a_bcde,
        "the amount is S2[4:0]",
    );
    check(&ALL, "v_alignbit_b32", &[s0, s1, 0], s1, "no shift: S1");
    // V_PERM_B32: byte k of D is byte_permute({S0, S1}, S2 byte k); bytes 0-3 are S1's.
    let (s0, s1) = (0x8899_aabb, 0x4455_6677);
    check(
        &ALL,
        "v_perm_b32",
        &[s0, s1, 0x0504_0100],
        0xaabb_6677,
        "S0's low half over S1's low half",
    );
    check(
        &ALL,
        "v_perm_b32",
        &[s0, s1, 0x0c0d_0809],
        0x00ff_0000,
        "sel 9, 8: signs of 0x44 and 0x66 (0); 13: 0xff; 12: 0",
    );
    check(
        &ALL,
        "v_perm_b32",
        &[s0, s1, 0x0b0a_0706],
        0xffff_8899,
        "sel 6, 7: S0's bytes 2 and 3; 10, 11: signs of 0xaa and 0x88",
    );
}

#[test]
fn scalar_sign_extension() {
    // S_SEXT_I32_I8 / S_SEXT_I32_I16 ("AMD GCN3 ISA", "RDNA2 ISA"): D = the sign extension
    // of S0[7:0] / S0[15:0]; SCC is not written.
    use gpuabi_sim::image::Src;
    let cases = [
        (
            "s_sext_i32_i8",
            0x1234_5680,
            0xffff_ff80,
            "byte 0x80 is negative",
        ),
        ("s_sext_i32_i8", 0xffff_ff7f, 0x7f, "byte 0x7f is positive"),
        (
            "s_sext_i32_i16",
            0xabcd_8001,
            0xffff_8001,
            "short 0x8001 is negative",
        ),
        (
            "s_sext_i32_i16",
            0xffff_7fff,
            0x7fff,
            "short 0x7fff is positive",
        ),
    ];
    for (t, w) in ALL {
        for (inst, s1, expected, why) in cases {
            let wave = run_one(t, w, &format!("\t{inst} s5, s1"), &[], &[s1]);
            assert_eq!(wave.s32(Src::Sgpr(5)), expected, "{inst} on {t}: {why}");
        }
        // SCC set by the compare survives a zero result (a `D != 0` rule would clear it).
        let wave = run_one(
            t,
            w,
            "\ts_cmp_eq_u32 s1, s1\n\ts_sext_i32_i8 s5, s1",
            &[],
            &[0x100],
        );
        assert_eq!(wave.s32(Src::Sgpr(5)), 0, "{t}");
        assert!(wave.scc, "{t}: SCC untouched");
    }
}

#[test]
fn high_halves_of_24_bit_products() {
    // V_MUL_HI_I32_I24 / V_MUL_HI_U32_U24 ("AMD GCN3 ISA"): bits [63:32] of the product of
    // the signed / unsigned fields S0[23:0] and S1[23:0]; bits [31:24] are ignored.
    let cases = [
        // -2^23 * (2^23 - 1) = -2^46 + 2^23; floor(that / 2^32) = -2^14.
        ("v_mul_hi_i32_i24", 0x1280_0000, 0x007f_ffff, 0xffff_c000),
        // -1 * 5 = -5: the high half is all ones.
        ("v_mul_hi_i32_i24", 0x00ff_ffff, 5, u32::MAX),
        // -1 * -1 = 1: the high half is zero.
        ("v_mul_hi_i32_i24", u32::MAX, 0xabff_ffff, 0),
        // (2^24 - 1)^2 = 2^48 - 2^25 + 1: bits [63:32] are 2^16 - 1.
        ("v_mul_hi_u32_u24", u32::MAX, 0x00ff_ffff, 0xffff),
        // 2^20 * 2^20 = 2^40.
        ("v_mul_hi_u32_u24", 0xff10_0000, 0x0010_0000, 0x100),
    ];
    for (t, w) in ALL {
        for (inst, a, b, expected) in cases {
            for form in ["_e32", "_e64"] {
                let wave = run_one(t, w, &format!("\t{inst}{form} v0, v1, v2"), &[a, b], &[]);
                assert_eq!(wave.v(0, 0), expected, "{inst}{form} {a:#x} {b:#x} on {t}");
            }
        }
    }
}

#[test]
fn signed_mad_i64_i32() {
    // V_MAD_I64_I32 ("RDNA3 ISA"): {D1.u1, D0.i64} = 65-bit S0.i32 * S1.i32 + S2.i64; the
    // mask bit is bit 64 of the 65-bit two's-complement sum.
    use gpuabi_sim::image::Src;
    let cases: [(u32, u32, u64, u64, u32); 4] = [
        // -1 * 5 + 3 = -2.
        (u32::MAX, 5, 3, (-2i64) as u64, 1),
        // 2 * 3 + (-10) = -4.
        (2, 3, (-10i64) as u64, (-4i64) as u64, 1),
        // (-2^31)^2 + (2^63 - 1) = 2^62 + 2^63 - 1: positive in 65 bits, bit 64 clear.
        (
            0x8000_0000,
            0x8000_0000,
            i64::MAX as u64,
            0xbfff_ffff_ffff_ffff,
            0,
        ),
        // 7 * -3 + 100 = 79.
        (7, (-3i32) as u32, 100, 79, 0),
    ];
    let forms = [
        (Target::Gfx8, WaveSize::W64, "s[10:11]"),
        (Target::Gfx1030, WaveSize::W32, "s10"),
        (Target::Gfx1100, WaveSize::W64, "s[10:11]"),
    ];
    for (t, w, mask) in forms {
        for (a, b, c, expected, carry) in cases {
            let body = format!("\tv_mad_i64_i32 v[6:7], {mask}, v1, v2, v[3:4]");
            let wave = run_one(t, w, &body, &[a, b, c as u32, (c >> 32) as u32], &[]);
            let got = u64::from(wave.v(6, 0)) | u64::from(wave.v(7, 0)) << 32;
            assert_eq!(got, expected, "{a:#x} * {b:#x} + {c:#x} on {t}");
            assert_eq!(wave.s32(Src::Sgpr(10)) & 1, carry, "bit 64 on {t}");
        }
    }
}

#[test]
fn cmpx_64_bit_integers_and_ordered_f32() {
    // V_CMPX_{op}_{U64,I64} (RDNA): EXEC = the 64-bit compare of the active lanes.
    // S0 = 0xffff_ffff_ffff_ffff (-1 signed), S1 = 1: the signed and unsigned orders differ.
    let minus_one_vs_one = [
        ("v_cmpx_lt_u64", 0),
        ("v_cmpx_gt_u64", 1),
        ("v_cmpx_ge_u64", 1),
        ("v_cmpx_eq_i64", 0),
        ("v_cmpx_ne_i64", 1),
        ("v_cmpx_lt_i64", 1),
        ("v_cmpx_le_i64", 1),
        ("v_cmpx_gt_i64", 0),
        ("v_cmpx_ge_i64", 0),
    ];
    // S0 = S1 = 0x7_0000_0005.
    let equal = [
        ("v_cmpx_lt_u64", 0),
        ("v_cmpx_gt_u64", 0),
        ("v_cmpx_ge_u64", 1),
        ("v_cmpx_eq_i64", 1),
        ("v_cmpx_ne_i64", 0),
        ("v_cmpx_lt_i64", 0),
        ("v_cmpx_le_i64", 1),
        ("v_cmpx_gt_i64", 0),
        ("v_cmpx_ge_i64", 1),
    ];
    // S0 = 2^32, S1 = 2^32 - 1: only the high halves decide.
    let high_half = [("v_cmpx_gt_u64", 1), ("v_cmpx_lt_i64", 0)];
    for (t, w) in RDNA {
        for (vgprs, cases) in [
            ([u32::MAX, u32::MAX, 1, 0], &minus_one_vs_one[..]),
            ([5, 7, 5, 7], &equal[..]),
            ([0, 1, u32::MAX, 0], &high_half[..]),
        ] {
            for (inst, expected) in cases {
                for form in ["_e32", "_e64"] {
                    let body = format!("\t{inst}{form} v[1:2], v[3:4]");
                    let wave = run_one(t, w, &body, &vgprs, &[]);
                    assert_eq!(wave.exec(), *expected, "{inst}{form} {vgprs:#x?} on {t}");
                }
            }
        }
        // V_CMPX_O_F32: true when neither source is NaN; V_CMPX_U_F32 the opposite.
        let (nan, one, two) = (0x7fc0_0000, 1f32.to_bits(), 2f32.to_bits());
        for (inst, a, b, expected) in [
            ("v_cmpx_o_f32", one, two, 1),
            ("v_cmpx_o_f32", nan, one, 0),
            ("v_cmpx_o_f32", one, nan, 0),
            ("v_cmpx_u_f32", one, nan, 1),
            ("v_cmpx_u_f32", one, two, 0),
        ] {
            for form in ["_e32", "_e64"] {
                let wave = run_one(t, w, &format!("\t{inst}{form} v1, v2"), &[a, b], &[]);
                assert_eq!(wave.exec(), expected, "{inst}{form} {a:#x} {b:#x} on {t}");
            }
        }
    }
}

#[test]
fn sdwa_compares_on_gfx1030() {
    // VOPC in SDWA form ("RDNA2 ISA", "SDWAB"): the sources are selected (and with `sext`
    // sign-extended) before the compare; the mask goes to SDST or VCC.
    use gpuabi_sim::image::Src;
    let (t, w) = (Target::Gfx1030, WaveSize::W32);
    // WORD_0 of 0x1234_8000 sign-extended is -32768 <= -256 (s2 = 0xffff_ff00); read
    // zero-extended it is 32768, which is not.
    for (src0, expected) in [("sext(v1)", 1), ("v1", 0)] {
        let body = format!("\tv_cmp_le_i32_sdwa s5, {src0}, s2 src0_sel:WORD_0 src1_sel:DWORD");
        let wave = run_one(t, w, &body, &[0x1234_8000], &[0, 0xffff_ff00]);
        assert_eq!(wave.s32(Src::Sgpr(5)), expected, "{body}");
    }
    // BYTE_1 of 0x500 is 5 > WORD_1 of 0x4_ffff (4); the whole registers compare the
    // other way.
    let body = "\tv_cmp_gt_u32_sdwa vcc_lo, v1, v2 src0_sel:BYTE_1 src1_sel:WORD_1";
    let wave = run_one(t, w, body, &[0x500, 0x4_ffff], &[]);
    assert_eq!(wave.vcc() & 1, 1, "{body}");
    let wave = run_one(
        t,
        w,
        "\tv_cmpx_gt_u32_sdwa v1, v2 src0_sel:BYTE_1 src1_sel:WORD_1",
        &[0x500, 0x4_ffff],
        &[],
    );
    assert_eq!(wave.exec(), 1, "v_cmpx_gt_u32_sdwa");
    // A compare has no destination selection, and gfx8's SDWA compares are not modelled.
    for (target, wave, text) in [
        (
            Target::Gfx1030,
            WaveSize::W32,
            "\tv_cmp_le_i32_sdwa s4, v1, v2 dst_sel:WORD_0\n",
        ),
        (
            Target::Gfx8,
            WaveSize::W64,
            "\tv_cmp_le_i32_sdwa vcc, v1, v2 src0_sel:WORD_0\n",
        ),
    ] {
        let e = parse(text, target, wave).unwrap_err();
        assert!(
            e.message.contains("dst_sel") || e.message.contains("no SDWA form"),
            "{e}"
        );
    }
}
