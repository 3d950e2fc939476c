//! LDS instructions and barriers on hand-written programs, with expected values worked
//! out by hand from the DS chapters of AMD's GCN3, RDNA2 and RDNA3 ISA guides.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, SimError, WaveSetup};

/// Runs `body` (then `s_endpgm`) as one wave of a work-group with `lds` bytes of LDS, v0
/// holding the lane index; returns the machine and the wave.
fn run(target: Target, wave: WaveSize, body: &str, lds: u32) -> (Machine, gpuabi_sim::Wave) {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        vgprs: vec![(0, LaneValues::LaneId(0))],
        lds_bytes: lds,
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    (m, w)
}

fn names(target: Target) -> (&'static str, &'static str, &'static str) {
    if target == Target::Gfx1100 {
        ("ds_store_b32", "ds_load_b32", "ds_load_2addr_b32")
    } else {
        ("ds_write_b32", "ds_read_b32", "ds_read2_b32")
    }
}

const TARGETS: [(Target, WaveSize); 3] = [
    (Target::Gfx8, WaveSize::W64),
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W32),
];

#[test]
fn writes_reads_and_two_address_reads() {
    for (t, w) in TARGETS {
        let (store, load, load2) = names(t);
        // Lane l writes 100 + l at byte 4l + 8; then reads two dwords at 4l + 8 + 4*1
        // (offset0:1 counts dwords) and 4l + 8 + 4*3, i.e. the values of lanes l+1, l+3.
        let body = format!(
            "\ts_mov_b32 m0, -1\n\tv_lshlrev_b32 v1, 2, v0\n\tv_add_{} v2, {}100, v0\n\
             \t{store} v1, v2 offset:8\n\tv_add_{} v3, {}8, v1\n\t{load2} v[4:5], v3 offset0:1 offset1:3\n\
             \t{load} v6, v1 offset:8",
            if t.is_rdna() { "nc_u32" } else { "u32" },
            if t.is_rdna() { "" } else { "vcc, " },
            if t.is_rdna() { "nc_u32" } else { "u32" },
            if t.is_rdna() { "" } else { "vcc, " },
        );
        let (m, wave) = run(t, w, &body, 4096);
        let lanes = w.lanes() as usize;
        for l in 0..lanes - 3 {
            assert_eq!(wave.v(6, l), 100 + l as u32, "{t} lane {l}");
            assert_eq!(wave.v(4, l), 101 + l as u32, "{t} lane {l}");
            assert_eq!(wave.v(5, l), 103 + l as u32, "{t} lane {l}");
        }
        // The top lanes read past what was written: zeroed LDS, in range.
        assert_eq!(wave.v(5, lanes - 1), 0);
        assert_eq!(m.stats.lds_out_of_range, 0);
    }
}

