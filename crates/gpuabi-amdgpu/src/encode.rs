//! The encoder: instructions and programs to machine code, byte for byte as LLVM 19's
//! assembler emits them.
//!
//! The field positions are in [`crate::microcode`], the opcode numbers in
//! [`crate::opcode_numbers`]; this file says which operand goes into which field. The
//! encoding an instruction takes (32-bit or VOP3) is [`crate::encoding::uses_vop3`]'s, the
//! rule the layout of programs already follows.

use gpuabi_layout::reg::RegFile;
use smallvec::SmallVec;

use crate::encoding::uses_vop3;
use crate::inst::Inst;
use crate::microcode::{
    layout_of, seg, Encoding, Field, Layout, SDWAB_SD, SDWAB_SDST, SDWA_FIELDS, SDWA_SRC0,
};
use crate::opcode_numbers::{number, vop3_base, vopd_opcodes};
use crate::opcodes::{Format, Kind, Opcode};
use crate::operand::{Operand, Special, Waitcnt};
use crate::origin::Origin;
use crate::program::{self, Directive, Item, Program};
use crate::target::{Target, WaveSize};

/// Why a program could not be encoded: the item's origin, its byte offset, and what was
/// wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte offset {offset}: {message}{}", .origin.suffix())]
pub struct EncodeError {
    /// Byte offset of the instruction in the code.
    pub offset: u32,
    /// The origin of the item concerned.
    pub origin: Origin,
    /// What was wrong.
    pub message: String,
}

/// The machine code of one instruction: 4 to 12 bytes.
pub type Code = SmallVec<[u8; 12]>;

/// An instruction word being filled in.
struct Word {
    layout: &'static Layout,
    bits: u128,
    target: Target,
}

impl Word {
    fn new(encoding: Encoding, target: Target) -> Result<Word, String> {
        let layout = layout_of(encoding, target)
            .ok_or_else(|| format!("{target} has no {encoding:?} encoding"))?;
        Ok(Word {
            layout,
            bits: u128::from(layout.ident),
            target,
        })
    }

    fn set(&mut self, field: Field, value: u64) -> Result<(), String> {
        match self.layout.field(field) {
            Some((lo, width)) => {
                if value >> width != 0 {
                    return Err(format!(
                        "{value:#x} does not fit the {width}-bit {field:?} field of {:?}",
                        self.layout.encoding
                    ));
                }
                self.bits |= u128::from(value) << lo;
                Ok(())
            }
            None if value == 0 => Ok(()),
            None => Err(format!(
                "{:?} on {} has no {field:?} field",
                self.layout.encoding, self.target
            )),
        }
    }

    fn set_signed(&mut self, field: Field, value: i64) -> Result<(), String> {
        let (_, width) = self.layout.field(field).unwrap_or((0, 0));
        let half = 1i64 << (width.max(1) - 1);
        let (lo, hi) = (-half, half - 1);
        if width == 0 && value != 0 || width > 0 && !(lo..=hi).contains(&value) {
            return Err(format!(
                "{value} does not fit the signed {width}-bit {field:?} field"
            ));
        }
        self.set(field, (value as u64) & ((1u64 << width) - 1))
    }

    fn finish(self, literal: Option<u32>) -> Code {
        let bytes = usize::from(self.layout.bytes);
        let mut code: Code = self.bits.to_le_bytes()[..bytes].iter().copied().collect();
        if let Some(l) = literal {
            code.extend_from_slice(&l.to_le_bytes());
        }
        code
    }
}

/// The code of the literal-constant operand (RDNA2 ISA, "Scalar Operands": 255).
pub const LITERAL: u16 = 255;
/// VGPR `n` is operand code 256 + n in 9-bit source fields.
pub const VGPR_BASE: u16 = 256;

/// What the encoder needs besides the instruction: the target, the address
/// of the instruction and a way to evaluate label expressions.
struct Ctx<'a> {
    target: Target,
    pc: u32,
    labels: &'a program::Layout,
    literal: Option<u32>,
}

