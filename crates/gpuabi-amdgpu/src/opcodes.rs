//! The instruction table: per instruction its format, class, operand kinds and mnemonic per
//! target. Semantics live in the simulator, written once per [`Opcode`].
//!
//! Decisions: an opcode is one hardware operation, whatever its spelling. GCN 1.2's
//! `v_add_u32`/`v_sub_u32`/`v_addc_u32`/`v_subb_u32` write a carry to a lane mask, so they
//! are RDNA's `v_add_co_u32`/`v_sub_co_u32`/`v_add_co_ci_u32`/`v_sub_co_ci_u32`; the
//! carry-less `v_add_nc_u32`/`v_sub_nc_u32` exist only on RDNA. `gfx8` means GCN 1.2 as
//! LLVM's `tonga` (gfx802). Scalar memory offsets are byte offsets on every target.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::target::Target;

/// The hardware encoding family of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar compare (writes SCC).
    Sopc,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar program control (branches, `s_endpgm`, `s_nop`, `s_waitcnt`).
    Sopp,
    /// Scalar memory.
    Smem,
    /// Vector ALU, one source (32-bit encoding when the operands allow).
    Vop1,
    /// Vector ALU, two sources (32-bit encoding when the operands allow).
    Vop2,
    /// Vector compare (32-bit encoding when it writes `vcc`).
    Vopc,
    /// Vector ALU, 64-bit encoding only.
    Vop3,
    /// Buffer memory through a resource descriptor.
    Mubuf,
    /// Global memory (flat addressing restricted to global, RDNA).
    Global,
    /// Per-lane scratch memory (RDNA).
    Scratch,
}

/// What an instruction does, for statistics and for the simulator's dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Scalar ALU.
    Salu,
    /// Scalar memory loads.
    Smem,
    /// Vector ALU.
    Valu,
    /// Vector memory (buffer, global).
    Vmem,
    /// Per-lane scratch memory.
    Scratch,
    /// Branches and program-counter moves.
    Branch,
    /// No effect on the simulated state (`s_nop`, `s_waitcnt`) or ends the wave.
    Control,
}

impl Class {
    /// Every class, in the order statistics print them.
    pub const ALL: [Class; 7] = [
        Class::Salu,
        Class::Smem,
        Class::Valu,
        Class::Vmem,
        Class::Scratch,
        Class::Branch,
        Class::Control,
    ];

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Salu => "salu",
            Class::Smem => "smem",
            Class::Valu => "valu",
            Class::Vmem => "vmem",
            Class::Scratch => "scratch",
            Class::Branch => "branch",
            Class::Control => "control",
        }
    }
}

/// The kind of an operand slot: which operands it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Scalar destination of N dwords: SGPRs or a special register.
    SDst(u8),
    /// Scalar source of N dwords: SGPRs, special registers, constants, label expressions.
    SSrc(u8),
    /// Scalar source of N dwords, registers only.
    SReg(u8),
    /// Vector destination of N dwords.
    VDst(u8),
    /// Vector source of N dwords: VGPRs, SGPRs, special registers, constants.
    VSrc(u8),
    /// Vector register source of N dwords.
    VReg(u8),
    /// A lane mask written (one SGPR in wave32, a pair in wave64).
    MaskDst,
    /// A lane mask read.
    MaskSrc,
    /// A lane index: SGPR, `m0` or an inline integer.
    Lane,
    /// An unsigned 16-bit immediate (`s_nop`).
    Imm16,
    /// A signed 16-bit immediate (`s_movk_i32`).
    Simm16,
    /// A branch target label.
    Label,
    /// The counters of `s_waitcnt`.
    Waitcnt,
    /// Scalar memory base address (2 SGPRs) or buffer resource (4 SGPRs).
    SBase(u8),
    /// Scalar memory offset: SGPR, `m0` or an unsigned 20-bit byte immediate.
    SOffset,
    /// Buffer address VGPR (`offen`/`idxen`) or `off`.
    BufAddr,
    /// Buffer resource descriptor: 4 SGPRs aligned to 4.
    Rsrc,
    /// Buffer scalar offset: SGPR, `m0` or an inline integer.
    BufSOffset,
    /// Global address: a VGPR pair with `off`, or a 32-bit VGPR offset with an SGPR base.
    GlobalAddr,
    /// Global SGPR base pair, or `off`.
    GlobalSAddr,
    /// Scratch per-lane VGPR offset, or `off`.
    ScratchAddr,
    /// Scratch SGPR offset, or `off`.
    ScratchSAddr,
}

