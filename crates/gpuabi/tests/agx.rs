//! `gpuabi agx ...` end to end: outputs and errors (non-zero exit, message naming the flag).

mod common;

use common::{fails_naming, gpuabi};

fn tmp(name: &str) -> std::path::PathBuf {
    common::scratch(&format!("agx-{name}")).join(name)
}

#[test]
fn vs_json_fields() {
    let out = gpuabi(&[
        "agx",
        "vs",
        "--mask",
        "0xf017",
        "--profile",
        "vk",
        "--format",
        "json",
    ]);
    assert!(out.success());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["n"], 4);
    // align(6·4 + 12, 4) = 36.
    assert_eq!(v["first_free_uniform_half"], 36);
    let regs = v["registers"].as_array().unwrap();
    assert!(regs
        .iter()
        .any(|r| r["half"] == 16 && r["reg"] == "r8" && r["meaning"] == "attrib 0.x"));
    let unis = v["uniforms"].as_array().unwrap();
    assert!(unis
        .iter()
        .any(|u| u["half"] == 16 && u["size_halves"] == 2));
}

#[test]
fn vs_svg_and_text() {
    let out = gpuabi(&[
        "agx",
        "vs",
        "--attribs",
        "2",
        "--compute",
        "--format",
        "svg",
    ]);
    assert!(out.success());
    assert!(out.stdout.starts_with("<svg"));
    let out = gpuabi(&[
        "agx",
        "vs",
        "--components",
        "0:xyz 1:x 3:xyzw",
        "--profile",
        "readme",
    ]);
    assert!(out.success());
    // readme, hardware VS, n = 4: 6·4 + 5 = 29.
    assert!(out.stdout.contains("half 29"));
}

#[test]
fn vs_errors() {
    fails_naming(&["agx", "vs", "--components", "0:xq"], "--components");
    fails_naming(&["agx", "vs", "--mask", "0xzz"], "--mask");
    fails_naming(&["agx", "vs", "--attribs", "17"], "--attribs");
    fails_naming(
        &["agx", "vs", "--attribs", "31", "--profile", "readme"],
        "too many attributes for registers: 31 attribute slots",
    );
    fails_naming(
        &["agx", "vs", "--attribs", "40", "--profile", "readme"],
        "--attribs",
    );
    fails_naming(
        &["agx", "vs", "--mask", "0x10000000000000000"],
        "too many attributes: ",
    );
    fails_naming(&["agx", "vs"], "--components");
    fails_naming(&["agx", "vs", "--attribs", "2", "--mask", "0x1"], "--mask");
    fails_naming(
        &["agx", "vs", "--attribs", "2", "--profile", "metal"],
        "--profile",
    );
}

#[test]
fn fs_output_and_errors() {
    let out = gpuabi(&[
        "agx",
        "fs",
        "--color",
        "0:f32x4",
        "--dual-source",
        "--format",
        "json",
    ]);
    assert!(out.success());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let regs = v["registers"].as_array().unwrap();
    assert!(regs.iter().any(|r| r["reg"] == "r8" && r["half"] == 16));
    assert_eq!(v["first_free_uniform_half"], 16);
    fails_naming(
        &[
            "agx",
            "fs",
            "--color",
            "0:f32x4",
            "--color",
            "1:f16x4",
            "--dual-source",
        ],
        "--dual-source",
    );
    fails_naming(&["agx", "fs", "--color", "8:f32x4"], "--color");
    fails_naming(&["agx", "fs", "--color", "0:f33"], "--color");
    fails_naming(
        &["agx", "fs", "--color", "1:f32", "--dual-source"],
        "--dual-source",
    );
}

#[test]
fn tilebuffer_output_and_errors() {
    let out = gpuabi(&[
        "agx",
        "tilebuffer",
        "--rt",
        "R8G8B8A8_UNORM",
        "--samples",
        "4",
    ]);
    assert!(out.success());
    assert!(out.stdout.contains("tile 32x16"));
    fails_naming(
        &[
            "agx",
            "tilebuffer",
            "--rt",
            "R8G8B8A8_UNORM",
            "--samples",
            "3",
        ],
        "--samples",
    );
    fails_naming(&["agx", "tilebuffer", "--rt", "BOGUS"], "--rt");
}

