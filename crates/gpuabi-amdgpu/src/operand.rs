//! Operands of machine instructions: registers, special registers, constants, label
//! expressions.

use std::fmt;

use gpuabi_layout::reg::{RegFile, RegRange};

use crate::target::Target;

/// A named scalar register that is not an `sN` (LLVM spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// `vcc`: the 64-bit vector condition code, `s[106:107]` in the encoding.
    Vcc,
    /// `vcc_lo`: its low half (the whole of it in wave32).
    VccLo,
    /// `vcc_hi`: its high half.
    VccHi,
    /// `exec`: the 64-bit execute mask.
    Exec,
    /// `exec_lo`: its low half (the whole of it in wave32).
    ExecLo,
    /// `exec_hi`: its high half.
    ExecHi,
    /// `m0`: the miscellaneous register.
    M0,
    /// `null` (RDNA): reads as zero, writes are dropped.
    Null,
    /// `flat_scratch` (GCN 1.2): the 64-bit flat scratch base and size, `s[102:103]` in
    /// the encoding ("AMD GCN3 ISA", "SGPR Allocation and Storage"; RDNA reaches it only
    /// through `s_setreg_b32`/`s_getreg_b32`).
    FlatScratch,
    /// `flat_scratch_lo`: its low half (GCN 1.2).
    FlatScratchLo,
    /// `flat_scratch_hi`: its high half (GCN 1.2).
    FlatScratchHi,
    /// `src_scc`: the scalar condition code read as a 32-bit source (0 or 1), operand code
    /// 253 on every target ("AMD GCN3 ISA", "RDNA3 ISA", "Scalar Operands"). ACO writes it in
    /// `s_or_b32 s10, src_scc, s8`.
    Scc,
    /// `ttmpN`: a trap handler temporary (`ttmp0`-`ttmp15` on RDNA, `ttmp0`-`ttmp11` on
    /// GCN 1.2), codes 108 + N on RDNA and 112 + N on GCN 1.2 ("RDNA3 ISA" and "AMD GCN3
    /// ISA", "Scalar Operands"). llc's code for `llvm.trap` on RDNA 3 saves `m0` in one.
    Ttmp(u8),
}

/// The spellings of the trap temporaries.
const TTMP_NAMES: [&str; 16] = [
    "ttmp0", "ttmp1", "ttmp2", "ttmp3", "ttmp4", "ttmp5", "ttmp6", "ttmp7", "ttmp8", "ttmp9",
    "ttmp10", "ttmp11", "ttmp12", "ttmp13", "ttmp14", "ttmp15",
];

