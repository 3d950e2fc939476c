//! Image access of linear 2D images: the texel fetch `smpi` (Mesa's
//! `agx_emit_image_load` in `src/asahi/compiler/agx_compile.c`: `texture_load` with
//! `lod_min` and the txf sampler) and the image write `imgw` (`agx_emit_image_store`),
//! with the descriptor at `heap + offset` (a 64-bit uniform and a 32-bit register, Mesa's
//! `agx_translate_bindless_handle`) or bound to a texture-state register
//! ([`State::texture_state`]), decoded by `gpuabi_agx_isa::descriptor`.
//!
//! Rules (gpuabi's where Mesa and the genxml are silent):
//! * Pixel `(x, y)` of a linear image sits at `address + y · stride + x · bytes`; the
//!   pixel is one little-endian integer of the `Channels` code's size with component 0 in
//!   its lowest bits (the memory layout of the matching Mesa pipe formats).
//! * `imgw` stores memory channel `c` from data component `swizzle[c]`; `smpi` returns in
//!   component `c` memory channel `swizzle[c]` (`Channel` codes 4 and 5 give 1 and 0,
//!   channels the format lacks read 0).
//! * Unsigned and signed normalised channels convert as [`crate::format`] does, sRGB
//!   applies to the first three channels of 8-bit formats, floats are rounded to nearest
//!   even, integers are stored from the low bits of the register (no saturation) and loaded
//!   zero- or sign-extended.
//! * Coordinates are 32- or 16-bit registers `x, y` (and the layer for `2d_array`, which
//!   must be 0; for `smpi` of a `2d_ms` image, the sample in the low half of a third
//!   register). Sample `s` of pixel `(x, y)` of a multisampled linear image sits at
//!   `address + y · stride + (x · samples + s) · bytes` (Mesa has no linear multisampled
//!   images; the samples of a pixel are adjacent, as for `imgwblk` in `block`); a
//!   coordinate outside the image, a level of detail other than 0, a
//!   descriptor of another layout or dimension, or unmapped memory stop the run naming the
//!   instruction and lane. The sampler of `smpi` is not read.

use gpuabi_agx_isa::descriptor::{
    channel, channels as ch, dimension, texture_type as ty, Descriptor, Kind, DESCRIPTOR_BYTES,
    LAYOUT_LINEAR,
};
use gpuabi_agx_isa::{Instruction, Operand, OperandKind, RegFile};

use crate::exec::{dest, per_lane, read_bits, real, real_bits, src, Components, Fail, R};
use crate::float::{f16_to_f64, f32_to_f64, to_f16, to_f32};
use crate::format::{code, encode_element, pack_word, snorm, unorm};
use crate::load::convert;
use crate::program::Mods;
use crate::state::State;

