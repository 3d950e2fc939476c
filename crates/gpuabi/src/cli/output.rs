//! Output formats shared by the commands that print a layout.

use std::io::Write;

use clap::ValueEnum;

/// How a layout is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A readable table.
    Text,
    /// JSON for other tools.
    Json,
    /// An SVG picture.
    Svg,
}

/// Writes `text` to standard output, ending it with a newline.
pub fn write_output(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}
