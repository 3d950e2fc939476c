//! The register file drawn as one strip per class: preserved and clobbered colouring, and
//! each parameter's registers labelled.

use super::{AssignmentReport, RangesReport};
use crate::aco::assign::Location;
use crate::reg::{Reg, RegFile, RegRange};
use crate::svg::Svg;

const CELL_W: f64 = 14.0;
const CELL_H: f64 = 22.0;
const PER_ROW: u16 = 64;
const LEFT: f64 = 56.0;
const PRESERVED: &str = "#a6dba0";
const CLOBBERED: &str = "#fdb863";
const BEYOND: &str = "#dddddd";
const PARAM_COLOURS: [&str; 6] = [
    "#80b1d3", "#bebada", "#fb8072", "#8dd3c7", "#fccde5", "#ffffb3",
];

struct Strip<'a> {
    file: RegFile,
    limit: u16,
    shown: u16,
    preserved: &'a [[u16; 2]],
}

impl Strip<'_> {
    fn rows(&self) -> u16 {
        self.shown.div_ceil(PER_ROW).max(1)
    }

    fn cell(&self, top: f64, num: u16) -> (f64, f64) {
        let x = LEFT + f64::from(num % PER_ROW) * CELL_W;
        let y = top + f64::from(num / PER_ROW) * (CELL_H + 14.0);
        (x, y)
    }

    fn draw(&self, svg: &mut Svg, top: f64) {
        svg.text(4.0, top + 15.0, 12.0, "start", self.file.name());
        for num in 0..self.shown {
            let (x, y) = self.cell(top, num);
            let preserved = self.preserved.iter().any(|[a, b]| (*a..=*b).contains(&num));
            let (fill, what) = if num >= self.limit {
                (BEYOND, "at or above the limit")
            } else if preserved {
                (PRESERVED, "preserved")
            } else {
                (CLOBBERED, "clobbered")
            };
            let name = Reg {
                file: self.file,
                num,
            };
            svg.rect(x, y, CELL_W, CELL_H, fill, Some(&format!("{name}: {what}")));
            if num % 16 == 0 {
                svg.text(x + 1.0, y + CELL_H + 10.0, 8.0, "start", &name.to_string());
            }
        }
    }

    fn height(&self) -> f64 {
        f64::from(self.rows()) * (CELL_H + 14.0) + 8.0
    }
}

fn legend(svg: &mut Svg, y: f64) {
    let items = [
        (PRESERVED, "preserved"),
        (CLOBBERED, "clobbered"),
        (BEYOND, "at or above the limit"),
    ];
    let mut x = LEFT;
    for (fill, text) in items {
        svg.rect(x, y, 12.0, 12.0, fill, None);
        svg.text(x + 16.0, y + 10.0, 11.0, "start", text);
        x += 24.0 + 7.0 * text.len() as f64;
    }
}

fn strips<'a>(r: &'a RangesReport, extra: &[RegRange]) -> Vec<Strip<'a>> {
    RegFile::ALL
        .into_iter()
        .map(|file| {
            let limit = r.limit.get(file);
            let beyond = extra
                .iter()
                .filter(|x| x.file() == file)
                .map(|x| x.end())
                .max()
                .unwrap_or(0);
            Strip {
                file,
                limit,
                shown: limit.max(beyond),
                preserved: &r.file(file).ranges.preserved,
            }
        })
        .collect()
}

fn width() -> f64 {
    LEFT + f64::from(PER_ROW) * CELL_W + 16.0
}

/// The preserved/clobbered split of both files as an SVG picture.
pub fn ranges_svg(r: &RangesReport) -> String {
    let strips = strips(r, &[]);
    let height = 60.0 + strips.iter().map(Strip::height).sum::<f64>();
    let mut svg = Svg::new(width(), height);
    svg.text(
        4.0,
        18.0,
        14.0,
        "start",
        &format!(
            "{} on {} wave{}, limit {}",
            r.abi, r.target, r.wave, r.limit
        ),
    );
    legend(&mut svg, 28.0);
    let mut top = 50.0;
    for s in &strips {
        s.draw(&mut svg, top);
        top += s.height();
    }
    svg.finish()
}

/// The register file with each parameter's registers filled and numbered, and a legend
/// that gives each number's parameter and location (scratch parameters included).
pub fn assignment_svg(r: &AssignmentReport) -> String {
    let params = &r.assignment.params;
    let ranges: Vec<RegRange> = params
        .iter()
        .filter_map(|p| match p.location {
            Location::Reg(range) => Some(range),
            Location::Scratch { .. } => None,
        })
        .collect();
    let strips = strips(&r.ranges, &ranges);
    const LEGEND_COLUMNS: usize = 3;
    const LEGEND_ROW: f64 = 16.0;
    let legend_rows = params.len().div_ceil(LEGEND_COLUMNS);
    let height =
        70.0 + strips.iter().map(Strip::height).sum::<f64>() + LEGEND_ROW * legend_rows as f64;
    let mut svg = Svg::new(width(), height);
    let title = format!(
        "{} on {} wave{}, limit {}, policy {:?}",
        r.abi, r.target, r.wave, r.limit, r.policy
    );
    svg.text(4.0, 18.0, 14.0, "start", &title);
    legend(&mut svg, 28.0);
    let mut top = 50.0;
    for s in &strips {
        s.draw(&mut svg, top);
        for (i, p) in params.iter().enumerate() {
            let Location::Reg(range) = p.location else {
                continue;
            };
            if range.file() != s.file {
                continue;
            }
            let colour = PARAM_COLOURS[i % PARAM_COLOURS.len()];
            let tooltip = format!("{i}: {} in {range}", p.name);
            for reg in range.regs() {
                let (x, y) = s.cell(top, reg.num);
                svg.rect(
                    x + 1.0,
                    y + 3.0,
                    CELL_W - 2.0,
                    CELL_H - 6.0,
                    colour,
                    Some(&tooltip),
                );
            }
            let (x, y) = s.cell(top, range.first.num);
            svg.text(
                x + CELL_W / 2.0,
                y + CELL_H / 2.0 + 3.0,
                8.0,
                "middle",
                &i.to_string(),
            );
        }
        top += s.height();
    }
    let column_w = (width() - LEFT) / LEGEND_COLUMNS as f64;
    for (i, p) in params.iter().enumerate() {
        let x = LEFT + column_w * (i / legend_rows) as f64;
        let y = top + 8.0 + LEGEND_ROW * (i % legend_rows) as f64;
        let colour = match p.location {
            Location::Reg(_) => PARAM_COLOURS[i % PARAM_COLOURS.len()],
            Location::Scratch { .. } => "white",
        };
        svg.rect(x, y, 12.0, 12.0, colour, None);
        svg.text(
            x + 16.0,
            y + 10.0,
            10.0,
            "start",
            &format!("{i} {} {}", p.name, p.location),
        );
    }
    svg.finish()
}
