//! `run`: a kernel launched as `gpuabi run` launches it (the same grid, group, buffer and
//! argument flags, parsed by `gpuabi_exec::launch`), in the reference interpreter and,
//! with a target, compiled in the simulator with every call checked against its callee's
//! ABI: the buffers each run leaves, the first byte where they differ, the contract
//! violations, and the `--stats` counts.

use gpuabi_exec::launch::{self, LaunchFlags};
use gpuabi_ir::interp::{DispatchError, Limits, Memory};
use serde::{Deserialize, Serialize};

use crate::compile::{compile_module, TargetRequest};
use crate::error::WebError;
use crate::source::{load, program, FILE};

/// A run request: the source, the launch flags and, to run compiled code, the target.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The `.gsir` text.
    pub source: String,
    /// `--kernel` (default: the only kernel).
    #[serde(default)]
    pub kernel: Option<String>,
    /// `--grid X[,Y,Z]`.
    pub grid: String,
    /// `--group X[,Y,Z]`.
    #[serde(default)]
    pub group: Option<String>,
    /// `--offset X[,Y,Z]`.
    #[serde(default)]
    pub offset: Option<String>,
    /// Every `--buffer NAME=SIZE` or `NAME=u32:V,...` (the page has no files).
    #[serde(default)]
    pub buffers: Vec<String>,
    /// Every `--arg NAME=VALUE`.
    #[serde(default)]
    pub args: Vec<String>,
    /// `--target` and the flags that go with it; without it only the interpreter runs.
    #[serde(default)]
    pub target: Option<TargetRequest>,
    /// Run the interpreter (default true).
    #[serde(default = "yes")]
    pub interpreter: bool,
}

fn yes() -> bool {
    true
}

/// A buffer after a run, its bytes as lowercase hex (two digits a byte).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BufferOut {
    /// Its name.
    pub name: String,
    /// Its bytes.
    pub hex: String,
}

fn buffers_out(buffers: &[(String, Vec<u8>)]) -> Vec<BufferOut> {
    buffers
        .iter()
        .map(|(name, data)| {
            let mut hex = String::with_capacity(data.len() * 2);
            for b in data {
                hex.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
                hex.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
            }
            BufferOut {
                name: name.clone(),
                hex,
            }
        })
        .collect()
}

/// A run that stopped with an error, at a place of the source when known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunFailure {
    /// What happened (for the interpreter, as the command line renders it).
    pub message: String,
    /// Line and column in the source.
    pub at: Option<(usize, usize)>,
}

/// What the interpreter did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InterpreterOut {
    /// Invocations run.
    pub invocations: u64,
    /// Instructions executed.
    pub steps: u64,
    /// The buffers afterwards.
    pub buffers: Vec<BufferOut>,
}

/// A break of a call's contract, with the call's place in the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// As the command line prints it.
    pub message: String,
    /// The calling function.
    pub function: Option<String>,
    /// Line and column of the call in the source.
    pub at: Option<(usize, usize)>,
    /// The violation's fields.
    pub detail: gpuabi_sim::ContractViolation,
}

/// One row of the per-function overhead table of `run --stats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionOverhead {
    /// The function.
    pub function: String,
    /// Overhead instructions the waves executed.
    pub executed: gpuabi_codegen::Overhead,
    /// Overhead instructions in its code.
    pub listed: gpuabi_codegen::Overhead,
}

/// One row of the per-call-site table of `run --stats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SiteOverhead {
    /// Line and column of the call in the source.
    pub site: (usize, usize),
    /// The caller.
    pub caller: String,
    /// The callee.
    pub callee: String,
    /// Overhead instructions the waves executed for it.
    pub executed: gpuabi_codegen::Overhead,
    /// Overhead instructions it compiled to.
    pub listed: gpuabi_codegen::Overhead,
}

