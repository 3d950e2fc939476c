//! Call ABIs as data: a repeated block of preserved and clobbered registers and a limit on
//! how many registers parameters may take.

use serde::{Deserialize, Serialize};

use super::demand::Demand;
use super::error::{line_column, AcoError};
use crate::reg::RegFile;

/// One block of the register pattern: `[P preserved][C clobbered]`, or `[C][P]` when
/// `clobbered_first`, repeated up to the register limit (Mesa's `ABI::RegisterBlock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterBlock {
    /// Registers per block the callee may overwrite.
    pub clobbered: Demand,
    /// Registers per block the callee must hand back unchanged.
    pub preserved: Demand,
    /// Whether the clobbered part comes first in each block.
    #[serde(default)]
    pub clobbered_first: bool,
}

/// Both register files whole (128 SGPRs, 256 VGPRs): as a clobbered count it covers every
/// register, whatever the limit.
const WHOLE_FILES: Demand = Demand::new(RegFile::Sgpr.capacity(), RegFile::Vgpr.capacity());

impl RegisterBlock {
    /// The block Mesa uses to say "everything clobbered": `C = {128, 256}`, `P = {0, 0}`,
    /// clobbered first. An ABI written without a block means this (spec §2).
    pub const ALL_CLOBBERED: RegisterBlock = RegisterBlock {
        clobbered: WHOLE_FILES,
        preserved: Demand::new(0, 0),
        clobbered_first: true,
    };
}

/// A call ABI: its register block and the parameter demand limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Abi {
    /// The ABI's name (`rt-recursive`, or the `name` of a user file).
    pub name: String,
    /// The preserved/clobbered pattern.
    pub block: RegisterBlock,
    /// At most this many dwords of parameters go in registers; `None` means no limit
    /// (Mesa spells it `{0, 0}`).
    pub max_param_demand: Option<Demand>,
}

/// The NIR-side encoding of an ABI in a function's driver attributes (`aco_nir_call_attribs.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NirAbi {
    /// Raygen, callable, closest-hit and miss functions.
    RtRecursive = 0,
    /// The traversal function.
    Traversal = 1,
    /// Any-hit and intersection functions.
    AhitIsec = 2,
}

/// Mask of the ABI value in a function's driver attributes.
pub const ABI_MASK: u32 = 0x7f;
/// Driver-attribute flag: lanes may enter wanting different callees.
pub const DIVERGENT_CALL: u32 = 0x80;
/// Driver-attribute flag: the function never returns.
pub const NORETURN: u32 = 0x100;
/// Parameter flag: the callee need not preserve this parameter.
pub const PARAM_DISCARDABLE: u32 = 0x1;

/// Parameter demand limit of all three Mesa RT ABIs.
const RT_MAX_PARAM_DEMAND: Demand = Demand::new(48, 48);

impl NirAbi {
    /// All built-in ABIs in NIR-value order.
    pub const ALL: [NirAbi; 3] = [NirAbi::RtRecursive, NirAbi::Traversal, NirAbi::AhitIsec];

    /// gpuabi's name for the ABI.
    pub const fn name(self) -> &'static str {
        match self {
            NirAbi::RtRecursive => "rt-recursive",
            NirAbi::Traversal => "traversal",
            NirAbi::AhitIsec => "ahit-isec",
        }
    }

    /// The ABI named by the low 7 bits of a function's driver attributes.
    pub fn from_driver_attributes(attrs: u32) -> Result<NirAbi, AcoError> {
        match attrs & ABI_MASK {
            0 => Ok(NirAbi::RtRecursive),
            1 => Ok(NirAbi::Traversal),
            2 => Ok(NirAbi::AhitIsec),
            other => Err(AcoError::UnknownAbi(format!("driver ABI value {other}"))),
        }
    }

    /// The ACO ABI Mesa maps it to (`rtRaygenABI`, `rtTraversalABI`, `rtAnyHitABI`).
    pub fn abi(self) -> Abi {
        let block = match self {
            NirAbi::RtRecursive | NirAbi::Traversal => RegisterBlock::ALL_CLOBBERED,
            NirAbi::AhitIsec => RegisterBlock {
                clobbered: WHOLE_FILES,
                preserved: Demand::new(80, 80),
                clobbered_first: false,
            },
        };
        Abi {
            name: self.name().to_string(),
            block,
            max_param_demand: Some(RT_MAX_PARAM_DEMAND),
        }
    }
}

