//! A program decoded once for execution: each instruction's operation as an enum
//! ([`Op`]), its register operands resolved to register-file offsets and widths, its
//! modifiers as typed fields and its branch target as an instruction index, so running it
//! looks nothing up by name and allocates nothing per instruction.

use gpuabi_agx_isa::{decode, fimm_value, Instruction, Operand, OperandKind, RegFile};

use crate::error::SimError;
use crate::exec::Fail;
use crate::op::{self, Op};
use crate::state::{GPR_HALVES, UNIFORM_HALVES};

/// Where an operand's value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loc {
    /// No operand (reads as zero).
    None,
    /// General-purpose register halves starting at `half`.
    Gpr,
    /// Uniform register halves starting at `half`.
    Uniform,
    /// An integer immediate (its 16 low bits) in `imm`.
    Imm,
    /// An 8-bit float immediate: its code in `imm`, its value in `fimm`.
    FImm,
}

/// An operand resolved for execution.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opnd {
    pub loc: Loc,
    /// First 16-bit half in its register file.
    pub half: u16,
    /// Width in bits: 16, 32 or 64 (16 for immediates).
    pub size: u32,
    pub sx: bool,
    pub abs: bool,
    pub neg: bool,
    /// The raw bits of an immediate.
    pub imm: u64,
    /// The value of a float immediate.
    pub fimm: f64,
}

impl Opnd {
    const NONE: Opnd = Opnd {
        loc: Loc::None,
        half: 0,
        size: 16,
        sx: false,
        abs: false,
        neg: false,
        imm: 0,
        fimm: 0.0,
    };

    /// Resolves `op`, failing as reading it would (a register tuple past the end of its
    /// file, or an operand kind the arithmetic units do not read).
    fn resolve(op: &Operand) -> Result<Opnd, Bad> {
        let mut o = Opnd {
            sx: op.sx,
            abs: op.abs,
            neg: op.neg,
            ..Opnd::NONE
        };
        match op.kind {
            OperandKind::Reg {
                file, base, size, ..
            } => {
                let (loc, limit) = match file {
                    RegFile::Gpr => (Loc::Gpr, GPR_HALVES),
                    RegFile::Uniform => (Loc::Uniform, UNIFORM_HALVES),
                };
                if base as usize + (size / 16) as usize > limit {
                    return Err(match file {
                        RegFile::Gpr => Bad::GprRange(base, size),
                        RegFile::Uniform => Bad::UniformRange(base, size),
                    });
                }
                o.loc = loc;
                o.half = base as u16;
                o.size = size;
            }
            OperandKind::Imm(v) => {
                o.loc = Loc::Imm;
                o.imm = (v as u64) & 0xffff;
            }
            OperandKind::FImm(c) => {
                o.loc = Loc::FImm;
                o.imm = u64::from(c);
                o.fimm = fimm_value(c);
            }
            _ => return Err(Bad::Kind("operand kind")),
        }
        Ok(o)
    }
}

/// Why the operands of an instruction cannot be read; turned into the failure the
/// instruction reports when it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bad {
    /// A required operand is absent (reported whatever the execution mask).
    Absent(&'static str),
    /// An operand of a kind the unit does not read.
    Kind(&'static str),
    GprRange(u32, u32),
    UniformRange(u32, u32),
}

impl Bad {
    pub(crate) fn fail(self) -> Fail {
        match self {
            Bad::Absent(why) | Bad::Kind(why) => Fail::Unsupported(why),
            Bad::GprRange(half, size) => Fail::Sim(SimError::RegisterRange { half, size }),
            Bad::UniformRange(half, size) => Fail::Sim(SimError::UniformRange { half, size }),
        }
    }
}

/// The modifier fields the simulator reads, by name in the instruction table (0 when the
/// row has no such field).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mods {
    pub saturate: bool,
    pub shift: u32,
    pub format: u32,
    pub mask: u32,
    pub quad: u32,
    /// The shuffle or atomic operation.
    pub op: u32,
    pub rotate: bool,
    /// The comparison: `condition` of selects and ballots, `cond` of `if`/`else`/`while`.
    pub cond: u32,
    pub round: u32,
    pub sr: u32,
    pub interpolation: u32,
    pub dim: u32,
    pub lod_type: u32,
    pub shadow: bool,
    pub gather: bool,
    pub explicit_coords: bool,
    /// The byte offset in the tile buffer of `st_tile` and `ld_tile` (an immediate field).
    pub tile_offset: u32,
}

