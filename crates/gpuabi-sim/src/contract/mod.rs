//! The ABI contract checker: every `s_swappc_b64` opens a frame that records, for every
//! lane of the wave, the registers the callee must preserve and the stack pointer; when
//! control comes back to the return address they are compared and every difference is a
//! violation naming the callee, the call, the register and the lane. While the frame is
//! open, stores below the floor of the callee's stack (into the caller's frame) are
//! violations too.
//!
//! Each call is checked against its own [`CallSite`] when the contract has one for the
//! call's instruction (keyed by its index in `Program::items`), else against the
//! contract's default site.
//!
//! Decisions: a frame closes at the first `s_setpc_b64` to the innermost frame's return
//! address (a divergent call's chain of callees returns once). The rule for returns
//! anywhere else: the caller's code after the call is the span from the return address
//! to the next function (functions start at the labels [`Image::function_at`] takes and
//! at every callee entry a call has gone to). A callee that enters that span anywhere but
//! the return address, by `s_setpc_b64` or by a branch from another function (a branch
//! within one function stays in it: a recursive callee runs its caller's code), returns
//! to the wrong place: a
//! violation, after which the frame closes there (its registers compared too). An
//! `s_setpc_b64` outside the span (to another function: the next callee of a divergent
//! call) continues the call's chain. `exec` must be the same at the return
//! as at the call (Mesa `radv_nir_lower_call_abi.c`: exec is restored before the dispatch
//! ballot). Preserved VGPRs are compared in every lane of the wave, not only the lanes
//! active at the call: a callee's writes are masked by exec, so lanes it did not run keep
//! their values, and whole-wave saves must restore every lane. The stack pointer is named
//! by the call site (it is a parameter whose register the assignment chooses);
//! parameters that need explicit preservation are part of the site's preserved set,
//! except those that carry new values back (divergent/uniform PC, return values), which
//! the caller simply does not list. Calls that never return (a wave ending in a callee)
//! are not violations: NORETURN functions do that. Frames do not outlive their wave.
//! Violations found before a run stops with an error stay in the contract. At most
//! [`MAX_VIOLATIONS`] are kept; the others are counted in `suppressed`.

mod floor;
mod llvm;
mod site;
mod violation;

use std::collections::{BTreeMap, HashMap};

use gpuabi_amdgpu::{Origin, Target, WaveSize};
use gpuabi_layout::aco::{Abi, AcoError, Demand};
use gpuabi_layout::reg::{Reg, RegRange, RegSet};

pub(crate) use floor::StackPath;
pub use llvm::{
    llvm_amdgpu_gfx_preserved, llvm_gfx_preserved, LLVM_AMDGPU_GFX, LLVM_GFX, LLVM_STACK_POINTER,
};
pub use site::{aco_preserved, CallSite};
pub use violation::{Broken, ContractViolation};

use crate::image::{Decoded, Functions, Image};
use crate::wave::{Wave, LANE_STRIDE};
use floor::Floor;
use site::Checks;

/// Violations a contract keeps; a broken callee in a loop would otherwise grow the report
/// with every iteration and lane.
pub const MAX_VIOLATIONS: usize = 10_000;

#[derive(Debug, Clone)]
struct Frame {
    /// Index into `Contract::sites`.
    site: usize,
    callee: String,
    chain: Vec<String>,
    call_addr: u64,
    call_origin: Origin,
    return_addr: u64,
    /// The caller's code after the call, `start..end`: from the return address to the
    /// next function; `None` for a caller outside the program.
    caller: Option<(u64, u64)>,
    exec: u64,
    /// Values at the call, in the order of the site's register lists.
    sgprs: Vec<u32>,
    vgprs: Vec<[u32; LANE_STRIDE]>,
    stack_pointer: Vec<u32>,
    floor: Option<Floor>,
}

/// The open call frames of a wave that waits at a barrier while other waves of its
/// work-group run.
#[derive(Debug, Default)]
pub struct WaveFrames {
    frames: Vec<Frame>,
    floors: [Option<u64>; 2],
}

