//! gpuabi-amdgpu: the AMD GCN/RDNA machine model of gpuabi.
//!
//! It names the targets (`gfx6`, `gfx7`, `gfx8`, `gfx1030`, `gfx1100`; the target type is `gpuabi-layout`'s
//! [`Gfx`]) and their wave sizes, the operands an
//! instruction can take (SGPR/VGPR tuples, `vcc`, `exec`, `m0`, inline constants, literals,
//! label expressions), a table of instructions with their format, operand kinds, mnemonic
//! per target and class, and a parser and printer for LLVM's AMDGPU assembly syntax.
//! Programs printed here are accepted by LLVM 19's `llvm-mc` and encode to the same bytes as
//! the text they were parsed from. The encoder ([`encode()`]) turns programs into the same
//! machine code as `llvm-mc`, the decoder ([`decode()`]) turns machine code back into
//! programs, and [`elf`] writes and reads AMDGPU relocatable objects.

pub mod asm;
pub mod code_object;
pub mod data;
pub mod decode;
pub mod dont_care;
pub mod elf;
pub mod encode;
pub mod encoding;
pub mod error;
pub mod hsa;
pub mod inst;
pub mod microcode;
pub mod not_modelled;
pub mod opcode_numbers;
pub mod opcodes;
pub mod operand;
pub mod origin;
pub mod output_mods;
pub mod pal;
pub mod program;
pub mod target;
pub mod validate;
pub mod wait_events;

pub use decode::{decode, DecodeError};
pub use encode::{encode, encode_inst, EncodeError};
pub use error::{AsmError, ProgramError};
pub use inst::{DstUnused, Inst, MemMods, Sdwa, SdwaSel, SrcMods};
pub use not_modelled::{not_modelled, NotModelled, NOT_MODELLED};
pub use opcodes::{
    AtomicOp, Class, DsAccess, DsOp, Effects, Format, Half, Kind, MemAtomic, OpInfo, Opcode,
    Targets,
};
pub use operand::{Expr, Imm, Operand, Reloc, Special, Waitcnt};
pub use origin::Origin;
pub use output_mods::{output_mods, ClampKind, Omod, OutputMods};
pub use program::{Entry, Item, Program};
pub use target::{Gfx, Processor, Target, WaveSize, ENCODED_TARGETS, MODELLED_TARGETS};
