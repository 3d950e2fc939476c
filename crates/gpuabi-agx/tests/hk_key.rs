//! Keys of Vulkan draws as Honeykrisp builds them (`gpuabi_agx::hk_key`): hand-written
//! expectations for draws of the project's capture, worked out from the draw's JSON and
//! `hk_flush_dynamic_state` (`src/asahi/vulkan/hk_cmd_draw.c`), and the errors of state
//! the keys cannot take, each naming its field.

use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation, LogicOp};
use gpuabi_agx::hk_key::{fragment_epilog_key, fragment_prolog_key, vertex_prolog_key};
use gpuabi_agx::vertex_key::RobustnessLevel;
use gpuabi_agx::vk_state::{VkDrawState, VkStateError};

fn draw(name: &str) -> VkDrawState {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/mesa/hk/draws")
        .join(name);
    VkDrawState::from_json(&std::fs::read_to_string(&path).expect("draw")).expect("parses")
}

/// Draw 09: six locations 0-5 read, so slot = location; per-instance bindings with
/// divisors 1, 3, 0, 7 and 4; the device has no robustness feature.
#[test]
fn draw_09_vertex_key() {
    let key = vertex_prolog_key(draw("09_inst_dual_src.json").vertex.as_ref().unwrap()).unwrap();
    assert_eq!(key.robustness.level, RobustnessLevel::Disabled);
    assert!(!key.robustness.soft_fault && key.hw && key.index_size == 0);
    let got: Vec<(u16, &str, u32, bool, u32, u8)> = key
        .attribs
        .iter()
        .map(|a| {
            (
                a.slot,
                a.element.format.as_str(),
                a.element.stride,
                a.element.instanced,
                a.element.divisor,
                a.components,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (0, "R32G32_FLOAT", 8, false, 1, 0b0011),
            (1, "R8G8B8A8_UNORM", 4, true, 1, 0b1111),
            (2, "R32G32B32_FLOAT", 12, true, 3, 0b0111),
            (3, "R16G16B16A16_FLOAT", 8, true, 0, 0b1001),
            (4, "R32G32_UINT", 8, true, 7, 0b0011),
            (5, "R16G16_SINT", 4, true, 4, 0b0010),
        ]
    );
}

/// Draw 08 reads locations 1, 4, 9 and 15, which Mesa compacts into slots 0-3.
#[test]
fn sparse_locations_are_compacted() {
    let key =
        vertex_prolog_key(draw("08_sparse_blend_srgb.json").vertex.as_ref().unwrap()).unwrap();
    let slots: Vec<(u16, &str)> = key
        .attribs
        .iter()
        .map(|a| (a.slot, a.element.format.as_str()))
        .collect();
    assert_eq!(
        slots,
        [
            (0, "R16G16_SNORM"),
            (1, "R8G8B8A8_UNORM"),
            (2, "R32G32B32A32_SINT"),
            (3, "R8G8B8A8_UINT")
        ]
    );
}

/// Robustness follows the device; static vertex input leaves the prolog nothing to load.
#[test]
fn robustness_and_static_input() {
    let rba = vertex_prolog_key(draw("22_wide_native_rba.json").vertex.as_ref().unwrap()).unwrap();
    assert_eq!(rba.robustness.level, RobustnessLevel::Gl);
    let rba2 =
        vertex_prolog_key(draw("25_wide_native_rba2.json").vertex.as_ref().unwrap()).unwrap();
    assert_eq!(rba2.robustness.level, RobustnessLevel::D3d);
    let st = vertex_prolog_key(draw("28_wide_static_rba2.json").vertex.as_ref().unwrap()).unwrap();
    assert!(st.attribs.is_empty());
}

/// Draw 04: a disabled blend is no blend; colour writes disabled on attachment 2 give an
/// empty mask; draw 05's logic op; draw 09's dual source.
#[test]
fn epilog_keys() {
    let k = fragment_epilog_key(
        draw("04_wide_strides_masks.json")
            .fragment
            .as_ref()
            .unwrap(),
    )
    .unwrap();
    let rts: Vec<_> = k.rts.iter().map(|r| r.clone().unwrap()).collect();
    assert_eq!(
        rts.iter()
            .map(|r| (r.format.as_str(), r.location, r.size, r.colormask))
            .collect::<Vec<_>>(),
        [
            ("R8G8B8A8_UNORM", 0, 32, 0b0011),
            ("R16G16B16A16_SINT", 1, 32, 0b1000),
            ("R32G32_UINT", 2, 32, 0),
            ("R16G16B16A16_FLOAT", 3, 32, 0b0111),
        ]
    );
    assert_eq!(
        rts[0].blend,
        Some([
            Equation {
                func: BlendFunc::Add,
                src: BlendFactor::SrcAlphaSaturate,
                dst: BlendFactor::OneMinusDstAlpha
            },
            Equation {
                func: BlendFunc::Add,
                src: BlendFactor::DstAlpha,
                dst: BlendFactor::Zero
            }
        ])
    );
    assert_eq!(rts[1].blend, None);
    let k = fragment_epilog_key(
        draw("05_wide_logic_copy_inverted.json")
            .fragment
            .as_ref()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(k.logic_op, Some(LogicOp::CopyInverted));
    let k = fragment_epilog_key(draw("18_inst_f16.json").fragment.as_ref().unwrap()).unwrap();
    let sizes: Vec<u8> = k.rts.iter().map(|r| r.as_ref().unwrap().size).collect();
    assert_eq!(sizes, [16, 16, 16, 32]);
    let k =
        fragment_epilog_key(draw("06_sparse_logic_xor.json").fragment.as_ref().unwrap()).unwrap();
    assert!(k.loc0_w_1);
}

/// Draw 15's sample mask 0x5 of 4 samples: a fragment prolog that kills samples 1 and 3
/// and runs the tests (no alpha-to-coverage); the other draws keep every sample.
#[test]
fn fragment_prolog_only_with_a_sample_mask() {
    let k = fragment_prolog_key(
        draw("15_inst_sample_mask_ms4.json")
            .fragment
            .as_ref()
            .unwrap(),
    )
    .unwrap()
    .unwrap();
    assert_eq!((k.api_sample_mask, k.run_zs_tests), (5, true));
    assert!(
        fragment_prolog_key(draw("13_inst_a2c_ms4.json").fragment.as_ref().unwrap())
            .unwrap()
            .is_none()
    );
}

fn field_error(json: &str) -> String {
    let e = match VkDrawState::from_json(json) {
        Err(e) => e,
        Ok(d) => {
            let r = d
                .vertex
                .as_ref()
                .map(|v| vertex_prolog_key(v).map(|_| ()))
                .unwrap_or(Ok(()))
                .and_then(|_| {
                    d.fragment
                        .as_ref()
                        .map(|f| fragment_epilog_key(f).map(|_| ()))
                        .unwrap_or(Ok(()))
                });
            r.expect_err("an error")
        }
    };
    match e {
        VkStateError::Field { path, what } => format!("{path}: {what}"),
        VkStateError::Syntax(m) => format!("syntax: {m}"),
    }
}

const ATTACHMENT: &str = r#"{"location": 0, "format": "VK_FORMAT_R8G8B8A8_UNORM", "blend_enable": true,
    "src_color": "VK_BLEND_FACTOR_SRC_ALPHA", "dst_color": "VK_BLEND_FACTOR_ONE", "color_op": "@OP@",
    "src_alpha": "VK_BLEND_FACTOR_ONE", "dst_alpha": "VK_BLEND_FACTOR_ZERO", "alpha_op": "VK_BLEND_OP_ADD", "write_mask": "rgba"}"#;

fn fragment(attachments: &[&str], extra: &str) -> String {
    format!(
        r#"{{"fragment": {{"samples": 1, "sample_shading": false, "alpha_to_coverage": false,
        "alpha_to_one": false, "logic_op": null, "blend_constants": [0, 0, 0, 0]{extra},
        "attachments": [{}], "shader_outputs": [{{"location": 0, "type": "float", "bits": 32}}]}}}}"#,
        attachments.join(", ")
    )
}

