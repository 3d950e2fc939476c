//! Scalar ALU: SOP1, SOP2, SOPC, SOPK.
//!
//! SCC follows the pseudocode of AMD's "RDNA3.5 ISA" reference guide (the SOP1, SOP2,
//! SOPC and SOPK instructions), which agrees with the "AMD GCN3 ISA" and "RDNA2 ISA" guides for every
//! instruction here: carries and borrows for the unsigned add/sub, signed overflow for
//! `s_add_i32`/`s_sub_i32`, `D != 0` for the bitwise operations, shifts, `s_not` and
//! `s_bcnt1`, "S0 was selected" for min/max, the comparison for SOPC, `EXEC != 0` for the
//! saveexec and wrexec forms, `D != 0` for `s_bcnt0`, `s_quadmask`, `s_wqm`, `s_absdiff_i32`
//! and the bit-field extracts; `s_mul_i32`, `s_cselect`, `s_cmov`, `s_ff0`, `s_ff1`, `s_flbit`,
//! `s_bitset`, `s_brev`, `s_bitreplicate` and the moves leave SCC alone.

use gpuabi_amdgpu::Opcode;

use crate::image::{Decoded, Dst, Src};
use crate::wave::{Wave, EXEC, M0, VCC};

fn saveexec(w: &mut Wave, d: &Decoded, wide: bool, f: impl Fn(u64, u64) -> u64) {
    // D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0. The b32 forms work on EXEC_LO only
    // (all of the mask in wave32).
    if wide {
        let exec = w.exec();
        let s0 = w.s64(d.src[0]);
        w.write_s64(d.dst[0], exec);
        let new = f(s0, exec) & w.size.full_mask();
        w.set_exec(new);
        w.scc = new != 0;
    } else {
        let exec = u64::from(w.sgpr[EXEC]);
        let s0 = u64::from(w.s32(d.src[0]));
        w.write_s32(d.dst[0], exec as u32);
        let new = f(s0, exec) as u32;
        w.sgpr[EXEC] = new;
        w.scc = new != 0;
    }
}

/// RDNA's wrexec forms: EXEC = f(S0, EXEC), then D = the new EXEC; SCC = EXEC != 0
/// ("RDNA2 ISA", S_ANDN1_WREXEC_B64: "EXEC = ~S0 & EXEC; D = EXEC").
fn wrexec(w: &mut Wave, d: &Decoded, wide: bool, f: impl Fn(u64, u64) -> u64) {
    if wide {
        let new = f(w.s64(d.src[0]), w.exec()) & w.size.full_mask();
        w.set_exec(new);
        w.write_s64(d.dst[0], new);
        w.scc = new != 0;
    } else {
        let new = f(u64::from(w.s32(d.src[0])), u64::from(w.sgpr[EXEC])) as u32;
        w.sgpr[EXEC] = new;
        w.write_s32(d.dst[0], new);
        w.scc = new != 0;
    }
}

/// The scalar register `dwords` wide at hardware number `base + offset` for the moves
/// relative to M0 (`s_movrels_*`, `s_movreld_*`), or `None` past the last SGPR.
///
/// Decision of the project (the ISA guides leave it open): the index reaches the SGPRs
/// only, `s0` up to the register below `vcc` (hardware number 106); a read past them gives
/// 0 and a write past them is dropped, so that no index reaches VCC, M0 or EXEC.
fn relative(base: u16, offset: u32, dwords: u32) -> Option<u16> {
    let index = u32::from(base).checked_add(offset)?;
    (index.checked_add(dwords)? <= VCC as u32).then_some(index as u16)
}

/// `s_movrels_*`: D = the `dwords` SGPRs at S0 + `offset`.
fn movrels(w: &mut Wave, d: &Decoded, offset: u32, dwords: u32) {
    let Src::Sgpr(base) = d.src[0] else {
        return;
    };
    let v = match relative(base, offset, dwords) {
        Some(i) => w.s64(Src::Sgpr(i)),
        None => 0,
    };
    if dwords == 2 {
        w.write_s64(d.dst[0], v);
    } else {
        w.write_s32(d.dst[0], v as u32);
    }
}

/// `s_movreld_*`: the `dwords` SGPRs at D + `offset` = `v`.
fn movreld(w: &mut Wave, dst: Dst, offset: u32, dwords: u32, v: u64) {
    let Dst::Sgpr(base) = dst else {
        return;
    };
    if let Some(i) = relative(base, offset, dwords) {
        if dwords == 2 {
            w.write_s64(Dst::Sgpr(i), v);
        } else {
            w.write_s32(Dst::Sgpr(i), v as u32);
        }
    }
}

