//! Vector ALU: VOP1, VOP2, VOP3, VOPC. Results are written only for lanes active in
//! `exec`; lane masks written by compares and carries have 0 for inactive lanes (as the
//! hardware writes them).
//!
//! f32 sources take the VOP3 modifiers `neg`/`abs` (applied as they are gathered). The
//! f32 rules (denormals kept, NaN results, the models of the transcendental and division
//! instructions) are in [`super::float`]. `v_min_f32`/`v_max_f32` follow IEEE mode for quiet
//! NaNs (see [`fmin`]).

use gpuabi_amdgpu::{output_mods, ClampKind, Omod, Opcode, Sdwa, SdwaSel};

use super::{compare, double, float, half, lane_moves, media, salu};
use crate::image::{Decoded, Dst, Src};
use crate::wave::{Wave, LANE_STRIDE};

pub(super) type Lanes = [u32; LANE_STRIDE];

#[inline(always)]
fn gather(w: &Wave, src: Src, out: &mut Lanes) {
    match src {
        Src::Vgpr(r) => *out = *w.vreg(r),
        other => *out = [w.s32(other); LANE_STRIDE],
    }
}

/// Source `i` of `d` in every lane, with its f32 modifiers applied.
#[inline(always)]
pub(super) fn source(w: &Wave, d: &Decoded, i: usize, out: &mut Lanes) {
    source_bits(w, d, i, out);
    if (d.src_mods.neg | d.src_mods.abs) >> i & 1 != 0 {
        for v in out.iter_mut() {
            *v = d.src_mods.apply(i, *v);
        }
    }
}

/// Source `i` of `d` in every lane, with its f16 modifiers applied: `abs` clears bit 15,
/// then `neg` flips it (an f16 operand's sign; the VOP3 modifiers act on the operand's
/// type).
pub(super) fn source16(w: &Wave, d: &Decoded, i: usize, out: &mut Lanes) {
    source_bits(w, d, i, out);
    let (abs, neg) = (d.src_mods.abs >> i & 1 != 0, d.src_mods.neg >> i & 1 != 0);
    for v in out.iter_mut() {
        if abs {
            *v &= !0x8000;
        }
        if neg {
            *v ^= 0x8000;
        }
    }
}

/// The 64-bit source `i` of `d` in every lane (a VGPR pair or a 64-bit scalar), with its
/// f64 modifiers applied to bit 63 when `float`.
pub(super) fn source64(w: &Wave, d: &Decoded, i: usize, float: bool, out: &mut [u64; LANE_STRIDE]) {
    let lanes = w.lanes();
    for (l, v) in out.iter_mut().enumerate().take(lanes) {
        *v = lane_value64(w, d.src[i], l);
    }
    if float {
        let (abs, neg) = (d.src_mods.abs >> i & 1 != 0, d.src_mods.neg >> i & 1 != 0);
        for v in out.iter_mut() {
            if abs {
                *v &= !(1 << 63);
            }
            if neg {
                *v ^= 1 << 63;
            }
        }
    }
}

/// Source `i` of `d` in every lane with its SDWA selection, without modifiers.
#[inline(always)]
fn source_bits(w: &Wave, d: &Decoded, i: usize, out: &mut Lanes) {
    gather(w, d.src[i], out);
    if let Some(s) = d.sdwa {
        let (sel, sext) = if i == 0 {
            (s.src0_sel, s.src0_sext)
        } else {
            (s.src1_sel, s.src1_sext)
        };
        if sel != SdwaSel::Dword && i < 2 {
            for v in out.iter_mut() {
                *v = Sdwa::select(sel, sext, *v);
            }
        }
    }
}

/// The 32-bit value of `src` in lane `lane` (a scalar source is the same in every lane).
#[inline(always)]
pub(super) fn lane_value(w: &Wave, src: Src, lane: usize) -> u32 {
    match src {
        Src::Vgpr(r) => w.v(r, lane),
        other => w.s32(other),
    }
}

/// Calls `f` for every active lane: a straight loop when all lanes run (so the compiler can
/// vectorise it), a walk over the set bits otherwise.
#[inline(always)]
pub(super) fn for_active(exec: u64, lanes: usize, mut f: impl FnMut(usize)) {
    if exec.count_ones() as usize == lanes {
        for l in 0..lanes {
            f(l);
        }
    } else {
        let mut m = exec;
        while m != 0 {
            f(m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
}

#[inline(always)]
pub(super) fn map1(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u32) {
    let mut a = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l]));
    }
}

#[inline(always)]
pub(super) fn map2(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> u32) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l], b[l]));
    }
}

/// [`map2`] with the lane index as a third input.
fn map2_lane(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32, usize) -> u32) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l], b[l], l));
    }
}

#[inline(always)]
pub(super) fn map3(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32, u32) -> u32) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    let mut c = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    source(w, d, 2, &mut c);
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| out[l] = f(a[l], b[l], c[l]));
    }
}

/// Two sources, a carry in (bit per lane) and a carry out written to the mask destination.
#[inline(always)]
fn map2_carry(w: &mut Wave, d: &Decoded, carry_in: u64, f: impl Fn(u32, u32, bool) -> (u32, bool)) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut carry = 0u64;
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| {
            let (v, c) = f(a[l], b[l], carry_in >> l & 1 != 0);
            out[l] = v;
            carry |= u64::from(c) << l;
        });
    }
    w.write_mask(d.dst[1], carry);
}

#[inline(always)]
fn compare(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> bool) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    for_active(exec, lanes, |l| bits |= u64::from(f(a[l], b[l])) << l);
    w.write_mask(d.dst[0], bits);
}

/// V_CMPX_*: the compare's result in the active lanes becomes EXEC (inactive lanes stay
/// off), after the pseudocode `EXEC.u64[laneId] = ...` of AMD's "RDNA3 ISA" guide; on GCN
/// the same mask goes to the named destination too ("AMD GCN3 ISA", VOPC: "write VCC (or
/// SDST) and EXEC"), which RDNA's rows do not have (`Dst::None`).
fn compare_exec(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> bool) {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    source(w, d, 0, &mut a);
    source(w, d, 1, &mut b);
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    for_active(exec, lanes, |l| bits |= u64::from(f(a[l], b[l])) << l);
    w.write_mask(d.dst[0], bits);
    w.set_exec(bits);
}

