//! `gpuabi agx epilog --key KEY.toml`: generate the fragment epilog of a key.
//!
//! KEY.toml: `samples` (default 1), `sample_shading`, `write_z`, `write_s`,
//! `alpha_to_coverage`, `alpha_to_one` (default false), `logic_op` (default `copy`),
//! `blend_constant = [r, g, b, a]`, `sample_mask_after_force_early`, `loc0_w_1`,
//! `broadcast_rt0` (default false), and `[[rt]]` tables with `format`, `location` (default
//! the table's index), `size` (16 or 32, default 32), `colormask` (a subset of `"rgba"`,
//! default all) and an optional `[rt.blend]`. `logic_op` left out turns logic ops off; any
//! name, `copy` included, turns them on (blending then no longer applies, as in Mesa).
//! `blend_constant` is checked but not part of the code: the epilog reads the constant
//! from the uniforms at run time.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::Args;
use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation, LogicOp};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::prolog::register_use;
use toml::{Table, Value};

use super::agx_prolog::{check_keys, get_bool, get_str, get_u32, write_part, Part, PrologFormat};

/// Flags of `agx epilog`.
#[derive(Debug, Args)]
pub struct EpilogArgs {
    /// The epilog key (TOML).
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    /// Where to write the output (standard output when left out).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format; `bin` when writing to a file with `-o`, `asm` on standard output.
    #[arg(long, value_enum)]
    format: Option<PrologFormat>,
}

/// The name of a blend function as the ABI engine serializes it (`reverse_subtract`).
fn func_name(x: BlendFunc) -> String {
    let v = serde_json::to_value(x).unwrap_or_default();
    v.as_str().unwrap_or_default().to_string()
}

/// The name of a blend factor as the ABI engine serializes it (`one_minus_src_alpha`).
fn factor_name(x: BlendFactor) -> String {
    let v = serde_json::to_value(x).unwrap_or_default();
    v.as_str().unwrap_or_default().to_string()
}

/// The name of a logic op as the ABI engine serializes it (`and_inverted`).
fn logic_op_name(x: LogicOp) -> String {
    let v = serde_json::to_value(x).unwrap_or_default();
    v.as_str().unwrap_or_default().to_string()
}

/// `[rt.blend]`: `rgb_func`, `rgb_src`, `rgb_dst`, `alpha_func`, `alpha_src`, `alpha_dst`
/// (defaults: `add`, `one`, `zero`).
fn parse_blend(file: &str, at: &str, t: &Table) -> anyhow::Result<[Equation; 2]> {
    let keys = [
        "rgb_func",
        "rgb_src",
        "rgb_dst",
        "alpha_func",
        "alpha_src",
        "alpha_dst",
    ];
    check_keys(file, at, t, &keys)?;
    let func = |k: &str| -> anyhow::Result<BlendFunc> {
        let Some(n) = get_str(file, at, t, k)? else {
            return Ok(BlendFunc::Add);
        };
        BlendFunc::ALL
            .into_iter()
            .find(|f| func_name(*f) == n)
            .ok_or_else(|| {
                let names: Vec<String> = BlendFunc::ALL.into_iter().map(func_name).collect();
                anyhow!(
                    "{file}: {at}{k}: `{n}` (expected one of {})",
                    names.join(", ")
                )
            })
    };
    let factor = |k: &str, default: BlendFactor| -> anyhow::Result<BlendFactor> {
        let Some(n) = get_str(file, at, t, k)? else {
            return Ok(default);
        };
        BlendFactor::all()
            .find(|f| factor_name(*f) == n)
            .ok_or_else(|| {
                let names: Vec<String> = BlendFactor::all().map(factor_name).collect();
                anyhow!(
                    "{file}: {at}{k}: `{n}` (expected one of {})",
                    names.join(", ")
                )
            })
    };
    Ok([
        Equation {
            func: func("rgb_func")?,
            src: factor("rgb_src", BlendFactor::One)?,
            dst: factor("rgb_dst", BlendFactor::Zero)?,
        },
        Equation {
            func: func("alpha_func")?,
            src: factor("alpha_src", BlendFactor::One)?,
            dst: factor("alpha_dst", BlendFactor::Zero)?,
        },
    ])
}

