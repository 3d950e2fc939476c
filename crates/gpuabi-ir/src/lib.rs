//! Shader IR of gpuabi: modules of functions with direct, indirect, divergent and recursive
//! calls and `return` parameters, structured control flow, a `.gsir` text format, a
//! verifier and a reference interpreter that defines what programs mean (per invocation).
//!
//! ```text
//! sig $op(i32, i32 return)
//!
//! fn @twice(%x: i32, %r: i32 return) {
//!   %y = add i32 %x, %x
//!   ret %y
//! }
//!
//! fn @main(%out: ptr uniform) kernel {
//!   %i = global_id 0
//!   %f = func_addr @twice
//!   %r = call_indirect $op %f(%i, %i)   ; %r: the callee's final value of %r
//!   store i32 %r, %out
//! }
//! ```
//!
//! Decisions where the issue and the ACO spec leave room (each is also documented where it
//! is implemented):
//!
//! * `return` parameters are in/out: the argument is the value going in, `ret` lists the
//!   final value of every `return` parameter in order, and the call defines one new SSA
//!   value per `return` parameter. A `return` argument must be a value, not a literal, and
//!   a parameter cannot be both `uniform` and `return` (ACO's `UniformReturnParam`).
//! * `uniform` parameters must get uniform arguments: the verifier runs the uniformity
//!   analysis ([`uniformity`]) and rejects a call whose argument for a `uniform` parameter
//!   may differ between the lanes of a wave.
//! * Indirect calls name a signature; at run time the callee's parameters (types and
//!   attributes), `abi`, `divergent_call` and `noreturn` must equal it exactly.
//! * Function addresses are opaque tagged 64-bit values (`ptr`) that can be stored in
//!   memory and loaded back; calling any other value is a runtime error.
//! * `noreturn`: the function has no `return` parameters and its `ret` ends the invocation
//!   (Mesa's `s_endpgm`). Kernels cannot be called or have their address taken.
//! * ABI names `rt_recursive`, `traversal`, `ahit_isec` are Mesa's three RT ABIs; any other
//!   name is kept as written for the layout crate to resolve.
//! * `alloca` arrays are static frame slots (8-byte aligned), zero-filled on function entry;
//!   their `stack` handles cannot leave the function, so they map to scratch.
//! * Integer division by zero is a runtime error; shift amounts are taken modulo the width;
//!   `fptosi`/`fptoui` saturate and map NaN to 0.
//! * f32 results are defined bit for bit so that AMD hardware reproduces them: NaN results
//!   are the first NaN operand quieted or `0x7fc00000` (`0xffc00000` for `0/0` and
//!   `inf/inf`, as AMD's division gives), `fsqrt`/`fdiv` are correctly rounded, `fsin`/`fcos` scale by `f32(1/(2π))` and
//!   take the sine of the fraction of a revolution (the `v_sin_f32` model), `fexp2`/`flog2`
//!   round the f64 result to f32. The formulas are in [`interp::float`].

#![warn(missing_docs)]

pub mod cfg;
pub mod diagnostic;
pub mod ir;
pub mod text;
pub mod uniformity;
pub mod verify;

pub use diagnostic::Diagnostic;
pub use ir::Module;
pub use text::{parse, print, ParseError};
pub use verify::{verify, VerifyError};
pub mod interp;

pub use interp::{Dispatch, Limits, Memory, Program};
