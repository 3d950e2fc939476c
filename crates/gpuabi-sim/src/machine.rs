//! The machine: a decoded program, global memory, limits, counters, the optional contract
//! checker, undefined-register tracking and trace, and the loop that runs a wave.

use gpuabi_amdgpu::{Class, Opcode, Origin};

use crate::contract::{Contract, WaveFrames};
use crate::dispatch::WaveSetup;
use crate::error::SimError;
use crate::exec::lds::LdsCtx;
use crate::exec::memory::MemCtx;
use crate::exec::{branch, lds, memory, salu, valu, Flow, UnmodelledAnswers};
use crate::image::{Decoded, Image};
use crate::limits::{Limits, MAX_LDS_BYTES, MAX_SCRATCH_BYTES_PER_LANE};
use crate::memory::Memory;
use crate::stats::Stats;
use crate::undef::{UndefTracker, UndefinedRead, UnwrittenMemoryRead};
use crate::wave::Wave;
use crate::writes::WriteLog;

/// Everything a run needs besides the waves.
#[derive(Debug)]
pub struct Machine {
    /// The program.
    pub image: Image,
    /// Global memory.
    pub memory: Memory,
    /// Limits.
    pub limits: Limits,
    /// Counters over all waves run so far.
    pub stats: Stats,
    /// The ABI contract checker, if the run has a call ABI.
    pub contract: Option<Contract>,
    /// Whether reads of undefined registers are tracked.
    pub track_undefined: bool,
    /// Whether a register that an outstanding memory load writes, read or overwritten
    /// before an `s_waitcnt` guarantees the load complete, stops the run with
    /// [`SimError::MissingWait`] (see [`crate::waits`]).
    pub check_waits: bool,
    /// Undefined reads found (when tracked).
    pub undefined: Vec<UndefinedRead>,
    /// Reads of private memory nothing wrote, when [`Machine::watch_private`] was called
    /// (which a run with [`Machine::track_undefined`] does).
    pub unwritten: Vec<UnwrittenMemoryRead>,
    /// Executed instructions, one line each, when tracing (bounded by the limits).
    pub trace: Option<Vec<String>>,
    /// Per instruction of the image: how many times a wave executed it, when counted.
    pub counts: Option<Vec<u64>>,
    /// The LDS of the work-group running (after a run: of the last work-group).
    pub lds: Vec<u8>,
    /// The instruction that last wrote each register, when recorded.
    pub writes: Option<WriteLog>,
    /// Answers for the instructions whose semantics are not modelled; without them a run
    /// stops there with [`SimError::NotModelled`].
    pub unmodelled: Option<UnmodelledAnswers>,
    /// Whether a jump or call to an address outside the program ends
    /// [`Machine::run_to_exit`] (which sets it) rather than the run with
    /// [`SimError::BadJump`].
    leave_program: bool,
}

/// Where [`Machine::run_to_exit`] stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaveExit {
    /// The wave executed `s_endpgm`.
    Ended,
    /// The wave jumped (`s_setpc_b64`) or called (`s_swappc_b64`, which has written the
    /// return address into its destination) to an address outside the program.
    Left {
        /// Address of the jumping instruction.
        pc: u64,
        /// Its origin.
        origin: Origin,
        /// The address it jumped to.
        target: u64,
        /// Whether it was a call.
        call: bool,
        /// The address after the jumping instruction (a call's return address).
        next: u64,
    },
}

/// What a wave's run keeps between calls of [`Machine::run_to_exit`]: its instruction
/// count (bounded by [`Limits::instructions_per_wave`] over the whole run) and its calls.
#[derive(Debug, Default)]
pub struct WaveRun {
    progress: Progress,
}

/// Why [`Machine::step_wave`] returned.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stop {
    /// The wave ended.
    End,
    /// The wave executed `s_barrier` and waits.
    Barrier,
    /// The wave left the program (only with [`Machine::leave_program`]).
    Left(WaveExit),
}

/// What a wave's run keeps across barriers besides its registers: its return addresses,
/// the instructions it executed and the index of the last one.
#[derive(Debug, Default)]
struct Progress {
    call_stack: Vec<u64>,
    executed: u64,
    last: usize,
}

/// A wave waiting at a barrier (or not yet started), with what its run keeps.
struct Suspended {
    wave: Wave,
    progress: Progress,
    tracker: Option<UndefTracker>,
    frames: WaveFrames,
}

