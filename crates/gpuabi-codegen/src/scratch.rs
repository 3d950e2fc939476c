//! Per-lane scratch (private) memory accesses: stack arrays and spill slots.
//!
//! GFX11 has architected flat scratch: `scratch_*` instructions address the lane's private
//! memory with a per-lane VGPR offset, a uniform SGPR offset or neither, plus an
//! immediate, and need no set-up. GCN 1.2 has no scratch instructions, and on GFX10
//! `scratch_*` would need `FLAT_SCRATCH` initialised by the kernel: both use `buffer_*` on
//! the swizzled private segment buffer the kernel receives in `s[0:3]`, with the wave's
//! offset as `soffset` (what llc-19 emits for `amdgpu_kernel` on both).
//!
//! Code with calls on GFX10 uses `scratch_*` too, addressed from the call ABI's stack
//! pointer (an SGPR byte offset, as ACO does from GFX9 on). Its kernel first sets
//! `FLAT_SCRATCH` from the HSA flat-scratch-init registers and the wave's offset, as llc-19
//! does (see `entry.rs`); the simulator gives `scratch_*` the lane's private memory
//! directly and does not model that register.
//!
//! Code with calls on GCN 1.2 addresses its stack through the call ABI's stack pointer,
//! which there is the swizzled private segment buffer itself with the wave's offset folded
//! into its base (ACO before GFX9): `buffer_*` with that resource, `soffset` 0, and the
//! frame offset as the immediate (a uniform dynamic offset goes through a VGPR, since
//! `soffset` is added after the swizzle).

use gpuabi_amdgpu::{MemMods, Opcode, Operand, Target};

use crate::mir::{MInst, MOp, Opnd, Origin, Slice};

/// Whether scratch goes through the private segment buffer (`buffer_*`) rather than
/// `scratch_*`.
pub fn uses_buffer(target: Target) -> bool {
    !matches!(target, Target::Gfx1100 | Target::Gfx12)
}

/// The largest immediate offset of a scratch access on `target`: 12 bits unsigned in
/// MUBUF, 13 bits signed in GFX11's `scratch_*`.
pub fn max_offset(_target: Target) -> i32 {
    4095
}

/// Where a scratch access goes, besides its immediate offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The immediate offset alone.
    None,
    /// A per-lane byte offset in a VGPR.
    Vgpr(Slice),
    /// A uniform byte offset in an SGPR (RDNA only).
    Sgpr(Slice),
}

/// The registers GCN 1.2's buffer scratch accesses need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferRegs {
    /// The private segment buffer descriptor (4 SGPRs).
    pub rsrc: Slice,
    /// The wave's byte offset in it; `None` when the descriptor's base already holds it
    /// (a call ABI's stack pointer), and `soffset` is the constant 0.
    pub wave_offset: Option<Slice>,
}

impl BufferRegs {
    /// A call ABI's stack pointer used as the scratch resource.
    pub fn stack_pointer(sp: Slice) -> BufferRegs {
        BufferRegs {
            rsrc: sp,
            wave_offset: None,
        }
    }

    /// The `soffset` operand.
    pub fn soffset(&self) -> Opnd {
        match self.wave_offset {
            Some(w) => Opnd::Temp(w),
            None => Opnd::Fixed(Operand::Imm(gpuabi_amdgpu::Imm::Int(0))),
        }
    }
}

/// Whether a stack pointer of `dwords` SGPRs is a scratch buffer resource (GCN 1.2)
/// rather than a byte offset.
pub fn is_resource(dwords: u8) -> bool {
    dwords == 4
}

