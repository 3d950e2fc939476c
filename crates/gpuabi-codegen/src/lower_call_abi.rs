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

use gpuabi_ir::ir::{
    self, Cond, Extra, Instr, InstrKind, OpInstr, Opcode as Op, Operand, Param, ParamAttrs, Region,
    Type, Value, ValueData,
};
use smallvec::smallvec;

/// Positions of the parameters this pass adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AddedParams {
    /// First hidden launch value.
    pub launch: usize,
    /// The divergent callee PC; the uniform one follows it.
    pub divergent_pc: usize,
}

fn add_value(f: &mut ir::Function, name: String, ty: Type) -> Value {
    f.values.push(ValueData { name, ty });
    Value(f.values.len() as u32 - 1)
}

/// The function as it is compiled when called: see the module documentation.
pub(crate) fn lower(
    f: &ir::Function,
    hidden: &[(Op, u32)],
    divergent_call: bool,
) -> (ir::Function, AddedParams) {
    let mut g = f.clone();
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
    if divergent_call {
        let guard = add_value(&mut g, "guard".into(), Type::I1);
        let span = f.span;
        let body = std::mem::take(&mut g.body);
        let entry_values: Vec<Operand> = f
            .params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| Operand::Value(p.value))
            .collect();
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
        },
    )
}
