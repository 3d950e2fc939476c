//! The verifier: types, SSA dominance, structure and calls.
//!
//! Rules beyond types: a value may be used only where its definition dominates the use
//! (later in the same region, or inside a region nested there); `yield` ends an `if` arm,
//! `break`/`continue` need an enclosing loop; regions that must produce values may not run
//! off their end; calls name non-kernel functions or signatures of the module, with arguments of
//! the parameter types, and a `return` argument must be a value (it is the variable the
//! callee updates). The argument of a `uniform` parameter must be uniform by the rules of
//! [`crate::uniformity`] (checked once the function is otherwise well formed).

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::ir::instr::{ArgTy, ExtraKind, TyClass};
use crate::ir::{
    Extra, FuncAttrs, FuncId, Function, Instr, InstrKind, Module, OpInstr, Opcode, Operand, Region,
    SigId, SigParam, Signature, Span, Type, Value,
};
use crate::uniformity::{self, Uniformity};

/// Largest `alloca`, in bytes.
pub const MAX_ALLOCA_BYTES: u32 = 1 << 20;

/// Problems found by the verifier, each with its place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} error(s), first: {}", .0.len(), .0.first().map(|d| d.message.as_str()).unwrap_or(""))]
pub struct VerifyError(pub Vec<Diagnostic>);

/// Checks a module; returns every problem found.
pub fn verify(module: &Module) -> Result<(), VerifyError> {
    let mut v = Verifier {
        module,
        errors: Vec::new(),
    };
    v.module();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyError(v.errors))
    }
}

struct Verifier<'m> {
    module: &'m Module,
    errors: Vec<Diagnostic>,
}

enum Ctx {
    If(Vec<Type>),
    Loop {
        params: Vec<Type>,
        results: Vec<Type>,
    },
}

struct FnState<'m> {
    f: &'m Function,
    /// Value is visible at the current point.
    visible: Vec<bool>,
    /// Value has been defined somewhere (to catch double definitions).
    defined: Vec<bool>,
    ctx: Vec<Ctx>,
}

