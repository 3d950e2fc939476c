//! The instruction table: one row per instruction with its format, class, mnemonic (and the
//! gfx8, gfx11 and gfx12 spellings where they differ), the targets that have it, its operand kinds,
//! which sources take f32 modifiers, the width of sub-dword memory accesses, and its
//! implicit [`Effects`]. Semantics live in the simulator, written once per [`Opcode`]; a test
//! there runs every row against its declared effects.
//!
//! Decisions: an opcode is one hardware operation, whatever its spelling. GCN 1.2's
//! `v_add_u32`/`v_sub_u32`/`v_addc_u32`/`v_subb_u32` write a carry to a lane mask, so they
//! are RDNA's `v_add_co_u32`/`v_sub_co_u32`/`v_add_co_ci_u32`/`v_sub_co_ci_u32`; the
//! carry-less `v_add_nc_u32`/`v_sub_nc_u32` exist only on RDNA; GCN 1.0/1.1 spell the
//! carry-out forms `v_add_i32`/`v_sub_i32`. `gfx8` means GCN 1.2 as LLVM's `tonga` (gfx802),
//! `gfx6` LLVM's `pitcairn` and `gfx7` its `bonaire`. Scalar memory offsets are written as
//! LLVM writes them: byte offsets from GCN 1.2 on, dword offsets (the encoded 8-bit field) on
//! `gfx6`/`gfx7`. Flat memory is modelled on gfx7 and gfx8 (where global instructions do not
//! exist) and on RDNA (where llc-19 uses it for generic pointers); the model's flat
//! addresses are global memory. Instructions that are VOP3-only from GCN 1.2 on but
//! VOP2 on GCN 1.0/1.1 (`v_readlane_b32`, `v_writelane_b32`, `v_bcnt_u32_b32`,
//! `v_ldexp_f32`) keep one row whose encoding family on `gfx6`/`gfx7` is
//! [`OpInfo::format_on`]; as in LLVM, the lane instructions have no `_e64` form there.
//! `v_cmpx_*` write EXEC alone on RDNA but also the lane mask they name on GCN
//! (`v_cmpx_eq_i32_e32 vcc, -1, v9`): two operations, so two rows per compare, the GCN ones
//! named `VCmpx*Gcn`. `s_sendmsg` exists on GCN 1.0/1.1 but is modelled on RDNA only.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::opcode_numbers::NONE;
use crate::target::{Target, ENCODED_TARGETS};

/// The hardware encoding family of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar compare (writes SCC).
    Sopc,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar program control (branches, `s_endpgm`, `s_nop`, `s_waitcnt`).
    Sopp,
    /// Scalar memory.
    Smem,
    /// Vector ALU, one source (32-bit encoding when the operands allow).
    Vop1,
    /// Vector ALU, two sources (32-bit encoding when the operands allow).
    Vop2,
    /// Vector compare (32-bit encoding when it writes `vcc`).
    Vopc,
    /// Vector ALU, 64-bit encoding only.
    Vop3,
    /// Buffer memory through a resource descriptor.
    Mubuf,
    /// Typed buffer memory: a buffer access with the data and number format in the
    /// instruction (`tbuffer_*`; modelled on `gfx6`/`gfx7`).
    Mtbuf,
    /// Global memory (flat addressing restricted to global, RDNA).
    Global,
    /// Per-lane scratch memory (RDNA).
    Scratch,
    /// Flat memory (a 64-bit address per lane; the project models it on `gfx7`/`gfx8`, with
    /// no offset, and on RDNA; its addresses are global memory).
    Flat,
    /// Local data share: the work-group's shared memory (LDS), addressed by a VGPR byte
    /// address plus an immediate offset (modelled on `gfx8`, `gfx1030` and `gfx1100`).
    Ds,
    /// Image memory through an image resource (T#) and, for sampling, a sampler (S#):
    /// modelled on `gfx6`/`gfx7` for AMD's OpenCL compiler, and on RDNA for the ray
    /// intersection instructions (`image_bvh*_intersect_ray`).
    Mimg,
}

/// What an instruction does, for statistics and for the simulator's dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Scalar ALU.
    Salu,
    /// Scalar memory loads.
    Smem,
    /// Vector ALU.
    Valu,
    /// Vector memory (buffer, global, flat).
    Vmem,
    /// Per-lane scratch memory.
    Scratch,
    /// Local data share (work-group shared memory).
    Lds,
    /// Branches and program-counter moves.
    Branch,
    /// No effect on the simulated state (`s_nop`, `s_waitcnt`) or ends the wave.
    Control,
}

impl Class {
    /// Every class, in the order statistics print them.
    pub const ALL: [Class; 8] = [
        Class::Salu,
        Class::Smem,
        Class::Valu,
        Class::Vmem,
        Class::Scratch,
        Class::Lds,
        Class::Branch,
        Class::Control,
    ];

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Salu => "salu",
            Class::Smem => "smem",
            Class::Valu => "valu",
            Class::Vmem => "vmem",
            Class::Scratch => "scratch",
            Class::Lds => "lds",
            Class::Branch => "branch",
            Class::Control => "control",
        }
    }
}

/// The kind of an operand slot: which operands it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Scalar destination of N dwords: SGPRs or a special register.
    SDst(u8),
    /// Scalar source of N dwords: SGPRs, special registers, constants, label expressions.
    SSrc(u8),
    /// Scalar source of N dwords, registers only.
    SReg(u8),
    /// Vector destination of N dwords.
    VDst(u8),
    /// Vector source of N dwords: VGPRs, SGPRs, special registers, constants.
    VSrc(u8),
    /// Vector register source of N dwords.
    VReg(u8),
    /// Vector source of 16 bits (an f16): a VGPR (its bits 15:0), an SGPR, or a constant
    /// that fits 16 bits, an inline float constant standing for its f16 value
    /// ([`crate::Imm::value16`]).
    VSrc16,
    /// Vector source of a 16-bit integer: a VGPR (its bits 15:0), an SGPR, or a constant of
    /// 16 bits. Unlike [`Kind::VSrc16`], only the integers -16..64 and the inline floats as
    /// written are inline constants, and an inline float is its f32 bit pattern, of which
    /// the instruction reads bits 15:0 (LLVM's `getInlineEncodingV216` describes the
    /// hardware so: "for UI16 instructions: corresponding single-precision float value");
    /// llvm-mc-19 encodes `0xffff` and `0x3c00` here as literals
    /// ([`crate::Imm::inline_code_i16`]).
    VSrcI16,
    /// RDNA 3's true16 destination: one 16-bit half of a VGPR, `v1.l` (bits 15:0) or `v1.h`
    /// (bits 31:16), the half kept in [`crate::Inst::hi16`]. In the 32-bit encodings bit 7
    /// of the 8-bit register field selects the half ("RDNA3 ISA", "16-bit Math and VGPRs"),
    /// so only the halves of v0-v127 are reachable there; llvm-mc-19 refuses `v128.l`.
    VDstT16,
    /// RDNA 3's true16 source: a VGPR half as in [`Kind::VDstT16`], an SGPR (its bits 15:0)
    /// or a constant read as in [`Kind::VSrcI16`] (llvm-mc-19 encodes `v_mov_b16 v1.l, 1.0`
    /// with the inline code 242, and `0x3c00` and `0xffff` as literals).
    VSrcT16,
    /// Vector source of two packed f16 values (`v_pk_fmac_f16`, `v_dot2c_f32_f16`): a VGPR,
    /// an SGPR, an inline constant or a 32-bit literal. As LLVM's `getInlineEncodingV216`
    /// describes the hardware, an inline integer is its sign-extended 32-bit value and an
    /// inline float its f16 value in bits 15:0 with bits 31:16 zero; llvm-mc-19 takes
    /// `0x3c00` here as the inline `1.0` ([`crate::Imm::inline_code_pk_f16`]).
    VSrcPkF16,
    /// Vector source of bf16 values, one or a packed pair (RDNA 3's `v_dot2_bf16_bf16`): a
    /// VGPR, an SGPR, an inline constant (an integer sign-extended, a float as its bf16 value
    /// in bits 15:0, which `0x3f80` also selects) or a 16-bit literal
    /// ([`crate::Imm::inline_code_bf16`]).
    VSrcBF16,
    /// Vector source of an f64: a VGPR pair, an SGPR pair, an inline constant (as for
    /// 64-bit integers: the integers -16..64, the inline floats as f64 values) or a 32-bit
    /// literal holding the f64's high dword, its low dword zero ([`crate::Imm::value_f64`];
    /// llvm-mc-19 encodes `v_add_f64 v[0:1], 3.0, v[2:3]` with the literal 0x40080000).
    VSrcF64,
    /// A lane mask written (one SGPR in wave32, a pair in wave64).
    MaskDst,
    /// A lane mask read.
    MaskSrc,
    /// A lane index: SGPR, `m0` or an inline integer.
    Lane,
    /// An unsigned 16-bit immediate (`s_nop`).
    Imm16,
    /// A signed 16-bit immediate (`s_movk_i32`).
    Simm16,
    /// A branch target label.
    Label,
    /// The counters of `s_waitcnt`.
    Waitcnt,
    /// Scalar memory base address (2 SGPRs) or buffer resource (4 SGPRs).
    SBase(u8),
    /// Scalar memory offset: SGPR, `m0` or an unsigned 20-bit byte immediate.
    SOffset,
    /// Buffer address VGPR (`offen`/`idxen`) or `off`.
    BufAddr,
    /// Buffer resource descriptor: 4 SGPRs aligned to 4.
    Rsrc,
    /// Buffer scalar offset: SGPR, `m0` or an inline integer.
    BufSOffset,
    /// Global address: a VGPR pair with `off`, or a 32-bit VGPR offset with an SGPR base.
    GlobalAddr,
    /// Global SGPR base pair, or `off`.
    GlobalSAddr,
    /// Scratch per-lane VGPR offset, or `off`.
    ScratchAddr,
    /// Scratch SGPR offset, or `off`.
    ScratchSAddr,
    /// Flat address: a VGPR pair.
    FlatAddr,
    /// A 32-bit constant always held in the literal dword after the instruction (the K of
    /// `v_fmamk_f32`/`v_fmaak_f32`/`v_madmk_f32`/`v_madak_f32`, which have no 64-bit form).
    KImm,
    /// An f16 constant always held in the literal dword after the instruction, in its bits
    /// 15:0 (the K of `v_fmamk_f16`/`v_fmaak_f16`/`v_madmk_f16`/`v_madak_f16`; a float is
    /// its f16 value, [`crate::Imm::value16`]).
    KImm16,
    /// A message id of 0..255 held as such in a scalar source field
    /// (`s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)`).
    Msg8,
    /// The address of a ray intersection instruction, N dwords: one tuple of N VGPRs, or
    /// the VGPRs one by one in brackets (RDNA's non-sequential address,
    /// [`crate::Operand::Nsa`]).
    ImageAddr(u8),
    /// Image data: a tuple of 1 to 5 VGPRs, one per component `dmask` enables (at least
    /// one) and one more with `tfe`.
    ImgData,
    /// Image address: the first VGPR of the coordinates, or a tuple of up to 4 VGPRs. The
    /// encoding holds the first VGPR only; the hardware reads as many as the resource's
    /// type and the instruction need ("Southern Islands Series ISA", "Image Instructions").
    ImgAddr,
    /// Image resource (T#): 8 SGPRs aligned to 4.
    ImgRsrc,
    /// Sampler (S#): 4 SGPRs aligned to 4.
    ImgSamp,
}

/// Which targets have an instruction: a set of bits, one per target the machine model
/// encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Targets(u8);

impl Targets {
    /// GCN 1.0 (`gfx6`).
    pub const GFX6: Targets = Targets(8);
    /// GCN 1.1 (`gfx7`).
    pub const GFX7: Targets = Targets(16);
    /// GCN 1.0 and 1.1.
    pub const GCN1: Targets = Targets(8 | 16);
    /// GCN 1.2 and RDNA: the targets gpuabi generates code for.
    pub const GFX8_PLUS: Targets = Targets(1 | 2 | 4);
    /// GCN 1.2 (`gfx8`).
    pub const GFX8: Targets = Targets(1);
    /// RDNA 2 (`gfx1030`).
    pub const GFX1030: Targets = Targets(2);
    /// RDNA 3 (`gfx1100`).
    pub const GFX1100: Targets = Targets(4);
    /// RDNA 4 (`gfx12`).
    pub const GFX12: Targets = Targets(32);
    /// Both RDNA targets.
    pub const RDNA: Targets = Targets(2 | 4);
    /// Every target of the machine model.
    pub const ALL: Targets = Targets(1 | 2 | 4 | 8 | 16 | 32);

    /// The targets of both sets.
    pub const fn or(self, other: Targets) -> Targets {
        Targets(self.0 | other.0)
    }

    /// The set holding just `target` (empty for `gfx9`, which has no encodings).
    pub const fn of(target: Target) -> Targets {
        match target {
            Target::Gfx6 => Targets::GFX6,
            Target::Gfx7 => Targets::GFX7,
            Target::Gfx8 => Targets::GFX8,
            Target::Gfx9 => Targets(0),
            Target::Gfx1030 => Targets::GFX1030,
            Target::Gfx1100 => Targets::GFX1100,
            Target::Gfx12 => Targets::GFX12,
        }
    }

    /// Whether `target` is in the set.
    pub const fn contains(self, target: Target) -> bool {
        self.0 & Targets::of(target).0 != 0
    }
}

/// Implicit operands and effects of an instruction: what it reads or writes besides the
/// operands written in assembly, and how it moves control. A set of flags, combined with
/// [`Effects::union`] or `|`.
///
/// A lane mask written as an operand (`vcc` in `v_cmp_eq_u32 vcc, v0, v1`) is an operand,
/// not an effect; `WRITE_VCC`/`READ_VCC` mean the instruction touches `vcc` whatever its
/// operands say (`v_div_fmas_f32` reads it, the VOPC `_e32` forms write it but are spelled
/// with `vcc` in LLVM's syntax). `READ_EXEC` is set on every instruction whose effect is
/// limited to the active lanes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Effects(u16);

impl Effects {
    /// Nothing implicit.
    pub const NONE: Effects = Effects(0);
    /// Reads the scalar condition code.
    pub const READ_SCC: Effects = Effects(1 << 0);
    /// Writes the scalar condition code.
    pub const WRITE_SCC: Effects = Effects(1 << 1);
    /// Reads `vcc`.
    pub const READ_VCC: Effects = Effects(1 << 2);
    /// Writes `vcc`.
    pub const WRITE_VCC: Effects = Effects(1 << 3);
    /// Reads `exec` (vector instructions act on the active lanes only).
    pub const READ_EXEC: Effects = Effects(1 << 4);
    /// Writes `exec`.
    pub const WRITE_EXEC: Effects = Effects(1 << 5);
    /// Reads `m0`.
    pub const READ_M0: Effects = Effects(1 << 6);
    /// Writes `m0`.
    pub const WRITE_M0: Effects = Effects(1 << 7);
    /// Reads memory (global, buffer, scratch or constant).
    pub const MEM_READ: Effects = Effects(1 << 8);
    /// Writes memory.
    pub const MEM_WRITE: Effects = Effects(1 << 9);
    /// May continue somewhere other than the next instruction (a label or a register
    /// address), without returning.
    pub const BRANCH: Effects = Effects(1 << 10);
    /// Calls: continues at a register address and is expected to return to the next
    /// instruction.
    pub const CALL: Effects = Effects(1 << 11);
    /// Never continues with the next instruction (`s_endpgm`, `s_branch`, `s_setpc_b64`).
    pub const TERMINATOR: Effects = Effects(1 << 12);
    /// Reads its destination registers too: `s_addk_i32`/`s_mulk_i32` compute D = D op
    /// SIMM16, `v_fmac_f32` D = fma(S0, S1, D), `v_swap_b32` exchanges its two.
    pub const READ_DST: Effects = Effects(1 << 13);

    /// Every flag with its name, for printing.
    pub const NAMES: [(Effects, &'static str); 14] = [
        (Effects::READ_SCC, "read_scc"),
        (Effects::WRITE_SCC, "write_scc"),
        (Effects::READ_VCC, "read_vcc"),
        (Effects::WRITE_VCC, "write_vcc"),
        (Effects::READ_EXEC, "read_exec"),
        (Effects::WRITE_EXEC, "write_exec"),
        (Effects::READ_M0, "read_m0"),
        (Effects::WRITE_M0, "write_m0"),
        (Effects::MEM_READ, "mem_read"),
        (Effects::MEM_WRITE, "mem_write"),
        (Effects::BRANCH, "branch"),
        (Effects::CALL, "call"),
        (Effects::TERMINATOR, "terminator"),
        (Effects::READ_DST, "read_dst"),
    ];

    /// Both sets of flags.
    pub const fn union(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }

    /// The flags of `self` not in `other`.
    pub const fn without(self, other: Effects) -> Effects {
        Effects(self.0 & !other.0)
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Effects) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any flag of `other` is set.
    pub const fn intersects(self, other: Effects) -> bool {
        self.0 & other.0 != 0
    }
}

impl Kind {
    /// Whether the slot is a constant held in the literal dword ([`Kind::KImm`],
    /// [`Kind::KImm16`]).
    pub const fn is_k(self) -> bool {
        matches!(self, Kind::KImm | Kind::KImm16)
    }
}

impl std::ops::BitOr for Effects {
    type Output = Effects;
    fn bitor(self, other: Effects) -> Effects {
        self.union(other)
    }
}

impl std::fmt::Debug for Effects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Effects::NAMES
            .iter()
            .filter(|(e, _)| self.contains(*e))
            .map(|(_, n)| *n)
            .collect();
        write!(f, "Effects({})", names.join(" | "))
    }
}

/// The properties of one instruction: one row of the table.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// The instruction.
    pub op: Opcode,
    /// Its encoding family.
    pub format: Format,
    /// Its class.
    pub class: Class,
    /// The mnemonic (GCN 1.2 / RDNA 2 spelling, as LLVM 19 writes it for gfx1030).
    pub mnemonic: &'static str,
    /// The `gfx8` spelling where it differs.
    pub gfx8_mnemonic: Option<&'static str>,
    /// The `gfx1100` spelling where it differs (RDNA 3 renamed many instructions).
    pub gfx11_mnemonic: Option<&'static str>,
    /// The `gfx12` spelling where it differs from the `gfx1100` one (RDNA 4 renamed a few:
    /// `v_max_num_f32`, `s_add_co_u32`).
    pub gfx12_mnemonic: Option<&'static str>,
    /// The `gfx6`/`gfx7` spelling where it differs.
    pub gcn1_mnemonic: Option<&'static str>,
    /// The encoding family on `gfx6`/`gfx7` where it differs from [`OpInfo::format`]:
    /// instructions that are VOP2 on GCN 1.0/1.1 and VOP3-only from GCN 1.2 on.
    pub gcn1_format: Option<Format>,
    /// The encoding family on RDNA where it differs from [`OpInfo::format`]: GCN 1.2's
    /// VOP2 16-bit instructions are VOP3-only from GFX10 on, and `v_cvt_pkrtz_f16_f32` is
    /// VOP2 there again.
    pub rdna_format: Option<Format>,
    /// The encoding family on `gfx12` where it differs from the RDNA one: RDNA 4 gave the
    /// 64-bit shifts and f64 additions, multiplications and min/max a VOP2 form.
    pub gfx12_format: Option<Format>,
    /// The instruction has no 64-bit (VOP3) encoding on `gfx6`/`gfx7`: LLVM encodes
    /// `v_readlane_b32`/`v_writelane_b32` there as VOP2 only and refuses `_e64`.
    pub gcn1_e32_only: bool,
    /// The instruction has no 64-bit (VOP3) encoding on any target (`v_swap_b32`: llvm-mc
    /// says "e64 variant of this instruction is not supported").
    pub e32_only: bool,
    /// The targets that have the instruction.
    pub targets: Targets,
    /// Destination operand slots, written first in assembly.
    pub dsts: &'static [Kind],
    /// Source operand slots, after the destinations.
    pub srcs: &'static [Kind],
    /// Implicit operands and effects.
    pub effects: Effects,
    /// The sources (bit `i` for source `i`) that take f32 modifiers (`-v1`, `|v1|`).
    pub float_srcs: u8,
    /// For memory instructions that move less than a dword per lane: the width and whether a
    /// load sign-extends.
    pub narrow: Option<Narrow>,
    /// A vector instruction with a 16-bit result: it writes bits 15:0 of its destination;
    /// GCN 1.2 zeroes bits 31:16, RDNA keeps them (LLVM's
    /// `GCNSubtarget::zeroesHigh16BitsOfDest`: true up to GFX9, false from GFX10 on).
    pub half_dst: bool,
    /// For local data share instructions: what they do at each address.
    pub ds: Option<DsAccess>,
    /// For global, flat and buffer atomics: the operation and its width. One row serves
    /// both forms: with `glc` the instruction returns the memory's value from before the
    /// operation, without it nothing ([`OpInfo::dsts_with`]).
    pub atomic: Option<MemAtomic>,
    /// The opcode number on gfx8, gfx1030, gfx1100, gfx6, gfx7 and gfx12, in that order
    /// (`NONE` where the target lacks the instruction; on `gfx12` this column alone says
    /// whether the instruction exists): the format's `OP` field, or for vector ALU
    /// instructions the opcode of the 64-bit VOP3 encoding (read through
    /// [`crate::opcode_numbers::number`], whose documentation names the manuals' tables).
    pub numbers: [u16; 6],
}

/// What a global, flat or buffer atomic (`global_atomic_*`, `flat_atomic_*`,
/// `buffer_atomic_*`) does per lane.
///
/// Both forms share one mnemonic ("AMD GCN3 ISA", "RDNA2 ISA", "RDNA3 ISA", the FLAT and
/// MUBUF atomic tables: "GLC = 1: return the pre-operation value"). Global and flat
/// atomics then name a destination before the address (`global_atomic_add v0, v[1:2], v3,
/// off glc`); buffer atomics return into their data register (`buffer_atomic_add v1, v2,
/// s[4:7], 0 offen glc`), so their operand list is the same in both forms.
///
/// Decision of the project: the lanes of one instruction act in increasing lane order (the
/// manuals leave the order open), so a returning atomic's values are the running results of
/// lanes 0, 1, 2, … as for the LDS atomics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MemAtomic {
    /// The operation.
    pub op: AtomicOp,
    /// Dwords of memory it works on: 1, or 2 for the `_x2`/`_u64`/`_b64` forms.
    pub dwords: u8,
}

/// What a local data share (`ds_*`) instruction does per lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DsAccess {
    /// The operation.
    pub op: DsOp,
    /// Dwords at each address: 1, 2 or 4.
    pub dwords: u8,
}

/// The operation of a `ds_*` instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DsOp {
    /// Reads `dwords` at ADDR + `offset`.
    Read,
    /// Writes `dwords` at ADDR + `offset`.
    Write,
    /// Reads two elements at ADDR + `offset0` × size and ADDR + `offset1` × size
    /// (`ds_read2_*`), the offsets counted in elements.
    Read2,
    /// Writes two elements as [`DsOp::Read2`] addresses them (`ds_write2_*`).
    Write2,
    /// Reads two elements at ADDR + `offset0` × size × 64 and ADDR + `offset1` × size × 64
    /// (`ds_read2st64_*`: the offsets count 64-element strides).
    Read2St64,
    /// Writes two elements as [`DsOp::Read2St64`] addresses them (`ds_write2st64_*`).
    Write2St64,
    /// A read-modify-write at ADDR + `offset`; the instructions with a destination return
    /// the old value (`_rtn`).
    Atomic(AtomicOp),
}

/// The operation of an atomic read-modify-write: the new memory value from the old one
/// and the data operand (AMD's ISA manuals, "DS_ADD_U32" and the rows after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// old + data (wrapping).
    Add,
    /// old - data (wrapping).
    Sub,
    /// Signed minimum.
    MinI,
    /// Signed maximum.
    MaxI,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// data (exchange).
    Swap,
    /// Compare and store: the new value if old equals the compared one, else old. The
    /// operands differ per instruction: `ds_cmpst_*` compares with its first data operand
    /// and stores the second (RDNA 3's `ds_cmpstore_*` the other way round); the vector
    /// memory `*_atomic_cmpswap*` take one data register tuple holding the new value in its
    /// low half and the compared value in its high half.
    CmpStore,
    /// Unsigned wrapping increment: 0 if old >= data, else old + 1 (`*_atomic_inc`).
    Inc,
    /// Unsigned wrapping decrement: data if old == 0 or old > data, else old - 1
    /// (`*_atomic_dec`).
    Dec,
    /// f32 minimum (`*_atomic_fmin`, RDNA 3's `*_atomic_min_f32`).
    FMin,
    /// f32 maximum (`*_atomic_fmax`, RDNA 3's `*_atomic_max_f32`).
    FMax,
    /// f32 addition (RDNA 3's `*_atomic_add_f32`).
    FAdd,
}

/// The width of a sub-dword memory access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Narrow {
    /// Bytes per lane: 1 or 2.
    pub bytes: u8,
    /// Loads sign-extend (`sbyte`, `sshort`) rather than zero-extend.
    pub signed: bool,
    /// For the `d16` accesses: the 16-bit half of the data VGPR they use; `None` for the
    /// accesses of the whole register.
    pub d16: Option<Half>,
}

/// A 16-bit half of a 32-bit VGPR, as the `d16` memory accesses of GFX9 and later use it
/// ("RDNA2 ISA" and "RDNA3 ISA", the `*_D16` and `*_D16_HI` loads and stores): a load
/// writes the value, extended to 16 bits, into that half and keeps the other half; a
/// store writes the low `bytes` of that half.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Half {
    /// Bits 15:0 (`*_d16`).
    Low,
    /// Bits 31:16 (`*_d16_hi`).
    High,
}

impl Half {
    /// The bit position the half starts at.
    pub const fn shift(self) -> u32 {
        match self {
            Half::Low => 0,
            Half::High => 16,
        }
    }
}

/// The default class and effects of a format: vector instructions act on the active lanes;
/// memory instructions read memory, or write it when they have no destination; scalar
/// loads read memory.
const fn format_defaults(format: Format, dsts: &[Kind]) -> (Class, Effects) {
    let mem = if dsts.is_empty() {
        Effects::MEM_WRITE
    } else {
        Effects::MEM_READ
    };
    match format {
        Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => (Class::Salu, Effects::NONE),
        Format::Sopp => (Class::Control, Effects::NONE),
        Format::Smem => (Class::Smem, Effects::MEM_READ),
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
            (Class::Valu, Effects::READ_EXEC)
        }
        Format::Mubuf | Format::Mtbuf | Format::Global | Format::Flat => {
            (Class::Vmem, Effects::READ_EXEC.union(mem))
        }
        Format::Scratch => (Class::Scratch, Effects::READ_EXEC.union(mem)),
        Format::Ds => (Class::Lds, Effects::READ_EXEC.union(mem)),
        Format::Mimg => (Class::Vmem, Effects::READ_EXEC.union(mem)),
    }
}

/// A row available on every target, with the format's default class and effects.
const fn row(
    format: Format,
    mnemonic: &'static str,
    dsts: &'static [Kind],
    srcs: &'static [Kind],
) -> OpInfo {
    let (class, effects) = format_defaults(format, dsts);
    OpInfo {
        // Replaced by the table macro.
        op: Opcode::SNop,
        format,
        class,
        mnemonic,
        gfx8_mnemonic: None,
        gfx11_mnemonic: None,
        gfx12_mnemonic: None,
        gcn1_mnemonic: None,
        gcn1_format: None,
        rdna_format: None,
        gfx12_format: None,
        gcn1_e32_only: false,
        e32_only: false,
        targets: Targets::ALL,
        dsts,
        srcs,
        effects,
        float_srcs: 0,
        narrow: None,
        half_dst: false,
        ds: None,
        atomic: None,
        numbers: [NONE; 6],
    }
}

impl OpInfo {
    const fn gfx8(mut self, mnemonic: &'static str) -> OpInfo {
        self.gfx8_mnemonic = Some(mnemonic);
        self
    }

    const fn gfx11(mut self, mnemonic: &'static str) -> OpInfo {
        self.gfx11_mnemonic = Some(mnemonic);
        self
    }

    const fn gfx12(mut self, mnemonic: &'static str) -> OpInfo {
        self.gfx12_mnemonic = Some(mnemonic);
        self
    }

    const fn gcn1(mut self, mnemonic: &'static str) -> OpInfo {
        self.gcn1_mnemonic = Some(mnemonic);
        self
    }

    /// VOP2 on `gfx6`/`gfx7` (VOP3-only from GCN 1.2 on); `e64` says whether GCN 1.0/1.1
    /// also have the 64-bit encoding.
    const fn gcn1_vop2(mut self, e64: bool) -> OpInfo {
        self.gcn1_format = Some(Format::Vop2);
        self.gcn1_e32_only = !e64;
        self.targets = self.targets.or(Targets::GCN1);
        self
    }

    /// A 16-bit vector instruction: VOP2 on GCN 1.2, VOP3-only on RDNA, with a 16-bit
    /// result ([`OpInfo::half_dst`]).
    const fn rdna_vop3(mut self) -> OpInfo {
        self.rdna_format = Some(Format::Vop3);
        self.half_dst = true;
        self
    }

    /// VOP3-only up to RDNA 3 but VOP2 on RDNA 4 (`v_lshlrev_b64`, `v_add_f64`).
    const fn gfx12_vop2(mut self) -> OpInfo {
        self.gfx12_format = Some(Format::Vop2);
        self
    }

    /// VOP3-only on GCN 1.2 but VOP2 on RDNA (`v_cvt_pkrtz_f16_f32`).
    const fn rdna_vop2(mut self) -> OpInfo {
        self.rdna_format = Some(Format::Vop2);
        self
    }

    /// A vector instruction with a 16-bit result ([`OpInfo::half_dst`]).
    const fn half(mut self) -> OpInfo {
        self.half_dst = true;
        self
    }

    /// A vector instruction with the 32-bit encoding only ([`OpInfo::e32_only`]).
    const fn e32_only(mut self) -> OpInfo {
        self.e32_only = true;
        self
    }

    const fn only(mut self, targets: Targets) -> OpInfo {
        self.targets = targets;
        self
    }

    const fn class(mut self, class: Class) -> OpInfo {
        self.class = class;
        self
    }

    /// Sources `mask` (bit per source) are f32 values that take modifiers.
    const fn float(mut self, mask: u8) -> OpInfo {
        self.float_srcs = mask;
        self
    }

    /// A sub-dword memory access of `bytes` bytes.
    const fn narrow(mut self, bytes: u8, signed: bool) -> OpInfo {
        self.narrow = Some(Narrow {
            bytes,
            signed,
            d16: None,
        });
        self
    }

    /// A `d16` access of `bytes` bytes to the `half` of its data VGPR. The loads do not
    /// declare [`Effects::READ_DST`], as the 16-bit ALU results that keep the high half
    /// ([`OpInfo::half_dst`]) do not: the kept half passes through unread.
    const fn d16(mut self, bytes: u8, signed: bool, half: Half) -> OpInfo {
        self.narrow = Some(Narrow {
            bytes,
            signed,
            d16: Some(half),
        });
        self
    }

    /// A local data share access. It reads `M0`: GCN3 bounds LDS addresses by it ("AMD
    /// GCN3 ISA", "Data Share Operations"); RDNA ignores it, but the row is one for all
    /// targets.
    const fn ds(mut self, op: DsOp, dwords: u8) -> OpInfo {
        self.ds = Some(DsAccess { op, dwords });
        self.effects = self.effects.union(Effects::READ_M0);
        // Atomics both read and write; those without a destination would default to a
        // write only.
        if let DsOp::Atomic(_) = op {
            self.effects = self
                .effects
                .union(Effects::MEM_READ)
                .union(Effects::MEM_WRITE);
        }
        self
    }

    /// A global, flat or buffer atomic on `dwords` dwords: it reads and writes memory
    /// whether or not it returns.
    const fn atomic(mut self, op: AtomicOp, dwords: u8) -> OpInfo {
        self.atomic = Some(MemAtomic { op, dwords });
        self.effects = self
            .effects
            .union(Effects::MEM_READ)
            .union(Effects::MEM_WRITE);
        self
    }

