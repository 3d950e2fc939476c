//! The launch flags shared by `run` and `sim run`: dispatch sizes, buffers, kernel
//! arguments, buffer dumps and images, with one parser for each value form.
//!
//! Numbers are decimal or `0x` hex everywhere; sizes in bytes also take a `K` (KiB) or `M`
//! (MiB) suffix. Every error names the flag and its value (`--grid 1,2,3,4: expected ...`)
//! and says what was expected.

use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use super::write_output;

/// Flags describing one dispatch: sizes, buffers, arguments and what to write afterwards.
#[derive(Debug, Args)]
pub struct LaunchArgs {
    /// Global size in work-items X[,Y[,Z]]; the number of values is the work dimension.
    #[arg(long, visible_alias = "global", value_name = "X[,Y,Z]")]
    pub grid: Option<String>,
    /// Work-group size X[,Y[,Z]]; each global size must be a multiple of it.
    #[arg(long, visible_alias = "local", value_name = "X[,Y,Z]")]
    pub group: Option<String>,
    /// Global offset X[,Y[,Z]] (default 0).
    #[arg(long, value_name = "X[,Y,Z]")]
    pub offset: Option<String>,
    /// A global buffer of SIZE bytes (K/M suffixes allowed), zero-filled or initialised
    /// from a file (shorter files are zero-padded); NAME=u32:V,V,... gives its dwords.
    #[arg(long = "buffer", value_name = "NAME=SIZE[:FILE]")]
    pub buffers: Vec<String>,
    /// A kernel argument by parameter name: numbers (N[,N...] for vectors), or a buffer
    /// as NAME, @NAME or NAME+OFFSET for pointers.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// Print a buffer after the run as hex, u32, i32 or f32 (default hex), to standard
    /// output or to FILE; `bin` writes the raw bytes to FILE.
    #[arg(long = "dump", value_name = "NAME[:FORMAT[:FILE]]")]
    pub dumps: Vec<String>,
    /// Write a buffer of W×H RGBA8 pixels (bytes R, G, B, A; rows top to bottom) as a PNG
    /// file, by default NAME.png.
    #[arg(long = "png", value_name = "NAME:WxH[:FILE]")]
    pub pngs: Vec<String>,
}

/// The `--stats` text of `run --target` and `sim run`: wave and lane instructions by
/// class, calls, scratch traffic and what ran out of range, one count a line.
pub fn stats_text(stats: &gpuabi_sim::Stats) -> String {
    let mut out = String::from("statistics:\n");
    let mut line = |label: &str, value: String| {
        let _ = writeln!(out, "  {label:<30} {value}");
    };
    line("waves", stats.waves.to_string());
    line("wave instructions", stats.instructions().to_string());
    for class in gpuabi_amdgpu::Class::ALL {
        line(
            &format!("  {}", class.name()),
            stats.count(class).to_string(),
        );
    }
    line("lane instructions", stats.lane_instructions.to_string());
    line(
        "average active lanes per VALU",
        format!("{:.2}", stats.average_valu_lanes()),
    );
    line("calls", stats.calls.to_string());
    line(
        "scratch bytes loaded/stored",
        format!(
            "{}/{}",
            stats.scratch_bytes_loaded, stats.scratch_bytes_stored
        ),
    );
    line(
        "buffer accesses out of range",
        stats.buffer_out_of_range.to_string(),
    );
    line(
        "LDS dwords out of range",
        stats.lds_out_of_range.to_string(),
    );
    line("barriers released", stats.barriers.to_string());
    line(
        "scheduling hints (no-ops)",
        stats.scheduling_hints.to_string(),
    );
    line("waits (no-ops)", stats.waits.to_string());
    out
}

/// Sizes of a dispatch dimension flag: the values given and the work dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// X, Y, Z; the ones not given are `fill`.
    pub values: [u32; 3],
    /// How many values were given (1 to 3).
    pub dims: u32,
}

