//! Honeykrisp's end-of-tile programs (the store of the tile buffer to the attachments at
//! the end of a render pass, and the same store at a partial render) as the draws of the
//! project's capture (`testdata/mesa/hk`) and of the shared one (`data/mesa/hk` of the shared test data)
//! bound them, run in the simulator: every attachment's memory must hold the tile's
//! pixels, every sample, and nothing else in memory may change.
//!
//! What Mesa does: `agx_build_end_of_tile_shader` (`src/asahi/lib/agx_bg_eot.c`) emits,
//! per stored render target `rt`, one block store (`imgwblk`) from texture-state register
//! `rt` at the target's tile-buffer offset in its tile format, with the multisampled
//! dimension when the tile has more than one sample: each sample is stored, nothing is
//! resolved. `hk_build_bg_eot` (`src/asahi/vulkan/hk_cmd_draw.c`) binds register `rt` to
//! the attachment's end-of-tile PBE descriptor (`pack_pbe` in
//! `src/asahi/vulkan/hk_image_view.c`: the view's format made linear, since the tile
//! already holds sRGB-encoded bytes; channels and type from `ail_pixel_format`; the
//! swizzle from the format's description).
//!
//! What is approximated, and why it does not change what is tested: the project capture's
//! submits leave the `Texture state` words and their descriptors out, and both captures'
//! attachments are twiddled and compressed, which the simulator does not model. Here each
//! attachment is a linear image of twice the tile in each direction, its rows padded by
//! 64 bytes, with a PBE built for it: for the project capture from the attachment's
//! Vulkan format by the rules above (the table of `hk_formats`, which the shared capture's
//! real descriptors confirm field by field), for the shared capture from the fields of
//! the descriptors Honeykrisp bound (decoded in `agxdecode.0000`); only layout, address,
//! size and stride are ours. The end-of-tile code does not depend on the layout: it names
//! the register, offset, format and dimension; the layout is the descriptor's business.
//! Multisampled images have no linear layout in Mesa; here the samples of a pixel sit
//! side by side (the simulator's rule, `imgwblk` in `gpuabi-agx-sim`).
//!
//! The tile is filled with a byte pattern, different per tile, and two tiles are stored:
//! at the image's origin and at (tile width, tile height). The expected image bytes are
//! worked out here from the tile's bytes: the same bytes where the tile format stores the
//! attachment format's bits (all but two formats), swapped red and blue for B8G8R8A8,
//! and, for R5G6B5 (whose tile holds half floats), each half float clamped to [0, 1]
//! and rounded to 5 or 6 bits, the pattern there being finite halves.

// Shared with `mesa_background`, which uses more of it.
#[allow(dead_code)]
mod hk_capture;
// Shared with `mesa_background`.
#[allow(dead_code)]
mod hk_formats;

use std::collections::BTreeMap;

use gpuabi_agx::tilebuffer::TileBufferLayout;
use gpuabi_agx_isa::descriptor::{dimension, Descriptor, Kind, DESCRIPTOR_BYTES, LAYOUT_LINEAR};
use gpuabi_agx_sim::{run, Fragment, Region, State};
use half::f16;
use hk_capture::{
    bound, check_tile_words, code_address, draw_tile, pipelines, shared_binary, shared_sets,
    submit, texture_states, SharedSet,
};
use hk_formats::{attachment_fields, decoded_fields, matching_set, pbe_fields, Fields};

/// Where the descriptors of the texture-state registers are (24 bytes per register).
const DESCS: u64 = 0x1_0000;
/// Where render target `rt`'s image region starts: `IMAGES + rt · IMAGE_SPACING`.
const IMAGES: u64 = 0x10_0000;
const IMAGE_SPACING: u64 = 0x10_0000;
/// Bytes before and after each image that must stay untouched.
const GUARD: u64 = 256;
/// What untouched image bytes hold.
const UNTOUCHED: u8 = 0xa5;

/// `round(clamp(x, 0, 1) · (2^bits − 1))`, ties to even (Mesa's `_mesa_float_to_unorm`).
fn unorm(x: f32, bits: u32) -> u16 {
    let max = f64::from((1u32 << bits) - 1);
    (f64::from(x.clamp(0.0, 1.0)) * max).round_ties_even() as u16
}

