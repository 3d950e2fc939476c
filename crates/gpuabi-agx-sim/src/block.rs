//! The block image write `imgwblk`: one render target of the whole tile, every pixel and
//! sample, stored through a PBE descriptor into a linear image. Honeykrisp's end-of-tile
//! programs are made of these (`agx_build_end_of_tile_shader` in
//! `src/asahi/lib/agx_bg_eot.c`: per stored render target `rt`, a block store from
//! texture-state register `rt`, at the target's tile-buffer offset, in its tile format,
//! 2D or, with more than one sample, 2D multisampled; emitted by
//! `agx_emit_block_image_store` in `src/asahi/compiler/agx_compile.c`).
//!
//! Sources (Mesa's `AGX2.xml`): the tile-buffer byte offset (a 16-bit register), the
//! descriptor (a texture-state register, or a heap with an offset, as for `imgw`), the
//! coordinates and a level; the `format` modifier is the tile format, the descriptor's
//! the image's (`image("store_block_agx")` in `src/compiler/nir/nir_intrinsics.py`).
//!
//! Rules (gpuabi's where Mesa and the genxml are silent):
//! * The store happens once for the SIMD group, with the operands of its lowest active
//!   lane; every active lane must hold the same offset (the block is the group's, not a
//!   lane's). With no active lane nothing is stored.
//! * Pixel `(x, y)` of the tile goes to pixel `(grid.x + x, grid.y + y)` of the image:
//!   [`State::grid`] is the tile's origin, as for fragment code's pixel coordinates.
//!   Pixels past the image's width or height are not written (the edge tiles of a render
//!   target that is not a multiple of the tile size). Only these implicit coordinates
//!   are modelled: `explicit_coords`, the array dimensions and a level other than 0 stop
//!   the run.
//! * Dimension `2d` needs a one-sample tile and a 2D descriptor; `2d_ms` a 2D
//!   multisampled descriptor with the tile's sample count. Each sample is stored, none
//!   resolved. Linear multisampled images do not exist in Mesa (`ail_initialize_linear`
//!   in `src/asahi/layout/layout.c` refuses them); here sample `s` of pixel `(x, y)` sits
//!   at `address + y · stride + (x · samples + s) · bytes`, the samples of a pixel
//!   adjacent as in the element of `samples` pixels' bytes that `ail_get_block_size_B`
//!   uses for twiddled images.
//! * The tile format says how a sample's bytes at the offset split into components:
//!   element formats put component `c` at `offset + c · element size`, packed formats
//!   hold every component in the word at `offset` (as `st_tile` stores them, see
//!   `fragment`). The image format and the swizzle (memory channel `c` from component
//!   `swizzle[c]`) come from the descriptor.
//! * Conversion: the raw tile formats (`i8`, `i16`, `i32`, `f16`) carry untyped bits that
//!   the image's type reads, as `imgw` reads a register: integer channels keep the low
//!   bits, float channels of the same width take the bits unchanged, normalised and
//!   narrower float channels read 16-bit components as fp16 and 32-bit ones as fp32 (so
//!   Mesa's storing of `f16` tiles as `i16`, the `XXX` in `agx_emit_block_image_store`,
//!   stores half floats to an R5G6B5 image as their unorm values). A normalised or packed
//!   tile component whose image channel has the same width and kind (unorm to unorm,
//!   snorm to snorm, `rg11b10f` to an R11G11B10 float image in channel order) is copied
//!   bit for bit; otherwise its value is converted as `imgw` converts a float
//!   (normalised tile components into integer channels are refused).
//! * `srgba8` components are the stored sRGB bytes, copied as unorm bytes; the
//!   descriptor's sRGB flag is ignored (Mesa's `cmdbuf.xml`, the `sRGB` field of `PBE`:
//!   imageblock writes do not use it, the conversion happens when writing the tile
//!   buffer; `pack_pbe` in `src/asahi/vulkan/hk_image_view.c` binds the linear format for
//!   end-of-tile stores for the same reason).

use gpuabi_agx_isa::descriptor::{dimension, texture_type as ty, Descriptor, Kind};
use gpuabi_agx_isa::Instruction;

use crate::exec::{read_bits, real, src, Fail, R};
use crate::float::{to_f16, to_f32};
use crate::format::{code, pack_word, packed_components, snorm, unorm};
use crate::fragment::{element_size, read_le};
use crate::image::{channel_max, descriptor, image_fail, Packing};
use crate::load::{convert, small_float_value};
use crate::program::Mods;
use crate::state::{State, LANES};
use crate::tile::Fragment;

