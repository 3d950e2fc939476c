//! Honeykrisp's reloading background programs (the partial background, which loads what
//! a partial render stored, and, in the shared capture, the render passes' backgrounds
//! with `VK_ATTACHMENT_LOAD_OP_LOAD`) as the draws of the project's capture
//! (`testdata/mesa/hk`) and of the shared one (`data/mesa/hk` of the shared test data) bound them, run
//! in the simulator: every sample of every pixel of the tile must hold the attachment's
//! pixel in the tile format, and the tile's other bytes must stay.
//!
//! What Mesa does: `build_background_op` (`src/asahi/lib/agx_bg_eot.c`), per loaded render
//! target `rt`, fetches the attachment's texel at the pixel's framebuffer coordinates
//! (`thread_in_grid_x`, `_y`) from texture-state register `2·rt`, with the sample index
//! when the tile is multisampled (lowered to one fetch and one store per sample by
//! `agx_nir_lower_monolithic_msaa`), and stores it to the tile in the target's tile
//! format. `hk_build_bg_eot` (`src/asahi/vulkan/hk_cmd_draw.c`) binds register `2·rt` to
//! the attachment's background texture descriptor (`pack_texture` in
//! `src/asahi/vulkan/hk_image_view.c`: the view's format, sRGB decoding included).
//!
//! Approximated as in `mesa_end_of_tile`: the project capture's submits leave the texture
//! descriptors out, and the attachments are twiddled; here each attachment is a linear
//! image of 16x8 pixels (samples side by side), its rows padded by 64 bytes, with a
//! texture descriptor built from the table of `hk_formats` (project capture, confirmed
//! against the shared capture's descriptors) or from the fields Honeykrisp bound (shared
//! capture). The code names the register, not the layout.
//!
//! The SIMD group covers an 8x4 tile at (8, 4), lane `l` at pixel `(l % 8, l / 8)`. The
//! images hold a byte pattern (without the NaN encodings of the float formats, which a
//! fetch and a store need not keep bit for bit). The expected tile bytes are worked out
//! here from the image's: the same bytes where the tile format stores the attachment's
//! bits (a fetch to 32 bits and a store back is exact for them: 8-bit and 10-bit unorm,
//! 16-bit floats, 11/10-bit floats, integers within their range), red and blue swapped
//! for B8G8R8A8 (whose sRGB bytes, decoded by the fetch and encoded by the store, come
//! back unchanged), and for R5G6B5 each channel's unorm value `v / (2^bits − 1)` as a
//! half float, red first.

// Shared with `mesa_background`, which uses more of it.
#[allow(dead_code)]
mod hk_capture;
// Shared with `mesa_end_of_tile`, which uses more of it.
#[allow(dead_code)]
mod hk_formats;

use std::collections::BTreeMap;

use gpuabi_agx::tilebuffer::TileBufferLayout;
use gpuabi_agx_isa::descriptor::{dimension, Descriptor, Kind, DESCRIPTOR_BYTES, LAYOUT_LINEAR};
use gpuabi_agx_sim::{run, Fragment, Region, State, LANES};
use half::f16;
use hk_capture::{
    bound, check_tile_words, code_address, draw_tile, pipelines, shared_binary, shared_sets,
    submit, texture_states, SharedSet,
};
use hk_formats::{attachment_fields, decoded_fields, matching_set, texture_fields, Fields};

/// Where the descriptors of the texture-state registers are (24 bytes per register).
const DESCS: u64 = 0x1_0000;
/// Where render target `rt`'s image is: `IMAGES + rt · IMAGE_SPACING`.
const IMAGES: u64 = 0x10_0000;
const IMAGE_SPACING: u64 = 0x10_0000;
/// The tile: 8x4 pixels at (8, 4) of a 16x8 image.
const TILE: (u32, u32) = (8, 4);
const ORIGIN: (u32, u32) = (8, 4);
const IMAGE: (u32, u32) = (16, 8);
/// What tile bytes outside every render target hold.
const UNTOUCHED: u8 = 0x5a;

/// Byte `i` of render target `rt`'s image.
fn pattern(rt: u32, i: usize) -> u8 {
    ((i as u32 ^ (rt + 1).wrapping_mul(0x9e37_79b9))
        .wrapping_mul(0x85eb_ca6b)
        .rotate_left(11)
        .wrapping_mul(0xc2b2_ae35)
        >> 24) as u8
}

