//! Text to instructions: Mesa's disassembler syntax, one instruction a line, with labels.
//!
//! A line holds an optional `label:` and an optional instruction; `;` or `//` starts a
//! comment. Operands are matched against every row printing the same mnemonic (or named
//! so, or one of applegpu's names in `ALIASES`); each candidate encoding is decoded again
//! and kept only if it prints the same text, and the shortest form wins, except for the
//! rows Mesa's compiler always packs in their long form (`packed_long`: `iter`, `ldcf`,
//! `lload`, `lstore`, `stack_adjust`), which are emitted long as Mesa emits them, so that
//! Mesa's text assembles to Mesa's bytes. Branch targets (`offset` of `jmp_any`,
//! `jmp_none`, `call`, `jmp_incomplete`, `jmp_if_skipping_doorbell`) take a label or a byte
//! offset relative to the branch instruction.

use std::collections::HashMap;

use crate::bits::low_mask;
use crate::decode::Instruction;
use crate::def::ModKind;
use crate::effects::Effects;
use crate::encode::{encode_absent, encode_case, finish, place, Partial};
use crate::error::{AsmError, TextError};
use crate::isa::{rows, OperandSlot, Row};
use crate::operand::{parse_operand, Operand};
use crate::print::write_line;

/// applegpu's names for instructions whose operands it writes as Mesa does; accepted as
/// mnemonics and printed under Mesa's name.
const ALIASES: &[(&str, &str)] = &[
    ("mov_imm", "ldimm"),
    ("jmp_exec_any", "jmp_any"),
    ("jmp_exec_none", "jmp_none"),
];

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

#[derive(Clone, Copy)]
enum Field<'r> {
    Dest(&'r OperandSlot),
    Src(&'r OperandSlot),
    Imm(usize),
    Mod(usize),
}

struct Search<'a, 'r> {
    row: &'r Row,
    tokens: &'a [Token<'a>],
    parsed: Vec<Option<Operand>>,
    fields: Vec<Field<'r>>,
    address: i64,
    labels: Labels<'a>,
    found: Vec<Partial>,
    steps: usize,
    furthest: (usize, String),
}

const MAX_SOLUTIONS: usize = 16;
const MAX_STEPS: usize = 20_000;

impl Search<'_, '_> {
    fn fail(&mut self, at: usize, what: String) {
        if at >= self.furthest.0 {
            self.furthest = (at, what);
        }
    }

    fn operand_cases(&self, slot: &OperandSlot, op: &Operand) -> Vec<(u128, u128)> {
        slot.cases
            .iter()
            .filter_map(|c| encode_case(c, op))
            .filter_map(|l| place(slot, l))
            .collect()
    }

    fn absent_cases(slot: &OperandSlot) -> Vec<(u128, u128)> {
        slot.cases
            .iter()
            .filter_map(encode_absent)
            .filter_map(|l| place(slot, l))
            .collect()
    }

