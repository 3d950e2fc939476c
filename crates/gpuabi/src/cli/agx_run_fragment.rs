//! `gpuabi agx run fragment`: link a fragment prolog (optional), the main fragment shader
//! and the epilog with the part linker, and run the program over a tile of pixels and
//! samples in the simulator, checking the contract at every boundary.
//!
//! The input files are described in `agx_fragment_files.rs`; with `--outputs` the lane's
//! registers `r2` and up are cleared at the start of each iteration of the main shader and
//! the entry of its pixel and sample written. The main shader's registers start at zero
//! otherwise.
//!
//! The uniforms are filled as the driver fills the ABI's fragment halves: the
//! render-target heap (`u0_u1`), the
//! blend constant (`u2`…`u5`) and the root descriptor (`u6_u7`), a record with the
//! fragment-invocation counter's and the stipple pattern's addresses as the fragment
//! prolog reads them.
//!
//! Spilled render targets (those past the tile buffer, see `gpuabi_agx::spill`) get the
//! descriptors and memory images `spill_bindings` describes, on a framebuffer that spans
//! the window from `(0, 0)` to the tile's far corner (the epilog addresses images by window
//! position); only the rows the tile covers are backed by memory. A `[[clear]]` of a
//! spilled target fills every sample of the tile's pixels in its image, and the output gives a spilled
//! target's bytes as its image stores them. `--png rtN:WxH[:FILE]` reads render target N
//! from the tile: the tile buffer places targets in index order and render target 0 (at
//! most 16 bytes a sample) always fits, so it is never spilled; a spilled one is refused.

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
use gpuabi_agx::spill::{spill_bindings, SpilledImage};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_isa::{Effects, OperandKind, RegFile};
use gpuabi_agx_sim::{run_observed, Fragment, Region, State, GPR_HALVES, LANES};

use super::agx_fragment_files::{key_blend_constant, parse_draw, parse_outputs};
use super::agx_key::{fragment_prolog_key_of, key_text, KeyPart};
use super::agx_part_file::read_code;
use super::agx_run::{RunFormat, MAX_STEPS};
use super::agx_stats::Stats;
use super::agx_tile_image::{placement, rt_rgba};
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

/// Address of the render-target heap.
const HEAP: u64 = 0x4000;
/// Address from which the images of spilled render targets are placed.
const IMAGES: u64 = 0x10_0000;
/// Most bytes of memory the spilled targets' images of one run may take.
const MAX_IMAGE_BYTES: u64 = 64 << 20;
/// Bytes of the heap: a texture and a PBE descriptor of 24 bytes for each of 8 targets.
const HEAP_BYTES: usize = 8 * 2 * 24;
/// Address of the root descriptor record.
const ROOT: u64 = 0x1000;
/// Address of the fragment-invocation counter.
const COUNTER: u64 = 0x2000;
/// Address of the 32-word stipple pattern.
const STIPPLE: u64 = 0x3000;

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

/// The memory of a spilled render target's image that the run backs: the rows of the
/// tile, from the window's left edge.
struct ImageMemory {
    image: SpilledImage,
    /// Address of the first backed row.
    address: u64,
    bytes: Vec<u8>,
}