impl Mods {
    fn of(ins: &Instruction) -> Mods {
        let m = |name| ins.modifier(name).unwrap_or(0);
        Mods {
            saturate: m("saturate") != 0,
            shift: m("shift"),
            format: m("format"),
            mask: m("mask"),
            quad: m("quad"),
            op: m("op"),
            rotate: m("rotate") != 0,
            cond: ins
                .modifier("condition")
                .or_else(|| ins.modifier("cond"))
                .unwrap_or(0),
            round: m("round"),
            sr: m("sr"),
            interpolation: m("interpolation"),
            dim: m("dim"),
            lod_type: m("lod_type"),
            shadow: m("shadow") != 0,
            gather: m("gather") != 0,
            explicit_coords: m("explicit_coords") != 0,
            tile_offset: ins.immediate("offset").unwrap_or(0) as u32,
        }
    }
}

/// One instruction ready to run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decoded {
    pub op: Op,
    /// The first destination (for the arithmetic units: a GPR tuple).
    pub dst: Opnd,
    /// The first four sources.
    pub src: [Opnd; 4],
    /// The first immediate field (branch offset, `ldimm` value, nesting count, bitmask).
    pub imm: i64,
    /// The truth table of the bitwise unit: bit `a + 2b` (bits 26..27 and 38..39 of the
    /// encoding, Mesa's opcode field).
    pub table: u32,
    pub mods: Mods,
    /// Branch target as an instruction index; the program's length when the target is not
    /// the start of an instruction (the run then ends, as running off the end does).
    pub target: u32,
    /// Why the operands of an arithmetic instruction cannot be read.
    pub bad: Option<Bad>,
}

/// Whether an arithmetic operation writes a destination, how many sources it requires and
/// how many it reads (the bitwise unit's `mov`-like rows have one source, the second
/// reading 0); `None` for the operations that read their operands from the
/// [`Instruction`] itself.
fn arity(op: Op) -> Option<(bool, usize, usize)> {
    Some(match op {
        Op::Ldimm | Op::Mfsr | Op::Ballot => (true, 0, 0),
        Op::Iadd | Op::Isub | Op::Imul | Op::Asr | Op::Asrh | Op::Intl => (true, 2, 2),
        Op::Fadd | Op::Fmul | Op::Hadd | Op::Hmul | Op::IcmpBallot | Op::FcmpBallot => (true, 2, 2),
        Op::Imadd | Op::Imsub | Op::Ffma | Op::Hfma => (true, 3, 3),
        Op::Bitfield { two: true, .. } => (true, 2, 2),
        Op::Bitfield { two: false, .. } => (true, 3, 3),
        Op::Bitop => (true, 1, 2),
        Op::Bitrev | Op::Popcnt | Op::Ffs => (true, 1, 1),
        Op::IntToFloat { .. } | Op::FloatToInt { .. } | Op::Unary(_) => (true, 1, 1),
        Op::Icsel | Op::Fcsel => (true, 4, 4),
        Op::Nest { .. } => (false, 2, 2),
        _ => return None,
    })
}

/// How many leading sources an operation reads as floats (which may not be 64-bit).
fn float_sources(op: Op) -> usize {
    match op {
        Op::Ffma | Op::Hfma => 3,
        Op::Fadd | Op::Fmul | Op::Hadd | Op::Hmul | Op::Fcsel | Op::FcmpBallot => 2,
        Op::Nest { float: true, .. } => 2,
        Op::Unary(_) => 1,
        _ => 0,
    }
}

