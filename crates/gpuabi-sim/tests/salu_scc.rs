//! SCC and results of every scalar ALU instruction of the model, against AMD's pseudocode.
//!
//! Each row names the instruction's pseudocode line from the SOP1/SOP2/SOPC/SOPK chapters
//! of AMD's "RDNA3.5 ISA" reference guide (the "AMD GCN3 ISA" and "RDNA2 ISA" guides agree for
//! these instructions); the expected values are worked out by hand from that line. Every row
//! runs with SCC first cleared and then set, so an instruction that must leave SCC alone is
//! caught when it writes it.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, Machine, WaveSetup};

/// One instruction: its text (sources s10..s13), the source values, the expected s0/s1
/// and the expected SCC (`None`: SCC keeps its value).
struct Row {
    asm: &'static str,
    sources: [u32; 4],
    expected: &'static [u32],
    scc: Option<bool>,
    pseudocode: &'static str,
}

const fn row(
    asm: &'static str,
    sources: [u32; 4],
    expected: &'static [u32],
    scc: Option<bool>,
    pseudocode: &'static str,
) -> Row {
    Row {
        asm,
        sources,
        expected,
        scc,
        pseudocode,
    }
}

const M1: u32 = u32::MAX;
const SET: Option<bool> = Some(true);
const CLEAR: Option<bool> = Some(false);
const KEEP: Option<bool> = None;