#[test]
fn link_writes_bytes_and_warns() {
    let main = tmp("main.bin");
    let prolog = tmp("prolog.bin");
    let out_path = tmp("out.bin");
    // `ldimm r1l, 1; stop`: a main vertex shader that ends the program, as Mesa compiles it;
    // the prolog `ldimm r0l, 0` has no `stop`.
    let main_code = [0x62u8, 0x04, 0x01, 0x00, 0x88, 0x00];
    std::fs::write(&main, main_code).unwrap();
    std::fs::write(&prolog, [0x62u8, 0x00, 0x00, 0x00]).unwrap();
    let run = |main: &std::path::Path| {
        gpuabi(&[
            "agx",
            "link",
            "--prolog",
            prolog.to_str().unwrap(),
            "--main",
            main.to_str().unwrap(),
            "--prolog-gprs",
            "40",
            "--main-gprs",
            "20",
            "-o",
            out_path.to_str().unwrap(),
        ])
    };
    let out = run(&main);
    assert!(out.success(), "{}", out.stderr);
    // Plain concatenation: without sample shading the linker adds nothing.
    let bytes = std::fs::read(&out_path).unwrap();
    assert_eq!(
        bytes,
        [0x62, 0x00, 0x00, 0x00, 0x62, 0x04, 0x01, 0x00, 0x88, 0x00]
    );
    assert!(out.stdout.contains("warning: prolog uses 40 GPR halves"));
    assert!(!out.stdout.contains("stop"), "{}", out.stdout);
    // A main shader without `stop` is linked as given, with a warning.
    std::fs::write(&main, &main_code[..4]).unwrap();
    let out = run(&main);
    assert!(out.success(), "{}", out.stderr);
    assert_eq!(std::fs::read(&out_path).unwrap().len(), 8);
    assert!(
        out.stdout
            .contains("warning: main ends the program without `stop`"),
        "{}",
        out.stdout
    );
}

#[test]
fn link_errors() {
    let main = tmp("main2.bin");
    let odd = tmp("odd.bin");
    std::fs::write(&main, [1u8, 2]).unwrap();
    std::fs::write(&odd, [1u8, 2, 3]).unwrap();
    let o = tmp("o2.bin");
    let (m, o) = (main.to_str().unwrap(), o.to_str().unwrap());
    fails_naming(
        &["agx", "link", "--main", m, "--samples", "8", "-o", o],
        "--samples",
    );
    fails_naming(
        &["agx", "link", "--main", m, "--samples", "3", "-o", o],
        "--samples",
    );
    fails_naming(
        &["agx", "link", "--main", "/nonexistent/x.bin", "-o", o],
        "--main",
    );
    fails_naming(
        &["agx", "link", "--main", odd.to_str().unwrap(), "-o", o],
        "--main",
    );
    fails_naming(
        &["agx", "link", "--main", m, "--main-gprs", "300", "-o", o],
        "--main-gprs",
    );
    fails_naming(&["agx", "link", "--main", m], "--output");
}

#[test]
fn velem_output_and_errors() {
    let out = gpuabi(&[
        "agx",
        "velem",
        "--vertex-format",
        "R32G32B32A32_FLOAT",
        "--stride",
        "16",
        "--format",
        "json",
    ]);
    assert!(out.success());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["shift"], 2);
    assert_eq!(v["format"]["interchange"], "R32_UINT");
    fails_naming(
        &[
            "agx",
            "velem",
            "--vertex-format",
            "R32_FLOAT",
            "--stride",
            "6",
        ],
        "--stride",
    );
    fails_naming(
        &[
            "agx",
            "velem",
            "--vertex-format",
            "R8G8B8A8_SRGB",
            "--stride",
            "4",
        ],
        "--vertex-format",
    );
    fails_naming(
        &[
            "agx",
            "velem",
            "--vertex-format",
            "R8_UNORM",
            "--stride",
            "1",
            "--divisor",
            "3",
        ],
        "--instanced",
    );
}

