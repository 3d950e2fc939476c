//! A fragment prolog (optional), the main fragment shader and the epilog, linked with the
//! part linker and run over a tile of pixels and samples, with the contract checked at
//! every boundary.
//!
//! Without a main shader the registers it leaves are given per pixel and sample
//! ([`Outputs`]): at the start of each iteration of the main shader the lane's registers
//! `r2` and up are cleared and the entry of its pixel and sample written. The main
//! shader's registers start at zero otherwise.
//!
//! The uniforms are filled as the driver fills the ABI's fragment halves: the
//! render-target heap (`u0_u1`), the blend constant (`u2`…`u5`) and the root descriptor
//! (`u6_u7`), a record with the fragment-invocation counter's and the stipple pattern's
//! addresses as the fragment prolog reads them.
//!
//! Spilled render targets (those past the tile buffer, see `gpuabi_agx::spill`) get the
//! descriptors and memory images `spill_bindings` describes, on a framebuffer that spans
//! the window from `(0, 0)` to the tile's far corner (the epilog addresses images by window
//! position); only the rows the tile covers are backed by memory. A clear of a spilled
//! target fills every sample of the tile's pixels in its image, and the outcome gives a
//! spilled target's bytes as its image stores them.
//!
//! Dispatch: the tile's pixels in row order, 32 to a SIMD group; a pixel without coverage
//! launches no fragment. The groups share the tile, the uniforms and device memory.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use gpuabi_agx::abi::{FIN_SAMPLE_MASK, FUNI_BLEND_R, FUNI_EMRT_HEAP, FUNI_ROOT, NESTING_COUNTER};
use gpuabi_agx::contract::{
    check_epilog, check_fs_prolog, check_loop_footer, FooterLane, Site, Violation,
};
use gpuabi_agx::epilog::{EpilogError, EpilogKey};
use gpuabi_agx::fs_prolog::{ROOT_POLYGON_STIPPLE, ROOT_PS_INVOCATIONS};
use gpuabi_agx::link::{link, LinkError, LinkInput, LinkedProgram, Part, PartInfo};
use gpuabi_agx::prolog::register_use;
use gpuabi_agx::spill::{spill_bindings, SpilledImage};
use gpuabi_agx::{tilebuffer_layout, TileBufferError, TileBufferLayout};
use gpuabi_agx_isa::{DecodeError, Effects, Instruction, OperandKind, RegFile};
use gpuabi_agx_sim::{Fragment, Program, Region, Session, SimError, State, GPR_HALVES, LANES};

use crate::{Names, Stats, MAX_STEPS};

/// Address of the render-target heap.
pub const HEAP: u64 = 0x4000;
/// Address from which the images of spilled render targets are placed.
pub const IMAGES: u64 = 0x10_0000;
/// Most bytes of memory the spilled targets' images of one run may take.
pub const MAX_IMAGE_BYTES: u64 = 64 << 20;
/// Bytes of the heap: a texture and a PBE descriptor of 24 bytes for each of 8 targets.
const HEAP_BYTES: usize = 8 * 2 * 24;
/// Address of the root descriptor record.
pub const ROOT: u64 = 0x1000;
/// Address of the fragment-invocation counter.
pub const COUNTER: u64 = 0x2000;
/// Address of the 32-word stipple pattern.
pub const STIPPLE: u64 = 0x3000;

/// A tile to draw: its size and window position, what it starts with, and the draw's
/// fixed-function state.
#[derive(Debug, Clone, PartialEq)]
pub struct FragmentDraw {
    /// Tile width in pixels.
    pub width: u32,
    /// Tile height in pixels.
    pub height: u32,
    /// Window position of the tile's pixel (0, 0).
    pub origin: [u32; 2],
    /// The blend constant, when the draw gives one.
    pub blend_constant: Option<[f32; 4]>,
    /// Polygon stipple row words.
    pub stipple: [u32; 32],
    /// Render target and its pixel bytes as stored, filling every pixel and sample.
    pub clears: Vec<(usize, Vec<u8>)>,
    /// Coefficient register and its plane `(a, b, c)`.
    pub varyings: Vec<(usize, [f32; 3])>,
    /// The starting sample masks as written: one for every pixel, or one per pixel in row
    /// order; `None` for every sample.
    pub coverage: Option<Vec<u8>>,
    /// Whether one mask gave `coverage` for every pixel.
    pub uniform_coverage: bool,
}

