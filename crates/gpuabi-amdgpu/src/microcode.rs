//! Microcode formats: where each field of an encoding lies, per target.
//!
//! An instruction word is handled as a `u128` holding the first dword in its low bits, the
//! second (for 64-bit formats) above it and the third (RDNA 4's 96-bit memory formats) above
//! that, so a field of the second dword starts at bit 32 + its bit in that dword, one of the
//! third at bit 64 + its bit. The positions are those of the "Microcode Formats"
//! chapters of AMD's ISA reference guides: "Southern Islands Series Instruction Set
//! Architecture" (gfx6), "Sea Islands Series Instruction Set Architecture" (gfx7), "AMD GCN3
//! ISA" (gfx8), "RDNA2 ISA" (gfx1030), "RDNA3 ISA" (gfx1100) and "RDNA 4 Instruction Set
//! Architecture" (gfx12). Fields a target's format lacks (`DLC` on gfx8, `SEG` on gfx8's
//! FLAT) are absent from its row.

use crate::target::Target;

/// A hardware encoding (microcode format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory (SMRD on `gfx6`/`gfx7`: 32 bits, an 8-bit dword offset).
    Smem,
    /// Vector ALU, one source, 32 bits.
    Vop1,
    /// Vector ALU, two sources, 32 bits.
    Vop2,
    /// Vector compare, 32 bits.
    Vopc,
    /// Vector ALU, 64 bits (VOP3a; VOP3b puts `SDST` where VOP3a has `ABS` and `CLAMP`).
    Vop3,
    /// Buffer memory (RDNA 4's 96-bit VBUFFER on `gfx12`).
    Mubuf,
    /// Typed buffer memory (`gfx6`/`gfx7`).
    Mtbuf,
    /// Flat, global and scratch memory (told apart by `SEG` on RDNA; RDNA 4's 96-bit
    /// VFLAT, VGLOBAL and VSCRATCH on `gfx12`).
    Flat,
    /// RDNA 3 dual issue: two VOP2/VOP1-like halves in one 64-bit word.
    Vopd,
    /// Local data share.
    Ds,
    /// Image memory (`gfx6`/`gfx7`, and RDNA, where NSA addresses add dwords after the
    /// 64-bit word).
    Mimg,
}

/// A field of an encoding, named as in AMD's manuals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Field {
    Op,
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    Vdst,
    Vsrc1,
    Src0,
    Src1,
    Src2,
    Abs,
    Clamp,
    Opsel,
    Omod,
    Neg,
    Sbase,
    Sdata,
    Imm,
    Offset,
    Soffset,
    Glc,
    Slc,
    Dlc,
    Lds,
    Tfe,
    Offen,
    Idxen,
    Vaddr,
    Vdata,
    Srsrc,
    Seg,
    Saddr,
    Sve,
    Addr,
    Data,
    Addr64,
    Dfmt,
    Nfmt,
    OpX,
    OpY,
    SrcY0,
    VsrcY1,
    VdstY,
    VdstX,
    DstSel,
    DstUnused,
    Src0Sel,
    Src1Sel,
    Src0Sext,
    Src1Sext,
    Src0Neg,
    Src0Abs,
    Src1Neg,
    Src1Abs,
    S0,
    S1,
    Offset0,
    Offset1,
    Gds,
    Data1,
    OpMsb,
    Nsa,
    Dmask,
    Unorm,
    Da,
    R128,
    Lwe,
    Ssamp,
    /// RDNA 4's temporal hint (`th:`), the cache policy that replaced GLC/SLC/DLC.
    Th,
    /// RDNA 4's coherence scope (`scope:`).
    Scope,
    /// RDNA 4's VIMAGE: the second to fifth address VGPRs (VADDR is the first).
    Vaddr1,
    Vaddr2,
    Vaddr3,
    Vaddr4,
}

/// One format on one target: its size, the fixed bits that identify it, and its fields as
/// `(field, lowest bit, width)`.
#[derive(Debug)]
pub struct Layout {
    /// The encoding.
    pub encoding: Encoding,
    /// Bytes without a literal: 4 or 8.
    pub bytes: u8,
    /// Mask of the identifying bits of the first dword.
    pub ident_mask: u32,
    /// Their value.
    pub ident: u32,
    /// The fields.
    pub fields: &'static [(Field, u8, u8)],
}

