//! Spilled render targets: the memory images, descriptors and uniforms a driver provides
//! for render targets that do not fit the tile buffer, and the code the fragment epilog
//! uses to reach them (Mesa's `store_memory`/`load_memory` in
//! `src/asahi/lib/agx_nir_lower_tilebuffer.c`).
//!
//! ABI (the render-target heap of the fragment uniforms): uniform halves 0–3 (`u0_u1`,
//! the `du0` operand) hold the 64-bit address of a heap of 24-byte descriptors; render
//! target `rt` has its texture descriptor at index `RT_SPILL_BASE + 2·rt` and its PBE
//! descriptor at the next index, byte offset `index · 24`, as Mesa's `handle_for_rt`
//! lays them out. gpuabi's epilog keys have no bindings of their own, so the base
//! (`rt_spill_base` of the key's link info) is always 0.
//!
//! Each image is linear, 2D array with one layer, rows of `align(width · samples · bytes,
//! 16)` bytes (Mesa's linear strides are multiples of 16), in the logical format. With one
//! sample it has one pixel per framebuffer pixel. With several samples (gpuabi's layout,
//! stated here in full) the samples of a pixel are consecutive, sample `s` of pixel
//! `(x, y)` at element `x · samples + s` of row `y`: the order of Mesa's
//! `libagx_image_texel_address` (`src/asahi/lib/shaders/texture.cl`: element
//! `pixel · samples + sample`) with the pixels in rows, which is its twiddled order with
//! 1×1 tiles. Mesa's driver lays multisampled images out in larger twiddled tiles (`ail`),
//! which the simulator does not model. The descriptors describe the image as a 2D image
//! `width · samples` elements wide, and the epilog reads and writes sample `s` at
//! `(x · samples + s, y)`: Mesa also writes multisampled images through a 2D view
//! (`lower_multisampled_store` in `src/asahi/lib/agx_nir_lower_texture.c` turns the element
//! index into 2D coordinates), and reads them with a multisampled texel fetch, which gpuabi
//! replaces by the same 2D view. Mesa runs epilogs with multisampled spilled targets per
//! sample (`dim_for_rt` in `agx_nir_lower_tilebuffer.c` sets `uses_sample_shading`), so
//! their keys need sample shading and the sample is the one in `r1l`. The texture and PBE
//! descriptors: the `Channels`/`Texture Type` pair of the pipe format, with the
//! swizzle `(2, 1, 0, 3)` for the blue-first formats (`B8G8R8A8`, `B5G6R5`,
//! `B10G10R10A2`) and sRGB set for `_SRGB`; a texture's missing green and blue read 0 and
//! a missing alpha 1.
//!
//! The generated code (gpuabi's register choices): `r60`, `r61` hold the pixel's `x`, `y`
//! from `thread_in_grid_x`/`_y` (Mesa's `load_pixel_coord`; with several samples `x` becomes
//! `x · samples + s`, `s` from `ffs` of `r1l`), `r62` the layer 0 whose low
//! half doubles as level 0 for the texel fetch, `r58` the descriptor's byte offset, all
//! set right before each access (blending and logic ops use them in between). Before
//! the first access the epilog waits for earlier fragments of the pixel (`pixwait 12, 0`,
//! Mesa's `begin_invocation_interlock`). Stores under a sample mask other than all
//! samples are skipped when the mask is 0 (Mesa's `samples != 0` condition); with several
//! samples the mask is also ANDed with `input_sample_mask`, the coverage the fragment
//! started with (Mesa tests the coverage; kills before the epilog other than
//! alpha-to-coverage's are not seen).
//!
//! Left out of Mesa's sequence: the bounds check of the pixel against the image size
//! (`image_size`; the images [`spill_bindings`] describes cover the framebuffer, and the
//! simulator faults on a pixel outside) and the PBE-to-texture fence at the end (its
//! instructions are not in the disassembler syntax gpuabi assembles).

use gpuabi_agx_isa::descriptor::{
    channel, channels as ch, dimension, texture_type as ty, Descriptor, Kind, DESCRIPTOR_BYTES,
    LAYOUT_LINEAR,
};
use gpuabi_agx_isa::regs::{du, imm, r, rl};
use gpuabi_agx_isa::{args, Builder, Operand, OperandKind};
use serde::Serialize;

use crate::epilog::{EpilogError, EpilogKey};
use crate::tilebuffer::{tilebuffer_layout, TileBufferError};

