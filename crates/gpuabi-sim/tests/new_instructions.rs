//! Semantics of the bit-counting, float, compare, 64-bit multiply-add, source-modifier and
//! sub-dword memory instructions, against hand-computed values.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{
    border, clamp, filter, image_type, Descriptor, Image, ImageResource, LaneValues, Machine,
    Sampler, Wave, WaveSetup, LINEAR_TILING_INDEX,
};

fn machine(target: Target, wave: WaveSize, body: &str) -> Machine {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Machine::new(Image::new(&p).unwrap())
}

fn run(target: Target, wave: WaveSize, body: &str, setup: WaveSetup) -> Wave {
    machine(target, wave, body)
        .run("main", &[setup])
        .unwrap()
        .expect("one wave")
}

fn f(w: &Wave, v: u16) -> f32 {
    f32::from_bits(w.v(v, 0))
}

fn uniform(regs: &[(u16, u32)]) -> WaveSetup {
    WaveSetup {
        vgprs: regs
            .iter()
            .map(|&(r, v)| (r, LaneValues::Uniform(v)))
            .collect(),
        ..Default::default()
    }
}

#[test]
fn bit_counts() {
    for (target, wave) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1100, WaveSize::W32),
    ] {
        let (ffbh, flbit) = if target == Target::Gfx1100 {
            ("v_clz_i32_u32", "s_clz_i32_u32")
        } else {
            ("v_ffbh_u32", "s_flbit_i32_b32")
        };
        let w = run(
            target,
            wave,
            &format!(
                "v_bcnt_u32_b32 v0, v1, 3\n {ffbh} v2, 1\n {ffbh} v3, 0\n {ffbh} v4, v1\n \
                 {flbit} s0, 0x10000\n {flbit} s1, 0\n v_cvt_f32_ubyte0 v5, 0x1234"
            ),
            uniform(&[(1, 0x8000_00ff)]),
        );
        assert_eq!(w.v(0, 0), 9 + 3, "popcount(0x800000ff) + 3");
        assert_eq!(w.v(2, 0), 31);
        assert_eq!(w.v(3, 0), u32::MAX, "no bit set gives -1");
        assert_eq!(w.v(4, 0), 0);
        assert_eq!(w.sgpr[0], 15);
        assert_eq!(w.sgpr[1], u32::MAX);
        assert_eq!(f(&w, 5), 52.0, "low byte 0x34");
    }
}

#[test]
fn rounding_and_transcendentals() {
    let w = run(
        Target::Gfx1030,
        WaveSize::W32,
        "v_ceil_f32 v10, -0.5\n v_trunc_f32 v11, v1\n v_rndne_f32 v12, v2\n v_rndne_f32 v13, v3\n \
         v_fract_f32 v14, -0.5\n v_sin_f32 v15, 0.5\n v_cos_f32 v16, 0.5\n v_exp_f32 v17, -1.0\n \
         v_log_f32 v18, 4.0\n v_rsq_f32 v19, 4.0\n v_ldexp_f32 v20, 1.0, s0\n v_ldexp_f32 v21, v4, 2\n \
         v_log_f32 v22, -1.0\n v_sqrt_f32 v23, -1.0\n v_add_f32 v24, v5, v6\n v_mul_f32 v25, v7, 1.0",
        WaveSetup {
            sgprs: vec![(0, (-149i32) as u32)],
            ..uniform(&[
                (1, (-1.5f32).to_bits()),
                (2, 2.5f32.to_bits()),
                (3, 3.5f32.to_bits()),
                (4, 3.0f32.to_bits()),
                (5, f32::INFINITY.to_bits()),
                (6, f32::NEG_INFINITY.to_bits()),
                // A signalling NaN with a payload.
                (7, 0xff80_0123),
            ])
        },
    );
    assert_eq!(w.v(10, 0), 0x8000_0000, "ceil(-0.5) = -0");
    assert_eq!(f(&w, 11), -1.0);
    assert_eq!(f(&w, 12), 2.0, "ties to even");
    assert_eq!(f(&w, 13), 4.0);
    assert_eq!(f(&w, 14), 0.5, "-0.5 - floor(-0.5)");
    // sin(2π·0.5): r = 0.5 - round_ties_even(0.5) = 0.5, and sin of the f64 nearest π is
    // 1.2246e-16, not 0.
    assert!(
        f(&w, 15) > 1.22e-16 && f(&w, 15) < 1.23e-16,
        "{}",
        f(&w, 15)
    );
    assert_eq!(f(&w, 16), -1.0);
    assert_eq!(f(&w, 17), 0.5);
    assert_eq!(f(&w, 18), 2.0);
    assert_eq!(f(&w, 19), 0.5);
    assert_eq!(w.v(20, 0), 1, "2^-149 is the smallest denormal");
    assert_eq!(f(&w, 21), 12.0);
    assert_eq!(
        w.v(22, 0),
        0x7fc0_0000,
        "log of a negative number: default NaN"
    );
    assert_eq!(w.v(23, 0), 0x7fc0_0000);
    assert_eq!(
        w.v(24, 0),
        0x7fc0_0000,
        "inf - inf: default NaN, not the host's"
    );
    assert_eq!(w.v(25, 0), 0xffc0_0123, "a NaN operand comes back quieted");
}

