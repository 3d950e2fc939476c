//! Why a module could not be compiled.

/// A compilation error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodegenError {
    /// The module does not verify.
    #[error("the module does not verify: {0}")]
    Verify(String),
    /// Something the code generator does not compile (yet), at a source span.
    #[error("function `@{function}`: {what}")]
    Unsupported {
        /// The IR function.
        function: String,
        /// First byte of the instruction in the source.
        start: u32,
        /// One past its last byte.
        end: u32,
        /// What is not supported.
        what: String,
    },
    /// A register limit too small for some instruction's operands.
    #[error("function `@{function}`: {what}")]
    Registers {
        /// The IR function.
        function: String,
        /// What did not fit.
        what: String,
    },
    /// The per-lane frame is larger than the immediate offsets of scratch accesses reach.
    #[error(
        "function `@{function}`: a frame of {bytes} bytes per lane is larger than {max} bytes"
    )]
    FrameTooLarge {
        /// The IR function.
        function: String,
        /// Frame size.
        bytes: u32,
        /// The largest frame supported.
        max: u32,
    },
    /// The options are inconsistent (a wave size the target lacks, an entry ABI it lacks).
    #[error("{0}")]
    Options(String),
    /// A pass produced invalid machine code: a compiler bug, named with the pass.
    #[error("internal error after {pass}: {message}")]
    Internal {
        /// The pass.
        pass: &'static str,
        /// What is wrong.
        message: String,
    },
}
