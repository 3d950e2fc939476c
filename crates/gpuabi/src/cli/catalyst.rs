//! `gpuabi catalyst ...`: the AMD Catalyst OpenCL 1.2 kernel ABI (CLRX-compatible).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand, ValueEnum};

use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::description::{self, DescFormat, DescriptionError};
use gpuabi_catalyst::driver::{Device, DEFAULT_DRIVER};
use gpuabi_catalyst::layout::{
    layout, NotesPolicy, Options, ProgramPlace, UserDataPolicy, DEFAULT_FLOAT_MODE,
};
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel, SourceError};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::render;
use gpuabi_catalyst::types::Kernel;
use gpuabi_catalyst::userdata;

use super::write_output;

/// Commands about the Catalyst OpenCL 1.2 kernel ABI.
// Parsed once per run: the size difference between the flag sets does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum CatalystCommand {
    /// Lay out a kernel: cb1 offsets, resource ids, user data, registers, PGM_RSRC2,
    /// metadata, CAL notes and header.
    Layout(LayoutArgs),
    /// Read an AMD Catalyst OpenCL 1.2 binary (.clo): for each kernel, the layout it
    /// records (arguments, ids, user data, PGM_RSRC2, CAL notes, header) and its code.
    Inspect(InspectArgs),
    /// Write an AMD Catalyst OpenCL 1.2 binary (.clo), as AMD's driver writes it: from a
    /// kernel's assembly (.s) and its OpenCL signature (--source FILE.cl), or from the
    /// kernels of a .gsir module compiled with the code generator's catalyst entry.
    Build(super::catalyst_build::BuildArgs),
}

/// Output formats of `catalyst inspect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InspectFormat {
    /// A readable summary per kernel.
    Text,
    /// JSON: per kernel the fields of `catalyst layout --format json`, plus the code.
    Json,
}

/// Flags of `catalyst inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The binary (outer ELF32 or ELF64 with __OpenCL_<kernel>_* symbols).
    pub file: PathBuf,
    /// Only this kernel (JSON: the kernel's object alone, not the file object).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InspectFormat,
}

/// Output formats of `catalyst layout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CatalystFormat {
    /// A readable map (SGPRs, VGPRs, cb0, cb1).
    Text,
    /// JSON for other tools.
    Json,
    /// An SVG picture of the map.
    Svg,
    /// CLRX assembly source with a `.config` section.
    Clrx,
}

/// Bitness of the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Bits {
    /// 32-bit binary.
    #[value(name = "32")]
    B32,
    /// 64-bit binary.
    #[value(name = "64")]
    B64,
}

/// Size policy of 64-bit 3-vectors in cb1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Vec3Arg {
    /// CLRX: 32 bytes.
    Clrx,
    /// AMD's compilers: 16 bytes.
    Amd,
}

/// Whose metadata and CAL notes `catalyst layout` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NotesArg {
    /// CLRX's.
    Clrx,
    /// AMD's drivers' (as observed in their binaries).
    Amd,
}

/// Flags of `catalyst layout`.
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// OpenCL C source (.cl), or a JSON (.json) / TOML (.toml) argument list.
    pub file: PathBuf,
    /// Kernel to lay out (needed when the file has several).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CatalystFormat,
    #[command(flatten)]
    pub abi: AbiArgs,
    /// Size of 64-bit 3-vectors in cb1: clrx (32 bytes) or amd (16 bytes).
    #[arg(long, value_enum, default_value = "clrx")]
    pub vec3_64: Vec3Arg,
    /// Where CLRX and AMD's drivers differ, write what clrx writes, or what amd's drivers
    /// wrote: an extra UAV-note entry, RW for unused const global and for const local
    /// pointers in the metadata, no cb1 for all-image kernels under --userdata auto,
    /// sampler lines in the compiler's hash order, unmarked 64-bit binaries (1124.x), the
    /// old drivers' UAV numbering and note, implicit sampler and cb1 rule (before 1124.2);
    /// fields it cannot derive are listed in not_derived.
    #[arg(long, value_enum, default_value = "clrx")]
    pub notes: NotesArg,
}

