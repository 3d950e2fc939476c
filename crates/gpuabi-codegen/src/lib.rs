//! gpuabi-codegen: compiles `.gsir` kernels to AMD GCN/RDNA machine programs.
//!
//! [`compile`] runs the passes in order and validates the machine IR ([`mir`]) between
//! them, as ACO's `aco_interface.cpp` does:
//!
//! 1. uniformity analysis (`gpuabi_ir::uniformity`): which values are the same in every
//!    lane, which loops are divergent;
//! 2. the shared CFG (`gpuabi_ir::cfg`): the structured body flattened into blocks with
//!    parameters, each recording its construct;
//! 3. kernel entry ([`entry`]): the launch registers taken into temps, arguments loaded;
//! 4. instruction selection (`isel`): SSA machine IR over the CFG's blocks, with phis,
//!    branch pseudo-instructions for divergent control flow and linear-only blocks;
//! 5. control-flow lowering ([`control_flow`]): the logical and linear CFGs;
//! 6. exec-mask insertion ([`insert_exec_mask`]): branch pseudo-instructions become
//!    exec-mask code and hardware branches;
//! 7. register allocation of the SSA code ([`register_allocation`]) over liveness
//!    ([`liveness`]: VGPRs over the logical CFG, SGPRs over the linear one), VGPRs first,
//!    then SGPRs, spilling ([`spill`]: `p_spill`/`p_reload`, VGPRs to per-lane scratch,
//!    SGPRs to lanes of reserved VGPRs) until everything fits the limits;
//! 8. SSA elimination ([`ssa_elimination`]): phis become parallel copies at the end of
//!    their logical or linear predecessors, between allocated registers; the spill
//!    pseudo-instructions are expanded;
//! 9. the allocation checker ([`check_ra`]);
//! 10. lowering of temps and parallel copies to registers and moves ([`lower_to_hw`]);
//! 11. wait-count insertion ([`insert_waitcnt`]): `s_waitcnt` where a loaded register is
//!     first read or overwritten, and before calls and returns;
//! 12. emission of an `amdgpu::Program` ([`emit`]).
//!
//! Calls follow Mesa's ACO call ABIs ([`call_abi`]): every function a kernel reaches is
//! compiled after the kernels, under its convention; its IR is first given the parameters
//! the ABI adds ([`lower_call_abi`]); calls are `p_call` between two parallel copies;
//! after allocation the frame becomes final and calls, saves and returns become machine
//! code ([`lower_calls`]). Calls are compiled for the RDNA targets under the `hsa` entry.

#![warn(missing_docs)]

pub mod call_abi;
pub mod check_ra;
pub mod control_flow;
pub mod emit;
pub mod entry;
pub mod error;
pub mod insert_exec_mask;
pub mod insert_waitcnt;
mod isel;
pub mod liveness;
mod lower_call_abi;
pub mod lower_calls;
mod lower_noreturn_calls;
pub mod lower_to_hw;
pub mod mir;
pub mod options;
pub mod register_allocation;
pub mod scratch;
pub mod spill;
pub mod ssa_elimination;
pub mod stack_size;
mod tail_calls;

use gpuabi_amdgpu::Program;
use gpuabi_ir::ir::{FuncId, InstrKind, Region};
use gpuabi_ir::Module;
use gpuabi_layout::aco::Demand;
use gpuabi_layout::reg::RegFile;
use serde::Serialize;

pub use call_abi::CallOptions;
pub use error::CodegenError;
pub use options::{Entry, Options};

use register_allocation::Outcome;

/// Per-function figures of the compiled code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FunctionStats {
    /// Function name.
    pub name: String,
    /// Machine instructions emitted.
    pub instructions: usize,
    /// SGPRs used (highest register + 1).
    pub sgprs: u16,
    /// VGPRs used (highest register + 1, spill VGPRs included).
    pub vgprs: u16,
    /// Values spilled from VGPRs to scratch.
    pub vgpr_spills: usize,
    /// Values spilled from SGPRs to VGPR lanes.
    pub sgpr_spills: usize,
    /// Bytes of scratch per lane: the whole frame (stack arrays, spill slots, save areas).
    pub scratch_bytes: u32,
    /// The call ABI the function is called under (`None` for a kernel).
    pub abi: Option<String>,
    /// Preserved SGPRs it saves at entry and restores at return.
    pub saved_sgprs: usize,
    /// Preserved VGPRs it saves at entry and restores at return.
    pub saved_vgprs: usize,
    /// Calls it makes.
    pub calls: usize,
    /// The callee of its tail call, if its last call became one (a function, or `$sig`
    /// for an indirect call); the callee runs on this function's stack pointer.
    pub tail_call: Option<String>,
    /// Instructions of call-ABI overhead in its code, by kind.
    pub overhead: Overhead,
}

