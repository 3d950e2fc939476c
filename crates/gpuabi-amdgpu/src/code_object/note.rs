//! The code object metadata note: an ELF note named `AMDGPU` of type
//! [`NT_AMDGPU_METADATA`] whose descriptor is a MessagePack map (LLVM's AMDGPUUsage,
//! "Code Object V3 Metadata" and later), read for the kernels' names, descriptor symbols
//! and arguments.

use crate::hsa::{arg_align, KernArg, ValueKind};

use super::msgpack::{self, Value};

/// `NT_AMDGPU_METADATA`: the note type of the code object metadata.
pub const NT_AMDGPU_METADATA: u32 = 32;

/// What the metadata says about one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteKernel {
    /// `.name`: the kernel's symbol in `.text`.
    pub name: String,
    /// `.symbol`: its descriptor's symbol (`NAME.kd`).
    pub symbol: String,
    /// `.args`, explicit and hidden, with alignments as `hsa::parse_kernel_metadata` gives
    /// them.
    pub args: Vec<KernArg>,
    /// `.kernarg_segment_size`.
    pub kernarg_segment_size: u32,
}

fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Reads the kernels of the metadata note in the bytes of a note section. Errors carry
/// the byte offset in the section.
pub fn read_metadata_note(section: &[u8]) -> Result<Vec<NoteKernel>, (usize, String)> {
    let (desc_at, value) = metadata_note_value(section)?;
    kernels(&value).map_err(|m| (desc_at, format!("metadata: {m}")))
}

/// The decoded MessagePack map of the metadata note in the bytes of a note section (HSA
/// kernels or, for PAL, `amdpal.pipelines`), with the byte offset of its descriptor.
/// Errors carry the byte offset in the section.
pub fn metadata_note_value(section: &[u8]) -> Result<(usize, Value), (usize, String)> {
    let mut at = 0usize;
    while at < section.len() {
        let head = |what: &str| (at, format!("truncated note header: no {what}"));
        let namesz = u32_le(section, at).ok_or_else(|| head("n_namesz"))? as usize;
        let descsz = u32_le(section, at + 4).ok_or_else(|| head("n_descsz"))? as usize;
        let n_type = u32_le(section, at + 8).ok_or_else(|| head("n_type"))?;
        let name_at = at + 12;
        let desc_at = name_at
            .checked_add(namesz.next_multiple_of(4))
            .filter(|&d| d <= section.len())
            .ok_or_else(|| {
                (
                    at,
                    format!("note name of {namesz} bytes runs past the section"),
                )
            })?;
        let end = desc_at
            .checked_add(descsz)
            .filter(|&e| e <= section.len())
            .ok_or_else(|| {
                (
                    at,
                    format!("note descriptor of {descsz} bytes runs past the section"),
                )
            })?;
        let name = &section[name_at..name_at + namesz];
        if name == b"AMDGPU\0" && n_type == NT_AMDGPU_METADATA {
            let value = msgpack::decode(&section[desc_at..end])
                .map_err(|e| (desc_at + e.offset, format!("metadata: {}", e.message)))?;
            return Ok((desc_at, value));
        }
        at = end.next_multiple_of(4);
    }
    Err((
        0,
        format!("no AMDGPU note of type NT_AMDGPU_METADATA ({NT_AMDGPU_METADATA})"),
    ))
}

fn field<'a>(map: &'a Value, key: &str, what: &str) -> Result<&'a Value, String> {
    map.get(key).ok_or_else(|| format!("{what} without {key}"))
}

fn string(map: &Value, key: &str, what: &str) -> Result<String, String> {
    field(map, key, what)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{what}: {key} is not a string"))
}

fn number(map: &Value, key: &str, what: &str) -> Result<u32, String> {
    field(map, key, what)?
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("{what}: {key} is not a 32-bit unsigned integer"))
}

fn kernels(root: &Value) -> Result<Vec<NoteKernel>, String> {
    let Some(Value::Array(list)) = root.get("amdhsa.kernels") else {
        return Err("no amdhsa.kernels array".into());
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, k) in list.iter().enumerate() {
        let what = format!("amdhsa.kernels[{i}]");
        let name = string(k, ".name", &what)?;
        let what = format!("kernel `{name}`");
        let symbol = string(k, ".symbol", &what)?;
        let kernarg_segment_size = number(k, ".kernarg_segment_size", &what)?;
        let mut args = Vec::new();
        if let Some(a) = k.get(".args") {
            let Value::Array(items) = a else {
                return Err(format!("{what}: .args is not an array"));
            };
            for (j, arg) in items.iter().enumerate() {
                let what = format!("{what} argument {j}");
                let kind: ValueKind = string(arg, ".value_kind", &what)?
                    .parse()
                    .map_err(|e| format!("{what}: {e}"))?;
                let offset = number(arg, ".offset", &what)?;
                let size = number(arg, ".size", &what)?;
                let name = match arg.get(".name").and_then(Value::as_str) {
                    Some(n) => n.to_string(),
                    None => kind.name().to_string(),
                };
                args.push(KernArg {
                    name,
                    offset,
                    size,
                    align: arg_align(kind, offset, size),
                    kind,
                    value_type: None,
                });
            }
        }
        out.push(NoteKernel {
            name,
            symbol,
            args,
            kernarg_segment_size,
        });
    }
    Ok(out)
}
