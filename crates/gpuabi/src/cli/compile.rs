//! `gpuabi compile`: compile the kernels of a `.gsir` file to AMD assembly; and the
//! target flags `compile` and `run --target` share.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use gpuabi_amdgpu::target::modelled_text;
use gpuabi_amdgpu::MODELLED_TARGETS;
use gpuabi_codegen::{CallOptions, CodegenError, Compiled, Entry, Inspect, Options, PrintAfter};
use gpuabi_ir::ir::Span;
use gpuabi_ir::{Diagnostic, Module};

use super::ir::load_with_source;
use super::write_output;

/// Entry ABI names on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EntryArg {
    /// AMDHSA, as LLVM's `amdgpu_kernel` (the default).
    Hsa,
    /// AMD's Catalyst OpenCL 1.2 ABI (gfx8).
    Catalyst,
}

/// Flags that choose what to compile for.
#[derive(Debug, Clone, Args)]
pub struct TargetArgs {
    /// GPU generation: gfx8 (GCN 3), gfx1030 (RDNA 2), gfx1100 (RDNA 3) or gfx12 (RDNA 4),
    /// or an LLVM processor of one (gfx803, fiji, gfx1034, gfx1102, gfx1201, ...). With
    /// `run`, compiles and runs in the simulator instead of the interpreter.
    #[arg(long, value_name = "gfx8|gfx1030|gfx1100|gfx12")]
    pub target: Option<String>,
    /// Lanes per wave: 32 or 64. Default: the target's native wave size as LLVM defines
    /// it, wave64 on GCN (gfx8) and wave32 on RDNA (gfx1030, gfx1100, gfx12).
    #[arg(long, value_name = "32|64")]
    pub wave: Option<u32>,
    /// Kernel entry ABI.
    #[arg(long, value_enum, default_value = "hsa")]
    pub entry: EntryArg,
    /// SGPRs the register allocator may use.
    #[arg(long, value_name = "N")]
    pub max_sgprs: Option<u16>,
    /// VGPRs the register allocator may use.
    #[arg(long, value_name = "N")]
    pub max_vgprs: Option<u16>,
    /// A user call ABI (a TOML file, as `aco ranges --abi FILE` reads it), usable as
    /// `abi(NAME)` in the IR and by --abi-override. Repeatable.
    #[arg(long = "abi", value_name = "NAME=FILE.toml")]
    pub abis: Vec<String>,
    /// Compiles function FUNC under ABI instead of its own: a built-in ABI (Mesa's
    /// rt-recursive, traversal, ahit-isec; compute; LLVM's llvm-gfx and llvm-amdgpu-gfx;
    /// `_` is accepted for `-`) or one given with --abi. FUNC `*` is every function but
    /// the kernels (which keep their entry convention) and every signature; a named
    /// function's override wins over it. Repeatable.
    #[arg(long = "abi-override", value_name = "FUNC=ABI")]
    pub overrides: Vec<String>,
    /// Parameter-assignment policy of the call ABIs: Mesa's exact algorithm, or `packed`.
    #[arg(long, value_enum, default_value = "mesa")]
    pub policy: PolicyArg,
}

/// Parameter-assignment policies on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Bit for bit Mesa's `find_param_regs`.
    Mesa,
    /// The padding filler the right way round, aligned registers tried before scratch.
    Packed,
}

impl TargetArgs {
    /// The compilation options, if a target was given.
    pub fn options(&self) -> Result<Option<Options>> {
        let Some(t) = &self.target else {
            if self.wave.is_some() || self.max_sgprs.is_some() || self.max_vgprs.is_some() {
                bail!("--wave, --max-sgprs and --max-vgprs need --target");
            }
            return Ok(None);
        };
        let mut o = Options::from_flags(t, self.wave, self.max_sgprs, self.max_vgprs)?;
        o.entry = match self.entry {
            EntryArg::Hsa => Entry::Hsa,
            EntryArg::Catalyst => Entry::Catalyst,
        };
        Ok(Some(o))
    }

    /// The call-ABI options: user ABIs, overrides, policy.
    pub fn call_options(&self) -> Result<CallOptions> {
        let mut c = CallOptions {
            policy: match self.policy {
                PolicyArg::Mesa => gpuabi_layout::aco::Policy::Mesa,
                PolicyArg::Packed => gpuabi_layout::aco::Policy::Packed,
            },
            ..CallOptions::default()
        };
        for flag in &self.abis {
            let Some((name, file)) = flag.split_once('=') else {
                bail!("--abi {flag}: expected NAME=FILE.toml");
            };
            if name.is_empty()
                || !name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            {
                bail!("--abi {flag}: the name must be letters, digits and `_`, as `abi(NAME)` writes it");
            }
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("--abi {flag}: cannot read {file}"))?;
            let mut abi = gpuabi_layout::aco::Abi::from_toml(&text)
                .map_err(|e| anyhow!("--abi {flag}: {file}: {e}"))?;
            abi.name = name.to_string();
            c.abis.push(abi);
        }
        for flag in &self.overrides {
            let Some((func, abi)) = flag.split_once('=') else {
                bail!("--abi-override {flag}: expected FUNC=ABI");
            };
            c.overrides
                .push((func.trim_start_matches('@').to_string(), abi.to_string()));
        }
        Ok(c)
    }
}

