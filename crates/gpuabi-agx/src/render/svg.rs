//! SVG pictures of the layouts: one cell per 16-bit half, registers on top, uniforms below,
//! each cell with a tooltip naming the register, the half and the meaning.

use gpuabi_layout::svg::Svg;

use crate::fragment::FragmentAbi;
use crate::slot::{RegSlot, UniformSlot};
use crate::vertex::VertexAbi;

const CELL: f64 = 14.0;
const PER_ROW: u16 = 32;
const LEFT: f64 = 60.0;

/// Cells to draw: first half, half count, colour, tooltip.
type Cells = Vec<(u16, u16, &'static str, String)>;

fn reg_cells(slots: &[RegSlot], colour: &'static str) -> Cells {
    slots
        .iter()
        .map(|s| {
            (
                s.half,
                s.reg.halves,
                colour,
                format!("{} (halves {}): {}", s.reg, s.reg.half_text(), s.meaning),
            )
        })
        .collect()
}

fn uniform_cells(slots: &[UniformSlot]) -> Cells {
    slots
        .iter()
        .map(|s| {
            let colour = if s.meaning.starts_with("padding") {
                "#dddddd"
            } else {
                "#9ecae1"
            };
            (
                s.half,
                s.size_halves,
                colour,
                format!("{} (halves {}): {}", s.reg, s.reg.half_text(), s.meaning),
            )
        })
        .collect()
}

/// Draws a band of `halves` cells starting at `y`; returns the y below it.
fn band(svg: &mut Svg, y: f64, label: &str, prefix: char, halves: u16, cells: &Cells) -> f64 {
    svg.text(4.0, y + 12.0, 11.0, "start", label);
    let y = y + 18.0;
    let rows = halves.div_ceil(PER_ROW).max(1);
    for row in 0..rows {
        let ry = y + f64::from(row) * (CELL + 14.0);
        let first = row * PER_ROW;
        svg.text(
            LEFT - 6.0,
            ry + 10.0,
            9.0,
            "end",
            &format!("{prefix}{}", first / 2),
        );
        for h in first..(first + PER_ROW).min(halves) {
            let x = LEFT + f64::from(h - first) * CELL;
            let hit = cells.iter().find(|c| h >= c.0 && h < c.0 + c.1);
            let (fill, tip) = match hit {
                Some((_, _, colour, tip)) => (*colour, format!("half {h} — {tip}")),
                None => ("#ffffff", format!("half {h}: not part of the ABI")),
            };
            svg.rect(x, ry, CELL, CELL, fill, Some(&tip));
        }
    }
    y + f64::from(rows) * (CELL + 14.0) + 6.0
}

fn finish(title: &str, bands: &[(&str, char, u16, Cells)]) -> String {
    let rows: u16 = bands.iter().map(|b| b.2.div_ceil(PER_ROW).max(1)).sum();
    let height = 30.0 + f64::from(rows) * (CELL + 14.0) + bands.len() as f64 * 24.0 + 10.0;
    let width = LEFT + f64::from(PER_ROW) * CELL + 10.0;
    let mut svg = Svg::new(width, height);
    svg.text(4.0, 16.0, 13.0, "start", title);
    let mut y = 24.0;
    for (label, prefix, halves, cells) in bands {
        y = band(&mut svg, y, label, *prefix, *halves, cells);
    }
    svg.finish()
}

/// GPR halves to draw: everything up to the last used half, rounded to whole rows.
fn gpr_extent(slots: &[&[RegSlot]]) -> u16 {
    let end = slots
        .iter()
        .flat_map(|s| s.iter())
        .map(|s| s.reg.end_half())
        .max()
        .unwrap_or(0);
    end.next_multiple_of(PER_ROW).max(PER_ROW)
}

/// The vertex ABI as a picture: prolog-written registers in green, undefined in grey.
pub fn vertex(abi: &VertexAbi) -> String {
    let mut regs = reg_cells(&abi.registers, "#a1d99b");
    regs.extend(reg_cells(&abi.undefined, "#dddddd"));
    let title = format!(
        "AGX vertex ABI, profile {}, n = {}, first free uniform half {}",
        abi.profile.name(),
        abi.n,
        abi.first_free_uniform_half
    );
    finish(
        &title,
        &[
            (
                "GPRs at entry to the main vertex shader",
                'r',
                gpr_extent(&[&abi.registers, &abi.undefined]),
                regs,
            ),
            (
                "Uniforms",
                'u',
                abi.first_free_uniform_half,
                uniform_cells(&abi.uniforms),
            ),
        ],
    )
}

/// The fragment ABI as a picture: the epilog's input registers and the uniform block.
pub fn fragment(abi: &FragmentAbi) -> String {
    let regs = reg_cells(&abi.registers, "#fdae6b");
    let title = format!(
        "AGX fragment ABI, first free uniform half {}",
        abi.first_free_uniform_half
    );
    finish(
        &title,
        &[
            (
                "GPRs read by the fragment epilog",
                'r',
                gpr_extent(&[&abi.registers]),
                regs,
            ),
            (
                "Uniforms",
                'u',
                abi.first_free_uniform_half,
                uniform_cells(&abi.uniforms),
            ),
        ],
    )
}
