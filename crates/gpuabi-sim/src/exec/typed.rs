//! Typed buffer formats (`tbuffer_*`, GCN 1.0/1.1): how an element in memory becomes
//! register values and back, for the data format (DFMT) and number format (NFMT) an MTBUF
//! instruction names.
//!
//! Formats and component order follow AMD's "Southern Islands Series Instruction Set
//! Architecture" (MTBUF: DFMT 1 `8` … 14 `32_32_32_32`; NFMT 0 `UNORM` … 7 `FLOAT`).
//! Component x occupies the lowest bits of an element: the names list components from the
//! high bits down (`2_10_10_10` is x in bits 0..9 and w in bits 30..31: Mesa's
//! `ac_translate_buffer_dataformat` in `src/amd/common/ac_formats.c` gives it to formats
//! whose channels are 10, 10, 10 and 2 bits, x first).
//!
//! Decisions where the manual is silent, stated in full:
//! - Loads of more components than the format has give 0 for y and z and 1 for w (integer
//!   1 for `UINT`/`SINT`, 1.0 otherwise), the identity destination select of the buffer
//!   resources AMD's OpenCL runtime builds; loads of fewer components drop the rest.
//! - `UNORM`/`SNORM` loads divide exactly and round once to f32; `SNORM` clamps at -1.0.
//! - Stores must write exactly the format's components. `UNORM`/`SNORM` stores clamp to
//!   [0, 1] / [-1, 1] (NaN as 0) and round to nearest, ties to even; `FLOAT` 16-bit
//!   stores round to nearest even. `UINT`/`SINT` stores of values outside the
//!   component's range, and `USCALED`/`SSCALED` stores of values that are not integers in
//!   range, depend on clamping or rounding the manual does not give and are refused.
//! - `SNORM_OGL`, the packed float formats `10_11_11`/`11_11_10`, `FLOAT` with 8- or
//!   10-bit components and the normalized or scaled 32-bit formats are refused.

/// A typed buffer format the simulator converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypedFormat {
    /// Bits per component, x first; 0 past the last component.
    bits: [u8; 4],
    /// The number format (NFMT).
    nfmt: u8,
}

const UNORM: u8 = 0;
const SNORM: u8 = 1;
const USCALED: u8 = 2;
const SSCALED: u8 = 3;
const UINT: u8 = 4;
const SINT: u8 = 5;
const FLOAT: u8 = 7;

