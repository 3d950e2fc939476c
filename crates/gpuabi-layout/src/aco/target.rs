//! Targets (GFX level and wave size) and the register limit derived from Mesa's device table.

use std::fmt;

use serde::Serialize;

use super::demand::Demand;
use super::error::AcoError;
use crate::gfx::Gfx;
use crate::reg::RegFile;

/// Register-file facts of one generation (Mesa's `ac_gpu_info`/`aco_ir.cpp`, newest table,
/// wave64 VGPR values).
struct DeviceTable {
    physical_sgprs: u32,
    sgpr_granule: u32,
    sgpr_limit: u32,
    physical_vgprs: u32,
    vgpr_granule: u32,
    vgpr_limit: u32,
}

/// The register-file facts of `gfx`.
fn device_table(gfx: Gfx) -> DeviceTable {
    match gfx {
        // GFX6/GFX7 as Mesa's aco::init_program (src/amd/compiler/aco_ir.cpp) sets them.
        Gfx::Gfx6 | Gfx::Gfx7 => DeviceTable {
            physical_sgprs: 512,
            sgpr_granule: 8,
            sgpr_limit: 104,
            physical_vgprs: 256,
            vgpr_granule: 4,
            vgpr_limit: 256,
        },
        // Tonga/Iceland have granule 96 and limit 96; gpuabi's gfx8 is the common case.
        Gfx::Gfx8 | Gfx::Gfx9 => DeviceTable {
            physical_sgprs: 800,
            sgpr_granule: 16,
            sgpr_limit: 102,
            physical_vgprs: 256,
            vgpr_granule: 4,
            vgpr_limit: 256,
        },
        Gfx::Gfx1030 => DeviceTable {
            physical_sgprs: 108 * 16,
            sgpr_granule: 108,
            sgpr_limit: 108,
            physical_vgprs: 512,
            vgpr_granule: 8,
            vgpr_limit: 256,
        },
        // Mesa's ac_gpu_info.c gives GFX12 RDNA 3's 768 wave64 VGPRs per SIMD.
        Gfx::Gfx1100 | Gfx::Gfx12 => DeviceTable {
            physical_sgprs: 108 * 16,
            sgpr_granule: 108,
            sgpr_limit: 108,
            physical_vgprs: 768,
            vgpr_granule: 12,
            vgpr_limit: 256,
        },
    }
}

/// A generation and the wave size a program runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Target {
    /// The generation.
    pub gfx: Gfx,
    /// Lanes per wave: 32 or 64.
    pub wave: u32,
}

/// What the default register limit depends on besides the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitInputs {
    /// Waves per SIMD the workgroup needs (Mesa's `min_waves`); 1 by default, an assumption
    /// for ray-tracing programs whose workgroup size the driver picks.
    pub min_waves: u32,
    /// Ray-tracing programs (the users of the three Mesa ABIs) clamp the VGPR limit so that
    /// a whole number of waves fits; other programs keep 256.
    pub ray_tracing: bool,
}

impl Default for LimitInputs {
    fn default() -> Self {
        LimitInputs {
            min_waves: 1,
            ray_tracing: true,
        }
    }
}

fn round_down(x: u32, granule: u32) -> u32 {
    x / granule * granule
}

fn align_up(x: u32, granule: u32) -> u32 {
    x.div_ceil(granule) * granule
}

impl Target {
    /// A target, rejecting wave32 before RDNA.
    pub fn new(gfx: Gfx, wave: u32) -> Result<Target, AcoError> {
        let ok = match wave {
            64 => true,
            32 => gfx.is_rdna(),
            _ => false,
        };
        if ok {
            Ok(Target { gfx, wave })
        } else {
            Err(AcoError::UnsupportedWave {
                target: gfx.name().to_string(),
                wave,
                expected: if gfx.is_rdna() { "32 or 64" } else { "64" },
            })
        }
    }

    /// Dwords of a lane mask (a 1-bit value): 1 in wave32, 2 in wave64.
    pub const fn lane_mask_dwords(self) -> u16 {
        (self.wave / 32) as u16
    }

    /// The register limit of a program on this target, derived as Mesa derives the
    /// addressable SGPRs and VGPRs at the program's minimum wave count.
    pub fn default_limit(self, inputs: LimitInputs) -> Demand {
        let t = device_table(self.gfx);
        let w = inputs.min_waves.max(1);
        // GFX9 programs with scratch (ray tracing always has it) reserve 6 SGPRs for
        // flat_scratch and XNACK; GFX8 reserves 2 for VCC, which gpuabi assumes is used.
        let extra_sgprs = match self.gfx {
            Gfx::Gfx9 if inputs.ray_tracing => 6,
            Gfx::Gfx6 | Gfx::Gfx7 | Gfx::Gfx8 | Gfx::Gfx9 => 2,
            Gfx::Gfx1030 | Gfx::Gfx1100 | Gfx::Gfx12 => 0,
        };
        let sgprs = round_down((t.physical_sgprs / w).min(128), t.sgpr_granule)
            .saturating_sub(extra_sgprs)
            .min(t.sgpr_limit);

        let wave32 = self.wave == 32;
        let physical_vgprs = if wave32 {
            2 * t.physical_vgprs
        } else {
            t.physical_vgprs
        };
        let granule = if wave32 {
            2 * t.vgpr_granule
        } else {
            t.vgpr_granule
        };
        let mut vgpr_limit = t.vgpr_limit;
        if inputs.ray_tracing {
            let waves = physical_vgprs / align_up(128, granule);
            vgpr_limit = round_down(physical_vgprs / waves, granule);
        }
        let vgprs = round_down(physical_vgprs / w, granule).min(vgpr_limit);
        // Both values are at most 256 by construction.
        Demand::new(sgprs as u16, vgprs as u16)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wave{}", self.gfx, self.wave)
    }
}

/// Checks that an explicit limit lies inside the register files (at most 128 SGPRs and
/// 256 VGPRs).
pub fn check_limit(limit: Demand) -> Result<Demand, AcoError> {
    for file in RegFile::ALL {
        if limit.get(file) > file.capacity() {
            return Err(AcoError::LimitOutOfRange {
                file,
                limit: u32::from(limit.get(file)),
                max: file.capacity(),
            });
        }
    }
    Ok(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Non-ray-tracing programs keep the VGPR limit of 256 (spec §4); the ray-tracing table
    /// is checked in tests/aco_vectors.rs.
    #[test]
    fn compute_programs_keep_256_vgprs() {
        let compute = LimitInputs {
            ray_tracing: false,
            min_waves: 1,
        };
        assert_eq!(
            Target::new(Gfx::Gfx1030, 64)
                .unwrap()
                .default_limit(compute),
            Demand::new(108, 256)
        );
        // Two waves per SIMD halve the VGPRs: 512 / 2 = 256, still capped at 256; on gfx8
        // 256 / 2 = 128.
        let two = LimitInputs {
            ray_tracing: false,
            min_waves: 2,
        };
        assert_eq!(
            Target::new(Gfx::Gfx8, 64).unwrap().default_limit(two).vgpr,
            128
        );
    }

    #[test]
    fn wave32_needs_rdna() {
        assert!(Target::new(Gfx::Gfx8, 32).is_err());
        assert!(Target::new(Gfx::Gfx1100, 16).is_err());
        assert!(check_limit(Demand::new(129, 10)).is_err());
        assert!(check_limit(Demand::new(128, 256)).is_ok());
    }
}
