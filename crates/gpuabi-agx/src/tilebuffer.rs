//! Render-target formats, their physical tile-buffer formats, and the tile-buffer layout:
//! where each render target sits in a sample, which spill to memory, the sample size and
//! the tile size (Mesa's `agx_build_tilebuffer_layout`).
//!
//! Decision (spec open point): masked tile stores follow the behaviour with masks enabled —
//! a render target can use them when its physical format is not packed and it is not
//! spilled. The render targets are sorted by alignment as in current Mesa.

use serde::Serialize;
use thiserror::Error;

use crate::abi::is_valid_sample_count;

/// A physical tile-buffer format (the ISA's load/store formats).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Physical {
    /// 8-bit integer per channel.
    I8,
    /// 16-bit integer per channel.
    I16,
    /// 32-bit per channel (integers and 32-bit floats).
    I32,
    /// 16-bit float per channel.
    F16,
    /// 8-bit unsigned normalized per channel.
    U8Norm,
    /// 8-bit signed normalized per channel.
    S8Norm,
    /// 16-bit unsigned normalized per channel.
    U16Norm,
    /// 16-bit signed normalized per channel.
    S16Norm,
    /// Packed 10-10-10-2 unsigned normalized.
    Rgb10A2,
    /// Packed 8-8-8-8 sRGB.
    Srgba8,
    /// Packed 11-11-10 float.
    Rg11B10F,
    /// Packed shared-exponent 9-9-9-5 float.
    Rgb9E5,
}

/// Name, block size in bytes, channel count and mask support of each physical format.
const PHYSICAL: [(Physical, &str, u32, u32, bool); 12] = [
    (Physical::I8, "I8", 1, 1, true),
    (Physical::I16, "I16", 2, 1, true),
    (Physical::I32, "I32", 4, 1, true),
    (Physical::F16, "F16", 2, 1, true),
    (Physical::U8Norm, "U8NORM", 1, 1, true),
    (Physical::S8Norm, "S8NORM", 1, 1, true),
    (Physical::U16Norm, "U16NORM", 2, 1, true),
    (Physical::S16Norm, "S16NORM", 2, 1, true),
    // Packed formats cannot be stored with a write mask.
    (Physical::Rgb10A2, "RGB10A2", 4, 4, false),
    (Physical::Srgba8, "SRGBA8", 4, 4, true),
    (Physical::Rg11B10F, "RG11B10F", 4, 3, false),
    (Physical::Rgb9E5, "RGB9E5", 4, 3, false),
];

impl Physical {
    fn entry(self) -> (&'static str, u32, u32, bool) {
        let e = PHYSICAL[self as usize];
        (e.1, e.2, e.3, e.4)
    }

    /// The format's name (`U8NORM`).
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// Bytes per block: the format's alignment in the tile buffer.
    pub fn block_bytes(self) -> u32 {
        self.entry().1
    }

    /// Channels in one block (1 for per-channel formats).
    pub fn channels(self) -> u32 {
        self.entry().2
    }

    /// Whether masked tile stores work with the format.
    pub fn supports_mask(self) -> bool {
        self.entry().3
    }
}

