//! `gpuabi sim run ...`: run an assembly program, an AMD Catalyst binary or an AMDHSA code
//! object in the SIMT simulator, with the call-ABI contract checked when `--abi` is given.

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use gpuabi_layout::aco::{Abi, Demand};
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::{Contract, Descriptor, Image, LaneValues, Machine, WaveSetup};

use super::asm::{load, MachineArgs};
use super::launch_flags::{self, LaunchArgs};
use super::write_output;
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Program, WaveSize};
use gpuabi_catalyst::binary::BinaryKernel;
use gpuabi_sim::catalyst::KernelAbi;

/// Commands of the simulator.
#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Run a program: raw register set-up, optional call-ABI contract, buffers printed.
    Run(Box<RunArgs>),
    /// Check one compiled function against its call ABI: many trials with random
    /// registers, memory and exec, every call going to an adversarial callee stub, the
    /// preserved registers, stack pointer, exec and return checked when it leaves.
    CheckFunction(Box<super::check_function::CheckFunctionArgs>),
}

/// Flags of `sim run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The assembly file, AMD Catalyst binary, or AMDHSA or PAL code object (`llc
    /// -filetype=obj`).
    pub file: PathBuf,
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Label where every wave starts.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Check calls against this call ABI: LLVM's callable-function convention (llvm-gfx,
    /// or llvm-amdgpu-gfx for `amdgpu_gfx` functions), an ACO ABI (rt-recursive,
    /// traversal, ahit-isec) or a TOML ABI file.
    #[arg(long, value_name = "NAME|FILE")]
    pub abi: Option<String>,
    /// Register limit for the ABI's preserved ranges as SGPRS,VGPRS (default: the target's).
    #[arg(long, value_name = "SGPRS,VGPRS")]
    pub limit: Option<String>,
    /// The stack-pointer register(s), which calls must leave unchanged; callees may not
    /// store below the stack pointer at the call (into the caller's frame).
    #[arg(long, value_name = "REG")]
    pub sp: Option<String>,
    /// Extra registers callees must preserve (parameters needing explicit preservation).
    #[arg(long, value_name = "REG")]
    pub preserve: Vec<String>,
    /// Initial register values: REG=VALUE where VALUE is a number, `lane` (VGPRs: the lane
    /// index), `@NAME` (a buffer's address, 2 SGPRs) or `@NAME:rsrc` (a buffer resource
    /// descriptor covering the buffer, 4 SGPRs).
    #[arg(long, value_name = "REG=VALUE")]
    pub set: Vec<String>,
    /// Initial execute mask (default: all lanes).
    #[arg(long, value_name = "MASK")]
    pub exec: Option<String>,
    /// Number of waves to run, one after the other, with the same set-up.
    #[arg(long, default_value_t = 1, value_parser = launch_flags::limit32)]
    pub waves: u32,
    /// A buffer to print after the run as unsigned dwords, eight a line with their byte
    /// offset (nothing is printed by default; --dump prints in other formats).
    #[arg(long, value_name = "NAME")]
    pub print: Vec<String>,
    /// Print every executed instruction.
    #[arg(long)]
    pub trace: bool,
    /// Print the dynamic counts of the run, as `run --target --stats` does.
    #[arg(long)]
    pub stats: bool,
    /// Report reads of registers, and of private-segment (scratch) bytes, that nothing
    /// wrote.
    #[arg(long)]
    pub undef: bool,
    /// Set the waves up for the Catalyst OpenCL ABI from this kernel's layout (an OpenCL C
    /// file); gfx8 only.
    #[arg(long, value_name = "KERNEL.cl")]
    pub catalyst: Option<PathBuf>,
    /// The kernel to run (needed when the file has several): of a Catalyst binary or
    /// --catalyst file, of a code object, or of an assembly file with `.amdhsa_kernel`
    /// descriptors and `.amdgpu_metadata` (as llc-19 prints them), which is then dispatched
    /// by the AMDHSA ABI from its own descriptor and metadata, with --grid, --group,
    /// --offset and --arg by the metadata's argument names; or the entry point of a PAL
    /// compute shader (`.amdgpu_pal_metadata`, or a PAL object), whose user SGPRs are bound
    /// by register: --buffer sN=SIZE (a V# in s[N:N+3]), --arg sN=V[,V...], sN=@BUFFER
    /// (its address) or s[N:N+3]=@BUFFER (a V#).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Catalyst device (GCN 1.2: tonga, fiji, iceland, carrizo, stoney, ellesmere, baffin).
    #[arg(long, default_value = "tonga")]
    pub device: String,
    /// Catalyst driver version, major*100+minor.
    #[arg(long, default_value_t = gpuabi_catalyst::driver::DEFAULT_DRIVER)]
    pub driver: u32,
    /// Catalyst binary bitness: 32 or 64.
    #[arg(long, default_value_t = 32)]
    pub bits: u32,
    /// Catalyst dimensions with group/local ids ("x", "xy", "xyz").
    #[arg(long, default_value = "x")]
    pub dims: String,
    /// Dispatch sizes (used with --catalyst), buffers, arguments and outputs.
    #[command(flatten)]
    pub launch: LaunchArgs,
    /// Instructions one wave may execute.
    #[arg(long, default_value_t = gpuabi_sim::Limits::default().instructions_per_wave, value_parser = launch_flags::limit)]
    pub max_instructions: u64,
    /// Bytes of scratch per lane.
    #[arg(long, default_value_t = gpuabi_sim::Limits::default().scratch_bytes_per_lane, value_parser = launch_flags::limit32)]
    pub scratch_per_lane: u32,
    /// Bytes of all buffers together.
    #[arg(long, default_value_t = gpuabi_sim::Limits::default().global_bytes, value_parser = launch_flags::limit)]
    pub max_memory: u64,
}

