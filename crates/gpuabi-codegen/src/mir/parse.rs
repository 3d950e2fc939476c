//! Reads the text [`super::print_function`] prints back into functions: the round trip
//! print → parse → print gives the same text. Lines whose first non-blank character is
//! `;` are comments, and blank lines are skipped; everything else is exactly the printed
//! form. Errors name the line and column.

use gpuabi_amdgpu::{Expr, Imm, MemMods, Opcode, Operand, Reloc, Special, Target, Waitcnt};
use gpuabi_layout::aco::{
    Abi, Assignment, Demand, Location, ParamKind, ParamLayout, RegisterBlock,
};
use gpuabi_layout::llvm::LlvmAbi;
use gpuabi_layout::reg::{RegClass, RegFile, RegRange, RegSet};
use smallvec::SmallVec;

use super::print::{kind_name, mod_flag, COST_NAMES, MOD_FLAGS, PSEUDO_NAMES};
use super::{
    AbiCost, Block, BlockId, BlockKind, Blocks, Function, MInst, MOp, Opnd, Origin, Slice, Temp,
    TempInfo,
};
use crate::call_abi::{CallSite, CalleeFrame, Convention};

/// Machine IR text that does not parse: where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ParseError {
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// One word of a line and its column.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    column: usize,
}

/// The words of one line, read in order.
struct Words<'a> {
    line: usize,
    words: Vec<Word<'a>>,
    next: usize,
    /// The column just past the line's end, for errors at the end.
    end: usize,
}

impl<'a> Words<'a> {
    fn new(line: usize, text: &'a str, first_column: usize) -> Words<'a> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices() {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    words.push(Word {
                        text: &text[s..i],
                        column: first_column + text[..s].chars().count(),
                    });
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            words.push(Word {
                text: &text[s..],
                column: first_column + text[..s].chars().count(),
            });
        }
        Words {
            line,
            words,
            next: 0,
            end: first_column + text.chars().count(),
        }
    }

    fn error(&self, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<Word<'a>> {
        self.words.get(self.next).copied()
    }

    fn word(&mut self, what: &str) -> Result<Word<'a>, ParseError> {
        let w = self
            .peek()
            .ok_or_else(|| self.error(self.end, format!("expected {what}")))?;
        self.next += 1;
        Ok(w)
    }

    fn keyword(&mut self, k: &str) -> Result<(), ParseError> {
        let w = self.word(&format!("`{k}`"))?;
        if w.text != k {
            return Err(self.error(w.column, format!("expected `{k}`, found `{}`", w.text)));
        }
        Ok(())
    }

    /// Consumes the next word if it is `k`.
    fn flag(&mut self, k: &str) -> bool {
        if self.peek().is_some_and(|w| w.text == k) {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        let w = self.word(what)?;
        w.text
            .parse()
            .map_err(|_| self.error(w.column, format!("expected {what}, found `{}`", w.text)))
    }

    fn reg_range(&mut self, what: &str) -> Result<RegRange, ParseError> {
        let w = self.word(what)?;
        w.text
            .parse()
            .map_err(|e: gpuabi_layout::reg::RegParseError| {
                self.error(w.column, format!("expected {what}: {e}"))
            })
    }

    fn done(&self) -> Result<(), ParseError> {
        match self.peek() {
            Some(w) => Err(self.error(w.column, format!("unexpected `{}`", w.text))),
            None => Ok(()),
        }
    }
}

/// Which convention the `param` lines that follow belong to.
enum Last {
    None,
    Callee,
    Call,
}

