//! `gpuabi run`: run a kernel of a `.gsir` file in the reference interpreter, or compiled
//! for a target in the simulator (`--target`), or both, comparing their memory
//! (`--compare`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use gpuabi_exec::launch;
use gpuabi_ir::interp::{Limits, Memory, Program};

use super::compile::{compile_module, TargetArgs};
use super::ir::load_with_source;
use super::launch_flags::{self, LaunchArgs};
use super::write_output;

/// Flags of `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The `.gsir` file.
    file: PathBuf,
    /// Kernel to run (default: the only kernel of the file).
    #[arg(long)]
    kernel: Option<String>,
    #[command(flatten)]
    launch: LaunchArgs,
    /// Instructions per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_steps, value_parser = launch_flags::limit)]
    max_steps: u64,
    /// Nested calls per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_call_depth, value_parser = launch_flags::limit32)]
    max_call_depth: u32,
    /// Stack-array bytes per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_stack_bytes, value_parser = launch_flags::limit32)]
    max_stack_bytes: u32,
    /// Bytes of all buffers together.
    #[arg(long, default_value_t = Limits::default().max_memory_bytes, value_parser = launch_flags::limit)]
    max_memory: u64,
    /// Invocations per dispatch.
    #[arg(long, default_value_t = Limits::default().max_invocations, value_parser = launch_flags::limit)]
    max_invocations: u64,
    #[command(flatten)]
    target: TargetArgs,
    /// With --target: also run the interpreter and fail at the first byte where the two
    /// runs' buffers differ.
    #[arg(long)]
    compare: bool,
    /// With --target: print the simulator's dynamic counts.
    #[arg(long)]
    stats: bool,
}

