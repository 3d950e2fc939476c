//! The descriptor fields Honeykrisp gives an attachment of each Vulkan format the captures
//! use, for the tests that run its background and end-of-tile programs through texture
//! and PBE descriptors: `Channels` and `Type` from `ail_pixel_format`
//! (`src/asahi/layout/formats.c`) of the pipe format, and the swizzles `pack_texture` and
//! `pack_pbe` (`src/asahi/vulkan/hk_image_view.c`) derive from the format's description.
//! Codes are those of Mesa's `src/asahi/genxml/cmdbuf.xml`.

use gpuabi_agx_isa::descriptor::{channel, channels as ch, texture_type as ty};

/// An attachment format as Honeykrisp's descriptors see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HkFormat {
    /// `Channels`.
    pub channels: u32,
    /// `Type`.
    pub ty: u32,
    /// Bytes per pixel.
    pub bytes: u32,
    /// The memory channel holding each of the components R, G, B, A (the pipe format
    /// description's swizzle), `None` when the format lacks the component.
    pub channel_of: [Option<u32>; 4],
    /// sRGB encoded (the texture decodes; end-of-tile PBEs use the linear format).
    pub srgb: bool,
}

impl HkFormat {
    /// The swizzle of a PBE (`pack_pbe`): the field of memory channel `i` holds the
    /// component stored there; fields of channels the format lacks stay 0.
    pub fn pbe_swizzle(&self) -> [u32; 4] {
        let mut s = [0; 4];
        for (component, ch) in self.channel_of.iter().enumerate() {
            if let Some(ch) = ch {
                s[*ch as usize] = component as u32;
            }
        }
        s
    }

    /// The swizzle of a texture (`pack_texture` with the identity view swizzle): the
    /// field of component `c` holds its memory channel, or constant 0 (red, green, blue)
    /// or 1 (alpha) when the format lacks it.
    pub fn texture_swizzle(&self) -> [u32; 4] {
        std::array::from_fn(|c| match self.channel_of[c] {
            Some(ch) => ch,
            None if c == 3 => channel::ONE,
            None => channel::ZERO,
        })
    }
}

/// The fields of a Vulkan format (without `VK_FORMAT_`).
pub fn hk_format(vk: &str) -> HkFormat {
    let f = |channels, ty, bytes, channel_of| HkFormat {
        channels,
        ty,
        bytes,
        channel_of,
        srgb: false,
    };
    let rgba = [Some(0), Some(1), Some(2), Some(3)];
    let rg = [Some(0), Some(1), None, None];
    let r = [Some(0), None, None, None];
    match vk {
        "R8G8B8A8_UNORM" => f(ch::R8G8B8A8, ty::UNORM, 4, rgba),
        // PIPE_FORMAT_B8G8R8A8_SRGB: blue in channel 0, red in channel 2.
        "B8G8R8A8_SRGB" => HkFormat {
            srgb: true,
            ..f(
                ch::R8G8B8A8,
                ty::UNORM,
                4,
                [Some(2), Some(1), Some(0), Some(3)],
            )
        },
        "R16G16B16A16_SINT" => f(ch::R16G16B16A16, ty::SINT, 8, rgba),
        "R16G16B16A16_UINT" => f(ch::R16G16B16A16, ty::UINT, 8, rgba),
        "R16G16B16A16_SFLOAT" => f(ch::R16G16B16A16, ty::FLOAT, 8, rgba),
        "R16G16_UINT" => f(ch::R16G16, ty::UINT, 4, rg),
        "R16G16_SFLOAT" => f(ch::R16G16, ty::FLOAT, 4, rg),
        "R32_UINT" => f(ch::R32, ty::UINT, 4, r),
        "R32G32_UINT" => f(ch::R32G32, ty::UINT, 8, rg),
        "R32G32B32A32_SINT" => f(ch::R32G32B32A32, ty::SINT, 16, rgba),
        // PIPE_FORMAT_R10G10B10A2_UNORM.
        "A2B10G10R10_UNORM_PACK32" => f(ch::R10G10B10A2, ty::UNORM, 4, rgba),
        // PIPE_FORMAT_R11G11B10_FLOAT.
        "B10G11R11_UFLOAT_PACK32" => f(
            ch::R11G11B10,
            ty::FLOAT,
            4,
            [Some(0), Some(1), Some(2), None],
        ),
        // PIPE_FORMAT_B5G6R5_UNORM: blue in channel 0 (the low bits), red in channel 2.
        "R5G6B5_UNORM_PACK16" => f(ch::R5G6B5, ty::UNORM, 2, [Some(2), Some(1), Some(0), None]),
        _ => panic!("no Honeykrisp descriptor fields for {vk}"),
    }
}

/// The format fields of one texture or PBE descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fields {
    /// `Channels`.
    pub channels: u32,
    /// `Type`.
    pub ty: u32,
    /// `Swizzle R`, `G`, `B`, `A`.
    pub swizzle: [u32; 4],
    /// `sRGB`.
    pub srgb: bool,
    /// Bytes per pixel.
    pub bytes: u32,
}

