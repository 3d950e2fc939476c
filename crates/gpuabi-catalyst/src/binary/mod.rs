//! Reading and writing AMD Catalyst OpenCL 1.2 binaries (`.clo`). Reading gives, for each
//! kernel, the layout the binary records (metadata text, kernel header, CAL notes with
//! PROGINFO, code), in the shape of [`crate::layout::KernelLayout`] so that the two can
//! be compared field by field; [`write()`] makes a binary from layouts and code.
//!
//! The container is described by CLRX's documentation of the AMD Catalyst binary format
//! and read as CLRX's amdbin/AmdBinaries.cpp reads it: an outer ELF32/ELF64 whose symbols
//! point at each kernel's metadata and header (`.rodata`) and CAL image (`.text`).

pub mod cal_image;
pub mod disasm;
pub mod elf_bytes;
pub mod error;
pub mod kernel;
pub mod metadata_text;
pub mod outer;
pub mod write;
pub mod write_cal_image;
pub mod write_cal_notes;
pub mod write_outer;

use serde::Serialize;

use crate::args::ArgKind;
use crate::cal_notes::CalNotes;
use crate::cb0::Cb0Field;
use crate::cb1::Slot;
use crate::driver::{Generation, DEVICES};
use crate::registers::{Dims, RegisterState};
use crate::resource_ids::{Resource, SpecialIds};
use crate::types::ArgType;
use crate::userdata::UserDataEntry;

pub use error::BinaryError;
pub use write::{write, KernelCode, WriteError};

/// Fields of the layout JSON that a binary does not record, as listed in
/// [`BinaryKernel::not_in_binary`].
pub const NOT_IN_BINARY: [&str; 3] = [
    "options (the layout engine's inputs)",
    "args[].size and args_space: derived from the metadata types with AMD's 16-byte 64-bit 3-vectors",
    "args[].used: known only for UAV pointers and write-only images (from the UAV mask); null otherwise",
];

/// One argument read from a binary: the fields of the layout's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BinaryArg {
    /// Argument name.
    pub name: String,
    /// Broad kind.
    pub kind: ArgKind,
    /// Reflection type name.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Offset (from the metadata) and size (derived from the type) in cb1.
    #[serde(flatten)]
    pub slot: Slot,
    /// Bound resource.
    pub resource: Option<Resource>,
    /// Whether the kernel uses it, where the binary says (UAV mask).
    pub used: Option<bool>,
    /// The type as far as the metadata tells it.
    #[serde(skip)]
    pub ty: ArgType,
}

/// One CAL note as found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NoteSummary {
    /// Note type.
    #[serde(rename = "type")]
    pub note_type: u32,
    /// Its name (`PROGINFO`), if known.
    pub name: Option<&'static str>,
    /// File offset of the note header.
    pub offset: u64,
    /// Descriptor bytes.
    pub size: usize,
}

/// The kernel's machine code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Code {
    /// File offset of the CAL image's `.text`.
    pub offset: u64,
    /// Size in bytes.
    pub size: usize,
    /// The bytes in hex, two digits per byte, in file order.
    pub hex: String,
}

/// The layout of one kernel as read from a binary. Field names are those of
/// [`crate::layout::KernelLayout`]'s JSON; fields after `warnings` exist only here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BinaryKernel {
    /// Kernel name.
    pub kernel: String,
    /// Driver version from the `.comment` section (`AMD-APP (1702.3)` is 170203).
    pub driver: Option<u32>,
    /// Device name from the metadata (`;device:`), lower case.
    pub device: String,
    /// GCN generation of the device.
    pub generation: Option<Generation>,
    /// 32 or 64 (the outer ELF class).
    pub bits: u32,
    /// Dimensions PGM_RSRC2 enables (group ids from TGID_*_EN, local ids from
    /// TIDIG_COMP_CNT).
    pub dims: Dims,
    /// Required work-group size from `;cws:` (zeros when absent).
    pub cws: [u32; 3],
    /// Arguments.
    pub args: Vec<BinaryArg>,
    /// End of the last argument in cb1 (derived).
    pub args_space: u32,
    /// Special ids from the metadata.
    #[serde(flatten)]
    pub ids: SpecialIds,
    /// `;memory:uavprivate:`.
    pub uavprivate: Option<u32>,
    /// User data from PROGINFO.
    pub userdata: Vec<UserDataEntry>,
    /// USER_SGPR from PGM_RSRC2.
    pub user_sgprs: u32,
    /// Register state from PGM_RSRC2 and the PROGINFO register counts.
    #[serde(flatten)]
    pub regs: RegisterState,
    /// Kernel header dwords.
    pub header: [u32; 8],
    /// CAL notes.
    #[serde(flatten)]
    pub notes: CalNotes,
    /// Metadata text (up to `;ARGEND:`).
    pub metadata: String,
    /// cb0 map of the binary's bitness (fixed by the ABI, not stored in the binary).
    pub cb0: Vec<Cb0Field>,
    /// Things found odd while reading (unknown metadata lines, device mismatches).
    pub warnings: Vec<String>,
    /// Always `null`: a binary does not record the layout engine's options.
    pub options: Option<()>,
    /// Layout fields a binary does not record, or records only in part.
    pub not_in_binary: Vec<&'static str>,
    /// `;memory:hwlocal:`.
    pub hwlocal: Option<u32>,
    /// `;memory:hwregion:`.
    pub hwregion: Option<u32>,
    /// `;memory:datareqd` present.
    pub datareqd: bool,
    /// `;memory:64bitABI` present.
    pub abi64: bool,
    /// Constant samplers from the metadata (`;sampler:unknown_V:ID:1:V`).
    pub const_samplers: Vec<metadata_text::ConstSampler>,
    /// Float mode (PROGINFO 0x80001043).
    pub float_mode: Option<u32>,
    /// IEEE mode (PROGINFO 0x80001044).
    pub ieee_mode: Option<u32>,
    /// CONDOUT note value.
    pub condout: Option<u32>,
    /// EARLYEXIT note value.
    pub earlyexit: Option<u32>,
    /// Every CAL note, in file order.
    pub cal_notes: Vec<NoteSummary>,
    /// The kernel's code.
    pub code: Code,
    /// Bytes of the CAL image's `.data`.
    pub data_size: u64,
    /// The code as LLVM-syntax assembly for the device's generation; `null` when the
    /// generation is unknown or the code holds an instruction the machine model does not
    /// decode (a warning then says where).
    pub disassembly: Option<String>,
}

