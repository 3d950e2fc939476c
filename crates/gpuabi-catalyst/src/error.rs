//! Errors of the layout engine: invalid ids, user data, register counts and options.
//!
//! Messages start with CLRX's own wording where CLRX has one, so that a user of both
//! tools recognises them, and name the argument or option concerned.

/// Why a kernel cannot be laid out with the given options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// An explicit UAV id outside 9..1023 (or an unused pointer's id not equal to uavid),
    /// or automatic assignment ran past 1023.
    #[error("UavId out of range! (argument '{arg}': {detail})")]
    UavIdOutOfRange {
        /// The argument.
        arg: String,
        /// What was wrong.
        detail: String,
    },
    /// An explicit UAV id given twice.
    #[error("UavId already used! (argument '{arg}': id {id})")]
    UavIdAlreadyUsed {
        /// The argument.
        arg: String,
        /// The id.
        id: u32,
    },
    /// A constant-buffer id outside 2..159 or exhausted.
    #[error("CbId out of range! (argument '{arg}': {detail})")]
    CbIdOutOfRange {
        /// The argument.
        arg: String,
        /// What was wrong.
        detail: String,
    },
    /// An explicit constant-buffer id given twice.
    #[error("CbId already used! (argument '{arg}': id {id})")]
    CbIdAlreadyUsed {
        /// The argument.
        arg: String,
        /// The id.
        id: u32,
    },
    /// A read-only image id outside 0..127 or exhausted.
    #[error("RdImgId out of range! (argument '{arg}': {detail})")]
    RdImgIdOutOfRange {
        /// The argument.
        arg: String,
        /// What was wrong.
        detail: String,
    },
    /// An explicit read-only image id given twice.
    #[error("RdImgId already used! (argument '{arg}': id {id})")]
    RdImgIdAlreadyUsed {
        /// The argument.
        arg: String,
        /// The id.
        id: u32,
    },
    /// A write-only image id outside 0..7 or exhausted.
    #[error("WrImgId out of range! (argument '{arg}': {detail})")]
    WrImgIdOutOfRange {
        /// The argument.
        arg: String,
        /// What was wrong.
        detail: String,
    },
    /// An explicit write-only image id given twice.
    #[error("WrImgId already used! (argument '{arg}': id {id})")]
    WrImgIdAlreadyUsed {
        /// The argument.
        arg: String,
        /// The id.
        id: u32,
    },
    /// More than 8 write-only images.
    #[error("Too many write only images ({count}; at most 8)")]
    TooManyWriteOnlyImages {
        /// How many the kernel has.
        count: usize,
    },
    /// A counter id outside 0..7 or exhausted.
    #[error("CounterId out of range! (argument '{arg}': {detail})")]
    CounterIdOutOfRange {
        /// The argument.
        arg: String,
        /// What was wrong.
        detail: String,
    },
    /// An explicit counter id given twice.
    #[error("CounterId already used! (argument '{arg}': id {id})")]
    CounterIdAlreadyUsed {
        /// The argument.
        arg: String,
        /// The id.
        id: u32,
    },
    /// An explicit id on an argument that has no resource (value, sampler, local pointer).
    #[error("argument '{arg}' is a {kind} and cannot have a resource id")]
    IdNotAllowed {
        /// The argument.
        arg: String,
        /// Its kind.
        kind: String,
    },
    /// Two arguments with the same name.
    #[error("Kernel argument '{0}' is already defined")]
    DuplicateArg(String),
    /// An explicit uavid/cbid/printfid/privateid of 1024 or more.
    #[error("{which} out of range: {value} (must be below 1024)")]
    SpecialIdOutOfRange {
        /// `uavid`, `cbid`, `printfid` or `privateid`.
        which: &'static str,
        /// The value given.
        value: u32,
    },
    /// More than 16 user-data entries.
    #[error("Too many UserData elements ({0}; at most 16)")]
    TooManyUserData(usize),
    /// A user-data entry starting above s15.
    #[error("RegStart out of range (0-15) in user-data entry {index}: {reg_start}")]
    RegStartOutOfRange {
        /// Entry index (from 0).
        index: usize,
        /// The start given.
        reg_start: u32,
    },
    /// A user-data entry ending above s15.
    #[error(
        "RegStart+RegSize out of range (0-16) in user-data entry {index}: {reg_start}+{reg_size}"
    )]
    RegEndOutOfRange {
        /// Entry index (from 0).
        index: usize,
        /// The start given.
        reg_start: u32,
        /// The size given.
        reg_size: u32,
    },
    /// Explicit SGPR count above the generation's maximum.
    #[error("used SGPRs {value} above the maximum {max} of {generation}")]
    TooManySgprs {
        /// The count given.
        value: u32,
        /// The generation maximum (excluding VCC).
        max: u32,
        /// The generation.
        generation: &'static str,
    },
    /// Explicit VGPR count above 256.
    #[error("used VGPRs {0} above the maximum 256")]
    TooManyVgprs(u32),
    /// A scratch buffer whose dword count overflows 32 bits.
    #[error("scratch buffer size {0} too large: at most 4294967292 bytes (CLRX computes its dword count (size + 3) / 4 in 32 bits)")]
    ScratchTooBig(u32),
    /// `hwlocal` above 32768 bytes.
    #[error("hwlocal {0} above the maximum 32768 bytes")]
    HwLocalTooBig(u32),
    /// Float mode that does not fit a byte.
    #[error("float mode {0:#x} does not fit in a byte")]
    FloatModeOutOfRange(u32),
    /// Exception mask wider than 7 bits.
    #[error("exception mask {0:#x} does not fit in 7 bits")]
    ExceptionsOutOfRange(u32),
}
