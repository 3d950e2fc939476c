//! Fuzz targets over the whole .gsir pipeline: parse, print, verify and, when the module
//! verifies, run every kernel under small limits. Inputs are raw strings, strings of the
//! language's own tokens, and token-level mutations of the example programs (which reach
//! the verifier and interpreter). Each target runs for a bounded time under `cargo test`;
//! the property is "an error or a value, never a panic or a hang".

use arbitrary::{Result, Unstructured};
use gpuabi_fuzz::Edit::{Delete, Duplicate, Move, Replace};
use gpuabi_fuzz::Mutator;
use gpuabi_ir::ir::Type;
use gpuabi_ir::{parse, print, verify, Dispatch, Limits, Memory, Program};

const BUDGET_MS: u64 = 2000;

const EXAMPLES: [&str; 3] = [
    include_str!("../../../examples/saxpy.gsir"),
    include_str!("../../../examples/mandelbrot.gsir"),
    include_str!("../../../examples/raytrace.gsir"),
];

#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "fn", "@k", "@f", "(", ")", "{", "}", ",", ":", "=", "\n", " ", ";", "%a", "%b", "%c", "%p",
    "%x", "i1", "i32", "i64", "f32", "ptr", "uniform", "kernel", "noreturn", "abi", "sig",
    "divergent_call", "discardable", "return", "ret", "if", "else", "loop", "break", "continue",
    "yield", "unreachable", "const", "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "shl",
    "lshr", "ashr", "and", "or", "xor", "not", "neg", "smin", "umax", "icmp", "fcmp", "eq", "ult",
    "slt", "olt", "uno", "select", "zext", "sext", "trunc", "to", "bitcast", "sitofp", "fptoui",
    "fadd", "fmul", "fdiv", "ffma", "fsqrt", "fsin", "popcount", "load", "store", "load_u8",
    "store_16", "sload", "sstore", "alloca", "ptradd", "call", "call_indirect", "func_addr",
    "global_id", "local_id", "group_id", "global_size", "work_dim", "0", "1", "2", "-1", "4",
    "4294967295", "4294967296", "9223372036854775807", "18446744073709551616", "0x7fc00001",
    "1e20", "-0.0", "nan", "true", "false", "->", "[", "]",
];

fn token_text(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = String::new();
    for _ in 0..u.int_in_range(0..=80)? {
        if u.ratio(1, 20)? {
            s.push(u.arbitrary::<char>()?);
        } else {
            s.push_str(u.choose(TOKENS)?);
            s.push(' ');
        }
    }
    Ok(s)
}

/// Example edits: two in five replace a word by a token of the language.
const MUTATOR: Mutator = Mutator {
    ends_word: |c| matches!(c, ' ' | '\n' | ',' | '(' | ')'),
    max_edits: 4,
    edits: &[Delete, Duplicate, Move, Replace, Replace],
};

/// An example with random token-level edits.
fn mutate(u: &mut Unstructured<'_>) -> Result<String> {
    let text = *u.choose(&EXAMPLES)?;
    MUTATOR.mutate(u, text, |u, _| Ok(format!("{} ", u.choose(TOKENS)?)))
}

fn source(u: &mut Unstructured<'_>) -> Result<String> {
    match u.int_in_range(0..=5)? {
        0 => u.arbitrary(),
        1 | 2 => token_text(u),
        _ => mutate(u),
    }
}

const SMALL: Limits = Limits {
    max_steps: 20_000,
    max_call_depth: 16,
    max_stack_bytes: 4096,
    max_memory_bytes: 1 << 16,
    max_invocations: 64,
};

fn run_all(u: &mut Unstructured<'_>, program: &Program) -> Result<()> {
    let kernels: Vec<String> = program.kernels().map(str::to_string).collect();
    for k in kernels {
        let Some(params) = program.kernel_params(&k) else {
            continue;
        };
        let params = params.to_vec();
        let mut mem = Memory::new(SMALL.max_memory_bytes);
        let mut args = Vec::new();
        for (i, (_, ty)) in params.iter().enumerate() {
            args.push(match ty {
                Type::Ptr if u.ratio(7, 8)? => {
                    let size = u.int_in_range(0..=4096)?;
                    // A refused buffer leaves a null pointer, itself worth running.
                    mem.add(&format!("b{i}"), vec![0; size]).unwrap_or_default()
                }
                Type::F32 => u64::from(f32::to_bits(*u.choose(&[
                    0.0,
                    1.5,
                    -2.0,
                    1e30,
                    f32::NAN,
                ])?)),
                _ => *u.choose(&[0, 1, 7, 64, 1000, u64::from(u32::MAX), u64::MAX])?,
            });
        }
        let group = *u.choose(&[1u32, 2, 4, 8])?;
        let global = group * u.int_in_range(1..=4)?;
        let _ = program.dispatch(
            &k,
            &args,
            &Dispatch::linear(global, group),
            &mut mem,
            &SMALL,
        );
    }
    Ok(())
}

