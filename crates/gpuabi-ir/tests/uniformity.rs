//! Uniformity analysis: one example per rule of `gpuabi_ir::uniformity`, with the expected
//! status of every value of the function written out by hand, and the verifier's check of
//! `uniform` parameters.

use gpuabi_ir::cfg::{Cfg, LoopId};
use gpuabi_ir::diagnostic::render_all;
use gpuabi_ir::uniformity::{analyze, Uniformity};
use gpuabi_ir::{parse, verify, Module};

fn module(src: &str) -> Module {
    let m = parse(src).unwrap_or_else(|e| panic!("{}", e.0.render("t.gsir", src)));
    if let Err(e) = verify(&m) {
        panic!("{}", render_all(&e.0, "t.gsir", src));
    }
    m
}

/// Analyses `@name` and checks that exactly the values in `divergent` are divergent; every
/// value of the function must be named in `uniform` or `divergent`.
fn check(src: &str, name: &str, uniform: &[&str], divergent: &[&str]) -> Uniformity {
    let m = module(src);
    let f = m.function(name).unwrap();
    let u = analyze(&m, f);
    for (k, vd) in f.values.iter().enumerate() {
        let v = gpuabi_ir::ir::Value(k as u32);
        let n = vd.name.as_str();
        let want_uniform = uniform.contains(&n);
        assert!(
            want_uniform != divergent.contains(&n),
            "`%{n}` must be listed exactly once"
        );
        assert_eq!(u.is_uniform(v), want_uniform, "`%{n}`: {}", u.explain(f, v));
    }
    u
}

#[test]
fn sources() {
    let src = r#"
sig $s(i32, i32 return)

fn @g(%x: i32, %r: i32 return) {
  ret %x
}

fn @k(%p: ptr, %n: i32, %q: ptr uniform) kernel {
  %c = const i32 3
  %gi = group_id 0
  %gs = group_size 1
  %ng = num_groups 2
  %gz = global_size 0
  %wd = work_dim
  %go = global_offset 0
  %fa = func_addr @g
  %st = alloca 16
  %li = local_id 0
  %gl = global_id 0
  %cr = call @g(%c, %c)
  %ci = call_indirect $s %fa(%c, %c)
  %sl = sload i32 %st, 0
  %u1 = add i32 %gi, %n
  %d1 = add i32 %u1, %li
  %ul = load i32 %p
  %pd = ptradd %q, %gl
  %dl = load i32 %pd
  %sel = select i32 true, %c, %ul
  ret
}
"#;
    check(
        src,
        "k",
        &[
            "p", "n", "q", "c", "gi", "gs", "ng", "gz", "wd", "go", "fa", "st", "u1", "ul", "sel",
        ],
        &["li", "gl", "cr", "ci", "sl", "d1", "pd", "dl"],
    );
}

#[test]
fn parameters_of_other_functions_follow_the_attribute() {
    let src = r#"
fn @f(%a: i32 uniform, %b: i32, %c: f32 uniform discardable, %r: i32 return) {
  %s = add i32 %a, 1
  %t = add i32 %a, %b
  ret %t
}
"#;
    check(src, "f", &["a", "c", "s"], &["b", "r", "t"]);
}

#[test]
fn if_results() {
    let src = r#"
fn @k(%out: ptr, %n: i32) kernel {
  %lid = local_id 0
  %d = icmp eq i32 %lid, 0
  %u = icmp eq i32 %n, 0
  %a = if %d -> i32 {
    yield 1
  } else {
    yield 2
  }
  %b = if %u -> i32 {
    %x = add i32 %n, 1
    yield %x
  } else {
    yield 2
  }
  %c, %e = if %u -> i32, i32 {
    yield 1, %lid
  } else {
    yield 2, 3
  }
  ret
}
"#;
    check(
        src,
        "k",
        &["out", "n", "u", "b", "x", "c"],
        &["lid", "d", "a", "e"],
    );
}

#[test]
fn uniform_loop_variables_reach_a_fixed_point() {
    // %x gets %y2 (divergent); %y gets %x2, which depends on %x: divergent only after the
    // second pass. %z only ever gets uniform values. The break is under a uniform `if`.
    let src = r#"
fn @k(%n: i32) kernel {
  %lid = local_id 0
  %rx, %rz = loop (%x: i32 = 0, %y: i32 = 0, %z: i32 = %n) -> i32, i32 {
    %x2 = add i32 %x, 1
    %y2 = add i32 %y, %lid
    %z2 = add i32 %z, 1
    %stop = icmp eq i32 %z2, 100
    if %stop {
      break %x, %z
    }
    continue %y2, %x2, %z2
  }
  ret
}
"#;
    let u = check(
        src,
        "k",
        &["n", "z", "z2", "stop", "rz"],
        &["lid", "x", "y", "x2", "y2", "rx"],
    );
    assert!(!u.is_divergent_loop(LoopId(0)));
}

#[test]
fn a_break_under_a_divergent_if_makes_the_loop_divergent() {
    let src = r#"
fn @k(%n: i32) kernel {
  %lid = local_id 0
  %r = loop (%i: i32 = 0) -> i32 {
    %d = icmp eq i32 %i, %lid
    if %d {
      break 7
    }
    %i2 = add i32 %i, 1
    continue %i2
  }
  ret
}
"#;
    let u = check(src, "k", &["n"], &["lid", "r", "i", "d", "i2"]);
    assert!(u.is_divergent_loop(LoopId(0)));
}

