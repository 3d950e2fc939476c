//! The signatures RADV gives ray-tracing stages (`radv_nir_init_rt_function_params`).

use std::fmt;
use std::str::FromStr;

use super::abi::{NirAbi, DIVERGENT_CALL, NORETURN};
use super::assign::{assign, AssignRequest, Assignment, Policy};
use super::demand::Demand;
use super::error::AcoError;
use super::hints::{ahit_isec_hints, Hints};
use super::signature::{Param, ScalarType, Signature};
use super::target::Target;

/// A ray-tracing stage compiled as a callable function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RtStage {
    /// Ray generation.
    Raygen,
    /// Callable shader.
    Callable,
    /// Closest hit.
    ClosestHit,
    /// Miss.
    Miss,
    /// Any hit.
    AnyHit,
    /// Intersection.
    Intersection,
    /// The traversal function.
    Traversal,
}

const STAGE_NAMES: [(RtStage, &str); 7] = [
    (RtStage::Raygen, "raygen"),
    (RtStage::Callable, "callable"),
    (RtStage::ClosestHit, "closest-hit"),
    (RtStage::Miss, "miss"),
    (RtStage::AnyHit, "any-hit"),
    (RtStage::Intersection, "intersection"),
    (RtStage::Traversal, "traversal"),
];

impl RtStage {
    /// The stages' names as the command line writes them, in pipeline order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        STAGE_NAMES.iter().map(|e| e.1)
    }
}

impl fmt::Display for RtStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = STAGE_NAMES
            .iter()
            .find(|(s, _)| s == self)
            .map_or("?", |e| e.1);
        f.write_str(name)
    }
}

impl FromStr for RtStage {
    type Err = String;
    fn from_str(s: &str) -> Result<RtStage, String> {
        STAGE_NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|e| e.0)
            .ok_or_else(|| {
                let names: Vec<_> = STAGE_NAMES.iter().map(|e| e.1).collect();
                format!("unknown stage `{s}`: expected one of {}", names.join(", "))
            })
    }
}

/// A stage's signature with its ABI and function flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageSignature {
    /// Parameters before RADV's two PCs.
    pub signature: Signature,
    /// The ABI.
    pub abi: NirAbi,
    /// `DIVERGENT_CALL` and `NORETURN` bits.
    pub flags: u32,
}

fn u32p(name: &str) -> Param {
    Param::new(name, ScalarType::U32, 1)
}
fn u64p(name: &str) -> Param {
    Param::new(name, ScalarType::U64, 1)
}
fn vec3(name: &str) -> Param {
    Param::new(name, ScalarType::U32, 3)
}
fn f32p(name: &str) -> Param {
    Param::new(name, ScalarType::F32, 1)
}

/// The arguments every stage begins with.
fn common() -> Vec<Param> {
    vec![
        vec3("launch_id"),
        vec3("launch_size").uniform(),
        u32p("descriptors").uniform(),
        u32p("dynamic_descriptors").uniform(),
        u32p("push_constants").uniform(),
        u64p("sbt_descriptors").uniform(),
    ]
}

/// The ray state shared by traversal, closest-hit and miss.
fn ray_state() -> Vec<Param> {
    vec![
        u64p("traversal_addr").uniform(),
        u64p("shader_record_ptr"),
        u64p("accel_struct"),
        u32p("cull_mask_and_flags"),
        u32p("sbt_offset"),
        u32p("sbt_stride"),
        u32p("miss_index"),
        vec3("ray_origin"),
        f32p("ray_tmin"),
        vec3("ray_direction"),
        f32p("ray_tmax"),
        u64p("primitive_addr"),
        u32p("primitive_id"),
        u64p("instance_addr"),
        u32p("geometry_id_and_flags"),
        u32p("hit_kind"),
    ]
}

fn dwords_of(bytes: u32, prefix: &str) -> impl Iterator<Item = Param> + '_ {
    (0..bytes.div_ceil(4)).map(move |i| u32p(&format!("{prefix}{i}")).returned())
}

/// Largest ray payload and largest hit-attribute size [`stage_signature`] accepts, in bytes.
///
/// Vulkan leaves the payload size to the pipeline (`maxPipelineRayPayloadSize`) and RADV
/// caps hit attributes at 32 bytes; each dword becomes a parameter, so an unbounded size
/// would mean an unbounded signature. 64 KiB is far beyond any real payload (they take
/// registers or scratch per lane) and keeps a signature at 16384 parameters at most.
pub const MAX_STAGE_DATA_BYTES: u32 = 64 * 1024;

