//! Image instructions (MIMG, GCN 1.0/1.1): `image_load`, `image_load_mip`, `image_store`,
//! `image_store_mip` and `image_sample`, through an image resource (T#, 8 dwords) and a
//! sampler (S#, 4 dwords).
//!
//! The descriptors' fields are those of "Southern Islands Series Instruction Set
//! Architecture", "Image Resource" and "Sampler Resource" (the same positions as Mesa's
//! `SQ_IMG_RSRC_WORD0..7` and `SQ_IMG_SAMP_WORD0..3` in `src/amd/common/sid.h`). Texels
//! convert as typed buffer elements do ([`TypedFormat`]: the image data formats 1..14
//! are the buffer ones), then go through the resource's destination selects.
//!
//! What the simulator models, and the decisions where the manual is silent:
//! - Linear images only: TILING_INDEX 8, `ARRAY_LINEAR_ALIGNED` in the tile-mode table of
//!   GCN 1.0/1.1 (Linux's `si_tiling_mode_table_init` in `drivers/gpu/drm/radeon/si.c`).
//!   Texel (x, y, slice) lies at base + ((slice × height + y) × pitch + x) × bytes; the
//!   pitch is taken as given. Types 1D, 2D, 3D, 1D array and 2D array; one mip level
//!   (BASE_LEVEL = LAST_LEVEL).
//! - Coordinates past the image: loads give 0 in every component, stores are dropped.
//! - Sampling: coordinates are f32, normalized to [0, 1] unless the instruction says
//!   `unorm` or the sampler FORCE_UNNORMALIZED. Point sampling takes texel ⌊u⌋; bilinear
//!   takes texels ⌊u − ½⌋ and the next with weights from the fraction of u − ½ (as OpenCL
//!   1.2 §8.2 and every graphics API define the linear filter). Texel coordinates are
//!   first rounded to 1/256 of a texel, the 8 bits of sub-texel precision Direct3D 11
//!   requires of texture addressing (so a coordinate normalized with an inexact 1/width,
//!   as AMD's code does for argument samplers, lands on its texel). The blend is computed
//!   exactly and rounded once to f32 (the manual does not give the filter's precision).
//!   Images of an integer number format (UINT, SINT) are point sampled whatever the
//!   filter (OpenCL leaves filtering them undefined; integer texels cannot be blended).
//!   The magnification and minification filters must agree (with one mip level the LOD
//!   would only choose between them). Addressing modes: wrap, mirror, clamp to the last
//!   texel and clamp to the border (transparent black, opaque black or opaque white).
//! - Refused with an error naming the instruction: `r128`, `tfe`, `lwe`, `da` without an
//!   array resource, tiled or mipmapped images, other addressing modes and filters, the
//!   formats [`TypedFormat`] refuses, and stores whose `dmask` leaves out a component the
//!   format has.

use gpuabi_amdgpu::Opcode;

use crate::error::SimError;
use crate::exec::memory::{bad_address, MemCtx};
use crate::exec::typed::TypedFormat;
use crate::image::{Decoded, Dst, Src};
use crate::wave::Wave;

/// The tiling index of a linear image ([`ImageResource::tiling_index`]).
pub const LINEAR_TILING_INDEX: u8 = 8;

/// Steps per texel a texel coordinate is rounded to.
const SUBTEXELS: f64 = 256.0;

/// Image types (the resource's TYPE field, `SQ_RSRC_IMG_*`).
pub mod image_type {
    /// 1D.
    pub const D1: u8 = 8;
    /// 2D.
    pub const D2: u8 = 9;
    /// 3D.
    pub const D3: u8 = 10;
    /// 1D array.
    pub const D1_ARRAY: u8 = 12;
    /// 2D array.
    pub const D2_ARRAY: u8 = 13;
}

