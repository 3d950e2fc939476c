//! `compile`: the assembly of a module for a target and wave size, and every call site's
//! frame: which registers carry which parameters, what the callee's ABI preserves and
//! clobbers, and the instructions the call cost (parameter copies, linkage, spills), each
//! with its line in the listing. The same compilation `gpuabi compile` runs.

use gpuabi_codegen::{CallOptions, CodegenError, Compiled, Options};
use gpuabi_ir::Module;
use gpuabi_layout::aco::Policy;
use gpuabi_layout::reg::{RegFile, RegSet};
use serde::{Deserialize, Serialize};

use crate::error::{flag, SourceDiagnostic, WebError};
use crate::source::{load, FILE};

/// What to compile for: the fields of `gpuabi compile`'s target flags.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetRequest {
    /// `--target`: gfx8, gfx1030, gfx1100, gfx12 or an LLVM processor of one.
    pub target: String,
    /// `--wave` 32 or 64; default the target's native wave size.
    #[serde(default)]
    pub wave: Option<u32>,
    /// `--max-sgprs`.
    #[serde(default)]
    pub max_sgprs: Option<u16>,
    /// `--max-vgprs`.
    #[serde(default)]
    pub max_vgprs: Option<u16>,
    /// `--abi NAME=FILE.toml`, with the file's text: `[name, toml]`.
    #[serde(default)]
    pub abis: Vec<(String, String)>,
    /// `--abi-override FUNC=ABI`, each as its text.
    #[serde(default)]
    pub overrides: Vec<String>,
    /// `--policy mesa|packed` (default mesa).
    #[serde(default)]
    pub policy: Option<String>,
}

/// A compile request: the source and the target.
#[derive(Debug, Clone, Deserialize)]
pub struct CompileRequest {
    /// The `.gsir` text.
    pub source: String,
    /// The target flags.
    #[serde(flatten)]
    pub target: TargetRequest,
}

impl TargetRequest {
    /// The code generator's options, each refusal naming its flag as `gpuabi compile` does.
    pub fn options(&self) -> Result<Options, WebError> {
        Options::from_flags(&self.target, self.wave, self.max_sgprs, self.max_vgprs)
            .map_err(|e| flag(e.flag, e.message))
    }

    /// The call-ABI options: user ABIs, overrides, policy.
    pub fn call_options(&self) -> Result<CallOptions, WebError> {
        let policy = match self.policy.as_deref() {
            None | Some("mesa") => Policy::Mesa,
            Some("packed") => Policy::Packed,
            Some(p) => {
                return Err(flag(
                    "--policy",
                    format!("--policy {p}: expected mesa or packed"),
                ))
            }
        };
        let mut c = CallOptions {
            policy,
            ..CallOptions::default()
        };
        for (name, toml) in &self.abis {
            let mut abi = gpuabi_layout::aco::Abi::from_toml(toml)
                .map_err(|e| flag("--abi", format!("--abi {name}: {e}")))?;
            abi.name = name.clone();
            c.abis.push(abi);
        }
        for o in &self.overrides {
            let Some((func, abi)) = o.split_once('=') else {
                return Err(flag(
                    "--abi-override",
                    format!("--abi-override {o}: expected FUNC=ABI"),
                ));
            };
            c.overrides
                .push((func.trim_start_matches('@').to_string(), abi.to_string()));
        }
        Ok(c)
    }
}

/// Compiles `module` (whose text is `source`) under `opts` and `calls`; an error with a
/// place in the source carries it.
pub fn compile_module(
    module: &Module,
    source: &str,
    opts: &Options,
    calls: &CallOptions,
) -> Result<Compiled, WebError> {
    gpuabi_codegen::compile_with(module, opts, calls).map_err(|e| {
        let at = match &e {
            CodegenError::Unsupported {
                start, end, what, ..
            } => Some((*start, *end, what.clone())),
            CodegenError::Internal(p) => p.origin.map(|o| (o.start, o.end, p.fault.to_string())),
            _ => None,
        };
        WebError::Compile {
            message: e.to_string(),
            at: at.map(|(start, end, what)| {
                let d = gpuabi_ir::Diagnostic::new(
                    e.to_string(),
                    gpuabi_ir::ir::Span { start, end },
                    what,
                );
                Box::new(SourceDiagnostic::new(&d, FILE, source))
            }),
        }
    })
}

/// Registers of each file as inclusive runs such as `s[4:7]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Runs {
    /// SGPR runs.
    pub sgpr: Vec<String>,
    /// VGPR runs.
    pub vgpr: Vec<String>,
}

impl Runs {
    fn of(set: &RegSet, limit: gpuabi_layout::aco::Demand) -> Runs {
        let runs = |file| {
            set.runs_below(file, limit.get(file))
                .iter()
                .map(|r| r.to_string())
                .collect()
        };
        Runs {
            sgpr: runs(RegFile::Sgpr),
            vgpr: runs(RegFile::Vgpr),
        }
    }
}

/// One parameter of a call: where its value travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameParam {
    /// The ABI's name for it (`return_address`, `stack_pointer`, `launch0`, `arg2`, ...).
    pub name: String,
    /// The callee's own name for it (an IR parameter), when the callee is a known function.
    pub ir_name: Option<String>,
    /// Who added it: `system`, `radv` or `user`.
    pub kind: String,
    /// Register class, such as `v1` or `s2`.
    pub class: String,
    /// Registers (`v[2:3]`) or `scratch +OFFSET`.
    pub location: String,
    /// A return parameter.
    pub is_return: bool,
    /// The callee hands it back although it sits in a clobbered register.
    pub needs_explicit_preservation: bool,
}

