//! The AGX non-monolithic ABI constants, each written once, in 16-bit halves as in Mesa's
//! `agx_abi.h`; every layout in this crate is derived from these.

use gpuabi_layout::reg::{AgxFile, AgxRange};
use serde::Serialize;

/// GPR halves in the register file (r0..r127).
pub const GPR_HALVES: u16 = AgxFile::Gpr.halves();

/// The hardware nesting counter (execution-mask stack depth), `r0l`.
pub const NESTING_COUNTER: AgxRange = AgxRange::new(AgxFile::Gpr, 0, 1);
/// The hardware link register, `r1`.
pub const LINK_REGISTER: AgxRange = AgxRange::gpr32(1);

/// Vertex inputs (`AGX_ABI_VIN_*`): zero-based vertex index of the compute variant, `r4`.
pub const VIN_VERTEX_ID_ZERO_BASE: AgxRange = AgxRange::gpr32(4);
/// Vertex ID, `r5` (preloaded by the hardware; includes the base vertex).
pub const VIN_VERTEX_ID: AgxRange = AgxRange::gpr32(5);
/// Instance ID, `r6` (preloaded by the hardware; zero-based).
pub const VIN_INSTANCE_ID: AgxRange = AgxRange::gpr32(6);
/// 32-bit GPR holding attribute component 0; component `k = 4a + c` is in `r(8 + k)`.
pub const VIN_FIRST_ATTRIB_GPR: u16 = 8;
/// Components per attribute slot (x, y, z, w).
pub const COMPONENTS_PER_ATTRIB: u16 = 4;
/// Attribute slots that fit in registers: r8..r127 hold (128 − 8) / 4 = 30 vec4s.
pub const MAX_ATTRIBS_IN_REGISTERS: u16 = (GPR_HALVES / 2 - VIN_FIRST_ATTRIB_GPR) / 4;
/// Mesa's `AGX_MAX_ATTRIBS` (= `AGX_MAX_VBUFS`): the limit of the `gl` and `vk` profiles.
pub const MESA_MAX_ATTRIBS: u16 = 16;
/// The largest attribute count the seed text talks about ("for 32 attributes …").
pub const README_MAX_ATTRIBS: u16 = 32;

/// Half of vertex component `k` (`AGX_ABI_VIN_ATTRIB(k)`).
pub const fn vin_attrib(k: u16) -> AgxRange {
    AgxRange::gpr32(VIN_FIRST_ATTRIB_GPR + k)
}

/// Vertex uniforms (`AGX_ABI_VUNI_*`): attribute `i`'s 64-bit base address, 4 halves.
pub const fn vuni_vbo_base(i: u16) -> u16 {
    4 * i
}
/// Attribute `i`'s 32-bit inclusive clamp, 2 halves, after all `n` bases.
pub const fn vuni_vbo_clamp(n: u16, i: u16) -> u16 {
    vuni_vbo_base(n) + 2 * i
}
/// First vertex / index bias (32-bit), right after the `n` clamps: `6n`.
pub const fn vuni_first_vertex(n: u16) -> u16 {
    vuni_vbo_clamp(n, n)
}
/// Base instance (32-bit): `6n + 2`.
pub const fn vuni_base_instance(n: u16) -> u16 {
    vuni_first_vertex(n) + 2
}
/// Draw ID (16-bit): `6n + 4`.
pub const fn vuni_draw_id(n: u16) -> u16 {
    vuni_first_vertex(n) + 4
}
/// 64-bit input-assembly pointer of the compute variant: `6n + 8`.
pub const fn vuni_input_assembly(n: u16) -> u16 {
    vuni_first_vertex(n) + 8
}

