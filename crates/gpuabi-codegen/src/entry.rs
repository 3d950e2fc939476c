//! Kernel entry: where a kernel finds its arguments and launch values, per entry ABI, and
//! the code that takes them into temps at the top of the kernel.

pub mod catalyst;

use std::collections::BTreeSet;

use gpuabi_amdgpu::hsa::{
    initial_state, layout_kernargs, ArgSpec, HiddenArgs, KernargLayout, Kernel, KernelDescriptor,
    SgprInput, ValueKind, ValueType,
};
use gpuabi_amdgpu::{Opcode, Operand, Target};
use gpuabi_ir::ir::{self, InstrKind, Opcode as Op, Region, Type};
use gpuabi_layout::reg::{RegFile, RegRange};

use crate::isel::{dword, imm, Isel, Val};
use crate::mir::{MInst, MOp, Opnd, Pseudo, Temp};
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

fn arg_spec(name: &str, ty: Type) -> ArgSpec {
    let (size, kind, value_type) = match ty {
        Type::I1 => (1, ValueKind::ByValue, Some(ValueType::I8)),
        Type::I32 => (4, ValueKind::ByValue, Some(ValueType::I32)),
        Type::F32 => (4, ValueKind::ByValue, Some(ValueType::F32)),
        Type::I64 => (8, ValueKind::ByValue, Some(ValueType::I64)),
        _ => (8, ValueKind::GlobalBuffer, None),
    };
    ArgSpec {
        name: name.to_string(),
        size,
        align: size,
        kind,
        value_type,
    }
}

