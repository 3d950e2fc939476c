//! The lines an AMDHSA assembly file starts with.

use crate::target::{Target, WaveSize};

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
