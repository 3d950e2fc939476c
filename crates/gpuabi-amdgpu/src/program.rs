//! A machine program: labels, directives and instructions in order, and their layout in
//! bytes.

use std::collections::HashMap;

use crate::encoding;
use crate::inst::Inst;
use crate::operand::Expr;
use crate::target::{Target, WaveSize};

/// An assembler directive the project understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// `.text`: code follows (the only section).
    Text,
    /// `.globl NAME`: the label is visible outside the file.
    Globl(String),
}

/// One element of a program.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `name:`
    Label(String),
    /// A directive.
    Directive(Directive),
    /// An instruction.
    Inst(Inst),
}

/// An item and the source line it came from (0 when built in code).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The item.
    pub item: Item,
    /// 1-based source line, or 0.
    pub line: usize,
}

/// A program for one target and wave size.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The target it is written for.
    pub target: Target,
    /// The wave size its lane masks assume.
    pub wave: WaveSize,
    /// Labels, directives and instructions in order.
    pub items: Vec<Line>,
}

/// Where each item and label lies, in bytes from the start of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Byte offset of every item (an instruction's first byte; a label's position).
    pub offsets: Vec<u32>,
    /// Byte offset of every label.
    pub labels: HashMap<String, u32>,
    /// Total size in bytes.
    pub size: u32,
}

impl Layout {
    /// The value of `expr` when the program starts at byte address `base`, or `None` if a
    /// label is unknown. A difference of labels does not depend on `base`.
    pub fn eval(&self, expr: &Expr, base: u64) -> Option<i64> {
        // 64-bit two's complement, as LLVM's MC evaluates expressions: the addend is user
        // text and may be near the i64 limits.
        let plus = i64::from(*self.labels.get(&expr.plus)?);
        let value = match &expr.minus {
            Some(m) => plus - i64::from(*self.labels.get(m)?),
            None => plus.wrapping_add(base as i64),
        };
        Some(value.wrapping_add(expr.addend))
    }
}

impl Program {
    /// An empty program.
    pub fn new(target: Target, wave: WaveSize) -> Program {
        Program {
            target,
            wave,
            items: Vec::new(),
        }
    }

    /// Appends an item built in code.
    pub fn push(&mut self, item: Item) {
        self.items.push(Line { item, line: 0 });
    }

    /// Byte offsets of items and labels, from the encoding sizes.
    pub fn layout(&self) -> Layout {
        let mut offsets = Vec::with_capacity(self.items.len());
        let mut labels = HashMap::new();
        let mut at = 0u32;
        for line in &self.items {
            offsets.push(at);
            match &line.item {
                Item::Label(name) => {
                    labels.insert(name.clone(), at);
                }
                Item::Inst(inst) => at += encoding::size(inst, self.target, self.wave),
                Item::Directive(_) => {}
            }
        }
        Layout {
            offsets,
            labels,
            size: at,
        }
    }

    /// The instructions in order.
    pub fn insts(&self) -> impl Iterator<Item = &Inst> + '_ {
        self.items.iter().filter_map(|l| match &l.item {
            Item::Inst(i) => Some(i),
            _ => None,
        })
    }
}
