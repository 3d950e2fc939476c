//! `gpuabi radv run`: a captured scene traced with RADV's code; the buffer it writes is
//! lavapipe's (the comparison itself is `crates/gpuabi-radv/tests/lavapipe.rs`), and bad
//! input names its place.

mod common;

use common::{fails_naming, json, ok, scratch};

/// The raw dump of the triangles scene on navi21 has lavapipe's ids (words 1 to 3 of each
/// record) and `--png` writes a 64x64 picture.
#[test]
fn triangles_dump_and_png() {
    let dir = scratch("radv-triangles");
    let bin = dir.join("out.bin");
    let png = dir.join("out.png");
    let out = ok(&[
        "radv",
        "run",
        "testdata/mesa/rt/triangles/navi21",
        "--dump",
        &format!("out:bin:{}", bin.display()),
        "--png",
        &png.display().to_string(),
        "--stats",
    ]);
    assert!(out.contains("no violation"), "{out}");
    assert!(out.contains("f00_raygen"), "{out}");
    let ours = std::fs::read(&bin).unwrap();
    let lavapipe =
        std::fs::read(common::repo().join("testdata/mesa/rt/triangles/lavapipe.bin")).unwrap();
    assert_eq!(ours.len(), lavapipe.len());
    for (a, b) in ours.chunks(16).zip(lavapipe.chunks(16)) {
        assert_eq!(a[4..], b[4..]);
    }
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (64, 64));
}

#[test]
fn json_summary() {
    let v = json(&[
        "radv",
        "run",
        "testdata/mesa/rt/procedural/navi21",
        "--format",
        "json",
    ]);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["waves"], 128);
    assert!(v["per_function"]["f05_traversal"].as_u64().unwrap() > 0);
}

#[test]
fn bad_input_names_its_place() {
    fails_naming(
        &["radv", "run", "testdata/mesa/rt/nowhere/navi21"],
        "device.txt",
    );
    fails_naming(
        &[
            "radv",
            "run",
            "testdata/mesa/rt/triangles/navi21",
            "--dump",
            "image",
        ],
        "--dump image",
    );
    // An instruction form the assembler does not model names the file and line.
    fails_naming(
        &["radv", "run", "testdata/mesa/rt/triangles/navi31"],
        "00_raygen.Assembly.txt",
    );
    fails_naming(
        &[
            "radv",
            "run",
            "testdata/mesa/rt/triangles/navi21",
            "--max-instructions",
            "100",
        ],
        "limit",
    );
}
