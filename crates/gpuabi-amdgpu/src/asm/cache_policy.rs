//! RDNA 4's cache policy operands, `th:` and `scope:`, as LLVM 19 spells them
//! (`AMDGPUInstPrinter::printTH` and `printScope`, the `CPol` values in `SIDefines.h`).
//!
//! RDNA 4 replaced `glc`, `slc` and `dlc` by a three-bit temporal hint (TH) and a two-bit
//! scope ("RDNA 4 Instruction Set Architecture", "Memory Scope and Temporal Hints"). The
//! names of a hint depend on the access: loads and stores name the same values differently,
//! value 3 is `BYPASS` at system scope and `LU` (loads) or `RT_WB` (stores) below it, and an
//! atomic's bits say whether it returns the old value (1), is non-temporal (2) or cascades
//! (4).

/// What kind of access the hint belongs to: its names depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A load (and any access that is neither a store nor an atomic).
    Load,
    /// A store.
    Store,
    /// An atomic read-modify-write.
    Atomic,
}

/// `scope:` values by name.
pub const SCOPES: [&str; 4] = ["SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"];

/// The largest hint of a scalar load, whose TH field has two bits.
pub const SMEM_MAX_TH: u8 = 3;

/// The system scope, the one at which value 3 of a load's or store's hint is `BYPASS`.
pub const SCOPE_SYS: u8 = 3;

/// The hint values of loads and stores by name after `TH_LOAD_`/`TH_STORE_`, with the
/// scope the name requires (`Some(true)`: system scope only; `Some(false)`: not system
/// scope), as LLVM's assembler checks them ("scope and th combination is not valid").
const LOAD_STORE: [(&str, u8, Option<bool>, Access); 16] = [
    ("RT", 0, None, Access::Load),
    ("NT", 1, None, Access::Load),
    ("HT", 2, None, Access::Load),
    ("BYPASS", 3, Some(true), Access::Load),
    ("LU", 3, Some(false), Access::Load),
    ("NT_RT", 4, None, Access::Load),
    ("RT_NT", 5, None, Access::Load),
    ("NT_HT", 6, None, Access::Load),
    ("RT", 0, None, Access::Store),
    ("NT", 1, None, Access::Store),
    ("HT", 2, None, Access::Store),
    ("BYPASS", 3, Some(true), Access::Store),
    ("RT_WB", 3, Some(false), Access::Store),
    ("NT_RT", 4, None, Access::Store),
    ("RT_NT", 5, None, Access::Store),
    ("NT_HT", 6, None, Access::Store),
];

/// The hint of a store that has a name only for stores (`TH_STORE_NT_WB`).
const STORE_NT_WB: u8 = 7;

/// The atomic hints by name after `TH_ATOMIC_`, with whether they need at least device
/// scope (the cascading ones). Value 3 (`NT_RETURN`) is the value of `BYPASS`, which LLVM's
/// assembler allows at system scope only, so `NT_RETURN` is refused there.
const ATOMIC: [(&str, u8, bool); 6] = [
    ("RT", 0, false),
    ("RETURN", 1, false),
    ("NT", 2, false),
    ("NT_RETURN", 3, false),
    ("CASCADE_RT", 4, true),
    ("CASCADE_NT", 6, true),
];

/// The value shared by `BYPASS` and the names LLVM allows below system scope only.
const BYPASS: u8 = 3;

