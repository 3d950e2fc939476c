//! `agx run vertex --prolog MESA.bin` and `agx run fragment --epilog MESA.bin`: Mesa's parts
//! from the project's Honeykrisp capture run where gpuabi's run, under the key
//! `agx key --from-vulkan` derives for their draw, and hand the main shader (or leave in the
//! tile) what gpuabi's generated parts do.

mod common;

use common::{gpuabi, ok, scratch};

const HK: &str = "testdata/mesa/hk";

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

#[test]
fn mesa_vertex_prolog_hands_over_what_gpuabis_does() {
    let dir = scratch("agx-mesa-vertex");
    let key = dir.join("key.toml").display().to_string();
    ok(&[
        "agx",
        "key",
        "--from-vulkan",
        &format!("{HK}/draws/09_inst_dual_src.json"),
        "--part",
        "vertex-prolog",
        "-o",
        &key,
    ]);
    let bytes: String = (0..512)
        .map(|i| format!("{:02x}", (i * 37 + 11) % 251))
        .collect();
    let mut draw = format!(
        "vertex_count = 4\ninstance_count = 9\nbase_instance = 2\n[[buffer]]\nname = \"b\"\nbytes = \"{bytes}\"\n"
    );
    for slot in 0..6 {
        draw += &format!(
            "[[binding]]\nslot = {slot}\nbuffer = \"b\"\noffset = {}\n",
            4 * slot
        );
    }
    let draw = write(&dir, "draw.toml", &draw);
    let ours = ok(&["agx", "run", "vertex", "--key", &key, "--draw", &draw]);
    let mesa = gpuabi(&[
        "agx",
        "run",
        "vertex",
        "--key",
        &key,
        "--draw",
        &draw,
        "--prolog",
        &format!("{HK}/parts/033_off_09_inst_dual_src_vertex_prolog.bin"),
    ]);
    assert_eq!(mesa.stdout, ours);
    assert_eq!(ours.lines().count(), 36);
    // Mesa's prolog takes r0 as a temporary and loads whole attribute vectors, which Mesa's
    // ABI allows (`src/asahi/compiler/README.md`): no violation.
    assert_eq!(mesa.code, 0, "{}", mesa.stdout);
}

#[test]
fn mesa_fragment_epilog_leaves_what_gpuabis_does() {
    let dir = scratch("agx-mesa-fragment");
    let key = dir.join("key.toml").display().to_string();
    ok(&[
        "agx",
        "key",
        "--from-vulkan",
        &format!("{HK}/draws/01_wide_norm_swizzle.json"),
        "--part",
        "fragment-epilog",
        "-o",
        &key,
    ]);
    let draw = write(
        &dir,
        "tile.toml",
        "width = 2\nheight = 1\n[[clear]]\nrt = 0\nbytes = \"40808040\"\n[[clear]]\nrt = 3\nbytes = \"003800380038003c\"\n",
    );
    let outputs = write(
        &dir,
        "outputs.json",
        r#"{"pixels": [
 {"x": 0, "y": 0, "registers": {"r4": "0x3f800000", "r5": "0x3e800000", "r6": "0x3f000000", "r7": "0x3f400000", "r8": "0x7fff", "r16": "0x3e000000", "r17": "0x3f000000", "r18": "0x3f800000", "r19": "0x3e800000"}},
 {"x": 1, "y": 0, "registers": {"r4": "0x3dcccccd", "r5": "0x3f666666", "r6": "0x0", "r7": "0x3f800000", "r8": "0x12345", "r16": "0xbf800000", "r17": "0x40000000", "r18": "0x3f800000", "r19": "0x3f000000"}}
]}"#,
    );
    let args = [
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--draw",
        &draw,
        "--outputs",
        &outputs,
    ];
    let ours = ok(&args);
    let epilog = format!("{HK}/parts/009_off_01_wide_norm_swizzle_fragment_epilog.bin");
    let mesa = ok(&[&args[..], &["--epilog", &epilog]].concat());
    assert_eq!(mesa, ours);
    // Render target 0 blends "over" (SRC_ALPHA, ONE_MINUS_SRC_ALPHA; alpha ONE,
    // ONE_MINUS_SRC_ALPHA) (1, 0.25, 0.5, 0.75) onto (64, 128, 128, 64)/255: red
    // 0.75 + 0.251·0.25 = 0.813 → 207 (0xcf), green 0.1875 + 0.502·0.25 = 0.313 → 80,
    // blue 0.375 + 0.1255 = 0.5005 → 128, alpha 0.75 + 0.251·0.25 → 207.
    assert!(
        ours.lines().next().unwrap().contains("rt0=cf5080cf"),
        "{ours}"
    );
}