fn compare_exec_f32(w: &mut Wave, d: &Decoded, f: impl Fn(f32, f32) -> bool) {
    compare_exec(w, d, |a, b| f(f32::from_bits(a), f32::from_bits(b)));
}

#[inline(always)]
fn cmpf(w: &mut Wave, d: &Decoded, f: impl Fn(f32, f32) -> bool) {
    compare(w, d, |a, b| f(f32::from_bits(a), f32::from_bits(b)));
}

/// A one-source f32 operation under the NaN rule of [`float`].
#[inline(always)]
fn mapf1(w: &mut Wave, d: &Decoded, f: impl Fn(f32) -> f32) {
    map1(w, d, |a| float::unary(a, &f));
}

/// A two-source f32 operation under the NaN rule of [`float`].
#[inline(always)]
fn mapf2(w: &mut Wave, d: &Decoded, f: impl Fn(f32, f32) -> f32) {
    map2(w, d, |a, b| float::binary(a, b, &f));
}

/// A compare of 64-bit sources (VGPR pairs or 64-bit scalars).
fn compare64(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u64) -> bool) {
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    for_active(exec, lanes, |l| {
        bits |= u64::from(f(
            lane_value64(w, d.src[0], l),
            lane_value64(w, d.src[1], l),
        )) << l;
    });
    w.write_mask(d.dst[0], bits);
}

/// A 64-bit compare whose lane mask becomes EXEC (V_CMPX_*_U64), and on GCN the named
/// destination too (see [`compare_exec`]).
fn compare64_exec(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u64) -> bool) {
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    for_active(exec, lanes, |l| {
        bits |= u64::from(f(
            lane_value64(w, d.src[0], l),
            lane_value64(w, d.src[1], l),
        )) << l;
    });
    w.write_mask(d.dst[0], bits);
    w.set_exec(bits);
}

/// V_CMP_CLASS_F16 ("AMD GCN3 ISA", "RDNA3 ISA"): the class of the f16 in S0[15:0] tested
/// against the mask S1, in the active lanes. The f16 source's `neg`/`abs` act on its bit
/// 15 (the f32 rule of [`source`] would flip bit 31), `abs` first.
fn class_f16_bits(w: &Wave, d: &Decoded) -> u64 {
    let mut a = [0; LANE_STRIDE];
    let mut b = [0; LANE_STRIDE];
    gather(w, d.src[0], &mut a);
    source(w, d, 1, &mut b);
    let (abs, neg) = (d.src_mods.abs & 1 != 0, d.src_mods.neg & 1 != 0);
    let (exec, lanes) = (w.exec(), w.lanes());
    let mut bits = 0u64;
    for_active(exec, lanes, |l| {
        let mut x = a[l] as u16;
        if abs {
            x &= 0x7fff;
        }
        if neg {
            x ^= 0x8000;
        }
        bits |= u64::from(float::class_f16(x, b[l])) << l;
    });
    bits
}

/// The 64-bit value of `src` in lane `lane`.
#[inline(always)]
pub(super) fn lane_value64(w: &Wave, src: Src, lane: usize) -> u64 {
    match src {
        Src::Vgpr(v) => u64::from(w.v(v, lane)) | u64::from(w.v(v + 1, lane)) << 32,
        s => w.s64(s),
    }
}

/// 64-bit shift: the amount is `src0` (32-bit), the value `src1` (64-bit).
fn shift64(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u32) -> u64) {
    let (exec, lanes) = (w.exec(), w.lanes());
    let Dst::Vgpr(r) = d.dst[0] else {
        return;
    };
    let mut results = [0u64; LANE_STRIDE];
    for_active(exec, lanes, |l| {
        let amount = lane_value(w, d.src[0], l);
        let value = lane_value64(w, d.src[1], l);
        results[l] = f(value, amount & 63);
    });
    for_active(exec, lanes, |l| {
        w.set_v(r, l, results[l] as u32);
        w.set_v(r + 1, l, (results[l] >> 32) as u32);
    });
}

/// GCN 1.0's 64-bit shifts (`v_lshl_b64`): the value first, the amount second.
fn shift64_value_first(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u32) -> u64) {
    let swapped = Decoded {
        src: [d.src[1], d.src[0], d.src[2], d.src[3]],
        ..d.clone()
    };
    shift64(w, &swapped, f);
}

/// `v_min_f32` in IEEE mode (the mode the code generator's kernels run in; the simulator
/// does not model the MODE register), as AMD's RDNA2 ISA manual writes V_MIN_F32: a
/// signalling NaN operand gives itself quieted (the first one first), a quiet NaN operand
/// gives the other operand (so two quiet NaNs give the second), and -0 orders below +0.
pub fn fmin(a: f32, b: f32) -> f32 {
    min_max(a, b, true)
}

/// `v_max_f32` in IEEE mode: as [`fmin`], with +0 above -0.
pub fn fmax(a: f32, b: f32) -> f32 {
    min_max(a, b, false)
}

fn min_max(a: f32, b: f32, min: bool) -> f32 {
    const QUIET: u32 = 1 << 22;
    let signalling = |x: f32| x.is_nan() && x.to_bits() & QUIET == 0;
    if signalling(a) {
        return f32::from_bits(a.to_bits() | QUIET);
    }
    if signalling(b) {
        return f32::from_bits(b.to_bits() | QUIET);
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let a_first = if a == b {
        a.is_sign_negative() == min
    } else {
        (a < b) == min
    };
    if a_first {
        a
    } else {
        b
    }
}

/// The median of three integers: V_MED3_I32/U32 of AMD's ISA guides (the largest of the
/// other two when one operand is the maximum).
pub(super) fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    let max3 = a.max(b).max(c);
    if max3 == a {
        b.max(c)
    } else if max3 == b {
        a.max(c)
    } else {
        a.max(b)
    }
}

/// `v_med3_f32` as V_MED3_F32 of AMD's "CDNA3 ISA" and "RDNA3 ISA" guides write it, with
/// the IEEE-mode [`fmin`]/[`fmax`]: a NaN operand makes it `min(min(S0, S1), S2)`;
/// otherwise the maximum of the two operands other than the maximum of all three.
pub fn med3_f32(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return fmin(fmin(a, b), c);
    }
    let max3 = fmax(fmax(a, b), c);
    if max3 == a {
        fmax(b, c)
    } else if max3 == b {
        fmax(a, c)
    } else {
        fmax(a, b)
    }
}

