//! `gpuabi agx run fragment`: link a fragment prolog (optional), the main fragment shader
//! and the epilog with the part linker, and run the program over a tile of pixels and
//! samples in the simulator, checking the contract at every boundary
//! (`gpuabi_agx_exec::fragment` runs it; its rules are stated there).
//!
//! The input files are described in `agx_fragment_files.rs`. `--png rtN:WxH[:FILE]` reads
//! render target N from the tile: the tile buffer places targets in index order and render
//! target 0 (at most 16 bytes a sample) always fits, so it is never spilled; a spilled one
//! is refused.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::Args;
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey};
use gpuabi_agx::fs_prolog::fragment_prolog;
use gpuabi_agx_exec::fragment::{FragmentOutcome, Parts};
use gpuabi_agx_exec::rt_rgba;
use gpuabi_agx_exec::{FragmentProgram, Names, Tile};

use super::agx_fragment_files::{key_blend_constant, parse_draw, parse_outputs};
use super::agx_key::{fragment_prolog_key_of, key_text, KeyPart};
use super::agx_part_file::read_code;
use super::agx_run::RunFormat;
use super::agx_stats::{stats_json, stats_text};
use super::write_output;

/// Flags of `agx run fragment`.
#[derive(Debug, Args)]
pub struct RunFragmentArgs {
    /// The epilog key (TOML, as `agx epilog` reads it).
    #[arg(long, value_name = "KEY.toml", required_unless_present = "from_vulkan")]
    key: Option<PathBuf>,
    /// A Vulkan draw (JSON, as `agx key --from-vulkan` reads it) whose keys Honeykrisp would
    /// build: the epilog's, and the fragment prolog's when it compiles one and no
    /// `--prolog`/`--prolog-key` is given.
    #[arg(long = "from-vulkan", value_name = "DRAW.json", conflicts_with = "key")]
    from_vulkan: Option<PathBuf>,
    /// The user's own epilog instead of the generated one: assembly (`.s`) or machine
    /// code, such as Mesa's.
    #[arg(long, value_name = "FILE")]
    epilog: Option<PathBuf>,
    /// A fragment prolog generated from this key (TOML, as `agx fs-prolog` reads it).
    #[arg(long, value_name = "KEY.toml", conflicts_with = "prolog")]
    prolog_key: Option<PathBuf>,
    /// The user's own fragment prolog: assembly (`.s`) or machine code.
    #[arg(long, value_name = "FILE")]
    prolog: Option<PathBuf>,
    /// The main fragment shader: assembly (`.s`) or machine code (main section).
    #[arg(long, value_name = "FILE", conflicts_with = "outputs")]
    main: Option<PathBuf>,
    /// The registers the main shader leaves, per pixel and sample (JSON), to run the epilog
    /// alone.
    #[arg(long, value_name = "OUTPUTS.json")]
    outputs: Option<PathBuf>,
    /// The tile (TOML).
    #[arg(long, value_name = "DRAW.toml")]
    draw: PathBuf,
    /// Write render target N (`rtN`, of the tile's size WxH) as 8-bit RGBA to a PNG file,
    /// by default rtN.png; the same syntax as `run --png`.
    #[arg(long, value_name = "rtN:WxH[:FILE]")]
    png: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: RunFormat,
    /// Also print the instructions run per part by kind and the tile/memory traffic.
    #[arg(long)]
    stats: bool,
}

/// Runs `agx run fragment`.
pub fn run_fragment(a: RunFragmentArgs) -> anyhow::Result<()> {
    let (kname, ktext) = key_text(
        a.key.as_deref(),
        a.from_vulkan.as_deref(),
        KeyPart::FragmentEpilog,
    )?;
    let key: EpilogKey = super::agx_epilog::parse_key(&kname, &ktext)?;
    let dname = a.draw.display().to_string();
    let dtext =
        super::read_text(&a.draw).with_context(|| format!("{dname}: cannot read the file"))?;
    let draw = parse_draw(&dname, &dtext)?;
    let samples = u32::from(key.samples);
    let names = Names {
        key: kname.clone(),
        draw: dname,
    };
    let tile = Tile::new(&key, &draw, &names)?;

    // Parts.
    let epilog = match &a.epilog {
        Some(p) => read_code("--epilog", p, true)?,
        None => {
            fragment_epilog(&key)
                .map_err(|e| anyhow!("{kname}: {e}"))?
                .code
        }
    };
    let prolog = match (&a.prolog, &a.prolog_key) {
        (Some(p), _) => Some(read_code("--prolog", p, false)?),
        (None, Some(k)) => {
            let name = k.display().to_string();
            let text = super::read_text(k)
                .with_context(|| format!("--prolog-key {name}: cannot read the file"))?;
            let pk = super::agx_fs_prolog::parse_key(&name, &text)?;
            Some(
                fragment_prolog(&pk)
                    .map_err(|e| anyhow!("{name}: {e}"))?
                    .code,
            )
        }
        (None, None) => match &a.from_vulkan {
            // Honeykrisp binds a fragment prolog only for some draws (a sample mask).
            Some(draw) => match fragment_prolog_key_of(draw)? {
                Some(pk) => Some(
                    fragment_prolog(&pk)
                        .map_err(|e| anyhow!("{}: {e}", draw.display()))?
                        .code,
                ),
                None => None,
            },
            None => None,
        },
    };
    let (main, outputs) = match (&a.main, &a.outputs) {
        (Some(p), _) => (read_code("--main", p, false)?, None),
        (None, Some(p)) => {
            let name = p.display().to_string();
            let text = super::read_text(p)
                .with_context(|| format!("--outputs {name}: cannot read the file"))?;
            let o = parse_outputs(&name, &text, draw.width, draw.height, samples)?;
            (Vec::new(), Some((name, o)))
        }
        (None, None) => bail!("one of --main FILE or --outputs OUTPUTS.json is required"),
    };
    let program = FragmentProgram::link(
        &key,
        &kname,
        Parts {
            prolog: prolog.as_deref(),
            main: &main,
            epilog: &epilog,
        },
    )?;
    let blend = key_blend_constant(&kname, &ktext)?.unwrap_or([0.0; 4]);
    let out = tile.run(
        &program,
        outputs.as_ref().map(|(n, o)| (n.as_str(), o)),
        blend,
        a.stats,
    )?;

    if let Some(flag) = &a.png {
        write_png(flag, &key, &draw, &out, &kname)?;
    }
    let text = match a.format {
        RunFormat::Json => serde_json::to_string_pretty(&fragment_json(&out, &program))? + "\n",
        RunFormat::Text => fragment_text(&out, &program),
    };
    write_output(&text)?;
    if !out.violations.is_empty() {
        bail!("{} contract violation(s)", out.violations.len());
    }
    Ok(())
}

