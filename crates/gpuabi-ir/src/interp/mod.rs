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
mod limits;
mod memory;

pub use compile::function_address;
pub use dispatch::{Dispatch, DispatchError, RunStats};
pub use error::{RunError, RunErrorKind};
pub use limits::Limits;
pub use memory::{Buffer, Memory, MemoryError, MAX_BUFFER_BYTES};

use crate::ir::{Module, Type};
use crate::verify::{verify, VerifyError};

/// A verified module lowered for execution.
#[derive(Debug, Clone)]
pub struct Program {
    funcs: Vec<compile::CFunc>,
    /// `sig_ok[s][f]`: function `f` has signature `s`.
    sig_ok: Vec<Vec<bool>>,
    sig_names: Vec<String>,
    kernels: Vec<(String, Vec<(String, Type)>)>,
}

impl Program {
    /// Verifies and lowers a module.
    pub fn new(module: &Module) -> Result<Program, VerifyError> {
        verify(module)?;
        let sig_ok = module
            .sigs
            .iter()
            .map(|s| module.functions.iter().map(|f| s.matches(f)).collect())
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
            funcs: compile::lower(module),
            sig_ok,
            sig_names: module.sigs.iter().map(|s| s.name.clone()).collect(),
            kernels,
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