/// Executes a vector ALU instruction: a dual-issue pair, a sub-dword (SDWA or 16-bit)
/// instruction, or a plain one.
pub fn exec(d: &Decoded, w: &mut Wave) {
    // RDNA 4's transcendentals of one scalar are encoded as vector instructions.
    if super::scalar_float::exec(d, w) {
        return;
    }
    if let Some(y) = &d.dual {
        return exec_dual(d, y, w);
    }
    match (d.sdwa, d.dst[0]) {
        (Some(s), Dst::Vgpr(r)) if s.dst_sel != SdwaSel::Dword => {
            // The operation computes its result into the whole register; `dst_sel` and
            // `dst_unused` then say which bits of it land where.
            let old = *w.vreg(r);
            exec_one(d, w);
            let (exec, lanes) = (w.exec(), w.lanes());
            let out = w.vreg_mut(r);
            for_active(exec, lanes, |l| out[l] = s.merge(old[l], out[l]));
        }
        _ => exec_one(d, w),
    }
    output_modifiers(d, w);
}

/// `omod` then `clamp` on an f32 result (`gpuabi_amdgpu::output_mods`); the integer
/// `clamp` is part of the operations it saturates.
fn output_modifiers(d: &Decoded, w: &mut Wave) {
    let m = d.src_mods;
    if !m.clamp && m.omod == Omod::None {
        return;
    }
    if output_mods(d.op).clamp != Some(ClampKind::Float) {
        return;
    }
    let (exec, lanes) = (w.exec(), w.lanes());
    if let Dst::Vgpr(r) = d.dst[0] {
        let out = w.vreg_mut(r);
        for_active(exec, lanes, |l| {
            out[l] = gpuabi_amdgpu::output_mods::apply_f32(out[l], m.omod, m.clamp)
        });
    }
}

/// VOPD ("RDNA3 ISA", "VOPD"): both halves read their sources before either writes. The
/// halves write different VGPRs, so X runs first with its result held back, and Y then
/// reads the registers as they were.
fn exec_dual(x: &Decoded, y: &Decoded, w: &mut Wave) {
    let Dst::Vgpr(rx) = x.dst[0] else {
        exec_one(x, w);
        return exec_one(y, w);
    };
    let before = *w.vreg(rx);
    exec_one(x, w);
    let x_result = *w.vreg(rx);
    *w.vreg_mut(rx) = before;
    exec_one(y, w);
    *w.vreg_mut(rx) = x_result;
}