/// An image resource descriptor (T#), the fields the simulator uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageResource {
    /// Byte address of texel 0 (256-byte aligned: the descriptor holds bits 47:8).
    pub base: u64,
    /// DATA_FORMAT (1 `8` … 14 `32_32_32_32`).
    pub data_format: u8,
    /// NUM_FORMAT (0 UNORM … 7 FLOAT).
    pub num_format: u8,
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D images).
    pub height: u32,
    /// Depth in texels (3D) or slices (arrays).
    pub depth: u32,
    /// Row pitch in texels.
    pub pitch: u32,
    /// DST_SEL_X..W: 0 gives 0, 1 gives 1, 4..7 give component x..w.
    pub dst_sel: [u8; 4],
    /// BASE_LEVEL.
    pub base_level: u8,
    /// LAST_LEVEL.
    pub last_level: u8,
    /// TILING_INDEX.
    pub tiling_index: u8,
    /// TYPE ([`image_type`]).
    pub ty: u8,
}

impl ImageResource {
    /// Decodes the eight dwords.
    pub fn decode(d: [u32; 8]) -> ImageResource {
        ImageResource {
            base: (u64::from(d[0]) | u64::from(d[1] & 0xff) << 32) << 8,
            data_format: (d[1] >> 20 & 0x3f) as u8,
            num_format: (d[1] >> 26 & 0xf) as u8,
            width: (d[2] & 0x3fff) + 1,
            height: (d[2] >> 14 & 0x3fff) + 1,
            depth: (d[4] & 0x1fff) + 1,
            pitch: (d[4] >> 13 & 0x3fff) + 1,
            dst_sel: [
                (d[3] & 7) as u8,
                (d[3] >> 3 & 7) as u8,
                (d[3] >> 6 & 7) as u8,
                (d[3] >> 9 & 7) as u8,
            ],
            base_level: (d[3] >> 12 & 0xf) as u8,
            last_level: (d[3] >> 16 & 0xf) as u8,
            tiling_index: (d[3] >> 20 & 0x1f) as u8,
            ty: (d[3] >> 28) as u8,
        }
    }

    /// Encodes the fields above (the inverse of [`ImageResource::decode`] for values that
    /// fit their fields; the others are 0). Arrays cover every slice (BASE_ARRAY 0,
    /// LAST_ARRAY depth − 1).
    pub fn encode(&self) -> [u32; 8] {
        let last_array = if matches!(self.ty, image_type::D1_ARRAY | image_type::D2_ARRAY) {
            (self.depth - 1) & 0x1fff
        } else {
            0
        };
        [
            (self.base >> 8) as u32,
            (self.base >> 40) as u32 & 0xff
                | u32::from(self.data_format & 0x3f) << 20
                | u32::from(self.num_format & 0xf) << 26,
            ((self.width - 1) & 0x3fff) | ((self.height - 1) & 0x3fff) << 14,
            u32::from(self.dst_sel[0] & 7)
                | u32::from(self.dst_sel[1] & 7) << 3
                | u32::from(self.dst_sel[2] & 7) << 6
                | u32::from(self.dst_sel[3] & 7) << 9
                | u32::from(self.base_level & 0xf) << 12
                | u32::from(self.last_level & 0xf) << 16
                | u32::from(self.tiling_index & 0x1f) << 20
                | u32::from(self.ty & 0xf) << 28,
            ((self.depth - 1) & 0x1fff) | ((self.pitch - 1) & 0x3fff) << 13,
            last_array << 13,
            0,
            0,
        ]
    }

    /// Coordinates an access takes: x, then y (2D, 3D, 2D array), then z or the slice.
    fn coordinates(&self) -> Option<usize> {
        match self.ty {
            image_type::D1 => Some(1),
            image_type::D2 | image_type::D1_ARRAY => Some(2),
            image_type::D3 | image_type::D2_ARRAY => Some(3),
            _ => None,
        }
    }

    fn is_array(&self) -> bool {
        matches!(self.ty, image_type::D1_ARRAY | image_type::D2_ARRAY)
    }

