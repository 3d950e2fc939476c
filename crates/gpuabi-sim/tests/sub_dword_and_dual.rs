//! Instructions llc-19 emits for gpuabi's programs beyond plain VOP1/VOP2/VOP3: RDNA 3's
//! dual issue (VOPD), GCN 1.2 and RDNA 2 sub-dword addressing (SDWA), 16-bit shifts,
//! three-dword memory accesses, scalar loads into and based on VCC and further ALU
//! instructions. Expected values are worked out by hand from the pseudocode of AMD's ISA
//! reference guides named per case.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, SimError, WaveSetup};

/// Runs `body` with v1.. set to `sources` in every lane and s0.. to `sgprs`; returns
/// v0..v15 of lane 0 and s0..s7.
fn run(target: Target, wave: WaveSize, body: &str, sources: &[u32], sgprs: &[u32]) -> Regs {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        vgprs: (1u16..)
            .zip(sources.iter().map(|v| LaneValues::Uniform(*v)))
            .collect(),
        sgprs: (0u16..).zip(sgprs.iter().copied()).collect(),
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    Regs {
        v: (0..16).map(|r| w.v(r, 0)).collect(),
        s: (0..8).map(|r| w.sgpr[r]).collect(),
    }
}

struct Regs {
    v: Vec<u32>,
    s: Vec<u32>,
}

const GFX11: (Target, WaveSize) = (Target::Gfx1100, WaveSize::W32);

#[test]
fn vopd_halves_read_their_sources_before_either_writes() {
    let (t, w) = GFX11;
    // "RDNA3 ISA", VOPD: the X and Y operations execute as one instruction. X writes v1,
    // which Y reads: Y must see v1's value from before the instruction.
    let r = run(
        t,
        w,
        "\tv_dual_mov_b32 v1, v3 :: v_dual_mov_b32 v2, v1",
        &[10, 20, 30],
        &[],
    );
    assert_eq!((r.v[1], r.v[2]), (30, 10), "X: v1 = v3; Y: v2 = old v1");
    // The other direction: Y writes v5, which X reads.
    let r = run(
        t,
        w,
        "\tv_dual_mov_b32 v0, v5 :: v_dual_mov_b32 v5, v4",
        &[0, 0, 0, 7, 9],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (9, 7), "X: v0 = old v5; Y: v5 = v4");
    // A swap through the pair: v1 <- v2 and v2 <- v1.
    let r = run(
        t,
        w,
        "\tv_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v2, v1",
        &[111, 222],
        &[],
    );
    assert_eq!((r.v[1], r.v[2]), (222, 111), "the halves swap v1 and v2");
}

#[test]
fn vopd_operations() {
    let (t, w) = GFX11;
    // v1 = 1.5, v2 = 2.0, v3 = 0.25 (f32 bits).
    let (a, b, c) = (0x3fc0_0000, 0x4000_0000, 0x3e80_0000);
    // X: v0 = v1 * v2 = 3.0 (0x40400000); Y: v5 = v3 + v1 = 1.75 (0x3fe00000). (Y's
    // second source may not be v2: the halves' second sources need different VGPR banks.)
    let r = run(
        t,
        w,
        "\tv_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v5, v3, v1",
        &[a, b, c],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (0x4040_0000, 0x3fe0_0000));
    // V_FMAC_F32 D = S0 * S1 + D: v3 = 1.5 * 2.0 + 0.25 = 3.25 (0x40500000); Y:
    // V_SUB_F32 v4 = v2 - v1 = 0.5 (0x3f000000).
    let r = run(
        t,
        w,
        "\tv_dual_fmac_f32 v3, v1, v2 :: v_dual_sub_f32 v4, v2, v1",
        &[a, b, c],
        &[],
    );
    assert_eq!((r.v[3], r.v[4]), (0x4050_0000, 0x3f00_0000));
    // V_CNDMASK_B32 reads VCC: with vcc_lo = 0 every lane takes S0; Y: V_AND_B32 with a
    // literal, 0xff00 & 0x1234 = 0x1200.
    let r = run(
        t,
        w,
        "\ts_mov_b32 vcc_lo, 0\n\tv_dual_cndmask_b32 v0, v1, v2 :: v_dual_and_b32 v5, 0xff00, v3",
        &[a, b, 0x1234],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (a, 0x1200));
    let r = run(
        t,
        w,
        "\ts_mov_b32 vcc_lo, -1\n\tv_dual_cndmask_b32 v0, v1, v2 :: v_dual_lshlrev_b32 v5, 4, v3",
        &[a, b, 0x1234],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (b, 0x12340), "vcc set: S1; 0x1234 << 4");
    // V_MAX_F32 / V_MIN_F32 of 1.5 and 2.0 (the halves read them through other ports).
    let r = run(
        t,
        w,
        "\tv_dual_max_f32 v0, v1, v2 :: v_dual_min_f32 v5, v2, v1",
        &[a, b],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (b, a));
    // V_SUBREV_F32 D = S1 - S0 in either half: X v0 = v2 - v1 = 0.5 (0x3f000000); Y
    // v5 = v1 - v3 = 1.25 (0x3fa00000).
    let r = run(
        t,
        w,
        "\tv_dual_subrev_f32 v0, v1, v2 :: v_dual_subrev_f32 v5, v3, v1",
        &[a, b, c],
        &[],
    );
    assert_eq!((r.v[0], r.v[5]), (0x3f00_0000, 0x3fa0_0000));
}

