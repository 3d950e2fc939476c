//! `gpuabi agx run vertex`: run a vertex prolog (generated from the key, or the user's own)
//! over a draw and print the registers it hands to the main vertex shader (`run fragment`
//! is in `agx_run_fragment.rs`).
//!
//! DRAW.toml: `vertex_count`, `instance_count` (default 1), `first_vertex`, `base_instance`,
//! `draw_id` (default 0), `[[buffer]]` tables with `name` and one of `bytes` (hex), `file`
//! or `size` (zero-filled), `[[binding]]` tables with `slot`, `buffer`, `offset` (default
//! 0) and `size` (default: the buffer's length), and for the compute variant an `[index]`
//! table with `buffer`, `offset` and `count`. Buffers are placed at 64 KiB-aligned
//! addresses from 0x10000 in the order given; the sink is address 0 under soft fault and a
//! 16-byte zero buffer at 0x8000 otherwise. Uniforms are filled as the ABI places them:
//! base and clamp per attribute (`agx_calculate_vbo_clamp`), first vertex, base instance,
//! draw ID and the input-assembly pointer.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use gpuabi_agx::abi::{
    vuni_base_instance, vuni_draw_id, vuni_first_vertex, vuni_input_assembly, vuni_vbo_base,
    vuni_vbo_clamp,
};
use gpuabi_agx::contract::{check_vertex_main, check_vertex_prolog, vertex_handed_over, Violation};
use gpuabi_agx::prolog::{slots, vertex_prolog, PrologKey};
use gpuabi_agx::vertex_key::{base_and_clamp, vertex_format};
use gpuabi_agx_sim::{run_observed, Region, State, LANES};
use toml::{Table, Value};

use super::agx_prolog::parse_key;
use super::agx_stats::Stats;
use super::write_output;

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

/// Address of the sink without soft fault.
const SINK: u64 = 0x8000;
/// Address of the input-assembly record of the compute variant.
const INPUT_ASSEMBLY: u64 = 0x4000;
/// Instructions one SIMD group may run.
pub(super) const MAX_STEPS: usize = 1_000_000;
/// Largest number of invocations of one run.
const MAX_INVOCATIONS: u64 = 1 << 20;

struct Binding {
    slot: u16,
    buffer: usize,
    offset: u64,
    size: u64,
}

