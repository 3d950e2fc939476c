//! `gpuabi agx key --from-vulkan DRAW.json --part vertex-prolog|fragment-epilog|fragment-prolog`:
//! the key Honeykrisp builds for a Vulkan draw (`gpuabi_agx::hk_key`), written as the
//! KEY.toml that `agx prolog`, `agx epilog` and `agx fs-prolog` read (and `agx run`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::{Args, ValueEnum};
use gpuabi_agx::epilog::EpilogKey;
use gpuabi_agx::fs_prolog::FsPrologKey;
use gpuabi_agx::hk_key::{fragment_epilog_key, fragment_prolog_key, vertex_prolog_key};
use gpuabi_agx::prolog::PrologKey;
use gpuabi_agx::vertex_key::RobustnessLevel;
use gpuabi_agx::vk_state::VkDrawState;

use super::agx_prolog::write_to;

/// Which part's key `agx key` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeyPart {
    /// The vertex prolog (`agx prolog`).
    VertexProlog,
    /// The fragment epilog (`agx epilog`).
    FragmentEpilog,
    /// The fragment prolog (`agx fs-prolog`), when the draw needs one.
    FragmentProlog,
}

/// Flags of `agx key`.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// The draw's Vulkan state (JSON; the format is in `gpuabi_agx::vk_state`).
    #[arg(long = "from-vulkan", value_name = "DRAW.json")]
    from_vulkan: PathBuf,
    /// The part whose key to make.
    #[arg(long, value_enum)]
    part: KeyPart,
    /// Where to write KEY.toml (standard output when left out).
    #[arg(short = 'o', long = "output", value_name = "KEY.toml")]
    output: Option<PathBuf>,
}

