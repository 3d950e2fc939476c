//! The ABI contract checker: every `s_swappc_b64` opens a frame that records, for the lanes
//! active at the call, the registers the callee must preserve and the stack pointer; when
//! control comes back to the return address they are compared and every difference is a
//! violation naming the callee, the call, the register and the lane.
//!
//! Decisions: a frame closes at the first `s_setpc_b64` to the innermost frame's return
//! address (a divergent call's chain of callees, spec aco-calls.md §7, returns once); the
//! other `s_setpc_b64` targets inside a frame are recorded as the chain. `exec` must be the
//! same at the return as at the call (§7: exec is restored before the ballot). The stack
//! pointer is named by the caller (it is a parameter whose register the assignment
//! chooses); parameters that need explicit preservation are added as extra preserved
//! registers, except those that carry new values back (divergent/uniform PC, return
//! values), which the caller simply does not list. Calls that never return (a wave ending
//! in a callee) are not violations: NORETURN functions do that.

use std::fmt;

use gpuabi_amdgpu::{Origin, Target, WaveSize};
use gpuabi_layout::aco::{self, Abi, AcoError, Demand, LimitInputs};
use gpuabi_layout::reg::{Reg, RegFile, RegRange, RegSet};

use crate::image::{Decoded, Image};
use crate::wave::{Wave, LANE_STRIDE};

/// What a callee broke.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ContractViolation {
    /// The callee (label and address).
    pub callee: String,
    /// Functions the callee went on to with `s_setpc_b64` before returning (a divergent
    /// call's chain), in order.
    pub chain: Vec<String>,
    /// Address of the `s_swappc_b64` that called it.
    pub call_addr: u64,
    /// Origin of the call.
    pub call_origin: Origin,
    /// Address of the instruction that returned (`s_setpc_b64` to the return address).
    pub return_addr: u64,
    /// Origin of that instruction.
    pub return_origin: Origin,
    /// The register (`s40`, `v12`, `exec`) or `stack pointer s32`.
    pub register: String,
    /// The lane, for VGPRs.
    pub lane: Option<u32>,
    /// Value at the call.
    pub before: u64,
    /// Value at the return.
    pub after: u64,
}

impl fmt::Display for ContractViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "callee {} (called at 0x{:x}{}; returned by 0x{:x}{}) changed {}",
            self.callee,
            self.call_addr,
            at(&self.call_origin),
            self.return_addr,
            at(&self.return_origin),
            self.register
        )?;
        if let Some(l) = self.lane {
            write!(f, " in lane {l}")?;
        }
        write!(
            f,
            ": 0x{:x} before the call, 0x{:x} after",
            self.before, self.after
        )?;
        if !self.chain.is_empty() {
            write!(f, " (the call went on to {})", self.chain.join(", then "))?;
        }
        Ok(())
    }
}

/// `, line 3` or nothing.
fn at(origin: &Origin) -> String {
    match origin {
        Origin::None => String::new(),
        o => format!(", {o}"),
    }
}

#[derive(Debug, Clone)]
struct Frame {
    callee: String,
    chain: Vec<String>,
    call_addr: u64,
    call_origin: Origin,
    return_addr: u64,
    exec: u64,
    sgprs: Vec<(u16, u32)>,
    vgprs: Vec<(u16, [u32; LANE_STRIDE])>,
    stack_pointer: Vec<(u16, u32)>,
}

/// The contract of one call ABI, and the frames and violations of a run.
#[derive(Debug, Clone)]
pub struct Contract {
    /// Name of the ABI.
    pub abi: String,
    /// Registers every callee must preserve.
    pub preserved: RegSet,
    /// The stack-pointer SGPR(s), which must also be unchanged at the return.
    pub stack_pointer: Option<RegRange>,
    sgprs: Vec<u16>,
    vgprs: Vec<u16>,
    frames: Vec<Frame>,
    /// Violations found so far, in the order the returns happened.
    pub violations: Vec<ContractViolation>,
    /// Calls whose return was checked.
    pub checked_returns: u64,
}