impl Machine {
    /// A machine for `image` with default limits and global memory holding only the
    /// image's data sections and global offset table.
    pub fn new(image: Image) -> Machine {
        let mut memory = Memory::new();
        for s in &image.segments {
            // The image placed the segments apart from each other and bounded their size.
            let _ = memory.add_segment(&s.name, s.base, s.bytes.clone());
        }
        Machine {
            image,
            memory,
            limits: Limits::default(),
            stats: Stats::default(),
            contract: None,
            track_undefined: false,
            check_waits: false,
            undefined: Vec::new(),
            unwritten: Vec::new(),
            trace: None,
            counts: None,
            lds: Vec::new(),
            writes: None,
            unmodelled: None,
            leave_program: false,
        }
    }

    /// Reports, from now on, reads of private-segment bytes nothing wrote
    /// ([`Machine::unwritten`]): of the HSA private segment and the Catalyst scratch
    /// buffer, where the dispatch set-up created them.
    pub fn watch_private(&mut self) {
        for name in [
            crate::hsa::PRIVATE_SEGMENT_BUFFER,
            crate::catalyst::SCRATCH_BUFFER,
        ] {
            if let Some(i) = self.memory.buffers().iter().position(|b| b.name == name) {
                self.memory.watch(crate::memory::BufferId(i));
            }
        }
    }

    /// Counts, from now on, how often each instruction runs ([`Machine::counts`]).
    pub fn count_instructions(&mut self) {
        self.counts = Some(vec![0; self.image.insts.len()]);
    }

    /// The contract violations found so far (none without a contract). They stay here
    /// when a run stops with an error, so that what was broken before the error can be
    /// reported with it.
    pub fn violations(&self) -> &[crate::contract::ContractViolation] {
        self.contract.as_ref().map_or(&[], |c| &c.violations)
    }

    /// Runs one wave per set-up, each from `entry` (a label), and returns the final state
    /// of the last set-up's wave (`None` without set-ups).
    ///
    /// Consecutive set-ups with the same [`WaveSetup::workgroup`] form a work-group: its
    /// waves share one LDS of [`WaveSetup::lds_bytes`] (zeroed when the work-group starts)
    /// and meet at `s_barrier`. Work-groups run one after another. Within one, the waves
    /// run in order, each until it ends or reaches `s_barrier`; when every wave of the
    /// work-group that has not ended waits at a barrier, the barrier is released and they
    /// go on, in order again. A wave that ends no longer counts for barriers (the
    /// hardware's behaviour: a wave that ends leaves its work-group's barrier), so a
    /// barrier some waves skip releases when the rest arrive and a run never hangs.
    ///
    /// Waves that ended give their register file to the next wave that starts: memory,
    /// statistics, the trace and the contract report are what a run leaves behind, and
    /// keeping every wave's 64 KiB of VGPRs would make a large dispatch's memory grow
    /// with its wave count.
    pub fn run(&mut self, entry: &str, setups: &[WaveSetup]) -> Result<Option<Wave>, SimError> {
        if self.track_undefined {
            self.watch_private();
        }
        let addr = self
            .image
            .label_addr(entry)
            .ok_or_else(|| SimError::NoEntry(entry.to_string()))?;
        let start = self
            .image
            .insts
            .iter()
            .position(|d| d.addr >= addr)
            .unwrap_or(self.image.insts.len()) as u32;
        let mut spare: Vec<Wave> = Vec::new();
        let mut last = None;
        let mut first = 0;
        while first < setups.len() {
            let group = setups[first].workgroup;
            let end = setups[first..]
                .iter()
                .position(|s| s.workgroup != group)
                .map_or(setups.len(), |n| first + n);
            let lds_bytes = setups[first..end]
                .iter()
                .map(|s| s.lds_bytes)
                .max()
                .unwrap_or(0);
            if lds_bytes > MAX_LDS_BYTES {
                return Err(SimError::Setup(format!(
                    "work-group {group} asks for {lds_bytes} bytes of LDS; a work-group has \
                     at most {MAX_LDS_BYTES}"
                )));
            }
            self.lds.clear();
            self.lds.resize(lds_bytes as usize, 0);
            self.run_group(start, first, &setups[first..end], &mut spare, &mut last)?;
            first = end;
        }
        Ok(last)
    }