impl Layout {
    /// The position `(lowest bit, width)` of `field`, if the format has it.
    pub fn field(&self, field: Field) -> Option<(u8, u8)> {
        self.fields
            .iter()
            .find(|(f, _, _)| *f == field)
            .map(|&(_, lo, w)| (lo, w))
    }

    /// Whether a first dword belongs to this format.
    pub const fn matches(&self, dword: u32) -> bool {
        dword & self.ident_mask == self.ident
    }
}

use Field::*;

const SOP1: &[(Field, u8, u8)] = &[(Ssrc0, 0, 8), (Op, 8, 8), (Sdst, 16, 7)];
const SOP2: &[(Field, u8, u8)] = &[(Ssrc0, 0, 8), (Ssrc1, 8, 8), (Sdst, 16, 7), (Op, 23, 7)];
const SOPK: &[(Field, u8, u8)] = &[(Simm16, 0, 16), (Sdst, 16, 7), (Op, 23, 5)];
const SOPC: &[(Field, u8, u8)] = &[(Ssrc0, 0, 8), (Ssrc1, 8, 8), (Op, 16, 7)];
const SOPP: &[(Field, u8, u8)] = &[(Simm16, 0, 16), (Op, 16, 7)];
const VOP1: &[(Field, u8, u8)] = &[(Src0, 0, 9), (Op, 9, 8), (Vdst, 17, 8)];
const VOP2: &[(Field, u8, u8)] = &[(Src0, 0, 9), (Vsrc1, 9, 8), (Vdst, 17, 8), (Op, 25, 6)];
const VOPC: &[(Field, u8, u8)] = &[(Src0, 0, 9), (Vsrc1, 9, 8), (Op, 17, 8)];

/// VOP3: GCN3 has no `OPSEL`; `SDST` (VOP3b) overlaps `ABS`, `OPSEL` and `CLAMP`, so the
/// encoder sets one or the other.
const VOP3_GCN3: &[(Field, u8, u8)] = &[
    (Vdst, 0, 8),
    (Abs, 8, 3),
    (Sdst, 8, 7),
    (Clamp, 15, 1),
    (Op, 16, 10),
    (Src0, 32, 9),
    (Src1, 41, 9),
    (Src2, 50, 9),
    (Omod, 59, 2),
    (Neg, 61, 3),
];
const VOP3_RDNA: &[(Field, u8, u8)] = &[
    (Vdst, 0, 8),
    (Abs, 8, 3),
    (Opsel, 11, 4),
    (Sdst, 8, 7),
    (Clamp, 15, 1),
    (Op, 16, 10),
    (Src0, 32, 9),
    (Src1, 41, 9),
    (Src2, 50, 9),
    (Omod, 59, 2),
    (Neg, 61, 3),
];

/// VOP3 of GCN 1.0/1.1: `CLAMP` at bit 11 and a 9-bit `OP` at bit 17.
const VOP3_GCN1: &[(Field, u8, u8)] = &[
    (Vdst, 0, 8),
    (Abs, 8, 3),
    (Sdst, 8, 7),
    (Clamp, 11, 1),
    (Op, 17, 9),
    (Src0, 32, 9),
    (Src1, 41, 9),
    (Src2, 50, 9),
    (Omod, 59, 2),
    (Neg, 61, 3),
];

/// SMRD: one dword; `IMM` says whether `OFFSET` is a dword count or an SGPR code.
const SMRD: &[(Field, u8, u8)] = &[
    (Offset, 0, 8),
    (Imm, 8, 1),
    (Sbase, 9, 6),
    (Sdata, 15, 7),
    (Op, 22, 5),
];

const MUBUF_GCN1: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Addr64, 15, 1),
    (Lds, 16, 1),
    (Op, 18, 7),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Slc, 54, 1),
    (Tfe, 55, 1),
    (Soffset, 56, 8),
];

const MTBUF_GCN1: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Addr64, 15, 1),
    (Op, 16, 3),
    (Dfmt, 19, 4),
    (Nfmt, 23, 3),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Slc, 54, 1),
    (Tfe, 55, 1),
    (Soffset, 56, 8),
];

