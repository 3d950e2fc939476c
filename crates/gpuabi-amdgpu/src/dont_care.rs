//! The bits of an instruction word that the hardware ignores in an instruction's form.
//!
//! Assemblers disagree on what they write there. LLVM's writes 0; Mesa's ACO writes the
//! code of its undefined operand (128) into the address field of a buffer or scratch access
//! that has no address VGPR, and sets every bit of `s_waitcnt`'s immediate that no counter
//! uses (`aco_assembler.cpp`, `emit_instruction`). Such bits change nothing the hardware
//! does, so the machine model keeps them beside the instruction ([`Inst::dont_care`]): the
//! decoder accepts them and the encoder gives them back, which makes machine code from any
//! producer decode and re-encode to its own bytes.
//!
//! Which bits are ignored is decided here, once, per form:
//!
//! - `s_waitcnt`: the bits of SIMM16 outside the counter fields of the target ("AMD GCN3
//!   ISA", "RDNA2 ISA", "RDNA3 ISA", `S_WAITCNT`: only the VM_CNT, EXP_CNT and LGKM_CNT
//!   fields are read). On GCN 1.0/1.1 LGKM_CNT is SIMM16[12:8] ("Southern Islands Series
//!   ISA", `S_WAITCNT`; CLRX's doc/GcnInstrsSopp.md: `(SIMM16>>8)&31`, 31 = no wait),
//!   where LLVM reads and writes SIMM16[11:8] (`getLgkmcntBitWidth` in LLVM's
//!   `AMDGPUBaseInfo.cpp`, which refuses `lgkmcnt(16)` and up). AMD's compiler writes all
//!   five bits (31) where LLVM writes its four (15) for "no LGKM wait", and llvm-objdump
//!   prints both without `lgkmcnt`. Bit 12 is kept as such a bit only beside an LGKM
//!   field of all ones (the simulator executes no waits, so it changes nothing the model
//!   runs); beside a real count it would make one of 16 to 30, which the model does not
//!   represent.
//! - MUBUF and MTBUF without `offen`, `idxen` or `addr64`: VADDR ("AMD GCN3 ISA", "Buffer
//!   Instructions", "VADDR: ... ignored when OFFEN = IDXEN = 0"; the same table in the RDNA
//!   manuals).
//! - Scratch with no address VGPR (`off`): ADDR ("RDNA2 ISA", "Scratch Instructions": with
//!   SADDR in use, or neither, ADDR is not read; "RDNA3 ISA": SVE = 0 means no VGPR
//!   address).
//! - RDNA 3's true16 `v_mov_b16` in its 32-bit encoding with a literal source: the
//!   literal's bits 31:16 ("RDNA3 ISA", V_MOV_B16: `D0.b16 = S0.b16`, a 16-bit source).
//!   ACO writes a 16-bit constant sign-extended there (`v_mov_b16_e32 v2.l, 0x804c` is
//!   `7e0438ff ffff804c` in RADV's listings), llvm-mc-19 zero-extended (`0000804c`).

use crate::encode::waitcnt_fields;
use crate::inst::Inst;
use crate::microcode::{layout_of, Encoding, Field};
use crate::opcodes::{Format, Kind, Opcode};
use crate::operand::Operand;
use crate::target::{Target, WaveSize};

/// Bit 12 of `s_waitcnt`'s SIMM16 on GCN 1.0/1.1: the top bit of the manual's LGKM_CNT.
const GCN1_LGKM_TOP_BIT: u64 = 1 << 12;

/// The bits of `inst`'s first (up to) eight encoded bytes, as the encoder lays them out (the
/// first dword in the low half), that the hardware ignores on `target`; 0 when every bit
/// counts.
pub fn mask(inst: &Inst, target: Target) -> u64 {
    let info = inst.op.info();
    let field = |encoding: Encoding, field: Field| -> u64 {
        layout_of(encoding, target)
            .and_then(|l| l.field(field))
            // Fields beyond the first eight bytes (RDNA 4's third dword) are never ignored.
            .filter(|(lo, width)| u32::from(*lo) + u32::from(*width) <= 64)
            .map_or(0, |(lo, width)| ((1u64 << width) - 1) << lo)
    };
    match info.format_on(target) {
        Format::Sopp if inst.op == Opcode::SWaitcnt => {
            let used = waitcnt_fields(target)
                .iter()
                .fold(0u64, |m, &(_, lo, w)| m | ((1u64 << w) - 1) << lo);
            let waits_for_lgkm = matches!(
                inst.operands.first(),
                Some(Operand::Waitcnt(w)) if w.lgkmcnt.is_some()
            );
            let lgkm_top = if matches!(target, Target::Gfx6 | Target::Gfx7) && waits_for_lgkm {
                GCN1_LGKM_TOP_BIT
            } else {
                0
            };
            !used & !lgkm_top & 0xffff
        }
        Format::Mubuf | Format::Mtbuf
            if !inst.mods.offen && !inst.mods.idxen && !inst.mods.addr64 =>
        {
            // Cache invalidations have no operands and no VADDR to speak of: keep them exact.
            if info.slots().next().is_none() {
                return 0;
            }
            let encoding = if info.format == Format::Mtbuf {
                Encoding::Mtbuf
            } else {
                Encoding::Mubuf
            };
            field(encoding, Field::Vaddr)
        }
        Format::Scratch if target.is_rdna() && scratch_addr(inst) == Some(&Operand::Off) => {
            field(Encoding::Flat, Field::Addr)
        }
        // A true16 source's literal: the dword after the 32-bit word, of which the
        // instruction reads bits 15:0.
        Format::Vop1
            if true16_literal(inst) && !crate::encoding::uses_vop3(inst, target, WaveSize::W32) =>
        {
            0xffff << 48
        }
        _ => 0,
    }
}

/// Whether `inst` has a true16 source ([`crate::Kind::VSrcT16`]) held in a literal.
fn true16_literal(inst: &Inst) -> bool {
    inst.slots()
        .zip(&inst.operands)
        .any(|(k, o)| k == Kind::VSrcT16 && crate::encoding::needs_literal(k, o))
}

/// The address operand of a scratch access: the first source of a store, the first source
/// of a load.
fn scratch_addr(inst: &Inst) -> Option<&Operand> {
    let dsts = inst.dsts().len();
    inst.operands.get(dsts)
}

/// The producer's values of the ignored bits of `inst`: `listed` XOR `canonical` (both the
/// first eight bytes or fewer, little-endian), when they differ in ignored bits only; `None`
/// when they differ anywhere else.
pub fn difference(inst: &Inst, target: Target, canonical: &[u8], listed: &[u8]) -> Option<u64> {
    if canonical.len() != listed.len() {
        return None;
    }
    // Ignored bits lie in the first eight bytes (the instruction word, and the literal of
    // a 32-bit word whose source reads 16 of its bits); the bytes after them must agree
    // exactly.
    let n = canonical.len().min(8);
    if canonical[n..] != listed[n..] {
        return None;
    }
    let word = |b: &[u8]| {
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(&b[..n]);
        u64::from_le_bytes(w)
    };
    let diff = word(canonical) ^ word(listed);
    (diff & !mask(inst, target) == 0).then_some(diff)
}