/// The layout engine's options as flags, shared by `catalyst layout` and `catalyst build`.
#[derive(Debug, Clone, Args)]
pub struct AbiArgs {
    /// Driver version, major*100+minor (1348.5 is 134805).
    #[arg(long, default_value_t = DEFAULT_DRIVER)]
    pub driver: u32,
    /// Device (GCN 1.0-1.2: capeverde, pitcairn, tahiti, oland, hainan, bonaire, spectre,
    /// spooky, kalindi, hawaii, mullins, iceland, tonga, fiji, carrizo, stoney, ellesmere,
    /// baffin, gfx804).
    #[arg(long, default_value = "pitcairn")]
    pub device: String,
    /// Address bitness of the binary (default 32; `catalyst build` of a .gsir: 64).
    #[arg(long, value_enum)]
    pub bits: Option<Bits>,
    /// Dimensions: "xy" (group and local ids), or "xz,x" (group ids, then local ids).
    /// Without it the dimension bits come from --pgmrsrc2 (none by default), as in CLRX.
    #[arg(long)]
    pub dims: Option<String>,
    /// User data: "auto" (derive with the amd policy), "none" (no entries, CLRX default),
    /// or explicit entries "CLASS,SLOT,START,SIZE; ...".
    #[arg(long, default_value = "auto")]
    pub userdata: String,
    /// Enable TG_SIZE_EN (.tgsize).
    #[arg(long)]
    pub tgsize: bool,
    /// Scratch buffer size in bytes (.scratchbuffer).
    #[arg(long, default_value_t = 0)]
    pub scratch: u32,
    /// Initial local data size in bytes (.hwlocal), at most 32768.
    #[arg(long, default_value_t = 0)]
    pub hwlocal: u32,
    /// HWREGION value (.hwregion).
    #[arg(long, default_value_t = 0)]
    pub hwregion: u32,
    /// The kernel uses printf (.useprintf).
    #[arg(long)]
    pub printf: bool,
    /// The kernel uses the program's global constant data (.useconstdata); give the data's
    /// size with --const-data-size.
    #[arg(long)]
    pub const_data: bool,
    /// Size in bytes of the program's global constant data (.globaldata), used by this
    /// kernel or not; 0 means none, as CLRX takes an empty .globaldata (no
    /// ;memory:datareqd, no cb2).
    #[arg(long, default_value_t = 0)]
    pub const_data_size: u32,
    /// Explicit uavid (.uavid).
    #[arg(long)]
    pub uavid: Option<u32>,
    /// Explicit cbid (.cbid).
    #[arg(long)]
    pub cbid: Option<u32>,
    /// Explicit printfid (.printfid).
    #[arg(long)]
    pub printfid: Option<u32>,
    /// Explicit privateid (.privateid).
    #[arg(long)]
    pub privateid: Option<u32>,
    /// Explicit uavprivate (.uavprivate).
    #[arg(long)]
    pub uavprivate: Option<u32>,
    /// User PGM_RSRC2 value; its bits 6, 10 and 13-31 are kept (.pgmrsrc2).
    #[arg(long, value_parser = parse_u32, default_value = "0")]
    pub pgmrsrc2: u32,
    /// Exception mask, 7 bits (.exceptions).
    #[arg(long, value_parser = parse_u32, default_value = "0")]
    pub exceptions: u32,
    /// Used SGPRs (.sgprsnum); default: the minimum the ABI needs (`catalyst build`: or
    /// the highest SGPR the code names + 1, if more).
    #[arg(long)]
    pub sgprs: Option<u32>,
    /// Used VGPRs (.vgprsnum); default: the local-id VGPRs (`catalyst build`: or the
    /// highest VGPR the code names + 1, if more).
    #[arg(long)]
    pub vgprs: Option<u32>,
    /// Float mode byte (.floatmode).
    #[arg(long, value_parser = parse_u32, default_value_t = DEFAULT_FLOAT_MODE)]
    pub float_mode: u32,
    /// IEEE mode (.ieeemode).
    #[arg(long)]
    pub ieee_mode: bool,
    /// Required work-group size "X,Y,Z" (.cws); default: the kernel's attribute.
    #[arg(long)]
    pub cws: Option<String>,
    /// Values of constant samplers the kernel uses, comma-separated (.sampler).
    #[arg(long, value_delimiter = ',', value_parser = parse_u32)]
    pub sampler: Vec<u32>,
    /// amd user-data policy: the code does not read the setup buffer cb0.
    #[arg(long)]
    pub no_setup_buffer: bool,
}

fn parse_u32(s: &str) -> Result<u32, String> {
    userdata::parse_number(s)
        .ok_or_else(|| format!("expected a number (decimal or 0x hex), found '{s}'"))
}

/// Runs one `catalyst` command.
pub fn run(cmd: CatalystCommand) -> anyhow::Result<()> {
    match cmd {
        CatalystCommand::Layout(args) => run_layout(&args),
        CatalystCommand::Inspect(args) => run_inspect(&args),
        CatalystCommand::Build(args) => super::catalyst_build::run(&args),
    }
}

/// Renders a located error in `src` with the source line (cut when long) and a caret.
fn located(path: &Path, src: &str, e: &SourceError) -> anyhow::Error {
    let name = path.display().to_string();
    let range = e.offset..(e.offset + e.len.max(1)).min(src.len()).max(e.offset);
    let snippet = gpuabi_ir::diagnostic::render_error(&name, src, range, &e.message, "", &[]);
    // First line: `file:LINE:COL: message`; then the source line with a caret.
    let snippet: String = snippet.lines().skip(1).collect::<Vec<_>>().join("\n");
    anyhow!("{name}:{}:{}: {}\n{snippet}", e.line, e.column, e.message)
}