impl Contract {
    /// A contract from an explicit preserved set.
    pub fn new(
        abi: impl Into<String>,
        preserved: RegSet,
        stack_pointer: Option<RegRange>,
    ) -> Contract {
        let list = |file: RegFile| -> Vec<u16> {
            (0..file.capacity())
                .filter(|&n| preserved.contains(Reg { file, num: n }))
                .collect()
        };
        Contract {
            abi: abi.into(),
            sgprs: list(RegFile::Sgpr),
            vgprs: list(RegFile::Vgpr),
            preserved,
            stack_pointer,
            frames: Vec::new(),
            violations: Vec::new(),
            checked_returns: 0,
        }
    }

    /// The contract of an ACO call ABI: its preserved ranges under `limit` (the target's
    /// default ray-tracing limit when `None`, spec §4), plus `explicit` registers that hold
    /// parameters needing explicit preservation (spec §6.7, §11).
    pub fn from_aco(
        abi: &Abi,
        target: Target,
        wave: WaveSize,
        limit: Option<Demand>,
        explicit: &[RegRange],
        stack_pointer: Option<RegRange>,
    ) -> Result<Contract, AcoError> {
        let limit = match limit {
            Some(l) => l,
            None => aco::Target::new(target, wave.lanes())?.default_limit(LimitInputs::default()),
        };
        let ranges = aco::register_ranges(&abi.block, limit)?;
        let mut preserved = ranges.preserved;
        for r in explicit {
            preserved.insert_range(*r);
        }
        Ok(Contract::new(abi.name.clone(), preserved, stack_pointer))
    }

    /// Open frames (calls not yet returned).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Records a frame at a call: `call` is the `s_swappc_b64`, already executed.
    pub fn on_call(&mut self, wave: &Wave, call: &Decoded, callee_addr: u64, image: &Image) {
        let exec = wave.exec();
        let sp_regs: Vec<u16> = self
            .stack_pointer
            .map(|r| (r.first.num..r.end()).collect())
            .unwrap_or_default();
        self.frames.push(Frame {
            callee: image.describe(callee_addr),
            chain: Vec::new(),
            call_addr: call.addr,
            call_origin: call.origin.clone(),
            return_addr: call.next_addr,
            exec,
            sgprs: self
                .sgprs
                .iter()
                .map(|&n| (n, wave.sgpr[n as usize]))
                .collect(),
            vgprs: self.vgprs.iter().map(|&n| (n, *wave.vreg(n))).collect(),
            stack_pointer: sp_regs
                .iter()
                .map(|&n| (n, wave.sgpr[n as usize]))
                .collect(),
        });
    }

    /// Checks a jump: if it goes to the innermost frame's return address, the frame closes
    /// and its registers are compared. `jump` is the instruction that jumped.
    pub fn on_jump(&mut self, wave: &Wave, jump: &Decoded, target: u64, image: &Image) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        if top.return_addr != target {
            top.chain.push(image.describe(target));
            return;
        }
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.checked_returns += 1;
        let mut report = |register: String, lane: Option<u32>, before: u64, after: u64| {
            self.violations.push(ContractViolation {
                callee: frame.callee.clone(),
                chain: frame.chain.clone(),
                call_addr: frame.call_addr,
                call_origin: frame.call_origin.clone(),
                return_addr: jump.addr,
                return_origin: jump.origin.clone(),
                register,
                lane,
                before,
                after,
            });
        };
        let exec = wave.exec();
        if exec != frame.exec {
            report("exec".into(), None, frame.exec, exec);
        }
        for &(n, before) in &frame.sgprs {
            let after = wave.sgpr[n as usize];
            if after != before {
                report(Reg::sgpr(n).to_string(), None, before.into(), after.into());
            }
        }
        for &(n, before) in &frame.stack_pointer {
            let after = wave.sgpr[n as usize];
            if after != before {
                report(
                    format!("stack pointer {}", Reg::sgpr(n)),
                    None,
                    before.into(),
                    after.into(),
                );
            }
        }
        for (n, before) in &frame.vgprs {
            let now = wave.vreg(*n);
            let mut m = frame.exec;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                if now[l] != before[l] {
                    report(
                        Reg::vgpr(*n).to_string(),
                        Some(l as u32),
                        before[l].into(),
                        now[l].into(),
                    );
                }
            }
        }
    }
}
