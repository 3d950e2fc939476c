//! The Apple AGX (G13) instruction set as data.
//!
//! One table row per instruction ([`opcodes`]) lists its fixed bits, lengths (short and long
//! forms selected by a length bit), operands with their encodings ([`encodings`]: 16-bit
//! halves `r0l`/`r0h`, 32-bit `r0`, 64-bit `dr0`, uniforms `u0l`/`u0`/`du0`, immediates,
//! `.sx`/`.abs`/`.neg`, `$` cache and `^` discard hints), immediates, modifiers and implicit
//! [`Effects`]. Generic code walks the table: [`decode`] turns bytes into [`Instruction`]s,
//! whose `Display` is the text Mesa's Asahi disassembler prints (`src/asahi/isa` in Mesa);
//! [`assemble`] parses that text back (labels allowed as branch targets) and emits the
//! encoding Mesa's compiler packs (the shortest, or the long form of the few rows Mesa
//! always packs long); [`build_instruction`] and [`Builder`] give the same encoding from a
//! mnemonic and typed operands ([`regs`], [`Arg`]) without text, with [`Label`]s as branch
//! targets; [`build`] encodes field values in the same form and [`encode`] re-encodes a
//! decoded instruction at its own length. Register names and files are the register model
//! of `gpuabi-layout` ([`RegFile`], [`AgxTuple`]).
//!
//! [`descriptor`] holds the texture and PBE descriptors the image instructions read from
//! memory.
//!
//! The encodings follow Mesa's `src/asahi/isa/AGX2.xml` and Dougall Johnson's applegpu
//! (`applegpu.py`); the table here is gpuabi's own transcription.

mod asm;
mod bits;
mod builder;
mod decode;
pub mod def;
pub mod descriptor;
mod effects;
mod encode;
pub mod encodings;
pub mod enums;
mod error;
mod isa;
pub mod opcodes;
mod operand;
mod print;
pub mod regs;
mod select;

pub use asm::{assemble, assemble_instruction, Labels, Program};
pub use builder::{build_instruction, Arg, BuildError, Builder, Code, Label};
pub use decode::{decode, decode_one, Instruction, MAX_LENGTH};
pub use effects::Effects;
pub use encode::{build, encode, EncodeError, Fields};
pub use error::{AsmError, DecodeError, TextError};
pub use gpuabi_layout::reg::{size_halves, AgxRegName, AgxTuple};
pub use operand::{fimm_text, fimm_value, parse_operand, Hint, Operand, OperandKind, RegFile};

use def::OpcodeDef;

/// A row of the instruction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opcode(pub(crate) usize);

impl Opcode {
    pub(crate) fn row(self) -> &'static isa::Row {
        &isa::rows()[self.0]
    }

    /// The table row.
    pub fn def(self) -> &'static OpcodeDef {
        &opcodes::OPCODES[self.0]
    }

    /// Unique name (`if_icmp`, `ldimm16`, ...).
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// Mnemonic printed.
    pub fn mnemonic(self) -> &'static str {
        self.def().display
    }

    /// Implicit effects.
    pub fn effects(self) -> Effects {
        self.def().effects
    }

    /// The row with unique name `name`.
    pub fn by_name(name: &str) -> Option<Opcode> {
        opcodes::OPCODES
            .iter()
            .position(|d| d.name == name)
            .map(Opcode)
    }

    /// The row's position in [`opcodes::OPCODES`] (below `OPCODES.len()`), for tables
    /// indexed by instruction kind.
    pub fn index(self) -> usize {
        self.0
    }

    /// Every row, in decoding priority order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        (0..opcodes::OPCODES.len()).map(Opcode)
    }
}

/// Assembles one instruction that uses no labels.
pub fn assemble_one(text: &str) -> Result<Instruction, TextError> {
    assemble_instruction(text, 0, &|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_resolves_and_names_are_unique() {
        let rows = isa::rows();
        assert_eq!(rows.len(), opcodes::OPCODES.len());
        let mut names: Vec<_> = opcodes::OPCODES.iter().map(|d| d.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), opcodes::OPCODES.len());
    }
}
