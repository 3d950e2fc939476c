//! Global memory and stack arrays.
//!
//! Global accesses use `global_*` on RDNA and `flat_*` on GCN 1.2 with the 64-bit address
//! in a VGPR pair; the waits for loads come later ([`crate::insert_waitcnt`]).
//! Stack arrays are static slots of the per-lane frame, 8-byte aligned, zero-filled when
//! the kernel starts (the IR's semantics), accessed through [`crate::scratch`].

use gpuabi_amdgpu::{Opcode, Operand};
use gpuabi_ir::ir::{Opcode as Op, Type};

use super::{dword, dwords_of, imm, Isel, Val};
use crate::error::CodegenError;
use crate::mir::{Opnd, Slice};
use crate::scratch::{self, Base, BufferRegs};

/// The global memory instruction for an IR load or store: `flat_*` on GCN 1.2, whose flat
/// instructions reach global memory and which has no `global_*`, `global_*` on RDNA.
fn global_opcode(s: &Isel<'_>, op: Op, ty: Type) -> Opcode {
    use Opcode::*;
    let flat = !s.target().is_rdna();
    let wide = dwords_of(ty) == 2;
    match (op, flat) {
        (Op::Load, false) if wide => GlobalLoadDwordx2,
        (Op::Load, false) => GlobalLoadDword,
        (Op::Load, true) if wide => FlatLoadDwordx2,
        (Op::Load, true) => FlatLoadDword,
        (Op::LoadU8, false) => GlobalLoadUbyte,
        (Op::LoadU8, true) => FlatLoadUbyte,
        (Op::LoadS8, false) => GlobalLoadSbyte,
        (Op::LoadS8, true) => FlatLoadSbyte,
        (Op::LoadU16, false) => GlobalLoadUshort,
        (Op::LoadU16, true) => FlatLoadUshort,
        (Op::LoadS16, false) => GlobalLoadSshort,
        (Op::LoadS16, true) => FlatLoadSshort,
        (Op::Store, false) if wide => GlobalStoreDwordx2,
        (Op::Store, false) => GlobalStoreDword,
        (Op::Store, true) if wide => FlatStoreDwordx2,
        (Op::Store, true) => FlatStoreDword,
        (Op::Store8, false) => GlobalStoreByte,
        (Op::Store8, true) => FlatStoreByte,
        (Op::Store16, false) => GlobalStoreShort,
        (Op::Store16, true) => FlatStoreShort,
        _ => unreachable!("not a global memory operation"),
    }
}

/// A global load; the result is in VGPRs.
pub(crate) fn load(s: &mut Isel<'_>, op: Op, ty: Type, addr: Val) -> Result<Val, CodegenError> {
    let o = global_opcode(s, op, ty);
    let a = s.vgpr_of(addr, 2);
    let r = s.vtemp(dwords_of(ty));
    let mut opnds = vec![Opnd::Temp(s.whole(r)), Opnd::Temp(s.whole(a))];
    if s.target().is_rdna() {
        opnds.push(Opnd::Fixed(Operand::Off));
    }
    s.valu(o, opnds);
    Ok(Val::V(r))
}

/// A global store.
pub(crate) fn store(
    s: &mut Isel<'_>,
    op: Op,
    ty: Type,
    value: Val,
    addr: Val,
) -> Result<(), CodegenError> {
    let o = global_opcode(s, op, ty);
    let a = s.vgpr_of(addr, 2);
    let v = s.vgpr_of(value, dwords_of(ty));
    let mut opnds = vec![Opnd::Temp(s.whole(a)), Opnd::Temp(s.whole(v))];
    if s.target().is_rdna() {
        opnds.push(Opnd::Fixed(Operand::Off));
    }
    s.valu(o, opnds);
    Ok(())
}

/// A stack array: a frame slot, zero-filled at kernel start.
pub(crate) fn alloca(s: &mut Isel<'_>, size: u32) -> Val {
    let base = s.f.stack_bytes.next_multiple_of(8);
    s.f.stack_bytes = base + size.next_multiple_of(8);
    Val::Stack { base, size }
}

/// The address of a stack access: base register and immediate offset. A called
/// function's frame starts at its stack pointer.
fn stack_address(s: &mut Isel<'_>, base: u32, off: Val) -> (Base, i32, Option<BufferRegs>) {
    let a = frame_address(s, base, off);
    rebase(s, a)
}

