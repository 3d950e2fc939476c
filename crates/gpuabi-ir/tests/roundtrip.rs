//! Print → parse round trip over generated, verifiable modules.
//!
//! The generator is a small program builder driven by proptest's random numbers: it keeps
//! the values in scope with their types, so every module it makes passes the verifier, and
//! it numbers values in the order the parser does (for `if` and `loop`, results after the
//! body), so the parsed module must equal the generated one exactly.

use gpuabi_ir::ir::{
    Abi, Extra, FuncAttrs, FuncId, Function, Instr, InstrKind, Module, OpInstr, Opcode, Operand,
    Param, ParamAttrs, Region, SigId, SigParam, Signature, Span, Type, Value, ValueData,
};
use gpuabi_ir::{parse, print, verify};
use proptest::prelude::*;
use smallvec::{smallvec, SmallVec};

struct Rng<'a> {
    data: &'a [u32],
    pos: usize,
}

impl Rng<'_> {
    fn next(&mut self, n: u32) -> u32 {
        let v = self.data[self.pos % self.data.len()]
            .wrapping_add(self.pos as u32 / self.data.len() as u32);
        self.pos += 1;
        v % n.max(1)
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.next(100) < percent
    }

    fn ty(&mut self) -> Type {
        [Type::I1, Type::I32, Type::I64, Type::F32, Type::Ptr][self.next(5) as usize]
    }

    fn literal(&mut self, ty: Type) -> u64 {
        let raw = u64::from(self.next(u32::MAX)) << 32 | u64::from(self.next(u32::MAX));
        match ty {
            Type::I1 => raw & 1,
            Type::I32 => raw & 0xffff_ffff,
            Type::F32 => {
                let special = [
                    0x7fc0_0000u64,
                    0xff80_0000,
                    0x8000_0000,
                    0x3f80_0000,
                    0x0000_0001,
                ];
                if self.chance(30) {
                    special[self.next(5) as usize]
                } else {
                    raw & 0xffff_ffff
                }
            }
            _ => raw,
        }
    }
}

/// The callable interface of a function or signature, known before bodies are built.
#[derive(Clone)]
struct Iface {
    params: Vec<SigParam>,
    attrs: FuncAttrs,
}

struct FnGen<'r, 'd> {
    rng: &'r mut Rng<'d>,
    values: Vec<ValueData>,
    scope: Vec<(Value, Type)>,
    funcs: &'r [(String, Iface)],
    sigs: &'r [(String, Iface)],
    next_name: u32,
}

impl FnGen<'_, '_> {
    fn new_value(&mut self, ty: Type) -> Value {
        let v = Value(self.values.len() as u32);
        let style = ["v", "x.", "tmp_", "a"][self.rng.next(4) as usize];
        self.values.push(ValueData {
            name: format!("{style}{}", self.next_name),
            ty,
        });
        self.next_name += 1;
        v
    }