impl Ctx<'_> {
    /// The code of a source operand of `dwords` registers (8-bit scalar fields take the
    /// same codes below 256).
    fn src(&mut self, operand: &Operand, dwords: u8) -> Result<u64, String> {
        let code = match operand {
            Operand::Reg(r) if r.file() == RegFile::Vgpr => VGPR_BASE + r.first.num,
            Operand::Reg(r) => r.first.num,
            Operand::Special(s) => s.code(self.target),
            Operand::Imm(imm) => match imm.inline_code(dwords) {
                Some(c) => c,
                None => {
                    let value = if dwords >= 2 {
                        imm.value64().map(|v| v as u32)
                    } else {
                        imm.value32()
                    };
                    let value = value.ok_or_else(|| format!("`{imm}` cannot be encoded"))?;
                    self.set_literal(value)?;
                    LITERAL
                }
            },
            Operand::Expr(e) => {
                if let Some(r) = e.reloc {
                    return Err(format!(
                        "`{e}` needs a relocation (`{}`) that the loader fills in; gpuabi \
                         encodes code without relocations",
                        r.spelling()
                    ));
                }
                if e.minus.is_none() {
                    return Err(format!(
                        "`{e}` is an absolute address, which needs a relocation; gpuabi \
                         encodes label differences only (`{}-base`)",
                        e.plus
                    ));
                }
                let v = self
                    .labels
                    .eval(e, 0)
                    .ok_or_else(|| format!("`{e}` names an undefined label"))?;
                let v = u32::try_from(v)
                    .or_else(|_| i32::try_from(v).map(|v| v as u32))
                    .map_err(|_| format!("`{e}` = {v} does not fit 32 bits"))?;
                self.set_literal(v)?;
                LITERAL
            }
            Operand::Off | Operand::Waitcnt(_) | Operand::Nsa(_) => {
                return Err(format!("`{operand}` is not a source operand"))
            }
        };
        Ok(u64::from(code))
    }

    /// The code of a source in a slot of `kind`: 16-bit slots take 16-bit constants, a
    /// literal zero-extended in its dword (llvm-mc-19 encodes `0x7c01` there as `01 7c 00
    /// 00`).
    fn src_in(&mut self, operand: &Operand, kind: Kind, wave: WaveSize) -> Result<u64, String> {
        match (kind, operand) {
            (Kind::VSrc16, Operand::Imm(imm)) => {
                if let Some(code) = imm.inline_code16() {
                    return Ok(code.into());
                }
                let v = imm
                    .value16()
                    .ok_or_else(|| format!("`{imm}` does not fit 16 bits"))?;
                self.set_literal(u32::from(v))?;
                Ok(LITERAL.into())
            }
            (Kind::VSrcI16 | Kind::VSrcT16, Operand::Imm(imm)) => {
                if let Some(code) = imm.inline_code_i16() {
                    return Ok(code.into());
                }
                let v = match imm {
                    crate::operand::Imm::Int(_) => imm.value16(),
                    crate::operand::Imm::Float(_) => None,
                }
                .ok_or_else(|| format!("`{imm}` is not a 16-bit integer or an inline constant"))?;
                self.set_literal(u32::from(v))?;
                Ok(LITERAL.into())
            }
            (Kind::VSrcPkF16, Operand::Imm(imm)) => {
                if let Some(code) = imm.inline_code_pk_f16() {
                    return Ok(code.into());
                }
                let v = imm
                    .value_pk_f16()
                    .ok_or_else(|| format!("`{imm}` is not two packed f16 values"))?;
                self.set_literal(v)?;
                Ok(LITERAL.into())
            }
            (Kind::VSrcBF16, Operand::Imm(imm)) => {
                if let Some(code) = imm.inline_code_bf16() {
                    return Ok(code.into());
                }
                let v = imm
                    .value_bf16()
                    .ok_or_else(|| format!("`{imm}` is not a bf16 constant of 16 bits"))?;
                self.set_literal(v)?;
                Ok(LITERAL.into())
            }
            (Kind::VSrcF64, Operand::Imm(imm)) => {
                if let Some(code) = imm.inline_code(2) {
                    return Ok(code.into());
                }
                let v = imm
                    .value_f64()
                    .ok_or_else(|| format!("`{imm}` is not an f64 whose low 32 bits are zero"))?;
                self.set_literal((v >> 32) as u32)?;
                Ok(LITERAL.into())
            }
            (Kind::VSrcF64, _) => self.src(operand, 2),
            (Kind::VSrc(n) | Kind::SSrc(n) | Kind::VReg(n), _) => self.src(operand, n),
            (Kind::MaskSrc, _) => self.src(operand, wave.mask_dwords()),
            _ => self.src(operand, 1),
        }
    }

    fn set_literal(&mut self, value: u32) -> Result<(), String> {
        match self.literal {
            Some(l) if l != value => Err("two different literal constants".into()),
            _ => {
                self.literal = Some(value);
                Ok(())
            }
        }
    }

    /// The number of a VGPR operand.
    fn vgpr(&self, operand: &Operand) -> Result<u64, String> {
        match operand {
            Operand::Reg(r) if r.file() == RegFile::Vgpr => Ok(u64::from(r.first.num)),
            _ => Err(format!("expected a VGPR, found `{operand}`")),
        }
    }

    /// A VGPR's number, or 0 for `off`.
    fn vgpr_or_off(&self, operand: &Operand) -> Result<u64, String> {
        match operand {
            Operand::Off => Ok(0),
            o => self.vgpr(o),
        }
    }

    /// A scalar register's code (destinations, bases); `off` is `null`.
    fn sreg(&self, operand: &Operand) -> Result<u64, String> {
        match operand {
            Operand::Reg(r) if r.file() == RegFile::Sgpr => Ok(u64::from(r.first.num)),
            Operand::Special(s) => Ok(u64::from(s.code(self.target))),
            Operand::Off => Ok(u64::from(Special::Null.code(self.target))),
            _ => Err(format!("expected a scalar register, found `{operand}`")),
        }
    }
}

/// The bits of `s_waitcnt`'s immediate on `target`: (counter, lowest bit, width) for
/// each piece; a counter not given waits for nothing (all ones). GCN3 has a 4-bit `vmcnt`
/// at 3:0, `expcnt` at 6:4 and a 4-bit `lgkmcnt` at 11:8; RDNA2 widens `lgkmcnt` to 13:8
/// and puts `vmcnt`'s high bits at 15:14; RDNA3 moves them to `expcnt` 2:0, `lgkmcnt` 9:4,
/// `vmcnt` 15:10 (the ISA manuals' `S_WAITCNT` entries). RDNA 4 waits per counter
/// (`s_wait_loadcnt`, …), but LLVM 19 and Mesa's ACO (`aco_opcodes.py`) still encode
/// `s_waitcnt` there, with RDNA 3's fields.
pub fn waitcnt_fields(target: Target) -> &'static [(WaitCounter, u8, u8)] {
    use WaitCounter::*;
    match target {
        Target::Gfx1030 => &[(Vm, 0, 4), (Exp, 4, 3), (Lgkm, 8, 6), (VmHi, 14, 2)],
        Target::Gfx1100 | Target::Gfx12 => &[(Exp, 0, 3), (Lgkm, 4, 6), (Vm, 10, 6)],
        _ => &[(Vm, 0, 4), (Exp, 4, 3), (Lgkm, 8, 4)],
    }
}

/// A counter (or part of one) in `s_waitcnt`'s immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitCounter {
    /// `vmcnt` (its low bits where it is split).
    Vm,
    /// The high bits of `vmcnt` (RDNA2).
    VmHi,
    /// `expcnt`.
    Exp,
    /// `lgkmcnt`.
    Lgkm,
}

/// The largest count of each counter on `target`: (vmcnt, expcnt, lgkmcnt).
pub fn waitcnt_max(target: Target) -> (u8, u8, u8) {
    let mut max = (0u8, 0u8, 0u8);
    for &(c, _, w) in waitcnt_fields(target) {
        let m = ((1u16 << w) - 1) as u8;
        match c {
            WaitCounter::Vm => max.0 |= m,
            WaitCounter::VmHi => max.0 |= m << 4,
            WaitCounter::Exp => max.1 = m,
            WaitCounter::Lgkm => max.2 = m,
        }
    }
    max
}

