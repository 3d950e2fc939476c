//! LLVM AMDGPU assembly: a lexer, a parser into [`crate::Program`] and a printer back to text.

pub mod buffer_format;
pub mod cache_policy;
pub mod lexer;
pub mod listing;
pub mod parser;
pub mod printer;
mod symbolic_imm;
pub mod target_id;
mod waitcnt_bits;

pub use parser::{parse, parse_listed};
pub use printer::{print, print_with_lines};
pub use symbolic_imm::{hwreg_whole, HW_REGS, HW_REG_MODE};
