//! gpuabi-exec: runs a kernel compiled by `gpuabi-codegen` in the simulator with the same
//! dispatch, argument bits and buffers the IR interpreter gets, buffers at the
//! interpreter's addresses (buffer `i` at `(i + 1) << 32`) so that pointers stored in
//! memory are equal too, and compares the memory both leave behind: the project's main
//! oracle.

#![warn(missing_docs)]

use std::collections::BTreeMap;

mod assembly;
mod catalyst;
pub mod launch;
mod private_and_linkage;

pub use assembly::Assembly;
pub use private_and_linkage::AbiInstructions;

use gpuabi_codegen::{Compiled, KernelEntry};
use gpuabi_ir::interp::Dispatch;
use gpuabi_sim::dispatch::{ArgValue, NdRange, WaveSetup};
use gpuabi_sim::{Image, Limits, Machine, Stats};

/// A compiled run that could not be set up or stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// No compiled kernel of that name.
    #[error("no compiled kernel `{0}`")]
    NoKernel(String),
    /// Buffers or arguments do not fit.
    #[error("{0}")]
    Setup(String),
    /// The interpreter refused the dispatch or stopped with an error.
    #[error("interpreter: {0}")]
    Interp(String),
    /// The assembler refused another compiler's assembly (an instruction or directive the
    /// machine model lacks, or a malformed file).
    #[error("assembler: {0}")]
    Assemble(String),
    /// The simulator stopped with an error.
    #[error("{message}")]
    Sim {
        /// The simulator's message.
        message: String,
        /// Byte span in the `.gsir` source of the instruction involved, when known.
        span: Option<(u32, u32)>,
        /// Contract violations found before the run stopped.
        violations: Vec<gpuabi_sim::ContractViolation>,
    },
}

/// What a compiled run leaves.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Every buffer given, in order, with its final contents.
    pub buffers: Vec<(String, Vec<u8>)>,
    /// Dynamic counts of the run.
    pub stats: Stats,
    /// Every breach of a call's contract (each compiled call is checked against its
    /// callee's ABI).
    pub violations: Vec<gpuabi_sim::ContractViolation>,
    /// Calls whose return was checked.
    pub checked_returns: u64,
    /// Per compiled function (in the order of [`Compiled::functions`]): the call-ABI
    /// overhead instructions the waves executed, by kind.
    pub overhead: Vec<gpuabi_codegen::Overhead>,
    /// Per call site (in the order of [`Compiled::calls`]): the overhead instructions the
    /// site compiled to that the waves executed (see [`gpuabi_codegen::CostItem::site`]).
    pub site_overhead: Vec<gpuabi_codegen::Overhead>,
    /// The waves' private-memory, lane-move and call/return instructions, counted the
    /// same way for any compiler's code.
    pub abi: AbiInstructions,
    /// Reads of private-segment bytes that nothing wrote during the dispatch: a value the
    /// code never defined, which is what a spill reloaded for lanes it was not stored for
    /// looks like.
    pub unwritten: Vec<gpuabi_sim::undef::UnwrittenMemoryRead>,
}

/// The contract of every call of `compiled`, for the simulator's checker.
pub fn contract(compiled: &Compiled) -> Option<gpuabi_sim::Contract> {
    if compiled.calls.is_empty() {
        return None;
    }
    Some(gpuabi_sim::Contract::from_sites(compiled.calls.iter().map(
        |c| {
            (
                c.item,
                gpuabi_sim::CallSite {
                    callee: c.callee.clone(),
                    abi: c.abi.clone(),
                    preserved: c.preserved.clone(),
                    stack_pointer: Some(c.stack_pointer),
                    scratch_param_bytes: c.scratch_param_bytes,
                    scratch_resource: None,
                },
            )
        },
    )))
}

/// Runs `kernel` in the reference interpreter over `dispatch` with the given argument bits
/// and buffers (placed in order, at the addresses [`run`] gives them); returns the buffers
/// after the run.
pub fn interpret(
    module: &gpuabi_ir::Module,
    kernel: &str,
    dispatch: &Dispatch,
    args: &[u64],
    buffers: &[(String, Vec<u8>)],
    limits: &gpuabi_ir::interp::Limits,
) -> Result<Vec<(String, Vec<u8>)>, ExecError> {
    let addrs: Vec<u64> = (0..module.functions.len())
        .map(gpuabi_ir::interp::function_address)
        .collect();
    interpret_at(module, &addrs, kernel, dispatch, args, buffers, limits)
}

