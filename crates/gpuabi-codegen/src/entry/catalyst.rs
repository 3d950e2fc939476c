//! The `catalyst` kernel entry: AMD's Catalyst OpenCL 1.2 kernel ABI on GCN 1.2, with the
//! layout computed by `gpuabi_catalyst::layout` (the same value `gpuabi catalyst layout`
//! prints and the simulator's Catalyst dispatch fills), never restated here.
//!
//! The project's decisions, where the ABI leaves a compiler free:
//!
//! * An IR kernel becomes an OpenCL kernel of a 64-bit binary for a GCN 1.2 device
//!   ([`DEVICE`], the default driver): `i32` parameters are `int`, `f32` `float`, `i64`
//!   `long`, `ptr` `global uchar*`; `i1` (OpenCL has no 1-bit kernel arguments) and stack
//!   handles are refused, naming the parameter. Every parameter counts as used, so every
//!   pointer gets its own UAV. User data come from the layout engine's `amd` policy (a
//!   model of AMD's compiler): immediate descriptors while they fit in s2–s15, table
//!   pointers otherwise; the entry reads whichever the layout chose.
//! * Dimensions: group id *d* is enabled when the body uses `group_id d` or `global_id d`,
//!   local id *d* when it uses `local_id d` or `global_id d`. cb0 is used (and gets its
//!   descriptor) only when the body reads a launch value other than those ids.
//! * A value argument is read from cb1 with `s_buffer_load_dword(x2)` at its slot's byte
//!   offset (GCN 1.2 scalar loads take byte offsets).
//! * A pointer argument's value is the 64-bit base address of its UAV descriptor (dword 0
//!   and the low 16 bits of dword 1, zero-extended) plus the 64-bit byte offset cb1 holds
//!   for it (Catalyst passes global pointers as offsets into their UAV). The compiled code
//!   then addresses global memory with that flat 64-bit address rather than through the
//!   descriptor, so loads and stores are the same as under `hsa` and pointers may be
//!   stored in memory and compared like any other value.
//! * Launch values come from cb0, at the first dwords the layout's cb0 map gives:
//!   `global_size`, `work_dim`, `group_size` (local size), `num_groups`, `global_offset`;
//!   `global_id d` = group id × local size + global offset + local id, as AMD-compiled
//!   code forms it: OpenCL's `get_global_id` includes the global offset on this ABI, as
//!   the IR's `global_id` does.
//! * Scratch: a kernel with stack arrays is laid out with a scratch buffer from the start;
//!   one without is compiled without, and compiled again with a scratch buffer when its
//!   VGPRs do not fit and must spill (the scratch registers are then reserved before
//!   allocation starts, as under `hsa`). With scratch, the layout engine's `amd` policy
//!   appends `PTR_INTERNAL_GLOBAL_TABLE` as the last table pointer and the scratch wave
//!   offset follows the group ids and TG_SIZE; the entry loads the scratch buffer
//!   descriptor from entry 1 of that table ([`INTERNAL_TABLE_ENTRY`] bytes per entry) and
//!   addresses private memory with `buffer_*` instructions on it, with the wave offset as
//!   `soffset`, as the `hsa` entry does with the private segment buffer. The descriptor is
//!   the swizzled per-lane one AMD's runtime sets up (ADD_TID_ENABLE, element size 4,
//!   index stride 64). The layout's scratch size is the kernel's per-lane bytes (stack
//!   arrays and spill slots), at least 4 when scratch is enabled.

use std::collections::BTreeSet;

use gpuabi_amdgpu::{Opcode, Operand, Target};
use gpuabi_catalyst::args::ArgKind;
use gpuabi_catalyst::cb0::{first_dword, Cb0Kind};
use gpuabi_catalyst::driver::{Device, DEVICES};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::resource_ids::Resource;
use gpuabi_catalyst::types::{AddrSpace, ArgType, Kernel, KernelArg, Pointee, Scalar, ValueType};
use gpuabi_catalyst::userdata::DataClass;
use gpuabi_catalyst::{KernelLayout, Options, UserDataPolicy};
use gpuabi_ir::ir::{self, InstrKind, Opcode as Op, Region, Span, Type};
use gpuabi_layout::reg::{RegFile, RegRange};

use super::{opcode_of, used_builtins, Launch};
use crate::error::CodegenError;
use crate::isel::{dword, imm, Isel, Val};
use crate::mir::{MInst, MOp, Opnd, Pseudo, Temp};
use crate::scratch::BufferRegs;