impl<'m> Verifier<'m> {
    /// The function `id` names, or an error at `span` for an id of no function of the
    /// module (possible only in modules built by hand).
    fn func(&mut self, id: FuncId, span: Span) -> Option<&'m Function> {
        let f = self.module.functions.get(id.index());
        if f.is_none() {
            self.err(
                format!("function id {} is not in the module", id.0),
                span,
                "no such function",
            );
        }
        f
    }

    /// The signature `id` names, or an error at `span`.
    fn sig(&mut self, id: SigId, span: Span) -> Option<&'m Signature> {
        let s = self.module.sigs.get(id.index());
        if s.is_none() {
            self.err(
                format!("signature id {} is not in the module", id.0),
                span,
                "no such signature",
            );
        }
        s
    }

    fn err(&mut self, msg: impl Into<String>, span: Span, label: impl Into<String>) {
        self.errors.push(Diagnostic::new(msg, span, label));
    }

    fn module(&mut self) {
        let m = self.module;
        let mut seen = HashSet::new();
        for s in &m.sigs {
            if !seen.insert(s.name.as_str()) {
                self.err(
                    format!("signature `${}` is defined twice", s.name),
                    s.span,
                    "second definition",
                );
            }
            if s.attrs.kernel {
                self.err(
                    "a signature cannot be `kernel`",
                    s.span,
                    "kernels are not called",
                );
            }
            self.check_params(&s.params, &s.attrs, s.span, &format!("${}", s.name));
        }
        let mut seen = HashSet::new();
        for f in &m.functions {
            if !seen.insert(f.name.as_str()) {
                self.err(
                    format!("function `@{}` is defined twice", f.name),
                    f.span,
                    "second definition",
                );
            }
            self.check_params(&f.sig_params(), &f.attrs, f.span, &format!("@{}", f.name));
            let before = self.errors.len();
            self.function(f);
            if self.errors.len() == before {
                let u = uniformity::analyze(m, f);
                self.uniform_args(f, &u, &f.body);
            }
        }
    }

    fn check_params(&mut self, params: &[SigParam], attrs: &FuncAttrs, span: Span, name: &str) {
        for (i, p) in params.iter().enumerate() {
            if !p.ty.is_first_class() {
                self.err(
                    format!("parameter {} of {name} has type `stack`", i + 1),
                    span,
                    "stack arrays cannot be passed",
                );
            }
            if p.attrs.uniform && p.attrs.ret {
                self.err(
                    format!(
                        "parameter {} of {name} is both `uniform` and `return`",
                        i + 1
                    ),
                    span,
                    "return parameters must be divergent",
                );
            }
        }
        let has_ret = params.iter().any(|p| p.attrs.ret);
        if has_ret && attrs.kernel {
            self.err(
                format!("kernel {name} has a `return` parameter"),
                span,
                "a kernel has no caller to return to",
            );
        }
        if has_ret && attrs.noreturn {
            self.err(
                format!("`noreturn` function {name} has a `return` parameter"),
                span,
                "it never returns a value",
            );
        }
    }

    fn function(&mut self, f: &'m Function) {
        let n = f.values.len();
        let mut st = FnState {
            f,
            visible: vec![false; n],
            defined: vec![false; n],
            ctx: Vec::new(),
        };
        for p in &f.params {
            self.define(&mut st, p.value, f.span);
        }
        self.region(&mut st, &f.body);
        if f.body.falls_through() && f.params.iter().any(|p| p.attrs.ret) {
            let span = f.body.instrs.last().map_or(f.span, |i| i.span);
            self.err(
                format!("function `@{}` can end without `ret`", f.name),
                span,
                "a function with `return` parameters must end with `ret`",
            );
        }
    }

    fn define(&mut self, st: &mut FnState, v: Value, span: Span) {
        let Some(d) = st.defined.get(v.index()) else {
            self.err(
                format!("value {} is not in the value table", v.0),
                span,
                "bad value index",
            );
            return;
        };
        if *d {
            let name = st.f.value_name(v).to_string();
            self.err(
                format!("value `%{name}` is defined twice"),
                span,
                "second definition",
            );
        }
        st.defined[v.index()] = true;
        st.visible[v.index()] = true;
    }

    /// Checks a region; values defined in it go out of scope at its end.
    fn region(&mut self, st: &mut FnState<'m>, r: &'m Region) {
        let mut local = Vec::new();
        for (k, i) in r.instrs.iter().enumerate() {
            if k > 0 && r.instrs[k - 1].kind.is_terminator() {
                self.err(
                    "instruction after the end of the block",
                    i.span,
                    "never reached",
                );
            }
            self.instr(st, i);
            local.extend(i.results.iter().copied());
        }
        for v in local {
            if let Some(s) = st.visible.get_mut(v.index()) {
                *s = false;
            }
        }
    }

    fn nested(&mut self, st: &mut FnState<'m>, r: &'m Region, params: &[Value], span: Span) {
        for p in params {
            self.define(st, *p, span);
        }
        self.region(st, r);
        for p in params {
            if let Some(s) = st.visible.get_mut(p.index()) {
                *s = false;
            }
        }
    }

    /// Type of an operand if it is usable here.
    fn operand(&mut self, st: &FnState, op: &Operand, span: Span) -> Option<Type> {
        match *op {
            Operand::Value(v) => {
                if v.index() >= st.f.values.len() {
                    self.err(
                        format!("value {} is not in the value table", v.0),
                        span,
                        "bad value index",
                    );
                    return None;
                }
                if !st.visible[v.index()] {
                    let name = st.f.value_name(v);
                    self.err(
                        format!("value `%{name}` does not dominate this use"),
                        span,
                        format!("`%{name}` is defined in a block that does not enclose this instruction"),
                    );
                    return None;
                }
                Some(st.f.ty(v))
            }
            Operand::Imm { ty, bits } => {
                let fits = match ty {
                    Type::I1 => bits <= 1,
                    Type::I32 | Type::F32 => bits <= u64::from(u32::MAX),
                    Type::Stack => false,
                    _ => true,
                };
                if !fits {
                    self.err(
                        format!("literal {bits:#x} is not a valid {ty}"),
                        span,
                        "bad literal",
                    );
                    return None;
                }
                Some(ty)
            }
        }
    }

    fn expect_type(&mut self, st: &FnState, op: &Operand, want: Type, span: Span, what: &str) {
        if let Some(t) = self.operand(st, op, span) {
            if t != want {
                let shown = describe(st.f, op);
                self.err(
                    format!("{what} must be {want}, but {shown} is {t}"),
                    span,
                    format!("expected {want}"),
                );
            }
        }
    }

    fn expect_list(
        &mut self,
        st: &FnState,
        ops: &[Operand],
        want: &[Type],
        span: Span,
        what: &str,
    ) {
        if ops.len() != want.len() {
            self.err(
                format!("{what} takes {} value(s), {} given", want.len(), ops.len()),
                span,
                format!("expected {}", type_list(want)),
            );
            return;
        }
        for (k, (o, t)) in ops.iter().zip(want).enumerate() {
            self.expect_type(st, o, *t, span, &format!("value {} of {what}", k + 1));
        }
    }

    fn results(&mut self, st: &mut FnState, i: &Instr, want: &[Type]) {
        if i.results.len() != want.len() {
            self.err(
                format!(
                    "instruction gives {} result(s), {} named",
                    want.len(),
                    i.results.len()
                ),
                i.span,
                format!("expected {}", type_list(want)),
            );
        }
        for (v, t) in i.results.iter().zip(want) {
            if v.index() < st.f.values.len() && st.f.ty(*v) != *t {
                let name = st.f.value_name(*v);
                self.err(
                    format!(
                        "result `%{name}` has type {}, but the instruction gives {t}",
                        st.f.ty(*v)
                    ),
                    i.span,
                    "result type mismatch",
                );
            }
        }
        for v in &i.results {
            self.define(st, *v, i.span);
        }
    }

    fn instr(&mut self, st: &mut FnState<'m>, i: &'m Instr) {
        let span = i.span;
        match &i.kind {
            InstrKind::Op(op) => {
                let res = self.op(st, op, span);
                self.results(st, i, res.as_slice());
            }
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => {
                self.expect_type(st, cond, Type::I1, span, "the `if` condition");
                let types: Vec<Type> = i
                    .results
                    .iter()
                    .filter(|v| v.index() < st.f.values.len())
                    .map(|v| st.f.ty(*v))
                    .collect();
                self.no_stack(&types, span, "an `if` result");
                st.ctx.push(Ctx::If(types.clone()));
                self.nested(st, then_region, &[], span);
                self.nested(st, else_region, &[], span);
                st.ctx.pop();
                if !types.is_empty() {
                    for (arm, r) in [("then", then_region), ("else", else_region)] {
                        if r.falls_through() {
                            let at = r.instrs.last().map_or(span, |x| x.span);
                            self.err(
                                format!(
                                    "the {arm} arm of an `if` with results can end without `yield`"
                                ),
                                at,
                                format!("expected `yield` of {}", type_list(&types)),
                            );
                        }
                    }
                }
                self.results(st, i, &types);
            }
            InstrKind::Loop { params, init, body } => {
                let ptypes: Vec<Type> = params
                    .iter()
                    .filter(|v| v.index() < st.f.values.len())
                    .map(|v| st.f.ty(*v))
                    .collect();
                self.no_stack(&ptypes, span, "a loop variable");
                self.expect_list(st, init, &ptypes, span, "the loop's initial values");
                let rtypes: Vec<Type> = i
                    .results
                    .iter()
                    .filter(|v| v.index() < st.f.values.len())
                    .map(|v| st.f.ty(*v))
                    .collect();
                self.no_stack(&rtypes, span, "a loop result");
                st.ctx.push(Ctx::Loop {
                    params: ptypes.clone(),
                    results: rtypes.clone(),
                });
                self.nested(st, body, params, span);
                st.ctx.pop();
                if !ptypes.is_empty() && body.falls_through() {
                    let at = body.instrs.last().map_or(span, |x| x.span);
                    self.err(
                        "the body of a loop with variables can end without `continue` or `break`",
                        at,
                        format!("expected `continue` with {}", type_list(&ptypes)),
                    );
                }
                self.results(st, i, &rtypes);
            }
            InstrKind::Yield(ops) => {
                match st.ctx.last() {
                    Some(Ctx::If(t)) => {
                        let t = t.clone();
                        self.expect_list(st, ops, &t, span, "`yield`");
                    }
                    _ => self.err(
                        "`yield` outside an `if` arm",
                        span,
                        "`yield` ends an `if` arm (use `break`/`continue` in loops)",
                    ),
                }
                self.results(st, i, &[]);
            }
            InstrKind::Break(ops) | InstrKind::Continue(ops) => {
                let is_break = matches!(i.kind, InstrKind::Break(_));
                let word = if is_break { "break" } else { "continue" };
                let found = st.ctx.iter().rev().find_map(|c| match c {
                    Ctx::Loop { params, results } => Some(if is_break {
                        results.clone()
                    } else {
                        params.clone()
                    }),
                    Ctx::If(_) => None,
                });
                match found {
                    Some(t) => self.expect_list(st, ops, &t, span, &format!("`{word}`")),
                    None => self.err(
                        format!("`{word}` outside a loop"),
                        span,
                        "no enclosing `loop`",
                    ),
                }
                self.results(st, i, &[]);
            }
            InstrKind::Ret(ops) => {
                let want = st.f.return_types();
                self.expect_list(
                    st,
                    ops,
                    &want,
                    span,
                    "`ret` (one value per `return` parameter)",
                );
                self.results(st, i, &[]);
            }
            InstrKind::Unreachable => self.results(st, i, &[]),
            InstrKind::FuncAddr { func } => {
                if let Some(f) = self.func(*func, span) {
                    if f.attrs.kernel {
                        self.err(
                            format!("`func_addr` of kernel `@{}`", f.name),
                            span,
                            "kernels cannot be called",
                        );
                    }
                }
                self.results(st, i, &[Type::Ptr]);
            }
            InstrKind::Call { callee, args } => {
                let Some(f) = self.func(*callee, span) else {
                    for v in &i.results {
                        self.define(st, *v, span);
                    }
                    return;
                };
                if f.attrs.kernel {
                    self.err(
                        format!("call to kernel `@{}`", f.name),
                        span,
                        "kernels are entry points and cannot be called",
                    );
                }
                self.call_args(st, &f.sig_params(), args, span, &format!("@{}", f.name));
                self.results(st, i, &f.return_types());
            }
            InstrKind::CallIndirect { sig, callee, args } => {
                self.expect_type(st, callee, Type::Ptr, span, "the called address");
                let Some(s) = self.sig(*sig, span) else {
                    for v in &i.results {
                        self.define(st, *v, span);
                    }
                    return;
                };
                self.call_args(st, &s.params, args, span, &format!("${}", s.name));
                self.results(st, i, &s.return_types());
            }
        }
    }

    /// Reports every call in `r` that passes a divergent value to a `uniform` parameter.
    fn uniform_args(&mut self, f: &Function, u: &Uniformity, r: &Region) {
        for i in &r.instrs {
            match &i.kind {
                InstrKind::If {
                    then_region,
                    else_region,
                    ..
                } => {
                    self.uniform_args(f, u, then_region);
                    self.uniform_args(f, u, else_region);
                }
                InstrKind::Loop { body, .. } => self.uniform_args(f, u, body),
                InstrKind::Call { callee, args } => {
                    let g = self.module.func(*callee);
                    for (k, (p, a)) in g.params.iter().zip(args).enumerate() {
                        if p.attrs.uniform {
                            let param = format!(
                                "parameter {} (`%{}`) of `@{}`",
                                k + 1,
                                g.value_name(p.value),
                                g.name
                            );
                            self.uniform_arg(f, u, a, i.span, &param);
                        }
                    }
                }
                InstrKind::CallIndirect { sig, args, .. } => {
                    let s = self.module.signature(*sig);
                    for (k, (p, a)) in s.params.iter().zip(args).enumerate() {
                        if p.attrs.uniform {
                            let param = format!("parameter {} of `${}`", k + 1, s.name);
                            self.uniform_arg(f, u, a, i.span, &param);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn uniform_arg(&mut self, f: &Function, u: &Uniformity, a: &Operand, span: Span, param: &str) {
        let Operand::Value(v) = *a else {
            return;
        };
        if u.is_uniform(v) {
            return;
        }
        let name = f.value_name(v);
        self.errors.push(
            Diagnostic::new(
                format!("divergent `%{name}` passed to {param}, which is `uniform`"),
                span,
                format!("`%{name}` may differ between lanes"),
            )
            .with_note(format!("why: {}", u.explain(f, v)))
            .with_note("a `uniform` parameter must get the same value in every lane of a wave"),
        );
    }

    fn no_stack(&mut self, types: &[Type], span: Span, what: &str) {
        if types.contains(&Type::Stack) {
            self.err(
                format!("{what} cannot have type `stack`"),
                span,
                "stack arrays stay in their function",
            );
        }
    }

    fn call_args(
        &mut self,
        st: &FnState,
        params: &[SigParam],
        args: &[Operand],
        span: Span,
        name: &str,
    ) {
        if params.len() != args.len() {
            self.err(
                format!(
                    "{name} takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
                span,
                format!(
                    "expected {}",
                    type_list(&params.iter().map(|p| p.ty).collect::<Vec<_>>())
                ),
            );
            return;
        }
        for (k, (p, a)) in params.iter().zip(args).enumerate() {
            if p.attrs.ret && !matches!(a, Operand::Value(_)) {
                self.err(
                    format!(
                        "argument {} of {name} is a `return` parameter and must be a value",
                        k + 1
                    ),
                    span,
                    format!("expected a value of type {}", p.ty),
                );
                continue;
            }
            self.expect_type(st, a, p.ty, span, &format!("argument {} of {name}", k + 1));
        }
    }

    /// Checks a plain operation against its table row; returns its result type.
    fn op(&mut self, st: &FnState, op: &OpInstr, span: Span) -> Option<Type> {
        let info = op.opcode.info();
        let name = info.name;
        match (info.ty, op.ty) {
            (TyClass::None, Some(t)) => self.err(
                format!("`{name}` takes no type, found {t}"),
                span,
                "unexpected type",
            ),
            (TyClass::None, None) => {}
            (c, None) => self.err(
                format!("`{name}` needs a type ({})", c.describe()),
                span,
                "missing type",
            ),
            (c, Some(t)) if !c.allows(t) => self.err(
                format!("`{name}` does not work on {t}"),
                span,
                format!("expected {}", c.describe()),
            ),
            _ => {}
        }
        let extra_ok = match (info.extra, op.extra) {
            (ExtraKind::None, Extra::None) => true,
            (ExtraKind::IntCond, Extra::Cond(c)) => c.is_int(),
            (ExtraKind::FloatCond, Extra::Cond(c)) => !c.is_int(),
            (ExtraKind::To, Extra::To(_)) => true,
            (ExtraKind::Dim, Extra::Imm(d)) => {
                if d > 2 {
                    self.err(
                        format!("`{name}` dimension {d} is out of range"),
                        span,
                        "expected 0, 1 or 2",
                    );
                }
                true
            }
            (ExtraKind::Size, Extra::Imm(n)) => {
                if n == 0 || n > MAX_ALLOCA_BYTES {
                    self.err(
                        format!("`alloca` of {n} bytes"),
                        span,
                        format!("expected 1 to {MAX_ALLOCA_BYTES} bytes"),
                    );
                }
                true
            }
            _ => false,
        };
        if !extra_ok {
            self.err(
                format!("malformed `{name}`"),
                span,
                "wrong condition, size or target type",
            );
        }
        if let (Extra::To(to), Some(from)) = (op.extra, op.ty) {
            if !op.opcode.conversion_ok(from, to) {
                self.err(
                    format!("`{name}` cannot convert {from} to {to}"),
                    span,
                    "invalid conversion",
                );
            }
        }
        if op.args.len() != info.args.len() {
            self.err(
                format!(
                    "`{name}` takes {} operand(s), {} given",
                    info.args.len(),
                    op.args.len()
                ),
                span,
                "operand count",
            );
            return op.opcode.result_type(op.ty, op.extra);
        }
        if op.opcode == Opcode::Const && !matches!(op.args[0], Operand::Imm { .. }) {
            self.err("`const` takes a literal", span, "expected a number");
        }
        for (k, (a, kind)) in op.args.iter().zip(info.args).enumerate() {
            let what = format!("operand {} of `{name}`", k + 1);
            match kind {
                ArgTy::T => {
                    if let Some(t) = op.ty {
                        self.expect_type(st, a, t, span, &what);
                    }
                }
                ArgTy::Is(t) => self.expect_type(st, a, *t, span, &what),
                ArgTy::AnyInt => {
                    if let Some(t) = self.operand(st, a, span) {
                        if !matches!(t, Type::I32 | Type::I64) {
                            self.err(
                                format!("{what} must be i32 or i64, but it is {t}"),
                                span,
                                "expected an integer offset",
                            );
                        }
                    }
                }
            }
        }
        op.opcode.result_type(op.ty, op.extra)
    }
}

fn describe(f: &Function, op: &Operand) -> String {
    match op {
        Operand::Value(v) => format!("`%{}`", f.value_name(*v)),
        Operand::Imm { .. } => "the literal".to_string(),
    }
}

fn type_list(t: &[Type]) -> String {
    if t.is_empty() {
        return "nothing".to_string();
    }
    t.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}
