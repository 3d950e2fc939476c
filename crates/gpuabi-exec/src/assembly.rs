//! Running another compiler's AMDHSA assembly (as `llc -mtriple=amdgcn-amd-amdhsa`
//! prints it: `.amdhsa_kernel` descriptors and `.amdgpu_metadata`) exactly as [`crate::run`]
//! runs gpuabi's code: buffers at the interpreter's addresses, explicit arguments written
//! into the kernel argument segment from the interpreter's bits at the offsets the
//! metadata gives, and every call checked against LLVM's callable-function convention
//! (`llvm-gfx`, AMDGPU's `CSR_AMDGPU` registers preserved with s32 as the stack pointer),
//! the convention llc gives functions of LLVM's default calling convention.

use gpuabi_amdgpu::{Program, Target, WaveSize};
use gpuabi_ir::interp::Dispatch;
use gpuabi_sim::{Contract, Limits};

use crate::{buffers_of, hsa_setups, machine_for, nd_range, AbiInstructions, ExecError, Outcome};

/// An assembly file read by gpuabi's assembler, with its kernels' descriptors and
/// argument metadata.
#[derive(Debug, Clone)]
pub struct Assembly {
    text: String,
    program: Program,
    kernels: Vec<gpuabi_amdgpu::hsa::Kernel>,
}

impl Assembly {
    /// Assembles `text` for `target` and `wave`; an instruction or directive the machine
    /// model lacks is [`ExecError::Assemble`] with the assembler's located message.
    pub fn parse(text: &str, target: Target, wave: WaveSize) -> Result<Assembly, ExecError> {
        let program = gpuabi_amdgpu::asm::parse(text, target, wave)
            .map_err(|e| ExecError::Assemble(e.to_string()))?;
        let kernels = gpuabi_amdgpu::hsa::read_kernels(text, target, wave)
            .map_err(|e| ExecError::Assemble(format!("{}: {}", e.line, e.message)))?;
        Ok(Assembly {
            text: text.to_string(),
            program,
            kernels,
        })
    }

    /// The assembled program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The address of every function of `module` in the simulator's image of this
    /// assembly, by label (the interpreter's own tagged address for a function the other
    /// compiler left out): given to [`crate::interpret_at`], the interpreter stores the
    /// function pointers this code stores.
    pub fn function_addresses(&self, module: &gpuabi_ir::Module) -> Result<Vec<u64>, ExecError> {
        crate::program_function_addresses(module, &self.program)
    }

    /// Runs `kernel` over `dispatch` with one argument value (raw bits, as the interpreter
    /// takes them) per explicit parameter of the kernel's metadata and the given buffers,
    /// with the `llvm-gfx` contract checked at every call. [`Outcome::overhead`] is empty:
    /// only gpuabi's code generator attributes instructions to the ABI.
    pub fn run(
        &self,
        kernel: &str,
        dispatch: &Dispatch,
        args: &[u64],
        buffers: &[(String, Vec<u8>)],
        limits: &Limits,
    ) -> Result<Outcome, ExecError> {
        let k = self
            .kernels
            .iter()
            .find(|k| k.name == kernel)
            .ok_or_else(|| ExecError::NoKernel(kernel.to_string()))?;
        let k = gpuabi_sim::code_object::dispatched_assembly_kernel(&self.text, k);
        let (mut machine, ids) =
            machine_for(&self.program, Some(Contract::llvm_gfx()), buffers, limits)?;
        let nd = nd_range(dispatch);
        let setups = hsa_setups(
            &k,
            self.program.target,
            self.program.wave,
            &nd,
            args,
            &mut machine,
            limits,
        )?;
        machine.watch_private();
        machine.run(kernel, &setups).map_err(|e| ExecError::Sim {
            span: None,
            message: e.to_string(),
            violations: machine.violations().to_vec(),
        })?;
        let out = buffers_of(&machine, &ids);
        Ok(Outcome {
            abi: AbiInstructions::of(&machine),
            overhead: Vec::new(),
            site_overhead: Vec::new(),
            buffers: out,
            stats: machine.stats.clone(),
            violations: machine.violations().to_vec(),
            checked_returns: machine.contract.as_ref().map_or(0, |c| c.checked_returns),
            unwritten: std::mem::take(&mut machine.unwritten),
        })
    }
}
