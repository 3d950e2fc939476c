//! Reference interpreter: defines what a program means, one invocation at a time.
//!
//! Per-invocation semantics (no cross-lane operations) make every divergent or indirect call
//! an ordinary call here; function addresses are opaque tagged values that only `func_addr`
//! makes, and calling anything else is an error naming the function and the invocation.

mod builtins;
mod compile;
mod dispatch;
mod error;
mod eval;
pub mod float;
mod limits;
mod memory;

pub use compile::function_address;
pub use dispatch::{Dispatch, DispatchError, RunStats};
pub use error::{RunError, RunErrorKind};
pub use limits::{Limits, MAX_FRAME_SLOTS};
pub use memory::{Buffer, Memory, MemoryError, MAX_BUFFER_BYTES};

use std::collections::HashMap;

use crate::ir::{FuncAttrs, Module, SigParam, Type};
use crate::verify::{verify, VerifyError};

/// A verified module lowered for execution.
#[derive(Debug, Clone)]
pub struct Program {
    funcs: Vec<compile::CFunc>,
    /// Shape (parameter types and attributes, ABI, `divergent_call`, `noreturn`) of each
    /// signature: function `f` has signature `s` when `sig_shapes[s] == func_shapes[f]`.
    /// Numbered shapes keep this linear in size; a table of every pair was quadratic.
    sig_shapes: Vec<u32>,
    /// Shape of each function, numbered as in `sig_shapes`.
    func_shapes: Vec<u32>,
    sig_names: Vec<String>,
    kernels: Vec<(String, Vec<(String, Type)>)>,
    /// The address `func_addr` gives each function.
    fn_addrs: Vec<u64>,
}

impl Program {
    /// Verifies and lowers a module; `func_addr` gives [`function_address`]es.
    pub fn new(module: &Module) -> Result<Program, VerifyError> {
        let addrs: Vec<u64> = (0..module.functions.len()).map(function_address).collect();
        Program::with_function_addresses(module, &addrs)
    }

    /// Verifies and lowers a module whose functions are at the given addresses (one per
    /// function, distinct): so that a run stores the same function pointers as compiled
    /// code laid out at those addresses.
    pub fn with_function_addresses(module: &Module, addrs: &[u64]) -> Result<Program, VerifyError> {
        verify(module)?;
        let mut fn_addrs: Vec<u64> = (0..module.functions.len()).map(function_address).collect();
        for (a, b) in fn_addrs.iter_mut().zip(addrs) {
            *a = *b;
        }
        // The fields `Signature::matches` compares, as one key.
        let mut shapes = HashMap::new();
        let mut shape = |params: Vec<SigParam>, a: &FuncAttrs| {
            let key = (params, a.abi.clone(), a.divergent_call, a.noreturn);
            let next = shapes.len() as u32;
            *shapes.entry(key).or_insert(next)
        };
        let sig_shapes = module
            .sigs
            .iter()
            .map(|s| shape(s.params.clone(), &s.attrs))
            .collect();
        let func_shapes = module
            .functions
            .iter()
            .map(|f| shape(f.sig_params(), &f.attrs))
            .collect();
        let kernels = module
            .functions
            .iter()
            .filter(|f| f.attrs.kernel)
            .map(|f| {
                let params = f
                    .params
                    .iter()
                    .map(|p| (f.value_name(p.value).to_string(), f.ty(p.value)))
                    .collect();
                (f.name.clone(), params)
            })
            .collect();
        Ok(Program {
            funcs: compile::lower(module, &fn_addrs),
            sig_shapes,
            func_shapes,
            sig_names: module.sigs.iter().map(|s| s.name.clone()).collect(),
            kernels,
            fn_addrs,
        })
    }

    /// Parameter names and types of a kernel, in order.
    pub fn kernel_params(&self, kernel: &str) -> Option<&[(String, Type)]> {
        self.kernels
            .iter()
            .find(|(n, _)| n == kernel)
            .map(|(_, p)| p.as_slice())
    }

    /// Names of the kernels.
    pub fn kernels(&self) -> impl Iterator<Item = &str> {
        self.kernels.iter().map(|(n, _)| n.as_str())
    }
}
