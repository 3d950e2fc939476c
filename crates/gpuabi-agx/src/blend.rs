//! Fragment epilog blend state as data, with the facts the epilog derives from it: whether
//! a render target reads the blend constant (and so the ABI's uniform halves 4..11),
//! whether it uses dual-source colour (location 1), and whether it reads the destination.

use serde::Serialize;

use crate::abi::FUNI_BLEND_R;

/// Blend equation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlendFunc {
    /// src·S + dst·D.
    Add,
    /// src·S − dst·D.
    Subtract,
    /// dst·D − src·S.
    ReverseSubtract,
    /// min(src, dst); factors ignored.
    Min,
    /// max(src, dst); factors ignored.
    Max,
}

/// Blend factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlendFactor {
    /// 0.
    Zero,
    /// 1.
    One,
    /// Source colour.
    SrcColor,
    /// 1 − source colour.
    OneMinusSrcColor,
    /// Source alpha.
    SrcAlpha,
    /// 1 − source alpha.
    OneMinusSrcAlpha,
    /// Destination colour.
    DstColor,
    /// 1 − destination colour.
    OneMinusDstColor,
    /// Destination alpha.
    DstAlpha,
    /// 1 − destination alpha.
    OneMinusDstAlpha,
    /// min(source alpha, 1 − destination alpha).
    SrcAlphaSaturate,
    /// Blend constant colour.
    ConstantColor,
    /// 1 − blend constant colour.
    OneMinusConstantColor,
    /// Blend constant alpha.
    ConstantAlpha,
    /// 1 − blend constant alpha.
    OneMinusConstantAlpha,
    /// Second (dual-source) colour.
    Src1Color,
    /// 1 − second colour.
    OneMinusSrc1Color,
    /// Second colour's alpha.
    Src1Alpha,
    /// 1 − second colour's alpha.
    OneMinusSrc1Alpha,
}

/// What each factor reads: (destination, blend constant, dual source).
const FACTOR_READS: [(BlendFactor, bool, bool, bool); 19] = [
    (BlendFactor::Zero, false, false, false),
    (BlendFactor::One, false, false, false),
    (BlendFactor::SrcColor, false, false, false),
    (BlendFactor::OneMinusSrcColor, false, false, false),
    (BlendFactor::SrcAlpha, false, false, false),
    (BlendFactor::OneMinusSrcAlpha, false, false, false),
    (BlendFactor::DstColor, true, false, false),
    (BlendFactor::OneMinusDstColor, true, false, false),
    (BlendFactor::DstAlpha, true, false, false),
    (BlendFactor::OneMinusDstAlpha, true, false, false),
    (BlendFactor::SrcAlphaSaturate, true, false, false),
    (BlendFactor::ConstantColor, false, true, false),
    (BlendFactor::OneMinusConstantColor, false, true, false),
    (BlendFactor::ConstantAlpha, false, true, false),
    (BlendFactor::OneMinusConstantAlpha, false, true, false),
    (BlendFactor::Src1Color, false, false, true),
    (BlendFactor::OneMinusSrc1Color, false, false, true),
    (BlendFactor::Src1Alpha, false, false, true),
    (BlendFactor::OneMinusSrc1Alpha, false, false, true),
];

impl BlendFunc {
    /// Every function.
    pub const ALL: [BlendFunc; 5] = [
        BlendFunc::Add,
        BlendFunc::Subtract,
        BlendFunc::ReverseSubtract,
        BlendFunc::Min,
        BlendFunc::Max,
    ];
}

impl BlendFactor {
    /// Every factor.
    pub fn all() -> impl Iterator<Item = BlendFactor> {
        FACTOR_READS.iter().map(|e| e.0)
    }

    fn reads(self) -> (bool, bool, bool) {
        FACTOR_READS
            .iter()
            .find(|e| e.0 == self)
            .map_or((false, false, false), |e| (e.1, e.2, e.3))
    }
}

/// A logic op (Mesa's `PIPE_LOGICOP_*`), numbered as there: bit `2·s + d` of the number is
/// the result for source bit `s` and destination bit `d`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogicOp {
    /// 0.
    Clear,
    /// ¬(s ∨ d).
    Nor,
    /// ¬s ∧ d.
    AndInverted,
    /// ¬s.
    CopyInverted,
    /// s ∧ ¬d.
    AndReverse,
    /// ¬d.
    Invert,
    /// s ⊕ d.
    Xor,
    /// ¬(s ∧ d).
    Nand,
    /// s ∧ d.
    And,
    /// ¬(s ⊕ d).
    Equiv,
    /// d: the store is left out.
    Noop,
    /// ¬s ∨ d.
    OrInverted,
    /// s.
    Copy,
    /// s ∨ ¬d.
    OrReverse,
    /// s ∨ d.
    Or,
    /// All ones.
    Set,
}

