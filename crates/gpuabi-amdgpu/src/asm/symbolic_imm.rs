//! Immediates that LLVM's AMDGPU assembler also takes by name, as llc prints them:
//! `s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)` and
//! `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)`. Each becomes the 16-bit immediate it encodes, so
//! the rest of the model (and the printer, which writes the number) treats it as any
//! other immediate.
//!
//! `s_delay_alu` (RDNA 3): INSTID0 in bits 3:0, INSTSKIP in bits 6:4, INSTID1 in bits 10:7,
//! with the values of AMD's "RDNA3 ISA" reference guide (S_DELAY_ALU) and LLVM's
//! `AMDGPUInstPrinter::printSDelayALU`. `s_sendmsg`/`s_sendmsg_rtn_b32`/`s_sendmsg_rtn_b64`:
//! the message id in bits 7:0; the messages llc emits are known by name with their RDNA 3
//! ids (LLVM's `AMDGPUAsmUtils.cpp`): MSG_DEALLOC_VGPRS (3), which llc puts before the
//! `s_endpgm` of kernels, and MSG_INTERRUPT (1) and MSG_RTN_GET_DOORBELL (128) of its
//! `llvm.trap` sequence; and the other messages with an answer: MSG_RTN_GET_DDID (129),
//! MSG_RTN_GET_TMA (130), MSG_RTN_GET_REALTIME (131) and MSG_RTN_GET_TBA (133).

use super::lexer::{Tok, Token};
use crate::opcodes::Opcode;

/// The dependency names of INSTID0/INSTID1, by value.
const INST_IDS: [&str; 12] = [
    "NO_DEP",
    "VALU_DEP_1",
    "VALU_DEP_2",
    "VALU_DEP_3",
    "VALU_DEP_4",
    "TRANS32_DEP_1",
    "TRANS32_DEP_2",
    "TRANS32_DEP_3",
    "FMA_ACCUM_CYCLE_1",
    "SALU_CYCLE_1",
    "SALU_CYCLE_2",
    "SALU_CYCLE_3",
];

/// The names of INSTSKIP, by value.
const INST_SKIPS: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];

/// The `s_delay_alu` fields: name, bit position, value names.
const DELAY_FIELDS: [(&str, u32, &[&str]); 3] = [
    ("instid0", 0, &INST_IDS),
    ("instskip", 4, &INST_SKIPS),
    ("instid1", 7, &INST_IDS),
];

/// Messages of `s_sendmsg` known by name, with their ids.
const MESSAGES: [(&str, i64); 7] = [
    ("MSG_INTERRUPT", 1),
    ("MSG_DEALLOC_VGPRS", 3),
    ("MSG_RTN_GET_DOORBELL", 128),
    ("MSG_RTN_GET_DDID", 129),
    ("MSG_RTN_GET_TMA", 130),
    ("MSG_RTN_GET_REALTIME", 131),
    ("MSG_RTN_GET_TBA", 133),
];

/// Whether `op` takes a named immediate, and `tokens` (from the operand on) start one.
pub fn applies(op: Opcode, tokens: &[Token]) -> bool {
    matches!(
        op,
        Opcode::SDelayAlu
            | Opcode::SSendmsg
            | Opcode::SSendmsgRtnB32
            | Opcode::SSendmsgRtnB64
            | Opcode::SSetregB32
            | Opcode::SGetregB32
    ) && matches!(
        tokens.first(),
        Some(Token {
            tok: Tok::Word(_),
            ..
        })
    )
}

/// Parses the named immediate of `op` at the start of `tokens`: its value and the number
/// of tokens it took, or the index of the offending token and what was expected.
pub fn parse(op: Opcode, tokens: &[Token]) -> Result<(i64, usize), (usize, String)> {
    match op {
        Opcode::SDelayAlu => delay_alu(tokens),
        Opcode::SSetregB32 | Opcode::SGetregB32 => hwreg(tokens),
        _ => sendmsg(tokens),
    }
}

