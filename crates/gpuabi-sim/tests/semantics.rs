//! Instruction semantics against hand-computed results for edge values.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Origin, Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, SimError, Wave, WaveSetup};

fn machine(target: Target, wave: WaveSize, body: &str) -> Machine {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Machine::new(Image::new(&p).unwrap())
}

fn run_on(target: Target, wave: WaveSize, body: &str, setup: WaveSetup) -> Wave {
    let mut m = machine(target, wave, body);
    m.run("main", &[setup]).unwrap().expect("one wave")
}

fn run64(body: &str, setup: WaveSetup) -> Wave {
    run_on(Target::Gfx8, WaveSize::W64, body, setup)
}

fn sgprs(values: &[(u16, u32)]) -> WaveSetup {
    WaveSetup {
        sgprs: values.to_vec(),
        ..Default::default()
    }
}

#[test]
fn scalar_carries_and_borrows() {
    let w = run64(
        "s_add_u32 s0, s10, 1\n s_addc_u32 s1, 0, 0\n s_cselect_b32 s2, 1, 2",
        sgprs(&[(10, 0xffff_ffff)]),
    );
    assert_eq!(w.sgpr[0], 0);
    assert_eq!(w.sgpr[1], 1, "carry of the low add goes into the high add");
    assert_eq!(w.sgpr[2], 2, "s_addc 0+0+1 has no carry out");
    let w = run64(
        "s_sub_u32 s0, 0, 1\n s_subb_u32 s1, 5, 2\n s_cselect_b32 s3, 1, 2\n s_subb_u32 s2, 5, 2",
        WaveSetup::default(),
    );
    assert_eq!(w.sgpr[0], 0xffff_ffff);
    assert_eq!(w.sgpr[1], 2, "5 - 2 - borrow");
    assert_eq!(w.sgpr[3], 2, "no borrow out of 5-2-1");
    assert_eq!(w.sgpr[2], 3);
    let w = run64(
        "s_add_i32 s0, s10, 1\n s_cselect_b32 s1, 1, 0\n s_add_u32 s2, s10, 1\n s_cselect_b32 s3, 1, 0",
        sgprs(&[(10, 0x7fff_ffff)]),
    );
    assert_eq!(
        (w.sgpr[0], w.sgpr[1]),
        (0x8000_0000, 1),
        "signed overflow sets SCC"
    );
    assert_eq!(w.sgpr[3], 0, "no unsigned carry");
}

#[test]
fn scalar_shifts_and_bits() {
    let w = run64(
        "s_ashr_i32 s0, s10, 4\n s_lshr_b32 s1, s10, 4\n s_lshl_b32 s2, 1, 33\n \
         s_ashr_i64 s[4:5], s[12:13], 36\n s_ff1_i32_b32 s6, 0\n s_ff1_i32_b32 s7, 0x80\n \
         s_bcnt1_i32_b64 s8, s[12:13]\n s_lshl_b64 s[14:15], 1, 63",
        sgprs(&[(10, 0x8000_0000), (12, 0), (13, 0x8000_0000)]),
    );
    assert_eq!(w.sgpr[0], 0xf800_0000);
    assert_eq!(w.sgpr[1], 0x0800_0000);
    assert_eq!(w.sgpr[2], 2, "shift amount is masked to 5 bits");
    // 0x8000_0000_0000_0000 >> 36 (arithmetic) = 0xffff_ffff_f800_0000.
    assert_eq!((w.sgpr[4], w.sgpr[5]), (0xf800_0000, 0xffff_ffff));
    assert_eq!(w.sgpr[6], u32::MAX, "no bit set gives -1");
    assert_eq!(w.sgpr[7], 7);
    assert_eq!(w.sgpr[8], 1);
    assert_eq!((w.sgpr[14], w.sgpr[15]), (0, 0x8000_0000));
    let w = run64(
        "s_bitcmp1_b32 s10, 3\n s_cselect_b32 s0, 1, 0\n s_bitcmp0_b32 s10, 3\n s_cselect_b32 s1, 1, 0\n \
         s_bitset1_b32 s2, 5\n s_bitset0_b32 s3, 0\n s_min_i32 s4, -5, 3\n s_max_u32 s5, -5, 3\n \
         s_movk_i32 s6, -300",
        sgprs(&[(10, 0b1000), (2, 1), (3, 0xff)]),
    );
    assert_eq!((w.sgpr[0], w.sgpr[1]), (1, 0));
    assert_eq!(w.sgpr[2], 0b10_0001);
    assert_eq!(w.sgpr[3], 0xfe);
    assert_eq!(w.sgpr[4], (-5i32) as u32);
    assert_eq!(w.sgpr[5], (-5i32) as u32, "as unsigned, -5 is the larger");
    assert_eq!(w.sgpr[6], (-300i32) as u32, "s_movk sign-extends");
}

