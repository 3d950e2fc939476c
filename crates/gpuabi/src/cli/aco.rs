//! `gpuabi aco ...`: ACO/RADV call ABIs — preserved/clobbered ranges and parameter assignment.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_layout::aco::{
    assign, assignment_svg, assignment_text, parse_signature, ranges_svg, ranges_text,
    register_ranges, signature_from_toml, stage_hints, stage_signature, Abi, AcoError,
    AssignRequest, AssignmentReport, Demand, Gfx, Hints, LimitInputs, NirAbi, Policy, RangesReport,
    RtStage, Signature, Target,
};

use super::{write_output, Format};

/// Commands about ACO call ABIs.
#[derive(Debug, Subcommand)]
pub enum AcoCommand {
    /// Print the preserved and clobbered register ranges of an ABI.
    Ranges(RangesArgs),
    /// Assign registers (or scratch) to the parameters of a signature.
    Assign(AssignArgs),
    /// Print the three Mesa ray-tracing ABIs and the layout of a raygen call.
    Overview(TargetArgs),
}

/// Target, wave size and register limit.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// GPU generation: gfx8, gfx9, gfx1030 or gfx1100.
    #[arg(long, default_value = "gfx1030", value_parser = parse_gfx)]
    target: Gfx,
    /// Lanes per wave: 32 or 64 (32 only on gfx1030 and gfx1100). Default: the target's
    /// native wave size as LLVM defines it, wave64 on GCN (gfx8, gfx9) and wave32 on RDNA
    /// (gfx1030, gfx1100), as `compile`, `run`, `sim` and `asm` default.
    #[arg(long, value_parser = parse_wave)]
    wave: Option<u32>,
    /// Register limit as SGPRS,VGPRS; default: derived from the target.
    #[arg(long, value_parser = parse_limit, value_name = "SGPRS,VGPRS")]
    limit: Option<Demand>,
    /// Waves per SIMD the program must fit (lowers the derived limit).
    #[arg(long, default_value_t = 1)]
    min_waves: u32,
    /// Derive the limit for a compute program rather than a ray-tracing one (no VGPR clamp).
    #[arg(long)]
    compute: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Flags of `aco ranges`.
#[derive(Debug, Args)]
pub struct RangesArgs {
    /// A built-in ABI (rt-recursive, traversal, ahit-isec) or a TOML ABI file.
    #[arg(long, value_name = "NAME|FILE")]
    abi: String,
    #[command(flatten)]
    target: TargetArgs,
}

/// Flags of `aco assign`.
#[derive(Debug, Args)]
pub struct AssignArgs {
    /// A built-in ABI or a TOML ABI file; with --stage, defaults to the stage's ABI.
    #[arg(long, value_name = "NAME|FILE")]
    abi: Option<String>,
    /// The signature: `name: type [uniform] [discardable] [return], ...`, or a file
    /// (`.toml` with [[param]] tables, or any other file holding the text form).
    #[arg(
        long,
        value_name = "SIG|FILE",
        required_unless_present = "stage",
        conflicts_with = "stage"
    )]
    sig: Option<String>,
    /// Use RADV's signature of a ray-tracing stage instead of --sig.
    #[arg(long, value_parser = stage_parser())]
    stage: Option<RtStage>,
    /// Ray payload size in bytes (with --stage).
    #[arg(long, default_value_t = 0, requires = "stage")]
    payload: u32,
    /// Hit attribute size in bytes (with --stage any-hit or intersection).
    #[arg(long, default_value_t = 0, requires = "stage")]
    hit_attribs: u32,
    /// `mesa` reproduces Mesa exactly; `packed` fixes its padding filler and scratch fallback.
    #[arg(long, value_enum, default_value_t = PolicyArg::Mesa)]
    policy: PolicyArg,
    #[command(flatten)]
    target: TargetArgs,
}

/// The assignment policy as a flag value.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum PolicyArg {
    Mesa,
    Packed,
}

