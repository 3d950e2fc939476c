//! Structured control flow and calls: `if`/`loop` regions become blocks with `phi`s,
//! terminators become branches and returns, calls return structs of `return` parameters.

use gpuabi_ir::ir::{Instr, InstrKind, OpInstr, Operand, Region, Span, Type, Value};

use crate::error::EmitError;
use crate::function::FnBuilder;
use crate::names;

/// Incoming edges of a merge block: the predecessor's label and the values it passes.
type Edges = Vec<(String, Vec<String>)>;

/// A terminator outside the construct it belongs to (the verifier rejects such modules;
/// this keeps [`FnBuilder`] total on any module).
fn outside(span: Span, what: &str, construct: &str) -> EmitError {
    EmitError::unsupported(
        format!("`{what}` outside an `{construct}`"),
        span,
        &format!("`{what}` must be inside an `{construct}`"),
    )
}

/// An `if` being written.
pub(crate) struct IfCtx {
    end: String,
    yields: Edges,
}

/// A loop being written.
pub(crate) struct LoopCtx {
    header: String,
    exit: String,
    continues: Edges,
    breaks: Edges,
}

impl FnBuilder<'_> {
    /// Writes the function body; a body that runs off its end returns.
    pub(crate) fn emit_body(&mut self) -> Result<(), EmitError> {
        let f = self.func;
        self.region(&f.body)?;
        if self.cur.is_some() {
            self.ret(&[])?;
        }
        Ok(())
    }

    pub(crate) fn region(&mut self, r: &Region) -> Result<(), EmitError> {
        for i in &r.instrs {
            self.instr(i)?;
        }
        Ok(())
    }

    fn instr(&mut self, i: &Instr) -> Result<(), EmitError> {
        match &i.kind {
            InstrKind::Op(op) => self.op(op, &i.results),
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => self.if_(cond, then_region, else_region, &i.results),
            InstrKind::Loop { params, init, body } => self.loop_(params, init, body, &i.results),
            InstrKind::Yield(ops) => {
                let vals = self.operands(ops);
                let from = self.cur_label();
                let Some(ctx) = self.ifs.last_mut() else {
                    return Err(outside(i.span, "yield", "if"));
                };
                ctx.yields.push((from, vals));
                let end = ctx.end.clone();
                self.terminate(&format!("br label %{end}"));
                Ok(())
            }
            InstrKind::Continue(ops) => self.continue_(ops, i.span),
            InstrKind::Break(ops) => {
                let vals = self.operands(ops);
                let from = self.cur_label();
                let Some(ctx) = self.loops.last_mut() else {
                    return Err(outside(i.span, "break", "loop"));
                };
                ctx.breaks.push((from, vals));
                let exit = ctx.exit.clone();
                self.terminate(&format!("br label %{exit}"));
                Ok(())
            }
            InstrKind::Ret(ops) => self.ret(ops),
            InstrKind::Unreachable => {
                self.trap();
                Ok(())
            }
            InstrKind::Call { callee, args } => {
                let g = self.module.func(*callee);
                let target = names::global(&g.name);
                self.call(
                    target,
                    args,
                    g.params.iter().map(|p| g.ty(p.value)).collect(),
                    g.return_types(),
                    g.attrs.noreturn,
                    &i.results,
                    i.span,
                )
            }
            InstrKind::CallIndirect { sig, callee, args } => {
                let s = self.module.signature(*sig);
                let addr = self.operand(callee);
                let bits = self.def(&format!("ptrtoint ptr addrspace(1) {addr} to i64"));
                let target = self.def(&format!("inttoptr i64 {bits} to ptr"));
                self.call(
                    target,
                    args,
                    s.params.iter().map(|p| p.ty).collect(),
                    s.return_types(),
                    s.attrs.noreturn,
                    &i.results,
                    i.span,
                )
            }
            InstrKind::FuncAddr { func } => {
                // Code lives in address space 0 (flat) on AMDGPU; the IR's `ptr` is the same
                // 64 bits in the global address space.
                let g = names::global(&self.module.func(*func).name);
                let bits = self.def(&format!("ptrtoint ptr {g} to i64"));
                let p = self.def(&format!("inttoptr i64 {bits} to ptr addrspace(1)"));
                self.set(i.results[0], p);
                Ok(())
            }
        }
    }

    fn operands(&mut self, ops: &[Operand]) -> Vec<String> {
        ops.iter().map(|o| self.operand(o)).collect()
    }

    /// `phi`s of `types` over `edges` defining `results`; `poison` when no edge comes in
    /// (the merge block is unreachable then).
    fn phis(&mut self, results: &[Value], edges: &Edges) {
        for (k, v) in results.iter().enumerate() {
            let t = names::ty(self.func.ty(*v));
            if edges.is_empty() {
                self.set(*v, "poison".to_string());
                continue;
            }
            let incoming: Vec<String> = edges
                .iter()
                .map(|(from, vals)| format!("[ {}, %{from} ]", vals[k]))
                .collect();
            let name = names::local(self.func.value_name(*v));
            self.inst(&format!("{name} = phi {t} {}", incoming.join(", ")));
            self.set(*v, name);
        }
    }

    fn if_(
        &mut self,
        cond: &Operand,
        then_region: &Region,
        else_region: &Region,
        results: &[Value],
    ) -> Result<(), EmitError> {
        let c = self.operand(cond);
        let (then_l, else_l, end) = (self.label("then"), self.label("else"), self.label("endif"));
        self.terminate(&format!("br i1 {c}, label %{then_l}, label %{else_l}"));
        self.ifs.push(IfCtx {
            end: end.clone(),
            yields: Vec::new(),
        });
        for (label, r) in [(&then_l, then_region), (&else_l, else_region)] {
            self.start(label);
            self.region(r)?;
            if let Some(from) = self.cur.clone() {
                // An arm without results may run off its end: an empty `yield`.
                self.ifs
                    .last_mut()
                    .expect("pushed above")
                    .yields
                    .push((from, Vec::new()));
                self.terminate(&format!("br label %{end}"));
            }
        }
        let ctx = self.ifs.pop().expect("pushed above");
        self.start(&end);
        self.phis(results, &ctx.yields);
        if ctx.yields.is_empty() {
            // Neither arm continues here: the block stays without predecessors.
            self.terminate("unreachable");
        }
        Ok(())
    }

    fn loop_(
        &mut self,
        params: &[Value],
        init: &[Operand],
        body: &Region,
        results: &[Value],
    ) -> Result<(), EmitError> {
        let inits = self.operands(init);
        let pre = self.cur_label();
        let (header, exit) = (self.label("loop"), self.label("endloop"));
        self.terminate(&format!("br label %{header}"));
        self.start(&header);
        // The header's phis need every `continue`, known only after the body: they are
        // inserted here afterwards.
        let at = self.body.len();
        let names: Vec<String> = params
            .iter()
            .map(|v| names::local(self.func.value_name(*v)))
            .collect();
        for (v, n) in params.iter().zip(&names) {
            self.set(*v, n.clone());
        }
        self.loops.push(LoopCtx {
            header: header.clone(),
            exit: exit.clone(),
            continues: vec![(pre, inits)],
            breaks: Vec::new(),
        });
        self.region(body)?;
        if self.cur.is_some() {
            // A body without loop variables may run off its end: an empty `continue`.
            self.continue_(&[], Span::default())?;
        }
        let ctx = self.loops.pop().expect("pushed above");
        let mut phis = String::new();
        for (k, (v, n)) in params.iter().zip(&names).enumerate() {
            let incoming: Vec<String> = ctx
                .continues
                .iter()
                .map(|(from, vals)| format!("[ {}, %{from} ]", vals[k]))
                .collect();
            phis.push_str(&format!(
                "  {n} = phi {} {}\n",
                names::ty(self.func.ty(*v)),
                incoming.join(", ")
            ));
        }
        self.body.insert_str(at, &phis);
        self.start(&exit);
        self.phis(results, &ctx.breaks);
        if ctx.breaks.is_empty() {
            self.terminate("unreachable");
        }
        Ok(())
    }

    fn continue_(&mut self, ops: &[Operand], span: Span) -> Result<(), EmitError> {
        let vals = self.operands(ops);
        let from = self.cur_label();
        let Some(ctx) = self.loops.last_mut() else {
            return Err(outside(span, "continue", "loop"));
        };
        ctx.continues.push((from, vals));
        let header = ctx.header.clone();
        self.terminate(&format!("br label %{header}"));
        Ok(())
    }

    fn ret(&mut self, ops: &[Operand]) -> Result<(), EmitError> {
        let ret_ty = self.ret_ty();
        if ret_ty == "void" {
            self.terminate("ret void");
            return Ok(());
        }
        let vals = self.operands(ops);
        let mut acc = "poison".to_string();
        for (k, v) in vals.iter().enumerate() {
            let t = names::ty(self.op_ty(&ops[k]));
            acc = self.def(&format!("insertvalue {ret_ty} {acc}, {t} {v}, {k}"));
        }
        self.terminate(&format!("ret {ret_ty} {acc}"));
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        target: String,
        args: &[Operand],
        param_types: Vec<Type>,
        ret_types: Vec<Type>,
        noreturn: bool,
        results: &[Value],
        span: Span,
    ) -> Result<(), EmitError> {
        if noreturn && !(self.func.attrs.kernel || self.func.attrs.noreturn) {
            return Err(EmitError::unsupported(
                format!(
                    "a call to a `noreturn` function from `@{}`, which is neither a kernel nor `noreturn`",
                    self.func.name
                ),
                span,
                "the call ends the invocation; LLVM IR can return from the caller only when the caller's own return ends it",
            ));
        }
        let vals = self.operands(args);
        let list: Vec<String> = param_types
            .iter()
            .zip(&vals)
            .map(|(t, v)| format!("{} {v}", names::param_ty(*t)))
            .collect();
        let ret_ty = if noreturn {
            "void".to_string()
        } else {
            names::ret_ty(&ret_types)
        };
        let call = format!("call {ret_ty} {target}({})", list.join(", "));
        if ret_ty == "void" {
            self.inst(&call);
        } else {
            let r = self.def(&call);
            for (k, v) in results.iter().enumerate() {
                let x = names::local(self.func.value_name(*v));
                self.inst(&format!("{x} = extractvalue {ret_ty} {r}, {k}"));
                self.set(*v, x);
            }
        }
        if noreturn {
            // The callee ended the invocation; so does this (kernel or noreturn) caller.
            self.terminate("ret void");
        }
        Ok(())
    }

    fn op(&mut self, op: &OpInstr, results: &[Value]) -> Result<(), EmitError> {
        let result = results.first().copied();
        let v = if crate::float::is_float(op.opcode) {
            self.float_op(op)
        } else if crate::dispatch::is_dispatch(op.opcode) {
            self.dispatch_op(op)
        } else if crate::memory::is_memory(op.opcode) {
            self.memory_op(op, result)
        } else {
            self.int_op(op)
        };
        if let (Some(r), Some(v)) = (result, v) {
            let v = self.rename_last(&v, r);
            self.set(r, v);
        }
        Ok(())
    }
}