impl FragmentDraw {
    /// The sample mask pixel `p` (row order) starts with, `None` for every sample.
    pub fn coverage_of(&self, p: usize) -> Option<u8> {
        let c = self.coverage.as_ref()?;
        c.get(if self.uniform_coverage { 0 } else { p }).copied()
    }
}

/// The registers the main shader leaves, by pixel and sample `(x, y, sample)`: each
/// register's first half, size in bits and value.
pub type Outputs = BTreeMap<(u32, u32, u32), Vec<(u16, u32, u64)>>;

/// Why a fragment draw cannot run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FragmentError {
    /// A starting sample mask names a sample the key lacks.
    #[error(
        "{draw}: {at}: {mask:#x} names a sample the key's {samples} sample(s) lack \
         (expected a mask below {:#x})",
        1u32 << samples
    )]
    Coverage {
        /// The draw's name.
        draw: String,
        /// `coverage` or `coverage[i]`.
        at: String,
        /// The mask.
        mask: u8,
        /// The key's samples.
        samples: u32,
    },
    /// The key's render targets have no tile-buffer layout.
    #[error("{key}: {error}")]
    Layout {
        /// The key's name.
        key: String,
        /// Why.
        error: TileBufferError,
    },
    /// The tile's shape is out of range.
    #[error("{draw}: width, height: {error}")]
    TileShape {
        /// The draw's name.
        draw: String,
        /// Why.
        error: SimError,
    },
    /// The spilled render targets have no images.
    #[error("{draw}: origin, width, height: {error} (the spilled render targets of {key})")]
    Spill {
        /// The draw's name.
        draw: String,
        /// The key's name.
        key: String,
        /// Why.
        error: EpilogError,
    },
    /// The spilled render targets' images take too much memory.
    #[error(
        "{draw}: origin: the images of the spilled render targets of {key} would take \
         {total} bytes (at most {MAX_IMAGE_BYTES}; rows are as wide as the window up to \
         the tile's right edge)"
    )]
    ImageBytes {
        /// The draw's name.
        draw: String,
        /// The key's name.
        key: String,
        /// Bytes the images would take.
        total: u64,
    },
    /// The fragment prolog's code does not decode.
    #[error("prolog: {error}")]
    PrologCode {
        /// Why.
        error: DecodeError,
    },
    /// The epilog's code does not decode.
    #[error("epilog: {error}")]
    EpilogCode {
        /// Why.
        error: DecodeError,
    },
    /// The parts do not link.
    #[error("{key}: {error}")]
    Link {
        /// The key's name.
        key: String,
        /// Why.
        error: LinkError,
    },
    /// A clear of a spilled render target is not one element of its image.
    #[error(
        "{draw}: clear (rt {rt}): bytes: {len} bytes (expected {size}, one pixel of the \
         spilled render target's image)"
    )]
    SpilledClear {
        /// The draw's name.
        draw: String,
        /// The render target.
        rt: usize,
        /// Bytes given.
        len: usize,
        /// Bytes expected.
        size: usize,
    },
    /// A clear of a render target the tile does not hold.
    #[error("{draw}: clear: render target {rt} is not bound in the tile of {key}")]
    UnboundClear {
        /// The draw's name.
        draw: String,
        /// The key's name.
        key: String,
        /// The render target.
        rt: usize,
    },
    /// A clear that is not one pixel of its render target.
    #[error(
        "{draw}: clear (rt {rt}): bytes: {len} bytes (expected {size}, one pixel of the \
         render target as stored)"
    )]
    Clear {
        /// The draw's name.
        draw: String,
        /// The render target.
        rt: usize,
        /// Bytes given.
        len: usize,
        /// Bytes expected.
        size: u32,
    },
    /// A uniform the ABI places beyond the uniform file.
    #[error("{error}")]
    Uniform {
        /// Why.
        error: SimError,
    },
    /// The linked program stopped with an error.
    #[error("{error} (the linked program over {draw}: {parts})")]
    Run {
        /// Why.
        error: SimError,
        /// The draw's name.
        draw: String,
        /// Where each part sits: `name start..end`, comma-separated.
        parts: String,
    },
    /// The outputs lack an entry for a pixel and sample the main shader ran for.
    #[error(
        "{outputs}: pixels: no entry for pixel ({x}, {y}) sample {sample} ({count} pixel \
         samples without an entry)"
    )]
    MissingOutputs {
        /// The outputs' name.
        outputs: String,
        /// The first pixel and sample without an entry.
        x: u16,
        /// Its row.
        y: u16,
        /// Its sample.
        sample: u32,
        /// Pixel samples without an entry.
        count: usize,
    },
}

