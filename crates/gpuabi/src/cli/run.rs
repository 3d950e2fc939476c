//! `gpuabi run`: run a kernel of a `.gsir` file in the reference interpreter, or compiled
//! for a target in the simulator (`--target`), or both, comparing their memory
//! (`--compare`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_ir::ir::Type;

use super::compile::{compile_module, TargetArgs};
use super::ir::load_with_source;
use super::write_output;

/// Flags of `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The `.gsir` file.
    file: PathBuf,
    /// Kernel to run (default: the only kernel of the file).
    #[arg(long)]
    kernel: Option<String>,
    /// Global size in work-items, X[,Y[,Z]]; the number of values is the work dimension.
    #[arg(long, value_name = "X[,Y,Z]")]
    grid: String,
    /// Work-group size X[,Y[,Z]]; each global size must be a multiple of it.
    #[arg(long, value_name = "X[,Y,Z]", default_value = "1")]
    group: String,
    /// Global offset X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y,Z]", default_value = "0")]
    offset: String,
    /// A zero-filled global buffer of SIZE bytes (K/M suffixes allowed), optionally
    /// initialised from a file (shorter files are zero-padded).
    #[arg(long = "buffer", value_name = "NAME=SIZE[:FILE]")]
    buffers: Vec<String>,
    /// A kernel argument by parameter name: a number for i1/i32/i64/f32, a buffer name
    /// (optionally NAME+OFFSET) or a number for ptr. A ptr parameter without --arg gets
    /// the buffer of the same name.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// Print a buffer after the run as hex, u32, i32 or f32 (default hex), to standard
    /// output or to FILE; `bin` writes the raw bytes to FILE.
    #[arg(long = "dump", value_name = "NAME[:FORMAT[:FILE]]")]
    dumps: Vec<String>,
    /// Write a buffer of W×H RGBA8 pixels (bytes R, G, B, A; rows top to bottom) as a PNG
    /// file, by default NAME.png.
    #[arg(long = "png", value_name = "NAME:WxH[:FILE]")]
    pngs: Vec<String>,
    /// Instructions per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_steps)]
    max_steps: u64,
    /// Nested calls per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_call_depth)]
    max_call_depth: u32,
    /// Stack-array bytes per invocation before the run stops.
    #[arg(long, default_value_t = Limits::default().max_stack_bytes)]
    max_stack_bytes: u32,
    /// Bytes of all buffers together.
    #[arg(long, default_value_t = Limits::default().max_memory_bytes)]
    max_memory: u64,
    /// Invocations per dispatch.
    #[arg(long, default_value_t = Limits::default().max_invocations)]
    max_invocations: u64,
    #[command(flatten)]
    target: TargetArgs,
    /// With --target: also run the interpreter and fail at the first byte where the two
    /// runs' buffers differ.
    #[arg(long)]
    compare: bool,
    /// With --target: print the simulator's dynamic counts.
    #[arg(long)]
    stats: bool,
}