impl ImageMemory {
    /// Byte offset in `bytes` of sample `s` of the tile's pixel (`x`, `y`).
    fn offset(&self, x: u32, y: u32, s: u32, origin_x: u32) -> usize {
        self.image.offset(origin_x + x, y, s) as usize
    }
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
    let (kname, ktext) = key_text(
        a.key.as_deref(),
        a.from_vulkan.as_deref(),
        KeyPart::FragmentEpilog,
    )?;
    let key: EpilogKey = super::agx_epilog::parse_key(&kname, &ktext)?;
    let sample_shading = key.sample_shading;
    let dname = a.draw.display().to_string();
    let dtext =
        super::read_text(&a.draw).with_context(|| format!("{dname}: cannot read the file"))?;
    let draw = parse_draw(&dname, &dtext)?;
    let samples = u32::from(key.samples);
    draw.check_coverage(&dname, samples)?;

    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).map_err(|e| anyhow!("{kname}: {e}"))?;
    let mut frag = Fragment::new(draw.width, draw.height, samples, layout.sample_size_bytes)
        .map_err(|e| anyhow!("{dname}: width, height: {e}"))?;
    let spilled = layout
        .render_targets
        .iter()
        .any(|p| p.offset_bytes.is_none());
    // Without spilled targets the heap stays zero, whatever the window position.
    let (heap, spilled_images) = if spilled {
        let b = spill_bindings(
            &key,
            draw.origin[0].saturating_add(draw.width),
            draw.origin[1].saturating_add(draw.height),
            HEAP,
            IMAGES,
        )
        .map_err(|e| {
            anyhow!("{dname}: origin, width, height: {e} (the spilled render targets of {kname})")
        })?;
        (b.heap, b.images)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut images: Vec<ImageMemory> = Vec::new();
    for image in &spilled_images {
        let bytes = image.stride * u64::from(draw.height);
        let total = images.iter().map(|m| m.bytes.len() as u64).sum::<u64>() + bytes;
        if total > MAX_IMAGE_BYTES {
            bail!(
                "{dname}: origin: the images of the spilled render targets of {kname} would \
                 take {total} bytes (at most {MAX_IMAGE_BYTES}; rows are as wide as the \
                 window up to the tile's right edge)"
            );
        }
        images.push(ImageMemory {
            image: image.clone(),
            address: image.address + image.stride * u64::from(draw.origin[1]),
            bytes: vec![0; bytes as usize],
        });
    }

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
            (Vec::new(), Some(o))
        }
        (None, None) => bail!("one of --main FILE or --outputs OUTPUTS.json is required"),
    };

    // The contract of each part's code.
    let mut violations = Vec::new();
    if let Some(p) = &prolog {
        violations.extend(check_fs_prolog(p).map_err(|e| anyhow!("prolog: {e}"))?);
    }
    violations.extend(check_epilog(&key, &epilog).map_err(|e| anyhow!("epilog: {e}"))?);

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
        if let Some(m) = images.iter_mut().find(|m| usize::from(m.image.rt) == *rt) {
            let size = m.image.bytes_per_pixel as usize;
            if bytes.len() != size {
                bail!(
                    "{dname}: clear (rt {rt}): bytes: {} bytes (expected {size}, one pixel of the spilled render target's image)",
                    bytes.len()
                );
            }
            for y in 0..draw.height {
                for x in 0..draw.width {
                    for s in 0..m.image.samples {
                        let at = m.offset(x, y, s, draw.origin[0]);
                        m.bytes[at..at + size].copy_from_slice(bytes);
                    }
                }
            }
            continue;
        }
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
            bytes: {
                let mut heap = heap.clone();
                heap.resize(heap.len().max(HEAP_BYTES), 0);
                heap
            },
        },
    ];
    // The images follow the four regions above, in the order of `images`.
    const FIRST_IMAGE_REGION: usize = 4;
    base.memory.extend(images.iter().map(|m| Region {
        address: m.address,
        bytes: m.bytes.clone(),
    }));
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
        st.regs.clone_from(&base.regs);
        st.written = base.written.clone();
        st.exec = if n == LANES { u32::MAX } else { (1 << n) - 1 };
        if let Some(f) = st.frag.as_deref_mut() {
            let all = f.all_samples();
            for l in 0..LANES {
                let p = start + l.min(n - 1);
                f.pixel[l] = (
                    (p as u32 % draw.width) as u16,
                    (p as u32 / draw.width) as u16,
                );
                let c = draw.coverage_of(p).unwrap_or(all);
                f.coverage[l] = c;
                f.input_coverage[l] = c;
                f.tested[l] = 0;
                // The rasteriser launches no fragment for a pixel without coverage.
                if c == 0 {
                    st.exec &= !(1u32 << l);
                }
            }
        }
        // Lanes without a fragment do not exist in hardware; a nesting counter above 0
        // keeps them out of every execution mask the program computes.
        let launched = st.exec;
        for l in (0..LANES).filter(|l| launched >> l & 1 == 0) {
            st.set_half(l, usize::from(NESTING_COUNTER.first_half), 1);
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
                    let launched = pix.iter().enumerate().take(n);
                    for (l, &(x, y)) in launched.filter(|(l, _)| lanes >> l & 1 == 1) {
                        let s = if sample_shading {
                            u32::from(st.half(l, usize::from(FIN_SAMPLE_MASK.first_half)))
                                .trailing_zeros()
                        } else {
                            0
                        };
                        for h in 4..GPR_HALVES {
                            st.set_half(l, h, 0);
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
                    *r = st.half(l, usize::from(FIN_SAMPLE_MASK.first_half));
                }
                writers.clear();
            }
            if Some(pc) == pieces.footer {
                for l in (0..LANES).filter(|l| lanes >> l & 1 == 1) {
                    let lane = FooterLane {
                        lane: l,
                        r0l: st.half(l, usize::from(NESTING_COUNTER.first_half)),
                        r1l: st.half(l, usize::from(FIN_SAMPLE_MASK.first_half)),
                        r1l_at_start: r1l_at_start[l],
                        r0l_writer: writers.get(&NESTING_COUNTER.first_half).cloned(),
                        r1l_writer: writers.get(&FIN_SAMPLE_MASK.first_half).cloned(),
                    };
                    // A breach is reported, then undone so the loop still counts its
                    // samples and ends.
                    st.set_half(l, usize::from(NESTING_COUNTER.first_half), 0);
                    st.set_half(l, usize::from(FIN_SAMPLE_MASK.first_half), r1l_at_start[l]);
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
        run_observed(&linked.code, &mut st, MAX_STEPS, &mut observe).map_err(|e| {
            // Offsets are in the linked program: say where each part sits.
            let parts: Vec<String> = pieces
                .parts
                .iter()
                .map(|(n, r)| format!("{n} {}..{}", r.start, r.end))
                .collect();
            anyhow!(
                "{e} (the linked program over {dname}: {})",
                parts.join(", ")
            )
        })?;
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
                        if let Some(k) = images.iter().position(|m| usize::from(m.image.rt) == i) {
                            let m = &images[k];
                            let region = st.memory.get(FIRST_IMAGE_REGION + k)?;
                            let at = m.offset(x, y, s, draw.origin[0]);
                            let size = m.image.bytes_per_pixel as usize;
                            return Some(
                                region.bytes[at..at + size]
                                    .iter()
                                    .map(|b| format!("{b:02x}"))
                                    .collect::<String>(),
                            );
                        }
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

    if let Some(flag) = &a.png {
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
        let rgba =
            rt_rgba(f, &layout, rt, &format.format).map_err(|e| anyhow!("--png {flag}: {e}"))?;
        super::launch_flags::write_png(
            &format!("--png {flag}"),
            &p.file,
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
                "link_warnings": linked.warnings,
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
            for w in &linked.warnings {
                s += &format!("link warning: {w}\n");
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
