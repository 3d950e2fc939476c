//! Errors that end a simulation.

/// Why a run stopped before `s_endpgm`. Every variant names the instruction (byte address
/// and source line) where it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The wave executed more instructions than the limit allows.
    #[error("instruction limit of {limit} reached at 0x{pc:x} (line {line}): the program may not terminate")]
    InstructionLimit {
        /// The limit.
        limit: u64,
        /// Address of the next instruction.
        pc: u64,
        /// Its source line.
        line: usize,
    },
    /// More nested calls than the limit.
    #[error("call depth limit of {limit} reached by the call at 0x{pc:x} (line {line})")]
    CallDepth {
        /// The limit.
        limit: u32,
        /// Address of the call.
        pc: u64,
        /// Its source line.
        line: usize,
    },
    /// A jump or call to an address that is not the start of an instruction.
    #[error("jump from 0x{pc:x} (line {line}) to 0x{target:x}, which is not an instruction of the program")]
    BadJump {
        /// Address of the jump.
        pc: u64,
        /// Its source line.
        line: usize,
        /// The target address.
        target: u64,
    },
    /// Execution ran past the last instruction without `s_endpgm`.
    #[error(
        "execution ran past the end of the program after 0x{pc:x} (line {line}) without s_endpgm"
    )]
    FellOffEnd {
        /// Address of the last instruction executed.
        pc: u64,
        /// Its source line.
        line: usize,
    },
    /// A memory access outside every global buffer.
    #[error("{what} of {bytes} bytes at address 0x{addr:x} (lane {lane}) by 0x{pc:x} (line {line}) is outside every buffer")]
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
        /// Its source line.
        line: usize,
    },
    /// A scratch access beyond the per-lane scratch limit.
    #[error("scratch {what} of {bytes} bytes at offset 0x{offset:x} (lane {lane}) by 0x{pc:x} (line {line}) exceeds the scratch limit of {limit} bytes per lane")]
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
        /// Its source line.
        line: usize,
    },
    /// The entry label does not exist.
    #[error("entry label `{0}` is not defined in the program")]
    NoEntry(String),
    /// A dispatch set-up that does not fit the wave or program.
    #[error("bad dispatch set-up: {0}")]
    Setup(String),
}
