//! cb0, the setup buffer the runtime fills before a dispatch: which dwords hold what, for
//! 32- and 64-bit binaries.

use serde::Serialize;

/// One documented field of cb0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cb0Field {
    /// First dword.
    pub first: u32,
    /// Number of dwords.
    pub count: u32,
    /// What the runtime stores there.
    pub content: &'static str,
}

/// Fields common to both bitnesses.
const COMMON: [(u32, u32, &str); 6] = [
    (0, 3, "global size x, y, z"),
    (3, 1, "work_dim"),
    (4, 3, "local size x, y, z"),
    (8, 3, "number of groups x, y, z"),
    (24, 3, "global offset x, y, z"),
    (
        27,
        1,
        "off(0) * (dim >= 1 ? off(1) : 1) * (dim == 2 ? off(2) : 1)",
    ),
];

/// The cb0 map of a 32-bit (`is_64bit == false`) or 64-bit binary, in dword order.
///
/// Open point kept as documented: dword 27's formula is reproduced as written; dwords 7,
/// 11-23 and 33-34 (32-bit) are undocumented and left out.
pub fn map(is_64bit: bool) -> Vec<Cb0Field> {
    let mut out: Vec<Cb0Field> = COMMON
        .iter()
        .map(|&(first, count, content)| Cb0Field {
            first,
            count,
            content,
        })
        .collect();
    if is_64bit {
        out.push(Cb0Field {
            first: 32,
            count: 2,
            content: "offset of the global constant data (64-bit)",
        });
        out.push(Cb0Field {
            first: 37,
            count: 3,
            content: "global offset x, y, z (copy)",
        });
    } else {
        out.push(Cb0Field {
            first: 32,
            count: 1,
            content: "offset of the global constant data",
        });
        out.push(Cb0Field {
            first: 36,
            count: 3,
            content: "global offset x, y, z (copy)",
        });
    }
    out
}