/// Output formats of `compile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Assembly text that llvm-mc-19 assembles into an HSA code object.
    Asm,
    /// Per-function statistics.
    Json,
}

/// Flags of `compile`.
#[derive(Debug, Args)]
pub struct CompileArgs {
    /// The `.gsir` file.
    file: PathBuf,
    #[command(flatten)]
    target: TargetArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "asm")]
    format: Format,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Validate the machine IR after every pass (debug builds always do); a failure names
    /// the pass.
    #[arg(long)]
    verify: bool,
    /// Output the machine IR of every function after pass PASS (`all`: after every pass)
    /// instead of the assembly, in the text `gpuabi-codegen`'s machine-IR reader reads.
    #[arg(long, value_name = "PASS|all")]
    print_after: Option<String>,
}

/// Compiles `module`, rendering a located error against the source.
pub fn compile_module(
    module: &Module,
    opts: &Options,
    calls: &CallOptions,
    file: &Path,
    source: &str,
) -> Result<Compiled> {
    gpuabi_codegen::compile_with(module, opts, calls).map_err(|e| report(e, opts, file, source))
}

/// A compilation error, rendered against the source when it has a span.
fn report(e: CodegenError, opts: &Options, file: &Path, source: &str) -> anyhow::Error {
    let name = file.display().to_string();
    let span = match &e {
        CodegenError::Unsupported {
            start, end, what, ..
        } => Some((*start, *end, what.clone())),
        CodegenError::Internal(p) => p.origin.map(|o| (o.start, o.end, p.fault.to_string())),
        _ => None,
    };
    match span {
        Some((start, end, what)) => {
            let d = Diagnostic::new(e.to_string(), Span { start, end }, what);
            eprint!("{}", d.render(&name, source));
            anyhow!("{name}: cannot compile for {}", opts.target.name())
        }
        None => anyhow!("{name}: {e}"),
    }
}

/// Runs the `compile` command.
pub fn run(a: CompileArgs) -> Result<()> {
    let Some(opts) = a.target.options()? else {
        bail!(
            "--target: which GPU to compile for ({})",
            modelled_text(&MODELLED_TARGETS)
        );
    };
    let print_after = match &a.print_after {
        Some(p) => PrintAfter::parse(p).map_err(|e| anyhow!("--print-after {p}: {e}"))?,
        None => PrintAfter::Nothing,
    };
    let (module, source) = load_with_source(&a.file)?;
    let calls = a.target.call_options()?;
    if a.verify || print_after != PrintAfter::Nothing {
        let inspect = Inspect {
            verify: a.verify,
            print_after,
        };
        let out = gpuabi_codegen::compile_inspect(&module, &opts, &calls, &inspect);
        if print_after != PrintAfter::Nothing {
            // The machine IR printed before an error is what shows where it came from.
            let text = format!(
                "; target: {} wave{}\n{}",
                opts.target.name(),
                opts.wave.lanes(),
                out.printed
            );
            write_to(&a.output, text)?;
            out.result.map_err(|e| report(e, &opts, &a.file, &source))?;
            return Ok(());
        }
        let c = out.result.map_err(|e| report(e, &opts, &a.file, &source))?;
        return write_to(&a.output, render(&c, &a, &opts, &source)?);
    }
    let c = compile_module(&module, &opts, &calls, &a.file, &source)?;
    write_to(&a.output, render(&c, &a, &opts, &source)?)
}

/// The output of `compile` in the chosen format.
fn render(c: &Compiled, a: &CompileArgs, opts: &Options, source: &str) -> Result<String> {
    Ok(match a.format {
        Format::Asm => c.assembly().map_err(|e| anyhow!("{e}"))?,
        Format::Json => {
            let statics = c.site_overhead();
            let calls: Vec<_> = c
                .calls
                .iter()
                .zip(&statics)
                .map(|(k, overhead)| {
                    let (line, col) =
                        gpuabi_ir::diagnostic::line_col(source, k.origin.start as usize);
                    serde_json::json!({
                        "caller": k.caller,
                        "callee": k.callee,
                        "abi": k.abi,
                        "stack_pointer": k.stack_pointer.to_string(),
                        "scratch_param_bytes": k.scratch_param_bytes,
                        "source": [k.origin.start, k.origin.end],
                        "location": format!("{}:{line}:{col}", a.file.display()),
                        "overhead": overhead,
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({
                "target": opts.target.name(),
                "wave": opts.wave.lanes(),
                "functions": c.functions,
                "calls": calls,
            }))?;
            s.push('\n');
            s
        }
    })
}

fn write_to(output: &Option<PathBuf>, text: String) -> Result<()> {
    match output {
        Some(p) => {
            super::write_file(p, text).with_context(|| format!("-o {}: cannot write", p.display()))
        }
        None => write_output(&text),
    }
}