/// MIMG of GCN 1.0/1.1 (`111100`): bits 7:0 of the first dword and 31:26 of the second
/// are reserved; SRSRC and SSAMP count SGPRs in fours.
const MIMG_GCN1: &[(Field, u8, u8)] = &[
    (Dmask, 8, 4),
    (Unorm, 12, 1),
    (Glc, 13, 1),
    (Da, 14, 1),
    (R128, 15, 1),
    (Tfe, 16, 1),
    (Lwe, 17, 1),
    (Op, 18, 7),
    (Slc, 25, 1),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Ssamp, 53, 5),
];

const SMEM_GCN3: &[(Field, u8, u8)] = &[
    (Sbase, 0, 6),
    (Sdata, 6, 7),
    (Glc, 16, 1),
    (Imm, 17, 1),
    (Op, 18, 8),
    (Offset, 32, 20),
];
const SMEM_RDNA2: &[(Field, u8, u8)] = &[
    (Sbase, 0, 6),
    (Sdata, 6, 7),
    (Dlc, 14, 1),
    (Glc, 16, 1),
    (Op, 18, 8),
    (Offset, 32, 21),
    (Soffset, 57, 7),
];
const SMEM_RDNA3: &[(Field, u8, u8)] = &[
    (Sbase, 0, 6),
    (Sdata, 6, 7),
    (Dlc, 13, 1),
    (Glc, 14, 1),
    (Op, 18, 8),
    (Offset, 32, 21),
    (Soffset, 57, 7),
];

const MUBUF_GCN3: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Lds, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Tfe, 55, 1),
    (Soffset, 56, 8),
];
const MUBUF_RDNA2: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Dlc, 15, 1),
    (Lds, 16, 1),
    (Op, 18, 7),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Slc, 54, 1),
    (Tfe, 55, 1),
    (Soffset, 56, 8),
];
const MUBUF_RDNA3: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Slc, 12, 1),
    (Dlc, 13, 1),
    (Glc, 14, 1),
    (Lds, 16, 1),
    (Op, 18, 8),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Tfe, 53, 1),
    (Offen, 54, 1),
    (Idxen, 55, 1),
    (Soffset, 56, 8),
];

