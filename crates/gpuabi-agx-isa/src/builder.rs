//! Instructions built from typed operands: a mnemonic (or a row's unique name) and its
//! operands in the order Mesa's disassembler prints them, matched against the instruction
//! table by the assembler's search and encoded by the same encoder, without text.
//!
//! A built instruction is the one the assembler gives for the printed form of the same
//! operands: the search is the same, and where the assembler keeps an encoding only if it
//! prints the operands as written, the builder keeps it only if it decodes to them.
//! [`Builder`] collects instructions into code, with [`Label`]s as branch targets whose
//! offsets are patched once every label is placed.

use thiserror::Error;

use crate::decode::Instruction;
use crate::isa::Row;
use crate::operand::{fimm_value, Hint, Operand, OperandKind};
use crate::print::{parts, Part};
use crate::select::{candidates, select, Tok};

/// A branch target of a [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Label(usize);

/// One operand of an instruction to build, in printed order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    /// A register, an immediate operand, a coefficient or state slot.
    Op(Operand),
    /// An integer: an immediate operand or an immediate field.
    Int(i64),
    /// A float immediate; it must be one of the 8-bit codes' values.
    Float(f64),
    /// A modifier's text (`ult`, `rte`, `lsl 1`, `xyzw`, `thread_in_grid_x`).
    Word(&'static str),
    /// An absent destination (`_`).
    Absent,
    /// A branch target.
    Label(Label),
}

impl From<Operand> for Arg {
    fn from(o: Operand) -> Arg {
        Arg::Op(o)
    }
}

impl From<&'static str> for Arg {
    fn from(w: &'static str) -> Arg {
        Arg::Word(w)
    }
}

impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::Float(v)
    }
}

impl From<Label> for Arg {
    fn from(l: Label) -> Arg {
        Arg::Label(l)
    }
}

macro_rules! int_arg {
    ($($t:ty),*) => {
        $(impl From<$t> for Arg {
            fn from(v: $t) -> Arg {
                Arg::Int(i64::from(v))
            }
        })*
    };
}
int_arg!(i64, i32, u32, u16, u8);

/// `[Arg; N]` from values convertible to [`Arg`]: `args![r(7), u(3), 0]`.
#[macro_export]
macro_rules! args {
    ($($a:expr),* $(,)?) => {
        [$($crate::Arg::from($a)),*]
    };
}

/// An instruction that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}`{name}`: {message}", at.map_or_else(String::new, |i| format!("instruction {i}, ")))]
pub struct BuildError {
    /// Index of the instruction in its [`Builder`], from 0, when built by one.
    pub at: Option<usize>,
    /// The mnemonic asked for.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

/// An operand resolved for the search: labels to offsets, floats to codes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Op(Operand),
    Int(i64),
    Word(&'static str),
    Absent,
    Offset(i64),
}

fn plain_imm(o: &Operand) -> Option<i64> {
    match o.kind {
        OperandKind::Imm(v) if o.hint == Hint::None && !o.abs && !o.neg && !o.sx => Some(v),
        _ => None,
    }
}

fn tok(v: &Value) -> Tok<'static> {
    match *v {
        Value::Op(o) => Tok {
            operand: Some(o),
            int: plain_imm(&o),
            ..Tok::default()
        },
        Value::Int(i) => Tok {
            operand: Some(Operand::plain(OperandKind::Imm(i))),
            int: Some(i),
            ..Tok::default()
        },
        Value::Word(w) => Tok {
            word: Some(w),
            ..Tok::default()
        },
        Value::Absent => Tok {
            absent: true,
            ..Tok::default()
        },
        Value::Offset(x) => Tok {
            branch: Some(x),
            ..Tok::default()
        },
    }
}

/// Two operands print alike: equal, or register tuples of no registers (printed as nothing
/// but their hint and modifiers).
fn prints_alike(a: &Operand, b: &Operand) -> bool {
    let empty = |o: &Operand| matches!(o.kind, OperandKind::Reg { count: 0, .. });
    a == b || (empty(a) && empty(b) && (a.hint, a.abs, a.neg, a.sx) == (b.hint, b.abs, b.neg, b.sx))
}

/// The printed operand `p` is the value `v` as given.
fn same(p: &Part, v: &Value) -> bool {
    match (p, v) {
        (Part::Absent, Value::Absent) => true,
        (Part::Operand(p), Value::Op(o)) => prints_alike(p, o),
        (Part::Operand(p), Value::Int(i)) => plain_imm(p) == Some(*i),
        (Part::Int(p), Value::Int(i) | Value::Offset(i)) => p == i,
        (Part::Int(p), Value::Op(o)) => plain_imm(o) == Some(*p),
        (Part::Word(p), Value::Word(w)) => p == w,
        _ => false,
    }
}

fn resolve(name: &str, args: &[Arg], offset: &dyn Fn(Label) -> i64) -> Result<Vec<Value>, String> {
    args.iter()
        .enumerate()
        .map(|(k, a)| {
            Ok(match *a {
                Arg::Op(o) => {
                    if let Some(t) = o.tuple() {
                        if t.base + t.halves() > u32::from(t.file.halves()) {
                            return Err(format!(
                                "operand {}: {t} is beyond the {} halves of the file",
                                k + 1,
                                t.file.halves()
                            ));
                        }
                    }
                    Value::Op(o)
                }
                Arg::Int(i) => Value::Int(i),
                Arg::Float(f) => {
                    let code = (0..=255u8)
                        .find(|&c| fimm_value(c).to_bits() == f.to_bits())
                        .ok_or_else(|| {
                            format!(
                                "operand {}: {f:?} is not an 8-bit float immediate of `{name}`",
                                k + 1
                            )
                        })?;
                    Value::Op(Operand::plain(OperandKind::FImm(code)))
                }
                Arg::Word(w) => Value::Word(w),
                Arg::Absent => Value::Absent,
                Arg::Label(l) => Value::Offset(offset(l)),
            })
        })
        .collect()
}

