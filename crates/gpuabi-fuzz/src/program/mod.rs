//! Random, verified, well-defined `.gsir` kernels with their dispatches: the programs of
//! the oracle "compiled code leaves exactly the memory the reference interpreter leaves".
//!
//! [`generate`] turns a seed into one kernel, a dispatch shape, buffer contents and kernel
//! arguments. The kernel exercises what a GPU backend must get right: every opcode of the
//! IR on interesting values (signed zeros, denormals, infinities, NaNs, conversion
//! boundaries, `MIN / -1`, shifts by any amount), uniform and divergent `if`s yielding
//! values, counted loops with uniform and divergent `break` and `continue`, stack arrays
//! at run-time offsets, global loads and stores of every width, and sometimes more than a
//! hundred `i32`/`f32` values live at once.
//!
//! Every program is defined for every invocation, so any correct compiler must give the
//! interpreter's bytes:
//!
//! * no integer division by zero (divisors are odd or non-zero literals); everything else
//!   the IR defines for all operands;
//! * every loop is counted with a bounded trip count (see the `control` module);
//! * every memory access is in bounds and aligned to its width; invocations share only
//!   read-only input buffers and each writes and reads back only its own slice of the
//!   output buffer (see the `memory` module);
//! * no stored or hashed value depends on where buffers live: pointers are stored only to
//!   be loaded straight back and are hashed as offsets into their buffer.
//!
//! Every value a kernel computes is folded into a digest or stored, and every buffer is
//! compared after the run: `out` holds the results, the input buffers must be unchanged.

mod builder;
mod control;
mod digest;
mod dispatch;
mod literal;
mod memory;
mod ops;
mod rng;

use std::fmt::Write as _;
use std::path::Path;

use builder::{Alloca, Base, Builder, Input};
use rng::Rng;

/// Limits and switches of the generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenConfig {
    /// Instructions written before the generator stops opening new statements; digests
    /// and stores that close open regions and the epilogue come on top.
    pub max_instrs: usize,
    /// Deepest nesting of `if` and `loop`.
    pub max_depth: u32,
    /// Largest trip count of one loop.
    pub max_trip: u32,
    /// Largest product of the trip counts of nested loops.
    pub max_loop_work: u32,
    /// Largest number of invocations of the dispatch.
    pub max_invocations: u32,
    /// Largest block of values made early and kept live to the end, for register
    /// pressure (0: none).
    pub max_burst: usize,
    /// Whether `fsin`, `fcos`, `fexp2` and `flog2` are used.
    pub transcendentals: bool,
    /// Whether calls are generated. Not supported yet: must be false.
    pub calls: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            max_instrs: 300,
            max_depth: 4,
            max_trip: 6,
            max_loop_work: 36,
            max_invocations: 256,
            max_burst: 140,
            transcendentals: true,
            calls: false,
        }
    }
}

/// How often each construct was written into one program, as the generator knows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Constructs {
    /// `if`s with a uniform condition.
    pub uniform_if: usize,
    /// `if`s with a condition that may differ between invocations.
    pub divergent_if: usize,
    /// Loops whose every exit is taken by all invocations together (uniform bound, and
    /// early exits only under uniform conditions outside divergent `if`s).
    pub uniform_loop: usize,
    /// Loops with a per-invocation bound or an early exit some invocations may take alone.
    pub divergent_loop_exit: usize,
    /// `break`s before the end of a loop body.
    pub early_break: usize,
    /// `continue`s before the end of a loop body.
    pub early_continue: usize,
    /// Stack arrays.
    pub allocas: usize,
    /// `i32` and `f32` values live together where the kernel's epilogue starts.
    pub live_at_end: usize,
}

/// A kernel argument, as the interpreter takes it once the buffers are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    /// The bits of a scalar.
    Bits(u64),
    /// The address of a buffer plus a byte offset.
    Buffer {
        /// Buffer name.
        name: String,
        /// Bytes after its start.
        offset: u64,
    },
}

/// One generated kernel with everything needed to run it.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedProgram {
    /// The module in canonical `.gsir` text (it prints back unchanged).
    pub source: String,
    /// Name of its one kernel.
    pub kernel: String,
    /// Global size in invocations per dimension (`--grid`).
    pub grid: [u32; 3],
    /// Group size per dimension (`--group`).
    pub group: [u32; 3],
    /// Global offset per dimension (`--offset`).
    pub offset: [u32; 3],
    /// Number of dimensions given (1 to 3).
    pub work_dim: u32,
    /// Buffers with their initial contents; all of them are compared after the run.
    pub buffers: Vec<(String, Vec<u8>)>,
    /// Kernel arguments by parameter name, as `--arg NAME=VALUE` takes them.
    pub args: Vec<(String, String)>,
    /// The same arguments, in parameter order, as values.
    pub arg_values: Vec<ArgValue>,
    /// What the program contains.
    pub constructs: Constructs,
}

/// Value types the generator writes (`stack` handles are kept apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    I1,
    I32,
    I64,
    F32,
    Ptr,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::I1 => "i1",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::Ptr => "ptr",
        }
    }

    /// Bytes of its memory image.
    fn bytes(self) -> u32 {
        match self {
            Ty::I1 => 1,
            Ty::I32 | Ty::F32 => 4,
            Ty::I64 | Ty::Ptr => 8,
        }
    }
}

/// Stands for the slice size in the text until the body is written.
const SLICE_BYTES: &str = "SLICE_BYTES";

