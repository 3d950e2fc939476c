//! Recursive-descent parser of the `.gsir` text format.
//!
//! Grammar (one instruction per line; `;` starts a comment):
//!
//! ```text
//! module   := (sig | fn)*
//! sig      := 'sig' $name '(' [type pattr* (',' type pattr*)*] ')' fattr*
//! fn       := 'fn' @name '(' [%v ':' type pattr* (',' ...)*] ')' fattr* '{' region '}'
//! fattr    := 'kernel' | 'divergent_call' | 'noreturn' | 'abi' '(' name ')'
//! pattr    := 'uniform' | 'discardable' | 'return'
//! instr    := [%v (',' %v)* '='] body
//! body     := 'if' op ['->' types] '{' region '}' ['else' '{' region '}']
//!           | 'loop' ['(' %v ':' type '=' op, ... ')'] ['->' types] '{' region '}'
//!           | ('yield' | 'break' | 'continue' | 'ret') [op (',' op)*] | 'unreachable'
//!           | 'call' @f '(' args ')' | 'call_indirect' $sig op '(' args ')' | 'func_addr' @f
//!           | opcode [cond] [type] [dim | size] [op (',' op)*] ['to' type]
//! ```
//!
//! Literals take their type from where they stand (the opcode table, the `if`/`loop` result
//! types, the loop variable, the function's `return` parameters, the callee's parameters).
//! The parser resolves names: values, and functions and signatures to their
//! [`FuncId`]/[`SigId`] (a function may be used before its definition; an unknown name is an
//! error here). Types and structure are checked by the verifier.

use std::collections::HashMap;

use smallvec::SmallVec;

use super::lexer::{lex, Tok};
use crate::diagnostic::Diagnostic;
use crate::ir::instr::{ArgTy, ExtraKind, TyClass};
use crate::ir::{
    Abi, Cond, Extra, FuncAttrs, FuncId, Function, Instr, InstrKind, Module, OpInstr, Opcode,
    Operand, Param, ParamAttrs, Region, SigId, SigParam, Signature, Span, Type, Value, ValueData,
};

/// Deepest nesting of `if`/`loop` blocks the parser accepts; the verifier, printer and
/// interpreter recurse over blocks, so this keeps hostile input from exhausting the stack.
pub const MAX_NESTING: usize = 64;

/// A syntax or name error, with its place in the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub Diagnostic);

/// Parses a module from `.gsir` text.
pub fn parse(source: &str) -> Result<Module, ParseError> {
    let toks = lex(source).map_err(ParseError)?;
    let mut p = Parser {
        toks,
        pos: 0,
        eof: Span::new(source.len()..source.len()),
        values: Vec::new(),
        names: HashMap::new(),
        ctx: Vec::new(),
        ret_types: Vec::new(),
        headers: HashMap::new(),
    };
    p.prescan();
    let module = p.module().map_err(ParseError)?;
    p.check_prescan(&module).map_err(ParseError)?;
    Ok(module)
}

type PResult<T> = Result<T, Diagnostic>;

/// Parameter types of a function or signature and which are `return` parameters, read
/// ahead so calls can type their literal arguments and results before the callee is parsed.
type Header = Vec<(Type, bool)>;

/// What the prescan knows of a name: the index of its first definition among the
/// functions (or signatures) and its header.
type Entry = (u32, Header);

/// Enclosing construct, for the types of literals in `yield`, `break` and `continue`.
enum Ctx {
    If(Vec<Type>),
    Loop {
        params: Vec<Type>,
        results: Vec<Type>,
    },
}

struct Parser<'s> {
    toks: Vec<(Tok<'s>, Span)>,
    pos: usize,
    eof: Span,
    // Per function:
    values: Vec<ValueData>,
    names: HashMap<String, Value>,
    ctx: Vec<Ctx>,
    ret_types: Vec<Type>,
    /// Index and header of the first definition of each `@name` / `$name`.
    headers: HashMap<String, Entry>,
}

