//! Driver-version gates and the GCN 1.0-1.2 device table.
//!
//! Versions are `major*100 + minor` ("1348.5" is 134805). Every version-dependent rule of
//! the ABI asks one of the gates below; the thresholds are written only here.

use serde::Serialize;

/// The project's default driver version (1702.3).
pub const DEFAULT_DRIVER: u32 = 170203;

/// A Catalyst driver version, `major*100 + minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Driver(pub u32);

impl Driver {
    /// Before 1124.02: metadata version 3:1:104, old CAL-note style, PROGINFO padded to 16
    /// user-data entries.
    pub fn old_notes(self) -> bool {
        self.0 < 112402
    }

    /// From 1348.05: `constant` pointers are UAVs, cbid/printfid exist, uavid is 11.
    pub fn constant_as_uav(self) -> bool {
        self.0 >= 134805
    }

    /// Up to 1445.05 (and from 1348.05) the default uavid exists only if the kernel has a
    /// global or constant pointer or uses printf.
    pub fn uavid_conditional(self) -> bool {
        self.constant_as_uav() && self.0 <= 144505
    }

    /// From 1526.03 the printf id exists even without printf.
    pub fn printfid_always(self) -> bool {
        self.0 >= 152603
    }

    /// From 1598.05 the new `uavprivate` formula (structures only).
    pub fn new_uavprivate(self) -> bool {
        self.0 >= 159805
    }

    /// From 1642.05 header dword 0 holds uavprivate.
    pub fn header_dword0_uavprivate(self) -> bool {
        self.0 >= 164205
    }

    /// AMD's drivers mark a 64-bit binary (8 in header dword 4, `;memory:64bitABI`) only
    /// after 1124.02: 1124.2 writes neither, 1702.3 both. Decision: drivers up to 1124.02
    /// do not mark (the newest unmarked one observed); used by the `amd` notes policy only,
    /// CLRX always marks.
    pub fn amd_marks_64bit(self) -> bool {
        self.0 > 112402
    }

    /// AMD's drivers before 1124.02 number the UAV ids of a kernel with more than eight
    /// global pointers by the pointers' names sorted as text, and its uavid is 10
    /// (observed with 1016.4; used by the `amd` notes policy only).
    pub fn amd_sorts_many_uavs(self) -> bool {
        self.0 < 112402
    }

    /// The driver version as CLRX prints it (`1702.3`).
    pub fn dotted(self) -> String {
        format!("{}.{}", self.0 / 100, self.0 % 100)
    }
}

/// GCN generation of a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Generation {
    /// GCN 1.0 (Southern Islands).
    #[serde(rename = "GCN1.0")]
    Gcn10,
    /// GCN 1.1 (Sea Islands).
    #[serde(rename = "GCN1.1")]
    Gcn11,
    /// GCN 1.2 (Volcanic Islands).
    #[serde(rename = "GCN1.2")]
    Gcn12,
}

impl Generation {
    /// Maximum SGPRs a kernel may use, excluding VCC (PROGINFO 0x80001863).
    pub fn max_sgprs(self) -> u32 {
        match self {
            Generation::Gcn10 | Generation::Gcn11 => 102,
            Generation::Gcn12 => 100,
        }
    }

    /// Granule of PGM_RSRC2.LDS_SIZE in bytes.
    pub fn lds_granule(self) -> u32 {
        match self {
            Generation::Gcn10 => 256,
            Generation::Gcn11 | Generation::Gcn12 => 512,
        }
    }

    /// Whether scalar loads take byte (GCN 1.2) rather than dword immediate offsets.
    pub fn smrd_byte_offsets(self) -> bool {
        self == Generation::Gcn12
    }

    /// Special registers the allocator keeps at the top of the SGPRs.
    pub fn reserved_top_sgprs(self) -> &'static [&'static str] {
        match self {
            Generation::Gcn10 => &["vcc"],
            Generation::Gcn11 => &["vcc", "flat_scratch"],
            Generation::Gcn12 => &["vcc", "flat_scratch", "xnack_mask"],
        }
    }

    /// CLRX's architecture name (`GCN1.0`).
    pub fn name(self) -> &'static str {
        match self {
            Generation::Gcn10 => "GCN1.0",
            Generation::Gcn11 => "GCN1.1",
            Generation::Gcn12 => "GCN1.2",
        }
    }
}

/// A device the OpenCL 1.2 binary format supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Device {
    /// Name as CLRX spells it in `.gpu` (`Pitcairn`).
    pub name: &'static str,
    /// Its generation.
    pub generation: Generation,
    /// ELF machine code of the device (`e_machine` of the outer ELF).
    pub elf_machine: u32,
    /// CAL machine code of the device: the first field of the encoding-table entry of
    /// each kernel's CAL image (`gpuDeviceInnerCodeTable` in CLRX's amdbin/AmdBinGen.cpp;
    /// 0x1B for Pitcairn in AMD's own binaries).
    pub cal_machine: u32,
}

use Generation::{Gcn10, Gcn11, Gcn12};

