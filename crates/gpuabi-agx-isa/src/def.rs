//! The shapes of the table rows: instructions, operand encodings, modifiers and enums.
//!
//! Bit lists are written as text (`"16:25 42:43"`, ranges inclusive, first range lowest);
//! fixed bit values are written as binary literals whose lowest bit lands in the first
//! position of the list. `crate::isa` resolves the rows once into a checked runtime table.

use crate::effects::Effects;

/// A named value set of a modifier (conditions, formats, masks, ...).
#[derive(Debug)]
pub struct EnumDef {
    /// Name of the set, used in error messages.
    pub name: &'static str,
    /// `(code, text)`; `None` text marks the default, which is not printed.
    pub values: &'static [(u32, Option<&'static str>)],
}

impl EnumDef {
    /// The text printed for `code`; `None` for the default (not printed) or an unknown code.
    pub fn text(&self, code: u32) -> Option<&'static str> {
        self.values
            .iter()
            .find(|(c, _)| *c == code)
            .and_then(|(_, t)| *t)
    }
}

/// What a modifier field means: a one-bit flag printed as its name, or a value of an enum.
#[derive(Debug, Clone, Copy)]
pub enum ModKind {
    /// Printed as the modifier's display name when set.
    Flag,
    /// Printed as the enum's text for the value (nothing for the default).
    Enum(&'static EnumDef),
}

/// A modifier field of an instruction.
#[derive(Debug)]
pub struct ModDef {
    /// Name of the field.
    pub name: &'static str,
    /// Text printed for a set flag.
    pub display: &'static str,
    /// Bit positions.
    pub bits: &'static str,
    /// Flag or enum.
    pub kind: ModKind,
}

/// An immediate field of an instruction, printed as a decimal number.
#[derive(Debug)]
pub struct ImmDef {
    /// Name of the field (`offset` fields are branch targets and accept labels).
    pub name: &'static str,
    /// Bit positions.
    pub bits: &'static str,
    /// Two's complement.
    pub signed: bool,
}

/// What the value field of an operand encoding case holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// General-purpose register, counted in 16-bit halves (`r0l`, `r0`, `dr0`).
    Reg,
    /// Uniform register, counted in 16-bit halves (`u0l`, `u0`, `du0`).
    Uniform,
    /// Integer immediate.
    Imm,
    /// 8-bit float immediate (1 sign, 3 exponent, 4 mantissa bits).
    FImm,
    /// Coefficient register `cfN`.
    Cf,
    /// Texture state slot `tsN`.
    Ts,
    /// Sampler state slot `ssN`.
    Ss,
}

/// The value field of an encoding case.
#[derive(Debug)]
pub struct ValueDef {
    /// What the value is.
    pub kind: ValueKind,
    /// Bit positions within the operand field.
    pub bits: &'static str,
    /// The register number is the field shifted left by this much (pairs are even).
    pub shift: u32,
    /// Two's complement (immediates only).
    pub signed: bool,
}

/// Modifier bits inside an operand field that change how the operand prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpMod {
    /// `$` when set.
    Cache,
    /// Two-bit hint: 1 none, 2 `$` (cache), 3 `^` (discard).
    Hint,
    /// 32-bit register when set.
    Size32,
    /// 64-bit register pair when set.
    Size64,
    /// `.abs`.
    Abs,
    /// `.neg`.
    Neg,
    /// `.sx`.
    Sx,
    /// Zero-extend; `.sx` is printed when clear.
    Zx,
    /// Channel mask: the register count is its population count.
    Mask,
    /// Register count, 0 meaning 4.
    Count,
    /// Last use: `^` when set (the `lu` modifier of Mesa's `coord` encoding), a hint that
    /// the register's value is not needed afterwards.
    LastUse,
}

/// One way an operand field can be encoded.
#[derive(Debug)]
pub struct CaseDef {
    /// Fixed bits `(positions, value)` within the operand field that select this case.
    pub exact: &'static [(&'static str, u64)],
    /// The value field; `None` for a case that prints nothing (an absent operand).
    pub value: Option<ValueDef>,
    /// Modifier bits within the operand field.
    pub mods: &'static [(OpMod, &'static str)],
    /// Register size in bits fixed by the case (16 when neither this nor a size bit says).
    pub size: Option<u32>,
    /// Register count fixed by the case.
    pub count: Option<u32>,
}

/// An operand encoding: the cases, tried in order, first match wins; `common` parts apply
/// to every case.
#[derive(Debug)]
pub struct EncodingDef {
    /// Name used in error messages.
    pub name: &'static str,
    /// Parts shared by every case (exact bits, modifiers, size and count).
    pub common: CaseDef,
    /// The cases; empty means `common` is the only case.
    pub cases: &'static [CaseDef],
}

/// An operand of an instruction: an encoding at some bit positions.
#[derive(Debug)]
pub struct OperandDef {
    /// The encoding.
    pub enc: &'static EncodingDef,
    /// Bit positions; negative positions count from the end of the longest form.
    pub bits: &'static str,
}

/// One instruction of the table.
#[derive(Debug)]
pub struct OpcodeDef {
    /// Unique name.
    pub name: &'static str,
    /// Mnemonic printed (several rows share one, e.g. `mov`, `csel`, `load`).
    pub display: &'static str,
    /// Lengths in bytes: one, or short and long selected by `length_bit`.
    pub lengths: &'static [u32],
    /// The bit selecting the long form.
    pub length_bit: Option<u32>,
    /// Mesa's compiler packs the instruction in its long form whatever the field values
    /// (`agx_pack_instr` in `src/asahi/compiler/agx_pack.c` sets the length bit
    /// unconditionally), so the assembler and [`crate::build`] emit that form too; the short
    /// form, which prints the same, still decodes and re-encodes.
    pub packed_long: bool,
    /// Fixed bits `(positions, value)` identifying the instruction.
    pub exact: &'static [(&'static str, u64)],
    /// Destinations (printed first; an absent one prints `_`).
    pub dests: &'static [OperandDef],
    /// Sources (absent ones are not printed).
    pub srcs: &'static [OperandDef],
    /// Immediates.
    pub imms: &'static [ImmDef],
    /// Modifiers (printed last).
    pub mods: &'static [&'static ModDef],
    /// Effects beyond the written destinations.
    pub effects: Effects,
}
