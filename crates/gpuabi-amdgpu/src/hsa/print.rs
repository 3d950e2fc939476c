//! The kernel descriptor as LLVM assembly: `.amdhsa_kernel NAME ... .end_amdhsa_kernel`,
//! with the spellings llvm-mc-19 accepts on each target.

use std::fmt::Write;

use crate::target::{Target, WaveSize};

use super::descriptor::{DescriptorError, KernelDescriptor};
use super::features::features;

/// The code object version gpuabi's descriptors and argument layouts follow (LLVM 19's
/// default).
pub const CODE_OBJECT_VERSION: u32 = 5;

/// The lines that must precede kernels in a file for `target`: the target id and the code
/// object version.
pub fn print_preamble(target: Target) -> String {
    format!(
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--{}\"\n\t.amdhsa_code_object_version {CODE_OBJECT_VERSION}\n",
        features(target, WaveSize::W64).processor
    )
}

/// Prints the descriptor of kernel `name` as an `.amdhsa_kernel` block for `target`
/// running `wave` lanes. `.amdhsa_user_sgpr_count` is always printed (the effective count);
/// directives a target does not have are left out (the private segment buffer and flat
/// scratch init with architected flat scratch, the wave size before GFX10), and the private
/// segment is enabled with `.amdhsa_enable_private_segment` on targets with architected flat
/// scratch and `.amdhsa_system_sgpr_private_segment_wavefront_offset` elsewhere.
pub fn print_kernel_descriptor(
    name: &str,
    desc: &KernelDescriptor,
    target: Target,
    wave: WaveSize,
) -> Result<String, DescriptorError> {
    desc.check(target, wave)?;
    let f = features(target, wave);
    let b = u32::from;
    let mut fields: Vec<(&str, u32)> = vec![
        ("group_segment_fixed_size", desc.group_segment_fixed_size),
        (
            "private_segment_fixed_size",
            desc.private_segment_fixed_size,
        ),
        ("kernarg_size", desc.kernarg_size),
        ("user_sgpr_count", desc.effective_user_sgpr_count(target)),
    ];
    if !f.architected_flat_scratch {
        fields.push((
            "user_sgpr_private_segment_buffer",
            b(desc.user_sgpr_private_segment_buffer),
        ));
    }
    fields.extend([
        ("user_sgpr_dispatch_ptr", b(desc.user_sgpr_dispatch_ptr)),
        ("user_sgpr_queue_ptr", b(desc.user_sgpr_queue_ptr)),
        (
            "user_sgpr_kernarg_segment_ptr",
            b(desc.user_sgpr_kernarg_segment_ptr),
        ),
        ("user_sgpr_dispatch_id", b(desc.user_sgpr_dispatch_id)),
    ]);
    if !f.architected_flat_scratch {
        fields.push((
            "user_sgpr_flat_scratch_init",
            b(desc.user_sgpr_flat_scratch_init),
        ));
    }
    fields.push((
        "user_sgpr_private_segment_size",
        b(desc.user_sgpr_private_segment_size),
    ));
    if target.is_rdna() {
        fields.push(("wavefront_size32", b(desc.wavefront_size32)));
    }
    fields.extend([
        (
            if f.architected_flat_scratch {
                "enable_private_segment"
            } else {
                "system_sgpr_private_segment_wavefront_offset"
            },
            b(desc.system_sgpr_private_segment_wavefront_offset),
        ),
        (
            "system_sgpr_workgroup_id_x",
            b(desc.system_sgpr_workgroup_id_x),
        ),
        (
            "system_sgpr_workgroup_id_y",
            b(desc.system_sgpr_workgroup_id_y),
        ),
        (
            "system_sgpr_workgroup_id_z",
            b(desc.system_sgpr_workgroup_id_z),
        ),
        (
            "system_sgpr_workgroup_info",
            b(desc.system_sgpr_workgroup_info),
        ),
        (
            "system_vgpr_workitem_id",
            u32::from(desc.system_vgpr_workitem_id),
        ),
        ("next_free_vgpr", desc.next_free_vgpr),
        ("next_free_sgpr", desc.next_free_sgpr),
        ("float_denorm_mode_32", u32::from(desc.float_denorm_mode_32)),
        (
            "float_denorm_mode_16_64",
            u32::from(desc.float_denorm_mode_16_64),
        ),
        ("dx10_clamp", b(desc.dx10_clamp)),
        ("ieee_mode", b(desc.ieee_mode)),
    ]);
    let mut out = format!("\t.amdhsa_kernel {name}\n");
    for (field, value) in fields {
        let _ = writeln!(out, "\t\t.amdhsa_{field} {value}");
    }
    out.push_str("\t.end_amdhsa_kernel\n");
    Ok(out)
}
