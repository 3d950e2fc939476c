//! f32 operations with the IR's bit-exact results.
//!
//! LangRef ("Behavior of Floating-Point NaN values") lets an operation whose result is NaN
//! return any of several NaNs; the IR defines exactly one (its NaN rule: the first NaN
//! operand quieted, else `0x7fc00000`). Each operation is therefore followed by a select of
//! that NaN when the result is NaN; the selects look only at bits, which LLVM keeps.

use gpuabi_ir::interp::float::{DEFAULT_NAN, INV_TWO_PI};
use gpuabi_ir::ir::{OpInstr, Opcode, Type};

use crate::function::FnBuilder;
use crate::names;

/// The quiet bit of an f32 NaN.
const QUIET: u32 = 1 << 22;

/// The NaN AMD's `v_div_fixup_f32` writes for `0/0` and `inf/inf`, which the IR's `fdiv`
/// gives.
const DIV_INVALID_NAN: u32 = 0xffc0_0000;

/// Operations that are one LLVM instruction before the NaN rule.
const BINARY: &[(Opcode, &str)] = &[
    (Opcode::Fadd, "fadd"),
    (Opcode::Fsub, "fsub"),
    (Opcode::Fmul, "fmul"),
];

/// One-operand operations that are one intrinsic before the NaN rule. `llvm.amdgcn.exp2`
/// and `llvm.amdgcn.log` are `v_exp_f32`/`v_log_f32`, which the IR's `fexp2`/`flog2` model.
const UNARY: &[(Opcode, &str)] = &[
    (Opcode::Fsqrt, "llvm.sqrt.f32"),
    (Opcode::Ffloor, "llvm.floor.f32"),
    (Opcode::Fceil, "llvm.ceil.f32"),
    (Opcode::Ftrunc, "llvm.trunc.f32"),
    (Opcode::Fexp2, "llvm.amdgcn.exp2.f32"),
    (Opcode::Flog2, "llvm.amdgcn.log.f32"),
];

/// True for the f32 arithmetic operations written here (`fcmp` is a comparison).
pub(crate) fn is_float(op: Opcode) -> bool {
    let info = op.info();
    op != Opcode::Fcmp
        && info
            .args
            .iter()
            .all(|a| *a == gpuabi_ir::ir::instr::ArgTy::Is(Type::F32))
        && info.result == gpuabi_ir::ir::instr::ResTy::Is(Type::F32)
}

/// An i32 literal of bits.
fn i32_lit(bits: u32) -> String {
    (bits as i32).to_string()
}

