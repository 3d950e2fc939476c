//! Printer of the `.gsir` text format; its output parses back to an equal module.

use std::fmt::Write;

use crate::ir::{
    Extra, FuncAttrs, FuncId, Function, Instr, InstrKind, Module, OpInstr, Operand, ParamAttrs,
    Region, SigId, Type,
};

/// Prints a module in the canonical text form (two-space indentation).
pub fn print(module: &Module) -> String {
    let mut out = String::new();
    for s in &module.sigs {
        let params: Vec<String> = s
            .params
            .iter()
            .map(|p| format!("{}{}", p.ty, param_attrs(p.attrs)))
            .collect();
        let _ = writeln!(
            out,
            "sig ${}({}){}",
            s.name,
            params.join(", "),
            func_attrs(&s.attrs)
        );
    }
    for (i, f) in module.functions.iter().enumerate() {
        if i > 0 || !module.sigs.is_empty() {
            out.push('\n');
        }
        print_function(&mut out, module, f);
    }
    out
}

fn param_attrs(a: ParamAttrs) -> String {
    let mut s = String::new();
    if a.uniform {
        s.push_str(" uniform");
    }
    if a.discardable {
        s.push_str(" discardable");
    }
    if a.ret {
        s.push_str(" return");
    }
    s
}

fn func_attrs(a: &FuncAttrs) -> String {
    let mut s = String::new();
    if a.kernel {
        s.push_str(" kernel");
    }
    if let Some(abi) = &a.abi {
        let _ = write!(s, " abi({})", abi.name());
    }
    if a.divergent_call {
        s.push_str(" divergent_call");
    }
    if a.noreturn {
        s.push_str(" noreturn");
    }
    s
}

fn print_function(out: &mut String, m: &Module, f: &Function) {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            format!(
                "%{}: {}{}",
                f.value_name(p.value),
                f.ty(p.value),
                param_attrs(p.attrs)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "fn @{}({}){} {{",
        f.name,
        params.join(", "),
        func_attrs(&f.attrs)
    );
    print_region(out, m, f, &f.body, 1);
    out.push_str("}\n");
}

fn print_region(out: &mut String, m: &Module, f: &Function, r: &Region, depth: usize) {
    for i in &r.instrs {
        print_instr(out, m, f, i, depth);
    }
}

/// Text of a literal of type `ty`. Finite floats use the shortest decimal form that reads
/// back to the same bits; NaNs and infinities use raw bits (`0x7f800000`).
pub fn literal(ty: Type, bits: u64) -> String {
    match ty {
        Type::I1 => if bits & 1 != 0 { "true" } else { "false" }.to_string(),
        Type::I32 => (bits as u32 as i32).to_string(),
        Type::I64 => (bits as i64).to_string(),
        Type::Ptr => format!("{bits:#x}"),
        Type::F32 => {
            let f = f32::from_bits(bits as u32);
            if f.is_finite() {
                format!("{f:?}")
            } else {
                format!("{:#010x}", bits as u32)
            }
        }
        Type::Stack => format!("{bits:#x}"),
    }
}

/// Appends the text of a plain operation (without its results).
pub(crate) fn op_text(out: &mut String, f: &Function, op: &OpInstr) {
    out.push_str(op.opcode.name());
    if let Extra::Cond(c) = op.extra {
        let _ = write!(out, " {}", c.name());
    }
    if let Some(t) = op.ty {
        let _ = write!(out, " {t}");
    }
    if let Extra::Imm(n) = op.extra {
        let _ = write!(out, " {n}");
    }
    if !op.args.is_empty() {
        let _ = write!(out, " {}", operands(f, &op.args));
    }
    if let Extra::To(t) = op.extra {
        let _ = write!(out, " to {t}");
    }
}

/// Text of an operand: `%name` or a literal.
pub(crate) fn operand(f: &Function, op: &Operand) -> String {
    match op {
        Operand::Value(v) => format!("%{}", f.value_name(*v)),
        Operand::Imm { ty, bits } => literal(*ty, *bits),
    }
}