#[test]
fn a_continue_under_a_divergent_if_makes_the_loop_divergent() {
    let src = r#"
fn @k(%n: i32) kernel {
  %lid = local_id 0
  %r = loop (%i: i32 = 0) -> i32 {
    %i2 = add i32 %i, 1
    %d = icmp eq i32 %lid, 0
    if %d {
      continue %i2
    }
    %e = icmp eq i32 %i2, %n
    if %e {
      break %i2
    }
    continue %i2
  }
  ret
}
"#;
    check(src, "k", &["n"], &["lid", "r", "i", "i2", "d", "e"]);
}

#[test]
fn only_ifs_inside_the_loop_count() {
    // The outer `if` is divergent, but the loop inside it leaves under a uniform
    // condition: the loop is uniform (among the lanes that run it). The `if` result is
    // divergent. The inner loop's divergent break does not make the outer loop divergent.
    let src = r#"
fn @k(%n: i32) kernel {
  %lid = local_id 0
  %d = icmp ult i32 %lid, 4
  %a = if %d -> i32 {
    %r = loop (%i: i32 = 0) -> i32 {
      %c = icmp eq i32 %i, %n
      if %c {
        break %i
      }
      %i2 = add i32 %i, 1
      continue %i2
    }
    yield %r
  } else {
    yield 0
  }
  %o = loop (%j: i32 = 0) -> i32 {
    loop {
      %e = icmp eq i32 %lid, %j
      if %e {
        break
      }
      continue
    }
    %j2 = add i32 %j, 1
    %f = icmp eq i32 %j2, %n
    if %f {
      break %j2
    }
    continue %j2
  }
  ret
}
"#;
    let u = check(
        src,
        "k",
        &["n", "r", "i", "c", "i2", "o", "j", "j2", "f"],
        &["lid", "d", "a", "e"],
    );
    // Loops in the order they are written, as in the CFG.
    let m = module(src);
    let cfg = Cfg::build(m.function("k").unwrap());
    let depths: Vec<u32> = cfg.loops.iter().map(|l| l.depth).collect();
    assert_eq!(
        depths,
        [0, 0, 1],
        "loop2 is the inner loop in both numberings"
    );
    assert!(!u.is_divergent_loop(LoopId(0)));
    assert!(!u.is_divergent_loop(LoopId(1)));
    assert!(u.is_divergent_loop(LoopId(2)));
}

#[test]
fn explanations_follow_the_causes() {
    let src = r#"
fn @k(%n: i32) kernel {
  %g = global_id 0
  %h = add i32 %g, %n
  %c = icmp eq i32 %h, 0
  %a = if %c -> i32 {
    yield 1
  } else {
    yield 2
  }
  ret
}
"#;
    let m = module(src);
    let f = m.function("k").unwrap();
    let u = analyze(&m, f);
    let a = gpuabi_ir::ir::Value(4);
    assert_eq!(f.value_name(a), "a");
    assert_eq!(
        u.explain(f, a),
        "`%a` is a result of an `if` on the divergent condition `%c`; `%c` depends on `%h`; \
         `%h` depends on `%g`; `%g` is the result of `global_id`, which differs between \
         work-items"
    );
}

fn verify_error(src: &str) -> String {
    let m = parse(src).unwrap_or_else(|e| panic!("{}", e.0.render("t.gsir", src)));
    match verify(&m) {
        Ok(()) => panic!("verified:\n{src}"),
        Err(e) => render_all(&e.0, "t.gsir", src),
    }
}

#[test]
fn divergent_argument_of_a_uniform_parameter() {
    let src = "fn @g(%x: i32, %n: i32 uniform) {\n}\n\nfn @k(%m: i32) kernel {\n  %i = local_id 0\n  %j = add i32 %i, %m\n  call @g(%j, %j)\n  call @g(%j, %m)\n}\n";
    // Only the first call is wrong: `%m` is a kernel argument.
    assert_eq!(
        verify_error(src),
        "error: divergent `%j` passed to parameter 2 (`%n`) of `@g`, which is `uniform`
  ┌─ t.gsir:7:3
  │
7 │   call @g(%j, %j)
  │   ^^^^^^^^^^^^^^^ `%j` may differ between lanes
  │
  = why: `%j` depends on `%i`; `%i` is the result of `local_id`, which differs between work-items
  = a `uniform` parameter must get the same value in every lane of a wave

"
    );
}

#[test]
fn divergent_argument_of_a_uniform_signature_parameter() {
    let src = "sig $s(ptr uniform)\n\nfn @g(%p: ptr uniform) {\n}\n\nfn @h(%q: ptr) {\n  %f = func_addr @g\n  call_indirect $s %f(%q)\n}\n";
    assert_eq!(
        verify_error(src),
        "error: divergent `%q` passed to parameter 1 of `$s`, which is `uniform`
  ┌─ t.gsir:8:3
  │
8 │   call_indirect $s %f(%q)
  │   ^^^^^^^^^^^^^^^^^^^^^^^ `%q` may differ between lanes
  │
  = why: `%q` is a parameter without `uniform` of a function that is not a kernel
  = a `uniform` parameter must get the same value in every lane of a wave

"
    );
}

#[test]
fn uniform_arguments_pass() {
    let src = "fn @g(%n: i32 uniform) {\n}\n\nfn @h(%a: i32 uniform) {\n  %b = mul i32 %a, 3\n  call @g(%b)\n  call @g(5)\n}\n";
    module(src);
}
