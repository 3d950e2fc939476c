//! The JSON API on small programs whose results are worked out by hand here.

use serde_json::{json, Value};

fn call(f: fn(&str) -> String, request: Value) -> Value {
    serde_json::from_str(&f(&request.to_string())).expect("the answer is JSON")
}

/// A kernel whose invocation `i` adds 3 to `i` through a call and stores the result at
/// `out[i]`, when `i < n`.
const ADD3: &str = "\
fn @add3(%v: i32, %r: i32 return) {
  %s = add i32 %v, 3
  ret %s
}

fn @k(%out: ptr uniform, %n: i32 uniform) kernel {
  %i = global_id 0
  %in = icmp ult i32 %i, %n
  if %in {
    %z = const i32 0
    %x = call @add3(%i, %z)
    %o = mul i32 %i, 4
    %p = ptradd %out, %o
    store i32 %x, %p
  }
  ret
}
";

fn words(hex: &str) -> Vec<u32> {
    (0..hex.len() / 8)
        .map(|w| {
            let byte = |b: usize| u32::from_str_radix(&hex[w * 8 + b * 2..][..2], 16).unwrap();
            byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24
        })
        .collect()
}

#[test]
fn a_valid_module_is_described() {
    let a = call(gpuabi_web::check_json, json!({"source": ADD3}));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["result"]["functions"], 2);
    assert_eq!(a["result"]["kernels"][0]["name"], "k");
    assert_eq!(
        a["result"]["kernels"][0]["params"],
        json!([["out", "ptr"], ["n", "i32"]])
    );
}

#[test]
fn an_error_is_at_its_line_and_column() {
    // `%nope` is not defined: line 2, at the column where it starts.
    let source = ADD3.replace("%s = add i32 %v, 3", "%s = add i32 %nope, 3");
    let line2 = source.lines().nth(1).unwrap();
    let column = line2.find("%nope").unwrap() + 1;
    let a = call(gpuabi_web::check_json, json!({"source": source}));
    assert_eq!(a["ok"], false, "{a}");
    assert_eq!(a["error"]["kind"], "source");
    let d = &a["error"]["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(column as u64)),
        "{d}"
    );
    assert!(
        d["rendered"].as_str().unwrap().contains("input.gsir:2:"),
        "{d}"
    );
    // The compiler and the runner report the same diagnostics.
    let c = call(
        gpuabi_web::compile_json,
        json!({"source": source, "target": "gfx1100"}),
    );
    assert_eq!(c["error"]["diagnostics"], a["error"]["diagnostics"]);
}

#[test]
fn not_json_is_a_request_error() {
    let a: Value = serde_json::from_str(&gpuabi_web::check_json("{")).unwrap();
    assert_eq!(
        (a["ok"].clone(), a["error"]["kind"].clone()),
        (json!(false), json!("request"))
    );
}

