//! Loading a program's data the way a code object loader would: every data section
//! (`.rodata`, `.data`, `.bss`, ...) gets global memory, label addresses in data are filled
//! in, symbols read through the global offset table get a GOT entry each, and literals with
//! relocation specifiers (`sym@rel32@lo+4`, `sym@gotpcrel32@hi+12`, `sym@abs32@lo`) get
//! their values (LLVM's AMDGPUUsage, "Relocation Records": `R_AMDGPU_REL32_LO` is the low
//! half of S + A - P, `R_AMDGPU_GOTPCREL32_LO` of G + GOT + A - P, `R_AMDGPU_ABS32_LO` of
//! S + A).
//!
//! Decisions: data sections lie from [`DATA_BASE`] on, each aligned to its largest
//! alignment and at least 64 KiB, in order of first appearance, with the GOT last (one
//! 8-byte entry per symbol read through it, in order of first use); they are buffers of
//! global memory named after the section (`.rodata`, and `.got` for the table), so that
//! loads and stores reach them with the usual bounds checks.

use std::collections::HashMap;

use gpuabi_amdgpu::program::MAX_DATA_BYTES;
use gpuabi_amdgpu::{Expr, Item, Operand, Program, ProgramError};

use crate::error::SimError;

/// Where the first data section is loaded: far above code ([`crate::image::CODE_BASE`])
/// and above where the buffers of a run are placed, below 2^47.
pub const DATA_BASE: u64 = 0x4000_0000_0000;

/// Name of the buffer that holds the global offset table.
pub const GOT_BUFFER: &str = ".got";

/// Data sections and the GOT together may hold at most this many bytes (256 MiB).
pub const MAX_SEGMENT_BYTES: u64 = 4 * MAX_DATA_BYTES;

const SEGMENT_ALIGN: u64 = 0x1_0000;

/// A piece of global memory the program brings with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The section name (or [`GOT_BUFFER`]).
    pub name: String,
    /// Its address.
    pub base: u64,
    /// Its contents, relocated.
    pub bytes: Vec<u8>,
}

/// The addresses of a program's data labels and GOT entries, and its segments.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    data: HashMap<String, u64>,
    got: HashMap<String, u64>,
    /// The data sections and the GOT, ready to be added to memory.
    pub segments: Vec<Segment>,
}

fn invalid(message: String) -> SimError {
    SimError::Invalid(ProgramError {
        origin: Default::default(),
        message,
    })
}

impl Symbols {
    /// Lays out the data sections and GOT of `program`, whose code labels lie at
    /// `code` (byte addresses).
    pub fn load(program: &Program, code: &HashMap<String, u64>) -> Result<Symbols, SimError> {
        let sections = program.data_sections();
        let mut symbols = Symbols::default();
        let mut at = DATA_BASE;
        let mut placed = Vec::with_capacity(sections.len());
        for s in &sections {
            let align = u64::from(s.align).max(SEGMENT_ALIGN);
            let base = at.next_multiple_of(align);
            for (name, offset) in &s.labels {
                symbols.data.insert(name.clone(), base + u64::from(*offset));
            }
            at = (base + s.bytes.len() as u64).next_multiple_of(SEGMENT_ALIGN) + SEGMENT_ALIGN;
            placed.push(base);
        }
        // GOT entries in order of first use.
        let mut got_names: Vec<&str> = Vec::new();
        for entry in &program.items {
            if let Item::Inst(inst) = &entry.item {
                for o in &inst.operands {
                    if let Operand::Expr(e) = o {
                        if e.reloc.is_some_and(|r| r.through_got())
                            && !got_names.contains(&e.plus.as_str())
                        {
                            got_names.push(&e.plus);
                        }
                    }
                }
            }
        }
        let got_base = at;
        for (i, name) in got_names.iter().enumerate() {
            symbols
                .got
                .insert(name.to_string(), got_base + 8 * i as u64);
        }
        let total = at - DATA_BASE + 8 * got_names.len() as u64;
        if total > MAX_SEGMENT_BYTES {
            return Err(invalid(format!(
                "the data sections need {total} bytes of address space, more than the {} MiB \
                 the simulator loads",
                MAX_SEGMENT_BYTES >> 20
            )));
        }
        for (s, base) in sections.into_iter().zip(placed) {
            let mut bytes = s.bytes;
            for f in &s.fixups {
                let value = symbols.address(&f.expr, code).ok_or_else(|| {
                    invalid(format!(
                        "section `{}`: `{}` names an undefined label",
                        s.name, f.expr
                    ))
                })?;
                let at = f.offset as usize;
                let n = usize::from(f.size).min(8);
                bytes[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
            }
            symbols.segments.push(Segment {
                name: s.name,
                base,
                bytes,
            });
        }
        if !got_names.is_empty() {
            let mut bytes = Vec::with_capacity(8 * got_names.len());
            for name in &got_names {
                let addr = symbols
                    .symbol(name, code)
                    .ok_or_else(|| invalid(format!("GOT entry for undefined symbol `{name}`")))?;
                bytes.extend_from_slice(&addr.to_le_bytes());
            }
            symbols.segments.push(Segment {
                name: GOT_BUFFER.into(),
                base: got_base,
                bytes,
            });
        }
        Ok(symbols)
    }

    /// The address of a code or data label.
    pub fn symbol(&self, name: &str, code: &HashMap<String, u64>) -> Option<u64> {
        code.get(name).or_else(|| self.data.get(name)).copied()
    }

    /// S + A for an expression without a relocation specifier or label difference.
    fn address(&self, e: &Expr, code: &HashMap<String, u64>) -> Option<u64> {
        Some(self.symbol(&e.plus, code)?.wrapping_add(e.addend as u64))
    }

    /// The 32-bit value of a literal with a relocation specifier, the literal being at byte
    /// address `p`; `None` if `e` has no specifier or names an unknown symbol.
    pub fn relocated(&self, e: &Expr, p: u64, code: &HashMap<String, u64>) -> Option<u32> {
        let r = e.reloc?;
        let s = if r.through_got() {
            *self.got.get(&e.plus)?
        } else {
            self.symbol(&e.plus, code)?
        };
        let mut value = s.wrapping_add(e.addend as u64);
        if r.pc_relative() {
            value = value.wrapping_sub(p);
        }
        Some(r.half(value as i64))
    }
}
