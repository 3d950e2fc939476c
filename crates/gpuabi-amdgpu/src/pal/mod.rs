//! PAL compute shaders as LLVM's AMDGPU back end writes them for `amdgcn-amd-amdpal`
//! (`amdgpu_cs` functions): the PAL metadata (`amdpal.pipelines`), from the YAML block
//! between `.amdgpu_pal_metadata` and `.end_amdgpu_pal_metadata` of llc's assembly or the
//! MessagePack `NT_AMDGPU_METADATA` note of its object, read into a [`PalShader`]: the
//! compute stage's entry point, register counts, scratch size, wave size and the
//! `COMPUTE_PGM_RSRC1`/`COMPUTE_PGM_RSRC2` values that tell the hardware what to load
//! into a wave's SGPRs and VGPRs before it starts (LLVM's AMDGPUUsage, "Code Object
//! Metadata" → "PAL Code Object Metadata"; LLVM's `AMDGPUPALMetadata.cpp`).
//!
//! Both forms LLVM 19 writes are read. Version 2 (what llc writes by itself) gives
//! registers by offset under `.registers`. Version 3 (`amdpal.version` 3, which llc writes
//! when the module's `!amdgpu.pal.metadata.msgpack` asks for it, as PAL's front ends do)
//! leaves `.registers` empty and gives the fields by name: `.hardware_stages.cs` has
//! `.scratch_en`, `.user_sgprs`, `.lds_size` (bytes), `.ieee_mode`, `.float_mode` and
//! `.wavefront_size`, and the pipeline's `.compute_registers` has `.tgid_x_en`,
//! `.tgid_y_en`, `.tgid_z_en`, `.tg_size_en` and `.tidig_comp_cnt` (the keys of LLVM's
//! `AMDGPUPALMetadata.cpp` and LLPC's `PalMetadata`); gpuabi turns them into the two RSRC
//! values. Where version 3 leaves a field out, gpuabi takes: no scratch, no user SGPRs,
//! no LDS, IEEE mode off, work-group ids and information off, x ids only, `FLOAT_MODE`
//! 0xf0 (f32, f16 and f64 denormals kept: what LLVM writes into version 2's RSRC1 for the
//! same shaders) and the target's default wave size (llc's, without `-mattr`). Metadata
//! without a compute stage (`.hardware_stages.cs`), or version 2 without the two RSRC
//! registers, is an error naming what is missing.

mod registers;
mod yaml;

pub use registers::*;

use crate::code_object::msgpack::Value;
use crate::target::{Target, WaveSize};

/// PAL metadata that cannot be read, with the assembly line when it came from a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map_or(String::new(), |l| format!("line {l}: ")))]
pub struct PalError {
    /// The line of the assembly file, if any.
    pub line: Option<usize>,
    /// What was wrong.
    pub message: String,
}

impl PalError {
    fn at(line: usize, message: impl Into<String>) -> PalError {
        PalError {
            line: Some(line),
            message: message.into(),
        }
    }

    fn new(message: impl Into<String>) -> PalError {
        PalError {
            line: None,
            message: message.into(),
        }
    }
}

/// The compute stage of a PAL pipeline, as its metadata describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PalShader {
    /// `.hardware_stages.cs.entry_point`: the symbol where waves start.
    pub entry: String,
    /// Lanes per wave: `.hardware_stages.cs.wavefront_size` when given, else wave32 on
    /// GFX10 and later when `COMPUTE_DISPATCH_INITIATOR.CS_W32_EN` is set, else wave64.
    pub wave: WaveSize,
    /// `COMPUTE_PGM_RSRC1`.
    pub rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub rsrc2: u32,
    /// `.hardware_stages.cs.sgpr_count`: SGPRs the shader uses (LLVM's NumSgprs).
    pub sgpr_count: Option<u32>,
    /// `.hardware_stages.cs.vgpr_count`.
    pub vgpr_count: Option<u32>,
    /// `.hardware_stages.cs.scratch_memory_size`: private bytes per work-item.
    pub scratch_bytes: u32,
    /// `.hardware_stages.cs.threadgroup_dimensions`, when the metadata fixes the
    /// work-group size.
    pub threadgroup_dimensions: Option<[u32; 3]>,
}

impl PalShader {
    /// `COMPUTE_PGM_RSRC2.SCRATCH_EN`.
    pub fn scratch_enabled(&self) -> bool {
        SCRATCH_EN.get(self.rsrc2) != 0
    }

    /// `COMPUTE_PGM_RSRC2.USER_SGPR`.
    pub fn user_sgprs(&self) -> u32 {
        USER_SGPR.get(self.rsrc2)
    }

    /// `COMPUTE_PGM_RSRC2.TGID_{X,Y,Z}_EN`.
    pub fn workgroup_ids(&self) -> [bool; 3] {
        TGID_EN.map(|f| f.get(self.rsrc2) != 0)
    }

    /// `COMPUTE_PGM_RSRC2.TG_SIZE_EN`.
    pub fn workgroup_info(&self) -> bool {
        TG_SIZE_EN.get(self.rsrc2) != 0
    }

