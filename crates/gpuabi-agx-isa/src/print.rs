//! Layout of a printed instruction, shared by the decoder's `Display` and the assembler's
//! normalisation of its input.

use std::fmt;

use crate::def::{ModDef, ModKind};

/// The text of a modifier value, `None` when nothing is printed (clear flag, default).
pub(crate) fn modifier_text(d: &ModDef, v: u32) -> Option<&'static str> {
    match d.kind {
        ModKind::Flag => (v != 0).then_some(d.display),
        ModKind::Enum(e) => e.values.iter().find(|(c, _)| *c == v).and_then(|(_, t)| *t),
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
