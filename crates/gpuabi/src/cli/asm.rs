//! `gpuabi asm ...`: check, format, encode and disassemble AMD GCN/RDNA assembly (LLVM
//! syntax).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_amdgpu::asm::listing::{self, Listed, ListingMismatch};
use gpuabi_amdgpu::asm::printer::print_inst;
use gpuabi_amdgpu::asm::{parse, parse_listed, print};
use gpuabi_amdgpu::decode::decode_with_symbols;
use gpuabi_amdgpu::elf::{read_text, write_object};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{encode, Program, Target, WaveSize};

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
    Disasm(AsmArgs),
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

/// Target and wave size of a machine program.
#[derive(Debug, Args, Clone, Copy)]
pub struct MachineArgs {
    /// GPU generation: gfx6, gfx7, gfx8, gfx1030 or gfx1100 (required, except where the
    /// input names it, as a Catalyst binary does).
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// Lanes per wave: 32 or 64 (default: 64 on gfx8, 32 on RDNA).
    #[arg(long, value_parser = parse_wave)]
    pub wave: Option<WaveSize>,
}

impl MachineArgs {
    /// The target given with `--target`.
    pub fn target(&self) -> Result<Target> {
        self.target
            .ok_or_else(|| anyhow!("--target: required (gfx6, gfx7, gfx8, gfx1030 or gfx1100)"))
    }

    /// The wave size, defaulted per target and checked against it.
    pub fn wave(&self) -> Result<WaveSize> {
        let target = self.target()?;
        let wave = self.wave.unwrap_or(target.default_wave());
        if !target.supports(wave) {
            return Err(anyhow!("--wave: {target} runs wave64 only, not {wave}"));
        }
        Ok(wave)
    }
}

/// A target of the machine model: one of gpuabi's generations that has encodings.
fn parse_target(s: &str) -> Result<Target, String> {
    let target = s.parse::<Target>().map_err(|e| e.to_string())?;
    if !target.has_encodings() {
        return Err(format!(
            "the machine model has no instruction encodings for {target} (only the `aco` \
             layout commands model it); expected gfx6, gfx7, gfx8, gfx1030 or gfx1100"
        ));
    }
    Ok(target)
}

fn parse_wave(s: &str) -> Result<WaveSize, String> {
    s.parse::<u32>()
        .ok()
        .and_then(WaveSize::from_lanes)
        .ok_or_else(|| format!("expected 32 or 64, found `{s}`"))
}

/// Reads and parses an assembly file; errors name `file:line:column`.
pub fn load(path: &Path, machine: &MachineArgs) -> Result<Program> {
    let wave = machine.wave()?;
    let text = super::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, machine.target()?, wave).map_err(|e| anyhow!("{}:{e}", path.display()))
}

/// Runs an `asm` command.
pub fn run(cmd: AsmCommand) -> Result<()> {
    match cmd {
        AsmCommand::Check(CheckArgs {
            asm: args,
            encodings,
        }) => {
            let text = super::read_text(&args.file)
                .with_context(|| format!("cannot read {}", args.file.display()))?;
            let wave = args.target.wave()?;
            let (mut program, listed) = parse_listed(&text, args.target.target()?, wave)
                .map_err(|e| anyhow!("{}:{e}", args.file.display()))?;
            let mismatches = listing::adopt(&mut program, &listed);
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
            std::fs::write(&args.output, bytes)
                .with_context(|| format!("cannot write {}", args.output.display()))
        }
        AsmCommand::Disasm(args) => {
            let program = disassemble(&args.file, &args.target)?;
            write_output(&print(&program))
        }
    }
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
        return super::code_object::disassemble(&data, machine)
            .map_err(|e| anyhow!("{}: {e}", path.display()));
    }
    let wave = machine.wave()?;
    let target = machine.target()?;
    let (code, symbols) = if data.starts_with(b"\x7fELF") {
        let text = read_text(&data).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        match text.target {
            Some(t) if t == target => {}
            Some(t) => bail!(
                "{}: the object is for {t}, not --target {target}",
                path.display()
            ),
            None => bail!(
                "{}: e_flags names a processor the machine model does not have",
                path.display()
            ),
        }
        if text.relocations > 0 {
            bail!(
                "{}: .text has {} relocations (addresses the linker fills in); gpuabi \
                 disassembles code without relocations only",
                path.display(),
                text.relocations
            );
        }
        (text.code, text.symbols)
    } else {
        (data, Vec::new())
    };
    decode_with_symbols(&code, target, wave, &symbols)
        .map_err(|e| anyhow!("{}: {e}", path.display()))
}
