//! The `.amdhsa_*` directives of an `.amdhsa_kernel` block: one table says which
//! descriptor field each sets and on which targets llvm-mc-19 accepts it; printing and
//! reading both go through it.

use std::fmt::Write;

use crate::target::{Target, WaveSize};

use super::descriptor::{DescriptorError, KernelDescriptor};
use super::features::features;

/// Where a field lives in the descriptor.
#[derive(Clone, Copy)]
enum Field {
    Flag(for<'a> fn(&'a mut KernelDescriptor) -> &'a mut bool),
    Small(for<'a> fn(&'a mut KernelDescriptor) -> &'a mut u8),
    Word(for<'a> fn(&'a mut KernelDescriptor) -> &'a mut u32),
    /// `.amdhsa_user_sgpr_count`, which is optional in the descriptor.
    UserSgprCount,
}

/// On which targets llvm-mc-19 accepts a directive.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Only {
    All,
    /// GFX10 and later.
    Rdna,
    /// Targets without architected flat scratch.
    OwnScratchSetup,
    /// Targets with architected flat scratch.
    ArchitectedFlatScratch,
    /// Targets before RDNA 4 (llvm-mc-19: "directive unsupported on gfx12+").
    BeforeGfx12,
}

impl Only {
    fn accepts(self, target: Target) -> bool {
        let arch = features(target, WaveSize::W64).architected_flat_scratch;
        match self {
            Only::All => true,
            Only::Rdna => target.is_rdna(),
            Only::OwnScratchSetup => !arch,
            Only::ArchitectedFlatScratch => arch,
            Only::BeforeGfx12 => target != Target::Gfx12,
        }
    }
}

/// The directives gpuabi models, in the order llc-19 prints them (without the `.amdhsa_`
/// prefix).
const DIRECTIVES: [(&str, Field, Only); 25] = [
    (
        "group_segment_fixed_size",
        Field::Word(|d| &mut d.group_segment_fixed_size),
        Only::All,
    ),
    (
        "private_segment_fixed_size",
        Field::Word(|d| &mut d.private_segment_fixed_size),
        Only::All,
    ),
    (
        "kernarg_size",
        Field::Word(|d| &mut d.kernarg_size),
        Only::All,
    ),
    ("user_sgpr_count", Field::UserSgprCount, Only::All),
    (
        "user_sgpr_private_segment_buffer",
        Field::Flag(|d| &mut d.user_sgpr_private_segment_buffer),
        Only::OwnScratchSetup,
    ),
    (
        "user_sgpr_dispatch_ptr",
        Field::Flag(|d| &mut d.user_sgpr_dispatch_ptr),
        Only::All,
    ),
    (
        "user_sgpr_queue_ptr",
        Field::Flag(|d| &mut d.user_sgpr_queue_ptr),
        Only::All,
    ),
    (
        "user_sgpr_kernarg_segment_ptr",
        Field::Flag(|d| &mut d.user_sgpr_kernarg_segment_ptr),
        Only::All,
    ),
    (
        "user_sgpr_dispatch_id",
        Field::Flag(|d| &mut d.user_sgpr_dispatch_id),
        Only::All,
    ),
    (
        "user_sgpr_flat_scratch_init",
        Field::Flag(|d| &mut d.user_sgpr_flat_scratch_init),
        Only::OwnScratchSetup,
    ),
    (
        "user_sgpr_private_segment_size",
        Field::Flag(|d| &mut d.user_sgpr_private_segment_size),
        Only::All,
    ),
    (
        "wavefront_size32",
        Field::Flag(|d| &mut d.wavefront_size32),
        Only::Rdna,
    ),
    (
        "system_sgpr_private_segment_wavefront_offset",
        Field::Flag(|d| &mut d.system_sgpr_private_segment_wavefront_offset),
        Only::OwnScratchSetup,
    ),
    (
        "enable_private_segment",
        Field::Flag(|d| &mut d.system_sgpr_private_segment_wavefront_offset),
        Only::ArchitectedFlatScratch,
    ),
    (
        "system_sgpr_workgroup_id_x",
        Field::Flag(|d| &mut d.system_sgpr_workgroup_id_x),
        Only::All,
    ),
    (
        "system_sgpr_workgroup_id_y",
        Field::Flag(|d| &mut d.system_sgpr_workgroup_id_y),
        Only::All,
    ),
    (
        "system_sgpr_workgroup_id_z",
        Field::Flag(|d| &mut d.system_sgpr_workgroup_id_z),
        Only::All,
    ),
    (
        "system_sgpr_workgroup_info",
        Field::Flag(|d| &mut d.system_sgpr_workgroup_info),
        Only::All,
    ),
    (
        "system_vgpr_workitem_id",
        Field::Small(|d| &mut d.system_vgpr_workitem_id),
        Only::All,
    ),
    (
        "next_free_vgpr",
        Field::Word(|d| &mut d.next_free_vgpr),
        Only::All,
    ),
    (
        "next_free_sgpr",
        Field::Word(|d| &mut d.next_free_sgpr),
        Only::All,
    ),
    (
        "float_denorm_mode_32",
        Field::Small(|d| &mut d.float_denorm_mode_32),
        Only::All,
    ),
    (
        "float_denorm_mode_16_64",
        Field::Small(|d| &mut d.float_denorm_mode_16_64),
        Only::All,
    ),
    (
        "dx10_clamp",
        Field::Flag(|d| &mut d.dx10_clamp),
        Only::BeforeGfx12,
    ),
    (
        "ieee_mode",
        Field::Flag(|d| &mut d.ieee_mode),
        Only::BeforeGfx12,
    ),
];

