//! Honeykrisp's end-of-tile programs (the store of the tile buffer to the attachments at
//! the end of a render pass, and the same store at a partial render) as the draws of the
//! project's capture (`testdata/mesa/hk`) and of the shared one (`../shared/data/mesa/hk`)
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
//! Vulkan format by the rules above (the table `image_format`, which the shared capture's
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

#[allow(dead_code)]
#[path = "mesa_parts/capture.rs"]
mod capture;
// Shared with `mesa_background`, which uses more of it.
#[allow(dead_code)]
mod hk_capture;

use std::collections::BTreeMap;
use std::path::Path;

use gpuabi_agx::hk_key::fragment_epilog_key;
use gpuabi_agx::tilebuffer::TileBufferLayout;
use gpuabi_agx_isa::descriptor::{
    channels as ch, dimension, texture_type as ty, Descriptor, Kind, DESCRIPTOR_BYTES,
    LAYOUT_LINEAR,
};
use gpuabi_agx_sim::{run, Fragment, Region, State};
use half::f16;
use hk_capture::{bound, draw_tile, field, pipelines, submit};

/// Where the descriptors of the texture-state registers are (24 bytes per register).
const DESCS: u64 = 0x1_0000;
/// Where render target `rt`'s image region starts: `IMAGES + rt · IMAGE_SPACING`.
const IMAGES: u64 = 0x10_0000;
const IMAGE_SPACING: u64 = 0x10_0000;
/// Bytes before and after each image that must stay untouched.
const GUARD: u64 = 256;
/// What untouched image bytes hold.
const UNTOUCHED: u8 = 0xa5;

/// A PBE's format fields: `Channels`, `Type`, swizzle (memory channel → component), and
/// bytes per pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ImageFormat {
    channels: u32,
    ty: u32,
    swizzle: [u32; 4],
    bytes: u32,
}

/// The end-of-tile PBE format Honeykrisp binds for a Vulkan format (without
/// `VK_FORMAT_`): `pack_pbe` with `ail_pixel_format` (`src/asahi/layout/formats.c`) of the
/// view's linear pipe format. The swizzle: for each channel `i` of the pipe format's
/// description, the swizzle field of the component that channel holds is set to `i`;
/// fields no channel sets stay 0. Codes are those of Mesa's `cmdbuf.xml`.
fn image_format(vk: &str) -> ImageFormat {
    let f = |channels, ty, swizzle, bytes| ImageFormat {
        channels,
        ty,
        swizzle,
        bytes,
    };
    let rgba = [0, 1, 2, 3];
    let rg = [0, 1, 0, 0];
    match vk {
        "R8G8B8A8_UNORM" => f(ch::R8G8B8A8, ty::UNORM, rgba, 4),
        // PIPE_FORMAT_B8G8R8A8_UNORM (linear): channel 0 holds blue, so the red field is 2.
        "B8G8R8A8_SRGB" => f(ch::R8G8B8A8, ty::UNORM, [2, 1, 0, 3], 4),
        "R16G16B16A16_SINT" => f(ch::R16G16B16A16, ty::SINT, rgba, 8),
        "R16G16B16A16_UINT" => f(ch::R16G16B16A16, ty::UINT, rgba, 8),
        "R16G16B16A16_SFLOAT" => f(ch::R16G16B16A16, ty::FLOAT, rgba, 8),
        "R16G16_UINT" => f(ch::R16G16, ty::UINT, rg, 4),
        "R16G16_SFLOAT" => f(ch::R16G16, ty::FLOAT, rg, 4),
        "R32_UINT" => f(ch::R32, ty::UINT, [0; 4], 4),
        "R32G32_UINT" => f(ch::R32G32, ty::UINT, rg, 8),
        "R32G32B32A32_SINT" => f(ch::R32G32B32A32, ty::SINT, rgba, 16),
        // PIPE_FORMAT_R10G10B10A2_UNORM.
        "A2B10G10R10_UNORM_PACK32" => f(ch::R10G10B10A2, ty::UNORM, rgba, 4),
        // PIPE_FORMAT_R11G11B10_FLOAT.
        "B10G11R11_UFLOAT_PACK32" => f(ch::R11G11B10, ty::FLOAT, [0, 1, 2, 0], 4),
        // PIPE_FORMAT_B5G6R5_UNORM: blue in channel 0 (the low bits); alpha field unset.
        "R5G6B5_UNORM_PACK16" => f(ch::R5G6B5, ty::UNORM, [2, 1, 0, 0], 2),
        _ => panic!("no end-of-tile image format for {vk}"),
    }
}

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
    pbes: BTreeMap<u32, ImageFormat>,
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
            srgb: false,
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