#[test]
fn scalar_loads_take_vcc_as_destination_and_base() {
    // A buffer of the dwords 0x11111111, 0x22222222, 0x33333333. `s_load_dword vcc_hi`
    // writes VCC's high half ("RDNA2 ISA": SDATA may be VCC_LO/VCC_HI); with VCC then set
    // to the buffer's address, loads based on `vcc` read its dwords.
    for (t, w, load) in [
        (Target::Gfx8, WaveSize::W64, "s_load_dword"),
        (Target::Gfx1030, WaveSize::W32, "s_load_dword"),
        (Target::Gfx1100, WaveSize::W32, "s_load_b32"),
    ] {
        let text = format!(
            "main:\n\t{load} vcc_hi, s[0:1], 0x4\n\t{load} vcc_lo, s[0:1], 0x8\n\
             \ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 s2, vcc_lo\n\ts_mov_b32 s3, vcc_hi\n\
             \ts_mov_b64 vcc, s[0:1]\n\t{load} s4, vcc, 0x0\n\t{load} s5, vcc, 0x8\n\
             \ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n"
        );
        let p = parse(&text, t, w).unwrap_or_else(|e| panic!("{t}: {e}\n{text}"));
        let mut m = Machine::new(Image::new(&p).unwrap());
        let bytes = [0x1111_1111u32, 0x2222_2222, 0x3333_3333]
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let id = m.memory.add("buf", bytes, 1 << 20).unwrap();
        let base = m.memory.buffer(id).base;
        let setup = WaveSetup {
            sgprs: vec![(0, base as u32), (1, (base >> 32) as u32)],
            ..Default::default()
        };
        let wave = m.run("main", &[setup]).unwrap().expect("one wave");
        let s = |r: usize| wave.sgpr[r];
        assert_eq!(
            (s(2), s(3)),
            (0x3333_3333, 0x2222_2222),
            "{t}: loads into vcc"
        );
        assert_eq!(
            (s(4), s(5)),
            (0x1111_1111, 0x3333_3333),
            "{t}: loads based on vcc"
        );
    }
}

#[test]
fn sdwa_selects_source_parts_and_places_the_result() {
    // "AMD GCN3 ISA", SDWA: SRC0_SEL/SRC1_SEL pick a byte or word of the source,
    // zero-extended; DST_SEL places the result's low bits; DST_UNUSED pads the rest with
    // zeros, sign-extends above the selection, or preserves the old destination bits.
    for (t, w) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
    ] {
        let v = |body: &str, srcs: &[u32]| run(t, w, body, srcs, &[]).v;
        // (0x11223344 >> 16 & 0xff) | 0xabcd0000 = 0xabcd0022 written whole.
        let r = v(
            "\tv_or_b32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD",
            &[0x1122_3344, 0xabcd_0000],
        );
        assert_eq!(r[0], 0xabcd_0022, "{t}");
        // 0x5566 | 0x8877: WORD_0 of v1 = 0x3344, WORD_1 of v2 = 0xabcd; or = 0xbbcd;
        // placed in bits 31:16, low half zero.
        let r = v(
            "\tv_or_b32_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1",
            &[0x1122_3344, 0xabcd_0000],
        );
        assert_eq!(r[0], 0xbbcd_0000, "{t}: (0x3344 | 0xabcd) << 16");
        // Preserve: v0 starts as v3 = 0xdeadbeef (moved in); result 0x44 ^ 0x01 = 0x45
        // into byte 1: 0xdead45ef.
        let r = v(
            "\tv_mov_b32 v0, v3\n\tv_xor_b32_sdwa v0, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_0",
            &[0x1122_3344, 0x0000_0001, 0xdead_beef],
        );
        assert_eq!(r[0], 0xdead_45ef, "{t}");
        // Sign extension: 0x80 | 0x01 = 0x81 into byte 1: bits 15:8 = 0x81, bit 15 set, so
        // bits 31:16 are ones and bits 7:0 zero: 0xffff8100.
        let r = v(
            "\tv_or_b32_sdwa v0, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:BYTE_0",
            &[0x80, 0x01],
        );
        assert_eq!(r[0], 0xffff_8100, "{t}");
        // SRC1_SEXT: byte 0 of 0x000000f0 sign-extended is 0xfffffff0; xor 0x0f = 0xffffffff.
        let r = v(
            "\tv_xor_b32_sdwa v0, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
            &[0x0f, 0xf0],
        );
        assert_eq!(r[0], 0xffff_ffff, "{t}");
        // SRC0_SEXT on a word: 0x8001 becomes 0xffff8001; max_u32 with 5 keeps it.
        let r = v(
            "\tv_max_u32_sdwa v0, sext(v1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD",
            &[0x1234_8001, 5],
        );
        assert_eq!(r[0], 0xffff_8001, "{t}");
        // VOP1: v_mov_b32 of byte 3 into word 0, padded.
        let r = v(
            "\tv_mov_b32_sdwa v0, v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_3",
            &[0x9a00_0000],
        );
        assert_eq!(r[0], 0x9a, "{t}");
    }
}

