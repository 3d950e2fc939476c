//! llc-19's assembly run unchanged: small LLVM IR kernels (straight-line code, loops,
//! divergent if/else, direct and recursive calls, per-lane indirect calls, more arguments
//! than registers, stack arrays, global variables, 64-bit arithmetic, work-group shared
//! memory with a barrier) are compiled with
//! llc-19 at -O0 and -O2 for tonga, gfx1030 and gfx1100 (amdhsa), run with `gpuabi sim run
//! FILE.s --kernel NAME` from the code's own descriptor and metadata, and their output
//! buffers compared with values this test computes in Rust from the IR's meaning. `asm
//! fmt` of the output must reassemble with llvm-mc-19 to the same bytes, llc's amdpal
//! output must pass `asm check`, and bad directives give located errors.
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::gpuabi;

const LLC: &str = "llc-19";
const LLVM_MC: &str = "llvm-mc-19";

/// The work-items every kernel runs: one work-group of 64 (two waves of 32 on RDNA).
const ITEMS: u32 = 64;

fn available(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let msg = format!("{tool} not found: the llc-19 output tests are skipped");
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("llc_asm");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A kernel: its IR, the flags of its dispatch (besides `out`), and the u32 words its
/// `out` buffer must hold, computed here from the IR's meaning.
struct Case {
    name: &'static str,
    ir: &'static str,
    args: Vec<String>,
    expected: Vec<u32>,
}

const STRAIGHT: &str = r#"
define amdgpu_kernel void @straight(ptr addrspace(1) %out, i32 %a, i32 %b) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %n = mul i32 %g, 64
  %gid = add i32 %n, %id
  %x = mul i32 %gid, %a
  %y = add i32 %x, %b
  %z = xor i32 %y, 12345
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %gid
  store i32 %z, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
"#;

const LOOP: &str = r#"
define amdgpu_kernel void @loop(ptr addrspace(1) %out, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %body
body:
  %i = phi i32 [0, %entry], [%i1, %body]
  %s = phi i32 [0, %entry], [%s1, %body]
  %t = mul i32 %i, %i
  %s1 = add i32 %s, %t
  %i1 = add i32 %i, 1
  %lim = add i32 %id, %n
  %c = icmp ult i32 %i1, %lim
  br i1 %c, label %body, label %exit
exit:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %s1, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const IFELSE: &str = r#"
define amdgpu_kernel void @ifelse(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %v = load i32, ptr addrspace(1) %pi
  %odd = and i32 %v, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %else
then:
  %a = udiv i32 %v, 3
  br label %join
else:
  %b = mul i32 %v, 7
  %b2 = sub i32 %b, %id
  br label %join
join:
  %r = phi i32 [%a, %then], [%b2, %else]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const CALLS: &str = r#"
define hidden i32 @fib(i32 %n) #0 {
  %c = icmp ult i32 %n, 2
  br i1 %c, label %base, label %rec
base:
  ret i32 %n
rec:
  %n1 = sub i32 %n, 1
  %n2 = sub i32 %n, 2
  %a = call i32 @fib(i32 %n1)
  %b = call i32 @fib(i32 %n2)
  %s = add i32 %a, %b
  ret i32 %s
}
define hidden i32 @twice(i32 %x) #0 {
  %y = mul i32 %x, 2
  ret i32 %y
}
define amdgpu_kernel void @calls(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %m = and i32 %id, 7
  %f = call i32 @fib(i32 %m)
  %t = call i32 @twice(i32 %f)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %t, ptr addrspace(1) %p
  ret void
}
attributes #0 = { noinline }
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const INDIRECT: &str = r#"
define hidden i32 @f_add(i32 %x) #0 {
  %y = add i32 %x, 100
  ret i32 %y
}
define hidden i32 @f_mul(i32 %x) #0 {
  %y = mul i32 %x, 3
  ret i32 %y
}
define hidden i32 @f_neg(i32 %x) #0 {
  %y = sub i32 0, %x
  ret i32 %y
}
@table = addrspace(1) constant [3 x ptr] [ptr @f_add, ptr @f_mul, ptr @f_neg]
define amdgpu_kernel void @indirect(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %k = urem i32 %id, 3
  %fp = getelementptr [3 x ptr], ptr addrspace(1) @table, i32 0, i32 %k
  %f = load ptr, ptr addrspace(1) %fp
  %r = call i32 %f(i32 %id)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %p
  ret void
}
attributes #0 = { noinline }
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const MANYARGS: &str = r#"
define hidden i32 @wide(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %a4, i32 %a5, i32 %a6, i32 %a7, i32 %a8, i32 %a9, i32 %a10, i32 %a11, i32 %a12, i32 %a13, i32 %a14, i32 %a15, i32 %a16, i32 %a17, i32 %a18, i32 %a19, i32 %a20, i32 %a21, i32 %a22, i32 %a23, i32 %a24, i32 %a25, i32 %a26, i32 %a27, i32 %a28, i32 %a29, i32 %a30, i32 %a31, i32 %a32, i32 %a33, i32 %a34) #0 {
  %s1 = mul i32 %a0, %a34
  %s2 = add i32 %s1, %a33
  %s3 = sub i32 %s2, %a32
  %s4 = xor i32 %s3, %a31
  %s5 = add i32 %s4, %a17
  ret i32 %s5
}
define amdgpu_kernel void @manyargs(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @wide(i32 %id, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16, i32 %id, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 %id, i32 32, i32 33, i32 %id)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %p
  ret void
}
attributes #0 = { noinline }
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const STACK: &str = r#"
define amdgpu_kernel void @stack(ptr addrspace(1) %out, i32 %k) {
entry:
  %arr = alloca [16 x i32], align 4, addrspace(5)
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %fill
fill:
  %i = phi i32 [0, %entry], [%i1, %fill]
  %pa = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %i
  %v = mul i32 %i, %id
  store volatile i32 %v, ptr addrspace(5) %pa
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 16
  br i1 %c, label %fill, label %done
done:
  %j = and i32 %id, 15
  %pj = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %j
  %r = load volatile i32, ptr addrspace(5) %pj
  %r2 = add i32 %r, %k
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r2, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const MATH64: &str = r#"
define amdgpu_kernel void @math64(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %m) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pi = getelementptr i64, ptr addrspace(1) %in, i32 %id
  %v = load i64, ptr addrspace(1) %pi
  %a = mul i64 %v, %m
  %b = add i64 %a, 81985529216486895
  %c = lshr i64 %b, 7
  %d = shl i64 %v, 13
  %e = xor i64 %c, %d
  %lt = icmp ult i64 %e, %v
  %f = select i1 %lt, i64 %e, i64 %v
  %g = udiv i64 %f, 1000003
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %id
  store i64 %g, ptr addrspace(1) %po
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const GLOBAL: &str = r#"
@counter = addrspace(1) global [64 x i32] zeroinitializer
@lut = addrspace(1) constant [8 x i32] [i32 3, i32 1, i32 4, i32 1, i32 5, i32 9, i32 2, i32 6]
define amdgpu_kernel void @global(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %k = and i32 %id, 7
  %pl = getelementptr [8 x i32], ptr addrspace(1) @lut, i32 0, i32 %k
  %l = load i32, ptr addrspace(1) %pl
  %j = and i32 %id, 63
  %pc = getelementptr [64 x i32], ptr addrspace(1) @counter, i32 0, i32 %j
  store i32 %l, ptr addrspace(1) %pc
  %r = load i32, ptr addrspace(1) %pc
  %r2 = add i32 %r, %id
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r2, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

/// Work-group shared memory: every work-item stores id * id + 7 in LDS, and after a
/// barrier reads its mirror's value (on wave32 the two waves of the work-group meet at
/// the barrier).
const SHARED: &str = r#"
@lds = internal addrspace(3) global [64 x i32] poison
define amdgpu_kernel void @shared(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %sq = mul i32 %id, %id
  %v = add i32 %sq, 7
  %pw = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %id
  store i32 %v, ptr addrspace(3) %pw
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %m = sub i32 63, %id
  %pr = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %m
  %r = load i32, ptr addrspace(3) %pr
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
"#;

fn fib(n: u32) -> u32 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

/// The 64-bit inputs of `math64`: spread over the range, small and large.
fn math64_input(id: u64) -> u64 {
    id.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (id << 7)
}

fn ifelse_input(id: u32) -> u32 {
    id.wrapping_mul(2_654_435_761) >> 3
}

fn u32_list(values: impl Iterator<Item = u32>) -> String {
    values.map(|v| v.to_string()).collect::<Vec<_>>().join(",")
}

fn cases() -> Vec<Case> {
    let ids = 0..ITEMS;
    let (a, b, n, k, m) = (3u32, 5u32, 5u32, 1000u32, 0x1234_5678_9abcu64);
    let math64_words = ids
        .clone()
        .flat_map(|id| {
            let v = math64_input(u64::from(id));
            let x = v.wrapping_mul(m).wrapping_add(81_985_529_216_486_895);
            let e = (x >> 7) ^ (v << 13);
            let g = e.min(v) / 1_000_003;
            [g as u32, (g >> 32) as u32]
        })
        .collect();
    let math64_in = u32_list(ids.clone().flat_map(|id| {
        let v = math64_input(u64::from(id));
        [v as u32, (v >> 32) as u32]
    }));
    vec![
        Case {
            name: "straight",
            ir: STRAIGHT,
            args: vec![format!("a={a}"), format!("b={b}")],
            expected: ids.clone().map(|g| (g * a + b) ^ 12345).collect(),
        },
        Case {
            name: "loop",
            ir: LOOP,
            args: vec![format!("n={n}")],
            // A do-while loop: the body runs for i = 0..max(1, id + n).
            expected: ids
                .clone()
                .map(|id| (0..(id + n).max(1)).map(|i| i * i).sum())
                .collect(),
        },
        Case {
            name: "ifelse",
            ir: IFELSE,
            args: vec![format!("in=in:{}", u32_list(ids.clone().map(ifelse_input)))],
            expected: ids
                .clone()
                .map(|id| {
                    let v = ifelse_input(id);
                    if v.is_multiple_of(2) {
                        v / 3
                    } else {
                        v.wrapping_mul(7).wrapping_sub(id)
                    }
                })
                .collect(),
        },
        Case {
            name: "calls",
            ir: CALLS,
            args: vec![],
            expected: ids.clone().map(|id| 2 * fib(id & 7)).collect(),
        },
        Case {
            name: "indirect",
            ir: INDIRECT,
            args: vec![],
            expected: ids
                .clone()
                .map(|id| match id % 3 {
                    0 => id + 100,
                    1 => id * 3,
                    _ => id.wrapping_neg(),
                })
                .collect(),
        },
        Case {
            name: "manyargs",
            ir: MANYARGS,
            args: vec![],
            expected: ids
                .clone()
                .map(|id| ((id * id + 33 - 32) ^ id) + id)
                .collect(),
        },
        Case {
            name: "stack",
            ir: STACK,
            args: vec![format!("k={k}")],
            expected: ids.clone().map(|id| (id & 15) * id + k).collect(),
        },
        Case {
            name: "math64",
            ir: MATH64,
            args: vec![format!("in=in:{math64_in}"), format!("m={m}")],
            expected: math64_words,
        },
        Case {
            name: "shared",
            ir: SHARED,
            args: vec![],
            expected: ids.clone().map(|id| (63 - id) * (63 - id) + 7).collect(),
        },
        Case {
            name: "global",
            ir: GLOBAL,
            args: vec![],
            expected: ids
                .clone()
                .map(|id| [3, 1, 4, 1, 5, 9, 2, 6][(id & 7) as usize] + id)
                .collect(),
        },
    ]
}

/// (llc's -mcpu, gpuabi's --target).
const TARGETS: [(&str, &str); 3] = [
    ("tonga", "gfx8"),
    ("gfx1030", "gfx1030"),
    ("gfx1100", "gfx1100"),
];

fn llc(ir_file: &Path, triple: &str, cpu: &str, opt: &str, extra: &[&str], out: &Path) {
    let o = Command::new(LLC)
        .args([&format!("-mtriple={triple}"), &format!("-mcpu={cpu}"), opt])
        .args(extra)
        .arg("-o")
        .arg(out)
        .arg(ir_file)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{LLC} {cpu} {opt} {}: {}",
        ir_file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `case` from the assembly file `s` with `gpuabi sim run --kernel` and compares its
/// `out` buffer with the expected words.
fn run_case(case: &Case, s: &Path, target: &str) -> Result<(), String> {
    let dump = s.with_extension("out");
    let out_bytes = case.expected.len() * 4;
    let mut args: Vec<String> = vec![
        "sim".into(),
        "run".into(),
        s.display().to_string(),
        "--target".into(),
        target.into(),
        "--kernel".into(),
        case.name.into(),
        "--grid".into(),
        ITEMS.to_string(),
        "--group".into(),
        ITEMS.to_string(),
        "--buffer".into(),
        format!("out={out_bytes}"),
        "--arg".into(),
        "out=@out".into(),
        "--print".into(),
        "out".into(),
        "--dump".into(),
        format!("out:bin:{}", dump.display()),
    ];
    for a in &case.args {
        // `NAME=in:V,...` is an input buffer and the argument naming it.
        if let Some((name, values)) = a.split_once("=in:") {
            args.extend(["--buffer".into(), format!("{name}=u32:{values}")]);
            args.extend(["--arg".into(), format!("{name}=@{name}")]);
        } else {
            args.extend(["--arg".into(), a.clone()]);
        }
    }
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = gpuabi(&argv);
    if !run.success() {
        return Err(run.stderr.trim().to_string());
    }
    let bytes = std::fs::read(&dump).map_err(|e| e.to_string())?;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if words.len() != case.expected.len() {
        return Err(format!(
            "{} words, expected {}",
            words.len(),
            case.expected.len()
        ));
    }
    match words.iter().zip(&case.expected).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(at) => Err(format!(
            "word {at} is {:#x}, expected {:#x}",
            words[at], case.expected[at]
        )),
    }
}

#[test]
fn llc_kernels_run_unchanged() {
    if !available(LLC) {
        return;
    }
    let dir = scratch();
    let mut failures = Vec::new();
    for case in cases() {
        let ir_file = dir.join(format!("{}.ll", case.name));
        std::fs::write(&ir_file, case.ir).unwrap();
        for (cpu, target) in TARGETS {
            for opt in ["-O0", "-O2"] {
                let s = dir.join(format!("{}-{cpu}{opt}.s", case.name));
                llc(&ir_file, "amdgcn-amd-amdhsa", cpu, opt, &[], &s);
                let text = std::fs::read_to_string(&s).unwrap();
                if text.contains("v_dual_") {
                    // gfx11's VOPD dual issue runs as written; the same kernel compiled
                    // without VOPD must run too.
                    let s = dir.join(format!("{}-{cpu}{opt}-novopd.s", case.name));
                    llc(
                        &ir_file,
                        "amdgcn-amd-amdhsa",
                        cpu,
                        opt,
                        &["-amdgpu-enable-vopd=0"],
                        &s,
                    );
                    if let Err(e) = run_case(&case, &s, target) {
                        failures.push(format!("{} {cpu} {opt} without VOPD: {e}", case.name));
                    }
                }
                if let Err(e) = run_case(&case, &s, target) {
                    failures.push(format!("{} {cpu} {opt}: {e}", case.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The encodings llvm-mc-19 shows for the file `s`, in order.
fn mc_encodings(s: &Path, cpu: &str) -> Vec<String> {
    let o = Command::new(LLVM_MC)
        .args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={cpu}"),
            "-show-encoding",
        ])
        .arg(s)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{LLVM_MC} rejects {}: {}",
        s.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_once("encoding: ").map(|(_, e)| e.to_string()))
        .collect()
}

#[test]
fn fmt_reassembles_and_amdpal_checks() {
    if !available(LLC) || !available(LLVM_MC) {
        return;
    }
    let dir = scratch().join("fmt");
    std::fs::create_dir_all(&dir).unwrap();
    let mut disassembled = 0;
    for case in cases() {
        let ir_file = dir.join(format!("{}.ll", case.name));
        std::fs::write(&ir_file, case.ir).unwrap();
        for (cpu, target) in TARGETS {
            let s = dir.join(format!("{}-{cpu}.s", case.name));
            llc(&ir_file, "amdgcn-amd-amdhsa", cpu, "-O2", &[], &s);
            let s_str = s.display().to_string();
            let fmt = gpuabi(&["asm", "fmt", &s_str, "--target", target]);
            assert!(fmt.success(), "{s_str}: {}", fmt.stderr);
            let printed = dir.join(format!("{}-{cpu}.fmt.s", case.name));
            std::fs::write(&printed, &fmt.stdout).unwrap();
            let original = mc_encodings(&s, cpu);
            assert!(!original.is_empty(), "{s_str}");
            assert_eq!(
                mc_encodings(&printed, cpu),
                original,
                "{s_str}: `asm fmt` output assembles to other bytes"
            );
            // amdpal output (PAL metadata instead of HSA descriptors) reads too; llc-19
            // itself fails on the indirect calls for amdpal ("scalar registers exceeds
            // limit").
            if case.name == "indirect" {
                continue;
            }
            let pal = dir.join(format!("{}-{cpu}.pal.s", case.name));
            llc(&ir_file, "amdgcn-amd-amdpal", cpu, "-O0", &[], &pal);
            let pal_str = pal.display().to_string();
            let check = gpuabi(&["asm", "check", &pal_str, "--target", target]);
            assert!(check.success(), "{pal_str}: {}", check.stderr);
            // The object's `.text` ends in llc's padding (`s_code_end` on RDNA): the
            // disassembly reads all of it and assembles back to the same bytes.
            let obj = dir.join(format!("{}-{cpu}.pal.o", case.name));
            llc(
                &ir_file,
                "amdgcn-amd-amdpal",
                cpu,
                "-O0",
                &["-filetype=obj"],
                &obj,
            );
            let obj_str = obj.display().to_string();
            let dis = gpuabi(&["asm", "disasm", &obj_str, "--target", target]);
            if text_relocations(&std::fs::read(&obj).unwrap()) > 0 {
                // Calls leave their addresses to the linker; the disassembler says so.
                assert!(
                    dis.stderr.contains("relocations"),
                    "{obj_str}: {}",
                    dis.stderr
                );
                continue;
            }
            assert!(dis.success(), "{obj_str}: {}", dis.stderr);
            let dis_file = dir.join(format!("{}-{cpu}.pal.dis.s", case.name));
            std::fs::write(&dis_file, &dis.stdout).unwrap();
            let bin = dir.join(format!("{}-{cpu}.pal.bin", case.name));
            let (dis_str, bin_str) = (dis_file.display().to_string(), bin.display().to_string());
            let enc = gpuabi(&[
                "asm", "encode", &dis_str, "--target", target, "-o", &bin_str,
            ]);
            assert!(enc.success(), "{dis_str}: {}", enc.stderr);
            let text = object_text(&std::fs::read(&obj).unwrap());
            assert_eq!(std::fs::read(&bin).unwrap(), text, "{obj_str}");
            if target != "gfx8" {
                assert!(dis.stdout.contains("s_code_end"), "{}", dis.stdout);
            }
            disassembled += 1;
        }
    }
    assert!(disassembled > 0, "no PAL object without relocations");
}

/// The relocations that apply to an object's `.text` section.
fn text_relocations(bytes: &[u8]) -> usize {
    use object::{Object, ObjectSection};
    let file = object::File::parse(bytes).unwrap();
    file.section_by_name(".text").unwrap().relocations().count()
}

/// The bytes of an object's `.text` section.
fn object_text(bytes: &[u8]) -> Vec<u8> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(bytes).unwrap();
    file.section_by_name(".text")
        .unwrap()
        .data()
        .unwrap()
        .to_vec()
}

#[test]
fn bad_directives_are_located() {
    let dir = scratch();
    let cases = [
        (
            "\t.text\nk:\n\ts_endpgm\n\t.section .rodata\n\t.bogus 3\n",
            ":5:2:",
            "unknown directive `.bogus`",
        ),
        (
            "\t.text\nk:\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 1\n",
            ":3:2:",
            "without its `.end_amdhsa_kernel`",
        ),
        (
            "\t.text\nk:\n\ts_add_u32 s0, s0, k@rel64@lo+4\n",
            ":3:",
            "unknown relocation specifier `@rel64@lo`",
        ),
        (
            "\t.section .data\n\ts_endpgm\n",
            ":2:2:",
            "an instruction in data section `.data`",
        ),
        (
            "\t.text\n\t.popsection\n",
            ":2:2:",
            "`.popsection` without a section to go back to",
        ),
        (
            "\t.text\nk:\n\ts_endpgm\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 1\n\
             \t\t.amdhsa_next_free_sgpr 1\n\t\t.amdhsa_bogus_field 1\n\t.end_amdhsa_kernel\n",
            ":7:",
            "amdhsa_bogus_field",
        ),
        ("\t.zero 100000000000\n", ":1:", "at most 4 bytes"),
    ];
    for (i, (text, place, message)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("bad{i}.s"));
        std::fs::write(&file, text).unwrap();
        let path = file.display().to_string();
        let run = gpuabi(&["asm", "check", &path, "--target", "gfx1030"]);
        assert!(!run.success(), "{text}");
        assert!(
            run.stderr.contains(&format!("{path}{place}")) && run.stderr.contains(message),
            "{text}: {}",
            run.stderr
        );
    }
}
