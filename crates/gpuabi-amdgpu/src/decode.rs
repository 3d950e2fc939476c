//! The decoder: machine code back into a [`Program`].
//!
//! Every decoded instruction is encoded again and must give back its bytes, apart from bits
//! the hardware ignores ([`crate::dont_care`]), which the instruction keeps; an encoding
//! with other bits the machine model does not represent (`clamp`, `omod`, `op_sel`, `tfe`, `lds`,
//! an operand the model has no name for, a literal where an inline constant exists) is an
//! error naming its byte offset, as are unknown opcodes and truncated input. So
//! `encode(decode(bytes)) == bytes` whenever decoding succeeds.
//!
//! Branch targets become labels: a symbol name given by the caller where one lies at the
//! target, otherwise `.L_<offset in hex>`.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use gpuabi_layout::reg::{RegFile, RegRange};
use smallvec::SmallVec;

use crate::encode::{encode_inst, waitcnt_fields, waitcnt_max, WaitCounter, LITERAL, VGPR_BASE};
use crate::encoding::{uses_vop3, vcc_for};
use crate::inst::{DstUnused, Sdwa, SdwaSel};
use crate::inst::{Inst, MemMods, SrcMods};
use crate::microcode::{
    layouts, seg, Encoding, Field, Layout, SDWAB_SD, SDWAB_SDST, SDWA_FIELDS, SDWA_SRC0, VOPD,
};
use crate::opcode_numbers::{number, vop3_base, vopd_op};
use crate::opcodes::{Format, Kind, Opcode, TABLE};
use crate::operand::{Expr, Imm, Operand, Special, Waitcnt};
use crate::program::{self, Item, Program};
use crate::target::{Target, WaveSize, ENCODED_TARGETS};
use crate::validate::{check_inst, check_operand};

/// Why machine code could not be decoded: the byte offset of the instruction and what was
/// wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte offset {offset}: {message}")]
pub struct DecodeError {
    /// Byte offset of the instruction in the code.
    pub offset: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

/// Which instruction an opcode field names: (target, encoding, opcode, `SEG`).
type Key = (Target, Encoding, u16, u64);

fn opcode_map() -> &'static HashMap<Key, Opcode> {
    static MAP: OnceLock<HashMap<Key, Opcode>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = HashMap::new();
        for info in TABLE {
            for t in ENCODED_TARGETS {
                let Some(n) = number(info.op, t) else {
                    continue;
                };
                let format = info.format_on(t);
                let (encoding, segment) = match format {
                    Format::Sop1 => (Encoding::Sop1, 0),
                    Format::Sop2 => (Encoding::Sop2, 0),
                    Format::Sopc => (Encoding::Sopc, 0),
                    Format::Sopk => (Encoding::Sopk, 0),
                    Format::Sopp => (Encoding::Sopp, 0),
                    Format::Smem => (Encoding::Smem, 0),
                    Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
                        (Encoding::Vop3, 0)
                    }
                    Format::Mubuf => (Encoding::Mubuf, 0),
                    Format::Mtbuf => (Encoding::Mtbuf, 0),
                    Format::Flat => (Encoding::Flat, seg::FLAT),
                    Format::Global => (Encoding::Flat, seg::GLOBAL),
                    Format::Scratch => (Encoding::Flat, seg::SCRATCH),
                    Format::Ds => (Encoding::Ds, 0),
                    Format::Mimg => (Encoding::Mimg, 0),
                };
                map.insert((t, encoding, n, segment), info.op);
                let e32 = match format {
                    Format::Vop1 => Some(Encoding::Vop1),
                    Format::Vop2 => Some(Encoding::Vop2),
                    Format::Vopc => Some(Encoding::Vopc),
                    _ => None,
                };
                if let (Some(e), Some(base)) = (e32, vop3_base(format, t)) {
                    if let Some(op32) = n.checked_sub(base) {
                        map.insert((t, e, op32, 0), info.op);
                    }
                }
            }
        }
        map
    })
}

/// A decoded instruction word.
struct Fields {
    layout: &'static Layout,
    bits: u128,
}

impl Fields {
    fn get(&self, field: Field) -> u64 {
        match self.layout.field(field) {
            Some((lo, width)) => ((self.bits >> lo) as u64) & ((1u64 << width) - 1),
            None => 0,
        }
    }

    fn get_signed(&self, field: Field) -> i64 {
        match self.layout.field(field) {
            Some((_, width)) => {
                let v = self.get(field) as i64;
                let shift = 64 - u32::from(width);
                (v << shift) >> shift
            }
            None => 0,
        }
    }
}

/// The decoder's view of the operand codes of one target and wave size.
struct Operands<'a> {
    target: Target,
    wave: WaveSize,
    bytes: &'a [u8],
    /// Offset of the literal dword, right after the instruction word.
    literal_at: usize,
    literal_used: bool,
}

