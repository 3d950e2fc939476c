//! `gpuabi agx run fragment`: link a fragment prolog (optional), the main fragment shader
//! and the epilog with the part linker, and run the program over a tile of pixels and
//! samples in the simulator, checking the contract at every boundary.
//!
//! DRAW.toml: `width`, `height` (pixels, at most 1024 in all), `origin = [x, y]` (the
//! tile's window position, default `[0, 0]`), `blend_constant = [r, g, b, a]` (default the
//! key's, else zeros), `stipple` (32 row words of the polygon stipple, default all ones),
//! `[[clear]]` tables with `rt` (default the table's index) and `bytes` (one pixel of the
//! render target as stored, hex, filling every pixel and sample), and `[[varying]]`
//! tables with `cf` (coefficient register) and `plane = [a, b, c]`.
//!
//! OUTPUTS.json (`--outputs`, instead of a main shader): `{"pixels": [{"x", "y", "sample",
//! "registers": {"r4": "0x3f800000", "r3h": "0xf", …}}]}`; at the start of each iteration
//! of the main shader the lane's registers `r2` and up are cleared and the entry of its
//! pixel and sample (sample 0 without sample shading) is written. The main shader's
//! registers start at zero otherwise.
//!
//! The uniforms are filled as the driver fills the ABI's fragment halves: the
//! render-target heap (`u0_u1`, zeroed descriptors: spilled targets are not run), the
//! blend constant (`u2`…`u5`) and the root descriptor (`u6_u7`), a record with the
//! fragment-invocation counter's and the stipple pattern's addresses as the fragment
//! prolog reads them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::Args;
use gpuabi_agx::abi::{FIN_SAMPLE_MASK, FUNI_BLEND_R, FUNI_EMRT_HEAP, FUNI_ROOT, NESTING_COUNTER};
use gpuabi_agx::contract::{check_epilog, check_fs_prolog, check_loop_footer, FooterLane, Site};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey};
use gpuabi_agx::fs_prolog::{fragment_prolog, ROOT_POLYGON_STIPPLE, ROOT_PS_INVOCATIONS};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::prolog::register_use;
use gpuabi_agx::tilebuffer::{rt_format, tilebuffer_layout, TileBufferLayout};
use gpuabi_agx_isa::{assemble, Effects, OperandKind, RegFile};
use gpuabi_agx_sim::{run_observed, Fragment, Region, State, GPR_HALVES, LANES};
use gpuabi_layout::reg::{AgxFile, AgxRange};
use toml::{Table, Value};

use super::agx_run::{hex, int32, only, tables, RunFormat, MAX_STEPS};
use super::agx_stats::Stats;
use super::write_output;

/// Flags of `agx run fragment`.
#[derive(Debug, Args)]
pub struct RunFragmentArgs {
    /// The epilog key (TOML, as `agx epilog` reads it).
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    /// The user's own epilog (assembly) instead of the generated one.
    #[arg(long, value_name = "FILE.s")]
    epilog: Option<PathBuf>,
    /// A fragment prolog generated from this key (TOML, as `agx fs-prolog` reads it).
    #[arg(long, value_name = "KEY.toml", conflicts_with = "prolog")]
    prolog_key: Option<PathBuf>,
    /// The user's own fragment prolog (assembly).
    #[arg(long, value_name = "FILE.s")]
    prolog: Option<PathBuf>,
    /// The main fragment shader (assembly, main section without `stop`).
    #[arg(long, value_name = "FILE.s", conflicts_with = "outputs")]
    main: Option<PathBuf>,
    /// The registers the main shader leaves, per pixel and sample (JSON), to run the epilog
    /// alone.
    #[arg(long, value_name = "OUTPUTS.json")]
    outputs: Option<PathBuf>,
    /// The tile (TOML).
    #[arg(long, value_name = "DRAW.toml")]
    draw: PathBuf,
    /// Write render target 0 as 8-bit RGBA to this PNG file.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: RunFormat,
    /// Also print the instructions run per part by kind and the tile/memory traffic.
    #[arg(long)]
    stats: bool,
}