    /// Runs the waves of one work-group (set-ups `first..` of the run) to their ends,
    /// releasing barriers as [`Machine::run`] says.
    fn run_group(
        &mut self,
        start: u32,
        first: usize,
        setups: &[WaveSetup],
        spare: &mut Vec<Wave>,
        last: &mut Option<Wave>,
    ) -> Result<(), SimError> {
        let mut waiting: Vec<Option<Suspended>> = (0..setups.len()).map(|_| None).collect();
        let mut ended = vec![false; setups.len()];
        loop {
            for (i, setup) in setups.iter().enumerate() {
                if ended[i] {
                    continue;
                }
                let index = first + i;
                let mut s = match waiting[i].take() {
                    Some(s) => s,
                    None => {
                        let mut wave = match spare.pop() {
                            Some(mut w) => {
                                w.reset();
                                w
                            }
                            None => Wave::new(self.image.wave),
                        };
                        let mut tracker = self.track_undefined.then(UndefTracker::new);
                        setup.apply(&mut wave, tracker.as_mut())?;
                        wave.pc = start;
                        self.stats.waves += 1;
                        if let Some(c) = self.contract.as_mut() {
                            c.begin_wave();
                        }
                        Suspended {
                            wave,
                            progress: Progress::default(),
                            tracker,
                            frames: WaveFrames::default(),
                        }
                    }
                };
                if let Some(c) = self.contract.as_mut() {
                    c.resume_wave(std::mem::take(&mut s.frames));
                }
                let stop =
                    self.step_wave(&mut s.wave, &mut s.progress, index, s.tracker.as_mut())?;
                match stop {
                    Stop::End => {
                        ended[i] = true;
                        if let Some(t) = s.tracker {
                            self.undefined.extend(t.reads);
                        }
                        if index + 1 == first + setups.len() {
                            *last = Some(s.wave);
                        } else {
                            spare.push(s.wave);
                        }
                    }
                    Stop::Barrier => {
                        if let Some(c) = self.contract.as_mut() {
                            s.frames = c.suspend_wave();
                        }
                        waiting[i] = Some(s);
                    }
                    Stop::Left(exit) => return Err(bad_jump(exit)),
                }
            }
            if ended.iter().all(|e| *e) {
                return Ok(());
            }
            // Every wave not ended waits at a barrier: release it.
            self.stats.barriers += 1;
        }
    }

    /// Runs `wave` from its `pc` until `s_endpgm`; an `s_barrier` waits for no one (the
    /// wave is alone in its work-group).
    pub fn run_wave(
        &mut self,
        wave: &mut Wave,
        wave_index: usize,
        mut undef: Option<&mut UndefTracker>,
    ) -> Result<(), SimError> {
        self.stats.waves += 1;
        if let Some(c) = self.contract.as_mut() {
            c.begin_wave();
        }
        let mut progress = Progress::default();
        loop {
            match self.step_wave(wave, &mut progress, wave_index, undef.as_deref_mut())? {
                Stop::Barrier => self.stats.barriers += 1,
                Stop::End => return Ok(()),
                Stop::Left(exit) => return Err(bad_jump(exit)),
            }
        }
    }

    /// Runs `wave` from its `pc` until it ends or leaves the program: a host plays what
    /// lies outside (a caller, a callee), changes the wave and calls again with the same
    /// `run` to go on. `s_barrier` waits for no one (the wave is alone in its work-group).
    /// Contract frames and statistics are kept across the calls; the caller counts the
    /// wave in [`Stats::waves`].
    pub fn run_to_exit(
        &mut self,
        wave: &mut Wave,
        run: &mut WaveRun,
    ) -> Result<WaveExit, SimError> {
        self.leave_program = true;
        let result = loop {
            match self.step_wave(wave, &mut run.progress, 0, None) {
                Ok(Stop::Barrier) => self.stats.barriers += 1,
                Ok(Stop::End) => break Ok(WaveExit::Ended),
                Ok(Stop::Left(exit)) => break Ok(exit),
                Err(e) => break Err(e),
            }
        };
        self.leave_program = false;
        result
    }

