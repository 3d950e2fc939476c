//! A capture of RADV's ray-tracing functions, as `tools/mesa/capture-radv` writes it:
//!
//! ```text
//! radv/<configuration>/device.txt            deviceName: AMD Radeon RX 7900 XTX (RADV NAVI31)
//! radv/<configuration>/<pipeline>/executables.txt
//!     NN | name | description | stages=0x... | subgroupSize=N
//! radv/<configuration>/<pipeline>/NN_<name>.Assembly.txt   ACO's disassembly
//! radv/<configuration>/<pipeline>/NN_<name>.ACO_IR.txt     ACO's IR after spilling
//! ```
//!
//! Each executable of a ray-tracing pipeline is one function (`radv_pipeline_rt.c`): raygen,
//! miss, closest-hit and callable shaders under the RT_RECURSIVE ABI, the traversal function
//! (named "intersection", described as the shader "responsible for traversing the
//! acceleration structure") under TRAVERSAL, and, when a pipeline has many any-hit and
//! intersection shaders, one AHIT_ISEC function per hit group (named "any hit" or
//! "intersection").

use std::path::{Path, PathBuf};

use gpuabi_layout::aco::{Gfx, RtStage};

use crate::error::MesaError;

/// The description RADV gives its traversal function.
const TRAVERSAL_DESCRIPTION: &str = "Shader responsible for traversing the acceleration structure";

/// RADV's chip names (Mesa's `radeon_family`, as `deviceName` ends them) of the generations
/// gpuabi models.
const CHIPS: &[(&str, Gfx)] = &[
    ("TAHITI", Gfx::Gfx6),
    ("PITCAIRN", Gfx::Gfx6),
    ("VERDE", Gfx::Gfx6),
    ("OLAND", Gfx::Gfx6),
    ("HAINAN", Gfx::Gfx6),
    ("BONAIRE", Gfx::Gfx7),
    ("KAVERI", Gfx::Gfx7),
    ("KABINI", Gfx::Gfx7),
    ("HAWAII", Gfx::Gfx7),
    ("TONGA", Gfx::Gfx8),
    ("ICELAND", Gfx::Gfx8),
    ("CARRIZO", Gfx::Gfx8),
    ("FIJI", Gfx::Gfx8),
    ("STONEY", Gfx::Gfx8),
    ("POLARIS10", Gfx::Gfx8),
    ("POLARIS11", Gfx::Gfx8),
    ("POLARIS12", Gfx::Gfx8),
    ("VEGAM", Gfx::Gfx8),
    ("VEGA10", Gfx::Gfx9),
    ("VEGA12", Gfx::Gfx9),
    ("VEGA20", Gfx::Gfx9),
    ("RAVEN", Gfx::Gfx9),
    ("RAVEN2", Gfx::Gfx9),
    ("RENOIR", Gfx::Gfx9),
    ("NAVI21", Gfx::Gfx1030),
    ("NAVI22", Gfx::Gfx1030),
    ("NAVI23", Gfx::Gfx1030),
    ("NAVI24", Gfx::Gfx1030),
    ("VANGOGH", Gfx::Gfx1030),
    ("REMBRANDT", Gfx::Gfx1030),
    ("RAPHAEL_MENDOCINO", Gfx::Gfx1030),
    ("NAVI31", Gfx::Gfx1100),
    ("NAVI32", Gfx::Gfx1100),
    ("NAVI33", Gfx::Gfx1100),
    ("PHOENIX", Gfx::Gfx1100),
    ("GFX1200", Gfx::Gfx12),
    ("GFX1201", Gfx::Gfx12),
];

/// One compiled function of a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The configuration folder (`navi31`, `navi31_rtwave64`, ...).
    pub configuration: String,
    /// RADV's chip name from `device.txt` (`NAVI31`).
    pub chip: String,
    /// The generation, if gpuabi models the chip's.
    pub gfx: Option<Gfx>,
    /// The pipeline folder.
    pub pipeline: String,
    /// The executable's index in the pipeline.
    pub index: u32,
    /// RADV's name of the executable (`closest hit`).
    pub name: String,
    /// RADV's description of it.
    pub description: String,
    /// The stage it implements.
    pub stage: RtStage,
    /// Its wave size (`subgroupSize`).
    pub wave: u32,
    /// ACO's disassembly.
    pub assembly: PathBuf,
    /// ACO's IR.
    pub aco_ir: PathBuf,
}

