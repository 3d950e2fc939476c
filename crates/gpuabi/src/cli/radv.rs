//! `gpuabi radv run`: a captured RADV ray-tracing pipeline traced over its scene in the
//! simulator (`gpuabi_radv`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};

use super::launch_flags::{self, LaunchArgs};
use super::run::{call_site_table, SiteRow};
use super::{write_output, TextFormat};

/// `gpuabi radv`.
#[derive(Debug, Subcommand)]
pub enum RadvCommand {
    /// Trace a scene with RADV's compiled code: a capture directory of
    /// `tools/mesa/capture-rt` (e.g. testdata/mesa/rt/triangles/navi21).
    Run(RunArgs),
}

/// Flags of `radv run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The capture's GPU directory (the scene's files are found in its parent).
    dir: PathBuf,
    /// Write the output buffer as a PNG: each 16-byte record's first 4 bytes as RGBA8.
    #[arg(long, value_name = "FILE")]
    png: Option<String>,
    /// Print the output buffer (`out`) as hex, u32, i32 or f32, to standard output or to
    /// FILE; `bin` writes the raw bytes to FILE.
    #[arg(long = "dump", value_name = "out[:FORMAT[:FILE]]")]
    dumps: Vec<String>,
    /// Print the instructions executed, per function and by class, and per call site the
    /// call-ABI overhead (parameter copies, linkage, spills) under the callee's ACO ABI.
    #[arg(long)]
    stats: bool,
    /// Instructions one wave may execute.
    #[arg(long, default_value_t = 10_000_000, value_parser = launch_flags::limit)]
    max_instructions: u64,
    /// Output format of the summary: text or json.
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    format: TextFormat,
}

/// Runs `gpuabi radv`.
pub fn run(cmd: RadvCommand) -> Result<()> {
    match cmd {
        RadvCommand::Run(a) => run_trace(&a),
    }
}

fn run_trace(a: &RunArgs) -> Result<()> {
    let outputs = LaunchArgs {
        grid: None,
        group: None,
        offset: None,
        buffers: Vec::new(),
        args: Vec::new(),
        dumps: a.dumps.clone(),
        pngs: Vec::new(),
    };
    outputs.check_outputs()?;
    outputs.check_buffers(&["out"])?;
    let capture = gpuabi_radv::Capture::read(&a.dir)?;
    let options = gpuabi_radv::Options {
        max_instructions: a.max_instructions,
    };
    let trace = gpuabi_radv::run(&capture, &options).map_err(|e| anyhow!("{e}"))?;
    let [w, h] = capture.scene.size;
    match a.format {
        TextFormat::Text => {
            let mut out = format!(
                "{}: {} ({}) traced {w}x{h}: {} waves, {} wave instructions; {} call(s), contract checked, no violation\n",
                a.dir.display(),
                capture.chip,
                capture.gfx,
                trace.stats.waves,
                trace.stats.instructions(),
                trace.calls,
            );
            if a.stats {
                out.push_str("per function, wave instructions executed:\n");
                for (name, n) in &trace.per_function {
                    let _ = writeln!(out, "  {name:<30} {n}");
                }
                out.push_str(&launch_flags::stats_text(&trace.stats));
                out.push_str(&site_text(&trace.call_sites));
            }
            write_output(&out)?;
        }
        TextFormat::Json => {
            let per: serde_json::Map<String, serde_json::Value> = trace
                .per_function
                .iter()
                .map(|(n, c)| (n.clone(), serde_json::json!(c)))
                .collect();
            let v = serde_json::json!({
                "dir": a.dir.display().to_string(),
                "chip": capture.chip,
                "width": w,
                "height": h,
                "waves": trace.stats.waves,
                "instructions": trace.stats.instructions(),
                "lane_instructions": trace.stats.lane_instructions,
                "calls": trace.calls,
                "violations": 0,
                "per_function": per,
                "call_sites": trace.call_sites,
                "call_sites_classified": CLASSIFIED,
            });
            write_output(&serde_json::to_string_pretty(&v)?)?;
        }
    }
    outputs.write_outputs(
        |n| (n == "out").then_some(trace.output.as_slice()),
        &["out"],
    )?;
    if let Some(file) = &a.png {
        let rgba: Vec<u8> = trace
            .output
            .chunks(16)
            .flat_map(|r| r[..4].to_vec())
            .collect();
        launch_flags::write_png(&format!("--png {file}"), file, w, h, &rgba)?;
        eprintln!("wrote {file} ({w}x{h})");
    }
    Ok(())
}

/// How the overhead of RADV's code is found, printed with it: ACO's listing does not mark
/// which instruction pays for the call ABI, as gpuabi's code generator does for its own code.
const CLASSIFIED: &str = "ACO's listing does not mark which instructions pay for the call \
     ABI (gpuabi's code generator does, for its own code); these are classified from the code \
     around each call under its callee's ACO ABI (crates/gpuabi-radv/src/call_sites.rs)";

/// The per-call-site table of a trace, with how its overhead was found.
fn site_text(sites: &[gpuabi_radv::call_sites::SiteStats]) -> String {
    let rows: Vec<SiteRow> = sites
        .iter()
        .map(|s| SiteRow {
            site: s.site.clone(),
            caller: s.caller.clone(),
            callee: if s.callees.is_empty() {
                "(not reached)".into()
            } else {
                let names: Vec<&str> = s.callees.iter().map(|c| c.function.as_str()).collect();
                format!("{} ({})", names.join(", "), s.abi.as_deref().unwrap_or("?"))
            },
            calls: Some(s.calls),
            executed: s.executed,
            listed: s.listed,
        })
        .collect();
    format!("{}note: {CLASSIFIED}\n", call_site_table(&rows))
}
