//! `gpuabi agx run vertex`: run a vertex prolog (generated from the key, or the user's own)
//! over a draw and print the registers it hands to the main vertex shader (`run fragment`
//! is in `agx_run_fragment.rs`).
//!
//! DRAW.toml: `vertex_count`, `instance_count` (default 1), `first_vertex`, `base_instance`,
//! `draw_id` (default 0), `[[buffer]]` tables with `name` and one of `bytes` (hex), `file`
//! or `size` (zero-filled), `[[binding]]` tables with `slot`, `buffer`, `offset` (default
//! 0) and `size` (default: the buffer's length), and for the compute variant an `[index]`
//! table with `buffer`, `offset` and `count`. `gpuabi_agx_exec::vertex` runs the draw (where
//! the buffers are placed and how the uniforms are filled is stated there).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_agx::prolog::{vertex_prolog, PrologKey};
use gpuabi_agx_exec::vertex::{Binding, IndexBuffer, VertexBuffer};
use gpuabi_agx_exec::{Names, VertexDraw, VertexOutcome, VertexProgram};
use toml::{Table, Value};

use super::agx_prolog::parse_key;
use super::agx_stats::{stats_json, stats_text};
use super::stream_output;

/// What `agx run` runs.
#[derive(Debug, Subcommand)]
pub enum RunCommand {
    /// Run the vertex prolog of a key over a draw.
    Vertex(RunVertexArgs),
    /// Run a fragment prolog, main shader and epilog over a tile.
    Fragment(super::agx_run_fragment::RunFragmentArgs),
}

/// Output of `agx run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// One line per vertex invocation, or per pixel and sample.
    Text,
    /// `{"invocations": [...], "violations": [...]}` (vertex) or `{"pixels": [...],
    /// "violations": [...]}` (fragment).
    Json,
}

/// Flags of `agx run vertex`.
#[derive(Debug, Args)]
pub struct RunVertexArgs {
    /// The prolog key (TOML).
    #[arg(long, value_name = "KEY.toml", required_unless_present = "from_vulkan")]
    key: Option<PathBuf>,
    /// A Vulkan draw (JSON, as `agx key --from-vulkan` reads it) whose prolog key Honeykrisp
    /// would build.
    #[arg(long = "from-vulkan", value_name = "DRAW.json", conflicts_with = "key")]
    from_vulkan: Option<PathBuf>,
    /// The user's own prolog instead of the generated one: assembly (`.s`) or machine code,
    /// such as Mesa's.
    #[arg(long, value_name = "FILE")]
    prolog: Option<PathBuf>,
    /// The main vertex shader (assembly, `.s`, or machine code), checked for reads of
    /// registers the prolog does not hand over; without it, a main shader reading exactly
    /// the key's components.
    #[arg(long, value_name = "FILE")]
    main: Option<PathBuf>,
    /// The draw (TOML).
    #[arg(long, value_name = "DRAW.toml")]
    draw: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: RunFormat,
    /// Also print the instructions run by kind and the memory traffic.
    #[arg(long)]
    stats: bool,
}

pub(super) fn int(
    file: &str,
    at: &str,
    t: &Table,
    key: &str,
    default: Option<u64>,
) -> anyhow::Result<u64> {
    match t.get(key) {
        None => default.ok_or_else(|| anyhow!("{file}: {at}{key}: missing (expected an integer)")),
        Some(Value::Integer(i)) => {
            u64::try_from(*i).map_err(|_| anyhow!("{file}: {at}{key}: {i} is negative"))
        }
        Some(_) => bail!("{file}: {at}{key}: expected an integer"),
    }
}

pub(super) fn int32(
    file: &str,
    at: &str,
    t: &Table,
    key: &str,
    default: Option<u64>,
) -> anyhow::Result<u32> {
    let v = int(file, at, t, key, default)?;
    u32::try_from(v).map_err(|_| anyhow!("{file}: {at}{key}: {v} does not fit in 32 bits"))
}

pub(super) fn string<'a>(file: &str, at: &str, t: &'a Table, key: &str) -> anyhow::Result<&'a str> {
    match t.get(key) {
        Some(Value::String(s)) => Ok(s),
        None => bail!("{file}: {at}{key}: missing (expected a string)"),
        Some(_) => bail!("{file}: {at}{key}: expected a string"),
    }
}

pub(super) fn tables<'a>(file: &str, t: &'a Table, key: &str) -> anyhow::Result<Vec<&'a Table>> {
    match t.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_table()
                    .ok_or_else(|| anyhow!("{file}: {key}[{i}]: expected a table"))
            })
            .collect(),
        Some(_) => bail!("{file}: {key}: expected [[{key}]] tables"),
    }
}