/// The end-of-tile PBE fields of a Vulkan format: the linear format's (`pack_pbe` with
/// `HK_DESC_USAGE_BG_EOT`: the tile already holds sRGB-encoded bytes).
pub fn pbe_fields(vk: &str) -> Fields {
    let f = hk_format(vk);
    Fields {
        channels: f.channels,
        ty: f.ty,
        swizzle: f.pbe_swizzle(),
        srgb: false,
        bytes: f.bytes,
    }
}

/// The background texture fields of a Vulkan format (`pack_texture`).
pub fn texture_fields(vk: &str) -> Fields {
    let f = hk_format(vk);
    Fields {
        channels: f.channels,
        ty: f.ty,
        swizzle: f.texture_swizzle(),
        srgb: f.srgb,
        bytes: f.bytes,
    }
}

/// The fields of a descriptor as agxdecode prints it (`  Field: value` lines), with its
/// sample count (1 unless the dimension is `2D Multisampled`); `what` names it in panics.
pub fn decoded_fields(what: &str, text: &str) -> (Fields, u32) {
    let get = |f: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{f}: ")))
            .unwrap_or_else(|| panic!("{what}: no {f}"))
    };
    let (channels, bytes) = channels_named(get("Channels"))
        .unwrap_or_else(|| panic!("{what}: channels {}", get("Channels")));
    let ty = type_named(get("Type")).unwrap_or_else(|| panic!("{what}: type {}", get("Type")));
    let swizzle = ["Swizzle R", "Swizzle G", "Swizzle B", "Swizzle A"]
        .map(|f| channel_named(get(f)).unwrap_or_else(|| panic!("{what}: {f} {}", get(f))));
    let samples = match get("Dimension") {
        "2D" => 1,
        "2D Multisampled" => get("Samples").parse().expect("samples"),
        other => panic!("{what}: dimension {other}"),
    };
    (
        Fields {
            channels,
            ty,
            swizzle,
            srgb: get("sRGB") == "true",
            bytes,
        },
        samples,
    )
}

/// The `Channels` code of its name in agxdecode's text, with bytes per pixel.
fn channels_named(name: &str) -> Option<(u32, u32)> {
    Some(match name {
        "R8G8B8A8" => (ch::R8G8B8A8, 4),
        "R10G10B10A2" => (ch::R10G10B10A2, 4),
        "R11G11B10" => (ch::R11G11B10, 4),
        "R5G6B5" => (ch::R5G6B5, 2),
        "R32" => (ch::R32, 4),
        "R16G16" => (ch::R16G16, 4),
        "R16G16B16A16" => (ch::R16G16B16A16, 8),
        "R32G32" => (ch::R32G32, 8),
        "R32G32B32A32" => (ch::R32G32B32A32, 16),
        _ => return None,
    })
}

/// The `Texture Type` code of its name in agxdecode's text.
fn type_named(name: &str) -> Option<u32> {
    Some(match name {
        "Unorm" => ty::UNORM,
        "Snorm" => ty::SNORM,
        "Uint" => ty::UINT,
        "Sint" => ty::SINT,
        "Float" => ty::FLOAT,
        _ => return None,
    })
}

/// The `Channel` code of a swizzle field's text (`R`, `G`, `B`, `A`, `0`, `1`).
fn channel_named(name: &str) -> Option<u32> {
    Some(match name {
        "R" => 0,
        "G" => 1,
        "B" => 2,
        "A" => 3,
        "1" => channel::ONE,
        "0" => channel::ZERO,
        _ => return None,
    })
}

/// The one attachment set of the shared capture whose formats give exactly the captured
/// descriptors (descriptor index → fields and sample count) through `fields`; `name` names
/// it in panics.
pub fn matching_set<'a>(
    name: &str,
    sets: &'a [crate::hk_capture::SharedSet],
    captured: &std::collections::BTreeMap<u32, (Fields, u32)>,
    fields: fn(&str) -> Fields,
) -> &'a crate::hk_capture::SharedSet {
    let matching: Vec<_> = sets
        .iter()
        .filter(|set| {
            set.formats.iter().flatten().count() == captured.len()
                && captured.iter().all(|(&i, (f, samples))| {
                    set.formats
                        .get(i as usize)
                        .and_then(|v| v.as_deref())
                        .is_some_and(|vk| fields(vk) == *f && *samples == 1)
                })
        })
        .collect();
    assert_eq!(matching.len(), 1, "{name}: {captured:?}");
    matching[0]
}

/// Each render target of a project draw's tile with the descriptor fields `fields` gives its
/// format (every attachment is stored and reloaded: the capture's load and store operations
/// all do); the formats met are added to `seen`.
pub fn attachment_fields(
    tile: &crate::hk_capture::DrawTile,
    fields: fn(&str) -> Fields,
    seen: &mut std::collections::BTreeSet<String>,
) -> std::collections::BTreeMap<u32, Fields> {
    tile.layout
        .render_targets
        .iter()
        .map(|p| {
            let vk = tile.formats[usize::from(p.rt)].as_deref().expect("bound");
            seen.insert(vk.to_string());
            (u32::from(p.rt), fields(vk))
        })
        .collect()
}