/// Parses a number: decimal, `0x` hex, optionally negative (as two's complement).
pub fn parse_number(text: &str) -> Option<u64> {
    launch_flags::integer(text, 64)
}

fn parse_reg(text: &str, flag: &str) -> Result<RegRange> {
    text.parse::<RegRange>()
        .map_err(|e| anyhow!("{flag} `{text}`: {e}"))
}

fn apply_set(spec: &str, machine: &Machine, setup: &mut WaveSetup) -> Result<()> {
    let (reg, value) = spec
        .split_once('=')
        .ok_or_else(|| anyhow!("--set `{spec}`: expected REG=VALUE"))?;
    let range = reg
        .parse::<RegRange>()
        .map_err(|e| anyhow!("--set `{spec}`: {e}"))?;
    let values: Vec<u32> = if value == "lane" {
        if range.file() != RegFile::Vgpr || range.count != 1 {
            bail!("--set `{spec}`: `lane` needs one VGPR");
        }
        setup.vgprs.push((range.first.num, LaneValues::LaneId(0)));
        return Ok(());
    } else if let Some(name) = value.strip_prefix('@') {
        let (name, rsrc) = match name.strip_suffix(":rsrc") {
            Some(n) => (n, true),
            None => (name, false),
        };
        let buffer = machine.memory.find(name).ok_or_else(|| {
            anyhow!("--set `{spec}`: no buffer `{name}` (define it with --buffer)")
        })?;
        if rsrc {
            Descriptor {
                base: buffer.base,
                stride: 0,
                num_records: buffer.data.len() as u32,
                swizzle: false,
                add_tid: false,
                index_stride: 8,
                element_size: 4,
            }
            .encode()
            .to_vec()
        } else {
            vec![buffer.base as u32, (buffer.base >> 32) as u32]
        }
    } else {
        let n = parse_number(value).ok_or_else(|| {
            anyhow!("--set `{spec}`: `{value}` is not a number, `lane` or `@BUFFER`")
        })?;
        match range.count {
            1 => vec![n as u32],
            2 => vec![n as u32, (n >> 32) as u32],
            _ => bail!(
                "--set `{spec}`: a number fills 1 or 2 registers; {range} has {}",
                range.count
            ),
        }
    };
    if values.len() != usize::from(range.count) {
        bail!(
            "--set `{spec}`: the value fills {} registers but {range} has {}",
            values.len(),
            range.count
        );
    }
    setup
        .set(range, &values)
        .map_err(|e| anyhow!("--set `{spec}`: {e}"))
}

