//! Errors of the assembly parser and validator.

use crate::origin::Origin;

/// A problem in assembly text, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct AsmError {
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl AsmError {
    /// An error at `line`:`column`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> AsmError {
        AsmError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// A rule a whole [`crate::Program`] breaks, with the origin of the item concerned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", .origin.suffix())]
pub struct ProgramError {
    /// The item's origin (`Origin::None` for the program as a whole).
    pub origin: Origin,
    /// What was wrong and what was expected.
    pub message: String,
}
