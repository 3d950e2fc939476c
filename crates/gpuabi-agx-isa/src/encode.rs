//! Operand values to bits: the inverse of each encoding case, and instructions to bytes.

use crate::bits::{low_mask, BitList};
use crate::decode::{decode_fields, match_row, Instruction};
use crate::def::{OpMod, ValueKind};
use crate::isa::{rows, Case, OperandSlot, Row};
use crate::operand::{Hint, Operand, OperandKind, RegFile};
use thiserror::Error;

/// Known bits of a partly built instruction word: `value` is meaningful where `mask` is set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Partial {
    pub value: u128,
    pub mask: u128,
}

impl Partial {
    /// Adds bits, or `None` when they contradict bits already known.
    pub fn merge(self, value: u128, mask: u128) -> Option<Partial> {
        if (self.value ^ value) & self.mask & mask != 0 {
            return None;
        }
        Some(Partial {
            value: self.value | (value & mask),
            mask: self.mask | mask,
        })
    }
}

/// Local (operand-field) bits under construction.
struct Local {
    value: u64,
    mask: u64,
}

impl Local {
    fn put(&mut self, bits: &BitList, x: u64) -> Option<()> {
        if u128::from(x) > low_mask(bits.width()) {
            return None;
        }
        let v = bits.deposit(x) as u64;
        let m = bits.mask() as u64;
        if (self.value ^ v) & self.mask & m != 0 {
            return None;
        }
        self.value |= v;
        self.mask |= m;
        Some(())
    }
}

fn find_mod(case: &Case, which: OpMod) -> Option<&BitList> {
    case.mods.iter().find(|(m, _)| *m == which).map(|(_, b)| b)
}

/// The operand-field bits `(value, mask)` that make `case` decode to `op`, if it can.
/// Count bits given by a channel mask are left to the instruction's mask modifier.
pub(crate) fn encode_case(case: &Case, op: &Operand) -> Option<(u64, u64)> {
    let (vdef, vbits) = case.value.as_ref()?;
    let mut l = Local {
        value: case.exact_value,
        mask: case.exact_mask,
    };
    match op.kind {
        OperandKind::Reg {
            file,
            base,
            size,
            count,
        } => {
            let want = match file {
                RegFile::Gpr => ValueKind::Reg,
                RegFile::Uniform => ValueKind::Uniform,
            };
            if vdef.kind != want {
                return None;
            }
            let m32 = find_mod(case, OpMod::Size32);
            let m64 = find_mod(case, OpMod::Size64);
            let prop = case.size.unwrap_or(16);
            match size {
                64 => {
                    // A 64-bit adder source sets both size bits, as applegpu encodes it and
                    // Mesa's cases.txt shows (`iadd dr0, dr0, dr4`).
                    if prop != 64 {
                        l.put(m64?, 1)?;
                    }
                    if let Some(b) = m32 {
                        l.put(b, 1)?;
                    }
                }
                32 => {
                    if prop == 64 {
                        return None;
                    }
                    if let Some(b) = m64 {
                        l.put(b, 0)?;
                    }
                    if prop != 32 {
                        l.put(m32?, 1)?;
                    }
                }
                _ => {
                    if prop != 16 {
                        return None;
                    }
                    for b in [m32, m64].into_iter().flatten() {
                        l.put(b, 0)?;
                    }
                }
            }
            if find_mod(case, OpMod::Mask).is_none() {
                if let Some(b) = find_mod(case, OpMod::Count) {
                    if !(1..=4).contains(&count) {
                        return None;
                    }
                    l.put(b, u64::from(count & 3))?;
                } else {
                    let want = match case.count {
                        Some(0) => 4,
                        Some(n) => n,
                        None => 1,
                    };
                    if count != want {
                        return None;
                    }
                }
            }
            let align = (1u32 << vdef.shift) - 1;
            if base & align != 0 {
                return None;
            }
            l.put(vbits, u64::from(base >> vdef.shift))?;
            if let Some(b) = find_mod(case, OpMod::Hint) {
                let h = match op.hint {
                    Hint::None => 1,
                    Hint::Cache => 2,
                    Hint::Discard => 3,
                };
                l.put(b, h)?;
            } else if let Some(b) = find_mod(case, OpMod::Cache) {
                match op.hint {
                    Hint::None => l.put(b, 0)?,
                    Hint::Cache => l.put(b, 1)?,
                    Hint::Discard => return None,
                }
            } else if let Some(b) = find_mod(case, OpMod::LastUse) {
                match op.hint {
                    Hint::None => l.put(b, 0)?,
                    Hint::Discard => l.put(b, 1)?,
                    Hint::Cache => return None,
                }
            } else if op.hint != Hint::None {
                return None;
            }
        }
        other => {
            if op.hint != Hint::None {
                return None;
            }
            let x = match (other, vdef.kind) {
                (OperandKind::Imm(x), ValueKind::Imm) => {
                    let w = vbits.width();
                    if vdef.signed {
                        let lo = -(1i64 << (w - 1));
                        let hi = (1i64 << (w - 1)) - 1;
                        if x < lo || x > hi {
                            return None;
                        }
                        (x as u64) & (low_mask(w) as u64)
                    } else {
                        u64::try_from(x).ok()?
                    }
                }
                (OperandKind::FImm(c), ValueKind::FImm) => u64::from(c),
                (OperandKind::Cf(n), ValueKind::Cf)
                | (OperandKind::Ts(n), ValueKind::Ts)
                | (OperandKind::Ss(n), ValueKind::Ss) => u64::from(n),
                _ => return None,
            };
            l.put(vbits, x)?;
        }
    }
    for (flag, which) in [(op.abs, OpMod::Abs), (op.neg, OpMod::Neg)] {
        match find_mod(case, which) {
            Some(b) => l.put(b, u64::from(flag))?,
            None if flag => return None,
            None => {}
        }
    }
    if let Some(b) = find_mod(case, OpMod::Sx) {
        l.put(b, u64::from(op.sx))?;
    } else if let Some(b) = find_mod(case, OpMod::Zx) {
        l.put(b, u64::from(!op.sx))?;
    } else if op.sx {
        return None;
    }
    Some((l.value, l.mask))
}