#[test]
fn sixteen_bit_shifts_keep_or_zero_the_high_half() {
    // V_LSHLREV_B16: D.u16 = S1.u16 << S0[3:0]. The high half of the destination is zeroed
    // on GCN 1.2 and kept on RDNA (LLVM's GCNSubtarget::zeroesHigh16BitsOfDest).
    // v3 = 0xaaaa0000 is the old destination.
    let body = "\tv_mov_b32 v0, v3\n\tv_lshlrev_b16 v0, v1, v2";
    // 0x1281 << 4 = 0x12810, low 16 bits 0x2810.
    let srcs = [4, 0x1281, 0xaaaa_0000];
    let gfx8 = run(Target::Gfx8, WaveSize::W64, body, &srcs, &[]);
    assert_eq!(gfx8.v[0], 0x0000_2810);
    for (t, w) in [
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W32),
    ] {
        let r = run(t, w, body, &srcs, &[]);
        assert_eq!(r.v[0], 0xaaaa_2810, "{t}");
    }
    // The amount is S0[3:0]: 20 shifts by 4. V_LSHRREV_B16: 0x8000 >> 4 = 0x0800;
    // V_ASHRREV_I16: 0x8000 as i16 >> 4 = 0xf800; the high half of S1 is ignored.
    let r = run(
        Target::Gfx8,
        WaveSize::W64,
        "\tv_lshrrev_b16 v0, v1, v2\n\tv_ashrrev_i16 v4, v1, v2",
        &[20, 0xffff_8000],
        &[],
    );
    assert_eq!((r.v[0], r.v[4]), (0x0800, 0xf800));
}