fn build_with(
    rows: &[(usize, &'static Row)],
    name: &str,
    args: &[Arg],
    offset: &dyn Fn(Label) -> i64,
) -> Result<Instruction, BuildError> {
    let err = |message: String| BuildError {
        at: None,
        name: name.to_string(),
        message,
    };
    if rows.is_empty() {
        return Err(err("no instruction of this name".into()));
    }
    let values = resolve(name, args, offset).map_err(err)?;
    let toks: Vec<Tok> = values.iter().map(tok).collect();
    let mut decodes_as_given = |_: &Row, ins: &Instruction| {
        let printed = parts(ins);
        printed.len() == values.len() && printed.iter().zip(&values).all(|(p, v)| same(p, v))
    };
    select(rows, &toks, &mut decodes_as_given).map_err(|(at, what)| {
        err(if what.is_empty() {
            "the operands do not form a valid instruction".into()
        } else if at < args.len() {
            format!("operand {}: {what}", at + 1)
        } else {
            what
        })
    })
}

/// Builds the instruction `name` (Mesa's mnemonic or a row's unique name) with operands
/// `args` in printed order: the encoding the assembler gives for their printed form.
/// Labels are refused here; [`Builder`] resolves them.
pub fn build_instruction(name: &str, args: &[Arg]) -> Result<Instruction, BuildError> {
    if args.iter().any(|a| matches!(a, Arg::Label(_))) {
        return Err(BuildError {
            at: None,
            name: name.to_string(),
            message: "a label is resolved only by a Builder".into(),
        });
    }
    build_with(&candidates(name), name, args, &|_| 0)
}

/// Built code: its bytes and each instruction with its byte offset.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Code {
    /// The code.
    pub bytes: Vec<u8>,
    /// Each instruction with its byte offset.
    pub instructions: Vec<(usize, Instruction)>,
}

impl Code {
    /// The listing: each instruction as Mesa's disassembler prints it, one a line.
    pub fn text(&self) -> String {
        self.instructions
            .iter()
            .map(|(_, i)| format!("{i}\n"))
            .collect()
    }
}

/// An instruction whose branch offset waits for its label to be placed.
#[derive(Debug)]
struct Patch {
    index: usize,
    name: String,
    args: Vec<Arg>,
}

/// Collects instructions into code. The first error is kept and returned by
/// [`Builder::finish`] (the instructions after it are still built, but the code is not
/// returned), so that a generator can push its instructions without handling an error at
/// each.
#[derive(Debug, Default)]
pub struct Builder {
    code: Code,
    labels: Vec<Option<usize>>,
    patches: Vec<Patch>,
    error: Option<BuildError>,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// The byte offset of the next instruction.
    pub fn offset(&self) -> usize {
        self.code.bytes.len()
    }

    /// Appends `name` with operands `args` (see [`build_instruction`]); a [`Label`] operand
    /// is a branch target, its offset relative to this instruction patched by
    /// [`Builder::finish`].
    pub fn push(&mut self, name: &str, args: &[Arg]) -> &mut Builder {
        let index = self.code.instructions.len();
        let labelled = args.iter().any(|a| matches!(a, Arg::Label(_)));
        // Branch lengths do not depend on the offset: a placeholder of 0 gives the length.
        match build_with(&candidates(name), name, args, &|_| 0) {
            Ok(ins) => {
                if labelled {
                    self.patches.push(Patch {
                        index,
                        name: name.to_string(),
                        args: args.to_vec(),
                    });
                }
                let at = self.offset();
                self.code.bytes.extend(ins.bytes());
                self.code.instructions.push((at, ins));
            }
            Err(e) => {
                self.error.get_or_insert(BuildError {
                    at: Some(index),
                    ..e
                });
            }
        }
        self
    }

    /// A new label, placed later with [`Builder::place`].
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    /// Places `label` at the next instruction.
    pub fn place(&mut self, label: Label) {
        let at = self.offset();
        match self.labels.get_mut(label.0) {
            Some(slot @ None) => *slot = Some(at),
            _ => {
                self.error.get_or_insert(BuildError {
                    at: Some(self.code.instructions.len()),
                    name: format!("label {}", label.0),
                    message: "placed twice or not made by this builder".into(),
                });
            }
        }
    }

    /// The code, with every branch offset patched, or the first error.
    pub fn finish(mut self) -> Result<Code, BuildError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for p in std::mem::take(&mut self.patches) {
            let (at, old_length) = {
                let (at, ins) = &self.code.instructions[p.index];
                (*at, ins.length)
            };
            let unplaced = p.args.iter().find_map(|a| match a {
                Arg::Label(l) if self.labels.get(l.0).copied().flatten().is_none() => Some(l.0),
                _ => None,
            });
            let fail = |message: String| BuildError {
                at: Some(p.index),
                name: p.name.clone(),
                message,
            };
            if let Some(l) = unplaced {
                return Err(fail(format!("label {l} is never placed")));
            }
            let labels = &self.labels;
            let offset = |l: Label| labels[l.0].map_or(0, |t| t as i64 - at as i64);
            let ins = build_with(&candidates(&p.name), &p.name, &p.args, &offset)
                .map_err(|e| fail(e.message))?;
            if ins.length != old_length {
                return Err(fail(
                    "the branch offset changed the instruction's length".into(),
                ));
            }
            let bytes = ins.bytes();
            self.code.bytes[at..at + bytes.len()].copy_from_slice(&bytes);
            self.code.instructions[p.index].1 = ins;
        }
        Ok(self.code)
    }
}
