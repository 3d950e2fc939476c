//! `gpuabi agx sim`: run AGX code on one SIMD group from a given state and print the end
//! state.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use clap::{Args, ValueEnum};
use gpuabi_agx_isa::{assemble, size_halves, AgxRegName, RegFile};
use gpuabi_agx_sim::{run, Fragment, Region, State, GPR_HALVES, LANES};
use serde_json::Value;

use super::write_output;

/// Output of `agx sim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimFormat {
    /// One line per register: its 32 lane values.
    Text,
    /// `{"exec", "registers": {"rN": [32 values]}, "memory": [{"address", "bytes"}]}`.
    Json,
}

/// Flags of `agx sim`.
#[derive(Debug, Args)]
pub struct SimArgs {
    /// Code: assembly when the name ends in `.s`, machine code bytes otherwise.
    file: PathBuf,
    /// Start state (JSON: exec, registers, uniforms, memory, soft_fault, fragment); all
    /// zero with every lane active when left out.
    #[arg(long, value_name = "STATE.json")]
    state: Option<PathBuf>,
    /// Instructions executed before the run is stopped.
    #[arg(long, default_value_t = 1_000_000)]
    max_steps: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: SimFormat,
}

fn number(v: &Value, what: &str) -> anyhow::Result<u64> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| anyhow!("{what}: expected a non-negative integer")),
        Value::String(s) => {
            let t = s.trim();
            let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => t.parse(),
            };
            r.map_err(|_| anyhow!("{what}: expected a number such as \"0x1f\", got {s:?}"))
        }
        _ => bail!("{what}: expected a number or a hex string"),
    }
}

/// A register name `rN`, `rNl`, `rNh`, `drN` (or `u...`) as (half, size).
/// The 32-bit GPR at half `h`.
fn gpr32(h: u32) -> AgxRegName {
    AgxRegName {
        file: RegFile::Gpr,
        half: h,
        size: 32,
    }
}

/// The half and size of register `name` of `file` (`r3l`, `r3`, `dr2`; `u…` for uniforms).
fn register(name: &str, file: RegFile) -> Option<(u32, u32)> {
    AgxRegName::parse(name)
        .filter(|n| n.file == file)
        .map(|n| (n.half, n.size))
}

fn hex_bytes(s: &str, what: &str) -> anyhow::Result<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{what}: expected an even number of hex digits");
    }
    Ok((0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect())
}

/// The fragment context: `{"width", "height", "samples", "sample_size", "tib": "hex",
/// "cf": [[a, b, c], ...], "sample_positions", "coverage"}`; every key but the first four
/// is optional (a zero tile, no coefficients, the standard positions, all samples).
fn parse_fragment(v: &Value, at: &str) -> anyhow::Result<Fragment> {
    let obj = v
        .as_object()
        .ok_or_else(|| anyhow!("{at}: expected an object"))?;
    let allowed = [
        "width",
        "height",
        "samples",
        "sample_size",
        "tib",
        "cf",
        "sample_positions",
        "coverage",
    ];
    if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        bail!(
            "{at}.{k}: unknown key; expected one of {}",
            allowed.join(", ")
        );
    }
    let field = |k: &str| -> anyhow::Result<u32> {
        let what = format!("{at}.{k}");
        let v = obj.get(k).ok_or_else(|| anyhow!("{what}: missing"))?;
        u32::try_from(number(v, &what)?).map_err(|_| anyhow!("{what}: expected 32 bits"))
    };
    let mut f = Fragment::new(
        field("width")?,
        field("height")?,
        field("samples")?,
        field("sample_size")?,
    )
    .map_err(|e| anyhow!("{at}: {e}"))?;
    if let Some(t) = obj.get("tib") {
        let what = format!("{at}.tib");
        let bytes = hex_bytes(
            t.as_str()
                .ok_or_else(|| anyhow!("{what}: expected a hex string"))?,
            &what,
        )?;
        if bytes.len() != f.tib.len() {
            bail!(
                "{what}: {} bytes, but the tile holds {} (width · height · samples · sample_size)",
                bytes.len(),
                f.tib.len()
            );
        }
        f.tib = bytes;
    }
    if let Some(c) = obj.get("cf") {
        let what = format!("{at}.cf");
        for (i, plane) in c
            .as_array()
            .ok_or_else(|| anyhow!("{what}: expected a list of [a, b, c]"))?
            .iter()
            .enumerate()
        {
            let p = plane
                .as_array()
                .filter(|p| p.len() == 3)
                .ok_or_else(|| anyhow!("{what}[{i}]: expected [a, b, c]"))?;
            let mut coeffs = [0u32; 3];
            for (k, x) in p.iter().enumerate() {
                let x = x
                    .as_f64()
                    .ok_or_else(|| anyhow!("{what}[{i}][{k}]: expected a number"))?;
                coeffs[k] = (x as f32).to_bits();
            }
            f.cf.push(coeffs);
        }
    }
    if obj.contains_key("sample_positions") {
        f.sample_positions = field("sample_positions")?;
    }
    if obj.contains_key("coverage") {
        let c = field("coverage")? as u8 & f.all_samples();
        f.coverage = [c; LANES];
        f.input_coverage = f.coverage;
    }
    Ok(f)
}

