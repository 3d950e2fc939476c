//! Dispatch set-up shared by the entry ABIs: the NDRange, argument values, and the initial
//! registers of each wave.

use gpuabi_layout::reg::{RegFile, RegRange};

use crate::error::SimError;
use crate::limits::MAX_WAVES;
use crate::undef::UndefTracker;
use crate::wave::Wave;

/// Most work-items in one work-group (the hardware's limit, and OpenCL's and HSA's).
pub const MAX_WORK_GROUP_ITEMS: u32 = 1024;

/// The NDRange of a dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Global size per dimension (unused dimensions 1).
    pub global: [u32; 3],
    /// Local (work-group) size per dimension (unused dimensions 1).
    pub local: [u32; 3],
    /// Global offset per dimension.
    pub offset: [u32; 3],
}

/// The value of one kernel argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// A global (or `constant`) pointer to the named buffer.
    Buffer(String),
    /// Numbers for a value argument, one per vector component; converted per the type.
    Numbers(Vec<Number>),
    /// An image: the buffer of its texels, its format and size (Catalyst dispatches).
    Image(crate::opencl_image::ImageArg),
}

/// One number of a by-value argument as it was written: an integer stays an integer, so
/// that a 64-bit argument gets all its 64 bits (a double holds 53).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer, from -2^63 to 2^64 - 1 (signed and unsigned 64-bit values alike).
    Int(i128),
    /// Any other number (`2.5`, `1e-3`, `inf`).
    Float(f64),
}

impl Number {
    /// The number as a double (integers beyond 2^53 rounded).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    /// The number as an integer, if it is one: an integer, or a float without a fraction
    /// (`3.0`).
    pub fn as_int(self) -> Option<i128> {
        match self {
            Number::Int(i) => Some(i),
            // Every finite double without a fraction is below 2^1024 and fits i128 only
            // up to 2^127: larger ones are no integer of any argument type anyway.
            Number::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 2f64.powi(127) => {
                Some(f as i128)
            }
            Number::Float(_) => None,
        }
    }

    /// The low `bits` bits of the number if it is an integer of `bits` bits, signed or
    /// unsigned (two's complement for negative ones).
    pub fn to_bits(self, bits: u32) -> Option<u64> {
        let i = self.as_int()?;
        let (min, max) = (-(1i128 << (bits - 1)), 1i128 << bits);
        (min..max)
            .contains(&i)
            .then(|| (i as u64) & (u64::MAX >> (64 - bits)))
    }

    /// Parses a number as the command line writes it: an integer in decimal or `0x` hex,
    /// optionally negative, from -2^63 to 2^64 - 1; anything else a Rust float (`2.5`,
    /// `1e3`, `inf`).
    pub fn parse(text: &str) -> Option<Number> {
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let magnitude = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                digits.parse::<u64>().ok()
            }
            None => None,
        };
        match magnitude {
            Some(m) if !negative => Some(Number::Int(i128::from(m))),
            Some(m) if m <= 1 << 63 => Some(Number::Int(-i128::from(m))),
            Some(_) => None,
            // A decimal integer past 2^64 is no argument's value either.
            None if digits.bytes().all(|b| b.is_ascii_digit()) => None,
            None => t.parse::<f64>().ok().map(Number::Float),
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => write!(f, "{x}"),
        }
    }
}

impl From<f64> for Number {
    fn from(f: f64) -> Number {
        Number::Float(f)
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        Number::Int(i128::from(i))
    }
}

impl From<u64> for Number {
    fn from(i: u64) -> Number {
        Number::Int(i128::from(i))
    }
}

impl From<u32> for Number {
    fn from(i: u32) -> Number {
        Number::Int(i128::from(i))
    }
}

impl From<i32> for Number {
    fn from(i: i32) -> Number {
        Number::Int(i128::from(i))
    }
}

impl NdRange {
    /// Checks the sizes and returns the number of work-groups per dimension, counting a
    /// partial last work-group (global sizes need not be multiples of local sizes here):
    /// `work_dim` is 1 to 3, dimensions beyond it have sizes 1, sizes are positive and a
    /// work-group has at most [`MAX_WORK_GROUP_ITEMS`] work-items.
    pub fn group_counts(&self) -> Result<[u32; 3], String> {
        if !(1..=3).contains(&self.work_dim) {
            return Err(format!("work_dim {} is not 1, 2 or 3", self.work_dim));
        }
        let mut groups = [1; 3];
        for (d, groups_d) in groups.iter_mut().enumerate() {
            let (g, l) = (self.global[d], self.local[d]);
            if d as u32 >= self.work_dim && (g != 1 || l != 1) {
                return Err(format!(
                    "dimension {d} is beyond work_dim {} but has sizes {g}/{l}",
                    self.work_dim
                ));
            }
            if l == 0 || g == 0 {
                return Err(format!(
                    "dimension {d} has global size {g} and local size {l}: both must be positive"
                ));
            }
            *groups_d = g.div_ceil(l);
        }
        // Saturating: three 32-bit sizes may need 96 bits; such a group is refused.
        let items = self
            .local
            .iter()
            .fold(1u64, |n, &l| n.saturating_mul(u64::from(l)));
        if items > u64::from(MAX_WORK_GROUP_ITEMS) {
            return Err(format!(
                "a work-group of {}x{}x{} work-items exceeds {MAX_WORK_GROUP_ITEMS}",
                self.local[0], self.local[1], self.local[2]
            ));
        }
        Ok(groups)
    }

