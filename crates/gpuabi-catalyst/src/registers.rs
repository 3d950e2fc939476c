//! The initial register state (group ids after the user data, TG_SIZE, the scratch wave
//! offset, local ids in v0-v2), PGM_RSRC2 and the used SGPR/VGPR counts.

use gpuabi_layout::reg::{Reg, RegFile, RegRange};
use serde::Serialize;

use crate::driver::Generation;
use crate::error::LayoutError;

/// Most VGPRs a kernel may use.
pub const MAX_VGPRS: u32 = 256;
/// Largest local (LDS) size in bytes; also the LDS size of a kernel with a local pointer.
pub const MAX_LDS: u32 = 32768;

/// PGM_RSRC2 bits a user value keeps (6, 10, 13-31); the others are computed.
pub const PGM_RSRC2_USER_MASK: u32 = 0xFFFF_E440;
/// PGM_RSRC2 bits that carry the dimension setup (TGID_X/Y/Z_EN, TIDIG_COMP_CNT).
pub const PGM_RSRC2_DIMS_MASK: u32 = 0x1B80;

/// Bit positions of the PGM_RSRC2 fields.
mod rsrc2 {
    pub const SCRATCH_EN: u32 = 0;
    pub const USER_SGPR: u32 = 1;
    pub const TGID_EN: u32 = 7;
    pub const TG_SIZE_EN: u32 = 10;
    pub const TIDIG_COMP_CNT: u32 = 11;
    pub const LDS_SIZE: u32 = 15;
    pub const LDS_SIZE_MASK: u32 = 0x1FF;
    pub const EXCP_EN: u32 = 24;
}

/// The dimension mask: bits 0-2 enable group ids x, y, z; bits 3-5 local ids x, y, z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dims(pub u8);

impl Serialize for Dims {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.clrx_text())
    }
}

/// Why a dimension string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid dimensions '{text}': {message} (expected letters from x, y, z, e.g. 'xy', or two sets 'xz,x')")]
pub struct DimsParseError {
    /// The text given.
    pub text: String,
    /// What was wrong.
    pub message: String,
}

impl Dims {
    /// Parses `xy` (group and local ids alike) or `xz, x` (group ids, then local ids).
    pub fn parse(text: &str) -> Result<Dims, DimsParseError> {
        let set = |s: &str| -> Result<u8, DimsParseError> {
            let mut m = 0u8;
            for c in s.trim().chars() {
                let bit = match c.to_ascii_lowercase() {
                    'x' => 1,
                    'y' => 2,
                    'z' => 4,
                    _ => {
                        return Err(DimsParseError {
                            text: text.to_string(),
                            message: format!("unexpected '{c}'"),
                        })
                    }
                };
                m |= bit;
            }
            Ok(m)
        };
        let parts: Vec<&str> = text.split(',').collect();
        match parts.as_slice() {
            [one] => {
                let m = set(one)?;
                Ok(Dims(m | (m << 3)))
            }
            [group, local] => Ok(Dims(set(group)? | (set(local)? << 3))),
            _ => Err(DimsParseError {
                text: text.to_string(),
                message: "more than two sets".into(),
            }),
        }
    }

    /// Mask of enabled group-id dimensions (bit 0 x, 1 y, 2 z).
    pub fn group(self) -> u8 {
        self.0 & 7
    }

    /// Mask of local-id dimensions.
    pub fn local(self) -> u8 {
        (self.0 >> 3) & 7
    }

    /// TIDIG_COMP_CNT: 2 if local z, 1 if local y, else 0.
    pub fn tidig_comp_cnt(self) -> u32 {
        if self.local() & 4 != 0 {
            2
        } else if self.local() & 2 != 0 {
            1
        } else {
            0
        }
    }

    /// VGPRs holding local ids: 3 if z, 2 if y, 1 if x, else 0.
    pub fn local_id_vgprs(self) -> u32 {
        match self.local() {
            l if l & 4 != 0 => 3,
            l if l & 2 != 0 => 2,
            l if l & 1 != 0 => 1,
            _ => 0,
        }
    }