/// Parses X[,Y[,Z]] of `flag`, filling the missing dimensions with `fill`.
pub fn sizes(flag: &str, text: &str, fill: u32) -> Result<Sizes> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        bail!("{flag} {text}: expected 1 to 3 comma-separated numbers X[,Y,Z]");
    }
    let mut values = [fill; 3];
    for (v, p) in values.iter_mut().zip(&parts) {
        *v = number(p)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                anyhow!(
                    "{flag} {text}: `{p}` is not a number from 0 to 4294967295 (decimal or 0x hex)"
                )
            })?;
    }
    Ok(Sizes {
        values,
        dims: parts.len() as u32,
    })
}

/// A non-negative number, decimal or `0x` hex.
pub fn number(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

/// A size in bytes: a [`number`] with an optional `K` (KiB) or `M` (MiB) suffix.
pub fn byte_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = if let Some(n) = t.strip_suffix(['K', 'k']) {
        (n, 1 << 10)
    } else if let Some(n) = t.strip_suffix(['M', 'm']) {
        // `0x..M`: a hex number cannot end in `M`, so the suffix is never a digit.
        (n, 1 << 20)
    } else {
        (t, 1)
    };
    number(digits)?.checked_mul(unit)
}

/// An integer of `bits` bits, decimal or `0x` hex, optionally negative (two's complement).
pub fn integer(text: &str, bits: u32) -> Option<u64> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let t = text.trim();
    match t.strip_prefix('-') {
        Some(m) => {
            let m = number(m)?;
            (m <= 1u64 << (bits - 1)).then(|| m.wrapping_neg() & mask)
        }
        None => number(t).filter(|v| *v <= mask),
    }
}

/// Parses a limit flag's value (a count or a byte size): decimal or `0x` hex, K/M allowed.
pub fn limit(text: &str) -> Result<u64, String> {
    byte_size(text).ok_or_else(|| {
        format!("`{text}` is not a number (decimal or 0x hex, optionally with a K or M suffix)")
    })
}

/// Parses a 32-bit limit flag's value, as [`limit`].
pub fn limit32(text: &str) -> Result<u32, String> {
    let n = limit(text)?;
    u32::try_from(n).map_err(|_| format!("`{text}` is larger than 4294967295"))
}

/// One `--buffer NAME=SIZE[:FILE]` or `--buffer NAME=u32:V,V,...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferFlag {
    /// The buffer's name.
    pub name: String,
    /// Its contents.
    pub init: BufferInit,
}

/// What a `--buffer` holds at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BufferInit {
    /// `SIZE` zero bytes, or the first bytes of `FILE` zero-padded to `SIZE`.
    Size {
        /// Bytes of the buffer.
        bytes: u64,
        /// The file the buffer starts with.
        file: Option<String>,
    },
    /// Little-endian dwords.
    Words(Vec<u32>),
}

/// Parses the text of one `--buffer`.
pub fn buffer(flag: &str) -> Result<BufferFlag> {
    let (name, rest) = flag
        .split_once('=')
        .ok_or_else(|| anyhow!("--buffer {flag}: expected NAME=SIZE[:FILE] or NAME=u32:V,V,..."))?;
    if name.is_empty() {
        bail!("--buffer {flag}: the buffer needs a name");
    }
    let init = if let Some(list) = rest.strip_prefix("u32:") {
        let mut words = Vec::new();
        for v in list.split(',').filter(|v| !v.trim().is_empty()) {
            let n = integer(v, 32).ok_or_else(|| {
                anyhow!("--buffer {flag}: `{v}` is not a 32-bit number (decimal or 0x hex)")
            })?;
            words.push(n as u32);
        }
        BufferInit::Words(words)
    } else {
        let (size, file) = match rest.split_once(':') {
            Some((s, f)) => (s, Some(f.to_string())),
            None => (rest, None),
        };
        let bytes = byte_size(size).ok_or_else(|| {
            anyhow!("--buffer {flag}: `{size}` is not a size in bytes (decimal or 0x hex, K/M suffixes)")
        })?;
        BufferInit::Size { bytes, file }
    };
    Ok(BufferFlag {
        name: name.to_string(),
        init,
    })
}