fn exec_one(d: &Decoded, w: &mut Wave) {
    use Opcode::*;
    if compare::exec(d, w)
        || half::exec(d, w)
        || double::exec(d, w)
        || lane_moves::exec(d, w)
        || media::exec(d, w)
    {
        return;
    }
    match d.op {
        // RDNA 3's `D0.b16 = S0.b16`: the halves are the decoded selections.
        VMovB32 | VMovB16 => map1(w, d, |a| a),
        VNotB32 => map1(w, d, |a| !a),
        VRcpF32 => mapf1(w, d, |a| 1.0 / a),
        VSqrtF32 => mapf1(w, d, f32::sqrt),
        VRsqF32 => mapf1(w, d, float::rsq),
        VFloorF32 => mapf1(w, d, f32::floor),
        VCeilF32 => mapf1(w, d, f32::ceil),
        VTruncF32 => mapf1(w, d, f32::trunc),
        VRndneF32 => mapf1(w, d, f32::round_ties_even),
        VFractF32 => mapf1(w, d, float::fract),
        VSinF32 => mapf1(w, d, float::sin),
        VCosF32 => mapf1(w, d, float::cos),
        VExpF32 => mapf1(w, d, float::exp),
        VLogF32 => mapf1(w, d, float::log),
        VCvtF32Ubyte0 => map1(w, d, |a| ((a & 0xff) as f32).to_bits()),
        // "RDNA3 ISA", V_CVT_U32_U16: D0.u32 = 32'U(S0.u16), the low half zero-extended.
        VCvtU32U16 => map1(w, d, |a| a & 0xffff),
        // Leading zeros; -1 when no bit is set.
        VFfbhU32 => map1(w, d, |a| if a == 0 { u32::MAX } else { a.leading_zeros() }),
        VBcntU32B32 => map2(w, d, |a, b| a.count_ones().wrapping_add(b)),
        // The set bits of S0 below this lane (lanes 0-31 for `lo`, 32-63 for `hi`), plus S1
        // ("AMD GCN3 ISA", V_MBCNT_LO_U32_B32: ThreadMask = (1 << ThreadPosition) - 1).
        VMbcntLoU32B32 => map2_lane(w, d, |a, b, l| {
            let below = (1u64 << l) - 1;
            (a & below as u32).count_ones().wrapping_add(b)
        }),
        VMbcntHiU32B32 => map2_lane(w, d, |a, b, l| {
            let below = (1u64 << l) - 1;
            (a & (below >> 32) as u32).count_ones().wrapping_add(b)
        }),
        VLdexpF32 => map2(w, d, |a, b| float::unary(a, |x| float::ldexp(x, b as i32))),
        VCvtF32I32 => map1(w, d, |a| (a as i32 as f32).to_bits()),
        VCvtF32U32 => map1(w, d, |a| (a as f32).to_bits()),
        // Saturating, NaN gives 0 (Rust's `as` is exactly the hardware's rule).
        VCvtI32F32 => map1(w, d, |a| f32::from_bits(a) as i32 as u32),
        VCvtU32F32 => map1(w, d, |a| f32::from_bits(a) as u32),
        VReadfirstlaneB32 => {
            let exec = w.exec();
            let lane = if exec == 0 {
                0
            } else {
                exec.trailing_zeros() as usize
            };
            let v = lane_value(w, d.src[0], lane);
            w.write_s32(d.dst[0], v);
        }
        VReadlaneB32 => {
            let lane = w.s32(d.src[1]) as usize & (w.lanes() - 1);
            let v = lane_value(w, d.src[0], lane);
            w.write_s32(d.dst[0], v);
        }
        VWritelaneB32 => {
            let lane = w.s32(d.src[1]) as usize & (w.lanes() - 1);
            let v = w.s32(d.src[0]);
            if let Dst::Vgpr(r) = d.dst[0] {
                w.set_v(r, lane, v);
            }
        }
        VAddF32 => mapf2(w, d, |a, b| a + b),
        VSubF32 => mapf2(w, d, |a, b| a - b),
        VMulF32 => mapf2(w, d, |a, b| a * b),
        VMinF32 => map2(w, d, |a, b| {
            fmin(f32::from_bits(a), f32::from_bits(b)).to_bits()
        }),
        VMaxF32 => map2(w, d, |a, b| {
            fmax(f32::from_bits(a), f32::from_bits(b)).to_bits()
        }),
        VMinI32 => map2(w, d, |a, b| (a as i32).min(b as i32) as u32),
        VMaxI32 => map2(w, d, |a, b| (a as i32).max(b as i32) as u32),
        VMinU32 => map2(w, d, |a, b| a.min(b)),
        VMaxU32 => map2(w, d, |a, b| a.max(b)),
        VAndB32 => map2(w, d, |a, b| a & b),
        VOrB32 => map2(w, d, |a, b| a | b),
        VXorB32 => map2(w, d, |a, b| a ^ b),
        // The "rev" shifts take the amount first: D = S1 << S0[4:0].
        VLshlrevB32 => map2(w, d, |a, b| b << (a & 31)),
        VLshrrevB32 => map2(w, d, |a, b| b >> (a & 31)),
        VAshrrevI32 => map2(w, d, |a, b| ((b as i32) >> (a & 31)) as u32),
        // With `clamp` the unsigned result saturates (see `gpuabi_amdgpu::output_mods`).
        VAddNcU32 if d.src_mods.clamp => map2(w, d, |a, b| a.saturating_add(b)),
        VSubNcU32 if d.src_mods.clamp => map2(w, d, |a, b| a.saturating_sub(b)),
        VSubrevNcU32 if d.src_mods.clamp => map2(w, d, |a, b| b.saturating_sub(a)),
        VAddNcU32 => map2(w, d, |a, b| a.wrapping_add(b)),
        VSubNcU32 => map2(w, d, |a, b| a.wrapping_sub(b)),
        VSubrevNcU32 => map2(w, d, |a, b| b.wrapping_sub(a)),
        VCndmaskB32 => {
            let mask = w.mask(d.src[2]);
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    out[l] = if mask >> l & 1 != 0 { b[l] } else { a[l] }
                });
            }
        }
        // `clamp` saturates the sum or difference; the carry out is the same.
        VAddCoU32 if d.src_mods.clamp => map2_carry(w, d, 0, |a, b, _| {
            let (v, c) = a.overflowing_add(b);
            (if c { u32::MAX } else { v }, c)
        }),
        VSubCoU32 if d.src_mods.clamp => map2_carry(w, d, 0, |a, b, _| {
            let (v, c) = a.overflowing_sub(b);
            (if c { 0 } else { v }, c)
        }),
        VSubrevCoU32 if d.src_mods.clamp => map2_carry(w, d, 0, |a, b, _| {
            let (v, c) = b.overflowing_sub(a);
            (if c { 0 } else { v }, c)
        }),
        VAddCoU32 => map2_carry(w, d, 0, |a, b, _| a.overflowing_add(b)),
        VSubCoU32 => map2_carry(w, d, 0, |a, b, _| a.overflowing_sub(b)),
        // V_SUBREV_CO_U32: D0 = S1 - S0, the borrow to the lane mask ("RDNA2 ISA";
        // GCN3's V_SUBREV_U32).
        VSubrevCoU32 => map2_carry(w, d, 0, |a, b, _| b.overflowing_sub(a)),
        // V_SUBREV_CO_CI_U32: D0 = S1 - S0 - carry-in, borrow out ("RDNA2 ISA"; GCN3's
        // V_SUBBREV_U32).
        VSubbrevCoU32 => {
            let cin = w.mask(d.src[2]);
            map2_carry(w, d, cin, |a, b, c| {
                let r = b.wrapping_sub(a).wrapping_sub(u32::from(c));
                (r, u64::from(a) + u64::from(c) > u64::from(b))
            })
        }
        // V_MUL_U32_U24: D0 = S0[23:0] * S1[23:0], the low 32 bits ("GCN3 ISA", "RDNA2 ISA").
        VMulU32U24 => map2(w, d, |a, b| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)),
        VAddcCoU32 => {
            let cin = w.mask(d.src[2]);
            map2_carry(w, d, cin, |a, b, c| {
                let r = u64::from(a) + u64::from(b) + u64::from(c);
                (r as u32, r >> 32 != 0)
            })
        }
        VSubbCoU32 => {
            let cin = w.mask(d.src[2]);
            map2_carry(w, d, cin, |a, b, c| {
                let r = a.wrapping_sub(b).wrapping_sub(u32::from(c));
                (r, u64::from(b) + u64::from(c) > u64::from(a))
            })
        }
        // The low 32 bits of a product do not depend on the signedness.
        VMulLoU32 | VMulLoI32 => map2(w, d, |a, b| a.wrapping_mul(b)),
        VMulHiU32 => map2(w, d, |a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32),
        VMulHiI32 => map2(w, d, |a, b| {
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
        }),
        VFmaF32 => map3(w, d, float::fma),
        VDivFixupF32 => map3(w, d, float::div_fixup),
        VDivFmasF32 => {
            let vcc = w.vcc();
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            let mut c = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            source(w, d, 2, &mut c);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    out[l] = float::div_fmas(a[l], b[l], c[l], vcc >> l & 1 != 0)
                });
            }
        }
        VDivScaleF32 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            let mut c = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            source(w, d, 2, &mut c);
            let (exec, lanes) = (w.exec(), w.lanes());
            let mut mask = 0u64;
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    let (v, vcc) = float::div_scale(
                        f32::from_bits(a[l]),
                        f32::from_bits(b[l]),
                        f32::from_bits(c[l]),
                    );
                    out[l] = v;
                    mask |= u64::from(vcc) << l;
                });
            }
            w.write_mask(d.dst[1], mask);
        }
        VMadU64U32 => {
            let (exec, lanes) = (w.exec(), w.lanes());
            let Dst::Vgpr(r) = d.dst[0] else {
                return;
            };
            let mut results = [(0u64, false); LANE_STRIDE];
            for_active(exec, lanes, |l| {
                let product =
                    u64::from(lane_value(w, d.src[0], l)) * u64::from(lane_value(w, d.src[1], l));
                results[l] = product.overflowing_add(lane_value64(w, d.src[2], l));
            });
            let mut carry = 0u64;
            for_active(exec, lanes, |l| {
                w.set_v(r, l, results[l].0 as u32);
                w.set_v(r + 1, l, (results[l].0 >> 32) as u32);
                carry |= u64::from(results[l].1) << l;
            });
            w.write_mask(d.dst[1], carry);
        }
        // Three-source integer and bit-field instructions, after V_ADD3_U32, V_LSHL_ADD_U32,
        // V_BFE_U32/I32 (offset S1[4:0], width S2[4:0]) and V_BFI_B32 of AMD's "RDNA3 ISA"
        // reference guide.
        VAdd3U32 => map3(w, d, |a, b, c| a.wrapping_add(b).wrapping_add(c)),
        // V_OR3_B32: D0 = S0 | S1 | S2; V_XAD_U32: D0 = (S0 ^ S1) + S2 ("RDNA2 ISA").
        VOr3B32 => map3(w, d, |a, b, c| a | b | c),
        VXadU32 => map3(w, d, |a, b, c| (a ^ b).wrapping_add(c)),
        VLshlAddU32 => map3(w, d, |a, b, c| (a << (b & 31)).wrapping_add(c)),
        // V_MAD_U32_U24: D = S0[23:0] * S1[23:0] + S2.
        VMadU32U24 if d.src_mods.clamp => map3(w, d, |a, b, c| {
            let v = u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff) + u64::from(c);
            u32::try_from(v).unwrap_or(u32::MAX)
        }),
        VMadU32U24 => map3(w, d, |a, b, c| {
            (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c)
        }),
        VBfeU32 => map3(w, d, |a, b, c| (a >> (b & 31)) & salu::low_bits32(c & 31)),
        VBfeI32 => map3(w, d, |a, b, c| {
            salu::sign_extend((a >> (b & 31)) & salu::low_bits32(c & 31), c & 31)
        }),
        VBfiB32 => map3(w, d, |a, b, c| (a & b) | (!a & c)),
        // V_ALIGNBIT_B32: D = ({S0, S1} >> S2[4:0])[31:0].
        VAlignbitB32 => map3(w, d, |a, b, c| {
            ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32
        }),
        VPermB32 => map3(w, d, byte_permute),
        VMed3I32 => map3(w, d, |a, b, c| med3(a as i32, b as i32, c as i32) as u32),
        VMed3U32 => map3(w, d, med3),
        VMed3F32 => map3(w, d, |a, b, c| {
            med3_f32(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits()
        }),
        // V_FMAC_F32: D0 = fma(S0, S1, D0).
        VFmacF32 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| out[l] = float::fma(a[l], b[l], out[l]));
            }
        }
        // V_MAC_F32: D0 = S0 * S1 + D0 ("GCN3 ISA"), as V_MAD_F32: the product is rounded
        // before the sum, and, as the guide says of MAD/MAC, denormals are not supported:
        // denormal inputs and results are flushed to zero of the same sign.
        VMacF32 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| out[l] = float::mad(a[l], b[l], out[l]));
            }
        }
        // V_MAXMIN_F32: D0 = v_min_f32(v_max_f32(S0, S1), S2); V_MINMAX_F32 the other way
        // round ("RDNA3 ISA" guide), with the IEEE-mode min/max.
        VMaxminF32 => map3(w, d, |a, b, c| {
            let [a, b, c] = [a, b, c].map(f32::from_bits);
            fmin(fmax(a, b), c).to_bits()
        }),
        VMinmaxF32 => map3(w, d, |a, b, c| {
            let [a, b, c] = [a, b, c].map(f32::from_bits);
            fmax(fmin(a, b), c).to_bits()
        }),
        VLshlrevB64 => shift64(w, d, |v, s| v << s),
        VLshlB64 => shift64_value_first(w, d, |v, s| v << s),
        VLshrB64 => shift64_value_first(w, d, |v, s| v >> s),
        VAshrI64 => shift64_value_first(w, d, |v, s| ((v as i64) >> s) as u64),
        VLshrrevB64 => shift64(w, d, |v, s| v >> s),
        VAshrrevI64 => shift64(w, d, |v, s| ((v as i64) >> s) as u64),
        VCmpEqU32 => compare(w, d, |a, b| a == b),
        VCmpNeU32 => compare(w, d, |a, b| a != b),
        VCmpLtU32 => compare(w, d, |a, b| a < b),
        VCmpLeU32 => compare(w, d, |a, b| a <= b),
        VCmpGtU32 => compare(w, d, |a, b| a > b),
        VCmpGeU32 => compare(w, d, |a, b| a >= b),
        VCmpEqI32 => compare(w, d, |a, b| a as i32 == b as i32),
        VCmpNeI32 => compare(w, d, |a, b| a as i32 != b as i32),
        VCmpLtI32 => compare(w, d, |a, b| (a as i32) < (b as i32)),
        VCmpLeI32 => compare(w, d, |a, b| (a as i32) <= (b as i32)),
        VCmpGtI32 => compare(w, d, |a, b| (a as i32) > (b as i32)),
        VCmpGeI32 => compare(w, d, |a, b| (a as i32) >= (b as i32)),
        VCmpEqF32 => cmpf(w, d, |a, b| a == b),
        // lg is ordered (false on NaN); neq is its unordered negation of eq (true on NaN).
        VCmpLgF32 => cmpf(w, d, |a, b| !a.is_nan() && !b.is_nan() && a != b),
        VCmpNeqF32 => cmpf(w, d, |a, b| a != b),
        VCmpLtF32 => cmpf(w, d, |a, b| a < b),
        VCmpLeF32 => cmpf(w, d, |a, b| a <= b),
        VCmpGtF32 => cmpf(w, d, |a, b| a > b),
        VCmpGeF32 => cmpf(w, d, |a, b| a >= b),
        VCmpUF32 => cmpf(w, d, |a, b| a.is_nan() || b.is_nan()),
        VCmpOF32 => cmpf(w, d, |a, b| !a.is_nan() && !b.is_nan()),
        // V_CMP_N*_F32: the negation of the ordered compare, so true when a source is NaN
        // ("RDNA2 ISA", VOPC opcodes 9-14).
        VCmpNgeF32 => cmpf(w, d, |a, b| a < b || a.is_nan() || b.is_nan()),
        VCmpNlgF32 => cmpf(w, d, |a, b| a == b || a.is_nan() || b.is_nan()),
        VCmpNgtF32 => cmpf(w, d, |a, b| a <= b || a.is_nan() || b.is_nan()),
        VCmpNleF32 => cmpf(w, d, |a, b| a > b || a.is_nan() || b.is_nan()),
        VCmpNltF32 => cmpf(w, d, |a, b| a >= b || a.is_nan() || b.is_nan()),
        VCmpClassF32 => compare(w, d, float::class),
        VCmpxClassF32 | VCmpxClassF32Gcn => compare_exec(w, d, float::class),
        VCmpClassF16 => {
            let bits = class_f16_bits(w, d);
            w.write_mask(d.dst[0], bits);
        }
        VCmpxClassF16 | VCmpxClassF16Gcn => {
            let bits = class_f16_bits(w, d);
            w.write_mask(d.dst[0], bits);
            w.set_exec(bits);
        }
        VCmpxEqU32 | VCmpxEqU32Gcn => compare_exec(w, d, |a, b| a == b),
        VCmpxNeU32 | VCmpxNeU32Gcn => compare_exec(w, d, |a, b| a != b),
        VCmpxLtU32 | VCmpxLtU32Gcn => compare_exec(w, d, |a, b| a < b),
        VCmpxLeU32 | VCmpxLeU32Gcn => compare_exec(w, d, |a, b| a <= b),
        VCmpxGtU32 | VCmpxGtU32Gcn => compare_exec(w, d, |a, b| a > b),
        VCmpxGeU32 | VCmpxGeU32Gcn => compare_exec(w, d, |a, b| a >= b),
        VCmpxEqI32 | VCmpxEqI32Gcn => compare_exec(w, d, |a, b| a == b),
        VCmpxNeI32 | VCmpxNeI32Gcn => compare_exec(w, d, |a, b| a != b),
        VCmpxLtI32 | VCmpxLtI32Gcn => compare_exec(w, d, |a, b| (a as i32) < (b as i32)),
        VCmpxLeI32 | VCmpxLeI32Gcn => compare_exec(w, d, |a, b| (a as i32) <= (b as i32)),
        VCmpxGtI32 | VCmpxGtI32Gcn => compare_exec(w, d, |a, b| (a as i32) > (b as i32)),
        VCmpxGeI32 | VCmpxGeI32Gcn => compare_exec(w, d, |a, b| (a as i32) >= (b as i32)),
        // Ordered, false on NaN; neq is the unordered negation of eq, true on NaN.
        VCmpxEqF32 | VCmpxEqF32Gcn => compare_exec_f32(w, d, |a, b| a == b),
        VCmpxNeqF32 | VCmpxNeqF32Gcn => compare_exec_f32(w, d, |a, b| a != b),
        VCmpxLtF32 | VCmpxLtF32Gcn => compare_exec_f32(w, d, |a, b| a < b),
        VCmpxLeF32 | VCmpxLeF32Gcn => compare_exec_f32(w, d, |a, b| a <= b),
        VCmpxGtF32 | VCmpxGtF32Gcn => compare_exec_f32(w, d, |a, b| a > b),
        VCmpxGeF32 | VCmpxGeF32Gcn => compare_exec_f32(w, d, |a, b| a >= b),
        VCmpxEqU64 | VCmpxEqU64Gcn => compare64_exec(w, d, |a, b| a == b),
        VCmpxNeU64 | VCmpxNeU64Gcn => compare64_exec(w, d, |a, b| a != b),
        VCmpEqU64 => compare64(w, d, |a, b| a == b),
        VCmpNeU64 => compare64(w, d, |a, b| a != b),
        VCmpLtU64 => compare64(w, d, |a, b| a < b),
        VCmpLeU64 => compare64(w, d, |a, b| a <= b),
        VCmpGtU64 => compare64(w, d, |a, b| a > b),
        VCmpGeU64 => compare64(w, d, |a, b| a >= b),
        VCmpEqI64 => compare64(w, d, |a, b| a == b),
        VCmpNeI64 => compare64(w, d, |a, b| a != b),
        VCmpLtI64 => compare64(w, d, |a, b| (a as i64) < (b as i64)),
        VCmpLeI64 => compare64(w, d, |a, b| (a as i64) <= (b as i64)),
        VCmpGtI64 => compare64(w, d, |a, b| (a as i64) > (b as i64)),
        VCmpGeI64 => compare64(w, d, |a, b| (a as i64) >= (b as i64)),
        // "RDNA3 ISA": V_LSHL_OR_B32 D0 = (S0 << S1[4:0]) | S2, V_AND_OR_B32
        // D0 = (S0 & S1) | S2, V_ADD_LSHL_U32 D0 = (S0 + S1) << S2[4:0].
        VLshlOrB32 => map3(w, d, |a, b, c| (a << (b & 31)) | c),
        VAndOrB32 => map3(w, d, |a, b, c| (a & b) | c),
        VAddLshlU32 => map3(w, d, |a, b, c| a.wrapping_add(b) << (c & 31)),
        // V_RCP_IFLAG_F32 computes V_RCP_F32's value; it differs only in the exceptions
        // it raises.
        VRcpIflagF32 => mapf1(w, d, |a| 1.0 / a),
        VBfrevB32 => map1(w, d, u32::reverse_bits),
        VCmpxNgtF32 | VCmpxNgtF32Gcn => {
            compare_exec_f32(w, d, |a, b| a <= b || a.is_nan() || b.is_nan())
        }
        VCmpxNleF32 | VCmpxNleF32Gcn => {
            compare_exec_f32(w, d, |a, b| a > b || a.is_nan() || b.is_nan())
        }
        VCmpxNgeF32 | VCmpxNgeF32Gcn => {
            compare_exec_f32(w, d, |a, b| a < b || a.is_nan() || b.is_nan())
        }
        VCmpxUF32 | VCmpxUF32Gcn => compare_exec_f32(w, d, |a, b| a.is_nan() || b.is_nan()),
        VCmpxNltF32 | VCmpxNltF32Gcn => {
            compare_exec_f32(w, d, |a, b| a >= b || a.is_nan() || b.is_nan())
        }
        // 16-bit shifts: the amount is S0[3:0], the value S1[15:0]; the 16-bit result's
        // placement is the caller's (see `exec`).
        VLshlrevB16 => map2(w, d, |a, b| ((b & 0xffff) << (a & 15)) & 0xffff),
        VLshrrevB16 => map2(w, d, |a, b| (b & 0xffff) >> (a & 15)),
        VAshrrevI16 => map2(w, d, |a, b| ((b as u16 as i16) >> (a & 15)) as u16 as u32),
        VXor3B32 => map3(w, d, |a, b, c| a ^ b ^ c),
        VXnorB32 => map2(w, d, |a, b| !(a ^ b)),
        VSubrevF32 => mapf2(w, d, |a, b| b - a),
        // V_MUL_I32_I24: the signed 24-bit fields multiplied, the low 32 bits of the product.
        VMulI32I24 => map2(w, d, |a, b| {
            let s24 = |x: u32| ((x << 8) as i32) >> 8;
            s24(a).wrapping_mul(s24(b)) as u32
        }),
        // V_FMAMK_F32 D = S0 * K + S1 and V_FMAAK_F32 D = S0 * S1 + K, fused: the table
        // puts K where it is written, so both are fma(source 0, source 1, source 2).
        VFmamkF32 | VFmaakF32 => map3(w, d, float::fma),
        // V_MAD_F32 (and V_MADMK_F32/V_MADAK_F32 with K where written): S0 * S1 + S2 with
        // the product rounded first (not fused).
        VMadF32 | VMadmkF32 | VMadakF32 => map3(w, d, |a, b, c| {
            let p = float::binary(a, b, |x: f32, y: f32| x * y);
            float::binary(p, c, |x: f32, y: f32| x + y)
        }),
        VFfbhI32 => map1(w, d, salu::flbit_i32),
        VCmpxLeU64 | VCmpxLeU64Gcn => compare64_exec(w, d, |a, b| a <= b),
        // V_MUL_HI_I32_I24 / V_MUL_HI_U32_U24: bits [63:32] of the 48-bit product of the
        // signed / unsigned 24-bit fields S0[23:0] and S1[23:0] ("AMD GCN3 ISA").
        VMulHiI32I24 => map2(w, d, |a, b| {
            let s24 = |x: u32| i64::from(((x << 8) as i32) >> 8);
            ((s24(a) * s24(b)) >> 32) as u32
        }),
        VMulHiU32U24 => map2(w, d, |a, b| {
            ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32
        }),
        VMadI64I32 => mad_i64_i32(w, d),
        VCmpxLtU64 | VCmpxLtU64Gcn => compare64_exec(w, d, |a, b| a < b),
        VCmpxGtU64 | VCmpxGtU64Gcn => compare64_exec(w, d, |a, b| a > b),
        VCmpxGeU64 | VCmpxGeU64Gcn => compare64_exec(w, d, |a, b| a >= b),
        VCmpxEqI64 | VCmpxEqI64Gcn => compare64_exec(w, d, |a, b| a == b),
        VCmpxNeI64 | VCmpxNeI64Gcn => compare64_exec(w, d, |a, b| a != b),
        VCmpxLtI64 | VCmpxLtI64Gcn => compare64_exec(w, d, |a, b| (a as i64) < (b as i64)),
        VCmpxLeI64 | VCmpxLeI64Gcn => compare64_exec(w, d, |a, b| (a as i64) <= (b as i64)),
        VCmpxGtI64 | VCmpxGtI64Gcn => compare64_exec(w, d, |a, b| (a as i64) > (b as i64)),
        VCmpxGeI64 | VCmpxGeI64Gcn => compare64_exec(w, d, |a, b| (a as i64) >= (b as i64)),
        // Ordered: true when neither source is NaN.
        VCmpxOF32 | VCmpxOF32Gcn => compare_exec_f32(w, d, |a, b| !a.is_nan() && !b.is_nan()),
        // V_MIN3_F32 / V_MAX3_F32: v_min_f32(v_min_f32(S0, S1), S2) and the max likewise
        // ("RDNA3 ISA", "AMD GCN3 ISA"), so with the IEEE-mode min/max a signalling NaN
        // comes out of the first step quieted and the second step then returns S2.
        VMin3F32 => map3(w, d, |a, b, c| {
            let [a, b, c] = [a, b, c].map(f32::from_bits);
            fmin(fmin(a, b), c).to_bits()
        }),
        VMax3F32 => map3(w, d, |a, b, c| {
            let [a, b, c] = [a, b, c].map(f32::from_bits);
            fmax(fmax(a, b), c).to_bits()
        }),
        VMin3I32 => map3(w, d, |a, b, c| {
            (a as i32).min(b as i32).min(c as i32) as u32
        }),
        VMax3I32 => map3(w, d, |a, b, c| {
            (a as i32).max(b as i32).max(c as i32) as u32
        }),
        VMin3U32 => map3(w, d, |a, b, c| a.min(b).min(c)),
        VMax3U32 => map3(w, d, |a, b, c| a.max(b).max(c)),
        VMulLegacyF32 => map2(w, d, mul_legacy),
        VSwapB32 => {
            let (Dst::Vgpr(x), Dst::Vgpr(y)) = (d.dst[0], d.dst[1]) else {
                return;
            };
            let (exec, lanes) = (w.exec(), w.lanes());
            for_active(exec, lanes, |l| {
                let (vx, vy) = (w.v(x, l), w.v(y, l));
                w.set_v(x, l, vy);
                w.set_v(y, l, vx);
            });
        }
        // V_FREXP_MANT_F32: the significand in [0.5, 1), ±inf and NaN as they are;
        // V_FREXP_EXP_I32_F32: the exponent, 0 for ±inf and NaN ("RDNA3 ISA"); denormals
        // are normalised first (the project keeps f32 denormals).
        VFrexpMantF32 => mapf1(w, d, |x| half::frexp(f64::from(x)).0 as f32),
        VFrexpExpI32F32 => map1(w, d, |a| half::frexp(f64::from(f32::from_bits(a))).1 as u32),
        // V_CVT_FLR_I32_F32 (RDNA 3's V_CVT_FLOOR_I32_F32): (int)floor(S0);
        // V_CVT_RPI_I32_F32 (V_CVT_NEAREST_I32_F32): (int)floor(S0 + 0.5), the sum an f32
        // addition as the pseudocode writes it; saturated, NaN giving 0.
        VCvtFlrI32F32 => map1(w, d, |a| f32::from_bits(a).floor() as i32 as u32),
        VCvtRpiI32F32 => map1(w, d, |a| (f32::from_bits(a) + 0.5).floor() as i32 as u32),
        // V_CVT_OFF_F32_I4: the signed 4-bit S0[3:0] divided by 16 (-0.5 to 0.4375).
        VCvtOffF32I4 => map1(w, d, |a| {
            ((((a & 0xf) << 28) as i32 >> 28) as f32 / 16.0).to_bits()
        }),
        VCvtF32Ubyte1 => map1(w, d, |a| ((a >> 8 & 0xff) as f32).to_bits()),
        VCvtF32Ubyte2 => map1(w, d, |a| ((a >> 16 & 0xff) as f32).to_bits()),
        VCvtF32Ubyte3 => map1(w, d, |a| ((a >> 24) as f32).to_bits()),
        // GCN 1.2's legacy forms differ from V_EXP_F32/V_LOG_F32 in precision only ("AMD
        // GCN3 ISA": "using the same precision as Sea Islands"), which the models share.
        VExpLegacyF32 => mapf1(w, d, float::exp),
        VLogLegacyF32 => mapf1(w, d, float::log),
        // V_FMAC_LEGACY_F32 (RDNA 3's V_FMAC_DX9_ZERO_F32): D = fma(S0, S1, D), except that
        // a ±0 factor makes the product +0 even against inf or NaN, so D = +0 + D (LLVM's
        // constant folding of `llvm.amdgcn.fma.legacy` says the same).
        VFmacLegacyF32 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| out[l] = fma_legacy(a[l], b[l], out[l]));
            }
        }
        // V_DOT4C_I32_I8: D += the sum of the products of the signed bytes of S0 and S1
        // ("RDNA2 ISA"), wrapping.
        VDot4cI32I8 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            source(w, d, 0, &mut a);
            source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                for_active(exec, lanes, |l| {
                    let dot = (0..4).fold(0i32, |s, k| {
                        let x = i32::from((a[l] >> (8 * k)) as i8);
                        let y = i32::from((b[l] >> (8 * k)) as i8);
                        s.wrapping_add(x * y)
                    });
                    out[l] = (out[l] as i32).wrapping_add(dot) as u32;
                });
            }
        }
        // V_FFBL_B32 (RDNA 3's V_CTZ_I32_B32): the lowest set bit; -1 when none is.
        VFfblB32 => map1(w, d, |a| if a == 0 { u32::MAX } else { a.trailing_zeros() }),
        _ => unreachable!("{:?} is not a vector ALU instruction", d.op),
    }
}

