//! The vector ALU's media and packing instructions and the VOP3 integer and f32
//! instructions of three sources besides `valu`'s: sums of absolute differences, byte
//! interpolation, byte alignment, bit-field masks, RDNA's signed adds and RDNA 3's two-step
//! min/max, cube-map coordinates, the DX9 multiply-adds, RDNA's lighting multiply, and the
//! conversions that pack f32 or 32-bit integers into bytes or 16-bit halves. Each follows
//! its entry in AMD's "AMD GCN3 ISA", "RDNA2 ISA" or "RDNA3 ISA" guide.

use gpuabi_amdgpu::Opcode;

use super::half::to_norm16;
use super::valu::{fma_legacy, lane_value64, map2, map3};
use super::{double, float};
use crate::image::{Decoded, Dst, Src};
use crate::wave::{Wave, LANE_STRIDE};

/// The unsigned byte `i` of `x`.
fn byte(x: u32, i: u32) -> u32 {
    x >> (8 * i) & 0xff
}

/// V_SAD_U8: S2 + the sum of |S0.u8[i] - S1.u8[i]| over the four bytes (wrapping).
pub fn sad_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(c, |s, i| s.wrapping_add(byte(a, i).abs_diff(byte(b, i))))
}

/// V_MSAD_U8: as [`sad_u8`], leaving out the bytes where S1's byte is 0 (the mask).
pub fn msad_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4)
        .filter(|i| byte(b, *i) != 0)
        .fold(c, |s, i| s.wrapping_add(byte(a, i).abs_diff(byte(b, i))))
}

/// The quad SADs (V_QSAD_PK_U16_U8, V_MQSAD_PK_U16_U8, V_MQSAD_U32_U8): for k = 0..3, the
/// (masked) SAD of the four bytes of S0 from byte k on against S1, plus accumulator k.
fn quad_sad(s0: u64, s1: u32, masked: bool, acc: impl Fn(usize) -> u32) -> [u32; 4] {
    std::array::from_fn(|k| {
        let window = (s0 >> (8 * k)) as u32;
        if masked {
            msad_u8(window, s1, acc(k))
        } else {
            sad_u8(window, s1, acc(k))
        }
    })
}

/// V_LERP_U8: each byte of D is (S0.u8 + S1.u8 + bit 0 of S2's byte) >> 1.
pub fn lerp_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(0, |d, i| {
        d | ((byte(a, i) + byte(b, i) + (byte(c, i) & 1)) >> 1) << (8 * i)
    })
}

/// The cube-map face (0-5), the coordinates SC and TC on it and the major axis MA of the
/// direction (S0, S1, S2) = (x, y, z), as LLVM's constant folding of `llvm.amdgcn.cube*`
/// (ConstantFolding.cpp) reads V_CUBEID_F32 and the others: z is major when |z| >= |x|
/// and |z| >= |y|, else y when |y| >= |x|, else x; a negative major axis picks the odd
/// face.
fn cube(x: f32, y: f32, z: f32) -> (f32, f32, f32, f32) {
    let negative = |v: f32| v < 0.0;
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        if negative(z) {
            (5.0, -x, -y, z)
        } else {
            (4.0, x, -y, z)
        }
    } else if y.abs() >= x.abs() {
        if negative(y) {
            (3.0, x, -z, y)
        } else {
            (2.0, x, z, y)
        }
    } else if negative(x) {
        (1.0, z, -y, x)
    } else {
        (0.0, -z, -y, x)
    }
}

/// V_MULLIT_F32 ("RDNA2 ISA"): the lighting multiply: -MAX_FLOAT when S1 is -MAX_FLOAT, -inf
/// or NaN, or S2 is not positive (or NaN); otherwise S0 · S1.
pub fn mullit(a: u32, b: u32, c: u32) -> u32 {
    let (s1, s2) = (f32::from_bits(b), f32::from_bits(c));
    if s1 == f32::MIN || s1 == f32::NEG_INFINITY || s1.is_nan() || s2.is_nan() || s2 <= 0.0 {
        f32::MIN.to_bits()
    } else {
        float::binary(a, b, |x, y| x * y)
    }
}

/// An f32 to an unsigned byte (`v_cvt_pk_u8_f32`, `v_cvt_pkaccum_u8_f32`). The guides write
/// only `flt32_to_uint8`; the project rounds to nearest even and saturates to 0..255, NaN
/// giving 0.
pub fn f32_to_u8(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        0
    } else {
        f.round_ties_even().clamp(0.0, 255.0) as u32
    }
}

