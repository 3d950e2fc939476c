//! Which calls become tail calls, as RADV's `radv_nir_lower_call_abi.c` chooses them: a
//! call that ends a called function hands its lanes to the callee through the dispatch
//! epilogue instead of a hardware call. The arguments are written into the function's own
//! parameter registers, the lanes' next PC becomes the callee's, and the callee, entered
//! like the next callee of a divergent call, returns straight to the caller's return
//! address (see [`crate::lower_call_abi`] for the rewrite).
//!
//! A call is a tail call when all of this holds (RADV's compatibility rule, made concrete
//! for the IR's value-based return parameters and for user ABIs):
//!
//! * it is the last instruction before the function's final top-level `ret`, and that `ret`
//!   returns exactly the call's results, in order;
//! * neither function is `noreturn`;
//! * both conventions pass RADV's callee PCs (ACO ABIs, not LLVM's conventions);
//! * the callee is compiled as DIVERGENT_CALL (with the guard), since it is entered with
//!   the exec mask the caller was entered with; every function an indirect call may reach
//!   is;
//! * both conventions put every parameter in the same place and preserve the same
//!   registers. This is RADV's "same ABI, or a traversal caller and an rt-recursive
//!   callee" (those two ABIs have the same register block) stated for any ABI;
//! * the parameter lists match in count, type, `uniform` and `return`, and a `discardable`
//!   callee parameter has a `discardable` caller parameter;
//! * every argument the callee receives in an SGPR (uniform values and `i1` lane masks),
//!   and every argument for a parameter the caller must hand back unchanged (not
//!   `discardable`), is the caller's own parameter of the same index, unmodified. An SGPR
//!   is shared by the whole wave, and lanes still waiting for another callee of the chain
//!   read the value their caller passed; RADV leaves this to its callers.

use gpuabi_ir::ir::{FuncId, InstrKind, Operand, SigParam};
use gpuabi_ir::Module;
use gpuabi_layout::aco::Location;
use gpuabi_layout::reg::RegFile;

use crate::call_abi::{Convention, ModuleAbis};

/// Where a tail call goes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TailTarget {
    /// `call @g`.
    Direct(FuncId),
    /// `call_indirect $sig %ptr`: each lane's own pointer.
    Indirect(Operand),
}

/// A function's trailing call that becomes a tail call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TailCall {
    /// The callee.
    pub target: TailTarget,
    /// One argument per parameter of the function (the signatures match).
    pub args: Vec<Operand>,
    /// The callee's name as call sites name it: a function, or `$sig`.
    pub callee: String,
}

/// True when `a` and `b` place every parameter alike and preserve the same registers.
fn same_registers(a: &Convention, b: &Convention) -> bool {
    a.preserved == b.preserved
        && a.assignment.scratch_param_size == b.assignment.scratch_param_size
        && a.assignment.params.len() == b.assignment.params.len()
        && a.assignment
            .params
            .iter()
            .zip(&b.assignment.params)
            .all(|(p, q)| p.location == q.location && p.class == q.class)
}

/// The trailing call of the called function `fid` that becomes a tail call, if any.
pub(crate) fn find(module: &Module, abis: &ModuleAbis, fid: FuncId) -> Option<TailCall> {
    let f = &module.functions[fid.index()];
    let own = abis.funcs[fid.index()].as_ref()?;
    let [.., call, ret] = f.body.instrs.as_slice() else {
        return None;
    };
    let InstrKind::Ret(returned) = &ret.kind else {
        return None;
    };
    let returns_results = returned.len() == call.results.len()
        && returned
            .iter()
            .zip(&call.results)
            .all(|(o, v)| *o == Operand::Value(*v));
    if !returns_results || own.noreturn {
        return None;
    }
    let (target, args, conv, params, callee): (_, _, _, Vec<SigParam>, _) = match &call.kind {
        InstrKind::Call { callee, args } => {
            let g = &module.functions[callee.index()];
            (
                TailTarget::Direct(*callee),
                args,
                abis.func(*callee),
                g.sig_params(),
                g.name.clone(),
            )
        }
        InstrKind::CallIndirect { sig, callee, args } => {
            let s = &module.sigs[sig.index()];
            (
                TailTarget::Indirect(*callee),
                args,
                &abis.sigs[sig.index()],
                s.params.clone(),
                format!("${}", s.name),
            )
        }
        _ => return None,
    };
    // The chain needs RADV's callee PCs in both conventions (LLVM's have none).
    if !conv.divergent_call
        || conv.noreturn
        || !own.has_callee_pcs()
        || !conv.has_callee_pcs()
        || !same_registers(own, conv)
    {
        return None;
    }
    if params.len() != f.params.len() {
        return None;
    }
    for (j, (p, q)) in f.params.iter().zip(&params).enumerate() {
        let (pa, qa) = (p.attrs, q.attrs);
        if f.ty(p.value) != q.ty
            || pa.uniform != qa.uniform
            || pa.ret != qa.ret
            || (qa.discardable && !pa.discardable)
        {
            return None;
        }
        let in_sgpr = matches!(own.arg(j).location, Location::Reg(r) if r.file() == RegFile::Sgpr);
        if !pa.ret && (in_sgpr || !pa.discardable) && args[j] != Operand::Value(p.value) {
            return None;
        }
    }
    Some(TailCall {
        target,
        args: args.clone(),
        callee,
    })
}

/// True when the tail call writes parameter `j` of the function: a `return` parameter
/// (the value going in to the callee) or a `discardable` one the call passes a new value.
pub(crate) fn writes_param(f: &gpuabi_ir::ir::Function, tail: &TailCall, j: usize) -> bool {
    let p = &f.params[j];
    p.attrs.ret || tail.args[j] != Operand::Value(p.value)
}
