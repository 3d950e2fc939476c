//! Reading user files with a bound, so that a huge or endless input (`/dev/zero`, a pipe)
//! ends with a message instead of taking all memory.

use std::io::{self, Read};
use std::path::Path;

/// Largest input file: far beyond any source, description or shader part.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The bytes of `path`, at most `limit` of them; a longer file is an error.
pub fn read_bytes(path: impl AsRef<Path>, limit: u64) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path.as_ref())?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::other("it is a directory"));
    }
    let mut data = Vec::new();
    // One byte more than allowed tells a file of exactly `limit` bytes from a longer one.
    file.take(limit.saturating_add(1)).read_to_end(&mut data)?;
    if data.len() as u64 > limit {
        return Err(io::Error::other(format!(
            "the file is larger than {} bytes",
            limit
        )));
    }
    Ok(data)
}

/// The text of `path` (UTF-8), at most [`MAX_INPUT_BYTES`] long.
pub fn read_text(path: impl AsRef<Path>) -> io::Result<String> {
    String::from_utf8(read_bytes(path, MAX_INPUT_BYTES)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}