/// Instruction counts of call-ABI overhead, by kind ([`mir::AbiCost`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Overhead {
    /// Saves and restores of preserved registers in a called function.
    pub callee_saves: u64,
    /// Parameter and return-value moves and scratch parameter accesses.
    pub parameter_copies: u64,
    /// Stack bumps, calls, returns, dispatch epilogues, whole-wave saves around calls.
    pub call_linkage: u64,
    /// Spills and reloads.
    pub spills: u64,
}

impl Overhead {
    /// Adds `n` instructions of kind `c`.
    pub fn add(&mut self, c: mir::AbiCost, n: u64) {
        match c {
            mir::AbiCost::None => {}
            mir::AbiCost::CalleeSave => self.callee_saves += n,
            mir::AbiCost::Copy => self.parameter_copies += n,
            mir::AbiCost::Linkage => self.call_linkage += n,
            mir::AbiCost::Spill => self.spills += n,
        }
    }

    /// All kinds together.
    pub fn total(&self) -> u64 {
        self.callee_saves + self.parameter_copies + self.call_linkage + self.spills
    }
}

/// One instruction of call-ABI overhead in the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostItem {
    /// Index of the instruction in the program's items.
    pub item: usize,
    /// The function it belongs to: an index into [`Compiled::functions`].
    pub function: usize,
    /// What it pays for.
    pub cost: mir::AbiCost,
    /// The call it serves, an index into [`Compiled::calls`]: the parameter copies, stack
    /// bumps, call and whole-wave saves a call site compiles to (those with its source
    /// span, in its caller). `None` for a function's own saves, spills and returns.
    pub site: Option<usize>,
}

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

/// One call in the compiled program: what the contract checker holds the callee to.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSiteInfo {
    /// Index of the call's `s_swappc_b64` in the program's items.
    pub item: usize,
    /// The calling function.
    pub caller: String,
    /// The callee: a function, or `$sig` for an indirect call.
    pub callee: String,
    /// The callee's ABI.
    pub abi: String,
    /// Registers the callee must hand back unchanged: its ABI's preserved registers below
    /// the limit, and the parameters it preserves explicitly (the return address
    /// included; not the callee PCs, which carry the next callee, nor return values).
    pub preserved: gpuabi_layout::reg::RegSet,
    /// The stack-pointer register (also unchanged at the return).
    pub stack_pointer: gpuabi_layout::reg::RegRange,
    /// Bytes per lane of scratch parameters just below the callee's stack pointer.
    pub scratch_param_bytes: u32,
    /// Source span of the call.
    pub origin: mir::Origin,
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
        let mut out = vec![Overhead::default(); self.calls.len()];
        for c in &self.costs {
            if let Some(site) = c.site {
                out[site].add(c.cost, 1);
            }
        }
        out
    }

    /// The assembly of the module: the target line, the code, and each kernel's entry:
    /// under `hsa` its `.amdhsa_kernel` descriptor block and its entry in the
    /// `.amdgpu_metadata` block, which llvm-mc-19 assembles into an HSA code object; under `catalyst` a comment block with the Catalyst layout map
    /// (a Catalyst binary is not an HSA code object: the code assembles alone).
    pub fn assembly(&self) -> Result<String, CodegenError> {
        let (target, wave) = (self.program.target, self.program.wave);
        let mut out = gpuabi_amdgpu::hsa::print_preamble(target);
        out.push_str(&gpuabi_amdgpu::asm::print(&self.program));
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
                    .map_err(|e| CodegenError::Internal {
                        pass: "emission",
                        message: format!("kernel `{}`: {e}", k.name),
                    })?;
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
        Ok(out)
    }
}