/// Reads the functions of `text`, with the mnemonics of `target`.
pub fn parse_functions(text: &str, target: Target) -> Result<Vec<Function>, ParseError> {
    let mut out: Vec<Function> = Vec::new();
    let mut last = Last::None;
    let mut assigned = false;
    let finish = |f: &mut Function, assigned: bool| {
        if assigned {
            f.regs.resize(f.temps.len(), None);
        }
    };
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        let indent = raw.len() - trimmed.len();
        let col = indent + 1;
        let mut w = Words::new(line, trimmed, col);
        if let Some(name) = trimmed.strip_prefix("function ") {
            if let Some(f) = out.last_mut() {
                finish(f, assigned);
            }
            let name = name.trim();
            let Some(name) = name.strip_prefix('@').filter(|n| !n.is_empty()) else {
                return Err(w.error(col + 9, "expected `@NAME` after `function`"));
            };
            let mut f = Function::new(name);
            f.blocks.clear();
            out.push(f);
            last = Last::None;
            assigned = false;
            continue;
        }
        let Some(f) = out.last_mut() else {
            return Err(w.error(col, "expected `function @NAME` first"));
        };
        if trimmed.starts_with("BB") && !raw.starts_with(' ') {
            block_header(&mut w, f)?;
            continue;
        }
        if f.blocks.is_empty() {
            let key = w.word("a header line")?;
            match key.text {
                "stack_bytes" => f.stack_bytes = w.number("a byte count")?,
                "stack_pointer_slot" => f.stack_pointer_slot = Some(w.number("a lane")?),
                "stack_pointer_reg" => f.stack_pointer_reg = Some(w.reg_range("a register")?),
                "spill_slots" => {
                    w.keyword("vgpr_bytes")?;
                    f.spill_slots.vgpr_bytes = w.number("a byte count")?;
                    w.keyword("sgpr_dwords")?;
                    f.spill_slots.sgpr_dwords = w.number("a dword count")?;
                    w.keyword("reserved")?;
                    f.spill_slots.reserved = w.number("a VGPR count")?;
                }
                "temp" => assigned |= temp_decl(&mut w, f)?,
                "callee" => {
                    let conv = convention(&mut w)?;
                    f.callee = Some(CalleeFrame { conv });
                    last = Last::Callee;
                }
                "call" => {
                    let k: usize = w.number("the call's index")?;
                    if k != f.calls.len() {
                        return Err(w.error(key.column, format!("expected call {}", f.calls.len())));
                    }
                    w.keyword("to")?;
                    let callee = w.word("the callee")?.text.to_string();
                    w.keyword("origin")?;
                    let o = w.word("`START..END`")?;
                    let origin =
                        span(o.text).ok_or_else(|| w.error(o.column, "expected `START..END`"))?;
                    let conv = convention(&mut w)?;
                    f.calls.push(CallSite {
                        callee,
                        conv,
                        origin,
                    });
                    last = Last::Call;
                }
                "param" => {
                    let conv = match last {
                        Last::Callee => f.callee.as_mut().map(|c| &mut c.conv),
                        Last::Call => f.calls.last_mut().map(|c| &mut c.conv),
                        Last::None => None,
                    };
                    let Some(conv) = conv else {
                        return Err(w.error(key.column, "`param` outside a `callee` or `call`"));
                    };
                    conv.assignment.params.push(param(&mut w)?);
                    continue;
                }
                other => {
                    return Err(w.error(
                        key.column,
                        format!(
                            "expected a header line (stack_bytes, \
                             stack_pointer_slot, stack_pointer_reg, spill_slots, temp, callee, \
                             call, param) or a block `BBn:`, found `{other}`"
                        ),
                    ))
                }
            }
            w.done()?;
            continue;
        }
        let inst = instruction(trimmed, col, line, f, target)?;
        f.blocks.last_mut().expect("a block").insts.push(inst);
    }
    if let Some(f) = out.last_mut() {
        finish(f, assigned);
    }
    Ok(out)
}

/// Reads the one function of `text`.
pub fn parse_function(text: &str, target: Target) -> Result<Function, ParseError> {
    let mut fs = parse_functions(text, target)?;
    match fs.len() {
        1 => Ok(fs.remove(0)),
        n => Err(ParseError {
            line: 1,
            column: 1,
            message: format!("expected one function, found {n}"),
        }),
    }
}

fn span(text: &str) -> Option<Origin> {
    let (a, b) = text.split_once("..")?;
    Some(Origin {
        start: a.parse().ok()?,
        end: b.parse().ok()?,
    })
}

fn file_of(letter: char) -> Option<RegFile> {
    match letter {
        's' => Some(RegFile::Sgpr),
        'v' => Some(RegFile::Vgpr),
        _ => None,
    }
}