#[test]
fn source_modifiers() {
    let w = run(
        Target::Gfx8,
        WaveSize::W64,
        "v_add_f32_e64 v10, -|v1|, 1.0\n v_fma_f32 v11, -v1, |v2|, neg(v3)\n \
         v_mul_f32 v12, abs(v2), v1\n v_cmp_gt_f32_e64 s[0:1], |v1|, 2.0\n v_cmp_class_f32 vcc, -v4, 4",
        uniform(&[
            (1, (-3.0f32).to_bits()),
            (2, (-2.0f32).to_bits()),
            (3, 0.5f32.to_bits()),
            (4, f32::INFINITY.to_bits()),
        ]),
    );
    assert_eq!(f(&w, 10), -2.0, "-|-3| + 1");
    assert_eq!(f(&w, 11), 5.5, "3 * 2 - 0.5");
    assert_eq!(f(&w, 12), -6.0, "2 * -3");
    assert_eq!(w.sgpr[0], u32::MAX, "|-3| > 2 in every lane");
    assert_eq!(w.vcc(), u64::MAX, "-inf has class bit 2");
}

#[test]
fn compares_and_wide_multiply_add() {
    let w = run(
        Target::Gfx1030,
        WaveSize::W32,
        "v_cmp_lt_i64 s0, v[0:1], 0\n v_cmp_lt_u64 s1, v[0:1], 0\n v_cmp_eq_u64 s2, v[0:1], -1\n \
         v_cmp_o_f32 s3, v4, v5\n v_cmp_o_f32 s4, v5, v5\n \
         v_mad_u64_u32 v[6:7], s5, v2, v2, v[0:1]\n v_mad_u64_u32 v[8:9], s6, v2, 2, 3",
        WaveSetup {
            exec: Some(0b101),
            ..uniform(&[
                (0, u32::MAX),
                (1, u32::MAX),
                (2, u32::MAX),
                (4, f32::NAN.to_bits()),
                (5, 1.0f32.to_bits()),
            ])
        },
    );
    assert_eq!(w.sgpr[0], 0b101, "-1 < 0 signed, active lanes only");
    assert_eq!(w.sgpr[1], 0, "0xffff_ffff_ffff_ffff < 0 unsigned is false");
    assert_eq!(w.sgpr[2], 0b101);
    assert_eq!(w.sgpr[3], 0, "NaN is unordered");
    assert_eq!(w.sgpr[4], 0b101);
    // (2^32-1)^2 + (2^64-1) = 2^65 - 2^33: low 64 bits 0xffff_fffe_0000_0000, carry out.
    assert_eq!((w.v(6, 0), w.v(7, 0)), (0, 0xffff_fffe));
    assert_eq!(w.sgpr[5], 0b101);
    // (2^32-1)*2 + 3 = 0x2_0000_0001, no carry.
    assert_eq!((w.v(8, 0), w.v(9, 0)), (1, 2));
    assert_eq!(w.sgpr[6], 0);
    assert_eq!(w.v(6, 1), 0, "inactive lane untouched");
}