    fn go(&mut self, fi: usize, ti: usize, acc: Partial) {
        self.steps += 1;
        if self.found.len() >= MAX_SOLUTIONS || self.steps > MAX_STEPS {
            return;
        }
        let Some(&field) = self.fields.get(fi) else {
            if ti == self.tokens.len() {
                self.found.push(acc);
            } else {
                self.fail(ti, "no further operand".into());
            }
            return;
        };
        let tok = self.tokens.get(ti).copied();
        match field {
            Field::Dest(slot) | Field::Src(slot) => {
                let is_dest = matches!(field, Field::Dest(_));
                if let Some(t) = tok {
                    let options = if is_dest && t.text == "_" {
                        Self::absent_cases(slot)
                    } else if let Some(op) = self.parsed[ti] {
                        self.operand_cases(slot, &op)
                    } else {
                        Vec::new()
                    };
                    if options.is_empty() {
                        self.fail(ti, format!("expected {}", slot.enc.name));
                    }
                    for (v, m) in options {
                        if let Some(next) = acc.merge(v, m) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                } else if is_dest {
                    self.fail(ti, format!("expected {}", slot.enc.name));
                }
                if !is_dest {
                    for (v, m) in Self::absent_cases(slot) {
                        if let Some(next) = acc.merge(v, m) {
                            self.go(fi + 1, ti, next);
                        }
                    }
                }
            }
            Field::Imm(i) => {
                let (def, bits) = &self.row.imms[i];
                let Some(t) = tok else {
                    self.fail(ti, format!("expected {}", def.name));
                    return;
                };
                let branch = def.name == "offset" && self.row.def.effects.contains(Effects::BRANCH);
                let value = match (t.text.parse::<i64>(), branch) {
                    (Ok(v), _) => Some(v),
                    (Err(_), true) => (self.labels)(t.text).map(|target| target - self.address),
                    (Err(_), false) => None,
                };
                let w = bits.width();
                let fits = value.and_then(|v| {
                    let ok = if def.signed {
                        v >= -(1i64 << (w - 1)) && v < (1i64 << (w - 1))
                    } else {
                        v >= 0 && (v as u128) <= low_mask(w)
                    };
                    ok.then_some((v as u64) & (low_mask(w) as u64))
                });
                match fits {
                    Some(x) => {
                        if let Some(next) = acc.merge(bits.deposit(x), bits.mask()) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                    None => {
                        let what = if branch {
                            format!("expected a label or a byte offset that fits {w} bits")
                        } else {
                            format!(
                                "expected {} ({}{w}-bit integer)",
                                def.name,
                                if def.signed { "signed " } else { "" }
                            )
                        };
                        self.fail(ti, what);
                    }
                }
            }
            Field::Mod(i) => {
                let (def, bits) = &self.row.mods[i];
                let mut present = Vec::new();
                let mut absent = None;
                match def.kind {
                    ModKind::Flag => {
                        present.push((1u64, def.display));
                        absent = Some(0);
                    }
                    ModKind::Enum(e) => {
                        for (code, text) in e.values {
                            match text {
                                Some(t) => present.push((u64::from(*code), *t)),
                                None if absent.is_none() => absent = Some(u64::from(*code)),
                                None => {}
                            }
                        }
                    }
                }
                if let Some(t) = tok {
                    let mut any = false;
                    for (code, _) in present.iter().filter(|(_, text)| *text == t.text) {
                        any = true;
                        if let Some(next) = acc.merge(bits.deposit(*code), bits.mask()) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                    if !any {
                        let names: Vec<&str> = present.iter().map(|p| p.1).collect();
                        let what = if names.len() > 6 {
                            format!("expected {} ({}, ...)", def.name, names[..6].join(", "))
                        } else {
                            format!("expected {} ({})", def.name, names.join(", "))
                        };
                        self.fail(ti, what);
                    }
                }
                match absent {
                    Some(code) => {
                        if let Some(next) = acc.merge(bits.deposit(code), bits.mask()) {
                            self.go(fi + 1, ti, next);
                        }
                    }
                    None if tok.is_none() => self.fail(ti, format!("expected {}", def.name)),
                    None => {}
                }
            }
        }
    }
}

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
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == mnemonic.text)
        .map_or(mnemonic.text, |(_, mesa)| mesa);
    let candidates: Vec<(usize, &Row)> = rows()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.def.display == name || r.def.name == name)
        .collect();
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
    let parsed: Vec<Option<Operand>> = tokens.iter().map(|t| parse_operand(t.text)).collect();
    let mut best: Option<Instruction> = None;
    let mut furthest: (usize, String) = (0, String::new());
    for (index, row) in candidates {
        let mut fields: Vec<Field> = Vec::new();
        fields.extend(row.dests.iter().map(Field::Dest));
        fields.extend(row.srcs.iter().map(Field::Src));
        fields.extend((0..row.imms.len()).map(Field::Imm));
        fields.extend((0..row.mods.len()).map(Field::Mod));
        let mut s = Search {
            row,
            tokens: &tokens,
            parsed: parsed.clone(),
            fields,
            address,
            labels,
            found: Vec::new(),
            steps: 0,
            furthest: (0, String::new()),
        };
        let start = Partial::default()
            .merge(row.exact_value, row.exact_mask)
            .unwrap_or_default();
        s.go(0, 0, start);
        if s.furthest.0 >= furthest.0 && !s.furthest.1.is_empty() {
            furthest = s.furthest.clone();
        }
        // Labels were resolved to numbers; compare against the text with those numbers.
        for p in s.found {
            let Some(ins) = finish(index, row, p, None) else {
                continue;
            };
            let printed = ins.to_string();
            let resolved = resolved_tokens(row, &tokens, &ins);
            let expect = normalised(row.def.display, &resolved);
            if printed != expect {
                continue;
            }
            if best.as_ref().is_none_or(|b| ins.length < b.length) {
                best = Some(ins);
            }
        }
    }
    best.ok_or_else(|| {
        let (at, what) = furthest;
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
