//! Semantics of the emitted LLVM IR, checked on the host: a kernel exercising every
//! operation that has the same meaning on every LLVM target (integer and f32 arithmetic
//! with NaNs, signed zeros, infinities and denormals; conversions; min/max; division
//! corner cases; shifts by the width and more; stack arrays; direct, indirect and
//! recursive calls with `return` parameters; `if`/`loop` with values) runs in `lli-19` and
//! in gpuabi's interpreter over a table of inputs, and both must write the same bytes.
//!
//! The host differs from the IR's rules where it matters: x86 makes `0xffc00000` for every
//! invalid operation and its `minss` is not AMD's `v_min_f32`, so agreement shows that the
//! emitted selects, not the host, give the results.
//!
//! To run on the host the test rewrites the AMDGPU module text: no target triple, the
//! kernel's calling convention removed, stack arrays in address space 0 (x86's datalayout
//! has no address space 5). The dispatch intrinsics and `fsin`/`fcos`/`fexp2`/`flog2`
//! (AMDGPU intrinsics that model `v_sin_f32` and friends) have no host equivalent and are
//! not used here; the `llc-19` test covers that they compile.
//!
//! Skipped with a message when `lli-19` is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use std::fmt::Write as _;
use std::process::Command;

use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_llvm::{emit, EmitOptions};

/// f32 inputs: zeros, ones, a fraction, the extremes, denormals, infinities, quiet and
/// signalling NaNs of both signs, and values beyond the integer ranges.
const FLOATS: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3fc0_0000, // 1.5
    0xc020_0000, // -2.5
    0x4040_0000, // 3
    0x3e99_999a, // 0.3
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x7f7f_ffff, // largest finite
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0001, // quiet NaN with payload
    0xffc0_0002, // negative quiet NaN
    0x7f80_0005, // signalling NaN
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x5f80_0000, // 2^64
    0x4f80_0000, // 2^32
];