/// The value of a hint spelled `name` (`TH_LOAD_NT`) for an access of kind `access` at
/// `scope`; an error says what was expected.
pub fn th_value(name: &str, access: Access, scope: u8) -> Result<u8, String> {
    let (prefix, expected) = match access {
        Access::Load => ("TH_LOAD_", "TH_LOAD_*"),
        Access::Store => ("TH_STORE_", "TH_STORE_*"),
        Access::Atomic => ("TH_ATOMIC_", "TH_ATOMIC_*"),
    };
    let Some(rest) = name.strip_prefix(prefix) else {
        return Err(format!(
            "unknown hint `{name}`: this instruction takes {expected}"
        ));
    };
    let invalid = || {
        format!(
            "`th:{name}` is not valid with scope `{}`",
            SCOPES[scope as usize & 3]
        )
    };
    if access == Access::Atomic {
        let (_, value, cascade) = ATOMIC
            .iter()
            .find(|(n, _, _)| *n == rest)
            .ok_or_else(|| format!("unknown hint `{name}`"))?;
        if (*cascade && scope < 2) || (*value == BYPASS && scope == SCOPE_SYS) {
            return Err(invalid());
        }
        return Ok(*value);
    }
    if access == Access::Store && rest == "NT_WB" {
        return Ok(STORE_NT_WB);
    }
    let (_, value, sys, _) = LOAD_STORE
        .iter()
        .find(|(n, _, _, a)| *n == rest && *a == access)
        .ok_or_else(|| format!("unknown hint `{name}`"))?;
    match sys {
        Some(sys) if *sys != (scope == SCOPE_SYS) => Err(invalid()),
        _ => Ok(*value),
    }
}

/// The spelling of hint `th` for an access of kind `access` at `scope`, as LLVM prints it
/// (`None` for 0, which is not printed; a value without a name is printed in hex).
pub fn th_name(th: u8, access: Access, scope: u8) -> Option<String> {
    if th == 0 {
        return None;
    }
    let name = match access {
        // Only a value with a name of its own is printed by name (LLVM prints the cascading
        // values with the return bit set as the ones without; the hex keeps the bit).
        Access::Atomic => ATOMIC
            .iter()
            .find(|(_, v, cascade)| {
                *v == th && (!cascade || scope >= 2) && !(*v == BYPASS && scope == SCOPE_SYS)
            })
            .map(|(n, _, _)| format!("TH_ATOMIC_{n}")),
        Access::Store if th == STORE_NT_WB => Some("TH_STORE_NT_WB".to_string()),
        _ => {
            let sys = scope == SCOPE_SYS;
            LOAD_STORE
                .iter()
                .find(|(_, v, s, a)| *v == th && *a == access && s.is_none_or(|s| s == sys))
                .map(|(n, _, _, _)| {
                    let prefix = if access == Access::Store {
                        "TH_STORE_"
                    } else {
                        "TH_LOAD_"
                    };
                    format!("{prefix}{n}")
                })
        }
    };
    Some(name.unwrap_or_else(|| format!("{th:#x}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_depend_on_the_access_and_scope() {
        // Values as llvm-mc-19 encodes them for gfx1201 (TH in bits 54:52 of a VGLOBAL
        // instruction: `th:TH_LOAD_NT_HT` sets 0x60 in its seventh byte, i.e. 6).
        assert_eq!(th_value("TH_LOAD_NT_HT", Access::Load, 0), Ok(6));
        assert_eq!(th_value("TH_LOAD_BYPASS", Access::Load, 3), Ok(3));
        assert!(th_value("TH_LOAD_BYPASS", Access::Load, 0).is_err());
        assert_eq!(th_value("TH_LOAD_LU", Access::Load, 0), Ok(3));
        assert!(th_value("TH_STORE_NT", Access::Load, 0).is_err());
        assert_eq!(th_value("TH_ATOMIC_RETURN", Access::Atomic, 0), Ok(1));
        for access in [Access::Load, Access::Store, Access::Atomic] {
            for scope in 0..4 {
                for th in 1..8 {
                    if let Some(name) = th_name(th, access, scope) {
                        if !name.starts_with("0x") {
                            assert_eq!(th_value(&name, access, scope), Ok(th), "{name}");
                        }
                    }
                }
            }
        }
        assert_eq!(
            th_name(3, Access::Store, 1).as_deref(),
            Some("TH_STORE_RT_WB")
        );
        assert_eq!(
            th_name(3, Access::Load, 3).as_deref(),
            Some("TH_LOAD_BYPASS")
        );
    }
}