/// The signature RADV gives `stage` for a pipeline with `payload_bytes` of ray payload and
/// `hit_attrib_bytes` of hit attributes (each rounded up to dwords).
///
/// Errors when either size exceeds [`MAX_STAGE_DATA_BYTES`].
///
/// The traversal function marks its shader record pointer and the hit state it finds
/// (`ray_tmax`, `primitive_addr`, `primitive_id`, `instance_addr`,
/// `geometry_id_and_flags`, `hit_kind`) DISCARDABLE, as Mesa 26.1's RADV does
/// (`radv_nir_init_traversal_params` in `src/amd/vulkan/nir/radv_nir_rt_stage_functions.c`):
/// traversal hands its lanes on to the closest-hit or miss function with new values there,
/// a tail call `radv_nir_lower_call_abi.c` allows only for discardable parameters. (The
/// reference specification follows an earlier revision that marked nothing.)
pub fn stage_signature(
    stage: RtStage,
    payload_bytes: u32,
    hit_attrib_bytes: u32,
) -> Result<StageSignature, AcoError> {
    for (what, bytes) in [
        ("ray payload", payload_bytes),
        ("hit attributes", hit_attrib_bytes),
    ] {
        if bytes > MAX_STAGE_DATA_BYTES {
            return Err(AcoError::StageDataTooLarge {
                what,
                bytes,
                max: MAX_STAGE_DATA_BYTES,
            });
        }
    }
    let mut params = common();
    let (abi, flags) = match stage {
        RtStage::Raygen | RtStage::Callable => {
            params.push(u64p("traversal_addr").uniform());
            params.push(u64p("shader_record_ptr"));
            if stage == RtStage::Raygen {
                (NirAbi::RtRecursive, NORETURN)
            } else {
                params.extend(dwords_of(payload_bytes, "payload"));
                (NirAbi::RtRecursive, DIVERGENT_CALL)
            }
        }
        RtStage::ClosestHit | RtStage::Miss => {
            params.extend(ray_state());
            params.extend(dwords_of(payload_bytes, "payload"));
            (NirAbi::RtRecursive, DIVERGENT_CALL)
        }
        RtStage::Traversal => {
            const FOUND: [&str; 7] = [
                "shader_record_ptr",
                "ray_tmax",
                "primitive_addr",
                "primitive_id",
                "instance_addr",
                "geometry_id_and_flags",
                "hit_kind",
            ];
            params.extend(ray_state().into_iter().map(|p| {
                if FOUND.contains(&p.name.as_str()) {
                    p.discardable()
                } else {
                    p
                }
            }));
            params.extend(dwords_of(payload_bytes, "payload"));
            (NirAbi::Traversal, 0)
        }
        RtStage::AnyHit | RtStage::Intersection => {
            params.extend([
                u64p("shader_record_ptr"),
                u32p("cull_mask_and_flags"),
                u32p("sbt_index"),
                vec3("ray_origin"),
                f32p("ray_tmin"),
                vec3("ray_direction"),
                f32p("candidate_ray_tmax"),
                u64p("primitive_addr"),
                u32p("primitive_id"),
                u64p("instance_addr"),
                u32p("geometry_id_and_flags"),
                Param::new("opaque", ScalarType::Bool, 1),
                u32p("hit_kind").returned(),
                Param::new("accept", ScalarType::Bool, 1).returned(),
                Param::new("terminate", ScalarType::Bool, 1).returned(),
                f32p("committed_ray_tmax").returned(),
            ]);
            params.extend(dwords_of(hit_attrib_bytes, "hit_attrib"));
            params.extend(dwords_of(payload_bytes, "payload"));
            (NirAbi::AhitIsec, DIVERGENT_CALL)
        }
    };
    Ok(StageSignature {
        signature: Signature { params },
        abi,
        flags,
    })
}

/// The hints ACO uses when it assigns an any-hit or intersection function (or a call to
/// one): the traversal function's own layout for the same payload, target, limit and
/// policy (`get_ahit_isec_param_hints` in Mesa's `aco_isel_helpers.cpp`); `None` for the
/// other stages.
pub fn stage_hints(
    stage: RtStage,
    payload_bytes: u32,
    target: Target,
    limit: Demand,
    policy: Policy,
) -> Result<Option<Hints>, AcoError> {
    if !matches!(stage, RtStage::AnyHit | RtStage::Intersection) {
        return Ok(None);
    }
    let traversal = stage_signature(RtStage::Traversal, payload_bytes, 0)?;
    let layout = assign(&AssignRequest {
        abi: &traversal.abi.abi(),
        target,
        limit,
        signature: &traversal.signature,
        policy,
        hints: None,
    })?;
    Ok(Some(ahit_isec_hints(&layout)))
}

/// The layout RADV and ACO give the function of `stage` in a pipeline whose functions carry
/// `payload_bytes` of payload and `hit_attrib_bytes` of hit attributes: its signature,
/// assigned under its ABI with [`stage_hints`]. ACO's `p_startpgm` of the compiled
/// function defines the stack pointer, the return address and then every register
/// parameter in signature order, at these locations.
pub fn stage_assignment(
    stage: RtStage,
    payload_bytes: u32,
    hit_attrib_bytes: u32,
    target: Target,
    limit: Demand,
    policy: Policy,
) -> Result<(StageSignature, Assignment), AcoError> {
    let signature = stage_signature(stage, payload_bytes, hit_attrib_bytes)?;
    let hints = stage_hints(stage, payload_bytes, target, limit, policy)?;
    let layout = assign(&AssignRequest {
        abi: &signature.abi.abi(),
        target,
        limit,
        signature: &signature.signature,
        policy,
        hints: hints.as_ref(),
    })?;
    Ok((signature, layout))
}
