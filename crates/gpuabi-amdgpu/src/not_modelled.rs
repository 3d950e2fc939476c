//! The scalar and vector ALU instructions (SOP1, SOP2, SOPC, SOPK, VOP1, VOP2, VOPC, VOP3)
//! that LLVM 19 assembles for `gfx8`, `gfx1030`, `gfx1100` or `gfx12` and the machine model leaves
//! out, each with the reason: one list, which the assembler answers with when a program
//! names one of them, and which a test compares with llvm-mc-19's own list of the
//! encodings (`tests/instruction_list.rs`). Every other instruction of those encodings that
//! llvm-mc-19 takes is a row of [`crate::opcodes::TABLE`].
//!
//! What stays out computes no value from registers and constants: it moves control in ways
//! the simulator does not follow (GCN's fork/join stack, RDNA's wave64 subvector loops, a
//! direct call, the return from a trap handler), changes how later instructions run (GCN
//! 1.2's VGPR index mode, VSKIP), reads or writes hardware state the model does not keep
//! (the hardware registers of `s_getreg_b32`/`s_setreg_*`, the pixel-shader attribute
//! memory interpolation reads), or only raises an exception; and RDNA 4's `v_mov_b16`,
//! whose true16 operands (`v1.l`) the model spells on RDNA 3 only.

use crate::opcodes::Targets;
use crate::target::Target;

/// An instruction LLVM 19 assembles that the machine model does not have, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotModelled {
    /// The mnemonic as LLVM 19 spells it on [`NotModelled::targets`].
    pub name: &'static str,
    /// The targets on which LLVM 19 has it and the model does not.
    pub targets: Targets,
    /// Why the model leaves it out.
    pub reason: &'static str,
}

const GFX8: Targets = Targets::GFX8;
const RDNA: Targets = Targets::RDNA;
const GFX8_1030: Targets = Targets::GFX8.or(Targets::GFX1030);
const ALL: Targets = Targets::GFX8_PLUS;
const GFX12: Targets = Targets::GFX12;

const FORK_JOIN: &str = "GCN's fork/join control flow, a branch that keeps a stack of lane \
                         masks in SGPRs (\"AMD GCN3 ISA\", \"Data-Dependent Branching\"), which \
                         the simulator does not follow";
const TRAP_RETURN: &str = "the return from a trap handler, which the model does not run";
const GPR_INDEX: &str = "GCN 1.2's VGPR index mode, which changes how later vector \
                         instructions address their VGPRs (\"AMD GCN3 ISA\", \"GPR Indexing\")";
const HW_REGS: &str = "a hardware register (MODE, STATUS, TRAPSTS, HW_ID, ...), state the \
                       model does not keep; `s_setreg_b32` is modelled on RDNA for the flat \
                       scratch base, and with `s_getreg_b32` on gfx12 for MODE's float \
                       fields (bits 7:0)";
const SUBVECTOR: &str = "RDNA's wave64 subvector loop, a branch that runs the two halves of a \
                         wave64 in turn (\"RDNA2 ISA\", \"Subvector Execution\"), which the \
                         simulator does not follow";
const BARRIERS: &str = "RDNA 4's split and named work-group barriers (\"RDNA 4 Instruction Set \
                        Architecture\", \"Workgroup Barriers\"), which the simulator, running one \
                        wave at a time, does not model";
const SLEEP: &str = "a sleep of a length from a register, which changes no state the model keeps";
const SCALAR_F16: &str = "RDNA 4's scalar f16 arithmetic, not yet in the model (its scalar f32 \
                          arithmetic is)";
const MAXIMUM: &str = "RDNA 4's IEEE 754-2019 maximum and minimum (a NaN operand gives NaN), \
                       not yet in the model (the `*_num_*` forms are)";
const FP8: &str = "RDNA 4's conversions to and from 8-bit floats, not yet in the model";
const PERMLANE_VAR: &str = "RDNA 4's lane permutations with per-lane selects, not yet in the \
                            model";
const INTERP: &str = "interpolation of pixel-shader attributes from the parameter memory in \
                      LDS, which compute programs do not have";

