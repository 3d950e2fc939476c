//! The canonical text form (reviewed snapshots) and its stability.

use gpuabi_ir::{parse, print};

#[test]
fn canonical_form_of_every_construct() {
    // Hand-written with irregular spacing and comments; the canonical form re-indents,
    // drops comments and spells literals in their shortest exact form.
    let src = r#"
sig $cb(f32, i64 uniform discardable, i32 return) abi(my_abi) divergent_call
; comment
fn @callee(%a: f32, %b: i64 uniform discardable, %r: i32 return) abi(my_abi) divergent_call {
    %x = fptosi f32 %a to i32
      ret %x
}
fn @k(%p: ptr uniform) kernel abi(rt_recursive) noreturn {
  %f = func_addr @callee
  %c = icmp ne ptr %f, 0x0
  %v = const f32 0x7fc00000
  %w = fmul %v, 1.50
  %s = alloca 12
  sstore f32 %w, %s, 8
  %r0 = const i32 -1
  %r = call_indirect $cb %f(%w, 7, %r0)
  %y, %z = if %c -> i32, i1 {
    yield %r, true
  } else {
    yield 0, false
  }
  %n = loop (%i: i32 = 0) -> i32 {
    %d = icmp uge i32 %i, 3
    if %d {
      break %i
    }
    %j = add i32 %i, 1
    continue %j
  }
  store i32 %n, %p
  ret
}
"#;
    let m = parse(src).unwrap();
    gpuabi_ir::verify(&m).unwrap();
    let text = print(&m);
    insta::assert_snapshot!(text);
    assert_eq!(print(&parse(&text).unwrap()), text);
}
