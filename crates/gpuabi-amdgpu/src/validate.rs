//! Operand and instruction rules: which operands a slot accepts on a target and wave size,
//! register alignment, constant-bus and literal limits, memory modifier ranges.

use gpuabi_layout::reg::{RegFile, RegRange};

use crate::encoding::{needs_literal, uses_vop3};
use crate::inst::{DstUnused, Inst, MemMods, SdwaSel};
use crate::opcodes::{Effects, Format, Kind, Opcode};
use crate::operand::{Imm, Operand, Special};
use crate::target::{Target, WaveSize};

/// A rule broken by one instruction: the operand it concerns (if one) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Index of the operand in assembly order, or `None` for the whole instruction.
    pub operand: Option<usize>,
    /// What was wrong and what was expected.
    pub message: String,
}

impl Violation {
    fn at(operand: usize, message: impl Into<String>) -> Violation {
        Violation {
            operand: Some(operand),
            message: message.into(),
        }
    }

    fn whole(message: impl Into<String>) -> Violation {
        Violation {
            operand: None,
            message: message.into(),
        }
    }
}

/// Alignment a tuple of `dwords` SGPRs needs (pairs even, larger tuples multiples of 4).
pub const fn sgpr_alignment(dwords: u16) -> u16 {
    match dwords {
        1 => 1,
        2 => 2,
        _ => 4,
    }
}

fn describe(kind: Kind, wave: WaveSize) -> String {
    match kind {
        Kind::SDst(1) | Kind::SReg(1) => "an SGPR".into(),
        Kind::SDst(n) | Kind::SReg(n) => format!("an aligned tuple of {n} SGPRs"),
        Kind::SSrc(1) => "an SGPR or a constant".into(),
        Kind::SSrc(n) => format!("an aligned tuple of {n} SGPRs or a constant"),
        Kind::VDst(1) | Kind::VReg(1) => "a VGPR".into(),
        Kind::VDst(n) | Kind::VReg(n) => format!("a tuple of {n} VGPRs"),
        Kind::VSrc(1) => "a VGPR, an SGPR or a constant".into(),
        Kind::VSrc(n) => format!("a tuple of {n} VGPRs or SGPRs, or a constant"),
        Kind::VSrc16 => "a VGPR, an SGPR or a 16-bit constant".into(),
        Kind::VSrcI16 => "a VGPR, an SGPR, a 16-bit integer or an inline float".into(),
        Kind::VDstT16 => "a 16-bit half of one of v0-v127 (`v1.l`, `v1.h`)".into(),
        Kind::VSrcT16 => {
            "a 16-bit half of one of v0-v127 (`v1.l`, `v1.h`), an SGPR, a 16-bit integer or \
             an inline float"
                .into()
        }
        Kind::VSrcF64 => "a pair of VGPRs or SGPRs, or an f64 constant (inline, or a literal \
             whose low 32 bits are zero)"
            .into(),
        Kind::MaskDst | Kind::MaskSrc => match wave {
            WaveSize::W32 => "a wave32 lane mask (one SGPR, e.g. `vcc_lo`)".into(),
            WaveSize::W64 => "a wave64 lane mask (an SGPR pair, e.g. `vcc`)".into(),
        },
        Kind::Lane => "a lane index (SGPR, `m0` or an inline integer)".into(),
        Kind::Imm16 => "an integer 0..65535".into(),
        Kind::Msg8 => "a message id 0..255".into(),
        Kind::KImm => "a 32-bit constant".into(),
        Kind::KImm16 => "a 16-bit constant".into(),
        Kind::VSrcPkF16 => "a VGPR, an SGPR or a constant of two packed f16 values".into(),
        Kind::VSrcBF16 => "a VGPR, an SGPR or a bf16 constant".into(),
        Kind::Simm16 => "an integer -32768..65535".into(),
        Kind::Label => "a label".into(),
        Kind::Waitcnt => "counters like `vmcnt(0) lgkmcnt(0)`".into(),
        Kind::SBase(2) => "an SGPR pair holding a 64-bit address".into(),
        Kind::SBase(_) => "4 SGPRs aligned to 4 holding a buffer resource".into(),
        Kind::SOffset => "an SGPR, `m0` or an offset (bytes 0..0xfffff; dwords 0..0xff on gfx6, \
             0..0xffffffff on gfx7; bytes -0x800000..0x7fffff on gfx12)"
            .into(),
        Kind::BufAddr => "a VGPR or `off`".into(),
        Kind::Rsrc => "4 SGPRs aligned to 4 holding a buffer resource".into(),
        Kind::BufSOffset => "an SGPR, `m0` or an inline integer".into(),
        Kind::GlobalAddr => "a VGPR pair (with `off`) or a VGPR (with an SGPR base)".into(),
        Kind::GlobalSAddr => "an SGPR pair or `off`".into(),
        Kind::ScratchAddr => "a VGPR or `off`".into(),
        Kind::ScratchSAddr => "an SGPR or `off`".into(),
        Kind::FlatAddr => "a VGPR pair holding a 64-bit address".into(),
        Kind::ImageAddr(n) => format!(
            "a tuple of {n} VGPRs, or the address in brackets: {n} VGPRs on gfx1030, \
             `[v[a:b], vc, v[d:e], v[f:g], v[h:i]]` of {} + 1 + 3 + 3 + 3 on gfx1100; on gfx12 \
             only the brackets, `[v[a:b], v[c:d], v[e:g], v[h:j], vk]` of 2 + 2 + 3 + 3 + {}",
            n.saturating_sub(10),
            n.saturating_sub(10)
        ),
        Kind::ImgData => "a tuple of 1 to 5 VGPRs".into(),
        Kind::ImgAddr => "a VGPR or a tuple of up to 4 VGPRs".into(),
        Kind::ImgRsrc => "8 SGPRs aligned to 4 holding an image resource".into(),
        Kind::ImgSamp => "4 SGPRs aligned to 4 holding a sampler".into(),
    }
}