impl Special {
    /// Every special register with its LLVM name.
    pub const ALL: [(Special, &'static str); 12] = [
        (Special::Vcc, "vcc"),
        (Special::VccLo, "vcc_lo"),
        (Special::VccHi, "vcc_hi"),
        (Special::Exec, "exec"),
        (Special::ExecLo, "exec_lo"),
        (Special::ExecHi, "exec_hi"),
        (Special::M0, "m0"),
        (Special::Null, "null"),
        (Special::FlatScratch, "flat_scratch"),
        (Special::FlatScratchLo, "flat_scratch_lo"),
        (Special::FlatScratchHi, "flat_scratch_hi"),
        (Special::Scc, "src_scc"),
    ];

    /// The LLVM name.
    pub fn name(self) -> &'static str {
        if let Special::Ttmp(n) = self {
            return TTMP_NAMES.get(usize::from(n)).copied().unwrap_or("?");
        }
        Special::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    /// Number of 32-bit registers it spans.
    pub const fn dwords(self) -> u8 {
        match self {
            Special::Vcc | Special::Exec | Special::FlatScratch => 2,
            _ => 1,
        }
    }

    /// Its first register in the hardware's scalar operand numbering (`vcc_lo` = 106,
    /// `m0` = 124, `null` = 125, `exec_lo` = 126, `flat_scratch_lo` = 102 on GCN 1.2;
    /// `src_scc` = 253, a source code rather than a register).
    pub const fn hw_index(self) -> u16 {
        match self {
            Special::FlatScratch | Special::FlatScratchLo => 102,
            Special::FlatScratchHi => 103,
            Special::Vcc | Special::VccLo => 106,
            Special::VccHi => 107,
            Special::M0 => 124,
            Special::Null => 125,
            Special::Exec | Special::ExecLo => 126,
            Special::ExecHi => 127,
            Special::Scc => 253,
            Special::Ttmp(n) => 108 + n as u16,
        }
    }

    /// The trap temporary named `name` on `target` (`ttmp0`..), if it exists there.
    pub fn ttmp(name: &str, target: Target) -> Option<Special> {
        let n = TTMP_NAMES.iter().position(|t| *t == name)?;
        (n < Special::ttmp_count(target)).then_some(Special::Ttmp(n as u8))
    }

    /// How many trap temporaries `target` has.
    pub const fn ttmp_count(target: Target) -> usize {
        match target {
            Target::Gfx1030 | Target::Gfx1100 | Target::Gfx12 => 16,
            Target::Gfx8 | Target::Gfx9 => 12,
            Target::Gfx6 | Target::Gfx7 => 0,
        }
    }

    /// Its code in operand fields on `target`: [`Special::hw_index`], except that RDNA 3
    /// swapped `m0` and `null` (RDNA3 ISA, "Scalar Operands": `null` = 124, `m0` = 125; RDNA 4
    /// kept RDNA 3's codes).
    pub const fn code(self, target: Target) -> u16 {
        match (self, target) {
            (Special::Ttmp(n), Target::Gfx8 | Target::Gfx9) => 112 + n as u16,
            (Special::M0, Target::Gfx1100 | Target::Gfx12) => 125,
            (Special::Null, Target::Gfx1100 | Target::Gfx12) => 124,
            _ => self.hw_index(),
        }
    }

    /// The special register of `dwords` registers whose code on `target` is `code`.
    pub fn from_code(code: u16, dwords: u8, target: Target) -> Option<Special> {
        let first_ttmp = Special::Ttmp(0).code(target);
        let n = code.wrapping_sub(first_ttmp) as usize;
        if dwords == 1 && code >= first_ttmp && n < Special::ttmp_count(target) {
            return Some(Special::Ttmp(n as u8));
        }
        Special::ALL
            .iter()
            .map(|(s, _)| *s)
            .find(|s| s.code(target) == code && s.dwords() == dwords)
    }

    /// Whether it is the whole lane mask `vcc` of a wave with `mask_dwords` SGPRs per mask.
    pub const fn is_vcc_mask(self, mask_dwords: u8) -> bool {
        matches!((self, mask_dwords), (Special::Vcc, 2) | (Special::VccLo, 1))
    }
}

/// An immediate value as written: an integer or a floating-point number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Imm {
    /// An integer (`5`, `-1`, `0x1234`).
    Int(i64),
    /// A floating-point number (`1.0`, `-0.5`).
    Float(f64),
}

/// The f32 values the hardware has as inline constants (besides the integers -16..64):
/// ±0.5, ±1, ±2, ±4 and 1/(2π) (GCN 1.2 and later).
const INLINE_F32: [u32; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];

/// The same values as f64 bit patterns, for 64-bit operands.
const INLINE_F64: [u64; 9] = [
    0x3fe0_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x4010_0000_0000_0000,
    0xc010_0000_0000_0000,
    0x3fc4_5f30_6dc9_c882,
];

/// The bf16 bit patterns of the same inline constants, in the same order (LLVM's
/// `getInlineEncodingV2BF16`).
const INLINE_BF16: [u16; 9] = [
    0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22,
];

