//! The kernel's metadata string (`;ARGSTART:…` to `;ARGEND:…`), line for line as CLRX
//! writes it.

use std::fmt::Write;

use crate::compiler_order::string_map_order;
use crate::driver::{Device, Driver};
use crate::layout::{ArgLayout, NotesPolicy, ProgramPlace};
use crate::resource_ids::{Resource, SpecialIds};
use crate::types::{AddrSpace, ArgType, ImageAccess, Pointee};

/// CLRX numbers kernels' unique ids from 1024.
pub const FIRST_UNIQUE_ID: u32 = 1024;

/// The `;function:` id of the kernel at `place` (see [`ProgramPlace`]).
pub fn function_id(place: ProgramPlace, policy: NotesPolicy) -> u32 {
    let uniqueid = FIRST_UNIQUE_ID.saturating_add(place.index);
    match policy {
        NotesPolicy::Clrx => uniqueid,
        NotesPolicy::Amd => uniqueid.saturating_add(place.kernels.saturating_mul(2)),
    }
}

/// What the metadata string is made of.
pub struct MetadataInput<'a> {
    /// Kernel name.
    pub kernel: &'a str,
    /// Driver version.
    pub drv: Driver,
    /// Device.
    pub device: &'a Device,
    /// `;uniqueid:`.
    pub uniqueid: u32,
    /// The id of `;function:1:`.
    pub function_id: u32,
    /// `;memory:uavprivate:`.
    pub uavprivate: u32,
    /// `;memory:hwlocal:`.
    pub hwlocal: u32,
    /// `;memory:hwregion:`.
    pub hwregion: u32,
    /// Required work-group size (0 when absent).
    pub cws: [u32; 3],
    /// Laid-out arguments.
    pub args: &'a [ArgLayout],
    /// Program has global constant data.
    pub const_data: bool,
    /// Constant sampler values.
    pub const_samplers: &'a [u32],
    /// 64-bit binary.
    pub is_64bit: bool,
    /// Special ids.
    pub ids: &'a SpecialIds,
    /// Whose metadata to write.
    pub policy: NotesPolicy,
}

/// The metadata string, one line per item, each ending in `\n`.
pub fn build(m: &MetadataInput<'_>) -> String {
    let mut s = String::with_capacity(512 + 128 * m.args.len());
    let _ = writeln!(s, ";ARGSTART:__OpenCL_{}_kernel", m.kernel);
    s.push_str(if m.drv.old_notes() {
        ";version:3:1:104\n"
    } else {
        ";version:3:1:111\n"
    });
    let _ = writeln!(s, ";device:{}", m.device.metadata_name());
    let _ = writeln!(s, ";uniqueid:{}", m.uniqueid);
    let _ = writeln!(s, ";memory:uavprivate:{}", m.uavprivate);
    let _ = writeln!(s, ";memory:hwlocal:{}", m.hwlocal);
    let _ = writeln!(s, ";memory:hwregion:{}", m.hwregion);
    // CLRX tests X and Y only.
    if m.cws[0] != 0 || m.cws[1] != 0 {
        let _ = writeln!(s, ";cws:{}:{}:{}", m.cws[0], m.cws[1], m.cws[2]);
    }
    for (index, a) in m.args.iter().enumerate() {
        arg_line(&mut s, a, m.policy);
        if let ArgType::Pointer { is_const: true, .. } = a.ty {
            let _ = writeln!(s, ";constarg:{index}:{}", a.name);
        }
    }
    if m.const_data {
        s.push_str(";memory:datareqd\n");
    }
    let _ = writeln!(s, ";function:1:{}", m.function_id);
    for line in sampler_lines(m) {
        s.push_str(&line);
    }
    if m.is_64bit {
        s.push_str(";memory:64bitABI\n");
    }
    for (name, v) in [
        ("uavid", m.ids.uavid),
        ("printfid", m.ids.printfid),
        ("cbid", m.ids.cbid),
        ("privateid", m.ids.privateid),
    ] {
        if let Some(v) = v {
            let _ = writeln!(s, ";{name}:{v}");
        }
    }
    for (index, a) in m.args.iter().enumerate() {
        let _ = writeln!(s, ";reflection:{index}:{}", a.type_name);
    }
    let _ = writeln!(s, ";ARGEND:__OpenCL_{}_kernel", m.kernel);
    s
}

