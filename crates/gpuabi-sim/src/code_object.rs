//! Loading an AMDHSA code object (`llc -filetype=obj`) into the simulator: `.text` at
//! [`CODE_BASE`], every data section and the GOT in global memory as buffers named after
//! them, all relocations applied; the kernel chosen by name is then dispatched by
//! [`crate::hsa::dispatch`] like a kernel read from llc's assembly.

use gpuabi_amdgpu::code_object::{CodeObject, CodeObjectError, ObjectKernel, Placement};
use gpuabi_amdgpu::hsa::Kernel;
use gpuabi_amdgpu::Program;

use crate::image::CODE_BASE;
use crate::memory::Memory;

/// Private bytes per work-item a kernel with a dynamic stack (`.amdhsa_uses_dynamic_stack`:
/// recursion or indirect calls) gets at least, from an object or an assembly file: its
/// `private_segment_fixed_size` covers only the frames LLVM could size, and the runtime
/// adds the rest ([`gpuabi_amdgpu::hsa::ASSUMED_STACK_BYTES`]).
pub const DYNAMIC_STACK_BYTES: u32 = gpuabi_amdgpu::hsa::ASSUMED_STACK_BYTES;

/// The kernel as the simulator dispatches it: a kernel with a dynamic stack gets at least
/// [`DYNAMIC_STACK_BYTES`] of private segment per work-item.
pub fn dispatched_kernel(kernel: &ObjectKernel) -> Kernel {
    let mut k = kernel.kernel.clone();
    if kernel.uses_dynamic_stack {
        let d = &mut k.descriptor;
        d.private_segment_fixed_size = d.private_segment_fixed_size.max(DYNAMIC_STACK_BYTES);
    }
    k
}

/// The kernel of an assembly file (as llc prints it, read by
/// [`gpuabi_amdgpu::hsa::read_kernels`]) as the simulator dispatches it: when the file's
/// `.amdhsa_kernel` block for it says `.amdhsa_uses_dynamic_stack 1`, at least
/// [`DYNAMIC_STACK_BYTES`] of private segment per work-item, as for an object.
pub fn dispatched_assembly_kernel(text: &str, kernel: &Kernel) -> Kernel {
    let mut k = kernel.clone();
    if assembly_uses_dynamic_stack(text, &kernel.name) {
        let d = &mut k.descriptor;
        d.private_segment_fixed_size = d.private_segment_fixed_size.max(DYNAMIC_STACK_BYTES);
    }
    k
}

/// Whether the `.amdhsa_kernel NAME` block of `text` says `.amdhsa_uses_dynamic_stack 1`.
fn assembly_uses_dynamic_stack(text: &str, name: &str) -> bool {
    let mut inside = false;
    for line in text.lines() {
        let mut words = line.split(';').next().unwrap_or("").split_whitespace();
        match (words.next(), words.next()) {
            (Some(".amdhsa_kernel"), Some(n)) => inside = n == name,
            (Some(".end_amdhsa_kernel"), _) => inside = false,
            (Some(".amdhsa_uses_dynamic_stack"), Some(v)) if inside => return v == "1",
            _ => {}
        }
    }
    false
}

/// Name of the buffer holding the GOT.
pub const GOT_BUFFER: &str = ".got";

/// A code object that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The object is malformed or needs what gpuabi does not do.
    #[error(transparent)]
    Object(#[from] CodeObjectError),
    /// No kernel of that name.
    #[error("no kernel {}", gpuabi_layout::suggest::suggest(.name, "kernels", &.available.iter().map(String::as_str).collect::<Vec<_>>()))]
    NoKernel {
        /// The name asked for.
        name: String,
        /// The kernels there are.
        available: Vec<String>,
    },
    /// No name given, and the object has not exactly one kernel.
    #[error("the object has {0}: name one")]
    Ambiguous(String),
    /// The sections do not fit global memory.
    #[error("{0}")]
    Memory(String),
}

/// The object's kernel `name`, or its only kernel when `name` is `None`.
pub fn select_kernel<'a>(
    object: &'a CodeObject,
    name: Option<&str>,
) -> Result<&'a ObjectKernel, LoadError> {
    let available = || {
        let names: Vec<&str> = object
            .kernels
            .iter()
            .map(|k| k.kernel.name.as_str())
            .collect();
        if names.is_empty() {
            "no kernels".to_string()
        } else {
            format!("kernels {}", names.join(", "))
        }
    };
    match (name, object.kernels.as_slice()) {
        (Some(n), _) => object.kernel(n).ok_or_else(|| LoadError::NoKernel {
            name: n.to_string(),
            available: object
                .kernels
                .iter()
                .map(|k| k.kernel.name.clone())
                .collect(),
        }),
        (None, [only]) => Ok(only),
        (None, _) => Err(LoadError::Ambiguous(available())),
    }
}

/// Places the object's data sections and GOT in `memory` (at most `limit` bytes in all)
/// with their relocations applied, and returns the code decoded for `kernel`'s wave size
/// with its relocations applied for `.text` at [`CODE_BASE`].
pub fn load(
    object: &CodeObject,
    kernel: &ObjectKernel,
    memory: &mut Memory,
    limit: u64,
) -> Result<Program, LoadError> {
    load_code(object, kernel.wave, memory, limit)
}

/// Places the object's data sections and GOT in `memory` (at most `limit` bytes in all)
/// with their relocations applied, and returns the code decoded for waves of `wave` lanes
/// with its relocations applied for `.text` at [`CODE_BASE`]: [`load`] for an object
/// without kernel descriptors, such as a PAL shader's.
pub fn load_code(
    object: &CodeObject,
    wave: gpuabi_amdgpu::WaveSize,
    memory: &mut Memory,
    limit: u64,
) -> Result<Program, LoadError> {
    let mut placement = Placement {
        text: CODE_BASE,
        data: Vec::new(),
        got: 0,
    };
    let too_large = |e: crate::memory::TooLarge| LoadError::Memory(e.to_string());
    for s in &object.data {
        if memory.find(&s.name).is_some() {
            return Err(LoadError::Memory(format!(
                "a buffer is named `{}`, like a section of the object",
                s.name
            )));
        }
        let id = memory
            .add(&s.name, vec![0; s.bytes.len()], limit)
            .map_err(too_large)?;
        placement.data.push(memory.buffer(id).base);
    }
    let got_entries = object.got_symbols().len();
    if got_entries > 0 {
        let id = memory
            .add(GOT_BUFFER, vec![0; 8 * got_entries], limit)
            .map_err(too_large)?;
        placement.got = memory.buffer(id).base;
        let bytes = object.got_bytes(&placement)?;
        memory.write_bytes(placement.got, &bytes);
    }
    for (i, base) in placement.data.iter().enumerate() {
        let bytes = object.data_bytes(i, &placement)?;
        memory.write_bytes(*base, &bytes);
    }
    Ok(object.program(wave, &placement)?)
}
