//! Parses LLVM AMDGPU assembly text into a [`Program`], checking every operand against the
//! instruction table for the target and wave size. Disassemblies as Mesa's ACO prints them
//! read unchanged: `BBn:` labels, the encoding listed in each line's comment
//! ([`super::listing`]) and `(then repeated N times)`.

use std::collections::HashMap;

use gpuabi_layout::reg::RegRange;
use smallvec::SmallVec;

use super::buffer_format;
use super::cache_policy;
use super::lexer::{lex, strip_comment, Tok, Token};
use super::listing::{self, Listed};
use super::{symbolic_imm, waitcnt_bits};
use crate::encoding::uses_vop3;
use crate::error::AsmError;
use crate::inst::{DstUnused, Inst, MemMods, Sdwa, SdwaSel, SrcMods};
use crate::opcodes::{Format, Kind, OpInfo, Opcode, TABLE};
use crate::operand::{Expr, Imm, Operand, Reloc, Special, Waitcnt};
use crate::origin::Origin;
use crate::program::{
    is_code_section, DataValue, Directive, Item, Program, MAX_DATA_BYTES, MAX_P2ALIGN,
};
use crate::target::{Target, WaveSize, ENCODED_TARGETS};
use crate::validate::{check_inst, check_operand};

/// The most instructions `(then repeated N times)` lines may add to one program, so that a
/// short file cannot make the assembler allocate without bound. ACO's programs are far
/// smaller: it repeats padding `s_nop`s and `s_code_end`s, at most a few thousand.
pub const MAX_REPEATED: u64 = 1 << 20;

/// Parses a whole file. Errors name the line and column and say what was expected.
/// Encodings listed in comments (as Mesa's ACO prints them) give the instructions the bits
/// the hardware ignores that the listing has; other differences from a listing are ignored,
/// as comments are ([`parse_listed`] returns them).
pub fn parse(text: &str, target: Target, wave: WaveSize) -> Result<Program, AsmError> {
    let (mut program, listed) = parse_listed(text, target, wave)?;
    listing::adopt(&mut program, &listed);
    Ok(program)
}

/// Parses a whole file and returns the encodings its comments list, without comparing
/// them with the program ([`listing::adopt`] does).
pub fn parse_listed(
    text: &str,
    target: Target,
    wave: WaveSize,
) -> Result<(Program, Vec<Listed>), AsmError> {
    if !target.has_encodings() {
        return Err(AsmError::new(
            1,
            1,
            format!(
                "the machine model has no instruction encodings for {target}; use one of gfx8, \
                 gfx1030, gfx1100"
            ),
        ));
    }
    if !target.supports(wave) {
        return Err(AsmError::new(
            1,
            1,
            format!("{target} runs {} only", target.default_wave()),
        ));
    }
    let mut program = Program::new(target, wave);
    let mut label_lines: HashMap<String, usize> = HashMap::new();
    let mut lines = text.lines().enumerate();
    let mut code = true;
    let mut section_bytes = HashMap::<String, u64>::new();
    let mut section = String::from(".text");
    let mut listed: Vec<Listed> = Vec::new();
    let mut repeated = 0u64;
    // The section stack as llvm-mc keeps it (`MCStreamer::pushSection`): each entry holds
    // a section and the one before it, which `.previous` returns to and `.popsection`
    // restores with it.
    let mut pushed: Vec<(String, Option<String>)> = Vec::new();
    let mut previous: Option<String> = None;
    while let Some((index, raw)) = lines.next() {
        let line = index + 1;
        let stripped = strip_comment(raw).trim();
        if let Some(count) = listing::repeat_count(stripped) {
            let column = raw.find('(').map_or(1, |c| c + 1);
            repeat_last(
                &mut program,
                &mut listed,
                count,
                line,
                column,
                &mut repeated,
            )?;
            continue;
        }
        let first = stripped.split_whitespace().next().unwrap_or("");
        if let Some(end) = block_end(first) {
            // The block is kept as written; the HSA and PAL readers interpret it.
            let mut block = vec![raw.trim().to_string()];
            loop {
                let Some((_, l)) = lines.next() else {
                    return Err(AsmError::new(
                        line,
                        raw.find(first).map_or(1, |c| c + 1),
                        format!("`{first}` without its `{end}`"),
                    ));
                };
                block.push(l.trim_end().to_string());
                if strip_comment(l).trim() == end {
                    break;
                }
            }
            program.push_from(
                Item::Directive(Directive::Verbatim(block)),
                Origin::Asm { line: line as u32 },
            );
            continue;
        }
        // Mesa prints its programs through LLVM's disassembler, which writes this line for
        // bytes it does not know: the instruction is read from the dwords listed.
        if stripped.starts_with("(invalid instruction)") {
            let column = raw.find('(').map_or(1, |c| c + 1);
            if !code {
                return Err(AsmError::new(
                    line,
                    column,
                    format!("an instruction in data section `{section}`"),
                ));
            }
            let following = lines.clone().map(|(i, l)| (i + 1, l));
            let (inst, words, taken) =
                listing::unnamed_instruction(raw, (line, column), following, target, wave)?;
            for _ in 0..taken {
                lines.next();
            }
            listed.push(Listed {
                item: program.items.len(),
                line,
                words,
            });
            program.push_from(Item::Inst(inst), Origin::Asm { line: line as u32 });
            continue;
        }
        let tokens = lex(strip_comment(raw), line)?;
        let mut p = LineParser {
            tokens: &tokens,
            pos: 0,
            line,
            end_column: raw.chars().count() + 1,
            target,
            wave,
            raw: stripped,
        };
        // Labels first (`a: b: s_nop 0` is allowed).
        while let (Some(Tok::Word(name)), Some(Tok::Punct(':'))) = (p.peek(0), p.peek(1)) {
            let column = p.column();
            if let Some(first) = label_lines.insert(name.clone(), line) {
                return Err(AsmError::new(
                    line,
                    column,
                    format!("label `{name}` is already defined on line {first}"),
                ));
            }
            program.push_from(Item::Label(name.clone()), Origin::Asm { line: line as u32 });
            p.pos += 2;
        }
        let Some(Tok::Word(word)) = p.peek(0).cloned() else {
            if p.peek(0).is_some() {
                return Err(p.error("expected an instruction, a label or a directive"));
            }
            continue;
        };
        if word == ".end" {
            // The assembler stops reading at `.end`, as llvm-mc does.
            p.pos += 1;
            p.expect_end()?;
            break;
        }
        let item = if word.starts_with('.') {
            let column = p.column();
            let mut restored_previous = None;
            let item = match word.as_str() {
                // The section stack of GNU as and llvm-mc.
                ".popsection" | ".previous" => {
                    p.pos += 1;
                    p.expect_end()?;
                    let to = if word == ".popsection" {
                        pushed.pop().map(|(to, before)| {
                            restored_previous = Some(before);
                            to
                        })
                    } else {
                        previous.clone()
                    };
                    let to = to.ok_or_else(|| {
                        AsmError::new(
                            line,
                            column,
                            format!("`{word}` without a section to go back to"),
                        )
                    })?;
                    Item::Directive(section_directive(&to))
                }
                _ => p.directive(&word)?,
            };
            if word == ".pushsection" {
                pushed.push((section.clone(), previous.clone()));
            }
            match &item {
                Item::Directive(Directive::Text) => {
                    code = true;
                    previous = Some(std::mem::replace(&mut section, ".text".into()));
                }
                Item::Directive(Directive::Section { name, .. }) => {
                    code = is_code_section(name);
                    previous = Some(std::mem::replace(&mut section, name.clone()));
                }
                Item::Directive(d) => {
                    let bytes = section_bytes.entry(section.clone()).or_default();
                    *bytes += d.code_bytes(0).len() as u64;
                    if *bytes > MAX_DATA_BYTES {
                        return Err(AsmError::new(
                            line,
                            column,
                            format!(
                                "section `{section}` grows beyond {} MiB, the most gpuabi \
                                 accepts",
                                MAX_DATA_BYTES >> 20
                            ),
                        ));
                    }
                }
                _ => {}
            }
            if let Some(before) = restored_previous {
                previous = before;
            }
            item
        } else {
            if !code {
                return Err(p.error(format!(
                    "an instruction in data section `{section}`; instructions belong in \
                     `.text`"
                )));
            }
            let inst = p.instruction(&word)?;
            let comment = raw.find(';').map_or("", |at| &raw[at + 1..]);
            if let Some(words) = listing::listed_words(comment) {
                listed.push(Listed {
                    item: program.items.len(),
                    line,
                    words,
                });
            }
            Item::Inst(inst)
        };
        program.push_from(item, Origin::Asm { line: line as u32 });
    }
    // The parser checked each line as it went; what is left is the labels used.
    program
        .validate()
        .map_err(|e| AsmError::new(e.origin.line().map_or(1, |l| l as usize), 1, e.message))?;
    Ok((program, listed))
}