/// Instructions whose result does not read SCC.
#[rustfmt::skip]
const ROWS: &[Row] = &[
    // S_ADD_U32: tmp = 64'U(S0) + 64'U(S1); SCC = tmp >= 0x100000000.
    row("s_add_u32 s0, s10, s11", [M1, 1, 0, 0], &[0], SET, "S_ADD_U32 carry"),
    row("s_add_u32 s0, s10, s11", [1, 2, 0, 0], &[3], CLEAR, "S_ADD_U32 carry"),
    // S_SUB_U32: SCC = S1.u32 > S0.u32.
    row("s_sub_u32 s0, s10, s11", [1, 2, 0, 0], &[M1], SET, "S_SUB_U32 borrow"),
    row("s_sub_u32 s0, s10, s11", [2, 2, 0, 0], &[0], CLEAR, "S_SUB_U32 borrow"),
    // S_ADD_I32: SCC = S0[31] == S1[31] && S0[31] != tmp[31] (signed overflow).
    row("s_add_i32 s0, s10, s11", [0x7fff_ffff, 1, 0, 0], &[0x8000_0000], SET, "S_ADD_I32 overflow"),
    row("s_add_i32 s0, s10, s11", [M1, 1, 0, 0], &[0], CLEAR, "S_ADD_I32: a carry is no overflow"),
    // S_SUB_I32: SCC = S0[31] != S1[31] && S0[31] != tmp[31].
    row("s_sub_i32 s0, s10, s11", [0x8000_0000, 1, 0, 0], &[0x7fff_ffff], SET, "S_SUB_I32 overflow"),
    row("s_sub_i32 s0, s10, s11", [0, 1, 0, 0], &[M1], CLEAR, "S_SUB_I32: a borrow is no overflow"),
    // S_MIN_I32/U32: SCC = S0 < S1; D = SCC ? S0 : S1.
    row("s_min_i32 s0, s10, s11", [3, 3, 0, 0], &[3], CLEAR, "S_MIN_I32: SCC = S0.i32 < S1.i32"),
    row("s_min_i32 s0, s10, s11", [M1, 3, 0, 0], &[M1], SET, "S_MIN_I32: SCC = S0.i32 < S1.i32"),
    row("s_min_u32 s0, s10, s11", [3, 3, 0, 0], &[3], CLEAR, "S_MIN_U32: SCC = S0.u32 < S1.u32"),
    row("s_min_u32 s0, s10, s11", [M1, 3, 0, 0], &[3], CLEAR, "S_MIN_U32: SCC = S0.u32 < S1.u32"),
    row("s_min_u32 s0, s10, s11", [2, 3, 0, 0], &[2], SET, "S_MIN_U32: SCC = S0.u32 < S1.u32"),
    // S_MAX_I32/U32: SCC = S0 >= S1; D = SCC ? S0 : S1. Equal operands set SCC.
    row("s_max_i32 s0, s10, s11", [3, 3, 0, 0], &[3], SET, "S_MAX_I32: SCC = S0.i32 >= S1.i32"),
    row("s_max_i32 s0, s10, s11", [M1, 3, 0, 0], &[3], CLEAR, "S_MAX_I32: SCC = S0.i32 >= S1.i32"),
    row("s_max_i32 s0, s10, s11", [4, 3, 0, 0], &[4], SET, "S_MAX_I32: SCC = S0.i32 >= S1.i32"),
    row("s_max_u32 s0, s10, s11", [3, 3, 0, 0], &[3], SET, "S_MAX_U32: SCC = S0.u32 >= S1.u32"),
    row("s_max_u32 s0, s10, s11", [M1, 3, 0, 0], &[M1], SET, "S_MAX_U32: SCC = S0.u32 >= S1.u32"),
    row("s_max_u32 s0, s10, s11", [2, 3, 0, 0], &[3], CLEAR, "S_MAX_U32: SCC = S0.u32 >= S1.u32"),
    // Bitwise operations: SCC = D != 0.
    row("s_and_b32 s0, s10, s11", [0xf0, 0x0f, 0, 0], &[0], CLEAR, "S_AND_B32: SCC = D0 != 0"),
    row("s_and_b32 s0, s10, s11", [0xf0, 0x30, 0, 0], &[0x30], SET, "S_AND_B32: SCC = D0 != 0"),
    row("s_or_b32 s0, s10, s11", [0, 0, 0, 0], &[0], CLEAR, "S_OR_B32: SCC = D0 != 0"),
    row("s_xor_b32 s0, s10, s11", [5, 5, 0, 0], &[0], CLEAR, "S_XOR_B32: SCC = D0 != 0"),
    row("s_xor_b32 s0, s10, s11", [5, 4, 0, 0], &[1], SET, "S_XOR_B32: SCC = D0 != 0"),
    row("s_andn2_b32 s0, s10, s11", [0xff, 0xff, 0, 0], &[0], CLEAR, "S_ANDN2_B32: D0 = S0 & ~S1"),
    row("s_orn2_b32 s0, s10, s11", [0, M1, 0, 0], &[0], CLEAR, "S_ORN2_B32: D0 = S0 | ~S1"),
    row("s_orn2_b32 s0, s10, s11", [0, 0, 0, 0], &[M1], SET, "S_ORN2_B32: D0 = S0 | ~S1"),
    // Only the high half is nonzero: SCC looks at all 64 bits.
    row("s_and_b64 s[0:1], s[10:11], s[12:13]", [0, 1, M1, 1], &[0, 1], SET, "S_AND_B64: SCC = D0.u64 != 0"),
    row("s_or_b64 s[0:1], s[10:11], s[12:13]", [0, 0, 0, 0], &[0, 0], CLEAR, "S_OR_B64: SCC = D0.u64 != 0"),
    row("s_xor_b64 s[0:1], s[10:11], s[12:13]", [7, 9, 7, 9], &[0, 0], CLEAR, "S_XOR_B64: SCC = D0.u64 != 0"),
    row("s_andn2_b64 s[0:1], s[10:11], s[12:13]", [M1, M1, M1, 0], &[0, M1], SET, "S_ANDN2_B64"),
    row("s_orn2_b64 s[0:1], s[10:11], s[12:13]", [0, 0, M1, M1], &[0, 0], CLEAR, "S_ORN2_B64"),
    // Shifts: the amount is S1[4:0] (S1[5:0] for 64 bits); SCC = D != 0.
    row("s_lshl_b32 s0, s10, s11", [0x8000_0000, 1, 0, 0], &[0], CLEAR, "S_LSHL_B32: SCC = D0 != 0"),
    row("s_lshl_b32 s0, s10, s11", [1, 33, 0, 0], &[2], SET, "S_LSHL_B32: S1[4:0]"),
    row("s_lshr_b32 s0, s10, s11", [1, 1, 0, 0], &[0], CLEAR, "S_LSHR_B32: SCC = D0 != 0"),
    row("s_ashr_i32 s0, s10, s11", [0x8000_0000, 31, 0, 0], &[M1], SET, "S_ASHR_I32: SCC = D0 != 0"),
    row("s_lshl_b64 s[0:1], s[10:11], s12", [1, 0, 32, 0], &[0, 1], SET, "S_LSHL_B64: S1[5:0]"),
    row("s_lshl_b64 s[0:1], s[10:11], s12", [0, 1, 32, 0], &[0, 0], CLEAR, "S_LSHL_B64: SCC = D0 != 0"),
    row("s_lshr_b64 s[0:1], s[10:11], s12", [0, 0x8000_0000, 63, 0], &[1, 0], SET, "S_LSHR_B64"),
    row("s_ashr_i64 s[0:1], s[10:11], s12", [0, 0x4000_0000, 63, 0], &[0, 0], CLEAR, "S_ASHR_I64: SCC = D0 != 0"),
    // SOP1.
    row("s_not_b32 s0, s10", [M1, 0, 0, 0], &[0], CLEAR, "S_NOT_B32: SCC = D0 != 0"),
    row("s_not_b32 s0, s10", [0, 0, 0, 0], &[M1], SET, "S_NOT_B32: SCC = D0 != 0"),
    row("s_not_b64 s[0:1], s[10:11]", [M1, 0xffff_fffe, 0, 0], &[0, 1], SET, "S_NOT_B64: SCC = D0 != 0"),
    row("s_not_b64 s[0:1], s[10:11]", [M1, M1, 0, 0], &[0, 0], CLEAR, "S_NOT_B64: SCC = D0 != 0"),
    row("s_bcnt1_i32_b32 s0, s10", [0, 0, 0, 0], &[0], CLEAR, "S_BCNT1_I32_B32: SCC = D0 != 0"),
    row("s_bcnt1_i32_b32 s0, s10", [0xf0, 0, 0, 0], &[4], SET, "S_BCNT1_I32_B32: SCC = D0 != 0"),
    row("s_bcnt1_i32_b64 s0, s[10:11]", [0, 0x8000_0001, 0, 0], &[2], SET, "S_BCNT1_I32_B64"),
    row("s_bcnt1_i32_b64 s0, s[10:11]", [0, 0, 0, 0], &[0], CLEAR, "S_BCNT1_I32_B64"),
    // No SCC write.
    row("s_mul_i32 s0, s10, s11", [0x1_0000, 0x1_0000, 0, 0], &[0], KEEP, "S_MUL_I32: D0 = S0 * S1"),
    row("s_mul_i32 s0, s10, s11", [M1, 3, 0, 0], &[0xffff_fffd], KEEP, "S_MUL_I32: D0 = S0 * S1"),
    row("s_ff1_i32_b32 s0, s10", [0, 0, 0, 0], &[M1], KEEP, "S_FF1_I32_B32 (S_CTZ_I32_B32)"),
    row("s_ff1_i32_b64 s0, s[10:11]", [0, 2, 0, 0], &[33], KEEP, "S_FF1_I32_B64 (S_CTZ_I32_B64)"),
    row("s_flbit_i32_b32 s0, s10", [1, 0, 0, 0], &[31], KEEP, "S_FLBIT_I32_B32 (S_CLZ_I32_U32)"),
    row("s_flbit_i32_b32 s0, s10", [0, 0, 0, 0], &[M1], KEEP, "S_FLBIT_I32_B32 (S_CLZ_I32_U32)"),
    row("s_bitset1_b32 s0, s10", [35, 0, 0, 0], &[8], KEEP, "S_BITSET1_B32: D0[S0[4:0]] = 1"),
    row("s_mov_b32 s0, s10", [0, 0, 0, 0], &[0], KEEP, "S_MOV_B32"),
    row("s_mov_b64 s[0:1], s[10:11]", [0, 0, 0, 0], &[0, 0], KEEP, "S_MOV_B64"),
    row("s_movk_i32 s0, 0x8000", [0, 0, 0, 0], &[0xffff_8000], KEEP, "S_MOVK_I32: D0 = signext(SIMM16)"),
    // SOPC: SCC = the comparison.
    row("s_cmp_eq_u32 s10, s11", [3, 3, 0, 0], &[], SET, "S_CMP_EQ_U32"),
    row("s_cmp_lg_u32 s10, s11", [3, 3, 0, 0], &[], CLEAR, "S_CMP_LG_U32"),
    row("s_cmp_eq_i32 s10, s11", [M1, 3, 0, 0], &[], CLEAR, "S_CMP_EQ_I32"),
    row("s_cmp_lg_i32 s10, s11", [M1, 3, 0, 0], &[], SET, "S_CMP_LG_I32"),
    row("s_cmp_gt_u32 s10, s11", [M1, 3, 0, 0], &[], SET, "S_CMP_GT_U32"),
    row("s_cmp_gt_i32 s10, s11", [M1, 3, 0, 0], &[], CLEAR, "S_CMP_GT_I32"),
    row("s_cmp_ge_u32 s10, s11", [3, 3, 0, 0], &[], SET, "S_CMP_GE_U32"),
    row("s_cmp_ge_i32 s10, s11", [M1, 3, 0, 0], &[], CLEAR, "S_CMP_GE_I32"),
    row("s_cmp_lt_u32 s10, s11", [M1, 3, 0, 0], &[], CLEAR, "S_CMP_LT_U32"),
    row("s_cmp_lt_i32 s10, s11", [M1, 3, 0, 0], &[], SET, "S_CMP_LT_I32"),
    row("s_cmp_le_u32 s10, s11", [3, 3, 0, 0], &[], SET, "S_CMP_LE_U32"),
    row("s_cmp_le_i32 s10, s11", [3, M1, 0, 0], &[], CLEAR, "S_CMP_LE_I32"),
    row("s_cmp_eq_u64 s[10:11], s[12:13]", [1, 0, 1, 1], &[], CLEAR, "S_CMP_EQ_U64"),
    row("s_cmp_lg_u64 s[10:11], s[12:13]", [1, 0, 1, 1], &[], SET, "S_CMP_LG_U64"),
    // S_BFE_U32: D0 = (S0 >> S1[4:0]) & ((1 << S1[22:16]) - 1); S_BFE_I32 then
    // signext_from_bit(tmp, S1[22:16]); SCC = D0 != 0.
    row("s_bfe_u32 s0, s10, s11", [0xf0, 4 << 16 | 4, 0, 0], &[0xf], SET, "S_BFE_U32"),
    row("s_bfe_u32 s0, s10, s11", [0xf0, 4 << 16 | 8, 0, 0], &[0], CLEAR, "S_BFE_U32"),
    row("s_bfe_u32 s0, s10, s11", [0x1234_5678, 32 << 16, 0, 0], &[0x1234_5678], SET, "S_BFE_U32 width 32"),
    row("s_bfe_i32 s0, s10, s11", [0xf0, 4 << 16 | 4, 0, 0], &[M1], SET, "S_BFE_I32: bit 3 of 0xf is the sign"),
    row("s_bfe_i32 s0, s10, s11", [0x70, 4 << 16 | 4, 0, 0], &[7], SET, "S_BFE_I32"),
    row("s_bfe_i32 s0, s10, s11", [0xff, 0, 0, 0], &[0], CLEAR, "S_BFE_I32 width 0"),
    // S_BFM_B32: D0 = ((1 << S0[4:0]) - 1) << S1[4:0]; no SCC.
    row("s_bfm_b32 s0, s10, s11", [4, 8, 0, 0], &[0xf00], KEEP, "S_BFM_B32"),
    row("s_bfm_b64 s[0:1], s10, s11", [8, 28, 0, 0], &[0xf000_0000, 0xf], KEEP, "S_BFM_B64"),
    // S_CMPK_*: SIMM16 sign-extended for i32, zero-extended for u32.
    row("s_cmpk_eq_i32 s10, -1", [M1, 0, 0, 0], &[], SET, "S_CMPK_EQ_I32: signext(SIMM16)"),
    row("s_cmpk_eq_u32 s10, 0xffff", [M1, 0, 0, 0], &[], CLEAR, "S_CMPK_EQ_U32: 32'U(SIMM16)"),
    row("s_cmpk_eq_u32 s10, 0xffff", [0xffff, 0, 0, 0], &[], SET, "S_CMPK_EQ_U32"),
    row("s_cmpk_lg_i32 s10, 7", [8, 0, 0, 0], &[], SET, "S_CMPK_LG_I32"),
    row("s_cmpk_lg_u32 s10, 7", [7, 0, 0, 0], &[], CLEAR, "S_CMPK_LG_U32"),
    row("s_cmpk_gt_i32 s10, 0x7fff", [0x8000, 0, 0, 0], &[], SET, "S_CMPK_GT_I32"),
    row("s_cmpk_gt_u32 s10, 5", [6, 0, 0, 0], &[], SET, "S_CMPK_GT_U32"),
    row("s_cmpk_ge_i32 s10, -300", [-300i32 as u32, 0, 0, 0], &[], SET, "S_CMPK_GE_I32"),
    row("s_cmpk_ge_u32 s10, 3", [2, 0, 0, 0], &[], CLEAR, "S_CMPK_GE_U32"),
    row("s_cmpk_lt_i32 s10, 0", [M1, 0, 0, 0], &[], SET, "S_CMPK_LT_I32"),
    row("s_cmpk_lt_u32 s10, 5", [M1, 0, 0, 0], &[], CLEAR, "S_CMPK_LT_U32"),
    row("s_cmpk_le_i32 s10, -301", [-300i32 as u32, 0, 0, 0], &[], CLEAR, "S_CMPK_LE_I32"),
    row("s_cmpk_le_u32 s10, 3", [3, 0, 0, 0], &[], SET, "S_CMPK_LE_U32"),
    // S_BITCMP0_B32: SCC = S0.u32[S1.u32[4:0]] == 0; 35 selects bit 3.
    row("s_bitcmp0_b32 s10, s11", [0b1000, 35, 0, 0], &[], CLEAR, "S_BITCMP0_B32"),
    row("s_bitcmp1_b32 s10, s11", [0b1000, 35, 0, 0], &[], SET, "S_BITCMP1_B32"),
];

