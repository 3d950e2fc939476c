//! Spanned diagnostics shared by the parser and the verifier, rendered with
//! codespan-reporting (file:line:column, the source line, a caret and a label).

use std::fmt;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor, Config};

use crate::ir::Span;

/// One problem at one place in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline ("expected a type").
    pub message: String,
    /// Where.
    pub span: Span,
    /// Text under the caret ("found `%x`").
    pub label: String,
    /// Extra lines.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with a message, place and label.
    pub fn new(message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            label: label.into(),
            notes: Vec::new(),
        }
    }

    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Renders the diagnostic against its source text, without colours.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let file = SimpleFile::new(file_name, source);
        let len = source.len();
        let start = (self.span.start as usize).min(len);
        let end = (self.span.end as usize).clamp(start, len);
        let diag = CsDiagnostic::error()
            .with_message(&self.message)
            .with_labels(vec![
                Label::primary((), start..end).with_message(&self.label)
            ])
            .with_notes(self.notes.clone());
        let mut out = NoColor::new(Vec::new());
        if term::emit(&mut out, &Config::default(), &file, &diag).is_err() {
            return format!("{file_name}: error: {}", self.message);
        }
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

    /// `line:column` (1-based) of the start of the span.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        line_col(source, self.span.start as usize)
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
    (line, col)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.label)
    }
}

/// Renders a list of diagnostics one after the other.
pub fn render_all(diags: &[Diagnostic], file_name: &str, source: &str) -> String {
    diags.iter().map(|d| d.render(file_name, source)).collect()
}
