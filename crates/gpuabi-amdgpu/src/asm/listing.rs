//! Encoding listings: the machine code a disassembly prints beside each instruction.
//!
//! Mesa's ACO prints its programs (RADV's `RADV_DEBUG=asm`, the "Assembly" representation of
//! `VK_KHR_pipeline_executable_properties`) as LLVM's disassembler spells each instruction,
//! followed by the dwords ACO itself encoded (`aco_print_asm.cpp`, `print_asm_llvm`):
//!
//! ```text
//! BB1:
//!     s_mov_b32 s16, s5                                           ; be900005
//!     s_nop 0                                                     ; bf800000
//!     (then repeated 2 times)
//! ```
//!
//! An instruction line whose comment is nothing but 8-digit hex words lists its encoding.
//! The assembler compares each listing with its own encoding of the text: where they differ
//! only in bits the hardware ignores ([`crate::dont_care`]), the instruction takes the
//! listed bits, so the program encodes to exactly the listed bytes; any other difference is
//! a [`ListingMismatch`], which `parse` ignores (a comment does not change the program) and
//! [`super::parse_listed`]'s caller may report.

use crate::dont_care;
use crate::encode::encode_inst;
use crate::program::{Item, Program};

/// Where an instruction's listed encoding is: the item it belongs to and its dwords.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Index of the instruction in `Program::items`.
    pub item: usize,
    /// 1-based line of the listing.
    pub line: usize,
    /// The listed dwords, in the order printed.
    pub words: Vec<u32>,
}

/// An instruction whose listed encoding differs from the assembler's in bits that matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingMismatch {
    /// 1-based line of the instruction.
    pub line: usize,
    /// Index of the instruction in `Program::items`.
    pub item: usize,
    /// The assembler's bytes, or why it could not encode the instruction.
    pub ours: Result<Vec<u8>, String>,
    /// The listed bytes.
    pub listed: Vec<u8>,
}

/// The dwords of a comment that lists an encoding: one or more whitespace-separated words
/// of exactly eight hex digits and nothing else.
pub fn listed_words(comment: &str) -> Option<Vec<u32>> {
    let words: Vec<&str> = comment.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    words
        .iter()
        .map(|w| {
            (w.len() == 8 && w.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(w, 16).ok())
                .flatten()
        })
        .collect()
}

/// The count of an ACO repeat line, `(then repeated N times)`.
pub fn repeat_count(line: &str) -> Option<&str> {
    line.strip_prefix("(then repeated ")?
        .strip_suffix(" times)")
        .map(str::trim)
}

/// Compares every listed instruction with its encoding. Differences in ignored bits are
/// taken into the instruction ([`crate::Inst::dont_care`]); the others are returned, in
/// program order.
pub fn adopt(program: &mut Program, listed: &[Listed]) -> Vec<ListingMismatch> {
    let layout = program.layout();
    let (target, wave) = (program.target, program.wave);
    let mut mismatches = Vec::new();
    for l in listed {
        let listed_bytes: Vec<u8> = l.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let Some(entry) = program.items.get_mut(l.item) else {
            continue;
        };
        let Item::Inst(inst) = &mut entry.item else {
            continue;
        };
        let offset = layout.offsets[l.item];
        let ours = encode_inst(inst, target, wave, offset, &layout).map(|c| c.to_vec());
        let mismatch = match &ours {
            Ok(code) if *code == listed_bytes => None,
            Ok(code) => match dont_care::difference(inst, target, code, &listed_bytes) {
                Some(bits) => {
                    inst.dont_care ^= bits;
                    None
                }
                None => Some(ours.clone()),
            },
            Err(_) => Some(ours.clone()),
        };
        if let Some(ours) = mismatch {
            mismatches.push(ListingMismatch {
                line: l.line,
                item: l.item,
                ours,
                listed: listed_bytes,
            });
        }
    }
    mismatches
}