/// The TOML form of a user ABI file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AbiFile {
    name: String,
    block: Option<BlockFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockFile {
    clobbered: Demand,
    preserved: Demand,
    #[serde(default)]
    clobbered_first: bool,
    max_param_demand: Option<Demand>,
}

impl Abi {
    /// A built-in ABI by name: `rt-recursive`, `traversal` or `ahit-isec` (underscores are
    /// accepted in place of dashes, as the IR writes them).
    pub fn builtin(name: &str) -> Option<Abi> {
        let wanted = name.replace('_', "-");
        NirAbi::ALL
            .into_iter()
            .find(|abi| abi.name() == wanted)
            .map(NirAbi::abi)
    }

    /// Reads a user ABI from TOML text: `name`, and an optional `[block]` with `clobbered`,
    /// `preserved`, `clobbered_first` and `max_param_demand` (absent or zero = no limit).
    /// No block means everything clobbered.
    pub fn from_toml(text: &str) -> Result<Abi, AcoError> {
        let file: AbiFile = toml::from_str(text).map_err(|e| {
            let (line, column) = line_column(text, e.span().map_or(0, |s| s.start));
            AcoError::AbiFile {
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        let (block, max_param_demand) = match file.block {
            Some(b) => (
                RegisterBlock {
                    clobbered: b.clobbered,
                    preserved: b.preserved,
                    clobbered_first: b.clobbered_first,
                },
                b.max_param_demand.filter(|d| !d.is_zero()),
            ),
            None => (RegisterBlock::ALL_CLOBBERED, None),
        };
        Ok(Abi {
            name: file.name,
            block,
            max_param_demand,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_follow_spec_table() {
        let rt = Abi::builtin("rt-recursive").unwrap();
        assert_eq!(rt.block.clobbered, Demand::new(128, 256));
        assert_eq!(rt.block.preserved, Demand::new(0, 0));
        assert!(rt.block.clobbered_first);
        let ahit = Abi::builtin("ahit_isec").unwrap();
        assert_eq!(ahit.block.preserved, Demand::new(80, 80));
        assert!(!ahit.block.clobbered_first);
        assert_eq!(ahit.max_param_demand, Some(Demand::new(48, 48)));
        assert!(Abi::builtin("callable").is_none());
    }

    #[test]
    fn driver_attributes() {
        assert_eq!(
            NirAbi::from_driver_attributes(1 | NORETURN | DIVERGENT_CALL).unwrap(),
            NirAbi::Traversal
        );
        assert!(matches!(
            NirAbi::from_driver_attributes(3),
            Err(AcoError::UnknownAbi(_))
        ));
    }

    #[test]
    fn toml_files() {
        let abi = Abi::from_toml(
            "name = \"generic\"\n[block]\nclobbered = { sgpr = 16, vgpr = 16 }\n\
             preserved = { sgpr = 16, vgpr = 16 }\nclobbered_first = false\n",
        )
        .unwrap();
        assert_eq!(abi.block.preserved, Demand::new(16, 16));
        assert_eq!(abi.max_param_demand, None);
        let none = Abi::from_toml("name = \"x\"").unwrap();
        assert_eq!(none.block, RegisterBlock::ALL_CLOBBERED);
        let err = Abi::from_toml("name = \"x\"\n[block]\nclobbered = { sgpr = 1 }\n").unwrap_err();
        assert!(err.to_string().contains("vgpr"), "{err}");
    }
}