/// The render target `rt` of the tile: its physical format as the `ld_tile` syntax names
/// it (`u8norm`), its byte offset in the sample and its size; `None` when unbound or
/// spilled.
pub fn placement(layout: &TileBufferLayout, rt: usize) -> Option<(String, u32, u32)> {
    let p = layout
        .render_targets
        .iter()
        .find(|p| usize::from(p.rt) == rt)?;
    Some((p.physical.to_lowercase(), p.offset_bytes?, p.size_bytes))
}

/// The memory of a spilled render target's image that the run backs: the rows of the
/// tile, from the window's left edge.
#[derive(Debug, Clone)]
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

/// A tile set up for a key: the tile buffer's layout, the tile, and the descriptors and
/// images of the spilled render targets.
#[derive(Debug, Clone)]
pub struct Tile {
    key: EpilogKey,
    draw: FragmentDraw,
    names: Names,
    layout: TileBufferLayout,
    frag: Fragment,
    heap: Vec<u8>,
    images: Vec<ImageMemory>,
}

impl Tile {
    /// The tile `draw` describes for the epilog key `key` (`names` name both in
    /// messages).
    pub fn new(key: &EpilogKey, draw: &FragmentDraw, names: &Names) -> Result<Tile, FragmentError> {
        let samples = u32::from(key.samples);
        if let Some(c) = &draw.coverage {
            if let Some((i, m)) = c
                .iter()
                .enumerate()
                .find(|(_, m)| u32::from(**m) >> samples != 0)
            {
                return Err(FragmentError::Coverage {
                    draw: names.draw.clone(),
                    at: if draw.uniform_coverage {
                        "coverage".to_string()
                    } else {
                        format!("coverage[{i}]")
                    },
                    mask: *m,
                    samples,
                });
            }
        }
        let formats: Vec<Option<&str>> = key
            .rts
            .iter()
            .map(|r| r.as_ref().map(|r| r.format.as_str()))
            .collect();
        let layout =
            tilebuffer_layout(&formats, key.samples).map_err(|error| FragmentError::Layout {
                key: names.key.clone(),
                error,
            })?;
        let frag = Fragment::new(draw.width, draw.height, samples, layout.sample_size_bytes)
            .map_err(|error| FragmentError::TileShape {
                draw: names.draw.clone(),
                error,
            })?;
        let spilled = layout
            .render_targets
            .iter()
            .any(|p| p.offset_bytes.is_none());
        // Without spilled targets the heap stays zero, whatever the window position.
        let (heap, spilled_images) = if spilled {
            let b = spill_bindings(
                key,
                draw.origin[0].saturating_add(draw.width),
                draw.origin[1].saturating_add(draw.height),
                HEAP,
                IMAGES,
            )
            .map_err(|error| FragmentError::Spill {
                draw: names.draw.clone(),
                key: names.key.clone(),
                error,
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
                return Err(FragmentError::ImageBytes {
                    draw: names.draw.clone(),
                    key: names.key.clone(),
                    total,
                });
            }
            images.push(ImageMemory {
                image: image.clone(),
                address: image.address + image.stride * u64::from(draw.origin[1]),
                bytes: vec![0; bytes as usize],
            });
        }
        Ok(Tile {
            key: key.clone(),
            draw: draw.clone(),
            names: names.clone(),
            layout,
            frag,
            heap,
            images,
        })
    }

    /// The tile buffer's layout.
    pub fn layout(&self) -> &TileBufferLayout {
        &self.layout
    }
}

/// The code of the parts of a fragment program.
#[derive(Debug, Clone, Copy)]
pub struct Parts<'a> {
    /// The fragment prolog.
    pub prolog: Option<&'a [u8]>,
    /// The main fragment shader (empty when [`Outputs`] stand for it).
    pub main: &'a [u8],
    /// The epilog.
    pub epilog: &'a [u8],
}

