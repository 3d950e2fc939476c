//! Errors of the readers: the file and line, and what was expected.

use std::path::PathBuf;

/// Why a file Mesa printed could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MesaError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error of the file system.
        source: std::io::Error,
    },
    /// A line did not have the expected form.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What was expected.
        message: String,
    },
}
