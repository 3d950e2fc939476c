//! VOPD pairing: on RDNA 3 and RDNA 4 in wave32, two independent VALU instructions of
//! VOPD's opcode table issue as one dual instruction (`v_dual_mul_f32 v0, v1, v2 ::
//! v_dual_add_f32 v3, v4, v5`), halving their issue slots, as LLVM's post-RA VOPD
//! formation does (`GCNCreateVOPD.cpp`, with the rules of `GCNVOPDUtils.cpp`).
//!
//! The pass runs on the lowered code after the waits are placed. For each candidate X it
//! looks at most [`WINDOW`] instructions ahead for a Y it can pair with and move up to X:
//!
//! - both are VALU instructions of VOPD's table (`gpuabi_amdgpu::opcode_numbers::VOPD_OPCODES`)
//!   without modifiers, and neither pays for the call ABI (so the ABI-overhead figures
//!   count exactly what they counted before);
//! - Y reads nothing X writes (the halves read their sources before either writes: "RDNA3
//!   ISA", "VOPD"), and nothing between them writes what Y reads, or reads or writes what
//!   Y writes; nothing between them writes `exec`, branches, or is a wait or another
//!   `s_*` program-control instruction (so Y never moves above a wait it needs);
//! - the pair is valid VOPD (`gpuabi_amdgpu::validate::check_inst`: destination parity,
//!   source banks, one literal, two scalar values), trying X and Y in either role.

use gpuabi_amdgpu::opcodes::{Class, Format};
use gpuabi_amdgpu::{Effects, Inst, Operand, Special, Target, WaveSize};
use gpuabi_layout::reg::RegFile;

use crate::error::PassError;
use crate::lower_to_hw::{HwBlock, HwInst};
use crate::mir::{AbiCost, Function};
use crate::pipeline::Context;

/// How many instructions after X the pass looks for its Y.
pub const WINDOW: usize = 8;

/// Registers an instruction reads or writes: SGPRs 0-127, VGPRs 0-255, then `vcc`, `m0`
/// and SCC.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Regs([u64; 7]);

const VCC: usize = 384;
const M0: usize = 385;
const SCC: usize = 386;

