//! Value types of the IR.

use std::fmt;

/// The type of an SSA value.
///
/// `ptr` is a 64-bit global address; `stack` is the handle of a per-invocation stack array
/// made by `alloca` and is only usable by `sload`/`sstore` (it can be neither passed,
/// yielded nor stored, so stack arrays never escape their function: they become scratch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// One-bit boolean (conditions).
    I1,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE single precision float.
    F32,
    /// 64-bit global memory address, also used for function addresses.
    Ptr,
    /// Handle of a per-invocation stack array.
    Stack,
}

impl Type {
    /// All types, in the order of their text names.
    pub const ALL: [Type; 6] = [
        Type::I1,
        Type::I32,
        Type::I64,
        Type::F32,
        Type::Ptr,
        Type::Stack,
    ];

    /// The text name (`i32`, `ptr`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::I1 => "i1",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::F32 => "f32",
            Type::Ptr => "ptr",
            Type::Stack => "stack",
        }
    }

    /// Looks a type up by its text name.
    pub fn from_name(name: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Width in bits of the value (and of its memory image for loads and stores).
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I32 | Type::F32 => 32,
            Type::I64 | Type::Ptr | Type::Stack => 64,
        }
    }

    /// True for `i1`, `i32` and `i64`.
    pub fn is_int(self) -> bool {
        matches!(self, Type::I1 | Type::I32 | Type::I64)
    }

    /// True for the types a parameter, loop variable or branch result may have.
    pub fn is_first_class(self) -> bool {
        self != Type::Stack
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