/// Descriptor index of render target 0's texture descriptor.
pub const RT_SPILL_BASE: u32 = 0;
/// First uniform half of the 64-bit heap address: the ABI's render-target heap uniforms.
pub const HEAP_UNIFORM_HALF: u16 = crate::abi::FUNI_EMRT_HEAP.first_half;

/// First register of the pixel coordinates (x, y, layer).
const COORD: u32 = 60;
/// Register of a descriptor's byte offset.
const HANDLE: u32 = 58;

/// Pipe-format name, `Channels` code, `Texture Type`, bytes per pixel, blue first, sRGB.
const IMAGE_FORMATS: &[(&str, u32, u32, u32, bool, bool)] = &[
    ("R8_UNORM", ch::R8, ty::UNORM, 1, false, false),
    ("R8G8_UNORM", ch::R8G8, ty::UNORM, 2, false, false),
    ("R8G8B8A8_UNORM", ch::R8G8B8A8, ty::UNORM, 4, false, false),
    ("B8G8R8A8_UNORM", ch::R8G8B8A8, ty::UNORM, 4, true, false),
    ("R8G8B8A8_SRGB", ch::R8G8B8A8, ty::UNORM, 4, false, true),
    ("B8G8R8A8_SRGB", ch::R8G8B8A8, ty::UNORM, 4, true, true),
    ("R8_SNORM", ch::R8, ty::SNORM, 1, false, false),
    ("R8G8_SNORM", ch::R8G8, ty::SNORM, 2, false, false),
    ("R8G8B8A8_SNORM", ch::R8G8B8A8, ty::SNORM, 4, false, false),
    ("R8_UINT", ch::R8, ty::UINT, 1, false, false),
    ("R8G8_UINT", ch::R8G8, ty::UINT, 2, false, false),
    ("R8G8B8A8_UINT", ch::R8G8B8A8, ty::UINT, 4, false, false),
    ("R8_SINT", ch::R8, ty::SINT, 1, false, false),
    ("R8G8_SINT", ch::R8G8, ty::SINT, 2, false, false),
    ("R8G8B8A8_SINT", ch::R8G8B8A8, ty::SINT, 4, false, false),
    ("R16_UNORM", ch::R16, ty::UNORM, 2, false, false),
    ("R16G16_UNORM", ch::R16G16, ty::UNORM, 4, false, false),
    (
        "R16G16B16A16_UNORM",
        ch::R16G16B16A16,
        ty::UNORM,
        8,
        false,
        false,
    ),
    ("R16_SNORM", ch::R16, ty::SNORM, 2, false, false),
    ("R16G16_SNORM", ch::R16G16, ty::SNORM, 4, false, false),
    (
        "R16G16B16A16_SNORM",
        ch::R16G16B16A16,
        ty::SNORM,
        8,
        false,
        false,
    ),
    ("R16_UINT", ch::R16, ty::UINT, 2, false, false),
    ("R16G16_UINT", ch::R16G16, ty::UINT, 4, false, false),
    (
        "R16G16B16A16_UINT",
        ch::R16G16B16A16,
        ty::UINT,
        8,
        false,
        false,
    ),
    ("R16_SINT", ch::R16, ty::SINT, 2, false, false),
    ("R16G16_SINT", ch::R16G16, ty::SINT, 4, false, false),
    (
        "R16G16B16A16_SINT",
        ch::R16G16B16A16,
        ty::SINT,
        8,
        false,
        false,
    ),
    ("R16_FLOAT", ch::R16, ty::FLOAT, 2, false, false),
    ("R16G16_FLOAT", ch::R16G16, ty::FLOAT, 4, false, false),
    (
        "R16G16B16A16_FLOAT",
        ch::R16G16B16A16,
        ty::FLOAT,
        8,
        false,
        false,
    ),
    ("R32_FLOAT", ch::R32, ty::FLOAT, 4, false, false),
    ("R32G32_FLOAT", ch::R32G32, ty::FLOAT, 8, false, false),
    (
        "R32G32B32A32_FLOAT",
        ch::R32G32B32A32,
        ty::FLOAT,
        16,
        false,
        false,
    ),
    ("R32_UINT", ch::R32, ty::UINT, 4, false, false),
    ("R32G32_UINT", ch::R32G32, ty::UINT, 8, false, false),
    (
        "R32G32B32A32_UINT",
        ch::R32G32B32A32,
        ty::UINT,
        16,
        false,
        false,
    ),
    ("R32_SINT", ch::R32, ty::SINT, 4, false, false),
    ("R32G32_SINT", ch::R32G32, ty::SINT, 8, false, false),
    (
        "R32G32B32A32_SINT",
        ch::R32G32B32A32,
        ty::SINT,
        16,
        false,
        false,
    ),
    ("B5G6R5_UNORM", ch::R5G6B5, ty::UNORM, 2, true, false),
    ("R4G4B4A4_UNORM", ch::R4G4B4A4, ty::UNORM, 2, false, false),
    (
        "R10G10B10A2_UNORM",
        ch::R10G10B10A2,
        ty::UNORM,
        4,
        false,
        false,
    ),
    (
        "B10G10R10A2_UNORM",
        ch::R10G10B10A2,
        ty::UNORM,
        4,
        true,
        false,
    ),
    (
        "R10G10B10A2_UINT",
        ch::R10G10B10A2,
        ty::UINT,
        4,
        false,
        false,
    ),
    ("R11G11B10_FLOAT", ch::R11G11B10, ty::FLOAT, 4, false, false),
    ("R9G9B9E5_FLOAT", ch::R9G9B9E5, ty::FLOAT, 4, false, false),
];

