//! Bytes to instructions: the first table row whose fixed bits match decides (as Mesa's
//! `test/disasm.py` `match_instr`), then every field must hold a documented value and no
//! bit outside the row's fields may be set.

use std::fmt;

use crate::def::{ModKind, OpMod, ValueKind};
use crate::error::DecodeError;
use crate::isa::{rows, OperandSlot, Row};
use crate::operand::{Hint, Operand, OperandKind, RegFile};
use crate::Opcode;

/// The longest instruction, in bytes.
pub const MAX_LENGTH: usize = 12;

/// A decoded instruction: its row, its bytes and the value of every field.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// The table row.
    pub opcode: Opcode,
    /// Length in bytes.
    pub length: u32,
    /// The instruction word (little-endian bytes, first byte lowest).
    pub raw: u128,
    /// Destinations; `None` is an absent destination (printed `_`).
    pub dests: Vec<Option<Operand>>,
    /// Sources; `None` is an absent source (not printed).
    pub srcs: Vec<Option<Operand>>,
    /// Immediate fields, in table order.
    pub imms: Vec<i64>,
    /// Modifier field values, in table order.
    pub mods: Vec<u32>,
    /// The encoding case (index into the operand encoding's cases) of each destination and
    /// then each source; some cases print alike (a non-negative memory index is the same
    /// text sign- or zero-extended).
    pub cases: Vec<u8>,
}

impl Instruction {
    /// The bytes of the instruction.
    pub fn bytes(&self) -> Vec<u8> {
        self.raw.to_le_bytes()[..self.length as usize].to_vec()
    }

    /// The value of the modifier named `name`, if the instruction has one.
    pub fn modifier(&self, name: &str) -> Option<u32> {
        let row = self.opcode.row();
        row.mods
            .iter()
            .position(|(m, _)| m.name == name)
            .map(|i| self.mods[i])
    }

    /// The value of the immediate named `name`, if the instruction has one.
    pub fn immediate(&self, name: &str) -> Option<i64> {
        let row = self.opcode.row();
        row.imms
            .iter()
            .position(|(m, _)| m.name == name)
            .map(|i| self.imms[i])
    }
}

/// Reads a little-endian word from up to 16 bytes (missing bytes read as zero).
fn word(bytes: &[u8]) -> u128 {
    let mut buf = [0u8; 16];
    let n = bytes.len().min(16);
    buf[..n].copy_from_slice(&bytes[..n]);
    u128::from_le_bytes(buf)
}

fn sign_extend(v: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        return v as i64;
    }
    let shift = 64 - width;
    ((v << shift) as i64) >> shift
}

/// Decodes an operand field value, or says which part is undocumented.
fn decode_operand(slot: &OperandSlot, v: u64) -> Result<(u8, Option<Operand>), &'static str> {
    let index = slot
        .cases
        .iter()
        .position(|c| v & c.exact_mask == c.exact_value)
        .ok_or("no encoding case matches")?;
    let case = &slot.cases[index];
    let Some((vdef, vbits)) = &case.value else {
        return Ok((index as u8, None));
    };
    let mut size = case.size.unwrap_or(0);
    let mut count = case.count;
    let mut op = Operand::plain(OperandKind::Imm(0));
    let (mut size32, mut size64) = (false, false);
    let mut mask_count = None;
    for (m, b) in &case.mods {
        let x = b.extract(u128::from(v));
        match m {
            OpMod::Cache => {
                if x != 0 {
                    op.hint = Hint::Cache;
                }
            }
            OpMod::Hint => {
                op.hint = match x {
                    1 => Hint::None,
                    2 => Hint::Cache,
                    3 => Hint::Discard,
                    _ => return Err("register hint 0 is undocumented"),
                }
            }
            OpMod::Size32 => size32 = x != 0,
            OpMod::Size64 => size64 = x != 0,
            OpMod::Abs => op.abs = x != 0,
            OpMod::Neg => op.neg = x != 0,
            OpMod::Sx => op.sx = x != 0,
            OpMod::Zx => op.sx = x == 0,
            OpMod::Mask => mask_count = Some(x.count_ones()),
            OpMod::Count => count = Some(if x == 0 { 4 } else { x as u32 }),
            OpMod::LastUse => {
                if x != 0 {
                    op.hint = Hint::Discard;
                }
            }
        }
    }
    size64 |= size == 64;
    size32 |= size == 32;
    size = if size64 {
        64
    } else if size32 {
        32
    } else {
        16
    };
    let count = match (mask_count, count) {
        (Some(n), _) => n,
        (None, Some(0)) => 4,
        (None, Some(n)) => n,
        (None, None) => 1,
    };
    let raw_value = vbits.extract(u128::from(v));
    let base = (raw_value << vdef.shift) as u32;
    op.kind = match vdef.kind {
        ValueKind::Reg | ValueKind::Uniform => {
            if size > 16 && base & 1 != 0 {
                return Err("wide register at an odd half");
            }
            OperandKind::Reg {
                file: if vdef.kind == ValueKind::Reg {
                    RegFile::Gpr
                } else {
                    RegFile::Uniform
                },
                base,
                size,
                count,
            }
        }
        ValueKind::Imm => {
            if vdef.signed {
                OperandKind::Imm(sign_extend(raw_value, vbits.width()))
            } else {
                OperandKind::Imm(raw_value as i64)
            }
        }
        ValueKind::FImm => OperandKind::FImm(raw_value as u8),
        ValueKind::Cf => OperandKind::Cf(base),
        ValueKind::Ts => OperandKind::Ts(base),
        ValueKind::Ss => OperandKind::Ss(base),
    };
    Ok((index as u8, Some(op)))
}