const FLAT_GCN3: &[(Field, u8, u8)] = &[
    (Glc, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
    (Addr, 32, 8),
    (Data, 40, 8),
    (Tfe, 55, 1),
    (Vdst, 56, 8),
];
const FLAT_RDNA2: &[(Field, u8, u8)] = &[
    (Offset, 0, 12),
    (Dlc, 12, 1),
    (Lds, 13, 1),
    (Seg, 14, 2),
    (Glc, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
    (Addr, 32, 8),
    (Data, 40, 8),
    (Saddr, 48, 7),
    (Vdst, 56, 8),
];
const FLAT_RDNA3: &[(Field, u8, u8)] = &[
    (Offset, 0, 13),
    (Dlc, 13, 1),
    (Glc, 14, 1),
    (Slc, 15, 1),
    (Seg, 16, 2),
    (Op, 18, 7),
    (Addr, 32, 8),
    (Data, 40, 8),
    (Saddr, 48, 7),
    (Sve, 55, 1),
    (Vdst, 56, 8),
];

// DS: OFFSET0 and OFFSET1 together are the 16-bit OFFSET of the single-address forms.
const DS_GCN3: &[(Field, u8, u8)] = &[
    (Offset, 0, 16),
    (Offset0, 0, 8),
    (Offset1, 8, 8),
    (Gds, 16, 1),
    (Op, 17, 8),
    (Addr, 32, 8),
    (Data, 40, 8),
    (Data1, 48, 8),
    (Vdst, 56, 8),
];
const DS_RDNA: &[(Field, u8, u8)] = &[
    (Offset, 0, 16),
    (Offset0, 0, 8),
    (Offset1, 8, 8),
    (Gds, 17, 1),
    (Op, 18, 8),
    (Addr, 32, 8),
    (Data, 40, 8),
    (Data1, 48, 8),
    (Vdst, 56, 8),
];

// MIMG ("RDNA2 ISA" and "RDNA3 ISA", "MIMG"), the fields the BVH instructions use. RDNA 2
// holds bit 7 of the opcode at bit 0 and the count of NSA dwords at 2:1; RDNA 3 a one-bit
// NSA flag at bit 0 (one NSA dword) and moved UNORM.
const MIMG_RDNA2: &[(Field, u8, u8)] = &[
    (OpMsb, 0, 1),
    (Nsa, 1, 2),
    (Dmask, 8, 4),
    (Unorm, 12, 1),
    (R128, 15, 1),
    (Op, 18, 7),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
];
const MIMG_RDNA3: &[(Field, u8, u8)] = &[
    (Nsa, 0, 1),
    (Unorm, 7, 1),
    (Dmask, 8, 4),
    (R128, 15, 1),
    (Op, 18, 8),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
];

// RDNA 4 ("RDNA 4 Instruction Set Architecture", "Microcode Formats"; LLVM's
// `SMInstructions.td`, `BUFInstructions.td` and `FLATInstructions.td`, the gfx12 encodings):
// SMEM keeps its identifier and moves OP to 18:13 with SCOPE and a two-bit TH after it and a
// signed 24-bit OFFSET; VBUFFER (`110001`) and VFLAT/VGLOBAL/VSCRATCH (`111011`, SEG at
// 25:24) are 96 bits, VADDR and the 24-bit OFFSET in the third dword. VBUFFER's SRSRC is the
// SGPR number in 47:41, four-aligned, so the five bits from 43 are the number / 4 as in the
// older formats; its FORMAT (61:55) is 1 for the untyped accesses, as LLVM encodes them.
const SMEM_GFX12: &[(Field, u8, u8)] = &[
    (Sbase, 0, 6),
    (Sdata, 6, 7),
    (Op, 13, 6),
    (Scope, 21, 2),
    (Th, 23, 2),
    (Offset, 32, 24),
    (Soffset, 57, 7),
];
const VBUFFER_GFX12: &[(Field, u8, u8)] = &[
    (Soffset, 0, 7),
    (Op, 14, 8),
    (Tfe, 22, 1),
    (Vdata, 32, 8),
    (Srsrc, 43, 5),
    (Scope, 50, 2),
    (Th, 52, 3),
    (Dfmt, 55, 7),
    (Offen, 62, 1),
    (Idxen, 63, 1),
    (Vaddr, 64, 8),
    (Offset, 72, 24),
];
const VFLAT_GFX12: &[(Field, u8, u8)] = &[
    (Saddr, 0, 7),
    (Op, 14, 7),
    (Seg, 24, 2),
    (Vdst, 32, 8),
    (Sve, 49, 1),
    (Scope, 50, 2),
    (Th, 52, 3),
    (Data, 55, 8),
    (Addr, 64, 8),
    (Offset, 72, 24),
];

// VIMAGE (`110100`, "RDNA 4 Instruction Set Architecture", "Microcode Formats"; LLVM's
// `VIMAGE_gfx12` in `MIMGInstructions.td`; Mesa's `emit_mimg_instruction_gfx12` in
// `aco_assembler.cpp`), the fields the BVH instructions use: 96 bits, the address as five
// VGPR numbers (VADDR0-3 in the third dword, VADDR4 at the top of the second) where RDNA 3
// had NSA dwords. RSRC is the SGPR number in 49:41, four-aligned, so the five bits from 43
// are the number / 4 as in the older formats. DIM, D16 and A16 stay zero (a 1D image, 32-bit
// ray data).
const VIMAGE_GFX12: &[(Field, u8, u8)] = &[
    (R128, 4, 1),
    (Op, 14, 8),
    (Dmask, 22, 4),
    (Vdata, 32, 8),
    (Srsrc, 43, 5),
    (Scope, 50, 2),
    (Th, 52, 3),
    (Tfe, 55, 1),
    (Vaddr4, 56, 8),
    (Vaddr, 64, 8),
    (Vaddr1, 72, 8),
    (Vaddr2, 80, 8),
    (Vaddr3, 88, 8),
];

const fn layout(
    encoding: Encoding,
    bytes: u8,
    ident_mask: u32,
    ident: u32,
    fields: &'static [(Field, u8, u8)],
) -> Layout {
    Layout {
        encoding,
        bytes,
        ident_mask,
        ident,
        fields,
    }
}

/// The identifying bits of the formats common to all targets; the 9-bit prefixes of SOP1,
/// SOPC and SOPP come before SOPK's 4-bit one, and VOP1/VOPC before VOP2's single bit, so a
/// decoder that tries the rows in order finds the right one.
const fn common(fields_vop3: &'static [(Field, u8, u8)], vop3_ident: u32) -> [Layout; 9] {
    [
        layout(Encoding::Sop1, 4, 0xff80_0000, 0xbe80_0000, SOP1),
        layout(Encoding::Sopc, 4, 0xff80_0000, 0xbf00_0000, SOPC),
        layout(Encoding::Sopp, 4, 0xff80_0000, 0xbf80_0000, SOPP),
        layout(Encoding::Sopk, 4, 0xf000_0000, 0xb000_0000, SOPK),
        layout(Encoding::Sop2, 4, 0xc000_0000, 0x8000_0000, SOP2),
        layout(Encoding::Vop1, 4, 0xfe00_0000, 0x7e00_0000, VOP1),
        layout(Encoding::Vopc, 4, 0xfe00_0000, 0x7c00_0000, VOPC),
        layout(Encoding::Vop2, 4, 0x8000_0000, 0x0000_0000, VOP2),
        layout(Encoding::Vop3, 8, 0xfc00_0000, vop3_ident, fields_vop3),
    ]
}

/// The common formats and three memory formats (`vmem` is FLAT, or MTBUF on gfx6).
const fn with_memory(base: [Layout; 9], smem: Layout, mubuf: Layout, vmem: Layout) -> [Layout; 12] {
    let [a, b, c, d, e, f, g, h, i] = base;
    [a, b, c, d, e, f, g, h, i, smem, mubuf, vmem]
}

/// MIMG of GCN 1.0/1.1.
const MIMG_LAYOUT: Layout = layout(Encoding::Mimg, 8, 0xfc00_0000, 0xf000_0000, MIMG_GCN1);

/// GCN 1.0 (gfx6): VOP3 `110100`, SMRD `11000`, MUBUF `111000`, MTBUF `111010`, MIMG
/// `111100`; no FLAT.
static GFX6: [Layout; 13] = {
    let [a, b, c, d, e, f, g, h, i, j, k, l] = with_memory(
        common(VOP3_GCN1, 0xd000_0000),
        layout(Encoding::Smem, 4, 0xf800_0000, 0xc000_0000, SMRD),
        layout(Encoding::Mubuf, 8, 0xfc00_0000, 0xe000_0000, MUBUF_GCN1),
        layout(Encoding::Mtbuf, 8, 0xfc00_0000, 0xe800_0000, MTBUF_GCN1),
    );
    [a, b, c, d, e, f, g, h, i, j, k, l, MIMG_LAYOUT]
};

/// GCN 1.1 (gfx7): GCN 1.0's formats and GCN3's FLAT (`110111`).
static GFX7: [Layout; 14] = {
    let [a, b, c, d, e, f, g, h, i, j, k, l] = with_memory(
        common(VOP3_GCN1, 0xd000_0000),
        layout(Encoding::Smem, 4, 0xf800_0000, 0xc000_0000, SMRD),
        layout(Encoding::Mubuf, 8, 0xfc00_0000, 0xe000_0000, MUBUF_GCN1),
        layout(Encoding::Mtbuf, 8, 0xfc00_0000, 0xe800_0000, MTBUF_GCN1),
    );
    [
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        k,
        l,
        layout(Encoding::Flat, 8, 0xfc00_0000, 0xdc00_0000, FLAT_GCN3),
        MIMG_LAYOUT,
    ]
};

/// The formats of `base` and DS (`110110` on GCN3 and RDNA).
const fn with_ds(base: [Layout; 12], ds: Layout) -> [Layout; 13] {
    let [a, b, c, d, e, f, g, h, i, j, k, l] = base;
    [a, b, c, d, e, f, g, h, i, j, k, l, ds]
}

/// GCN3 (gfx8): VOP3 `110100`, SMEM `110000`, MUBUF `111000`, FLAT `110111`.
static GFX8: [Layout; 13] = with_ds(
    with_memory(
        common(VOP3_GCN3, 0xd000_0000),
        layout(Encoding::Smem, 8, 0xfc00_0000, 0xc000_0000, SMEM_GCN3),
        layout(Encoding::Mubuf, 8, 0xfc00_0000, 0xe000_0000, MUBUF_GCN3),
        layout(Encoding::Flat, 8, 0xfc00_0000, 0xdc00_0000, FLAT_GCN3),
    ),
    layout(Encoding::Ds, 8, 0xfc00_0000, 0xd800_0000, DS_GCN3),
);

/// The formats of `base` and MIMG (`111100` on RDNA).
const fn with_mimg(base: [Layout; 13], mimg: &'static [(Field, u8, u8)]) -> [Layout; 14] {
    let [a, b, c, d, e, f, g, h, i, j, k, l, m] = base;
    [
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        k,
        l,
        m,
        layout(Encoding::Mimg, 8, 0xfc00_0000, 0xf000_0000, mimg),
    ]
}

/// RDNA2 (gfx1030): VOP3 `110101`, SMEM `111101`.
static GFX1030: [Layout; 14] = with_mimg(
    with_ds(
        with_memory(
            common(VOP3_RDNA, 0xd400_0000),
            layout(Encoding::Smem, 8, 0xfc00_0000, 0xf400_0000, SMEM_RDNA2),
            layout(Encoding::Mubuf, 8, 0xfc00_0000, 0xe000_0000, MUBUF_RDNA2),
            layout(Encoding::Flat, 8, 0xfc00_0000, 0xdc00_0000, FLAT_RDNA2),
        ),
        layout(Encoding::Ds, 8, 0xfc00_0000, 0xd800_0000, DS_RDNA),
    ),
    MIMG_RDNA2,
);

/// RDNA3 (gfx1100): the encodings' identifiers are RDNA2's; fields moved in SMEM, MUBUF,
/// FLAT and MIMG.
static GFX1100: [Layout; 14] = with_mimg(
    with_ds(
        with_memory(
            common(VOP3_RDNA, 0xd400_0000),
            layout(Encoding::Smem, 8, 0xfc00_0000, 0xf400_0000, SMEM_RDNA3),
            layout(Encoding::Mubuf, 8, 0xfc00_0000, 0xe000_0000, MUBUF_RDNA3),
            layout(Encoding::Flat, 8, 0xfc00_0000, 0xdc00_0000, FLAT_RDNA3),
        ),
        layout(Encoding::Ds, 8, 0xfc00_0000, 0xd800_0000, DS_RDNA),
    ),
    MIMG_RDNA3,
);

/// The VGPR fields of RDNA 4's VIMAGE address, in the order of its entries.
pub const VIMAGE_ADDRESS_FIELDS: [Field; 5] = [
    Field::Vaddr,
    Field::Vaddr1,
    Field::Vaddr2,
    Field::Vaddr3,
    Field::Vaddr4,
];

/// RDNA 4 (gfx12): RDNA 3's scalar, vector ALU and DS formats; SMEM, VBUFFER and VFLAT as
/// [`SMEM_GFX12`] describes them; VIMAGE for the BVH instructions ([`VIMAGE_GFX12`]). VSAMPLE
/// is not modelled.
static GFX12: [Layout; 14] = {
    let [a, b, c, d, e, f, g, h, i, j, k, l, m] = with_ds(
        with_memory(
            common(VOP3_RDNA, 0xd400_0000),
            layout(Encoding::Smem, 8, 0xfc00_0000, 0xf400_0000, SMEM_GFX12),
            layout(Encoding::Mubuf, 12, 0xfc00_0000, 0xc400_0000, VBUFFER_GFX12),
            layout(Encoding::Flat, 12, 0xfc00_0000, 0xec00_0000, VFLAT_GFX12),
        ),
        layout(Encoding::Ds, 8, 0xfc00_0000, 0xd800_0000, DS_RDNA),
    );
    [
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        k,
        l,
        m,
        layout(Encoding::Mimg, 12, 0xfc00_0000, 0xd000_0000, VIMAGE_GFX12),
    ]
};

/// The dwords an NSA address adds after a MIMG word, for `entries` address operands: the
/// second and later addresses' VGPR numbers, one byte each, four to a dword ("RDNA2 ISA",
/// "MIMG": NSA; RDNA 3 has room for four).
pub const fn nsa_dwords(entries: usize) -> usize {
    entries.saturating_sub(1).div_ceil(4)
}

/// Every format of `target`, in the order a decoder tries them (empty for `gfx9`).
pub fn layouts(target: Target) -> &'static [Layout] {
    match target {
        Target::Gfx6 => &GFX6,
        Target::Gfx7 => &GFX7,
        Target::Gfx8 => &GFX8,
        Target::Gfx1030 => &GFX1030,
        Target::Gfx1100 => &GFX1100,
        Target::Gfx12 => &GFX12,
        Target::Gfx9 => &[],
    }
}

/// The layout of `encoding` on `target`.
pub fn layout_of(encoding: Encoding, target: Target) -> Option<&'static Layout> {
    if encoding == Encoding::Vopd {
        return (target >= Target::Gfx1100).then_some(&VOPD);
    }
    layouts(target).iter().find(|l| l.encoding == encoding)
}

