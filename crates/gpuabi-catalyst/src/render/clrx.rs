//! CLRX assembly: a `.kernel` block with a `.config` section that CLRX's assembler turns
//! into the same layout (`.dims`, `.userdata`, `.arg` lines with resource ids, `.uavid`, …).

use std::fmt::Write;

use crate::args::Vec3Policy;
use crate::layout::{ArgLayout, KernelLayout, NotesPolicy, UserDataPolicy, DEFAULT_FLOAT_MODE};
use crate::resource_ids::Resource;
use crate::types::{AddrSpace, ArgType, ImageAccess, Pointee};

/// The `.arg` pseudo-op of one argument.
fn arg_line(a: &ArgLayout) -> String {
    let mut fields: Vec<String> = vec![a.name.clone()];
    if a.type_name != a.ty.default_type_name() {
        fields.push(format!("\"{}\"", a.type_name));
    }
    let id = a.resource.map(Resource::id);
    match &a.ty {
        ArgType::Value { ty } => fields.push(ty.to_string()),
        ArgType::Struct { ty } => {
            fields.push("structure".into());
            fields.push(ty.size.to_string());
        }
        ArgType::Sampler => fields.push("sampler".into()),
        ArgType::Counter32 => {
            fields.push("counter32".into());
            fields.push(id.unwrap_or(0).to_string());
        }
        ArgType::Image { dim, access } => {
            fields.push(dim.clrx_name().into());
            fields.push(match access {
                ImageAccess::ReadOnly => "read_only".into(),
                ImageAccess::WriteOnly => "write_only".into(),
            });
            fields.push(id.unwrap_or(0).to_string());
        }
        ArgType::Pointer {
            pointee,
            space,
            is_const,
            is_volatile,
            is_restrict,
        } => {
            match pointee {
                Pointee::Void => fields.push("void*".into()),
                Pointee::Value { ty } => fields.push(format!("{ty}*")),
                Pointee::Struct { ty } => {
                    fields.push("structure*".into());
                    fields.push(ty.size.to_string());
                }
            }
            fields.push(space.name().into());
            let mut access = Vec::new();
            if *is_const {
                access.push("const");
            }
            if *is_restrict {
                access.push("restrict");
            }
            if *is_volatile {
                access.push("volatile");
            }
            fields.push(access.join(" "));
            match space {
                AddrSpace::Local => {}
                AddrSpace::Global => fields.push(id.unwrap_or(0).to_string()),
                AddrSpace::Constant => {
                    // CONSTSIZE left empty, then the resource id.
                    fields.push(String::new());
                    fields.push(id.unwrap_or(0).to_string());
                }
            }
        }
    }
    if !a.used {
        fields.push("unused".into());
    }
    // Trailing empty optional fields are left out.
    while fields.last().is_some_and(String::is_empty) {
        fields.pop();
    }
    format!(".arg {}", fields.join(", "))
}

/// CLRX source for the layout.
pub fn render(l: &KernelLayout) -> String {
    let o = &l.options;
    let mut s = String::new();
    let _ = writeln!(s, ".amd");
    let _ = writeln!(s, ".gpu {}", o.device.name);
    let _ = writeln!(s, ".{}bit", l.bits);
    let _ = writeln!(s, ".driver_version {}", l.driver);
    if o.const_data || o.global_data_bytes != 0 {
        // CLRX decides "the program has global data" (cb2 on old drivers, datareqd) from
        // the size of this section, and "the kernel uses it" from `.useconstdata`.
        let _ = writeln!(s, ".globaldata");
        if o.global_data_bytes != 0 {
            let _ = writeln!(s, "    .fill {}, 1, 0", o.global_data_bytes);
        }
    }
    let _ = writeln!(s, ".kernel {}", l.kernel);
    let _ = writeln!(s, "    .config");
    let mut cfg = |line: String| {
        let _ = writeln!(s, "        {line}");
    };
    if let Some(d) = o.dims {
        cfg(format!(".dims {}", d.clrx_text()));
    }
    if o.userdata == UserDataPolicy::Amd {
        cfg("# user data derived with the amd policy".to_string());
    }
    if o.notes == NotesPolicy::Amd {
        cfg(
            "# layout with AMD's notes (--notes amd): CLRX writes its own CAL notes and header"
                .to_string(),
        );
    }
    for e in &l.userdata {
        cfg(format!(
            ".userdata {}, {}, {}, {}",
            e.class, e.api_slot, e.reg_start, e.reg_size
        ));
    }
    // Directives that are a name and at most one number, in the order CLRX lists them;
    // `None` leaves the directive out (its default applies).
    let dec = |v: Option<u32>| v.map(|v| format!(" {v}"));
    let hex = |v: Option<u32>| v.map(|v| format!(" {v:#x}"));
    let nonzero = |v: u32| (v != 0).then_some(v);
    let flag = |on: bool| on.then(String::new);
    let directives = [
        ("uavid", dec(l.ids.uavid)),
        ("cbid", dec(l.ids.cbid)),
        ("printfid", dec(l.ids.printfid)),
        ("privateid", dec(l.ids.privateid)),
        ("uavprivate", dec(o.uavprivate)),
        ("hwlocal", dec(nonzero(o.hwlocal))),
        ("hwregion", dec(nonzero(o.hwregion))),
        ("tgsize", flag(o.tgsize)),
        ("scratchbuffer", dec(nonzero(o.scratch_bytes))),
        ("useprintf", flag(o.printf)),
        ("useconstdata", flag(o.const_data)),
        ("sgprsnum", dec(o.sgprs)),
        ("vgprsnum", dec(o.vgprs)),
        ("pgmrsrc2", hex(nonzero(o.pgm_rsrc2))),
        ("exceptions", hex(nonzero(o.exceptions))),
        (
            "floatmode",
            hex((o.float_mode != DEFAULT_FLOAT_MODE).then_some(o.float_mode)),
        ),
        ("ieeemode", flag(o.ieee_mode)),
    ];
    for (name, value) in directives {
        if let Some(value) = value {
            cfg(format!(".{name}{value}"));
        }
    }
    if l.cws.iter().any(|&c| c != 0) {
        cfg(format!(".cws {}, {}, {}", l.cws[0], l.cws[1], l.cws[2]));
    }
    if !o.const_samplers.is_empty() {
        let v: Vec<String> = o.const_samplers.iter().map(|v| format!("{v:#x}")).collect();
        cfg(format!(".sampler {}", v.join(", ")));
    }
    if o.vec3_64 == Vec3Policy::Amd
        && l.args.iter().any(
            |a| matches!(&a.ty, ArgType::Value { ty } if ty.lanes == 3 && ty.scalar.bytes() == 8),
        )
    {
        cfg("# note: the amd vec3 policy sizes 64-bit 3-vectors 16 bytes; CLRX uses 32".into());
    }
    for a in &l.args {
        cfg(arg_line(a));
    }
    let _ = writeln!(s, "    .text");
    let _ = writeln!(s, "        s_endpgm");
    s
}
