//! After register allocation: temps become their registers, reserved spill VGPRs get
//! their numbers, parallel copies become moves (cycles broken by three exclusive-ors,
//! as ACO's `aco_lower_to_hw_instr.cpp` swaps without a free register), and moves of a
//! register to itself disappear.

use crate::error::{Invalid, PassError};
use crate::pipeline::Context;
use gpuabi_amdgpu::{Inst, Opcode, Operand};
use gpuabi_layout::reg::{RegFile, RegRange};
use smallvec::SmallVec;

use crate::mir::{AbiCost, Function, MInst, MOp, Opnd, Origin, Pseudo};

/// One machine instruction with its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct HwInst {
    /// The instruction.
    pub inst: Inst,
    /// Where it came from.
    pub origin: Origin,
    /// The share of the call ABI it is.
    pub cost: AbiCost,
}

/// A block of lowered instructions, in order.
pub type HwBlock = Vec<HwInst>;

fn reg_of(f: &Function, regs: &[Option<u16>], o: &Opnd, max_vgprs: u16) -> Operand {
    match o {
        Opnd::Temp(s) => {
            let info = f.info(s.temp);
            let first = regs[s.temp.index()].expect("allocated") + u16::from(s.offset);
            Operand::Reg(RegRange::new(info.file, first, u16::from(s.dwords)))
        }
        Opnd::Fixed(op) => op.clone(),
        Opnd::Undef => unreachable!("undefined operands are gone with the phis"),
        Opnd::SpillVgpr(k) => Operand::Reg(RegRange::new(RegFile::Vgpr, max_vgprs - 1 - k, 1)),
        Opnd::Addr { label, anchor } => Operand::Expr(Box::new(gpuabi_amdgpu::Expr {
            plus: label.clone(),
            minus: Some(block_label(&f.name, anchor.0)),
            addend: 0,
            reloc: None,
        })),
        Opnd::Block(b) => Operand::Expr(Box::new(gpuabi_amdgpu::Expr::label(block_label(
            &f.name, b.0,
        )))),
    }
}

/// The label of block `b` of function `name`.
pub fn block_label(name: &str, b: u32) -> String {
    if b == 0 {
        name.to_string()
    } else {
        format!(".L{name}_{b}")
    }
}

fn mov(dst: RegRange, src: Operand, origin: Origin) -> HwInst {
    let op = match dst.file() {
        RegFile::Sgpr => Opcode::SMovB32,
        RegFile::Vgpr => Opcode::VMovB32,
    };
    HwInst {
        inst: Inst::new(op, [Operand::Reg(dst), src]),
        origin,
        cost: AbiCost::None,
    }
}

/// Lowers one parallel copy of single dwords.
fn parallel_copy(mut moves: Vec<(RegRange, Operand)>, origin: Origin, out: &mut HwBlock) {
    moves.retain(|(d, s)| *s != Operand::Reg(*d));
    while !moves.is_empty() {
        let ready = (0..moves.len()).find(|&i| {
            let d = moves[i].0;
            !moves
                .iter()
                .enumerate()
                .any(|(j, (_, s))| j != i && *s == Operand::Reg(d))
        });
        match ready {
            Some(i) => {
                let (d, s) = moves.remove(i);
                out.push(mov(d, s, origin));
            }
            None => {
                // Every destination is still to be read: a cycle. Swap the first move's
                // two registers, then the move is done and its source now holds what its
                // destination held.
                let (d, s) = moves.remove(0);
                let Operand::Reg(sr) = s else {
                    unreachable!("a constant source is never part of a cycle")
                };
                let xor = match d.file() {
                    RegFile::Sgpr => Opcode::SXorB32,
                    RegFile::Vgpr => Opcode::VXorB32,
                };
                for (a, b) in [(d, sr), (sr, d), (d, sr)] {
                    out.push(HwInst {
                        inst: Inst::new(xor, [Operand::Reg(a), Operand::Reg(a), Operand::Reg(b)]),
                        origin,
                        cost: AbiCost::None,
                    });
                }
                for m in &mut moves {
                    if m.1 == Operand::Reg(d) {
                        m.1 = Operand::Reg(sr);
                    }
                }
                moves.retain(|(d, s)| *s != Operand::Reg(*d));
            }
        }
    }
}

