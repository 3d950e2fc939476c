//! AMDHSA code objects (`llc -filetype=obj`) on the command line: `sim run FILE.o --kernel
//! NAME` loads, relocates and dispatches a kernel per its descriptor and metadata;
//! `asm disasm FILE.o` prints the relocated code.

use anyhow::{anyhow, bail, Result};
use gpuabi_amdgpu::code_object::{read_code_object, CodeObject, ObjectKernel, Placement};
use gpuabi_amdgpu::{Program, WaveSize};
use gpuabi_sim::code_object::{dispatched_kernel, load, select_kernel};
use gpuabi_sim::{Machine, Memory, WaveSetup};

use super::asm::MachineArgs;
use super::sim::RunArgs;

/// Whether `data` is an AMDHSA code object: an ELF file for `EM_AMDGPU` (224) with OS ABI
/// `ELFOSABI_AMDGPU_HSA` (AMDGPUUsage, "Header").
pub fn is_code_object(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
        && data.get(7) == Some(&gpuabi_amdgpu::code_object::ELFOSABI_AMDGPU_HSA)
        && data.get(18..20) == Some(&224u16.to_le_bytes()[..])
}

/// A code object's kernel loaded for `sim run`: its relocated code, the kernel, and the
/// memory that holds the object's data sections.
pub struct Loaded {
    /// The code of the whole object, relocated.
    pub program: Program,
    /// The kernel `--kernel` names.
    pub kernel: ObjectKernel,
    /// Global memory with the data sections and GOT.
    pub memory: Memory,
}

/// Checks `--target`/`--wave` against what the object and kernel say.
fn check_machine(
    path: &std::path::Path,
    object: &CodeObject,
    wave: WaveSize,
    machine: &MachineArgs,
) -> Result<()> {
    machine.target_of(path, Some(object.processor))?;
    machine.wave_of(object.target, Some((wave, "the kernel descriptor")))?;
    Ok(())
}

/// Reads, places and relocates the code object of `sim run`.
pub fn load_for_run(args: &RunArgs, data: &[u8]) -> Result<Loaded> {
    let path = args.file.display();
    if args.catalyst.is_some() {
        bail!("--catalyst: {path} is an AMDHSA code object, which carries its own ABI; drop --catalyst");
    }
    if !args.set.is_empty() || args.exec.is_some() {
        bail!(
            "{path}: a code object's dispatch sets up the registers itself; drop --set and --exec"
        );
    }
    let object = read_code_object(data).map_err(|e| anyhow!("{path}: {e}"))?;
    let kernel = select_kernel(&object, args.kernel.as_deref())
        .map_err(|e| anyhow!("{path}: --kernel: {e}"))?
        .clone();
    check_machine(&args.file, &object, kernel.wave, &args.machine)?;
    let mut memory = Memory::new();
    let program =
        load(&object, &kernel, &mut memory, args.max_memory).map_err(|e| anyhow!("{path}: {e}"))?;
    Ok(Loaded {
        program,
        kernel,
        memory,
    })
}

/// The waves of the HSA dispatch of `kernel` per `--grid`, `--group`, `--offset` and the
/// `--arg` values, bound by the argument names of the metadata.
pub fn setups(
    args: &RunArgs,
    kernel: &ObjectKernel,
    machine: &mut Machine,
) -> Result<Vec<WaveSetup>> {
    let (nd, values) = super::sim::ndrange_and_args(args, &machine.memory)?;
    let target = machine.image.target;
    gpuabi_sim::hsa::dispatch(
        &dispatched_kernel(kernel),
        target,
        kernel.wave,
        &nd,
        &values,
        &mut machine.memory,
        &machine.limits,
    )
    .map_err(|e| {
        anyhow!(
            "{}: kernel `{}`: {e}",
            args.file.display(),
            kernel.kernel.name
        )
    })
}

/// Decodes the code of a code object for `asm disasm`, relocated as if linked with
/// `.text` at address 0 and each data section and the GOT after it in order (aligned as
/// the sections ask), which is where `ld.lld` would put them in a shared object.
pub fn disassemble(path: &std::path::Path, data: &[u8], machine: &MachineArgs) -> Result<Program> {
    let object = read_code_object(data).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let target = machine.target_of(path, Some(object.processor))?;
    let named = object
        .kernels
        .first()
        .map(|k| (k.wave, "its first kernel descriptor"));
    let wave = machine.wave_of(target, named)?;
    let mut at = object.text.bytes.len() as u64;
    let mut placement = Placement {
        text: 0,
        data: Vec::new(),
        got: 0,
    };
    for s in &object.data {
        at = at.next_multiple_of(s.align.clamp(1, 1 << 16));
        placement.data.push(at);
        at += s.bytes.len() as u64;
    }
    placement.got = at.next_multiple_of(8);
    Ok(object.program(wave, &placement)?)
}
