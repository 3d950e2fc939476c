//! Interpreter semantics, runtime errors and limits.

use gpuabi_ir::interp::{
    function_address, Dispatch, DispatchError, Limits, Memory, MemoryError, Program, RunError,
    RunErrorKind,
};
use gpuabi_ir::parse;

fn program(src: &str) -> Program {
    let m = parse(src).unwrap_or_else(|e| panic!("{}", e.0.render("t.gsir", src)));
    Program::new(&m).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs kernel `@k(%out: ptr)` over `n` invocations with a 256-byte buffer `out`.
fn run(src: &str, n: u32, limits: &Limits) -> (Result<u64, DispatchError>, Vec<u8>) {
    let p = program(src);
    let mut mem = Memory::new(1 << 20);
    let out = mem.add("out", vec![0; 256]).unwrap();
    let r = p
        .dispatch("k", &[out], &Dispatch::linear(n, 1), &mut mem, limits)
        .map(|s| s.steps);
    (r, mem.buffer("out").unwrap().data.clone())
}

fn run_error(src: &str, limits: &Limits) -> RunError {
    match run(src, 4, limits).0 {
        Err(DispatchError::Run(e)) => e,
        other => panic!("expected a runtime error, got {other:?}"),
    }
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn integer_and_conversion_semantics() {
    // Each result goes to out[4*i]; expected values are Rust's wrapping/saturating ops.
    let src = r#"
fn @k(%out: ptr) kernel {
  %a = const i32 -7
  %b = const i32 2
  %r0 = sdiv i32 %a, %b
  %r1 = srem i32 %a, %b
  %r2 = udiv i32 %a, %b
  %r3 = ashr i32 %a, 33
  %r4 = lshr i32 %a, 28
  %r5 = shl i32 %b, 31
  %r6 = smin i32 %a, %b
  %r7 = umin i32 %a, %b
  %w = sext i32 %a to i64
  %w1 = lshr i64 %w, 32
  %r8 = trunc i64 %w1 to i32
  %f = const f32 -3.75
  %r9 = fptosi f32 %f to i32
  %big = const f32 1e20
  %r10 = fptoui f32 %big to i32
  %r11 = popcount i32 %a
  %c = icmp slt i32 %a, %b
  %r12 = zext i1 %c to i32
  %c2 = icmp ult i32 %a, %b
  %r13 = zext i1 %c2 to i32
  %r14 = bitcast f32 %f to i32
  %ff = sitofp i32 %a to f32
  %r15 = bitcast f32 %ff to i32
  %vals = const i32 0
  store i32 %r0, %out
  %p1 = ptradd %out, 4
  store i32 %r1, %p1
  %p2 = ptradd %out, 8
  store i32 %r2, %p2
  %p3 = ptradd %out, 12
  store i32 %r3, %p3
  %p4 = ptradd %out, 16
  store i32 %r4, %p4
  %p5 = ptradd %out, 20
  store i32 %r5, %p5
  %p6 = ptradd %out, 24
  store i32 %r6, %p6
  %p7 = ptradd %out, 28
  store i32 %r7, %p7
  %p8 = ptradd %out, 32
  store i32 %r8, %p8
  %p9 = ptradd %out, 36
  store i32 %r9, %p9
  %p10 = ptradd %out, 40
  store i32 %r10, %p10
  %p11 = ptradd %out, 44
  store i32 %r11, %p11
  %p12 = ptradd %out, 48
  store i32 %r12, %p12
  %p13 = ptradd %out, 52
  store i32 %r13, %p13
  %p14 = ptradd %out, 56
  store i32 %r14, %p14
  %p15 = ptradd %out, 60
  store i32 %r15, %p15
  %p16 = ptradd %out, 64
  store_16 %a, %p16
  %p18 = ptradd %out, 68
  %back = load_s16 %p16
  store i32 %back, %p18
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    let a: i32 = -7;
    let b: i32 = 2;
    let want: Vec<u32> = vec![
        (a / b) as u32,
        (a % b) as u32,
        (a as u32) / (b as u32),
        (a >> (33 % 32)) as u32,
        (a as u32) >> 28,
        (b as u32) << 31,
        a.min(b) as u32,
        (a as u32).min(b as u32),
        ((i64::from(a) as u64) >> 32) as u32,
        (-3.75f32) as i32 as u32,
        1e20f32 as u32,
        a.count_ones(),
        u32::from(a < b),
        u32::from((a as u32) < (b as u32)),
        (-3.75f32).to_bits(),
        (a as f32).to_bits(),
        0xfff9, // low 16 bits of -7
        a as u32,
    ];
    assert_eq!(&u32s(&out)[..want.len()], &want[..]);
}

#[test]
fn return_parameters_recursion_and_stack_arrays() {
    // Recursive factorial through an in/out accumulator, and a stack array per frame.
    let src = r#"
fn @fact(%n: i32, %acc: i32 return) {
  %a = alloca 8
  sstore i32 %n, %a, 4
  %small = icmp ule i32 %n, 1
  if %small {
    ret %acc
  }
  %m = mul i32 %acc, %n
  %n1 = sub i32 %n, 1
  %r = call @fact(%n1, %m)
  ; The caller's array survives the callee's frame.
  %back = sload i32 %a, 4
  %same = icmp eq i32 %back, %n
  if %same {
    ret %r
  }
  unreachable
}

fn @k(%out: ptr) kernel {
  %i = global_id 0
  %n = add i32 %i, 3
  %one = const i32 1
  %f = call @fact(%n, %one)
  %off = mul i32 %i, 4
  %p = ptradd %out, %off
  store i32 %f, %p
}
"#;
    let (r, out) = run(src, 5, &Limits::default());
    r.unwrap();
    let fact = |n: u32| (1..=n).product::<u32>();
    assert_eq!(
        &u32s(&out)[..5],
        &[fact(3), fact(4), fact(5), fact(6), fact(7)]
    );
}

#[test]
fn divergent_indirect_calls_pick_per_invocation() {
    // Even invocations call @twice, odd ones @square, through one call site.
    let src = r#"
sig $op(i32, i32 return)

fn @twice(%x: i32, %r: i32 return) {
  %y = add i32 %x, %x
  ret %y
}

fn @square(%x: i32, %r: i32 return) {
  %y = mul i32 %x, %x
  ret %y
}

fn @k(%out: ptr) kernel {
  %i = global_id 0
  %odd0 = and i32 %i, 1
  %odd = icmp ne i32 %odd0, 0
  %f1 = func_addr @twice
  %f2 = func_addr @square
  %f = select ptr %odd, %f2, %f1
  %x = add i32 %i, 10
  %z = const i32 0
  %y = call_indirect $op %f(%x, %z)
  %off = mul i32 %i, 4
  %p = ptradd %out, %off
  store i32 %y, %p
}
"#;
    let (r, out) = run(src, 6, &Limits::default());
    r.unwrap();
    let want: Vec<u32> = (0..6u32)
        .map(|i| {
            if i % 2 == 1 {
                (i + 10) * (i + 10)
            } else {
                2 * (i + 10)
            }
        })
        .collect();
    assert_eq!(&u32s(&out)[..6], &want[..]);
}

#[test]
fn loop_variables_swap_in_parallel() {
    // Fibonacci with `continue %b, %s`: the copy must read both before writing.
    let src = r#"
fn @k(%out: ptr) kernel {
  %r = loop (%i: i32 = 0, %a: i32 = 0, %b: i32 = 1) -> i32 {
    %done = icmp eq i32 %i, 10
    if %done {
      break %a
    }
    %s = add i32 %a, %b
    %i1 = add i32 %i, 1
    continue %i1, %b, %s
  }
  store i32 %r, %out
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    assert_eq!(u32s(&out)[0], 55);
}

#[test]
fn call_through_a_non_function_pointer() {
    let src = r#"
sig $s()

fn @k(%out: ptr) kernel {
  call_indirect $s %out()
}
"#;
    let e = run_error(src, &Limits::default());
    assert!(
        matches!(e.kind, RunErrorKind::NotAFunction(a) if a == 1 << 32),
        "{e}"
    );
    assert_eq!(e.function, "k");
    assert_eq!(e.invocation, [0, 0, 0]);
    let text = e.render("t.gsir", src);
    assert!(
        text.starts_with("t.gsir:5:3: invocation [0, 0, 0] in `@k`: call through 0x100000000"),
        "{text}"
    );
}

#[test]
fn indirect_call_with_the_wrong_signature() {
    let src = r#"
sig $s(i32)

fn @g(%x: f32) {
}

fn @k(%out: ptr) kernel {
  %f = func_addr @g
  %z = const i32 0
  call_indirect $s %f(%z)
}
"#;
    let e = run_error(src, &Limits::default());
    assert_eq!(
        e.kind,
        RunErrorKind::SignatureMismatch {
            callee: "g".into(),
            sig: "s".into()
        }
    );
    // Function addresses are the documented tagged values.
    assert_ne!(function_address(0), function_address(1));
}

#[test]
fn out_of_bounds_global_access() {
    let src = r#"
fn @k(%out: ptr) kernel {
  %i = global_id 0
  %off = mul i32 %i, 100
  %p = ptradd %out, %off
  store i32 %i, %p
}
"#;
    // Invocation 2 writes at offset 200 (fits 256); invocation 3 at 300 does not.
    let e = run_error(src, &Limits::default());
    assert_eq!(
        e.kind,
        RunErrorKind::OutOfBounds {
            addr: (1 << 32) + 300,
            len: 4
        }
    );
    assert_eq!(e.invocation, [3, 0, 0]);
    // Address 0 is never mapped.
    let e = run_error(
        "fn @k(%out: ptr) kernel {\n  %v = load i32 0\n}\n",
        &Limits::default(),
    );
    assert_eq!(e.kind, RunErrorKind::OutOfBounds { addr: 0, len: 4 });
}

#[test]
fn out_of_bounds_stack_access() {
    let src = "fn @k(%out: ptr) kernel {\n  %a = alloca 8\n  %v = sload i64 %a, 4\n}\n";
    let e = run_error(src, &Limits::default());
    assert_eq!(
        e.kind,
        RunErrorKind::StackOutOfBounds {
            offset: 4,
            len: 8,
            size: 8
        }
    );
}

#[test]
fn step_limit() {
    let src = "fn @k(%out: ptr) kernel {\n  loop {\n  }\n}\n";
    let limits = Limits {
        max_steps: 1000,
        ..Limits::default()
    };
    let e = run_error(src, &limits);
    assert_eq!(e.kind, RunErrorKind::StepLimit(1000));
    assert!(e.to_string().contains("step limit hit"));
}

#[test]
fn call_depth_limit() {
    let src = "fn @f() {\n  call @f()\n}\n\nfn @k(%out: ptr) kernel {\n  call @f()\n}\n";
    let limits = Limits {
        max_call_depth: 10,
        ..Limits::default()
    };
    let e = run_error(src, &limits);
    assert_eq!(e.kind, RunErrorKind::CallDepth(10));
    assert_eq!(e.function, "f");
    assert_eq!(e.call_stack.len(), 10);
    assert_eq!(e.call_stack.last().map(String::as_str), Some("k"));
}

#[test]
fn stack_bytes_limit() {
    // 1000-byte frames (rounded to 1000) under a 4096-byte limit: the fifth frame fails.
    let src = "fn @f() {\n  %a = alloca 1000\n  call @f()\n}\n\nfn @k(%out: ptr) kernel {\n  call @f()\n}\n";
    let limits = Limits {
        max_stack_bytes: 4096,
        ..Limits::default()
    };
    let e = run_error(src, &limits);
    assert_eq!(
        e.kind,
        RunErrorKind::StackBytes {
            need: 5000,
            limit: 4096
        }
    );
}

#[test]
fn division_by_zero_and_unreachable() {
    let e = run_error(
        "fn @k(%out: ptr) kernel {\n  %z = const i32 0\n  %q = udiv i32 7, %z\n}\n",
        &Limits::default(),
    );
    assert_eq!(e.kind, RunErrorKind::DivisionByZero);
    let e = run_error(
        "fn @k(%out: ptr) kernel {\n  unreachable\n}\n",
        &Limits::default(),
    );
    assert_eq!(e.kind, RunErrorKind::Unreachable);
}

#[test]
fn noreturn_ret_ends_the_invocation() {
    // @stop is noreturn: its `ret` ends the invocation, so the store after the call never runs.
    let src = r#"
fn @stop(%out: ptr) noreturn {
  store i32 1, %out
  ret
}

fn @k(%out: ptr) kernel {
  call @stop(%out)
  %p = ptradd %out, 4
  store i32 2, %p
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    assert_eq!(&u32s(&out)[..2], &[1, 0]);
}

#[test]
fn memory_limit_and_dispatch_shape() {
    let mut mem = Memory::new(100);
    mem.add("a", vec![0; 60]).unwrap();
    assert!(matches!(
        mem.add("b", vec![0; 60]),
        Err(MemoryError::Limit { .. })
    ));
    assert_eq!(
        mem.add("a", vec![]),
        Err(MemoryError::Duplicate("a".into()))
    );
    let p = program("fn @k(%out: ptr) kernel {\n}\n");
    let r = p.dispatch(
        "k",
        &[0],
        &Dispatch::linear(10, 4),
        &mut mem,
        &Limits::default(),
    );
    assert!(matches!(
        r,
        Err(DispatchError::Shape {
            dim: 0,
            global: 10,
            group: 4
        })
    ));
    let r = p.dispatch(
        "nope",
        &[0],
        &Dispatch::linear(4, 4),
        &mut mem,
        &Limits::default(),
    );
    assert!(matches!(r, Err(DispatchError::NoKernel(_))));
    let r = p.dispatch(
        "k",
        &[],
        &Dispatch::linear(4, 4),
        &mut mem,
        &Limits::default(),
    );
    assert!(matches!(
        r,
        Err(DispatchError::ArgCount {
            want: 1,
            got: 0,
            ..
        })
    ));
}

#[test]
fn dispatch_intrinsics() {
    // Each invocation writes local, group, global ids (x, y) and sizes at 4 * global linear id.
    let src = r#"
fn @k(%out: ptr) kernel {
  %gx = global_id 0
  %gy = global_id 1
  %ox = global_offset 0
  %oy = global_offset 1
  %x = sub i32 %gx, %ox
  %y = sub i32 %gy, %oy
  %w = global_size 0
  %row = mul i32 %y, %w
  %lin = add i32 %row, %x
  %lx = local_id 0
  %ly = local_id 1
  %grx = group_id 0
  %gry = group_id 1
  %ng = num_groups 0
  %gs = group_size 1
  %wd = work_dim
  ; code = lx | ly<<4 | grx<<8 | gry<<12 | ng<<16 | gs<<20 | wd<<24
  %a1 = shl i32 %ly, 4
  %a2 = shl i32 %grx, 8
  %a3 = shl i32 %gry, 12
  %a4 = shl i32 %ng, 16
  %a5 = shl i32 %gs, 20
  %a6 = shl i32 %wd, 24
  %c1 = or i32 %lx, %a1
  %c2 = or i32 %c1, %a2
  %c3 = or i32 %c2, %a3
  %c4 = or i32 %c3, %a4
  %c5 = or i32 %c4, %a5
  %c6 = or i32 %c5, %a6
  %off = mul i32 %lin, 4
  %p = ptradd %out, %off
  store i32 %c6, %p
}
"#;
    let p = program(src);
    let mut mem = Memory::new(1 << 20);
    let out = mem.add("out", vec![0; 4 * 24]).unwrap();
    let d = Dispatch {
        global_size: [6, 4, 1],
        group_size: [3, 2, 1],
        global_offset: [100, 7, 0],
        work_dim: 2,
    };
    let stats = p
        .dispatch("k", &[out], &d, &mut mem, &Limits::default())
        .unwrap();
    assert_eq!(stats.invocations, 24);
    let got = u32s(&mem.buffer("out").unwrap().data);
    for y in 0..4u32 {
        for x in 0..6u32 {
            let code =
                (x % 3) | (y % 2) << 4 | (x / 3) << 8 | (y / 2) << 12 | 2 << 16 | 2 << 20 | 2 << 24;
            assert_eq!(got[(y * 6 + x) as usize], code, "({x}, {y})");
        }
    }
}

#[test]
fn invocation_limit() {
    let p = program("fn @k(%out: ptr) kernel {\n}\n");
    let mut mem = Memory::new(16);
    let d = Dispatch {
        global_size: [1 << 16, 1 << 16, 1],
        group_size: [1, 1, 1],
        global_offset: [0; 3],
        work_dim: 2,
    };
    let r = p.dispatch("k", &[0], &d, &mut mem, &Limits::default());
    assert!(matches!(r, Err(DispatchError::TooManyInvocations { count, .. }) if count == 1 << 32));
}

#[test]
fn float_comparisons_and_nan_rules() {
    // Bit i of the result word is condition i on (NaN, 1.0), then (1.0, 1.0) from bit 8;
    // then fmin(NaN, 2) and fmax(2, NaN) as f32 bits, then ffract(-1.25).
    let src = r#"
fn @bits(%a: f32, %b: f32, %w: i32 return) {
  %c0 = fcmp oeq %a, %b
  %c1 = fcmp une %a, %b
  %c2 = fcmp olt %a, %b
  %c3 = fcmp ole %a, %b
  %c4 = fcmp ogt %a, %b
  %c5 = fcmp oge %a, %b
  %c6 = fcmp ord %a, %b
  %c7 = fcmp uno %a, %b
  %w0 = zext i1 %c0 to i32
  %w1 = zext i1 %c1 to i32
  %w2 = zext i1 %c2 to i32
  %w3 = zext i1 %c3 to i32
  %w4 = zext i1 %c4 to i32
  %w5 = zext i1 %c5 to i32
  %w6 = zext i1 %c6 to i32
  %w7 = zext i1 %c7 to i32
  %s1 = shl i32 %w1, 1
  %s2 = shl i32 %w2, 2
  %s3 = shl i32 %w3, 3
  %s4 = shl i32 %w4, 4
  %s5 = shl i32 %w5, 5
  %s6 = shl i32 %w6, 6
  %s7 = shl i32 %w7, 7
  %o1 = or i32 %w0, %s1
  %o2 = or i32 %o1, %s2
  %o3 = or i32 %o2, %s3
  %o4 = or i32 %o3, %s4
  %o5 = or i32 %o4, %s5
  %o6 = or i32 %o5, %s6
  %o7 = or i32 %o6, %s7
  ret %o7
}

fn @k(%out: ptr) kernel {
  %nan = const f32 0x7fc00000
  %z = const i32 0
  %x = call @bits(%nan, 1.0, %z)
  %y = call @bits(1.0, 1.0, %z)
  %y8 = shl i32 %y, 8
  %r = or i32 %x, %y8
  store i32 %r, %out
  %m = fmin %nan, 2.0
  %p1 = ptradd %out, 4
  store f32 %m, %p1
  %n = fmax 2.0, %nan
  %p2 = ptradd %out, 8
  store f32 %n, %p2
  %f = ffract -1.25
  %p3 = ptradd %out, 12
  store f32 %f, %p3
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    let conds = |a: f32, b: f32| -> u32 {
        [
            a == b,
            a != b,
            a < b,
            a <= b,
            a > b,
            a >= b,
            !a.is_nan() && !b.is_nan(),
            a.is_nan() || b.is_nan(),
        ]
        .iter()
        .enumerate()
        .map(|(i, c)| u32::from(*c) << i)
        .sum()
    };
    let w = u32s(&out);
    assert_eq!(w[0], conds(f32::NAN, 1.0) | conds(1.0, 1.0) << 8);
    assert_eq!(w[0], 0x69 << 8 | 0x82); // by hand: une, uno; then oeq, ole, oge, ord
    assert_eq!(w[1], 2.0f32.to_bits());
    assert_eq!(w[2], 2.0f32.to_bits());
    assert_eq!(w[3], 0.75f32.to_bits());
}

#[test]
fn float_results_are_the_hardware_bits() {
    // Expected bits from the NaN rule, IEEE rounding and AMD's V_DIV_FIXUP_F32 / V_MAX_F32
    // pseudocode (0/0 gives 0xffc00000, the numerator's NaN first, a signalling NaN
    // operand of max comes back quieted), worked out by hand.
    let src = r#"
fn @k(%out: ptr) kernel {
  %z = const f32 0.0
  %snan = const f32 0x7f800001
  %one = const f32 1.0
  %r0 = fdiv %z, %z
  %r1 = fadd %snan, %one
  %a = const f32 0x7fc00005
  %b = const f32 0x7fc00009
  %r2 = fdiv %a, %b
  %m = const f32 -1.0
  %r3 = flog2 %m
  %r4 = fsqrt %m
  %nz = const f32 -0.0
  %r5 = fmin %z, %nz
  %r6 = fmax %snan, %one
  %r7 = fneg %snan
  %vs = ptradd %out, 0
  store f32 %r0, %vs
  %v1 = ptradd %out, 4
  store f32 %r1, %v1
  %v2 = ptradd %out, 8
  store f32 %r2, %v2
  %v3 = ptradd %out, 12
  store f32 %r3, %v3
  %v4 = ptradd %out, 16
  store f32 %r4, %v4
  %v5 = ptradd %out, 20
  store f32 %r5, %v5
  %v6 = ptradd %out, 24
  store f32 %r6, %v6
  %v7 = ptradd %out, 28
  store f32 %r7, %v7
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    assert_eq!(
        u32s(&out)[..8],
        [
            0xffc0_0000,
            0x7fc0_0001,
            0x7fc0_0005,
            0x7fc0_0000,
            0x7fc0_0000,
            0x8000_0000,
            0x7fc0_0001,
            0xff80_0001
        ]
    );
}

#[test]
fn empty_arms_and_nested_breaks_run_as_written() {
    // out[0] counts the iterations of the inner loop over all outer ones: the inner loop
    // leaves when %j reaches %i, the outer when %i reaches 4: 0 + 1 + 2 + 3 = 6.
    let src = r#"
fn @k(%out: ptr) kernel {
  %n = loop (%i: i32 = 0, %acc: i32 = 0) -> i32 {
    %stop = icmp eq i32 %i, 4
    if %stop {
      break %acc
    }
    %acc2 = loop (%j: i32 = 0, %a: i32 = %acc) -> i32 {
      %c = icmp eq i32 %j, %i
      if %c {
      } else {
        %a2 = add i32 %a, 1
        %j2 = add i32 %j, 1
        continue %j2, %a2
      }
      break %a
    }
    %i2 = add i32 %i, 1
    continue %i2, %acc2
  }
  store i32 %n, %out
}
"#;
    let (r, out) = run(src, 1, &Limits::default());
    r.unwrap();
    assert_eq!(u32s(&out)[0], 6);
}