/// Formats the first `limit` bytes of a buffer as dwords, eight per line.
pub fn buffer_text(name: &str, base: u64, data: &[u8], limit: usize) -> String {
    let mut out = format!("buffer {name} ({} bytes at 0x{base:x}):\n", data.len());
    for (i, chunk) in data[..data.len().min(limit)].chunks(32).enumerate() {
        let _ = write!(out, "  0x{:04x}:", i * 32);
        for d in chunk.chunks(4) {
            let mut b = [0u8; 4];
            b[..d.len()].copy_from_slice(d);
            let _ = write!(out, " {:>10}", u32::from_le_bytes(b));
        }
        out.push('\n');
    }
    if data.len() > limit {
        let _ = writeln!(
            out,
            "  ... {} more bytes (--print {name} prints them all)",
            data.len() - limit
        );
    }
    out
}

/// The contract report of a run: a summary line and one line per violation.
fn contract_text(machine: &Machine) -> String {
    let mut out = String::new();
    if let Some(c) = &machine.contract {
        let _ = writeln!(
            out,
            "contract {}: {} calls returned, {} violations",
            c.abi,
            c.checked_returns,
            c.violations.len() as u64 + c.suppressed
        );
        for v in &c.violations {
            let _ = writeln!(out, "  violation: {v}");
        }
        if c.suppressed > 0 {
            let _ = writeln!(out, "  ... and {} more violations", c.suppressed);
        }
    }
    out
}

/// Builds the contract of `--abi`.
fn contract(
    args: &RunArgs,
    target: gpuabi_amdgpu::Target,
    wave: gpuabi_amdgpu::WaveSize,
) -> Result<Contract> {
    let Some(name) = &args.abi else {
        bail!("internal: no --abi");
    };
    // The built-in names are spelled with `-`; `_` (as the IR writes ABI names) is an alias.
    if let Some(c) = Contract::llvm(&name.replace('_', "-")) {
        if args.limit.is_some() || args.sp.is_some() || !args.preserve.is_empty() {
            bail!("--abi {name}: LLVM's convention fixes its registers; drop --limit, --sp and --preserve");
        }
        return Ok(c);
    }
    let abi = match Abi::builtin(name) {
        Some(abi) => abi,
        None => {
            let text = super::read_text(name).with_context(|| {
                let builtins = [
                    "llvm-gfx",
                    "llvm-amdgpu-gfx",
                    "rt-recursive",
                    "traversal",
                    "ahit-isec",
                ];
                format!(
                    "--abi: unknown ABI {}, and not a readable TOML ABI file",
                    gpuabi_layout::suggest::suggest(name, "built-in ABIs", &builtins)
                )
            })?;
            Abi::from_toml(&text).map_err(|e| anyhow!("--abi {name}: {e}"))?
        }
    };
    let limit = match &args.limit {
        None => None,
        Some(text) => {
            let (s, v) = text
                .split_once(',')
                .ok_or_else(|| anyhow!("--limit `{text}`: expected SGPRS,VGPRS"))?;
            let count = |t: &str| launch_flags::number(t).and_then(|n| u16::try_from(n).ok());
            match (count(s), count(v)) {
                (Some(s), Some(v)) => Some(Demand::new(s, v)),
                _ => bail!("--limit `{text}`: expected two numbers SGPRS,VGPRS"),
            }
        }
    };
    let sp = args
        .sp
        .as_deref()
        .map(|t| parse_reg(t, "--sp"))
        .transpose()?;
    if let Some(r) = sp {
        if r.file() != RegFile::Sgpr {
            bail!("--sp `{r}`: the stack pointer is an SGPR (GFX9+) or 4 SGPRs (a scratch resource before GFX9)");
        }
    }
    let explicit = args
        .preserve
        .iter()
        .map(|t| parse_reg(t, "--preserve"))
        .collect::<Result<Vec<_>>>()?;
    Contract::from_aco(&abi, target, wave, limit, &explicit, sp)
        .map_err(|e| anyhow!("--abi {name}: {e}"))
}