/// The f16 bit patterns of the same inline constants, in the same order: the values a
/// 16-bit float operand receives for codes 240..248.
const INLINE_F16: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// The f16 bits of `x` if it is exactly representable as an f16 (a finite number whose
/// exponent and significand fit, or ±inf), else `None`.
fn exact_f16(x: f64) -> Option<u16> {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    if a.is_nan() {
        return None;
    }
    // Normal f16: 2^-14 <= a < 2^16 with an 11-bit significand; denormal: a multiple of
    // 2^-24 below 2^-14.
    if a < 2f64.powi(-14) {
        let m = a * 2f64.powi(24);
        return (m.fract() == 0.0).then_some(sign | m as u16);
    }
    let mut e = a.log2().floor() as i32;
    // log2 may round across a power of two: keep the significand in [1024, 2048).
    let mut m = a / 2f64.powi(e) * 1024.0;
    if m >= 2048.0 {
        e += 1;
        m /= 2.0;
    } else if m < 1024.0 {
        e -= 1;
        m *= 2.0;
    }
    (e <= 15 && m.fract() == 0.0).then(|| sign | ((e + 15) as u16) << 10 | (m as u16 & 0x3ff))
}

impl Imm {
    /// The 16 bits a 16-bit (f16) operand receives, or `None` if it does not fit: integers
    /// in -32768..65536, the inline float constants as their f16 values, and other floats
    /// exactly representable as f16 (llvm-mc-19 refuses `0x12345` and `0xfffffffe` there).
    pub fn value16(self) -> Option<u16> {
        match self {
            Imm::Int(v) if (-0x8000..0x1_0000).contains(&v) => Some(v as u16),
            Imm::Int(_) => None,
            Imm::Float(f) => match INLINE_F32.iter().position(|b| *b == (f as f32).to_bits()) {
                Some(i) if f64::from(f as f32) == f => Some(INLINE_F16[i]),
                _ => exact_f16(f),
            },
        }
    }

    /// Its inline-constant code in a 16-bit (f16) operand, or `None` if it takes a literal:
    /// the integers -16..64 as in 32-bit operands, and the f16 bit patterns of ±0.5, ±1, ±2,
    /// ±4 and 1/(2π), however written (llvm-mc-19 encodes `0x3c00` there as `1.0`).
    pub fn inline_code16(self) -> Option<u16> {
        let v = self.value16()?;
        if (-16..=64).contains(&(v as i16)) {
            return Imm::Int(i64::from(v as i16)).inline_code(1);
        }
        INLINE_F16
            .iter()
            .position(|b| *b == v)
            .map(|i| 240 + i as u16)
    }

    /// Its inline-constant code in a 16-bit integer operand ([`crate::Kind::VSrcI16`]), or
    /// `None` if it takes a literal: the integers -16..64 and the inline floats as written,
    /// which the hardware gives as their f32 bit patterns.
    pub fn inline_code_i16(self) -> Option<u16> {
        match self {
            Imm::Int(v) if (-16..=64).contains(&v) => self.inline_code(1),
            Imm::Int(_) => None,
            Imm::Float(f) => {
                let bits = (f as f32).to_bits();
                let exact = f64::from(f as f32) == f;
                INLINE_F32
                    .iter()
                    .position(|b| exact && *b == bits)
                    .map(|i| 240 + i as u16)
            }
        }
    }

    /// Its inline-constant code in an operand of two packed f16 values
    /// ([`crate::Kind::VSrcPkF16`]), or `None` if it takes a literal: the integers -16..64,
    /// the inline floats, and the f16 bit patterns of the inline floats written as
    /// integers (`0x3c00`), as LLVM's `getInlineEncodingV216` chooses.
    pub fn inline_code_pk_f16(self) -> Option<u16> {
        match self {
            Imm::Int(v) if (-16..=64).contains(&v) => self.inline_code(1),
            Imm::Int(v) => INLINE_F16
                .iter()
                .position(|b| i64::from(*b) == v)
                .map(|i| 240 + i as u16),
            Imm::Float(_) => self.inline_code16(),
        }
    }

    /// The 32 bits an operand of two packed f16 values receives, or `None` if it cannot be
    /// encoded: an inline integer sign-extended, an inline float as its f16 value (bits
    /// 31:16 zero), a literal as its 32 bits; floats that are not inline are refused.
    pub fn value_pk_f16(self) -> Option<u32> {
        match (self, self.inline_code_pk_f16()) {
            (Imm::Int(v), Some(code)) if code < 240 => Some(v as u32),
            (_, Some(code)) => Some(u32::from(INLINE_F16[usize::from(code - 240)])),
            (Imm::Int(_), None) => self.value32(),
            (Imm::Float(_), None) => None,
        }
    }

