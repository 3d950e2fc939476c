//! Dispatch set-up for PAL compute shaders (`amdgpu_cs` functions that llc-19 compiles for
//! `amdgcn-amd-amdpal`), from the shader's own PAL metadata ([`PalShader`]): the initial
//! SGPRs and VGPRs that `COMPUTE_PGM_RSRC2` asks the hardware for, the user data the
//! caller binds, and, where the code finds its scratch descriptor through PAL's global
//! information table (GIT), that table and the scratch it describes.
//!
//! What a wave starts with, in the order the hardware loads it (AMD's RDNA 2 and RDNA 3
//! ISA guides, "Initial Wave State"; LLVM's AMDGPUUsage, "Code Object Metadata" → "PAL"):
//! - `s[0:U-1]`: U user-data SGPRs (COMPUTE_USER_DATA_0 onwards, at most 16). An
//!   `amdgpu_cs` function's `inreg` arguments occupy them in order, one dword each (LLVM's
//!   `CC_SI_SHADER` in `AMDGPUCallingConv.td`). PAL's convention puts the GIT pointer in
//!   the first; gpuabi requires that only where the code reads it (scratch, below) and
//!   otherwise lets s0 hold anything, as llc compiles a shader whatever its first `inreg`
//!   argument is.
//! - then the work-group ids x, y, z whose `TGID_*_EN` is set, the work-group
//!   information when `TG_SIZE_EN` is set, and the scratch wave offset when `SCRATCH_EN` is
//!   set (which LLVM's `SITargetLowering::allocateSystemSGPRs` places in the first SGPR
//!   after the `inreg` arguments);
//! - v0 = work-item id x, v1 = y, v2 = z as `TIDIG_COMP_CNT` asks; on GFX11 all three
//!   packed in v0 (x in bits 0-9, y in 10-19, z in 20-29). LLVM treats an `amdgpu_cs`
//!   function's other arguments as plain VGPR arguments from v0 on, so the code reads
//!   the ids where the function's arguments say.
//!
//! Decisions where the metadata that llc-19 writes by itself is silent:
//! - The user-SGPR count U. LLVM counts no `inreg` argument of a graphics calling convention
//!   as a user SGPR, so llc's `COMPUTE_PGM_RSRC2.USER_SGPR` is 0; PAL takes the count from
//!   its client's user-data mapping, which plain llc output lacks. When `USER_SGPR` is not
//!   0 (metadata a front end merged in through `!amdgpu.pal.metadata.msgpack`) it is U and
//!   bindings beyond it are refused; when it is 0, U is one more than the highest SGPR the
//!   caller binds (and at least 1 when the GIT pointer is needed). Bind every `inreg`
//!   argument up to the last one, or the SGPRs after the user data land elsewhere than
//!   the code expects.
//! - Work-item ids: llc leaves `TIDIG_COMP_CNT` 0 (it does not know which arguments are
//!   ids), so the dispatch delivers the components of `TIDIG_COMP_CNT` or of the NDRange's
//!   dimensions, whichever is more.
//! - Work-group ids: `llvm.amdgcn.workgroup.id.*` have no SGPR in an `amdgpu_cs` function
//!   in LLVM 19 on these targets; a shader takes them as `inreg` arguments after its user
//!   data, with metadata that sets `USER_SGPR` and `TGID_*_EN` (as PAL's clients do).
//! - Work-group information (`TG_SIZE_EN`) is HSA's: bit 31 set in the first wave of a
//!   work-group, the number of waves of the work-group in bits 0-5.
//! - Scratch on GFX8 and GFX10.3 (no architected flat scratch): LLVM's
//!   `SIFrameLowering::emitEntryFunctionScratchRsrcRegSetup` builds the GIT address from s0
//!   (low half) and the high half of `s_getpc_b64`, loads the scratch buffer descriptor from
//!   GIT + 16 (compute shaders), clears bit 21 of its last dword in wave32 (index stride
//!   64 → 32) and adds the wave offset SGPR to its base. So s0 holds the GIT address
//!   (PAL's fixed compute user data: register 0 is the GIT's 32-bit pointer; AMDGPUUsage,
//!   "AMDPAL" → "Compute User Data"), the caller may not bind s0, and the GIT is a 32-byte buffer [`GIT_BUFFER`] at
//!   [`GIT_ADDRESS`] (in the code's 4 GiB: its high half is the program counter's) whose
//!   bytes 16-31 are a swizzled descriptor (element size 4, index stride 64, ADD_TID_ENABLE,
//!   `num_records` the bytes per lane) of [`SCRATCH_BUFFER`], which holds one slice of
//!   bytes-per-lane × lanes per wave; the wave offset SGPR is the byte offset of the wave's
//!   slice. A shader compiled with `amdgpu-git-ptr-high` finds the GIT elsewhere and reads
//!   unmapped memory. On GFX11 the hardware sets up flat scratch and `scratch_*` reach the
//!   simulator's per-lane private memory: nothing is allocated and no wave offset SGPR is
//!   written (LLVM 19's GFX11 code reads none).
//! - Floating-point mode: the vector ALU model computes with f32 denormals kept and IEEE
//!   mode on. llc-19 writes `amdgpu_cs` shaders with IEEE mode off, which changes only how
//!   `v_min`/`v_max`/`v_med3` and their kin treat signalling NaNs (AMD's ISA guides,
//!   "IEEE mode"); such a shader runs when its code has none of those instructions and is
//!   refused, naming the first one, when it has. A shader that flushes f32 denormals is
//!   refused.