/// Byte offset in the heap of render target `rt`'s texture (`pbe` false) or PBE
/// descriptor.
pub fn descriptor_offset(rt: usize, pbe: bool) -> u32 {
    (RT_SPILL_BASE + 2 * rt as u32 + u32::from(pbe)) * DESCRIPTOR_BYTES as u32
}

/// The memory image of one spilled render target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpilledImage {
    /// Render-target index.
    pub rt: u8,
    /// Logical pipe format.
    pub format: String,
    /// Address of pixel (0, 0).
    pub address: u64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bytes per row.
    pub stride: u64,
    /// Bytes per pixel.
    pub bytes_per_pixel: u32,
    /// Samples per pixel, consecutive in a row.
    pub samples: u32,
}

impl SpilledImage {
    /// Byte offset from the image's address of sample `s` of pixel (`x`, `y`).
    pub fn offset(&self, x: u32, y: u32, s: u32) -> u64 {
        u64::from(y) * self.stride
            + (u64::from(x) * u64::from(self.samples) + u64::from(s))
                * u64::from(self.bytes_per_pixel)
    }
}

/// What a driver writes for the spilled render targets of an epilog key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpillBindings {
    /// Address of the descriptor heap.
    pub heap_address: u64,
    /// The heap's bytes (descriptors of the spilled targets, zeros elsewhere).
    pub heap: Vec<u8>,
    /// Uniform halves to set: (half, value), the heap address in halves 0–3.
    pub uniforms: Vec<(u16, u16)>,
    /// The images, one per spilled target, from `image_address` on, each 256-byte aligned.
    pub images: Vec<SpilledImage>,
}

/// The image description of a pipe format (canonical name), if it is a render-target
/// format.
fn image_format(canon: &str) -> Option<(u32, u32, u32, bool, bool)> {
    IMAGE_FORMATS
        .iter()
        .find(|f| f.0 == canon)
        .map(|&(_, c, t, b, bgr, srgb)| (c, t, b, bgr, srgb))
}

