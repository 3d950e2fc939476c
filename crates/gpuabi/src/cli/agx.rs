//! `gpuabi agx ...`: the Apple AGX shader-part ABI (vertex, fragment, tile buffer), the
//! part linker, and the assembler and disassembler (`agx_asm`).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_agx::fragment::{fragment_abi, ColorOutput, ColorType, FragmentInput};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::render;
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx::vertex::{vertex_abi, VertexInput};
use gpuabi_agx::vertex_key::{
    fetch_plan, Robustness, RobustnessLevel, VertexElement, VertexKeyError,
};
use gpuabi_agx::{Components, Profile, VsStage};

use super::{write_output, Format, TextFormat};

/// Commands about the AGX shader-part ABI.
#[derive(Debug, Subcommand)]
pub enum AgxCommand {
    /// Vertex ABI: registers the vertex prolog writes, uniform map, first free uniform half.
    Vs(VsArgs),
    /// Fragment ABI: registers the fragment epilog reads, prolog contract, uniform map.
    Fs(FsArgs),
    /// Tile-buffer layout of a set of render-target formats.
    Tilebuffer(TileBufferArgs),
    /// How the vertex prolog fetches one vertex element (format, stride, divisor).
    Velem(VelemArgs),
    /// Link prolog, main shader and epilog code into one program.
    Link(LinkArgs),
    /// Assemble AGX instructions written in Mesa's disassembler syntax.
    Asm(super::agx_asm::AsmArgs),
    /// Disassemble AGX machine code into Mesa's disassembler syntax.
    Disasm(super::agx_asm::DisasmArgs),
    /// Run AGX code on one SIMD group from a start state and print the end state.
    Sim(super::agx_sim::SimArgs),
    /// Generate the vertex prolog of a key (KEY.toml).
    Prolog(super::agx_prolog::PrologArgs),
    /// Generate the fragment epilog of a key (KEY.toml).
    Epilog(super::agx_epilog::EpilogArgs),
    /// Generate the fragment prolog of a key (KEY.toml).
    FsProlog(super::agx_fs_prolog::FsPrologArgs),
    /// The key (KEY.toml) Honeykrisp builds for a Vulkan draw (DRAW.json).
    Key(super::agx_key::KeyArgs),
    /// Run generated or given parts over a draw and print what crosses each boundary.
    #[command(subcommand)]
    Run(super::agx_run::RunCommand),
}

/// Robustness level of the vertex prolog key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RobustnessArg {
    /// No checks requested.
    Disabled,
    /// GLES robustness.
    Gles,
    /// GL robustness: out-of-bounds reads return element 0.
    Gl,
    /// D3D robustness: out-of-bounds reads return zeros.
    D3d,
}

/// Flags of `agx velem`.
#[derive(Debug, Args)]
pub struct VelemArgs {
    /// Vertex format (Mesa pipe-format name, e.g. R32G32B32A32_FLOAT).
    #[arg(long, value_name = "FORMAT")]
    vertex_format: String,
    /// Stride in bytes.
    #[arg(long, value_name = "BYTES")]
    stride: u32,
    /// Per-instance element.
    #[arg(long)]
    instanced: bool,
    /// Instance divisor (with --instanced; 0 = every instance reads the same element).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "instanced")]
    divisor: u32,
    /// Robustness level.
    #[arg(long, value_enum, default_value = "gl")]
    robustness: RobustnessArg,
    /// Hardware soft fault is on.
    #[arg(long)]
    soft_fault: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: TextFormat,
}

/// Numbering of the vertex uniform block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// The seed text: 6n+5 / 6n+12 halves.
    Readme,
    /// Mesa's GL driver: 6n+4 / 6n+12.
    Gl,
    /// Mesa's Vulkan driver: align(6n+12, 4).
    Vk,
}

