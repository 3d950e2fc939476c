//! Vertex element rules (spec §4.2, §4.3): loaded format, element index, robustness and
//! address arithmetic.

use gpuabi_agx::vertex_key::{
    base_and_clamp, fetch_plan, vertex_format, Conversion, ElementIndex, Interchange, Robustness,
    RobustnessLevel, Swizzle, VertexElement, VertexKeyError,
};
use proptest::prelude::*;

fn element(format: &str, stride: u32, instanced: bool, divisor: u32) -> VertexElement {
    VertexElement {
        format: format.to_string(),
        stride,
        divisor,
        instanced,
    }
}

const GL: Robustness = Robustness {
    level: RobustnessLevel::Gl,
    soft_fault: false,
};

#[test]
fn loaded_formats() {
    let cases = [
        (
            "R32G32B32A32_FLOAT",
            Interchange::R32Uint,
            Conversion::F2f,
            4,
        ),
        ("R8G8B8A8_UNORM", Interchange::R8Unorm, Conversion::None, 4),
        ("R16G16_SNORM", Interchange::R16Snorm, Conversion::None, 2),
        (
            "R16G16_SINT",
            Interchange::R16Uint,
            Conversion::SignExtend,
            2,
        ),
        ("R8_USCALED", Interchange::R8Uint, Conversion::U2f, 1),
        (
            "R32_FIXED",
            Interchange::R32Uint,
            Conversion::FixedToFloat,
            1,
        ),
        (
            "R32G32_UNORM",
            Interchange::R32Uint,
            Conversion::UnormToFloat,
            2,
        ),
        (
            "R10G10B10A2_UNORM",
            Interchange::R10G10B10A2Unorm,
            Conversion::None,
            4,
        ),
        (
            "R10G10B10A2_SNORM",
            Interchange::R32Uint,
            Conversion::Unpack1010102Signed,
            1,
        ),
        (
            "R10G10B10A2_UINT",
            Interchange::R32Uint,
            Conversion::Unpack1010102Unsigned,
            1,
        ),
        (
            "R11G11B10_FLOAT",
            Interchange::R11G11B10Float,
            Conversion::None,
            3,
        ),
    ];
    for (name, inter, conv, loaded) in cases {
        let f = vertex_format(name).unwrap();
        assert_eq!(
            (f.interchange, f.conversion, f.components_loaded),
            (inter, conv, loaded),
            "{name}"
        );
    }
    let bgra = vertex_format("pipe_format_b8g8r8a8_unorm").unwrap();
    assert_eq!(
        bgra.swizzle,
        [
            Swizzle::Channel(2),
            Swizzle::Channel(1),
            Swizzle::Channel(0),
            Swizzle::Channel(3)
        ]
    );
    let rg = vertex_format("R16G16_UINT").unwrap();
    assert_eq!(rg.swizzle[2..], [Swizzle::Zero, Swizzle::One]);
    for bad in [
        "R8G8B8A8_SRGB",
        "R64_FLOAT",
        "R10G10B10A2_FLOAT",
        "R5G6B5_UNORM",
        "NONSENSE",
        "R8_UNORM_X",
    ] {
        assert!(
            matches!(
                vertex_format(bad),
                Err(VertexKeyError::UnsupportedVertexFormat(_))
            ),
            "{bad}"
        );
    }
}

#[test]
fn stride_shift_and_alignment() {
    let p = fetch_plan(&element("R32G32B32A32_FLOAT", 16, false, 0), GL).unwrap();
    assert_eq!((p.elsize, p.stride_el, p.shift), (4, 1, 2));
    let p = fetch_plan(&element("R10G10B10A2_UNORM", 8, false, 0), GL).unwrap();
    // Packed formats take no write mask, so no built-in shift.
    assert_eq!((p.elsize, p.stride_el, p.shift), (4, 2, 0));
    let p = fetch_plan(&element("R32_FLOAT", 12, false, 0), GL).unwrap();
    assert_eq!((p.stride_el, p.shift), (3, 0));
    let e = fetch_plan(&element("R32_FLOAT", 6, false, 0), GL).unwrap_err();
    assert!(matches!(
        e,
        VertexKeyError::MisalignedStride {
            stride: 6,
            elsize: 4,
            ..
        }
    ));
}