    /// A value of `ty` in scope, or a literal.
    fn operand(&mut self, ty: Type) -> Operand {
        let cands: Vec<Value> = self
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(v, _)| *v)
            .collect();
        if !cands.is_empty() && (ty == Type::Stack || self.rng.chance(70)) {
            Operand::Value(cands[self.rng.next(cands.len() as u32) as usize])
        } else {
            Operand::Imm {
                ty,
                bits: self.rng.literal(ty),
            }
        }
    }

    /// A value (not a literal) of `ty`, defining a `const` first if none is in scope.
    fn value(&mut self, ty: Type, out: &mut Vec<Instr>) -> Operand {
        let cands: Vec<Value> = self
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(v, _)| *v)
            .collect();
        if let Some(v) = cands.get(self.rng.next(cands.len().max(1) as u32) as usize) {
            return Operand::Value(*v);
        }
        let v = self.new_value(ty);
        let bits = self.rng.literal(ty);
        out.push(op(
            Opcode::Const,
            Some(ty),
            Extra::None,
            smallvec![Operand::Imm { ty, bits }],
            Some(v),
        ));
        self.scope.push((v, ty));
        Operand::Value(v)
    }

    fn define(&mut self, ty: Type) -> Value {
        let v = self.new_value(ty);
        self.scope.push((v, ty));
        v
    }

    fn call_args(&mut self, params: &[SigParam], out: &mut Vec<Instr>) -> Vec<Operand> {
        params
            .iter()
            .map(|p| {
                if p.attrs.ret {
                    self.value(p.ty, out)
                } else if p.attrs.uniform {
                    // Literals are uniform, as the verifier requires here.
                    Operand::Imm {
                        ty: p.ty,
                        bits: self.rng.literal(p.ty),
                    }
                } else {
                    self.operand(p.ty)
                }
            })
            .collect()
    }

    fn instr(&mut self, depth: u32, out: &mut Vec<Instr>) {
        let choice = self.rng.next(if depth < 3 { 14 } else { 11 });
        match choice {
            0 | 1 => {
                let opc = [
                    Opcode::Add,
                    Opcode::Mul,
                    Opcode::Xor,
                    Opcode::Ashr,
                    Opcode::Smin,
                ][self.rng.next(5) as usize];
                let ty = if self.rng.chance(50) {
                    Type::I32
                } else {
                    Type::I64
                };
                let (a, b) = (self.operand(ty), self.operand(ty));
                let v = self.define(ty);
                out.push(op(opc, Some(ty), Extra::None, smallvec![a, b], Some(v)));
            }
            2 => {
                let opc = [Opcode::Fadd, Opcode::Fdiv, Opcode::Fmin][self.rng.next(3) as usize];
                let (a, b) = (self.operand(Type::F32), self.operand(Type::F32));
                let v = self.define(Type::F32);
                out.push(op(opc, None, Extra::None, smallvec![a, b], Some(v)));
            }
            3 => {
                let ty = self.rng.ty();
                let bits = self.rng.literal(ty);
                let v = self.define(ty);
                out.push(op(
                    Opcode::Const,
                    Some(ty),
                    Extra::None,
                    smallvec![Operand::Imm { ty, bits }],
                    Some(v),
                ));
            }
            4 => {
                let ty = self.rng.ty();
                let (c, a, b) = (self.operand(Type::I1), self.operand(ty), self.operand(ty));
                let v = self.define(ty);
                out.push(op(
                    Opcode::Select,
                    Some(ty),
                    Extra::None,
                    smallvec![c, a, b],
                    Some(v),
                ));
            }
            5 => {
                let conv = [
                    (Opcode::Zext, Type::I32, Type::I64),
                    (Opcode::Trunc, Type::I64, Type::I1),
                    (Opcode::Sitofp, Type::I64, Type::F32),
                    (Opcode::Bitcast, Type::I64, Type::Ptr),
                    (Opcode::Fptoui, Type::F32, Type::I32),
                ][self.rng.next(5) as usize];
                let a = self.operand(conv.1);
                let v = self.define(conv.2);
                out.push(op(
                    conv.0,
                    Some(conv.1),
                    Extra::To(conv.2),
                    smallvec![a],
                    Some(v),
                ));
            }
            6 => {
                let conds = gpuabi_ir::ir::Cond::ALL;
                let c = conds[self.rng.next(10) as usize].0;
                let ty = [Type::I32, Type::I64, Type::Ptr][self.rng.next(3) as usize];
                let (a, b) = (self.operand(ty), self.operand(ty));
                let v = self.define(Type::I1);
                out.push(op(
                    Opcode::Icmp,
                    Some(ty),
                    Extra::Cond(c),
                    smallvec![a, b],
                    Some(v),
                ));
            }
            7 => {
                let p = self.operand(Type::Ptr);
                if self.rng.chance(50) {
                    let v = self.define(Type::F32);
                    out.push(op(
                        Opcode::Load,
                        Some(Type::F32),
                        Extra::None,
                        smallvec![p],
                        Some(v),
                    ));
                } else {
                    let val = self.operand(Type::I32);
                    out.push(op(
                        Opcode::Store8,
                        None,
                        Extra::None,
                        smallvec![val, p],
                        None,
                    ));
                }
            }
            8 => {
                let size = 4 + 4 * self.rng.next(16);
                let a = self.define(Type::Stack);
                out.push(op(
                    Opcode::Alloca,
                    None,
                    Extra::Imm(size),
                    smallvec![],
                    Some(a),
                ));
                let off = self.operand(Type::I32);
                let val = self.operand(Type::I64);
                out.push(op(
                    Opcode::Sstore,
                    Some(Type::I64),
                    Extra::None,
                    smallvec![val, Operand::Value(a), off],
                    None,
                ));
                let v = self.define(Type::I32);
                out.push(op(
                    Opcode::GlobalId,
                    None,
                    Extra::Imm(self.rng.next(3)),
                    smallvec![],
                    Some(v),
                ));
            }
            9 => {
                let k = self.rng.next(self.funcs.len() as u32);
                let iface = self.funcs[k as usize].1.clone();
                if iface.attrs.kernel {
                    let v = self.define(Type::I32);
                    out.push(op(Opcode::WorkDim, None, Extra::None, smallvec![], Some(v)));
                    return;
                }
                let args = self.call_args(&iface.params, out);
                let results = self.results(&iface.params);
                let callee = FuncId(k);
                out.push(instr(results, InstrKind::Call { callee, args }));
            }
            10 => {
                if self.sigs.is_empty() || self.rng.chance(30) {
                    let k = self.rng.next(self.funcs.len() as u32);
                    if !self.funcs[k as usize].1.attrs.kernel {
                        let v = self.define(Type::Ptr);
                        let func = FuncId(k);
                        out.push(instr(smallvec![v], InstrKind::FuncAddr { func }));
                    }
                    return;
                }
                let k = self.rng.next(self.sigs.len() as u32);
                let iface = self.sigs[k as usize].1.clone();
                let callee = self.operand(Type::Ptr);
                let args = self.call_args(&iface.params, out);
                let results = self.results(&iface.params);
                out.push(instr(
                    results,
                    InstrKind::CallIndirect {
                        sig: SigId(k),
                        callee,
                        args,
                    },
                ));
            }
            11 | 12 => {
                // if with 0..2 results
                let cond = self.operand(Type::I1);
                let types: Vec<Type> = (0..self.rng.next(3)).map(|_| self.rng.ty()).collect();
                let then_region = self.arm(depth, &types);
                let else_region = if types.is_empty() && self.rng.chance(40) {
                    Region::default()
                } else {
                    self.arm(depth, &types)
                };
                let results = types.iter().map(|t| self.define(*t)).collect();
                out.push(instr(
                    results,
                    InstrKind::If {
                        cond,
                        then_region,
                        else_region,
                    },
                ));
            }
            _ => {
                // loop (vars) -> results { body; if c { break res } ; continue vars }
                let vtypes: Vec<Type> = (0..self.rng.next(3)).map(|_| self.rng.ty()).collect();
                let rtypes: Vec<Type> = (0..self.rng.next(3)).map(|_| self.rng.ty()).collect();
                let init: Vec<Operand> = vtypes.iter().map(|t| self.operand(*t)).collect();
                let mark = self.scope.len();
                let params: Vec<Value> = vtypes.iter().map(|t| self.define(*t)).collect();
                let mut body = Vec::new();
                for _ in 0..self.rng.next(3) {
                    self.instr(depth + 1, &mut body);
                }
                let cond = self.operand(Type::I1);
                let inner = self.scope.len();
                let brk: Vec<Operand> = rtypes.iter().map(|t| self.operand(*t)).collect();
                self.scope.truncate(inner);
                body.push(instr(
                    smallvec![],
                    InstrKind::If {
                        cond,
                        then_region: Region {
                            instrs: vec![instr(smallvec![], InstrKind::Break(brk))],
                        },
                        else_region: Region::default(),
                    },
                ));
                let cont: Vec<Operand> = vtypes.iter().map(|t| self.operand(*t)).collect();
                if !cont.is_empty() || self.rng.chance(50) {
                    body.push(instr(smallvec![], InstrKind::Continue(cont)));
                }
                self.scope.truncate(mark);
                let results = rtypes.iter().map(|t| self.define(*t)).collect();
                out.push(instr(
                    results,
                    InstrKind::Loop {
                        params,
                        init,
                        body: Region { instrs: body },
                    },
                ));
            }
        }
    }

    fn results(&mut self, params: &[SigParam]) -> SmallVec<[Value; 2]> {
        params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| self.define(p.ty))
            .collect()
    }

    fn arm(&mut self, depth: u32, types: &[Type]) -> Region {
        let mark = self.scope.len();
        let mut instrs = Vec::new();
        for _ in 0..self.rng.next(3) {
            self.instr(depth + 1, &mut instrs);
        }
        if !types.is_empty() || self.rng.chance(30) {
            let ops = types.iter().map(|t| self.operand(*t)).collect();
            instrs.push(instr(smallvec![], InstrKind::Yield(ops)));
        }
        self.scope.truncate(mark);
        Region { instrs }
    }
}