/// The sizes of `flag`, or `default` in X (1 in Y and Z, or 0 everywhere for an offset)
/// when the flag is absent.
fn sizes(text: Option<&str>, flag: &'static str, default: u32) -> Result<(u32, [u32; 3])> {
    let fill = u32::from(default != 0);
    match text {
        Some(t) => {
            let s = launch_flags::sizes(flag, t, fill)?;
            Ok((s.dims, s.values))
        }
        None => Ok((1, [default, fill, fill])),
    }
}

fn catalyst_setups(
    args: &RunArgs,
    path: &std::path::Path,
    machine: &mut Machine,
    target: gpuabi_amdgpu::Target,
) -> Result<Vec<WaveSetup>> {
    use gpuabi_catalyst::driver::Device;
    use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
    use gpuabi_catalyst::registers::Dims;
    use gpuabi_sim::catalyst::dispatch;

    if target != gpuabi_amdgpu::Target::Gfx8 {
        bail!("--catalyst: the Catalyst OpenCL ABI is for GCN; use --target gfx8");
    }
    if !args.set.is_empty() || args.exec.is_some() {
        bail!("--catalyst sets up the registers itself; drop --set and --exec");
    }
    let src = super::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    let kernels = parse_kernels(&src)
        .map_err(|e| anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message))?;
    let kernel = select_kernel(kernels, args.kernel.as_deref())
        .map_err(|m| anyhow!("--catalyst {}: {m}", path.display()))?;
    let options = gpuabi_catalyst::Options {
        device: Device::from_name(&args.device).context("--device")?,
        driver: args.driver,
        is_64bit: match args.bits {
            32 => false,
            64 => true,
            b => bail!("--bits {b}: expected 32 or 64"),
        },
        dims: Some(Dims::parse(&args.dims).context("--dims")?),
        ..Default::default()
    };
    let layout = gpuabi_catalyst::layout(&kernel, &options)
        .with_context(|| format!("--catalyst: kernel `{}`", kernel.name))?;
    let (nd, values) = ndrange_and_args(args, &machine.memory)?;
    let limit = machine.limits.global_bytes;
    dispatch(&layout, &nd, &values, &mut machine.memory, limit)
        .map_err(|e| anyhow!("--catalyst: {e}"))
}

/// The waves of an AMDHSA dispatch of `--kernel` from the assembly file's own kernel
/// descriptor and `.amdgpu_metadata`: the kernel argument segment, dispatch packet and
/// private segment are added to the machine's memory.
fn hsa_setups(
    args: &RunArgs,
    machine: &mut Machine,
    target: gpuabi_amdgpu::Target,
    wave: WaveSize,
) -> Result<Vec<WaveSetup>> {
    let path = args.file.display();
    let name = args.kernel.as_deref().unwrap_or_default();
    let text = super::read_text(&args.file).with_context(|| format!("cannot read {path}"))?;
    let kernels = gpuabi_amdgpu::hsa::read_kernels(&text, target, wave)
        .map_err(|e| anyhow!("{path}:{}: {}", e.line, e.message))?;
    let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    let kernel = kernels.iter().find(|k| k.name == name).ok_or_else(|| {
        if names.is_empty() {
            anyhow!("--kernel {name}: {path} has no `.amdhsa_kernel` descriptor")
        } else {
            anyhow!(
                "--kernel {name}: {path} has no kernel {}",
                gpuabi_layout::suggest::suggest(name, "kernels", &names)
            )
        }
    })?;
    let kernel = gpuabi_sim::code_object::dispatched_assembly_kernel(&text, kernel);
    let (nd, values) = ndrange_and_args(args, &machine.memory)?;
    let limits = machine.limits;
    gpuabi_sim::hsa::dispatch(
        &kernel,
        target,
        wave,
        &nd,
        &values,
        &mut machine.memory,
        &limits,
    )
    .map_err(|e| anyhow!("{path}: kernel `{name}`: {e}"))
}

