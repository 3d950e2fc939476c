//! The lines an AMDHSA assembly file starts with.

use std::fmt::Write as _;

use crate::target::{Target, WaveSize};

use super::features::features;
use super::kernarg::{Kernel, ValueKind};

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

/// The `.amdgpu_metadata` block for `kernels` (code object v5 metadata in the YAML form
/// llc-19 prints, AMDGPUUsage "Code Object V5 Metadata"): each kernel's arguments with
/// their offsets, sizes and value kinds, its segment sizes, register counts (the
/// descriptor's next free registers) and wave size, so that a loader, `asm check` and
/// `sim run` find the arguments by name. `.max_flat_workgroup_size` is LLVM's default,
/// 1024, which gpuabi's kernels assume.
pub fn print_metadata(kernels: &[Kernel], target: Target, wave: WaveSize) -> String {
    let mut out = String::from("\t.amdgpu_metadata\n---\namdhsa.kernels:\n");
    for k in kernels {
        let d = &k.descriptor;
        out.push_str("  - .args:");
        if k.args.is_empty() {
            out.push_str("           []");
        }
        out.push('\n');
        for a in &k.args {
            let mut fields = Vec::new();
            let space = match a.kind {
                ValueKind::GlobalBuffer => Some("global"),
                ValueKind::DynamicSharedPointer => Some("local"),
                _ => None,
            };
            if let Some(space) = space {
                fields.push(format!(".address_space:  {space}"));
            }
            if !a.kind.is_hidden() {
                fields.push(format!(".name:           {}", yaml_string(&a.name)));
            }
            fields.push(format!(".offset:         {}", a.offset));
            fields.push(format!(".size:           {}", a.size));
            fields.push(format!(".value_kind:     {}", a.kind.name()));
            for (i, f) in fields.iter().enumerate() {
                let lead = if i == 0 { "      - " } else { "        " };
                let _ = writeln!(out, "{lead}{f}");
            }
        }
        let align = k.args.iter().map(|a| a.align).max().unwrap_or(1).max(4);
        let _ = writeln!(
            out,
            "    .group_segment_fixed_size: {}",
            d.group_segment_fixed_size
        );
        let _ = writeln!(out, "    .kernarg_segment_align: {align}");
        let _ = writeln!(out, "    .kernarg_segment_size: {}", k.kernarg_size);
        out.push_str("    .max_flat_workgroup_size: 1024\n");
        let _ = writeln!(out, "    .name:           {}", yaml_string(&k.name));
        let _ = writeln!(
            out,
            "    .private_segment_fixed_size: {}",
            d.private_segment_fixed_size
        );
        let _ = writeln!(out, "    .sgpr_count:     {}", d.next_free_sgpr);
        let _ = writeln!(
            out,
            "    .symbol:         {}",
            yaml_string(&format!("{}.kd", k.name))
        );
        let _ = writeln!(out, "    .vgpr_count:     {}", d.next_free_vgpr);
        let _ = writeln!(out, "    .wavefront_size: {}", wave.lanes());
    }
    let _ = writeln!(
        out,
        "amdhsa.target:   amdgcn-amd-amdhsa--{}",
        features(target, wave).processor
    );
    out.push_str("amdhsa.version:\n  - 1\n  - 2\n...\n\n\t.end_amdgpu_metadata\n");
    out
}

/// `name` as a YAML string: plain when it is a plain word YAML cannot read as anything
/// else, tagged and quoted otherwise (`n`, `off` and `true` are booleans to YAML 1.1, which
/// llvm-mc's metadata reader follows; `0x10` is a number).
fn yaml_string(name: &str) -> String {
    let word = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    let keyword = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"]
        .contains(&name.to_ascii_lowercase().as_str());
    if word && !keyword {
        name.to_string()
    } else {
        format!("!str '{}'", name.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::yaml_string;

    /// The spellings llc-19 chooses for the same argument names.
    #[test]
    fn names_yaml_would_misread_are_tagged() {
        assert_eq!(yaml_string("out"), "out");
        assert_eq!(yaml_string("saxpy.kd"), "saxpy.kd");
        assert_eq!(yaml_string("n"), "!str 'n'");
        assert_eq!(yaml_string("Off"), "!str 'Off'");
        assert_eq!(yaml_string("true"), "!str 'true'");
        assert_eq!(yaml_string("0x10"), "!str '0x10'");
        assert_eq!(yaml_string("a b"), "!str 'a b'");
        assert_eq!(yaml_string("it's"), "!str 'it''s'");
    }
}