    /// Its inline-constant code in a bf16 operand ([`crate::Kind::VSrcBF16`]), or `None` if
    /// it takes a literal: the integers -16..64, the inline floats, and the bf16 bit patterns
    /// of the inline floats written as integers (`0x3f80`).
    pub fn inline_code_bf16(self) -> Option<u16> {
        match self {
            Imm::Int(v) if (-16..=64).contains(&v) => self.inline_code(1),
            Imm::Int(v) => INLINE_BF16
                .iter()
                .position(|b| i64::from(*b) == v)
                .map(|i| 240 + i as u16),
            Imm::Float(f) => {
                let bits = (f as f32).to_bits();
                let exact = f64::from(f as f32) == f;
                INLINE_F32
                    .iter()
                    .position(|b| exact && *b == bits)
                    .map(|i| 240 + i as u16)
            }
        }
    }

    /// The 32 bits a bf16 operand receives, or `None` if it cannot be encoded: an inline
    /// integer sign-extended, an inline float as its bf16 value (bits 31:16 zero), a literal
    /// integer of 16 bits zero-extended; floats that are not inline are refused.
    pub fn value_bf16(self) -> Option<u32> {
        match (self, self.inline_code_bf16()) {
            (Imm::Int(v), Some(code)) if code < 240 => Some(v as u32),
            (_, Some(code)) => Some(u32::from(INLINE_BF16[usize::from(code - 240)])),
            (Imm::Int(_), None) => self.value16().map(u32::from),
            (Imm::Float(_), None) => None,
        }
    }

    /// The 32-bit value an operand of 32 bits receives, or `None` if it does not fit
    /// (integers must lie in -2^31..2^32).
    pub fn value32(self) -> Option<u32> {
        match self {
            Imm::Int(v) if (-(1i64 << 31)..(1i64 << 32)).contains(&v) => Some(v as u32),
            Imm::Int(_) => None,
            Imm::Float(f) => Some((f as f32).to_bits()),
        }
    }

    /// The 64-bit value an operand of 64 bits receives, or `None` if it cannot be encoded.
    ///
    /// Inline integers are sign-extended and inline floats are doubles. A literal for a
    /// 64-bit integer operand is 32 bits wide and zero-extended (as LLVM's disassembler
    /// reads it, and as llc-19 writes `s_mov_b64 s[0:1], 0xffffffff` for the low 32 lanes):
    /// 0..2^32; other negative values cannot be encoded.
    pub fn value64(self) -> Option<u64> {
        match self {
            Imm::Int(v) if (-16..=64).contains(&v) => Some(v as u64),
            Imm::Int(v) if (0..(1i64 << 32)).contains(&v) => Some(v as u64),
            Imm::Int(_) => None,
            Imm::Float(f) if INLINE_F64.contains(&f.to_bits()) => Some(f.to_bits()),
            Imm::Float(_) => None,
        }
    }

    /// The 64 bits an f64 operand receives, or `None` if it cannot be encoded: an inline
    /// constant as in a 64-bit integer operand ([`Imm::value64`]); otherwise a literal, which
    /// holds the high dword of the f64 (the low dword is zero), so an integer 0..2^32 is
    /// that high dword and a float must have a zero low dword (llvm-mc-19 warns and drops
    /// the low bits of others; gpuabi refuses them).
    pub fn value_f64(self) -> Option<u64> {
        if self.is_inline(2) {
            return self.value64();
        }
        match self {
            Imm::Int(v) if (0..(1i64 << 32)).contains(&v) => Some((v as u64) << 32),
            Imm::Int(_) => None,
            Imm::Float(f) => (f.to_bits() & 0xffff_ffff == 0).then_some(f.to_bits()),
        }
    }