/// The bits of a case that prints nothing (an absent operand).
pub(crate) fn encode_absent(case: &Case) -> Option<(u64, u64)> {
    case.value
        .is_none()
        .then_some((case.exact_value, case.exact_mask))
}

/// Places operand-field bits into the instruction word; fails when a set bit lies beyond
/// the field's width (the short operand fields of a few rows cannot hold every case).
pub(crate) fn place(slot: &OperandSlot, (v, m): (u64, u64)) -> Option<(u128, u128)> {
    let over = !(low_mask(slot.bits.width()) as u64);
    if v & m & over != 0 {
        return None;
    }
    Some((slot.bits.deposit(v), slot.bits.deposit(m)))
}

/// The finished word: picks the short form when every set bit fits it and Mesa's compiler
/// does not always pack the long one (or `want_length` when given), and decodes it, which
/// must give this row at that length.
pub(crate) fn finish(
    row_index: usize,
    row: &Row,
    p: Partial,
    want_length: Option<u32>,
) -> Option<Instruction> {
    let mut raw = p.value;
    let lengths = row.def.lengths;
    let length = if let Some(b) = row.def.length_bit {
        let short = lengths[0];
        let long = lengths[lengths.len() - 1];
        let len = match want_length {
            Some(l) => l,
            None if row.def.packed_long || raw & !low_mask(short * 8) != 0 => long,
            None => short,
        };
        if len == long {
            if p.mask >> b & 1 == 1 && p.value >> b & 1 == 0 {
                return None;
            }
            raw |= 1 << b;
        } else if raw >> b & 1 == 1 {
            return None;
        }
        len
    } else {
        lengths[0]
    };
    if want_length.is_some_and(|l| l != length) || raw & !low_mask(length * 8) != 0 {
        return None;
    }
    let (found, len) = match_row(raw)?;
    if found != row_index || len != length {
        return None;
    }
    decode_fields(row_index, row, raw, length).ok()
}

/// Field values that no encoding of the instruction holds.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{name}: no encoding{} holds these field values", of_length(*.length))]
pub struct EncodeError {
    /// Table name of the instruction.
    pub name: &'static str,
    /// The requested length, when one was asked for.
    pub length: Option<u32>,
}

fn of_length(length: Option<u32>) -> String {
    length.map_or_else(String::new, |l| format!(" of {l} bytes"))
}