/// `temp %sN dwords D align A [no_spill] [stack_pointer] [reg R]`; whether it has a register.
fn temp_decl(w: &mut Words<'_>, f: &mut Function) -> Result<bool, ParseError> {
    let name = w.word("a temp")?;
    let expected = f.temps.len();
    let file = name
        .text
        .strip_prefix('%')
        .and_then(|r| {
            let mut c = r.chars();
            let file = file_of(c.next()?)?;
            (c.as_str().parse::<usize>().ok()? == expected).then_some(file)
        })
        .ok_or_else(|| {
            w.error(
                name.column,
                format!("expected temp %s{expected} or %v{expected}"),
            )
        })?;
    w.keyword("dwords")?;
    let dwords: u8 = w.number("a dword count")?;
    w.keyword("align")?;
    let align: u8 = w.number("an alignment")?;
    if dwords == 0 || dwords > 16 || !matches!(align, 1 | 2 | 4) {
        return Err(w.error(
            name.column,
            "expected 1 to 16 dwords and alignment 1, 2 or 4",
        ));
    }
    let no_spill = w.flag("no_spill");
    if w.flag("stack_pointer") {
        f.stack_pointer = Some(Temp(expected as u32));
    }
    f.temps.push(TempInfo {
        file,
        dwords,
        align,
        no_spill,
    });
    if w.flag("reg") {
        let r = w.reg_range("the temp's registers")?;
        if r.file() != file || r.count != u16::from(dwords) {
            return Err(w.error(
                name.column,
                format!("the registers {r} are not {dwords} of the temp's file"),
            ));
        }
        f.regs.resize(f.temps.len(), None);
        f.regs[expected] = Some(r.first.num);
        return Ok(true);
    }
    Ok(false)
}

fn demand(w: &mut Words<'_>) -> Result<Demand, ParseError> {
    Ok(Demand::new(w.number("SGPRs")?, w.number("VGPRs")?))
}

/// The words of a convention after `callee` or `call K to NAME origin A..B`.
fn convention(w: &mut Words<'_>) -> Result<Convention, ParseError> {
    w.keyword("abi")?;
    let name = w.word("the ABI's name")?.text.to_string();
    w.keyword("clobbered")?;
    let clobbered = demand(w)?;
    w.keyword("preserved")?;
    let preserved = demand(w)?;
    let clobbered_first = w.flag("clobbered_first");
    let max_param_demand = if w.flag("max_params") {
        Some(demand(w)?)
    } else {
        None
    };
    w.keyword("scratch_params")?;
    let scratch_param_size = w.number("a byte count")?;
    w.keyword("reg_params")?;
    let reg_param_count = w.number("a count")?;
    w.keyword("reg_discardable")?;
    let reg_discardable_param_count = w.number("a count")?;
    w.keyword("demand")?;
    let dem = demand(w)?;
    let divergent_call = w.flag("divergent");
    let noreturn = w.flag("noreturn");
    let llvm = if w.flag("llvm") {
        let word = w.word("an LLVM convention's name")?;
        Some(LlvmAbi::from_name(word.text).ok_or_else(|| {
            w.error(
                word.column,
                format!("`{}` is not one of LLVM's conventions", word.text),
            )
        })?)
    } else {
        None
    };
    let mut returns = Vec::new();
    if w.flag("returns") {
        let count = w.number("a count")?;
        for _ in 0..count {
            returns.push(if w.flag("-") {
                None
            } else {
                Some(w.reg_range("a register range or -")?)
            });
        }
    }
    w.keyword("preserved_regs")?;
    let mut set = RegSet::new();
    if !w.flag("-") {
        while w.peek().is_some() {
            set.insert_range(w.reg_range("a register range")?);
        }
    }
    w.done()?;
    Ok(Convention {
        llvm,
        returns,
        abi: Abi {
            name,
            block: RegisterBlock {
                clobbered,
                preserved,
                clobbered_first,
            },
            max_param_demand,
        },
        assignment: Assignment {
            params: Vec::new(),
            scratch_param_size,
            reg_param_count,
            reg_discardable_param_count,
            demand: dem,
            warnings: Vec::new(),
        },
        preserved: set,
        divergent_call,
        noreturn,
    })
}