/// Loads and stores of bytes and shorts: the byte at offset 1 is 0x80 (sign bit set), the
/// short at offset 2 is 0x8001. `setup` gets the buffer's address; v14 holds 0x12345678.
fn narrow_memory(
    target: Target,
    wave: WaveSize,
    body: &str,
    setup: impl Fn(u64) -> WaveSetup,
) -> Vec<u8> {
    let mut m = machine(target, wave, body);
    let id = m
        .memory
        .add(
            "buf",
            vec![0x11, 0x80, 0x01, 0x80, 0, 0, 0, 0, 0, 0],
            1 << 20,
        )
        .unwrap();
    let base = m.memory.buffer(id).base;
    let mut setup = setup(base);
    setup.vgprs.push((14, LaneValues::Uniform(0x1234_5678)));
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    assert_eq!(w.v(10, 0), 0x80, "ubyte zero-extends");
    assert_eq!(w.v(11, 0), 0xffff_ff80, "sbyte sign-extends");
    assert_eq!(w.v(12, 0), 0x8001, "ushort zero-extends");
    assert_eq!(w.v(13, 0), 0xffff_8001, "sshort sign-extends");
    m.memory.buffer(id).data.clone()
}

/// VGPR pairs holding `base + offset` for each `(first register, offset)`.
fn pairs(base: u64, regs: &[(u16, u64)]) -> WaveSetup {
    let mut s = WaveSetup::default();
    for &(r, off) in regs {
        let a = base + off;
        s.vgprs.push((r, LaneValues::Uniform(a as u32)));
        s.vgprs.push((r + 1, LaneValues::Uniform((a >> 32) as u32)));
    }
    s
}

#[test]
fn byte_and_short_memory() {
    // gfx1030 global: a pair address and instruction offsets.
    let data = narrow_memory(
        Target::Gfx1030,
        WaveSize::W32,
        "global_load_ubyte v10, v[0:1], off offset:1\n global_load_sbyte v11, v[0:1], off offset:1\n \
         global_load_ushort v12, v[0:1], off offset:2\n global_load_sshort v13, v[0:1], off offset:2\n \
         global_store_byte v[0:1], v14, off offset:4\n global_store_short v[0:1], v14, off offset:6",
        |base| pairs(base, &[(0, 0)]),
    );
    assert_eq!(&data[4..10], &[0x78, 0, 0x78, 0x56, 0, 0]);
    // gfx1100 spellings.
    let data = narrow_memory(
        Target::Gfx1100,
        WaveSize::W32,
        "global_load_u8 v10, v[0:1], off offset:1\n global_load_i8 v11, v[0:1], off offset:1\n \
         global_load_u16 v12, v[0:1], off offset:2\n global_load_i16 v13, v[0:1], off offset:2\n \
         global_store_b16 v[0:1], v14, off offset:8",
        |base| pairs(base, &[(0, 0)]),
    );
    assert_eq!(&data[8..10], &[0x78, 0x56]);
    // gfx8 flat: VGPR pair addresses, no offset.
    let data = narrow_memory(
        Target::Gfx8,
        WaveSize::W64,
        "flat_load_ubyte v10, v[2:3]\n flat_load_sbyte v11, v[2:3]\n flat_load_ushort v12, v[6:7]\n \
         flat_load_sshort v13, v[6:7]\n flat_store_short v[4:5], v14\n flat_store_byte v[8:9], v14",
        |base| pairs(base, &[(2, 1), (6, 2), (4, 6), (8, 9)]),
    );
    assert_eq!(&data[6..10], &[0x78, 0x56, 0, 0x78]);
    // gfx8 buffer: a raw descriptor over the buffer.
    let data = narrow_memory(
        Target::Gfx8,
        WaveSize::W64,
        "buffer_load_ubyte v10, off, s[4:7], 0 offset:1\n buffer_load_sbyte v11, off, s[4:7], 0 offset:1\n \
         buffer_load_ushort v12, off, s[4:7], 0 offset:2\n buffer_load_sshort v13, off, s[4:7], 0 offset:2\n \
         buffer_store_byte v14, off, s[4:7], 0 offset:9\n buffer_store_short v14, off, s[4:7], 0 offset:9",
        |base| {
            let d = Descriptor {
                base,
                stride: 0,
                num_records: 10,
                swizzle: false,
                add_tid: false,
                index_stride: 8,
                element_size: 4,
            }
            .encode();
            WaveSetup {
                sgprs: (0..4).map(|i| (4 + i as u16, d[i])).collect(),
                ..Default::default()
            }
        },
    );
    // The short at offset 9 would end at byte 11, past the 10-byte range: dropped.
    assert_eq!(data[9], 0x78);
}