/// Flags of `agx vs`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("reads").required(true).args(["components", "mask", "attribs"])))]
pub struct VsArgs {
    /// Components the main shader reads, e.g. "0:xyz 1:x 3:xyzw".
    #[arg(long, value_name = "LIST", value_parser = parse_components)]
    components: Option<Components>,
    /// Component mask, bit 4a+c for slot a, component c (hexadecimal).
    #[arg(long, value_name = "0xHEX", value_parser = parse_mask)]
    mask: Option<Components>,
    /// Every component of attribute slots 0..N-1.
    #[arg(long, value_name = "N")]
    attribs: Option<u16>,
    /// The vertex shader runs as a hardware compute shader.
    #[arg(long)]
    compute: bool,
    /// Numbering of the uniform block.
    #[arg(long, value_enum, default_value = "gl")]
    profile: ProfileArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Flags of `agx fs`.
#[derive(Debug, Args)]
pub struct FsArgs {
    /// A colour output LOCATION:TYPE, TYPE like f16x4, u32x2, i16 (repeatable).
    #[arg(long = "color", value_name = "LOC:TYPE")]
    colors: Vec<ColorOutput>,
    /// Dual-source blending; the second colour (location 1) has TYPE, default location 0's.
    #[arg(long, value_name = "TYPE", num_args = 0..=1)]
    dual_source: Option<Option<ColorType>>,
    /// The shader writes depth (exported in r2).
    #[arg(long)]
    depth: bool,
    /// The shader writes stencil (exported in r3l).
    #[arg(long)]
    stencil: bool,
    /// Sample shading: the main shader and epilog run per sample (r0l, r1l live).
    #[arg(long)]
    sample_shading: bool,
    /// Forced early tests with discard: the sample mask is exported in r3h.
    #[arg(long)]
    early_tests_with_discard: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Flags of `agx tilebuffer`.
#[derive(Debug, Args)]
pub struct TileBufferArgs {
    /// Render-target formats in RT order (Mesa pipe-format names; `none` for an unbound RT).
    #[arg(long = "rt", value_name = "FORMAT", required = true)]
    rts: Vec<String>,
    /// Samples per pixel: 1, 2 or 4.
    #[arg(long, default_value_t = 1)]
    samples: u8,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: TextFormat,
}

/// Flags of `agx link`.
#[derive(Debug, Args)]
pub struct LinkArgs {
    /// Prolog code (bytes, without `stop`).
    #[arg(long, value_name = "FILE")]
    prolog: Option<PathBuf>,
    /// Main shader code (its main section, without the preamble); a main vertex shader ends
    /// with `stop` (and Mesa's 8 `trap`), a main fragment shader does not.
    #[arg(long = "main", value_name = "FILE")]
    main_part: PathBuf,
    /// Epilog code (bytes); ends with `stop` (and Mesa's 8 `trap`) unless --samples is given.
    #[arg(long, value_name = "FILE")]
    epilog: Option<PathBuf>,
    /// Sample shading over S samples (1, 2 or 4; Mesa's `nr_samples_shaded`, the draw's
    /// sample count): the linker wraps main shader and epilog in the sample loop and ends
    /// the program itself; leave out for no sample shading.
    #[arg(long, value_name = "S")]
    samples: Option<u8>,
    /// GPRs the prolog uses, in 16-bit halves (Mesa's nr_gprs).
    #[arg(long, value_name = "HALVES", default_value_t = 0)]
    prolog_gprs: u16,
    /// GPRs the main shader uses, in 16-bit halves.
    #[arg(long, value_name = "HALVES", default_value_t = 0)]
    main_gprs: u16,
    /// GPRs the epilog uses, in 16-bit halves.
    #[arg(long, value_name = "HALVES", default_value_t = 0)]
    epilog_gprs: u16,
    /// Where to write the linked program.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Format of the summary printed on standard output.
    #[arg(long, value_enum, default_value = "text")]
    format: TextFormat,
}

fn parse_components(text: &str) -> Result<Components, String> {
    Components::parse_list(text).map_err(|e| e.to_string())
}

fn parse_mask(text: &str) -> Result<Components, String> {
    Components::parse_mask(text).map_err(|e| e.to_string())
}

/// Runs one `agx` command.
pub fn run(cmd: AgxCommand) -> anyhow::Result<()> {
    match cmd {
        AgxCommand::Vs(a) => vs(a),
        AgxCommand::Fs(a) => fs(a),
        AgxCommand::Tilebuffer(a) => tilebuffer(a),
        AgxCommand::Velem(a) => velem(a),
        AgxCommand::Link(a) => link_cmd(a),
        AgxCommand::Asm(a) => super::agx_asm::asm(a),
        AgxCommand::Disasm(a) => super::agx_asm::disasm(a),
        AgxCommand::Sim(a) => super::agx_sim::sim(a),
        AgxCommand::Prolog(a) => super::agx_prolog::prolog(a),
        AgxCommand::Run(c) => super::agx_run::run_cmd(c),
        AgxCommand::Epilog(a) => super::agx_epilog::epilog(a),
        AgxCommand::FsProlog(a) => super::agx_fs_prolog::fs_prolog(a),
        AgxCommand::Key(a) => super::agx_key::key(a),
    }
}

fn vs(a: VsArgs) -> anyhow::Result<()> {
    let (flag, components) = match (a.components, a.mask, a.attribs) {
        (Some(c), _, _) => ("--components", c),
        (_, Some(m), _) => ("--mask", m),
        (_, _, Some(n)) => (
            "--attribs",
            Components::all_of_first(n).map_err(|e| anyhow!("--attribs {n}: {}", e.message))?,
        ),
        _ => bail!("one of --components, --mask or --attribs is required"),
    };
    let profile = match a.profile {
        ProfileArg::Readme => Profile::Readme,
        ProfileArg::Gl => Profile::Gl,
        ProfileArg::Vk => Profile::Vk,
    };
    let input = VertexInput {
        components,
        stage: if a.compute {
            VsStage::Compute
        } else {
            VsStage::Hardware
        },
        profile,
    };
    let abi = vertex_abi(&input).map_err(|e| anyhow!("{flag}: {e}"))?;
    write_output(&match a.format {
        Format::Text => render::text::vertex(&abi),
        Format::Json => render::json(&abi),
        Format::Svg => render::svg::vertex(&abi),
    })
}

fn fs(a: FsArgs) -> anyhow::Result<()> {
    let dual_source = match a.dual_source {
        None => None,
        Some(Some(ty)) => Some(ty),
        Some(None) => Some(
            a.colors
                .iter()
                .find(|c| c.location == 0)
                .map(|c| c.ty)
                .ok_or_else(|| {
                    anyhow!("--dual-source: the second colour pairs with location 0, but no --color 0:TYPE is given")
                })?,
        ),
    };
    let input = FragmentInput {
        colors: a.colors,
        dual_source,
        depth: a.depth,
        stencil: a.stencil,
        sample_shading: a.sample_shading,
        early_tests_with_discard: a.early_tests_with_discard,
    };
    let abi = fragment_abi(&input).map_err(|e| {
        let flag = if dual_source.is_some()
            && matches!(
                e,
                gpuabi_agx::FragmentError::DualSourceConflict
                    | gpuabi_agx::FragmentError::DualSourceWithoutLocation0
            ) {
            "--dual-source"
        } else {
            "--color"
        };
        anyhow!("{flag}: {e}")
    })?;
    write_output(&match a.format {
        Format::Text => render::text::fragment(&abi),
        Format::Json => render::json(&abi),
        Format::Svg => render::svg::fragment(&abi),
    })
}

fn tilebuffer(a: TileBufferArgs) -> anyhow::Result<()> {
    let formats: Vec<Option<&str>> = a
        .rts
        .iter()
        .map(|f| (!f.eq_ignore_ascii_case("none")).then_some(f.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, a.samples).map_err(|e| {
        let flag = match e {
            gpuabi_agx::TileBufferError::UnsupportedSampleCount(_) => "--samples",
            _ => "--rt",
        };
        anyhow!("{flag}: {e}")
    })?;
    write_output(&match a.format {
        TextFormat::Text => render::text::tilebuffer(&layout),
        TextFormat::Json => render::json(&layout),
    })
}

fn velem(a: VelemArgs) -> anyhow::Result<()> {
    let element = VertexElement {
        format: a.vertex_format.clone(),
        stride: a.stride,
        divisor: a.divisor,
        instanced: a.instanced,
    };
    let level = match a.robustness {
        RobustnessArg::Disabled => RobustnessLevel::Disabled,
        RobustnessArg::Gles => RobustnessLevel::Gles,
        RobustnessArg::Gl => RobustnessLevel::Gl,
        RobustnessArg::D3d => RobustnessLevel::D3d,
    };
    let plan = fetch_plan(
        &element,
        Robustness {
            level,
            soft_fault: a.soft_fault,
        },
    )
    .map_err(|e| {
        let flag = match e {
            VertexKeyError::MisalignedStride { .. } => "--stride",
            VertexKeyError::UnsupportedVertexFormat(_) => "--vertex-format",
        };
        anyhow!("{flag}: {e}")
    })?;
    write_output(&match a.format {
        TextFormat::Text => render::text::fetch_plan(&plan),
        TextFormat::Json => render::json(&plan),
    })
}

/// Largest part file accepted: far beyond any shader, small enough to stay bounded.
const MAX_PART_BYTES: u64 = 64 << 20;

fn read_part(flag: &str, path: &Path) -> anyhow::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)
        .with_context(|| format!("{flag} {}: cannot read the file", path.display()))?;
    if meta.len() > MAX_PART_BYTES {
        bail!(
            "{flag} {}: {} bytes is larger than the {} MiB a shader part may have",
            path.display(),
            meta.len(),
            MAX_PART_BYTES >> 20
        );
    }
    // Bounded read: the size from the metadata is 0 for devices and pipes.
    super::read_bytes(path, MAX_PART_BYTES)
        .with_context(|| format!("{flag} {}: cannot read the file", path.display()))
}

/// A part with only its GPR count known; the other facts keep their neutral values.
fn part(code: &[u8], gpr_halves: u16) -> Part<'_> {
    Part {
        code,
        info: PartInfo {
            gpr_halves,
            ..PartInfo::default()
        },
    }
}

