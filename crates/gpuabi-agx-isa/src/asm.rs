//! Text to instructions: Mesa's disassembler syntax, one instruction a line, with labels.
//!
//! A line holds an optional `label:` and an optional instruction; `;` or `//` starts a
//! comment. The encoding is chosen by the search of `select` (shared with the builder):
//! candidate encodings are kept only if they print the same text, and the shortest form
//! wins, except for the rows Mesa's compiler always packs in their long form
//! (`packed_long`: `iter`, `ldcf`, `lload`, `lstore`, `stack_adjust`), which are emitted
//! long as Mesa emits them, so that Mesa's text assembles to Mesa's bytes. Branch targets (`offset` of `jmp_any`,
//! `jmp_none`, `call`, `jmp_incomplete`, `jmp_if_skipping_doorbell`) take a label or a byte
//! offset relative to the branch instruction.

use std::collections::HashMap;

use crate::decode::Instruction;
use crate::effects::Effects;
use crate::error::{AsmError, TextError};
use crate::isa::{rows, Row};
use crate::operand::parse_operand;
use crate::print::write_line;
use crate::select::{candidates, select, Tok};

/// One operand token and its column (from 1) in the instruction text.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    column: usize,
}

/// Splits an instruction into its mnemonic and operand tokens.
fn tokenize(text: &str) -> Result<(Token<'_>, Vec<Token<'_>>), TextError> {
    let start = text.len() - text.trim_start().len();
    let rest = &text[start..];
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let mnemonic = Token {
        text: &rest[..end],
        column: start + 1,
    };
    let mut tokens = Vec::new();
    let ops = &rest[end..];
    if !ops.trim().is_empty() {
        let mut at = start + end;
        for piece in ops.split(',') {
            let lead = piece.len() - piece.trim_start().len();
            let t = piece.trim();
            tokens.push(Token {
                text: t,
                column: at + lead + 1,
            });
            at += piece.len() + 1;
        }
    }
    Ok((mnemonic, tokens))
}

/// How labels are resolved: `None` when the name is unknown.
pub type Labels<'a> = &'a dyn Fn(&str) -> Option<i64>;

/// The canonical text of a mnemonic and operand tokens.
fn normalised(mnemonic: &str, tokens: &[String]) -> String {
    let mut s = String::new();
    let _ = write_line(&mut s, mnemonic, tokens);
    s
}

/// Assembles one instruction at byte `address` (for branch labels).
pub fn assemble_instruction(
    text: &str,
    address: i64,
    labels: Labels<'_>,
) -> Result<Instruction, TextError> {
    let (mnemonic, tokens) = tokenize(text)?;
    let candidates = candidates(mnemonic.text);
    if candidates.is_empty() {
        let mut names: Vec<&str> = rows().iter().map(|r| r.def.display).collect();
        names.sort_unstable();
        names.dedup();
        let near = gpuabi_layout::suggest::nearest(mnemonic.text, &names);
        let hint = if near.is_empty() {
            "expected an instruction name".to_string()
        } else {
            let quoted: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
            format!("did you mean {}?", quoted.join(" or "))
        };
        return Err(TextError {
            column: mnemonic.column,
            message: format!("unknown mnemonic `{}`; {hint}", mnemonic.text),
        });
    }
    let toks: Vec<Tok> = tokens
        .iter()
        .map(|t| {
            let int = t.text.parse::<i64>().ok();
            Tok {
                word: Some(t.text),
                operand: parse_operand(t.text),
                int,
                branch: int
                    .is_none()
                    .then(|| labels(t.text).map(|target| target - address))
                    .flatten(),
                absent: t.text == "_",
            }
        })
        .collect();
    // Labels were resolved to numbers; compare against the text with those numbers.
    let mut prints_as_written = |row: &Row, ins: &Instruction| {
        let resolved = resolved_tokens(row, &tokens, ins);
        ins.to_string() == normalised(row.def.display, &resolved)
    };
    select(&candidates, &toks, &mut prints_as_written).map_err(|(at, what)| {
        let column = tokens
            .get(at)
            .map_or(text.trim_end().len() + 1, |t| t.column);
        let message = if what.is_empty() {
            format!(
                "operands do not form a valid `{}` instruction",
                mnemonic.text
            )
        } else {
            match tokens.get(at) {
                Some(t) if t.text.is_empty() => format!("empty operand: {what}"),
                Some(t) => format!("`{}`: {what}", t.text),
                None => what,
            }
        };
        TextError { column, message }
    })
}

/// The tokens with a branch label replaced by the offset the instruction holds.
fn resolved_tokens(row: &Row, tokens: &[Token<'_>], ins: &Instruction) -> Vec<String> {
    let offset = row
        .def
        .effects
        .contains(Effects::BRANCH)
        .then(|| ins.immediate("offset"))
        .flatten();
    tokens
        .iter()
        .map(|t| match offset {
            Some(v) if is_label(t.text) && parse_operand(t.text).is_none() => v.to_string(),
            _ => t.text.to_string(),
        })
        .collect()
}

/// An assembled program.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The code.
    pub bytes: Vec<u8>,
    /// Each instruction with its byte offset and source line (from 1).
    pub instructions: Vec<(usize, usize, Instruction)>,
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find(';'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

fn is_label(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Splits a line into an optional label (with its column) and the instruction text with
/// the column where it starts.
fn split_label(line: &str) -> (Option<(&str, usize)>, &str, usize) {
    let code = strip_comment(line);
    if let Some(colon) = code.find(':') {
        let name = code[..colon].trim();
        if is_label(name) && !name.contains(char::is_whitespace) {
            let col = code.len() - code.trim_start().len() + 1;
            return (Some((name, col)), &code[colon + 1..], colon + 1);
        }
    }
    (None, code, 0)
}

/// Assembles a source file; `file` names it in errors.
pub fn assemble(source: &str, file: &str) -> Result<Program, AsmError> {
    let err = |line: usize, column: usize, message: String| AsmError {
        file: file.to_string(),
        line,
        column,
        message,
    };
    // Pass 1: addresses, with every label read as offset 0 (branch lengths are fixed).
    let mut labels: HashMap<String, i64> = HashMap::new();
    let mut address = 0i64;
    let zero = |_: &str| Some(0i64);
    for (n, line) in source.lines().enumerate() {
        let (label, code, skip) = split_label(line);
        if let Some((name, col)) = label {
            if labels.insert(name.to_string(), address).is_some() {
                return Err(err(n + 1, col, format!("label `{name}` is defined twice")));
            }
        }
        if code.trim().is_empty() {
            continue;
        }
        let ins = assemble_instruction(code, address, &zero)
            .map_err(|e| err(n + 1, skip + e.column, e.message))?;
        address += i64::from(ins.length);
    }
    // Pass 2: the real offsets.
    let lookup = |name: &str| labels.get(name).copied();
    let mut bytes = Vec::new();
    let mut instructions = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let (_, code, skip) = split_label(line);
        if code.trim().is_empty() {
            continue;
        }
        let at = bytes.len();
        let ins = assemble_instruction(code, at as i64, &lookup)
            .map_err(|e| err(n + 1, skip + e.column, e.message))?;
        bytes.extend(ins.bytes());
        instructions.push((at, n + 1, ins));
    }
    Ok(Program {
        bytes,
        instructions,
    })
}