pub(super) fn only(file: &str, at: &str, t: &Table, allowed: &[&str]) -> anyhow::Result<()> {
    match t.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => bail!(
            "{file}: {at}{k}: unknown key (expected one of {})",
            allowed.join(", ")
        ),
        None => Ok(()),
    }
}

pub(super) fn hex(file: &str, at: &str, s: &str) -> anyhow::Result<Vec<u8>> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{file}: {at}bytes: expected an even number of hex digits");
    }
    Ok((0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect())
}

fn parse_draw(file: &str, text: &str, dir: &std::path::Path) -> anyhow::Result<VertexDraw> {
    let t: Table = toml::from_str(text).map_err(|e| anyhow!("{file}: {e}"))?;
    only(
        file,
        "",
        &t,
        &[
            "vertex_count",
            "instance_count",
            "first_vertex",
            "base_instance",
            "draw_id",
            "buffer",
            "binding",
            "index",
        ],
    )?;
    let mut buffers: Vec<VertexBuffer> = Vec::new();
    for (i, b) in tables(file, &t, "buffer")?.into_iter().enumerate() {
        let at = format!("buffer[{i}].");
        only(file, &at, b, &["name", "bytes", "file", "size"])?;
        let name = string(file, &at, b, "name")?.to_string();
        let bytes = match (b.get("bytes"), b.get("file"), b.get("size")) {
            (Some(_), None, None) => hex(file, &at, string(file, &at, b, "bytes")?)?,
            (None, Some(_), None) => {
                let p = dir.join(string(file, &at, b, "file")?);
                super::read_bytes(&p, super::MAX_INPUT_BYTES)
                    .with_context(|| format!("{file}: {at}file: cannot read {}", p.display()))?
            }
            (None, None, Some(_)) => {
                let size = int(file, &at, b, "size", None)?;
                if size > super::MAX_INPUT_BYTES {
                    bail!("{file}: {at}size: {size} bytes is more than 256 MiB");
                }
                vec![0; size as usize]
            }
            _ => bail!("{file}: {at}: expected exactly one of bytes, file or size"),
        };
        buffers.push(VertexBuffer { name, bytes });
    }
    let find = |at: &str, name: &str| {
        buffers
            .iter()
            .position(|b| b.name == name)
            .ok_or_else(|| anyhow!("{file}: {at}buffer: no [[buffer]] named `{name}`"))
    };
    let mut bindings = Vec::new();
    for (i, b) in tables(file, &t, "binding")?.into_iter().enumerate() {
        let at = format!("binding[{i}].");
        only(file, &at, b, &["slot", "buffer", "offset", "size"])?;
        let buffer = find(&at, string(file, &at, b, "buffer")?)?;
        let slot = int(file, &at, b, "slot", None)?;
        let slot = u16::try_from(slot)
            .ok()
            .filter(|s| *s < 16)
            .ok_or_else(|| anyhow!("{file}: {at}slot: {slot} (expected 0 to 15)"))?;
        let offset = int(file, &at, b, "offset", Some(0))?;
        let len = buffers[buffer].bytes.len() as u64;
        let size = int(file, &at, b, "size", Some(len))?;
        bindings.push(Binding {
            slot,
            buffer,
            offset,
            size,
        });
    }
    let index = match t.get("index") {
        None => None,
        Some(Value::Table(ix)) => {
            only(file, "index.", ix, &["buffer", "offset", "count"])?;
            let buffer = find("index.", string(file, "index.", ix, "buffer")?)?;
            Some(IndexBuffer {
                buffer,
                offset: int(file, "index.", ix, "offset", Some(0))?,
                count: int32(file, "index.", ix, "count", None)?,
            })
        }
        Some(_) => bail!("{file}: index: expected a table"),
    };
    Ok(VertexDraw {
        vertex_count: int32(file, "", &t, "vertex_count", None)?,
        instance_count: int32(file, "", &t, "instance_count", Some(1))?,
        first_vertex: int32(file, "", &t, "first_vertex", Some(0))?,
        base_instance: int32(file, "", &t, "base_instance", Some(0))?,
        draw_id: int32(file, "", &t, "draw_id", Some(0))?,
        buffers,
        bindings,
        index,
    })
}

/// Runs `agx run`.
pub fn run_cmd(cmd: RunCommand) -> anyhow::Result<()> {
    match cmd {
        RunCommand::Vertex(a) => run_vertex(a),
        RunCommand::Fragment(a) => super::agx_run_fragment::run_fragment(a),
    }
}

