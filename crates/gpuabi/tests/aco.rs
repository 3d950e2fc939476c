//! The `gpuabi aco` commands end to end: printed layouts, JSON shapes and error reports.

mod common;

use common::{fails, json, ok, scratch};

#[test]
fn seed_example_a_text() {
    insta::assert_snapshot!(ok(&[
        "aco",
        "ranges",
        "--abi",
        "examples/aco/generic.toml",
        "--limit",
        "108,128"
    ]));
}

#[test]
fn seed_example_b_json_has_the_issue_shape() {
    let v = json(&[
        "aco",
        "ranges",
        "--abi",
        "ahit-isec",
        "--target",
        "gfx1030",
        "--format",
        "json",
    ]);
    assert_eq!(v["abi"], "ahit-isec");
    assert_eq!(v["target"], "gfx1030");
    // The target's native wave size (RDNA: wave32); gfx1030's limit is the same in both.
    assert_eq!(v["wave"], 32);
    assert_eq!(v["limit"], serde_json::json!({"sgpr": 108, "vgpr": 128}));
    assert_eq!(v["sgpr"]["preserved"], serde_json::json!([[0, 79]]));
    assert_eq!(v["sgpr"]["clobbered"], serde_json::json!([[80, 107]]));
    assert_eq!(v["vgpr"]["preserved"], serde_json::json!([[0, 79]]));
    assert_eq!(v["vgpr"]["clobbered"], serde_json::json!([[80, 127]]));
}

#[test]
fn gfx1100_limit_and_explicit_limit() {
    let v = json(&[
        "aco",
        "ranges",
        "--abi",
        "traversal",
        "--target",
        "gfx1100",
        "--wave",
        "32",
        "--format",
        "json",
    ]);
    assert_eq!(v["limit"], serde_json::json!({"sgpr": 108, "vgpr": 144}));
    let v = json(&[
        "aco",
        "ranges",
        "--abi",
        "traversal",
        "--limit",
        "32,40",
        "--format",
        "json",
    ]);
    assert_eq!(v["vgpr"]["clobbered"], serde_json::json!([[0, 39]]));
    let v = json(&[
        "aco",
        "ranges",
        "--abi",
        "traversal",
        "--compute",
        "--format",
        "json",
    ]);
    assert_eq!(v["limit"], serde_json::json!({"sgpr": 108, "vgpr": 256}));
}

#[test]
fn assign_json_has_the_issue_shape() {
    // Spec V5, transcribed: the demand limit sends a, f and d to scratch.
    let abi = scratch("aco-v5").join("v5.toml");
    std::fs::write(
        &abi,
        "name = \"v5\"\n[block]\nclobbered = { sgpr = 128, vgpr = 256 }\npreserved = { sgpr = 0, vgpr = 0 }\n\
         clobbered_first = true\nmax_param_demand = { sgpr = 8, vgpr = 4 }\n",
    )
    .unwrap();
    let sig = "a: f32x4, b: u32, c: u64 uniform, d: u32x3 uniform, e: u32 uniform, f: bool, g: u32";
    let v = json(&[
        "aco",
        "assign",
        "--abi",
        abi.to_str().unwrap(),
        "--sig",
        sig,
        "--target",
        "gfx9",
        "--limit",
        "108,128",
        "--format",
        "json",
    ]);
    let params = v["params"].as_array().unwrap();
    let names: Vec<&str> = params.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "return_address",
            "stack_pointer",
            "divergent_pc",
            "uniform_pc",
            "a",
            "b",
            "c",
            "d",
            "e",
            "f",
            "g"
        ]
    );
    assert_eq!(params[0]["location"], "s[0:1]");
    assert_eq!(params[0]["needs_explicit_preservation"], true);
    assert_eq!(
        params[4]["location"],
        serde_json::json!({"scratch_offset": 0})
    );
    assert_eq!(params[4]["needs_explicit_preservation"], false);
    assert_eq!(
        params[7]["location"],
        serde_json::json!({"scratch_offset": 24})
    );
    assert_eq!(
        params[9]["location"],
        serde_json::json!({"scratch_offset": 16})
    );
    assert_eq!(v["scratch_param_bytes"], 36);
}

