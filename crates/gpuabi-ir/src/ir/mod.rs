//! In-memory form of the IR: modules, functions, structured regions and instructions.

pub mod function;
pub mod instr;
pub mod module;
pub mod region;
pub mod types;

pub use function::{Function, Param, ParamAttrs, Value, ValueData};
pub use instr::{Cond, Extra, Instr, InstrKind, OpInstr, Opcode, Operand};
pub use module::{Abi, FuncAttrs, FuncId, Module, SigId, SigParam, Signature};
pub use region::Region;
pub use types::Type;

/// A byte range in the source text, kept for messages.
///
/// Spans are metadata: two spans always compare equal, so a module printed and parsed back
/// equals the original even though every position moved.
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from a byte range.
    pub fn new(range: std::ops::Range<usize>) -> Span {
        Span {
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// The byte range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}
