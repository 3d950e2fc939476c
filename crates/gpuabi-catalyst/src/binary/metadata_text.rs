//! Reads a kernel's metadata text (`;ARGSTART:` … `;ARGEND:`) back into arguments with
//! their cb1 offsets and resource ids, the special ids and the memory sizes. The line
//! forms are those [`crate::metadata`] writes; lines it does not know are kept as warnings.

use serde::Serialize;

use crate::resource_ids::{Resource, SpecialIds};
use crate::types::{
    AddrSpace, ArgType, ImageAccess, ImageDim, Pointee, Scalar, StructType, ValueType,
};

use super::error::BinaryError;

/// One argument as the metadata records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataArg {
    /// Argument name.
    pub name: String,
    /// Reflection type name (`uint*`, `struct mystruct`); the OpenCL spelling of the
    /// type when the metadata has no `;reflection:` line for it.
    pub type_name: String,
    /// Type, as far as the metadata tells it (a structure's alignment is not recorded:
    /// 0; a pointer to a 3-vector reads as its reflection name says).
    pub ty: ArgType,
    /// Byte offset in cb1.
    pub offset: u32,
    /// Bound resource.
    pub resource: Option<Resource>,
}

/// A constant (program-scope) sampler a kernel uses: its sampler id and its OpenCL value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConstSampler {
    /// Sampler id (after the argument samplers).
    pub id: u32,
    /// The OpenCL sampler value (bit 0 normalized coordinates, bits 1-3 addressing, bits
    /// 4-5 filter).
    pub value: u32,
}

/// Everything the metadata text records.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata {
    /// `;version:` text (`3:1:111`).
    pub version: Option<String>,
    /// `;device:` name (lower case).
    pub device: Option<String>,
    /// `;uniqueid:`.
    pub uniqueid: Option<u32>,
    /// `;memory:uavprivate:`.
    pub uavprivate: Option<u32>,
    /// `;memory:hwlocal:`.
    pub hwlocal: Option<u32>,
    /// `;memory:hwregion:`.
    pub hwregion: Option<u32>,
    /// `;cws:`.
    pub cws: Option<[u32; 3]>,
    /// Arguments in order.
    pub args: Vec<MetadataArg>,
    /// `;memory:datareqd` (the program has global constant data).
    pub datareqd: bool,
    /// `;memory:64bitABI`.
    pub abi64: bool,
    /// `;uavid:`, `;cbid:`, `;printfid:`, `;privateid:`.
    pub ids: SpecialIds,
    /// Constant samplers (`;sampler:unknown_V:ID:1:V`), in order.
    pub const_samplers: Vec<ConstSampler>,
    /// Lines not understood (kept, not fatal: AMD's compilers write more kinds).
    pub unknown_lines: Vec<String>,
}

