//! A machine program: labels, directives and instructions in order, and their layout in
//! bytes.

use std::collections::HashMap;

use crate::encoding;
use crate::error::ProgramError;
use crate::inst::Inst;
use crate::operand::{Expr, Operand};
use crate::origin::Origin;
use crate::target::{Target, WaveSize};
use crate::validate::{check_inst, check_operand};

/// An assembler directive the project understands: the ones a code generator's output
/// carries around its functions and data (the directives llc-19 prints). Anything else is
/// an error naming the directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// `.text`: code follows.
    Text,
    /// `.section NAME[,FLAGS...]`: what follows goes to section NAME (code if NAME is
    /// `.text` or starts with `.text.`, data otherwise); `rest` is the text after the name
    /// as written, kept for printing.
    Section {
        /// The section name, without quotes.
        name: String,
        /// The flags after the name as written (`,"a",@progbits`), or empty.
        rest: String,
    },
    /// `.globl NAME`: the label is visible outside the file.
    Globl(String),
    /// `.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"`: the target id, which must name the
    /// program's target.
    AmdgcnTarget(String),
    /// `.p2align N`: the next item starts at a multiple of 2^N bytes (LLVM pads code with
    /// `s_nop 0`).
    P2align(u8),
    /// `.p2align N, FILL` (padding bytes of value FILL) or `.p2alignl N, FILL` (padding
    /// dwords of value FILL, `word` set).
    P2alignFill {
        /// The power of two.
        power: u8,
        /// The padding value.
        fill: u32,
        /// Whether the padding is dwords (`.p2alignl`) rather than bytes.
        word: bool,
    },
    /// `.type NAME,@function`: the label is a function.
    TypeFunction(String),
    /// `.size NAME, EXPR`: the size of the function at the label (usually `.Lend-NAME`).
    Size(String, Expr),
    /// Data: `.byte`, `.short`, `.long` or `.quad` (`size` 1, 2, 4 or 8) with values, each
    /// a number or a label expression (an address the loader fills in).
    Data {
        /// Bytes per value.
        size: u8,
        /// The values in order.
        values: Vec<DataValue>,
    },
    /// `.fill REPEAT, SIZE, VALUE` (`.zero N` is `.fill N, 1, 0` and printed as `.zero`
    /// when `zero` is set): REPEAT copies of VALUE in SIZE bytes.
    Fill {
        /// Number of copies.
        repeat: u32,
        /// Bytes per copy (1, 2, 4 or 8).
        size: u8,
        /// The value, little-endian.
        value: u64,
        /// Written as `.zero REPEAT`.
        zero: bool,
    },
    /// A directive that changes neither code nor data nor a label's address (symbol
    /// visibility such as `.hidden`, `.type NAME,@object`, `.size NAME, 256`, the code
    /// object version, or a whole `.amdhsa_kernel`, `.amdgpu_metadata` or
    /// `.amdgpu_pal_metadata` block that the HSA and PAL readers interpret); kept as
    /// written, one line per string, so that printing gives it back.
    Verbatim(Vec<String>),
}

/// One value of a [`Directive::Data`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataValue {
    /// A number, truncated to the value size.
    Int(i64),
    /// The address of a label plus an addend (no label difference, no relocation
    /// specifier).
    Expr(Expr),
}

impl std::fmt::Display for DataValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataValue::Int(v) => write!(f, "{v}"),
            DataValue::Expr(e) => write!(f, "{e}"),
        }
    }
}

/// The largest data section or `.fill`/`.zero` the project accepts (64 MiB), so that a
/// single directive cannot make the simulator allocate without bound.
pub const MAX_DATA_BYTES: u64 = 64 << 20;

/// Whether a section of this name holds code.
pub fn is_code_section(name: &str) -> bool {
    name == ".text" || name.starts_with(".text.")
}

impl Directive {
    /// The bytes this directive puts into a code section at offset `at` (padding and
    /// `.fill`/`.long` data between functions, such as the `s_code_end` padding llc
    /// ends the code with); label addresses in `.long`/`.quad` values are not known here
    /// and count as 0. `.p2align N` without a fill value pads with `s_nop 0` in the
    /// encoder and is not handled here.
    pub fn code_bytes(&self, at: u32) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Directive::P2alignFill { power, fill, word } => {
                let to = at.next_multiple_of(1u32 << (*power).min(MAX_P2ALIGN));
                let mut pos = at;
                while pos < to {
                    if *word && pos.is_multiple_of(4) && pos + 4 <= to {
                        out.extend_from_slice(&fill.to_le_bytes());
                        pos += 4;
                    } else {
                        out.push(*fill as u8);
                        pos += 1;
                    }
                }
            }
            Directive::Fill {
                repeat,
                size,
                value,
                ..
            } => {
                let bytes = value.to_le_bytes();
                for _ in 0..*repeat {
                    out.extend_from_slice(&bytes[..usize::from(*size).min(8)]);
                }
            }
            Directive::Data { size, values } => {
                for v in values {
                    let n = match v {
                        DataValue::Int(n) => *n,
                        DataValue::Expr(_) => 0,
                    };
                    out.extend_from_slice(&n.to_le_bytes()[..usize::from(*size).min(8)]);
                }
            }
            _ => {}
        }
        out
    }
}