/// `(then repeated N times)`: N more copies of the instruction just before, with its listed
/// encoding.
fn repeat_last(
    program: &mut Program,
    listed: &mut Vec<Listed>,
    count: &str,
    line: usize,
    column: usize,
    repeated: &mut u64,
) -> Result<(), AsmError> {
    let n: u64 = count.parse().map_err(|_| {
        AsmError::new(
            line,
            column,
            format!("`(then repeated N times)`: expected a count, found `{count}`"),
        )
    })?;
    let last = program.items.len().checked_sub(1);
    let Some((index, Item::Inst(inst))) = last.map(|i| (i, &program.items[i].item)) else {
        return Err(AsmError::new(
            line,
            column,
            "`(then repeated N times)` follows no instruction (it repeats the line above)",
        ));
    };
    *repeated += n;
    if *repeated > MAX_REPEATED {
        return Err(AsmError::new(
            line,
            column,
            format!(
                "repeated instructions add up to more than {MAX_REPEATED}, the most gpuabi \
                 accepts in one file"
            ),
        ));
    }
    let inst = inst.clone();
    let words = listed
        .last()
        .filter(|l| l.item == index)
        .map(|l| l.words.clone());
    for _ in 0..n {
        if let Some(words) = &words {
            listed.push(Listed {
                item: program.items.len(),
                line,
                words: words.clone(),
            });
        }
        program.push_from(Item::Inst(inst.clone()), Origin::Asm { line: line as u32 });
    }
    Ok(())
}

/// The bytes of a string as GNU as and llvm-mc read it: `\n`, `\t`, `\r`, `\\`, `\'`,
/// octal `\NNN` and hex `\xHH` escapes.
fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('r') => out.push(b'\r'),
            Some('b') => out.push(8),
            Some('f') => out.push(12),
            Some('\\') => out.push(b'\\'),
            Some('\'') => out.push(b'\''),
            Some('"') => out.push(b'"'),
            Some('x') => {
                let mut v = 0u32;
                let mut digits = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = (v * 16 + d) & 0xff;
                    digits += 1;
                    chars.next();
                }
                if digits == 0 {
                    return Err("`\\x` without hex digits".into());
                }
                out.push(v as u8);
            }
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(v as u8);
            }
            Some(other) => return Err(format!("unknown escape `\\{other}`")),
            None => return Err("a `\\` at the end of the string".into()),
        }
    }
    Ok(out)
}

/// Appends `v` in LEB128 (DWARF's variable-length integers), signed or unsigned.
fn leb128(mut v: i64, signed: bool, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7f) as u8;
        v = if signed {
            v >> 7
        } else {
            ((v as u64) >> 7) as i64
        };
        let done = if signed {
            (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0)
        } else {
            v == 0
        };
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            break;
        }
    }
}

/// The directive that switches to section `name`.
fn section_directive(name: &str) -> Directive {
    if name == ".text" {
        Directive::Text
    } else {
        Directive::Section {
            name: name.to_string(),
            rest: String::new(),
        }
    }
}

/// The directive that ends a block starting with `first`, for the blocks kept as written.
fn block_end(first: &str) -> Option<&'static str> {
    match first {
        ".amdhsa_kernel" => Some(".end_amdhsa_kernel"),
        ".amdgpu_metadata" => Some(".end_amdgpu_metadata"),
        ".amdgpu_pal_metadata" => Some(".end_amdgpu_pal_metadata"),
        _ => None,
    }
}

struct LineParser<'a> {
    tokens: &'a [Token],
    /// The line without its comment and surrounding blanks.
    raw: &'a str,
    pos: usize,
    line: usize,
    end_column: usize,
    target: Target,
    wave: WaveSize,
}

