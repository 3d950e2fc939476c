//! GPU generations and wave sizes: the one target type of gpuabi, shared by the layout
//! engines and the AMD machine model.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// An AMD GPU generation gpuabi models; LLVM's processors of each are in [`PROCESSORS`].
///
/// The layout engines know `gfx8`, `gfx9`, `gfx1030`, `gfx1100` and `gfx12` ([`Gfx::ALL`]);
/// the machine model (`gpuabi-amdgpu`) has instruction encodings for `gfx6`, `gfx7`, `gfx8`,
/// `gfx1030`, `gfx1100` and `gfx12` and rejects `gfx9` programs with an error saying so. `gfx6` and
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
    /// RDNA 4 (Navi 44 and 48: gfx1200, gfx1201), wave32 and wave64, with RDNA 3's larger
    /// VGPR file; the machine model's `gfx12` is LLVM's `gfx1201`.
    Gfx12,
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
    pub const ALL: [Gfx; 5] = [Gfx::Gfx8, Gfx::Gfx9, Gfx::Gfx1030, Gfx::Gfx1100, Gfx::Gfx12];

    /// The gpuabi name (`gfx8`, `gfx9`, `gfx1030`, `gfx1100`, `gfx12`).
    pub const fn name(self) -> &'static str {
        match self {
            Gfx::Gfx6 => "gfx6",
            Gfx::Gfx7 => "gfx7",
            Gfx::Gfx8 => "gfx8",
            Gfx::Gfx9 => "gfx9",
            Gfx::Gfx1030 => "gfx1030",
            Gfx::Gfx1100 => "gfx1100",
            Gfx::Gfx12 => "gfx12",
        }
    }

    /// The `-mcpu` value for LLVM (`gfx8` is GCN 1.2 as in Tonga, `gfx802`; `gfx9` is
    /// Vega 10, `gfx900`; `gfx12` is Navi 48, `gfx1201`).
    pub const fn llvm_cpu(self) -> &'static str {
        match self {
            Gfx::Gfx6 => "pitcairn",
            Gfx::Gfx7 => "bonaire",
            Gfx::Gfx8 => "tonga",
            Gfx::Gfx9 => "gfx900",
            Gfx::Gfx1030 => "gfx1030",
            Gfx::Gfx1100 => "gfx1100",
            Gfx::Gfx12 => "gfx1201",
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
        matches!(self, Gfx::Gfx1030 | Gfx::Gfx1100 | Gfx::Gfx12)
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
            Gfx::Gfx1030 | Gfx::Gfx1100 | Gfx::Gfx12 => 106,
        }
    }

    /// How many distinct SGPRs or literals one vector instruction may read (the constant bus).
    pub const fn constant_bus_limit(self) -> usize {
        match self {
            Gfx::Gfx6 | Gfx::Gfx7 | Gfx::Gfx8 | Gfx::Gfx9 => 1,
            Gfx::Gfx1030 | Gfx::Gfx1100 | Gfx::Gfx12 => 2,
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

/// A processor as LLVM names it (`-mcpu`, the processor of a target id, `EF_AMDGPU_MACH`
/// of an ELF object) and the generation gpuabi runs it as.
///
/// The processors of one generation share its instruction set and encodings; what tells
/// them apart (XNACK, FMA speed, the number of compute units, RDNA 3's larger VGPR file on
/// gfx1100 and gfx1101 but not gfx1102 and gfx1103) does not change what an instruction
/// computes, so the machine model runs all of them as their generation. From LLVM 19's
/// AMDGPUUsage ("AMDGPU Processors") and `llvm/BinaryFormat/ELF.h` (`EF_AMDGPU_MACH_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Processor {
    /// LLVM's name (`gfx803`).
    pub name: &'static str,
    /// LLVM's other `-mcpu` names of the same processor (`fiji`, `polaris10`, `polaris11`).
    pub aliases: &'static [&'static str],
    /// `EF_AMDGPU_MACH` in the `e_flags` of its ELF objects.
    pub mach: u32,
    /// The generation that models it.
    pub gfx: Gfx,
}

const fn processor(
    name: &'static str,
    aliases: &'static [&'static str],
    mach: u32,
    gfx: Gfx,
) -> Processor {
    Processor {
        name,
        aliases,
        mach,
        gfx,
    }
}

