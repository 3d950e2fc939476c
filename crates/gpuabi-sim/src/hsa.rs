//! Dispatch set-up for the AMDHSA kernel entry ABI (LLVM's AMDGPUUsage, "Kernel Dispatch"
//! and "Initial Kernel Execution State"), from a [`Kernel`] of `gpuabi_amdgpu::hsa`: the
//! kernel argument segment with explicit and code object v5 hidden arguments, an AQL
//! kernel dispatch packet, the private segment, and one [`WaveSetup`] per wave with every
//! SGPR and VGPR the kernel descriptor enables, where [`initial_state`] puts it.
//!
//! Decisions where the ABI leaves the value to the runtime:
//! - The segment and packet are global buffers named [`KERNARG_BUFFER`] and
//!   [`DISPATCH_PACKET_BUFFER`]; the private segment backing store (targets without
//!   architected flat scratch) is [`PRIVATE_SEGMENT_BUFFER`].
//! - The queue pointer, the dispatch id, the packet's `kernel_object` and
//!   `completion_signal`, and the hidden printf, hostcall, multigrid, heap, default queue,
//!   completion action, dynamic LDS size, aperture base and queue pointer arguments are 0:
//!   the simulator has no queue, runtime services or flat apertures.
//! - The packet header is a kernel dispatch with system-scope acquire and release fences.
//! - Work-group info has bit 31 set in the first wave of a work-group and the number of
//!   waves of the work-group in bits 0-5.
//! - A work-item id the descriptor does not enable is not delivered: its VGPR is not set
//!   (v1, v2) or its bits in the packed v0 are 0.
//! - Private segment: each work-item gets `private_segment_fixed_size` rounded up to 4
//!   bytes (as the command processor rounds the packet's size). Without architected flat
//!   scratch the private segment buffer is a swizzled descriptor (element size 4, index
//!   stride = wave size, ADD_TID_ENABLE) over one global buffer with a slice of
//!   bytes-per-lane × lanes for every wave of the dispatch, and the wave offset SGPR is the
//!   byte offset of the wave's slice; its `num_records` is the bytes per lane, so accesses
//!   beyond a lane's segment are dropped as out of range. Flat scratch init is, on GFX8,
//!   0 (the dispatch's offset from the private aperture, which the simulator does not model)
//!   and the bytes per lane; on GFX10, the 64-bit address of the backing buffer. With
//!   architected flat scratch (GFX11) `scratch_*` instructions use the simulator's per-lane
//!   private memory and nothing is allocated.
//! - Numbers for a by-value argument become bytes per its [`ValueType`]: integers in two's
//!   complement (a value must be integral and fit the signed or unsigned range), floats
//!   as IEEE single or double; without a value type, as many elements as numbers are given,
//!   each the largest power of two of at most 8 bytes that fits the argument's size divided
//!   by the count, an integral number is an integer and any other a float. This matches
//!   `gpuabi run --arg` (`i32`/`i64`/`f32` by the parameter's type) and the Catalyst
//!   dispatch (`int` vs `float` by the OpenCL type, negative integers in two's
//!   complement). Half-precision elements are refused. Integers stay exact ([`Number`]):
//!   a 64-bit argument gets all its bits. A global buffer argument takes a buffer's 64-bit
//!   address, or one integral number as a raw address; given no value, the buffer of its
//!   own name, as `gpuabi run` binds pointer parameters.

use std::collections::BTreeMap;

use gpuabi_amdgpu::hsa::{
    dispatch_packet as packet, features, initial_state, DescriptorError, InitialState, KernArg,
    Kernel, KernelDescriptor, SgprInput, ValueKind, ValueType, PACKED_WORK_ITEM_ID_SHIFT,
};
use gpuabi_amdgpu::{Target, WaveSize};

use crate::dispatch::{ArgValue, LaneValues, NdRange, Number, WavePlace, WaveSetup};
use crate::exec::memory::Descriptor;
use crate::limits::{Limits, MAX_SCRATCH_BYTES_PER_LANE};
use crate::memory::Memory;

/// Name of the buffer holding the kernel argument segment.
pub const KERNARG_BUFFER: &str = "kernarg";
/// Name of the buffer holding the AQL kernel dispatch packet.
pub const DISPATCH_PACKET_BUFFER: &str = "dispatch_packet";
/// Name of the buffer backing the private segment (targets without architected flat
/// scratch).
pub const PRIVATE_SEGMENT_BUFFER: &str = "private_segment";

