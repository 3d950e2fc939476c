//! Module and function framing: headers, attributes, and the builder every lowering
//! writes through (temporaries, blocks, operands, traps).

use std::fmt::Write;

use gpuabi_ir::ir::{Function, Module, Operand, Type, Value};

use crate::decls::Decls;
use crate::error::EmitError;
use crate::names;
use crate::EmitOptions;

/// Attributes of every function: IEEE f32 denormals, which the AMDGPU backend needs to emit
/// its correctly rounded `fdiv` sequence and which the interpreter's f32 arithmetic has.
const FP_ATTRS: &str = "nounwind \"denormal-fp-math-f32\"=\"ieee,ieee\"";

/// Writes the whole module.
pub(crate) fn emit_module(module: &Module, options: &EmitOptions) -> Result<String, EmitError> {
    let mut decls = Decls::default();
    let mut out = String::new();
    out.push_str("; LLVM IR of a gpuabi .gsir module, written by `gpuabi ir emit-llvm`.\n");
    out.push_str("target triple = \"amdgcn-amd-amdhsa\"\n");
    for f in &module.functions {
        if f.name.starts_with("llvm.") {
            return Err(EmitError::unsupported(
                format!(
                    "function `@{}` has a name LLVM reserves for intrinsics",
                    f.name
                ),
                f.span,
                "names starting with `llvm.` cannot be used in LLVM IR",
            ));
        }
        let mut b = FnBuilder::new(module, f, &mut decls, options);
        b.emit_body()?;
        out.push('\n');
        out.push_str(&b.finish());
    }
    let decl_text = decls.text();
    if !decl_text.is_empty() {
        out.push('\n');
        out.push_str(&decl_text);
    }
    let _ = write!(
        out,
        "\nattributes #0 = {{ {FP_ATTRS} }}\nattributes #1 = {{ {}{FP_ATTRS} }}\n",
        if options.allow_inlining {
            ""
        } else {
            "noinline "
        }
    );
    Ok(out)
}

/// State of one function being written.
pub(crate) struct FnBuilder<'a> {
    pub(crate) module: &'a Module,
    pub(crate) func: &'a Function,
    pub(crate) options: &'a EmitOptions,
    decls: &'a mut Decls,
    /// Instructions after the entry label, allocas excepted.
    pub(crate) body: String,
    /// Allocas and their zero-fill, at the top of the entry block.
    pub(crate) prologue: String,
    next_tmp: u32,
    next_label: u32,
    /// The block being written; `None` after a terminator.
    pub(crate) cur: Option<String>,
    /// LLVM operand text of each `.gsir` value once defined.
    vals: Vec<Option<String>>,
    /// Byte size of each `alloca` result.
    pub(crate) stack_sizes: Vec<u32>,
    trap: bool,
    pub(crate) loops: Vec<crate::control::LoopCtx>,
    pub(crate) ifs: Vec<crate::control::IfCtx>,
}

