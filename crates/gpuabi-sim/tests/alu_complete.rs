//! The scalar and vector ALU instructions against values computed by hand from the
//! pseudocode of AMD's ISA guides ("AMD GCN3 ISA" for gfx8, "RDNA2 ISA" for gfx1030, "RDNA3
//! ISA" for gfx1100; each case names the instruction it follows), or from IEEE 754 where the
//! guides say an operation is the IEEE one. Each case runs one program on the targets it
//! names (wave64 on gfx8, wave32 on RDNA unless it says otherwise) with registers set first
//! and registers checked after.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, Wave, WaveSetup};

const GFX8: &[Target] = &[Target::Gfx8];
const GFX1030: &[Target] = &[Target::Gfx1030];
const GFX1100: &[Target] = &[Target::Gfx1100];
const RDNA: &[Target] = &[Target::Gfx1030, Target::Gfx1100];
const GFX8_1030: &[Target] = &[Target::Gfx8, Target::Gfx1030];
const ALL: &[Target] = &[Target::Gfx8, Target::Gfx1030, Target::Gfx1100];

/// One program: where it runs, its text, the registers set before it and the registers
/// expected after it. Registers are named `s5`, `s[6:7]`, `v1`, `v[2:3]`, `m0`, `vcc`,
/// `exec` or `scc`; a 64-bit value fills a pair, and `exec`/`vcc` are whole lane masks.
struct Case {
    on: &'static [Target],
    /// The ISA guide's instruction the expected values follow.
    cite: &'static str,
    code: &'static str,
    set: &'static [(&'static str, u64)],
    want: &'static [(&'static str, u64)],
    wave64: bool,
}

const fn case(
    on: &'static [Target],
    cite: &'static str,
    code: &'static str,
    set: &'static [(&'static str, u64)],
    want: &'static [(&'static str, u64)],
) -> Case {
    Case {
        on,
        cite,
        code,
        set,
        want,
        wave64: false,
    }
}

/// [`case`] in wave64 on every target.
const fn case64(
    on: &'static [Target],
    cite: &'static str,
    code: &'static str,
    set: &'static [(&'static str, u64)],
    want: &'static [(&'static str, u64)],
) -> Case {
    Case {
        wave64: true,
        ..case(on, cite, code, set, want)
    }
}

/// A register name: its file (`s` or `v`), first number and count; `m0`, `vcc` and `exec`
/// as hardware scalar numbers.
fn register(name: &str) -> (char, u16, u16) {
    match name {
        "m0" => return ('s', 124, 1),
        "vcc" => return ('s', 106, 2),
        "exec" => return ('s', 126, 2),
        _ => {}
    }
    let file = name.chars().next().expect("a register name");
    let rest = &name[1..];
    if let Some(range) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = range.split_once(':').expect("a range");
        let (a, b): (u16, u16) = (a.parse().unwrap(), b.parse().unwrap());
        (file, a, b - a + 1)
    } else {
        (file, rest.parse().unwrap(), 1)
    }
}

fn run_case(c: &Case, target: Target) {
    let wave = if c.wave64 || target == Target::Gfx8 {
        WaveSize::W64
    } else {
        WaveSize::W32
    };
    let text = format!("main:\n{}\n\ts_endpgm\n", c.code);
    let program = parse(&text, target, wave).unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    let mut setup = WaveSetup::default();
    for &(name, value) in c.set {
        if name == "exec" {
            setup.exec = Some(value);
            continue;
        }
        let (file, first, count) = register(name);
        for i in 0..count {
            let v = (value >> (32 * i)) as u32;
            match file {
                's' => setup.sgprs.push((first + i, v)),
                _ => setup.vgprs.push((first + i, LaneValues::Uniform(v))),
            }
        }
    }
    let w: Wave = Machine::new(Image::new(&program).unwrap())
        .run("main", &[setup])
        .unwrap_or_else(|e| panic!("{target}: {e}\n{text}"))
        .expect("one wave");
    for &(name, want) in c.want {
        let got = if name == "scc" {
            u64::from(w.scc)
        } else {
            let (file, first, count) = register(name);
            (0..count).fold(0u64, |acc, i| {
                let v = match file {
                    's' => w.sgpr[usize::from(first + i)],
                    _ => w.v(first + i, 0),
                };
                acc | u64::from(v) << (32 * i)
            })
        };
        let got = if name == "exec" || name == "vcc" {
            got & wave.full_mask()
        } else {
            got
        };
        assert_eq!(
            got, want,
            "{target} {wave}: {name} after `{}` ({}): {got:#x}, expected {want:#x}",
            c.code, c.cite
        );
    }
}

fn run_all(cases: &[Case]) {
    for c in cases {
        for &target in c.on {
            run_case(c, target);
        }
    }
}