/// A frame address made relative to the stack pointer, in a function that has one, and
/// the buffer registers the access goes through (GCN 1.2).
pub(crate) fn rebase(s: &mut Isel<'_>, (b, o): (Base, i32)) -> (Base, i32, Option<BufferRegs>) {
    let Some(sp) = s.f.stack_pointer else {
        return (b, o, s.launch.scratch);
    };
    let sp = s.whole(sp);
    if scratch::is_resource(sp.dwords) {
        // The frame's base is in the resource; on GCN 1.2 frame addresses never have a
        // uniform SGPR part (see `frame_address`).
        return (b, o, Some(BufferRegs::stack_pointer(sp)));
    }
    let (b, o) = match b {
        Base::None => (Base::Sgpr(sp), o),
        Base::Sgpr(a) => {
            let t = s.stemp(1);
            s.salu(
                Opcode::SAddU32,
                vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(a), Opnd::Temp(sp)],
            );
            (Base::Sgpr(dword(t, 0)), o)
        }
        Base::Vgpr(v) => {
            let t = s.vtemp(1);
            s.valu(
                Opcode::VAddNcU32,
                vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(sp), Opnd::Temp(v)],
            );
            (Base::Vgpr(dword(t, 0)), o)
        }
    };
    (b, o, None)
}

fn frame_address(s: &mut Isel<'_>, base: u32, off: Val) -> (Base, i32) {
    let max = scratch::max_offset(s.target());
    match off {
        Val::Const(c) => {
            let at = i64::from(base) + i64::from(c as u32 as i32);
            if (0..=i64::from(max)).contains(&at) {
                return (Base::None, at as i32);
            }
            let t = s.vtemp(1);
            s.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, 0)), imm(at as u32)]);
            (Base::Vgpr(dword(t, 0)), 0)
        }
        Val::S(t) if s.launch.scratch.is_none() && s.target().is_rdna() => {
            let a = s.stemp(1);
            s.salu(
                Opcode::SAddU32,
                vec![Opnd::Temp(dword(a, 0)), Opnd::Temp(dword(t, 0)), imm(base)],
            );
            (Base::Sgpr(dword(a, 0)), 0)
        }
        other => {
            let v = super::alu::v_binop(s, Op::Add, Type::I32, other, Val::Const(u64::from(base)));
            let Val::V(t) = v else {
                unreachable!("vector result")
            };
            (Base::Vgpr(dword(t, 0)), 0)
        }
    }
}

fn stack_base(handle: Val) -> u32 {
    match handle {
        Val::Stack { base, .. } => base,
        _ => unreachable!("verified: stack handle"),
    }
}

/// `sload`: always a per-lane (divergent) result.
pub(crate) fn sload(
    s: &mut Isel<'_>,
    ty: Type,
    handle: Val,
    off: Val,
) -> Result<Val, CodegenError> {
    let (b, imm_off, buffer) = stack_address(s, stack_base(handle), off);
    let r = s.vtemp(dwords_of(ty));
    let inst = scratch::access(s.target(), false, s.whole(r), b, imm_off, buffer, s.origin);
    s.push(inst);
    Ok(Val::V(r))
}

/// `sstore`.
pub(crate) fn sstore(
    s: &mut Isel<'_>,
    ty: Type,
    value: Val,
    handle: Val,
    off: Val,
) -> Result<(), CodegenError> {
    let v = s.vgpr_of(value, dwords_of(ty));
    let (b, imm_off, buffer) = stack_address(s, stack_base(handle), off);
    let inst = scratch::access(s.target(), true, s.whole(v), b, imm_off, buffer, s.origin);
    s.push(inst);
    Ok(())
}

/// Zero-fills `bytes` of the frame from offset 0 (run in the entry block, all lanes).
pub(crate) fn zero_frame(s: &mut Isel<'_>, bytes: u32) {
    if bytes == 0 {
        return;
    }
    let zero = s.vtemp(1);
    s.emit(Opcode::VMovB32, [Opnd::Temp(dword(zero, 0)), imm(0)]);
    let max = scratch::max_offset(s.target()) as u32;
    for at in (0..bytes).step_by(4) {
        let (b, o) = if at <= max {
            (Base::None, at as i32)
        } else {
            let t = s.vtemp(1);
            s.emit(Opcode::VMovB32, [Opnd::Temp(dword(t, 0)), imm(at)]);
            (Base::Vgpr(dword(t, 0)), 0)
        };
        let (b, o, buffer) = rebase(s, (b, o));
        let data: Slice = dword(zero, 0);
        let inst = scratch::access(s.target(), true, data, b, o, buffer, s.origin);
        s.push(inst);
    }
}
