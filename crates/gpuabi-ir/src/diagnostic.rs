//! Spanned diagnostics shared by the parser and the verifier, rendered with
//! codespan-reporting (file:line:column, the source line, a caret and a label). A source
//! line longer than [`MAX_SHOWN_LINE`] characters is shown cut around the place, with the
//! place's own line and column: a 4 MiB line would otherwise be echoed whole.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::{Error as FilesError, Files, Location, SimpleFile};
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
        let range = self.span.start as usize..self.span.end as usize;
        render_error(
            file_name,
            source,
            range,
            &self.message,
            &self.label,
            &self.notes,
        )
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

/// Longest source line a rendered error shows whole, in characters.
pub const MAX_SHOWN_LINE: usize = 200;

/// Longest message line an error shows whole, in characters: messages quote the
/// offending token, which may be a whole long line.
pub const MAX_MESSAGE_LINE: usize = 500;

/// `text` with every line longer than [`MAX_MESSAGE_LINE`] characters cut to its first
/// [`MAX_SHOWN_LINE`] and a note of its length.
pub fn cap_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let n = line.chars().count();
        if n <= MAX_MESSAGE_LINE {
            out.push_str(line);
        } else {
            out.extend(line.chars().take(MAX_SHOWN_LINE));
            out.push_str(&format!("… (cut from {n} characters)"));
        }
    }
    out
}

/// Renders an error at the byte range `range` of `source` as codespan-reporting does
/// (`file:line:column`, the source line, a caret with `label`, then `notes`), without
/// colours. A line longer than [`MAX_SHOWN_LINE`] characters is shown cut to that many
/// around the range, marked `…` where cut, and its line and column stay the source's;
/// message, label and note lines are capped with [`cap_lines`].
pub fn render_error(
    file_name: &str,
    source: &str,
    range: Range<usize>,
    message: &str,
    label: &str,
    notes: &[String],
) -> String {
    let len = source.len();
    let start = floor_char(source, range.start.min(len));
    let end = floor_char(source, range.end.clamp(start, len));
    let (message, label) = (cap_lines(message), cap_lines(label));
    let notes: Vec<String> = notes.iter().map(|n| cap_lines(n)).collect();
    let diag = |range: Range<usize>| {
        CsDiagnostic::error()
            .with_message(&message)
            .with_labels(vec![Label::primary((), range).with_message(&label)])
            .with_notes(notes.clone())
    };
    let mut out = NoColor::new(Vec::new());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..].find('\n').map_or(len, |i| start + i);
    let emitted = if source[line_start..line_end].chars().count() <= MAX_SHOWN_LINE {
        let file = SimpleFile::new(file_name, source);
        term::emit(&mut out, &Config::default(), &file, &diag(start..end))
    } else {
        let (line, _) = line_col(source, start);
        let cut = CutLine::new(
            file_name,
            &source[line_start..line_end],
            line,
            start - line_start,
        );
        let shown = cut.shown(start - line_start, end.min(line_end) - line_start);
        let note = format!(
            "line {line} has {} characters; shown from column {} to {}",
            source[line_start..line_end].chars().count(),
            cut.first_column,
            cut.last_column
        );
        let d = diag(shown).with_notes(vec![note]);
        term::emit(&mut out, &Config::default(), &cut, &d)
    };
    if emitted.is_err() {
        return format!("{file_name}: error: {message}");
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// The part of `line` an error shows for a caret at character column `column` (from 1):
/// the whole line when it has at most [`MAX_SHOWN_LINE`] characters, else that many
/// around the column with `…` where it was cut; and the caret's column in the shown text.
pub fn cut_line(line: &str, column: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= MAX_SHOWN_LINE {
        return (line.to_string(), column);
    }
    let (first, last) = window(chars.len(), column.saturating_sub(1));
    let mut shown = String::new();
    let mut caret = column - first;
    if first > 0 {
        shown.push('…');
        caret += 1;
    }
    shown.extend(&chars[first..last]);
    if last < chars.len() {
        shown.push('…');
    }
    (shown, caret)
}

/// The characters `first..last` of a line of `len` characters shown for a place at
/// character `at` (from 0): [`MAX_SHOWN_LINE`] of them, a third before the place.
fn window(len: usize, at: usize) -> (usize, usize) {
    let first = at
        .saturating_sub(MAX_SHOWN_LINE / 3)
        .min(len.saturating_sub(MAX_SHOWN_LINE));
    (first, (first + MAX_SHOWN_LINE).min(len))
}

/// The largest char boundary of `s` at or below `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One long source line cut for an error: the shown text as a one-line file whose line
/// number and columns are those of the source.
struct CutLine<'a> {
    name: &'a str,
    /// `…`, the shown characters, `…`.
    text: String,
    /// The source's line number.
    line: usize,
    /// Byte offset in the line of the first shown character.
    first_byte: usize,
    /// Bytes of the leading `…` (0 when the line is shown from its start).
    lead: usize,
    /// Source columns (from 1) of the first and last shown characters.
    first_column: usize,
    last_column: usize,
}