/// The properties of one instruction.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// The instruction.
    pub op: Opcode,
    /// Its encoding family.
    pub format: Format,
    /// Its class.
    pub class: Class,
    /// Mnemonic per target column (`gfx8`, `gfx1030`, `gfx1100`); empty when absent.
    pub names: [&'static str; 3],
    /// Destination operand slots, written first in assembly.
    pub dsts: &'static [Kind],
    /// Source operand slots, after the destinations.
    pub srcs: &'static [Kind],
}

impl OpInfo {
    /// The mnemonic on `target`, if the instruction exists there.
    pub fn name(&self, target: Target) -> Option<&'static str> {
        let n = self.names[target.column()];
        (!n.is_empty()).then_some(n)
    }

    /// All operand slots in assembly order.
    pub fn slots(&self) -> impl Iterator<Item = Kind> + '_ {
        self.dsts.iter().chain(self.srcs.iter()).copied()
    }
}

use Kind::*;

const SD1: Kind = SDst(1);
const SD2: Kind = SDst(2);
const SS1: Kind = SSrc(1);
const SS2: Kind = SSrc(2);
const VD1: Kind = VDst(1);
const VD2: Kind = VDst(2);
const VS1: Kind = VSrc(1);
const VS2: Kind = VSrc(2);
const VV1: Kind = VReg(1);
const MD: Kind = MaskDst;
const MS: Kind = MaskSrc;

macro_rules! table {
    ($( $op:ident: $fmt:ident $class:ident [$g8:literal, $g10:literal, $g11:literal] [$($d:expr),*] [$($s:expr),*]; )*) => {
        /// An instruction of the machine model (named by its GCN 1.2 / RDNA 2 mnemonic).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Opcode { $($op),* }

        /// Every instruction, indexed by `Opcode as usize`.
        pub static TABLE: &[OpInfo] = &[
            $(OpInfo {
                op: Opcode::$op,
                format: Format::$fmt,
                class: Class::$class,
                names: [$g8, $g10, $g11],
                dsts: &[$($d),*],
                srcs: &[$($s),*],
            }),*
        ];
    };
}