/// A render-target (API) format: Mesa pipe-format name, channel count and physical format
/// (`None` for formats that cannot be rendered to).
pub const RT_FORMATS: &[(&str, u32, Option<Physical>)] = &[
    ("R8_UNORM", 1, Some(Physical::U8Norm)),
    ("R8G8_UNORM", 2, Some(Physical::U8Norm)),
    ("R8G8B8A8_UNORM", 4, Some(Physical::U8Norm)),
    ("B8G8R8A8_UNORM", 4, Some(Physical::U8Norm)),
    ("R8G8B8A8_SRGB", 4, Some(Physical::Srgba8)),
    ("B8G8R8A8_SRGB", 4, Some(Physical::Srgba8)),
    ("R8_SNORM", 1, Some(Physical::S8Norm)),
    ("R8G8_SNORM", 2, Some(Physical::S8Norm)),
    ("R8G8B8A8_SNORM", 4, Some(Physical::S8Norm)),
    ("R8_UINT", 1, Some(Physical::I8)),
    ("R8G8_UINT", 2, Some(Physical::I8)),
    ("R8G8B8A8_UINT", 4, Some(Physical::I8)),
    ("R8_SINT", 1, Some(Physical::I8)),
    ("R8G8_SINT", 2, Some(Physical::I8)),
    ("R8G8B8A8_SINT", 4, Some(Physical::I8)),
    ("R16_UNORM", 1, Some(Physical::U16Norm)),
    ("R16G16_UNORM", 2, Some(Physical::U16Norm)),
    ("R16G16B16A16_UNORM", 4, Some(Physical::U16Norm)),
    ("R16_SNORM", 1, Some(Physical::S16Norm)),
    ("R16G16_SNORM", 2, Some(Physical::S16Norm)),
    ("R16G16B16A16_SNORM", 4, Some(Physical::S16Norm)),
    ("R16_UINT", 1, Some(Physical::I16)),
    ("R16G16_UINT", 2, Some(Physical::I16)),
    ("R16G16B16A16_UINT", 4, Some(Physical::I16)),
    ("R16_SINT", 1, Some(Physical::I16)),
    ("R16G16_SINT", 2, Some(Physical::I16)),
    ("R16G16B16A16_SINT", 4, Some(Physical::I16)),
    ("R16_FLOAT", 1, Some(Physical::F16)),
    ("R16G16_FLOAT", 2, Some(Physical::F16)),
    ("R16G16B16A16_FLOAT", 4, Some(Physical::F16)),
    ("R32_FLOAT", 1, Some(Physical::I32)),
    ("R32G32_FLOAT", 2, Some(Physical::I32)),
    ("R32G32B32A32_FLOAT", 4, Some(Physical::I32)),
    ("R32_UINT", 1, Some(Physical::I32)),
    ("R32G32_UINT", 2, Some(Physical::I32)),
    ("R32G32B32A32_UINT", 4, Some(Physical::I32)),
    ("R32_SINT", 1, Some(Physical::I32)),
    ("R32G32_SINT", 2, Some(Physical::I32)),
    ("R32G32B32A32_SINT", 4, Some(Physical::I32)),
    // Logically normalized formats kept as F16 in the tile buffer (clamped when loaded
    // for blending).
    ("B5G6R5_UNORM", 3, Some(Physical::F16)),
    ("R4G4B4A4_UNORM", 4, Some(Physical::F16)),
    ("R10G10B10A2_UNORM", 4, Some(Physical::Rgb10A2)),
    ("B10G10R10A2_UNORM", 4, Some(Physical::Rgb10A2)),
    ("R10G10B10A2_UINT", 4, Some(Physical::I16)),
    ("R10G10B10A2_SINT", 4, None),
    ("R11G11B10_FLOAT", 3, Some(Physical::Rg11B10F)),
    ("R9G9B9E5_FLOAT", 3, Some(Physical::Rgb9E5)),
    ("Z16_UNORM", 1, None),
    ("Z32_FLOAT", 1, None),
    ("S8_UINT", 1, None),
    ("Z24_UNORM_S8_UINT", 2, None),
    ("Z32_FLOAT_S8X24_UINT", 2, None),
];

/// Bytes a sample may use in the tile buffer before render targets spill to memory.
pub const MAX_BYTES_PER_SAMPLE: u32 = 64;
/// Bytes a tile may use (G13).
pub const MAX_BYTES_PER_TILE: u32 = 32767;
/// Tile sizes from largest to smallest; the last is the architectural minimum.
pub const TILE_SIZES: [(u32, u32); 3] = [(32, 32), (32, 16), (16, 16)];

/// A tile-buffer layout request that cannot be satisfied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TileBufferError {
    /// A format name not in the table.
    #[error(
        "unknown render-target format `{0}` (use Mesa pipe-format names such as R8G8B8A8_UNORM)"
    )]
    UnknownFormat(String),
    /// A format AGX cannot render to.
    #[error("format `{0}` is not renderable on AGX")]
    NotRenderable(String),
    /// A sample count AGX does not have.
    #[error("unsupported sample count {0}: AGX has 1, 2 or 4 samples")]
    UnsupportedSampleCount(u8),
    /// More than 8 render targets.
    #[error("{0} render targets given; AGX has 8")]
    TooManyRenderTargets(usize),
}