#[test]
fn raygen_stage_text() {
    insta::assert_snapshot!(ok(&["aco", "assign", "--stage", "raygen"]));
}

#[test]
fn signature_files() {
    let text = ok(&[
        "aco",
        "assign",
        "--abi",
        "examples/aco/generic.toml",
        "--sig",
        "examples/aco/miss.sig",
    ]);
    assert!(text.contains("payload"), "{text}");
    let v = json(&[
        "aco",
        "assign",
        "--abi",
        "ahit-isec",
        "--sig",
        "examples/aco/shade.toml",
        "--format",
        "json",
    ]);
    let colour = v["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "colour")
        .unwrap();
    // A return parameter is effectively discardable: it goes to the clobbered v80 and up,
    // after divergent_pc (v80-v81, placed first), and comes back explicitly.
    assert_eq!(colour["location"], "v[82:85]");
    assert_eq!(colour["needs_explicit_preservation"], true);
}

#[test]
fn svg_is_a_complete_document() {
    for args in [
        &[
            "aco",
            "ranges",
            "--abi",
            "examples/aco/generic.toml",
            "--format",
            "svg",
        ][..],
        &[
            "aco",
            "assign",
            "--stage",
            "any-hit",
            "--payload",
            "8",
            "--format",
            "svg",
        ][..],
    ] {
        let svg = ok(args);
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{args:?}"
        );
        assert!(svg.trim_end().ends_with("</svg>"), "{args:?}");
        assert_eq!(
            svg.matches("<rect").count(),
            svg.matches("</rect>").count() + svg.matches("/>").count()
        );
    }
}

#[test]
fn bad_input_is_reported_with_its_place() {
    let cases: [(&[&str], &str); 9] = [
        (
            &[
                "aco",
                "assign",
                "--abi",
                "rt-recursive",
                "--sig",
                "a: u32, b: u33",
            ],
            "--sig:1:12: expected a type",
        ),
        (
            &["aco", "assign", "--abi", "nope", "--sig", "a: u32"],
            "--abi: unknown ABI `nope`",
        ),
        (
            &["aco", "ranges", "--abi", "traversal", "--limit", "200,3"],
            "--limit: register limit 200 for sgpr is out of range",
        ),
        (
            &["aco", "ranges", "--abi", "traversal", "--limit", "12"],
            "--limit",
        ),
        (
            &[
                "aco",
                "ranges",
                "--abi",
                "traversal",
                "--target",
                "gfx8",
                "--wave",
                "32",
            ],
            "--wave: gfx8 does not run wave32",
        ),
        (
            &["aco", "ranges", "--abi", "traversal", "--target", "gfx7"],
            "unknown target `gfx7`",
        ),
        (
            &[
                "aco",
                "assign",
                "--abi",
                "traversal",
                "--sig",
                "p: u32 uniform return",
            ],
            "cannot be uniform",
        ),
        (
            &[
                "aco",
                "assign",
                "--abi",
                "traversal",
                "--sig",
                "missing.toml",
            ],
            "--sig: no such file missing.toml",
        ),
        (
            &["aco", "assign", "--sig", "a: u32"],
            "--abi: required with --sig",
        ),
    ];
    for (args, needle) in cases {
        let stderr = fails(args);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn bad_abi_files_name_line_and_column() {
    let path = scratch("aco-bad-abi").join("bad.toml");
    for (text, needle) in [
        ("name = \"g\"\n[block]\nclobbered = { sgpr = 16, vgpr = 16 }\npreserved = { sgpr = 16 }\n", ":4:13: missing field `vgpr`"),
        ("name = \"g\"\n[block]\nclobbered = { sgpr = 0, vgpr = 16 }\npreserved = { sgpr = 0, vgpr = 16 }\n", "degenerate register block: sgpr"),
        ("name = \"g\"\ncolour = 3\n", ":2:1: unknown field `colour`"),
    ] {
        std::fs::write(&path, text).unwrap();
        let stderr = fails(&["aco", "ranges", "--abi", path.to_str().unwrap()]);
        assert!(stderr.contains(needle), "{text}: {stderr}");
    }
}
