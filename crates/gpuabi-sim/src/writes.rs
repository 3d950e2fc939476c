//! Optional record of the instruction that last wrote each register, so that a report
//! about a register's value can name the line that put it there.

use gpuabi_amdgpu::{Effects, WaveSize};

use crate::image::{Decoded, Dst};
use crate::undef::src_dwords;
use crate::wave::{EXEC, M0, SCALARS, VCC, VGPRS};

/// Per register, the index (in [`crate::Image::insts`]) of the instruction that last
/// wrote it, whatever the lanes.
#[derive(Debug, Clone)]
pub struct WriteLog {
    sgpr: [Option<u32>; SCALARS],
    vgpr: Vec<Option<u32>>,
}

impl Default for WriteLog {
    fn default() -> Self {
        WriteLog {
            sgpr: [None; SCALARS],
            vgpr: vec![None; VGPRS],
        }
    }
}

impl WriteLog {
    /// Records the registers instruction `index` (`d`) writes: its destinations and the
    /// `vcc`, `exec` and `m0` it writes implicitly.
    pub fn record(&mut self, index: u32, d: &Decoded, wave: WaveSize) {
        let info = d.op.info();
        for (kind, dst) in info.dsts.iter().zip(d.dst.iter()) {
            let n = src_dwords(*kind, wave, false);
            match *dst {
                Dst::Sgpr(first) => {
                    for r in first..first + n {
                        if let Some(s) = self.sgpr.get_mut(r as usize) {
                            *s = Some(index);
                        }
                    }
                }
                Dst::Vgpr(first) => {
                    for r in first..first + n {
                        if let Some(v) = self.vgpr.get_mut(r as usize) {
                            *v = Some(index);
                        }
                    }
                }
                _ => {}
            }
        }
        let mask = usize::from(wave.mask_dwords());
        for (effect, first, count) in [
            (Effects::WRITE_VCC, VCC, mask),
            (Effects::WRITE_EXEC, EXEC, mask),
            (Effects::WRITE_M0, M0, 1),
        ] {
            if info.effects.contains(effect) {
                for s in &mut self.sgpr[first..first + count] {
                    *s = Some(index);
                }
            }
        }
        if let Some(y) = &d.dual {
            self.record(index, y, wave);
        }
    }

    /// Records VGPRs instruction `index` writes besides its destinations (the ray an RDNA
    /// 4 BVH test writes back into its address, [`crate::exec::ray_write_back`]).
    pub fn record_vgprs(&mut self, index: u32, regs: &[u16]) {
        for &r in regs {
            if let Some(v) = self.vgpr.get_mut(usize::from(r)) {
                *v = Some(index);
            }
        }
    }

    /// The instruction that last wrote SGPR (hardware number) `n`.
    pub fn sgpr(&self, n: u16) -> Option<u32> {
        self.sgpr.get(n as usize).copied().flatten()
    }

    /// The instruction that last wrote VGPR `n`.
    pub fn vgpr(&self, n: u16) -> Option<u32> {
        self.vgpr.get(n as usize).copied().flatten()
    }
}