/// V_MAD_I64_I32 ("RDNA3 ISA"): {D1.u1, D0.i64} = 65-bit S0.i32 * S1.i32 + S2.i64, so
/// the mask bit of a lane is bit 64 of the exact two's-complement sum (its sign, since the
/// sum always fits in 65 bits).
fn mad_i64_i32(w: &mut Wave, d: &Decoded) {
    let (exec, lanes) = (w.exec(), w.lanes());
    let Dst::Vgpr(r) = d.dst[0] else {
        return;
    };
    let mut results = [0i128; LANE_STRIDE];
    for_active(exec, lanes, |l| {
        let product = i128::from(lane_value(w, d.src[0], l) as i32)
            * i128::from(lane_value(w, d.src[1], l) as i32);
        results[l] = product + i128::from(lane_value64(w, d.src[2], l) as i64);
    });
    let mut carry = 0u64;
    for_active(exec, lanes, |l| {
        w.set_v(r, l, results[l] as u32);
        w.set_v(r + 1, l, (results[l] >> 32) as u32);
        carry |= (((results[l] >> 64) & 1) as u64) << l;
    });
    w.write_mask(d.dst[1], carry);
}

/// V_MUL_LEGACY_F32 ("AMD GCN3 ISA": D = S0 * S1 with the DX9 rule 0.0 * x = 0.0; RDNA 3's
/// V_MUL_DX9_ZERO_F32: "if S0 == 0.0 or S1 == 0.0 then D0 = 0.0F"): +0 when either source
/// is ±0, even when the other is inf or NaN; otherwise the f32 product under the NaN rule.
/// A denormal is not zero (the project keeps denormals).
pub fn mul_legacy(a: u32, b: u32) -> u32 {
    if a & 0x7fff_ffff == 0 || b & 0x7fff_ffff == 0 {
        0
    } else {
        float::binary(a, b, |x, y| x * y)
    }
}

