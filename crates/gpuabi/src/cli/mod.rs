//! One module per command family; each turns flags into engine calls and prints the result.

pub mod aco;
mod output;

pub use output::{write_output, Format};

/// Prints an error and its causes to standard error.
pub fn report(err: &anyhow::Error) {
    eprintln!("error: {err}");
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
}