/// The `;sampler:` lines: the constant samplers (named `unknown_<value>`, numbered after
/// the sampler arguments), then the sampler arguments. Under the `amd` policy the lines
/// follow the iteration order of AMD's compiler's `StringMap` of the names, and from
/// 1124.02 the constant samplers are numbered in that order too
/// ([`Driver::amd_hashes_const_sampler_ids`]): prginfo8's imageTransform5MS of CLRX's test
/// data lists `unknown_20`, `samp1`, `samp2`, `unknown_38` (buckets 1, 2, 3, 10 of 16).
fn sampler_lines(m: &MetadataInput<'_>) -> Vec<String> {
    let amd = m.policy == NotesPolicy::Amd;
    let n_arg = m
        .args
        .iter()
        .filter(|a| matches!(a.ty, ArgType::Sampler))
        .count() as u32;
    let const_names: Vec<String> = m
        .const_samplers
        .iter()
        .map(|v| format!("unknown_{v}"))
        .collect();
    let mut const_ids: Vec<u32> = (n_arg..).take(const_names.len()).collect();
    if amd && m.drv.amd_hashes_const_sampler_ids() {
        let names: Vec<&str> = const_names.iter().map(String::as_str).collect();
        for (rank, k) in string_map_order(&names).into_iter().enumerate() {
            const_ids[k] = n_arg + rank as u32;
        }
    }
    let mut lines: Vec<(&str, String)> = const_names
        .iter()
        .zip(&const_ids)
        .zip(m.const_samplers)
        .map(|((name, id), v)| (name.as_str(), format!(";sampler:{name}:{id}:1:{v}\n")))
        .collect();
    lines.extend(m.args.iter().filter_map(|a| match a.resource {
        Some(Resource::Sampler(id)) => {
            Some((a.name.as_str(), format!(";sampler:{}:{id}:0:0\n", a.name)))
        }
        _ => None,
    }));
    if !amd {
        return lines.into_iter().map(|(_, l)| l).collect();
    }
    let names: Vec<&str> = lines.iter().map(|(n, _)| *n).collect();
    string_map_order(&names)
        .into_iter()
        .map(|k| lines[k].1.clone())
        .collect()
}

/// Whether AMD's drivers mark this pointer `RW` though it is `const`: an unused `const
/// global` pointer and any `const local` pointer (alltypes.clo of CLRX's test data, driver
/// 1702.3); CLRX writes `RO`.
fn amd_writes_rw(a: &ArgLayout, space: AddrSpace) -> bool {
    match space {
        AddrSpace::Global => !a.used,
        AddrSpace::Local => true,
        AddrSpace::Constant => false,
    }
}

/// The argument's own line (`;value:`, `;pointer:`, `;image:`, `;counter:`).
fn arg_line(s: &mut String, a: &ArgLayout, policy: NotesPolicy) {
    let off = a.slot.offset;
    let id = a.resource.map(Resource::id).unwrap_or(0);
    match &a.ty {
        ArgType::Value { ty } => {
            let _ = writeln!(
                s,
                ";value:{}:{}:{}:1:{off}",
                a.name,
                ty.scalar.metadata_name(),
                ty.lanes
            );
        }
        ArgType::Sampler => {
            let _ = writeln!(s, ";value:{}:u32:1:1:{off}", a.name);
        }
        ArgType::Struct { ty } => {
            let _ = writeln!(s, ";value:{}:struct:{}:1:{off}", a.name, ty.size);
        }
        ArgType::Pointer {
            pointee,
            space,
            is_const,
            is_volatile,
            is_restrict,
        } => {
            let type_name = match pointee {
                Pointee::Void => "u8",
                Pointee::Value { ty } => ty.scalar.metadata_name(),
                Pointee::Struct { ty } if ty.size == 0 => "opaque",
                Pointee::Struct { .. } => "struct",
            };
            // Pointers are always bound (local ones to `hl:1`).
            let space_text = a.resource.map_or("hl", Resource::space);
            let amd_rw = policy == NotesPolicy::Amd && *is_const && amd_writes_rw(a, *space);
            let access = if (*is_const || *space == AddrSpace::Constant) && !amd_rw {
                "RO"
            } else {
                "RW"
            };
            let _ = writeln!(
                s,
                ";pointer:{}:{type_name}:1:1:{off}:{space_text}:{id}:{}:{access}:{}:{}",
                a.name,
                pointee.metadata_elem_size(),
                u8::from(*is_volatile),
                u8::from(*is_restrict)
            );
        }
        ArgType::Image { dim, access } => {
            let acc = match access {
                ImageAccess::ReadOnly => "RO",
                ImageAccess::WriteOnly => "WO",
            };
            let _ = writeln!(
                s,
                ";image:{}:{}:{acc}:{id}:1:{off}",
                a.name,
                dim.metadata_name()
            );
        }
        ArgType::Counter32 => {
            let _ = writeln!(s, ";counter:{}:32:{id}:1:{off}", a.name);
        }
    }
}
