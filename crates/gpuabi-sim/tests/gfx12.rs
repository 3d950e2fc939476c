//! RDNA 4 (gfx12) in the simulator: the scalar f32 instructions, the 64-bit scalar adds, the
//! transcendentals of one scalar, the 96-bit memory forms with their 24-bit offsets, and the
//! waits per counter (no-ops counted in the statistics, and what each guarantees for the
//! wait check). Expected values are worked out by hand from the pseudocode of AMD's "RDNA 4
//! Instruction Set Architecture" (S_ADD_F32: D = S0 + S1; S_FMAC_F32: D = fma(S0, S1, D);
//! S_CVT_F32_U32; S_CMP_NLT_F32: SCC = !(S0 < S1); S_ADD_NC_U64: D = S0 + S1, SCC unchanged;
//! V_S_RCP_F32: D = 1.0 / S0; the S_WAIT_* counters of "Data Dependency Resolution").

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, SimError, Stats, WaveSetup};

/// Runs `body` in wave32 with a 64-byte buffer of bytes 7 whose address is in `v[0:1]` and
/// in `s[0:1]`, and `sgprs` set; returns s0..s15 after the run and the statistics.
fn run(body: &str, sgprs: &[(u16, u32)], check_waits: bool) -> Result<(Vec<u32>, Stats), SimError> {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, Target::Gfx12, WaveSize::W32).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.check_waits = check_waits;
    let id = m.memory.add("buf", vec![7; 64], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let mut all = vec![(0u16, base as u32), (1, (base >> 32) as u32)];
    all.extend_from_slice(sgprs);
    let setup = WaveSetup {
        vgprs: vec![
            (0, LaneValues::Uniform(base as u32)),
            (1, LaneValues::Uniform((base >> 32) as u32)),
        ],
        sgprs: all,
        ..Default::default()
    };
    let wave = m.run("main", &[setup])?.expect("the wave's registers");
    let regs = (0..16).map(|i| wave.sgpr[i]).collect();
    Ok((regs, m.stats.clone()))
}

fn sgprs(body: &str, inputs: &[(u16, u32)]) -> Vec<u32> {
    run(body, inputs, false).unwrap().0
}

#[test]
fn scalar_f32_arithmetic() {
    // 1.5 + 2.25 = 3.75 (0x40700000); 1.5 - 2.25 = -0.75 (0xbf400000); 1.5 * 2.25 = 3.375
    // (0x40580000); fma(1.5, 2.25, 1.0) = 4.375 (0x408c0000).
    let s = sgprs(
        "\ts_add_f32 s2, s10, s11\n\ts_sub_f32 s3, s10, s11\n\ts_mul_f32 s4, s10, s11\n\
         \ts_mov_b32 s5, 1.0\n\ts_fmac_f32 s5, s10, s11\n\ts_max_num_f32 s6, s10, s11\n\
         \ts_min_num_f32 s7, s10, s11",
        &[(10, 0x3fc0_0000), (11, 0x4010_0000)],
    );
    assert_eq!(
        &s[2..8],
        &[
            0x4070_0000,
            0xbf40_0000,
            0x4058_0000,
            0x408c_0000,
            0x4010_0000,
            0x3fc0_0000
        ]
    );
    // The least denormal (0x00000001) doubled is kept, not flushed: the simulator's MODE is
    // fp32 denormals on (see the module documentation of `exec::scalar_float`).
    let s = sgprs("\ts_mul_f32 s2, s10, 2.0", &[(10, 1)]);
    assert_eq!(s[2], 2);
}

#[test]
fn scalar_multiply_adds_with_a_constant() {
    // S_FMAAK_F32: D = fma(S0, S1, K); S_FMAMK_F32: D = fma(S0, K, S1). With S0 = 1.5,
    // S1 = 2.25 and K = 2.0 (0x40000000): 1.5 * 2.25 + 2.0 = 5.375 (0x40ac0000), and
    // 1.5 * 2.0 + 2.25 = 5.25 (0x40a80000).
    let s = sgprs(
        "	s_fmaak_f32 s2, s10, s11, 0x40000000
	s_fmamk_f32 s3, s10, 0x40000000, s11",
        &[(10, 0x3fc0_0000), (11, 0x4010_0000)],
    );
    assert_eq!(&s[2..4], &[0x40ac_0000, 0x40a8_0000]);
}

