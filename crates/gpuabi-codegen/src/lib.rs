//! gpuabi-codegen: compiles `.gsir` kernels to AMD GCN/RDNA machine programs.
//!
//! [`compile`] prepares every function (uniformity analysis and the shared CFG of
//! `gpuabi_ir`, and for a called function the parameters its call ABI adds), then runs
//! the passes of [`pipeline::PASSES`] on it, in order, validating the machine IR ([`mir`])
//! after each in debug builds and with [`Inspect::verify`], as ACO's `aco_interface.cpp`
//! does:
//!
//! 1. `isel` (instruction selection, `src/isel/`): the kernel entry ([`entry`]) and SSA
//!    machine IR over the CFG's blocks, with phis, branch pseudo-instructions for
//!    divergent control flow and linear-only blocks;
//! 2. `control_flow` ([`control_flow`]): the logical and linear CFGs;
//! 3. `insert_exec_mask` ([`insert_exec_mask`]): branch pseudo-instructions become
//!    exec-mask code and hardware branches;
//! 4. `register_allocation` ([`register_allocation`]) of the SSA code over liveness
//!    ([`liveness`]: VGPRs over the logical CFG, SGPRs over the linear one), VGPRs first,
//!    then SGPRs, spilling ([`spill`]: `p_spill`/`p_reload`, VGPRs to per-lane scratch,
//!    SGPRs to lanes of reserved VGPRs) until everything fits the limits;
//! 5. `ssa_elimination` ([`ssa_elimination`]): phis become parallel copies at the end of
//!    their logical or linear predecessors, between allocated registers;
//! 6. `lower_spills` ([`lower_spills`]): the spill pseudo-instructions are expanded;
//! 7. `check_ra`: the allocation checker ([`check_ra`]);
//! 8. `lower_calls` ([`lower_calls`]): the frame becomes final; calls, saves and returns
//!    become machine code;
//! 9. `lower_to_hw` ([`lower_to_hw`]): temps become registers, parallel copies moves;
//! 10. `insert_waitcnt` ([`insert_waitcnt`]): `s_waitcnt` where a loaded register is
//!     first read or overwritten, and before calls and returns.
//!
//! Emission ([`emit`]) then appends the function to the `amdgpu::Program`; its figures
//! ([`stats`]), its call sites ([`call_sites`]) and its entry are completed from what the
//! passes left in their [`pipeline::Context`]. A `catalyst` kernel whose VGPRs must spill
//! is compiled again with scratch (`scratch_retry.rs`).
//!
//! Calls follow Mesa's ACO call ABIs ([`call_abi`]): every function a kernel reaches is
//! compiled after the kernels, under its convention; its IR is first given the parameters
//! the ABI adds (`lower_call_abi`); calls are `p_call` between two parallel copies; after
//! allocation the frame becomes final and calls, saves and returns become machine code
//! ([`lower_calls`]). Calls are compiled for the RDNA targets under the `hsa` entry.

#![warn(missing_docs)]

pub mod call_abi;
pub mod call_sites;
pub mod check_ra;
pub mod control_flow;
pub mod emit;
pub mod entry;
pub mod error;
pub mod form_vopd;
pub mod insert_exec_mask;
pub mod insert_waitcnt;
mod isel;
pub mod liveness;
mod lower_call_abi;
pub mod lower_calls;
mod lower_noreturn_calls;
pub mod lower_spills;
pub mod lower_to_hw;
pub mod mir;
pub mod options;
pub mod pipeline;
pub mod register_allocation;
pub mod scratch;
mod scratch_retry;
pub mod spill;
pub mod ssa_elimination;
pub mod stack_size;
pub mod stats;
mod tail_calls;

use gpuabi_amdgpu::Program;
use gpuabi_ir::ir::{FuncId, InstrKind, Region};
use gpuabi_ir::Module;
use gpuabi_layout::aco::Demand;

pub use call_abi::CallOptions;
pub use call_sites::CallSiteInfo;
pub use error::{CodegenError, PassError};
pub use options::{Entry, OptionError, Options};
pub use pipeline::PrintAfter;
pub use stats::{CostItem, FunctionStats, Overhead};

/// How a compiled kernel is entered, per entry ABI: what a dispatcher needs to launch it.
#[derive(Debug, Clone, PartialEq)]
pub enum KernelEntry {
    /// `hsa`: the kernel descriptor and the kernarg segment.
    Hsa(gpuabi_amdgpu::hsa::Kernel),
    /// `catalyst`: the Catalyst layout (user data, cb0, cb1 slots, UAV ids, registers).
    Catalyst(Box<gpuabi_catalyst::KernelLayout>),
}

