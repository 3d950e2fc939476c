//! `gpuabi sim check-function` through the built binary, on RADV's functions under
//! `examples/aco` (the project's capture of Mesa 26.1.6, navi31 `many_ahit`: 12 bytes of
//! payload, 16 of hit attributes).

mod common;

use common::{fails_naming, gpuabi, json};

const ANY_HIT: &str = "examples/aco/radv_any_hit_gfx1100.s";
const CLOSEST_HIT: &str = "examples/aco/radv_closest_hit_gfx1100.s";

fn args<'a>(file: &'a str, abi: &'a str, stage: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "sim",
        "check-function",
        file,
        "--abi",
        abi,
        "--stage",
        stage,
        "--payload",
        "12",
        "--hit-attribs",
        "16",
        "--target",
        "gfx1100",
    ];
    a.extend_from_slice(extra);
    a
}

#[test]
fn radvs_any_hit_function_passes() {
    let run = gpuabi(&args(ANY_HIT, "ahit-isec", "any-hit", &["--trials", "200"]));
    assert!(run.success(), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("ABI ahit-isec, gfx1100 wave32: 200 trials from seed 0: 0 violations"),
        "{}",
        run.stdout
    );
    let report = json(&args(
        ANY_HIT,
        "ahit-isec",
        "any-hit",
        &["--trials", "50", "--format", "json", "--seed", "0x5eed"],
    ));
    assert_eq!(report["abi"], "ahit-isec");
    assert_eq!(report["trials"], 50);
    assert_eq!(report["violations"].as_array().unwrap().len(), 0);
    assert!(report["function"].as_str().unwrap().contains("BB0"));
}

#[test]
fn a_violation_fails_the_run_and_is_listed_in_json() {
    // RADV's closest hit loses the inactive lanes of its linear VGPR v95 across its trace
    // call (see crates/gpuabi-sim/tests/check_function.rs).
    let run = gpuabi(&args(
        CLOSEST_HIT,
        "rt-recursive",
        "closest-hit",
        &["--trials", "50", "--format", "json"],
    ));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("violations"), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let violations = report["violations"].as_array().unwrap();
    assert!(!violations.is_empty());
    for v in violations {
        for field in ["trial", "kind", "register", "lane", "instruction", "line"] {
            assert!(v.get(field).is_some(), "{field} missing in {v}");
        }
    }
    // The trace of a trial lists the instructions and the call to the callee stub.
    let run = gpuabi(&args(
        CLOSEST_HIT,
        "rt-recursive",
        "closest-hit",
        &["--trials", "1", "--trace", "0"],
    ));
    assert!(
        run.stdout.contains("s_swappc_b64 s[0:1], s[2:3]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("callee stub at 0x"), "{}", run.stdout);
}

#[test]
fn bad_flags_are_named() {
    fails_naming(
        &args(ANY_HIT, "llvm-gfx", "any-hit", &[]),
        "--stage: RADV's stages use Mesa's ABIs",
    );
    fails_naming(
        &args(ANY_HIT, "no-such-abi", "any-hit", &[]),
        "unknown ABI `no-such-abi`",
    );
    fails_naming(
        &args(ANY_HIT, "ahit-isec", "any-hit", &["--function", "nowhere"]),
        "entry label `nowhere` is not defined",
    );
    fails_naming(
        &args(ANY_HIT, "ahit-isec", "hit-or-miss", &[]),
        "invalid value 'hit-or-miss' for '--stage <STAGE>'",
    );
    fails_naming(
        &[
            "sim",
            "check-function",
            ANY_HIT,
            "--abi",
            "ahit-isec",
            "--target",
            "gfx1100",
        ],
        "--stage",
    );
}

/// RADV's gfx1201 (RDNA 4) miss function of the shared capture (32 bytes of payload, 28 of
/// hit attributes: `data/mesa/README.md` of the shared test data), through the binary:
/// `asm check --encodings` takes the target from ACO's listing and `sim check-function`
/// finds no violation.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn radvs_gfx1201_miss_function_assembles_and_passes() {
    let Some(dir) = gpuabi_testdata::shared_data("mesa/radv/gfx1201") else {
        return;
    };
    let file = dir.join("plain/01_miss.Assembly.txt");
    let file = file.to_str().unwrap();
    let run = gpuabi(&["asm", "check", "--encodings", file]);
    assert!(run.success(), "{}", run.stderr);
    assert!(run.stdout.contains("(gfx12 wave32)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("listed encodings equal"),
        "{}",
        run.stdout
    );
    let mut a = args(file, "rt-recursive", "miss", &["--trials", "50"]);
    for (i, v) in [(8, "32"), (10, "28"), (12, "gfx1201")] {
        a[i] = v;
    }
    let run = gpuabi(&a);
    assert!(run.success(), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("ABI rt-recursive, gfx12 wave32: 50 trials from seed 0: 0 violations"),
        "{}",
        run.stdout
    );
}
