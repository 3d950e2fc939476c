//! Encoding sizes: which encoding LLVM picks for an instruction and how many bytes it takes.
//!
//! Program counters are byte addresses, so the layout of a program (and every label
//! difference used as a function pointer) depends on these sizes. The llvm-mc round-trip
//! test compares them with the bytes LLVM emits.

use crate::inst::Inst;
use crate::opcodes::{Format, Kind, Opcode};
use crate::operand::{Operand, Special};
use crate::target::{Target, WaveSize};

/// Whether the operand in a slot of kind `kind` needs a 32-bit literal after the
/// instruction word.
pub fn needs_literal(kind: Kind, operand: &Operand) -> bool {
    match (kind, operand) {
        (Kind::SSrc(n) | Kind::VSrc(n), Operand::Imm(imm)) => !imm.is_inline(n),
        (Kind::VSrc16, Operand::Imm(imm)) => imm.inline_code16().is_none(),
        (Kind::VSrcI16 | Kind::VSrcT16, Operand::Imm(imm)) => imm.inline_code_i16().is_none(),
        (Kind::VSrcF64, Operand::Imm(imm)) => !imm.is_inline(2),
        (Kind::VSrcPkF16, Operand::Imm(imm)) => imm.inline_code_pk_f16().is_none(),
        (Kind::VSrcBF16, Operand::Imm(imm)) => imm.inline_code_bf16().is_none(),
        (Kind::SSrc(_) | Kind::VSrc(_), Operand::Expr(_)) => true,
        (Kind::KImm | Kind::KImm16, _) => true,
        _ => false,
    }
}

/// The literal dword of an operand in a slot of `kind` that needs one
/// ([`needs_literal`]), or `None` if it has none or cannot be encoded.
pub fn literal_dword(kind: Kind, operand: &Operand) -> Option<u32> {
    let Operand::Imm(imm) = operand else {
        return None;
    };
    match kind {
        Kind::VSrc16 | Kind::VSrcI16 | Kind::VSrcT16 | Kind::KImm16 => imm.value16().map(u32::from),
        Kind::VSrcF64 => imm.value_f64().map(|v| (v >> 32) as u32),
        Kind::VSrcPkF16 => imm.value_pk_f16(),
        Kind::VSrcBF16 => imm.value_bf16(),
        Kind::SSrc(2) | Kind::VSrc(2) => imm.value64().map(|v| v as u32),
        _ => imm.value32(),
    }
}

/// Whether any operand of `inst` needs a literal.
pub fn has_literal(inst: &Inst) -> bool {
    inst.slots()
        .zip(inst.operands.iter())
        .any(|(k, o)| needs_literal(k, o))
        || inst.dual.as_deref().is_some_and(has_literal)
}

fn is_vcc(operand: &Operand, wave: WaveSize) -> bool {
    matches!(operand, Operand::Special(s) if s.is_vcc_mask(wave.mask_dwords()))
}

/// Whether a VOP1/VOP2/VOPC instruction must use the 64-bit VOP3 encoding (always true for
/// VOP3-only instructions).
///
/// The 32-bit encodings take a VGPR as second source, have no source modifiers, and read or
/// write the lane mask only as the implicit `vcc`. On RDNA, `v_add_co_u32`/`v_sub_co_u32` (carry out, no carry in)
/// exist only as VOP3.
pub fn uses_vop3(inst: &Inst, target: Target, wave: WaveSize) -> bool {
    let info = inst.op.info();
    if inst.sdwa.is_some() || inst.dual.is_some() {
        return false;
    }
    match info.format_on(target) {
        Format::Vop3 => true,
        Format::Vop1 | Format::Vop2 | Format::Vopc => {
            if inst.e64 || !inst.src_mods.is_empty() {
                return true;
            }
            if target.is_rdna()
                && matches!(
                    inst.op,
                    Opcode::VAddCoU32 | Opcode::VSubCoU32 | Opcode::VSubrevCoU32
                )
            {
                return true;
            }
            let mut src_index = 0;
            for (kind, operand) in info.slots().zip(inst.operands.iter()) {
                match kind {
                    Kind::MaskDst | Kind::MaskSrc if !is_vcc(operand, wave) => return true,
                    Kind::VSrc(_)
                    | Kind::VSrc16
                    | Kind::VSrcI16
                    | Kind::VSrcT16
                    | Kind::VSrcF64
                    | Kind::VSrcPkF16
                    | Kind::VSrcBF16 => {
                        if src_index == 1 && !operand.is_vgpr() {
                            return true;
                        }
                        src_index += 1;
                    }
                    _ => {}
                }
            }
            false
        }
        _ => false,
    }
}