#[test]
#[rustfmt::skip]
fn scalar_one_source() {
    run_all(&[
        case(ALL, "S_BCNT0_I32_B32", "s_bcnt0_i32_b32 s5, s9", &[("s9", 0xff)], &[("s5", 24), ("scc", 1)]),
        case(ALL, "S_BCNT0_I32_B32", "s_bcnt0_i32_b32 s5, -1", &[], &[("s5", 0), ("scc", 0)]),
        case(ALL, "S_BCNT0_I32_B64", "s_bcnt0_i32_b64 s5, s[10:11]", &[("s[10:11]", 0xffff_ffff_0000_0001)], &[("s5", 31), ("scc", 1)]),
        case(GFX8_1030, "S_FF0_I32_B32", "s_ff0_i32_b32 s5, s9", &[("s9", 0xff)], &[("s5", 8)]),
        case(GFX8_1030, "S_FF0_I32_B32: -1 when no bit is 0", "s_ff0_i32_b32 s5, -1", &[], &[("s5", 0xffff_ffff)]),
        case(GFX8, "S_FF0_I32_B64", "s_ff0_i32_b64 s5, s[10:11]", &[("s[10:11]", 0xffff_ffff)], &[("s5", 32)]),
        case(GFX8_1030, "S_FLBIT_I32_B64", "s_flbit_i32_b64 s5, s[10:11]", &[("s[10:11]", 0x8000_0000)], &[("s5", 32)]),
        case(GFX1100, "S_CLZ_I32_U64", "s_clz_i32_u64 s5, s[10:11]", &[("s[10:11]", 0x8000_0000)], &[("s5", 32)]),
        case(GFX1100, "S_CLZ_I32_U64: -1 for 0", "s_clz_i32_u64 s5, 0", &[], &[("s5", 0xffff_ffff)]),
        case(GFX8_1030, "S_FLBIT_I32_I64", "s_flbit_i32_i64 s5, s[10:11]", &[("s[10:11]", 0xffff_ffff_0000_0000)], &[("s5", 32)]),
        case(GFX1100, "S_CLS_I32_I64", "s_cls_i32_i64 s5, s[10:11]\ns_cls_i32_i64 s6, -1\ns_cls_i32_i64 s7, 1", &[("s[10:11]", 0xffff_ffff_0000_0000)], &[("s5", 32), ("s6", 0xffff_ffff), ("s7", 63)]),
        case(ALL, "S_BREV_B64", "s_brev_b64 s[6:7], 1", &[], &[("s[6:7]", 1 << 63)]),
        case(ALL, "S_BITSET0_B64", "s_bitset0_b64 s[6:7], 40", &[("s[6:7]", u64::MAX)], &[("s[6:7]", 0xffff_feff_ffff_ffff)]),
        case(ALL, "S_BITSET1_B64", "s_bitset1_b64 s[6:7], 63", &[("s[6:7]", 0)], &[("s[6:7]", 1 << 63)]),
        case(RDNA, "S_BITREPLICATE_B64_B32", "s_bitreplicate_b64_b32 s[6:7], s9", &[("s9", 0x8000_0005)], &[("s[6:7]", 0xc000_0000_0000_0033)]),
        case(ALL, "S_QUADMASK_B32", "s_quadmask_b32 s5, 0x1f00", &[], &[("s5", 0xc), ("scc", 1)]),
        case(ALL, "S_QUADMASK_B64", "s_quadmask_b64 s[6:7], s[10:11]", &[("s[10:11]", 0x8000_0000_0000_0001)], &[("s[6:7]", 0x8001), ("scc", 1)]),
        case(ALL, "S_QUADMASK_B32: SCC = D != 0", "s_quadmask_b32 s5, 0", &[], &[("s5", 0), ("scc", 0)]),
        case(ALL, "S_WQM_B32", "s_wqm_b32 s5, 0x120", &[], &[("s5", 0xff0), ("scc", 1)]),
        case(ALL, "S_WQM_B64", "s_wqm_b64 s[6:7], s[10:11]", &[("s[10:11]", 0x1000_0000_0000_0000)], &[("s[6:7]", 0xf000_0000_0000_0000)]),
        case(GFX1100, "S_SENDMSG_RTN_B64 (the model has no clock: 0)", "s_sendmsg_rtn_b64 s[6:7], sendmsg(MSG_RTN_GET_REALTIME)", &[("s[6:7]", 5)], &[("s[6:7]", 0)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn scalar_conditional_and_relative_moves() {
    run_all(&[
        case(ALL, "S_CMOV_B32", "s_cmp_eq_u32 0, 0\ns_cmov_b32 s5, 7", &[("s5", 0x1234)], &[("s5", 7)]),
        case(ALL, "S_CMOV_B32: D kept without SCC", "s_cmp_eq_u32 0, 1\ns_cmov_b32 s5, 7", &[("s5", 0x1234)], &[("s5", 0x1234)]),
        case(ALL, "S_CMOV_B64", "s_cmp_eq_u32 0, 0\ns_cmov_b64 s[6:7], s[10:11]", &[("s[10:11]", 0x1_0000_0002)], &[("s[6:7]", 0x1_0000_0002)]),
        case(ALL, "S_CMOVK_I32: SIMM16 sign-extended", "s_cmp_eq_u32 0, 0\ns_cmovk_i32 s5, -2", &[], &[("s5", 0xffff_fffe)]),
        case(ALL, "S_CMOVK_I32", "s_cmp_eq_u32 0, 1\ns_cmovk_i32 s5, -2", &[("s5", 9)], &[("s5", 9)]),
        case(ALL, "S_MOVRELS_B32: D = SGPR[S0 + M0]", "s_movrels_b32 s5, s10", &[("m0", 3), ("s13", 0xabc)], &[("s5", 0xabc)]),
        case(ALL, "S_MOVRELS_B64", "s_movrels_b64 s[6:7], s[10:11]", &[("m0", 2), ("s[12:13]", 0x1234_0000_5678)], &[("s[6:7]", 0x1234_0000_5678)]),
        case(ALL, "S_MOVRELD_B32: SGPR[D + M0] = S0", "s_movreld_b32 s10, 0x1234", &[("m0", 2), ("s10", 1)], &[("s12", 0x1234), ("s10", 1)]),
        case(ALL, "S_MOVRELD_B64", "s_movreld_b64 s[10:11], s[20:21]", &[("m0", 4), ("s[20:21]", 0x5_0000_0006)], &[("s[14:15]", 0x5_0000_0006)]),
        // The project's decision: an index past the SGPRs writes nothing (VCC stays).
        case(ALL, "S_MOVRELD_B32 past the SGPRs", "s_movreld_b32 s100, 7", &[("m0", 6), ("vcc", 0x55)], &[("vcc", 0x55)]),
        case(RDNA, "S_MOVRELSD_2_B32: SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]]", "s_movrelsd_2_b32 s5, s10", &[("m0", 2 << 16 | 3), ("s13", 0x77)], &[("s7", 0x77)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn saveexec_and_wrexec() {
    // EXEC = 0xff and S0 = 0x0f0f: D = the old EXEC, EXEC = f(S0, EXEC), SCC = EXEC != 0
    // ("AMD GCN3 ISA" and "RDNA2 ISA", S_*_SAVEEXEC_B64; RDNA 2's S_ANDN1_WREXEC_B64:
    // EXEC = ~S0 & EXEC, then D = EXEC).
    const SET: &[(&str, u64)] = &[("exec", 0xff), ("s[10:11]", 0x0f0f)];
    run_all(&[
        case64(ALL, "S_NAND_SAVEEXEC_B64", "s_nand_saveexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xff), ("exec", 0xffff_ffff_ffff_fff0), ("scc", 1),]),
        case64(ALL, "S_NOR_SAVEEXEC_B64", "s_nor_saveexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xff), ("exec", 0xffff_ffff_ffff_f000)]),
        case64(ALL, "S_XNOR_SAVEEXEC_B64", "s_xnor_saveexec_b64 s[6:7], s[10:11]", SET, &[("exec", 0xffff_ffff_ffff_f00f)]),
        case64(GFX8_1030, "S_ORN2_SAVEEXEC_B64", "s_orn2_saveexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xff), ("exec", 0xffff_ffff_ffff_ff0f)]),
        case64(GFX1100, "S_OR_NOT1_SAVEEXEC_B64", "s_or_not1_saveexec_b64 s[6:7], s[10:11]", SET, &[("exec", 0xffff_ffff_ffff_ff0f)]),
        case64(GFX1030, "S_ANDN1_SAVEEXEC_B64", "s_andn1_saveexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xff), ("exec", 0xf0), ("scc", 1)]),
        case64(GFX1100, "S_AND_NOT0_SAVEEXEC_B64", "s_and_not0_saveexec_b64 s[6:7], s[10:11]", SET, &[("exec", 0xf0)]),
        case64(GFX1030, "S_ORN1_SAVEEXEC_B64", "s_orn1_saveexec_b64 s[6:7], s[10:11]", SET, &[("exec", 0xffff_ffff_ffff_f0ff)]),
        case64(GFX1100, "S_OR_NOT0_SAVEEXEC_B64", "s_or_not0_saveexec_b64 s[6:7], s[10:11]", SET, &[("exec", 0xffff_ffff_ffff_f0ff)]),
        case64(GFX1030, "S_ANDN1_WREXEC_B64", "s_andn1_wrexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xf0), ("exec", 0xf0), ("scc", 1)]),
        case64(GFX1100, "S_AND_NOT1_WREXEC_B64", "s_and_not1_wrexec_b64 s[6:7], s[10:11]", SET, &[("s[6:7]", 0xf00), ("exec", 0xf00)]),
        case64(GFX1030, "S_ANDN1_SAVEEXEC_B64: SCC = EXEC != 0", "s_andn1_saveexec_b64 s[6:7], -1", SET, &[("exec", 0), ("scc", 0)]),
        // The b32 forms in wave32: EXEC_LO alone.
        case(RDNA, "S_NAND_SAVEEXEC_B32", "s_nand_saveexec_b32 s6, s10", SET, &[("s6", 0xff), ("exec", 0xffff_fff0)]),
        case(RDNA, "S_NOR_SAVEEXEC_B32", "s_nor_saveexec_b32 s6, s10", SET, &[("exec", 0xffff_f000)]),
        case(RDNA, "S_XNOR_SAVEEXEC_B32", "s_xnor_saveexec_b32 s6, s10", SET, &[("exec", 0xffff_f00f)]),
        case(GFX1030, "S_ORN2_SAVEEXEC_B32", "s_orn2_saveexec_b32 s6, s10", SET, &[("exec", 0xffff_ff0f)]),
        case(GFX1030, "S_ANDN1_SAVEEXEC_B32", "s_andn1_saveexec_b32 s6, s10", SET, &[("s6", 0xff), ("exec", 0xf0)]),
        case(GFX1030, "S_ORN1_SAVEEXEC_B32", "s_orn1_saveexec_b32 s6, s10", SET, &[("exec", 0xffff_f0ff)]),
        case(GFX1030, "S_ANDN1_WREXEC_B32", "s_andn1_wrexec_b32 s6, s10", SET, &[("s6", 0xf0), ("exec", 0xf0)]),
        case(GFX1100, "S_AND_NOT1_WREXEC_B32", "s_and_not1_wrexec_b32 s6, s10", SET, &[("s6", 0xf00), ("exec", 0xf00)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn scalar_two_sources_and_compares() {
    run_all(&[
        case(ALL, "S_ABSDIFF_I32", "s_absdiff_i32 s5, 3, 10", &[], &[("s5", 7), ("scc", 1)]),
        case(ALL, "S_ABSDIFF_I32: SCC = D != 0", "s_absdiff_i32 s5, -5, -5", &[], &[("s5", 0), ("scc", 0)]),
        case(ALL, "S_ABSDIFF_I32: the difference wraps", "s_absdiff_i32 s5, 0x7fffffff, -1", &[], &[("s5", 0x8000_0000)]),
        // Offset 36 and width 8 in S1 (bits 5:0 and 22:16).
        case(ALL, "S_BFE_U64", "s_bfe_u64 s[6:7], s[10:11], 0x80024", &[("s[10:11]", 0x0ab0_0000_0000)], &[("s[6:7]", 0xab), ("scc", 1)]),
        case(ALL, "S_BFE_I64", "s_bfe_i64 s[6:7], s[10:11], 0x80024", &[("s[10:11]", 0x0ab0_0000_0000)], &[("s[6:7]", 0xffff_ffff_ffff_ffab)]),
        case(ALL, "S_BFE_U64: width 0", "s_bfe_u64 s[6:7], s[10:11], 4", &[("s[10:11]", u64::MAX)], &[("s[6:7]", 0), ("scc", 0)]),
        case(ALL, "S_BITCMP0_B64", "s_bitcmp0_b64 s[10:11], 40", &[("s[10:11]", 1 << 40)], &[("scc", 0)]),
        case(ALL, "S_BITCMP1_B64", "s_bitcmp1_b64 s[10:11], 40", &[("s[10:11]", 1 << 40)], &[("scc", 1)]),
        case(RDNA, "S_WAITCNT_VMCNT: waits, changes nothing", "s_waitcnt_vmcnt null, 0x0\ns_waitcnt_lgkmcnt null, 0x0\ns_waitcnt_expcnt null, 0x0", &[("s5", 3)], &[("s5", 3)]),
    ]);
}

#[test]
fn left_out_instructions_are_refused_by_name() {
    for (target, line, reason) in [
        (Target::Gfx8, "s_cbranch_join s4", "fork/join"),
        (
            Target::Gfx8,
            "s_setreg_b32 hwreg(HW_REG_MODE), s1",
            "hardware register",
        ),
        (
            Target::Gfx1030,
            "v_interp_p1_f32_e64 v1, v2, attr0.x",
            "interpolation",
        ),
        (
            Target::Gfx1100,
            "s_getreg_b32 s1, hwreg(HW_REG_MODE)",
            "hardware register",
        ),
    ] {
        let wave = if target == Target::Gfx8 {
            WaveSize::W64
        } else {
            WaveSize::W32
        };
        let e = parse(&format!("\t{line}\n"), target, wave).expect_err(line);
        let name = line.split_whitespace().next().unwrap();
        assert!(
            e.message.contains(&format!("`{name}` is not modelled")) && e.message.contains(reason),
            "{target}: {e}"
        );
    }
}

/// f16 and f64 bit patterns used below.
const F16_1: u64 = 0x3c00;
const F16_M1: u64 = 0xbc00;
const F16_2: u64 = 0x4000;
const F16_NAN: u64 = 0x7e00;
const F64_1_5: u64 = 0x3ff8_0000_0000_0000;
const F64_2: u64 = 0x4000_0000_0000_0000;
const F64_NAN: u64 = 0x7ff8_0000_0000_0000;
const F64_NEG_INF: u64 = 0xfff0_0000_0000_0000;
const F64_NEG_0: u64 = 0x8000_0000_0000_0000;
const ONES: u64 = u64::MAX;

#[test]
#[rustfmt::skip]
fn compares() {
    // Every case in wave64, so that a true compare sets all 64 bits of the mask.
    run_all(&[
        case64(ALL, "V_CMP_LT_F16", "v_cmp_lt_f16 vcc, v2, v3", &[("v2", F16_1), ("v3", F16_2)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_LT_F16: the low halves", "v_cmp_lt_f16 vcc, v2, v3", &[("v2", 0x1234_4000), ("v3", 0x3c00)], &[("vcc", 0)]),
        case64(ALL, "V_CMP_NGE_F16: true with a NaN", "v_cmp_nge_f16 vcc, v2, v3", &[("v2", F16_NAN), ("v3", F16_1)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_LG_F16: false with a NaN", "v_cmp_lg_f16 vcc, v2, v3", &[("v2", F16_NAN), ("v3", F16_1)], &[("vcc", 0)]),
        case64(ALL, "V_CMP_O_F16", "v_cmp_o_f16 vcc, v2, v3\nv_cmp_u_f16_e64 s[6:7], v2, v3", &[("v2", F16_NAN), ("v3", F16_1)], &[("vcc", 0), ("s[6:7]", ONES)]),
        case64(ALL, "V_CMP_EQ_F16: -0 equals +0", "v_cmp_eq_f16 vcc, 0x8000, v3", &[("v3", 0)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_EQ_F16: the inline 1.0 is the f16 0x3c00", "v_cmp_eq_f16 vcc, 1.0, v2", &[("v2", F16_1)], &[("vcc", ONES)]),
        // neg flips the f16 sign (bit 15): -1.0 > 0.0 is false.
        case64(ALL, "V_CMP_GT_F16 with neg", "v_cmp_gt_f16_e64 s[6:7], -v2, v3", &[("v2", F16_1), ("v3", 0)], &[("s[6:7]", 0)]),
        case64(ALL, "V_CMP_NEQ_F16 with abs", "v_cmp_neq_f16_e64 s[6:7], |v2|, v3", &[("v2", F16_M1), ("v3", F16_1)], &[("s[6:7]", 0)]),
        case64(ALL, "V_CMP_LT_F64", "v_cmp_lt_f64 vcc, v[2:3], v[4:5]", &[("v[2:3]", F64_1_5), ("v[4:5]", F64_2)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_NEQ_F64: true with a NaN", "v_cmp_neq_f64 vcc, v[2:3], v[4:5]", &[("v[2:3]", F64_NAN), ("v[4:5]", F64_NAN)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_EQ_F64: -0 equals +0", "v_cmp_eq_f64 vcc, v[2:3], v[4:5]", &[("v[2:3]", F64_NEG_0), ("v[4:5]", 0)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_EQ_F64: a literal is the high dword", "v_cmp_eq_f64 vcc, 0x40490000, v[2:3]", &[("v[2:3]", 0x4049_0000_0000_0000)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_EQ_F64: an inline integer is a 64-bit integer", "v_cmp_eq_f64 vcc, 1, v[2:3]", &[("v[2:3]", 1)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_GE_F64 with neg and abs", "v_cmp_ge_f64_e64 s[6:7], -|v[2:3]|, v[4:5]", &[("v[2:3]", F64_2), ("v[4:5]", F64_1_5)], &[("s[6:7]", 0)]),
        case64(ALL, "V_CMP_CLASS_F64: -inf is class bit 2", "v_cmp_class_f64 vcc, v[2:3], v4", &[("v[2:3]", F64_NEG_INF), ("v4", 1 << 2)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_CLASS_F64: the smallest denormal is class bit 7", "v_cmp_class_f64_e64 s[6:7], v[2:3], v4", &[("v[2:3]", 1), ("v4", 1 << 7)], &[("s[6:7]", ONES)]),
        case64(ALL, "V_CMP_LT_I16", "v_cmp_lt_i16 vcc, v2, v3\nv_cmp_lt_u16_e64 s[6:7], v2, v3", &[("v2", 0xffff), ("v3", 1)], &[("vcc", ONES), ("s[6:7]", 0)]),
        case64(ALL, "V_CMP_EQ_U16: the high halves do not count", "v_cmp_eq_u16 vcc, v2, v3", &[("v2", 0xabcd_0001), ("v3", 1)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_EQ_I16: the inline -1 is 0xffff", "v_cmp_eq_i16 vcc, -1, v2", &[("v2", 0xffff)], &[("vcc", ONES)]),
        // A 16-bit integer operand reads the low half of the inline float's f32 bits.
        case64(ALL, "V_CMP_EQ_U16: the inline 1.0 is 0x3f800000", "v_cmp_eq_u16 vcc, 1.0, v2\nv_cmp_eq_u16_e64 s[6:7], 1.0, v3", &[("v2", 0x3c00), ("v3", 0)], &[("vcc", 0), ("s[6:7]", ONES)]),
        case64(ALL, "V_CMP_GE_U16: a literal", "v_cmp_ge_u16 vcc, 0x8000, v2", &[("v2", 0x7fff)], &[("vcc", ONES)]),
        case64(ALL, "V_CMP_F_U32 / V_CMP_T_I64", "v_cmp_f_u32 vcc, v2, v3\nv_cmp_t_i64_e64 s[6:7], v[2:3], v[4:5]", &[("exec", 0xf0f0)], &[("vcc", 0), ("s[6:7]", 0xf0f0)]),
        case64(GFX8_1030, "V_CMP_TRU_F32: true with a NaN", "v_cmp_tru_f32 vcc, v2, v3\nv_cmp_f_f32_e64 s[6:7], v2, v3", &[("v2", 0x7fc0_0000)], &[("vcc", ONES), ("s[6:7]", 0)]),
        case64(GFX1100, "V_CMP_T_F32: true with a NaN", "v_cmp_t_f32 vcc, v2, v3\nv_cmp_t_f64_e64 s[6:7], v[2:3], v[4:5]", &[("v2", 0x7fc0_0000)], &[("vcc", ONES), ("s[6:7]", ONES)]),
        case64(GFX8, "V_CMP_F_I16 / V_CMP_T_U16", "v_cmp_f_i16 vcc, v2, v3\nv_cmp_t_u16_e64 s[6:7], v2, v3", &[], &[("vcc", 0), ("s[6:7]", ONES)]),
        // The compares into EXEC: RDNA writes EXEC alone, GCN 1.2 the mask operand too;
        // inactive lanes stay off.
        case64(RDNA, "V_CMPX_LT_F16", "v_cmpx_lt_f16 v2, v3", &[("exec", 0x0f0f), ("v2", F16_1), ("v3", F16_2)], &[("exec", 0x0f0f)]),
        case64(RDNA, "V_CMPX_GT_F64", "v_cmpx_gt_f64 v[2:3], v[4:5]", &[("exec", 0x0f0f), ("v[2:3]", F64_1_5), ("v[4:5]", F64_2)], &[("exec", 0)]),
        case64(RDNA, "V_CMPX_NLG_F32: true with a NaN", "v_cmpx_nlg_f32 v2, v3", &[("exec", 0xff), ("v2", 0x7fc0_0000)], &[("exec", 0xff)]),
        case64(RDNA, "V_CMPX_NE_U16 in VOP3", "v_cmpx_ne_u16_e64 v2, v3", &[("exec", 0xff), ("v2", 1), ("v3", 2)], &[("exec", 0xff)]),
        case64(RDNA, "V_CMPX_CLASS_F64", "v_cmpx_class_f64 v[2:3], v4", &[("exec", 0xff), ("v[2:3]", F64_NAN), ("v4", 1 << 1)], &[("exec", 0xff)]),
        case64(GFX8, "V_CMPX_GT_F64 (GCN: the mask and EXEC)", "v_cmpx_gt_f64 vcc, v[4:5], v[2:3]", &[("exec", 0x0f0f), ("v[2:3]", F64_1_5), ("v[4:5]", F64_2)], &[("exec", 0x0f0f), ("vcc", 0x0f0f)]),
        case64(GFX8, "V_CMPX_EQ_I16 (GCN)", "v_cmpx_eq_i16_e64 s[6:7], v2, v3", &[("exec", 0xff), ("v2", 5), ("v3", 6)], &[("exec", 0), ("s[6:7]", 0)]),
        case64(GFX8, "V_CMPX_F_U64 (GCN)", "v_cmpx_f_u64 vcc, v[2:3], v[4:5]", &[("exec", 0xff)], &[("exec", 0), ("vcc", 0)]),
        case64(GFX8, "V_CMPX_TRU_F16 (GCN)", "v_cmpx_tru_f16 vcc, v2, v3", &[("exec", 0xff)], &[("exec", 0xff), ("vcc", 0xff)]),
        case64(GFX1030, "V_CMPX_TRU_F16", "v_cmpx_tru_f16 v2, v3", &[("exec", 0xff)], &[("exec", 0xff)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn f16_one_source() {
    run_all(&[
        case(ALL, "V_RCP_F16", "v_rcp_f16 v1, v2\nv_rcp_f16 v3, 0\nv_rcp_f16 v4, 0x8000", &[("v2", F16_2)], &[("v1", 0x3800), ("v3", 0x7c00), ("v4", 0xfc00)]),
        case(ALL, "V_SQRT_F16", "v_sqrt_f16 v1, 4.0\nv_sqrt_f16 v3, -1.0", &[], &[("v1", 0x4000), ("v3", 0x7e00)]),
        case(ALL, "V_RSQ_F16", "v_rsq_f16 v1, 4.0", &[], &[("v1", 0x3800)]),
        case(ALL, "V_LOG_F16", "v_log_f16 v1, v2\nv_log_f16 v3, 0", &[("v2", 0x4800)], &[("v1", 0x4200), ("v3", 0xfc00)]),
        case(ALL, "V_EXP_F16: 2^16 overflows", "v_exp_f16 v1, -1.0\nv_exp_f16 v3, v2", &[("v2", 0x4c00)], &[("v1", 0x3800), ("v3", 0x7c00)]),
        case(ALL, "V_FREXP_MANT_F16 / V_FREXP_EXP_I16_F16", "v_frexp_mant_f16 v1, v2\nv_frexp_exp_i16_f16 v3, v2\nv_frexp_mant_f16 v4, v5\nv_frexp_exp_i16_f16 v6, v5", &[("v2", 0x4a00), ("v5", 0x7c00)], &[("v1", 0x3a00), ("v3", 4), ("v4", 0x7c00), ("v6", 0)]),
        case(ALL, "V_FLOOR_F16, V_CEIL_F16, V_TRUNC_F16", "v_floor_f16 v1, v2\nv_ceil_f16 v3, v2\nv_trunc_f16 v4, v2", &[("v2", 0xbe00)], &[("v1", 0xc000), ("v3", 0xbc00), ("v4", 0xbc00)]),
        case(ALL, "V_RNDNE_F16: ties to even", "v_rndne_f16 v1, v2\nv_rndne_f16 v3, v4", &[("v2", 0x4100), ("v4", 0x4300)], &[("v1", 0x4000), ("v3", 0x4400)]),
        case(ALL, "V_FRACT_F16: below 1.0", "v_fract_f16 v1, v2\nv_fract_f16 v3, 0x8001", &[("v2", 0xbe00)], &[("v1", 0x3800), ("v3", 0x3bff)]),
        case(ALL, "V_SIN_F16 / V_COS_F16 of revolutions", "v_sin_f16 v1, v2\nv_cos_f16 v3, 0.5", &[("v2", 0x3400)], &[("v1", 0x3c00), ("v3", 0xbc00)]),
        // GCN 1.2 zeroes bits 31:16 of a 16-bit result, RDNA keeps them.
        case(GFX8, "V_TRUNC_F16 (GCN 1.2: the high half zeroed)", "v_trunc_f16 v1, v2", &[("v1", 0xabcd_0000), ("v2", 0x4100)], &[("v1", 0x4000)]),
        case(RDNA, "V_TRUNC_F16 (RDNA: the high half kept)", "v_trunc_f16 v1, v2", &[("v1", 0xabcd_0000), ("v2", 0x4100)], &[("v1", 0xabcd_4000)]),
        case(ALL, "V_CVT_F16_F32: ties to even", "v_cvt_f16_f32 v1, 1.0\nv_cvt_f16_f32 v3, v2\nv_cvt_f16_f32 v4, v5", &[("v2", 0x3f80_1000), ("v5", 0x3f80_1001)], &[("v1", 0x3c00), ("v3", 0x3c00), ("v4", 0x3c01)]),
        case(ALL, "V_CVT_F16_F32: overflow, denormal, NaN", "v_cvt_f16_f32 v1, v2\nv_cvt_f16_f32 v3, v4\nv_cvt_f16_f32 v5, v6", &[("v2", 0x477f_f000), ("v4", 0x3380_0000), ("v6", 0x7f80_0001)], &[("v1", 0x7c00), ("v3", 1), ("v5", 0x7e00)]),
        case(ALL, "V_CVT_F32_F16", "v_cvt_f32_f16 v1, v2\nv_cvt_f32_f16 v3, 1\nv_cvt_f32_f16 v4, v5\nv_cvt_f32_f16 v6, v7", &[("v2", F16_1), ("v5", 0xfc00), ("v7", 0x7d00)], &[("v1", 0x3f80_0000), ("v3", 0x3380_0000), ("v4", 0xff80_0000), ("v6", 0x7fe0_0000)]),
        case(ALL, "V_CVT_F16_U16 / V_CVT_F16_I16", "v_cvt_f16_u16 v1, 0xffff\nv_cvt_f16_u16 v3, 0x801\nv_cvt_f16_i16 v4, -1", &[], &[("v1", 0x7c00), ("v3", 0x6800), ("v4", 0xbc00)]),
        case(ALL, "V_CVT_U16_F16 / V_CVT_I16_F16: truncated, saturated", "v_cvt_u16_f16 v1, v2\nv_cvt_u16_f16 v3, v4\nv_cvt_u16_f16 v5, v6\nv_cvt_i16_f16 v7, v4\nv_cvt_i16_f16 v8, 0xfc00\nv_cvt_u16_f16 v9, 0x7e00", &[("v2", 0x4d00), ("v4", 0xbe00), ("v6", 0x7c00)], &[("v1", 20), ("v3", 0), ("v5", 0xffff), ("v7", 0xffff), ("v8", 0x8000), ("v9", 0)]),
        case(RDNA, "V_CVT_NORM_I16_F16 / V_CVT_NORM_U16_F16", "v_cvt_norm_i16_f16 v1, 0.5\nv_cvt_norm_i16_f16 v3, -2.0\nv_cvt_norm_u16_f16 v4, 0.5\nv_cvt_norm_u16_f16 v5, -0.5", &[], &[("v1", 0x4000), ("v3", 0x8001), ("v4", 0x8000), ("v5", 0)]),
        case(RDNA, "V_SAT_PK_U8_I16", "v_sat_pk_u8_i16 v1, v2", &[("v1", 0), ("v2", 0xff80_0123)], &[("v1", 0x00ff)]),
        case(GFX1100, "V_CVT_I32_I16", "v_cvt_i32_i16 v1, v2", &[("v2", 0x1234_8000)], &[("v1", 0xffff_8000)]),
        case(GFX1100, "V_NOT_B16", "v_not_b16 v1, v2", &[("v1", 0xaaaa_0000), ("v2", 0x1234_00ff)], &[("v1", 0xaaaa_ff00)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn f64_one_source() {
    const F64_4: u64 = 0x4010_0000_0000_0000;
    const F64_M1_5: u64 = 0xbff8_0000_0000_0000;
    run_all(&[
        case(ALL, "V_RCP_F64", "v_rcp_f64 v[2:3], v[4:5]\nv_rcp_f64 v[6:7], 0x80000000\nv_rcp_f64 v[8:9], 0x40100000", &[("v[4:5]", F64_4)], &[("v[2:3]", 0x3fd0_0000_0000_0000), ("v[6:7]", 0xfff0_0000_0000_0000), ("v[8:9]", 0x3fd0_0000_0000_0000)]),
        case(ALL, "V_SQRT_F64 / V_RSQ_F64", "v_sqrt_f64 v[2:3], v[4:5]\nv_rsq_f64 v[6:7], 4.0", &[("v[4:5]", 0x4002_0000_0000_0000)], &[("v[2:3]", F64_1_5), ("v[6:7]", 0x3fe0_0000_0000_0000)]),
        case(ALL, "V_FLOOR_F64, V_CEIL_F64, V_TRUNC_F64, V_RNDNE_F64", "v_floor_f64 v[2:3], v[4:5]\nv_ceil_f64 v[6:7], v[4:5]\nv_trunc_f64 v[8:9], v[4:5]\nv_rndne_f64 v[10:11], v[12:13]", &[("v[4:5]", F64_M1_5), ("v[12:13]", 0x4004_0000_0000_0000)], &[("v[2:3]", 0xc000_0000_0000_0000), ("v[6:7]", 0xbff0_0000_0000_0000), ("v[8:9]", 0xbff0_0000_0000_0000), ("v[10:11]", F64_2)]),
        case(ALL, "V_FRACT_F64: below 1.0", "v_fract_f64 v[2:3], v[4:5]\nv_fract_f64 v[6:7], v[8:9]", &[("v[4:5]", 0xbff4_0000_0000_0000), ("v[8:9]", 0x8000_0000_0000_0001)], &[("v[2:3]", 0x3fe8_0000_0000_0000), ("v[6:7]", 0x3fef_ffff_ffff_ffff)]),
        case(ALL, "V_FREXP_MANT_F64 / V_FREXP_EXP_I32_F64", "v_frexp_mant_f64 v[2:3], v[4:5]\nv_frexp_exp_i32_f64 v6, v[4:5]\nv_frexp_mant_f64 v[8:9], 1\nv_frexp_exp_i32_f64 v10, 1", &[("v[4:5]", 0x4028_0000_0000_0000)], &[("v[2:3]", 0x3fe8_0000_0000_0000), ("v6", 4), ("v[8:9]", 0x3fe0_0000_0000_0000), ("v10", (-1073i32) as u32 as u64)]),
        case(ALL, "V_CVT_F32_F64: to nearest even, overflow", "v_cvt_f32_f64 v1, v[2:3]\nv_cvt_f32_f64 v4, v[6:7]", &[("v[2:3]", 0x3fd5_5555_5555_5555), ("v[6:7]", 0x7fef_ffff_ffff_ffff)], &[("v1", 0x3eaa_aaab), ("v4", 0x7f80_0000)]),
        case(ALL, "V_CVT_I32_F64 / V_CVT_U32_F64: truncated, saturated, NaN 0", "v_cvt_i32_f64 v1, v[2:3]\nv_cvt_i32_f64 v4, v[6:7]\nv_cvt_i32_f64 v5, v[8:9]\nv_cvt_u32_f64 v9, -1.0\nv_cvt_u32_f64 v10, v[12:13]", &[("v[2:3]", 0xc005_9999_9999_999a), ("v[6:7]", 0x4202_a05f_2000_0000), ("v[8:9]", F64_NAN), ("v[12:13]", 0x41ef_ffff_fff0_0000)], &[("v1", 0xffff_fffe), ("v4", 0x7fff_ffff), ("v5", 0), ("v9", 0), ("v10", 0xffff_ffff)]),
        case(ALL, "V_CVT_F64_F32, V_CVT_F64_I32, V_CVT_F64_U32", "v_cvt_f64_f32 v[2:3], v1\nv_cvt_f64_i32 v[4:5], -1\nv_cvt_f64_u32 v[6:7], v8", &[("v1", 0x3dcc_cccd), ("v8", 0xffff_ffff)], &[("v[2:3]", 0x3fb9_9999_a000_0000), ("v[4:5]", 0xbff0_0000_0000_0000), ("v[6:7]", 0x41ef_ffff_ffe0_0000)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn f32_and_integer_one_source() {
    run_all(&[
        case(ALL, "V_FREXP_MANT_F32 / V_FREXP_EXP_I32_F32", "v_frexp_mant_f32 v1, v2\nv_frexp_exp_i32_f32 v3, v2\nv_frexp_mant_f32 v4, 1\nv_frexp_exp_i32_f32 v5, 1\nv_frexp_mant_f32 v6, v7\nv_frexp_exp_i32_f32 v8, v7", &[("v2", 0x4140_0000), ("v7", 0xff80_0000)], &[("v1", 0x3f40_0000), ("v3", 4), ("v4", 0x3f00_0000), ("v5", (-148i32) as u32 as u64), ("v6", 0xff80_0000), ("v8", 0)]),
        case(GFX8_1030, "V_CVT_FLR_I32_F32 / V_CVT_RPI_I32_F32", "v_cvt_flr_i32_f32 v1, -1.5\nv_cvt_rpi_i32_f32 v2, -1.5\nv_cvt_rpi_i32_f32 v3, v4", &[("v4", 0x4020_0000)], &[("v1", 0xffff_fffe), ("v2", 0xffff_ffff), ("v3", 3)]),
        // 0.49999997 + 0.5 rounds to 1.0 in f32: the pseudocode's f32 addition.
        case(GFX1100, "V_CVT_FLOOR_I32_F32 / V_CVT_NEAREST_I32_F32", "v_cvt_floor_i32_f32 v1, -1.5\nv_cvt_nearest_i32_f32 v2, v3", &[("v3", 0x3eff_ffff)], &[("v1", 0xffff_fffe), ("v2", 1)]),
        case(ALL, "V_CVT_OFF_F32_I4", "v_cvt_off_f32_i4 v1, 8\nv_cvt_off_f32_i4 v2, 7\nv_cvt_off_f32_i4 v3, 15\nv_cvt_off_f32_i4 v4, 0x123", &[], &[("v1", 0xbf00_0000), ("v2", 0x3ee0_0000), ("v3", 0xbd80_0000), ("v4", 0x3e40_0000)]),
        case(ALL, "V_CVT_F32_UBYTE1/2/3", "v_cvt_f32_ubyte1 v1, v4\nv_cvt_f32_ubyte2 v2, v4\nv_cvt_f32_ubyte3 v3, v4", &[("v4", 0x1122_3344)], &[("v1", 0x424c_0000), ("v2", 0x4208_0000), ("v3", 0x4188_0000)]),
        case(GFX8, "V_EXP_LEGACY_F32 / V_LOG_LEGACY_F32", "v_exp_legacy_f32 v1, v2\nv_log_legacy_f32 v3, 0x41000000", &[("v2", 0x4040_0000)], &[("v1", 0x4100_0000), ("v3", 0x4040_0000)]),
        case(GFX8_1030, "V_FFBL_B32", "v_ffbl_b32 v1, 0x80\nv_ffbl_b32 v2, 0", &[], &[("v1", 7), ("v2", 0xffff_ffff)]),
        case(GFX1100, "V_CTZ_I32_B32", "v_ctz_i32_b32 v1, 0x80\nv_ctz_i32_b32 v2, 0", &[], &[("v1", 7), ("v2", 0xffff_ffff)]),
        case(ALL, "V_NOP (and V_CLREXCP, V_PIPEFLUSH where they exist)", "v_nop", &[("v1", 5)], &[("v1", 5)]),
        case(GFX8_1030, "V_CLREXCP", "v_clrexcp", &[("v1", 5)], &[("v1", 5)]),
        case(RDNA, "V_PIPEFLUSH", "v_pipeflush", &[("v1", 5)], &[("v1", 5)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn relative_moves() {
    run_all(&[
        case(ALL, "V_MOVRELS_B32: D = VGPR[S0 + M0]", "v_movrels_b32 v1, v2", &[("m0", 3), ("v5", 0x55)], &[("v1", 0x55)]),
        case(ALL, "V_MOVRELD_B32: VGPR[D + M0] = S0", "v_movreld_b32 v1, 7", &[("m0", 2), ("v1", 9)], &[("v3", 7), ("v1", 9)]),
        case(ALL, "V_MOVRELSD_B32: VGPR[D + M0] = VGPR[S0 + M0]", "v_movrelsd_b32 v1, v2", &[("m0", 2), ("v4", 0x44)], &[("v3", 0x44)]),
        case(ALL, "V_MOVRELD_B32 past v255: nothing written", "v_movreld_b32 v250, 7", &[("m0", 10), ("v4", 4)], &[("v4", 4)]),
        case(RDNA, "V_MOVRELSD_2_B32: VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]]", "v_movrelsd_2_b32 v1, v2", &[("m0", 3 << 16 | 1), ("v3", 0x33)], &[("v4", 0x33)]),
        case(RDNA, "V_SWAPREL_B32", "v_swaprel_b32 v1, v2", &[("m0", 1 << 16 | 2), ("v2", 0x22), ("v4", 0x44)], &[("v2", 0x44), ("v4", 0x22)]),
    ]);
}

/// V_PERMLANE64_B32 ("RDNA3 ISA"): lane i takes lane i ^ 32's source in wave64, for the
/// active lanes; in wave32 it changes nothing.
#[test]
fn permlane64_swaps_the_halves_of_a_wave64() {
    for (wave, expect) in [(WaveSize::W64, true), (WaveSize::W32, false)] {
        let p = parse(
            "main:\n v_permlane64_b32 v1, v2\n s_endpgm\n",
            Target::Gfx1100,
            wave,
        )
        .unwrap();
        let setup = WaveSetup {
            exec: Some(0xffff_0000_ffff_ffff & wave.full_mask()),
            vgprs: vec![(1, LaneValues::Uniform(7)), (2, LaneValues::LaneId(100))],
            ..Default::default()
        };
        let w = Machine::new(Image::new(&p).unwrap())
            .run("main", &[setup])
            .unwrap()
            .unwrap();
        for lane in 0..wave.lanes() as usize {
            let active = 0xffff_0000_ffff_ffffu64 >> lane & 1 == 1;
            let want = if expect && active {
                100 + (lane ^ 32) as u32
            } else {
                7
            };
            assert_eq!(w.v(1, lane), want, "{wave} lane {lane}");
        }
    }
}

#[test]
#[rustfmt::skip]
fn two_sources_16_bit() {
    run_all(&[
        case(ALL, "V_ADD_F16", "v_add_f16 v1, v2, v3\nv_add_f16 v4, 1.0, v7\nv_add_f16 v5, 0x7bff, v6", &[("v2", F16_1), ("v3", F16_2), ("v6", 0x4c00), ("v7", 0x6800)], &[("v1", 0x4200), ("v4", 0x6800), ("v5", 0x7c00)]),
        case(ALL, "V_SUB_F16 / V_SUBREV_F16", "v_sub_f16 v1, v2, v2\nv_subrev_f16 v3, v2, v4", &[("v2", F16_1), ("v4", F16_2)], &[("v1", 0), ("v3", F16_1)]),
        case(ALL, "V_MUL_F16: a denormal result, inf * 0", "v_mul_f16 v1, 0.5, v2\nv_mul_f16 v3, 0, v4", &[("v2", 0x400), ("v4", 0x7c00)], &[("v1", 0x0200), ("v3", 0x7e00)]),
        case(ALL, "V_ADD_F16: the first NaN operand, quieted", "v_add_f16 v1, v2, v3", &[("v2", 0x7d00), ("v3", 0x7e01)], &[("v1", 0x7f00)]),
        case(ALL, "V_MAX_F16 / V_MIN_F16 in IEEE mode", "v_max_f16 v1, 1.0, v2\nv_max_f16 v3, 1.0, v4\nv_max_f16 v5, 0x8000, v7\nv_min_f16 v6, 0, v8", &[("v2", 0x7e00), ("v4", 0x7d00), ("v7", 0), ("v8", 0x8000)], &[("v1", F16_1), ("v3", 0x7f00), ("v5", 0), ("v6", 0x8000)]),
        case(ALL, "V_LDEXP_F16: S0 * 2^S1.i16", "v_ldexp_f16 v1, v2, 3\nv_ldexp_f16 v3, 1.0, v4", &[("v2", 0x3e00), ("v4", 0xfff0)], &[("v1", 0x4a00), ("v3", 0x0100)]),
        case(GFX8, "V_ADD_U16 (wraps; the high half zeroed)", "v_add_u16 v1, v2, 2\nv_sub_u16 v3, 1, v4\nv_subrev_u16 v5, v6, v7", &[("v1", 0xaaaa_0000), ("v2", 0xffff), ("v4", 2), ("v6", 1), ("v7", 5)], &[("v1", 1), ("v3", 0xffff), ("v5", 4)]),
        case(RDNA, "V_ADD_NC_U16 (wraps; the high half kept)", "v_add_nc_u16 v1, v2, 2\nv_sub_nc_u16 v3, 1, v4", &[("v1", 0xaaaa_0000), ("v2", 0xffff), ("v3", 0), ("v4", 2)], &[("v1", 0xaaaa_0001), ("v3", 0xffff)]),
        case(ALL, "V_MUL_LO_U16, V_MAX/MIN_I16/U16", "v_mul_lo_u16 v1, v2, 16\nv_max_i16 v3, v4, 1\nv_max_u16 v5, v4, 1\nv_min_i16 v6, v4, 1\nv_min_u16 v7, v4, 1", &[("v2", 0x1234), ("v4", 0xffff)], &[("v1", 0x2340), ("v3", 1), ("v5", 0xffff), ("v6", 0xffff), ("v7", 1)]),
        // (1 + 2^-10)(1 - 2^-11) - 1: the fused forms keep 2^-11 - 2^-21 (0x0ffe), GCN's
        // mad rounds the product to 1.0 first (0).
        case(GFX8, "V_MAC_F16: the product rounded first", "v_mac_f16 v1, v2, v3\nv_mac_f16 v4, v5, v6", &[("v1", F16_M1), ("v2", 0x3c01), ("v3", 0x3bff), ("v4", F16_1), ("v5", F16_2), ("v6", 0x4200)], &[("v1", 0), ("v4", 0x4700)]),
        case(GFX8, "V_MAC_F16: denormals flushed", "v_mac_f16 v1, v2, 1.0", &[("v1", F16_1), ("v2", 1)], &[("v1", F16_1)]),
        case(GFX8, "V_MADMK_F16 / V_MADAK_F16", "v_madmk_f16 v1, v2, 0x4000, v3\nv_madak_f16 v4, v2, v3, 0x3c00", &[("v2", 0x4200), ("v3", F16_1)], &[("v1", 0x4700), ("v4", 0x4400)]),
        case(RDNA, "V_FMAC_F16: fused", "v_fmac_f16 v1, v2, v3", &[("v1", F16_M1), ("v2", 0x3c01), ("v3", 0x3bff)], &[("v1", 0x0ffe)]),
        case(RDNA, "V_FMAMK_F16 / V_FMAAK_F16", "v_fmamk_f16 v1, v2, 0x3bff, v3\nv_fmaak_f16 v4, v2, v5, 0xbc00", &[("v2", 0x3c01), ("v3", F16_M1), ("v5", 0x3bff)], &[("v1", 0x0ffe), ("v4", 0x0ffe)]),
        case(RDNA, "V_PK_FMAC_F16", "v_pk_fmac_f16 v1, v2, v3", &[("v1", 0x3c00_bc00), ("v2", 0x4000_3c01), ("v3", 0x4200_3bff)], &[("v1", 0x4700_0ffe)]),
        // A packed operand's inline float is its f16 in bits 15:0, bits 31:16 zero.
        case(RDNA, "V_PK_FMAC_F16 with an inline constant", "v_pk_fmac_f16 v1, 1.0, v3", &[("v1", 0x3c00_3c00), ("v3", 0x4000_4000)], &[("v1", 0x3c00_4200)]),
        case(GFX1030, "V_DOT2C_F32_F16", "v_dot2c_f32_f16 v1, v2, v3", &[("v1", 0x3f80_0000), ("v2", 0x4000_3c00), ("v3", 0x4200_4000)], &[("v1", 0x4110_0000)]),
        case(GFX1100, "V_DOT2ACC_F32_F16", "v_dot2acc_f32_f16 v1, v2, v3", &[("v1", 0x3f80_0000), ("v2", 0x4000_3c00), ("v3", 0x4200_4000)], &[("v1", 0x4110_0000)]),
        case(GFX1030, "V_DOT4C_I32_I8", "v_dot4c_i32_i8 v1, v2, v3", &[("v1", 10), ("v2", 0xff02_0304), ("v3", 0x0101_0101)], &[("v1", 18)]),
        case(GFX1030, "V_FMAC_LEGACY_F32: 0 * inf = +0", "v_fmac_legacy_f32 v1, v2, v3\nv_fmac_legacy_f32 v4, 2.0, v5", &[("v1", 0x8000_0000), ("v2", 0), ("v3", 0x7f80_0000), ("v4", 0x3f80_0000), ("v5", 0x4040_0000)], &[("v1", 0), ("v4", 0x40e0_0000)]),
        case(GFX1100, "V_FMAC_DX9_ZERO_F32: 0 * NaN = +0", "v_fmac_dx9_zero_f32 v1, v2, v3", &[("v1", 0x3f80_0000), ("v2", 0x8000_0000), ("v3", 0x7fc0_0000)], &[("v1", 0x3f80_0000)]),
        case(GFX8_1030, "V_CVT_PKRTZ_F16_F32: towards zero", "v_cvt_pkrtz_f16_f32 v1, v2, v3", &[("v2", 0x3f80_1800), ("v3", 0x4780_0000)], &[("v1", 0x7bff_3c00)]),
        case(GFX1100, "V_CVT_PK_RTZ_F16_F32", "v_cvt_pk_rtz_f16_f32 v1, v2, -1.0", &[("v2", 0xbf80_1800)], &[("v1", 0xbc00_bc00)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn f64_arithmetic() {
    const F64_1: u64 = 0x3ff0_0000_0000_0000;
    const F64_3: u64 = 0x4008_0000_0000_0000;
    run_all(&[
        case(ALL, "V_ADD_F64, V_MUL_F64", "v_add_f64 v[2:3], v[4:5], v[6:7]\nv_mul_f64 v[8:9], v[4:5], -2.0", &[("v[4:5]", F64_1_5), ("v[6:7]", F64_2)], &[("v[2:3]", 0x400c_0000_0000_0000), ("v[8:9]", 0xc008_0000_0000_0000)]),
        case(ALL, "V_ADD_F64: the first NaN quieted; V_MUL_F64: inf * 0 the default NaN", "v_add_f64 v[2:3], v[4:5], v[6:7]\nv_mul_f64 v[8:9], v[10:11], 0", &[("v[4:5]", F64_1_5), ("v[6:7]", 0x7ff0_0000_0000_0001), ("v[10:11]", 0x7ff0_0000_0000_0000)], &[("v[2:3]", 0x7ff8_0000_0000_0001), ("v[8:9]", F64_NAN)]),
        case(ALL, "V_MIN_F64 / V_MAX_F64 in IEEE mode", "v_min_f64 v[2:3], v[4:5], 0\nv_max_f64 v[6:7], v[8:9], v[10:11]", &[("v[4:5]", F64_NEG_0), ("v[8:9]", F64_NAN), ("v[10:11]", F64_1_5)], &[("v[2:3]", F64_NEG_0), ("v[6:7]", F64_1_5)]),
        // (1 + 2^-52)(1 - 2^-53) - 1 = 2^-53 - 2^-105 exactly; unfused it would be 0.
        case(ALL, "V_FMA_F64: one rounding", "v_fma_f64 v[2:3], v[4:5], v[6:7], -1.0", &[("v[4:5]", 0x3ff0_0000_0000_0001), ("v[6:7]", 0x3fef_ffff_ffff_ffff)], &[("v[2:3]", 0x3c9f_ffff_ffff_fffe)]),
        case(ALL, "V_LDEXP_F64: denormal results rounded once, overflow", "v_ldexp_f64 v[2:3], 1.0, v1\nv_ldexp_f64 v[4:5], v[6:7], v8\nv_ldexp_f64 v[10:11], 1.0, v14\nv_ldexp_f64 v[12:13], 1, v9", &[("v1", (-1074i32) as u32 as u64), ("v[6:7]", F64_1_5), ("v8", (-1075i32) as u32 as u64), ("v9", 1074), ("v14", 0x400)], &[("v[2:3]", 1), ("v[4:5]", 1), ("v[10:11]", 0x7ff0_0000_0000_0000), ("v[12:13]", F64_1)]),
        case64(ALL, "V_DIV_SCALE_F64: nothing to scale", "v_div_scale_f64 v[2:3], vcc, v[4:5], v[4:5], v[6:7]", &[("v[4:5]", F64_3), ("v[6:7]", F64_1), ("vcc", u64::MAX)], &[("v[2:3]", F64_3), ("vcc", 0)]),
        case64(ALL, "V_DIV_SCALE_F64: a quotient near the largest f64 (exponents 768 apart): VCC, the denominator scaled by 2^128", "v_div_scale_f64 v[2:3], vcc, v[4:5], v[4:5], v[6:7]", &[("v[4:5]", 1), ("v[6:7]", F64_1)], &[("v[2:3]", 0x04d0_0000_0000_0000), ("vcc", u64::MAX)]),
        case64(ALL, "V_DIV_SCALE_F64: a denormal denominator scaled by 2^128", "v_div_scale_f64 v[2:3], vcc, v[4:5], v[4:5], v[6:7]", &[("v[4:5]", 1), ("v[6:7]", 0x0170_0000_0000_0000), ("vcc", u64::MAX)], &[("v[2:3]", 0x04d0_0000_0000_0000), ("vcc", 0)]),
        case64(ALL, "V_DIV_SCALE_F64: a tiny numerator scaled by 2^128", "v_div_scale_f64 v[2:3], vcc, v[6:7], v[4:5], v[6:7]", &[("v[4:5]", F64_1), ("v[6:7]", 0x0170_0000_0000_0000)], &[("v[2:3]", 0x0970_0000_0000_0000)]),
        case64(ALL, "V_DIV_FMAS_F64: scaled by 2^128 in VCC lanes when S2 >= 2", "s_mov_b64 vcc, -1\nv_div_fmas_f64 v[2:3], 1.0, 1.0, 2.0\ns_mov_b64 vcc, 0\nv_div_fmas_f64 v[4:5], 1.0, 1.0, 2.0", &[], &[("v[2:3]", 0x4808_0000_0000_0000), ("v[4:5]", F64_3)]),
        case(ALL, "V_DIV_FIXUP_F64", "v_div_fixup_f64 v[2:3], v[4:5], 0, 1.0\nv_div_fixup_f64 v[6:7], v[4:5], v[8:9], 1.0\nv_div_fixup_f64 v[10:11], v[4:5], 0, 0\nv_div_fixup_f64 v[12:13], v[4:5], -2.0, 1.0", &[("v[4:5]", 0x3fe0_0000_0000_0000), ("v[8:9]", F64_NEG_0)], &[("v[2:3]", 0x7ff0_0000_0000_0000), ("v[6:7]", 0xfff0_0000_0000_0000), ("v[10:11]", 0xfff8_0000_0000_0000), ("v[12:13]", 0xbfe0_0000_0000_0000)]),
        // Segments 0 and 1 of 2/π, each truncated to 53 bits: 2/π rounded to nearest is
        // 0x3fe45f306dc9c883, towards zero ...882.
        case(ALL, "V_TRIG_PREOP_F64", "v_trig_preop_f64 v[2:3], 1.0, 0\nv_trig_preop_f64 v[4:5], 1.0, 1", &[], &[("v[2:3]", 0x3fe4_5f30_6dc9_c882), ("v[4:5]", 0x3c94_a7f0_9d5f_47d4)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn three_sources_16_bit() {
    run_all(&[
        case(ALL, "V_FMA_F16: one rounding", "v_fma_f16 v1, v2, v3, -1.0", &[("v2", 0x3c01), ("v3", 0x3bff)], &[("v1", 0x0ffe)]),
        case(GFX8, "V_MAD_F16: the product rounded first", "v_mad_f16 v1, v2, v3, -1.0", &[("v2", 0x3c01), ("v3", 0x3bff)], &[("v1", 0)]),
        case(ALL, "V_DIV_FIXUP_F16", "v_div_fixup_f16 v1, v2, 0, 1.0\nv_div_fixup_f16 v3, v2, 0, 0\nv_div_fixup_f16 v4, v2, 2.0, 1.0\nv_div_fixup_f16 v5, v2, -2.0, 1.0", &[("v2", 0x3800)], &[("v1", 0x7c00), ("v3", 0xfe00), ("v4", 0x3800), ("v5", 0xb800)]),
        case(RDNA, "V_MIN3_F16, V_MAX3_F16, V_MED3_F16", "v_min3_f16 v1, 1.0, v2, v3\nv_max3_f16 v4, 1.0, v2, v3\nv_med3_f16 v5, 1.0, v2, v3\nv_med3_f16 v6, v7, 1.0, v3", &[("v2", 0x4200), ("v3", F16_2), ("v7", F16_NAN)], &[("v1", F16_1), ("v4", 0x4200), ("v5", F16_2), ("v6", F16_1)]),
        case(GFX1100, "V_MAXMIN_F16 / V_MINMAX_F16", "v_maxmin_f16 v1, 1.0, v2, 0.5\nv_minmax_f16 v3, 1.0, v2, 0.5", &[("v2", 0x4200)], &[("v1", 0x3800), ("v3", F16_1)]),
        case(GFX1100, "V_CNDMASK_B16 (the high half kept)", "v_cndmask_b16 v1, v2, v3, s6\nv_cndmask_b16 v4, -v2, v3, s7", &[("v1", 0xaaaa_0000), ("v4", 0xaaaa_0000), ("v2", 0x1111), ("v3", 0x2222), ("s6", 0xffff_ffff), ("s7", 0)], &[("v1", 0xaaaa_2222), ("v4", 0xaaaa_9111)]),
        case(GFX1100, "V_DOT2_F16_F16", "v_dot2_f16_f16 v1, v2, v3, 1.0", &[("v1", 0), ("v2", 0x4000_3c00), ("v3", 0x4200_4000)], &[("v1", 0x4880)]),
        case(GFX1100, "V_DOT2_BF16_BF16", "v_dot2_bf16_bf16 v1, v2, v3, 0x3f80", &[("v1", 0), ("v2", 0x4000_3f80), ("v3", 0x4040_4000)], &[("v1", 0x4110)]),
        case(ALL, "V_MAD_U16 / V_MAD_I16: the low 16 bits", "v_mad_u16 v1, v2, 2, 1\nv_mad_u16 v3, v4, 2, 0\nv_mad_i16 v5, -1, 3, 1", &[("v1", 0), ("v3", 0), ("v5", 0), ("v2", 0x1234), ("v4", 0xffff)], &[("v1", 0x2469), ("v3", 0xfffe), ("v5", 0xfffe)]),
        case(RDNA, "V_ADD_NC_I16 / V_SUB_NC_I16: wrapping", "v_add_nc_i16 v1, v2, 1\nv_sub_nc_i16 v3, v4, 1", &[("v1", 0), ("v3", 0), ("v2", 0x7fff), ("v4", 0x8000)], &[("v1", 0x8000), ("v3", 0x7fff)]),
        case(RDNA, "V_MIN3/MAX3/MED3_I16 and _U16", "v_min3_i16 v1, v2, 5, v3\nv_max3_i16 v4, v2, 5, v3\nv_med3_i16 v5, v2, 5, v3\nv_min3_u16 v6, v2, 5, v3\nv_max3_u16 v7, v2, 5, v3\nv_med3_u16 v8, v2, 5, v3", &[("v1", 0), ("v4", 0), ("v5", 0), ("v6", 0), ("v7", 0), ("v8", 0), ("v2", 0xffff), ("v3", 0x8000)], &[("v1", 0x8000), ("v4", 5), ("v5", 0xffff), ("v6", 5), ("v7", 0xffff), ("v8", 0x8000)]),
        case(GFX1100, "V_AND_B16 / V_OR_B16 / V_XOR_B16", "v_and_b16 v1, v2, 0xff00\nv_or_b16 v3, v2, 0xff00\nv_xor_b16 v4, v2, 0xff00", &[("v1", 0), ("v3", 0), ("v4", 0), ("v2", 0x1234)], &[("v1", 0x1200), ("v3", 0xff34), ("v4", 0xed34)]),
        case(RDNA, "V_MAD_U32_U16 / V_MAD_I32_I16", "v_mad_u32_u16 v1, v2, v2, 1\nv_mad_i32_i16 v3, v2, v2, 1", &[("v2", 0xffff)], &[("v1", 0xfffe_0002), ("v3", 2)]),
        case(RDNA, "V_CVT_PKNORM_I16_F16 (RDNA 3: V_CVT_PK_NORM_I16_F16)", "v_pack_b32_f16 v1, v2, -v3", &[("v2", 0x1234_3c00), ("v3", 0x4000)], &[("v1", 0xc000_3c00)]),
        case(GFX1030, "V_CVT_PKNORM_I16_F16", "v_cvt_pknorm_i16_f16 v1, 1.0, -1.0\nv_cvt_pknorm_u16_f16 v2, 0.5, 2.0", &[], &[("v1", 0x8001_7fff), ("v2", 0xffff_8000)]),
        case(GFX1100, "V_CVT_PK_NORM_I16_F16", "v_cvt_pk_norm_i16_f16 v1, 1.0, -1.0\nv_cvt_pk_norm_u16_f16 v2, 0.5, 2.0", &[], &[("v1", 0x8001_7fff), ("v2", 0xffff_8000)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn three_sources_32_bit() {
    run_all(&[
        case(RDNA, "V_ADD_NC_I32 / V_SUB_NC_I32: wrapping", "v_add_nc_i32 v1, v2, 1\nv_sub_nc_i32 v3, 0x80000000, 1", &[("v2", 0x7fff_ffff)], &[("v1", 0x8000_0000), ("v3", 0x7fff_ffff)]),
        case(ALL, "V_MAD_I32_I24", "v_mad_i32_i24 v1, v2, 5, 10", &[("v2", 0xabff_ffff)], &[("v1", 5)]),
        case(GFX1100, "V_MAXMIN_I32 / V_MINMAX_I32 / _U32", "v_maxmin_i32 v1, -1, 5, -3\nv_minmax_i32 v2, -1, 5, -3\nv_maxmin_u32 v3, -1, 5, 3\nv_minmax_u32 v4, -1, 5, 3", &[], &[("v1", 0xffff_fffd), ("v2", 0xffff_ffff), ("v3", 3), ("v4", 5)]),
        case(ALL, "V_ALIGNBYTE_B32", "v_alignbyte_b32 v1, v2, v3, 1", &[("v2", 0x1122_3344), ("v3", 0x5566_7788)], &[("v1", 0x4455_6677)]),
        case(ALL, "V_BFM_B32", "v_bfm_b32 v1, 4, 8", &[], &[("v1", 0xf00)]),
        case(ALL, "V_SAD_U8, V_SAD_HI_U8", "v_sad_u8 v1, v2, v3, 64\nv_sad_hi_u8 v4, v2, v3, 64", &[("v2", 0x0102_0304), ("v3", 0x0403_0201)], &[("v1", 72), ("v4", 0x8_0040)]),
        case(ALL, "V_SAD_U16, V_SAD_U32", "v_sad_u16 v1, v2, v3, 1\nv_sad_u32 v4, 5, -1, 0", &[("v2", 0x0001_0010), ("v3", 0x0003_0008)], &[("v1", 11), ("v4", 0xffff_fffa)]),
        case(ALL, "V_MSAD_U8: bytes where S1 is 0 left out", "v_msad_u8 v1, v2, v3, 64", &[("v2", 0x0102_0304), ("v3", 0x0400_0201)], &[("v1", 71)]),
        case(ALL, "V_LERP_U8", "v_lerp_u8 v1, v2, v3, v4", &[("v2", 0x01ff_0203), ("v3", 0x02ff_0305), ("v4", 0x0100_0001)], &[("v1", 0x02ff_0204)]),
        case(ALL, "V_QSAD_PK_U16_U8", "v_qsad_pk_u16_u8 v[2:3], v[4:5], v6, v[8:9]", &[("v[4:5]", 0x0807_0605_0403_0201), ("v6", 0x0403_0201), ("v[8:9]", 0x0004_0003_0002_0001)], &[("v[2:3]", 0x0010_000b_0006_0001)]),
        case(ALL, "V_MQSAD_PK_U16_U8", "v_mqsad_pk_u16_u8 v[2:3], v[4:5], v6, v[8:9]", &[("v[4:5]", 0x0807_0605_0403_0201), ("v6", 0x0400_0201), ("v[8:9]", 0x0004_0003_0002_0001)], &[("v[2:3]", 0x000d_0009_0005_0001)]),
        case(ALL, "V_MQSAD_U32_U8", "v_mqsad_u32_u8 v[12:15], v[4:5], v6, v[8:11]", &[("v[4:5]", 0x0807_0605_0403_0201), ("v6", 0x0400_0201), ("v[8:9]", 0x2_0000_0001), ("v[10:11]", 0x4_0000_0003)], &[("v[12:13]", 0x5_0000_0001), ("v[14:15]", 0xd_0000_0009)]),
        case(ALL, "V_CUBEID/SC/TC/MA_F32: z major", "v_cubeid_f32 v1, 1.0, 2.0, v2\nv_cubesc_f32 v3, 1.0, 2.0, v2\nv_cubetc_f32 v4, 1.0, 2.0, v2\nv_cubema_f32 v5, 1.0, 2.0, v2", &[("v2", 0x4040_0000)], &[("v1", 0x4080_0000), ("v3", 0x3f80_0000), ("v4", 0xc000_0000), ("v5", 0x40c0_0000)]),
        case(ALL, "V_CUBEID/SC/TC/MA_F32: -x major", "v_cubeid_f32 v1, v2, 1.0, 2.0\nv_cubesc_f32 v3, v2, 1.0, 2.0\nv_cubetc_f32 v4, v2, 1.0, 2.0\nv_cubema_f32 v5, v2, 1.0, 2.0", &[("v2", 0xc040_0000)], &[("v1", 0x3f80_0000), ("v3", 0x4000_0000), ("v4", 0xbf80_0000), ("v5", 0xc0c0_0000)]),
        case(GFX8, "V_MAD_LEGACY_F32: 0 * inf = +0", "v_mad_legacy_f32 v1, 0, v2, 1.0\nv_mad_legacy_f32 v3, 2.0, v4, 1.0", &[("v2", 0x7f80_0000), ("v4", 0x4040_0000)], &[("v1", 0x3f80_0000), ("v3", 0x40e0_0000)]),
        case(GFX1030, "V_FMA_LEGACY_F32: 0 * NaN = +0", "v_fma_legacy_f32 v1, 0, v2, 2.0", &[("v2", 0x7fc0_0000)], &[("v1", 0x4000_0000)]),
        case(GFX1100, "V_FMA_DX9_ZERO_F32", "v_fma_dx9_zero_f32 v1, 0, v2, 2.0", &[("v2", 0x7fc0_0000)], &[("v1", 0x4000_0000)]),
        case(RDNA, "V_MULLIT_F32", "v_mullit_f32 v1, 2.0, v2, 1.0\nv_mullit_f32 v3, 2.0, v2, 0\nv_mullit_f32 v4, 2.0, v5, 1.0", &[("v2", 0x4040_0000), ("v5", 0xff80_0000)], &[("v1", 0x40c0_0000), ("v3", 0xff7f_ffff), ("v4", 0xff7f_ffff)]),
        case(ALL, "V_CVT_PK_U8_F32: to nearest even, saturated", "v_cvt_pk_u8_f32 v1, v2, 2, v3\nv_cvt_pk_u8_f32 v4, v5, 0, 0\nv_cvt_pk_u8_f32 v6, -1.0, 1, -1", &[("v2", 0x437e_8000), ("v3", 0x1122_3344), ("v5", 0x4396_0000)], &[("v1", 0x11fe_3344), ("v4", 0xff), ("v6", 0xffff_00ff)]),
        case(GFX8, "V_CVT_PKACCUM_U8_F32", "v_cvt_pkaccum_u8_f32 v1, v2, 3", &[("v1", 0x1122_3344), ("v2", 0x3fc0_0000)], &[("v1", 0x0222_3344)]),
        case(GFX8_1030, "V_CVT_PKNORM_I16_F32 / U16", "v_cvt_pknorm_i16_f32 v1, 1.0, -0.5\nv_cvt_pknorm_u16_f32 v2, 0.5, 2.0", &[], &[("v1", 0xc000_7fff), ("v2", 0xffff_8000)]),
        case(GFX1100, "V_CVT_PK_NORM_I16_F32 / U16", "v_cvt_pk_norm_i16_f32 v1, 1.0, -0.5\nv_cvt_pk_norm_u16_f32 v2, 0.5, 2.0", &[], &[("v1", 0xc000_7fff), ("v2", 0xffff_8000)]),
        case(GFX1100, "V_CVT_PK_I16_F32 / V_CVT_PK_U16_F32: truncated, saturated", "v_cvt_pk_i16_f32 v1, -1.5, v2\nv_cvt_pk_u16_f32 v3, v4, -4.0", &[("v2", 0x471c_4000), ("v4", 0x4788_b800)], &[("v1", 0x7fff_ffff), ("v3", 0x0000_ffff)]),
        case(ALL, "V_CVT_PK_I16_I32 / V_CVT_PK_U16_U32: saturated", "v_cvt_pk_i16_i32 v1, v2, v3\nv_cvt_pk_u16_u32 v4, 5, v2", &[("v2", 0x1_0000), ("v3", 0xffff_0000)], &[("v1", 0x8000_7fff), ("v4", 0xffff_0005)]),
    ]);
}

/// V_PERMLANE16_B32 / V_PERMLANEX16_B32 ("RDNA2 ISA"): lane i takes S0 of the lane its
/// nibble of {S2, S1} selects within its row of 16, or in the other row of its 32 lanes.
#[test]
fn permlane16_selects_lanes_within_rows() {
    for target in [Target::Gfx1030, Target::Gfx1100] {
        for wave in [WaveSize::W32, WaveSize::W64] {
            let text = "main:\n v_permlane16_b32 v1, v2, s0, s1\n v_permlanex16_b32 v3, v2, s2, s3\n s_endpgm\n";
            let p = parse(text, target, wave).unwrap();
            let setup = WaveSetup {
                // The reversed row for permlane16, the identity for permlanex16; lane 5 off.
                sgprs: vec![
                    (0, 0x89ab_cdef),
                    (1, 0x0123_4567),
                    (2, 0x7654_3210),
                    (3, 0xfedc_ba98),
                ],
                vgprs: vec![
                    (1, LaneValues::Uniform(7)),
                    (2, LaneValues::LaneId(100)),
                    (3, LaneValues::Uniform(7)),
                ],
                exec: Some(!(1u64 << 5) & wave.full_mask()),
                ..Default::default()
            };
            let w = Machine::new(Image::new(&p).unwrap())
                .run("main", &[setup])
                .unwrap()
                .unwrap();
            for lane in 0..wave.lanes() as usize {
                let (from16, fromx) = ((lane & !15) + 15 - lane % 16, lane ^ 16);
                let pick = |from: usize| {
                    if lane == 5 || from == 5 {
                        7
                    } else {
                        100 + from as u32
                    }
                };
                assert_eq!(
                    w.v(1, lane),
                    pick(from16),
                    "{target} {wave} permlane16 lane {lane}"
                );
                assert_eq!(
                    w.v(3, lane),
                    pick(fromx),
                    "{target} {wave} permlanex16 lane {lane}"
                );
            }
        }
    }
}

/// llc-19's f64 division (`fdiv double`): V_DIV_SCALE_F64 of the denominator and the
/// numerator, a reciprocal refined by FMAs, V_DIV_FMAS_F64 and V_DIV_FIXUP_F64, which
/// together give the IEEE quotient (computed here by Rust's division), also where the
/// scaling steps act: quotients near the largest f64, denormal quotients and operands.
#[test]
fn f64_division_sequence() {
    const DIV: &str = "v_div_scale_f64 v[4:5], s[6:7], v[2:3], v[2:3], v[0:1]
v_rcp_f64 v[6:7], v[4:5]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
v_div_scale_f64 v[8:9], vcc, v[0:1], v[2:3], v[0:1]
v_mul_f64 v[10:11], v[8:9], v[6:7]
v_fma_f64 v[12:13], -v[4:5], v[10:11], v[8:9]
v_div_fmas_f64 v[6:7], v[12:13], v[6:7], v[10:11]
v_div_fixup_f64 v[0:1], v[6:7], v[2:3], v[0:1]";
    let pairs: [(f64, f64); 9] = [
        (1.0, 3.0),
        (2.0, 7.0),
        (-5.5, 1.1),
        (1e300, 1e-10),
        (1e-300, 1e10),
        (f64::from_bits(1), 3.0),
        (3.0, f64::from_bits(5)),
        (f64::MAX, 0.5),
        (0.0, -2.0),
    ];
    for target in [Target::Gfx8, Target::Gfx1030, Target::Gfx1100] {
        let p = parse(&format!("main:\n{DIV}\ns_endpgm\n"), target, WaveSize::W64).unwrap();
        for (num, den) in pairs {
            let mut setup = WaveSetup::default();
            for (reg, v) in [(0, num), (2, den)] {
                let b = v.to_bits();
                setup.vgprs.push((reg, LaneValues::Uniform(b as u32)));
                setup
                    .vgprs
                    .push((reg + 1, LaneValues::Uniform((b >> 32) as u32)));
            }
            let w = Machine::new(Image::new(&p).unwrap())
                .run("main", &[setup])
                .unwrap()
                .unwrap();
            let got = u64::from(w.v(0, 0)) | u64::from(w.v(1, 0)) << 32;
            assert_eq!(got, (num / den).to_bits(), "{target}: {num:e} / {den:e}");
        }
    }
}
