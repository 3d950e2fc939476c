//! `gpuabi asm ...`: check, format, encode and disassemble AMD GCN/RDNA assembly (LLVM
//! syntax).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_amdgpu::asm::listing::{self, Listed, ListingMismatch};
use gpuabi_amdgpu::asm::printer::print_inst;
use gpuabi_amdgpu::asm::target_id::{named_processor, named_wave};
use gpuabi_amdgpu::asm::{parse, parse_listed, print};
use gpuabi_amdgpu::decode::decode_with_symbols;
use gpuabi_amdgpu::elf::{read_text, write_object};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::target::modelled_text;
use gpuabi_amdgpu::{encode, Processor, Program, Target, WaveSize, ENCODED_TARGETS};

use super::write_output;

/// Commands about assembly files.
#[derive(Debug, Subcommand)]
pub enum AsmCommand {
    /// Parse and validate a file for a target; print a summary.
    Check(CheckArgs),
    /// Print a file back through gpuabi's printer (the form llvm-mc accepts).
    Fmt(AsmArgs),
    /// Assemble a file into machine code (the bytes llvm-mc emits), raw or as an AMDGPU ELF
    /// relocatable object.
    Encode(EncodeArgs),
    /// Disassemble raw machine code or the `.text` of an AMDGPU ELF object into assembly.
    Disasm(DisasmArgs),
}

/// What `asm encode` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FileType {
    /// The raw code, nothing else.
    Bin,
    /// An AMDGPU ELF64 relocatable object with a `.text` section and a symbol per label.
    Obj,
}

/// Arguments of `asm check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub asm: AsmArgs,
    /// Compare each instruction's bytes with the encoding listed in its comment (the hex
    /// dwords Mesa's ACO prints after `;`) and report the first line that differs in bits
    /// the hardware reads.
    #[arg(long)]
    pub encodings: bool,
}

/// Arguments of `asm encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    pub asm: AsmArgs,
    /// The output file.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Raw code or an ELF object.
    #[arg(long, value_enum, default_value = "bin")]
    pub filetype: FileType,
}

/// The file and its target.
#[derive(Debug, Args)]
pub struct AsmArgs {
    /// The assembly file.
    pub file: PathBuf,
    #[command(flatten)]
    pub target: MachineArgs,
}

/// Arguments of `asm disasm`.
#[derive(Debug, Args)]
pub struct DisasmArgs {
    /// The machine code: an AMDHSA or PAL code object (relocated), the `.text` of another
    /// AMDGPU ELF object, or raw bytes (which need --target).
    pub file: PathBuf,
    #[command(flatten)]
    pub target: MachineArgs,
}

/// Target and wave size of a machine program.
#[derive(Debug, Args, Clone, Copy)]
pub struct MachineArgs {
    /// GPU generation (gfx6, gfx7, gfx8, gfx1030, gfx1100, gfx12) or an LLVM processor of
    /// one (gfx803, fiji, gfx1034, gfx1102, gfx1201, ...). An input that names its processor (an
    /// assembly file's `.amdgcn_target`, an ELF object's e_flags, a Catalyst binary) sets
    /// the target itself; --target then only confirms it.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// Lanes per wave: 32 or 64. Default: what the input asks for (a kernel descriptor's
    /// .amdhsa_wavefront_size32, PAL metadata), else the target's native wave size as
    /// LLVM defines it: wave64 on GCN (gfx6-gfx8), wave32 on RDNA (gfx1030, gfx1100, gfx12).
    #[arg(long, value_parser = parse_wave)]
    pub wave: Option<WaveSize>,
}

impl MachineArgs {
    /// The target of the input `path`: the generation of the processor it names, which
    /// `--target` may only confirm; `--target` when it names none.
    pub fn target_of(&self, path: &Path, named: Option<Processor>) -> Result<Target> {
        match (named, self.target) {
            (Some(p), Some(t)) if p.gfx != t => {
                bail!("--target {t}: {} is for {p}", path.display())
            }
            (Some(p), _) => Ok(p.gfx),
            (None, Some(t)) => Ok(t),
            (None, None) => bail!(
                "--target: required, since {} does not name its processor (as an \
                 `.amdgcn_target` directive or an ELF object does); expected {}",
                path.display(),
                modelled_text(&ENCODED_TARGETS)
            ),
        }
    }

    /// The wave size: `--wave`, which must agree with what the input asks for (`named`,
    /// and where it says so); else the input's; else the target's native wave size.
    pub fn wave_of(&self, target: Target, named: Option<(WaveSize, &str)>) -> Result<WaveSize> {
        let wave = match (self.wave, named) {
            (Some(w), Some((n, place))) if w != n => {
                bail!("--wave {}: {place} asks for {n}", w.lanes())
            }
            (Some(w), _) | (None, Some((w, _))) => w,
            (None, None) => target.default_wave(),
        };
        if !target.supports(wave) {
            bail!("--wave {}: {target} runs wave64 only", wave.lanes());
        }
        Ok(wave)
    }