/// The linker's facts about a part's code: the registers it uses, and whether it reads
/// the tile or writes the sample mask.
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

/// A linked fragment program: its code, where its parts sit, and the contract breaches
/// of the parts' code.
#[derive(Debug, Clone)]
pub struct FragmentProgram {
    /// What the linker made.
    pub linked: LinkedProgram,
    /// The contract breaches of the parts' code.
    pub violations: Vec<Violation>,
    /// Whether a fragment prolog is linked (it counts the fragment invocations).
    pub has_prolog: bool,
}

impl FragmentProgram {
    /// Checks the parts against their contracts and links them for `key` (`key_name`
    /// names the key in messages).
    pub fn link(
        key: &EpilogKey,
        key_name: &str,
        parts: Parts<'_>,
    ) -> Result<FragmentProgram, FragmentError> {
        let mut violations = Vec::new();
        if let Some(p) = parts.prolog {
            violations
                .extend(check_fs_prolog(p).map_err(|error| FragmentError::PrologCode { error })?);
        }
        violations.extend(
            check_epilog(key, parts.epilog).map_err(|error| FragmentError::EpilogCode { error })?,
        );
        let linked = link(&LinkInput {
            prolog: parts.prolog.map(|code| Part {
                code,
                info: info(code, false, true),
            }),
            main: Part {
                code: parts.main,
                info: info(parts.main, false, false),
            },
            epilog: Some(Part {
                code: parts.epilog,
                info: info(parts.epilog, true, false),
            }),
            samples: key.sample_shading.then_some(key.samples),
        })
        .map_err(|error| FragmentError::Link {
            key: key_name.to_string(),
            error,
        })?;
        Ok(FragmentProgram {
            linked,
            violations,
            has_prolog: parts.prolog.is_some(),
        })
    }

    /// The parts' names and byte ranges in the linked code.
    pub fn parts(&self) -> Vec<(String, Range<usize>)> {
        self.linked
            .pieces
            .iter()
            .map(|p| (p.name.clone(), p.offset..p.offset + p.size))
            .collect()
    }
}

/// One pixel's sample after the run.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleOut {
    /// Column in the tile.
    pub x: u32,
    /// Row in the tile.
    pub y: u32,
    /// Sample.
    pub sample: u32,
    /// Whether the sample is still covered.
    pub covered: bool,
    /// Each render target's bytes as stored (in the tile, or in a spilled target's
    /// image); `None` for an unbound target.
    pub rt: Vec<Option<Vec<u8>>>,
    /// The depth written.
    pub depth: Option<f32>,
    /// The stencil written.
    pub stencil: Option<u16>,
}

/// What a fragment draw leaves.
#[derive(Debug, Clone)]
pub struct FragmentOutcome {
    /// Each pixel's samples, in row order.
    pub samples: Vec<SampleOut>,
    /// The fragment-invocation counter in memory.
    pub counter: u32,
    /// The contract breaches, of the parts' code and at the sample loop's footer.
    pub violations: Vec<Violation>,
    /// The instruction counts, when asked for.
    pub stats: Option<Stats>,
    /// The tile after the run.
    pub fragment: Fragment,
    /// The tile buffer's layout.
    pub layout: TileBufferLayout,
}