    const fn without(mut self, effects: Effects) -> OpInfo {
        self.effects = self.effects.without(effects);
        self
    }

    const fn finish(mut self, op: Opcode, effects: Effects, numbers: [u16; 6]) -> OpInfo {
        self.op = op;
        self.effects = self.effects.union(effects);
        self.numbers = numbers;
        // RDNA 4 has the instruction exactly where the table gives it a number, whatever
        // `.only(..)` said of the older targets.
        self.targets = if numbers[5] == NONE {
            Targets(self.targets.0 & !Targets::GFX12.0)
        } else {
            self.targets.or(Targets::GFX12)
        };
        self
    }

    /// The mnemonic on `target`, if the instruction exists there.
    pub fn name(&self, target: Target) -> Option<&'static str> {
        if !self.targets.contains(target) {
            return None;
        }
        let over = match target {
            Target::Gfx6 | Target::Gfx7 => self.gcn1_mnemonic,
            Target::Gfx8 => self.gfx8_mnemonic,
            Target::Gfx1100 => self.gfx11_mnemonic,
            Target::Gfx12 => self.gfx12_mnemonic.or(self.gfx11_mnemonic),
            _ => None,
        };
        Some(over.unwrap_or(self.mnemonic))
    }

    /// The encoding family on `target`: [`OpInfo::format`], except for the rows that are
    /// VOP2 on GCN 1.0/1.1 only, the GCN 1.2 VOP2 rows that are VOP3-only on RDNA and the
    /// VOP3 rows that are VOP2 on RDNA 4.
    pub fn format_on(&self, target: Target) -> Format {
        if let (Target::Gfx12, Some(f)) = (target, self.gfx12_format) {
            return f;
        }
        match (target, self.gcn1_format, self.rdna_format) {
            (Target::Gfx6 | Target::Gfx7, Some(f), _) => f,
            (Target::Gfx1030 | Target::Gfx1100 | Target::Gfx12, _, Some(f)) => f,
            _ => self.format,
        }
    }

    /// Whether the instruction has a 64-bit (VOP3) encoding on `target` (vector ALU rows).
    pub fn has_vop3_on(&self, target: Target) -> bool {
        let gcn1 = matches!(target, Target::Gfx6 | Target::Gfx7);
        !(self.e32_only || (self.gcn1_e32_only && gcn1))
    }

    /// Every spelling of the instruction on some target (the mnemonic first).
    pub fn spellings(&self) -> Vec<&'static str> {
        let mut all = vec![self.mnemonic];
        for n in [
            self.gfx8_mnemonic,
            self.gfx11_mnemonic,
            self.gfx12_mnemonic,
            self.gcn1_mnemonic,
        ]
        .into_iter()
        .flatten()
        {
            if !all.contains(&n) {
                all.push(n);
            }
        }
        all
    }

    /// Whether the VOP3 encoding is VOP3b: a lane mask as second destination in place of
    /// the `abs` and `clamp` fields (so sources take `neg` but not `abs`).
    pub fn is_vop3b(&self) -> bool {
        self.dsts.len() == 2 && self.dsts[1] == Kind::MaskDst
    }

    /// Whether the instruction is a two-address `ds_read2_*`/`ds_write2_*` (or their
    /// `st64` forms), whose offsets are `offset0`/`offset1` rather than `offset`.
    pub fn is_ds_two_address(&self) -> bool {
        matches!(
            self.ds,
            Some(DsAccess {
                op: DsOp::Read2 | DsOp::Write2 | DsOp::Read2St64 | DsOp::Write2St64,
                ..
            })
        )
    }

    /// All operand slots in assembly order (of the returning form, for atomics).
    pub fn slots(&self) -> impl Iterator<Item = Kind> + '_ {
        self.dsts.iter().chain(self.srcs.iter()).copied()
    }

    /// The destination slots of the form selected by `glc`: an atomic's destination exists
    /// only in its returning (`glc`) form; other rows ignore `glc`.
    pub fn dsts_with(&self, glc: bool) -> &'static [Kind] {
        if self.atomic.is_some() && !glc {
            &[]
        } else {
            self.dsts
        }
    }

    /// The operand slots of the form selected by `glc`, in assembly order.
    pub fn slots_with(&self, glc: bool) -> impl Iterator<Item = Kind> + '_ {
        self.dsts_with(glc).iter().chain(self.srcs.iter()).copied()
    }
}

use Format::*;
use Kind::*;

const SD1: Kind = SDst(1);
const SD2: Kind = SDst(2);
const SS1: Kind = SSrc(1);
const SS2: Kind = SSrc(2);
const VD1: Kind = VDst(1);
const VD2: Kind = VDst(2);
const VS1: Kind = VSrc(1);
const VS2: Kind = VSrc(2);
const VV1: Kind = VReg(1);
const MD: Kind = MaskDst;
const MS: Kind = MaskSrc;
const RDNA: Targets = Targets::RDNA;
const GFX7_8: Targets = Targets::GFX7.or(Targets::GFX8);
/// Flat memory: GCN 1.1 and 1.2, and RDNA (llc's code for generic pointers).
const FLAT_TARGETS: Targets = GFX7_8.or(Targets::RDNA);
const GFX8_PLUS: Targets = Targets::GFX8_PLUS;
/// RDNA 4 alone (the number column makes the rest of a row's targets).
const GFX12: Targets = Targets::GFX12;
const GCN1: Targets = Targets::GCN1;
/// GCN 1.0 to 1.2.
const GCN: Targets = GCN1.or(Targets::GFX8);
const VV2: Kind = VReg(2);
const VV4: Kind = VReg(4);
const VD4: Kind = VDst(4);
use Class::Branch;
const READ_EXEC: Effects = Effects::READ_EXEC;

/// Rows are `Opcode = row(format, mnemonic, destinations, sources)` with per-target
/// spellings (`.gfx8(..)`, `.gfx11(..)`), availability (`.only(..)`), a class other than the
/// format's (`.class(..)`), then the implicit effects beyond the format's defaults, then the
/// opcode numbers on gfx8, gfx1030, gfx1100, gfx6, gfx7 and gfx12 (`NONE`: not on that
/// target).
macro_rules! table {
    ($( $op:ident = $row:expr, [$($fx:ident),*], [$($n:expr),*]; )*) => {
        /// An instruction of the machine model (named by its GCN 1.2 / RDNA 2 mnemonic).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Opcode { $($op),* }

        /// Every instruction, indexed by `Opcode as usize`.
        pub static TABLE: &[OpInfo] = &[
            $($row.finish(Opcode::$op, Effects::NONE $(.union(Effects::$fx))*, [$($n),*])),*
        ];
    };
}

