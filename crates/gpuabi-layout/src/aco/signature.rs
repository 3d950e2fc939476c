//! Function signatures as ACO sees them, and their text and TOML forms.
//!
//! Text: `name: type [uniform] [discardable] [return], ...` where type is `bool`, `u8`,
//! `i8`, `u16`, `i16`, `f16`, `u32`, `i32`, `f32`, `u64`, `i64` or `f64`, optionally
//! followed by `xN` for N components (1..=16), e.g.
//! `launch_id: u32x3, launch_size: u32x3 uniform, payload: u32 return, hit: bool`.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::{line_column, AcoError};

/// Scalar types of signature parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarType {
    /// A 1-bit boolean, passed as a lane mask.
    Bool,
    /// Unsigned 8-bit.
    U8,
    /// Signed 8-bit.
    I8,
    /// Unsigned 16-bit.
    U16,
    /// Signed 16-bit.
    I16,
    /// Half float.
    F16,
    /// Unsigned 32-bit.
    U32,
    /// Signed 32-bit.
    I32,
    /// Float.
    F32,
    /// Unsigned 64-bit.
    U64,
    /// Signed 64-bit.
    I64,
    /// Double.
    F64,
}

const SCALAR_NAMES: [(ScalarType, &str, u16); 12] = [
    (ScalarType::Bool, "bool", 1),
    (ScalarType::U8, "u8", 8),
    (ScalarType::I8, "i8", 8),
    (ScalarType::U16, "u16", 16),
    (ScalarType::I16, "i16", 16),
    (ScalarType::F16, "f16", 16),
    (ScalarType::U32, "u32", 32),
    (ScalarType::I32, "i32", 32),
    (ScalarType::F32, "f32", 32),
    (ScalarType::U64, "u64", 64),
    (ScalarType::I64, "i64", 64),
    (ScalarType::F64, "f64", 64),
];

/// Largest component count a parameter may have.
pub const MAX_COMPONENTS: u8 = 16;

/// Names gpuabi gives the parameters ACO and RADV add; a user parameter may not take them.
pub const RESERVED_NAMES: [&str; 4] = [
    "return_address",
    "stack_pointer",
    "divergent_pc",
    "uniform_pc",
];

impl ScalarType {
    /// Width in bits.
    pub fn bit_size(self) -> u16 {
        SCALAR_NAMES
            .iter()
            .find(|e| e.0 == self)
            .map_or(32, |e| e.2)
    }

    /// The type's name in signatures.
    pub fn name(self) -> &'static str {
        SCALAR_NAMES
            .iter()
            .find(|e| e.0 == self)
            .map_or("?", |e| e.1)
    }

    fn from_name(name: &str) -> Option<ScalarType> {
        SCALAR_NAMES.iter().find(|e| e.1 == name).map(|e| e.0)
    }
}

/// One signature parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Scalar type of each component.
    pub ty: ScalarType,
    /// Number of components, 1..=16.
    pub components: u8,
    /// The same value in every lane (goes to SGPRs).
    pub uniform: bool,
    /// The callee need not preserve it (`ACO_NIR_PARAM_ATTRIB_DISCARDABLE`).
    pub discardable: bool,
    /// An in/out parameter whose final value the caller sees.
    pub is_return: bool,
}

impl Param {
    /// A plain (divergent, preserved, input-only) parameter.
    pub fn new(name: &str, ty: ScalarType, components: u8) -> Param {
        Param {
            name: name.to_string(),
            ty,
            components,
            uniform: false,
            discardable: false,
            is_return: false,
        }
    }

    /// The same parameter, uniform.
    pub fn uniform(mut self) -> Param {
        self.uniform = true;
        self
    }

    /// The same parameter, discardable.
    pub fn discardable(mut self) -> Param {
        self.discardable = true;
        self
    }

    /// The same parameter, a return parameter.
    pub fn returned(mut self) -> Param {
        self.is_return = true;
        self
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.ty.name())?;
        if self.components != 1 {
            write!(f, "x{}", self.components)?;
        }
        for (on, word) in [
            (self.uniform, "uniform"),
            (self.discardable, "discardable"),
            (self.is_return, "return"),
        ] {
            if on {
                write!(f, " {word}")?;
            }
        }
        Ok(())
    }
}

