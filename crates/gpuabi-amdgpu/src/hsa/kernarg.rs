//! Kernel arguments as LLVM 19 lays them out for `amdgpu_kernel` with code object
//! version 5: explicit arguments in order at their natural alignment, then, when the
//! kernel uses any, the 256-byte hidden (implicit) argument area (AMDGPUUsage, "Code Object
//! V5 Metadata"; LLVM's `MetadataStreamerMsgPackV5::emitHiddenKernelArgs` and
//! `GCNSubtarget::getKernArgSegmentSize`).

use std::fmt;
use std::str::FromStr;

use crate::target::{Target, WaveSize};

use super::descriptor::KernelDescriptor;
use super::features::features;

/// The `.value_kind` of a kernel argument in code object v5 metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueKind {
    /// `by_value`: the argument's bytes are in the segment.
    ByValue,
    /// `global_buffer`: a 64-bit global address.
    GlobalBuffer,
    /// `dynamic_shared_pointer`: a 32-bit group segment address.
    DynamicSharedPointer,
    /// `image`: an image descriptor.
    Image,
    /// `sampler`: a sampler descriptor.
    Sampler,
    /// `pipe`: an OpenCL pipe.
    Pipe,
    /// `queue`: an OpenCL device enqueue queue.
    Queue,
    /// `hidden_block_count_x`: whole work-groups in x (u32).
    HiddenBlockCountX,
    /// `hidden_block_count_y`.
    HiddenBlockCountY,
    /// `hidden_block_count_z`.
    HiddenBlockCountZ,
    /// `hidden_group_size_x`: work-group size in x (u16).
    HiddenGroupSizeX,
    /// `hidden_group_size_y`.
    HiddenGroupSizeY,
    /// `hidden_group_size_z`.
    HiddenGroupSizeZ,
    /// `hidden_remainder_x`: work-items of the partial last work-group in x (u16).
    HiddenRemainderX,
    /// `hidden_remainder_y`.
    HiddenRemainderY,
    /// `hidden_remainder_z`.
    HiddenRemainderZ,
    /// `hidden_global_offset_x`: global offset in x (u64).
    HiddenGlobalOffsetX,
    /// `hidden_global_offset_y`.
    HiddenGlobalOffsetY,
    /// `hidden_global_offset_z`.
    HiddenGlobalOffsetZ,
    /// `hidden_grid_dims`: dimensions of the grid (u16).
    HiddenGridDims,
    /// `hidden_printf_buffer`.
    HiddenPrintfBuffer,
    /// `hidden_hostcall_buffer`.
    HiddenHostcallBuffer,
    /// `hidden_multigrid_sync_arg`.
    HiddenMultigridSyncArg,
    /// `hidden_heap_v1`.
    HiddenHeapV1,
    /// `hidden_default_queue`.
    HiddenDefaultQueue,
    /// `hidden_completion_action`.
    HiddenCompletionAction,
    /// `hidden_dynamic_lds_size`: group segment bytes allocated at dispatch (u32).
    HiddenDynamicLdsSize,
    /// `hidden_private_base`: high half of the private aperture (targets without aperture
    /// registers).
    HiddenPrivateBase,
    /// `hidden_shared_base`: high half of the shared aperture.
    HiddenSharedBase,
    /// `hidden_queue_ptr`: address of the AQL queue.
    HiddenQueuePtr,
}