/// Why a kernel cannot be entered under its entry ABI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// The arguments have no kernarg layout.
    #[error("{0}")]
    Kernargs(#[from] gpuabi_amdgpu::hsa::LayoutError),
    /// The kernel descriptor the entry needs is not valid for the target.
    #[error("{0}")]
    Descriptor(#[from] gpuabi_amdgpu::hsa::DescriptorError),
    /// The descriptor gives no kernarg segment pointer.
    #[error("no kernarg segment pointer")]
    NoKernargPointer,
    /// A register name of the Catalyst layout does not parse.
    #[error("register `{name}` of the Catalyst layout: {error}")]
    CatalystRegister {
        /// The name.
        name: String,
        /// Why it does not parse.
        error: gpuabi_layout::reg::RegParseError,
    },
}

/// The kernel argument segment of `func` as LLVM lays it out for `amdgpu_kernel`.
pub fn hsa_kernargs(func: &ir::Function, target: Target) -> Result<KernargLayout, EntryError> {
    let specs: Vec<ArgSpec> = func
        .params
        .iter()
        .map(|p| arg_spec(func.value_name(p.value), func.ty(p.value)))
        .collect();
    Ok(layout_kernargs(
        &specs,
        Some(HiddenArgs::LLVM_DEFAULT),
        target,
    )?)
}

fn hidden_offset(layout: &KernargLayout, kind: ValueKind) -> u32 {
    layout
        .args
        .iter()
        .find(|a| a.kind == kind)
        .map(|a| a.offset)
        .expect("the hidden area is always laid out")
}

/// Which values of `func` some instruction reads. The entry loads only the arguments the
/// body reads: an unused load's destination would be dead at once, and another scalar
/// load still in flight could be given its register, which the hardware may then write
/// out of order (scalar memory returns out of order; the simulator does not model that).
pub(crate) fn read_values(func: &ir::Function) -> Vec<bool> {
    fn mark(r: &Region, used: &mut [bool]) {
        let op = |o: &ir::Operand, used: &mut [bool]| {
            if let ir::Operand::Value(v) = o {
                used[v.index()] = true;
            }
        };
        for i in &r.instrs {
            match &i.kind {
                InstrKind::Op(o) => o.args.iter().for_each(|a| op(a, used)),
                InstrKind::If {
                    cond,
                    then_region,
                    else_region,
                } => {
                    op(cond, used);
                    mark(then_region, used);
                    mark(else_region, used);
                }
                InstrKind::Loop { init, body, .. } => {
                    init.iter().for_each(|a| op(a, used));
                    mark(body, used);
                }
                InstrKind::Yield(ops)
                | InstrKind::Break(ops)
                | InstrKind::Continue(ops)
                | InstrKind::Ret(ops) => ops.iter().for_each(|a| op(a, used)),
                InstrKind::Call { args, .. } => args.iter().for_each(|a| op(a, used)),
                InstrKind::CallIndirect { callee, args, .. } => {
                    op(callee, used);
                    args.iter().for_each(|a| op(a, used));
                }
                InstrKind::FuncAddr { .. } | InstrKind::Unreachable => {}
            }
        }
    }
    let mut used = vec![false; func.values.len()];
    mark(&func.body, &mut used);
    used
}

/// Launch builtins a region uses, with their dimensions.
fn used_builtins(r: &Region, out: &mut BTreeSet<(u8, usize)>) {
    let mut values = Vec::new();
    crate::call_abi::launch_values(r, &mut values);
    out.extend(values.into_iter().map(|(op, d)| (op as u8, d as usize)));
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
pub(crate) fn enter_hsa(s: &mut Isel<'_>) -> Result<(Launch, Kernel), EntryError> {
    let func = s.func;
    let target = s.target();
    let mut used = BTreeSet::new();
    used_builtins(&func.body, &mut used);
    // The launch values called functions read travel as their hidden parameters.
    for &(op, dim) in &s.ctx.abis.hidden {
        used.insert((op as u8, dim as usize));
    }
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

    let mut desc = KernelDescriptor::new(target, s.wave());
    // With calls, scratch is addressed from the call ABI's stack pointer: on RDNA a byte
    // offset (`scratch_*`), on GCN 1.2 the private segment buffer with the wave's offset
    // folded into its base.
    let calls = s.ctx.abis.any_calls;
    let scratch_by_buffer = crate::scratch::uses_buffer(target) && !calls;
    let stack_resource = calls && !target.is_rdna();
    let flat_scratch = calls && needs_flat_scratch_init(target);
    desc.user_sgpr_private_segment_buffer = scratch_by_buffer || stack_resource;
    desc.user_sgpr_flat_scratch_init = flat_scratch;
    desc.system_sgpr_private_segment_wavefront_offset =
        scratch_by_buffer || stack_resource || flat_scratch;
    desc.system_sgpr_workgroup_id_y = gid_dims >= 2;
    desc.system_sgpr_workgroup_id_z = gid_dims >= 3;
    desc.system_vgpr_workitem_id = lid_dims.saturating_sub(1);
    let state = initial_state(&desc, target, s.wave())?;
    let sgpr = |i: SgprInput| state.sgpr(i);
    let kernarg = sgpr(SgprInput::KernargSegmentPtr).ok_or(EntryError::NoKernargPointer)?;
    let gids: Vec<RegRange> = [
        SgprInput::WorkgroupIdX,
        SgprInput::WorkgroupIdY,
        SgprInput::WorkgroupIdZ,
    ]
    .into_iter()
    .take(gid_dims)
    .filter_map(sgpr)
    .collect();
    let rsrc = sgpr(SgprInput::PrivateSegmentBuffer);
    let wave_off = sgpr(SgprInput::PrivateSegmentWavefrontOffset);
    if let (Some(init), Some(w)) = (sgpr(SgprInput::FlatScratchInit), wave_off) {
        init_flat_scratch(s, init, w);
    }

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
        (Some(r), Some(w)) if stack_resource => {
            fold_stack_pointer(s, r, w);
            let sp = into(s, r, &mut copy);
            s.f.stack_pointer = Some(sp);
            s.f.stack_pointer_reg = Some(r);
            None
        }
        (Some(r), Some(w)) => {
            let rt = into(s, r, &mut copy);
            let wt = into(s, w, &mut copy);
            s.f.temps[rt.index()].no_spill = true;
            s.f.temps[wt.index()].no_spill = true;
            Some(BufferRegs {
                rsrc: s.whole(rt),
                wave_offset: Some(s.whole(wt)),
            })
        }
        _ => None,
    };
    let packed = state.packed_work_item_ids;
    let lid_t: Vec<Temp> = if lid_dims == 0 {
        Vec::new()
    } else {
        state
            .work_item_id_vgprs
            .iter()
            .map(|r| into(s, RegRange::new(RegFile::Vgpr, r.num, 1), &mut copy))
            .collect()
    };
    s.push(MInst {
        op: MOp::Pseudo(Pseudo::ParallelCopy),
        opnds: copy.into_iter().collect(),
        mods: Default::default(),
        e64: false,
        cost: crate::mir::AbiCost::None,
        origin: s.origin,
    });

    let layout = hsa_kernargs(func, target)?;
    let load = |s: &mut Isel<'_>, offset: u32, dwords: u8| -> Temp {
        let t = s.stemp(dwords);
        let op = if dwords == 2 {
            Opcode::SLoadDwordx2
        } else {
            Opcode::SLoadDword
        };
        s.emit(
            op,
            [
                Opnd::Temp(s.whole(t)),
                Opnd::Temp(s.whole(kernarg_t)),
                imm(offset),
            ],
        );
        t
    };
    // Explicit arguments the body reads.
    let read = read_values(func);
    let mut params = Vec::new();
    for (p, a) in func.params.iter().zip(&layout.args) {
        if !read[p.value.index()] {
            params.push(Val::Const(0));
            continue;
        }
        let ty = func.ty(p.value);
        let v = match ty {
            Type::I1 => {
                let word = load(s, a.offset & !3, 1);
                let byte = s.stemp(1);
                s.salu(
                    Opcode::SLshrB32,
                    vec![
                        Opnd::Temp(dword(byte, 0)),
                        Opnd::Temp(dword(word, 0)),
                        imm(8 * (a.offset & 3)),
                    ],
                );
                let t = s.stemp(1);
                s.salu(
                    Opcode::SAndB32,
                    vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(byte, 0)), imm(1)],
                );
                t
            }
            _ => load(s, a.offset, crate::isel::dwords_of(ty)),
        };
        params.push(Val::S(v));
    }
    let hidden = |k: ValueKind| hidden_offset(&layout, k);
    let mut builtins = Vec::new();
    // Hidden arguments the body needs, loaded as dwords.
    let mut group_size = [None; 3];
    let mut num_groups = [None; 3];
    let mut global_offset = [None; 3];
    let needs = |o: &[Op], d: usize| {
        used.iter()
            .any(|(u, dd)| *dd == d && o.iter().any(|x| *x as u8 == *u))
    };
    for d in 0..3 {
        if needs(&[Op::GroupSize, Op::GlobalSize, Op::GlobalId], d) {
            let off = hidden(
                [
                    ValueKind::HiddenGroupSizeX,
                    ValueKind::HiddenGroupSizeY,
                    ValueKind::HiddenGroupSizeZ,
                ][d],
            );
            let w = load(s, off & !3, 1);
            group_size[d] = Some((w, 16 * (off & 3) / 2));
        }
        if needs(&[Op::NumGroups, Op::GlobalSize], d) {
            num_groups[d] = Some(load(
                s,
                hidden(
                    [
                        ValueKind::HiddenBlockCountX,
                        ValueKind::HiddenBlockCountY,
                        ValueKind::HiddenBlockCountZ,
                    ][d],
                ),
                1,
            ));
        }
        if needs(&[Op::GlobalOffset, Op::GlobalId], d) {
            global_offset[d] = Some(load(
                s,
                hidden(
                    [
                        ValueKind::HiddenGlobalOffsetX,
                        ValueKind::HiddenGlobalOffsetY,
                        ValueKind::HiddenGlobalOffsetZ,
                    ][d],
                ),
                1,
            ));
        }
    }
    let work_dim =
        needs(&[Op::WorkDim], 0).then(|| load(s, hidden(ValueKind::HiddenGridDims) & !3, 1));
    let half = |s: &mut Isel<'_>, w: Temp, shift: u32| -> Temp {
        let t = s.stemp(1);
        if shift == 0 {
            s.salu(
                Opcode::SAndB32,
                vec![
                    Opnd::Temp(dword(t, 0)),
                    Opnd::Temp(dword(w, 0)),
                    imm(0xffff),
                ],
            );
        } else {
            s.salu(
                Opcode::SLshrB32,
                vec![Opnd::Temp(dword(t, 0)), Opnd::Temp(dword(w, 0)), imm(shift)],
            );
        }
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
            let mut from = dword(lid_t[0], 0);
            if d > 0 {
                let shifted = s.vtemp(1);
                s.valu(
                    Opcode::VLshrrevB32,
                    vec![
                        Opnd::Temp(dword(shifted, 0)),
                        imm(10 * d as u32),
                        Opnd::Temp(from),
                    ],
                );
                from = dword(shifted, 0);
            }
            let t = s.vtemp(1);
            s.valu(
                Opcode::VAndB32,
                vec![Opnd::Temp(dword(t, 0)), imm(0x3ff), Opnd::Temp(from)],
            );
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
                    s.salu(
                        Opcode::SMulI32,
                        vec![
                            Opnd::Temp(dword(t, 0)),
                            Opnd::Temp(dword(n, 0)),
                            Opnd::Temp(dword(g, 0)),
                        ],
                    );
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
                        s.salu(
                            Opcode::SMulI32,
                            vec![
                                Opnd::Temp(dword(base, 0)),
                                Opnd::Temp(dword(g, 0)),
                                Opnd::Temp(dword(z, 0)),
                            ],
                        );
                    }
                    _ => {
                        s.emit(Opcode::SMovB32, [Opnd::Temp(dword(base, 0)), imm(0)]);
                    }
                }
                let base = match global_offset[d] {
                    Some(o) => {
                        let sum = s.stemp(1);
                        s.salu(
                            Opcode::SAddU32,
                            vec![
                                Opnd::Temp(dword(sum, 0)),
                                Opnd::Temp(dword(base, 0)),
                                Opnd::Temp(dword(o, 0)),
                            ],
                        );
                        sum
                    }
                    None => base,
                };
                match local[d] {
                    Some(l) => {
                        crate::isel::alu::v_binop(s, Op::Add, Type::I32, Val::V(l), Val::S(base))
                    }
                    None => Val::S(base),
                }
            }
            _ => unreachable!("launch builtin"),
        };
        builtins.push(((op, d), v));
    }
    desc.kernarg_size = layout.size;
    let entry = Kernel {
        name: func.name.clone(),
        descriptor: desc,
        args: layout.args,
        kernarg_size: layout.size,
    };
    let launch = Launch {
        params,
        builtins,
        scratch,
    };
    Ok((launch, entry))
}

