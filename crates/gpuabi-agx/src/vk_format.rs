//! Vulkan format names as Mesa's pipe formats, the names gpuabi's keys use: Honeykrisp's
//! `hk_format_to_pipe_format` (`src/asahi/vulkan/hk_image.h`), which is Mesa's
//! `vk_format_map` (`src/vulkan/util/vk_format.c`) but for four 10- and 12-bit formats.
//!
//! `vk_format_map` follows two rules, applied here instead of its table: an array format
//! keeps its name with `SFLOAT` written `FLOAT` (`VK_FORMAT_R16G16_SFLOAT` is
//! `PIPE_FORMAT_R16G16_FLOAT`); a packed format (`_PACK8`/`_PACK16`/`_PACK32`) lists its
//! channels from the high bits down where pipe formats list them from bit 0 up, so the
//! channels are reversed and the suffix dropped (`A2R10G10B10_SNORM_PACK32` is
//! `B10G10R10A2_SNORM`, `B10G11R11_UFLOAT_PACK32` is `R11G11B10_FLOAT`). The one exception
//! is `A8B8G8R8_*_PACK32`, which Mesa names `RGBA8888_*`. Depth, stencil, compressed and
//! multi-planar formats have no pipe format here.

/// Honeykrisp's own mappings, ahead of `vk_format_map` (`hk_format_to_pipe_format`).
const HK_OVERRIDES: [(&str, &str); 4] = [
    ("R10X6_UNORM_PACK16", "R16_UNORM"),
    ("R12X4_UNORM_PACK16", "R16_UNORM"),
    ("R10X6G10X6_UNORM_2PACK16", "R16G16_UNORM"),
    ("R12X4G12X4_UNORM_2PACK16", "R16G16_UNORM"),
];

/// Channel types of colour formats, with the pipe format's name for each.
const TYPES: [(&str, &str); 9] = [
    ("UNORM", "UNORM"),
    ("SNORM", "SNORM"),
    ("USCALED", "USCALED"),
    ("SSCALED", "SSCALED"),
    ("UINT", "UINT"),
    ("SINT", "SINT"),
    ("SRGB", "SRGB"),
    ("SFLOAT", "FLOAT"),
    ("UFLOAT", "FLOAT"),
];

/// Splits a channel layout such as `A2R10G10B10` into (letter, bits) pairs; `None` unless
/// it is one of R, G, B, A, X, E each followed by a bit count.
fn channels(layout: &str) -> Option<Vec<(char, u32)>> {
    let mut out = Vec::new();
    let mut chars = layout.chars().peekable();
    while let Some(letter) = chars.next() {
        if !"RGBAXE".contains(letter) {
            return None;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|c| c.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        out.push((letter, digits.parse().ok()?));
    }
    (!out.is_empty()).then_some(out)
}

/// The pipe-format name of a `VK_FORMAT_*` name (with or without the prefix), or `None`
/// when it names no colour format.
pub fn pipe_format(vk: &str) -> Option<String> {
    let bare = vk.strip_prefix("VK_FORMAT_").unwrap_or(vk);
    if let Some((_, p)) = HK_OVERRIDES.iter().find(|(v, _)| *v == bare) {
        return Some((*p).to_string());
    }
    let (body, packed) = match bare.rsplit_once("_PACK") {
        Some((body, "8" | "16" | "32")) => (body, true),
        Some(_) => return None,
        None => (bare, false),
    };
    let (layout, ty) = body.rsplit_once('_')?;
    let ty = TYPES.iter().find(|(v, _)| *v == ty)?.1;
    let mut chans = channels(layout)?;
    if !packed {
        return Some(format!("{layout}_{ty}"));
    }
    if layout == "A8B8G8R8" {
        return Some(format!("RGBA8888_{ty}"));
    }
    chans.reverse();
    let name: String = chans.iter().map(|(l, b)| format!("{l}{b}")).collect();
    Some(format!("{name}_{ty}"))
}

#[cfg(test)]
mod tests {
    use super::pipe_format;

    /// Entries of `vk_format_map` in `src/vulkan/util/vk_format.c`.
    #[test]
    fn agrees_with_vk_format_map() {
        for (vk, pipe) in [
            ("VK_FORMAT_R4G4B4A4_UNORM_PACK16", "A4B4G4R4_UNORM"),
            ("VK_FORMAT_R5G6B5_UNORM_PACK16", "B5G6R5_UNORM"),
            ("VK_FORMAT_A1R5G5B5_UNORM_PACK16", "B5G5R5A1_UNORM"),
            ("VK_FORMAT_R8G8B8_SRGB", "R8G8B8_SRGB"),
            ("VK_FORMAT_B8G8R8A8_UNORM", "B8G8R8A8_UNORM"),
            ("VK_FORMAT_A8B8G8R8_SRGB_PACK32", "RGBA8888_SRGB"),
            ("VK_FORMAT_A2R10G10B10_SNORM_PACK32", "B10G10R10A2_SNORM"),
            ("VK_FORMAT_A2B10G10R10_UINT_PACK32", "R10G10B10A2_UINT"),
            ("VK_FORMAT_R16G16B16_SFLOAT", "R16G16B16_FLOAT"),
            ("VK_FORMAT_R32G32B32A32_SFLOAT", "R32G32B32A32_FLOAT"),
            ("VK_FORMAT_R64_UINT", "R64_UINT"),
            ("VK_FORMAT_B10G11R11_UFLOAT_PACK32", "R11G11B10_FLOAT"),
            ("VK_FORMAT_E5B9G9R9_UFLOAT_PACK32", "R9G9B9E5_FLOAT"),
            ("VK_FORMAT_R10X6G10X6_UNORM_2PACK16", "R16G16_UNORM"),
        ] {
            assert_eq!(pipe_format(vk).as_deref(), Some(pipe), "{vk}");
        }
        for vk in [
            "VK_FORMAT_D32_SFLOAT",
            "VK_FORMAT_BC1_RGB_UNORM_BLOCK",
            "VK_FORMAT_UNDEFINED",
            "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM",
            "R8G8_FOO",
        ] {
            assert_eq!(pipe_format(vk), None, "{vk}");
        }
    }
}