fn opcode(by_buffer: bool, store: bool, dwords: u8) -> Opcode {
    use Opcode::*;
    match (!by_buffer, store, dwords) {
        (true, false, 1) => ScratchLoadDword,
        (true, false, 2) => ScratchLoadDwordx2,
        (true, false, _) => ScratchLoadDwordx4,
        (true, true, 1) => ScratchStoreDword,
        (true, true, 2) => ScratchStoreDwordx2,
        (true, true, _) => ScratchStoreDwordx4,
        (false, false, 1) => BufferLoadDword,
        (false, false, 2) => BufferLoadDwordx2,
        (false, false, _) => BufferLoadDwordx4,
        (false, true, 1) => BufferStoreDword,
        (false, true, 2) => BufferStoreDwordx2,
        (false, true, _) => BufferStoreDwordx4,
    }
}

/// A scratch load (`store` false, `data` written) or store (`data` read) of 1, 2 or 4
/// dwords, through the private segment buffer when `buffer` names it, else with
/// `scratch_*`. The offset must be within [`max_offset`].
pub fn access(
    target: Target,
    store: bool,
    data: Slice,
    base: Base,
    offset: i32,
    buffer: Option<BufferRegs>,
    origin: Origin,
) -> MInst {
    let op = opcode(buffer.is_some(), store, data.dwords);
    let _ = target;
    let mut mods = MemMods {
        offset,
        ..MemMods::default()
    };
    let off = || Opnd::Fixed(Operand::Off);
    let opnds: Vec<Opnd> = if buffer.is_none() {
        let (v, s) = match base {
            Base::None => (off(), off()),
            Base::Vgpr(v) => (Opnd::Temp(v), off()),
            Base::Sgpr(s) => (off(), Opnd::Temp(s)),
        };
        if store {
            vec![v, Opnd::Temp(data), s]
        } else {
            vec![Opnd::Temp(data), v, s]
        }
    } else {
        let Some(regs) = buffer else {
            unreachable!("checked above")
        };
        let v = match base {
            Base::Vgpr(v) => {
                mods.offen = true;
                Opnd::Temp(v)
            }
            _ => off(),
        };
        let rest = [v, Opnd::Temp(regs.rsrc), regs.soffset()];
        let mut o = vec![Opnd::Temp(data)];
        o.extend(rest);
        o
    };
    MInst {
        op: MOp::Hw(op),
        opnds: opnds.into_iter().collect(),
        mods,
        e64: false,
        cost: crate::mir::AbiCost::None,
        origin,
    }
}

/// A scratch access of physical registers: `data` (1, 2 or 4 dwords) at `offset` from the stack
/// pointer `sp` (or at `offset` alone): `scratch_*` with `sp` as SADDR on RDNA, `buffer_*`
/// through `sp` as the resource on GCN 1.2. Used by the code that saves and restores
/// registers around calls and at a function's entry and return, which runs after register
/// allocation.
pub fn access_regs(
    target: Target,
    store: bool,
    data: gpuabi_layout::reg::RegRange,
    sp: Option<gpuabi_layout::reg::RegRange>,
    offset: i32,
    origin: Origin,
) -> MInst {
    let _ = target;
    let off = Opnd::Fixed(Operand::Off);
    let d = Opnd::Fixed(Operand::Reg(data));
    let by_buffer = sp.is_some_and(|r| is_resource(r.count as u8));
    let op = opcode(by_buffer, store, data.count as u8);
    let opnds = match sp {
        Some(r) if by_buffer => vec![
            d,
            off,
            Opnd::Fixed(Operand::Reg(r)),
            Opnd::Fixed(Operand::Imm(gpuabi_amdgpu::Imm::Int(0))),
        ],
        _ => {
            let s = sp.map_or(off.clone(), |r| Opnd::Fixed(Operand::Reg(r)));
            if store {
                vec![off, d, s]
            } else {
                vec![d, off, s]
            }
        }
    };
    MInst {
        op: MOp::Hw(op),
        opnds: opnds.into_iter().collect(),
        mods: MemMods {
            offset,
            ..MemMods::default()
        },
        e64: false,
        cost: crate::mir::AbiCost::None,
        origin,
    }
}