    /// Its inline-constant code in a source operand field of `dwords` (1 or 2) registers, or
    /// `None` if it takes a literal. The codes are those of the ISA manuals' "Scalar
    /// Operands" tables (GCN3, RDNA2, RDNA3 agree): 128 + n for the integers 0..64, 192 + n
    /// for -1..-16, 240..247 for ±0.5, ±1, ±2, ±4, and 248 for 1/(2π).
    pub fn inline_code(self, dwords: u8) -> Option<u16> {
        if !self.is_inline(dwords) {
            return None;
        }
        let int = |v: i64| -> u16 {
            if v >= 0 {
                128 + v as u16
            } else {
                192 + (-v) as u16
            }
        };
        if dwords >= 2 {
            return match self {
                Imm::Int(v) => Some(int(v)),
                Imm::Float(f) => INLINE_F64
                    .iter()
                    .position(|b| *b == f.to_bits())
                    .map(|i| 240 + i as u16),
            };
        }
        let bits = self.value32()?;
        if (-16..=64).contains(&(bits as i32)) {
            return Some(int(i64::from(bits as i32)));
        }
        INLINE_F32
            .iter()
            .position(|b| *b == bits)
            .map(|i| 240 + i as u16)
    }

    /// The constant an inline-constant code stands for in an operand of `dwords` registers
    /// (the inverse of [`Imm::inline_code`]); floats as their f32 or f64 value.
    pub fn from_inline_code(code: u16, dwords: u8) -> Option<Imm> {
        match code {
            128..=192 => Some(Imm::Int(i64::from(code) - 128)),
            193..=208 => Some(Imm::Int(192 - i64::from(code))),
            240..=248 => {
                let i = usize::from(code - 240);
                Some(Imm::Float(if dwords >= 2 {
                    f64::from_bits(INLINE_F64[i])
                } else {
                    f64::from(f32::from_bits(INLINE_F32[i]))
                }))
            }
            _ => None,
        }
    }

    /// Whether it is encoded as an inline constant in an operand of `dwords` (1 or 2)
    /// registers; otherwise it takes a 32-bit literal.
    pub fn is_inline(self, dwords: u8) -> bool {
        if dwords >= 2 {
            return match self {
                Imm::Int(v) => (-16..=64).contains(&v),
                Imm::Float(f) => INLINE_F64.contains(&f.to_bits()),
            };
        }
        match self.value32() {
            Some(bits) => (-16..=64).contains(&(bits as i32)) || INLINE_F32.contains(&bits),
            None => false,
        }
    }
}

impl fmt::Display for Imm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Imm::Int(v) if (-16..=64).contains(&v) || v < 0 => write!(f, "{v}"),
            Imm::Int(v) => write!(f, "0x{v:x}"),
            Imm::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// A label expression: `sym`, `sym+4`, `a-b`, `a-b+4`; used as a branch target or, in a
/// literal, as a 32-bit value (label differences make position-independent function
/// pointers: `s_getpc_b64` plus `callee-after_getpc`). With a relocation specifier
/// (`sym@rel32@lo+4`) it is a value the linker or loader fills in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    /// The label added.
    pub plus: String,
    /// The label subtracted, if any.
    pub minus: Option<String>,
    /// A constant added.
    pub addend: i64,
    /// The relocation specifier written after the symbol, if any.
    pub reloc: Option<Reloc>,
}

impl Expr {
    /// Just a label.
    pub fn label(name: impl Into<String>) -> Expr {
        Expr {
            plus: name.into(),
            minus: None,
            addend: 0,
            reloc: None,
        }
    }
}

/// Which part of which address a relocated literal holds: the specifiers of LLVM's AMDGPU
/// assembler (`AMDGPUMCExpr`/`AMDGPUAsmParser`, and the relocation types of LLVM's
/// AMDGPUUsage, "Relocation Records"). With S the symbol's address, A the addend, P the
/// address of the literal itself and G + GOT the address of the symbol's global offset
/// table entry, `abs32@lo`/`abs32@hi` are the low/high half of S + A, `rel32@lo`/`rel32@hi`
/// of S + A - P, and `gotpcrel32@lo`/`gotpcrel32@hi` of G + GOT + A - P.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reloc {
    /// `@abs32@lo`.
    Abs32Lo,
    /// `@abs32@hi`.
    Abs32Hi,
    /// `@rel32@lo`.
    Rel32Lo,
    /// `@rel32@hi`.
    Rel32Hi,
    /// `@gotpcrel32@lo`.
    GotPcRel32Lo,
    /// `@gotpcrel32@hi`.
    GotPcRel32Hi,
}

