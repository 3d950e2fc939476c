use thiserror::Error;

/// A register name that could not be parsed; `column` is 1-based within the name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad register name `{text}` at column {column}: {expected}")]
pub struct RegParseError {
    /// The text that was being parsed.
    pub text: String,
    /// 1-based column of the first character that did not fit.
    pub column: usize,
    /// What would have been accepted there.
    pub expected: String,
}

impl RegParseError {
    pub(crate) fn new(text: &str, column: usize, expected: impl Into<String>) -> Self {
        Self {
            text: text.to_string(),
            column,
            expected: expected.into(),
        }
    }
}

/// Reads a decimal number at byte `pos`; returns it and the position after it.
pub(crate) fn number(text: &str, pos: usize, what: &str) -> Result<(u32, usize), RegParseError> {
    let digits = text[pos..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(RegParseError::new(
            text,
            pos + 1,
            format!("expected {what}"),
        ));
    }
    let value = text[pos..pos + digits]
        .parse::<u32>()
        .map_err(|_| RegParseError::new(text, pos + 1, format!("{what} is too large")))?;
    Ok((value, pos + digits))
}