table! {
    // Scalar ALU, one source.
    SMovB32 = row(Sop1, "s_mov_b32", &[SD1], &[SS1]), [], [0x000, 0x003, 0x000, 0x003, 0x003, 0x000];
    SMovB64 = row(Sop1, "s_mov_b64", &[SD2], &[SS2]), [], [0x001, 0x004, 0x001, 0x004, 0x004, 0x001];
    SNotB32 = row(Sop1, "s_not_b32", &[SD1], &[SS1]), [WRITE_SCC], [0x004, 0x007, 0x01e, 0x007, 0x007, 0x01e];
    SNotB64 = row(Sop1, "s_not_b64", &[SD2], &[SS2]), [WRITE_SCC], [0x005, 0x008, 0x01f, 0x008, 0x008, 0x01f];
    SBcnt1I32B32 = row(Sop1, "s_bcnt1_i32_b32", &[SD1], &[SS1]), [WRITE_SCC], [0x00c, 0x00f, 0x018, 0x00f, 0x00f, 0x018];
    SBcnt1I32B64 = row(Sop1, "s_bcnt1_i32_b64", &[SD1], &[SS2]), [WRITE_SCC], [0x00d, 0x010, 0x019, 0x010, 0x010, 0x019];
    SFf1I32B32 = row(Sop1, "s_ff1_i32_b32", &[SD1], &[SS1]).gfx11("s_ctz_i32_b32"), [], [0x010, 0x013, 0x008, 0x013, 0x013, 0x008];
    SFf1I32B64 = row(Sop1, "s_ff1_i32_b64", &[SD1], &[SS2]).gfx11("s_ctz_i32_b64"), [], [0x011, 0x014, 0x009, 0x014, 0x014, 0x009];
    SFlbitI32B32 = row(Sop1, "s_flbit_i32_b32", &[SD1], &[SS1]).gfx11("s_clz_i32_u32"), [], [0x012, 0x015, 0x00a, 0x015, 0x015, 0x00a];
    SBitset0B32 = row(Sop1, "s_bitset0_b32", &[SD1], &[SS1]), [READ_DST], [0x018, 0x01b, 0x010, 0x01b, 0x01b, 0x010];
    SBitset1B32 = row(Sop1, "s_bitset1_b32", &[SD1], &[SS1]), [READ_DST], [0x01a, 0x01d, 0x012, 0x01d, 0x01d, 0x012];
    SGetpcB64 = row(Sop1, "s_getpc_b64", &[SD2], &[]), [], [0x01c, 0x01f, 0x047, 0x01f, 0x01f, 0x047];
    SSetpcB64 = row(Sop1, "s_setpc_b64", &[], &[SReg(2)]).class(Branch), [BRANCH, TERMINATOR], [0x01d, 0x020, 0x048, 0x020, 0x020, 0x048];
    SSwappcB64 = row(Sop1, "s_swappc_b64", &[SD2], &[SReg(2)]).class(Branch), [CALL], [0x01e, 0x021, 0x049, 0x021, 0x021, 0x049];
    SAndSaveexecB64 = row(Sop1, "s_and_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x020, 0x024, 0x021, 0x024, 0x024, 0x021];
    SOrSaveexecB64 = row(Sop1, "s_or_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x021, 0x025, 0x023, 0x025, 0x025, 0x023];
    SXorSaveexecB64 = row(Sop1, "s_xor_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x022, 0x026, 0x025, 0x026, 0x026, 0x025];
    SAndn2SaveexecB64 = row(Sop1, "s_andn2_saveexec_b64", &[SD2], &[SS2]).gfx11("s_and_not1_saveexec_b64"), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x023, 0x027, 0x031, 0x027, 0x027, 0x031];
    SAndSaveexecB32 = row(Sop1, "s_and_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x03c, 0x020, NONE, NONE, 0x020];
    SOrSaveexecB32 = row(Sop1, "s_or_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x03d, 0x022, NONE, NONE, 0x022];
    SXorSaveexecB32 = row(Sop1, "s_xor_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x03e, 0x024, NONE, NONE, 0x024];
    SAndn2SaveexecB32 = row(Sop1, "s_andn2_saveexec_b32", &[SD1], &[SS1]).gfx11("s_and_not1_saveexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x03f, 0x030, NONE, NONE, 0x030];
    // Scalar ALU, two sources.
    SAddU32 = row(Sop2, "s_add_u32", &[SD1], &[SS1, SS1]).gfx12("s_add_co_u32"), [WRITE_SCC], [0x000, 0x000, 0x000, 0x000, 0x000, 0x000];
    SAddcU32 = row(Sop2, "s_addc_u32", &[SD1], &[SS1, SS1]).gfx12("s_add_co_ci_u32"), [READ_SCC, WRITE_SCC], [0x004, 0x004, 0x004, 0x004, 0x004, 0x004];
    SSubU32 = row(Sop2, "s_sub_u32", &[SD1], &[SS1, SS1]).gfx12("s_sub_co_u32"), [WRITE_SCC], [0x001, 0x001, 0x001, 0x001, 0x001, 0x001];
    SSubbU32 = row(Sop2, "s_subb_u32", &[SD1], &[SS1, SS1]).gfx12("s_sub_co_ci_u32"), [READ_SCC, WRITE_SCC], [0x005, 0x005, 0x005, 0x005, 0x005, 0x005];
    SAddI32 = row(Sop2, "s_add_i32", &[SD1], &[SS1, SS1]).gfx12("s_add_co_i32"), [WRITE_SCC], [0x002, 0x002, 0x002, 0x002, 0x002, 0x002];
    SSubI32 = row(Sop2, "s_sub_i32", &[SD1], &[SS1, SS1]).gfx12("s_sub_co_i32"), [WRITE_SCC], [0x003, 0x003, 0x003, 0x003, 0x003, 0x003];
    SAndB32 = row(Sop2, "s_and_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x00c, 0x00e, 0x016, 0x00e, 0x00e, 0x016];
    SAndB64 = row(Sop2, "s_and_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x00d, 0x00f, 0x017, 0x00f, 0x00f, 0x017];
    SOrB32 = row(Sop2, "s_or_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x00e, 0x010, 0x018, 0x010, 0x010, 0x018];
    SOrB64 = row(Sop2, "s_or_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x00f, 0x011, 0x019, 0x011, 0x011, 0x019];
    SXorB32 = row(Sop2, "s_xor_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x010, 0x012, 0x01a, 0x012, 0x012, 0x01a];
    SXorB64 = row(Sop2, "s_xor_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x011, 0x013, 0x01b, 0x013, 0x013, 0x01b];
    SAndn2B32 = row(Sop2, "s_andn2_b32", &[SD1], &[SS1, SS1]).gfx11("s_and_not1_b32"), [WRITE_SCC], [0x012, 0x014, 0x022, 0x014, 0x014, 0x022];
    SAndn2B64 = row(Sop2, "s_andn2_b64", &[SD2], &[SS2, SS2]).gfx11("s_and_not1_b64"), [WRITE_SCC], [0x013, 0x015, 0x023, 0x015, 0x015, 0x023];
    SOrn2B32 = row(Sop2, "s_orn2_b32", &[SD1], &[SS1, SS1]).gfx11("s_or_not1_b32"), [WRITE_SCC], [0x014, 0x016, 0x024, 0x016, 0x016, 0x024];
    SOrn2B64 = row(Sop2, "s_orn2_b64", &[SD2], &[SS2, SS2]).gfx11("s_or_not1_b64"), [WRITE_SCC], [0x015, 0x017, 0x025, 0x017, 0x017, 0x025];
    SLshlB32 = row(Sop2, "s_lshl_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x01c, 0x01e, 0x008, 0x01e, 0x01e, 0x008];
    SLshlB64 = row(Sop2, "s_lshl_b64", &[SD2], &[SS2, SS1]), [WRITE_SCC], [0x01d, 0x01f, 0x009, 0x01f, 0x01f, 0x009];
    SLshrB32 = row(Sop2, "s_lshr_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x01e, 0x020, 0x00a, 0x020, 0x020, 0x00a];
    SLshrB64 = row(Sop2, "s_lshr_b64", &[SD2], &[SS2, SS1]), [WRITE_SCC], [0x01f, 0x021, 0x00b, 0x021, 0x021, 0x00b];
    SAshrI32 = row(Sop2, "s_ashr_i32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x020, 0x022, 0x00c, 0x022, 0x022, 0x00c];
    SAshrI64 = row(Sop2, "s_ashr_i64", &[SD2], &[SS2, SS1]), [WRITE_SCC], [0x021, 0x023, 0x00d, 0x023, 0x023, 0x00d];
    SMulI32 = row(Sop2, "s_mul_i32", &[SD1], &[SS1, SS1]), [], [0x024, 0x026, 0x02c, 0x026, 0x026, 0x02c];
    SMinI32 = row(Sop2, "s_min_i32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x006, 0x006, 0x012, 0x006, 0x006, 0x012];
    SMinU32 = row(Sop2, "s_min_u32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x007, 0x007, 0x013, 0x007, 0x007, 0x013];
    SMaxI32 = row(Sop2, "s_max_i32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x008, 0x008, 0x014, 0x008, 0x008, 0x014];
    SMaxU32 = row(Sop2, "s_max_u32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x009, 0x009, 0x015, 0x009, 0x009, 0x015];
    SCselectB32 = row(Sop2, "s_cselect_b32", &[SD1], &[SS1, SS1]), [READ_SCC], [0x00a, 0x00a, 0x030, 0x00a, 0x00a, 0x030];
    SCselectB64 = row(Sop2, "s_cselect_b64", &[SD2], &[SS2, SS2]), [READ_SCC], [0x00b, 0x00b, 0x031, 0x00b, 0x00b, 0x031];
    // Scalar compares.
    SCmpEqU32 = row(Sopc, "s_cmp_eq_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x006, 0x006, 0x006, 0x006, 0x006, 0x006];
    SCmpLgU32 = row(Sopc, "s_cmp_lg_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x007, 0x007, 0x007, 0x007, 0x007, 0x007];
    SCmpGtU32 = row(Sopc, "s_cmp_gt_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x008, 0x008, 0x008, 0x008, 0x008, 0x008];
    SCmpGeU32 = row(Sopc, "s_cmp_ge_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x009, 0x009, 0x009, 0x009, 0x009, 0x009];
    SCmpLtU32 = row(Sopc, "s_cmp_lt_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x00a, 0x00a, 0x00a, 0x00a, 0x00a, 0x00a];
    SCmpLeU32 = row(Sopc, "s_cmp_le_u32", &[], &[SS1, SS1]), [WRITE_SCC], [0x00b, 0x00b, 0x00b, 0x00b, 0x00b, 0x00b];
    SCmpEqI32 = row(Sopc, "s_cmp_eq_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x000, 0x000, 0x000, 0x000, 0x000, 0x000];
    SCmpLgI32 = row(Sopc, "s_cmp_lg_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x001, 0x001, 0x001, 0x001, 0x001, 0x001];
    SCmpGtI32 = row(Sopc, "s_cmp_gt_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x002, 0x002, 0x002, 0x002, 0x002, 0x002];
    SCmpGeI32 = row(Sopc, "s_cmp_ge_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x003, 0x003, 0x003, 0x003, 0x003, 0x003];
    SCmpLtI32 = row(Sopc, "s_cmp_lt_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x004, 0x004, 0x004, 0x004, 0x004, 0x004];
    SCmpLeI32 = row(Sopc, "s_cmp_le_i32", &[], &[SS1, SS1]), [WRITE_SCC], [0x005, 0x005, 0x005, 0x005, 0x005, 0x005];
    SCmpEqU64 = row(Sopc, "s_cmp_eq_u64", &[], &[SS2, SS2]).only(GFX8_PLUS), [WRITE_SCC], [0x012, 0x012, 0x010, NONE, NONE, 0x010];
    SCmpLgU64 = row(Sopc, "s_cmp_lg_u64", &[], &[SS2, SS2]).only(GFX8_PLUS), [WRITE_SCC], [0x013, 0x013, 0x011, NONE, NONE, 0x011];
    SBitcmp0B32 = row(Sopc, "s_bitcmp0_b32", &[], &[SS1, SS1]), [WRITE_SCC], [0x00c, 0x00c, 0x00c, 0x00c, 0x00c, 0x00c];
    SBitcmp1B32 = row(Sopc, "s_bitcmp1_b32", &[], &[SS1, SS1]), [WRITE_SCC], [0x00d, 0x00d, 0x00d, 0x00d, 0x00d, 0x00d];
    // Scalar with a 16-bit immediate.
    SMovkI32 = row(Sopk, "s_movk_i32", &[SD1], &[Simm16]), [], [0x000, 0x000, 0x000, 0x000, 0x000, 0x000];
    // Program control.
    SNop = row(Sopp, "s_nop", &[], &[Imm16]), [], [0x000, 0x000, 0x000, 0x000, 0x000, 0x000];
    SEndpgm = row(Sopp, "s_endpgm", &[], &[]), [TERMINATOR], [0x001, 0x001, 0x030, 0x001, 0x001, 0x030];
    SWaitcnt = row(Sopp, "s_waitcnt", &[], &[Kind::Waitcnt]), [], [0x00c, 0x00c, 0x009, 0x00c, 0x00c, 0x009];
    SBranch = row(Sopp, "s_branch", &[], &[Label]).class(Branch), [BRANCH, TERMINATOR], [0x002, 0x002, 0x020, 0x002, 0x002, 0x020];
    SCbranchScc0 = row(Sopp, "s_cbranch_scc0", &[], &[Label]).class(Branch), [READ_SCC, BRANCH], [0x004, 0x004, 0x021, 0x004, 0x004, 0x021];
    SCbranchScc1 = row(Sopp, "s_cbranch_scc1", &[], &[Label]).class(Branch), [READ_SCC, BRANCH], [0x005, 0x005, 0x022, 0x005, 0x005, 0x022];
    SCbranchVccz = row(Sopp, "s_cbranch_vccz", &[], &[Label]).class(Branch), [READ_VCC, BRANCH], [0x006, 0x006, 0x023, 0x006, 0x006, 0x023];
    SCbranchVccnz = row(Sopp, "s_cbranch_vccnz", &[], &[Label]).class(Branch), [READ_VCC, BRANCH], [0x007, 0x007, 0x024, 0x007, 0x007, 0x024];
    SCbranchExecz = row(Sopp, "s_cbranch_execz", &[], &[Label]).class(Branch), [READ_EXEC, BRANCH], [0x008, 0x008, 0x025, 0x008, 0x008, 0x025];
    SCbranchExecnz = row(Sopp, "s_cbranch_execnz", &[], &[Label]).class(Branch), [READ_EXEC, BRANCH], [0x009, 0x009, 0x026, 0x009, 0x009, 0x026];
    // Scalar memory.
    SLoadDword = row(Smem, "s_load_dword", &[SD1], &[SBase(2), SOffset]).gfx11("s_load_b32"), [], [0x000, 0x000, 0x000, 0x000, 0x000, 0x000];
    SLoadDwordx2 = row(Smem, "s_load_dwordx2", &[SD2], &[SBase(2), SOffset]).gfx11("s_load_b64"), [], [0x001, 0x001, 0x001, 0x001, 0x001, 0x001];
    SLoadDwordx4 = row(Smem, "s_load_dwordx4", &[SDst(4)], &[SBase(2), SOffset]).gfx11("s_load_b128"), [], [0x002, 0x002, 0x002, 0x002, 0x002, 0x002];
    SLoadDwordx8 = row(Smem, "s_load_dwordx8", &[SDst(8)], &[SBase(2), SOffset]).gfx11("s_load_b256"), [], [0x003, 0x003, 0x003, 0x003, 0x003, 0x003];
    SBufferLoadDword = row(Smem, "s_buffer_load_dword", &[SD1], &[SBase(4), SOffset]).gfx11("s_buffer_load_b32"), [], [0x008, 0x008, 0x008, 0x008, 0x008, 0x010];
    SBufferLoadDwordx2 = row(Smem, "s_buffer_load_dwordx2", &[SD2], &[SBase(4), SOffset]).gfx11("s_buffer_load_b64"), [], [0x009, 0x009, 0x009, 0x009, 0x009, 0x011];
    SBufferLoadDwordx4 = row(Smem, "s_buffer_load_dwordx4", &[SDst(4)], &[SBase(4), SOffset]).gfx11("s_buffer_load_b128"), [], [0x00a, 0x00a, 0x00a, 0x00a, 0x00a, 0x012];
    // Vector ALU, one source.
    VMovB32 = row(Vop1, "v_mov_b32", &[VD1], &[VS1]), [], [0x141, 0x181, 0x181, 0x181, 0x181, 0x181];
    VNotB32 = row(Vop1, "v_not_b32", &[VD1], &[VS1]), [], [0x16b, 0x1b7, 0x1b7, 0x1b7, 0x1b7, 0x1b7];
    VReadfirstlaneB32 = row(Vop1, "v_readfirstlane_b32", &[SD1], &[VV1]), [], [0x142, 0x182, 0x182, 0x182, 0x182, 0x182];
    VRcpF32 = row(Vop1, "v_rcp_f32", &[VD1], &[VS1]).float(1), [], [0x162, 0x1aa, 0x1aa, 0x1aa, 0x1aa, 0x1aa];
    VSqrtF32 = row(Vop1, "v_sqrt_f32", &[VD1], &[VS1]).float(1), [], [0x167, 0x1b3, 0x1b3, 0x1b3, 0x1b3, 0x1b3];
    VFloorF32 = row(Vop1, "v_floor_f32", &[VD1], &[VS1]).float(1), [], [0x15f, 0x1a4, 0x1a4, 0x1a4, 0x1a4, 0x1a4];
    VCvtF32I32 = row(Vop1, "v_cvt_f32_i32", &[VD1], &[VS1]), [], [0x145, 0x185, 0x185, 0x185, 0x185, 0x185];
    VCvtF32U32 = row(Vop1, "v_cvt_f32_u32", &[VD1], &[VS1]), [], [0x146, 0x186, 0x186, 0x186, 0x186, 0x186];
    VCvtI32F32 = row(Vop1, "v_cvt_i32_f32", &[VD1], &[VS1]).float(1), [], [0x148, 0x188, 0x188, 0x188, 0x188, 0x188];
    VCvtU32F32 = row(Vop1, "v_cvt_u32_f32", &[VD1], &[VS1]).float(1), [], [0x147, 0x187, 0x187, 0x187, 0x187, 0x187];
    VCvtF32Ubyte0 = row(Vop1, "v_cvt_f32_ubyte0", &[VD1], &[VS1]), [], [0x151, 0x191, 0x191, 0x191, 0x191, 0x191];
    VCvtU32U16 = row(Vop1, "v_cvt_u32_u16", &[VD1], &[VS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x1eb, NONE, NONE, 0x1eb];
    VFfbhU32 = row(Vop1, "v_ffbh_u32", &[VD1], &[VS1]).gfx11("v_clz_i32_u32"), [], [0x16d, 0x1b9, 0x1b9, 0x1b9, 0x1b9, 0x1b9];
    VCeilF32 = row(Vop1, "v_ceil_f32", &[VD1], &[VS1]).float(1), [], [0x15d, 0x1a2, 0x1a2, 0x1a2, 0x1a2, 0x1a2];
    VTruncF32 = row(Vop1, "v_trunc_f32", &[VD1], &[VS1]).float(1), [], [0x15c, 0x1a1, 0x1a1, 0x1a1, 0x1a1, 0x1a1];
    VRndneF32 = row(Vop1, "v_rndne_f32", &[VD1], &[VS1]).float(1), [], [0x15e, 0x1a3, 0x1a3, 0x1a3, 0x1a3, 0x1a3];
    VFractF32 = row(Vop1, "v_fract_f32", &[VD1], &[VS1]).float(1), [], [0x15b, 0x1a0, 0x1a0, 0x1a0, 0x1a0, 0x1a0];
    VSinF32 = row(Vop1, "v_sin_f32", &[VD1], &[VS1]).float(1), [], [0x169, 0x1b5, 0x1b5, 0x1b5, 0x1b5, 0x1b5];
    VCosF32 = row(Vop1, "v_cos_f32", &[VD1], &[VS1]).float(1), [], [0x16a, 0x1b6, 0x1b6, 0x1b6, 0x1b6, 0x1b6];
    VExpF32 = row(Vop1, "v_exp_f32", &[VD1], &[VS1]).float(1), [], [0x160, 0x1a5, 0x1a5, 0x1a5, 0x1a5, 0x1a5];
    VLogF32 = row(Vop1, "v_log_f32", &[VD1], &[VS1]).float(1), [], [0x161, 0x1a7, 0x1a7, 0x1a7, 0x1a7, 0x1a7];
    VRsqF32 = row(Vop1, "v_rsq_f32", &[VD1], &[VS1]).float(1), [], [0x164, 0x1ae, 0x1ae, 0x1ae, 0x1ae, 0x1ae];
    // Vector ALU, two sources.
    VAddF32 = row(Vop2, "v_add_f32", &[VD1], &[VS1, VS1]).float(3), [], [0x101, 0x103, 0x103, 0x103, 0x103, 0x103];
    VSubF32 = row(Vop2, "v_sub_f32", &[VD1], &[VS1, VS1]).float(3), [], [0x102, 0x104, 0x104, 0x104, 0x104, 0x104];
    VMulF32 = row(Vop2, "v_mul_f32", &[VD1], &[VS1, VS1]).float(3), [], [0x105, 0x108, 0x108, 0x108, 0x108, 0x108];
    VMinF32 = row(Vop2, "v_min_f32", &[VD1], &[VS1, VS1]).float(3).gfx12("v_min_num_f32"), [], [0x10a, 0x10f, 0x10f, 0x10f, 0x10f, 0x115];
    VMaxF32 = row(Vop2, "v_max_f32", &[VD1], &[VS1, VS1]).float(3).gfx12("v_max_num_f32"), [], [0x10b, 0x110, 0x110, 0x110, 0x110, 0x116];
    VMinI32 = row(Vop2, "v_min_i32", &[VD1], &[VS1, VS1]), [], [0x10c, 0x111, 0x111, 0x111, 0x111, 0x111];
    VMaxI32 = row(Vop2, "v_max_i32", &[VD1], &[VS1, VS1]), [], [0x10d, 0x112, 0x112, 0x112, 0x112, 0x112];
    VMinU32 = row(Vop2, "v_min_u32", &[VD1], &[VS1, VS1]), [], [0x10e, 0x113, 0x113, 0x113, 0x113, 0x113];
    VMaxU32 = row(Vop2, "v_max_u32", &[VD1], &[VS1, VS1]), [], [0x10f, 0x114, 0x114, 0x114, 0x114, 0x114];
    VAndB32 = row(Vop2, "v_and_b32", &[VD1], &[VS1, VS1]), [], [0x113, 0x11b, 0x11b, 0x11b, 0x11b, 0x11b];
    VOrB32 = row(Vop2, "v_or_b32", &[VD1], &[VS1, VS1]), [], [0x114, 0x11c, 0x11c, 0x11c, 0x11c, 0x11c];
    VXorB32 = row(Vop2, "v_xor_b32", &[VD1], &[VS1, VS1]), [], [0x115, 0x11d, 0x11d, 0x11d, 0x11d, 0x11d];
    VLshlrevB32 = row(Vop2, "v_lshlrev_b32", &[VD1], &[VS1, VS1]), [], [0x112, 0x11a, 0x118, 0x11a, 0x11a, 0x118];
    VLshrrevB32 = row(Vop2, "v_lshrrev_b32", &[VD1], &[VS1, VS1]), [], [0x110, 0x116, 0x119, 0x116, 0x116, 0x119];
    VAshrrevI32 = row(Vop2, "v_ashrrev_i32", &[VD1], &[VS1, VS1]), [], [0x111, 0x118, 0x11a, 0x118, 0x118, 0x11a];
    VCndmaskB32 = row(Vop2, "v_cndmask_b32", &[VD1], &[VS1, VS1, MS]).float(3), [], [0x100, 0x101, 0x101, 0x100, 0x100, 0x101];
    VAddNcU32 = row(Vop2, "v_add_nc_u32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x125, 0x125, NONE, NONE, 0x125];
    VSubNcU32 = row(Vop2, "v_sub_nc_u32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x126, 0x126, NONE, NONE, 0x126];
    VSubrevNcU32 = row(Vop2, "v_subrev_nc_u32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x127, 0x127, NONE, NONE, 0x127];
    VAddCoU32 = row(Vop2, "v_add_co_u32", &[VD1, MD], &[VS1, VS1]).gfx8("v_add_u32").gcn1("v_add_i32"), [], [0x119, 0x30f, 0x300, 0x125, 0x125, 0x300];
    VSubCoU32 = row(Vop2, "v_sub_co_u32", &[VD1, MD], &[VS1, VS1]).gfx8("v_sub_u32").gcn1("v_sub_i32"), [], [0x11a, 0x310, 0x301, 0x126, 0x126, 0x301];
    VSubrevCoU32 = row(Vop2, "v_subrev_co_u32", &[VD1, MD], &[VS1, VS1]).gfx8("v_subrev_u32").gcn1("v_subrev_i32"), [], [0x11b, 0x319, 0x302, 0x127, 0x127, 0x302];
    VAddcCoU32 = row(Vop2, "v_add_co_ci_u32", &[VD1, MD], &[VS1, VS1, MS]).gfx8("v_addc_u32").gcn1("v_addc_u32"), [], [0x11c, 0x128, 0x120, 0x128, 0x128, 0x120];
    VSubbCoU32 = row(Vop2, "v_sub_co_ci_u32", &[VD1, MD], &[VS1, VS1, MS]).gfx8("v_subb_u32").gcn1("v_subb_u32"), [], [0x11d, 0x129, 0x121, 0x129, 0x129, 0x121];
    // Vector ALU, 64-bit encoding only.
    VMulLoU32 = row(Vop3, "v_mul_lo_u32", &[VD1], &[VS1, VS1]), [], [0x285, 0x169, 0x32c, 0x169, 0x169, 0x32c];
    VMulHiU32 = row(Vop3, "v_mul_hi_u32", &[VD1], &[VS1, VS1]), [], [0x286, 0x16a, 0x32d, 0x16a, 0x16a, 0x32d];
    VMulHiI32 = row(Vop3, "v_mul_hi_i32", &[VD1], &[VS1, VS1]), [], [0x287, 0x16c, 0x32e, 0x16c, 0x16c, 0x32e];
    VFmaF32 = row(Vop3, "v_fma_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1cb, 0x14b, 0x213, 0x14b, 0x14b, 0x213];
    VLshlrevB64 = row(Vop3, "v_lshlrev_b64", &[VD2], &[VS1, VS2]).only(GFX8_PLUS).gfx12_vop2(), [], [0x28f, 0x2ff, 0x33c, NONE, NONE, 0x11f];
    VLshrrevB64 = row(Vop3, "v_lshrrev_b64", &[VD2], &[VS1, VS2]).only(GFX8_PLUS), [], [0x290, 0x300, 0x33d, NONE, NONE, 0x33d];
    VAshrrevI64 = row(Vop3, "v_ashrrev_i64", &[VD2], &[VS1, VS2]).only(GFX8_PLUS), [], [0x291, 0x301, 0x33e, NONE, NONE, 0x33e];
    // VOP2 on GCN 1.0/1.1 (Southern/Sea Islands ISA, VOP2 opcodes 1, 2, 34 and 43).
    VReadlaneB32 = row(Vop3, "v_readlane_b32", &[SD1], &[VV1, Lane]).without(READ_EXEC).only(GFX8_PLUS).gcn1_vop2(false), [], [0x289, 0x360, 0x360, 0x101, 0x101, 0x360];
    VWritelaneB32 = row(Vop3, "v_writelane_b32", &[VD1], &[SS1, Lane]).without(READ_EXEC).only(GFX8_PLUS).gcn1_vop2(false), [], [0x28a, 0x361, 0x361, 0x102, 0x102, 0x361];
    VBcntU32B32 = row(Vop3, "v_bcnt_u32_b32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS).gcn1_vop2(true), [], [0x28b, 0x364, 0x31e, 0x122, 0x122, 0x31e];
    VLdexpF32 = row(Vop3, "v_ldexp_f32", &[VD1], &[VS1, VS1]).float(1).only(GFX8_PLUS).gcn1_vop2(true), [], [0x288, 0x362, 0x31c, 0x12b, 0x12b, 0x31c];
    VDivScaleF32 = row(Vop3, "v_div_scale_f32", &[VD1, MD], &[VS1, VS1, VS1]).float(7), [], [0x1e0, 0x16d, 0x2fc, 0x16d, 0x16d, 0x2fc];
    VDivFmasF32 = row(Vop3, "v_div_fmas_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [READ_VCC], [0x1e2, 0x16f, 0x237, 0x16f, 0x16f, 0x237];
    VDivFixupF32 = row(Vop3, "v_div_fixup_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1de, 0x15f, 0x227, 0x15f, 0x15f, 0x227];
    VMadU64U32 = row(Vop3, "v_mad_u64_u32", &[VD2, MD], &[VS1, VS1, VS2]).only(GFX8_PLUS.or(Targets::GFX7)).gfx12("v_mad_co_u64_u32"), [], [0x1e8, 0x176, 0x2fe, NONE, 0x176, 0x2fe];
    // Vector compares.
    VCmpEqU32 = row(Vopc, "v_cmp_eq_u32", &[MD], &[VS1, VS1]), [], [0x0ca, 0x0c2, 0x04a, 0x0c2, 0x0c2, 0x04a];
    VCmpNeU32 = row(Vopc, "v_cmp_ne_u32", &[MD], &[VS1, VS1]), [], [0x0cd, 0x0c5, 0x04d, 0x0c5, 0x0c5, 0x04d];
    VCmpLtU32 = row(Vopc, "v_cmp_lt_u32", &[MD], &[VS1, VS1]), [], [0x0c9, 0x0c1, 0x049, 0x0c1, 0x0c1, 0x049];
    VCmpLeU32 = row(Vopc, "v_cmp_le_u32", &[MD], &[VS1, VS1]), [], [0x0cb, 0x0c3, 0x04b, 0x0c3, 0x0c3, 0x04b];
    VCmpGtU32 = row(Vopc, "v_cmp_gt_u32", &[MD], &[VS1, VS1]), [], [0x0cc, 0x0c4, 0x04c, 0x0c4, 0x0c4, 0x04c];
    VCmpGeU32 = row(Vopc, "v_cmp_ge_u32", &[MD], &[VS1, VS1]), [], [0x0ce, 0x0c6, 0x04e, 0x0c6, 0x0c6, 0x04e];
    VCmpEqI32 = row(Vopc, "v_cmp_eq_i32", &[MD], &[VS1, VS1]), [], [0x0c2, 0x082, 0x042, 0x082, 0x082, 0x042];
    VCmpNeI32 = row(Vopc, "v_cmp_ne_i32", &[MD], &[VS1, VS1]), [], [0x0c5, 0x085, 0x045, 0x085, 0x085, 0x045];
    VCmpLtI32 = row(Vopc, "v_cmp_lt_i32", &[MD], &[VS1, VS1]), [], [0x0c1, 0x081, 0x041, 0x081, 0x081, 0x041];
    VCmpLeI32 = row(Vopc, "v_cmp_le_i32", &[MD], &[VS1, VS1]), [], [0x0c3, 0x083, 0x043, 0x083, 0x083, 0x043];
    VCmpGtI32 = row(Vopc, "v_cmp_gt_i32", &[MD], &[VS1, VS1]), [], [0x0c4, 0x084, 0x044, 0x084, 0x084, 0x044];
    VCmpGeI32 = row(Vopc, "v_cmp_ge_i32", &[MD], &[VS1, VS1]), [], [0x0c6, 0x086, 0x046, 0x086, 0x086, 0x046];
    VCmpEqF32 = row(Vopc, "v_cmp_eq_f32", &[MD], &[VS1, VS1]).float(3), [], [0x042, 0x002, 0x012, 0x002, 0x002, 0x012];
    VCmpLgF32 = row(Vopc, "v_cmp_lg_f32", &[MD], &[VS1, VS1]).float(3), [], [0x045, 0x005, 0x015, 0x005, 0x005, 0x015];
    VCmpNeqF32 = row(Vopc, "v_cmp_neq_f32", &[MD], &[VS1, VS1]).float(3), [], [0x04d, 0x00d, 0x01d, 0x00d, 0x00d, 0x01d];
    VCmpLtF32 = row(Vopc, "v_cmp_lt_f32", &[MD], &[VS1, VS1]).float(3), [], [0x041, 0x001, 0x011, 0x001, 0x001, 0x011];
    VCmpLeF32 = row(Vopc, "v_cmp_le_f32", &[MD], &[VS1, VS1]).float(3), [], [0x043, 0x003, 0x013, 0x003, 0x003, 0x013];
    VCmpGtF32 = row(Vopc, "v_cmp_gt_f32", &[MD], &[VS1, VS1]).float(3), [], [0x044, 0x004, 0x014, 0x004, 0x004, 0x014];
    VCmpGeF32 = row(Vopc, "v_cmp_ge_f32", &[MD], &[VS1, VS1]).float(3), [], [0x046, 0x006, 0x016, 0x006, 0x006, 0x016];
    VCmpUF32 = row(Vopc, "v_cmp_u_f32", &[MD], &[VS1, VS1]).float(3), [], [0x048, 0x008, 0x018, 0x008, 0x008, 0x018];
    VCmpOF32 = row(Vopc, "v_cmp_o_f32", &[MD], &[VS1, VS1]).float(3), [], [0x047, 0x007, 0x017, 0x007, 0x007, 0x017];
    // The negated compares: true also when either source is NaN (LLVM's unordered
    // predicates `uge`, `ueq`, `ule`, `ugt`, `ult` select them).
    VCmpNgeF32 = row(Vopc, "v_cmp_nge_f32", &[MD], &[VS1, VS1]).float(3), [], [0x049, 0x009, 0x019, 0x009, 0x009, 0x019];
    VCmpNlgF32 = row(Vopc, "v_cmp_nlg_f32", &[MD], &[VS1, VS1]).float(3), [], [0x04a, 0x00a, 0x01a, 0x00a, 0x00a, 0x01a];
    VCmpNgtF32 = row(Vopc, "v_cmp_ngt_f32", &[MD], &[VS1, VS1]).float(3), [], [0x04b, 0x00b, 0x01b, 0x00b, 0x00b, 0x01b];
    VCmpNleF32 = row(Vopc, "v_cmp_nle_f32", &[MD], &[VS1, VS1]).float(3), [], [0x04c, 0x00c, 0x01c, 0x00c, 0x00c, 0x01c];
    VCmpNltF32 = row(Vopc, "v_cmp_nlt_f32", &[MD], &[VS1, VS1]).float(3), [], [0x04e, 0x00e, 0x01e, 0x00e, 0x00e, 0x01e];
    VCmpClassF32 = row(Vopc, "v_cmp_class_f32", &[MD], &[VS1, VS1]).float(1), [], [0x010, 0x088, 0x07e, 0x088, 0x088, 0x07e];
    VCmpEqU64 = row(Vopc, "v_cmp_eq_u64", &[MD], &[VS2, VS2]), [], [0x0ea, 0x0e2, 0x05a, 0x0e2, 0x0e2, 0x05a];
    VCmpNeU64 = row(Vopc, "v_cmp_ne_u64", &[MD], &[VS2, VS2]), [], [0x0ed, 0x0e5, 0x05d, 0x0e5, 0x0e5, 0x05d];
    VCmpLtU64 = row(Vopc, "v_cmp_lt_u64", &[MD], &[VS2, VS2]), [], [0x0e9, 0x0e1, 0x059, 0x0e1, 0x0e1, 0x059];
    VCmpLeU64 = row(Vopc, "v_cmp_le_u64", &[MD], &[VS2, VS2]), [], [0x0eb, 0x0e3, 0x05b, 0x0e3, 0x0e3, 0x05b];
    VCmpGtU64 = row(Vopc, "v_cmp_gt_u64", &[MD], &[VS2, VS2]), [], [0x0ec, 0x0e4, 0x05c, 0x0e4, 0x0e4, 0x05c];
    VCmpGeU64 = row(Vopc, "v_cmp_ge_u64", &[MD], &[VS2, VS2]), [], [0x0ee, 0x0e6, 0x05e, 0x0e6, 0x0e6, 0x05e];
    VCmpEqI64 = row(Vopc, "v_cmp_eq_i64", &[MD], &[VS2, VS2]), [], [0x0e2, 0x0a2, 0x052, 0x0a2, 0x0a2, 0x052];
    VCmpNeI64 = row(Vopc, "v_cmp_ne_i64", &[MD], &[VS2, VS2]), [], [0x0e5, 0x0a5, 0x055, 0x0a5, 0x0a5, 0x055];
    VCmpLtI64 = row(Vopc, "v_cmp_lt_i64", &[MD], &[VS2, VS2]), [], [0x0e1, 0x0a1, 0x051, 0x0a1, 0x0a1, 0x051];
    VCmpLeI64 = row(Vopc, "v_cmp_le_i64", &[MD], &[VS2, VS2]), [], [0x0e3, 0x0a3, 0x053, 0x0a3, 0x0a3, 0x053];
    VCmpGtI64 = row(Vopc, "v_cmp_gt_i64", &[MD], &[VS2, VS2]), [], [0x0e4, 0x0a4, 0x054, 0x0a4, 0x0a4, 0x054];
    VCmpGeI64 = row(Vopc, "v_cmp_ge_i64", &[MD], &[VS2, VS2]), [], [0x0e6, 0x0a6, 0x056, 0x0a6, 0x0a6, 0x056];
    // Buffer memory.
    BufferLoadDword = row(Mubuf, "buffer_load_dword", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_b32"), [], [0x014, 0x00c, 0x014, 0x00c, 0x00c, 0x014];
    BufferLoadDwordx2 = row(Mubuf, "buffer_load_dwordx2", &[VD2], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_b64"), [], [0x015, 0x00d, 0x015, 0x00d, 0x00d, 0x015];
    BufferLoadDwordx4 = row(Mubuf, "buffer_load_dwordx4", &[VDst(4)], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_b128"), [], [0x017, 0x00e, 0x017, 0x00e, 0x00e, 0x017];
    BufferStoreDword = row(Mubuf, "buffer_store_dword", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b32"), [], [0x01c, 0x01c, 0x01a, 0x01c, 0x01c, 0x01a];
    BufferStoreDwordx2 = row(Mubuf, "buffer_store_dwordx2", &[], &[VReg(2), BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b64"), [], [0x01d, 0x01d, 0x01b, 0x01d, 0x01d, 0x01b];
    BufferStoreDwordx4 = row(Mubuf, "buffer_store_dwordx4", &[], &[VReg(4), BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b128"), [], [0x01f, 0x01e, 0x01d, 0x01e, 0x01e, 0x01d];
    BufferLoadUbyte = row(Mubuf, "buffer_load_ubyte", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_u8").narrow(1, false), [], [0x010, 0x008, 0x010, 0x008, 0x008, 0x010];
    BufferLoadSbyte = row(Mubuf, "buffer_load_sbyte", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_i8").narrow(1, true), [], [0x011, 0x009, 0x011, 0x009, 0x009, 0x011];
    BufferLoadUshort = row(Mubuf, "buffer_load_ushort", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_u16").narrow(2, false), [], [0x012, 0x00a, 0x012, 0x00a, 0x00a, 0x012];
    BufferLoadSshort = row(Mubuf, "buffer_load_sshort", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_i16").narrow(2, true), [], [0x013, 0x00b, 0x013, 0x00b, 0x00b, 0x013];
    BufferStoreByte = row(Mubuf, "buffer_store_byte", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b8").narrow(1, false), [], [0x018, 0x018, 0x018, 0x018, 0x018, 0x018];
    BufferStoreShort = row(Mubuf, "buffer_store_short", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b16").narrow(2, false), [], [0x01a, 0x01a, 0x019, 0x01a, 0x01a, 0x019];
    // Global memory.
    GlobalLoadDword = row(Global, "global_load_dword", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_b32").only(RDNA), [], [NONE, 0x00c, 0x014, NONE, NONE, 0x014];
    GlobalLoadDwordx2 = row(Global, "global_load_dwordx2", &[VD2], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_b64").only(RDNA), [], [NONE, 0x00d, 0x015, NONE, NONE, 0x015];
    GlobalLoadDwordx4 = row(Global, "global_load_dwordx4", &[VDst(4)], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_b128").only(RDNA), [], [NONE, 0x00e, 0x017, NONE, NONE, 0x017];
    GlobalStoreDword = row(Global, "global_store_dword", &[], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_store_b32").only(RDNA), [], [NONE, 0x01c, 0x01a, NONE, NONE, 0x01a];
    GlobalStoreDwordx2 = row(Global, "global_store_dwordx2", &[], &[GlobalAddr, VReg(2), GlobalSAddr]).gfx11("global_store_b64").only(RDNA), [], [NONE, 0x01d, 0x01b, NONE, NONE, 0x01b];
    GlobalStoreDwordx4 = row(Global, "global_store_dwordx4", &[], &[GlobalAddr, VReg(4), GlobalSAddr]).gfx11("global_store_b128").only(RDNA), [], [NONE, 0x01e, 0x01d, NONE, NONE, 0x01d];
    GlobalLoadUbyte = row(Global, "global_load_ubyte", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_u8").only(RDNA).narrow(1, false), [], [NONE, 0x008, 0x010, NONE, NONE, 0x010];
    GlobalLoadSbyte = row(Global, "global_load_sbyte", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_i8").only(RDNA).narrow(1, true), [], [NONE, 0x009, 0x011, NONE, NONE, 0x011];
    GlobalLoadUshort = row(Global, "global_load_ushort", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_u16").only(RDNA).narrow(2, false), [], [NONE, 0x00a, 0x012, NONE, NONE, 0x012];
    GlobalLoadSshort = row(Global, "global_load_sshort", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_i16").only(RDNA).narrow(2, true), [], [NONE, 0x00b, 0x013, NONE, NONE, 0x013];
    GlobalStoreByte = row(Global, "global_store_byte", &[], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_store_b8").only(RDNA).narrow(1, false), [], [NONE, 0x018, 0x018, NONE, NONE, 0x018];
    GlobalStoreShort = row(Global, "global_store_short", &[], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_store_b16").only(RDNA).narrow(2, false), [], [NONE, 0x01a, 0x019, NONE, NONE, 0x019];
    // Flat memory: a VGPR pair address; no offset on gfx8, an unsigned one on RDNA.
    FlatLoadDword = row(Flat, "flat_load_dword", &[VD1], &[FlatAddr]).gfx11("flat_load_b32").only(FLAT_TARGETS), [], [0x014, 0x00c, 0x014, NONE, 0x00c, 0x014];
    FlatLoadDwordx2 = row(Flat, "flat_load_dwordx2", &[VD2], &[FlatAddr]).gfx11("flat_load_b64").only(FLAT_TARGETS), [], [0x015, 0x00d, 0x015, NONE, 0x00d, 0x015];
    FlatLoadDwordx4 = row(Flat, "flat_load_dwordx4", &[VD4], &[FlatAddr]).gfx11("flat_load_b128").only(FLAT_TARGETS), [], [0x017, 0x00e, 0x017, NONE, 0x00e, 0x017];
    FlatStoreDword = row(Flat, "flat_store_dword", &[], &[FlatAddr, VV1]).gfx11("flat_store_b32").only(FLAT_TARGETS), [], [0x01c, 0x01c, 0x01a, NONE, 0x01c, 0x01a];
    FlatStoreDwordx2 = row(Flat, "flat_store_dwordx2", &[], &[FlatAddr, VV2]).gfx11("flat_store_b64").only(FLAT_TARGETS), [], [0x01d, 0x01d, 0x01b, NONE, 0x01d, 0x01b];
    FlatStoreDwordx4 = row(Flat, "flat_store_dwordx4", &[], &[FlatAddr, VV4]).gfx11("flat_store_b128").only(FLAT_TARGETS), [], [0x01f, 0x01e, 0x01d, NONE, 0x01e, 0x01d];
    FlatLoadUbyte = row(Flat, "flat_load_ubyte", &[VD1], &[FlatAddr]).gfx11("flat_load_u8").only(FLAT_TARGETS).narrow(1, false), [], [0x010, 0x008, 0x010, NONE, 0x008, 0x010];
    FlatLoadSbyte = row(Flat, "flat_load_sbyte", &[VD1], &[FlatAddr]).gfx11("flat_load_i8").only(FLAT_TARGETS).narrow(1, true), [], [0x011, 0x009, 0x011, NONE, 0x009, 0x011];
    FlatLoadUshort = row(Flat, "flat_load_ushort", &[VD1], &[FlatAddr]).gfx11("flat_load_u16").only(FLAT_TARGETS).narrow(2, false), [], [0x012, 0x00a, 0x012, NONE, 0x00a, 0x012];
    FlatLoadSshort = row(Flat, "flat_load_sshort", &[VD1], &[FlatAddr]).gfx11("flat_load_i16").only(FLAT_TARGETS).narrow(2, true), [], [0x013, 0x00b, 0x013, NONE, 0x00b, 0x013];
    FlatStoreByte = row(Flat, "flat_store_byte", &[], &[FlatAddr, VV1]).gfx11("flat_store_b8").only(FLAT_TARGETS).narrow(1, false), [], [0x018, 0x018, 0x018, NONE, 0x018, 0x018];
    FlatStoreShort = row(Flat, "flat_store_short", &[], &[FlatAddr, VV1]).gfx11("flat_store_b16").only(FLAT_TARGETS).narrow(2, false), [], [0x01a, 0x01a, 0x019, NONE, 0x01a, 0x019];
    // Scratch memory.
    ScratchLoadDword = row(Scratch, "scratch_load_dword", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_b32").only(RDNA), [], [NONE, 0x00c, 0x014, NONE, NONE, 0x014];
    ScratchLoadDwordx2 = row(Scratch, "scratch_load_dwordx2", &[VD2], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_b64").only(RDNA), [], [NONE, 0x00d, 0x015, NONE, NONE, 0x015];
    ScratchLoadDwordx4 = row(Scratch, "scratch_load_dwordx4", &[VDst(4)], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_b128").only(RDNA), [], [NONE, 0x00e, 0x017, NONE, NONE, 0x017];
    ScratchStoreDword = row(Scratch, "scratch_store_dword", &[], &[ScratchAddr, VV1, ScratchSAddr]).gfx11("scratch_store_b32").only(RDNA), [], [NONE, 0x01c, 0x01a, NONE, NONE, 0x01a];
    ScratchStoreDwordx2 = row(Scratch, "scratch_store_dwordx2", &[], &[ScratchAddr, VReg(2), ScratchSAddr]).gfx11("scratch_store_b64").only(RDNA), [], [NONE, 0x01d, 0x01b, NONE, NONE, 0x01b];
    ScratchStoreDwordx4 = row(Scratch, "scratch_store_dwordx4", &[], &[ScratchAddr, VReg(4), ScratchSAddr]).gfx11("scratch_store_b128").only(RDNA), [], [NONE, 0x01e, 0x01d, NONE, NONE, 0x01d];
    // Three-source integer, bit-field and median instructions (64-bit encoding only).
    VAdd3U32 = row(Vop3, "v_add3_u32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x36d, 0x255, NONE, NONE, 0x255];
    VLshlAddU32 = row(Vop3, "v_lshl_add_u32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x346, 0x246, NONE, NONE, 0x246];
    VBfeU32 = row(Vop3, "v_bfe_u32", &[VD1], &[VS1, VS1, VS1]), [], [0x1c8, 0x148, 0x210, 0x148, 0x148, 0x210];
    VBfeI32 = row(Vop3, "v_bfe_i32", &[VD1], &[VS1, VS1, VS1]), [], [0x1c9, 0x149, 0x211, 0x149, 0x149, 0x211];
    VBfiB32 = row(Vop3, "v_bfi_b32", &[VD1], &[VS1, VS1, VS1]), [], [0x1ca, 0x14a, 0x212, 0x14a, 0x14a, 0x212];
    VMed3I32 = row(Vop3, "v_med3_i32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d7, 0x158, 0x220, 0x158, 0x158, 0x220];
    VMed3U32 = row(Vop3, "v_med3_u32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d8, 0x159, 0x221, 0x159, 0x159, 0x221];
    VMed3F32 = row(Vop3, "v_med3_f32", &[VD1], &[VS1, VS1, VS1]).float(7).gfx12("v_med3_num_f32"), [], [0x1d6, 0x157, 0x21f, 0x157, 0x157, 0x231];
    // Scalar bit-field masks and extracts.
    SBfmB32 = row(Sop2, "s_bfm_b32", &[SD1], &[SS1, SS1]), [], [0x022, 0x024, 0x02a, 0x024, 0x024, 0x02a];
    SBfmB64 = row(Sop2, "s_bfm_b64", &[SD2], &[SS1, SS1]), [], [0x023, 0x025, 0x02b, 0x025, 0x025, 0x02b];
    SBfeU32 = row(Sop2, "s_bfe_u32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x025, 0x027, 0x026, 0x027, 0x027, 0x026];
    SBfeI32 = row(Sop2, "s_bfe_i32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x026, 0x028, 0x027, 0x028, 0x028, 0x027];
    // Scalar compares with a 16-bit immediate: sign-extended for i32, zero-extended for u32.
    SCmpkEqI32 = row(Sopk, "s_cmpk_eq_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x002, 0x003, 0x003, 0x003, 0x003, NONE];
    SCmpkLgI32 = row(Sopk, "s_cmpk_lg_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x003, 0x004, 0x004, 0x004, 0x004, NONE];
    SCmpkGtI32 = row(Sopk, "s_cmpk_gt_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x004, 0x005, 0x005, 0x005, 0x005, NONE];
    SCmpkGeI32 = row(Sopk, "s_cmpk_ge_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x005, 0x006, 0x006, 0x006, 0x006, NONE];
    SCmpkLtI32 = row(Sopk, "s_cmpk_lt_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x006, 0x007, 0x007, 0x007, 0x007, NONE];
    SCmpkLeI32 = row(Sopk, "s_cmpk_le_i32", &[], &[SReg(1), Simm16]), [WRITE_SCC], [0x007, 0x008, 0x008, 0x008, 0x008, NONE];
    SCmpkEqU32 = row(Sopk, "s_cmpk_eq_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x008, 0x009, 0x009, 0x009, 0x009, NONE];
    SCmpkLgU32 = row(Sopk, "s_cmpk_lg_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x009, 0x00a, 0x00a, 0x00a, 0x00a, NONE];
    SCmpkGtU32 = row(Sopk, "s_cmpk_gt_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x00a, 0x00b, 0x00b, 0x00b, 0x00b, NONE];
    SCmpkGeU32 = row(Sopk, "s_cmpk_ge_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x00b, 0x00c, 0x00c, 0x00c, 0x00c, NONE];
    SCmpkLtU32 = row(Sopk, "s_cmpk_lt_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x00c, 0x00d, 0x00d, 0x00d, 0x00d, NONE];
    SCmpkLeU32 = row(Sopk, "s_cmpk_le_u32", &[], &[SReg(1), Imm16]), [WRITE_SCC], [0x00d, 0x00e, 0x00e, 0x00e, 0x00e, NONE];
    // Scheduling hints: no effect on results.
    SSetprio = row(Sopp, "s_setprio", &[], &[Imm16]), [], [0x00f, 0x00f, 0x035, 0x00f, 0x00f, 0x035];
    SClause = row(Sopp, "s_clause", &[], &[Imm16]).only(RDNA), [], [NONE, 0x021, 0x005, NONE, NONE, 0x005];
    // Padding after the program (llc fills `.text` to its alignment with it on RDNA).
    SCodeEnd = row(Sopp, "s_code_end", &[], &[]).only(RDNA), [TERMINATOR], [NONE, 0x01f, 0x01f, NONE, NONE, 0x01f];
    SInstPrefetch = row(Sopp, "s_inst_prefetch", &[], &[Imm16]).gfx11("s_set_inst_prefetch_distance").only(RDNA), [], [NONE, 0x020, 0x004, NONE, NONE, NONE];
    SDelayAlu = row(Sopp, "s_delay_alu", &[], &[Imm16]).only(Targets::GFX1100), [], [NONE, NONE, 0x007, NONE, NONE, 0x007];
    // Waits and messages.
    SWaitcntVscnt = row(Sopk, "s_waitcnt_vscnt", &[], &[SReg(1), Imm16]).only(RDNA).class(Class::Control), [], [NONE, 0x017, 0x018, NONE, NONE, NONE];
    SSendmsg = row(Sopp, "s_sendmsg", &[], &[Imm16]).only(Targets::GFX1100), [], [NONE, NONE, 0x036, NONE, NONE, 0x036];
    // Scalar arithmetic with a 16-bit immediate on the destination: D = D op signext(SIMM16).
    SAddkI32 = row(Sopk, "s_addk_i32", &[SD1], &[Simm16]).gfx12("s_addk_co_i32"), [READ_DST, WRITE_SCC], [0x00e, 0x00f, 0x00f, 0x00f, 0x00f, 0x00f];
    SMulkI32 = row(Sopk, "s_mulk_i32", &[SD1], &[Simm16]), [READ_DST], [0x00f, 0x010, 0x010, 0x010, 0x010, 0x010];
    // Fused multiply-add into the destination, and the RDNA 3 two-step min/max.
    VFmacF32 = row(Vop2, "v_fmac_f32", &[VD1], &[VS1, VS1]).float(3).only(RDNA), [READ_DST], [NONE, 0x12b, 0x12b, NONE, NONE, 0x12b];
    VMaxminF32 = row(Vop3, "v_maxmin_f32", &[VD1], &[VS1, VS1, VS1]).float(7).only(Targets::GFX1100).gfx12("v_maxmin_num_f32"), [], [NONE, NONE, 0x25e, NONE, NONE, 0x269];
    VMinmaxF32 = row(Vop3, "v_minmax_f32", &[VD1], &[VS1, VS1, VS1]).float(7).only(Targets::GFX1100).gfx12("v_minmax_num_f32"), [], [NONE, NONE, 0x25f, NONE, NONE, 0x268];
    SWaitcntDepctr = row(Sopp, "s_waitcnt_depctr", &[], &[Imm16]).only(RDNA).gfx12("s_wait_alu"), [], [NONE, 0x023, 0x008, NONE, NONE, 0x008];
    // Compares whose lane mask becomes EXEC (RDNA, where EXEC is their only destination).
    VCmpxEqU32 = row(Vopc, "v_cmpx_eq_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d2, 0x0ca, NONE, NONE, 0x0ca];
    VCmpxNeU32 = row(Vopc, "v_cmpx_ne_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d5, 0x0cd, NONE, NONE, 0x0cd];
    VCmpxLtU32 = row(Vopc, "v_cmpx_lt_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d1, 0x0c9, NONE, NONE, 0x0c9];
    VCmpxLeU32 = row(Vopc, "v_cmpx_le_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d3, 0x0cb, NONE, NONE, 0x0cb];
    VCmpxGtU32 = row(Vopc, "v_cmpx_gt_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d4, 0x0cc, NONE, NONE, 0x0cc];
    VCmpxGeU32 = row(Vopc, "v_cmpx_ge_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d6, 0x0ce, NONE, NONE, 0x0ce];
    VCmpxEqI32 = row(Vopc, "v_cmpx_eq_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x092, 0x0c2, NONE, NONE, 0x0c2];
    VCmpxNeI32 = row(Vopc, "v_cmpx_ne_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x095, 0x0c5, NONE, NONE, 0x0c5];
    VCmpxLtI32 = row(Vopc, "v_cmpx_lt_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x091, 0x0c1, NONE, NONE, 0x0c1];
    VCmpxLeI32 = row(Vopc, "v_cmpx_le_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x093, 0x0c3, NONE, NONE, 0x0c3];
    VCmpxGtI32 = row(Vopc, "v_cmpx_gt_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x094, 0x0c4, NONE, NONE, 0x0c4];
    VCmpxGeI32 = row(Vopc, "v_cmpx_ge_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x096, 0x0c6, NONE, NONE, 0x0c6];
    VCmpxEqF32 = row(Vopc, "v_cmpx_eq_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x012, 0x092, NONE, NONE, 0x092];
    VCmpxNeqF32 = row(Vopc, "v_cmpx_neq_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01d, 0x09d, NONE, NONE, 0x09d];
    VCmpxLtF32 = row(Vopc, "v_cmpx_lt_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x011, 0x091, NONE, NONE, 0x091];
    VCmpxLeF32 = row(Vopc, "v_cmpx_le_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x013, 0x093, NONE, NONE, 0x093];
    VCmpxGtF32 = row(Vopc, "v_cmpx_gt_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x014, 0x094, NONE, NONE, 0x094];
    VCmpxGeF32 = row(Vopc, "v_cmpx_ge_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x016, 0x096, NONE, NONE, 0x096];
    // GCN 1.0/1.1 only: the signed low multiply AMD's compiler writes, the 64-bit shift
    // with the shift amount second, and typed buffer accesses of one to four components.
    VMulLoI32 = row(Vop3, "v_mul_lo_i32", &[VD1], &[VS1, VS1]).only(GCN1), [], [NONE, NONE, NONE, 0x16b, 0x16b, NONE];
    VLshlB64 = row(Vop3, "v_lshl_b64", &[VD2], &[VS2, VS1]).only(GCN1), [], [NONE, NONE, NONE, 0x161, 0x161, NONE];
    TbufferLoadFormatX = row(Mtbuf, "tbuffer_load_format_x", &[VD1], &[BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x000, 0x000, NONE];
    TbufferStoreFormatX = row(Mtbuf, "tbuffer_store_format_x", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x004, 0x004, NONE];
    TbufferLoadFormatXy = row(Mtbuf, "tbuffer_load_format_xy", &[VD2], &[BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x001, 0x001, NONE];
    TbufferLoadFormatXyz = row(Mtbuf, "tbuffer_load_format_xyz", &[VDst(3)], &[BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x002, 0x002, NONE];
    TbufferLoadFormatXyzw = row(Mtbuf, "tbuffer_load_format_xyzw", &[VD4], &[BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x003, 0x003, NONE];
    TbufferStoreFormatXy = row(Mtbuf, "tbuffer_store_format_xy", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x005, 0x005, NONE];
    TbufferStoreFormatXyz = row(Mtbuf, "tbuffer_store_format_xyz", &[], &[VReg(3), BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x006, 0x006, NONE];
    TbufferStoreFormatXyzw = row(Mtbuf, "tbuffer_store_format_xyzw", &[], &[VV4, BufAddr, Rsrc, BufSOffset]).only(GCN1), [], [NONE, NONE, NONE, 0x007, 0x007, NONE];
    // Further instructions llc-19 emits: the high half of a scalar product, three-source
    // logic, 24-bit multiplies, reversed subtractions with borrow, GCN's multiply-add into
    // the destination and 64-bit compares into EXEC.
    SMulHiU32 = row(Sop2, "s_mul_hi_u32", &[SD1], &[SS1, SS1]).only(RDNA), [], [NONE, 0x035, 0x02d, NONE, NONE, 0x02d];
    VOr3B32 = row(Vop3, "v_or3_b32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x372, 0x258, NONE, NONE, 0x258];
    VXadU32 = row(Vop3, "v_xad_u32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x345, 0x245, NONE, NONE, 0x245];
    VMulU32U24 = row(Vop2, "v_mul_u32_u24", &[VD1], &[VS1, VS1]), [], [0x108, 0x10b, 0x10b, 0x10b, 0x10b, 0x10b];
    VSubbrevCoU32 = row(Vop2, "v_subrev_co_ci_u32", &[VD1, MD], &[VS1, VS1, MS]).gfx8("v_subbrev_u32").gcn1("v_subbrev_u32"), [], [0x11e, 0x12a, 0x122, 0x12a, 0x12a, 0x122];
    VMacF32 = row(Vop2, "v_mac_f32", &[VD1], &[VS1, VS1]).float(3).only(Targets::GFX8.or(GCN1)), [READ_DST], [0x116, NONE, NONE, 0x11f, 0x11f, NONE];
    VCmpxEqU64 = row(Vopc, "v_cmpx_eq_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f2, 0x0da, NONE, NONE, 0x0da];
    VCmpxNeU64 = row(Vopc, "v_cmpx_ne_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f5, 0x0dd, NONE, NONE, 0x0dd];
    // Writes a hardware register; the model takes only the flat scratch base (see
    // `validate::check_inst`), which RDNA 2 kernels set up and the simulator ignores.
    SSetregB32 = row(Sopk, "s_setreg_b32", &[], &[Imm16, SReg(1)]).only(RDNA), [], [NONE, 0x013, 0x012, NONE, NONE, 0x012];
    // Three-dword memory accesses (llc's `<3 x i32>` loads and stores).
    GlobalLoadDwordx3 = row(Global, "global_load_dwordx3", &[VDst(3)], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_b96").only(RDNA), [], [NONE, 0x00f, 0x016, NONE, NONE, 0x016];
    GlobalStoreDwordx3 = row(Global, "global_store_dwordx3", &[], &[GlobalAddr, VReg(3), GlobalSAddr]).gfx11("global_store_b96").only(RDNA), [], [NONE, 0x01f, 0x01c, NONE, NONE, 0x01c];
    FlatLoadDwordx3 = row(Flat, "flat_load_dwordx3", &[VDst(3)], &[FlatAddr]).gfx11("flat_load_b96").only(FLAT_TARGETS), [], [0x016, 0x00f, 0x016, NONE, 0x00f, 0x016];
    FlatStoreDwordx3 = row(Flat, "flat_store_dwordx3", &[], &[FlatAddr, VReg(3)]).gfx11("flat_store_b96").only(FLAT_TARGETS), [], [0x01e, 0x01f, 0x01c, NONE, 0x01f, 0x01c];
    BufferLoadDwordx3 = row(Mubuf, "buffer_load_dwordx3", &[VDst(3)], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_b96"), [], [0x016, 0x00f, 0x016, 0x00f, 0x00f, 0x016];
    BufferStoreDwordx3 = row(Mubuf, "buffer_store_dwordx3", &[], &[VReg(3), BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_b96"), [], [0x01e, 0x01f, 0x01c, 0x01f, 0x01f, 0x01c];
    ScratchLoadDwordx3 = row(Scratch, "scratch_load_dwordx3", &[VDst(3)], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_b96").only(RDNA), [], [NONE, 0x00f, 0x016, NONE, NONE, 0x016];
    ScratchStoreDwordx3 = row(Scratch, "scratch_store_dwordx3", &[], &[ScratchAddr, VReg(3), ScratchSAddr]).gfx11("scratch_store_b96").only(RDNA), [], [NONE, 0x01f, 0x01c, NONE, NONE, 0x01c];
    // Shift-and-combine instructions of GFX9 and later.
    VLshlOrB32 = row(Vop3, "v_lshl_or_b32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x36f, 0x256, NONE, NONE, 0x256];
    VAndOrB32 = row(Vop3, "v_and_or_b32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x371, 0x257, NONE, NONE, 0x257];
    VAddLshlU32 = row(Vop3, "v_add_lshl_u32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x347, 0x247, NONE, NONE, 0x247];
    // The reciprocal llc's integer division starts from, and bit reversal.
    VRcpIflagF32 = row(Vop1, "v_rcp_iflag_f32", &[VD1], &[VS1]).float(1), [], [0x163, 0x1ab, 0x1ab, 0x1ab, 0x1ab, 0x1ab];
    VBfrevB32 = row(Vop1, "v_bfrev_b32", &[VD1], &[VS1]), [], [0x16c, 0x1b8, 0x1b8, 0x1b8, 0x1b8, 0x1b8];
    VCmpxNgtF32 = row(Vopc, "v_cmpx_ngt_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01b, 0x09b, NONE, NONE, 0x09b];
    VCmpxNleF32 = row(Vopc, "v_cmpx_nle_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01c, 0x09c, NONE, NONE, 0x09c];
    VCmpxNgeF32 = row(Vopc, "v_cmpx_nge_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x019, 0x099, NONE, NONE, 0x099];
    VCmpxUF32 = row(Vopc, "v_cmpx_u_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x018, 0x098, NONE, NONE, 0x098];
    VCmpxNltF32 = row(Vopc, "v_cmpx_nlt_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01e, 0x09e, NONE, NONE, 0x09e];
    // Funnel shift and byte permute of a 64-bit {S0, S1}: llc-19's rotates and its
    // byte and half packing.
    VAlignbitB32 = row(Vop3, "v_alignbit_b32", &[VD1], &[VS1, VS1, VS1]), [], [0x1ce, 0x14e, 0x216, 0x14e, 0x14e, 0x216];
    VPermB32 = row(Vop3, "v_perm_b32", &[VD1], &[VS1, VS1, VS1]).only(GFX8_PLUS), [], [0x1ed, 0x344, 0x244, NONE, NONE, 0x244];
    // 16-bit shifts: VOP2 on GCN 1.2, VOP3-only on RDNA.
    VLshlrevB16 = row(Vop2, "v_lshlrev_b16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x12a, 0x314, 0x338, NONE, NONE, 0x338];
    VLshrrevB16 = row(Vop2, "v_lshrrev_b16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x12b, 0x307, 0x339, NONE, NONE, 0x339];
    VAshrrevI16 = row(Vop2, "v_ashrrev_i16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x12c, 0x308, 0x33a, NONE, NONE, 0x33a];
    // What llc emits for `llvm.trap`: enter the trap handler; halt the wave.
    STrap = row(Sopp, "s_trap", &[], &[Imm16]), [], [0x012, 0x012, 0x010, 0x012, 0x012, 0x010];
    SSethalt = row(Sopp, "s_sethalt", &[], &[Imm16]), [], [0x00d, 0x00d, 0x002, 0x00d, 0x00d, 0x002];
    // Further ALU instructions llc-19 emits for the IR's integer and float operations.
    VXor3B32 = row(Vop3, "v_xor3_b32", &[VD1], &[VS1, VS1, VS1]).only(RDNA), [], [NONE, 0x178, 0x240, NONE, NONE, 0x240];
    VXnorB32 = row(Vop2, "v_xnor_b32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x11e, 0x11e, NONE, NONE, 0x11e];
    VSubrevF32 = row(Vop2, "v_subrev_f32", &[VD1], &[VS1, VS1]).float(3), [], [0x103, 0x105, 0x105, 0x105, 0x105, 0x105];
    VMulI32I24 = row(Vop2, "v_mul_i32_i24", &[VD1], &[VS1, VS1]), [], [0x106, 0x109, 0x109, 0x109, 0x109, 0x109];
    VMadF32 = row(Vop3, "v_mad_f32", &[VD1], &[VS1, VS1, VS1]).float(7).only(Targets::GFX8.or(GCN1)), [], [0x1c1, NONE, NONE, 0x141, 0x141, NONE];
    VFfbhI32 = row(Vop1, "v_ffbh_i32", &[VD1], &[VS1]).gfx11("v_cls_i32"), [], [0x16f, 0x1bb, 0x1bb, 0x1bb, 0x1bb, 0x1bb];
    VCmpxLeU64 = row(Vopc, "v_cmpx_le_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f3, 0x0db, NONE, NONE, 0x0db];
    SAbsI32 = row(Sop1, "s_abs_i32", &[SD1], &[SS1]), [WRITE_SCC], [0x030, 0x034, 0x015, 0x034, 0x034, 0x015];
    SBrevB32 = row(Sop1, "s_brev_b32", &[SD1], &[SS1]), [], [0x008, 0x00b, 0x004, 0x00b, 0x00b, 0x004];
    SFlbitI32 = row(Sop1, "s_flbit_i32", &[SD1], &[SS1]).gfx11("s_cls_i32"), [], [0x014, 0x017, 0x00c, 0x017, 0x017, 0x00c];
    SMulHiI32 = row(Sop2, "s_mul_hi_i32", &[SD1], &[SS1, SS1]).only(RDNA), [], [NONE, 0x036, 0x02e, NONE, NONE, 0x02e];
    SXnorB32 = row(Sop2, "s_xnor_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x01a, 0x01c, 0x020, 0x01c, 0x01c, 0x020];
    // Sub-dword scratch accesses (RDNA 3 spills and stack bytes).
    ScratchLoadUbyte = row(Scratch, "scratch_load_ubyte", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_u8").only(RDNA).narrow(1, false), [], [NONE, 0x008, 0x010, NONE, NONE, 0x010];
    ScratchLoadSbyte = row(Scratch, "scratch_load_sbyte", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_i8").only(RDNA).narrow(1, true), [], [NONE, 0x009, 0x011, NONE, NONE, 0x011];
    ScratchLoadUshort = row(Scratch, "scratch_load_ushort", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_u16").only(RDNA).narrow(2, false), [], [NONE, 0x00a, 0x012, NONE, NONE, 0x012];
    ScratchLoadSshort = row(Scratch, "scratch_load_sshort", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_i16").only(RDNA).narrow(2, true), [], [NONE, 0x00b, 0x013, NONE, NONE, 0x013];
    ScratchStoreByte = row(Scratch, "scratch_store_byte", &[], &[ScratchAddr, VV1, ScratchSAddr]).gfx11("scratch_store_b8").only(RDNA).narrow(1, false), [], [NONE, 0x018, 0x018, NONE, NONE, 0x018];
    ScratchStoreShort = row(Scratch, "scratch_store_short", &[], &[ScratchAddr, VV1, ScratchSAddr]).gfx11("scratch_store_b16").only(RDNA).narrow(2, false), [], [NONE, 0x01a, 0x019, NONE, NONE, 0x019];
    // The `d16` accesses of GFX9 and later (none on GCN 1.2): a byte or short moved to or
    // from one 16-bit half of the VGPR, the other half kept (see [`Half`]). Shorts need no
    // extension, so there is no signed short form.
    BufferLoadUbyteD16 = row(Mubuf, "buffer_load_ubyte_d16", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_u8").only(RDNA).d16(1, false, Half::Low), [], [NONE, 0x020, 0x01e, NONE, NONE, 0x01e];
    BufferLoadUbyteD16Hi = row(Mubuf, "buffer_load_ubyte_d16_hi", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_hi_u8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x021, 0x021, NONE, NONE, 0x021];
    BufferLoadSbyteD16 = row(Mubuf, "buffer_load_sbyte_d16", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_i8").only(RDNA).d16(1, true, Half::Low), [], [NONE, 0x022, 0x01f, NONE, NONE, 0x01f];
    BufferLoadSbyteD16Hi = row(Mubuf, "buffer_load_sbyte_d16_hi", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_hi_i8").only(RDNA).d16(1, true, Half::High), [], [NONE, 0x023, 0x022, NONE, NONE, 0x022];
    BufferLoadShortD16 = row(Mubuf, "buffer_load_short_d16", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_b16").only(RDNA).d16(2, false, Half::Low), [], [NONE, 0x024, 0x020, NONE, NONE, 0x020];
    BufferLoadShortD16Hi = row(Mubuf, "buffer_load_short_d16_hi", &[VD1], &[BufAddr, Rsrc, BufSOffset]).gfx11("buffer_load_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x025, 0x023, NONE, NONE, 0x023];
    BufferStoreByteD16Hi = row(Mubuf, "buffer_store_byte_d16_hi", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_d16_hi_b8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x019, 0x024, NONE, NONE, 0x024];
    BufferStoreShortD16Hi = row(Mubuf, "buffer_store_short_d16_hi", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_store_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x01b, 0x025, NONE, NONE, 0x025];
    GlobalLoadUbyteD16 = row(Global, "global_load_ubyte_d16", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_u8").only(RDNA).d16(1, false, Half::Low), [], [NONE, 0x020, 0x01e, NONE, NONE, 0x01e];
    GlobalLoadUbyteD16Hi = row(Global, "global_load_ubyte_d16_hi", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_hi_u8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x021, 0x021, NONE, NONE, 0x021];
    GlobalLoadSbyteD16 = row(Global, "global_load_sbyte_d16", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_i8").only(RDNA).d16(1, true, Half::Low), [], [NONE, 0x022, 0x01f, NONE, NONE, 0x01f];
    GlobalLoadSbyteD16Hi = row(Global, "global_load_sbyte_d16_hi", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_hi_i8").only(RDNA).d16(1, true, Half::High), [], [NONE, 0x023, 0x022, NONE, NONE, 0x022];
    GlobalLoadShortD16 = row(Global, "global_load_short_d16", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_b16").only(RDNA).d16(2, false, Half::Low), [], [NONE, 0x024, 0x020, NONE, NONE, 0x020];
    GlobalLoadShortD16Hi = row(Global, "global_load_short_d16_hi", &[VD1], &[GlobalAddr, GlobalSAddr]).gfx11("global_load_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x025, 0x023, NONE, NONE, 0x023];
    GlobalStoreByteD16Hi = row(Global, "global_store_byte_d16_hi", &[], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_store_d16_hi_b8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x019, 0x024, NONE, NONE, 0x024];
    GlobalStoreShortD16Hi = row(Global, "global_store_short_d16_hi", &[], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_store_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x01b, 0x025, NONE, NONE, 0x025];
    ScratchLoadUbyteD16 = row(Scratch, "scratch_load_ubyte_d16", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_u8").only(RDNA).d16(1, false, Half::Low), [], [NONE, 0x020, 0x01e, NONE, NONE, 0x01e];
    ScratchLoadUbyteD16Hi = row(Scratch, "scratch_load_ubyte_d16_hi", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_hi_u8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x021, 0x021, NONE, NONE, 0x021];
    ScratchLoadSbyteD16 = row(Scratch, "scratch_load_sbyte_d16", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_i8").only(RDNA).d16(1, true, Half::Low), [], [NONE, 0x022, 0x01f, NONE, NONE, 0x01f];
    ScratchLoadSbyteD16Hi = row(Scratch, "scratch_load_sbyte_d16_hi", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_hi_i8").only(RDNA).d16(1, true, Half::High), [], [NONE, 0x023, 0x022, NONE, NONE, 0x022];
    ScratchLoadShortD16 = row(Scratch, "scratch_load_short_d16", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_b16").only(RDNA).d16(2, false, Half::Low), [], [NONE, 0x024, 0x020, NONE, NONE, 0x020];
    ScratchLoadShortD16Hi = row(Scratch, "scratch_load_short_d16_hi", &[VD1], &[ScratchAddr, ScratchSAddr]).gfx11("scratch_load_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x025, 0x023, NONE, NONE, 0x023];
    ScratchStoreByteD16Hi = row(Scratch, "scratch_store_byte_d16_hi", &[], &[ScratchAddr, VV1, ScratchSAddr]).gfx11("scratch_store_d16_hi_b8").only(RDNA).d16(1, false, Half::High), [], [NONE, 0x019, 0x024, NONE, NONE, 0x024];
    ScratchStoreShortD16Hi = row(Scratch, "scratch_store_short_d16_hi", &[], &[ScratchAddr, VV1, ScratchSAddr]).gfx11("scratch_store_d16_hi_b16").only(RDNA).d16(2, false, Half::High), [], [NONE, 0x01b, 0x025, NONE, NONE, 0x025];
    // Multiply-adds with a constant K: D = S0 * K + S1 (`mk`), D = S0 * S1 + K (`ak`); fused
    // on RDNA, GCN's `mad` rounds the product first.
    VFmamkF32 = row(Vop2, "v_fmamk_f32", &[VD1], &[VS1, KImm, VV1]).only(RDNA), [], [NONE, 0x12c, 0x12c, NONE, NONE, 0x12c];
    VFmaakF32 = row(Vop2, "v_fmaak_f32", &[VD1], &[VS1, VV1, KImm]).only(RDNA), [], [NONE, 0x12d, 0x12d, NONE, NONE, 0x12d];
    VMadmkF32 = row(Vop2, "v_madmk_f32", &[VD1], &[VS1, KImm, VV1]).only(Targets::GFX8.or(GCN1)), [], [0x117, NONE, NONE, 0x120, 0x120, NONE];
    VMadakF32 = row(Vop2, "v_madak_f32", &[VD1], &[VS1, VV1, KImm]).only(Targets::GFX8.or(GCN1)), [], [0x118, NONE, NONE, 0x121, 0x121, NONE];
    // A message whose answer lands in an SGPR: llc-19's RDNA 3 `llvm.trap` sequence asks for
    // the queue's doorbell before raising an interrupt.
    SSendmsgRtnB32 = row(Sop1, "s_sendmsg_rtn_b32", &[SD1], &[Msg8]).only(Targets::GFX1100), [], [NONE, NONE, 0x04c, NONE, NONE, 0x04c];
    // Local data share (work-group shared memory): ADDR is a VGPR byte address; single
    // accesses add `offset:N` (16 bits), two-address ones `offset0:N`/`offset1:N` (8 bits
    // each, in elements). RDNA 3 renamed them `ds_load_*`/`ds_store_*`.
    DsWriteB32 = row(Ds, "ds_write_b32", &[], &[VV1, VV1]).gfx11("ds_store_b32").only(GFX8_PLUS).ds(DsOp::Write, 1), [], [0x00d, 0x00d, 0x00d, NONE, NONE, 0x00d];
    DsWriteB64 = row(Ds, "ds_write_b64", &[], &[VV1, VV2]).gfx11("ds_store_b64").only(GFX8_PLUS).ds(DsOp::Write, 2), [], [0x04d, 0x04d, 0x04d, NONE, NONE, 0x04d];
    DsWriteB128 = row(Ds, "ds_write_b128", &[], &[VV1, VV4]).gfx11("ds_store_b128").only(GFX8_PLUS).ds(DsOp::Write, 4), [], [0x0df, 0x0df, 0x0df, NONE, NONE, 0x0df];
    DsWrite2B32 = row(Ds, "ds_write2_b32", &[], &[VV1, VV1, VV1]).gfx11("ds_store_2addr_b32").only(GFX8_PLUS).ds(DsOp::Write2, 1), [], [0x00e, 0x00e, 0x00e, NONE, NONE, 0x00e];
    DsWrite2B64 = row(Ds, "ds_write2_b64", &[], &[VV1, VV2, VV2]).gfx11("ds_store_2addr_b64").only(GFX8_PLUS).ds(DsOp::Write2, 2), [], [0x04e, 0x04e, 0x04e, NONE, NONE, 0x04e];
    DsReadB32 = row(Ds, "ds_read_b32", &[VD1], &[VV1]).gfx11("ds_load_b32").only(GFX8_PLUS).ds(DsOp::Read, 1), [], [0x036, 0x036, 0x036, NONE, NONE, 0x036];
    DsReadB64 = row(Ds, "ds_read_b64", &[VD2], &[VV1]).gfx11("ds_load_b64").only(GFX8_PLUS).ds(DsOp::Read, 2), [], [0x076, 0x076, 0x076, NONE, NONE, 0x076];
    DsReadB128 = row(Ds, "ds_read_b128", &[VD4], &[VV1]).gfx11("ds_load_b128").only(GFX8_PLUS).ds(DsOp::Read, 4), [], [0x0ff, 0x0ff, 0x0ff, NONE, NONE, 0x0ff];
    DsRead2B32 = row(Ds, "ds_read2_b32", &[VD2], &[VV1]).gfx11("ds_load_2addr_b32").only(GFX8_PLUS).ds(DsOp::Read2, 1), [], [0x037, 0x037, 0x037, NONE, NONE, 0x037];
    DsRead2B64 = row(Ds, "ds_read2_b64", &[VD4], &[VV1]).gfx11("ds_load_2addr_b64").only(GFX8_PLUS).ds(DsOp::Read2, 2), [], [0x077, 0x077, 0x077, NONE, NONE, 0x077];
    DsAddU32 = row(Ds, "ds_add_u32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Add), 1), [], [0x000, 0x000, 0x000, NONE, NONE, 0x000];
    DsSubU32 = row(Ds, "ds_sub_u32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Sub), 1), [], [0x001, 0x001, 0x001, NONE, NONE, 0x001];
    DsMinI32 = row(Ds, "ds_min_i32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MinI), 1), [], [0x005, 0x005, 0x005, NONE, NONE, 0x005];
    DsMaxI32 = row(Ds, "ds_max_i32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MaxI), 1), [], [0x006, 0x006, 0x006, NONE, NONE, 0x006];
    DsMinU32 = row(Ds, "ds_min_u32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MinU), 1), [], [0x007, 0x007, 0x007, NONE, NONE, 0x007];
    DsMaxU32 = row(Ds, "ds_max_u32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MaxU), 1), [], [0x008, 0x008, 0x008, NONE, NONE, 0x008];
    DsAndB32 = row(Ds, "ds_and_b32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::And), 1), [], [0x009, 0x009, 0x009, NONE, NONE, 0x009];
    DsOrB32 = row(Ds, "ds_or_b32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Or), 1), [], [0x00a, 0x00a, 0x00a, NONE, NONE, 0x00a];
    DsXorB32 = row(Ds, "ds_xor_b32", &[], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Xor), 1), [], [0x00b, 0x00b, 0x00b, NONE, NONE, 0x00b];
    DsAddRtnU32 = row(Ds, "ds_add_rtn_u32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Add), 1), [], [0x020, 0x020, 0x020, NONE, NONE, 0x020];
    DsSubRtnU32 = row(Ds, "ds_sub_rtn_u32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Sub), 1), [], [0x021, 0x021, 0x021, NONE, NONE, 0x021];
    DsMinRtnI32 = row(Ds, "ds_min_rtn_i32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MinI), 1), [], [0x025, 0x025, 0x025, NONE, NONE, 0x025];
    DsMaxRtnI32 = row(Ds, "ds_max_rtn_i32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MaxI), 1), [], [0x026, 0x026, 0x026, NONE, NONE, 0x026];
    DsMinRtnU32 = row(Ds, "ds_min_rtn_u32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MinU), 1), [], [0x027, 0x027, 0x027, NONE, NONE, 0x027];
    DsMaxRtnU32 = row(Ds, "ds_max_rtn_u32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::MaxU), 1), [], [0x028, 0x028, 0x028, NONE, NONE, 0x028];
    DsAndRtnB32 = row(Ds, "ds_and_rtn_b32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::And), 1), [], [0x029, 0x029, 0x029, NONE, NONE, 0x029];
    DsOrRtnB32 = row(Ds, "ds_or_rtn_b32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Or), 1), [], [0x02a, 0x02a, 0x02a, NONE, NONE, 0x02a];
    DsXorRtnB32 = row(Ds, "ds_xor_rtn_b32", &[VD1], &[VV1, VV1]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Xor), 1), [], [0x02b, 0x02b, 0x02b, NONE, NONE, 0x02b];
    DsWrxchgRtnB32 = row(Ds, "ds_wrxchg_rtn_b32", &[VD1], &[VV1, VV1]).gfx11("ds_storexchg_rtn_b32").only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Swap), 1), [], [0x02d, 0x02d, 0x02d, NONE, NONE, 0x02d];
    // RDNA 3 swapped the data operands: `ds_cmpstore_rtn_b32 vdst, addr, new, cmp` where
    // GCN3 and RDNA 2 write `ds_cmpst_rtn_b32 vdst, addr, cmp, new` (the simulator orders
    // them per target).
    DsCmpstRtnB32 = row(Ds, "ds_cmpst_rtn_b32", &[VD1], &[VV1, VV1, VV1]).gfx11("ds_cmpstore_rtn_b32").only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::CmpStore), 1), [], [0x030, 0x030, 0x030, NONE, NONE, 0x030];
    DsAddU64 = row(Ds, "ds_add_u64", &[], &[VV1, VV2]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Add), 2), [], [0x040, 0x040, 0x040, NONE, NONE, 0x040];
    DsAddRtnU64 = row(Ds, "ds_add_rtn_u64", &[VD2], &[VV1, VV2]).only(GFX8_PLUS).ds(DsOp::Atomic(AtomicOp::Add), 2), [], [0x060, 0x060, 0x060, NONE, NONE, 0x060];
    // The work-group barrier, and the cache invalidations llc-19 writes for work-group and
    // agent fences: the simulator has no caches, so they change nothing (see
    // `gpuabi_sim::exec::branch`).
    SBarrier = row(Sopp, "s_barrier", &[], &[]).only(GFX8_PLUS), [], [0x00a, 0x00a, 0x03d, NONE, NONE, NONE];
    BufferGl0Inv = row(Mubuf, "buffer_gl0_inv", &[], &[]).only(RDNA).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [NONE, 0x071, 0x02b, NONE, NONE, NONE];
    BufferGl1Inv = row(Mubuf, "buffer_gl1_inv", &[], &[]).only(RDNA).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [NONE, 0x072, 0x02c, NONE, NONE, NONE];
    // Address arithmetic llc-19 writes for LDS indexing: a 24-bit multiply-add and an add
    // then shift.
    VMadU32U24 = row(Vop3, "v_mad_u32_u24", &[VD1], &[VS1, VS1, VS1]), [], [0x1c3, 0x143, 0x20b, 0x143, 0x143, 0x20b];
    BufferWbinvl1Vol = row(Mubuf, "buffer_wbinvl1_vol", &[], &[]).only(Targets::GFX8).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [0x03f, NONE, NONE, NONE, NONE, NONE];
    // Counting the set bits of a mask below the lane: llc-19's atomic optimizer gives each
    // lane its place among the active lanes with them.
    VMbcntLoU32B32 = row(Vop3, "v_mbcnt_lo_u32_b32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS), [], [0x28c, 0x365, 0x31f, NONE, NONE, 0x31f];
    VMbcntHiU32B32 = row(Vop3, "v_mbcnt_hi_u32_b32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS), [], [0x28d, 0x366, 0x320, NONE, NONE, 0x320];
    // Atomics on global, flat (gfx8) and buffer memory: one row per mnemonic for both the
    // returning (`glc`) and the non-returning form (see `MemAtomic`). The operand lists
    // are those of the returning form; `cmpswap` takes the new value and the compared one
    // in one register tuple.
    GlobalAtomicAdd = row(Global, "global_atomic_add", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_add_u32").only(RDNA).atomic(AtomicOp::Add, 1), [], [NONE, 0x032, 0x035, NONE, NONE, 0x035];
    GlobalAtomicSub = row(Global, "global_atomic_sub", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_sub_u32").only(RDNA).atomic(AtomicOp::Sub, 1), [], [NONE, 0x033, 0x036, NONE, NONE, 0x036];
    GlobalAtomicSmin = row(Global, "global_atomic_smin", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_min_i32").only(RDNA).atomic(AtomicOp::MinI, 1), [], [NONE, 0x035, 0x038, NONE, NONE, 0x038];
    GlobalAtomicUmin = row(Global, "global_atomic_umin", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_min_u32").only(RDNA).atomic(AtomicOp::MinU, 1), [], [NONE, 0x036, 0x039, NONE, NONE, 0x039];
    GlobalAtomicSmax = row(Global, "global_atomic_smax", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_max_i32").only(RDNA).atomic(AtomicOp::MaxI, 1), [], [NONE, 0x037, 0x03a, NONE, NONE, 0x03a];
    GlobalAtomicUmax = row(Global, "global_atomic_umax", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_max_u32").only(RDNA).atomic(AtomicOp::MaxU, 1), [], [NONE, 0x038, 0x03b, NONE, NONE, 0x03b];
    GlobalAtomicAnd = row(Global, "global_atomic_and", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_and_b32").only(RDNA).atomic(AtomicOp::And, 1), [], [NONE, 0x039, 0x03c, NONE, NONE, 0x03c];
    GlobalAtomicOr = row(Global, "global_atomic_or", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_or_b32").only(RDNA).atomic(AtomicOp::Or, 1), [], [NONE, 0x03a, 0x03d, NONE, NONE, 0x03d];
    GlobalAtomicXor = row(Global, "global_atomic_xor", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_xor_b32").only(RDNA).atomic(AtomicOp::Xor, 1), [], [NONE, 0x03b, 0x03e, NONE, NONE, 0x03e];
    GlobalAtomicInc = row(Global, "global_atomic_inc", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_inc_u32").only(RDNA).atomic(AtomicOp::Inc, 1), [], [NONE, 0x03c, 0x03f, NONE, NONE, 0x03f];
    GlobalAtomicDec = row(Global, "global_atomic_dec", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_dec_u32").only(RDNA).atomic(AtomicOp::Dec, 1), [], [NONE, 0x03d, 0x040, NONE, NONE, 0x040];
    GlobalAtomicSwap = row(Global, "global_atomic_swap", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_swap_b32").only(RDNA).atomic(AtomicOp::Swap, 1), [], [NONE, 0x030, 0x033, NONE, NONE, 0x033];
    GlobalAtomicCmpswap = row(Global, "global_atomic_cmpswap", &[VD1], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_cmpswap_b32").only(RDNA).atomic(AtomicOp::CmpStore, 1), [], [NONE, 0x031, 0x034, NONE, NONE, 0x034];
    GlobalAtomicAddX2 = row(Global, "global_atomic_add_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_add_u64").only(RDNA).atomic(AtomicOp::Add, 2), [], [NONE, 0x052, 0x043, NONE, NONE, 0x043];
    GlobalAtomicSubX2 = row(Global, "global_atomic_sub_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_sub_u64").only(RDNA).atomic(AtomicOp::Sub, 2), [], [NONE, 0x053, 0x044, NONE, NONE, 0x044];
    GlobalAtomicSminX2 = row(Global, "global_atomic_smin_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_min_i64").only(RDNA).atomic(AtomicOp::MinI, 2), [], [NONE, 0x055, 0x045, NONE, NONE, 0x045];
    GlobalAtomicUminX2 = row(Global, "global_atomic_umin_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_min_u64").only(RDNA).atomic(AtomicOp::MinU, 2), [], [NONE, 0x056, 0x046, NONE, NONE, 0x046];
    GlobalAtomicSmaxX2 = row(Global, "global_atomic_smax_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_max_i64").only(RDNA).atomic(AtomicOp::MaxI, 2), [], [NONE, 0x057, 0x047, NONE, NONE, 0x047];
    GlobalAtomicUmaxX2 = row(Global, "global_atomic_umax_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_max_u64").only(RDNA).atomic(AtomicOp::MaxU, 2), [], [NONE, 0x058, 0x048, NONE, NONE, 0x048];
    GlobalAtomicAndX2 = row(Global, "global_atomic_and_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_and_b64").only(RDNA).atomic(AtomicOp::And, 2), [], [NONE, 0x059, 0x049, NONE, NONE, 0x049];
    GlobalAtomicOrX2 = row(Global, "global_atomic_or_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_or_b64").only(RDNA).atomic(AtomicOp::Or, 2), [], [NONE, 0x05a, 0x04a, NONE, NONE, 0x04a];
    GlobalAtomicXorX2 = row(Global, "global_atomic_xor_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_xor_b64").only(RDNA).atomic(AtomicOp::Xor, 2), [], [NONE, 0x05b, 0x04b, NONE, NONE, 0x04b];
    GlobalAtomicIncX2 = row(Global, "global_atomic_inc_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_inc_u64").only(RDNA).atomic(AtomicOp::Inc, 2), [], [NONE, 0x05c, 0x04c, NONE, NONE, 0x04c];
    GlobalAtomicDecX2 = row(Global, "global_atomic_dec_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_dec_u64").only(RDNA).atomic(AtomicOp::Dec, 2), [], [NONE, 0x05d, 0x04d, NONE, NONE, 0x04d];
    GlobalAtomicSwapX2 = row(Global, "global_atomic_swap_x2", &[VD2], &[GlobalAddr, VV2, GlobalSAddr]).gfx11("global_atomic_swap_b64").only(RDNA).atomic(AtomicOp::Swap, 2), [], [NONE, 0x050, 0x041, NONE, NONE, 0x041];
    GlobalAtomicCmpswapX2 = row(Global, "global_atomic_cmpswap_x2", &[VD2], &[GlobalAddr, VV4, GlobalSAddr]).gfx11("global_atomic_cmpswap_b64").only(RDNA).atomic(AtomicOp::CmpStore, 2), [], [NONE, 0x051, 0x042, NONE, NONE, 0x042];
    GlobalAtomicFmin = row(Global, "global_atomic_fmin", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_min_f32").only(RDNA).atomic(AtomicOp::FMin, 1).gfx12("global_atomic_min_num_f32"), [], [NONE, 0x03f, 0x051, NONE, NONE, 0x051];
    GlobalAtomicFmax = row(Global, "global_atomic_fmax", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).gfx11("global_atomic_max_f32").only(RDNA).atomic(AtomicOp::FMax, 1).gfx12("global_atomic_max_num_f32"), [], [NONE, 0x040, 0x052, NONE, NONE, 0x052];
    GlobalAtomicAddF32 = row(Global, "global_atomic_add_f32", &[VD1], &[GlobalAddr, VV1, GlobalSAddr]).only(Targets::GFX1100).atomic(AtomicOp::FAdd, 1), [], [NONE, NONE, 0x056, NONE, NONE, 0x056];
    FlatAtomicAdd = row(Flat, "flat_atomic_add", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_add_u32").only(GFX8_PLUS).atomic(AtomicOp::Add, 1), [], [0x042, 0x032, 0x035, NONE, NONE, 0x035];
    FlatAtomicSub = row(Flat, "flat_atomic_sub", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_sub_u32").only(GFX8_PLUS).atomic(AtomicOp::Sub, 1), [], [0x043, 0x033, 0x036, NONE, NONE, 0x036];
    FlatAtomicSmin = row(Flat, "flat_atomic_smin", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_min_i32").only(GFX8_PLUS).atomic(AtomicOp::MinI, 1), [], [0x044, 0x035, 0x038, NONE, NONE, 0x038];
    FlatAtomicUmin = row(Flat, "flat_atomic_umin", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_min_u32").only(GFX8_PLUS).atomic(AtomicOp::MinU, 1), [], [0x045, 0x036, 0x039, NONE, NONE, 0x039];
    FlatAtomicSmax = row(Flat, "flat_atomic_smax", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_max_i32").only(GFX8_PLUS).atomic(AtomicOp::MaxI, 1), [], [0x046, 0x037, 0x03a, NONE, NONE, 0x03a];
    FlatAtomicUmax = row(Flat, "flat_atomic_umax", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_max_u32").only(GFX8_PLUS).atomic(AtomicOp::MaxU, 1), [], [0x047, 0x038, 0x03b, NONE, NONE, 0x03b];
    FlatAtomicAnd = row(Flat, "flat_atomic_and", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_and_b32").only(GFX8_PLUS).atomic(AtomicOp::And, 1), [], [0x048, 0x039, 0x03c, NONE, NONE, 0x03c];
    FlatAtomicOr = row(Flat, "flat_atomic_or", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_or_b32").only(GFX8_PLUS).atomic(AtomicOp::Or, 1), [], [0x049, 0x03a, 0x03d, NONE, NONE, 0x03d];
    FlatAtomicXor = row(Flat, "flat_atomic_xor", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_xor_b32").only(GFX8_PLUS).atomic(AtomicOp::Xor, 1), [], [0x04a, 0x03b, 0x03e, NONE, NONE, 0x03e];
    FlatAtomicInc = row(Flat, "flat_atomic_inc", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_inc_u32").only(GFX8_PLUS).atomic(AtomicOp::Inc, 1), [], [0x04b, 0x03c, 0x03f, NONE, NONE, 0x03f];
    FlatAtomicDec = row(Flat, "flat_atomic_dec", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_dec_u32").only(GFX8_PLUS).atomic(AtomicOp::Dec, 1), [], [0x04c, 0x03d, 0x040, NONE, NONE, 0x040];
    FlatAtomicSwap = row(Flat, "flat_atomic_swap", &[VD1], &[FlatAddr, VV1]).gfx11("flat_atomic_swap_b32").only(GFX8_PLUS).atomic(AtomicOp::Swap, 1), [], [0x040, 0x030, 0x033, NONE, NONE, 0x033];
    FlatAtomicCmpswap = row(Flat, "flat_atomic_cmpswap", &[VD1], &[FlatAddr, VV2]).gfx11("flat_atomic_cmpswap_b32").only(GFX8_PLUS).atomic(AtomicOp::CmpStore, 1), [], [0x041, 0x031, 0x034, NONE, NONE, 0x034];
    FlatAtomicAddX2 = row(Flat, "flat_atomic_add_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_add_u64").only(GFX8_PLUS).atomic(AtomicOp::Add, 2), [], [0x062, 0x052, 0x043, NONE, NONE, 0x043];
    FlatAtomicSubX2 = row(Flat, "flat_atomic_sub_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_sub_u64").only(GFX8_PLUS).atomic(AtomicOp::Sub, 2), [], [0x063, 0x053, 0x044, NONE, NONE, 0x044];
    FlatAtomicSminX2 = row(Flat, "flat_atomic_smin_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_min_i64").only(GFX8_PLUS).atomic(AtomicOp::MinI, 2), [], [0x064, 0x055, 0x045, NONE, NONE, 0x045];
    FlatAtomicUminX2 = row(Flat, "flat_atomic_umin_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_min_u64").only(GFX8_PLUS).atomic(AtomicOp::MinU, 2), [], [0x065, 0x056, 0x046, NONE, NONE, 0x046];
    FlatAtomicSmaxX2 = row(Flat, "flat_atomic_smax_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_max_i64").only(GFX8_PLUS).atomic(AtomicOp::MaxI, 2), [], [0x066, 0x057, 0x047, NONE, NONE, 0x047];
    FlatAtomicUmaxX2 = row(Flat, "flat_atomic_umax_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_max_u64").only(GFX8_PLUS).atomic(AtomicOp::MaxU, 2), [], [0x067, 0x058, 0x048, NONE, NONE, 0x048];
    FlatAtomicAndX2 = row(Flat, "flat_atomic_and_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_and_b64").only(GFX8_PLUS).atomic(AtomicOp::And, 2), [], [0x068, 0x059, 0x049, NONE, NONE, 0x049];
    FlatAtomicOrX2 = row(Flat, "flat_atomic_or_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_or_b64").only(GFX8_PLUS).atomic(AtomicOp::Or, 2), [], [0x069, 0x05a, 0x04a, NONE, NONE, 0x04a];
    FlatAtomicXorX2 = row(Flat, "flat_atomic_xor_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_xor_b64").only(GFX8_PLUS).atomic(AtomicOp::Xor, 2), [], [0x06a, 0x05b, 0x04b, NONE, NONE, 0x04b];
    FlatAtomicIncX2 = row(Flat, "flat_atomic_inc_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_inc_u64").only(GFX8_PLUS).atomic(AtomicOp::Inc, 2), [], [0x06b, 0x05c, 0x04c, NONE, NONE, 0x04c];
    FlatAtomicDecX2 = row(Flat, "flat_atomic_dec_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_dec_u64").only(GFX8_PLUS).atomic(AtomicOp::Dec, 2), [], [0x06c, 0x05d, 0x04d, NONE, NONE, 0x04d];
    FlatAtomicSwapX2 = row(Flat, "flat_atomic_swap_x2", &[VD2], &[FlatAddr, VV2]).gfx11("flat_atomic_swap_b64").only(GFX8_PLUS).atomic(AtomicOp::Swap, 2), [], [0x060, 0x050, 0x041, NONE, NONE, 0x041];
    FlatAtomicCmpswapX2 = row(Flat, "flat_atomic_cmpswap_x2", &[VD2], &[FlatAddr, VV4]).gfx11("flat_atomic_cmpswap_b64").only(GFX8_PLUS).atomic(AtomicOp::CmpStore, 2), [], [0x061, 0x051, 0x042, NONE, NONE, 0x042];
    BufferAtomicAdd = row(Mubuf, "buffer_atomic_add", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_add_u32").only(GFX8_PLUS).atomic(AtomicOp::Add, 1), [], [0x042, 0x032, 0x035, NONE, NONE, 0x035];
    BufferAtomicSub = row(Mubuf, "buffer_atomic_sub", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_sub_u32").only(GFX8_PLUS).atomic(AtomicOp::Sub, 1), [], [0x043, 0x033, 0x036, NONE, NONE, 0x036];
    BufferAtomicSmin = row(Mubuf, "buffer_atomic_smin", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_min_i32").only(GFX8_PLUS).atomic(AtomicOp::MinI, 1), [], [0x044, 0x035, 0x038, NONE, NONE, 0x038];
    BufferAtomicUmin = row(Mubuf, "buffer_atomic_umin", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_min_u32").only(GFX8_PLUS).atomic(AtomicOp::MinU, 1), [], [0x045, 0x036, 0x039, NONE, NONE, 0x039];
    BufferAtomicSmax = row(Mubuf, "buffer_atomic_smax", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_max_i32").only(GFX8_PLUS).atomic(AtomicOp::MaxI, 1), [], [0x046, 0x037, 0x03a, NONE, NONE, 0x03a];
    BufferAtomicUmax = row(Mubuf, "buffer_atomic_umax", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_max_u32").only(GFX8_PLUS).atomic(AtomicOp::MaxU, 1), [], [0x047, 0x038, 0x03b, NONE, NONE, 0x03b];
    BufferAtomicAnd = row(Mubuf, "buffer_atomic_and", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_and_b32").only(GFX8_PLUS).atomic(AtomicOp::And, 1), [], [0x048, 0x039, 0x03c, NONE, NONE, 0x03c];
    BufferAtomicOr = row(Mubuf, "buffer_atomic_or", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_or_b32").only(GFX8_PLUS).atomic(AtomicOp::Or, 1), [], [0x049, 0x03a, 0x03d, NONE, NONE, 0x03d];
    BufferAtomicXor = row(Mubuf, "buffer_atomic_xor", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_xor_b32").only(GFX8_PLUS).atomic(AtomicOp::Xor, 1), [], [0x04a, 0x03b, 0x03e, NONE, NONE, 0x03e];
    BufferAtomicInc = row(Mubuf, "buffer_atomic_inc", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_inc_u32").only(GFX8_PLUS).atomic(AtomicOp::Inc, 1), [], [0x04b, 0x03c, 0x03f, NONE, NONE, 0x03f];
    BufferAtomicDec = row(Mubuf, "buffer_atomic_dec", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_dec_u32").only(GFX8_PLUS).atomic(AtomicOp::Dec, 1), [], [0x04c, 0x03d, 0x040, NONE, NONE, 0x040];
    BufferAtomicSwap = row(Mubuf, "buffer_atomic_swap", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_swap_b32").only(GFX8_PLUS).atomic(AtomicOp::Swap, 1), [], [0x040, 0x030, 0x033, NONE, NONE, 0x033];
    BufferAtomicCmpswap = row(Mubuf, "buffer_atomic_cmpswap", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_cmpswap_b32").only(GFX8_PLUS).atomic(AtomicOp::CmpStore, 1), [], [0x041, 0x031, 0x034, NONE, NONE, 0x034];
    BufferAtomicAddX2 = row(Mubuf, "buffer_atomic_add_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_add_u64").only(GFX8_PLUS).atomic(AtomicOp::Add, 2), [], [0x062, 0x052, 0x043, NONE, NONE, 0x043];
    BufferAtomicSubX2 = row(Mubuf, "buffer_atomic_sub_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_sub_u64").only(GFX8_PLUS).atomic(AtomicOp::Sub, 2), [], [0x063, 0x053, 0x044, NONE, NONE, 0x044];
    BufferAtomicSminX2 = row(Mubuf, "buffer_atomic_smin_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_min_i64").only(GFX8_PLUS).atomic(AtomicOp::MinI, 2), [], [0x064, 0x055, 0x045, NONE, NONE, 0x045];
    BufferAtomicUminX2 = row(Mubuf, "buffer_atomic_umin_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_min_u64").only(GFX8_PLUS).atomic(AtomicOp::MinU, 2), [], [0x065, 0x056, 0x046, NONE, NONE, 0x046];
    BufferAtomicSmaxX2 = row(Mubuf, "buffer_atomic_smax_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_max_i64").only(GFX8_PLUS).atomic(AtomicOp::MaxI, 2), [], [0x066, 0x057, 0x047, NONE, NONE, 0x047];
    BufferAtomicUmaxX2 = row(Mubuf, "buffer_atomic_umax_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_max_u64").only(GFX8_PLUS).atomic(AtomicOp::MaxU, 2), [], [0x067, 0x058, 0x048, NONE, NONE, 0x048];
    BufferAtomicAndX2 = row(Mubuf, "buffer_atomic_and_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_and_b64").only(GFX8_PLUS).atomic(AtomicOp::And, 2), [], [0x068, 0x059, 0x049, NONE, NONE, 0x049];
    BufferAtomicOrX2 = row(Mubuf, "buffer_atomic_or_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_or_b64").only(GFX8_PLUS).atomic(AtomicOp::Or, 2), [], [0x069, 0x05a, 0x04a, NONE, NONE, 0x04a];
    BufferAtomicXorX2 = row(Mubuf, "buffer_atomic_xor_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_xor_b64").only(GFX8_PLUS).atomic(AtomicOp::Xor, 2), [], [0x06a, 0x05b, 0x04b, NONE, NONE, 0x04b];
    BufferAtomicIncX2 = row(Mubuf, "buffer_atomic_inc_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_inc_u64").only(GFX8_PLUS).atomic(AtomicOp::Inc, 2), [], [0x06b, 0x05c, 0x04c, NONE, NONE, 0x04c];
    BufferAtomicDecX2 = row(Mubuf, "buffer_atomic_dec_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_dec_u64").only(GFX8_PLUS).atomic(AtomicOp::Dec, 2), [], [0x06c, 0x05d, 0x04d, NONE, NONE, 0x04d];
    BufferAtomicSwapX2 = row(Mubuf, "buffer_atomic_swap_x2", &[], &[VV2, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_swap_b64").only(GFX8_PLUS).atomic(AtomicOp::Swap, 2), [], [0x060, 0x050, 0x041, NONE, NONE, 0x041];
    BufferAtomicCmpswapX2 = row(Mubuf, "buffer_atomic_cmpswap_x2", &[], &[VV4, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_cmpswap_b64").only(GFX8_PLUS).atomic(AtomicOp::CmpStore, 2), [], [0x061, 0x051, 0x042, NONE, NONE, 0x042];
    BufferAtomicFmin = row(Mubuf, "buffer_atomic_fmin", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_min_f32").only(RDNA).atomic(AtomicOp::FMin, 1).gfx12("buffer_atomic_min_num_f32"), [], [NONE, 0x03f, 0x051, NONE, NONE, 0x051];
    BufferAtomicFmax = row(Mubuf, "buffer_atomic_fmax", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).gfx11("buffer_atomic_max_f32").only(RDNA).atomic(AtomicOp::FMax, 1).gfx12("buffer_atomic_max_num_f32"), [], [NONE, 0x040, 0x052, NONE, NONE, 0x052];
    BufferAtomicAddF32 = row(Mubuf, "buffer_atomic_add_f32", &[], &[VV1, BufAddr, Rsrc, BufSOffset]).only(Targets::GFX1100).atomic(AtomicOp::FAdd, 1), [], [NONE, NONE, 0x056, NONE, NONE, 0x056];
    // Further instructions llc-19 emits for 100 random programs: scalar sign extension,
    // the high halves of 24-bit products, the signed 64-bit multiply-add, the rest of the
    // 64-bit integer compares into EXEC and the ordered/unordered float compare into EXEC.
    SSextI32I8 = row(Sop1, "s_sext_i32_i8", &[SD1], &[SS1]), [], [0x016, 0x019, 0x00e, 0x019, 0x019, 0x00e];
    SSextI32I16 = row(Sop1, "s_sext_i32_i16", &[SD1], &[SS1]), [], [0x017, 0x01a, 0x00f, 0x01a, 0x01a, 0x00f];
    VMulHiI32I24 = row(Vop2, "v_mul_hi_i32_i24", &[VD1], &[VS1, VS1]), [], [0x107, 0x10a, 0x10a, 0x10a, 0x10a, 0x10a];
    VMulHiU32U24 = row(Vop2, "v_mul_hi_u32_u24", &[VD1], &[VS1, VS1]), [], [0x109, 0x10c, 0x10c, 0x10c, 0x10c, 0x10c];
    VMadI64I32 = row(Vop3, "v_mad_i64_i32", &[VD2, MD], &[VS1, VS1, VS2]).only(GFX8_PLUS.or(Targets::GFX7)).gfx12("v_mad_co_i64_i32"), [], [0x1e9, 0x177, 0x2ff, NONE, 0x177, 0x2ff];
    VCmpxLtU64 = row(Vopc, "v_cmpx_lt_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f1, 0x0d9, NONE, NONE, 0x0d9];
    VCmpxGtU64 = row(Vopc, "v_cmpx_gt_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f4, 0x0dc, NONE, NONE, 0x0dc];
    VCmpxGeU64 = row(Vopc, "v_cmpx_ge_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f6, 0x0de, NONE, NONE, 0x0de];
    VCmpxEqI64 = row(Vopc, "v_cmpx_eq_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b2, 0x0d2, NONE, NONE, 0x0d2];
    VCmpxNeI64 = row(Vopc, "v_cmpx_ne_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b5, 0x0d5, NONE, NONE, 0x0d5];
    VCmpxLtI64 = row(Vopc, "v_cmpx_lt_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b1, 0x0d1, NONE, NONE, 0x0d1];
    VCmpxLeI64 = row(Vopc, "v_cmpx_le_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b3, 0x0d3, NONE, NONE, 0x0d3];
    VCmpxGtI64 = row(Vopc, "v_cmpx_gt_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b4, 0x0d4, NONE, NONE, 0x0d4];
    VCmpxGeI64 = row(Vopc, "v_cmpx_ge_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b6, 0x0d6, NONE, NONE, 0x0d6];
    VCmpxOF32 = row(Vopc, "v_cmpx_o_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x017, 0x097, NONE, NONE, 0x097];
    // Scalar instructions Mesa's ACO emits in RADV's ray-tracing shaders: the negated
    // boolean operations on lane masks, the 16-bit packs (GFX9 and later; `hl` from RDNA 3
    // on) and the shift-and-add of address arithmetic (GFX9 and later).
    SNandB32 = row(Sop2, "s_nand_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x016, 0x018, 0x01c, 0x018, 0x018, 0x01c];
    SNandB64 = row(Sop2, "s_nand_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x017, 0x019, 0x01d, 0x019, 0x019, 0x01d];
    SNorB32 = row(Sop2, "s_nor_b32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x018, 0x01a, 0x01e, 0x01a, 0x01a, 0x01e];
    SNorB64 = row(Sop2, "s_nor_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x019, 0x01b, 0x01f, 0x01b, 0x01b, 0x01f];
    SXnorB64 = row(Sop2, "s_xnor_b64", &[SD2], &[SS2, SS2]), [WRITE_SCC], [0x01b, 0x01d, 0x021, 0x01d, 0x01d, 0x021];
    SPackLlB32B16 = row(Sop2, "s_pack_ll_b32_b16", &[SD1], &[SS1, SS1]).only(RDNA), [], [NONE, 0x032, 0x032, NONE, NONE, 0x032];
    SPackLhB32B16 = row(Sop2, "s_pack_lh_b32_b16", &[SD1], &[SS1, SS1]).only(RDNA), [], [NONE, 0x033, 0x033, NONE, NONE, 0x033];
    SPackHhB32B16 = row(Sop2, "s_pack_hh_b32_b16", &[SD1], &[SS1, SS1]).only(RDNA), [], [NONE, 0x034, 0x034, NONE, NONE, 0x034];
    SPackHlB32B16 = row(Sop2, "s_pack_hl_b32_b16", &[SD1], &[SS1, SS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x035, NONE, NONE, 0x035];
    SLshl1AddU32 = row(Sop2, "s_lshl1_add_u32", &[SD1], &[SS1, SS1]).only(RDNA), [WRITE_SCC], [NONE, 0x02e, 0x00e, NONE, NONE, 0x00e];
    SLshl2AddU32 = row(Sop2, "s_lshl2_add_u32", &[SD1], &[SS1, SS1]).only(RDNA), [WRITE_SCC], [NONE, 0x02f, 0x00f, NONE, NONE, 0x00f];
    SLshl3AddU32 = row(Sop2, "s_lshl3_add_u32", &[SD1], &[SS1, SS1]).only(RDNA), [WRITE_SCC], [NONE, 0x030, 0x010, NONE, NONE, 0x010];
    SLshl4AddU32 = row(Sop2, "s_lshl4_add_u32", &[SD1], &[SS1, SS1]).only(RDNA), [WRITE_SCC], [NONE, 0x031, 0x011, NONE, NONE, 0x011];
    // Vector instructions of ACO's ray traversal: three-source minimum and maximum (box
    // slabs), the DX9 multiply whose zero wins over inf and NaN (RDNA 3's
    // `v_mul_dx9_zero_f32`), and the exchange of two VGPRs (GFX9 and later, 32-bit
    // encoding only), whose two operands are both read and written.
    VMin3F32 = row(Vop3, "v_min3_f32", &[VD1], &[VS1, VS1, VS1]).float(7).gfx12("v_min3_num_f32"), [], [0x1d0, 0x151, 0x219, 0x151, 0x151, 0x229];
    VMax3F32 = row(Vop3, "v_max3_f32", &[VD1], &[VS1, VS1, VS1]).float(7).gfx12("v_max3_num_f32"), [], [0x1d3, 0x154, 0x21c, 0x154, 0x154, 0x22a];
    VMin3I32 = row(Vop3, "v_min3_i32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d1, 0x152, 0x21a, 0x152, 0x152, 0x21a];
    VMax3I32 = row(Vop3, "v_max3_i32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d4, 0x155, 0x21d, 0x155, 0x155, 0x21d];
    VMin3U32 = row(Vop3, "v_min3_u32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d2, 0x153, 0x21b, 0x153, 0x153, 0x21b];
    VMax3U32 = row(Vop3, "v_max3_u32", &[VD1], &[VS1, VS1, VS1]), [], [0x1d5, 0x156, 0x21e, 0x156, 0x156, 0x21e];
    VMulLegacyF32 = row(Vop2, "v_mul_legacy_f32", &[VD1], &[VS1, VS1]).float(3).gfx11("v_mul_dx9_zero_f32"), [], [0x104, 0x107, 0x107, 0x107, 0x107, 0x107];
    VSwapB32 = row(Vop1, "v_swap_b32", &[VD1, VD1], &[]).only(RDNA).e32_only(), [READ_DST], [NONE, 0x1e5, 0x1e5, NONE, NONE, 0x1e5];
    // The two-address LDS accesses whose offsets count 64-element strides (ACO's
    // ray-tracing stack on GCN 1.2 and in wave64).
    DsRead2st64B32 = row(Ds, "ds_read2st64_b32", &[VD2], &[VV1]).gfx11("ds_load_2addr_stride64_b32").only(GFX8_PLUS).ds(DsOp::Read2St64, 1), [], [0x038, 0x038, 0x038, NONE, NONE, 0x038];
    DsRead2st64B64 = row(Ds, "ds_read2st64_b64", &[VD4], &[VV1]).gfx11("ds_load_2addr_stride64_b64").only(GFX8_PLUS).ds(DsOp::Read2St64, 2), [], [0x078, 0x078, 0x078, NONE, NONE, 0x078];
    DsWrite2st64B32 = row(Ds, "ds_write2st64_b32", &[], &[VV1, VV1, VV1]).gfx11("ds_store_2addr_stride64_b32").only(GFX8_PLUS).ds(DsOp::Write2St64, 1), [], [0x00f, 0x00f, 0x00f, NONE, NONE, 0x00f];
    DsWrite2st64B64 = row(Ds, "ds_write2st64_b64", &[], &[VV1, VV2, VV2]).gfx11("ds_store_2addr_stride64_b64").only(GFX8_PLUS).ds(DsOp::Write2St64, 2), [], [0x04f, 0x04f, 0x04f, NONE, NONE, 0x04f];
    // Class tests of f16 values (GCN 1.2 and RDNA), and of f32 and f16 values into EXEC
    // (RDNA, where EXEC is their only destination).
    VCmpClassF16 = row(Vopc, "v_cmp_class_f16", &[MD], &[VSrc16, VS1]).float(1).only(GFX8_PLUS), [], [0x014, 0x08f, 0x07d, NONE, NONE, 0x07d];
    VCmpxClassF32 = row(Vopc, "v_cmpx_class_f32", &[], &[VS1, VS1]).float(1).only(RDNA), [WRITE_EXEC], [NONE, 0x098, 0x0fe, NONE, NONE, 0x0fe];
    VCmpxClassF16 = row(Vopc, "v_cmpx_class_f16", &[], &[VSrc16, VS1]).float(1).only(RDNA), [WRITE_EXEC], [NONE, 0x09f, 0x0fd, NONE, NONE, 0x0fd];
    // The compares into EXEC of GCN 1.0 to 1.2, which also write the lane mask they name
    // ("AMD GCN3 ISA", VOPC: "V_CMPX_*: write VCC (or SDST) and EXEC"): another operation
    // than RDNA's `v_cmpx_*` of the same spelling, so rows of their own.
    VCmpxEqU32Gcn = row(Vopc, "v_cmpx_eq_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0da, NONE, NONE, 0x0d2, 0x0d2, NONE];
    VCmpxNeU32Gcn = row(Vopc, "v_cmpx_ne_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0dd, NONE, NONE, 0x0d5, 0x0d5, NONE];
    VCmpxLtU32Gcn = row(Vopc, "v_cmpx_lt_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d9, NONE, NONE, 0x0d1, 0x0d1, NONE];
    VCmpxLeU32Gcn = row(Vopc, "v_cmpx_le_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0db, NONE, NONE, 0x0d3, 0x0d3, NONE];
    VCmpxGtU32Gcn = row(Vopc, "v_cmpx_gt_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0dc, NONE, NONE, 0x0d4, 0x0d4, NONE];
    VCmpxGeU32Gcn = row(Vopc, "v_cmpx_ge_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0de, NONE, NONE, 0x0d6, 0x0d6, NONE];
    VCmpxEqI32Gcn = row(Vopc, "v_cmpx_eq_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d2, NONE, NONE, 0x092, 0x092, NONE];
    VCmpxNeI32Gcn = row(Vopc, "v_cmpx_ne_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d5, NONE, NONE, 0x095, 0x095, NONE];
    VCmpxLtI32Gcn = row(Vopc, "v_cmpx_lt_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d1, NONE, NONE, 0x091, 0x091, NONE];
    VCmpxLeI32Gcn = row(Vopc, "v_cmpx_le_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d3, NONE, NONE, 0x093, 0x093, NONE];
    VCmpxGtI32Gcn = row(Vopc, "v_cmpx_gt_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d4, NONE, NONE, 0x094, 0x094, NONE];
    VCmpxGeI32Gcn = row(Vopc, "v_cmpx_ge_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d6, NONE, NONE, 0x096, 0x096, NONE];
    VCmpxEqF32Gcn = row(Vopc, "v_cmpx_eq_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x052, NONE, NONE, 0x012, 0x012, NONE];
    VCmpxNeqF32Gcn = row(Vopc, "v_cmpx_neq_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05d, NONE, NONE, 0x01d, 0x01d, NONE];
    VCmpxLtF32Gcn = row(Vopc, "v_cmpx_lt_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x051, NONE, NONE, 0x011, 0x011, NONE];
    VCmpxLeF32Gcn = row(Vopc, "v_cmpx_le_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x053, NONE, NONE, 0x013, 0x013, NONE];
    VCmpxGtF32Gcn = row(Vopc, "v_cmpx_gt_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x054, NONE, NONE, 0x014, 0x014, NONE];
    VCmpxGeF32Gcn = row(Vopc, "v_cmpx_ge_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x056, NONE, NONE, 0x016, 0x016, NONE];
    VCmpxNgtF32Gcn = row(Vopc, "v_cmpx_ngt_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05b, NONE, NONE, 0x01b, 0x01b, NONE];
    VCmpxNleF32Gcn = row(Vopc, "v_cmpx_nle_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05c, NONE, NONE, 0x01c, 0x01c, NONE];
    VCmpxNgeF32Gcn = row(Vopc, "v_cmpx_nge_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x059, NONE, NONE, 0x019, 0x019, NONE];
    VCmpxNltF32Gcn = row(Vopc, "v_cmpx_nlt_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05e, NONE, NONE, 0x01e, 0x01e, NONE];
    VCmpxUF32Gcn = row(Vopc, "v_cmpx_u_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x058, NONE, NONE, 0x018, 0x018, NONE];
    VCmpxOF32Gcn = row(Vopc, "v_cmpx_o_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x057, NONE, NONE, 0x017, 0x017, NONE];
    VCmpxEqU64Gcn = row(Vopc, "v_cmpx_eq_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0fa, NONE, NONE, 0x0f2, 0x0f2, NONE];
    VCmpxNeU64Gcn = row(Vopc, "v_cmpx_ne_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0fd, NONE, NONE, 0x0f5, 0x0f5, NONE];
    VCmpxLtU64Gcn = row(Vopc, "v_cmpx_lt_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f9, NONE, NONE, 0x0f1, 0x0f1, NONE];
    VCmpxLeU64Gcn = row(Vopc, "v_cmpx_le_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0fb, NONE, NONE, 0x0f3, 0x0f3, NONE];
    VCmpxGtU64Gcn = row(Vopc, "v_cmpx_gt_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0fc, NONE, NONE, 0x0f4, 0x0f4, NONE];
    VCmpxGeU64Gcn = row(Vopc, "v_cmpx_ge_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0fe, NONE, NONE, 0x0f6, 0x0f6, NONE];
    VCmpxEqI64Gcn = row(Vopc, "v_cmpx_eq_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f2, NONE, NONE, 0x0b2, 0x0b2, NONE];
    VCmpxNeI64Gcn = row(Vopc, "v_cmpx_ne_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f5, NONE, NONE, 0x0b5, 0x0b5, NONE];
    VCmpxLtI64Gcn = row(Vopc, "v_cmpx_lt_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f1, NONE, NONE, 0x0b1, 0x0b1, NONE];
    VCmpxLeI64Gcn = row(Vopc, "v_cmpx_le_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f3, NONE, NONE, 0x0b3, 0x0b3, NONE];
    VCmpxGtI64Gcn = row(Vopc, "v_cmpx_gt_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f4, NONE, NONE, 0x0b4, 0x0b4, NONE];
    VCmpxGeI64Gcn = row(Vopc, "v_cmpx_ge_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f6, NONE, NONE, 0x0b6, 0x0b6, NONE];
    VCmpxClassF32Gcn = row(Vopc, "v_cmpx_class_f32", &[MD], &[VS1, VS1]).float(1).only(GCN), [WRITE_EXEC], [0x011, NONE, NONE, 0x098, 0x098, NONE];
    VCmpxClassF16Gcn = row(Vopc, "v_cmpx_class_f16", &[MD], &[VSrc16, VS1]).float(1).only(Targets::GFX8), [WRITE_EXEC], [0x015, NONE, NONE, NONE, NONE, NONE];
    // RDNA's ray tracing: the intersection of a ray with a BVH node (the node pointer, the
    // ray's extent, origin, direction and inverse direction: 11 dwords with a 32-bit node
    // pointer, 12 with a 64-bit one; 4 dwords of results) and RDNA 3's LDS traversal stack,
    // whose second destination is ADDR, the stack address it reads and writes back (LLVM's
    // `$addr = $addr_in`). Encoded, decoded and printed; the simulator stops at them.
    ImageBvhIntersectRay = row(Mimg, "image_bvh_intersect_ray", &[VD4], &[ImageAddr(11), Rsrc]).only(RDNA), [], [NONE, 0x0e6, 0x019, NONE, NONE, NONE];
    ImageBvh64IntersectRay = row(Mimg, "image_bvh64_intersect_ray", &[VD4], &[ImageAddr(12), Rsrc]).only(RDNA), [], [NONE, 0x0e7, 0x01a, NONE, NONE, NONE];
    DsBvhStackRtnB32 = row(Ds, "ds_bvh_stack_rtn_b32", &[VD1, VD1], &[VV1, VV4]).only(Targets::GFX1100), [MEM_WRITE, READ_DST], [NONE, NONE, 0x0ad, NONE, NONE, NONE];
    // RDNA 4's ray tracing (Mesa's `aco_opcodes.py`; syntax as LLVM 20+ writes it, e.g.
    // llvm/test/MC/AMDGPU/gfx12_asm_vimage.s): the box test of a BVH8 node and the dual
    // test of two BVH4 nodes, with the address in VIMAGE's five fields (the 64-bit BVH base,
    // ray extent with instance mask, origin, direction, and one node pointer, two for the
    // dual test) and 10 dwords of results. Both also write the ray back into the origin
    // and direction registers of their address (LLVM's `$ray_origin_out = $ray_origin`,
    // `$ray_dir_out = $ray_dir`; Mesa's `visit_bvh8_intersect_ray_amd` defines them as
    // the new origin and direction), which [`Opcode::bvh_ray_write_back`] names. Then
    // RDNA 4's LDS traversal stacks, whose second destination is ADDR as on RDNA 3:
    // `push4_pop1` (RDNA 3's `ds_bvh_stack_rtn_b32` with RDNA 4's stack address and
    // offset, Mesa's `emit_ds_bvh_stack_push4_pop1_rtn`), `push8_pop1` and `push8_pop2`,
    // which pops two nodes. The simulator answers them in `check-function` only.
    ImageBvhDualIntersectRay = row(Mimg, "image_bvh_dual_intersect_ray", &[VDst(10)], &[ImageAddr(12), Rsrc]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x080];
    ImageBvh8IntersectRay = row(Mimg, "image_bvh8_intersect_ray", &[VDst(10)], &[ImageAddr(11), Rsrc]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x081];
    DsBvhStackPush4Pop1RtnB32 = row(Ds, "ds_bvh_stack_push4_pop1_rtn_b32", &[VD1, VD1], &[VV1, VV4]).only(GFX12), [MEM_WRITE, READ_DST], [NONE, NONE, NONE, NONE, NONE, 0x0e0];
    DsBvhStackPush8Pop1RtnB32 = row(Ds, "ds_bvh_stack_push8_pop1_rtn_b32", &[VD1, VD1], &[VV1, VReg(8)]).only(GFX12), [MEM_WRITE, READ_DST], [NONE, NONE, NONE, NONE, NONE, 0x0e1];
    DsBvhStackPush8Pop2RtnB64 = row(Ds, "ds_bvh_stack_push8_pop2_rtn_b64", &[VD2, VD1], &[VV1, VReg(8)]).only(GFX12), [MEM_WRITE, READ_DST], [NONE, NONE, NONE, NONE, NONE, 0x0e2];
    // Image memory on GCN 1.0/1.1, as AMD's OpenCL compiler uses it: reads by integer
    // coordinates (`image_load`, with a mip level `image_load_mip`), writes, and sampled
    // reads through a sampler.
    ImageLoad = row(Mimg, "image_load", &[ImgData], &[ImgAddr, ImgRsrc]).only(GCN1), [], [NONE, NONE, NONE, 0x000, 0x000, NONE];
    ImageLoadMip = row(Mimg, "image_load_mip", &[ImgData], &[ImgAddr, ImgRsrc]).only(GCN1), [], [NONE, NONE, NONE, 0x001, 0x001, NONE];
    ImageStore = row(Mimg, "image_store", &[], &[ImgData, ImgAddr, ImgRsrc]).only(GCN1), [], [NONE, NONE, NONE, 0x008, 0x008, NONE];
    ImageStoreMip = row(Mimg, "image_store_mip", &[], &[ImgData, ImgAddr, ImgRsrc]).only(GCN1), [], [NONE, NONE, NONE, 0x009, 0x009, NONE];
    ImageSample = row(Mimg, "image_sample", &[ImgData], &[ImgAddr, ImgRsrc, ImgSamp]).only(GCN1), [], [NONE, NONE, NONE, 0x020, 0x020, NONE];
    // GCN 1.0/1.1's 64-bit right shifts with the shift amount second (AMD's compiler
    // writes them for 64-bit address arithmetic).
    VLshrB64 = row(Vop3, "v_lshr_b64", &[VD2], &[VS2, VS1]).only(GCN1), [], [NONE, NONE, NONE, 0x162, 0x162, NONE];
    VAshrI64 = row(Vop3, "v_ashr_i64", &[VD2], &[VS2, VS1]).only(GCN1), [], [NONE, NONE, NONE, 0x163, 0x163, NONE];
    // Scalar bit counts, searches and bit operations on 32- and 64-bit values ("AMD GCN3 ISA",
    // "RDNA2 ISA", "RDNA3 ISA", SOP1): RDNA 3 dropped `s_ff0_*` and renamed the bit searches.
    SBcnt0I32B32 = row(Sop1, "s_bcnt0_i32_b32", &[SD1], &[SS1]), [WRITE_SCC], [0x00a, 0x00d, 0x016, 0x00d, 0x00d, 0x016];
    SBcnt0I32B64 = row(Sop1, "s_bcnt0_i32_b64", &[SD1], &[SS2]), [WRITE_SCC], [0x00b, 0x00e, 0x017, 0x00e, 0x00e, 0x017];
    SFf0I32B32 = row(Sop1, "s_ff0_i32_b32", &[SD1], &[SS1]).only(GCN.or(Targets::GFX1030)), [], [0x00e, 0x011, NONE, 0x011, 0x011, NONE];
    SFf0I32B64 = row(Sop1, "s_ff0_i32_b64", &[SD1], &[SS2]).only(GCN.or(Targets::GFX1030)), [], [0x00f, 0x012, NONE, 0x012, 0x012, NONE];
    SFlbitI32B64 = row(Sop1, "s_flbit_i32_b64", &[SD1], &[SS2]).gfx11("s_clz_i32_u64"), [], [0x013, 0x016, 0x00b, 0x016, 0x016, 0x00b];
    SFlbitI32I64 = row(Sop1, "s_flbit_i32_i64", &[SD1], &[SS2]).gfx11("s_cls_i32_i64"), [], [0x015, 0x018, 0x00d, 0x018, 0x018, 0x00d];
    SBrevB64 = row(Sop1, "s_brev_b64", &[SD2], &[SS2]), [], [0x009, 0x00c, 0x005, 0x00c, 0x00c, 0x005];
    SBitset0B64 = row(Sop1, "s_bitset0_b64", &[SD2], &[SS1]), [READ_DST], [0x019, 0x01c, 0x011, 0x01c, 0x01c, 0x011];
    SBitset1B64 = row(Sop1, "s_bitset1_b64", &[SD2], &[SS1]), [READ_DST], [0x01b, 0x01e, 0x013, 0x01e, 0x01e, 0x013];
    SBitreplicateB64B32 = row(Sop1, "s_bitreplicate_b64_b32", &[SD2], &[SS1]).only(RDNA), [], [NONE, 0x03b, 0x014, NONE, NONE, 0x014];
    SQuadmaskB32 = row(Sop1, "s_quadmask_b32", &[SD1], &[SS1]), [WRITE_SCC], [0x028, 0x02c, 0x01a, 0x02c, 0x02c, 0x01a];
    SQuadmaskB64 = row(Sop1, "s_quadmask_b64", &[SD2], &[SS2]), [WRITE_SCC], [0x029, 0x02d, 0x01b, 0x02d, 0x02d, 0x01b];
    SWqmB32 = row(Sop1, "s_wqm_b32", &[SD1], &[SS1]), [WRITE_SCC], [0x006, 0x009, 0x01c, 0x009, 0x009, 0x01c];
    SWqmB64 = row(Sop1, "s_wqm_b64", &[SD2], &[SS2]), [WRITE_SCC], [0x007, 0x00a, 0x01d, 0x00a, 0x00a, 0x01d];
    // Conditional moves: D = S0 when SCC is set, else D keeps its value.
    SCmovB32 = row(Sop1, "s_cmov_b32", &[SD1], &[SS1]), [READ_SCC, READ_DST], [0x002, 0x005, 0x002, 0x005, 0x005, 0x002];
    SCmovB64 = row(Sop1, "s_cmov_b64", &[SD2], &[SS2]), [READ_SCC, READ_DST], [0x003, 0x006, 0x003, 0x006, 0x006, 0x003];
    SCmovkI32 = row(Sopk, "s_cmovk_i32", &[SD1], &[Simm16]), [READ_SCC, READ_DST], [0x001, 0x002, 0x002, 0x002, 0x002, 0x002];
    // Moves with an SGPR index relative to M0: `s_movrels_*` reads SGPR[S0 + M0], `s_movreld_*`
    // writes SGPR[D + M0], RDNA's `s_movrelsd_2_b32` both with the two indices of M0.
    SMovrelsB32 = row(Sop1, "s_movrels_b32", &[SD1], &[SReg(1)]), [READ_M0], [0x02a, 0x02e, 0x040, 0x02e, 0x02e, 0x040];
    SMovrelsB64 = row(Sop1, "s_movrels_b64", &[SD2], &[SReg(2)]), [READ_M0], [0x02b, 0x02f, 0x041, 0x02f, 0x02f, 0x041];
    SMovreldB32 = row(Sop1, "s_movreld_b32", &[SD1], &[SS1]), [READ_M0], [0x02c, 0x030, 0x042, 0x030, 0x030, 0x042];
    SMovreldB64 = row(Sop1, "s_movreld_b64", &[SD2], &[SS2]), [READ_M0], [0x02d, 0x031, 0x043, 0x031, 0x031, 0x043];
    SMovrelsd2B32 = row(Sop1, "s_movrelsd_2_b32", &[SD1], &[SReg(1)]).only(RDNA), [READ_M0], [NONE, 0x049, 0x044, NONE, NONE, 0x044];
    // The other saveexec forms (D = EXEC, then EXEC = f(S0, EXEC)) and RDNA's wrexec forms
    // (EXEC = f(S0, EXEC), then D = EXEC); SCC = EXEC != 0.
    SNandSaveexecB64 = row(Sop1, "s_nand_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x025, 0x029, 0x027, 0x029, 0x029, 0x027];
    SNorSaveexecB64 = row(Sop1, "s_nor_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x026, 0x02a, 0x029, 0x02a, 0x02a, 0x029];
    SXnorSaveexecB64 = row(Sop1, "s_xnor_saveexec_b64", &[SD2], &[SS2]), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x027, 0x02b, 0x02b, 0x02b, 0x02b, 0x02b];
    SOrn2SaveexecB64 = row(Sop1, "s_orn2_saveexec_b64", &[SD2], &[SS2]).gfx11("s_or_not1_saveexec_b64"), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [0x024, 0x028, 0x033, 0x028, 0x028, 0x033];
    SAndn1SaveexecB64 = row(Sop1, "s_andn1_saveexec_b64", &[SD2], &[SS2]).gfx11("s_and_not0_saveexec_b64").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x037, 0x02d, NONE, NONE, 0x02d];
    SOrn1SaveexecB64 = row(Sop1, "s_orn1_saveexec_b64", &[SD2], &[SS2]).gfx11("s_or_not0_saveexec_b64").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x038, 0x02f, NONE, NONE, 0x02f];
    SAndn1WrexecB64 = row(Sop1, "s_andn1_wrexec_b64", &[SD2], &[SS2]).gfx11("s_and_not0_wrexec_b64").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x039, 0x035, NONE, NONE, 0x035];
    SAndn2WrexecB64 = row(Sop1, "s_andn2_wrexec_b64", &[SD2], &[SS2]).gfx11("s_and_not1_wrexec_b64").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x03a, 0x037, NONE, NONE, 0x037];
    SNandSaveexecB32 = row(Sop1, "s_nand_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x041, 0x026, NONE, NONE, 0x026];
    SNorSaveexecB32 = row(Sop1, "s_nor_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x042, 0x028, NONE, NONE, 0x028];
    SXnorSaveexecB32 = row(Sop1, "s_xnor_saveexec_b32", &[SD1], &[SS1]).only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x043, 0x02a, NONE, NONE, 0x02a];
    SOrn2SaveexecB32 = row(Sop1, "s_orn2_saveexec_b32", &[SD1], &[SS1]).gfx11("s_or_not1_saveexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x040, 0x032, NONE, NONE, 0x032];
    SAndn1SaveexecB32 = row(Sop1, "s_andn1_saveexec_b32", &[SD1], &[SS1]).gfx11("s_and_not0_saveexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x044, 0x02c, NONE, NONE, 0x02c];
    SOrn1SaveexecB32 = row(Sop1, "s_orn1_saveexec_b32", &[SD1], &[SS1]).gfx11("s_or_not0_saveexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x045, 0x02e, NONE, NONE, 0x02e];
    SAndn1WrexecB32 = row(Sop1, "s_andn1_wrexec_b32", &[SD1], &[SS1]).gfx11("s_and_not0_wrexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x046, 0x034, NONE, NONE, 0x034];
    SAndn2WrexecB32 = row(Sop1, "s_andn2_wrexec_b32", &[SD1], &[SS1]).gfx11("s_and_not1_wrexec_b32").only(RDNA), [READ_EXEC, WRITE_EXEC, WRITE_SCC], [NONE, 0x047, 0x036, NONE, NONE, 0x036];
    // A 64-bit answer to a message (RDNA 3: the real-time clock, the trap handler's addresses).
    SSendmsgRtnB64 = row(Sop1, "s_sendmsg_rtn_b64", &[SD2], &[Msg8]).only(Targets::GFX1100), [], [NONE, NONE, 0x04d, NONE, NONE, 0x04d];
    // Scalar absolute difference, 64-bit bit-field extracts and bit tests.
    SAbsdiffI32 = row(Sop2, "s_absdiff_i32", &[SD1], &[SS1, SS1]), [WRITE_SCC], [0x02a, 0x02c, 0x006, 0x02c, 0x02c, 0x006];
    SBfeU64 = row(Sop2, "s_bfe_u64", &[SD2], &[SS2, SS1]), [WRITE_SCC], [0x027, 0x029, 0x028, 0x029, 0x029, 0x028];
    SBfeI64 = row(Sop2, "s_bfe_i64", &[SD2], &[SS2, SS1]), [WRITE_SCC], [0x028, 0x02a, 0x029, 0x02a, 0x02a, 0x029];
    SBitcmp0B64 = row(Sopc, "s_bitcmp0_b64", &[], &[SS2, SS1]), [WRITE_SCC], [0x00e, 0x00e, 0x00e, 0x00e, 0x00e, 0x00e];
    SBitcmp1B64 = row(Sopc, "s_bitcmp1_b64", &[], &[SS2, SS1]), [WRITE_SCC], [0x00f, 0x00f, 0x00f, 0x00f, 0x00f, 0x00f];
    // The counter waits of RDNA besides `s_waitcnt_vscnt`: no effect in the simulator, which
    // completes every access at once.
    SWaitcntVmcnt = row(Sopk, "s_waitcnt_vmcnt", &[], &[SReg(1), Imm16]).class(Class::Control).only(RDNA), [], [NONE, 0x018, 0x019, NONE, NONE, NONE];
    SWaitcntExpcnt = row(Sopk, "s_waitcnt_expcnt", &[], &[SReg(1), Imm16]).class(Class::Control).only(RDNA), [], [NONE, 0x019, 0x01a, NONE, NONE, NONE];
    SWaitcntLgkmcnt = row(Sopk, "s_waitcnt_lgkmcnt", &[], &[SReg(1), Imm16]).class(Class::Control).only(RDNA), [], [NONE, 0x01a, 0x01b, NONE, NONE, NONE];
    // Vector compares of every type and condition ("AMD GCN3 ISA", "RDNA2 ISA", "RDNA3 ISA", VOPC):
    // `f`/`t` (`tru` for floats before RDNA 3) give all zeros/all ones, the float conditions
    // starting with `n` are true when a source is NaN, `lg` and `o` are false then; 16-bit
    // sources compare their low halves, f16 inline constants and all.
    VCmpFF16 = row(Vopc, "v_cmp_f_f16", &[MD], &[VSrc16, VSrc16]).float(3).without(READ_EXEC).only(GFX8_PLUS), [], [0x020, 0x0c8, 0x000, NONE, NONE, NONE];
    VCmpLtF16 = row(Vopc, "v_cmp_lt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x021, 0x0c9, 0x001, NONE, NONE, 0x001];
    VCmpEqF16 = row(Vopc, "v_cmp_eq_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x022, 0x0ca, 0x002, NONE, NONE, 0x002];
    VCmpLeF16 = row(Vopc, "v_cmp_le_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x023, 0x0cb, 0x003, NONE, NONE, 0x003];
    VCmpGtF16 = row(Vopc, "v_cmp_gt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x024, 0x0cc, 0x004, NONE, NONE, 0x004];
    VCmpLgF16 = row(Vopc, "v_cmp_lg_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x025, 0x0cd, 0x005, NONE, NONE, 0x005];
    VCmpGeF16 = row(Vopc, "v_cmp_ge_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x026, 0x0ce, 0x006, NONE, NONE, 0x006];
    VCmpOF16 = row(Vopc, "v_cmp_o_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x027, 0x0cf, 0x007, NONE, NONE, 0x007];
    VCmpUF16 = row(Vopc, "v_cmp_u_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x028, 0x0e8, 0x008, NONE, NONE, 0x008];
    VCmpNgeF16 = row(Vopc, "v_cmp_nge_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x029, 0x0e9, 0x009, NONE, NONE, 0x009];
    VCmpNlgF16 = row(Vopc, "v_cmp_nlg_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x02a, 0x0ea, 0x00a, NONE, NONE, 0x00a];
    VCmpNgtF16 = row(Vopc, "v_cmp_ngt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x02b, 0x0eb, 0x00b, NONE, NONE, 0x00b];
    VCmpNleF16 = row(Vopc, "v_cmp_nle_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x02c, 0x0ec, 0x00c, NONE, NONE, 0x00c];
    VCmpNeqF16 = row(Vopc, "v_cmp_neq_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x02d, 0x0ed, 0x00d, NONE, NONE, 0x00d];
    VCmpNltF16 = row(Vopc, "v_cmp_nlt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(GFX8_PLUS), [], [0x02e, 0x0ee, 0x00e, NONE, NONE, 0x00e];
    VCmpTruF16 = row(Vopc, "v_cmp_tru_f16", &[MD], &[VSrc16, VSrc16]).gfx11("v_cmp_t_f16").float(3).only(GFX8_PLUS), [], [0x02f, 0x0ef, 0x00f, NONE, NONE, NONE];
    VCmpFF32 = row(Vopc, "v_cmp_f_f32", &[MD], &[VS1, VS1]).float(3).without(READ_EXEC), [], [0x040, 0x000, 0x010, 0x000, 0x000, NONE];
    VCmpTruF32 = row(Vopc, "v_cmp_tru_f32", &[MD], &[VS1, VS1]).gfx11("v_cmp_t_f32").float(3), [], [0x04f, 0x00f, 0x01f, 0x00f, 0x00f, NONE];
    VCmpFF64 = row(Vopc, "v_cmp_f_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).without(READ_EXEC), [], [0x060, 0x020, 0x020, 0x020, 0x020, NONE];
    VCmpLtF64 = row(Vopc, "v_cmp_lt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x061, 0x021, 0x021, 0x021, 0x021, 0x021];
    VCmpEqF64 = row(Vopc, "v_cmp_eq_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x062, 0x022, 0x022, 0x022, 0x022, 0x022];
    VCmpLeF64 = row(Vopc, "v_cmp_le_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x063, 0x023, 0x023, 0x023, 0x023, 0x023];
    VCmpGtF64 = row(Vopc, "v_cmp_gt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x064, 0x024, 0x024, 0x024, 0x024, 0x024];
    VCmpLgF64 = row(Vopc, "v_cmp_lg_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x065, 0x025, 0x025, 0x025, 0x025, 0x025];
    VCmpGeF64 = row(Vopc, "v_cmp_ge_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x066, 0x026, 0x026, 0x026, 0x026, 0x026];
    VCmpOF64 = row(Vopc, "v_cmp_o_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x067, 0x027, 0x027, 0x027, 0x027, 0x027];
    VCmpUF64 = row(Vopc, "v_cmp_u_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x068, 0x028, 0x028, 0x028, 0x028, 0x028];
    VCmpNgeF64 = row(Vopc, "v_cmp_nge_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x069, 0x029, 0x029, 0x029, 0x029, 0x029];
    VCmpNlgF64 = row(Vopc, "v_cmp_nlg_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x06a, 0x02a, 0x02a, 0x02a, 0x02a, 0x02a];
    VCmpNgtF64 = row(Vopc, "v_cmp_ngt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x06b, 0x02b, 0x02b, 0x02b, 0x02b, 0x02b];
    VCmpNleF64 = row(Vopc, "v_cmp_nle_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x06c, 0x02c, 0x02c, 0x02c, 0x02c, 0x02c];
    VCmpNeqF64 = row(Vopc, "v_cmp_neq_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x06d, 0x02d, 0x02d, 0x02d, 0x02d, 0x02d];
    VCmpNltF64 = row(Vopc, "v_cmp_nlt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3), [], [0x06e, 0x02e, 0x02e, 0x02e, 0x02e, 0x02e];
    VCmpTruF64 = row(Vopc, "v_cmp_tru_f64", &[MD], &[VSrcF64, VSrcF64]).gfx11("v_cmp_t_f64").float(3), [], [0x06f, 0x02f, 0x02f, 0x02f, 0x02f, NONE];
    VCmpClassF64 = row(Vopc, "v_cmp_class_f64", &[MD], &[VSrcF64, VS1]).float(1), [], [0x012, 0x0a8, 0x07f, 0x0a8, 0x0a8, 0x07f];
    VCmpFI16 = row(Vopc, "v_cmp_f_i16", &[MD], &[VSrcI16, VSrcI16]).without(READ_EXEC).only(Targets::GFX8), [], [0x0a0, NONE, NONE, NONE, NONE, NONE];
    VCmpLtI16 = row(Vopc, "v_cmp_lt_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a1, 0x089, 0x031, NONE, NONE, 0x031];
    VCmpEqI16 = row(Vopc, "v_cmp_eq_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a2, 0x08a, 0x032, NONE, NONE, 0x032];
    VCmpLeI16 = row(Vopc, "v_cmp_le_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a3, 0x08b, 0x033, NONE, NONE, 0x033];
    VCmpGtI16 = row(Vopc, "v_cmp_gt_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a4, 0x08c, 0x034, NONE, NONE, 0x034];
    VCmpGeI16 = row(Vopc, "v_cmp_ge_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a6, 0x08e, 0x036, NONE, NONE, 0x036];
    VCmpNeI16 = row(Vopc, "v_cmp_ne_i16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a5, 0x08d, 0x035, NONE, NONE, 0x035];
    VCmpTI16 = row(Vopc, "v_cmp_t_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [], [0x0a7, NONE, NONE, NONE, NONE, NONE];
    VCmpFU16 = row(Vopc, "v_cmp_f_u16", &[MD], &[VSrcI16, VSrcI16]).without(READ_EXEC).only(Targets::GFX8), [], [0x0a8, NONE, NONE, NONE, NONE, NONE];
    VCmpLtU16 = row(Vopc, "v_cmp_lt_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0a9, 0x0a9, 0x039, NONE, NONE, 0x039];
    VCmpEqU16 = row(Vopc, "v_cmp_eq_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0aa, 0x0aa, 0x03a, NONE, NONE, 0x03a];
    VCmpLeU16 = row(Vopc, "v_cmp_le_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0ab, 0x0ab, 0x03b, NONE, NONE, 0x03b];
    VCmpGtU16 = row(Vopc, "v_cmp_gt_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0ac, 0x0ac, 0x03c, NONE, NONE, 0x03c];
    VCmpGeU16 = row(Vopc, "v_cmp_ge_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0ae, 0x0ae, 0x03e, NONE, NONE, 0x03e];
    VCmpNeU16 = row(Vopc, "v_cmp_ne_u16", &[MD], &[VSrcI16, VSrcI16]).only(GFX8_PLUS), [], [0x0ad, 0x0ad, 0x03d, NONE, NONE, 0x03d];
    VCmpTU16 = row(Vopc, "v_cmp_t_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [], [0x0af, NONE, NONE, NONE, NONE, NONE];
    VCmpFI32 = row(Vopc, "v_cmp_f_i32", &[MD], &[VS1, VS1]).without(READ_EXEC), [], [0x0c0, 0x080, 0x040, 0x080, 0x080, NONE];
    VCmpTI32 = row(Vopc, "v_cmp_t_i32", &[MD], &[VS1, VS1]), [], [0x0c7, 0x087, 0x047, 0x087, 0x087, NONE];
    VCmpFU32 = row(Vopc, "v_cmp_f_u32", &[MD], &[VS1, VS1]).without(READ_EXEC), [], [0x0c8, 0x0c0, 0x048, 0x0c0, 0x0c0, NONE];
    VCmpTU32 = row(Vopc, "v_cmp_t_u32", &[MD], &[VS1, VS1]), [], [0x0cf, 0x0c7, 0x04f, 0x0c7, 0x0c7, NONE];
    VCmpFI64 = row(Vopc, "v_cmp_f_i64", &[MD], &[VS2, VS2]).without(READ_EXEC), [], [0x0e0, 0x0a0, 0x050, 0x0a0, 0x0a0, NONE];
    VCmpTI64 = row(Vopc, "v_cmp_t_i64", &[MD], &[VS2, VS2]), [], [0x0e7, 0x0a7, 0x057, 0x0a7, 0x0a7, NONE];
    VCmpFU64 = row(Vopc, "v_cmp_f_u64", &[MD], &[VS2, VS2]).without(READ_EXEC), [], [0x0e8, 0x0e0, 0x058, 0x0e0, 0x0e0, NONE];
    VCmpTU64 = row(Vopc, "v_cmp_t_u64", &[MD], &[VS2, VS2]), [], [0x0ef, 0x0e7, 0x05f, 0x0e7, 0x0e7, NONE];
    // The compares into EXEC of RDNA (EXEC their only destination) for the other types and
    // conditions.
    VCmpxFF16 = row(Vopc, "v_cmpx_f_f16", &[], &[VSrc16, VSrc16]).float(3).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x0d8, 0x080, NONE, NONE, NONE];
    VCmpxLtF16 = row(Vopc, "v_cmpx_lt_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0d9, 0x081, NONE, NONE, 0x081];
    VCmpxEqF16 = row(Vopc, "v_cmpx_eq_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0da, 0x082, NONE, NONE, 0x082];
    VCmpxLeF16 = row(Vopc, "v_cmpx_le_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0db, 0x083, NONE, NONE, 0x083];
    VCmpxGtF16 = row(Vopc, "v_cmpx_gt_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0dc, 0x084, NONE, NONE, 0x084];
    VCmpxLgF16 = row(Vopc, "v_cmpx_lg_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0dd, 0x085, NONE, NONE, 0x085];
    VCmpxGeF16 = row(Vopc, "v_cmpx_ge_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0de, 0x086, NONE, NONE, 0x086];
    VCmpxOF16 = row(Vopc, "v_cmpx_o_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0df, 0x087, NONE, NONE, 0x087];
    VCmpxUF16 = row(Vopc, "v_cmpx_u_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0f8, 0x088, NONE, NONE, 0x088];
    VCmpxNgeF16 = row(Vopc, "v_cmpx_nge_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0f9, 0x089, NONE, NONE, 0x089];
    VCmpxNlgF16 = row(Vopc, "v_cmpx_nlg_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0fa, 0x08a, NONE, NONE, 0x08a];
    VCmpxNgtF16 = row(Vopc, "v_cmpx_ngt_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0fb, 0x08b, NONE, NONE, 0x08b];
    VCmpxNleF16 = row(Vopc, "v_cmpx_nle_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0fc, 0x08c, NONE, NONE, 0x08c];
    VCmpxNeqF16 = row(Vopc, "v_cmpx_neq_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0fd, 0x08d, NONE, NONE, 0x08d];
    VCmpxNltF16 = row(Vopc, "v_cmpx_nlt_f16", &[], &[VSrc16, VSrc16]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0fe, 0x08e, NONE, NONE, 0x08e];
    VCmpxTruF16 = row(Vopc, "v_cmpx_tru_f16", &[], &[VSrc16, VSrc16]).gfx11("v_cmpx_t_f16").float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x0ff, 0x08f, NONE, NONE, NONE];
    VCmpxFF32 = row(Vopc, "v_cmpx_f_f32", &[], &[VS1, VS1]).float(3).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x010, 0x090, NONE, NONE, NONE];
    VCmpxLgF32 = row(Vopc, "v_cmpx_lg_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x015, 0x095, NONE, NONE, 0x095];
    VCmpxNlgF32 = row(Vopc, "v_cmpx_nlg_f32", &[], &[VS1, VS1]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01a, 0x09a, NONE, NONE, 0x09a];
    VCmpxTruF32 = row(Vopc, "v_cmpx_tru_f32", &[], &[VS1, VS1]).gfx11("v_cmpx_t_f32").float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x01f, 0x09f, NONE, NONE, NONE];
    VCmpxFF64 = row(Vopc, "v_cmpx_f_f64", &[], &[VSrcF64, VSrcF64]).float(3).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x030, 0x0a0, NONE, NONE, NONE];
    VCmpxLtF64 = row(Vopc, "v_cmpx_lt_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x031, 0x0a1, NONE, NONE, 0x0a1];
    VCmpxEqF64 = row(Vopc, "v_cmpx_eq_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x032, 0x0a2, NONE, NONE, 0x0a2];
    VCmpxLeF64 = row(Vopc, "v_cmpx_le_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x033, 0x0a3, NONE, NONE, 0x0a3];
    VCmpxGtF64 = row(Vopc, "v_cmpx_gt_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x034, 0x0a4, NONE, NONE, 0x0a4];
    VCmpxLgF64 = row(Vopc, "v_cmpx_lg_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x035, 0x0a5, NONE, NONE, 0x0a5];
    VCmpxGeF64 = row(Vopc, "v_cmpx_ge_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x036, 0x0a6, NONE, NONE, 0x0a6];
    VCmpxOF64 = row(Vopc, "v_cmpx_o_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x037, 0x0a7, NONE, NONE, 0x0a7];
    VCmpxUF64 = row(Vopc, "v_cmpx_u_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x038, 0x0a8, NONE, NONE, 0x0a8];
    VCmpxNgeF64 = row(Vopc, "v_cmpx_nge_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x039, 0x0a9, NONE, NONE, 0x0a9];
    VCmpxNlgF64 = row(Vopc, "v_cmpx_nlg_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03a, 0x0aa, NONE, NONE, 0x0aa];
    VCmpxNgtF64 = row(Vopc, "v_cmpx_ngt_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03b, 0x0ab, NONE, NONE, 0x0ab];
    VCmpxNleF64 = row(Vopc, "v_cmpx_nle_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03c, 0x0ac, NONE, NONE, 0x0ac];
    VCmpxNeqF64 = row(Vopc, "v_cmpx_neq_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03d, 0x0ad, NONE, NONE, 0x0ad];
    VCmpxNltF64 = row(Vopc, "v_cmpx_nlt_f64", &[], &[VSrcF64, VSrcF64]).float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03e, 0x0ae, NONE, NONE, 0x0ae];
    VCmpxTruF64 = row(Vopc, "v_cmpx_tru_f64", &[], &[VSrcF64, VSrcF64]).gfx11("v_cmpx_t_f64").float(3).only(RDNA), [WRITE_EXEC], [NONE, 0x03f, 0x0af, NONE, NONE, NONE];
    VCmpxClassF64 = row(Vopc, "v_cmpx_class_f64", &[], &[VSrcF64, VS1]).float(1).only(RDNA), [WRITE_EXEC], [NONE, 0x0b8, 0x0ff, NONE, NONE, 0x0ff];
    VCmpxLtI16 = row(Vopc, "v_cmpx_lt_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x099, 0x0b1, NONE, NONE, 0x0b1];
    VCmpxEqI16 = row(Vopc, "v_cmpx_eq_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x09a, 0x0b2, NONE, NONE, 0x0b2];
    VCmpxLeI16 = row(Vopc, "v_cmpx_le_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x09b, 0x0b3, NONE, NONE, 0x0b3];
    VCmpxGtI16 = row(Vopc, "v_cmpx_gt_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x09c, 0x0b4, NONE, NONE, 0x0b4];
    VCmpxGeI16 = row(Vopc, "v_cmpx_ge_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x09e, 0x0b6, NONE, NONE, 0x0b6];
    VCmpxNeI16 = row(Vopc, "v_cmpx_ne_i16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x09d, 0x0b5, NONE, NONE, 0x0b5];
    VCmpxLtU16 = row(Vopc, "v_cmpx_lt_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b9, 0x0b9, NONE, NONE, 0x0b9];
    VCmpxEqU16 = row(Vopc, "v_cmpx_eq_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0ba, 0x0ba, NONE, NONE, 0x0ba];
    VCmpxLeU16 = row(Vopc, "v_cmpx_le_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0bb, 0x0bb, NONE, NONE, 0x0bb];
    VCmpxGtU16 = row(Vopc, "v_cmpx_gt_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0bc, 0x0bc, NONE, NONE, 0x0bc];
    VCmpxGeU16 = row(Vopc, "v_cmpx_ge_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0be, 0x0be, NONE, NONE, 0x0be];
    VCmpxNeU16 = row(Vopc, "v_cmpx_ne_u16", &[], &[VSrcI16, VSrcI16]).only(RDNA), [WRITE_EXEC], [NONE, 0x0bd, 0x0bd, NONE, NONE, 0x0bd];
    VCmpxFI32 = row(Vopc, "v_cmpx_f_i32", &[], &[VS1, VS1]).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x090, 0x0c0, NONE, NONE, NONE];
    VCmpxTI32 = row(Vopc, "v_cmpx_t_i32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x097, 0x0c7, NONE, NONE, NONE];
    VCmpxFU32 = row(Vopc, "v_cmpx_f_u32", &[], &[VS1, VS1]).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x0d0, 0x0c8, NONE, NONE, NONE];
    VCmpxTU32 = row(Vopc, "v_cmpx_t_u32", &[], &[VS1, VS1]).only(RDNA), [WRITE_EXEC], [NONE, 0x0d7, 0x0cf, NONE, NONE, NONE];
    VCmpxFI64 = row(Vopc, "v_cmpx_f_i64", &[], &[VS2, VS2]).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x0b0, 0x0d0, NONE, NONE, NONE];
    VCmpxTI64 = row(Vopc, "v_cmpx_t_i64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0b7, 0x0d7, NONE, NONE, NONE];
    VCmpxFU64 = row(Vopc, "v_cmpx_f_u64", &[], &[VS2, VS2]).without(READ_EXEC).only(RDNA), [WRITE_EXEC], [NONE, 0x0f0, 0x0d8, NONE, NONE, NONE];
    VCmpxTU64 = row(Vopc, "v_cmpx_t_u64", &[], &[VS2, VS2]).only(RDNA), [WRITE_EXEC], [NONE, 0x0f7, 0x0df, NONE, NONE, NONE];
    // The compares into EXEC of GCN 1.2 (and 1.0/1.1 where LLVM has them), which also write
    // the lane mask they name.
    VCmpxFF16Gcn = row(Vopc, "v_cmpx_f_f16", &[MD], &[VSrc16, VSrc16]).float(3).without(READ_EXEC).only(Targets::GFX8), [WRITE_EXEC], [0x030, NONE, NONE, NONE, NONE, NONE];
    VCmpxLtF16Gcn = row(Vopc, "v_cmpx_lt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x031, NONE, NONE, NONE, NONE, NONE];
    VCmpxEqF16Gcn = row(Vopc, "v_cmpx_eq_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x032, NONE, NONE, NONE, NONE, NONE];
    VCmpxLeF16Gcn = row(Vopc, "v_cmpx_le_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x033, NONE, NONE, NONE, NONE, NONE];
    VCmpxGtF16Gcn = row(Vopc, "v_cmpx_gt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x034, NONE, NONE, NONE, NONE, NONE];
    VCmpxLgF16Gcn = row(Vopc, "v_cmpx_lg_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x035, NONE, NONE, NONE, NONE, NONE];
    VCmpxGeF16Gcn = row(Vopc, "v_cmpx_ge_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x036, NONE, NONE, NONE, NONE, NONE];
    VCmpxOF16Gcn = row(Vopc, "v_cmpx_o_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x037, NONE, NONE, NONE, NONE, NONE];
    VCmpxUF16Gcn = row(Vopc, "v_cmpx_u_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x038, NONE, NONE, NONE, NONE, NONE];
    VCmpxNgeF16Gcn = row(Vopc, "v_cmpx_nge_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x039, NONE, NONE, NONE, NONE, NONE];
    VCmpxNlgF16Gcn = row(Vopc, "v_cmpx_nlg_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03a, NONE, NONE, NONE, NONE, NONE];
    VCmpxNgtF16Gcn = row(Vopc, "v_cmpx_ngt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03b, NONE, NONE, NONE, NONE, NONE];
    VCmpxNleF16Gcn = row(Vopc, "v_cmpx_nle_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03c, NONE, NONE, NONE, NONE, NONE];
    VCmpxNeqF16Gcn = row(Vopc, "v_cmpx_neq_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03d, NONE, NONE, NONE, NONE, NONE];
    VCmpxNltF16Gcn = row(Vopc, "v_cmpx_nlt_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03e, NONE, NONE, NONE, NONE, NONE];
    VCmpxTruF16Gcn = row(Vopc, "v_cmpx_tru_f16", &[MD], &[VSrc16, VSrc16]).float(3).only(Targets::GFX8), [WRITE_EXEC], [0x03f, NONE, NONE, NONE, NONE, NONE];
    VCmpxFF32Gcn = row(Vopc, "v_cmpx_f_f32", &[MD], &[VS1, VS1]).float(3).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x050, NONE, NONE, 0x010, 0x010, NONE];
    VCmpxLgF32Gcn = row(Vopc, "v_cmpx_lg_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x055, NONE, NONE, 0x015, 0x015, NONE];
    VCmpxNlgF32Gcn = row(Vopc, "v_cmpx_nlg_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05a, NONE, NONE, 0x01a, 0x01a, NONE];
    VCmpxTruF32Gcn = row(Vopc, "v_cmpx_tru_f32", &[MD], &[VS1, VS1]).float(3).only(GCN), [WRITE_EXEC], [0x05f, NONE, NONE, 0x01f, 0x01f, NONE];
    VCmpxFF64Gcn = row(Vopc, "v_cmpx_f_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x070, NONE, NONE, 0x030, 0x030, NONE];
    VCmpxLtF64Gcn = row(Vopc, "v_cmpx_lt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x071, NONE, NONE, 0x031, 0x031, NONE];
    VCmpxEqF64Gcn = row(Vopc, "v_cmpx_eq_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x072, NONE, NONE, 0x032, 0x032, NONE];
    VCmpxLeF64Gcn = row(Vopc, "v_cmpx_le_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x073, NONE, NONE, 0x033, 0x033, NONE];
    VCmpxGtF64Gcn = row(Vopc, "v_cmpx_gt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x074, NONE, NONE, 0x034, 0x034, NONE];
    VCmpxLgF64Gcn = row(Vopc, "v_cmpx_lg_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x075, NONE, NONE, 0x035, 0x035, NONE];
    VCmpxGeF64Gcn = row(Vopc, "v_cmpx_ge_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x076, NONE, NONE, 0x036, 0x036, NONE];
    VCmpxOF64Gcn = row(Vopc, "v_cmpx_o_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x077, NONE, NONE, 0x037, 0x037, NONE];
    VCmpxUF64Gcn = row(Vopc, "v_cmpx_u_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x078, NONE, NONE, 0x038, 0x038, NONE];
    VCmpxNgeF64Gcn = row(Vopc, "v_cmpx_nge_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x079, NONE, NONE, 0x039, 0x039, NONE];
    VCmpxNlgF64Gcn = row(Vopc, "v_cmpx_nlg_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07a, NONE, NONE, 0x03a, 0x03a, NONE];
    VCmpxNgtF64Gcn = row(Vopc, "v_cmpx_ngt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07b, NONE, NONE, 0x03b, 0x03b, NONE];
    VCmpxNleF64Gcn = row(Vopc, "v_cmpx_nle_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07c, NONE, NONE, 0x03c, 0x03c, NONE];
    VCmpxNeqF64Gcn = row(Vopc, "v_cmpx_neq_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07d, NONE, NONE, 0x03d, 0x03d, NONE];
    VCmpxNltF64Gcn = row(Vopc, "v_cmpx_nlt_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07e, NONE, NONE, 0x03e, 0x03e, NONE];
    VCmpxTruF64Gcn = row(Vopc, "v_cmpx_tru_f64", &[MD], &[VSrcF64, VSrcF64]).float(3).only(GCN), [WRITE_EXEC], [0x07f, NONE, NONE, 0x03f, 0x03f, NONE];
    VCmpxClassF64Gcn = row(Vopc, "v_cmpx_class_f64", &[MD], &[VSrcF64, VS1]).float(1).only(GCN), [WRITE_EXEC], [0x013, NONE, NONE, 0x0b8, 0x0b8, NONE];
    VCmpxFI16Gcn = row(Vopc, "v_cmpx_f_i16", &[MD], &[VSrcI16, VSrcI16]).without(READ_EXEC).only(Targets::GFX8), [WRITE_EXEC], [0x0b0, NONE, NONE, NONE, NONE, NONE];
    VCmpxLtI16Gcn = row(Vopc, "v_cmpx_lt_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b1, NONE, NONE, NONE, NONE, NONE];
    VCmpxEqI16Gcn = row(Vopc, "v_cmpx_eq_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b2, NONE, NONE, NONE, NONE, NONE];
    VCmpxLeI16Gcn = row(Vopc, "v_cmpx_le_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b3, NONE, NONE, NONE, NONE, NONE];
    VCmpxGtI16Gcn = row(Vopc, "v_cmpx_gt_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b4, NONE, NONE, NONE, NONE, NONE];
    VCmpxGeI16Gcn = row(Vopc, "v_cmpx_ge_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b6, NONE, NONE, NONE, NONE, NONE];
    VCmpxNeI16Gcn = row(Vopc, "v_cmpx_ne_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b5, NONE, NONE, NONE, NONE, NONE];
    VCmpxTI16Gcn = row(Vopc, "v_cmpx_t_i16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b7, NONE, NONE, NONE, NONE, NONE];
    VCmpxFU16Gcn = row(Vopc, "v_cmpx_f_u16", &[MD], &[VSrcI16, VSrcI16]).without(READ_EXEC).only(Targets::GFX8), [WRITE_EXEC], [0x0b8, NONE, NONE, NONE, NONE, NONE];
    VCmpxLtU16Gcn = row(Vopc, "v_cmpx_lt_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0b9, NONE, NONE, NONE, NONE, NONE];
    VCmpxEqU16Gcn = row(Vopc, "v_cmpx_eq_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0ba, NONE, NONE, NONE, NONE, NONE];
    VCmpxLeU16Gcn = row(Vopc, "v_cmpx_le_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0bb, NONE, NONE, NONE, NONE, NONE];
    VCmpxGtU16Gcn = row(Vopc, "v_cmpx_gt_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0bc, NONE, NONE, NONE, NONE, NONE];
    VCmpxGeU16Gcn = row(Vopc, "v_cmpx_ge_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0be, NONE, NONE, NONE, NONE, NONE];
    VCmpxNeU16Gcn = row(Vopc, "v_cmpx_ne_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0bd, NONE, NONE, NONE, NONE, NONE];
    VCmpxTU16Gcn = row(Vopc, "v_cmpx_t_u16", &[MD], &[VSrcI16, VSrcI16]).only(Targets::GFX8), [WRITE_EXEC], [0x0bf, NONE, NONE, NONE, NONE, NONE];
    VCmpxFI32Gcn = row(Vopc, "v_cmpx_f_i32", &[MD], &[VS1, VS1]).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x0d0, NONE, NONE, 0x090, 0x090, NONE];
    VCmpxTI32Gcn = row(Vopc, "v_cmpx_t_i32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0d7, NONE, NONE, 0x097, 0x097, NONE];
    VCmpxFU32Gcn = row(Vopc, "v_cmpx_f_u32", &[MD], &[VS1, VS1]).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x0d8, NONE, NONE, 0x0d0, 0x0d0, NONE];
    VCmpxTU32Gcn = row(Vopc, "v_cmpx_t_u32", &[MD], &[VS1, VS1]).only(GCN), [WRITE_EXEC], [0x0df, NONE, NONE, 0x0d7, 0x0d7, NONE];
    VCmpxFI64Gcn = row(Vopc, "v_cmpx_f_i64", &[MD], &[VS2, VS2]).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x0f0, NONE, NONE, 0x0b0, 0x0b0, NONE];
    VCmpxTI64Gcn = row(Vopc, "v_cmpx_t_i64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0f7, NONE, NONE, 0x0b7, 0x0b7, NONE];
    VCmpxFU64Gcn = row(Vopc, "v_cmpx_f_u64", &[MD], &[VS2, VS2]).without(READ_EXEC).only(GCN), [WRITE_EXEC], [0x0f8, NONE, NONE, 0x0f0, 0x0f0, NONE];
    VCmpxTU64Gcn = row(Vopc, "v_cmpx_t_u64", &[MD], &[VS2, VS2]).only(GCN), [WRITE_EXEC], [0x0ff, NONE, NONE, 0x0f7, 0x0f7, NONE];
    // f16 arithmetic of one source ("AMD GCN3 ISA", "RDNA2 ISA", "RDNA3 ISA", VOP1): a 16-bit
    // result in bits 15:0 (see `OpInfo::half_dst`); the f16 rules are the simulator's.
    VRcpF16 = row(Vop1, "v_rcp_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x17d, 0x1d4, 0x1d4, NONE, NONE, 0x1d4];
    VSqrtF16 = row(Vop1, "v_sqrt_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x17e, 0x1d5, 0x1d5, NONE, NONE, 0x1d5];
    VRsqF16 = row(Vop1, "v_rsq_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x17f, 0x1d6, 0x1d6, NONE, NONE, 0x1d6];
    VLogF16 = row(Vop1, "v_log_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x180, 0x1d7, 0x1d7, NONE, NONE, 0x1d7];
    VExpF16 = row(Vop1, "v_exp_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x181, 0x1d8, 0x1d8, NONE, NONE, 0x1d8];
    VFrexpMantF16 = row(Vop1, "v_frexp_mant_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x182, 0x1d9, 0x1d9, NONE, NONE, 0x1d9];
    VFrexpExpI16F16 = row(Vop1, "v_frexp_exp_i16_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x183, 0x1da, 0x1da, NONE, NONE, 0x1da];
    VFloorF16 = row(Vop1, "v_floor_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x184, 0x1db, 0x1db, NONE, NONE, 0x1db];
    VCeilF16 = row(Vop1, "v_ceil_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x185, 0x1dc, 0x1dc, NONE, NONE, 0x1dc];
    VTruncF16 = row(Vop1, "v_trunc_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x186, 0x1dd, 0x1dd, NONE, NONE, 0x1dd];
    VRndneF16 = row(Vop1, "v_rndne_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x187, 0x1de, 0x1de, NONE, NONE, 0x1de];
    VFractF16 = row(Vop1, "v_fract_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x188, 0x1df, 0x1df, NONE, NONE, 0x1df];
    VSinF16 = row(Vop1, "v_sin_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x189, 0x1e0, 0x1e0, NONE, NONE, 0x1e0];
    VCosF16 = row(Vop1, "v_cos_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x18a, 0x1e1, 0x1e1, NONE, NONE, 0x1e1];
    // Conversions to and from f16 and 16-bit integers.
    VCvtF16F32 = row(Vop1, "v_cvt_f16_f32", &[VD1], &[VS1]).float(1).half(), [], [0x14a, 0x18a, 0x18a, 0x18a, 0x18a, 0x18a];
    VCvtF32F16 = row(Vop1, "v_cvt_f32_f16", &[VD1], &[VSrc16]).float(1), [], [0x14b, 0x18b, 0x18b, 0x18b, 0x18b, 0x18b];
    VCvtF16U16 = row(Vop1, "v_cvt_f16_u16", &[VD1], &[VSrcI16]).half().only(GFX8_PLUS), [], [0x179, 0x1d0, 0x1d0, NONE, NONE, 0x1d0];
    VCvtF16I16 = row(Vop1, "v_cvt_f16_i16", &[VD1], &[VSrcI16]).half().only(GFX8_PLUS), [], [0x17a, 0x1d1, 0x1d1, NONE, NONE, 0x1d1];
    VCvtU16F16 = row(Vop1, "v_cvt_u16_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x17b, 0x1d2, 0x1d2, NONE, NONE, 0x1d2];
    VCvtI16F16 = row(Vop1, "v_cvt_i16_f16", &[VD1], &[VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x17c, 0x1d3, 0x1d3, NONE, NONE, 0x1d3];
    VCvtNormI16F16 = row(Vop1, "v_cvt_norm_i16_f16", &[VD1], &[VSrc16]).float(1).half().only(RDNA), [], [NONE, 0x1e3, 0x1e3, NONE, NONE, 0x1e3];
    VCvtNormU16F16 = row(Vop1, "v_cvt_norm_u16_f16", &[VD1], &[VSrc16]).float(1).half().only(RDNA), [], [NONE, 0x1e4, 0x1e4, NONE, NONE, 0x1e4];
    VSatPkU8I16 = row(Vop1, "v_sat_pk_u8_i16", &[VD1], &[VS1]).half().only(RDNA), [], [NONE, 0x1e2, 0x1e2, NONE, NONE, 0x1e2];
    VCvtI32I16 = row(Vop1, "v_cvt_i32_i16", &[VD1], &[VSrcI16]).only(Targets::GFX1100), [], [NONE, NONE, 0x1ea, NONE, NONE, 0x1ea];
    VNotB16 = row(Vop1, "v_not_b16", &[VD1], &[VSrcI16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x1e9, NONE, NONE, 0x1e9];
    // f64 arithmetic of one source and the conversions to and from f64 (a VGPR pair).
    VRcpF64 = row(Vop1, "v_rcp_f64", &[VD2], &[VSrcF64]).float(1), [], [0x165, 0x1af, 0x1af, 0x1af, 0x1af, 0x1af];
    VRsqF64 = row(Vop1, "v_rsq_f64", &[VD2], &[VSrcF64]).float(1), [], [0x166, 0x1b1, 0x1b1, 0x1b1, 0x1b1, 0x1b1];
    VSqrtF64 = row(Vop1, "v_sqrt_f64", &[VD2], &[VSrcF64]).float(1), [], [0x168, 0x1b4, 0x1b4, 0x1b4, 0x1b4, 0x1b4];
    VFloorF64 = row(Vop1, "v_floor_f64", &[VD2], &[VSrcF64]).float(1).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x15a, 0x19a, 0x19a, NONE, 0x19a, 0x19a];
    VCeilF64 = row(Vop1, "v_ceil_f64", &[VD2], &[VSrcF64]).float(1).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x158, 0x198, 0x198, NONE, 0x198, 0x198];
    VTruncF64 = row(Vop1, "v_trunc_f64", &[VD2], &[VSrcF64]).float(1).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x157, 0x197, 0x197, NONE, 0x197, 0x197];
    VRndneF64 = row(Vop1, "v_rndne_f64", &[VD2], &[VSrcF64]).float(1).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x159, 0x199, 0x199, NONE, 0x199, 0x199];
    VFractF64 = row(Vop1, "v_fract_f64", &[VD2], &[VSrcF64]).float(1), [], [0x172, 0x1be, 0x1be, 0x1be, 0x1be, 0x1be];
    VFrexpMantF64 = row(Vop1, "v_frexp_mant_f64", &[VD2], &[VSrcF64]).float(1), [], [0x171, 0x1bd, 0x1bd, 0x1bd, 0x1bd, 0x1bd];
    VFrexpExpI32F64 = row(Vop1, "v_frexp_exp_i32_f64", &[VD1], &[VSrcF64]).float(1), [], [0x170, 0x1bc, 0x1bc, 0x1bc, 0x1bc, 0x1bc];
    VCvtF32F64 = row(Vop1, "v_cvt_f32_f64", &[VD1], &[VSrcF64]).float(1), [], [0x14f, 0x18f, 0x18f, 0x18f, 0x18f, 0x18f];
    VCvtI32F64 = row(Vop1, "v_cvt_i32_f64", &[VD1], &[VSrcF64]).float(1), [], [0x143, 0x183, 0x183, 0x183, 0x183, 0x183];
    VCvtU32F64 = row(Vop1, "v_cvt_u32_f64", &[VD1], &[VSrcF64]).float(1), [], [0x155, 0x195, 0x195, 0x195, 0x195, 0x195];
    VCvtF64F32 = row(Vop1, "v_cvt_f64_f32", &[VD2], &[VS1]).float(1), [], [0x150, 0x190, 0x190, 0x190, 0x190, 0x190];
    VCvtF64I32 = row(Vop1, "v_cvt_f64_i32", &[VD2], &[VS1]), [], [0x144, 0x184, 0x184, 0x184, 0x184, 0x184];
    VCvtF64U32 = row(Vop1, "v_cvt_f64_u32", &[VD2], &[VS1]), [], [0x156, 0x196, 0x196, 0x196, 0x196, 0x196];
    // f32 instructions of one source: the frexp parts, rounding conversions (RDNA 3 renamed
    // them), the table of signed 4-bit offsets, the other bytes as floats and GCN 1.2's legacy
    // exponential and logarithm.
    VFrexpMantF32 = row(Vop1, "v_frexp_mant_f32", &[VD1], &[VS1]).float(1), [], [0x174, 0x1c0, 0x1c0, 0x1c0, 0x1c0, 0x1c0];
    VFrexpExpI32F32 = row(Vop1, "v_frexp_exp_i32_f32", &[VD1], &[VS1]).float(1), [], [0x173, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x1bf];
    VCvtFlrI32F32 = row(Vop1, "v_cvt_flr_i32_f32", &[VD1], &[VS1]).gfx11("v_cvt_floor_i32_f32").float(1), [], [0x14d, 0x18d, 0x18d, 0x18d, 0x18d, 0x18d];
    VCvtRpiI32F32 = row(Vop1, "v_cvt_rpi_i32_f32", &[VD1], &[VS1]).gfx11("v_cvt_nearest_i32_f32").float(1), [], [0x14c, 0x18c, 0x18c, 0x18c, 0x18c, 0x18c];
    VCvtOffF32I4 = row(Vop1, "v_cvt_off_f32_i4", &[VD1], &[VS1]), [], [0x14e, 0x18e, 0x18e, 0x18e, 0x18e, 0x18e];
    VCvtF32Ubyte1 = row(Vop1, "v_cvt_f32_ubyte1", &[VD1], &[VS1]), [], [0x152, 0x192, 0x192, 0x192, 0x192, 0x192];
    VCvtF32Ubyte2 = row(Vop1, "v_cvt_f32_ubyte2", &[VD1], &[VS1]), [], [0x153, 0x193, 0x193, 0x193, 0x193, 0x193];
    VCvtF32Ubyte3 = row(Vop1, "v_cvt_f32_ubyte3", &[VD1], &[VS1]), [], [0x154, 0x194, 0x194, 0x194, 0x194, 0x194];
    VExpLegacyF32 = row(Vop1, "v_exp_legacy_f32", &[VD1], &[VS1]).float(1).only(GFX7_8), [], [0x18b, NONE, NONE, NONE, 0x1c6, NONE];
    VLogLegacyF32 = row(Vop1, "v_log_legacy_f32", &[VD1], &[VS1]).float(1).only(GFX7_8), [], [0x18c, NONE, NONE, NONE, 0x1c5, NONE];
    // The lowest set bit (RDNA 3's `v_ctz_i32_b32`).
    VFfblB32 = row(Vop1, "v_ffbl_b32", &[VD1], &[VS1]).gfx11("v_ctz_i32_b32"), [], [0x16e, 0x1ba, 0x1ba, 0x1ba, 0x1ba, 0x1ba];
    // Moves with a VGPR index relative to M0: `v_movrels_b32` reads VGPR[S0 + M0], `v_movreld_b32`
    // writes VGPR[D + M0], `v_movrelsd_b32` both; RDNA's `v_movrelsd_2_b32` and `v_swaprel_b32`
    // take the source index from M0[9:0] and the destination index from M0[25:16].
    VMovrelsB32 = row(Vop1, "v_movrels_b32", &[VD1], &[VV1]), [READ_M0], [0x177, 0x1c3, 0x1c3, 0x1c3, 0x1c3, 0x1c3];
    VMovreldB32 = row(Vop1, "v_movreld_b32", &[VD1], &[VS1]), [READ_M0], [0x176, 0x1c2, 0x1c2, 0x1c2, 0x1c2, 0x1c2];
    VMovrelsdB32 = row(Vop1, "v_movrelsd_b32", &[VD1], &[VV1]), [READ_M0], [0x178, 0x1c4, 0x1c4, 0x1c4, 0x1c4, 0x1c4];
    VMovrelsd2B32 = row(Vop1, "v_movrelsd_2_b32", &[VD1], &[VV1]).only(RDNA), [READ_M0], [NONE, 0x1c8, 0x1c8, NONE, NONE, 0x1c8];
    VSwaprelB32 = row(Vop1, "v_swaprel_b32", &[VD1], &[VV1]).e32_only().only(RDNA), [READ_M0, READ_DST], [NONE, 0x1e8, 0x1e8, NONE, NONE, 0x1e8];
    // RDNA 3's exchange of the two halves of a wave64 (no operation in wave32).
    VPermlane64B32 = row(Vop1, "v_permlane64_b32", &[VD1], &[VV1]).e32_only().only(Targets::GFX1100), [], [NONE, NONE, 0x1e7, NONE, NONE, 0x1e7];
    // No-ops: `v_nop`, RDNA's `v_pipeflush` and `v_clrexcp`, which clears exception flags the
    // model does not keep.
    VNop = row(Vop1, "v_nop", &[], &[]).without(READ_EXEC), [], [0x140, 0x180, 0x180, 0x180, 0x180, 0x180];
    VPipeflush = row(Vop1, "v_pipeflush", &[], &[]).without(READ_EXEC).only(RDNA), [], [NONE, 0x19b, 0x19b, NONE, NONE, 0x19b];
    VClrexcp = row(Vop1, "v_clrexcp", &[], &[]).without(READ_EXEC).only(GCN.or(Targets::GFX1030)), [], [0x175, 0x1c1, NONE, 0x1c1, 0x1c1, NONE];
    // f16 arithmetic of two sources (VOP2 on every target), with a 16-bit result.
    VAddF16 = row(Vop2, "v_add_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS), [], [0x11f, 0x132, 0x132, NONE, NONE, 0x132];
    VSubF16 = row(Vop2, "v_sub_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS), [], [0x120, 0x133, 0x133, NONE, NONE, 0x133];
    VSubrevF16 = row(Vop2, "v_subrev_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS), [], [0x121, 0x134, 0x134, NONE, NONE, 0x134];
    VMulF16 = row(Vop2, "v_mul_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS), [], [0x122, 0x135, 0x135, NONE, NONE, 0x135];
    VMaxF16 = row(Vop2, "v_max_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS).gfx12("v_max_num_f16"), [], [0x12d, 0x139, 0x139, NONE, NONE, 0x131];
    VMinF16 = row(Vop2, "v_min_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(GFX8_PLUS).gfx12("v_min_num_f16"), [], [0x12e, 0x13a, 0x13a, NONE, NONE, 0x130];
    VLdexpF16 = row(Vop2, "v_ldexp_f16", &[VD1], &[VSrc16, VSrc16]).float(1).half().only(GFX8_PLUS), [], [0x133, 0x13b, 0x13b, NONE, NONE, 0x13b];
    // 16-bit integer arithmetic: VOP2 on GCN 1.2, VOP3-only on RDNA (which renamed the adds and
    // subtractions `_nc_`); `v_subrev_u16` is GCN 1.2's alone.
    VAddU16 = row(Vop2, "v_add_nc_u16", &[VD1], &[VSrcI16, VSrcI16]).gfx8("v_add_u16").rdna_vop3().only(GFX8_PLUS), [], [0x126, 0x303, 0x303, NONE, NONE, 0x303];
    VSubU16 = row(Vop2, "v_sub_nc_u16", &[VD1], &[VSrcI16, VSrcI16]).gfx8("v_sub_u16").rdna_vop3().only(GFX8_PLUS), [], [0x127, 0x304, 0x304, NONE, NONE, 0x304];
    VSubrevU16 = row(Vop2, "v_subrev_u16", &[VD1], &[VSrcI16, VSrcI16]).half().only(Targets::GFX8), [], [0x128, NONE, NONE, NONE, NONE, NONE];
    VMulLoU16 = row(Vop2, "v_mul_lo_u16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x129, 0x305, 0x305, NONE, NONE, 0x305];
    VMaxU16 = row(Vop2, "v_max_u16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x12f, 0x309, 0x309, NONE, NONE, 0x309];
    VMaxI16 = row(Vop2, "v_max_i16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x130, 0x30a, 0x30a, NONE, NONE, 0x30a];
    VMinU16 = row(Vop2, "v_min_u16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x131, 0x30b, 0x30b, NONE, NONE, 0x30b];
    VMinI16 = row(Vop2, "v_min_i16", &[VD1], &[VSrcI16, VSrcI16]).rdna_vop3().only(GFX8_PLUS), [], [0x132, 0x30c, 0x30c, NONE, NONE, 0x30c];
    // f16 multiply-adds into the destination and with a constant K: GCN 1.2's `mad` forms round
    // the product first, RDNA's `fma` forms are fused.
    VMacF16 = row(Vop2, "v_mac_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(Targets::GFX8), [READ_DST], [0x123, NONE, NONE, NONE, NONE, NONE];
    VMadmkF16 = row(Vop2, "v_madmk_f16", &[VD1], &[VSrc16, KImm16, VV1]).half().e32_only().only(Targets::GFX8), [], [0x124, NONE, NONE, NONE, NONE, NONE];
    VMadakF16 = row(Vop2, "v_madak_f16", &[VD1], &[VSrc16, VV1, KImm16]).half().e32_only().only(Targets::GFX8), [], [0x125, NONE, NONE, NONE, NONE, NONE];
    VFmacF16 = row(Vop2, "v_fmac_f16", &[VD1], &[VSrc16, VSrc16]).float(3).half().only(RDNA), [READ_DST], [NONE, 0x136, 0x136, NONE, NONE, 0x136];
    VFmamkF16 = row(Vop2, "v_fmamk_f16", &[VD1], &[VSrc16, KImm16, VV1]).half().e32_only().only(RDNA), [], [NONE, 0x137, 0x137, NONE, NONE, 0x137];
    VFmaakF16 = row(Vop2, "v_fmaak_f16", &[VD1], &[VSrc16, VV1, KImm16]).half().e32_only().only(RDNA), [], [NONE, 0x138, 0x138, NONE, NONE, 0x138];
    // RDNA's packed and dot-product accumulations into the destination, and the DX9 fused
    // multiply-add into the destination (RDNA 2's `v_fmac_legacy_f32`).
    VPkFmacF16 = row(Vop2, "v_pk_fmac_f16", &[VD1], &[VSrcPkF16, VSrcPkF16]).e32_only().only(RDNA), [READ_DST], [NONE, 0x13c, 0x13c, NONE, NONE, 0x13c];
    VDot2cF32F16 = row(Vop2, "v_dot2c_f32_f16", &[VD1], &[VSrcPkF16, VSrcPkF16]).gfx11("v_dot2acc_f32_f16").e32_only().only(RDNA), [READ_DST], [NONE, 0x102, 0x102, NONE, NONE, NONE];
    VDot4cI32I8 = row(Vop2, "v_dot4c_i32_i8", &[VD1], &[VS1, VS1]).e32_only().only(Targets::GFX1030), [READ_DST], [NONE, 0x10d, NONE, NONE, NONE, NONE];
    VFmacLegacyF32 = row(Vop2, "v_fmac_legacy_f32", &[VD1], &[VS1, VS1]).gfx11("v_fmac_dx9_zero_f32").float(3).only(RDNA), [READ_DST], [NONE, 0x106, 0x106, NONE, NONE, NONE];
    // Two f32 values rounded towards zero to f16 and packed (S0 in bits 15:0): VOP3-only on GCN
    // 1.2, VOP2 on RDNA (and on GCN 1.0/1.1).
    VCvtPkrtzF16F32 = row(Vop3, "v_cvt_pkrtz_f16_f32", &[VD1], &[VS1, VS1]).gfx11("v_cvt_pk_rtz_f16_f32").float(3).rdna_vop2().only(GFX8_PLUS).gcn1_vop2(true), [], [0x296, 0x12f, 0x12f, 0x12f, 0x12f, 0x12f];
    // f64 arithmetic of two and three sources ("AMD GCN3 ISA", "RDNA2 ISA", "RDNA3 ISA", VOP3).
    VAddF64 = row(Vop3, "v_add_f64", &[VD2], &[VSrcF64, VSrcF64]).float(3).gfx12_vop2(), [], [0x280, 0x164, 0x327, 0x164, 0x164, 0x102];
    VMulF64 = row(Vop3, "v_mul_f64", &[VD2], &[VSrcF64, VSrcF64]).float(3).gfx12_vop2(), [], [0x281, 0x165, 0x328, 0x165, 0x165, 0x106];
    VMinF64 = row(Vop3, "v_min_f64", &[VD2], &[VSrcF64, VSrcF64]).float(3).gfx12("v_min_num_f64").gfx12_vop2(), [], [0x282, 0x166, 0x329, 0x166, 0x166, 0x10d];
    VMaxF64 = row(Vop3, "v_max_f64", &[VD2], &[VSrcF64, VSrcF64]).float(3).gfx12("v_max_num_f64").gfx12_vop2(), [], [0x283, 0x167, 0x32a, 0x167, 0x167, 0x10e];
    VFmaF64 = row(Vop3, "v_fma_f64", &[VD2], &[VSrcF64, VSrcF64, VSrcF64]).float(7), [], [0x1cc, 0x14c, 0x214, 0x14c, 0x14c, 0x214];
    VLdexpF64 = row(Vop3, "v_ldexp_f64", &[VD2], &[VSrcF64, VS1]).float(1), [], [0x284, 0x168, 0x32b, 0x168, 0x168, 0x32b];
    VDivScaleF64 = row(Vop3, "v_div_scale_f64", &[VD2, MD], &[VSrcF64, VSrcF64, VSrcF64]).float(7), [], [0x1e1, 0x16e, 0x2fd, 0x16e, 0x16e, 0x2fd];
    VDivFmasF64 = row(Vop3, "v_div_fmas_f64", &[VD2], &[VSrcF64, VSrcF64, VSrcF64]).float(7), [READ_VCC], [0x1e3, 0x170, 0x238, 0x170, 0x170, 0x238];
    VDivFixupF64 = row(Vop3, "v_div_fixup_f64", &[VD2], &[VSrcF64, VSrcF64, VSrcF64]).float(7), [], [0x1df, 0x160, 0x228, 0x160, 0x160, 0x228];
    VTrigPreopF64 = row(Vop3, "v_trig_preop_f64", &[VD2], &[VSrcF64, VS1]).float(1), [], [0x292, 0x174, 0x32f, 0x174, 0x174, 0x32f];
    // f16 arithmetic of three sources, with a 16-bit result.
    VFmaF16 = row(Vop3, "v_fma_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(GFX8_PLUS), [], [0x1ee, 0x34b, 0x248, NONE, NONE, 0x248];
    VMadF16 = row(Vop3, "v_mad_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(Targets::GFX8), [], [0x1ea, NONE, NONE, NONE, NONE, NONE];
    VDivFixupF16 = row(Vop3, "v_div_fixup_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(GFX8_PLUS), [], [0x1ef, 0x35f, 0x254, NONE, NONE, 0x254];
    VMin3F16 = row(Vop3, "v_min3_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(RDNA).gfx12("v_min3_num_f16"), [], [NONE, 0x351, 0x249, NONE, NONE, 0x22b];
    VMax3F16 = row(Vop3, "v_max3_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(RDNA).gfx12("v_max3_num_f16"), [], [NONE, 0x354, 0x24c, NONE, NONE, 0x22c];
    VMed3F16 = row(Vop3, "v_med3_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(RDNA).gfx12("v_med3_num_f16"), [], [NONE, 0x357, 0x24f, NONE, NONE, 0x232];
    VMaxminF16 = row(Vop3, "v_maxmin_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(Targets::GFX1100).gfx12("v_maxmin_num_f16"), [], [NONE, NONE, 0x260, NONE, NONE, 0x26b];
    VMinmaxF16 = row(Vop3, "v_minmax_f16", &[VD1], &[VSrc16, VSrc16, VSrc16]).float(7).half().only(Targets::GFX1100).gfx12("v_minmax_num_f16"), [], [NONE, NONE, 0x261, NONE, NONE, 0x26a];
    VCndmaskB16 = row(Vop3, "v_cndmask_b16", &[VD1], &[VSrcI16, VSrcI16, MS]).float(3).half().only(Targets::GFX1100), [], [NONE, NONE, 0x25d, NONE, NONE, 0x25d];
    // RDNA 3's dot products of packed f16 and bf16 pairs with a 16-bit accumulator.
    VDot2F16F16 = row(Vop3, "v_dot2_f16_f16", &[VD1], &[VSrcPkF16, VSrcPkF16, VSrc16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x266, NONE, NONE, 0x266];
    VDot2Bf16Bf16 = row(Vop3, "v_dot2_bf16_bf16", &[VD1], &[VSrcBF16, VSrcBF16, VSrcBF16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x267, NONE, NONE, 0x267];
    // 16-bit integer arithmetic of RDNA (VOP3), with a 16-bit result.
    VMadU16 = row(Vop3, "v_mad_u16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(GFX8_PLUS), [], [0x1eb, 0x340, 0x241, NONE, NONE, 0x241];
    VMadI16 = row(Vop3, "v_mad_i16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(GFX8_PLUS), [], [0x1ec, 0x35e, 0x253, NONE, NONE, 0x253];
    VAddNcI16 = row(Vop3, "v_add_nc_i16", &[VD1], &[VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x30d, 0x30d, NONE, NONE, 0x30d];
    VSubNcI16 = row(Vop3, "v_sub_nc_i16", &[VD1], &[VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x30e, 0x30e, NONE, NONE, 0x30e];
    VMin3I16 = row(Vop3, "v_min3_i16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x352, 0x24a, NONE, NONE, 0x24a];
    VMin3U16 = row(Vop3, "v_min3_u16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x353, 0x24b, NONE, NONE, 0x24b];
    VMax3I16 = row(Vop3, "v_max3_i16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x355, 0x24d, NONE, NONE, 0x24d];
    VMax3U16 = row(Vop3, "v_max3_u16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x356, 0x24e, NONE, NONE, 0x24e];
    VMed3I16 = row(Vop3, "v_med3_i16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x358, 0x250, NONE, NONE, 0x250];
    VMed3U16 = row(Vop3, "v_med3_u16", &[VD1], &[VSrcI16, VSrcI16, VSrcI16]).half().only(RDNA), [], [NONE, 0x359, 0x251, NONE, NONE, 0x251];
    VAndB16 = row(Vop3, "v_and_b16", &[VD1], &[VSrcI16, VSrcI16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x362, NONE, NONE, 0x362];
    VOrB16 = row(Vop3, "v_or_b16", &[VD1], &[VSrcI16, VSrcI16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x363, NONE, NONE, 0x363];
    VXorB16 = row(Vop3, "v_xor_b16", &[VD1], &[VSrcI16, VSrcI16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x364, NONE, NONE, 0x364];
    VMadU32U16 = row(Vop3, "v_mad_u32_u16", &[VD1], &[VSrcI16, VSrcI16, VS1]).only(RDNA), [], [NONE, 0x373, 0x259, NONE, NONE, 0x259];
    VMadI32I16 = row(Vop3, "v_mad_i32_i16", &[VD1], &[VSrcI16, VSrcI16, VS1]).only(RDNA), [], [NONE, 0x375, 0x25a, NONE, NONE, 0x25a];
    // 32-bit integer arithmetic: RDNA's signed adds without carry, the 24-bit multiply-add,
    // RDNA 3's two-step min/max, byte alignment and bit-field masks.
    VAddNcI32 = row(Vop3, "v_add_nc_i32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x37f, 0x326, NONE, NONE, 0x326];
    VSubNcI32 = row(Vop3, "v_sub_nc_i32", &[VD1], &[VS1, VS1]).only(RDNA), [], [NONE, 0x376, 0x325, NONE, NONE, 0x325];
    VMadI32I24 = row(Vop3, "v_mad_i32_i24", &[VD1], &[VS1, VS1, VS1]), [], [0x1c2, 0x142, 0x20a, 0x142, 0x142, 0x20a];
    VMaxminI32 = row(Vop3, "v_maxmin_i32", &[VD1], &[VS1, VS1, VS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x264, NONE, NONE, 0x264];
    VMinmaxI32 = row(Vop3, "v_minmax_i32", &[VD1], &[VS1, VS1, VS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x265, NONE, NONE, 0x265];
    VMaxminU32 = row(Vop3, "v_maxmin_u32", &[VD1], &[VS1, VS1, VS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x262, NONE, NONE, 0x262];
    VMinmaxU32 = row(Vop3, "v_minmax_u32", &[VD1], &[VS1, VS1, VS1]).only(Targets::GFX1100), [], [NONE, NONE, 0x263, NONE, NONE, 0x263];
    VAlignbyteB32 = row(Vop3, "v_alignbyte_b32", &[VD1], &[VS1, VS1, VS1]), [], [0x1cf, 0x14f, 0x217, 0x14f, 0x14f, 0x217];
    VBfmB32 = row(Vop3, "v_bfm_b32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS).gcn1_vop2(true), [], [0x293, 0x363, 0x31d, 0x11e, 0x11e, 0x31d];
    // Media instructions: sums of absolute differences, byte interpolation.
    VSadU8 = row(Vop3, "v_sad_u8", &[VD1], &[VS1, VS1, VS1]), [], [0x1d9, 0x15a, 0x222, 0x15a, 0x15a, 0x222];
    VSadHiU8 = row(Vop3, "v_sad_hi_u8", &[VD1], &[VS1, VS1, VS1]), [], [0x1da, 0x15b, 0x223, 0x15b, 0x15b, 0x223];
    VSadU16 = row(Vop3, "v_sad_u16", &[VD1], &[VS1, VS1, VS1]), [], [0x1db, 0x15c, 0x224, 0x15c, 0x15c, 0x224];
    VSadU32 = row(Vop3, "v_sad_u32", &[VD1], &[VS1, VS1, VS1]), [], [0x1dc, 0x15d, 0x225, 0x15d, 0x15d, 0x225];
    VMsadU8 = row(Vop3, "v_msad_u8", &[VD1], &[VS1, VS1, VS1]), [], [0x1e4, 0x171, 0x239, 0x171, 0x171, 0x239];
    VQsadPkU16U8 = row(Vop3, "v_qsad_pk_u16_u8", &[VD2], &[VS2, VS1, VS2]).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x1e5, 0x172, 0x23a, NONE, 0x172, 0x23a];
    VMqsadPkU16U8 = row(Vop3, "v_mqsad_pk_u16_u8", &[VD2], &[VS2, VS1, VS2]), [], [0x1e6, 0x173, 0x23b, 0x173, 0x173, 0x23b];
    VMqsadU32U8 = row(Vop3, "v_mqsad_u32_u8", &[VD4], &[VS2, VS1, VV4]).only(GFX8_PLUS.or(Targets::GFX7)), [], [0x1e7, 0x175, 0x23d, NONE, 0x175, 0x23d];
    VLerpU8 = row(Vop3, "v_lerp_u8", &[VD1], &[VS1, VS1, VS1]), [], [0x1cd, 0x14d, 0x215, 0x14d, 0x14d, 0x215];
    // f32 instructions of three sources: cube-map coordinates, the DX9 multiply-adds whose zero
    // wins over inf and NaN, RDNA's lighting multiply.
    VCubeidF32 = row(Vop3, "v_cubeid_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1c4, 0x144, 0x20c, 0x144, 0x144, 0x20c];
    VCubescF32 = row(Vop3, "v_cubesc_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1c5, 0x145, 0x20d, 0x145, 0x145, 0x20d];
    VCubetcF32 = row(Vop3, "v_cubetc_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1c6, 0x146, 0x20e, 0x146, 0x146, 0x20e];
    VCubemaF32 = row(Vop3, "v_cubema_f32", &[VD1], &[VS1, VS1, VS1]).float(7), [], [0x1c7, 0x147, 0x20f, 0x147, 0x147, 0x20f];
    VMadLegacyF32 = row(Vop3, "v_mad_legacy_f32", &[VD1], &[VS1, VS1, VS1]).float(7).only(GCN), [], [0x1c0, NONE, NONE, 0x140, 0x140, NONE];
    VFmaLegacyF32 = row(Vop3, "v_fma_legacy_f32", &[VD1], &[VS1, VS1, VS1]).gfx11("v_fma_dx9_zero_f32").float(7).only(RDNA), [], [NONE, 0x140, 0x209, NONE, NONE, 0x209];
    VMullitF32 = row(Vop3, "v_mullit_f32", &[VD1], &[VS1, VS1, VS1]).float(7).only(RDNA.or(GCN1)), [], [NONE, 0x150, 0x218, 0x150, 0x150, 0x218];
    // Conversions that pack: f32 to a byte of S2 or D, to normalised or saturated 16-bit halves,
    // f16 halves, and 32-bit integers to saturated 16-bit halves.
    VCvtPkU8F32 = row(Vop3, "v_cvt_pk_u8_f32", &[VD1], &[VS1, VS1, VS1]).float(1), [], [0x1dd, 0x15e, 0x226, 0x15e, 0x15e, 0x226];
    VCvtPkaccumU8F32 = row(Vop3, "v_cvt_pkaccum_u8_f32", &[VD1], &[VS1, VS1]).float(1).only(Targets::GFX8).gcn1_vop2(true), [READ_DST], [0x1f0, NONE, NONE, 0x12c, 0x12c, NONE];
    VCvtPknormI16F32 = row(Vop3, "v_cvt_pknorm_i16_f32", &[VD1], &[VS1, VS1]).gfx11("v_cvt_pk_norm_i16_f32").float(3).only(GFX8_PLUS).gcn1_vop2(true), [], [0x294, 0x368, 0x321, 0x12d, 0x12d, 0x321];
    VCvtPknormU16F32 = row(Vop3, "v_cvt_pknorm_u16_f32", &[VD1], &[VS1, VS1]).gfx11("v_cvt_pk_norm_u16_f32").float(3).only(GFX8_PLUS).gcn1_vop2(true), [], [0x295, 0x369, 0x322, 0x12e, 0x12e, 0x322];
    VCvtPknormI16F16 = row(Vop3, "v_cvt_pknorm_i16_f16", &[VD1], &[VSrc16, VSrc16]).gfx11("v_cvt_pk_norm_i16_f16").float(3).only(RDNA), [], [NONE, 0x312, 0x312, NONE, NONE, 0x312];
    VCvtPknormU16F16 = row(Vop3, "v_cvt_pknorm_u16_f16", &[VD1], &[VSrc16, VSrc16]).gfx11("v_cvt_pk_norm_u16_f16").float(3).only(RDNA), [], [NONE, 0x313, 0x313, NONE, NONE, 0x313];
    VCvtPkI16F32 = row(Vop3, "v_cvt_pk_i16_f32", &[VD1], &[VS1, VS1]).float(3).only(Targets::GFX1100), [], [NONE, NONE, 0x306, NONE, NONE, 0x306];
    VCvtPkU16F32 = row(Vop3, "v_cvt_pk_u16_f32", &[VD1], &[VS1, VS1]).float(3).only(Targets::GFX1100), [], [NONE, NONE, 0x307, NONE, NONE, 0x307];
    VCvtPkI16I32 = row(Vop3, "v_cvt_pk_i16_i32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS).gcn1_vop2(true), [], [0x298, 0x36b, 0x324, 0x131, 0x131, 0x324];
    VCvtPkU16U32 = row(Vop3, "v_cvt_pk_u16_u32", &[VD1], &[VS1, VS1]).only(GFX8_PLUS).gcn1_vop2(true), [], [0x297, 0x36a, 0x323, 0x130, 0x130, 0x323];
    VPackB32F16 = row(Vop3, "v_pack_b32_f16", &[VD1], &[VSrc16, VSrc16]).float(3).only(RDNA), [], [NONE, 0x311, 0x311, NONE, NONE, 0x311];
    // RDNA's lane permutations within rows of 16 lanes (`x16`: across the two rows of 32), the
    // lane selects in S1 and S2; a lane whose source lane is inactive keeps its destination.
    VPermlane16B32 = row(Vop3, "v_permlane16_b32", &[VD1], &[VV1, SS1, SS1]).only(RDNA), [READ_DST], [NONE, 0x377, 0x25b, NONE, NONE, 0x25b];
    VPermlanex16B32 = row(Vop3, "v_permlanex16_b32", &[VD1], &[VV1, SS1, SS1]).only(RDNA), [READ_DST], [NONE, 0x378, 0x25c, NONE, NONE, 0x25c];
    // RDNA 4 only ("RDNA 4 Instruction Set Architecture", the SOPP, SOP1, SOP2, SOPC, SMEM and
    // VOP3 opcode tables). The waits, one per counter, replace `s_waitcnt`; the immediate is
    // the count to wait for (`s_wait_loadcnt_dscnt`: LOADcnt in 13:8, DScnt in 5:0).
    SWaitLoadcnt = row(Sopp, "s_wait_loadcnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x040];
    SWaitStorecnt = row(Sopp, "s_wait_storecnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x041];
    SWaitSamplecnt = row(Sopp, "s_wait_samplecnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x042];
    SWaitBvhcnt = row(Sopp, "s_wait_bvhcnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x043];
    SWaitExpcnt = row(Sopp, "s_wait_expcnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x044];
    SWaitDscnt = row(Sopp, "s_wait_dscnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x046];
    SWaitKmcnt = row(Sopp, "s_wait_kmcnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x047];
    SWaitLoadcntDscnt = row(Sopp, "s_wait_loadcnt_dscnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x048];
    SWaitStorecntDscnt = row(Sopp, "s_wait_storecnt_dscnt", &[], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x049];
    SWaitIdle = row(Sopp, "s_wait_idle", &[], &[]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x00a];
    // The float fields of the MODE register: FP_ROUND (3:0) and FP_DENORM (7:4) from the
    // immediate's bits 3:0 (S_ROUND_MODE, S_DENORM_MODE). Modelled on RDNA 4 alone, where the
    // simulator's scalar float arithmetic follows them (RDNA 2 and 3 have them too).
    SRoundMode = row(Sopp, "s_round_mode", &[], &[Imm16]).class(Class::Salu).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x011];
    SDenormMode = row(Sopp, "s_denorm_mode", &[], &[Imm16]).class(Class::Salu).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x012];
    // A field of a hardware register read into an SGPR (the SIMM16 as `s_setreg_b32`'s);
    // modelled for MODE's float fields on RDNA 4.
    SGetregB32 = row(Sopk, "s_getreg_b32", &[SD1], &[Imm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x011];
    // Scalar f32 arithmetic, rounded and flushed as the MODE register says.
    SCvtF32I32 = row(Sop1, "s_cvt_f32_i32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x064];
    SCvtF32U32 = row(Sop1, "s_cvt_f32_u32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x065];
    SCvtI32F32 = row(Sop1, "s_cvt_i32_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x066];
    SCvtU32F32 = row(Sop1, "s_cvt_u32_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x067];
    SCeilF32 = row(Sop1, "s_ceil_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x060];
    SFloorF32 = row(Sop1, "s_floor_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x061];
    STruncF32 = row(Sop1, "s_trunc_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x062];
    SRndneF32 = row(Sop1, "s_rndne_f32", &[SD1], &[SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x063];
    SAddF32 = row(Sop2, "s_add_f32", &[SD1], &[SS1, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x040];
    SSubF32 = row(Sop2, "s_sub_f32", &[SD1], &[SS1, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x041];
    SMinNumF32 = row(Sop2, "s_min_num_f32", &[SD1], &[SS1, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x042];
    SMaxNumF32 = row(Sop2, "s_max_num_f32", &[SD1], &[SS1, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x043];
    SMulF32 = row(Sop2, "s_mul_f32", &[SD1], &[SS1, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x044];
    SFmaakF32 = row(Sop2, "s_fmaak_f32", &[SD1], &[SS1, SS1, KImm]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x045];
    SFmamkF32 = row(Sop2, "s_fmamk_f32", &[SD1], &[SS1, KImm, SS1]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x046];
    SFmacF32 = row(Sop2, "s_fmac_f32", &[SD1], &[SS1, SS1]).only(GFX12), [READ_DST], [NONE, NONE, NONE, NONE, NONE, 0x047];
    SCmpLtF32 = row(Sopc, "s_cmp_lt_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x041];
    SCmpEqF32 = row(Sopc, "s_cmp_eq_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x042];
    SCmpLeF32 = row(Sopc, "s_cmp_le_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x043];
    SCmpGtF32 = row(Sopc, "s_cmp_gt_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x044];
    SCmpLgF32 = row(Sopc, "s_cmp_lg_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x045];
    SCmpGeF32 = row(Sopc, "s_cmp_ge_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x046];
    SCmpOF32 = row(Sopc, "s_cmp_o_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x047];
    SCmpUF32 = row(Sopc, "s_cmp_u_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x048];
    SCmpNgeF32 = row(Sopc, "s_cmp_nge_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x049];
    SCmpNlgF32 = row(Sopc, "s_cmp_nlg_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x04a];
    SCmpNgtF32 = row(Sopc, "s_cmp_ngt_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x04b];
    SCmpNleF32 = row(Sopc, "s_cmp_nle_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x04c];
    SCmpNeqF32 = row(Sopc, "s_cmp_neq_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x04d];
    SCmpNltF32 = row(Sopc, "s_cmp_nlt_f32", &[], &[SS1, SS1]).only(GFX12), [WRITE_SCC], [NONE, NONE, NONE, NONE, NONE, 0x04e];
    // 64-bit scalar integer arithmetic without a carry.
    SAddNcU64 = row(Sop2, "s_add_nc_u64", &[SD2], &[SS2, SS2]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x053];
    SSubNcU64 = row(Sop2, "s_sub_nc_u64", &[SD2], &[SS2, SS2]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x054];
    SMulU64 = row(Sop2, "s_mul_u64", &[SD2], &[SS2, SS2]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x055];
    // Transcendentals of one scalar value, computed by the vector ALU (VOP3, an SGPR result).
    VSExpF32 = row(Vop3, "v_s_exp_f32", &[SD1], &[SS1]).float(1).without(READ_EXEC).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x280];
    VSLogF32 = row(Vop3, "v_s_log_f32", &[SD1], &[SS1]).float(1).without(READ_EXEC).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x282];
    VSRcpF32 = row(Vop3, "v_s_rcp_f32", &[SD1], &[SS1]).float(1).without(READ_EXEC).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x284];
    VSRsqF32 = row(Vop3, "v_s_rsq_f32", &[SD1], &[SS1]).float(1).without(READ_EXEC).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x286];
    VSSqrtF32 = row(Vop3, "v_s_sqrt_f32", &[SD1], &[SS1]).float(1).without(READ_EXEC).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x288];
    // The work-group barrier split in two ("RDNA 4 Instruction Set Architecture",
    // S_BARRIER_SIGNAL and S_BARRIER_WAIT; -1 names the work-group's barrier, as llc-19
    // writes it), and the cache write-back and invalidation of global memory.
    SBarrierSignal = row(Sop1, "s_barrier_signal", &[], &[SS1]).only(GFX12).class(Class::Control), [], [NONE, NONE, NONE, NONE, NONE, 0x04e];
    SBarrierWait = row(Sopp, "s_barrier_wait", &[], &[Simm16]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x014];
    GlobalInv = row(Global, "global_inv", &[], &[]).only(GFX12).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [NONE, NONE, NONE, NONE, NONE, 0x02b];
    GlobalWb = row(Global, "global_wb", &[], &[]).only(GFX12).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [NONE, NONE, NONE, NONE, NONE, 0x02c];
    GlobalWbinv = row(Global, "global_wbinv", &[], &[]).only(GFX12).class(Class::Control).without(Effects::MEM_WRITE.union(READ_EXEC)), [], [NONE, NONE, NONE, NONE, NONE, 0x04f];
    // Three-dword scalar loads.
    SLoadB96 = row(Smem, "s_load_b96", &[SDst(3)], &[SBase(2), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x005];
    SBufferLoadB96 = row(Smem, "s_buffer_load_b96", &[SDst(3)], &[SBase(4), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x015];
    // Sub-dword scalar loads, sign- or zero-extended to 32 bits.
    SLoadI8 = row(Smem, "s_load_i8", &[SD1], &[SBase(2), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x008];
    SLoadU8 = row(Smem, "s_load_u8", &[SD1], &[SBase(2), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x009];
    SLoadI16 = row(Smem, "s_load_i16", &[SD1], &[SBase(2), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x00a];
    SLoadU16 = row(Smem, "s_load_u16", &[SD1], &[SBase(2), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x00b];
    SBufferLoadI8 = row(Smem, "s_buffer_load_i8", &[SD1], &[SBase(4), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x018];
    SBufferLoadU8 = row(Smem, "s_buffer_load_u8", &[SD1], &[SBase(4), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x019];
    SBufferLoadI16 = row(Smem, "s_buffer_load_i16", &[SD1], &[SBase(4), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x01a];
    SBufferLoadU16 = row(Smem, "s_buffer_load_u16", &[SD1], &[SBase(4), SOffset]).only(GFX12), [], [NONE, NONE, NONE, NONE, NONE, 0x01b];
    // RDNA 3's true16 move, last so that the rows before keep their numbers.
    VMovB16 = row(Vop1, "v_mov_b16", &[VDstT16], &[VSrcT16]).half().only(Targets::GFX1100), [], [NONE, NONE, 0x19c, NONE, NONE, NONE];
}

impl Opcode {
    /// The table row of the instruction.
    pub fn info(self) -> &'static OpInfo {
        &TABLE[self as usize]
    }

    /// The instruction whose mnemonic on `target` is `name`.
    pub fn from_name(target: Target, name: &str) -> Option<Opcode> {
        static MAPS: OnceLock<HashMap<(Target, &'static str), Opcode>> = OnceLock::new();
        let map = MAPS.get_or_init(|| {
            let mut map = HashMap::new();
            for info in TABLE {
                for t in ENCODED_TARGETS {
                    if let Some(n) = info.name(t) {
                        map.insert((t, n), info.op);
                    }
                }
            }
            map
        });
        map.get(&(target, name)).copied()
    }

    /// Whether the instruction is a memory access that writes memory.
    pub fn is_store(self) -> bool {
        self.info().effects.contains(Effects::MEM_WRITE)
    }

    /// The entries of the address (an NSA list) that the instruction writes back as well
    /// as reads: the ray origin and direction of RDNA 4's BVH tests, which hold the ray
    /// transformed into an instance's space afterwards (entries 2 and 3 of
    /// `[base, extent and mask, origin, direction, node]`). Empty for other instructions.
    pub fn bvh_ray_write_back(self) -> &'static [usize] {
        match self {
            Opcode::ImageBvh8IntersectRay | Opcode::ImageBvhDualIntersectRay => &[2, 3],
            _ => &[],
        }
    }

    /// Number of dwords a memory instruction moves per lane (0 for non-memory; 1 for the
    /// byte and short forms, whose width is [`OpInfo::narrow`]).
    pub fn mem_dwords(self) -> u8 {
        let info = self.info();
        if let Some(a) = info.atomic {
            return a.dwords;
        }
        match info.format {
            Format::Mubuf | Format::Mtbuf | Format::Global | Format::Scratch | Format::Flat => info
                .slots()
                .find_map(|k| match k {
                    VDst(n) | VReg(n) => Some(n),
                    _ => None,
                })
                .unwrap_or(0),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode() {
        for (i, info) in TABLE.iter().enumerate() {
            assert_eq!(info.op as usize, i);
        }
    }

    #[test]
    fn mnemonics_are_unique_per_target() {
        for t in ENCODED_TARGETS {
            let mut seen = std::collections::HashSet::new();
            for info in TABLE {
                if let Some(n) = info.name(t) {
                    assert!(seen.insert(n), "{n} twice on {t}");
                }
            }
        }
    }

    #[test]
    fn rows_are_consistent() {
        for info in TABLE {
            let fx = info.effects;
            // Cache invalidations are MUBUF-encoded but touch no memory the model holds.
            let memory = matches!(
                info.format,
                Format::Mubuf
                    | Format::Mtbuf
                    | Format::Global
                    | Format::Scratch
                    | Format::Flat
                    | Format::Smem
                    | Format::Ds
                    | Format::Mimg
            ) && info.class != Class::Control;
            assert_eq!(
                memory,
                fx.intersects(Effects::MEM_READ | Effects::MEM_WRITE),
                "{:?}: memory effects follow the format",
                info.op
            );
            if info.format == Format::Sopc {
                assert!(fx.contains(Effects::WRITE_SCC), "{:?}", info.op);
            }
            assert!(
                u32::from(info.float_srcs) < 1 << info.srcs.len(),
                "{:?}: modifier bits name sources that exist",
                info.op
            );
            assert!(
                info.narrow.is_none() || memory,
                "{:?}: only memory is narrow",
                info.op
            );
            assert!(
                !fx.contains(Effects::TERMINATOR)
                    || info.class == Class::Control
                    || info.class == Class::Branch,
                "{:?}",
                info.op
            );
            assert!(!info.spellings().is_empty() && info.targets != Targets(0));
        }
    }

    #[test]
    fn per_target_names() {
        assert_eq!(
            Opcode::from_name(Target::Gfx1100, "scratch_load_b32"),
            Some(Opcode::ScratchLoadDword)
        );
        assert_eq!(Opcode::from_name(Target::Gfx8, "scratch_load_dword"), None);
        assert_eq!(
            Opcode::from_name(Target::Gfx8, "v_add_u32"),
            Some(Opcode::VAddCoU32)
        );
        assert_eq!(Opcode::BufferStoreDwordx2.mem_dwords(), 2);
        assert!(Opcode::GlobalStoreDword.is_store());
        assert_eq!(
            Opcode::from_name(Target::Gfx1100, "v_clz_i32_u32"),
            Some(Opcode::VFfbhU32)
        );
        assert_eq!(
            Opcode::from_name(Target::Gfx1100, "flat_load_b32"),
            Some(Opcode::FlatLoadDword)
        );
        assert_eq!(Opcode::from_name(Target::Gfx1100, "flat_load_dword"), None);
        assert_eq!(Opcode::from_name(Target::Gfx9, "s_nop"), None);
        assert_eq!(Opcode::VAddNcU32.info().name(Target::Gfx8), None);
    }
}