/// Element size of the private segment buffer's swizzled addressing (AMDGPUUsage, "Private
/// Segment Buffer": dword elements).
const PRIVATE_ELEMENT_SIZE: u32 = 4;

/// An HSA dispatch that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HsaError {
    /// The kernel descriptor does not suit the target or wave size.
    #[error(transparent)]
    Descriptor(#[from] DescriptorError),
    /// The NDRange is invalid.
    #[error("NDRange: {0}")]
    NdRange(String),
    /// An argument is missing, unknown, has the wrong kind of value or does not fit.
    #[error("argument `{name}`: {message}")]
    Arg {
        /// The argument.
        name: String,
        /// What was wrong.
        message: String,
    },
    /// A simulator limit would be exceeded.
    #[error("{0}")]
    Limit(String),
    /// Global memory is full.
    #[error("{0}")]
    Memory(String),
    /// The kernel descriptor sets up a floating-point mode the simulator does not model.
    #[error("{0}")]
    Mode(String),
}

/// Refuses a kernel whose descriptor sets up the MODE register otherwise than the vector
/// ALU model computes: f32 denormals kept as inputs and results (`.amdhsa_float_denorm_mode_32
/// 3`) and IEEE mode on (`.amdhsa_ieee_mode 1`), the defaults of LLVM's AMDGPU back end for
/// compute kernels (AMDGPUUsage, "Kernel Descriptor"). With IEEE mode off `v_min_f32`/
/// `v_max_f32` pass signalling NaNs through unquieted, and with denormals flushed every f32
/// instruction reads and writes them as zero; running such a kernel with the model's rules
/// would give other results than the hardware, so it is refused rather than run.
///
/// RDNA 4 has no IEEE mode bit (LLVM 19 refuses `.amdhsa_ieee_mode` for gfx12 and leaves
/// the bit 0): its `v_min_num_f32`/`v_max_num_f32` do not depend on it, and the simulator
/// runs them with the model of the IEEE-mode `v_min_f32`/`v_max_f32` (a decision of the
/// project: the two differ at most for signalling NaN operands).
fn check_mode(kernel: &Kernel, target: Target) -> Result<(), HsaError> {
    let d: &KernelDescriptor = &kernel.descriptor;
    if d.float_denorm_mode_32 != 3 {
        return Err(HsaError::Mode(format!(
            "kernel `{}` flushes f32 denormals (.amdhsa_float_denorm_mode_32 {}); the \
             simulator models only mode 3 (denormals kept)",
            kernel.name, d.float_denorm_mode_32
        )));
    }
    if !d.ieee_mode && target != Target::Gfx12 {
        return Err(HsaError::Mode(format!(
            "kernel `{}` runs with IEEE mode off (.amdhsa_ieee_mode 0); the simulator models \
             only IEEE mode",
            kernel.name
        )));
    }
    Ok(())
}

fn arg_error(name: &str, message: impl Into<String>) -> HsaError {
    HsaError::Arg {
        name: name.to_string(),
        message: message.into(),
    }
}

