//! Dispatch set-up for the AMD Catalyst OpenCL 1.2 kernel ABI (spec catalyst-abi.md), from
//! a [`KernelLayout`] of the `gpuabi-catalyst` crate: cb0 filled from the NDRange, cb1 from
//! the argument values, buffer descriptors in the user-data SGPRs (or in the tables they
//! point to), group ids after the user SGPRs, local ids in v0-v2, one wave per 64
//! work-items of each work-group.
//!
//! Decisions where the spec is silent: a global or constant pointer argument's cb1 value
//! is 0 (the byte offset into the buffer its UAV or constant-buffer descriptor covers,
//! which is the whole buffer); cb0 dwords the spec does not document stay 0; TG_SIZE, when
//! enabled, holds the number of waves in the work-group; counters and local pointers are
//! not supported and give an error naming the argument or user-data entry.
//!
//! Images, samplers, structures, global data and printf:
//! - An image argument's T# goes to its resource id (read-only images: IMM_RESOURCE or
//!   the resource table, 8 dwords per entry) or UAV id (write-only images: an 8-register
//!   IMM_UAV or the UAV table); its eight cb1 dwords and the descriptors are those of
//!   [`crate::opencl_image`].
//! - A sampler argument's value is its cb1 dword and, as an S#, its sampler id's entry
//!   (IMM_SAMPLER or the sampler table, 4 dwords per entry); so is every constant sampler
//!   the kernel names (`;sampler:unknown_V:ID:1:V`).
//! - A structure passed by value takes its dwords from the numbers given (integers),
//!   zero-padded to its size.
//! - The program's global constant data, when the dispatch has it ([`KernelAbi::global_data`]),
//!   is a buffer ([`GLOBAL_DATA_BUFFER`]) bound as UAV `cbid` from driver 1348.05 on and as
//!   constant buffer 2 before (the spec's id spaces); cb0's offset of the global data is 0.
//! - A kernel that uses printf gets a buffer ([`PRINTF_BUFFER`]) of [`PRINTF_DWORDS_PER_ITEM`]
//!   dwords per work-item of a work-group, bound as UAV `printfid` (`uavid` before driver
//!   1348.05, which has no printfid), with cb0's printf offset 0 and size per work-item.
//!   AMD's code indexes it by the local id, as AMD's runtime supports printf only for an
//!   NDRange of one work-group (ROCclr's `PrintfDbg::init` in `device/pal/palprintf.cpp`
//!   sizes the buffer only when the NDRange fits in one); the first dword of each
//!   work-item's records starts at 1, as that runtime's `initCntValue_` sets it.
//!
//! Scratch (a layout with a scratch size): `PTR_INTERNAL_GLOBAL_TABLE` points to a table
//! of two 16-byte entries whose entry 1 is the scratch buffer descriptor (entry 0 is
//! zero). As under the HSA dispatch's private segment buffer, the descriptor is swizzled
//! (element size 4, index stride 64, ADD_TID_ENABLE) over one global buffer
//! ([`SCRATCH_BUFFER`]) with a slice of bytes-per-lane × 64 for every wave of the dispatch,
//! its `num_records` is the bytes per lane (the SCRATCH_BUFFERS note's dwords × 4), and
//! the scratch wave offset SGPR holds the byte offset of the wave's slice.

use std::collections::BTreeMap;

use gpuabi_catalyst::args::ArgKind;
use gpuabi_catalyst::binary::{BinaryKernel, CatalystBinary};
use gpuabi_catalyst::cb0::{Cb0Field, Cb0Kind};
use gpuabi_catalyst::cb1::Slot;
use gpuabi_catalyst::driver::Driver;
use gpuabi_catalyst::registers::{Dims, RegisterState};
use gpuabi_catalyst::resource_ids::{self, Resource, SpecialIds};
use gpuabi_catalyst::types::{ArgType, ImageDim};
use gpuabi_catalyst::userdata::{DataClass, UserDataEntry};
use gpuabi_catalyst::KernelLayout;
use gpuabi_layout::reg::{RegFile, RegRange};

pub use crate::dispatch::{ArgValue, NdRange, Number};
use crate::dispatch::{LaneValues, WaveSetup};
use crate::exec::image_access::image_type;
use crate::exec::memory::Descriptor;
use crate::limits::MAX_SCRATCH_BYTES_PER_LANE;
use crate::memory::Memory;
use crate::opencl_image::sampler_descriptor;

