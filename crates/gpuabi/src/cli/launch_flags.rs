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

pub use gpuabi_exec::launch::{arg, buffer, byte_size, integer, number, sizes};

/// Reads at most `max` bytes of the file a `--buffer NAME=SIZE:FILE` starts with.
pub fn read_buffer_file(file: &str, max: u64) -> Result<Vec<u8>, String> {
    super::read_bytes(file, max).map_err(|e| e.to_string())
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