/// Whether `scratch_*` needs the kernel to set `FLAT_SCRATCH` first: on GFX10, whose
/// scratch instructions address private memory through it; GFX11 has architected flat
/// scratch, and GCN 1.2 code uses no scratch instructions.
fn needs_flat_scratch_init(target: Target) -> bool {
    target == Target::Gfx1030
}

/// Sets `FLAT_SCRATCH` to the wave's private memory: the flat-scratch-init registers' base
/// plus the wave's byte offset, written with `s_setreg_b32` as GFX10 requires (what LLVM's
/// `SIFrameLowering::emitEntryFunctionFlatScratchInit` emits for GFX10).
fn init_flat_scratch(s: &mut Isel<'_>, init: RegRange, wave_offset: RegRange) {
    add_wave_offset(s, init, wave_offset);
    for (k, (_, id)) in gpuabi_amdgpu::asm::HW_REGS.iter().enumerate() {
        let half = RegRange::new(RegFile::Sgpr, init.first.num + k as u16, 1);
        s.emit(
            Opcode::SSetregB32,
            [
                imm(gpuabi_amdgpu::asm::hwreg_whole(*id) as u32),
                Opnd::Fixed(Operand::Reg(half)),
            ],
        );
    }
}

/// The call ABI's stack pointer of a GCN 1.2 kernel: the private segment buffer `rsrc`
/// with the wave's byte offset (in `wave_offset`) added to its base, in place before the
/// entry copy reads it (ACO passes the scratch resource this way before GFX9), so the
/// wave's frames start at per-lane offset 0 and `soffset` stays 0.
fn fold_stack_pointer(s: &mut Isel<'_>, rsrc: RegRange, wave_offset: RegRange) {
    add_wave_offset(s, rsrc, wave_offset);
}

