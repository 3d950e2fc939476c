//! The kernel: its parameters and their arguments, its prologue (buffer addresses, stack
//! arrays, this invocation's index and output slice), its body and its epilogue.
//!
//! Kernel parameters are all `uniform` (every invocation gets the same arguments): two
//! read-only input buffers `in` and `tab`, the output buffer `out`, and `i32`, `f32` and
//! sometimes `i64` scalars. Pointer arguments sometimes point a few words into their
//! buffer, so that the kernel's view does not start at the buffer's start.
//!
//! With calls, the callees are written once the parameters are known (they take the same
//! input buffers and use the slots of the slice before the kernel's), and the kernel calls
//! every callee group at least once: any group still uncalled at a checkpoint may be
//! called there, and every one still uncalled is called before the epilogue.

use super::builder::{Alloca, Base, Builder, Input};
use super::dispatch::{self, Shape};
use super::rng::Rng;
use super::{
    call, control, digest, function, literal, ops, ArgValue, GenConfig, GeneratedProgram, Ty,
};

/// Kernel-level statements between checkpoints (see [`digest::checkpoint`]).
const CHECKPOINT_EVERY: usize = 8;

/// Stands for the slice size in the text until the body is written.
const SLICE_BYTES: &str = "SLICE_BYTES";

/// Kernel parameters with their arguments, and the buffers behind the inputs.
struct Params {
    /// Names and types, in order.
    list: Vec<(String, &'static str)>,
    buffers: Vec<(String, Vec<u8>)>,
    args: Vec<(String, String)>,
    arg_values: Vec<ArgValue>,
    /// Where the kernel's view of `out` starts in the buffer.
    out_offset: u32,
}

/// Writes kernel `@kernel` for dispatch `shape` with its buffers and arguments.
pub(super) fn write(
    rng: Rng,
    config: &GenConfig,
    kernel: String,
    shape: Shape,
) -> GeneratedProgram {
    let invocations: u32 = shape.grid.iter().product();
    let mut b = Builder::new(rng, config);
    let Params {
        list,
        mut buffers,
        args,
        arg_values,
        out_offset,
    } = parameters(&mut b);
    let callees = config.calls.then(|| {
        let inputs = b.inputs.clone();
        let first = b.slice_bytes();
        function::write_all(&mut b.rng, config, &kernel, &inputs, first)
    });
    if let Some(c) = &callees {
        b.start_slots_at(c.next_slot);
        b.set_callees(c.groups.clone());
        b.constructs.add(&c.constructs);
    }
    prologue(&mut b);
    body(&mut b);

    let slice = b.slice_bytes();
    let sig: Vec<String> = list
        .iter()
        .map(|(n, t)| format!("%{n}: {t} uniform"))
        .collect();
    let mut source = String::new();
    if let Some(c) = &callees {
        for s in &c.sigs {
            source.push_str(s);
            source.push('\n');
        }
        for f in &c.functions {
            if !source.is_empty() {
                source.push('\n');
            }
            source.push_str(f);
        }
        source.push('\n');
    }
    source.push_str(&format!("fn @{kernel}({}) kernel {{\n", sig.join(", ")));
    source.push_str(&b.take_text().replace(SLICE_BYTES, &slice.to_string()));
    source.push_str("}\n");

    let out_bytes = out_offset + slice * invocations;
    let out = dispatch::random_bytes(&mut b.rng, out_bytes);
    buffers.push(("out".to_string(), out));
    GeneratedProgram {
        source,
        kernel,
        grid: shape.grid,
        group: shape.group,
        offset: shape.offset,
        work_dim: shape.work_dim,
        buffers,
        args,
        arg_values,
        constructs: b.constructs,
    }
}

/// Chooses the parameters (two read-only inputs, the output, and scalars, in a random
/// order), their arguments and the input buffers; registers them as values.
fn parameters(b: &mut Builder) -> Params {
    let mut params: Vec<(String, &'static str)> = vec![
        ("in".into(), "ptr"),
        ("tab".into(), "ptr"),
        ("out".into(), "ptr"),
    ];
    for k in 0..b.rng.range(1, 3) {
        params.push((format!("n{k}"), "i32"));
    }
    for k in 0..b.rng.range(1, 3) {
        params.push((format!("x{k}"), "f32"));
    }
    if b.rng.chance(50) {
        params.push(("w0".into(), "i64"));
    }
    for k in (1..params.len()).rev() {
        let j = b.rng.below(k + 1);
        params.swap(k, j);
    }

    let mut buffers = Vec::new();
    let mut args = Vec::new();
    let mut arg_values = Vec::new();
    let mut out_offset = 0;
    for (name, ty) in &params {
        let (text, value) = match *ty {
            "ptr" => {
                let offset = if b.rng.chance(30) {
                    8 * b.rng.range(1, 4)
                } else {
                    0
                };
                if name == "out" {
                    out_offset = offset;
                } else {
                    let size = b.rng.pick(&[64u32, 256, 1024, 4096]);
                    let mut data = dispatch::random_bytes(&mut b.rng, offset);
                    data.extend(dispatch::input_data(&mut b.rng, size));
                    buffers.push((name.clone(), data));
                    b.inputs.push(Input {
                        param: format!("%{name}"),
                        bits: format!("%{name}_bits"),
                        size,
                    });
                    let id = b.detached(Ty::Ptr, true, Base::Input(b.inputs.len() - 1));
                    b.vals[id].name = format!("%{name}");
                    b.attach(id);
                }
                let text = if offset == 0 {
                    name.clone()
                } else {
                    format!("{name}+{offset}")
                };
                let value = ArgValue::Buffer {
                    name: name.clone(),
                    offset: u64::from(offset),
                };
                (text, value)
            }
            "i32" => {
                let v = if b.rng.chance(70) {
                    b.rng.pick(literal::I32_VALUES)
                } else {
                    b.rng.next_u64() as i32 >> b.rng.below(32)
                };
                scalar(b, name, Ty::I32, v.to_string(), u64::from(v as u32))
            }
            "i64" => {
                let v = b.rng.pick(literal::I64_VALUES);
                scalar(b, name, Ty::I64, v.to_string(), v as u64)
            }
            _ => {
                // `--arg` reads decimal numbers, `inf` and `NaN` (the default NaN).
                let mut bits = literal::random_f32(&mut b.rng);
                let f = f32::from_bits(bits);
                if f.is_nan() {
                    bits = 0x7fc0_0000;
                }
                let f = f32::from_bits(bits);
                scalar(b, name, Ty::F32, format!("{f:?}"), u64::from(bits))
            }
        };
        args.push((name.clone(), text));
        arg_values.push(value);
    }

    Params {
        list: params,
        buffers,
        args,
        arg_values,
        out_offset,
    }
}

/// Writes the prologue: buffer addresses (only for pointer arithmetic), stack arrays, this
/// invocation's index and its output slice.
fn prologue(b: &mut Builder) {
    for k in 0..b.inputs.len() {
        let (param, bits) = (b.inputs[k].param.clone(), b.inputs[k].bits.clone());
        b.line(&format!("{bits} = bitcast ptr {param} to i64"));
    }
    let arrays = if b.cfg.stack_arrays {
        b.line("%pstack = alloca 8");
        b.constructs.allocas += 1;
        b.rng.range(1, 3)
    } else {
        0
    };
    for k in 0..arrays {
        let size = b.rng.pick(&[8u32, 12, 16, 24, 32, 64, 128, 256]);
        let name = format!("%stack{k}");
        b.line(&format!("{name} = alloca {size}"));
        b.allocas.push(Alloca {
            name,
            size,
            window: 1 << (31 - size.leading_zeros()),
        });
        b.constructs.allocas += 1;
    }
    let lin = linear_index(b);
    let off = if b.rng.chance(50) {
        let l = b.use_val(lin);
        b.temp(Ty::I32, &format!("mul i32 {l}, {SLICE_BYTES}"))
    } else {
        let l = b.use_val(lin);
        let w = b.temp(Ty::I64, &format!("zext i32 {l} to i64"));
        b.temp(Ty::I64, &format!("mul i64 {w}, {SLICE_BYTES}"))
    };
    b.line(&format!("%slice = ptradd %out, {off}"));
}

/// Writes statements until the budget is spent, then the epilogue and `ret`.
fn body(b: &mut Builder) {
    // Half the programs get a burst of values live to the end, after a few statements.
    let burst_at = (b.cfg.max_burst > 0 && b.rng.chance(50)).then(|| b.rng.below(12));
    let mut statements = 0;
    while b.budget > 0 {
        if burst_at == Some(statements) {
            burst(b);
        }
        control::statement(b);
        statements += 1;
        if statements % CHECKPOINT_EVERY == 0 {
            uncalled(b, 30);
            digest::checkpoint(b);
        }
    }
    uncalled(b, 100);
    b.constructs.live_at_end = digest::finish(b);
    b.line("ret");
}

/// Writes, with probability `percent` each, a call to every callee group the kernel has
/// not called yet, so that every function written is called (written outside the budget).
fn uncalled(b: &mut Builder, percent: u32) {
    let budget = b.budget;
    for k in 0..b.callees.len() {
        if b.calls_to[k] == 0 && b.rng.chance(percent) {
            call::group(b, k);
        }
    }
    b.budget = budget;
}

/// Registers scalar parameter `name` as a uniform value; returns its `--arg` text and
/// value.
fn scalar(b: &mut Builder, name: &str, ty: Ty, text: String, bits: u64) -> (String, ArgValue) {
    let id = b.detached(ty, true, Base::None);
    b.vals[id].name = format!("%{name}");
    b.attach(id);
    b.invariants.push(id);
    (text, ArgValue::Bits(bits))
}

/// Writes this invocation's index in x-fastest order from its global id, the global offset
/// and the global size; records the per-invocation ids for divergent conditions.
fn linear_index(b: &mut Builder) -> usize {
    let mut local = Vec::new();
    for d in 0..3 {
        let g = ops::builtin(b, "global_id", d);
        let o = ops::builtin(b, "global_offset", d);
        let (gn, on) = (b.use_val(g), b.use_val(o));
        local.push(b.def(Ty::I32, false, &format!("sub i32 {gn}, {on}")));
        if d == 0 {
            b.lane_ids.push(g);
        }
    }
    let l0 = ops::builtin(b, "local_id", 0);
    b.lane_ids.extend([l0, local[0]]);
    let s0 = ops::builtin(b, "global_size", 0);
    let s1 = ops::builtin(b, "global_size", 1);
    let (l2, s1n) = (b.use_val(local[2]), b.use_val(s1));
    let t = b.def(Ty::I32, false, &format!("mul i32 {l2}, {s1n}"));
    let (t, l1) = (b.use_val(t), b.use_val(local[1]));
    let t = b.def(Ty::I32, false, &format!("add i32 {t}, {l1}"));
    let (t, s0n) = (b.use_val(t), b.use_val(s0));
    let t = b.def(Ty::I32, false, &format!("mul i32 {t}, {s0n}"));
    let (t, l0n) = (b.use_val(t), b.use_val(local[0]));
    let lin = b.def(Ty::I32, false, &format!("add i32 {t}, {l0n}"));
    b.lane_ids.push(lin);
    lin
}

/// Writes a block of values kept live until the epilogue: loads from the inputs at fixed
/// offsets (uniform: scalar register pressure) and per-invocation arithmetic (vector
/// register pressure), mixed in a proportion chosen per block. Written outside the budget.
fn burst(b: &mut Builder) {
    let budget = b.budget;
    let n = b
        .rng
        .range((b.cfg.max_burst / 2) as u32, b.cfg.max_burst as u32) as usize;
    let uniform_percent = b.rng.pick(&[0, 50, 50, 100]);
    for k in 0..n {
        let id = if b.rng.chance(uniform_percent) {
            let i = b.rng.below(b.inputs.len());
            let (param, size) = (b.inputs[i].param.clone(), b.inputs[i].size);
            let off = b.rng.below((size / 4) as usize) * 4;
            let p = b.temp(Ty::Ptr, &format!("ptradd {param}, {off}"));
            let ty = b.rng.pick(&[Ty::I32, Ty::F32]);
            b.def(ty, true, &format!("load {} {p}", ty.name()))
        } else {
            let lane = b.rng.pick(&b.lane_ids.clone());
            let lane = b.name(lane);
            if b.rng.chance(50) {
                b.def(
                    Ty::I32,
                    false,
                    &format!("xor i32 {lane}, {}", 0x9e37 * (k + 1)),
                )
            } else {
                let x = b.temp(Ty::I32, &format!("add i32 {lane}, {k}"));
                b.def(Ty::F32, false, &format!("sitofp i32 {x} to f32"))
            }
        };
        b.vals[id].pinned = true;
        b.vals[id].keep = true;
    }
    b.budget = budget;
}