#[test]
fn prolog_from_a_key_file() {
    let key = tmp("key.toml");
    std::fs::write(
        &key,
        "robustness = \"d3d\"\nsoft_fault = true\n\n[[attrib]]\nslot = 1\n\
         format = \"R8G8B8A8_UNORM\"\nstride = 8\ncomponents = \"xz\"\n",
    )
    .unwrap();
    let k = key.to_str().unwrap();
    let v = common::json(&["agx", "prolog", "--key", k, "--format", "json"]);
    // Slot 1, components x and z: r12 and r14; inputs r5 and r6 (vertex and instance ID).
    let writes: Vec<&str> = v["writes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        writes.contains(&"r12l") && writes.contains(&"r14h"),
        "{writes:?}"
    );
    assert!(
        !writes.contains(&"r13l") && !writes.contains(&"r15l"),
        "{writes:?}"
    );
    assert!(v["reads"].as_array().unwrap().iter().all(|r| {
        let r = r.as_str().unwrap();
        r.starts_with("r5") || r.starts_with("r6")
    }));
    // The asm output assembles to the JSON's code.
    let asm = tmp("prolog.s");
    let out = common::ok(&["agx", "prolog", "--key", k]);
    std::fs::write(&asm, &out).unwrap();
    let hex = common::ok(&["agx", "asm", asm.to_str().unwrap()]);
    assert_eq!(hex.replace('\n', ""), v["code"].as_str().unwrap());
}

#[test]
fn prolog_key_errors_name_the_key() {
    let key = tmp("bad.toml");
    std::fs::write(
        &key,
        "[[attrib]]\nslot = 0\nformat = \"R8_UNORM\"\nstride = -1\n",
    )
    .unwrap();
    fails_naming(
        &["agx", "prolog", "--key", key.to_str().unwrap()],
        "attrib[0].stride",
    );
    std::fs::write(&key, "robustness = \"strong\"\n").unwrap();
    fails_naming(
        &["agx", "prolog", "--key", key.to_str().unwrap()],
        "robustness",
    );
    std::fs::write(
        &key,
        "[[attrib]]\nslot = 0\nformat = \"R5G6B5_UNORM\"\nstride = 2\n",
    )
    .unwrap();
    fails_naming(
        &["agx", "prolog", "--key", key.to_str().unwrap()],
        "unsupported vertex format `R5G6B5_UNORM`",
    );
    std::fs::write(
        &key,
        "[[attrib]]\nslot = 0\nformat = \"R8_UNORM\"\nstride = 1\nsize = 3\n",
    )
    .unwrap();
    fails_naming(
        &["agx", "prolog", "--key", key.to_str().unwrap()],
        "attrib[0].size",
    );
}

