//! The read-modify-write of an atomic, shared by the LDS atomics (`ds_*`) and the global,
//! flat and buffer atomics (`*_atomic_*`), after the atomic opcode tables of AMD's GCN3,
//! RDNA2 and RDNA3 ISA guides.
//!
//! Decisions: the f32 atomics (`fmin`, `fmax`, RDNA 3's `add_f32`) compute as the vector
//! ALU's `v_min_f32`, `v_max_f32` and `v_add_f32` do in the simulator (IEEE mode, denormals
//! kept, the NaN rule of `exec::float`); the guides give these operations without a NaN or
//! denormal rule of their own.

use gpuabi_amdgpu::AtomicOp;

use crate::exec::float;
use crate::exec::valu::{fmax, fmin};

/// The new memory value of an atomic from the old one and the data (`cmp` only for
/// [`AtomicOp::CmpStore`]); `bits` is 32 or 64.
pub fn apply(op: AtomicOp, old: u64, data: u64, cmp: u64, bits: u32) -> u64 {
    let sign = |v: u64| {
        if bits == 32 {
            i64::from(v as u32 as i32)
        } else {
            v as i64
        }
    };
    let mask = if bits == 32 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    let (old, data, cmp) = (old & mask, data & mask, cmp & mask);
    let f32_of = |v: u64| f32::from_bits(v as u32);
    let v = match op {
        AtomicOp::Add => old.wrapping_add(data),
        AtomicOp::Sub => old.wrapping_sub(data),
        AtomicOp::MinI => {
            if sign(data) < sign(old) {
                data
            } else {
                old
            }
        }
        AtomicOp::MaxI => {
            if sign(data) > sign(old) {
                data
            } else {
                old
            }
        }
        AtomicOp::MinU => old.min(data),
        AtomicOp::MaxU => old.max(data),
        AtomicOp::And => old & data,
        AtomicOp::Or => old | data,
        AtomicOp::Xor => old ^ data,
        AtomicOp::Swap => data,
        AtomicOp::CmpStore => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        // "tmp = MEM[ADDR]; MEM[ADDR] = (tmp >= DATA) ? 0 : tmp + 1" (unsigned).
        AtomicOp::Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        // "MEM[ADDR] = (tmp == 0 || tmp > DATA) ? DATA : tmp - 1" (unsigned).
        AtomicOp::Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        AtomicOp::FMin => u64::from(fmin(f32_of(old), f32_of(data)).to_bits()),
        AtomicOp::FMax => u64::from(fmax(f32_of(old), f32_of(data)).to_bits()),
        AtomicOp::FAdd => u64::from(float::binary(old as u32, data as u32, |a, b| a + b)),
    };
    v & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_operations_follow_the_guides() {
        // MIN_I32 compares as signed, MIN_U32 as unsigned.
        assert_eq!(
            apply(AtomicOp::MinI, 5, u64::from(u32::MAX), 0, 32),
            0xffff_ffff
        );
        assert_eq!(apply(AtomicOp::MinU, 5, u64::from(u32::MAX), 0, 32), 5);
        assert_eq!(apply(AtomicOp::MaxI, 0x8000_0000, 1, 0, 32), 1);
        assert_eq!(apply(AtomicOp::MaxI, 1 << 63, 1, 0, 64), 1);
        // 32-bit adds wrap at 32 bits, 64-bit ones carry into the high dword.
        assert_eq!(apply(AtomicOp::Add, 0xffff_ffff, 2, 0, 32), 1);
        assert_eq!(apply(AtomicOp::Add, 0xffff_ffff, 2, 0, 64), 0x1_0000_0001);
        assert_eq!(apply(AtomicOp::CmpStore, 7, 9, 7, 32), 9);
        assert_eq!(apply(AtomicOp::CmpStore, 7, 9, 8, 32), 7);
        // INC wraps to 0 at the data value, DEC to the data value at 0 or above it.
        assert_eq!(apply(AtomicOp::Inc, 3, 4, 0, 32), 4);
        assert_eq!(apply(AtomicOp::Inc, 4, 4, 0, 32), 0);
        assert_eq!(apply(AtomicOp::Inc, 9, 4, 0, 32), 0);
        assert_eq!(apply(AtomicOp::Dec, 3, 4, 0, 32), 2);
        assert_eq!(apply(AtomicOp::Dec, 0, 4, 0, 32), 4);
        assert_eq!(apply(AtomicOp::Dec, 9, 4, 0, 32), 4);
        assert_eq!(apply(AtomicOp::Dec, 0, 4, 0, 64), 4);
        // f32: 1.5 + 2.25 = 3.75; min(-0, +0) = -0.
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(apply(AtomicOp::FAdd, f(1.5), f(2.25), 0, 32), f(3.75));
        assert_eq!(apply(AtomicOp::FMin, f(0.0), f(-0.0), 0, 32), f(-0.0));
        assert_eq!(apply(AtomicOp::FMax, f(-1.0), f(2.0), 0, 32), f(2.0));
    }
}
