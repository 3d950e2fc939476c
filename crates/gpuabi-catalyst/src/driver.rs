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

    /// AMD's drivers mark a 64-bit binary (8 in header dword 4, `;memory:64bitABI`) but
    /// 1124.x: 1016.4, 1348.5, 1573.4, 1642.5 and 1702.3 write both, 1124.2 neither
    /// (CLRX's prginfo1_13_4_64 and prginfo1_12_10_64 binaries). Used by the `amd` notes
    /// policy only; CLRX always marks.
    pub fn amd_marks_64bit(self) -> bool {
        self.0 / 100 != 1124
    }

    /// AMD's drivers before 1124.02 number the UAV ids of a kernel with more than eight
    /// global pointers by the pointers' names sorted as text, from 10 (observed with
    /// 1016.4; used by the `amd` notes policy only).
    pub fn amd_sorts_many_uavs(self) -> bool {
        self.0 < 112402
    }

    /// AMD's drivers before 1124.02 list the UAVs of the UAV note (pointers, the printf
    /// buffer) in the iteration order of their compiler's `DenseMap` of UAV ids
    /// ([`crate::compiler_order::dense_map_order`]) and write the first as `;uavid:`, then
    /// `[privateid, 4, 0, 5]` when the kernel has an argument (observed with 1016.4; `amd`
    /// notes policy only).
    pub fn amd_hashes_uav_note(self) -> bool {
        self.0 < 112402
    }

    /// AMD's drivers before 1124.02 leave cb1 out of the constant-buffer note of a kernel
    /// without arguments (1016.4's kernelPrintf5 of CLRX's prginfo8_12_10; `amd` notes
    /// policy only).
    pub fn amd_omits_unused_cb1(self) -> bool {
        self.0 < 112402
    }

    /// AMD's drivers before 1348.05 read an image without a sampler
    /// (`read_imageui(image, coord)`) through a constant sampler of their own, value 16
    /// (`CLK_FILTER_NEAREST`; 1016.4 writes `;sampler:unknown_16:…` into the metadata of
    /// CLRX's prginfo8_12_10, 1348.5 none). The layout assumes it for a kernel that uses a
    /// read-only image and has no sampler, as every read of such an image is sampler-less.
    pub fn amd_implicit_sampler(self) -> bool {
        self.0 < 134805
    }

    /// AMD's drivers from 1124.02 number the constant samplers in the iteration order of
    /// the compiler's `StringMap` of their names `unknown_<value>`
    /// ([`crate::compiler_order::string_map_order`]); 1016.4 numbers them in the order
    /// the kernel first uses them (prginfo8's imageTransform5MS: `unknown_38` is 2 at
    /// 1016.4, 3 at 1348.5, 1573.4 and 1642.5; `amd` notes policy only).
    pub fn amd_hashes_const_sampler_ids(self) -> bool {
        self.0 >= 112402
    }

    /// From 1526.03 to before 1598.05, AMD's drivers reserve twice CLRX's old `uavprivate`
    /// for a kernel that uses printf and has no structure (1573.4: 64 bytes per pointer
    /// of prginfo8's kernelPrintf kernels, where 1348.5 writes 0 and 1642.5 the new
    /// formula's 0). The lower bound is the printf-id gate ([`Driver::printfid_always`]),
    /// the first change of printf handling CLRX knows of after 1348.5. `amd` notes policy
    /// only.
    pub fn amd_doubles_printf_uavprivate(self) -> bool {
        self.printfid_always() && !self.new_uavprivate()
    }

    /// Before 1124.02 AMD's INPUT_SAMPLERS note has one entry per sampling instruction of
    /// the code (`[image, sampler]`), which a prototype does not tell.
    pub fn amd_input_samplers_from_code(self) -> bool {
        self.0 < 112402
    }

    /// Driver 1348.x numbers the UAVs of a kernel with more than eight global pointers in
    /// an order that is neither declaration nor name order and differs between the 32-
    /// and 64-bit binaries of one source (prginfo7's transformer25gp: inout1 is UAV 65
    /// in one, 63 in the other), as if ordered by the compiler's memory addresses; 1124.2
    /// and 1573.4 use declaration order.
    pub fn amd_orders_many_uavs_by_address(self) -> bool {
        self.0 / 100 == 1348
    }

    /// From 1526.03 AMD's private-memory size of a kernel that uses printf and has a
    /// structure argument follows no rule the binaries show: prginfo8's kernelPrintf4
    /// (three pointers, a 256-byte structure, an int) has `uavprivate` 640 at 1573.4,
    /// where 160 (CLRX's old formula) or its double would be expected, and at 1642.5 a
    /// header dword 0/2 of 640 beside `uavprivate` 256.
    pub fn amd_printf_struct_private_unknown(self) -> bool {
        self.printfid_always()
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
    /// A GFX9 or later device (CLRX's message), with the devices of the format.
    #[error("Unsupported GPU device type by OpenCL 1.2 binary format: {0} (its devices: {1})")]
    Unsupported(String, String),
    /// Not a device name at all: the name, the nearest devices and all of them.
    #[error("unknown device {0}")]
    Unknown(String),
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
            let all: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
            return Err(DeviceError::Unsupported(name.to_string(), all.join(", ")));
        }
        let all: Vec<String> = DEVICES.iter().map(|d| d.metadata_name()).collect();
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        Err(DeviceError::Unknown(gpuabi_layout::suggest::suggest(
            &lower, "devices", &all,
        )))
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
        assert!(Driver(101604).amd_marks_64bit() && Driver(112399).amd_marks_64bit());
        assert!(!Driver(112400).amd_marks_64bit() && !Driver(112499).amd_marks_64bit());
        assert!(Driver(112500).amd_marks_64bit() && Driver(134805).amd_marks_64bit());
        assert!(Driver(112401).amd_sorts_many_uavs() && !Driver(112402).amd_sorts_many_uavs());
        assert!(Driver(112401).amd_hashes_uav_note() && !Driver(112402).amd_hashes_uav_note());
        assert!(Driver(112401).amd_omits_unused_cb1() && !Driver(112402).amd_omits_unused_cb1());
        assert!(Driver(134804).amd_implicit_sampler() && !Driver(134805).amd_implicit_sampler());
        assert!(!Driver(112401).amd_hashes_const_sampler_ids());
        assert!(Driver(112402).amd_hashes_const_sampler_ids());
        assert!(!Driver(152602).amd_doubles_printf_uavprivate());
        assert!(Driver(152603).amd_doubles_printf_uavprivate());
        assert!(Driver(159804).amd_doubles_printf_uavprivate());
        assert!(!Driver(159805).amd_doubles_printf_uavprivate());
        assert!(Driver(112401).amd_input_samplers_from_code());
        assert!(!Driver(112402).amd_input_samplers_from_code());
        assert!(!Driver(134799).amd_orders_many_uavs_by_address());
        assert!(Driver(134805).amd_orders_many_uavs_by_address());
        assert!(!Driver(134900).amd_orders_many_uavs_by_address());
        assert!(!Driver(152602).amd_printf_struct_private_unknown());
        assert!(Driver(152603).amd_printf_struct_private_unknown());
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
            Err(DeviceError::Unsupported(..))
        ));
        assert!(matches!(
            Device::from_name("foo"),
            Err(DeviceError::Unknown(..))
        ));
    }
}
