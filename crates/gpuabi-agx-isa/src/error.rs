//! Errors of the decoder and the assembler.

use thiserror::Error;

/// Bytes that are not a documented instruction.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// No instruction's fixed bits match.
    #[error("byte offset {offset}: unknown instruction encoding (bytes {bytes}…)")]
    Unknown {
        /// Byte offset of the instruction.
        offset: usize,
        /// Its first bytes, hex.
        bytes: String,
    },
    /// The program ends inside the instruction.
    #[error("byte offset {offset}: {name} needs {length} bytes but only {left} remain")]
    Truncated {
        /// Byte offset of the instruction.
        offset: usize,
        /// Table name of the instruction.
        name: &'static str,
        /// Its length.
        length: u32,
        /// Bytes left in the program.
        left: usize,
    },
    /// The instruction is known but a field holds an undocumented value.
    #[error("byte offset {offset}: {name} (bytes {bytes}): {reason}")]
    Invalid {
        /// Byte offset of the instruction.
        offset: usize,
        /// Table name of the instruction.
        name: &'static str,
        /// The instruction bytes, hex.
        bytes: String,
        /// What is wrong.
        reason: String,
    },
}

/// A line of assembly that cannot be assembled.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct AsmError {
    /// File name as given.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1 (characters).
    pub column: usize,
    /// What was expected.
    pub message: String,
}

/// Why one instruction's text does not assemble, with the column (from 1, within the text)
/// of the offending token.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("column {column}: {message}")]
pub struct TextError {
    /// Column within the instruction text, from 1.
    pub column: usize,
    /// What was expected.
    pub message: String,
}
