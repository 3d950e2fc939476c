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
//! Random programs of `gpuabi-fuzz` (without transcendentals) also run whole dispatches on
//! the host: the AMDGPU dispatch intrinsics are replaced by host functions that read the ids
//! a driver sets per invocation and a dispatch packet and implicit arguments laid out as the
//! emitter documents; buffers are mapped at the interpreter's addresses, so pointer values
//! agree too. `GPUABI_LLVM_PROGRAMS=N` sets the number per kind (default 12).
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
fn kernel_source() -> (String, Vec<(String, &'static str)>) {
    let ops = operations();
    let mut body = String::new();
    let mut slots: Vec<(String, &'static str)> = Vec::new();
    let mut store = |body: &mut String, value: &str, ty: &'static str, what: &str| {
        let slot = slots.len();
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
        slots.push((what.to_string(), ty));
    };
    for (k, (text, ty)) in ops.iter().enumerate() {
        let _ = writeln!(body, "    %r{k} = {text}");
        store(&mut body, &format!("%r{k}"), ty, text);
    }
    // Division: by zero the interpreter stops, so only non-zero divisors are divided.
    for (w, x, y) in [("i32", "%x", "%y"), ("i64", "%xl", "%yl")] {
        for op in ["udiv", "urem", "sdiv", "srem"] {
            let _ = writeln!(body, "    %nz_{op}{w} = icmp ne {w} {y}, 0");
            let _ = writeln!(body, "    %q_{op}{w} = if %nz_{op}{w} -> {w} {{");
            let _ = writeln!(body, "      %d_{op}{w} = {op} {w} {x}, {y}");
            let _ = writeln!(body, "      yield %d_{op}{w}\n    }} else {{");
            let _ = writeln!(body, "      yield 0\n    }}");
            store(&mut body, &format!("%q_{op}{w}"), w, &format!("{op} {w}"));
        }
    }
    // Stack array: a dynamic in-range slot, written then read back with a neighbour.
    body.push_str(
        "    %s_i = and i32 %x, 3\n    %s_off = mul i32 %s_i, 4\n    sstore i32 %y, %st, %s_off\n    %s_v = sload i32 %st, %s_off\n    %s_z = sload i32 %st, 12\n    %s_sum = add i32 %s_v, %s_z\n",
    );
    store(&mut body, "%s_sum", "i32", "stack array");
    // Calls: recursion, and an indirect call chosen per input.
    body.push_str(
        "    %c_n = and i32 %x, 7\n    %c_f = call @fact(%c_n, %x)\n    %c_lt = fcmp olt %a, %b\n    %c_p = select ptr %c_lt, %fmin, %fmax\n    %c_r = call_indirect $pick %c_p(%a, %b, %b)\n",
    );
    store(&mut body, "%c_f", "i32", "recursive call");
    store(&mut body, "%c_r", "f32", "fmin or fmax by an indirect call");
    let stride = slots.len() * 8;
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
    (source, slots)
}

#[test]
fn host_run_matches_the_interpreter() {
    ops_on_host(&EmitOptions::default(), |_, _, _| false);
}

/// With `loose_nans` only the documented differences remain: which NaN a NaN result is,
/// and `fmin`/`fmax` of zeros of different signs or with a signalling NaN.
#[test]
fn loose_nans_differ_only_in_nans_and_signed_zero_min_max() {
    let options = EmitOptions {
        loose_nans: true,
        ..EmitOptions::default()
    };
    ops_on_host(&options, |what, want, got| {
        let nan = |x: u32| x & 0x7fff_ffff > 0x7f80_0000;
        let zero = |x: u32| x & 0x7fff_ffff == 0;
        let min_max =
            what.starts_with("fmin") || what.starts_with("fmax") || what.contains("fmin or fmax");
        (nan(want) && nan(got)) || (min_max && ((zero(want) && zero(got)) || nan(want)))
    });
}

/// Runs the operations kernel in the interpreter and on the host; every f32 slot where
/// they differ must be accepted by `tolerate(what, interpreter bits, host bits)`, every
/// other slot must agree.
fn ops_on_host(options: &EmitOptions, tolerate: impl Fn(&str, u32, u32) -> bool) {
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
    let (source, slots) = kernel_source();
    let stride = slots.len() * 8;
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
    let ll = emit(&module, options).unwrap_or_else(|e| panic!("{e}"));
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
    let dir = std::env::temp_dir().join(format!(
        "gpuabi-llvm-ops-{}-{}",
        std::process::id(),
        options.loose_nans
    ));
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
    for (k, (want, got)) in expected.chunks(8).zip(out.stdout.chunks(8)).enumerate() {
        if want == got {
            continue;
        }
        let (pair, slot) = (k / slots.len(), k % slots.len());
        let (what, ty) = &slots[slot];
        let bits = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if *ty == "f32" && tolerate(what, bits(want), bits(got)) {
            continue;
        }
        let (a, b) = (FLOATS[pair / FLOATS.len()], FLOATS[pair % FLOATS.len()]);
        panic!(
            "a = {a:#010x}, b = {b:#010x}: `{what}` (slot {slot}): interpreter {want:02x?}, lli {got:02x?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The host stand-ins of the AMDGPU intrinsics the emitter uses for dispatch values: ids
/// read from `@ids` (local x, y, z, group x, y, z), which the driver sets before each
/// invocation, and the dispatch packet and implicit arguments as globals laid out as the
/// emitter reads them.
const HOST_INTRINSICS: &str = "
@ids = global [6 x i32] zeroinitializer
define i32 @host.amdgcn.workitem.id.x() { %p = getelementptr i32, ptr @ids, i32 0
  %v = load i32, ptr %p
  ret i32 %v }
define i32 @host.amdgcn.workitem.id.y() { %p = getelementptr i32, ptr @ids, i32 1
  %v = load i32, ptr %p
  ret i32 %v }
define i32 @host.amdgcn.workitem.id.z() { %p = getelementptr i32, ptr @ids, i32 2
  %v = load i32, ptr %p
  ret i32 %v }
define i32 @host.amdgcn.workgroup.id.x() { %p = getelementptr i32, ptr @ids, i32 3
  %v = load i32, ptr %p
  ret i32 %v }
define i32 @host.amdgcn.workgroup.id.y() { %p = getelementptr i32, ptr @ids, i32 4
  %v = load i32, ptr %p
  ret i32 %v }
define i32 @host.amdgcn.workgroup.id.z() { %p = getelementptr i32, ptr @ids, i32 5
  %v = load i32, ptr %p
  ret i32 %v }
define ptr addrspace(4) @host.amdgcn.dispatch.ptr() {
  %p = addrspacecast ptr @packet to ptr addrspace(4)
  ret ptr addrspace(4) %p }
define ptr addrspace(4) @host.amdgcn.implicitarg.ptr() {
  %p = addrspacecast ptr @implicit to ptr addrspace(4)
  ret ptr addrspace(4) %p }
declare ptr @mmap(ptr, i64, i32, i32, i32, i64)
declare ptr @memcpy(ptr, ptr, i64)
declare i64 @write(i32, ptr, i64)
declare void @exit(i32)
";

/// An LLVM `c"..."` string of bytes.
fn bytes_literal(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:02X}")).collect()
}

/// The emitted module rewritten for the host, with a driver `main` that maps every buffer
/// at the address the interpreter gives it (`(i + 1) << 32`, so pointer values agree
/// bit for bit), runs every invocation in the interpreter's order and writes the buffers
/// to standard output.
fn host_program(
    ll: &str,
    p: &gpuabi_fuzz::program::GeneratedProgram,
    kernel_params: &[gpuabi_ir::ir::Type],
) -> String {
    use gpuabi_ir::ir::Type;
    let mut host: String = ll
        .lines()
        .filter(|l| !(l.starts_with("declare") && l.contains("@llvm.amdgcn.")))
        .map(|l| format!("{l}\n"))
        .collect();
    host = host
        .replace("target triple = \"amdgcn-amd-amdhsa\"\n", "")
        .replace("amdgpu_kernel ", "")
        .replace(", addrspace(5)", "")
        .replace("ptr addrspace(5)", "ptr")
        .replace("llvm.memset.p5.i32", "llvm.memset.p0.i32")
        .replace("@llvm.amdgcn.", "@host.amdgcn.");
    host.push_str(HOST_INTRINSICS);
    let mut packet = vec![0u8; 64];
    packet[2..4].copy_from_slice(&(p.work_dim as u16).to_le_bytes());
    let mut implicit = vec![0u8; 256];
    let mut groups = [0u32; 3];
    for d in 0..3 {
        packet[4 + 2 * d..6 + 2 * d].copy_from_slice(&(p.group[d] as u16).to_le_bytes());
        packet[12 + 4 * d..16 + 4 * d].copy_from_slice(&p.grid[d].to_le_bytes());
        implicit[40 + 8 * d..48 + 8 * d].copy_from_slice(&u64::from(p.offset[d]).to_le_bytes());
        groups[d] = p.grid[d] / p.group[d];
    }
    let _ = writeln!(
        host,
        "@packet = global [64 x i8] c\"{}\", align 8",
        bytes_literal(&packet)
    );
    let _ = writeln!(
        host,
        "@implicit = global [256 x i8] c\"{}\", align 8",
        bytes_literal(&implicit)
    );
    for (i, (_, data)) in p.buffers.iter().enumerate() {
        let _ = writeln!(
            host,
            "@init{i} = constant [{} x i8] c\"{}\"",
            data.len(),
            bytes_literal(data)
        );
    }
    host.push_str("define i32 @main() {\nentry:\n");
    for (i, (_, data)) in p.buffers.iter().enumerate() {
        let addr = ((i as u64) + 1) << 32;
        let len = (data.len() as u64).div_ceil(4096).max(1) * 4096;
        // PROT_READ | PROT_WRITE; MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE.
        let _ = write!(
            host,
            "  %m{i} = call ptr @mmap(ptr inttoptr (i64 {addr} to ptr), i64 {len}, i32 3, i32 1048610, i32 -1, i64 0)
  %mi{i} = ptrtoint ptr %m{i} to i64
  %bad{i} = icmp ne i64 %mi{i}, {addr}
  br i1 %bad{i}, label %fail, label %ok{i}
ok{i}:
  call ptr @memcpy(ptr %m{i}, ptr @init{i}, i64 {})
",
            data.len()
        );
    }
    let total: u64 = p.grid.iter().map(|&g| u64::from(g)).product();
    let address = |name: &str| {
        let i = p
            .buffers
            .iter()
            .position(|(n, _)| n == name)
            .expect("named buffer");
        ((i as u64) + 1) << 32
    };
    let mut args = Vec::new();
    for (k, (bits, ty)) in p.arg_bits(address).iter().zip(kernel_params).enumerate() {
        let v = match ty {
            Type::I1 => (if bits & 1 != 0 { "true" } else { "false" }).to_string(),
            Type::I32 => (*bits as u32 as i32).to_string(),
            Type::I64 => (*bits as i64).to_string(),
            Type::F32 => {
                let _ = writeln!(
                    host,
                    "  %arg{k} = bitcast i32 {} to float",
                    *bits as u32 as i32
                );
                format!("%arg{k}")
            }
            _ => {
                let _ = writeln!(
                    host,
                    "  %arg{k} = inttoptr i64 {} to ptr addrspace(1)",
                    *bits as i64
                );
                format!("%arg{k}")
            }
        };
        let t = match ty {
            Type::I1 => "i1",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::F32 => "float",
            _ => "ptr addrspace(1)",
        };
        args.push(format!("{t} {v}"));
    }
    // One loop over the invocations; the ids are digits of the index with local x fastest,
    // then local y, z, group x, y, z, as the interpreter orders them.
    let radices = [
        p.group[0], p.group[1], p.group[2], groups[0], groups[1], groups[2],
    ];
    let _ = write!(
        host,
        "  br label %loop\nloop:\n  %inv = phi i64 [ 0, %ok{} ], [ %next, %loop ]\n",
        p.buffers.len().saturating_sub(1)
    );
    let mut rest = "%inv".to_string();
    for (k, r) in radices.iter().enumerate() {
        let _ = write!(
            host,
            "  %d{k} = urem i64 {rest}, {r}\n  %q{k} = udiv i64 {rest}, {r}\n  %i{k} = trunc i64 %d{k} to i32\n  %s{k} = getelementptr i32, ptr @ids, i32 {k}\n  store i32 %i{k}, ptr %s{k}\n"
        );
        rest = format!("%q{k}");
    }
    let _ = write!(
        host,
        "  call void @{}({})\n  %next = add i64 %inv, 1\n  %more = icmp ult i64 %next, {total}\n  br i1 %more, label %loop, label %done\ndone:\n",
        p.kernel,
        args.join(", ")
    );
    for (i, (_, data)) in p.buffers.iter().enumerate() {
        let _ = writeln!(
            host,
            "  %w{i} = call i64 @write(i32 1, ptr %m{i}, i64 {})",
            data.len()
        );
    }
    host.push_str("  ret i32 0\nfail:\n  call void @exit(i32 2)\n  unreachable\n}\n");
    host
}

/// Random programs (the generator's, without the AMDGPU-only transcendentals) run by
/// `lli-19` over their whole dispatch must leave exactly the interpreter's buffers: this
/// covers control flow, calls and the dispatch values (ids, sizes, global offset) as the
/// emitter reads them from the packet layout.
fn random_programs_on_the_host(calls: bool) {
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
    let n: u64 = std::env::var("GPUABI_LLVM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let config = gpuabi_fuzz::program::GenConfig {
        calls,
        transcendentals: false,
        ..Default::default()
    };
    let dir = std::env::temp_dir().join(format!("gpuabi-llvm-lli-{}-{calls}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    for seed in 0..n {
        let p = gpuabi_fuzz::program::generate(seed, &config);
        let module = gpuabi_ir::parse(&p.source).expect("generated programs parse");
        let program = Program::new(&module).expect("generated programs verify");
        let mut mem = Memory::new(1 << 30);
        for (name, data) in &p.buffers {
            mem.add(name, data.clone()).expect("buffer");
        }
        let args = p.arg_bits(|name| mem.address(name).expect("named buffer"));
        let d = Dispatch {
            global_size: p.grid,
            group_size: p.group,
            global_offset: p.offset,
            work_dim: p.work_dim,
        };
        program
            .dispatch(&p.kernel, &args, &d, &mut mem, &Limits::default())
            .unwrap_or_else(|e| panic!("seed {seed}: interpreter: {e}"));
        let expected: Vec<u8> = mem.buffers.iter().flat_map(|b| b.data.clone()).collect();
        let kernel = module.function(&p.kernel).expect("the kernel");
        let types: Vec<_> = kernel.params.iter().map(|q| kernel.ty(q.value)).collect();
        let ll =
            emit(&module, &EmitOptions::default()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let file = dir.join(format!("seed{seed}.ll"));
        std::fs::write(&file, host_program(&ll, &p, &types)).expect("write .ll");
        let out = Command::new("lli-19")
            .arg(&file)
            .output()
            .expect("lli-19 runs");
        assert!(
            out.status.success(),
            "seed {seed} ({}): lli-19 failed ({:?}):\n{}",
            file.display(),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(i) = (0..expected.len()).find(|&i| out.stdout.get(i) != Some(&expected[i])) {
            panic!(
                "seed {seed} ({}): byte {i} of the buffers: interpreter {:#04x}, lli {:?}",
                file.display(),
                expected[i],
                out.stdout.get(i)
            );
        }
        assert_eq!(out.stdout.len(), expected.len(), "seed {seed}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_programs_run_on_the_host_as_in_the_interpreter() {
    random_programs_on_the_host(false);
}

#[test]
fn random_programs_with_calls_run_on_the_host_as_in_the_interpreter() {
    random_programs_on_the_host(true);
}

/// Runs `source`'s kernel `@k(%out: ptr, %v: i32)` once on the host with `v` and returns
/// whether it ran to completion; the interpreter's verdict must be the same.
fn completes_on_host_and_in_interpreter(source: &str, v: u32) -> bool {
    let module = gpuabi_ir::parse(source).expect("parses");
    let program = Program::new(&module).expect("verifies");
    let mut mem = Memory::new(1 << 20);
    let out = mem.add("out", vec![0; 8]).expect("buffer");
    let interpreted = program
        .dispatch(
            "k",
            &[out, u64::from(v)],
            &Dispatch::linear(1, 1),
            &mut mem,
            &Limits::default(),
        )
        .is_ok();
    let ll = emit(&module, &EmitOptions::default()).expect("emits");
    let host = ll
        .replace("target triple = \"amdgcn-amd-amdhsa\"\n", "")
        .replace("amdgpu_kernel ", "")
        .replace(", addrspace(5)", "")
        .replace("ptr addrspace(5)", "ptr")
        .replace("llvm.memset.p5.i32", "llvm.memset.p0.i32")
        + &format!(
            "@out = global [8 x i8] zeroinitializer
define i32 @main() {{
  %o = addrspacecast ptr @out to ptr addrspace(1)
  call void @k(ptr addrspace(1) %o, i32 {})
  ret i32 0
}}
",
            v as i32
        );
    let dir = std::env::temp_dir().join(format!("gpuabi-llvm-trap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join(format!("trap{v}.ll"));
    std::fs::write(&file, host).expect("write .ll");
    let status = Command::new("lli-19")
        .arg(&file)
        .output()
        .expect("lli-19 runs")
        .status;
    let _ = std::fs::remove_file(&file);
    assert_eq!(
        status.success(),
        interpreted,
        "v = {v}: interpreter completed: {interpreted}, host: {status:?}\n{source}"
    );
    interpreted
}

/// Division by zero, `unreachable` and stack accesses outside their array stop the
/// interpreter; the emitted code traps at the same points and only there.
#[test]
fn runtime_errors_trap_where_the_interpreter_stops() {
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
    let division =
        "fn @k(%out: ptr, %v: i32) kernel {\n  %q = sdiv i32 100, %v\n  store i32 %q, %out\n}\n";
    assert!(completes_on_host_and_in_interpreter(division, 7));
    assert!(!completes_on_host_and_in_interpreter(division, 0));
    // Offsets 0..=12 of a 16-byte array hold an i32; 13 and -4 do not.
    let stack = "fn @k(%out: ptr, %v: i32) kernel {\n  %a = alloca 16\n  sstore i32 %v, %a, %v\n  %x = sload i32 %a, 12\n  store i32 %x, %out\n}\n";
    assert!(completes_on_host_and_in_interpreter(stack, 12));
    assert!(!completes_on_host_and_in_interpreter(stack, 13));
    assert!(!completes_on_host_and_in_interpreter(stack, (-4i32) as u32));
    let unreachable = "fn @k(%out: ptr, %v: i32) kernel {\n  %z = icmp eq i32 %v, 0\n  if %z {\n    unreachable\n  }\n  store i32 %v, %out\n}\n";
    assert!(completes_on_host_and_in_interpreter(unreachable, 1));
    assert!(!completes_on_host_and_in_interpreter(unreachable, 0));
}