/// The address of every function of `module` in the simulator's image of `compiled` (the
/// interpreter's own tagged address for a function that was not compiled): given to
/// [`interpret_at`], the interpreter stores the function pointers compiled code stores.
pub fn function_addresses(
    module: &gpuabi_ir::Module,
    compiled: &Compiled,
) -> Result<Vec<u64>, ExecError> {
    program_function_addresses(module, &compiled.program)
}

/// The address of every function of `module` in the simulator's image of `program`, by
/// label (the interpreter's own tagged address for a function the program lacks).
pub(crate) fn program_function_addresses(
    module: &gpuabi_ir::Module,
    program: &gpuabi_amdgpu::Program,
) -> Result<Vec<u64>, ExecError> {
    let image = Image::new(program).map_err(|e| ExecError::Setup(e.to_string()))?;
    Ok(module
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            image
                .label_addr(&f.name)
                .unwrap_or_else(|| gpuabi_ir::interp::function_address(i))
        })
        .collect())
}

/// As [`interpret`], with the functions at `fn_addrs` (see [`function_addresses`]).
pub fn interpret_at(
    module: &gpuabi_ir::Module,
    fn_addrs: &[u64],
    kernel: &str,
    dispatch: &Dispatch,
    args: &[u64],
    buffers: &[(String, Vec<u8>)],
    limits: &gpuabi_ir::interp::Limits,
) -> Result<Vec<(String, Vec<u8>)>, ExecError> {
    let program = gpuabi_ir::Program::with_function_addresses(module, fn_addrs)
        .map_err(|e| ExecError::Interp(e.to_string()))?;
    let mut mem = gpuabi_ir::Memory::new(limits.max_memory_bytes);
    for (name, data) in buffers {
        mem.add(name, data.clone())
            .map_err(|e| ExecError::Interp(e.to_string()))?;
    }
    program
        .dispatch(kernel, args, dispatch, &mut mem, limits)
        .map_err(|e| ExecError::Interp(e.to_string()))?;
    Ok(mem.buffers.into_iter().map(|b| (b.name, b.data)).collect())
}

/// The address the interpreter gives buffer `index` (0-based).
pub fn buffer_address(index: usize) -> u64 {
    ((index as u64) + 1) << 32
}

/// Runs `kernel` of `compiled` over `dispatch` with one argument value (raw bits, as the
/// interpreter takes them) per parameter and the given buffers.
pub fn run(
    compiled: &Compiled,
    kernel: &str,
    dispatch: &Dispatch,
    args: &[u64],
    buffers: &[(String, Vec<u8>)],
    limits: &Limits,
) -> Result<Outcome, ExecError> {
    let k = compiled
        .kernels
        .iter()
        .find(|k| k.name == kernel)
        .ok_or_else(|| ExecError::NoKernel(kernel.to_string()))?;
    let (mut machine, ids) = machine_for(&compiled.program, contract(compiled), buffers, limits)?;
    let nd = nd_range(dispatch);
    let setups = match &k.entry {
        KernelEntry::Hsa(hsa) => hsa_setups(
            hsa,
            compiled.program.target,
            compiled.program.wave,
            &nd,
            args,
            &mut machine,
            limits,
        )?,
        KernelEntry::Catalyst(layout) => {
            catalyst::setups(layout, &nd, args, &mut machine.memory, limits)?
        }
    };
    machine.watch_private();
    machine.run(kernel, &setups).map_err(|e| ExecError::Sim {
        span: match e.origin() {
            Some(gpuabi_amdgpu::Origin::Source { start, end, .. }) => Some((*start, *end)),
            _ => None,
        },
        message: e.to_string(),
        violations: machine.violations().to_vec(),
    })?;
    let out = buffers_of(&machine, &ids);
    let counts = machine.counts.as_deref().unwrap_or(&[]);
    let mut inst_of = std::collections::HashMap::new();
    for i in 0..counts.len() as u32 {
        if let Some(item) = machine.image.item_index(i) {
            inst_of.insert(item, i as usize);
        }
    }
    let (overhead, site_overhead) = gpuabi_codegen::stats::executed_overhead(
        &compiled.costs,
        compiled.functions.len(),
        compiled.calls.len(),
        |item| inst_of.get(&item).map(|&i| counts[i]),
    );
    Ok(Outcome {
        abi: AbiInstructions::of(&machine),
        overhead,
        site_overhead,
        buffers: out,
        stats: machine.stats.clone(),
        violations: machine.violations().to_vec(),
        checked_returns: machine.contract.as_ref().map_or(0, |c| c.checked_returns),
        unwritten: std::mem::take(&mut machine.unwritten),
    })
}

