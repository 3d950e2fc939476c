//! Kernel entry: where a kernel finds its arguments and launch values, per entry ABI, and
//! the code that takes them into temps at the top of the kernel.

use std::collections::BTreeSet;

use gpuabi_amdgpu::{Opcode, Operand, Target, Waitcnt};
use gpuabi_ir::ir::{self, Extra, InstrKind, Opcode as Op, Region, Type};
use gpuabi_layout::reg::{RegFile, RegRange};
use serde::Serialize;

use crate::isel::{dword, imm, Isel, Val};
use crate::mir::{MInst, MOp, Opnd, Pseudo, Temp};
use crate::options::Entry;
use crate::scratch::BufferRegs;

/// Where a kernel's arguments and launch values come from, once taken into temps.
#[derive(Debug, Clone, Default)]
pub(crate) struct Launch {
    /// Kernel parameters in order.
    pub params: Vec<Val>,
    /// Launch values the body uses: (opcode, dimension) → value.
    pub builtins: Vec<((Op, usize), Val)>,
    /// GCN 1.2's private segment buffer and wave offset.
    pub scratch: Option<BufferRegs>,
}

impl Launch {
    /// The value of a launch builtin (computed at entry).
    pub fn builtin(&self, op: Op, dim: usize) -> Val {
        self.builtins
            .iter()
            .find(|(k, _)| *k == (op, dim))
            .map(|(_, v)| *v)
            .expect("entry computes every builtin the body uses")
    }
}

/// One kernel argument in the kernarg segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernArg {
    /// Parameter name, or the hidden argument's metadata name (`hidden_block_count_x`, …).
    pub name: String,
    /// Byte offset in the kernarg segment.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `by_value`, `global_buffer` or a `hidden_*` kind, as LLVM's code object metadata
    /// names them.
    pub value_kind: String,
}

/// What a dispatcher needs to enter a kernel compiled for the `hsa` ABI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HsaEntry {
    /// Initial SGPRs in order: what each holds.
    pub sgprs: Vec<(String, RegRange)>,
    /// Work-item id VGPRs: how many dimensions, and whether packed into v0 (GFX11).
    pub workitem_id_dims: u8,
    /// Work-item ids packed 10 bits each in v0.
    pub packed_workitem_ids: bool,
    /// The kernarg segment: explicit then hidden arguments.
    pub kernargs: Vec<KernArg>,
    /// Total kernarg segment size.
    pub kernarg_size: u32,
}

/// Offsets of LLVM's code object v5 hidden kernel arguments from the start of the hidden
/// area (LLVM AMDGPUUsage, "Code Object V5 Metadata", hidden argument table).
const HIDDEN: [(&str, u32, u32); 13] = [
    ("hidden_block_count_x", 0, 4),
    ("hidden_block_count_y", 4, 4),
    ("hidden_block_count_z", 8, 4),
    ("hidden_group_size_x", 12, 2),
    ("hidden_group_size_y", 14, 2),
    ("hidden_group_size_z", 16, 2),
    ("hidden_remainder_x", 18, 2),
    ("hidden_remainder_y", 20, 2),
    ("hidden_remainder_z", 22, 2),
    ("hidden_global_offset_x", 40, 8),
    ("hidden_global_offset_y", 48, 8),
    ("hidden_global_offset_z", 56, 8),
    ("hidden_grid_dims", 64, 2),
];

/// Size of the hidden area LLVM reserves for code object v5.
const HIDDEN_BYTES: u32 = 256;

fn arg_size(ty: Type) -> u32 {
    match ty {
        Type::I1 => 1,
        Type::I32 | Type::F32 => 4,
        _ => 8,
    }
}