/// Generates the program of `seed`; the same seed and configuration always give the same
/// program.
///
/// # Panics
///
/// When `config.calls` is set: calls are not generated yet.
pub fn generate(seed: u64, config: &GenConfig) -> GeneratedProgram {
    assert!(!config.calls, "the generator does not write calls yet");
    let mut rng = Rng::new(seed);
    let shape = dispatch::shape(&mut rng, config.max_invocations.max(1));
    let invocations: u32 = shape.grid.iter().product();
    let mut b = Builder::new(rng, config);

    // Parameters: two read-only inputs, the output, and scalars.
    let mut params: Vec<(String, &str)> = vec![
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
                scalar(&mut b, name, Ty::I32, v.to_string(), u64::from(v as u32))
            }
            "i64" => {
                let v = b.rng.pick(literal::I64_VALUES);
                scalar(&mut b, name, Ty::I64, v.to_string(), v as u64)
            }
            _ => {
                // `--arg` reads decimal numbers, `inf` and `NaN` (the default NaN).
                let mut bits = literal::random_f32(&mut b.rng);
                let f = f32::from_bits(bits);
                if f.is_nan() {
                    bits = 0x7fc0_0000;
                }
                let f = f32::from_bits(bits);
                scalar(&mut b, name, Ty::F32, format!("{f:?}"), u64::from(bits))
            }
        };
        args.push((name.clone(), text));
        arg_values.push(value);
    }

    // Prologue: buffer addresses (only for pointer arithmetic), stack arrays, the ids and
    // this invocation's output slice.
    for k in 0..b.inputs.len() {
        let (param, bits) = (b.inputs[k].param.clone(), b.inputs[k].bits.clone());
        b.line(&format!("{bits} = bitcast ptr {param} to i64"));
    }
    b.line("%pstack = alloca 8");
    b.constructs.allocas += 1;
    for k in 0..b.rng.range(1, 3) {
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
    let lin = linear_index(&mut b);
    let off = if b.rng.chance(50) {
        let l = b.use_val(lin);
        b.temp(Ty::I32, &format!("mul i32 {l}, {SLICE_BYTES}"))
    } else {
        let l = b.use_val(lin);
        let w = b.temp(Ty::I64, &format!("zext i32 {l} to i64"));
        b.temp(Ty::I64, &format!("mul i64 {w}, {SLICE_BYTES}"))
    };
    b.line(&format!("%slice = ptradd %out, {off}"));

    // Half the programs get a burst of values live to the end, after a few statements.
    let burst_at = (config.max_burst > 0 && b.rng.chance(50)).then(|| b.rng.below(12));
    let mut statements = 0;
    while b.budget > 0 {
        if burst_at == Some(statements) {
            burst(&mut b);
        }
        control::statement(&mut b);
        statements += 1;
    }
    b.constructs.live_at_end = digest::finish(&mut b);
    b.line("ret");

    let slice = b.slice_bytes();
    let sig: Vec<String> = params
        .iter()
        .map(|(n, t)| format!("%{n}: {t} uniform"))
        .collect();
    let kernel = format!("k{seed:x}");
    let mut source = format!("fn @{kernel}({}) kernel {{\n", sig.join(", "));
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

/// Registers scalar parameter `name` as a uniform value; returns its `--arg` text and
/// value.
fn scalar(b: &mut Builder, name: &str, ty: Ty, text: String, bits: u64) -> (String, ArgValue) {
    let id = b.detached(ty, true, Base::None);
    b.vals[id].name = format!("%{name}");
    b.attach(id);
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
/// offsets (uniform) and per-invocation arithmetic. Written outside the budget.
fn burst(b: &mut Builder) {
    let budget = b.budget;
    let n = b
        .rng
        .range((b.cfg.max_burst / 2) as u32, b.cfg.max_burst as u32) as usize;
    for k in 0..n {
        let id = if b.rng.chance(50) {
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
    }
    b.budget = budget;
}

impl GeneratedProgram {
    /// The shell line that runs this program with `gpuabi run`, reading the source from
    /// `<kernel>.gsir` and each buffer from `<name>.bin`, and writing each buffer after the
    /// run to `<name>.out.bin` ([`GeneratedProgram::write_files`] writes those inputs).
    pub fn run_command(&self) -> String {
        let mut s = format!("gpuabi run {}.gsir --kernel {}", self.kernel, self.kernel);
        let dims = self.work_dim as usize;
        let list = |v: &[u32; 3]| {
            v[..dims]
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        let _ = write!(
            s,
            " --grid {} --group {} --offset {}",
            list(&self.grid),
            list(&self.group),
            list(&self.offset)
        );
        for (name, data) in &self.buffers {
            let _ = write!(s, " --buffer {name}={}:{name}.bin", data.len());
        }
        for (name, value) in &self.args {
            let _ = write!(s, " --arg {name}={value}");
        }
        for (name, _) in &self.buffers {
            let _ = write!(s, " --dump {name}:bin:{name}.out.bin");
        }
        s
    }

    /// Writes the source and the buffers into `dir` (as [`GeneratedProgram::run_command`]
    /// names them) and a `run.sh` holding the command; returns the command.
    pub fn write_files(&self, dir: &Path) -> std::io::Result<String> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(format!("{}.gsir", self.kernel)), &self.source)?;
        for (name, data) in &self.buffers {
            std::fs::write(dir.join(format!("{name}.bin")), data)?;
        }
        let cmd = self.run_command();
        std::fs::write(dir.join("run.sh"), format!("#!/bin/sh\n{cmd}\n"))?;
        Ok(cmd)
    }
}