/// GPR halves an instruction writes: its destinations, and `r0l` for the instructions
/// that move the nesting counter (`if`/`else`/`while`/`pop_exec`).
fn written_halves(ins: &Instruction) -> Vec<u16> {
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

/// The stand-in for the main shader: the outputs and their name for messages.
pub type NamedOutputs<'a> = (&'a str, &'a Outputs);

impl Tile {
    /// Clears the render targets the draw clears and loads the coefficient registers.
    fn prepare(&mut self) -> Result<(), FragmentError> {
        let (draw, names) = (&self.draw, &self.names);
        let samples = u32::from(self.key.samples);
        for (rt, bytes) in &draw.clears {
            if let Some(m) = self
                .images
                .iter_mut()
                .find(|m| usize::from(m.image.rt) == *rt)
            {
                let size = m.image.bytes_per_pixel as usize;
                if bytes.len() != size {
                    return Err(FragmentError::SpilledClear {
                        draw: names.draw.clone(),
                        rt: *rt,
                        len: bytes.len(),
                        size,
                    });
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
            let (_, offset, size) =
                placement(&self.layout, *rt).ok_or_else(|| FragmentError::UnboundClear {
                    draw: names.draw.clone(),
                    key: names.key.clone(),
                    rt: *rt,
                })?;
            if bytes.len() != size as usize {
                return Err(FragmentError::Clear {
                    draw: names.draw.clone(),
                    rt: *rt,
                    len: bytes.len(),
                    size,
                });
            }
            let frag = &mut self.frag;
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
            let frag = &mut self.frag;
            if frag.cf.len() <= *cf {
                frag.cf.resize(cf + 1, [0; 3]);
            }
            frag.cf[*cf] = plane.map(f32::to_bits);
        }
        Ok(())
    }

    /// The device memory and uniforms of the draw, with `blend` as the blend constant.
    fn start_state(&self, blend: [f32; 4]) -> Result<State, FragmentError> {
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
        let mut heap = self.heap.clone();
        heap.resize(heap.len().max(HEAP_BYTES), 0);
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
                bytes: self
                    .draw
                    .stipple
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect(),
            },
            Region {
                address: HEAP,
                bytes: heap,
            },
        ];
        // The images follow the four regions above, in the order of `images`.
        base.memory.extend(self.images.iter().map(|m| Region {
            address: m.address,
            bytes: m.bytes.clone(),
        }));
        let uniform = |e| FragmentError::Uniform { error: e };
        base.set_uniform(u32::from(FUNI_EMRT_HEAP.first_half), 64, HEAP)
            .map_err(uniform)?;
        for (c, v) in blend.iter().enumerate() {
            base.set_uniform(
                u32::from(FUNI_BLEND_R) + 2 * c as u32,
                32,
                u64::from(v.to_bits()),
            )
            .map_err(uniform)?;
        }
        base.set_uniform(u32::from(FUNI_ROOT.first_half), 64, ROOT)
            .map_err(uniform)?;
        base.grid = [self.draw.origin[0], self.draw.origin[1], 0];
        Ok(base)
    }

    /// Runs `program` over the tile with `blend` as the blend constant (when the draw
    /// gives none), and `outputs` standing for the main shader when given; counts the
    /// instructions when `stats` is set.
    pub fn run(
        mut self,
        program: &FragmentProgram,
        outputs: Option<NamedOutputs<'_>>,
        blend: [f32; 4],
        stats: bool,
    ) -> Result<FragmentOutcome, FragmentError> {
        self.prepare()?;
        let blend = self.draw.blend_constant.unwrap_or(blend);
        let base = self.start_state(blend)?;
        let draw = &self.draw;
        let sample_shading = self.key.sample_shading;
        let samples = u32::from(self.key.samples);
        let linked = &program.linked;
        let piece = |name: &str| linked.pieces.iter().find(|p| p.name == name);
        let body = piece("main").map_or(0, |p| p.offset);
        let footer = piece("sample loop footer").map(|p| p.offset);
        let parts = program.parts();
        let part_at = |pc: usize| -> (String, usize) {
            parts
                .iter()
                .rev()
                .find(|(_, r)| r.contains(&pc))
                .map_or(("program".to_string(), pc), |(n, r)| {
                    (n.clone(), pc - r.start)
                })
        };
        let run_error = |error: SimError| {
            // Offsets are in the linked program: say where each part sits.
            let list: Vec<String> = parts
                .iter()
                .map(|(n, r)| format!("{n} {}..{}", r.start, r.end))
                .collect();
            FragmentError::Run {
                error,
                draw: self.names.draw.clone(),
                parts: list.join(", "),
            }
        };
        let decoded = Program::decode(&linked.code).map_err(run_error)?;
        let mut session = Session::new(&decoded);

        let mut violations = program.violations.clone();
        let mut counts = stats.then(|| Stats::new(parts.clone()));
        let mut seen = BTreeSet::new();
        let mut missing_outputs = BTreeSet::new();
        let pixels = (draw.width * draw.height) as usize;
        let mut coverage = vec![0u8; pixels];
        let mut st = base.clone();
        st.frag = Some(Box::new(self.frag.clone()));
        for start in (0..pixels).step_by(LANES) {
            let n = (pixels - start).min(LANES);
            st.regs.clone_from(&base.regs);
            st.written.clone_from(&base.written);
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
            let mut observe = |pc: usize, ins: &Instruction, st: &mut State| {
                if let Some(c) = &mut counts {
                    c.observe(pc, ins, st);
                }
                if pc == body {
                    if let (Some((_, outputs)), Some(f)) = (&outputs, st.frag.as_deref()) {
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
                if Some(pc) == footer {
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
                if pc >= body && footer.is_none_or(|f| pc < f) {
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
            session
                .run_observed(&mut st, MAX_STEPS, &mut observe)
                .map_err(run_error)?;
            if let Some(f) = st.frag.as_deref() {
                coverage[start..start + n].copy_from_slice(&f.coverage[..n]);
            }
        }
        if let Some(&(x, y, sample)) = missing_outputs.iter().next() {
            return Err(FragmentError::MissingOutputs {
                outputs: outputs.map(|(n, _)| n.to_string()).unwrap_or_default(),
                x,
                y,
                sample,
                count: missing_outputs.len(),
            });
        }
        drop(session);

        // Read back.
        let f = st.frag.take().map_or(self.frag, |f| *f);
        let images = &self.images;
        // The images follow the root, counter, stipple and heap regions.
        const FIRST_IMAGE_REGION: usize = 4;
        let mut out = Vec::new();
        for y in 0..draw.height {
            for x in 0..draw.width {
                for s in 0..samples {
                    let idx = f.sample_index(x, y, s);
                    let rt = (0..self.key.rts.len())
                        .map(|i| {
                            if let Some(k) =
                                images.iter().position(|m| usize::from(m.image.rt) == i)
                            {
                                let m = &images[k];
                                let region = st.memory.get(FIRST_IMAGE_REGION + k)?;
                                let at = m.offset(x, y, s, draw.origin[0]);
                                let size = m.image.bytes_per_pixel as usize;
                                return Some(region.bytes[at..at + size].to_vec());
                            }
                            let (_, offset, size) = placement(&self.layout, i)?;
                            let at = f.byte(x, y, s, offset, size)?;
                            Some(f.tib[at..at + size as usize].to_vec())
                        })
                        .collect();
                    out.push(SampleOut {
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
        Ok(FragmentOutcome {
            samples: out,
            counter,
            violations,
            stats: counts,
            fragment: f,
            layout: self.layout,
        })
    }
}