/// Fragment inputs and outputs (`AGX_ABI_FIN_*`, `AGX_ABI_FOUT_*`): the sample mask of
/// the samples shaded in this iteration, `r1l` (in, and out to the epilog).
pub const FIN_SAMPLE_MASK: AgxRange = AgxRange::new(AgxFile::Gpr, 2, 1);
/// fp32 depth written by the main fragment shader, `r2`.
pub const FOUT_Z: AgxRange = AgxRange::gpr32(2);
/// 16-bit stencil written by the main fragment shader, `r3l`.
pub const FOUT_S: AgxRange = AgxRange::new(AgxFile::Gpr, 6, 1);
/// Logically emitted sample mask with forced early tests and discard, `r3h`.
pub const FOUT_WRITE_SAMPLES: AgxRange = AgxRange::new(AgxFile::Gpr, 7, 1);
/// Colour output locations (render targets) the epilog reads.
pub const MAX_COLOR_LOCATIONS: u8 = 8;

/// First half of colour output location `loc`: `r(4 (loc + 1))`.
pub const fn fout_colour(loc: u8) -> u16 {
    2 * (4 + 4 * loc as u16)
}

/// Fragment uniforms (`AGX_ABI_FUNI_*`): 64-bit pointer to the render-target texture heap.
pub const FUNI_EMRT_HEAP: AgxRange = AgxRange::new(AgxFile::Uniform, 0, 4);
/// First of the four fp32 blend-constant channels R, G, B, A (2 halves each).
pub const FUNI_BLEND_R: u16 = FUNI_EMRT_HEAP.end_half();
/// 64-bit root descriptor pointer.
pub const FUNI_ROOT: AgxRange = AgxRange::new(AgxFile::Uniform, FUNI_BLEND_R + 8, 4);
/// First uniform half free for the main fragment shader.
pub const FUNI_COUNT: u16 = FUNI_ROOT.end_half();

/// Most samples per pixel on AGX.
pub const MAX_SAMPLES: u8 = 4;

/// Whether AGX has `samples` samples per pixel: a power of two up to [`MAX_SAMPLES`].
pub const fn is_valid_sample_count(samples: u8) -> bool {
    samples.is_power_of_two() && samples <= MAX_SAMPLES
}

/// Which numbering of the vertex uniform block is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The seed text (Mesa's compiler README): `6n + 5` / `6n + 12` halves.
    Readme,
    /// Mesa's GL driver (`AGX_ABI_VUNI_COUNT_GL`): `6n + 4` / `6n + 12`; no draw ID here.
    Gl,
    /// Mesa's Vulkan driver (`AGX_ABI_VUNI_COUNT_VK`): `align(6n + 12, 4)` for both.
    Vk,
}

impl Profile {
    /// Every profile, in the order they are documented.
    pub const ALL: [Profile; 3] = [Profile::Readme, Profile::Gl, Profile::Vk];

    /// The profile's name as written on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Readme => "readme",
            Profile::Gl => "gl",
            Profile::Vk => "vk",
        }
    }
}

/// Whether the vertex shader runs as a hardware vertex shader or as a compute shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VsStage {
    /// A hardware vertex shader (r5/r6 preloaded by the hardware).
    Hardware,
    /// Run as a hardware compute shader ahead of geometry or tessellation shaders.
    Compute,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_agx_abi_h() {
        assert_eq!(vin_attrib(0).first_half, 16);
        assert_eq!(VIN_VERTEX_ID_ZERO_BASE.first_half, 8);
        assert_eq!(VIN_VERTEX_ID.first_half, 10);
        assert_eq!(VIN_INSTANCE_ID.first_half, 12);
        assert_eq!(FIN_SAMPLE_MASK.first_half, 2);
        assert_eq!(FOUT_Z.first_half, 4);
        assert_eq!(FOUT_S.first_half, 6);
        assert_eq!(FOUT_WRITE_SAMPLES.first_half, 7);
        assert_eq!(fout_colour(1), 16);
        assert_eq!(FUNI_BLEND_R, 4);
        assert_eq!(FUNI_ROOT.first_half, 12);
        assert_eq!(FUNI_COUNT, 16);
        assert_eq!(MAX_ATTRIBS_IN_REGISTERS, 30);
    }
}