impl TypedFormat {
    /// The format of the instruction's 7-bit format field (DFMT in bits 0..3, NFMT in
    /// 4..6), or why it is not simulated.
    pub fn new(format: u8) -> Result<TypedFormat, String> {
        let (dfmt, nfmt) = (format & 0xf, format >> 4 & 7);
        let bits: [u8; 4] = match dfmt {
            1 => [8, 0, 0, 0],
            2 => [16, 0, 0, 0],
            3 => [8, 8, 0, 0],
            4 => [32, 0, 0, 0],
            5 => [16, 16, 0, 0],
            8 => [2, 10, 10, 10],
            9 => [10, 10, 10, 2],
            10 => [8, 8, 8, 8],
            11 => [32, 32, 0, 0],
            12 => [16, 16, 16, 16],
            13 => [32, 32, 32, 0],
            14 => [32, 32, 32, 32],
            6 | 7 => {
                return Err(format!(
                    "data format {dfmt} (packed floats) is not simulated"
                ))
            }
            _ => return Err(format!("data format {dfmt} is invalid")),
        };
        let widest = bits.iter().copied().max().unwrap_or(0);
        let ok = match nfmt {
            UINT | SINT => true,
            UNORM | SNORM | USCALED | SSCALED => widest <= 16,
            FLOAT => bits.iter().all(|&b| matches!(b, 0 | 16 | 32)),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "number format {nfmt} with data format {dfmt} is not simulated"
            ));
        }
        Ok(TypedFormat { bits, nfmt })
    }

    /// Components in the format.
    pub fn components(&self) -> usize {
        self.bits.iter().filter(|&&b| b != 0).count()
    }

    /// Bytes of one element: 1, 2, 4, 8, 12 or 16.
    pub fn bytes(&self) -> u32 {
        self.bits.iter().map(|&b| u32::from(b)).sum::<u32>() / 8
    }

    /// The register values of the first `n` components of an element whose bytes, in
    /// memory order, are `element` ([`TypedFormat::bytes`] of them).
    pub fn load(&self, element: &[u8], n: usize) -> [u32; 4] {
        let mut out = [0u32; 4];
        let mut at = 0u32;
        for (k, slot) in out.iter_mut().enumerate().take(n) {
            let b = self.bits[k];
            if b == 0 {
                *slot = if k == 3 { self.one() } else { 0 };
                continue;
            }
            let raw = field(element, at, b);
            at += u32::from(b);
            *slot = self.decode_component(raw, b);
        }
        out
    }

    /// The element bytes for register values `values` (one per component of the format).
    pub fn store(&self, values: &[u32]) -> Result<Vec<u8>, String> {
        if values.len() != self.components() {
            return Err(format!(
                "stores {} components to a format of {}",
                values.len(),
                self.components()
            ));
        }
        let mut element = vec![0u8; self.bytes() as usize];
        let mut at = 0u32;
        for (k, &v) in values.iter().enumerate() {
            let b = self.bits[k];
            let raw = self
                .encode_component(v, b)
                .ok_or_else(|| format!("component {k} ({v:#x}) does not convert exactly"))?;
            set_field(&mut element, at, b, raw);
            at += u32::from(b);
        }
        Ok(element)
    }

    /// Whether the number format is an integer one (UINT, SINT): components load as
    /// integers, not as f32.
    pub fn is_integer(&self) -> bool {
        matches!(self.nfmt, UINT | SINT)
    }

    /// The value 1 in a register: integer 1 for UINT/SINT, 1.0 otherwise.
    pub fn one(&self) -> u32 {
        match self.nfmt {
            UINT | SINT => 1,
            _ => 1.0f32.to_bits(),
        }
    }

    fn decode_component(&self, raw: u32, b: u8) -> u32 {
        let max = mask(b);
        let signed = sign_extend(raw, b);
        let smax = (max >> 1) as f64;
        match self.nfmt {
            UINT => raw,
            SINT => signed as u32,
            UNORM => ((f64::from(raw) / f64::from(max)) as f32).to_bits(),
            SNORM => ((f64::from(signed) / smax).max(-1.0) as f32).to_bits(),
            USCALED => (raw as f32).to_bits(),
            SSCALED => (signed as f32).to_bits(),
            _ if b == 16 => half_to_f32(raw as u16).to_bits(),
            _ => raw,
        }
    }

    fn encode_component(&self, v: u32, b: u8) -> Option<u32> {
        let max = mask(b);
        let (smin, smax) = (-(i64::from(max >> 1)) - 1, i64::from(max >> 1));
        let f = f64::from(f32::from_bits(v));
        let f = if f.is_nan() { 0.0 } else { f };
        match self.nfmt {
            UINT => (v <= max).then_some(v),
            SINT => {
                let s = i64::from(v as i32);
                (smin..=smax).contains(&s).then_some(s as u32 & max)
            }
            UNORM => Some(round_even(f.clamp(0.0, 1.0) * f64::from(max)) as u32),
            SNORM => Some(round_even(f.clamp(-1.0, 1.0) * smax as f64) as i64 as u32 & max),
            USCALED => {
                (f.fract() == 0.0 && (0.0..=f64::from(max)).contains(&f)).then_some(f as u32)
            }
            SSCALED => (f.fract() == 0.0 && (smin as f64..=smax as f64).contains(&f))
                .then_some(f as i64 as u32 & max),
            _ if b == 16 => Some(u32::from(f32_to_half(f32::from_bits(v)))),
            _ => Some(v),
        }
    }
}

fn mask(b: u8) -> u32 {
    if b >= 32 {
        u32::MAX
    } else {
        (1u32 << b) - 1
    }
}

fn sign_extend(raw: u32, b: u8) -> i32 {
    let shift = 32 - u32::from(b);
    ((raw << shift) as i32) >> shift
}

