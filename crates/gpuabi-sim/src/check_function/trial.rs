//! A trial's entry state and the rules of its exit.

use gpuabi_layout::aco::Location;
use gpuabi_layout::reg::{RegFile, RegRange};

use super::{CheckError, FunctionSpec, Violation};
use crate::exec::memory::Descriptor;
use crate::image::Image;
use crate::limits::MAX_LDS_BYTES;
use crate::machine::{Machine, WaveExit};
use crate::memory::Memory;
use crate::seeded::SplitMix64;
use crate::wave::{Wave, EXEC, LANE_STRIDE, SCALARS, VGPRS};

/// Return addresses of trials lie here (and up to 4 MiB above): far from the program
/// (loaded at [`crate::image::CODE_BASE`]) and from global memory, 4-byte aligned.
pub const RETURN_BASE: u64 = 0x0000_7e00_0000_0000;
/// The other callees of a divergent call lie here (and up to 4 MiB above).
pub const OTHER_CALLEE_BASE: u64 = 0x0000_7d00_0000_0000;
/// Addresses handed to the function as callee addresses in parameters
/// ([`FunctionSpec::callees_by_param`]) lie here (and up to 4 MiB above).
pub const PARAM_CALLEE_BASE: u64 = 0x0000_7c00_0000_0000;
/// Where the caller's call instruction is said to be, for reports.
const CALLER_ADDR: u64 = 0x0000_7b00_0000_0000;
/// Before gfx9, the base of the swizzled scratch buffer the stack pointer addresses.
pub(super) const SCRATCH_BUFFER_BASE: u64 = 0x0000_5000_0000_0000;
/// Bytes of random memory a trial may store into: far more than a function's stores to
/// the records and buffers it finds (a page each), and a bound on what a trial whose
/// stores wander through random addresses can allocate.
const STORED_MEMORY_BYTES: u64 = 64 << 20;
/// Bytes per lane of scratch below the entry stack pointer that hold the caller's frame
/// (random) at most, and above it that the function finds random.
const FRAME_BYTES: u32 = 4096;

/// What a trial plays: the function's entry address, the registers of its special
/// parameters, and how its state is set up.
pub(super) struct Plan {
    pub name: String,
    pub caller_addr: u64,
    entry: u64,
    divergent: bool,
    noreturn: bool,
    lanes: usize,
    stack_pointer: RegRange,
    scratch_param_bytes: u32,
    return_address: Option<RegRange>,
    divergent_pc: Option<RegRange>,
    uniform_pc: Option<RegRange>,
    /// Parameters that hold callee addresses ([`FunctionSpec::callees_by_param`]).
    callee_params: Vec<RegRange>,
    /// The registers of the other parameters, which get values a program tests more often
    /// than random bits ([`parameter_value`]).
    data_params: Vec<RegRange>,
    /// The stack pointer is a swizzled scratch buffer resource (before gfx9).
    swizzled_scratch: bool,
    /// The resource a one-SGPR stack pointer is the wave's byte offset into, if any.
    scratch_resource: Option<RegRange>,
}

/// The state of one trial.
pub(super) struct Entry {
    pub wave: Wave,
    /// The return address given (0 for a NORETURN function).
    pub return_addr: u64,
    /// Exec at the entry.
    pub exec: u64,
    /// Per lane, the divergent PC at the entry.
    pub divergent_pc: Vec<u64>,
    /// The addresses given in callee-address parameters, in [`Plan::callee_params`] order.
    pub callee_addrs: Vec<u64>,
}

/// How a trial's function left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Exit {
    /// To the return address.
    Returned,
    /// To the next callee of a divergent call (or a tail call).
    HandedOn,
    /// `s_endpgm`.
    Ended,
    /// Somewhere it may not go (a violation says where).
    Elsewhere,
}

fn reg(spec: &FunctionSpec, name: &str) -> Option<RegRange> {
    match spec.layout.param(name)?.location {
        Location::Reg(r) => Some(r),
        Location::Scratch { .. } => None,
    }
}