/// The GCN 1.2 device of the catalyst crate that `gfx8` kernels are laid out for (Tonga,
/// the `gfx8` of the machine model).
pub const DEVICE: &str = "Tonga";

/// Bytes of one entry of the UAV table (8 dwords; buffers use the first 4).
const UAV_TABLE_ENTRY: u32 = 32;
/// Bytes of one entry of the constant-buffer table.
const CB_TABLE_ENTRY: u32 = 16;
/// The largest immediate byte offset of a GCN 1.2 scalar load (20 bits).
const SMEM_MAX_OFFSET: u32 = 0xf_ffff;
/// Bytes of one entry of the internal global table (a 4-dword buffer descriptor).
pub const INTERNAL_TABLE_ENTRY: u32 = 16;
/// The internal global table's entry holding the scratch buffer descriptor.
pub const SCRATCH_TABLE_ENTRY: u32 = 1;
/// Scratch bytes per lane of a kernel compiled with scratch, at least: the layout is
/// given this while the entry is selected, before the kernel's own count is known (any
/// nonzero size gives the same user data and registers), and a kernel whose frame turns
/// out empty still gets a nonzero scratch size, so that SCRATCH_EN stays set.
pub const MIN_SCRATCH_BYTES: u32 = 4;
/// The argument buffer's constant-buffer id.
const CB1: u32 = 1;
/// The setup buffer's constant-buffer id.
const CB0: u32 = 0;

fn device() -> Device {
    *DEVICES
        .iter()
        .find(|d| d.name == DEVICE)
        .expect("the device table holds Tonga")
}

/// The most SGPRs a Catalyst kernel may allocate on GCN 1.2 (VCC, FLAT_SCRATCH and
/// XNACK_MASK sit above them).
pub fn max_sgprs() -> u16 {
    device().generation.max_sgprs() as u16
}

/// The OpenCL kernel an IR kernel is under this ABI (every argument used).
pub fn catalyst_kernel(func: &ir::Function) -> Result<Kernel, CodegenError> {
    let mut args = Vec::with_capacity(func.params.len());
    for p in &func.params {
        let name = func.value_name(p.value).to_string();
        let value = |scalar| ArgType::Value {
            ty: ValueType { scalar, lanes: 1 },
        };
        let ty = match func.ty(p.value) {
            Type::I32 => value(Scalar::Int),
            Type::F32 => value(Scalar::Float),
            Type::I64 => value(Scalar::Long),
            Type::Ptr => ArgType::Pointer {
                pointee: Pointee::Value {
                    ty: ValueType {
                        scalar: Scalar::UChar,
                        lanes: 1,
                    },
                },
                space: AddrSpace::Global,
                is_const: false,
                is_volatile: false,
                is_restrict: false,
            },
            other => {
                return Err(CodegenError::Unsupported {
                    function: func.name.clone(),
                    start: func.span.start,
                    end: func.span.end,
                    what: format!(
                        "parameter `%{name}` has type {}: OpenCL kernel arguments under the \
                         catalyst entry are i32, f32, i64 or ptr",
                        other.name()
                    ),
                })
            }
        };
        args.push(KernelArg {
            name,
            type_name: ty.default_type_name(),
            ty,
            used: true,
            explicit_id: None,
        });
    }
    Ok(Kernel {
        name: func.name.clone(),
        args,
        reqd_work_group_size: None,
    })
}

/// Which dimensions `func` needs (group ids, local ids) and whether it reads cb0.
fn dims_of(used: &BTreeSet<(u8, usize)>) -> (Dims, bool) {
    let mut group = 0u8;
    let mut local = 0u8;
    let mut cb0 = false;
    for &(u, d) in used {
        // The verifier keeps dimensions in 0..=2.
        let bit = 1u8 << d;
        match opcode_of(u) {
            Op::GroupId => group |= bit,
            Op::LocalId => local |= bit,
            Op::GlobalId => {
                group |= bit;
                local |= bit;
                cb0 = true;
            }
            _ => cb0 = true,
        }
    }
    (Dims(group | (local << 3)), cb0)
}

