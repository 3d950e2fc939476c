//! `gpuabi agx prolog --key KEY.toml`: generate the vertex prolog of a key.
//!
//! KEY.toml: `robustness = "disabled|gles|gl|d3d"` (default `gl`), `soft_fault` (default
//! false), `hw` (default true; false is the compute variant), `index_size` (0, 1, 2 or 4;
//! default 0), and `[[attrib]]` tables with `slot`, `format` (Mesa pipe-format name),
//! `stride` (bytes), `instanced` (default false), `divisor` (default 1) and `components`
//! (a subset of `"xyzw"`, default all). Unknown keys are errors.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::{Args, ValueEnum};
use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
use toml::{Table, Value};

/// Output of `agx prolog`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrologFormat {
    /// Assembly text in Mesa's syntax.
    Asm,
    /// The machine code bytes.
    Bin,
    /// `{"code", "text", "gpr_halves", "reads", "writes"}`.
    Json,
}

/// Flags of `agx prolog`.
#[derive(Debug, Args)]
pub struct PrologArgs {
    /// The prolog key (TOML).
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    /// Where to write the output (standard output when left out).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format; `bin` when writing to a file with `-o`, `asm` on standard output.
    #[arg(long, value_enum)]
    format: Option<PrologFormat>,
}

pub(super) fn check_keys(
    file: &str,
    at: &str,
    table: &Table,
    allowed: &[&str],
) -> anyhow::Result<()> {
    for k in table.keys() {
        if !allowed.contains(&k.as_str()) {
            bail!(
                "{file}: {at}{k}: unknown key (expected one of {})",
                allowed.join(", ")
            );
        }
    }
    Ok(())
}

pub(super) fn get_bool(
    file: &str,
    at: &str,
    t: &Table,
    key: &str,
    default: bool,
) -> anyhow::Result<bool> {
    match t.get(key) {
        None => Ok(default),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(_) => bail!("{file}: {at}{key}: expected true or false"),
    }
}

pub(super) fn get_u32(
    file: &str,
    at: &str,
    t: &Table,
    key: &str,
    default: Option<u32>,
) -> anyhow::Result<u32> {
    match t.get(key) {
        None => default.ok_or_else(|| anyhow!("{file}: {at}{key}: missing (expected an integer)")),
        Some(Value::Integer(i)) => u32::try_from(*i)
            .map_err(|_| anyhow!("{file}: {at}{key}: {i} is not an integer from 0 to 4294967295")),
        Some(_) => bail!("{file}: {at}{key}: expected an integer"),
    }
}

pub(super) fn get_str<'a>(
    file: &str,
    at: &str,
    t: &'a Table,
    key: &str,
) -> anyhow::Result<Option<&'a str>> {
    match t.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => bail!("{file}: {at}{key}: expected a string"),
    }
}

fn components(file: &str, at: &str, text: &str) -> anyhow::Result<u8> {
    let mut mask = 0u8;
    for ch in text.chars() {
        let bit = "xyzw".find(ch).ok_or_else(|| {
            anyhow!("{file}: {at}components: `{text}` is not a subset of \"xyzw\"")
        })?;
        mask |= 1 << bit;
    }
    if mask == 0 {
        bail!("{file}: {at}components: empty (expected a subset of \"xyzw\")");
    }
    Ok(mask)
}

