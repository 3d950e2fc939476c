//! The table resolved once into bit masks: what the decoder and encoder walk.

use std::sync::OnceLock;

use crate::bits::{low_mask, BitList};
use crate::def::{CaseDef, EncodingDef, ImmDef, ModDef, OpMod, OpcodeDef, ValueDef};
use crate::opcodes::OPCODES;

/// One resolved case of an operand encoding (positions within the operand field).
#[derive(Debug)]
pub(crate) struct Case {
    pub exact_mask: u64,
    pub exact_value: u64,
    pub value: Option<(&'static ValueDef, BitList)>,
    pub mods: Vec<(OpMod, BitList)>,
    pub size: Option<u32>,
    pub count: Option<u32>,
}

/// A resolved operand: its encoding's cases and its positions in the instruction.
#[derive(Debug)]
pub(crate) struct OperandSlot {
    pub enc: &'static EncodingDef,
    pub bits: BitList,
    pub cases: Vec<Case>,
}

/// A resolved instruction row.
#[derive(Debug)]
pub(crate) struct Row {
    pub def: &'static OpcodeDef,
    pub exact_mask: u128,
    pub exact_value: u128,
    pub known_mask: u128,
    pub dests: Vec<OperandSlot>,
    pub srcs: Vec<OperandSlot>,
    pub imms: Vec<(&'static ImmDef, BitList)>,
    pub mods: Vec<(&'static ModDef, BitList)>,
}

impl Row {
    /// The instruction length selected by the length bit of `raw`.
    pub fn length_of(&self, raw: u128) -> u32 {
        match self.def.length_bit {
            Some(b) if (raw >> b) & 1 == 1 => self.def.lengths[self.def.lengths.len() - 1],
            _ => self.def.lengths[0],
        }
    }
}

fn exact_bits(list: &[(&str, u64)], total: u32) -> (u128, u128) {
    list.iter().fold((0, 0), |(m, v), (bits, value)| {
        let b = BitList::parse(bits, total);
        assert!(
            u128::from(*value) <= low_mask(b.width()),
            "fixed value {value:#b} wider than {bits}"
        );
        (m | b.mask(), v | b.deposit(*value))
    })
}

fn resolve_case(common: &'static CaseDef, case: &'static CaseDef) -> Case {
    // Operand fields are at most 64 bits wide; their own positions never wrap.
    let (m1, v1) = exact_bits(common.exact, 64);
    let (m2, v2) = exact_bits(case.exact, 64);
    let value = case
        .value
        .as_ref()
        .or(common.value.as_ref())
        .map(|v| (v, BitList::parse(v.bits, 64)));
    let mods = common
        .mods
        .iter()
        .chain(case.mods)
        .map(|(m, b)| (*m, BitList::parse(b, 64)))
        .collect();
    Case {
        exact_mask: (m1 | m2) as u64,
        exact_value: (v1 | v2) as u64,
        value,
        mods,
        size: common.size.or(case.size),
        count: common.count.or(case.count),
    }
}

fn resolve_operand(enc: &'static EncodingDef, bits: &str, total: u32) -> OperandSlot {
    let cases = if enc.cases.is_empty() {
        vec![resolve_case(&enc.common, &enc.common)]
    } else {
        enc.cases
            .iter()
            .map(|c| resolve_case(&enc.common, c))
            .collect()
    };
    OperandSlot {
        enc,
        bits: BitList::parse(bits, total),
        cases,
    }
}

fn resolve(def: &'static OpcodeDef) -> Row {
    let total = def.lengths[def.lengths.len() - 1] * 8;
    let (exact_mask, exact_value) = exact_bits(def.exact, total);
    let dests: Vec<_> = def
        .dests
        .iter()
        .map(|o| resolve_operand(o.enc, o.bits, total))
        .collect();
    let srcs: Vec<_> = def
        .srcs
        .iter()
        .map(|o| resolve_operand(o.enc, o.bits, total))
        .collect();
    let imms: Vec<_> = def
        .imms
        .iter()
        .map(|i| (i, BitList::parse(i.bits, total)))
        .collect();
    let mods: Vec<_> = def
        .mods
        .iter()
        .map(|m| (*m, BitList::parse(m.bits, total)))
        .collect();
    let mut known_mask = exact_mask;
    for o in dests.iter().chain(&srcs) {
        known_mask |= o.bits.mask();
    }
    for (_, b) in &imms {
        known_mask |= b.mask();
    }
    for (_, b) in &mods {
        known_mask |= b.mask();
    }
    if let Some(b) = def.length_bit {
        known_mask |= 1 << b;
    }
    Row {
        def,
        exact_mask,
        exact_value,
        known_mask,
        dests,
        srcs,
        imms,
        mods,
    }
}

/// The resolved table, in decoding priority order.
pub(crate) fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| OPCODES.iter().map(resolve).collect())
}