impl Reloc {
    /// Every specifier with its spelling.
    pub const ALL: [(Reloc, &'static str); 6] = [
        (Reloc::Abs32Lo, "@abs32@lo"),
        (Reloc::Abs32Hi, "@abs32@hi"),
        (Reloc::Rel32Lo, "@rel32@lo"),
        (Reloc::Rel32Hi, "@rel32@hi"),
        (Reloc::GotPcRel32Lo, "@gotpcrel32@lo"),
        (Reloc::GotPcRel32Hi, "@gotpcrel32@hi"),
    ];

    /// The spelling, `@rel32@lo`.
    pub fn spelling(self) -> &'static str {
        Reloc::ALL
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("", |(_, s)| s)
    }

    /// Whether the value is relative to the literal's own address (P).
    pub fn pc_relative(self) -> bool {
        !matches!(self, Reloc::Abs32Lo | Reloc::Abs32Hi)
    }

    /// Whether the symbol's address is read through the global offset table.
    pub fn through_got(self) -> bool {
        matches!(self, Reloc::GotPcRel32Lo | Reloc::GotPcRel32Hi)
    }

    /// The 32 bits of the 64-bit `value` this specifier keeps.
    pub fn half(self, value: i64) -> u32 {
        match self {
            Reloc::Abs32Lo | Reloc::Rel32Lo | Reloc::GotPcRel32Lo => value as u32,
            Reloc::Abs32Hi | Reloc::Rel32Hi | Reloc::GotPcRel32Hi => (value >> 32) as u32,
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.plus)?;
        if let Some(r) = self.reloc {
            f.write_str(r.spelling())?;
        }
        if let Some(m) = &self.minus {
            write!(f, "-{m}")?;
        }
        match self.addend {
            0 => Ok(()),
            a if a > 0 => write!(f, "+{a}"),
            a => write!(f, "{a}"),
        }
    }
}

/// The counters of an `s_waitcnt` (absent = not waited for); the parser requires at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Waitcnt {
    /// `vmcnt(N)`.
    pub vmcnt: Option<u8>,
    /// `expcnt(N)`.
    pub expcnt: Option<u8>,
    /// `lgkmcnt(N)`.
    pub lgkmcnt: Option<u8>,
}

impl fmt::Display for Waitcnt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for (name, v) in [
            ("vmcnt", self.vmcnt),
            ("expcnt", self.expcnt),
            ("lgkmcnt", self.lgkmcnt),
        ] {
            if let Some(v) = v {
                write!(f, "{sep}{name}({v})")?;
                sep = " ";
            }
        }
        Ok(())
    }
}

/// One operand of an instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `sN`, `s[a:b]`, `vN`, `v[a:b]`.
    Reg(RegRange),
    /// `vcc`, `exec_lo`, `m0`, …
    Special(Special),
    /// An integer or float constant (inline or literal).
    Imm(Imm),
    /// A label expression (boxed: rare, and it keeps operands small).
    Expr(Box<Expr>),
    /// `off`: no address register (memory instructions).
    Off,
    /// The counters of `s_waitcnt`.
    Waitcnt(Waitcnt),
    /// `[v36, v37, …]` or `[v[38:39], v10, v[11:13], …]`: the address VGPRs of an image
    /// instruction given one by one, RDNA's non-sequential address (NSA), in address order.
    Nsa(Box<[RegRange]>),
}

impl Operand {
    /// The register range if it is an SGPR/VGPR operand of `file`.
    pub fn reg_in(&self, file: RegFile) -> Option<RegRange> {
        match self {
            Operand::Reg(r) if r.file() == file => Some(*r),
            _ => None,
        }
    }