use std::collections::BTreeSet;

use gpuabi_amdgpu::hsa::features;
use gpuabi_amdgpu::pal::{PalShader, MAX_COMPUTE_USER_SGPRS};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Inst, Program, Target};

use crate::dispatch::{LaneValues, NdRange, WaveSetup};
use crate::exec::memory::Descriptor;
use crate::hsa::packed_ids;
use crate::limits::{Limits, MAX_SCRATCH_BYTES_PER_LANE};
use crate::memory::Memory;

/// Name of the buffer holding the global information table.
pub const GIT_BUFFER: &str = "pal_git";
/// Name of the buffer backing the scratch of every wave (GFX8, GFX10.3).
pub const SCRATCH_BUFFER: &str = "pal_scratch";
/// Address of the global information table: below 4 GiB, where the code is, so that the
/// high half of `s_getpc_b64` is its high half too.
pub const GIT_ADDRESS: u64 = 0x8000_0000;
/// Bytes of the global information table.
const GIT_BYTES: usize = 32;
/// Offset of a compute shader's scratch descriptor in the GIT
/// (`SIFrameLowering::emitEntryFunctionScratchRsrcRegSetup`: 16 for `AMDGPU_CS`).
const GIT_SCRATCH_DESCRIPTOR: usize = 16;
/// Index stride of the scratch descriptor the driver writes: 64 lanes, which wave32 code
/// changes to 32 itself.
const DRIVER_INDEX_STRIDE: u32 = 64;
/// Element size of scratch's swizzled addressing (dwords).
const SCRATCH_ELEMENT_SIZE: u32 = 4;

/// Mnemonic prefixes of the instructions whose results depend on IEEE mode (signalling
/// NaN operands of minimum, maximum and median; AMD's RDNA 2 ISA guide, "IEEE mode").
const IEEE_MODE_SENSITIVE: [&str; 9] = [
    "v_min_f",
    "v_max_f",
    "v_min3_f",
    "v_max3_f",
    "v_med3_f",
    "v_minmax_f",
    "v_maxmin_f",
    "v_dual_min_f",
    "v_dual_max_f",
];

/// What a caller puts in user-data SGPRs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserData {
    /// Dwords, one per SGPR.
    Dwords(Vec<u32>),
    /// The 64-bit address of the named buffer (2 SGPRs).
    Address(String),
    /// A buffer resource descriptor (V#) covering the named buffer, untyped, stride 0,
    /// `num_records` its size in bytes (4 SGPRs).
    Resource(String),
}

/// User data for the SGPRs from `first` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSgprs {
    /// The first SGPR.
    pub first: u16,
    /// The value.
    pub value: UserData,
    /// Where the binding came from (a command-line flag), which errors name.
    pub flag: String,
}

impl UserSgprs {
    /// SGPRs the value fills.
    pub fn count(&self) -> u16 {
        match &self.value {
            UserData::Dwords(d) => d.len() as u16,
            UserData::Address(_) => 2,
            UserData::Resource(_) => 4,
        }
    }

