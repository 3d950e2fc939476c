//! Renderers of a [`KernelLayout`](crate::layout::KernelLayout): a readable text map,
//! JSON, an SVG picture and CLRX assembly source; [`inspect`] summarises a kernel read from
//! a binary.

pub mod clrx;
pub mod inspect;
pub mod json;
pub mod svg;
pub mod text;

use crate::layout::KernelLayout;
use crate::resource_ids::Resource;
use crate::userdata::{DataClass, UserDataEntry};

/// A short description of what a user-data entry holds (`cb1 (arguments)`, `uav 12`).
pub fn userdata_content(l: &KernelLayout, e: &UserDataEntry) -> String {
    let slot = e.api_slot;
    match e.class {
        DataClass::IMM_CONST_BUFFER => match slot {
            0 => "cb0 (setup buffer)".to_string(),
            1 => "cb1 (arguments)".to_string(),
            _ => format!("cb{slot}"),
        },
        DataClass::IMM_UAV => {
            let who = l.args.iter().find(|a| {
                matches!(a.resource, Some(Resource::Uav(i) | Resource::ConstUav(i)) if i == slot)
                    || (e.reg_size == 8
                        && matches!(a.resource, Some(Resource::ImageWo(i)) if i == slot))
            });
            match who {
                Some(a) => format!("uav {slot} ({})", a.name),
                None if Some(slot) == l.ids.printfid => format!("uav {slot} (printf)"),
                None if Some(slot) == l.ids.cbid => format!("uav {slot} (global data)"),
                None => format!("uav {slot}"),
            }
        }
        DataClass::IMM_RESOURCE => format!("read-only image {slot}"),
        DataClass::IMM_SAMPLER => format!("sampler {slot}"),
        DataClass::PTR_RESOURCE_TABLE => "resource table (read-only images)".to_string(),
        DataClass::PTR_SAMPLER_TABLE => "sampler table".to_string(),
        DataClass::PTR_CONST_BUFFER_TABLE => "constant-buffer table".to_string(),
        DataClass::PTR_UAV_TABLE => "UAV table".to_string(),
        DataClass::PTR_INTERNAL_GLOBAL_TABLE => "internal global table (scratch)".to_string(),
        _ => format!("api slot {slot}"),
    }
}

/// `uav:12`-style text of a resource.
pub fn resource_text(r: Option<Resource>) -> String {
    r.map_or_else(|| "-".to_string(), |r| format!("{}:{}", r.space(), r.id()))
}