    /// Work-items in a whole work-group (after [`NdRange::group_counts`] succeeded).
    pub fn group_items(&self) -> u32 {
        self.local[0] * self.local[1] * self.local[2]
    }

    /// The number of waves of `lanes` lanes that `groups` whole work-groups need, refused
    /// above the simulator's [`MAX_WAVES`].
    pub fn wave_count(&self, groups: [u32; 3], lanes: u32) -> Result<usize, String> {
        let items = u64::from(self.group_items());
        // Three 32-bit group counts may need 96 bits: saturate, any such count is refused.
        let total = groups
            .iter()
            .fold(1u64, |n, &g| n.saturating_mul(u64::from(g)));
        let waves = total.saturating_mul(items.div_ceil(u64::from(lanes)));
        if waves > MAX_WAVES as u64 {
            let [x, y, z] = groups;
            return Err(format!(
                "{x}x{y}x{z} work-groups of {items} work-items need more waves than the \
                 simulator's limit of {MAX_WAVES}"
            ));
        }
        Ok(waves as usize)
    }
}

/// Where one wave of a dispatch sits: its work-group and its work-items in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavePlace {
    /// The work-group id.
    pub group: [u32; 3],
    /// The work-group's number in dispatch order (x fastest).
    pub group_index: u32,
    /// The work-group's own size: the remainder for a partial last work-group.
    pub size: [u32; 3],
    /// The wave's number among its work-group's waves.
    pub wave_in_group: u32,
    /// Waves of the work-group.
    pub group_waves: u32,
    /// The wave's first work-item (flattened, x fastest) in its work-group.
    pub first: u32,
    /// Work-items of the wave (the first `active` lanes).
    pub active: u32,
}

impl WavePlace {
    /// The execute mask of the wave's work-items.
    pub fn exec(&self) -> u64 {
        if self.active >= 64 {
            u64::MAX
        } else {
            (1u64 << self.active) - 1
        }
    }

    /// The work-item id (x, y, z) in its work-group of each of `lanes` lanes; lanes
    /// without a work-item get 0.
    pub fn work_item_ids(&self, lanes: u32) -> Vec<[u32; 3]> {
        let size = self.size;
        (0..lanes)
            .map(|lane| {
                if lane >= self.active {
                    return [0; 3];
                }
                let i = self.first + lane;
                [
                    i % size[0],
                    (i / size[0]) % size[1],
                    i / (size[0] * size[1]),
                ]
            })
            .collect()
    }
}

impl NdRange {
    /// Every wave of waves of `lanes` lanes, work-group by work-group (x fastest), waves
    /// of a work-group in order, for `groups` from [`NdRange::group_counts`]. Global sizes
    /// need not be multiples of local sizes: the last work-group of a dimension is then
    /// partial, and a wave whose work-group runs out of work-items is partial.
    pub fn wave_places(&self, groups: [u32; 3], lanes: u32) -> Vec<WavePlace> {
        let mut places = Vec::new();
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    let group = [gx, gy, gz];
                    let size: [u32; 3] = std::array::from_fn(|d| {
                        if group[d] < self.global[d] / self.local[d] {
                            self.local[d]
                        } else {
                            self.global[d] % self.local[d]
                        }
                    });
                    let items = size[0] * size[1] * size[2];
                    let group_waves = items.div_ceil(lanes);
                    for w in 0..group_waves {
                        places.push(WavePlace {
                            group,
                            group_index: gx + groups[0] * (gy + groups[1] * gz),
                            size,
                            wave_in_group: w,
                            group_waves,
                            first: w * lanes,
                            active: (items - w * lanes).min(lanes),
                        });
                    }
                }
            }
        }
        places
    }
}

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
    /// The work-group of the wave: consecutive set-ups with the same number are the waves
    /// of one work-group, which share one LDS and meet at `s_barrier`.
    pub workgroup: u32,
    /// Bytes of LDS of the wave's work-group (the kernel's group segment size and any
    /// dynamic LDS); the largest value among a work-group's waves is its size.
    pub lds_bytes: u32,
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

#[cfg(test)]
mod tests {
    use super::Number;

    #[test]
    fn integers_stay_exact() {
        // 0x9E3779B97F4A7C15 is 11400714819323198485, beyond a double's 53 bits.
        let n = Number::parse("0x9E3779B97F4A7C15").unwrap();
        assert_eq!(n, Number::Int(11_400_714_819_323_198_485));
        assert_eq!(n.to_bits(64), Some(0x9E37_79B9_7F4A_7C15));
        assert_eq!(n.to_bits(32), None);
        assert_eq!(Number::parse("-1").unwrap().to_bits(64), Some(u64::MAX));
        assert_eq!(Number::parse("-1").unwrap().to_bits(8), Some(0xff));
        assert_eq!(
            Number::parse("-9223372036854775808").unwrap().to_bits(64),
            Some(1 << 63)
        );
        assert_eq!(Number::parse("-9223372036854775809"), None);
        assert_eq!(Number::parse("18446744073709551616"), None);
        assert_eq!(Number::parse("2.5"), Some(Number::Float(2.5)));
        assert_eq!(Number::parse("3.0").unwrap().to_bits(32), Some(3));
        assert_eq!(Number::parse("2.5").unwrap().to_bits(32), None);
        assert_eq!(Number::parse("-inf").unwrap().as_int(), None);
        assert_eq!(Number::parse("0xZZ"), None);
        assert_eq!(Number::parse(""), None);
    }
}