/// One statement per result: `.gsir` text computing `%rK` from `%a`, `%b` (f32) and `%x`,
/// `%y` (their bits as i32), and the type stored.
fn operations() -> Vec<(String, &'static str)> {
    let mut ops: Vec<(String, &'static str)> = Vec::new();
    for f in ["fadd", "fsub", "fmul", "fdiv", "fmin", "fmax"] {
        ops.push((format!("{f} %a, %b"), "f32"));
        ops.push((format!("{f} %b, %a"), "f32"));
    }
    for f in [
        "fneg", "fabs", "fsqrt", "frsq", "ffloor", "fceil", "ftrunc", "ffract",
    ] {
        ops.push((format!("{f} %a"), "f32"));
    }
    ops.push(("ffma %a, %b, %a".into(), "f32"));
    ops.push(("ffma %b, %b, %b".into(), "f32"));
    for c in ["oeq", "une", "olt", "ole", "ogt", "oge", "ord", "uno"] {
        ops.push((format!("fcmp {c} %a, %b"), "i1"));
    }
    for (op, to) in [
        ("fptosi", "i32"),
        ("fptoui", "i32"),
        ("fptosi", "i64"),
        ("fptoui", "i64"),
    ] {
        ops.push((format!("{op} f32 %a to {to}"), to));
    }
    for op in ["sitofp", "uitofp"] {
        ops.push((format!("{op} i32 %x to f32"), "f32"));
        ops.push((format!("{op} i64 %xl to f32"), "f32"));
    }
    for op in [
        "add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "umin", "umax", "smin",
        "smax",
    ] {
        ops.push((format!("{op} i32 %x, %y"), "i32"));
        ops.push((format!("{op} i64 %xl, %yl"), "i64"));
    }
    for op in ["not", "neg", "popcount"] {
        ops.push((format!("{op} i32 %x"), "i32"));
        ops.push((format!("{op} i64 %xl"), "i64"));
    }
    for c in [
        "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
    ] {
        ops.push((format!("icmp {c} i32 %x, %y"), "i1"));
    }
    ops.push(("select i32 %lt, %x, %y".into(), "i32"));
    ops.push(("trunc i64 %xl to i32".into(), "i32"));
    ops.push(("zext i32 %x to i64".into(), "i64"));
    ops.push(("bitcast f32 %b to i32".into(), "i32"));
    ops
}

/// The test kernel: a loop over the input pairs, one 8-byte result slot per operation,
/// then the division, stack-array and call results.
fn kernel_source() -> (String, usize) {
    let ops = operations();
    let mut body = String::new();
    let mut slot = 0usize;
    let mut store = |body: &mut String, value: &str, ty: &str| {
        let _ = writeln!(body, "    %o{slot} = ptradd %o, {}", slot * 8);
        match ty {
            "i1" => {
                let _ = writeln!(body, "    %w{slot} = zext i1 {value} to i32");
                let _ = writeln!(body, "    store i32 %w{slot}, %o{slot}");
            }
            _ => {
                let _ = writeln!(body, "    store {ty} {value}, %o{slot}");
            }
        }
        slot += 1;
    };
    for (k, (text, ty)) in ops.iter().enumerate() {
        let _ = writeln!(body, "    %r{k} = {text}");
        store(&mut body, &format!("%r{k}"), ty);
    }
    // Division: by zero the interpreter stops, so only non-zero divisors are divided.
    for (w, x, y) in [("i32", "%x", "%y"), ("i64", "%xl", "%yl")] {
        for op in ["udiv", "urem", "sdiv", "srem"] {
            let _ = writeln!(body, "    %nz_{op}{w} = icmp ne {w} {y}, 0");
            let _ = writeln!(body, "    %q_{op}{w} = if %nz_{op}{w} -> {w} {{");
            let _ = writeln!(body, "      %d_{op}{w} = {op} {w} {x}, {y}");
            let _ = writeln!(body, "      yield %d_{op}{w}\n    }} else {{");
            let _ = writeln!(body, "      yield 0\n    }}");
            store(&mut body, &format!("%q_{op}{w}"), w);
        }
    }
    // Stack array: a dynamic in-range slot, written then read back with a neighbour.
    body.push_str(
        "    %s_i = and i32 %x, 3\n    %s_off = mul i32 %s_i, 4\n    sstore i32 %y, %st, %s_off\n    %s_v = sload i32 %st, %s_off\n    %s_z = sload i32 %st, 12\n    %s_sum = add i32 %s_v, %s_z\n",
    );
    store(&mut body, "%s_sum", "i32");
    // Calls: recursion, and an indirect call chosen per input.
    body.push_str(
        "    %c_n = and i32 %x, 7\n    %c_f = call @fact(%c_n, %x)\n    %c_lt = fcmp olt %a, %b\n    %c_p = select ptr %c_lt, %fmin, %fmax\n    %c_r = call_indirect $pick %c_p(%a, %b, %b)\n",
    );
    store(&mut body, "%c_f", "i32");
    store(&mut body, "%c_r", "f32");
    let stride = slot * 8;
    let source = format!(
        "sig $pick(f32, f32, f32 return)

fn @min_of(%a: f32, %b: f32, %r: f32 return) {{
  %m = fmin %a, %b
  ret %m
}}

fn @max_of(%a: f32, %b: f32, %r: f32 return) {{
  %m = fmax %a, %b
  ret %m
}}

fn @fact(%n: i32, %r: i32 return) {{
  %small = icmp ule i32 %n, 1
  %v = if %small -> i32 {{
    yield 1
  }} else {{
    %m = sub i32 %n, 1
    %f = call @fact(%m, %r)
    %p = mul i32 %f, %n
    yield %p
  }}
  ret %v
}}

fn @ops(%in: ptr uniform, %out: ptr uniform, %n: i32 uniform) kernel {{
  %st = alloca 16
  %fmin = func_addr @min_of
  %fmax = func_addr @max_of
  loop (%i: i32 = 0) {{
    %done = icmp uge i32 %i, %n
    if %done {{
      break
    }}
    %ia = mul i32 %i, 8
    %pa = ptradd %in, %ia
    %pb = ptradd %pa, 4
    %a = load f32 %pa
    %b = load f32 %pb
    %x = load i32 %pa
    %y = load i32 %pb
    %xl = sext i32 %x to i64
    %yl = load i64 %pa
    %lt = icmp slt i32 %x, %y
    %ob = mul i32 %i, {stride}
    %o = ptradd %out, %ob
{body}    %next = add i32 %i, 1
    continue %next
  }}
  ret
}}
"
    );
    (source, stride)
}

#[test]
fn host_run_matches_the_interpreter() {
    let present = Command::new("lli-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("lli-19 is missing and GPUABI_REQUIRE_LLVM_MC=1");
        }
        eprintln!("skipped: lli-19 is not installed");
        return;
    }
    let (source, stride) = kernel_source();
    let module =
        gpuabi_ir::parse(&source).unwrap_or_else(|e| panic!("{}", e.0.render("ops.gsir", &source)));
    let mut input = Vec::new();
    for &a in FLOATS {
        for &b in FLOATS {
            input.extend_from_slice(&a.to_le_bytes());
            input.extend_from_slice(&b.to_le_bytes());
        }
    }
    let pairs = FLOATS.len() * FLOATS.len();
    let out_len = pairs * stride;

    // The interpreter.
    let program = Program::new(&module).unwrap_or_else(|e| panic!("{e}"));
    let mut mem = Memory::new(1 << 26);
    let in_addr = mem.add("in", input.clone()).expect("buffer");
    let out_addr = mem.add("out", vec![0; out_len]).expect("buffer");
    program
        .dispatch(
            "ops",
            &[in_addr, out_addr, pairs as u64],
            &Dispatch::linear(1, 1),
            &mut mem,
            &Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let expected = mem.buffer("out").expect("buffer").data.clone();

    // lli on the host.
    let ll = emit(&module, &EmitOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut host = ll
        .replace("target triple = \"amdgcn-amd-amdhsa\"\n", "")
        .replace("amdgpu_kernel ", "")
        .replace(", addrspace(5)", "")
        .replace("ptr addrspace(5)", "ptr")
        .replace("llvm.memset.p5.i32", "llvm.memset.p0.i32");
    let bytes: String = input.iter().map(|b| format!("\\{b:02X}")).collect();
    let _ = write!(
        host,
        "
@in = global [{} x i8] c\"{bytes}\", align 8
@out = global [{out_len} x i8] zeroinitializer, align 8
declare i64 @write(i32, ptr, i64)
define i32 @main() {{
  %in = addrspacecast ptr @in to ptr addrspace(1)
  %out = addrspacecast ptr @out to ptr addrspace(1)
  call void @ops(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 {pairs})
  %w = call i64 @write(i32 1, ptr @out, i64 {out_len})
  ret i32 0
}}
",
        input.len()
    );
    let dir = std::env::temp_dir().join(format!("gpuabi-llvm-lli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join("ops.ll");
    std::fs::write(&file, &host).expect("write .ll");
    let out = Command::new("lli-19")
        .arg(&file)
        .output()
        .expect("lli-19 runs");
    assert!(
        out.status.success(),
        "lli-19 failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout.len(), out_len, "bytes written by the host run");
    let ops = operations();
    for (i, (e, g)) in expected.iter().zip(&out.stdout).enumerate() {
        if e != g {
            let (pair, at) = (i / stride, i % stride);
            let (a, b) = (FLOATS[pair / FLOATS.len()], FLOATS[pair % FLOATS.len()]);
            let what = ops
                .get(at / 8)
                .map_or("a division, stack or call result".to_string(), |o| {
                    o.0.clone()
                });
            let slot = &expected[i - at % 8..i - at % 8 + 8];
            let host_slot = &out.stdout[i - at % 8..i - at % 8 + 8];
            panic!(
                "a = {a:#010x}, b = {b:#010x}: `{what}` (slot {}): interpreter {slot:02x?}, lli {host_slot:02x?}",
                at / 8
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
