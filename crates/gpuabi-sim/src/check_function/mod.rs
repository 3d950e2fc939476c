//! One compiled function against its calling convention, under adversarial callers and
//! callees: `gpuabi sim check-function`.
//!
//! Each trial enters the function as a caller of its ABI does and plays everything around
//! it:
//!
//! - **Entry** ([`trial`]): every register random in every lane; each parameter in its ABI
//!   register with a random value (the stack pointer a valid frame, the return address and
//!   the callee PCs addresses outside the program that gpuabi recognises); a random
//!   non-empty exec mask; for a function that may be entered by a divergent call, the lanes
//!   that want another callee hold its address in the divergent PC (Mesa's
//!   `radv_nir_lower_call_abi.c`: the caller jumps to the first active lane's PC, each
//!   callee runs its own lanes and hands the rest on). Memory outside the program answers
//!   every load with seeded random bytes, page by page, and keeps what is stored; the LDS
//!   holds random bytes.
//! - **Calls** ([`stub`]): every call the function makes lands in a stub for the callee's
//!   ABI, which clobbers every register that ABI lets a callee clobber (in all lanes),
//!   writes random return values, scribbles over the scratch above its stack pointer and
//!   returns to the return address with the exec mask it was given.
//! - **Exit** ([`trial::Exit`]): the jump that leaves the function must go to the return
//!   address, or, when lanes wait for other callees, to the PC of the lowest such lane,
//!   with the next PCs in the divergent and uniform PC registers; either way the preserved
//!   registers, the parameters that need explicit preservation, the stack pointer and exec
//!   must be what they were at the entry. A store below the stack pointer (minus the
//!   scratch parameters) writes the caller's frame.
//!
//! Decisions of gpuabi (the ABI documents leave them open): LDS is not part of the
//! contract. The ray-tracing instructions whose semantics the simulator does not model
//! (the box and triangle tests, RDNA 3's BVH stack) are answered as loads are, with data
//! the function cannot predict ([`UnmodelledAnswers`]: half of the nodes they return are
//! "no node", so that traversal loops end); other instructions the simulator does not run
//! stop a trial, reported as stopped, not as a violation.

mod spec;
mod stub;
mod trial;

use gpuabi_amdgpu::Origin;
use gpuabi_layout::aco::{Assignment, Location};
use gpuabi_layout::reg::{RegRange, RegSet};
use serde::Serialize;

use crate::contract::{Broken, CallSite, Contract, ContractViolation};
use crate::error::SimError;
use crate::exec::UnmodelledAnswers;
use crate::image::Image;
use crate::limits::Limits;
use crate::machine::{Machine, WaveExit, WaveRun};
use crate::seeded::SplitMix64;
use crate::writes::WriteLog;

pub use spec::Placement;
pub use trial::{OTHER_CALLEE_BASE, PARAM_CALLEE_BASE, RETURN_BASE};

/// A callee of the function, as its stub plays it.
#[derive(Debug, Clone)]
pub struct Callee {
    /// A name for reports (`traversal`, `callable`).
    pub name: String,
    /// The registers it hands back unchanged: its ABI's preserved registers and the
    /// registers of its parameters that need explicit preservation ([`handed_back`]).
    pub preserved: RegSet,
    /// Its stack pointer.
    pub stack_pointer: RegRange,
    /// The registers of its parameters (for [`InactiveLanes::KeepParameters`]).
    pub parameters: RegSet,
}

/// What a callee stub does to the lanes that were inactive at the call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InactiveLanes {
    /// Every register the callee's ABI lets it clobber is clobbered in every lane: a callee
    /// may use any such register as a linear VGPR (ACO's whole-wave values, written with
    /// `v_writelane_b32` or under an all-ones exec), which reaches lanes its caller had
    /// switched off.
    #[default]
    Clobber,
    /// The inactive lanes of the callee's own parameter registers are left alone, the
    /// other clobbered registers are clobbered in every lane: the assumption Mesa's
    /// divergent calls rest on (a function keeps the parameters of the lanes that wait for
    /// another callee in their registers across its own calls, and its callee's parameters
    /// are live in those registers, so the callee writes them only in its active lanes).
    KeepParameters,
}