impl BufferFlag {
    /// The buffer's bytes, refusing more than `max_bytes` before allocating them; `flag` is
    /// the flag's text for errors.
    pub fn bytes(&self, flag: &str, max_bytes: u64) -> Result<Vec<u8>> {
        match &self.init {
            BufferInit::Words(words) => {
                if words.len() as u64 * 4 > max_bytes {
                    bail!("--buffer {flag}: {} bytes exceeds the memory limit of {max_bytes} bytes (--max-memory)", words.len() * 4);
                }
                Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
            }
            BufferInit::Size { bytes, file } => {
                if *bytes > max_bytes {
                    bail!("--buffer {flag}: {bytes} bytes exceeds the memory limit of {max_bytes} bytes (--max-memory)");
                }
                let mut data = match file {
                    // At most `bytes` bytes are read, so an endless file cannot exhaust memory.
                    Some(f) => super::read_bytes(f, *bytes)
                        .with_context(|| format!("--buffer {flag}: cannot read {f}"))?,
                    None => Vec::new(),
                };
                data.resize(*bytes as usize, 0);
                Ok(data)
            }
        }
    }
}

/// One `--arg NAME=VALUE`, split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgFlag {
    /// The parameter's name.
    pub name: String,
    /// The value's text.
    pub value: String,
}

/// Parses the text of one `--arg`.
pub fn arg(flag: &str) -> Result<ArgFlag> {
    let (name, value) = flag
        .split_once('=')
        .ok_or_else(|| anyhow!("--arg {flag}: expected NAME=VALUE"))?;
    if name.is_empty() {
        bail!("--arg {flag}: expected NAME=VALUE with a parameter name");
    }
    Ok(ArgFlag {
        name: name.to_string(),
        value: value.to_string(),
    })
}

impl ArgFlag {
    /// The value as a buffer reference `NAME`, `@NAME` or `NAME+OFFSET`: the buffer's
    /// name and the byte offset, if `is_buffer` knows the name. `@` insists on a buffer.
    pub fn buffer(&self, is_buffer: impl Fn(&str) -> bool) -> Result<Option<(String, u64)>> {
        let v = self.value.trim();
        let (explicit, v) = match v.strip_prefix('@') {
            Some(rest) => (true, rest),
            None => (false, v),
        };
        let (name, offset) = match v.split_once('+') {
            Some((n, o)) => (n, Some(o)),
            None => (v, None),
        };
        if !is_buffer(name) {
            if explicit {
                bail!(
                    "--arg {}={}: no buffer `{name}` (define it with --buffer)",
                    self.name,
                    self.value
                );
            }
            return Ok(None);
        }
        let offset = match offset {
            None => 0,
            Some(o) => byte_size(o).ok_or_else(|| {
                anyhow!(
                    "--arg {}={}: `{o}` is not a byte offset (decimal or 0x hex)",
                    self.name,
                    self.value
                )
            })?,
        };
        Ok(Some((name.to_string(), offset)))
    }
}

/// One `--dump NAME[:FORMAT[:FILE]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DumpFlag<'a> {
    name: &'a str,
    format: &'a str,
    file: Option<&'a str>,
}

fn dump_flag(flag: &str) -> Result<DumpFlag<'_>> {
    let mut parts = flag.splitn(3, ':');
    let name = parts.next().unwrap_or_default();
    let format = parts.next().unwrap_or("hex");
    let file = parts.next();
    if !["hex", "u32", "i32", "f32", "bin"].contains(&format) {
        bail!("--dump {flag}: format `{format}` is not one of hex, u32, i32, f32, bin");
    }
    if format == "bin" && file.is_none() {
        bail!("--dump {flag}: the bin format needs a FILE (NAME:bin:FILE)");
    }
    Ok(DumpFlag { name, format, file })
}

/// One `--png NAME:WxH[:FILE]`, the picture flag of every command that writes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PngFlag<'a> {
    /// The buffer (or render target) whose pixels it writes.
    pub name: &'a str,
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The file, by default `NAME.png`.
    pub file: String,
}

