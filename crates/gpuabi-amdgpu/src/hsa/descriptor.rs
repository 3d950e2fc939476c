//! The kernel descriptor: what a kernel asks the dispatcher to set up before its first
//! instruction, with fields named after LLVM's `.amdhsa_*` directives.

use crate::target::{Target, WaveSize};

use super::features::features;
use super::initial_state::SgprInput;

/// Most user SGPRs the command processor initialises (AMDGPUUsage, `compute_pgm_rsrc2`:
/// requests beyond 16 are ignored).
pub const MAX_USER_SGPRS: u32 = 16;

/// The fields of an AMDHSA kernel descriptor that decide a kernel's initial state, named
/// after the `.amdhsa_*` directives that set them (`user_sgpr_dispatch_ptr` is
/// `.amdhsa_user_sgpr_dispatch_ptr`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// `.amdhsa_user_sgpr_count`: where the system SGPRs start. `None` is the count the
    /// enabled user SGPRs imply, as llvm-mc assumes when the directive is absent; a larger
    /// value leaves user SGPRs unset (LLVM does so for the GFX11 wave32 init bug, see
    /// [`KernelDescriptor::pad_user_sgprs_like_llvm`]).
    pub user_sgpr_count: Option<u32>,
    /// Four SGPRs with the private segment (scratch) buffer descriptor; not on targets
    /// with architected flat scratch.
    pub user_sgpr_private_segment_buffer: bool,
    /// Two SGPRs with the address of the AQL dispatch packet.
    pub user_sgpr_dispatch_ptr: bool,
    /// Two SGPRs with the address of the AQL queue.
    pub user_sgpr_queue_ptr: bool,
    /// Two SGPRs with the address of the kernel argument segment.
    pub user_sgpr_kernarg_segment_ptr: bool,
    /// Two SGPRs with the 64-bit dispatch id.
    pub user_sgpr_dispatch_id: bool,
    /// Two SGPRs with the flat scratch set-up values; not on targets with architected flat
    /// scratch.
    pub user_sgpr_flat_scratch_init: bool,
    /// One SGPR with the private segment bytes per work-item.
    pub user_sgpr_private_segment_size: bool,
    /// `.amdhsa_system_sgpr_private_segment_wavefront_offset`, spelled
    /// `.amdhsa_enable_private_segment` on targets with architected flat scratch: the
    /// kernel uses a private segment. Without architected flat scratch it also gives one
    /// system SGPR with the wave's byte offset into the private segment buffer.
    pub system_sgpr_private_segment_wavefront_offset: bool,
    /// One system SGPR with the work-group id in x.
    pub system_sgpr_workgroup_id_x: bool,
    /// One system SGPR with the work-group id in y.
    pub system_sgpr_workgroup_id_y: bool,
    /// One system SGPR with the work-group id in z.
    pub system_sgpr_workgroup_id_z: bool,
    /// One system SGPR with the work-group information (first wave, waves per group).
    pub system_sgpr_workgroup_info: bool,
    /// Work-item ids delivered: 0 = x, 1 = x and y, 2 = x, y and z.
    pub system_vgpr_workitem_id: u8,
    /// Private (scratch) bytes per work-item the kernel needs.
    pub private_segment_fixed_size: u32,
    /// Group (LDS) bytes per work-group the kernel needs.
    pub group_segment_fixed_size: u32,
    /// Bytes of the kernel argument segment.
    pub kernarg_size: u32,
    /// One more than the highest VGPR the kernel uses.
    pub next_free_vgpr: u32,
    /// One more than the highest SGPR the kernel uses.
    pub next_free_sgpr: u32,
    /// Waves of 32 lanes (GFX10 and later only).
    pub wavefront_size32: bool,
    /// FP32 denormal mode: 0 flush source and destination, 1 flush destination, 2 flush
    /// source, 3 flush none.
    pub float_denorm_mode_32: u8,
    /// FP16/FP64 denormal mode, coded as [`KernelDescriptor::float_denorm_mode_32`].
    pub float_denorm_mode_16_64: u8,
    /// IEEE mode (signalling NaN handling of min/max).
    pub ieee_mode: bool,
    /// DX10 clamp mode of NaN results.
    pub dx10_clamp: bool,
}

/// A kernel descriptor that the target cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel descriptor field `{field}`: {message}")]
pub struct DescriptorError {
    /// The field, named after its `.amdhsa_*` directive without the prefix.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

fn error(field: &'static str, message: impl Into<String>) -> DescriptorError {
    DescriptorError {
        field,
        message: message.into(),
    }
}

impl KernelDescriptor {
    /// The descriptor llc-19 starts from for a kernel of `target` and `wave`: the kernarg
    /// segment pointer, work-group id x and work-item id x enabled, denormals kept, IEEE
    /// and DX10 clamp modes on (before RDNA 4, which has neither), one VGPR and one SGPR
    /// used.
    pub fn new(target: Target, wave: WaveSize) -> KernelDescriptor {
        KernelDescriptor {
            user_sgpr_count: None,
            user_sgpr_private_segment_buffer: false,
            user_sgpr_dispatch_ptr: false,
            user_sgpr_queue_ptr: false,
            user_sgpr_kernarg_segment_ptr: true,
            user_sgpr_dispatch_id: false,
            user_sgpr_flat_scratch_init: false,
            user_sgpr_private_segment_size: false,
            system_sgpr_private_segment_wavefront_offset: false,
            system_sgpr_workgroup_id_x: true,
            system_sgpr_workgroup_id_y: false,
            system_sgpr_workgroup_id_z: false,
            system_sgpr_workgroup_info: false,
            system_vgpr_workitem_id: 0,
            private_segment_fixed_size: 0,
            group_segment_fixed_size: 0,
            kernarg_size: 0,
            next_free_vgpr: 1,
            next_free_sgpr: 1,
            wavefront_size32: target.is_rdna() && wave == WaveSize::W32,
            float_denorm_mode_32: 3,
            float_denorm_mode_16_64: 3,
            ieee_mode: target != Target::Gfx12,
            dx10_clamp: target != Target::Gfx12,
        }
    }