/// How a tile component is held.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Untyped bits (`i8`, `i16`, `i32`, `f16`).
    Raw,
    /// An unsigned normalised code.
    Unorm,
    /// A signed normalised code.
    Snorm,
    /// A channel of an `rg11b10f` word.
    SmallFloat,
    /// A channel of an `rgb9e5` word (no bits of its own).
    Shared,
}

/// One component of a tile sample.
#[derive(Clone, Copy)]
struct Comp {
    bits: u64,
    width: u32,
    class: Class,
    /// The real value (normalised and packed classes).
    value: f64,
}

/// The little-endian value of `len` bytes at `at` of sample `s` of tile pixel `(x, y)`.
fn tile_le(f: &Fragment, (x, y, s): (u32, u32, u32), at: u32, len: u32, lane: usize) -> R<u64> {
    let i = f.byte(x, y, s, at, len).ok_or_else(|| Fail::Tile {
        lane,
        what: format!(
            "block-stores bytes {at}..{} of a {}-byte sample",
            at + len,
            f.sample_size
        ),
    })?;
    Ok(read_le(&f.tib[i..i + len as usize]))
}

/// Component `n` of sample `s` of tile pixel `(x, y)` in tile format `format` at `offset`.
fn component(
    f: &Fragment,
    format: u32,
    offset: u32,
    (x, y, s): (u32, u32, u32),
    n: u32,
    lane: usize,
) -> R<Comp> {
    let bytes = |at: u32, len: u32| tile_le(f, (x, y, s), at, len, lane);
    if let Ok(size) = element_size(format) {
        let bits = bytes(offset + n * size, size)?;
        let width = 8 * size;
        let (class, value) = match format {
            code::U8NORM | code::SRGBA8 | code::U16NORM => {
                (Class::Unorm, bits as f64 / channel_max(width) as f64)
            }
            code::S8NORM | code::S16NORM => {
                let max = (1i64 << (width - 1)) - 1;
                let v = ((bits << (64 - width)) as i64) >> (64 - width);
                (Class::Snorm, v.max(-max) as f64 / max as f64)
            }
            _ => (Class::Raw, 0.0),
        };
        return Ok(Comp {
            bits,
            width,
            class,
            value,
        });
    }
    let comps = packed_components(format).ok_or(Fail::Unsupported("tile format"))?;
    if n >= comps {
        return Err(image_fail(
            lane,
            format!("reads component {n} of a {comps}-component tile format"),
        ));
    }
    let word = bytes(offset, 4)?;
    Ok(match format {
        code::RGB10A2 => {
            let (shift, width) = if n == 3 { (30, 2) } else { (10 * n, 10) };
            let bits = (word >> shift) & ((1 << width) - 1);
            Comp {
                bits,
                width,
                class: Class::Unorm,
                value: bits as f64 / channel_max(width) as f64,
            }
        }
        code::RG11B10F | code::RG11B10F_RTZ => {
            let (shift, mant) = [(0, 6), (11, 6), (22, 5)][n as usize];
            let bits = (word >> shift) & ((1 << (mant + 5)) - 1);
            Comp {
                bits,
                width: mant + 5,
                class: Class::SmallFloat,
                value: small_float_value(bits, mant),
            }
        }
        _ => Comp {
            bits: 0,
            width: 0,
            class: Class::Shared,
            value: convert(code::RGB9E5, n, word),
        },
    })
}

/// The real value of a component, for a float or normalised image channel.
fn value(c: &Comp, lane: usize) -> R<f64> {
    match c.class {
        Class::Raw if c.width == 8 => Err(image_fail(
            lane,
            "converts an 8-bit raw tile component to a float or normalised image (not \
             modelled)"
                .into(),
        )),
        Class::Raw => Ok(real(c.bits, c.width)),
        _ => Ok(c.value),
    }
}

/// The stored bits of image channel `ch` (width `w`) of `d` from tile component `c`.
fn channel_bits(d: &Descriptor, w: u32, c: &Comp, lane: usize) -> R<u128> {
    let int = matches!(d.ty, ty::UINT | ty::SINT);
    let same = c.width == w
        && match c.class {
            Class::Raw => int || d.ty == ty::FLOAT,
            Class::Unorm => d.ty == ty::UNORM,
            Class::Snorm => d.ty == ty::SNORM,
            _ => false,
        };
    if same || c.class == Class::Raw && int {
        return Ok(u128::from(c.bits) & channel_max(w));
    }
    if int {
        return Err(image_fail(
            lane,
            "block-stores a normalised or float tile component to an integer image (not \
             modelled)"
                .into(),
        ));
    }
    let x = value(c, lane)?;
    let v = match d.ty {
        ty::UNORM => unorm(x, w),
        ty::SNORM => snorm(x, w),
        _ if w == 16 => u64::from(to_f16(x)),
        _ => u64::from(to_f32(x, false)),
    };
    Ok(u128::from(v) & channel_max(w))
}