/// Runs `d` if it is an instruction of this module; returns whether it was.
pub fn exec(d: &Decoded, w: &mut Wave) -> bool {
    use Opcode::*;
    match d.op {
        // RDNA's V_ADD_NC_I32 / V_SUB_NC_I32 wrap as their unsigned forms.
        VAddNcI32 => map2(w, d, |a, b| a.wrapping_add(b)),
        VSubNcI32 => map2(w, d, |a, b| a.wrapping_sub(b)),
        // V_MAD_I32_I24: S0[23:0] * S1[23:0] (signed) + S2.
        VMadI32I24 => map3(w, d, |a, b, c| {
            let s24 = |x: u32| ((x << 8) as i32) >> 8;
            s24(a).wrapping_mul(s24(b)).wrapping_add(c as i32) as u32
        }),
        // V_MAXMIN_I32: min(max(S0, S1), S2); V_MINMAX_I32 the other way round.
        VMaxminI32 => map3(w, d, |a, b, c| {
            (a as i32).max(b as i32).min(c as i32) as u32
        }),
        VMinmaxI32 => map3(w, d, |a, b, c| {
            (a as i32).min(b as i32).max(c as i32) as u32
        }),
        VMaxminU32 => map3(w, d, |a, b, c| a.max(b).min(c)),
        VMinmaxU32 => map3(w, d, |a, b, c| a.min(b).max(c)),
        // V_ALIGNBYTE_B32: D = ({S0, S1} >> (8 · S2[1:0]))[31:0].
        VAlignbyteB32 => map3(w, d, |a, b, c| {
            ((u64::from(a) << 32 | u64::from(b)) >> (8 * (c & 3))) as u32
        }),
        // V_BFM_B32: ((1 << S0[4:0]) - 1) << S1[4:0].
        VBfmB32 => map2(w, d, |a, b| super::salu::low_bits32(a & 31) << (b & 31)),
        VSadU8 => map3(w, d, sad_u8),
        // V_SAD_HI_U8: the SAD of the bytes shifted to bits 31:16, plus S2.
        VSadHiU8 => map3(w, d, |a, b, c| (sad_u8(a, b, 0) << 16).wrapping_add(c)),
        // V_SAD_U16: S2 + the sum of |S0.u16[i] - S1.u16[i]|; V_SAD_U32: S2 + |S0 - S1|.
        VSadU16 => map3(w, d, |a, b, c| {
            let h = |x: u32, i: u32| x >> (16 * i) & 0xffff;
            (0..2).fold(c, |s, i| s.wrapping_add(h(a, i).abs_diff(h(b, i))))
        }),
        VSadU32 => map3(w, d, |a, b, c| a.abs_diff(b).wrapping_add(c)),
        VMsadU8 => map3(w, d, msad_u8),
        VLerpU8 => map3(w, d, lerp_u8),
        // V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8: four 16-bit SADs of the byte windows of the
        // 64-bit S0 against S1, each plus its 16-bit half of the 64-bit S2; V_MQSAD_U32_U8:
        // four 32-bit masked SADs plus the four dwords of the 128-bit S2.
        VQsadPkU16U8 | VMqsadPkU16U8 => {
            let masked = d.op == VMqsadPkU16U8;
            let mut r = [0u64; LANE_STRIDE];
            super::valu::for_active(w.exec(), w.lanes(), |l| {
                let (s0, s2) = (lane_value64(w, d.src[0], l), lane_value64(w, d.src[2], l));
                let s1 = super::valu::lane_value(w, d.src[1], l);
                let sads = quad_sad(s0, s1, masked, |k| (s2 >> (16 * k)) as u32 & 0xffff);
                r[l] = (0..4).fold(0u64, |acc, k| acc | u64::from(sads[k] & 0xffff) << (16 * k));
            });
            double::write64(w, d, &r);
        }
        VMqsadU32U8 => {
            let (Dst::Vgpr(dst), Src::Vgpr(acc)) = (d.dst[0], d.src[2]) else {
                return true;
            };
            let mut r = [[0u32; 4]; LANE_STRIDE];
            super::valu::for_active(w.exec(), w.lanes(), |l| {
                let s0 = lane_value64(w, d.src[0], l);
                let s1 = super::valu::lane_value(w, d.src[1], l);
                r[l] = quad_sad(s0, s1, true, |k| w.v(acc + k as u16, l));
            });
            super::valu::for_active(w.exec(), w.lanes(), |l| {
                for (k, v) in r[l].iter().enumerate() {
                    w.set_v(dst + k as u16, l, *v);
                }
            });
        }
        // V_CUBEID_F32 / V_CUBESC_F32 / V_CUBETC_F32: the face and the coordinates (see
        // [`cube`]); V_CUBEMA_F32: twice the major axis.
        VCubeidF32 | VCubescF32 | VCubetcF32 | VCubemaF32 => map3(w, d, |a, b, c| {
            let (id, sc, tc, ma) = cube(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
            match d.op {
                // The face number is no arithmetic result: a NaN source does not make it NaN.
                VCubeidF32 => id.to_bits(),
                VCubescF32 => float::arith(&[a, b, c], sc),
                VCubetcF32 => float::arith(&[a, b, c], tc),
                _ => float::arith(&[a, b, c], ma + ma),
            }
        }),
        // V_MAD_LEGACY_F32 (GCN 1.2): S0 * S1 + S2 as V_MAD_F32 (product rounded, denormals
        // flushed), with the DX9 rule that a ±0 factor makes the product +0.
        VMadLegacyF32 => map3(w, d, |a, b, c| {
            if a & 0x7fff_ffff == 0 || b & 0x7fff_ffff == 0 {
                float::mad(0, 0, c)
            } else {
                float::mad(a, b, c)
            }
        }),
        VFmaLegacyF32 => map3(w, d, fma_legacy),
        VMullitF32 => map3(w, d, mullit),
        // V_CVT_PK_U8_F32: byte S1[1:0] of S2 replaced by the f32 S0 as a byte.
        VCvtPkU8F32 => map3(w, d, |a, b, c| {
            let shift = 8 * (b & 3);
            (c & !(0xff << shift)) | f32_to_u8(a) << shift
        }),
        // V_CVT_PKACCUM_U8_F32 (GCN 1.2): the same into D.
        VCvtPkaccumU8F32 => {
            let mut a = [0; LANE_STRIDE];
            let mut b = [0; LANE_STRIDE];
            super::valu::source(w, d, 0, &mut a);
            super::valu::source(w, d, 1, &mut b);
            let (exec, lanes) = (w.exec(), w.lanes());
            if let Dst::Vgpr(r) = d.dst[0] {
                let out = w.vreg_mut(r);
                super::valu::for_active(exec, lanes, |l| {
                    let shift = 8 * (b[l] & 3);
                    out[l] = (out[l] & !(0xff << shift)) | f32_to_u8(a[l]) << shift;
                });
            }
        }
        // V_CVT_PKNORM_I16_F32 / U16 (RDNA 3's V_CVT_PK_NORM_*): D = {norm(S1), norm(S0)}.
        VCvtPknormI16F32 | VCvtPknormU16F32 => map2(w, d, |a, b| {
            let signed = d.op == VCvtPknormI16F32;
            let n = |x: u32| u32::from(to_norm16(f64::from(f32::from_bits(x)), signed));
            n(a) | n(b) << 16
        }),
        // RDNA 3's V_CVT_PK_I16_F32 / V_CVT_PK_U16_F32: D = {cvt(S1), cvt(S0)}, each
        // truncated and saturated to 16 bits, NaN giving 0 (as V_CVT_I32_F32).
        VCvtPkI16F32 => map2(w, d, |a, b| {
            let c = |x: u32| u32::from(f32::from_bits(x) as i16 as u16);
            c(a) | c(b) << 16
        }),
        VCvtPkU16F32 => map2(w, d, |a, b| {
            let c = |x: u32| u32::from(f32::from_bits(x) as u16);
            c(a) | c(b) << 16
        }),
        // V_CVT_PK_I16_I32 / V_CVT_PK_U16_U32: D = {sat16(S1), sat16(S0)}.
        VCvtPkI16I32 => map2(w, d, |a, b| {
            let c = |x: u32| (x as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff;
            c(a) | c(b) << 16
        }),
        VCvtPkU16U32 => map2(w, d, |a, b| a.min(0xffff) | b.min(0xffff) << 16),
        _ => return false,
    }
    true
}