#[test]
fn scalar_loads_of_bytes_halves_and_three_dwords() {
    // The buffer is 64 bytes of 7, with bytes 0x80 and 0xff written first at offsets 5 and
    // 6. S_LOAD_I8 at 5 sign-extends 0x80 to 0xffffff80, S_LOAD_U8 zero-extends it;
    // S_LOAD_I16 at 5 reads 0xff80 (little-endian) and sign-extends it; S_LOAD_U16 at 6
    // reads 0x07ff. S_LOAD_B96 writes three dwords and leaves the fourth SGPR alone.
    let s = sgprs(
        "	v_mov_b32 v2, 0x80
	global_store_b8 v[0:1], v2, off offset:5
         	v_mov_b32 v2, 0xff
	global_store_b8 v[0:1], v2, off offset:6
         	s_wait_storecnt 0
	s_load_i8 s2, s[0:1], 0x5
	s_load_u8 s3, s[0:1], 0x5
         	s_load_i16 s4, s[0:1], 0x5
	s_load_u16 s5, s[0:1], 0x6
         	s_mov_b32 s11, 5
	s_load_b96 s[8:10], s[0:1], 0x8
	s_wait_kmcnt 0",
        &[],
    );
    assert_eq!(&s[2..6], &[0xffff_ff80, 0x80, 0xffff_ff80, 0x07ff]);
    assert_eq!(&s[8..12], &[0x0707_0707, 0x0707_0707, 0x0707_0707, 5]);
}

#[test]
fn scalar_conversions_and_rounding() {
    // 0xffffffff as u32 is 4294967295, nearest f32 2^32 (0x4f800000); -3 as i32 is -3.0
    // (0xc0400000); 2.5 rounds to 2 (even) in s_rndne_f32, 3.0 in s_ceil_f32, -2.5 to -3.0
    // in s_floor_f32; s_cvt_u32_f32 of -1.0 saturates at 0, s_cvt_i32_f32 of 2.5 is 2.
    let s = sgprs(
        "\ts_cvt_f32_u32 s2, s10\n\ts_cvt_f32_i32 s3, s11\n\ts_rndne_f32 s4, s12\n\
         \ts_ceil_f32 s5, s12\n\ts_floor_f32 s6, s13\n\ts_cvt_u32_f32 s7, -1.0\n\
         \ts_cvt_i32_f32 s8, s12",
        &[
            (10, u32::MAX),
            (11, -3i32 as u32),
            (12, 0x4020_0000),
            (13, 0xc020_0000),
        ],
    );
    assert_eq!(
        &s[2..9],
        &[
            0x4f80_0000,
            0xc040_0000,
            0x4000_0000,
            0x4040_0000,
            0xc040_0000,
            0,
            2
        ]
    );
}

#[test]
fn scalar_f32_compares_set_scc() {
    // ACO's `s_cmp_nlt_f32 1.0, 0`: !(1.0 < 0.0) is true; with a NaN every ordered
    // comparison is false, so nlt is true and lt false.
    let cases = [
        ("s_cmp_nlt_f32 1.0, 0", 1),
        ("s_cmp_lt_f32 1.0, 0", 0),
        ("s_cmp_lt_f32 s10, 1.0", 0),
        ("s_cmp_nlt_f32 s10, 1.0", 1),
        ("s_cmp_u_f32 s10, 1.0", 1),
        ("s_cmp_o_f32 s10, 1.0", 0),
        ("s_cmp_eq_f32 0, s11", 1),
        ("s_cmp_lg_f32 0, s11", 0),
    ];
    for (cmp, want) in cases {
        // s10 is a quiet NaN, s11 is -0.0 (equal to +0.0).
        let s = sgprs(
            &format!("\t{cmp}\n\ts_cselect_b32 s2, 1, 0"),
            &[(10, 0x7fc0_0000), (11, 0x8000_0000)],
        );
        assert_eq!(s[2], want, "{cmp}");
    }
}

#[test]
fn sixty_four_bit_scalar_adds_leave_scc() {
    // 0x1_ffffffff + 1 = 0x2_00000000; 3 - 5 wraps; 0x10000_0001 * 3; SCC stays set
    // (`s_cmp_eq_u32 0, 0` set it).
    let s = sgprs(
        "\ts_cmp_eq_u32 0, 0\n\ts_add_nc_u64 s[2:3], s[10:11], 1\n\
         \ts_sub_nc_u64 s[4:5], 3, 5\n\ts_mul_u64 s[6:7], s[12:13], 3\n\ts_cselect_b32 s8, 1, 0",
        &[(10, u32::MAX), (11, 1), (12, 1), (13, 1)],
    );
    assert_eq!(&s[2..9], &[0, 2, u32::MAX - 1, u32::MAX, 3, 3, 1]);
}

