//! What an assembly file says about its own machine, read before it is parsed (the parser
//! needs the target): the processor of its `.amdgcn_target` directive and the wave size of
//! its first kernel descriptor's `.amdhsa_wavefront_size32`, as llc-19 prints both.

use crate::error::AsmError;
use crate::target::{modelled_text, Processor, WaveSize, ENCODED_TARGETS};

/// The processor of a target id `arch-vendor-os-env-processor[:feature...]` (LLVM's
/// AMDGPUUsage, "Target ID"): the fifth field without its features, `None` when the id has
/// no such field.
pub fn processor_name(id: &str) -> Option<&str> {
    let processor = id.splitn(5, '-').nth(4)?;
    let name = processor.split(':').next().unwrap_or("");
    (!name.is_empty()).then_some(name)
}

/// The processor named by the first `.amdgcn_target "..."` of `text`, if there is one;
/// an error at the directive when it names a processor no modelled generation has.
pub fn named_processor(text: &str) -> Result<Option<Processor>, AsmError> {
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix(".amdgcn_target") else {
            continue;
        };
        if !rest.starts_with([' ', '\t', '"']) {
            continue;
        }
        let column = line[..line.len() - trimmed.len()].chars().count() + 1;
        let line_no = i + 1;
        let id = rest
            .trim_start()
            .strip_prefix('"')
            .and_then(|r| r.split_once('"'))
            .map(|(id, _)| id)
            .ok_or_else(|| {
                AsmError::new(
                    line_no,
                    column,
                    "expected a target id like `\"amdgcn-amd-amdhsa--gfx1030\"`",
                )
            })?;
        let name = processor_name(id).unwrap_or("");
        return match Processor::named(name) {
            Some(p) if p.gfx.has_encodings() => Ok(Some(p)),
            found => {
                let what = match found {
                    Some(p) => format!("{p}, which the machine model has no encodings for"),
                    None if name.is_empty() => "no processor".to_string(),
                    None => format!("`{name}`, which is not a processor of a modelled generation"),
                };
                Err(AsmError::new(
                    line_no,
                    column,
                    format!(
                        "target id `{id}` names {what}; gpuabi runs {}",
                        modelled_text(&ENCODED_TARGETS)
                    ),
                ))
            }
        };
    }
    Ok(None)
}

/// The wave size of the first `.amdhsa_wavefront_size32 0|1` of `text` (a kernel
/// descriptor's field), if there is one.
pub fn named_wave(text: &str) -> Option<WaveSize> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix(".amdhsa_wavefront_size32")?;
        match rest.split(';').next().unwrap_or("").trim() {
            "1" => Some(WaveSize::W32),
            "0" => Some(WaveSize::W64),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    #[test]
    fn target_ids() {
        assert_eq!(processor_name("amdgcn-amd-amdhsa--gfx803"), Some("gfx803"));
        assert_eq!(
            processor_name("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"),
            Some("gfx90a")
        );
        assert_eq!(
            processor_name("amdgcn-amd-amdpal--gfx10-3-generic"),
            Some("gfx10-3-generic")
        );
        assert_eq!(processor_name("gfx8"), None);
        let text = "\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\n";
        let p = named_processor(text).unwrap().unwrap();
        assert_eq!((p.name, p.gfx), ("gfx803", Target::Gfx8));
        assert_eq!(named_processor("\ts_endpgm\n").unwrap(), None);
        let e = named_processor("\n  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1150\"").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(
            e.message.contains("`gfx1150`, which is not a processor"),
            "{e}"
        );
        assert!(e.message.contains("gfx8 (gfx801-gfx810"), "{e}");
        let e = named_processor(".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"").unwrap_err();
        assert!(
            e.message.contains("gfx900 (gfx9), which the machine model"),
            "{e}"
        );
        assert_eq!(
            named_wave("\t\t.amdhsa_wavefront_size32 0\n\t\t.amdhsa_wavefront_size32 1\n"),
            Some(WaveSize::W64)
        );
        assert_eq!(named_wave("s_endpgm"), None);
    }
}