/// Sets up an HSA dispatch of `kernel` on `target` with waves of `wave` lanes: adds the
/// kernel argument segment, the dispatch packet and (where needed) the private segment to
/// `memory` (which must not have buffers of those names yet), where the argument buffers
/// must already be, and returns one [`WaveSetup`] per
/// wave, work-group by work-group (x fastest), waves of a work-group in order. Global sizes
/// need not be multiples of local sizes: the last work-group of a dimension is then
/// partial, and a wave whose work-group runs out of work-items gets a partial exec mask.
pub fn dispatch(
    kernel: &Kernel,
    target: Target,
    wave: WaveSize,
    nd: &NdRange,
    args: &BTreeMap<String, ArgValue>,
    memory: &mut Memory,
    limits: &Limits,
) -> Result<Vec<WaveSetup>, HsaError> {
    check_mode(kernel, target)?;
    let state = initial_state(&kernel.descriptor, target, wave)?;
    let groups = nd.group_counts().map_err(HsaError::NdRange)?;
    let lanes = wave.lanes();
    let max_waves = nd.wave_count(groups, lanes).map_err(HsaError::NdRange)?;

    for name in [
        KERNARG_BUFFER,
        DISPATCH_PACKET_BUFFER,
        PRIVATE_SEGMENT_BUFFER,
    ] {
        if memory.find(name).is_some() {
            return Err(HsaError::Memory(format!(
                "memory already has a buffer named `{name}`, which the dispatch creates"
            )));
        }
    }
    let per_lane = kernel
        .descriptor
        .private_segment_fixed_size
        .checked_next_multiple_of(4)
        .unwrap_or(u32::MAX);
    let lane_limit = limits
        .scratch_bytes_per_lane
        .min(MAX_SCRATCH_BYTES_PER_LANE);
    if per_lane > lane_limit {
        return Err(HsaError::Limit(format!(
            "kernel `{}` needs {per_lane} private bytes per work-item, more than the \
             simulator's scratch limit of {lane_limit}",
            kernel.name
        )));
    }
    let arch_flat_scratch = features(target, wave).architected_flat_scratch;
    let wave_slice = u64::from(per_lane) * u64::from(lanes);
    let uses_private_buffer = !arch_flat_scratch
        && [
            SgprInput::PrivateSegmentBuffer,
            SgprInput::FlatScratchInit,
            SgprInput::PrivateSegmentWavefrontOffset,
        ]
        .iter()
        .any(|i| state.sgpr(*i).is_some());
    let private_bytes = if uses_private_buffer {
        wave_slice * max_waves as u64
    } else {
        0
    };
    // Wave offsets are 32-bit SGPRs.
    if private_bytes > u64::from(u32::MAX) {
        return Err(HsaError::Limit(format!(
            "the private segment of {max_waves} waves of {wave_slice} bytes exceeds the 4 GiB \
             that 32-bit wave offsets reach"
        )));
    }
    // Checked before anything is allocated, so that a refused dispatch leaves memory as it
    // was and no huge segment is ever allocated.
    let global_limit = limits.global_bytes;
    let used: u64 = memory.buffers().iter().map(|b| b.data.len() as u64).sum();
    let needed = u64::from(kernel.kernarg_size) + packet::SIZE as u64 + private_bytes;
    if used.saturating_add(needed) > global_limit {
        return Err(HsaError::Limit(format!(
            "the kernel argument segment, dispatch packet and private segment ({needed} bytes) \
             exceed the global memory limit of {global_limit} bytes"
        )));
    }

    let kernarg = kernarg_segment(kernel, nd, args, memory)?;
    let kernarg_address = add(memory, KERNARG_BUFFER, kernarg, global_limit)?;
    let packet_address = add(
        memory,
        DISPATCH_PACKET_BUFFER,
        dispatch_packet(kernel, nd, per_lane, kernarg_address),
        global_limit,
    )?;
    let scratch_base = if private_bytes > 0 {
        let data = vec![0; private_bytes as usize];
        add(memory, PRIVATE_SEGMENT_BUFFER, data, global_limit)?
    } else {
        0
    };

    let fixed = FixedSgprs {
        target,
        lanes,
        per_lane,
        scratch_base,
        kernarg_address,
        packet_address,
    };
    let mut setups = Vec::with_capacity(max_waves);
    for place in nd.wave_places(groups, lanes) {
        let wave_index = setups.len() as u64;
        let mut s = WaveSetup::default();
        for &(input, range) in &state.sgprs {
            let values = fixed.values(
                input,
                place.group,
                place.wave_in_group == 0,
                place.group_waves,
                wave_index,
            );
            for (k, v) in values.into_iter().enumerate() {
                s.sgprs.push((range.first.num + k as u16, v));
            }
        }
        if target == Target::Gfx12 {
            // RDNA 4's architected SGPRs (AMDGPUUsage, "Initial Kernel Execution State",
            // the processors with architected SGPRs): TTMP9 holds the work-group id in x,
            // TTMP7 the ids in y (bits 15:0) and z (bits 31:16); llc-19 reads them there
            // (`s_mov_b32 s0, ttmp9`).
            let [x, y, z] = place.group;
            s.sgprs.push((TTMP9, x));
            s.sgprs.push((TTMP7, (y & 0xffff) | z << 16));
        }
        work_item_ids(&mut s, &state, &place, lanes);
        s.exec = Some(place.exec());
        // Work-groups are numbered in dispatch order; the LDS is the group segment the
        // descriptor asks for (the dispatch adds no dynamic LDS).
        s.workgroup = place.group_index;
        s.lds_bytes = kernel.descriptor.group_segment_fixed_size;
        setups.push(s);
    }
    Ok(setups)
}