/// A signature: the parameters in order (before RADV and ACO add theirs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Signature {
    /// The parameters.
    pub params: Vec<Param>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn error(&self, at: usize, message: impl Into<String>) -> AcoError {
        let (line, column) = line_column(self.text, at);
        AcoError::Signature {
            line,
            column,
            message: message.into(),
        }
    }

    fn skip_space(&mut self) {
        while self.text[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.text[self.pos..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
        }
    }

    /// The next word of `[A-Za-z0-9_]`, and where it starts.
    fn word(&mut self) -> (usize, &'a str) {
        self.skip_space();
        let start = self.pos;
        let len = self.text[start..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        self.pos += len;
        (start, &self.text[start..start + len])
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.pos..].chars().next()
    }
}

fn parse_type(s: &Scanner<'_>, at: usize, word: &str) -> Result<(ScalarType, u8), AcoError> {
    const EXPECTED: &str = "expected a type: bool, u8, i8, u16, i16, f16, u32, i32, f32, u64, i64 or f64, optionally with xN";
    let (base, count) = match word.split_once('x') {
        Some((base, n)) => (base, Some(n)),
        None => (word, None),
    };
    let ty = ScalarType::from_name(base).ok_or_else(|| s.error(at, EXPECTED))?;
    let components = match count {
        None => 1,
        Some(n) => match n.parse::<u8>() {
            Ok(c) if (1..=MAX_COMPONENTS).contains(&c) => c,
            _ => {
                return Err(s.error(
                    at + base.len() + 1,
                    format!("expected a component count from 1 to {MAX_COMPONENTS}"),
                ))
            }
        },
    };
    Ok((ty, components))
}

/// Parses the text form of a signature; errors name the line and column.
pub fn parse_signature(text: &str) -> Result<Signature, AcoError> {
    let mut s = Scanner { text, pos: 0 };
    let mut sig = Signature::default();
    let mut seen = HashSet::new();
    if s.peek().is_none() {
        return Ok(sig);
    }
    loop {
        let (at, name) = s.word();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(s.error(at, "expected a parameter name"));
        }
        check_name(&mut seen, name).map_err(|m| s.error(at, m))?;
        if s.peek() != Some(':') {
            return Err(s.error(s.pos, format!("expected `:` after `{name}`")));
        }
        s.pos += 1;
        let (type_at, ty_word) = s.word();
        let (ty, components) = parse_type(&s, type_at, ty_word)?;
        let mut param = Param::new(name, ty, components);
        loop {
            match s.peek() {
                None | Some(',') => break,
                _ => {}
            }
            let (at, attr) = s.word();
            match attr {
                "uniform" => param.uniform = true,
                "discardable" => param.discardable = true,
                "return" => param.is_return = true,
                _ => {
                    return Err(s.error(
                        at,
                        "expected `uniform`, `discardable`, `return`, `,` or the end",
                    ))
                }
            }
            if param.uniform && param.is_return {
                return Err(s.error(at, "a return parameter cannot be uniform"));
            }
        }
        sig.params.push(param);
        if s.peek().is_none() {
            return Ok(sig);
        }
        s.pos += 1; // the comma
    }
}

