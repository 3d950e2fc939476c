//! Why a module could not be written as LLVM IR.

use gpuabi_ir::ir::Span;
use gpuabi_ir::{Diagnostic, VerifyError};

/// An error of [`crate::emit`]: the module is invalid, or uses something LLVM IR cannot
/// express with the IR's meaning.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmitError {
    /// The verifier rejected the module.
    #[error("the module does not verify ({} error(s))", .0.0.len())]
    Invalid(VerifyError),
    /// A construct with no LLVM equivalent, at a place in the source.
    #[error("{}", .0)]
    Unsupported(Diagnostic),
}

impl EmitError {
    /// The diagnostics to show against the source text (file:line:column and a caret).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            EmitError::Invalid(e) => e.0.clone(),
            EmitError::Unsupported(d) => vec![d.clone()],
        }
    }

    pub(crate) fn unsupported(message: String, span: Span, label: &str) -> EmitError {
        EmitError::Unsupported(Diagnostic::new(message, span, label))
    }
}