#[test]
fn implicit_vcc_reads_are_tracked() {
    let mut m = machine(
        Target::Gfx1030,
        WaveSize::W32,
        "v_mov_b32 v0, 1.0\n v_div_fmas_f32 v1, v0, v0, v0",
    );
    m.track_undefined = true;
    m.run("main", &[WaveSetup::default()]).unwrap();
    let regs: Vec<&str> = m.undefined.iter().map(|u| u.register.as_str()).collect();
    assert_eq!(
        regs,
        ["vcc_lo"],
        "v_div_fmas_f32 reads vcc, which nothing wrote"
    );
}

/// The rows that are VOP2 on GCN 1.0/1.1 (`v_readlane_b32`, `v_writelane_b32`,
/// `v_bcnt_u32_b32`, `v_ldexp_f32`) compute the same as on later targets, in their 32-bit
/// and 64-bit encodings; gfx7's literal scalar-load offset counts dwords like the 8-bit one.
#[test]
fn gcn1_vop2_rows_and_literal_smrd_offset() {
    for target in [Target::Gfx6, Target::Gfx7] {
        let literal_load = if target == Target::Gfx7 {
            "\n s_load_dword s9, s[0:1], 0x101"
        } else {
            ""
        };
        let mut m = machine(
            target,
            WaveSize::W64,
            &format!(
                "v_bcnt_u32_b32 v0, v1, v3\n v_bcnt_u32_b32_e64 v2, s4, 3\n \
                 v_ldexp_f32 v10, 1.5, v3\n v_ldexp_f32 v11, -v12, s5\n \
                 v_readlane_b32 s6, v13, 37\n v_readlane_b32 s7, v13, m0\n \
                 v_writelane_b32 v14, s8, 5\n v_writelane_b32 v15, 0x12345, m0\n \
                 s_load_dword s10, s[0:1], 0xff{literal_load}"
            ),
        );
        let data: Vec<u8> = (0..0x110u32).flat_map(|i| (i * 7).to_le_bytes()).collect();
        let buf = m.memory.add("data", data, 1 << 20).unwrap();
        let base = m.memory.buffer(buf).base;
        let setup = WaveSetup {
            sgprs: vec![
                (0, base as u32),
                (1, (base >> 32) as u32),
                (4, 0xf0f0),
                (5, (-2i32) as u32),
                (8, 77),
                (124, 60),
            ],
            vgprs: vec![
                (1, LaneValues::Uniform(0x8000_00ff)),
                (3, LaneValues::Uniform(3)),
                (12, LaneValues::Uniform(10.0f32.to_bits())),
                (13, LaneValues::LaneId(1000)),
                (14, LaneValues::Uniform(1)),
                (15, LaneValues::Uniform(2)),
            ],
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        assert_eq!(w.v(0, 0), 9 + 3, "{target}: popcount(0x800000ff) + 3");
        assert_eq!(w.v(2, 0), 8 + 3, "{target}: popcount(0xf0f0) + 3");
        assert_eq!(f(&w, 10), 12.0, "{target}: 1.5 * 2^3");
        assert_eq!(f(&w, 11), -2.5, "{target}: -10 * 2^-2");
        assert_eq!(w.sgpr[6], 1037, "{target}: lane 37");
        assert_eq!(w.sgpr[7], 1060, "{target}: lane m0 = 60");
        for lane in 0..64 {
            assert_eq!(w.v(14, lane), if lane == 5 { 77 } else { 1 }, "{target}");
            assert_eq!(
                w.v(15, lane),
                if lane == 60 { 0x12345 } else { 2 },
                "{target}"
            );
        }
        assert_eq!(w.sgpr[10], 0xff * 7, "{target}: dword 0xff");
        if target == Target::Gfx7 {
            assert_eq!(w.sgpr[9], 0x101 * 7, "dword 0x101 through the literal");
        }
    }
}

/// Typed buffer accesses on GCN 1.0/1.1 convert between memory elements and registers by
/// their data and number format: hand-computed values for each conversion class, a
/// multi-dword format, a byte element at the end of a raw buffer's range, and a store that
/// does not convert exactly, which is refused with the instruction named.
#[test]
fn typed_buffer_formats() {
    let descriptor = |base: u64, num_records: u32| {
        Descriptor {
            base,
            stride: 0,
            num_records,
            swizzle: false,
            add_tid: false,
            index_stride: 8,
            element_size: 4,
        }
        .encode()
    };
    let memory: Vec<u8> = vec![
        0xff, 0x00, 0x80, 0x33, // 0: 8_8_8_8
        0x00, 0x3c, 0x00, 0xc0, // 4: 16_16 FLOAT 1.0, -2.0
        0xfe, 0x05, 0x00, 0x00, // 8: 8_8 SINT -2, 5
        0x78, 0x56, 0x34, 0x12, // 12: 32_32 (with 16)
        0x21, 0x43, 0x65, 0x87, // 16
        0x00, 0x00, 0x00, 0x00, // 20: stores
        0x00, 0x00, 0x00, 0x00, // 24
        0x00, 0x00, 0x00, 0x07, // 28: the last byte is 7
    ];
    let body = "tbuffer_load_format_xyzw v[0:3], off, s[4:7], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM]\n \
         tbuffer_load_format_xy v[4:5], off, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offset:4\n \
         tbuffer_load_format_xyzw v[6:9], off, s[4:7], 0 format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_SINT] offset:8\n \
         tbuffer_load_format_xyz v[10:12], off, s[4:7], 0 format:[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_UINT] offset:12\n \
         tbuffer_load_format_x v13, off, s[4:7], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_USCALED] offset:31\n \
         tbuffer_store_format_xy v[14:15], off, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM] offset:20\n \
         tbuffer_store_format_x v16, off, s[4:7], 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_FLOAT] offset:24\n \
         tbuffer_store_format_xyzw v[0:3], off, s[4:7], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offset:26";
    for target in [Target::Gfx6, Target::Gfx7] {
        let mut m = machine(target, WaveSize::W64, body);
        let buf = m.memory.add("data", memory.clone(), 1 << 20).unwrap();
        let d = descriptor(m.memory.buffer(buf).base, 32);
        let setup = WaveSetup {
            exec: Some(1),
            sgprs: (0..4).map(|i| (4 + i as u16, d[i])).collect(),
            vgprs: vec![
                (14, LaneValues::Uniform(0.5f32.to_bits())),
                (15, LaneValues::Uniform((-2.0f32).to_bits())),
                (16, LaneValues::Uniform((-0.25f32).to_bits())),
            ],
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        let f = |r| f32::from_bits(w.v(r, 0));
        assert_eq!([f(0), f(1), f(2), f(3)], [1.0, 0.0, 128.0 / 255.0, 0.2]);
        assert_eq!([f(4), f(5)], [1.0, -2.0]);
        // 8_8 has two components: z reads 0 and w integer 1.
        assert_eq!(
            [w.v(6, 0), w.v(7, 0), w.v(8, 0), w.v(9, 0)],
            [(-2i32) as u32, 5, 0, 1]
        );
        assert_eq!(
            [w.v(10, 0), w.v(11, 0), w.v(12, 0)],
            [0x1234_5678, 0x8765_4321, 0]
        );
        // The byte at offset 31 is in range of the 32-byte buffer.
        assert_eq!(f(13), 7.0);
        let out = &m.memory.buffer(buf).data;
        // SNORM16: 0.5 * 32767 = 16383.5 rounds to the even 16384 = 0x4000; -2.0 clamps to
        // -32767 = 0x8001.
        assert_eq!(&out[20..24], &[0x00, 0x40, 0x01, 0x80]);
        // -0.25 as a half is 0xb400.
        assert_eq!(&out[24..26], &[0x00, 0xb4]);
        // The 8_8_8_8 element read back: 1.0, 0.0, 128/255 and 0.2 give the same bytes.
        assert_eq!(&out[26..30], &[0xff, 0x00, 0x80, 0x33]);
    }
    // A UINT store of a value the component cannot hold.
    let mut m = machine(
        Target::Gfx6,
        WaveSize::W64,
        "tbuffer_store_format_x v0, off, s[4:7], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UINT]",
    );
    let buf = m.memory.add("data", vec![0; 4], 1 << 20).unwrap();
    let d = descriptor(m.memory.buffer(buf).base, 4);
    let setup = WaveSetup {
        exec: Some(1),
        sgprs: (0..4).map(|i| (4 + i as u16, d[i])).collect(),
        vgprs: vec![(0, LaneValues::Uniform(256))],
        ..Default::default()
    };
    let e = m.run("main", &[setup]).unwrap_err().to_string();
    assert!(
        e.contains("tbuffer_store_format_x") && e.contains("0x100"),
        "{e}"
    );
}

/// The negated float compares are the negation of the ordered ones ("RDNA2 ISA", VOPC
/// opcodes 9-14): true when either source is NaN. Sources: v4 = NaN, v5 = 1, v6 = 2.
#[test]
fn negated_float_compares_are_true_on_nan() {
    let w = run(
        Target::Gfx1030,
        WaveSize::W32,
        "v_cmp_nlt_f32 s0, v4, v5\n v_cmp_nlt_f32 s1, v5, v6\n v_cmp_nlt_f32 s2, v6, v5\n \
         v_cmp_nge_f32 s3, v5, v6\n v_cmp_ngt_f32 s4, v6, v5\n v_cmp_nle_f32 s5, v5, v6\n \
         v_cmp_nlg_f32 s6, v5, v5\n v_cmp_nlg_f32 s7, v5, v6\n v_cmp_ngt_f32 s8, v5, v4",
        WaveSetup {
            exec: Some(0b11),
            ..uniform(&[
                (4, f32::NAN.to_bits()),
                (5, 1.0f32.to_bits()),
                (6, 2.0f32.to_bits()),
            ])
        },
    );
    assert_eq!(w.sgpr[0], 0b11, "NaN < 1 is false, so not-less-than holds");
    assert_eq!(w.sgpr[1], 0, "1 < 2");
    assert_eq!(w.sgpr[2], 0b11, "2 < 1 is false");
    assert_eq!(w.sgpr[3], 0b11, "1 >= 2 is false");
    assert_eq!(w.sgpr[4], 0, "2 > 1");
    assert_eq!(w.sgpr[5], 0, "1 <= 2");
    assert_eq!(w.sgpr[6], 0b11, "1 is neither less nor greater than 1");
    assert_eq!(w.sgpr[7], 0, "1 < 2");
    assert_eq!(w.sgpr[8], 0b11, "1 > NaN is false");
}

/// An 8-dword T# of a linear 2D image at `base`.
fn image(base: u64, format: (u8, u8), size: (u32, u32), dst_sel: [u8; 4]) -> [u32; 8] {
    ImageResource {
        base,
        data_format: format.0,
        num_format: format.1,
        width: size.0,
        height: size.1,
        depth: 1,
        pitch: size.0,
        dst_sel,
        base_level: 0,
        last_level: 0,
        tiling_index: LINEAR_TILING_INDEX,
        ty: image_type::D2,
    }
    .encode()
}

fn sampler(clamp: u8, filter: u8, unnormalized: bool) -> [u32; 4] {
    Sampler {
        clamp: [clamp; 3],
        force_unnormalized: unnormalized,
        mag_filter: filter,
        min_filter: filter,
        z_filter: 0,
        mip_filter: 0,
        filter_mode: 0,
        border_color: border::TRANS_BLACK,
    }
    .encode()
}

/// Image loads, stores and samples on GCN 1.0/1.1 against hand-computed values: a 2×2
/// RGBA8 UNORM image read by integer coordinates through a swizzle, past its edge and at a
/// mip level it lacks; an R32 FLOAT image written with four components (the format keeps
/// x); a 2×2 RGBA32 FLOAT image sampled bilinearly at texel corners (weights ½) with the
/// border beyond it, point sampled with wrapping normalized coordinates; a UINT image,
/// which is point sampled whatever the filter.
#[test]
fn image_instructions() {
    // DATA_FORMAT 10 = 8_8_8_8, 4 = 32, 14 = 32_32_32_32; NUM_FORMAT 0 UNORM, 7 FLOAT,
    // 4 UINT ("Southern Islands Series ISA", image resource).
    let rgba8: Vec<u8> = vec![0, 51, 102, 255, 255, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
    let texels = [
        [1.0f32, 2.0, 4.0, 8.0],
        [3.0, 6.0, 12.0, 24.0],
        [5.0, 10.0, 20.0, 40.0],
        [7.0, 14.0, 28.0, 56.0],
    ];
    let rgba32f: Vec<u8> = texels
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let uint: Vec<u8> = [10u32, 20, 30, 40]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let body = "image_load v[0:3], v20, s[8:15] dmask:0xf unorm\n \
         image_load v[4:5], v22, s[8:15] dmask:0x5 unorm\n \
         image_load_mip v[6:7], v24, s[8:15] dmask:0x3 unorm\n \
         image_store v[8:11], v20, s[16:23] dmask:0xf unorm glc\n \
         image_sample v[12:15], v26, s[24:31], s[40:43] dmask:0xf unorm\n \
         image_sample v[30:33], v28, s[24:31], s[40:43] dmask:0xf unorm\n \
         image_sample v[34:35], v36, s[24:31], s[44:47] dmask:0x9\n \
         image_sample v38, v26, s[32:39], s[40:43] dmask:0x1 unorm";
    for target in [Target::Gfx6, Target::Gfx7] {
        let mut m = machine(target, WaveSize::W64, body);
        let a = m.memory.add("rgba8", rgba8.clone(), 1 << 20).unwrap();
        let b = m.memory.add("r32f", vec![0; 16], 1 << 20).unwrap();
        let c = m.memory.add("rgba32f", rgba32f.clone(), 1 << 20).unwrap();
        let d = m.memory.add("uint", uint.clone(), 1 << 20).unwrap();
        let base = |id| m.memory.buffer(id).base;
        // Selects: x = blue (6), y = green (5), z = 0, w = 1.
        let t_a = image(base(a), (10, 0), (2, 2), [6, 5, 0, 1]);
        let t_b = image(base(b), (4, 7), (2, 2), [4, 5, 6, 7]);
        let t_c = image(base(c), (14, 7), (2, 2), [4, 5, 6, 7]);
        let t_d = image(base(d), (4, 4), (2, 2), [4, 5, 6, 7]);
        let s_border = sampler(clamp::CLAMP_BORDER, filter::BILINEAR, false);
        let s_wrap = sampler(clamp::WRAP, filter::POINT, false);
        let mut sgprs = Vec::new();
        for (first, words) in [
            (8, &t_a[..]),
            (16, &t_b[..]),
            (24, &t_c[..]),
            (32, &t_d[..]),
        ] {
            sgprs.extend(
                words
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (first + k as u16, *v)),
            );
        }
        sgprs.extend(
            s_border
                .iter()
                .enumerate()
                .map(|(k, v)| (40 + k as u16, *v)),
        );
        sgprs.extend(s_wrap.iter().enumerate().map(|(k, v)| (44 + k as u16, *v)));
        let u = |v: u32| LaneValues::Uniform(v);
        let fl = |v: f32| LaneValues::Uniform(v.to_bits());
        let setup = WaveSetup {
            exec: Some(1),
            sgprs,
            vgprs: vec![
                (20, u(1)), // (1, 0)
                (21, u(0)),
                (22, u(2)), // (2, 1): past the edge
                (23, u(1)),
                (24, u(0)), // (0, 1) at mip level 1
                (25, u(1)),
                (8, fl(0.75)),
                (9, fl(9.0)),
                (10, fl(9.0)),
                (11, fl(9.0)),
                (26, fl(1.0)), // texel corner (1, 1)
                (27, fl(1.0)),
                (28, fl(0.0)), // texel corner (0, 0): three border texels
                (29, fl(0.0)),
                (36, fl(1.25)), // normalized (1.25, -0.25) wraps to texel (0, 1)
                (37, fl(-0.25)),
            ],
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        let f = |r| f32::from_bits(w.v(r, 0));
        // Texel (1, 0) = bytes 255, 0, 0, 0: x = blue 0, y = green 0, z = 0, w = 1.0.
        assert_eq!([f(0), f(1), f(2), f(3)], [0.0, 0.0, 0.0, 1.0]);
        assert_eq!([w.v(4, 0), w.v(5, 0)], [0, 0], "past the edge");
        assert_eq!(
            [w.v(6, 0), w.v(7, 0)],
            [0, 0],
            "a mip level the image lacks"
        );
        // The R32 FLOAT texel (1, 0): x only.
        let r32 = &m.memory.buffer(b).data;
        assert_eq!(&r32[4..8], &0.75f32.to_le_bytes());
        assert_eq!(&r32[0..4], &[0; 4]);
        // Bilinear at (1, 1): the four texels with weight ¼ each.
        assert_eq!([f(12), f(13), f(14), f(15)], [4.0, 8.0, 16.0, 32.0]);
        // At (0, 0): texel (0, 0) with weight ¼, the rest transparent black.
        assert_eq!([f(30), f(31), f(32), f(33)], [0.25, 0.5, 1.0, 2.0]);
        // Point, wrapped: texel (0, 1) = (5, 10, 20, 40); dmask 0x9 gives x and w.
        assert_eq!([f(34), f(35)], [5.0, 40.0]);
        // UINT at texel corner (1, 1): the texel ⌊1⌋ = (1, 1), 40, not a blend.
        assert_eq!(w.v(38, 0), 40);
    }
}

/// GCN 1.0/1.1's 64-bit shifts take the value first and the amount second ("Southern
/// Islands Series ISA", V_LSHR_B64: D = S0 >> S1[5:0]; V_ASHR_I64 keeps the sign).
#[test]
fn gcn1_64bit_right_shifts() {
    let w = run(
        Target::Gfx6,
        WaveSize::W64,
        "v_lshr_b64 v[2:3], v[0:1], 4\n v_ashr_i64 v[4:5], v[0:1], 36\n v_lshl_b64 v[6:7], v[0:1], v8",
        uniform(&[(0, 0x8765_4321), (1, 0x8000_00f0), (8, 68)]),
    );
    // 0x800000f0_87654321 >> 4 = 0x0800000f_08765432.
    assert_eq!([w.v(2, 0), w.v(3, 0)], [0x0876_5432, 0x0800_000f]);
    // Arithmetic >> 36: the high dword 0x800000f0 >> 4 sign-extended.
    assert_eq!([w.v(4, 0), w.v(5, 0)], [0xf800_000f, 0xffff_ffff]);
    // The amount counts modulo 64: << 4.
    assert_eq!([w.v(6, 0), w.v(7, 0)], [0x7654_3210, 0x0000_0f08]);
}

/// A normalized coordinate computed with an inexact 1/width, as AMD's code computes it for
/// argument samplers, lands on its texel: texel 3 of a 25-texel row is read at 3 × (1/25)
/// in f32 = 0.119999997, which is 2.99999993 texels before rounding to 1/256 of a texel.
#[test]
fn sample_coordinates_round_to_subtexels() {
    let u = 3.0f32 * (1.0f32 / 25.0);
    assert!(f64::from(u) * 25.0 < 3.0);
    let row: Vec<u8> = (0..25u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let mut m = machine(
        Target::Gfx6,
        WaveSize::W64,
        "image_sample v0, v2, s[8:15], s[16:19] dmask:0x1",
    );
    let b = m.memory.add("row", row, 1 << 20).unwrap();
    let t = image(m.memory.buffer(b).base, (4, 7), (25, 1), [4, 0, 0, 1]);
    let s = sampler(clamp::CLAMP_LAST_TEXEL, filter::POINT, false);
    let mut sgprs: Vec<(u16, u32)> = t
        .iter()
        .enumerate()
        .map(|(k, v)| (8 + k as u16, *v))
        .collect();
    sgprs.extend(s.iter().enumerate().map(|(k, v)| (16 + k as u16, *v)));
    let setup = WaveSetup {
        exec: Some(1),
        sgprs,
        vgprs: vec![
            (2, LaneValues::Uniform(u.to_bits())),
            (3, LaneValues::Uniform(0.5f32.to_bits())),
        ],
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    assert_eq!(f32::from_bits(w.v(0, 0)), 3.0);
}