/// One compiled kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Its symbol (the IR function name).
    pub name: String,
    /// How it is entered.
    pub entry: KernelEntry,
    /// Figures.
    pub stats: FunctionStats,
}

/// The result of compiling a module.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The machine program holding every kernel.
    pub program: Program,
    /// The kernels.
    pub kernels: Vec<Kernel>,
    /// Figures of every compiled function, kernels first.
    pub functions: Vec<FunctionStats>,
    /// Every call of the program, in program order.
    pub calls: Vec<CallSiteInfo>,
    /// Every instruction of call-ABI overhead.
    pub costs: Vec<CostItem>,
}

impl Compiled {
    /// Per call site (in the order of [`Compiled::calls`]): the overhead instructions the
    /// site compiled to, by kind (see [`CostItem::site`]).
    pub fn site_overhead(&self) -> Vec<Overhead> {
        stats::site_overhead(&self.costs, self.calls.len())
    }

    /// The assembly of the module: the target line, the code, and each kernel's entry:
    /// under `hsa` its `.amdhsa_kernel` descriptor block and its entry in the
    /// `.amdgpu_metadata` block, which llvm-mc-19 assembles into an HSA code object; under `catalyst` a comment block with the Catalyst layout map
    /// (a Catalyst binary is not an HSA code object: the code assembles alone).
    pub fn assembly(&self) -> Result<String, CodegenError> {
        Ok(self.assembly_with_lines()?.0)
    }

    /// [`Compiled::assembly`], with the line (0-based) of the text where each item of
    /// [`Compiled::program`] is: what links a call site ([`CallSiteInfo::item`]) or an
    /// overhead instruction ([`CostItem::item`]) to the listing.
    pub fn assembly_with_lines(&self) -> Result<(String, Vec<usize>), CodegenError> {
        let (target, wave) = (self.program.target, self.program.wave);
        let mut out = gpuabi_amdgpu::hsa::print_preamble(target);
        let first = out.matches('\n').count();
        let (code, lines) = gpuabi_amdgpu::asm::print_with_lines(&self.program);
        out.push_str(&code);
        let lines = lines.into_iter().map(|l| l + first).collect();
        for k in &self.kernels {
            out.push('\n');
            match &k.entry {
                KernelEntry::Hsa(hsa) => {
                    let d = gpuabi_amdgpu::hsa::print_kernel_descriptor(
                        &k.name,
                        &hsa.descriptor,
                        target,
                        wave,
                    )
                    .map_err(|e| emission_error(&k.name, e.to_string()))?;
                    // The descriptor is data: llc-19 places it in `.rodata`, 64-byte
                    // aligned, where loaders look for the `NAME.kd` symbol.
                    out.push_str("\t.section .rodata,\"a\",@progbits\n\t.p2align 6, 0x0\n");
                    out.push_str(&d);
                }
                KernelEntry::Catalyst(layout) => {
                    out.push_str(&entry::catalyst::comment_block(layout))
                }
            }
        }
        let hsa: Vec<gpuabi_amdgpu::hsa::Kernel> = self
            .kernels
            .iter()
            .filter_map(|k| match &k.entry {
                KernelEntry::Hsa(hsa) => Some(hsa.clone()),
                KernelEntry::Catalyst(_) => None,
            })
            .collect();
        if !hsa.is_empty() {
            out.push('\n');
            out.push_str(&gpuabi_amdgpu::hsa::print_metadata(&hsa, target, wave));
        }
        Ok((out, lines))
    }
}

/// A fault found after the passes, when the program is put together.
fn emission_error(function: &str, what: String) -> CodegenError {
    CodegenError::Internal(Box::new(PassError {
        pass: "emission",
        function: function.to_string(),
        origin: None,
        fault: error::Fault::Unexpected(error::Invalid::function(what)),
    }))
}

/// What to check and show of the passes' work besides compiling.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inspect {
    /// Validate the machine IR after every pass (debug builds always do).
    pub verify: bool,
    /// Print every function after these passes.
    pub print_after: PrintAfter,
}

/// The result of [`compile_inspect`]: the compilation's, and what was printed, up to an
/// error if there was one.
#[derive(Debug)]
pub struct Inspected {
    /// The compiled module, or why not.
    pub result: Result<Compiled, CodegenError>,
    /// The functions printed after the passes [`Inspect::print_after`] names, each print
    /// headed by `; after PASS`, in compilation order.
    pub printed: String,
}