    /// The group-id dimensions a PGM_RSRC2 value enables (TGID_X/Y/Z_EN), without local
    /// ids: what CLRX takes from `.pgmrsrc2` when `.dims` is absent (amdasm/AsmAmdFormat.cpp
    /// uses `(pgmRSRC2 >> 7) & 7` as the dimension mask for the register minimum).
    pub fn group_of_pgm_rsrc2(value: u32) -> Dims {
        Dims(((value >> rsrc2::TGID_EN) & 7) as u8)
    }

    /// The TIDIG_COMP_CNT field of a PGM_RSRC2 value.
    pub fn tidig_of_pgm_rsrc2(value: u32) -> u32 {
        (value >> rsrc2::TIDIG_COMP_CNT) & 3
    }

    /// CLRX `.dims` text: `xy`, or `xz, x` when the two sets differ.
    pub fn clrx_text(self) -> String {
        let letters = |m: u8| -> String {
            ['x', 'y', 'z']
                .iter()
                .enumerate()
                .filter(|(i, _)| m & (1 << i) != 0)
                .map(|(_, c)| *c)
                .collect()
        };
        if self.group() == self.local() {
            letters(self.group())
        } else {
            format!("{}, {}", letters(self.group()), letters(self.local()))
        }
    }
}

/// Inputs of the register computations.
#[derive(Debug, Clone, Copy)]
pub struct RegisterInput {
    /// GCN generation.
    pub generation: Generation,
    /// USER_SGPR (largest user-data end, with the fallback for an empty explicit list).
    pub user_sgprs: u32,
    /// Largest user-data end without the fallback.
    pub user_sgprs_raw: u32,
    /// Dimension mask (already resolved from `.dims` or the user's PGM_RSRC2).
    pub dims: Dims,
    /// TG_SIZE_EN.
    pub tgsize: bool,
    /// Scratch buffer size in bytes.
    pub scratch_bytes: u32,
    /// LDS bytes PGM_RSRC2 must cover.
    pub lds_bytes: u32,
    /// Exception mask (7 bits).
    pub exceptions: u32,
    /// User-given PGM_RSRC2 (its bits 6, 10, 13-31 are kept).
    pub user_pgm_rsrc2: u32,
    /// Explicit used SGPRs (`.sgprsnum`), or `None` for the minimum.
    pub sgprs: Option<u32>,
    /// Explicit used VGPRs (`.vgprsnum`), or `None` for the minimum.
    pub vgprs: Option<u32>,
    /// The dimensions were not given: PGM_RSRC2 keeps the user's TGID/TIDIG bits as they
    /// are (CLRX's `calculatePgmRSrc2` with the default dimension mask, utils/GPUId.cpp).
    pub dims_from_user: bool,
}

/// The initial register state and the derived register fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegisterState {
    /// SGPRs of the group ids, one per enabled dimension in x, y, z order.
    pub group_id_sgprs: Vec<String>,
    /// SGPR of TG_SIZE, if enabled.
    pub tg_size_sgpr: Option<String>,
    /// SGPR of the scratch wave offset, if scratch is enabled.
    pub scratch_offset_sgpr: Option<String>,
    /// VGPRs of the local ids.
    pub local_id_vgprs: Vec<String>,
    /// Used SGPRs (excluding VCC).
    pub sgprs: u32,
    /// Used VGPRs.
    pub vgprs: u32,
    /// PGM_RSRC2 value.
    pub pgm_rsrc2: u32,
    /// LDS_SIZE field of the final PGM_RSRC2 (not serialised: it is part of `pgm_rsrc2`).
    #[serde(skip)]
    pub lds_size_field: u32,
}

