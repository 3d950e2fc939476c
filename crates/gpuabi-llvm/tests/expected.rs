//! The emitter's output for a small program against LLVM IR written by hand from LLVM's
//! LangRef and the emitter's documented scheme (`tests/expected/sum.ll`), and the errors
//! for what LLVM IR cannot express.

use std::path::Path;
use std::process::Command;

use gpuabi_llvm::{emit, EmitError, EmitOptions};

fn expected_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected")
}

#[test]
fn small_program_matches_the_hand_written_ll() {
    let dir = expected_dir();
    let source = std::fs::read_to_string(dir.join("sum.gsir")).expect("sum.gsir");
    let want = std::fs::read_to_string(dir.join("sum.ll")).expect("sum.ll");
    let module = gpuabi_ir::parse(&source).expect("parses");
    let got = emit(&module, &EmitOptions::default()).expect("emits");
    assert_eq!(got, want);
    // The hand-written text is itself valid LLVM IR (when llvm-as-19 is installed; the llc
    // test reports the tool's absence).
    if let Ok(out) = Command::new("llvm-as-19")
        .arg(dir.join("sum.ll"))
        .args(["-o", "/dev/null"])
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn output_is_deterministic_and_inlining_is_optional() {
    let source = std::fs::read_to_string(expected_dir().join("sum.gsir")).expect("sum.gsir");
    let module = gpuabi_ir::parse(&source).expect("parses");
    let a = emit(&module, &EmitOptions::default()).expect("emits");
    assert_eq!(a, emit(&module, &EmitOptions::default()).expect("emits"));
    let inl = emit(
        &module,
        &EmitOptions {
            allow_inlining: true,
            ..EmitOptions::default()
        },
    )
    .expect("emits");
    assert!(a.contains("attributes #1 = { noinline nounwind"), "{a}");
    assert!(inl.contains("attributes #1 = { nounwind"), "{inl}");
}

/// The 1-based line and column of an error's first diagnostic.
fn position(e: &EmitError, source: &str) -> (usize, usize) {
    e.diagnostics()[0].line_col(source)
}

#[test]
fn a_noreturn_call_from_an_ordinary_function_is_located() {
    let source = "fn @end(%x: i32) noreturn {\n  ret\n}\n\nfn @f(%x: i32) {\n  call @end(%x)\n  ret\n}\n\nfn @k(%x: i32) kernel {\n  call @f(%x)\n  call @end(%x)\n  ret\n}\n";
    let module = gpuabi_ir::parse(source).expect("parses");
    let e = emit(&module, &EmitOptions::default()).expect_err("refused");
    assert!(matches!(e, EmitError::Unsupported(_)), "{e:?}");
    assert_eq!(position(&e, source), (6, 3));
    assert!(e.to_string().contains("`noreturn`"), "{e}");
    // From a kernel the same call is fine: the kernel returns after it.
    let ok = "fn @end(%x: i32) noreturn {\n  ret\n}\n\nfn @k(%x: i32) kernel {\n  call @end(%x)\n  %y = add i32 %x, 1\n  ret\n}\n";
    let ll = emit(
        &gpuabi_ir::parse(ok).expect("parses"),
        &EmitOptions::default(),
    )
    .expect("emits");
    assert!(
        ll.contains("  call void @end(i32 %x)\n  ret void\ndead-1:\n"),
        "{ll}"
    );
}

#[test]
fn reserved_names_and_invalid_modules_are_located() {
    let source = "fn @llvm.x(%a: i32) kernel {\n  ret\n}\n";
    let e = emit(
        &gpuabi_ir::parse(source).expect("parses"),
        &EmitOptions::default(),
    )
    .expect_err("refused");
    assert_eq!(position(&e, source), (1, 1));
    let source = "fn @k(%a: f32) kernel {\n  %b = add i32 %a, 1\n  ret\n}\n";
    let module = gpuabi_ir::parse(source).expect("parses");
    let e = emit(&module, &EmitOptions::default()).expect_err("refused");
    assert!(matches!(e, EmitError::Invalid(_)), "{e:?}");
    assert_eq!(position(&e, source).0, 2);
}