    /// Runs `wave` from its `pc` until `s_endpgm` or past the next `s_barrier`.
    fn step_wave(
        &mut self,
        wave: &mut Wave,
        progress: &mut Progress,
        wave_index: usize,
        mut undef: Option<&mut UndefTracker>,
    ) -> Result<Stop, SimError> {
        let Machine {
            image,
            memory: mem,
            limits,
            stats,
            contract,
            trace,
            counts,
            lds,
            unwritten,
            leave_program,
            writes,
            unmodelled,
            check_waits,
            ..
        } = self;
        let mut accesses = Vec::new();
        let Progress {
            call_stack,
            executed,
            last,
        } = progress;
        let insts = &image.insts;
        loop {
            let idx = wave.pc as usize;
            let Some(d) = insts.get(idx) else {
                let (pc, origin) = insts
                    .get(*last)
                    .map_or((0, Origin::None), |l| (l.addr, l.origin.clone()));
                return Err(SimError::FellOffEnd { pc, origin });
            };
            *last = idx;
            *executed += 1;
            if *executed > limits.instructions_per_wave {
                return Err(SimError::InstructionLimit {
                    limit: limits.instructions_per_wave,
                    pc: d.addr,
                    origin: d.origin.clone(),
                });
            }
            stats.by_class[d.class as usize] += 1;
            if let Some(c) = counts.as_mut() {
                c[idx] += 1;
            }
            let exec = wave.exec();
            if let Some(t) = trace.as_mut() {
                if t.len() < limits.trace_lines {
                    t.push(format!(
                        "w{wave_index} 0x{:06x} exec={exec:0w$x} {}",
                        d.addr,
                        image.texts[idx],
                        w = wave.lanes() / 4
                    ));
                } else if t.len() == limits.trace_lines {
                    t.push("... trace truncated".to_string());
                }
            }
            if crate::exec::not_modelled(d.op) {
                if let Some(a) = unmodelled.as_mut() {
                    let address = image.nsa_vgprs(idx as u32).unwrap_or(&[]);
                    let write_back = crate::exec::ray_write_back(d.op, image.target, address);
                    a.answer(d, &write_back, wave);
                    if let Some(w) = writes.as_mut() {
                        w.record(idx as u32, d, image.wave);
                        w.record_vgprs(idx as u32, &write_back);
                    }
                    wave.pc = idx as u32 + 1;
                    continue;
                }
                if matches!(
                    d.op,
                    Opcode::ImageBvhIntersectRay | Opcode::ImageBvh64IntersectRay
                ) {
                    stats.lane_instructions += u64::from(exec.count_ones());
                    crate::exec::bvh::intersect_ray(
                        d,
                        image.nsa_vgprs(idx as u32),
                        wave,
                        mem,
                        image.target,
                    )?;
                    if let Some(w) = writes.as_mut() {
                        w.record(idx as u32, d, image.wave);
                    }
                    wave.pc = idx as u32 + 1;
                    continue;
                }
                // `ds_bvh_stack_rtn_b32` runs with the other LDS instructions.
            }
            if let Some(u) = undef.as_deref_mut() {
                u.before(d, wave);
            }
            if *check_waits {
                let hazard = crate::waits::Scoreboard::before(d, wave, image.target, &mut accesses);
                if let Err(h) = hazard {
                    let load = &insts[h.load as usize];
                    return Err(SimError::MissingWait(Box::new(crate::error::MissingWait {
                        pc: d.addr,
                        origin: d.origin.clone(),
                        text: image.texts[idx].clone(),
                        access: if h.write { "overwrites" } else { "reads" },
                        register: h.register,
                        load_pc: load.addr,
                        load_origin: load.origin.clone(),
                        load_text: image.texts[h.load as usize].clone(),
                    })));
                }
            }
            let float_mode = wave.mode & crate::exec::float_mode::FLOAT_MODE_BITS;
            if d.class == Class::Valu
                && d.op.info().float_srcs != 0
                && float_mode != crate::exec::float_mode::DEFAULT_MODE
            {
                return Err(SimError::ModeNotFollowed {
                    pc: d.addr,
                    origin: d.origin.clone(),
                    mode: float_mode,
                    text: image.texts[idx].clone(),
                });
            }
            let flow = match d.class {
                Class::Valu => {
                    let active = u64::from(exec.count_ones());
                    stats.valu_active_lanes += active;
                    stats.lane_instructions += active;
                    valu::exec(d, wave);
                    Flow::Next
                }
                Class::Salu if d.op != Opcode::SGetpcB64 => {
                    stats.lane_instructions += 1;
                    salu::exec(d, wave);
                    Flow::Next
                }
                Class::Lds => {
                    stats.lane_instructions += u64::from(exec.count_ones());
                    let mut cx = LdsCtx {
                        lds,
                        target: image.target,
                        stats,
                    };
                    lds::exec(d, wave, &mut cx);
                    Flow::Next
                }
                Class::Smem | Class::Vmem | Class::Scratch => {
                    stats.lane_instructions += if d.class == Class::Smem {
                        1
                    } else {
                        u64::from(exec.count_ones())
                    };
                    let mut ctx = MemCtx {
                        mem,
                        stats,
                        scratch_limit: limits
                            .scratch_bytes_per_lane
                            .min(MAX_SCRATCH_BYTES_PER_LANE),
                        contract: contract.as_mut().filter(|c| c.has_floor()),
                    };
                    memory::exec(d, wave, &mut ctx)?;
                    if mem.has_unwritten_reads() {
                        note_unwritten(unwritten, mem, d);
                    }
                    Flow::Next
                }
                _ => {
                    stats.lane_instructions += 1;
                    if branch::is_scheduling_hint(d.op) {
                        stats.scheduling_hints += 1;
                    } else if branch::is_wait(d.op) {
                        stats.waits += 1;
                    }
                    branch::exec(d, wave)
                }
            };
            if let Some(u) = undef.as_deref_mut() {
                u.after(d, wave, exec);
            }
            if let Some(w) = writes.as_mut() {
                w.record(idx as u32, d, image.wave);
            }
            if *check_waits {
                wave.waits.after(d, idx as u32, image.wave, image.target);
            }
            match flow {
                Flow::Next => wave.pc = idx as u32 + 1,
                Flow::Goto(t) => {
                    // A branch from a callee into its caller's code is a return.
                    if let Some(c) = contract.as_mut().filter(|c| c.depth() > 0) {
                        if let Some(to) = image.insts.get(t as usize) {
                            c.on_branch(wave, d, to.addr);
                        }
                    }
                    wave.pc = t;
                }
                Flow::End => return Ok(Stop::End),
                Flow::Trap => {
                    return Err(SimError::Trap {
                        pc: d.addr,
                        origin: d.origin.clone(),
                        text: image.texts[idx].clone(),
                    })
                }
                Flow::Barrier => {
                    wave.pc = idx as u32 + 1;
                    return Ok(Stop::Barrier);
                }
                Flow::Jump(target) => {
                    // The program counter has 48 bits: a jump to a canonical address of the
                    // upper half goes to its 48-bit address (drivers write code addresses so).
                    let target = crate::exec::memory::gpu_va(target);
                    let Some(next) = image.index_at(target) else {
                        if *leave_program {
                            return Ok(Stop::Left(WaveExit::Left {
                                pc: d.addr,
                                origin: d.origin.clone(),
                                target,
                                call: d.op == Opcode::SSwappcB64,
                                next: d.next_addr,
                            }));
                        }
                        // A callee that jumps into the middle of its caller's code
                        // returned to the wrong place: the contract says so before the
                        // run stops.
                        if d.op != Opcode::SSwappcB64 {
                            if let Some(c) = contract.as_mut() {
                                c.on_jump(wave, d, target, image);
                            }
                        }
                        return Err(SimError::BadJump {
                            pc: d.addr,
                            origin: d.origin.clone(),
                            target,
                        });
                    };
                    if d.op == Opcode::SSwappcB64 {
                        if call_stack.len() >= limits.call_depth as usize {
                            return Err(SimError::CallDepth {
                                limit: limits.call_depth,
                                pc: d.addr,
                                origin: d.origin.clone(),
                            });
                        }
                        call_stack.push(d.next_addr);
                        stats.calls += 1;
                        if let Some(c) = contract.as_mut() {
                            c.on_call(wave, d, target, image);
                        }
                    } else {
                        if call_stack.last() == Some(&target) {
                            call_stack.pop();
                        }
                        if let Some(c) = contract.as_mut() {
                            c.on_jump(wave, d, target, image);
                        }
                    }
                    wave.pc = next;
                }
            }
        }
    }
}

/// The error of a jump out of the program where no host plays what lies outside.
fn bad_jump(exit: WaveExit) -> SimError {
    match exit {
        WaveExit::Left {
            pc, origin, target, ..
        } => SimError::BadJump { pc, origin, target },
        WaveExit::Ended => SimError::Setup("a wave ended where it left the program".into()),
    }
}

/// Moves `mem`'s reads of unwritten bytes by `d` into `reports`, one per instruction and
/// buffer, so that a loop re-reading the same bytes reports once.
fn note_unwritten(reports: &mut Vec<UnwrittenMemoryRead>, mem: &mut Memory, d: &Decoded) {
    for r in mem.take_unwritten_reads() {
        let buffer = &mem.buffer(r.buffer).name;
        if !reports
            .iter()
            .any(|u| u.pc == d.addr && &u.buffer == buffer)
        {
            reports.push(UnwrittenMemoryRead {
                pc: d.addr,
                origin: d.origin.clone(),
                buffer: buffer.clone(),
                offset: r.offset,
                bytes: r.bytes,
            });
        }
    }
}