impl<'s> Parser<'s> {
    fn peek(&self) -> Option<Tok<'s>> {
        self.toks.get(self.pos).map(|t| t.0)
    }

    fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(self.eof, |t| t.1)
    }

    fn prev_end(&self) -> u32 {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(0, |t| t.1.end)
    }

    fn found(&self) -> String {
        self.peek()
            .map_or("end of file".to_string(), |t| t.describe())
    }

    fn error<T>(&self, expected: &str) -> PResult<T> {
        Err(Diagnostic::new(
            format!("expected {expected}"),
            self.span(),
            format!("found {}", self.found()),
        ))
    }

    fn bump(&mut self) -> Option<Tok<'s>> {
        let t = self.peek();
        self.pos += 1;
        t
    }

    fn eat(&mut self, tok: Tok<'_>) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: Tok<'_>, expected: &str) -> PResult<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            self.error(expected)
        }
    }

    fn eat_ident(&mut self, word: &str) -> bool {
        self.eat(Tok::Ident(word))
    }

    /// Reads `( item, item, ... )`; `open` and `separator` describe the expected `(` and
    /// `,`-or-`)` in error messages.
    fn paren_list<T>(
        &mut self,
        open: &str,
        separator: &str,
        item: impl FnMut(&mut Self, usize) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        self.expect(Tok::LParen, open)?;
        self.list_rest(separator, item)
    }

    /// Reads `item, item, ... )` after an opening `(`; `item` gets the index of the item.
    fn list_rest<T>(
        &mut self,
        separator: &str,
        mut item: impl FnMut(&mut Self, usize) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                items.push(item(self, items.len())?);
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, separator)?;
            }
        }
        Ok(items)
    }

    fn skip_newlines(&mut self) {
        while self.eat(Tok::Newline) {}
    }

    fn end_of_line(&mut self) -> PResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::Newline) => {
                self.pos += 1;
                Ok(())
            }
            Some(Tok::RBrace) => Ok(()),
            _ => self.error("end of line"),
        }
    }

    fn module(&mut self) -> PResult<Module> {
        let mut module = Module::default();
        loop {
            self.skip_newlines();
            match self.peek() {
                None => break,
                Some(Tok::Ident("sig")) => module.sigs.push(self.sig()?),
                Some(Tok::Ident("fn")) => {
                    let f = self.function(module.functions.len())?;
                    module.functions.push(f);
                }
                _ => return self.error("`fn` or `sig`"),
            }
        }
        Ok(module)
    }

    /// Reads the names, indices and parameter lists of every top-level `fn` and `sig` ahead
    /// of the real parse, so that uses can be resolved before definitions. Malformed headers
    /// are skipped here; the real parse reports them.
    fn prescan(&mut self) {
        let mut depth = 0usize;
        let mut i = 0;
        let (mut nfuncs, mut nsigs) = (0u32, 0u32);
        while i < self.toks.len() {
            match self.toks[i].0 {
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth = depth.saturating_sub(1),
                Tok::Ident(kw @ ("fn" | "sig")) if depth == 0 => {
                    let (key, index) = match (kw, self.toks.get(i + 1).map(|t| t.0)) {
                        ("fn", Some(Tok::Func(n))) => {
                            nfuncs += 1;
                            (format!("@{n}"), nfuncs - 1)
                        }
                        ("sig", Some(Tok::Sig(n))) => {
                            nsigs += 1;
                            (format!("${n}"), nsigs - 1)
                        }
                        _ => {
                            i += 1;
                            continue;
                        }
                    };
                    let mut header = Header::new();
                    let mut j = i + 3;
                    while let Some((t, _)) = self.toks.get(j) {
                        match t {
                            Tok::RParen | Tok::LBrace | Tok::Newline => break,
                            Tok::Ident("return") => {
                                if let Some(last) = header.last_mut() {
                                    last.1 = true;
                                }
                            }
                            Tok::Ident(n) => {
                                if let Some(ty) = Type::from_name(n) {
                                    header.push((ty, false));
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    self.headers.entry(key).or_insert((index, header));
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Checks that every id handed out by the prescan names the definition it was meant
    /// for; a mismatch would mean the prescan misread the file's structure.
    fn check_prescan(&self, module: &Module) -> PResult<()> {
        for (key, (index, _)) in &self.headers {
            let (kind, name) = key.split_at(1);
            let found = match kind {
                "@" => module
                    .functions
                    .get(*index as usize)
                    .map(|f| f.name.as_str()),
                _ => module.sigs.get(*index as usize).map(|s| s.name.as_str()),
            };
            if found != Some(name) {
                return Err(Diagnostic::new(
                    format!("could not resolve `{key}`"),
                    self.eof,
                    "the definitions could not be numbered",
                ));
            }
        }
        Ok(())
    }

    /// Resolves `@name` (`kind` `@`) or `$name` (`kind` `$`) at `span`.
    fn resolve(&self, kind: char, name: &str, span: Span, what: &str) -> PResult<&Entry> {
        self.headers.get(&format!("{kind}{name}")).ok_or_else(|| {
            let (thing, label) = if kind == '@' {
                ("function", "no such function")
            } else {
                ("signature", "no such signature")
            };
            let wanted = format!("{kind}{name}");
            let keys = self.headers.keys().filter(|k| k.starts_with(kind));
            let near = crate::diagnostic::nearest(&wanted, keys.map(String::as_str));
            let d = Diagnostic::new(format!("{what} undefined {thing} `{wanted}`"), span, label);
            if near.is_empty() {
                d
            } else {
                d.with_note(format!(
                    "did you mean {}?",
                    crate::diagnostic::quoted_or(&near)
                ))
            }
        })
    }

    fn type_name(&mut self) -> PResult<Type> {
        if let Some(Tok::Ident(name)) = self.peek() {
            if let Some(t) = Type::from_name(name) {
                self.pos += 1;
                return Ok(t);
            }
        }
        self.error("a type (i1, i32, i64, f32, ptr, stack)")
    }

    fn param_attrs(&mut self) -> ParamAttrs {
        let mut a = ParamAttrs::default();
        loop {
            if self.eat_ident("uniform") {
                a.uniform = true;
            } else if self.eat_ident("discardable") {
                a.discardable = true;
            } else if self.eat_ident("return") {
                a.ret = true;
            } else {
                return a;
            }
        }
    }

    fn func_attrs(&mut self) -> PResult<FuncAttrs> {
        let mut a = FuncAttrs::default();
        loop {
            if self.eat_ident("kernel") {
                a.kernel = true;
            } else if self.eat_ident("divergent_call") {
                a.divergent_call = true;
            } else if self.eat_ident("noreturn") {
                a.noreturn = true;
            } else if self.eat_ident("abi") {
                self.expect(Tok::LParen, "`(` after `abi`")?;
                let Some(Tok::Ident(name)) = self.peek() else {
                    return self
                        .error("an ABI name (rt_recursive, traversal, ahit_isec or a user ABI)");
                };
                self.pos += 1;
                a.abi = Some(Abi::from_name(name));
                self.expect(Tok::RParen, "`)` after the ABI name")?;
            } else {
                return Ok(a);
            }
        }
    }

    fn sig(&mut self) -> PResult<Signature> {
        let start = self.span();
        self.pos += 1; // `sig`
        let Some(Tok::Sig(name)) = self.peek() else {
            return self.error("a signature name like `$hit`");
        };
        self.pos += 1;
        let params = self.paren_list(
            "`(` to start the parameter list",
            "`,` or `)` in the parameter list",
            |p, _| {
                let ty = p.type_name()?;
                let attrs = p.param_attrs();
                Ok(SigParam { ty, attrs })
            },
        )?;
        let attrs = self.func_attrs()?;
        let span = Span {
            start: start.start,
            end: self.prev_end(),
        };
        self.end_of_line()?;
        Ok(Signature {
            name: name.to_string(),
            params,
            attrs,
            span,
        })
    }

    fn define(&mut self, name: &str, ty: Type, span: Span) -> PResult<Value> {
        if self.names.contains_key(name) {
            return Err(Diagnostic::new(
                format!("value `%{name}` is defined twice"),
                span,
                "second definition",
            )
            .with_note("SSA values are defined once; pick a new name"));
        }
        let v = Value(self.values.len() as u32);
        self.values.push(ValueData {
            name: name.to_string(),
            ty,
        });
        self.names.insert(name.to_string(), v);
        Ok(v)
    }

    fn function(&mut self, index: usize) -> PResult<Function> {
        let start = self.span();
        self.pos += 1; // `fn`
        let Some(Tok::Func(name)) = self.peek() else {
            return self.error("a function name like `@main`");
        };
        self.pos += 1;
        self.values.clear();
        self.names.clear();
        self.ctx.clear();
        let params = self.paren_list(
            "`(` to start the parameter list",
            "`,` or `)` in the parameter list",
            |p, _| {
                let Some(Tok::Value(pname)) = p.peek() else {
                    return p.error("a parameter like `%x: i32`");
                };
                let pspan = p.span();
                p.pos += 1;
                p.expect(Tok::Colon, "`:` and the parameter type")?;
                let ty = p.type_name()?;
                let value = p.define(pname, ty, pspan)?;
                let attrs = p.param_attrs();
                Ok(Param { value, attrs })
            },
        )?;
        let attrs = self.func_attrs()?;
        let span = Span {
            start: start.start,
            end: self.prev_end(),
        };
        self.ret_types = params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| self.values[p.value.index()].ty)
            .collect();
        self.expect(Tok::LBrace, "`{` to start the function body")?;
        let body = self.region(index)?;
        self.end_of_line()?;
        Ok(Function {
            name: name.to_string(),
            params,
            attrs,
            values: std::mem::take(&mut self.values),
            body,
            span,
        })
    }

    /// Reads instructions up to and including the closing `}`.
    fn region(&mut self, fi: usize) -> PResult<Region> {
        if self.ctx.len() > MAX_NESTING {
            return Err(Diagnostic::new(
                format!("blocks nested more than {MAX_NESTING} deep"),
                self.span(),
                "too deep",
            ));
        }
        let mut instrs = Vec::new();
        loop {
            self.skip_newlines();
            match self.peek() {
                Some(Tok::RBrace) => {
                    self.pos += 1;
                    return Ok(Region { instrs });
                }
                None => return self.error("`}` to close the block"),
                _ => {
                    instrs.push(self.instr(fi)?);
                    self.end_of_line()?;
                }
            }
        }
    }

    fn instr(&mut self, fi: usize) -> PResult<Instr> {
        let start = self.span();
        let mut result_names: Vec<(&'s str, Span)> = Vec::new();
        if let Some(Tok::Value(_)) = self.peek() {
            loop {
                let Some(Tok::Value(n)) = self.peek() else {
                    return self.error("a result name like `%x`");
                };
                result_names.push((n, self.span()));
                self.pos += 1;
                if self.eat(Tok::Eq) {
                    break;
                }
                self.expect(Tok::Comma, "`,` or `=` after a result name")?;
            }
        }
        let Some(Tok::Ident(word)) = self.peek() else {
            return self.error("an instruction");
        };
        let word_span = self.span();
        self.pos += 1;
        let header_end = |p: &Parser| Span {
            start: start.start,
            end: p.prev_end(),
        };
        let results_of = |p: &mut Parser, types: &[Type]| -> PResult<SmallVec<[Value; 2]>> {
            if types.len() != result_names.len() {
                return Err(Diagnostic::new(
                    format!(
                        "`{word}` gives {} result(s) but {} name(s) are written",
                        types.len(),
                        result_names.len()
                    ),
                    Span {
                        start: start.start,
                        end: word_span.end,
                    },
                    "result count mismatch",
                ));
            }
            result_names
                .iter()
                .zip(types)
                .map(|((n, s), t)| p.define(n, *t, *s))
                .collect()
        };
        let kind;
        let results;
        match word {
            "if" => {
                let cond = self.operand(Some(Type::I1))?;
                let types = self.result_types()?;
                let span = header_end(self);
                self.expect(Tok::LBrace, "`{` after the `if` condition")?;
                self.ctx.push(Ctx::If(types.clone()));
                let then_region = self.region(fi)?;
                let else_region = if self.eat_ident("else") {
                    self.expect(Tok::LBrace, "`{` after `else`")?;
                    self.region(fi)?
                } else {
                    Region::default()
                };
                self.ctx.pop();
                let results = results_of(self, &types)?;
                return Ok(Instr {
                    results,
                    kind: InstrKind::If {
                        cond,
                        then_region,
                        else_region,
                    },
                    span,
                });
            }
            "loop" => {
                // The variable list is optional: `loop {` has none.
                let mut vars = Vec::new();
                if self.eat(Tok::LParen) {
                    vars = self.list_rest("`,` or `)` after a loop variable", |p, _| {
                        let Some(Tok::Value(n)) = p.peek() else {
                            return p.error("a loop variable like `%i: i32 = 0`");
                        };
                        let vspan = p.span();
                        p.pos += 1;
                        p.expect(Tok::Colon, "`:` and the loop variable's type")?;
                        let ty = p.type_name()?;
                        p.expect(Tok::Eq, "`=` and the loop variable's initial value")?;
                        let init = p.operand(Some(ty))?;
                        Ok((n, vspan, ty, init))
                    })?;
                }
                let types = self.result_types()?;
                let span = header_end(self);
                self.expect(Tok::LBrace, "`{` to start the loop body")?;
                let mut params = Vec::new();
                let mut init = Vec::new();
                for (n, s, t, i) in &vars {
                    params.push(self.define(n, *t, *s)?);
                    init.push(*i);
                }
                self.ctx.push(Ctx::Loop {
                    params: vars.iter().map(|v| v.2).collect(),
                    results: types.clone(),
                });
                let body = self.region(fi)?;
                self.ctx.pop();
                let results = results_of(self, &types)?;
                return Ok(Instr {
                    results,
                    kind: InstrKind::Loop { params, init, body },
                    span,
                });
            }
            "yield" | "break" | "continue" | "ret" => {
                let types: Vec<Type> = match word {
                    "yield" => self.ctx.iter().rev().find_map(|c| match c {
                        Ctx::If(t) => Some(t.clone()),
                        _ => None,
                    }),
                    "break" => self.ctx.iter().rev().find_map(|c| match c {
                        Ctx::Loop { results, .. } => Some(results.clone()),
                        _ => None,
                    }),
                    "continue" => self.ctx.iter().rev().find_map(|c| match c {
                        Ctx::Loop { params, .. } => Some(params.clone()),
                        _ => None,
                    }),
                    _ => Some(self.ret_types.clone()),
                }
                .unwrap_or_default();
                let ops = self.operand_list(&types)?;
                results = results_of(self, &[])?;
                kind = match word {
                    "yield" => InstrKind::Yield(ops),
                    "break" => InstrKind::Break(ops),
                    "continue" => InstrKind::Continue(ops),
                    _ => InstrKind::Ret(ops),
                };
            }
            "unreachable" => {
                results = results_of(self, &[])?;
                kind = InstrKind::Unreachable;
            }
            "func_addr" => {
                let Some(Tok::Func(f)) = self.peek() else {
                    return self.error("a function name like `@f`");
                };
                let func = FuncId(self.resolve('@', f, self.span(), "`func_addr` of")?.0);
                self.pos += 1;
                results = results_of(self, &[Type::Ptr])?;
                kind = InstrKind::FuncAddr { func };
            }
            "call" | "call_indirect" => {
                let (index, header, callee_op) = if word == "call" {
                    let Some(Tok::Func(f)) = self.peek() else {
                        return self.error("a function name like `@f`");
                    };
                    let (index, header) = self.resolve('@', f, self.span(), "call to")?.clone();
                    self.pos += 1;
                    (index, header, None)
                } else {
                    let Some(Tok::Sig(s)) = self.peek() else {
                        return self.error(
                            "a signature name like `$hit` (indirect calls name their signature)",
                        );
                    };
                    let (index, header) = self
                        .resolve('$', s, self.span(), "indirect call names")?
                        .clone();
                    self.pos += 1;
                    (index, header, Some(self.operand(Some(Type::Ptr))?))
                };
                let args = self.paren_list(
                    "`(` to start the arguments",
                    "`,` or `)` in the argument list",
                    |p, i| p.operand(header.get(i).map(|param| param.0)),
                )?;
                let types: Vec<Type> = header.iter().filter(|p| p.1).map(|p| p.0).collect();
                results = results_of(self, &types)?;
                kind = match callee_op {
                    None => InstrKind::Call {
                        callee: FuncId(index),
                        args,
                    },
                    Some(callee) => InstrKind::CallIndirect {
                        sig: SigId(index),
                        callee,
                        args,
                    },
                };
            }
            _ => {
                let Some(opcode) = Opcode::from_name(word) else {
                    let words = ["if", "loop", "yield", "break", "continue", "ret", "call"];
                    let names = Opcode::ALL.iter().map(|o| o.name());
                    let near = crate::diagnostic::nearest(word, names.chain(words));
                    let d = Diagnostic::new(
                        format!("unknown instruction `{word}`"),
                        word_span,
                        "not an instruction",
                    );
                    return Err(if near.is_empty() {
                        d
                    } else {
                        d.with_note(format!(
                            "did you mean {}?",
                            crate::diagnostic::quoted_or(&near)
                        ))
                    });
                };
                let op = self.op_instr(opcode)?;
                let ty = opcode.result_type(op.ty, op.extra);
                results = results_of(self, ty.as_slice())?;
                kind = InstrKind::Op(op);
            }
        }
        Ok(Instr {
            results,
            kind,
            span: header_end(self),
        })
    }

    fn result_types(&mut self) -> PResult<Vec<Type>> {
        let mut types = Vec::new();
        if self.eat(Tok::Arrow) {
            loop {
                types.push(self.type_name()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(types)
    }

    fn op_instr(&mut self, opcode: Opcode) -> PResult<OpInstr> {
        let info = opcode.info();
        let mut extra = Extra::None;
        if matches!(info.extra, ExtraKind::IntCond | ExtraKind::FloatCond) {
            let want_int = info.extra == ExtraKind::IntCond;
            let cond = match self.peek() {
                Some(Tok::Ident(n)) => Cond::from_name(n).filter(|c| c.is_int() == want_int),
                _ => None,
            };
            let Some(cond) = cond else {
                return self.error(if want_int {
                    "an integer condition (eq ne ult ule ugt uge slt sle sgt sge)"
                } else {
                    "a float condition (oeq une olt ole ogt oge ord uno)"
                });
            };
            self.pos += 1;
            extra = Extra::Cond(cond);
        }
        let ty = if info.ty == TyClass::None {
            None
        } else {
            Some(self.type_name()?)
        };
        if matches!(info.extra, ExtraKind::Dim | ExtraKind::Size) {
            let what = if info.extra == ExtraKind::Dim {
                "a dimension 0, 1 or 2"
            } else {
                "a size in bytes"
            };
            let Some(Tok::Int(s)) = self.peek() else {
                return self.error(what);
            };
            let Some(n) = parse_uint(s).and_then(|n| u32::try_from(n).ok()) else {
                return self.error(what);
            };
            self.pos += 1;
            extra = Extra::Imm(n);
        }
        let mut args = SmallVec::new();
        for (i, a) in info.args.iter().enumerate() {
            if i > 0 {
                self.expect(
                    Tok::Comma,
                    &format!("`,` and operand {} of `{}`", i + 1, info.name),
                )?;
            }
            let expected = match a {
                ArgTy::T => ty,
                ArgTy::Is(t) => Some(*t),
                ArgTy::AnyInt => Some(Type::I64),
            };
            args.push(self.operand(expected)?);
        }
        if info.extra == ExtraKind::To {
            if !self.eat_ident("to") {
                return self.error("`to` and the target type");
            }
            extra = Extra::To(self.type_name()?);
        }
        Ok(OpInstr {
            opcode,
            ty,
            extra,
            args,
        })
    }

    fn operand_list(&mut self, types: &[Type]) -> PResult<Vec<Operand>> {
        let mut ops = Vec::new();
        if matches!(self.peek(), None | Some(Tok::Newline) | Some(Tok::RBrace)) {
            return Ok(ops);
        }
        loop {
            let expected = types.get(ops.len()).copied();
            ops.push(self.operand(expected)?);
            if !self.eat(Tok::Comma) {
                return Ok(ops);
            }
        }
    }

    /// An operand; a literal needs `expected` to know its type.
    fn operand(&mut self, expected: Option<Type>) -> PResult<Operand> {
        let span = self.span();
        match self.peek() {
            Some(Tok::Value(n)) => {
                let Some(v) = self.names.get(n) else {
                    return Err(Diagnostic::new(
                        format!("undefined value `%{n}`"),
                        span,
                        "not defined before this point",
                    ));
                };
                self.pos += 1;
                Ok(Operand::Value(*v))
            }
            Some(Tok::Int(_) | Tok::Float(_) | Tok::Ident("true" | "false")) => {
                let Some(ty) = expected else {
                    return Err(Diagnostic::new(
                        "a literal cannot stand here",
                        span,
                        "write a value defined with `const`",
                    )
                    .with_note("literals need a known type: surplus operands must be values"));
                };
                let tok = self.bump().unwrap_or(Tok::Newline);
                match literal(tok, ty) {
                    Some(bits) => Ok(Operand::Imm { ty, bits }),
                    None => Err(Diagnostic::new(
                        format!("invalid {ty} literal {}", tok.describe()),
                        span,
                        format!("expected {}", literal_hint(ty)),
                    )),
                }
            }
            _ => self.error("an operand (a `%value` or a literal)"),
        }
    }
}

fn literal_hint(ty: Type) -> &'static str {
    match ty {
        Type::I1 => "`true`, `false`, `0` or `1`",
        Type::I32 => "an integer from -2147483648 to 4294967295",
        Type::I64 | Type::Ptr => "a 64-bit integer",
        Type::F32 => "a decimal number, or 0x... for the raw bits",
        Type::Stack => "no literal: stack arrays come from `alloca`",
    }
}

fn parse_uint(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Bits of an integer literal of `width` bits: decimal from the signed minimum to the
/// unsigned maximum, hex up to the width; a leading `-` negates.
fn int_literal(s: &str, width: u32) -> Option<u64> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let mag = parse_uint(digits)?;
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    if neg {
        let limit = 1u64 << (width - 1);
        (mag <= limit).then(|| mag.wrapping_neg() & mask)
    } else {
        (mag <= mask).then_some(mag)
    }
}

fn literal(tok: Tok<'_>, ty: Type) -> Option<u64> {
    match (ty, tok) {
        (Type::I1, Tok::Ident("true")) => Some(1),
        (Type::I1, Tok::Ident("false")) => Some(0),
        (Type::I1, Tok::Int("0")) => Some(0),
        (Type::I1, Tok::Int("1")) => Some(1),
        (Type::I32, Tok::Int(s)) => int_literal(s, 32),
        (Type::I64 | Type::Ptr, Tok::Int(s)) => int_literal(s, 64),
        (Type::F32, Tok::Int(s)) if s.contains(['x', 'X']) => {
            int_literal(s, 32).filter(|_| !s.starts_with('-'))
        }
        (Type::F32, Tok::Int(s) | Tok::Float(s)) => {
            s.parse::<f32>().ok().map(|f| u64::from(f.to_bits()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(literal(Tok::Int("-1"), Type::I32), Some(0xffff_ffff));
        assert_eq!(
            literal(Tok::Int("4294967295"), Type::I32),
            Some(0xffff_ffff)
        );
        assert_eq!(literal(Tok::Int("4294967296"), Type::I32), None);
        assert_eq!(literal(Tok::Int("-2147483649"), Type::I32), None);
        assert_eq!(literal(Tok::Float("1.5"), Type::F32), Some(0x3fc0_0000));
        assert_eq!(literal(Tok::Int("2"), Type::F32), Some(0x4000_0000));
        assert_eq!(
            literal(Tok::Int("0x7fc00001"), Type::F32),
            Some(0x7fc0_0001)
        );
        assert_eq!(
            literal(Tok::Int("-0x8000000000000000"), Type::I64),
            Some(1 << 63)
        );
    }
}