/// A Catalyst dispatch that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalystError {
    /// The NDRange is invalid.
    #[error("NDRange: {0}")]
    NdRange(String),
    /// An argument is missing, has the wrong kind of value or is not supported.
    #[error("argument `{name}`: {message}")]
    Arg {
        /// The argument.
        name: String,
        /// What was wrong.
        message: String,
    },
    /// A user-data entry or register the simulator cannot fill.
    #[error("{0}")]
    Unsupported(String),
    /// Global memory is full.
    #[error("{0}")]
    Memory(String),
}

/// One argument as the dispatch needs it.
#[derive(Debug, Clone)]
pub struct AbiArg {
    /// Argument name.
    pub name: String,
    /// Broad kind.
    pub kind: ArgKind,
    /// Type name (`uint`, `float4`, `uint*`).
    pub type_name: String,
    /// Offset and size in cb1.
    pub slot: Slot,
    /// Bound resource.
    pub resource: Option<Resource>,
    /// Whether the kernel uses it (a binary that does not say counts as using it).
    pub used: bool,
    /// The full type (as far as the metadata tells it, for a binary's arguments).
    pub ty: ArgType,
}

/// What a Catalyst dispatch needs to know of a kernel: from a [`KernelLayout`] gpuabi
/// computed, or from a [`BinaryKernel`] read from AMD's binary (its own user data, register
/// state and arguments; the cb0 map is the ABI's for the binary's bitness).
#[derive(Debug, Clone)]
pub struct KernelAbi {
    /// Kernel name.
    pub kernel: String,
    /// Arguments.
    pub args: Vec<AbiArg>,
    /// Bytes of cb1.
    pub args_space: u32,
    /// User-data SGPRs.
    pub userdata: Vec<UserDataEntry>,
    /// Group id, local id, TG_SIZE and scratch registers.
    pub regs: RegisterState,
    /// The cb0 fields.
    pub cb0: Vec<Cb0Field>,
    /// Enabled dimensions.
    pub dims: Dims,
    /// Scratch dwords per work-item (the SCRATCH_BUFFERS CAL note).
    pub scratch_dwords: u32,
    /// The special UAV ids.
    pub ids: SpecialIds,
    /// The constant samplers the kernel uses: (sampler id, OpenCL sampler value).
    pub const_samplers: Vec<(u32, u32)>,
    /// Driver version (which id spaces bind global data).
    pub driver: u32,
    /// The kernel uses printf.
    pub printf: bool,
    /// The program's global constant data the dispatch binds (none: nothing is bound).
    pub global_data: Option<Vec<u8>>,
}

impl KernelAbi {
    fn group_dims(&self) -> Vec<&'static str> {
        ["x", "y", "z"]
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.dims.group() & (1 << i) != 0)
            .map(|(_, d)| d)
            .collect()
    }
}

impl From<&KernelLayout> for KernelAbi {
    fn from(l: &KernelLayout) -> KernelAbi {
        let n_arg = l.args.iter().filter(|a| a.kind == ArgKind::Sampler).count() as u32;
        KernelAbi {
            kernel: l.kernel.clone(),
            args: l
                .args
                .iter()
                .map(|a| AbiArg {
                    name: a.name.clone(),
                    kind: a.kind,
                    type_name: a.type_name.clone(),
                    slot: a.slot,
                    resource: a.resource,
                    used: a.used,
                    ty: a.ty.clone(),
                })
                .collect(),
            args_space: l.args_space,
            userdata: l.userdata.clone(),
            regs: l.regs.clone(),
            cb0: l.cb0.clone(),
            dims: l.dims,
            scratch_dwords: l.notes.scratch_dwords,
            ids: l.ids,
            const_samplers: (n_arg..)
                .zip(l.options.const_samplers.iter().copied())
                .collect(),
            driver: l.driver,
            printf: l.options.printf,
            global_data: None,
        }
    }
}

impl From<&BinaryKernel> for KernelAbi {
    fn from(k: &BinaryKernel) -> KernelAbi {
        KernelAbi {
            kernel: k.kernel.clone(),
            args: k
                .args
                .iter()
                .map(|a| AbiArg {
                    name: a.name.clone(),
                    kind: a.kind,
                    type_name: a.type_name.clone(),
                    slot: a.slot,
                    resource: a.resource,
                    used: a.used.unwrap_or(true),
                    ty: a.ty.clone(),
                })
                .collect(),
            args_space: k.args_space,
            userdata: k.userdata.clone(),
            regs: k.regs.clone(),
            cb0: k.cb0.clone(),
            dims: k.dims,
            scratch_dwords: k.notes.scratch_dwords,
            ids: k.ids,
            const_samplers: k.const_samplers.iter().map(|c| (c.id, c.value)).collect(),
            driver: k.driver.unwrap_or(0),
            // Header dword 4 holds 2 when the kernel uses printf (spec §15).
            printf: k.header[4] & 2 != 0,
            global_data: None,
        }
    }
}

