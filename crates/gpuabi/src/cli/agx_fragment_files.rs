//! The input files of `gpuabi agx run fragment`.
//!
//! DRAW.toml: `width`, `height` (pixels, at most 1024 in all), `origin = [x, y]` (the
//! tile's window position, default `[0, 0]`), `blend_constant = [r, g, b, a]` (default the
//! key's, else zeros), `stipple` (32 row words of the polygon stipple, default all ones),
//! `[[clear]]` tables with `rt` (default the table's index) and `bytes` (one pixel of the
//! render target as stored, hex, filling every pixel and sample; for a spilled target one
//! element of its memory image, filling every sample), `coverage` (the sample mask each fragment starts with: one
//! integer for every pixel, or an array of `width · height` integers in row order; default
//! every sample; a pixel with 0 launches no fragment), and `[[varying]]`
//! tables with `cf` (coefficient register) and `plane = [a, b, c]`.
//!
//! OUTPUTS.json (`--outputs`, instead of a main shader): `{"pixels": [{"x", "y", "sample",
//! "registers": {"r4": "0x3f800000", "r3h": "0xf", …}}]}`, one entry per pixel and
//! sample (sample 0 without sample shading); 16-bit registers as `r4l`/`r4h`.

use anyhow::{anyhow, bail};
use gpuabi_agx_exec::fragment::Outputs;
use gpuabi_agx_exec::FragmentDraw;
use gpuabi_layout::reg::{AgxFile, AgxRange};
use toml::{Table, Value};

use super::agx_run::{hex, int32, only, tables};

/// Parses `coverage`: one mask for every pixel or one per pixel in row order. Returns the
/// masks as written and whether one integer gives them all.
fn parse_coverage(file: &str, v: &Value, pixels: usize) -> anyhow::Result<(Vec<u8>, bool)> {
    let mask = |at: &str, x: &Value| -> anyhow::Result<u8> {
        x.as_integer()
            .and_then(|i| u8::try_from(i).ok())
            .ok_or_else(|| anyhow!("{file}: {at}: expected a sample mask from 0 to 255"))
    };
    match v {
        Value::Array(a) => {
            if a.len() != pixels {
                bail!(
                    "{file}: coverage: {} masks (expected one integer, or width · height = \
                     {pixels} masks in row order)",
                    a.len()
                );
            }
            let m = a
                .iter()
                .enumerate()
                .map(|(i, x)| mask(&format!("coverage[{i}]"), x))
                .collect::<anyhow::Result<_>>()?;
            Ok((m, false))
        }
        x => Ok((vec![mask("coverage", x)?], true)),
    }
}

fn floats<const N: usize>(file: &str, at: &str, v: &Value) -> anyhow::Result<[f32; N]> {
    let a = v
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| anyhow!("{file}: {at}: expected an array of {N} numbers"))?;
    let mut out = [0.0f32; N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = match x {
            Value::Float(f) => *f as f32,
            Value::Integer(i) => *i as f32,
            _ => bail!("{file}: {at}: expected an array of {N} numbers"),
        };
    }
    Ok(out)
}

