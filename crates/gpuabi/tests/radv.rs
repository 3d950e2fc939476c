//! `gpuabi radv run`: a captured scene traced with RADV's code; the buffer it writes is
//! lavapipe's (the comparison itself is `crates/gpuabi-radv/tests/lavapipe.rs`), and bad
//! input names its place.

mod common;

use common::{fails_naming, json, ok, scratch};
use std::path::Path;

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

/// The README's pictures (`docs/images`) are what `--png` writes for the three scenes on
/// navi21 today.
#[test]
fn readme_pictures_are_current() {
    let dir = scratch("radv-pictures");
    for scene in ["triangles", "procedural", "mirror"] {
        let png = dir.join(format!("{scene}_navi21.png"));
        ok(&[
            "radv",
            "run",
            &format!("testdata/mesa/rt/{scene}/navi21"),
            "--png",
            &png.display().to_string(),
        ]);
        let committed = common::repo().join(format!("docs/images/{scene}_navi21.png"));
        assert!(
            std::fs::read(&png).unwrap() == std::fs::read(&committed).unwrap(),
            "{} differs from what `gpuabi radv run testdata/mesa/rt/{scene}/navi21 --png` \
             writes; render it again",
            committed.display()
        );
    }
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

/// `--stats` prints the call-ABI overhead per call site and `--format json` carries the
/// same numbers: raygen's trace in `mirror` on navi21 has 18 parameter copies, 5 linkage
/// and 6 spill instructions, run by each of the 128 waves (counted by hand from the
/// listing in `crates/gpuabi-radv/tests/call_sites.rs`).
#[test]
fn call_site_overhead_in_text_and_json() {
    let dir = "testdata/mesa/rt/mirror/navi21";
    let out = ok(&["radv", "run", dir, "--stats"]);
    let row = out
        .lines()
        .find(|l| l.contains("00_raygen.Assembly.txt:62"))
        .unwrap_or_else(|| panic!("no raygen call site:\n{out}"));
    for cell in [
        "f07_traversal (traversal)",
        "| 128 ",
        "2304 [18]",
        "640 [5]",
        "768 [6]",
        "3712 [29]",
    ] {
        assert!(row.contains(cell), "{cell} in {row}");
    }
    assert!(out.contains("note: ACO's listing does not mark"), "{out}");
    let v = json(&["radv", "run", dir, "--stats", "--format", "json"]);
    let sites = v["call_sites"].as_array().unwrap();
    let raygen = sites
        .iter()
        .find(|s| {
            s["site"]
                .as_str()
                .unwrap()
                .ends_with("00_raygen.Assembly.txt:62")
        })
        .unwrap();
    assert_eq!(raygen["calls"], 128);
    assert_eq!(raygen["callees"][0]["function"], "f07_traversal");
    assert_eq!(raygen["listed"]["parameter_copies"], 18);
    assert_eq!(raygen["listed"]["call_linkage"], 5);
    assert_eq!(raygen["listed"]["spills"], 6);
    assert_eq!(raygen["executed"]["parameter_copies"], 18 * 128);
    assert!(v["call_sites_classified"]
        .as_str()
        .unwrap()
        .contains("callee's ACO ABI"));
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
    // An instruction the assembler does not know names the file and line: a copy of the
    // triangles capture whose raygen has one mnemonic changed.
    let dir = scratch("radv-unknown-instruction");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    copy_tree(
        &root.join("testdata/mesa/rt/triangles"),
        &dir.join("triangles"),
    );
    let raygen = dir.join("triangles/navi21/00_raygen.Assembly.txt");
    let text = std::fs::read_to_string(&raygen).expect("the raygen listing");
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with("s_mov_b32 "))
        .expect("an s_mov_b32 in the raygen")
        + 1;
    std::fs::write(&raygen, text.replacen("s_mov_b32 ", "s_frobnicate_b32 ", 1)).unwrap();
    let capture = dir.join("triangles/navi21");
    fails_naming(
        &["radv", "run", capture.to_str().unwrap()],
        &format!("00_raygen.Assembly.txt: line {line}: unknown instruction `s_frobnicate_b32`"),
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

/// Copies the directory tree `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}