impl KernelAbi {
    /// The ABI of `kernel` of `binary`, with the program's global constant data bound
    /// when the kernel's metadata asks for it (`;memory:datareqd`).
    pub fn of_binary(binary: &CatalystBinary, kernel: &BinaryKernel) -> KernelAbi {
        let mut abi = KernelAbi::from(kernel);
        if kernel.datareqd {
            abi.global_data = binary.global_data.as_ref().map(|g| g.bytes());
        }
        abi
    }
}

/// Name of the buffer holding cb1 (the argument buffer) that [`dispatch`] adds.
pub const CB1_BUFFER: &str = "cb1";

/// Name of the buffer backing the scratch memory of every wave that [`dispatch`] adds
/// for a kernel with a scratch buffer.
pub const SCRATCH_BUFFER: &str = "scratch";

/// Name of the buffer of the program's global constant data that [`dispatch`] adds.
pub const GLOBAL_DATA_BUFFER: &str = "global_data";

/// Name of the printf buffer that [`dispatch`] adds for a kernel that uses printf.
pub const PRINTF_BUFFER: &str = "printf";

/// Dwords of the printf buffer per work-item: the write pointer and the records of the
/// work-item's printf calls (a format id, then the arguments).
pub const PRINTF_DWORDS_PER_ITEM: u32 = 64;

/// Bytes of one entry of the internal global table (a 4-dword buffer descriptor).
const INTERNAL_TABLE_ENTRY: usize = 16;
/// Element size of the scratch descriptor's swizzled addressing (4 bytes, as AMD's
/// runtime sets up private memory).
const SCRATCH_ELEMENT_SIZE: u32 = 4;

/// Wave size of the Catalyst ABI: GCN runs wave64.
pub const CATALYST_WAVE: usize = 64;
const CB0_DWORDS: usize = 64;

impl NdRange {
    fn check(&self) -> Result<[u32; 3], CatalystError> {
        let groups = self.group_counts().map_err(CatalystError::NdRange)?;
        for d in 0..3 {
            let (g, l) = (self.global[d], self.local[d]);
            if g % l != 0 {
                return Err(CatalystError::NdRange(format!(
                    "global size {g} of dimension {d} is not a positive multiple of the local size {l} (OpenCL 1.2)"
                )));
            }
        }
        self.wave_count(groups, CATALYST_WAVE as u32)
            .map_err(CatalystError::NdRange)?;
        Ok(groups)
    }
}

fn reg(name: &str) -> Result<RegRange, CatalystError> {
    name.parse::<RegRange>()
        .map_err(|e| CatalystError::Unsupported(format!("register `{name}` of the layout: {e}")))
}

/// Fills cb0 (setup buffer) dwords from the field map of the layout; `printf_dwords` is
/// the printf buffer's size per work-item (0 without printf).
fn cb0(
    layout: &KernelAbi,
    nd: &NdRange,
    groups: [u32; 3],
    printf_dwords: u32,
) -> Result<Vec<u32>, CatalystError> {
    let mut d = vec![0u32; CB0_DWORDS];
    let off = nd.offset;
    for field in &layout.cb0 {
        let values: Vec<u32> = match field.kind {
            Cb0Kind::GlobalSize => nd.global.to_vec(),
            Cb0Kind::WorkDim => vec![nd.work_dim],
            Cb0Kind::LocalSize => nd.local.to_vec(),
            Cb0Kind::NumGroups => groups.to_vec(),
            Cb0Kind::GlobalOffset | Cb0Kind::GlobalOffsetCopy => off.to_vec(),
            // Reproduced as the spec documents it (§4).
            Cb0Kind::OffsetProduct => {
                let dim = nd.work_dim;
                vec![off[0]
                    .wrapping_mul(if dim >= 1 { off[1] } else { 1 })
                    .wrapping_mul(if dim == 2 { off[2] } else { 1 })]
            }
            // The global data and the printf records start at their buffers' byte 0.
            Cb0Kind::ConstDataOffset | Cb0Kind::PrintfBufferOffset => {
                vec![0; field.count as usize]
            }
            Cb0Kind::PrintfItemDwords => vec![printf_dwords],
        };
        for (k, v) in values.into_iter().take(field.count as usize).enumerate() {
            if let Some(slot) = d.get_mut(field.first as usize + k) {
                *slot = v;
            }
        }
    }
    Ok(d)
}