impl Operands<'_> {
    fn dwords(&self, kind: Kind) -> u8 {
        match kind {
            Kind::SDst(n)
            | Kind::SSrc(n)
            | Kind::SReg(n)
            | Kind::VDst(n)
            | Kind::VSrc(n)
            | Kind::VReg(n)
            | Kind::SBase(n) => n,
            Kind::VSrcF64 => 2,
            Kind::MaskDst | Kind::MaskSrc => self.wave.mask_dwords(),
            Kind::Rsrc | Kind::ImgSamp => 4,
            Kind::ImgRsrc => 8,
            Kind::FlatAddr => 2,
            _ => 1,
        }
    }

    /// A scalar register (or special register) of `dwords` registers with code `code`.
    fn sreg(&self, code: u64, dwords: u8) -> Result<Operand, String> {
        let code = u16::try_from(code).map_err(|_| format!("operand code {code}"))?;
        if code < self.target.addressable_sgprs() {
            return Ok(Operand::Reg(RegRange::new(
                RegFile::Sgpr,
                code,
                u16::from(dwords),
            )));
        }
        // `null` stands for a register of any width.
        if self.target.is_rdna() && code == Special::Null.code(self.target) {
            return Ok(Operand::Special(Special::Null));
        }
        Special::from_code(code, dwords, self.target)
            .map(Operand::Special)
            .ok_or_else(|| {
                format!(
                    "scalar operand code {code} ({dwords} dwords) is not a register the \
                     machine model names on {}",
                    self.target
                )
            })
    }

    fn vgpr(&self, num: u64, dwords: u8) -> Result<Operand, String> {
        self.vgprs(num, dwords).map(Operand::Reg)
    }

    fn vgprs(&self, num: u64, dwords: u8) -> Result<RegRange, String> {
        if num + u64::from(dwords) > 256 {
            return Err(format!(
                "a tuple of {dwords} VGPRs from v{num} goes past v255"
            ));
        }
        Ok(RegRange::new(RegFile::Vgpr, num as u16, u16::from(dwords)))
    }

    /// A source operand code (9-bit in vector formats, 8-bit in scalar ones) for a slot of
    /// `kind`.
    fn src(&mut self, code: u64, kind: Kind) -> Result<Operand, String> {
        let dwords = self.dwords(kind);
        if code >= u64::from(VGPR_BASE) {
            return self.vgpr(code - u64::from(VGPR_BASE), dwords);
        }
        let code16 = code as u16;
        if code16 == LITERAL {
            let at = self.literal_at;
            let bytes = self.bytes.get(at..at + 4).ok_or_else(|| {
                "truncated: the instruction's literal constant is missing".to_string()
            })?;
            let value = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            self.literal_used = true;
            // A 16-bit true16 source reads the literal's bits 15:0; the others are kept as
            // bits the hardware ignores (`crate::dont_care`).
            let value = if kind == Kind::VSrcT16 {
                value & 0xffff
            } else {
                value
            };
            return Ok(Operand::Imm(Imm::Int(i64::from(value))));
        }
        // 248 (1/(2π)) is an inline constant from GCN 1.2 on only.
        let gcn1 = matches!(self.target, Target::Gfx6 | Target::Gfx7);
        if let Some(imm) =
            Imm::from_inline_code(code16, dwords).filter(|_| !(gcn1 && code16 == 248))
        {
            return Ok(Operand::Imm(imm));
        }
        self.sreg(code, dwords)
    }
}

/// One decoded instruction: the instruction, its size, and the byte offset a branch goes
/// to.
struct Decoded {
    inst: Inst,
    size: usize,
    branch: Option<i64>,
}