#[test]
fn element_index_rules() {
    let per_vertex = fetch_plan(&element("R32_FLOAT", 4, false, 0), GL).unwrap();
    assert_eq!(per_vertex.element_index, ElementIndex::VertexId);
    assert_eq!(per_vertex.fetch(9, 7, 10, 0x1000, 100).element, 9);
    let div3 = fetch_plan(&element("R32_FLOAT", 4, true, 3), GL).unwrap();
    assert_eq!(div3.fetch(9, 7, 10, 0x1000, 100).element, 7 / 3 + 10);
    let div0 = fetch_plan(&element("R32_FLOAT", 4, true, 0), GL).unwrap();
    assert_eq!(div0.element_index, ElementIndex::BaseInstance);
    assert_eq!(div0.fetch(9, 7, 10, 0x1000, 100).element, 10);
}

#[test]
fn robustness_rules() {
    let plan = |fmt: &str, level, soft_fault| {
        fetch_plan(
            &element(fmt, 16, false, 0),
            Robustness { level, soft_fault },
        )
        .unwrap()
    };
    // Without soft fault the level is raised to GL: index clamped to 0.
    let p = plan("R32G32B32A32_FLOAT", RobustnessLevel::Disabled, false);
    assert_eq!(p.effective_level, RobustnessLevel::Gl);
    assert!(p.clamp_index_to_zero && !p.zero_base_when_oob && !p.zero_data_when_oob);
    let f = p.fetch(50, 0, 0, 0x1000, 10);
    assert!(f.out_of_bounds);
    assert_eq!((f.element, f.address), (0, 0x1000));
    // Soft fault, D3D, vec4: the base becomes 0 instead.
    let p = plan("R32G32B32A32_FLOAT", RobustnessLevel::D3d, true);
    assert!(!p.clamp_index_to_zero && p.zero_base_when_oob && !p.zero_data_when_oob);
    assert_eq!(p.fetch(50, 0, 0, 0x1000, 10).address, 50 * 16);
    // Soft fault, D3D, vec2: the loaded data is zeroed.
    let p = plan("R32G32_FLOAT", RobustnessLevel::D3d, true);
    assert!(!p.clamp_index_to_zero && !p.zero_base_when_oob && p.zero_data_when_oob);
    assert!(p.fetch(50, 0, 0, 0x1000, 10).zeroed);
    // D3D without soft fault: clamp and zero the data.
    let p = plan("R32G32B32A32_FLOAT", RobustnessLevel::D3d, false);
    assert!(p.clamp_index_to_zero && !p.zero_base_when_oob && p.zero_data_when_oob);
    // Soft fault with DISABLED or GLES: no checks.
    for level in [RobustnessLevel::Disabled, RobustnessLevel::Gles] {
        let p = plan("R32G32B32A32_FLOAT", level, true);
        assert!(!p.clamp_index_to_zero && !p.zero_base_when_oob && !p.zero_data_when_oob);
    }
    // The clamp is inclusive.
    let p = plan("R32_FLOAT", RobustnessLevel::Gl, false);
    assert!(!p.fetch(10, 0, 0, 0, 10).out_of_bounds);
    assert!(p.fetch(11, 0, 0, 0, 10).out_of_bounds);
}

#[test]
fn driver_base_and_clamp() {
    assert_eq!(
        base_and_clamp(0x10000, 100, 4, 16, 16, 0),
        (0x10004, (100 - 4 - 16) / 16)
    );
    assert_eq!(
        base_and_clamp(0x10000, 100, 4, 0, 16, 0),
        (0x10004, u32::MAX)
    );
    assert_eq!(
        base_and_clamp(0x10000, 10, 4, 16, 16, 0xdead0),
        (0xdead0, 0)
    );
    assert_eq!(base_and_clamp(0x10000, 20, 4, 16, 16, 0), (0x10004, 0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// In bounds, every stride/format combination addresses `base + el · stride`.
    #[test]
    fn address_is_base_plus_el_times_stride(
        f in 0usize..6, mult in 0u32..64, el in 0u32..100_000, base in 0u64..(1 << 40)
    ) {
        let formats = ["R8_UNORM", "R16G16_SINT", "R32G32B32A32_FLOAT", "R10G10B10A2_UNORM", "R8G8B8A8_UINT", "R11G11B10_FLOAT"];
        let fmt = vertex_format(formats[f]).unwrap();
        let stride = mult * fmt.interchange.block_bytes();
        let plan = fetch_plan(&element(formats[f], stride, false, 0), GL).unwrap();
        let fetch = plan.fetch(el, 0, 0, base, u32::MAX);
        prop_assert!(!fetch.out_of_bounds);
        prop_assert_eq!(fetch.address, base + u64::from(el) * u64::from(stride));
    }
}
