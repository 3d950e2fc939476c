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