/// `fma(a, b, c)` with the DX9 rule of V_FMA_LEGACY_F32 / V_FMAC_LEGACY_F32: a ±0 factor
/// makes the product +0 whatever the other (inf, NaN), so the result is `+0 + c`.
pub fn fma_legacy(a: u32, b: u32, c: u32) -> u32 {
    if a & 0x7fff_ffff == 0 || b & 0x7fff_ffff == 0 {
        float::binary(0, c, |x, y| x + y)
    } else {
        float::fma(a, b, c)
    }
}

/// V_PERM_B32 ("RDNA2 ISA", "AMD GCN3 ISA"): byte k of D is chosen from the bytes of
/// {S0, S1} (S1 the low dword) by byte k of S2: 0-7 pick that byte, 8-11 the sign of
/// byte 1, 3, 5 or 7 as 0x00 or 0xff, 12 gives 0x00 and 13-255 give 0xff.
fn byte_permute(s0: u32, s1: u32, sel: u32) -> u32 {
    let data = u64::from(s0) << 32 | u64::from(s1);
    let byte = |n: u32| (data >> (8 * n)) as u8;
    let sign = |n: u32| if byte(n) & 0x80 != 0 { 0xff } else { 0 };
    (0..4).fold(0u32, |d, k| {
        let out = match (sel >> (8 * k)) as u8 {
            s @ 0..=7 => byte(u32::from(s)),
            8 => sign(1),
            9 => sign(3),
            10 => sign(5),
            11 => sign(7),
            12 => 0,
            _ => 0xff,
        };
        d | u32::from(out) << (8 * k)
    })
}