impl LineParser<'_> {
    fn peek(&self, ahead: usize) -> Option<&Tok> {
        self.tokens.get(self.pos + ahead).map(|t| &t.tok)
    }

    fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column, |t| t.column)
    }

    fn error(&self, message: impl Into<String>) -> AsmError {
        AsmError::new(self.line, self.column(), message)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.tokens.get(self.pos).map(|t| t.tok.clone());
        self.pos += 1;
        t
    }

    fn expect_end(&self) -> Result<(), AsmError> {
        match self.peek(0) {
            None => Ok(()),
            Some(_) => Err(self.error("expected the end of the line")),
        }
    }

    fn directive(&mut self, word: &str) -> Result<Item, AsmError> {
        self.pos += 1;
        let d = match word {
            ".text" => Directive::Text,
            ".globl" | ".global" => match self.next() {
                Some(Tok::Word(name)) => Directive::Globl(name),
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected a label name after `.globl`"));
                }
            },
            ".amdgcn_target" => {
                let column = self.column();
                let Some(Tok::Str(id)) = self.next() else {
                    self.pos -= 1;
                    return Err(
                        self.error("expected a target id like `\"amdgcn-amd-amdhsa--gfx1030\"`")
                    );
                };
                // `arch-vendor-os-env-processor[:feature...]`: the processor is the fifth
                // field (LLVM's AMDGPUUsage, "Target ID").
                let processor = super::target_id::processor_name(&id).unwrap_or("");
                match processor.parse::<Target>() {
                    Ok(t) if t == self.target => {}
                    _ => {
                        return Err(AsmError::new(
                            self.line,
                            column,
                            format!(
                                "target id `{id}` does not name {} (LLVM's `{}`)",
                                self.target,
                                self.target.llvm_cpu()
                            ),
                        ))
                    }
                }
                Directive::AmdgcnTarget(id)
            }
            ".p2align" | ".p2alignl" => {
                let column = self.column();
                let power = match self.number(false)? {
                    Imm::Int(n) if (0..=i64::from(MAX_P2ALIGN)).contains(&n) => n as u8,
                    _ => {
                        return Err(AsmError::new(
                            self.line,
                            column,
                            format!("`{word}` takes a power of two 0..{MAX_P2ALIGN}"),
                        ))
                    }
                };
                if self.peek(0) == Some(&Tok::Punct(',')) {
                    self.pos += 1;
                    let fill = self.int_value(if word == ".p2alignl" { 4 } else { 1 })? as u32;
                    Directive::P2alignFill {
                        power,
                        fill,
                        word: word == ".p2alignl",
                    }
                } else if word == ".p2alignl" {
                    return Err(self.error("expected `,` and the dword to pad with"));
                } else {
                    Directive::P2align(power)
                }
            }
            ".type" => {
                let name = self.directive_name(word)?;
                if self.next() != Some(Tok::Punct(',')) {
                    self.pos -= 1;
                    return Err(self.error("expected `,@function` after the name"));
                }
                match self.next() {
                    Some(Tok::Word(w)) if w == "@function" => Directive::TypeFunction(name),
                    Some(Tok::Word(w)) if w == "@object" => {
                        Directive::Verbatim(vec![self.raw.to_string()])
                    }
                    _ => {
                        self.pos -= 1;
                        return Err(self.error("expected `@function` or `@object`"));
                    }
                }
            }
            ".size" => {
                let name = self.directive_name(word)?;
                if self.next() != Some(Tok::Punct(',')) {
                    self.pos -= 1;
                    return Err(self.error("expected `,` and the size, like `.Lend-NAME`"));
                }
                match self.operand()? {
                    Operand::Expr(e) if e.reloc.is_none() => Directive::Size(name, *e),
                    Operand::Imm(Imm::Int(n)) if n >= 0 => {
                        Directive::Verbatim(vec![self.raw.to_string()])
                    }
                    _ => {
                        self.pos -= 1;
                        return Err(self.error("expected the size as a label expression"));
                    }
                }
            }
            // ELF's shorthands for the data sections.
            ".data" | ".bss" | ".rodata" => Directive::Section {
                name: word.to_string(),
                rest: String::new(),
            },
            ".section" | ".pushsection" => {
                let name = match self.next() {
                    Some(Tok::Word(n) | Tok::Str(n)) if !n.is_empty() => n,
                    _ => {
                        self.pos -= 1;
                        return Err(self.error("expected a section name after `.section`"));
                    }
                };
                // Flags, type and entry size are kept as written.
                self.pos = self.tokens.len();
                let rest = self
                    .raw
                    .find(',')
                    .map_or(String::new(), |i| self.raw[i..].to_string());
                Directive::Section { name, rest }
            }
            ".byte" | ".short" | ".2byte" | ".hword" | ".long" | ".4byte" | ".int" | ".quad"
            | ".8byte" => {
                let size = match word {
                    ".byte" => 1,
                    ".short" | ".2byte" | ".hword" => 2,
                    ".long" | ".4byte" | ".int" => 4,
                    _ => 8,
                };
                let values = self.data_values(word)?;
                Directive::Data { size, values }
            }
            ".value" => {
                let values = self.data_values(word)?;
                Directive::Data { size: 2, values }
            }
            ".ascii" | ".asciz" | ".string" => {
                let column = self.column();
                let Some(Tok::Str(text)) = self.next() else {
                    self.pos -= 1;
                    return Err(self.error(format!("expected a quoted string after `{word}`")));
                };
                let mut bytes = unescape(&text)
                    .map_err(|m| AsmError::new(self.line, column, format!("`{word}`: {m}")))?;
                if word != ".ascii" {
                    bytes.push(0);
                }
                Directive::Data {
                    size: 1,
                    values: bytes
                        .into_iter()
                        .map(|b| DataValue::Int(b.into()))
                        .collect(),
                }
            }
            ".float" | ".double" => {
                let mut values = Vec::new();
                loop {
                    let negative = self.peek(0) == Some(&Tok::Punct('-'));
                    if negative {
                        self.pos += 1;
                    }
                    let v = match self.number(negative)? {
                        Imm::Float(f) => f,
                        Imm::Int(i) => i as f64,
                    };
                    let bits = if word == ".float" {
                        i64::from((v as f32).to_bits())
                    } else {
                        v.to_bits() as i64
                    };
                    values.push(DataValue::Int(bits));
                    if self.peek(0) != Some(&Tok::Punct(',')) {
                        break;
                    }
                    self.pos += 1;
                }
                let size = if word == ".float" { 4 } else { 8 };
                Directive::Data { size, values }
            }
            ".uleb128" | ".sleb128" => {
                let mut bytes = Vec::new();
                loop {
                    let negative = self.peek(0) == Some(&Tok::Punct('-'));
                    if negative {
                        self.pos += 1;
                    }
                    let column = self.column();
                    let Imm::Int(v) = self.number(negative)? else {
                        return Err(AsmError::new(
                            self.line,
                            column,
                            format!("`{word}` takes integers"),
                        ));
                    };
                    if word == ".uleb128" && v < 0 {
                        return Err(AsmError::new(
                            self.line,
                            column,
                            "`.uleb128` takes unsigned integers",
                        ));
                    }
                    leb128(v, word == ".sleb128", &mut bytes);
                    if self.peek(0) != Some(&Tok::Punct(',')) {
                        break;
                    }
                    self.pos += 1;
                }
                Directive::Data {
                    size: 1,
                    values: bytes
                        .into_iter()
                        .map(|b| DataValue::Int(b.into()))
                        .collect(),
                }
            }
            ".balign" | ".align" => {
                // On AMDGPU both count bytes (llvm-mc: `.align 4` aligns to 4 bytes).
                let column = self.column();
                let bytes = self.int_value(4)?;
                if !bytes.is_power_of_two() || bytes > 1 << MAX_P2ALIGN {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!(
                            "`{word}` takes a power of two up to {}",
                            1u32 << MAX_P2ALIGN
                        ),
                    ));
                }
                let power = bytes.trailing_zeros() as u8;
                if self.peek(0) == Some(&Tok::Punct(',')) {
                    self.pos += 1;
                    let fill = self.int_value(1)? as u32;
                    if self.peek(0) == Some(&Tok::Punct(',')) {
                        return Err(self.error(format!(
                            "`{word}` with a largest skip is not supported; align without it"
                        )));
                    }
                    Directive::P2alignFill {
                        power,
                        fill,
                        word: false,
                    }
                } else {
                    Directive::P2align(power)
                }
            }
            ".space" | ".skip" => {
                let column = self.column();
                let repeat = self.int_value(4)?;
                let mut value = 0;
                if self.peek(0) == Some(&Tok::Punct(',')) {
                    self.pos += 1;
                    value = self.int_value(1)?;
                }
                if repeat > MAX_DATA_BYTES {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("`{word}` of more than {} MiB", MAX_DATA_BYTES >> 20),
                    ));
                }
                Directive::Fill {
                    repeat: repeat as u32,
                    size: 1,
                    value,
                    zero: value == 0,
                }
            }
            // Symbols, common data and notes that change no byte of the program's sections.
            ".set" | ".equ" | ".comm" | ".lcomm" | ".ident" | ".file" | ".addrsig"
            | ".addrsig_sym" => {
                self.pos = self.tokens.len();
                Directive::Verbatim(vec![self.raw.to_string()])
            }
            ".reloc" => {
                self.pos -= 1;
                return Err(self.error(
                    "`.reloc` asks the linker for a relocation; gpuabi assembles code whose \
                     addresses it can compute, without relocations",
                ));
            }
            ".zero" | ".fill" => {
                let column = self.column();
                let repeat = self.int_value(4)?;
                let (mut size, mut value) = (1u8, 0u64);
                if self.peek(0) == Some(&Tok::Punct(',')) {
                    self.pos += 1;
                    if word == ".zero" {
                        value = self.int_value(1)?;
                    } else {
                        let c = self.column();
                        size = match self.int_value(1)? {
                            s @ (1 | 2 | 4 | 8) => s as u8,
                            _ => {
                                return Err(AsmError::new(
                                    self.line,
                                    c,
                                    "the `.fill` size is 1, 2, 4 or 8 bytes",
                                ))
                            }
                        };
                        if self.peek(0) == Some(&Tok::Punct(',')) {
                            self.pos += 1;
                            value = self.int_value(size)?;
                        }
                    }
                }
                if repeat * u64::from(size) > MAX_DATA_BYTES {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("`{word}` of more than {} MiB", MAX_DATA_BYTES >> 20),
                    ));
                }
                Directive::Fill {
                    repeat: repeat as u32,
                    size,
                    value,
                    zero: word == ".zero" && value == 0,
                }
            }
            // Symbol attributes and code object properties that change no byte.
            ".hidden" | ".protected" | ".internal" | ".weak" | ".local" => {
                self.directive_name(word)?;
                Directive::Verbatim(vec![self.raw.to_string()])
            }
            ".amdhsa_code_object_version" => {
                self.int_value(4)?;
                Directive::Verbatim(vec![self.raw.to_string()])
            }
            ".amd_amdgpu_isa" => {
                let Some(Tok::Str(_)) = self.next() else {
                    self.pos -= 1;
                    return Err(self.error("expected a quoted ISA name"));
                };
                Directive::Verbatim(vec![self.raw.to_string()])
            }
            _ => {
                self.pos -= 1;
                return Err(self.error(format!(
                    "unknown directive `{word}`: gpuabi reads `.text`, `.data`, `.bss`, \
                     `.rodata`, `.section`, `.pushsection`, `.popsection`, `.previous`, \
                     `.globl`, `.amdgcn_target`, `.p2align`, `.p2alignl`, `.balign`, `.align`, \
                     `.type`, `.size`, `.byte`, `.short`, `.value`, `.long`, `.int`, `.quad` \
                     (and `.2byte`, `.4byte`, `.8byte`), `.float`, `.double`, `.uleb128`, \
                     `.sleb128`, `.ascii`, `.asciz`, `.string`, `.zero`, `.fill`, `.space`, \
                     `.skip`, `.hidden`, `.protected`, `.internal`, `.weak`, `.local`, `.set`, \
                     `.equ`, `.comm`, `.lcomm`, `.ident`, `.file`, `.addrsig`, `.end`, \
                     `.amdhsa_code_object_version`, `.amd_amdgpu_isa` and the \
                     `.amdhsa_kernel`, `.amdgpu_metadata` and `.amdgpu_pal_metadata` blocks"
                )));
            }
        };
        self.expect_end()?;
        Ok(Item::Directive(d))
    }

    /// The values of a data directive: integers or label addresses, separated by commas.
    fn data_values(&mut self, word: &str) -> Result<Vec<DataValue>, AsmError> {
        let mut values = Vec::new();
        loop {
            let column = self.column();
            let v = match self.operand()? {
                Operand::Imm(Imm::Int(n)) => DataValue::Int(n),
                Operand::Expr(e) if e.reloc.is_none() && e.minus.is_none() => DataValue::Expr(*e),
                _ => {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("`{word}` takes integers or label addresses"),
                    ))
                }
            };
            values.push(v);
            if self.peek(0) != Some(&Tok::Punct(',')) {
                break;
            }
            self.pos += 1;
        }
        Ok(values)
    }

    /// The label name a directive names.
    fn directive_name(&mut self, directive: &str) -> Result<String, AsmError> {
        match self.next() {
            Some(Tok::Word(name)) => Ok(name),
            _ => {
                self.pos -= 1;
                Err(self.error(format!("expected a label name after `{directive}`")))
            }
        }
    }

    fn unknown_mnemonic(&self, name: &str) -> AsmError {
        let base = ["_e32", "_e64", "_sdwa"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .unwrap_or(name);
        if let Some(n) = crate::not_modelled::not_modelled(self.target, base) {
            return self.error(format!("`{name}` is not modelled: {}", n.reason));
        }
        for info in TABLE {
            for t in ENCODED_TARGETS {
                if info.name(t) == Some(name) {
                    return match info.name(self.target) {
                        Some(here) => self.error(format!(
                            "`{name}` is the {t} spelling; on {} write `{here}`",
                            self.target
                        )),
                        None if self.target == Target::Gfx12
                            && info.targets.contains(Target::Gfx1100) =>
                        {
                            self.error(format!(
                                "`{name}` does not exist on gfx12: RDNA 4 removed it{}",
                                gfx12_replacement(name)
                            ))
                        }
                        None => self.error(format!("`{name}` does not exist on {}", self.target)),
                    };
                }
            }
        }
        let names: Vec<&str> = TABLE.iter().filter_map(|i| i.name(self.target)).collect();
        let near = gpuabi_layout::suggest::nearest(name, &names);
        if near.is_empty() {
            return self.error(format!("unknown instruction `{name}`"));
        }
        let quoted: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
        self.error(format!(
            "unknown instruction `{name}`; did you mean {}?",
            quoted.join(" or ")
        ))
    }

    /// An RDNA 3 dual-issue pair `v_dual_X ... :: v_dual_Y ...`.
    fn dual(&mut self, word: &str) -> Result<Inst, AsmError> {
        let column = self.column();
        let mut x = self.single(word, true)?;
        if self.peek(0) != Some(&Tok::Punct(':')) || self.peek(1) != Some(&Tok::Punct(':')) {
            return Err(self.error(format!("expected `::` and the Y half after `{word}`")));
        }
        self.pos += 2;
        let Some(Tok::Word(y_word)) = self.peek(0).cloned() else {
            return Err(self.error("expected a `v_dual_*` instruction after `::`"));
        };
        let y = self.single(&y_word, true)?;
        self.expect_end()?;
        x.dual = Some(Box::new(y));
        check_inst(&x, self.target, self.wave)
            .map_err(|v| AsmError::new(self.line, column, v.message))?;
        Ok(x)
    }

    fn instruction(&mut self, word: &str) -> Result<Inst, AsmError> {
        if word.starts_with("v_dual_") {
            return self.dual(word);
        }
        self.single(word, false)
    }

    /// One instruction, or with `half` one half of a VOPD pair (`v_dual_*`, no implicit
    /// `vcc`, ending at `::` or the end of the line).
    fn single(&mut self, word: &str, half: bool) -> Result<Inst, AsmError> {
        let mnemonic_column = self.column();
        let dual_name = half.then(|| word.strip_prefix("v_dual_").map(|n| format!("v_{n}")));
        let word_base = match &dual_name {
            Some(Some(n)) => n.as_str(),
            Some(None) => {
                return Err(self.error(format!("`{word}` is not a `v_dual_*` instruction")))
            }
            None => word,
        };
        let (base, e64, e32, sdwa) = if let Some(b) = word_base.strip_suffix("_e64") {
            (b, true, false, false)
        } else if let Some(b) = word_base.strip_suffix("_e32") {
            (b, false, true, false)
        } else if let Some(b) = word_base.strip_suffix("_sdwa") {
            (b, false, false, true)
        } else {
            (word_base, false, false, false)
        };
        if half && (e64 || e32 || sdwa) {
            return Err(self.unknown_mnemonic(word));
        }
        let op = Opcode::from_name(self.target, base).ok_or_else(|| self.unknown_mnemonic(word))?;
        let info = op.info();
        let vector_alu = matches!(
            info.format,
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
        );
        if (e64 || e32 || sdwa) && !vector_alu {
            return Err(self.unknown_mnemonic(word));
        }
        self.pos += 1;
        let mut operands: SmallVec<[Operand; 4]> = SmallVec::new();
        let mut columns = Vec::new();
        let mut src_mods = SrcMods::default();
        let mut sexts = [false; 2];
        let mut hi16 = 0u8;
        // An atomic's operand list depends on `glc` (RDNA 4: `th:TH_ATOMIC_RETURN` or
        // `th:TH_ATOMIC_NT_RETURN`), which follows the operands: with it the returning form,
        // which names a destination first.
        let gfx12 = self.target == Target::Gfx12;
        let glc = info.atomic.is_some()
            && self.tokens[self.pos.min(self.tokens.len())..]
                .iter()
                .any(|t| {
                    matches!(&t.tok, Tok::Word(w) if w == "glc" && !gfx12
                    || gfx12 && w.starts_with("TH_ATOMIC_") && w.ends_with("RETURN"))
                });
        let dst_count = info.dsts_with(glc).len();
        for (i, kind) in info.slots_with(glc).enumerate() {
            if half && kind == Kind::MaskSrc {
                // `v_dual_cndmask_b32` reads `vcc` without naming it.
                operands.push(Operand::Special(crate::encoding::vcc_for(self.wave)));
                columns.push(mnemonic_column);
                continue;
            }
            if i > 0 && self.peek(0).is_some() {
                match self.peek(0) {
                    Some(Tok::Punct(',')) => self.pos += 1,
                    _ => {
                        return Err(
                            self.error(format!("expected `,` and operand {} of `{word}`", i + 1))
                        )
                    }
                }
            }
            if self.peek(0).is_none() {
                return Err(self.error(format!(
                    "`{word}` takes {} operands; operand {} is missing",
                    dst_count + info.srcs.len(),
                    i + 1
                )));
            }
            let column = self.column();
            let src = i.checked_sub(dst_count);
            let sext_call = sdwa
                && self.peek(0) == Some(&Tok::Word("sext".into()))
                && self.peek(1) == Some(&Tok::Punct('('));
            let operand = if sext_call {
                self.pos += 2;
                let operand = self.operand()?;
                if self.next() != Some(Tok::Punct(')')) {
                    self.pos -= 1;
                    return Err(self.error("expected `)` after the operand of `sext(`"));
                }
                match src {
                    Some(s @ 0..=1) => sexts[s] = true,
                    _ => {
                        return Err(AsmError::new(
                            self.line,
                            column,
                            "`sext(..)` applies to the first two sources of an SDWA instruction",
                        ))
                    }
                }
                operand
            } else if matches!(kind, Kind::VDstT16 | Kind::VSrcT16) {
                let (operand, hi) = self.true16_operand(word)?;
                hi16 |= u8::from(hi) << i;
                operand
            } else if kind == Kind::Waitcnt {
                self.waitcnt()?
            } else if matches!(kind, Kind::Imm16 | Kind::Msg8)
                && symbolic_imm::applies(op, &self.tokens[self.pos.min(self.tokens.len())..])
            {
                let start = self.pos;
                let (value, used) =
                    symbolic_imm::parse(op, &self.tokens[start..]).map_err(|(at, message)| {
                        let column = self
                            .tokens
                            .get(start + at)
                            .map_or(self.end_column, |t| t.column);
                        AsmError::new(self.line, column, message)
                    })?;
                self.pos += used;
                Operand::Imm(Imm::Int(value))
            } else if let Some(src) = src.filter(|s| *s < 8) {
                let (operand, neg, abs) = self.modified_operand()?;
                if (neg || abs) && info.float_srcs >> src & 1 == 0 {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!(
                            "source {} of `{word}` takes no modifiers (`-`, `|..|`, neg(), \
                             abs() apply to f32 sources)",
                            src + 1
                        ),
                    ));
                }
                if abs && info.is_vop3b() {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("`{word}` (VOP3b) takes `neg` but not `abs` on its sources"),
                    ));
                }
                src_mods.neg |= u8::from(neg) << src;
                src_mods.abs |= u8::from(abs) << src;
                operand
            } else {
                self.operand()?
            };
            check_operand(kind, &operand, self.target, self.wave)
                .map_err(|m| AsmError::new(self.line, column, m))?;
            operands.push(operand);
            columns.push(column);
        }
        let (mods, sdwa) = if half {
            (MemMods::default(), None)
        } else if sdwa {
            let mut s = self.sdwa_selections()?;
            s.src0_sext = sexts[0];
            s.src1_sext = sexts[1];
            (MemMods::default(), Some(s))
        } else {
            if vector_alu {
                self.output_modifiers(&mut src_mods)?;
            }
            (self.modifiers(info)?, None)
        };
        let inst = Inst {
            op,
            operands,
            mods,
            e64,
            src_mods,
            sdwa,
            dual: None,
            dont_care: 0,
            hi16,
        };
        if half {
            return Ok(inst);
        }
        let has_e32 = matches!(
            info.format_on(self.target),
            Format::Vop1 | Format::Vop2 | Format::Vopc
        );
        if !e64 && inst.sdwa.is_none() && has_e32 && inst.modifies_constant() {
            return Err(AsmError::new(
                self.line,
                mnemonic_column,
                "a constant with `neg`/`abs` needs `_e64` here (llvm-mc would fold it into a \
                 literal of the 32-bit encoding)",
            ));
        }
        if e32 && uses_vop3(&inst, self.target, self.wave) {
            return Err(AsmError::new(
                self.line,
                mnemonic_column,
                "these operands need the 64-bit encoding (`_e64`)",
            ));
        }
        check_inst(&inst, self.target, self.wave).map_err(|v| {
            let column = v
                .operand
                .and_then(|i| columns.get(i).copied())
                .unwrap_or(mnemonic_column);
            AsmError::new(self.line, column, v.message)
        })?;
        Ok(inst)
    }

    /// `clamp`, then `mul:2`, `mul:4` or `div:2`, as LLVM orders them after a vector
    /// instruction's operands.
    fn output_modifiers(&mut self, mods: &mut SrcMods) -> Result<(), AsmError> {
        if self.peek(0) == Some(&Tok::Word("clamp".into())) {
            self.pos += 1;
            mods.clamp = true;
        }
        let Some(Tok::Word(w)) = self.peek(0).cloned() else {
            return Ok(());
        };
        if w != "mul" && w != "div" {
            return Ok(());
        }
        let column = self.column();
        let text = match (self.peek(1), self.peek(2)) {
            (Some(Tok::Punct(':')), Some(Tok::Number(n))) => format!("{w}:{n}"),
            _ => return Err(self.error(format!("expected `{w}:N` (`mul:2`, `mul:4`, `div:2`)"))),
        };
        mods.omod = crate::output_mods::Omod::from_name(&text).ok_or_else(|| {
            AsmError::new(
                self.line,
                column,
                format!("unknown output modifier `{text}`: expected mul:2, mul:4 or div:2"),
            )
        })?;
        self.pos += 3;
        if self.peek(0) == Some(&Tok::Word("clamp".into())) {
            return Err(self.error("`clamp` comes before the output modifier"));
        }
        Ok(())
    }

    fn number(&mut self, negative: bool) -> Result<Imm, AsmError> {
        let column = self.column();
        let Some(Tok::Number(text)) = self.next() else {
            self.pos -= 1;
            return Err(self.error("expected a number"));
        };
        let bad = || AsmError::new(self.line, column, format!("`{text}` is not a valid number"));
        let sign = if negative { -1 } else { 1 };
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            let v = u64::from_str_radix(hex, 16).map_err(|_| bad())?;
            let v = i64::try_from(v).map_err(|_| bad())?;
            Ok(Imm::Int(sign * v))
        } else if text.contains(['.', 'e', 'E']) {
            let v: f64 = text.parse().map_err(|_| bad())?;
            Ok(Imm::Float(f64::from(sign as i8) * v))
        } else {
            let v: i64 = text.parse().map_err(|_| bad())?;
            Ok(Imm::Int(sign * v))
        }
    }

    fn operand(&mut self) -> Result<Operand, AsmError> {
        let column = self.column();
        match self.peek(0).cloned() {
            Some(Tok::Punct('-')) => {
                self.pos += 1;
                Ok(Operand::Imm(self.number(true)?))
            }
            Some(Tok::Number(_)) => Ok(Operand::Imm(self.number(false)?)),
            Some(Tok::Punct('[')) => self.nsa(),
            Some(Tok::Word(w)) => {
                self.pos += 1;
                if w == "off" {
                    return Ok(Operand::Off);
                }
                if let Some((s, _)) = Special::ALL.iter().find(|(_, n)| *n == w) {
                    return Ok(Operand::Special(*s));
                }
                if let Some(t) = Special::ttmp(&w, self.target) {
                    return Ok(Operand::Special(t));
                }
                let b = w.as_bytes();
                if b.len() >= 2
                    && matches!(b[0], b's' | b'v')
                    && (b[1].is_ascii_digit() || b[1] == b'[')
                {
                    let r: RegRange =
                        w.parse().map_err(|e: gpuabi_layout::reg::RegParseError| {
                            AsmError::new(self.line, column, e.to_string())
                        })?;
                    return Ok(Operand::Reg(r));
                }
                let mut expr = Expr::label(w);
                if let Some(Tok::Word(first)) = self.peek(0).cloned() {
                    if first.starts_with('@') {
                        let second = match self.peek(1) {
                            Some(Tok::Word(s)) if s.starts_with('@') => s.clone(),
                            _ => String::new(),
                        };
                        let spelled = format!("{first}{second}");
                        let Some((r, _)) = Reloc::ALL.iter().find(|(_, s)| *s == spelled) else {
                            return Err(self.error(format!(
                                "unknown relocation specifier `{spelled}`: expected one of {}",
                                Reloc::ALL.map(|(_, s)| format!("`{s}`")).join(", ")
                            )));
                        };
                        expr.reloc = Some(*r);
                        self.pos += 2;
                    }
                }
                if matches!(self.peek(0), Some(Tok::Punct('-'))) && expr.reloc.is_none() {
                    if let Some(Tok::Word(m)) = self.peek(1).cloned() {
                        self.pos += 2;
                        expr.minus = Some(m);
                    }
                }
                match self.peek(0) {
                    Some(Tok::Punct('+')) => {
                        self.pos += 1;
                        expr.addend = self.int_addend(false)?;
                    }
                    Some(Tok::Punct('-')) => {
                        self.pos += 1;
                        expr.addend = self.int_addend(true)?;
                    }
                    _ => {}
                }
                Ok(Operand::Expr(Box::new(expr)))
            }
            _ => Err(self.error("expected an operand: a register, a constant or a label")),
        }
    }

    /// An operand of a true16 slot ([`Kind::VDstT16`], [`Kind::VSrcT16`]): a VGPR half
    /// `v1.l`/`v1.h` (the register and whether it is the high half), or any other operand
    /// as written. A whole VGPR is refused: the slot reads or writes 16 bits.
    fn true16_operand(&mut self, word: &str) -> Result<(Operand, bool), AsmError> {
        let column = self.column();
        if let Some(Tok::Word(w)) = self.peek(0).cloned() {
            let half = w.strip_suffix(".l").map(|r| (r, false));
            let half = half.or_else(|| w.strip_suffix(".h").map(|r| (r, true)));
            if let Some((reg, hi)) = half.filter(|(r, _)| r.starts_with('v')) {
                let r: RegRange = reg
                    .parse()
                    .map_err(|e: gpuabi_layout::reg::RegParseError| {
                        AsmError::new(self.line, column, e.to_string())
                    })?;
                self.pos += 1;
                return Ok((Operand::Reg(r), hi));
            }
        }
        let operand = self.operand()?;
        if operand.is_vgpr() {
            return Err(AsmError::new(
                self.line,
                column,
                format!(
                    "`{word}` names a 16-bit half of a VGPR: write `{operand}.l` (bits 15:0) \
                     or `{operand}.h` (bits 31:16)"
                ),
            ));
        }
        Ok((operand, false))
    }

    /// `[v36, v[38:39], …]`: an image address given VGPR by VGPR (RDNA's NSA form).
    fn nsa(&mut self) -> Result<Operand, AsmError> {
        self.pos += 1;
        let mut regs = Vec::new();
        loop {
            let column = self.column();
            match self.next() {
                Some(Tok::Word(w)) if w.starts_with('v') => {
                    let r: RegRange =
                        w.parse().map_err(|e: gpuabi_layout::reg::RegParseError| {
                            AsmError::new(self.line, column, e.to_string())
                        })?;
                    regs.push(r);
                }
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected a VGPR in the address list"));
                }
            }
            match self.next() {
                Some(Tok::Punct(',')) => continue,
                Some(Tok::Punct(']')) => break,
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected `,` or `]` in the address list"));
                }
            }
        }
        Ok(Operand::Nsa(regs.into_boxed_slice()))
    }

    /// An operand with f32 modifiers: `-x`, `|x|`, `-|x|`, `neg(x)`, `abs(x)` and their
    /// nestings. A minus before a number is the number's sign, not a modifier (as in LLVM);
    /// `neg(1)` is the constant 1 with its sign bit flipped (ACO writes it for the
    /// negative denormal 0x80000001).
    /// Returns the operand and whether it is negated and whether its absolute value is taken.
    fn modified_operand(&mut self) -> Result<(Operand, bool, bool), AsmError> {
        let (mut neg, mut abs) = (false, false);
        let mut closers: Vec<char> = Vec::new();
        loop {
            let column = self.column();
            let (flag, closer, width) = match (self.peek(0), self.peek(1)) {
                (Some(Tok::Punct('-')), Some(Tok::Number(_))) => break,
                (Some(Tok::Punct('-')), _) => (&mut neg, None, 1),
                (Some(Tok::Punct('|')), _) => (&mut abs, Some('|'), 1),
                (Some(Tok::Word(w)), Some(Tok::Punct('('))) if w == "neg" => {
                    (&mut neg, Some(')'), 2)
                }
                (Some(Tok::Word(w)), Some(Tok::Punct('('))) if w == "abs" => {
                    (&mut abs, Some(')'), 2)
                }
                _ => break,
            };
            if *flag {
                return Err(AsmError::new(
                    self.line,
                    column,
                    "a modifier given twice on one source",
                ));
            }
            *flag = true;
            closers.extend(closer);
            self.pos += width;
        }
        let column = self.column();
        let operand = self.operand()?;
        if (neg || abs)
            && !matches!(
                operand,
                Operand::Reg(_) | Operand::Special(_) | Operand::Imm(_)
            )
        {
            return Err(AsmError::new(
                self.line,
                column,
                "modifiers apply to registers and constants",
            ));
        }
        while let Some(c) = closers.pop() {
            if self.next() != Some(Tok::Punct(c)) {
                self.pos -= 1;
                return Err(self.error(format!("expected `{c}` to close the modifier")));
            }
        }
        Ok((operand, neg, abs))
    }

    /// A non-negative integer (or a negative one, taken as two's complement) that fits
    /// `bytes` bytes.
    fn int_value(&mut self, bytes: u8) -> Result<u64, AsmError> {
        let column = self.column();
        let negative = self.peek(0) == Some(&Tok::Punct('-'));
        if negative {
            self.pos += 1;
        }
        let fits = |v: i64| {
            let bits = 8 * u32::from(bytes);
            bits >= 64
                || (v >= 0 && (v as u64) >> bits == 0)
                || (v < 0 && v >= -(1i64 << (bits - 1)))
        };
        match self.number(negative)? {
            Imm::Int(v) if fits(v) => Ok(v as u64 & (u64::MAX >> (64 - 8 * u32::from(bytes)))),
            _ => Err(AsmError::new(
                self.line,
                column,
                format!("expected an integer of at most {bytes} bytes"),
            )),
        }
    }

    fn int_addend(&mut self, negative: bool) -> Result<i64, AsmError> {
        match self.number(negative)? {
            Imm::Int(v) => Ok(v),
            Imm::Float(_) => Err(self.error("expected an integer after the label")),
        }
    }

    fn waitcnt(&mut self) -> Result<Operand, AsmError> {
        if let Some(Tok::Number(_)) = self.peek(0) {
            let column = self.column();
            return match self.number(false)? {
                Imm::Int(v) => waitcnt_bits::decode(v, self.target)
                    .map(Operand::Waitcnt)
                    .map_err(|m| AsmError::new(self.line, column, m)),
                Imm::Float(_) => Err(AsmError::new(
                    self.line,
                    column,
                    "expected counters like `vmcnt(0) lgkmcnt(0)` or an integer",
                )),
            };
        }
        let mut w = Waitcnt::default();
        loop {
            let column = self.column();
            let Some(Tok::Word(name)) = self.peek(0).cloned() else {
                break;
            };
            let slot = match name.as_str() {
                "vmcnt" => &mut w.vmcnt,
                "expcnt" => &mut w.expcnt,
                "lgkmcnt" => &mut w.lgkmcnt,
                _ => break,
            };
            self.pos += 1;
            if self.next() != Some(Tok::Punct('(')) {
                self.pos -= 1;
                return Err(self.error(format!("expected `(` after `{name}`")));
            }
            let v = match self.number(false)? {
                Imm::Int(v) if (0..=63).contains(&v) => v as u8,
                _ => {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("`{name}` takes a count 0..63"),
                    ))
                }
            };
            if self.next() != Some(Tok::Punct(')')) {
                self.pos -= 1;
                return Err(self.error("expected `)`"));
            }
            *slot = Some(v);
            if matches!(self.peek(0), Some(Tok::Punct('&' | ','))) {
                self.pos += 1;
            }
        }
        if w == Waitcnt::default() {
            return Err(self.error("expected counters like `vmcnt(0) lgkmcnt(0)`"));
        }
        Ok(Operand::Waitcnt(w))
    }

    /// The value of `format:`: a number (data format | number format << 4) or LLVM's
    /// `[BUF_DATA_FORMAT_*,BUF_NUM_FORMAT_*]`.
    fn buffer_format(&mut self) -> Result<u8, AsmError> {
        let column = self.column();
        let line = self.line;
        let bad = move |message: &str| AsmError::new(line, column, message.to_string());
        if self.peek(0) == Some(&Tok::Punct('[')) {
            self.pos += 1;
            let mut names = Vec::new();
            loop {
                match self.next() {
                    Some(Tok::Word(w)) => names.push(w),
                    _ => return Err(bad("expected `BUF_DATA_FORMAT_*` or `BUF_NUM_FORMAT_*`")),
                }
                match self.next() {
                    Some(Tok::Punct(',')) => continue,
                    Some(Tok::Punct(']')) => break,
                    _ => return Err(bad("expected `,` or `]` in `format:[..]`")),
                }
            }
            let (mut dfmt, mut nfmt) = (MemMods::DEFAULT_FORMAT & 0xf, 0u8);
            for n in names {
                if let Some(d) = buffer_format::data_format(&n) {
                    dfmt = d;
                } else if let Some(v) = buffer_format::num_format(&n) {
                    nfmt = v;
                } else {
                    return Err(bad(&format!("unknown buffer format `{n}`")));
                }
            }
            return Ok(dfmt | nfmt << 4);
        }
        match self.number(false)? {
            Imm::Int(v) if (0..=0x7f).contains(&v) => Ok(v as u8),
            _ => Err(bad(
                "expected a format 0..127 or `[BUF_DATA_FORMAT_*,BUF_NUM_FORMAT_*]`",
            )),
        }
    }

    /// The selections after an `_sdwa` instruction (`dst_sel:WORD_1 dst_unused:UNUSED_PAD
    /// src0_sel:BYTE_0 src1_sel:DWORD`), each optional, with LLVM's defaults: `DWORD`
    /// everywhere and `UNUSED_PRESERVE`.
    fn sdwa_selections(&mut self) -> Result<Sdwa, AsmError> {
        let mut s = Sdwa {
            dst_unused: DstUnused::Preserve,
            ..Sdwa::default()
        };
        while let Some(Tok::Word(w)) = self.peek(0).cloned() {
            let column = self.column();
            self.pos += 1;
            if self.next() != Some(Tok::Punct(':')) {
                self.pos -= 1;
                return Err(self.error(format!("expected `:` after `{w}`")));
            }
            let Some(Tok::Word(value)) = self.next() else {
                self.pos -= 1;
                return Err(self.error(format!("expected a value after `{w}:`")));
            };
            let sel = || SdwaSel::ALL.into_iter().find(|s| s.name() == value);
            let bad = |what: &str| {
                AsmError::new(self.line, column, format!("`{w}:{value}`: expected {what}"))
            };
            let sels = "BYTE_0..BYTE_3, WORD_0, WORD_1 or DWORD";
            match w.as_str() {
                "dst_sel" => s.dst_sel = sel().ok_or_else(|| bad(sels))?,
                "src0_sel" => s.src0_sel = sel().ok_or_else(|| bad(sels))?,
                "src1_sel" => s.src1_sel = sel().ok_or_else(|| bad(sels))?,
                "dst_unused" => {
                    s.dst_unused = DstUnused::ALL
                        .into_iter()
                        .find(|u| u.name() == value)
                        .ok_or_else(|| bad("UNUSED_PAD, UNUSED_SEXT or UNUSED_PRESERVE"))?
                }
                _ => {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!(
                            "unknown SDWA modifier `{w}`: expected dst_sel, dst_unused, \
                             src0_sel or src1_sel"
                        ),
                    ))
                }
            }
        }
        self.expect_end()?;
        Ok(s)
    }

    /// The value of a DS offset modifier (`offset0:N`, `offset1:N`, `offset:N`) after
    /// its name: an integer from 0 to `max`.
    fn ds_offset(&mut self, name: &str, max: i64) -> Result<i64, AsmError> {
        self.pos += 1;
        if self.next() != Some(Tok::Punct(':')) {
            self.pos -= 1;
            return Err(self.error(format!("expected `:` after `{name}`")));
        }
        let column = self.column();
        match self.number(false)? {
            Imm::Int(v) if (0..=max).contains(&v) => Ok(v),
            _ => Err(AsmError::new(
                self.line,
                column,
                format!("expected an integer 0..{max} for `{name}`"),
            )),
        }
    }

    /// The modifiers of a `ds_*` instruction: `offset:N` (16 bits) for single-address
    /// forms, `offset0:N` and `offset1:N` (8 bits each) for two-address ones.
    fn ds_modifiers(&mut self, info: &OpInfo) -> Result<MemMods, AsmError> {
        let mut mods = MemMods::default();
        let two = info.is_ds_two_address();
        while let Some(tok) = self.peek(0).cloned() {
            let Tok::Word(w) = tok else {
                return Err(self.error("expected the end of the line or a modifier"));
            };
            match w.as_str() {
                "offset" if !two => mods.offset = self.ds_offset("offset", 0xffff)? as i32,
                "offset0" if two => mods.offset0 = self.ds_offset("offset0", 0xff)? as u8,
                "offset1" if two => mods.offset1 = self.ds_offset("offset1", 0xff)? as u8,
                "gds" => {
                    return Err(
                        self.error("`gds` (the global data share) is not in the machine model")
                    )
                }
                _ if two => {
                    return Err(self.error(format!(
                        "unknown modifier `{w}`: expected offset0:N or offset1:N"
                    )))
                }
                _ => return Err(self.error(format!("unknown modifier `{w}`: expected offset:N"))),
            }
        }
        Ok(mods)
    }

    /// The modifiers of an image instruction, in any order: `dmask:N`, `unorm`, `glc`,
    /// `slc`, `r128`, `tfe`, `lwe`, `da`.
    fn image_modifiers(&mut self) -> Result<MemMods, AsmError> {
        let mut mods = MemMods::default();
        let mut dmask_seen = false;
        while let Some(tok) = self.peek(0).cloned() {
            let Tok::Word(w) = tok else {
                return Err(self.error("expected the end of the line or a modifier"));
            };
            let flag = match w.as_str() {
                "dmask" => {
                    self.pos += 1;
                    if self.next() != Some(Tok::Punct(':')) {
                        self.pos -= 1;
                        return Err(self.error("expected `:` after `dmask`"));
                    }
                    let column = self.column();
                    let value = match self.number(false)? {
                        Imm::Int(v) if (0..=15).contains(&v) => v as u8,
                        _ => {
                            return Err(AsmError::new(
                                self.line,
                                column,
                                "`dmask:` takes a mask of 0..15",
                            ))
                        }
                    };
                    if std::mem::replace(&mut dmask_seen, true) {
                        return Err(AsmError::new(self.line, column, "`dmask` given twice"));
                    }
                    mods.dmask = value;
                    continue;
                }
                "unorm" => &mut mods.unorm,
                "glc" => &mut mods.glc,
                "slc" => &mut mods.slc,
                "r128" => &mut mods.r128,
                "tfe" => &mut mods.tfe,
                "lwe" => &mut mods.lwe,
                "da" => &mut mods.da,
                _ => {
                    return Err(self.error(format!(
                        "unknown modifier `{w}`: expected dmask:N, unorm, glc, slc, r128, tfe, \
                         lwe or da"
                    )))
                }
            };
            if *flag {
                return Err(self.error(format!("`{w}` given twice")));
            }
            *flag = true;
            self.pos += 1;
        }
        Ok(mods)
    }

    fn modifiers(&mut self, info: &OpInfo) -> Result<MemMods, AsmError> {
        let format = info.format;
        if format == Format::Ds {
            return self.ds_modifiers(info);
        }
        if format == Format::Mimg {
            return self.image_modifiers();
        }
        let mut mods = MemMods::default();
        let gfx12 = self.target == Target::Gfx12;
        // RDNA 4's scalar loads take a cache policy too, and nothing else.
        let smem = gfx12 && format == Format::Smem;
        // RDNA 4's `global_inv`, `global_wb` and `global_wbinv` take a scope alone.
        let cache_op = gfx12 && format == Format::Global && info.slots().next().is_none();
        let memory = cache_op
            || (smem
                || matches!(
                    format,
                    Format::Mubuf | Format::Mtbuf | Format::Global | Format::Scratch | Format::Flat
                ))
                && info.slots().next().is_some();
        // `th:`'s names depend on `scope:`, which may follow it: the name and its column.
        let mut th: Option<(String, usize)> = None;
        let mut scope_given = false;
        while let Some(tok) = self.peek(0).cloned() {
            let Tok::Word(w) = tok else {
                return Err(self.error("expected the end of the line or a modifier"));
            };
            if !memory {
                return Err(self.error(format!("unexpected `{w}`: expected the end of the line")));
            }
            if matches!(w.as_str(), "th" | "scope") {
                if !gfx12 {
                    return Err(self.error(format!(
                        "`{w}:` exists on gfx12 only; {} takes glc, slc and dlc",
                        self.target
                    )));
                }
                self.pos += 1;
                if self.next() != Some(Tok::Punct(':')) {
                    self.pos -= 1;
                    return Err(self.error(format!("expected `:` after `{w}`")));
                }
                let column = self.column();
                let Some(Tok::Word(name)) = self.next() else {
                    return Err(AsmError::new(
                        self.line,
                        column,
                        format!("expected a name after `{w}:` (TH_LOAD_NT, SCOPE_SYS, ...)"),
                    ));
                };
                if w == "th" {
                    if th.replace((name, column)).is_some() {
                        return Err(AsmError::new(self.line, column, "`th` given twice"));
                    }
                } else {
                    let value = cache_policy::SCOPES
                        .iter()
                        .position(|s| *s == name)
                        .ok_or_else(|| {
                            AsmError::new(
                                self.line,
                                column,
                                format!(
                                    "unknown scope `{name}`: expected SCOPE_CU, SCOPE_SE,                                      SCOPE_DEV or SCOPE_SYS"
                                ),
                            )
                        })?;
                    if scope_given {
                        return Err(AsmError::new(self.line, column, "`scope` given twice"));
                    }
                    scope_given = true;
                    mods.scope = value as u8;
                }
                continue;
            }
            if gfx12 && matches!(w.as_str(), "glc" | "slc" | "dlc") {
                return Err(self.error(format!(
                    "`{w}` does not exist on gfx12: its cache policy is `th:` and `scope:`"
                )));
            }
            if smem {
                return Err(self.error(format!(
                    "unknown modifier `{w}`: a scalar load takes th:.. and scope:.."
                )));
            }
            let flag = match w.as_str() {
                "offen" => &mut mods.offen,
                "idxen" => &mut mods.idxen,
                "glc" => &mut mods.glc,
                "slc" => &mut mods.slc,
                "dlc" => &mut mods.dlc,
                "addr64" => &mut mods.addr64,
                "format" if format == Format::Mtbuf => {
                    self.pos += 1;
                    if self.next() != Some(Tok::Punct(':')) {
                        self.pos -= 1;
                        return Err(self.error("expected `:` after `format`"));
                    }
                    let column = self.column();
                    let value = self.buffer_format()?;
                    if mods.format.replace(value).is_some() {
                        return Err(AsmError::new(self.line, column, "`format` given twice"));
                    }
                    continue;
                }
                "offset" => {
                    self.pos += 1;
                    if self.next() != Some(Tok::Punct(':')) {
                        self.pos -= 1;
                        return Err(self.error("expected `:` after `offset`"));
                    }
                    let negative = matches!(self.peek(0), Some(Tok::Punct('-')));
                    if negative {
                        self.pos += 1;
                    }
                    let column = self.column();
                    mods.offset = match self.number(negative)? {
                        Imm::Int(v) => i32::try_from(v)
                            .map_err(|_| AsmError::new(self.line, column, "offset out of range"))?,
                        Imm::Float(_) => {
                            return Err(AsmError::new(
                                self.line,
                                column,
                                "expected an integer offset",
                            ))
                        }
                    };
                    continue;
                }
                _ => {
                    return Err(self.error(format!(
                        "unknown modifier `{w}`: expected offen, idxen, addr64, offset:N, \
                         format:N, glc, slc or dlc"
                    )))
                }
            };
            if *flag {
                return Err(self.error(format!("`{w}` given twice")));
            }
            *flag = true;
            self.pos += 1;
        }
        if let Some((name, column)) = th {
            let access = if info.atomic.is_some() {
                cache_policy::Access::Atomic
            } else if info.op.is_store() {
                cache_policy::Access::Store
            } else {
                cache_policy::Access::Load
            };
            mods.th = cache_policy::th_value(&name, access, mods.scope)
                .map_err(|m| AsmError::new(self.line, column, m))?;
            // LLVM's assembler: "invalid th value for SMEM instruction".
            if smem && mods.th > cache_policy::SMEM_MAX_TH {
                return Err(AsmError::new(
                    self.line,
                    column,
                    format!("`th:{name}` does not exist for scalar loads (RT, NT, HT, LU, BYPASS)"),
                ));
            }
            mods.glc = access == cache_policy::Access::Atomic && mods.th & 1 == 1;
        }
        if mods.addr64 && !matches!(self.target, Target::Gfx6 | Target::Gfx7) {
            return Err(self.error(format!("`addr64` does not exist on {}", self.target)));
        }
        if mods.dlc && !self.target.is_rdna() {
            return Err(self.error(format!("`dlc` does not exist on {}", self.target)));
        }
        Ok(mods)
    }
}