/// A machine for `program` counting executed instructions, checking `contract` at every
/// call, with `buffers` at [`buffer_address`] of their index; returns their ids.
pub(crate) fn machine_for(
    program: &gpuabi_amdgpu::Program,
    contract: Option<gpuabi_sim::Contract>,
    buffers: &[(String, Vec<u8>)],
    limits: &Limits,
) -> Result<(Machine, Vec<gpuabi_sim::memory::BufferId>), ExecError> {
    let image = Image::new(program).map_err(|e| ExecError::Setup(e.to_string()))?;
    let mut machine = Machine::new(image);
    machine.limits = *limits;
    machine.contract = contract;
    // Both gpuabi's code and llc's must wait for their loads as the hardware needs.
    machine.check_waits = true;
    machine.count_instructions();
    let mut ids = Vec::new();
    for (i, (name, data)) in buffers.iter().enumerate() {
        let id = machine
            .memory
            .add_at(name, buffer_address(i), data.clone(), limits.global_bytes)
            .map_err(|e| ExecError::Setup(e.to_string()))?;
        ids.push(id);
    }
    Ok((machine, ids))
}

/// The simulator's form of an interpreter dispatch.
pub(crate) fn nd_range(dispatch: &Dispatch) -> NdRange {
    NdRange {
        work_dim: dispatch.work_dim,
        global: dispatch.global_size,
        local: dispatch.group_size,
        offset: dispatch.global_offset,
    }
}

/// The final contents of the buffers `ids`, by name.
pub(crate) fn buffers_of(
    machine: &Machine,
    ids: &[gpuabi_sim::memory::BufferId],
) -> Vec<(String, Vec<u8>)> {
    ids.iter()
        .map(|id| {
            let b = machine.memory.buffer(*id);
            (b.name.clone(), b.data.clone())
        })
        .collect()
}

/// The `hsa` dispatch: the segment laid out by the simulator, then the explicit
/// arguments' bytes written from the interpreter's bits, exactly.
fn hsa_setups(
    hsa: &gpuabi_amdgpu::hsa::Kernel,
    target: gpuabi_amdgpu::Target,
    wave: gpuabi_amdgpu::WaveSize,
    nd: &NdRange,
    args: &[u64],
    machine: &mut Machine,
    limits: &Limits,
) -> Result<Vec<WaveSetup>, ExecError> {
    let explicit: Vec<&gpuabi_amdgpu::hsa::KernArg> =
        hsa.args.iter().filter(|a| !a.kind.is_hidden()).collect();
    if explicit.len() != args.len() {
        return Err(ExecError::Setup(format!(
            "kernel `{}` takes {} arguments, {} given",
            hsa.name,
            explicit.len(),
            args.len()
        )));
    }
    let placeholder: BTreeMap<String, ArgValue> = explicit
        .iter()
        .map(|a| (a.name.clone(), ArgValue::Numbers(vec![0.0.into()])))
        .collect();
    let setups = gpuabi_sim::hsa::dispatch(
        hsa,
        target,
        wave,
        nd,
        &placeholder,
        &mut machine.memory,
        limits,
    )
    .map_err(|e| ExecError::Setup(e.to_string()))?;
    let kernarg = machine
        .memory
        .find(gpuabi_sim::hsa::KERNARG_BUFFER)
        .map(|b| b.base)
        .ok_or_else(|| ExecError::Setup("the dispatch made no kernarg segment".into()))?;
    for (a, bits) in explicit.iter().zip(args) {
        let bytes = bits.to_le_bytes();
        machine
            .memory
            .write_bytes(
                kernarg + u64::from(a.offset),
                &bytes[..a.size.min(8) as usize],
            )
            .ok_or_else(|| {
                ExecError::Setup(format!("argument `{}` lies outside the segment", a.name))
            })?;
    }
    Ok(setups)
}

/// The first byte where two runs' buffers differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Buffer name.
    pub buffer: String,
    /// Byte offset.
    pub offset: usize,
    /// The interpreter's byte.
    pub expected: u8,
    /// The compiled code's byte.
    pub actual: u8,
}

/// Compares the interpreter's buffers (`expected`) with a compiled run's, buffer by
/// buffer in order.
pub fn first_difference(
    expected: &[(String, Vec<u8>)],
    actual: &[(String, Vec<u8>)],
) -> Option<Difference> {
    for ((name, e), (_, a)) in expected.iter().zip(actual) {
        if let Some(offset) = e.iter().zip(a).position(|(x, y)| x != y) {
            return Some(Difference {
                buffer: name.clone(),
                offset,
                expected: e[offset],
                actual: a[offset],
            });
        }
    }
    None
}
