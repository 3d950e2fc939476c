//! Layout of a printed instruction, shared by the decoder's `Display` and the assembler's
//! normalisation of its input.

use std::fmt;

use crate::decode::Instruction;
use crate::def::{ModDef, ModKind};
use crate::operand::Operand;

/// One printed operand of an instruction, before it becomes text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Part {
    /// An absent destination, `_`.
    Absent,
    /// A destination or present source.
    Operand(Operand),
    /// An immediate field.
    Int(i64),
    /// A modifier's text.
    Word(&'static str),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Absent => f.write_str("_"),
            Part::Operand(o) => write!(f, "{o}"),
            Part::Int(v) => write!(f, "{v}"),
            Part::Word(w) => f.write_str(w),
        }
    }
}

/// What Mesa's disassembler prints after the mnemonic: the destinations (`_` when absent),
/// present sources, immediates and non-default modifiers.
pub(crate) fn parts(ins: &Instruction) -> Vec<Part> {
    let row = ins.opcode.row();
    let mut parts = Vec::with_capacity(ins.dests.len() + ins.srcs.len() + 4);
    parts.extend(
        ins.dests
            .iter()
            .map(|d| d.map_or(Part::Absent, Part::Operand)),
    );
    parts.extend(ins.srcs.iter().flatten().map(|&o| Part::Operand(o)));
    parts.extend(ins.imms.iter().map(|&v| Part::Int(v)));
    for ((d, _), v) in row.mods.iter().zip(&ins.mods) {
        parts.extend(modifier_text(d, *v).map(Part::Word));
    }
    parts
}

/// The text of a modifier value, `None` when nothing is printed (clear flag, default).
pub(crate) fn modifier_text(d: &ModDef, v: u32) -> Option<&'static str> {
    match d.kind {
        ModKind::Flag => (v != 0).then_some(d.display),
        ModKind::Enum(e) => e.text(v),
    }
}

/// `mnemonic` left-justified in 8 columns, a space, the operands joined by `", "`;
/// a mnemonic alone has no trailing spaces.
pub(crate) fn write_line(f: &mut dyn fmt::Write, mnemonic: &str, parts: &[String]) -> fmt::Result {
    if parts.is_empty() {
        return f.write_str(mnemonic);
    }
    write!(f, "{mnemonic:<8} {}", parts.join(", "))
}
