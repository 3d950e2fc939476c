//! Reading kernel descriptions from OpenCL C source.

pub mod lexer;
pub mod parser;

pub use parser::{parse_kernels, parse_param, parse_type_env, select_kernel, SourceError, TypeEnv};