/// Address of the render-target heap (zeroed descriptors).
const HEAP: u64 = 0x4000;
/// Bytes of the heap: a texture and a PBE descriptor of 24 bytes for each of 8 targets.
const HEAP_BYTES: usize = 8 * 2 * 24;
/// Address of the root descriptor record.
const ROOT: u64 = 0x1000;
/// Address of the fragment-invocation counter.
const COUNTER: u64 = 0x2000;
/// Address of the 32-word stipple pattern.
const STIPPLE: u64 = 0x3000;

struct Draw {
    width: u32,
    height: u32,
    origin: [u32; 2],
    blend_constant: Option<[f32; 4]>,
    stipple: [u32; 32],
    clears: Vec<(usize, Vec<u8>)>,
    varyings: Vec<(usize, [f32; 3])>,
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

fn parse_draw(file: &str, text: &str) -> anyhow::Result<Draw> {
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
    Ok(Draw {
        width,
        height,
        origin,
        blend_constant,
        stipple,
        clears,
        varyings,
    })
}

/// One pixel's and sample's registers from OUTPUTS.json: `(half, size, value)`.
type Outputs = BTreeMap<(u32, u32, u32), Vec<(u16, u32, u64)>>;

fn parse_outputs(
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

fn read_asm(flag: &str, path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let name = path.display().to_string();
    let text =
        super::read_text(path).with_context(|| format!("{flag} {name}: cannot read the file"))?;
    Ok(assemble(&text, &name)?.bytes)
}

fn info(code: &[u8], reads_tib: bool, writes_sample_mask: bool) -> PartInfo {
    let gpr_halves = register_use(code)
        .map(|(r, w)| r.iter().chain(&w).map(|h| h + 1).max().unwrap_or(0))
        .unwrap_or(0);
    PartInfo {
        gpr_halves,
        reads_tib,
        writes_sample_mask,
        ..PartInfo::default()
    }
}

/// Where render target `rt` sits in the tile: its physical format as the `ld_tile`
/// syntax names it (`u8norm`), its byte offset in the sample and its size; `None` when
/// unbound or spilled.
fn placement(layout: &TileBufferLayout, rt: usize) -> Option<(String, u32, u32)> {
    let p = layout
        .render_targets
        .iter()
        .find(|p| usize::from(p.rt) == rt)?;
    Some((p.physical.to_lowercase(), p.offset_bytes?, p.size_bytes))
}

/// Render target 0 of the tile as 8-bit RGBA: each pixel's sample 0 loaded with
/// `ld_tile` into 32-bit registers; floats clamped to [0, 1] and rounded, integers clamped
/// to 0..255, sRGB bytes taken as stored; components the format lacks are 0 (alpha 255).
fn rt0_rgba(frag: &Fragment, layout: &TileBufferLayout, format: &str) -> anyhow::Result<Vec<u8>> {
    let (canon, comps, _) = rt_format(format)?;
    let (fmt, offset, _) =
        placement(layout, 0).ok_or_else(|| anyhow!("render target 0 is not in the tile"))?;
    let pixels = (frag.width * frag.height) as usize;
    let mut out = vec![0u8; pixels * 4];
    let integer = canon.ends_with("_UINT") || canon.ends_with("_SINT");
    let signed = canon.ends_with("_SINT");
    let srgb = canon.ends_with("_SRGB");
    let masks = ["x", "xy", "xyz", "xyzw"];
    let regs = ["r10", "r10_r11", "r10_r11_r12", "r10_r11_r12_r13"];
    let k = (comps as usize).clamp(1, 4) - 1;
    let code = assemble(
        &format!("ld_tile {}, 0, 1, {offset}, {fmt}, {}\n", regs[k], masks[k]),
        "png.s",
    )?
    .bytes;
    for start in (0..pixels).step_by(LANES) {
        let mut st = State {
            frag: Some(Box::new(frag.clone())),
            ..State::default()
        };
        let n = (pixels - start).min(LANES);
        st.exec = if n == LANES { u32::MAX } else { (1 << n) - 1 };
        if let Some(f) = st.frag.as_deref_mut() {
            for l in 0..n {
                let p = (start + l) as u32;
                f.pixel[l] = ((p % frag.width) as u16, (p / frag.width) as u16);
            }
        }
        gpuabi_agx_sim::run(&code, &mut st, 16)?;
        for l in 0..n {
            let px = &mut out[(start + l) * 4..(start + l) * 4 + 4];
            px[3] = 255;
            for (c, v) in px.iter_mut().enumerate().take(comps.min(4) as usize) {
                let bits = st.read_gpr(l, 20 + 2 * c as u32, 32)? as u32;
                *v = if srgb {
                    let (x, y) = p_of(start + l, frag.width);
                    frag.byte(x, y, 0, offset + c as u32, 1)
                        .map_or(0, |i| frag.tib[i])
                } else if integer {
                    let v = if signed {
                        i64::from(bits as i32)
                    } else {
                        i64::from(bits)
                    };
                    v.clamp(0, 255) as u8
                } else {
                    let x = f32::from_bits(bits);
                    if x.is_nan() {
                        0
                    } else {
                        (x.clamp(0.0, 1.0) * 255.0).round() as u8
                    }
                };
            }
        }
    }
    Ok(out)
}

fn p_of(p: usize, width: u32) -> (u32, u32) {
    (p as u32 % width, p as u32 / width)
}

/// The blend constant a key file asks for (`blend_constant = [r, g, b, a]`), if any.
fn key_blend_constant(file: &str, text: &str) -> anyhow::Result<Option<[f32; 4]>> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    t.get("blend_constant")
        .map(|v| floats::<4>(file, "blend_constant", v))
        .transpose()
}

fn key_sample_shading(file: &str, text: &str) -> anyhow::Result<bool> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    match t.get("sample_shading") {
        None => Ok(false),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(_) => bail!("{file}: sample_shading: expected true or false"),
    }
}