/// Compiles every kernel of `module` and every function they reach, under the default
/// call options.
pub fn compile(module: &Module, opts: &Options) -> Result<Compiled, CodegenError> {
    compile_with(module, opts, &CallOptions::default())
}

/// The functions to compile, kernels first, then the functions they reach (calls and
/// function addresses), each list in module order.
fn reachable(module: &Module) -> Vec<FuncId> {
    fn visit(r: &Region, out: &mut [bool]) {
        for i in r.instrs_deep() {
            match i.kind {
                InstrKind::Call { callee, .. } => out[callee.index()] = true,
                InstrKind::FuncAddr { func } => out[func.index()] = true,
                _ => {}
            }
        }
    }

    let n = module.functions.len();
    let mut seen: Vec<bool> = module.functions.iter().map(|f| f.attrs.kernel).collect();
    let mut done = vec![false; n];
    while let Some(next) = (0..n).find(|&i| seen[i] && !done[i]) {
        done[next] = true;
        visit(&module.functions[next].body, &mut seen);
    }
    let kernels = (0..n).filter(|&i| module.functions[i].attrs.kernel);
    let callees = (0..n).filter(|&i| seen[i] && !module.functions[i].attrs.kernel);
    kernels.chain(callees).map(|i| FuncId(i as u32)).collect()
}

/// Compiles every kernel of `module` and every function they reach, with call options.
pub fn compile_with(
    module: &Module,
    opts: &Options,
    call_opts: &CallOptions,
) -> Result<Compiled, CodegenError> {
    let mut printed = String::new();
    compile_module(module, opts, call_opts, &Inspect::default(), &mut printed)
}

/// Compiles as [`compile_with`], validating and printing as `inspect` asks.
pub fn compile_inspect(
    module: &Module,
    opts: &Options,
    call_opts: &CallOptions,
    inspect: &Inspect,
) -> Inspected {
    let mut printed = String::new();
    let result = compile_module(module, opts, call_opts, inspect, &mut printed);
    Inspected { result, printed }
}

fn compile_module(
    module: &Module,
    opts: &Options,
    call_opts: &CallOptions,
    inspect: &Inspect,
    printed: &mut String,
) -> Result<Compiled, CodegenError> {
    if !gpuabi_amdgpu::MODELLED_TARGETS.contains(&opts.target) {
        return Err(CodegenError::Options(format!(
            "{} is not a target of the code generator; compile for {}",
            opts.target.name(),
            gpuabi_amdgpu::target::modelled_text(&gpuabi_amdgpu::MODELLED_TARGETS)
        )));
    }
    if !opts.target.supports(opts.wave) {
        return Err(CodegenError::Options(format!(
            "{} has no {} waves",
            opts.target.name(),
            opts.wave
        )));
    }
    let mut opts = *opts;
    if opts.entry == Entry::Catalyst {
        if opts.target != gpuabi_amdgpu::Target::Gfx8 {
            return Err(CodegenError::Options(format!(
                "the catalyst entry is GCN only: compile for gfx8, not {}",
                opts.target.name()
            )));
        }
        opts.max_sgprs = opts.max_sgprs.min(entry::catalyst::max_sgprs());
    }
    gpuabi_ir::verify(module).map_err(|e| CodegenError::Verify(e.to_string()))?;
    let lowered = lower_noreturn_calls::lower(module);
    gpuabi_ir::verify(&lowered).map_err(|e| {
        CodegenError::Internal(Box::new(PassError {
            pass: "lower_noreturn_calls",
            function: String::new(),
            origin: None,
            fault: error::Fault::Unexpected(error::Invalid::function(e.to_string())),
        }))
    })?;
    let module = &lowered;
    let abis = call_abi::ModuleAbis::new(
        module,
        opts.target,
        opts.wave,
        Demand::new(opts.max_sgprs, opts.max_vgprs),
        call_opts,
    )?;
    if abis.any_calls {
        if opts.entry != Entry::Hsa {
            return Err(CodegenError::Options(format!(
                "calls are compiled under the hsa entry, not under {}",
                opts.entry.name()
            )));
        }
        // One register limit for every function and every ABI (see `call_abi`).
        opts.max_sgprs = abis.limit.sgpr;
        opts.max_vgprs = abis.limit.vgpr;
    }
    let order = reachable(module);
    let mut position = vec![usize::MAX; module.functions.len()];
    for (p, f) in order.iter().enumerate() {
        position[f.index()] = p;
    }
    let ctx = call_abi::ModuleCtx {
        module,
        abis,
        position,
    };
    let mut program = Program::new(opts.target, opts.wave);
    program.push(gpuabi_amdgpu::Item::Directive(
        gpuabi_amdgpu::program::Directive::Text,
    ));
    let mut kernels = Vec::new();
    let mut functions = Vec::new();
    let mut calls = Vec::new();
    let mut costs = Vec::new();
    for &fid in &order {
        let func = &module.functions[fid.index()];
        let first_item = program.items.len();
        let (how, stats, sites, items) =
            compile_function(&mut program, &ctx, fid, &opts, inspect, printed)?;
        let index = functions.len();
        call_sites::place(
            &program, first_item, index, sites, items, &mut calls, &mut costs,
        );
        functions.push(stats.clone());
        if let Some(how) = how {
            kernels.push(Kernel {
                name: func.name.clone(),
                entry: how,
                stats,
            });
        }
    }
    // A kernel's wave asks for the scratch of its deepest chain of calls.
    let indirect: Vec<usize> = order
        .iter()
        .enumerate()
        .filter(|(_, f)| ctx.abis.address_taken[f.index()])
        .map(|(i, _)| i)
        .collect();
    for k in &mut kernels {
        let Some(root) = functions.iter().position(|f| f.name == k.name) else {
            continue;
        };
        if let KernelEntry::Hsa(hsa) = &mut k.entry {
            let own = functions[root].scratch_bytes;
            let size = stack_size::stack_size(root, &functions, &calls, &indirect);
            hsa.descriptor.private_segment_fixed_size = size.bytes(own);
        }
    }
    program
        .validate()
        .map_err(|e| emission_error("", e.to_string()))?;
    Ok(Compiled {
        program,
        kernels,
        functions,
        calls,
        costs,
    })
}