/// The contracts of a run's calls, and the frames and violations of the run.
#[derive(Debug, Clone)]
pub struct Contract {
    /// Name of the default site's ABI (the ABI of calls without a site of their own).
    pub abi: String,
    /// `sites[0]` is the default.
    sites: Vec<Checks>,
    /// Index in `Program::items` of a call instruction → index into `sites`.
    by_item: HashMap<usize, usize>,
    /// Address of a callee → index into `sites`, for calls without a site of their own.
    by_callee: HashMap<u64, usize>,
    frames: Vec<Frame>,
    /// Per stack path, the highest floor of the open frames: stores at or above it need
    /// no further look.
    floors: [Option<u64>; 2],
    /// Violations found so far, in the order they were found.
    pub violations: Vec<ContractViolation>,
    /// Violations found beyond [`MAX_VIOLATIONS`] and not kept.
    pub suppressed: u64,
    /// Calls whose return was checked.
    pub checked_returns: u64,
    /// Calls made from an instruction without a site of its own to a callee without one,
    /// checked against the default site.
    pub default_calls: u64,
    /// Where the run's swizzled scratch buffer starts, when known: a store through a
    /// swizzled resource below it goes to other memory (a buffer whose descriptor the
    /// program found in memory), not into a caller's frame.
    pub stack_bottom: Option<u64>,
    /// The program's functions, for naming the one that holds each violation's
    /// instruction (taken from the image at the first call).
    functions: Functions,
    /// Callee entries calls and divergent chains have gone to, with their labels:
    /// functions start there too.
    entries: BTreeMap<u64, Option<String>>,
    /// Calls made (`s_swappc_b64` executed), by the call's address and the callee's: which
    /// functions each call site reached, and how often.
    pub calls_made: BTreeMap<(u64, u64), u64>,
}

impl Contract {
    /// A contract whose every call is checked against `default`.
    pub fn from_site(default: CallSite) -> Contract {
        Contract {
            abi: default.abi.clone(),
            sites: vec![Checks::new(default)],
            by_item: HashMap::new(),
            by_callee: HashMap::new(),
            frames: Vec::new(),
            floors: [None; 2],
            violations: Vec::new(),
            suppressed: 0,
            checked_returns: 0,
            default_calls: 0,
            stack_bottom: None,
            functions: Functions::default(),
            entries: BTreeMap::new(),
            calls_made: BTreeMap::new(),
        }
    }

    /// A contract from an explicit preserved set, for every call.
    pub fn new(
        abi: impl Into<String>,
        preserved: RegSet,
        stack_pointer: Option<RegRange>,
    ) -> Contract {
        Contract::from_site(CallSite::new(abi, preserved, stack_pointer))
    }

    /// The contract of an ACO call ABI for every call: its preserved ranges under `limit`
    /// (the target's default ray-tracing limit when `None`), plus `explicit` registers
    /// that hold parameters needing explicit preservation.
    pub fn from_aco(
        abi: &Abi,
        target: Target,
        wave: WaveSize,
        limit: Option<Demand>,
        explicit: &[RegRange],
        stack_pointer: Option<RegRange>,
    ) -> Result<Contract, AcoError> {
        let preserved = aco_preserved(abi, target, wave, limit, explicit)?;
        Ok(Contract::new(abi.name.clone(), preserved, stack_pointer))
    }

    /// A contract from a table of call sites keyed by the index in `Program::items` of
    /// their `s_swappc_b64`. A call missing from the table preserves nothing and has no
    /// stack pointer (only `exec` is checked) and is counted in `default_calls`.
    pub fn from_sites(sites: impl IntoIterator<Item = (usize, CallSite)>) -> Contract {
        Contract::from_site(CallSite::new("none", RegSet::new(), None)).with_sites(sites)
    }

    /// Adds call sites keyed by the index in `Program::items` of their `s_swappc_b64`
    /// (a later entry for the same item replaces an earlier one).
    pub fn with_sites(mut self, sites: impl IntoIterator<Item = (usize, CallSite)>) -> Contract {
        for (item, site) in sites {
            self.by_item.insert(item, self.sites.len());
            self.sites.push(Checks::new(site));
        }
        self
    }

    /// Adds call sites keyed by the address of the function called: a call whose
    /// instruction has no site of its own is checked against the site of its callee, when
    /// the callee has one (a driver's functions call each other through addresses held in
    /// memory, so the callee, not the call, says which ABI applies).
    pub fn with_callee_sites(
        mut self,
        sites: impl IntoIterator<Item = (u64, CallSite)>,
    ) -> Contract {
        for (addr, site) in sites {
            self.by_callee.insert(addr, self.sites.len());
            self.sites.push(Checks::new(site));
        }
        self
    }