#[test]
fn saveexec_family() {
    let setup = WaveSetup {
        exec: Some(0b1011),
        sgprs: vec![(2, 0b0110), (3, 0)],
        ..Default::default()
    };
    let w = run64(
        "s_and_saveexec_b64 s[0:1], s[2:3]\n s_cselect_b32 s4, 1, 0",
        setup.clone(),
    );
    assert_eq!((w.sgpr[0], w.sgpr[1]), (0b1011, 0));
    assert_eq!(w.exec(), 0b0010);
    assert_eq!(w.sgpr[4], 1);
    // andn2: EXEC = S0 & ~EXEC (the lanes of S0 not yet run).
    let w = run64("s_andn2_saveexec_b64 s[0:1], s[2:3]", setup.clone());
    assert_eq!(w.exec(), 0b0100);
    let w = run64(
        "s_xor_saveexec_b64 s[0:1], s[2:3]\n s_or_saveexec_b64 s[6:7], 0",
        setup,
    );
    assert_eq!((w.sgpr[6], w.exec()), (0b1101, 0b1101));
    // Wave32 on RDNA: the b32 forms and exec_lo; no lanes left clears SCC.
    let w = run_on(
        Target::Gfx1100,
        WaveSize::W32,
        "s_and_saveexec_b32 s0, 0\n s_cselect_b32 s1, 1, 0",
        WaveSetup::default(),
    );
    assert_eq!((w.sgpr[0], w.exec(), w.sgpr[1]), (0xffff_ffff, 0, 0));
}

fn lane_setup(exec: Option<u64>) -> WaveSetup {
    WaveSetup {
        exec,
        vgprs: vec![
            (1, LaneValues::LaneId(0)),
            (2, LaneValues::Uniform(0xffff_ffff)),
            (9, LaneValues::Uniform(0xaa)),
        ],
        ..Default::default()
    }
}

#[test]
fn exec_masked_writes_leave_inactive_lanes() {
    let w = run64("v_mov_b32 v9, 7", lane_setup(Some(0b101)));
    assert_eq!(w.v(9, 0), 7);
    assert_eq!(w.v(9, 1), 0xaa);
    assert_eq!(w.v(9, 2), 7);
    assert_eq!(w.v(9, 63), 0xaa);
}

#[test]
fn vector_carries() {
    // v2 + v1 = 0xffffffff + lane: lane 0 has no carry, every other lane carries.
    let w = run64("v_add_u32 v3, vcc, v2, v1", lane_setup(None));
    assert_eq!(w.vcc(), !1u64);
    assert_eq!(w.v(3, 5), 4);
    // Inactive lanes get 0 in the carry mask.
    let w = run64("v_add_u32 v3, vcc, v2, v1", lane_setup(Some(0xf)));
    assert_eq!(w.vcc(), 0b1110);
    // 64-bit add through the carry: (lane, 0xffffffff) + (0xffffffff, 0) per lane.
    let w = run64(
        "v_add_u32 v4, vcc, v1, v2\n v_addc_u32 v5, vcc, v2, 0, vcc",
        lane_setup(None),
    );
    assert_eq!((w.v(4, 0), w.v(5, 0)), (0xffff_ffff, 0xffff_ffff));
    assert_eq!((w.v(4, 3), w.v(5, 3)), (2, 0));
    assert_eq!(w.vcc(), !1u64, "the high add carries where the low one did");
    // Subtract with borrow on RDNA wave32.
    let w = run_on(
        Target::Gfx1030,
        WaveSize::W32,
        "v_sub_co_u32 v3, vcc_lo, v1, 1\n v_sub_co_ci_u32 v4, vcc_lo, 0, 0, vcc_lo\n v_sub_nc_u32 v5, 0, v1",
        lane_setup(None),
    );
    assert_eq!(w.v(3, 0), 0xffff_ffff);
    assert_eq!(w.v(4, 0), 0xffff_ffff, "0 - 0 - borrow");
    assert_eq!(w.v(4, 1), 0);
    assert_eq!(w.vcc(), 1, "only lane 0 borrows again");
    assert_eq!(w.v(5, 3), (-3i32) as u32);
}

