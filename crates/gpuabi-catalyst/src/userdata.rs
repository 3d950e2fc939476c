//! User data: the entries `(dataClass, apiSlot, regStart, regSize)` loaded into s0..s15
//! before a wave starts. Either given explicitly (CLRX's rules and errors), or derived with
//! the `amd` policy, a model of what AMD's compiler emitted.

use std::fmt;

use serde::Serialize;

use crate::error::LayoutError;

/// Most user-data entries a kernel may have.
pub const MAX_ENTRIES: usize = 16;
/// User-data SGPRs: s0..s15.
pub const MAX_USER_SGPRS: u32 = 16;
/// USER_SGPR when explicit user data has no entries.
pub const EMPTY_USER_SGPRS: u32 = 2;

/// A user-data class code with its name.
///
/// Decision: names print in upper case (`PTR_UAV_TABLE`), as the JSON and CLRX's
/// disassembler write them; input is case-insensitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DataClass(pub u32);

/// The class table: code, name, and the number of registers it normally takes (0 when
/// the class is not used by OpenCL 1.2 kernels or its size varies).
const CLASSES: [(u32, &str, u32); 33] = [
    (0x00, "IMM_RESOURCE", 8),
    (0x01, "IMM_SAMPLER", 4),
    (0x02, "IMM_CONST_BUFFER", 4),
    (0x03, "IMM_VERTEX_BUFFER", 0),
    (0x04, "IMM_UAV", 0), // 4 for buffers, 8 for write-only images
    (0x05, "IMM_ALU_FLOAT_CONST", 0),
    (0x06, "IMM_ALU_BOOL32_CONST", 0),
    (0x07, "IMM_GDS_COUNTER_RANGE", 0),
    (0x08, "IMM_GDS_MEMORY_RANGE", 0),
    (0x09, "IMM_GWS_BASE", 0),
    (0x0a, "IMM_WORK_ITEM_RANGE", 0),
    (0x0b, "IMM_WORK_GROUP_RANGE", 0),
    (0x0c, "IMM_DISPATCH_ID", 0),
    (0x0d, "IMM_SCRATCH_BUFFER", 0),
    (0x0e, "IMM_HEAP_BUFFER", 0),
    (0x0f, "IMM_KERNEL_ARG", 0),
    (0x10, "SUB_PTR_FETCH_SHADER", 0),
    (0x11, "PTR_RESOURCE_TABLE", 2),
    (0x12, "PTR_INTERNAL_RESOURCE_TABLE", 0),
    (0x13, "PTR_SAMPLER_TABLE", 2),
    (0x14, "PTR_CONST_BUFFER_TABLE", 2),
    (0x15, "PTR_VERTEX_BUFFER_TABLE", 0),
    (0x16, "PTR_SO_BUFFER_TABLE", 0),
    (0x17, "PTR_UAV_TABLE", 2),
    (0x18, "PTR_INTERNAL_GLOBAL_TABLE", 2),
    (0x19, "PTR_EXTENDED_USER_DATA", 0),
    (0x1a, "PTR_INDIRECT_RESOURCE", 0),
    (0x1b, "PTR_INDIRECT_INTERNAL_RESOURCE", 0),
    (0x1c, "PTR_INDIRECT_UAV", 0),
    (0x1d, "IMM_CONTEXT_BASE", 0),
    (0x1e, "IMM_LDS_ESGS_SIZE", 0),
    (0x1f, "IMM_GLOBAL_OFFSET", 0),
    (0x20, "IMM_GENERIC_USER_DATA", 0),
];

impl DataClass {
    /// `IMM_RESOURCE`.
    pub const IMM_RESOURCE: DataClass = DataClass(0x00);
    /// `IMM_SAMPLER`.
    pub const IMM_SAMPLER: DataClass = DataClass(0x01);
    /// `IMM_CONST_BUFFER`.
    pub const IMM_CONST_BUFFER: DataClass = DataClass(0x02);
    /// `IMM_UAV`.
    pub const IMM_UAV: DataClass = DataClass(0x04);
    /// `PTR_RESOURCE_TABLE`.
    pub const PTR_RESOURCE_TABLE: DataClass = DataClass(0x11);
    /// `PTR_SAMPLER_TABLE`.
    pub const PTR_SAMPLER_TABLE: DataClass = DataClass(0x13);
    /// `PTR_CONST_BUFFER_TABLE`.
    pub const PTR_CONST_BUFFER_TABLE: DataClass = DataClass(0x14);
    /// `PTR_UAV_TABLE`.
    pub const PTR_UAV_TABLE: DataClass = DataClass(0x17);
    /// `PTR_INTERNAL_GLOBAL_TABLE`.
    pub const PTR_INTERNAL_GLOBAL_TABLE: DataClass = DataClass(0x18);

