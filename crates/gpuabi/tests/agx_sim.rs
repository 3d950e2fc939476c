//! `gpuabi agx sim` end to end; expected states worked out by hand from applegpu's
//! descriptions of the instructions.

mod common;

use common::{fails_naming, json, ok, scratch};

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn if_else_pop_exec_split_the_lanes() {
    let dir = scratch("agx-sim-if");
    // Lanes 0..15 take the `if` side (r2 = lane + 100), lanes 16..31 the `else` side
    // (r2 = 7); `pop_exec` leaves every lane active with r0l = 0.
    let src = write(
        &dir,
        "p.s",
        "mov r1, thread_in_grid_x\nif r1, 16, 1, ult\niadd r2, r1, 100\nelse r1, 16, 1, ugte\n\
         ldimm r2, 7\npop_exec 1\nstop\n",
    );
    let v = json(&["agx", "sim", &src, "--format", "json"]);
    assert_eq!(v["exec"], "0xffffffff");
    let r2 = v["registers"]["r2"].as_array().unwrap();
    assert_eq!(r2.len(), 32);
    for (lane, value) in r2.iter().enumerate() {
        let want = if lane < 16 { 100 + lane } else { 7 };
        assert_eq!(value, &format!("{want:#010x}"), "lane {lane}");
    }
    assert_eq!(v["registers"]["r0"][31], "0x00000000");
    let text = ok(&["agx", "sim", &src]);
    assert!(text.starts_with("exec 0xffffffff\nr0 "), "{text}");
}

#[test]
fn loads_read_the_given_memory() {
    let dir = scratch("agx-sim-load");
    let src = write(&dir, "l.s", "load r0_r1, du4, 1, i32, xy, a\nwait a\n");
    // Base 0x10000 from u4:u5, index 1 element of 4 bytes: reads words 1 and 2.
    let state = write(
        &dir,
        "s.json",
        r#"{"exec": "0x00000003", "uniforms": {"du4": "0x10000"},
            "registers": {"r1": "0xdead"},
            "memory": [{"address": "0x10000", "bytes": "000000000100000002000000"}]}"#,
    );
    let v = json(&["agx", "sim", &src, "--state", &state, "--format", "json"]);
    let (r0, r1) = (&v["registers"]["r0"], &v["registers"]["r1"]);
    assert_eq!(r0[0], "0x00000001");
    assert_eq!(r1[1], "0x00000002");
    // Lane 2 is inactive: untouched.
    assert_eq!(r0[2], "0x00000000");
    assert_eq!(r1[2], "0x0000dead");
    assert_eq!(v["memory"][0]["address"], "0x10000");
}

#[test]
fn errors_name_the_place() {
    let dir = scratch("agx-sim-errors");
    let load = write(&dir, "l.s", "ldimm r0l, 0\nload r4, du8, 0, i32, x, a\n");
    fails_naming(&["agx", "sim", &load], "byte offset 4");
    fails_naming(&["agx", "sim", &load], "lane 0 reads unmapped address 0x0");
    let soft = write(&dir, "soft.json", r#"{"soft_fault": true}"#);
    ok(&["agx", "sim", &load, "--state", &soft]);
    let spin = write(&dir, "spin.s", "top: jmp_any top\n");
    fails_naming(
        &["agx", "sim", &spin, "--max-steps", "50"],
        "stopped after 50",
    );
    let bad = write(&dir, "bad.json", r#"{"registers": {"r0": [1, 2]}}"#);
    fails_naming(
        &["agx", "sim", &load, "--state", &bad],
        "registers.r0: expected 32 lane values",
    );
    let key = write(&dir, "key.json", r#"{"exce": "0x1"}"#);
    fails_naming(
        &["agx", "sim", &load, "--state", &key],
        "unknown key `exce`",
    );
}

#[test]
fn fragment_context_from_the_state_file() {
    let dir = common::scratch("agx-sim-fragment");
    let code = dir.join("f.s");
    std::fs::write(
        &code,
        "iter r4, cf0\nst_tile r4, 0, 255, 0, u8norm, x\nzs_emit 255, r4\n",
    )
    .unwrap();
    let state = dir.join("fs.json");
    std::fs::write(
        &state,
        r#"{"exec": "0x3", "fragment": {"width": 2, "height": 1, "samples": 1,
            "sample_size": 4, "cf": [[0.25, 0, 0]]}}"#,
    )
    .unwrap();
    let v = common::json(&[
        "agx",
        "sim",
        code.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--format",
        "json",
    ]);
    // Pixel centres x = 0.5 and 1.5: 0.25·x = 0.125 and 0.375; as u8norm 31.875 -> 32 and
    // 95.625 -> 96.
    assert_eq!(v["registers"]["r4"][0], "0x3e000000");
    assert_eq!(v["registers"]["r4"][1], "0x3ec00000");
    assert_eq!(v["fragment"]["tib"], "2000000060000000");
    assert_eq!(v["fragment"]["depth"][1], "0x3ec00000");
    std::fs::write(
        &state,
        r#"{"fragment": {"width": 2, "height": 1, "samples": 3, "sample_size": 4}}"#,
    )
    .unwrap();
    common::fails_naming(
        &[
            "agx",
            "sim",
            code.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
        ],
        "fragment",
    );
}
