//! `gpuabi agx run fragment` and `gpuabi agx fs-prolog` end to end: tile bytes against
//! values computed here from the blend equation and the RGBA8 UNORM encoding, the sample
//! loop, the fragment prolog's kills and counter, breaches of the contract, `--stats`,
//! `--png` and errors naming the file and key.

mod common;

use common::{fails_naming, gpuabi, json, ok};

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// RGBA8 UNORM of a float: clamped, scaled, rounded to nearest even.
fn unorm8(x: f64) -> u8 {
    (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

fn rt0(v: &serde_json::Value, x: u64, y: u64, sample: u64) -> String {
    let p = v["pixels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["x"] == x && p["y"] == y && p["sample"] == sample)
        .unwrap_or_else(|| panic!("no pixel ({x}, {y}) sample {sample}"));
    p["rt"][0].as_str().unwrap().to_string()
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_fragment_example_blends_over_the_cleared_tile() {
    let dir = common::scratch("agx-frag-example");
    let png = dir.join("blend.png");
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        "examples/agx/fragment_key.toml",
        "--main",
        "examples/agx/fragment_main.s",
        "--draw",
        "examples/agx/fragment_draw.toml",
        "--png",
        &format!("rt0:32x32:{}", png.to_str().unwrap()),
        "--format",
        "json",
        "--stats",
    ]);
    assert_eq!(v["pixels"].as_array().unwrap().len(), 32 * 32);
    assert!(v["violations"].as_array().unwrap().is_empty());
    // The "over" blend of the example by hand: source (x/32, y/32, 0.25, (x+y)/64) at the
    // pixel centre over the clear (0x20, 0x20, 0x80, 0xff). The epilog's fp32 order may
    // differ from this f64 evaluation by one step of the 8-bit encoding.
    let dst = [32.0 / 255.0, 32.0 / 255.0, 128.0 / 255.0, 1.0];
    for (x, y) in [(0u64, 0u64), (5, 17), (31, 31), (20, 3)] {
        let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
        let a = (cx + cy) / 64.0;
        let src = [cx / 32.0, cy / 32.0, 0.25];
        let mut want: Vec<u8> = src
            .iter()
            .zip(dst)
            .map(|(s, d)| unorm8(s * a + d * (1.0 - a)))
            .collect();
        want.push(unorm8(a + dst[3] * (1.0 - a)));
        let got = bytes(&rt0(&v, x, y, 0));
        for c in 0..4 {
            assert!(
                got[c].abs_diff(want[c]) <= 1,
                "pixel ({x}, {y}) component {c}: {got:?} vs {want:?}"
            );
        }
    }
    // Stats: one ld_tile and one st_tile per SIMD group of 32 pixels, 4 bytes each lane.
    let epilog = &v["stats"]["epilog"];
    assert_eq!(epilog["instructions"]["st_tile"], 32);
    assert_eq!(epilog["tile_read_bytes"], 32 * 32 * 4);
    assert_eq!(epilog["tile_write_bytes"], 32 * 32 * 4);
    assert_eq!(v["stats"]["main"]["instructions"]["iter"], 64);
    // The PNG holds render target 0 as stored.
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (32, 32));
    let at = (17 * 32 + 5) * 4;
    assert_eq!(buf[at..at + 4], bytes(&rt0(&v, 5, 17, 0))[..]);
    // `--png` takes NAME:WxH[:FILE] as `run` does; a plain file name (the old form, which
    // given NAME:WxH:FILE wrote a file of that name) is refused, as is a wrong size.
    let example = [
        "agx",
        "run",
        "fragment",
        "--key",
        "examples/agx/fragment_key.toml",
        "--main",
        "examples/agx/fragment_main.s",
        "--draw",
        "examples/agx/fragment_draw.toml",
        "--png",
    ];
    let with = |png: &str| {
        let mut a = example.to_vec();
        a.push(png);
        common::fails(&a)
    };
    let e = with(png.to_str().unwrap());
    assert!(e.contains("expected NAME:WxH[:FILE]"), "{e}");
    assert!(with("rt0:16x16").contains("the tile is 32x32, not 16x16"));
    assert!(with("image:32x32").contains("`image` is not a render target"));
    assert!(with("rt1:32x32").contains("binds no render target 1"));
}

const STORE_KEY: &str = "[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n";

#[test]
fn outputs_run_the_epilog_alone() {
    let dir = common::scratch("agx-frag-outputs");
    let key = write(&dir, "key.toml", STORE_KEY);
    let draw = write(
        &dir,
        "draw.toml",
        "width = 2\nheight = 1\n[[clear]]\nbytes = \"11223344\"\n",
    );
    let outputs = write(
        &dir,
        "outputs.json",
        r#"{"pixels": [
            {"x": 0, "y": 0, "registers": {"r4": "0x3f800000", "r5": "0x0", "r6": "0x3f000000", "r7": "0x3e800000"}},
            {"x": 1, "y": 0, "sample": 0, "registers": {"r4": 0, "r5": "0x3f800000", "r6": "0x3f800000", "r7": "0x3f800000"}}
        ]}"#,
    );
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--outputs",
        &outputs,
        "--draw",
        &draw,
        "--format",
        "json",
    ]);
    // 1.0 → ff, 0.5 → 127.5 → 128 (ties to even), 0.25 → 63.75 → 64.
    assert_eq!(rt0(&v, 0, 0, 0), "ff008040");
    assert_eq!(rt0(&v, 1, 0, 0), "00ffffff");
    // Deferred depth and stencil come from r2 and r3l.
    let zs_key = write(
        &dir,
        "zs.toml",
        &format!("write_z = true\nwrite_s = true\n{STORE_KEY}"),
    );
    let zs = write(
        &dir,
        "zs.json",
        r#"{"pixels": [
            {"x": 0, "y": 0, "registers": {"r2": "0x3f000000", "r3l": "0x7"}},
            {"x": 1, "y": 0, "registers": {"r2": "0xbf800000", "r3l": "0xff"}}
        ]}"#,
    );
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &zs_key,
        "--outputs",
        &zs,
        "--draw",
        &draw,
        "--format",
        "json",
    ]);
    let p = &v["pixels"][0];
    assert_eq!(
        (p["depth"].as_f64(), p["stencil"].as_u64()),
        (Some(0.5), Some(7))
    );
    let p = &v["pixels"][1];
    assert_eq!(
        (p["depth"].as_f64(), p["stencil"].as_u64()),
        (Some(-1.0), Some(255))
    );
    // A pixel without an entry is an error naming the file and the pixel.
    let one = write(
        &dir,
        "one.json",
        r#"{"pixels": [{"x": 0, "y": 0, "registers": {"r4": "0x0"}}]}"#,
    );
    fails_naming(
        &[
            "agx",
            "run",
            "fragment",
            "--key",
            &key,
            "--outputs",
            &one,
            "--draw",
            &draw,
        ],
        "one.json: pixels: no entry for pixel (1, 0) sample 0",
    );
    let bad = write(
        &dir,
        "bad.json",
        r#"{"pixels": [{"x": 0, "y": 0, "registers": {"q4": "0x0"}}]}"#,
    );
    fails_naming(
        &[
            "agx",
            "run",
            "fragment",
            "--key",
            &key,
            "--outputs",
            &bad,
            "--draw",
            &draw,
        ],
        "bad.json: pixels[0].registers.q4: expected a GPR",
    );
    let wide = write(
        &dir,
        "wide.json",
        r#"{"pixels": [{"x": 0, "y": 0, "registers": {"r3h": "0x10000"}}]}"#,
    );
    fails_naming(
        &[
            "agx",
            "run",
            "fragment",
            "--key",
            &key,
            "--outputs",
            &wide,
            "--draw",
            &draw,
        ],
        "wide.json: pixels[0].registers.r3h: expected a 16-bit value",
    );
}