/// The descriptors, uniforms and images a driver provides so that the epilog of `key` can
/// reach its spilled render targets on a `width` × `height` framebuffer: the heap at
/// `heap_address`, the images from `image_address` on. Keys without spilled targets give
/// no images and an empty heap.
pub fn spill_bindings(
    key: &EpilogKey,
    width: u32,
    height: u32,
    heap_address: u64,
    image_address: u64,
) -> Result<SpillBindings, EpilogError> {
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples)?;
    let samples = u32::from(key.samples);
    if width == 0 || height == 0 || width * samples > 1 << 14 || height > 1 << 14 {
        return Err(EpilogError::NotGenerated(format!(
            "a {width}x{height} framebuffer for spilled render targets (1 to 16384 pixels \
             each way, 16384 samples a row)"
        )));
    }
    let mut heap = Vec::new();
    let mut images = Vec::new();
    let mut next = image_address;
    for p in layout
        .render_targets
        .iter()
        .filter(|p| p.offset_bytes.is_none())
    {
        let (channels, ty, bytes, bgr, srgb) = image_format(&p.format)
            .ok_or_else(|| TileBufferError::NotRenderable(p.format.clone()))?;
        let elements = width * samples;
        let stride = u64::from(elements * bytes).next_multiple_of(16);
        let address = next.next_multiple_of(256);
        next = address + stride * u64::from(height);
        let comps = crate::tilebuffer::rt_format(&p.format)?.1 as usize;
        let order = if bgr { [2, 1, 0, 3] } else { [0, 1, 2, 3] };
        let mut d = Descriptor {
            dimension: dimension::D2_ARRAY,
            layout: LAYOUT_LINEAR,
            channels,
            ty,
            swizzle: order,
            width: elements,
            height,
            address,
            srgb,
            stride,
            samples: 1,
        };
        let pbe = d.encode(Kind::Pbe);
        for c in comps..4 {
            d.swizzle[c] = if c == 3 { channel::ONE } else { channel::ZERO };
        }
        let texture = d.encode(Kind::Texture);
        let rt = usize::from(p.rt);
        let at = descriptor_offset(rt, false) as usize;
        heap.resize(heap.len().max(at + 2 * DESCRIPTOR_BYTES), 0);
        heap[at..at + DESCRIPTOR_BYTES].copy_from_slice(&texture);
        heap[at + DESCRIPTOR_BYTES..at + 2 * DESCRIPTOR_BYTES].copy_from_slice(&pbe);
        images.push(SpilledImage {
            rt: p.rt,
            format: p.format.clone(),
            address,
            width,
            height,
            stride,
            bytes_per_pixel: bytes,
            samples,
        });
    }
    let uniforms = (0..4)
        .map(|i| (HEAP_UNIFORM_HALF + i, (heap_address >> (16 * i)) as u16))
        .collect();
    Ok(SpillBindings {
        heap_address,
        heap,
        uniforms,
        images,
    })
}

/// Emits the pixel interlock before the first access.
pub(crate) fn setup(code: &mut Builder) {
    code.push("pixwait", &args![12, 0]);
}

/// Sampler state slot `ssN`.
const fn ss(n: u32) -> Operand {
    Operand::plain(OperandKind::Ss(n))
}

/// The render-target heap's 64-bit uniform.
const fn heap() -> Operand {
    du(HEAP_UNIFORM_HALF as u32 / 2)
}

/// Emits the coordinates of the lane's pixel, or of its sample in `r1l` with `samples`
/// above 1 (before each access: blending uses the registers in between).
fn coordinates(code: &mut Builder, samples: u8) {
    let (x, y, z, handle) = (r(COORD), r(COORD + 1), r(COORD + 2), r(HANDLE));
    code.push("mfsr", &args![x, "thread_in_grid_x"]);
    code.push("mfsr", &args![y, "thread_in_grid_y"]);
    code.push("mov", &args![z, 0]);
    if samples > 1 {
        code.push("ffs", &args![handle, rl(1)]);
        code.push("shl", &args![x, x, samples.trailing_zeros()]);
        code.push("iadd", &args![x, x, handle]);
    }
}

/// Emits the texel fetch of render target `rt` (with `samples` samples) at the pixel into
/// the four registers of `dst` (a tuple such as `r41_r42_r43_r44`).
pub(crate) fn load(code: &mut Builder, rt: usize, samples: u8, dst: Operand) {
    coordinates(code, samples);
    code.push("ldimm", &args![r(HANDLE), descriptor_offset(rt, false)]);
    code.push(
        "smpi",
        &args![
            dst,
            heap(),
            r(HANDLE),
            ss(0),
            r(COORD),
            rl(COORD + 2),
            "2d_array",
            "xyzw",
            "lod_min",
            "a"
        ],
    );
}

/// Emits the image write of the four registers of `data` to render target `rt` (with
/// `count` samples) at the pixel, skipped where the 16-bit `samples` operand is 0 unless it
/// is `255`, with several samples also where it leaves the fragment's starting coverage.
pub(crate) fn store(code: &mut Builder, rt: usize, count: u8, data: Operand, samples: Operand) {
    let guarded = samples != imm(255) || count > 1;
    if count > 1 {
        code.push("mfsr", &args![r(HANDLE), "input_sample_mask"]);
        code.push("and", &args![rl(HANDLE), rl(HANDLE), samples]);
        code.push("if_icmp", &args![rl(HANDLE), 0, 1, "ine"]);
    } else if guarded {
        code.push("if_icmp", &args![samples, 0, 1, "ine"]);
    }
    coordinates(code, count);
    code.push("ldimm", &args![r(HANDLE), descriptor_offset(rt, true)]);
    code.push(
        "imgw",
        &args![data, heap(), r(HANDLE), r(COORD), 0, "2d_array"],
    );
    if guarded {
        code.push("pop_exec", &args![1]);
    }
}
