//! Reading the Honeykrisp captures for the tests that run its background and end-of-tile
//! programs: for the project's (`testdata/mesa/hk`) the binaries each draw bound
//! (`linked/index.txt`), each draw's attachments and tile-buffer layout (`draws/*.json`)
//! and the sections of its decoded submit (`submits/*.txt`, agxdecode's text); for the
//! shared one (`data/mesa/hk` of the shared test data) its attachment sets and bound binaries; and the
//! sections of agxdecode's text, which both have.

#[path = "../mesa_parts/capture.rs"]
mod capture;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpuabi_agx::hk_key::fragment_epilog_key;
use gpuabi_agx::tilebuffer::{tilebuffer_layout, TileBufferLayout};
use gpuabi_agx::vk_state::VkDrawState;

/// `testdata/mesa/hk`.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/hk")
}

/// A file's text, or a panic naming it.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One bound binary: its address and linked file stem.
pub struct Bound {
    /// The address the draw bound it at.
    pub address: u64,
    /// `linked/<file>.bin`.
    pub file: String,
}

impl Bound {
    /// The binary's bytes.
    pub fn code(&self) -> Vec<u8> {
        let path = dir().join(format!("linked/{}.bin", self.file));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// draw → role (`background`, `end-of-tile`, …) → the binary bound in that role.
pub fn bound() -> BTreeMap<String, BTreeMap<String, Bound>> {
    let mut out: BTreeMap<String, BTreeMap<String, Bound>> = BTreeMap::new();
    for line in read(&dir().join("linked/index.txt")).lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(" | ").collect();
        let address = u64::from_str_radix(f[2].trim_start_matches("0x"), 16)
            .unwrap_or_else(|e| panic!("linked/index.txt: address `{}`: {e}", f[2]));
        out.entry(f[0].to_string()).or_default().insert(
            f[1].to_string(),
            Bound {
                address,
                file: f[3].to_string(),
            },
        );
    }
    out
}

/// A draw's colour attachments and the tile buffer they make.
pub struct DrawTile {
    /// The Vulkan format (without `VK_FORMAT_`) of each render target, `None` unbound.
    pub formats: Vec<Option<String>>,
    /// Samples per pixel.
    pub samples: u8,
    /// gpuabi's tile-buffer layout for them (Mesa's `agx_build_tilebuffer_layout`).
    pub layout: TileBufferLayout,
}

/// The attachments and tile buffer of `draw`.
pub fn draw_tile(draw: &str) -> DrawTile {
    let state = VkDrawState::from_json(&read(&dir().join(format!("draws/{draw}.json"))))
        .unwrap_or_else(|e| panic!("{draw}: {e}"));
    let f = state.fragment.expect("fragment state");
    let mut formats: Vec<Option<String>> = Vec::new();
    for a in &f.attachments {
        let at = a.location as usize;
        if formats.len() <= at {
            formats.resize(at + 1, None);
        }
        formats[at] = Some(a.format.trim_start_matches("VK_FORMAT_").to_string());
    }
    // The tile layout takes Mesa's pipe-format names, as the epilog key has them.
    let key = fragment_epilog_key(&f).unwrap_or_else(|e| panic!("{draw}: {e}"));
    let names: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let samples = u8::try_from(f.samples).expect("samples");
    let layout = tilebuffer_layout(&names, samples).unwrap_or_else(|e| panic!("{draw}: {e}"));
    DrawTile {
        formats,
        samples,
        layout,
    }
}

/// The decoded submit of `draw`.
pub fn submit(draw: &str) -> String {
    read(&dir().join(format!("submits/{draw}.txt")))
}

/// The sections of a decoded submit that start at a line `<title> (` (a pipeline:
/// `Load pipeline`, `Store pipeline`, …), each up to the next line that starts without
/// indentation and is no sub-section of a pipeline (its uniforms, texture states, shared
/// memory, shader, registers and preshader).
pub fn pipelines<'a>(submit: &'a str, title: &str) -> Vec<&'a str> {
    let head = format!("{title} (");
    let mut out = Vec::new();
    let mut offset = 0;
    for line in submit.split_inclusive('\n') {
        if line.starts_with(&head) {
            let rest = &submit[offset..];
            let mut end = 0;
            for (n, l) in rest.split_inclusive('\n').enumerate() {
                let t = l.trim_end_matches('\n');
                let inside = n == 0
                    || matches!(
                        t,
                        "Uniform"
                            | "Shared"
                            | "Shader"
                            | "Registers"
                            | "Preshader"
                            | "No preshader"
                            | "Texture state"
                            | "Sampler state"
                            | "Sampler"
                            | "PBE"
                            | "Texture"
                    )
                    || t.is_empty()
                    || t.starts_with(' ')
                    || t.starts_with("ts")
                    || t.len() > 8 && t.as_bytes()[..6].iter().all(u8::is_ascii_hexdigit);
                if !inside {
                    break;
                }
                end += l.len();
            }
            out.push(&rest[..end]);
        }
        offset += line.len();
    }
    out
}

/// The value of the first `  <name>: <value>` line of `section`.
pub fn field<'a>(section: &'a str, name: &str) -> Option<&'a str> {
    section
        .lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{name}: ")))
}