/// `param NAME KIND CLASS LOCATION [explicit] [discardable] [return]`.
fn param(w: &mut Words<'_>) -> Result<ParamLayout, ParseError> {
    let name = w.word("the parameter's name")?.text.to_string();
    let k = w.word("system, radv or user")?;
    let kind = [ParamKind::System, ParamKind::Radv, ParamKind::User]
        .into_iter()
        .find(|p| kind_name(*p) == k.text)
        .ok_or_else(|| w.error(k.column, "expected system, radv or user"))?;
    let c = w.word("a register class")?;
    let class = {
        let mut ch = c.text.chars();
        let file = ch.next().and_then(file_of);
        let dwords = ch.as_str().parse::<u16>().ok();
        match (file, dwords) {
            (Some(file), Some(dwords)) => RegClass { file, dwords },
            _ => return Err(w.error(c.column, "expected a register class (`s2`, `v1`)")),
        }
    };
    let l = w.word("a location")?;
    let location =
        match l.text.strip_prefix("scratch+") {
            Some(off) => Location::Scratch {
                offset: off
                    .parse()
                    .map_err(|_| w.error(l.column, "expected `scratch+OFFSET`"))?,
            },
            None => Location::Reg(l.text.parse().map_err(
                |e: gpuabi_layout::reg::RegParseError| {
                    w.error(l.column, format!("expected a register range: {e}"))
                },
            )?),
        };
    let needs_explicit_preservation = w.flag("explicit");
    let discardable = w.flag("discardable");
    let is_return = w.flag("return");
    w.done()?;
    Ok(ParamLayout {
        name,
        kind,
        class,
        location,
        needs_explicit_preservation,
        discardable,
        is_return,
    })
}

fn block_list(w: &mut Words<'_>, last: bool) -> Result<Blocks, ParseError> {
    let mut out = Blocks::new();
    loop {
        let b = w.word("a block or `-`")?;
        let (text, end) = match b.text.strip_suffix(';') {
            Some(t) => (t, true),
            None => (b.text, false),
        };
        if text == "-" {
        } else if let Some(n) = text.strip_prefix("BB").and_then(|n| n.parse::<u32>().ok()) {
            out.push(BlockId(n));
        } else {
            return Err(w.error(b.column, format!("expected a block `BBn`, found `{text}`")));
        }
        if end && !last {
            return Ok(out);
        }
        if w.peek().is_none() && last {
            return Ok(out);
        }
        if end {
            return Err(w.error(b.column, "unexpected `;`"));
        }
    }
}

/// `BBn: kind K...; logical preds ...; logical succs ...; linear preds ...; linear succs ...`
fn block_header(w: &mut Words<'_>, f: &mut Function) -> Result<(), ParseError> {
    let id = w.word("a block")?;
    let expected = format!("BB{}:", f.blocks.len());
    if id.text != expected {
        return Err(w.error(id.column, format!("expected `{expected}`")));
    }
    w.keyword("kind")?;
    let mut kind = BlockKind::default();
    loop {
        let k = w.word("a block kind")?;
        let (text, end) = match k.text.strip_suffix(';') {
            Some(t) => (t, true),
            None => (k.text, false),
        };
        if text != "-" {
            let bit = BlockKind::NAMES
                .iter()
                .position(|n| *n == text)
                .ok_or_else(|| {
                    w.error(
                        k.column,
                        format!(
                            "expected a block kind ({}), found `{text}`",
                            BlockKind::NAMES.join(", ")
                        ),
                    )
                })?;
            kind |= BlockKind(1 << bit);
        }
        if end {
            break;
        }
    }
    let mut lists: [Blocks; 4] = Default::default();
    for (i, (a, b)) in [
        ("logical", "preds"),
        ("logical", "succs"),
        ("linear", "preds"),
        ("linear", "succs"),
    ]
    .into_iter()
    .enumerate()
    {
        w.keyword(a)?;
        w.keyword(b)?;
        lists[i] = block_list(w, i == 3)?;
    }
    w.done()?;
    let [logical_preds, logical_succs, linear_preds, linear_succs] = lists;
    f.blocks.push(Block {
        insts: Vec::new(),
        kind,
        logical_preds,
        logical_succs,
        linear_preds,
        linear_succs,
    });
    Ok(())
}