/// The Catalyst layout of `func`; `regs` gives the SGPR and VGPR counts once the
/// registers are allocated, `scratch_bytes` the per-lane scratch size (0: no scratch).
pub fn catalyst_layout(
    func: &ir::Function,
    regs: Option<(u16, u16)>,
    scratch_bytes: u32,
) -> Result<KernelLayout, CodegenError> {
    let kernel = catalyst_kernel(func)?;
    let mut used = BTreeSet::new();
    used_builtins(&func.body, &mut used);
    let (dims, cb0) = dims_of(&used);
    let mut opts = Options {
        device: device(),
        is_64bit: true,
        dims: Some(dims),
        userdata: UserDataPolicy::Amd,
        setup_buffer_used: cb0,
        scratch_bytes,
        ..Options::default()
    };
    let layout_error = |e: gpuabi_catalyst::LayoutError| CodegenError::Unsupported {
        function: func.name.clone(),
        start: func.span.start,
        end: func.span.end,
        what: format!("the Catalyst layout: {e}"),
    };
    if let Some((sgprs, vgprs)) = regs {
        // The layout's own count is the minimum: the user data and group ids it loads.
        let min = gpuabi_catalyst::layout(&kernel, &opts).map_err(layout_error)?;
        opts.sgprs = Some(u32::from(sgprs).max(min.regs.sgprs));
        opts.vgprs = Some(u32::from(vgprs));
    }
    gpuabi_catalyst::layout(&kernel, &opts).map_err(layout_error)
}

/// Whether `func` has stack arrays, which need scratch memory from the start.
pub fn has_stack_arrays(func: &ir::Function) -> bool {
    first_alloca(&func.body).is_some()
}

/// The first stack array of a region.
fn first_alloca(r: &Region) -> Option<Span> {
    r.instrs_deep().into_iter().find_map(|i| match &i.kind {
        InstrKind::Op(op) if op.opcode == Op::Alloca => Some(i.span),
        _ => None,
    })
}

fn reg(name: &str) -> Result<RegRange, crate::entry::EntryError> {
    name.parse::<RegRange>()
        .map_err(|error| crate::entry::EntryError::CatalystRegister {
            name: name.to_string(),
            error,
        })
}