#[test]
fn errors_name_the_field() {
    let ok = ATTACHMENT.replace("@OP@", "VK_BLEND_OP_ADD");
    let e = field_error(&fragment(
        &[&ok, &ATTACHMENT.replace("@OP@", "VK_BLEND_OP_MULTIPLY_EXT")],
        "",
    ));
    assert!(
        e.starts_with("fragment.attachments[1].color_op: `VK_BLEND_OP_MULTIPLY_EXT` (advanced"),
        "{e}"
    );
    assert!(e.contains("VK_BLEND_OP_ADD, VK_BLEND_OP_SUBTRACT"), "{e}");
    let e = field_error(&fragment(&[&ok.replace("SRC_ALPHA\"", "SRC_ALFA\"")], ""));
    assert!(
        e.starts_with("fragment.attachments[0].src_color: `VK_BLEND_FACTOR_SRC_ALFA` (expected one of VK_BLEND_FACTOR_ZERO"),
        "{e}"
    );
    let e = field_error(&fragment(&[&ok], r#", "samples2": 1"#));
    assert!(e.starts_with("fragment.samples2: unknown field"), "{e}");
    let e = field_error(&fragment(&[&ok.replace("rgba", "rgbb")], ""));
    assert!(e.starts_with("fragment.attachments[0].write_mask:"), "{e}");
    let e = field_error(&fragment(
        &[&ok.replace("R8G8B8A8_UNORM", "D32_SFLOAT")],
        "",
    ));
    assert!(
        e.starts_with(
            "fragment.attachments[0].format: `VK_FORMAT_D32_SFLOAT` is not a colour format"
        ),
        "{e}"
    );
    let e = field_error(&fragment(&[&ok], r#", "sample_mask": -1"#));
    assert!(
        e.starts_with("fragment.sample_mask: -1 (expected an integer"),
        "{e}"
    );
    let vertex = r#"{"vertex": {"robustness": "disabled", "bindings": [{"binding": 0, "stride": 6, "input_rate": "vertex", "divisor": 1}],
        "attributes": [{"location": 2, "binding": 0, "format": "VK_FORMAT_R32_SFLOAT", "offset": 0}],
        "shader_inputs": [{"location": 2, "components": "x"}]}}"#;
    let e = field_error(vertex);
    assert!(
        e.starts_with("vertex.bindings[0].stride: stride 6 is not a multiple of 4"),
        "{e}"
    );
    let e = field_error(&vertex.replace("R32_SFLOAT", "R8G8B8_SRGB"));
    assert!(
        e.starts_with(
            "vertex.attributes[0].format: `VK_FORMAT_R8G8B8_SRGB` is not a vertex format"
        ),
        "{e}"
    );
    let e = field_error(&vertex.replace(r#""location": 2, "c"#, r#""location": 3, "c"#));
    assert!(
        e.starts_with("vertex.shader_inputs[0].location: the shader reads location 3"),
        "{e}"
    );
    let e = field_error(&vertex.replace("\"vertex\", \"div", "\"instanced\", \"div"));
    assert!(
        e.starts_with(
            r#"vertex.bindings[0].input_rate: `instanced` (expected "vertex" or "instance")"#
        ),
        "{e}"
    );
    let e = field_error("{\"vertex\": [}");
    assert!(e.starts_with("syntax: ") && e.contains("line 1"), "{e}");
}
