//! A readable summary of a kernel read from a Catalyst binary (`catalyst inspect`).

use std::fmt::Write;

use comfy_table::{presets::UTF8_BORDERS_ONLY, Table};

use super::resource_text;
use crate::binary::BinaryKernel;
use crate::driver::Driver;

fn opt(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// `s4` or `s[4:7]`; the fields come from the file, so no range is assumed.
fn sgprs(start: u32, size: u32) -> String {
    if size <= 1 {
        format!("s{start}")
    } else {
        format!("s[{start}:{}]", start.saturating_add(size - 1))
    }
}

/// Bytes per line of the code dump.
const HEX_LINE_BYTES: usize = 16;

/// The text summary of one kernel.
pub fn render(k: &BinaryKernel) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "kernel {}  driver {}  device {} ({})  {}-bit",
        k.kernel,
        k.driver
            .map_or_else(|| "?".to_string(), |d| Driver(d).dotted()),
        k.device,
        k.generation.map_or("?", |g| g.name()),
        k.bits
    );
    let _ = writeln!(
        s,
        "uavid {}  cbid {}  printfid {}  privateid {}  uavprivate {}  hwlocal {}  hwregion {}",
        opt(k.ids.uavid),
        opt(k.ids.cbid),
        opt(k.ids.printfid),
        opt(k.ids.privateid),
        opt(k.uavprivate),
        opt(k.hwlocal),
        opt(k.hwregion)
    );
    let group: String = ["x", "y", "z"]
        .iter()
        .enumerate()
        .filter(|(i, _)| k.dims.group() & (1 << i) != 0)
        .map(|(_, d)| *d)
        .collect();
    let _ = writeln!(
        s,
        "PGM_RSRC2 {:#010x}  USER_SGPR {}  group ids {}  SGPRs {}  VGPRs {}  header {:?}",
        k.regs.pgm_rsrc2,
        k.user_sgprs,
        if group.is_empty() { "none" } else { &group },
        k.regs.sgprs,
        k.regs.vgprs,
        k.header
    );
    s.push('\n');

    let mut sg = Table::new();
    sg.load_preset(UTF8_BORDERS_ONLY);
    sg.set_header(vec!["SGPR", "content"]);
    for e in &k.userdata {
        sg.add_row(vec![
            sgprs(e.reg_start, e.reg_size),
            format!("{}({})", e.class, e.api_slot),
        ]);
    }
    for (reg, dim) in k.regs.group_id_sgprs.iter().zip(group.chars()) {
        sg.add_row(vec![reg.clone(), format!("group id {dim}")]);
    }
    if let Some(r) = &k.regs.tg_size_sgpr {
        sg.add_row(vec![r.clone(), "TG_SIZE".to_string()]);
    }
    if let Some(r) = &k.regs.scratch_offset_sgpr {
        sg.add_row(vec![r.clone(), "scratch wave offset".to_string()]);
    }
    let _ = writeln!(s, "{sg}");
    let _ = writeln!(s, "local ids: {}", k.regs.local_id_vgprs.join(", "));
    s.push('\n');

    let mut cb1 = Table::new();
    cb1.load_preset(UTF8_BORDERS_ONLY);
    cb1.set_header(vec!["cb1 offset", "argument", "type", "resource", "used"]);
    for a in &k.args {
        cb1.add_row(vec![
            a.slot.offset.to_string(),
            a.name.clone(),
            a.type_name.clone(),
            resource_text(a.resource),
            a.used.map_or_else(|| "?".to_string(), |u| u.to_string()),
        ]);
    }
    let _ = writeln!(s, "{cb1}");
    let _ = writeln!(s, "UAV note: {:?}", k.notes.uav);
    let _ = writeln!(s, "CONSTANT_BUFFERS note: {:?}", k.notes.cbmask);
    let _ = writeln!(
        s,
        "CAL notes: {}",
        k.cal_notes
            .iter()
            .map(|n| format!("{}({})", n.name.unwrap_or("?"), n.size))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for w in &k.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    let _ = writeln!(
        s,
        "\ncode: {} bytes at file offset {} (.data {} bytes){}",
        k.code.size,
        k.code.offset,
        k.data_size,
        if k.disassembly.is_some() {
            ""
        } else {
            "; disassembly not available"
        }
    );
    let hex = k.code.hex.as_bytes();
    for (i, line) in hex.chunks(2 * HEX_LINE_BYTES).enumerate() {
        let pairs: Vec<&str> = line
            .chunks(2)
            .map(|p| std::str::from_utf8(p).unwrap_or("??"))
            .collect();
        let _ = writeln!(s, "  {:06x}: {}", i * HEX_LINE_BYTES, pairs.join(" "));
    }
    if let Some(text) = &k.disassembly {
        let _ = write!(s, "\ndisassembly:\n{text}");
    }
    s
}
