//! Tokens of the OpenCL C subset the reader needs.
//!
//! Comments and preprocessor lines are skipped, except the marker comment `/*unused*/`,
//! which becomes a token so that the parser can see it directly before an argument name.

use logos::Logos;

/// One token.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"#[^\n]*")]
pub enum Tok {
    /// `/*unused*/` (spaces inside allowed).
    #[regex(r"/\*[ \t]*unused[ \t]*\*/", priority = 10)]
    Unused,
    /// Any other block comment.
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/")]
    Comment,
    /// An unterminated block comment (an error).
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    OpenComment,
    /// Identifier or keyword.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// Integer literal.
    #[regex(r"[0-9][0-9A-Za-z_]*")]
    Number,
    /// String literal.
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    /// Character literal.
    #[regex(r"'([^'\\\n]|\\.)*'")]
    Char,
    /// `(`.
    #[token("(")]
    LParen,
    /// `)`.
    #[token(")")]
    RParen,
    /// `{`.
    #[token("{")]
    LBrace,
    /// `}`.
    #[token("}")]
    RBrace,
    /// `[`.
    #[token("[")]
    LBracket,
    /// `]`.
    #[token("]")]
    RBracket,
    /// `;`.
    #[token(";")]
    Semi,
    /// `,`.
    #[token(",")]
    Comma,
    /// `*`.
    #[token("*")]
    Star,
    /// `=`.
    #[token("=")]
    Assign,
    /// Any other punctuation (operators in bodies and initialisers).
    #[regex(r"[-+/%<>!~^&|?:.]")]
    Punct,
}

/// A token with its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub tok: Tok,
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset one past the last character.
    pub end: usize,
}

/// Splits `src` into tokens; an unknown character or an unterminated comment is an error
/// at its byte offset.
pub fn tokenize(src: &str) -> Result<Vec<Token>, (usize, &'static str)> {
    let mut out = Vec::new();
    let mut lex = Tok::lexer(src);
    while let Some(t) = lex.next() {
        let span = lex.span();
        match t {
            Ok(Tok::Comment) => {}
            Ok(Tok::OpenComment) => return Err((span.start, "unterminated comment")),
            Ok(tok) => out.push(Token {
                tok,
                start: span.start,
                end: span.end,
            }),
            Err(()) => return Err((span.start, "unexpected character")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let t = tokenize("kernel void f(/* unused */ int a) // x\n{ a = 1; }").unwrap();
        let kinds: Vec<Tok> = t.iter().map(|t| t.tok).collect();
        assert_eq!(kinds[0], Tok::Ident);
        assert_eq!(kinds[4], Tok::Unused);
        assert!(tokenize("/* open").is_err());
        assert!(tokenize("int @").is_err());
        let t = tokenize("/* a */ /* b * c */ x").unwrap();
        assert_eq!(t.len(), 1);
    }
}
