//! Renderers: text tables, JSON and SVG pictures of the layouts.

pub mod svg;
pub mod text;

use serde::Serialize;

/// Pretty-printed JSON of any layout value.
pub fn json<T: Serialize>(value: &T) -> String {
    // Layout values hold only strings, numbers, booleans and lists, which always serialise.
    serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
