//! Lowering of a verified module to the interpreter's flat code.
//!
//! Each function becomes a list of [`Inst`] over frame slots: slot `i < values.len()` is
//! value `i`, the slots after it hold the function's literals (copied in at entry). The
//! code is the function's [`Cfg`] laid out in block order: a branch becomes a conditional
//! jump, a jump with arguments one parallel copy into the target's parameters plus jump.

use std::collections::HashMap;

use super::builtins;
use crate::cfg::{BlockId, Cfg, Inst as CInst, InstKind, Terminator};
use crate::ir::{Cond, Extra, Function, Module, OpInstr, Opcode, Operand, Span, Type, Value};

/// Interpreter operation codes; `w` of the instruction is the bit width where it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Code {
    Copy,
    Add,
    Sub,
    Mul,
    Udiv,
    Sdiv,
    Urem,
    Srem,
    And,
    Or,
    Xor,
    Shl,
    Lshr,
    Ashr,
    Umin,
    Umax,
    Smin,
    Smax,
    Not,
    Neg,
    Popcount,
    Fadd,
    Fsub,
    Fmul,
    Fdiv,
    Fmin,
    Fmax,
    Ffma,
    Fneg,
    Fabs,
    Fsqrt,
    Frsq,
    Ffloor,
    Fceil,
    Ftrunc,
    Ffract,
    Fsin,
    Fcos,
    Fexp2,
    Flog2,
    Icmp(Cond),
    Fcmp(Cond),
    Select,
    /// Sign extension from `w` bits, masked to `c` bits.
    Sext,
    /// Mask to `w` bits.
    Trunc,
    Sitofp,
    Uitofp,
    Fptosi,
    Fptoui,
    Ptradd32,
    Ptradd64,
    /// Global load of `w` bits; `c` = 1 sign-extends to 32.
    Load,
    /// Global store of `w` bits.
    Store,
    /// `d` = handle of the array at frame offset `a` of size `b`.
    Alloca,
    Sload,
    Sstore,
    /// `d` = dispatch value number `a`.
    Builtin,
    /// Jump to `c` when slot `a` is false.
    JumpIfNot,
    /// Parallel copy of `b` (dst, src) pairs at pool `a`, then jump to `c`.
    Copies,
    /// Call function `a`; pool at `b` holds the argument slots then the result slots.
    Call,
    /// Call through slot `a` with signature `c`; pool as for `Call`.
    CallIndirect,
    /// Return the `b` slots at pool `a`.
    Ret,
    Unreachable,
}

/// One interpreter instruction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inst {
    pub code: Code,
    pub w: u8,
    pub d: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

/// A function ready to run.
#[derive(Debug, Clone)]
pub(crate) struct CFunc {
    pub name: String,
    pub code: Vec<Inst>,
    pub spans: Vec<Span>,
    pub pool: Vec<u32>,
    /// Frame slots (values then literals).
    pub nregs: u32,
    pub nvalues: u32,
    pub consts: Vec<u64>,
    pub param_slots: Vec<u32>,
    pub frame_bytes: u32,
    pub noreturn: bool,
    pub kernel: bool,
}

/// Address `func_addr` gives function `index`: a tagged value no buffer address can equal.
pub fn function_address(index: usize) -> u64 {
    FN_TAG | ((index as u64) << 4)
}

const FN_TAG: u64 = 0x7fff_0000_0000_0000;

/// Index of the function at `addr` among the module's function addresses.
pub(crate) fn function_index(addr: u64, addrs: &[u64]) -> Option<usize> {
    addrs.iter().position(|&a| a == addr)
}

struct Lower<'m> {
    f: &'m Function,
    addrs: &'m [u64],
    out: CFunc,
    const_slots: HashMap<u64, u32>,
}