impl<'a> CutLine<'a> {
    /// `line` (without its newline), line number `number`, cut around byte `at`.
    fn new(name: &'a str, line: &str, number: usize, at: usize) -> CutLine<'a> {
        let at_char = line[..at].chars().count();
        let len = line.chars().count();
        let (first, last) = window(len, at_char);
        let byte = |c: usize| line.char_indices().nth(c).map_or(line.len(), |(b, _)| b);
        let (first_byte, last_byte) = (byte(first), byte(last));
        let lead = if first > 0 { '…'.len_utf8() } else { 0 };
        let mut text = String::new();
        if first > 0 {
            text.push('…');
        }
        text.push_str(&line[first_byte..last_byte]);
        if last < len {
            text.push('…');
        }
        CutLine {
            name,
            text,
            line: number,
            first_byte,
            lead,
            first_column: first + 1,
            last_column: last,
        }
    }

    /// The range in the shown text of bytes `start..end` of the source line, clipped to
    /// what is shown.
    fn shown(&self, start: usize, end: usize) -> Range<usize> {
        let shown_len = self.text.len() - self.lead;
        let map = |b: usize| self.lead + b.saturating_sub(self.first_byte).min(shown_len);
        let (s, e) = (map(start), map(end));
        // Past a trailing `…`, the caret stays on the last shown character.
        let limit = self.lead + shown_len;
        floor_char(&self.text, s.min(limit))..floor_char(&self.text, e.min(limit))
    }
}

impl<'a> Files<'a> for CutLine<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _byte_index: usize) -> Result<usize, FilesError> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _line_index: usize) -> Result<usize, FilesError> {
        Ok(self.line)
    }

    /// The source's column: the shown characters count from the first shown one's.
    fn column_number(
        &'a self,
        (): (),
        _line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        let b = floor_char(&self.text, byte_index.clamp(self.lead, self.text.len()));
        Ok(self.first_column + self.text[self.lead..b].chars().count())
    }

    fn location(&'a self, (): (), byte_index: usize) -> Result<Location, FilesError> {
        Ok(Location {
            line_number: self.line,
            column_number: self.column_number((), 0, byte_index)?,
        })
    }

    fn line_range(&'a self, (): (), _line_index: usize) -> Result<Range<usize>, FilesError> {
        Ok(0..self.text.len())
    }
}

/// The names of `choices` nearest to `name` (at most three, within a third of its length
/// in edits, at least 2), nearest first: what an "unknown X" error suggests. The IR
/// depends on no other crate of the workspace, so it keeps its own (the other crates
/// share `gpuabi_layout::suggest`).
pub fn nearest<'a>(name: &str, choices: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = choices
        .into_iter()
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    near.dedup();
    near.into_iter().take(3).map(|(_, c)| c).collect()
}

/// `` `a` or `b` `` of [`nearest`] names, for a note.
pub fn quoted_or(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Renders a list of diagnostics one after the other.
pub fn render_all(diags: &[Diagnostic], file_name: &str, source: &str) -> String {
    diags.iter().map(|d| d.render(file_name, source)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_place() {
        // A 5000-character line with the error at column 4001.
        let line = format!("{}bad{}", "x".repeat(4000), "y".repeat(997));
        let source = format!("first\n{line}\nlast\n");
        let at = 6 + 4000;
        let out = render_error("f.gsir", &source, at..at + 3, "no good", "here", &[]);
        assert!(out.contains("f.gsir:2:4001"), "{out}");
        assert!(
            out.contains("line 2 has 5000 characters; shown from column 3935 to 4134"),
            "{out}"
        );
        assert!(out.len() < 1000, "{} bytes: {out}", out.len());
        let shown = out.lines().find(|l| l.starts_with("2 │")).unwrap();
        assert!(
            shown.contains("…xxx") && shown.contains("xbadyy") && shown.ends_with("y…"),
            "{out}"
        );
        let caret = out.lines().find(|l| l.contains("^^^")).unwrap();
        let column =
            |l: &str, pat: &str| l.char_indices().position(|(i, _)| l[i..].starts_with(pat));
        assert_eq!(column(caret, "^^^"), column(shown, "bad"), "{out}");
        // A short line is shown whole.
        let out = render_error("f", "ab bad\n", 3..6, "m", "l", &[]);
        assert!(out.contains("1 │ ab bad"), "{out}");
        assert_eq!(cut_line("abc", 2), ("abc".to_string(), 2));
        let (shown, caret) = cut_line(&line, 4001);
        assert_eq!(shown.chars().count(), MAX_SHOWN_LINE + 2);
        assert_eq!(shown.chars().nth(caret - 1), Some('b'));
        let long = "x".repeat(600);
        let capped = cap_lines(&format!("ok\nunknown `{long}`"));
        assert!(capped.starts_with("ok\nunknown `xxx"), "{capped}");
        assert!(capped.ends_with("… (cut from 610 characters)"), "{capped}");
        assert_eq!(cap_lines("short"), "short");
    }
}