impl Regs {
    fn add(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn meets(&self, other: &Regs) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// Adds the registers of `o`; `false` for an operand the pass does not move past or
    /// with (`exec`, trap and flat-scratch registers).
    fn operand(&mut self, o: &Operand) -> bool {
        match o {
            Operand::Reg(r) => {
                let base = if r.file() == RegFile::Vgpr { 128 } else { 0 };
                for k in 0..r.count {
                    self.add((base + r.first.num + k).min(383) as usize);
                }
                true
            }
            Operand::Special(Special::Vcc | Special::VccLo | Special::VccHi) => {
                self.add(VCC);
                true
            }
            Operand::Special(Special::M0) => {
                self.add(M0);
                true
            }
            Operand::Special(Special::Scc) => {
                self.add(SCC);
                true
            }
            Operand::Special(Special::Null) => true,
            Operand::Special(_) => false,
            _ => true,
        }
    }
}

/// What an instruction reads and writes, or `None` when nothing may move past it.
fn reads_writes(inst: &Inst) -> Option<(Regs, Regs)> {
    let info = inst.op.info();
    let fx = info.effects;
    if fx.intersects(Effects::WRITE_EXEC | Effects::BRANCH | Effects::CALL | Effects::TERMINATOR)
        || info.format == Format::Sopp
        || info.class == Class::Control
        || inst.dual.is_some()
    {
        return None;
    }
    let (mut r, mut w) = (Regs::default(), Regs::default());
    let dsts = inst.dsts().len();
    for (k, o) in inst.operands.iter().enumerate() {
        let ok = if k < dsts {
            w.operand(o) && (!fx.contains(Effects::READ_DST) || r.operand(o))
        } else {
            r.operand(o)
        };
        if !ok {
            return None;
        }
    }
    for (flag, reg) in [
        (Effects::READ_VCC, VCC),
        (Effects::READ_M0, M0),
        (Effects::READ_SCC, SCC),
    ] {
        if fx.contains(flag) {
            r.add(reg);
        }
    }
    for (flag, reg) in [
        (Effects::WRITE_VCC, VCC),
        (Effects::WRITE_M0, M0),
        (Effects::WRITE_SCC, SCC),
    ] {
        if fx.contains(flag) {
            w.add(reg);
        }
    }
    Some((r, w))
}

/// Whether `h` may be a half of a VOPD pair at all.
fn candidate(h: &HwInst) -> bool {
    h.cost == AbiCost::None
        && gpuabi_amdgpu::opcode_numbers::vopd_opcodes(h.inst.op).is_some()
        && !h.inst.e64
        && h.inst.src_mods.is_empty()
        && h.inst.sdwa.is_none()
        && h.inst.dual.is_none()
}

/// Whether both halves read one VGPR through the same SRC0 or VSRC1 port (other than two
/// moves). RDNA 4 allows it (ACO pairs such halves), but llvm-mc-19 refuses such a pair, and
/// the code generator's output must assemble with it; RDNA 3 forbids it anyway (one bank).
fn one_vgpr_in_one_port(x: &Inst, y: &Inst) -> bool {
    use gpuabi_amdgpu::validate::vopd_port_vgprs;
    let moves = x.op == gpuabi_amdgpu::Opcode::VMovB32 && y.op == gpuabi_amdgpu::Opcode::VMovB32;
    let (px, py) = (vopd_port_vgprs(x), vopd_port_vgprs(y));
    (0..2).any(|p| !(p == 0 && moves) && px[p].is_some() && px[p] == py[p])
}

/// The dual instruction of `x` and `y` (`y` moved up to `x`), in whichever roles make a
/// valid pair.
fn fuse(x: &HwInst, y: &HwInst, target: Target) -> Option<HwInst> {
    for (a, b) in [(x, y), (y, x)] {
        let mut inst = a.inst.clone();
        inst.dual = Some(Box::new(b.inst.clone()));
        if gpuabi_amdgpu::validate::check_inst(&inst, target, WaveSize::W32).is_ok()
            && !one_vgpr_in_one_port(&a.inst, &b.inst)
        {
            return Some(HwInst {
                inst,
                origin: x.origin,
                cost: AbiCost::None,
            });
        }
    }
    None
}

/// Pairs the instructions of one block.
fn pair_block(block: &mut HwBlock, target: Target) {
    let mut slots: Vec<Option<HwInst>> = std::mem::take(block).into_iter().map(Some).collect();
    for i in 0..slots.len() {
        let Some(x) = slots[i].take() else { continue };
        let mut out = None;
        if candidate(&x) {
            if let Some((xr, xw)) = reads_writes(&x.inst) {
                // What the instructions between X and a later Y read and write.
                let (mut between_r, mut between_w) = (Regs::default(), Regs::default());
                let end = (i + 1 + WINDOW).min(slots.len());
                for slot in &mut slots[i + 1..end] {
                    let Some(y) = slot.as_ref() else { continue };
                    let Some((yr, yw)) = reads_writes(&y.inst) else {
                        break;
                    };
                    let free = candidate(y)
                        && !yr.meets(&xw)
                        && !yw.meets(&xw)
                        && !yw.meets(&xr)
                        && !yr.meets(&between_w)
                        && !yw.meets(&between_r)
                        && !yw.meets(&between_w);
                    if free {
                        if let Some(d) = fuse(&x, y, target) {
                            out = Some(d);
                            *slot = None;
                            break;
                        }
                    }
                    for k in 0..7 {
                        between_r.0[k] |= yr.0[k];
                        between_w.0[k] |= yw.0[k];
                    }
                }
            }
        }
        block.push(out.unwrap_or(x));
    }
}

/// The pass: pairs VALU instructions into VOPD on RDNA 3 and RDNA 4 in wave32 (a function
/// given as machine IR whose every operand is a register is taken as lowered code).
pub fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    let target = ctx.opts.target;
    if target < Target::Gfx1100 || ctx.opts.wave != WaveSize::W32 {
        return Ok(());
    }
    if ctx.hw.is_none() {
        let hw = crate::lower_to_hw::from_machine_ir(f)
            .map_err(|e| PassError::unexpected("form_vopd", f, e))?;
        ctx.hw = Some(hw);
    }
    for block in ctx.hw.as_mut().expect("set above") {
        pair_block(block, target);
    }
    Ok(())
}