/// The register counts of the entries of an NSA address of `dwords` dwords on `target`:
/// one VGPR per dword on RDNA 2 ("RDNA2 ISA", "MIMG": up to 13 addresses); on RDNA 3 the
/// five address components of the BVH instructions, the node pointer (1 or 2 dwords), the
/// ray extent, origin, direction and inverse direction ("RDNA3 ISA", "MIMG": VADDR and four
/// more address VGPRs), as llvm-mc-19 takes them.
///
/// On RDNA 4 the modelled BVH tests have five entries, the 64-bit BVH base, the ray extent
/// and instance mask, origin, direction, and the node pointer (one dword for
/// `image_bvh8_intersect_ray`, 11 in all) or the two node pointers of
/// `image_bvh_dual_intersect_ray` (12 in all), as LLVM 20+ writes them
/// (llvm/test/MC/AMDGPU/gfx12_asm_vimage.s). RDNA 4's `image_bvh_intersect_ray`, whose 11
/// dwords are laid out as RDNA 3's, is not modelled.
pub fn nsa_layout(target: Target, dwords: u8) -> Option<Vec<u16>> {
    match (target, dwords) {
        (Target::Gfx1030, 2..=13) => Some(vec![1; usize::from(dwords)]),
        (Target::Gfx1100, 11 | 12) => Some(vec![u16::from(dwords) - 10, 1, 3, 3, 3]),
        (Target::Gfx12, 11 | 12) => Some(vec![2, 2, 3, 3, u16::from(dwords) - 10]),
        _ => None,
    }
}

/// Checks a scalar register range or special register of `dwords` registers.
fn scalar_reg(operand: &Operand, dwords: u8, target: Target) -> Result<bool, String> {
    match operand {
        Operand::Reg(r) if r.file() == RegFile::Sgpr => {
            if r.count != u16::from(dwords) {
                return Ok(false);
            }
            if !r.is_aligned(sgpr_alignment(r.count)) {
                return Err(format!(
                    "`{r}` is not aligned: a tuple of {} SGPRs must start at a multiple of {}",
                    r.count,
                    sgpr_alignment(r.count)
                ));
            }
            if r.end() > target.addressable_sgprs() {
                return Err(format!(
                    "`{r}` is beyond the SGPRs {target} can name (s0-s{})",
                    target.addressable_sgprs() - 1
                ));
            }
            Ok(true)
        }
        Operand::Special(Special::Null) if !target.is_rdna() => {
            Err(format!("`null` does not exist on {target}"))
        }
        // A source code, not a register: only the 32-bit source slots take it (see
        // `check_operand`).
        Operand::Special(Special::Scc) => Ok(false),
        Operand::Special(
            s @ (Special::FlatScratch | Special::FlatScratchLo | Special::FlatScratchHi),
        ) if target != Target::Gfx8 => Err(format!("`{}` is an operand on gfx8 only", s.name())),
        Operand::Special(s) => Ok(s.dwords() == dwords),
        _ => Ok(false),
    }
}

fn vector_reg(operand: &Operand, dwords: u8) -> bool {
    matches!(operand, Operand::Reg(r) if r.file() == RegFile::Vgpr && r.count == u16::from(dwords))
}

fn imm_ok(operand: &Operand, dwords: u8) -> bool {
    match operand {
        Operand::Imm(imm) => {
            if dwords >= 2 {
                imm.value64().is_some()
            } else {
                imm.value32().is_some()
            }
        }
        Operand::Expr(_) => dwords == 1,
        _ => false,
    }
}

fn inline_int(operand: &Operand) -> bool {
    matches!(operand, Operand::Imm(Imm::Int(v)) if (-16..=64).contains(v))
}