/// Runs the `run` command.
pub fn run(a: RunArgs) -> Result<()> {
    let (module, source) = load_with_source(&a.file)?;
    let program = Program::new(&module).map_err(|e| anyhow!("{e}"))?;
    let kernel = match a.kernel {
        Some(k) => k,
        None => {
            let ks: Vec<&str> = program.kernels().collect();
            match ks.as_slice() {
                [k] => k.to_string(),
                [] => bail!("{} has no kernel", a.file.display()),
                _ => bail!(
                    "--kernel: the file has several kernels ({}); name one",
                    ks.join(", ")
                ),
            }
        }
    };
    let Some(params) = program.kernel_params(&kernel) else {
        bail!(
            "--kernel {kernel}: no kernel of that name in {}",
            a.file.display()
        );
    };
    let limits = Limits {
        max_steps: a.max_steps,
        max_call_depth: a.max_call_depth,
        max_stack_bytes: a.max_stack_bytes,
        max_memory_bytes: a.max_memory,
        max_invocations: a.max_invocations,
    };
    let (global, work_dim) = triple(&a.grid, "--grid", 1)?;
    let (group, _) = triple(&a.group, "--group", 1)?;
    let (offset, _) = triple(&a.offset, "--offset", 0)?;
    let dispatch = Dispatch {
        global_size: global,
        group_size: group,
        global_offset: offset,
        work_dim,
    };

    let mut mem = Memory::new(limits.max_memory_bytes);
    for b in &a.buffers {
        let (name, data) = buffer_flag(b, limits.max_memory_bytes)?;
        mem.add(&name, data)
            .map_err(|e| anyhow!("--buffer {b}: {e}"))?;
    }
    let args = kernel_args(&a.args, params, &mem, &kernel)?;

    let opts = a.target.options()?;
    if opts.is_none() && (a.compare || a.stats) {
        bail!("--compare and --stats compare or count compiled code: add --target");
    }
    let interpret = |mem: &mut Memory| -> Result<()> {
        let stats = program
            .dispatch(&kernel, &args, &dispatch, mem, &limits)
            .map_err(|e| match e {
                gpuabi_ir::interp::DispatchError::Run(r) => {
                    anyhow!("{}", r.render(&a.file.display().to_string(), &source))
                }
                e @ gpuabi_ir::interp::DispatchError::TooManyInvocations { .. } => {
                    anyhow!("--grid: {e} (--max-invocations)")
                }
                other => anyhow!("--grid/--group: {other}"),
            })?;
        eprintln!(
            "ran @{kernel}: {} invocation(s), {} instruction(s)",
            stats.invocations, stats.steps
        );
        Ok(())
    };
    match opts {
        None => interpret(&mut mem)?,
        Some(opts) => {
            let compiled = compile_module(&module, &opts, &a.file, &source)?;
            let buffers: Vec<(String, Vec<u8>)> = mem
                .buffers
                .iter()
                .map(|b| (b.name.clone(), b.data.clone()))
                .collect();
            let sim_limits = gpuabi_sim::Limits {
                global_bytes: limits.max_memory_bytes.saturating_mul(2),
                ..gpuabi_sim::Limits::default()
            };
            let out = gpuabi_exec::run(&compiled, &kernel, &dispatch, &args, &buffers, &sim_limits)
                .map_err(|e| match &e {
                    gpuabi_exec::ExecError::Sim {
                        span: Some((s, t)), ..
                    } => {
                        let d = gpuabi_ir::Diagnostic::new(
                            e.to_string(),
                            gpuabi_ir::ir::Span { start: *s, end: *t },
                            "compiled from here",
                        );
                        anyhow!("{}", d.render(&a.file.display().to_string(), &source))
                    }
                    _ => anyhow!("{}: {e}", opts.target.name()),
                })?;
            eprintln!(
                "ran @{kernel} compiled for {} {}: {} wave(s), {} instruction(s)",
                opts.target.name(),
                opts.wave,
                out.stats.waves,
                out.stats.instructions()
            );
            if a.stats {
                print_stats(&out.stats)?;
            }
            if a.compare {
                interpret(&mut mem)?;
                let expected: Vec<(String, Vec<u8>)> = mem
                    .buffers
                    .iter()
                    .map(|b| (b.name.clone(), b.data.clone()))
                    .collect();
                if let Some(d) = gpuabi_exec::first_difference(&expected, &out.buffers) {
                    bail!(
                        "--compare: buffer `{}` differs at byte {}: interpreter {:#04x}, compiled {:#04x}",
                        d.buffer,
                        d.offset,
                        d.expected,
                        d.actual
                    );
                }
                eprintln!("--compare: every buffer is identical");
            }
            for (b, (_, data)) in mem.buffers.iter_mut().zip(out.buffers) {
                b.data = data;
            }
        }
    }
    for d in &a.dumps {
        dump(d, &mem)?;
    }
    for p in &a.pngs {
        png_out(p, &mem)?;
    }
    Ok(())
}

/// Dynamic counts of a compiled run: wave and lane instructions by class, scratch traffic.
fn print_stats(s: &gpuabi_sim::Stats) -> Result<()> {
    let mut out = String::new();
    let _ = writeln!(out, "waves: {}", s.waves);
    let _ = writeln!(out, "wave instructions: {}", s.instructions());
    for c in gpuabi_amdgpu::Class::ALL {
        let n = s.count(c);
        if n > 0 {
            let _ = writeln!(out, "  {:<8} {n}", c.name());
        }
    }
    let _ = writeln!(out, "lane instructions: {}", s.lane_instructions);
    let _ = writeln!(
        out,
        "average active lanes per VALU instruction: {:.1}",
        s.average_valu_lanes()
    );
    let _ = writeln!(out, "scratch bytes stored: {}", s.scratch_bytes_stored);
    let _ = writeln!(out, "scratch bytes loaded: {}", s.scratch_bytes_loaded);
    write_output(&out)
}