impl Plan {
    pub fn new(image: &Image, spec: &FunctionSpec, entry: u64) -> Result<Plan, CheckError> {
        let stack_pointer =
            reg(spec, "stack_pointer").ok_or(CheckError::NotInRegisters("stack pointer"))?;
        let callee_params: Vec<RegRange> = spec
            .callees_by_param
            .iter()
            .filter_map(|(name, _)| reg(spec, name))
            .collect();
        const SPECIAL: [&str; 4] = [
            "stack_pointer",
            "return_address",
            "divergent_pc",
            "uniform_pc",
        ];
        let data_params = spec
            .layout
            .params
            .iter()
            .filter(|p| !SPECIAL.contains(&p.name.as_str()))
            .filter_map(|p| match p.location {
                Location::Reg(r) if !callee_params.contains(&r) => Some(r),
                _ => None,
            })
            .collect();
        Ok(Plan {
            name: spec.name.clone(),
            caller_addr: CALLER_ADDR,
            entry,
            divergent: spec.divergent,
            noreturn: spec.noreturn,
            lanes: image.wave.lanes() as usize,
            swizzled_scratch: stack_pointer.count == 4,
            scratch_resource: spec.scratch_resource,
            stack_pointer,
            scratch_param_bytes: spec.layout.scratch_param_size,
            return_address: reg(spec, "return_address"),
            divergent_pc: reg(spec, "divergent_pc"),
            uniform_pc: reg(spec, "uniform_pc"),
            callee_params,
            data_params,
        })
    }

