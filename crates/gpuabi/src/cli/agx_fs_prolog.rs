//! `gpuabi agx fs-prolog --key KEY.toml`: generate the fragment prolog of a key.
//!
//! KEY.toml: `api_sample_mask` (0 to 255, default 255), `statistics`, `polygon_stipple`,
//! `run_zs_tests` (default false), `cull_distance_size` (0 to 8) and `cf_base` (the first
//! coefficient register of the cull distances; default 0). Unknown keys are errors.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::Args;
use gpuabi_agx::fs_prolog::{fragment_prolog, FsPrologKey, ALL_SAMPLES};
use toml::Table;

use super::agx_prolog::{check_keys, get_bool, get_u32, write_part, Part, PrologFormat};

/// Flags of `agx fs-prolog`.
#[derive(Debug, Args)]
pub struct FsPrologArgs {
    /// The fragment prolog key (TOML).
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    /// Where to write the output (standard output when left out).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format; `bin` when writing to a file with `-o`, `asm` on standard output.
    #[arg(long, value_enum)]
    format: Option<PrologFormat>,
}

fn byte(file: &str, t: &Table, key: &str, default: u8) -> anyhow::Result<u8> {
    let v = get_u32(file, "", t, key, Some(u32::from(default)))?;
    u8::try_from(v).map_err(|_| anyhow!("{file}: {key}: {v} (expected 0 to 255)"))
}

/// Parses a fragment prolog key file.
pub fn parse_key(file: &str, text: &str) -> anyhow::Result<FsPrologKey> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    check_keys(
        file,
        "",
        &t,
        &[
            "api_sample_mask",
            "statistics",
            "polygon_stipple",
            "run_zs_tests",
            "cull_distance_size",
            "cf_base",
        ],
    )?;
    Ok(FsPrologKey {
        api_sample_mask: byte(file, &t, "api_sample_mask", ALL_SAMPLES)?,
        statistics: get_bool(file, "", &t, "statistics", false)?,
        polygon_stipple: get_bool(file, "", &t, "polygon_stipple", false)?,
        run_zs_tests: get_bool(file, "", &t, "run_zs_tests", false)?,
        cull_distance_size: byte(file, &t, "cull_distance_size", 0)?,
        cf_base: byte(file, &t, "cf_base", 0)?,
    })
}

/// Runs `agx fs-prolog`.
pub fn fs_prolog(a: FsPrologArgs) -> anyhow::Result<()> {
    let name = a.key.display().to_string();
    let text = super::read_text(&a.key).with_context(|| format!("{name}: cannot read the file"))?;
    let key = parse_key(&name, &text)?;
    let prolog = fragment_prolog(&key).map_err(|e| anyhow!("{name}: {e}"))?;
    write_part(
        a.format,
        a.output.as_deref(),
        &Part {
            code: &prolog.code,
            text: &prolog.text,
            gpr_halves: prolog.gpr_halves,
            reads: &prolog.reads,
            writes: &prolog.writes,
        },
    )
}