/// The values that are the same for every wave, or computed from its position.
struct FixedSgprs {
    target: Target,
    lanes: u32,
    per_lane: u32,
    scratch_base: u64,
    kernarg_address: u64,
    packet_address: u64,
}

/// The hardware numbers of TTMP7 and TTMP9 on RDNA (TTMP0 is 108).
const TTMP7: u16 = 108 + 7;
const TTMP9: u16 = 108 + 9;

fn split(v: u64) -> Vec<u32> {
    vec![v as u32, (v >> 32) as u32]
}

impl FixedSgprs {
    fn values(
        &self,
        input: SgprInput,
        gid: [u32; 3],
        first_wave: bool,
        group_waves: u32,
        wave_index: u64,
    ) -> Vec<u32> {
        let wave_slice = u64::from(self.per_lane) * u64::from(self.lanes);
        match input {
            SgprInput::PrivateSegmentBuffer => Descriptor {
                base: self.scratch_base,
                stride: 0,
                num_records: if self.scratch_base == 0 {
                    0
                } else {
                    self.per_lane
                },
                swizzle: true,
                add_tid: true,
                index_stride: self.lanes,
                element_size: PRIVATE_ELEMENT_SIZE,
            }
            .encode()
            .to_vec(),
            SgprInput::DispatchPtr => split(self.packet_address),
            SgprInput::QueuePtr | SgprInput::DispatchId => split(0),
            SgprInput::KernargSegmentPtr => split(self.kernarg_address),
            SgprInput::FlatScratchInit => match self.target {
                Target::Gfx8 => vec![0, self.per_lane],
                _ => split(self.scratch_base),
            },
            SgprInput::PrivateSegmentSize => vec![self.per_lane],
            SgprInput::WorkgroupIdX => vec![gid[0]],
            SgprInput::WorkgroupIdY => vec![gid[1]],
            SgprInput::WorkgroupIdZ => vec![gid[2]],
            SgprInput::WorkgroupInfo => vec![u32::from(first_wave) << 31 | (group_waves & 0x3f)],
            // Bounded by the 32-bit check when the private segment was allocated.
            SgprInput::PrivateSegmentWavefrontOffset => vec![(wave_index * wave_slice) as u32],
        }
    }
}

/// Sets the work-item id VGPRs of the wave at `place`.
fn work_item_ids(s: &mut WaveSetup, state: &InitialState, place: &WavePlace, lanes: u32) {
    let dims = u32::from(state.work_item_id_dims);
    let ids = place.work_item_ids(lanes);
    if state.packed_work_item_ids {
        s.vgprs
            .push((state.work_item_id_vgprs[0].num, packed_ids(&ids, dims)));
    } else {
        for (d, reg) in state.work_item_id_vgprs.iter().enumerate() {
            let v = ids.iter().map(|id| id[d]).collect();
            s.vgprs.push((reg.num, LaneValues::PerLane(v)));
        }
    }
}

/// Work-item ids packed into one VGPR (x in bits 0-9, y in 10-19, z in 20-29; GFX11),
/// with the components beyond the first `dims` left 0.
pub(crate) fn packed_ids(ids: &[[u32; 3]], dims: u32) -> LaneValues {
    LaneValues::PerLane(
        ids.iter()
            .map(|id| {
                (0..dims as usize).fold(0, |acc, d| acc | id[d] << PACKED_WORK_ITEM_ID_SHIFT[d])
            })
            .collect(),
    )
}

fn add(memory: &mut Memory, name: &str, data: Vec<u8>, limit: u64) -> Result<u64, HsaError> {
    let id = memory
        .add(name, data, limit)
        .map_err(|e| HsaError::Memory(e.to_string()))?;
    Ok(memory.buffer(id).base)
}