#[test]
fn transcendentals_of_one_scalar() {
    // ACO's `v_s_rcp_f32 s21, s21`: 1/4.0 = 0.25; with `-|s|` and `mul:2`: -0.5; the square
    // root of 2.25 is 1.5; `clamp` limits 2.0 to 1.0.
    let s = sgprs(
        "\tv_s_rcp_f32 s2, s10\n\tv_s_rcp_f32 s3, -|s11| mul:2\n\tv_s_sqrt_f32 s4, s12\n\
         \tv_s_sqrt_f32 s5, 4.0 clamp\n\ts_mov_b32 exec_lo, 0\n\tv_s_rcp_f32 s6, s10",
        &[(10, 0x4080_0000), (11, 0x4080_0000), (12, 0x4010_0000)],
    );
    // An empty EXEC does not stop them: they compute one scalar.
    assert_eq!(
        &s[2..7],
        &[
            0x3e80_0000,
            0xbf00_0000,
            0x3fc0_0000,
            0x3f80_0000,
            0x3e80_0000
        ]
    );
}

#[test]
fn memory_with_24_bit_offsets() {
    // Byte 7 repeated: a dword reads 0x07070707. The global load reaches the buffer at a
    // negative offset from a base past it; the scalar load at a positive one.
    let s = sgprs(
        "\ts_add_nc_u64 s[4:5], s[0:1], 0x100\n\ts_load_b32 s6, s[0:1], 0x3c\n\
         \ts_load_b96 s[8:10], s[0:1], 0x10\n\
         \tv_mov_b32 v4, s4\n\tv_mov_b32 v5, s5\n\
         \tglobal_load_b32 v2, v[4:5], off offset:-0x100\n\
         \tglobal_store_b32 v[0:1], v2, off offset:4 th:TH_STORE_NT scope:SCOPE_SYS\n\
         \ts_wait_loadcnt 0x0\n\ts_wait_storecnt 0x0\n\ts_wait_kmcnt 0x0\n\
         \tv_readfirstlane_b32 s7, v2",
        &[],
    );
    assert_eq!(&s[6..11], &[0x0707_0707; 5]);
}

#[test]
fn waits_are_counted_no_ops() {
    let (_, stats) = run(
        "\ts_wait_loadcnt 0x0\n\ts_wait_dscnt 0x0\n\ts_wait_kmcnt 0x0\n\ts_wait_alu 0xfffe\n\
         \ts_wait_loadcnt_dscnt 0x0\n\ts_waitcnt vmcnt(0)\n\ts_nop 0",
        &[],
        false,
    )
    .unwrap();
    assert_eq!(stats.waits, 6);
}

fn missing(r: Result<(Vec<u32>, Stats), SimError>) -> String {
    match r {
        Err(e @ SimError::MissingWait(_)) => e.to_string(),
        other => panic!("expected a missing wait, got {other:?}"),
    }
}

#[test]
fn each_wait_completes_its_own_counter() {
    let load = "\ts_load_b32 s4, s[0:1], 0x0\n";
    // KMcnt counts scalar loads: a wait on DScnt or LOADcnt does not complete one.
    for other in [
        "s_wait_dscnt 0x0",
        "s_wait_loadcnt 0x0",
        "s_wait_storecnt 0x0",
    ] {
        let e = missing(run(
            &format!("{load}\t{other}\n\ts_mov_b32 s6, s4"),
            &[],
            true,
        ));
        assert!(e.contains("reads s4"), "{other}: {e}");
    }
    run(
        &format!("{load}\ts_wait_kmcnt 0x0\n\ts_mov_b32 s6, s4"),
        &[],
        true,
    )
    .unwrap();
    // LOADcnt counts vector loads, in order: a count of 1 completes the older of two.
    let two = "\tglobal_load_b32 v2, v[0:1], off\n\tglobal_load_b32 v3, v[0:1], off offset:4\n";
    run(
        &format!("{two}\ts_wait_loadcnt 0x1\n\tv_mov_b32 v4, v2"),
        &[],
        true,
    )
    .unwrap();
    missing(run(
        &format!("{two}\ts_wait_loadcnt 0x1\n\tv_mov_b32 v4, v3"),
        &[],
        true,
    ));
    missing(run(
        &format!("{two}\ts_wait_kmcnt 0x0\n\tv_mov_b32 v4, v2"),
        &[],
        true,
    ));
    // s_wait_loadcnt_dscnt: LOADcnt in bits 13:8 (0 here), DScnt in 5:0.
    run(
        &format!("{two}\ts_wait_loadcnt_dscnt 0x3f\n\tv_mov_b32 v4, v3"),
        &[],
        true,
    )
    .unwrap();
    missing(run(
        &format!("{two}\ts_wait_loadcnt_dscnt 0x100\n\tv_mov_b32 v4, v3"),
        &[],
        true,
    ));
    // DScnt counts LDS accesses and no scalar load.
    let lds = "\tv_mov_b32 v6, 0\n\tds_load_b32 v7, v6\n";
    run(
        &format!("{lds}\ts_wait_dscnt 0x0\n\tv_mov_b32 v8, v7"),
        &[],
        true,
    )
    .unwrap();
    missing(run(
        &format!("{lds}\ts_wait_kmcnt 0x0\n\tv_mov_b32 v8, v7"),
        &[],
        true,
    ));
}