#[test]
fn an_epilog_reading_r3h_without_the_mask_fails_the_run() {
    let dir = common::scratch("agx-frag-r3h");
    let key = write(&dir, "key.toml", STORE_KEY);
    let draw = write(&dir, "draw.toml", "width = 1\nheight = 1\n");
    let outputs = write(
        &dir,
        "o.json",
        r#"{"pixels": [{"x": 0, "y": 0, "registers": {"r3h": "0x1"}}]}"#,
    );
    let epilog = write(
        &dir,
        "epilog.s",
        "st_tile r4_r5_r6_r7, 0, r3h, 0, u8norm, xyzw\n",
    );
    let args = [
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--epilog",
        &epilog,
        "--outputs",
        &outputs,
        "--draw",
        &draw,
    ];
    let out = gpuabi(&args);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "violation: epilog: offset 0 `st_tile  r4_r5_r6_r7, 0, r3h, 0, u8norm, xyzw`: reads r3h without sample_mask_after_force_early"
        ),
        "{}",
        out.stdout
    );
    // The same epilog is within the contract when the key has the mask.
    let key = write(
        &dir,
        "key2.toml",
        &format!("sample_mask_after_force_early = true\n{STORE_KEY}"),
    );
    let text = ok(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--epilog",
        &epilog,
        "--outputs",
        &outputs,
        "--draw",
        &draw,
    ]);
    assert!(!text.contains("violation"), "{text}");
}