fn waitcnt_bits(w: &Waitcnt, target: Target) -> Result<u64, String> {
    let (vm_max, exp_max, lgkm_max) = waitcnt_max(target);
    let vm = w.vmcnt.unwrap_or(vm_max);
    let exp = w.expcnt.unwrap_or(exp_max);
    let lgkm = w.lgkmcnt.unwrap_or(lgkm_max);
    for (name, v, max) in [
        ("vmcnt", vm, vm_max),
        ("expcnt", exp, exp_max),
        ("lgkmcnt", lgkm, lgkm_max),
    ] {
        if v > max {
            return Err(format!("`{name}({v})`: at most {max} on {target}"));
        }
    }
    let mut bits = 0u64;
    for &(c, lo, width) in waitcnt_fields(target) {
        let v = match c {
            WaitCounter::Vm => vm,
            WaitCounter::VmHi => vm >> 4,
            WaitCounter::Exp => exp,
            WaitCounter::Lgkm => lgkm,
        };
        bits |= (u64::from(v) & ((1 << width) - 1)) << lo;
    }
    Ok(bits)
}

/// Encodes `inst` at byte address `pc` of a program whose labels lie at `labels`.
///
/// The instruction must satisfy [`crate::Program::validate`]'s rules; the errors here are
/// the ones validation cannot see (a branch out of range, a label difference that does not
/// fit, a counter too large for the target). The bits the hardware ignores come out as
/// [`Inst::dont_care`] says.
pub fn encode_inst(
    inst: &Inst,
    target: Target,
    wave: WaveSize,
    pc: u32,
    labels: &program::Layout,
) -> Result<Code, String> {
    let mut code = encode_canonical(inst, target, wave, pc, labels)?;
    if inst.dont_care != 0 {
        let outside = inst.dont_care & !crate::dont_care::mask(inst, target);
        if outside != 0 {
            return Err(format!(
                "`{}`: bits {outside:#x} of the instruction word are not ignored by the \
                 hardware in this form",
                inst.op.info().mnemonic
            ));
        }
        for (i, byte) in code.iter_mut().take(8).enumerate() {
            *byte ^= (inst.dont_care >> (8 * i)) as u8;
        }
    }
    Ok(code)
}