/// Every value kind with its metadata spelling.
const KIND_NAMES: [(ValueKind, &str); 30] = [
    (ValueKind::ByValue, "by_value"),
    (ValueKind::GlobalBuffer, "global_buffer"),
    (ValueKind::DynamicSharedPointer, "dynamic_shared_pointer"),
    (ValueKind::Image, "image"),
    (ValueKind::Sampler, "sampler"),
    (ValueKind::Pipe, "pipe"),
    (ValueKind::Queue, "queue"),
    (ValueKind::HiddenBlockCountX, "hidden_block_count_x"),
    (ValueKind::HiddenBlockCountY, "hidden_block_count_y"),
    (ValueKind::HiddenBlockCountZ, "hidden_block_count_z"),
    (ValueKind::HiddenGroupSizeX, "hidden_group_size_x"),
    (ValueKind::HiddenGroupSizeY, "hidden_group_size_y"),
    (ValueKind::HiddenGroupSizeZ, "hidden_group_size_z"),
    (ValueKind::HiddenRemainderX, "hidden_remainder_x"),
    (ValueKind::HiddenRemainderY, "hidden_remainder_y"),
    (ValueKind::HiddenRemainderZ, "hidden_remainder_z"),
    (ValueKind::HiddenGlobalOffsetX, "hidden_global_offset_x"),
    (ValueKind::HiddenGlobalOffsetY, "hidden_global_offset_y"),
    (ValueKind::HiddenGlobalOffsetZ, "hidden_global_offset_z"),
    (ValueKind::HiddenGridDims, "hidden_grid_dims"),
    (ValueKind::HiddenPrintfBuffer, "hidden_printf_buffer"),
    (ValueKind::HiddenHostcallBuffer, "hidden_hostcall_buffer"),
    (
        ValueKind::HiddenMultigridSyncArg,
        "hidden_multigrid_sync_arg",
    ),
    (ValueKind::HiddenHeapV1, "hidden_heap_v1"),
    (ValueKind::HiddenDefaultQueue, "hidden_default_queue"),
    (
        ValueKind::HiddenCompletionAction,
        "hidden_completion_action",
    ),
    (ValueKind::HiddenDynamicLdsSize, "hidden_dynamic_lds_size"),
    (ValueKind::HiddenPrivateBase, "hidden_private_base"),
    (ValueKind::HiddenSharedBase, "hidden_shared_base"),
    (ValueKind::HiddenQueuePtr, "hidden_queue_ptr"),
];

/// Bytes of the hidden argument area of code object v5 (LLVM's `getImplicitArgNumBytes`).
pub const HIDDEN_AREA_BYTES: u32 = 256;
/// Alignment of the start of the hidden area (LLVM's `getAlignmentForImplicitArgPtr` on
/// AMDHSA).
pub const HIDDEN_AREA_ALIGN: u32 = 8;

/// The hidden arguments of code object v5: kind, byte offset from the start of the hidden
/// area, size.
const HIDDEN: [(ValueKind, u32, u32); 23] = [
    (ValueKind::HiddenBlockCountX, 0, 4),
    (ValueKind::HiddenBlockCountY, 4, 4),
    (ValueKind::HiddenBlockCountZ, 8, 4),
    (ValueKind::HiddenGroupSizeX, 12, 2),
    (ValueKind::HiddenGroupSizeY, 14, 2),
    (ValueKind::HiddenGroupSizeZ, 16, 2),
    (ValueKind::HiddenRemainderX, 18, 2),
    (ValueKind::HiddenRemainderY, 20, 2),
    (ValueKind::HiddenRemainderZ, 22, 2),
    // 24-39: tool correlation id and reserved.
    (ValueKind::HiddenGlobalOffsetX, 40, 8),
    (ValueKind::HiddenGlobalOffsetY, 48, 8),
    (ValueKind::HiddenGlobalOffsetZ, 56, 8),
    (ValueKind::HiddenGridDims, 64, 2),
    (ValueKind::HiddenPrintfBuffer, 72, 8),
    (ValueKind::HiddenHostcallBuffer, 80, 8),
    (ValueKind::HiddenMultigridSyncArg, 88, 8),
    (ValueKind::HiddenHeapV1, 96, 8),
    (ValueKind::HiddenDefaultQueue, 104, 8),
    (ValueKind::HiddenCompletionAction, 112, 8),
    (ValueKind::HiddenDynamicLdsSize, 120, 4),
    (ValueKind::HiddenPrivateBase, 192, 4),
    (ValueKind::HiddenSharedBase, 196, 4),
    (ValueKind::HiddenQueuePtr, 200, 8),
];

/// The offset from the start of the hidden area and the size of hidden argument `kind`
/// (`None` for explicit kinds).
pub fn hidden_arg(kind: ValueKind) -> Option<(u32, u32)> {
    HIDDEN
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map(|&(_, offset, size)| (offset, size))
}

impl ValueKind {
    /// The metadata spelling (`hidden_group_size_x`).
    pub fn name(self) -> &'static str {
        KIND_NAMES
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, n)| n)
    }

    /// Whether the argument is hidden (set by the dispatcher, not by the caller).
    pub fn is_hidden(self) -> bool {
        hidden_arg(self).is_some()
    }
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not a `.value_kind` gpuabi knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown .value_kind `{0}`")]
pub struct UnknownValueKind(pub String);

impl FromStr for ValueKind {
    type Err = UnknownValueKind;

