//! Tile-buffer layouts against the test vectors of Mesa's `test-tilebuffer.cpp` (sample
//! size, tile size, total size) and hand-computed offsets of the sorted placement.

use gpuabi_agx::tilebuffer::{tilebuffer_layout, TileBufferError};

fn layout(formats: &[&str], samples: u8) -> gpuabi_agx::TileBufferLayout {
    let f: Vec<Option<&str>> = formats.iter().map(|f| Some(*f)).collect();
    tilebuffer_layout(&f, samples).unwrap()
}

/// Name, formats, samples, sample size, tile width, tile height, total bytes.
type Case<'a> = (&'a str, &'a [&'a str], u8, u32, u32, u32, u32);

#[test]
fn mesa_vectors() {
    let mrt = ["R16_SINT", "R32G32_FLOAT", "R8_SINT", "R32G32_SINT"];
    let cases: [Case; 9] = [
        ("simple", &["R8G8B8A8_UNORM"], 1, 8, 32, 32, 8192),
        ("msaa 2x", &["R8G8B8A8_UNORM"], 2, 8, 32, 32, 16384),
        ("msaa 4x", &["R8G8B8A8_UNORM"], 4, 8, 32, 16, 16384),
        ("mrt", &mrt, 1, 24, 32, 32, 24576),
        ("mrt 2x", &mrt, 2, 24, 32, 16, 24576),
        ("mrt 4x", &mrt, 4, 24, 16, 16, 24576),
        ("align 2", &["R8_UNORM", "R16G16_SNORM"], 1, 8, 32, 32, 8192),
        (
            "align 4",
            &["R8_UNORM", "R10G10B10A2_UNORM"],
            1,
            8,
            32,
            32,
            8192,
        ),
        ("spill", &["R32_FLOAT"; 8], 4, 24, 16, 16, 24576),
    ];
    for (name, formats, samples, size, w, h, total) in cases {
        let l = layout(formats, samples);
        assert_eq!(
            (
                l.sample_size_bytes,
                l.tile_width,
                l.tile_height,
                l.total_bytes
            ),
            (size, w, h, total),
            "{name}"
        );
    }
}

#[test]
fn sorted_offsets_and_spills() {
    // Sorted by alignment, stable: RG32F (0), RG32I (8), R16I (16), R8I (18).
    let l = layout(&["R16_SINT", "R32G32_FLOAT", "R8_SINT", "R32G32_SINT"], 1);
    let offs: Vec<Option<u32>> = l.render_targets.iter().map(|r| r.offset_bytes).collect();
    assert_eq!(offs, [Some(16), Some(0), Some(18), Some(8)]);
    // Eight R32F with 4 samples: align8(end) · 256 · 4 ≤ 32767 allows 24 bytes: six fit.
    let l = layout(&["R32_FLOAT"; 8], 4);
    let offs: Vec<Option<u32>> = l.render_targets.iter().map(|r| r.offset_bytes).collect();
    assert_eq!(
        offs,
        [
            Some(0),
            Some(4),
            Some(8),
            Some(12),
            Some(16),
            Some(20),
            None,
            None
        ]
    );
    assert!(!l.render_targets[7].supports_mask);
    // Physical formats.
    let l = layout(
        &[
            "B5G6R5_UNORM",
            "R10G10B10A2_UINT",
            "R11G11B10_FLOAT",
            "R8G8B8A8_SRGB",
        ],
        1,
    );
    let phys: Vec<&str> = l
        .render_targets
        .iter()
        .map(|r| r.physical.as_str())
        .collect();
    assert_eq!(phys, ["F16", "I16", "RG11B10F", "SRGBA8"]);
    let sizes: Vec<u32> = l.render_targets.iter().map(|r| r.size_bytes).collect();
    assert_eq!(sizes, [6, 8, 4, 4]);
    assert!(!l.render_targets[2].supports_mask);
}

#[test]
fn empty_msaa_allocation_is_not_empty() {
    let l = tilebuffer_layout(&[None], 2).unwrap();
    assert_eq!(l.sample_size_bytes, 8);
}

#[test]
fn errors() {
    assert!(matches!(
        tilebuffer_layout(&[Some("R10G10B10A2_SINT")], 1),
        Err(TileBufferError::NotRenderable(_))
    ));
    assert!(matches!(
        tilebuffer_layout(&[Some("Z32_FLOAT")], 1),
        Err(TileBufferError::NotRenderable(_))
    ));
    assert!(matches!(
        tilebuffer_layout(&[Some("R8G8B8A8_UNROM")], 1),
        Err(TileBufferError::UnknownFormat(_))
    ));
    for s in [0, 3, 8] {
        assert_eq!(
            tilebuffer_layout(&[Some("R8_UNORM")], s),
            Err(TileBufferError::UnsupportedSampleCount(s))
        );
    }
    assert!(tilebuffer_layout(&[Some("pipe_format_r8_unorm")], 1).is_ok());
}