/// RDNA3's VOPD (`110010`, "RDNA3 ISA", "VOPD"; unchanged in RDNA 4): X's source 0 and VGPR source 1 and the two
/// opcodes in the first dword; Y's sources, Y's destination (bits 7:1 of its VGPR number,
/// bit 0 being the complement of bit 0 of X's) and X's destination in the second.
pub static VOPD: Layout = layout(
    Encoding::Vopd,
    8,
    0xfc00_0000,
    0xc800_0000,
    &[
        (Src0, 0, 9),
        (Vsrc1, 9, 8),
        (OpY, 17, 5),
        (OpX, 22, 4),
        (SrcY0, 32, 9),
        (VsrcY1, 41, 8),
        (VdstY, 49, 7),
        (VdstX, 56, 8),
    ],
);

/// The SDWA dword that follows a VOP1/VOP2 word whose SRC0 is [`SDWA_SRC0`] ("AMD GCN3
/// ISA" and "RDNA2 ISA", "SDWA"): the real source 0 (a VGPR number; with `S0` set on RDNA
/// 2 a scalar operand code: an SGPR or an inline constant), the destination selection and
/// the source selections with their sign-extension bits and f32 `neg`/`abs` modifiers
/// (`S1` likewise for source 1). The `clamp` and `omod` bits are not modelled.
pub const SDWA_FIELDS: &[(Field, u8, u8)] = &[
    (Src0, 0, 8),
    (DstSel, 8, 3),
    (DstUnused, 11, 2),
    (Src0Sel, 16, 3),
    (Src0Sext, 19, 1),
    (Src0Neg, 20, 1),
    (Src0Abs, 21, 1),
    (S0, 23, 1),
    (Src1Sel, 24, 3),
    (Src1Sext, 27, 1),
    (Src1Neg, 28, 1),
    (Src1Abs, 29, 1),
    (S1, 31, 1),
];