    fn from_str(text: &str) -> Result<ValueKind, UnknownValueKind> {
        KIND_NAMES
            .iter()
            .find(|(_, n)| *n == text)
            .map(|(k, _)| *k)
            .ok_or_else(|| UnknownValueKind(text.to_string()))
    }
}

/// The element type of a by-value argument, which says how numbers become its bytes
/// (vector arguments repeat it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// 8-bit integer.
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE half.
    F16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
}

impl ValueType {
    /// Bytes of one element.
    pub const fn bytes(self) -> u32 {
        match self {
            ValueType::I8 => 1,
            ValueType::I16 | ValueType::F16 => 2,
            ValueType::I32 | ValueType::F32 => 4,
            ValueType::I64 | ValueType::F64 => 8,
        }
    }

    /// Whether the element is a floating-point number.
    pub const fn is_float(self) -> bool {
        matches!(self, ValueType::F16 | ValueType::F32 | ValueType::F64)
    }
}

/// An explicit argument before layout: its size and alignment as LLVM's data layout gives
/// them (alloc size and ABI alignment of the IR type; 8 and 8 for a global pointer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgSpec {
    /// The parameter name.
    pub name: String,
    /// Bytes.
    pub size: u32,
    /// Alignment in bytes, a power of two.
    pub align: u32,
    /// `by_value`, `global_buffer` or `dynamic_shared_pointer`.
    pub kind: ValueKind,
    /// The element type of a by-value argument, when known.
    pub value_type: Option<ValueType>,
}

/// One argument in the kernel argument segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernArg {
    /// The parameter name (the value kind for hidden arguments).
    pub name: String,
    /// Byte offset from the start of the segment.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// The `.value_kind`.
    pub kind: ValueKind,
    /// The element type of a by-value argument, when known.
    pub value_type: Option<ValueType>,
}

/// Which optional hidden arguments the hidden area lists, as LLVM decides per kernel from
/// its `amdgpu-no-*` attributes, its module's printf formats, its use of dynamic LDS and
/// whether it may need the queue pointer. The block counts, group sizes, remainders, global
/// offsets and grid dimensions are always listed when the area exists; private and shared
/// base are listed exactly on targets without aperture registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HiddenArgs {
    /// `hidden_printf_buffer`.
    pub printf_buffer: bool,
    /// `hidden_hostcall_buffer`.
    pub hostcall_buffer: bool,
    /// `hidden_multigrid_sync_arg`.
    pub multigrid_sync_arg: bool,
    /// `hidden_heap_v1`.
    pub heap_v1: bool,
    /// `hidden_default_queue`.
    pub default_queue: bool,
    /// `hidden_completion_action`.
    pub completion_action: bool,
    /// `hidden_dynamic_lds_size`.
    pub dynamic_lds_size: bool,
    /// `hidden_queue_ptr`.
    pub queue_ptr: bool,
}

impl HiddenArgs {
    /// What llc-19 lists for a kernel without `amdgpu-no-*` attributes, printf or dynamic
    /// LDS.
    pub const LLVM_DEFAULT: HiddenArgs = HiddenArgs {
        printf_buffer: false,
        hostcall_buffer: true,
        multigrid_sync_arg: true,
        heap_v1: true,
        default_queue: true,
        completion_action: true,
        dynamic_lds_size: false,
        queue_ptr: true,
    };

    /// Only the dispatch-shape arguments (block counts to grid dimensions), as for a kernel
    /// with every `amdgpu-no-*` attribute that concerns the others.
    pub const DISPATCH_ONLY: HiddenArgs = HiddenArgs {
        printf_buffer: false,
        hostcall_buffer: false,
        multigrid_sync_arg: false,
        heap_v1: false,
        default_queue: false,
        completion_action: false,
        dynamic_lds_size: false,
        queue_ptr: false,
    };

    fn lists(&self, kind: ValueKind, target: Target) -> bool {
        use ValueKind::*;
        match kind {
            HiddenPrintfBuffer => self.printf_buffer,
            HiddenHostcallBuffer => self.hostcall_buffer,
            HiddenMultigridSyncArg => self.multigrid_sync_arg,
            HiddenHeapV1 => self.heap_v1,
            HiddenDefaultQueue => self.default_queue,
            HiddenCompletionAction => self.completion_action,
            HiddenDynamicLdsSize => self.dynamic_lds_size,
            HiddenQueuePtr => self.queue_ptr,
            // Aperture registers do not depend on the wave size.
            HiddenPrivateBase | HiddenSharedBase => !features(target, WaveSize::W64).aperture_regs,
            _ => true,
        }
    }
}