#[test]
fn vector_shifts_and_multiplies() {
    let setup = WaveSetup {
        vgprs: vec![
            (1, LaneValues::Uniform(0x8000_0000)),
            (2, LaneValues::Uniform(0xffff_ffff)),
            (6, LaneValues::Uniform(1)),
            (7, LaneValues::Uniform(0)),
        ],
        ..Default::default()
    };
    let w = run64(
        "v_ashrrev_i32 v3, 4, v1\n v_lshrrev_b32 v4, 36, v1\n v_lshlrev_b64 v[10:11], 40, v[6:7]\n \
         v_ashrrev_i64 v[12:13], 1, v[10:11]\n v_mul_hi_u32 v14, v2, v2\n v_mul_hi_i32 v15, v2, v2\n \
         v_mul_lo_u32 v16, v2, v2",
        setup,
    );
    assert_eq!(w.v(3, 0), 0xf800_0000);
    assert_eq!(w.v(4, 0), 0x0800_0000, "amount masked to 4");
    assert_eq!((w.v(10, 0), w.v(11, 0)), (0, 1 << 8));
    assert_eq!((w.v(12, 0), w.v(13, 0)), (0, 1 << 7));
    assert_eq!(w.v(14, 0), 0xffff_fffe);
    assert_eq!(w.v(15, 0), 0, "(-1)*(-1) = 1 has high word 0");
    assert_eq!(w.v(16, 0), 1);
}

fn f(x: f32) -> LaneValues {
    LaneValues::Uniform(x.to_bits())
}

#[test]
fn float_min_max_nan_and_zero() {
    let setup = WaveSetup {
        vgprs: vec![(1, f(f32::NAN)), (2, f(1.0)), (3, f(-0.0)), (4, f(0.0))],
        ..Default::default()
    };
    let w = run64(
        "v_min_f32 v10, v1, v2\n v_max_f32 v11, v2, v1\n v_max_f32 v12, v3, v4\n v_min_f32 v13, v4, v3\n \
         v_min_f32 v14, v1, v1\n v_cmp_lt_f32 s[0:1], v1, v2\n v_cmp_neq_f32 s[2:3], v1, v2\n \
         v_cmp_u_f32 s[4:5], v1, v2\n v_cmp_lg_f32 s[6:7], v1, v2\n v_cmp_eq_f32 s[8:9], v3, v4",
        setup,
    );
    assert_eq!(f32::from_bits(w.v(10, 0)), 1.0, "min ignores a NaN operand");
    assert_eq!(f32::from_bits(w.v(11, 0)), 1.0);
    assert_eq!(w.v(12, 0), 0.0f32.to_bits(), "max(-0, +0) = +0");
    assert_eq!(w.v(13, 0), (-0.0f32).to_bits(), "min(+0, -0) = -0");
    assert!(f32::from_bits(w.v(14, 0)).is_nan());
    assert_eq!(w.sgpr[0], 0, "ordered compares are false on NaN");
    assert_eq!(w.sgpr[2], 0xffff_ffff, "neq is true on NaN");
    assert_eq!(w.sgpr[4], 0xffff_ffff);
    assert_eq!(w.sgpr[6], 0);
    assert_eq!(w.sgpr[8], 0xffff_ffff, "-0 == +0");
}