    /// The target and wave size of assembly `text` from `path`: its `.amdgcn_target` and
    /// its first kernel descriptor's `.amdhsa_wavefront_size32`, confirmed or completed by
    /// the flags.
    pub fn of_text(&self, path: &Path, text: &str) -> Result<(Target, WaveSize)> {
        let named = named_processor(text).map_err(|e| anyhow!("{}:{e}", path.display()))?;
        let target = self.target_of(path, named)?;
        let wave = self.wave_of(
            target,
            named_wave(text).map(|w| (w, "its kernel descriptor (.amdhsa_wavefront_size32)")),
        )?;
        Ok((target, wave))
    }
}

/// A target of the machine model: a generation that has encodings, by gpuabi's or LLVM's
/// name.
pub(crate) fn parse_target(s: &str) -> Result<Target, String> {
    match s.parse::<Target>() {
        Ok(t) if t.has_encodings() => Ok(t),
        Ok(t) => Err(format!(
            "the machine model has no instruction encodings for {t} (only the `aco` layout \
             commands model it); expected {}",
            modelled_text(&ENCODED_TARGETS)
        )),
        Err(_) => Err(format!(
            "unknown target `{s}`: expected {}",
            modelled_text(&ENCODED_TARGETS)
        )),
    }
}

fn parse_wave(s: &str) -> Result<WaveSize, String> {
    s.parse::<u32>()
        .ok()
        .and_then(WaveSize::from_lanes)
        .ok_or_else(|| format!("expected 32 or 64, found `{s}`"))
}

/// Reads and parses an assembly file; errors name `file:line:column`.
pub fn load(path: &Path, machine: &MachineArgs) -> Result<Program> {
    not_ir(path)?;
    let text = super::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (target, wave) = machine.of_text(path, &text)?;
    parse(&text, target, wave).map_err(|e| anyhow!("{}:{e}", path.display()))
}

/// Refuses a shader IR file where assembly is expected, naming the commands that read it.
fn not_ir(path: &Path) -> Result<()> {
    if super::sim::is_ir(path) {
        bail!(
            "{}: shader IR is checked by `gpuabi ir check` and compiled to assembly by \
             `gpuabi compile`; `asm` reads assembly",
            path.display()
        );
    }
    Ok(())
}

/// Runs an `asm` command.
pub fn run(cmd: AsmCommand) -> Result<()> {
    match cmd {
        AsmCommand::Check(CheckArgs {
            asm: args,
            encodings,
        }) => {
            not_ir(&args.file)?;
            let text = super::read_text(&args.file)
                .with_context(|| format!("cannot read {}", args.file.display()))?;
            let (program, listed, mismatches, inferred) =
                match listed_target(&args.target, &args.file, &text, encodings)? {
                    Some(found) => found,
                    None => {
                        let (target, wave) = args.target.of_text(&args.file, &text)?;
                        let (mut program, listed) = parse_listed(&text, target, wave)
                            .map_err(|e| anyhow!("{}:{e}", args.file.display()))?;
                        let mismatches = listing::adopt(&mut program, &listed);
                        (program, listed, mismatches, false)
                    }
                };
            // HSA kernel descriptors and metadata are checked as `sim run --kernel` reads
            // them.
            if text.contains(".amdhsa_kernel") {
                gpuabi_amdgpu::hsa::read_kernels(&text, program.target, program.wave)
                    .map_err(|e| anyhow!("{}:{}: {}", args.file.display(), e.line, e.message))?;
            }
            let mut summary = String::new();
            if encodings {
                summary = check_listing(&args.file, &program, &listed, &mismatches)?;
            }
            if inferred {
                summary.push_str("; target and wave size from the listed encodings");
            }
            let layout = program.layout();
            write_output(&format!(
                "{}: ok: {} instructions, {} labels, {} bytes ({} {}){summary}\n",
                args.file.display(),
                program.insts().count(),
                layout.labels.len(),
                layout.size,
                program.target,
                program.wave
            ))
        }
        AsmCommand::Fmt(args) => {
            let program = load(&args.file, &args.target)?;
            write_output(&print(&program))
        }
        AsmCommand::Encode(args) => {
            let path = &args.asm.file;
            let program = load(path, &args.asm.target)?;
            let code = encode(&program).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            let bytes = match args.filetype {
                FileType::Bin => code,
                FileType::Obj => write_object(&program, &code)?,
            };
            super::write_file(&args.output, bytes)
                .with_context(|| format!("cannot write {}", args.output.display()))
        }
        AsmCommand::Disasm(args) => {
            let program = disassemble(&args.file, &args.target)?;
            write_output(&print(&program))
        }
    }
}

/// A parsed program with its listed encodings and their mismatches, and whether the target
/// came from the listing.
type Checked = (Program, Vec<Listed>, Vec<ListingMismatch>, bool);