/// A body, its inputs and the result in s2 under `s_round_mode` 0, 1, 2 and 3.
type RoundCase = (&'static str, &'static [(u16, u32)], [u32; 4]);

/// The four rounding directions of MODE's FP_ROUND (`s_round_mode N`: 0 nearest even, 1
/// toward +inf, 2 toward -inf, 3 toward zero), each value worked out by hand.
#[test]
fn scalar_f32_rounds_as_mode_says() {
    let with_mode = |mode: u32, body: &str, inputs: &[(u16, u32)]| {
        sgprs(&format!("\ts_round_mode {mode:#x}\n{body}"), inputs)
    };
    let cases: [RoundCase; 7] = [
        // 1 + 2^-24 is halfway between 1.0 and 1 + 2^-23: the even one is 1.0.
        (
            "\ts_add_f32 s2, s10, s11",
            &[(10, 0x3f80_0000), (11, 0x3380_0000)],
            [0x3f80_0000, 0x3f80_0001, 0x3f80_0000, 0x3f80_0000],
        ),
        // -1 - 2^-24: toward -inf is the larger magnitude.
        (
            "\ts_sub_f32 s2, s10, s11",
            &[(10, 0xbf80_0000), (11, 0x3380_0000)],
            [0xbf80_0000, 0xbf80_0000, 0xbf80_0001, 0xbf80_0000],
        ),
        // 1 + 1.5 * 2^-24 is past the halfway point.
        (
            "\ts_add_f32 s2, s10, s11",
            &[(10, 0x3f80_0000), (11, 0x33c0_0000)],
            [0x3f80_0001, 0x3f80_0001, 0x3f80_0000, 0x3f80_0000],
        ),
        // 3 * 0x3eaaaaab (11184811 * 2^-25) = 1 + 2^-25, below halfway.
        (
            "\ts_mul_f32 s2, 0x40400000, s10",
            &[(10, 0x3eaa_aaab)],
            [0x3f80_0000, 0x3f80_0001, 0x3f80_0000, 0x3f80_0000],
        ),
        // fma(3, 0x3eaaaaab, -1) = 2^-25 exactly: no rounding in any mode.
        (
            "\ts_mov_b32 s2, -1.0\n\ts_fmac_f32 s2, 0x40400000, s10",
            &[(10, 0x3eaa_aaab)],
            [0x3300_0000; 4],
        ),
        // 2^32 - 1 as f32: 2^32 or the f32 below it, 2^32 - 256.
        (
            "\ts_cvt_f32_u32 s2, s10",
            &[(10, u32::MAX)],
            [0x4f80_0000, 0x4f80_0000, 0x4f7f_ffff, 0x4f7f_ffff],
        ),
        // The largest f32 doubled overflows to +inf, or stays at the largest f32.
        (
            "\ts_add_f32 s2, s10, s10",
            &[(10, 0x7f7f_ffff)],
            [0x7f80_0000, 0x7f80_0000, 0x7f7f_ffff, 0x7f7f_ffff],
        ),
    ];
    for (body, inputs, want) in cases {
        for (mode, want) in want.iter().enumerate() {
            let s = with_mode(mode as u32, body, inputs);
            assert_eq!(s[2], *want, "{body} under s_round_mode {mode}");
        }
    }
    // An exact zero from addends of different signs is -0 toward -inf alone.
    for (mode, want) in [0u32, 0, 0x8000_0000, 0].iter().enumerate() {
        let s = with_mode(mode as u32, "\ts_sub_f32 s2, 1.0, 1.0", &[]);
        assert_eq!(s[2], *want, "1 - 1 under s_round_mode {mode}");
    }
}

