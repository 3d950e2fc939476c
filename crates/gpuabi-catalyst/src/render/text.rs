//! A readable map of a kernel's ABI: SGPRs, VGPRs, cb0 and cb1.

use std::fmt::Write;

use comfy_table::{presets::UTF8_BORDERS_ONLY, Table};
use gpuabi_layout::reg::{RegFile, RegRange};

use super::{resource_text, userdata_content};
use crate::driver::Driver;
use crate::layout::KernelLayout;

fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_BORDERS_ONLY);
    t.set_header(header.to_vec());
    t
}

fn id_text(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The text map.
pub fn render(l: &KernelLayout) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "kernel {}  driver {}  device {} ({})  {}-bit",
        l.kernel,
        Driver(l.driver).dotted(),
        l.device,
        l.generation_name(),
        l.bits
    );
    let _ = writeln!(
        s,
        "uavid {}  cbid {}  printfid {}  privateid {}  uavprivate {}  argsSpace {}",
        id_text(l.ids.uavid),
        id_text(l.ids.cbid),
        id_text(l.ids.printfid),
        id_text(l.ids.privateid),
        l.uavprivate,
        l.args_space
    );
    s.push('\n');

    let mut sg = table(&["SGPR", "content"]);
    for e in &l.userdata {
        let r = RegRange::new(RegFile::Sgpr, e.reg_start as u16, e.reg_size.max(1) as u16);
        sg.add_row(vec![
            r.to_string(),
            format!("{}({}): {}", e.class, e.api_slot, userdata_content(l, e)),
        ]);
    }
    for (reg, dim) in l.regs.group_id_sgprs.iter().zip(l.group_dims()) {
        sg.add_row(vec![reg.clone(), format!("group id {dim}")]);
    }
    if let Some(r) = &l.regs.tg_size_sgpr {
        sg.add_row(vec![r.clone(), "TG_SIZE".to_string()]);
    }
    if let Some(r) = &l.regs.scratch_offset_sgpr {
        sg.add_row(vec![r.clone(), "scratch wave offset".to_string()]);
    }
    let _ = writeln!(
        s,
        "SGPRs (USER_SGPR {}, {} used)\n{sg}",
        l.user_sgprs, l.regs.sgprs
    );
    let _ = writeln!(
        s,
        "reserved at the top of the allocated SGPRs: {}\n",
        l.generation.reserved_top_sgprs().join(", ")
    );

    let mut vg = table(&["VGPR", "content"]);
    for (reg, dim) in l.regs.local_id_vgprs.iter().zip(["x", "y", "z"]) {
        vg.add_row(vec![reg.clone(), format!("local id {dim}")]);
    }
    let _ = writeln!(s, "VGPRs ({} used)\n{vg}", l.regs.vgprs);

    // Scalar loads address cb1 in dwords on GCN 1.0/1.1 and in bytes on GCN 1.2.
    let byte_units = l.generation.smrd_byte_offsets();
    let mut cb1 = table(&[
        "offset",
        "s_load imm",
        "size",
        "argument",
        "type",
        "resource",
        "used",
    ]);
    for a in &l.args {
        let imm = if byte_units {
            a.slot.offset
        } else {
            a.slot.offset / 4
        };
        cb1.add_row(vec![
            a.slot.offset.to_string(),
            format!("{imm:#x}"),
            a.slot.size.to_string(),
            a.name.clone(),
            a.type_name.clone(),
            resource_text(a.resource),
            if a.used { "yes" } else { "no" }.to_string(),
        ]);
    }
    let _ = writeln!(
        s,
        "cb1 (arguments, bytes; argsSpace {})\n{cb1}",
        l.args_space
    );

    let mut cb0 = table(&["dwords", "content"]);
    for f in &l.cb0 {
        let d = if f.count == 1 {
            f.first.to_string()
        } else {
            format!("{}-{}", f.first, f.first + f.count - 1)
        };
        cb0.add_row(vec![d, f.content.to_string()]);
    }
    let _ = writeln!(s, "cb0 (setup buffer, {}-bit)\n{cb0}", l.bits);

    let _ = writeln!(s, "PGM_RSRC2 {:#010x}", l.regs.pgm_rsrc2);
    let header: Vec<String> = l.header.iter().map(|d| d.to_string()).collect();
    let _ = writeln!(s, "header [{}]", header.join(", "));
    for w in &l.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}