/// Every processor `llc-19 -march=amdgcn -mcpu=help` lists whose generation gpuabi models,
/// oldest first. Not among them: Vega's compute parts (gfx908, gfx90a, gfx94x, with
/// accumulation registers), RDNA 1 (gfx101x) and RDNA 3.5 (gfx115x).
pub const PROCESSORS: [Processor; 37] = [
    processor("gfx600", &["tahiti"], 0x020, Gfx::Gfx6),
    processor("gfx601", &["pitcairn", "verde"], 0x021, Gfx::Gfx6),
    processor("gfx602", &["hainan", "oland"], 0x03a, Gfx::Gfx6),
    processor("gfx700", &["kaveri"], 0x022, Gfx::Gfx7),
    processor("gfx701", &["hawaii"], 0x023, Gfx::Gfx7),
    processor("gfx702", &[], 0x024, Gfx::Gfx7),
    processor("gfx703", &["kabini", "mullins"], 0x025, Gfx::Gfx7),
    processor("gfx704", &["bonaire"], 0x026, Gfx::Gfx7),
    processor("gfx705", &[], 0x03b, Gfx::Gfx7),
    processor("gfx801", &["carrizo"], 0x028, Gfx::Gfx8),
    processor("gfx802", &["iceland", "tonga"], 0x029, Gfx::Gfx8),
    processor(
        "gfx803",
        &["fiji", "polaris10", "polaris11"],
        0x02a,
        Gfx::Gfx8,
    ),
    processor("gfx805", &["tongapro"], 0x03c, Gfx::Gfx8),
    processor("gfx810", &["stoney"], 0x02b, Gfx::Gfx8),
    processor("gfx900", &[], 0x02c, Gfx::Gfx9),
    processor("gfx902", &[], 0x02d, Gfx::Gfx9),
    processor("gfx904", &[], 0x02e, Gfx::Gfx9),
    processor("gfx906", &[], 0x02f, Gfx::Gfx9),
    processor("gfx909", &[], 0x031, Gfx::Gfx9),
    processor("gfx90c", &[], 0x032, Gfx::Gfx9),
    // The generic processors (code object v6) run on every processor of their family,
    // so their code is the family's.
    processor("gfx9-generic", &[], 0x051, Gfx::Gfx9),
    processor("gfx1030", &[], 0x036, Gfx::Gfx1030),
    processor("gfx1031", &[], 0x037, Gfx::Gfx1030),
    processor("gfx1032", &[], 0x038, Gfx::Gfx1030),
    processor("gfx1033", &[], 0x039, Gfx::Gfx1030),
    processor("gfx1034", &[], 0x03e, Gfx::Gfx1030),
    processor("gfx1035", &[], 0x03d, Gfx::Gfx1030),
    processor("gfx1036", &[], 0x045, Gfx::Gfx1030),
    processor("gfx10-3-generic", &[], 0x053, Gfx::Gfx1030),
    processor("gfx1100", &[], 0x041, Gfx::Gfx1100),
    processor("gfx1101", &[], 0x046, Gfx::Gfx1100),
    processor("gfx1102", &[], 0x047, Gfx::Gfx1100),
    processor("gfx1103", &[], 0x044, Gfx::Gfx1100),
    processor("gfx11-generic", &[], 0x054, Gfx::Gfx1100),
    processor("gfx1200", &[], 0x048, Gfx::Gfx12),
    processor("gfx1201", &[], 0x04e, Gfx::Gfx12),
    processor("gfx12-generic", &[], 0x059, Gfx::Gfx12),
];

impl Processor {
    /// The processor LLVM calls `name` (its name or an alias), if its generation is
    /// modelled.
    pub fn named(name: &str) -> Option<Processor> {
        PROCESSORS
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
            .copied()
    }

    /// The processor of an `EF_AMDGPU_MACH` value, if its generation is modelled.
    pub fn of_mach(mach: u32) -> Option<Processor> {
        PROCESSORS.iter().find(|p| p.mach == mach).copied()
    }
}

impl fmt::Display for Processor {
    /// `gfx803`, or `gfx803 (gfx8)` when the name is not the generation's own.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name == self.gfx.name() {
            f.write_str(self.name)
        } else {
            write!(f, "{} ({})", self.name, self.gfx)
        }
    }
}

impl Gfx {
    /// LLVM's processors that this generation models, oldest first.
    pub fn processors(self) -> impl Iterator<Item = &'static Processor> {
        PROCESSORS.iter().filter(move |p| p.gfx == self)
    }
}