    /// `COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT`.
    pub fn work_item_id_components(&self) -> u32 {
        TIDIG_COMP_CNT.get(self.rsrc2)
    }

    /// Bytes of LDS per work-group (`COMPUTE_PGM_RSRC2.LDS_SIZE`).
    pub fn lds_bytes(&self) -> u32 {
        LDS_SIZE.get(self.rsrc2) * LDS_GRANULE
    }

    /// `COMPUTE_PGM_RSRC1.FLOAT_MODE`.
    pub fn float_mode(&self) -> u32 {
        FLOAT_MODE.get(self.rsrc1)
    }

    /// `COMPUTE_PGM_RSRC1.IEEE_MODE`.
    pub fn ieee_mode(&self) -> bool {
        IEEE_MODE.get(self.rsrc1) != 0
    }
}

/// Whether an assembly file has a `.amdgpu_pal_metadata` block.
pub fn has_pal_metadata(text: &str) -> bool {
    text.lines()
        .any(|l| directive(l) == Some(".amdgpu_pal_metadata"))
}

fn directive(line: &str) -> Option<&str> {
    line.split(';').next()?.split_whitespace().next()
}

/// Reads the compute stage of the `.amdgpu_pal_metadata` block of an assembly file for
/// `target`. Errors name the file's line.
pub fn read_assembly(text: &str, target: Target) -> Result<PalShader, PalError> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| directive(l) == Some(".amdgpu_pal_metadata"))
        .ok_or_else(|| PalError::new("no `.amdgpu_pal_metadata` block"))?;
    let end = lines[start..]
        .iter()
        .position(|l| directive(l) == Some(".end_amdgpu_pal_metadata"))
        .map(|e| start + e)
        .ok_or_else(|| {
            PalError::at(
                start + 1,
                "`.amdgpu_pal_metadata` without `.end_amdgpu_pal_metadata`",
            )
        })?;
    let body = &lines[start + 1..end];
    // The document between `---` and `...`.
    let open = body.iter().position(|l| l.trim() == "---");
    let from = open.map_or(0, |o| o + 1);
    let to = body[from..]
        .iter()
        .position(|l| l.trim() == "...")
        .map_or(body.len(), |e| from + e);
    let first_line = start + 2 + from;
    let value = yaml::read(&body[from..to], first_line)?;
    read_metadata(&value, target).map_err(|e| PalError {
        line: e.line.or(Some(start + 1)),
        message: e.message,
    })
}

/// Reads the compute stage of PAL metadata (the map holding `amdpal.pipelines`) for
/// `target`.
pub fn read_metadata(metadata: &Value, target: Target) -> Result<PalShader, PalError> {
    let pipelines = match metadata.get("amdpal.pipelines") {
        Some(Value::Array(p)) => p,
        Some(_) => return Err(PalError::new("`amdpal.pipelines` is not a sequence")),
        None => return Err(PalError::new("no `amdpal.pipelines` in the PAL metadata")),
    };
    let [pipeline] = pipelines.as_slice() else {
        return Err(PalError::new(format!(
            "`amdpal.pipelines` has {} pipelines; gpuabi runs metadata with one",
            pipelines.len()
        )));
    };
    let cs = pipeline
        .get(".hardware_stages")
        .and_then(|s| s.get(".cs"))
        .ok_or_else(|| {
            PalError::new(
                "the PAL pipeline has no compute stage (`.hardware_stages.cs`): only \
                 `amdgpu_cs` shaders are dispatched",
            )
        })?;
    let entry = cs
        .get(".entry_point_symbol")
        .or_else(|| cs.get(".entry_point"))
        .and_then(Value::as_str)
        .ok_or_else(|| PalError::new("`.hardware_stages.cs` has no `.entry_point`"))?
        .to_string();
    let number = |key: &str| -> Result<Option<u32>, PalError> {
        match cs.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| {
                    PalError::new(format!(
                        "`.hardware_stages.cs.{}` is not a 32-bit number",
                        key.trim_start_matches('.')
                    ))
                }),
        }
    };
    let no_registers = Value::Map(Vec::new());
    let registers = pipeline.get(".registers").unwrap_or(&no_registers);
    let register = |offset: u32| -> Result<Option<u32>, PalError> {
        let Value::Map(entries) = registers else {
            return Err(PalError::new("`.registers` is not a map"));
        };
        for (k, v) in entries {
            if register_offset(k) == Some(offset) {
                return v
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .map(Some)
                    .ok_or_else(|| {
                        PalError::new(format!("register 0x{offset:x} is not a 32-bit value"))
                    });
            }
        }
        Ok(None)
    };
    let need = |offset: u32, name: &str| -> Result<u32, PalError> {
        register(offset)?.ok_or_else(|| {
            PalError::new(format!(
                "`.registers` has no 0x{offset:x} ({name}), which says how waves start"
            ))
        })
    };
    let version3 = match metadata.get("amdpal.version") {
        Some(Value::Array(v)) => v.first().and_then(Value::as_u64).is_some_and(|m| m >= 3),
        _ => false,
    };
    let (rsrc1, rsrc2) = if version3 {
        version3_rsrc(cs, pipeline.get(".compute_registers"))?
    } else {
        (
            need(COMPUTE_PGM_RSRC1, "COMPUTE_PGM_RSRC1")?,
            need(COMPUTE_PGM_RSRC2, "COMPUTE_PGM_RSRC2")?,
        )
    };
    let initiator = register(COMPUTE_DISPATCH_INITIATOR)?.unwrap_or(0);
    let wave = match number(".wavefront_size")? {
        Some(32) => WaveSize::W32,
        Some(64) => WaveSize::W64,
        Some(n) => {
            return Err(PalError::new(format!(
                "`.hardware_stages.cs.wavefront_size` is {n}, not 32 or 64"
            )))
        }
        None if version3 => target.default_wave(),
        None if target.is_rdna() && CS_W32_EN.get(initiator) != 0 => WaveSize::W32,
        None => WaveSize::W64,
    };
    if !target.supports(wave) {
        return Err(PalError::new(format!(
            "the PAL metadata asks for {wave}, which {target} does not run"
        )));
    }
    let threadgroup_dimensions = match cs.get(".threadgroup_dimensions") {
        None => None,
        Some(Value::Array(d)) if d.len() == 3 => {
            let dims: Vec<u32> = d
                .iter()
                .filter_map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
                .filter(|&n| n > 0)
                .collect();
            Some(<[u32; 3]>::try_from(dims).map_err(|_| {
                PalError::new("`.threadgroup_dimensions` holds other than three positive numbers")
            })?)
        }
        Some(_) => {
            return Err(PalError::new(
                "`.threadgroup_dimensions` is not a sequence of three numbers",
            ))
        }
    };
    Ok(PalShader {
        entry,
        wave,
        rsrc1,
        rsrc2,
        sgpr_count: number(".sgpr_count")?,
        vgpr_count: number(".vgpr_count")?,
        scratch_bytes: number(".scratch_memory_size")?.unwrap_or(0),
        threadgroup_dimensions,
    })
}

