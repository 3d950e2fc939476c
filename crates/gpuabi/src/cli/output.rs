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

/// How a result without a picture is printed: [`Format`] without `svg`, so that a command
/// offers only what it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// A readable table.
    Text,
    /// JSON for other tools.
    Json,
}

/// Writes `text` to standard output, ending it with a newline. A reader that stops early
/// (`| head`) is not an error.
pub fn write_output(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let result = out.write_all(text.as_bytes()).and_then(|()| {
        if text.ends_with('\n') {
            Ok(())
        } else {
            out.write_all(b"\n")
        }
    });
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