/// Parses DRAW.toml.
pub(super) fn parse_draw(file: &str, text: &str) -> anyhow::Result<FragmentDraw> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    only(
        file,
        "",
        &t,
        &[
            "width",
            "height",
            "origin",
            "blend_constant",
            "stipple",
            "clear",
            "varying",
            "coverage",
        ],
    )?;
    let width = int32(file, "", &t, "width", None)?;
    let height = int32(file, "", &t, "height", None)?;
    let origin = match t.get("origin") {
        None => [0, 0],
        Some(v) => {
            let a = v.as_array().filter(|a| a.len() == 2);
            let xy: Option<Vec<u32>> = a.map(|a| {
                a.iter()
                    .filter_map(|x| x.as_integer().and_then(|i| u32::try_from(i).ok()))
                    .collect()
            });
            match xy {
                Some(xy) if xy.len() == 2 => [xy[0], xy[1]],
                _ => bail!("{file}: origin: expected [x, y] with two non-negative integers"),
            }
        }
    };
    let blend_constant = t
        .get("blend_constant")
        .map(|v| floats::<4>(file, "blend_constant", v))
        .transpose()?;
    let mut stipple = [u32::MAX; 32];
    if let Some(v) = t.get("stipple") {
        let a = v
            .as_array()
            .filter(|a| a.len() == 32)
            .ok_or_else(|| anyhow!("{file}: stipple: expected an array of 32 row words"))?;
        for (i, (o, x)) in stipple.iter_mut().zip(a).enumerate() {
            *o = x
                .as_integer()
                .and_then(|x| u32::try_from(x).ok())
                .ok_or_else(|| {
                    anyhow!("{file}: stipple[{i}]: expected an integer from 0 to 4294967295")
                })?;
        }
    }
    let mut clears = Vec::new();
    for (i, c) in tables(file, &t, "clear")?.into_iter().enumerate() {
        let at = format!("clear[{i}].");
        only(file, &at, c, &["rt", "bytes"])?;
        let rt = int32(file, &at, c, "rt", Some(i as u64))? as usize;
        let bytes = match c.get("bytes") {
            Some(Value::String(s)) => hex(file, &at, s)?,
            _ => bail!("{file}: {at}bytes: expected a string of hex digits"),
        };
        clears.push((rt, bytes));
    }
    let mut varyings = Vec::new();
    for (i, v) in tables(file, &t, "varying")?.into_iter().enumerate() {
        let at = format!("varying[{i}].");
        only(file, &at, v, &["cf", "plane"])?;
        let cf = int32(file, &at, v, "cf", None)?;
        if cf > 255 {
            bail!("{file}: {at}cf: {cf} (expected a coefficient register 0 to 255)");
        }
        let plane = v
            .get("plane")
            .ok_or_else(|| anyhow!("{file}: {at}plane: missing (expected [a, b, c])"))?;
        varyings.push((
            cf as usize,
            floats::<3>(file, &format!("{at}plane"), plane)?,
        ));
    }
    let pixels = (width as usize).saturating_mul(height as usize);
    let (coverage, uniform_coverage) = match t.get("coverage") {
        Some(v) => {
            let (m, u) = parse_coverage(file, v, pixels)?;
            (Some(m), u)
        }
        None => (None, false),
    };
    Ok(FragmentDraw {
        width,
        height,
        origin,
        blend_constant,
        stipple,
        clears,
        varyings,
        coverage,
        uniform_coverage,
    })
}

/// Parses OUTPUTS.json for a tile of `width` × `height` pixels with `samples` samples.
pub(super) fn parse_outputs(
    file: &str,
    text: &str,
    width: u32,
    height: u32,
    samples: u32,
) -> anyhow::Result<Outputs> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| anyhow!("{file}: {e} (expected JSON)"))?;
    let pixels = v
        .get("pixels")
        .and_then(|p| p.as_array())
        .ok_or_else(|| anyhow!("{file}: pixels: missing (expected an array of pixels)"))?;
    let mut out = Outputs::new();
    for (i, p) in pixels.iter().enumerate() {
        let at = format!("pixels[{i}]");
        let coord = |k: &str, limit: u32, default: Option<u32>| -> anyhow::Result<u32> {
            match p.get(k) {
                None => default.ok_or_else(|| anyhow!("{file}: {at}.{k}: missing")),
                Some(x) => x
                    .as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .filter(|x| *x < limit)
                    .ok_or_else(|| anyhow!("{file}: {at}.{k}: expected an integer below {limit}")),
            }
        };
        let (x, y) = (coord("x", width, None)?, coord("y", height, None)?);
        let sample = coord("sample", samples, Some(0))?;
        let regs = p
            .get("registers")
            .and_then(|r| r.as_object())
            .ok_or_else(|| anyhow!("{file}: {at}.registers: expected an object"))?;
        let mut list = Vec::new();
        for (name, value) in regs {
            let rat = format!("{at}.registers.{name}");
            let r: AgxRange = name
                .parse()
                .ok()
                .filter(|r: &AgxRange| r.file == AgxFile::Gpr && matches!(r.halves, 1 | 2))
                .ok_or_else(|| anyhow!("{file}: {rat}: expected a GPR like r4, r3h or r1l"))?;
            let bits = u32::from(r.halves) * 16;
            let v = match value {
                serde_json::Value::String(s) => {
                    let digits = s.strip_prefix("0x").unwrap_or(s);
                    u64::from_str_radix(digits, 16).ok()
                }
                serde_json::Value::Number(n) => n.as_u64(),
                _ => None,
            }
            .filter(|v| *v >> bits == 0)
            .ok_or_else(|| {
                anyhow!("{file}: {rat}: expected a {bits}-bit value as \"0x…\" or an integer")
            })?;
            list.push((r.first_half, bits, v));
        }
        if out.insert((x, y, sample), list).is_some() {
            bail!("{file}: {at}: a second entry for pixel ({x}, {y}) sample {sample}");
        }
    }
    Ok(out)
}

/// The blend constant a key file asks for (`blend_constant = [r, g, b, a]`), if any.
pub(super) fn key_blend_constant(file: &str, text: &str) -> anyhow::Result<Option<[f32; 4]>> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    t.get("blend_constant")
        .map(|v| floats::<4>(file, "blend_constant", v))
        .transpose()
}
