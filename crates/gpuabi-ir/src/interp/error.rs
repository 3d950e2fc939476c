//! Runtime errors of the interpreter.

use crate::diagnostic::line_col;
use crate::ir::Span;

/// What went wrong at run time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunErrorKind {
    /// Step limit.
    #[error("step limit hit: more than {0} instructions in one invocation")]
    StepLimit(u64),
    /// Call-depth limit.
    #[error("call depth limit hit: more than {0} nested calls")]
    CallDepth(u32),
    /// The frames on the call stack hold more than [`super::MAX_FRAME_SLOTS`] registers.
    #[error(
        "register limit hit: {depth} nested calls need more than {} registers",
        super::MAX_FRAME_SLOTS
    )]
    FrameRegisters {
        /// Calls on the stack when the limit was hit.
        depth: u32,
    },
    /// Stack-bytes limit.
    #[error("stack limit hit: the frames need {need} bytes of stack arrays, limit {limit}")]
    StackBytes {
        /// Bytes needed.
        need: u64,
        /// Limit.
        limit: u32,
    },
    /// Global access outside every buffer.
    #[error("out-of-bounds access of {len} byte(s) at address {addr:#x}")]
    OutOfBounds {
        /// Address.
        addr: u64,
        /// Access width.
        len: usize,
    },
    /// Stack-array access outside its array.
    #[error(
        "stack array access of {len} byte(s) at offset {offset} is outside the {size}-byte array"
    )]
    StackOutOfBounds {
        /// Byte offset.
        offset: i64,
        /// Access width.
        len: u32,
        /// Array size.
        size: u32,
    },
    /// Indirect call through something `func_addr` did not make.
    #[error("call through {0:#x}, which is not a function address")]
    NotAFunction(u64),
    /// Indirect call whose callee has another signature.
    #[error("indirect call of `@{callee}` through signature `${sig}`, but the function's signature differs")]
    SignatureMismatch {
        /// Function called.
        callee: String,
        /// Signature named by the call.
        sig: String,
    },
    /// Integer division or remainder by zero.
    #[error("integer division by zero")]
    DivisionByZero,
    /// `unreachable` executed.
    #[error("`unreachable` was reached")]
    Unreachable,
}

/// A runtime error with the invocation, the function and the instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invocation {invocation:?} in `@{function}`: {kind}")]
pub struct RunError {
    /// What happened.
    pub kind: RunErrorKind,
    /// Global id of the invocation.
    pub invocation: [u32; 3],
    /// Function executing.
    pub function: String,
    /// The instruction.
    pub span: Span,
    /// Callers, innermost first.
    pub call_stack: Vec<String>,
}

impl RunError {
    /// The message with `file:line:column` of the instruction and the call stack.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let (line, col) = line_col(source, self.span.start as usize);
        let mut s = format!(
            "{file_name}:{line}:{col}: invocation {:?} in `@{}`: {}",
            self.invocation, self.function, self.kind
        );
        let text = source.get(self.span.range()).unwrap_or("");
        if !text.is_empty() {
            let first = text.lines().next().unwrap_or("");
            s.push_str(&format!(
                "\n    {}",
                crate::diagnostic::cut_line(first, 1).0
            ));
        }
        // Deep recursion leaves millions of frames: show both ends of the stack.
        const SHOWN: usize = 20;
        let n = self.call_stack.len();
        for (k, f) in self.call_stack.iter().enumerate() {
            if n > 2 * SHOWN && k == SHOWN {
                s.push_str(&format!("\n  ... {} more calls", n - 2 * SHOWN));
            }
            if n <= 2 * SHOWN || k < SHOWN || k >= n - SHOWN {
                s.push_str(&format!("\n  called from `@{f}`"));
            }
        }
        s
    }
}