    fn range(&self) -> String {
        match self.count() {
            1 => format!("s{}", self.first),
            n => format!(
                "s[{}:{}]",
                self.first,
                u32::from(self.first) + u32::from(n) - 1
            ),
        }
    }
}

/// A PAL dispatch that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PalDispatchError {
    /// A user-data binding does not fit the shader.
    #[error("{flag}: {message}")]
    Binding {
        /// The binding's flag.
        flag: String,
        /// What was wrong.
        message: String,
    },
    /// The shader does not suit the target, or asks for what the simulator does not model.
    #[error("{0}")]
    Shader(String),
    /// The NDRange is invalid or does not suit the shader.
    #[error("NDRange: {0}")]
    NdRange(String),
    /// A simulator limit would be exceeded.
    #[error("{0}")]
    Limit(String),
    /// Global memory is full or has a buffer of a name the dispatch uses.
    #[error("{0}")]
    Memory(String),
}

fn binding_error(b: &UserSgprs, message: impl Into<String>) -> PalDispatchError {
    PalDispatchError::Binding {
        flag: b.flag.clone(),
        message: message.into(),
    }
}

/// An untyped buffer resource descriptor over `bytes` bytes at `base`.
fn buffer_resource(base: u64, bytes: usize) -> [u32; 4] {
    Descriptor {
        base,
        stride: 0,
        num_records: u32::try_from(bytes).unwrap_or(u32::MAX),
        swizzle: false,
        add_tid: false,
        index_stride: 8,
        element_size: 4,
    }
    .encode()
}

/// Refuses a float mode the vector ALU model does not compute (see the module
/// documentation).
fn check_mode(shader: &PalShader, program: &Program) -> Result<(), PalDispatchError> {
    // FLOAT_MODE bits 4-5: f32 denormal mode; 3 keeps input and output denormals.
    if (shader.float_mode() >> 4) & 3 != 3 {
        return Err(PalDispatchError::Shader(format!(
            "shader `{}` flushes f32 denormals (COMPUTE_PGM_RSRC1.FLOAT_MODE 0x{:x}); the \
             simulator models only denormals kept",
            shader.entry,
            shader.float_mode()
        )));
    }
    if shader.ieee_mode() {
        return Ok(());
    }
    let sensitive = |inst: &Inst| {
        let m = inst.op.info().mnemonic;
        IEEE_MODE_SENSITIVE.iter().any(|p| m.starts_with(p))
    };
    for entry in &program.items {
        let Item::Inst(inst) = &entry.item else {
            continue;
        };
        if let Some(i) = std::iter::once(inst)
            .chain(inst.dual.as_deref())
            .find(|i| sensitive(i))
        {
            let at = entry
                .origin
                .line()
                .map_or(String::new(), |l| format!(" (line {l})"));
            return Err(PalDispatchError::Shader(format!(
                "shader `{}` runs with IEEE mode off (COMPUTE_PGM_RSRC1.IEEE_MODE 0) and its \
                 code has `{}`{at}, whose signalling-NaN results depend on that mode; the \
                 simulator models only IEEE mode",
                shader.entry,
                i.op.info().mnemonic
            )));
        }
    }
    Ok(())
}