/// `bytes` (one pixel of `vk`) with every NaN encoding made finite: exponent all ones
/// with a non-zero fraction loses the exponent's top bit.
fn without_nan(vk: &str, bytes: &mut [u8]) {
    // (shift, fraction bits) of each float channel.
    let channels: &[(u32, u32)] = match vk {
        "R16G16B16A16_SFLOAT" => &[(0, 10), (16, 10), (32, 10), (48, 10)],
        "R16G16_SFLOAT" => &[(0, 10), (16, 10)],
        "B10G11R11_UFLOAT_PACK32" => &[(0, 6), (11, 6), (22, 5)],
        _ => return,
    };
    let mut word = bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
    for &(shift, frac) in channels {
        let e = (word >> (shift + frac)) & 0x1f;
        let f = (word >> shift) & ((1 << frac) - 1);
        if e == 0x1f && f != 0 {
            word &= !(1 << (shift + frac + 4));
        }
    }
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (word >> (8 * i)) as u8;
    }
}

/// The tile bytes of `vk` from one sample's image bytes `m`.
fn expected_tile(vk: &str, m: &[u8]) -> Vec<u8> {
    match vk {
        "R8G8B8A8_UNORM" => m.to_vec(),
        // Memory has blue first, the tile red first.
        "B8G8R8A8_SRGB" => vec![m[2], m[1], m[0], m[3]],
        "R16G16B16A16_SINT"
        | "R16G16B16A16_UINT"
        | "R16G16B16A16_SFLOAT"
        | "R16G16_UINT"
        | "R16G16_SFLOAT"
        | "R32_UINT"
        | "R32G32_UINT"
        | "R32G32B32A32_SINT" => m.to_vec(),
        "A2B10G10R10_UNORM_PACK32" | "B10G11R11_UFLOAT_PACK32" => m.to_vec(),
        // Blue in bits 0..5, green 5..11, red 11..16; the tile holds R, G, B halves.
        "R5G6B5_UNORM_PACK16" => {
            let v = u16::from_le_bytes([m[0], m[1]]);
            let h = |x: u16, max: f32| f16::from_f32(f32::from(x) / max).to_le_bytes();
            [h(v >> 11, 31.0), h(v >> 5 & 63, 63.0), h(v & 31, 31.0)].concat()
        }
        _ => panic!("no expected tile bytes for {vk}"),
    }
}

/// One reloading program with what it loads.
struct Case {
    name: String,
    code: Vec<u8>,
    /// Vulkan format of each render target.
    formats: Vec<Option<String>>,
    layout: TileBufferLayout,
    /// Each loaded render target's texture fields, by render target.
    textures: BTreeMap<u32, Fields>,
}

fn check(case: &Case) {
    let name = &case.name;
    let samples = u32::from(case.layout.samples);
    let mut st = State::default();
    let mut descs = vec![0u8; 16 * DESCRIPTOR_BYTES];
    // rt → (image address, stride, bytes per pixel)
    let mut images: BTreeMap<u32, (u64, u64, u32)> = BTreeMap::new();
    for (&rt, f) in &case.textures {
        let vk = case.formats[rt as usize].as_deref().expect("bound");
        let address = IMAGES + u64::from(rt) * IMAGE_SPACING;
        let stride = u64::from(IMAGE.0 * samples * f.bytes).next_multiple_of(64) + 64;
        let mut bytes: Vec<u8> = (0..(stride * u64::from(IMAGE.1)) as usize)
            .map(|i| pattern(rt, i))
            .collect();
        for px in bytes.chunks_mut(f.bytes as usize) {
            without_nan(vk, px);
        }
        st.memory.push(Region { address, bytes });
        let d = Descriptor {
            dimension: if samples > 1 {
                dimension::D2_MS
            } else {
                dimension::D2
            },
            layout: LAYOUT_LINEAR,
            channels: f.channels,
            ty: f.ty,
            swizzle: f.swizzle,
            width: IMAGE.0,
            height: IMAGE.1,
            address,
            srgb: f.srgb,
            stride,
            samples,
        };
        let ts = 2 * rt;
        let at = ts as usize * DESCRIPTOR_BYTES;
        descs[at..at + DESCRIPTOR_BYTES].copy_from_slice(&d.encode(Kind::Texture));
        st.bind_texture_state(ts, 1, DESCS + u64::from(ts) * DESCRIPTOR_BYTES as u64);
        images.insert(rt, (address, stride, f.bytes));
    }
    st.memory.push(Region {
        address: DESCS,
        bytes: descs,
    });
    let memory = st.memory.clone();
    let mut frag = Fragment::new(TILE.0, TILE.1, samples, case.layout.sample_size_bytes)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    frag.tib.fill(UNTOUCHED);
    let all = frag.all_samples();
    for l in 0..LANES {
        frag.pixel[l] = ((l as u32 % TILE.0) as u16, (l as u32 / TILE.0) as u16);
        frag.coverage[l] = all;
        frag.input_coverage[l] = all;
    }
    let mut want = frag.tib.clone();
    st.frag = Some(Box::new(frag));
    st.grid = [ORIGIN.0, ORIGIN.1, 0];
    run(&case.code, &mut st, 10_000).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(st.memory, memory, "{name}: memory is only read");
    let frag = st.frag.as_deref().expect("fragment");
    for p in &case.layout.render_targets {
        let rt = u32::from(p.rt);
        let vk = case.formats[rt as usize].as_deref().expect("bound");
        let (_, stride, bytes) = images[&rt];
        let image = &memory[images.keys().position(|&r| r == rt).unwrap()].bytes;
        let off = p.offset_bytes.expect("not spilled");
        for y in 0..TILE.1 {
            for x in 0..TILE.0 {
                for s in 0..samples {
                    let at = (u64::from(ORIGIN.1 + y) * stride
                        + u64::from(((ORIGIN.0 + x) * samples + s) * bytes))
                        as usize;
                    let t = expected_tile(vk, &image[at..at + bytes as usize]);
                    assert_eq!(t.len() as u32, p.size_bytes, "{name}: rt{rt} {vk}");
                    let i = frag.byte(x, y, s, off, p.size_bytes).expect("in the tile");
                    want[i..i + t.len()].copy_from_slice(&t);
                }
            }
        }
    }
    if let Some(i) = (0..want.len()).find(|&i| frag.tib[i] != want[i]) {
        let per_pixel = (samples * case.layout.sample_size_bytes) as usize;
        let (px, rest) = (i / per_pixel, i % per_pixel);
        let (s, b) = (
            rest / case.layout.sample_size_bytes as usize,
            rest % case.layout.sample_size_bytes as usize,
        );
        panic!(
            "{name}: tile pixel ({}, {}) sample {s} byte {b} is {:#04x}, expected {:#04x}",
            px % TILE.0 as usize,
            px / TILE.0 as usize,
            frag.tib[i],
            want[i]
        );
    }
}

