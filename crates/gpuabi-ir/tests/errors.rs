//! Parser and verifier messages: each names the place (line, column, caret) and what was
//! expected. Snapshots hold the rendered message.

use gpuabi_ir::diagnostic::render_all;
use gpuabi_ir::{parse, verify};

/// The rendered parse error of `src`; panics if it parses.
fn parse_error(src: &str) -> String {
    match parse(src) {
        Ok(_) => panic!("parsed:\n{src}"),
        Err(e) => e.0.render("test.gsir", src),
    }
}

/// The rendered verifier errors of `src`, which must parse.
fn verify_error(src: &str) -> String {
    let m = parse(src).unwrap_or_else(|e| panic!("{}", e.0.render("test.gsir", src)));
    match verify(&m) {
        Ok(()) => panic!("verified:\n{src}"),
        Err(e) => render_all(&e.0, "test.gsir", src),
    }
}

#[test]
fn parse_unknown_instruction() {
    insta::assert_snapshot!(parse_error(
        "fn @f(%a: i32) {\n  %b = addd i32 %a, 1\n  ret\n}\n"
    ));
}

#[test]
fn parse_missing_type() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %b = add %a, 1\n}\n"));
}

#[test]
fn parse_undefined_value() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %b = add i32 %a, %c\n}\n"));
}

#[test]
fn parse_value_defined_twice() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %a = add i32 %a, 1\n}\n"));
}

#[test]
fn parse_literal_out_of_range() {
    insta::assert_snapshot!(parse_error(
        "fn @f(%a: i32) {\n  %b = add i32 %a, 4294967296\n}\n"
    ));
}

#[test]
fn parse_bad_character() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %b = add i32 %a, #1\n}\n"));
}

#[test]
fn parse_unclosed_block() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %b = add i32 %a, 1\n"));
}

#[test]
fn parse_missing_to() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %b = zext i32 %a i64\n}\n"));
}

#[test]
fn parse_result_count() {
    insta::assert_snapshot!(parse_error(
        "fn @f(%a: i32) {\n  %b, %c = add i32 %a, 1\n}\n"
    ));
}

#[test]
fn parse_surplus_literal_argument() {
    insta::assert_snapshot!(parse_error(
        "fn @g(%x: i32) {\n}\n\nfn @f(%a: i32) {\n  call @g(1, 2)\n}\n"
    ));
}

#[test]
fn parse_undefined_function() {
    insta::assert_snapshot!(parse_error("fn @f(%a: i32) {\n  %r = call @g(%a)\n}\n"));
}

#[test]
fn parse_undefined_function_address() {
    insta::assert_snapshot!(parse_error("fn @f() {\n  %p = func_addr @nowhere\n}\n"));
}

#[test]
fn parse_undefined_signature() {
    insta::assert_snapshot!(parse_error(
        "fn @f(%p: ptr) {\n  call_indirect $s %p()\n}\n"
    ));
}

#[test]
fn functions_may_be_used_before_their_definition() {
    let src = "sig $s(i32)\n\nfn @k() kernel {\n  %f = func_addr @b\n  call_indirect $s %f(1)\n  call @b(2)\n}\n\nfn @a(%x: i32) {\n}\n\nfn @b(%x: i32) {\n  call @a(%x)\n}\n";
    let m = parse(src).unwrap();
    let k = &m.functions[0];
    // `@b` is the third function of the file: id 2, although it is defined after its use.
    let ids: Vec<String> = k
        .body
        .instrs
        .iter()
        .map(|i| format!("{:?}", i.kind))
        .collect();
    assert!(ids[0].contains("FuncAddr { func: FuncId(2) }"), "{ids:?}");
    assert!(ids[1].contains("sig: SigId(0)"), "{ids:?}");
    assert!(ids[2].contains("callee: FuncId(2)"), "{ids:?}");
    assert!(verify(&m).is_ok());
}

#[test]
fn parse_wrong_condition_kind() {
    insta::assert_snapshot!(parse_error(
        "fn @f(%a: f32) {\n  %c = fcmp ult %a, 1.0\n}\n"
    ));
}

#[test]
fn verify_type_mismatch() {
    insta::assert_snapshot!(verify_error("fn @f(%a: f32) {\n  %b = add i32 %a, 1\n}\n"));
}

#[test]
fn verify_dominance() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%c: i1, %a: i32) {\n  if %c {\n    %b = add i32 %a, 1\n  }\n  %d = add i32 %b, 1\n}\n"
    ));
}

#[test]
fn verify_break_outside_loop() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%c: i1) {\n  if %c {\n    break\n  }\n}\n"
    ));
}

#[test]
fn verify_yield_outside_if() {
    insta::assert_snapshot!(verify_error("fn @f() {\n  loop {\n    yield\n  }\n}\n"));
}

#[test]
fn verify_return_argument_must_be_a_value() {
    insta::assert_snapshot!(verify_error(
        "fn @g(%x: i32 return) {\n  ret %x\n}\n\nfn @f() {\n  %r = call @g(5)\n}\n"
    ));
}

#[test]
fn verify_argument_count_and_type() {
    insta::assert_snapshot!(verify_error(
        "fn @g(%x: i32, %y: f32) {\n}\n\nfn @f(%a: i32) {\n  call @g(%a)\n  call @g(%a, %a)\n}\n"
    ));
}