/// Parses the metadata text of `kernel`.
pub fn parse(kernel: &str, text: &str) -> Result<Metadata, BinaryError> {
    let mut m = Metadata::default();
    let mut const_args: Vec<usize> = Vec::new();
    let mut reflections: Vec<(usize, String)> = Vec::new();
    let mut samplers: Vec<(String, u32)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_matches(|c: char| c == '\0' || c.is_whitespace());
        if line.is_empty() {
            continue;
        }
        let err = |message: String| BinaryError::Metadata {
            kernel: kernel.to_string(),
            line: index + 1,
            text: line.chars().take(120).collect(),
            message,
        };
        let Some(body) = line.strip_prefix(';') else {
            m.unknown_lines.push(line.to_string());
            continue;
        };
        let f: Vec<&str> = body.split(':').collect();
        let num = |k: usize| -> Result<u32, BinaryError> {
            let t = f
                .get(k)
                .ok_or_else(|| err(format!("field {} is missing", k + 1)))?;
            t.parse::<u32>()
                .map_err(|_| err(format!("field {} '{t}' is not a number", k + 1)))
        };
        let need = |n: usize| -> Result<(), BinaryError> {
            if f.len() < n {
                Err(err(format!("expected {n} fields, found {}", f.len())))
            } else {
                Ok(())
            }
        };
        match f[0] {
            "ARGSTART" | "ARGEND" | "function" => {}
            "version" => m.version = Some(f[1..].join(":")),
            "device" => m.device = f.get(1).map(|s| s.to_string()),
            "uniqueid" => m.uniqueid = Some(num(1)?),
            "memory" => match f.get(1).copied() {
                Some("uavprivate") => m.uavprivate = Some(num(2)?),
                Some("hwlocal") => m.hwlocal = Some(num(2)?),
                Some("hwregion") => m.hwregion = Some(num(2)?),
                Some("datareqd") => m.datareqd = true,
                Some("64bitABI") => m.abi64 = true,
                _ => m.unknown_lines.push(line.to_string()),
            },
            "cws" => m.cws = Some([num(1)?, num(2)?, num(3)?]),
            "uavid" => m.ids.uavid = Some(num(1)?),
            "cbid" => m.ids.cbid = Some(num(1)?),
            "printfid" => m.ids.printfid = Some(num(1)?),
            "privateid" => m.ids.privateid = Some(num(1)?),
            "constarg" => const_args.push(num(1)? as usize),
            "reflection" => {
                need(3)?;
                reflections.push((num(1)? as usize, f[2..].join(":")));
            }
            "sampler" => {
                need(5)?;
                if f[1].starts_with("unknown_") && num(3)? == 1 {
                    m.const_samplers.push(ConstSampler {
                        id: num(2)?,
                        value: num(4)?,
                    });
                } else {
                    samplers.push((f[1].to_string(), num(2)?));
                }
            }
            "value" => {
                // ;value:NAME:TYPE:N:1:OFFSET (a structure: N is its size)
                need(6)?;
                let (n, offset) = (num(3)?, num(5)?);
                let ty = if f[2] == "struct" {
                    ArgType::Struct {
                        ty: StructType {
                            name: String::new(),
                            size: n,
                            align: 0,
                        },
                    }
                } else {
                    let scalar = Scalar::from_metadata_name(f[2])
                        .ok_or_else(|| err(format!("unknown value type '{}'", f[2])))?;
                    let lanes = u8::try_from(n)
                        .ok()
                        .filter(|l| crate::types::VECTOR_SIZES.contains(l))
                        .ok_or_else(|| {
                            err(format!("vector size {n} is not 1, 2, 3, 4, 8 or 16"))
                        })?;
                    ArgType::Value {
                        ty: ValueType { scalar, lanes },
                    }
                };
                m.args.push(MetadataArg {
                    name: f[1].to_string(),
                    type_name: String::new(),
                    ty,
                    offset,
                    resource: None,
                });
            }
            "pointer" => {
                // ;pointer:NAME:TYPE:1:1:OFFSET:SPACE:ID:ELEMSIZE:ACCESS:VOLATILE:RESTRICT
                need(12)?;
                let (offset, id, elem) = (num(5)?, num(7)?, num(8)?);
                let pointee = match f[2] {
                    "struct" | "opaque" => Pointee::Struct {
                        ty: StructType {
                            name: String::new(),
                            size: if f[2] == "opaque" { 0 } else { elem },
                            align: 0,
                        },
                    },
                    t => {
                        let scalar = Scalar::from_metadata_name(t)
                            .ok_or_else(|| err(format!("unknown pointee type '{t}'")))?;
                        let lanes = (elem / scalar.bytes().max(1)).clamp(1, 16) as u8;
                        Pointee::Value {
                            ty: ValueType { scalar, lanes },
                        }
                    }
                };
                let (space, resource) = match f[6] {
                    "uav" => (AddrSpace::Global, Resource::Uav(id)),
                    "c" => (AddrSpace::Constant, Resource::ConstUav(id)),
                    "hc" => (AddrSpace::Constant, Resource::ConstBuffer(id)),
                    "hl" => (AddrSpace::Local, Resource::Local(id)),
                    s => {
                        return Err(err(format!(
                            "unknown pointer space '{s}' (expected uav, c, hc or hl)"
                        )))
                    }
                };
                let flag = |k: usize| -> Result<bool, BinaryError> {
                    match f[k] {
                        "0" => Ok(false),
                        "1" => Ok(true),
                        t => Err(err(format!("field {} '{t}' is not 0 or 1", k + 1))),
                    }
                };
                m.args.push(MetadataArg {
                    name: f[1].to_string(),
                    type_name: String::new(),
                    ty: ArgType::Pointer {
                        pointee,
                        space,
                        is_const: false,
                        is_volatile: flag(10)?,
                        is_restrict: flag(11)?,
                    },
                    offset,
                    resource: Some(resource),
                });
            }
            "image" => {
                // ;image:NAME:DIM:ACCESS:ID:1:OFFSET
                need(7)?;
                let dim = ImageDim::from_metadata_name(f[2])
                    .ok_or_else(|| err(format!("unknown image dimension '{}'", f[2])))?;
                let id = num(4)?;
                let (access, resource) = match f[3] {
                    "RO" => (ImageAccess::ReadOnly, Resource::ImageRo(id)),
                    "WO" => (ImageAccess::WriteOnly, Resource::ImageWo(id)),
                    a => {
                        return Err(err(format!(
                            "unknown image access '{a}' (expected RO or WO)"
                        )))
                    }
                };
                m.args.push(MetadataArg {
                    name: f[1].to_string(),
                    type_name: String::new(),
                    ty: ArgType::Image { dim, access },
                    offset: num(6)?,
                    resource: Some(resource),
                });
            }
            "counter" => {
                // ;counter:NAME:32:ID:1:OFFSET
                need(6)?;
                m.args.push(MetadataArg {
                    name: f[1].to_string(),
                    type_name: String::new(),
                    ty: ArgType::Counter32,
                    offset: num(5)?,
                    resource: Some(Resource::Counter(num(3)?)),
                });
            }
            _ => m.unknown_lines.push(line.to_string()),
        }
    }
    for k in const_args {
        if let Some(ArgType::Pointer { is_const, .. }) = m.args.get_mut(k).map(|a| &mut a.ty) {
            *is_const = true;
        }
    }
    for (name, id) in samplers {
        if let Some(a) = m.args.iter_mut().find(|a| a.name == name) {
            a.ty = ArgType::Sampler;
            a.resource = Some(Resource::Sampler(id));
        }
    }
    for (k, name) in reflections {
        if let Some(a) = m.args.get_mut(k) {
            // A pointer's reflection name tells a 3-vector from a 4-vector (`float3*`).
            if let ArgType::Pointer {
                pointee: Pointee::Value { ty },
                ..
            } = &mut a.ty
            {
                if let Some(v) = name.strip_suffix('*').and_then(ValueType::from_name) {
                    if v.scalar == ty.scalar {
                        *ty = v;
                    }
                }
            }
            match &mut a.ty {
                ArgType::Struct { ty }
                | ArgType::Pointer {
                    pointee: Pointee::Struct { ty },
                    ..
                } => ty.name = name.trim_end_matches('*').to_string(),
                _ => {}
            }
            a.type_name = name;
        }
    }
    for a in &mut m.args {
        if a.type_name.is_empty() {
            a.type_name = a.ty.default_type_name();
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_kind() {
        let text = ";ARGSTART:__OpenCL_k_kernel\n;version:3:1:104\n;device:tahiti\n\
                    ;uniqueid:1025\n;memory:uavprivate:96\n;memory:hwlocal:64\n\
                    ;memory:hwregion:0\n;cws:64:1:1\n;value:n:i16:3:1:0\n\
                    ;pointer:p:float:1:1:16:hc:3:16:RO:0:1\n;constarg:1:p\n\
                    ;value:s:struct:20:1:32\n;value:smp:u32:1:1:64\n;image:img:2DA:WO:0:1:80\n\
                    ;counter:c:32:2:1:112\n;pointer:l:struct:1:1:128:hl:1:12:RW:1:0\n\
                    ;memory:datareqd\n;function:1:1025\n;sampler:unknown_16:1:1:16\n\
                    ;sampler:smp:0:0:0\n;uavid:9\n;privateid:8\n;reflection:0:short3\n\
                    ;reflection:1:float4*\n;reflection:2:struct big\n;weird:1\n\
                    ;ARGEND:__OpenCL_k_kernel\n";
        let m = parse("k", text).unwrap();
        assert_eq!(m.version.as_deref(), Some("3:1:104"));
        assert_eq!(m.device.as_deref(), Some("tahiti"));
        assert_eq!(
            (m.uavprivate, m.hwlocal, m.hwregion),
            (Some(96), Some(64), Some(0))
        );
        assert_eq!(m.cws, Some([64, 1, 1]));
        assert!(m.datareqd && !m.abi64);
        assert_eq!(m.ids.uavid, Some(9));
        assert_eq!(m.ids.cbid, None);
        assert_eq!(m.const_samplers, vec![ConstSampler { id: 1, value: 16 }]);
        assert_eq!(m.unknown_lines, vec![";weird:1"]);
        let names: Vec<(&str, u32, Option<Resource>)> = m
            .args
            .iter()
            .map(|a| (a.name.as_str(), a.offset, a.resource))
            .collect();
        assert_eq!(
            names,
            vec![
                ("n", 0, None),
                ("p", 16, Some(Resource::ConstBuffer(3))),
                ("s", 32, None),
                ("smp", 64, Some(Resource::Sampler(0))),
                ("img", 80, Some(Resource::ImageWo(0))),
                ("c", 112, Some(Resource::Counter(2))),
                ("l", 128, Some(Resource::Local(1))),
            ]
        );
        assert_eq!(m.args[0].type_name, "short3");
        assert_eq!(
            m.args[1].ty,
            ArgType::Pointer {
                pointee: Pointee::Value {
                    ty: ValueType::from_name("float4").unwrap()
                },
                space: AddrSpace::Constant,
                is_const: true,
                is_volatile: false,
                is_restrict: true,
            }
        );
        assert_eq!(m.args[2].type_name, "struct big");
        assert_eq!(m.args[3].ty, ArgType::Sampler);
        assert_eq!(m.args[3].type_name, "sampler_t");
        assert_eq!(
            m.args[4].ty,
            ArgType::Image {
                dim: ImageDim::D2Array,
                access: ImageAccess::WriteOnly
            }
        );
    }

    #[test]
    fn bad_lines_are_located() {
        let e = parse("k", ";ARGSTART:x\n;value:n:u32:5:1:0\n").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = parse("k", ";pointer:p:u32:1:1:0:zz:1:4:RW:0:0\n").unwrap_err();
        assert!(e.to_string().contains("unknown pointer space 'zz'"), "{e}");
        let e = parse("k", ";image:i:2D:RO\n").unwrap_err();
        assert!(e.to_string().contains("expected 7 fields, found 4"), "{e}");
        let e = parse("k", ";uavid:x\n").unwrap_err();
        assert!(e.to_string().contains("'x' is not a number"), "{e}");
    }
}