/// Where the SDWA dword of a VOPC instruction on RDNA 2 ("RDNA2 ISA", "SDWAB") holds its
/// lane-mask destination instead of `DST_SEL`/`DST_UNUSED`: `SDST` at bits 14:8, used
/// when `SD` (bit 15) is set; with `SD` clear the mask goes to VCC.
pub const SDWAB_SDST: (u8, u8) = (8, 7);

/// The `SD` bit of a VOPC SDWA dword on RDNA 2 (see [`SDWAB_SDST`]).
pub const SDWAB_SD: u8 = 15;

/// The SRC0 code that marks a VOP1/VOP2 word as followed by an SDWA dword.
pub const SDWA_SRC0: u16 = 0xf9;

/// `SEG` of the FLAT format on RDNA: which address space an instruction addresses.
pub mod seg {
    /// Flat (generic) addressing.
    pub const FLAT: u64 = 0;
    /// Scratch (private) memory.
    pub const SCRATCH: u64 = 1;
    /// Global memory.
    pub const GLOBAL: u64 = 2;
}

/// The sizes (in bits) of fields within a word, checked against each other.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::ENCODED_TARGETS;

    #[test]
    fn fields_fit_and_do_not_overlap_the_identifier() {
        for t in ENCODED_TARGETS {
            for l in layouts(t) {
                for &(f, lo, w) in l.fields {
                    assert!(
                        u32::from(lo) + u32::from(w) <= u32::from(l.bytes) * 8,
                        "{t} {:?} {f:?}",
                        l.encoding
                    );
                    if lo < 32 {
                        let mask = (((1u64 << w) - 1) << lo) as u32;
                        assert_eq!(mask & l.ident_mask, 0, "{t} {:?} {f:?}", l.encoding);
                    }
                }
            }
        }
    }
}
