//! The register and cb1 map drawn as SVG: user-data SGPRs, system SGPRs, local-id VGPRs
//! and the argument buffer, one box per register or 16-byte cb1 slot.

use gpuabi_layout::svg::Svg;

use super::{resource_text, userdata_content};
use crate::layout::KernelLayout;

const ROW: f64 = 18.0;
const TOP: f64 = 50.0;
const COL_W: f64 = 230.0;
const BOX_W: f64 = 60.0;

/// Fill colour per kind of content.
fn colour(kind: &str) -> &'static str {
    match kind {
        "userdata" => "#9ecae1",
        "system" => "#fdd0a2",
        "vgpr" => "#c7e9c0",
        "pointer" => "#dadaeb",
        "image" => "#fcbba1",
        "value" => "#e5f5e0",
        _ => "#eeeeee",
    }
}

/// Arguments of at most this many 16-byte slots get one box per slot.
const MAX_SLOT_BOXES: usize = 64;

/// The SVG picture.
pub fn render(l: &KernelLayout) -> String {
    let sgpr_rows = l.regs.sgprs.max(l.user_sgprs) as usize;
    let cb1_rows = (l.args_space / 16) as usize;
    let rows = sgpr_rows
        .max(cb1_rows)
        .max(l.regs.local_id_vgprs.len())
        .max(1);
    let height = TOP + ROW * rows as f64 + 30.0;
    let mut svg = Svg::new(COL_W * 3.0 + 20.0, height);
    svg.text(
        10.0,
        18.0,
        13.0,
        "start",
        &format!(
            "{}  driver {}  {}  {}-bit  PGM_RSRC2 {:#x}",
            l.kernel, l.driver, l.device, l.bits, l.regs.pgm_rsrc2
        ),
    );
    for (i, title) in ["SGPRs", "VGPRs", "cb1 (16-byte slots)"].iter().enumerate() {
        svg.text(10.0 + COL_W * i as f64, TOP - 10.0, 12.0, "start", title);
    }
    // SGPR column: user data, then group ids, TG_SIZE, scratch offset.
    let mut labels: Vec<(String, String, &str)> =
        vec![(String::new(), "unused".into(), "other"); sgpr_rows];
    for e in &l.userdata {
        for r in e.reg_start..e.reg_start + e.reg_size {
            if let Some(slot) = labels.get_mut(r as usize) {
                *slot = (
                    format!("{}({})", e.class, e.api_slot),
                    userdata_content(l, e),
                    "userdata",
                );
            }
        }
    }
    let sys = l
        .regs
        .group_id_sgprs
        .iter()
        .zip(l.group_dims())
        .map(|(r, d)| (r.clone(), format!("group id {d}")))
        .chain(
            l.regs
                .tg_size_sgpr
                .iter()
                .map(|r| (r.clone(), "TG_SIZE".to_string())),
        )
        .chain(
            l.regs
                .scratch_offset_sgpr
                .iter()
                .map(|r| (r.clone(), "scratch offset".to_string())),
        );
    for (reg, what) in sys {
        if let Ok(n) = reg.trim_start_matches('s').parse::<usize>() {
            if let Some(slot) = labels.get_mut(n) {
                *slot = (what.clone(), what, "system");
            }
        }
    }
    for (i, (short, long, kind)) in labels.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        svg.rect(
            10.0,
            y,
            BOX_W,
            ROW - 2.0,
            colour(kind),
            Some(&format!("s{i}: {long}")),
        );
        svg.text(14.0, y + 12.0, 10.0, "start", &format!("s{i}"));
        svg.text(10.0 + BOX_W + 4.0, y + 12.0, 9.0, "start", short);
    }
    for (i, reg) in l.regs.local_id_vgprs.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let dim = ["x", "y", "z"][i.min(2)];
        svg.rect(
            10.0 + COL_W,
            y,
            BOX_W,
            ROW - 2.0,
            colour("vgpr"),
            Some(&format!("{reg}: local id {dim}")),
        );
        svg.text(14.0 + COL_W, y + 12.0, 10.0, "start", reg);
        svg.text(
            10.0 + COL_W + BOX_W + 4.0,
            y + 12.0,
            9.0,
            "start",
            &format!("local id {dim}"),
        );
    }
    for a in &l.args {
        let kind = match a.kind {
            crate::args::ArgKind::Pointer => "pointer",
            crate::args::ArgKind::Image => "image",
            _ => "value",
        };
        let first = (a.slot.offset / 16) as usize;
        let n = (a.slot.size / 16) as usize;
        // One box per 16-byte slot; an argument of more slots (a structure with an array can
        // take megabytes) is one tall box, so the picture stays small.
        let (boxes, box_rows) = if n <= MAX_SLOT_BOXES { (n, 1) } else { (1, n) };
        for k in 0..boxes {
            let y = TOP + ROW * (first + k) as f64;
            let tip = format!(
                "{} @ {} ({} bytes): {} {}",
                a.name,
                a.slot.offset,
                a.slot.size,
                a.type_name,
                resource_text(a.resource)
            );
            svg.rect(
                10.0 + 2.0 * COL_W,
                y,
                BOX_W,
                ROW * box_rows as f64 - 2.0,
                colour(kind),
                Some(&tip),
            );
            svg.text(
                14.0 + 2.0 * COL_W,
                y + 12.0,
                10.0,
                "start",
                &format!("{}", a.slot.offset + 16 * k as u32),
            );
            if k == 0 {
                svg.text(
                    10.0 + 2.0 * COL_W + BOX_W + 4.0,
                    y + 12.0,
                    9.0,
                    "start",
                    &format!("{} {}", a.name, resource_text(a.resource)),
                );
            }
        }
    }
    svg.finish()
}