/// Directives llc-19 prints that do not change where a kernel's inputs land; reading
/// accepts and ignores them.
const IGNORED: [&str; 22] = [
    "uses_dynamic_stack",
    "reserve_vcc",
    "reserve_flat_scratch",
    "reserve_xnack_mask",
    "float_round_mode_32",
    "float_round_mode_16_64",
    "fp16_overflow",
    "workgroup_processor_mode",
    "memory_ordered",
    "forward_progress",
    "round_robin_scheduling",
    "shared_vgpr_count",
    "exception_fp_ieee_invalid_op",
    "exception_fp_denorm_src",
    "exception_fp_ieee_div_zero",
    "exception_fp_ieee_overflow",
    "exception_fp_ieee_underflow",
    "exception_fp_ieee_inexact",
    "exception_int_div_zero",
    "accum_offset",
    "tg_split",
    "user_sgpr_kernarg_preload_length",
];

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
    // The table's accessors take the descriptor mutably.
    let mut d = desc.clone();
    let mut out = format!("\t.amdhsa_kernel {name}\n");
    for (directive, field, only) in DIRECTIVES {
        if !only.accepts(target) {
            continue;
        }
        let value = match field {
            Field::Flag(f) => u32::from(*f(&mut d)),
            Field::Small(f) => u32::from(*f(&mut d)),
            Field::Word(f) => *f(&mut d),
            Field::UserSgprCount => desc.effective_user_sgpr_count(target),
        };
        let _ = writeln!(out, "\t\t.amdhsa_{directive} {value}");
    }
    out.push_str("\t.end_amdhsa_kernel\n");
    Ok(out)
}

/// A mistake in an `.amdhsa_kernel` block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DirectiveError {
    /// The 1-based line.
    pub line: usize,
    /// What was expected.
    pub message: String,
}