/// A TOML string literal.
fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// The name a key value serializes to (`one_minus_src_alpha`).
fn serial(v: serde_json::Result<serde_json::Value>) -> String {
    v.ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn letters(mask: u8, names: &str) -> String {
    names
        .chars()
        .enumerate()
        .filter(|(i, _)| mask >> i & 1 == 1)
        .map(|(_, c)| c)
        .collect()
}

/// The vertex prolog key as `agx prolog` reads it.
pub fn prolog_toml(key: &PrologKey) -> String {
    let level = match key.robustness.level {
        RobustnessLevel::Disabled => "disabled",
        RobustnessLevel::Gles => "gles",
        RobustnessLevel::Gl => "gl",
        RobustnessLevel::D3d => "d3d",
    };
    let mut s = format!(
        "robustness = {}\nsoft_fault = {}\n",
        quoted(level),
        key.robustness.soft_fault
    );
    if !key.hw {
        let _ = writeln!(s, "hw = false\nindex_size = {}", key.index_size);
    }
    for a in &key.attribs {
        let _ = write!(
            s,
            "\n[[attrib]]\nslot = {}\nformat = {}\nstride = {}\n",
            a.slot,
            quoted(&a.element.format),
            a.element.stride
        );
        if a.element.instanced {
            let _ = writeln!(s, "instanced = true\ndivisor = {}", a.element.divisor);
        }
        let _ = writeln!(s, "components = {}", quoted(&letters(a.components, "xyzw")));
    }
    s
}

/// The fragment epilog key as `agx epilog` reads it; `blend_constant` is the draw's.
pub fn epilog_toml(key: &EpilogKey, blend_constant: [f32; 4]) -> String {
    let mut s = format!(
        "samples = {}\nsample_shading = {}\nalpha_to_coverage = {}\nalpha_to_one = {}\nloc0_w_1 = {}\n",
        key.samples, key.sample_shading, key.alpha_to_coverage, key.alpha_to_one, key.loc0_w_1
    );
    for (name, on) in [
        ("write_z", key.write_z),
        ("write_s", key.write_s),
        (
            "sample_mask_after_force_early",
            key.sample_mask_after_force_early,
        ),
        ("broadcast_rt0", key.broadcast_rt0),
    ] {
        if on {
            let _ = writeln!(s, "{name} = true");
        }
    }
    if let Some(op) = key.logic_op {
        let _ = writeln!(
            s,
            "logic_op = {}",
            quoted(&serial(serde_json::to_value(op)))
        );
    }
    let constants: Vec<String> = blend_constant.iter().map(|c| format!("{c:?}")).collect();
    let _ = writeln!(s, "blend_constant = [{}]", constants.join(", "));
    for rt in key.rts.iter().flatten() {
        let _ = write!(
            s,
            "\n[[rt]]\nformat = {}\nlocation = {}\nsize = {}\ncolormask = {}\n",
            quoted(&rt.format),
            rt.location,
            rt.size,
            quoted(&letters(rt.colormask, "rgba"))
        );
        if let Some([rgb, alpha]) = rt.blend {
            let _ = write!(
                s,
                "\n[rt.blend]\nrgb_func = {}\nrgb_src = {}\nrgb_dst = {}\nalpha_func = {}\nalpha_src = {}\nalpha_dst = {}\n",
                quoted(&serial(serde_json::to_value(rgb.func))),
                quoted(&serial(serde_json::to_value(rgb.src))),
                quoted(&serial(serde_json::to_value(rgb.dst))),
                quoted(&serial(serde_json::to_value(alpha.func))),
                quoted(&serial(serde_json::to_value(alpha.src))),
                quoted(&serial(serde_json::to_value(alpha.dst))),
            );
        }
    }
    s
}

/// The fragment prolog key as `agx fs-prolog` reads it.
pub fn fs_prolog_toml(key: &FsPrologKey) -> String {
    format!(
        "api_sample_mask = {}\nstatistics = {}\npolygon_stipple = {}\nrun_zs_tests = {}\ncull_distance_size = {}\ncf_base = {}\n",
        key.api_sample_mask,
        key.statistics,
        key.polygon_stipple,
        key.run_zs_tests,
        key.cull_distance_size,
        key.cf_base
    )
}

/// Runs `agx key`.
pub fn key(a: KeyArgs) -> anyhow::Result<()> {
    let out = key_toml(&a.from_vulkan, a.part)?;
    write_to(a.output.as_deref(), out.as_bytes())
}

/// The name and text of the key an `agx run` reads: the file given with `--key`, or the key
/// derived from the draw given with `--from-vulkan` (clap requires exactly one).
pub fn key_text(
    key: Option<&Path>,
    from_vulkan: Option<&Path>,
    part: KeyPart,
) -> anyhow::Result<(String, String)> {
    match (key, from_vulkan) {
        (Some(k), _) => {
            let name = k.display().to_string();
            let text =
                super::read_text(k).with_context(|| format!("{name}: cannot read the file"))?;
            Ok((name, text))
        }
        (None, Some(d)) => Ok((d.display().to_string(), key_toml(d, part)?)),
        (None, None) => bail!("--key or --from-vulkan: one is needed"),
    }
}

/// The name and Vulkan state of the draw in the file `draw_file` (`--from-vulkan`).
fn read_draw(draw_file: &Path) -> anyhow::Result<(String, VkDrawState)> {
    let name = draw_file.display().to_string();
    let text = super::read_text(draw_file)
        .with_context(|| format!("--from-vulkan {name}: cannot read the file"))?;
    let draw = VkDrawState::from_json(&text).map_err(|e| anyhow!("{name}: {e}"))?;
    Ok((name, draw))
}

/// The fragment prolog key Honeykrisp builds for the draw in `draw_file`, or `None` when
/// it compiles no fragment prolog for it (or the draw has no fragment state).
pub fn fragment_prolog_key_of(draw_file: &Path) -> anyhow::Result<Option<FsPrologKey>> {
    let (name, draw) = read_draw(draw_file)?;
    match &draw.fragment {
        Some(f) => fragment_prolog_key(f).map_err(|e| anyhow!("{name}: {e}")),
        None => Ok(None),
    }
}

/// The KEY.toml of `part` that Honeykrisp builds for the Vulkan draw in the file `draw`
/// (what `agx key --from-vulkan` writes and `agx run --from-vulkan` reads).
pub fn key_toml(draw_file: &Path, part: KeyPart) -> anyhow::Result<String> {
    let (name, draw) = read_draw(draw_file)?;
    let missing = |half: &str| {
        anyhow!("{name}: {half}: missing (the draw has no {half} state, which --part needs)")
    };
    let header = |what: &str| {
        format!("# {what} of {name}, as Honeykrisp builds it (gpuabi agx key --from-vulkan)\n")
    };
    Ok(match part {
        KeyPart::VertexProlog => {
            let v = draw.vertex.as_ref().ok_or_else(|| missing("vertex"))?;
            let key = vertex_prolog_key(v).map_err(|e| anyhow!("{name}: {e}"))?;
            header("Vertex prolog key") + &prolog_toml(&key)
        }
        KeyPart::FragmentEpilog => {
            let f = draw.fragment.as_ref().ok_or_else(|| missing("fragment"))?;
            let key = fragment_epilog_key(f).map_err(|e| anyhow!("{name}: {e}"))?;
            header("Fragment epilog key") + &epilog_toml(&key, f.blend_constants)
        }
        KeyPart::FragmentProlog => {
            let f = draw.fragment.as_ref().ok_or_else(|| missing("fragment"))?;
            match fragment_prolog_key(f).map_err(|e| anyhow!("{name}: {e}"))? {
                Some(key) => header("Fragment prolog key") + &fs_prolog_toml(&key),
                None => bail!(
                    "{name}: fragment: Honeykrisp compiles no fragment prolog for this draw (its sample mask keeps every sample)"
                ),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn draws() -> Vec<(String, VkDrawState)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/hk/draws");
        let mut out: Vec<(String, VkDrawState)> = std::fs::read_dir(&dir)
            .expect("testdata/mesa/hk/draws")
            .map(|e| {
                let p = e.expect("entry").path();
                let text = std::fs::read_to_string(&p).expect("draw");
                let d = VkDrawState::from_json(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                (p.display().to_string(), d)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Every captured draw's keys survive the trip through KEY.toml and the parsers of
    /// `agx prolog`, `agx epilog` and `agx fs-prolog`.
    #[test]
    fn keys_read_back() {
        let all = draws();
        assert_eq!(all.len(), 29);
        let mut fs_prologs = 0;
        for (name, d) in &all {
            let v = vertex_prolog_key(d.vertex.as_ref().expect("vertex")).expect("vertex key");
            let back =
                super::super::agx_prolog::parse_key(name, &prolog_toml(&v)).expect("prolog toml");
            assert_eq!(back, v, "{name}");
            let f = d.fragment.as_ref().expect("fragment");
            let e = fragment_epilog_key(f).expect("epilog key");
            let back =
                super::super::agx_epilog::parse_key(name, &epilog_toml(&e, f.blend_constants))
                    .expect("epilog toml");
            assert_eq!(back, e, "{name}");
            if let Some(p) = fragment_prolog_key(f).expect("fs prolog key") {
                let back = super::super::agx_fs_prolog::parse_key(name, &fs_prolog_toml(&p))
                    .expect("fs prolog toml");
                assert_eq!(back, p, "{name}");
                fs_prologs += 1;
            }
        }
        // Draw 15 alone has a sample mask that leaves out samples.
        assert_eq!(fs_prologs, 1);
    }
}