/// Instructions that read SCC, each with the SCC it starts with.
#[rustfmt::skip]
const WITH_SCC: &[(bool, Row)] = &[
    // S_ADDC_U32: tmp = S0 + S1 + SCC; SCC = tmp >= 0x100000000.
    (true, row("s_addc_u32 s0, s10, s11", [M1, 0, 0, 0], &[0], SET, "S_ADDC_U32")),
    (true, row("s_addc_u32 s0, s10, s11", [1, 2, 0, 0], &[4], CLEAR, "S_ADDC_U32")),
    (false, row("s_addc_u32 s0, s10, s11", [M1, 0, 0, 0], &[M1], CLEAR, "S_ADDC_U32")),
    // S_SUBB_U32: tmp = S0 - S1 - SCC; SCC = S1 + SCC > S0.
    (true, row("s_subb_u32 s0, s10, s11", [0, 0, 0, 0], &[M1], SET, "S_SUBB_U32")),
    (true, row("s_subb_u32 s0, s10, s11", [5, 2, 0, 0], &[2], CLEAR, "S_SUBB_U32")),
    (true, row("s_subb_u32 s0, s10, s11", [2, 2, 0, 0], &[M1], SET, "S_SUBB_U32")),
    // S_CSELECT_B32: D0 = SCC ? S0 : S1; SCC is not written.
    (true, row("s_cselect_b32 s0, s10, s11", [7, 9, 0, 0], &[7], KEEP, "S_CSELECT_B32")),
    (false, row("s_cselect_b32 s0, s10, s11", [7, 9, 0, 0], &[9], KEEP, "S_CSELECT_B32")),
    (true, row("s_cselect_b64 s[0:1], s[10:11], s[12:13]", [1, 2, 3, 4], &[1, 2], KEEP, "S_CSELECT_B64")),
    (false, row("s_cselect_b64 s[0:1], s[10:11], s[12:13]", [1, 2, 3, 4], &[3, 4], KEEP, "S_CSELECT_B64")),
];

