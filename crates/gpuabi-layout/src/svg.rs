//! A minimal SVG writer shared by the layout renderers: rectangles, text and tooltips.

use std::fmt::Write;

/// An SVG document being built; `finish` returns the text.
#[derive(Debug)]
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

/// Escapes `&`, `<`, `>` and `"` for use in SVG text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

impl Svg {
    /// An empty picture of the given size in pixels.
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            body: String::new(),
            width,
            height,
        }
    }

    /// A filled rectangle with a thin outline; `tooltip` shows when the pointer is over it.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, tooltip: Option<&str>) {
        let _ = write!(
            self.body,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{}" stroke="#333" stroke-width="0.5">"##,
            escape(fill)
        );
        if let Some(t) = tooltip {
            let _ = write!(self.body, "<title>{}</title>", escape(t));
        }
        self.body.push_str("</rect>\n");
    }

    /// Text at (x, y) with the given size; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" font-family="monospace">{}</text>"#,
            escape(text)
        );
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_wraps() {
        let mut svg = Svg::new(10.0, 20.0);
        svg.text(1.0, 2.0, 8.0, "start", "a<b & \"c\"");
        let out = svg.finish();
        assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(out.contains("a&lt;b &amp; &quot;c&quot;"));
        assert!(out.trim_end().ends_with("</svg>"));
    }
}