/// Emits the entry of `func` under the `catalyst` ABI into the current (entry) block and
/// returns where everything is, with the layout the dispatcher fills; `scratch` says
/// whether the kernel is laid out with a scratch buffer.
pub(crate) fn enter_catalyst(
    s: &mut Isel<'_>,
    scratch: bool,
) -> Result<(Launch, KernelLayout), CodegenError> {
    let func = s.func;
    let unsupported = |what: String| CodegenError::Unsupported {
        function: func.name.clone(),
        start: func.span.start,
        end: func.span.end,
        what,
    };
    if s.target() != Target::Gfx8 {
        return Err(unsupported(format!(
            "the catalyst entry is compiled for gfx8 only, not {}",
            s.target().name()
        )));
    }
    if let (false, Some(span)) = (scratch, first_alloca(&func.body)) {
        return Err(CodegenError::Internal(Box::new(crate::error::PassError {
            pass: "isel",
            function: func.name.clone(),
            origin: Some(crate::mir::Origin {
                start: span.start,
                end: span.end,
            }),
            fault: crate::error::Fault::Unexpected(crate::error::Invalid::function(
                "the stack array is compiled without scratch",
            )),
        })));
    }
    let layout = catalyst_layout(func, None, if scratch { MIN_SCRATCH_BYTES } else { 0 })?;
    let mut used = BTreeSet::new();
    used_builtins(&func.body, &mut used);
    // The scratch descriptor's temp comes before the wave offset's: the allocator finds
    // the two as the first unspillable SGPR temps, in that order.
    let scratch_rsrc = scratch.then(|| s.stemp(4));

    // Take the user data the code reads, the group ids and the local ids into temps with
    // one parallel copy.
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
    // Descriptors by id: constant buffers and UAVs.
    let mut cbs: Vec<(u32, Temp)> = Vec::new();
    let mut uavs: Vec<(u32, Temp)> = Vec::new();
    let mut cb_table = None;
    let mut uav_table = None;
    let mut internal_table = None;
    for e in &layout.userdata {
        let r = RegRange::new(RegFile::Sgpr, e.reg_start as u16, e.reg_size as u16);
        match (e.class, e.reg_size) {
            (DataClass::IMM_CONST_BUFFER, 4) => cbs.push((e.api_slot, into(s, r, &mut copy))),
            (DataClass::IMM_UAV, 4) => uavs.push((e.api_slot, into(s, r, &mut copy))),
            (DataClass::PTR_CONST_BUFFER_TABLE, 2) => cb_table = Some(into(s, r, &mut copy)),
            (DataClass::PTR_UAV_TABLE, 2) => uav_table = Some(into(s, r, &mut copy)),
            (DataClass::PTR_INTERNAL_GLOBAL_TABLE, 2) => {
                internal_table = Some(into(s, r, &mut copy))
            }
            (class, n) => {
                return Err(unsupported(format!(
                    "user data {class} in {n} SGPRs from s{} is not read by the catalyst entry",
                    e.reg_start
                )))
            }
        }
    }
    let group_dims: Vec<usize> = (0..3)
        .filter(|d| layout.dims.group() & (1 << d) != 0)
        .collect();
    let mut gid: [Option<Temp>; 3] = [None; 3];
    for (d, name) in group_dims.iter().zip(&layout.regs.group_id_sgprs) {
        gid[*d] = Some(into(
            s,
            reg(name).map_err(|e| unsupported(e.to_string()))?,
            &mut copy,
        ));
    }
    let wave_offset = match &layout.regs.scratch_offset_sgpr {
        Some(name) => Some(into(
            s,
            reg(name).map_err(|e| unsupported(e.to_string()))?,
            &mut copy,
        )),
        None => None,
    };
    // The local ids are taken after the scratch descriptor is loaded: a VGPR spill stores
    // through it, and spill code follows the definition of the value it spills.
    let mut vcopy: Vec<Opnd> = Vec::new();
    let mut lid: [Option<Temp>; 3] = [None; 3];
    for (d, name) in layout.regs.local_id_vgprs.iter().enumerate() {
        lid[d] = Some(into(
            s,
            reg(name).map_err(|e| unsupported(e.to_string()))?,
            &mut vcopy,
        ));
    }
    let parallel_copy = |s: &mut Isel<'_>, copy: Vec<Opnd>| {
        if !copy.is_empty() {
            s.push(MInst {
                op: MOp::Pseudo(Pseudo::ParallelCopy),
                opnds: copy.into_iter().collect(),
                mods: Default::default(),
                e64: false,
                cost: crate::mir::AbiCost::None,
                origin: s.origin,
            });
        }
    };
    parallel_copy(s, copy);

    let buffer = match (scratch_rsrc, internal_table, wave_offset) {
        (None, _, _) => None,
        (Some(rsrc), Some(table), Some(w)) => {
            let off = smem_offset(s, SCRATCH_TABLE_ENTRY * INTERNAL_TABLE_ENTRY);
            s.emit(
                Opcode::SLoadDwordx4,
                [Opnd::Temp(s.whole(rsrc)), Opnd::Temp(s.whole(table)), off],
            );
            s.f.temps[rsrc.index()].no_spill = true;
            s.f.temps[w.index()].no_spill = true;
            Some(BufferRegs {
                rsrc: s.whole(rsrc),
                wave_offset: Some(s.whole(w)),
            })
        }
        _ => {
            return Err(unsupported(
                "the Catalyst layout with scratch gives no internal global table pointer or \
                 no scratch wave offset SGPR"
                    .into(),
            ))
        }
    };
    parallel_copy(s, vcopy);

    // Descriptors in tables are loaded first.
    let resolve = |s: &mut Isel<'_>,
                   list: &mut Vec<(u32, Temp)>,
                   table: Option<Temp>,
                   id: u32,
                   entry: u32| {
        if let Some((_, t)) = list.iter().find(|(i, _)| *i == id) {
            return Some(*t);
        }
        let table = table?;
        let t = s.stemp(4);
        let offset = id * entry;
        let off = smem_offset(s, offset);
        s.emit(
            Opcode::SLoadDwordx4,
            [Opnd::Temp(s.whole(t)), Opnd::Temp(s.whole(table)), off],
        );
        list.push((id, t));
        Some(t)
    };
    let cb1 = if layout.args.is_empty() {
        None
    } else {
        Some(
            resolve(s, &mut cbs, cb_table, CB1, CB_TABLE_ENTRY).ok_or_else(|| {
                unsupported("the Catalyst layout gives no cb1 (argument buffer)".into())
            })?,
        )
    };
    let cb0 = if dims_of(&used).1 {
        Some(
            resolve(s, &mut cbs, cb_table, CB0, CB_TABLE_ENTRY).ok_or_else(|| {
                unsupported("the Catalyst layout gives no cb0 (setup buffer)".into())
            })?,
        )
    } else {
        None
    };
    let read = super::read_values(func);
    let mut uav_desc = Vec::new();
    for (p, a) in func.params.iter().zip(&layout.args) {
        if !read[p.value.index()] {
            // Not read: no descriptor load (see `read_values`).
            uav_desc.push(None);
            continue;
        }
        let desc = match (a.kind, a.resource) {
            (ArgKind::Pointer, Some(Resource::Uav(id))) => Some(
                resolve(s, &mut uavs, uav_table, id, UAV_TABLE_ENTRY).ok_or_else(|| {
                    unsupported(format!(
                        "the Catalyst layout gives no descriptor for UAV {id} of `{}`",
                        a.name
                    ))
                })?,
            ),
            (ArgKind::Pointer, other) => {
                return Err(unsupported(format!(
                    "argument `{}` has resource {other:?}, not a UAV",
                    a.name
                )))
            }
            _ => None,
        };
        uav_desc.push(desc);
    }

    // Arguments from cb1, launch values from cb0.
    let buffer_load = |s: &mut Isel<'_>, desc: Temp, offset: u32, dwords: u8| -> Temp {
        let t = s.stemp(dwords);
        let op = if dwords == 2 {
            Opcode::SBufferLoadDwordx2
        } else {
            Opcode::SBufferLoadDword
        };
        let off = smem_offset(s, offset);
        s.emit(op, [Opnd::Temp(s.whole(t)), Opnd::Temp(s.whole(desc)), off]);
        t
    };
    // Only the arguments the body reads are loaded (see `read_values`).
    let mut loaded = Vec::new();
    for (p, a) in func.params.iter().zip(&layout.args) {
        if !read[p.value.index()] {
            loaded.push(None);
            continue;
        }
        let cb1 = cb1.expect("arguments have cb1");
        let dwords = crate::isel::dwords_of(func.ty(p.value));
        loaded.push(Some(buffer_load(s, cb1, a.slot.offset, dwords)));
    }
    let from_cb0 = |s: &mut Isel<'_>, kind: Cb0Kind, d: usize| -> Result<Temp, CodegenError> {
        let first = first_dword(&layout.cb0, kind)
            .ok_or_else(|| unsupported(format!("the Catalyst cb0 map has no {kind:?} field")))?;
        let cb0 = cb0.expect("cb0 is loaded when launch values are used");
        Ok(buffer_load(s, cb0, 4 * (first + d as u32), 1))
    };
    let mut cb0_values: Vec<((Op, usize), Temp)> = Vec::new();
    for &(u, d) in &used {
        let op = opcode_of(u);
        let kinds: &[Cb0Kind] = match op {
            Op::GlobalSize => &[Cb0Kind::GlobalSize],
            Op::WorkDim => &[Cb0Kind::WorkDim],
            Op::GroupSize => &[Cb0Kind::LocalSize],
            Op::NumGroups => &[Cb0Kind::NumGroups],
            Op::GlobalOffset => &[Cb0Kind::GlobalOffset],
            Op::GlobalId => &[Cb0Kind::LocalSize, Cb0Kind::GlobalOffset],
            _ => &[],
        };
        for &k in kinds {
            let t = from_cb0(s, k, if k == Cb0Kind::WorkDim { 0 } else { d })?;
            cb0_values.push(((op, d), t));
        }
    }

    let mut params = Vec::new();
    for ((p, t), desc) in func.params.iter().zip(loaded).zip(uav_desc) {
        let Some(t) = t else {
            params.push(Val::Const(0));
            continue;
        };
        let v = match (func.ty(p.value), desc) {
            (Type::Ptr, Some(desc)) => {
                // The UAV's 48-bit base (dword 0, bits 0-15 of dword 1) plus the offset.
                let hi = s.stemp(1);
                let addr = s.stemp(2);
                s.salu(
                    Opcode::SAndB32,
                    vec![
                        Opnd::Temp(dword(hi, 0)),
                        Opnd::Temp(dword(desc, 1)),
                        imm(0xffff),
                    ],
                );
                s.salu(
                    Opcode::SAddU32,
                    vec![
                        Opnd::Temp(dword(addr, 0)),
                        Opnd::Temp(dword(desc, 0)),
                        Opnd::Temp(dword(t, 0)),
                    ],
                );
                s.salu(
                    Opcode::SAddcU32,
                    vec![
                        Opnd::Temp(dword(addr, 1)),
                        Opnd::Temp(dword(hi, 0)),
                        Opnd::Temp(dword(t, 1)),
                    ],
                );
                addr
            }
            _ => t,
        };
        params.push(Val::S(v));
    }

    let value = |op: Op, d: usize, n: usize| -> Temp {
        cb0_values
            .iter()
            .filter(|(k, _)| *k == (op, d))
            .map(|(_, t)| *t)
            .nth(n)
            .expect("loaded above")
    };
    let mut builtins = Vec::new();
    for &(u, d) in &used {
        let op = opcode_of(u);
        let v = match op {
            Op::LocalId => lid.get(d).copied().flatten().map_or(Val::Const(0), Val::V),
            Op::GroupId => gid.get(d).copied().flatten().map_or(Val::Const(0), Val::S),
            Op::GlobalSize | Op::WorkDim | Op::GroupSize | Op::NumGroups | Op::GlobalOffset => {
                Val::S(value(op, d, 0))
            }
            Op::GlobalId => {
                let (size, offset) = (value(op, d, 0), value(op, d, 1));
                let g = gid[d].expect("global ids enable the group id");
                let l = lid[d].expect("global ids enable the local id");
                let base = s.stemp(1);
                s.salu(
                    Opcode::SMulI32,
                    vec![
                        Opnd::Temp(dword(base, 0)),
                        Opnd::Temp(dword(g, 0)),
                        Opnd::Temp(dword(size, 0)),
                    ],
                );
                let sum = s.stemp(1);
                s.salu(
                    Opcode::SAddU32,
                    vec![
                        Opnd::Temp(dword(sum, 0)),
                        Opnd::Temp(dword(base, 0)),
                        Opnd::Temp(dword(offset, 0)),
                    ],
                );
                crate::isel::alu::v_binop(s, Op::Add, Type::I32, Val::V(l), Val::S(sum))
            }
            _ => unreachable!("launch builtin"),
        };
        builtins.push(((op, d), v));
    }
    Ok((
        Launch {
            params,
            builtins,
            scratch: buffer,
        },
        layout,
    ))
}

