//! What the AMDHSA entry ABI depends on per target, as LLVM 19 models each processor.

use crate::target::{Target, WaveSize};

/// The per-target properties of the AMDHSA entry ABI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HsaFeatures {
    /// The processor in the target id (`amdgcn-amd-amdhsa--gfx802`).
    pub processor: &'static str,
    /// LLVM's `FeatureArchitectedFlatScratch`: the hardware sets up scratch, so there is no
    /// private segment buffer, no flat scratch init and no wave offset SGPR, and the private
    /// segment is enabled with `.amdhsa_enable_private_segment` (llvm-mc-19 refuses the
    /// other directives on such targets and this one elsewhere).
    pub architected_flat_scratch: bool,
    /// Work-item ids arrive packed in v0 (x in bits 0-9, y in 10-19, z in 20-29) instead of
    /// in v0, v1, v2.
    pub packed_work_item_ids: bool,
    /// The private and shared aperture bases are in hardware registers (GFX9 and later), so
    /// code object v5 has no `hidden_private_base`/`hidden_shared_base` arguments.
    pub aperture_regs: bool,
    /// LLVM's `FeatureUserSGPRInit16Bug` (GFX11 in wave32): unless user and system SGPRs
    /// together reach 16, the hardware initialises them wrongly, so LLVM raises
    /// `.amdhsa_user_sgpr_count` until they do.
    pub user_sgpr_init16_bug: bool,
}

/// The AMDHSA properties of `target` running waves of `wave` lanes.
pub const fn features(target: Target, wave: WaveSize) -> HsaFeatures {
    match target {
        // GCN 1.0 has no AMDHSA support in LLVM; the row describes LLVM's processor only.
        Target::Gfx6 => HsaFeatures {
            processor: "gfx601",
            architected_flat_scratch: false,
            packed_work_item_ids: false,
            aperture_regs: false,
            user_sgpr_init16_bug: false,
        },
        Target::Gfx7 => HsaFeatures {
            processor: "gfx704",
            architected_flat_scratch: false,
            packed_work_item_ids: false,
            aperture_regs: false,
            user_sgpr_init16_bug: false,
        },
        Target::Gfx8 => HsaFeatures {
            processor: "gfx802",
            architected_flat_scratch: false,
            packed_work_item_ids: false,
            aperture_regs: false,
            user_sgpr_init16_bug: false,
        },
        // GFX9 (Vega, gfx900) has aperture registers and no architected flat scratch; the
        // machine model refuses gfx9 programs, so this row only describes the ABI.
        Target::Gfx9 => HsaFeatures {
            processor: "gfx900",
            architected_flat_scratch: false,
            packed_work_item_ids: false,
            aperture_regs: true,
            user_sgpr_init16_bug: false,
        },
        Target::Gfx1030 => HsaFeatures {
            processor: "gfx1030",
            architected_flat_scratch: false,
            packed_work_item_ids: false,
            aperture_regs: true,
            user_sgpr_init16_bug: false,
        },
        Target::Gfx1100 => HsaFeatures {
            processor: "gfx1100",
            architected_flat_scratch: true,
            packed_work_item_ids: true,
            aperture_regs: true,
            user_sgpr_init16_bug: matches!(wave, WaveSize::W32),
        },
        // LLVM 19 gives GFX12 (`FeatureISAVersion12`) RDNA 3's architected flat scratch and
        // packed work-item ids, and not `FeatureUserSGPRInit16Bug`.
        Target::Gfx12 => HsaFeatures {
            processor: "gfx1201",
            architected_flat_scratch: true,
            packed_work_item_ids: true,
            aperture_regs: true,
            user_sgpr_init16_bug: false,
        },
    }
}