/// Parses the text of one `--png NAME:WxH[:FILE]`.
pub fn png_flag(flag: &str) -> Result<PngFlag<'_>> {
    let mut parts = flag.splitn(3, ':');
    let name = parts.next().unwrap_or_default();
    let size = parts.next().ok_or_else(|| {
        anyhow!("--png {flag}: expected NAME:WxH[:FILE] (the picture's name, its size and optionally the file, e.g. image:128x128:out.png)")
    })?;
    let file = parts
        .next()
        .map_or_else(|| format!("{name}.png"), str::to_string);
    let (width, height) = size
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .filter(|(w, h)| *w > 0 && *h > 0)
        .ok_or_else(|| anyhow!("--png {flag}: `{size}` is not a size like 128x128"))?;
    Ok(PngFlag {
        name,
        width,
        height,
        file,
    })
}

impl LaunchArgs {
    /// Checks the syntax of every flag that is used only after the run, so a typo fails
    /// before a long run rather than after it.
    pub fn check_outputs(&self) -> Result<()> {
        for d in &self.dumps {
            dump_flag(d)?;
        }
        for p in &self.pngs {
            png_flag(p)?;
        }
        Ok(())
    }

    /// Checks that every `--dump` and `--png` names one of the buffers `names`, before the
    /// run rather than after it.
    pub fn check_buffers(&self, names: &[&str]) -> Result<()> {
        for flag in &self.dumps {
            let d = dump_flag(flag)?;
            if !names.contains(&d.name) {
                return Err(no_buffer(&format!("--dump {flag}"), d.name, names));
            }
        }
        for flag in &self.pngs {
            let p = png_flag(flag)?;
            if !names.contains(&p.name) {
                return Err(no_buffer(&format!("--png {flag}"), p.name, names));
            }
        }
        Ok(())
    }

    /// Writes every `--dump` and `--png`, finding buffers by name with `find`; `names` are
    /// the buffers there are, for the error of a name that is none of them.
    pub fn write_outputs<'m>(
        &self,
        find: impl Fn(&str) -> Option<&'m [u8]>,
        names: &[&str],
    ) -> Result<()> {
        for flag in &self.dumps {
            let d = dump_flag(flag)?;
            let data =
                find(d.name).ok_or_else(|| no_buffer(&format!("--dump {flag}"), d.name, names))?;
            dump(flag, &d, data)?;
        }
        for flag in &self.pngs {
            let p = png_flag(flag)?;
            let data =
                find(p.name).ok_or_else(|| no_buffer(&format!("--png {flag}"), p.name, names))?;
            png(flag, &p, data)?;
        }
        Ok(())
    }
}

/// The error of `flag` naming a buffer `name` that is not one of `names`.
pub fn no_buffer(flag: &str, name: &str, names: &[&str]) -> anyhow::Error {
    anyhow!(
        "{flag}: no buffer {}",
        gpuabi_layout::suggest::suggest(name, "buffers", names)
    )
}

fn dump(flag: &str, d: &DumpFlag, data: &[u8]) -> Result<()> {
    if d.format == "bin" {
        let f = d.file.unwrap_or_default();
        return super::write_file(f, data)
            .with_context(|| format!("--dump {flag}: cannot write {f}"));
    }
    let text = format_buffer(data, d.format);
    match d.file {
        Some(f) => {
            super::write_file(f, text).with_context(|| format!("--dump {flag}: cannot write {f}"))
        }
        None => write_output(&format!("{}:\n{text}", d.name)),
    }
}

/// Text of a buffer: 16 bytes per line for hex, 4 values per line otherwise, each line
/// starting with its byte offset.
fn format_buffer(data: &[u8], format: &str) -> String {
    let mut out = String::new();
    for (i, chunk) in data.chunks(16).enumerate() {
        let _ = write!(out, "{:08x}:", i * 16);
        if format == "hex" {
            for b in chunk {
                let _ = write!(out, " {b:02x}");
            }
        } else {
            for w in chunk.chunks(4) {
                let mut b = [0u8; 4];
                b[..w.len()].copy_from_slice(w);
                let v = u32::from_le_bytes(b);
                let _ = match format {
                    "u32" => write!(out, " {v}"),
                    "i32" => write!(out, " {}", v as i32),
                    _ => write!(out, " {:?}", f32::from_bits(v)),
                };
            }
        }
        out.push('\n');
    }
    out
}

