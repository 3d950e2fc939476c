//! ACO's IR as RADV prints it, reduced to what a calling convention is made of.
//!
//! Each instruction is one line, `defs = opcode operands` (`aco_print_ir.cpp`,
//! `aco_print_instr`): definitions and operands are comma-separated, each a temporary
//! `%N` with its register class before it (`s2: %4:s[2-3]`), an optional fixed register after
//! it, and flags in parentheses (`(kill)`); operands may also be constants (`0`,
//! `0xffff8000`) or `s1: undef`. Three pseudo-instructions fix a function's interface:
//!
//! - `p_startpgm` defines the incoming parameters in their registers: the stack pointer,
//!   the return address, then every register parameter in signature order
//!   (`aco_isel_helpers.cpp`, `add_startpgm`);
//! - `p_call` takes the stack pointer, the bytes of scratch parameters and the register
//!   parameters of the callee in signature order; it defines the return address and the
//!   registers the callee hands back (`aco_select_nir.cpp`, `visit_call`);
//! - `p_return` takes what the function hands back, in the callee's registers.

use std::path::Path;

use gpuabi_layout::reg::RegRange;

use crate::error::MesaError;

/// Where a value of the IR lives, when the line fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fixed {
    /// SGPRs or VGPRs.
    Regs(RegRange),
    /// A register with a name (`exec_lo`, `exec`, `scc`, `vcc`, `m0`).
    Named(String),
}

/// One definition or operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    /// The register class written before it (`s1`, `v3`, `lv3` for a linear VGPR), if any.
    pub class: Option<String>,
    /// The temporary's number (`%12`), if it is one.
    pub temp: Option<u32>,
    /// Its fixed register, if the line gives one.
    pub fixed: Option<Fixed>,
    /// A constant operand as written (`0`, `0xffff8000`, `1.0`).
    pub constant: Option<String>,
    /// `undef`.
    pub undef: bool,
}

impl Value {
    /// Its SGPR or VGPR range, if it has one.
    pub fn regs(&self) -> Option<RegRange> {
        match &self.fixed {
            Some(Fixed::Regs(r)) => Some(*r),
            _ => None,
        }
    }
}

/// One instruction of interest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instr {
    /// 1-based line in the file.
    pub line: usize,
    /// Its definitions, in order.
    pub defs: Vec<Value>,
    /// Its operands, in order.
    pub ops: Vec<Value>,
}

/// The interface of one compiled function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcoIr {
    /// `p_startpgm`.
    pub startpgm: Instr,
    /// Every `p_call`, in program order.
    pub calls: Vec<Instr>,
    /// Every `p_return`, in program order.
    pub returns: Vec<Instr>,
}

impl AcoIr {
    /// Reads a file of ACO IR.
    pub fn read(path: &Path) -> Result<AcoIr, MesaError> {
        let text = std::fs::read_to_string(path).map_err(|source| MesaError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        AcoIr::parse(&text).map_err(|(line, message)| MesaError::Syntax {
            path: path.to_path_buf(),
            line,
            message,
        })
    }

    /// Reads the text of one program; errors are (line, message).
    pub fn parse(text: &str) -> Result<AcoIr, (usize, String)> {
        let mut startpgm = None;
        let mut calls = Vec::new();
        let mut returns = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let (defs, rest) = match raw.split_once(" = ") {
                Some((d, r)) => (d.trim(), r.trim()),
                None => ("", raw.trim()),
            };
            let (opcode, ops) = rest.split_once(' ').unwrap_or((rest, ""));
            if !matches!(opcode, "p_startpgm" | "p_call" | "p_return") {
                continue;
            }
            let instr = Instr {
                line,
                defs: values(defs).map_err(|m| (line, m))?,
                ops: values(ops).map_err(|m| (line, m))?,
            };
            match opcode {
                "p_startpgm" if startpgm.is_some() => {
                    return Err((line, "a second `p_startpgm`".into()))
                }
                "p_startpgm" => startpgm = Some(instr),
                "p_call" => calls.push(instr),
                _ => returns.push(instr),
            }
        }
        let startpgm = startpgm.ok_or((1, "no `p_startpgm` in the program".to_string()))?;
        Ok(AcoIr {
            startpgm,
            calls,
            returns,
        })
    }
}

/// A comma-separated list of definitions or operands.
fn values(text: &str) -> Result<Vec<Value>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',').map(|v| value(v.trim())).collect()
}