    /// Texels per axis (x, y, z or slice).
    fn size(&self, axis: usize) -> u32 {
        match (axis, self.ty) {
            (0, _) => self.width,
            (1, image_type::D1_ARRAY) => self.depth,
            (1, _) => self.height,
            _ => self.depth,
        }
    }

    /// The byte address of texel `c` (x, y or slice, z or slice), `None` past the image.
    fn texel_address(&self, c: [i64; 3], bytes: u32) -> Option<u64> {
        let n = self.coordinates()?;
        for (axis, &v) in c.iter().enumerate().take(n) {
            if v < 0 || v >= i64::from(self.size(axis)) {
                return None;
            }
        }
        let (x, y, slice) = match self.ty {
            image_type::D1 => (c[0], 0, 0),
            image_type::D1_ARRAY => (c[0], 0, c[1]),
            _ => (c[0], c[1], c[2]),
        };
        let row = (slice as u64 * u64::from(self.height) + y as u64) * u64::from(self.pitch);
        Some(self.base + (row + x as u64) * u64::from(bytes))
    }
}

/// A sampler descriptor (S#), the fields the simulator uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampler {
    /// CLAMP_X, CLAMP_Y, CLAMP_Z ([`clamp`]).
    pub clamp: [u8; 3],
    /// FORCE_UNNORMALIZED: coordinates are texels.
    pub force_unnormalized: bool,
    /// XY_MAG_FILTER ([`filter`]).
    pub mag_filter: u8,
    /// XY_MIN_FILTER.
    pub min_filter: u8,
    /// Z_FILTER (0 none, 1 point, 2 linear).
    pub z_filter: u8,
    /// MIP_FILTER (0 none, 1 point, 2 linear).
    pub mip_filter: u8,
    /// FILTER_MODE (0 blend, 1 min, 2 max).
    pub filter_mode: u8,
    /// BORDER_COLOR_TYPE ([`border`]).
    pub border_color: u8,
}

/// Addressing modes (CLAMP_X/Y/Z, `SQ_TEX_CLAMP_*`).
pub mod clamp {
    /// Repeat.
    pub const WRAP: u8 = 0;
    /// Mirrored repeat.
    pub const MIRROR: u8 = 1;
    /// Clamp to the edge texel.
    pub const CLAMP_LAST_TEXEL: u8 = 2;
    /// Texels outside the image are the border color.
    pub const CLAMP_BORDER: u8 = 6;
}

/// Filters (XY_MAG_FILTER, XY_MIN_FILTER: `SQ_TEX_XY_FILTER_*`).
pub mod filter {
    /// Nearest texel.
    pub const POINT: u8 = 0;
    /// Bilinear.
    pub const BILINEAR: u8 = 1;
}

/// Border colors (BORDER_COLOR_TYPE, `SQ_TEX_BORDER_COLOR_*`).
pub mod border {
    /// (0, 0, 0, 0).
    pub const TRANS_BLACK: u8 = 0;
    /// (0, 0, 0, 1).
    pub const OPAQUE_BLACK: u8 = 1;
    /// (1, 1, 1, 1).
    pub const OPAQUE_WHITE: u8 = 2;
}

impl Sampler {
    /// Decodes the four dwords.
    pub fn decode(d: [u32; 4]) -> Sampler {
        Sampler {
            clamp: [
                (d[0] & 7) as u8,
                (d[0] >> 3 & 7) as u8,
                (d[0] >> 6 & 7) as u8,
            ],
            force_unnormalized: d[0] >> 15 & 1 != 0,
            filter_mode: (d[0] >> 29 & 3) as u8,
            mag_filter: (d[2] >> 20 & 3) as u8,
            min_filter: (d[2] >> 22 & 3) as u8,
            z_filter: (d[2] >> 24 & 3) as u8,
            mip_filter: (d[2] >> 26 & 3) as u8,
            border_color: (d[3] >> 30) as u8,
        }
    }