/// Checks that `operand` fits a slot of `kind`; returns what was expected otherwise.
pub fn check_operand(
    kind: Kind,
    operand: &Operand,
    target: Target,
    wave: WaveSize,
) -> Result<(), String> {
    if let (Operand::Imm(imm), Target::Gfx6 | Target::Gfx7) = (operand, target) {
        let dwords = match kind {
            Kind::SSrc(n) | Kind::VSrc(n) => n,
            Kind::VSrcF64 => 2,
            _ => 1,
        };
        if imm.inline_code(dwords) == Some(248) {
            return Err(format!(
                "`{imm}` is 1/(2π), an inline constant from gfx8 on; {target} would need it \
                 as a literal, which gpuabi does not encode"
            ));
        }
    }
    // `src_scc` reads SCC as a 32-bit source (llvm-mc-19 also takes it in other slots; the
    // model keeps it to the 32-bit ALU sources ACO writes it in).
    if let Operand::Special(Special::Scc) = operand {
        if matches!(
            kind,
            Kind::SSrc(1) | Kind::VSrc(1) | Kind::VSrc16 | Kind::VSrcI16
        ) {
            return Ok(());
        }
    }
    let ok = match kind {
        Kind::SDst(n) => {
            !matches!(operand, Operand::Special(Special::Null) if n > 1)
                && scalar_reg(operand, n, target)?
        }
        Kind::SReg(n) => scalar_reg(operand, n, target)?,
        Kind::SSrc(n) => scalar_reg(operand, n, target)? || imm_ok(operand, n),
        Kind::VDst(n) | Kind::VReg(n) => vector_reg(operand, n),
        Kind::VSrc(n) => {
            vector_reg(operand, n) || scalar_reg(operand, n, target)? || imm_ok(operand, n)
        }
        Kind::VSrcF64 => {
            vector_reg(operand, 2)
                || scalar_reg(operand, 2, target)?
                || matches!(operand, Operand::Imm(imm) if imm.value_f64().is_some())
        }
        Kind::VDstT16 => {
            vector_reg(operand, 1)
                && operand
                    .reg_in(RegFile::Vgpr)
                    .is_some_and(|r| r.first.num < 128)
        }
        Kind::VSrcT16 if operand.is_vgpr() => operand
            .reg_in(RegFile::Vgpr)
            .is_some_and(|r| r.first.num < 128 && r.count == 1),
        Kind::VSrcI16 | Kind::VSrcT16 => {
            vector_reg(operand, 1)
                || scalar_reg(operand, 1, target)?
                || matches!(operand, Operand::Imm(imm @ Imm::Int(_)) if imm.value16().is_some())
                || matches!(operand, Operand::Imm(imm) if imm.inline_code_i16().is_some())
        }
        Kind::VSrc16 => {
            vector_reg(operand, 1)
                || scalar_reg(operand, 1, target)?
                || matches!(operand, Operand::Imm(imm) if imm.value16().is_some())
        }
        // VOP3b instructions (`v_div_scale_f32`, `v_mad_u64_u32`) may drop their lane mask
        // into `null` on RDNA.
        Kind::MaskDst if matches!(operand, Operand::Special(Special::Null)) => target.is_rdna(),
        Kind::MaskDst | Kind::MaskSrc => scalar_reg(operand, wave.mask_dwords(), target)?,
        Kind::Lane => scalar_reg(operand, 1, target)? || inline_int(operand),
        Kind::Imm16 => matches!(operand, Operand::Imm(Imm::Int(v)) if (0..=0xffff).contains(v)),
        Kind::Msg8 => matches!(operand, Operand::Imm(Imm::Int(v)) if (0..=0xff).contains(v)),
        Kind::KImm => matches!(operand, Operand::Imm(imm) if imm.value32().is_some()),
        Kind::KImm16 => matches!(operand, Operand::Imm(imm) if imm.value16().is_some()),
        Kind::VSrcBF16 => {
            vector_reg(operand, 1)
                || scalar_reg(operand, 1, target)?
                || matches!(operand, Operand::Imm(imm) if imm.value_bf16().is_some())
        }
        Kind::VSrcPkF16 => {
            vector_reg(operand, 1)
                || scalar_reg(operand, 1, target)?
                || matches!(operand, Operand::Imm(imm) if imm.value_pk_f16().is_some())
        }
        Kind::Simm16 => {
            matches!(operand, Operand::Imm(Imm::Int(v)) if (-0x8000..=0xffff).contains(v))
        }
        Kind::Label => {
            matches!(operand, Operand::Expr(e) if e.minus.is_none() && e.addend == 0 && e.reloc.is_none())
        }
        Kind::Waitcnt => matches!(operand, Operand::Waitcnt(_)),
        // LLVM's scalar-load base class (SReg_64) includes VCC, and llc-19 allocates it
        // there; llvm-mc-19 encodes `s_load_dword s1, vcc, 0x4` on every target.
        Kind::SBase(2) if matches!(operand, Operand::Special(Special::Vcc)) => true,
        Kind::SBase(n) => scalar_reg(operand, n, target)? && matches!(operand, Operand::Reg(_)),
        Kind::SOffset => {
            // SMRD has an 8-bit dword offset on gfx6; gfx7 adds a 32-bit literal dword
            // offset ("Sea Islands Series ISA", SMRD: OFFSET 255 with IMM = 0).
            // RDNA 4's offset is a signed 24-bit byte count (llvm-mc-19: "expected a 24-bit
            // signed offset").
            let (min, max) = match target {
                Target::Gfx6 => (0, 0xff),
                Target::Gfx7 => (0, 0xffff_ffff),
                Target::Gfx12 => (-0x80_0000, 0x7f_ffff),
                _ => (0, 0xfffff),
            };
            scalar_reg(operand, 1, target)?
                || matches!(operand, Operand::Imm(Imm::Int(v)) if (min..=max).contains(v))
        }
        // A VGPR pair is the `addr64` address of gfx6/gfx7, checked with the modifiers.
        Kind::BufAddr => {
            vector_reg(operand, 1)
                || matches!(operand, Operand::Off)
                || (matches!(target, Target::Gfx6 | Target::Gfx7) && vector_reg(operand, 2))
        }
        Kind::ScratchAddr => vector_reg(operand, 1) || matches!(operand, Operand::Off),
        Kind::Rsrc => scalar_reg(operand, 4, target)? && matches!(operand, Operand::Reg(_)),
        // RDNA 4's seven-bit SOFFSET takes no constant (llvm-mc-19: "operands are not valid
        // for this GPU or mode").
        Kind::BufSOffset => {
            scalar_reg(operand, 1, target)? || (target != Target::Gfx12 && inline_int(operand))
        }
        Kind::GlobalAddr => vector_reg(operand, 1) || vector_reg(operand, 2),
        // LLVM's SADDR classes (SReg_64_XEXEC, SReg_32_XEXEC_HI) include VCC, and llc-19
        // allocates it there.
        Kind::GlobalSAddr => {
            matches!(operand, Operand::Off | Operand::Special(Special::Vcc))
                || (matches!(operand, Operand::Reg(_)) && scalar_reg(operand, 2, target)?)
        }
        Kind::ScratchSAddr => {
            matches!(
                operand,
                Operand::Off | Operand::Special(Special::VccLo | Special::VccHi)
            ) || (matches!(operand, Operand::Reg(_)) && scalar_reg(operand, 1, target)?)
        }
        Kind::FlatAddr => vector_reg(operand, 2),
        // RDNA 4's VIMAGE names each entry's VGPRs: no single tuple.
        Kind::ImageAddr(n) => {
            (target != Target::Gfx12 && vector_reg(operand, n))
                || matches!(operand, Operand::Nsa(regs)
                if nsa_layout(target, n).is_some_and(|counts| {
                    regs.len() == counts.len()
                        && regs
                            .iter()
                            .zip(&counts)
                            .all(|(r, c)| r.file() == RegFile::Vgpr && r.count == *c)
                }))
        }
        Kind::ImgData => (1..=5).any(|n| vector_reg(operand, n)),
        Kind::ImgAddr => (1..=4).any(|n| vector_reg(operand, n)),
        Kind::ImgRsrc => scalar_reg(operand, 8, target)? && matches!(operand, Operand::Reg(_)),
        Kind::ImgSamp => scalar_reg(operand, 4, target)? && matches!(operand, Operand::Reg(_)),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "expected {}, found `{operand}`",
            describe(kind, wave)
        ))
    }
}