fn round_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// Bits `at..at + b` of a little-endian element.
fn field(element: &[u8], at: u32, b: u8) -> u32 {
    (0..u32::from(b)).fold(0u32, |v, i| {
        let bit = at + i;
        let set = element
            .get(bit as usize / 8)
            .map_or(0, |byte| byte >> (bit % 8) & 1);
        v | u32::from(set) << i
    })
}

fn set_field(element: &mut [u8], at: u32, b: u8, value: u32) {
    for i in 0..u32::from(b) {
        let bit = at + i;
        if let Some(byte) = element.get_mut(bit as usize / 8) {
            let m = 1u8 << (bit % 8);
            if value >> i & 1 != 0 {
                *byte |= m;
            } else {
                *byte &= !m;
            }
        }
    }
}

/// IEEE 754 binary16 to binary32 (exact).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10 & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => return man as f32 * 2f32.powi(-24) * sign_of(sign),
        (31, 0) => sign | 0x7f80_0000,
        (31, _) => sign | 0x7fc0_0000 | man << 13,
        _ => sign | (exp + 112) << 23 | man << 13,
    };
    f32::from_bits(bits)
}

fn sign_of(sign: u32) -> f32 {
    if sign != 0 {
        -1.0
    } else {
        1.0
    }
}

/// IEEE 754 binary32 to binary16, rounding to nearest even (NaN stays a quiet NaN).
pub fn f32_to_half(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if f.is_nan() {
        return sign | 0x7e00 | ((bits >> 13) & 0x1ff) as u16;
    }
    let a = f64::from(f.abs());
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Units of the smallest denormal (2^-24) for small values, of the value's ulp otherwise.
    let exp = ((bits >> 23) & 0xff) as i32 - 127;
    let (e, scale) = if exp < -14 {
        (0, 24)
    } else {
        (exp + 15, 10 - exp)
    };
    let m = round_even(a * 2f64.powi(scale)) as u32;
    let h = if e == 0 {
        m
    } else if m >= 2048 {
        // Rounded up into the next binade.
        ((e as u32 + 1) << 10) | ((m >> 1) & 0x3ff)
    } else {
        ((e as u32) << 10) | (m & 0x3ff)
    };
    sign | h as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(dfmt: u8, nfmt: u8) -> TypedFormat {
        TypedFormat::new(dfmt | nfmt << 4).unwrap()
    }

    #[test]
    fn loads_convert_by_hand() {
        // 8_8_8_8 UNORM: bytes 0xff, 0x00, 0x80, 0x33 -> 1.0, 0.0, 128/255, 51/255.
        let l = fmt(10, UNORM).load(&[0xff, 0x00, 0x80, 0x33], 4);
        assert_eq!(f32::from_bits(l[0]), 1.0);
        assert_eq!(f32::from_bits(l[1]), 0.0);
        assert_eq!(f32::from_bits(l[2]), 128.0 / 255.0);
        assert_eq!(f32::from_bits(l[3]), 0.2);
        // 16 SNORM: 0x8000 clamps to -1.0; 0xc000 = -16384 / 32767.
        assert_eq!(
            f32::from_bits(fmt(2, SNORM).load(&[0x00, 0x80], 1)[0]),
            -1.0
        );
        assert_eq!(
            f32::from_bits(fmt(2, SNORM).load(&[0x00, 0xc0], 1)[0]),
            (-16384.0f64 / 32767.0) as f32
        );
        // 8_8 SINT: 0xfe -> -2; a fourth component reads as integer 1, the third as 0.
        assert_eq!(
            fmt(3, SINT).load(&[0xfe, 0x05], 4),
            [(-2i32) as u32, 5, 0, 1]
        );
        // 2_10_10_10 (DFMT 9) UINT: x is the low 10 bits, w the top 2.
        let word: u32 = 3 << 30 | 0x155 << 20 | 0x2aa << 10 | 0x3ff;
        assert_eq!(
            fmt(9, UINT).load(&word.to_le_bytes(), 4),
            [0x3ff, 0x2aa, 0x155, 3]
        );
        // 10_10_10_2 (DFMT 8) UINT: x is the low 2 bits.
        // y = bits 2..11: the top 8 bits of 0x3ff and the low 2 bits of 0x2aa.
        assert_eq!(fmt(8, UINT).load(&word.to_le_bytes(), 2), [3, 0x2ff, 0, 0]);
        // 16_16 FLOAT: 0x3c00 = 1.0, 0xc000 = -2.0; w of a missing component is 1.0.
        let l = fmt(5, FLOAT).load(&[0x00, 0x3c, 0x00, 0xc0], 4);
        assert_eq!(
            l,
            [1.0f32.to_bits(), (-2.0f32).to_bits(), 0, 1.0f32.to_bits()]
        );
        // 8 USCALED / SSCALED.
        assert_eq!(f32::from_bits(fmt(1, USCALED).load(&[200], 1)[0]), 200.0);
        assert_eq!(f32::from_bits(fmt(1, SSCALED).load(&[200], 1)[0]), -56.0);
    }

    #[test]
    fn stores_convert_by_hand() {
        let f = |x: f32| x.to_bits();
        // 0.5 * 255 = 127.5 rounds to the even 128; 2.0 clamps to 255; NaN is 0.
        assert_eq!(
            fmt(10, UNORM).store(&[f(0.5), f(2.0), f(f32::NAN), f(-1.0)]),
            Ok(vec![128, 255, 0, 0])
        );
        // SNORM 16: -1.0 -> -32767 (0x8001).
        assert_eq!(fmt(2, SNORM).store(&[f(-1.0)]), Ok(vec![0x01, 0x80]));
        assert_eq!(fmt(3, UINT).store(&[7, 255]), Ok(vec![7, 255]));
        assert!(fmt(3, UINT).store(&[7, 256]).is_err());
        assert_eq!(fmt(1, SINT).store(&[(-128i32) as u32]), Ok(vec![0x80]));
        assert!(fmt(1, SINT).store(&[128]).is_err());
        assert!(fmt(1, USCALED).store(&[f(1.5)]).is_err());
        assert_eq!(fmt(1, SSCALED).store(&[f(-3.0)]), Ok(vec![0xfd]));
        assert!(fmt(10, UINT).store(&[1, 2]).is_err(), "component count");
        // 1.0 + 2^-11 is halfway between two halves: ties to the even 0x3c00.
        assert_eq!(
            fmt(2, FLOAT).store(&[f(1.0 + 2f32.powi(-11))]),
            Ok(vec![0x00, 0x3c])
        );
        assert_eq!(fmt(14, FLOAT).store(&[1, 2, 3, 4]).unwrap().len(), 16);
    }

    #[test]
    fn half_conversions() {
        for (h, x) in [
            (0x3c00u16, 1.0f32),
            (0xc000, -2.0),
            (0x7bff, 65504.0),
            (0x0001, 2f32.powi(-24)),
            (0x0400, 2f32.powi(-14)),
            (0x8000, -0.0),
            (0x7c00, f32::INFINITY),
        ] {
            assert_eq!(half_to_f32(h).to_bits(), x.to_bits(), "{h:#x}");
            assert_eq!(f32_to_half(x), h, "{x}");
        }
        // Every half survives the round trip.
        for h in 0..=u16::MAX {
            let x = half_to_f32(h);
            if !x.is_nan() {
                assert_eq!(f32_to_half(x), h, "{h:#x}");
            }
        }
        assert_eq!(f32_to_half(65520.0), 0x7c00, "overflow rounds to infinity");
        assert_eq!(
            f32_to_half(2f32.powi(-26)),
            0,
            "below half the smallest denormal"
        );
    }

    #[test]
    fn unsupported_formats_are_named() {
        assert!(TypedFormat::new(6 | FLOAT << 4)
            .unwrap_err()
            .contains("packed floats"));
        assert!(TypedFormat::new(4 | UNORM << 4).is_err());
        assert!(TypedFormat::new(4 | 6 << 4).is_err());
        assert!(TypedFormat::new(15).is_err());
        assert!(TypedFormat::new(1 | FLOAT << 4).is_err());
    }
}
