//! `gpuabi catalyst layout`: behaviour of the command line (formats, flags, errors).

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use common::printed_u32s;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/catalyst")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuabi"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuabi-catalyst-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn json_of_spec_example_e1() {
    let e1 = examples().join("e1.cl");
    let out = ok(&[
        "catalyst",
        "layout",
        e1.to_str().unwrap(),
        "--dims",
        "x",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kernel"], "add");
    assert_eq!(v["driver"], 170203);
    assert_eq!(v["device"], "pitcairn");
    assert_eq!(v["bits"], 32);
    assert_eq!(v["args"][1]["offset"], 16);
    assert_eq!(v["args"][1]["kind"], "pointer");
    assert_eq!(v["args"][1]["resource"]["space"], "uav");
    assert_eq!(v["args"][1]["resource"]["id"], 12);
    assert_eq!(v["args"][0]["resource"], serde_json::Value::Null);
    assert_eq!(v["userdata"][0]["class"], "PTR_UAV_TABLE");
    assert_eq!(v["user_sgprs"], 12);
    assert_eq!(v["pgm_rsrc2"], 0x98);
    assert_eq!(v["group_id_sgprs"][0], "s12");
    assert_eq!(v["local_id_vgprs"][0], "v0");
    assert_eq!(v["header"].as_array().unwrap().len(), 8);
    for field in [
        "uavid",
        "cbid",
        "printfid",
        "privateid",
        "uavprivate",
        "tg_size_sgpr",
        "scratch_offset_sgpr",
        "sgprs",
        "vgprs",
        "uav_note",
        "cbmask",
        "inputs",
        "input_samplers",
        "metadata",
    ] {
        assert!(v.get(field).is_some(), "missing {field}");
    }
}

#[test]
fn flags_reach_the_engine() {
    let e2 = examples().join("e2.cl");
    let e2 = e2.to_str().unwrap();
    let out = ok(&[
        "catalyst", "layout", e2, "--driver", "101604", "--dims", "x", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["uavid"], 9);
    assert_eq!(v["args"][0]["resource"]["id"], 10);
    let out = ok(&[
        "catalyst",
        "layout",
        e2,
        "--userdata",
        "none",
        "--dims",
        "xy",
        "--tgsize",
        "--scratch",
        "64",
        "--bits",
        "64",
        "--device",
        "tonga",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["user_sgprs"], 2);
    assert_eq!(v["group_id_sgprs"], serde_json::json!(["s2", "s3"]));
    assert_eq!(v["tg_size_sgpr"], "s4");
    assert_eq!(v["scratch_offset_sgpr"], "s5");
    assert_eq!(v["bits"], 64);
    assert_eq!(
        v["proginfo"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e[0] == 0x8000_1863_u32)
            .unwrap()[1],
        100
    );
    let out = ok(&[
        "catalyst",
        "layout",
        e2,
        "--userdata",
        "IMM_UAV,12,2,4; imm_const_buffer,1,6,4",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["user_sgprs"], 10);
    assert_eq!(v["userdata"][1]["class"], "IMM_CONST_BUFFER");
}

#[test]
fn every_format_prints() {
    let mixed = examples().join("mixed.cl");
    let m = mixed.to_str().unwrap();
    assert!(ok(&["catalyst", "layout", m, "--dims", "xy"]).contains("cb1 (arguments"));
    assert!(ok(&["catalyst", "layout", m, "--format", "svg"]).starts_with("<svg"));
    let clrx = ok(&["catalyst", "layout", m, "--dims", "xy", "--format", "clrx"]);
    assert!(clrx.contains(".kernel mixed\n    .config\n        .dims xy\n"));
    assert!(clrx.contains(".arg spare, int*, global, , 11, unused"));
    let toml = examples().join("scale.toml");
    assert!(ok(&[
        "catalyst",
        "layout",
        toml.to_str().unwrap(),
        "--format",
        "clrx"
    ])
    .contains(".arg out, float*, global, , 20"));
    let json = examples().join("explicit_ids.json");
    let out = ok(&[
        "catalyst",
        "layout",
        json.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["args"][0]["resource"]["id"], 13);
}

#[test]
fn bad_source_gives_located_message() {
    let p = temp(
        "bad.cl",
        "// comment\nkernel void k(int a,\n    float* p) {}\n",
    );
    let err = fails(&["catalyst", "layout", p.to_str().unwrap()]);
    assert!(
        err.contains("bad.cl:3:10: pointer argument 'p' needs an address space"),
        "{err}"
    );
    // The source line and a caret follow.
    assert!(err.contains("float* p"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn bad_description_and_flags() {
    let p = temp(
        "bad.json",
        "{\"kernel\": \"k\", \"args\": [ {\"name\": \"a\", \"type\": \"global floatx*\"} ]}",
    );
    let err = fails(&["catalyst", "layout", p.to_str().unwrap()]);
    assert!(
        err.contains("args[0]") && err.contains("unknown type 'floatx'"),
        "{err}"
    );
    let p = temp("syntax.toml", "kernel = \"k\"\nargs = [ { name = 1 } ]\n");
    let err = fails(&["catalyst", "layout", p.to_str().unwrap()]);
    assert!(err.contains("syntax.toml:2:"), "{err}");
    let e1 = examples().join("e1.cl");
    let e1 = e1.to_str().unwrap();
    assert!(fails(&["catalyst", "layout", e1, "--device", "gfx900"]).contains("--device"));
    assert!(fails(&["catalyst", "layout", e1, "--device", "gfx900"])
        .contains("Unsupported GPU device type"));
    assert!(fails(&["catalyst", "layout", e1, "--dims", "xw"]).contains("--dims"));
    assert!(
        fails(&["catalyst", "layout", e1, "--userdata", "IMM_UAV,0,14,4"])
            .contains("RegStart+RegSize out of range")
    );
    assert!(fails(&["catalyst", "layout", e1, "--userdata", "FOO,0,2,2"]).contains("--userdata"));
    assert!(fails(&["catalyst", "layout", e1, "--kernel", "nope"]).contains("no kernel `nope`"));
    assert!(fails(&["catalyst", "layout", e1, "--hwlocal", "40000"]).contains("hwlocal"));
    assert!(fails(&["catalyst", "layout", e1, "--bits", "16"]).contains("16"));
    assert!(fails(&["catalyst", "layout", "/nonexistent.cl"]).contains("cannot read"));
}

/// The shared test data's AMD Catalyst binaries with their sources, or `None` after
/// saying why.
fn amd_catalyst_data() -> Option<PathBuf> {
    common::shared_data("amd-catalyst")
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn inspect_json_has_the_shape_of_layout_json() {
    let Some(dir) = amd_catalyst_data() else {
        return;
    };
    let clo = dir.join("samplekernels.clo");
    let cl = dir.join("samplekernels.cl");
    let bin: serde_json::Value = serde_json::from_str(&ok(&[
        "catalyst",
        "inspect",
        clo.to_str().unwrap(),
        "--kernel",
        "add",
        "--format",
        "json",
    ]))
    .unwrap();
    let lay: serde_json::Value = serde_json::from_str(&ok(&[
        "catalyst",
        "layout",
        cl.to_str().unwrap(),
        "--kernel",
        "add",
        "--dims",
        "x",
        "--format",
        "json",
    ]))
    .unwrap();
    let bin_keys = keys(&bin);
    for k in keys(&lay) {
        assert!(bin_keys.contains(&k), "inspect JSON lacks '{k}'");
    }
    let arg_keys = keys(&bin["args"][1]);
    for k in keys(&lay["args"][1]) {
        assert!(arg_keys.contains(&k), "inspect argument lacks '{k}'");
    }
    for field in ["kernel", "userdata", "pgm_rsrc2", "uav_mask", "header"] {
        assert_eq!(bin[field], lay[field], "{field}");
    }
    // A binary records `used` for UAV pointers only (the UAV mask).
    assert_eq!(bin["args"][0]["used"], serde_json::Value::Null);
    let mut bin_args = bin["args"].clone();
    let mut lay_args = lay["args"].clone();
    for a in bin_args
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .chain(lay_args.as_array_mut().unwrap())
    {
        a.as_object_mut().unwrap().remove("used");
    }
    assert_eq!(bin_args, lay_args);
    assert_eq!(bin["args"][3]["used"], true);
    assert_eq!(bin["options"], serde_json::Value::Null);
    let text = bin["disassembly"].as_str().unwrap();
    assert!(text.contains("\tv_add_i32 v1, vcc, v1, v2\n"), "{text}");
    assert_eq!(bin["code"]["size"], 132);

    // The whole file: both kernels, and the text form.
    let all: serde_json::Value = serde_json::from_str(&ok(&[
        "catalyst",
        "inspect",
        clo.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(all["kernels"].as_array().unwrap().len(), 2);
    assert_eq!(all["driver"], 170203);
    let text = ok(&["catalyst", "inspect", clo.to_str().unwrap()]);
    assert!(text.contains("kernel multiply") && text.contains("PTR_UAV_TABLE(0)"));
    let e = fails(&[
        "catalyst",
        "inspect",
        clo.to_str().unwrap(),
        "--kernel",
        "sub",
    ]);
    assert!(e.contains("--kernel") && e.contains("add, multiply"), "{e}");
}

/// `catalyst inspect` reads every binary of the shared AMD data: the kernels the data's
/// README lists, each with a disassembly of its code, and the driver of their headers
/// (1702.3).
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn inspect_reads_every_shared_binary() {
    let Some(dir) = amd_catalyst_data() else {
        return;
    };
    let expected = [
        ("alltypes", vec!["myKernel"]),
        ("samplekernels", vec!["add", "multiply"]),
        ("structkernel2", vec!["myKernel1"]),
    ];
    for (stem, kernels) in expected {
        for (file, bits) in [(format!("{stem}.clo"), 32), (format!("{stem}_64.clo"), 64)] {
            let path = dir.join(&file);
            let json: serde_json::Value = serde_json::from_str(&ok(&[
                "catalyst",
                "inspect",
                path.to_str().unwrap(),
                "--format",
                "json",
            ]))
            .unwrap();
            assert_eq!(json["driver"], 170203, "{file}");
            assert_eq!(json["bits"], bits, "{file}");
            let found = json["kernels"].as_array().unwrap();
            let names: Vec<&str> = found
                .iter()
                .map(|k| k["kernel"].as_str().unwrap())
                .collect();
            assert_eq!(names, kernels, "{file}");
            for k in found {
                let text = k["disassembly"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{file}"));
                assert!(text.contains("s_endpgm"), "{file}: {text}");
            }
        }
    }
}

#[test]
fn inspect_refuses_files_that_are_not_binaries() {
    let p = temp("not.clo", "kernel void k() {}");
    let e = fails(&["catalyst", "inspect", p.to_str().unwrap()]);
    assert!(e.contains("not.clo") && e.contains("outer ELF"), "{e}");
}

#[test]
fn notes_flag_selects_amd_notes() {
    let e1 = examples().join("e1.cl");
    let run = |notes: &str| -> serde_json::Value {
        serde_json::from_str(&ok(&[
            "catalyst",
            "layout",
            e1.to_str().unwrap(),
            "--format",
            "json",
            "--notes",
            notes,
        ]))
        .unwrap()
    };
    // E1 has three global pointers (uav 12-14); AMD adds [uavid 11, 4, 0, 5].
    assert_eq!(run("clrx")["uav_note"].as_array().unwrap().len(), 3);
    assert_eq!(run("amd")["uav_note"][3], serde_json::json!([11, 4, 0, 5]));
    assert_eq!(run("amd")["options"]["notes"], "amd");
    let e = fails(&["catalyst", "layout", e1.to_str().unwrap(), "--notes", "x"]);
    assert!(e.contains("--notes"), "{e}");
}

/// AMD's compiled `add` and `multiply` (samplekernels.clo, 32- and 64-bit) run in the
/// simulator from the binary's own dispatch; `cdat` must hold what samplekernels.cl says:
/// the operator of `cdat[gid] = adat[gid] OP bdat[gid]` read from the source, applied with
/// 32-bit wrap-around for `gid < n`, and nothing written from `n` on.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn catalyst_binaries_run_as_their_source_says() {
    let Some(dir) = amd_catalyst_data() else {
        return;
    };
    let source = std::fs::read_to_string(dir.join("samplekernels.cl")).unwrap();
    let items = 192u32;
    let n = 150u32;
    let a: Vec<u32> = (0..items)
        .map(|i| 0x0001_0000u32.wrapping_add(i.wrapping_mul(7919)))
        .collect();
    let b: Vec<u32> = (0..items).map(|i| 0x0002_0001 + 31 * i).collect();
    let list = |v: &[u32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    for file in ["samplekernels.clo", "samplekernels_64.clo"] {
        for kernel in ["add", "multiply"] {
            let body = &source[source.find(&format!("void {kernel}(")).unwrap()..];
            let formula = body[body.find("cdat[gid] =").unwrap()..]
                .split(';')
                .next()
                .unwrap();
            let op = if formula.contains('+') { '+' } else { '*' };
            assert!(formula.contains(op), "{formula}");
            let out = ok(&[
                "sim",
                "run",
                dir.join(file).to_str().unwrap(),
                "--kernel",
                kernel,
                "--global",
                &items.to_string(),
                "--local",
                "64",
                "--buffer",
                &format!("a=u32:{}", list(&a)),
                "--buffer",
                &format!("b=u32:{}", list(&b)),
                "--buffer",
                &format!("c=u32:{}", list(&vec![0xdead_beef; items as usize])),
                "--arg",
                &format!("n={n}"),
                "--arg",
                "adat=@a",
                "--arg",
                "bdat=@b",
                "--arg",
                "cdat=@c",
                "--print",
                "c",
            ]);
            let c = printed_u32s(&out, "c");
            assert_eq!(c.len(), items as usize, "{file} {kernel}:\n{out}");
            for i in 0..items as usize {
                let want = if (i as u32) < n {
                    match op {
                        '+' => a[i].wrapping_add(b[i]),
                        _ => a[i].wrapping_mul(b[i]),
                    }
                } else {
                    0xdead_beef
                };
                assert_eq!(c[i], want, "{file} {kernel}: cdat[{i}]");
            }
        }
    }
    // A truncated binary is an error naming the file, never a panic.
    let data = std::fs::read(dir.join("samplekernels.clo")).unwrap();
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("truncated.clo");
    for len in [16, 600, 4000, data.len() - 100] {
        std::fs::write(&tmp, &data[..len]).unwrap();
        let err = fails(&["sim", "run", tmp.to_str().unwrap(), "--kernel", "add"]);
        assert!(err.contains("truncated.clo"), "{len}: {err}");
    }
}

/// `sim run` of AMD's own image and printf kernels (CLRX's `prginfo4_14_12` and
/// `prginfo8_14_12`, driver 1642.5): `imageTransform` writes `read_imageui(inimg, samp1,
/// pos) * 2` into `outimg` (prginfo4.cl; the integer texel itself, as `read_imageui`
/// through a linear sampler reads the nearest texel); `kernelPrintf` leaves, per
/// work-item, the write pointer 6 and one record: format id 0, the three global ids and
/// `input[gid]` (prginfo8.cl's `printf("Hello world: %zu,%zu,%zu: %u\n", ...)`, `size_t`
/// taking a dword in a 32-bit binary). Bad image arguments are errors naming the flag.
#[test]
#[cfg_attr(
    gpuabi_no_clrx,
    ignore = "needs a checkout of CLRX's repository in GPUABI_CLRX_DIR"
)]
fn clrx_image_and_printf_kernels_run() {
    let Some(clrx) = common::clrx_dir() else {
        return;
    };
    let dir = clrx.join("tests/amdbin/amdbins");
    let texels: Vec<u32> = (0..64 * 4).map(|i| 3 * i + 1).collect();
    let list = |v: &[u32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let prginfo4 = dir.join("prginfo4_14_12.clo.1_0.regen");
    let image_run = |inimg: &str| {
        vec![
            "sim".to_string(),
            "run".into(),
            prginfo4.to_str().unwrap().into(),
            "--kernel".into(),
            "imageTransform".into(),
            "--grid".into(),
            "8,8".into(),
            "--group".into(),
            "4,4".into(),
            "--buffer".into(),
            format!("a=u32:{}", list(&texels)),
            "--buffer".into(),
            "b=1K".into(),
            "--arg".into(),
            format!("inimg={inimg}"),
            "--arg".into(),
            "outimg=@b:rgba_uint32:8x8".into(),
            "--print".into(),
            "b".into(),
        ]
    };
    let args = image_run("@a:rgba_uint32:8x8");
    let out = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let b = printed_u32s(&out, "b");
    assert_eq!(b, texels.iter().map(|t| t * 2).collect::<Vec<_>>(), "{out}");
    for (bad, says) in [
        ("@a:rgba_uint32", "WxH"),
        ("@a:bgra_uint8:8x8", "ORDER_TYPE"),
        ("@a:rgba_uint32:8x0", "image size"),
        ("@nope:rgba_uint32:8x8", "no buffer `nope`"),
        ("@a:rgba_uint32:16x16", "needs 4096"),
    ] {
        let args = image_run(bad);
        let e = fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(e.contains(says), "{bad}: {e}");
    }

    let prginfo8 = dir.join("prginfo8_14_12.clo.1_0.regen");
    let input = [5u32, 6, 7, 8];
    let out = ok(&[
        "sim",
        "run",
        prginfo8.to_str().unwrap(),
        "--kernel",
        "kernelPrintf",
        "--grid",
        "4",
        "--group",
        "4",
        "--buffer",
        &format!("in=u32:{}", list(&input)),
        "--arg",
        "input=@in",
        "--print",
        "printf",
    ]);
    let p = printed_u32s(&out, "printf");
    let per_item = gpuabi_sim::catalyst::PRINTF_DWORDS_PER_ITEM as usize;
    assert_eq!(p.len(), 4 * per_item, "{out}");
    for (i, v) in input.iter().enumerate() {
        let item = &p[i * per_item..(i + 1) * per_item];
        assert_eq!(item[..6], [6, 0, i as u32, 0, 0, *v], "work-item {i}");
        assert!(item[6..].iter().all(|&w| w == 0), "work-item {i}");
    }
}
