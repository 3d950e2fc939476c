//! The machine: a decoded program, global memory, limits, counters, the optional contract
//! checker, undefined-register tracking and trace, and the loop that runs a wave.

use gpuabi_amdgpu::{Class, Opcode, Origin};

use crate::contract::Contract;
use crate::dispatch::WaveSetup;
use crate::error::SimError;
use crate::exec::memory::MemCtx;
use crate::exec::{branch, memory, salu, valu, Flow};
use crate::image::Image;
use crate::limits::{Limits, MAX_SCRATCH_BYTES_PER_LANE};
use crate::memory::Memory;
use crate::stats::Stats;
use crate::undef::{UndefTracker, UndefinedRead};
use crate::wave::Wave;

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
    /// Undefined reads found (when tracked).
    pub undefined: Vec<UndefinedRead>,
    /// Executed instructions, one line each, when tracing (bounded by the limits).
    pub trace: Option<Vec<String>>,
    /// Per instruction of the image: how many times a wave executed it, when counted.
    pub counts: Option<Vec<u64>>,
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
            undefined: Vec::new(),
            trace: None,
            counts: None,
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

    /// Runs one wave per set-up, in order, each from `entry` (a label), and returns the final
    /// state of the last wave (`None` without set-ups).
    ///
    /// The waves share one register file, reset between them: memory, statistics, the trace
    /// and the contract report are what a run leaves behind, and keeping every wave's 64 KiB
    /// of VGPRs would make a large dispatch's memory (and the allocator's churn) grow with
    /// its wave count.
    pub fn run(&mut self, entry: &str, setups: &[WaveSetup]) -> Result<Option<Wave>, SimError> {
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
        let mut wave = Wave::new(self.image.wave);
        for (i, setup) in setups.iter().enumerate() {
            if i > 0 {
                wave.reset();
            }
            let mut tracker = self.track_undefined.then(UndefTracker::new);
            setup.apply(&mut wave, tracker.as_mut())?;
            wave.pc = start;
            self.run_wave(&mut wave, i, tracker.as_mut())?;
            if let Some(t) = tracker {
                self.undefined.extend(t.reads);
            }
        }
        Ok((!setups.is_empty()).then_some(wave))
    }

    /// Runs `wave` from its `pc` until `s_endpgm`.
    pub fn run_wave(
        &mut self,
        wave: &mut Wave,
        wave_index: usize,
        mut undef: Option<&mut UndefTracker>,
    ) -> Result<(), SimError> {
        let Machine {
            image,
            memory: mem,
            limits,
            stats,
            contract,
            trace,
            counts,
            ..
        } = self;
        stats.waves += 1;
        if let Some(c) = contract.as_mut() {
            c.begin_wave();
        }
        let insts = &image.insts;
        let mut call_stack: Vec<u64> = Vec::new();
        let mut executed: u64 = 0;
        let mut last = 0usize;
        loop {
            let idx = wave.pc as usize;
            let Some(d) = insts.get(idx) else {
                let (pc, origin) = insts
                    .get(last)
                    .map_or((0, Origin::None), |l| (l.addr, l.origin.clone()));
                return Err(SimError::FellOffEnd { pc, origin });
            };
            last = idx;
            executed += 1;
            if executed > limits.instructions_per_wave {
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
            if let Some(u) = undef.as_deref_mut() {
                u.before(d, wave);
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
                    Flow::Next
                }
                _ => {
                    stats.lane_instructions += 1;
                    if branch::is_scheduling_hint(d.op) {
                        stats.scheduling_hints += 1;
                    }
                    branch::exec(d, wave)
                }
            };
            if let Some(u) = undef.as_deref_mut() {
                u.after(d, wave, exec);
            }
            match flow {
                Flow::Next => wave.pc = idx as u32 + 1,
                Flow::Goto(t) => wave.pc = t,
                Flow::End => return Ok(()),
                Flow::Trap => {
                    return Err(SimError::Trap {
                        pc: d.addr,
                        origin: d.origin.clone(),
                        text: image.texts[idx].clone(),
                    })
                }
                Flow::Jump(target) => {
                    let next = image.index_at(target).ok_or(SimError::BadJump {
                        pc: d.addr,
                        origin: d.origin.clone(),
                        target,
                    })?;
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
