//! Flattening of a structured body into blocks.
//!
//! Blocks are allocated when their construct is entered (an `if` allocates its arms and
//! merge before lowering the arms, so a `yield` knows where to jump) and placed in the
//! layout when code starts filling them; the ids are renumbered into layout order at the
//! end.

use super::{
    Block, BlockId, BlockKind, Cfg, IfId, IfInfo, Inst, InstKind, LoopId, LoopInfo, Terminator,
};
use crate::ir::{Function, Instr, InstrKind, Region, Span, Value};

/// A block under construction: its terminator is `None` while code is still added.
struct Open {
    kind: BlockKind,
    params: Vec<Value>,
    insts: Vec<Inst>,
    term: Option<(Terminator, Span)>,
    in_loop: Option<LoopId>,
}

/// The constructs around the code being lowered, innermost last.
enum Ctx {
    If { merge: BlockId },
    Loop { header: BlockId, exit: BlockId },
}

struct Builder {
    /// Blocks by allocation number.
    blocks: Vec<Open>,
    /// Allocation numbers in layout order.
    layout: Vec<u32>,
    /// Allocation number of the block being filled.
    cur: u32,
    ifs: Vec<IfInfo>,
    loops: Vec<LoopInfo>,
    ctx: Vec<Ctx>,
    loop_stack: Vec<LoopId>,
}

pub(super) fn build(f: &Function) -> Cfg {
    let mut b = Builder {
        blocks: Vec::new(),
        layout: Vec::new(),
        cur: 0,
        ifs: Vec::new(),
        loops: Vec::new(),
        ctx: Vec::new(),
        loop_stack: Vec::new(),
    };
    let entry = b.alloc(BlockKind::Entry, Vec::new());
    b.start(entry);
    b.region(&f.body);
    let span = f.body.instrs.last().map_or(f.span, |i| i.span);
    b.terminate(Terminator::Return(Vec::new()), span);
    b.finish()
}