/// Runs the `run` command.
pub fn run(a: RunArgs) -> Result<()> {
    let (module, source) = load_with_source(&a.file)?;
    let program = Program::new(&module).map_err(|e| anyhow!("{e}"))?;
    let file = a.file.display().to_string();
    let kernel = launch::choose_kernel(&program, a.kernel.as_deref(), &file)?;
    let limits = Limits {
        max_steps: a.max_steps,
        max_call_depth: a.max_call_depth,
        max_stack_bytes: a.max_stack_bytes,
        max_memory_bytes: a.max_memory,
        max_invocations: a.max_invocations,
    };
    let launch = &a.launch;
    launch.check_outputs()?;
    let flags = launch::LaunchFlags {
        grid: launch.grid.as_deref(),
        group: launch.group.as_deref(),
        offset: launch.offset.as_deref(),
        buffers: &launch.buffers,
        args: &launch.args,
    };
    let launch::Prepared {
        dispatch,
        memory: mut mem,
        args,
    } = launch::prepare(
        &program,
        &kernel,
        &flags,
        limits.max_memory_bytes,
        launch_flags::read_buffer_file,
    )?;
    let names: Vec<&str> = mem.buffers.iter().map(|b| b.name.as_str()).collect();
    launch.check_buffers(&names)?;

    let opts = a.target.options()?;
    if opts.is_none() && (a.compare || a.stats) {
        bail!("--compare and --stats compare or count compiled code: add --target");
    }
    let interpret = |program: &gpuabi_ir::Program, mem: &mut Memory| -> Result<()> {
        let stats = program
            .dispatch(&kernel, &args, &dispatch, mem, &limits)
            .map_err(|e| match e {
                gpuabi_ir::interp::DispatchError::Run(r) => {
                    anyhow!("{}", r.render(&a.file.display().to_string(), &source))
                }
                e @ gpuabi_ir::interp::DispatchError::TooManyInvocations { .. } => {
                    anyhow!("--grid: {e} (--max-invocations)")
                }
                other => anyhow!("--grid/--group: {other}"),
            })?;
        eprintln!(
            "ran @{kernel}: {} invocation(s), {} instruction(s)",
            stats.invocations, stats.steps
        );
        Ok(())
    };
    match opts {
        None => interpret(&program, &mut mem)?,
        Some(opts) => {
            let calls = a.target.call_options()?;
            let compiled = compile_module(&module, &opts, &calls, &a.file, &source)?;
            let buffers: Vec<(String, Vec<u8>)> = mem
                .buffers
                .iter()
                .map(|b| (b.name.clone(), b.data.clone()))
                .collect();
            let sim_limits = gpuabi_sim::Limits {
                global_bytes: limits.max_memory_bytes.saturating_mul(2),
                ..gpuabi_sim::Limits::default()
            };
            let out = gpuabi_exec::run(&compiled, &kernel, &dispatch, &args, &buffers, &sim_limits)
                .map_err(|e| {
                    let found = match &e {
                        gpuabi_exec::ExecError::Sim { violations, .. } => {
                            violations_text(violations, &file, &source)
                        }
                        _ => String::new(),
                    };
                    match &e {
                        gpuabi_exec::ExecError::Sim {
                            span: Some((s, t)), ..
                        } => {
                            let d = gpuabi_ir::Diagnostic::new(
                                e.to_string(),
                                gpuabi_ir::ir::Span { start: *s, end: *t },
                                "compiled from here",
                            );
                            anyhow!("{}{found}", d.render(&file, &source))
                        }
                        _ => anyhow!("{}: {e}{found}", opts.target.name()),
                    }
                })?;
            if !out.violations.is_empty() {
                bail!(
                    "the compiled code broke its call contracts{}",
                    violations_text(&out.violations, &file, &source)
                );
            }
            if !compiled.calls.is_empty() {
                eprintln!(
                    "contract: {} call return(s) checked against their callees' ABIs, no violation",
                    out.checked_returns
                );
            }
            eprintln!(
                "ran @{kernel} compiled for {} {}: {} wave(s), {} instruction(s)",
                opts.target.name(),
                opts.wave,
                out.stats.waves,
                out.stats.instructions()
            );
            if a.stats {
                write_output(&launch_flags::stats_text(&out.stats))?;
                if !compiled.calls.is_empty() {
                    write_output(&overhead_table(&compiled, &out.overhead))?;
                    let file = a.file.display().to_string();
                    write_output(&site_table(&compiled, &out.site_overhead, &file, &source))?;
                }
            }
            if a.compare {
                // The interpreter's function pointers are the compiled code's addresses.
                let addrs = gpuabi_exec::function_addresses(&module, &compiled)
                    .map_err(|e| anyhow!("{e}"))?;
                let at = gpuabi_ir::Program::with_function_addresses(&module, &addrs)
                    .map_err(|e| anyhow!("{e}"))?;
                interpret(&at, &mut mem)?;
                let expected: Vec<(String, Vec<u8>)> = mem
                    .buffers
                    .iter()
                    .map(|b| (b.name.clone(), b.data.clone()))
                    .collect();
                if let Some(d) = gpuabi_exec::first_difference(&expected, &out.buffers) {
                    bail!(
                        "--compare: buffer `{}` differs at byte {}: interpreter {:#04x}, compiled {:#04x}",
                        d.buffer,
                        d.offset,
                        d.expected,
                        d.actual
                    );
                }
                eprintln!("--compare: every buffer is identical");
            }
            for (b, (_, data)) in mem.buffers.iter_mut().zip(out.buffers) {
                b.data = data;
            }
        }
    }
    let names: Vec<String> = mem.buffers.iter().map(|b| b.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    launch.write_outputs(|name| mem.buffer(name).map(|b| b.data.as_slice()), &names)
}

/// The contract violations of a run, one a line, with the source position of each call
/// (`FILE:LINE:COLUMN`, in the calling function).
fn violations_text(v: &[gpuabi_sim::ContractViolation], file: &str, source: &str) -> String {
    let mut out = String::new();
    if v.is_empty() {
        return out;
    }
    let _ = write!(out, "\n{} contract violation(s):", v.len());
    for x in v.iter().take(20) {
        let at = match &x.call_origin {
            gpuabi_amdgpu::Origin::Source {
                function, start, ..
            } => {
                let before = &source[..(*start as usize).min(source.len())];
                let line = before.matches('\n').count() + 1;
                let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{file}:{line}:{col} (in @{function}): ")
            }
            _ => String::new(),
        };
        let _ = write!(out, "\n  {at}{x}");
    }
    if v.len() > 20 {
        let _ = write!(out, "\n  ... and {} more", v.len() - 20);
    }
    out
}

/// The call-ABI overhead of a compiled run per function: what each function is called
/// under, the preserved registers it saves, and the overhead instructions the waves
/// executed by kind (the static count of each kind in brackets).
fn overhead_table(c: &gpuabi_codegen::Compiled, dynamic: &[gpuabi_codegen::Overhead]) -> String {
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::ASCII_MARKDOWN);
    t.set_header([
        "function",
        "ABI",
        "calls",
        "saved s/v",
        "frame B",
        "callee saves",
        "param copies",
        "linkage",
        "spills",
        "total",
    ]);
    let mut sum = gpuabi_codegen::Overhead::default();
    for (f, d) in c.functions.iter().zip(dynamic) {
        let s = &f.overhead;
        let cell = |dy: u64, st: u64| format!("{dy} [{st}]");
        t.add_row([
            f.name.clone(),
            f.abi.clone().unwrap_or_else(|| "kernel".into()),
            match &f.tail_call {
                Some(callee) => format!("{} + tail {callee}", f.calls),
                None => f.calls.to_string(),
            },
            format!("{}/{}", f.saved_sgprs, f.saved_vgprs),
            f.scratch_bytes.to_string(),
            cell(d.callee_saves, s.callee_saves),
            cell(d.parameter_copies, s.parameter_copies),
            cell(d.call_linkage, s.call_linkage),
            cell(d.spills, s.spills),
            cell(d.total(), s.total()),
        ]);
        sum.callee_saves += d.callee_saves;
        sum.parameter_copies += d.parameter_copies;
        sum.call_linkage += d.call_linkage;
        sum.spills += d.spills;
    }
    t.add_row([
        "all".to_string(),
        String::new(),
        c.calls.len().to_string(),
        String::new(),
        String::new(),
        sum.callee_saves.to_string(),
        sum.parameter_copies.to_string(),
        sum.call_linkage.to_string(),
        sum.spills.to_string(),
        sum.total().to_string(),
    ]);
    format!("call-ABI overhead, wave instructions executed [static instructions]:\n{t}\n")
}

