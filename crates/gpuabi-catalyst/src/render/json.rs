//! JSON output: the layout serialised with the field names of the issue.

use crate::layout::KernelLayout;

/// Pretty-printed JSON of a layout.
pub fn render(layout: &KernelLayout) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string_pretty(layout).unwrap_or_default()
}
