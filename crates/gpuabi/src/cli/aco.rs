//! `gpuabi aco ...`: ACO/RADV call ABIs.

use clap::Subcommand;

/// Commands about ACO call ABIs.
#[derive(Debug, Subcommand)]
pub enum AcoCommand {
    /// Print the preserved and clobbered register ranges of an ABI.
    Ranges,
}

/// Runs one `aco` command.
pub fn run(cmd: AcoCommand) -> anyhow::Result<()> {
    match cmd {
        AcoCommand::Ranges => anyhow::bail!("not yet"),
    }
}