/// A generation of the layout engines ([`Gfx::ALL`]: not gfx6/gfx7, which only the
/// machine model knows).
fn parse_gfx(s: &str) -> Result<Gfx, String> {
    let gfx: Gfx = s
        .parse()
        .map_err(|e: gpuabi_layout::gfx::UnknownGfx| e.to_string())?;
    if !Gfx::ALL.contains(&gfx) {
        return Err(format!(
            "unknown target `{s}` for the ACO layout: expected gfx8, gfx9, gfx1030 or gfx1100"
        ));
    }
    Ok(gfx)
}

fn parse_wave(s: &str) -> Result<u32, String> {
    match s {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err("expected 32 or 64".to_string()),
    }
}

/// The parser of `--stage`: one of RADV's ray-tracing stages, whose names `--help` lists.
pub(crate) fn stage_parser() -> impl clap::builder::TypedValueParser<Value = RtStage> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(RtStage::names()).try_map(|s| s.parse::<RtStage>())
}

pub(crate) fn parse_limit(s: &str) -> Result<Demand, String> {
    let expected = "expected two whole numbers SGPRS,VGPRS such as 108,128";
    let (a, b) = s.split_once(',').ok_or_else(|| expected.to_string())?;
    let a = a
        .trim()
        .parse::<u16>()
        .map_err(|_| format!("`{a}`: {expected}"))?;
    let b = b
        .trim()
        .parse::<u16>()
        .map_err(|_| format!("`{b}`: {expected}"))?;
    Ok(Demand::new(a, b))
}

impl TargetArgs {
    fn target(&self) -> Result<Target> {
        let wave = self
            .wave
            .unwrap_or_else(|| self.target.default_wave().lanes());
        Target::new(self.target, wave).context("--wave")
    }

    fn limit(&self, target: Target) -> Result<Demand> {
        match self.limit {
            Some(limit) => gpuabi_layout::aco::check_limit(limit).context("--limit"),
            None => {
                if self.min_waves == 0 {
                    bail!("--min-waves: expected at least 1");
                }
                Ok(target.default_limit(LimitInputs {
                    min_waves: self.min_waves,
                    ray_tracing: !self.compute,
                }))
            }
        }
    }
}

/// Resolves `--abi`: a built-in name, or a TOML file.
pub(crate) fn load_abi(spec: &str) -> Result<Abi> {
    if let Some(abi) = Abi::builtin(spec) {
        return Ok(abi);
    }
    let path = Path::new(spec);
    if !path.exists() {
        bail!(
            "--abi: unknown ABI {}, and no TOML ABI file of that name",
            gpuabi_layout::suggest::suggest(
                spec,
                "built-in ABIs",
                &["rt-recursive", "traversal", "ahit-isec"]
            )
        );
    }
    let text =
        super::read_text(path).with_context(|| format!("--abi: cannot read {}", path.display()))?;
    Abi::from_toml(&text).map_err(|e| anyhow!("{}:{e}", path.display()))
}

/// Turns a signature error into a message that shows the signature and a caret.
fn signature_error(source: &str, text: &str, err: AcoError) -> anyhow::Error {
    match err {
        AcoError::Signature {
            line,
            column,
            message,
        } => {
            let line_text = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
            // A long line is shown cut around the column.
            let (shown, at) = gpuabi_ir::diagnostic::cut_line(line_text, column);
            let caret = " ".repeat(at.saturating_sub(1));
            anyhow!("{source}:{line}:{column}: {message}\n  {shown}\n  {caret}^")
        }
        other => anyhow!("{source}: {other}"),
    }
}

pub(crate) fn load_signature(spec: &str) -> Result<Signature> {
    let path = Path::new(spec);
    let looks_like_file = !spec.contains(':') || spec.ends_with(".toml") || spec.ends_with(".sig");
    if looks_like_file && path.is_file() {
        let text = super::read_text(path)
            .with_context(|| format!("--sig: cannot read {}", path.display()))?;
        let source = path.display().to_string();
        let parsed = if spec.ends_with(".toml") {
            signature_from_toml(&text)
        } else {
            parse_signature(&text)
        };
        return parsed.map_err(|e| signature_error(&source, &text, e));
    }
    if spec.ends_with(".toml") {
        bail!("--sig: no such file {spec}");
    }
    parse_signature(spec).map_err(|e| signature_error("--sig", spec, e))
}