/// The AQL kernel dispatch packet of the dispatch.
fn dispatch_packet(kernel: &Kernel, nd: &NdRange, per_lane: u32, kernarg: u64) -> Vec<u8> {
    let mut p = vec![0u8; packet::SIZE];
    let mut put = |at: usize, bytes: &[u8]| p[at..at + bytes.len()].copy_from_slice(bytes);
    let header = packet::PACKET_TYPE_KERNEL_DISPATCH
        | packet::FENCE_SCOPE_SYSTEM << packet::ACQUIRE_FENCE_SCOPE_SHIFT
        | packet::FENCE_SCOPE_SYSTEM << packet::RELEASE_FENCE_SCOPE_SHIFT;
    put(packet::HEADER, &header.to_le_bytes());
    put(packet::SETUP, &(nd.work_dim as u16).to_le_bytes());
    for d in 0..3 {
        // At most 1024 by the NDRange check.
        put(
            packet::WORKGROUP_SIZE[d],
            &(nd.local[d] as u16).to_le_bytes(),
        );
        put(packet::GRID_SIZE[d], &nd.global[d].to_le_bytes());
    }
    put(packet::PRIVATE_SEGMENT_SIZE, &per_lane.to_le_bytes());
    put(
        packet::GROUP_SEGMENT_SIZE,
        &kernel.descriptor.group_segment_fixed_size.to_le_bytes(),
    );
    put(packet::KERNARG_ADDRESS, &kernarg.to_le_bytes());
    p
}

/// The kernel argument segment: explicit arguments from `args`, hidden ones from `nd`.
fn kernarg_segment(
    kernel: &Kernel,
    nd: &NdRange,
    args: &BTreeMap<String, ArgValue>,
    memory: &Memory,
) -> Result<Vec<u8>, HsaError> {
    for name in args.keys() {
        match kernel.arg(name) {
            None => {
                let names: Vec<&str> = kernel
                    .args
                    .iter()
                    .filter(|a| !a.kind.is_hidden())
                    .map(|a| a.name.as_str())
                    .collect();
                return Err(arg_error(
                    name,
                    format!(
                        "kernel `{}` has no argument {}",
                        kernel.name,
                        gpuabi_layout::suggest::suggest(name, "arguments", &names)
                    ),
                ));
            }
            Some(a) if a.kind.is_hidden() => {
                return Err(arg_error(
                    name,
                    "is a hidden argument, which the dispatch sets from the NDRange",
                ))
            }
            Some(_) => {}
        }
    }
    let mut seg = vec![0u8; kernel.kernarg_size as usize];
    for a in &kernel.args {
        let bytes = if a.kind.is_hidden() {
            hidden_value(a, nd)
        } else {
            explicit_value(a, args.get(&a.name), memory)?
        };
        let at = a.offset as usize;
        let slot = at
            .checked_add(bytes.len())
            .filter(|end| *end <= seg.len() && bytes.len() <= a.size as usize)
            .map(|end| &mut seg[at..end])
            .ok_or_else(|| {
                arg_error(
                    &a.name,
                    format!(
                        "{} bytes at offset {} do not fit the {}-byte argument or the {}-byte \
                         kernel argument segment",
                        bytes.len(),
                        a.offset,
                        a.size,
                        kernel.kernarg_size
                    ),
                )
            })?;
        slot.copy_from_slice(&bytes);
    }
    Ok(seg)
}

/// The bytes of a hidden argument (its documented width; 0 for runtime services).
fn hidden_value(a: &KernArg, nd: &NdRange) -> Vec<u8> {
    use ValueKind::*;
    let whole = |d: usize| nd.global[d] / nd.local[d];
    let value: u64 = match a.kind {
        HiddenBlockCountX => whole(0).into(),
        HiddenBlockCountY => whole(1).into(),
        HiddenBlockCountZ => whole(2).into(),
        HiddenGroupSizeX => nd.local[0].into(),
        HiddenGroupSizeY => nd.local[1].into(),
        HiddenGroupSizeZ => nd.local[2].into(),
        HiddenRemainderX => (nd.global[0] % nd.local[0]).into(),
        HiddenRemainderY => (nd.global[1] % nd.local[1]).into(),
        HiddenRemainderZ => (nd.global[2] % nd.local[2]).into(),
        HiddenGlobalOffsetX => nd.offset[0].into(),
        HiddenGlobalOffsetY => nd.offset[1].into(),
        HiddenGlobalOffsetZ => nd.offset[2].into(),
        HiddenGridDims => nd.work_dim.into(),
        _ => 0,
    };
    value.to_le_bytes()[..(a.size as usize).min(8)].to_vec()
}