/// `--png rtN:WxH[:FILE]`: render target N of the tile as 8-bit RGBA.
fn write_png(
    flag: &str,
    key: &EpilogKey,
    draw: &gpuabi_agx_exec::FragmentDraw,
    out: &FragmentOutcome,
    kname: &str,
) -> anyhow::Result<()> {
    let p = super::launch_flags::png_flag(flag)?;
    let rt = p
        .name
        .strip_prefix("rt")
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n < 8)
        .ok_or_else(|| {
            anyhow!(
                "--png {flag}: `{}` is not a render target; expected rt0 to rt7",
                p.name
            )
        })?;
    if (p.width, p.height) != (draw.width, draw.height) {
        bail!(
            "--png {flag}: the tile is {}x{}, not {}x{}",
            draw.width,
            draw.height,
            p.width,
            p.height
        );
    }
    let format = key
        .rts
        .get(rt)
        .and_then(|r| r.as_ref())
        .ok_or_else(|| anyhow!("--png {flag}: {kname} binds no render target {rt}"))?;
    let rgba = rt_rgba(&out.fragment, &out.layout, rt, &format.format)
        .map_err(|e| anyhow!("--png {flag}: {e}"))?;
    super::launch_flags::write_png(
        &format!("--png {flag}"),
        &p.file,
        draw.width,
        draw.height,
        &rgba,
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `{"pixels": [...], "violations": [...], "link_warnings": [...]}`, with the invocation
/// counter when a prolog counts and the statistics when asked for.
fn fragment_json(out: &FragmentOutcome, program: &FragmentProgram) -> serde_json::Value {
    let pixels: Vec<serde_json::Value> = out
        .samples
        .iter()
        .map(|p| {
            let rt: Vec<Option<String>> = p.rt.iter().map(|r| r.as_deref().map(hex)).collect();
            serde_json::json!({
                "x": p.x,
                "y": p.y,
                "sample": p.sample,
                "covered": p.covered,
                "rt": rt,
                "depth": p.depth,
                "stencil": p.stencil,
            })
        })
        .collect();
    let mut v = serde_json::json!({
        "pixels": pixels,
        "violations": out.violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        "link_warnings": program.linked.warnings,
    });
    if program.has_prolog {
        v["invocation_counter"] = out.counter.into();
    }
    if let Some(stats) = &out.stats {
        v["stats"] = stats_json(stats);
    }
    v
}

/// One line per pixel and sample, then the counter, statistics, link warnings and
/// violations.
fn fragment_text(out: &FragmentOutcome, program: &FragmentProgram) -> String {
    let mut s = String::new();
    for p in &out.samples {
        let rts: Vec<String> =
            p.rt.iter()
                .enumerate()
                .filter_map(|(i, r)| r.as_ref().map(|r| format!("rt{i}={}", hex(r))))
                .collect();
        s += &format!(
            "pixel ({}, {}) sample {}: {}",
            p.x,
            p.y,
            p.sample,
            rts.join(" ")
        );
        if !p.covered {
            s += " (killed)";
        }
        if let Some(d) = p.depth {
            s += &format!(" depth={d}");
        }
        if let Some(t) = p.stencil {
            s += &format!(" stencil={t}");
        }
        s.push('\n');
    }
    if program.has_prolog {
        s += &format!("fragment invocations counted: {}\n", out.counter);
    }
    if let Some(stats) = &out.stats {
        s += &stats_text(stats);
    }
    for w in &program.linked.warnings {
        s += &format!("link warning: {w}\n");
    }
    for v in &out.violations {
        s += &format!("violation: {v}\n");
    }
    s
}