fn instr(results: SmallVec<[Value; 2]>, kind: InstrKind) -> Instr {
    Instr {
        results,
        kind,
        span: Span::default(),
    }
}

fn op(
    opcode: Opcode,
    ty: Option<Type>,
    extra: Extra,
    args: SmallVec<[Operand; 3]>,
    result: Option<Value>,
) -> Instr {
    instr(
        result.into_iter().collect(),
        InstrKind::Op(OpInstr {
            opcode,
            ty,
            extra,
            args,
        }),
    )
}

fn gen_iface(rng: &mut Rng, kernel: bool) -> Iface {
    let params = (0..rng.next(4))
        .map(|_| {
            let ret = !kernel && rng.chance(30);
            SigParam {
                ty: rng.ty(),
                attrs: ParamAttrs {
                    uniform: !ret && rng.chance(30),
                    discardable: rng.chance(20),
                    ret,
                },
            }
        })
        .collect();
    let abi = match rng.next(6) {
        0 => Some(Abi::RtRecursive),
        1 => Some(Abi::Traversal),
        2 => Some(Abi::AhitIsec),
        3 => Some(Abi::Named("my_abi".into())),
        _ => None,
    };
    let has_ret = |p: &Vec<SigParam>| p.iter().any(|p| p.attrs.ret);
    let noreturn = !has_ret(&params) && rng.chance(15);
    Iface {
        params,
        attrs: FuncAttrs {
            kernel,
            abi,
            divergent_call: rng.chance(30),
            noreturn,
        },
    }
}

