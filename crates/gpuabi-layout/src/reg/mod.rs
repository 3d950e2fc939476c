//! The register model: AMD SGPR/VGPR registers, ranges and sets, AGX 16-bit halves, and
//! their vendor syntax (`s4`, `s[0:1]`, `v[4:6]`; `r8`, `r3l`, `u6_u7`).

mod agx;
mod amd;
mod parse_error;
mod set;

pub use agx::{size_halves, AgxFile, AgxRange, AgxRegName, AgxTuple};
pub use amd::{Reg, RegClass, RegFile, RegRange, INDEX_SPACE};
pub use parse_error::RegParseError;
pub use set::RegSet;
