//! cb0, the setup buffer the runtime fills before a dispatch: which dwords hold what, for
//! 32- and 64-bit binaries.

use serde::Serialize;

/// What a cb0 field holds, for code that reads it (a compiler's kernel entry, a dispatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Cb0Kind {
    /// Global size x, y, z.
    GlobalSize,
    /// `work_dim`.
    WorkDim,
    /// Local (work-group) size x, y, z.
    LocalSize,
    /// Number of work-groups x, y, z.
    NumGroups,
    /// Global offset x, y, z.
    GlobalOffset,
    /// The documented product of the global offsets (dword 27).
    OffsetProduct,
    /// Offset of the global constant data.
    ConstDataOffset,
    /// The copy of the global offset x, y, z.
    GlobalOffsetCopy,
    /// Byte offset of the printf buffer in the printf UAV.
    PrintfBufferOffset,
    /// Dwords of the printf buffer per work-item (0: printf writes nothing).
    PrintfItemDwords,
}

/// One documented field of cb0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cb0Field {
    /// First dword.
    pub first: u32,
    /// Number of dwords.
    pub count: u32,
    /// What the runtime stores there.
    pub content: &'static str,
    /// The same, as a value to match on.
    #[serde(skip)]
    pub kind: Cb0Kind,
}

/// Fields common to both bitnesses.
const COMMON: [(u32, u32, &str, Cb0Kind); 6] = [
    (0, 3, "global size x, y, z", Cb0Kind::GlobalSize),
    (3, 1, "work_dim", Cb0Kind::WorkDim),
    (4, 3, "local size x, y, z", Cb0Kind::LocalSize),
    (8, 3, "number of groups x, y, z", Cb0Kind::NumGroups),
    (24, 3, "global offset x, y, z", Cb0Kind::GlobalOffset),
    (
        27,
        1,
        "off(0) * (dim >= 1 ? off(1) : 1) * (dim == 2 ? off(2) : 1)",
        Cb0Kind::OffsetProduct,
    ),
];

/// The first dword of the field of `kind` in a cb0 map, if the map has one.
pub fn first_dword(map: &[Cb0Field], kind: Cb0Kind) -> Option<u32> {
    map.iter().find(|f| f.kind == kind).map(|f| f.first)
}

/// The cb0 map of a 32-bit (`is_64bit == false`) or 64-bit binary, in dword order.
///
/// Open point kept as documented: dword 27's formula is reproduced as written; dwords 7
/// and 11-23 are undocumented and left out.
///
/// The printf fields are read from AMD's code (the printf kernels of CLRX's test binaries
/// `prginfo8_*`, drivers 1016.4 to 1642.5): it loads the printf buffer's offset and its
/// size per work-item in dwords with `s_buffer_load_dwordx2 …, 33` (32-bit) or
/// `s_buffer_load_dwordx2 …, 34` and `s_buffer_load_dword …, 36` (64-bit), skips every
/// printf when the size is 0, and otherwise writes work-item i's records at offset
/// + 4·i·size in the printf UAV.
pub fn map(is_64bit: bool) -> Vec<Cb0Field> {
    let mut out: Vec<Cb0Field> = COMMON
        .iter()
        .map(|&(first, count, content, kind)| Cb0Field {
            first,
            count,
            content,
            kind,
        })
        .collect();
    if is_64bit {
        out.push(Cb0Field {
            first: 32,
            count: 2,
            content: "offset of the global constant data (64-bit)",
            kind: Cb0Kind::ConstDataOffset,
        });
        out.push(Cb0Field {
            first: 34,
            count: 2,
            content: "offset of the printf buffer (64-bit)",
            kind: Cb0Kind::PrintfBufferOffset,
        });
        out.push(Cb0Field {
            first: 36,
            count: 1,
            content: "dwords of the printf buffer per work-item",
            kind: Cb0Kind::PrintfItemDwords,
        });
        out.push(Cb0Field {
            first: 37,
            count: 3,
            content: "global offset x, y, z (copy)",
            kind: Cb0Kind::GlobalOffsetCopy,
        });
    } else {
        out.push(Cb0Field {
            first: 32,
            count: 1,
            content: "offset of the global constant data",
            kind: Cb0Kind::ConstDataOffset,
        });
        out.push(Cb0Field {
            first: 33,
            count: 1,
            content: "offset of the printf buffer",
            kind: Cb0Kind::PrintfBufferOffset,
        });
        out.push(Cb0Field {
            first: 34,
            count: 1,
            content: "dwords of the printf buffer per work-item",
            kind: Cb0Kind::PrintfItemDwords,
        });
        out.push(Cb0Field {
            first: 36,
            count: 3,
            content: "global offset x, y, z (copy)",
            kind: Cb0Kind::GlobalOffsetCopy,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_by_kind() {
        // The dwords of the setup-buffer table, 64-bit binary.
        let m = map(true);
        assert_eq!(first_dword(&m, Cb0Kind::GlobalSize), Some(0));
        assert_eq!(first_dword(&m, Cb0Kind::WorkDim), Some(3));
        assert_eq!(first_dword(&m, Cb0Kind::LocalSize), Some(4));
        assert_eq!(first_dword(&m, Cb0Kind::NumGroups), Some(8));
        assert_eq!(first_dword(&m, Cb0Kind::GlobalOffset), Some(24));
        assert_eq!(first_dword(&m, Cb0Kind::GlobalOffsetCopy), Some(37));
        assert_eq!(
            first_dword(&map(false), Cb0Kind::GlobalOffsetCopy),
            Some(36)
        );
        assert_eq!(first_dword(&m, Cb0Kind::PrintfBufferOffset), Some(34));
        assert_eq!(first_dword(&m, Cb0Kind::PrintfItemDwords), Some(36));
        assert_eq!(
            first_dword(&map(false), Cb0Kind::PrintfItemDwords),
            Some(34)
        );
    }
}
