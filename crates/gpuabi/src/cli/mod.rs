//! One module per command family; each turns flags into engine calls and prints the result.

pub mod aco;
pub mod agx;
mod agx_asm;
mod agx_epilog;
mod agx_fragment_files;
mod agx_fs_prolog;
mod agx_key;
mod agx_part_file;
mod agx_prolog;
mod agx_run;
mod agx_run_fragment;
mod agx_sim;
mod agx_stats;
pub mod asm;
pub mod catalyst;
mod catalyst_build;
pub mod check_function;
pub mod code_object;
pub mod compile;
mod input;
pub mod ir;
pub mod launch_flags;
mod output;
pub mod pal;
pub mod radv;
pub mod run;
pub mod sim;

pub use input::{read_bytes, read_text, MAX_INPUT_BYTES};
pub use output::{create_file, stream_output, write_file, write_output, Format, TextFormat};

/// Prints an error with its context chain (`--flag: what was wrong`) to standard error,
/// once prefixed with `error:` (an inner error's own `error: ` is dropped) and with lines
/// that quote a long input cut.
pub fn report(err: &anyhow::Error) {
    let text = format!("{err:#}");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    eprintln!("error: {}", gpuabi_ir::diagnostic::cap_lines(text));
}