fn gen_module(data: &[u32]) -> Module {
    let mut rng = Rng { data, pos: 0 };
    let sigs: Vec<(String, Iface)> = (0..rng.next(3))
        .map(|i| (format!("s{i}"), gen_iface(&mut rng, false)))
        .collect();
    let funcs: Vec<(String, Iface)> = (0..1 + rng.next(3))
        .map(|i| {
            let kernel = rng.chance(25);
            (format!("f{i}"), gen_iface(&mut rng, kernel))
        })
        .collect();
    let mut module = Module {
        sigs: sigs
            .iter()
            .map(|(n, i)| Signature {
                name: n.clone(),
                params: i.params.clone(),
                attrs: i.attrs.clone(),
                span: Span::default(),
            })
            .collect(),
        functions: Vec::new(),
    };
    for (name, iface) in &funcs {
        let mut g = FnGen {
            rng: &mut rng,
            values: Vec::new(),
            scope: Vec::new(),
            funcs: &funcs,
            sigs: &sigs,
            next_name: 0,
        };
        let params: Vec<Param> = iface
            .params
            .iter()
            .map(|p| Param {
                value: g.define(p.ty),
                attrs: p.attrs,
            })
            .collect();
        let mut body = Vec::new();
        for _ in 0..g.rng.next(6) {
            g.instr(0, &mut body);
        }
        let rets: Vec<Type> = iface
            .params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| p.ty)
            .collect();
        if !rets.is_empty() || g.rng.chance(50) {
            let ops = rets.iter().map(|t| g.operand(*t)).collect();
            body.push(instr(smallvec![], InstrKind::Ret(ops)));
        }
        module.functions.push(Function {
            name: name.clone(),
            params,
            attrs: iface.attrs.clone(),
            values: g.values,
            body: Region { instrs: body },
            span: Span::default(),
        });
    }
    module
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn print_parse_round_trip(data in prop::collection::vec(any::<u32>(), 1..64)) {
        let m = gen_module(&data);
        if let Err(e) = verify(&m) {
            panic!("generated module does not verify: {:?}\n{}", e.0, print(&m));
        }
        let text = print(&m);
        let parsed = match parse(&text) {
            Ok(p) => p,
            Err(e) => panic!("{}", e.0.render("gen.gsir", &text)),
        };
        prop_assert_eq!(&parsed, &m, "{}", text);
        prop_assert_eq!(print(&parsed), text);
        // Running any kernel of a verified module ends in a result or a runtime error,
        // never a panic (random pointers, function addresses and endless loops included).
        let program = gpuabi_ir::Program::new(&m).unwrap();
        let limits = gpuabi_ir::Limits { max_steps: 2_000, max_call_depth: 16, ..Default::default() };
        for f in m.functions.iter().filter(|f| f.attrs.kernel) {
            let mut mem = gpuabi_ir::Memory::new(1 << 16);
            let buf = mem.add("b", vec![0; 64]).unwrap();
            let args: Vec<u64> = f.params.iter().map(|p| if f.ty(p.value) == Type::Ptr { buf } else { 1 }).collect();
            let _ = program.dispatch(&f.name, &args, &gpuabi_ir::Dispatch::linear(2, 1), &mut mem, &limits);
        }
    }
}

#[test]
fn generator_makes_varied_modules() {
    // Guard against a generator that degenerates to empty modules (the round trip would
    // then prove nothing): over a few seeds we must see every kind of structure.
    let mut text = String::new();
    for seed in 0..40u32 {
        let data: Vec<u32> = (0..48)
            .map(|i| seed.wrapping_mul(2_654_435_761).wrapping_add(i * 40503) ^ (i << 7))
            .collect();
        text.push_str(&print(&gen_module(&data)));
    }
    if std::env::var_os("SHOW_GENERATED").is_some() {
        println!("{text}");
    }
    for needle in [
        "loop (",
        "} else {",
        "call @",
        "call_indirect $",
        "func_addr @",
        "alloca",
        " return",
        "abi(",
        "continue",
        "break",
        "yield",
        "0x7fc00000",
    ] {
        assert!(
            text.contains(needle),
            "no `{needle}` in generated modules:\n{text}"
        );
    }
}
