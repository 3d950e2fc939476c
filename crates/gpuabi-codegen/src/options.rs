//! What to compile for.

use gpuabi_amdgpu::{Target, WaveSize};

/// How a kernel is entered: which registers and buffers hold its arguments and launch ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// The AMDHSA kernel ABI as LLVM uses it for `amdgpu_kernel` (kernarg segment pointer in
    /// user SGPRs, workgroup ids after them, work-item ids in v0–v2 or packed in v0).
    Hsa,
    /// AMD's Catalyst OpenCL 1.2 kernel ABI (GCN only), as `gpuabi catalyst layout` computes
    /// it.
    Catalyst,
}

impl Entry {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Entry::Hsa => "hsa",
            Entry::Catalyst => "catalyst",
        }
    }
}

/// Compilation options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The GPU generation.
    pub target: Target,
    /// The wave size.
    pub wave: WaveSize,
    /// The kernel entry ABI.
    pub entry: Entry,
    /// SGPRs the allocator may use (the kernel's own registers; `vcc` is never allocated).
    pub max_sgprs: u16,
    /// VGPRs the allocator may use.
    pub max_vgprs: u16,
}

impl Options {
    /// The defaults for a target: its default wave size, `hsa`, 256 VGPRs, and the SGPRs a
    /// kernel descriptor can declare: every SGPR an instruction can name on RDNA
    /// (s0–s105), and on GCN 1.2 s0–s89, since the descriptor's SGPR count also covers
    /// `vcc`, `flat_scratch` and `xnack_mask` in granules of 8 out of 102 (llvm-mc-19
    /// refuses `.amdhsa_next_free_sgpr` above 90 for tonga).
    pub fn new(target: Target) -> Options {
        Options {
            target,
            wave: target.default_wave(),
            entry: Entry::Hsa,
            max_sgprs: match target {
                Target::Gfx8 => 90,
                _ => target.addressable_sgprs(),
            },
            max_vgprs: 256,
        }
    }
}

/// A compilation option the code generator cannot take, with the command-line flag that
/// gave it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OptionError {
    /// The flag: `--target`, `--wave`, `--max-sgprs` or `--max-vgprs`.
    pub flag: &'static str,
    /// What was wrong and what was expected, starting with the flag and its value.
    pub message: String,
}

impl Options {
    /// The options for the target named `target` (a generation or an LLVM processor of one)
    /// with an optional wave size and register limits, each checked: the target must be one
    /// the code generator has, the wave size one it runs, and the limits within 8 to the
    /// target's default SGPRs and 4 to 256 VGPRs.
    pub fn from_flags(
        target: &str,
        wave: Option<u32>,
        max_sgprs: Option<u16>,
        max_vgprs: Option<u16>,
    ) -> Result<Options, OptionError> {
        let err = |flag, message| OptionError { flag, message };
        let t: Target = target
            .parse()
            .ok()
            .filter(|t| gpuabi_amdgpu::MODELLED_TARGETS.contains(t))
            .ok_or_else(|| {
                err(
                    "--target",
                    format!(
                        "--target {target}: the code generator targets {}",
                        gpuabi_amdgpu::target::modelled_text(&gpuabi_amdgpu::MODELLED_TARGETS)
                    ),
                )
            })?;
        let mut o = Options::new(t);
        if let Some(w) = wave {
            o.wave = WaveSize::from_lanes(w)
                .filter(|w| t.supports(*w))
                .ok_or_else(|| {
                    let sizes = if t.is_rdna() { "32 or 64" } else { "64" };
                    err(
                        "--wave",
                        format!("--wave {w}: {} runs waves of {sizes}", t.name()),
                    )
                })?;
        }
        if let Some(n) = max_sgprs {
            if !(8..=o.max_sgprs).contains(&n) {
                let message = format!("--max-sgprs {n}: expected 8 to {}", o.max_sgprs);
                return Err(err("--max-sgprs", message));
            }
            o.max_sgprs = n;
        }
        if let Some(n) = max_vgprs {
            if !(4..=256).contains(&n) {
                let message = format!("--max-vgprs {n}: expected 4 to 256");
                return Err(err("--max-vgprs", message));
            }
            o.max_vgprs = n;
        }
        Ok(o)
    }
}