    /// The class name (`PTR_UAV_TABLE`), or the code in hex for an unknown code.
    pub fn name(self) -> String {
        CLASSES
            .iter()
            .find(|c| c.0 == self.0)
            .map(|c| c.1.to_string())
            .unwrap_or_else(|| format!("{:#x}", self.0))
    }

    /// The class called `name` (case-insensitive), or given as a number.
    pub fn from_name(name: &str) -> Option<DataClass> {
        let name = name.trim();
        if let Some(c) = CLASSES.iter().find(|c| c.1.eq_ignore_ascii_case(name)) {
            return Some(DataClass(c.0));
        }
        let code = parse_number(name)?;
        CLASSES.iter().find(|c| c.0 == code).map(|c| DataClass(c.0))
    }

    /// Registers an entry of this class normally takes, if fixed.
    fn usual_size(self) -> Option<u32> {
        CLASSES
            .iter()
            .find(|c| c.0 == self.0)
            .and_then(|c| (c.2 != 0).then_some(c.2))
    }
}

impl fmt::Display for DataClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for DataClass {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// Parses a decimal or `0x` hexadecimal number.
pub fn parse_number(text: &str) -> Option<u32> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u32::from_str_radix(hex, 16).ok()
    } else {
        t.parse().ok()
    }
}

/// One user-data entry: `s[reg_start .. reg_start+reg_size-1]` hold `class` for `api_slot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct UserDataEntry {
    /// Data class.
    pub class: DataClass,
    /// Resource id (immediates) or 0 (table pointers).
    pub api_slot: u32,
    /// First SGPR.
    pub reg_start: u32,
    /// Number of SGPRs.
    pub reg_size: u32,
}

impl UserDataEntry {
    /// The entry `s[reg_start .. reg_start+reg_size-1]` = `class` for `api_slot`.
    pub const fn new(class: DataClass, api_slot: u32, reg_start: u32, reg_size: u32) -> Self {
        UserDataEntry {
            class,
            api_slot,
            reg_start,
            reg_size,
        }
    }

    /// One past the last SGPR.
    pub fn end(&self) -> u32 {
        // Saturating: the fields come from user text and are range-checked only in `validate`.
        self.reg_start.saturating_add(self.reg_size)
    }
}

/// Why an explicit user-data list could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("user-data entry {index} ('{text}'): {message}")]
pub struct UserDataParseError {
    /// Entry index (from 0).
    pub index: usize,
    /// The entry's text.
    pub text: String,
    /// What was expected.
    pub message: String,
}

/// Parses `"CLASS,SLOT,START,SIZE; ..."` (class names case-insensitive or numeric codes).
pub fn parse_list(text: &str) -> Result<Vec<UserDataEntry>, UserDataParseError> {
    let mut out = Vec::new();
    for (index, item) in text
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let err = |message: String| UserDataParseError {
            index,
            text: item.to_string(),
            message,
        };
        let fields: Vec<&str> = item.split(',').map(str::trim).collect();
        if fields.len() != 4 {
            return Err(err(format!(
                "expected 4 comma-separated fields CLASS,SLOT,START,SIZE, found {}",
                fields.len()
            )));
        }
        let class = DataClass::from_name(fields[0])
            .ok_or_else(|| err(format!("Unknown Data Class '{}'", fields[0])))?;
        let mut nums = [0u32; 3];
        for (k, what) in ["api slot", "register start", "register count"]
            .iter()
            .enumerate()
        {
            nums[k] = parse_number(fields[k + 1])
                .ok_or_else(|| err(format!("{what} '{}' is not a number", fields[k + 1])))?;
        }
        out.push(UserDataEntry {
            class,
            api_slot: nums[0],
            reg_start: nums[1],
            reg_size: nums[2],
        });
    }
    Ok(out)
}