/// The NDRange (`--grid`, `--group`, `--offset`) and argument values (`--arg`) of a
/// Catalyst or HSA dispatch; buffer names are those of `memory`.
pub fn ndrange_and_args(
    args: &RunArgs,
    memory: &gpuabi_sim::Memory,
) -> Result<(
    gpuabi_sim::catalyst::NdRange,
    std::collections::BTreeMap<String, gpuabi_sim::catalyst::ArgValue>,
)> {
    use gpuabi_sim::catalyst::{ArgValue, Number};
    let launch = &args.launch;
    let nd = ndrange(args)?;
    let mut values = std::collections::BTreeMap::new();
    for spec in &launch.args {
        let a = launch_flags::arg(spec)?;
        // An image: `@BUFFER:FORMAT:WxH[xD]`.
        if let Some((buffer, image)) = a.value.strip_prefix('@').and_then(|v| v.split_once(':')) {
            let image = image_arg(spec, buffer, image, memory)?;
            values.insert(a.name, ArgValue::Image(image));
            continue;
        }
        let v = match a.buffer(|n| memory.find(n).is_some())? {
            Some((name, 0)) => ArgValue::Buffer(name),
            // An address inside a buffer, as `run` takes it: HSA pointers are addresses.
            Some((name, offset)) => {
                let base = memory.find(&name).map_or(0, |b| b.base);
                ArgValue::Numbers(vec![base.saturating_add(offset).into()])
            }
            // Integers stay integers: a 64-bit argument needs all 64 bits.
            None => ArgValue::Numbers(
                a.value
                    .split(',')
                    .map(|n| {
                        Number::parse(n).ok_or_else(|| {
                            anyhow!(
                                "--arg {spec}: `{}` is not a number (an integer from \
                                 -2^63 to 2^64-1, decimal or 0x hex, or a float like 2.5), \
                                 N[,N...] or a buffer name",
                                n.trim()
                            )
                        })
                    })
                    .collect::<Result<_>>()?,
            ),
        };
        values.insert(a.name, v);
    }
    Ok((nd, values))
}

/// The image of `--arg NAME=@BUFFER:FORMAT:WxH[xD]` (`spec`), whose texels `BUFFER` holds.
fn image_arg(
    spec: &str,
    buffer: &str,
    rest: &str,
    memory: &gpuabi_sim::Memory,
) -> Result<gpuabi_sim::opencl_image::ImageArg> {
    if memory.find(buffer).is_none() {
        bail!("--arg {spec}: no buffer `{buffer}` (define it with --buffer)");
    }
    let (format, size) = rest
        .split_once(':')
        .ok_or_else(|| anyhow!("--arg {spec}: expected @BUFFER:FORMAT:WxH[xD] for an image"))?;
    let format = gpuabi_sim::opencl_image::ImageFormat::parse(format)
        .map_err(|e| anyhow!("--arg {spec}: {e}"))?;
    let dims: Vec<&str> = size.split('x').collect();
    if dims.is_empty() || dims.len() > 3 {
        bail!("--arg {spec}: `{size}` is not a size WxH[xD]");
    }
    let mut s = [1u32; 3];
    for (slot, d) in s.iter_mut().zip(&dims) {
        *slot = launch_flags::integer(d, 32)
            .map(|n| n as u32)
            .filter(|&n| (1..=16384).contains(&n))
            .ok_or_else(|| anyhow!("--arg {spec}: `{d}` is not an image size of 1 to 16384"))?;
    }
    Ok(gpuabi_sim::opencl_image::ImageArg {
        buffer: buffer.to_string(),
        format,
        size: s,
    })
}