/// Converts numbers to the dwords of a value argument of type `ty` (`uint`, `float4`, …).
fn value_dwords(name: &str, ty: &str, numbers: &[Number]) -> Result<Vec<u32>, CatalystError> {
    let base = ty.trim_end_matches(|c: char| c.is_ascii_digit());
    let mut out = Vec::new();
    for &n in numbers {
        let bad = || CatalystError::Arg {
            name: name.to_string(),
            message: format!("`{n}` does not fit the type `{ty}`"),
        };
        match base {
            "float" => out.push((n.as_f64() as f32).to_bits()),
            "double" => {
                let b = n.as_f64().to_bits();
                out.extend([b as u32, (b >> 32) as u32]);
            }
            "long" | "ulong" => {
                let v = n.to_bits(64).ok_or_else(bad)?;
                out.extend([v as u32, (v >> 32) as u32]);
            }
            "char" | "uchar" | "short" | "ushort" | "int" | "uint" => {
                out.push(n.to_bits(32).ok_or_else(bad)? as u32);
            }
            _ => {
                return Err(CatalystError::Arg {
                    name: name.to_string(),
                    message: format!("values of type `{ty}` are not supported"),
                })
            }
        }
    }
    Ok(out)
}

fn raw_descriptor(base: u64, bytes: usize) -> [u32; 4] {
    Descriptor {
        base,
        stride: 0,
        num_records: bytes as u32,
        swizzle: false,
        add_tid: false,
        index_stride: 8,
        element_size: 4,
    }
    .encode()
}

/// Bytes of one element of a constant buffer.
const CONST_BUFFER_ELEMENT: u32 = 16;

/// The descriptor of a constant buffer: an array of 16-byte elements, which AMD's code
/// indexes with `tbuffer_load_format_xyzw … idxen` (the `constant` pointers of
/// `constchanger2` in CLRX's `prginfo1_12_10` binaries; the CONSTANT_BUFFERS note counts
/// sizes in such elements, spec §14).
fn const_buffer_descriptor(base: u64, bytes: usize) -> [u32; 4] {
    Descriptor {
        base,
        stride: CONST_BUFFER_ELEMENT,
        num_records: (bytes as u64).div_ceil(u64::from(CONST_BUFFER_ELEMENT)) as u32,
        swizzle: false,
        add_tid: false,
        index_stride: 8,
        element_size: 4,
    }
    .encode()
}

fn add(memory: &mut Memory, name: &str, data: Vec<u8>, limit: u64) -> Result<u64, CatalystError> {
    let id = memory
        .add(name, data, limit)
        .map_err(|e| CatalystError::Memory(e.to_string()))?;
    Ok(memory.buffer(id).base)
}