impl<'a> FnBuilder<'a> {
    fn new(
        module: &'a Module,
        func: &'a Function,
        decls: &'a mut Decls,
        options: &'a EmitOptions,
    ) -> FnBuilder<'a> {
        let mut vals = vec![None; func.values.len()];
        for p in &func.params {
            vals[p.value.index()] = Some(names::local(func.value_name(p.value)));
        }
        FnBuilder {
            module,
            func,
            options,
            decls,
            body: String::new(),
            prologue: String::new(),
            next_tmp: 0,
            next_label: 0,
            cur: Some("bb-entry".to_string()),
            vals,
            stack_sizes: vec![0; func.values.len()],
            trap: false,
            loops: Vec::new(),
            ifs: Vec::new(),
        }
    }

    /// The function's header, blocks and closing brace.
    fn finish(self) -> String {
        let f = self.func;
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| {
                let t = f.ty(p.value);
                format!(
                    "{} {}",
                    if f.attrs.kernel {
                        names::ty(t)
                    } else {
                        names::param_ty(t)
                    },
                    names::local(f.value_name(p.value))
                )
            })
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "; .gsir: {}", header_comment(f));
        if f.attrs.kernel {
            let _ = writeln!(
                out,
                "define amdgpu_kernel void {}({}) #0 {{",
                names::global(&f.name),
                params.join(", ")
            );
        } else {
            let _ = writeln!(
                out,
                "define hidden {} {}({}) #1 {{",
                self.ret_ty(),
                names::global(&f.name),
                params.join(", ")
            );
        }
        out.push_str("bb-entry:\n");
        out.push_str(&self.prologue);
        out.push_str(&self.body);
        if self.trap {
            out.push_str("bb-trap:\n  call void @llvm.trap()\n  unreachable\n");
        }
        out.push_str("}\n");
        out
    }

    /// The LLVM return type of this function.
    pub(crate) fn ret_ty(&self) -> String {
        if self.func.attrs.kernel || self.func.attrs.noreturn {
            "void".to_string()
        } else {
            names::ret_ty(&self.func.return_types())
        }
    }

    /// A new temporary name.
    pub(crate) fn tmp(&mut self) -> String {
        self.next_tmp += 1;
        format!("%t-{}", self.next_tmp)
    }

    /// A new block label of a kind (`then`, `loop`, ...).
    pub(crate) fn label(&mut self, kind: &str) -> String {
        self.next_label += 1;
        format!("{kind}-{}", self.next_label)
    }

    /// Starts a block.
    pub(crate) fn start(&mut self, label: &str) {
        let _ = writeln!(self.body, "{label}:");
        self.cur = Some(label.to_string());
    }

    /// Writes one instruction into the current block (a fresh unreachable block when the
    /// previous one ended: code after a call that ends the invocation).
    pub(crate) fn inst(&mut self, line: &str) {
        if self.cur.is_none() {
            let l = self.label("dead");
            self.start(&l);
        }
        let _ = writeln!(self.body, "  {line}");
    }

    /// Writes an instruction with a result and returns the result's name.
    pub(crate) fn def(&mut self, text: &str) -> String {
        let t = self.tmp();
        self.inst(&format!("{t} = {text}"));
        t
    }

    /// Gives the instruction just written, when it defined `tmp`, the name of the `.gsir`
    /// value it computes (for a readable output); returns the value's LLVM name.
    pub(crate) fn rename_last(&mut self, tmp: &str, v: Value) -> String {
        let line_start = self
            .body
            .trim_end_matches('\n')
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let prefix = format!("  {tmp} = ");
        if !tmp.starts_with("%t-") || !self.body[line_start..].starts_with(&prefix) {
            return tmp.to_string();
        }
        let name = names::local(self.func.value_name(v));
        self.body.replace_range(
            line_start..line_start + prefix.len(),
            &format!("  {name} = "),
        );
        name
    }

    /// Writes a terminator; the block ends.
    pub(crate) fn terminate(&mut self, line: &str) {
        self.inst(line);
        self.cur = None;
    }

    /// The current block's label (starting one if the previous block ended).
    pub(crate) fn cur_label(&mut self) -> String {
        if self.cur.is_none() {
            let l = self.label("dead");
            self.start(&l);
        }
        self.cur.clone().unwrap_or_default()
    }

    /// Records the LLVM operand text of a `.gsir` value.
    pub(crate) fn set(&mut self, v: Value, text: String) {
        self.vals[v.index()] = Some(text);
    }

    /// LLVM operand text of an operand of type `t`.
    pub(crate) fn operand(&mut self, op: &Operand) -> String {
        match *op {
            // The verifier guarantees every use follows its definition; an undefined value
            // can only be in code that never runs.
            Operand::Value(v) => self.vals[v.index()]
                .clone()
                .unwrap_or_else(|| "poison".to_string()),
            Operand::Imm { ty, bits } => match names::literal(ty, bits) {
                Some(l) => l,
                None if ty == Type::F32 => {
                    self.def(&format!("bitcast i32 {} to float", bits as u32 as i32))
                }
                None => self.def(&format!("inttoptr i64 {} to ptr addrspace(1)", bits as i64)),
            },
        }
    }

    /// The type of an operand.
    pub(crate) fn op_ty(&self, op: &Operand) -> Type {
        match *op {
            Operand::Value(v) => self.func.ty(v),
            Operand::Imm { ty, .. } => ty,
        }
    }

    /// Calls an intrinsic (declaring it) and returns the result.
    pub(crate) fn intrinsic(&mut self, ret: &str, name: &str, args: &[(&str, &str)]) -> String {
        let types: Vec<&str> = args.iter().map(|(t, _)| *t).collect();
        self.decls.add(ret, name, &types);
        let list: Vec<String> = args.iter().map(|(t, v)| format!("{t} {v}")).collect();
        self.def(&format!("call {ret} @{name}({})", list.join(", ")))
    }

    /// Declares an intrinsic without calling it through [`Self::intrinsic`].
    pub(crate) fn declare(&mut self, ret: &str, name: &str, args: &[&str]) {
        self.decls.add(ret, name, args);
    }

    /// Leaves for the function's trap block when `cond` is true.
    pub(crate) fn trap_if(&mut self, cond: &str) {
        self.trap = true;
        self.declare("void", "llvm.trap", &[]);
        let ok = self.label("ok");
        self.terminate(&format!("br i1 {cond}, label %bb-trap, label %{ok}"));
        self.start(&ok);
    }

    /// Leaves for the trap block unconditionally.
    pub(crate) fn trap(&mut self) {
        self.trap = true;
        self.declare("void", "llvm.trap", &[]);
        self.terminate("br label %bb-trap");
    }
}

/// The `.gsir` header of a function, for a comment above its definition.
fn header_comment(f: &Function) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let mut s = format!("%{}: {}", f.value_name(p.value), f.ty(p.value));
            for (on, word) in [
                (p.attrs.uniform, " uniform"),
                (p.attrs.discardable, " discardable"),
                (p.attrs.ret, " return"),
            ] {
                if on {
                    s.push_str(word);
                }
            }
            s
        })
        .collect();
    let mut s = format!("fn @{}({})", f.name, params.join(", "));
    let a = &f.attrs;
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