/// The image bytes of one sample of `vk` from its render target's tile bytes `t`.
fn expected_pixel(vk: &str, t: &[u8]) -> Vec<u8> {
    match vk {
        // Red, green, blue, alpha bytes in the tile and in memory.
        "R8G8B8A8_UNORM" => t.to_vec(),
        // The tile holds the sRGB bytes red first; memory has blue first.
        "B8G8R8A8_SRGB" => vec![t[2], t[1], t[0], t[3]],
        // Integer and half-float channels of the same width, in order.
        "R16G16B16A16_SINT"
        | "R16G16B16A16_UINT"
        | "R16G16B16A16_SFLOAT"
        | "R16G16_UINT"
        | "R16G16_SFLOAT"
        | "R32_UINT"
        | "R32G32_UINT"
        | "R32G32B32A32_SINT" => t.to_vec(),
        // The packed word in the tile is the attachment's word (`rgb10a2`, `rg11b10f`).
        "A2B10G10R10_UNORM_PACK32" | "B10G11R11_UFLOAT_PACK32" => t.to_vec(),
        // Half floats R, G, B; Vulkan's R5G6B5 has blue in bits 0..5, green 5..11, red
        // 11..16.
        "R5G6B5_UNORM_PACK16" => {
            let h = |i: usize| f16::from_le_bytes([t[2 * i], t[2 * i + 1]]).to_f32();
            let v = unorm(h(2), 5) | unorm(h(1), 6) << 5 | unorm(h(0), 5) << 11;
            v.to_le_bytes().to_vec()
        }
        _ => panic!("no expected pixel for {vk}"),
    }
}

/// Byte `i` of the tile with pattern `seed`.
fn pattern(seed: u32, i: usize) -> u8 {
    ((i as u32 ^ seed.wrapping_mul(0x9e37_79b9))
        .wrapping_mul(0x85eb_ca6b)
        .rotate_left(13)
        .wrapping_mul(0xc2b2_ae35)
        >> 24) as u8
}

/// One end-of-tile program with what it stores.
struct Case {
    /// For messages.
    name: String,
    code: Vec<u8>,
    /// Vulkan format of each render target.
    formats: Vec<Option<String>>,
    layout: TileBufferLayout,
    /// Each stored render target's PBE format, by texture-state register (= `rt`).
    pbes: BTreeMap<u32, Fields>,
}

/// Runs `case` for two tiles and checks every image byte and the descriptors.
fn check(case: &Case) {
    let name = &case.name;
    let samples = u32::from(case.layout.samples);
    let (tw, th) = (case.layout.tile_width, case.layout.tile_height);
    let (width, height) = (2 * tw, 2 * th);
    let mut descs = vec![0u8; 8 * DESCRIPTOR_BYTES];
    let mut st = State::default();
    // rt → (image address, stride, bytes per pixel)
    let mut images: BTreeMap<u32, (u64, u64, u32)> = BTreeMap::new();
    for (&rt, f) in &case.pbes {
        let address = IMAGES + u64::from(rt) * IMAGE_SPACING;
        let stride = u64::from(width * samples * f.bytes).next_multiple_of(64) + 64;
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
            width,
            height,
            address,
            srgb: f.srgb,
            stride,
            samples,
        };
        let at = rt as usize * DESCRIPTOR_BYTES;
        descs[at..at + DESCRIPTOR_BYTES].copy_from_slice(&d.encode(Kind::Pbe));
        st.bind_texture_state(rt, 1, DESCS + u64::from(rt) * DESCRIPTOR_BYTES as u64);
        st.memory.push(Region {
            address: address - GUARD,
            bytes: vec![UNTOUCHED; (GUARD + stride * u64::from(height) + GUARD) as usize],
        });
        images.insert(rt, (address, stride, f.bytes));
    }
    st.memory.insert(
        0,
        Region {
            address: DESCS,
            bytes: descs.clone(),
        },
    );
    // The expected image regions, in the order of `st.memory[1..]`.
    let mut want: Vec<Vec<u8>> = st.memory[1..].iter().map(|r| r.bytes.clone()).collect();
    for (seed, (ox, oy)) in [(1u32, (0, 0)), (2, (tw, th))] {
        let mut frag = Fragment::new(tw, th, samples, case.layout.sample_size_bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, b) in frag.tib.iter_mut().enumerate() {
            *b = pattern(seed, i);
        }
        // R5G6B5's tile holds half floats: finite ones in [-0.25, 1.25].
        for p in &case.layout.render_targets {
            if case.formats[usize::from(p.rt)].as_deref() != Some("R5G6B5_UNORM_PACK16") {
                continue;
            }
            let off = p.offset_bytes.expect("not spilled");
            for px in 0..tw * th * samples {
                for c in 0..p.size_bytes as usize / 2 {
                    let i = (px * case.layout.sample_size_bytes + off) as usize + 2 * c;
                    let x = f32::from(frag.tib[i] % 97) / 64.0 - 0.25;
                    frag.tib[i..i + 2].copy_from_slice(&f16::from_f32(x).to_le_bytes());
                }
            }
        }
        let tile = frag.tib.clone();
        st.frag = Some(Box::new(frag));
        st.grid = [ox, oy, 0];
        run(&case.code, &mut st, 1000).unwrap_or_else(|e| panic!("{name}: {e}"));
        let frag = st.frag.as_deref().expect("fragment");
        assert_eq!(frag.tib, tile, "{name}: the tile is only read");
        for p in &case.layout.render_targets {
            let vk = case.formats[usize::from(p.rt)].as_deref().expect("bound");
            let (_, stride, bytes) = images[&u32::from(p.rt)];
            let k = images.keys().position(|&r| r == u32::from(p.rt)).unwrap();
            let off = p.offset_bytes.expect("not spilled");
            for y in 0..th {
                for x in 0..tw {
                    for s in 0..samples {
                        let i = frag.byte(x, y, s, off, p.size_bytes).expect("in the tile");
                        let px = expected_pixel(vk, &tile[i..i + p.size_bytes as usize]);
                        assert_eq!(px.len() as u32, bytes, "{name}: rt{} {vk}", p.rt);
                        let at = (GUARD
                            + u64::from(oy + y) * stride
                            + u64::from(((ox + x) * samples + s) * bytes))
                            as usize;
                        want[k][at..at + px.len()].copy_from_slice(&px);
                    }
                }
            }
        }
    }
    assert_eq!(st.memory[0].bytes, descs, "{name}: descriptors changed");
    for (k, (&rt, _)) in images.iter().enumerate() {
        let got = &st.memory[k + 1].bytes;
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[k][i]) {
            panic!(
                "{name}: rt{rt} ({}): byte {} of the image region (image offset {}) is \
                 {:#04x}, expected {:#04x}",
                case.formats[rt as usize].as_deref().unwrap_or("?"),
                i,
                i as i64 - GUARD as i64,
                got[i],
                want[k][i]
            );
        }
    }
}

