//! What the `aco` commands print: serialisable reports and their text and SVG forms.

mod svg;
mod text;

use serde::Serialize;

use super::abi::Abi;
use super::assign::{Assignment, Policy};
use super::demand::Demand;
use super::ranges::{num_clobbered_mesa, FileRanges, RegisterRanges};
use super::target::Target;
use crate::reg::RegFile;

pub use svg::{assignment_svg, ranges_svg};
pub use text::{assignment_text, ranges_text};

/// Counts of one file, with Mesa's closed formula beside gpuabi's count.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// Inclusive runs.
    #[serde(flatten)]
    pub ranges: FileRanges,
    /// Preserved registers below the limit.
    pub num_preserved: u16,
    /// Clobbered registers below the limit.
    pub num_clobbered: u16,
    /// Mesa's formula for the clobbered count (differs in one corner case, spec §3.2).
    pub num_clobbered_mesa: u32,
}

/// The `aco ranges` result: `{"abi", "target", "wave", "limit", "sgpr": {...}, "vgpr": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct RangesReport {
    /// ABI name.
    pub abi: String,
    /// Target name.
    pub target: String,
    /// Wave size.
    pub wave: u32,
    /// The register limit used.
    pub limit: Demand,
    /// SGPR runs and counts.
    pub sgpr: FileReport,
    /// VGPR runs and counts.
    pub vgpr: FileReport,
    /// Accepted oddities.
    pub warnings: Vec<String>,
    /// The block, for the renderers.
    #[serde(skip)]
    pub abi_value: Abi,
}

impl RangesReport {
    /// Builds the report of `ranges` computed for `abi` on `target`.
    pub fn new(abi: &Abi, target: Target, ranges: &RegisterRanges) -> RangesReport {
        let file = |f: RegFile| FileReport {
            ranges: FileRanges::of(ranges, f),
            num_preserved: ranges.num_preserved(f),
            num_clobbered: ranges.num_clobbered(f),
            num_clobbered_mesa: num_clobbered_mesa(&abi.block, f, ranges.limit.get(f)),
        };
        RangesReport {
            abi: abi.name.clone(),
            target: target.gfx.name().to_string(),
            wave: target.wave,
            limit: ranges.limit,
            sgpr: file(RegFile::Sgpr),
            vgpr: file(RegFile::Vgpr),
            warnings: ranges.warnings.clone(),
            abi_value: abi.clone(),
        }
    }

    fn file(&self, file: RegFile) -> &FileReport {
        match file {
            RegFile::Sgpr => &self.sgpr,
            RegFile::Vgpr => &self.vgpr,
        }
    }
}

/// The `aco assign` result: the assignment with what it was computed for.
#[derive(Debug, Clone, Serialize)]
pub struct AssignmentReport {
    /// ABI name.
    pub abi: String,
    /// Target name.
    pub target: String,
    /// Wave size.
    pub wave: u32,
    /// The policy used.
    pub policy: Policy,
    /// The register limit used.
    pub limit: Demand,
    /// The assignment (its `params` and `scratch_param_bytes` appear at the top level).
    #[serde(flatten)]
    pub assignment: Assignment,
    /// The ranges the assignment drew from, for the renderers.
    #[serde(skip)]
    pub ranges: RangesReport,
}