/// The tile shape a decoded pipeline section states, checked against `layout`.
fn check_tile_words(name: &str, section: &str, layout: &TileBufferLayout) {
    // The `Shared` words (a PBE has a `Layout` of its own).
    let section = section
        .split_once("\nShared\n")
        .unwrap_or_else(|| panic!("{name}: no Shared words"))
        .1;
    let tile = format!("{}x{}", layout.tile_width, layout.tile_height);
    assert_eq!(field(section, "Layout"), Some(tile.as_str()), "{name}");
    assert_eq!(
        field(section, "Sample count"),
        Some(layout.samples.to_string().as_str()),
        "{name}"
    );
    assert_eq!(
        field(section, "Sample stride in 8 bytes"),
        Some((layout.sample_size_bytes / 8).to_string().as_str()),
        "{name}"
    );
}

/// The code address a decoded pipeline section binds.
fn code_address(name: &str, section: &str) -> u64 {
    let code = field(section, "Code").unwrap_or_else(|| panic!("{name}: no Code"));
    u64::from_str_radix(code.trim_start_matches("0x"), 16).expect("an address")
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
            // Every attachment is stored: the capture's store operations all store.
            let pbes = tile
                .layout
                .render_targets
                .iter()
                .map(|p| {
                    let vk = tile.formats[usize::from(p.rt)].as_deref().expect("bound");
                    formats_seen.insert(vk.to_string());
                    (u32::from(p.rt), image_format(vk))
                })
                .collect();
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

/// A captured PBE's format fields from its decoded text (`PBE` then `  Field: value`).
fn captured_format(name: &str, text: &str) -> (ImageFormat, u32) {
    let get = |f: &str| field(text, f).unwrap_or_else(|| panic!("{name}: no {f}"));
    let (channels, bytes) = match get("Channels") {
        "R8G8B8A8" => (ch::R8G8B8A8, 4),
        "R10G10B10A2" => (ch::R10G10B10A2, 4),
        "R32" => (ch::R32, 4),
        "R16G16" => (ch::R16G16, 4),
        "R16G16B16A16" => (ch::R16G16B16A16, 8),
        "R32G32" => (ch::R32G32, 8),
        "R32G32B32A32" => (ch::R32G32B32A32, 16),
        other => panic!("{name}: channels {other} not in this test's table"),
    };
    let ty = match get("Type") {
        "Unorm" => ty::UNORM,
        "Snorm" => ty::SNORM,
        "Uint" => ty::UINT,
        "Sint" => ty::SINT,
        "Float" => ty::FLOAT,
        other => panic!("{name}: type {other}"),
    };
    let swizzle = ["Swizzle R", "Swizzle G", "Swizzle B", "Swizzle A"].map(|f| {
        ["R", "G", "B", "A"]
            .iter()
            .position(|&c| c == get(f))
            .unwrap_or_else(|| panic!("{name}: {f}")) as u32
    });
    assert_eq!(get("sRGB"), "false", "{name}: end-of-tile PBEs are linear");
    let dim = match get("Dimension") {
        "2D" => 1,
        "2D Multisampled" => get("Samples").parse().expect("samples"),
        other => panic!("{name}: dimension {other}"),
    };
    (
        ImageFormat {
            channels,
            ty,
            swizzle,
            bytes,
        },
        dim,
    )
}

/// The texture-state bindings of a decoded pipeline section: register → the text of the
/// descriptor bound there.
fn texture_states<'a>(name: &str, section: &'a str) -> BTreeMap<u32, &'a str> {
    let mut out = BTreeMap::new();
    for block in section.split("\nTexture state\n").skip(1) {
        let start: u32 = field(block, "Start")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name}: Texture state without Start"));
        assert_eq!(field(block, "Count"), Some("1"), "{name}");
        let pbe = block
            .split_once("\nPBE\n")
            .unwrap_or_else(|| panic!("{name}: ts{start} is no PBE"))
            .1;
        let end: usize = pbe
            .lines()
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.len() + 1)
            .sum();
        out.insert(start, &pbe[..end.min(pbe.len())]);
    }
    out
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs ../shared/data (or GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn end_of_tile_programs_store_the_shared_captures_attachments_through_honeykrisps_pbe_fields() {
    let Some(dir) = gpuabi_testdata::shared_data("mesa/hk") else {
        return;
    };
    let decoded = hk_capture::read(&dir.join("agxdecode.0000"));
    // The two attachment sets of the captured render passes (`device.txt`), with the
    // tile layout of a draw of each.
    let draws = capture::shared(&dir);
    let sets: Vec<(char, Vec<Option<String>>, TileBufferLayout)> = ['A', 'B']
        .into_iter()
        .map(|set| {
            let d = draws
                .iter()
                .find(|d| d.name.starts_with(&format!("shared/dyn{set}/")))
                .unwrap_or_else(|| panic!("no draw of set {set}"));
            let f = d.state.fragment.as_ref().expect("fragment state");
            let key = fragment_epilog_key(f).expect("epilog key");
            let names: Vec<Option<&str>> = key
                .rts
                .iter()
                .map(|r| r.as_ref().map(|r| r.format.as_str()))
                .collect();
            let layout =
                gpuabi_agx::tilebuffer::tilebuffer_layout(&names, key.samples).expect("layout");
            let mut formats = vec![None; names.len()];
            for a in &f.attachments {
                formats[a.location as usize] =
                    Some(a.format.trim_start_matches("VK_FORMAT_").to_string());
            }
            (set, formats, layout)
        })
        .collect();
    let mut seen_sets = Vec::new();
    for title in ["Store pipeline", "Partial store pipeline"] {
        for (n, section) in pipelines(&decoded, title).into_iter().enumerate() {
            let name = format!("shared {title} {n}");
            let states = texture_states(&name, section);
            let captured: BTreeMap<u32, (ImageFormat, u32)> = states
                .iter()
                .map(|(&ts, text)| (ts, captured_format(&format!("{name} ts{ts}"), text)))
                .collect();
            // The set whose formats give exactly these descriptors: Honeykrisp's real
            // PBEs against this test's `image_format`.
            let matching: Vec<_> = sets
                .iter()
                .filter(|(_, formats, _)| {
                    formats.iter().flatten().count() == captured.len()
                        && captured.iter().all(|(&ts, (f, samples))| {
                            formats
                                .get(ts as usize)
                                .and_then(|v| v.as_deref())
                                .is_some_and(|vk| image_format(vk) == *f && *samples == 1)
                        })
                })
                .collect();
            assert_eq!(matching.len(), 1, "{name}: {captured:?}");
            let (set, formats, layout) = matching[0];
            check_tile_words(&name, section, layout);
            let address = code_address(&name, section);
            let suffix = format!("_{address:#x}.bin");
            let file = std::fs::read_dir(dir.join("linked"))
                .expect("linked/")
                .map(|e| e.expect("entry").path())
                .find(|p| {
                    p.file_name()
                        .and_then(|f| f.to_str())
                        .is_some_and(|f| f.ends_with(&suffix))
                })
                .unwrap_or_else(|| panic!("{name}: no linked binary at {address:#x}"));
            check(&Case {
                name: format!("{name} (set {set}, {})", file_name(&file)),
                code: std::fs::read(&file).expect("binary"),
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

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}
