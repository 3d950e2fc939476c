//! `gpuabi agx asm` and `gpuabi agx disasm`: AGX machine code to and from the text Mesa's
//! Asahi disassembler prints.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use gpuabi_agx_isa::{assemble, decode, Instruction};

use super::write_output;

/// Output of `agx asm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AsmFormat {
    /// The raw code bytes.
    Bin,
    /// The code in hex, one instruction a line.
    Hex,
    /// `[{"offset", "bytes", "text"}]`.
    Json,
}

/// Output of `agx disasm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DisasmFormat {
    /// One instruction a line, in Mesa's syntax (assembles back to the same bytes).
    Text,
    /// `[{"offset", "bytes", "text"}]`.
    Json,
}

/// Flags of `agx asm`.
#[derive(Debug, Args)]
pub struct AsmArgs {
    /// Assembly source: one instruction a line, `label:` definitions, `;` or `//` comments.
    file: PathBuf,
    /// Where to write the output (standard output when left out).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format; `bin` when writing to a file with `-o`, `hex` on standard output.
    #[arg(long, value_enum)]
    format: Option<AsmFormat>,
}

/// Flags of `agx disasm`.
#[derive(Debug, Args)]
pub struct DisasmArgs {
    /// Machine code bytes.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: DisasmFormat,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `[{"offset": N, "bytes": "hex", "text": "..."}]`, keys in that order.
fn listing<'a>(items: impl Iterator<Item = (usize, &'a Instruction)>) -> String {
    let rows: Vec<String> = items
        .map(|(offset, ins)| {
            let text = serde_json::Value::String(ins.to_string());
            format!(
                "  {{\"offset\": {offset}, \"bytes\": \"{}\", \"text\": {text}}}",
                hex(&ins.bytes())
            )
        })
        .collect();
    if rows.is_empty() {
        return "[]".to_string();
    }
    format!("[\n{}\n]", rows.join(",\n"))
}

/// Runs `agx asm`.
pub fn asm(a: AsmArgs) -> anyhow::Result<()> {
    let name = a.file.display().to_string();
    let source =
        super::read_text(&a.file).with_context(|| format!("{name}: cannot read the file"))?;
    let prog = assemble(&source, &name)?;
    let format = a.format.unwrap_or(if a.output.is_some() {
        AsmFormat::Bin
    } else {
        AsmFormat::Hex
    });
    let out: Vec<u8> = match format {
        AsmFormat::Bin => prog.bytes.clone(),
        AsmFormat::Hex => prog
            .instructions
            .iter()
            .map(|(_, _, ins)| hex(&ins.bytes()) + "\n")
            .collect::<String>()
            .into_bytes(),
        AsmFormat::Json => {
            (listing(prog.instructions.iter().map(|(o, _, i)| (*o, i))) + "\n").into_bytes()
        }
    };
    match &a.output {
        Some(path) => super::write_file(path, &out)
            .with_context(|| format!("-o {}: cannot write the file", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&out) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other?),
            }
        }
    }
}

/// Runs `agx disasm`.
pub fn disasm(a: DisasmArgs) -> anyhow::Result<()> {
    let name = a.file.display().to_string();
    let bytes = super::read_bytes(&a.file, super::MAX_INPUT_BYTES)
        .with_context(|| format!("{name}: cannot read the file"))?;
    let program = match decode(&bytes) {
        Ok(p) => p,
        Err(e) => bail!("{name}: {e}"),
    };
    match a.format {
        DisasmFormat::Text => {
            let text: String = program.iter().map(|(_, i)| format!("{i}\n")).collect();
            if text.is_empty() {
                return Ok(());
            }
            write_output(&text)
        }
        DisasmFormat::Json => write_output(&listing(program.iter().map(|(o, i)| (*o, i)))),
    }
}
