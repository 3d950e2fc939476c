//! One GPU directory of a ray-tracing scene capture (`tools/mesa/capture-rt`), with the
//! files stored once per scene in its parent: what RADV compiled and set for the trace, and
//! the scene it traced. `tools/mesa/README.md` describes every file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpuabi_layout::aco::Gfx;
use gpuabi_mesa::capture::{chip_gfx, pipeline_functions, Function};

use crate::error::RadvError;
use crate::scene::Scene;

/// A capture directory read.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The GPU directory.
    pub dir: PathBuf,
    /// RADV's chip name (`NAVI21`).
    pub chip: String,
    /// Its generation.
    pub gfx: Gfx,
    /// The pipeline's functions, in executable order.
    pub functions: Vec<Function>,
    /// The Raytracing prolog's listing.
    pub prolog: PathBuf,
    /// The shader group handles, in group order.
    pub handles: Vec<Vec<u8>>,
    /// The shader binding table's bytes (`sbt.bin`).
    pub sbt: Vec<u8>,
    /// Its regions, in `sbt.txt`'s order (raygen, miss, hit, callable).
    pub regions: Vec<Region>,
    /// Descriptor set 0 as RADV lays it out (`descriptors.txt`).
    pub set: DescriptorSet,
    /// The registers RADV set for the trace's dispatch (`trace_rays_ib.txt`).
    pub dispatch: Dispatch,
    /// `accelerationStructureSize` of each BLAS, then of the TLAS.
    pub as_sizes: Vec<u64>,
    /// The scene.
    pub scene: Scene,
    /// lavapipe's output buffer (`lavapipe.bin`), where the capture has it.
    pub lavapipe: Option<PathBuf>,
}

/// One region of the shader binding table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// Byte offset in the table.
    pub offset: u64,
    /// Bytes between records.
    pub stride: u64,
    /// Bytes of the region.
    pub size: u64,
}

/// One binding of descriptor set 0: RADV's bytes for an example address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Byte offset in the set.
    pub offset: u32,
    /// The example address RADV's bytes describe.
    pub address: u64,
    /// The example range (storage buffers).
    pub range: Option<u32>,
    /// RADV's bytes for them.
    pub bytes: Vec<u8>,
}

/// Descriptor set 0: the TLAS at binding 0, the output buffer at binding 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorSet {
    /// Bytes of the set.
    pub size: u32,
    /// Bindings 0 and 1.
    pub bindings: Vec<Binding>,
}

/// The last value RADV wrote to each register before the trace's dispatch, and the
/// dispatch's size in work-groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispatch {
    /// Register name (`COMPUTE_USER_DATA_6`) to value.
    pub regs: BTreeMap<String, u32>,
    /// `DIM_X`, `DIM_Y`, `DIM_Z` of `DISPATCH_DIRECT`.
    pub groups: [u32; 3],
}

impl Dispatch {
    /// A register's value, or an error naming the file.
    pub fn reg(&self, file: &Path, name: &str) -> Result<u32, RadvError> {
        self.regs.get(name).copied().ok_or_else(|| {
            RadvError::format(file, 0, format!("no {name} write before the dispatch"))
        })
    }

    /// User data register `n`, 0 when RADV did not set it (an argument the trace does not
    /// use).
    pub fn user_data(&self, n: u32) -> u32 {
        self.regs
            .get(&format!("COMPUTE_USER_DATA_{n}"))
            .copied()
            .unwrap_or(0)
    }
}

pub(crate) fn read(path: &Path) -> Result<String, RadvError> {
    std::fs::read_to_string(path).map_err(|source| RadvError::Io {
        path: path.to_path_buf(),
        source,
    })
}

impl Capture {
    /// Reads the GPU directory `dir` (`testdata/mesa/rt/triangles/navi21`).
    pub fn read(dir: &Path) -> Result<Capture, RadvError> {
        let locate = |name: &str| -> Result<PathBuf, RadvError> {
            let here = dir.join(name);
            if here.is_file() {
                return Ok(here);
            }
            let up = dir.parent().map(|p| p.join(name));
            match up {
                Some(p) if p.is_file() => Ok(p),
                _ => Err(RadvError::Io {
                    path: here,
                    source: std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        "not in the GPU directory nor in its scene directory",
                    ),
                }),
            }
        };
        let device = dir.join("device.txt");
        let chip = read(&device)?
            .lines()
            .find_map(|l| l.strip_prefix("deviceName:"))
            .and_then(|l| {
                l.rsplit_once("(RADV ")?
                    .1
                    .strip_suffix(')')
                    .map(str::to_string)
            })
            .ok_or_else(|| {
                RadvError::format(&device, 0, "expected `deviceName: ... (RADV CHIP)`")
            })?;
        let gfx = chip_gfx(&chip).ok_or_else(|| {
            RadvError::Unsupported(format!(
                "{}: gpuabi does not model RADV's chip {chip}",
                device.display()
            ))
        })?;
        let gpu = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let functions =
            pipeline_functions(dir, &gpu, &chip).map_err(|e| RadvError::Sim(e.to_string()))?;
        let handles_path = dir.join("handles.txt");
        let handles = handles(&handles_path, &read(&handles_path)?)?;
        let sbt_bin = dir.join("sbt.bin");
        let sbt = std::fs::read(&sbt_bin).map_err(|source| RadvError::Io {
            path: sbt_bin.clone(),
            source,
        })?;
        let sbt_txt = dir.join("sbt.txt");
        let regions = regions(&sbt_txt, &read(&sbt_txt)?)?;
        let desc = dir.join("descriptors.txt");
        let set = descriptors(&desc, &read(&desc)?)?;
        let ib = dir.join("trace_rays_ib.txt");
        let dispatch = dispatch(&ib, &read(&ib)?)?;
        let sizes = dir.join("acceleration_structures.txt");
        let as_sizes = as_sizes(&sizes, &read(&sizes)?)?;
        let scene_txt = locate("scene.txt")?;
        let scene = Scene::parse(&scene_txt, &read(&scene_txt)?)?;
        Ok(Capture {
            dir: dir.to_path_buf(),
            chip,
            gfx,
            functions,
            prolog: dir.join("raytracing_prolog.txt"),
            handles,
            sbt,
            regions,
            set,
            dispatch,
            as_sizes,
            scene,
            lavapipe: locate("lavapipe.bin").ok(),
        })
    }
}