/// Runs `inst` on gfx8 and gfx1030 with SCC first set to `scc_in`; returns (s0, s1, SCC)
/// of each.
fn run(inst: &str, sources: [u32; 4], scc_in: bool) -> Vec<(u32, u32, bool)> {
    // s_cmp_eq_u32 0, 0 sets SCC; s_cmp_eq_u32 0, 1 clears it.
    let text = format!(
        "main:\n\ts_cmp_eq_u32 0, {}\n\t{inst}\n\ts_endpgm\n",
        u32::from(!scc_in)
    );
    [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
    ]
    .into_iter()
    .map(|(target, wave)| {
        let program = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut m = Machine::new(Image::new(&program).unwrap());
        let setup = WaveSetup {
            sgprs: (10..14).zip(sources).collect(),
            ..Default::default()
        };
        let w = m.run("main", &[setup]).unwrap().expect("one wave");
        (w.sgpr[0], w.sgpr[1], w.scc)
    })
    .collect()
}

fn check(
    inst: &str,
    sources: [u32; 4],
    scc_in: bool,
    expected: &[u32],
    scc: Option<bool>,
    why: &str,
) {
    for (s0, s1, got_scc) in run(inst, sources, scc_in) {
        let got = [s0, s1];
        assert_eq!(
            &got[..expected.len()],
            expected,
            "{inst} with {sources:x?}: result ({why})"
        );
        assert_eq!(
            got_scc,
            scc.unwrap_or(scc_in),
            "{inst} with {sources:x?}, SCC in {scc_in}: SCC ({why})"
        );
    }
}

