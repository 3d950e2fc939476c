//! `gpuabi`: compute, compile, run and check GPU shader calling conventions.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// gpuabi makes GPU shader calling conventions executable: ACO/RADV function calls,
/// the AMD Catalyst OpenCL 1.2 kernel ABI and the Apple AGX shader-part ABI.
#[derive(Debug, Parser)]
#[command(name = "gpuabi", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// ACO/RADV call ABIs: preserved/clobbered ranges and parameter assignment.
    #[command(subcommand)]
    Aco(cli::aco::AcoCommand),
    /// Apple AGX shader-part ABI: vertex/fragment layouts, tile buffer, part linker.
    #[command(subcommand)]
    Agx(cli::agx::AgxCommand),
    /// AMD Catalyst OpenCL 1.2 kernel ABI: argument layout, ids, user data (CLRX-compatible).
    #[command(subcommand)]
    Catalyst(cli::catalyst::CatalystCommand),
    // New top-level commands go below this line, one per layer.
    /// AMD GCN/RDNA assembly (LLVM syntax): check and format files.
    #[command(subcommand)]
    Asm(cli::asm::AsmCommand),
    /// SIMT simulator of AMD machine programs with the call-ABI contract checker.
    #[command(subcommand)]
    Sim(cli::sim::SimCommand),
    /// Shader IR (.gsir): check and format files.
    #[command(subcommand)]
    Ir(cli::ir::IrCommand),
    /// Compile the kernels of a .gsir file to AMD assembly (an HSA code object's source).
    Compile(cli::compile::CompileArgs),
    /// Run a kernel of a .gsir file in the reference interpreter, or compiled in the
    /// simulator with --target.
    Run(cli::run::RunArgs),
    /// RADV's ray-tracing pipelines (captures of tools/mesa/capture-rt) in the simulator.
    #[command(subcommand)]
    Radv(cli::radv::RadvCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Aco(cmd) => cli::aco::run(cmd),
        Command::Asm(cmd) => cli::asm::run(cmd),
        Command::Sim(cmd) => cli::sim::run(cmd),
        Command::Ir(cmd) => cli::ir::run(cmd),
        Command::Compile(args) => cli::compile::run(args),
        Command::Run(args) => cli::run::run(args),
        Command::Radv(cmd) => cli::radv::run(cmd),
        Command::Agx(cmd) => cli::agx::run(cmd),
        Command::Catalyst(cmd) => cli::catalyst::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            cli::report(&err);
            ExitCode::FAILURE
        }
    }
}