/// `key=value` of a line's fields.
fn field<'a>(fields: &[&'a str], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
}

fn number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Words written four bytes to a word in memory order (`009a7856`).
fn word_bytes(words: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for w in words.split_whitespace() {
        if w.len() != 8 {
            return None;
        }
        for k in 0..4 {
            out.push(u8::from_str_radix(&w[2 * k..2 * k + 2], 16).ok()?);
        }
    }
    Some(out)
}

fn handles(path: &Path, text: &str) -> Result<Vec<Vec<u8>>, RadvError> {
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let bytes = line
            .split_once(':')
            .and_then(|(_, w)| word_bytes(w))
            .filter(|b| b.len() == 32)
            .ok_or_else(|| RadvError::format(path, i + 1, "expected `group N:` and 8 words"))?;
        out.push(bytes);
    }
    Ok(out)
}

fn regions(path: &Path, text: &str) -> Result<Vec<Region>, RadvError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("region ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let get = |k: &str| field(&f, k).and_then(number);
        match (get("offset"), get("stride"), get("size")) {
            (Some(offset), Some(stride), Some(size)) => out.push(Region {
                offset,
                stride,
                size,
            }),
            _ => {
                return Err(RadvError::format(
                    path,
                    i + 1,
                    "expected `region KIND offset=N stride=N size=N ...`",
                ))
            }
        }
    }
    if out.len() != 4 {
        return Err(RadvError::format(
            path,
            0,
            "expected four regions: raygen, miss, hit, callable",
        ));
    }
    Ok(out)
}

fn descriptors(path: &Path, text: &str) -> Result<DescriptorSet, RadvError> {
    let mut size = None;
    let mut bindings = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        if let Some(rest) = line.strip_prefix("set_size=") {
            size = rest.split_whitespace().next().and_then(number);
            continue;
        }
        let Some((head, words)) = line.split_once(": ") else {
            continue;
        };
        let f: Vec<&str> = head.split_whitespace().collect();
        let bad = || {
            RadvError::format(
                path,
                i + 1,
                "expected `binding N KIND offset=N size=N address=0x...: words`",
            )
        };
        let offset = field(&f, "offset").and_then(number).ok_or_else(bad)?;
        let address = field(&f, "address").and_then(number).ok_or_else(bad)?;
        let range = field(&f, "range").and_then(number).map(|r| r as u32);
        let bytes = word_bytes(words).ok_or_else(bad)?;
        bindings.push(Binding {
            offset: offset as u32,
            address,
            range,
            bytes,
        });
    }
    let size = size.ok_or_else(|| RadvError::format(path, 0, "no `set_size=N` line"))? as u32;
    if bindings.len() != 2 {
        return Err(RadvError::format(path, 0, "expected bindings 0 and 1"));
    }
    Ok(DescriptorSet { size, bindings })
}

/// The register writes of Mesa's IB dump up to the first `DISPATCH_DIRECT` of the main IB:
/// lines `XXXXXXXX   NAME <- value`, whose first column is the dword written.
fn dispatch(path: &Path, text: &str) -> Result<Dispatch, RadvError> {
    let mut regs = BTreeMap::new();
    let mut groups = None;
    let mut dims: Vec<u32> = Vec::new();
    let mut in_dispatch = false;
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let (Some(word), Some(name), Some("<-")) = (parts.next(), parts.next(), parts.next())
        else {
            if line.contains("DISPATCH_DIRECT") {
                in_dispatch = true;
            }
            continue;
        };
        let Ok(value) = u32::from_str_radix(word, 16) else {
            continue;
        };
        if in_dispatch {
            if matches!(name, "DIM_X" | "DIM_Y" | "DIM_Z") {
                dims.push(value);
                if dims.len() == 3 {
                    groups = Some([dims[0], dims[1], dims[2]]);
                    break;
                }
            }
            continue;
        }
        regs.insert(name.to_string(), value);
    }
    let groups = groups
        .ok_or_else(|| RadvError::format(path, 0, "no DISPATCH_DIRECT with DIM_X, DIM_Y, DIM_Z"))?;
    Ok(Dispatch { regs, groups })
}

fn as_sizes(path: &Path, text: &str) -> Result<Vec<u64>, RadvError> {
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let size = field(&f, "accelerationStructureSize")
            .and_then(number)
            .ok_or_else(|| {
                RadvError::format(path, i + 1, "expected `accelerationStructureSize=N`")
            })?;
        out.push(size);
    }
    Ok(out)
}