fn run_vertex(a: RunVertexArgs) -> anyhow::Result<()> {
    let (kname, ktext) = super::agx_key::key_text(
        a.key.as_deref(),
        a.from_vulkan.as_deref(),
        super::agx_key::KeyPart::VertexProlog,
    )?;
    let key: PrologKey = parse_key(&kname, &ktext)?;
    let dname = a.draw.display().to_string();
    let dtext =
        super::read_text(&a.draw).with_context(|| format!("{dname}: cannot read the file"))?;
    let dir = a.draw.parent().unwrap_or(std::path::Path::new("."));
    let draw = parse_draw(&dname, &dtext, dir)?;
    draw.check_size(&dname)?;
    let code = match &a.prolog {
        Some(p) => super::agx_part_file::read_code("--prolog", p, false)?,
        None => {
            vertex_prolog(&key)
                .map_err(|e| anyhow!("{kname}: {e}"))?
                .code
        }
    };
    let mut program = VertexProgram::new(key, &code)?;
    if let Some(p) = &a.main {
        let name = p.display().to_string();
        let main = super::agx_part_file::read_code("--main", p, false)?;
        program.check_main(&name, &main)?;
    }
    let names = Names {
        key: kname,
        draw: dname,
    };
    let out = program.run(&draw, &names, a.stats)?;
    match a.format {
        RunFormat::Json => stream_output(|w| write_vertex_json(w, &out))?,
        RunFormat::Text => stream_output(|w| write_vertex_text(w, &out))?,
    }
    if !out.violations.is_empty() {
        bail!("{} contract violation(s)", out.violations.len());
    }
    Ok(())
}

/// `{"invocations": [{"instance_id", "registers": {"rN": "0x…"}, "vertex_id"}],
/// "stats": {...}, "violations": [...]}` as `serde_json::to_string_pretty` prints the
/// same value (keys in name order, two-space indent), written invocation by invocation:
/// a million invocations as a `serde_json::Value` take gigabytes.
fn write_vertex_json(w: &mut dyn Write, out: &VertexOutcome) -> std::io::Result<()> {
    // The registers in the order of their names ("r10" before "r8").
    let mut order: Vec<(String, usize)> = out
        .registers
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("r{r}"), i))
        .collect();
    order.sort();
    let keys: Vec<Vec<u8>> = order
        .iter()
        .map(|(n, _)| format!("        \"{n}\": \"").into_bytes())
        .collect();
    w.write_all(b"{\n  \"invocations\": [")?;
    let mut line = Vec::new();
    for (k, i) in out.invocations().enumerate() {
        line.clear();
        if k != 0 {
            line.push(b',');
        }
        line.extend_from_slice(b"\n    {\n      \"instance_id\": ");
        push_decimal(&mut line, i.instance_id);
        line.extend_from_slice(b",\n      \"registers\": {");
        for (j, (key, (_, at))) in keys.iter().zip(&order).enumerate() {
            if j != 0 {
                line.push(b',');
            }
            line.push(b'\n');
            line.extend_from_slice(key);
            push_word(&mut line, i.values[*at]);
            line.push(b'"');
        }
        if !order.is_empty() {
            line.extend_from_slice(b"\n      ");
        }
        line.extend_from_slice(b"},\n      \"vertex_id\": ");
        push_decimal(&mut line, i.vertex_id);
        line.extend_from_slice(b"\n    }");
        w.write_all(&line)?;
    }
    if !out.is_empty() {
        w.write_all(b"\n  ")?;
    }
    w.write_all(b"],")?;
    if let Some(stats) = &out.stats {
        let text = serde_json::to_string_pretty(&stats_json(stats))?;
        write!(w, "\n  \"stats\": {},", text.replace('\n', "\n  "))?;
    }
    w.write_all(b"\n  \"violations\": [")?;
    for (k, v) in out.violations.iter().enumerate() {
        let text = serde_json::to_string(&v.to_string())?;
        write!(w, "{}\n    {text}", if k == 0 { "" } else { "," })?;
    }
    if !out.violations.is_empty() {
        w.write_all(b"\n  ")?;
    }
    w.write_all(b"]\n}")
}

/// Appends `v` in decimal.
fn push_decimal(line: &mut Vec<u8>, v: u32) {
    let mut digits = [0u8; 10];
    let mut n = 0;
    let mut v = v;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    line.extend(digits[..n].iter().rev());
}

/// Appends `v` as `0x` and eight lowercase hex digits (`{v:#010x}`).
fn push_word(line: &mut Vec<u8>, v: u32) {
    line.extend_from_slice(b"0x");
    line.extend(
        (0..8)
            .rev()
            .map(|i| b"0123456789abcdef"[(v >> (4 * i) & 0xf) as usize]),
    );
}