/// Lowers every block of `f` given the first register of each temp.
pub fn lower(f: &Function, regs: &[Option<u16>], max_vgprs: u16) -> Vec<HwBlock> {
    let mut out = Vec::with_capacity(f.blocks.len());
    for b in &f.blocks {
        let mut hw = HwBlock::new();
        for inst in &b.insts {
            let opnds: SmallVec<[Operand; 4]> = inst
                .opnds
                .iter()
                .map(|o| reg_of(f, regs, o, max_vgprs))
                .collect();
            match inst.op {
                MOp::Pseudo(Pseudo::LogicalStart | Pseudo::LogicalEnd) => {}
                MOp::Pseudo(_) => {
                    let mut moves = Vec::new();
                    for pair in opnds.chunks(2) {
                        let Operand::Reg(d) = pair[0] else { continue };
                        for k in 0..d.count {
                            let src = match &pair[1] {
                                Operand::Reg(s) => {
                                    Operand::Reg(RegRange::new(s.file(), s.first.num + k, 1))
                                }
                                // Dword `k` of a 64-bit constant.
                                Operand::Imm(gpuabi_amdgpu::Imm::Int(v)) if d.count > 1 => {
                                    Operand::Imm(gpuabi_amdgpu::Imm::Int(
                                        (*v >> (32 * u32::from(k))) & 0xffff_ffff,
                                    ))
                                }
                                other => other.clone(),
                            };
                            moves.push((RegRange::new(d.file(), d.first.num + k, 1), src));
                        }
                    }
                    let first = hw.len();
                    parallel_copy(moves, inst.origin, &mut hw);
                    for h in &mut hw[first..] {
                        h.cost = inst.cost;
                    }
                }
                MOp::DualY(op) => {
                    if let Some(x) = hw.last_mut() {
                        x.inst.dual = Some(Box::new(Inst::new(op, opnds)));
                    }
                }
                MOp::Hw(op) => {
                    let is_move = matches!(op, Opcode::SMovB32 | Opcode::VMovB32 | Opcode::SMovB64);
                    if is_move && opnds[0] == opnds[1] {
                        continue;
                    }
                    hw.push(HwInst {
                        inst: Inst {
                            op,
                            operands: opnds,
                            mods: inst.mods,
                            e64: inst.e64,
                            src_mods: Default::default(),
                            sdwa: None,
                            dual: None,
                            dont_care: 0,
                            hi16: 0,
                        },
                        origin: inst.origin,
                        cost: inst.cost,
                    });
                }
            }
        }
        out.push(hw);
    }
    out
}

/// The pass: lowers `f` to hardware instructions, kept in the context.
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    ctx.hw = Some(lower(f, &f.regs, ctx.opts.max_vgprs));
    Ok(())
}

/// `f`'s header and blocks with the lowered code `hw` in them, every operand fixed: the
/// machine IR form in which lowered code prints. Lowered instructions carry only what
/// machine instructions do (the code generator sets no source modifiers, SDWA or dual
/// issue).
pub fn as_machine_ir(f: &Function, hw: &[HwBlock]) -> Function {
    let mut out = Function {
        blocks: Vec::new(),
        ..f.clone()
    };
    for (b, block) in f.blocks.iter().enumerate() {
        let mut insts = Vec::new();
        for h in hw.get(b).into_iter().flatten() {
            let halves = std::iter::once((MOp::Hw(h.inst.op), &h.inst))
                .chain(h.inst.dual.as_deref().map(|y| (MOp::DualY(y.op), y)));
            for (op, i) in halves {
                insts.push(MInst {
                    op,
                    opnds: i.operands.iter().cloned().map(Opnd::Fixed).collect(),
                    mods: i.mods,
                    e64: i.e64,
                    cost: h.cost,
                    origin: h.origin,
                });
            }
        }
        out.blocks.push(crate::mir::Block {
            insts,
            ..block.clone()
        });
    }
    out
}

