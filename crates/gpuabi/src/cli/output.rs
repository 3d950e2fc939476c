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

/// Writes what `write` produces to standard output through a buffer, ending it with a
/// newline, as [`write_output`] does with a string; for outputs too large to build first.
pub fn stream_output(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = LastByte {
        inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        last: None,
    };
    let result = write(&mut out)
        .and_then(|()| match out.last {
            Some(b'\n') => Ok(()),
            _ => out.write_all(b"\n"),
        })
        .and_then(|()| out.flush());
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// A writer that remembers the last byte written.
struct LastByte<W> {
    inner: W,
    last: Option<u8>,
}

impl<W: Write> Write for LastByte<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `bytes` to the file `path`, creating its folder first, so that `-o out/x.s` works
/// in a fresh clone (where the ignored `out/` does not exist yet).
pub fn write_file(
    path: impl AsRef<std::path::Path>,
    bytes: impl AsRef<[u8]>,
) -> std::io::Result<()> {
    create_parent(path.as_ref())?;
    std::fs::write(path, bytes)
}

/// Creates the file `path` for writing, creating its folder first as [`write_file`] does.
pub fn create_file(path: impl AsRef<std::path::Path>) -> std::io::Result<std::fs::File> {
    create_parent(path.as_ref())?;
    std::fs::File::create(path)
}

fn create_parent(path: &std::path::Path) -> std::io::Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir),
        _ => Ok(()),
    }
}