impl LogicOp {
    /// Every logic op, in Mesa's numbering.
    pub const ALL: [LogicOp; 16] = [
        LogicOp::Clear,
        LogicOp::Nor,
        LogicOp::AndInverted,
        LogicOp::CopyInverted,
        LogicOp::AndReverse,
        LogicOp::Invert,
        LogicOp::Xor,
        LogicOp::Nand,
        LogicOp::And,
        LogicOp::Equiv,
        LogicOp::Noop,
        LogicOp::OrInverted,
        LogicOp::Copy,
        LogicOp::OrReverse,
        LogicOp::Or,
        LogicOp::Set,
    ];
}

/// One blend equation with its factors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Equation {
    /// The function.
    pub func: BlendFunc,
    /// Source factor.
    pub src: BlendFactor,
    /// Destination factor.
    pub dst: BlendFactor,
}

impl Equation {
    /// `src·1 + dst·0`: the source replaces the destination.
    pub const REPLACE: Equation = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::One,
        dst: BlendFactor::Zero,
    };

    fn factors(&self) -> [BlendFactor; 2] {
        match self.func {
            // Min and max ignore the factors.
            BlendFunc::Min | BlendFunc::Max => [BlendFactor::One, BlendFactor::One],
            _ => [self.src, self.dst],
        }
    }

    fn reads_destination(&self) -> bool {
        matches!(self.func, BlendFunc::Min | BlendFunc::Max)
            || self.dst != BlendFactor::Zero
            || self.src.reads().0
    }
}

/// Blend state of one render target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RtBlend {
    /// Colour equation.
    pub rgb: Equation,
    /// Alpha equation.
    pub alpha: Equation,
    /// 4-bit colour write mask (bit 0 = R).
    pub colormask: u8,
}

impl Default for RtBlend {
    fn default() -> RtBlend {
        RtBlend {
            rgb: Equation::REPLACE,
            alpha: Equation::REPLACE,
            colormask: 0xf,
        }
    }
}

/// Facts the epilog derives for one render target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlendFacts {
    /// Reads the blend constant.
    pub reads_blend_constant: bool,
    /// Uniform halves of the blend constant it reads (fp32 R, G, B, A at 4, 6, 8, 10).
    pub blend_constant_halves: Vec<u16>,
    /// Uses the dual-source colour (location 1, which must pair with location 0).
    pub dual_source: bool,
    /// Reads the destination (blending or a logic op needs it).
    pub reads_destination: bool,
    /// Writes only some channels.
    pub partial_colormask: bool,
}

/// Derives the facts of one render target; `logic_op` is whether a logic op replaces
/// blending (logic ops other than copy read the destination; pass `false` for copy).
pub fn blend_facts(rt: &RtBlend, logic_op_reads_dst: bool) -> BlendFacts {
    let factors = rt.rgb.factors().into_iter().chain(rt.alpha.factors());
    let mut constant_channels = [false; 4];
    let mut dual_source = false;
    for (i, f) in factors.enumerate() {
        let (_, constant, dual) = f.reads();
        dual_source |= dual;
        if constant {
            // Colour factors read R, G, B; alpha factors and *_ALPHA read A.
            let alpha_only = i >= 2
                || matches!(
                    f,
                    BlendFactor::ConstantAlpha | BlendFactor::OneMinusConstantAlpha
                );
            if alpha_only {
                constant_channels[3] = true;
            } else {
                constant_channels[..3].iter_mut().for_each(|c| *c = true);
            }
        }
    }
    let blend_constant_halves: Vec<u16> = (0..4u16)
        .filter(|&c| constant_channels[usize::from(c)])
        .map(|c| FUNI_BLEND_R + 2 * c)
        .collect();
    BlendFacts {
        reads_blend_constant: !blend_constant_halves.is_empty(),
        blend_constant_halves,
        dual_source,
        reads_destination: logic_op_reads_dst
            || rt.rgb.reads_destination()
            || rt.alpha.reads_destination(),
        partial_colormask: rt.colormask & 0xf != 0xf,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_reads_nothing() {
        let f = blend_facts(&RtBlend::default(), false);
        assert!(!f.reads_blend_constant && !f.dual_source && !f.reads_destination);
    }

    #[test]
    fn constant_and_dual_source() {
        let rt = RtBlend {
            rgb: Equation {
                func: BlendFunc::Add,
                src: BlendFactor::ConstantColor,
                dst: BlendFactor::OneMinusSrc1Color,
            },
            alpha: Equation::REPLACE,
            colormask: 0x7,
        };
        let f = blend_facts(&rt, false);
        assert_eq!(f.blend_constant_halves, [4, 6, 8]);
        assert!(f.dual_source && f.reads_destination && f.partial_colormask);
        let rt = RtBlend {
            alpha: Equation {
                func: BlendFunc::Add,
                src: BlendFactor::ConstantAlpha,
                dst: BlendFactor::Zero,
            },
            ..RtBlend::default()
        };
        assert_eq!(blend_facts(&rt, false).blend_constant_halves, [10]);
    }
}