#[test]
fn partial_backgrounds_reload_every_sample_of_the_project_captures_draws() {
    let mut runs = 0;
    let mut formats_seen = std::collections::BTreeSet::new();
    let mut multisampled = std::collections::BTreeSet::new();
    for (draw, roles) in &bound() {
        let name = format!("{draw} partial background");
        let bg = roles
            .get("partial background")
            .unwrap_or_else(|| panic!("{name}: not bound"));
        let tile = draw_tile(draw);
        let submit = submit(draw);
        let section = *pipelines(&submit, "Partial reload pipeline")
            .first()
            .unwrap_or_else(|| panic!("{name}: no Partial reload pipeline in the submit"));
        assert_eq!(code_address(&name, section), bg.address, "{name}");
        check_tile_words(&name, section, &tile.layout);
        let textures = attachment_fields(&tile, texture_fields, &mut formats_seen);
        check(&Case {
            name,
            code: bg.code(),
            formats: tile.formats.clone(),
            layout: tile.layout.clone(),
            textures,
        });
        if tile.samples > 1 {
            multisampled.insert(tile.samples);
        }
        runs += 1;
    }
    assert_eq!(runs, 29);
    assert_eq!(formats_seen.len(), 12, "{formats_seen:?}");
    assert_eq!(multisampled.into_iter().collect::<Vec<_>>(), [2, 4]);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn reloading_backgrounds_of_the_shared_capture_read_through_honeykrisps_texture_fields() {
    let Some(dir) = gpuabi_testdata::shared_data("mesa/hk") else {
        return;
    };
    let decoded = hk_capture::read(&dir.join("agxdecode.0000"));
    let sets = shared_sets(&dir);
    let mut seen_sets = Vec::new();
    for title in ["Load pipeline", "Partial reload pipeline"] {
        for (n, section) in pipelines(&decoded, title).into_iter().enumerate() {
            let name = format!("shared {title} {n}");
            let captured: BTreeMap<u32, (Fields, u32)> = texture_states(&name, section, "Texture")
                .iter()
                .map(|(&ts, text)| {
                    assert_eq!(ts % 2, 0, "{name}: ts{ts} is no render target's (2·rt)");
                    (ts / 2, decoded_fields(&format!("{name} ts{ts}"), text))
                })
                .collect();
            // The set whose formats give exactly these descriptors: Honeykrisp's real
            // textures against the table of `hk_formats`.
            let SharedSet {
                set,
                formats,
                layout,
            } = matching_set(&name, &sets, &captured, texture_fields);
            check_tile_words(&name, section, layout);
            let address = code_address(&name, section);
            let (file, code) = shared_binary(&dir, address);
            check(&Case {
                name: format!("{name} (set {set}, {file})"),
                code,
                formats: formats.clone(),
                layout: layout.clone(),
                textures: captured.iter().map(|(&rt, (f, _))| (rt, *f)).collect(),
            });
            seen_sets.push(*set);
        }
    }
    seen_sets.sort();
    // Three render passes (`dynA`, `dynB` and `staticA`, on set A's attachments), each
    // with a load and a partial reload.
    assert_eq!(seen_sets, ['A', 'A', 'A', 'A', 'B', 'B']);
}