/// The kernel `kernel` (or the only one) of an OpenCL C, JSON or TOML file.
pub fn read_kernel(path: &Path, kernel: Option<&str>) -> anyhow::Result<Kernel> {
    let src = super::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let kernels = match ext.as_str() {
        "json" | "toml" => {
            let fmt = if ext == "json" {
                DescFormat::Json
            } else {
                DescFormat::Toml
            };
            description::parse(&src, fmt).map_err(|e| match e {
                DescriptionError::Syntax {
                    line,
                    column,
                    message,
                } => {
                    anyhow!("{}:{line}:{column}: {message}", path.display())
                }
                DescriptionError::Type { .. } => anyhow!("{}: {e}", path.display()),
            })?
        }
        _ => parse_kernels(&src).map_err(|e| located(path, &src, &e))?,
    };
    select_kernel(kernels, kernel).map_err(|m| {
        anyhow!(
            "{}: {m}",
            if kernel.is_some() {
                "--kernel".to_string()
            } else {
                path.display().to_string()
            }
        )
    })
}

/// The layout engine's options from the flags, with the given policies.
pub fn options(a: &AbiArgs, vec3_64: Vec3Policy, notes: NotesPolicy) -> anyhow::Result<Options> {
    let device = Device::from_name(&a.device).context("--device")?;
    let dims = a
        .dims
        .as_deref()
        .map(Dims::parse)
        .transpose()
        .context("--dims")?;
    let userdata = match a.userdata.trim().to_ascii_lowercase().as_str() {
        "auto" | "amd" => UserDataPolicy::Amd,
        "none" | "" => UserDataPolicy::Explicit(Vec::new()),
        _ => UserDataPolicy::Explicit(userdata::parse_list(&a.userdata).context("--userdata")?),
    };
    let cws = match &a.cws {
        None => None,
        Some(text) => {
            let v: Vec<u32> = text
                .split(',')
                .map(|s| parse_u32(s.trim()))
                .collect::<Result<_, _>>()
                .map_err(|m| anyhow!("--cws: {m}"))?;
            match v.as_slice() {
                [x] => Some([*x, 1, 1]),
                [x, y] => Some([*x, *y, 1]),
                [x, y, z] => Some([*x, *y, *z]),
                _ => bail!("--cws: expected 1 to 3 sizes \"X,Y,Z\", found {}", v.len()),
            }
        }
    };
    Ok(Options {
        driver: a.driver,
        device,
        is_64bit: a.bits == Some(Bits::B64),
        dims,
        tgsize: a.tgsize,
        scratch_bytes: a.scratch,
        hwlocal: a.hwlocal,
        hwregion: a.hwregion,
        printf: a.printf,
        const_data: a.const_data,
        global_data_bytes: a.const_data_size,
        userdata,
        vec3_64,
        uavid: a.uavid,
        cbid: a.cbid,
        printfid: a.printfid,
        privateid: a.privateid,
        uavprivate: a.uavprivate,
        pgm_rsrc2: a.pgmrsrc2,
        exceptions: a.exceptions,
        sgprs: a.sgprs,
        vgprs: a.vgprs,
        float_mode: a.float_mode,
        ieee_mode: a.ieee_mode,
        cws,
        const_samplers: a.sampler.clone(),
        setup_buffer_used: !a.no_setup_buffer,
        notes,
        program: ProgramPlace::ALONE,
    })
}

fn run_layout(a: &LayoutArgs) -> anyhow::Result<()> {
    let vec3_64 = match a.vec3_64 {
        Vec3Arg::Clrx => Vec3Policy::Clrx,
        Vec3Arg::Amd => Vec3Policy::Amd,
    };
    let notes = match a.notes {
        NotesArg::Clrx => NotesPolicy::Clrx,
        NotesArg::Amd => NotesPolicy::Amd,
    };
    let opts = options(&a.abi, vec3_64, notes)?;
    let kernel = read_kernel(&a.file, a.kernel.as_deref())?;
    let l = layout(&kernel, &opts).with_context(|| format!("kernel '{}'", kernel.name))?;
    for w in &l.warnings {
        eprintln!("warning: {w}");
    }
    let out = match a.format {
        CatalystFormat::Text => render::text::render(&l),
        CatalystFormat::Json => render::json::render(&l),
        CatalystFormat::Svg => render::svg::render(&l),
        CatalystFormat::Clrx => render::clrx::render(&l),
    };
    write_output(&out)
}

fn run_inspect(a: &InspectArgs) -> anyhow::Result<()> {
    let path = &a.file;
    let data = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bin =
        gpuabi_catalyst::binary::read(&data).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if let Some(name) = &a.kernel {
        let names: Vec<String> = bin.kernels.iter().map(|k| k.kernel.clone()).collect();
        bin.kernels.retain(|k| &k.kernel == name);
        if bin.kernels.is_empty() {
            bail!(
                "--kernel: no kernel '{name}' in {} (it has: {})",
                path.display(),
                names.join(", ")
            );
        }
    }
    let out = match (a.format, &a.kernel) {
        (InspectFormat::Json, Some(_)) => serde_json::to_string_pretty(&bin.kernels[0])?,
        (InspectFormat::Json, None) => serde_json::to_string_pretty(&bin)?,
        (InspectFormat::Text, _) => bin
            .kernels
            .iter()
            .map(render::inspect::render)
            .collect::<Vec<_>>()
            .join("\n"),
    };
    write_output(&out)
}