/// Adds the wave's byte offset to the 64-bit address in the first two SGPRs of `base`, in
/// place, with the carry.
fn add_wave_offset(s: &mut Isel<'_>, base: RegRange, wave_offset: RegRange) {
    let d = |k: u16| {
        Opnd::Fixed(Operand::Reg(RegRange::new(
            RegFile::Sgpr,
            base.first.num + k,
            1,
        )))
    };
    s.emit(
        Opcode::SAddU32,
        [d(0), d(0), Opnd::Fixed(Operand::Reg(wave_offset))],
    );
    s.emit(Opcode::SAddcU32, [d(1), d(1), imm(0)]);
}

/// Completes a kernel's entry once its code is final: the HSA descriptor's register counts
/// and scratch size, or the Catalyst layout derived again with the final registers and
/// scratch (`scratch`: the kernel was compiled with scratch).
pub(crate) fn finish(
    entry: &mut Option<crate::KernelEntry>,
    stats: &crate::FunctionStats,
    scratch: bool,
    func: &ir::Function,
) -> Result<(), crate::CodegenError> {
    match entry {
        Some(crate::KernelEntry::Hsa(hsa)) => {
            let d = &mut hsa.descriptor;
            d.private_segment_fixed_size = stats.scratch_bytes;
            d.next_free_vgpr = u32::from(stats.vgprs.max(1));
            d.next_free_sgpr = u32::from(stats.sgprs.max(1));
            Ok(())
        }
        Some(crate::KernelEntry::Catalyst(layout)) => {
            catalyst::finish_layout(layout, stats, scratch, func)
        }
        None => Ok(()),
    }
}