    /// Encodes the fields above (the inverse of [`Sampler::decode`]; MAX_LOD is 15, the
    /// other fields 0).
    pub fn encode(&self) -> [u32; 4] {
        [
            u32::from(self.clamp[0] & 7)
                | u32::from(self.clamp[1] & 7) << 3
                | u32::from(self.clamp[2] & 7) << 6
                | u32::from(self.force_unnormalized) << 15
                | u32::from(self.filter_mode & 3) << 29,
            // MAX_LOD 15.0 in the 4.8 fixed-point field.
            (15 << 8) << 12,
            u32::from(self.mag_filter & 3) << 20
                | u32::from(self.min_filter & 3) << 22
                | u32::from(self.z_filter & 3) << 24
                | u32::from(self.mip_filter & 3) << 26,
            u32::from(self.border_color & 3) << 30,
        ]
    }
}

fn error(d: &Decoded, message: impl Into<String>) -> SimError {
    SimError::Invalid(gpuabi_amdgpu::ProgramError {
        origin: d.origin.clone(),
        message: format!(
            "`{}` at byte {}: {}",
            d.op.info().mnemonic,
            d.addr,
            message.into()
        ),
    })
}

fn sgprs<const N: usize>(w: &Wave, src: Src) -> [u32; N] {
    let first = match src {
        Src::Sgpr(i) => usize::from(i),
        _ => 0,
    };
    std::array::from_fn(|k| w.sgpr.get(first + k).copied().unwrap_or(0))
}

/// The resource of `d` with the checks every access needs, and its texel format.
fn resource(d: &Decoded, w: &Wave, src: Src) -> Result<(ImageResource, TypedFormat), SimError> {
    let m = d.mods;
    if m.r128 || m.tfe || m.lwe {
        return Err(error(d, "`r128`, `tfe` and `lwe` are not simulated"));
    }
    let r = ImageResource::decode(sgprs::<8>(w, src));
    if r.coordinates().is_none() {
        return Err(error(d, format!("image type {} is not simulated", r.ty)));
    }
    if m.da != r.is_array() {
        return Err(error(
            d,
            format!(
                "`da` {} the resource's type {} (arrays are 12 and 13)",
                if m.da { "with" } else { "without" },
                r.ty
            ),
        ));
    }
    if r.tiling_index != LINEAR_TILING_INDEX {
        return Err(error(
            d,
            format!(
                "tiling index {}: only linear images (index {LINEAR_TILING_INDEX}) are simulated",
                r.tiling_index
            ),
        ));
    }
    if r.base_level != r.last_level {
        return Err(error(d, "mipmapped images are not simulated"));
    }
    if r.data_format > 15 || r.num_format > 7 {
        return Err(error(
            d,
            format!(
                "image format {}/{} is not simulated",
                r.data_format, r.num_format
            ),
        ));
    }
    let tf = TypedFormat::new(r.data_format | r.num_format << 4).map_err(|e| {
        error(
            d,
            format!("image format {}/{}: {e}", r.data_format, r.num_format),
        )
    })?;
    Ok((r, tf))
}

/// The four components of the texel at `c` (before the destination selects), or `None`
/// past the image.
fn texel(
    d: &Decoded,
    ctx: &mut MemCtx,
    r: &ImageResource,
    tf: &TypedFormat,
    c: [i64; 3],
    lane: usize,
) -> Result<Option<[u32; 4]>, SimError> {
    let bytes = tf.bytes();
    let Some(a) = r.texel_address(c, bytes) else {
        return Ok(None);
    };
    let mut element = vec![0u8; bytes as usize];
    for (k, chunk) in element.chunks_mut(4).enumerate() {
        let at = a + 4 * k as u64;
        let n = chunk.len() as u32;
        let v = ctx
            .mem
            .read(at, n)
            .ok_or_else(|| bad_address(d, "load", at, n, lane))?;
        chunk.copy_from_slice(&v.to_le_bytes()[..n as usize]);
    }
    Ok(Some(tf.load(&element, 4)))
}