#[test]
fn further_alu_instructions() {
    let rdna = [
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W32),
    ];
    for (t, w) in rdna {
        // "RDNA2 ISA": V_LSHL_OR_B32 D = (S0 << S1[4:0]) | S2: (3 << 2) | 1 = 13, the
        // amount 34 taken as 2. V_AND_OR_B32 D = (S0 & S1) | S2: (0xf0 & 0x3c) | 1 = 0x31.
        // V_ADD_LSHL_U32 D = (S0 + S1) << S2[4:0]: (3 + 34) << 1 = 74. V_XOR3_B32:
        // 3 ^ 34 ^ 1 = 32.
        let r = run(
            t,
            w,
            "\tv_lshl_or_b32 v0, v1, v2, v3\n\tv_and_or_b32 v4, v5, v6, v3\n\
             \tv_add_lshl_u32 v7, v1, v2, v3\n\tv_xor3_b32 v8, v1, v2, v3\n\
             \tv_xnor_b32 v9, v1, v2",
            &[3, 34, 1, 0, 0xf0, 0x3c],
            &[],
        );
        assert_eq!(r.v[0], 13, "{t}");
        assert_eq!(r.v[4], 0x31, "{t}");
        assert_eq!(r.v[7], 74, "{t}");
        assert_eq!(r.v[8], 32, "{t}");
        assert_eq!(r.v[9], !(3 ^ 34), "{t}: V_XNOR_B32 = ~(S0 ^ S1)");
        // S_MUL_HI_I32: (-2 * 0x80000000) >> 32 = 1 (the product is 2^32).
        let r = run(
            t,
            w,
            "\ts_mul_hi_i32 s2, s0, s1",
            &[],
            &[(-2i32) as u32, 0x8000_0000],
        );
        assert_eq!(r.s[2], 1, "{t}");
    }
    for (t, w) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W32),
    ] {
        // V_SUBREV_F32 D = S1 - S0: 2.0 - 0.5 = 1.5. V_MUL_I32_I24 multiplies the low 24
        // bits as signed numbers: 0x7fffffff gives 0xffffff = -1, 0x01000003 gives 3, so
        // the product is -3. V_BFREV_B32 of 1 = 0x80000000.
        let ffbh = if t == Target::Gfx1100 {
            "v_cls_i32"
        } else {
            "v_ffbh_i32"
        };
        let body = format!(
            "\tv_subrev_f32 v0, v1, v2\n\tv_mul_i32_i24 v4, v3, v5\n\tv_bfrev_b32 v6, v7\n\
             \t{ffbh} v8, v9\n\t{ffbh} v10, v11"
        );
        let r = run(
            t,
            w,
            &body,
            &[
                0x3f00_0000,
                0x4000_0000,
                0x7fff_ffff,
                0,
                0x0100_0003,
                0,
                1,
                0,
                0x0001_0000,
                0,
                0xffff_ffff,
            ],
            &[],
        );
        assert_eq!(r.v[0], 0x3fc0_0000, "{t}");
        assert_eq!(r.v[4], (-3i32) as u32, "{t}");
        assert_eq!(r.v[6], 0x8000_0000, "{t}");
        // V_FFBH_I32 ("AMD GCN3 ISA"; V_CLS_I32 on RDNA 3): the position, counting bit 31
        // as 0, of the first bit that differs from the sign bit: for 0x00010000 it is bit
        // 16, position 15; all ones (and zero) give -1.
        assert_eq!(r.v[8], 15, "{t}");
        assert_eq!(r.v[10], u32::MAX, "{t}");
        // S_ABS_I32 |-5| = 5; S_BREV_B32 of 0x1 = 0x80000000; S_FLBIT_I32 (S_CLS_I32 on
        // RDNA 3) as V_FFBH_I32 above: bit 30 of 0x40000000 differs from the sign, position
        // 1 (the GCN3 guide's own example); S_XNOR_B32 of a value with itself is all ones.
        let flbit = if t == Target::Gfx1100 {
            "s_cls_i32"
        } else {
            "s_flbit_i32"
        };
        let body = format!(
            "\ts_abs_i32 s4, s0\n\ts_brev_b32 s5, s1\n\t{flbit} s6, s2\n\ts_xnor_b32 s7, s3, s3"
        );
        let r = run(
            t,
            w,
            &body,
            &[],
            &[(-5i32) as u32, 1, 0x4000_0000, 0xf0f0_f0f0],
        );
        assert_eq!(
            (r.s[4], r.s[5], r.s[6], r.s[7]),
            (5, 0x8000_0000, 1, u32::MAX),
            "{t}"
        );
    }
    // V_MAD_F32 (GCN 1.2): 1.5 * 2.0 + 0.25 = 3.25.
    let r = run(
        Target::Gfx8,
        WaveSize::W64,
        "\tv_mad_f32 v0, v1, v2, v3",
        &[0x3fc0_0000, 0x4000_0000, 0x3e80_0000],
        &[],
    );
    assert_eq!(r.v[0], 0x4050_0000);
}

#[test]
fn multiply_adds_with_a_constant() {
    // V_FMAMK_F32 D = S0 * K + S1, V_FMAAK_F32 D = S0 * S1 + K ("RDNA2 ISA"): with S0 = 1.5,
    // S1 = 0.25 and K = 2.0: 1.5 * 2.0 + 0.25 = 3.25 and 1.5 * 0.25 + 2.0 = 2.375
    // (0x40180000). GCN 1.2's V_MADMK_F32/V_MADAK_F32 give the same exact values.
    let srcs = [0x3fc0_0000, 0x3e80_0000];
    for (t, w, mk, ak) in [
        (Target::Gfx1030, WaveSize::W32, "v_fmamk_f32", "v_fmaak_f32"),
        (Target::Gfx1100, WaveSize::W32, "v_fmamk_f32", "v_fmaak_f32"),
        (Target::Gfx8, WaveSize::W64, "v_madmk_f32", "v_madak_f32"),
    ] {
        let body = format!("\t{mk} v0, v1, 0x40000000, v2\n\t{ak} v3, v1, v2, 0x40000000");
        let r = run(t, w, &body, &srcs, &[]);
        assert_eq!((r.v[0], r.v[3]), (0x4050_0000, 0x4018_0000), "{t}");
    }
    // In a VOPD pair: X = fmamk, Y reads X's destination before X writes it.
    let r = run(
        Target::Gfx1100,
        WaveSize::W32,
        "\tv_dual_fmamk_f32 v0, v1, 0x40000000, v2 :: v_dual_mov_b32 v3, v0",
        &srcs,
        &[],
    );
    assert_eq!(
        (r.v[0], r.v[3]),
        (0x4050_0000, 0),
        "v0 was 0 before the pair"
    );
}

