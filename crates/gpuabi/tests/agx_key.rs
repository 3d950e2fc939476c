//! `gpuabi agx key --from-vulkan DRAW.json`: keys of the captured draws that the part
//! generators accept, and errors that name the JSON field or the flag.

mod common;

use common::{fails_naming, json, ok, scratch};

const DRAWS: &str = "testdata/mesa/hk/draws";

#[test]
fn keys_of_every_captured_draw_generate_parts() {
    let dir = scratch("agx-key-all");
    let mut draws: Vec<String> = std::fs::read_dir(common::repo().join(DRAWS))
        .expect("draws")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    draws.sort();
    assert_eq!(draws.len(), 29);
    for d in &draws {
        let draw = format!("{DRAWS}/{d}");
        let vk = dir.join("v.toml").display().to_string();
        ok(&[
            "agx",
            "key",
            "--from-vulkan",
            &draw,
            "--part",
            "vertex-prolog",
            "-o",
            &vk,
        ]);
        let p = json(&["agx", "prolog", "--key", &vk, "--format", "json"]);
        assert!(p["code"].is_string(), "{d}");
        let ek = dir.join("e.toml").display().to_string();
        ok(&[
            "agx",
            "key",
            "--from-vulkan",
            &draw,
            "--part",
            "fragment-epilog",
            "-o",
            &ek,
        ]);
        ok(&["agx", "epilog", "--key", &ek]);
    }
}

#[test]
fn the_sample_mask_gives_a_fragment_prolog() {
    let out = ok(&[
        "agx",
        "key",
        "--from-vulkan",
        &format!("{DRAWS}/15_inst_sample_mask_ms4.json"),
        "--part",
        "fragment-prolog",
    ]);
    assert!(out.contains("api_sample_mask = 5\n"), "{out}");
    assert!(out.contains("run_zs_tests = true\n"), "{out}");
    fails_naming(
        &[
            "agx",
            "key",
            "--from-vulkan",
            &format!("{DRAWS}/00_wide_native.json"),
            "--part",
            "fragment-prolog",
        ],
        "compiles no fragment prolog",
    );
}

#[test]
fn bad_state_names_the_field() {
    let dir = scratch("agx-key-bad");
    let text = std::fs::read_to_string(common::repo().join(DRAWS).join("09_inst_dual_src.json"))
        .expect("draw")
        .replace(
            "\"dst_alpha\": \"VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA\"",
            "\"dst_alpha\": \"VK_BLEND_FACTOR_TWO\"",
        );
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text).expect("write");
    fails_naming(
        &[
            "agx",
            "key",
            "--from-vulkan",
            &bad.display().to_string(),
            "--part",
            "fragment-epilog",
        ],
        "bad.json: fragment.attachments[0].dst_alpha: `VK_BLEND_FACTOR_TWO` (expected one of VK_BLEND_FACTOR_ZERO",
    );
    let vertex_only = dir.join("vertex_only.json");
    std::fs::write(
        &vertex_only,
        r#"{"vertex": {"robustness": "disabled", "bindings": [], "attributes": [], "shader_inputs": []}}"#,
    )
    .expect("write");
    fails_naming(
        &[
            "agx",
            "key",
            "--from-vulkan",
            &vertex_only.display().to_string(),
            "--part",
            "fragment-epilog",
        ],
        "fragment: missing",
    );
    fails_naming(
        &[
            "agx",
            "key",
            "--from-vulkan",
            "nowhere.json",
            "--part",
            "vertex-prolog",
        ],
        "--from-vulkan nowhere.json: cannot read the file",
    );
    fails_naming(
        &[
            "agx",
            "key",
            "--from-vulkan",
            &vertex_only.display().to_string(),
            "--part",
            "vertex",
        ],
        "--part",
    );
}

#[test]
fn run_from_vulkan_is_run_with_the_derived_key() {
    let dir = scratch("agx-key-run");
    let key = dir.join("e.toml").display().to_string();
    let draw = "examples/agx/hk_draw.json";
    ok(&[
        "agx",
        "key",
        "--from-vulkan",
        draw,
        "--part",
        "fragment-epilog",
        "-o",
        &key,
    ]);
    let tile = [
        "--outputs",
        "examples/agx/hk_outputs.json",
        "--draw",
        "examples/agx/hk_tile.toml",
    ];
    let with_key = ok(&[&["agx", "run", "fragment", "--key", &key][..], &tile].concat());
    let derived = ok(&[
        &["agx", "run", "fragment", "--from-vulkan", draw][..],
        &tile,
    ]
    .concat());
    assert_eq!(derived, with_key);
    // Mesa's epilog for that draw leaves the same tile.
    let mesa = ok(&[
        &["agx", "run", "fragment", "--from-vulkan", draw][..],
        &["--epilog", "examples/agx/hk_fragment_epilog.bin"],
        &tile,
    ]
    .concat());
    assert_eq!(mesa, with_key);
    // One of the two, not both.
    fails_naming(
        &[
            &[
                "agx",
                "run",
                "fragment",
                "--from-vulkan",
                draw,
                "--key",
                &key,
            ][..],
            &tile,
        ]
        .concat(),
        "--from-vulkan",
    );
    fails_naming(&[&["agx", "run", "fragment"][..], &tile].concat(), "--key");
}