/// Parses an epilog key file.
pub fn parse_key(file: &str, text: &str) -> anyhow::Result<EpilogKey> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    check_keys(
        file,
        "",
        &t,
        &[
            "samples",
            "sample_shading",
            "write_z",
            "write_s",
            "alpha_to_coverage",
            "alpha_to_one",
            "logic_op",
            "blend_constant",
            "sample_mask_after_force_early",
            "loc0_w_1",
            "broadcast_rt0",
            "rt",
        ],
    )?;
    let samples = get_u32(file, "", &t, "samples", Some(1))?;
    let samples = u8::try_from(samples)
        .ok()
        .filter(|s| matches!(s, 1 | 2 | 4))
        .ok_or_else(|| anyhow!("{file}: samples: {samples} (expected 1, 2 or 4)"))?;
    let logic_op = match get_str(file, "", &t, "logic_op")? {
        None => None,
        Some(n) => Some(
            LogicOp::ALL
                .into_iter()
                .find(|op| logic_op_name(*op) == n)
                .ok_or_else(|| {
                    let names: Vec<String> = LogicOp::ALL.into_iter().map(logic_op_name).collect();
                    anyhow!(
                        "{file}: logic_op: `{n}` (expected one of {})",
                        names.join(", ")
                    )
                })?,
        ),
    };
    if let Some(v) = t.get("blend_constant") {
        let ok = v
            .as_array()
            .is_some_and(|a| a.len() == 4 && a.iter().all(|x| x.is_float() || x.is_integer()));
        if !ok {
            bail!("{file}: blend_constant: expected four numbers [r, g, b, a]");
        }
    }
    let list = match t.get("rt") {
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => bail!("{file}: rt: expected [[rt]] tables"),
    };
    if list.len() > 8 {
        bail!("{file}: rt: {} render targets (at most 8)", list.len());
    }
    let mut rts = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let at = format!("rt[{i}].");
        let Value::Table(r) = v else {
            bail!("{file}: rt[{i}]: expected a table");
        };
        check_keys(
            file,
            &at,
            r,
            &["format", "location", "size", "colormask", "blend"],
        )?;
        let format = get_str(file, &at, r, "format")?
            .ok_or_else(|| anyhow!("{file}: {at}format: missing (expected a pipe-format name)"))?;
        let location = get_u32(file, &at, r, "location", Some(i as u32))?;
        let location = u8::try_from(location)
            .ok()
            .filter(|l| *l < 8)
            .ok_or_else(|| anyhow!("{file}: {at}location: {location} (expected 0 to 7)"))?;
        let size = get_u32(file, &at, r, "size", Some(32))?;
        if !matches!(size, 16 | 32) {
            bail!("{file}: {at}size: {size} (expected 16 or 32)");
        }
        let mut colormask = 0u8;
        for ch in get_str(file, &at, r, "colormask")?
            .unwrap_or("rgba")
            .chars()
        {
            let bit = "rgba".find(ch).ok_or_else(|| {
                anyhow!("{file}: {at}colormask: `{ch}` (expected a subset of \"rgba\")")
            })?;
            colormask |= 1 << bit;
        }
        let blend = match r.get("blend") {
            None => None,
            Some(Value::Table(b)) => Some(parse_blend(file, &format!("{at}blend."), b)?),
            Some(_) => bail!("{file}: {at}blend: expected a table"),
        };
        rts.push(Some(EpilogRt {
            format: format.to_string(),
            location,
            size: size as u8,
            colormask,
            blend,
        }));
    }
    Ok(EpilogKey {
        samples,
        sample_shading: get_bool(file, "", &t, "sample_shading", false)?,
        alpha_to_coverage: get_bool(file, "", &t, "alpha_to_coverage", false)?,
        logic_op,
        write_z: get_bool(file, "", &t, "write_z", false)?,
        write_s: get_bool(file, "", &t, "write_s", false)?,
        sample_mask_after_force_early: get_bool(
            file,
            "",
            &t,
            "sample_mask_after_force_early",
            false,
        )?,
        loc0_w_1: get_bool(file, "", &t, "loc0_w_1", false)?,
        alpha_to_one: get_bool(file, "", &t, "alpha_to_one", false)?,
        broadcast_rt0: get_bool(file, "", &t, "broadcast_rt0", false)?,
        rts,
        unsupported: Vec::new(),
    })
}

/// Runs `agx epilog`.
pub fn epilog(a: EpilogArgs) -> anyhow::Result<()> {
    let name = a.key.display().to_string();
    let text = super::read_text(&a.key).with_context(|| format!("{name}: cannot read the file"))?;
    let key = parse_key(&name, &text)?;
    let epilog = fragment_epilog(&key).map_err(|e| anyhow!("{name}: {e}"))?;
    let (reads, writes) = register_use(&epilog.code).map_err(|e| anyhow!("{e}"))?;
    let gpr_halves = reads
        .iter()
        .chain(&writes)
        .map(|h| h + 1)
        .max()
        .unwrap_or(0);
    write_part(
        a.format,
        a.output.as_deref(),
        &Part {
            code: &epilog.code,
            text: &epilog.text,
            gpr_halves,
            reads: &reads,
            writes: &writes,
        },
    )
}
