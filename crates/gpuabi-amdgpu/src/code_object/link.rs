//! Relocation: the code object's sections placed at addresses, its relocations applied,
//! and its `.text` decoded into a [`Program`] that runs at the placed address.
//!
//! Values follow AMDGPUUsage, "Relocation Records": S is the symbol's placed address, A
//! the addend, P the placed address of the relocated bytes, G the address of the
//! symbol's GOT entry. gpuabi's rules where a linker would decide: the GOT is an array of
//! 64-bit entries, one per symbol that a `GOTPCREL` relocation names, in the order first
//! named ([`CodeObject::got_symbols`]); an undefined symbol is an error (gpuabi runs one
//! object, nothing links it to others).
//!
//! The machine model writes a constant that fits an inline constant as one, while a
//! relocated operand is always a 32-bit literal (the relocation patches it). So every
//! relocated literal becomes the label difference `.Lreloc_N-.Lreloc_N+VALUE` (VALUE the
//! relocated 32 bits read as a signed number), with
//! `.Lreloc_N` a label at the instruction: an expression is always encoded as a literal,
//! which keeps every instruction at its address, and its value is the relocated one.

use std::collections::HashMap;

use crate::decode::decode_with_symbols;
use crate::encoding;
use crate::operand::{Expr, Imm, Operand};
use crate::program::{Item, Program};
use crate::target::WaveSize;

use super::{error, section_place, CodeObject, CodeObjectError, Place, RelocKind, Relocation};

/// Prefix of the labels [`CodeObject::program`] puts at relocated instructions; the byte
/// offset in `.text` follows in hex.
pub const RELOCATED_LABEL_PREFIX: &str = ".Lreloc_";

/// Written into relocated literals before decoding, so that the decoder sees a literal
/// that is no inline constant.
const PLACEHOLDER: u32 = 0x4c4c_4c4c;

/// Where the sections of a code object are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Address of `.text`.
    pub text: u64,
    /// Address of each of `CodeObject::data`, in order.
    pub data: Vec<u64>,
    /// Address of the GOT ([`CodeObject::got_symbols`], 8 bytes each).
    pub got: u64,
}

impl CodeObject {
    /// The symbols `GOTPCREL` relocations name, in the order first named: the GOT's entries.
    pub fn got_symbols(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for r in self
            .data
            .iter()
            .chain(std::iter::once(&self.text))
            .flat_map(|s| &s.relocations)
        {
            if r.kind.uses_got() && !out.contains(&r.symbol) {
                out.push(r.symbol);
            }
        }
        out
    }

    /// The placed address of symbol `index`.
    pub fn symbol_address(
        &self,
        index: usize,
        placement: &Placement,
    ) -> Result<u64, CodeObjectError> {
        let s = &self.symbols[index];
        match s.place {
            Place::Text => Ok(placement.text.wrapping_add(s.value)),
            Place::Data(d) => placement
                .data
                .get(d)
                .map(|base| base.wrapping_add(s.value))
                .ok_or_else(|| error("placement", format!("no address for section {d}"))),
            Place::Absolute => Ok(s.value),
            Place::Undefined => Err(error(
                "symbols",
                format!(
                    "`{}` is not defined in the object (gpuabi runs a single object; link it \
                     into one first)",
                    s.name
                ),
            )),
        }
    }

    /// The bytes of the GOT: the placed address of every [`CodeObject::got_symbols`] entry.
    pub fn got_bytes(&self, placement: &Placement) -> Result<Vec<u8>, CodeObjectError> {
        let mut out = Vec::new();
        for s in self.got_symbols() {
            out.extend_from_slice(&self.symbol_address(s, placement)?.to_le_bytes());
        }
        Ok(out)
    }

    /// The value relocation `r` of a section placed at `base` writes, truncated to its
    /// width.
    fn value(
        &self,
        r: &Relocation,
        base: u64,
        placement: &Placement,
    ) -> Result<u64, CodeObjectError> {
        let p = base.wrapping_add(r.offset);
        let a = r.addend as u64;
        let g = || -> Result<u64, CodeObjectError> {
            let i = self
                .got_symbols()
                .iter()
                .position(|&s| s == r.symbol)
                .unwrap_or(0);
            Ok(placement.got + 8 * i as u64)
        };
        use RelocKind::*;
        let s = if r.kind.uses_got() {
            g()?
        } else {
            self.symbol_address(r.symbol, placement)?
        };
        let v = match r.kind {
            Abs32Lo | Abs32 => s.wrapping_add(a) & 0xffff_ffff,
            Abs32Hi => s.wrapping_add(a) >> 32,
            Abs64 => s.wrapping_add(a),
            Rel32 | Rel32Lo | GotPcRel | GotPcRel32Lo => {
                s.wrapping_add(a).wrapping_sub(p) & 0xffff_ffff
            }
            Rel32Hi | GotPcRel32Hi => s.wrapping_add(a).wrapping_sub(p) >> 32,
            Rel64 => s.wrapping_add(a).wrapping_sub(p),
        };
        Ok(v)
    }

