//! `aco ranges` and `aco assign`: an ACO call ABI's preserved and clobbered registers, and
//! where a signature's parameters go (a signature as text, or RADV's signature of a
//! ray-tracing stage), as JSON and as the command line's SVG picture.

use gpuabi_layout::aco::{
    assign, assignment_svg, assignment_text, parse_signature, ranges_svg, ranges_text,
    register_ranges, stage_hints, stage_signature, Abi, AcoError, AssignRequest, AssignmentReport,
    Demand, Gfx, LimitInputs, Policy, RangesReport, RtStage, Target,
};
use serde::{Deserialize, Serialize};

use crate::error::{flag, WebError};

/// The target, wave and limit of an `aco` request (the flags `aco ranges` and `aco assign`
/// share).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcoRequest {
    /// `--abi`: rt-recursive, traversal, ahit-isec, or the text of a TOML ABI file. With
    /// `stage`, defaults to the stage's ABI.
    #[serde(default)]
    pub abi: Option<String>,
    /// `--target` gfx8, gfx9, gfx1030 or gfx1100 (default gfx1030).
    #[serde(default)]
    pub target: Option<String>,
    /// `--wave` 32 or 64; default the target's native wave size.
    #[serde(default)]
    pub wave: Option<u32>,
    /// `--limit SGPRS,VGPRS`.
    #[serde(default)]
    pub limit: Option<(u16, u16)>,
    /// `--min-waves` (default 1).
    #[serde(default)]
    pub min_waves: Option<u32>,
    /// `--compute`: the limit of a compute program.
    #[serde(default)]
    pub compute: bool,
    /// `--sig`: `name: type [uniform] [discardable] [return], ...` (assign only).
    #[serde(default)]
    pub sig: Option<String>,
    /// `--stage` instead of `sig` (assign only).
    #[serde(default)]
    pub stage: Option<String>,
    /// `--payload` bytes (with `stage`).
    #[serde(default)]
    pub payload: u32,
    /// `--hit-attribs` bytes (with `stage`).
    #[serde(default)]
    pub hit_attribs: u32,
    /// `--policy mesa|packed` (assign only).
    #[serde(default)]
    pub policy: Option<String>,
}

/// A report with its text and SVG forms.
#[derive(Debug, Clone, Serialize)]
pub struct AcoResult<R: Serialize> {
    /// The JSON form (`--format json`).
    pub report: R,
    /// The text form (`--format text`).
    pub text: String,
    /// The picture (`--format svg`).
    pub svg: String,
}

fn aco_error(f: &str, e: AcoError) -> WebError {
    match e {
        AcoError::Signature {
            line,
            column,
            message,
        } => flag(f, format!("{f}:{line}:{column}: {message}")),
        other => flag(f, format!("{f}: {other}")),
    }
}

impl AcoRequest {
    fn target(&self) -> Result<Target, WebError> {
        let name = self.target.as_deref().unwrap_or("gfx1030");
        let gfx: Gfx = name
            .parse()
            .ok()
            .filter(|g| Gfx::ALL.contains(g))
            .ok_or_else(|| {
                flag(
                    "--target",
                    format!("--target {name}: expected gfx8, gfx9, gfx1030 or gfx1100"),
                )
            })?;
        let wave = self.wave.unwrap_or_else(|| gfx.default_wave().lanes());
        Target::new(gfx, wave).map_err(|e| aco_error("--wave", e))
    }

    fn limit(&self, target: Target) -> Result<Demand, WebError> {
        match self.limit {
            Some((s, v)) => gpuabi_layout::aco::check_limit(Demand::new(s, v))
                .map_err(|e| aco_error("--limit", e)),
            None => {
                let min_waves = self.min_waves.unwrap_or(1);
                if min_waves == 0 {
                    return Err(flag("--min-waves", "--min-waves: expected at least 1"));
                }
                Ok(target.default_limit(LimitInputs {
                    min_waves,
                    ray_tracing: !self.compute,
                }))
            }
        }
    }