fn dwords_to_bytes(d: &[u32]) -> Vec<u8> {
    d.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Sets up a Catalyst dispatch: adds `cb0`, `cb1` (and descriptor tables when the user
/// data points to them) to `memory`, where argument buffers must already be, and returns
/// one [`WaveSetup`] per wave, work-group by work-group (x fastest).
pub fn dispatch(
    layout: &KernelLayout,
    nd: &NdRange,
    args: &BTreeMap<String, ArgValue>,
    memory: &mut Memory,
    global_limit: u64,
) -> Result<Vec<WaveSetup>, CatalystError> {
    dispatch_kernel(&KernelAbi::from(layout), nd, args, memory, global_limit)
}

/// [`dispatch`] for a kernel read from an AMD binary: the user data, registers and
/// argument offsets are the binary's own.
pub fn dispatch_binary(
    kernel: &BinaryKernel,
    nd: &NdRange,
    args: &BTreeMap<String, ArgValue>,
    memory: &mut Memory,
    global_limit: u64,
) -> Result<Vec<WaveSetup>, CatalystError> {
    dispatch_kernel(&KernelAbi::from(kernel), nd, args, memory, global_limit)
}

/// [`dispatch`] for any [`KernelAbi`].
pub fn dispatch_kernel(
    layout: &KernelAbi,
    nd: &NdRange,
    args: &BTreeMap<String, ArgValue>,
    memory: &mut Memory,
    global_limit: u64,
) -> Result<Vec<WaveSetup>, CatalystError> {
    let groups = nd.check()?;
    for name in args.keys() {
        if !layout.args.iter().any(|a| &a.name == name) {
            return Err(CatalystError::Arg {
                name: name.clone(),
                message: format!(
                    "kernel `{}` has no argument {}",
                    layout.kernel,
                    gpuabi_layout::suggest::suggest(
                        name,
                        "arguments",
                        &layout
                            .args
                            .iter()
                            .map(|a| a.name.as_str())
                            .collect::<Vec<_>>()
                    )
                ),
            });
        }
    }
    // cb1 and the UAVs of the pointer arguments. A binary may claim any argsSpace: it is
    // checked against the memory limit before anything is allocated.
    let used: u64 = memory.buffers().iter().map(|b| b.data.len() as u64).sum();
    if used.saturating_add(u64::from(layout.args_space)) > global_limit {
        return Err(CatalystError::Memory(format!(
            "kernel `{}`: cb1 of {} bytes (argsSpace) exceeds the global memory limit of \
             {global_limit} bytes",
            layout.kernel, layout.args_space
        )));
    }
    let mut cb1 = vec![0u32; (layout.args_space as usize).div_ceil(4)];
    // Descriptors by id: UAVs (4 dwords for buffers, 8 for write-only images), constant
    // buffers, read-only images and samplers.
    let mut uavs: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut const_buffers: BTreeMap<u32, [u32; 4]> = BTreeMap::new();
    let mut images: BTreeMap<u32, [u32; 8]> = BTreeMap::new();
    let mut samplers: BTreeMap<u32, [u32; 4]> = BTreeMap::new();
    for a in &layout.args {
        // A pointer given no value points to the buffer of its own name, as `gpuabi run`
        // binds the kernel parameters of an IR module.
        let implicit = (a.kind == ArgKind::Pointer && !args.contains_key(&a.name))
            .then(|| memory.find(&a.name))
            .flatten()
            .map(|_| ArgValue::Buffer(a.name.clone()));
        let value = args.get(&a.name).or(implicit.as_ref());
        let err = |message: String| CatalystError::Arg {
            name: a.name.clone(),
            message,
        };
        let put = |cb1: &mut Vec<u32>, dw: &[u32]| -> Result<(), CatalystError> {
            if dw.len() as u32 * 4 > a.slot.size {
                return Err(err(format!(
                    "{} dwords given but the argument takes {} bytes",
                    dw.len(),
                    a.slot.size
                )));
            }
            let first = a.slot.offset as usize / 4;
            let slot = cb1
                .get_mut(first..first + dw.len())
                .ok_or_else(|| err("the argument lies outside argsSpace".into()))?;
            slot.copy_from_slice(dw);
            Ok(())
        };
        match (a.kind, value) {
            (ArgKind::Pointer, Some(ArgValue::Buffer(b))) => {
                let buffer = memory
                    .find(b)
                    .ok_or_else(|| err(format!("no buffer `{b}`")))?;
                let d = raw_descriptor(buffer.base, buffer.data.len());
                match a.resource {
                    Some(Resource::Uav(id) | Resource::ConstUav(id)) => {
                        if a.used {
                            uavs.insert(id, d.to_vec());
                        }
                    }
                    // A `constant` pointer before driver 1348.05: its own constant buffer.
                    Some(Resource::ConstBuffer(id)) => {
                        const_buffers
                            .insert(id, const_buffer_descriptor(buffer.base, buffer.data.len()));
                    }
                    _ => return Err(err("only global and constant pointers are supported".into())),
                }
                // The pointer is the byte offset into the descriptor's range: 0 (32- or
                // 64-bit).
            }
            (ArgKind::Pointer, None) if !a.used => {}
            (ArgKind::Value, Some(ArgValue::Numbers(ns))) => {
                let dw = value_dwords(&a.name, &a.type_name, ns)?;
                put(&mut cb1, &dw)?;
            }
            (ArgKind::Struct, Some(ArgValue::Numbers(ns))) => {
                let dw = ns
                    .iter()
                    .map(|&n| {
                        n.to_bits(32).map(|v| v as u32).ok_or_else(|| {
                            err(format!(
                                "`{n}` is not a dword: a structure takes its dwords as integers"
                            ))
                        })
                    })
                    .collect::<Result<Vec<u32>, _>>()?;
                put(&mut cb1, &dw)?;
            }
            (ArgKind::Sampler, Some(ArgValue::Numbers(ns))) => {
                let [n] = ns.as_slice() else {
                    return Err(err("a sampler takes one value".into()));
                };
                let v = value_dwords(&a.name, "uint", &[*n])?[0];
                put(&mut cb1, &[v])?;
                if let Some(Resource::Sampler(id)) = a.resource {
                    samplers.insert(id, sampler_descriptor(v));
                }
            }
            (ArgKind::Image, Some(ArgValue::Image(img))) => {
                let buffer = memory
                    .find(&img.buffer)
                    .ok_or_else(|| err(format!("no buffer `{}`", img.buffer)))?;
                if (buffer.data.len() as u64) < img.bytes() {
                    return Err(err(format!(
                        "buffer `{}` has {} bytes; a {}x{}x{} image of {}-byte texels needs {}",
                        img.buffer,
                        buffer.data.len(),
                        img.size[0],
                        img.size[1],
                        img.size[2],
                        img.format.texel_bytes(),
                        img.bytes()
                    )));
                }
                if buffer.base % 256 != 0 {
                    return Err(err(format!(
                        "buffer `{}` is not 256-byte aligned, as an image's base must be",
                        img.buffer
                    )));
                }
                let ty = match &a.ty {
                    ArgType::Image { dim, .. } => match dim {
                        ImageDim::D1 => image_type::D1,
                        ImageDim::D2 => image_type::D2,
                        ImageDim::D3 => image_type::D3,
                        ImageDim::D1Array => image_type::D1_ARRAY,
                        ImageDim::D2Array => image_type::D2_ARRAY,
                        ImageDim::D1Buffer => {
                            return Err(err("1D buffer images are not supported".into()))
                        }
                    },
                    _ => image_type::D2,
                };
                let t = img.resource(buffer.base, ty);
                match a.resource {
                    Some(Resource::ImageRo(id)) => {
                        images.insert(id, t);
                    }
                    Some(Resource::ImageWo(id)) => {
                        uavs.insert(id, t.to_vec());
                    }
                    _ => return Err(err("the image has no resource id".into())),
                }
                put(&mut cb1, &img.cb1_dwords())?;
            }
            (ArgKind::Pointer, _) => {
                return Err(err("expected a buffer: --arg NAME=@BUFFER".into()))
            }
            (ArgKind::Image, _) => {
                return Err(err(
                    "expected an image: --arg NAME=@BUFFER:FORMAT:WxH[xD]".into()
                ))
            }
            (ArgKind::Value | ArgKind::Struct | ArgKind::Sampler, _) => {
                return Err(err("expected numbers: --arg NAME=1 or NAME=1,2,3,4".into()))
            }
            (kind, _) => {
                return Err(err(format!(
                    "arguments of kind {kind:?} are not supported by the simulator"
                )))
            }
        }
    }
    for &(id, value) in &layout.const_samplers {
        samplers.insert(id, sampler_descriptor(value));
    }
    if let Some(data) = &layout.global_data {
        let base = add(memory, GLOBAL_DATA_BUFFER, data.clone(), global_limit)?;
        let d = raw_descriptor(base, data.len());
        if Driver(layout.driver).constant_as_uav() {
            let id = layout.ids.cbid.unwrap_or(resource_ids::CBID);
            uavs.insert(id, d.to_vec());
        } else {
            const_buffers.insert(
                resource_ids::GLOBAL_DATA_CB,
                const_buffer_descriptor(base, data.len()),
            );
        }
    }
    let group_items = (nd.local[0] * nd.local[1] * nd.local[2]) as usize;
    let printf_dwords = if layout.printf {
        let bytes = u64::from(PRINTF_DWORDS_PER_ITEM) * 4 * group_items as u64;
        let mut data = vec![0u8; bytes as usize];
        for item in data.chunks_mut(PRINTF_DWORDS_PER_ITEM as usize * 4) {
            item[..4].copy_from_slice(&1u32.to_le_bytes());
        }
        let base = add(memory, PRINTF_BUFFER, data, global_limit)?;
        let id = layout
            .ids
            .printfid
            .or(layout.ids.uavid)
            .unwrap_or(resource_ids::PRINTFID);
        uavs.insert(id, raw_descriptor(base, bytes as usize).to_vec());
        PRINTF_DWORDS_PER_ITEM
    } else {
        0
    };
    let cb0 = cb0(layout, nd, groups, printf_dwords)?;
    let cb0_base = add(memory, "cb0", dwords_to_bytes(&cb0), global_limit)?;
    let cb1_bytes = dwords_to_bytes(&cb1);
    let cb1_len = cb1_bytes.len().max(4);
    let cb1_base = add(memory, CB1_BUFFER, cb1_bytes, global_limit)?;
    const_buffers.insert(0, const_buffer_descriptor(cb0_base, CB0_DWORDS * 4));
    const_buffers.insert(1, const_buffer_descriptor(cb1_base, cb1_len));
    let wave_offset_sgpr = layout
        .regs
        .scratch_offset_sgpr
        .as_deref()
        .map(reg)
        .transpose()?;
    let waves_per_group = group_items.div_ceil(CATALYST_WAVE);
    // The driver sizes scratch from the SCRATCH_BUFFERS note (dwords per work-item).
    let per_lane = layout.scratch_dwords.saturating_mul(4);
    let wave_slice = u64::from(per_lane) * CATALYST_WAVE as u64;
    let scratch_base = if wave_offset_sgpr.is_some() {
        if per_lane > MAX_SCRATCH_BYTES_PER_LANE {
            return Err(CatalystError::Memory(format!(
                "kernel `{}` needs {per_lane} scratch bytes per work-item, more than the \
                 simulator's scratch limit of {MAX_SCRATCH_BYTES_PER_LANE}",
                layout.kernel
            )));
        }
        let waves = u64::from(groups[0])
            * u64::from(groups[1])
            * u64::from(groups[2])
            * waves_per_group as u64;
        let bytes = wave_slice.saturating_mul(waves);
        // Wave offsets are 32-bit SGPRs; checked before anything is allocated.
        let used: u64 = memory.buffers().iter().map(|b| b.data.len() as u64).sum();
        if bytes > u64::from(u32::MAX) || used.saturating_add(bytes) > global_limit {
            return Err(CatalystError::Memory(format!(
                "the scratch memory of {waves} waves of {wave_slice} bytes exceeds the global \
                 memory limit of {global_limit} bytes or the 4 GiB that 32-bit wave offsets reach"
            )));
        }
        add(
            memory,
            SCRATCH_BUFFER,
            vec![0; bytes as usize],
            global_limit,
        )?
    } else {
        0
    };
    // Unbound ids (the dummy uavid) get an empty range: every access is out of range.
    let unbound = raw_descriptor(0, 0);

    // User-data SGPRs, within the 16 user SGPRs by CLRX's rules (a damaged binary may
    // name any register).
    gpuabi_catalyst::userdata::validate(&layout.userdata)
        .map_err(|e| CatalystError::Unsupported(format!("user data: {e}")))?;
    let mut sgprs: Vec<(u16, u32)> = Vec::new();
    let table = |memory: &mut Memory,
                 name: &str,
                 entry: usize,
                 entries: Vec<(u32, Vec<u32>)>|
     -> Result<Vec<u32>, CatalystError> {
        let n = entries
            .iter()
            .map(|(id, _)| *id as usize + 1)
            .max()
            .unwrap_or(1);
        let mut t = vec![0u32; entry * n];
        for (id, d) in entries {
            let at = entry * id as usize;
            let len = d.len().min(entry);
            t[at..at + len].copy_from_slice(&d[..len]);
        }
        let base = add(memory, name, dwords_to_bytes(&t), global_limit)?;
        Ok(vec![base as u32, (base >> 32) as u32])
    };
    for e in &layout.userdata {
        let missing = |what: &str| {
            CatalystError::Unsupported(format!(
                "user data {} (s{}): {what} {} is not bound",
                e.class, e.reg_start, e.api_slot
            ))
        };
        let values: Vec<u32> = match e.class {
            DataClass::IMM_CONST_BUFFER => const_buffers
                .get(&e.api_slot)
                .ok_or_else(|| missing("constant buffer"))?
                .to_vec(),
            DataClass::IMM_UAV => match uavs.get(&e.api_slot) {
                Some(d) => d.clone(),
                None => unbound.to_vec(),
            },
            DataClass::IMM_RESOURCE => images
                .get(&e.api_slot)
                .ok_or_else(|| missing("read-only image"))?
                .to_vec(),
            DataClass::IMM_SAMPLER => samplers
                .get(&e.api_slot)
                .ok_or_else(|| missing("sampler"))?
                .to_vec(),
            DataClass::PTR_CONST_BUFFER_TABLE => {
                let entries = const_buffers.iter().map(|(id, d)| (*id, d.to_vec()));
                table(memory, "cb_table", 4, entries.collect())?
            }
            DataClass::PTR_UAV_TABLE => {
                // 8 dwords per entry; buffers use the first 4 (spec §2.2).
                let entries = uavs.iter().map(|(id, d)| (*id, d.clone()));
                table(memory, "uav_table", 8, entries.collect())?
            }
            DataClass::PTR_RESOURCE_TABLE => {
                let entries = images.iter().map(|(id, d)| (*id, d.to_vec()));
                table(memory, "resource_table", 8, entries.collect())?
            }
            DataClass::PTR_SAMPLER_TABLE => {
                let entries = samplers.iter().map(|(id, d)| (*id, d.to_vec()));
                table(memory, "sampler_table", 4, entries.collect())?
            }
            DataClass::PTR_INTERNAL_GLOBAL_TABLE if wave_offset_sgpr.is_some() => {
                let mut table = vec![0u8; 2 * INTERNAL_TABLE_ENTRY];
                let rsrc = Descriptor {
                    base: scratch_base,
                    stride: 0,
                    num_records: per_lane,
                    swizzle: true,
                    add_tid: true,
                    index_stride: CATALYST_WAVE as u32,
                    element_size: SCRATCH_ELEMENT_SIZE,
                }
                .encode();
                table[INTERNAL_TABLE_ENTRY..].copy_from_slice(&dwords_to_bytes(&rsrc));
                let base = add(memory, "internal_global_table", table, global_limit)?;
                vec![base as u32, (base >> 32) as u32]
            }
            other => {
                return Err(CatalystError::Unsupported(format!(
                    "user data {other} (s{}) is not supported by the simulator",
                    e.reg_start
                )))
            }
        };
        if values.len() != e.reg_size as usize {
            return Err(CatalystError::Unsupported(format!(
                "user data {} has {} registers, the simulator fills {}",
                e.class,
                e.reg_size,
                values.len()
            )));
        }
        for (k, v) in values.into_iter().enumerate() {
            sgprs.push((e.reg_start as u16 + k as u16, v));
        }
    }
    let group_regs: Vec<(usize, RegRange)> = layout
        .group_dims()
        .iter()
        .zip(&layout.regs.group_id_sgprs)
        .map(|(d, r)| Ok((dim_index(d), reg(r)?)))
        .collect::<Result<_, CatalystError>>()?;
    let local_regs: Vec<RegRange> = layout
        .regs
        .local_id_vgprs
        .iter()
        .map(|r| reg(r))
        .collect::<Result<_, _>>()?;
    let tg_size = layout.regs.tg_size_sgpr.as_deref().map(reg).transpose()?;
    for r in group_regs
        .iter()
        .map(|(_, r)| r)
        .chain(tg_size.iter())
        .chain(wave_offset_sgpr.iter())
    {
        if r.file() != RegFile::Sgpr {
            return Err(CatalystError::Unsupported(format!(
                "group or scratch register {r} is not an SGPR"
            )));
        }
    }

    let mut setups = Vec::new();
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let gid = [gx, gy, gz];
                for w in 0..waves_per_group {
                    // The LDS of Catalyst kernels (`hwlocal`) is not modelled: size 0.
                    let mut s = WaveSetup {
                        sgprs: sgprs.clone(),
                        workgroup: gx + groups[0] * (gy + groups[1] * gz),
                        ..Default::default()
                    };
                    for (d, r) in &group_regs {
                        s.sgprs.push((r.first.num, gid[*d]));
                    }
                    if let Some(r) = tg_size {
                        s.sgprs.push((r.first.num, waves_per_group as u32));
                    }
                    if let Some(r) = wave_offset_sgpr {
                        // Bounded by the 32-bit check when the scratch was allocated.
                        let wave_index = setups.len() as u64;
                        s.sgprs
                            .push((r.first.num, (wave_index * wave_slice) as u32));
                    }
                    let first = w * CATALYST_WAVE;
                    let lanes = (group_items - first).min(CATALYST_WAVE);
                    let (lx, ly) = (nd.local[0], nd.local[1]);
                    let ids = [0, 1, 2].map(|dim| {
                        (0..CATALYST_WAVE)
                            .map(|lane| {
                                let i = (first + lane) as u32;
                                match (lane < lanes, dim) {
                                    (false, _) => 0,
                                    (true, 0) => i % lx,
                                    (true, 1) => (i / lx) % ly,
                                    (true, _) => i / (lx * ly),
                                }
                            })
                            .collect::<Vec<u32>>()
                    });
                    for (r, values) in local_regs.iter().zip(ids) {
                        s.vgprs.push((r.first.num, LaneValues::PerLane(values)));
                    }
                    s.exec = Some(if lanes == 64 {
                        u64::MAX
                    } else {
                        (1u64 << lanes) - 1
                    });
                    setups.push(s);
                }
            }
        }
    }
    Ok(setups)
}

fn dim_index(d: &str) -> usize {
    match d {
        "y" => 1,
        "z" => 2,
        _ => 0,
    }
}