/// Splits the operand list at the commas outside brackets and parentheses; each operand
/// with the column of its first character.
fn split_operands(text: &str, first_column: usize) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let piece = |s: usize, e: usize| {
        let p = &text[s..e];
        let lead = p.len() - p.trim_start().len();
        (p.trim(), first_column + text[..s + lead].chars().count())
    };
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(piece(start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(piece(start, text.len()));
    out
}

fn instruction(
    text: &str,
    col: usize,
    line: usize,
    f: &Function,
    target: Target,
) -> Result<MInst, ParseError> {
    let err = |column: usize, message: String| ParseError {
        line,
        column,
        message,
    };
    // `:: NAME ...`: the Y half of a VOPD pair with the instruction before it.
    let (text, col, dual_y) = match text.strip_prefix(":: ") {
        Some(rest) => (rest, col + 3, true),
        None => (text, col, false),
    };
    let (body, attrs) = match text.split_once(" | ") {
        Some((b, a)) => (b, Some(a)),
        None => (text, None),
    };
    let (name, rest) = match body.split_once(' ') {
        Some((n, r)) => (n, r),
        None => (body, ""),
    };
    let op = match PSEUDO_NAMES.iter().find(|(_, n)| *n == name) {
        Some(_) if dual_y => {
            return Err(err(
                col,
                format!("`{name}` is a pseudo-instruction: a VOPD half is a hardware one"),
            ))
        }
        Some((p, _)) => MOp::Pseudo(*p),
        None => MOp::Hw(Opcode::from_name(target, name).ok_or_else(|| {
            err(
                col,
                format!(
                    "expected an instruction: `{name}` is no {} mnemonic nor a pseudo-instruction",
                    target.name()
                ),
            )
        })?),
    };
    let op = match op {
        MOp::Hw(o) if dual_y => MOp::DualY(o),
        other => other,
    };
    let mut opnds: SmallVec<[Opnd; 4]> = SmallVec::new();
    if !rest.trim().is_empty() {
        let first = col + name.chars().count() + 1;
        for (o, c) in split_operands(rest, first) {
            opnds.push(operand(o, c, line, f, target)?);
        }
    }
    let mut inst = MInst {
        op,
        opnds,
        mods: MemMods::default(),
        e64: false,
        cost: AbiCost::None,
        origin: Origin::default(),
    };
    if let Some(attrs) = attrs {
        let start = col + body.chars().count() + 3;
        let mut w = Words::new(line, attrs, start);
        while let Some(a) = w.peek() {
            w.next += 1;
            let bad = || {
                err(
                    a.column,
                    format!(
                        "expected a modifier ({}, offset:N, offset0:N, offset1:N, dmask:N, \
                         format:N), `e64`, `cost:KIND` or `@START..END`, found `{}`",
                        MOD_FLAGS.join(", "),
                        a.text
                    ),
                )
            };
            if let Some(flag) = mod_flag(&mut inst.mods, a.text) {
                *flag = true;
            } else if a.text == "e64" {
                inst.e64 = true;
            } else if let Some(o) = a.text.strip_prefix('@') {
                inst.origin = span(o).ok_or_else(bad)?;
            } else if let Some(c) = a.text.strip_prefix("cost:") {
                inst.cost = COST_NAMES
                    .iter()
                    .find(|(_, n)| *n == c)
                    .map(|(k, _)| *k)
                    .ok_or_else(bad)?;
            } else if let Some((k, v)) = a.text.split_once(':') {
                let m = &mut inst.mods;
                let ok = match k {
                    "offset" => v.parse().map(|v| m.offset = v).is_ok(),
                    "offset0" => v.parse().map(|v| m.offset0 = v).is_ok(),
                    "offset1" => v.parse().map(|v| m.offset1 = v).is_ok(),
                    "dmask" => v.parse().map(|v| m.dmask = v).is_ok(),
                    "format" => v.parse().map(|v| m.format = Some(v)).is_ok(),
                    _ => false,
                };
                if !ok {
                    return Err(bad());
                }
            } else {
                return Err(bad());
            }
        }
    }
    Ok(inst)
}

/// `%sN`, `%vN`, `%sN[k]`, `%sN[a:b]`.
fn temp_slice(f: &Function, text: &str, column: usize, line: usize) -> Result<Slice, ParseError> {
    let err = |m: String| ParseError {
        line,
        column,
        message: m,
    };
    let body = text
        .strip_prefix('%')
        .ok_or_else(|| err(format!("expected a temp, found `{text}`")))?;
    let mut chars = body.chars();
    let file = chars
        .next()
        .and_then(file_of)
        .ok_or_else(|| err(format!("expected `%s` or `%v`, found `{text}`")))?;
    let rest = chars.as_str();
    let (num, slice) = match rest.split_once('[') {
        Some((n, s)) => (
            n,
            Some(
                s.strip_suffix(']')
                    .ok_or_else(|| err(format!("expected `]` in `{text}`")))?,
            ),
        ),
        None => (rest, None),
    };
    let t: u32 = num
        .parse()
        .map_err(|_| err(format!("expected a temp number in `{text}`")))?;
    let info = f
        .temps
        .get(t as usize)
        .ok_or_else(|| err(format!("temp {t} is not declared")))?;
    if info.file != file {
        return Err(err(format!("temp {t} is not in the file `{text}` names")));
    }
    let (offset, dwords) = match slice {
        None => (0, info.dwords),
        Some(s) => {
            let num = |x: &str| {
                x.parse::<u8>()
                    .map_err(|_| err(format!("expected a dword index in `{text}`")))
            };
            match s.split_once(':') {
                Some((a, b)) => {
                    let (a, b) = (num(a)?, num(b)?);
                    if b < a {
                        return Err(err(format!("empty slice in `{text}`")));
                    }
                    (a, b - a + 1)
                }
                None => (num(s)?, 1),
            }
        }
    };
    if u16::from(offset) + u16::from(dwords) > u16::from(info.dwords) {
        return Err(err(format!(
            "`{text}` is beyond the {} dwords of temp {t}",
            info.dwords
        )));
    }
    Ok(Slice {
        temp: Temp(t),
        offset,
        dwords,
    })
}

fn block_id(text: &str) -> Option<BlockId> {
    let n = text.strip_prefix("BB")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| n.parse().ok().map(BlockId))
        .flatten()
}

