//! Splits one line of assembly into tokens with their columns.

use crate::error::AsmError;

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A name: mnemonic, register (`s4`, `v[0:3]`), label, modifier, directive (`.text`).
    Word(String),
    /// A number as written (`12`, `0x1f`, `1.5`); a leading minus is a separate token.
    Number(String),
    /// One of `, : ( ) + - | &` (`&` joins `s_waitcnt` counters).
    Punct(char),
    /// A double-quoted string (no escapes), without its quotes.
    Str(String),
}

/// A token and the 1-based column where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Column of its first character.
    pub column: usize,
}

fn word_start(c: char) -> bool {
    // `@` starts `@function` in `.type NAME,@function`.
    c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$' || c == '@'
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

/// The text of a line without its comment (`;` or `//` to the end of the line, outside
/// quoted strings).
pub fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b';' if !quoted => return &line[..i],
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// Tokens of one line (comment already removed); `line` is used in errors.
pub fn lex(text: &str, line: usize) -> Result<Vec<Token>, AsmError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if word_start(c) {
            let start = i;
            // The first character may be one only a word starts with (`@`).
            i += 1;
            while i < chars.len() && word_char(chars[i]) {
                i += 1;
            }
            // A register tuple `s[0:1]` / `v[4:7]` is one word.
            let word: String = chars[start..i].iter().collect();
            if (word == "s" || word == "v") && chars.get(i) == Some(&'[') {
                let close = chars[i..].iter().position(|&c| c == ']').ok_or_else(|| {
                    AsmError::new(line, column, "register tuple without a closing `]`")
                })?;
                i += close + 1;
            }
            out.push(Token {
                tok: Tok::Word(
                    chars[start..i]
                        .iter()
                        .filter(|c| !c.is_whitespace())
                        .collect(),
                ),
                column,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                // An exponent sign belongs to the number (`1e-3`), unless it is hex.
                i += 1;
                let hex = chars[start..].len() > 1 && matches!(chars[start + 1], 'x' | 'X');
                if !hex
                    && i < chars.len()
                    && matches!(chars[i], '-' | '+')
                    && matches!(chars[i - 1], 'e' | 'E')
                {
                    i += 1;
                }
            }
            out.push(Token {
                tok: Tok::Number(chars[start..i].iter().collect()),
                column,
            });
        } else if c == '"' {
            // A backslash escapes the next character, `\"` included.
            let mut end = i + 1;
            while end < chars.len() && chars[end] != '"' {
                end += if chars[end] == '\\' { 2 } else { 1 };
            }
            if end >= chars.len() {
                return Err(AsmError::new(line, column, "string without a closing `\"`"));
            }
            let len = end - i - 1;
            out.push(Token {
                tok: Tok::Str(chars[i + 1..i + 1 + len].iter().collect()),
                column,
            });
            i += len + 2;
        } else if matches!(c, ',' | ':' | '(' | ')' | '+' | '-' | '|' | '&' | '[' | ']') {
            out.push(Token {
                tok: Tok::Punct(c),
                column,
            });
            i += 1;
        } else {
            return Err(AsmError::new(
                line,
                column,
                format!("unexpected character `{c}`"),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let toks = lex("buffer_load_dword v[0:1], s[ 4:7 ], -1.5e-3 offset:16", 1).unwrap();
        let words: Vec<Tok> = toks.into_iter().map(|t| t.tok).collect();
        assert_eq!(
            words,
            vec![
                Tok::Word("buffer_load_dword".into()),
                Tok::Word("v[0:1]".into()),
                Tok::Punct(','),
                Tok::Word("s[4:7]".into()),
                Tok::Punct(','),
                Tok::Punct('-'),
                Tok::Number("1.5e-3".into()),
                Tok::Word("offset".into()),
                Tok::Punct(':'),
                Tok::Number("16".into()),
            ]
        );
        assert_eq!(strip_comment("s_nop 0 ; x // y"), "s_nop 0 ");
        assert!(lex("s_nop #", 3).is_err());
        assert!(lex("s_nop @", 3).is_ok(), "`@function` words");
    }
}
