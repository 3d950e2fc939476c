//! GPU generations and wave sizes: the one target type of gpuabi, shared by the layout
//! engines and the AMD machine model.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// An AMD GPU generation gpuabi models.
///
/// The layout engines know `gfx8`, `gfx9`, `gfx1030` and `gfx1100` ([`Gfx::ALL`]); the
/// machine model (`gpuabi-amdgpu`) has instruction encodings for `gfx6`, `gfx7`, `gfx8`,
/// `gfx1030` and `gfx1100` and rejects `gfx9` programs with an error saying so. `gfx6` and
/// `gfx7` exist for reading, running and assembling the code of AMD's own compilers (Catalyst
/// binaries are GCN 1.0 and 1.1); gpuabi's code generator does not target them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Gfx {
    /// GCN 1.0 (Southern Islands: Tahiti, Pitcairn, Cape Verde), wave64 only; LLVM's
    /// `pitcairn` (gfx601) in the machine model.
    Gfx6,
    /// GCN 1.1 (Sea Islands: Bonaire, Hawaii), wave64 only; LLVM's `bonaire` (gfx704).
    Gfx7,
    /// GCN 3 (Tonga, Fiji, Polaris), wave64 only; the generation of the Catalyst OpenCL ABI.
    /// The machine model's `gfx8` is LLVM's `tonga` (gfx802).
    Gfx8,
    /// GCN 5 (Vega), wave64 only.
    Gfx9,
    /// RDNA 2 (Navi 21), wave32 and wave64.
    Gfx1030,
    /// RDNA 3 (Navi 31), wave32 and wave64, with the larger VGPR file.
    Gfx1100,
}

/// The number of lanes of a wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum WaveSize {
    /// 32 lanes; lane masks are one SGPR (`vcc_lo`, `exec_lo`).
    W32,
    /// 64 lanes; lane masks are an SGPR pair (`vcc`, `exec`).
    W64,
}

impl WaveSize {
    /// Number of lanes.
    pub const fn lanes(self) -> u32 {
        match self {
            WaveSize::W32 => 32,
            WaveSize::W64 => 64,
        }
    }

    /// Number of SGPRs in a lane mask.
    pub const fn mask_dwords(self) -> u8 {
        match self {
            WaveSize::W32 => 1,
            WaveSize::W64 => 2,
        }
    }

    /// A mask with one bit per lane set.
    pub const fn full_mask(self) -> u64 {
        match self {
            WaveSize::W32 => 0xffff_ffff,
            WaveSize::W64 => u64::MAX,
        }
    }

    /// The wave size with `lanes` lanes (32 or 64).
    pub fn from_lanes(lanes: u32) -> Option<WaveSize> {
        match lanes {
            32 => Some(WaveSize::W32),
            64 => Some(WaveSize::W64),
            _ => None,
        }
    }
}

impl fmt::Display for WaveSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wave{}", self.lanes())
    }
}

impl Gfx {
    /// Every generation the layout engines model, oldest first (not `gfx6`/`gfx7`, which
    /// only the machine model knows).
    pub const ALL: [Gfx; 4] = [Gfx::Gfx8, Gfx::Gfx9, Gfx::Gfx1030, Gfx::Gfx1100];