/// Lowers every function; `module` must have passed the verifier.
pub(crate) fn lower(module: &Module, addrs: &[u64]) -> Vec<CFunc> {
    module
        .functions
        .iter()
        .map(|f| {
            let mut l = Lower {
                f,
                addrs,
                out: CFunc {
                    name: f.name.clone(),
                    code: Vec::new(),
                    spans: Vec::new(),
                    pool: Vec::new(),
                    nregs: 0,
                    nvalues: f.values.len() as u32,
                    consts: Vec::new(),
                    param_slots: f.params.iter().map(|p| p.value.0).collect(),
                    frame_bytes: 0,
                    noreturn: f.attrs.noreturn,
                    kernel: f.attrs.kernel,
                },
                const_slots: HashMap::new(),
            };
            l.cfg(&Cfg::build(f));
            l.out.nregs = l.out.nvalues + l.out.consts.len() as u32;
            l.out
        })
        .collect()
}

/// Where each block's code starts once empty blocks are skipped.
struct Layout {
    /// For a block that holds only a jump without arguments: the block it ends up at.
    forward: Vec<Option<BlockId>>,
    /// The first block after each one that emits code (`None` after the last).
    next: Vec<Option<BlockId>>,
}

impl Layout {
    fn new(cfg: &Cfg) -> Layout {
        let n = cfg.blocks.len();
        let mut forward: Vec<Option<BlockId>> = cfg
            .blocks
            .iter()
            .map(|b| match &b.term {
                Terminator::Jump { target, args }
                    if b.insts.is_empty() && b.params.is_empty() && args.is_empty() =>
                {
                    Some(*target)
                }
                _ => None,
            })
            .collect();
        // Execution starts at the first instruction, which must be the entry's.
        forward[0] = None;
        // A cycle of empty blocks (`loop {}`) must keep one real jump.
        for b in 0..n {
            let mut at = BlockId(b as u32);
            let mut steps = 0;
            while let Some(t) = forward[at.index()] {
                at = t;
                steps += 1;
                if steps > n {
                    forward[b] = None;
                    break;
                }
            }
        }
        for b in 0..n {
            let mut at = BlockId(b as u32);
            while let Some(t) = forward[at.index()] {
                at = t;
            }
            if forward[b].is_some() {
                forward[b] = Some(at);
            }
        }
        let mut next = vec![None; n];
        let mut after = None;
        for b in (0..n).rev() {
            next[b] = after;
            if forward[b].is_none() {
                after = Some(BlockId(b as u32));
            }
        }
        Layout { forward, next }
    }

    /// The block whose code runs when control reaches `b`.
    fn resolve(&self, b: BlockId) -> BlockId {
        self.forward[b.index()].unwrap_or(b)
    }
}

