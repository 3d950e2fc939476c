//! The ACO/RADV function-call ABI: register blocks, preserved/clobbered ranges, register
//! limits and parameter assignment, as Mesa's ACO compiler and RADV driver define them
//! (`aco_ir.h`, `aco_isel_helpers.cpp`, `radv_nir_lower_call_abi.c`).
//!
//! Where Mesa's revisions differ or its behaviour is undefined, gpuabi decides:
//! - An ABI without a register block means Mesa's all-clobbered block
//!   ([`RegisterBlock::ALL_CLOBBERED`]); the seed's "optional block" and the reviewed code's
//!   "always a block" are the same ABI.
//! - A block whose P + C is 0 in a file is an error rather than Mesa's endless loop; P = 0
//!   with the preserved part first preserves nothing (Mesa's release builds) with a warning.
//! - The default register limit uses the newest Mesa device table and `min_waves = 1`;
//!   every caller can pass an explicit limit instead.
//! - Registers at or above the limit stay available to clobbered parameters in both
//!   policies, as in Mesa (hazard H3); such a placement is reported as a warning.
//! - Mesa 26.1 is the reference where it and the reference specification (an earlier
//!   revision of Mesa's call series) differ: the return address is a return parameter
//!   (`get_callee_info`), and the traversal stage marks its shader record pointer and hit
//!   state DISCARDABLE (`radv_nir_init_traversal_params`), as RADV's compiled functions
//!   show.

mod abi;
mod assign;
mod demand;
mod error;
mod hints;
mod ranges;
mod render;
mod signature;
mod stages;
mod target;

pub use crate::gfx::Gfx;
pub use abi::{Abi, NirAbi, RegisterBlock, ABI_MASK, DIVERGENT_CALL, NORETURN, PARAM_DISCARDABLE};
pub use assign::{
    assign, param_class, AssignRequest, Assignment, Location, ParamKind, ParamLayout, Policy,
};
pub use demand::Demand;
pub use error::AcoError;
pub use hints::{ahit_isec_hints, Hints};
pub use ranges::{num_clobbered_mesa, register_ranges, FileRanges, RegisterRanges};
pub use render::{
    assignment_svg, assignment_text, ranges_svg, ranges_text, AssignmentReport, RangesReport,
};
pub use signature::{parse_signature, signature_from_toml, Param, ScalarType, Signature};
pub use stages::{
    stage_assignment, stage_hints, stage_signature, RtStage, StageSignature, MAX_STAGE_DATA_BYTES,
};
pub use target::{check_limit, LimitInputs, Target};