/// The encoding of `inst` as llvm-mc writes it: ignored bits as LLVM sets them.
fn encode_canonical(
    inst: &Inst,
    target: Target,
    wave: WaveSize,
    pc: u32,
    labels: &program::Layout,
) -> Result<Code, String> {
    let info = inst.op.info();
    let opcode = number(inst.op, target)
        .ok_or_else(|| format!("`{}` does not exist on {target}", info.mnemonic))?;
    let mut cx = Ctx {
        target,
        pc,
        labels,
        literal: None,
    };
    let ops = &inst.operands;
    let dst_count = inst.dsts().len();
    let dsts = &ops[..dst_count.min(ops.len())];
    let srcs = &ops[dsts.len()..];
    if ops.len() != dst_count + info.srcs.len() {
        return Err(format!(
            "`{}` takes {} operands, not {}",
            info.mnemonic,
            dst_count + info.srcs.len(),
            ops.len()
        ));
    }
    let dwords = |k: Kind| match k {
        Kind::SSrc(n) | Kind::VSrc(n) | Kind::SReg(n) | Kind::VReg(n) => n,
        Kind::VSrcF64 => 2,
        Kind::MaskSrc => wave.mask_dwords(),
        _ => 1,
    };
    if let Some(y) = &inst.dual {
        return Ok(vopd(inst, y, target, &mut cx)?.finish(cx.literal));
    }
    let word = match info.format_on(target) {
        Format::Sop1 | Format::Sop2 | Format::Sopc => {
            let enc = match info.format {
                Format::Sop1 => Encoding::Sop1,
                Format::Sop2 => Encoding::Sop2,
                _ => Encoding::Sopc,
            };
            let mut w = Word::new(enc, target)?;
            w.set(Field::Op, opcode.into())?;
            if let Some(d) = dsts.first() {
                w.set(Field::Sdst, cx.sreg(d)?)?;
            }
            // RDNA 4's `s_fmaak_f32`/`s_fmamk_f32` take their constant K in the literal
            // dword, not in a source field.
            for (kind, s) in info.srcs.iter().zip(srcs) {
                if kind.is_k() {
                    let v = crate::encoding::literal_dword(*kind, s)
                        .ok_or_else(|| format!("`{s}` does not fit the constant K"))?;
                    cx.set_literal(v)?;
                }
            }
            let fields = info.srcs.iter().zip(srcs).filter(|(k, _)| !k.is_k());
            for (field, (kind, operand)) in [Field::Ssrc0, Field::Ssrc1].into_iter().zip(fields) {
                let code = match (kind, operand) {
                    (Kind::Msg8, Operand::Imm(crate::operand::Imm::Int(v))) => *v as u64,
                    _ => cx.src(operand, dwords(*kind))?,
                };
                w.set(field, code)?;
            }
            w
        }
        Format::Sopk => {
            let mut w = Word::new(Encoding::Sopk, target)?;
            w.set(Field::Op, opcode.into())?;
            // The register is the destination (`s_movk_i32`, `s_addk_i32`) or, for the
            // compares and `s_waitcnt_vscnt`, the first source; the immediate comes last.
            let (reg, imm) = match (dsts.first(), srcs) {
                // `s_setreg_b32 hwreg(..), sN` names the immediate first.
                (None, [imm, reg]) if info.srcs.first() == Some(&Kind::Imm16) => (reg, imm),
                (Some(d), [imm]) => (d, imm),
                (None, [reg, imm]) => (reg, imm),
                _ => return Err("a SOPK instruction takes one register and one immediate".into()),
            };
            w.set(Field::Sdst, cx.sreg(reg)?)?;
            w.set(Field::Simm16, imm16(imm)?)?;
            w
        }
        Format::Sopp => {
            let mut w = Word::new(Encoding::Sopp, target)?;
            w.set(Field::Op, opcode.into())?;
            let simm = match (info.srcs.first(), srcs.first()) {
                (None, _) => 0,
                (Some(Kind::Label), Some(Operand::Expr(e))) => {
                    let to = cx
                        .labels
                        .labels
                        .get(&e.plus)
                        .ok_or_else(|| format!("label `{}` is not defined", e.plus))?;
                    // SOPP branches add 4 * SIMM16 to the address of the next instruction.
                    let delta = i64::from(*to) - i64::from(cx.pc) - 4;
                    let words = delta / 4;
                    let words = i16::try_from(words).map_err(|_| {
                        format!(
                            "branch to `{}` is {delta} bytes away; SOPP reaches \
                             -131072..131068",
                            e.plus
                        )
                    })?;
                    u64::from(words as u16)
                }
                (Some(Kind::Waitcnt), Some(Operand::Waitcnt(wc))) => waitcnt_bits(wc, target)?,
                (Some(_), Some(o)) => imm16(o)?,
                (Some(_), None) => 0,
            };
            w.set(Field::Simm16, simm)?;
            w
        }
        Format::Smem => {
            let mut w = Word::new(Encoding::Smem, target)?;
            w.set(Field::Op, opcode.into())?;
            w.set(Field::Sdata, cx.sreg(&dsts[0])?)?;
            w.set(Field::Sbase, cx.sreg(&srcs[0])? >> 1)?;
            match &srcs[1] {
                Operand::Imm(imm) => {
                    let Some(v) = imm.value32() else {
                        return Err(format!("offset `{imm}` out of range"));
                    };
                    if crate::encoding::smrd_literal_offset(inst, target).is_some() {
                        // IMM = 0 with the literal code in OFFSET.
                        w.set(Field::Offset, LITERAL.into())?;
                        cx.set_literal(v)?;
                    } else if !target.is_rdna() {
                        w.set(Field::Offset, v.into())?;
                        w.set(Field::Imm, 1)?;
                    } else if target == Target::Gfx12 {
                        // RDNA 4's offset is a signed 24-bit byte count.
                        let crate::operand::Imm::Int(offset) = imm else {
                            return Err(format!("offset `{imm}` is not an integer"));
                        };
                        w.set_signed(Field::Offset, *offset)?;
                        w.set(Field::Soffset, Special::Null.code(target).into())?;
                    } else {
                        w.set(Field::Offset, v.into())?;
                        w.set(Field::Soffset, Special::Null.code(target).into())?;
                    }
                }
                o => {
                    let code = cx.sreg(o)?;
                    if !target.is_rdna() {
                        w.set(Field::Offset, code)?;
                    } else {
                        w.set(Field::Soffset, code)?;
                    }
                }
            }
            if target == Target::Gfx12 {
                mem_mods(&mut w, inst)?;
            }
            w
        }
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
            valu(inst, target, wave, opcode, &mut cx)?
        }
        // Cache invalidations: an opcode and no operands.
        Format::Mubuf if info.slots().next().is_none() => {
            let mut w = Word::new(Encoding::Mubuf, target)?;
            w.set(Field::Op, opcode.into())?;
            w
        }
        Format::Ds => ds(inst, opcode, target, &mut cx)?,
        Format::Mimg if target == Target::Gfx12 => return bvh_vimage(inst, opcode, &mut cx),
        Format::Mimg if target.is_rdna() => return bvh_mimg(inst, opcode, target, &mut cx),
        Format::Mimg => gcn1_mimg(inst, opcode, target, &mut cx)?,
        Format::Mubuf | Format::Mtbuf => {
            let typed = info.format == Format::Mtbuf;
            let mut w = Word::new(
                if typed {
                    Encoding::Mtbuf
                } else {
                    Encoding::Mubuf
                },
                target,
            )?;
            if typed {
                let format = inst
                    .mods
                    .format
                    .unwrap_or(crate::inst::MemMods::DEFAULT_FORMAT);
                w.set(Field::Dfmt, u64::from(format & 0xf))?;
                w.set(Field::Nfmt, u64::from(format >> 4))?;
            } else if target == Target::Gfx12 {
                // VBUFFER's FORMAT of the untyped accesses, as LLVM encodes it.
                w.set(Field::Dfmt, 1)?;
            }
            w.set(Field::Addr64, inst.mods.addr64.into())?;
            w.set(Field::Op, opcode.into())?;
            let (data, rest) = if inst.op.is_store() {
                (&srcs[0], &srcs[1..])
            } else {
                (&dsts[0], srcs)
            };
            w.set(Field::Vdata, cx.vgpr(data)?)?;
            w.set(Field::Vaddr, cx.vgpr_or_off(&rest[0])?)?;
            w.set(Field::Srsrc, cx.sreg(&rest[1])? >> 2)?;
            w.set(Field::Soffset, cx.src(&rest[2], 1)?)?;
            mem_mods(&mut w, inst)?;
            w.set(Field::Offen, inst.mods.offen.into())?;
            w.set(Field::Idxen, inst.mods.idxen.into())?;
            w.set(
                Field::Offset,
                u64::try_from(inst.mods.offset).map_err(|e| e.to_string())?,
            )?;
            w
        }
        // RDNA 4's global cache write-back and invalidation: an opcode and a scope.
        Format::Global if info.slots().next().is_none() => {
            let mut w = Word::new(Encoding::Flat, target)?;
            w.set(Field::Op, opcode.into())?;
            w.set(Field::Seg, seg::GLOBAL)?;
            w.set(Field::Saddr, Special::Null.code(target).into())?;
            mem_mods(&mut w, inst)?;
            w
        }
        Format::Flat | Format::Global | Format::Scratch => {
            let mut w = Word::new(Encoding::Flat, target)?;
            w.set(Field::Op, opcode.into())?;
            if let Some(d) = dsts.first().filter(|_| inst.op.is_store()) {
                // A returning atomic: its destination, then the operands of a store.
                w.set(Field::Vdst, cx.vgpr(d)?)?;
            }
            let (addr, data, saddr) = if inst.op.is_store() {
                (&srcs[0], Some(&srcs[1]), srcs.get(2))
            } else {
                w.set(Field::Vdst, cx.vgpr(&dsts[0])?)?;
                (&srcs[0], None, srcs.get(1))
            };
            if let Some(d) = data {
                w.set(Field::Data, cx.vgpr(d)?)?;
            }
            w.set(Field::Addr, cx.vgpr_or_off(addr)?)?;
            mem_mods(&mut w, inst)?;
            w.set_signed(Field::Offset, inst.mods.offset.into())?;
            match info.format {
                Format::Global => {
                    w.set(Field::Seg, seg::GLOBAL)?;
                    w.set(Field::Saddr, cx.sreg(saddr.unwrap_or(&Operand::Off))?)?;
                }
                Format::Scratch => {
                    w.set(Field::Seg, seg::SCRATCH)?;
                    let saddr = saddr.unwrap_or(&Operand::Off);
                    let code = match (addr, saddr, target) {
                        // RDNA2 marks "no address register at all" with SADDR = 0x7f
                        // (`exec_hi`), the value LLVM gives gfx10 scratch instructions with
                        // neither address (llvm/lib/Target/AMDGPU/FLATInstructions.td, the
                        // gfx10 encodings); `null` (0x7d) means "no SGPR" next to a VGPR.
                        (Operand::Off, Operand::Off, Target::Gfx1030) => {
                            u64::from(Special::ExecHi.code(target))
                        }
                        _ => cx.sreg(saddr)?,
                    };
                    w.set(Field::Saddr, code)?;
                    if target >= Target::Gfx1100 {
                        w.set(Field::Sve, u64::from(!matches!(addr, Operand::Off)))?;
                    }
                }
                // RDNA's flat accesses have a SADDR field, `null` for "no SGPR base", as
                // llvm-mc-19 encodes them (SEG 0 is flat).
                _ if target.is_rdna() => {
                    w.set(Field::Saddr, Special::Null.code(target).into())?;
                }
                _ => {}
            }
            w
        }
    };
    Ok(word.finish(cx.literal))
}