impl Lower<'_> {
    #[allow(clippy::too_many_arguments)]
    fn emit(&mut self, code: Code, w: u32, d: u32, a: u32, b: u32, c: u32, span: Span) -> usize {
        self.out.code.push(Inst {
            code,
            w: w as u8,
            d,
            a,
            b,
            c,
        });
        self.out.spans.push(span);
        self.out.code.len() - 1
    }

    fn slot(&mut self, op: &Operand) -> u32 {
        match *op {
            Operand::Value(v) => v.0,
            Operand::Imm { bits, .. } => {
                if let Some(s) = self.const_slots.get(&bits) {
                    return *s;
                }
                let s = self.out.nvalues + self.out.consts.len() as u32;
                self.out.consts.push(bits);
                self.const_slots.insert(bits, s);
                s
            }
        }
    }

    /// Emits a parallel copy of `srcs` into `dsts` followed by a jump (target patched later).
    fn copies(&mut self, dsts: &[Value], srcs: &[Operand], span: Span) -> usize {
        let at = self.out.pool.len() as u32;
        for (d, s) in dsts.iter().zip(srcs) {
            let s = self.slot(s);
            self.out.pool.push(d.0);
            self.out.pool.push(s);
        }
        self.emit(Code::Copies, 0, 0, at, dsts.len() as u32, 0, span)
    }

    /// Emits the blocks in layout order. Blocks holding only a jump emit nothing, and a
    /// jump to the code that follows anyway is left out, so an `if` costs one conditional
    /// jump plus, when both arms have code, one jump over the else arm.
    fn cfg(&mut self, cfg: &Cfg) {
        let layout = Layout::new(cfg);
        let mut start = vec![0u32; cfg.blocks.len()];
        // (instruction, block it jumps to)
        let mut fixups: Vec<(usize, BlockId)> = Vec::new();
        for (k, b) in cfg.blocks.iter().enumerate() {
            if layout.forward[k].is_some() {
                continue;
            }
            start[k] = self.out.code.len() as u32;
            for i in &b.insts {
                self.inst(i);
            }
            let next = layout.next[k];
            let span = b.term_span;
            match &b.term {
                Terminator::Jump { target, args } => {
                    let to = layout.resolve(*target);
                    if !args.is_empty() || Some(to) != next {
                        let params = &cfg.block(*target).params;
                        let at = self.copies(params, args, span);
                        fixups.push((at, to));
                    }
                }
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                    ..
                } => {
                    let c = self.slot(cond);
                    let at = self.emit(Code::JumpIfNot, 0, 0, c, 0, 0, span);
                    fixups.push((at, layout.resolve(*else_block)));
                    let to = layout.resolve(*then_block);
                    if Some(to) != next {
                        let at = self.copies(&[], &[], span);
                        fixups.push((at, to));
                    }
                }
                Terminator::Return(ops) => {
                    let at = self.out.pool.len() as u32;
                    for o in ops {
                        let s = self.slot(o);
                        self.out.pool.push(s);
                    }
                    self.emit(Code::Ret, 0, 0, at, ops.len() as u32, 0, span);
                }
                Terminator::Unreachable => {
                    self.emit(Code::Unreachable, 0, 0, 0, 0, 0, span);
                }
            }
        }
        for (at, to) in fixups {
            self.out.code[at].c = start[to.index()];
        }
    }

    fn inst(&mut self, i: &CInst) {
        let span = i.span;
        let dst = i.results.first().map_or(0, |v| v.0);
        match &i.kind {
            InstKind::Op(op) => self.op(op, dst, span),
            InstKind::FuncAddr { func } => {
                let s = self.slot(&Operand::Imm {
                    ty: Type::Ptr,
                    bits: self.addrs[func.index()],
                });
                self.emit(Code::Copy, 0, dst, s, 0, 0, span);
            }
            InstKind::Call { callee, args } => {
                let at = self.call_pool(args, i);
                self.emit(Code::Call, 0, 0, callee.0, at, 0, span);
            }
            InstKind::CallIndirect { sig, callee, args } => {
                let c = self.slot(callee);
                let at = self.call_pool(args, i);
                self.emit(Code::CallIndirect, 0, 0, c, at, sig.0, span);
            }
        }
    }

    fn call_pool(&mut self, args: &[Operand], i: &CInst) -> u32 {
        let at = self.out.pool.len() as u32;
        for a in args {
            let s = self.slot(a);
            self.out.pool.push(s);
        }
        for r in &i.results {
            self.out.pool.push(r.0);
        }
        at
    }

    fn op(&mut self, op: &OpInstr, d: u32, span: Span) {
        let w = op.ty.map_or(32, |t| t.bits());
        let args: Vec<u32> = op.args.iter().map(|a| self.slot(a)).collect();
        let a = args.first().copied().unwrap_or(0);
        let b = args.get(1).copied().unwrap_or(0);
        let c = args.get(2).copied().unwrap_or(0);
        use Opcode as O;
        let code = match op.opcode {
            O::Const | O::Zext | O::Bitcast => Code::Copy,
            O::Add => Code::Add,
            O::Sub => Code::Sub,
            O::Mul => Code::Mul,
            O::Udiv => Code::Udiv,
            O::Sdiv => Code::Sdiv,
            O::Urem => Code::Urem,
            O::Srem => Code::Srem,
            O::And => Code::And,
            O::Or => Code::Or,
            O::Xor => Code::Xor,
            O::Shl => Code::Shl,
            O::Lshr => Code::Lshr,
            O::Ashr => Code::Ashr,
            O::Umin => Code::Umin,
            O::Umax => Code::Umax,
            O::Smin => Code::Smin,
            O::Smax => Code::Smax,
            O::Not => Code::Not,
            O::Neg => Code::Neg,
            O::Popcount => Code::Popcount,
            O::Fadd => Code::Fadd,
            O::Fsub => Code::Fsub,
            O::Fmul => Code::Fmul,
            O::Fdiv => Code::Fdiv,
            O::Fmin => Code::Fmin,
            O::Fmax => Code::Fmax,
            O::Ffma => Code::Ffma,
            O::Fneg => Code::Fneg,
            O::Fabs => Code::Fabs,
            O::Fsqrt => Code::Fsqrt,
            O::Frsq => Code::Frsq,
            O::Ffloor => Code::Ffloor,
            O::Fceil => Code::Fceil,
            O::Ftrunc => Code::Ftrunc,
            O::Ffract => Code::Ffract,
            O::Fsin => Code::Fsin,
            O::Fcos => Code::Fcos,
            O::Fexp2 => Code::Fexp2,
            O::Flog2 => Code::Flog2,
            O::Icmp | O::Fcmp => {
                let cond = match op.extra {
                    Extra::Cond(c) => c,
                    _ => Cond::Eq,
                };
                if op.opcode == O::Icmp {
                    Code::Icmp(cond)
                } else {
                    Code::Fcmp(cond)
                }
            }
            O::Select => Code::Select,
            O::Sext => {
                let to = match op.extra {
                    Extra::To(t) => t.bits(),
                    _ => 64,
                };
                self.emit(Code::Sext, w, d, a, 0, to, span);
                return;
            }
            O::Trunc => {
                let to = match op.extra {
                    Extra::To(t) => t.bits(),
                    _ => 32,
                };
                self.emit(Code::Trunc, to, d, a, 0, 0, span);
                return;
            }
            O::Sitofp => Code::Sitofp,
            O::Uitofp => Code::Uitofp,
            O::Fptosi | O::Fptoui => {
                let to = match op.extra {
                    Extra::To(t) => t.bits(),
                    _ => 32,
                };
                let code = if op.opcode == O::Fptosi {
                    Code::Fptosi
                } else {
                    Code::Fptoui
                };
                self.emit(code, to, d, a, 0, 0, span);
                return;
            }
            O::Ptradd => {
                let off_ty = match op.args[1] {
                    Operand::Value(v) => self.f.ty(v),
                    Operand::Imm { ty, .. } => ty,
                };
                if off_ty == Type::I32 {
                    Code::Ptradd32
                } else {
                    Code::Ptradd64
                }
            }
            O::Load => Code::Load,
            O::LoadU8 | O::LoadS8 | O::LoadU16 | O::LoadS16 => {
                let bits = if matches!(op.opcode, O::LoadU8 | O::LoadS8) {
                    8
                } else {
                    16
                };
                let signed = matches!(op.opcode, O::LoadS8 | O::LoadS16);
                self.emit(Code::Load, bits, d, a, 0, u32::from(signed), span);
                return;
            }
            O::Store => Code::Store,
            O::Store8 | O::Store16 => {
                let bits = if op.opcode == O::Store8 { 8 } else { 16 };
                self.emit(Code::Store, bits, 0, a, b, 0, span);
                return;
            }
            O::Alloca => {
                let size = match op.extra {
                    Extra::Imm(n) => n,
                    _ => 0,
                };
                let offset = self.out.frame_bytes;
                // Keep arrays 8-byte aligned within the frame.
                self.out.frame_bytes = offset + size.div_ceil(8) * 8;
                self.emit(Code::Alloca, 0, d, offset, size, 0, span);
                return;
            }
            O::Sload => Code::Sload,
            O::Sstore => Code::Sstore,
            O::LocalId
            | O::GroupId
            | O::GlobalId
            | O::GroupSize
            | O::NumGroups
            | O::GlobalSize
            | O::WorkDim
            | O::GlobalOffset => {
                let dim = match op.extra {
                    Extra::Imm(n) => n,
                    _ => 0,
                };
                self.emit(
                    Code::Builtin,
                    0,
                    d,
                    builtins::index(op.opcode, dim),
                    0,
                    0,
                    span,
                );
                return;
            }
        };
        self.emit(code, w, d, a, b, c, span);
    }
}