    /// The gpuabi name (`gfx8`, `gfx9`, `gfx1030`, `gfx1100`).
    pub const fn name(self) -> &'static str {
        match self {
            Gfx::Gfx6 => "gfx6",
            Gfx::Gfx7 => "gfx7",
            Gfx::Gfx8 => "gfx8",
            Gfx::Gfx9 => "gfx9",
            Gfx::Gfx1030 => "gfx1030",
            Gfx::Gfx1100 => "gfx1100",
        }
    }

    /// The `-mcpu` value for LLVM (`gfx8` is GCN 1.2 as in Tonga, `gfx802`; `gfx9` is
    /// Vega 10, `gfx900`).
    pub const fn llvm_cpu(self) -> &'static str {
        match self {
            Gfx::Gfx6 => "pitcairn",
            Gfx::Gfx7 => "bonaire",
            Gfx::Gfx8 => "tonga",
            Gfx::Gfx9 => "gfx900",
            Gfx::Gfx1030 => "gfx1030",
            Gfx::Gfx1100 => "gfx1100",
        }
    }

    /// Whether the machine model has instruction encodings for the generation (all but
    /// `gfx9`).
    pub const fn has_encodings(self) -> bool {
        !matches!(self, Gfx::Gfx9)
    }

    /// Whether scratch is addressed with an SGPR byte offset (`scratch_*` with SADDR) rather
    /// than a buffer resource: GFX9 and later.
    pub const fn has_flat_scratch(self) -> bool {
        !matches!(self, Gfx::Gfx6 | Gfx::Gfx7 | Gfx::Gfx8)
    }

    /// Whether the generation is RDNA (GFX10+), which runs wave32 as well as wave64.
    pub const fn is_rdna(self) -> bool {
        matches!(self, Gfx::Gfx1030 | Gfx::Gfx1100)
    }

    /// Whether the generation can run waves of `wave` lanes.
    pub const fn supports(self, wave: WaveSize) -> bool {
        match wave {
            WaveSize::W64 => true,
            WaveSize::W32 => self.is_rdna(),
        }
    }

    /// The wave size programs use when none is given (wave64 on GCN, wave32 on RDNA).
    pub const fn default_wave(self) -> WaveSize {
        if self.is_rdna() {
            WaveSize::W32
        } else {
            WaveSize::W64
        }
    }

    /// Number of SGPRs an instruction can name as `sN` (GCN 1.0/1.1: s0-s103; GCN 1.2 and
    /// later: s0-s101, the rest up to `vcc` are `flat_scratch`/`xnack_mask`; RDNA: s0-s105,
    /// then `vcc`), as LLVM's `AMDGPU::IsaInfo::getAddressableNumSGPRs` counts them.
    pub const fn addressable_sgprs(self) -> u16 {
        match self {
            Gfx::Gfx6 | Gfx::Gfx7 => 104,
            Gfx::Gfx8 | Gfx::Gfx9 => 102,
            Gfx::Gfx1030 | Gfx::Gfx1100 => 106,
        }
    }

    /// How many distinct SGPRs or literals one vector instruction may read (the constant bus).
    pub const fn constant_bus_limit(self) -> usize {
        match self {
            Gfx::Gfx6 | Gfx::Gfx7 | Gfx::Gfx8 | Gfx::Gfx9 => 1,
            Gfx::Gfx1030 | Gfx::Gfx1100 => 2,
        }
    }

    /// Whether VOP3 (64-bit encoded) vector instructions may carry a literal constant.
    pub const fn vop3_literal(self) -> bool {
        self.is_rdna()
    }
}

impl fmt::Display for Gfx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The target name was not one gpuabi models.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}`: expected gfx6, gfx7, gfx8, gfx9, gfx1030 or gfx1100")]
pub struct UnknownGfx(pub String);

impl FromStr for Gfx {
    type Err = UnknownGfx;

    /// The gpuabi names, and LLVM's names of the same processors (`tonga`, `gfx802`,
    /// `gfx900`).
    fn from_str(text: &str) -> Result<Gfx, UnknownGfx> {
        match text {
            "gfx6" | "gfx601" | "pitcairn" | "tahiti" | "gfx600" | "verde" => Ok(Gfx::Gfx6),
            "gfx7" | "gfx704" | "bonaire" | "hawaii" | "gfx701" => Ok(Gfx::Gfx7),
            "gfx8" | "gfx802" | "tonga" => Ok(Gfx::Gfx8),
            "gfx9" | "gfx900" => Ok(Gfx::Gfx9),
            "gfx1030" => Ok(Gfx::Gfx1030),
            "gfx1100" => Ok(Gfx::Gfx1100),
            _ => Err(UnknownGfx(text.to_string())),
        }
    }
}
