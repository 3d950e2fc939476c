//! The kernel arguments of an `.amdgpu_metadata` block (code object v5 metadata, the YAML
//! form llc-19 prints), and kernels read from an assembly file as llc-19 prints them.

use crate::target::{Target, WaveSize};

use super::directives::{parse_kernel_descriptors, DirectiveError};
use super::kernarg::{hidden_arg, KernArg, Kernel, ValueKind};

/// What the metadata says about one kernel's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelMetadata {
    /// `.name`.
    pub name: String,
    /// `.args` in order: name (the value kind for unnamed hidden arguments), `.offset`,
    /// `.size`, `.value_kind`. The metadata has no alignment: each argument gets the largest
    /// power of two up to its size (rounded up to a power of two) that divides its offset,
    /// which is its natural alignment for the layouts LLVM produces.
    pub args: Vec<KernArg>,
    /// `.kernarg_segment_size`.
    pub kernarg_segment_size: u32,
    /// `.kernarg_segment_align`.
    pub kernarg_segment_align: u32,
    /// The line of the kernel's entry.
    pub line: usize,
}

#[derive(Default)]
struct ArgFields {
    name: Option<String>,
    offset: Option<u32>,
    size: Option<u32>,
    kind: Option<ValueKind>,
    line: usize,
}

fn err(line: usize, message: impl Into<String>) -> DirectiveError {
    DirectiveError {
        line,
        message: message.into(),
    }
}

fn finish_arg(a: ArgFields) -> Result<KernArg, DirectiveError> {
    let missing = |what: &str| err(a.line, format!("kernel argument without {what}"));
    let kind = a.kind.ok_or_else(|| missing(".value_kind"))?;
    let offset = a.offset.ok_or_else(|| missing(".offset"))?;
    let size = a.size.ok_or_else(|| missing(".size"))?;
    let align = arg_align(kind, offset, size);
    Ok(KernArg {
        name: a.name.unwrap_or_else(|| kind.name().to_string()),
        offset,
        size,
        align,
        kind,
        value_type: None,
    })
}

/// The alignment of an argument the metadata lists without one: a hidden argument's own,
/// else the largest power of two up to its size (rounded up to a power of two) that
/// divides its offset, its natural alignment in the layouts LLVM produces.
pub(crate) fn arg_align(kind: ValueKind, offset: u32, size: u32) -> u32 {
    match hidden_arg(kind) {
        Some((_, size)) => size,
        None => {
            let cap = size.max(1).next_power_of_two();
            if offset == 0 {
                cap
            } else {
                cap.min(1 << offset.trailing_zeros())
            }
        }
    }
}

/// Which list the items under a kernel belong to.
#[derive(PartialEq, Eq)]
enum List {
    Args,
    Other,
}