    /// Whether it is a VGPR (tuple).
    pub fn is_vgpr(&self) -> bool {
        self.reg_in(RegFile::Vgpr).is_some()
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) => write!(f, "{r}"),
            Operand::Special(s) => f.write_str(s.name()),
            Operand::Imm(i) => write!(f, "{i}"),
            Operand::Expr(e) => write!(f, "{e}"),
            Operand::Off => f.write_str("off"),
            Operand::Waitcnt(w) => write!(f, "{w}"),
            Operand::Nsa(regs) => {
                let list: Vec<String> = regs.iter().map(|r| r.to_string()).collect();
                write!(f, "[{}]", list.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_constants() {
        assert!(Imm::Int(64).is_inline(1));
        assert!(!Imm::Int(65).is_inline(1));
        assert!(Imm::Int(-16).is_inline(1));
        assert!(!Imm::Int(-17).is_inline(1));
        // 0xffffffff is -1 as a 32-bit value.
        assert!(Imm::Int(0xffff_ffff).is_inline(1));
        // The bit pattern of 1.0f is the inline constant 1.0.
        assert!(Imm::Int(0x3f80_0000).is_inline(1));
        assert!(Imm::Float(-4.0).is_inline(2));
        assert!(!Imm::Float(3.0).is_inline(1));
        assert_eq!(Imm::Float(0.5).value32(), Some(0x3f00_0000));
        assert_eq!(Imm::Int(-1).value64(), Some(u64::MAX));
        assert_eq!(Imm::Int(-100).value64(), None);
        // Codes from the ISA manuals' operand tables.
        assert_eq!(Imm::Int(0).inline_code(1), Some(128));
        assert_eq!(Imm::Int(-16).inline_code(1), Some(208));
        assert_eq!(Imm::Float(-4.0).inline_code(2), Some(247));
        assert_eq!(Imm::Int(0x3f80_0000).inline_code(1), Some(242));
        assert_eq!(Imm::Int(0x3f80_0000).inline_code(2), None);
        for code in (128..=208).chain(240..=248) {
            for dwords in [1, 2] {
                let imm = Imm::from_inline_code(code, dwords).unwrap();
                assert_eq!(imm.inline_code(dwords), Some(code), "{imm:?}");
            }
        }
    }

    #[test]
    fn sixteen_bit_constants() {
        // As llvm-mc-19 encodes `v_cmp_class_f16_e64 s0, X, v1` for gfx1030.
        assert_eq!(Imm::Float(1.0).inline_code16(), Some(242));
        assert_eq!(Imm::Int(0x3c00).inline_code16(), Some(242));
        assert_eq!(Imm::Float(-4.0).inline_code16(), Some(247));
        assert_eq!(
            Imm::Float(f64::from(0.159_154_94f32)).inline_code16(),
            Some(248)
        );
        assert_eq!(Imm::Int(0xffff).inline_code16(), Some(193));
        assert_eq!(Imm::Int(-1).inline_code16(), Some(193));
        assert_eq!(Imm::Int(0x7c01).inline_code16(), None);
        assert_eq!(Imm::Int(0x7c01).value16(), Some(0x7c01));
        assert_eq!(Imm::Int(-17).value16(), Some(0xffef));
        assert_eq!(Imm::Int(0x12345).value16(), None);
        assert_eq!(Imm::Int(0xffff_fffe).value16(), None);
        assert_eq!(Imm::Float(3.0).value16(), Some(0x4200));
        assert_eq!(Imm::Float(65504.0).value16(), Some(0x7bff));
        assert_eq!(Imm::Float(2f64.powi(-24)).value16(), Some(0x0001));
        assert_eq!(Imm::Float(0.1).value16(), None);
        assert_eq!(Imm::Float(65536.0).value16(), None);
        for code in (128..=208).chain(240..=248) {
            let imm = Imm::from_inline_code(code, 1).unwrap();
            assert_eq!(imm.inline_code16(), Some(code), "{imm:?}");
        }
    }

    #[test]
    fn display() {
        assert_eq!(Imm::Int(100).to_string(), "0x64");
        assert_eq!(Imm::Int(-17).to_string(), "-17");
        assert_eq!(Imm::Float(1.0).to_string(), "1.0");
        let e = Expr {
            plus: "f".into(),
            minus: Some("pc".into()),
            addend: -4,
            reloc: None,
        };
        assert_eq!(e.to_string(), "f-pc-4");
    }
}