/// The largest `.p2align` the project accepts (64 KiB).
pub const MAX_P2ALIGN: u8 = 16;

/// One element of a program.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `name:`
    Label(String),
    /// A directive.
    Directive(Directive),
    /// An instruction.
    Inst(Inst),
}

/// An item and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The item.
    pub item: Item,
    /// Its source: an assembly line, an IR span, or none.
    pub origin: Origin,
}

/// A program for one target and wave size.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The target it is written for.
    pub target: Target,
    /// The wave size its lane masks assume.
    pub wave: WaveSize,
    /// Labels, directives and instructions in order.
    pub items: Vec<Entry>,
}

/// Where each item and label lies, in bytes from the start of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Byte offset of every item (an instruction's first byte; a label's position).
    pub offsets: Vec<u32>,
    /// Byte offset of every label.
    pub labels: HashMap<String, u32>,
    /// Total size in bytes.
    pub size: u32,
}

impl Layout {
    /// The value of `expr` when the program starts at byte address `base`, or `None` if a
    /// label is unknown. A difference of labels does not depend on `base`.
    pub fn eval(&self, expr: &Expr, base: u64) -> Option<i64> {
        // 64-bit two's complement, as LLVM's MC evaluates expressions: the addend is user
        // text and may be near the i64 limits.
        let plus = i64::from(*self.labels.get(&expr.plus)?);
        let value = match &expr.minus {
            Some(m) => plus - i64::from(*self.labels.get(m)?),
            None => plus.wrapping_add(base as i64),
        };
        Some(value.wrapping_add(expr.addend))
    }
}

impl Program {
    /// An empty program.
    pub fn new(target: Target, wave: WaveSize) -> Program {
        Program {
            target,
            wave,
            items: Vec::new(),
        }
    }

    /// Appends an item built in code, with no origin.
    pub fn push(&mut self, item: Item) {
        self.push_from(item, Origin::None);
    }

    /// Appends an item with its origin.
    pub fn push_from(&mut self, item: Item, origin: Origin) {
        self.items.push(Entry { item, origin });
    }

    /// Checks the program as a whole: the target has encodings and runs the wave size,
    /// every label is defined once, every label an instruction uses is defined, and every
    /// instruction exists on the target with operands its slots accept (the rules of
    /// [`crate::validate`]). The parser ends with this check; programs built in code
    /// should pass it before they are printed or run.
    pub fn validate(&self) -> Result<(), ProgramError> {
        let (target, wave) = (self.target, self.wave);
        let whole = |message: String| ProgramError {
            origin: Origin::None,
            message,
        };
        if !target.has_encodings() {
            return Err(whole(format!(
                "the machine model has no instruction encodings for {target}; use one of \
                 gfx8, gfx1030, gfx1100"
            )));
        }
        if !target.supports(wave) {
            return Err(whole(format!(
                "{target} runs {} only",
                target.default_wave()
            )));
        }
        let mut defined: HashMap<&str, &Origin> = HashMap::new();
        for entry in &self.items {
            if let Item::Label(name) = &entry.item {
                if let Some(first) = defined.insert(name, &entry.origin) {
                    return Err(ProgramError {
                        origin: entry.origin.clone(),
                        message: format!(
                            "label `{name}` is defined twice (first{})",
                            match first {
                                Origin::None => String::new(),
                                o => format!(" at {o}"),
                            }
                        ),
                    });
                }
            }
        }
        for entry in &self.items {
            let at = |message: String| ProgramError {
                origin: entry.origin.clone(),
                message,
            };
            match &entry.item {
                Item::Directive(Directive::P2align(n)) if *n > MAX_P2ALIGN => {
                    return Err(at(format!(
                        "`.p2align {n}`: at most {MAX_P2ALIGN} (64 KiB)"
                    )));
                }
                Item::Directive(Directive::Data { values, .. }) => {
                    for v in values {
                        if let DataValue::Expr(e) = v {
                            if !defined.contains_key(e.plus.as_str()) {
                                return Err(at(format!(
                                    "label `{}` is not defined in the program",
                                    e.plus
                                )));
                            }
                        }
                    }
                }
                Item::Directive(Directive::Size(name, expr)) => {
                    let labels = [Some(name), Some(&expr.plus), expr.minus.as_ref()];
                    for label in labels.into_iter().flatten() {
                        if !defined.contains_key(label.as_str()) {
                            return Err(at(format!(
                                "`.size`: label `{label}` is not defined in the program"
                            )));
                        }
                    }
                }
                _ => {}
            }
        }
        for entry in &self.items {
            let Item::Inst(inst) = &entry.item else {
                continue;
            };
            let at = |message: String| ProgramError {
                origin: entry.origin.clone(),
                message,
            };
            let info = inst.op.info();
            let Some(name) = info.name(target) else {
                return Err(at(format!(
                    "`{}` does not exist on {target}",
                    info.mnemonic
                )));
            };
            let slots = inst.dsts().len() + info.srcs.len();
            if inst.operands.len() != slots {
                return Err(at(format!(
                    "`{name}` takes {slots} operands, not {}",
                    inst.operands.len()
                )));
            }
            for (i, (kind, operand)) in inst.slots().zip(&inst.operands).enumerate() {
                check_operand(kind, operand, target, wave)
                    .map_err(|m| at(format!("`{name}` operand {}: {m}", i + 1)))?;
                if let Operand::Expr(e) = operand {
                    for label in std::iter::once(&e.plus).chain(e.minus.iter()) {
                        if !defined.contains_key(label.as_str()) {
                            return Err(at(format!(
                                "label `{label}` is not defined in the program"
                            )));
                        }
                    }
                }
            }
            check_inst(inst, target, wave).map_err(|v| {
                at(match v.operand {
                    Some(i) => format!("`{name}` operand {}: {}", i + 1, v.message),
                    None => format!("`{name}`: {}", v.message),
                })
            })?;
        }
        Ok(())
    }