/// `imgwblk offset, heap, texture, coords, lod, explicit_coords, dim, format`.
pub(crate) fn imgwblk(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    let Some(lane) = (0..LANES).find(|&l| st.active(l)) else {
        return Ok(());
    };
    if m.explicit_coords {
        return Err(Fail::Unsupported(
            "explicit block coordinates (only the tile's own position is modelled)",
        ));
    }
    let dim = m.dim;
    if !matches!(dim, dimension::D2 | dimension::D2_MS) {
        return Err(Fail::Unsupported(
            "block stores of dimensions other than 2d and 2d_ms",
        ));
    }
    let offset_op = *src(ins, 0)?;
    let offset = read_bits(st, &offset_op, lane)?;
    for l in (lane + 1..LANES).filter(|&l| st.active(l)) {
        let other = read_bits(st, &offset_op, l)?;
        if other != offset {
            return Err(image_fail(
                l,
                format!(
                    "holds tile offset {other} where lane {lane} holds {offset} (a block store \
                     takes one offset for the group)"
                ),
            ));
        }
    }
    if let Some(lod) = ins.srcs.get(4).and_then(|s| s.as_ref()) {
        let v = read_bits(st, lod, lane)?;
        if v != 0 {
            return Err(image_fail(
                lane,
                format!("stores level {v} (only level 0 is modelled)"),
            ));
        }
    }
    let (d, bytes_pp, packing) = descriptor(
        st,
        ins,
        1,
        Kind::Pbe,
        &[dimension::D2, dimension::D2_MS],
        lane,
    )?;
    let f = st.frag.as_deref().ok_or(Fail::Unsupported(
        "block stores need a fragment context (a tile buffer)",
    ))?;
    if dim != d.dimension || d.samples != f.samples {
        return Err(image_fail(
            lane,
            format!(
                "block-stores a {}-sample tile with dimension {dim} through a descriptor of \
                 dimension {} and {} samples",
                f.samples, d.dimension, d.samples
            ),
        ));
    }
    let format = m.format;
    let offset = offset as u32;
    let same_word = matches!(
        (format, packing),
        (
            code::RG11B10F | code::RG11B10F_RTZ,
            Packing::Word(code::RG11B10F)
        ) | (code::RGB9E5 | code::RGB9E5_RTZ, Packing::Word(code::RGB9E5))
    ) && (0..3).all(|c| d.swizzle[c] == c as u32);
    let mut writes: Vec<(u64, u128)> = Vec::new();
    for y in 0..f.height {
        for x in 0..f.width {
            let (ix, iy) = (st.grid[0] + x, st.grid[1] + y);
            if ix >= d.width || iy >= d.height {
                continue;
            }
            for s in 0..f.samples {
                let comp =
                    |c: usize| component(f, format, offset, (x, y, s), d.swizzle[c] & 3, lane);
                let word = match packing {
                    // The same packed format in channel order: the word as stored.
                    Packing::Word(_) if same_word => {
                        u128::from(tile_le(f, (x, y, s), offset, 4, lane)?)
                    }
                    Packing::Word(word_format) => {
                        let mut v = [0.0; 4];
                        for (c, x) in v.iter_mut().enumerate().take(3) {
                            *x = value(&comp(c)?, lane)?;
                        }
                        u128::from(
                            pack_word(word_format, v).ok_or(Fail::Unsupported("image format"))?,
                        )
                    }
                    Packing::Bits(widths) => {
                        let mut word = 0u128;
                        let mut shift = 0;
                        for (c, &w) in widths.iter().enumerate() {
                            word |= channel_bits(&d, w, &comp(c)?, lane)? << shift;
                            shift += w;
                        }
                        word
                    }
                };
                let pixel = u64::from(ix) * u64::from(d.samples) + u64::from(s);
                let at = d.address + u64::from(iy) * d.stride + pixel * u64::from(bytes_pp);
                writes.push((at, word));
            }
        }
    }
    for (at, word) in writes {
        for i in 0..u64::from(bytes_pp) {
            let address = at + i;
            if !st.write_byte(address, (word >> (8 * i)) as u8) {
                return Err(Fail::Fault { lane, address });
            }
        }
    }
    Ok(())
}