/// Where the program's parts are.
struct Pieces {
    body: usize,
    footer: Option<usize>,
    parts: Vec<(String, std::ops::Range<usize>)>,
}

/// GPR halves an instruction writes: its destinations, and `r0l` for the instructions
/// that move the nesting counter (`if`/`else`/`while`/`pop_exec`).
fn written_halves(ins: &gpuabi_agx_isa::Instruction) -> Vec<u16> {
    let mut out = Vec::new();
    if ins.opcode.effects().contains(Effects::EXEC) {
        out.push(NESTING_COUNTER.first_half);
    }
    for op in ins.dests.iter().flatten() {
        if let OperandKind::Reg {
            file: RegFile::Gpr,
            base,
            size,
            count,
        } = op.kind
        {
            out.extend((base..base + size / 16 * count).map(|h| h as u16));
        }
    }
    out
}

struct Sample {
    x: u32,
    y: u32,
    sample: u32,
    covered: bool,
    rt: Vec<Option<String>>,
    depth: Option<f32>,
    stencil: Option<u16>,
}

/// Runs `agx run fragment`.
pub fn run_fragment(a: RunFragmentArgs) -> anyhow::Result<()> {
    let kname = a.key.display().to_string();
    let ktext =
        super::read_text(&a.key).with_context(|| format!("{kname}: cannot read the file"))?;
    let key: EpilogKey = super::agx_epilog::parse_key(&kname, &ktext)?;
    let sample_shading = key_sample_shading(&kname, &ktext)?;
    let dname = a.draw.display().to_string();
    let dtext =
        super::read_text(&a.draw).with_context(|| format!("{dname}: cannot read the file"))?;
    let draw = parse_draw(&dname, &dtext)?;
    let samples = u32::from(key.samples);

    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).map_err(|e| anyhow!("{kname}: {e}"))?;
    let mut frag = Fragment::new(draw.width, draw.height, samples, layout.sample_size_bytes)
        .map_err(|e| anyhow!("{dname}: width, height: {e}"))?;

    // Parts.
    let epilog = match &a.epilog {
        Some(p) => read_asm("--epilog", p)?,
        None => {
            fragment_epilog(&key)
                .map_err(|e| anyhow!("{kname}: {e}"))?
                .code
        }
    };
    let prolog = match (&a.prolog, &a.prolog_key) {
        (Some(p), _) => Some(read_asm("--prolog", p)?),
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
        (None, None) => None,
    };
    let (main, outputs) = match (&a.main, &a.outputs) {
        (Some(p), _) => (read_asm("--main", p)?, None),
        (None, Some(p)) => {
            let name = p.display().to_string();
            let text = super::read_text(p)
                .with_context(|| format!("--outputs {name}: cannot read the file"))?;
            let o = parse_outputs(&name, &text, draw.width, draw.height, samples)?;
            (Vec::new(), Some(o))
        }
        (None, None) => bail!("one of --main FILE.s or --outputs OUTPUTS.json is required"),
    };

    // The contract of each part's code.
    let mut violations = Vec::new();
    if let Some(p) = &prolog {
        violations.extend(check_fs_prolog(p).map_err(|e| anyhow!("prolog: {e}"))?);
    }
    violations
        .extend(check_epilog(&key, sample_shading, &epilog).map_err(|e| anyhow!("epilog: {e}"))?);

    let linked = link(&LinkInput {
        prolog: prolog.as_deref().map(|code| Part {
            code,
            info: info(code, false, true),
        }),
        main: Part {
            code: &main,
            info: info(&main, false, false),
        },
        epilog: Some(Part {
            code: &epilog,
            info: info(&epilog, true, false),
        }),
        samples: sample_shading.then_some(key.samples),
    })
    .map_err(|e| anyhow!("{kname}: {e}"))?;
    let piece = |name: &str| linked.pieces.iter().find(|p| p.name == name);
    let pieces = Pieces {
        body: piece("main").map_or(0, |p| p.offset),
        footer: piece("sample loop footer").map(|p| p.offset),
        parts: linked
            .pieces
            .iter()
            .map(|p| (p.name.clone(), p.offset..p.offset + p.size))
            .collect(),
    };
    let part_at = |pc: usize| -> (String, usize) {
        pieces
            .parts
            .iter()
            .rev()
            .find(|(_, r)| r.contains(&pc))
            .map_or(("program".to_string(), pc), |(n, r)| {
                (n.clone(), pc - r.start)
            })
    };

    // The tile: cleared render targets and coefficient registers.
    for (rt, bytes) in &draw.clears {
        let (_, offset, size) = placement(&layout, *rt).ok_or_else(|| {
            anyhow!("{dname}: clear: render target {rt} is not bound in the tile of {kname}")
        })?;
        if bytes.len() != size as usize {
            bail!(
                "{dname}: clear (rt {rt}): bytes: {} bytes (expected {size}, one pixel of the render target as stored)",
                bytes.len()
            );
        }
        for y in 0..draw.height {
            for x in 0..draw.width {
                for s in 0..samples {
                    if let Some(i) = frag.byte(x, y, s, offset, size) {
                        frag.tib[i..i + size as usize].copy_from_slice(bytes);
                    }
                }
            }
        }
    }
    for (cf, plane) in &draw.varyings {
        if frag.cf.len() <= *cf {
            frag.cf.resize(cf + 1, [0; 3]);
        }
        frag.cf[*cf] = plane.map(f32::to_bits);
    }

    // Memory and uniforms.
    let mut base = State::default();
    let mut root = Vec::new();
    let mut put = |at: u32, v: u64| {
        let at = at as usize;
        if root.len() < at + 8 {
            root.resize(at + 8, 0);
        }
        root[at..at + 8].copy_from_slice(&v.to_le_bytes());
    };
    put(ROOT_PS_INVOCATIONS, COUNTER);
    put(ROOT_POLYGON_STIPPLE, STIPPLE);
    base.memory = vec![
        Region {
            address: ROOT,
            bytes: root,
        },
        Region {
            address: COUNTER,
            bytes: vec![0; 4],
        },
        Region {
            address: STIPPLE,
            bytes: draw.stipple.iter().flat_map(|w| w.to_le_bytes()).collect(),
        },
        Region {
            address: HEAP,
            bytes: vec![0; HEAP_BYTES],
        },
    ];
    base.set_uniform(u32::from(FUNI_EMRT_HEAP.first_half), 64, HEAP)?;
    let blend = draw
        .blend_constant
        .or(key_blend_constant(&kname, &ktext)?)
        .unwrap_or([0.0; 4]);
    for (c, v) in blend.iter().enumerate() {
        base.set_uniform(
            u32::from(FUNI_BLEND_R) + 2 * c as u32,
            32,
            u64::from(v.to_bits()),
        )?;
    }
    base.set_uniform(u32::from(FUNI_ROOT.first_half), 64, ROOT)?;
    base.grid = [draw.origin[0], draw.origin[1], 0];

    // Run each group of 32 pixels.
    let mut stats = Stats::new(pieces.parts.clone());
    let mut seen = BTreeSet::new();
    let mut missing_outputs = BTreeSet::new();
    let pixels = (draw.width * draw.height) as usize;
    let mut coverage = vec![0u8; pixels];
    let mut st = base.clone();
    st.frag = Some(Box::new(frag));
    for start in (0..pixels).step_by(LANES) {
        let n = (pixels - start).min(LANES);
        st.gpr = base.gpr.clone();
        st.written = base.written.clone();
        st.exec = if n == LANES { u32::MAX } else { (1 << n) - 1 };
        // Lanes without a pixel do not exist in hardware; a nesting counter above 0 keeps
        // them out of every execution mask the program computes.
        for l in n..LANES {
            st.gpr[l][usize::from(NESTING_COUNTER.first_half)] = 1;
        }
        if let Some(f) = st.frag.as_deref_mut() {
            let all = f.all_samples();
            for l in 0..LANES {
                let p = (start + l.min(n - 1)) as u32;
                f.pixel[l] = ((p % draw.width) as u16, (p / draw.width) as u16);
                f.coverage[l] = all;
                f.input_coverage[l] = all;
                f.tested[l] = 0;
            }
        }
        let lanes = st.exec;
        let mut r1l_at_start = [0u16; LANES];
        let mut writers: BTreeMap<u16, (String, Site)> = BTreeMap::new();
        let mut observe = |pc: usize, ins: &gpuabi_agx_isa::Instruction, st: &mut State| {
            if a.stats {
                stats.observe(pc, ins, st);
            }
            if pc == pieces.body {
                if let (Some(outputs), Some(f)) = (&outputs, st.frag.as_deref()) {
                    let pix = f.pixel;
                    for (l, &(x, y)) in pix.iter().enumerate().take(n) {
                        let s = if sample_shading {
                            u32::from(st.gpr[l][usize::from(FIN_SAMPLE_MASK.first_half)])
                                .trailing_zeros()
                        } else {
                            0
                        };
                        for h in 4..GPR_HALVES {
                            st.gpr[l][h] = 0;
                        }
                        match outputs.get(&(u32::from(x), u32::from(y), s)) {
                            Some(regs) => {
                                for &(half, size, v) in regs {
                                    let _ = st.set_gpr(l, u32::from(half), size, v);
                                }
                            }
                            None => {
                                missing_outputs.insert((x, y, s));
                            }
                        }
                    }
                }
                for (l, r) in r1l_at_start.iter_mut().enumerate() {
                    *r = st.gpr[l][usize::from(FIN_SAMPLE_MASK.first_half)];
                }
                writers.clear();
            }
            if Some(pc) == pieces.footer {
                for l in (0..LANES).filter(|l| lanes >> l & 1 == 1) {
                    let lane = FooterLane {
                        lane: l,
                        r0l: st.gpr[l][usize::from(NESTING_COUNTER.first_half)],
                        r1l: st.gpr[l][usize::from(FIN_SAMPLE_MASK.first_half)],
                        r1l_at_start: r1l_at_start[l],
                        r0l_writer: writers.get(&NESTING_COUNTER.first_half).cloned(),
                        r1l_writer: writers.get(&FIN_SAMPLE_MASK.first_half).cloned(),
                    };
                    // A breach is reported, then undone so the loop still counts its
                    // samples and ends.
                    st.gpr[l][usize::from(NESTING_COUNTER.first_half)] = 0;
                    st.gpr[l][usize::from(FIN_SAMPLE_MASK.first_half)] = r1l_at_start[l];
                    st.exec_from_r0l();
                    for v in check_loop_footer(&lane) {
                        // One report per part, instruction and register.
                        let k = (
                            v.part.clone(),
                            v.site.clone().map(|s| s.offset),
                            v.register.clone(),
                        );
                        if seen.insert(k) {
                            violations.push(v);
                        }
                    }
                }
            }
            if pc >= pieces.body && pieces.footer.is_none_or(|f| pc < f) {
                for h in written_halves(ins) {
                    if h == NESTING_COUNTER.first_half || h == FIN_SAMPLE_MASK.first_half {
                        let (part, offset) = part_at(pc);
                        writers.insert(
                            h,
                            (
                                part,
                                Site {
                                    offset,
                                    text: ins.to_string(),
                                },
                            ),
                        );
                    }
                }
            }
        };
        run_observed(&linked.code, &mut st, MAX_STEPS, &mut observe).map_err(|e| anyhow!("{e}"))?;
        if let Some(f) = st.frag.as_deref() {
            coverage[start..start + n].copy_from_slice(&f.coverage[..n]);
        }
    }
    if let Some(&(x, y, s)) = missing_outputs.iter().next() {
        let name = a
            .outputs
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        bail!("{name}: pixels: no entry for pixel ({x}, {y}) sample {s} ({} pixel samples without an entry)", missing_outputs.len());
    }

    // Read back.
    let f = st
        .frag
        .as_deref()
        .ok_or_else(|| anyhow!("the fragment context is gone"))?;
    let mut out = Vec::new();
    for y in 0..draw.height {
        for x in 0..draw.width {
            for s in 0..samples {
                let idx = f.sample_index(x, y, s);
                let rt = (0..key.rts.len())
                    .map(|i| {
                        let (_, offset, size) = placement(&layout, i)?;
                        let at = f.byte(x, y, s, offset, size)?;
                        Some(
                            f.tib[at..at + size as usize]
                                .iter()
                                .map(|b| format!("{b:02x}"))
                                .collect::<String>(),
                        )
                    })
                    .collect();
                out.push(Sample {
                    x,
                    y,
                    sample: s,
                    covered: coverage[(y * draw.width + x) as usize] >> s & 1 == 1,
                    rt,
                    depth: idx
                        .and_then(|i| f.depth.get(i).copied().flatten())
                        .map(f32::from_bits),
                    stencil: idx.and_then(|i| f.stencil.get(i).copied().flatten()),
                });
            }
        }
    }
    let counter = st
        .memory
        .get(1)
        .map(|r| u32::from_le_bytes([r.bytes[0], r.bytes[1], r.bytes[2], r.bytes[3]]))
        .unwrap_or(0);

    if let Some(png) = &a.png {
        let name = png.display().to_string();
        let format = key
            .rts
            .first()
            .and_then(|r| r.as_ref())
            .ok_or_else(|| anyhow!("--png {name}: {kname} binds no render target 0"))?;
        let rgba =
            rt0_rgba(f, &layout, &format.format).map_err(|e| anyhow!("--png {name}: {e}"))?;
        super::run::write_png(
            &format!("--png {name}"),
            &name,
            draw.width,
            draw.height,
            &rgba,
        )?;
    }

    let text = match a.format {
        RunFormat::Json => {
            let pixels: Vec<serde_json::Value> = out
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "x": p.x,
                        "y": p.y,
                        "sample": p.sample,
                        "covered": p.covered,
                        "rt": p.rt,
                        "depth": p.depth,
                        "stencil": p.stencil,
                    })
                })
                .collect();
            let mut v = serde_json::json!({
                "pixels": pixels,
                "violations": violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            });
            if prolog.is_some() {
                v["invocation_counter"] = counter.into();
            }
            if a.stats {
                v["stats"] = stats.json();
            }
            serde_json::to_string_pretty(&v)? + "\n"
        }
        RunFormat::Text => {
            let mut s = String::new();
            for p in &out {
                let rts: Vec<String> =
                    p.rt.iter()
                        .enumerate()
                        .filter_map(|(i, r)| r.as_ref().map(|r| format!("rt{i}={r}")))
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
            if prolog.is_some() {
                s += &format!("fragment invocations counted: {counter}\n");
            }
            if a.stats {
                s += &stats.text();
            }
            for v in &violations {
                s += &format!("violation: {v}\n");
            }
            s
        }
    };
    write_output(&text)?;
    if !violations.is_empty() {
        bail!("{} contract violation(s)", violations.len());
    }
    Ok(())
}