    /// Whether the descriptor enables `input`.
    pub fn enables(&self, input: SgprInput, target: Target) -> bool {
        use SgprInput::*;
        match input {
            PrivateSegmentBuffer => self.user_sgpr_private_segment_buffer,
            DispatchPtr => self.user_sgpr_dispatch_ptr,
            QueuePtr => self.user_sgpr_queue_ptr,
            KernargSegmentPtr => self.user_sgpr_kernarg_segment_ptr,
            DispatchId => self.user_sgpr_dispatch_id,
            FlatScratchInit => self.user_sgpr_flat_scratch_init,
            PrivateSegmentSize => self.user_sgpr_private_segment_size,
            WorkgroupIdX => self.system_sgpr_workgroup_id_x,
            WorkgroupIdY => self.system_sgpr_workgroup_id_y,
            WorkgroupIdZ => self.system_sgpr_workgroup_id_z,
            WorkgroupInfo => self.system_sgpr_workgroup_info,
            PrivateSegmentWavefrontOffset => {
                self.system_sgpr_private_segment_wavefront_offset
                    && !features(target, WaveSize::W64).architected_flat_scratch
            }
        }
    }

    /// The user SGPR count the enabled user SGPRs imply.
    pub fn implied_user_sgpr_count(&self, target: Target) -> u32 {
        SgprInput::USER
            .iter()
            .filter(|i| self.enables(**i, target))
            .map(|i| u32::from(i.dwords()))
            .sum()
    }

    /// The user SGPR count in effect: `user_sgpr_count` or the implied count.
    pub fn effective_user_sgpr_count(&self, target: Target) -> u32 {
        self.user_sgpr_count
            .unwrap_or_else(|| self.implied_user_sgpr_count(target))
    }

    /// Sets `user_sgpr_count` as llc-19 does: the implied count, raised on targets with the
    /// user SGPR init bug until user and system SGPRs together number 16.
    pub fn pad_user_sgprs_like_llvm(&mut self, target: Target, wave: WaveSize) {
        let implied = self.implied_user_sgpr_count(target);
        let count = if features(target, wave).user_sgpr_init16_bug {
            let system: u32 = SgprInput::SYSTEM
                .iter()
                .filter(|i| self.enables(**i, target))
                .map(|i| u32::from(i.dwords()))
                .sum();
            implied.max(MAX_USER_SGPRS.saturating_sub(system))
        } else {
            implied
        };
        self.user_sgpr_count = Some(count);
    }

    /// Checks that `target` running `wave` lanes can use the descriptor.
    pub fn check(&self, target: Target, wave: WaveSize) -> Result<(), DescriptorError> {
        if !target.supports(wave) {
            return Err(error(
                "wavefront_size32",
                format!("{target} does not run {wave}"),
            ));
        }
        if self.wavefront_size32 && !target.is_rdna() {
            return Err(error("wavefront_size32", format!("{target} has no wave32")));
        }
        if self.wavefront_size32 != (wave == WaveSize::W32) {
            return Err(error(
                "wavefront_size32",
                format!(
                    "is {} but the dispatch runs {wave}",
                    u8::from(self.wavefront_size32)
                ),
            ));
        }
        if features(target, wave).architected_flat_scratch {
            if self.user_sgpr_private_segment_buffer {
                return Err(error(
                    "user_sgpr_private_segment_buffer",
                    format!("{target} has architected flat scratch and no private segment buffer"),
                ));
            }
            if self.user_sgpr_flat_scratch_init {
                return Err(error(
                    "user_sgpr_flat_scratch_init",
                    format!("{target} has architected flat scratch and no flat scratch init"),
                ));
            }
        }
        if self.system_vgpr_workitem_id > 2 {
            return Err(error(
                "system_vgpr_workitem_id",
                format!("{} is not 0, 1 or 2", self.system_vgpr_workitem_id),
            ));
        }
        for (field, mode) in [
            ("float_denorm_mode_32", self.float_denorm_mode_32),
            ("float_denorm_mode_16_64", self.float_denorm_mode_16_64),
        ] {
            if mode > 3 {
                return Err(error(field, format!("{mode} is not 0 to 3")));
            }
        }
        let implied = self.implied_user_sgpr_count(target);
        if implied > MAX_USER_SGPRS {
            return Err(error(
                "user_sgpr_count",
                format!("the enabled user SGPRs need {implied}, more than {MAX_USER_SGPRS}"),
            ));
        }
        if let Some(count) = self.user_sgpr_count {
            if count < implied {
                return Err(error(
                    "user_sgpr_count",
                    format!("{count} is smaller than the {implied} the enabled user SGPRs need"),
                ));
            }
            if count > MAX_USER_SGPRS {
                return Err(error(
                    "user_sgpr_count",
                    format!("{count} is more than {MAX_USER_SGPRS}"),
                ));
            }
        }
        Ok(())
    }
}
