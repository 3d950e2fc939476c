//! check-function's engine on RADV's own code (the project's capture under
//! `testdata/mesa`, Mesa 26.1.6 on navi31, gfx1100 wave32) and on copies of it with one rule
//! of the call ABI broken: each breach is reported with its register and the line that
//! caused it.

use std::path::PathBuf;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::{LimitInputs, RtStage, Target as AcoTarget};
use gpuabi_sim::check_function::{
    check_function, CheckReport, FunctionSpec, InactiveLanes, Placement, Trials,
};
use gpuabi_sim::Image;

/// A function of the project's capture, `many_ahit` on navi31: RADV sizes its functions for
/// 12 bytes of payload and 16 of hit attributes.
fn capture(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/mesa/radv/navi31/many_ahit")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const PAYLOAD: u32 = 12;
const HIT_ATTRIBS: u32 = 16;

fn check(text: &str, stage: RtStage, trials: u32) -> CheckReport {
    let program = parse(text, Target::Gfx1100, WaveSize::W32).expect("the function assembles");
    let image = Image::new(&program).unwrap();
    let place = Placement {
        entry: "BB0".into(),
        name: "f".into(),
        target: Target::Gfx1100,
        wave: WaveSize::W32,
        limit: AcoTarget::new(Target::Gfx1100, 32)
            .unwrap()
            .default_limit(LimitInputs::default()),
    };
    let spec = FunctionSpec::for_stage(&place, stage, PAYLOAD, HIT_ATTRIBS, None).unwrap();
    check_function(&image, &spec, Trials::new(trials, 1)).unwrap()
}

/// The text with `line` inserted before the first line containing `before`.
fn insert_before(text: &str, before: &str, line: &str) -> (String, u32) {
    let mut out = String::new();
    let mut at = None;
    for (i, l) in text.lines().enumerate() {
        if at.is_none() && l.contains(before) {
            out.push_str(line);
            out.push('\n');
            at = Some(i as u32 + 1);
        }
        out.push_str(l);
        out.push('\n');
    }
    (out, at.expect("the anchor line exists"))
}

#[test]
fn radvs_any_hit_function_keeps_its_contract() {
    let report = check(&capture("05_any_hit.Assembly.txt"), RtStage::AnyHit, 300);
    assert!(report.violations.is_empty(), "{:#?}", report.violations);
    assert!(report.stopped.is_empty(), "{:#?}", report.stopped);
    // Both exits happen: the return and the hand-over to the next callee.
    assert!(report.returned > 50 && report.handed_on > 50, "{report:?}");
}

#[test]
fn a_clobbered_preserved_register_is_named_with_its_line() {
    // AHIT_ISEC preserves v0-v79: a write of v40 just before the exit breaks it.
    let (text, line) = insert_before(
        &capture("05_any_hit.Assembly.txt"),
        "s_setpc_b64",
        "\tv_mov_b32 v40, 0",
    );
    let report = check(&text, RtStage::AnyHit, 20);
    assert!(!report.violations.is_empty());
    for v in &report.violations {
        assert_eq!(v.kind, "register", "{v:?}");
        assert_eq!(v.register.as_deref(), Some("v40"));
        assert_eq!(v.line, Some(line));
        assert_eq!(v.instruction.as_deref(), Some("v_mov_b32 v40, 0"));
    }
    // Every lane of every trial whose v40 was not 0 already.
    assert!(
        report.violations.len() > 20 * 16,
        "{}",
        report.violations.len()
    );
}

#[test]
fn a_moved_stack_pointer_and_exec_are_reported() {
    let (text, line) = insert_before(
        &capture("05_any_hit.Assembly.txt"),
        "s_setpc_b64",
        "\ts_add_u32 s4, s4, 16",
    );
    let report = check(&text, RtStage::AnyHit, 10);
    assert_eq!(report.violations.len(), 10, "{:#?}", report.violations);
    for v in &report.violations {
        assert_eq!(
            (v.kind, v.register.as_deref()),
            ("stack_pointer", Some("s4"))
        );
        assert_eq!(v.line, Some(line));
    }
    let (text, line) = insert_before(
        &capture("05_any_hit.Assembly.txt"),
        "s_setpc_b64",
        "\ts_mov_b32 exec_lo, -1",
    );
    let report = check(&text, RtStage::AnyHit, 10);
    // A trial whose exec was all lanes already breaks nothing.
    assert!(report.violations.len() >= 9, "{:#?}", report.violations);
    for v in &report.violations {
        assert_eq!((v.kind, v.line), ("exec", Some(line)));
    }
}

#[test]
fn a_store_into_the_callers_frame_is_reported() {
    // The any-hit function has no scratch parameters: below its stack pointer s4 is its
    // caller's frame.
    let (text, line) = insert_before(
        &capture("05_any_hit.Assembly.txt"),
        "s_setpc_b64",
        "\tscratch_store_b32 off, v1, s4 offset:-8",
    );
    let report = check(&text, RtStage::AnyHit, 5);
    assert!(!report.violations.is_empty());
    for v in &report.violations {
        assert_eq!((v.kind, v.line), ("caller_frame", Some(line)), "{v:?}");
        assert!(
            v.message.contains("8 bytes below the floor"),
            "{}",
            v.message
        );
    }
}

#[test]
fn leaving_for_the_return_address_with_lanes_pending_is_reported() {
    // The exit jumps to the return address (s[80:81]) instead of the next PC (s[82:83]):
    // right when every lane wanted this function, wrong when some wait for another callee.
    let text =
        capture("05_any_hit.Assembly.txt").replace("s_setpc_b64 s[82:83]", "s_setpc_b64 s[80:81]");
    let report = check(&text, RtStage::AnyHit, 40);
    assert!(report.returned > 0, "{report:?}");
    assert!(!report.violations.is_empty());
    for v in &report.violations {
        assert_eq!(v.kind, "return_address", "{v:?}");
        assert!(
            v.message.contains("not the next PC of lane"),
            "{}",
            v.message
        );
    }
}

#[path = "llc_tool/mod.rs"]
mod llc_tool;

/// Callable functions under LLVM's convention, compiled by llc-19: `keep` calls through a
/// per-lane function pointer with values live across the call (a waterfall loop of calls,
/// each to an adversarial callee that clobbers every register LLVM lets it), `tri` calls
/// itself.
const LLVM_FUNCTIONS: &str = r#"
define i32 @keep(ptr %f, i32 %a, i32 %b) {
  %x = mul i32 %a, %b
  %r = call i32 %f(i32 %x)
  %s = add i32 %r, %a
  %t = xor i32 %s, %b
  %u = call i32 %f(i32 %t)
  %v = add i32 %u, %x
  ret i32 %v
}

define i32 @tri(i32 %m) {
entry:
  %z = icmp ult i32 %m, 1
  br i1 %z, label %base, label %rec
base:
  ret i32 0
rec:
  %m1 = sub i32 %m, 1
  %c = and i32 %m1, 7
  %r = call i32 @tri(i32 %c)
  %m3 = mul i32 %m, 3
  %s = add i32 %m3, %r
  ret i32 %s
}
"#;

#[test]
fn llc_functions_keep_llvms_contract_and_breaches_are_caught() {
    if !llc_tool::llc_available() {
        return;
    }
    for (cpu, target, wave) in [
        ("tonga", Target::Gfx8, WaveSize::W64),
        ("gfx1030", Target::Gfx1030, WaveSize::W32),
        ("gfx1100", Target::Gfx1100, WaveSize::W32),
    ] {
        let asm = llc_tool::compile_as(
            "check_function_llvm",
            LLVM_FUNCTIONS,
            "keep",
            "amdgcn-amd-amdhsa",
            cpu,
            2,
            "asm",
        );
        let text = String::from_utf8(asm).unwrap();
        let run = |text: &str, entry: &str| {
            let program = parse(text, target, wave).expect("llc's output assembles");
            let image = Image::new(&program).unwrap();
            let place = Placement {
                entry: entry.into(),
                name: entry.into(),
                target,
                wave,
                limit: AcoTarget::new(target, wave.lanes())
                    .unwrap()
                    .default_limit(LimitInputs::default()),
            };
            let spec = FunctionSpec::llvm(&place, "llvm-gfx").unwrap();
            check_function(&image, &spec, Trials::new(40, 7)).unwrap()
        };
        for entry in ["keep", "tri"] {
            let report = run(&text, entry);
            assert!(
                report.violations.is_empty(),
                "{cpu} {entry}: {:#?}",
                report.violations
            );
            assert!(
                report.stopped.is_empty(),
                "{cpu} {entry}: {:#?}",
                report.stopped
            );
            assert_eq!(report.returned, 40, "{cpu} {entry}");
            if entry == "keep" {
                assert!(report.calls >= 80, "{cpu}: {report:?}");
            }
        }
        // v40 is one of LLVM's callee-saved VGPRs (CSR_AMDGPU_VGPRs); s33 its frame
        // pointer, callee-saved too.
        for (clobber, register) in [("v_mov_b32 v40, 0", "v40"), ("s_mov_b32 s33, 0", "s33")] {
            let (broken, line) =
                insert_before(&text, "s_setpc_b64 s[30:31]", &format!("\t{clobber}"));
            let report = run(&broken, "keep");
            assert!(!report.violations.is_empty(), "{cpu} {clobber}");
            assert!(
                report
                    .violations
                    .iter()
                    .all(|v| v.register.as_deref() == Some(register) && v.line == Some(line)),
                "{cpu} {clobber}: {:#?}",
                &report.violations[..3.min(report.violations.len())]
            );
        }
    }
}

/// Mesa 26.1's closest-hit function traces a shadow ray (a call to traversal) with its
/// return address, the exec masks of its divergent-call guard and more in lanes 0-4 of the
/// linear VGPR v95 (`v_writelane_b32 v95, s0, 2`, writes that ignore exec), and saves v95
/// around the call with `scratch_store_b32 off, v95, s4 offset:96` under the call's exec
/// (`emit_call_spills` in Mesa's `src/amd/compiler/aco_spill_preserved.cpp` emits these
/// stores and reloads without setting exec to all lanes). When one of lanes 0-4 is inactive
/// at the call, a callee that uses v95 (it may: v95 is clobbered) takes the saved value
/// with it, the function restores a wrong exec mask, and it leaves for a wrong address.
/// With callees that leave the inactive lanes of their own parameters alone, this is the
/// only way RADV's function breaks its contract: the same code with the save and the
/// reload made whole-wave keeps it.
#[test]
fn acos_linear_vgpr_saved_under_the_calls_exec_loses_inactive_lanes() {
    let text = capture("02_closest_hit.Assembly.txt");
    let run = |text: &str, inactive_lanes: InactiveLanes| {
        let program = parse(text, Target::Gfx1100, WaveSize::W32).unwrap();
        let image = Image::new(&program).unwrap();
        let place = Placement {
            entry: "BB0".into(),
            name: "closest hit".into(),
            target: Target::Gfx1100,
            wave: WaveSize::W32,
            limit: AcoTarget::new(Target::Gfx1100, 32)
                .unwrap()
                .default_limit(LimitInputs::default()),
        };
        let spec = FunctionSpec::for_stage(&place, RtStage::ClosestHit, PAYLOAD, HIT_ATTRIBS, None)
            .unwrap();
        let trials = Trials {
            inactive_lanes,
            ..Trials::new(200, 3)
        };
        check_function(&image, &spec, trials).unwrap()
    };
    let report = run(&text, InactiveLanes::KeepParameters);
    assert!(report.calls > 0, "{report:?}");
    // The wrong exec restored from v95 shows as a jump to a wrong address, or as next PCs
    // written for lanes that wait for another callee.
    assert!(!report.violations.is_empty());
    assert!(report
        .violations
        .iter()
        .all(|v| matches!(v.kind, "return_address" | "next_pc" | "exec" | "register")));
    let failing: std::collections::BTreeSet<u32> =
        report.violations.iter().map(|v| v.trial).collect();
    assert!(failing.len() > 100, "{} of 200 trials", failing.len());

    // v95 saved and reloaded in every lane: the contract holds in every trial.
    let mut fixed = String::new();
    for line in text.lines() {
        let whole_wave = line.contains("scratch_store_b32 off, v95, s4 offset:96")
            || line.contains("scratch_load_b32 v95, off, s4 offset:96");
        if whole_wave {
            fixed.push_str("\ts_or_saveexec_b32 s100, -1\n");
        }
        fixed.push_str(line);
        fixed.push('\n');
        if whole_wave {
            fixed.push_str("\ts_mov_b32 exec_lo, s100\n");
        }
    }
    assert!(!text.contains("s100"));
    let report = run(&fixed, InactiveLanes::KeepParameters);
    assert!(
        report.violations.is_empty(),
        "{:#?}",
        &report.violations[..3]
    );
    assert!(report.stopped.is_empty());
    assert!(report.returned > 0 && report.handed_on > 0, "{report:?}");

    // A restore skipped: without the reload of v17 (the closest hit's `ray_origin.x`, which
    // it must hand back and had replaced by the shadow ray's origin for the call), the
    // register keeps the value written for the call.
    let (skipped, removed) = {
        let mut out = String::new();
        let mut at = 0;
        for (i, line) in fixed.lines().enumerate() {
            if line.contains("scratch_load_b32 v17, off, s16 offset:-4064") {
                at = i as u32 + 1;
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
        (out, at)
    };
    assert!(removed > 0);
    let report = run(&skipped, InactiveLanes::KeepParameters);
    let writes_of_v17: Vec<&str> = skipped
        .lines()
        .filter(|l| l.contains("v17, 0, v28"))
        .collect();
    assert_eq!(writes_of_v17.len(), 1);
    let line = skipped
        .lines()
        .position(|l| l.contains("v17, 0, v28"))
        .unwrap() as u32
        + 1;
    let on_v17: Vec<_> = report
        .violations
        .iter()
        .filter(|v| v.register.as_deref() == Some("v17"))
        .collect();
    assert!(!on_v17.is_empty(), "{:#?}", &report.violations[..3]);
    assert!(on_v17
        .iter()
        .all(|v| v.kind == "register" && v.line == Some(line)));

    // With callees that may write every lane of a register they may clobber (the stub's
    // default), the lanes that wait for another callee lose their parameters across the
    // trace: the function saves its parameters around the call under the call's exec too.
    let report = run(&fixed, InactiveLanes::Clobber);
    assert!(report
        .violations
        .iter()
        .any(|v| v.kind == "register" && v.register.as_deref() == Some("v2")));
    assert!(report
        .violations
        .iter()
        .all(|v| v.kind == "register" || v.kind == "next_pc"));
}
