//! Random, verified, well-defined `.gsir` kernels with their dispatches: the programs of
//! the oracle "compiled code leaves exactly the memory the reference interpreter leaves".
//!
//! [`generate`] turns a seed into one kernel, a dispatch shape, buffer contents and kernel
//! arguments. The kernel exercises what a GPU backend must get right: every opcode of the
//! IR on interesting values (signed zeros, denormals, infinities, NaNs, conversion
//! boundaries, `MIN / -1`, shifts by any amount), uniform and divergent `if`s yielding
//! values, counted loops with uniform and divergent `break` and `continue`, stack arrays
//! at run-time offsets, global loads and stores of every width, and sometimes more than a
//! hundred `i32`/`f32` values live at once. With [`GenConfig::calls`] it also calls
//! functions of its own (see the `function` and `call` modules).
//!
//! Every program is defined for every invocation, so any correct compiler must give the
//! interpreter's bytes:
//!
//! * no integer division by zero (divisors are odd or non-zero literals); everything else
//!   the IR defines for all operands;
//! * every loop is counted with a bounded trip count (see the `control` module), every
//!   recursion counts a depth parameter down from at most 3, and the estimated work of a
//!   call times the trip counts of the loops around it is bounded (see the `function`
//!   module);
//! * every memory access is in bounds and aligned to its width; invocations share only
//!   read-only input buffers and each writes and reads back only its own slice of the
//!   output buffer (see the `memory` module);
//! * no stored or hashed value depends on where buffers live: pointers are stored only to
//!   be loaded straight back and are hashed as offsets into their buffer; function
//!   pointers are only called.
//!
//! Every value a kernel computes is folded into a digest or stored (see the `digest`
//! module), even when the instructions that use it lose information, so a wrong value in
//! any instruction that runs changes the bytes its invocation leaves. Every buffer is
//! compared after the run: `out` holds the results, the input buffers must be unchanged.
//!
//! `fsin`, `fcos`, `fexp2` and `flog2` follow the interpreter's definition, which may not
//! be what a hardware instruction gives; [`GenConfig::transcendentals`] leaves them out.
//!
//! A failing seed is reproduced from the command line with the files
//! [`GeneratedProgram::write_files`] writes:
//!
//! ```no_run
//! use gpuabi_fuzz::program::{generate, GenConfig};
//!
//! let g = generate(42, &GenConfig::default());
//! let cmd = g.write_files(std::path::Path::new("seed42"))?;
//! // In seed42/: `sh run.sh` runs `cmd`, which dumps every buffer to NAME.out.bin.
//! # Ok::<(), std::io::Error>(())
//! ```

mod builder;
mod call;
mod control;
mod digest;
mod dispatch;
mod function;
mod kernel;
mod literal;
mod memory;
mod ops;
mod rng;

use std::fmt::Write as _;
use std::path::Path;

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
    /// Whether the kernel has stack arrays (`alloca`, `sload`, `sstore`), for a consumer
    /// without scratch memory.
    pub stack_arrays: bool,
    /// Whether the program has functions besides the kernel and calls them (see the
    /// `function` and `call` modules): direct calls, indirect calls through a named `sig`
    /// with a function pointer chosen per invocation, bounded recursion, `return`
    /// parameters, wide signatures whose parameters go partly to scratch, every ACO ABI and
    /// `divergent_call`, at any nesting of `if`s and loops. Off by default.
    pub calls: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            max_instrs: 200,
            max_depth: 4,
            max_trip: 6,
            max_loop_work: 36,
            max_invocations: 256,
            max_burst: 140,
            transcendentals: true,
            stack_arrays: true,
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
    /// Functions besides the kernel, by ABI: none, `rt_recursive`, `traversal`,
    /// `ahit_isec`, `llvm_gfx`, `llvm_amdgpu_gfx`.
    pub functions_by_abi: [usize; 6],
    /// Functions with `divergent_call`.
    pub divergent_call_functions: usize,
    /// Functions that call themselves.
    pub recursive_functions: usize,
    /// Signatures whose parameters do not fit ACO's `max_param_demand` of a ray-tracing
    /// ABI, so that some go to scratch.
    pub scratch_param_signatures: usize,
    /// Direct calls (`call`).
    pub direct_calls: usize,
    /// Direct calls that end a function, passing its own parameters unmodified and
    /// returning the results at once (tail calls).
    pub tail_calls: usize,
    /// Indirect calls (`call_indirect`).
    pub indirect_calls: usize,
    /// Indirect calls whose function pointer may differ between the lanes of a wave.
    pub divergent_indirect_calls: usize,
    /// Calls inside a loop.
    pub calls_in_loops: usize,
    /// Calls inside an `if` with a divergent condition.
    pub calls_under_divergent_if: usize,
    /// Calls inside `if`s whose conditions are all uniform.
    pub calls_under_uniform_if: usize,
    /// Results of `return` parameters other than the callee's digest that calls gave back.
    pub return_values: usize,
    /// The most `i32` and `f32` values live across one call.
    pub live_across_call: usize,
}

impl Constructs {
    /// Adds the counts of another function of the same program.
    pub(crate) fn add(&mut self, o: &Constructs) {
        self.uniform_if += o.uniform_if;
        self.divergent_if += o.divergent_if;
        self.uniform_loop += o.uniform_loop;
        self.divergent_loop_exit += o.divergent_loop_exit;
        self.early_break += o.early_break;
        self.early_continue += o.early_continue;
        self.allocas += o.allocas;
        self.live_at_end = self.live_at_end.max(o.live_at_end);
        for k in 0..6 {
            self.functions_by_abi[k] += o.functions_by_abi[k];
        }
        self.divergent_call_functions += o.divergent_call_functions;
        self.recursive_functions += o.recursive_functions;
        self.scratch_param_signatures += o.scratch_param_signatures;
        self.direct_calls += o.direct_calls;
        self.tail_calls += o.tail_calls;
        self.indirect_calls += o.indirect_calls;
        self.divergent_indirect_calls += o.divergent_indirect_calls;
        self.calls_in_loops += o.calls_in_loops;
        self.calls_under_divergent_if += o.calls_under_divergent_if;
        self.calls_under_uniform_if += o.calls_under_uniform_if;
        self.return_values += o.return_values;
        self.live_across_call = self.live_across_call.max(o.live_across_call);
    }
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
/// Generates the program of `seed`; the same seed and configuration always give the same
/// program.
pub fn generate(seed: u64, config: &GenConfig) -> GeneratedProgram {
    let mut rng = Rng::new(seed);
    let shape = dispatch::shape(&mut rng, config.max_invocations.max(1));
    kernel::write(rng, config, format!("k{seed:x}"), shape)
}

impl GeneratedProgram {
    /// The argument bits, in parameter order, given where each buffer is placed.
    pub fn arg_bits(&self, address: impl Fn(&str) -> u64) -> Vec<u64> {
        self.arg_values
            .iter()
            .map(|a| match a {
                ArgValue::Bits(b) => *b,
                ArgValue::Buffer { name, offset } => address(name).wrapping_add(*offset),
            })
            .collect()
    }

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
