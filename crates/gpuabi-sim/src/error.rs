//! Errors that end a simulation.

use gpuabi_amdgpu::{Origin, ProgramError};

/// Why a run stopped before `s_endpgm`. Every variant about an instruction names it by byte
/// address and origin (assembly line or IR span).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The wave executed more instructions than the limit allows.
    #[error("instruction limit of {limit} reached at 0x{pc:x}{}: the program may not terminate", .origin.suffix())]
    InstructionLimit {
        /// The limit.
        limit: u64,
        /// Address of the next instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
    },
    /// More nested calls than the limit.
    #[error("call depth limit of {limit} reached by the call at 0x{pc:x}{}", .origin.suffix())]
    CallDepth {
        /// The limit.
        limit: u32,
        /// Address of the call.
        pc: u64,
        /// Its origin.
        origin: Origin,
    },
    /// A jump or call to an address that is not the start of an instruction.
    #[error("jump from 0x{pc:x}{} to 0x{target:x}, which is not an instruction of the program", .origin.suffix())]
    BadJump {
        /// Address of the jump.
        pc: u64,
        /// Its origin.
        origin: Origin,
        /// The target address.
        target: u64,
    },
    /// The wave executed `s_trap` (llc's `llvm.trap`, an `abort`) or `s_sethalt`: there is
    /// no trap handler to run.
    #[error("the wave trapped at 0x{pc:x}{}: `{text}` (the simulator has no trap handler)", .origin.suffix())]
    Trap {
        /// Address of the instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
        /// The instruction as printed.
        text: String,
    },
    /// The wave reached an instruction the machine model encodes but whose semantics the
    /// simulator does not model yet (the ray intersection and BVH stack instructions).
    #[error("`{text}` at 0x{pc:x}{}: the semantics of `{mnemonic}` are not modelled yet", .origin.suffix())]
    NotModelled {
        /// Address of the instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
        /// Its mnemonic on the target.
        mnemonic: &'static str,
        /// The instruction as printed.
        text: String,
    },
    /// A vector float instruction under a MODE register whose float fields are not the
    /// default ([`crate::exec::float_mode::DEFAULT_MODE`]): the simulator follows rounding and
    /// denormal modes in RDNA 4's scalar float arithmetic only.
    #[error(
        "`{text}` at 0x{pc:x}{}: MODE is {mode:#x} (s_round_mode, s_denorm_mode), but the \
         simulator runs vector float instructions with rounding to nearest even and \
         denormals kept (MODE 0xf0) only",
        .origin.suffix()
    )]
    ModeNotFollowed {
        /// Address of the instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
        /// MODE's float fields (bits 7:0).
        mode: u32,
        /// The instruction as printed.
        text: String,
    },
    /// Execution ran past the last instruction without `s_endpgm`.
    #[error(
        "execution ran past the end of the program after 0x{pc:x}{} without s_endpgm",
        .origin.suffix()
    )]
    FellOffEnd {
        /// Address of the last instruction executed.
        pc: u64,
        /// Its origin.
        origin: Origin,
    },
    /// A memory access outside every global buffer.
    #[error("{what} of {bytes} bytes at address 0x{addr:x} (lane {lane}) by 0x{pc:x}{} is outside every buffer", .origin.suffix())]
    BadAddress {
        /// `load` or `store`.
        what: &'static str,
        /// The address.
        addr: u64,
        /// Bytes accessed.
        bytes: u32,
        /// The lane (0 for scalar accesses).
        lane: u32,
        /// Address of the instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
    },
    /// A scratch access beyond the per-lane scratch limit.
    #[error("scratch {what} of {bytes} bytes at offset 0x{offset:x} (lane {lane}) by 0x{pc:x}{} exceeds the scratch limit of {limit} bytes per lane", .origin.suffix())]
    ScratchLimit {
        /// `load` or `store`.
        what: &'static str,
        /// Per-lane byte offset.
        offset: u64,
        /// Bytes accessed.
        bytes: u32,
        /// The lane.
        lane: u32,
        /// The limit.
        limit: u32,
        /// Address of the instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
    },
    /// An instruction read or overwrote a register that an outstanding memory load writes,
    /// before an `s_waitcnt` guaranteed the load complete: on hardware it would read the
    /// old value, or the load would overwrite its result (checked when
    /// [`crate::Machine::check_waits`] is set).
    #[error("{0}")]
    MissingWait(Box<MissingWait>),
    /// The program breaks a rule of the machine model (an undefined label, an operand the
    /// target does not accept).
    #[error("invalid program: {0}")]
    Invalid(#[from] ProgramError),
    /// The entry label does not exist.
    #[error("entry label `{0}` is not defined in the program")]
    NoEntry(String),
    /// A dispatch set-up that does not fit the wave or program.
    #[error("bad dispatch set-up: {0}")]
    Setup(String),
}

impl SimError {
    /// The origin of the instruction involved, for errors that stop at one.
    pub fn origin(&self) -> Option<&Origin> {
        match self {
            SimError::InstructionLimit { origin, .. }
            | SimError::CallDepth { origin, .. }
            | SimError::BadJump { origin, .. }
            | SimError::FellOffEnd { origin, .. }
            | SimError::BadAddress { origin, .. }
            | SimError::ScratchLimit { origin, .. }
            | SimError::Trap { origin, .. }
            | SimError::NotModelled { origin, .. }
            | SimError::ModeNotFollowed { origin, .. } => Some(origin),
            SimError::MissingWait(m) => Some(&m.origin),
            SimError::Invalid(e) => Some(&e.origin),
            SimError::NoEntry(_) | SimError::Setup(_) => None,
        }
    }
}

/// A read or overwrite of a register before the wait for the load that writes it
/// ([`SimError::MissingWait`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` at 0x{pc:x}{} {access} {register} before an s_waitcnt waits for `{load_text}` at 0x{load_pc:x}{}, which writes it",
    .origin.suffix(), .load_origin.suffix()
)]
pub struct MissingWait {
    /// Address of the instruction.
    pub pc: u64,
    /// Its origin.
    pub origin: Origin,
    /// The instruction as printed.
    pub text: String,
    /// `reads` or `overwrites`.
    pub access: &'static str,
    /// The register (`v3`, `s7`).
    pub register: String,
    /// Address of the load.
    pub load_pc: u64,
    /// Its origin.
    pub load_origin: Origin,
    /// The load as printed.
    pub load_text: String,
}