/// A whole binary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CatalystBinary {
    /// 32 or 64.
    pub bits: u32,
    /// Outer `e_machine` (device code).
    pub machine: u16,
    /// Text of the `.comment` section.
    pub comment: Option<String>,
    /// Driver version parsed from it.
    pub driver: Option<u32>,
    /// Kernels in file order.
    pub kernels: Vec<BinaryKernel>,
    /// The program's global constant data (`__OpenCL_0_global` or `__OpenCL_2_global`),
    /// which the runtime binds for the kernels whose metadata says `;memory:datareqd`.
    pub global_data: Option<GlobalData>,
}

/// The global constant data of a program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlobalData {
    /// Its symbol.
    pub symbol: String,
    /// File offset.
    pub offset: u64,
    /// Bytes.
    pub size: u64,
    /// The bytes, in hex.
    pub hex: String,
}

impl GlobalData {
    /// The bytes.
    pub fn bytes(&self) -> Vec<u8> {
        (0..self.hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(&self.hex[2 * i..2 * i + 2], 16).ok())
            .collect()
    }
}

/// The driver version in a `.comment` text (`… AMD-APP (1702.3) …` is 170203).
pub fn driver_from_comment(comment: &str) -> Option<u32> {
    let rest = &comment[comment.find("AMD-APP (")? + "AMD-APP (".len()..];
    let version = &rest[..rest.find(')')?];
    let (major, minor) = version.split_once('.').unwrap_or((version, "0"));
    let major: u32 = major.trim().parse().ok()?;
    let minor: u32 = minor.trim().parse().ok()?;
    major.checked_mul(100)?.checked_add(minor)
}

/// Reads every kernel of a Catalyst binary.
pub fn read(data: &[u8]) -> Result<CatalystBinary, BinaryError> {
    let outer = outer::read(data)?;
    let driver = outer.comment.as_deref().and_then(driver_from_comment);
    let bits = if outer.is_64bit { 64 } else { 32 };
    let device = DEVICES
        .iter()
        .find(|d| d.elf_machine == u32::from(outer.machine))
        .copied();
    let kernels = outer
        .kernels
        .iter()
        .map(|k| kernel::read(data, k, driver, bits, device))
        .collect::<Result<_, _>>()?;
    // The symbol lies in its section, which lies in the file (checked by `outer::read`).
    let global_data = outer.global_data.map(|(symbol, (offset, size))| {
        let bytes = data
            .get(offset as usize..(offset + size) as usize)
            .unwrap_or_default();
        GlobalData {
            symbol,
            offset,
            size,
            hex: bytes.iter().map(|b| format!("{b:02x}")).collect(),
        }
    });
    Ok(CatalystBinary {
        bits,
        machine: outer.machine,
        comment: outer.comment,
        driver,
        kernels,
        global_data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_versions_in_comments() {
        // The .comment text of samplekernels.clo.
        let c = "@(#) OpenCL 1.2 AMD-APP (1702.3).  Driver version: 1702.3 (VM)";
        assert_eq!(driver_from_comment(c), Some(170203));
        assert_eq!(driver_from_comment("AMD-APP (1348)"), Some(134800));
        assert_eq!(driver_from_comment("AMD-APP (x.1)"), None);
        assert_eq!(driver_from_comment("AMD-APP (99999999.1)"), None);
        assert_eq!(driver_from_comment("no version"), None);
    }
}