/// The NDRange of `--grid`, `--group` and `--offset`: 64 work-items in one dimension by
/// default, work-groups as large as the grid unless `--group` says otherwise.
pub fn ndrange(args: &RunArgs) -> Result<gpuabi_sim::dispatch::NdRange> {
    let launch = &args.launch;
    let (work_dim, global) = sizes(launch.grid.as_deref(), "--grid", 64)?;
    let (local_dim, local) = sizes(
        launch.group.as_deref().or(launch.grid.as_deref()),
        "--group",
        64,
    )?;
    let (_, offset) = sizes(launch.offset.as_deref(), "--offset", 0)?;
    if local_dim != work_dim {
        bail!("--group: give as many sizes as --grid ({work_dim})");
    }
    Ok(gpuabi_sim::dispatch::NdRange {
        work_dim,
        global,
        local,
        offset,
    })
}

/// A kernel of an AMD Catalyst binary (`.clo`): the binary as read, the kernel chosen with
/// `--kernel` (or the only one), and its code decoded for the binary's generation, with the
/// `--entry` label at its start.
fn load_binary(args: &RunArgs, data: &[u8]) -> Result<(Program, BinaryKernel, KernelAbi)> {
    let path = args.file.display();
    let binary = gpuabi_catalyst::binary::read(data).map_err(|e| anyhow!("{path}: {e}"))?;
    let names: Vec<&str> = binary.kernels.iter().map(|k| k.kernel.as_str()).collect();
    let kernel = match (&args.kernel, binary.kernels.as_slice()) {
        (Some(name), _) => binary
            .kernels
            .iter()
            .find(|k| &k.kernel == name)
            .ok_or_else(|| {
                anyhow!(
                    "--kernel {name}: {path} has no kernel {}",
                    gpuabi_layout::suggest::suggest(name, "kernels", &names)
                )
            })?,
        (None, [only]) => only,
        (None, _) => bail!(
            "{path} has kernels {}: choose one with --kernel",
            names.join(", ")
        ),
    };
    let generation = kernel.generation.ok_or_else(|| {
        anyhow!(
            "{path}: kernel `{}`: unknown device generation",
            kernel.kernel
        )
    })?;
    let target = gpuabi_catalyst::binary::disasm::target_of(generation);
    if let Some(t) = args.machine.target.filter(|t| *t != target) {
        bail!(
            "--target {t}: {path} is for {target} (kernel `{}`: device {})",
            kernel.kernel,
            kernel.device
        );
    }
    args.machine
        .wave_of(target, Some((WaveSize::W64, "a Catalyst binary")))?;
    let code: Vec<u8> = (0..kernel.code.hex.len() / 2)
        .map(|i| u8::from_str_radix(&kernel.code.hex[2 * i..2 * i + 2], 16))
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow!("{path}: code: {e}"))?;
    let mut program = gpuabi_amdgpu::decode(&code, target, WaveSize::W64)
        .map_err(|e| anyhow!("{path}: kernel `{}`: {e}", kernel.kernel))?;
    program.items.insert(
        0,
        gpuabi_amdgpu::Entry {
            item: Item::Label(args.entry.clone()),
            origin: Default::default(),
        },
    );
    let abi = KernelAbi::of_binary(&binary, kernel);
    Ok((program, kernel.clone(), abi))
}

/// Whether `path` names a shader IR file (`.gsir`).
pub fn is_ir(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gsir"))
}