/// `NAME(VALUE)` at `at`: the name, the value word and the index after `)`.
fn call(tokens: &[Token], at: usize) -> Result<(&str, &str, usize), (usize, String)> {
    let word = |i: usize| match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |i: usize, c: char| matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Punct(p)) if *p == c);
    let name = word(at).ok_or((at, "expected a name like `instid0`".to_string()))?;
    if !punct(at + 1, '(') {
        return Err((at + 1, format!("expected `(` after `{name}`")));
    }
    let value = word(at + 2).ok_or((at + 2, format!("expected a value name in `{name}(..)`")))?;
    if !punct(at + 3, ')') {
        return Err((at + 3, "expected `)`".to_string()));
    }
    Ok((name, value, at + 4))
}

fn delay_alu(tokens: &[Token]) -> Result<(i64, usize), (usize, String)> {
    let mut value = 0i64;
    let mut seen = [false; 3];
    let mut at = 0;
    loop {
        let (name, arg, next) = call(tokens, at)?;
        let Some(f) = DELAY_FIELDS.iter().position(|(n, _, _)| *n == name) else {
            return Err((
                at,
                format!("`{name}` is not one of instid0, instskip, instid1"),
            ));
        };
        if std::mem::replace(&mut seen[f], true) {
            return Err((at, format!("`{name}` is given twice")));
        }
        let (_, shift, names) = DELAY_FIELDS[f];
        let v = names.iter().position(|n| *n == arg).ok_or_else(|| {
            (
                at + 2,
                format!("`{arg}` is not a value of `{name}` ({})", names.join(", ")),
            )
        })?;
        value |= (v as i64) << shift;
        at = next;
        match tokens.get(at).map(|t| &t.tok) {
            Some(Tok::Punct('|')) => at += 1,
            _ => return Ok((value, at)),
        }
    }
}

/// Hardware registers known by name (LLVM's `AMDGPUAsmUtils.cpp`, RDNA ids): the flat
/// scratch base halves llc-19 sets in gfx10 kernels.
pub const HW_REGS: [(&str, i64); 2] = [("HW_REG_FLAT_SCR_LO", 20), ("HW_REG_FLAT_SCR_HI", 21)];

/// The MODE register (LLVM's `HW_REG_MODE`, id 1 on every target), whose float fields
/// (7:0) RDNA 4's scalar float arithmetic follows in the simulator.
pub const HW_REG_MODE: i64 = 1;

/// The SIMM16 of `hwreg(NAME)` for hardware register `id`: the whole register, offset 0
/// and size 32 (see [`hwreg`]).
pub fn hwreg_whole(id: i64) -> i64 {
    id | 31 << 11
}

/// `hwreg(NAME)` or `hwreg(NAME, OFFSET, SIZE)`: the register id in bits 5:0, the offset of
/// the field in bits 10:6 and its size - 1 in bits 15:11 (`hwreg(NAME)` is the whole
/// register, offset 0 and size 32), as the SOPK SIMM16 of `s_setreg_b32` and `s_getreg_b32`
/// ("RDNA2 ISA"; LLVM's `hwreg(HW_REG_MODE, 0, 4)` is 0x1801).
fn hwreg(tokens: &[Token]) -> Result<(i64, usize), (usize, String)> {
    let word = |i: usize| match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let punct =
        |i: usize, c: char| matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Punct(p)) if *p == c);
    if word(0) != Some("hwreg") || !punct(1, '(') {
        return Err((0, "expected `hwreg(HW_REG_...)` or a number".to_string()));
    }
    let arg = word(2).ok_or((2, "expected a hardware register name".to_string()))?;
    let names = || {
        HW_REGS
            .map(|(n, _)| n)
            .into_iter()
            .chain(["HW_REG_MODE"])
            .collect::<Vec<_>>()
            .join(", ")
    };
    let id = HW_REGS
        .iter()
        .chain(&[("HW_REG_MODE", HW_REG_MODE)])
        .find(|(n, _)| *n == arg)
        .map(|(_, id)| *id)
        .ok_or_else(|| {
            (
                2,
                format!(
                    "`{arg}` is not a hardware register gpuabi models ({})",
                    names()
                ),
            )
        })?;
    if punct(3, ')') {
        return Ok((hwreg_whole(id), 4));
    }
    // `, OFFSET, SIZE)`: offset 0..31, size 1..32, the field inside the register.
    let number = |i: usize, what: &str, range: std::ops::RangeInclusive<i64>| {
        let text = match tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Number(n)) => n.as_str(),
            _ => return Err((i, format!("expected the field's {what}"))),
        };
        let v = text
            .strip_prefix("0x")
            .map_or_else(
                || text.parse::<i64>().ok(),
                |h| i64::from_str_radix(h, 16).ok(),
            )
            .filter(|v| range.contains(v))
            .ok_or((
                i,
                format!("expected the field's {what} ({range:?}), found `{text}`"),
            ))?;
        Ok::<i64, (usize, String)>(v)
    };
    if !punct(3, ',') {
        return Err((3, "expected `)` or `, OFFSET, SIZE)`".to_string()));
    }
    let offset = number(4, "offset", 0..=31)?;
    if !punct(5, ',') {
        return Err((5, "expected `, SIZE)`".to_string()));
    }
    let size = number(6, "size", 1..=32)?;
    if offset + size > 32 {
        return Err((
            6,
            format!("a field of {size} bits at bit {offset} passes bit 31"),
        ));
    }
    if !punct(7, ')') {
        return Err((7, "expected `)`".to_string()));
    }
    Ok((id | offset << 6 | (size - 1) << 11, 8))
}