    /// The default site, for calls without a site of their own.
    pub fn default_site(&self) -> &CallSite {
        &self.sites[0].site
    }

    /// The site of the call at `item` (an index in `Program::items`), or the default.
    pub fn site(&self, item: usize) -> &CallSite {
        &self.sites[self.by_item.get(&item).copied().unwrap_or(0)].site
    }

    /// Open frames (calls not yet returned).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Closes every open frame without checking it: a new wave starts, and the calls an
    /// earlier wave never returned from are not its frames.
    pub fn begin_wave(&mut self) {
        self.frames.clear();
        self.floors = [None; 2];
    }

    /// Takes out the open frames of the running wave, so that another wave of its
    /// work-group can run while it waits at `s_barrier`; [`Contract::resume_wave`] puts
    /// them back.
    pub fn suspend_wave(&mut self) -> WaveFrames {
        WaveFrames {
            frames: std::mem::take(&mut self.frames),
            floors: std::mem::take(&mut self.floors),
        }
    }

    /// Makes `frames` (from [`Contract::suspend_wave`]) the running wave's open frames.
    pub fn resume_wave(&mut self, frames: WaveFrames) {
        self.frames = frames.frames;
        self.floors = frames.floors;
    }

    /// Records a frame at a call: `call` is the `s_swappc_b64`, already executed.
    pub fn on_call(&mut self, wave: &Wave, call: &Decoded, callee_addr: u64, image: &Image) {
        if self.entries.is_empty() {
            self.functions = image.functions().clone();
        }
        self.entry(callee_addr, image);
        *self.calls_made.entry((call.addr, callee_addr)).or_default() += 1;
        let site = if self.by_item.is_empty() {
            None
        } else {
            image
                .index_at(call.addr)
                .and_then(|i| image.item_index(i))
                .and_then(|item| self.by_item.get(&item).copied())
        };
        let site = site.or_else(|| self.by_callee.get(&callee_addr).copied());
        if site.is_none() {
            self.default_calls += 1;
        }
        let index = site.unwrap_or(0);
        let checks = &self.sites[index];
        let callee = if checks.site.callee.is_empty() {
            image.describe(callee_addr)
        } else {
            format!("{} (0x{callee_addr:x})", checks.site.callee)
        };
        let caller = Some(self.caller_span(call.next_addr, image));
        self.open(
            wave,
            index,
            callee,
            (call.addr, call.origin.clone()),
            call.next_addr,
            caller,
        );
    }

    /// The caller's code after a call that returns to `ret`: from `ret` to the next
    /// function (a function label or a callee entry), or to the end of the code.
    fn caller_span(&self, ret: u64, image: &Image) -> (u64, u64) {
        let code_end = image.insts.last().map_or(ret, |d| d.next_addr);
        let end = image.functions().next_after(ret).unwrap_or(code_end);
        let end = self
            .entries
            .range(ret + 1..)
            .next()
            .map_or(end, |(e, _)| end.min(*e));
        (ret, end)
    }

    /// Records that a function starts at `addr` (a callee, or the next callee of a
    /// divergent call).
    fn entry(&mut self, addr: u64, image: &Image) {
        self.entries
            .entry(addr)
            .or_insert_with(|| image.label_at(addr).map(str::to_string));
    }

    /// Records a frame for a function entered by a caller outside the program (which
    /// gpuabi plays, as `sim check-function` does), checked against the default site: the
    /// call is at `call_addr` (outside the program) and returns to `return_addr`.
    pub fn enter(&mut self, wave: &Wave, callee: String, call_addr: u64, return_addr: u64) {
        self.open(
            wave,
            0,
            callee,
            (call_addr, Origin::None),
            return_addr,
            None,
        );
    }