#[test]
fn float_arithmetic_and_conversions() {
    let setup = WaveSetup {
        vgprs: vec![
            (1, f(f32::NAN)),
            (2, f(3e9)),
            (3, f(-3e9)),
            (4, f(-1.5)),
            (5, f(4.0)),
        ],
        ..Default::default()
    };
    let w = run64(
        "v_cvt_i32_f32 v10, v1\n v_cvt_i32_f32 v11, v2\n v_cvt_i32_f32 v12, v3\n v_cvt_u32_f32 v13, v4\n \
         v_floor_f32 v14, v4\n v_sqrt_f32 v15, v5\n v_rcp_f32 v16, v5\n v_fma_f32 v17, v4, v5, 0.5\n \
         v_cvt_f32_i32 v18, -3\n v_cvt_f32_u32 v19, -1\n v_add_f32 v20, v4, 1.0\n v_mul_f32 v21, v4, v5\n v_sub_f32 v22, v5, v4",
        setup,
    );
    assert_eq!(w.v(10, 0), 0, "NaN converts to 0");
    assert_eq!(w.v(11, 0), i32::MAX as u32, "saturates");
    assert_eq!(w.v(12, 0), i32::MIN as u32);
    assert_eq!(w.v(13, 0), 0, "negative to unsigned is 0");
    assert_eq!(f32::from_bits(w.v(14, 0)), -2.0);
    assert_eq!(f32::from_bits(w.v(15, 0)), 2.0);
    assert_eq!(f32::from_bits(w.v(16, 0)), 0.25);
    assert_eq!(f32::from_bits(w.v(17, 0)), -5.5);
    assert_eq!(f32::from_bits(w.v(18, 0)), -3.0);
    assert_eq!(f32::from_bits(w.v(19, 0)), 4294967296.0);
    assert_eq!(f32::from_bits(w.v(20, 0)), -0.5);
    assert_eq!(f32::from_bits(w.v(21, 0)), -6.0);
    assert_eq!(f32::from_bits(w.v(22, 0)), 5.5);
}

#[test]
fn lane_access_and_cndmask() {
    let w = run64(
        "v_readfirstlane_b32 s0, v1\n v_readlane_b32 s1, v1, 5\n v_writelane_b32 v9, s0, 7\n \
         v_cmp_gt_u32 vcc, 4, v1\n v_cndmask_b32 v10, 10, v1, vcc\n s_mov_b32 exec_lo, 0\n s_mov_b32 exec_hi, 0\n \
         v_readfirstlane_b32 s2, v1",
        lane_setup(Some(0b1000_1000)),
    );
    assert_eq!(w.sgpr[0], 3, "first active lane is 3");
    assert_eq!(w.sgpr[1], 5, "readlane ignores exec");
    assert_eq!(w.v(9, 7), 3, "writelane ignores exec");
    assert_eq!(w.v(9, 3), 0xaa);
    // Lane 3 is active and 3 < 4: takes v1; lane 7: 7 >= 4 takes 10.
    assert_eq!(w.v(10, 3), 3);
    assert_eq!(w.v(10, 7), 10);
    assert_eq!(w.v(10, 0), 0, "inactive lane untouched");
    assert_eq!(w.sgpr[2], 0, "with no lane active, lane 0 is read");
}

#[test]
fn branches_and_loops() {
    // Sum 1..=10 with a scalar loop.
    let w = run64(
        "s_mov_b32 s0, 0\n s_mov_b32 s1, 10\nloop:\n s_add_u32 s0, s0, s1\n s_sub_u32 s1, s1, 1\n \
         s_cmp_lg_u32 s1, 0\n s_cbranch_scc1 loop\n s_mov_b64 exec, 0\n s_cbranch_execz skip\n s_mov_b32 s0, 0\nskip:\n \
         s_mov_b64 vcc, 0\n s_cbranch_vccnz skip2\n s_mov_b32 s2, 1\nskip2:",
        WaveSetup::default(),
    );
    assert_eq!(w.sgpr[0], 55);
    assert_eq!(w.sgpr[2], 1);
}

#[test]
fn getpc_and_function_pointers() {
    let text = "main:\n s_getpc_b64 s[0:1]\nafter:\n s_add_u32 s0, s0, f-after\n s_addc_u32 s1, s1, 0\n \
                s_swappc_b64 s[30:31], s[0:1]\n s_endpgm\nf:\n s_mov_b32 s5, 42\n s_setpc_b64 s[30:31]\n";
    let p = parse(text, Target::Gfx8, WaveSize::W64).unwrap();
    let image = Image::new(&p).unwrap();
    let f_addr = image.label_addr("f").unwrap();
    let swappc = &image.insts[3];
    let mut m = Machine::new(image.clone());
    let w = m
        .run("main", &[WaveSetup::default()])
        .unwrap()
        .expect("one wave");
    assert_eq!(w.sgpr[5], 42);
    let ret = u64::from(w.sgpr[30]) | u64::from(w.sgpr[31]) << 32;
    assert_eq!(ret, swappc.next_addr);
    // s_getpc gives the address after itself (4 bytes on), which is `after`.
    assert_eq!(
        u64::from(w.sgpr[0]) | u64::from(w.sgpr[1]) << 32,
        f_addr,
        "the pointer reached f"
    );
    assert_eq!(m.stats.calls, 1);
}

