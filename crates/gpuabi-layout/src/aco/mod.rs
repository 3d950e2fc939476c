//! The ACO/RADV function-call ABI: register blocks, preserved/clobbered ranges, register
//! limits and parameter assignment, as Mesa's ACO compiler and RADV driver define them
//! (`aco_ir.h`, `aco_isel_helpers.cpp`, `radv_nir_lower_call_abi.c`).

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
pub use stages::{stage_signature, RtStage, StageSignature};
pub use target::{check_limit, Gfx, LimitInputs, Target};