/// What the simulator did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SimulatorOut {
    /// Target name.
    pub target: String,
    /// Lanes per wave.
    pub wave: u32,
    /// The buffers afterwards.
    pub buffers: Vec<BufferOut>,
    /// Call returns checked against the callees' ABIs.
    pub checked_returns: u64,
    /// Contract violations (none in code gpuabi compiled, unless it has a bug).
    pub violations: Vec<Violation>,
    /// The `--stats` counts.
    pub stats: gpuabi_sim::Stats,
    /// Instruction class names, in the order of `stats.by_class`.
    pub classes: Vec<&'static str>,
    /// Per function: its call-ABI overhead.
    pub functions: Vec<FunctionOverhead>,
    /// Per call site: its call-ABI overhead.
    pub sites: Vec<SiteOverhead>,
}

/// The first byte where the two runs' buffers differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DifferenceOut {
    /// Buffer.
    pub buffer: String,
    /// Byte offset.
    pub offset: usize,
    /// The interpreter's byte.
    pub interpreter: u8,
    /// The compiled code's byte.
    pub simulator: u8,
}

/// What `run` gives: each run's result or failure, and their comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunResult {
    /// The kernel run.
    pub kernel: String,
    /// The interpreter's run, if asked for.
    pub interpreter: Option<Result<InterpreterOut, RunFailure>>,
    /// The simulator's run, if a target was given.
    pub simulator: Option<Result<SimulatorOut, RunFailure>>,
    /// Whether both ran and left the same bytes; `difference` says where not.
    pub identical: Option<bool>,
    /// The first differing byte.
    pub difference: Option<DifferenceOut>,
}

/// Runs the request.
pub fn run(req: &RunRequest) -> Result<RunResult, WebError> {
    let module = load(&req.source)?;
    let plain = program(&module, &req.source)?;
    let kernel = launch::choose_kernel(&plain, req.kernel.as_deref(), FILE)?;
    let limits = Limits::default();
    let flags = LaunchFlags {
        grid: Some(&req.grid),
        group: req.group.as_deref(),
        offset: req.offset.as_deref(),
        buffers: &req.buffers,
        args: &req.args,
    };
    let prepared = launch::prepare(&plain, &kernel, &flags, limits.max_memory_bytes, |f, _| {
        Err(format!(
            "the page has no files; give the buffer's size or its dwords (NAME=u32:V,...) instead of {f}"
        ))
    })?;
    let buffers: Vec<(String, Vec<u8>)> = prepared
        .memory
        .buffers
        .iter()
        .map(|b| (b.name.clone(), b.data.clone()))
        .collect();
    let compiled = match &req.target {
        Some(t) => {
            let opts = t.options()?;
            let calls = t.call_options()?;
            Some((compile_module(&module, &req.source, &opts, &calls)?, opts))
        }
        None => None,
    };
    // With compiled code, the interpreter's function pointers are the compiled code's
    // addresses, so that function pointers stored in memory compare equal too.
    let interp_program = match &compiled {
        Some((c, _)) => {
            let addrs =
                gpuabi_exec::function_addresses(&module, c).map_err(|e| WebError::Compile {
                    message: e.to_string(),
                    at: None,
                })?;
            gpuabi_ir::Program::with_function_addresses(&module, &addrs)
                .map_err(|_| WebError::Request("the module verified once but not twice".into()))?
        }
        None => plain,
    };
    let interpreter = req.interpreter.then(|| {
        let mut mem: Memory = prepared.memory.clone();
        interp_program
            .dispatch(
                &kernel,
                &prepared.args,
                &prepared.dispatch,
                &mut mem,
                &limits,
            )
            .map(|s| InterpreterOut {
                invocations: s.invocations,
                steps: s.steps,
                buffers: buffers_out(
                    &mem.buffers
                        .iter()
                        .map(|b| (b.name.clone(), b.data.clone()))
                        .collect::<Vec<_>>(),
                ),
            })
            .map_err(|e| match e {
                DispatchError::Run(r) => RunFailure {
                    message: r.render(FILE, &req.source),
                    at: Some(gpuabi_ir::diagnostic::line_col(
                        &req.source,
                        r.span.start as usize,
                    )),
                },
                other => RunFailure {
                    message: format!("--grid/--group: {other}"),
                    at: None,
                },
            })
    });
    let simulator = compiled.as_ref().map(|(c, opts)| {
        let sim_limits = gpuabi_sim::Limits {
            global_bytes: limits.max_memory_bytes.saturating_mul(2),
            ..gpuabi_sim::Limits::default()
        };
        gpuabi_exec::run(
            c,
            &kernel,
            &prepared.dispatch,
            &prepared.args,
            &buffers,
            &sim_limits,
        )
        .map(|out| (simulator_out(c, opts, &out, &req.source), out.buffers))
        .map_err(|e| {
            let at = match &e {
                gpuabi_exec::ExecError::Sim {
                    span: Some((s, _)), ..
                } => Some(gpuabi_ir::diagnostic::line_col(&req.source, *s as usize)),
                _ => None,
            };
            RunFailure {
                message: e.to_string(),
                at,
            }
        })
    });
    let (identical, difference) = match (&interpreter, &simulator) {
        (Some(Ok(i)), Some(Ok((_, sim_buffers)))) => {
            let expected: Vec<(String, Vec<u8>)> = i
                .buffers
                .iter()
                .map(|b| (b.name.clone(), unhex(&b.hex)))
                .collect();
            let d = gpuabi_exec::first_difference(&expected, sim_buffers).map(|d| DifferenceOut {
                buffer: d.buffer,
                offset: d.offset,
                interpreter: d.expected,
                simulator: d.actual,
            });
            (Some(d.is_none()), d)
        }
        _ => (None, None),
    };
    Ok(RunResult {
        kernel,
        interpreter,
        simulator: simulator.map(|r| r.map(|(s, _)| s)),
        identical,
        difference,
    })
}

