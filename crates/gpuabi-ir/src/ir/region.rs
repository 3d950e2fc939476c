//! Structured regions: the bodies of functions, `if` arms and loops.

use super::Instr;

/// A straight-line list of instructions; control flow is nested inside `if` and `loop`
/// instructions, as in NIR's structured control flow.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Region {
    /// The instructions, in order. Only the last may be a terminator.
    pub instrs: Vec<Instr>,
}

impl Region {
    /// True when the region can run off its end (it is empty or its last instruction is not
    /// a terminator).
    pub fn falls_through(&self) -> bool {
        !matches!(self.instrs.last(), Some(i) if i.kind.is_terminator())
    }
}