#[test]
fn ir_pipeline_never_panics() {
    arbtest::arbtest(|u| {
        let src = source(u)?;
        let Ok(module) = parse(&src) else {
            return Ok(());
        };
        let printed = print(&module);
        assert!(
            parse(&printed).is_ok(),
            "printed module does not parse:\n{printed}\nfrom:\n{src}"
        );
        if verify(&module).is_err() {
            return Ok(());
        }
        if let Ok(program) = Program::new(&module) {
            run_all(u, &program)?;
        }
        Ok(())
    })
    .budget_ms(2 * BUDGET_MS);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let body = format!(
        "{}ret\n{}",
        "if %c {\n".repeat(50_000),
        "}\n".repeat(50_000)
    );
    let src = format!("fn @k(%c: i1) kernel {{\n{body}}}\n");
    // A message or a module; reaching here without overflowing the stack is the point.
    let _ = parse(&src).map(|m| verify(&m));
    let loops = format!(
        "fn @k() kernel {{\n{}ret\n{}}}\n",
        "loop {\n".repeat(50_000),
        "}\n".repeat(50_000)
    );
    let _ = parse(&loops).map(|m| verify(&m));
}

/// Inputs found by fuzzing, kept as plain tests.
#[test]
fn regressions() {
    use gpuabi_ir::interp::DispatchError;
    // dispatch.rs: the invocation count of three 2^32-1 sizes overflowed u64.
    let module = parse(EXAMPLES[0]).unwrap();
    let program = Program::new(&module).unwrap();
    let d = Dispatch {
        global_size: [u32::MAX; 3],
        group_size: [u32::MAX; 3],
        global_offset: [0; 3],
        work_dim: 3,
    };
    let mut mem = Memory::new(1 << 16);
    let r = program.dispatch("saxpy", &[0, 0, 0, 0], &d, &mut mem, &SMALL);
    // (2^32 - 1)^3, exactly.
    let want = u128::from(u32::MAX).pow(3);
    assert!(
        matches!(r, Err(DispatchError::TooManyInvocations { count, .. }) if count == want),
        "{r:?}"
    );
}

#[test]
fn deep_recursion_ends_with_an_error_of_bounded_size() {
    use gpuabi_ir::interp::{DispatchError, RunErrorKind, MAX_FRAME_SLOTS};
    // With the call-depth limit raised to its maximum, unbounded recursion grew the register
    // stack until memory ran out; the error then listed every one of millions of frames.
    let src = "fn @f(%x: i32) {\n  call @f(%x)\n  ret\n}\n\
               fn @k(%out: ptr) kernel {\n  %a = const i32 1\n  call @f(%a)\n  ret\n}\n";
    let program = Program::new(&parse(src).unwrap()).unwrap();
    let limits = Limits {
        max_call_depth: u32::MAX,
        max_steps: u64::MAX,
        ..SMALL
    };
    let mut mem = Memory::new(1 << 16);
    let out = mem.add("out", vec![0; 4]).unwrap();
    let r = program.dispatch("k", &[out], &Dispatch::linear(1, 1), &mut mem, &limits);
    let Err(DispatchError::Run(e)) = r else {
        panic!("expected a run error, got {r:?}");
    };
    let RunErrorKind::FrameRegisters { depth } = e.kind else {
        panic!("expected the register limit, got {:?}", e.kind);
    };
    // Every frame costs its registers plus 4 slots of bookkeeping: at least 5 slots.
    assert!((depth as usize) < MAX_FRAME_SLOTS / 5, "{depth}");
    let text = e.render("t.gsir", src);
    assert!(text.lines().count() < 50, "{} lines", text.lines().count());
    assert!(text.contains("more calls"), "{text}");
}
