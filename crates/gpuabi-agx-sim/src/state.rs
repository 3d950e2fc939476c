//! The state of one SIMD group: 32 lanes of 16-bit register halves, uniform halves, the
//! execution mask and device memory regions.

use gpuabi_agx_isa::RegFile;

use crate::error::SimError;
use crate::tile::Fragment;

/// Lanes in a SIMD group.
pub const LANES: usize = 32;
/// GPR halves per lane (r0l..r127h), from the register model.
pub const GPR_HALVES: usize = RegFile::Gpr.halves() as usize;
/// Uniform halves (u0l..u255h), from the register model.
pub const UNIFORM_HALVES: usize = RegFile::Uniform.halves() as usize;

/// A region of device memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// First byte address.
    pub address: u64,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// Machine state of one SIMD group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Bit i set: lane i is active.
    pub exec: u32,
    /// The GPR file by register: `regs[half][lane]`, so that an instruction reads and
    /// writes the 32 lanes of a register half as one contiguous row ([`State::half`] and
    /// [`State::set_half`] address it by lane).
    pub regs: Vec<[u16; LANES]>,
    /// Uniform halves, shared by all lanes.
    pub uniforms: Vec<u16>,
    /// Device memory.
    pub memory: Vec<Region>,
    /// Whether reads of unmapped addresses return zeros instead of faulting (the
    /// soft-fault mode of the driver, which maps a zero page over unmapped memory).
    pub soft_fault: bool,
    /// GPR halves written by the program in any lane.
    pub written: Vec<bool>,
    /// The tile buffer and fragment state, for fragment code.
    pub frag: Option<Box<Fragment>>,
    /// Grid position of lane 0 (x, y, z): lane `l` is thread `(x + l, y, z)` of the grid.
    pub grid: [u32; 3],
    /// The 32-bit vertex outputs `st_var` wrote, per lane by varying slot (the words the
    /// hardware hands to the rasteriser; a later write to a slot replaces the earlier).
    pub varyings: Vec<std::collections::BTreeMap<u16, u32>>,
    /// The texture-state registers: `ts` index → device address of the 24-byte texture
    /// or PBE descriptor bound there (what the `Texture state` words of a USC program
    /// bind, [`State::bind_texture_state`]).
    pub texture_state: std::collections::BTreeMap<u32, u64>,
}

impl Default for State {
    fn default() -> Self {
        State {
            exec: u32::MAX,
            regs: vec![[0; LANES]; GPR_HALVES],
            uniforms: vec![0; UNIFORM_HALVES],
            memory: Vec::new(),
            soft_fault: false,
            written: vec![false; GPR_HALVES],
            frag: None,
            grid: [0; 3],
            varyings: vec![std::collections::BTreeMap::new(); LANES],
            texture_state: std::collections::BTreeMap::new(),
        }
    }
}

fn halves_of(size: u32) -> usize {
    gpuabi_agx_isa::size_halves(size) as usize
}

impl State {
    /// Reads `size` bits (16, 32 or 64) of lane `lane` starting at half `half`.
    pub fn read_gpr(&self, lane: usize, half: u32, size: u32) -> Result<u64, SimError> {
        let h = half as usize;
        let n = halves_of(size);
        if h + n > GPR_HALVES {
            return Err(SimError::RegisterRange { half, size });
        }
        Ok((0..n).fold(0u64, |v, i| {
            v | (u64::from(self.regs[h + i][lane]) << (16 * i))
        }))
    }

    /// Writes the low `size` bits of `value` to lane `lane` at half `half`.
    pub fn write_gpr(
        &mut self,
        lane: usize,
        half: u32,
        size: u32,
        value: u64,
    ) -> Result<(), SimError> {
        let h = half as usize;
        let n = halves_of(size);
        if h + n > GPR_HALVES {
            return Err(SimError::RegisterRange { half, size });
        }
        for i in 0..n {
            self.regs[h + i][lane] = (value >> (16 * i)) as u16;
            self.written[h + i] = true;
        }
        Ok(())
    }

