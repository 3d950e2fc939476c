//! The fragment context of a SIMD group: the tile buffer (bytes per pixel and sample),
//! each lane's pixel and covered samples, deferred depth/stencil, and the coefficient
//! registers that `iter`/`ldcf` read.
//!
//! Layout: sample `s` of pixel `(x, y)` starts at byte
//! `((y * width + x) * samples + s) * sample_size`; `st_tile`/`ld_tile` offsets are bytes
//! within the sample, as Mesa's `agx_nir_lower_tilebuffer.c` passes
//! `agx_tilebuffer_offset_B` unchanged as the instruction's `pixel_offset` (packed by
//! `agx_pack.c`). Where pixels sit relative to each other is not visible to fragment
//! code (only explicit coordinates address another pixel), so the row-major order is
//! gpuabi's choice.

use crate::error::SimError;
use crate::state::LANES;

/// Largest simulated tile: 32 × 32 pixels (the largest tile size of Mesa's
/// `agx_tilebuffer.c`).
pub const MAX_TILE_PIXELS: u32 = 32 * 32;
/// Largest bytes per sample (Mesa's `agx_build_tilebuffer_layout` spills beyond 64).
pub const MAX_SAMPLE_SIZE: u32 = 64;
/// Largest sample count (AGX renders at most 4 samples).
pub const MAX_SAMPLES: u32 = 4;

/// The tile buffer and fragment state of a SIMD group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// Tile width in pixels.
    pub width: u32,
    /// Tile height in pixels.
    pub height: u32,
    /// Samples per pixel (1, 2 or 4).
    pub samples: u32,
    /// Bytes per sample.
    pub sample_size: u32,
    /// The tile buffer.
    pub tib: Vec<u8>,
    /// The pixel of each lane.
    pub pixel: [(u16, u16); LANES],
    /// Samples of each lane's pixel still covered (bit per sample); `sample_mask` clears
    /// killed samples.
    pub coverage: [u8; LANES],
    /// Samples of each lane whose depth/stencil tests ran (`sample_mask` with live bits).
    pub tested: [u8; LANES],
    /// Samples of each lane's pixel the rasterizer covered when the run began: what the
    /// `input_sample_mask` special register reads (kills by `sample_mask` do not change
    /// it, as GL's `gl_SampleMaskIn` is the coverage before the shader).
    pub input_coverage: [u8; LANES],
    /// Deferred depth (fp32 bits) per pixel and sample, written by `zs_emit`.
    pub depth: Vec<Option<u32>>,
    /// Deferred stencil per pixel and sample, written by `zs_emit`.
    pub stencil: Vec<Option<u16>>,
    /// Coefficient registers: the plane `(a, b, c)` of a varying, fp32 bits; the value at
    /// position `(x, y)` is `a·x + b·y + c`.
    pub cf: Vec<[u32; 3]>,
    /// Sample positions packed as Mesa's `agx_default_sample_positions` packs them for
    /// the `PPP_MULTISAMPLECTL` register: byte `s` is sample `s`, its low nibble x and
    /// high nibble y in sixteenths of a pixel.
    pub sample_positions: u32,
}

/// The standard sample positions of `samples` samples (Mesa's
/// `agx_default_sample_positions`, the D3D standard patterns).
pub fn default_sample_positions(samples: u32) -> u32 {
    match samples {
        2 => 0x44cc,
        4 => 0xeaa2_6e26,
        _ => 0x88,
    }
}

impl Fragment {
    /// A tile of `width` × `height` pixels with `samples` samples of `sample_size` bytes,
    /// zero-filled, every sample covered, lane `l` at pixel `(l % width, l / width)`
    /// (lanes past the tile share its last pixel).
    pub fn new(
        width: u32,
        height: u32,
        samples: u32,
        sample_size: u32,
    ) -> Result<Fragment, SimError> {
        if width == 0
            || height == 0
            || width
                .checked_mul(height)
                .is_none_or(|p| p > MAX_TILE_PIXELS)
            || !matches!(samples, 1 | 2 | 4)
            || sample_size > MAX_SAMPLE_SIZE
        {
            return Err(SimError::TileShape {
                width,
                height,
                samples,
                sample_size,
            });
        }
        let pixels = (width * height) as usize;
        let per_pixel = (samples * sample_size) as usize;
        let last = pixels - 1;
        let pixel = std::array::from_fn(|l| {
            let p = l.min(last) as u32;
            ((p % width) as u16, (p / width) as u16)
        });
        let mut f = Fragment {
            width,
            height,
            samples,
            sample_size,
            tib: vec![0; pixels * per_pixel],
            pixel,
            coverage: [0; LANES],
            tested: [0; LANES],
            input_coverage: [0; LANES],
            depth: vec![None; pixels * samples as usize],
            stencil: vec![None; pixels * samples as usize],
            cf: Vec::new(),
            sample_positions: default_sample_positions(samples),
        };
        f.coverage = [f.all_samples(); LANES];
        f.input_coverage = f.coverage;
        Ok(f)
    }

    /// Mask of the samples a pixel has.
    pub fn all_samples(&self) -> u8 {
        1u32.checked_shl(self.samples).unwrap_or(0).wrapping_sub(1) as u8
    }

    /// Index of sample `s` of pixel `(x, y)` in `depth`/`stencil`, if inside the tile.
    pub fn sample_index(&self, x: u32, y: u32, s: u32) -> Option<usize> {
        (x < self.width && y < self.height && s < self.samples)
            .then(|| ((y * self.width + x) * self.samples + s) as usize)
    }

    /// Byte address in `tib` of `offset` within sample `s` of pixel `(x, y)`, when `len`
    /// bytes from there stay inside the sample.
    pub fn byte(&self, x: u32, y: u32, s: u32, offset: u32, len: u32) -> Option<usize> {
        let i = self.sample_index(x, y, s)?;
        let at = i * self.sample_size as usize + offset as usize;
        (offset + len <= self.sample_size && at + len as usize <= self.tib.len()).then_some(at)
    }

    /// Position of sample `s` within its pixel, in pixels.
    pub fn sample_position(&self, s: u32) -> (f64, f64) {
        let b = self.sample_positions >> (8 * (s & 3)) & 0xff;
        (f64::from(b & 0xf) / 16.0, f64::from(b >> 4) / 16.0)
    }
}