/// The components after the destination selects.
fn swizzle(r: &ImageResource, tf: &TypedFormat, v: [u32; 4]) -> [u32; 4] {
    r.dst_sel.map(|s| match s {
        0 => 0,
        1 => tf.one(),
        4..=7 => v[usize::from(s - 4)],
        // Selects 2 and 3 are reserved; read as 0.
        _ => 0,
    })
}

/// Writes the `dmask`-selected components to the data VGPRs of `lane`.
fn write_data(d: &Decoded, w: &mut Wave, data: u16, lane: usize, v: [u32; 4]) {
    let mask = if d.mods.dmask == 0 { 1 } else { d.mods.dmask };
    let mut reg = data;
    for (k, value) in v.iter().enumerate() {
        if mask >> k & 1 != 0 {
            w.set_v(reg, lane, *value);
            reg += 1;
        }
    }
}

/// Executes an image instruction.
pub fn exec(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    match d.op {
        Opcode::ImageStore | Opcode::ImageStoreMip => store(d, w, ctx),
        Opcode::ImageSample => sample(d, w, ctx),
        _ => load(d, w, ctx),
    }
}

fn vgpr(src: Src) -> u16 {
    match src {
        Src::Vgpr(r) => r,
        _ => 0,
    }
}

/// Integer coordinates of `lane` and whether its mip level (the `_mip` forms) exists.
fn int_coordinates(
    d: &Decoded,
    w: &Wave,
    r: &ImageResource,
    addr: u16,
    lane: usize,
) -> ([i64; 3], bool) {
    let n = r.coordinates().unwrap_or(1);
    let mut c = [0i64; 3];
    for (k, slot) in c.iter_mut().enumerate().take(n) {
        *slot = i64::from(w.v(addr + k as u16, lane) as i32);
    }
    let mip = matches!(d.op, Opcode::ImageLoadMip | Opcode::ImageStoreMip);
    let level_ok = !mip || w.v(addr + n as u16, lane) == 0;
    (c, level_ok)
}

fn load(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    let Dst::Vgpr(data) = d.dst[0] else {
        return Ok(());
    };
    let (r, tf) = resource(d, w, d.src[1])?;
    let addr = vgpr(d.src[0]);
    let mut m = w.exec();
    let mut results = Vec::new();
    // Every lane's address is read before any data is written (the data may overlap it).
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let (c, level_ok) = int_coordinates(d, w, &r, addr, lane);
        let v = if level_ok {
            texel(d, ctx, &r, &tf, c, lane)?
        } else {
            None
        };
        results.push((lane, v.map_or([0; 4], |v| swizzle(&r, &tf, v))));
    }
    for (lane, v) in results {
        write_data(d, w, data, lane, v);
    }
    Ok(())
}

fn store(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    let (r, tf) = resource(d, w, d.src[2])?;
    let (data, addr) = (vgpr(d.src[0]), vgpr(d.src[1]));
    let n = tf.components();
    let mask = if d.mods.dmask == 0 { 1 } else { d.mods.dmask };
    if (0..n).any(|k| mask >> k & 1 == 0) {
        return Err(error(
            d,
            format!(
                "`dmask:{:#x}` leaves out components of a format with {n}",
                d.mods.dmask
            ),
        ));
    }
    let mut m = w.exec();
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let (c, level_ok) = int_coordinates(d, w, &r, addr, lane);
        let Some(a) = r.texel_address(c, tf.bytes()).filter(|_| level_ok) else {
            continue;
        };
        // The enabled components fill the data VGPRs in order; the format takes its own.
        let mut values = Vec::with_capacity(n);
        let mut reg = data;
        for k in 0..4 {
            if mask >> k & 1 != 0 {
                if k < n {
                    values.push(w.v(reg, lane));
                }
                reg += 1;
            }
        }
        let element = tf
            .store(&values)
            .map_err(|e| error(d, format!("lane {lane}: {e}")))?;
        for (k, chunk) in element.chunks(4).enumerate() {
            let at = a + 4 * k as u64;
            let value = chunk.iter().rev().fold(0u32, |v, b| v << 8 | u32::from(*b));
            let len = chunk.len() as u32;
            ctx.mem
                .write(at, len, value)
                .ok_or_else(|| bad_address(d, "store", at, len, lane))?;
        }
    }
    Ok(())
}