struct Draw {
    vertex_count: u32,
    instance_count: u32,
    first_vertex: u32,
    base_instance: u32,
    draw_id: u32,
    buffers: Vec<(String, u64, Vec<u8>)>,
    bindings: Vec<Binding>,
    index: Option<(usize, u64, u32)>,
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

fn parse_draw(file: &str, text: &str, dir: &std::path::Path) -> anyhow::Result<Draw> {
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
    let mut buffers = Vec::new();
    let mut next = 0x10000u64;
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
        let address = next;
        next = (next + bytes.len() as u64 + 1).next_multiple_of(0x10000);
        buffers.push((name, address, bytes));
    }
    let find = |at: &str, name: &str| {
        buffers
            .iter()
            .position(|b| b.0 == name)
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
        let len = buffers[buffer].2.len() as u64;
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
            Some((
                buffer,
                int(file, "index.", ix, "offset", Some(0))?,
                int32(file, "index.", ix, "count", None)?,
            ))
        }
        Some(_) => bail!("{file}: index: expected a table"),
    };
    Ok(Draw {
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

/// Bytes of one vertex element of a format: the whole block (one 32-bit word for the
/// packed and software-unpacked formats).
fn element_bytes(format: &str) -> anyhow::Result<u32> {
    let f = vertex_format(format)?;
    let unit = f.interchange.block_bytes();
    Ok(if f.interchange.supports_mask() {
        unit * u32::from(f.components_loaded)
    } else {
        unit
    })
}

struct Invocation {
    vertex_id: u32,
    instance_id: u32,
    registers: Vec<(u16, u32)>,
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
    let invocations = u64::from(draw.vertex_count) * u64::from(draw.instance_count);
    if invocations > MAX_INVOCATIONS {
        bail!("{dname}: {invocations} invocations (at most {MAX_INVOCATIONS})");
    }
    let code = match &a.prolog {
        Some(p) => super::agx_part_file::read_code("--prolog", p, false)?,
        None => {
            vertex_prolog(&key)
                .map_err(|e| anyhow!("{kname}: {e}"))?
                .code
        }
    };
    let n = slots(&key);
    let handed = vertex_handed_over(&key);
    let attribs = {
        let mut v: Vec<_> = key.attribs.iter().filter(|x| x.components != 0).collect();
        v.sort_by_key(|x| x.slot);
        v
    };
    let mut violations: Vec<Violation> =
        check_vertex_prolog(&key, &code).map_err(|e| anyhow!("prolog: {e}"))?;
    if let Some(p) = &a.main {
        let name = p.display().to_string();
        let main = super::agx_part_file::read_code("--main", p, false)?;
        violations.extend(check_vertex_main(&key, &main, &name).map_err(|e| anyhow!("main: {e}"))?);
    }
    let mut stats = Stats::new(vec![("prolog".to_string(), 0..code.len())]);

    // Memory and uniforms.
    let mut base = State {
        soft_fault: key.robustness.soft_fault,
        ..State::default()
    };
    let sink = if key.robustness.soft_fault { 0 } else { SINK };
    if !key.robustness.soft_fault {
        base.memory.push(Region {
            address: SINK,
            bytes: vec![0; 16],
        });
    }
    for (_, address, bytes) in &draw.buffers {
        base.memory.push(Region {
            address: *address,
            bytes: bytes.clone(),
        });
    }
    let set = |st: &mut State, half: u16, size: u32, v: u64| {
        st.set_uniform(u32::from(half), size, v)
            .map_err(|e| anyhow!("uniform half {half}: {e}"))
    };
    for at in &attribs {
        let elsize = element_bytes(&at.element.format).map_err(|e| anyhow!("{kname}: {e}"))?;
        let (b, clamp) = match draw.bindings.iter().find(|b| b.slot == at.slot) {
            Some(b) => base_and_clamp(
                draw.buffers[b.buffer].1,
                b.size,
                b.offset,
                at.element.stride,
                elsize,
                sink,
            ),
            None => (sink, 0),
        };
        set(&mut base, vuni_vbo_base(at.slot), 64, b)?;
        set(&mut base, vuni_vbo_clamp(n, at.slot), 32, u64::from(clamp))?;
    }
    set(
        &mut base,
        vuni_first_vertex(n),
        32,
        u64::from(draw.first_vertex),
    )?;
    set(
        &mut base,
        vuni_base_instance(n),
        32,
        u64::from(draw.base_instance),
    )?;
    set(
        &mut base,
        vuni_draw_id(n),
        16,
        u64::from(draw.draw_id & 0xffff),
    )?;
    if !key.hw {
        let (ib, range) = match draw.index {
            Some((buffer, offset, count)) => (draw.buffers[buffer].1 + offset, count),
            None if key.index_size == 0 => (0, u32::MAX),
            None => bail!("{dname}: index: missing (the key's compute variant fetches indices)"),
        };
        let mut record = ib.to_le_bytes().to_vec();
        record.extend(range.to_le_bytes());
        record.extend(draw.vertex_count.to_le_bytes());
        base.memory.push(Region {
            address: INPUT_ASSEMBLY,
            bytes: record,
        });
        set(&mut base, vuni_input_assembly(n), 64, INPUT_ASSEMBLY)?;
    }

    let mut out = Vec::new();
    for instance in 0..draw.instance_count {
        let mut start = 0u32;
        while start < draw.vertex_count {
            let lanes = (draw.vertex_count - start).min(LANES as u32);
            let mut st = base.clone();
            st.exec = if lanes == 32 {
                u32::MAX
            } else {
                (1u32 << lanes) - 1
            };
            st.grid = [start, instance, 0];
            for l in 0..lanes as usize {
                let vid = draw.first_vertex.wrapping_add(start + l as u32);
                st.set_gpr(l, 10, 32, u64::from(vid))?;
                st.set_gpr(l, 12, 32, u64::from(instance))?;
            }
            run_observed(&code, &mut st, MAX_STEPS, &mut |pc, ins, st| {
                stats.observe(pc, ins, st)
            })
            .map_err(|e| anyhow!("prolog: {e}"))?;
            for l in 0..lanes as usize {
                let regs: Vec<(u16, u32)> = handed
                    .iter()
                    .map(|&r| (r, st.read_gpr(l, 2 * u32::from(r), 32).unwrap_or(0) as u32))
                    .collect();
                let get = |r: u16| regs.iter().find(|x| x.0 == r).map_or(0, |x| x.1);
                out.push(Invocation {
                    vertex_id: get(5),
                    instance_id: get(6),
                    registers: regs,
                });
            }
            start += lanes;
        }
    }
    let text = match a.format {
        RunFormat::Json => {
            let inv: Vec<serde_json::Value> = out
                .iter()
                .map(|i| {
                    let regs: serde_json::Map<String, serde_json::Value> = i
                        .registers
                        .iter()
                        .map(|(r, v)| {
                            (
                                format!("r{r}"),
                                serde_json::Value::from(format!("{v:#010x}")),
                            )
                        })
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
                "violations": violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            });
            if a.stats {
                v["stats"] = stats.json();
            }
            serde_json::to_string_pretty(&v)?
        }
        RunFormat::Text => {
            let mut s = String::new();
            for i in &out {
                let regs: Vec<String> = i
                    .registers
                    .iter()
                    .map(|(r, v)| format!("r{r}={v:#010x}"))
                    .collect();
                s += &format!(
                    "vertex {} instance {}: {}\n",
                    i.vertex_id,
                    i.instance_id,
                    regs.join(" ")
                );
            }
            if a.stats {
                s += &stats.text();
            }
            for v in &violations {
                s += &format!("violation: {v}\n");
            }
            s
        }
    };
    write_output(&text)?;
    if !violations.is_empty() {
        bail!("{} contract violation(s)", violations.len());
    }
    Ok(())
}