/// Runs a `sim` command.
pub fn run(cmd: SimCommand) -> Result<()> {
    let args = match cmd {
        SimCommand::Run(args) => args,
        SimCommand::CheckFunction(args) => return super::check_function::run(&args),
    };
    if is_ir(&args.file) {
        bail!(
            "{}: shader IR is run by `gpuabi run {0} --target TARGET` (compiled, in the \
             simulator) or `gpuabi run {0}` (in the reference interpreter); `sim run` runs \
             machine code (assembly, code objects, Catalyst binaries)",
            args.file.display()
        );
    }
    // An ELF file is an AMD Catalyst binary; anything else is assembly text.
    let elf = super::read_bytes(&args.file, super::MAX_INPUT_BYTES)
        .ok()
        .filter(|d| d.starts_with(b"\x7fELF"));
    let mut object = None;
    let mut pal = super::pal::load_for_run(&args, elf.as_deref())?;
    let (program, binary_kernel) = match &elf {
        _ if pal.is_some() => match &pal {
            Some(p) => (p.program.clone(), None),
            None => bail!("internal: no PAL shader"),
        },
        Some(data) if super::code_object::is_code_object(data) => {
            let loaded = super::code_object::load_for_run(&args, data)?;
            let program = loaded.program.clone();
            object = Some(loaded);
            (program, None)
        }
        Some(data) => {
            if args.catalyst.is_some() {
                bail!("--catalyst: a Catalyst binary carries its own ABI; drop --catalyst");
            }
            let (p, k, abi) = load_binary(&args, data)?;
            (p, Some((k, abi)))
        }
        None => (load(&args.file, &args.machine)?, None),
    };
    let wave = program.wave;
    let mut machine = Machine::new(Image::new(&program)?);
    if let Some(loaded) = &mut object {
        machine.memory = std::mem::take(&mut loaded.memory);
    }
    if let Some(loaded) = &mut pal {
        machine.memory = std::mem::take(&mut loaded.memory);
    }
    machine.limits.instructions_per_wave = args.max_instructions;
    if args.scratch_per_lane > gpuabi_sim::limits::MAX_SCRATCH_BYTES_PER_LANE {
        bail!(
            "--scratch-per-lane {}: at most {} bytes",
            args.scratch_per_lane,
            gpuabi_sim::limits::MAX_SCRATCH_BYTES_PER_LANE
        );
    }
    machine.limits.scratch_bytes_per_lane = args.scratch_per_lane;
    machine.track_undefined = args.undef;
    if args.trace {
        machine.trace = Some(Vec::new());
    }
    if args.abi.is_some() {
        machine.contract = Some(contract(&args, program.target, wave)?);
    }
    args.launch.check_outputs()?;
    machine.limits.global_bytes = args.max_memory;
    for spec in &args.launch.buffers {
        let flag = launch_flags::buffer(spec)?;
        if machine.memory.find(&flag.name).is_some() {
            bail!("--buffer {spec}: buffer `{}` is defined twice", flag.name);
        }
        let limit = machine.limits.global_bytes;
        let data = flag.bytes(spec, limit, launch_flags::read_buffer_file)?;
        machine
            .memory
            .add(&flag.name, data, limit)
            .map_err(|e| anyhow!("--buffer {spec}: {e}"))?;
    }
    let setups = match (&binary_kernel, &args.catalyst) {
        _ if pal.is_some() => match &pal {
            Some(p) => super::pal::setups(&args, &p.shader, &mut machine, &program)?,
            None => bail!("internal: no PAL shader"),
        },
        _ if object.is_some() => {
            let kernel = object.as_ref().map(|o| o.kernel.clone());
            let Some(kernel) = kernel else {
                bail!("internal: no kernel");
            };
            super::code_object::setups(&args, &kernel, &mut machine)?
        }
        (Some((kernel, abi)), _) => {
            if !args.set.is_empty() || args.exec.is_some() {
                bail!("a Catalyst binary's dispatch sets up the registers itself; drop --set and --exec");
            }
            let (nd, values) = ndrange_and_args(&args, &machine.memory)?;
            let limit = machine.limits.global_bytes;
            gpuabi_sim::catalyst::dispatch_kernel(abi, &nd, &values, &mut machine.memory, limit)
                .map_err(|e| anyhow!("{}: kernel `{}`: {e}", args.file.display(), kernel.kernel))?
        }
        (None, Some(path)) => catalyst_setups(&args, path, &mut machine, program.target)?,
        (None, None) if args.kernel.is_some() => {
            if !args.set.is_empty() || args.exec.is_some() {
                bail!(
                    "--kernel: an HSA dispatch sets up the registers itself; drop --set and --exec"
                );
            }
            hsa_setups(&args, &mut machine, program.target, wave)?
        }
        (None, None) => {
            let l = &args.launch;
            if l.grid.is_some() || l.group.is_some() || l.offset.is_some() || !l.args.is_empty() {
                bail!("--grid, --group, --offset and --arg describe a dispatch, which `sim run` sets up for a Catalyst binary or with --catalyst; without them, set registers with --set");
            }
            let mut setup = WaveSetup::default();
            for spec in &args.set {
                apply_set(spec, &machine, &mut setup)?;
            }
            if let Some(mask) = &args.exec {
                setup.exec = Some(
                    parse_number(mask).ok_or_else(|| anyhow!("--exec `{mask}`: not a number"))?,
                );
            }
            if args.waves == 0 || args.waves as usize > gpuabi_sim::limits::MAX_WAVES {
                bail!(
                    "--waves {}: expected 1..{}",
                    args.waves,
                    gpuabi_sim::limits::MAX_WAVES
                );
            }
            vec![setup; args.waves as usize]
        }
    };
    // A code object's kernel starts at its symbol, an assembly kernel at its label.
    let entry = match (&object, &args.kernel, &binary_kernel, &args.catalyst) {
        _ if pal.is_some() => pal
            .as_ref()
            .map(|p| p.shader.entry.clone())
            .unwrap_or_default(),
        (Some(o), ..) => o.kernel.kernel.name.clone(),
        (None, Some(k), None, None) => k.clone(),
        _ => args.entry.clone(),
    };
    {
        // Names of --print, --dump and --png are checked before a long run, not after it.
        let names: Vec<&str> = machine
            .memory
            .buffers()
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        args.launch.check_buffers(&names)?;
        if let Some(p) = args.print.iter().find(|p| !names.contains(&p.as_str())) {
            return Err(launch_flags::no_buffer("--print", p, &names));
        }
    }
    let result = machine.run(&entry, &setups);
    let mut out = String::new();
    if let Some(trace) = &machine.trace {
        for line in trace {
            out.push_str(line);
            out.push('\n');
        }
    }
    let path = args.file.display();
    if let Err(e) = result {
        // What the contract caught before the run stopped is part of the report.
        out.push_str(&contract_text(&machine));
        write_output(&out)?;
        return Err(anyhow!("{path}: {e}"));
    }
    eprintln!(
        "ran {} on {} {wave}: {} wave(s), {} instruction(s)",
        // A Catalyst binary's code is placed under the entry label `main`: name its kernel.
        args.kernel.as_deref().unwrap_or(&entry),
        program.target,
        machine.stats.waves,
        machine.stats.instructions()
    );
    let buffer_names: Vec<&str> = machine
        .memory
        .buffers()
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    // Only the buffers --print names: `run` and `sim run` print nothing else by default.
    for name in &args.print {
        let b = machine
            .memory
            .find(name)
            .ok_or_else(|| launch_flags::no_buffer("--print", name, &buffer_names))?;
        out.push_str(&buffer_text(&b.name, b.base, &b.data, usize::MAX));
    }
    if args.stats {
        out.push_str(&launch_flags::stats_text(&machine.stats));
    }
    for u in &machine.undefined {
        let _ = writeln!(
            out,
            "warning: {path}:{}: reads {} before anything wrote it{}",
            u.origin.line().unwrap_or(0),
            u.register,
            if u.lanes != 0 {
                format!(" (lanes 0x{:x})", u.lanes)
            } else {
                String::new()
            }
        );
    }
    for u in &machine.unwritten {
        let _ = writeln!(
            out,
            "warning: {path}:{}: reads {} byte(s) at offset 0x{:x} of `{}`, which nothing \
             wrote in this dispatch",
            u.origin.line().unwrap_or(0),
            u.bytes,
            u.offset,
            u.buffer
        );
    }
    out.push_str(&contract_text(&machine));
    let violations = machine
        .contract
        .as_ref()
        .map_or(0, |c| c.violations.len() as u64 + c.suppressed);
    if !out.is_empty() {
        write_output(&out)?;
    }
    args.launch.write_outputs(
        |name| machine.memory.find(name).map(|b| b.data.as_slice()),
        &buffer_names,
    )?;
    if violations > 0 {
        bail!(
            "{path}: {violations} violations of the {} call contract",
            args.abi.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