/// One overhead instruction of a call site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameInstruction {
    /// Its line in the listing, from 1.
    pub line: usize,
    /// What it pays for: `copy` (parameters and results), `linkage` (stack bumps, the call,
    /// whole-wave saves) or `spill`.
    pub cost: &'static str,
}

/// A call site and its frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The calling function.
    pub caller: String,
    /// The callee, or `$sig` for an indirect call.
    pub callee: String,
    /// The callee's ABI.
    pub abi: String,
    /// The line of the call's `s_swappc_b64` in the listing, from 1.
    pub line: usize,
    /// Line and column of the call in the source.
    pub source: (usize, usize),
    /// Where each parameter goes.
    pub params: Vec<FrameParam>,
    /// What the callee hands back unchanged (below the register limit).
    pub preserved: Runs,
    /// What the call may change (below the register limit).
    pub clobbered: Runs,
    /// The stack pointer.
    pub stack_pointer: String,
    /// Bytes per lane of parameters passed in scratch.
    pub scratch_param_bytes: u32,
    /// The register limit, SGPRs and VGPRs.
    pub limit: (u16, u16),
    /// The instructions the call compiled to besides the call itself.
    pub instructions: Vec<FrameInstruction>,
    /// Their counts by kind.
    pub overhead: gpuabi_codegen::Overhead,
}

/// What `compile` gives.
#[derive(Debug, Clone, Serialize)]
pub struct CompileResult {
    /// Target name.
    pub target: String,
    /// Lanes per wave.
    pub wave: u32,
    /// The assembly text (what `gpuabi compile` prints).
    pub assembly: String,
    /// Figures of every compiled function (as `gpuabi compile --format json`).
    pub functions: Vec<gpuabi_codegen::FunctionStats>,
    /// Every call site with its frame, in program order.
    pub calls: Vec<Frame>,
    /// The saves and restores each called function compiled to, per function (index as
    /// `functions`): lines in the listing.
    pub callee_saves: Vec<Vec<usize>>,
}

/// Compiles the request's source.
pub fn compile(req: &CompileRequest) -> Result<CompileResult, WebError> {
    let module = load(&req.source)?;
    let opts = req.target.options()?;
    let calls = req.target.call_options()?;
    let c = compile_module(&module, &req.source, &opts, &calls)?;
    Ok(result(&c, &module, &req.source, &opts))
}

/// The result of `compile` for the compiled module `c`.
pub fn result(c: &Compiled, module: &Module, source: &str, opts: &Options) -> CompileResult {
    // The assembly of a compiled module always prints: its kernels' descriptors were
    // checked when they were made.
    let (assembly, lines) = c
        .assembly_with_lines()
        .unwrap_or_else(|e| (format!("; {e}\n"), vec![0; c.program.items.len()]));
    let statics = c.site_overhead();
    let calls = c
        .calls
        .iter()
        .zip(&statics)
        .enumerate()
        .map(|(i, (k, overhead))| {
            let callee_params = module
                .functions
                .iter()
                .find(|f| f.name == k.callee)
                .map(|f| {
                    f.params
                        .iter()
                        .map(|p| f.value_name(p.value).to_string())
                        .collect::<Vec<_>>()
                });
            let params = k
                .params
                .iter()
                .map(|p| FrameParam {
                    name: p.name.clone(),
                    ir_name: p
                        .name
                        .strip_prefix("arg")
                        .and_then(|n| n.parse::<usize>().ok())
                        .and_then(|n| callee_params.as_ref()?.get(n).cloned()),
                    kind: format!("{:?}", p.kind).to_lowercase(),
                    class: p.class.to_string(),
                    location: p.location.to_string(),
                    is_return: p.is_return,
                    needs_explicit_preservation: p.needs_explicit_preservation,
                })
                .collect();
            let clobbered = k.preserved.complement();
            let mut instructions: Vec<FrameInstruction> = c
                .costs
                .iter()
                .filter(|x| x.site == Some(i))
                .map(|x| FrameInstruction {
                    line: lines[x.item] + 1,
                    cost: cost_name(x.cost),
                })
                .collect();
            instructions.sort_by_key(|x| x.line);
            Frame {
                caller: k.caller.clone(),
                callee: k.callee.clone(),
                abi: k.abi.clone(),
                line: lines[k.item] + 1,
                source: gpuabi_ir::diagnostic::line_col(source, k.origin.start as usize),
                params,
                preserved: Runs::of(&k.preserved, k.limit),
                clobbered: Runs::of(&clobbered, k.limit),
                stack_pointer: k.stack_pointer.to_string(),
                scratch_param_bytes: k.scratch_param_bytes,
                limit: (k.limit.sgpr, k.limit.vgpr),
                instructions,
                overhead: *overhead,
            }
        })
        .collect();
    let mut callee_saves = vec![Vec::new(); c.functions.len()];
    for x in &c.costs {
        if x.cost == gpuabi_codegen::mir::AbiCost::CalleeSave {
            if let Some(v) = callee_saves.get_mut(x.function) {
                v.push(lines[x.item] + 1);
            }
        }
    }
    CompileResult {
        target: opts.target.name().to_string(),
        wave: opts.wave.lanes(),
        assembly,
        functions: c.functions.clone(),
        calls,
        callee_saves,
    }
}

fn cost_name(c: gpuabi_codegen::mir::AbiCost) -> &'static str {
    use gpuabi_codegen::mir::AbiCost;
    match c {
        AbiCost::None => "none",
        AbiCost::CalleeSave => "callee-save",
        AbiCost::Copy => "copy",
        AbiCost::Linkage => "linkage",
        AbiCost::Spill => "spill",
    }
}