#[test]
fn sample_shading_runs_the_loop_and_checks_its_footer() {
    let dir = common::scratch("agx-frag-loop");
    let key = write(
        &dir,
        "key.toml",
        &format!("samples = 4\nsample_shading = true\n{STORE_KEY}"),
    );
    let draw = write(&dir, "draw.toml", "width = 1\nheight = 1\n");
    // A user's epilog for one sample: the store's sample mask is r1l.
    let epilog = write(
        &dir,
        "epilog.s",
        "st_tile r4_r5_r6_r7, 0, r1l, 0, u8norm, xyzw\n",
    );
    let outputs = write(
        &dir,
        "o.json",
        r#"{"pixels": [
            {"x": 0, "y": 0, "sample": 0, "registers": {"r4": "0x3f800000"}},
            {"x": 0, "y": 0, "sample": 1, "registers": {"r5": "0x3f800000"}},
            {"x": 0, "y": 0, "sample": 2, "registers": {"r6": "0x3f800000"}},
            {"x": 0, "y": 0, "sample": 3, "registers": {"r7": "0x3f800000"}}
        ]}"#,
    );
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--epilog",
        &epilog,
        "--outputs",
        &outputs,
        "--draw",
        &draw,
        "--format",
        "json",
    ]);
    assert_eq!(rt0(&v, 0, 0, 0), "ff000000");
    assert_eq!(rt0(&v, 0, 0, 1), "00ff0000");
    assert_eq!(rt0(&v, 0, 0, 2), "0000ff00");
    assert_eq!(rt0(&v, 0, 0, 3), "000000ff");
    // A main shader that clobbers r1l breaks the loop's contract.
    let main = write(&dir, "main.s", "ldimm r1l, 0\n");
    let out = gpuabi(&[
        "agx", "run", "fragment", "--key", &key, "--epilog", &epilog, "--main", &main, "--draw",
        &draw,
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "violation: main: offset 0 `ldimm    r1l, 0`: lane 0: r1l is 0x0 at the sample loop's footer (expected 0x1"
        ),
        "{}",
        out.stdout
    );
    // An `if` left open in the main shader leaves r0l at 1 for the lane whose test fails.
    let main = write(&dir, "open_if.s", "if r4, 5, 1, ugt\n");
    let out = gpuabi(&[
        "agx", "run", "fragment", "--key", &key, "--epilog", &epilog, "--main", &main, "--draw",
        &draw,
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains("violation: main: offset 0 `if  ")
            && out
                .stdout
                .contains("r0l is 1 at the sample loop's footer (expected 0)"),
        "{}",
        out.stdout
    );
    // An epilog reading r1l without sample shading is reported statically.
    let key = write(&dir, "key1.toml", &format!("samples = 4\n{STORE_KEY}"));
    let out = gpuabi(&[
        "agx", "run", "fragment", "--key", &key, "--epilog", &epilog, "--main", &main, "--draw",
        &draw,
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("reads r1l without sample_shading"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_fragment_prolog_kills_and_counts() {
    let dir = common::scratch("agx-frag-prolog");
    let key = write(&dir, "key.toml", &format!("samples = 2\n{STORE_KEY}"));
    let pkey = write(
        &dir,
        "prolog.toml",
        "api_sample_mask = 1\nstatistics = true\npolygon_stipple = true\n",
    );
    // Row 0: only bit 31, i.e. column (~x) mod 32 = 31, x = 0, keeps its pixel; row 1 keeps
    // all (the default row word is all ones).
    let mut rows = vec!["4294967295".to_string(); 32];
    rows[0] = "2147483648".into();
    let draw = write(
        &dir,
        "draw.toml",
        &format!(
            "width = 4\nheight = 2\nstipple = [{}]\n[[clear]]\nbytes = \"01020304\"\n",
            rows.join(", ")
        ),
    );
    let main = write(
        &dir,
        "main.s",
        "ldimm r4, 1065353216\nldimm r7, 1065353216\n",
    );
    // A user's prolog that reads a register before writing it breaches the contract.
    let prolog = write(&dir, "prolog.s", "iadd r2, r5, 1\n");
    let out = gpuabi(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--prolog",
        &prolog,
        "--main",
        "/dev/null",
        "--draw",
        &draw,
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "violation: prolog: offset 0 `iadd     r2, r5, 1`: reads r5 before writing it"
        ),
        "{}",
        out.stdout
    );
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--prolog-key",
        &pkey,
        "--main",
        &main,
        "--draw",
        &draw,
        "--format",
        "json",
    ]);
    assert!(v["violations"].as_array().unwrap().is_empty(), "{v}");
    // Every pixel's two covered samples are counted, before any kill.
    assert_eq!(v["invocation_counter"], 4 * 2 * 2);
    for p in v["pixels"].as_array().unwrap() {
        let (x, y, s) = (
            p["x"].as_u64().unwrap(),
            p["y"].as_u64().unwrap(),
            p["sample"].as_u64().unwrap(),
        );
        let alive = s == 0 && (y == 1 || x == 0);
        assert_eq!(p["covered"], alive, "{p}");
        let want = if alive { "ff0000ff" } else { "01020304" };
        assert_eq!(p["rt"][0], want, "{p}");
    }
}

#[test]
fn fs_prolog_prints_its_code() {
    let dir = common::scratch("agx-fs-prolog");
    let key = write(&dir, "k.toml", "api_sample_mask = 5\nrun_zs_tests = true\n");
    let text = ok(&["agx", "fs-prolog", "--key", &key]);
    // ~5 & 0xff = 250 killed; then the tests for the samples left.
    assert_eq!(text, "sample_mask 250, 0\nsample_mask 255, 255\n");
    let v = json(&["agx", "fs-prolog", "--key", &key, "--format", "json"]);
    assert_eq!(v["reads"].as_array().unwrap().len(), 0);
    assert_eq!(v["gpr_halves"], 0);
    let key = write(&dir, "s.toml", "statistics = true\n");
    let v = json(&["agx", "fs-prolog", "--key", &key, "--format", "json"]);
    assert!(v["text"].as_str().unwrap().contains("atomic"), "{v}");
    assert!(v["writes"].as_array().unwrap().iter().any(|r| r == "r3l"));
    let bad = write(&dir, "b.toml", "api_sample_mask = 300\n");
    fails_naming(
        &["agx", "fs-prolog", "--key", &bad],
        "b.toml: api_sample_mask: 300",
    );
    let cull = write(&dir, "c.toml", "cull_distance_size = 2\ncf_base = 3\n");
    let text = ok(&["agx", "fs-prolog", "--key", &cull]);
    assert!(text.contains("ldcf     r2_r3_r4, cf3"), "{text}");
    assert!(text.contains("ldcf     r2_r3_r4, cf4"), "{text}");
    let cull = write(&dir, "c9.toml", "cull_distance_size = 9\n");
    fails_naming(
        &["agx", "fs-prolog", "--key", &cull],
        "c9.toml: 9 cull distances (at most 8)",
    );
    let unknown = write(&dir, "u.toml", "stipple = true\n");
    fails_naming(
        &["agx", "fs-prolog", "--key", &unknown],
        "u.toml: stipple: unknown key",
    );
}

#[test]
fn draws_give_partial_starting_coverage() {
    let dir = common::scratch("agx-frag-coverage");
    let key = write(&dir, "key.toml", &format!("samples = 4\n{STORE_KEY}"));
    let pkey = write(&dir, "prolog.toml", "statistics = true\n");
    // Pixel 1 has no coverage and launches no fragment; the others keep the samples of
    // their masks.
    let masks = [0b0101u64, 0, 0b1111, 0b0010];
    let draw = write(
        &dir,
        "draw.toml",
        "width = 2\nheight = 2\ncoverage = [5, 0, 15, 2]\n[[clear]]\nbytes = \"01020304\"\n",
    );
    let main = write(
        &dir,
        "main.s",
        "ldimm r4, 1065353216\nldimm r7, 1065353216\n",
    );
    let run = |draw: &str| {
        json(&[
            "agx",
            "run",
            "fragment",
            "--key",
            &key,
            "--prolog-key",
            &pkey,
            "--main",
            &main,
            "--draw",
            draw,
            "--format",
            "json",
        ])
    };
    let v = run(&draw);
    assert!(v["violations"].as_array().unwrap().is_empty(), "{v}");
    // The counter adds the popcount of each fragment's input sample mask: 2 + 0 + 4 + 1.
    assert_eq!(v["invocation_counter"], 7);
    for p in v["pixels"].as_array().unwrap() {
        let (x, y, s) = (
            p["x"].as_u64().unwrap(),
            p["y"].as_u64().unwrap(),
            p["sample"].as_u64().unwrap(),
        );
        let alive = masks[(y * 2 + x) as usize] >> s & 1 == 1;
        assert_eq!(p["covered"], alive, "{p}");
        let want = if alive { "ff0000ff" } else { "01020304" };
        assert_eq!(p["rt"][0], want, "{p}");
    }
    // One integer gives every pixel the same mask.
    let one = write(
        &dir,
        "one.toml",
        "width = 2\nheight = 1\ncoverage = 8\n[[clear]]\nbytes = \"01020304\"\n",
    );
    let v = run(&one);
    assert_eq!(v["invocation_counter"], 2);
    for p in v["pixels"].as_array().unwrap() {
        let alive = p["sample"] == 3;
        assert_eq!(p["covered"], alive, "{p}");
        assert_eq!(p["rt"][0], if alive { "ff0000ff" } else { "01020304" });
    }
    // Masks naming samples the key lacks, of the wrong count or out of range are errors
    // naming the file and key.
    for (name, text, needle) in [
        (
            "high.toml",
            "width = 2\nheight = 1\ncoverage = [1, 16]\n",
            "high.toml: coverage[1]: 0x10 names a sample the key's 4 sample(s) lack",
        ),
        (
            "count.toml",
            "width = 2\nheight = 1\ncoverage = [1]\n",
            "count.toml: coverage: 1 masks (expected one integer, or width · height = 2",
        ),
        (
            "range.toml",
            "width = 2\nheight = 1\ncoverage = 256\n",
            "range.toml: coverage: expected a sample mask from 0 to 255",
        ),
    ] {
        let d = write(&dir, name, text);
        fails_naming(
            &[
                "agx", "run", "fragment", "--key", &key, "--main", &main, "--draw", &d,
            ],
            needle,
        );
    }
}

#[test]
fn draw_errors_name_the_file_and_key() {
    let dir = common::scratch("agx-frag-errors");
    let key = write(&dir, "key.toml", STORE_KEY);
    let main = write(&dir, "main.s", "ldimm r4, 0\n");
    let run = |draw: &str| {
        vec![
            "agx".to_string(),
            "run".into(),
            "fragment".into(),
            "--key".into(),
            key.clone(),
            "--main".into(),
            main.clone(),
            "--draw".into(),
            draw.to_string(),
        ]
    };
    let check = |name: &str, text: &str, needle: &str| {
        let d = write(&dir, name, text);
        let args = run(&d);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_naming(&args, needle);
    };
    check(
        "short.toml",
        "width = 2\nheight = 2\n[[clear]]\nbytes = \"0102\"\n",
        "short.toml: clear (rt 0): bytes: 2 bytes (expected 4",
    );
    check(
        "rt.toml",
        "width = 2\nheight = 2\n[[clear]]\nrt = 3\nbytes = \"01020304\"\n",
        "rt.toml: clear: render target 3 is not bound",
    );
    check(
        "unknown.toml",
        "width = 2\nheight = 2\ndepth = 1\n",
        "unknown.toml: depth: unknown key",
    );
    check(
        "size.toml",
        "width = 64\nheight = 64\n",
        "size.toml: width, height",
    );
    check(
        "plane.toml",
        "width = 1\nheight = 1\n[[varying]]\ncf = 0\nplane = [1, 2]\n",
        "plane.toml: varying[0].plane: expected an array of 3 numbers",
    );
    check(
        "nowidth.toml",
        "height = 1\n",
        "nowidth.toml: width: missing",
    );
    let d = write(&dir, "ok.toml", "width = 1\nheight = 1\n");
    fails_naming(
        &["agx", "run", "fragment", "--key", &key, "--draw", &d],
        "one of --main FILE or --outputs OUTPUTS.json is required",
    );
}

#[test]
fn run_vertex_stats_count_the_prolog() {
    let v = json(&[
        "agx",
        "run",
        "vertex",
        "--key",
        "examples/agx/vertex_key.toml",
        "--draw",
        "examples/agx/vertex_draw.toml",
        "--format",
        "json",
        "--stats",
    ]);
    let p = &v["stats"]["prolog"];
    assert!(p["instructions"]["load"].as_u64().unwrap() > 0, "{p}");
    assert!(p["memory_read_bytes"].as_u64().unwrap() > 0, "{p}");
    assert_eq!(p["tile_write_bytes"], 0);
}

/// Four 16-byte targets fill the 64 bytes of a sample; render targets 4 and 5 spill.
const SPILL_KEY: &str = r#"
[[rt]]
format = "R32G32B32A32_UINT"
[[rt]]
format = "R32G32B32A32_UINT"
[[rt]]
format = "R32G32B32A32_UINT"
[[rt]]
format = "R32G32B32A32_UINT"
[[rt]]
format = "R8G8B8A8_UNORM"
[rt.blend]
rgb_src = "src_alpha"
rgb_dst = "one_minus_src_alpha"
alpha_src = "one"
alpha_dst = "one_minus_src_alpha"
[[rt]]
format = "R16G16_UINT"
"#;

#[test]
fn spilled_targets_blend_and_store_through_their_images() {
    let dir = common::scratch("agx-frag-spill");
    let key = write(&dir, "key.toml", SPILL_KEY);
    // Away from the window's corner, so that the image rows and columns before the tile
    // are skipped by the epilog's addressing.
    let draw = write(
        &dir,
        "draw.toml",
        "width = 2\nheight = 1\norigin = [3, 1]\n\
         [[clear]]\nrt = 0\nbytes = \"0102030405060708090a0b0c0d0e0f10\"\n\
         [[clear]]\nrt = 4\nbytes = \"204080ff\"\n",
    );
    // Location 4 (r20…r23) and 5 (r24, r25); the other locations are 0.
    let outputs = write(
        &dir,
        "outputs.json",
        r#"{"pixels": [
            {"x": 0, "y": 0, "registers": {"r20": "0x3f800000", "r21": "0x0", "r22": "0x3f000000", "r23": "0x3e800000", "r24": "0x12345", "r25": "0x7"}},
            {"x": 1, "y": 0, "registers": {"r20": "0x0", "r21": "0x0", "r22": "0x0", "r23": "0x3f800000", "r24": "0x1", "r25": "0x2"}}
        ]}"#,
    );
    let v = json(&[
        "agx",
        "run",
        "fragment",
        "--key",
        &key,
        "--outputs",
        &outputs,
        "--draw",
        &draw,
        "--format",
        "json",
    ]);
    assert!(v["violations"].as_array().unwrap().is_empty(), "{v}");
    let rt = |x: usize, i: usize| v["pixels"][x]["rt"][i].as_str().unwrap().to_string();
    // "Over" with source alpha 0.25 on the clear (0x20, 0x40, 0x80, 0xff), by hand:
    // r = 0.25·255 + 0.75·32 = 87.75 → 0x58, g = 0.75·64 = 48 → 0x30,
    // b = 0.25·0.5·255 + 0.75·128 = 127.875 → 0x80, a = 0.25 + 0.75·1 = 1 → 0xff.
    assert_eq!(rt(0, 4), "583080ff");
    // Opaque black over anything is itself.
    assert_eq!(rt(1, 4), "000000ff");
    // R16G16_UINT clamps 0x12345 to 0xffff; channels are little-endian 16-bit words.
    assert_eq!(rt(0, 5), "ffff0700");
    assert_eq!(rt(1, 5), "01000200");
    // The tile's targets take the zeros of their locations.
    assert_eq!(rt(0, 0), "0".repeat(32));
    // A clear of a spilled target has the image's pixel size.
    let bad = write(
        &dir,
        "bad.toml",
        "width = 2\nheight = 1\n[[clear]]\nrt = 5\nbytes = \"010203\"\n",
    );
    fails_naming(
        &[
            "agx",
            "run",
            "fragment",
            "--key",
            &key,
            "--outputs",
            &outputs,
            "--draw",
            &bad,
        ],
        "bad.toml: clear (rt 5): bytes: 3 bytes (expected 4",
    );
}