fn unhex(hex: &str) -> Vec<u8> {
    hex.as_bytes()
        .chunks(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            d(p[0]) << 4 | d(p[1])
        })
        .collect()
}

fn simulator_out(
    c: &gpuabi_codegen::Compiled,
    opts: &gpuabi_codegen::Options,
    out: &gpuabi_exec::Outcome,
    source: &str,
) -> SimulatorOut {
    let violations = out
        .violations
        .iter()
        .map(|v| {
            let (function, at) = match &v.call_origin {
                gpuabi_amdgpu::Origin::Source {
                    function, start, ..
                } => (
                    Some(function.clone()),
                    Some(gpuabi_ir::diagnostic::line_col(source, *start as usize)),
                ),
                _ => (None, None),
            };
            Violation {
                message: v.to_string(),
                function,
                at,
                detail: v.clone(),
            }
        })
        .collect();
    let statics = c.site_overhead();
    SimulatorOut {
        target: opts.target.name().to_string(),
        wave: opts.wave.lanes(),
        buffers: buffers_out(&out.buffers),
        checked_returns: out.checked_returns,
        violations,
        stats: out.stats.clone(),
        classes: gpuabi_amdgpu::Class::ALL.iter().map(|k| k.name()).collect(),
        functions: c
            .functions
            .iter()
            .zip(&out.overhead)
            .map(|(f, d)| FunctionOverhead {
                function: f.name.clone(),
                executed: *d,
                listed: f.overhead,
            })
            .collect(),
        sites: c
            .calls
            .iter()
            .zip(&out.site_overhead)
            .zip(&statics)
            .map(|((k, d), s)| SiteOverhead {
                site: gpuabi_ir::diagnostic::line_col(source, k.origin.start as usize),
                caller: k.caller.clone(),
                callee: k.callee.clone(),
                executed: *d,
                listed: *s,
            })
            .collect(),
    }
}