/// The start state and the 32-bit registers it names (for the output).
fn parse_state(text: &str, file: &str) -> anyhow::Result<(State, Vec<u32>)> {
    let v: Value = serde_json::from_str(text).map_err(|e| anyhow!("{file}: not JSON: {e}"))?;
    let obj = v
        .as_object()
        .ok_or_else(|| anyhow!("{file}: expected a JSON object"))?;
    let mut st = State::default();
    let mut named = Vec::new();
    for (key, val) in obj {
        let at = format!("{file}: {key}");
        match key.as_str() {
            "exec" => st.exec = u32::try_from(number(val, &at)?).map_err(|_| anyhow!("{at}: expected 32 bits"))?,
            "soft_fault" => st.soft_fault = val.as_bool().ok_or_else(|| anyhow!("{at}: expected true or false"))?,
            "registers" => {
                for (name, value) in val.as_object().ok_or_else(|| anyhow!("{at}: expected an object"))? {
                    let at = format!("{at}.{name}");
                    let (half, size) = register(name, RegFile::Gpr)
                        .filter(|(h, s)| (*h + size_halves(*s)) as usize <= GPR_HALVES)
                        .ok_or_else(|| anyhow!("{at}: expected a register name r0..r127, r0l, r0h or dr0"))?;
                    let lanes: Vec<u64> = match value {
                        Value::Array(items) => {
                            if items.len() != LANES {
                                bail!("{at}: expected 32 lane values, got {}", items.len());
                            }
                            items.iter().map(|x| number(x, &at)).collect::<anyhow::Result<_>>()?
                        }
                        one => vec![number(one, &at)?; LANES],
                    };
                    for (lane, x) in lanes.into_iter().enumerate() {
                        st.set_gpr(lane, half, size, x)?;
                    }
                    named.extend((half / 2..(half + size / 16).div_ceil(2)).map(|r| r * 2));
                }
            }
            "uniforms" => {
                for (name, value) in val.as_object().ok_or_else(|| anyhow!("{at}: expected an object"))? {
                    let at = format!("{at}.{name}");
                    let (half, size) = register(name, RegFile::Uniform)
                        .ok_or_else(|| anyhow!("{at}: expected a uniform name u0..u255, u0l, u0h or du0"))?;
                    st.set_uniform(half, size, number(value, &at)?)
                        .map_err(|e| anyhow!("{at}: {e}"))?;
                }
            }
            "memory" => {
                for (i, region) in val.as_array().ok_or_else(|| anyhow!("{at}: expected a list"))?.iter().enumerate() {
                    let at = format!("{at}[{i}]");
                    let address = number(&region["address"], &format!("{at}.address"))?;
                    let bytes = region["bytes"]
                        .as_str()
                        .ok_or_else(|| anyhow!("{at}.bytes: expected a hex string"))?;
                    st.memory.push(Region {
                        address,
                        bytes: hex_bytes(bytes, &format!("{at}.bytes"))?,
                    });
                }
            }
            "fragment" => st.frag = Some(Box::new(parse_fragment(val, &at)?)),
            other => bail!("{file}: unknown key `{other}`; expected exec, registers, uniforms, memory, soft_fault or fragment"),
        }
    }
    Ok((st, named))
}

/// Runs `agx sim`.
pub fn sim(a: SimArgs) -> anyhow::Result<()> {
    let name = a.file.display().to_string();
    let code = if name.ends_with(".s") {
        let text =
            super::read_text(&a.file).with_context(|| format!("{name}: cannot read the file"))?;
        assemble(&text, &name)?.bytes
    } else {
        super::read_bytes(&a.file, super::MAX_INPUT_BYTES)
            .with_context(|| format!("{name}: cannot read the file"))?
    };
    let (mut st, mut shown) = match &a.state {
        Some(p) => {
            let f = p.display().to_string();
            let text = super::read_text(p)
                .with_context(|| format!("--state {f}: cannot read the file"))?;
            parse_state(&text, &format!("--state {f}"))?
        }
        None => (State::default(), Vec::new()),
    };
    run(&code, &mut st, a.max_steps).map_err(|e| anyhow!("{name}: {e}"))?;
    shown.extend(
        (0..GPR_HALVES as u32)
            .step_by(2)
            .filter(|&h| st.written[h as usize] || st.written[h as usize + 1]),
    );
    shown.sort_unstable();
    shown.dedup();
    let lanes = |h: u32| -> Vec<String> {
        (0..LANES)
            .map(|l| format!("{:#010x}", st.read_gpr(l, h, 32).unwrap_or(0)))
            .collect()
    };
    let out = match a.format {
        SimFormat::Json => {
            let regs: serde_json::Map<String, Value> = shown
                .iter()
                .map(|&h| (gpr32(h).to_string(), Value::from(lanes(h))))
                .collect();
            let memory: Vec<Value> = st
                .memory
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "address": format!("{:#x}", r.address),
                        "bytes": r.bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(),
                    })
                })
                .collect();
            let mut v = serde_json::json!({
                "exec": format!("{:#010x}", st.exec),
                "registers": regs,
                "memory": memory,
            });
            if let Some(f) = &st.frag {
                let opt =
                    |x: Option<u64>| x.map_or(Value::Null, |x| Value::from(format!("{x:#x}")));
                v["fragment"] = serde_json::json!({
                    "tib": f.tib.iter().map(|b| format!("{b:02x}")).collect::<String>(),
                    "coverage": f.coverage.iter().map(|c| format!("{c:#x}")).collect::<Vec<_>>(),
                    "depth": f.depth.iter().map(|d| opt(d.map(u64::from))).collect::<Vec<_>>(),
                    "stencil": f.stencil.iter().map(|d| opt(d.map(u64::from))).collect::<Vec<_>>(),
                });
            }
            serde_json::to_string_pretty(&v).unwrap_or_default()
        }
        SimFormat::Text => {
            let mut s = format!("exec {:#010x}\n", st.exec);
            for &h in &shown {
                s += &format!("{:<5} {}\n", gpr32(h).to_string(), lanes(h).join(" "));
            }
            if let Some(f) = &st.frag {
                let tib: String = f.tib.iter().map(|b| format!("{b:02x}")).collect();
                s += &format!("tib  {tib}\n");
            }
            s
        }
    };
    write_output(&out)
}
