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

use crate::decode::decode_first;
use crate::dont_care;
use crate::encode::encode_inst;
use crate::error::AsmError;
use crate::inst::Inst;
use crate::program::{Item, Program};
use crate::target::{Target, WaveSize};

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

/// The most dwords one instruction takes (RDNA 4's 96-bit formats; a VOP3 word with its
/// literal), and so the most an `(invalid instruction)` line and the lines after it give
/// one instruction.
const MAX_INSTRUCTION_DWORDS: usize = 4;

/// The instruction of an `(invalid instruction)` line, read from the dwords listed beside it.
///
/// LLVM's disassembler writes that line for a dword it does not know (LLVM 19 and RDNA 4's
/// `image_bvh8_intersect_ray`, for one) and Mesa's `print_instr` then moves on by one dword,
/// so the rest of a longer instruction is printed as whatever those dwords look like
/// (`image_bvh8_intersect_ray` as two `(invalid instruction)` lines and a `v_lshrrev_b32`,
/// `ds_bvh_stack_push8_pop1_rtn_b32` as one and a `v_or_b32`). The instruction is what
/// gpuabi's decoder makes of the dwords of this line and the lines after it; it must end
/// where one of those lines' dwords end, and takes that many lines. `following` are the
/// lines after `raw` with their 1-based numbers. Returns the instruction, its dwords and
/// how many following lines it took.
pub(super) fn unnamed_instruction<'a>(
    raw: &str,
    (line, column): (usize, usize),
    following: impl Iterator<Item = (usize, &'a str)>,
    target: Target,
    wave: WaveSize,
) -> Result<(Inst, Vec<u32>, usize), AsmError> {
    let comment = |text: &str| text.find(';').map_or("", |at| &text[at + 1..]).to_string();
    let first = listed_words(&comment(raw)).ok_or_else(|| {
        AsmError::new(
            line,
            column,
            "`(invalid instruction)` without its encoding: the disassembler did not know the \
             instruction, and without the dwords listed in a comment (`; d3e04010`) gpuabi \
             cannot read it either",
        )
    })?;
    // This line's dwords, then those of the lines after it, as far as one instruction can
    // reach.
    let mut chunks = vec![(line, first)];
    for (number, text) in following {
        if chunks.iter().map(|(_, w)| w.len()).sum::<usize>() >= MAX_INSTRUCTION_DWORDS {
            break;
        }
        match listed_words(&comment(text)) {
            Some(words) => chunks.push((number, words)),
            None => break,
        }
    }
    let bytes: Vec<u8> = chunks
        .iter()
        .flat_map(|(_, w)| w.iter().flat_map(|d| d.to_le_bytes()))
        .collect();
    let hex = |words: &[u32]| {
        words
            .iter()
            .map(|w| format!("{w:08x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (inst, size) = decode_first(&bytes, target, wave).map_err(|e| {
        AsmError::new(
            line,
            column,
            format!(
                "`(invalid instruction)`: the dwords from here on ({}) are no instruction \
                 gpuabi models on {target}: {}",
                hex(&chunks
                    .iter()
                    .flat_map(|(_, w)| w.clone())
                    .collect::<Vec<_>>()),
                e.message
            ),
        )
    })?;
    let mut words = Vec::new();
    for (taken, (number, chunk)) in chunks.iter().enumerate() {
        words.extend_from_slice(chunk);
        if words.len() * 4 == size {
            return Ok((inst, words, taken));
        }
        if words.len() * 4 > size {
            return Err(AsmError::new(
                line,
                column,
                format!(
                    "`(invalid instruction)`: its dwords start `{}`, {} dwords, which end \
                     inside the encoding listed on line {number} ({}); the listing does not \
                     split into instructions there",
                    crate::asm::printer::print_inst(&inst, target),
                    size / 4,
                    hex(chunk)
                ),
            ));
        }
    }
    unreachable!("the decoder reads no more bytes than it was given")
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