/// The row that claims `raw`, with the instruction length it selects.
pub(crate) fn match_row(raw: u128) -> Option<(usize, u32)> {
    candidates(raw as u8).iter().find_map(|&i| {
        let row = &rows()[i];
        let len = row.length_of(raw);
        let r = raw & crate::bits::low_mask(len * 8);
        (r & row.exact_mask == row.exact_value).then_some((i, len))
    })
}

/// The rows whose fixed bits allow `first` as an instruction's first byte, in table order
/// (every instruction is at least 2 bytes, so its first byte is always compared): a
/// look-up instead of a scan of the whole table for every instruction decoded.
fn candidates(first: u8) -> &'static [usize] {
    static BY_FIRST_BYTE: std::sync::OnceLock<Vec<Vec<usize>>> = std::sync::OnceLock::new();
    &BY_FIRST_BYTE.get_or_init(|| {
        (0..=255u8)
            .map(|b| {
                rows()
                    .iter()
                    .enumerate()
                    .filter(|(_, row)| {
                        u128::from(b) & row.exact_mask & 0xff == row.exact_value & 0xff
                    })
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect()
    })[usize::from(first)]
}

/// Decodes the fields of `raw` (already truncated to its length) under `row`.
pub(crate) fn decode_fields(
    index: usize,
    row: &Row,
    raw: u128,
    length: u32,
) -> Result<Instruction, (&'static str, String)> {
    let stray = raw & !row.known_mask;
    if stray != 0 {
        let bits: Vec<String> = (0..128)
            .filter(|b| (stray >> b) & 1 == 1)
            .map(|b| b.to_string())
            .collect();
        return Err((
            row.def.name,
            format!("bits {} are set outside every field", bits.join(", ")),
        ));
    }
    let operand = |slot: &OperandSlot| {
        decode_operand(slot, slot.bits.extract(raw))
            .map_err(|e| (row.def.name, format!("{} operand: {e}", slot.enc.name)))
    };
    let mut cases = Vec::with_capacity(row.dests.len() + row.srcs.len());
    let mut dests = Vec::with_capacity(row.dests.len());
    for slot in &row.dests {
        let (c, o) = operand(slot)?;
        cases.push(c);
        dests.push(o);
    }
    let mut srcs = Vec::with_capacity(row.srcs.len());
    for slot in &row.srcs {
        let (c, o) = operand(slot)?;
        cases.push(c);
        srcs.push(o);
    }
    let imms = row
        .imms
        .iter()
        .map(|(d, b)| {
            let v = b.extract(raw);
            if d.signed {
                sign_extend(v, b.width())
            } else {
                v as i64
            }
        })
        .collect();
    let mut mods = Vec::with_capacity(row.mods.len());
    for (d, b) in &row.mods {
        let v = b.extract(raw) as u32;
        if let ModKind::Enum(e) = d.kind {
            if !e.values.iter().any(|(c, _)| *c == v) {
                return Err((row.def.name, format!("{} {v} is undocumented", e.name)));
            }
        }
        mods.push(v);
    }
    Ok(Instruction {
        opcode: Opcode(index),
        length,
        raw,
        dests,
        srcs,
        imms,
        mods,
        cases,
    })
}

/// Decodes the instruction at the start of `bytes`, which sits at byte `offset` of its
/// program (used in errors).
pub fn decode_one(bytes: &[u8], offset: usize) -> Result<Instruction, DecodeError> {
    let raw = word(bytes);
    let hex = |n: usize| -> String {
        bytes[..n.min(bytes.len())]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let Some((index, length)) = match_row(raw) else {
        return Err(DecodeError::Unknown {
            offset,
            bytes: hex(2),
        });
    };
    if length as usize > bytes.len() {
        return Err(DecodeError::Truncated {
            offset,
            name: rows()[index].def.name,
            length,
            left: bytes.len(),
        });
    }
    let raw = raw & crate::bits::low_mask(length * 8);
    decode_fields(index, &rows()[index], raw, length).map_err(|(name, reason)| {
        DecodeError::Invalid {
            offset,
            name,
            bytes: hex(length as usize),
            reason,
        }
    })
}

/// Decodes a whole program: `(offset, instruction)` pairs.
pub fn decode(bytes: &[u8]) -> Result<Vec<(usize, Instruction)>, DecodeError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let ins = decode_one(&bytes[at..], at)?;
        let len = ins.length as usize;
        out.push((at, ins));
        at += len;
    }
    Ok(out)
}

impl fmt::Display for Instruction {
    /// Mesa's disassembler text: mnemonic padded to 8 columns, then the destinations
    /// (`_` when absent), present sources, immediates and non-default modifiers, joined by
    /// `", "`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = crate::print::parts(self)
            .iter()
            .map(ToString::to_string)
            .collect();
        crate::print::write_line(f, self.opcode.mnemonic(), &parts)
    }
}