impl FnBuilder<'_> {
    pub(crate) fn float_op(&mut self, op: &OpInstr) -> Option<String> {
        let args: Vec<String> = op.args.iter().map(|a| self.operand(a)).collect();
        if let Some(i) = BINARY
            .iter()
            .find(|(o, _)| *o == op.opcode)
            .map(|(_, i)| *i)
        {
            let r = self.def(&format!("{i} float {}, {}", args[0], args[1]));
            return Some(self.nan_rule(&r, &args));
        }
        if let Some(name) = UNARY.iter().find(|(o, _)| *o == op.opcode).map(|(_, n)| *n) {
            let r = self.intrinsic("float", name, &[("float", &args[0])]);
            return Some(self.nan_rule(&r, &args));
        }
        Some(match op.opcode {
            Opcode::Fdiv => self.fdiv(&args[0], &args[1]),
            Opcode::Fmin => self.min_max(&args[0], &args[1], true),
            Opcode::Fmax => self.min_max(&args[0], &args[1], false),
            Opcode::Ffma => {
                let list: Vec<(&str, &str)> = args.iter().map(|a| ("float", a.as_str())).collect();
                let r = self.intrinsic("float", "llvm.fma.f32", &list);
                self.nan_rule(&r, &args)
            }
            // LangRef: `fneg` and `llvm.fabs` change only the sign bit, NaNs included.
            Opcode::Fneg => self.def(&format!("fneg float {}", args[0])),
            Opcode::Fabs => self.intrinsic("float", "llvm.fabs.f32", &[("float", &args[0])]),
            Opcode::Frsq => {
                let root = self.intrinsic("float", "llvm.sqrt.f32", &[("float", &args[0])]);
                let root = self.nan_rule(&root, &args);
                let one = names::literal(Type::F32, 1.0f32.to_bits().into()).unwrap_or_default();
                self.fdiv(&one, &root)
            }
            Opcode::Ffract => {
                let fl = self.intrinsic("float", "llvm.floor.f32", &[("float", &args[0])]);
                let fl = self.nan_rule(&fl, &args);
                let r = self.def(&format!("fsub float {}, {fl}", args[0]));
                self.nan_rule(&r, &[args[0].clone(), fl])
            }
            Opcode::Fsin | Opcode::Fcos => {
                let name = if op.opcode == Opcode::Fsin {
                    "llvm.amdgcn.sin.f32"
                } else {
                    "llvm.amdgcn.cos.f32"
                };
                let k = names::literal(Type::F32, INV_TWO_PI.into()).unwrap_or_default();
                let t = self.def(&format!("fmul float {}, {k}", args[0]));
                let t = self.nan_rule(&t, &[args[0].clone(), k]);
                let s = self.intrinsic("float", name, &[("float", &t)]);
                if self.options.loose_nans {
                    return Some(s);
                }
                // An infinite or NaN number of revolutions gives the NaN rule's NaN of `t`.
                let abs = self.intrinsic("float", "llvm.fabs.f32", &[("float", &t)]);
                let finite = self.def(&format!("fcmp one float {abs}, 0x7FF0000000000000"));
                let nan = self.nan_pick(&[t]);
                self.def(&format!("select i1 {finite}, float {s}, float {nan}"))
            }
            _ => return None,
        })
    }

    /// The NaN the NaN rule picks for operands `ops`: the first NaN quieted, else the
    /// default NaN.
    fn nan_pick(&mut self, ops: &[String]) -> String {
        let mut pick = i32_lit(DEFAULT_NAN);
        for x in ops.iter().rev() {
            let bits = self.def(&format!("bitcast float {x} to i32"));
            let quiet = self.def(&format!("or i32 {bits}, {}", i32_lit(QUIET)));
            let is_nan = self.def(&format!("fcmp uno float {x}, 0.0"));
            pick = self.def(&format!("select i1 {is_nan}, i32 {quiet}, i32 {pick}"));
        }
        self.def(&format!("bitcast i32 {pick} to float"))
    }

    /// `r`, or the NaN rule's NaN of `ops` when `r` is NaN.
    fn nan_rule(&mut self, r: &str, ops: &[String]) -> String {
        if self.options.loose_nans {
            return r.to_string();
        }
        let nan = self.nan_pick(ops);
        let is_nan = self.def(&format!("fcmp uno float {r}, 0.0"));
        self.def(&format!("select i1 {is_nan}, float {nan}, float {r}"))
    }

    /// Correctly rounded `a / b` (no fast-math flags; IEEE denormals in the function's
    /// attributes) with the IR's NaNs.
    fn fdiv(&mut self, a: &str, b: &str) -> String {
        let q = self.def(&format!("fdiv float {a}, {b}"));
        if self.options.loose_nans {
            return q;
        }
        let q = self.nan_rule(&q, &[a.to_string(), b.to_string()]);
        let za = self.def(&format!("fcmp oeq float {a}, 0.0"));
        let zb = self.def(&format!("fcmp oeq float {b}, 0.0"));
        let zeros = self.def(&format!("and i1 {za}, {zb}"));
        let abs_a = self.intrinsic("float", "llvm.fabs.f32", &[("float", a)]);
        let abs_b = self.intrinsic("float", "llvm.fabs.f32", &[("float", b)]);
        let ia = self.def(&format!("fcmp oeq float {abs_a}, 0x7FF0000000000000"));
        let ib = self.def(&format!("fcmp oeq float {abs_b}, 0x7FF0000000000000"));
        let infs = self.def(&format!("and i1 {ia}, {ib}"));
        let invalid = self.def(&format!("or i1 {zeros}, {infs}"));
        let nan = self.def(&format!(
            "bitcast i32 {} to float",
            i32_lit(DIV_INVALID_NAN)
        ));
        self.def(&format!("select i1 {invalid}, float {nan}, float {q}"))
    }

    /// `v_min_f32`/`v_max_f32` in IEEE mode, as the IR defines them: a signalling NaN gives
    /// itself quieted (`a` checked first), a quiet NaN gives the other operand, and -0
    /// orders below +0.
    fn min_max(&mut self, a: &str, b: &str, min: bool) -> String {
        if self.options.loose_nans {
            let name = if min {
                "llvm.minnum.f32"
            } else {
                "llvm.maxnum.f32"
            };
            return self.intrinsic("float", name, &[("float", a), ("float", b)]);
        }
        let q = i32_lit(QUIET);
        let ai = self.def(&format!("bitcast float {a} to i32"));
        let bi = self.def(&format!("bitcast float {b} to i32"));
        let a_nan = self.def(&format!("fcmp uno float {a}, 0.0"));
        let b_nan = self.def(&format!("fcmp uno float {b}, 0.0"));
        let mut signalling = Vec::new();
        for (bits, nan) in [(&ai, &a_nan), (&bi, &b_nan)] {
            let quiet_bit = self.def(&format!("and i32 {bits}, {q}"));
            let no_quiet = self.def(&format!("icmp eq i32 {quiet_bit}, 0"));
            let snan = self.def(&format!("and i1 {nan}, {no_quiet}"));
            let quieted = self.def(&format!("or i32 {bits}, {q}"));
            signalling.push((snan, quieted));
        }
        let eq = self.def(&format!("fcmp oeq float {a}, {b}"));
        let (order, sign) = if min { ("olt", "slt") } else { ("ogt", "sge") };
        let before = self.def(&format!("fcmp {order} float {a}, {b}"));
        // Equal values differ only for ±0: the sign bit decides.
        let a_sign = self.def(&format!("icmp {sign} i32 {ai}, 0"));
        let a_first = self.def(&format!("select i1 {eq}, i1 {a_sign}, i1 {before}"));
        let r = self.def(&format!("select i1 {a_first}, i32 {ai}, i32 {bi}"));
        let r = self.def(&format!("select i1 {b_nan}, i32 {ai}, i32 {r}"));
        let r = self.def(&format!("select i1 {a_nan}, i32 {bi}, i32 {r}"));
        let (b_snan, b_quieted) = &signalling[1];
        let r = self.def(&format!("select i1 {b_snan}, i32 {b_quieted}, i32 {r}"));
        let (a_snan, a_quieted) = &signalling[0];
        let r = self.def(&format!("select i1 {a_snan}, i32 {a_quieted}, i32 {r}"));
        self.def(&format!("bitcast i32 {r} to float"))
    }
}
