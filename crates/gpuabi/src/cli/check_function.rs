//! `gpuabi sim check-function`: one compiled function against its calling convention,
//! with adversarial callers and callees (`gpuabi_sim::check_function`).

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use gpuabi_amdgpu::program::Item;
use gpuabi_layout::aco::{
    assign, stage_assignment, Abi, AssignRequest, Assignment, Demand, LimitInputs, Location,
    ParamKind, ParamLayout, Policy, RtStage, Target as AcoTarget, DIVERGENT_CALL, NORETURN,
};
use gpuabi_layout::reg::{RegClass, RegFile, RegRange, RegSet};
use gpuabi_sim::check_function::{
    check_function, handed_back, stack_pointer, Callee, CheckReport, FunctionSpec,
};
use gpuabi_sim::contract::aco_preserved;
use gpuabi_sim::contract::{llvm_amdgpu_gfx_preserved, llvm_gfx_preserved, LLVM_STACK_POINTER};
use gpuabi_sim::{Image, Limits};

use super::aco::{load_abi, load_signature, parse_limit, parse_stage};
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
    #[arg(long, value_parser = parse_stage, required_unless_present = "sig", conflicts_with = "sig")]
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
    /// Instructions one trial may execute.
    #[arg(long, default_value_t = 1_000_000, value_parser = launch_flags::limit)]
    pub max_instructions: u64,
    /// Output format: text or json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn parse_seed(s: &str) -> Result<u64, String> {
    launch_flags::integer(s, 64).ok_or_else(|| format!("expected a 64-bit number, found `{s}`"))
}