/// The function under test: where it starts, its ABI and parameters, and what it calls.
#[derive(Debug, Clone)]
pub struct FunctionSpec {
    /// A name for reports (the entry label or the file).
    pub name: String,
    /// The label where it starts.
    pub entry: String,
    /// Its ABI's name.
    pub abi: String,
    /// The registers it must hand back unchanged: its ABI's preserved registers under the
    /// register limit and the registers of its parameters that need explicit preservation
    /// ([`handed_back`]).
    pub preserved: RegSet,
    /// Its parameters, system and RADV parameters included: the stack pointer, the return
    /// address and the callee PCs are found by name.
    pub layout: Assignment,
    /// The swizzled scratch buffer resource its one-SGPR stack pointer is the wave's byte
    /// offset into, if it is one (LLVM's stack before gfx11); its callees share it, and
    /// every function keeps it as it found it.
    pub scratch_resource: Option<RegRange>,
    /// It may be entered by a divergent call (Mesa's DIVERGENT_CALL): lanes may want
    /// another callee, and it hands them on.
    pub divergent: bool,
    /// It never returns (Mesa's NORETURN): it ends the wave (or hands its lanes on), and
    /// its caller passes no return address.
    pub noreturn: bool,
    /// Calls to the address a parameter held at the entry (by name) go to this callee
    /// (RADV passes the traversal function's address as `traversal_addr`).
    pub callees_by_param: Vec<(String, Callee)>,
    /// Calls to any other address.
    pub default_callee: Callee,
}

/// One broken rule, in one trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The trial (0-based) that showed it.
    pub trial: u32,
    /// What was broken: `register`, `stack_pointer`, `exec`, `caller_frame`,
    /// `return_address`, `next_pc`, `ended_wave`.
    pub kind: &'static str,
    /// The register involved, if any (`v40`, `s5`, `exec`).
    pub register: Option<String>,
    /// The lane involved, if any.
    pub lane: Option<u32>,
    /// The instruction that showed it, as printed.
    pub instruction: Option<String>,
    /// Its line in the assembly file.
    pub line: Option<u32>,
    /// The whole story, for people.
    pub message: String,
}

/// A trial that could not run to the function's exit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stopped {
    /// The trial.
    pub trial: u32,
    /// The function did not leave within the instruction limit: a loop over data from
    /// random memory need not end (an emulated BVH traversal reads its nodes itself). Such
    /// a trial checks nothing, but says nothing against the function either.
    pub instruction_limit: bool,
    /// Why.
    pub message: String,
    /// The line of the instruction involved, if any.
    pub line: Option<u32>,
}

/// The result of [`check_function`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The function.
    pub function: String,
    /// Its ABI.
    pub abi: String,
    /// Trials run.
    pub trials: u32,
    /// What callee stubs did to the lanes inactive at a call.
    pub inactive_lanes: InactiveLanes,
    /// Violations, in trial order; at most [`MAX_REPORTED`] are kept.
    pub violations: Vec<Violation>,
    /// Trials that stopped before the function left.
    pub stopped: Vec<Stopped>,
    /// Trials that ended by returning to the return address.
    pub returned: u32,
    /// Trials that ended by handing lanes on to another callee.
    pub handed_on: u32,
    /// Trials that ended the wave (`s_endpgm`).
    pub ended: u32,
    /// Calls the function made, over all trials.
    pub calls: u64,
    /// Instructions executed, over all trials.
    pub instructions: u64,
    /// The executed instructions of the trial asked for with `trace`, one line each, with
    /// a line for every call to a callee stub.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<String>,
}

/// Most violations a report keeps; the rest are counted in the trials that show them.
pub const MAX_REPORTED: usize = 1000;

impl CheckReport {
    /// Whether the function kept its contract in every trial that ran to its exit, and
    /// every trial that did not only ran out of instructions, in at most one trial in a
    /// hundred (random data can keep a loop going; more often than that, or for any other
    /// reason, the check did not check).
    pub fn passed(&self) -> bool {
        let limited = self.stopped.iter().filter(|s| s.instruction_limit).count();
        self.violations.is_empty()
            && self.stopped.len() == limited
            && limited * 100 <= self.trials as usize
    }
}