#[test]
fn run_vertex_hands_over_the_fetched_registers() {
    let key = tmp("run-key.toml");
    std::fs::write(
        &key,
        "[[attrib]]\nslot = 0\nformat = \"R32G32_FLOAT\"\nstride = 8\n\n\
         [[attrib]]\nslot = 1\nformat = \"R8G8B8A8_UNORM\"\nstride = 4\ninstanced = true\n\
         divisor = 1\ncomponents = \"xw\"\n",
    )
    .unwrap();
    let draw = tmp("run-draw.toml");
    std::fs::write(
        &draw,
        "vertex_count = 3\ninstance_count = 2\nfirst_vertex = 1\n\n\
         [[buffer]]\nname = \"pos\"\n\
         bytes = \"0000803f 00000040 00004040 00008040 0000a040 0000c040 0000e040 00000041\"\n\n\
         [[buffer]]\nname = \"col\"\nbytes = \"ff000080 00ff0040\"\n\n\
         [[binding]]\nslot = 0\nbuffer = \"pos\"\n\n[[binding]]\nslot = 1\nbuffer = \"col\"\n",
    )
    .unwrap();
    let (k, d) = (key.to_str().unwrap(), draw.to_str().unwrap());
    let v = common::json(&[
        "agx", "run", "vertex", "--key", k, "--draw", d, "--format", "json",
    ]);
    let inv = v["invocations"].as_array().unwrap();
    assert_eq!(inv.len(), 6);
    // Vertex 1 of instance 0: position (3.0, 4.0), z = 0, w = 1.0; colour x = 0xff / 255,
    // w = 0x80 / 255 from element 0 of the instanced buffer.
    let r = &inv[0]["registers"];
    assert_eq!(
        (inv[0]["vertex_id"].as_u64(), inv[0]["instance_id"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(r["r8"], "0x40400000");
    assert_eq!(r["r9"], "0x40800000");
    assert_eq!(r["r10"], "0x00000000");
    assert_eq!(r["r11"], "0x3f800000");
    assert_eq!(r["r12"], "0x3f800000");
    assert_eq!(r["r15"], format!("{:#010x}", (128.0f32 / 255.0).to_bits()));
    // Instance 1 reads element 1: x = 0, w = 0x40 / 255.
    let r = &inv[3]["registers"];
    assert_eq!(r["r12"], "0x00000000");
    assert_eq!(r["r15"], format!("{:#010x}", (64.0f32 / 255.0).to_bits()));
    assert!(v["violations"].as_array().unwrap().is_empty());
    // A user's prolog that writes r100 (no temporary, above the vectors it hands over) and
    // leaves r10 unwritten breaches the contract.
    let bad = tmp("bad-prolog.s");
    std::fs::write(
        &bad,
        "mov r8, r5\nmov r9, r6\nmov r100, r5\nldimm r11, 0\nldimm r12, 0\nldimm r15, 0\n",
    )
    .unwrap();
    let out = common::gpuabi(&[
        "agx",
        "run",
        "vertex",
        "--key",
        k,
        "--draw",
        d,
        "--prolog",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.success());
    assert!(
        out.stdout
            .contains("prolog: offset 12 `mov      r100, r5`: writes r100"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("does not write r10"), "{}", out.stdout);
    // A main shader that reads r7 (a prolog temporary) and r20 (never handed over).
    let main = tmp("main.s");
    std::fs::write(
        &main,
        "iadd r30, r8, r7
mov r31, r20
",
    )
    .unwrap();
    let out = common::gpuabi(&[
        "agx",
        "run",
        "vertex",
        "--key",
        k,
        "--draw",
        d,
        "--main",
        main.to_str().unwrap(),
    ]);
    assert!(!out.success());
    assert!(
        out.stdout
            .contains("main: offset 0 `iadd     r30, r8, r7`: reads r7, which holds poison"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("reads r20, which the prolog does not hand over"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("prolog: writes r9, which the main shader does not read"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_vertex_example_runs() {
    let root = common::repo();
    let key = root.join("examples/agx/vertex_key.toml");
    let draw = root.join("examples/agx/vertex_draw.toml");
    let v = common::json(&[
        "agx",
        "run",
        "vertex",
        "--key",
        key.to_str().unwrap(),
        "--draw",
        draw.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let inv = v["invocations"].as_array().unwrap();
    assert_eq!(inv.len(), 15);
    // Vertex 1: position (1.0, 0.5, -1.0); the normal's y field is -100: -100 · f32(1/511).
    let r = &inv[1]["registers"];
    assert_eq!(r["r8"], "0x3f800000");
    assert_eq!(r["r9"], "0x3f000000");
    assert_eq!(r["r10"], "0xbf800000");
    assert_eq!(
        r["r13"],
        format!("{:#010x}", (-100.0f32 * (1.0 / 511.0)).to_bits())
    );
    // Vertex 4 is past the 80-byte binding: D3D robustness reads zeros (w is still 1.0).
    let r = &inv[4]["registers"];
    assert_eq!(r["r8"], "0x00000000");
    assert_eq!(r["r11"], "0x3f800000");
    // Instance 2 reads offset element 1 (divisor 2): (300, -400).
    let r = &inv[10]["registers"];
    assert_eq!(r["r20"], format!("{:#010x}", 300.0f32.to_bits()));
    assert_eq!(r["r21"], format!("{:#010x}", (-400.0f32).to_bits()));
}

#[test]
fn epilog_from_a_key_file() {
    let key = tmp("epilog.toml");
    std::fs::write(
        &key,
        "samples = 4\nwrite_z = true\nloc0_w_1 = true\n\n[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n\
         size = 16\n\n[[rt]]\nformat = \"R16G16_SINT\"\nlocation = 1\ncolormask = \"g\"\n",
    )
    .unwrap();
    let k = key.to_str().unwrap();
    let text = common::ok(&["agx", "epilog", "--key", k]);
    // Layout: RG16 (alignment 2) before RGBA8 (alignment 1), so RGBA8 sits at byte 4.
    assert!(text.contains("zs_emit  255, r2"), "{text}");
    assert!(text.contains("ldimm    r5h, 15360"), "{text}"); // alpha 1.0 in fp16
    assert!(
        text.contains("st_tile  r4l_r4h_r5l_r5h, 0, 255, 4, u8norm, xyzw"),
        "{text}"
    );
    assert!(text.contains("i16, y"), "{text}");
    let v = common::json(&["agx", "epilog", "--key", k, "--format", "json"]);
    assert!(v["reads"].as_array().unwrap().iter().any(|r| r == "r2l"));
    std::fs::write(
        &key,
        "[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n[rt.blend]\nrgb_src = \"src_alpha\"\n\
         rgb_dst = \"one_minus_src_alpha\"\n",
    )
    .unwrap();
    let text = common::ok(&["agx", "epilog", "--key", k]);
    assert!(text.contains("ld_tile"), "{text}");
    std::fs::write(
        &key,
        "[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n[rt.blend]\nrgb_src = \"alpha\"\n",
    )
    .unwrap();
    fails_naming(&["agx", "epilog", "--key", k], "rt[0].blend.rgb_src");
    std::fs::write(
        &key,
        "samples = 4\n[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n[rt.blend]\nrgb_func = \"max\"\n",
    )
    .unwrap();
    // Blending with four samples and no sample shading: once per sample.
    let text = common::ok(&["agx", "epilog", "--key", k]);
    for bit in [1, 2, 4, 8] {
        assert!(
            text.contains(&format!("0, {bit}, 0, u8norm, xyzw")),
            "{text}"
        );
    }
    std::fs::write(
        &key,
        "samples = 2\nsample_shading = true\nalpha_to_coverage = true\nlogic_op = \"xor\"\n\
         [[rt]]\nformat = \"R8G8B8A8_UINT\"\n",
    )
    .unwrap();
    let text = common::ok(&["agx", "epilog", "--key", k]);
    assert!(text.contains("sample_mask"), "{text}");
    assert!(
        text.contains("ld_tile  r41_r42_r43_r44, 0, r1l, 0, i8, xyzw"),
        "{text}"
    );
    assert!(text.contains("xor      r36, r36, r41"), "{text}");
    std::fs::write(&key, "logic_op = \"xorr\"\n[[rt]]\nformat = \"R8_UINT\"\n").unwrap();
    fails_naming(&["agx", "epilog", "--key", k], "logic_op: `xorr`");
    std::fs::write(
        &key,
        "[[rt]]\nformat = \"R8G8B8A8_UNORM\"\n[rt.blend]\nrgb_dst = \"src1_color\"\n\
         [[rt]]\nformat = \"R8_UNORM\"\n",
    )
    .unwrap();
    fails_naming(&["agx", "epilog", "--key", k], "dual-source");
    let big = format!(
        "samples = 2\n{}",
        "[[rt]]\nformat = \"R32G32B32A32_FLOAT\"\n".repeat(5)
    );
    std::fs::write(&key, big).unwrap();
    fails_naming(&["agx", "epilog", "--key", k], "spilled");
    std::fs::write(&key, "[[rt]]\nformat = \"R8G8B8A8_UNORM\"\nsize = 24\n").unwrap();
    fails_naming(&["agx", "epilog", "--key", k], "rt[0].size");
}