/// Parses a prolog key file.
pub fn parse_key(file: &str, text: &str) -> anyhow::Result<PrologKey> {
    let table: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    check_keys(
        file,
        "",
        &table,
        &["robustness", "soft_fault", "hw", "index_size", "attrib"],
    )?;
    let level = match get_str(file, "", &table, "robustness")?.unwrap_or("gl") {
        "disabled" => RobustnessLevel::Disabled,
        "gles" => RobustnessLevel::Gles,
        "gl" => RobustnessLevel::Gl,
        "d3d" => RobustnessLevel::D3d,
        other => bail!(
            "{file}: robustness: `{other}` (expected \"disabled\", \"gles\", \"gl\" or \"d3d\")"
        ),
    };
    let soft_fault = get_bool(file, "", &table, "soft_fault", false)?;
    let hw = get_bool(file, "", &table, "hw", true)?;
    let index_size = get_u32(file, "", &table, "index_size", Some(0))?;
    if !matches!(index_size, 0 | 1 | 2 | 4) {
        bail!("{file}: index_size: {index_size} (expected 0, 1, 2 or 4)");
    }
    let mut attribs = Vec::new();
    let list = match table.get("attrib") {
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => bail!("{file}: attrib: expected [[attrib]] tables"),
    };
    for (i, v) in list.iter().enumerate() {
        let at = format!("attrib[{i}].");
        let Value::Table(t) = v else {
            bail!("{file}: attrib[{i}]: expected a table");
        };
        check_keys(
            file,
            &at,
            t,
            &[
                "slot",
                "format",
                "stride",
                "instanced",
                "divisor",
                "components",
            ],
        )?;
        let slot = get_u32(file, &at, t, "slot", None)?;
        let slot = u16::try_from(slot)
            .map_err(|_| anyhow!("{file}: {at}slot: {slot} is beyond slot 15"))?;
        let format = get_str(file, &at, t, "format")?
            .ok_or_else(|| anyhow!("{file}: {at}format: missing (expected a pipe-format name)"))?;
        attribs.push(PrologAttrib {
            slot,
            element: VertexElement {
                format: format.to_string(),
                stride: get_u32(file, &at, t, "stride", None)?,
                divisor: get_u32(file, &at, t, "divisor", Some(1))?,
                instanced: get_bool(file, &at, t, "instanced", false)?,
            },
            components: components(
                file,
                &at,
                get_str(file, &at, t, "components")?.unwrap_or("xyzw"),
            )?,
        });
    }
    Ok(PrologKey {
        robustness: Robustness { level, soft_fault },
        hw,
        index_size: index_size as u8,
        attribs,
    })
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn reg_names(halves: &[u16]) -> Vec<String> {
    halves
        .iter()
        .map(|h| format!("r{}{}", h / 2, if h % 2 == 0 { "l" } else { "h" }))
        .collect()
}

/// Runs `agx prolog`.
pub fn prolog(a: PrologArgs) -> anyhow::Result<()> {
    let name = a.key.display().to_string();
    let text = super::read_text(&a.key).with_context(|| format!("{name}: cannot read the file"))?;
    let key = parse_key(&name, &text)?;
    let prolog = vertex_prolog(&key).map_err(|e| anyhow!("{name}: {e}"))?;
    write_part(
        a.format,
        a.output.as_deref(),
        &Part {
            code: &prolog.code,
            text: &prolog.text,
            gpr_halves: prolog.gpr_halves,
            reads: &prolog.reads,
            writes: &prolog.writes,
        },
    )
}

/// A generated AGX part as `agx prolog`, `epilog` and `fs-prolog` print it.
pub(super) struct Part<'a> {
    /// Machine code.
    pub code: &'a [u8],
    /// Its text, one instruction a line.
    pub text: &'a str,
    /// GPR count in 16-bit halves.
    pub gpr_halves: u16,
    /// Halves read.
    pub reads: &'a [u16],
    /// Halves written.
    pub writes: &'a [u16],
}

/// Writes a part in `format` (default: bin with `-o`, asm without) to `output` or stdout;
/// JSON gives the code, its text, the GPR count in halves and the registers read and written.
pub(super) fn write_part(
    format: Option<PrologFormat>,
    output: Option<&Path>,
    part: &Part<'_>,
) -> anyhow::Result<()> {
    let format = format.unwrap_or(if output.is_some() {
        PrologFormat::Bin
    } else {
        PrologFormat::Asm
    });
    let out: Vec<u8> = match format {
        PrologFormat::Asm => part.text.as_bytes().to_vec(),
        PrologFormat::Bin => part.code.to_vec(),
        PrologFormat::Json => {
            let v = serde_json::json!({
                "code": hex(part.code),
                "text": part.text,
                "gpr_halves": part.gpr_halves,
                "reads": reg_names(part.reads),
                "writes": reg_names(part.writes),
            });
            (serde_json::to_string_pretty(&v)? + "\n").into_bytes()
        }
    };
    write_to(output, &out)
}

pub(super) fn write_to(path: Option<&Path>, out: &[u8]) -> anyhow::Result<()> {
    match path {
        Some(path) => super::write_file(path, out)
            .with_context(|| format!("-o {}: cannot write the file", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(out) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other?),
            }
        }
    }
}