/// `s2: (kill)%4:s[2-3]`, `%1:s[4]`, `0xffff8000`, `s1: undef`, `lv3: %315`.
fn value(text: &str) -> Result<Value, String> {
    let mut v = Value {
        class: None,
        temp: None,
        fixed: None,
        constant: None,
        undef: false,
    };
    let mut rest = text;
    // A class prefix: letters and digits up to `: ` (a register after `%N:` has no space).
    if let Some((class, after)) = rest.split_once(": ") {
        if !class.is_empty() && class.chars().all(|c| c.is_ascii_alphanumeric()) {
            v.class = Some(class.to_string());
            rest = after.trim_start();
        }
    }
    // Flags: `(kill)`, `(latekill)`, `(is16bit)`, ...
    while let Some(after) = rest.strip_prefix('(') {
        let close = after
            .find(')')
            .ok_or_else(|| format!("`{text}`: a flag without `)`"))?;
        rest = &after[close + 1..];
    }
    if rest == "undef" {
        v.undef = true;
        return Ok(v);
    }
    if let Some(temp) = rest.strip_prefix('%') {
        let (number, reg) = match temp.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (temp, None),
        };
        v.temp = Some(
            number
                .parse()
                .map_err(|_| format!("`{text}`: expected a temporary number after `%`"))?,
        );
        if let Some(reg) = reg {
            v.fixed =
                Some(fixed(reg).ok_or_else(|| format!("`{text}`: unknown register `{reg}`"))?);
        }
        return Ok(v);
    }
    if rest.is_empty() {
        return Err(format!(
            "`{text}`: expected a temporary, a constant or `undef`"
        ));
    }
    v.constant = Some(rest.to_string());
    Ok(v)
}

/// `s[4]`, `s[0-1]`, `v[10-12]` or a named register.
fn fixed(text: &str) -> Option<Fixed> {
    let file = text.chars().next()?;
    if let Some(inner) = text
        .get(1..)
        .and_then(|t| t.strip_prefix('['))
        .and_then(|t| t.strip_suffix(']'))
    {
        if file != 's' && file != 'v' {
            return None;
        }
        let (first, last) = inner.split_once('-').unwrap_or((inner, inner));
        let range: RegRange = if first == last {
            format!("{file}{first}").parse().ok()?
        } else {
            format!("{file}[{first}:{last}]").parse().ok()?
        };
        return Some(Fixed::Regs(range));
    }
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then(|| Fixed::Named(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines as RADV printed them for a navi31 any-hit function (Mesa 26.1.6), shortened.
    const TEXT: &str = "\
After Spilling:
BB0
\t s1: %170:s[4],  s2: %169:s[80-81],  v2: %171:v[80-81],  v3: (kill)%173:v[10-12],  lv3: %315 = p_startpgm
\t s1: %41 = v_cmp_eq_i64 (kill)%4, %3
\t s2: (kill)%55:s[0-1],  v1: %65:v[28] = p_call %1:s[4], 0, (kill)%45:v[0-1], %0:exec_lo
\tp_return  s1: undef, (kill)%170:s[4], (kill)%169:s[80-81]
";

    #[test]
    fn reads_the_interface_instructions() {
        let ir = AcoIr::parse(TEXT).unwrap();
        let regs: Vec<_> = ir.startpgm.defs.iter().map(Value::regs).collect();
        assert_eq!(
            regs,
            [
                Some("s4".parse().unwrap()),
                Some("s[80:81]".parse().unwrap()),
                Some("v[80:81]".parse().unwrap()),
                Some("v[10:12]".parse().unwrap()),
                None
            ]
        );
        assert_eq!(ir.startpgm.defs[4].class.as_deref(), Some("lv3"));
        assert_eq!(ir.startpgm.line, 3);
        let call = &ir.calls[0];
        assert_eq!(call.line, 5);
        assert_eq!(call.defs.len(), 2);
        assert_eq!(call.ops[1].constant.as_deref(), Some("0"));
        assert_eq!(call.ops[3].fixed, Some(Fixed::Named("exec_lo".into())));
        let ret = &ir.returns[0];
        assert!(ret.ops[0].undef);
        assert_eq!(ret.ops[2].regs(), Some("s[80:81]".parse().unwrap()));
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = AcoIr::parse("x\n\t s1: %x:s[4] = p_startpgm\n").unwrap_err();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("temporary number"), "{}", e.1);
        let e = AcoIr::parse("\t s1: %1:q[4] = p_startpgm\n").unwrap_err();
        assert!(e.1.contains("unknown register"), "{}", e.1);
        let e = AcoIr::parse("BB0\n").unwrap_err();
        assert!(e.1.contains("no `p_startpgm`"), "{}", e.1);
    }
}
