//! Bit lists: the scattered bit positions of one field, concatenated low to high.

/// The bits of one field: each range is `(start, width)` in the instruction word, and the
/// field's value is the concatenation of the ranges, first range lowest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitList {
    ranges: Vec<(u32, u32)>,
}

impl BitList {
    /// Parses a list such as `"16:25 -6:-5"`; negative positions count back from the end of
    /// the longest form (`total` bits), as Mesa's `AGX2.xml` writes the extension bits of
    /// operands shared by instructions of several lengths.
    pub(crate) fn parse(spec: &str, total: u32) -> BitList {
        let norm = |s: &str| -> u32 {
            let v: i64 = s
                .parse()
                .unwrap_or_else(|_| panic!("bad bit position {s:?}"));
            v.rem_euclid(i64::from(total)) as u32
        };
        let ranges = spec
            .split_whitespace()
            .map(|r| match r.split_once(':') {
                Some((a, b)) => {
                    let (a, b) = (norm(a), norm(b));
                    assert!(a <= b, "bit range {r} is reversed");
                    (a, b - a + 1)
                }
                None => (norm(r), 1),
            })
            .collect();
        BitList { ranges }
    }

    /// Number of bits in the field.
    pub fn width(&self) -> u32 {
        self.ranges.iter().map(|r| r.1).sum()
    }

    /// The positions in the instruction word, as a mask.
    pub fn mask(&self) -> u128 {
        self.ranges
            .iter()
            .fold(0, |m, &(s, w)| m | (low_mask(w) << s))
    }

    /// Reads the field from an instruction word.
    pub fn extract(&self, raw: u128) -> u64 {
        let mut out = 0u64;
        let mut n = 0;
        for &(s, w) in &self.ranges {
            out |= (((raw >> s) & low_mask(w)) as u64) << n;
            n += w;
        }
        out
    }

    /// Spreads a field value over the instruction word; bits above the width are dropped.
    pub fn deposit(&self, value: u64) -> u128 {
        let mut out = 0u128;
        let mut n = 0;
        for &(s, w) in &self.ranges {
            out |= ((u128::from(value) >> n) & low_mask(w)) << s;
            n += w;
        }
        out
    }
}

/// The low `w` bits set.
pub(crate) fn low_mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_positions_wrap_to_the_long_form() {
        let b = BitList::parse("16:25 -6:-5", 48);
        assert_eq!(b.width(), 12);
        assert_eq!(b.mask(), (0x3ff << 16) | (0b11 << 42));
        let raw = (0x155u128 << 16) | (0b10 << 42);
        assert_eq!(b.extract(raw), 0x155 | (0b10 << 10));
        assert_eq!(b.deposit(0x155 | (0b10 << 10)), raw);
    }
}