fn png(flag: &str, p: &PngFlag, data: &[u8]) -> Result<()> {
    let (w, h, file) = (p.width, p.height, &p.file);
    // At most (2^32 - 1)^2 * 4, which needs more than 64 bits: checked.
    let need = u64::from(w)
        .checked_mul(u64::from(h))
        .and_then(|n| n.checked_mul(4))
        .unwrap_or(u64::MAX);
    if (data.len() as u64) < need {
        bail!(
            "--png {flag}: {w}x{h} RGBA8 needs {need} bytes but buffer `{}` has {}",
            p.name,
            data.len()
        );
    }
    write_png(&format!("--png {flag}"), file, w, h, &data[..need as usize])?;
    eprintln!("wrote {file} ({w}x{h})");
    Ok(())
}

/// Writes `w` × `h` RGBA8 pixels (row-major, 4 bytes each) to the PNG file `file`; errors
/// start with `flag`.
pub(super) fn write_png(flag: &str, file: &str, w: u32, h: u32, rgba: &[u8]) -> Result<()> {
    let out = super::create_file(file).with_context(|| format!("{flag}: cannot create {file}"))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(out), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc
        .write_header()
        .with_context(|| format!("{flag}: cannot write {file}"))?;
    writer
        .write_image_data(rgba)
        .with_context(|| format!("{flag}: cannot write {file}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sizes_and_integers() {
        assert_eq!(number("0x400"), Some(1024));
        assert_eq!(number("1024"), Some(1024));
        assert_eq!(byte_size("1K"), Some(1024));
        assert_eq!(byte_size("0x10K"), Some(16 * 1024));
        assert_eq!(byte_size("2M"), Some(2 << 20));
        assert_eq!(byte_size("lots"), None);
        assert_eq!(integer("-1", 32), Some(0xffff_ffff));
        assert_eq!(integer("-0x80000000", 32), Some(0x8000_0000));
        assert_eq!(integer("-0x80000001", 32), None);
        assert_eq!(integer("0x100000000", 32), None);
        let s = sizes("--grid", "0x400,2", 1).unwrap();
        assert_eq!((s.values, s.dims), ([1024, 2, 1], 2));
        let e = sizes("--grid", "1,2,3,4", 1).unwrap_err().to_string();
        assert!(e.starts_with("--grid 1,2,3,4: expected 1 to 3"), "{e}");
    }

    #[test]
    fn buffer_forms() {
        let b = buffer("out=1K").unwrap();
        assert_eq!(
            b.init,
            BufferInit::Size {
                bytes: 1024,
                file: None
            }
        );
        let b = buffer("in=0x10:data.bin").unwrap();
        assert_eq!(
            b.init,
            BufferInit::Size {
                bytes: 16,
                file: Some("data.bin".into())
            }
        );
        let b = buffer("w=u32:1,0x10,-1").unwrap();
        assert_eq!(b.init, BufferInit::Words(vec![1, 16, u32::MAX]));
        assert_eq!(b.bytes("w=u32:1,0x10,-1", 100).unwrap()[4], 16);
        let e = buffer("b").unwrap_err().to_string();
        assert!(e.starts_with("--buffer b: expected NAME=SIZE"), "{e}");
        let e = buffer("out=2K").unwrap().bytes("out=2K", 1024).unwrap_err();
        assert!(e.to_string().contains("exceeds the memory limit"), "{e}");
    }

    #[test]
    fn argument_buffers() {
        let known = |n: &str| n == "out";
        let a = arg("p=@out+0x10").unwrap();
        assert_eq!(a.buffer(known).unwrap(), Some(("out".into(), 16)));
        assert_eq!(
            arg("p=out").unwrap().buffer(known).unwrap(),
            Some(("out".into(), 0))
        );
        assert_eq!(arg("p=7").unwrap().buffer(known).unwrap(), None);
        assert!(arg("p=@nope").unwrap().buffer(known).is_err());
        assert!(arg("novalue").is_err());
    }
}