fn triple(s: &str, flag: &str, fill: u32) -> Result<([u32; 3], u32)> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        bail!("{flag} {s}: expected 1 to 3 comma-separated numbers");
    }
    let mut v = [fill; 3];
    for (i, p) in parts.iter().enumerate() {
        v[i] = p
            .trim()
            .parse()
            .map_err(|_| anyhow!("{flag} {s}: `{p}` is not a non-negative 32-bit number"))?;
    }
    Ok((v, parts.len() as u32))
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x") {
        return u64::from_str_radix(h, 16).ok();
    }
    let (num, mul) = match s.strip_suffix(['K', 'k']) {
        Some(n) => (n, 1024),
        None => match s.strip_suffix(['M', 'm']) {
            Some(n) => (n, 1024 * 1024),
            None => (s, 1),
        },
    };
    num.parse::<u64>().ok()?.checked_mul(mul)
}

fn buffer_flag(flag: &str, max_memory: u64) -> Result<(String, Vec<u8>)> {
    let (name, rest) = flag
        .split_once('=')
        .ok_or_else(|| anyhow!("--buffer {flag}: expected NAME=SIZE[:FILE]"))?;
    if name.is_empty() {
        bail!("--buffer {flag}: the buffer needs a name");
    }
    let (size_s, file) = match rest.split_once(':') {
        Some((s, f)) => (s, Some(f)),
        None => (rest, None),
    };
    let size = parse_u64(size_s)
        .ok_or_else(|| anyhow!("--buffer {flag}: `{size_s}` is not a size in bytes"))?;
    if size >= gpuabi_ir::interp::MAX_BUFFER_BYTES {
        bail!("--buffer {flag}: a buffer holds less than 4 GiB");
    }
    // Checked before allocating; the total over all buffers is checked when adding.
    if size > max_memory {
        bail!("--buffer {flag}: {size} bytes exceeds the memory limit of {max_memory} bytes (--max-memory)");
    }
    let mut data = match file {
        // At most `size` bytes are read, so an endless file cannot exhaust memory.
        Some(f) => super::read_bytes(f, size)
            .with_context(|| format!("--buffer {flag}: cannot read {f}"))?,
        None => Vec::new(),
    };
    data.resize(size as usize, 0);
    Ok((name.to_string(), data))
}

fn kernel_args(
    flags: &[String],
    params: &[(String, Type)],
    mem: &Memory,
    kernel: &str,
) -> Result<Vec<u64>> {
    let mut given: Vec<(&str, &str)> = Vec::new();
    for f in flags {
        let (n, v) = f
            .split_once('=')
            .ok_or_else(|| anyhow!("--arg {f}: expected NAME=VALUE"))?;
        if !params.iter().any(|(p, _)| p == n) {
            let names: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
            bail!(
                "--arg {f}: @{kernel} has no parameter `{n}` (parameters: {})",
                names.join(", ")
            );
        }
        given.push((n, v));
    }
    params
        .iter()
        .map(|(name, ty)| {
            let value = given.iter().rev().find(|(n, _)| n == name).map(|(_, v)| *v);
            let value = match (value, ty) {
                (Some(v), _) => v,
                (None, Type::Ptr) if mem.address(name).is_some() => name.as_str(),
                (None, _) => {
                    bail!("missing --arg {name}=VALUE for parameter %{name}: {ty} of @{kernel}")
                }
            };
            arg_value(value, *ty, mem).ok_or_else(|| {
                anyhow!("--arg {name}={value}: not a valid {ty} ({})", expected(*ty))
            })
        })
        .collect()
}

fn expected(ty: Type) -> &'static str {
    match ty {
        Type::I1 => "true, false, 0 or 1",
        Type::I32 => "an integer from -2147483648 to 4294967295",
        Type::I64 => "a 64-bit integer",
        Type::F32 => "a number like 2.5",
        Type::Ptr => "a buffer name, NAME+OFFSET, or an address",
        Type::Stack => "no value",
    }
}

fn int_value(s: &str, bits: u32) -> Option<u64> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if let Some(n) = s.strip_prefix('-') {
        let m = parse_u64(n)?;
        (m <= 1u64 << (bits - 1)).then(|| m.wrapping_neg() & mask)
    } else {
        parse_u64(s).filter(|v| *v <= mask)
    }
}