/// Reads every `.amdhsa_kernel NAME ... .end_amdhsa_kernel` block of an assembly text for
/// `target` running `wave` lanes (what llc-19 prints, or [`print_kernel_descriptor`]).
/// Absent directives keep llvm-mc-19's defaults (only work-group id x enabled, FP32
/// denormals flushed, FP16/FP64 denormals kept, DX10 clamp and IEEE mode on, the wave size
/// of `wave`); directives that do not concern the entry ABI are ignored; unknown
/// directives, directives the target lacks and values out of range are errors naming the
/// line. Each descriptor is checked with [`KernelDescriptor::check`].
pub fn parse_kernel_descriptors(
    text: &str,
    target: Target,
    wave: WaveSize,
) -> Result<Vec<(String, KernelDescriptor)>, DirectiveError> {
    let mut out = Vec::new();
    let mut current: Option<(String, KernelDescriptor, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| DirectiveError { line, message };
        let code = raw.split(';').next().unwrap_or("").trim();
        let mut words = code.split_whitespace();
        let Some(first) = words.next() else {
            continue;
        };
        match (first, &mut current) {
            (".amdhsa_kernel", None) => {
                let name = words
                    .next()
                    .ok_or_else(|| err(".amdhsa_kernel needs a kernel name".into()))?;
                current = Some((name.to_string(), llvm_mc_default(target, wave), line));
            }
            (".amdhsa_kernel", Some(_)) => {
                return Err(err("nested .amdhsa_kernel".into()));
            }
            (".end_amdhsa_kernel", Some(_)) => {
                let Some((name, desc, start)) = current.take() else {
                    continue;
                };
                desc.check(target, wave).map_err(|e| DirectiveError {
                    line: start,
                    message: format!("kernel `{name}`: {e}"),
                })?;
                out.push((name, desc));
            }
            (".end_amdhsa_kernel", None) => {
                return Err(err(".end_amdhsa_kernel without .amdhsa_kernel".into()));
            }
            (directive, Some((_, desc, _))) => {
                let key = directive.strip_prefix(".amdhsa_").ok_or_else(|| {
                    err(format!(
                        "expected an .amdhsa_* directive, found `{directive}`"
                    ))
                })?;
                let value_text = words
                    .next()
                    .ok_or_else(|| err(format!("{directive} needs a value")))?;
                let value: u64 = value_text.parse().map_err(|_| {
                    err(format!(
                        "{directive}: `{value_text}` is not a non-negative integer"
                    ))
                })?;
                if IGNORED.contains(&key) {
                    continue;
                }
                let (_, field, only) = DIRECTIVES
                    .into_iter()
                    .find(|(name, _, _)| *name == key)
                    .ok_or_else(|| err(format!("unknown directive {directive}")))?;
                if !only.accepts(target) {
                    return Err(err(format!("{directive} does not exist on {target}")));
                }
                let too_big = |max: u64| err(format!("{directive}: {value} is more than {max}"));
                match field {
                    Field::Flag(f) => {
                        if value > 1 {
                            return Err(too_big(1));
                        }
                        *f(desc) = value == 1;
                    }
                    Field::Small(f) => {
                        *f(desc) = u8::try_from(value).map_err(|_| too_big(255))?;
                    }
                    Field::Word(f) => {
                        *f(desc) = u32::try_from(value).map_err(|_| too_big(u32::MAX.into()))?;
                    }
                    Field::UserSgprCount => {
                        desc.user_sgpr_count =
                            Some(u32::try_from(value).map_err(|_| too_big(u32::MAX.into()))?);
                    }
                }
            }
            // Everything outside the blocks is someone else's.
            (_, None) => {}
        }
    }
    if let Some((name, _, start)) = current {
        return Err(DirectiveError {
            line: start,
            message: format!(".amdhsa_kernel {name} has no .end_amdhsa_kernel"),
        });
    }
    Ok(out)
}

/// The descriptor llvm-mc-19 assembles from a block without directives.
fn llvm_mc_default(target: Target, wave: WaveSize) -> KernelDescriptor {
    KernelDescriptor {
        user_sgpr_kernarg_segment_ptr: false,
        float_denorm_mode_32: 0,
        next_free_vgpr: 0,
        next_free_sgpr: 0,
        ..KernelDescriptor::new(target, wave)
    }
}