/// Local data share instructions: the destination, the address (a second destination
/// where the instruction writes it back), up to two data operands in that order of the
/// operand list, and the offsets.
fn ds(inst: &Inst, opcode: u16, target: Target, cx: &mut Ctx<'_>) -> Result<Word, String> {
    let info = inst.op.info();
    let mut w = Word::new(Encoding::Ds, target)?;
    w.set(Field::Op, opcode.into())?;
    let (dsts, srcs) = inst.operands.split_at(info.dsts.len());
    if let Some(d) = dsts.first() {
        w.set(Field::Vdst, cx.vgpr(d)?)?;
    }
    // A second destination is ADDR, read and written back (`ds_bvh_stack_rtn_b32`).
    let (addr, data) = match dsts.get(1) {
        Some(a) => (a, srcs),
        None => (&srcs[0], &srcs[1..]),
    };
    w.set(Field::Addr, cx.vgpr(addr)?)?;
    for (field, data) in [Field::Data, Field::Data1].into_iter().zip(data) {
        w.set(field, cx.vgpr(data)?)?;
    }
    if info.is_ds_two_address() {
        w.set(Field::Offset0, inst.mods.offset0.into())?;
        w.set(Field::Offset1, inst.mods.offset1.into())?;
    } else {
        let offset = u64::try_from(inst.mods.offset).map_err(|e| e.to_string())?;
        w.set(Field::Offset, offset)?;
    }
    Ok(w)
}

/// The ray intersection instructions (MIMG, RDNA): the result tuple in VDATA, the address
/// in VADDR (its first VGPR, the others in the NSA dwords that follow the word), the
/// resource in SRSRC; DMASK, UNORM and R128 set as LLVM's `MIMG_IntersectRay` fixes them
/// (llvm/lib/Target/AMDGPU/MIMGInstructions.td: dmask 0xf, unorm 1, r128 1).
/// GCN 1.0/1.1 image instructions: data, address, image resource, sampler, `dmask` and
/// the flags.
fn gcn1_mimg(inst: &Inst, opcode: u16, target: Target, cx: &mut Ctx<'_>) -> Result<Word, String> {
    let (dsts, srcs) = inst.operands.split_at(inst.dsts().len());
    let mut w = Word::new(Encoding::Mimg, target)?;
    w.set(Field::Op, opcode.into())?;
    let (data, rest) = if inst.op.is_store() {
        (&srcs[0], &srcs[1..])
    } else {
        (&dsts[0], srcs)
    };
    w.set(Field::Vdata, cx.vgpr(data)?)?;
    w.set(Field::Vaddr, cx.vgpr(&rest[0])?)?;
    w.set(Field::Srsrc, cx.sreg(&rest[1])? >> 2)?;
    if let Some(samp) = rest.get(2) {
        w.set(Field::Ssamp, cx.sreg(samp)? >> 2)?;
    }
    let m = &inst.mods;
    w.set(Field::Dmask, m.dmask.into())?;
    for (field, on) in [
        (Field::Unorm, m.unorm),
        (Field::Da, m.da),
        (Field::R128, m.r128),
        (Field::Tfe, m.tfe),
        (Field::Lwe, m.lwe),
    ] {
        w.set(field, on.into())?;
    }
    mem_mods(&mut w, inst)?;
    Ok(w)
}

/// RDNA's ray intersection instructions: the result, the node and ray address (one tuple
/// or an NSA list whose further VGPRs follow the word) and the BVH resource.
fn bvh_mimg(inst: &Inst, opcode: u16, target: Target, cx: &mut Ctx<'_>) -> Result<Code, String> {
    let (dsts, srcs) = inst.operands.split_at(inst.dsts().len());
    let mut w = Word::new(Encoding::Mimg, target)?;
    // RDNA 2 keeps bit 7 of the opcode apart (the layout's OPM field is absent on RDNA 3).
    if target == Target::Gfx1030 {
        w.set(Field::OpMsb, u64::from(opcode >> 7))?;
        w.set(Field::Op, u64::from(opcode & 0x7f))?;
    } else {
        w.set(Field::Op, opcode.into())?;
    }
    w.set(Field::Dmask, 0xf)?;
    w.set(Field::Unorm, 1)?;
    w.set(Field::R128, 1)?;
    w.set(Field::Vdata, cx.vgpr(&dsts[0])?)?;
    let mut nsa = Vec::new();
    match &srcs[0] {
        Operand::Nsa(regs) => {
            w.set(Field::Vaddr, u64::from(regs[0].first.num))?;
            nsa.extend(regs[1..].iter().map(|r| r.first.num as u8));
            let dwords = crate::microcode::nsa_dwords(regs.len());
            // RDNA 2 counts the NSA dwords, RDNA 3 flags its one.
            w.set(
                Field::Nsa,
                if target == Target::Gfx1030 {
                    dwords as u64
                } else {
                    1
                },
            )?;
            nsa.resize(4 * dwords, 0);
        }
        o => w.set(Field::Vaddr, cx.vgpr(o)?)?,
    }
    w.set(Field::Srsrc, cx.sreg(&srcs[1])? >> 2)?;
    let mut code = w.finish(None);
    code.extend_from_slice(&nsa);
    Ok(code)
}