/// `s_addk_i32`/`s_mulk_i32 s0, SIMM16` on s0 = `start`: (s0 after, SCC after) per target.
fn k_form(inst: &str, start: u32, scc_in: bool) -> Vec<(u32, bool)> {
    run(
        &format!("s_mov_b32 s0, s10\n\t{inst}"),
        [start, 0, 0, 0],
        scc_in,
    )
    .into_iter()
    .map(|(s0, _, scc)| (s0, scc))
    .collect()
}

#[test]
fn k_forms_read_and_write_their_destination() {
    // S_ADDK_I32: tmp = D0; D0 = D0 + signext(SIMM16); SCC = tmp[31] == SIMM16[15] &&
    // tmp[31] != D0[31] (signed overflow).
    for scc_in in [false, true] {
        for (start, inst, d, scc) in [
            (5, "s_addk_i32 s0, -7", (-2i32) as u32, false),
            (0x7fff_fff0, "s_addk_i32 s0, 0x10", 0x8000_0000, true),
            (0x8000_0000, "s_addk_i32 s0, -1", 0x7fff_ffff, true),
            (u32::MAX, "s_addk_i32 s0, 1", 0, false),
        ] {
            for got in k_form(inst, start, scc_in) {
                assert_eq!(got, (d, scc), "{inst} on {start:#x}");
            }
        }
        // S_MULK_I32: D0 = D0 * signext(SIMM16); SCC not written.
        for got in k_form("s_mulk_i32 s0, -3", 7, scc_in) {
            assert_eq!(got, ((-21i32) as u32, scc_in));
        }
        for got in k_form("s_mulk_i32 s0, 0x7fff", 0x10000, scc_in) {
            assert_eq!(got, (0x7fff_0000, scc_in), "0x10000 * 0x7fff");
        }
    }
}

#[test]
fn every_scalar_alu_instruction_sets_scc_as_the_pseudocode_writes() {
    for r in ROWS {
        for scc_in in [false, true] {
            check(r.asm, r.sources, scc_in, r.expected, r.scc, r.pseudocode);
        }
    }
    for (scc_in, r) in WITH_SCC {
        check(r.asm, r.sources, *scc_in, r.expected, r.scc, r.pseudocode);
    }
}
