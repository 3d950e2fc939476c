//! `gpuabi radv run`: a captured RADV ray-tracing pipeline traced over its scene in the
//! simulator (`gpuabi_radv`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};

use super::launch_flags::{self, LaunchArgs};
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
    /// Print the instructions executed, per function and by class.
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
