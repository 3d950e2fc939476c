//! `gpuabi sim check-function`: one compiled function against its calling convention,
//! with adversarial callers and callees (`gpuabi_sim::check_function`).

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use gpuabi_amdgpu::program::Item;
use gpuabi_layout::aco::{Demand, LimitInputs, RtStage, Target as AcoTarget};
use gpuabi_sim::check_function::{
    check_function, CheckReport, FunctionSpec, InactiveLanes, Placement, Trials,
};
use gpuabi_sim::{Image, Limits};

use super::aco::{load_abi, load_signature, parse_limit, stage_parser};
use super::asm::{load, MachineArgs};
use super::launch_flags;
use super::{write_output, Format};

/// Flags of `sim check-function`.
#[derive(Debug, Args)]
pub struct CheckFunctionArgs {
    /// The assembly file holding the function (Mesa's ACO disassembly reads unchanged).
    pub file: PathBuf,
    /// The label where the function starts (default: the first label of the file).
    #[arg(long, value_name = "LABEL")]
    pub function: Option<String>,
    /// The function's call ABI: rt-recursive, traversal, ahit-isec (Mesa's), llvm-gfx or
    /// llvm-amdgpu-gfx (LLVM's), or a TOML ABI file.
    #[arg(long, value_name = "NAME|FILE")]
    pub abi: String,
    /// RADV's signature of a ray-tracing stage: raygen, callable, closest-hit, miss,
    /// any-hit, intersection or traversal (with its calls: raygen, callable, closest-hit and
    /// miss call traversal through `traversal_addr` and callables; traversal calls any-hit
    /// and intersection functions).
    #[arg(long, value_parser = stage_parser(), required_unless_present = "sig", conflicts_with = "sig")]
    pub stage: Option<RtStage>,
    /// Bytes of ray payload or callable data every function of the pipeline carries (the
    /// pipeline's largest; with --stage).
    #[arg(long, default_value_t = 0, requires = "stage")]
    pub payload: u32,
    /// Bytes of hit attributes every function of the pipeline carries (at least 8 in RADV;
    /// with --stage).
    #[arg(long, default_value_t = 0, requires = "stage")]
    pub hit_attribs: u32,
    /// The signature instead of a stage: `name: type [uniform] [discardable] [return], ...`
    /// or a file (as `aco assign --sig` takes it); the function is then entered by a plain
    /// call, and its calls are checked under its own ABI.
    #[arg(long, value_name = "SIG|FILE")]
    pub sig: Option<String>,
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Register limit as SGPRS,VGPRS (default: the target's ray-tracing limit, as Mesa
    /// derives it for one wave per SIMD).
    #[arg(long, value_parser = parse_limit, value_name = "SGPRS,VGPRS")]
    pub limit: Option<Demand>,
    /// Trials to run.
    #[arg(long, default_value_t = 1000, value_parser = launch_flags::limit32)]
    pub trials: u32,
    /// Seed of the first trial's random state (decimal or 0x hex).
    #[arg(long, default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// What callee stubs do to the lanes that were inactive at the call: `clobber` every
    /// register their ABI lets them clobber in every lane (a callee may use any of them as
    /// a whole-wave linear VGPR), or `keep-parameters`: leave the inactive lanes of their
    /// own parameter registers alone, as Mesa's divergent calls assume.
    #[arg(long, value_enum, default_value_t = InactiveLanesArg::Clobber)]
    pub inactive_lanes: InactiveLanesArg,
    /// Print the instructions trial N executes (numbered from 0), with the calls to
    /// callee stubs.
    #[arg(long, value_name = "N")]
    pub trace: Option<u32>,
    /// Instructions one trial may execute.
    #[arg(long, default_value_t = 1_000_000, value_parser = launch_flags::limit)]
    pub max_instructions: u64,
    /// Output format: text or json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `--inactive-lanes`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum InactiveLanesArg {
    /// Clobber every lane.
    Clobber,
    /// Keep the inactive lanes of the callee's parameter registers.
    KeepParameters,
}

fn parse_seed(s: &str) -> Result<u64, String> {
    launch_flags::integer(s, 64).ok_or_else(|| format!("expected a 64-bit number, found `{s}`"))
}

/// Builds what the check needs from the flags.
fn spec(args: &CheckFunctionArgs, program: &gpuabi_amdgpu::Program) -> Result<FunctionSpec> {
    let (target, wave) = (program.target, program.wave);
    let entry = match &args.function {
        Some(l) => l.clone(),
        None => program
            .items
            .iter()
            .find_map(|e| match &e.item {
                Item::Label(l) => Some(l.clone()),
                _ => None,
            })
            .ok_or_else(|| anyhow!("{}: no label; give --function LABEL", args.file.display()))?,
    };
    let aco_target = AcoTarget::new(target, wave.lanes()).context("--wave")?;
    let place = Placement {
        name: format!("{} ({})", entry, args.file.display()),
        entry,
        target,
        wave,
        limit: args
            .limit
            .unwrap_or_else(|| aco_target.default_limit(LimitInputs::default())),
    };
    if let Some(spec) = FunctionSpec::llvm(&place, &args.abi) {
        if args.stage.is_some() {
            bail!(
                "--stage: RADV's stages use Mesa's ABIs (rt-recursive, traversal, ahit-isec), \
                 not --abi {}",
                args.abi
            );
        }
        return Ok(spec);
    }
    let abi = load_abi(&args.abi).map_err(|e| {
        anyhow!("{e:#} (or llvm-gfx, llvm-amdgpu-gfx for LLVM's function conventions)")
    })?;
    let spec = match (args.stage, &args.sig) {
        (Some(stage), _) => {
            FunctionSpec::for_stage(&place, stage, args.payload, args.hit_attribs, Some(&abi))
                .with_context(|| format!("--stage {stage}"))?
        }
        (None, Some(sig)) => {
            FunctionSpec::for_signature(&place, &abi, &load_signature(sig)?).context("--sig")?
        }
        (None, None) => bail!("give --stage or --sig"),
    };
    Ok(spec)
}

/// The report for people.
fn text(report: &CheckReport, target: &str, seed: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: ABI {}, {target}: {} trials from seed {seed}: {} violations, {} stopped",
        report.function,
        report.abi,
        report.trials,
        report.violations.len(),
        report.stopped.len()
    );
    let _ = writeln!(
        out,
        "  {} returned, {} handed on to the next callee, {} ended the wave; {} calls to callee stubs; {} instructions",
        report.returned, report.handed_on, report.ended, report.calls, report.instructions
    );
    const SHOWN: usize = 20;
    for v in report.violations.iter().take(SHOWN) {
        let _ = writeln!(out, "  trial {}: {}: {}", v.trial, v.kind, v.message);
    }
    if report.violations.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more violations (--format json lists them)",
            report.violations.len() - SHOWN
        );
    }
    for s in report.stopped.iter().take(SHOWN) {
        let _ = writeln!(out, "  trial {} stopped: {}", s.trial, s.message);
    }
    if report.stopped.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more stopped trials",
            report.stopped.len() - SHOWN
        );
    }
    out
}