fn arg_value(s: &str, ty: Type, mem: &Memory) -> Option<u64> {
    let s = s.trim();
    match ty {
        Type::I1 => match s {
            "true" | "1" => Some(1),
            "false" | "0" => Some(0),
            _ => None,
        },
        Type::I32 => int_value(s, 32),
        Type::I64 => int_value(s, 64),
        Type::F32 => s.parse::<f32>().ok().map(|f| u64::from(f.to_bits())),
        Type::Ptr => {
            let (name, off) = match s.split_once('+') {
                Some((n, o)) => (n, parse_u64(o)?),
                None => (s, 0),
            };
            match mem.address(name) {
                Some(a) => a.checked_add(off),
                None => parse_u64(s),
            }
        }
        Type::Stack => None,
    }
}

fn dump(flag: &str, mem: &Memory) -> Result<()> {
    let mut parts = flag.splitn(3, ':');
    let name = parts.next().unwrap_or_default();
    let format = parts.next().unwrap_or("hex");
    let file = parts.next();
    let buf = mem
        .buffer(name)
        .ok_or_else(|| anyhow!("--dump {flag}: no buffer `{name}`"))?;
    if format == "bin" {
        let Some(f) = file else {
            bail!("--dump {flag}: the bin format needs a FILE (NAME:bin:FILE)");
        };
        return std::fs::write(f, &buf.data)
            .with_context(|| format!("--dump {flag}: cannot write {f}"));
    }
    let text = format_buffer(&buf.data, format).ok_or_else(|| {
        anyhow!("--dump {flag}: format `{format}` is not one of hex, u32, i32, f32, bin")
    })?;
    match file {
        Some(f) => {
            std::fs::write(f, text).with_context(|| format!("--dump {flag}: cannot write {f}"))
        }
        None => write_output(&format!("{name}:\n{text}")),
    }
}

/// Text of a buffer: 16 bytes per line for hex, 4 values per line otherwise, each line
/// starting with its byte offset.
fn format_buffer(data: &[u8], format: &str) -> Option<String> {
    let mut out = String::new();
    match format {
        "hex" => {
            for (i, chunk) in data.chunks(16).enumerate() {
                let _ = write!(out, "{:08x}:", i * 16);
                for b in chunk {
                    let _ = write!(out, " {b:02x}");
                }
                out.push('\n');
            }
        }
        "u32" | "i32" | "f32" => {
            for (i, chunk) in data.chunks(16).enumerate() {
                let _ = write!(out, "{:08x}:", i * 16);
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
                out.push('\n');
            }
        }
        _ => return None,
    }
    Some(out)
}

fn png_out(flag: &str, mem: &Memory) -> Result<()> {
    let mut parts = flag.splitn(3, ':');
    let name = parts.next().unwrap_or_default();
    let size = parts
        .next()
        .ok_or_else(|| anyhow!("--png {flag}: expected NAME:WxH[:FILE]"))?;
    let file = parts
        .next()
        .map_or_else(|| format!("{name}.png"), str::to_string);
    let (w, h) = size
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
        .filter(|(w, h)| *w > 0 && *h > 0)
        .ok_or_else(|| anyhow!("--png {flag}: `{size}` is not a size like 128x128"))?;
    let buf = mem
        .buffer(name)
        .ok_or_else(|| anyhow!("--png {flag}: no buffer `{name}`"))?;
    // At most (2^32 - 1)^2 * 4, which needs more than 64 bits: checked.
    let need = u64::from(w)
        .checked_mul(u64::from(h))
        .and_then(|n| n.checked_mul(4))
        .unwrap_or(u64::MAX);
    if (buf.data.len() as u64) < need {
        bail!(
            "--png {flag}: {w}x{h} RGBA8 needs {need} bytes but buffer `{name}` has {}",
            buf.data.len()
        );
    }
    write_png(
        &format!("--png {flag}"),
        &file,
        w,
        h,
        &buf.data[..need as usize],
    )?;
    eprintln!("wrote {file} ({w}x{h})");
    Ok(())
}

/// Writes `w` × `h` RGBA8 pixels (row-major, 4 bytes each) to the PNG file `file`; errors
/// start with `flag`.
pub(super) fn write_png(flag: &str, file: &str, w: u32, h: u32, rgba: &[u8]) -> Result<()> {
    let out =
        std::fs::File::create(file).with_context(|| format!("{flag}: cannot create {file}"))?;
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