/// RDNA 4's BVH tests (VIMAGE): the results in VDATA, the five address entries in VADDR0-4
/// (unused fields zero, as Mesa's `emit_mimg_instruction_gfx12` leaves them) and the BVH
/// resource; DMASK and R128 set as ACO and LLVM set them (`MIMG_IntersectRay`).
fn bvh_vimage(inst: &Inst, opcode: u16, cx: &mut Ctx<'_>) -> Result<Code, String> {
    let (dsts, srcs) = inst.operands.split_at(inst.dsts().len());
    let mut w = Word::new(Encoding::Mimg, Target::Gfx12)?;
    w.set(Field::Op, opcode.into())?;
    w.set(Field::Dmask, 0xf)?;
    w.set(Field::R128, 1)?;
    w.set(Field::Vdata, cx.vgpr(&dsts[0])?)?;
    let Operand::Nsa(regs) = &srcs[0] else {
        return Err("RDNA 4's address is a bracketed list of five VGPR tuples".into());
    };
    let fields = crate::microcode::VIMAGE_ADDRESS_FIELDS;
    if regs.len() > fields.len() {
        return Err(format!("{} address entries; VIMAGE holds 5", regs.len()));
    }
    for (field, r) in fields.into_iter().zip(regs.iter()) {
        w.set(field, u64::from(r.first.num))?;
    }
    w.set(Field::Srsrc, cx.sreg(&srcs[1])? >> 2)?;
    Ok(w.finish(None))
}

/// `glc`, `slc`, `dlc`.
fn mem_mods(w: &mut Word, inst: &Inst) -> Result<(), String> {
    if w.layout.field(Field::Th).is_some() {
        // RDNA 4: the temporal hint holds an atomic's `glc` (TH_ATOMIC_RETURN).
        w.set(Field::Th, inst.mods.th.into())?;
        return w.set(Field::Scope, inst.mods.scope.into());
    }
    w.set(Field::Glc, inst.mods.glc.into())?;
    w.set(Field::Slc, inst.mods.slc.into())?;
    w.set(Field::Dlc, inst.mods.dlc.into())
}

/// A 16-bit immediate (signed ones as their two's complement).
fn imm16(operand: &Operand) -> Result<u64, String> {
    match operand {
        Operand::Imm(crate::operand::Imm::Int(v)) if (-0x8000..=0xffff).contains(v) => {
            Ok(u64::from(*v as u16))
        }
        o => Err(format!("expected a 16-bit integer, found `{o}`")),
    }
}

/// Vector ALU instructions in their 32-bit or VOP3 encoding.
fn valu(
    inst: &Inst,
    target: Target,
    wave: WaveSize,
    opcode: u16,
    cx: &mut Ctx<'_>,
) -> Result<Word, String> {
    let info = inst.op.info();
    let ops = &inst.operands;
    let (dsts, srcs) = ops.split_at(info.dsts.len());
    if uses_vop3(inst, target, wave) {
        if info.dsts.contains(&Kind::VDstT16) {
            return Err(format!(
                "`{}`'s 64-bit encoding (its halves in OP_SEL) is not modelled; the 32-bit \
                 one takes no modifiers",
                info.mnemonic
            ));
        }
        let mut w = Word::new(Encoding::Vop3, target)?;
        w.set(Field::Op, opcode.into())?;
        if info.format == Format::Vopc && dsts.is_empty() {
            // `v_cmpx_*` on RDNA writes only EXEC; its VOP3 form names `exec_lo` in the
            // destination field, as LLVM encodes it.
            w.set(Field::Vdst, Special::ExecLo.code(target).into())?;
        }
        for (i, (kind, d)) in info.dsts.iter().zip(dsts).enumerate() {
            match (i, kind) {
                (0, Kind::VDst(_)) => w.set(Field::Vdst, cx.vgpr(d)?)?,
                (0, _) => w.set(Field::Vdst, cx.sreg(d)?)?,
                (_, _) => w.set(Field::Sdst, cx.sreg(d)?)?,
            }
        }
        for ((field, kind), s) in [Field::Src0, Field::Src1, Field::Src2]
            .into_iter()
            .zip(info.srcs)
            .zip(srcs)
        {
            let code = cx.src_in(s, *kind, wave)?;
            w.set(field, code)?;
        }
        w.set(Field::Neg, inst.src_mods.neg.into())?;
        w.set(Field::Abs, inst.src_mods.abs.into())?;
        // Only when set: GCN 1.0/1.1 VOP3b hold SDST where CLAMP would be.
        if inst.src_mods.clamp {
            w.set(Field::Clamp, 1)?;
        }
        w.set(Field::Omod, inst.src_mods.omod as u64)?;
        return Ok(w);
    }
    let format = info.format_on(target);
    let base = vop3_base(format, target).unwrap_or(0);
    let e32 = opcode
        .checked_sub(base)
        .ok_or_else(|| format!("`{}` has no 32-bit encoding", info.mnemonic))?;
    // The lane masks of the 32-bit encodings are the implicit `vcc`: not encoded; a K
    // constant is the literal dword.
    for (kind, s) in info.srcs.iter().zip(srcs) {
        if kind.is_k() {
            let v = crate::encoding::literal_dword(*kind, s)
                .ok_or_else(|| format!("`{s}` does not fit the constant K"))?;
            cx.set_literal(v)?;
        }
    }
    let explicit = |k: &&Kind| !matches!(k, Kind::MaskDst | Kind::MaskSrc) && !k.is_k();
    let dst = info.dsts.iter().zip(dsts).find(|(k, _)| explicit(k));
    let mut src = info.srcs.iter().zip(srcs).filter(|(k, _)| explicit(k));
    let enc = match format {
        Format::Vop1 => Encoding::Vop1,
        Format::Vop2 => Encoding::Vop2,
        _ => Encoding::Vopc,
    };
    let mut w = Word::new(enc, target)?;
    w.set(Field::Op, e32.into())?;
    if let Some((kind, d)) = dst {
        let code = match kind {
            Kind::VDst(_) => cx.vgpr(d)?,
            Kind::VDstT16 => true16_field(inst, d, cx)?,
            _ => cx.sreg(d)?,
        };
        w.set(Field::Vdst, code)?;
    }
    if let (Opcode::VSwapB32, [_, second]) = (inst.op, dsts) {
        // `v_swap_b32 vA, vB` reads and writes both; vB is the SRC0 field ("RDNA2 ISA",
        // V_SWAP_B32: tmp = D0; D0 = S0; S0 = tmp).
        w.set(Field::Src0, u64::from(VGPR_BASE) + cx.vgpr(second)?)?;
    }
    if let Some(sdwa) = inst.sdwa {
        // The SDWA dword takes the literal's place after the word.
        let dword = sdwa_dword(inst, sdwa, cx)?;
        cx.set_literal(dword)?;
        w.set(Field::Src0, SDWA_SRC0.into())?;
        src.next();
    } else if let Some((kind, s)) = src.next() {
        let code = match kind {
            Kind::VSrcT16 if s.is_vgpr() => u64::from(VGPR_BASE) + true16_field(inst, s, cx)?,
            _ => cx.src_in(s, *kind, wave)?,
        };
        w.set(Field::Src0, code)?;
    }
    if let Some((kind, s)) = src.next() {
        // The lane index of GCN 1.0/1.1's VOP2 `v_readlane_b32`/`v_writelane_b32` is a
        // scalar operand code in the 8-bit VSRC1 field.
        // RDNA 2's SDWA may take an SGPR or an inline constant as source 1 (the SDWA
        // dword's `S1`).
        let code = match kind {
            Kind::Lane => cx.src(s, 1)?,
            _ if inst.sdwa.is_some() && !s.is_vgpr() => sdwa_scalar(s, cx)?,
            _ => cx.vgpr(s)?,
        };
        w.set(Field::Vsrc1, code)?;
    }
    Ok(w)
}

