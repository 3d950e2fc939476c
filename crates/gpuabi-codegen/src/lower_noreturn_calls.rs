//! Calls to `noreturn` functions: the IR says such a function's `ret` ends the invocation
//! (Mesa's `s_endpgm` after a NORETURN callee). The hardware cannot end some lanes of a
//! wave inside a callee while the caller's other lanes go on, so the code generator
//! compiles a `noreturn` function as an ordinary callee under its ABI (its `ret` returns,
//! its ABI kept) and ends the invocation in the caller instead: the rest of the region
//! after the call is dropped and a `ret` takes its place. This is exact wherever the
//! caller's own `ret` ends the invocation: in kernels and in `noreturn` functions. A
//! function that returns and calls a `noreturn` function is refused (instruction
//! selection names the call).

use gpuabi_ir::ir::{Instr, InstrKind, Region};
use gpuabi_ir::Module;

/// Whether `i` calls a `noreturn` function of `module`.
pub(crate) fn calls_noreturn(module: &Module, i: &Instr) -> bool {
    match &i.kind {
        InstrKind::Call { callee, .. } => module.functions[callee.index()].attrs.noreturn,
        InstrKind::CallIndirect { sig, .. } => module.sigs[sig.index()].attrs.noreturn,
        _ => false,
    }
}

fn lower_region(module: &Module, r: &mut Region) {
    let end = r.instrs.iter().position(|i| calls_noreturn(module, i));
    if let Some(at) = end {
        let span = r.instrs[at].span;
        r.instrs.truncate(at + 1);
        r.instrs.push(Instr {
            results: Default::default(),
            kind: InstrKind::Ret(Vec::new()),
            span,
        });
    }
    for i in &mut r.instrs {
        match &mut i.kind {
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => {
                lower_region(module, then_region);
                lower_region(module, else_region);
            }
            InstrKind::Loop { body, .. } => lower_region(module, body),
            _ => {}
        }
    }
}

/// The module with every call to a `noreturn` function in a kernel or a `noreturn`
/// function followed by `ret`, and what came after it dropped.
pub(crate) fn lower(module: &Module) -> Module {
    let mut m = module.clone();
    for f in &mut m.functions {
        if f.attrs.kernel || f.attrs.noreturn {
            lower_region(module, &mut f.body);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_region_after_a_noreturn_call_becomes_ret() {
        let src = "fn @stop(%out: ptr) noreturn {\n  store i32 1, %out\n  ret\n}\n\n\
                   fn @k(%out: ptr, %c: i1) kernel {\n  if %c {\n    call @stop(%out)\n    \
                   %p = ptradd %out, 4\n    store i32 2, %p\n  }\n  ret\n}\n";
        let m = gpuabi_ir::parse(src).unwrap();
        let l = lower(&m);
        gpuabi_ir::verify(&l).unwrap();
        let text = gpuabi_ir::print(&l);
        let k = &text[text.find("fn @k").unwrap()..];
        // The `if` arm is the call and `ret`; the store of 2 is gone.
        assert!(!k.contains("store i32 2"), "{k}");
        let call = k.find("call @stop").unwrap();
        assert!(
            k[call..]
                .trim_start_matches(|c| c != '\n')
                .trim_start()
                .starts_with("ret"),
            "{k}"
        );
    }
}