#[test]
fn global_buffer_and_scratch_memory() {
    // gfx1030 global: out[lane] = in[lane] * 2.
    let mut m = machine(
        Target::Gfx1030,
        WaveSize::W32,
        "v_lshlrev_b32 v1, 2, v0\n global_load_dword v2, v1, s[0:1]\n v_add_nc_u32 v2, v2, v2\n \
         global_store_dword v1, v2, s[2:3] offset:4\n s_load_dwordx2 s[4:5], s[0:1], 0x8",
    );
    let input: Vec<u8> = (0..32u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    let a = m.memory.add("in", input, 1 << 20).unwrap();
    let b = m.memory.add("out", vec![0; 33 * 4], 1 << 20).unwrap();
    let (ia, ob) = (m.memory.buffer(a).base, m.memory.buffer(b).base);
    let setup = WaveSetup {
        sgprs: vec![
            (0, ia as u32),
            (1, (ia >> 32) as u32),
            (2, ob as u32),
            (3, (ob >> 32) as u32),
        ],
        vgprs: vec![(0, LaneValues::LaneId(0))],
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    let out = &m.memory.buffer(b).data;
    for i in 0..32usize {
        let v = u32::from_le_bytes(out[4 + 4 * i..8 + 4 * i].try_into().unwrap());
        assert_eq!(v, i as u32 * 6);
    }
    assert_eq!((w.sgpr[4], w.sgpr[5]), (6, 9));

    // gfx1100 scratch: each lane has its own memory at the same offset.
    let w = run_on(
        Target::Gfx1100,
        WaveSize::W64,
        "s_mov_b32 s0, 16\n scratch_store_b32 off, v1, s0 offset:4\n v_mov_b32 v1, 0\n scratch_load_b32 v2, off, s0 offset:4\n \
         scratch_load_b32 v3, off, s0 offset:64",
        lane_setup(None),
    );
    assert_eq!(w.v(2, 17), 17);
    assert_eq!(w.v(3, 17), 0, "never-written scratch reads 0");
}

#[test]
fn buffer_descriptor_bounds() {
    // gfx8 buffer with num_records = 8 bytes: lanes 0-1 in range, lanes 2+ read 0 and
    // their stores are dropped.
    let mut m = machine(
        Target::Gfx8,
        WaveSize::W64,
        "v_lshlrev_b32 v1, 2, v0\n buffer_load_dword v2, v1, s[4:7], 0 offen\n \
         v_add_u32 v2, vcc, 1, v2\n buffer_store_dword v2, v1, s[4:7], 0 offen offset:4",
    );
    let id = m
        .memory
        .add(
            "buf",
            vec![7, 0, 0, 0, 9, 0, 0, 0, 0xee, 0, 0, 0, 0xff, 0, 0, 0],
            1 << 20,
        )
        .unwrap();
    let base = m.memory.buffer(id).base;
    let desc = gpuabi_sim::Descriptor {
        base,
        stride: 0,
        num_records: 8,
        swizzle: false,
        add_tid: false,
        index_stride: 8,
        element_size: 4,
    }
    .encode();
    let setup = WaveSetup {
        exec: Some(0b111),
        sgprs: (4..8).zip(desc).collect(),
        vgprs: vec![(0, LaneValues::LaneId(0))],
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    assert_eq!((w.v(2, 0), w.v(2, 1), w.v(2, 2)), (8, 10, 1));
    let data = &m.memory.buffer(id).data;
    // Lane 0 stores 8 at offset 4; lane 1's store at offset 8 is out of range (dropped).
    assert_eq!(&data[4..8], &[8, 0, 0, 0]);
    assert_eq!(data[8], 0xee);
    assert_eq!(m.stats.buffer_out_of_range, 1 + 2);
}

fn run_err(target: Target, wave: WaveSize, body: &str) -> SimError {
    let mut m = machine(target, wave, body);
    m.limits.instructions_per_wave = 10_000;
    m.limits.call_depth = 8;
    m.limits.scratch_bytes_per_lane = 1024;
    m.run("main", &[WaveSetup::default()]).unwrap_err()
}

#[test]
fn errors_end_runs_clearly() {
    let e = run_err(Target::Gfx8, WaveSize::W64, "spin:\n s_branch spin");
    assert!(
        matches!(
            e,
            SimError::InstructionLimit {
                limit: 10_000,
                origin: Origin::Asm { line: 3 },
                ..
            }
        ),
        "{e}"
    );
    let e = run_err(
        Target::Gfx8,
        WaveSize::W64,
        "rec:\n s_getpc_b64 s[0:1]\n s_sub_u32 s0, s0, 4\n s_swappc_b64 s[2:3], s[0:1]",
    );
    assert!(matches!(e, SimError::CallDepth { limit: 8, .. }), "{e}");
    let e = run_err(
        Target::Gfx8,
        WaveSize::W64,
        "s_mov_b64 s[0:1], 0x1234\n s_setpc_b64 s[0:1]",
    );
    assert!(
        matches!(
            e,
            SimError::BadJump {
                target: 0x1234,
                origin: Origin::Asm { line: 3 },
                ..
            }
        ),
        "{e}"
    );
    let e = run_err(Target::Gfx8, WaveSize::W64, "s_load_dword s0, s[2:3], 0");
    assert!(matches!(e, SimError::BadAddress { addr: 0, .. }), "{e}");
    assert!(e.to_string().contains("outside every buffer"));
    let e = run_err(
        Target::Gfx1030,
        WaveSize::W32,
        "scratch_store_dword off, v0, off offset:1024",
    );
    assert!(
        matches!(e, SimError::ScratchLimit { limit: 1024, .. }),
        "{e}"
    );
    let p = parse("main:\n s_nop 0\n", Target::Gfx8, WaveSize::W64).unwrap();
    let e = Machine::new(Image::new(&p).unwrap())
        .run("main", &[WaveSetup::default()])
        .unwrap_err();
    assert!(
        matches!(
            e,
            SimError::FellOffEnd {
                origin: Origin::Asm { line: 2 },
                ..
            }
        ),
        "{e}"
    );
    let e = Machine::new(Image::new(&p).unwrap())
        .run("nope", &[WaveSetup::default()])
        .unwrap_err();
    assert!(matches!(e, SimError::NoEntry(_)));
}

#[test]
fn gfx8_scratch_through_a_swizzled_buffer_resource() {
    // Mesa's pre-GFX9 scratch resource: swizzled, ADD_TID, index stride 64, 4-byte
    // elements, stride 0. Dword k of lane l lies at base + soffset + k*4*64 + l*4.
    let mut m = machine(
        Target::Gfx8,
        WaveSize::W64,
        "buffer_store_dword v1, off, s[8:11], s12 offset:4\n buffer_load_dword v2, off, s[8:11], s12 offset:4",
    );
    let id = m.memory.add("scratch", vec![0; 4096], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let desc = gpuabi_sim::Descriptor {
        base,
        stride: 0,
        num_records: u32::MAX,
        swizzle: true,
        add_tid: true,
        index_stride: 64,
        element_size: 4,
    }
    .encode();
    let setup = WaveSetup {
        exec: None,
        sgprs: (8..12).zip(desc).chain([(12, 256)]).collect(),
        vgprs: vec![(1, LaneValues::LaneId(1000))],
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    let data = &m.memory.buffer(id).data;
    // Buffer offset 4 (swizzled: element 1 of each lane, 4 * 64 bytes on) plus the
    // unswizzled scalar offset 256.
    let dword = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
    for lane in [0usize, 5, 63] {
        assert_eq!(dword(256 + 4 * 64 + 4 * lane), 1000 + lane as u32);
        assert_eq!(w.v(2, lane), 1000 + lane as u32);
    }
    assert_eq!(dword(0), 0);
}

#[test]
fn swizzled_multi_dword_access_addresses_each_dword() {
    // A dwordx2 access to a swizzled buffer with 4-byte elements: each dword is its own
    // element, so dword 1 of lane l lies one element row (4 * 64 bytes) after dword 0
    // (GCN3 ISA, "Swizzled Buffer Addressing"). The load's destination overlaps its
    // address register, which must be read before it is written.
    let mut m = machine(
        Target::Gfx8,
        WaveSize::W64,
        "buffer_store_dwordx2 v[4:5], v1, s[8:11], 0 offen\n buffer_load_dwordx2 v[1:2], v1, s[8:11], 0 offen",
    );
    let id = m.memory.add("scratch", vec![0; 4096], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let desc = gpuabi_sim::Descriptor {
        base,
        stride: 0,
        num_records: u32::MAX,
        swizzle: true,
        add_tid: true,
        index_stride: 64,
        element_size: 4,
    }
    .encode();
    let setup = WaveSetup {
        exec: None,
        sgprs: (8..12).zip(desc).collect(),
        vgprs: vec![
            (1, LaneValues::Uniform(4)),
            (4, LaneValues::LaneId(100)),
            (5, LaneValues::LaneId(500)),
        ],
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    let data = &m.memory.buffer(id).data;
    let dword = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
    for lane in [0usize, 7, 63] {
        // Offset 4: element 1 (row 1) for dword 0, element 2 (row 2) for dword 1.
        assert_eq!(dword(4 * 64 + 4 * lane), 100 + lane as u32);
        assert_eq!(dword(2 * 4 * 64 + 4 * lane), 500 + lane as u32);
        assert_eq!(w.v(1, lane), 100 + lane as u32);
        assert_eq!(w.v(2, lane), 500 + lane as u32);
    }
}

#[test]
fn saveexec_b32_in_wave64_touches_exec_lo_only() {
    let setup = WaveSetup {
        exec: Some(0xffff_0000_0000_00ff),
        sgprs: vec![(2, 0x0f)],
        ..Default::default()
    };
    let w = run_on(
        Target::Gfx1030,
        WaveSize::W64,
        "s_and_saveexec_b32 s0, s2",
        setup,
    );
    assert_eq!(w.sgpr[0], 0xff);
    assert_eq!(w.exec(), 0xffff_0000_0000_000f);
}

#[test]
fn unknown_labels_are_refused_and_errors_carry_origins() {
    use gpuabi_amdgpu::operand::{Expr, Operand};
    use gpuabi_amdgpu::program::Item;
    use gpuabi_amdgpu::{Inst, Opcode, Program};
    use gpuabi_layout::reg::{RegFile, RegRange};

    let mut p = Program::new(Target::Gfx1030, WaveSize::W32);
    p.push(Item::Label("main".into()));
    p.push(Item::Inst(Inst::new(
        Opcode::SBranch,
        [Operand::Expr(Box::new(Expr::label("missing")))],
    )));
    let e = Image::new(&p).unwrap_err();
    assert!(matches!(e, SimError::Invalid(_)), "{e}");
    assert!(e.to_string().contains("`missing`"), "{e}");

    // A load from address 0 (outside every buffer), compiled from bytes 40..52 of `f`.
    let origin = Origin::Source {
        function: "f".into(),
        start: 40,
        end: 52,
    };
    let mut p = Program::new(Target::Gfx1030, WaveSize::W32);
    p.push(Item::Label("main".into()));
    p.push_from(
        Item::Inst(Inst::new(
            Opcode::SLoadDword,
            [
                Operand::Reg(RegRange::new(RegFile::Sgpr, 0, 1)),
                Operand::Reg(RegRange::new(RegFile::Sgpr, 2, 2)),
                Operand::Imm(gpuabi_amdgpu::Imm::Int(0)),
            ],
        )),
        origin.clone(),
    );
    p.push(Item::Inst(Inst::new(Opcode::SEndpgm, [])));
    let e = Machine::new(Image::new(&p).unwrap())
        .run("main", &[WaveSetup::default()])
        .unwrap_err();
    match &e {
        SimError::BadAddress { origin: o, .. } => assert_eq!(o, &origin),
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("function `f`, bytes 40..52"), "{e}");
}