/// Looks up a render-target format by its pipe-format name (case-insensitive, with or
/// without `PIPE_FORMAT_`).
pub fn rt_format(name: &str) -> Result<(&'static str, u32, Physical), TileBufferError> {
    let upper = name.to_ascii_uppercase();
    let bare = upper.strip_prefix("PIPE_FORMAT_").unwrap_or(&upper);
    let &(canon, channels, phys) = RT_FORMATS
        .iter()
        .find(|(n, _, _)| *n == bare)
        .ok_or_else(|| TileBufferError::UnknownFormat(name.to_string()))?;
    let phys = phys.ok_or_else(|| TileBufferError::NotRenderable(canon.to_string()))?;
    Ok((canon, channels, phys))
}

/// Where one render target lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RtPlacement {
    /// Render-target index.
    pub rt: u8,
    /// Logical format.
    pub format: String,
    /// Physical tile-buffer format.
    pub physical: String,
    /// Alignment: the physical block size.
    pub align_bytes: u32,
    /// Bytes per sample.
    pub size_bytes: u32,
    /// Byte offset in the sample; `None` when spilled to memory.
    pub offset_bytes: Option<u32>,
    /// Masked tile stores can be used (physical format allows it and not spilled).
    pub supports_mask: bool,
}

/// The tile-buffer layout of a set of render targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TileBufferLayout {
    /// Samples per pixel.
    pub samples: u8,
    /// Bound render targets by index.
    pub render_targets: Vec<RtPlacement>,
    /// Bytes per sample (multiple of 8).
    pub sample_size_bytes: u32,
    /// Tile width in pixels.
    pub tile_width: u32,
    /// Tile height in pixels.
    pub tile_height: u32,
    /// Bytes per tile: sample size × samples × tile pixels.
    pub total_bytes: u32,
}

/// Lays out the render targets (`None` = unbound slot) for `samples` samples.
pub fn tilebuffer_layout(
    formats: &[Option<&str>],
    samples: u8,
) -> Result<TileBufferLayout, TileBufferError> {
    if !is_valid_sample_count(samples) {
        return Err(TileBufferError::UnsupportedSampleCount(samples));
    }
    if formats.len() > 8 {
        return Err(TileBufferError::TooManyRenderTargets(formats.len()));
    }
    let mut rts = Vec::new();
    for (i, f) in formats.iter().enumerate() {
        if let Some(name) = f {
            let (canon, channels, phys) = rt_format(name)?;
            let align = phys.block_bytes();
            let size = if phys.channels() == 1 {
                align * channels
            } else {
                align
            };
            rts.push(RtPlacement {
                rt: i as u8,
                format: canon.to_string(),
                physical: phys.name().to_string(),
                align_bytes: align,
                size_bytes: size,
                offset_bytes: None,
                supports_mask: phys.supports_mask(),
            });
        }
    }
    // Stable sort by alignment, largest first, so no padding is needed.
    let mut order: Vec<usize> = (0..rts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(rts[i].align_bytes));
    let min_tile = TILE_SIZES[TILE_SIZES.len() - 1];
    let mut offset = 0u32;
    for i in order {
        let end = offset + rts[i].size_bytes;
        let fits = end <= MAX_BYTES_PER_SAMPLE
            && end.next_multiple_of(8) * min_tile.0 * min_tile.1 * u32::from(samples)
                <= MAX_BYTES_PER_TILE;
        if fits {
            rts[i].offset_bytes = Some(offset);
            offset = end;
        } else {
            rts[i].supports_mask = false;
        }
    }
    if samples > 1 {
        // Multisampling needs a non-empty allocation.
        offset = offset.max(1);
    }
    let sample_size = offset.next_multiple_of(8);
    let per_pixel = sample_size * u32::from(samples);
    let (w, h) = TILE_SIZES
        .iter()
        .copied()
        .find(|(w, h)| per_pixel * w * h <= MAX_BYTES_PER_TILE)
        .unwrap_or(min_tile);
    Ok(TileBufferLayout {
        samples,
        render_targets: rts,
        sample_size_bytes: sample_size,
        tile_width: w,
        tile_height: h,
        total_bytes: per_pixel * w * h,
    })
}
