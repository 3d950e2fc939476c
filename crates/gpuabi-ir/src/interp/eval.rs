//! The interpreter loop: runs one invocation to completion.

use super::builtins;
use super::compile::{function_index, CFunc, Code};
use super::error::{RunError, RunErrorKind};
use super::float;
use super::limits::{Limits, MAX_FRAME_SLOTS};
use super::memory::Memory;
use super::Program;
use crate::ir::Cond;

/// A suspended caller.
#[derive(Debug, Clone, Copy)]
struct Frame {
    func: u32,
    pc: u32,
    bp: u32,
    sp: u32,
    /// Caller's pool index of the call's argument slots (result slots follow).
    pool: u32,
}

/// Reusable per-invocation state (registers, call stack, stack arrays).
#[derive(Debug, Default)]
pub(crate) struct Machine {
    regs: Vec<u64>,
    frames: Vec<Frame>,
    scratch: Vec<u8>,
}

#[inline(always)]
fn mask(w: u8) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Sign-extends the low `w` bits.
#[inline(always)]
fn sx(v: u64, w: u8) -> i64 {
    let s = 64 - u32::from(w.clamp(1, 64));
    ((v << s) as i64) >> s
}

#[inline(always)]
fn f(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

#[inline(always)]
fn fb(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn icmp(c: Cond, a: u64, b: u64, w: u8) -> bool {
    match c {
        Cond::Eq => a == b,
        Cond::Ne => a != b,
        Cond::Ult => a < b,
        Cond::Ule => a <= b,
        Cond::Ugt => a > b,
        Cond::Uge => a >= b,
        Cond::Slt => sx(a, w) < sx(b, w),
        Cond::Sle => sx(a, w) <= sx(b, w),
        Cond::Sgt => sx(a, w) > sx(b, w),
        Cond::Sge => sx(a, w) >= sx(b, w),
        _ => false,
    }
}

fn fcmp(c: Cond, a: f32, b: f32) -> bool {
    match c {
        Cond::Oeq => a == b,
        Cond::Une => a != b,
        Cond::Olt => a < b,
        Cond::Ole => a <= b,
        Cond::Ogt => a > b,
        Cond::Oge => a >= b,
        Cond::Ord => !a.is_nan() && !b.is_nan(),
        Cond::Uno => a.is_nan() || b.is_nan(),
        _ => false,
    }
}

impl Machine {
    /// Runs kernel `kernel` for one invocation; returns the number of executed steps.
    pub(crate) fn run(
        &mut self,
        prog: &Program,
        kernel: usize,
        args: &[u64],
        dispatch: &[u64; builtins::COUNT],
        mem: &mut Memory,
        limits: &Limits,
    ) -> Result<u64, RunError> {
        // The registers live in a local for the loop: the compiler then keeps their base and
        // length in registers instead of reloading them through `self`.
        let mut regs = std::mem::take(&mut self.regs);
        let r = self.run_with(&mut regs, prog, kernel, args, dispatch, mem, limits);
        self.regs = regs;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn run_with(
        &mut self,
        regs: &mut Vec<u64>,
        prog: &Program,
        kernel: usize,
        args: &[u64],
        dispatch: &[u64; builtins::COUNT],
        mem: &mut Memory,
        limits: &Limits,
    ) -> Result<u64, RunError> {
        let funcs = &prog.funcs;
        let mut fi = kernel;
        let mut func: &CFunc = &funcs[fi];
        let mut pc: usize = 0;
        let mut bp: usize = 0;
        let mut sp: usize = 0;
        let mut steps: u64 = 0;
        self.frames.clear();
        let fail = |m: &Machine, kind: RunErrorKind, fi: usize, pc: usize| -> RunError {
            let func = &funcs[fi];
            RunError {
                kind,
                invocation: [dispatch[6] as u32, dispatch[7] as u32, dispatch[8] as u32],
                function: func.name.clone(),
                span: func
                    .spans
                    .get(pc.wrapping_sub(1))
                    .copied()
                    .unwrap_or_default(),
                call_stack: m
                    .frames
                    .iter()
                    .rev()
                    .map(|fr| funcs[fr.func as usize].name.clone())
                    .collect(),
            }
        };
        if func.frame_bytes > limits.max_stack_bytes {
            return Err(fail(
                self,
                RunErrorKind::StackBytes {
                    need: func.frame_bytes.into(),
                    limit: limits.max_stack_bytes,
                },
                fi,
                0,
            ));
        }
        self.enter(regs, func, 0, 0);
        for (slot, v) in func.param_slots.iter().zip(args) {
            regs[*slot as usize] = *v;
        }
        let max_steps = limits.max_steps;
        macro_rules! r {
            ($s:expr) => {
                regs[bp + $s as usize]
            };
        }
        macro_rules! err {
            ($kind:expr) => {
                return Err(fail(self, $kind, fi, pc))
            };
        }
        loop {
            steps += 1;
            if steps > max_steps {
                err!(RunErrorKind::StepLimit(max_steps));
            }
            let i = func.code[pc];
            pc += 1;
            let w = i.w;
            let v = match i.code {
                Code::Copy => r!(i.a),
                Code::Add => r!(i.a).wrapping_add(r!(i.b)) & mask(w),
                Code::Sub => r!(i.a).wrapping_sub(r!(i.b)) & mask(w),
                Code::Mul => r!(i.a).wrapping_mul(r!(i.b)) & mask(w),
                Code::Udiv | Code::Urem => {
                    let b = r!(i.b);
                    if b == 0 {
                        err!(RunErrorKind::DivisionByZero);
                    }
                    if i.code == Code::Udiv {
                        r!(i.a) / b
                    } else {
                        r!(i.a) % b
                    }
                }
                Code::Sdiv | Code::Srem => {
                    let b = sx(r!(i.b), w);
                    if b == 0 {
                        err!(RunErrorKind::DivisionByZero);
                    }
                    let a = sx(r!(i.a), w);
                    let q = if i.code == Code::Sdiv {
                        a.wrapping_div(b)
                    } else {
                        a.wrapping_rem(b)
                    };
                    q as u64 & mask(w)
                }
                Code::And => r!(i.a) & r!(i.b),
                Code::Or => r!(i.a) | r!(i.b),
                Code::Xor => r!(i.a) ^ r!(i.b),
                Code::Shl => (r!(i.a) << (r!(i.b) % u64::from(w))) & mask(w),
                Code::Lshr => r!(i.a) >> (r!(i.b) % u64::from(w)),
                Code::Ashr => (sx(r!(i.a), w) >> (r!(i.b) % u64::from(w))) as u64 & mask(w),
                Code::Umin => r!(i.a).min(r!(i.b)),
                Code::Umax => r!(i.a).max(r!(i.b)),
                Code::Smin => sx(r!(i.a), w).min(sx(r!(i.b), w)) as u64 & mask(w),
                Code::Smax => sx(r!(i.a), w).max(sx(r!(i.b), w)) as u64 & mask(w),
                Code::Not => !r!(i.a) & mask(w),
                Code::Neg => r!(i.a).wrapping_neg() & mask(w),
                Code::Popcount => u64::from(r!(i.a).count_ones()),
                Code::Fadd => u64::from(float::fadd(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Fsub => u64::from(float::fsub(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Fmul => u64::from(float::fmul(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Fdiv => u64::from(float::fdiv(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Fmin => u64::from(float::fmin(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Fmax => u64::from(float::fmax(r!(i.a) as u32, r!(i.b) as u32)),
                Code::Ffma => {
                    u64::from(float::ffma(r!(i.a) as u32, r!(i.b) as u32, r!(i.c) as u32))
                }
                Code::Fneg => u64::from(float::fneg(r!(i.a) as u32)),
                Code::Fabs => u64::from(float::fabs(r!(i.a) as u32)),
                Code::Fsqrt => u64::from(float::fsqrt(r!(i.a) as u32)),
                Code::Frsq => u64::from(float::frsq(r!(i.a) as u32)),
                Code::Ffloor => u64::from(float::ffloor(r!(i.a) as u32)),
                Code::Fceil => u64::from(float::fceil(r!(i.a) as u32)),
                Code::Ftrunc => u64::from(float::ftrunc(r!(i.a) as u32)),
                Code::Ffract => u64::from(float::ffract(r!(i.a) as u32)),
                Code::Fsin => u64::from(float::fsin(r!(i.a) as u32)),
                Code::Fcos => u64::from(float::fcos(r!(i.a) as u32)),
                Code::Fexp2 => u64::from(float::fexp2(r!(i.a) as u32)),
                Code::Flog2 => u64::from(float::flog2(r!(i.a) as u32)),
                Code::Icmp(c) => u64::from(icmp(c, r!(i.a), r!(i.b), w)),
                Code::Fcmp(c) => u64::from(fcmp(c, f(r!(i.a)), f(r!(i.b)))),
                Code::Select => {
                    if r!(i.a) & 1 != 0 {
                        r!(i.b)
                    } else {
                        r!(i.c)
                    }
                }
                Code::Sext => sx(r!(i.a), w) as u64 & mask(i.c as u8),
                Code::Trunc => r!(i.a) & mask(w),
                Code::Sitofp => fb(sx(r!(i.a), w) as f32),
                Code::Uitofp => fb(r!(i.a) as f32),
                Code::Fptosi => {
                    let x = f(r!(i.a));
                    if w == 64 {
                        x as i64 as u64
                    } else {
                        u64::from(x as i32 as u32)
                    }
                }
                Code::Fptoui => {
                    let x = f(r!(i.a));
                    if w == 64 {
                        x as u64
                    } else {
                        u64::from(x as u32)
                    }
                }
                Code::Ptradd32 => r!(i.a).wrapping_add(sx(r!(i.b), 32) as u64),
                Code::Ptradd64 => r!(i.a).wrapping_add(r!(i.b)),
                Code::Load => {
                    let n = usize::from(w / 8);
                    let bytes = match mem.bytes(r!(i.a), n) {
                        Ok(b) => b,
                        Err(k) => err!(k),
                    };
                    let mut buf = [0u8; 8];
                    buf[..n].copy_from_slice(bytes);
                    let v = u64::from_le_bytes(buf);
                    if i.c == 1 {
                        sx(v, w) as u64 & mask(32)
                    } else {
                        v
                    }
                }
                Code::Store => {
                    let n = usize::from(w / 8);
                    let val = r!(i.a).to_le_bytes();
                    match mem.bytes(r!(i.b), n) {
                        Ok(b) => b.copy_from_slice(&val[..n]),
                        Err(k) => err!(k),
                    }
                    continue;
                }
                Code::Alloca => (((sp + i.a as usize) as u64) << 32) | u64::from(i.b),
                Code::Sload | Code::Sstore => {
                    let (h, off) = if i.code == Code::Sload {
                        (r!(i.a), r!(i.b))
                    } else {
                        (r!(i.b), r!(i.c))
                    };
                    let n = u32::from(w / 8);
                    let size = h as u32;
                    let off = sx(off, 32);
                    if off < 0 || off + i64::from(n) > i64::from(size) {
                        err!(RunErrorKind::StackOutOfBounds {
                            offset: off,
                            len: n,
                            size
                        });
                    }
                    let at = (h >> 32) as usize + off as usize;
                    let n = n as usize;
                    if i.code == Code::Sload {
                        let mut buf = [0u8; 8];
                        buf[..n].copy_from_slice(&self.scratch[at..at + n]);
                        u64::from_le_bytes(buf)
                    } else {
                        let val = r!(i.a).to_le_bytes();
                        self.scratch[at..at + n].copy_from_slice(&val[..n]);
                        continue;
                    }
                }
                Code::Builtin => dispatch[i.a as usize],
                Code::JumpIfNot => {
                    if r!(i.a) & 1 == 0 {
                        pc = i.c as usize;
                    }
                    continue;
                }
                Code::Copies => {
                    let n = i.b as usize;
                    let pool = &func.pool[i.a as usize..i.a as usize + 2 * n];
                    if n == 1 {
                        r!(pool[0]) = r!(pool[1]);
                    } else if n > 1 {
                        // Parallel copy: read every source before writing any destination.
                        let mut tmp = [0u64; 16];
                        if n <= 16 {
                            for k in 0..n {
                                tmp[k] = r!(pool[2 * k + 1]);
                            }
                            for k in 0..n {
                                r!(pool[2 * k]) = tmp[k];
                            }
                        } else {
                            let vals: Vec<u64> = (0..n).map(|k| r!(pool[2 * k + 1])).collect();
                            for (k, v) in vals.into_iter().enumerate() {
                                r!(pool[2 * k]) = v;
                            }
                        }
                    }
                    pc = i.c as usize;
                    continue;
                }
                Code::Call | Code::CallIndirect => {
                    let callee = if i.code == Code::Call {
                        i.a as usize
                    } else {
                        let addr = r!(i.a);
                        let Some(idx) = function_index(addr, &prog.fn_addrs) else {
                            err!(RunErrorKind::NotAFunction(addr));
                        };
                        if prog.sig_shapes[i.c as usize] != prog.func_shapes[idx] {
                            err!(RunErrorKind::SignatureMismatch {
                                callee: funcs[idx].name.clone(),
                                sig: prog.sig_names[i.c as usize].clone(),
                            });
                        }
                        idx
                    };
                    if self.frames.len() as u32 >= limits.max_call_depth {
                        err!(RunErrorKind::CallDepth(limits.max_call_depth));
                    }
                    let g = &funcs[callee];
                    let new_sp = sp + func.frame_bytes as usize;
                    let need = new_sp as u64 + u64::from(g.frame_bytes);
                    if need > u64::from(limits.max_stack_bytes) {
                        err!(RunErrorKind::StackBytes {
                            need,
                            limit: limits.max_stack_bytes
                        });
                    }
                    let new_bp = bp + func.nregs as usize;
                    if new_bp + g.nregs as usize + 4 * (self.frames.len() + 1) > MAX_FRAME_SLOTS {
                        err!(RunErrorKind::FrameRegisters {
                            depth: self.frames.len() as u32
                        });
                    }
                    self.enter(regs, g, new_bp, new_sp);
                    for (k, slot) in g.param_slots.iter().enumerate() {
                        let src = func.pool[i.b as usize + k];
                        regs[new_bp + *slot as usize] = regs[bp + src as usize];
                    }
                    self.frames.push(Frame {
                        func: fi as u32,
                        pc: pc as u32,
                        bp: bp as u32,
                        sp: sp as u32,
                        pool: i.b,
                    });
                    fi = callee;
                    func = g;
                    pc = 0;
                    bp = new_bp;
                    sp = new_sp;
                    continue;
                }
                Code::Ret => {
                    if func.noreturn {
                        return Ok(steps);
                    }
                    let Some(fr) = self.frames.pop() else {
                        return Ok(steps);
                    };
                    let caller = &funcs[fr.func as usize];
                    let nargs = func.param_slots.len();
                    for k in 0..i.b as usize {
                        let src = func.pool[i.a as usize + k];
                        let dst = caller.pool[fr.pool as usize + nargs + k];
                        regs[fr.bp as usize + dst as usize] = regs[bp + src as usize];
                    }
                    fi = fr.func as usize;
                    func = caller;
                    pc = fr.pc as usize;
                    bp = fr.bp as usize;
                    sp = fr.sp as usize;
                    continue;
                }
                Code::Unreachable => err!(RunErrorKind::Unreachable),
            };
            r!(i.d) = v;
        }
    }

    /// Prepares the frame of `g` at register base `bp` and stack base `sp`.
    fn enter(&mut self, regs: &mut Vec<u64>, g: &CFunc, bp: usize, sp: usize) {
        let end = bp + g.nregs as usize;
        if regs.len() < end {
            regs.resize(end, 0);
        }
        let c = bp + g.nvalues as usize;
        regs[c..end].copy_from_slice(&g.consts);
        let send = sp + g.frame_bytes as usize;
        if self.scratch.len() < send {
            self.scratch.resize(send, 0);
        }
        self.scratch[sp..send].fill(0);
    }
}