    fn abi(&self, default: Option<Abi>) -> Result<Abi, WebError> {
        match (&self.abi, default) {
            (Some(spec), _) => match Abi::builtin(spec) {
                Some(abi) => Ok(abi),
                None if spec.contains('=') || spec.contains('[') => {
                    Abi::from_toml(spec).map_err(|e| aco_error("--abi", e))
                }
                None => Err(flag(
                    "--abi",
                    format!(
                        "--abi: unknown ABI {}, and not the text of a TOML ABI",
                        gpuabi_layout::suggest::suggest(
                            spec,
                            "built-in ABIs",
                            &["rt-recursive", "traversal", "ahit-isec"]
                        )
                    ),
                )),
            },
            (None, Some(abi)) => Ok(abi),
            (None, None) => Err(flag("--abi", "--abi: required with --sig")),
        }
    }

    fn policy(&self) -> Result<Policy, WebError> {
        match self.policy.as_deref() {
            None | Some("mesa") => Ok(Policy::Mesa),
            Some("packed") => Ok(Policy::Packed),
            Some(p) => Err(flag(
                "--policy",
                format!("--policy {p}: expected mesa or packed"),
            )),
        }
    }
}

/// `aco ranges`.
pub fn ranges(req: &AcoRequest) -> Result<AcoResult<RangesReport>, WebError> {
    let abi = req.abi(None)?;
    let target = req.target()?;
    let limit = req.limit(target)?;
    let r = register_ranges(&abi.block, limit)
        .map_err(|e| flag("--abi", format!("ABI `{}`: {e}", abi.name)))?;
    let report = RangesReport::new(&abi, target, &r);
    Ok(AcoResult {
        text: ranges_text(&report),
        svg: ranges_svg(&report),
        report,
    })
}

/// `aco assign`.
pub fn assign_params(req: &AcoRequest) -> Result<AcoResult<AssignmentReport>, WebError> {
    let policy = req.policy()?;
    let target = req.target()?;
    let limit = req.limit(target)?;
    let (signature, default_abi, hints) = match (&req.sig, &req.stage) {
        (Some(_), Some(_)) => {
            return Err(flag("--stage", "--stage: give --sig or --stage, not both"))
        }
        (Some(sig), None) => (
            parse_signature(sig).map_err(|e| aco_error("--sig", e))?,
            None,
            None,
        ),
        (None, Some(stage)) => {
            let stage: RtStage = stage
                .parse()
                .map_err(|e: String| flag("--stage", format!("--stage {stage}: {e}")))?;
            let s = stage_signature(stage, req.payload, req.hit_attribs).map_err(|e| {
                let f = match e {
                    AcoError::StageDataTooLarge {
                        what: "hit attributes",
                        ..
                    } => "--hit-attribs",
                    _ => "--payload",
                };
                aco_error(f, e)
            })?;
            let hints = stage_hints(stage, req.payload, target, limit, policy)
                .map_err(|e| aco_error("--stage", e))?;
            (s.signature, Some(s.abi.abi()), hints)
        }
        (None, None) => return Err(flag("--sig", "give --sig or --stage")),
    };
    let abi = req.abi(default_abi)?;
    let r = register_ranges(&abi.block, limit)
        .map_err(|e| flag("--abi", format!("ABI `{}`: {e}", abi.name)))?;
    let assignment = assign(&AssignRequest {
        abi: &abi,
        target,
        limit,
        signature: &signature,
        policy,
        hints: hints.as_ref(),
    })
    .map_err(|e| aco_error("--sig", e))?;
    let report = AssignmentReport {
        abi: abi.name.clone(),
        target: target.gfx.name().to_string(),
        wave: target.wave,
        policy,
        limit,
        assignment,
        ranges: RangesReport::new(&abi, target, &r),
    };
    Ok(AcoResult {
        text: assignment_text(&report),
        svg: assignment_svg(&report),
        report,
    })
}