/// A scalar load's offset operand: the immediate, or an SGPR holding it when it is
/// beyond the 20-bit immediate.
fn smem_offset(s: &mut Isel<'_>, offset: u32) -> Opnd {
    if offset <= SMEM_MAX_OFFSET {
        return imm(offset);
    }
    let t = s.stemp(1);
    s.emit(Opcode::SMovB32, [Opnd::Temp(dword(t, 0)), imm(offset)]);
    Opnd::Temp(dword(t, 0))
}

/// The layout map of `gpuabi catalyst layout` as an assembly comment block.
pub fn comment_block(layout: &KernelLayout) -> String {
    let mut out = String::from("; Catalyst OpenCL 1.2 entry (gpuabi catalyst layout):\n");
    for line in gpuabi_catalyst::render::text::render(layout).lines() {
        out.push_str(if line.is_empty() { ";" } else { "; " });
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The layout of a kernel compiled with `scratch`, derived again with its final register
/// counts and frame; the entry read the registers of a layout with a placeholder scratch
/// size, so the user data and the scratch offset register must not have moved.
pub(crate) fn finish_layout(
    layout: &mut KernelLayout,
    stats: &crate::FunctionStats,
    scratch: bool,
    func: &ir::Function,
) -> Result<(), CodegenError> {
    let scratch_bytes = if scratch {
        stats.scratch_bytes.max(MIN_SCRATCH_BYTES)
    } else {
        0
    };
    let full = catalyst_layout(func, Some((stats.sgprs, stats.vgprs)), scratch_bytes)?;
    if full.userdata != layout.userdata
        || full.regs.scratch_offset_sgpr != layout.regs.scratch_offset_sgpr
    {
        return Err(CodegenError::Internal(Box::new(crate::error::PassError {
            pass: "isel",
            function: func.name.clone(),
            origin: None,
            fault: crate::error::Fault::Unexpected(crate::error::Invalid::function(format!(
                "the Catalyst layout with {scratch_bytes} scratch bytes moves the user data \
                 the entry reads"
            ))),
        })));
    }
    *layout = full;
    Ok(())
}