    /// Byte offsets of items and labels, from the encoding sizes.
    pub fn layout(&self) -> Layout {
        let mut offsets = Vec::with_capacity(self.items.len());
        let mut labels = HashMap::new();
        let mut at = 0u32;
        let mut code = true;
        for line in &self.items {
            offsets.push(at);
            match &line.item {
                Item::Directive(Directive::Text) => code = true,
                Item::Directive(Directive::Section { name, .. }) => code = is_code_section(name),
                _ if !code => {}
                Item::Label(name) => {
                    labels.insert(name.clone(), at);
                }
                Item::Inst(inst) => at += encoding::size(inst, self.target, self.wave),
                Item::Directive(Directive::P2align(n)) => {
                    at = at.next_multiple_of(1u32 << (*n).min(MAX_P2ALIGN));
                }
                Item::Directive(d) => at += d.code_bytes(at).len() as u32,
            }
        }
        Layout {
            offsets,
            labels,
            size: at,
        }
    }

    /// The instructions in order.
    pub fn insts(&self) -> impl Iterator<Item = &Inst> + '_ {
        self.items.iter().filter_map(|l| match &l.item {
            Item::Inst(i) => Some(i),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use gpuabi_layout::reg::{RegFile, RegRange};

    use super::*;
    use crate::opcodes::Opcode;
    use crate::operand::Imm;

    fn branch(to: &str) -> Item {
        Item::Inst(Inst::new(
            Opcode::SBranch,
            [Operand::Expr(Box::new(Expr::label(to)))],
        ))
    }

    fn src(start: u32) -> Origin {
        Origin::Source {
            function: "main".into(),
            start,
            end: start + 5,
        }
    }

    #[test]
    fn labels_are_defined_once_and_before_use() {
        let mut p = Program::new(Target::Gfx1030, WaveSize::W32);
        p.push(Item::Label("a".into()));
        p.push_from(branch("b"), src(10));
        let e = p.validate().unwrap_err();
        assert_eq!(e.origin, src(10));
        assert!(e.message.contains("label `b` is not defined"), "{e}");
        assert!(
            e.to_string().contains("function `main`, bytes 10..15"),
            "{e}"
        );
        p.push_from(Item::Label("b".into()), src(20));
        assert_eq!(p.validate(), Ok(()));
        p.push_from(Item::Label("a".into()), src(30));
        let e = p.validate().unwrap_err();
        assert_eq!(e.origin, src(30));
        assert!(e.message.contains("`a` is defined twice"), "{e}");
    }

    #[test]
    fn instructions_are_checked_for_the_target_and_wave() {
        let s0 = Operand::Reg(RegRange::new(RegFile::Sgpr, 0, 1));
        let mut p = Program::new(Target::Gfx8, WaveSize::W64);
        p.push_from(
            Item::Inst(Inst::new(
                Opcode::VAddNcU32,
                [s0.clone(), s0.clone(), s0.clone()],
            )),
            Origin::Asm { line: 7 },
        );
        let e = p.validate().unwrap_err();
        assert!(e.message.contains("does not exist on gfx8"), "{e}");
        assert!(e.to_string().ends_with("(line 7)"), "{e}");
        let mut p = Program::new(Target::Gfx1030, WaveSize::W32);
        p.push(Item::Inst(Inst::new(Opcode::SMovB32, [s0.clone()])));
        assert!(p
            .validate()
            .unwrap_err()
            .message
            .contains("takes 2 operands"));
        let mut p = Program::new(Target::Gfx1030, WaveSize::W32);
        p.push(Item::Inst(Inst::new(
            Opcode::SMovB32,
            [Operand::Reg(RegRange::new(RegFile::Vgpr, 0, 1)), s0.clone()],
        )));
        assert!(p.validate().unwrap_err().message.contains("operand 1"));
        let mut p = Program::new(Target::Gfx8, WaveSize::W32);
        p.push(Item::Inst(Inst::new(
            Opcode::SMovB32,
            [s0, Operand::Imm(Imm::Int(1))],
        )));
        assert!(p.validate().unwrap_err().message.contains("wave64 only"));
    }
}