/// Lays out the kernarg segment of a kernel as LLVM does for `amdgpu_kernel`: explicit
/// arguments in order at their natural alignment, then the hidden area 8-byte aligned.
pub fn hsa_kernargs(func: &ir::Function) -> (Vec<KernArg>, u32) {
    let mut out = Vec::new();
    let mut at = 0u32;
    for p in &func.params {
        let ty = func.ty(p.value);
        let size = arg_size(ty);
        at = at.next_multiple_of(size);
        out.push(KernArg {
            name: func.value_name(p.value).to_string(),
            offset: at,
            size,
            value_kind: if ty == Type::Ptr {
                "global_buffer"
            } else {
                "by_value"
            }
            .to_string(),
        });
        at += size;
    }
    let hidden = at.next_multiple_of(8);
    for (name, off, size) in HIDDEN {
        out.push(KernArg {
            name: name.to_string(),
            offset: hidden + off,
            size,
            value_kind: name.to_string(),
        });
    }
    (out, hidden + HIDDEN_BYTES)
}

fn hidden_offset(args: &[KernArg], name: &str) -> u32 {
    args.iter()
        .find(|a| a.name == name)
        .map(|a| a.offset)
        .expect("hidden arguments are always laid out")
}

/// Launch builtins a region uses, with their dimensions.
fn used_builtins(r: &Region, out: &mut BTreeSet<(u8, usize)>) {
    for i in &r.instrs {
        match &i.kind {
            InstrKind::Op(op) => {
                let builtin = matches!(
                    op.opcode,
                    Op::LocalId
                        | Op::GroupId
                        | Op::GlobalId
                        | Op::GroupSize
                        | Op::NumGroups
                        | Op::GlobalSize
                        | Op::WorkDim
                        | Op::GlobalOffset
                );
                if builtin {
                    let dim = match op.extra {
                        Extra::Imm(d) => d as usize,
                        _ => 0,
                    };
                    out.insert((op.opcode as u8, dim));
                }
            }
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => {
                used_builtins(then_region, out);
                used_builtins(else_region, out);
            }
            InstrKind::Loop { body, .. } => used_builtins(body, out),
            _ => {}
        }
    }
}

fn opcode_of(n: u8) -> Op {
    Op::ALL
        .iter()
        .copied()
        .find(|o| *o as u8 == n)
        .expect("opcode index")
}

