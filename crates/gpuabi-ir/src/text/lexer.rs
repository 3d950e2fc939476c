//! Tokens of the `.gsir` text format.

use logos::Logos;

use crate::diagnostic::Diagnostic;
use crate::ir::Span;

/// One token. Comments run from `;` to the end of the line; newlines end instructions.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(skip r"[ \t\r]+")]
#[logos(skip r";[^\n]*")]
pub enum Tok<'s> {
    /// End of a line.
    #[token("\n")]
    Newline,
    /// `%name`: an SSA value.
    #[regex(r"%[A-Za-z0-9_.]+", |l| &l.slice()[1..])]
    Value(&'s str),
    /// `@name`: a function.
    #[regex(r"@[A-Za-z0-9_.]+", |l| &l.slice()[1..])]
    Func(&'s str),
    /// `$name`: a signature.
    #[regex(r"\$[A-Za-z0-9_.]+", |l| &l.slice()[1..])]
    Sig(&'s str),
    /// A keyword, opcode, type or attribute.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'s str),
    /// A decimal or hexadecimal integer, possibly negative.
    #[regex(r"-?[0-9]+")]
    #[regex(r"-?0[xX][0-9a-fA-F]+")]
    Int(&'s str),
    /// A decimal float (`1.5`, `-2.`, `1e-3`).
    #[regex(r"-?[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    #[regex(r"-?[0-9]+[eE][+-]?[0-9]+")]
    Float(&'s str),
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `,`
    #[token(",")]
    Comma,
    /// `:`
    #[token(":")]
    Colon,
    /// `=`
    #[token("=")]
    Eq,
    /// `->`
    #[token("->")]
    Arrow,
}

impl Tok<'_> {
    /// How the token reads in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Newline => "end of line".to_string(),
            Tok::Value(n) => format!("`%{n}`"),
            Tok::Func(n) => format!("`@{n}`"),
            Tok::Sig(n) => format!("`${n}`"),
            Tok::Ident(s) | Tok::Int(s) | Tok::Float(s) => format!("`{s}`"),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Eq => "`=`".into(),
            Tok::Arrow => "`->`".into(),
        }
    }
}

/// Splits source text into tokens with their spans.
pub fn lex(source: &str) -> Result<Vec<(Tok<'_>, Span)>, Diagnostic> {
    let mut out = Vec::new();
    let mut lexer = Tok::lexer(source);
    while let Some(tok) = lexer.next() {
        let span = Span::new(lexer.span());
        match tok {
            Ok(t) => out.push((t, span)),
            Err(()) => return Err(Diagnostic::new(
                format!("unexpected character `{}`", lexer.slice()),
                span,
                "not part of any token",
            )
            .with_note(
                "tokens are %values, @functions, $signatures, names, numbers and ( ) { } , : = ->",
            )),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let toks: Vec<_> = lex("%a = add i32 %b, -0x10 ; c\n->1.5e3")
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(
            toks,
            vec![
                Tok::Value("a"),
                Tok::Eq,
                Tok::Ident("add"),
                Tok::Ident("i32"),
                Tok::Value("b"),
                Tok::Comma,
                Tok::Int("-0x10"),
                Tok::Newline,
                Tok::Arrow,
                Tok::Float("1.5e3"),
            ]
        );
    }
}
