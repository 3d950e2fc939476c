//! A recursive-descent reader for what a kernel's ABI depends on in OpenCL C: structure,
//! union and typedef definitions (with OpenCL C sizes and alignments) and `kernel`
//! prototypes. Kernel and function bodies are skipped by brace matching; other top-level
//! declarations are skipped up to their `;`.

use std::collections::HashMap;
use std::fmt;

use super::lexer::{tokenize, Tok, Token};
use crate::types::{
    AddrSpace, ArgType, ImageAccess, ImageDim, Kernel, KernelArg, Pointee, StructType, ValueType,
};

/// A located error in OpenCL C source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SourceError {
    /// Byte offset of the offending text.
    pub offset: usize,
    /// Length in bytes of the offending text (at least 1 where there is text).
    pub len: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl SourceError {
    /// An error at byte range `offset..offset+len` of `src`.
    pub fn at(src: &str, offset: usize, len: usize, message: impl Into<String>) -> SourceError {
        let offset = offset.min(src.len());
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = src[line_start..offset].chars().count() + 1;
        SourceError {
            offset,
            len,
            line,
            column,
            message: message.into(),
        }
    }
}

/// A type as the reader knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CType {
    Void,
    Value(ValueType),
    Struct(StructType),
    /// An array typedef: usable as a structure member only.
    Array {
        name: String,
        size: u32,
        align: u32,
    },
    Image(ImageDim),
    Sampler,
    Counter32,
    /// A type the reader knows but that cannot appear in a kernel's ABI (`half`, `bool`,
    /// `size_t`, …); the message says why.
    Unsupported(String),
}

/// Attributes the reader understands; others are skipped.
#[derive(Debug, Clone, Copy, Default)]
struct Attrs {
    packed: bool,
    aligned: Option<u32>,
    reqd_work_group_size: Option<[u32; 3]>,
}

/// Declaration specifiers of a parameter, member or typedef.
#[derive(Debug, Clone)]
struct Specs {
    ty: CType,
    ty_start: usize,
    ty_end: usize,
    is_const: bool,
    is_volatile: bool,
    space: Option<(AddrSpace, usize)>,
    access: Option<(AccessQual, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AccessQual {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// The type of an enumeration: `uint`, as AMD's compiler records enumeration arguments
/// (`;value:NAME:u32:1:1:OFFSET` in structkernel2.cl's binary in CLRX's test data).
const ENUM_TYPE: ValueType = ValueType {
    scalar: crate::types::Scalar::UInt,
    lanes: 1,
};

/// Types that are recognised but rejected, with the reason.
const UNSUPPORTED_TYPES: [(&str, &str); 12] = [
    ("half", "half is not supported in kernel arguments"),
    ("bool", "bool is not allowed in kernel arguments"),
    ("size_t", "size_t is not allowed in kernel arguments"),
    ("ptrdiff_t", "ptrdiff_t is not allowed in kernel arguments"),
    ("intptr_t", "intptr_t is not allowed in kernel arguments"),
    ("uintptr_t", "uintptr_t is not allowed in kernel arguments"),
    ("event_t", "event_t is not allowed in kernel arguments"),
    (
        "counter64_t",
        "Unsupported counter64 type (only counter32_t is supported)",
    ),
    (
        "image2d_msaa_t",
        "MSAA images are not supported by the OpenCL 1.2 binary format",
    ),
    (
        "image2d_depth_t",
        "depth images are not supported by the OpenCL 1.2 binary format",
    ),
    (
        "queue_t",
        "queue_t is not supported by the OpenCL 1.2 binary format",
    ),
    (
        "pipe",
        "pipes are not supported by the OpenCL 1.2 binary format",
    ),
];

/// Deepest nesting of structure definitions the reader accepts (it recurses on them).
const MAX_NESTING: usize = 64;
/// Largest structure or array typedef in bytes; cb1 itself is at most 64 KiB.
const MAX_TYPE_BYTES: u32 = 1 << 24;

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    typedefs: HashMap<String, CType>,
    tags: HashMap<String, StructType>,
}

type PResult<T> = Result<T, SourceError>;

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> PResult<Parser<'a>> {
        let toks = tokenize(src).map_err(|(off, msg)| SourceError::at(src, off, 1, msg))?;
        Ok(Parser {
            src,
            toks,
            pos: 0,
            depth: 0,
            typedefs: HashMap::new(),
            tags: HashMap::new(),
        })
    }