/// Checks a new parameter name against the reserved ones and the names `seen` so far (a set:
/// a scan of the earlier parameters made long signatures quadratic), then records it.
fn check_name(seen: &mut HashSet<String>, name: &str) -> Result<(), String> {
    if RESERVED_NAMES.contains(&name) {
        return Err(format!("`{name}` is the name of a system parameter"));
    }
    if !seen.insert(name.to_string()) {
        return Err(format!("parameter `{name}` is declared twice"));
    }
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignatureFile {
    #[serde(default)]
    param: Vec<ParamFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamFile {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    uniform: bool,
    #[serde(default)]
    discardable: bool,
    #[serde(default, rename = "return")]
    is_return: bool,
}

/// Reads a signature from TOML: a list of `[[param]]` tables with `name`, `type` (as in the
/// text form, e.g. `"u32x3"`) and optional booleans `uniform`, `discardable`, `return`.
pub fn signature_from_toml(text: &str) -> Result<Signature, AcoError> {
    let located = |offset: usize, message: String| {
        let (line, column) = line_column(text, offset);
        AcoError::Signature {
            line,
            column,
            message,
        }
    };
    let file: SignatureFile = toml::from_str(text)
        .map_err(|e| located(e.span().map_or(0, |s| s.start), e.message().to_string()))?;
    let mut sig = Signature::default();
    let mut seen = HashSet::new();
    for p in file.param {
        // serde does not keep spans of table entries: errors point at the parameter's name,
        // searched for only then (a search per parameter made long files quadratic).
        let at = |name: &str| text.find(&format!("\"{name}\"")).unwrap_or(0);
        check_name(&mut seen, &p.name).map_err(|m| located(at(&p.name), m))?;
        let (ty, components) = match parse_type(&Scanner { text, pos: 0 }, 0, &p.ty) {
            Ok(t) => t,
            Err(_) => {
                // Again with the position, which only an error needs.
                let at = at(&p.name);
                match parse_type(&Scanner { text, pos: at }, at, &p.ty) {
                    Ok(t) => t,
                    Err(e) => return Err(located(at, format!("parameter `{}`: {e}", p.name))),
                }
            }
        };
        if p.uniform && p.is_return {
            return Err(located(
                at(&p.name),
                format!(
                    "parameter `{}`: a return parameter cannot be uniform",
                    p.name
                ),
            ));
        }
        sig.params.push(Param {
            name: p.name,
            ty,
            components,
            uniform: p.uniform,
            discardable: p.discardable,
            is_return: p.is_return,
        });
    }
    Ok(sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_issue_example() {
        let sig = parse_signature(
            "launch_id: u32x3, launch_size: u32x3 uniform, sbt: u64 uniform, \
             payload: u32 return, ray_tmin: f32 discardable, hit: bool",
        )
        .unwrap();
        assert_eq!(sig.params.len(), 6);
        assert_eq!(sig.params[0], Param::new("launch_id", ScalarType::U32, 3));
        assert_eq!(
            sig.params[1],
            Param::new("launch_size", ScalarType::U32, 3).uniform()
        );
        assert_eq!(
            sig.params[3],
            Param::new("payload", ScalarType::U32, 1).returned()
        );
        assert_eq!(
            sig.params[4],
            Param::new("ray_tmin", ScalarType::F32, 1).discardable()
        );
        assert_eq!(sig.params[5].ty.bit_size(), 1);
        assert_eq!(parse_signature(&sig.to_string()).unwrap(), sig);
        assert_eq!(parse_signature("  ").unwrap().params.len(), 0);
    }

    #[test]
    fn errors_name_the_column() {
        let cases = [
            ("a: u32, b: u33", 12, "expected a type"),
            ("a u32", 3, "expected `:`"),
            ("a: u32x0", 8, "component count"),
            ("a: u32x17", 8, "component count"),
            ("a: u32 uniform return", 16, "cannot be uniform"),
            ("a: u32 fast", 8, "expected `uniform`"),
            ("a: u32, a: f32", 9, "declared twice"),
            ("a: u32,", 8, "expected a parameter name"),
            ("stack_pointer: u32", 1, "system parameter"),
            ("a: u32 ; b", 8, "expected `uniform`"),
        ];
        for (text, column, needle) in cases {
            match parse_signature(text) {
                Err(AcoError::Signature {
                    column: c, message, ..
                }) => {
                    assert_eq!(c, column, "{text}: {message}");
                    assert!(message.contains(needle), "{text}: {message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn toml_form() {
        let sig = signature_from_toml(
            "[[param]]\nname = \"y\"\ntype = \"u64\"\nuniform = true\n\n\
             [[param]]\nname = \"p\"\ntype = \"f32x2\"\nreturn = true\n",
        )
        .unwrap();
        assert_eq!(sig.params[0], Param::new("y", ScalarType::U64, 1).uniform());
        assert_eq!(
            sig.params[1],
            Param::new("p", ScalarType::F32, 2).returned()
        );
        let err = signature_from_toml("[[param]]\nname = \"y\"\ntype = \"u7\"\n").unwrap_err();
        assert!(
            matches!(err, AcoError::Signature { line: 2, .. }),
            "{err:?}"
        );
    }
}