#[test]
fn the_call_frame_names_its_registers_and_instructions() {
    let a = call(
        gpuabi_web::compile_json,
        json!({"source": ADD3, "target": "gfx1100"}),
    );
    assert_eq!(a["ok"], true, "{a}");
    let r = &a["result"];
    assert_eq!(
        (r["target"].as_str(), r["wave"].as_u64()),
        (Some("gfx1100"), Some(32))
    );
    let asm: Vec<&str> = r["assembly"].as_str().unwrap().lines().collect();
    let calls = r["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1);
    let k = &calls[0];
    assert_eq!(
        (k["caller"].as_str(), k["callee"].as_str()),
        (Some("k"), Some("add3"))
    );
    // The listing line the frame names is the call.
    let line = k["line"].as_u64().unwrap() as usize;
    assert!(asm[line - 1].contains("s_swappc_b64"), "{}", asm[line - 1]);
    // The call is the instruction on line 11 of the source, `%x = call ...`.
    let col = ADD3.lines().nth(10).unwrap().find("%x").unwrap() + 1;
    assert_eq!(k["source"], json!([11, col]));
    // The callee's IR parameters by name, each in a register that the listing moves a
    // value into before the call.
    let params = k["params"].as_array().unwrap();
    let v = params.iter().find(|p| p["ir_name"] == "v").expect("%v");
    let reg = v["location"].as_str().unwrap();
    assert!(reg.starts_with('v'), "{v}");
    let before_call = asm[..line - 1].join("\n");
    assert!(before_call.contains(reg), "{reg} is set before the call");
    // Every overhead instruction is an instruction line of the caller before or after the
    // call, not a label or a directive.
    for i in k["instructions"].as_array().unwrap() {
        let l = asm[i["line"].as_u64().unwrap() as usize - 1];
        assert!(l.starts_with('\t') && !l.starts_with("\t."), "{l}");
    }
    // A register is either preserved or clobbered below the limit, never both.
    let pre = k["preserved"]["vgpr"].as_array().unwrap();
    let clob = k["clobbered"]["vgpr"].as_array().unwrap();
    assert!(!pre.is_empty() || !clob.is_empty());
    for p in pre {
        assert!(!clob.contains(p), "{p}");
    }
}

#[test]
fn a_run_in_the_interpreter_and_the_simulator() {
    let a = call(
        gpuabi_web::run_json,
        json!({
            "source": ADD3, "grid": "40", "group": "8",
            "buffers": ["out=u32:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,7,7,7,7,7,7,7,7,7,7,7,7"],
            "args": ["n=36"], "target": {"target": "gfx1100"}
        }),
    );
    assert_eq!(a["ok"], true, "{a}");
    let r = &a["result"];
    // out[i] = i + 3 for i < 36; the last 8 words stay as they were (7, and 36..40 skip).
    let mut want: Vec<u32> = (0..36).map(|i| i + 3).collect();
    want.extend([7; 8]);
    let interp = &r["interpreter"]["Ok"];
    assert_eq!(interp["invocations"], 40);
    assert_eq!(words(interp["buffers"][0]["hex"].as_str().unwrap()), want);
    let sim = &r["simulator"]["Ok"];
    assert_eq!(words(sim["buffers"][0]["hex"].as_str().unwrap()), want);
    assert_eq!(r["identical"], true);
    assert_eq!(sim["violations"], json!([]));
    // Groups of 8 in wave32: five waves of one group each, each reaching the call once
    // (the last with lanes 32 to 35 active).
    assert_eq!(sim["stats"]["waves"], 5);
    assert_eq!(sim["stats"]["calls"], 5);
    assert_eq!(sim["checked_returns"], 5);
    assert_eq!(sim["sites"][0]["callee"], "add3");
}

#[test]
fn launch_flags_are_refused_by_name() {
    let base = json!({"source": ADD3, "grid": "1,2,3,4", "buffers": ["out=64"], "args": ["n=1"]});
    let a = call(gpuabi_web::run_json, base.clone());
    assert_eq!(a["error"]["flag"], "--grid", "{a}");
    assert!(a["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("--grid 1,2,3,4:"));
    let mut b = base.clone();
    b["grid"] = json!("4");
    b["args"] = json!([]);
    let a = call(gpuabi_web::run_json, b.clone());
    assert_eq!(
        a["error"]["message"],
        "missing --arg n=VALUE for parameter %n: i32 of @k"
    );
    b["args"] = json!(["n=1"]);
    b["buffers"] = json!(["out=64:file.bin"]);
    let a = call(gpuabi_web::run_json, b.clone());
    assert_eq!(a["error"]["flag"], "--buffer", "{a}");
    b["buffers"] = json!(["out=64"]);
    b["target"] = json!({"target": "gfx8", "wave": 32});
    let a = call(gpuabi_web::run_json, b);
    assert_eq!(a["error"]["flag"], "--wave", "{a}");
}

#[test]
fn an_out_of_range_store_stops_the_interpreter_at_its_line() {
    // n = 40 with a 36-word buffer: invocation 36 stores past the end, at line 14.
    let a = call(
        gpuabi_web::run_json,
        json!({"source": ADD3, "grid": "40", "buffers": ["out=144"], "args": ["n=40"]}),
    );
    let f = &a["result"]["interpreter"]["Err"];
    assert_eq!(f["at"], json!([14, 5]), "{a}");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("invocation [36, 0, 0]"),
        "{a}"
    );
    assert!(a["result"]["simulator"].is_null());
}

#[test]
fn aco_ranges_and_assign() {
    // A user ABI whose block clobbers everything (no `[block]`): nothing is preserved.
    let a = call(
        gpuabi_web::aco_ranges_json,
        json!({"abi": "name = \"mine\"\n", "target": "gfx1100", "limit": [104, 64]}),
    );
    assert_eq!(a["ok"], true, "{a}");
    let r = &a["result"]["report"];
    assert_eq!(
        (
            r["sgpr"]["num_preserved"].as_u64(),
            r["vgpr"]["num_preserved"].as_u64()
        ),
        (Some(0), Some(0)),
        "{r}"
    );
    assert_eq!(
        (
            r["sgpr"]["num_clobbered"].as_u64(),
            r["vgpr"]["num_clobbered"].as_u64()
        ),
        (Some(104), Some(64)),
        "{r}"
    );
    assert!(a["result"]["svg"].as_str().unwrap().starts_with("<svg"));
    let a = call(
        gpuabi_web::aco_assign_json,
        json!({"abi": "rt-recursive", "target": "gfx1100", "sig": "x: f32, y: u32 uniform"}),
    );
    assert_eq!(a["ok"], true, "{a}");
    let params = a["result"]["report"]["params"].as_array().unwrap();
    let loc = |n: &str| params.iter().find(|p| p["name"] == n).unwrap()["location"].clone();
    // A divergent f32 goes to a VGPR, a uniform u32 to an SGPR.
    assert!(loc("x").as_str().unwrap().starts_with('v'), "{params:?}");
    assert!(loc("y").as_str().unwrap().starts_with('s'), "{params:?}");
    let a = call(
        gpuabi_web::aco_assign_json,
        json!({"abi": "rt-recursive", "sig": "x: f33"}),
    );
    assert_eq!(a["error"]["flag"], "--sig", "{a}");
    assert!(
        a["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("--sig:1:"),
        "{a}"
    );
}

#[test]
fn every_example_is_embedded_and_valid() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut want: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".gsir"))
        .collect();
    want.sort();
    let list: Value = serde_json::from_str(&gpuabi_web::examples_json()).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, want);
    for e in list.as_array().unwrap() {
        let text =
            std::fs::read_to_string(format!("{dir}/{}", e["name"].as_str().unwrap())).unwrap();
        assert_eq!(e["source"], text);
        let a = call(gpuabi_web::check_json, json!({"source": text}));
        assert_eq!(a["ok"], true, "{}: {a}", e["name"]);
    }
}