    fn peek(&self) -> Option<Token> {
        self.toks.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<Token> {
        self.toks.get(self.pos + k).copied()
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    fn is_ident(&self, word: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.tok == Tok::Ident && self.text(t) == word)
    }

    fn is(&self, tok: Tok) -> bool {
        self.peek().is_some_and(|t| t.tok == tok)
    }

    fn bump(&mut self) -> Option<Token> {
        let t = self.peek();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// An error at the current token (or at the end of the source).
    fn err_here(&self, message: impl Into<String>) -> SourceError {
        match self.peek() {
            Some(t) => SourceError::at(self.src, t.start, t.end - t.start, message),
            None => SourceError::at(self.src, self.src.len(), 0, message),
        }
    }

    fn err_tok(&self, t: Token, message: impl Into<String>) -> SourceError {
        SourceError::at(self.src, t.start, t.end - t.start, message)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("'{}'", self.text(t)),
            None => "end of file".to_string(),
        }
    }

    fn expect(&mut self, tok: Tok, what: &str) -> PResult<Token> {
        if self.is(tok) {
            Ok(self.bump().expect("checked"))
        } else {
            Err(self.err_here(format!("expected {what}, found {}", self.found())))
        }
    }

    fn expect_ident(&mut self, what: &str) -> PResult<(String, Token)> {
        match self.peek() {
            Some(t) if t.tok == Tok::Ident => {
                self.pos += 1;
                Ok((self.text(t).to_string(), t))
            }
            _ => Err(self.err_here(format!("expected {what}, found {}", self.found()))),
        }
    }

    /// Skips a balanced group starting at the current opening token; returns the index of
    /// the closing token.
    fn skip_group(&mut self) -> PResult<()> {
        let open = self.bump().expect("caller checked");
        let mut stack = vec![open];
        while let Some(t) = self.bump() {
            match t.tok {
                Tok::LParen | Tok::LBrace | Tok::LBracket => stack.push(t),
                Tok::RParen | Tok::RBrace | Tok::RBracket => {
                    let o = stack.pop().expect("non-empty");
                    let matches = matches!(
                        (o.tok, t.tok),
                        (Tok::LParen, Tok::RParen)
                            | (Tok::LBrace, Tok::RBrace)
                            | (Tok::LBracket, Tok::RBracket)
                    );
                    if !matches {
                        return Err(self.err_tok(
                            t,
                            format!(
                                "'{}' does not match '{}' at line {}",
                                self.text(t),
                                self.text(o),
                                SourceError::at(self.src, o.start, 1, "").line
                            ),
                        ));
                    }
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        // The outermost group is reported: that is where the unterminated body starts.
        let o = stack[0];
        Err(self.err_tok(o, format!("'{}' is never closed", self.text(o))))
    }

    /// Parses `__attribute__((...))` groups at the current position.
    fn attributes(&mut self, attrs: &mut Attrs) -> PResult<()> {
        while self.is_ident("__attribute__") || self.is_ident("__attribute") {
            self.bump();
            if !self.is(Tok::LParen) {
                return Err(self.err_here(format!(
                    "expected '((' after __attribute__, found {}",
                    self.found()
                )));
            }
            let start = self.pos;
            self.skip_group()?;
            let end = self.pos;
            // Look inside for the attributes that matter.
            let mut i = start;
            while i < end {
                let t = self.toks[i];
                if t.tok == Tok::Ident {
                    let name = self.text(t).trim_matches('_');
                    match name {
                        "packed" => attrs.packed = true,
                        "aligned" => {
                            let n = self.number_args(i + 1, end)?;
                            attrs.aligned = Some(match n.as_slice() {
                                [] => 16,
                                [v] if v.is_power_of_two() => *v,
                                _ => {
                                    return Err(self
                                        .err_tok(t, "aligned(N) needs one power-of-two integer"))
                                }
                            });
                        }
                        "reqd_work_group_size" => {
                            let n = self.number_args(i + 1, end)?;
                            match n.as_slice() {
                                [x, y, z] => attrs.reqd_work_group_size = Some([*x, *y, *z]),
                                _ => {
                                    return Err(self
                                        .err_tok(t, "reqd_work_group_size needs three integers"))
                                }
                            }
                        }
                        _ => {}
                    }
                }
                i += 1;
            }
        }
        Ok(())
    }

    /// Integer literals in the parenthesised list starting at token `i` (empty if there is
    /// no list).
    fn number_args(&self, i: usize, end: usize) -> PResult<Vec<u32>> {
        let mut out = Vec::new();
        if i >= end || self.toks[i].tok != Tok::LParen {
            return Ok(out);
        }
        let mut j = i + 1;
        while j < end && self.toks[j].tok != Tok::RParen {
            let t = self.toks[j];
            match t.tok {
                Tok::Number => out.push(self.int_literal(t)?),
                Tok::Comma => {}
                _ => return Err(self.err_tok(t, "expected an integer literal")),
            }
            j += 1;
        }
        Ok(out)
    }

    fn int_literal(&self, t: Token) -> PResult<u32> {
        let text = self.text(t).trim_end_matches(['u', 'U', 'l', 'L']);
        let v = if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            u32::from_str_radix(h, 16).ok()
        } else if text.len() > 1 && text.starts_with('0') {
            u32::from_str_radix(&text[1..], 8).ok()
        } else {
            text.parse().ok()
        };
        v.ok_or_else(|| self.err_tok(t, format!("invalid integer literal '{}'", self.text(t))))
    }

    /// Declaration specifiers: qualifiers, address spaces, access qualifiers and one base
    /// type (possibly a structure definition).
    fn specifiers(&mut self, attrs: &mut Attrs) -> PResult<Specs> {
        let mut ty: Option<(CType, usize, usize)> = None;
        let mut is_const = false;
        let mut is_volatile = false;
        let mut space = None;
        let mut access = None;
        let mut sign: Option<(bool, Token)> = None;
        loop {
            self.attributes(attrs)?;
            let Some(t) = self.peek() else { break };
            if t.tok != Tok::Ident {
                break;
            }
            let word = self.text(t);
            let bare = word.strip_prefix("__").unwrap_or(word);
            match bare {
                "const" => is_const = true,
                "volatile" => is_volatile = true,
                "restrict" => {}
                "global" => space = Some((AddrSpace::Global, t.start)),
                "constant" => space = Some((AddrSpace::Constant, t.start)),
                "local" => space = Some((AddrSpace::Local, t.start)),
                "private" => {}
                "read_only" => access = Some((AccessQual::ReadOnly, t.start)),
                "write_only" => access = Some((AccessQual::WriteOnly, t.start)),
                "read_write" => access = Some((AccessQual::ReadWrite, t.start)),
                "unsigned" | "signed" => sign = Some((bare == "unsigned", t)),
                "struct" | "union" => {
                    if ty.is_some() {
                        return Err(self.err_tok(t, "two types in one declaration"));
                    }
                    let st = self.struct_specifier()?;
                    let end = self.toks[self.pos - 1].end;
                    ty = Some((CType::Struct(st), t.start, end));
                    continue;
                }
                "enum" => {
                    if ty.is_some() {
                        return Err(self.err_tok(t, "two types in one declaration"));
                    }
                    self.enum_specifier()?;
                    let end = self.toks[self.pos - 1].end;
                    ty = Some((CType::Value(ENUM_TYPE), t.start, end));
                    continue;
                }
                _ => {
                    if let Some((_, st)) = sign {
                        if ty.is_none() && !is_integer_word(word) && self.base_type(word).is_some()
                        {
                            return Err(self.err_tok(st, "signed/unsigned needs an integer type"));
                        }
                    }
                    if ty.is_some() || (sign.is_some() && !is_integer_word(word)) {
                        break;
                    }
                    let Some(c) = self.base_type(word) else {
                        if sign.is_none() {
                            return Err(self.err_tok(t, format!("unknown type '{word}'")));
                        }
                        break;
                    };
                    ty = Some((c, t.start, t.end));
                }
            }
            self.pos += 1;
        }
        let (ty, ty_start, ty_end) = match (ty, sign) {
            (Some((CType::Value(v), s, e)), Some((unsigned, st))) => {
                let name = format!("{}{}", if unsigned { "u" } else { "" }, v.scalar.name());
                let c = ValueType::from_name(&name)
                    .filter(|_| v.lanes == 1 && is_integer_word(v.scalar.name()))
                    .ok_or_else(|| self.err_tok(st, "signed/unsigned needs an integer type"))?;
                (CType::Value(c), st.start.min(s), e)
            }
            (Some(_), Some((_, st))) => {
                return Err(self.err_tok(st, "signed/unsigned needs an integer type"))
            }
            (None, Some((unsigned, st))) => (
                CType::Value(
                    ValueType::from_name(if unsigned { "uint" } else { "int" }).expect("int"),
                ),
                st.start,
                st.end,
            ),
            (Some(t), None) => t,
            (None, None) => {
                return Err(self.err_here(format!("expected a type, found {}", self.found())))
            }
        };
        Ok(Specs {
            ty,
            ty_start,
            ty_end,
            is_const,
            is_volatile,
            space,
            access,
        })
    }

    /// The type a single identifier names, if it names one.
    fn base_type(&self, word: &str) -> Option<CType> {
        if let Some(v) = ValueType::from_name(word) {
            return Some(CType::Value(v));
        }
        if let Some(d) = ImageDim::from_cl_name(word) {
            return Some(CType::Image(d));
        }
        match word {
            "void" => return Some(CType::Void),
            "sampler_t" => return Some(CType::Sampler),
            "counter32_t" => return Some(CType::Counter32),
            _ => {}
        }
        if let Some((_, why)) = UNSUPPORTED_TYPES.iter().find(|(n, _)| *n == word) {
            return Some(CType::Unsupported(why.to_string()));
        }
        if let Some(rest) = word.strip_prefix("half") {
            if rest.parse::<u8>().is_ok() {
                return Some(CType::Unsupported(
                    "half vectors are not supported in kernel arguments".into(),
                ));
            }
        }
        self.typedefs.get(word).cloned()
    }

    /// `enum TAG`, `enum TAG { ... }` or `enum { ... }`: the enumerators are skipped, since
    /// only the type's size matters to the ABI.
    fn enum_specifier(&mut self) -> PResult<()> {
        self.bump();
        if self.is(Tok::Ident) {
            self.expect_ident("enumeration tag")?;
            if !self.is(Tok::LBrace) {
                return Ok(());
            }
        }
        if !self.is(Tok::LBrace) {
            return Err(self.err_here(format!(
                "expected an enumeration tag or '{{', found {}",
                self.found()
            )));
        }
        self.skip_group()
    }

    /// `struct TAG`, `struct TAG { ... }` or `struct { ... }` (also `union`).
    fn struct_specifier(&mut self) -> PResult<StructType> {
        let kw = self.bump().expect("caller checked");
        let is_union = self.text(kw).ends_with("union");
        let mut attrs = Attrs::default();
        self.attributes(&mut attrs)?;
        let tag = if self.is(Tok::Ident) && !self.is_ident("__attribute__") {
            Some(self.expect_ident("structure tag")?)
        } else {
            None
        };
        self.attributes(&mut attrs)?;
        if !self.is(Tok::LBrace) {
            let Some((name, _)) = tag else {
                return Err(self.err_here(format!(
                    "expected a structure tag or '{{', found {}",
                    self.found()
                )));
            };
            // A tag without a body: a known structure, or an incomplete one (size 0, which a
            // pointer records as "opaque").
            return Ok(self.tags.get(&name).cloned().unwrap_or(StructType {
                name,
                size: 0,
                align: 1,
            }));
        }
        let open = self.bump().expect("checked");
        if self.depth >= MAX_NESTING {
            return Err(self.err_tok(
                open,
                format!("structures nested deeper than {MAX_NESTING} levels"),
            ));
        }
        self.depth += 1;
        let st = self.struct_body(open, is_union, tag, attrs);
        self.depth -= 1;
        st
    }

    /// The members of a structure after its `{`, up to and including `}`.
    fn struct_body(
        &mut self,
        open: Token,
        is_union: bool,
        tag: Option<(String, Token)>,
        mut attrs: Attrs,
    ) -> PResult<StructType> {
        let mut offset = 0u32;
        let mut size = 0u32;
        let mut align = 1u32;
        let mut members = 0;
        while !self.is(Tok::RBrace) {
            if self.peek().is_none() {
                return Err(self.err_tok(open, "structure body is never closed"));
            }
            let mut mattrs = Attrs::default();
            let specs = self.specifiers(&mut mattrs)?;
            let (msize, malign) = self.member_layout(&specs)?;
            loop {
                if self.is(Tok::Star) {
                    return Err(self.err_here(
                        "pointer members are not allowed in kernel argument structures",
                    ));
                }
                let (_, name_tok) = self.expect_ident("a member name")?;
                let mut count = 1u32;
                while self.is(Tok::LBracket) {
                    self.bump();
                    let n = self.expect(Tok::Number, "an array size (integer literal)")?;
                    let v = self.int_literal(n)?;
                    if v == 0 {
                        return Err(self.err_tok(n, "array size must be positive"));
                    }
                    count = count
                        .checked_mul(v)
                        .ok_or_else(|| self.err_tok(n, "array too large"))?;
                    self.expect(Tok::RBracket, "']'")?;
                }
                if self.is(Tok::Punct) && self.text(self.peek().expect("checked")) == ":" {
                    return Err(self.err_here("bit-fields are not supported"));
                }
                let mut dattrs = mattrs;
                self.attributes(&mut dattrs)?;
                let a = if attrs.packed {
                    1
                } else {
                    malign.max(dattrs.aligned.unwrap_or(1))
                };
                let total = msize
                    .checked_mul(count)
                    .ok_or_else(|| self.err_tok(name_tok, "structure too large"))?;
                if is_union {
                    size = size.max(total);
                } else {
                    offset = offset.div_ceil(a) * a;
                    offset = offset
                        .checked_add(total)
                        .ok_or_else(|| self.err_tok(name_tok, "structure too large"))?;
                }
                align = align.max(a);
                members += 1;
                if self.is(Tok::Comma) {
                    self.bump();
                    continue;
                }
                break;
            }
            self.expect(Tok::Semi, "';' after a structure member")?;
        }
        self.bump();
        self.attributes(&mut attrs)?;
        if members == 0 {
            return Err(self.err_tok(open, "empty structures are not allowed in OpenCL C"));
        }
        if let Some(a) = attrs.aligned {
            align = align.max(a);
        }
        let raw = if is_union { size } else { offset };
        let size = raw.div_ceil(align) * align;
        if size > MAX_TYPE_BYTES {
            return Err(self.err_tok(
                open,
                format!("structure of {size} bytes is too large (at most {MAX_TYPE_BYTES})"),
            ));
        }
        let name = tag
            .as_ref()
            .map_or_else(|| "<anonymous>".to_string(), |t| t.0.clone());
        let st = StructType {
            name: name.clone(),
            size,
            align,
        };
        if tag.is_some() {
            self.tags.insert(name, st.clone());
        }
        Ok(st)
    }

    fn member_layout(&self, specs: &Specs) -> PResult<(u32, u32)> {
        let err =
            |m: String| SourceError::at(self.src, specs.ty_start, specs.ty_end - specs.ty_start, m);
        match &specs.ty {
            CType::Value(v) => Ok((v.size(), v.align())),
            CType::Struct(s) if s.size == 0 => {
                Err(err(format!("structure '{}' is incomplete here", s.name)))
            }
            CType::Struct(s) => Ok((s.size, s.align)),
            CType::Array { size, align, .. } => Ok((*size, *align)),
            CType::Unsupported(why) => Err(err(why.clone())),
            CType::Void => Err(err("a member cannot be void".into())),
            CType::Image(_) | CType::Sampler | CType::Counter32 => Err(err(
                "images, samplers and counters cannot be structure members".into(),
            )),
        }
    }

    /// `typedef SPECS DECL[, DECL]* ;`
    fn typedef(&mut self) -> PResult<()> {
        self.bump();
        let mut attrs = Attrs::default();
        let specs = self.specifiers(&mut attrs)?;
        loop {
            let mut pointer = false;
            while self.is(Tok::Star) {
                self.bump();
                pointer = true;
                while self.is_ident("const")
                    || self.is_ident("restrict")
                    || self.is_ident("volatile")
                {
                    self.bump();
                }
            }
            let (name, _) = self.expect_ident("a typedef name")?;
            let mut ty = specs.ty.clone();
            let mut count = 1u32;
            let mut is_array = false;
            while self.is(Tok::LBracket) {
                self.bump();
                let n = self.expect(Tok::Number, "an array size (integer literal)")?;
                count = count.saturating_mul(self.int_literal(n)?);
                self.expect(Tok::RBracket, "']'")?;
                is_array = true;
            }
            self.attributes(&mut attrs)?;
            if pointer {
                ty = CType::Unsupported(format!(
                    "pointer typedef '{name}' is not supported; write the pointer in the argument"
                ));
            } else if is_array {
                ty = match self.member_layout(&specs) {
                    Ok((s, a)) if s.saturating_mul(count) <= MAX_TYPE_BYTES => CType::Array {
                        name: name.clone(),
                        size: s * count,
                        align: a,
                    },
                    Ok(_) => CType::Unsupported(format!("array typedef '{name}' is too large")),
                    Err(e) => CType::Unsupported(e.message),
                };
            } else if let (CType::Struct(s), Some(a)) = (&ty, attrs.aligned) {
                let align = s.align.max(a);
                ty = CType::Struct(StructType {
                    name: s.name.clone(),
                    size: s.size.div_ceil(align) * align,
                    align,
                });
            }
            if let CType::Struct(s) = &mut ty {
                if s.name == "<anonymous>" {
                    s.name = name.clone();
                }
            }
            self.typedefs.insert(name, ty);
            if self.is(Tok::Comma) {
                self.bump();
                continue;
            }
            break;
        }
        self.expect(Tok::Semi, "';' after a typedef")?;
        Ok(())
    }

    /// Skips one top-level declaration or function definition.
    fn skip_declaration(&mut self) -> PResult<()> {
        let mut saw_assign = false;
        while let Some(t) = self.peek() {
            match t.tok {
                Tok::Semi => {
                    self.bump();
                    return Ok(());
                }
                Tok::Assign => {
                    saw_assign = true;
                    self.bump();
                }
                Tok::LBrace => {
                    self.skip_group()?;
                    if !saw_assign {
                        if self.is(Tok::Semi) {
                            self.bump();
                        }
                        return Ok(());
                    }
                }
                Tok::LParen | Tok::LBracket => self.skip_group()?,
                Tok::RParen | Tok::RBrace | Tok::RBracket => {
                    return Err(self.err_tok(t, format!("unexpected '{}'", self.text(t))))
                }
                _ => {
                    self.bump();
                }
            }
        }
        Ok(())
    }

    /// A kernel from `kernel` to the end of its body (or `;`).
    fn kernel(&mut self, mut attrs: Attrs) -> PResult<Kernel> {
        self.bump();
        self.attributes(&mut attrs)?;
        if !self.is_ident("void") {
            return Err(self.err_here(format!("a kernel must return void, found {}", self.found())));
        }
        self.bump();
        self.attributes(&mut attrs)?;
        let (name, _) = self.expect_ident("the kernel name")?;
        self.expect(Tok::LParen, "'(' after the kernel name")?;
        let mut args = Vec::new();
        if self.is_ident("void") && self.peek_at(1).is_some_and(|t| t.tok == Tok::RParen) {
            self.bump();
        }
        while !self.is(Tok::RParen) {
            args.push(self.param()?);
            if self.is(Tok::Comma) {
                self.bump();
            } else if !self.is(Tok::RParen) {
                return Err(self.err_here(format!(
                    "expected ',' or ')' after an argument, found {}",
                    self.found()
                )));
            }
        }
        self.bump();
        self.attributes(&mut attrs)?;
        if self.is(Tok::LBrace) {
            self.skip_group()?;
        } else {
            self.expect(Tok::Semi, "a kernel body '{' or ';'")?;
        }
        // A set, not a scan of the earlier arguments: a generated kernel may have many.
        let mut seen = std::collections::HashSet::new();
        for a in &args {
            if !seen.insert(a.0.name.as_str()) {
                return Err(self.err_tok(
                    a.1,
                    format!("Kernel argument '{}' is already defined", a.0.name),
                ));
            }
        }
        Ok(Kernel {
            name,
            args: args.into_iter().map(|a| a.0).collect(),
            reqd_work_group_size: attrs.reqd_work_group_size,
        })
    }

    /// One kernel parameter; returns it with its name token.
    fn param(&mut self) -> PResult<(KernelArg, Token)> {
        let mut attrs = Attrs::default();
        let specs = self.specifiers(&mut attrs)?;
        let mut stars = Vec::new();
        let mut is_restrict = false;
        let mut unused = false;
        loop {
            if self.is(Tok::Star) {
                stars.push(self.bump().expect("checked"));
            } else if self.is_ident("const") || self.is_ident("volatile") {
                self.bump();
            } else if self.is_ident("restrict") || self.is_ident("__restrict") {
                is_restrict = true;
                self.bump();
            } else if !stars.is_empty()
                && [
                    "global",
                    "__global",
                    "constant",
                    "__constant",
                    "local",
                    "__local",
                ]
                .iter()
                .any(|w| self.is_ident(w))
            {
                return Err(self.err_here(
                    "the address space must come before '*' (it qualifies what the pointer points to)",
                ));
            } else if self.is(Tok::Unused) {
                self.bump();
                unused = true;
                if !self.is(Tok::Ident) {
                    unused = false;
                }
            } else {
                self.attributes(&mut attrs)?;
                break;
            }
        }
        let (name, name_tok) = self.expect_ident("an argument name")?;
        if self.is(Tok::LBracket) {
            return Err(self.err_here("array arguments are not allowed in kernels"));
        }
        self.attributes(&mut attrs)?;
        let ty_err =
            |m: String| SourceError::at(self.src, specs.ty_start, specs.ty_end - specs.ty_start, m);
        if stars.len() > 1 {
            return Err(self.err_tok(
                stars[1],
                "pointers to pointers are not allowed in kernel arguments",
            ));
        }
        let ty = if let Some(star) = stars.first() {
            let pointee = match &specs.ty {
                CType::Void => Pointee::Void,
                CType::Value(v) => Pointee::Value { ty: *v },
                CType::Struct(s) => Pointee::Struct { ty: s.clone() },
                CType::Array { name, .. } => {
                    return Err(ty_err(format!("pointer to array typedef '{name}' is not supported")))
                }
                CType::Image(_) | CType::Sampler | CType::Counter32 => {
                    return Err(ty_err("Illegal pointer type: pointers to images, samplers or counters are not allowed".into()))
                }
                CType::Unsupported(why) => return Err(ty_err(why.clone())),
            };
            let Some((space, _)) = specs.space else {
                return Err(self.err_tok(*star, format!(
                    "pointer argument '{name}' needs an address space (expected __global, __constant or __local)"
                )));
            };
            if let Some((_, at)) = specs.access {
                return Err(SourceError::at(
                    self.src,
                    at,
                    1,
                    "access qualifiers apply to images only",
                ));
            }
            ArgType::Pointer {
                pointee,
                space,
                is_const: specs.is_const,
                is_volatile: specs.is_volatile,
                is_restrict,
            }
        } else {
            if let Some((space, at)) = specs.space {
                return Err(SourceError::at(
                    self.src,
                    at,
                    1,
                    format!(
                    "argument '{name}' is passed by value and cannot be in the {} address space",
                    space.name()
                ),
                ));
            }
            if let (Some((_, at)), false) = (specs.access, matches!(specs.ty, CType::Image(_))) {
                return Err(SourceError::at(
                    self.src,
                    at,
                    1,
                    "access qualifiers apply to images only",
                ));
            }
            match &specs.ty {
                CType::Value(v) => ArgType::Value { ty: *v },
                CType::Struct(s) if s.size == 0 => {
                    return Err(ty_err(format!("structure '{}' is incomplete here", s.name)))
                }
                CType::Struct(s) => ArgType::Struct { ty: s.clone() },
                CType::Image(dim) => {
                    let access = match specs.access {
                        None | Some((AccessQual::ReadOnly, _)) => ImageAccess::ReadOnly,
                        Some((AccessQual::WriteOnly, _)) => ImageAccess::WriteOnly,
                        Some((AccessQual::ReadWrite, at)) => {
                            return Err(SourceError::at(self.src, at, 1,
                                "read_write images are not supported by the OpenCL 1.2 binary format (expected __read_only or __write_only)"))
                        }
                    };
                    ArgType::Image { dim: *dim, access }
                }
                CType::Sampler => ArgType::Sampler,
                CType::Counter32 => ArgType::Counter32,
                CType::Void => return Err(ty_err(format!("argument '{name}' cannot be void"))),
                CType::Array { name: n, .. } => {
                    return Err(ty_err(format!(
                        "array typedef '{n}' cannot be passed by value"
                    )))
                }
                CType::Unsupported(why) => return Err(ty_err(why.clone())),
            }
        };
        let type_name = self
            .written_type_name(&specs, !stars.is_empty())
            .unwrap_or_else(|| ty.default_type_name());
        Ok((
            KernelArg {
                name,
                type_name,
                ty,
                used: !unused,
                explicit_id: None,
            },
            name_tok,
        ))
    }

    /// The reflection name AMD's compiler records for a structure, union, enumeration or
    /// typedef type: the name as written (`struct mystruct`, `typ1`, with `*` for a
    /// pointer), as in the binaries of CLRX's test data (alltypes.cl, structkernel2.cl).
    /// `None` for built-in types and for types defined in place (`struct { ... }`).
    fn written_type_name(&self, specs: &Specs, pointer: bool) -> Option<String> {
        let text = self.src.get(specs.ty_start..specs.ty_end)?;
        if text.contains('{') {
            return None;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let named = match words.as_slice() {
            [kw, _] => ["struct", "union", "enum"].contains(kw),
            [one] => self.typedefs.contains_key(*one),
            _ => false,
        };
        named.then(|| format!("{}{}", words.join(" "), if pointer { "*" } else { "" }))
    }

    /// The whole file.
    fn program(&mut self) -> PResult<Vec<Kernel>> {
        let mut kernels = Vec::new();
        while let Some(t) = self.peek() {
            match t.tok {
                Tok::Semi => {
                    self.bump();
                }
                Tok::Ident => {
                    let word = self.text(t);
                    if word == "typedef" {
                        self.typedef()?;
                        continue;
                    }
                    let mut attrs = Attrs::default();
                    self.attributes(&mut attrs)?;
                    if self.is_ident("kernel") || self.is_ident("__kernel") {
                        kernels.push(self.kernel(attrs)?);
                    } else if self.is_ident("struct") || self.is_ident("union") {
                        self.struct_specifier()?;
                        self.skip_declaration()?;
                    } else {
                        self.skip_declaration()?;
                    }
                }
                _ => self.skip_declaration()?,
            }
        }
        Ok(kernels)
    }
}

fn is_integer_word(word: &str) -> bool {
    matches!(word, "char" | "short" | "int" | "long")
}

/// Reads every kernel of an OpenCL C source, in source order.
pub fn parse_kernels(src: &str) -> Result<Vec<Kernel>, SourceError> {
    Parser::new(src)?.program()
}

/// Type definitions (structures, unions, typedefs) read from OpenCL C, for resolving the
/// argument types of a JSON/TOML description.
pub struct TypeEnv {
    typedefs: HashMap<String, CType>,
    tags: HashMap<String, StructType>,
}

/// Reads the definitions of `src` (kernels in it are read and ignored).
pub fn parse_type_env(src: &str) -> Result<TypeEnv, SourceError> {
    let mut p = Parser::new(src)?;
    p.program()?;
    Ok(TypeEnv {
        typedefs: p.typedefs,
        tags: p.tags,
    })
}

/// Reads one parameter declaration (`const global uint* a`) with the definitions of `env`.
pub fn parse_param(env: &TypeEnv, text: &str) -> Result<KernelArg, SourceError> {
    let mut p = Parser::new(text)?;
    p.typedefs = env.typedefs.clone();
    p.tags = env.tags.clone();
    let (arg, _) = p.param()?;
    if p.peek().is_some() {
        return Err(p.err_here(format!("unexpected {} after the argument", p.found())));
    }
    Ok(arg)
}

/// Picks the kernel called `name`, or the only kernel when `name` is `None`.
pub fn select_kernel(kernels: Vec<Kernel>, name: Option<&str>) -> Result<Kernel, String> {
    let names: Vec<String> = kernels.iter().map(|k| k.name.clone()).collect();
    match name {
        Some(n) => kernels.into_iter().find(|k| k.name == n).ok_or_else(|| {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            format!(
                "no kernel {}",
                gpuabi_layout::suggest::suggest(n, "kernels", &names)
            )
        }),
        None => match kernels.len() {
            0 => Err("no kernel found (expected a '__kernel void NAME(...)' definition)".into()),
            1 => Ok(kernels.into_iter().next().expect("one")),
            _ => Err(format!(
                "several kernels ({}); choose one with --kernel",
                names.join(", ")
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_are_uint_and_named_types_keep_their_spelling() {
        let src = "typedef enum _E { A = 1, B } E; struct s { int x; };\n\
                   typedef ulong4 t4;\n\
                   kernel void k(E e, enum _E f, struct s v, global struct s* p, t4 w, uint n) {}";
        let k = parse_kernels(src).unwrap().remove(0);
        let names: Vec<&str> = k.args.iter().map(|a| a.type_name.as_str()).collect();
        assert_eq!(
            names,
            ["E", "enum _E", "struct s", "struct s*", "t4", "uint"]
        );
        assert_eq!(k.args[0].ty, ArgType::Value { ty: ENUM_TYPE });
        assert_eq!(k.args[1].ty, ArgType::Value { ty: ENUM_TYPE });
    }
}
