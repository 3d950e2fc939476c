//! Text form of a control-flow graph, for tests and debugging.
//!
//! ```text
//! cfg @f
//! loop0: header block1, exit block5, depth 0
//! block0: entry
//!   jump block1(0)
//! block1(%i: i32): loop0 header, in loop0
//!   %c = icmp ult i32 %i, 10
//!   branch %c, block2, block3, merge block4 (if0)
//! ...
//! ```

use std::fmt::Write;

use super::{BlockId, BlockKind, Cfg, InstKind, Terminator};
use crate::ir::{Function, Module, Operand};
use crate::text::printer::{func_name, op_text, operand, operands, sig_name};

/// Prints the graph of `f` (a function of `module`): its loops, then every block with its
/// parameters, kind, innermost loop, instructions and terminator.
pub fn print(module: &Module, f: &Function, cfg: &Cfg) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "cfg @{}", f.name);
    for (k, l) in cfg.loops.iter().enumerate() {
        let _ = write!(
            out,
            "loop{k}: header {}, exit {}, depth {}",
            block(l.header),
            block(l.exit),
            l.depth
        );
        if let Some(p) = l.parent {
            let _ = write!(out, ", in loop{}", p.0);
        }
        out.push('\n');
    }
    for (k, b) in cfg.blocks.iter().enumerate() {
        out.push_str(&block(BlockId(k as u32)));
        if !b.params.is_empty() {
            let params: Vec<String> = b
                .params
                .iter()
                .map(|v| format!("%{}: {}", f.value_name(*v), f.ty(*v)))
                .collect();
            let _ = write!(out, "({})", params.join(", "));
        }
        let kind = match b.kind {
            BlockKind::Entry => "entry".to_string(),
            BlockKind::IfThen(i) => format!("if{} then", i.0),
            BlockKind::IfElse(i) => format!("if{} else", i.0),
            BlockKind::IfMerge(i) => format!("if{} merge", i.0),
            BlockKind::LoopHeader(l) => format!("loop{} header", l.0),
            BlockKind::LoopExit(l) => format!("loop{} exit", l.0),
        };
        let _ = write!(out, ": {kind}");
        if let Some(l) = b.in_loop {
            let _ = write!(out, ", in loop{}", l.0);
        }
        out.push('\n');
        for i in &b.insts {
            out.push_str("  ");
            if !i.results.is_empty() {
                let names: Vec<String> = i
                    .results
                    .iter()
                    .map(|v| format!("%{}", f.value_name(*v)))
                    .collect();
                let _ = write!(out, "{} = ", names.join(", "));
            }
            match &i.kind {
                InstKind::Op(op) => op_text(&mut out, f, op),
                InstKind::Call { callee, args } => {
                    let _ = write!(
                        out,
                        "call @{}({})",
                        func_name(module, *callee),
                        operands(f, args)
                    );
                }
                InstKind::CallIndirect { sig, callee, args } => {
                    let _ = write!(
                        out,
                        "call_indirect ${} {}({})",
                        sig_name(module, *sig),
                        operand(f, callee),
                        operands(f, args)
                    );
                }
                InstKind::FuncAddr { func } => {
                    let _ = write!(out, "func_addr @{}", func_name(module, *func));
                }
            }
            out.push('\n');
        }
        out.push_str("  ");
        match &b.term {
            Terminator::Jump { target, args } => {
                let _ = write!(out, "jump {}", jump(f, *target, args));
            }
            Terminator::Branch {
                cond,
                then_block,
                else_block,
                merge,
                construct,
            } => {
                let _ = write!(
                    out,
                    "branch {}, {}, {}, merge {} (if{})",
                    operand(f, cond),
                    block(*then_block),
                    block(*else_block),
                    block(*merge),
                    construct.0
                );
            }
            Terminator::Return(ops) if ops.is_empty() => out.push_str("ret"),
            Terminator::Return(ops) => {
                let _ = write!(out, "ret {}", operands(f, ops));
            }
            Terminator::Unreachable => out.push_str("unreachable"),
        }
        out.push('\n');
    }
    out
}

fn block(b: BlockId) -> String {
    format!("block{}", b.0)
}

fn jump(f: &Function, target: BlockId, args: &[Operand]) -> String {
    if args.is_empty() {
        block(target)
    } else {
        format!("{}({})", block(target), operands(f, args))
    }
}
