//! Targets (GPU generations) and wave sizes.

use std::fmt;
use std::str::FromStr;

/// A GPU generation the machine model knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// GCN 1.2 (Tonga/Fiji/Polaris), wave64 only; the generation of the Catalyst OpenCL ABI.
    Gfx8,
    /// RDNA 2 (Navi 21), wave32 and wave64.
    Gfx1030,
    /// RDNA 3 (Navi 31), wave32 and wave64.
    Gfx1100,
}

/// The targets the machine model has encodings for, oldest first.
pub const MODELLED_TARGETS: [Target; 3] = [Target::Gfx8, Target::Gfx1030, Target::Gfx1100];

/// The number of lanes of a wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

impl Target {
    /// Every target, oldest first.
    pub const ALL: [Target; 3] = [Target::Gfx8, Target::Gfx1030, Target::Gfx1100];

    /// The gpuabi name (`gfx8`, `gfx1030`, `gfx1100`).
    pub const fn name(self) -> &'static str {
        match self {
            Target::Gfx8 => "gfx8",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1100 => "gfx1100",
        }
    }

    /// The `-mcpu` value for LLVM (`gfx8` is GCN 1.2 as in Tonga, `gfx802`).
    pub const fn llvm_cpu(self) -> &'static str {
        match self {
            Target::Gfx8 => "tonga",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1100 => "gfx1100",
        }
    }

    /// Column of the target in the per-target tables (mnemonics).
    pub const fn column(self) -> usize {
        self as usize
    }

    /// Whether the machine model has instruction encodings for the target.
    pub const fn has_encodings(self) -> bool {
        true
    }

    /// Whether the target is RDNA (GFX10 or later).
    pub const fn is_rdna(self) -> bool {
        !matches!(self, Target::Gfx8)
    }

    /// Whether the target can run waves of `wave` lanes.
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

    /// Number of SGPRs an instruction can name as `sN` (GCN 1.2: s0-s101, the rest up to
    /// `vcc` are `flat_scratch`/`xnack_mask`; RDNA: s0-s105, then `vcc`).
    pub const fn addressable_sgprs(self) -> u16 {
        match self {
            Target::Gfx8 => 102,
            Target::Gfx1030 | Target::Gfx1100 => 106,
        }
    }

    /// How many distinct SGPRs or literals one vector instruction may read (the constant bus).
    pub const fn constant_bus_limit(self) -> usize {
        match self {
            Target::Gfx8 => 1,
            Target::Gfx1030 | Target::Gfx1100 => 2,
        }
    }

    /// Whether VOP3 (64-bit encoded) vector instructions may carry a literal constant.
    pub const fn vop3_literal(self) -> bool {
        self.is_rdna()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The target name was not one of `gfx8`, `gfx1030`, `gfx1100`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}`: expected gfx8, gfx1030 or gfx1100")]
pub struct UnknownTarget(pub String);

impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(text: &str) -> Result<Target, UnknownTarget> {
        match text {
            "gfx8" | "gfx802" | "tonga" => Ok(Target::Gfx8),
            "gfx1030" => Ok(Target::Gfx1030),
            "gfx1100" => Ok(Target::Gfx1100),
            _ => Err(UnknownTarget(text.to_string())),
        }
    }
}