/// `COMPUTE_PGM_RSRC1` and `COMPUTE_PGM_RSRC2` from the named fields of version-3
/// metadata (see the module documentation for the defaults).
fn version3_rsrc(cs: &Value, registers: Option<&Value>) -> Result<(u32, u32), PalError> {
    let field = |map: Option<&Value>, key: &str, what: &str| -> Result<Option<u32>, PalError> {
        match map.and_then(|m| m.get(key)) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(u32::from(*b))),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| {
                    PalError::new(format!(
                        "`{what}.{}` is not a number or boolean",
                        key.trim_start_matches('.')
                    ))
                }),
        }
    };
    let cs_field = |key: &str| field(Some(cs), key, ".hardware_stages.cs");
    let reg_field = |key: &str| field(registers, key, ".compute_registers");
    let put = |word: &mut u32, f: Field, value: u32, name: &str| -> Result<(), PalError> {
        if value >> f.width != 0 {
            return Err(PalError::new(format!(
                "`{name}` is {value}, more than {} bits hold",
                f.width
            )));
        }
        *word |= value << f.shift;
        Ok(())
    };
    let mut rsrc1 = 0;
    put(
        &mut rsrc1,
        FLOAT_MODE,
        cs_field(".float_mode")?.unwrap_or(0xf0),
        ".float_mode",
    )?;
    put(
        &mut rsrc1,
        IEEE_MODE,
        cs_field(".ieee_mode")?.unwrap_or(0),
        ".ieee_mode",
    )?;
    let mut rsrc2 = 0;
    put(
        &mut rsrc2,
        SCRATCH_EN,
        cs_field(".scratch_en")?.unwrap_or(0),
        ".scratch_en",
    )?;
    put(
        &mut rsrc2,
        USER_SGPR,
        cs_field(".user_sgprs")?.unwrap_or(0),
        ".user_sgprs",
    )?;
    let lds = cs_field(".lds_size")?.unwrap_or(0).div_ceil(LDS_GRANULE);
    put(&mut rsrc2, LDS_SIZE, lds, ".lds_size")?;
    for (f, key) in TGID_EN
        .iter()
        .zip([".tgid_x_en", ".tgid_y_en", ".tgid_z_en"])
    {
        put(&mut rsrc2, *f, reg_field(key)?.unwrap_or(0), key)?;
    }
    put(
        &mut rsrc2,
        TG_SIZE_EN,
        reg_field(".tg_size_en")?.unwrap_or(0),
        ".tg_size_en",
    )?;
    put(
        &mut rsrc2,
        TIDIG_COMP_CNT,
        reg_field(".tidig_comp_cnt")?.unwrap_or(0),
        ".tidig_comp_cnt",
    )?;
    Ok((rsrc1, rsrc2))
}

/// The register offset of a `.registers` key: an integer (MessagePack) or text starting
/// with one, as llc prints `'0x2e12 (COMPUTE_PGM_RSRC1)'`.
fn register_offset(key: &Value) -> Option<u32> {
    match key {
        Value::Uint(n) => u32::try_from(*n).ok(),
        Value::Str(s) => {
            let word = s.split_whitespace().next()?;
            match word.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => word.parse().ok(),
            }
        }
        _ => None,
    }
}
