//! The 300 programs of `data/agx-exec/cases.json` of the shared test data, with start and end states from
//! applegpu's emulator: the simulator reaches every end state.

use gpuabi_agx_sim::{run, Region, State, LANES};
use serde_json::Value;

fn data() -> Option<Value> {
    let path = gpuabi_testdata::shared_data("agx-exec")?.join("cases.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(serde_json::from_str(&text).expect("cases.json is JSON"))
}

fn hex_u64(v: &Value) -> u64 {
    let s = v.as_str().expect("hex string");
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `rN` → half index 2N.
fn reg_half(name: &str) -> u32 {
    2 * name[1..].parse::<u32>().expect("register number")
}

fn start_state(case: &Value) -> State {
    let s = &case["state"];
    let mut st = State {
        exec: hex_u64(&s["exec"]) as u32,
        soft_fault: s["soft_fault"].as_bool().unwrap_or(false),
        ..State::default()
    };
    for (name, lanes) in s["registers"].as_object().expect("registers") {
        for (lane, v) in lanes.as_array().expect("32 values").iter().enumerate() {
            st.set_gpr(lane, reg_half(name), 32, hex_u64(v)).unwrap();
        }
    }
    for (name, v) in s["uniforms"].as_object().expect("uniforms") {
        st.set_uniform(reg_half(name), 32, hex_u64(v)).unwrap();
    }
    for m in s["memory"].as_array().expect("memory") {
        st.memory.push(Region {
            address: hex_u64(&m["address"]),
            bytes: hex_bytes(m["bytes"].as_str().expect("bytes")),
        });
    }
    st
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn applegpu_end_states() {
    let Some(cases) = data() else { return };
    let cases = cases.as_array().expect("array");
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let code = hex_bytes(case["code"].as_str().expect("code"));
        let start = start_state(case);
        let mut st = start.clone();
        if let Err(e) = run(&code, &mut st, 10_000) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        let mut bad = Vec::new();
        let expect = case["expect"]["registers"].as_object().expect("expect");
        for (reg, lanes) in expect {
            for (lane, v) in lanes.as_array().expect("32 values").iter().enumerate() {
                let got = st.read_gpr(lane, reg_half(reg), 32).unwrap();
                if got != hex_u64(v) {
                    bad.push(format!(
                        "{reg}[{lane}] = {got:#010x}, want {}",
                        v.as_str().unwrap_or("")
                    ));
                }
            }
        }
        // Every register not listed as written keeps its start value and is not marked
        // written.
        for h in (0..gpuabi_agx_sim::GPR_HALVES as u32).step_by(2) {
            if expect.contains_key(&format!("r{}", h / 2)) {
                continue;
            }
            if st.written[h as usize] || st.written[h as usize + 1] {
                bad.push(format!("r{} marked written", h / 2));
            }
            for lane in 0..LANES {
                if st.read_gpr(lane, h, 32).unwrap() != start.read_gpr(lane, h, 32).unwrap() {
                    bad.push(format!("r{}[{lane}] changed", h / 2));
                }
            }
        }
        if bad.is_empty() {
            passed += 1;
        } else {
            let text: Vec<&str> = case["text"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t.as_str())
                .collect();
            failures.push(format!(
                "{name}: {} ({:?})",
                bad[..bad.len().min(3)].join("; "),
                text
            ));
        }
    }
    eprintln!(
        "agx-exec: {passed}/{} programs reach the expected end state",
        cases.len()
    );
    for f in failures.iter().take(30) {
        eprintln!("  {f}");
    }
    assert_eq!(cases.len(), 300);
    assert_eq!(passed, cases.len(), "{} programs differ", failures.len());
}