#[test]
fn multisampled_spilled_targets_store_each_covered_sample() {
    let dir = common::scratch("agx-frag-spill-ms");
    let key = write(
        &dir,
        "key.toml",
        &format!("samples = 2\nsample_shading = true\n{SPILL_KEY}"),
    );
    // Pixel 0 covers both samples, pixel 1 only sample 1.
    let draw = write(
        &dir,
        "draw.toml",
        "width = 2\nheight = 1\norigin = [3, 1]\ncoverage = [3, 2]\n\
         [[clear]]\nrt = 4\nbytes = \"204080ff\"\n",
    );
    let main = write(
        &dir,
        "main.s",
        "ldimm r20, 1065353216\nldimm r21, 0\nldimm r22, 1056964608\nldimm r23, 1048576000\n\
         ldimm r24, 74565\nldimm r25, 7\n",
    );
    let v = json(&[
        "agx", "run", "fragment", "--key", &key, "--main", &main, "--draw", &draw, "--format",
        "json",
    ]);
    assert!(v["violations"].as_array().unwrap().is_empty(), "{v}");
    for p in v["pixels"].as_array().unwrap() {
        let (x, s) = (p["x"].as_u64().unwrap(), p["sample"].as_u64().unwrap());
        let covered = x == 0 || s == 1;
        assert_eq!(p["covered"], covered, "{p}");
        // The blend of the test above on covered samples; the clear (rt 4) and zeros
        // (rt 5) where the sample is not covered.
        let want = if covered {
            ["583080ff", "ffff0700"]
        } else {
            ["204080ff", "00000000"]
        };
        assert_eq!(p["rt"][4], want[0], "{p}");
        assert_eq!(p["rt"][5], want[1], "{p}");
    }
    // Without sample shading such a key is refused, naming what it lacks.
    let flat = write(&dir, "flat.toml", &format!("samples = 2\n{SPILL_KEY}"));
    fails_naming(
        &[
            "agx", "run", "fragment", "--key", &flat, "--main", &main, "--draw", &draw,
        ],
        "multisampled spilled render targets without sample_shading",
    );
}