#[test]
fn end_of_tile_programs_store_every_sample_of_the_project_captures_draws() {
    let mut runs = 0;
    let mut formats_seen = std::collections::BTreeSet::new();
    let mut multisampled = std::collections::BTreeSet::new();
    for (draw, roles) in &bound() {
        let tile = draw_tile(draw);
        let submit = submit(draw);
        for (role, title) in [
            ("end-of-tile", "Store pipeline"),
            ("partial end-of-tile", "Partial store pipeline"),
        ] {
            let name = format!("{draw} {role}");
            let eot = roles
                .get(role)
                .unwrap_or_else(|| panic!("{name}: not bound"));
            let section = *pipelines(&submit, title)
                .first()
                .unwrap_or_else(|| panic!("{name}: no {title} in the submit"));
            assert_eq!(code_address(&name, section), eot.address, "{name}");
            check_tile_words(&name, section, &tile.layout);
            let pbes = attachment_fields(&tile, pbe_fields, &mut formats_seen);
            check(&Case {
                name,
                code: eot.code(),
                formats: tile.formats.clone(),
                layout: tile.layout.clone(),
                pbes,
            });
            if tile.samples > 1 {
                multisampled.insert(tile.samples);
            }
            runs += 1;
        }
    }
    assert_eq!(runs, 2 * 29);
    assert_eq!(formats_seen.len(), 12, "{formats_seen:?}");
    assert_eq!(multisampled.into_iter().collect::<Vec<_>>(), [2, 4]);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn end_of_tile_programs_store_the_shared_captures_attachments_through_honeykrisps_pbe_fields() {
    let Some(dir) = gpuabi_testdata::shared_data("mesa/hk") else {
        return;
    };
    let decoded = hk_capture::read(&dir.join("agxdecode.0000"));
    // The two attachment sets of the captured render passes (`device.txt`), with the
    // tile layout of a draw of each.
    let sets = shared_sets(&dir);
    let mut seen_sets = Vec::new();
    for title in ["Store pipeline", "Partial store pipeline"] {
        for (n, section) in pipelines(&decoded, title).into_iter().enumerate() {
            let name = format!("shared {title} {n}");
            let states = texture_states(&name, section, "PBE");
            let captured: BTreeMap<u32, (Fields, u32)> = states
                .iter()
                .map(|(&ts, text)| (ts, decoded_fields(&format!("{name} ts{ts}"), text)))
                .collect();
            // The set whose formats give exactly these descriptors: Honeykrisp's real
            // PBEs against the table of `hk_formats`.
            let SharedSet {
                set,
                formats,
                layout,
            } = matching_set(&name, &sets, &captured, pbe_fields);
            check_tile_words(&name, section, layout);
            let address = code_address(&name, section);
            let (file, code) = shared_binary(&dir, address);
            check(&Case {
                name: format!("{name} (set {set}, {file})"),
                code,
                formats: formats.clone(),
                layout: layout.clone(),
                pbes: captured.iter().map(|(&ts, (f, _))| (ts, *f)).collect(),
            });
            seen_sets.push(*set);
        }
    }
    seen_sets.sort();
    // Three render passes (`dynA`, `dynB` and `staticA`, on set A's attachments), each
    // with a store and a partial store.
    assert_eq!(seen_sets, ['A', 'A', 'A', 'A', 'B', 'B']);
}