/// Encodes an instruction from its fields (opcode, operands, immediates, modifiers and the
/// length, and the encoding case of each operand, since some cases print alike).
pub fn encode(ins: &Instruction) -> Result<Vec<u8>, EncodeError> {
    let index = ins.opcode.0;
    let row = &rows()[index];
    let err = EncodeError {
        name: row.def.name,
        length: Some(ins.length),
    };
    let exact = Partial::default()
        .merge(row.exact_value, row.exact_mask)
        .ok_or(err.clone())?;
    let mut partials = vec![exact];
    let ops = row
        .dests
        .iter()
        .zip(&ins.dests)
        .chain(row.srcs.iter().zip(&ins.srcs));
    for ((slot, op), &case) in ops.zip(&ins.cases) {
        let case = slot.cases.get(usize::from(case)).ok_or(err.clone())?;
        let local = match op {
            Some(o) => encode_case(case, o),
            None => encode_absent(case),
        };
        let (v, m) = local.and_then(|l| place(slot, l)).ok_or(err.clone())?;
        partials = partials.into_iter().filter_map(|p| p.merge(v, m)).collect();
    }
    for ((_, b), v) in row.imms.iter().zip(&ins.imms) {
        let x = (*v as u64) & (low_mask(b.width()) as u64);
        partials = partials
            .into_iter()
            .filter_map(|p| p.merge(b.deposit(x), b.mask()))
            .collect();
    }
    for ((_, b), v) in row.mods.iter().zip(&ins.mods) {
        partials = partials
            .into_iter()
            .filter_map(|p| p.merge(b.deposit(u64::from(*v)), b.mask()))
            .collect();
    }
    partials
        .into_iter()
        .filter_map(|p| finish(index, row, p, Some(ins.length)))
        .find(|d| {
            d.dests == ins.dests
                && d.srcs == ins.srcs
                && d.imms == ins.imms
                && d.mods == ins.mods
                && d.cases == ins.cases
        })
        .map(|d| d.bytes())
        .ok_or(err)
}

/// Field values of an instruction to build: operands in table order (`None` for an absent
/// one), immediates and modifier values in table order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields {
    /// Destinations.
    pub dests: Vec<Option<Operand>>,
    /// Sources.
    pub srcs: Vec<Option<Operand>>,
    /// Immediates.
    pub imms: Vec<i64>,
    /// Modifier values (codes of enums, 0/1 for flags).
    pub mods: Vec<u32>,
}

/// Builds the encoding of `opcode` with these field values that Mesa's compiler packs (the
/// shortest, or the long form of a row it always packs long), trying every case of each
/// operand's encoding in table order; the result decodes to exactly these fields.
pub fn build(opcode: crate::Opcode, fields: &Fields) -> Result<Instruction, EncodeError> {
    let index = opcode.0;
    let row = &rows()[index];
    let err = EncodeError {
        name: row.def.name,
        length: None,
    };
    if fields.dests.len() != row.dests.len()
        || fields.srcs.len() != row.srcs.len()
        || fields.imms.len() != row.imms.len()
        || fields.mods.len() != row.mods.len()
    {
        return Err(err);
    }
    let mut partials = vec![Partial::default()
        .merge(row.exact_value, row.exact_mask)
        .ok_or(err.clone())?];
    let ops = row
        .dests
        .iter()
        .zip(&fields.dests)
        .chain(row.srcs.iter().zip(&fields.srcs));
    for (slot, op) in ops {
        let mut next = Vec::new();
        for p in &partials {
            for case in &slot.cases {
                let local = match op {
                    Some(o) => encode_case(case, o),
                    None => encode_absent(case),
                };
                if let Some(q) = local
                    .and_then(|l| place(slot, l))
                    .and_then(|(v, m)| p.merge(v, m))
                {
                    next.push(q);
                }
            }
        }
        next.truncate(64);
        partials = next;
    }
    for ((def, b), v) in row.imms.iter().zip(&fields.imms) {
        let w = b.width();
        let fits = if def.signed {
            *v >= -(1i64 << (w - 1)) && *v < (1i64 << (w - 1))
        } else {
            *v >= 0 && (*v as u128) <= low_mask(w)
        };
        if !fits {
            return Err(err);
        }
        let x = (*v as u64) & (low_mask(w) as u64);
        partials.retain_mut(|p| match p.merge(b.deposit(x), b.mask()) {
            Some(q) => {
                *p = q;
                true
            }
            None => false,
        });
    }
    for ((_, b), v) in row.mods.iter().zip(&fields.mods) {
        partials.retain_mut(|p| match p.merge(b.deposit(u64::from(*v)), b.mask()) {
            Some(q) => {
                *p = q;
                true
            }
            None => false,
        });
    }
    partials
        .into_iter()
        .filter_map(|p| finish(index, row, p, None))
        .filter(|d| {
            d.dests == fields.dests
                && d.srcs == fields.srcs
                && d.imms == fields.imms
                && d.mods == fields.mods
        })
        .min_by_key(|d| d.length)
        .ok_or(err)
}