/// The 8-bit register field of `operand`, a true16 VGPR half of `inst`, in a 32-bit
/// encoding: the VGPR in bits 6:0, the half ([`Inst::hi16`]) in bit 7 ("RDNA3 ISA", "16-bit
/// Math and VGPRs"), so v0-v127 only.
fn true16_field(inst: &Inst, operand: &Operand, cx: &Ctx<'_>) -> Result<u64, String> {
    let vgpr = cx.vgpr(operand)?;
    if vgpr >= 128 {
        return Err(format!(
            "`{operand}`: a 32-bit encoding names the 16-bit halves of v0-v127 only"
        ));
    }
    let index = inst
        .operands
        .iter()
        .position(|o| std::ptr::eq(o, operand))
        .unwrap_or(0);
    Ok(vgpr | u64::from(inst.hi16 >> index & 1) << 7)
}

/// The explicit operands of a VOPD half: its destination and sources without the
/// implicit `vcc` of `v_dual_cndmask_b32`.
fn vopd_half(inst: &Inst) -> Result<(&Operand, SmallVec<[&Operand; 2]>), String> {
    let info = inst.op.info();
    let (dsts, srcs) = inst
        .operands
        .split_at(info.dsts.len().min(inst.operands.len()));
    let dst = dsts.first().ok_or("a VOPD half has a destination")?;
    let srcs = info
        .srcs
        .iter()
        .zip(srcs)
        .filter(|(k, _)| !matches!(k, Kind::MaskSrc) && !k.is_k())
        .map(|(_, o)| o)
        .collect();
    Ok((dst, srcs))
}

/// RDNA 3's dual-issue encoding of `x :: y` (field positions in [`crate::microcode::VOPD`]).
fn vopd(x: &Inst, y: &Inst, target: Target, cx: &mut Ctx<'_>) -> Result<Word, String> {
    let name = |i: &Inst| i.op.info().mnemonic;
    let opx = vopd_opcodes(x.op)
        .and_then(|(x, _)| x)
        .ok_or_else(|| format!("`{}` cannot be the X half of a VOPD pair", name(x)))?;
    let (_, opy) = vopd_opcodes(y.op).ok_or_else(|| format!("`{}` has no VOPD form", name(y)))?;
    let mut w = Word::new(Encoding::Vopd, target)?;
    w.set(Field::OpX, opx.into())?;
    w.set(Field::OpY, opy.into())?;
    for (half, (dst_field, src0, src1)) in [
        (x, (Field::VdstX, Field::Src0, Field::Vsrc1)),
        (y, (Field::VdstY, Field::SrcY0, Field::VsrcY1)),
    ] {
        let info = half.op.info();
        for (kind, s) in info.srcs.iter().zip(&half.operands[info.dsts.len()..]) {
            if kind.is_k() {
                let v = crate::encoding::literal_dword(*kind, s)
                    .ok_or_else(|| format!("`{s}` does not fit the constant K"))?;
                cx.set_literal(v)?;
            }
        }
        let (dst, srcs) = vopd_half(half)?;
        let d = cx.vgpr(dst)?;
        w.set(
            dst_field,
            if dst_field == Field::VdstY { d >> 1 } else { d },
        )?;
        if let Some(s) = srcs.first() {
            let code = cx.src(s, 1)?;
            w.set(src0, code)?;
        }
        if let Some(s) = srcs.get(1) {
            w.set(src1, cx.vgpr(s)?)?;
        }
    }
    Ok(w)
}