fn sendmsg(tokens: &[Token]) -> Result<(i64, usize), (usize, String)> {
    let (name, arg, next) = call(tokens, 0)?;
    if name != "sendmsg" {
        return Err((0, "expected `sendmsg(MSG_...)` or a number".to_string()));
    }
    let id = MESSAGES
        .iter()
        .find(|(n, _)| *n == arg)
        .map(|(_, id)| *id)
        .ok_or_else(|| {
            (
                2,
                format!(
                    "`{arg}` is not a message the model knows by name (MSG_INTERRUPT, \
                     MSG_DEALLOC_VGPRS, MSG_RTN_GET_DOORBELL)"
                ),
            )
        })?;
    Ok((id, next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::lexer::lex;

    fn value(op: Opcode, text: &str) -> Result<i64, String> {
        let tokens = lex(text, 1).unwrap();
        parse(op, &tokens)
            .map(|(v, used)| {
                assert_eq!(used, tokens.len(), "{text}");
                v
            })
            .map_err(|(_, m)| m)
    }

    #[test]
    fn delay_alu_fields() {
        // instid0 = 1 (VALU_DEP_1), instskip = 1 (NEXT) << 4, instid1 = 9 (SALU_CYCLE_1) << 7:
        // 1 + 16 + 1152 = 1169.
        assert_eq!(
            value(
                Opcode::SDelayAlu,
                "instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)"
            ),
            Ok(1169)
        );
        assert_eq!(value(Opcode::SDelayAlu, "instid0(TRANS32_DEP_3)"), Ok(7));
        assert_eq!(value(Opcode::SDelayAlu, "instskip(SKIP_4)"), Ok(5 << 4));
        assert!(value(Opcode::SDelayAlu, "instid0(VALU_DEP_5)")
            .unwrap_err()
            .contains("not a value of `instid0`"));
        assert!(
            value(Opcode::SDelayAlu, "instid0(NO_DEP) | instid0(NO_DEP)")
                .unwrap_err()
                .contains("twice")
        );
        assert!(value(Opcode::SDelayAlu, "delay(NEXT)").is_err());
    }

    #[test]
    fn sendmsg_names() {
        assert_eq!(value(Opcode::SSendmsg, "sendmsg(MSG_DEALLOC_VGPRS)"), Ok(3));
        assert!(value(Opcode::SSendmsg, "sendmsg(MSG_GS)").is_err());
        // RDNA 3 numbers, as llvm-mc-19 encodes them (`s_sendmsg_rtn_b32` holds the id in
        // its SSRC0 field: 0x80).
        assert_eq!(value(Opcode::SSendmsg, "sendmsg(MSG_INTERRUPT)"), Ok(1));
        assert_eq!(
            value(Opcode::SSendmsgRtnB32, "sendmsg(MSG_RTN_GET_DOORBELL)"),
            Ok(128)
        );
    }
}