/// Computes the register state, PGM_RSRC2 and register counts.
pub fn compute(input: &RegisterInput) -> Result<RegisterState, LayoutError> {
    let max_sgprs = input.generation.max_sgprs();
    let group = input.dims.group();
    let ngroup = u32::from(group.count_ones() as u8);
    let mut next = input.user_sgprs;
    let mut group_id_sgprs = Vec::new();
    for d in 0..3 {
        if group & (1 << d) != 0 {
            group_id_sgprs.push(Reg::sgpr(next as u16).to_string());
            next += 1;
        }
    }
    let tg_size_sgpr = input.tgsize.then(|| {
        next += 1;
        Reg::sgpr((next - 1) as u16).to_string()
    });
    let scratch = input.scratch_bytes != 0;
    let scratch_offset_sgpr = scratch.then(|| {
        next += 1;
        Reg::sgpr((next - 1) as u16).to_string()
    });
    let nlocal = input.dims.local_id_vgprs();
    let local_id_vgprs = if nlocal == 0 {
        Vec::new()
    } else {
        let r = RegRange::new(RegFile::Vgpr, 0, nlocal as u16);
        r.regs().map(|r| r.to_string()).collect()
    };

    // CLRX counts the minimum from the raw user-data end, without the fallback 2.
    let min_sgprs = input.user_sgprs_raw + ngroup + u32::from(input.tgsize) + u32::from(scratch);
    let sgprs = match input.sgprs {
        Some(v) if v > max_sgprs => {
            return Err(LayoutError::TooManySgprs {
                value: v,
                max: max_sgprs,
                generation: input.generation.name(),
            })
        }
        Some(v) => v,
        None => min_sgprs.min(max_sgprs),
    };
    // CLRX takes an explicit count as given, even below the local-id VGPRs.
    let vgprs = match input.vgprs {
        Some(v) if v > MAX_VGPRS => return Err(LayoutError::TooManyVgprs(v)),
        Some(v) => v,
        None => nlocal,
    };
    let granule = input.generation.lds_granule();
    let lds = input.lds_bytes.div_ceil(granule) & rsrc2::LDS_SIZE_MASK;
    let dim_bits = if input.dims_from_user {
        input.user_pgm_rsrc2 & PGM_RSRC2_DIMS_MASK
    } else {
        (u32::from(group) << rsrc2::TGID_EN)
            | (input.dims.tidig_comp_cnt() << rsrc2::TIDIG_COMP_CNT)
    };
    let computed = (u32::from(scratch) << rsrc2::SCRATCH_EN)
        | ((input.user_sgprs & 0x1F) << rsrc2::USER_SGPR)
        | dim_bits
        | (u32::from(input.tgsize) << rsrc2::TG_SIZE_EN)
        | (lds << rsrc2::LDS_SIZE)
        | ((input.exceptions & 0x7F) << rsrc2::EXCP_EN);
    let pgm_rsrc2 = (input.user_pgm_rsrc2 & PGM_RSRC2_USER_MASK) | computed;
    // The user's bits 15-23 are kept and OR-ed in: the field is read back from the result.
    let lds_size_field = (pgm_rsrc2 >> rsrc2::LDS_SIZE) & rsrc2::LDS_SIZE_MASK;
    Ok(RegisterState {
        group_id_sgprs,
        tg_size_sgpr,
        scratch_offset_sgpr,
        local_id_vgprs,
        sgprs,
        vgprs,
        pgm_rsrc2,
        lds_size_field,
    })
}

/// The USER_SGPR field of a PGM_RSRC2 value.
pub fn user_sgprs_of_pgm_rsrc2(value: u32) -> u32 {
    (value >> rsrc2::USER_SGPR) & 0x1F
}