/// The generations `gens` with the LLVM processors each models, for messages: `gfx8
/// (gfx801-gfx810: carrizo, iceland, tonga, fiji, polaris10, polaris11, tongapro, stoney)`.
pub fn modelled_text(gens: &[Gfx]) -> String {
    let parts: Vec<String> = gens
        .iter()
        .map(|g| {
            // Named processors (gfxNNN) give the range, the generic ones are listed.
            let numbered: Vec<&str> = g
                .processors()
                .map(|p| p.name)
                .filter(|n| !n.contains("generic"))
                .collect();
            let mut names: Vec<String> = Vec::new();
            match numbered.as_slice() {
                [] => {}
                [one] => names.push((*one).to_string()),
                [first, .., last] => names.push(format!("{first}-{last}")),
            }
            names.extend(
                g.processors()
                    .filter(|p| p.name.contains("generic"))
                    .map(|p| p.name.to_string()),
            );
            let aliases: Vec<&str> = g
                .processors()
                .flat_map(|p| p.aliases.iter().copied())
                .collect();
            if aliases.is_empty() {
                format!("{g} ({})", names.join(", "))
            } else {
                format!("{g} ({}: {})", names.join(", "), aliases.join(", "))
            }
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The target name was not one gpuabi models.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown target `{0}`: expected {list}",
    list = modelled_text(&[Gfx::Gfx6, Gfx::Gfx7, Gfx::Gfx8, Gfx::Gfx9, Gfx::Gfx1030, Gfx::Gfx1100, Gfx::Gfx12])
)]
pub struct UnknownGfx(pub String);

impl FromStr for Gfx {
    type Err = UnknownGfx;

    /// The gpuabi names (`gfx8`), and every LLVM name of a processor of a modelled
    /// generation ([`PROCESSORS`]: `gfx803`, `fiji`, `gfx1102`).
    fn from_str(text: &str) -> Result<Gfx, UnknownGfx> {
        match text {
            "gfx6" => Ok(Gfx::Gfx6),
            "gfx7" => Ok(Gfx::Gfx7),
            "gfx8" => Ok(Gfx::Gfx8),
            "gfx9" => Ok(Gfx::Gfx9),
            "gfx12" => Ok(Gfx::Gfx12),
            _ => Processor::named(text)
                .map(|p| p.gfx)
                .ok_or_else(|| UnknownGfx(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processors_map_to_their_generation() {
        assert_eq!("gfx803".parse::<Gfx>(), Ok(Gfx::Gfx8));
        assert_eq!("polaris11".parse::<Gfx>(), Ok(Gfx::Gfx8));
        assert_eq!("gfx1036".parse::<Gfx>(), Ok(Gfx::Gfx1030));
        assert_eq!("gfx1103".parse::<Gfx>(), Ok(Gfx::Gfx1100));
        assert_eq!("gfx1100".parse::<Gfx>(), Ok(Gfx::Gfx1100));
        assert_eq!("gfx8".parse::<Gfx>(), Ok(Gfx::Gfx8));
        // EF_AMDGPU_MACH_AMDGCN_GFX803 = 0x02a (llvm/BinaryFormat/ELF.h).
        assert_eq!(Processor::of_mach(0x02a).map(|p| p.name), Some("gfx803"));
        assert_eq!(Processor::of_mach(0x033), None, "gfx1010 is RDNA 1");
        let e = "navi21".parse::<Gfx>().unwrap_err().to_string();
        assert!(e.starts_with("unknown target `navi21`: expected gfx6 (gfx600-gfx602: tahiti, pitcairn, verde, hainan, oland), "), "{e}");
        assert!(
            e.contains("gfx1100 (gfx1100-gfx1103, gfx11-generic)"),
            "{e}"
        );
        let names: std::collections::HashSet<&str> = PROCESSORS
            .iter()
            .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
            .collect();
        assert_eq!(names.len(), 37 + 18, "no name twice");
        // EF_AMDGPU_MACH_AMDGCN_GFX1201 = 0x04e (llvm/BinaryFormat/ELF.h).
        assert_eq!(Processor::of_mach(0x04e).map(|p| p.gfx), Some(Gfx::Gfx12));
        assert_eq!("gfx1200".parse::<Gfx>(), Ok(Gfx::Gfx12));
        assert_eq!("gfx12".parse::<Gfx>(), Ok(Gfx::Gfx12));
    }
}
