//! The `.gsir` text format: lexer, parser and printer.

pub mod lexer;
pub mod parser;
pub mod printer;

pub use parser::{parse, ParseError};
pub use printer::print;