/// The number of user-data SGPRs and a check of every binding against it (see the module
/// documentation).
fn user_sgpr_count(
    shader: &PalShader,
    user: &[UserSgprs],
    needs_git: bool,
) -> Result<u32, PalDispatchError> {
    let declared = shader.user_sgprs();
    let mut taken = BTreeSet::new();
    let mut end_bound = u32::from(needs_git);
    for b in user {
        let first = u32::from(b.first);
        let count = u32::from(b.count());
        if count == 0 {
            return Err(binding_error(b, "no value"));
        }
        let end = first + count;
        let range = b.range();
        if end > MAX_COMPUTE_USER_SGPRS {
            return Err(binding_error(
                b,
                if first < MAX_COMPUTE_USER_SGPRS {
                    format!(
                        "{range} straddles the end of user data: a compute dispatch loads at \
                         most {MAX_COMPUTE_USER_SGPRS} user SGPRs (s0-s15)"
                    )
                } else {
                    format!(
                        "{range} is not user data: a compute dispatch loads at most \
                         {MAX_COMPUTE_USER_SGPRS} user SGPRs (s0-s15)"
                    )
                },
            ));
        }
        if declared > 0 && end > declared {
            let what = if first < declared {
                "straddles the end of"
            } else {
                "is not in"
            };
            return Err(binding_error(
                b,
                format!(
                    "{range} {what} the shader's user data: its COMPUTE_PGM_RSRC2.USER_SGPR \
                     is {declared} (s0-s{})",
                    declared - 1
                ),
            ));
        }
        if let Some(used) = shader.sgpr_count {
            if first >= used {
                return Err(binding_error(
                    b,
                    format!(
                        "the shader uses {used} SGPRs (.sgpr_count), so it never reads {range} \
                         as user data"
                    ),
                ));
            }
        }
        if needs_git && first == 0 {
            return Err(binding_error(
                b,
                "s0 holds the low half of PAL's global information table address, from which \
                 the shader loads its scratch descriptor (COMPUTE_PGM_RSRC2.SCRATCH_EN); bind \
                 user data from s1 on",
            ));
        }
        for r in first..end {
            if !taken.insert(r) {
                return Err(binding_error(b, format!("s{r} is bound twice")));
            }
        }
        end_bound = end_bound.max(end);
    }
    Ok(if declared > 0 { declared } else { end_bound })
}