/// One line per invocation (`vertex V instance I: rN=0x… …`), then the statistics and
/// the violations. A million invocations make hundreds of megabytes of text: each line is
/// formatted by hand into one reused buffer and written as it is made.
fn write_vertex_text(w: &mut dyn Write, out: &VertexOutcome) -> std::io::Result<()> {
    let names: Vec<Vec<u8>> = out
        .registers
        .iter()
        .map(|r| format!("r{r}=").into_bytes())
        .collect();
    let mut line = Vec::new();
    for i in out.invocations() {
        line.clear();
        line.extend_from_slice(b"vertex ");
        push_decimal(&mut line, i.vertex_id);
        line.extend_from_slice(b" instance ");
        push_decimal(&mut line, i.instance_id);
        line.extend_from_slice(b": ");
        for (k, (name, &v)) in names.iter().zip(i.values).enumerate() {
            if k != 0 {
                line.push(b' ');
            }
            line.extend_from_slice(name);
            push_word(&mut line, v);
        }
        line.push(b'\n');
        w.write_all(&line)?;
    }
    if let Some(stats) = &out.stats {
        w.write_all(stats_text(stats).as_bytes())?;
    }
    for v in &out.violations {
        writeln!(w, "violation: {v}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"invocations": [{"vertex_id", "instance_id", "registers": {"rN": "0x…"}}],
    /// "violations": [...], "stats": {...}}`.
    pub(super) fn vertex_json(out: &VertexOutcome) -> serde_json::Value {
        let names: Vec<String> = out.registers.iter().map(|r| format!("r{r}")).collect();
        let inv: Vec<serde_json::Value> = out
            .invocations()
            .map(|i| {
                let regs: serde_json::Map<String, serde_json::Value> = names
                    .iter()
                    .zip(i.values)
                    .map(|(r, v)| (r.clone(), serde_json::Value::from(format!("{v:#010x}"))))
                    .collect();
                serde_json::json!({
                    "vertex_id": i.vertex_id,
                    "instance_id": i.instance_id,
                    "registers": regs,
                })
            })
            .collect();
        let mut v = serde_json::json!({
            "invocations": inv,
            "violations": out.violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        });
        if let Some(stats) = &out.stats {
            v["stats"] = stats_json(stats);
        }
        v
    }

    /// The streamed JSON and text of `out` against `serde_json`'s printing of the value
    /// and the lines built with `format!`.
    fn check(out: &VertexOutcome) {
        let mut streamed = Vec::new();
        write_vertex_json(&mut streamed, out).unwrap();
        let expected = serde_json::to_string_pretty(&vertex_json(out)).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), expected);
        let mut text = Vec::new();
        write_vertex_text(&mut text, out).unwrap();
        let mut expected = String::new();
        for i in out.invocations() {
            let regs: Vec<String> = out
                .registers
                .iter()
                .zip(i.values)
                .map(|(r, v)| format!("r{r}={v:#010x}"))
                .collect();
            expected += &format!(
                "vertex {} instance {}: {}\n",
                i.vertex_id,
                i.instance_id,
                regs.join(" ")
            );
        }
        if let Some(stats) = &out.stats {
            expected += &stats_text(stats);
        }
        for v in &out.violations {
            expected += &format!("violation: {v}\n");
        }
        assert_eq!(String::from_utf8(text).unwrap(), expected);
    }

    fn example(stats: bool, code: Option<&str>, vertices: Option<u32>) -> VertexOutcome {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/agx/");
        let ktext = std::fs::read_to_string(format!("{root}vertex_key.toml")).unwrap();
        let key = parse_key("vertex_key.toml", &ktext).unwrap();
        let dtext = std::fs::read_to_string(format!("{root}vertex_draw.toml")).unwrap();
        let mut draw = parse_draw("vertex_draw.toml", &dtext, std::path::Path::new(root)).unwrap();
        if let Some(n) = vertices {
            draw.vertex_count = n;
        }
        let code = match code {
            Some(text) => gpuabi_agx_isa::assemble(text, "prolog.s").unwrap().bytes,
            None => vertex_prolog(&key).unwrap().code,
        };
        let program = VertexProgram::new(key, &code).unwrap();
        program.run(&draw, &Names::default(), stats).unwrap()
    }

    #[test]
    fn streamed_output_is_what_serde_json_and_format_print() {
        check(&example(false, None, None));
        check(&example(true, None, None));
        // No invocations.
        check(&example(true, None, Some(0)));
        // Violations (a prolog that writes r100 and leaves the attributes unwritten).
        let bad = example(false, Some("mov r8, r5\nmov r100, r5\n"), Some(3));
        assert!(!bad.violations.is_empty());
        check(&bad);
    }

    #[test]
    fn decimal_and_hex_digits() {
        for v in [0u32, 1, 9, 10, 4_294_967_295, 0x8000_0000, 123_456_789] {
            let mut line = Vec::new();
            push_decimal(&mut line, v);
            line.push(b' ');
            push_word(&mut line, v);
            assert_eq!(String::from_utf8(line).unwrap(), format!("{v} {v:#010x}"));
        }
    }
}