/// The offset of a `gfx7` scalar load that does not fit SMRD's 8-bit dword field and so
/// follows the instruction as a 32-bit literal ("Sea Islands Series ISA", SMRD: OFFSET 255
/// with IMM = 0 reads the next dword), as LLVM encodes it.
pub fn smrd_literal_offset(inst: &Inst, target: Target) -> Option<u32> {
    if target != Target::Gfx7 || inst.op.info().format != Format::Smem {
        return None;
    }
    match inst.operands.get(2) {
        Some(Operand::Imm(imm)) => imm.value32().filter(|v| *v > SMRD_MAX_OFFSET),
        _ => None,
    }
}

/// The largest offset of SMRD's 8-bit dword offset field (GCN 1.0/1.1).
pub const SMRD_MAX_OFFSET: u32 = 0xff;

/// Size in bytes of the encoded instruction.
pub fn size(inst: &Inst, target: Target, wave: WaveSize) -> u32 {
    let info = inst.op.info();
    let literal = if has_literal(inst) { 4 } else { 0 };
    if inst.dual.is_some() {
        return 8 + literal;
    }
    if inst.sdwa.is_some() {
        // The SDWA dword follows the 32-bit word; SDWA sources take no literal.
        return 8;
    }
    match info.format_on(target) {
        Format::Sop1 | Format::Sop2 | Format::Sopc => 4 + literal,
        Format::Sopk | Format::Sopp => 4,
        // SMRD (gfx6/gfx7) is one dword, and a literal offset on gfx7.
        Format::Smem if !target.is_rdna() && target != Target::Gfx8 => {
            4 + if smrd_literal_offset(inst, target).is_some() {
                4
            } else {
                0
            }
        }
        // RDNA 4's VBUFFER, VFLAT, VGLOBAL and VSCRATCH are three dwords.
        Format::Mubuf | Format::Global | Format::Scratch | Format::Flat
            if target == Target::Gfx12 =>
        {
            12
        }
        Format::Smem
        | Format::Mubuf
        | Format::Mtbuf
        | Format::Global
        | Format::Scratch
        | Format::Flat
        | Format::Ds => 8,
        // RDNA 4's VIMAGE is three dwords, its address in fields of its own.
        Format::Mimg if target == Target::Gfx12 => 12,
        // An NSA address adds its dwords ([`crate::microcode::nsa_dwords`]).
        Format::Mimg => match inst.operands.get(inst.dsts().len()) {
            Some(Operand::Nsa(regs)) => 8 + 4 * crate::microcode::nsa_dwords(regs.len()) as u32,
            _ => 8,
        },
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
            if uses_vop3(inst, target, wave) {
                8 + literal
            } else {
                4 + literal
            }
        }
    }
}

/// The special register `vcc` spelled for `wave` (`vcc` or `vcc_lo`).
pub fn vcc_for(wave: WaveSize) -> Special {
    match wave {
        WaveSize::W32 => Special::VccLo,
        WaveSize::W64 => Special::Vcc,
    }
}

/// The special register `exec` spelled for `wave` (`exec` or `exec_lo`).
pub fn exec_for(wave: WaveSize) -> Special {
    match wave {
        WaveSize::W32 => Special::ExecLo,
        WaveSize::W64 => Special::Exec,
    }
}