/// Sets up a PAL dispatch of the compute shader `shader`, whose code is `program`: binds
/// `user` to user-data SGPRs (buffers named there must be in `memory`), adds the GIT and
/// scratch buffers where the shader needs them, and returns one [`WaveSetup`] per wave,
/// work-group by work-group (x fastest), waves of a work-group in order.
pub fn dispatch(
    shader: &PalShader,
    program: &Program,
    nd: &NdRange,
    user: &[UserSgprs],
    memory: &mut Memory,
    limits: &Limits,
) -> Result<Vec<WaveSetup>, PalDispatchError> {
    let (target, wave) = (program.target, program.wave);
    if !matches!(target, Target::Gfx8 | Target::Gfx1030 | Target::Gfx1100) {
        return Err(PalDispatchError::Shader(format!(
            "PAL dispatch runs tonga (gfx8), gfx1030 and gfx1100 code, not {target}"
        )));
    }
    if wave != shader.wave {
        return Err(PalDispatchError::Shader(format!(
            "the code is read for {wave} but the PAL metadata asks for {}",
            shader.wave
        )));
    }
    check_mode(shader, program)?;
    if let Some(dims) = shader.threadgroup_dimensions {
        if nd.local != dims {
            return Err(PalDispatchError::NdRange(format!(
                "work-groups of {}x{}x{}, but the shader's .threadgroup_dimensions are \
                 {}x{}x{}",
                nd.local[0], nd.local[1], nd.local[2], dims[0], dims[1], dims[2]
            )));
        }
    }
    let groups = nd.group_counts().map_err(PalDispatchError::NdRange)?;
    let lanes = wave.lanes();
    let max_waves = nd
        .wave_count(groups, lanes)
        .map_err(PalDispatchError::NdRange)?;

    let arch_flat_scratch = features(target, wave).architected_flat_scratch;
    let needs_git = shader.scratch_enabled() && !arch_flat_scratch;
    let user_count = user_sgpr_count(shader, user, needs_git)?;

    let per_lane = shader
        .scratch_bytes
        .checked_next_multiple_of(4)
        .unwrap_or(u32::MAX);
    let lane_limit = limits
        .scratch_bytes_per_lane
        .min(MAX_SCRATCH_BYTES_PER_LANE);
    if shader.scratch_enabled() && per_lane > lane_limit {
        return Err(PalDispatchError::Limit(format!(
            "shader `{}` needs {per_lane} scratch bytes per work-item (.scratch_memory_size), \
             more than the simulator's scratch limit of {lane_limit}",
            shader.entry
        )));
    }
    let wave_slice = u64::from(per_lane) * u64::from(lanes);
    let scratch_bytes = if needs_git {
        wave_slice * max_waves as u64
    } else {
        0
    };
    // Wave offsets are 32-bit SGPRs.
    if scratch_bytes > u64::from(u32::MAX) {
        return Err(PalDispatchError::Limit(format!(
            "the scratch of {max_waves} waves of {wave_slice} bytes exceeds the 4 GiB that \
             32-bit wave offsets reach"
        )));
    }
    for name in [GIT_BUFFER, SCRATCH_BUFFER] {
        if needs_git && memory.find(name).is_some() {
            return Err(PalDispatchError::Memory(format!(
                "memory already has a buffer named `{name}`, which the dispatch creates"
            )));
        }
    }
    let global_limit = limits.global_bytes;
    let used: u64 = memory.buffers().iter().map(|b| b.data.len() as u64).sum();
    if needs_git && used.saturating_add(scratch_bytes + GIT_BYTES as u64) > global_limit {
        return Err(PalDispatchError::Limit(format!(
            "the scratch ({scratch_bytes} bytes) exceeds the global memory limit of \
             {global_limit} bytes"
        )));
    }

    // User data, the same in every wave.
    let mut user_sgprs: Vec<(u16, u32)> = Vec::new();
    for b in user {
        let find = |name: &str| {
            memory.find(name).ok_or_else(|| {
                binding_error(b, format!("no buffer `{name}` (define it with --buffer)"))
            })
        };
        let values: Vec<u32> = match &b.value {
            UserData::Dwords(d) => d.clone(),
            UserData::Address(name) => {
                let base = find(name)?.base;
                vec![base as u32, (base >> 32) as u32]
            }
            UserData::Resource(name) => {
                let buffer = find(name)?;
                buffer_resource(buffer.base, buffer.data.len()).to_vec()
            }
        };
        user_sgprs.extend(
            values
                .into_iter()
                .enumerate()
                .map(|(k, v)| (b.first + k as u16, v)),
        );
    }
    if needs_git {
        let too_large = |e: crate::memory::TooLarge| PalDispatchError::Memory(e.to_string());
        let scratch = memory
            .add(
                SCRATCH_BUFFER,
                vec![0; scratch_bytes as usize],
                global_limit,
            )
            .map_err(too_large)?;
        let base = memory.buffer(scratch).base;
        let mut git = vec![0u8; GIT_BYTES];
        let descriptor = Descriptor {
            base,
            stride: 0,
            num_records: per_lane,
            swizzle: true,
            add_tid: true,
            index_stride: DRIVER_INDEX_STRIDE,
            element_size: SCRATCH_ELEMENT_SIZE,
        }
        .encode();
        for (k, d) in descriptor.iter().enumerate() {
            let at = GIT_SCRATCH_DESCRIPTOR + 4 * k;
            git[at..at + 4].copy_from_slice(&d.to_le_bytes());
        }
        memory
            .add_in_code_space(GIT_BUFFER, GIT_ADDRESS, git, global_limit)
            .map_err(too_large)?;
        user_sgprs.push((0, GIT_ADDRESS as u32));
    }

    let components = shader
        .work_item_id_components()
        .max(nd.work_dim.saturating_sub(1))
        .min(2)
        + 1;
    let packed = features(target, wave).packed_work_item_ids;
    let tgid = shader.workgroup_ids();
    let mut setups = Vec::with_capacity(max_waves);
    for place in nd.wave_places(groups, lanes) {
        let wave_index = setups.len() as u64;
        let mut s = WaveSetup {
            sgprs: user_sgprs.clone(),
            ..WaveSetup::default()
        };
        let mut next = user_count as u16;
        for (enabled, id) in tgid.iter().zip(place.group) {
            if *enabled {
                s.sgprs.push((next, id));
                next += 1;
            }
        }
        if shader.workgroup_info() {
            let first = u32::from(place.wave_in_group == 0);
            s.sgprs
                .push((next, first << 31 | (place.group_waves & 0x3f)));
            next += 1;
        }
        if needs_git {
            // Bounded by the 32-bit check before the scratch was allocated.
            s.sgprs.push((next, (wave_index * wave_slice) as u32));
        }
        let ids = place.work_item_ids(lanes);
        if packed {
            s.vgprs.push((0, packed_ids(&ids, components)));
        } else {
            for d in 0..components as usize {
                let v = ids.iter().map(|id| id[d]).collect();
                s.vgprs.push((d as u16, LaneValues::PerLane(v)));
            }
        }
        s.exec = Some(place.exec());
        s.workgroup = place.group_index;
        s.lds_bytes = shader.lds_bytes();
        setups.push(s);
    }
    Ok(setups)
}
