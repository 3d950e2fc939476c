//! Snapshots of the printed layouts (reviewed by hand against the spec).

use gpuabi_agx::fragment::{fragment_abi, FragmentInput};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::render;
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx::vertex::{vertex_abi, VertexInput};
use gpuabi_agx::{Components, Profile, VsStage};

fn vs(list: &str, stage: VsStage, profile: Profile) -> gpuabi_agx::VertexAbi {
    vertex_abi(&VertexInput {
        components: Components::parse_list(list).unwrap(),
        stage,
        profile,
    })
    .unwrap()
}

#[test]
fn vertex_text_gl_hw() {
    insta::assert_snapshot!(render::text::vertex(&vs(
        "0:xyz 1:x 3:xyzw",
        VsStage::Hardware,
        Profile::Gl
    )));
}

#[test]
fn vertex_text_vk_compute_n1() {
    insta::assert_snapshot!(render::text::vertex(&vs(
        "0:xy",
        VsStage::Compute,
        Profile::Vk
    )));
}

#[test]
fn vertex_json_readme_n1() {
    insta::assert_snapshot!(render::json(&vs("0:x", VsStage::Hardware, Profile::Readme)));
}

#[test]
fn fragment_text() {
    let abi = fragment_abi(&FragmentInput {
        colors: vec!["0:f16x4".parse().unwrap(), "2:u32x2".parse().unwrap()],
        dual_source: None,
        depth: true,
        stencil: false,
        sample_shading: true,
        early_tests_with_discard: true,
    })
    .unwrap();
    insta::assert_snapshot!(render::text::fragment(&abi));
}

#[test]
fn tilebuffer_text() {
    let l = tilebuffer_layout(
        &[
            Some("R8G8B8A8_UNORM"),
            None,
            Some("R32G32_FLOAT"),
            Some("R10G10B10A2_UNORM"),
        ],
        2,
    )
    .unwrap();
    insta::assert_snapshot!(render::text::tilebuffer(&l));
}

#[test]
fn link_text() {
    let main = [0u8; 10];
    let epilog = [0u8; 4];
    let p = link(&LinkInput {
        prolog: None,
        main: Part {
            code: &main,
            info: PartInfo {
                gpr_halves: 24,
                ..PartInfo::default()
            },
        },
        epilog: Some(Part {
            code: &epilog,
            info: PartInfo::default(),
        }),
        samples: Some(4),
    })
    .unwrap();
    insta::assert_snapshot!(render::text::link(&p));
}

#[test]
fn vertex_svg_is_well_formed() {
    let svg = render::svg::vertex(&vs("0:xyz 1:x", VsStage::Compute, Profile::Gl));
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("r8 (halves 16..17): attrib 0.x"));
    assert!(svg.contains("u0_u1 (halves 0..3): attrib 0 base address"));
    assert_eq!(
        svg.matches("<rect").count(),
        svg.matches("</rect>").count() + 1
    );
}

#[test]
fn fetch_plan_text() {
    use gpuabi_agx::vertex_key::{fetch_plan, Robustness, RobustnessLevel, VertexElement};
    let plan = fetch_plan(
        &VertexElement {
            format: "R10G10B10A2_SNORM".to_string(),
            stride: 12,
            divisor: 2,
            instanced: true,
        },
        Robustness {
            level: RobustnessLevel::D3d,
            soft_fault: true,
        },
    )
    .unwrap();
    insta::assert_snapshot!(render::text::fetch_plan(&plan));
}

#[test]
fn fragment_svg_is_well_formed() {
    let abi = fragment_abi(&FragmentInput {
        colors: vec!["0:f16x4".parse().unwrap()],
        ..FragmentInput::default()
    })
    .unwrap();
    let svg = render::svg::fragment(&abi);
    assert!(svg.contains("r4l (halves 8): colour 0.x (f16x4)"));
    assert!(svg.contains("u6_u7 (halves 12..15): root descriptor pointer"));
}
