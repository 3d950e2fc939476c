//! The architectural state of one wave.

use gpuabi_amdgpu::{Special, WaveSize};

use crate::image::{Dst, Src};

/// Number of VGPRs every wave has.
pub const VGPRS: usize = 256;
/// Number of scalar registers in hardware numbering (SGPRs, `vcc`, `m0`, `exec`).
pub const SCALARS: usize = 128;
/// Hardware number of `vcc_lo`.
pub const VCC: usize = Special::VccLo.hw_index() as usize;
/// Hardware number of `exec_lo`.
pub const EXEC: usize = Special::ExecLo.hw_index() as usize;
/// Hardware number of `m0` (the storage slot; RDNA 3 encodes it as 125, see
/// [`Special::code`]).
pub const M0: usize = Special::M0.hw_index() as usize;
/// Storage width of one VGPR (lanes), independent of the wave size.
pub const LANE_STRIDE: usize = 64;

/// Registers, condition code, program counter and private scratch of one wave.
#[derive(Debug, Clone)]
pub struct Wave {
    /// 32 or 64 lanes.
    pub size: WaveSize,
    /// Scalar registers in hardware numbering: `s0`… up to 105, `vcc` at 106-107, `m0` at
    /// 124, `exec` at 126-127.
    pub sgpr: [u32; SCALARS],
    /// VGPRs, register-major: lane `l` of `vN` is `vgpr[N * 64 + l]`.
    pub vgpr: Vec<u32>,
    /// The scalar condition code.
    pub scc: bool,
    /// Index of the next instruction.
    pub pc: u32,
    /// Per-lane scratch memory (RDNA `scratch_*`), grown on demand up to the limit.
    pub scratch: Vec<Vec<u8>>,
    /// The memory operations still outstanding, when the machine checks waits
    /// ([`crate::Machine::check_waits`]).
    pub waits: crate::waits::Scoreboard,
    /// The MODE hardware register; the simulator follows its float fields (7:0) in RDNA
    /// 4's scalar float arithmetic ([`crate::exec::float_mode`]).
    pub mode: u32,
}

impl Wave {
    /// A wave with every register 0 and every lane active.
    pub fn new(size: WaveSize) -> Wave {
        let mut w = Wave {
            size,
            sgpr: [0; SCALARS],
            vgpr: vec![0; VGPRS * LANE_STRIDE],
            scc: false,
            pc: 0,
            scratch: vec![Vec::new(); size.lanes() as usize],
            waits: Default::default(),
            mode: crate::exec::float_mode::DEFAULT_MODE,
        };
        w.set_exec(size.full_mask());
        w
    }

    /// Returns the wave to the state of [`Wave::new`], keeping its allocations: waves that
    /// run one after another reuse one register file instead of allocating and zeroing a
    /// fresh one each.
    pub fn reset(&mut self) {
        self.sgpr = [0; SCALARS];
        self.vgpr.fill(0);
        self.scc = false;
        self.pc = 0;
        for lane in &mut self.scratch {
            lane.clear();
        }
        self.waits.clear();
        self.mode = crate::exec::float_mode::DEFAULT_MODE;
        self.set_exec(self.size.full_mask());
    }

    /// Number of lanes.
    #[inline]
    pub fn lanes(&self) -> usize {
        self.size.lanes() as usize
    }

    /// The execute mask.
    #[inline]
    pub fn exec(&self) -> u64 {
        self.pair(EXEC) & self.size.full_mask()
    }

    /// Sets the execute mask (both halves in wave64, `exec_lo` in wave32).
    pub fn set_exec(&mut self, mask: u64) {
        self.write_mask_at(EXEC, mask);
    }

    /// The vector condition code.
    #[inline]
    pub fn vcc(&self) -> u64 {
        self.pair(VCC) & self.size.full_mask()
    }

    #[inline]
    fn pair(&self, i: usize) -> u64 {
        // A decoded lane-mask operand may name the last scalar register (`exec_hi` in a
        // damaged binary): its high half reads as 0 rather than past the file.
        let hi = self.sgpr.get(i + 1).copied().unwrap_or(0);
        u64::from(self.sgpr[i]) | u64::from(hi) << 32
    }

    /// A 32-bit scalar source.
    #[inline]
    pub fn s32(&self, src: Src) -> u32 {
        match src {
            Src::Sgpr(i) => self.sgpr[i as usize],
            Src::Const(v) => v as u32,
            Src::Scc => u32::from(self.scc),
            Src::Vgpr(_) | Src::None => 0,
        }
    }

    /// A 64-bit scalar source.
    #[inline]
    pub fn s64(&self, src: Src) -> u64 {
        match src {
            Src::Sgpr(i) => self.pair(i as usize),
            Src::Const(v) => v,
            Src::Scc => u64::from(self.scc),
            Src::Vgpr(_) | Src::None => 0,
        }
    }

    /// A lane mask source (one SGPR in wave32, a pair in wave64).
    #[inline]
    pub fn mask(&self, src: Src) -> u64 {
        match self.size {
            WaveSize::W32 => u64::from(self.s32(src)),
            WaveSize::W64 => self.s64(src),
        }
    }

    /// Writes a 32-bit scalar destination.
    #[inline]
    pub fn write_s32(&mut self, dst: Dst, v: u32) {
        if let Dst::Sgpr(i) = dst {
            self.sgpr[i as usize] = v;
        }
    }

    /// Writes a 64-bit scalar destination.
    #[inline]
    pub fn write_s64(&mut self, dst: Dst, v: u64) {
        if let Dst::Sgpr(i) = dst {
            self.sgpr[i as usize] = v as u32;
            self.sgpr[i as usize + 1] = (v >> 32) as u32;
        }
    }

    /// Writes a lane mask destination.
    #[inline]
    pub fn write_mask(&mut self, dst: Dst, v: u64) {
        if let Dst::Sgpr(i) = dst {
            self.write_mask_at(i as usize, v);
        }
    }

    fn write_mask_at(&mut self, i: usize, v: u64) {
        self.sgpr[i] = v as u32;
        if self.size == WaveSize::W64 {
            if let Some(hi) = self.sgpr.get_mut(i + 1) {
                *hi = (v >> 32) as u32;
            }
        }
    }

    /// Lane `lane` of VGPR `reg`.
    #[inline]
    pub fn v(&self, reg: u16, lane: usize) -> u32 {
        self.vgpr[reg as usize * LANE_STRIDE + lane]
    }

    /// Sets lane `lane` of VGPR `reg`.
    #[inline]
    pub fn set_v(&mut self, reg: u16, lane: usize, value: u32) {
        self.vgpr[reg as usize * LANE_STRIDE + lane] = value;
    }

    /// All 64 lane slots of VGPR `reg`.
    #[inline]
    pub fn vreg(&self, reg: u16) -> &[u32; LANE_STRIDE] {
        let start = reg as usize * LANE_STRIDE;
        self.vgpr[start..start + LANE_STRIDE]
            .try_into()
            .unwrap_or(&[0; LANE_STRIDE])
    }

    /// All 64 lane slots of VGPR `reg`, writable.
    #[inline]
    pub fn vreg_mut(&mut self, reg: u16) -> &mut [u32; LANE_STRIDE] {
        let start = reg as usize * LANE_STRIDE;
        // Register numbers come from validated operands (< 256), so the slice is whole.
        (&mut self.vgpr[start..start + LANE_STRIDE])
            .try_into()
            .expect("VGPR numbers are below 256")
    }
}