/// The call-ABI overhead of a compiled run per call site: where it is, what it calls, and
/// the overhead instructions it compiled to that the waves executed, by kind (the static
/// count in brackets). The callee's own saves are in the function table.
fn site_table(
    c: &gpuabi_codegen::Compiled,
    dynamic: &[gpuabi_codegen::Overhead],
    file: &str,
    source: &str,
) -> String {
    let statics = c.site_overhead();
    let rows: Vec<SiteRow> = c
        .calls
        .iter()
        .zip(dynamic)
        .zip(&statics)
        .map(|((k, d), s)| {
            let (line, col) = gpuabi_ir::diagnostic::line_col(source, k.origin.start as usize);
            SiteRow {
                site: format!("{file}:{line}:{col}"),
                caller: k.caller.clone(),
                callee: k.callee.clone(),
                calls: None,
                executed: *d,
                listed: *s,
            }
        })
        .collect();
    call_site_table(&rows)
}

/// One row of [`call_site_table`].
pub(super) struct SiteRow {
    /// Where the call is.
    pub site: String,
    /// The function making it.
    pub caller: String,
    /// What it calls.
    pub callee: String,
    /// Times it ran, where the table shows that.
    pub calls: Option<u64>,
    /// Overhead instructions the waves executed, by kind.
    pub executed: gpuabi_codegen::Overhead,
    /// Overhead instructions in the code, by kind.
    pub listed: gpuabi_codegen::Overhead,
}

/// The per-call-site table of `run --stats` and `radv run --stats`: each site's overhead
/// instructions executed by kind, the static count in brackets (and the times it ran, when
/// the rows have them).
pub(super) fn call_site_table(rows: &[SiteRow]) -> String {
    let with_calls = rows.iter().any(|r| r.calls.is_some());
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::ASCII_MARKDOWN);
    let mut header = vec!["call site", "caller", "callee"];
    if with_calls {
        header.push("calls");
    }
    header.extend(["param copies", "linkage", "spills", "total"]);
    t.set_header(header);
    for r in rows {
        let (d, s) = (&r.executed, &r.listed);
        let cell = |dy: u64, st: u64| format!("{dy} [{st}]");
        let mut row = vec![r.site.clone(), r.caller.clone(), r.callee.clone()];
        if with_calls {
            row.push(r.calls.map_or_else(String::new, |n| n.to_string()));
        }
        row.extend([
            cell(d.parameter_copies, s.parameter_copies),
            cell(d.call_linkage, s.call_linkage),
            cell(d.spills, s.spills),
            cell(d.total(), s.total()),
        ]);
        t.add_row(row);
    }
    format!("per call site, wave instructions executed [static instructions]:\n{t}\n")
}