fn link_cmd(a: LinkArgs) -> anyhow::Result<()> {
    let prolog = a
        .prolog
        .as_deref()
        .map(|p| read_part("--prolog", p))
        .transpose()?;
    let main = read_part("--main", &a.main_part)?;
    let epilog = a
        .epilog
        .as_deref()
        .map(|p| read_part("--epilog", p))
        .transpose()?;
    let input = LinkInput {
        prolog: prolog.as_deref().map(|b| part(b, a.prolog_gprs)),
        main: part(&main, a.main_gprs),
        epilog: epilog.as_deref().map(|b| part(b, a.epilog_gprs)),
        samples: a.samples,
    };
    let prog = link(&input).map_err(|e| {
        let flag = match &e {
            gpuabi_agx::LinkError::UnsupportedSampleCount(_) => "--samples".to_string(),
            gpuabi_agx::LinkError::TooManyGprs { part, .. } => format!("--{part}-gprs"),
            gpuabi_agx::LinkError::OddSize { part, .. } => format!("--{part}"),
            _ => "link".to_string(),
        };
        anyhow!("{flag}: {e}")
    })?;
    super::write_file(&a.output, &prog.code)
        .with_context(|| format!("-o {}: cannot write the file", a.output.display()))?;
    write_output(&match a.format {
        TextFormat::Json => render::json(&prog),
        TextFormat::Text => render::text::link(&prog),
    })
}
