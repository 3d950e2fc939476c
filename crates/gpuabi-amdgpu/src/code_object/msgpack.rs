//! A MessagePack reader for the code object metadata note: the subset LLVM's
//! `AMDGPUPALMetadata`/`AMDGPUHSAMetadataStreamer` writes (maps, arrays, strings, integers,
//! booleans, nil, floats and binary), as the MessagePack specification
//! (<https://github.com/msgpack/msgpack/blob/master/spec.md>) defines them.
//!
//! Every error names the byte offset in the note's descriptor where decoding failed;
//! nesting is limited to [`MAX_DEPTH`] and element counts to the bytes that remain, so a
//! hostile note can neither overflow the stack nor make the reader allocate more than the
//! note's size.

/// Deepest nesting of maps and arrays accepted (the metadata nests four levels).
pub const MAX_DEPTH: usize = 32;

/// A decoded MessagePack value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `nil`.
    Nil,
    /// `true` or `false`.
    Bool(bool),
    /// A non-negative integer.
    Uint(u64),
    /// A negative integer.
    Int(i64),
    /// A float32 or float64.
    Float(f64),
    /// A string (invalid UTF-8 is replaced).
    Str(String),
    /// Binary data.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map, in the order written.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Uint(v) => Some(*v),
            _ => None,
        }
    }

    /// The value of `key` in a map.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A MessagePack decoding failure at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {message}")]
pub struct MsgpackError {
    /// Offset in the decoded bytes.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

/// Decodes one value from the start of `bytes`; bytes after it are an error.
pub fn decode(bytes: &[u8]) -> Result<Value, MsgpackError> {
    let mut r = Reader { bytes, at: 0 };
    let v = r.value(0)?;
    if r.at != bytes.len() {
        return Err(r.error(format!("{} bytes after the value", bytes.len() - r.at)));
    }
    Ok(v)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, message: impl Into<String>) -> MsgpackError {
        MsgpackError {
            offset: self.at,
            message: message.into(),
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], MsgpackError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| self.error(format!("truncated: {n} more bytes expected")))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn uint(&mut self, n: usize) -> Result<u64, MsgpackError> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
    }

    /// A count of `n`-byte length, checked against the bytes left (each element takes at
    /// least `min_bytes`).
    fn count(&mut self, n: usize, min_bytes: usize) -> Result<usize, MsgpackError> {
        let at = self.at;
        let c = self.uint(n)? as usize;
        let left = self.bytes.len() - self.at;
        if c.saturating_mul(min_bytes) > left {
            return Err(MsgpackError {
                offset: at,
                message: format!("length {c} exceeds the {left} bytes that remain"),
            });
        }
        Ok(c)
    }

    fn str(&mut self, len: usize) -> Result<Value, MsgpackError> {
        let s = self.take(len)?;
        Ok(Value::Str(String::from_utf8_lossy(s).into_owned()))
    }

    fn array(&mut self, len: usize, depth: usize) -> Result<Value, MsgpackError> {
        let mut items = Vec::with_capacity(len);
        for _ in 0..len {
            items.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(items))
    }

    fn map(&mut self, len: usize, depth: usize) -> Result<Value, MsgpackError> {
        let mut entries = Vec::with_capacity(len);
        for _ in 0..len {
            let k = self.value(depth + 1)?;
            let v = self.value(depth + 1)?;
            entries.push((k, v));
        }
        Ok(Value::Map(entries))
    }

    fn value(&mut self, depth: usize) -> Result<Value, MsgpackError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let start = self.at;
        let tag = self.take(1)?[0];
        Ok(match tag {
            0x00..=0x7f => Value::Uint(u64::from(tag)),
            0x80..=0x8f => {
                let n = self.left_checked(usize::from(tag & 0x0f), 2)?;
                self.map(n, depth)?
            }
            0x90..=0x9f => {
                let n = self.left_checked(usize::from(tag & 0x0f), 1)?;
                self.array(n, depth)?
            }
            0xa0..=0xbf => self.str(usize::from(tag & 0x1f))?,
            0xc0 => Value::Nil,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xc4..=0xc6 => {
                let n = self.count(1 << (tag - 0xc4), 1)?;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xca => Value::Float(f64::from(f32::from_bits(self.uint(4)? as u32))),
            0xcb => Value::Float(f64::from_bits(self.uint(8)?)),
            0xcc..=0xcf => Value::Uint(self.uint(1 << (tag - 0xcc))?),
            0xd0..=0xd3 => {
                let n = 1usize << (tag - 0xd0);
                let raw = self.uint(n)?;
                let shift = 64 - 8 * n as u32;
                let v = ((raw << shift) as i64) >> shift;
                if v >= 0 {
                    Value::Uint(v as u64)
                } else {
                    Value::Int(v)
                }
            }
            0xd9..=0xdb => {
                let n = self.count(1 << (tag - 0xd9), 1)?;
                self.str(n)?
            }
            0xdc | 0xdd => {
                let n = self.count(2 << (tag - 0xdc), 1)?;
                self.array(n, depth)?
            }
            0xde | 0xdf => {
                let n = self.count(2 << (tag - 0xde), 2)?;
                self.map(n, depth)?
            }
            0xe0..=0xff => Value::Int(i64::from(tag as i8)),
            _ => {
                return Err(MsgpackError {
                    offset: start,
                    message: format!("type byte 0x{tag:02x} is not used by the metadata"),
                })
            }
        })
    }

    fn left_checked(&self, n: usize, min_bytes: usize) -> Result<usize, MsgpackError> {
        let left = self.bytes.len() - self.at;
        if n * min_bytes > left {
            return Err(self.error(format!("length {n} exceeds the {left} bytes that remain")));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_forms_the_metadata_uses() {
        // {"a": [1, -1, "xy", true], "b": 300} written by hand from the specification.
        let bytes = [
            0x82, 0xa1, b'a', 0x94, 0x01, 0xff, 0xa2, b'x', b'y', 0xc3, 0xa1, b'b', 0xcd, 0x01,
            0x2c,
        ];
        let v = decode(&bytes).unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Value::Array(vec![
                Value::Uint(1),
                Value::Int(-1),
                Value::Str("xy".into()),
                Value::Bool(true)
            ]))
        );
        assert_eq!(v.get("b").and_then(Value::as_u64), Some(300));
    }

    #[test]
    fn truncated_and_oversized_input_names_the_offset() {
        let e = decode(&[0x92, 0x01]).unwrap_err();
        assert_eq!(e.offset, 1, "{e}");
        let e = decode(&[0xdd, 0xff, 0xff, 0xff, 0xff]).unwrap_err();
        assert_eq!(e.offset, 1, "{e}");
        let e = decode(&[0xc1]).unwrap_err();
        assert_eq!(e.offset, 0, "{e}");
        let deep = vec![0x91; 100];
        assert!(decode(&deep).is_err());
    }
}