fn operand(
    text: &str,
    column: usize,
    line: usize,
    f: &Function,
    target: Target,
) -> Result<Opnd, ParseError> {
    let err = |m: String| ParseError {
        line,
        column,
        message: m,
    };
    if text.is_empty() {
        return Err(err("expected an operand".to_string()));
    }
    if let Some(n) = text.strip_prefix("%spill_vgpr") {
        return n
            .parse()
            .map(Opnd::SpillVgpr)
            .map_err(|_| err(format!("expected `%spill_vgprN`, found `{text}`")));
    }
    if text.starts_with('%') {
        return Ok(Opnd::Temp(temp_slice(f, text, column, line)?));
    }
    if text == "undef" {
        return Ok(Opnd::Undef);
    }
    if let Some(b) = block_id(text) {
        return Ok(Opnd::Block(b));
    }
    if let Some((label, anchor)) = text.rsplit_once('-') {
        if let (Some(anchor), false) = (block_id(anchor), label.is_empty()) {
            return Ok(Opnd::Addr {
                label: label.to_string(),
                anchor,
            });
        }
    }
    fixed(text, target).map(Opnd::Fixed).map_err(err)
}

/// A fixed operand as `gpuabi_amdgpu::Operand`'s `Display` prints it.
fn fixed(text: &str, target: Target) -> Result<Operand, String> {
    if text == "off" {
        return Ok(Operand::Off);
    }
    if let Some((s, _)) = Special::ALL.iter().find(|(_, n)| *n == text) {
        return Ok(Operand::Special(*s));
    }
    if let Some(t) = Special::ttmp(text, target) {
        return Ok(Operand::Special(t));
    }
    let b = text.as_bytes();
    if b.len() >= 2 && matches!(b[0], b's' | b'v') && (b[1].is_ascii_digit() || b[1] == b'[') {
        return text
            .parse()
            .map(Operand::Reg)
            .map_err(|e: gpuabi_layout::reg::RegParseError| e.to_string());
    }
    if let Some(list) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let regs: Result<Vec<RegRange>, _> = list.split(',').map(|r| r.trim().parse()).collect();
        return regs
            .map(|r| Operand::Nsa(r.into_boxed_slice()))
            .map_err(|e: gpuabi_layout::reg::RegParseError| e.to_string());
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.starts_with(|c: char| c.is_ascii_digit()) || matches!(digits, "inf" | "NaN") {
        return number(text).map(Operand::Imm);
    }
    if ["vmcnt(", "expcnt(", "lgkmcnt("]
        .iter()
        .any(|p| text.starts_with(p))
    {
        return waitcnt(text).map(Operand::Waitcnt);
    }
    expr(text).map(|e| Operand::Expr(Box::new(e)))
}