    /// The bytes of data section `index` with its relocations applied for `placement`.
    pub fn data_bytes(
        &self,
        index: usize,
        placement: &Placement,
    ) -> Result<Vec<u8>, CodeObjectError> {
        let section = &self.data[index];
        let base = placement.data.get(index).copied().unwrap_or(0);
        let mut bytes = section.bytes.clone();
        for r in &section.relocations {
            let v = self
                .value(r, base, placement)
                .map_err(|e| error(section_place(&section.name, r.offset), e.to_string()))?;
            let at = r.offset as usize;
            let n = r.kind.bytes() as usize;
            bytes[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
        }
        Ok(bytes)
    }

    /// The end of the code in `.text`: the end of the last function symbol (what follows
    /// is `s_code_end` padding, which is not code), or the whole section when no symbol
    /// has a size.
    pub fn code_end(&self) -> usize {
        let len = self.text.bytes.len() as u64;
        self.symbols
            .iter()
            .filter(|s| s.place == Place::Text && s.size > 0)
            .map(|s| s.value.saturating_add(s.size).min(len))
            .max()
            .unwrap_or(len) as usize
    }

    /// Decodes `.text` for `wave` lanes with its relocations applied for `placement`:
    /// labels at the symbols, every relocated literal an expression of its relocated
    /// value (see the module documentation).
    pub fn program(
        &self,
        wave: WaveSize,
        placement: &Placement,
    ) -> Result<Program, CodeObjectError> {
        let end = self.code_end();
        let mut bytes = self.text.bytes[..end].to_vec();
        let mut values: HashMap<u64, (RelocKind, u64)> = HashMap::new();
        for r in &self.text.relocations {
            let place = section_place(&self.text.name, r.offset);
            if r.kind.bytes() != 4 || r.offset + 4 > end as u64 {
                return Err(error(
                    place,
                    format!(
                        "{} does not patch a 32-bit literal of the code",
                        r.kind.name()
                    ),
                ));
            }
            let v = self
                .value(r, placement.text, placement)
                .map_err(|e| error(place.clone(), e.to_string()))?;
            let at = r.offset as usize;
            bytes[at..at + 4].copy_from_slice(&PLACEHOLDER.to_le_bytes());
            values.insert(r.offset, (r.kind, v));
        }
        let labels: Vec<(String, u32)> = self
            .text_labels()
            .into_iter()
            .filter(|l| (l.1 as usize) < end)
            .collect();
        let mut program = decode_with_symbols(&bytes, self.target, wave, &labels)
            .map_err(|e| error(section_place(&self.text.name, e.offset as u64), e.message))?;
        let layout = program.layout();
        let mut inserts = Vec::new();
        for (i, (item, offset)) in program.items.iter_mut().zip(&layout.offsets).enumerate() {
            let Item::Inst(inst) = &mut item.item else {
                continue;
            };
            let size = encoding::size(inst, self.target, wave);
            let literal_at = u64::from(offset + size) - 4;
            let Some((kind, v)) = values.remove(&literal_at) else {
                continue;
            };
            let label = format!("{RELOCATED_LABEL_PREFIX}{offset:x}");
            let operand = inst
                .operands
                .iter_mut()
                .find(|o| matches!(o, Operand::Imm(Imm::Int(n)) if *n == i64::from(PLACEHOLDER)))
                .ok_or_else(|| {
                    error(
                        section_place(&self.text.name, literal_at),
                        format!("{} does not patch an operand's literal", kind.name()),
                    )
                })?;
            *operand = Operand::Expr(Box::new(Expr {
                plus: label.clone(),
                minus: Some(label.clone()),
                // Printed as a signed 32-bit number, which the literal holds either way.
                addend: i64::from(v as u32 as i32),
                reloc: None,
            }));
            inserts.push((i, label));
        }
        if let Some((&offset, (kind, _))) = values.iter().min_by_key(|v| v.0) {
            return Err(error(
                section_place(&self.text.name, offset),
                format!(
                    "{} does not patch the literal constant of an instruction",
                    kind.name()
                ),
            ));
        }
        for (i, label) in inserts.into_iter().rev() {
            program.items.insert(
                i,
                crate::program::Entry {
                    item: Item::Label(label),
                    origin: Default::default(),
                },
            );
        }
        Ok(program)
    }
}