    /// Sets `size` bits of lane `lane` at half `half` without marking them written (for
    /// building a start state).
    pub fn set_gpr(
        &mut self,
        lane: usize,
        half: u32,
        size: u32,
        value: u64,
    ) -> Result<(), SimError> {
        self.write_gpr(lane, half, size, value)?;
        let h = half as usize;
        for w in &mut self.written[h..h + halves_of(size)] {
            *w = false;
        }
        Ok(())
    }

    /// Sets `size` bits of the uniforms at half `half`.
    pub fn set_uniform(&mut self, half: u32, size: u32, value: u64) -> Result<(), SimError> {
        let h = half as usize;
        let n = halves_of(size);
        if h + n > UNIFORM_HALVES {
            return Err(SimError::UniformRange { half, size });
        }
        for i in 0..n {
            self.uniforms[h + i] = (value >> (16 * i)) as u16;
        }
        Ok(())
    }

    /// Reads `size` bits of the uniforms at half `half`.
    pub fn read_uniform(&self, half: u32, size: u32) -> Result<u64, SimError> {
        let h = half as usize;
        let n = halves_of(size);
        if h + n > UNIFORM_HALVES {
            return Err(SimError::UniformRange { half, size });
        }
        Ok((0..n).fold(0u64, |v, i| {
            v | (u64::from(self.uniforms[h + i]) << (16 * i))
        }))
    }

    /// Reads one byte of device memory; unmapped bytes read as zero under soft fault.
    pub fn read_byte(&self, address: u64) -> Option<u8> {
        for r in &self.memory {
            if address >= r.address && address - r.address < r.bytes.len() as u64 {
                return Some(r.bytes[(address - r.address) as usize]);
            }
        }
        self.soft_fault.then_some(0)
    }

    /// Writes one byte of device memory; `false` when the address is unmapped and soft
    /// fault is off (under soft fault the write is dropped).
    pub fn write_byte(&mut self, address: u64, value: u8) -> bool {
        for r in &mut self.memory {
            if address >= r.address && address - r.address < r.bytes.len() as u64 {
                r.bytes[(address - r.address) as usize] = value;
                return true;
            }
        }
        self.soft_fault
    }

    /// Binds `count` consecutive descriptors from `buffer` to texture-state registers
    /// `start`, `start + 1`, …, as a USC `Texture state` word does (`agx_usc_pack(...,
    /// TEXTURE, cfg)` with `start`, `count` and `buffer` in `hk_build_bg_eot`,
    /// `src/asahi/vulkan/hk_cmd_draw.c`): register `start + i` reads the descriptor at
    /// `buffer + 24·i`.
    pub fn bind_texture_state(&mut self, start: u32, count: u32, buffer: u64) {
        for i in 0..count {
            let at = buffer + u64::from(i) * gpuabi_agx_isa::descriptor::DESCRIPTOR_BYTES as u64;
            self.texture_state.insert(start + i, at);
        }
    }

    /// GPR half `half` (0 for `r0l` ... 255 for `r127h`) of lane `lane`.
    #[inline(always)]
    pub fn half(&self, lane: usize, half: usize) -> u16 {
        self.regs[half][lane]
    }

    /// Sets GPR half `half` of lane `lane`, without marking it written (for building a
    /// start state or placing values from an observer).
    #[inline(always)]
    pub fn set_half(&mut self, lane: usize, half: usize, v: u16) {
        self.regs[half][lane] = v;
    }

    /// Marks the `size / 16` halves from `half` on as written by the program.
    #[inline(always)]
    pub(crate) fn mark_written(&mut self, half: usize, size: u32) {
        for w in &mut self.written[half..half + halves_of(size)] {
            *w = true;
        }
    }

    /// Whether lane `lane` is active.
    pub fn active(&self, lane: usize) -> bool {
        self.exec >> lane & 1 == 1
    }

    /// Recomputes the execution mask from the nesting counter `r0l`: active when 0.
    pub fn exec_from_r0l(&mut self) {
        self.exec = self.regs[0]
            .iter()
            .enumerate()
            .fold(0, |m, (l, &v)| m | u32::from(v == 0) << l);
    }
}