/// Why a function could not be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The entry label is not in the program.
    #[error("entry label `{0}` is not defined in the program")]
    NoEntry(String),
    /// A parameter the trials need in registers is not there.
    #[error("the {0} is not in registers in the function's layout")]
    NotInRegisters(&'static str),
    /// The function's or a callee's layout could not be computed.
    #[error(transparent)]
    Layout(#[from] gpuabi_layout::aco::AcoError),
}

/// How many trials to run, and how.
#[derive(Debug, Clone, Copy)]
pub struct Trials {
    /// Trials to run.
    pub count: u32,
    /// The seed of the first trial's random state.
    pub seed: u64,
    /// Limits of each trial's run.
    pub limits: Limits,
    /// The trial whose executed instructions [`CheckReport::trace`] lists, if any.
    pub trace: Option<u32>,
    /// What callee stubs do to the lanes inactive at the call.
    pub inactive_lanes: InactiveLanes,
}

impl Trials {
    /// `count` trials from `seed` with default limits and no trace.
    pub fn new(count: u32, seed: u64) -> Trials {
        Trials {
            count,
            seed,
            limits: Limits::default(),
            trace: None,
            inactive_lanes: InactiveLanes::Clobber,
        }
    }
}

/// Runs the trials of `spec`'s function in `image`.
pub fn check_function(
    image: &Image,
    spec: &FunctionSpec,
    trials: Trials,
) -> Result<CheckReport, CheckError> {
    let Trials {
        count: trials,
        seed,
        limits,
        trace,
        inactive_lanes,
    } = trials;
    let entry = image
        .label_addr(&spec.entry)
        .ok_or_else(|| CheckError::NoEntry(spec.entry.clone()))?;
    let plan = trial::Plan::new(image, spec, entry)?;
    let site = own_site(spec)?;
    let stubs = stub::Stubs::new(spec, inactive_lanes);
    let mut report = CheckReport {
        function: spec.name.clone(),
        abi: spec.abi.clone(),
        trials,
        inactive_lanes,
        violations: Vec::new(),
        stopped: Vec::new(),
        returned: 0,
        handed_on: 0,
        ended: 0,
        calls: 0,
        instructions: 0,
        trace: Vec::new(),
    };
    let mut machine = Machine::new(image.clone());
    machine.limits = limits;
    for t in 0..trials {
        let mut rng = SplitMix64::new(seed ^ u64::from(t).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        machine.trace = (trace == Some(t)).then(Vec::new);
        run_trial(&mut machine, &plan, &site, &stubs, t, &mut rng, &mut report);
        if let Some(lines) = machine.trace.take() {
            report.trace = lines;
        }
    }
    Ok(report)
}

/// The contract of the function itself: its preserved registers, its stack pointer and
/// its scratch parameters.
fn own_site(spec: &FunctionSpec) -> Result<CallSite, CheckError> {
    let sp = stack_pointer(&spec.layout).ok_or(CheckError::NotInRegisters("stack pointer"))?;
    // The stack pointer is checked (and reported) as such, not as a preserved register;
    // the scratch resource is kept.
    let mut preserved = spec.preserved.clone();
    if let Some(r) = spec.scratch_resource {
        preserved.insert_range(r);
    }
    preserved.remove_range(sp);
    Ok(CallSite {
        callee: spec.name.clone(),
        abi: spec.abi.clone(),
        preserved,
        stack_pointer: Some(sp),
        scratch_param_bytes: spec.layout.scratch_param_size,
        scratch_resource: spec.scratch_resource,
    })
}

/// The stack pointer's registers in a layout.
pub fn stack_pointer(layout: &Assignment) -> Option<RegRange> {
    match layout.param("stack_pointer")?.location {
        Location::Reg(r) => Some(r),
        Location::Scratch { .. } => None,
    }
}

/// The registers of the parameters a callee must hand back unchanged although its ABI
/// lets it clobber them: those that need explicit preservation, except the stack pointer
/// (checked on its own), the callee PCs (they carry the next PCs) and return values.
pub fn handed_back(layout: &Assignment) -> Vec<RegRange> {
    layout
        .params
        .iter()
        .filter(|p| p.needs_explicit_preservation)
        .filter(|p| {
            !matches!(
                p.name.as_str(),
                "stack_pointer" | "divergent_pc" | "uniform_pc"
            )
        })
        .filter(|p| !p.is_return || p.name == "return_address")
        .filter_map(|p| match p.location {
            Location::Reg(r) => Some(r),
            Location::Scratch { .. } => None,
        })
        .collect()
}

/// One trial: entry, the run with its calls, the exit.
fn run_trial(
    machine: &mut Machine,
    plan: &trial::Plan,
    site: &CallSite,
    stubs: &stub::Stubs,
    t: u32,
    rng: &mut SplitMix64,
    report: &mut CheckReport,
) {
    let mut entry = plan.enter(machine, rng);
    let mut contract = Contract::from_site(site.clone());
    contract.stack_bottom = Some(trial::SCRATCH_BUFFER_BASE);
    contract.enter(
        &entry.wave,
        plan.name.clone(),
        plan.caller_addr,
        entry.return_addr,
    );
    machine.contract = Some(contract);
    machine.stats = Default::default();
    machine.writes = Some(WriteLog::default());
    machine.unmodelled = Some(UnmodelledAnswers::new(rng.next_u64()));
    let mut run = WaveRun::default();
    let outcome = loop {
        match machine.run_to_exit(&mut entry.wave, &mut run) {
            Err(e) => break Err(e),
            Ok(WaveExit::Left {
                call: true,
                target,
                next,
                ..
            }) => {
                report.calls += 1;
                if let Some(t) = machine.trace.as_mut() {
                    t.push(format!(
                        "   callee stub at 0x{target:x}, back to 0x{next:x}"
                    ));
                }
                match stubs.call(machine, &mut entry, target, next, rng) {
                    Ok(()) => continue,
                    Err(e) => break Err(e),
                }
            }
            Ok(exit) => break Ok(exit),
        }
    };
    report.instructions += machine.stats.instructions();
    let mut found = Vec::new();
    match outcome {
        Err(e) => report.stopped.push(Stopped {
            trial: t,
            instruction_limit: matches!(e, SimError::InstructionLimit { .. }),
            line: e.origin().and_then(Origin::line),
            message: e.to_string(),
        }),
        Ok(exit) => {
            let kind = plan.check_exit(machine, &entry, &exit, &mut found);
            match kind {
                trial::Exit::Returned => report.returned += 1,
                trial::Exit::HandedOn => report.handed_on += 1,
                trial::Exit::Ended => report.ended += 1,
                trial::Exit::Elsewhere => {}
            }
            if let (WaveExit::Left { pc, origin, .. }, Some(c)) = (&exit, machine.contract.as_mut())
            {
                if kind != trial::Exit::Elsewhere {
                    c.leave(&entry.wave, *pc, origin);
                }
            }
        }
    }
    if let Some(c) = machine.contract.take() {
        for v in &c.violations {
            found.push(from_contract(v, machine));
        }
    }
    for mut v in found {
        v.trial = t;
        if report.violations.len() < MAX_REPORTED {
            report.violations.push(v);
        }
    }
}

/// A contract violation as check-function reports it: a register by the instruction that
/// last wrote it (the culprit) and the exit that showed it, a store into the caller's
/// frame by the store.
fn from_contract(v: &ContractViolation, machine: &Machine) -> Violation {
    let image = &machine.image;
    let at = |addr: u64| image.index_at(addr);
    let text = |i: u32| image.texts[i as usize].clone();
    let line = |i: u32| image.insts[i as usize].origin.line();
    let exit = at(v.at_addr);
    match &v.broken {
        Broken::Register {
            register,
            lane,
            before,
            after,
        } => {
            let (kind, name) = match register.strip_prefix("stack pointer ") {
                Some(r) => ("stack_pointer", r),
                None if register == "exec" => ("exec", register.as_str()),
                None => ("register", register.as_str()),
            };
            let writer = machine.writes.as_ref().and_then(|w| last_writer(w, name));
            let culprit = writer.or(exit);
            let mut message = name.to_string();
            if let Some(l) = lane {
                message += &format!(" in lane {l}");
            }
            message += &format!(
                " was 0x{before:x} at the entry and is 0x{after:x} when {} leaves",
                v.callee
            );
            if let Some(e) = exit {
                message += &format!(" by `{}`{}", text(e), v.at_origin.suffix());
            }
            if let Some(w) = writer {
                message += &format!(
                    "; last written by `{}`{}",
                    text(w),
                    image.insts[w as usize].origin.suffix()
                );
            }
            Violation {
                trial: 0,
                kind,
                register: Some(name.to_string()),
                lane: *lane,
                instruction: culprit.map(text),
                line: culprit.and_then(line),
                message,
            }
        }
        Broken::Return { expected, target } => Violation {
            trial: 0,
            kind: "return",
            register: None,
            lane: None,
            instruction: exit.map(text),
            line: v.at_origin.line(),
            message: format!(
                "{} went back into its caller at 0x{target:x}, not to the return address \
                 0x{expected:x}",
                v.callee
            ),
        },
        Broken::CallerFrame {
            lane,
            address,
            bytes,
            floor,
            below,
        } => Violation {
            trial: 0,
            kind: "caller_frame",
            register: None,
            lane: Some(*lane),
            instruction: exit.map(text),
            line: v.at_origin.line(),
            message: format!(
                "a {bytes}-byte store in lane {lane} at 0x{address:x}, {below} bytes below the \
                 floor 0x{floor:x} of {}'s stack, writes its caller's frame",
                v.callee
            ),
        },
    }
}

/// The instruction that last wrote a register named as the contract names it (`v40`,
/// `s5`, `exec`).
fn last_writer(log: &WriteLog, name: &str) -> Option<u32> {
    if name == "exec" {
        return log.sgpr(crate::wave::EXEC as u16);
    }
    let (file, number) = name.split_at(1);
    let n: u16 = number.parse().ok()?;
    match file {
        "v" => log.vgpr(n),
        "s" => log.sgpr(n),
        _ => None,
    }
}