/// What RDNA 4 has in place of an RDNA 3 instruction it removed, for messages ("RDNA 4
/// Instruction Set Architecture": the counters of `s_waitcnt_*` are waited for one by one,
/// the SOPK compares have SOPC forms).
fn gfx12_replacement(name: &str) -> String {
    let instead = match name {
        "s_waitcnt_vscnt" => "s_wait_storecnt",
        "s_waitcnt_vmcnt" => "s_wait_loadcnt, s_wait_samplecnt or s_wait_bvhcnt",
        "s_waitcnt_expcnt" => "s_wait_expcnt",
        "s_waitcnt_lgkmcnt" => "s_wait_dscnt or s_wait_kmcnt",
        "s_barrier" => "s_barrier_signal and s_barrier_wait (not modelled)",
        n if n.starts_with("s_cmpk_") => "s_cmp_* with a literal",
        _ => return String::new(),
    };
    format!("; write {instead}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, target: Target, wave: WaveSize) -> AsmError {
        parse(text, target, wave).unwrap_err()
    }

    #[test]
    fn gcn1_operands_and_modifiers() {
        let w = WaveSize::W64;
        // SMRD offsets are 8-bit dword counts on gfx6/gfx7.
        assert!(parse("\ts_load_dword s1, s[2:3], 0xff\n", Target::Gfx6, w).is_ok());
        let e = err("\ts_load_dword s1, s[2:3], 0x100\n", Target::Gfx6, w);
        assert_eq!((e.line, e.column), (1, 27), "{e}");
        // gfx7 takes larger offsets as a literal dword after the SMRD word (llvm-mc-19
        // -mcpu=bonaire: `s_load_dword s0, s[0:1], 0x12345` is ff 00 00 c0 45 23 01 00).
        let p = parse("\ts_load_dword s0, s[0:1], 0x12345\n", Target::Gfx7, w).unwrap();
        assert_eq!(
            crate::encode(&p).unwrap(),
            [0xff, 0x00, 0x00, 0xc0, 0x45, 0x23, 0x01, 0x00]
        );
        let e = crate::decode(&[0xff, 0x00, 0x00, 0xc0], Target::Gfx7, w).unwrap_err();
        assert!(e.message.contains("literal constant is missing"), "{e}");
        assert!(crate::decode(&[0xff, 0x00, 0x00, 0xc0, 0, 0, 0, 0], Target::Gfx6, w).is_err());
        let e = err("\ts_load_dword s1, s[2:3], 0x100000000\n", Target::Gfx7, w);
        assert!(e.message.contains("0..0xffffffff on gfx7"), "{e}");
        // The lane instructions are VOP2 only on GCN 1.0/1.1 (llvm-mc-19: "e64 variant of
        // this instruction is not supported"); v_readlane_b32 s5, v12, s24 is 0c 31 0a 02.
        let e = err("\tv_readlane_b32_e64 s5, v12, s24\n", Target::Gfx6, w);
        assert!(
            e.message.contains("no 64-bit (VOP3) encoding on gfx6"),
            "{e}"
        );
        let p = parse("\tv_readlane_b32 s5, v12, s24\n", Target::Gfx7, w).unwrap();
        assert_eq!(crate::encode(&p).unwrap(), [0x0c, 0x31, 0x0a, 0x02]);
        // Two SGPRs on the constant bus (llvm-mc-19 -mcpu=tahiti refuses it too).
        let e = err("\tv_writelane_b32 v1, s9, s24\n", Target::Gfx6, w);
        assert!(e.message.contains("constant bus"), "{e}");
        let e = err(
            "\tbuffer_load_dword v1, v[2:3], s[8:11], 0 addr64\n",
            Target::Gfx8,
            w,
        );
        assert!(e.message.contains("v[2:3]"), "{e}");
        let e = err(
            "\tbuffer_load_dword v1, v2, s[8:11], 0 addr64\n",
            Target::Gfx6,
            w,
        );
        assert!(e.message.contains("VGPR pair"), "{e}");
        let e = err(
            "\ttbuffer_load_format_x v1, v1, s[8:11], 0 format:[BUF_DATA_FORMAT_33] offen\n",
            Target::Gfx6,
            w,
        );
        assert!(e.message.contains("BUF_DATA_FORMAT_33"), "{e}");
        let p = parse(
            "\ttbuffer_load_format_x v1, v1, s[8:11], 0 format:[BUF_NUM_FORMAT_FLOAT,BUF_DATA_FORMAT_32] offen\n",
            Target::Gfx7,
            w,
        )
        .unwrap();
        let i = p.insts().next().unwrap();
        assert_eq!(i.mods.format, Some(4 | 7 << 4));
        let e = err("\tv_add_co_u32 v1, vcc, v2, v3\n", Target::Gfx6, w);
        assert!(e.message.contains("v_add_i32"), "{e}");
        let e = err("\tv_mov_b32 v0, 0.15915494\n", Target::Gfx6, w);
        assert!(e.message.contains("1/(2π)"), "{e}");
    }

    #[test]
    fn parses_operands_and_modifiers() {
        let p = parse(
            "start:\n  buffer_load_dword v0, v1, s[4:7], 0 offen offset:16 ; c\n s_branch start\n",
            Target::Gfx8,
            WaveSize::W64,
        )
        .unwrap();
        assert_eq!(p.items.len(), 3);
        let Item::Inst(i) = &p.items[1].item else {
            panic!()
        };
        assert_eq!(i.op, Opcode::BufferLoadDword);
        assert!(i.mods.offen);
        assert_eq!(i.mods.offset, 16);
    }

    #[test]
    fn data_sections_and_relocations() {
        // As llc-19 prints a kernel, a global and its code end padding.
        let text = "\t.text\n\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n\
                    \ts_getpc_b64 s[0:1]\n\ts_add_u32 s0, s0, g@gotpcrel32@lo+4\n\
                    \ts_addc_u32 s1, s1, g@gotpcrel32@hi+12\n\ts_endpgm\n\
                    \t.section .rodata,\"a\",@progbits\n\t.p2align 6, 0x0\n\
                    \t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 1\n\t.end_amdhsa_kernel\n\
                    \t.text\n.Lend:\n\t.size k, .Lend-k\n\t.p2alignl 6, 0xbf9f0000\n\
                    \t.fill 48, 4, 0xbf9f0000\n\t.type g,@object\n\
                    \t.section .data,\"aw\",@progbits\n\t.globl g\n\t.p2align 3, 0x0\n\
                    g:\n\t.long 7, -1\n\t.quad k+4\n\t.zero 4\n\t.size g, 20\n\
                    \t.section \".note.GNU-stack\",\"\",@progbits\n";
        let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
        assert_eq!(crate::asm::print(&p), text, "printed as written");
        let layout = p.layout();
        // 4 (getpc) + 8 + 8 + 4 (endpgm) = 24 bytes of code, padded to 64, then 48 dwords.
        assert_eq!(layout.labels[".Lend"], 24);
        assert_eq!(layout.size, 64 + 48 * 4);
        assert!(!layout.labels.contains_key("g"), "g is data");
        let data = p.data_sections();
        assert_eq!(data.len(), 1, "empty sections are left out: {data:?}");
        let d = &data[0];
        assert_eq!((d.name.as_str(), d.align), (".data", 8));
        assert_eq!(d.labels, vec![("g".to_string(), 0)]);
        assert_eq!(
            d.bytes,
            [7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(d.fixups.len(), 1);
        assert_eq!((d.fixups[0].offset, d.fixups[0].size), (8, 8));
        assert_eq!(d.fixups[0].expr.to_string(), "k+4");
        let lit = p.insts().nth(1).unwrap().operands[2].clone();
        let Operand::Expr(e) = lit else {
            panic!("{lit:?}")
        };
        assert_eq!((e.reloc, e.addend), (Some(Reloc::GotPcRel32Lo), 4));
    }

    #[test]
    fn directives_of_generated_code() {
        let text = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1030\"\n\t.text\n\t.p2align 8\n\
                    \t.type main,@function\nmain:\n\ts_endpgm\n.Lend:\n\t.size main, .Lend-main\n\
                    \t.p2align 6\nf:\n\ts_endpgm\n";
        let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
        assert_eq!(crate::asm::print(&p), text, "printed as written");
        let layout = p.layout();
        assert_eq!(
            layout.labels["f"], 64,
            "s_endpgm ends at 4, aligned up to 64"
        );
        let e = err(
            ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"",
            Target::Gfx1030,
            WaveSize::W32,
        );
        assert!(e.message.contains("does not name gfx1030"), "{e}");
        parse(
            ".amdgcn_target \"amdgcn-amd-amdhsa--gfx802\"",
            Target::Gfx8,
            WaveSize::W64,
        )
        .unwrap();
        let e = err(".p2align 17", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("0..16"), "{e}");
        let e = err("a:\n.type a,@tls_object", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("@function"), "{e}");
        let e = err("a:\n.size a, .Lnone-a", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("`.Lnone`"), "{e}");
        let e = err("\t.text\n\t.bogus 1\n", Target::Gfx8, WaveSize::W64);
        assert_eq!((e.line, e.column), (2, 2), "{e}");
        assert!(e.message.contains("unknown directive `.bogus`"), "{e}");
        let e = err(".section .data\n  s_nop 0\n", Target::Gfx8, WaveSize::W64);
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        let e = err(
            "\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 1\n",
            Target::Gfx8,
            WaveSize::W64,
        );
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.message.contains(".end_amdhsa_kernel"), "{e}");
        let e = err(
            "\ts_add_u32 s0, s0, f@rel32@mid+4\nf:\n",
            Target::Gfx8,
            WaveSize::W64,
        );
        assert!(e.message.contains("`@rel32@mid`"), "{e}");
        let e = err(".amdgcn_target \"gfx8", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("closing"), "{e}");
    }

    #[test]
    fn aco_operand_forms() {
        let (t, w) = (Target::Gfx8, WaveSize::W64);
        // ACO's bytes for `v_cmp_class_f32_e64 s[28:29], neg(1), v77`: decoded, the constant
        // prints as `neg(1)` (`-1` would be another constant), with `_e64`.
        let bytes = [0x1c, 0x00, 0x10, 0xd0, 0x81, 0x9a, 0x02, 0x20];
        let p = crate::decode(&bytes, t, w).unwrap();
        assert_eq!(
            crate::asm::print(&p),
            "\tv_cmp_class_f32_e64 s[28:29], neg(1), v77\n"
        );
        assert_eq!(
            crate::encode(&parse(&crate::asm::print(&p), t, w).unwrap()).unwrap(),
            bytes
        );
        // Without `_e64`, llvm-mc would fold `neg(1)` into the literal 0x80000001.
        let e = err("\tv_add_f32 v0, neg(1), v1\n", t, w);
        assert!(e.message.contains("`_e64`"), "{e}");
        // `src_scc` is a source only; `v_swap_b32` has no 64-bit encoding; SDWA has no
        // literal.
        let e = err("\ts_mov_b32 src_scc, s1\n", t, w);
        assert!(e.message.contains("src_scc"), "{e}");
        let e = err("\tv_swap_b32_e64 v1, v2\n", Target::Gfx1030, WaveSize::W32);
        assert!(e.message.contains("no 64-bit"), "{e}");
        let e = err(
            "\tv_or_b32_sdwa v1, 0x1234, v2 src0_sel:DWORD src1_sel:DWORD\n",
            Target::Gfx1030,
            WaveSize::W32,
        );
        assert!(e.message.contains("SDWA source"), "{e}");
        // A 16-bit source takes 16-bit constants only (llvm-mc-19: "invalid operand").
        let e = err("\tv_cmp_class_f16 vcc, 0x12345, v1\n", t, w);
        assert!(e.message.contains("16-bit constant"), "{e}");
    }

    #[test]
    fn gfx12_refuses_what_rdna4_removed_by_name() {
        let e = err("s_waitcnt_vscnt null, 0\n", Target::Gfx12, WaveSize::W32);
        assert!(
            e.to_string()
                .contains("RDNA 4 removed it; write s_wait_storecnt"),
            "{e}"
        );
        let e = err("v_max_f32 v0, v1, v2\n", Target::Gfx12, WaveSize::W32);
        assert!(e.to_string().contains("write `v_max_num_f32`"), "{e}");
        let e = err(
            "global_load_b32 v1, v[2:3], off glc\n",
            Target::Gfx12,
            WaveSize::W32,
        );
        assert!(e.to_string().contains("`th:` and `scope:`"), "{e}");
        let e = err(
            "s_load_b32 s1, s[2:3], 0x800000\n",
            Target::Gfx12,
            WaveSize::W32,
        );
        assert!(e.to_string().contains("-0x800000..0x7fffff"), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("s_nop 0\n  s_mov_b32 s0, v1\n", Target::Gfx8, WaveSize::W64);
        assert_eq!((e.line, e.column), (2, 17));
        let e = err(
            "scratch_load_dword v0, off, s0",
            Target::Gfx8,
            WaveSize::W64,
        );
        assert!(e.message.contains("does not exist on gfx8"), "{e}");
        let e = err(
            "scratch_load_dword v0, off, s0",
            Target::Gfx1100,
            WaveSize::W32,
        );
        assert!(e.message.contains("scratch_load_b32"), "{e}");
        let e = err("s_mov_b64 s[1:2], 0", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("aligned"), "{e}");
        let e = err("v_cmp_eq_u32 vcc, v0, v1", Target::Gfx1030, WaveSize::W32);
        assert!(e.message.contains("wave32 lane mask"), "{e}");
        let e = err("v_fma_f32 v0, v1, v2, 0x1234", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("literal"), "{e}");
        let e = err("v_add_f32_e64 v0, s1, s2", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("constant bus"), "{e}");
        let e = err("s_branch nowhere", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("not defined"), "{e}");
        let e = err("a:\na:", Target::Gfx8, WaveSize::W64);
        assert_eq!(e.line, 2);
        let e = err("s_mov_b32 s0", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("missing"), "{e}");
        let e = err("s_mov_b32 s0, s1 glc", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("end of the line"), "{e}");
        let e = err("s_mov_b32 s102, 0", Target::Gfx8, WaveSize::W64);
        assert!(e.message.contains("s0-s101"), "{e}");
        assert!(parse("v_nop", Target::Gfx8, WaveSize::W32).is_err());
        let e = err("s_nop 0", Target::Gfx9, WaveSize::W64);
        assert!(
            e.message.contains("no instruction encodings for gfx9"),
            "{e}"
        );
    }
}