/// How the channels of a `Channels` code are stored.
#[derive(Clone, Copy)]
pub(crate) enum Packing {
    /// Channels of these bit widths from the lowest bits up.
    Bits(&'static [u32]),
    /// One 32-bit word in an ISA packed float format (`rg11b10f`, `rgb9e5`).
    Word(u32),
}

/// `Channels` code, bytes per pixel and packing.
pub(crate) const CHANNELS: [(u32, u32, Packing); 14] = [
    (ch::R8, 1, Packing::Bits(&[8])),
    (ch::R16, 2, Packing::Bits(&[16])),
    (ch::R8G8, 2, Packing::Bits(&[8, 8])),
    (ch::R5G6B5, 2, Packing::Bits(&[5, 6, 5])),
    (ch::R4G4B4A4, 2, Packing::Bits(&[4, 4, 4, 4])),
    (ch::R32, 4, Packing::Bits(&[32])),
    (ch::R16G16, 4, Packing::Bits(&[16, 16])),
    (ch::R11G11B10, 4, Packing::Word(code::RG11B10F)),
    (ch::R10G10B10A2, 4, Packing::Bits(&[10, 10, 10, 2])),
    (ch::R9G9B9E5, 4, Packing::Word(code::RGB9E5)),
    (ch::R8G8B8A8, 4, Packing::Bits(&[8, 8, 8, 8])),
    (ch::R32G32, 8, Packing::Bits(&[32, 32])),
    (ch::R16G16B16A16, 8, Packing::Bits(&[16, 16, 16, 16])),
    (ch::R32G32B32A32, 16, Packing::Bits(&[32, 32, 32, 32])),
];

/// The dimensions `imgw` models.
const PLAIN_2D: &[u32] = &[dimension::D2, dimension::D2_ARRAY];
/// The dimensions `smpi` models.
const FETCHED: &[u32] = &[dimension::D2, dimension::D2_ARRAY, dimension::D2_MS];

pub(crate) fn image_fail(lane: usize, what: String) -> Fail {
    Fail::Image { lane, what }
}

/// The descriptor a lane addresses (heap source at `heap_at`, texture source after it),
/// checked to be a linear image of a known format with one of the dimensions `dims`.
///
/// A 64-bit uniform heap with a 32-bit register offset is a bindless descriptor (Mesa's
/// `agx_translate_bindless_handle`); without a heap, the texture source names a
/// texture-state register (`ts` N, or a 16-bit register holding N) whose descriptor
/// address [`State::texture_state`] binds.
pub(crate) fn descriptor(
    st: &State,
    ins: &Instruction,
    heap_at: usize,
    kind: Kind,
    dims: &[u32],
    lane: usize,
) -> R<(Descriptor, u32, Packing)> {
    let heap = ins.srcs.get(heap_at).and_then(|s| s.as_ref());
    let texture = *src(ins, heap_at + 1)?;
    let at = match (heap, texture.kind) {
        (
            Some(
                heap @ Operand {
                    kind:
                        OperandKind::Reg {
                            file: RegFile::Uniform,
                            ..
                        },
                    ..
                },
            ),
            OperandKind::Reg {
                file: RegFile::Gpr, ..
            },
        ) => read_bits(st, heap, lane)?.wrapping_add(read_bits(st, &texture, lane)?),
        (None, OperandKind::Ts(_) | OperandKind::Reg { size: 16, .. }) => {
            let n = match texture.kind {
                OperandKind::Ts(n) => n,
                _ => read_bits(st, &texture, lane)? as u32,
            };
            *st.texture_state.get(&n).ok_or_else(|| {
                image_fail(
                    lane,
                    format!("reads texture-state register ts{n}, which the state does not bind"),
                )
            })?
        }
        _ => {
            return Err(Fail::Unsupported(
                "this texture operand (modelled: a uniform heap with a register offset, or a \
                 texture-state register without a heap)",
            ))
        }
    };
    let mut bytes = [0u8; DESCRIPTOR_BYTES];
    for (i, b) in bytes.iter_mut().enumerate() {
        let address = at.wrapping_add(i as u64);
        *b = st.read_byte(address).ok_or(Fail::Fault { lane, address })?;
    }
    let d = Descriptor::decode(kind, &bytes);
    let bad = |what: String| image_fail(lane, format!("reads a descriptor at {at:#x} {what}"));
    if d.layout != LAYOUT_LINEAR {
        return Err(bad(format!(
            "with layout {} (only linear, 0, is modelled)",
            d.layout
        )));
    }
    if !dims.contains(&d.dimension) {
        return Err(bad(format!(
            "of dimension {} (modelled here: {dims:?})",
            d.dimension
        )));
    }
    let &(_, bytes_pp, packing) = CHANNELS
        .iter()
        .find(|(c, _, _)| *c == d.channels)
        .ok_or_else(|| bad(format!("with unknown channels code {:#x}", d.channels)))?;
    if d.ty > ty::FLOAT
        || matches!(packing, Packing::Word(_)) && d.ty != ty::FLOAT
        || d.ty == ty::FLOAT && matches!(packing, Packing::Bits(b) if b[0] < 16)
    {
        return Err(bad(format!(
            "with type {} for channels {:#x}",
            d.ty, d.channels
        )));
    }
    Ok((d, bytes_pp, packing))
}

/// The byte address of the pixel a lane's coordinates select, checked against the image.
fn pixel_address(
    st: &State,
    m: &Mods,
    coord: &Operand,
    lod: Option<&Operand>,
    d: &Descriptor,
    bytes_pp: u32,
    lane: usize,
) -> R<u64> {
    let OperandKind::Reg { base, size, .. } = coord.kind else {
        return Err(Fail::Unsupported("coordinate kind"));
    };
    let ms = m.dim == dimension::D2_MS;
    let n = if m.dim == dimension::D2_ARRAY || ms {
        3
    } else {
        2
    };
    if m.dim != d.dimension {
        return Err(image_fail(
            lane,
            format!(
                "uses dimension {} with a descriptor of dimension {}",
                m.dim, d.dimension
            ),
        ));
    }
    let c: Components<u64> = (0..n)
        .map(|i| st.read_gpr(lane, base + i * size / 16, size))
        .collect::<Result<_, _>>()?;
    if let Some(l) = lod {
        let v = read_bits(st, l, lane)?;
        if v != 0 {
            return Err(image_fail(
                lane,
                format!("reads level {v} (only level 0 is modelled)"),
            ));
        }
    }
    // The third word is the layer of an array, the sample of a multisampled image (its
    // low half: Mesa's `lower_regular_texture` in `agx_nir_lower_texture.c`).
    let sample = if ms { c[2] & 0xffff } else { 0 };
    if c[0] >= u64::from(d.width)
        || c[1] >= u64::from(d.height)
        || !ms && c.get(2).is_some_and(|&l| l != 0)
        || ms && (c[2] >> 16 != 0 || sample >= u64::from(d.samples))
    {
        return Err(image_fail(
            lane,
            format!(
                "addresses pixel {:?} outside the {}x{} image (layer 0, {} samples)",
                c, d.width, d.height, d.samples
            ),
        ));
    }
    let element = c[0] * u64::from(d.samples) + sample;
    Ok(d.address + c[1] * d.stride + element * u64::from(bytes_pp))
}

pub(crate) fn channel_max(w: u32) -> u128 {
    (1u128 << w) - 1
}

/// The stored bits of channel `c` (width `w`) from a register value of `size` bits.
fn encode(d: &Descriptor, c: usize, w: u32, bits: u64, size: u32) -> u128 {
    let x = || real(bits, size);
    let v = match d.ty {
        ty::UNORM if d.srgb && w == 8 && c < 3 => {
            encode_element(code::SRGBA8, c as u32, x()).unwrap_or(0)
        }
        ty::UNORM => unorm(x(), w),
        ty::SNORM => snorm(x(), w),
        ty::FLOAT if w == 16 => u64::from(if size == 16 { bits as u16 } else { to_f16(x()) }),
        ty::FLOAT => {
            if size == 32 {
                bits
            } else {
                u64::from(to_f32(x(), false))
            }
        }
        _ => bits,
    };
    u128::from(v) & channel_max(w)
}

/// A register value of `size` bits from the stored bits `v` of channel `c` (width `w`).
fn decode(d: &Descriptor, c: usize, w: u32, v: u64, size: u32) -> u64 {
    let mask = if size == 64 {
        u64::MAX
    } else {
        (1 << size) - 1
    };
    match d.ty {
        ty::UNORM if d.srgb && w == 8 && c < 3 => real_bits(convert(code::SRGBA8, 0, v), size),
        ty::UNORM => real_bits(v as f64 / channel_max(w) as f64, size),
        ty::SNORM => {
            let max = (1i64 << (w - 1)) - 1;
            let s = ((v << (64 - w)) as i64) >> (64 - w);
            real_bits(s.max(-max) as f64 / max as f64, size)
        }
        ty::FLOAT if w == 16 => {
            if size == 16 {
                v
            } else {
                real_bits(f16_to_f64(v as u16), size)
            }
        }
        ty::FLOAT => {
            if size == 32 {
                v
            } else {
                real_bits(f32_to_f64(v as u32, false), size)
            }
        }
        ty::SINT => ((((v << (64 - w)) as i64) >> (64 - w)) as u64) & mask,
        _ => v & mask,
    }
}

/// `imgw data, heap, offset, coords, lod, dim`.
pub(crate) fn imgw(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    let data = *src(ins, 0)?;
    let coord = *src(ins, 3)?;
    let lod = ins.srcs.get(4).and_then(|s| s.as_ref()).copied();
    let OperandKind::Reg { base, size, .. } = data.kind else {
        return Err(Fail::Unsupported("data operand kind"));
    };
    per_lane(st, |st, lane| {
        let (d, bytes_pp, packing) = descriptor(st, ins, 1, Kind::Pbe, PLAIN_2D, lane)?;
        let at = pixel_address(st, m, &coord, lod.as_ref(), &d, bytes_pp, lane)?;
        let comp = |c: usize| -> R<u64> {
            let s = d.swizzle[c] & 3;
            Ok(st.read_gpr(lane, base + s * size / 16, size)?)
        };
        let word: u128 = match packing {
            Packing::Word(format) => {
                let mut v = [0.0; 4];
                for (c, x) in v.iter_mut().enumerate().take(3) {
                    *x = real(comp(c)?, size);
                }
                u128::from(pack_word(format, v).ok_or(Fail::Unsupported("image format"))?)
            }
            Packing::Bits(widths) => {
                let mut word = 0u128;
                let mut shift = 0;
                for (c, &w) in widths.iter().enumerate() {
                    word |= encode(&d, c, w, comp(c)?, size) << shift;
                    shift += w;
                }
                word
            }
        };
        for i in 0..u64::from(bytes_pp) {
            let address = at + i;
            if !st.write_byte(address, (word >> (8 * i)) as u8) {
                return Err(Fail::Fault { lane, address });
            }
        }
        Ok(())
    })
}

/// `smpi dest, heap, offset, sampler, coords, lod, dim, mask, lod_type` as a texel fetch.
pub(crate) fn smpi(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    let d_op = *dest(ins)?;
    let coord = *src(ins, 3)?;
    let lod = ins.srcs.get(4).and_then(|s| s.as_ref()).copied();
    let OperandKind::Reg { base, size, .. } = d_op.kind else {
        return Err(Fail::Unsupported("destination kind"));
    };
    // Mesa's texel fetches use `lod_min` (explicit level) or `auto_lod` (multisampled).
    if !matches!(m.lod_type, 0 | 2 | 6) || m.shadow || m.gather {
        return Err(Fail::Unsupported(
            "texture sampling other than a texel fetch at level 0",
        ));
    }
    let mask = m.mask;
    per_lane(st, |st, lane| {
        let (d, bytes_pp, packing) = descriptor(st, ins, 0, Kind::Texture, FETCHED, lane)?;
        let at = pixel_address(st, m, &coord, lod.as_ref(), &d, bytes_pp, lane)?;
        let mut word = 0u128;
        for i in 0..u64::from(bytes_pp) {
            let address = at + i;
            let b = st.read_byte(address).ok_or(Fail::Fault { lane, address })?;
            word |= u128::from(b) << (8 * i);
        }
        let channel = |m: usize| -> Option<u64> {
            match packing {
                Packing::Word(format) => {
                    (m < 3).then(|| real_bits(convert(format, m as u32, word as u64), size))
                }
                Packing::Bits(widths) => widths.get(m).map(|&w| {
                    let shift: u32 = widths[..m].iter().sum();
                    let v = ((word >> shift) & channel_max(w)) as u64;
                    decode(&d, m, w, v, size)
                }),
            }
        };
        let one = if matches!(d.ty, ty::UINT | ty::SINT) {
            1
        } else {
            real_bits(1.0, size)
        };
        let mut out = Components::<u64>::new();
        for c in (0..4).filter(|c| mask >> c & 1 == 1) {
            out.push(match d.swizzle[c] {
                channel::ONE => one,
                s @ 0..=3 => channel(s as usize).unwrap_or(0),
                _ => 0,
            });
        }
        for (k, v) in out.into_iter().enumerate() {
            st.write_gpr(lane, base + k as u32 * size / 16, size, v)?;
        }
        Ok(())
    })
}
