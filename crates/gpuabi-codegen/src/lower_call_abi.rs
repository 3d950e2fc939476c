//! The IR side of a called function's ABI, as RADV's `radv_nir_lower_call_abi.c` lowers
//! it in NIR before ACO sees the shader: the values the ABI adds become parameters, and a
//! DIVERGENT_CALL function's body runs only in the lanes that wanted this callee.
//!
//! The function gets, after its own parameters, one parameter per hidden launch value
//! (see [`crate::call_abi`]), then the divergent callee PC (`ptr`, per lane) and the
//! uniform one (`ptr`, uniform). A DIVERGENT_CALL function's body becomes
//!
//! ```text
//! %guard = icmp eq ptr %divergent_pc, %uniform_pc
//! if %guard { <body> }
//! ret <the return parameters' entry values>
//! ```
//!
//! so the lanes whose callee is another function hand their return parameters back
//! unchanged, for the next callee of the chain (the dispatch epilogue is code generated at
//! the function's end: [`crate::isel`]).
//!
//! Under LLVM's conventions (no callee PCs, see [`crate::call_abi`]) only the launch
//! values are added, and the body stays as it is.
//!
//! A function whose trailing call is a tail call ([`crate::tail_calls`]) returns instead of
//! calling, as RADV's `tail_call_pc` does: the divergent PC and every parameter the call
//! writes become `return` parameters of the lowered function, so that their final values
//! go back into their registers. Each `ret` gives them their entry values and a next PC of
//! 0 (done); the tail call's `ret` gives the call's arguments and the callee's address
//! (each lane's pointer for an indirect call); the guard's own `ret` gives the lane's
//! divergent PC (still pending). The dispatch epilogue then takes the next PC as it is.

use gpuabi_ir::ir::{
    self, Cond, Extra, Instr, InstrKind, OpInstr, Opcode as Op, Operand, Param, ParamAttrs, Region,
    Type, Value, ValueData,
};
use smallvec::smallvec;

use crate::tail_calls::{self, TailCall, TailTarget};

/// Positions of the parameters this pass adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AddedParams {
    /// First hidden launch value.
    pub launch: usize,
    /// The divergent callee PC; the uniform one follows it. Under a convention without
    /// callee PCs, the number of parameters (nothing is there).
    pub divergent_pc: usize,
    /// The convention passes the callee PCs.
    pub pcs: bool,
    /// The function ends with a tail call: the divergent PC is a `return` parameter
    /// holding each lane's next PC.
    pub tail_call: bool,
}

fn add_value(f: &mut ir::Function, name: String, ty: Type) -> Value {
    f.values.push(ValueData { name, ty });
    Value(f.values.len() as u32 - 1)
}