/// The lowered code of a function in the form [`as_machine_ir`] gives it: every
/// instruction a hardware one, every operand fixed; the first that is not is named.
pub fn from_machine_ir(f: &Function) -> Result<Vec<HwBlock>, Invalid> {
    let mut out = Vec::with_capacity(f.blocks.len());
    for (b, block) in f.blocks.iter().enumerate() {
        let mut hw = HwBlock::with_capacity(block.insts.len());
        for (i, inst) in block.insts.iter().enumerate() {
            let at = i;
            let (MOp::Hw(op) | MOp::DualY(op)) = inst.op else {
                return Err(Invalid::inst(b, i, "a pseudo-instruction in lowered code"));
            };
            let mut operands: SmallVec<[Operand; 4]> = SmallVec::new();
            for o in &inst.opnds {
                let Opnd::Fixed(o) = o else {
                    return Err(Invalid::inst(b, i, "an operand that is not a register"));
                };
                operands.push(o.clone());
            }
            let mut i = Inst::new(op, operands);
            i.mods = inst.mods;
            i.e64 = inst.e64;
            if let MOp::DualY(_) = inst.op {
                let x = hw
                    .last_mut()
                    .filter(|x| x.inst.dual.is_none())
                    .ok_or_else(|| Invalid::inst(b, at, "a VOPD Y half with no X half"))?;
                x.inst.dual = Some(Box::new(i));
                continue;
            }
            hw.push(HwInst {
                inst: i,
                origin: inst.origin,
                cost: inst.cost,
            });
        }
        out.push(hw);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuabi_amdgpu::Imm;

    /// Runs moves and xors on a model register file (SGPR file, 16 registers).
    fn execute(insts: &[HwInst], regs: &mut [u32; 16]) {
        let num = |o: &Operand| match o {
            Operand::Reg(r) => r.first.num as usize,
            _ => panic!("register expected"),
        };
        let val = |o: &Operand, regs: &[u32; 16]| match o {
            Operand::Reg(r) => regs[r.first.num as usize],
            Operand::Imm(Imm::Int(v)) => *v as u32,
            _ => panic!("unexpected operand"),
        };
        for i in insts {
            let ops = &i.inst.operands;
            match i.inst.op {
                Opcode::SMovB32 => regs[num(&ops[0])] = val(&ops[1], regs),
                Opcode::SXorB32 => regs[num(&ops[0])] = val(&ops[1], regs) ^ val(&ops[2], regs),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// Every permutation-with-copies of 4 registers (each destination distinct, sources
    /// any register or a constant): sequential execution of the lowering equals the
    /// parallel semantics (all sources read first).
    #[test]
    fn parallel_copies_with_cycles() {
        let s = |n: u16| RegRange::new(RegFile::Sgpr, n, 1);
        let mut cases = 0;
        for code in 0..(6u32.pow(4)) {
            let mut moves = Vec::new();
            let mut c = code;
            for d in 0..4u16 {
                let pick = c % 6;
                c /= 6;
                let src = match pick {
                    0..=3 => Operand::Reg(s(pick as u16)),
                    4 => Operand::Reg(s(d + 4)),
                    _ => Operand::Imm(Imm::Int(7)),
                };
                moves.push((s(d), src));
            }
            let mut regs = [0u32; 16];
            for (i, r) in regs.iter_mut().enumerate() {
                *r = 100 + i as u32;
            }
            let mut expect = regs;
            for (d, src) in &moves {
                expect[d.first.num as usize] = match src {
                    Operand::Reg(r) => regs[r.first.num as usize],
                    _ => 7,
                };
            }
            let mut out = HwBlock::new();
            parallel_copy(moves, Origin::default(), &mut out);
            execute(&out, &mut regs);
            assert_eq!(regs, expect, "case {code}");
            cases += 1;
        }
        assert_eq!(cases, 1296);
    }
}