/// How the command sees the function's ABI.
enum AbiChoice {
    Aco(Abi),
    /// LLVM's convention: its name and preserved registers.
    Llvm(&'static str, RegSet),
}

fn choose_abi(name: &str) -> Result<AbiChoice> {
    match name {
        "llvm-gfx" => Ok(AbiChoice::Llvm("llvm-gfx", llvm_gfx_preserved())),
        "llvm-amdgpu-gfx" => Ok(AbiChoice::Llvm(
            "llvm-amdgpu-gfx",
            llvm_amdgpu_gfx_preserved(),
        )),
        _ => load_abi(name).map(AbiChoice::Aco).map_err(|e| {
            anyhow!("{e:#} (or llvm-gfx, llvm-amdgpu-gfx for LLVM's function conventions)")
        }),
    }
}

/// LLVM's fixed registers as a layout: the return address in s[30:31] and the stack
/// pointer s32 (AMDGPUUsage, "Call Convention"). Its other parameters get random values
/// like every other register, so the check does not need where they are.
fn llvm_layout() -> Assignment {
    let param = |name: &str, first: u16, dwords: u16| ParamLayout {
        name: name.to_string(),
        kind: ParamKind::System,
        class: RegClass {
            file: RegFile::Sgpr,
            dwords,
        },
        location: Location::Reg(RegRange::new(RegFile::Sgpr, first, dwords)),
        needs_explicit_preservation: false,
        discardable: false,
        is_return: false,
    };
    Assignment {
        params: vec![
            param("return_address", 30, 2),
            param("stack_pointer", LLVM_STACK_POINTER, 1),
        ],
        scratch_param_size: 0,
        reg_param_count: 0,
        reg_discardable_param_count: 0,
        demand: Demand::new(3, 0),
        warnings: Vec::new(),
    }
}

/// The callee a stub plays for calls of an ACO function.
fn aco_callee(
    name: &str,
    abi: &Abi,
    layout: Option<&Assignment>,
    target: gpuabi_amdgpu::Target,
    wave: gpuabi_amdgpu::WaveSize,
    limit: Demand,
    own_sp: RegRange,
) -> Result<Callee> {
    let explicit = layout.map(handed_back).unwrap_or_default();
    let preserved = aco_preserved(abi, target, wave, Some(limit), &explicit)
        .with_context(|| format!("the {name} callee's ABI"))?;
    let stack_pointer = match layout {
        Some(l) => stack_pointer(l)
            .ok_or_else(|| anyhow!("the {name} callee's stack pointer is not in registers"))?,
        None => own_sp,
    };
    Ok(Callee {
        name: name.to_string(),
        preserved,
        stack_pointer,
    })
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
    let limit = args
        .limit
        .unwrap_or_else(|| aco_target.default_limit(LimitInputs::default()));
    let name = format!("{} ({})", entry, args.file.display());
    match choose_abi(&args.abi)? {
        AbiChoice::Llvm(abi, preserved) => {
            if args.stage.is_some() {
                bail!("--stage: RADV's stages use Mesa's ABIs (rt-recursive, traversal, ahit-isec), not --abi {abi}");
            }
            let layout = llvm_layout();
            let sp = RegRange::new(RegFile::Sgpr, LLVM_STACK_POINTER, 1);
            Ok(FunctionSpec {
                name,
                entry,
                abi: abi.to_string(),
                preserved: preserved.clone(),
                layout,
                divergent: false,
                noreturn: false,
                callees_by_param: Vec::new(),
                default_callee: Callee {
                    name: abi.to_string(),
                    preserved,
                    stack_pointer: sp,
                },
            })
        }
        AbiChoice::Aco(abi) => {
            let (layout, flags, callees) = match (args.stage, &args.sig) {
                (Some(stage), _) => {
                    let layout_of = |s: RtStage| {
                        stage_assignment(
                            s,
                            args.payload,
                            args.hit_attribs,
                            aco_target,
                            limit,
                            Policy::Mesa,
                        )
                        .map_err(|e| anyhow!("--stage {s}: {e}"))
                    };
                    let (signature, own) = layout_of(stage)?;
                    // The stage's signature under the ABI given (the stage's own by default).
                    let layout = if signature.abi.abi().name == abi.name {
                        own
                    } else {
                        assign(&AssignRequest {
                            abi: &abi,
                            target: aco_target,
                            limit,
                            signature: &signature.signature,
                            policy: Policy::Mesa,
                            hints: None,
                        })?
                    };
                    let sp = stack_pointer(&layout)
                        .ok_or_else(|| anyhow!("the stack pointer is not in registers"))?;
                    let callee = |s: RtStage| -> Result<Callee> {
                        let (sig, l) = layout_of(s)?;
                        aco_callee(
                            &s.to_string(),
                            &sig.abi.abi(),
                            Some(&l),
                            target,
                            wave,
                            limit,
                            sp,
                        )
                    };
                    let callees = match stage {
                        RtStage::Traversal => (Vec::new(), callee(RtStage::AnyHit)?),
                        RtStage::AnyHit | RtStage::Intersection => (
                            Vec::new(),
                            aco_callee("unknown", &abi, None, target, wave, limit, sp)?,
                        ),
                        _ => (
                            vec![("traversal_addr".to_string(), callee(RtStage::Traversal)?)],
                            callee(RtStage::Callable)?,
                        ),
                    };
                    (layout, signature.flags, callees)
                }
                (None, Some(sig)) => {
                    let signature = load_signature(sig)?;
                    let layout = assign(&AssignRequest {
                        abi: &abi,
                        target: aco_target,
                        limit,
                        signature: &signature,
                        policy: Policy::Mesa,
                        hints: None,
                    })?;
                    let sp = stack_pointer(&layout)
                        .ok_or_else(|| anyhow!("the stack pointer is not in registers"))?;
                    let callee = aco_callee(&abi.name, &abi, None, target, wave, limit, sp)?;
                    (layout, 0, (Vec::new(), callee))
                }
                (None, None) => bail!("give --stage or --sig"),
            };
            let preserved = aco_preserved(&abi, target, wave, Some(limit), &handed_back(&layout))?;
            Ok(FunctionSpec {
                name,
                entry,
                abi: abi.name.clone(),
                preserved,
                layout,
                divergent: flags & DIVERGENT_CALL != 0,
                noreturn: flags & NORETURN != 0,
                callees_by_param: callees.0,
                default_callee: callees.1,
            })
        }
    }
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
    let report = check_function(&image, &spec, args.trials, args.seed, limits)
        .map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    let target = format!("{} {}", program.target, program.wave);
    match args.format {
        Format::Json => write_output(&serde_json::to_string_pretty(&report)?)?,
        _ => write_output(&text(&report, &target, args.seed))?,
    }
    if !report.violations.is_empty() || !report.stopped.is_empty() {
        bail!(
            "{}: {} violations, {} trials stopped",
            args.file.display(),
            report.violations.len(),
            report.stopped.len()
        );
    }
    Ok(())
}
