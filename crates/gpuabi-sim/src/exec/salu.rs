//! Scalar ALU: SOP1, SOP2, SOPC, SOPK.
//!
//! SCC follows the pseudocode of AMD's "RDNA3.5 ISA" reference guide (the SOP1, SOP2,
//! SOPC and SOPK instructions), which agrees with the "AMD GCN3 ISA" and "RDNA2 ISA" guides for every
//! instruction here: carries and borrows for the unsigned add/sub, signed overflow for
//! `s_add_i32`/`s_sub_i32`, `D != 0` for the bitwise operations, shifts, `s_not` and
//! `s_bcnt1`, "S0 was selected" for min/max, the comparison for SOPC, `EXEC != 0` for the
//! saveexec forms; `s_mul_i32`, `s_cselect`, `s_ff1`, `s_flbit`, `s_bitset` and the moves
//! leave SCC alone.

use gpuabi_amdgpu::Opcode;

use crate::image::Decoded;
use crate::wave::{Wave, EXEC};

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

/// Executes a scalar ALU instruction other than the program-counter moves.
pub fn exec(d: &Decoded, w: &mut Wave) {
    use Opcode::*;
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
        // The flat scratch base (the only hardware register `check_inst` lets it write)
        // addresses private memory through flat instructions, which the model does not
        // route to scratch: nothing to do.
        SSetregB32 => {}
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