impl Function {
    /// `configuration/pipeline/NN_name`, for reports.
    pub fn label(&self) -> String {
        format!(
            "{}/{}/{:02}_{}",
            self.configuration,
            self.pipeline,
            self.index,
            self.name.replace(' ', "_")
        )
    }
}

/// The generation of one of RADV's chip names, if gpuabi models it.
pub fn chip_gfx(chip: &str) -> Option<Gfx> {
    CHIPS.iter().find(|(c, _)| *c == chip).map(|(_, g)| *g)
}

fn read(path: &Path) -> Result<String, MesaError> {
    std::fs::read_to_string(path).map_err(|source| MesaError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn syntax(path: &Path, line: usize, message: impl Into<String>) -> MesaError {
    MesaError::Syntax {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// The chip of a configuration: the name in parentheses after "RADV " in `device.txt`.
fn chip(path: &Path) -> Result<String, MesaError> {
    let text = read(path)?;
    for (i, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("deviceName:") {
            return name
                .rsplit_once("(RADV ")
                .and_then(|(_, c)| c.strip_suffix(')'))
                .map(str::to_string)
                .ok_or_else(|| syntax(path, i + 1, "expected `deviceName: ... (RADV CHIP)`"));
        }
    }
    Err(syntax(path, 1, "no `deviceName:` line"))
}

/// The stage of an executable from RADV's name and description.
fn stage(name: &str, description: &str) -> Option<RtStage> {
    Some(match name {
        "raygen" => RtStage::Raygen,
        "miss" => RtStage::Miss,
        "closest hit" => RtStage::ClosestHit,
        "callable" => RtStage::Callable,
        "any hit" => RtStage::AnyHit,
        "intersection" if description == TRAVERSAL_DESCRIPTION => RtStage::Traversal,
        "intersection" => RtStage::Intersection,
        _ => return None,
    })
}

/// The functions of one pipeline folder, in executable order.
pub fn pipeline_functions(
    dir: &Path,
    configuration: &str,
    chip: &str,
) -> Result<Vec<Function>, MesaError> {
    let list = dir.join("executables.txt");
    let text = read(&list)?;
    let pipeline = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let bad = || {
            syntax(
                &list,
                i + 1,
                "expected `NN | name | description | stages=0x... | subgroupSize=N`",
            )
        };
        let [index, name, description, _stages, subgroup] = fields[..] else {
            return Err(bad());
        };
        let index: u32 = index.parse().map_err(|_| bad())?;
        let wave: u32 = subgroup
            .strip_prefix("subgroupSize=")
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)?;
        let stage = stage(name, description).ok_or_else(|| {
            syntax(
                &list,
                i + 1,
                format!("`{name}` is not a ray-tracing stage RADV compiles as a function"),
            )
        })?;
        let stem = format!("{index:02}_{}", name.replace(' ', "_"));
        out.push(Function {
            configuration: configuration.to_string(),
            chip: chip.to_string(),
            gfx: chip_gfx(chip),
            pipeline: pipeline.clone(),
            index,
            name: name.to_string(),
            description: description.to_string(),
            stage,
            wave,
            assembly: dir.join(format!("{stem}.Assembly.txt")),
            aco_ir: dir.join(format!("{stem}.ACO_IR.txt")),
        });
    }
    Ok(out)
}

/// Every function of a capture's `radv` folder: configurations and pipelines in name order.
/// A configuration without `executables.txt` files (RADV refused ray tracing) has none.
pub fn read_capture(radv: &Path) -> Result<Vec<Function>, MesaError> {
    let mut out = Vec::new();
    for config in sorted_dirs(radv)? {
        let configuration = config
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let pipelines: Vec<PathBuf> = sorted_dirs(&config)?
            .into_iter()
            .filter(|p| p.join("executables.txt").is_file())
            .collect();
        if pipelines.is_empty() {
            continue;
        }
        let chip = chip(&config.join("device.txt"))?;
        for p in pipelines {
            out.extend(pipeline_functions(&p, &configuration, &chip)?);
        }
    }
    Ok(out)
}

fn sorted_dirs(dir: &Path) -> Result<Vec<PathBuf>, MesaError> {
    let entries = std::fs::read_dir(dir).map_err(|source| MesaError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    Ok(dirs)
}