#[test]
fn verify_if_arm_without_yield() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%c: i1) {\n  %r = if %c -> i32 {\n    yield 1\n  } else {\n    %z = const i32 0\n  }\n}\n"
    ));
}

#[test]
fn verify_loop_body_falls_through() {
    insta::assert_snapshot!(verify_error(
        "fn @f() {\n  loop (%i: i32 = 0) {\n    %j = add i32 %i, 1\n  }\n}\n"
    ));
}

#[test]
fn verify_ret_values() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%x: i32 return, %y: f32 return) {\n  ret %y, %x\n}\n"
    ));
}

#[test]
fn verify_instruction_after_ret() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%a: i32) {\n  ret\n  %b = add i32 %a, 1\n}\n"
    ));
}

#[test]
fn verify_uniform_return_parameter() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%x: i32 uniform return) {\n  ret %x\n}\n"
    ));
}

#[test]
fn verify_kernel_rules() {
    insta::assert_snapshot!(verify_error(
        "fn @k(%x: i32 return) kernel {\n  ret %x\n}\n\nfn @f(%a: i32) {\n  %r = call @k(%a)\n}\n"
    ));
}

#[test]
fn verify_bad_conversion() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%a: i64) {\n  %b = zext i64 %a to i32\n}\n"
    ));
}

#[test]
fn verify_stack_does_not_escape() {
    insta::assert_snapshot!(verify_error(
        "fn @f(%c: i1) {\n  %a = alloca 16\n  %r = if %c -> stack {\n    yield %a\n  } else {\n    yield %a\n  }\n}\n"
    ));
}

#[test]
fn verify_continue_types() {
    insta::assert_snapshot!(verify_error(
        "fn @f() {\n  loop (%i: i32 = 0) {\n    %x = const f32 1.5\n    continue %x\n  }\n}\n"
    ));
}

#[test]
fn parse_nesting_is_bounded() {
    // Deep nesting is an error, not a stack overflow; the deepest accepted module goes
    // through every pass on a test thread's small stack.
    let nested = |depth: usize| {
        let mut src = String::from("fn @f(%c: i1) kernel {\n");
        src.push_str(&"if %c {\n".repeat(depth));
        src.push_str(&"}\n".repeat(depth));
        src.push_str("}\n");
        src
    };
    let ok = parse(&nested(64)).unwrap();
    verify(&ok).unwrap();
    assert_eq!(parse(&gpuabi_ir::print(&ok)).unwrap(), ok);
    gpuabi_ir::Program::new(&ok).unwrap();
    for depth in [65, 100_000] {
        let e = parse(&nested(depth)).unwrap_err();
        assert!(
            e.0.message.contains("nested more than 64 deep"),
            "{}",
            e.0.message
        );
    }
}

#[test]
fn parse_parenthesised_lists() {
    // Each list's own words in its messages, with the place of the offending token.
    let g = "fn @g(%a: i32) {\n  ret\n}\n";
    let cases = [
        (
            "sig $s i32)\n",
            "expected `(` to start the parameter list",
            "1:8",
        ),
        (
            "sig $s(i32 i32)\n",
            "expected `,` or `)` in the parameter list",
            "1:12",
        ),
        (
            "sig $s(i32,\n",
            "expected a type (i1, i32, i64, f32, ptr, stack)",
            "1:12",
        ),
        (
            "fn @f %a: i32) {\n  ret\n}\n",
            "expected `(` to start the parameter list",
            "1:7",
        ),
        (
            "fn @f(%a: i32 %b: i32) {\n  ret\n}\n",
            "expected `,` or `)` in the parameter list",
            "1:15",
        ),
        (
            "fn @f(i32) {\n  ret\n}\n",
            "expected a parameter like `%x: i32`",
            "1:7",
        ),
        (
            "fn @f(%a i32) {\n  ret\n}\n",
            "expected `:` and the parameter type",
            "1:10",
        ),
        (
            "fn @f(%a: i32) {\n  call @g %a)\n  ret\n}\n",
            "expected `(` to start the arguments",
            "2:11",
        ),
        (
            "fn @f(%a: i32) {\n  call @g(%a %a)\n  ret\n}\n",
            "expected `,` or `)` in the argument list",
            "2:14",
        ),
        (
            "fn @f() {\n  loop (%i: i32 = 0 %j: i32 = 0) {\n    break\n  }\n  ret\n}\n",
            "expected `,` or `)` after a loop variable",
            "2:21",
        ),
        (
            "fn @f() {\n  loop (i32) {\n    break\n  }\n  ret\n}\n",
            "expected a loop variable like `%i: i32 = 0`",
            "2:9",
        ),
    ];
    for (src, message, place) in cases {
        let src = format!("{g}{src}");
        let text = parse_error(&src);
        assert!(text.starts_with(&format!("error: {message}\n")), "{text}");
        // Line numbers count the three lines of `@g` in front.
        let (line, col) = place.split_once(':').unwrap();
        let line: usize = line.parse::<usize>().unwrap() + 3;
        assert!(
            text.contains(&format!("test.gsir:{line}:{col}\n")),
            "{text}"
        );
    }
    // Empty lists, and a loop without one.
    let ok = "sig $s()\nfn @f() {\n  call @f()\n  loop () {\n    break\n  }\n  loop {\n    break\n  }\n  ret\n}\n";
    assert!(parse(ok).is_ok(), "{:?}", parse(ok).err());
}