    /// Sets up `machine` (fresh random memory and LDS) and a wave for one trial.
    pub fn enter(&self, machine: &mut Machine, rng: &mut SplitMix64) -> Entry {
        let mut memory = Memory::new();
        for s in &machine.image.segments {
            let _ = memory.add_segment(&s.name, s.base, s.bytes.clone());
        }
        memory.answer_unmapped(
            rng.next_u64(),
            machine.limits.global_bytes.min(STORED_MEMORY_BYTES),
        );
        machine.memory = memory;
        machine.lds = vec![0; MAX_LDS_BYTES as usize];
        rng.fill(&mut machine.lds);

        let lanes = self.lanes;
        let mut wave = Wave::new(machine.image.wave);
        // Every register random, in every lane; exec last.
        for n in 0..SCALARS {
            wave.sgpr[n] = rng.next_u32();
        }
        for v in 0..VGPRS {
            let first = v * LANE_STRIDE;
            rng.fill_u32(&mut wave.vgpr[first..first + lanes]);
        }
        wave.scc = rng.next_u64() & 1 != 0;
        let full = machine.image.wave.full_mask();
        let mut exec = rng.next_u64() & full;
        if exec == 0 {
            exec = 1 << rng.below(lanes as u64);
        }
        wave.set_exec(exec);
        for r in &self.data_params {
            for n in r.first.num..r.end() {
                match r.file() {
                    RegFile::Sgpr if (n as usize) < EXEC => {
                        wave.sgpr[n as usize] = parameter_value(rng);
                    }
                    RegFile::Vgpr => {
                        for l in 0..lanes {
                            wave.set_v(n, l, parameter_value(rng));
                        }
                    }
                    RegFile::Sgpr => {}
                }
            }
        }

        // The stack pointer: a frame above random caller data and scratch parameters.
        let below = 16 * (1 + rng.below(u64::from(FRAME_BYTES / 16))) as u32;
        let sp_offset = below + self.scratch_param_bytes.next_multiple_of(16);
        // A swizzled scratch buffer (Mesa's RT prolog builds its resource with ADD_TID, an
        // index stride of the wave size and 4-byte elements, as LLVM's kernels do) for a
        // stack before gfx9 and LLVM's stack before gfx11.
        let scratch_buffer = |base: u64| {
            Descriptor {
                base,
                stride: 0,
                num_records: u32::MAX,
                swizzle: true,
                add_tid: true,
                index_stride: lanes as u32,
                element_size: 4,
            }
            .encode()
        };
        let wave_bytes = u64::from(sp_offset) * lanes as u64;
        let stack_pointer = if self.swizzled_scratch {
            scratch_buffer(SCRATCH_BUFFER_BASE + wave_bytes).to_vec()
        } else if let Some(rsrc) = self.scratch_resource {
            set_sgprs(&mut wave, rsrc, &scratch_buffer(SCRATCH_BUFFER_BASE));
            vec![wave_bytes as u32]
        } else {
            for l in 0..lanes {
                let mut bytes = vec![0; (sp_offset + FRAME_BYTES) as usize];
                rng.fill(&mut bytes);
                wave.scratch[l] = bytes;
            }
            vec![sp_offset]
        };
        set_sgprs(&mut wave, self.stack_pointer, &stack_pointer);

        let return_addr = if self.noreturn {
            0
        } else {
            RETURN_BASE + 4 * rng.below(1 << 20)
        };
        if let Some(r) = self.return_address {
            set_sgprs(&mut wave, r, &split(return_addr));
        }

        // Callee PCs: this function's address in the first active lane and, for half of
        // the trials of a function a divergent call may enter, in a random half of the
        // other active lanes, the rest wanting one of two other callees; in the other
        // trials every active lane wants this function. Inactive lanes keep random values.
        let others = [
            OTHER_CALLEE_BASE + 4 * rng.below(1 << 20),
            OTHER_CALLEE_BASE + 4 * rng.below(1 << 20),
        ];
        let mixed = self.divergent && rng.next_u64() & 1 == 0;
        let first = exec.trailing_zeros() as usize;
        let mut divergent_pc = vec![0u64; lanes];
        for (l, pc) in divergent_pc.iter_mut().enumerate() {
            *pc = if exec >> l & 1 == 0 {
                u64::from(wave.v(self.divergent_pc.map_or(0, |r| r.first.num), l))
            } else if l == first || !mixed || rng.next_u64() & 1 == 0 {
                self.entry
            } else {
                others[rng.below(2) as usize]
            };
        }
        if let Some(r) = self.divergent_pc {
            for (l, pc) in divergent_pc.iter().enumerate() {
                if exec >> l & 1 != 0 {
                    wave.set_v(r.first.num, l, *pc as u32);
                    wave.set_v(r.first.num + 1, l, (*pc >> 32) as u32);
                }
            }
        }
        if let Some(r) = self.uniform_pc {
            set_sgprs(&mut wave, r, &split(self.entry));
        }
        let callee_addrs: Vec<u64> = self
            .callee_params
            .iter()
            .map(|&r| {
                let addr = PARAM_CALLEE_BASE + 4 * rng.below(1 << 20);
                if r.file() == RegFile::Sgpr {
                    set_sgprs(&mut wave, r, &split(addr));
                } else {
                    for l in 0..lanes {
                        wave.set_v(r.first.num, l, addr as u32);
                        wave.set_v(r.first.num + 1, l, (addr >> 32) as u32);
                    }
                }
                addr
            })
            .collect();
        if let Some(i) = machine.image.index_at(self.entry) {
            wave.pc = i;
        }
        Entry {
            wave,
            return_addr,
            exec,
            divergent_pc,
            callee_addrs,
        }
    }