fn internal(pass: &'static str) -> impl Fn(String) -> CodegenError {
    move |message| CodegenError::Internal { pass, message }
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
    if !gpuabi_amdgpu::MODELLED_TARGETS.contains(&opts.target) {
        return Err(CodegenError::Options(format!(
            "{} has no instruction encodings in the machine model; compile for gfx8, gfx1030 or gfx1100",
            opts.target.name()
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
    gpuabi_ir::verify(&lowered).map_err(|e| CodegenError::Internal {
        pass: "noreturn calls",
        message: e.to_string(),
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
        let (how, stats, sites, items) = compile_function(&mut program, &ctx, fid, &opts)?;
        let index = functions.len();
        // The calls of the function, in program order, at their `s_swappc_b64`.
        let swappcs = program.items[first_item..]
            .iter()
            .enumerate()
            .filter(|(_, it)| {
                matches!(&it.item, gpuabi_amdgpu::Item::Inst(i) if i.op == gpuabi_amdgpu::Opcode::SSwappcB64)
            })
            .map(|(i, _)| first_item + i);
        let first_call = calls.len();
        for (item, site) in swappcs.zip(sites) {
            calls.push(CallSiteInfo { item, ..site });
        }
        let site_of = |item: usize, cost: mir::AbiCost| -> Option<usize> {
            if cost == mir::AbiCost::CalleeSave {
                return None;
            }
            let gpuabi_amdgpu::Origin::Source { start, end, .. } = &program.items[item].origin
            else {
                return None;
            };
            calls[first_call..]
                .iter()
                .position(|c| c.origin.start == *start && c.origin.end == *end)
                .map(|k| first_call + k)
        };
        costs.extend(items.into_iter().map(|(item, cost)| CostItem {
            item,
            function: index,
            cost,
            site: site_of(item, cost),
        }));
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
    program.validate().map_err(|e| CodegenError::Internal {
        pass: "emission",
        message: e.to_string(),
    })?;
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

/// Compiles one function and appends it to `program`.
fn compile_function(
    program: &mut Program,
    ctx: &call_abi::ModuleCtx<'_>,
    fid: FuncId,
    opts: &Options,
) -> Result<Compiled1, CodegenError> {
    let module = ctx.module;
    let orig = &module.functions[fid.index()];
    let callee_conv = ctx.abis.funcs[fid.index()].as_ref();
    let lowered;
    let mut tail = None;
    let (func, role) = match callee_conv {
        Some(conv) => {
            tail = tail_calls::find(module, &ctx.abis, fid);
            let (f, added) = lower_call_abi::lower(orig, &ctx.abis.hidden, conv, tail.as_ref());
            lowered = f;
            (&lowered, isel::Role::Callee(conv, added))
        }
        None => (orig, isel::Role::Kernel),
    };
    let uniformity = gpuabi_ir::uniformity::analyze(module, func);
    let uniform: Vec<bool> = (0..func.values.len())
        .map(|v| uniformity.is_uniform(gpuabi_ir::ir::Value(v as u32)))
        .collect();
    let cfg = gpuabi_ir::cfg::Cfg::build(func);
    let divergent_loops: Vec<bool> = (0..cfg.loops.len())
        .map(|l| uniformity.is_divergent_loop(gpuabi_ir::cfg::LoopId(l as u32)))
        .collect();
    // Under `catalyst` scratch changes the user data and registers, so a kernel whose
    // VGPRs must spill is compiled again with scratch (see `entry::catalyst`).
    let mut scratch = opts.entry == Entry::Catalyst && entry::catalyst::has_stack_arrays(func);
    let (mut mf, mut how, regs, stats, slots) = loop {
        let role = match &role {
            isel::Role::Kernel => isel::Role::Kernel,
            isel::Role::Callee(c, a) => isel::Role::Callee(c, *a),
        };
        let (mut mf, how) = isel::Isel::run(
            opts,
            ctx,
            fid,
            role,
            func,
            &uniform,
            &cfg,
            &divergent_loops,
            scratch,
        )?;
        mir::validate(&mf).map_err(internal("instruction selection"))?;
        control_flow::build(&mut mf).map_err(internal("control-flow lowering"))?;
        mir::validate_cfg(&mf, false).map_err(internal("control-flow lowering"))?;
        mir::validate_ssa(&mf).map_err(internal("instruction selection"))?;
        insert_exec_mask::insert(&mut mf, opts.wave).map_err(internal("exec-mask insertion"))?;
        mir::validate(&mf).map_err(internal("exec-mask insertion"))?;
        mir::validate_cfg(&mf, true).map_err(internal("exec-mask insertion"))?;
        match allocate(&mut mf, opts)? {
            Some((regs, stats, slots)) => break (mf, how, regs, stats, slots),
            None if !scratch => scratch = true,
            None => {
                return Err(CodegenError::Internal {
                    pass: "register allocation",
                    message: format!(
                        "kernel `{}`: VGPRs spill without scratch buffer registers",
                        func.name
                    ),
                })
            }
        }
    };
    mir::validate(&mf).map_err(internal("spilling"))?;
    mir::validate_cfg(&mf, true).map_err(internal("spilling"))?;
    ssa_elimination::eliminate(&mut mf).map_err(internal("SSA elimination"))?;
    mir::validate(&mf).map_err(internal("SSA elimination"))?;
    spill::lower(&mut mf, opts.target, opts.wave);
    check_ra::check(&mf, &regs, opts.max_sgprs, opts.max_vgprs)
        .map_err(internal("register allocation"))?;
    let site_list: Vec<call_abi::CallSite> = mf.calls.clone();
    let (frame, saved, order) = lower_calls::lower(
        &mut mf,
        &lower_calls::Inputs {
            regs: &regs,
            target: opts.target,
            wave: opts.wave,
            limit: Demand::new(opts.max_sgprs, opts.max_vgprs),
            vgpr_spill_bytes: slots.vgpr_bytes,
            sgpr_spill_dwords: slots.sgpr_dwords,
            spill_vgprs: slots.reserved,
        },
    )
    .map_err(|message| match message {
        m if m.starts_with("the frame") || m.starts_with(lower_calls::SPILL_VGPR_IS_PARAMETER) => {
            CodegenError::Registers {
                function: func.name.clone(),
                what: m,
            }
        }
        m => CodegenError::Internal {
            pass: "call lowering",
            message: m,
        },
    })?;
    let mut blocks = lower_to_hw::lower(&mf, &regs, opts.max_vgprs);
    insert_waitcnt::insert(&func.name, &mut blocks, opts.target);
    let (count, items) = emit::emit(program, &func.name, &blocks);
    let mut overhead = Overhead::default();
    for (_, c) in &items {
        overhead.add(*c, 1);
    }
    let stats = FunctionStats {
        name: func.name.clone(),
        instructions: count,
        scratch_bytes: frame.end,
        abi: callee_conv.map(|c| c.abi.name.clone()),
        saved_sgprs: saved.sgprs.len(),
        saved_vgprs: saved.vgprs.len(),
        calls: site_list.len(),
        tail_call: tail.map(|t| t.callee),
        overhead,
        ..stats
    };
    match &mut how {
        Some(KernelEntry::Hsa(hsa)) => {
            let d = &mut hsa.descriptor;
            d.private_segment_fixed_size = stats.scratch_bytes;
            d.next_free_vgpr = u32::from(stats.vgprs.max(1));
            d.next_free_sgpr = u32::from(stats.sgprs.max(1));
        }
        Some(KernelEntry::Catalyst(layout)) => {
            let scratch_bytes = if scratch {
                stats.scratch_bytes.max(entry::catalyst::MIN_SCRATCH_BYTES)
            } else {
                0
            };
            let full = entry::catalyst::catalyst_layout(
                func,
                Some((stats.sgprs, stats.vgprs)),
                scratch_bytes,
            )?;
            // The entry read the registers of a layout with a placeholder scratch size.
            if full.userdata != layout.userdata
                || full.regs.scratch_offset_sgpr != layout.regs.scratch_offset_sgpr
            {
                return Err(CodegenError::Internal {
                    pass: "emission",
                    message: format!(
                        "kernel `{}`: the Catalyst layout with {scratch_bytes} scratch bytes \
                         moves the user data the entry reads",
                        func.name
                    ),
                });
            }
            **layout = full;
        }
        None => {}
    }
    let sites = order
        .into_iter()
        .map(|k| {
            let site = &site_list[k];
            let conv = &site.conv;
            let mut preserved = conv.preserved.clone();
            for p in &conv.assignment.params {
                let explicit = p.needs_explicit_preservation
                    && !p.is_return
                    && p.kind != gpuabi_layout::aco::ParamKind::Radv
                    && p.name != "stack_pointer";
                if let (true, gpuabi_layout::aco::Location::Reg(r)) = (explicit, p.location) {
                    preserved.insert_range(r);
                }
            }
            CallSiteInfo {
                item: 0,
                caller: func.name.clone(),
                callee: site.callee.clone(),
                abi: conv.abi.name.clone(),
                preserved,
                stack_pointer: conv.reg("stack_pointer"),
                scratch_param_bytes: conv.assignment.scratch_param_size,
                origin: site.origin,
            }
        })
        .collect();
    Ok((how, stats, sites, items))
}

/// The register of every temp (`None`: unallocated), the function's figures and its spill
/// slots.
type Allocation = (Vec<Option<u16>>, FunctionStats, spill::Slots);

/// Allocates VGPRs, then SGPRs, spilling until both fit; SGPRs spill into VGPR lanes
/// reserved at the top of the VGPR budget, so a round that needs more of them starts the
/// VGPRs again with a smaller budget. `None`: VGPRs must spill but the entry set up no
/// scratch buffer registers (a `catalyst` entry compiled without scratch).
fn allocate(mf: &mut mir::Function, opts: &Options) -> Result<Option<Allocation>, CodegenError> {
    let mut slots = spill::Slots::default();
    let mut reserve = 0u16;
    let mut spilled = [0usize; 2];
    let buffer = scratch_regs(mf);
    for _ in 0..64 {
        let vlimit = opts.max_vgprs.saturating_sub(reserve);
        let Some(vregs) = rounds(
            mf,
            RegFile::Vgpr,
            vlimit,
            &mut slots,
            opts,
            buffer,
            &mut spilled[0],
        )?
        else {
            return Ok(None);
        };
        let Some(sregs) = rounds(
            mf,
            RegFile::Sgpr,
            opts.max_sgprs,
            &mut slots,
            opts,
            buffer,
            &mut spilled[1],
        )?
        else {
            return Ok(None);
        };
        // SGPR spilling adds temps after the VGPRs were assigned: those are SGPRs.
        let regs: Vec<Option<u16>> = (0..mf.temps.len())
            .map(|t| {
                vregs
                    .get(t)
                    .copied()
                    .flatten()
                    .or(sregs.get(t).copied().flatten())
            })
            .collect();
        // A called function also saves the preserved SGPRs it writes into those lanes.
        let saved = lower_calls::saved_registers(
            mf,
            &regs,
            Demand::new(opts.max_sgprs, opts.max_vgprs),
            reserve,
        )
        .sgprs
        .len() as u32;
        let need = (slots.sgpr_dwords + saved).div_ceil(opts.wave.lanes()) as u16;
        if need > reserve {
            reserve = need;
            continue;
        }
        slots.reserved = reserve;
        let high = |file: RegFile| {
            mf.temps
                .iter()
                .enumerate()
                .filter(|(_, t)| t.file == file)
                .filter_map(|(i, t)| regs[i].map(|r| r + u16::from(t.dwords)))
                .max()
                .unwrap_or(0)
        };
        let vgprs = if reserve > 0 {
            opts.max_vgprs
        } else {
            high(RegFile::Vgpr)
        };
        let stats = FunctionStats {
            sgprs: high(RegFile::Sgpr),
            vgprs,
            vgpr_spills: spilled[0],
            sgpr_spills: spilled[1],
            scratch_bytes: mf.stack_bytes.next_multiple_of(8) + slots.vgpr_bytes,
            ..FunctionStats::default()
        };
        return Ok(Some((regs, stats, slots)));
    }
    Err(CodegenError::Registers {
        function: mf.name.clone(),
        what: "register allocation did not settle".into(),
    })
}

fn scratch_regs(mf: &mir::Function) -> Option<scratch::BufferRegs> {
    // The private segment buffer and wave offset temps are the unspillable SGPR temps the
    // entry made (GCN 1.2 only).
    let mut it = mf
        .temps
        .iter()
        .enumerate()
        .filter(|(_, t)| t.no_spill && t.file == RegFile::Sgpr);
    let (r, _) = it.next()?;
    let (w, _) = it.next()?;
    Some(scratch::BufferRegs {
        rsrc: mf.whole(mir::Temp(r as u32)),
        wave_offset: Some(mf.whole(mir::Temp(w as u32))),
    })
}

#[allow(clippy::too_many_arguments)]
fn rounds(
    mf: &mut mir::Function,
    file: RegFile,
    limit: u16,
    slots: &mut spill::Slots,
    opts: &Options,
    buffer: Option<scratch::BufferRegs>,
    spilled: &mut usize,
) -> Result<Option<Vec<Option<u16>>>, CodegenError> {
    for _ in 0..256 {
        match register_allocation::allocate(mf, file, limit) {
            Outcome::Assigned(r) => return Ok(Some(r)),
            Outcome::Spill(_)
                if file == RegFile::Vgpr
                    && buffer.is_none()
                    && scratch::uses_buffer(opts.target)
                    && opts.entry == Entry::Catalyst =>
            {
                return Ok(None);
            }
            Outcome::Spill(victims) => {
                *spilled += victims.len();
                spill::spill(mf, &victims, slots, opts.target, buffer)?;
            }
            Outcome::TooFew(what) => {
                return Err(CodegenError::Registers {
                    function: mf.name.clone(),
                    what,
                })
            }
        }
    }
    Err(CodegenError::Registers {
        function: mf.name.clone(),
        what: format!("{} allocation did not settle", file.name()),
    })
}