    fn open(
        &mut self,
        wave: &Wave,
        index: usize,
        callee: String,
        (call_addr, call_origin): (u64, Origin),
        return_addr: u64,
        caller: Option<(u64, u64)>,
    ) {
        let checks = &self.sites[index];
        let frame = Frame {
            site: index,
            callee,
            chain: Vec::new(),
            call_addr,
            call_origin,
            return_addr,
            caller,
            exec: wave.exec(),
            sgprs: checks
                .sgprs
                .iter()
                .map(|&n| wave.sgpr[n as usize])
                .collect(),
            vgprs: checks.vgprs.iter().map(|&n| *wave.vreg(n)).collect(),
            stack_pointer: checks
                .stack_pointer
                .iter()
                .map(|&n| wave.sgpr[n as usize])
                .collect(),
            floor: Floor::at_call(
                wave,
                checks.site.stack_pointer,
                checks.site.scratch_param_bytes,
                checks.site.scratch_resource,
            ),
        };
        if let Some(f) = frame.floor {
            let slot = &mut self.floors[f.path().index()];
            *slot = Some(slot.map_or(f.address(), |a| a.max(f.address())));
        }
        self.frames.push(frame);
    }

    /// Checks a jump (`s_setpc_b64`): to the innermost frame's return address it closes
    /// the frame and compares its registers; into the caller's code anywhere else it is a
    /// return to the wrong place (the frame closes with a violation, and so does every
    /// outer frame the jump leaves the same way); to another function it continues the
    /// call's chain. `jump` is the instruction that jumped.
    pub fn on_jump(&mut self, wave: &Wave, jump: &Decoded, target: u64, image: &Image) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        if top.return_addr != target && !in_span(top.caller, target) {
            top.chain.push(image.describe(target));
            self.entry(target, image);
            return;
        }
        self.returns(wave, jump, target);
    }

    /// Checks a taken branch while a frame is open: a branch into the caller's code is a
    /// return (by a branch rather than `s_setpc_b64`), right or wrong as for
    /// [`Contract::on_jump`]; one inside the callee's own code is nothing to check.
    pub fn on_branch(&mut self, wave: &Wave, branch: &Decoded, target: u64) {
        let Some(top) = self.frames.last() else {
            return;
        };
        // A branch inside one function stays in it, even when that function is the caller
        // (a recursive callee runs its caller's code).
        if self.function_start(branch.addr) == self.function_start(target) {
            return;
        }
        if top.return_addr == target || in_span(top.caller, target) {
            self.returns(wave, branch, target);
        }
    }

    /// Where the function that holds `addr` starts (a function label or a callee entry;
    /// 0 before the first).
    fn function_start(&self, addr: u64) -> u64 {
        let label = self.functions.at(addr).map_or(0, |(_, a)| a);
        self.entries
            .range(..=addr)
            .next_back()
            .map_or(label, |(e, _)| label.max(*e))
    }

    /// Closes the frames a return to `target` by `by` leaves: each innermost frame whose
    /// caller's code holds `target`, with a violation unless `target` is its return address
    /// (the first frame whose return address it is closes last).
    fn returns(&mut self, wave: &Wave, by: &Decoded, target: u64) {
        while let Some(top) = self.frames.last() {
            if top.return_addr == target {
                self.close(wave, by.addr, &by.origin);
                return;
            }
            if !in_span(top.caller, target) {
                return;
            }
            let v = ContractViolation {
                callee: top.callee.clone(),
                abi: self.sites[top.site].site.abi.clone(),
                chain: top.chain.clone(),
                call_addr: top.call_addr,
                call_origin: top.call_origin.clone(),
                at_addr: by.addr,
                at_origin: by.origin.clone(),
                at_function: self.function_name(by.addr),
                broken: Broken::Return {
                    expected: top.return_addr,
                    target,
                },
            };
            keep(&mut self.violations, &mut self.suppressed, v);
            self.close(wave, by.addr, &by.origin);
        }
    }

    /// The name of the function that holds `addr`, if the program names one: the
    /// function label or callee entry nearest before it.
    fn function_name(&self, addr: u64) -> Option<String> {
        let label = self.functions.at(addr);
        match self.entries.range(..=addr).next_back() {
            Some((start, name)) if label.is_none_or(|(_, l)| *start > l) => name.clone(),
            _ => label.map(|(name, _)| name.to_string()),
        }
    }

    /// Closes the innermost frame where its callee leaves by the instruction at `at_addr`,
    /// wherever it goes, and compares its registers: a function that hands its lanes on to
    /// the next callee of a divergent call owes that callee the state it owes its caller.
    pub fn leave(&mut self, wave: &Wave, at_addr: u64, at_origin: &Origin) {
        self.close(wave, at_addr, at_origin);
    }

    fn close(&mut self, wave: &Wave, at_addr: u64, at_origin: &Origin) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if frame.floor.is_some() {
            self.refresh_floors();
        }
        self.checked_returns += 1;
        let at_function = self.function_name(at_addr);
        let Contract {
            sites,
            violations,
            suppressed,
            ..
        } = self;
        let checks = &sites[frame.site];
        let mut report = |register: String, lane: Option<u32>, before: u64, after: u64| {
            keep(
                violations,
                suppressed,
                ContractViolation {
                    callee: frame.callee.clone(),
                    abi: checks.site.abi.clone(),
                    chain: frame.chain.clone(),
                    call_addr: frame.call_addr,
                    call_origin: frame.call_origin.clone(),
                    at_addr,
                    at_origin: at_origin.clone(),
                    at_function: at_function.clone(),
                    broken: Broken::Register {
                        register,
                        lane,
                        before,
                        after,
                    },
                },
            );
        };
        let exec = wave.exec();
        if exec != frame.exec {
            report("exec".into(), None, frame.exec, exec);
        }
        for (&n, &before) in checks.sgprs.iter().zip(&frame.sgprs) {
            let after = wave.sgpr[n as usize];
            if after != before {
                report(Reg::sgpr(n).to_string(), None, before.into(), after.into());
            }
        }
        for (&n, &before) in checks.stack_pointer.iter().zip(&frame.stack_pointer) {
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
        let lanes = wave.lanes();
        for (&n, before) in checks.vgprs.iter().zip(&frame.vgprs) {
            let now = wave.vreg(n);
            if now[..lanes] == before[..lanes] {
                continue;
            }
            for l in 0..lanes {
                if now[l] != before[l] {
                    report(
                        Reg::vgpr(n).to_string(),
                        Some(l as u32),
                        before[l].into(),
                        now[l].into(),
                    );
                }
            }
        }
    }

    /// The highest floor of the open frames for stores that take `path`: a store below
    /// it writes some caller's frame.
    #[inline]
    pub(crate) fn floor(&self, path: StackPath) -> Option<u64> {
        self.floors[path.index()]
    }

    /// Whether any open frame has a floor (so stores need checking).
    #[inline]
    pub(crate) fn has_floor(&self) -> bool {
        self.floors.iter().any(Option::is_some)
    }

    /// Reports a store of `bytes` per lane at `address` (taking `path`) below
    /// [`Contract::floor`], against the innermost open frame whose floor lies above it:
    /// the caller of that frame's callee owns the bytes written.
    pub(crate) fn on_frame_store(
        &mut self,
        store: &Decoded,
        path: StackPath,
        lane: u32,
        address: u64,
        bytes: u32,
    ) {
        if path == StackPath::SwizzledBuffer && self.stack_bottom.is_some_and(|b| address < b) {
            return;
        }
        let at_function = self.function_name(store.addr);
        let Contract {
            sites,
            frames,
            violations,
            suppressed,
            ..
        } = self;
        let Some((frame, floor)) = frames.iter().rev().find_map(|f| {
            f.floor
                .filter(|fl| fl.path() == path && address < fl.address())
                .map(|fl| (f, fl))
        }) else {
            return;
        };
        keep(
            violations,
            suppressed,
            ContractViolation {
                callee: frame.callee.clone(),
                abi: sites[frame.site].site.abi.clone(),
                chain: frame.chain.clone(),
                call_addr: frame.call_addr,
                call_origin: frame.call_origin.clone(),
                at_addr: store.addr,
                at_origin: store.origin.clone(),
                at_function,
                broken: Broken::CallerFrame {
                    lane,
                    address,
                    bytes,
                    floor: floor.address(),
                    below: floor.bytes_below(address),
                },
            },
        );
    }

    fn refresh_floors(&mut self) {
        for path in StackPath::ALL {
            self.floors[path.index()] = self
                .frames
                .iter()
                .filter_map(|f| f.floor.filter(|fl| fl.path() == path))
                .map(Floor::address)
                .max();
        }
    }
}

/// Keeps `v` unless the report is full.
fn keep(violations: &mut Vec<ContractViolation>, suppressed: &mut u64, v: ContractViolation) {
    if violations.len() < MAX_VIOLATIONS {
        violations.push(v);
    } else {
        *suppressed += 1;
    }
}

/// Whether `addr` lies in the code span `span` (a caller's code).
fn in_span(span: Option<(u64, u64)>, addr: u64) -> bool {
    span.is_some_and(|(start, end)| (start..end).contains(&addr))
}