/// Every instruction of the ALU encodings LLVM 19 takes on `gfx8`, `gfx1030`, `gfx1100` or
/// `gfx12` that the model leaves out.
pub static NOT_MODELLED: &[NotModelled] = &[
    NotModelled {
        name: "s_cbranch_g_fork",
        targets: GFX8,
        reason: FORK_JOIN,
    },
    NotModelled {
        name: "s_cbranch_i_fork",
        targets: GFX8,
        reason: FORK_JOIN,
    },
    NotModelled {
        name: "s_cbranch_join",
        targets: GFX8,
        reason: FORK_JOIN,
    },
    NotModelled {
        name: "s_rfe_b64",
        targets: ALL.or(GFX12),
        reason: TRAP_RETURN,
    },
    NotModelled {
        name: "s_rfe_restore_b64",
        targets: GFX8,
        reason: TRAP_RETURN,
    },
    NotModelled {
        name: "s_set_gpr_idx_on",
        targets: GFX8,
        reason: GPR_INDEX,
    },
    NotModelled {
        name: "s_set_gpr_idx_idx",
        targets: GFX8,
        reason: GPR_INDEX,
    },
    NotModelled {
        name: "s_setvskip",
        targets: GFX8,
        reason: "VSKIP mode, in which the wave skips later vector instructions (\"AMD GCN3 \
                 ISA\", S_SETVSKIP): a mode, no value",
    },
    NotModelled {
        name: "s_getreg_b32",
        targets: ALL,
        reason: HW_REGS,
    },
    NotModelled {
        name: "s_setreg_imm32_b32",
        targets: ALL.or(GFX12),
        reason: HW_REGS,
    },
    NotModelled {
        name: "s_setreg_b32",
        targets: GFX8,
        reason: HW_REGS,
    },
    NotModelled {
        name: "s_subvector_loop_begin",
        targets: RDNA,
        reason: SUBVECTOR,
    },
    NotModelled {
        name: "s_subvector_loop_end",
        targets: RDNA,
        reason: SUBVECTOR,
    },
    NotModelled {
        name: "s_call_b64",
        targets: RDNA.or(GFX12),
        reason: "a direct call to a label; the model's calls go through a register \
                 (`s_swappc_b64`), the form the call-ABI checker follows",
    },
    NotModelled {
        name: "s_version",
        targets: RDNA.or(GFX12),
        reason: "a marker of the ISA version for tools, with no effect on the wave",
    },
    NotModelled {
        name: "v_illegal",
        targets: RDNA.or(GFX12),
        reason: "it only raises an illegal-instruction exception",
    },
    NotModelled {
        name: "v_mov_b16",
        targets: GFX12,
        reason: "RDNA 4's true16 form (`v_mov_b16 v1.l, v8.l`), whose 16-bit register halves \
                 the model spells on gfx1100 only",
    },
    NotModelled {
        name: "v_interp_p1_f32",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "v_interp_p2_f32",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "v_interp_mov_f32",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "v_interp_p1ll_f16",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "v_interp_p1lv_f16",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "v_interp_p2_f16",
        targets: GFX8_1030,
        reason: INTERP,
    },
    NotModelled {
        name: "s_barrier_init",
        targets: GFX12,
        reason: BARRIERS,
    },
    NotModelled {
        name: "s_barrier_join",
        targets: GFX12,
        reason: BARRIERS,
    },
    NotModelled {
        name: "s_barrier_signal_isfirst",
        targets: GFX12,
        reason: BARRIERS,
    },
    NotModelled {
        name: "s_ceil_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cvt_f16_f32",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cvt_f32_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cvt_hi_f32_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_floor_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_get_barrier_state",
        targets: GFX12,
        reason: BARRIERS,
    },
    NotModelled {
        name: "s_rndne_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_sleep_var",
        targets: GFX12,
        reason: SLEEP,
    },
    NotModelled {
        name: "s_trunc_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_wakeup_barrier",
        targets: GFX12,
        reason: BARRIERS,
    },
    NotModelled {
        name: "s_add_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cvt_pk_rtz_f16_f32",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_fmac_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_max_num_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_maximum_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_maximum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "s_min_num_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_minimum_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_minimum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "s_mul_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_sub_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_eq_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_ge_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_gt_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_le_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_lg_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_lt_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_neq_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_nge_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_ngt_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_nle_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_nlg_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_nlt_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_o_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "s_cmp_u_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "v_cvt_f32_bf8",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_f32_fp8",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_pk_f32_bf8",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_pk_f32_fp8",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_pk_bf8_f32",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_pk_fp8_f32",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_sr_bf8_f32",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_cvt_sr_fp8_f32",
        targets: GFX12,
        reason: FP8,
    },
    NotModelled {
        name: "v_maximum3_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximum3_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximum_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximum_f64",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximumminimum_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_maximumminimum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimum3_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimum3_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimum_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimum_f64",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimummaximum_f16",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_minimummaximum_f32",
        targets: GFX12,
        reason: MAXIMUM,
    },
    NotModelled {
        name: "v_permlane16_var_b32",
        targets: GFX12,
        reason: PERMLANE_VAR,
    },
    NotModelled {
        name: "v_permlanex16_var_b32",
        targets: GFX12,
        reason: PERMLANE_VAR,
    },
    NotModelled {
        name: "v_s_exp_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "v_s_log_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "v_s_rcp_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "v_s_rsq_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
    NotModelled {
        name: "v_s_sqrt_f16",
        targets: GFX12,
        reason: SCALAR_F16,
    },
];

/// The entry for `name` on `target`, if the model leaves that instruction out there.
pub fn not_modelled(target: Target, name: &str) -> Option<&'static NotModelled> {
    NOT_MODELLED
        .iter()
        .find(|n| n.name == name && n.targets.contains(target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opcodes::Opcode;
    use crate::target::MODELLED_TARGETS;

    #[test]
    fn listed_instructions_are_not_rows() {
        for n in NOT_MODELLED {
            for t in MODELLED_TARGETS {
                if n.targets.contains(t) {
                    assert_eq!(Opcode::from_name(t, n.name), None, "{} on {t}", n.name);
                }
            }
        }
        let mut names: Vec<&str> = NOT_MODELLED.iter().map(|n| n.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), NOT_MODELLED.len(), "one entry per mnemonic");
    }
}