/// Checks an explicit list with CLRX's rules (at most 16 entries, start in 0..15,
/// end at most 16) and returns warnings for what CLRX does not check (overlaps, odd
/// alignment of table pointers, sizes unusual for the class).
pub fn validate(entries: &[UserDataEntry]) -> Result<Vec<String>, LayoutError> {
    if entries.len() > MAX_ENTRIES {
        return Err(LayoutError::TooManyUserData(entries.len()));
    }
    for (index, e) in entries.iter().enumerate() {
        if e.reg_start >= MAX_USER_SGPRS {
            return Err(LayoutError::RegStartOutOfRange {
                index,
                reg_start: e.reg_start,
            });
        }
        if e.reg_start.saturating_add(e.reg_size) > MAX_USER_SGPRS {
            return Err(LayoutError::RegEndOutOfRange {
                index,
                reg_start: e.reg_start,
                reg_size: e.reg_size,
            });
        }
    }
    let mut warnings = Vec::new();
    for (i, a) in entries.iter().enumerate() {
        for (j, b) in entries.iter().enumerate().skip(i + 1) {
            if a.reg_start < b.end() && b.reg_start < a.end() {
                warnings.push(format!(
                    "user-data entries {i} ({}) and {j} ({}) overlap",
                    a.class, b.class
                ));
            }
        }
        if a.reg_size == 2 && a.reg_start % 2 != 0 {
            warnings.push(format!(
                "user-data entry {i} ({}) is a 64-bit pointer at an odd register s{}",
                a.class, a.reg_start
            ));
        }
        if let Some(usual) = a.class.usual_size() {
            if usual != a.reg_size {
                warnings.push(format!(
                    "user-data entry {i} ({}) has {} registers; the class takes {usual}",
                    a.class, a.reg_size
                ));
            }
        }
    }
    Ok(warnings)
}

/// USER_SGPR of a list: the largest end, or `fallback` when the list is empty.
pub fn user_sgprs(entries: &[UserDataEntry], fallback: u32) -> u32 {
    entries
        .iter()
        .map(UserDataEntry::end)
        .max()
        .unwrap_or(fallback)
}

/// What the kernel's code uses: the input of the `amd` policy. Ids are in their own
/// spaces; each list is in ascending id order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsedResources {
    /// Used read-only image ids.
    pub read_only_images: Vec<u32>,
    /// Used sampler ids (argument and constant samplers).
    pub samplers: Vec<u32>,
    /// Used constant-buffer ids (cb0, cb1; before 1348.05 also cb2 and `constant` pointers).
    pub const_buffers: Vec<u32>,
    /// Used UAV buffers (global pointers, `constant` pointers from 1348.05, printf,
    /// global data), by UAV id.
    pub uav_buffers: Vec<u32>,
    /// Used write-only images, by UAV id (0..7).
    pub write_only_images: Vec<u32>,
    /// Scratch is enabled.
    pub scratch: bool,
}

/// Register budget of the `amd` policy: s2..s15 (s0-s1 are never used).
const AMD_BUDGET: u32 = 14;
/// Table pointers take 2 registers.
const TABLE_REGS: u32 = 2;
/// First register of immediates (and of the second and later table pointers).
const AMD_FIRST_IMMEDIATE: u32 = 4;
/// Register of the first table pointer.
const AMD_FIRST_TABLE: u32 = 2;

/// One class in the `amd` policy: its immediates `(class, api slot, size)` and its table.
struct PolicyClass {
    immediates: Vec<(DataClass, u32, u32)>,
    table: DataClass,
    /// RESOURCE and the internal global table always use their table pointer.
    table_only: bool,
}