impl Builder {
    fn alloc(&mut self, kind: BlockKind, params: Vec<Value>) -> BlockId {
        self.blocks.push(Open {
            kind,
            params,
            insts: Vec::new(),
            term: None,
            in_loop: None,
        });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Places `b` next in the layout and makes it the block being filled.
    fn start(&mut self, b: BlockId) {
        self.layout.push(b.0);
        self.cur = b.0;
        self.blocks[b.index()].in_loop = self.loop_stack.last().copied();
    }

    fn is_open(&self) -> bool {
        self.blocks[self.cur as usize].term.is_none()
    }

    /// Ends the current block, unless a terminator already ended it.
    fn terminate(&mut self, t: Terminator, span: Span) {
        let b = &mut self.blocks[self.cur as usize];
        if b.term.is_none() {
            b.term = Some((t, span));
        }
    }

    fn push(&mut self, i: &Instr, kind: InstKind) {
        self.blocks[self.cur as usize].insts.push(Inst {
            results: i.results.clone(),
            kind,
            span: i.span,
        });
    }

    /// Lowers a region; instructions after its first terminator (which the verifier
    /// rejects) are dropped.
    fn region(&mut self, r: &Region) {
        for i in &r.instrs {
            if !self.is_open() {
                return;
            }
            self.instr(i);
        }
    }

    fn instr(&mut self, i: &Instr) {
        let span = i.span;
        match &i.kind {
            InstrKind::Op(op) => self.push(i, InstKind::Op(op.clone())),
            InstrKind::Call { callee, args } => self.push(
                i,
                InstKind::Call {
                    callee: *callee,
                    args: args.clone(),
                },
            ),
            InstrKind::CallIndirect { sig, callee, args } => self.push(
                i,
                InstKind::CallIndirect {
                    sig: *sig,
                    callee: *callee,
                    args: args.clone(),
                },
            ),
            InstrKind::FuncAddr { func } => self.push(i, InstKind::FuncAddr { func: *func }),
            InstrKind::If {
                cond,
                then_region,
                else_region,
            } => {
                let id = IfId(self.ifs.len() as u32);
                let then_block = self.alloc(BlockKind::IfThen(id), Vec::new());
                let else_block = self.alloc(BlockKind::IfElse(id), Vec::new());
                let merge = self.alloc(BlockKind::IfMerge(id), i.results.to_vec());
                self.ifs.push(IfInfo {
                    head: BlockId(self.cur),
                    then_block,
                    else_block,
                    merge,
                    cond: *cond,
                    in_loop: self.loop_stack.last().copied(),
                    span,
                });
                self.terminate(
                    Terminator::Branch {
                        cond: *cond,
                        then_block,
                        else_block,
                        merge,
                        construct: id,
                    },
                    span,
                );
                self.ctx.push(Ctx::If { merge });
                for (block, region) in [(then_block, then_region), (else_block, else_region)] {
                    self.start(block);
                    self.region(region);
                    let to_merge = Terminator::Jump {
                        target: merge,
                        args: Vec::new(),
                    };
                    self.terminate(to_merge, span);
                }
                self.ctx.pop();
                self.start(merge);
            }
            InstrKind::Loop { params, init, body } => {
                let id = LoopId(self.loops.len() as u32);
                let header = self.alloc(BlockKind::LoopHeader(id), params.clone());
                let exit = self.alloc(BlockKind::LoopExit(id), i.results.to_vec());
                self.loops.push(LoopInfo {
                    header,
                    exit,
                    depth: self.loop_stack.len() as u32,
                    parent: self.loop_stack.last().copied(),
                    span,
                });
                let entry = Terminator::Jump {
                    target: header,
                    args: init.clone(),
                };
                self.terminate(entry, span);
                self.ctx.push(Ctx::Loop { header, exit });
                self.loop_stack.push(id);
                self.start(header);
                self.region(body);
                let again = Terminator::Jump {
                    target: header,
                    args: Vec::new(),
                };
                self.terminate(again, span);
                self.loop_stack.pop();
                self.ctx.pop();
                self.start(exit);
            }
            InstrKind::Yield(ops) => {
                let t = match self.ctx.last() {
                    Some(Ctx::If { merge }) => Terminator::Jump {
                        target: *merge,
                        args: ops.clone(),
                    },
                    _ => Terminator::Unreachable,
                };
                self.terminate(t, span);
            }
            InstrKind::Break(ops) | InstrKind::Continue(ops) => {
                let is_break = matches!(i.kind, InstrKind::Break(_));
                let target = self.ctx.iter().rev().find_map(|c| match c {
                    Ctx::Loop { header, exit } => Some(if is_break { *exit } else { *header }),
                    Ctx::If { .. } => None,
                });
                let t = match target {
                    Some(target) => Terminator::Jump {
                        target,
                        args: ops.clone(),
                    },
                    None => Terminator::Unreachable,
                };
                self.terminate(t, span);
            }
            InstrKind::Ret(ops) => self.terminate(Terminator::Return(ops.clone()), span),
            InstrKind::Unreachable => self.terminate(Terminator::Unreachable, span),
        }
    }

    /// Renumbers the blocks into layout order.
    fn finish(self) -> Cfg {
        let mut new_id = vec![0u32; self.blocks.len()];
        for (pos, &b) in self.layout.iter().enumerate() {
            new_id[b as usize] = pos as u32;
        }
        let map = |b: BlockId| BlockId(new_id[b.index()]);
        let mut slots: Vec<Option<Open>> = self.blocks.into_iter().map(Some).collect();
        let blocks = self
            .layout
            .iter()
            .filter_map(|&b| slots[b as usize].take())
            .map(|o| {
                let (term, term_span) =
                    o.term.unwrap_or((Terminator::Unreachable, Span::default()));
                let term = match term {
                    Terminator::Jump { target, args } => Terminator::Jump {
                        target: map(target),
                        args,
                    },
                    Terminator::Branch {
                        cond,
                        then_block,
                        else_block,
                        merge,
                        construct,
                    } => Terminator::Branch {
                        cond,
                        then_block: map(then_block),
                        else_block: map(else_block),
                        merge: map(merge),
                        construct,
                    },
                    t => t,
                };
                Block {
                    kind: o.kind,
                    params: o.params,
                    insts: o.insts,
                    term,
                    term_span,
                    in_loop: o.in_loop,
                }
            })
            .collect();
        let ifs = self
            .ifs
            .into_iter()
            .map(|i| IfInfo {
                head: map(i.head),
                then_block: map(i.then_block),
                else_block: map(i.else_block),
                merge: map(i.merge),
                ..i
            })
            .collect();
        let loops = self
            .loops
            .into_iter()
            .map(|l| LoopInfo {
                header: map(l.header),
                exit: map(l.exit),
                ..l
            })
            .collect();
        Cfg { blocks, ifs, loops }
    }
}