    /// Checks how the function left; violations of the exit protocol go to `found`.
    pub fn check_exit(
        &self,
        machine: &Machine,
        entry: &Entry,
        exit: &WaveExit,
        found: &mut Vec<Violation>,
    ) -> Exit {
        let image = &machine.image;
        let wave = &entry.wave;
        let (pc, origin, target) = match exit {
            WaveExit::Ended => {
                if !self.noreturn {
                    found.push(Violation {
                        trial: 0,
                        kind: "ended_wave",
                        register: None,
                        lane: None,
                        instruction: Some("s_endpgm".into()),
                        line: None,
                        message: format!(
                            "{} ended the wave (`s_endpgm`) instead of returning to 0x{:x}",
                            self.name, entry.return_addr
                        ),
                    });
                }
                return Exit::Ended;
            }
            WaveExit::Left {
                pc, origin, target, ..
            } => (*pc, origin, *target),
        };
        let text = image.index_at(pc).map(|i| image.texts[i as usize].clone());
        let mut report = |kind: &'static str, register: Option<String>, lane, message: String| {
            found.push(Violation {
                trial: 0,
                kind,
                register,
                lane,
                instruction: text.clone(),
                line: origin.line(),
                message,
            })
        };
        // The next PCs: per active lane, the divergent PC register now. Lanes that wanted
        // another callee must still want it.
        let exec = entry.exec;
        let mut next = vec![0u64; self.lanes];
        if let Some(r) = self.divergent_pc {
            for (l, n) in next.iter_mut().enumerate() {
                *n =
                    u64::from(wave.v(r.first.num, l)) | u64::from(wave.v(r.first.num + 1, l)) << 32;
            }
            for (l, (&now, &before)) in next.iter().zip(&entry.divergent_pc).enumerate() {
                if exec >> l & 1 != 0 && before != self.entry && now != before {
                    report(
                        "next_pc",
                        Some(r.to_string()),
                        Some(l as u32),
                        format!(
                            "lane {l} wanted another callee (0x{before:x}) but the divergent PC \
                             {r} holds 0x{now:x} when {} leaves",
                            self.name
                        ),
                    );
                }
            }
        }
        let pending = (0..self.lanes).find(|&l| exec >> l & 1 != 0 && next[l] != 0);
        let expected = match pending {
            Some(l) => next[l],
            None => entry.return_addr,
        };
        if target != expected || (self.noreturn && pending.is_none()) {
            let want = match pending {
                Some(l) => format!("the next PC of lane {l}, 0x{expected:x}"),
                None if self.noreturn => "nowhere (a NORETURN function with no lane left \
                                          ends the wave)"
                    .to_string(),
                None => format!("the return address 0x{expected:x}"),
            };
            report(
                "return_address",
                None,
                None,
                format!("{} left for 0x{target:x}, not {want}", self.name),
            );
            return Exit::Elsewhere;
        }
        if let Some(r) = self.uniform_pc {
            let now = sgpr_value(wave, r);
            if now != target {
                report(
                    "next_pc",
                    Some(r.to_string()),
                    None,
                    format!(
                        "{} jumped to 0x{target:x} but left 0x{now:x} in the uniform PC {r}, which \
                         the next callee compares with its lanes' PCs",
                        self.name
                    ),
                );
            }
        }
        if pending.is_some() {
            Exit::HandedOn
        } else {
            Exit::Returned
        }
    }
}

/// A dword of a parameter: random bits half of the time, else a value programs compare
/// with and count with, so that the paths behind such tests run too (RADV's closest-hit
/// shaders trace only below a recursion depth kept in the payload): a small integer, a
/// small float or an all-ones mask.
fn parameter_value(rng: &mut SplitMix64) -> u32 {
    let bits = rng.next_u64();
    match bits & 7 {
        0..=3 => (bits >> 32) as u32,
        4 | 5 => (bits >> 32) as u32 % 8,
        6 => [0.0f32, 0.5, 1.0, 2.0, -1.0][((bits >> 32) % 5) as usize].to_bits(),
        _ => u32::MAX,
    }
}

/// `v` as two dwords, low first.
fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// Writes `values` into the SGPRs of `r` (never into exec: a layout that names it would
/// take the wave's lanes away).
pub(super) fn set_sgprs(wave: &mut Wave, r: RegRange, values: &[u32]) {
    for (i, v) in values.iter().enumerate().take(r.count as usize) {
        let n = r.first.num as usize + i;
        if n < EXEC {
            wave.sgpr[n] = *v;
        }
    }
}

/// The 64-bit value of an SGPR pair (or the low SGPR of a single one).
fn sgpr_value(wave: &Wave, r: RegRange) -> u64 {
    let lo = u64::from(wave.sgpr[r.first.num as usize]);
    if r.count >= 2 {
        lo | u64::from(wave.sgpr[r.first.num as usize + 1]) << 32
    } else {
        lo
    }
}