/// The function as it is compiled when called: see the module documentation.
pub(crate) fn lower(
    f: &ir::Function,
    hidden: &[(Op, u32)],
    conv: &crate::call_abi::Convention,
    tail: Option<&TailCall>,
) -> (ir::Function, AddedParams) {
    let divergent_call = conv.divergent_call;
    let mut g = f.clone();
    let written: Vec<bool> = (0..f.params.len())
        .map(|j| tail.is_some_and(|t| tail_calls::writes_param(f, t, j)))
        .collect();
    let launch = g.params.len();
    for (k, &(op, _)) in hidden.iter().enumerate() {
        let v = add_value(&mut g, format!("launch.{k}"), Type::I32);
        g.params.push(Param {
            value: v,
            attrs: ParamAttrs {
                uniform: !crate::call_abi::launch_is_divergent(op),
                discardable: true,
                ret: false,
            },
        });
    }
    let divergent_pc = g.params.len();
    if !conv.has_callee_pcs() {
        return (
            g,
            AddedParams {
                launch,
                divergent_pc,
                pcs: false,
                tail_call: false,
            },
        );
    }
    let dpc = add_value(&mut g, "divergent_pc".into(), Type::Ptr);
    let upc = add_value(&mut g, "uniform_pc".into(), Type::Ptr);
    g.params.push(Param {
        value: dpc,
        attrs: ParamAttrs {
            uniform: false,
            discardable: true,
            ret: false,
        },
    });
    g.params.push(Param {
        value: upc,
        attrs: ParamAttrs {
            uniform: true,
            discardable: true,
            ret: false,
        },
    });
    if let Some(t) = tail {
        rewrite_returns(&mut g, f, t, &written, divergent_pc);
    }
    if divergent_call {
        let guard = add_value(&mut g, "guard".into(), Type::I1);
        let span = f.span;
        let body = std::mem::take(&mut g.body);
        let mut entry_values: Vec<Operand> = f
            .params
            .iter()
            .zip(&written)
            .filter(|(p, &w)| p.attrs.ret || w)
            .map(|(p, _)| Operand::Value(p.value))
            .collect();
        if tail.is_some() {
            entry_values.push(Operand::Value(dpc));
        }
        g.body = Region {
            instrs: vec![
                Instr {
                    results: smallvec![guard],
                    kind: InstrKind::Op(OpInstr {
                        opcode: Op::Icmp,
                        ty: Some(Type::Ptr),
                        extra: Extra::Cond(Cond::Eq),
                        args: smallvec![Operand::Value(dpc), Operand::Value(upc)],
                    }),
                    span,
                },
                Instr {
                    results: smallvec![],
                    kind: InstrKind::If {
                        cond: Operand::Value(guard),
                        then_region: body,
                        else_region: Region::default(),
                    },
                    span,
                },
                Instr {
                    results: smallvec![],
                    kind: InstrKind::Ret(entry_values),
                    span,
                },
            ],
        };
    }
    (
        g,
        AddedParams {
            launch,
            divergent_pc,
            pcs: true,
            tail_call: tail.is_some(),
        },
    )
}

/// Makes the tail call's `ret` and every other `ret` of `g` (the function `f` with its
/// added parameters) give the written parameters and the next PC: see the module
/// documentation.
fn rewrite_returns(
    g: &mut ir::Function,
    f: &ir::Function,
    tail: &TailCall,
    written: &[bool],
    divergent_pc: usize,
) {
    for (j, &w) in written.iter().enumerate() {
        if w {
            g.params[j].attrs.ret = true;
        }
    }
    g.params[divergent_pc].attrs.ret = true;
    // Every other `ret`: entry values for the written parameters, and no next callee.
    let done = Operand::Imm {
        ty: Type::Ptr,
        bits: 0,
    };
    extend_returns(&mut g.body, &|ops: &[Operand]| {
        let mut ops = ops.iter();
        let mut out = Vec::new();
        for (p, &w) in f.params.iter().zip(written) {
            if p.attrs.ret {
                out.push(ops.next().copied().expect("one value per return parameter"));
            } else if w {
                out.push(Operand::Value(p.value));
            }
        }
        out.push(done);
        out
    });
    // The tail call's `ret`: the arguments and the callee.
    let span = g.body.instrs.last().map(|i| i.span).unwrap_or(f.span);
    g.body.instrs.truncate(g.body.instrs.len() - 2);
    let next = match &tail.target {
        TailTarget::Direct(callee) => {
            let v = add_value(g, "tail_call_pc".into(), Type::Ptr);
            g.body.instrs.push(Instr {
                results: smallvec![v],
                kind: InstrKind::FuncAddr { func: *callee },
                span,
            });
            Operand::Value(v)
        }
        TailTarget::Indirect(ptr) => *ptr,
    };
    let mut ops: Vec<Operand> = written
        .iter()
        .enumerate()
        .filter(|&(_, &w)| w)
        .map(|(j, _)| tail.args[j])
        .collect();
    ops.push(next);
    g.body.instrs.push(Instr {
        results: smallvec![],
        kind: InstrKind::Ret(ops),
        span,
    });
}

fn extend_returns(r: &mut Region, with: &dyn Fn(&[Operand]) -> Vec<Operand>) {
    for i in &mut r.instrs {
        match &mut i.kind {
            InstrKind::Ret(ops) => *ops = with(ops),
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => {
                extend_returns(then_region, with);
                extend_returns(else_region, with);
            }
            InstrKind::Loop { body, .. } => extend_returns(body, with),
            _ => {}
        }
    }
}