/// Derives user data with the `amd` policy (§12.2 of the spec).
///
/// Open point decided: scratch (PTR_INTERNAL_GLOBAL_TABLE) is a table-only class decided
/// after UAV and placed as the last table pointer.
pub fn derive_amd(used: &UsedResources) -> Vec<UserDataEntry> {
    let imm = |class: DataClass, ids: &[u32], size: u32| -> Vec<(DataClass, u32, u32)> {
        ids.iter().map(|&id| (class, id, size)).collect()
    };
    let mut uav: Vec<(DataClass, u32, u32)> = imm(DataClass::IMM_UAV, &used.uav_buffers, 4);
    uav.extend(imm(DataClass::IMM_UAV, &used.write_only_images, 8));
    uav.sort_by_key(|e| e.1);
    // Decision order: RESOURCE, SAMPLER, CONST_BUFFER, UAV, (scratch).
    let resource = PolicyClass {
        immediates: imm(DataClass::IMM_RESOURCE, &used.read_only_images, 8),
        table: DataClass::PTR_RESOURCE_TABLE,
        table_only: true,
    };
    let sampler = PolicyClass {
        immediates: imm(DataClass::IMM_SAMPLER, &used.samplers, 4),
        table: DataClass::PTR_SAMPLER_TABLE,
        table_only: false,
    };
    let cbuf = PolicyClass {
        immediates: imm(DataClass::IMM_CONST_BUFFER, &used.const_buffers, 4),
        table: DataClass::PTR_CONST_BUFFER_TABLE,
        table_only: false,
    };
    let uavc = PolicyClass {
        immediates: uav,
        table: DataClass::PTR_UAV_TABLE,
        table_only: false,
    };
    let scratch = PolicyClass {
        immediates: if used.scratch {
            vec![(DataClass::PTR_INTERNAL_GLOBAL_TABLE, 0, 2)]
        } else {
            vec![]
        },
        table: DataClass::PTR_INTERNAL_GLOBAL_TABLE,
        table_only: true,
    };
    let decision = [&resource, &sampler, &cbuf, &uavc, &scratch];
    let nonempty: Vec<usize> = (0..decision.len())
        .filter(|&i| !decision[i].immediates.is_empty())
        .collect();
    let mut immediate = [false; 5];
    let mut budget = AMD_BUDGET as i64;
    for (k, &i) in nonempty.iter().enumerate() {
        let later = (nonempty.len() - k - 1) as i64;
        let need: i64 = decision[i].immediates.iter().map(|e| i64::from(e.2)).sum();
        if !decision[i].table_only && need <= budget - 2 * later {
            immediate[i] = true;
            budget -= need;
        } else {
            budget -= i64::from(TABLE_REGS);
        }
    }
    // Placement order: RESOURCE, SAMPLER, UAV, CONST_BUFFER, (scratch).
    let placement = [0usize, 1, 3, 2, 4];
    let tables: Vec<DataClass> = placement
        .iter()
        .filter(|&&i| !decision[i].immediates.is_empty() && !immediate[i])
        .map(|&i| decision[i].table)
        .collect();
    let mut out = Vec::new();
    if let Some(first) = tables.first() {
        out.push(UserDataEntry {
            class: *first,
            api_slot: 0,
            reg_start: AMD_FIRST_TABLE,
            reg_size: TABLE_REGS,
        });
    }
    let mut r = AMD_FIRST_IMMEDIATE;
    for &i in &placement {
        if immediate[i] {
            for &(class, api_slot, size) in &decision[i].immediates {
                out.push(UserDataEntry {
                    class,
                    api_slot,
                    reg_start: r,
                    reg_size: size,
                });
                r += size;
            }
        }
    }
    for t in tables.iter().skip(1) {
        out.push(UserDataEntry {
            class: *t,
            api_slot: 0,
            reg_start: r,
            reg_size: TABLE_REGS,
        });
        r += TABLE_REGS;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_names() {
        let l = parse_list("ptr_uav_table,0,2,2; IMM_CONST_BUFFER, 1, 8, 4;0x2,0,4,4").unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(l[0], UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 2, 2));
        assert_eq!(l[2].class, DataClass::IMM_CONST_BUFFER);
        assert!(parse_list("FOO,0,0,0").is_err());
        assert!(parse_list("IMM_UAV,0,0").is_err());
        assert_eq!(DataClass(0x20).name(), "IMM_GENERIC_USER_DATA");
    }

    #[test]
    fn amd_policy_scratch_is_the_last_table() {
        // Hand computation: CB need 8 <= 14 - 2*2 -> immediate (budget 6); UAV need 4 <=
        // 6 - 2 -> immediate (budget 2); scratch takes the table pointer at s2.
        let used = UsedResources {
            const_buffers: vec![0, 1],
            uav_buffers: vec![12],
            scratch: true,
            ..UsedResources::default()
        };
        assert_eq!(
            derive_amd(&used),
            vec![
                UserDataEntry::new(DataClass::PTR_INTERNAL_GLOBAL_TABLE, 0, 2, 2),
                UserDataEntry::new(DataClass::IMM_UAV, 12, 4, 4),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 8, 4),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 1, 12, 4),
            ]
        );
        assert!(derive_amd(&UsedResources::default()).is_empty());
    }

    #[test]
    fn clrx_limits() {
        let ok = vec![UserDataEntry::new(DataClass::IMM_UAV, 12, 12, 4)];
        assert!(validate(&ok).unwrap().is_empty());
        assert_eq!(
            validate(&[UserDataEntry::new(DataClass::IMM_UAV, 12, 16, 0)]),
            Err(LayoutError::RegStartOutOfRange {
                index: 0,
                reg_start: 16
            })
        );
        assert!(matches!(
            validate(&[UserDataEntry::new(DataClass::IMM_UAV, 12, 13, 4)]),
            Err(LayoutError::RegEndOutOfRange { .. })
        ));
        let many = vec![UserDataEntry::new(DataClass::IMM_UAV, 0, 0, 1); 17];
        assert_eq!(validate(&many), Err(LayoutError::TooManyUserData(17)));
        let w = validate(&[
            UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 3, 2),
            UserDataEntry::new(DataClass::IMM_UAV, 1, 4, 4),
        ])
        .unwrap();
        assert_eq!(w.len(), 2, "{w:?}");
    }
}