/// Runs `sim check-function`.
pub fn run(args: &CheckFunctionArgs) -> Result<()> {
    let program = load(&args.file, &args.machine)?;
    let spec = spec(args, &program)?;
    let image = Image::new(&program)?;
    let limits = Limits {
        instructions_per_wave: args.max_instructions,
        ..Limits::default()
    };
    let trials = Trials {
        count: args.trials,
        seed: args.seed,
        limits,
        trace: args.trace,
        inactive_lanes: match args.inactive_lanes {
            InactiveLanesArg::Clobber => InactiveLanes::Clobber,
            InactiveLanesArg::KeepParameters => InactiveLanes::KeepParameters,
        },
    };
    let report = check_function(&image, &spec, trials)
        .map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    let target = format!("{} {}", program.target, program.wave);
    match args.format {
        Format::Json => write_output(&serde_json::to_string_pretty(&report)?)?,
        _ => {
            let mut out = String::new();
            for line in &report.trace {
                out.push_str(line);
                out.push('\n');
            }
            out.push_str(&text(&report, &target, args.seed));
            write_output(&out)?
        }
    }
    if !report.passed() {
        bail!(
            "{}: {} violations, {} trials stopped",
            args.file.display(),
            report.violations.len(),
            report.stopped.len()
        );
    }
    Ok(())
}