/// The device table.
pub const DEVICES: [Device; 19] = [
    Device {
        name: "CapeVerde",
        generation: Gcn10,
        elf_machine: 0x3FF,
        cal_machine: 0x1C,
    },
    Device {
        name: "Pitcairn",
        generation: Gcn10,
        elf_machine: 0x3FE,
        cal_machine: 0x1B,
    },
    Device {
        name: "Tahiti",
        generation: Gcn10,
        elf_machine: 0x3FD,
        cal_machine: 0x1A,
    },
    Device {
        name: "Oland",
        generation: Gcn10,
        elf_machine: 0x402,
        cal_machine: 0x20,
    },
    Device {
        name: "Hainan",
        generation: Gcn10,
        elf_machine: 0x407,
        cal_machine: 0x25,
    },
    Device {
        name: "Bonaire",
        generation: Gcn11,
        elf_machine: 0x403,
        cal_machine: 0x21,
    },
    Device {
        name: "Spectre",
        generation: Gcn11,
        elf_machine: 0x404,
        cal_machine: 0x22,
    },
    Device {
        name: "Spooky",
        generation: Gcn11,
        elf_machine: 0x405,
        cal_machine: 0x23,
    },
    Device {
        name: "Kalindi",
        generation: Gcn11,
        elf_machine: 0x406,
        cal_machine: 0x24,
    },
    Device {
        name: "Hawaii",
        generation: Gcn11,
        elf_machine: 0x408,
        cal_machine: 0x27,
    },
    Device {
        name: "Mullins",
        generation: Gcn11,
        elf_machine: 0x40B,
        cal_machine: 0x2B,
    },
    Device {
        name: "Iceland",
        generation: Gcn12,
        elf_machine: 0x409,
        cal_machine: 0x29,
    },
    Device {
        name: "Tonga",
        generation: Gcn12,
        elf_machine: 0x40A,
        cal_machine: 0x2A,
    },
    Device {
        name: "Fiji",
        generation: Gcn12,
        elf_machine: 0x40C,
        cal_machine: 0x2D,
    },
    Device {
        name: "Carrizo",
        generation: Gcn12,
        elf_machine: 0x40D,
        cal_machine: 0x2E,
    },
    Device {
        name: "Stoney",
        generation: Gcn12,
        elf_machine: 0x411,
        cal_machine: 0x31,
    },
    Device {
        name: "Ellesmere",
        generation: Gcn12,
        elf_machine: 0x40E,
        cal_machine: 0x2F,
    },
    Device {
        name: "Baffin",
        generation: Gcn12,
        elf_machine: 0x40F,
        cal_machine: 0x2C,
    },
    Device {
        name: "GFX804",
        generation: Gcn12,
        elf_machine: 0x412,
        cal_machine: 0x32,
    },
];

/// Names of devices of GFX9 and later, rejected with CLRX's message.
const LATER_DEVICES: [&str; 8] = [
    "gfx900", "gfx901", "gfx902", "gfx903", "gfx904", "gfx905", "vega10", "vega11",
];

/// Why a device name was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// A GFX9 or later device.
    #[error("Unsupported GPU device type by OpenCL 1.2 binary format: {0}")]
    Unsupported(String),
    /// Not a device name at all.
    #[error("unknown device '{0}' (expected one of: {1})")]
    Unknown(String, String),
}

impl Device {
    /// The device named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Result<Device, DeviceError> {
        if let Some(d) = DEVICES.iter().find(|d| d.name.eq_ignore_ascii_case(name)) {
            return Ok(*d);
        }
        let lower = name.to_ascii_lowercase();
        if LATER_DEVICES.contains(&lower.as_str())
            || lower.starts_with("gfx9")
            || lower.starts_with("gfx1")
            || lower.starts_with("vega")
            || lower.starts_with("navi")
            || lower == "raven"
            || lower == "polaris22"
        {
            return Err(DeviceError::Unsupported(name.to_string()));
        }
        let all: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
        Err(DeviceError::Unknown(name.to_string(), all.join(", ")))
    }

    /// The default device, Pitcairn.
    pub fn pitcairn() -> Device {
        DEVICES[1]
    }

    /// Lower-case name, as written in the metadata's `;device:` line.
    pub fn metadata_name(&self) -> String {
        self.name.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_on_both_sides() {
        assert!(Driver(112401).old_notes() && !Driver(112402).old_notes());
        assert!(!Driver(134804).constant_as_uav() && Driver(134805).constant_as_uav());
        assert!(Driver(144505).uavid_conditional() && !Driver(144506).uavid_conditional());
        assert!(!Driver(134804).uavid_conditional());
        assert!(!Driver(152602).printfid_always() && Driver(152603).printfid_always());
        assert!(!Driver(159804).new_uavprivate() && Driver(159805).new_uavprivate());
        assert!(!Driver(164204).header_dword0_uavprivate());
        assert!(Driver(164205).header_dword0_uavprivate());
        assert_eq!(Driver(134805).dotted(), "1348.5");
        assert!(!Driver(112402).amd_marks_64bit() && Driver(112403).amd_marks_64bit());
        assert!(Driver(112401).amd_sorts_many_uavs() && !Driver(112402).amd_sorts_many_uavs());
    }

    #[test]
    fn devices() {
        assert_eq!(Device::from_name("pitcairn").unwrap().elf_machine, 0x3FE);
        assert_eq!(Device::from_name("ELLESMERE").unwrap().generation, Gcn12);
        assert_eq!(
            Device::from_name("hawaii")
                .unwrap()
                .generation
                .lds_granule(),
            512
        );
        assert!(matches!(
            Device::from_name("gfx900"),
            Err(DeviceError::Unsupported(_))
        ));
        assert!(matches!(
            Device::from_name("foo"),
            Err(DeviceError::Unknown(..))
        ));
    }
}