/// The scalar values a vector instruction reads through the constant bus: SGPRs (by first
/// register) and literals.
fn constant_bus_reads(inst: &Inst, wave: WaveSize, vop3: bool) -> usize {
    // LLVM counts `vcc_lo` and `vcc` as different values, so the key is the whole range.
    let mut sgprs: Vec<(u16, u16)> = Vec::new();
    let mut literals: Vec<String> = Vec::new();
    let info = inst.op.info();
    for (kind, operand) in info
        .srcs
        .iter()
        .zip(inst.operands[info.dsts.len()..].iter())
    {
        // `v_writelane_b32` may take an SGPR or literal value with an `m0` lane select on
        // targets with one constant-bus read: llvm-mc-19 accepts `v_writelane_b32 v1, s3, m0`
        // for tahiti, bonaire and tonga (but not `s3, s4`), so `m0` there is not counted.
        if inst.op == Opcode::VWritelaneB32
            && *kind == Kind::Lane
            && matches!(operand, Operand::Special(Special::M0))
        {
            continue;
        }
        match (kind, operand) {
            (_, Operand::Reg(r))
                if r.file() == RegFile::Sgpr && !sgprs.contains(&(r.first.num, r.count)) =>
            {
                sgprs.push((r.first.num, r.count));
            }
            (_, Operand::Reg(_)) => {}
            (_, Operand::Special(s)) if *s != Special::Null => {
                let key = (s.hw_index(), u16::from(s.dwords()));
                if !sgprs.contains(&key) {
                    sgprs.push(key);
                }
            }
            (k, o) if needs_literal(*k, o) => {
                let text = o.to_string();
                if !literals.contains(&text) {
                    literals.push(text);
                }
            }
            _ => {}
        }
    }
    // The 32-bit encodings of v_cndmask/v_addc read vcc implicitly; it is already counted
    // as an operand above because the project spells it out, as LLVM does. An implicit read
    // of vcc the syntax does not show (`v_div_fmas_f32`) takes the bus as well.
    let _ = vop3;
    if info.effects.contains(Effects::READ_VCC) {
        let key = (Special::VccLo.hw_index(), u16::from(wave.mask_dwords()));
        if !sgprs.contains(&key) {
            sgprs.push(key);
        }
    }
    // The M0 index of the relative moves (`v_movreld_b32`) is read on the bus too
    // (llvm-mc-19 refuses `v_movreld_b32 v1, s14` on gfx8).
    if info.effects.contains(Effects::READ_M0) {
        let key = (Special::M0.hw_index(), 1);
        if !sgprs.contains(&key) {
            sgprs.push(key);
        }
    }
    sgprs.len() + literals.len()
}