/// Reads the kernels' argument lists from the `.amdgpu_metadata` blocks of `text` (the
/// block-style YAML llc-19 prints: kernels as items of `amdhsa.kernels`, their fields
/// indented by 4, arguments as items of `.args` with fields indented by 8). Fields gpuabi
/// does not use are skipped; missing or malformed offsets, sizes and value kinds are errors
/// naming the line.
pub fn parse_kernel_metadata(text: &str) -> Result<Vec<KernelMetadata>, DirectiveError> {
    let mut kernels: Vec<KernelMetadata> = Vec::new();
    let mut inside = false;
    let mut in_kernels = false;
    let mut list = List::Other;
    let mut arg: Option<ArgFields> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed == ".amdgpu_metadata" {
            inside = true;
            continue;
        }
        if trimmed == ".end_amdgpu_metadata" {
            inside = false;
            in_kernels = false;
            continue;
        }
        if !inside || trimmed.is_empty() || trimmed == "---" || trimmed == "..." {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let (item, body) = match trimmed.strip_prefix("- ") {
            Some(rest) => (true, rest.trim_start()),
            None => (trimmed == "-", if trimmed == "-" { "" } else { trimmed }),
        };
        let key_indent = if item {
            raw.len() - raw.trim_start().len() + (trimmed.len() - body.len())
        } else {
            indent
        };
        if indent == 0 && !item {
            in_kernels = body.starts_with("amdhsa.kernels:");
            continue;
        }
        if !in_kernels {
            continue;
        }
        let (key, value) = match body.split_once(':') {
            Some((k, v)) => (k.trim(), clean(v)),
            None => ("", clean(body)),
        };
        if item && key_indent == 4 {
            if let Some(a) = arg.take() {
                last(&mut kernels, line)?.args.push(finish_arg(a)?);
            }
            kernels.push(KernelMetadata {
                name: String::new(),
                args: Vec::new(),
                kernarg_segment_size: 0,
                kernarg_segment_align: 0,
                line,
            });
            list = List::Other;
        }
        if key_indent == 4 {
            if let Some(a) = arg.take() {
                last(&mut kernels, line)?.args.push(finish_arg(a)?);
            }
            let k = last(&mut kernels, line)?;
            match key {
                ".name" => k.name = value.to_string(),
                ".kernarg_segment_size" => k.kernarg_segment_size = number(value, key, line)?,
                ".kernarg_segment_align" => k.kernarg_segment_align = number(value, key, line)?,
                _ => {}
            }
            list = if key == ".args" && value.is_empty() {
                List::Args
            } else {
                List::Other
            };
            continue;
        }
        if list != List::Args || key_indent != 8 {
            continue;
        }
        if item {
            if let Some(a) = arg.take() {
                last(&mut kernels, line)?.args.push(finish_arg(a)?);
            }
            arg = Some(ArgFields {
                line,
                ..ArgFields::default()
            });
        }
        let a = arg
            .as_mut()
            .ok_or_else(|| err(line, "argument field outside an argument"))?;
        match key {
            ".name" => a.name = Some(value.to_string()),
            ".offset" => a.offset = Some(number(value, key, line)?),
            ".size" => a.size = Some(number(value, key, line)?),
            ".value_kind" => {
                a.kind = Some(value.parse().map_err(|e| err(line, format!("{e}")))?);
            }
            _ => {}
        }
    }
    if let Some(a) = arg.take() {
        let line = a.line;
        last(&mut kernels, line)?.args.push(finish_arg(a)?);
    }
    for k in &kernels {
        if k.name.is_empty() {
            return Err(err(k.line, "kernel entry without .name"));
        }
    }
    Ok(kernels)
}

fn last(
    kernels: &mut [KernelMetadata],
    line: usize,
) -> Result<&mut KernelMetadata, DirectiveError> {
    kernels
        .last_mut()
        .ok_or_else(|| err(line, "kernel field outside a kernel entry"))
}

/// A YAML scalar without its `!str` tag and quotes.
fn clean(v: &str) -> &str {
    let v = v.trim();
    let v = v.strip_prefix("!str ").unwrap_or(v).trim();
    v.strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| v.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .unwrap_or(v)
}

fn number(value: &str, key: &str, line: usize) -> Result<u32, DirectiveError> {
    value.parse().map_err(|_| {
        err(
            line,
            format!("{key}: `{value}` is not a 32-bit unsigned integer"),
        )
    })
}

/// Reads the kernels of an assembly file as llc-19 prints it for `target` running `wave`
/// lanes: each `.amdhsa_kernel` descriptor joined by name with its metadata entry. A
/// descriptor without metadata, or metadata without a descriptor, is an error (line 0
/// when no line holds the missing part).
pub fn read_kernels(
    text: &str,
    target: Target,
    wave: WaveSize,
) -> Result<Vec<Kernel>, DirectiveError> {
    let descriptors = parse_kernel_descriptors(text, target, wave)?;
    let mut metadata = parse_kernel_metadata(text)?;
    let mut kernels = Vec::with_capacity(descriptors.len());
    for (name, descriptor) in descriptors {
        let at = metadata
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| {
                err(
                    0,
                    format!("kernel `{name}` has a descriptor but no metadata"),
                )
            })?;
        let m = metadata.remove(at);
        kernels.push(Kernel {
            name,
            descriptor,
            args: m.args,
            kernarg_size: m.kernarg_segment_size,
        });
    }
    if let Some(m) = metadata.first() {
        return Err(err(
            m.line,
            format!("kernel `{}` has metadata but no descriptor", m.name),
        ));
    }
    Ok(kernels)
}