/// MODE's single-precision FP_DENORM (`s_denorm_mode N`, bits 1:0: 0 flushes denormal
/// inputs and results to a zero of their sign, 1 keeps inputs, 2 keeps results, 3 both),
/// each value worked out by hand.
#[test]
fn scalar_f32_denormals_as_mode_says() {
    let body = "\ts_add_f32 s2, s10, s10\n\ts_mul_f32 s3, s11, 0.5\n\ts_mul_f32 s4, s12, 0.5\n\
                \ts_floor_f32 s5, s13\n\ts_cmp_lg_f32 s10, 0\n\ts_cselect_b32 s6, 1, 0";
    let inputs = [
        (10, 0x0000_0001), // the least denormal
        (11, 0x0080_0000), // 2^-126, the least normal
        (12, 0x8080_0000), // -2^-126
        (13, 0x8000_0001), // the least negative denormal
    ];
    // (s2: 2 * least denormal, s3: 2^-127, s4: -2^-127, s5: floor(-denormal), s6: SCC of
    // denormal != 0)
    let want: [[u32; 5]; 4] = [
        [0, 0, 0x8000_0000, 0x8000_0000, 0],
        [0, 0, 0x8000_0000, 0xbf80_0000, 1],
        [0, 0x0040_0000, 0x8040_0000, 0x8000_0000, 0],
        [2, 0x0040_0000, 0x8040_0000, 0xbf80_0000, 1],
    ];
    for (mode, want) in want.iter().enumerate() {
        let s = sgprs(&format!("\ts_denorm_mode {mode:#x}\n{body}"), &inputs);
        assert_eq!(&s[2..7], want, "s_denorm_mode {mode}");
    }
}

/// A vector float instruction under a MODE the simulator does not follow there stops the
/// run, naming it; back at the default MODE it runs.
#[test]
fn vector_float_under_another_mode_stops() {
    let err = run("\ts_round_mode 0x1\n\tv_add_f32_e32 v2, v3, v4", &[], false).unwrap_err();
    assert!(
        matches!(err, SimError::ModeNotFollowed { mode: 0xf1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("v_add_f32"), "{err}");
    run(
        "\ts_round_mode 0x1\n\ts_round_mode 0x0\n\tv_add_f32_e32 v2, v3, v4",
        &[],
        false,
    )
    .unwrap();
}

/// `s_setreg_b32` and `s_getreg_b32` of MODE's float fields: the SIMM16 names the field
/// (`hwreg(HW_REG_MODE, 0, 4)` is FP_ROUND, `hwreg(HW_REG_MODE, 4, 4)` FP_DENORM), the value
/// its low bits. FP_ROUND 2 rounds 1 + 1.5 * 2^-24 toward -inf, to 1.0; MODE starts as 0xf0.
#[test]
fn setreg_and_getreg_of_mode() {
    let s = sgprs(
        "\ts_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 8)\n\
         \ts_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s12\n\ts_add_f32 s2, s10, s11\n\
         \ts_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s13\n\
         \ts_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 8)\n\ts_getreg_b32 s5, hwreg(HW_REG_MODE, 4, 2)",
        &[
            (10, 0x3f80_0000),
            (11, 0x33c0_0000),
            (12, 0xffff_fff2), // bits above the 4-bit field are not written
            (13, 0xd),
        ],
    );
    assert_eq!(&s[2..6], &[0x3f80_0000, 0xf0, 0xd2, 0x1]);
    // Registers and fields the model does not hold are refused where they are written.
    for (text, column) in [
        ("\ts_setreg_b32 hwreg(HW_REG_MODE, 8, 2), s2\n", 15),
        ("\ts_getreg_b32 s2, hwreg(HW_REG_MODE)\n", 19),
    ] {
        let err = parse(text, Target::Gfx12, WaveSize::W32).unwrap_err();
        assert_eq!(err.column, column, "{err}");
        assert!(
            err.message.contains("bits 7:0 of hwreg(HW_REG_MODE)"),
            "{err}"
        );
    }
}
