//! Where an instruction came from: an assembly line, a span of the `.gsir` text a code
//! generator compiled it from, or nowhere in particular.

use std::fmt;

/// The source of an instruction (or label), carried through to the simulator's errors and
/// contract reports so that a caller can point into its own text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Origin {
    /// Built in code with no source.
    #[default]
    None,
    /// Parsed from assembly text, on this 1-based line.
    Asm {
        /// Line, from 1.
        line: u32,
    },
    /// Compiled from shader IR: the byte span `start..end` of the `.gsir` text, inside
    /// `function`.
    Source {
        /// The IR function the instruction implements part of.
        function: String,
        /// First byte of the span.
        start: u32,
        /// One past its last byte.
        end: u32,
    },
}

impl Origin {
    /// The assembly line, if the origin is one.
    pub fn line(&self) -> Option<u32> {
        match self {
            Origin::Asm { line } => Some(*line),
            _ => None,
        }
    }

    /// ` (line 3)`, ` (function `f`, bytes 10..24)`, or nothing: a suffix for messages.
    pub fn suffix(&self) -> String {
        match self {
            Origin::None => String::new(),
            other => format!(" ({other})"),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::None => f.write_str("no source"),
            Origin::Asm { line } => write!(f, "line {line}"),
            Origin::Source {
                function,
                start,
                end,
            } => write!(f, "function `{function}`, bytes {start}..{end}"),
        }
    }
}
