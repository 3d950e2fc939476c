//! Optional tracking of undefined registers: a read of a register (or a VGPR lane) that
//! neither the dispatch set-up nor an instruction wrote is reported once per instruction
//! and register.

use std::collections::HashSet;

use gpuabi_amdgpu::opcodes::Kind;
use gpuabi_amdgpu::{Effects, Opcode, Origin, WaveSize};
use gpuabi_layout::reg::Reg;

use crate::image::{Decoded, Dst, Src};
use crate::wave::{Wave, EXEC, M0, SCALARS, VCC, VGPRS};

/// A read of something nothing wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UndefinedRead {
    /// Address of the reading instruction.
    pub pc: u64,
    /// Its origin.
    pub origin: Origin,
    /// The register (`s7`, `v3`).
    pub register: String,
    /// For VGPRs, the active lanes that read an undefined value.
    pub lanes: u64,
}

/// A read of private memory that nothing wrote during the dispatch (reported once per
/// instruction and buffer). The set-up zero-fills private segments, but a program that
/// reads bytes it never stored reads, on hardware, whatever an earlier dispatch left.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnwrittenMemoryRead {
    /// Address of the reading instruction.
    pub pc: u64,
    /// Its origin.
    pub origin: Origin,
    /// The buffer (`private_segment`, `scratch`).
    pub buffer: String,
    /// Byte offset in the buffer of the instruction's first such read.
    pub offset: u64,
    /// Bytes of that read.
    pub bytes: u32,
}

/// Which registers hold defined values.
#[derive(Debug, Clone)]
pub struct UndefTracker {
    sgpr: [bool; SCALARS],
    vgpr: Vec<u64>,
    seen: HashSet<(u64, u16)>,
    /// The reads found, in order.
    pub reads: Vec<UndefinedRead>,
}

impl Default for UndefTracker {
    fn default() -> Self {
        UndefTracker::new()
    }
}

pub(crate) fn src_dwords(kind: Kind, wave: WaveSize, global_saddr: bool) -> u16 {
    match kind {
        Kind::SSrc(n) | Kind::SReg(n) | Kind::VSrc(n) | Kind::VReg(n) | Kind::SBase(n) => {
            u16::from(n)
        }
        Kind::VSrcF64 => 2,
        Kind::MaskSrc | Kind::MaskDst => u16::from(wave.mask_dwords()),
        Kind::Rsrc => 4,
        Kind::GlobalAddr => {
            if global_saddr {
                1
            } else {
                2
            }
        }
        Kind::GlobalSAddr | Kind::FlatAddr => 2,
        Kind::SDst(n) | Kind::VDst(n) => u16::from(n),
        _ => 1,
    }
}

impl UndefTracker {
    /// Nothing defined but `exec` (a wave always starts with its execute mask).
    pub fn new() -> UndefTracker {
        let mut t = UndefTracker {
            sgpr: [false; SCALARS],
            vgpr: vec![0; VGPRS],
            seen: HashSet::new(),
            reads: Vec::new(),
        };
        t.sgpr[EXEC] = true;
        t.sgpr[EXEC + 1] = true;
        t
    }

    /// Marks SGPR (hardware number) `n` defined.
    pub fn define_sgpr(&mut self, n: u16) {
        if let Some(s) = self.sgpr.get_mut(n as usize) {
            *s = true;
        }
    }

    /// Marks lanes `lanes` of VGPR `n` defined.
    pub fn define_vgpr(&mut self, n: u16, lanes: u64) {
        if let Some(v) = self.vgpr.get_mut(n as usize) {
            *v |= lanes;
        }
    }

    /// Checks the sources of `d` before it executes.
    pub fn before(&mut self, d: &Decoded, w: &Wave) {
        let info = d.op.info();
        let exec = w.exec();
        let global_saddr = info.srcs.contains(&Kind::GlobalSAddr)
            && d.src.iter().any(|s| matches!(s, Src::Sgpr(_)));
        // Stores read their data VGPRs; v_writelane and compares are covered by kinds. An
        // implicit read of vcc (`v_div_fmas_f32`) is checked as a lane-mask source.
        let implicit_vcc = info
            .effects
            .contains(Effects::READ_VCC)
            .then_some((Kind::MaskSrc, Src::Sgpr(VCC as u16)));
        // `s_addk_i32`/`s_mulk_i32` and `v_fmac_f32` read their destination, `v_swap_b32`
        // both of its.
        let read_dst = info.effects.contains(Effects::READ_DST);
        let destination = d.dst.iter().filter_map(|dst| match *dst {
            _ if !read_dst => None,
            Dst::Sgpr(r) => Some((Kind::SSrc(1), Src::Sgpr(r))),
            Dst::Vgpr(r) => Some((Kind::VSrc(1), Src::Vgpr(r))),
            _ => None,
        });
        let sources = info.srcs.iter().copied().zip(d.src.iter().copied());
        for (kind, src) in sources.chain(implicit_vcc).chain(destination) {
            let n = src_dwords(kind, w.size, global_saddr);
            match src {
                Src::Sgpr(first) => {
                    for r in first..first + n {
                        if !self.sgpr[r as usize] && self.seen.insert((d.addr, r)) {
                            self.reads.push(UndefinedRead {
                                pc: d.addr,
                                origin: d.origin.clone(),
                                register: scalar_name(r),
                                lanes: 0,
                            });
                        }
                    }
                }
                Src::Vgpr(first) => {
                    let lanes = if d.op == Opcode::VReadlaneB32 {
                        1u64 << (w.s32(d.src[1]) as usize & (w.lanes() - 1))
                    } else {
                        exec
                    };
                    for r in first..first + n {
                        let missing = lanes & !self.vgpr[r as usize];
                        if missing != 0 && self.seen.insert((d.addr, 256 + r)) {
                            self.reads.push(UndefinedRead {
                                pc: d.addr,
                                origin: d.origin.clone(),
                                register: Reg::vgpr(r).to_string(),
                                lanes: missing,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Marks the destinations of `d` defined after it executed with execute mask `exec`.
    pub fn after(&mut self, d: &Decoded, w: &Wave, exec: u64) {
        let info = d.op.info();
        for (kind, dst) in info.dsts.iter().zip(d.dst.iter()) {
            let n = src_dwords(*kind, w.size, false);
            match *dst {
                Dst::Sgpr(first) => (first..first + n).for_each(|r| self.define_sgpr(r)),
                Dst::Vgpr(first) => {
                    let lanes = if d.op == Opcode::VWritelaneB32 {
                        1u64 << (w.s32(d.src[1]) as usize & (w.lanes() - 1))
                    } else {
                        exec
                    };
                    (first..first + n).for_each(|r| self.define_vgpr(r, lanes));
                }
                _ => {}
            }
        }
    }
}

fn scalar_name(n: u16) -> String {
    match usize::from(n) {
        VCC => "vcc_lo".into(),
        r if r == VCC + 1 => "vcc_hi".into(),
        M0 => "m0".into(),
        EXEC => "exec_lo".into(),
        r if r == EXEC + 1 => "exec_hi".into(),
        _ => Reg::sgpr(n).to_string(),
    }
}
