//! Errors of the ACO call-ABI engine.

use thiserror::Error;

use crate::reg::RegFile;

/// Everything that can go wrong when computing an ACO call ABI layout.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AcoError {
    /// An ABI name or driver-attribute value that names no ABI.
    #[error("unknown ABI {0}: expected rt-recursive, traversal, ahit-isec or an ABI file")]
    UnknownAbi(String),
    /// A user ABI file that is not valid TOML of the expected shape.
    #[error("{line}:{column}: {message}")]
    AbiFile {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// A block with no preserved and no clobbered registers in one file: the pattern would
    /// never advance (Mesa loops forever here).
    #[error(
        "degenerate register block: {file} has 0 preserved and 0 clobbered registers per block"
    )]
    DegenerateBlock {
        /// The file whose counts are both zero.
        file: RegFile,
    },
    /// A register limit beyond the register file.
    #[error("register limit {limit} for {file} is out of range: at most {max}")]
    LimitOutOfRange {
        /// The file.
        file: RegFile,
        /// The limit asked for.
        limit: u32,
        /// The largest allowed.
        max: u16,
    },
    /// A wave size the target does not run.
    #[error("{target} does not run wave{wave}: expected {expected}")]
    UnsupportedWave {
        /// Target name.
        target: String,
        /// Wave size asked for.
        wave: u32,
        /// What the target supports.
        expected: &'static str,
    },
    /// A return parameter marked uniform: return values are per lane.
    #[error("parameter `{0}` is a return parameter and cannot be uniform")]
    UniformReturnParam(String),
    /// A parameter that must be in registers (system parameters, the two PCs) found none.
    #[error("parameter `{0}` must be in registers but no register fits (Mesa asserts here)")]
    ForcedParamUnplaceable(String),
    /// A ray payload or hit-attribute size beyond what gpuabi lays out.
    #[error("{what}: {bytes} bytes, more than the {max} bytes gpuabi lays out")]
    StageDataTooLarge {
        /// `ray payload` or `hit attributes`.
        what: &'static str,
        /// The size asked for.
        bytes: u32,
        /// [`crate::aco::MAX_STAGE_DATA_BYTES`].
        max: u32,
    },
    /// A signature that could not be read.
    #[error("{line}:{column}: {message}")]
    Signature {
        /// 1-based line (1 for a one-line signature).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
}

/// 1-based line and column of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    // Back off to a character boundary so that a stray offset cannot split a character.
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