/// Operands separated by `, `.
pub(crate) fn operands(f: &Function, ops: &[Operand]) -> String {
    ops.iter()
        .map(|o| operand(f, o))
        .collect::<Vec<_>>()
        .join(", ")
}

fn result_types(f: &Function, i: &Instr) -> String {
    if i.results.is_empty() {
        return String::new();
    }
    let t: Vec<&str> = i.results.iter().map(|v| f.ty(*v).name()).collect();
    format!(" -> {}", t.join(", "))
}

fn print_instr(out: &mut String, m: &Module, f: &Function, i: &Instr, depth: usize) {
    let indent = "  ".repeat(depth);
    out.push_str(&indent);
    if !i.results.is_empty() {
        let names: Vec<String> = i
            .results
            .iter()
            .map(|v| format!("%{}", f.value_name(*v)))
            .collect();
        let _ = write!(out, "{} = ", names.join(", "));
    }
    match &i.kind {
        InstrKind::Op(op) => op_text(out, f, op),
        InstrKind::If {
            cond,
            then_region,
            else_region,
        } => {
            let _ = writeln!(out, "if {}{} {{", operand(f, cond), result_types(f, i));
            print_region(out, m, f, then_region, depth + 1);
            if else_region.instrs.is_empty() {
                let _ = write!(out, "{indent}}}");
            } else {
                let _ = writeln!(out, "{indent}}} else {{");
                print_region(out, m, f, else_region, depth + 1);
                let _ = write!(out, "{indent}}}");
            }
        }
        InstrKind::Loop { params, init, body } => {
            out.push_str("loop");
            if !params.is_empty() {
                let vars: Vec<String> = params
                    .iter()
                    .zip(init)
                    .map(|(p, v)| {
                        format!("%{}: {} = {}", f.value_name(*p), f.ty(*p), operand(f, v))
                    })
                    .collect();
                let _ = write!(out, " ({})", vars.join(", "));
            }
            let _ = writeln!(out, "{} {{", result_types(f, i));
            print_region(out, m, f, body, depth + 1);
            let _ = write!(out, "{indent}}}");
        }
        InstrKind::Yield(ops) => keyword_ops(out, f, "yield", ops),
        InstrKind::Break(ops) => keyword_ops(out, f, "break", ops),
        InstrKind::Continue(ops) => keyword_ops(out, f, "continue", ops),
        InstrKind::Ret(ops) => keyword_ops(out, f, "ret", ops),
        InstrKind::Unreachable => out.push_str("unreachable"),
        InstrKind::Call { callee, args } => {
            let _ = write!(
                out,
                "call @{}({})",
                func_name(m, *callee),
                operands(f, args)
            );
        }
        InstrKind::CallIndirect { sig, callee, args } => {
            let _ = write!(
                out,
                "call_indirect ${} {}({})",
                sig_name(m, *sig),
                operand(f, callee),
                operands(f, args)
            );
        }
        InstrKind::FuncAddr { func } => {
            let _ = write!(out, "func_addr @{}", func_name(m, *func));
        }
    }
    out.push('\n');
}

/// Name of function `id`; an id outside the module (only in hand-built modules, which the
/// verifier rejects) prints as its number so the printer never panics.
pub fn func_name(m: &Module, id: FuncId) -> String {
    m.functions
        .get(id.index())
        .map_or_else(|| format!("#{}", id.0), |f| f.name.clone())
}

/// Name of signature `id`, or its number when it is not of the module.
pub fn sig_name(m: &Module, id: SigId) -> String {
    m.sigs
        .get(id.index())
        .map_or_else(|| format!("#{}", id.0), |s| s.name.clone())
}

fn keyword_ops(out: &mut String, f: &Function, word: &str, ops: &[Operand]) {
    out.push_str(word);
    if !ops.is_empty() {
        let _ = write!(out, " {}", operands(f, ops));
    }
}
