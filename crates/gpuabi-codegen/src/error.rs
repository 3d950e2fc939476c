//! Why a module could not be compiled.

use crate::mir::{BlockId, Function, Origin};

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
    /// A pass produced invalid machine code or met code an earlier pass should not have
    /// produced: a compiler bug, named with the pass and the source span.
    #[error("internal error {0}")]
    Internal(Box<PassError>),
}

/// A place in a machine function (a block, an instruction of it) and what is wrong there:
/// what the validator and the passes report when the machine IR breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{what}", place(*.block, *.inst))]
pub struct Invalid {
    /// The block, if the fault is in one.
    pub block: Option<BlockId>,
    /// The instruction's index in the block, if the fault is in one.
    pub inst: Option<usize>,
    /// What is wrong.
    pub what: String,
}

fn place(block: Option<BlockId>, inst: Option<usize>) -> String {
    match (block, inst) {
        (Some(b), Some(i)) => format!("BB{}, instruction {i}: ", b.0),
        (Some(b), None) => format!("BB{}: ", b.0),
        _ => String::new(),
    }
}

impl Invalid {
    /// A fault of the whole function.
    pub fn function(what: impl Into<String>) -> Invalid {
        Invalid {
            block: None,
            inst: None,
            what: what.into(),
        }
    }

    /// A fault of block `b`.
    pub fn block(b: usize, what: impl Into<String>) -> Invalid {
        Invalid {
            block: Some(BlockId(b as u32)),
            inst: None,
            what: what.into(),
        }
    }

    /// A fault of instruction `i` of block `b`.
    pub fn inst(b: usize, i: usize, what: impl Into<String>) -> Invalid {
        Invalid {
            block: Some(BlockId(b as u32)),
            inst: Some(i),
            what: what.into(),
        }
    }

    /// The source span of the instruction (or of the block's first instruction) at fault
    /// in `f`, when it has one.
    pub fn origin(&self, f: &Function) -> Option<Origin> {
        let b = f.blocks.get(self.block?.index())?;
        let i = b.insts.get(self.inst.unwrap_or(0))?;
        (i.origin != Origin::default()).then_some(i.origin)
    }
}

/// What went wrong in a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The input cannot be compiled (an unsupported construct, too few registers, a frame
    /// too large): reported to the user as the [`CodegenError`] it is.
    #[error(transparent)]
    Input(CodegenError),
    /// The machine IR breaks a rule of the validator after the pass.
    #[error("the machine IR is invalid after it: {0}")]
    Invalid(Invalid),
    /// The pass met machine IR it cannot handle: a rule earlier passes keep was broken.
    #[error("{0}")]
    Unexpected(Invalid),
    /// Call lowering met a frame the allocation did not prepare for.
    #[error(transparent)]
    CallLowering(crate::lower_calls::CallLoweringError),
    /// VGPRs must spill in a `catalyst` kernel compiled without scratch: the kernel is
    /// compiled again with scratch (see `crate::scratch_retry`).
    #[error("VGPRs must spill but the entry set up no scratch buffer registers")]
    NeedsScratch,
}

/// A failed pass: which pass, in which function, at which source span, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("after {pass}: function `@{function}`{}: {fault}", span_text(*.origin))]
pub struct PassError {
    /// The pass's name in the pass list (`crate::pipeline::PASSES`); `emission` for a
    /// fault found when the program is put together, `lower_noreturn_calls` for the IR
    /// rewrite before the passes.
    pub pass: &'static str,
    /// The function being compiled.
    pub function: String,
    /// The source span of the instruction at fault, when known.
    pub origin: Option<Origin>,
    /// Why.
    pub fault: Fault,
}

fn span_text(o: Option<Origin>) -> String {
    match o {
        Some(o) => format!(" (source bytes {}..{})", o.start, o.end),
        None => String::new(),
    }
}

impl PassError {
    /// A fault of pass `pass` in `f`, located at the instruction an [`Invalid`] names.
    pub fn new(pass: &'static str, f: &Function, fault: Fault) -> PassError {
        let origin = match &fault {
            Fault::Invalid(i) | Fault::Unexpected(i) => i.origin(f),
            _ => None,
        };
        PassError {
            pass,
            function: f.name.clone(),
            origin,
            fault,
        }
    }

    /// Machine IR pass `pass` cannot handle.
    pub fn unexpected(pass: &'static str, f: &Function, what: Invalid) -> PassError {
        PassError::new(pass, f, Fault::Unexpected(what))
    }

    /// An input error met by pass `pass`.
    pub fn input(pass: &'static str, function: &str, e: CodegenError) -> PassError {
        PassError {
            pass,
            function: function.to_string(),
            origin: None,
            fault: Fault::Input(e),
        }
    }
}

impl From<PassError> for CodegenError {
    /// Input errors keep their own form; everything else is a compiler bug.
    fn from(e: PassError) -> CodegenError {
        match e.fault {
            Fault::Input(e) => e,
            _ => CodegenError::Internal(Box::new(e)),
        }
    }
}
