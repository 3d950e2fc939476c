//! What a request can fail with, and its JSON form: `{"ok": false, "error": {"kind",
//! "message", ...}}`, with the place when there is one (a line and column of the `.gsir`
//! source, or the launch flag at fault) so the page can point at it.

use serde::Serialize;

/// One problem at one place of the `.gsir` source, 1-based lines and columns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceDiagnostic {
    /// The headline ("expected a type").
    pub message: String,
    /// Text under the caret.
    pub label: String,
    /// Extra lines.
    pub notes: Vec<String>,
    /// Line of the first byte.
    pub line: usize,
    /// Column (in bytes, from 1) of the first byte.
    pub column: usize,
    /// Line of the end of the span.
    pub end_line: usize,
    /// Column just past the span.
    pub end_column: usize,
    /// The diagnostic as the command line prints it (file:line:column, the line, a caret).
    pub rendered: String,
}

impl SourceDiagnostic {
    /// The diagnostic `d` against `source`, named `file` in the rendered text.
    pub fn new(d: &gpuabi_ir::Diagnostic, file: &str, source: &str) -> SourceDiagnostic {
        let (line, column) = gpuabi_ir::diagnostic::line_col(source, d.span.start as usize);
        let (end_line, end_column) = gpuabi_ir::diagnostic::line_col(source, d.span.end as usize);
        SourceDiagnostic {
            message: d.message.clone(),
            label: d.label.clone(),
            notes: d.notes.clone(),
            line,
            column,
            end_line,
            end_column,
            rendered: d.render(file, source),
        }
    }
}

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WebError {
    /// The request is not the JSON the call takes.
    #[error("request: {0}")]
    Request(String),
    /// The source does not parse or verify.
    #[error("{} error(s) in the source", .0.len())]
    Source(Vec<SourceDiagnostic>),
    /// A field of the request that names a flag of the command line (`target`, `wave`,
    /// `grid`, `buffers`, ...) has a value that cannot be used.
    #[error("{message}")]
    Flag {
        /// The flag, as the command line spells it (`--grid`).
        flag: String,
        /// What was wrong, starting with the flag and its value.
        message: String,
    },
    /// The code generator refused the module, at a place of the source when it knows one.
    #[error("cannot compile: {message}")]
    Compile {
        /// Its message.
        message: String,
        /// Where, when known.
        at: Option<Box<SourceDiagnostic>>,
    },
}

impl WebError {
    /// The error's JSON: `kind`, `message`, and what the kind adds.
    pub fn to_json(&self) -> serde_json::Value {
        let message = self.to_string();
        match self {
            WebError::Request(_) => serde_json::json!({"kind": "request", "message": message}),
            WebError::Source(d) => {
                serde_json::json!({"kind": "source", "message": message, "diagnostics": d})
            }
            WebError::Flag { flag, .. } => {
                serde_json::json!({"kind": "flag", "flag": flag, "message": message})
            }
            WebError::Compile { at, .. } => {
                serde_json::json!({"kind": "compile", "message": message, "at": at})
            }
        }
    }
}

impl From<gpuabi_exec::launch::LaunchError> for WebError {
    fn from(e: gpuabi_exec::launch::LaunchError) -> WebError {
        WebError::Flag {
            flag: e.flag.to_string(),
            message: e.message,
        }
    }
}

/// A flag error of `flag` with `message`.
pub fn flag(flag: &str, message: impl Into<String>) -> WebError {
    WebError::Flag {
        flag: flag.to_string(),
        message: message.into(),
    }
}