/// The uniform halves a section of a decoded submit gives (`Uniform`, `Start (halfs)`,
/// then the bytes as hex rows `000000  00 00 ...`).
pub fn uniforms(section: &str) -> BTreeMap<u32, u16> {
    let mut out = BTreeMap::new();
    let mut start: Option<u32> = None;
    let mut bytes: Vec<u8> = Vec::new();
    let mut flush = |start: Option<u32>, bytes: &mut Vec<u8>| {
        if let Some(s) = start {
            for (i, h) in bytes.chunks(2).enumerate() {
                out.insert(s + i as u32, u16::from_le_bytes([h[0], h[1]]));
            }
        }
        bytes.clear();
    };
    for line in section.lines() {
        if let Some(s) = line.trim().strip_prefix("Start (halfs): ") {
            flush(start.take(), &mut bytes);
            start = Some(s.parse().expect("a half"));
        } else if start.is_some()
            && line.len() > 8
            && line[..6].bytes().all(|b| b.is_ascii_hexdigit())
        {
            bytes.extend(
                line[8..]
                    .split_whitespace()
                    .map(|b| u8::from_str_radix(b, 16).expect("a byte")),
            );
        } else if !line.starts_with("  ") && !line.is_empty() && line != "Uniform" {
            flush(start.take(), &mut bytes);
        }
    }
    flush(start, &mut bytes);
    out
}

/// The tile shape a decoded pipeline section states, checked against `layout`.
pub fn check_tile_words(name: &str, section: &str, layout: &TileBufferLayout) {
    // The `Shared` words (a PBE has a `Layout` of its own).
    let section = section
        .split_once("\nShared\n")
        .unwrap_or_else(|| panic!("{name}: no Shared words"))
        .1;
    let tile = format!("{}x{}", layout.tile_width, layout.tile_height);
    assert_eq!(field(section, "Layout"), Some(tile.as_str()), "{name}");
    assert_eq!(
        field(section, "Sample count"),
        Some(layout.samples.to_string().as_str()),
        "{name}"
    );
    assert_eq!(
        field(section, "Sample stride in 8 bytes"),
        Some((layout.sample_size_bytes / 8).to_string().as_str()),
        "{name}"
    );
}

/// The code address a decoded pipeline section binds.
pub fn code_address(name: &str, section: &str) -> u64 {
    let code = field(section, "Code").unwrap_or_else(|| panic!("{name}: no Code"));
    u64::from_str_radix(code.trim_start_matches("0x"), 16).expect("an address")
}

/// The texture-state bindings of a decoded pipeline section: register → the text of the
/// descriptor bound there, decoded as `kind` (`Texture` or `PBE`: agxdecode prints a
/// descriptor as each kind it may be).
pub fn texture_states<'a>(name: &str, section: &'a str, kind: &str) -> BTreeMap<u32, &'a str> {
    let mut out = BTreeMap::new();
    for block in section.split("\nTexture state\n").skip(1) {
        let start: u32 = field(block, "Start")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name}: Texture state without Start"));
        assert_eq!(field(block, "Count"), Some("1"), "{name}");
        let pbe = block
            .split_once(&format!("\n{kind}\n"))
            .unwrap_or_else(|| panic!("{name}: ts{start} has no {kind}"))
            .1;
        let end: usize = pbe
            .lines()
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.len() + 1)
            .sum();
        out.insert(start, &pbe[..end.min(pbe.len())]);
    }
    out
}

/// One attachment set of the shared capture (`set A`, `set B` of `device.txt`).
pub struct SharedSet {
    /// `A` or `B`.
    pub set: char,
    /// The Vulkan format (without `VK_FORMAT_`) of each render target.
    pub formats: Vec<Option<String>>,
    /// gpuabi's tile-buffer layout for them.
    pub layout: TileBufferLayout,
}

/// The shared capture's attachment sets, from a draw of each (`dynA/…`, `dynB/…`).
pub fn shared_sets(dir: &Path) -> Vec<SharedSet> {
    let draws = capture::shared(dir);
    ['A', 'B']
        .into_iter()
        .map(|set| {
            let d = draws
                .iter()
                .find(|d| d.name.starts_with(&format!("shared/dyn{set}/")))
                .unwrap_or_else(|| panic!("no draw of set {set}"));
            let f = d.state.fragment.as_ref().expect("fragment state");
            let key = fragment_epilog_key(f).expect("epilog key");
            let names: Vec<Option<&str>> = key
                .rts
                .iter()
                .map(|r| r.as_ref().map(|r| r.format.as_str()))
                .collect();
            let layout = tilebuffer_layout(&names, key.samples).expect("layout");
            let mut formats = vec![None; names.len()];
            for a in &f.attachments {
                formats[a.location as usize] =
                    Some(a.format.trim_start_matches("VK_FORMAT_").to_string());
            }
            SharedSet {
                set,
                formats,
                layout,
            }
        })
        .collect()
}

/// The shared capture's binary bound at `address` (`linked/NN_<stage>_<address>.bin`):
/// its file name and bytes.
pub fn shared_binary(dir: &Path, address: u64) -> (String, Vec<u8>) {
    let suffix = format!("_{address:#x}.bin");
    let path = std::fs::read_dir(dir.join("linked"))
        .expect("linked/")
        .map(|e| e.expect("entry").path())
        .find(|p| {
            p.file_name()
                .and_then(|f| f.to_str())
                .is_some_and(|f| f.ends_with(&suffix))
        })
        .unwrap_or_else(|| panic!("no linked binary at {address:#x}"));
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    (name, std::fs::read(&path).expect("binary"))
}