type Compiled1 = (
    Option<KernelEntry>,
    FunctionStats,
    Vec<CallSiteInfo>,
    Vec<(usize, mir::AbiCost)>,
);

/// Compiles one function and appends it to `program`: prepares its IR, runs the passes,
/// emits the code, and completes its figures, call sites and entry.
fn compile_function(
    program: &mut Program,
    mctx: &call_abi::ModuleCtx<'_>,
    fid: FuncId,
    opts: &Options,
    inspect: &Inspect,
    printed: &mut String,
) -> Result<Compiled1, CodegenError> {
    let module = mctx.module;
    let orig = &module.functions[fid.index()];
    let conv = mctx.abis.funcs[fid.index()].as_ref();
    let tail = conv.and_then(|_| tail_calls::find(module, &mctx.abis, fid));
    let lowered;
    let (func, callee) = match conv {
        Some(conv) => {
            let (f, added) = lower_call_abi::lower(orig, &mctx.abis.hidden, conv, tail.as_ref());
            lowered = f;
            (&lowered, Some((conv, added)))
        }
        None => (orig, None),
    };
    let uniformity = gpuabi_ir::uniformity::analyze(module, func);
    let uniform: Vec<bool> = (0..func.values.len())
        .map(|v| uniformity.is_uniform(gpuabi_ir::ir::Value(v as u32)))
        .collect();
    let cfg = gpuabi_ir::cfg::Cfg::build(func);
    let divergent_loops: Vec<bool> = (0..cfg.loops.len())
        .map(|l| uniformity.is_divergent_loop(gpuabi_ir::cfg::LoopId(l as u32)))
        .collect();
    let mut ctx = pipeline::Context::new(*opts);
    ctx.verify |= inspect.verify;
    ctx.print_after = inspect.print_after;
    // A kernel with stack arrays needs scratch from the start (see `scratch_retry`).
    ctx.catalyst_scratch = opts.entry == Entry::Catalyst && entry::catalyst::has_stack_arrays(func);
    ctx.input = Some(pipeline::IselInput {
        module: mctx,
        fid,
        func,
        callee,
        uniform,
        cfg,
        divergent_loops,
    });
    let mut f = mir::Function::new(&func.name);
    let ran = scratch_retry::run(&mut ctx, &mut f);
    printed.push_str(&ctx.printed);
    ran?;
    let hw = ctx.hw.take().unwrap_or_default();
    let (count, items) = emit::emit(program, &func.name, &hw);
    let stats = stats::function_stats(&f, &ctx, count, &items, conv, tail.map(|t| t.callee));
    let mut how = ctx.entry.take();
    entry::finish(&mut how, &stats, ctx.catalyst_scratch, func)?;
    let limit = Demand::new(ctx.opts.max_sgprs, ctx.opts.max_vgprs);
    let sites = call_sites::call_sites(&f, &ctx.call_order, limit);
    Ok((how, stats, sites, items))
}