table! {
    // Scalar ALU, one source.
    SMovB32: Sop1 Salu ["s_mov_b32", "s_mov_b32", "s_mov_b32"] [SD1] [SS1];
    SMovB64: Sop1 Salu ["s_mov_b64", "s_mov_b64", "s_mov_b64"] [SD2] [SS2];
    SNotB32: Sop1 Salu ["s_not_b32", "s_not_b32", "s_not_b32"] [SD1] [SS1];
    SNotB64: Sop1 Salu ["s_not_b64", "s_not_b64", "s_not_b64"] [SD2] [SS2];
    SBcnt1I32B32: Sop1 Salu ["s_bcnt1_i32_b32", "s_bcnt1_i32_b32", "s_bcnt1_i32_b32"] [SD1] [SS1];
    SBcnt1I32B64: Sop1 Salu ["s_bcnt1_i32_b64", "s_bcnt1_i32_b64", "s_bcnt1_i32_b64"] [SD1] [SS2];
    SFf1I32B32: Sop1 Salu ["s_ff1_i32_b32", "s_ff1_i32_b32", "s_ctz_i32_b32"] [SD1] [SS1];
    SFf1I32B64: Sop1 Salu ["s_ff1_i32_b64", "s_ff1_i32_b64", "s_ctz_i32_b64"] [SD1] [SS2];
    SBitset0B32: Sop1 Salu ["s_bitset0_b32", "s_bitset0_b32", "s_bitset0_b32"] [SD1] [SS1];
    SBitset1B32: Sop1 Salu ["s_bitset1_b32", "s_bitset1_b32", "s_bitset1_b32"] [SD1] [SS1];
    SGetpcB64: Sop1 Salu ["s_getpc_b64", "s_getpc_b64", "s_getpc_b64"] [SD2] [];
    SSetpcB64: Sop1 Branch ["s_setpc_b64", "s_setpc_b64", "s_setpc_b64"] [] [SReg(2)];
    SSwappcB64: Sop1 Branch ["s_swappc_b64", "s_swappc_b64", "s_swappc_b64"] [SD2] [SReg(2)];
    SAndSaveexecB64: Sop1 Salu ["s_and_saveexec_b64", "s_and_saveexec_b64", "s_and_saveexec_b64"] [SD2] [SS2];
    SOrSaveexecB64: Sop1 Salu ["s_or_saveexec_b64", "s_or_saveexec_b64", "s_or_saveexec_b64"] [SD2] [SS2];
    SXorSaveexecB64: Sop1 Salu ["s_xor_saveexec_b64", "s_xor_saveexec_b64", "s_xor_saveexec_b64"] [SD2] [SS2];
    SAndn2SaveexecB64: Sop1 Salu ["s_andn2_saveexec_b64", "s_andn2_saveexec_b64", "s_and_not1_saveexec_b64"] [SD2] [SS2];
    SAndSaveexecB32: Sop1 Salu ["", "s_and_saveexec_b32", "s_and_saveexec_b32"] [SD1] [SS1];
    SOrSaveexecB32: Sop1 Salu ["", "s_or_saveexec_b32", "s_or_saveexec_b32"] [SD1] [SS1];
    SXorSaveexecB32: Sop1 Salu ["", "s_xor_saveexec_b32", "s_xor_saveexec_b32"] [SD1] [SS1];
    SAndn2SaveexecB32: Sop1 Salu ["", "s_andn2_saveexec_b32", "s_and_not1_saveexec_b32"] [SD1] [SS1];
    // Scalar ALU, two sources.
    SAddU32: Sop2 Salu ["s_add_u32", "s_add_u32", "s_add_u32"] [SD1] [SS1, SS1];
    SAddcU32: Sop2 Salu ["s_addc_u32", "s_addc_u32", "s_addc_u32"] [SD1] [SS1, SS1];
    SSubU32: Sop2 Salu ["s_sub_u32", "s_sub_u32", "s_sub_u32"] [SD1] [SS1, SS1];
    SSubbU32: Sop2 Salu ["s_subb_u32", "s_subb_u32", "s_subb_u32"] [SD1] [SS1, SS1];
    SAddI32: Sop2 Salu ["s_add_i32", "s_add_i32", "s_add_i32"] [SD1] [SS1, SS1];
    SSubI32: Sop2 Salu ["s_sub_i32", "s_sub_i32", "s_sub_i32"] [SD1] [SS1, SS1];
    SAndB32: Sop2 Salu ["s_and_b32", "s_and_b32", "s_and_b32"] [SD1] [SS1, SS1];
    SAndB64: Sop2 Salu ["s_and_b64", "s_and_b64", "s_and_b64"] [SD2] [SS2, SS2];
    SOrB32: Sop2 Salu ["s_or_b32", "s_or_b32", "s_or_b32"] [SD1] [SS1, SS1];
    SOrB64: Sop2 Salu ["s_or_b64", "s_or_b64", "s_or_b64"] [SD2] [SS2, SS2];
    SXorB32: Sop2 Salu ["s_xor_b32", "s_xor_b32", "s_xor_b32"] [SD1] [SS1, SS1];
    SXorB64: Sop2 Salu ["s_xor_b64", "s_xor_b64", "s_xor_b64"] [SD2] [SS2, SS2];
    SAndn2B32: Sop2 Salu ["s_andn2_b32", "s_andn2_b32", "s_and_not1_b32"] [SD1] [SS1, SS1];
    SAndn2B64: Sop2 Salu ["s_andn2_b64", "s_andn2_b64", "s_and_not1_b64"] [SD2] [SS2, SS2];
    SOrn2B32: Sop2 Salu ["s_orn2_b32", "s_orn2_b32", "s_or_not1_b32"] [SD1] [SS1, SS1];
    SOrn2B64: Sop2 Salu ["s_orn2_b64", "s_orn2_b64", "s_or_not1_b64"] [SD2] [SS2, SS2];
    SLshlB32: Sop2 Salu ["s_lshl_b32", "s_lshl_b32", "s_lshl_b32"] [SD1] [SS1, SS1];
    SLshlB64: Sop2 Salu ["s_lshl_b64", "s_lshl_b64", "s_lshl_b64"] [SD2] [SS2, SS1];
    SLshrB32: Sop2 Salu ["s_lshr_b32", "s_lshr_b32", "s_lshr_b32"] [SD1] [SS1, SS1];
    SLshrB64: Sop2 Salu ["s_lshr_b64", "s_lshr_b64", "s_lshr_b64"] [SD2] [SS2, SS1];
    SAshrI32: Sop2 Salu ["s_ashr_i32", "s_ashr_i32", "s_ashr_i32"] [SD1] [SS1, SS1];
    SAshrI64: Sop2 Salu ["s_ashr_i64", "s_ashr_i64", "s_ashr_i64"] [SD2] [SS2, SS1];
    SMulI32: Sop2 Salu ["s_mul_i32", "s_mul_i32", "s_mul_i32"] [SD1] [SS1, SS1];
    SMinI32: Sop2 Salu ["s_min_i32", "s_min_i32", "s_min_i32"] [SD1] [SS1, SS1];
    SMinU32: Sop2 Salu ["s_min_u32", "s_min_u32", "s_min_u32"] [SD1] [SS1, SS1];
    SMaxI32: Sop2 Salu ["s_max_i32", "s_max_i32", "s_max_i32"] [SD1] [SS1, SS1];
    SMaxU32: Sop2 Salu ["s_max_u32", "s_max_u32", "s_max_u32"] [SD1] [SS1, SS1];
    SCselectB32: Sop2 Salu ["s_cselect_b32", "s_cselect_b32", "s_cselect_b32"] [SD1] [SS1, SS1];
    SCselectB64: Sop2 Salu ["s_cselect_b64", "s_cselect_b64", "s_cselect_b64"] [SD2] [SS2, SS2];
    // Scalar compares.
    SCmpEqU32: Sopc Salu ["s_cmp_eq_u32", "s_cmp_eq_u32", "s_cmp_eq_u32"] [] [SS1, SS1];
    SCmpLgU32: Sopc Salu ["s_cmp_lg_u32", "s_cmp_lg_u32", "s_cmp_lg_u32"] [] [SS1, SS1];
    SCmpGtU32: Sopc Salu ["s_cmp_gt_u32", "s_cmp_gt_u32", "s_cmp_gt_u32"] [] [SS1, SS1];
    SCmpGeU32: Sopc Salu ["s_cmp_ge_u32", "s_cmp_ge_u32", "s_cmp_ge_u32"] [] [SS1, SS1];
    SCmpLtU32: Sopc Salu ["s_cmp_lt_u32", "s_cmp_lt_u32", "s_cmp_lt_u32"] [] [SS1, SS1];
    SCmpLeU32: Sopc Salu ["s_cmp_le_u32", "s_cmp_le_u32", "s_cmp_le_u32"] [] [SS1, SS1];
    SCmpEqI32: Sopc Salu ["s_cmp_eq_i32", "s_cmp_eq_i32", "s_cmp_eq_i32"] [] [SS1, SS1];
    SCmpLgI32: Sopc Salu ["s_cmp_lg_i32", "s_cmp_lg_i32", "s_cmp_lg_i32"] [] [SS1, SS1];
    SCmpGtI32: Sopc Salu ["s_cmp_gt_i32", "s_cmp_gt_i32", "s_cmp_gt_i32"] [] [SS1, SS1];
    SCmpGeI32: Sopc Salu ["s_cmp_ge_i32", "s_cmp_ge_i32", "s_cmp_ge_i32"] [] [SS1, SS1];
    SCmpLtI32: Sopc Salu ["s_cmp_lt_i32", "s_cmp_lt_i32", "s_cmp_lt_i32"] [] [SS1, SS1];
    SCmpLeI32: Sopc Salu ["s_cmp_le_i32", "s_cmp_le_i32", "s_cmp_le_i32"] [] [SS1, SS1];
    SCmpEqU64: Sopc Salu ["s_cmp_eq_u64", "s_cmp_eq_u64", "s_cmp_eq_u64"] [] [SS2, SS2];
    SCmpLgU64: Sopc Salu ["s_cmp_lg_u64", "s_cmp_lg_u64", "s_cmp_lg_u64"] [] [SS2, SS2];
    SBitcmp0B32: Sopc Salu ["s_bitcmp0_b32", "s_bitcmp0_b32", "s_bitcmp0_b32"] [] [SS1, SS1];
    SBitcmp1B32: Sopc Salu ["s_bitcmp1_b32", "s_bitcmp1_b32", "s_bitcmp1_b32"] [] [SS1, SS1];
    // Scalar with a 16-bit immediate.
    SMovkI32: Sopk Salu ["s_movk_i32", "s_movk_i32", "s_movk_i32"] [SD1] [Simm16];
    // Program control.
    SNop: Sopp Control ["s_nop", "s_nop", "s_nop"] [] [Imm16];
    SEndpgm: Sopp Control ["s_endpgm", "s_endpgm", "s_endpgm"] [] [];
    SWaitcnt: Sopp Control ["s_waitcnt", "s_waitcnt", "s_waitcnt"] [] [Kind::Waitcnt];
    SBranch: Sopp Branch ["s_branch", "s_branch", "s_branch"] [] [Label];
    SCbranchScc0: Sopp Branch ["s_cbranch_scc0", "s_cbranch_scc0", "s_cbranch_scc0"] [] [Label];
    SCbranchScc1: Sopp Branch ["s_cbranch_scc1", "s_cbranch_scc1", "s_cbranch_scc1"] [] [Label];
    SCbranchVccz: Sopp Branch ["s_cbranch_vccz", "s_cbranch_vccz", "s_cbranch_vccz"] [] [Label];
    SCbranchVccnz: Sopp Branch ["s_cbranch_vccnz", "s_cbranch_vccnz", "s_cbranch_vccnz"] [] [Label];
    SCbranchExecz: Sopp Branch ["s_cbranch_execz", "s_cbranch_execz", "s_cbranch_execz"] [] [Label];
    SCbranchExecnz: Sopp Branch ["s_cbranch_execnz", "s_cbranch_execnz", "s_cbranch_execnz"] [] [Label];
    // Scalar memory.
    SLoadDword: Smem Smem ["s_load_dword", "s_load_dword", "s_load_b32"] [SD1] [SBase(2), SOffset];
    SLoadDwordx2: Smem Smem ["s_load_dwordx2", "s_load_dwordx2", "s_load_b64"] [SD2] [SBase(2), SOffset];
    SLoadDwordx4: Smem Smem ["s_load_dwordx4", "s_load_dwordx4", "s_load_b128"] [SDst(4)] [SBase(2), SOffset];
    SLoadDwordx8: Smem Smem ["s_load_dwordx8", "s_load_dwordx8", "s_load_b256"] [SDst(8)] [SBase(2), SOffset];
    SBufferLoadDword: Smem Smem ["s_buffer_load_dword", "s_buffer_load_dword", "s_buffer_load_b32"] [SD1] [SBase(4), SOffset];
    SBufferLoadDwordx2: Smem Smem ["s_buffer_load_dwordx2", "s_buffer_load_dwordx2", "s_buffer_load_b64"] [SD2] [SBase(4), SOffset];
    SBufferLoadDwordx4: Smem Smem ["s_buffer_load_dwordx4", "s_buffer_load_dwordx4", "s_buffer_load_b128"] [SDst(4)] [SBase(4), SOffset];
    // Vector ALU, one source.
    VMovB32: Vop1 Valu ["v_mov_b32", "v_mov_b32", "v_mov_b32"] [VD1] [VS1];
    VNotB32: Vop1 Valu ["v_not_b32", "v_not_b32", "v_not_b32"] [VD1] [VS1];
    VReadfirstlaneB32: Vop1 Valu ["v_readfirstlane_b32", "v_readfirstlane_b32", "v_readfirstlane_b32"] [SD1] [VV1];
    VRcpF32: Vop1 Valu ["v_rcp_f32", "v_rcp_f32", "v_rcp_f32"] [VD1] [VS1];
    VSqrtF32: Vop1 Valu ["v_sqrt_f32", "v_sqrt_f32", "v_sqrt_f32"] [VD1] [VS1];
    VFloorF32: Vop1 Valu ["v_floor_f32", "v_floor_f32", "v_floor_f32"] [VD1] [VS1];
    VCvtF32I32: Vop1 Valu ["v_cvt_f32_i32", "v_cvt_f32_i32", "v_cvt_f32_i32"] [VD1] [VS1];
    VCvtF32U32: Vop1 Valu ["v_cvt_f32_u32", "v_cvt_f32_u32", "v_cvt_f32_u32"] [VD1] [VS1];
    VCvtI32F32: Vop1 Valu ["v_cvt_i32_f32", "v_cvt_i32_f32", "v_cvt_i32_f32"] [VD1] [VS1];
    VCvtU32F32: Vop1 Valu ["v_cvt_u32_f32", "v_cvt_u32_f32", "v_cvt_u32_f32"] [VD1] [VS1];
    // Vector ALU, two sources.
    VAddF32: Vop2 Valu ["v_add_f32", "v_add_f32", "v_add_f32"] [VD1] [VS1, VS1];
    VSubF32: Vop2 Valu ["v_sub_f32", "v_sub_f32", "v_sub_f32"] [VD1] [VS1, VS1];
    VMulF32: Vop2 Valu ["v_mul_f32", "v_mul_f32", "v_mul_f32"] [VD1] [VS1, VS1];
    VMinF32: Vop2 Valu ["v_min_f32", "v_min_f32", "v_min_f32"] [VD1] [VS1, VS1];
    VMaxF32: Vop2 Valu ["v_max_f32", "v_max_f32", "v_max_f32"] [VD1] [VS1, VS1];
    VMinI32: Vop2 Valu ["v_min_i32", "v_min_i32", "v_min_i32"] [VD1] [VS1, VS1];
    VMaxI32: Vop2 Valu ["v_max_i32", "v_max_i32", "v_max_i32"] [VD1] [VS1, VS1];
    VMinU32: Vop2 Valu ["v_min_u32", "v_min_u32", "v_min_u32"] [VD1] [VS1, VS1];
    VMaxU32: Vop2 Valu ["v_max_u32", "v_max_u32", "v_max_u32"] [VD1] [VS1, VS1];
    VAndB32: Vop2 Valu ["v_and_b32", "v_and_b32", "v_and_b32"] [VD1] [VS1, VS1];
    VOrB32: Vop2 Valu ["v_or_b32", "v_or_b32", "v_or_b32"] [VD1] [VS1, VS1];
    VXorB32: Vop2 Valu ["v_xor_b32", "v_xor_b32", "v_xor_b32"] [VD1] [VS1, VS1];
    VLshlrevB32: Vop2 Valu ["v_lshlrev_b32", "v_lshlrev_b32", "v_lshlrev_b32"] [VD1] [VS1, VS1];
    VLshrrevB32: Vop2 Valu ["v_lshrrev_b32", "v_lshrrev_b32", "v_lshrrev_b32"] [VD1] [VS1, VS1];
    VAshrrevI32: Vop2 Valu ["v_ashrrev_i32", "v_ashrrev_i32", "v_ashrrev_i32"] [VD1] [VS1, VS1];
    VCndmaskB32: Vop2 Valu ["v_cndmask_b32", "v_cndmask_b32", "v_cndmask_b32"] [VD1] [VS1, VS1, MS];
    VAddNcU32: Vop2 Valu ["", "v_add_nc_u32", "v_add_nc_u32"] [VD1] [VS1, VS1];
    VSubNcU32: Vop2 Valu ["", "v_sub_nc_u32", "v_sub_nc_u32"] [VD1] [VS1, VS1];
    VAddCoU32: Vop2 Valu ["v_add_u32", "v_add_co_u32", "v_add_co_u32"] [VD1, MD] [VS1, VS1];
    VSubCoU32: Vop2 Valu ["v_sub_u32", "v_sub_co_u32", "v_sub_co_u32"] [VD1, MD] [VS1, VS1];
    VAddcCoU32: Vop2 Valu ["v_addc_u32", "v_add_co_ci_u32", "v_add_co_ci_u32"] [VD1, MD] [VS1, VS1, MS];
    VSubbCoU32: Vop2 Valu ["v_subb_u32", "v_sub_co_ci_u32", "v_sub_co_ci_u32"] [VD1, MD] [VS1, VS1, MS];
    // Vector ALU, 64-bit encoding only.
    VMulLoU32: Vop3 Valu ["v_mul_lo_u32", "v_mul_lo_u32", "v_mul_lo_u32"] [VD1] [VS1, VS1];
    VMulHiU32: Vop3 Valu ["v_mul_hi_u32", "v_mul_hi_u32", "v_mul_hi_u32"] [VD1] [VS1, VS1];
    VMulHiI32: Vop3 Valu ["v_mul_hi_i32", "v_mul_hi_i32", "v_mul_hi_i32"] [VD1] [VS1, VS1];
    VFmaF32: Vop3 Valu ["v_fma_f32", "v_fma_f32", "v_fma_f32"] [VD1] [VS1, VS1, VS1];
    VLshlrevB64: Vop3 Valu ["v_lshlrev_b64", "v_lshlrev_b64", "v_lshlrev_b64"] [VD2] [VS1, VS2];
    VLshrrevB64: Vop3 Valu ["v_lshrrev_b64", "v_lshrrev_b64", "v_lshrrev_b64"] [VD2] [VS1, VS2];
    VAshrrevI64: Vop3 Valu ["v_ashrrev_i64", "v_ashrrev_i64", "v_ashrrev_i64"] [VD2] [VS1, VS2];
    VReadlaneB32: Vop3 Valu ["v_readlane_b32", "v_readlane_b32", "v_readlane_b32"] [SD1] [VV1, Lane];
    VWritelaneB32: Vop3 Valu ["v_writelane_b32", "v_writelane_b32", "v_writelane_b32"] [VD1] [SS1, Lane];
    // Vector compares.
    VCmpEqU32: Vopc Valu ["v_cmp_eq_u32", "v_cmp_eq_u32", "v_cmp_eq_u32"] [MD] [VS1, VS1];
    VCmpNeU32: Vopc Valu ["v_cmp_ne_u32", "v_cmp_ne_u32", "v_cmp_ne_u32"] [MD] [VS1, VS1];
    VCmpLtU32: Vopc Valu ["v_cmp_lt_u32", "v_cmp_lt_u32", "v_cmp_lt_u32"] [MD] [VS1, VS1];
    VCmpLeU32: Vopc Valu ["v_cmp_le_u32", "v_cmp_le_u32", "v_cmp_le_u32"] [MD] [VS1, VS1];
    VCmpGtU32: Vopc Valu ["v_cmp_gt_u32", "v_cmp_gt_u32", "v_cmp_gt_u32"] [MD] [VS1, VS1];
    VCmpGeU32: Vopc Valu ["v_cmp_ge_u32", "v_cmp_ge_u32", "v_cmp_ge_u32"] [MD] [VS1, VS1];
    VCmpEqI32: Vopc Valu ["v_cmp_eq_i32", "v_cmp_eq_i32", "v_cmp_eq_i32"] [MD] [VS1, VS1];
    VCmpNeI32: Vopc Valu ["v_cmp_ne_i32", "v_cmp_ne_i32", "v_cmp_ne_i32"] [MD] [VS1, VS1];
    VCmpLtI32: Vopc Valu ["v_cmp_lt_i32", "v_cmp_lt_i32", "v_cmp_lt_i32"] [MD] [VS1, VS1];
    VCmpLeI32: Vopc Valu ["v_cmp_le_i32", "v_cmp_le_i32", "v_cmp_le_i32"] [MD] [VS1, VS1];
    VCmpGtI32: Vopc Valu ["v_cmp_gt_i32", "v_cmp_gt_i32", "v_cmp_gt_i32"] [MD] [VS1, VS1];
    VCmpGeI32: Vopc Valu ["v_cmp_ge_i32", "v_cmp_ge_i32", "v_cmp_ge_i32"] [MD] [VS1, VS1];
    VCmpEqF32: Vopc Valu ["v_cmp_eq_f32", "v_cmp_eq_f32", "v_cmp_eq_f32"] [MD] [VS1, VS1];
    VCmpLgF32: Vopc Valu ["v_cmp_lg_f32", "v_cmp_lg_f32", "v_cmp_lg_f32"] [MD] [VS1, VS1];
    VCmpNeqF32: Vopc Valu ["v_cmp_neq_f32", "v_cmp_neq_f32", "v_cmp_neq_f32"] [MD] [VS1, VS1];
    VCmpLtF32: Vopc Valu ["v_cmp_lt_f32", "v_cmp_lt_f32", "v_cmp_lt_f32"] [MD] [VS1, VS1];
    VCmpLeF32: Vopc Valu ["v_cmp_le_f32", "v_cmp_le_f32", "v_cmp_le_f32"] [MD] [VS1, VS1];
    VCmpGtF32: Vopc Valu ["v_cmp_gt_f32", "v_cmp_gt_f32", "v_cmp_gt_f32"] [MD] [VS1, VS1];
    VCmpGeF32: Vopc Valu ["v_cmp_ge_f32", "v_cmp_ge_f32", "v_cmp_ge_f32"] [MD] [VS1, VS1];
    VCmpUF32: Vopc Valu ["v_cmp_u_f32", "v_cmp_u_f32", "v_cmp_u_f32"] [MD] [VS1, VS1];
    // Buffer memory.
    BufferLoadDword: Mubuf Vmem ["buffer_load_dword", "buffer_load_dword", "buffer_load_b32"] [VD1] [BufAddr, Rsrc, BufSOffset];
    BufferLoadDwordx2: Mubuf Vmem ["buffer_load_dwordx2", "buffer_load_dwordx2", "buffer_load_b64"] [VD2] [BufAddr, Rsrc, BufSOffset];
    BufferLoadDwordx4: Mubuf Vmem ["buffer_load_dwordx4", "buffer_load_dwordx4", "buffer_load_b128"] [VDst(4)] [BufAddr, Rsrc, BufSOffset];
    BufferStoreDword: Mubuf Vmem ["buffer_store_dword", "buffer_store_dword", "buffer_store_b32"] [] [VV1, BufAddr, Rsrc, BufSOffset];
    BufferStoreDwordx2: Mubuf Vmem ["buffer_store_dwordx2", "buffer_store_dwordx2", "buffer_store_b64"] [] [VReg(2), BufAddr, Rsrc, BufSOffset];
    BufferStoreDwordx4: Mubuf Vmem ["buffer_store_dwordx4", "buffer_store_dwordx4", "buffer_store_b128"] [] [VReg(4), BufAddr, Rsrc, BufSOffset];
    // Global memory.
    GlobalLoadDword: Global Vmem ["", "global_load_dword", "global_load_b32"] [VD1] [GlobalAddr, GlobalSAddr];
    GlobalLoadDwordx2: Global Vmem ["", "global_load_dwordx2", "global_load_b64"] [VD2] [GlobalAddr, GlobalSAddr];
    GlobalLoadDwordx4: Global Vmem ["", "global_load_dwordx4", "global_load_b128"] [VDst(4)] [GlobalAddr, GlobalSAddr];
    GlobalStoreDword: Global Vmem ["", "global_store_dword", "global_store_b32"] [] [GlobalAddr, VV1, GlobalSAddr];
    GlobalStoreDwordx2: Global Vmem ["", "global_store_dwordx2", "global_store_b64"] [] [GlobalAddr, VReg(2), GlobalSAddr];
    GlobalStoreDwordx4: Global Vmem ["", "global_store_dwordx4", "global_store_b128"] [] [GlobalAddr, VReg(4), GlobalSAddr];
    // Scratch memory.
    ScratchLoadDword: Scratch Scratch ["", "scratch_load_dword", "scratch_load_b32"] [VD1] [ScratchAddr, ScratchSAddr];
    ScratchLoadDwordx2: Scratch Scratch ["", "scratch_load_dwordx2", "scratch_load_b64"] [VD2] [ScratchAddr, ScratchSAddr];
    ScratchLoadDwordx4: Scratch Scratch ["", "scratch_load_dwordx4", "scratch_load_b128"] [VDst(4)] [ScratchAddr, ScratchSAddr];
    ScratchStoreDword: Scratch Scratch ["", "scratch_store_dword", "scratch_store_b32"] [] [ScratchAddr, VV1, ScratchSAddr];
    ScratchStoreDwordx2: Scratch Scratch ["", "scratch_store_dwordx2", "scratch_store_b64"] [] [ScratchAddr, VReg(2), ScratchSAddr];
    ScratchStoreDwordx4: Scratch Scratch ["", "scratch_store_dwordx4", "scratch_store_b128"] [] [ScratchAddr, VReg(4), ScratchSAddr];
}

