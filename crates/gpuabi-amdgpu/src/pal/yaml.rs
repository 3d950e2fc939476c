//! The YAML form of PAL metadata that llc-19 prints between `.amdgpu_pal_metadata` and
//! `.end_amdgpu_pal_metadata`: LLVM's `msgpack::Document::toYAML` output (block maps and
//! block sequences by indentation, `'…'`-quoted keys, decimal and `0x` hex integers,
//! booleans, plain strings), read into the same [`Value`] the MessagePack note of an object
//! decodes to, so that one reader interprets both.

use crate::code_object::msgpack::Value;

use super::PalError;

/// Deepest nesting accepted (PAL metadata nests five levels).
const MAX_DEPTH: usize = 32;

/// One non-empty line: its number in the file, indentation and text.
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

/// Reads the YAML document of `lines` (from the line after `---`); `first_line` is the
/// file line of `lines[0]`.
pub fn read(lines: &[&str], first_line: usize) -> Result<Value, PalError> {
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let text = l.trim_end();
            let body = text.trim_start();
            (!body.is_empty() && !body.starts_with('#')).then(|| Line {
                number: first_line + i,
                indent: text.len() - body.len(),
                text: body,
            })
        })
        .collect();
    let Some(first) = lines.first() else {
        return Err(PalError::at(first_line, "empty PAL metadata"));
    };
    let mut at = 0;
    let value = block(&lines, &mut at, first.indent, None, 0)?;
    if let Some(l) = lines.get(at) {
        return Err(PalError::at(
            l.number,
            format!("`{}` is outside the metadata's top-level map", l.text),
        ));
    }
    Ok(value)
}

/// A block map or sequence at `indent`; `head` is text that stands in for the first line's
/// (the rest of a `- ` line).
fn block(
    lines: &[Line],
    at: &mut usize,
    indent: usize,
    head: Option<&str>,
    depth: usize,
) -> Result<Value, PalError> {
    let line = &lines[*at];
    if depth > MAX_DEPTH {
        return Err(PalError::at(line.number, "metadata nested too deeply"));
    }
    let text = head.unwrap_or(line.text);
    if head.is_none() && (text == "-" || text.starts_with("- ")) {
        let mut items = Vec::new();
        while let Some(l) = lines.get(*at) {
            if l.indent != indent || !(l.text == "-" || l.text.starts_with("- ")) {
                break;
            }
            let rest = l.text[1..].trim_start();
            let item_indent = indent + (l.text.len() - rest.len());
            if rest.is_empty() {
                *at += 1;
                let child_indent = lines.get(*at).map_or(0, |c| c.indent);
                if child_indent <= indent {
                    return Err(PalError::at(l.number, "sequence item without a value"));
                }
                items.push(block(lines, at, child_indent, None, depth + 1)?);
            } else if split_key(rest).is_some() {
                items.push(block(lines, at, item_indent, Some(rest), depth + 1)?);
            } else {
                items.push(scalar(rest));
                *at += 1;
            }
        }
        return Ok(Value::Array(items));
    }
    let mut entries = Vec::new();
    let mut head = head;
    while let Some(l) = lines.get(*at) {
        let text = match head.take() {
            Some(h) => h,
            None if l.indent == indent => l.text,
            None => break,
        };
        let (key, value) = split_key(text).ok_or_else(|| {
            PalError::at(l.number, format!("expected `key: value`, found `{text}`"))
        })?;
        *at += 1;
        let value = if value.is_empty() {
            match lines.get(*at) {
                Some(c) if c.indent > indent || (c.indent == indent && c.text.starts_with('-')) => {
                    block(lines, at, c.indent, None, depth + 1)?
                }
                _ => Value::Nil,
            }
        } else {
            scalar(value)
        };
        entries.push((key, value));
    }
    Ok(Value::Map(entries))
}

/// Splits `key: value` (or `key:`) at the first colon outside quotes.
fn split_key(text: &str) -> Option<(Value, &str)> {
    let (key, rest) = if let Some(q) = text.strip_prefix('\'') {
        let end = q.find('\'')?;
        (Value::Str(q[..end].to_string()), &q[end + 1..])
    } else if let Some(q) = text.strip_prefix('"') {
        let end = q.find('"')?;
        (Value::Str(q[..end].to_string()), &q[end + 1..])
    } else {
        let colon = text
            .find(": ")
            .or_else(|| text.ends_with(':').then(|| text.len() - 1))?;
        (scalar(&text[..colon]), &text[colon..])
    };
    let value = rest.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with(' ')) {
        return None;
    }
    Some((key, value.trim()))
}

/// A scalar: an integer (decimal or `0x` hex, optionally negative), a boolean, a flow
/// sequence `[a, b]` of scalars, the empty map `{}`, or a string (quotes removed).
fn scalar(text: &str) -> Value {
    let t = text.trim();
    if t == "{}" {
        return Value::Map(Vec::new());
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return Value::Array(
            inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(scalar)
                .collect(),
        );
    }
    if let Some(s) = t
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| t.strip_prefix('"').and_then(|r| r.strip_suffix('"')))
    {
        return Value::Str(s.to_string());
    }
    match t {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    let (negative, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    let n = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None if digits.bytes().all(|b| b.is_ascii_digit()) => digits.parse().ok(),
        None => None,
    };
    match (n, negative) {
        (Some(n), false) => Value::Uint(n),
        (Some(n), true) => i64::try_from(n).map_or(Value::Str(t.to_string()), |v| Value::Int(-v)),
        (None, _) => Value::Str(t.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_llc_pal_metadata() {
        let text = "amdpal.pipelines:\n  - .hardware_stages:\n      .cs:\n        .entry_point:    main\n        .sgpr_count:     0x5\n    .registers:\n      '0x2e12 (COMPUTE_PGM_RSRC1)': 0x602f0000\n      '0x2e13 (COMPUTE_PGM_RSRC2)': 0\n";
        let lines: Vec<&str> = text.lines().collect();
        let v = read(&lines, 1).unwrap();
        let p = &v.get("amdpal.pipelines").unwrap();
        let Value::Array(ps) = p else { panic!("{p:?}") };
        let cs = ps[0].get(".hardware_stages").unwrap().get(".cs").unwrap();
        assert_eq!(cs.get(".entry_point").unwrap().as_str(), Some("main"));
        assert_eq!(cs.get(".sgpr_count").unwrap().as_u64(), Some(5));
        let regs = ps[0].get(".registers").unwrap();
        assert_eq!(
            regs.get("0x2e12 (COMPUTE_PGM_RSRC1)").unwrap().as_u64(),
            Some(0x602f_0000)
        );
    }

    #[test]
    fn names_the_line_of_a_bad_entry() {
        let lines = ["amdpal.pipelines:", "  - .cs:", "      oops"];
        let e = read(&lines, 10).unwrap_err();
        assert_eq!(e.line, Some(12), "{e}");
    }
}