fn decode_one(
    bytes: &[u8],
    offset: usize,
    target: Target,
    wave: WaveSize,
) -> Result<Decoded, String> {
    let rest = &bytes[offset..];
    if rest.len() < 4 {
        return Err(format!(
            "truncated: {} bytes left, an instruction takes at least 4",
            rest.len()
        ));
    }
    let dword0 = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
    if target >= Target::Gfx1100 && VOPD.matches(dword0) {
        return decode_vopd(rest, offset, target, wave);
    }
    let layout = layouts(target)
        .iter()
        .find(|l| l.matches(dword0))
        .ok_or_else(|| {
            format!(
                "unknown encoding {dword0:#010x}: not a format the machine model has on {target}"
            )
        })?;
    let size = usize::from(layout.bytes);
    if rest.len() < size {
        return Err(format!(
            "truncated: a {:?} instruction takes {size} bytes, {} are left",
            layout.encoding,
            rest.len()
        ));
    }
    let mut word = [0u8; 16];
    word[..size].copy_from_slice(&rest[..size]);
    let f = Fields {
        layout,
        bits: u128::from_le_bytes(word),
    };
    let segment = if layout.encoding == Encoding::Flat {
        f.get(Field::Seg)
    } else {
        0
    };
    // RDNA 2's MIMG keeps bit 7 of the opcode apart (OPM; 0 where the layout lacks it).
    let opnum = (f.get(Field::Op) | f.get(Field::OpMsb) << 7) as u16;
    let op = *opcode_map()
        .get(&(target, layout.encoding, opnum, segment))
        .ok_or_else(|| {
            format!(
                "unknown {:?} opcode {opnum:#x} on {target} (word {dword0:#010x})",
                layout.encoding
            )
        })?;
    let info = op.info();
    let mut o = Operands {
        target,
        wave,
        bytes: rest,
        literal_at: size,
        literal_used: false,
    };
    let mut ops: SmallVec<[Operand; 4]> = SmallVec::new();
    let mut mods = MemMods::default();
    let mut src_mods = SrcMods::default();
    let mut branch = None;
    let mut e64 = false;
    let mut sdwa = None;
    let mut hi16 = 0u8;
    // The NSA dwords after a MIMG word.
    let mut nsa_bytes = 0;
    match layout.encoding {
        Encoding::Vopd => return Err("VOPD is decoded apart".into()),
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
            if f.get(Field::Src0) == u64::from(SDWA_SRC0)
                && (target == Target::Gfx1030
                    || (target == Target::Gfx8 && layout.encoding != Encoding::Vopc)) =>
        {
            let at = o.literal_at;
            let b = rest
                .get(at..at + 4)
                .ok_or("truncated: the SDWA dword is missing")?;
            let dword = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            o.literal_used = true;
            let get = |field: Field| {
                SDWA_FIELDS
                    .iter()
                    .find(|(f, _, _)| *f == field)
                    .map_or(0, |&(_, lo, w)| (dword >> lo) & ((1u32 << w) - 1))
            };
            let sel = |v: u32| {
                SdwaSel::ALL
                    .get(v as usize)
                    .copied()
                    .ok_or_else(|| format!("SDWA selection {v} does not exist"))
            };
            let vopc = layout.encoding == Encoding::Vopc;
            // A compare holds SDST/SD where the others have DST_SEL and DST_UNUSED.
            let (dst_sel, dst_unused) = if vopc {
                (SdwaSel::Dword, DstUnused::Preserve)
            } else {
                let unused = DstUnused::ALL
                    .get(get(Field::DstUnused) as usize)
                    .copied()
                    .ok_or("SDWA dst_unused 3 does not exist")?;
                (sel(get(Field::DstSel))?, unused)
            };
            let mut s = Sdwa {
                dst_sel,
                dst_unused,
                src0_sel: sel(get(Field::Src0Sel))?,
                src1_sel: SdwaSel::Dword,
                src0_sext: get(Field::Src0Sext) == 1,
                src1_sext: false,
            };
            let vcc = Operand::Special(vcc_for(wave));
            for kind in info.dsts {
                ops.push(match kind {
                    // A compare's mask: SDST when SD is set, else VCC (RDNA 2 "SDWAB").
                    Kind::MaskDst if vopc && dword >> SDWAB_SD & 1 == 1 => {
                        let (lo, width) = SDWAB_SDST;
                        let code = (dword >> lo) & ((1u32 << width) - 1);
                        o.sreg(u64::from(code), o.dwords(*kind))?
                    }
                    Kind::MaskDst => vcc.clone(),
                    Kind::VDst(n) => o.vgpr(f.get(Field::Vdst), *n)?,
                    k => o.sreg(f.get(Field::Vdst), o.dwords(*k))?,
                });
            }
            let mut explicit = 0;
            for kind in info.srcs {
                ops.push(match (kind, explicit) {
                    (Kind::MaskSrc, _) => vcc.clone(),
                    (k, 0) => {
                        explicit += 1;
                        let code = u64::from(get(Field::Src0));
                        if get(Field::S0) == 1 {
                            sdwa_scalar(&mut o, code, *k)?
                        } else {
                            o.vgpr(code, o.dwords(*k))?
                        }
                    }
                    (k, _) => {
                        s.src1_sel = sel(get(Field::Src1Sel))?;
                        s.src1_sext = get(Field::Src1Sext) == 1;
                        if get(Field::S1) == 1 {
                            sdwa_scalar(&mut o, f.get(Field::Vsrc1), *k)?
                        } else {
                            o.vgpr(f.get(Field::Vsrc1), o.dwords(*k))?
                        }
                    }
                });
            }
            sdwa = Some(s);
            src_mods.neg = (get(Field::Src0Neg) | get(Field::Src1Neg) << 1) as u8;
            src_mods.abs = (get(Field::Src0Abs) | get(Field::Src1Abs) << 1) as u8;
        }
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc => {
            if let Some(k) = info.dsts.first() {
                ops.push(o.sreg(f.get(Field::Sdst), o.dwords(*k))?);
            }
            // A constant K (`s_fmaak_f32`, `s_fmamk_f32`) is the literal dword; the other
            // sources fill SSRC0 and SSRC1 in order.
            let mut fields = [Field::Ssrc0, Field::Ssrc1].into_iter();
            for kind in info.srcs {
                if kind.is_k() {
                    ops.push(o.src(u64::from(LITERAL), *kind)?);
                    continue;
                }
                let field = fields.next().unwrap_or(Field::Ssrc1);
                ops.push(match kind {
                    Kind::Msg8 => Operand::Imm(Imm::Int(f.get(field) as i64)),
                    k => o.src(f.get(field), *k)?,
                });
            }
        }
        Encoding::Sopk => {
            ops.push(o.sreg(f.get(Field::Sdst), 1)?);
            let raw = f.get(Field::Simm16) as u16;
            // `s_cmpk_*_u32`, `s_waitcnt_vscnt` and `s_setreg_b32` take their immediate unsigned.
            let value = if info.srcs.contains(&Kind::Imm16) {
                i64::from(raw)
            } else {
                i64::from(raw as i16)
            };
            ops.push(Operand::Imm(Imm::Int(value)));
            // `s_setreg_b32 hwreg(..), sN` names the immediate first.
            if info.dsts.is_empty() && info.srcs.first() == Some(&Kind::Imm16) {
                ops.swap(0, 1);
            }
        }
        Encoding::Sopp => {
            let simm = f.get(Field::Simm16) as u16;
            match info.srcs.first() {
                None => {}
                Some(Kind::Label) => {
                    let to = offset as i64 + 4 + 4 * i64::from(simm as i16);
                    if to < 0 {
                        return Err(format!("branch to byte {to}, before the start of the code"));
                    }
                    branch = Some(to);
                    ops.push(Operand::Expr(Box::new(Expr::label(label_name(to as u32)))));
                }
                Some(Kind::Waitcnt) => ops.push(Operand::Waitcnt(waitcnt(simm, target))),
                Some(_) => ops.push(Operand::Imm(Imm::Int(i64::from(simm)))),
            }
        }
        Encoding::Smem => {
            ops.push(o.sreg(f.get(Field::Sdata), o.dwords(info.dsts[0]))?);
            ops.push(o.sreg(f.get(Field::Sbase) << 1, o.dwords(info.srcs[0]))?);
            let imm = if !target.is_rdna() {
                f.get(Field::Imm) == 1
            } else {
                f.get(Field::Soffset) == u64::from(Special::Null.code(target))
            };
            let literal = target == Target::Gfx7 && f.get(Field::Offset) == u64::from(LITERAL);
            // RDNA 4's offset is signed, and the load has a cache policy.
            let offset = if target == Target::Gfx12 {
                read_cache_bits(&f, &mut mods, false);
                f.get_signed(Field::Offset)
            } else {
                f.get(Field::Offset) as i64
            };
            ops.push(if imm {
                Operand::Imm(Imm::Int(offset))
            } else if literal {
                o.src(u64::from(LITERAL), Kind::SOffset)?
            } else if !target.is_rdna() {
                o.sreg(f.get(Field::Offset), 1)?
            } else {
                o.sreg(f.get(Field::Soffset), 1)?
            });
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => {
            let vcc = Operand::Special(vcc_for(wave));
            for (i, kind) in info.dsts.iter().enumerate() {
                ops.push(match kind {
                    // `v_swap_b32`'s second VGPR is its SRC0 field.
                    Kind::VDst(n) if i == 1 && op == Opcode::VSwapB32 => {
                        let code = f.get(Field::Src0);
                        let vgpr = code.checked_sub(u64::from(VGPR_BASE)).ok_or_else(|| {
                            format!("`v_swap_b32` with scalar operand code {code} as SRC0")
                        })?;
                        o.vgpr(vgpr, *n)?
                    }
                    Kind::MaskDst => vcc.clone(),
                    Kind::VDst(n) => o.vgpr(f.get(Field::Vdst), *n)?,
                    Kind::VDstT16 => {
                        let (vgpr, hi) = true16_half(f.get(Field::Vdst));
                        hi16 |= u8::from(hi) << i;
                        o.vgpr(vgpr, 1)?
                    }
                    k => o.sreg(f.get(Field::Vdst), o.dwords(*k))?,
                });
            }
            let mut explicit = 0;
            for kind in info.srcs {
                let index = ops.len();
                ops.push(match (kind, explicit) {
                    (Kind::MaskSrc, _) => vcc.clone(),
                    (k, _) if k.is_k() => o.src(u64::from(LITERAL), *k)?,
                    (Kind::VSrcT16, 0) if f.get(Field::Src0) >= u64::from(VGPR_BASE) => {
                        explicit += 1;
                        let (vgpr, hi) = true16_half(f.get(Field::Src0) - u64::from(VGPR_BASE));
                        hi16 |= u8::from(hi) << index;
                        o.vgpr(vgpr, 1)?
                    }
                    (k, 0) => {
                        explicit += 1;
                        o.src(f.get(Field::Src0), *k)?
                    }
                    (Kind::Lane, _) => o.src(f.get(Field::Vsrc1), Kind::Lane)?,
                    (k, _) => o.vgpr(f.get(Field::Vsrc1), o.dwords(*k))?,
                });
            }
        }
        Encoding::Vop3 => {
            for (i, kind) in info.dsts.iter().enumerate() {
                let field = if i == 0 { Field::Vdst } else { Field::Sdst };
                ops.push(match kind {
                    Kind::VDst(n) => o.vgpr(f.get(field), *n)?,
                    k => o.sreg(f.get(field), o.dwords(*k))?,
                });
            }
            for (kind, field) in info
                .srcs
                .iter()
                .zip([Field::Src0, Field::Src1, Field::Src2])
            {
                ops.push(o.src(f.get(field), *kind)?);
            }
            src_mods.neg = f.get(Field::Neg) as u8;
            if !info.is_vop3b() {
                src_mods.abs = f.get(Field::Abs) as u8;
            }
            // GCN 1.0/1.1 VOP3b hold SDST where CLAMP would be.
            if !(info.is_vop3b() && matches!(target, Target::Gfx6 | Target::Gfx7)) {
                src_mods.clamp = f.get(Field::Clamp) == 1;
            }
            src_mods.omod = crate::output_mods::Omod::ALL[f.get(Field::Omod) as usize & 3];
            e64 = matches!(
                info.format_on(target),
                Format::Vop1 | Format::Vop2 | Format::Vopc
            );
        }
        // Cache invalidations: no operands.
        Encoding::Mubuf if info.slots().next().is_none() => {}
        // RDNA 4's VIMAGE: the five address entries in fields of their own.
        Encoding::Mimg if target == Target::Gfx12 => {
            let (Some(Kind::VDst(results)), Some(Kind::ImageAddr(dwords))) =
                (info.dsts.first(), info.srcs.first())
            else {
                return Err("a VIMAGE instruction without results and an address".into());
            };
            ops.push(o.vgpr(f.get(Field::Vdata), *results)?);
            let counts = crate::validate::nsa_layout(target, *dwords)
                .ok_or_else(|| format!("no address of {dwords} dwords on {target}"))?;
            let fields = crate::microcode::VIMAGE_ADDRESS_FIELDS;
            let regs = fields
                .iter()
                .zip(&counts)
                .map(|(field, count)| o.vgprs(f.get(*field), *count as u8))
                .collect::<Result<Box<[RegRange]>, String>>()?;
            ops.push(Operand::Nsa(regs));
            ops.push(o.sreg(f.get(Field::Srsrc) << 2, 4)?);
        }
        Encoding::Mimg if target.is_rdna() => {
            let dwords = match info.srcs.first() {
                Some(Kind::ImageAddr(n)) => *n,
                _ => return Err("a MIMG instruction without an image address".into()),
            };
            ops.push(o.vgpr(f.get(Field::Vdata), 4)?);
            let extra = f.get(Field::Nsa) as usize;
            let vaddr = f.get(Field::Vaddr);
            if extra == 0 {
                ops.push(o.vgpr(vaddr, dwords)?);
            } else {
                let bytes = rest.get(size..size + 4 * extra).ok_or_else(|| {
                    format!("truncated: the {extra} NSA dwords of the address are missing")
                })?;
                let counts = crate::validate::nsa_layout(target, dwords)
                    .ok_or_else(|| format!("no NSA address of {dwords} dwords on {target}"))?;
                let firsts = std::iter::once(vaddr).chain(bytes.iter().map(|b| u64::from(*b)));
                let regs = firsts
                    .zip(&counts)
                    .map(|(first, count)| o.vgprs(first, *count as u8))
                    .collect::<Result<Box<[RegRange]>, String>>()?;
                ops.push(Operand::Nsa(regs));
                nsa_bytes = 4 * extra;
            }
            ops.push(o.sreg(f.get(Field::Srsrc) << 2, 4)?);
        }
        Encoding::Ds => {
            if f.get(Field::Gds) == 1 {
                return Err("`gds` (the global data share) is not in the machine model".into());
            }
            let dwords = |k: &Kind| match k {
                Kind::VDst(n) | Kind::VReg(n) => *n,
                _ => 1,
            };
            if let Some(k) = info.dsts.first() {
                ops.push(o.vgpr(f.get(Field::Vdst), dwords(k))?);
            }
            // A second destination is ADDR, read and written back (`ds_bvh_stack_rtn_b32`).
            let fields: &[Field] = if info.dsts.len() == 2 {
                ops.push(o.vgpr(f.get(Field::Addr), 1)?);
                &[Field::Data, Field::Data1]
            } else {
                &[Field::Addr, Field::Data, Field::Data1]
            };
            for (k, field) in info.srcs.iter().zip(fields) {
                ops.push(o.vgpr(f.get(*field), dwords(k))?);
            }
            if info.is_ds_two_address() {
                mods.offset0 = f.get(Field::Offset0) as u8;
                mods.offset1 = f.get(Field::Offset1) as u8;
            } else {
                mods.offset = f.get(Field::Offset) as i32;
            }
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            mods.offen = f.get(Field::Offen) == 1;
            mods.idxen = f.get(Field::Idxen) == 1;
            mods.addr64 = f.get(Field::Addr64) == 1;
            if layout.encoding == Encoding::Mtbuf {
                let format = (f.get(Field::Dfmt) | f.get(Field::Nfmt) << 4) as u8;
                mods.format = (format != MemMods::DEFAULT_FORMAT).then_some(format);
            }
            let data = o.vgpr(f.get(Field::Vdata), data_dwords(info))?;
            let addr = if mods.addr64 {
                o.vgpr(f.get(Field::Vaddr), 2)?
            } else if mods.offen || mods.idxen {
                o.vgpr(f.get(Field::Vaddr), 1)?
            } else {
                Operand::Off
            };
            ops.push(data);
            ops.push(addr);
            ops.push(o.sreg(f.get(Field::Srsrc) << 2, 4)?);
            ops.push(o.src(f.get(Field::Soffset), Kind::BufSOffset)?);
            mods.offset = f.get(Field::Offset) as i32;
            read_cache_bits(&f, &mut mods, info.atomic.is_some());
        }
        Encoding::Mimg => {
            mods.dmask = f.get(Field::Dmask) as u8;
            mods.unorm = f.get(Field::Unorm) == 1;
            mods.da = f.get(Field::Da) == 1;
            mods.r128 = f.get(Field::R128) == 1;
            mods.tfe = f.get(Field::Tfe) == 1;
            mods.lwe = f.get(Field::Lwe) == 1;
            read_cache_bits(&f, &mut mods, false);
            // The address is named by its first VGPR, as llvm-objdump-19 prints it: the
            // encoding does not say how many the hardware reads.
            // Loads and stores alike name the data, then the address.
            ops.push(o.vgpr(f.get(Field::Vdata), mods.image_data_dwords())?);
            ops.push(o.vgpr(f.get(Field::Vaddr), 1)?);
            ops.push(o.sreg(f.get(Field::Srsrc) << 2, 8)?);
            if info.srcs.contains(&Kind::ImgSamp) {
                ops.push(o.sreg(f.get(Field::Ssamp) << 2, 4)?);
            }
        }
        Encoding::Flat if info.slots().next().is_none() => {
            read_cache_bits(&f, &mut mods, false);
        }
        Encoding::Flat => {
            let null = u64::from(Special::Null.code(target));
            let saddr_code = f.get(Field::Saddr);
            let (addr, saddr) = match info.format {
                Format::Global if saddr_code == null => {
                    (o.vgpr(f.get(Field::Addr), 2)?, Some(Operand::Off))
                }
                Format::Global => (o.vgpr(f.get(Field::Addr), 1)?, Some(o.sreg(saddr_code, 2)?)),
                Format::Scratch => {
                    let vaddr = if target >= Target::Gfx1100 {
                        f.get(Field::Sve) == 1
                    } else {
                        saddr_code == null
                    };
                    let addr = if vaddr {
                        o.vgpr(f.get(Field::Addr), 1)?
                    } else {
                        Operand::Off
                    };
                    let exec_hi = u64::from(Special::ExecHi.code(target));
                    let saddr = if saddr_code == null
                        || (target == Target::Gfx1030 && saddr_code == exec_hi)
                    {
                        Operand::Off
                    } else {
                        o.sreg(saddr_code, 1)?
                    };
                    (addr, Some(saddr))
                }
                _ => (o.vgpr(f.get(Field::Addr), 2)?, None),
            };
            let data = o.vgpr(f.get(Field::Data), data_dwords(info))?;
            read_cache_bits(&f, &mut mods, info.atomic.is_some());
            if op.is_store() {
                if info.atomic.is_some() && mods.glc {
                    ops.push(o.vgpr(f.get(Field::Vdst), op.mem_dwords())?);
                }
                ops.push(addr);
                ops.push(data);
            } else {
                ops.push(o.vgpr(f.get(Field::Vdst), op.mem_dwords())?);
                ops.push(addr);
            }
            ops.extend(saddr);
            mods.offset = f.get_signed(Field::Offset) as i32;
        }
    }
    let mut inst = Inst {
        op,
        operands: ops,
        mods,
        e64: false,
        src_mods,
        sdwa,
        dual: None,
        dont_care: 0,
        hi16,
    };
    if e64 && (!uses_vop3(&inst, target, wave) || inst.modifies_constant()) {
        inst.e64 = true;
    }
    let size = size + nsa_bytes + if o.literal_used { 4 } else { 0 };
    let name = info.name(target).unwrap_or(info.mnemonic);
    for (i, (kind, operand)) in inst.slots().zip(&inst.operands).enumerate() {
        check_operand(kind, operand, target, wave)
            .map_err(|m| format!("`{name}` operand {}: {m}", i + 1))?;
    }
    check_inst(&inst, target, wave).map_err(|v| format!("`{name}`: {}", v.message))?;
    // The model must give back the very bytes: anything it does not represent fails here.
    let mut labels = program::Layout {
        offsets: Vec::new(),
        labels: HashMap::new(),
        size: 0,
    };
    if let Some(to) = branch {
        labels.labels.insert(label_name(to as u32), to as u32);
    }
    let again = encode_inst(&inst, target, wave, offset as u32, &labels)?;
    if again[..] != rest[..size] {
        // Bits the hardware ignores may hold anything; they are kept for re-encoding.
        inst.dont_care = crate::dont_care::difference(&inst, target, &again, &rest[..size])
            .ok_or_else(|| {
                format!(
                    "the encoding of `{}` has bits the machine model does not represent \
                     (modifiers such as clamp, omod, op_sel, tfe or lds, or a literal where \
                     an inline constant exists)",
                    crate::asm::printer::print_inst(&inst, target)
                )
            })?;
    }
    Ok(Decoded { inst, size, branch })
}

/// The VGPR and half (true when bits 31:16) of an 8-bit true16 register field of a 32-bit
/// encoding: bits 6:0 the VGPR, bit 7 the half ("RDNA3 ISA", "16-bit Math and VGPRs").
fn true16_half(field: u64) -> (u64, bool) {
    (field & 0x7f, field >> 7 & 1 != 0)
}

/// A scalar SDWA source (`S0`/`S1` set): an SGPR, a special register or an inline
/// constant; SDWA has no literal.
fn sdwa_scalar(o: &mut Operands<'_>, code: u64, kind: Kind) -> Result<Operand, String> {
    if code == u64::from(LITERAL) {
        return Err("an SDWA source with the literal code 255 (SDWA has no literal)".into());
    }
    o.src(code, kind)
}

/// Dwords of a vector memory instruction's data register: the data slot of a store or
/// atomic (an atomic `cmpswap` holds two values), else the loaded width.
fn data_dwords(info: &crate::OpInfo) -> u8 {
    info.srcs
        .iter()
        .find_map(|k| match k {
            Kind::VReg(n) => Some(*n),
            _ => None,
        })
        .unwrap_or_else(|| info.op.mem_dwords())
}

/// A VOPD word ("RDNA3 ISA", "VOPD"; fields in [`VOPD`]): two halves, X then Y.
fn decode_vopd(
    rest: &[u8],
    offset: usize,
    target: Target,
    wave: WaveSize,
) -> Result<Decoded, String> {
    if rest.len() < 8 {
        return Err(format!(
            "truncated: a VOPD instruction takes 8 bytes, {} are left",
            rest.len()
        ));
    }
    let mut word = [0u8; 16];
    word[..8].copy_from_slice(&rest[..8]);
    let f = Fields {
        layout: &VOPD,
        bits: u128::from_le_bytes(word),
    };
    let mut o = Operands {
        target,
        wave,
        bytes: rest,
        literal_at: 8,
        literal_used: false,
    };
    let opx = f.get(Field::OpX) as u8;
    let opy = f.get(Field::OpY) as u8;
    let x_op = vopd_op(opx, false).ok_or_else(|| format!("unknown VOPD OPX {opx}"))?;
    let y_op = vopd_op(opy, true).ok_or_else(|| format!("unknown VOPD OPY {opy}"))?;
    let vdstx = f.get(Field::VdstX);
    let vdsty = f.get(Field::VdstY) << 1 | (!vdstx & 1);
    let mut half = |op: Opcode, dst: u64, src0: Field, src1: Field| -> Result<Inst, String> {
        let info = op.info();
        let mut ops: SmallVec<[Operand; 4]> = SmallVec::new();
        ops.push(o.vgpr(dst, 1)?);
        let mut explicit = 0;
        for kind in info.srcs {
            ops.push(match (kind, explicit) {
                (Kind::MaskSrc, _) => Operand::Special(vcc_for(wave)),
                (k, _) if k.is_k() => o.src(u64::from(LITERAL), *k)?,
                (k, 0) => {
                    explicit += 1;
                    o.src(f.get(src0), *k)?
                }
                (k, _) => o.vgpr(f.get(src1), o.dwords(*k))?,
            });
        }
        Ok(Inst::new(op, ops))
    };
    let x = half(x_op, vdstx, Field::Src0, Field::Vsrc1)?;
    let y = half(y_op, vdsty, Field::SrcY0, Field::VsrcY1)?;
    let mut inst = x;
    inst.dual = Some(Box::new(y));
    let size = 8 + if o.literal_used { 4 } else { 0 };
    check_inst(&inst, target, wave).map_err(|v| format!("VOPD: {}", v.message))?;
    let labels = program::Layout {
        offsets: Vec::new(),
        labels: HashMap::new(),
        size: 0,
    };
    let again = encode_inst(&inst, target, wave, offset as u32, &labels)?;
    if again[..] != rest[..size] {
        return Err(format!(
            "the encoding of `{}` has bits the machine model does not represent",
            crate::asm::printer::print_inst(&inst, target)
        ));
    }
    Ok(Decoded {
        inst,
        size,
        branch: None,
    })
}

/// The cache policy: GLC, SLC and DLC, or RDNA 4's TH and SCOPE (where an atomic's
/// `TH_ATOMIC_RETURN`, bit 0 of TH, stands for `glc`).
fn read_cache_bits(f: &Fields, mods: &mut MemMods, atomic: bool) {
    mods.glc = f.get(Field::Glc) == 1;
    mods.slc = f.get(Field::Slc) == 1;
    mods.dlc = f.get(Field::Dlc) == 1;
    mods.th = f.get(Field::Th) as u8;
    mods.scope = f.get(Field::Scope) as u8;
    if f.layout.field(Field::Th).is_some() {
        mods.glc = atomic && mods.th & 1 == 1;
    }
}

/// The counters of an `s_waitcnt` immediate; a counter at its maximum is not waited for.
fn waitcnt(simm: u16, target: Target) -> Waitcnt {
    let (vm_max, exp_max, lgkm_max) = waitcnt_max(target);
    let (mut vm, mut exp, mut lgkm) = (0u8, 0u8, 0u8);
    for &(c, lo, width) in waitcnt_fields(target) {
        let v = ((simm >> lo) & ((1 << width) - 1)) as u8;
        match c {
            WaitCounter::Vm => vm |= v,
            WaitCounter::VmHi => vm |= v << 4,
            WaitCounter::Exp => exp = v,
            WaitCounter::Lgkm => lgkm = v,
        }
    }
    let keep = |v: u8, max: u8| (v != max).then_some(v);
    let mut w = Waitcnt {
        vmcnt: keep(vm, vm_max),
        expcnt: keep(exp, exp_max),
        lgkmcnt: keep(lgkm, lgkm_max),
    };
    if w == Waitcnt::default() {
        // Waiting for nothing: spelled with one counter at its maximum.
        w.vmcnt = Some(vm_max);
    }
    w
}

/// The generated name of the label at byte `offset`.
pub fn label_name(offset: u32) -> String {
    format!(".L_{offset:x}")
}

/// Decodes machine code for `target` and `wave` into a program: instructions in order,
/// with a label wherever a branch goes.
pub fn decode(bytes: &[u8], target: Target, wave: WaveSize) -> Result<Program, DecodeError> {
    decode_with_symbols(bytes, target, wave, &[])
}

/// The first instruction of `bytes` and its size in bytes, for a reader that has an
/// instruction's bytes but no text for it (a listing's `(invalid instruction)` lines). A
/// branch is refused: its target would be a label, which raw bytes do not name.
pub fn decode_first(
    bytes: &[u8],
    target: Target,
    wave: WaveSize,
) -> Result<(Inst, usize), DecodeError> {
    let error = |message: String| DecodeError { offset: 0, message };
    if !target.has_encodings() || !target.supports(wave) {
        return Err(error(format!("no encodings for {target} in {wave}")));
    }
    let d = decode_one(bytes, 0, target, wave).map_err(error)?;
    if d.branch.is_some() {
        return Err(error(format!(
            "`{}` is a branch, whose target raw bytes do not name",
            crate::asm::printer::print_inst(&d.inst, target)
        )));
    }
    Ok((d.inst, d.size))
}

/// Like [`decode()`], with named symbols (from an object file) placed at their offsets;
/// branches to a symbol use its name. Symbols outside the code or inside an instruction
/// are an error; a name given twice labels its first offset only.
pub fn decode_with_symbols(
    bytes: &[u8],
    target: Target,
    wave: WaveSize,
    symbols: &[(String, u32)],
) -> Result<Program, DecodeError> {
    if !target.has_encodings() {
        return Err(DecodeError {
            offset: 0,
            message: format!("the machine model has no encodings for {target}"),
        });
    }
    if !target.supports(wave) {
        return Err(DecodeError {
            offset: 0,
            message: format!("{target} runs {} only", target.default_wave()),
        });
    }
    let mut insts = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let d = decode_one(bytes, at, target, wave).map_err(|message| DecodeError {
            offset: at,
            message,
        })?;
        insts.push((at, d));
        at += insts.last().map(|(_, d)| d.size).unwrap_or(4);
    }
    // Labels: symbols first (in the order given), then branch targets without one.
    // A name defined twice (local symbols of different files) labels its first offset only.
    let mut names: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for (name, off) in symbols {
        if seen.insert(name.as_str()) {
            names.entry(*off).or_default().push(name.clone());
        }
    }
    let boundaries: std::collections::HashSet<usize> = insts
        .iter()
        .map(|(a, _)| *a)
        .chain(std::iter::once(bytes.len()))
        .collect();
    for (at, d) in &mut insts {
        let Some(to) = d.branch else {
            continue;
        };
        if to < 0 || !boundaries.contains(&(to as usize)) {
            return Err(DecodeError {
                offset: *at,
                message: format!(
                    "branch to byte {to}, which is not the start of an instruction in the \
                     {} bytes of code",
                    bytes.len()
                ),
            });
        }
        let list = names.entry(to as u32).or_default();
        if list.is_empty() {
            list.push(label_name(to as u32));
        }
        d.inst.operands[0] = Operand::Expr(Box::new(Expr::label(list[0].clone())));
    }
    for off in names.keys() {
        if !boundaries.contains(&(*off as usize)) {
            return Err(DecodeError {
                offset: *off as usize,
                message: "a symbol lies inside an instruction or past the end of the code".into(),
            });
        }
    }
    let mut program = Program::new(target, wave);
    let push_labels = |program: &mut Program, off: u32| {
        if let Some(list) = names.get(&off) {
            for n in list {
                program.push(Item::Label(n.clone()));
            }
        }
    };
    for (at, d) in insts {
        push_labels(&mut program, at as u32);
        program.push(Item::Inst(d.inst));
    }
    push_labels(&mut program, bytes.len() as u32);
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::{parse, print};

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn decodes_branches_into_labels() {
        // GCN3 ISA: s_nop 0 = SOPP op 0, s_branch = SOPP op 2 with SIMM16 = -2 (back to
        // the s_nop: 4 + 4 * -2 = -4 bytes from the branch), s_endpgm = SOPP op 1.
        let code = bytes(&[0xbf80_0000, 0xbf82_fffe, 0xbf81_0000]);
        let p = decode(&code, Target::Gfx8, WaveSize::W64).unwrap();
        assert_eq!(print(&p), ".L_0:\n\ts_nop 0\n\ts_branch .L_0\n\ts_endpgm\n");
        let symbols = [("main".to_string(), 0)];
        let p = decode_with_symbols(&code, Target::Gfx8, WaveSize::W64, &symbols).unwrap();
        assert_eq!(print(&p), "main:\n\ts_nop 0\n\ts_branch main\n\ts_endpgm\n");
    }

    #[test]
    fn errors_name_the_byte_offset() {
        let t = Target::Gfx1030;
        let w = WaveSize::W32;
        let e = decode(&[0, 0, 0x81, 0xbf, 0x00, 0x00], t, w).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("truncated: 2 bytes left"), "{e}");
        // A VOP3 word without its second dword.
        let e = decode(&bytes(&[0xd503_0000]), t, w).unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("takes 8 bytes, 4 are left"), "{e}");
        // `v_mov_b32 v0, <literal>` without the literal.
        let e = decode(&bytes(&[0xbf81_0000, 0x7e00_02ff]), t, w).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("literal constant is missing"), "{e}");
        // EXP (0b111110) is not a format of the model.
        let e = decode(&bytes(&[0xbf81_0000, 0xf800_0000, 0]), t, w).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("unknown encoding 0xf8000000"), "{e}");
        // SOP1 opcode 0x7f does not exist in the table.
        let e = decode(&bytes(&[0xbe80_7f00]), t, w).unwrap_err();
        assert!(e.message.contains("unknown Sop1 opcode 0x7f"), "{e}");
        // A branch into the middle of nowhere.
        let e = decode(&bytes(&[0xbf82_0010]), t, w).unwrap_err();
        assert!(e.message.contains("branch to byte 68"), "{e}");
        // `s_endpgm 1`: a SIMM16 the model does not represent.
        let e = decode(&bytes(&[0xbf81_0001]), t, w).unwrap_err();
        assert!(e.message.contains("does not represent"), "{e}");
    }

    #[test]
    fn gcn1_waitcnt_keeps_amd_s_fifth_lgkm_bit() {
        let t = Target::Gfx6;
        // AMD's `s_waitcnt vmcnt(2)`: LGKM_CNT 31 in SIMM16[12:8] (llvm-objdump-19 prints
        // the same bytes for tonga as `s_waitcnt vmcnt(2)`).
        let code = bytes(&[0xbf8c_1f72]);
        let p = decode(&code, t, WaveSize::W64).unwrap();
        let inst = p.insts().next().unwrap();
        assert_eq!(inst.dont_care, 0x1000);
        assert_eq!(
            crate::asm::printer::print_inst(inst, t),
            "s_waitcnt vmcnt(2)"
        );
        assert_eq!(crate::encode(&p).unwrap(), code);
        // Beside a real LGKM count the bit would make lgkmcnt(16): not represented.
        let e = decode(&bytes(&[0xbf8c_1072]), t, WaveSize::W64).unwrap_err();
        assert!(e.message.contains("does not represent"), "{e}");
    }

    /// RDNA 3's true16 `v_mov_b16_e32` as RADV's listings have it: the halves in bit 7 of
    /// the register fields, llvm-mc-19's encoding of `v16.h, v17.l` (0x7f203911); ACO's
    /// literal sign-extended (0xffff804c), its high 16 bits kept as ignored bits.
    #[test]
    fn true16_halves_and_acos_literal() {
        let p = decode(&bytes(&[0x7f20_3911]), Target::Gfx1100, WaveSize::W32).unwrap();
        let Item::Inst(inst) = &p.items[0].item else {
            panic!("{:?}", p.items)
        };
        assert_eq!(
            crate::asm::printer::print_inst(inst, Target::Gfx1100),
            "v_mov_b16 v16.h, v17.l"
        );
        assert_eq!(inst.hi16, 0b01);
        let code = bytes(&[0x7e04_38ff, 0xffff_804c]);
        let p = decode(&code, Target::Gfx1100, WaveSize::W32).unwrap();
        let Item::Inst(inst) = &p.items[0].item else {
            panic!("{:?}", p.items)
        };
        assert_eq!(
            crate::asm::printer::print_inst(inst, Target::Gfx1100),
            "v_mov_b16 v2.l, 0x804c"
        );
        assert_eq!(inst.dont_care, 0xffff << 48);
        assert_eq!(crate::encode(&p).unwrap(), code);
    }

    #[test]
    fn modifiers_the_model_lacks_are_errors() {
        // v_add_f32_e64 v0, v1, v2 with op_sel (bit 11), RDNA2 VOP3.
        let code = bytes(&[0xd503_0800, 0x0002_0501]);
        let e = decode(&code, Target::Gfx1030, WaveSize::W32).unwrap_err();
        assert!(e.message.contains("v_add_f32_e64 v0, v1, v2"), "{e}");
        // With clamp (bit 15) and div:2 (OMOD 3): the output modifiers are modelled.
        let clamped = bytes(&[0xd503_8000, 0x1802_0501]);
        let c = decode(&clamped, Target::Gfx1030, WaveSize::W32).unwrap();
        // (`_e64` is implied by the modifiers, as for `-v1`.)
        assert_eq!(print(&c), "\tv_add_f32 v0, v1, v2 clamp div:2\n");
        // `v_add_u32` (a carry out, VOP3b) takes no omod.
        let e = decode(
            &bytes(&[0xd119_6a00, 0x0802_0501]),
            Target::Gfx8,
            WaveSize::W64,
        )
        .unwrap_err();
        assert!(e.message.contains("output modifier"), "{e}");
        let plain = bytes(&[0xd503_0000, 0x0002_0501]);
        let p = decode(&plain, Target::Gfx1030, WaveSize::W32).unwrap();
        assert_eq!(print(&p), "\tv_add_f32_e64 v0, v1, v2\n");
        let again = parse(&print(&p), Target::Gfx1030, WaveSize::W32).unwrap();
        assert_eq!(crate::encode(&again).unwrap(), plain);
    }
}