/// The texel index along an axis of `size` texels for texel coordinate `i`, or `None` for
/// the border.
fn address(mode: u8, i: i64, size: u32) -> Option<i64> {
    let s = i64::from(size);
    match mode {
        clamp::WRAP => Some(i.rem_euclid(s)),
        clamp::MIRROR => {
            let period = i.rem_euclid(2 * s);
            Some(if period < s {
                period
            } else {
                2 * s - 1 - period
            })
        }
        clamp::CLAMP_LAST_TEXEL => Some(i.clamp(0, s - 1)),
        _ => (0..s).contains(&i).then_some(i),
    }
}

fn sample(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    let Dst::Vgpr(data) = d.dst[0] else {
        return Ok(());
    };
    let (r, tf) = resource(d, w, d.src[1])?;
    let s = Sampler::decode(sgprs::<4>(w, d.src[2]));
    let n = r.coordinates().unwrap_or(1);
    if s.mag_filter != s.min_filter || s.mag_filter > filter::BILINEAR {
        return Err(error(
            d,
            format!(
                "sampler filters {}/{} (magnification/minification): only equal point or \
                 bilinear filters are simulated",
                s.mag_filter, s.min_filter
            ),
        ));
    }
    if s.filter_mode != 0 {
        return Err(error(d, "min/max filter modes are not simulated"));
    }
    for &mode in s.clamp.iter().take(n) {
        if !matches!(
            mode,
            clamp::WRAP | clamp::MIRROR | clamp::CLAMP_LAST_TEXEL | clamp::CLAMP_BORDER
        ) {
            return Err(error(d, format!("addressing mode {mode} is not simulated")));
        }
    }
    let border = match s.border_color {
        border::TRANS_BLACK => [0, 0, 0, 0],
        border::OPAQUE_BLACK => [0, 0, 0, tf.one()],
        border::OPAQUE_WHITE => [tf.one(); 4],
        _ => return Err(error(d, "border colors from registers are not simulated")),
    };
    let unnormalized = d.mods.unorm || s.force_unnormalized;
    let integer = tf.is_integer();
    // Which axes are filtered: x and y by the XY filter, z of a 3D image by the Z filter;
    // an array's slice is never filtered (it is rounded to the nearest slice).
    let linear = |axis: usize| -> bool {
        if integer {
            return false;
        }
        match (axis, r.ty) {
            (1, image_type::D1_ARRAY) | (2, image_type::D2_ARRAY) => false,
            (2, _) => s.z_filter == 2,
            _ => s.mag_filter == filter::BILINEAR,
        }
    };
    let addr = vgpr(d.src[0]);
    let mut m = w.exec();
    let mut results = Vec::new();
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        // Per axis: up to two texel indices with their weights.
        let mut taps: [[(Option<i64>, f64); 2]; 3] = [[(Some(0), 1.0), (None, 0.0)]; 3];
        for (axis, tap) in taps.iter_mut().enumerate().take(n) {
            let f = f64::from(f32::from_bits(w.v(addr + axis as u16, lane)));
            let size = r.size(axis);
            let slice = matches!(
                (axis, r.ty),
                (1, image_type::D1_ARRAY) | (2, image_type::D2_ARRAY)
            );
            if slice {
                // Slices are texel numbers in either coordinate mode, rounded to nearest.
                let i = f.round_ties_even().clamp(0.0, f64::from(size - 1)) as i64;
                *tap = [(Some(i), 1.0), (None, 0.0)];
                continue;
            }
            let u = if unnormalized { f } else { f * f64::from(size) };
            let u = (u * SUBTEXELS).round() / SUBTEXELS;
            let mode = s.clamp[axis];
            *tap = if linear(axis) {
                let t = u - 0.5;
                let i0 = t.floor();
                let a = t - i0;
                [
                    (address(mode, i0 as i64, size), 1.0 - a),
                    (address(mode, i0 as i64 + 1, size), a),
                ]
            } else {
                [(address(mode, u.floor() as i64, size), 1.0), (None, 0.0)]
            };
        }
        let mut sum = [0f64; 4];
        let mut first_texel = None;
        for &(x, wx) in &taps[0] {
            for &(y, wy) in &taps[1] {
                for &(z, wz) in &taps[2] {
                    let weight = wx * wy * wz;
                    if weight == 0.0 {
                        continue;
                    }
                    let v = match (x, y, z) {
                        (Some(x), Some(y), Some(z)) => {
                            texel(d, ctx, &r, &tf, [x, y, z], lane)?.unwrap_or(border)
                        }
                        _ => border,
                    };
                    first_texel.get_or_insert(v);
                    for (acc, c) in sum.iter_mut().zip(v) {
                        *acc += weight * f64::from(f32::from_bits(c));
                    }
                }
            }
        }
        let v = if integer {
            first_texel.unwrap_or(border)
        } else {
            sum.map(|x| (x as f32).to_bits())
        };
        results.push((lane, swizzle(&r, &tf, v)));
    }
    for (lane, v) in results {
        write_data(d, w, data, lane, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_round_trip() {
        let r = ImageResource {
            base: 0x1_2345_6700,
            data_format: 14,
            num_format: 7,
            width: 17,
            height: 5,
            depth: 1,
            pitch: 64,
            dst_sel: [4, 5, 6, 7],
            base_level: 0,
            last_level: 0,
            tiling_index: LINEAR_TILING_INDEX,
            ty: image_type::D2,
        };
        assert_eq!(ImageResource::decode(r.encode()), r);
        // Texel (3, 2) of 16-byte texels in rows of 64.
        assert_eq!(
            r.texel_address([3, 2, 0], 16),
            Some(0x1_2345_6700 + (2 * 64 + 3) * 16)
        );
        assert_eq!(r.texel_address([17, 0, 0], 16), None);
        let s = Sampler {
            clamp: [clamp::CLAMP_BORDER, clamp::CLAMP_LAST_TEXEL, clamp::WRAP],
            force_unnormalized: true,
            mag_filter: filter::BILINEAR,
            min_filter: filter::BILINEAR,
            z_filter: 0,
            mip_filter: 0,
            filter_mode: 0,
            border_color: border::OPAQUE_WHITE,
        };
        assert_eq!(Sampler::decode(s.encode()), s);
    }

    #[test]
    fn addressing_modes() {
        // Four texels: wrap, mirror, clamp and border, by hand.
        assert_eq!(address(clamp::WRAP, -1, 4), Some(3));
        assert_eq!(address(clamp::WRAP, 5, 4), Some(1));
        assert_eq!(address(clamp::MIRROR, 4, 4), Some(3));
        assert_eq!(address(clamp::MIRROR, -1, 4), Some(0));
        assert_eq!(address(clamp::MIRROR, 9, 4), Some(1));
        assert_eq!(address(clamp::CLAMP_LAST_TEXEL, -3, 4), Some(0));
        assert_eq!(address(clamp::CLAMP_LAST_TEXEL, 7, 4), Some(3));
        assert_eq!(address(clamp::CLAMP_BORDER, -1, 4), None);
        assert_eq!(address(clamp::CLAMP_BORDER, 3, 4), Some(3));
    }
}