#[test]
fn atomics_apply_in_lane_order_and_return_the_old_value() {
    for (t, w) in TARGETS {
        // Every lane adds lane + 1 to dword 0: lane l sees the sum over lanes below it.
        let body = "\ts_mov_b32 m0, -1\n\tv_mov_b32 v1, 0\n\tv_add_nc_u32 v2, 1, v0\n\
                    \tds_add_rtn_u32 v3, v1, v2\n\tds_max_rtn_u32 v4, v1, v0 offset:4\n\
                    \tds_min_i32 v1, v5 offset:8\n";
        let body = if t.is_rdna() {
            body.to_string()
        } else {
            body.replace("v_add_nc_u32 v2, 1, v0", "v_add_u32 v2, vcc, 1, v0")
        };
        let (m, wave) = run(t, w, &body, 64);
        let lanes = w.lanes();
        for l in 0..lanes {
            assert_eq!(wave.v(3, l as usize), l * (l + 1) / 2, "{t} lane {l}");
            // max over lanes below l of their index (0 before lane 0 wrote).
            assert_eq!(wave.v(4, l as usize), l.saturating_sub(1), "{t} lane {l}");
        }
        let word = |i: usize| u32::from_le_bytes(m.lds[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(word(0), lanes * (lanes + 1) / 2);
        assert_eq!(word(1), lanes - 1);
        // min_i32 of 0 and 0 (v5 is 0 in every lane).
        assert_eq!(word(2), 0);
    }
}

#[test]
fn compare_store_operands_follow_each_target() {
    // LDS dword 0 holds 7. GCN3/RDNA2 `ds_cmpst_rtn_b32 vdst, addr, cmp, new`; RDNA3
    // `ds_cmpstore_rtn_b32 vdst, addr, new, cmp`. Lane 0 runs alone (exec = 1).
    for (t, w) in TARGETS {
        let (store, _, _) = names(t);
        let op = if t == Target::Gfx1100 {
            "ds_cmpstore_rtn_b32 v4, v1, v3, v2"
        } else {
            "ds_cmpst_rtn_b32 v4, v1, v2, v3"
        };
        let exec = if w == WaveSize::W32 {
            "exec_lo"
        } else {
            "exec"
        };
        let body = format!(
            "\ts_mov_b32 m0, -1\n\tv_mov_b32 v1, 0\n\tv_mov_b32 v2, 7\n\tv_mov_b32 v3, 9\n\
             \ts_mov_b{0} {exec}, 1\n\t{store} v1, v2\n\t{op}\n",
            if w == WaveSize::W32 { 32 } else { 64 }
        );
        let (m, wave) = run(t, w, &body, 16);
        assert_eq!(wave.v(4, 0), 7, "{t}: the old value");
        assert_eq!(m.lds[0], 9, "{t}: 7 == cmp, so new is stored");
    }
}

#[test]
fn out_of_range_reads_zero_and_drops_writes() {
    for (t, w) in TARGETS {
        let (store, load, _) = names(t);
        // 16 bytes of LDS: lanes 0..3 are in range, the rest are not.
        let body = format!(
            "\ts_mov_b32 m0, -1\n\tv_lshlrev_b32 v1, 2, v0\n\tv_mov_b32 v2, 5\n\
             \t{store} v1, v2\n\t{load} v3, v1\n"
        );
        let (m, wave) = run(t, w, &body, 16);
        let lanes = w.lanes() as usize;
        for l in 0..lanes {
            assert_eq!(wave.v(3, l), if l < 4 { 5 } else { 0 }, "{t} lane {l}");
        }
        assert_eq!(m.stats.lds_out_of_range, 2 * (lanes as u64 - 4), "{t}");
    }
}

#[test]
fn gfx8_limits_lds_addresses_by_m0() {
    // GCN3: M0 bounds LDS addresses. With m0 = 8 only lanes 0 and 1 (bytes 0..8) write.
    let body = "\ts_mov_b32 m0, 8\n\tv_lshlrev_b32 v1, 2, v0\n\tv_mov_b32 v2, 5\n\
                \tds_write_b32 v1, v2\n\ts_mov_b32 m0, -1\n\tds_read_b32 v3, v1\n";
    let (_, wave) = run(Target::Gfx8, WaveSize::W64, body, 1024);
    assert_eq!((wave.v(3, 0), wave.v(3, 1), wave.v(3, 2)), (5, 5, 0));
}

/// Two waves of one work-group: wave 0 ends at once when its s0 is 1; the other waits at
/// a barrier and must still go on (a wave that ended leaves the barrier).
#[test]
fn barriers_release_when_the_other_waves_ended() {
    let text = "main:\n\ts_cmp_eq_u32 s0, 1\n\ts_cbranch_scc1 done\n\
                \tv_mov_b32 v1, 0\n\tv_mov_b32 v2, 3\n\ts_barrier\n\
                \tds_write_b32 v1, v2\n\ts_barrier\n\tds_read_b32 v3, v1\ndone:\n\ts_endpgm\n";
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let wave = |s0: u32| WaveSetup {
        sgprs: vec![(0, s0)],
        lds_bytes: 64,
        ..Default::default()
    };
    let w = m
        .run("main", &[wave(1), wave(0), wave(0)])
        .unwrap()
        .unwrap();
    assert_eq!(w.v(3, 0), 3);
    assert_eq!(m.stats.waves, 3);
    assert_eq!(m.stats.barriers, 2);
}

/// Waves of one work-group see each other's LDS writes after a barrier; separate
/// work-groups have separate LDS.
#[test]
fn work_groups_share_lds_within_and_not_across() {
    // Wave with s0 = k writes k + 1 at dword k, then after the barrier reads dword 1 - k.
    let text = "main:\n\tv_mov_b32 v1, s0\n\tv_lshlrev_b32 v1, 2, v1\n\ts_add_u32 s1, s0, 1\n\
                \tv_mov_b32 v2, s1\n\tds_write_b32 v1, v2\n\ts_barrier\n\
                \ts_sub_u32 s2, 1, s0\n\tv_mov_b32 v3, s2\n\tv_lshlrev_b32 v3, 2, v3\n\
                \tds_read_b32 v4, v3\n\tglobal_store_dword v5, v4, s[4:5]\n\ts_endpgm\n";
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.memory.add("out", vec![0; 16], 1 << 20).unwrap();
    let base = m.memory.find("out").unwrap().base;
    let wave = |group: u32, k: u32| WaveSetup {
        sgprs: vec![
            (0, k),
            (4, base as u32 + 4 * (2 * group + k)),
            (5, (base >> 32) as u32),
        ],
        workgroup: group,
        lds_bytes: 8,
        exec: Some(1),
        ..Default::default()
    };
    // Group 0 has both waves; group 1 only the wave with k = 0, which reads dword 1 of
    // its own (zeroed) LDS.
    m.run("main", &[wave(0, 0), wave(0, 1), wave(1, 0)])
        .unwrap();
    let data = &m.memory.find("out").unwrap().data;
    let word = |i: usize| u32::from_le_bytes(data[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(1), word(2)), (2, 1, 0));
}

#[test]
fn oversized_lds_is_refused() {
    let p = parse("main:\n\ts_endpgm\n", Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        lds_bytes: 1 << 20,
        ..Default::default()
    };
    let e = m.run("main", &[setup]).unwrap_err();
    assert!(matches!(e, SimError::Setup(_)), "{e}");
    assert!(e.to_string().contains("LDS"), "{e}");
}

#[test]
fn addresses_wrap_at_32_bits() {
    // llc-19 reads a mirror element as `v_sub_nc_u32 v2, 0, v1` then `ds_read_b32 v0, v2
    // offset:252`: ADDR + OFFSET wraps (0xfffffffc + 8 = 4).
    for (t, w) in TARGETS {
        let (store, load, _) = names(t);
        let body = format!(
            "\ts_mov_b32 m0, -1\n\tv_mov_b32 v1, 4\n\tv_mov_b32 v2, 11\n\t{store} v1, v2\n\
             \tv_mov_b32 v3, -4\n\t{load} v4, v3 offset:8\n"
        );
        let (m, wave) = run(t, w, &body, 64);
        assert_eq!(wave.v(4, 0), 11, "{t}");
        assert_eq!(m.stats.lds_out_of_range, 0, "{t}");
    }
}

#[test]
fn two_address_accesses_in_strides_of_64_elements() {
    // DS_WRITE2ST64_B32 / DS_READ2ST64_B32 ("AMD GCN3 ISA", "RDNA2 ISA"; RDNA 3's
    // DS_STORE_2ADDR_STRIDE64_B32 / DS_LOAD_2ADDR_STRIDE64_B32): the addresses are ADDR +
    // offset0 * 4 * 64 and ADDR + offset1 * 4 * 64; the b64 forms use 8 * 64.
    for (t, w) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
    ] {
        let (write2, read2, write2_64, read) = if t == Target::Gfx1100 {
            (
                "ds_store_2addr_stride64_b32",
                "ds_load_2addr_stride64_b32",
                "ds_store_2addr_stride64_b64",
                "ds_load_b32",
            )
        } else {
            (
                "ds_write2st64_b32",
                "ds_read2st64_b32",
                "ds_write2st64_b64",
                "ds_read_b32",
            )
        };
        let add = if t.is_rdna() {
            "v_add_nc_u32 v2, 0x100, v0"
        } else {
            "v_add_u32 v2, vcc, 0x100, v0"
        };
        // Lane l: v1 = 4l; v2 = 0x100 + l, v3 = 0x200 + l. The write puts v2 at 4l + 256
        // (offset0:1) and v3 at 4l + 768 (offset1:3); the read takes 4l + 256 and 4l + 512
        // (never written: 0). Then lane l writes the pair {v2, v3} at 8l + 2048 + 0
        // (offset0:4 in 512-byte strides) and reads its two dwords back one by one.
        let body = format!(
            "\ts_mov_b32 m0, -1\n\tv_lshlrev_b32 v1, 2, v0\n\t{add}\n\t{}\n\
             \t{write2} v1, v2, v3 offset0:1 offset1:3\n\t{read2} v[4:5], v1 offset0:1 offset1:2\n\
             \t{read} v6, v1 offset:768\n\
             \tv_lshlrev_b32 v7, 3, v0\n\t{write2_64} v7, v[2:3], v[2:3] offset0:4 offset1:5\n\
             \t{read} v8, v7 offset:2048\n\t{read} v9, v7 offset:2052\n\t{read} v10, v7 offset:2564",
            add.replace("v2, vcc, 0x100", "v3, vcc, 0x200")
                .replace("v2, 0x100", "v3, 0x200"),
        );
        let (_, wave) = run(t, w, &body, 8192);
        for l in 0..w.lanes() as usize {
            let (a, b) = (0x100 + l as u32, 0x200 + l as u32);
            assert_eq!(wave.v(4, l), a, "{t} lane {l}: 4l + 1 * 256");
            assert_eq!(wave.v(5, l), 0, "{t} lane {l}: 4l + 2 * 256, unwritten");
            assert_eq!(wave.v(6, l), b, "{t} lane {l}: offset1:3 is 4l + 768");
            assert_eq!(wave.v(8, l), a, "{t} lane {l}: b64 at 8l + 4 * 512");
            assert_eq!(wave.v(9, l), b, "{t} lane {l}: its high dword");
            assert_eq!(
                wave.v(10, l),
                b,
                "{t} lane {l}: the second pair at 8l + 5 * 512"
            );
        }
    }
}