fn number(text: &str) -> Result<Imm, String> {
    let bad = || format!("expected a number, found `{text}`");
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    if let Some(hex) = body.strip_prefix("0x") {
        let v = i64::from_str_radix(hex, 16).map_err(|_| bad())?;
        return Ok(Imm::Int(if neg { -v } else { v }));
    }
    if body.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().map(Imm::Int).map_err(|_| bad());
    }
    text.parse().map(Imm::Float).map_err(|_| bad())
}

fn waitcnt(text: &str) -> Result<Waitcnt, String> {
    let mut w = Waitcnt::default();
    for part in text.split_whitespace() {
        let bad = || format!("expected `vmcnt(N)`, `expcnt(N)` or `lgkmcnt(N)`, found `{part}`");
        let (name, n) = part.split_once('(').ok_or_else(bad)?;
        let n: u8 = n
            .strip_suffix(')')
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)?;
        match name {
            "vmcnt" => w.vmcnt = Some(n),
            "expcnt" => w.expcnt = Some(n),
            "lgkmcnt" => w.lgkmcnt = Some(n),
            _ => return Err(bad()),
        }
    }
    Ok(w)
}

/// `plus[@reloc][-minus][+addend|-addend]`.
fn expr(text: &str) -> Result<Expr, String> {
    let bad = || format!("expected an operand (a register, a constant or a label), found `{text}`");
    let is_label = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
    };
    // The addend: a sign and digits at the end.
    let mut body = text;
    let mut addend = 0i64;
    if let Some(i) = text.rfind(['+', '-']) {
        let digits = &text[i + 1..];
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let v: i64 = digits.parse().map_err(|_| bad())?;
            addend = if &text[i..=i] == "-" { -v } else { v };
            body = &text[..i];
        }
    }
    let mut e = Expr::label(body);
    e.addend = addend;
    if let Some(i) = body.find('@') {
        let spelled = &body[i..];
        let (r, _) = Reloc::ALL
            .iter()
            .find(|(_, s)| *s == spelled)
            .ok_or_else(bad)?;
        e.plus = body[..i].to_string();
        e.reloc = Some(*r);
    } else if let Some((plus, minus)) = body.split_once('-') {
        if !is_label(minus) {
            return Err(bad());
        }
        e.plus = plus.to_string();
        e.minus = Some(minus.to_string());
    }
    if !is_label(&e.plus) {
        return Err(bad());
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_function(text, Target::Gfx1100)
            .expect_err("does not parse")
            .to_string()
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err("function @f\n  stack_bytes x\n"),
            "2:15: expected a byte count, found `x`"
        );
        let head = "function @f\n  stack_bytes 0\n  temp %s0 dwords 1 align 1\n\
                    BB0: kind entry; logical preds -; logical succs -; linear preds -; linear succs -\n";
        // Column 13 is the operand after `  s_mov_b32 `.
        assert_eq!(
            err(&format!("{head}  s_mov_b32 %s9, 0\n")),
            "5:13: temp 9 is not declared"
        );
        assert_eq!(
            err(&format!("{head}  s_mov_b32 %v0, 0\n")),
            "5:13: temp 0 is not in the file `%v0` names"
        );
        // `bogus` starts at column 28: after `  s_mov_b32 %s0, 0 | offen `.
        assert_eq!(
            err(&format!("{head}  s_mov_b32 %s0, 0 | offen bogus\n")),
            "5:28: expected a modifier (offen, idxen, glc, slc, dlc, addr64, unorm, da, r128, \
             tfe, lwe, offset:N, offset0:N, offset1:N, dmask:N, format:N), `e64`, \
             `cost:KIND` or `@START..END`, found `bogus`"
        );
        assert!(err(&format!("{head}  s_frobnicate %s0\n"))
            .starts_with("5:3: expected an instruction: `s_frobnicate`"));
        assert_eq!(
            err("function @f\nBB1: kind -; logical preds -; logical succs -; linear preds -; linear succs -\n"),
            "2:1: expected `BB0:`"
        );
    }

    #[test]
    fn fixed_operands_read_back() {
        for text in [
            "s4",
            "v[4:7]",
            "vcc_lo",
            "exec_lo",
            "m0",
            "off",
            "0",
            "-16",
            "64",
            "0x41",
            "-100",
            "0.5",
            "-4.0",
            "vmcnt(0) lgkmcnt(1)",
            ".Lk_3",
            "inc-k",
            "inc@rel32@lo+4",
        ] {
            let o = fixed(text, Target::Gfx1100).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(o.to_string(), text);
        }
    }
}
