//! Readable tables of ranges and assignments.

use std::fmt::Write;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};

use super::{AssignmentReport, RangesReport};
use crate::reg::RegFile;

fn runs_text(file: RegFile, runs: &[[u16; 2]]) -> String {
    if runs.is_empty() {
        return "none".to_string();
    }
    let p = file.prefix();
    let parts: Vec<String> = runs
        .iter()
        .map(|[a, b]| {
            if a == b {
                format!("{p}{a}")
            } else {
                format!("{p}{a}-{p}{b}")
            }
        })
        .collect();
    parts.join(", ")
}

fn header(out: &mut String, r: &RangesReport) {
    let b = &r.abi_value.block;
    let _ = writeln!(
        out,
        "ABI {} on {} wave{}, register limit {}",
        r.abi, r.target, r.wave, r.limit
    );
    let _ = writeln!(
        out,
        "block: preserved {}, clobbered {}, {} first",
        b.preserved,
        b.clobbered,
        if b.clobbered_first {
            "clobbered"
        } else {
            "preserved"
        }
    );
    match r.abi_value.max_param_demand {
        Some(d) => {
            let _ = writeln!(out, "max_param_demand: {d}");
        }
        None => out.push_str("max_param_demand: no limit\n"),
    }
}

/// The ranges of both files as a table, after a header naming the ABI, target and limit.
pub fn ranges_text(r: &RangesReport) -> String {
    let mut out = String::new();
    header(&mut out, r);
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header([
        "file",
        "preserved",
        "clobbered (below the limit)",
        "preserved / clobbered",
    ]);
    for file in RegFile::ALL {
        let f = r.file(file);
        table.add_row([
            file.name().to_string(),
            runs_text(file, &f.ranges.preserved),
            runs_text(file, &f.ranges.clobbered),
            format!("{} / {}", f.num_preserved, f.num_clobbered),
        ]);
    }
    let _ = writeln!(out, "{table}");
    for w in &r.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

/// The parameters with their locations as a table, and the totals.
pub fn assignment_text(r: &AssignmentReport) -> String {
    let mut out = String::new();
    header(&mut out, &r.ranges);
    let _ = writeln!(
        out,
        "policy: {}",
        serde_json::to_string(&r.policy)
            .unwrap_or_default()
            .trim_matches('"')
    );
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header([
        "parameter",
        "added by",
        "class",
        "location",
        "explicitly preserved",
        "flags",
    ]);
    let a = &r.assignment;
    for p in &a.params {
        let mut flags = Vec::new();
        if p.discardable {
            flags.push("discardable");
        }
        if p.is_return {
            flags.push("return");
        }
        table.add_row([
            p.name.clone(),
            format!("{:?}", p.kind).to_lowercase(),
            p.class.to_string(),
            p.location.to_string(),
            if p.needs_explicit_preservation {
                "yes"
            } else {
                ""
            }
            .to_string(),
            flags.join(" "),
        ]);
    }
    let _ = writeln!(out, "{table}");
    let _ = writeln!(
        out,
        "register demand {}, register parameters {} ({} discardable), scratch parameter bytes {}",
        a.demand, a.reg_param_count, a.reg_discardable_param_count, a.scratch_param_size
    );
    for w in &a.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}