/// Checks the rules that concern the whole instruction (after each operand was checked).
pub fn check_inst(inst: &Inst, target: Target, wave: WaveSize) -> Result<(), Violation> {
    let info = inst.op.info();
    let vector_alu = matches!(
        info.format,
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
    );
    if inst.e64 && !vector_alu {
        return Err(Violation::whole(
            "`_e64` applies to vector ALU instructions only",
        ));
    }
    if inst.sdwa.is_some() {
        check_sdwa(inst, target)?;
    }
    if info.srcs.iter().any(|k| k.is_k()) {
        // K is the instruction's literal dword: another literal must be the same value.
        let literals: Vec<Option<u32>> = info
            .slots()
            .zip(&inst.operands)
            .filter(|(k, o)| needs_literal(*k, o))
            .map(|(k, o)| crate::encoding::literal_dword(k, o))
            .collect();
        if literals.windows(2).any(|w| w[0] != w[1] || w[0].is_none()) {
            return Err(Violation::whole(format!(
                "`{}` holds one literal constant, its K",
                info.mnemonic
            )));
        }
    }
    if inst.e64 && info.srcs.iter().any(|k| k.is_k()) {
        return Err(Violation::whole(format!(
            "`{}` has no 64-bit encoding (its constant is the literal dword)",
            info.mnemonic
        )));
    }
    if let Some(y) = &inst.dual {
        check_vopd(inst, y, target, wave)?;
    }
    let srcs = info.srcs.len().min(8);
    let modified = inst.src_mods.neg | inst.src_mods.abs;
    if modified & !info.float_srcs != 0 || (srcs < 8 && modified >> srcs != 0) {
        let src = (0..8)
            .find(|i| (modified & !info.float_srcs) >> i & 1 != 0)
            .unwrap_or(0);
        return Err(Violation::at(
            info.dsts.len() + src,
            "source modifiers (`-`, `|..|`) apply to the f32 sources of vector instructions \
             only",
        ));
    }
    let out = crate::output_mods::output_mods(inst.op);
    if inst.src_mods.clamp && out.clamp.is_none() {
        return Err(Violation::whole(format!(
            "`{}` takes no `clamp`",
            info.name(target).unwrap_or(info.mnemonic)
        )));
    }
    if inst.src_mods.omod != crate::output_mods::Omod::None && !out.omod {
        return Err(Violation::whole(format!(
            "`{}` takes no output modifier (`mul:2`, `mul:4`, `div:2` apply to f32 results)",
            info.name(target).unwrap_or(info.mnemonic)
        )));
    }
    // GCN 1.0/1.1 have no integer clamping (llvm-mc-19: "integer clamping is not supported
    // on this GPU").
    if inst.src_mods.clamp
        && out.clamp == Some(crate::output_mods::ClampKind::Unsigned)
        && matches!(target, Target::Gfx6 | Target::Gfx7)
    {
        return Err(Violation::whole(format!("{target} has no integer `clamp`")));
    }
    // The simulator models no hardware register but the flat scratch base, which only
    // flat accesses to private memory would use, and on RDNA 4 the float fields of MODE
    // (7:0), which its scalar float arithmetic follows: `s_setreg_b32` of anything else
    // (trap state, MODE's other bits) would change behaviour the model does not follow, and
    // `s_getreg_b32` would read state it does not hold.
    if matches!(inst.op, Opcode::SSetregB32 | Opcode::SGetregB32) {
        let at = if inst.op == Opcode::SSetregB32 { 0 } else { 1 };
        let simm = match inst.operands.get(at) {
            Some(Operand::Imm(Imm::Int(v))) => Some(*v),
            _ => None,
        };
        let whole_flat_scr = simm.is_some_and(|v| {
            crate::asm::HW_REGS
                .iter()
                .any(|(_, id)| v == crate::asm::hwreg_whole(*id))
        });
        let mode_float_field = simm.is_some_and(|v| {
            let (id, offset, size) = (v & 0x3f, v >> 6 & 0x1f, (v >> 11 & 0x1f) + 1);
            target == Target::Gfx12 && id == crate::asm::HW_REG_MODE && offset + size <= 8
        });
        let ok = mode_float_field || (inst.op == Opcode::SSetregB32 && whole_flat_scr);
        if !ok {
            return Err(Violation::at(
                at,
                format!(
                    "gpuabi models `{}` of a field within bits 7:0 of hwreg(HW_REG_MODE) on \
                     gfx12{}",
                    inst.op.info().mnemonic,
                    if inst.op == Opcode::SSetregB32 {
                        ", and of the whole of hwreg(HW_REG_FLAT_SCR_LO) or \
                         hwreg(HW_REG_FLAT_SCR_HI)"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    // RDNA 4's barriers: the model has the work-group's barrier (-1; `s_barrier_wait`'s
    // 16-bit immediate reads it back as 0xffff) alone, not the named
    // barriers the other values select ("RDNA 4 Instruction Set Architecture",
    // S_BARRIER_SIGNAL).
    if matches!(inst.op, Opcode::SBarrierSignal | Opcode::SBarrierWait)
        && !matches!(
            inst.operands.first(),
            Some(Operand::Imm(Imm::Int(-1 | 0xffff)))
        )
    {
        return Err(Violation::at(
            0,
            "the model has the work-group barrier `-1` only (named barriers are not modelled)",
        ));
    }
    // RDNA 3 dropped the counter register of `s_waitcnt_vscnt` and the other counter waits:
    // llvm-mc says "src0 must be null" for anything else.
    if matches!(
        inst.op,
        Opcode::SWaitcntVscnt
            | Opcode::SWaitcntVmcnt
            | Opcode::SWaitcntExpcnt
            | Opcode::SWaitcntLgkmcnt
    ) && target == Target::Gfx1100
        && !matches!(inst.operands.first(), Some(Operand::Special(Special::Null)))
    {
        return Err(Violation::at(
            0,
            format!(
                "on gfx1100 the first operand of `{}` is `null`",
                info.name(target).unwrap_or(info.mnemonic)
            ),
        ));
    }
    if inst.src_mods.abs != 0 && info.is_vop3b() {
        return Err(Violation::whole(
            "VOP3b instructions take `neg` but not `abs` on their sources",
        ));
    }
    if vector_alu {
        let vop3 = uses_vop3(inst, target, wave);
        if vop3 && !info.has_vop3_on(target) {
            return Err(Violation::whole(format!(
                "`{}` has no 64-bit (VOP3) encoding on {target}",
                info.name(target).unwrap_or(info.mnemonic)
            )));
        }
        let literal = info
            .slots()
            .zip(inst.operands.iter())
            .position(|(k, o)| needs_literal(k, o));
        if let Some(i) = literal {
            if vop3 && !target.vop3_literal() {
                return Err(Violation::at(
                    i,
                    format!(
                        "{target} has no literal constants in 64-bit (VOP3) vector \
                         instructions; move the value into a register first"
                    ),
                ));
            }
        }
        // v_readlane/v_writelane read their lane index on the constant bus as well.
        let limit = target.constant_bus_limit();
        let reads = constant_bus_reads(inst, wave, vop3);
        if reads > limit {
            return Err(Violation::whole(format!(
                "reads {reads} different SGPRs or literals; {target} allows {limit} \
                 (constant bus)"
            )));
        }
        if matches!(
            inst.op,
            Opcode::VLshlrevB64 | Opcode::VLshrrevB64 | Opcode::VAshrrevI64
        ) && target.is_rdna()
            && reads > 1
        {
            return Err(Violation::whole(format!(
                "64-bit shifts read at most one SGPR or literal on {target} (constant bus)"
            )));
        }
    }
    if info.format != Format::Mimg && inst.mods.has_image_mods() {
        return Err(Violation::whole(
            "`dmask`, `unorm`, `da`, `r128`, `tfe` and `lwe` belong to image instructions",
        ));
    }
    match info.format {
        // Scalar loads write SGPRs or VCC (LLVM's SReg_32_XM0_XEXEC and SReg_64_XEXEC
        // destination classes; llc-19 allocates `vcc_hi` there), never `m0` or `exec`.
        Format::Smem
            if !matches!(
                inst.operands[0],
                Operand::Reg(_) | Operand::Special(Special::Vcc | Special::VccLo | Special::VccHi)
            ) =>
        {
            return Err(Violation::at(0, "scalar loads write SGPRs or VCC only"));
        }
        // RDNA 4's scalar loads take a cache policy, and no other modifier.
        Format::Smem if target == Target::Gfx12 => {
            let policy = MemMods {
                th: inst.mods.th,
                scope: inst.mods.scope,
                ..MemMods::default()
            };
            if inst.mods != policy {
                return Err(Violation::whole(
                    "scalar loads take only `th:` and `scope:`",
                ));
            }
        }
        Format::Mubuf | Format::Mtbuf if !inst.operands.is_empty() => {
            let addr = &inst.operands[inst.dsts().len() + usize::from(inst.op.is_store())];
            if inst.mods.addr64 {
                if inst.mods.offen || inst.mods.idxen {
                    return Err(Violation::whole(
                        "`addr64` together with `offen`/`idxen` is not supported",
                    ));
                }
                if !vector_reg(addr, 2) {
                    return Err(Violation::whole("`addr64` needs a VGPR pair address"));
                }
            } else if vector_reg(addr, 2) {
                return Err(Violation::whole("a VGPR pair address needs `addr64`"));
            }
            let uses_vaddr = inst.mods.offen || inst.mods.idxen || inst.mods.addr64;
            if uses_vaddr && matches!(addr, Operand::Off) {
                return Err(Violation::whole(
                    "`offen`/`idxen` need an address VGPR, not `off`",
                ));
            }
            if !uses_vaddr && !matches!(addr, Operand::Off) {
                return Err(Violation::whole(
                    "an address VGPR needs `offen` or `idxen` (or write `off`)",
                ));
            }
            if inst.mods.offen && inst.mods.idxen {
                return Err(Violation::whole(
                    "`offen` together with `idxen` (a VGPR pair) is not supported",
                ));
            }
            // RDNA 4's VBUFFER has a 24-bit offset (LLVM's assembler takes 0..0x7fffff).
            let hi = if target == Target::Gfx12 {
                0x7f_ffff
            } else {
                4095
            };
            if !(0..=hi).contains(&inst.mods.offset) {
                return Err(Violation::whole(format!(
                    "buffer `offset:` must be 0..{hi} on {target}"
                )));
            }
        }
        Format::Flat if !target.is_rdna() => {
            if inst.mods.offset != 0 || inst.mods.offen || inst.mods.idxen || inst.mods.dlc {
                return Err(Violation::whole(format!(
                    "flat instructions on {target} take no `offset:`, `offen`, `idxen` or `dlc`"
                )));
            }
        }
        // RDNA's flat offsets are unsigned: 11 bits on RDNA 2, 12 on RDNA 3 (llvm-mc-19).
        Format::Flat => {
            if inst.mods.offen || inst.mods.idxen {
                return Err(Violation::whole(
                    "`offen`/`idxen` belong to buffer instructions",
                ));
            }
            // RDNA 4's VFLAT offset is signed, 24 bits, as for global and scratch.
            let (lo, hi) = match target {
                Target::Gfx1030 => (0, 2047),
                Target::Gfx12 => (-0x80_0000, 0x7f_ffff),
                _ => (0, 4095),
            };
            if !(lo..=hi).contains(&inst.mods.offset) {
                return Err(Violation::whole(format!(
                    "flat `offset:` must be {lo}..{hi} on {target}"
                )));
            }
        }
        Format::Global | Format::Scratch => {
            if inst.mods.offen || inst.mods.idxen {
                return Err(Violation::whole(
                    "`offen`/`idxen` belong to buffer instructions",
                ));
            }
            let (lo, hi) = match target {
                Target::Gfx1030 => (-2048, 2047),
                Target::Gfx12 => (-0x80_0000, 0x7f_ffff),
                _ => (-4096, 4095),
            };
            if !(lo..=hi).contains(&inst.mods.offset) {
                return Err(Violation::whole(format!(
                    "`offset:` must be {lo}..{hi} on {target}"
                )));
            }
            if info.format == Format::Scratch && target == Target::Gfx1030 {
                let base = inst.dsts().len();
                let saddr_i = if inst.op.is_store() {
                    base + 2
                } else {
                    base + 1
                };
                if !matches!(inst.operands[base], Operand::Off)
                    && !matches!(inst.operands[saddr_i], Operand::Off)
                {
                    return Err(Violation::at(
                        saddr_i,
                        "gfx1030 scratch takes a VGPR or an SGPR address, not both; write `off` \
                         for one of them",
                    ));
                }
            }
            if info.format == Format::Global && !inst.operands.is_empty() {
                let base = inst.dsts().len();
                let (addr_i, saddr_i) = if inst.op.is_store() {
                    (base, base + 2)
                } else {
                    (base, base + 1)
                };
                let dwords = match &inst.operands[addr_i] {
                    Operand::Reg(r) => r.count,
                    _ => 0,
                };
                let want = if matches!(inst.operands[saddr_i], Operand::Off) {
                    2
                } else {
                    1
                };
                if dwords != want {
                    return Err(Violation::at(
                        addr_i,
                        if want == 2 {
                            "without an SGPR base the address is a VGPR pair (64-bit address)"
                        } else {
                            "with an SGPR base the address is one VGPR (32-bit offset)"
                        },
                    ));
                }
            }
        }
        Format::Mimg if target.is_rdna() && inst.mods != Default::default() => {
            return Err(Violation::whole(
                "gpuabi models the ray intersection instructions without modifiers",
            ));
        }
        Format::Mimg if target.is_rdna() => {}
        Format::Mimg => {
            let m = inst.mods;
            let image_only = crate::inst::MemMods {
                dmask: m.dmask,
                unorm: m.unorm,
                da: m.da,
                r128: m.r128,
                tfe: m.tfe,
                lwe: m.lwe,
                glc: m.glc,
                slc: m.slc,
                ..Default::default()
            };
            if m != image_only {
                return Err(Violation::whole(
                    "image instructions take only dmask, unorm, glc, slc, r128, tfe, lwe and da",
                ));
            }
            if m.dmask > 0xf {
                return Err(Violation::whole("`dmask:` must be 0..15"));
            }
            let want = m.image_data_dwords();
            match &inst.operands[0] {
                Operand::Reg(r) if r.count == u16::from(want) => {}
                _ => {
                    return Err(Violation::at(
                        0,
                        format!(
                            "the data is {want} VGPRs: one per component of `dmask:{}`{}",
                            m.dmask,
                            if m.tfe { " and one for `tfe`" } else { "" }
                        ),
                    ))
                }
            }
        }
        Format::Ds => {
            let m = inst.mods;
            let two = info.is_ds_two_address();
            let only_offsets = crate::inst::MemMods {
                offset: m.offset,
                offset0: m.offset0,
                offset1: m.offset1,
                ..Default::default()
            };
            if m != only_offsets {
                return Err(Violation::whole(
                    "`ds_*` instructions take only offset modifiers",
                ));
            }
            if two && m.offset != 0 {
                return Err(Violation::whole(
                    "two-address `ds_*` instructions take `offset0:`/`offset1:`, not `offset:`",
                ));
            }
            if !two && (m.offset0 != 0 || m.offset1 != 0) {
                return Err(Violation::whole(
                    "single-address `ds_*` instructions take `offset:`, not `offset0:`/`offset1:`",
                ));
            }
            if !(0..=0xffff).contains(&m.offset) {
                return Err(Violation::whole("`ds_*` `offset:` must be 0..65535"));
            }
        }
        _ => {
            if inst.mods != Default::default() {
                return Err(Violation::whole(
                    "memory modifiers on a non-memory instruction",
                ));
            }
        }
    }
    Ok(())
}

/// The register range an operand names, if any (specials are mapped to their SGPR numbers;
/// `src_scc` names none).
pub fn operand_range(operand: &Operand) -> Option<RegRange> {
    match operand {
        Operand::Reg(r) => Some(*r),
        Operand::Special(Special::Scc) => None,
        Operand::Special(s) => Some(RegRange::new(
            RegFile::Sgpr,
            s.hw_index(),
            u16::from(s.dwords()),
        )),
        _ => None,
    }
}

/// SDWA (`_sdwa`) exists on GCN 1.2 and RDNA 2 for VOP1/VOP2 instructions, and on RDNA 2
/// for VOPC compares of 32-bit sources (`v_cmp_le_i32_sdwa s4, v1, v2`, the mask in SDST or
/// VCC, no destination selection); its sources are VGPRs (RDNA 2 also takes SGPRs and
/// inline constants), without `_e64`, with f32 `neg`/`abs` on the first two (ACO's
/// `v_cmp_class_f32_sdwa s26, neg(1), v71 src0_sel:DWORD src1_sel:BYTE_3`).
///
/// gpuabi models VOPC SDWA on gfx1030 only: GCN 1.2 spells it without the `_sdwa` suffix
/// and writes VCC alone.
fn check_sdwa(inst: &Inst, target: Target) -> Result<(), Violation> {
    let info = inst.op.info();
    let vopc = info.format_on(target) == Format::Vopc;
    let vopc_ok =
        vopc && target == Target::Gfx1030 && info.srcs.iter().all(|k| *k == Kind::VSrc(1));
    if !matches!(target, Target::Gfx8 | Target::Gfx1030)
        || !(matches!(info.format_on(target), Format::Vop1 | Format::Vop2) || vopc_ok)
        || inst.e64
        || inst.dual.is_some()
    {
        return Err(Violation::whole(format!(
            "`{}` has no SDWA form on {target} (gpuabi models `_sdwa` for VOP1 and VOP2 \
             instructions on gfx8 and gfx1030, and 32-bit VOPC compares on gfx1030)",
            info.mnemonic
        )));
    }
    if let Some(s) = inst.sdwa {
        if vopc && (s.dst_sel != SdwaSel::Dword || s.dst_unused != DstUnused::Preserve) {
            return Err(Violation::whole(
                "an SDWA compare has no dst_sel or dst_unused",
            ));
        }
    }
    let m = inst.src_mods;
    if m.clamp || m.omod != crate::output_mods::Omod::None {
        return Err(Violation::whole(
            "gpuabi models SDWA without `clamp` and output modifiers",
        ));
    }
    // The SDWA dword has `neg`/`abs` for sources 0 and 1 only, and a source is either
    // sign-extended (integer) or negated (float), not both.
    let sdwa = inst.sdwa.unwrap_or_default();
    let modified = m.neg | m.abs;
    if modified >> 2 != 0
        || (sdwa.src0_sext && modified & 1 != 0)
        || (sdwa.src1_sext && modified & 2 != 0)
    {
        return Err(Violation::whole(
            "SDWA takes `neg`/`abs` on its first two sources, and not with `sext`",
        ));
    }
    for (i, (kind, o)) in info.slots().zip(&inst.operands).enumerate() {
        if i < info.dsts.len() || matches!(kind, Kind::MaskSrc) {
            continue;
        }
        // RDNA 2's `S0`/`S1` bits make either source a scalar operand: an SGPR or an inline
        // constant (llvm-mc-19 encodes `v_or_b32_sdwa v1, 1, s2`), never a literal.
        let scalar_ok = target == Target::Gfx1030
            && match o {
                Operand::Reg(_) | Operand::Special(_) => true,
                Operand::Imm(imm) => imm.is_inline(1),
                _ => false,
            };
        if !(o.is_vgpr() || scalar_ok) {
            return Err(Violation::at(
                i,
                "an SDWA source is a VGPR (on gfx1030 also an SGPR or an inline constant)",
            ));
        }
    }
    Ok(())
}

/// VOPD (`v_dual_* :: v_dual_*`, RDNA 3 in wave32): both halves in its opcode table (the X half one
/// that may be X), VGPR destinations of different parity ("RDNA3 ISA", "VOPD": VDSTY's
/// bit 0 is the complement of VDSTX's), VGPR second sources, no modifiers.
fn check_vopd(x: &Inst, y: &Inst, target: Target, wave: WaveSize) -> Result<(), Violation> {
    use crate::opcode_numbers::vopd_opcodes;
    // LLVM accepts VOPD in wave32 only (AMDGPUAsmParser rejects it with wavefrontsize64).
    if target < Target::Gfx1100 || wave != WaveSize::W32 {
        return Err(Violation::whole(format!(
            "VOPD exists on gfx1100 and gfx12 in wave32 only, not on {target} {wave}"
        )));
    }
    if vopd_opcodes(x.op).and_then(|(opx, _)| opx).is_none() {
        return Err(Violation::whole(format!(
            "`{}` cannot be the X half of a VOPD pair",
            x.op.info().mnemonic
        )));
    }
    if vopd_opcodes(y.op).is_none() {
        return Err(Violation::whole(format!(
            "`{}` has no VOPD form",
            y.op.info().mnemonic
        )));
    }
    let mut dst_parity = Vec::new();
    // Per half: its explicit sources (no lane mask, no K) in order, for the bank rule.
    let mut sources: Vec<Vec<&Operand>> = Vec::new();
    let mut scalars: Vec<&Operand> = Vec::new();
    for half in [x, y] {
        let info = half.op.info();
        let explicit: Vec<&Operand> = info
            .srcs
            .iter()
            .zip(&half.operands[info.dsts.len()..])
            .filter(|(k, _)| !matches!(k, Kind::MaskSrc) && !k.is_k())
            .map(|(_, o)| o)
            .collect();
        for (k, o) in info.srcs.iter().zip(&half.operands[info.dsts.len()..]) {
            let scalar = match o {
                Operand::Reg(r) => r.file() == RegFile::Sgpr,
                Operand::Imm(i) => k.is_k() || !i.is_inline(1),
                Operand::Special(s) => *s != Special::Null,
                _ => false,
            };
            if scalar && !scalars.contains(&o) {
                scalars.push(o);
            }
        }
        sources.push(explicit);
        if half.e64 || !half.src_mods.is_empty() || half.sdwa.is_some() {
            return Err(Violation::whole("a VOPD half takes no modifiers"));
        }
        match half.operands.first() {
            Some(Operand::Reg(r)) if r.file() == RegFile::Vgpr => dst_parity.push(r.first.num & 1),
            _ => return Err(Violation::whole("a VOPD half writes a VGPR")),
        }
        // `v_dual_cndmask_b32` selects by `vcc_lo`, which the encoding does not name.
        let masks = info.srcs.iter().zip(&half.operands[info.dsts.len()..]);
        for (_, o) in masks.filter(|(k, _)| matches!(k, Kind::MaskSrc)) {
            if !matches!(o, Operand::Special(Special::VccLo | Special::Vcc)) {
                return Err(Violation::whole(format!(
                    "`v_dual_cndmask_b32` selects by vcc_lo, not `{o}`"
                )));
            }
        }
        let second = info
            .srcs
            .iter()
            .zip(&half.operands[info.dsts.len()..])
            .filter(|(k, _)| !matches!(k, Kind::MaskSrc) && !k.is_k())
            .nth(1);
        if let Some((_, o)) = second {
            if !o.is_vgpr() {
                return Err(Violation::whole(
                    "the second source of a VOPD half is a VGPR",
                ));
            }
        }
    }
    if dst_parity[0] == dst_parity[1] {
        return Err(Violation::whole(
            "the destinations of a VOPD pair are one even and one odd VGPR",
        ));
    }
    // The two halves read their sources in one cycle from the VGPR banks: the halves'
    // SRC0s must come from different banks of 4 (register number modulo 4), their VSRC1s
    // too, and their SRC2s from different banks of 2 (LLVM's `VOPD::ComponentLayout` and
    // `getInvalidCompOperandIndex` in `AMDGPUBaseInfo.cpp`; llvm-mc-19 refuses "src0
    // operands must use different VGPR banks"). SRC2 is `v_dual_fmac_f32`'s accumulator (its
    // destination) and `v_dual_fmamk_f32`'s VGPR after K, which therefore is no VSRC1. RDNA
    // 4 lets two moves read the same bank (llvm-mc-19 skips SRC0 for `v_dual_mov_b32 ::
    // v_dual_mov_b32` on gfx12), and both halves read one VGPR in the same port: ACO pairs
    // `v_dual_mul_f32 v29, v29, v32 :: v_dual_mul_f32 v28, v28, v32` for gfx1201
    // (`are_src_banks_compatible` in Mesa's `aco_scheduler_ilp.cpp`), which llvm-mc-19 still
    // refuses.
    let (sx, sy) = (vopd_port_vgprs(x), vopd_port_vgprs(y));
    let moves = x.op == Opcode::VMovB32 && y.op == Opcode::VMovB32;
    for (slot, name, banks) in [(0, "SRC0", 4), (1, "VSRC1", 4), (2, "SRC2", 2)] {
        if slot == 0 && moves && target == Target::Gfx12 {
            continue;
        }
        if let (Some(a), Some(b)) = (sx[slot], sy[slot]) {
            let same_vgpr = a == b && slot < 2 && target == Target::Gfx12;
            if a % banks == b % banks && !same_vgpr {
                return Err(Violation::whole(format!(
                    "the {name} operands of a VOPD pair must use different VGPR banks \
                     (register number modulo {banks})"
                )));
            }
        }
    }
    // One literal dword serves both halves, and the pair reads at most two scalar values
    // (SGPRs and the literal) over the constant bus, as one VOP3 instruction may on RDNA
    // (llvm-mc-19's constant-bus check applies to the pair as a whole).
    let literals: Vec<&&Operand> = scalars
        .iter()
        .filter(|o| matches!(o, Operand::Imm(_)))
        .collect();
    if literals.len() > 1 {
        return Err(Violation::whole(
            "the halves of a VOPD pair share one literal constant",
        ));
    }
    if scalars.len() > 2 {
        return Err(Violation::whole(
            "a VOPD pair reads at most two scalar values (SGPRs and a literal)",
        ));
    }
    Ok(())
}

/// The VGPRs a VOPD half reads through its SRC0, VSRC1 and SRC2 ports (`None` for a port
/// it does not read a VGPR through): SRC2 is `v_dual_fmac_f32`'s accumulator (its
/// destination) and `v_dual_fmamk_f32`'s VGPR after K, which therefore is no VSRC1.
pub fn vopd_port_vgprs(half: &Inst) -> [Option<u16>; 3] {
    let info = half.op.info();
    let srcs: Vec<&Operand> = info
        .srcs
        .iter()
        .zip(&half.operands[info.dsts.len().min(half.operands.len())..])
        .filter(|(k, _)| !matches!(k, Kind::MaskSrc) && !k.is_k())
        .map(|(_, o)| o)
        .collect();
    let vgpr = |o: Option<&&Operand>| match o {
        Some(Operand::Reg(r)) if r.file() == RegFile::Vgpr => Some(r.first.num),
        _ => None,
    };
    match half.op {
        Opcode::VFmamkF32 => [vgpr(srcs.first()), None, vgpr(srcs.get(1))],
        Opcode::VFmacF32 => [
            vgpr(srcs.first()),
            vgpr(srcs.get(1)),
            vgpr(half.operands.first().as_ref()),
        ],
        _ => [vgpr(srcs.first()), vgpr(srcs.get(1)), None],
    }
}