/// The register state the hardware sets up for a kernel with this PGM_RSRC2 value (used
/// when reading a binary): group ids after USER_SGPR user-data SGPRs for each TGID_*_EN
/// bit, TG_SIZE, the scratch wave offset, and local ids in v0 (TIDIG_COMP_CNT 0), v0-v1
/// (1) or v0-v2 (2 and 3). `sgprs` and `vgprs` are the counts the binary records.
pub fn state_from_pgm_rsrc2(pgm_rsrc2: u32, sgprs: u32, vgprs: u32) -> (Dims, RegisterState) {
    let user = user_sgprs_of_pgm_rsrc2(pgm_rsrc2);
    let group = ((pgm_rsrc2 >> rsrc2::TGID_EN) & 7) as u8;
    let tidig = (pgm_rsrc2 >> rsrc2::TIDIG_COMP_CNT) & 3;
    let local: u8 = match tidig {
        0 => 1,
        1 => 3,
        _ => 7,
    };
    let mut next = user;
    let mut take = || {
        next += 1;
        Reg::sgpr((next - 1) as u16).to_string()
    };
    let group_id_sgprs = (0..3)
        .filter(|d| group & (1 << d) != 0)
        .map(|_| take())
        .collect();
    let tg_size_sgpr = (pgm_rsrc2 & (1 << rsrc2::TG_SIZE_EN) != 0).then(&mut take);
    let scratch_offset_sgpr = (pgm_rsrc2 & (1 << rsrc2::SCRATCH_EN) != 0).then(&mut take);
    let n_local = u32::from(local.count_ones() as u8);
    let local_id_vgprs = RegRange::new(RegFile::Vgpr, 0, n_local as u16)
        .regs()
        .map(|r| r.to_string())
        .collect();
    (
        Dims(group | (local << 3)),
        RegisterState {
            group_id_sgprs,
            tg_size_sgpr,
            scratch_offset_sgpr,
            local_id_vgprs,
            sgprs,
            vgprs,
            pgm_rsrc2,
            lds_size_field: (pgm_rsrc2 >> rsrc2::LDS_SIZE) & rsrc2::LDS_SIZE_MASK,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(user: u32, dims: &str) -> RegisterInput {
        RegisterInput {
            generation: Generation::Gcn10,
            user_sgprs: user,
            user_sgprs_raw: user,
            dims: Dims::parse(dims).unwrap(),
            tgsize: false,
            scratch_bytes: 0,
            lds_bytes: 0,
            exceptions: 0,
            user_pgm_rsrc2: 0,
            sgprs: None,
            vgprs: None,
            dims_from_user: false,
        }
    }

    #[test]
    fn dims_parse() {
        assert_eq!(Dims::parse("xy").unwrap(), Dims(0b011_011));
        assert_eq!(Dims::parse("xz, x").unwrap(), Dims(0b001_101));
        assert_eq!(Dims::parse("xz, x").unwrap().clrx_text(), "xz, x");
        assert!(Dims::parse("xw").is_err());
        assert!(Dims::parse("x,y,z").is_err());
    }

    #[test]
    fn spec_e1_e2_rsrc2() {
        // E1: USER_SGPR 12, TGID_X_EN -> 0x98.
        let s = compute(&input(12, "x")).unwrap();
        assert_eq!(s.pgm_rsrc2, 0x98);
        assert_eq!(s.group_id_sgprs, vec!["s12"]);
        assert_eq!(s.local_id_vgprs, vec!["v0"]);
        // E2: USER_SGPR 16 -> 0xA0, group id x in s16.
        let s = compute(&input(16, "x")).unwrap();
        assert_eq!(s.pgm_rsrc2, 0xA0);
        assert_eq!(s.group_id_sgprs, vec!["s16"]);
    }

    #[test]
    fn lds_granule_and_user_bits() {
        let mut i = input(2, "xyz");
        i.lds_bytes = 32768;
        assert_eq!(compute(&i).unwrap().lds_size_field, 128);
        i.generation = Generation::Gcn11;
        assert_eq!(compute(&i).unwrap().lds_size_field, 64);
        i.user_pgm_rsrc2 = 0xFFFF_FFFF;
        let s = compute(&i).unwrap();
        // Kept user bits OR computed fields; bits 0-5, 7-9, 11-12 replaced; the LDS field
        // (bits 15-23) is the user's all-ones OR-ed with 64.
        assert_eq!(s.pgm_rsrc2 & 0x3F, 2 << 1);
        assert_eq!((s.pgm_rsrc2 >> 11) & 3, 2);
        assert_eq!(s.lds_size_field, 0x1FF);
    }
}