/// The code of a scalar SDWA source (`S0`/`S1` set, RDNA 2): an SGPR, a special register or
/// an inline constant; SDWA has no literal.
fn sdwa_scalar(operand: &Operand, cx: &mut Ctx<'_>) -> Result<u64, String> {
    match operand {
        Operand::Imm(imm) => imm
            .inline_code(1)
            .map(u64::from)
            .ok_or_else(|| format!("`{imm}` needs a literal, which SDWA does not have")),
        o => cx.src(o, 1),
    }
}

/// The SDWA dword of `inst` (fields in [`SDWA_FIELDS`]).
fn sdwa_dword(inst: &Inst, sdwa: crate::inst::Sdwa, cx: &mut Ctx<'_>) -> Result<u32, String> {
    let info = inst.op.info();
    let srcs: Vec<&Operand> = info
        .srcs
        .iter()
        .zip(&inst.operands[info.dsts.len()..])
        .filter(|(k, _)| !matches!(k, Kind::MaskSrc))
        .map(|(_, o)| o)
        .collect();
    let (src0, s0) = match srcs.first() {
        Some(Operand::Reg(r)) if r.file() == RegFile::Vgpr => (u64::from(r.first.num), 0),
        Some(o) => (sdwa_scalar(o, cx)?, 1),
        None => (0, 0),
    };
    let m = inst.src_mods;
    let s1 = srcs.get(1).is_some_and(|o| !o.is_vgpr());
    let vopc = info.format_on(cx.target) == Format::Vopc;
    let (dst_sel, dst_unused) = if vopc {
        (0, 0)
    } else {
        (sdwa.dst_sel as u64, sdwa.dst_unused as u64)
    };
    let values = [
        (Field::Src0, src0),
        (Field::DstSel, dst_sel),
        (Field::DstUnused, dst_unused),
        (Field::Src0Sel, sdwa.src0_sel as u64),
        (Field::Src0Sext, u64::from(sdwa.src0_sext)),
        (Field::S0, s0),
        (
            Field::Src1Sel,
            if srcs.len() > 1 {
                sdwa.src1_sel as u64
            } else {
                0
            },
        ),
        (Field::Src1Sext, u64::from(sdwa.src1_sext && srcs.len() > 1)),
        (Field::S1, u64::from(s1)),
        (Field::Src0Neg, u64::from(m.neg & 1)),
        (Field::Src0Abs, u64::from(m.abs & 1)),
        (Field::Src1Neg, u64::from(m.neg >> 1 & 1)),
        (Field::Src1Abs, u64::from(m.abs >> 1 & 1)),
    ];
    let mut dword = 0u32;
    for (field, value) in values {
        let (_, lo, width) = SDWA_FIELDS
            .iter()
            .find(|(f, _, _)| *f == field)
            .copied()
            .ok_or("SDWA field")?;
        if value >> width != 0 {
            return Err(format!("{value:#x} does not fit the SDWA {field:?} field"));
        }
        dword |= (value as u32) << lo;
    }
    // A VOPC's mask destination other than VCC goes to SDST with SD set.
    let mask_dst = info
        .dsts
        .iter()
        .zip(&inst.operands)
        .find(|(k, _)| matches!(k, Kind::MaskDst));
    if let Some((_, d)) = mask_dst {
        if vopc && !matches!(d, Operand::Special(Special::Vcc | Special::VccLo)) {
            let code = cx.sreg(d)?;
            let (lo, width) = SDWAB_SDST;
            if code >> width != 0 {
                return Err(format!("`{d}` does not fit the SDWA SDST field"));
            }
            dword |= (code as u32) << lo | 1 << SDWAB_SD;
        }
    }
    Ok(dword)
}

/// The `s_nop 0` LLVM pads code with (`.p2align`), as a 4-byte word.
fn nop_word(target: Target) -> Result<[u8; 4], String> {
    let mut w = Word::new(Encoding::Sopp, target)?;
    let op = number(crate::opcodes::Opcode::SNop, target).unwrap_or(0);
    w.set(Field::Op, op.into())?;
    let code = w.finish(None);
    Ok([code[0], code[1], code[2], code[3]])
}

/// Encodes a whole program: instructions in order, `.p2align` padding filled with `s_nop 0`
/// as LLVM does. The program is validated first.
pub fn encode(program: &Program) -> Result<Vec<u8>, EncodeError> {
    program.validate().map_err(|e| EncodeError {
        offset: 0,
        origin: e.origin,
        message: e.message,
    })?;
    let layout = program.layout();
    let mut out = Vec::with_capacity(layout.size as usize);
    let mut code = true;
    for (entry, &offset) in program.items.iter().zip(&layout.offsets) {
        match &entry.item {
            Item::Directive(Directive::Text) => code = true,
            Item::Directive(Directive::Section { name, .. }) => {
                code = program::is_code_section(name)
            }
            _ => {}
        }
        if !code {
            continue;
        }
        let fail = |message: String| EncodeError {
            offset,
            origin: entry.origin.clone(),
            message,
        };
        match &entry.item {
            Item::Inst(inst) => {
                let code = encode_inst(inst, program.target, program.wave, offset, &layout)
                    .map_err(fail)?;
                // Labels were placed with the sizes of `encoding::size`; a different length
                // would move every later branch target.
                let size = crate::encoding::size(inst, program.target, program.wave);
                if code.len() != size as usize || out.len() != offset as usize {
                    return Err(fail(format!(
                        "encoded in {} bytes where the layout expects {size}",
                        code.len()
                    )));
                }
                out.extend_from_slice(&code);
            }
            Item::Directive(Directive::P2align(n)) => {
                let nop = nop_word(program.target).map_err(fail)?;
                let to =
                    (out.len() as u32).next_multiple_of(1u32 << (*n).min(program::MAX_P2ALIGN));
                while (out.len() as u32) < to {
                    out.extend_from_slice(&nop);
                }
            }
            Item::Directive(Directive::Data { values, .. })
                if values
                    .iter()
                    .any(|v| matches!(v, program::DataValue::Expr(_))) =>
            {
                return Err(fail(
                    "a label address in code needs a relocation; gpuabi encodes code \
                     without relocations"
                        .into(),
                ));
            }
            Item::Directive(d) => out.extend(d.code_bytes(out.len() as u32)),
            _ => {}
        }
    }
    Ok(out)
}