/// The bytes of an explicit argument from its value.
fn explicit_value(
    a: &KernArg,
    value: Option<&ArgValue>,
    memory: &Memory,
) -> Result<Vec<u8>, HsaError> {
    // A pointer given no value points to the buffer of its own name, as `gpuabi run`
    // binds the kernel parameters of an IR module.
    let implicit;
    let value = match value {
        Some(v) => v,
        None if a.kind == ValueKind::GlobalBuffer && memory.find(&a.name).is_some() => {
            implicit = ArgValue::Buffer(a.name.clone());
            &implicit
        }
        None if a.kind == ValueKind::GlobalBuffer => {
            return Err(arg_error(
                &a.name,
                "no value given, and no buffer has its name",
            ))
        }
        None => return Err(arg_error(&a.name, "no value given")),
    };
    match (a.kind, value) {
        (ValueKind::GlobalBuffer, ArgValue::Buffer(b)) => {
            let buffer = memory
                .find(b)
                .ok_or_else(|| arg_error(&a.name, format!("no buffer `{b}`")))?;
            Ok(buffer.base.to_le_bytes().to_vec())
        }
        (ValueKind::GlobalBuffer, ArgValue::Numbers(ns)) => match ns.as_slice() {
            [n] if n.as_int().is_some_and(|i| i >= 0) => match n.to_bits(64) {
                Some(address) => Ok(address.to_le_bytes().to_vec()),
                None => Err(arg_error(&a.name, format!("`{n}` is not a 64-bit address"))),
            },
            _ => Err(arg_error(
                &a.name,
                "expected a buffer name or one non-negative integer address",
            )),
        },
        (_, ArgValue::Image(_)) => Err(arg_error(
            &a.name,
            "images are arguments of Catalyst kernels; the HSA dispatch takes none",
        )),
        (ValueKind::ByValue, ArgValue::Numbers(ns)) => by_value_bytes(a, ns),
        (ValueKind::ByValue, ArgValue::Buffer(b)) => Err(arg_error(
            &a.name,
            format!("a by-value argument takes numbers, not the buffer `{b}`"),
        )),
        (kind, _) => Err(arg_error(
            &a.name,
            format!("arguments of kind {kind} are not supported by the simulator"),
        )),
    }
}

/// Converts numbers to the bytes of a by-value argument (rules in the module comment).
fn by_value_bytes(a: &KernArg, numbers: &[Number]) -> Result<Vec<u8>, HsaError> {
    let count = numbers.len() as u32;
    if count == 0 {
        return Err(arg_error(&a.name, "no numbers given"));
    }
    let elem = match a.value_type {
        Some(t) => t.bytes(),
        None => {
            let per = a.size / count;
            if per == 0 {
                0
            } else {
                1 << per.min(8).ilog2()
            }
        }
    };
    if elem == 0 || u64::from(elem) * u64::from(count) > u64::from(a.size) {
        return Err(arg_error(
            &a.name,
            format!("{count} numbers do not fit the {}-byte argument", a.size),
        ));
    }
    let mut out = Vec::with_capacity(a.size as usize);
    for &n in numbers {
        let float = match a.value_type {
            Some(t) => t.is_float(),
            None => n.as_int().is_none(),
        };
        let bad = |why: &str| arg_error(&a.name, format!("`{n}` {why}"));
        if float {
            let x = n.as_f64();
            match (elem, a.value_type) {
                (_, Some(ValueType::F16)) | (1 | 2, None) => {
                    return Err(bad(
                        "would be a half or byte float, which the simulator does not support",
                    ))
                }
                (4, _) => out.extend((x as f32).to_bits().to_le_bytes()),
                _ => out.extend(x.to_bits().to_le_bytes()),
            }
        } else {
            let bits = 8 * elem;
            let v = n
                .to_bits(bits)
                .ok_or_else(|| bad(&format!("is not a {bits}-bit integer")))?;
            out.extend(&v.to_le_bytes()[..elem as usize]);
        }
    }
    Ok(out)
}