/// The kernel argument segment of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernargLayout {
    /// Explicit arguments in order, then the hidden arguments listed.
    pub args: Vec<KernArg>,
    /// `.kernarg_segment_size` (and `.amdhsa_kernarg_size`).
    pub size: u32,
    /// `.kernarg_segment_align`.
    pub align: u32,
    /// Offset of the hidden area, if there is one.
    pub hidden_offset: Option<u32>,
}

/// An argument list that cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel argument `{name}`: {message}")]
pub struct LayoutError {
    /// The argument.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

/// Lays out `explicit` arguments in order, each at the next offset aligned to its
/// alignment, then (when `hidden` is given) the hidden area at the next multiple of
/// [`HIDDEN_AREA_ALIGN`] with the arguments `hidden` and `target` list. The segment size is
/// rounded up to 4 bytes, as LLVM rounds it so that scalar loads may read past the last
/// argument; its alignment is at least 4.
pub fn layout_kernargs(
    explicit: &[ArgSpec],
    hidden: Option<HiddenArgs>,
    target: Target,
) -> Result<KernargLayout, LayoutError> {
    let mut args = Vec::with_capacity(explicit.len() + HIDDEN.len());
    let mut offset = 0u32;
    let mut align = 4u32;
    for a in explicit {
        let err = |message: String| LayoutError {
            name: a.name.clone(),
            message,
        };
        if a.kind.is_hidden() {
            return Err(err(format!(
                "`{}` is a hidden kind; hidden arguments come from the hidden area",
                a.kind
            )));
        }
        if !a.align.is_power_of_two() {
            return Err(err(format!("alignment {} is not a power of two", a.align)));
        }
        let start = offset
            .checked_next_multiple_of(a.align)
            .filter(|s| s.checked_add(a.size).is_some())
            .ok_or_else(|| err("the segment would exceed 4 GiB".into()))?;
        args.push(KernArg {
            name: a.name.clone(),
            offset: start,
            size: a.size,
            align: a.align,
            kind: a.kind,
            value_type: a.value_type,
        });
        offset = start + a.size;
        align = align.max(a.align);
    }
    let mut hidden_offset = None;
    if let Some(h) = hidden {
        let too_big = || LayoutError {
            name: "hidden arguments".into(),
            message: "the segment would exceed 4 GiB".into(),
        };
        let base = offset
            .checked_next_multiple_of(HIDDEN_AREA_ALIGN)
            .ok_or_else(too_big)?;
        offset = base.checked_add(HIDDEN_AREA_BYTES).ok_or_else(too_big)?;
        for &(kind, off, size) in &HIDDEN {
            if h.lists(kind, target) {
                args.push(KernArg {
                    name: kind.name().to_string(),
                    offset: base + off,
                    size,
                    align: size,
                    kind,
                    value_type: None,
                });
            }
        }
        align = align.max(HIDDEN_AREA_ALIGN);
        hidden_offset = Some(base);
    }
    let size = offset
        .checked_next_multiple_of(4)
        .ok_or_else(|| LayoutError {
            name: explicit.last().map_or_else(String::new, |a| a.name.clone()),
            message: "the segment would exceed 4 GiB".into(),
        })?;
    Ok(KernargLayout {
        args,
        size,
        align,
        hidden_offset,
    })
}

/// A kernel as the AMDHSA ABI sees it: its symbol, descriptor and argument segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// The kernel symbol (its descriptor is `NAME.kd`).
    pub name: String,
    /// The kernel descriptor.
    pub descriptor: KernelDescriptor,
    /// Explicit and hidden arguments with their offsets.
    pub args: Vec<KernArg>,
    /// Bytes of the kernel argument segment.
    pub kernarg_size: u32,
}

impl Kernel {
    /// A kernel named `name` with the arguments of `layout`; the descriptor's
    /// `kernarg_size` is set to the layout's size.
    pub fn new(
        name: impl Into<String>,
        mut descriptor: KernelDescriptor,
        layout: KernargLayout,
    ) -> Kernel {
        descriptor.kernarg_size = layout.size;
        Kernel {
            name: name.into(),
            descriptor,
            args: layout.args,
            kernarg_size: layout.size,
        }
    }

    /// The argument named `name` (explicit arguments by parameter name).
    pub fn arg(&self, name: &str) -> Option<&KernArg> {
        self.args.iter().find(|a| a.name == name)
    }
}