/// Executes a scalar ALU instruction other than the program-counter moves.
pub fn exec(d: &Decoded, w: &mut Wave) {
    use Opcode::*;
    if super::scalar_float::exec(d, w) {
        return;
    }
    let a = w.s32(d.src[0]);
    let b = w.s32(d.src[1]);
    let a64 = w.s64(d.src[0]);
    let b64 = w.s64(d.src[1]);
    let dst = d.dst[0];
    match d.op {
        SMovB32 | SMovkI32 => w.write_s32(dst, a),
        SMovB64 => w.write_s64(dst, a64),
        SNotB32 => {
            let r = !a;
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SNotB64 => {
            let r = !a64;
            w.write_s64(dst, r);
            w.scc = r != 0;
        }
        SBcnt1I32B32 => {
            let r = a.count_ones();
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SBcnt1I32B64 => {
            let r = a64.count_ones();
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        // Index of the lowest set bit, -1 if none; SCC unchanged.
        SFf1I32B32 => w.write_s32(dst, if a == 0 { u32::MAX } else { a.trailing_zeros() }),
        SFf1I32B64 => w.write_s32(
            dst,
            if a64 == 0 {
                u32::MAX
            } else {
                a64.trailing_zeros()
            },
        ),
        // Leading zeros; -1 when no bit is set; SCC unchanged.
        SFlbitI32B32 => w.write_s32(dst, if a == 0 { u32::MAX } else { a.leading_zeros() }),
        SBitset0B32 | SBitset1B32 => {
            let cur = match dst {
                crate::image::Dst::Sgpr(i) => w.sgpr[i as usize],
                _ => 0,
            };
            let bit = 1u32 << (a & 31);
            let r = if d.op == SBitset0B32 {
                cur & !bit
            } else {
                cur | bit
            };
            w.write_s32(dst, r);
        }
        SAndSaveexecB64 => saveexec(w, d, true, |s, e| s & e),
        SOrSaveexecB64 => saveexec(w, d, true, |s, e| s | e),
        SXorSaveexecB64 => saveexec(w, d, true, |s, e| s ^ e),
        SAndn2SaveexecB64 => saveexec(w, d, true, |s, e| s & !e),
        SAndSaveexecB32 => saveexec(w, d, false, |s, e| s & e),
        SOrSaveexecB32 => saveexec(w, d, false, |s, e| s | e),
        SXorSaveexecB32 => saveexec(w, d, false, |s, e| s ^ e),
        SAndn2SaveexecB32 => saveexec(w, d, false, |s, e| s & !e),
        SAddU32 => {
            let (r, c) = a.overflowing_add(b);
            w.write_s32(dst, r);
            w.scc = c;
        }
        SAddcU32 => {
            let r = u64::from(a) + u64::from(b) + u64::from(w.scc);
            w.write_s32(dst, r as u32);
            w.scc = r >> 32 != 0;
        }
        SSubU32 => {
            w.write_s32(dst, a.wrapping_sub(b));
            w.scc = b > a;
        }
        SSubbU32 => {
            let borrow_in = u64::from(w.scc);
            w.write_s32(dst, a.wrapping_sub(b).wrapping_sub(borrow_in as u32));
            w.scc = u64::from(b) + borrow_in > u64::from(a);
        }
        SAddI32 => {
            let (r, o) = (a as i32).overflowing_add(b as i32);
            w.write_s32(dst, r as u32);
            w.scc = o;
        }
        SSubI32 => {
            let (r, o) = (a as i32).overflowing_sub(b as i32);
            w.write_s32(dst, r as u32);
            w.scc = o;
        }
        SAndB32 | SOrB32 | SXorB32 | SAndn2B32 | SOrn2B32 | SLshlB32 | SLshrB32 | SAshrI32 => {
            let r = match d.op {
                SAndB32 => a & b,
                SOrB32 => a | b,
                SXorB32 => a ^ b,
                SAndn2B32 => a & !b,
                SOrn2B32 => a | !b,
                SLshlB32 => a << (b & 31),
                SLshrB32 => a >> (b & 31),
                _ => ((a as i32) >> (b & 31)) as u32,
            };
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SAndB64 | SOrB64 | SXorB64 | SAndn2B64 | SOrn2B64 | SLshlB64 | SLshrB64 | SAshrI64 => {
            let r = match d.op {
                SAndB64 => a64 & b64,
                SOrB64 => a64 | b64,
                SXorB64 => a64 ^ b64,
                SAndn2B64 => a64 & !b64,
                SOrn2B64 => a64 | !b64,
                SLshlB64 => a64 << (b & 63),
                SLshrB64 => a64 >> (b & 63),
                _ => ((a64 as i64) >> (b & 63)) as u64,
            };
            w.write_s64(dst, r);
            w.scc = r != 0;
        }
        SMulI32 => w.write_s32(dst, (a as i32).wrapping_mul(b as i32) as u32),
        // The flat scratch base addresses private memory through flat instructions, which
        // the model does not route to scratch: nothing to do. RDNA 4's MODE (the other
        // register `check_inst` lets it write, bits 7:0) takes the field from the SGPR's
        // low bits.
        SSetregB32 => {
            let (id, offset, size) = super::float_mode::hwreg_field(a);
            if id == super::float_mode::HW_REG_MODE {
                let mask = (((1u64 << size) - 1) << offset) as u32;
                w.mode = (w.mode & !mask) | (b << offset & mask);
            }
        }
        // S_MUL_HI_I32: the high half of the signed 64-bit product ("RDNA2 ISA").
        SMulHiI32 => w.write_s32(
            dst,
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
        ),
        // S_ABS_I32: |S0| (wrapping at i32::MIN), SCC = result != 0.
        SAbsI32 => {
            let r = (a as i32).wrapping_abs() as u32;
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SBrevB32 => w.write_s32(dst, a.reverse_bits()),
        // S_SEXT_I32_I8 / S_SEXT_I32_I16: D = sign extension of S0[7:0] / S0[15:0]; SCC is
        // not written ("AMD GCN3 ISA", "RDNA2 ISA").
        SSextI32I8 => w.write_s32(dst, a as u8 as i8 as i32 as u32),
        SSextI32I16 => w.write_s32(dst, a as u16 as i16 as i32 as u32),
        // The simulator has no queues: the answer to a message (llc asks for the doorbell
        // only after `s_trap`, which stops a simulated run) is 0.
        SSendmsgRtnB32 => w.write_s32(dst, 0),
        SFlbitI32 => w.write_s32(dst, flbit_i32(a)),
        SXnorB32 => {
            let r = !(a ^ b);
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        // S_MUL_HI_U32: D0 = (S0 * S1) >> 32, unsigned ("RDNA2 ISA").
        SMulHiU32 => w.write_s32(dst, ((u64::from(a) * u64::from(b)) >> 32) as u32),
        SMinI32 => {
            w.scc = (a as i32) < (b as i32);
            w.write_s32(dst, if w.scc { a } else { b });
        }
        SMinU32 => {
            w.scc = a < b;
            w.write_s32(dst, if w.scc { a } else { b });
        }
        // SCC is set iff S0 is selected, and max selects S0 on equal operands: `SCC =
        // S0.i32 >= S1.i32` in S_MAX_I32/S_MAX_U32 of AMD's "RDNA3.5 ISA" and "CDNA4 ISA"
        // reference guides (GCN3's "SCC = 1 if S0 is max" says the same). min selects S1
        // on equal operands: `SCC = S0.i32 < S1.i32` (S_MIN_I32/S_MIN_U32).
        SMaxI32 => {
            w.scc = (a as i32) >= (b as i32);
            w.write_s32(dst, if w.scc { a } else { b });
        }
        SMaxU32 => {
            w.scc = a >= b;
            w.write_s32(dst, if w.scc { a } else { b });
        }
        SCselectB32 => w.write_s32(dst, if w.scc { a } else { b }),
        SCselectB64 => w.write_s64(dst, if w.scc { a64 } else { b64 }),
        SCmpEqU32 | SCmpEqI32 => w.scc = a == b,
        SCmpLgU32 | SCmpLgI32 => w.scc = a != b,
        SCmpGtU32 => w.scc = a > b,
        SCmpGeU32 => w.scc = a >= b,
        SCmpLtU32 => w.scc = a < b,
        SCmpLeU32 => w.scc = a <= b,
        SCmpGtI32 => w.scc = (a as i32) > (b as i32),
        SCmpGeI32 => w.scc = (a as i32) >= (b as i32),
        SCmpLtI32 => w.scc = (a as i32) < (b as i32),
        SCmpLeI32 => w.scc = (a as i32) <= (b as i32),
        SCmpEqU64 => w.scc = a64 == b64,
        SCmpLgU64 => w.scc = a64 != b64,
        // S_ADDK_I32: D0 = D0 + signext(SIMM16), SCC = signed overflow; S_MULK_I32: D0 = D0 *
        // signext(SIMM16), SCC unchanged (the decoder sign-extends the immediate, `a`).
        SAddkI32 | SMulkI32 => {
            let cur = match dst {
                crate::image::Dst::Sgpr(i) => w.sgpr[i as usize],
                _ => 0,
            };
            if d.op == SAddkI32 {
                let (r, o) = (cur as i32).overflowing_add(a as i32);
                w.write_s32(dst, r as u32);
                w.scc = o;
            } else {
                w.write_s32(dst, (cur as i32).wrapping_mul(a as i32) as u32);
            }
        }
        // S_CMPK_*: S0 against SIMM16, sign-extended for i32 and zero-extended for u32 (the
        // decoder extends the immediate per its operand kind).
        SCmpkEqI32 | SCmpkEqU32 => w.scc = a == b,
        SCmpkLgI32 | SCmpkLgU32 => w.scc = a != b,
        SCmpkGtI32 => w.scc = (a as i32) > (b as i32),
        SCmpkGeI32 => w.scc = (a as i32) >= (b as i32),
        SCmpkLtI32 => w.scc = (a as i32) < (b as i32),
        SCmpkLeI32 => w.scc = (a as i32) <= (b as i32),
        SCmpkGtU32 => w.scc = a > b,
        SCmpkGeU32 => w.scc = a >= b,
        SCmpkLtU32 => w.scc = a < b,
        SCmpkLeU32 => w.scc = a <= b,
        // S_BFM: ((1 << S0[4:0]) - 1) << S1[4:0] (S0[5:0], S1[5:0] for b64); SCC unchanged.
        SBfmB32 => w.write_s32(dst, low_bits32(a & 31) << (b & 31)),
        SBfmB64 => w.write_s64(dst, low_bits64(a & 63) << (b & 63)),
        // S_BFE: offset S1[4:0], width S1[22:16]; SCC = D != 0.
        SBfeU32 | SBfeI32 => {
            let (offset, width) = (b & 31, (b >> 16) & 0x7f);
            let field = (a >> offset) & low_bits32(width.min(32));
            let r = if d.op == SBfeI32 {
                sign_extend(field, width)
            } else {
                field
            };
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SBitcmp0B32 => w.scc = (a >> (b & 31)) & 1 == 0,
        SBitcmp1B32 => w.scc = (a >> (b & 31)) & 1 == 1,
        // S_NAND/S_NOR/S_XNOR: the negated and, or and xor; SCC = D != 0 ("AMD GCN3 ISA",
        // "RDNA3 ISA").
        SNandB32 | SNorB32 => {
            let r = if d.op == SNandB32 { !(a & b) } else { !(a | b) };
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        SNandB64 | SNorB64 | SXnorB64 => {
            let r = match d.op {
                SNandB64 => !(a64 & b64),
                SNorB64 => !(a64 | b64),
                _ => !(a64 ^ b64),
            };
            w.write_s64(dst, r);
            w.scc = r != 0;
        }
        // S_PACK_{LL,LH,HH,HL}_B32_B16: D = {S1 half, S0 half}, the first letter naming the
        // half of S0 that lands in D[15:0], the second that of S1 in D[31:16]; SCC is not
        // written ("RDNA2 ISA", "RDNA3 ISA").
        SPackLlB32B16 => w.write_s32(dst, (a & 0xffff) | b << 16),
        SPackLhB32B16 => w.write_s32(dst, (a & 0xffff) | (b & 0xffff_0000)),
        SPackHhB32B16 => w.write_s32(dst, a >> 16 | (b & 0xffff_0000)),
        SPackHlB32B16 => w.write_s32(dst, a >> 16 | b << 16),
        // S_LSHL{1,2,3,4}_ADD_U32: tmp = (64-bit S0 << N) + S1, D = tmp[31:0], SCC = tmp >=
        // 2^32, so bits shifted out of S0 count as a carry ("RDNA3 ISA").
        SLshl1AddU32 | SLshl2AddU32 | SLshl3AddU32 | SLshl4AddU32 => {
            let n = match d.op {
                SLshl1AddU32 => 1,
                SLshl2AddU32 => 2,
                SLshl3AddU32 => 3,
                _ => 4,
            };
            let tmp = (u64::from(a) << n) + u64::from(b);
            w.write_s32(dst, tmp as u32);
            w.scc = tmp >> 32 != 0;
        }
        // S_BCNT0_I32: the number of zero bits; SCC = D != 0.
        SBcnt0I32B32 | SBcnt0I32B64 => {
            let r = if d.op == SBcnt0I32B32 {
                a.count_zeros()
            } else {
                a64.count_zeros()
            };
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        // S_FF0_I32: the index of the lowest zero bit, -1 if none; SCC unchanged.
        SFf0I32B32 => w.write_s32(
            dst,
            if a == u32::MAX {
                u32::MAX
            } else {
                a.trailing_ones()
            },
        ),
        SFf0I32B64 => w.write_s32(
            dst,
            if a64 == u64::MAX {
                u32::MAX
            } else {
                a64.trailing_ones()
            },
        ),
        // S_FLBIT_I32_B64 (RDNA 3's S_CLZ_I32_U64): leading zeros of the 64-bit S0, -1 for
        // 0; S_FLBIT_I32_I64 (S_CLS_I32_I64): the first bit from bit 63 that differs from
        // the sign, -1 for 0 and -1.
        SFlbitI32B64 => w.write_s32(
            dst,
            if a64 == 0 {
                u32::MAX
            } else {
                a64.leading_zeros()
            },
        ),
        SFlbitI32I64 => {
            let differs = a64 ^ (((a64 as i64) >> 63) as u64);
            w.write_s32(
                dst,
                if differs == 0 {
                    u32::MAX
                } else {
                    differs.leading_zeros()
                },
            );
        }
        SBrevB64 => w.write_s64(dst, a64.reverse_bits()),
        // S_BITSET0_B64 / S_BITSET1_B64: bit S0[5:0] of the 64-bit D cleared or set.
        SBitset0B64 | SBitset1B64 => {
            let cur = match dst {
                Dst::Sgpr(i) => w.s64(Src::Sgpr(i)),
                _ => 0,
            };
            let bit = 1u64 << (a & 63);
            let r = if d.op == SBitset0B64 {
                cur & !bit
            } else {
                cur | bit
            };
            w.write_s64(dst, r);
        }
        // S_BITREPLICATE_B64_B32: D[2i] = D[2i + 1] = S0[i] ("RDNA2 ISA").
        SBitreplicateB64B32 => {
            let r = (0..32).fold(0u64, |r, i| r | (u64::from(a >> i & 1) * (3 << (2 * i))));
            w.write_s64(dst, r);
        }
        // S_QUADMASK: bit i of D = any bit of S0[4i + 3:4i] (8 or 16 quads), the bits above
        // zero; S_WQM: each quad of D all ones if any bit of S0's quad is set; SCC = D != 0.
        SQuadmaskB32 | SQuadmaskB64 | SWqmB32 | SWqmB64 => {
            let quads = if matches!(d.op, SQuadmaskB32 | SWqmB32) {
                8
            } else {
                16
            };
            let src = if quads == 8 { u64::from(a) } else { a64 };
            let r = (0..quads).fold(0u64, |r, q| {
                let any = src >> (4 * q) & 0xf != 0;
                match (d.op, any) {
                    (_, false) => r,
                    (SQuadmaskB32 | SQuadmaskB64, true) => r | 1 << q,
                    (_, true) => r | 0xf << (4 * q),
                }
            });
            if quads == 8 {
                w.write_s32(dst, r as u32);
            } else {
                w.write_s64(dst, r);
            }
            w.scc = r != 0;
        }
        // S_CMOV_B32/B64, S_CMOVK_I32 (the decoder sign-extends SIMM16): D = S0 if SCC,
        // else D is kept.
        SCmovB32 | SCmovkI32 if w.scc => w.write_s32(dst, a),
        SCmovB64 if w.scc => w.write_s64(dst, a64),
        SCmovB32 | SCmovkI32 | SCmovB64 => {}
        // S_MOVRELS: D = SGPR[S0 + M0]; S_MOVRELD: SGPR[D + M0] = S0; S_MOVRELSD_2_B32:
        // SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]] ("RDNA2 ISA"; see [`relative`]).
        SMovrelsB32 => movrels(w, d, w.sgpr[M0], 1),
        SMovrelsB64 => movrels(w, d, w.sgpr[M0], 2),
        SMovreldB32 => movreld(w, dst, w.sgpr[M0], 1, u64::from(a)),
        SMovreldB64 => movreld(w, dst, w.sgpr[M0], 2, a64),
        SMovrelsd2B32 => {
            let m0 = w.sgpr[M0];
            let v = match d.src[0] {
                Src::Sgpr(base) => relative(base, m0 & 0x3ff, 1).map_or(0, |i| w.sgpr[i as usize]),
                _ => 0,
            };
            movreld(w, dst, m0 >> 16 & 0x3ff, 1, u64::from(v));
        }
        SNandSaveexecB64 => saveexec(w, d, true, |s, e| !(s & e)),
        SNorSaveexecB64 => saveexec(w, d, true, |s, e| !(s | e)),
        SXnorSaveexecB64 => saveexec(w, d, true, |s, e| !(s ^ e)),
        SOrn2SaveexecB64 => saveexec(w, d, true, |s, e| s | !e),
        SAndn1SaveexecB64 => saveexec(w, d, true, |s, e| !s & e),
        SOrn1SaveexecB64 => saveexec(w, d, true, |s, e| !s | e),
        SNandSaveexecB32 => saveexec(w, d, false, |s, e| !(s & e)),
        SNorSaveexecB32 => saveexec(w, d, false, |s, e| !(s | e)),
        SXnorSaveexecB32 => saveexec(w, d, false, |s, e| !(s ^ e)),
        SOrn2SaveexecB32 => saveexec(w, d, false, |s, e| s | !e),
        SAndn1SaveexecB32 => saveexec(w, d, false, |s, e| !s & e),
        SOrn1SaveexecB32 => saveexec(w, d, false, |s, e| !s | e),
        SAndn1WrexecB64 => wrexec(w, d, true, |s, e| !s & e),
        SAndn2WrexecB64 => wrexec(w, d, true, |s, e| s & !e),
        SAndn1WrexecB32 => wrexec(w, d, false, |s, e| !s & e),
        SAndn2WrexecB32 => wrexec(w, d, false, |s, e| s & !e),
        // As for the 32-bit answer: the simulator has no clock or queues.
        SSendmsgRtnB64 => w.write_s64(dst, 0),
        // S_ABSDIFF_I32: D = |S0 - S1| (both wrapping: -2^31 stays); SCC = D != 0.
        SAbsdiffI32 => {
            let r = (a as i32).wrapping_sub(b as i32).wrapping_abs() as u32;
            w.write_s32(dst, r);
            w.scc = r != 0;
        }
        // S_BFE_U64/I64: offset S1[5:0], width S1[22:16]; SCC = D != 0.
        SBfeU64 | SBfeI64 => {
            let (offset, width) = (b & 63, (b >> 16) & 0x7f);
            let field = (a64 >> offset) & low_bits64(width.min(64));
            let r = match (d.op, width) {
                (SBfeI64, 1..=63) => (((field << (64 - width)) as i64) >> (64 - width)) as u64,
                (SBfeI64, 0) => 0,
                _ => field,
            };
            w.write_s64(dst, r);
            w.scc = r != 0;
        }
        SBitcmp0B64 => w.scc = (a64 >> (b & 63)) & 1 == 0,
        SBitcmp1B64 => w.scc = (a64 >> (b & 63)) & 1 == 1,
        _ => unreachable!("{:?} is not a scalar ALU instruction", d.op),
    }
}

/// The low `n` bits set (`n` at most 32).
/// S_FLBIT_I32 / V_FFBH_I32 ("AMD GCN3 ISA"; RDNA 3's S_CLS_I32 / V_CLS_I32): the
/// position, counting bit 31 as 0, of the first bit that differs from the sign bit; -1
/// when none does (0 and -1).
pub(crate) fn flbit_i32(a: u32) -> u32 {
    let differs = a ^ (((a as i32) >> 31) as u32);
    if differs == 0 {
        u32::MAX
    } else {
        differs.leading_zeros()
    }
}

pub(crate) fn low_bits32(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

fn low_bits64(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// `signext_from_bit(x, width)` of AMD's pseudocode: bit `width - 1` of `x` copied into
/// the bits above it; width 0 gives 0 and 32 or more leaves `x` as it is.
pub(crate) fn sign_extend(x: u32, width: u32) -> u32 {
    match width {
        0 => 0,
        1..=31 => (((x << (32 - width)) as i32) >> (32 - width)) as u32,
        _ => x,
    }
}
