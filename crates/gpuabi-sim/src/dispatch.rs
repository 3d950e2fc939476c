//! Raw dispatch set-up: the initial registers of each wave, given by the caller.

use gpuabi_layout::reg::{RegFile, RegRange};

use crate::error::SimError;
use crate::undef::UndefTracker;
use crate::wave::Wave;

/// The initial values of a VGPR across lanes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaneValues {
    /// The same value in every lane.
    Uniform(u32),
    /// The lane's index (0, 1, 2, …) plus an offset.
    LaneId(u32),
    /// One value per lane (missing lanes get 0).
    PerLane(Vec<u32>),
}

/// The initial state of one wave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WaveSetup {
    /// The execute mask; `None` = every lane.
    pub exec: Option<u64>,
    /// Scalar registers (hardware numbering: `m0` is 124, `vcc` 106) and their values.
    pub sgprs: Vec<(u16, u32)>,
    /// VGPRs and their per-lane values.
    pub vgprs: Vec<(u16, LaneValues)>,
}

impl WaveSetup {
    /// Sets the registers of `range` (SGPR or VGPR; a VGPR tuple gets `values[i]`
    /// uniformly) from consecutive `values`.
    pub fn set(&mut self, range: RegRange, values: &[u32]) -> Result<(), SimError> {
        if values.len() != usize::from(range.count) {
            return Err(SimError::Setup(format!(
                "{range} holds {} dwords but {} values were given",
                range.count,
                values.len()
            )));
        }
        for (reg, v) in range.regs().zip(values) {
            match reg.file {
                RegFile::Sgpr => self.sgprs.push((reg.num, *v)),
                RegFile::Vgpr => self.vgprs.push((reg.num, LaneValues::Uniform(*v))),
            }
        }
        Ok(())
    }

    /// Applies the set-up to a fresh wave, and records what it defined.
    pub fn apply(&self, wave: &mut Wave, undef: Option<&mut UndefTracker>) -> Result<(), SimError> {
        let lanes = wave.lanes();
        let mut undef = undef;
        for &(n, v) in &self.sgprs {
            let slot = wave
                .sgpr
                .get_mut(n as usize)
                .ok_or_else(|| SimError::Setup(format!("no scalar register {n}")))?;
            *slot = v;
            if let Some(t) = undef.as_deref_mut() {
                t.define_sgpr(n);
            }
        }
        for (n, values) in &self.vgprs {
            if usize::from(*n) >= crate::wave::VGPRS {
                return Err(SimError::Setup(format!("no VGPR v{n}")));
            }
            for lane in 0..lanes {
                let v = match values {
                    LaneValues::Uniform(v) => *v,
                    LaneValues::LaneId(base) => base.wrapping_add(lane as u32),
                    LaneValues::PerLane(vs) => vs.get(lane).copied().unwrap_or(0),
                };
                wave.set_v(*n, lane, v);
            }
            if let Some(t) = undef.as_deref_mut() {
                t.define_vgpr(*n, wave.size.full_mask());
            }
        }
        if let Some(exec) = self.exec {
            if exec & !wave.size.full_mask() != 0 {
                return Err(SimError::Setup(format!(
                    "exec 0x{exec:x} has lanes beyond the {}",
                    wave.size
                )));
            }
            wave.set_exec(exec);
        }
        Ok(())
    }
}