impl Opcode {
    /// The table row of the instruction.
    pub fn info(self) -> &'static OpInfo {
        &TABLE[self as usize]
    }

    /// The instruction whose mnemonic on `target` is `name`.
    pub fn from_name(target: Target, name: &str) -> Option<Opcode> {
        static MAPS: OnceLock<[HashMap<&'static str, Opcode>; 3]> = OnceLock::new();
        let maps = MAPS.get_or_init(|| {
            let mut maps: [HashMap<&'static str, Opcode>; 3] = Default::default();
            for info in TABLE {
                for (col, map) in maps.iter_mut().enumerate() {
                    if !info.names[col].is_empty() {
                        map.insert(info.names[col], info.op);
                    }
                }
            }
            maps
        });
        maps[target.column()].get(name).copied()
    }

    /// Whether the instruction is a memory access that writes memory.
    pub fn is_store(self) -> bool {
        let info = self.info();
        matches!(
            info.format,
            Format::Mubuf | Format::Global | Format::Scratch
        ) && info.dsts.is_empty()
    }

    /// Number of dwords a memory instruction moves per lane (0 for non-memory).
    pub fn mem_dwords(self) -> u8 {
        let info = self.info();
        match info.format {
            Format::Mubuf | Format::Global | Format::Scratch => info
                .slots()
                .find_map(|k| match k {
                    VDst(n) | VReg(n) => Some(n),
                    _ => None,
                })
                .unwrap_or(0),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode() {
        for (i, info) in TABLE.iter().enumerate() {
            assert_eq!(info.op as usize, i);
        }
    }

    #[test]
    fn mnemonics_are_unique_per_target() {
        for t in Target::ALL {
            let mut seen = std::collections::HashSet::new();
            for info in TABLE {
                if let Some(n) = info.name(t) {
                    assert!(seen.insert(n), "{n} twice on {t}");
                }
            }
        }
    }

    #[test]
    fn per_target_names() {
        assert_eq!(
            Opcode::from_name(Target::Gfx1100, "scratch_load_b32"),
            Some(Opcode::ScratchLoadDword)
        );
        assert_eq!(Opcode::from_name(Target::Gfx8, "scratch_load_dword"), None);
        assert_eq!(
            Opcode::from_name(Target::Gfx8, "v_add_u32"),
            Some(Opcode::VAddCoU32)
        );
        assert_eq!(Opcode::BufferStoreDwordx2.mem_dwords(), 2);
        assert!(Opcode::GlobalStoreDword.is_store());
    }
}
