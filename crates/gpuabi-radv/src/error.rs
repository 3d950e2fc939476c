//! What can stop a run, each naming its place.

use std::path::PathBuf;

/// An error of reading a capture or of running it.
#[derive(Debug, thiserror::Error)]
pub enum RadvError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file does not say what it must, at a line (1-based; 0 for the whole file).
    #[error("{}:{line}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// What was expected.
        message: String,
    },
    /// The capture is of something the runtime does not build (yet).
    #[error("{0}")]
    Unsupported(String),
    /// A function's code did not assemble.
    #[error("{}: {message}", path.display())]
    Assembly {
        /// The listing.
        path: PathBuf,
        /// The assembler's message (with its line).
        message: String,
    },
    /// The simulator stopped.
    #[error("{0}")]
    Sim(String),
}

impl RadvError {
    pub(crate) fn format(path: &std::path::Path, line: usize, message: impl Into<String>) -> Self {
        RadvError::Format {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}
