//! Where the values a kernel finds at its first instruction land (AMDGPUUsage, "Initial
//! Kernel Execution State"): user SGPRs from s0 in a fixed order, system SGPRs from
//! `user_sgpr_count` on, work-item ids in v0-v2 or packed in v0.

use gpuabi_layout::reg::{Reg, RegFile, RegRange};

use crate::target::{Target, WaveSize};

use super::descriptor::{DescriptorError, KernelDescriptor};
use super::features::features;

/// A value the dispatcher loads into SGPRs before a kernel starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SgprInput {
    /// The private segment (scratch) buffer resource descriptor.
    PrivateSegmentBuffer,
    /// The address of the AQL kernel dispatch packet.
    DispatchPtr,
    /// The address of the AQL queue.
    QueuePtr,
    /// The address of the kernel argument segment.
    KernargSegmentPtr,
    /// The 64-bit dispatch id.
    DispatchId,
    /// The flat scratch set-up values.
    FlatScratchInit,
    /// Private segment bytes per work-item.
    PrivateSegmentSize,
    /// Work-group id in x.
    WorkgroupIdX,
    /// Work-group id in y.
    WorkgroupIdY,
    /// Work-group id in z.
    WorkgroupIdZ,
    /// Work-group information: bit 31 first wave of the group, bits 0-5 waves in the group.
    WorkgroupInfo,
    /// The wave's byte offset into the private segment buffer.
    PrivateSegmentWavefrontOffset,
}

impl SgprInput {
    /// The user SGPR inputs in the order the hardware loads them from s0.
    pub const USER: [SgprInput; 7] = [
        SgprInput::PrivateSegmentBuffer,
        SgprInput::DispatchPtr,
        SgprInput::QueuePtr,
        SgprInput::KernargSegmentPtr,
        SgprInput::DispatchId,
        SgprInput::FlatScratchInit,
        SgprInput::PrivateSegmentSize,
    ];

    /// The system SGPR inputs in the order the hardware loads them after the user SGPRs.
    pub const SYSTEM: [SgprInput; 5] = [
        SgprInput::WorkgroupIdX,
        SgprInput::WorkgroupIdY,
        SgprInput::WorkgroupIdZ,
        SgprInput::WorkgroupInfo,
        SgprInput::PrivateSegmentWavefrontOffset,
    ];

    /// How many SGPRs the value takes.
    pub const fn dwords(self) -> u8 {
        match self {
            SgprInput::PrivateSegmentBuffer => 4,
            SgprInput::DispatchPtr
            | SgprInput::QueuePtr
            | SgprInput::KernargSegmentPtr
            | SgprInput::DispatchId
            | SgprInput::FlatScratchInit => 2,
            _ => 1,
        }
    }

    /// The name AMDGPUUsage gives the value.
    pub const fn name(self) -> &'static str {
        match self {
            SgprInput::PrivateSegmentBuffer => "private segment buffer",
            SgprInput::DispatchPtr => "dispatch ptr",
            SgprInput::QueuePtr => "queue ptr",
            SgprInput::KernargSegmentPtr => "kernarg segment ptr",
            SgprInput::DispatchId => "dispatch id",
            SgprInput::FlatScratchInit => "flat scratch init",
            SgprInput::PrivateSegmentSize => "private segment size",
            SgprInput::WorkgroupIdX => "work-group id x",
            SgprInput::WorkgroupIdY => "work-group id y",
            SgprInput::WorkgroupIdZ => "work-group id z",
            SgprInput::WorkgroupInfo => "work-group info",
            SgprInput::PrivateSegmentWavefrontOffset => "private segment wavefront offset",
        }
    }
}

/// Bit position of work-item id x, y and z in v0 on targets that pack them.
pub const PACKED_WORK_ITEM_ID_SHIFT: [u32; 3] = [0, 10, 20];
/// Width in bits of each packed work-item id.
pub const PACKED_WORK_ITEM_ID_BITS: u32 = 10;

/// Where a kernel's initial values are when its first instruction runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialState {
    /// Every enabled SGPR input and its registers, in the order the hardware loads them.
    pub sgprs: Vec<(SgprInput, RegRange)>,
    /// The user SGPR count (system SGPRs start at this SGPR).
    pub user_sgpr_count: u32,
    /// The VGPRs with work-item ids: v0 (x), v1 (y), v2 (z) as enabled, or only v0 when
    /// `packed_work_item_ids`.
    pub work_item_id_vgprs: Vec<Reg>,
    /// Whether the enabled ids are packed in v0 at [`PACKED_WORK_ITEM_ID_SHIFT`]; ids not
    /// enabled are 0 there.
    pub packed_work_item_ids: bool,
    /// How many work-item ids (1 to 3, x first) are delivered.
    pub work_item_id_dims: u8,
}

impl InitialState {
    /// The registers of `input`, if enabled.
    pub fn sgpr(&self, input: SgprInput) -> Option<RegRange> {
        self.sgprs
            .iter()
            .find(|(i, _)| *i == input)
            .map(|(_, r)| *r)
    }
}

/// Computes where a kernel with descriptor `desc` finds its initial values on `target`
/// running `wave` lanes.
pub fn initial_state(
    desc: &KernelDescriptor,
    target: Target,
    wave: WaveSize,
) -> Result<InitialState, DescriptorError> {
    desc.check(target, wave)?;
    let mut sgprs = Vec::new();
    let mut next = 0u16;
    let user_sgpr_count = desc.effective_user_sgpr_count(target);
    for input in SgprInput::USER {
        if desc.enables(input, target) {
            sgprs.push((
                input,
                RegRange::new(RegFile::Sgpr, next, input.dwords().into()),
            ));
            next += u16::from(input.dwords());
        }
    }
    // Checked against MAX_USER_SGPRS, so the count fits.
    next = user_sgpr_count as u16;
    for input in SgprInput::SYSTEM {
        if desc.enables(input, target) {
            sgprs.push((
                input,
                RegRange::new(RegFile::Sgpr, next, input.dwords().into()),
            ));
            next += u16::from(input.dwords());
        }
    }
    let dims = desc.system_vgpr_workitem_id + 1;
    let packed = features(target, wave).packed_work_item_ids;
    let work_item_id_vgprs = if packed {
        vec![Reg::vgpr(0)]
    } else {
        (0..u16::from(dims)).map(Reg::vgpr).collect()
    };
    Ok(InitialState {
        sgprs,
        user_sgpr_count,
        work_item_id_vgprs,
        packed_work_item_ids: packed,
        work_item_id_dims: dims,
    })
}
