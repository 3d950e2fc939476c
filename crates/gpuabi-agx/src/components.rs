//! The set of vertex attribute components a main vertex shader reads: bit `4a + c` is
//! component `c` (x, y, z, w) of attribute slot `a`, as in Mesa's component mask.

use std::fmt;

use thiserror::Error;

use crate::abi::{COMPONENTS_PER_ATTRIB, README_MAX_ATTRIBS};

/// Component letters in bit order.
const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

/// A set of attribute components; it can describe up to 32 slots (128 bits), enough for
/// the `readme` profile's spilling case. Mesa's own mask has 64 bits (16 slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Components(u128);

/// A component list or mask that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("column {column}: {message}")]
pub struct ComponentsError {
    /// 1-based column in the text where the problem is.
    pub column: usize,
    /// What was expected.
    pub message: String,
}

impl ComponentsError {
    fn new(column: usize, message: impl Into<String>) -> ComponentsError {
        ComponentsError {
            column,
            message: message.into(),
        }
    }
}

impl Components {
    /// The components of the mask `bits` (bit `4a + c`).
    pub const fn from_mask(bits: u128) -> Components {
        Components(bits)
    }

    /// Every component of slots `0..count`; more than 32 slots cannot be described.
    pub fn all_of_first(count: u16) -> Result<Components, ComponentsError> {
        if count > README_MAX_ATTRIBS {
            return Err(ComponentsError::new(
                1,
                format!("{count} attribute slots: at most {README_MAX_ATTRIBS} can be described"),
            ));
        }
        let bits = u32::from(count * COMPONENTS_PER_ATTRIB);
        Ok(Components(if bits == 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        }))
    }

    /// Parses a hexadecimal mask, with or without `0x`.
    pub fn parse_mask(text: &str) -> Result<Components, ComponentsError> {
        let digits = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .unwrap_or(text);
        let offset = text.len() - digits.len();
        if digits.is_empty() {
            return Err(ComponentsError::new(
                offset + 1,
                "expected hexadecimal digits",
            ));
        }
        if let Some(pos) = digits.find(|c: char| !c.is_ascii_hexdigit() && c != '_') {
            return Err(ComponentsError::new(
                offset + pos + 1,
                "expected a hexadecimal digit",
            ));
        }
        let clean: String = digits.chars().filter(|&c| c != '_').collect();
        u128::from_str_radix(&clean, 16)
            .map(Components)
            .map_err(|_| ComponentsError::new(offset + 1, "mask wider than 128 bits (32 slots)"))
    }

    /// Parses a list like `0:xyz 1:x 3:xyzw` (slot, colon, component letters; separated by
    /// spaces or commas).
    pub fn parse_list(text: &str) -> Result<Components, ComponentsError> {
        let mut bits = 0u128;
        let mut pos = 0;
        let bytes = text.as_bytes();
        while pos < bytes.len() {
            if bytes[pos] == b' ' || bytes[pos] == b',' {
                pos += 1;
                continue;
            }
            let start = pos;
            while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                pos += 1;
            }
            if pos == start {
                return Err(ComponentsError::new(
                    pos + 1,
                    "expected an attribute slot number",
                ));
            }
            let slot: u32 = text[start..pos]
                .parse()
                .ok()
                .filter(|&s| s < u32::from(README_MAX_ATTRIBS))
                .ok_or_else(|| {
                    ComponentsError::new(
                        start + 1,
                        format!("attribute slot must be 0..{}", README_MAX_ATTRIBS - 1),
                    )
                })?;
            if bytes.get(pos) != Some(&b':') {
                return Err(ComponentsError::new(
                    pos + 1,
                    "expected `:` and component letters",
                ));
            }
            pos += 1;
            let letters_start = pos;
            while pos < bytes.len() && bytes[pos] != b' ' && bytes[pos] != b',' {
                let c = bytes[pos] as char;
                let comp = LETTERS.iter().position(|&l| l == c).ok_or_else(|| {
                    ComponentsError::new(pos + 1, "expected a component letter x, y, z or w")
                })?;
                bits |= 1u128 << (slot * 4 + comp as u32);
                pos += 1;
            }
            if pos == letters_start {
                return Err(ComponentsError::new(
                    pos + 1,
                    "expected component letters x, y, z, w",
                ));
            }
        }
        Ok(Components(bits))
    }

    /// The mask bits.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Whether component `k = 4a + c` is read.
    pub const fn reads(self, k: u16) -> bool {
        k < 128 && self.0 & (1u128 << k) != 0
    }

    /// n: highest slot read + 1, `ceil(last_bit / 4)` with `last_bit` 1-based (0 if empty).
    pub const fn n(self) -> u16 {
        let last_bit = 128 - self.0.leading_zeros() as u16;
        last_bit.div_ceil(COMPONENTS_PER_ATTRIB)
    }

    /// The component's name, e.g. `2.z`.
    pub fn name(k: u16) -> String {
        format!("{}.{}", k / 4, LETTERS[usize::from(k % 4)])
    }
}

impl fmt::Display for Components {
    /// The list syntax, `0:xyz 1:x 3:xyzw`; `-` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        let mut any = false;
        for slot in 0..32u16 {
            let nibble = (self.0 >> (slot * 4)) & 0xf;
            if nibble == 0 {
                continue;
            }
            write!(f, "{sep}{slot}:")?;
            for (c, l) in LETTERS.iter().enumerate() {
                if nibble & (1 << c) != 0 {
                    write!(f, "{l}")?;
                }
            }
            sep = " ";
            any = true;
        }
        if !any {
            f.write_str("-")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_and_mask_agree() {
        let list = Components::parse_list("0:xyz 1:x 3:xyzw").unwrap();
        assert_eq!(list.bits(), 0x7 | 0x1 << 4 | 0xf << 12);
        assert_eq!(list, Components::parse_mask("0xf017").unwrap());
        assert_eq!(list.n(), 4);
        assert_eq!(list.to_string(), "0:xyz 1:x 3:xyzw");
        assert_eq!(Components::default().n(), 0);
        assert_eq!(Components::all_of_first(32).unwrap().n(), 32);
    }

    #[test]
    fn bad_lists_name_the_column() {
        for (text, col) in [("0:xq", 4), ("a:x", 1), ("0x", 2), ("40:x", 1), ("1:", 3)] {
            assert_eq!(
                Components::parse_list(text).unwrap_err().column,
                col,
                "{text}"
            );
        }
        assert_eq!(Components::parse_mask("0xfg").unwrap_err().column, 4);
        assert!(Components::all_of_first(33).is_err());
    }
}