#[test]
fn s_trap_stops_the_run() {
    let text = "main:\n\ts_trap 2\n\ts_endpgm\n";
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let e = m.run("main", &[WaveSetup::default()]).unwrap_err();
    assert!(matches!(e, SimError::Trap { .. }), "{e}");
    assert!(e.to_string().contains("s_trap 2"), "{e}");
}

/// A wave that runs past `s_endpgm`-less code into llc's padding stops there.
#[test]
fn s_code_end_stops_the_run() {
    let text = "main:\n\ts_nop 0\n\ts_code_end\n\ts_endpgm\n";
    let p = parse(text, Target::Gfx1100, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let e = m.run("main", &[WaveSetup::default()]).unwrap_err();
    assert!(matches!(e, SimError::Trap { pc: 0x10_0004, .. }), "{e}");
    assert!(e.to_string().contains("s_code_end"), "{e}");
}

#[test]
fn v_cmpx_nle_f32_keeps_the_lanes_where_not_less_or_equal() {
    // "RDNA2 ISA", V_CMPX_NLE_F32: EXEC = !(S0 <= S1) per lane, true for unordered
    // operands. Every lane gets the same sources here, so exec is all or nothing.
    for target in [Target::Gfx1030, Target::Gfx1100] {
        let exec_after = |a: f32, b: f32| {
            let r = run(
                target,
                WaveSize::W32,
                "\tv_cmpx_nle_f32_e32 v1, v2\n\ts_mov_b32 s0, exec_lo",
                &[a.to_bits(), b.to_bits()],
                &[],
            );
            r.s[0]
        };
        assert_eq!(exec_after(1.0, 2.0), 0, "{target}: 1 <= 2");
        assert_eq!(exec_after(2.0, 2.0), 0, "{target}: 2 <= 2");
        assert_eq!(exec_after(3.0, 2.0), u32::MAX, "{target}: 3 > 2");
        assert_eq!(exec_after(f32::NAN, 2.0), u32::MAX, "{target}: unordered");
    }
}

#[test]
fn v_cmpx_nge_and_u_f32_keep_the_unordered_lanes() {
    // "RDNA2 ISA": V_CMPX_NGE_F32 sets EXEC = !(S0 >= S1) per lane, V_CMPX_U_F32 EXEC =
    // (S0 or S1 is NaN); both are true for unordered operands.
    for target in [Target::Gfx1030, Target::Gfx1100] {
        let exec_after = |inst: &str, a: f32, b: f32| {
            let r = run(
                target,
                WaveSize::W32,
                &format!("\t{inst} v1, v2\n\ts_mov_b32 s0, exec_lo"),
                &[a.to_bits(), b.to_bits()],
                &[],
            );
            r.s[0]
        };
        let nge = "v_cmpx_nge_f32_e32";
        assert_eq!(exec_after(nge, 1.0, 2.0), u32::MAX, "{target}: 1 < 2");
        assert_eq!(exec_after(nge, 2.0, 2.0), 0, "{target}: 2 >= 2");
        assert_eq!(exec_after(nge, 3.0, 2.0), 0, "{target}: 3 >= 2");
        assert_eq!(
            exec_after(nge, 1.0, f32::NAN),
            u32::MAX,
            "{target}: unordered"
        );
        let u = "v_cmpx_u_f32_e32";
        assert_eq!(exec_after(u, 1.0, 2.0), 0, "{target}: ordered");
        assert_eq!(
            exec_after(u, f32::NAN, 2.0),
            u32::MAX,
            "{target}: NaN first"
        );
        assert_eq!(
            exec_after(u, 2.0, f32::NAN),
            u32::MAX,
            "{target}: NaN second"
        );
    }
}