/// Emits the entry of `func` under the `hsa` ABI into the current (entry) block and
/// returns where everything is, with the dispatcher's view of it.
pub(crate) fn enter_hsa(s: &mut Isel<'_>) -> (Launch, HsaEntry) {
    let func = s.func;
    let target = s.target();
    let mut used = BTreeSet::new();
    used_builtins(&func.body, &mut used);
    let uses = |o: Op| used.iter().any(|(u, _)| *u == o as u8);
    let needs_gid = uses(Op::GroupId) || uses(Op::GlobalId);
    let max_dim = |ops: &[Op]| {
        used.iter()
            .filter(|(u, _)| ops.iter().any(|o| *o as u8 == *u))
            .map(|(_, d)| *d + 1)
            .max()
            .unwrap_or(0)
    };
    let gid_dims = if needs_gid {
        max_dim(&[Op::GroupId, Op::GlobalId]).max(1)
    } else {
        1
    };
    let lid_dims = max_dim(&[Op::LocalId, Op::GlobalId]) as u8;

    // Initial SGPRs in AMDHSA order.
    let mut sgprs: Vec<(String, RegRange)> = Vec::new();
    let mut next = 0u16;
    let mut take = |name: &str, n: u16, sgprs: &mut Vec<(String, RegRange)>| {
        let r = RegRange::new(RegFile::Sgpr, next, n);
        next += n;
        sgprs.push((name.to_string(), r));
        r
    };
    let rsrc = (!target.is_rdna()).then(|| take("private_segment_buffer", 4, &mut sgprs));
    let kernarg = take("kernarg_segment_ptr", 2, &mut sgprs);
    let gids: Vec<RegRange> = (0..gid_dims)
        .map(|d| take(["workgroup_id_x", "workgroup_id_y", "workgroup_id_z"][d], 1, &mut sgprs))
        .collect();
    let wave_off = rsrc.map(|_| take("private_segment_wavefront_offset", 1, &mut sgprs));

    // Take every launch register into a temp with one parallel copy.
    let mut copy: Vec<Opnd> = Vec::new();
    let into = |s: &mut Isel<'_>, r: RegRange, copy: &mut Vec<Opnd>| -> Temp {
        let t = match r.file() {
            RegFile::Sgpr => s.stemp(r.count as u8),
            RegFile::Vgpr => s.vtemp(r.count as u8),
        };
        copy.push(Opnd::Temp(s.whole(t)));
        copy.push(Opnd::Fixed(Operand::Reg(r)));
        t
    };
    let kernarg_t = into(s, kernarg, &mut copy);
    let gid_t: Vec<Temp> = gids.iter().map(|r| into(s, *r, &mut copy)).collect();
    let scratch = match (rsrc, wave_off) {
        (Some(r), Some(w)) => {
            let rt = into(s, r, &mut copy);
            let wt = into(s, w, &mut copy);
            s.f.temps[rt.index()].no_spill = true;
            s.f.temps[wt.index()].no_spill = true;
            Some(BufferRegs {
                rsrc: s.whole(rt),
                wave_offset: s.whole(wt),
            })
        }
        _ => None,
    };
    let packed = target == Target::Gfx1100;
    let lid_regs = if packed { lid_dims.min(1) } else { lid_dims };
    let lid_t: Vec<Temp> = (0..lid_regs)
        .map(|d| into(s, RegRange::new(RegFile::Vgpr, u16::from(d), 1), &mut copy))
        .collect();
    s.push(MInst {
        op: MOp::Pseudo(Pseudo::ParallelCopy),
        opnds: copy.into_iter().collect(),
        mods: Default::default(),
        e64: false,
        origin: s.origin,
    });

    let (kernargs, kernarg_size) = hsa_kernargs(func);
    let load = |s: &mut Isel<'_>, offset: u32, dwords: u8| -> Temp {
        let t = s.stemp(dwords);
        let op = if dwords == 2 {
            Opcode::SLoadDwordx2
        } else {
            Opcode::SLoadDword
        };
        s.emit(op, [Opnd::Temp(s.whole(t)), Opnd::Temp(s.whole(kernarg_t)), imm(offset)]);
        t
    };
    // Explicit arguments.
    let mut params = Vec::new();
    for (p, a) in func.params.iter().zip(&kernargs) {
        let ty = func.ty(p.value);
        let v = match ty {
            Type::I1 => {
                let word = load(s, a.offset & !3, 1);
                let t = s.stemp(1);
                s.wait_lgkm();
                s.salu(
                    Opcode::SLshrB32,
                    vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(word, 0)), imm(8 * (a.offset & 3))],
                );
                s.salu(
                    Opcode::SAndB32,
                    vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(t, 0)), imm(1)],
                );
                t
            }
            _ => load(s, a.offset, crate::isel::dwords_of(ty)),
        };
        params.push(Val::S(v));
    }
    let hidden = |name: &str| hidden_offset(&kernargs, name);
    let mut builtins = Vec::new();
    // Hidden arguments the body needs, loaded as dwords.
    let dims = ["x", "y", "z"];
    let mut group_size = [None; 3];
    let mut num_groups = [None; 3];
    let mut global_offset = [None; 3];
    let needs = |o: &[Op], d: usize| used.iter().any(|(u, dd)| *dd == d && o.iter().any(|x| *x as u8 == *u));
    for d in 0..3 {
        if needs(&[Op::GroupSize, Op::GlobalSize, Op::GlobalId], d) {
            let off = hidden(&format!("hidden_group_size_{}", dims[d]));
            let w = load(s, off & !3, 1);
            group_size[d] = Some((w, 16 * (off & 3) / 2));
        }
        if needs(&[Op::NumGroups, Op::GlobalSize], d) {
            num_groups[d] = Some(load(s, hidden(&format!("hidden_block_count_{}", dims[d])), 1));
        }
        if needs(&[Op::GlobalOffset, Op::GlobalId], d) {
            global_offset[d] = Some(load(s, hidden(&format!("hidden_global_offset_{}", dims[d])), 1));
        }
    }
    let work_dim = needs(&[Op::WorkDim], 0).then(|| load(s, hidden("hidden_grid_dims") & !3, 1));
    s.wait_lgkm();
    let half = |s: &mut Isel<'_>, w: Temp, shift: u32| -> Temp {
        let t = s.stemp(1);
        s.salu(Opcode::SLshrB32, vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(w, 0)), imm(shift)]);
        s.salu(Opcode::SAndB32, vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(t, 0)), imm(0xffff)]);
        t
    };
    let gsize: Vec<Option<Temp>> = group_size
        .iter()
        .map(|g| g.map(|(w, shift)| half(s, w, shift)))
        .collect();
    let local: Vec<Option<Temp>> = (0..3usize)
        .map(|d| {
            if d >= lid_dims as usize {
                return None;
            }
            if !packed {
                return Some(lid_t[d]);
            }
            let t = s.vtemp(1);
            let mut from = dword(lid_t[0], 0);
            if d > 0 {
                s.valu(
                    Opcode::VLshrrevB32,
                    vec![Opnd::Temp(dword(t, 0)), imm(10 * d as u32), Opnd::Temp(from)],
                );
                from = dword(t, 0);
            }
            s.valu(Opcode::VAndB32, vec![Opnd::Temp(dword(t, 0)), imm(0x3ff), Opnd::Temp(from)]);
            Some(t)
        })
        .collect();
    for &(u, d) in &used {
        let op = opcode_of(u);
        let v = match op {
            Op::LocalId => local[d].map_or(Val::Const(0), Val::V),
            Op::GroupId => gid_t.get(d).map_or(Val::Const(0), |t| Val::S(*t)),
            Op::GroupSize => gsize[d].map_or(Val::Const(1), Val::S),
            Op::NumGroups => num_groups[d].map_or(Val::Const(1), Val::S),
            Op::GlobalOffset => global_offset[d].map_or(Val::Const(0), Val::S),
            Op::GlobalSize => match (num_groups[d], gsize[d]) {
                (Some(n), Some(g)) => {
                    let t = s.stemp(1);
                    s.salu(Opcode::SMulI32, vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(n, 0)), Opnd::Temp(dword(g, 0))]);
                    Val::S(t)
                }
                _ => Val::Const(1),
            },
            Op::WorkDim => match work_dim {
                Some(w) => Val::S(half(s, w, 0)),
                None => Val::Const(1),
            },
            Op::GlobalId => {
                let base = s.stemp(1);
                let g = gid_t.get(d).copied();
                match (g, gsize[d]) {
                    (Some(g), Some(z)) => {
                        s.salu(Opcode::SMulI32, vec![Opnd::Temp(dword(base, 0)), Opnd::Temp(dword(g, 0)), Opnd::Temp(dword(z, 0))]);
                    }
                    _ => {
                        s.emit(Opcode::SMovB32, [Opnd::Temp(dword(base, 0)), imm(0)]);
                    }
                }
                if let Some(o) = global_offset[d] {
                    s.salu(Opcode::SAddU32, vec![Opnd::Temp(dword(base, 0)), Opnd::Temp(dword(base, 0)), Opnd::Temp(dword(o, 0))]);
                }
                match local[d] {
                    Some(l) => crate::isel::alu::v_binop(s, Op::Add, Type::I32, Val::V(l), Val::S(base)),
                    None => Val::S(base),
                }
            }
            _ => unreachable!("launch builtin"),
        };
        builtins.push(((op, d), v));
    }
    let entry = HsaEntry {
        sgprs,
        workitem_id_dims: lid_dims,
        packed_workitem_ids: packed,
        kernargs,
        kernarg_size,
    };
    let launch = Launch {
        params,
        builtins,
        scratch,
    };
    let _ = Entry::Hsa;
    (launch, entry)
}

impl Isel<'_> {
    /// `s_waitcnt lgkmcnt(0)`: scalar loads have returned.
    pub(crate) fn wait_lgkm(&mut self) {
        self.emit(
            Opcode::SWaitcnt,
            [Opnd::Fixed(Operand::Waitcnt(Waitcnt {
                lgkmcnt: Some(0),
                ..Waitcnt::default()
            }))],
        );
    }
}