/// For `asm check --encodings` of a file that names no processor (ACO's disassembly, as
/// RADV prints it) and no `--target`: the first of gfx1100, gfx1030, gfx8 and gfx12 (each in
/// its native wave size first, or in `--wave`) under which the file parses and every listed
/// encoding is gpuabi's, since the opcode numbers of the generations differ. gfx12 comes
/// last: RDNA 4 kept many of RDNA 3's encodings, so code using only those is RDNA 3's too. `None` when
/// the target is named, or `--encodings` is not asked for, or no generation gives them all
/// (the caller then reports that `--target` is required).
fn listed_target(
    args: &MachineArgs,
    path: &Path,
    text: &str,
    encodings: bool,
) -> Result<Option<Checked>> {
    let named = named_processor(text).map_err(|e| anyhow!("{}:{e}", path.display()))?;
    if !encodings || named.is_some() || args.target.is_some() {
        return Ok(None);
    }
    for target in [
        Target::Gfx1100,
        Target::Gfx1030,
        Target::Gfx8,
        Target::Gfx12,
    ] {
        let native = target.default_wave();
        let other = match native {
            WaveSize::W32 => WaveSize::W64,
            WaveSize::W64 => WaveSize::W32,
        };
        let waves = match args.wave {
            Some(w) => vec![w],
            None => vec![native, other],
        };
        for wave in waves.into_iter().filter(|w| target.supports(*w)) {
            let Ok((mut program, listed)) = parse_listed(text, target, wave) else {
                continue;
            };
            let mismatches = listing::adopt(&mut program, &listed);
            if !listed.is_empty() && mismatches.is_empty() {
                return Ok(Some((program, listed, mismatches, true)));
            }
        }
    }
    Ok(None)
}

/// `asm check --encodings`: the first instruction whose listed encoding differs from
/// gpuabi's in bits the hardware reads is an error; otherwise a note for the summary.
fn check_listing(
    path: &Path,
    program: &Program,
    listed: &[Listed],
    mismatches: &[ListingMismatch],
) -> Result<String> {
    if listed.is_empty() {
        bail!(
            "{}: --encodings: no instruction lists its encoding (a comment of 8-digit hex \
             dwords after `;`, as Mesa's ACO prints them)",
            path.display()
        );
    }
    if let Some(m) = mismatches.first() {
        let Item::Inst(inst) = &program.items[m.item].item else {
            unreachable!("listings belong to instructions");
        };
        let text = print_inst(inst, program.target);
        let ours = match &m.ours {
            Ok(bytes) => format!("gpuabi encodes {}", dwords(bytes)),
            Err(e) => format!("gpuabi cannot encode it ({e})"),
        };
        bail!(
            "{}:{}: `{}`: {ours}, the listing has {} ({} of {} listed instructions differ)",
            path.display(),
            m.line,
            text.trim(),
            dwords(&m.listed),
            mismatches.len(),
            listed.len()
        );
    }
    let kept = program.insts().filter(|i| i.dont_care != 0).count();
    Ok(format!(
        "; {} listed encodings equal ({kept} with bits the hardware ignores kept as listed)",
        listed.len()
    ))
}

/// Bytes as the little-endian dwords a listing prints (`be900005 bf800000`), with any
/// remainder as bytes.
fn dwords(bytes: &[u8]) -> String {
    let mut words: Vec<String> = bytes
        .chunks(4)
        .map(|c| {
            if c.len() == 4 {
                format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            } else {
                c.iter().map(|b| format!("{b:02x}")).collect()
            }
        })
        .collect();
    if words.is_empty() {
        words.push("nothing".into());
    }
    words.join(" ")
}

/// Decodes a file: an AMDHSA code object with its relocations applied (see
/// [`super::code_object::disassemble`]), another ELF object (recognised by its magic
/// number) through its `.text` and symbols, anything else as raw code. A plain object
/// made for another processor, or whose `.text` still has relocations, is an error.
fn disassemble(path: &Path, machine: &MachineArgs) -> Result<Program> {
    let data = super::read_bytes(path, super::MAX_INPUT_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if super::code_object::is_code_object(&data) {
        return super::code_object::disassemble(path, &data, machine);
    }
    let (code, symbols, target) = if data.starts_with(b"\x7fELF") {
        let text = read_text(&data).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        let Some(processor) = text.processor.filter(|p| p.gfx.has_encodings()) else {
            bail!(
                "{}: e_flags names a processor the machine model does not have; it runs {}",
                path.display(),
                modelled_text(&ENCODED_TARGETS)
            );
        };
        let target = machine.target_of(path, Some(processor))?;
        if text.relocations > 0 {
            bail!(
                "{}: .text has {} relocations (addresses the linker fills in); gpuabi \
                 disassembles code without relocations only",
                path.display(),
                text.relocations
            );
        }
        (text.code, text.symbols, target)
    } else {
        (data, Vec::new(), machine.target_of(path, None)?)
    };
    let wave = machine.wave_of(target, None)?;
    decode_with_symbols(&code, target, wave, &symbols)
        .map_err(|e| anyhow!("{}: {e}", path.display()))
}