/// Resolves the operands of an arithmetic instruction.
fn operands(
    ins: &Instruction,
    (wants_dst, required, read): (bool, usize, usize),
) -> Result<(Opnd, [Opnd; 4]), Bad> {
    let source = |i: usize| ins.srcs.get(i).and_then(|s| s.as_ref());
    let mut dst = Opnd::NONE;
    if wants_dst {
        ins.dests
            .first()
            .and_then(|d| d.as_ref())
            .ok_or(Bad::Absent("absent destination"))?;
    }
    // Absent sources fail whatever the execution mask, as the per-lane reads did.
    if (0..required).any(|i| source(i).is_none()) {
        return Err(Bad::Absent("absent source"));
    }
    let mut src = [Opnd::NONE; 4];
    for (i, s) in src.iter_mut().enumerate().take(read) {
        if let Some(o) = source(i) {
            *s = Opnd::resolve(o)?;
        }
    }
    if let Some(d) = ins
        .dests
        .first()
        .and_then(|d| d.as_ref())
        .filter(|_| wants_dst)
    {
        if !matches!(
            d.kind,
            OperandKind::Reg {
                file: RegFile::Gpr,
                ..
            }
        ) {
            return Err(Bad::Kind("destination kind"));
        }
        dst = Opnd::resolve(d)?;
    }
    Ok((dst, src))
}

/// A decoded program: the instructions, their byte offsets and their execution form.
#[derive(Debug, Clone)]
pub struct Program {
    pub(crate) ins: Vec<Instruction>,
    pub(crate) offsets: Vec<usize>,
    pub(crate) ops: Vec<Decoded>,
}

impl Program {
    /// Decodes `code` (which must decode whole) into a program ready to run any number of
    /// times.
    pub fn decode(code: &[u8]) -> Result<Program, SimError> {
        let listing = decode(code)?;
        let offsets: Vec<usize> = listing.iter().map(|(o, _)| *o).collect();
        let ins: Vec<Instruction> = listing.into_iter().map(|(_, i)| i).collect();
        let ops = ins
            .iter()
            .zip(&offsets)
            .map(|(i, &at)| decode_one(i, at, &offsets))
            .collect();
        Ok(Program { ins, offsets, ops })
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.ins.len()
    }

    /// Whether the program has no instruction.
    pub fn is_empty(&self) -> bool {
        self.ins.is_empty()
    }

    /// The instructions with their byte offsets.
    pub fn instructions(&self) -> impl Iterator<Item = (usize, &Instruction)> {
        self.offsets.iter().copied().zip(&self.ins)
    }
}

fn decode_one(ins: &Instruction, at: usize, offsets: &[usize]) -> Decoded {
    let op = op::of(ins.opcode);
    let imm = ins.imms.first().copied().unwrap_or(0);
    let target = if matches!(op, Op::JmpAny | Op::JmpNone) {
        let to = at as i64 + imm;
        usize::try_from(to)
            .ok()
            .and_then(|to| offsets.binary_search(&to).ok())
            .unwrap_or(offsets.len()) as u32
    } else {
        offsets.len() as u32
    };
    let mut d = Decoded {
        op,
        dst: Opnd::NONE,
        src: [Opnd::NONE; 4],
        imm,
        table: ((ins.raw >> 26) & 3) as u32 | (((ins.raw >> 38) & 3) as u32) << 2,
        mods: Mods::of(ins),
        target,
        bad: None,
    };
    if let Some(shape) = arity(op) {
        match operands(ins, shape) {
            Ok((dst, src)) => {
                d.dst = dst;
                d.src = src;
                let wide = |s: &Opnd| matches!(s.loc, Loc::Gpr | Loc::Uniform) && s.size == 64;
                if src[..float_sources(op)].iter().any(wide) {
                    d.bad = Some(Bad::Kind("64-bit float source"));
                }
            }
            Err(b) => d.bad = Some(b),
        }
    }
    d
}
