//! Random programs end with a result or an error, never a panic or a hang.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, WaveSetup};
use proptest::prelude::*;

const LINES: &[&str] = &[
    "s_mov_b32 s0, -1",
    "s_add_u32 s1, s0, 0x12345",
    "s_lshl_b64 s[2:3], s[0:1], s1",
    "s_and_saveexec_b64 s[4:5], s[2:3]",
    "s_or_saveexec_b64 s[4:5], -1",
    "s_cmp_lg_u32 s1, 0",
    "s_cbranch_scc1 a",
    "s_cbranch_execz b",
    "s_branch b",
    "s_getpc_b64 s[6:7]",
    "s_setpc_b64 s[6:7]",
    "s_swappc_b64 s[8:9], s[6:7]",
    "s_setpc_b64 s[8:9]",
    "s_load_dwordx4 s[12:15], s[2:3], 0x40",
    "s_buffer_load_dword s16, s[12:15], s1",
    "v_mov_b32 v1, v0",
    "v_add_co_u32 v2, vcc, v1, -1",
    "v_cmp_gt_u32 vcc, v2, v0",
    "v_cndmask_b32 v3, v1, v2, vcc",
    "v_readfirstlane_b32 s17, v3",
    "v_readlane_b32 s18, v3, s1",
    "v_writelane_b32 v4, s0, s17",
    "v_lshlrev_b64 v[6:7], v0, v[2:3]",
    "v_rcp_f32 v8, v3",
    "v_cvt_i32_f32 v9, v8",
    "v_mul_hi_i32 v10, v9, v3",
    "global_load_dword v11, v[2:3], off",
    "global_store_dword v1, v2, s[20:21] offset:-4",
    "scratch_store_dword v3, v1, off",
    "scratch_load_dwordx2 v[12:13], off, s1 offset:8",
    "buffer_load_dword v14, v1, s[12:15], s0 offen",
    "buffer_store_dword v14, off, s[12:15], 0",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_programs_never_panic(
        picks in prop::collection::vec(0..LINES.len(), 1..24),
        split in 0usize..24,
        w64 in any::<bool>(),
    ) {
        let mut text = String::from("main:\n");
        for (i, &p) in picks.iter().enumerate() {
            if i == split.min(picks.len() - 1) {
                text.push_str("a:\n");
            }
            let line = if w64 {
                LINES[p].to_string()
            } else {
                LINES[p].replace("vcc", "vcc_lo")
            };
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str("b:\ns_endpgm\n");
        let wave = if w64 { WaveSize::W64 } else { WaveSize::W32 };
        let p = parse(&text, Target::Gfx1030, wave).unwrap();
        let mut m = Machine::new(Image::new(&p).unwrap());
        m.limits.instructions_per_wave = 2_000;
        m.limits.scratch_bytes_per_lane = 256;
        m.track_undefined = true;
        let mem = m.memory.add("buf", vec![0; 512], 1 << 20).unwrap();
        let base = m.memory.buffer(mem).base;
        let setup = WaveSetup {
            exec: None,
            sgprs: vec![(20, base as u32), (21, (base >> 32) as u32)],
            vgprs: vec![(0, LaneValues::LaneId(0))],
            ..Default::default()
        };
        let _ = m.run("main", &[setup]);
    }
}
