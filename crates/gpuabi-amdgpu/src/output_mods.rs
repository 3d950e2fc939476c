//! The output modifiers of the VOP3 encoding: `clamp` and `omod` (`mul:2`, `mul:4`,
//! `div:2`), which instructions take them and what they do to a result.
//!
//! Which instructions take them follows llvm-mc-19 (checked by the tests on every target):
//! every vector instruction with an f32 result takes both; of the integer instructions the
//! unsigned adds and subtractions and `v_mad_u32_u24` take `clamp` (saturation), and none
//! takes `omod`. LLVM writes `clamp` before the `omod` modifier.
//!
//! What they do follows the VOP3 chapters of AMD's GCN3, RDNA2 and RDNA3 ISA guides: the
//! output modifier scales an f32 result first, then `clamp` limits it to [0.0, 1.0]; an
//! integer `clamp` saturates at the unsigned limits instead of wrapping.
//!
//! Decisions of the project where the guides are silent: a NaN result clamps to +0.0 (the
//! `DX10_CLAMP` mode, which llc-19's kernel descriptors set), and -0.0 clamps to +0.0; the
//! scaling is an f32 multiplication by 2, 4 or 0.5 (so it rounds a denormal result as that
//! multiplication does, and keeps a NaN).

use crate::opcodes::Opcode::{self, *};

/// The output modifier of a VOP3 f32 result, numbered as the `OMOD` field encodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Omod {
    /// No scaling.
    #[default]
    None = 0,
    /// `mul:2`.
    Mul2 = 1,
    /// `mul:4`.
    Mul4 = 2,
    /// `div:2`.
    Div2 = 3,
}

impl Omod {
    /// Every value in field order.
    pub const ALL: [Omod; 4] = [Omod::None, Omod::Mul2, Omod::Mul4, Omod::Div2];

    /// The spelling in LLVM's syntax (empty for [`Omod::None`]).
    pub const fn name(self) -> &'static str {
        match self {
            Omod::None => "",
            Omod::Mul2 => "mul:2",
            Omod::Mul4 => "mul:4",
            Omod::Div2 => "div:2",
        }
    }

    /// The modifier spelled `text` (`mul:2`, `mul:4`, `div:2`).
    pub fn from_name(text: &str) -> Option<Omod> {
        Omod::ALL
            .into_iter()
            .find(|o| *o != Omod::None && o.name() == text)
    }

    /// The factor it scales by.
    pub const fn factor(self) -> f32 {
        match self {
            Omod::None => 1.0,
            Omod::Mul2 => 2.0,
            Omod::Mul4 => 4.0,
            Omod::Div2 => 0.5,
        }
    }
}

/// What `clamp` does to an instruction's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClampKind {
    /// An f32 result is limited to [0.0, 1.0] (after the output modifier).
    Float,
    /// An unsigned integer result saturates instead of wrapping.
    Unsigned,
}

/// The output modifiers an instruction takes: `clamp` (and how it acts) and `omod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutputMods {
    /// What `clamp` does, if the instruction takes it.
    pub clamp: Option<ClampKind>,
    /// Whether it takes `mul:2`, `mul:4` and `div:2`.
    pub omod: bool,
}

/// The vector instructions with an f32 result that have a VOP3 encoding: they take `clamp`
/// and `omod`.
const F32_RESULTS: &[Opcode] = &[
    VRcpF32,
    VSqrtF32,
    VFloorF32,
    VCvtF32I32,
    VCvtF32U32,
    VCvtF32Ubyte0,
    VCeilF32,
    VTruncF32,
    VRndneF32,
    VFractF32,
    VSinF32,
    VCosF32,
    VExpF32,
    VLogF32,
    VRsqF32,
    VAddF32,
    VSubF32,
    VMulF32,
    VMinF32,
    VMaxF32,
    VFmaF32,
    VLdexpF32,
    VDivFmasF32,
    VDivFixupF32,
    VMed3F32,
    VFmacF32,
    VMaxminF32,
    VMinmaxF32,
    VMacF32,
    VRcpIflagF32,
    VSubrevF32,
    VMadF32,
    VMin3F32,
    VMax3F32,
    VMulLegacyF32,
    VFrexpMantF32,
    VCvtOffF32I4,
    VCvtF32Ubyte1,
    VCvtF32Ubyte2,
    VCvtF32Ubyte3,
    VCvtF32F16,
    VCvtF32F64,
    VExpLegacyF32,
    VLogLegacyF32,
    VSExpF32,
    VSLogF32,
    VSRcpF32,
    VSRsqF32,
    VSSqrtF32,
];

/// The integer instructions whose `clamp` saturates: unsigned adds and subtractions (with
/// or without a carry out) and the 24-bit multiply-add.
const SATURATING: &[Opcode] = &[
    VAddNcU32,
    VSubNcU32,
    VSubrevNcU32,
    VAddCoU32,
    VSubCoU32,
    VSubrevCoU32,
    VMadU32U24,
];

/// The output modifiers `op` takes.
pub fn output_mods(op: Opcode) -> OutputMods {
    if F32_RESULTS.contains(&op) {
        OutputMods {
            clamp: Some(ClampKind::Float),
            omod: true,
        }
    } else if SATURATING.contains(&op) {
        OutputMods {
            clamp: Some(ClampKind::Unsigned),
            omod: false,
        }
    } else {
        OutputMods {
            clamp: None,
            omod: false,
        }
    }
}

/// An f32 result (bits) after `omod` and a float `clamp`.
pub fn apply_f32(bits: u32, omod: Omod, clamp: bool) -> u32 {
    let x = f32::from_bits(bits);
    let x = if omod == Omod::None {
        x
    } else {
        x * omod.factor()
    };
    if !clamp {
        return x.to_bits();
    }
    if x.is_nan() || x <= 0.0 {
        0.0f32.to_bits()
    } else if x >= 1.0 {
        1.0f32.to_bits()
    } else {
        x.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omod_scales_before_clamp() {
        let f = |x: f32| x.to_bits();
        assert_eq!(apply_f32(f(0.3), Omod::Mul2, false), f(0.6));
        assert_eq!(apply_f32(f(0.3), Omod::Mul4, true), f(1.0));
        assert_eq!(apply_f32(f(3.0), Omod::Div2, false), f(1.5));
        assert_eq!(apply_f32(f(1.5), Omod::Div2, true), f(0.75));
        assert_eq!(apply_f32(f(-2.0), Omod::None, true), f(0.0));
        assert_eq!(apply_f32(f(-0.0), Omod::None, true), f(0.0));
        assert_eq!(apply_f32(0x7fc0_0001, Omod::None, true), f(0.0));
        assert_eq!(apply_f32(0x7fc0_0001, Omod::Mul2, false), 0x7fc0_0001);
        assert_eq!(Omod::from_name("mul:4"), Some(Omod::Mul4));
        assert_eq!(Omod::from_name("mul:3"), None);
    }
}