fn print_ranges(abi: &Abi, args: &TargetArgs) -> Result<()> {
    let target = args.target()?;
    let limit = args.limit(target)?;
    let ranges =
        register_ranges(&abi.block, limit).with_context(|| format!("ABI `{}`", abi.name))?;
    let report = RangesReport::new(abi, target, &ranges);
    let text = match args.format {
        Format::Text => ranges_text(&report),
        Format::Json => serde_json::to_string_pretty(&report)?,
        Format::Svg => ranges_svg(&report),
    };
    write_output(&text)
}

fn assignment_report(
    abi: &Abi,
    signature: &Signature,
    policy: Policy,
    hints: Option<&Hints>,
    args: &TargetArgs,
) -> Result<AssignmentReport> {
    let target = args.target()?;
    let limit = args.limit(target)?;
    let ranges =
        register_ranges(&abi.block, limit).with_context(|| format!("ABI `{}`", abi.name))?;
    let assignment = assign(&AssignRequest {
        abi,
        target,
        limit,
        signature,
        policy,
        hints,
    })?;
    Ok(AssignmentReport {
        abi: abi.name.clone(),
        target: target.gfx.name().to_string(),
        wave: target.wave,
        policy,
        limit,
        assignment,
        ranges: RangesReport::new(abi, target, &ranges),
    })
}

fn print_assignment(report: &AssignmentReport, format: Format) -> Result<()> {
    let text = match format {
        Format::Text => assignment_text(report),
        Format::Json => serde_json::to_string_pretty(report)?,
        Format::Svg => assignment_svg(report),
    };
    write_output(&text)
}

fn run_assign(args: &AssignArgs) -> Result<()> {
    let policy = match args.policy {
        PolicyArg::Mesa => Policy::Mesa,
        PolicyArg::Packed => Policy::Packed,
    };
    let (signature, default_abi, hints) = match (&args.sig, args.stage) {
        (Some(sig), _) => (load_signature(sig)?, None, None),
        (None, Some(stage)) => {
            let s = stage_signature(stage, args.payload, args.hit_attribs).map_err(|e| {
                let flag = match e {
                    AcoError::StageDataTooLarge {
                        what: "hit attributes",
                        ..
                    } => "--hit-attribs",
                    _ => "--payload",
                };
                anyhow::anyhow!("{flag}: {e}")
            })?;
            let target = args.target.target()?;
            let limit = args.target.limit(target)?;
            let hints = stage_hints(stage, args.payload, target, limit, policy)
                .context("assigning the traversal function for the any-hit hints")?;
            (s.signature, Some(s.abi.abi()), hints)
        }
        (None, None) => bail!("give --sig or --stage"),
    };
    let abi = match (&args.abi, default_abi) {
        (Some(spec), _) => load_abi(spec)?,
        (None, Some(abi)) => abi,
        (None, None) => bail!("--abi: required with --sig"),
    };
    let report = assignment_report(&abi, &signature, policy, hints.as_ref(), &args.target)?;
    print_assignment(&report, args.target.format)
}

/// Runs one `aco` command.
pub fn run(cmd: AcoCommand) -> Result<()> {
    match cmd {
        AcoCommand::Ranges(args) => print_ranges(&load_abi(&args.abi)?, &args.target),
        AcoCommand::Assign(args) => run_assign(&args),
        AcoCommand::Overview(args) => {
            for abi in NirAbi::ALL {
                print_ranges(&abi.abi(), &args)?;
            }
            // Sizes 0 are within every limit.
            let raygen = stage_signature(RtStage::Raygen, 0, 0)?;
            let report = assignment_report(
                &raygen.abi.abi(),
                &raygen.signature,
                Policy::Mesa,
                None,
                &args,
            )?;
            print_assignment(&report, args.format)
        }
    }
}
