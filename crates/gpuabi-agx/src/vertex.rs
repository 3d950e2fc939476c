//! The vertex ABI engine: from the components a main vertex shader reads, the stage and the
//! profile, the registers the vertex prolog writes, the registers left undefined, the
//! uniform map and the first uniform half free for the main shader.
//!
//! Decisions where the spec leaves room:
//! * The uniform map spells out every half up to the first free one, padding included.
//!   Under `gl` the hardware VS block ends after base instance (the GL driver keeps draw
//!   ID elsewhere) and the compute variant shows halves `6n+4..6n+7` as padding; under
//!   `vk` a hardware VS still shows the input-assembly slot as reserved, since the
//!   Vulkan total `align(6n + 12, 4)` covers it.
//! * The input-assembly pointer stays at `6n + 8` even for odd n, where it starts at an
//!   odd 32-bit uniform (spec open point): Mesa's numbering is reproduced as is, and the
//!   Mesa name "input assembly" is kept rather than the later "vertex params".
//! * r4 is written only by the compute variant of the Mesa profiles (`gl`, `vk`); under
//!   `readme` it is a prolog temporary, as the seed says.
//! * r5 is taken to include the base vertex (spec open point), so it is the element index.
//! * Components of slots below n that the main shader does not read are listed as
//!   undefined: the prolog writes only what is read.

use serde::Serialize;
use thiserror::Error;

use crate::abi::{
    self, vin_attrib, Profile, VsStage, COMPONENTS_PER_ATTRIB, MAX_ATTRIBS_IN_REGISTERS,
    MESA_MAX_ATTRIBS, README_MAX_ATTRIBS, VIN_INSTANCE_ID, VIN_VERTEX_ID, VIN_VERTEX_ID_ZERO_BASE,
};
use crate::components::Components;
use crate::slot::{RegSlot, UniformSlot};
use gpuabi_layout::reg::AgxRange;

/// What the vertex ABI depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexInput {
    /// Components the main vertex shader reads.
    pub components: Components,
    /// Hardware vertex shader or compute variant.
    pub stage: VsStage,
    /// Which numbering of the uniform block.
    pub profile: Profile,
}

/// A vertex shader that does not fit the ABI.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VertexError {
    /// More attribute slots than the profile allows.
    #[error(
        "too many attributes: {n} attribute slots, but the `{profile}` profile allows at most {max}"
    )]
    TooManyAttributes {
        /// Attribute slots needed.
        n: u16,
        /// The profile's limit.
        max: u16,
        /// The profile's name.
        profile: &'static str,
    },
    /// `readme` profile with 31 or 32 slots: r8..r127 hold only 30 vec4s.
    #[error("too many attributes for registers: {n} attribute slots need r8..r{last}, past r127; only {fit} fit, and passing the rest through the stack or function calls is not implemented")]
    NeedsSpilling {
        /// Attribute slots needed.
        n: u16,
        /// Last register the attributes would need.
        last: u16,
        /// Slots that fit.
        fit: u16,
    },
}

/// The vertex ABI for one main vertex shader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VertexAbi {
    /// The profile used.
    pub profile: Profile,
    /// Hardware vertex shader or compute variant.
    pub stage: VsStage,
    /// The components read.
    #[serde(skip)]
    pub components: Components,
    /// The components read, as a hexadecimal mask (bit `4a + c`).
    pub component_mask: String,
    /// Attribute slots with uniforms: highest slot read + 1.
    pub n: u16,
    /// Registers the prolog writes (the main shader's inputs), by half.
    pub registers: Vec<RegSlot>,
    /// Registers holding nothing defined at entry to the main shader, by half.
    pub undefined: Vec<RegSlot>,
    /// The uniform block, by half; it covers `0..first_free_uniform_half` without gaps.
    pub uniforms: Vec<UniformSlot>,
    /// First uniform half the main shader may use for its own uniforms and preamble.
    pub first_free_uniform_half: u16,
}

/// First uniform half free for the main shader: the profile's reservation for `n` slots.
pub const fn first_free_uniform_half(profile: Profile, stage: VsStage, n: u16) -> u16 {
    let compute_end = abi::vuni_input_assembly(n) + 4;
    match (profile, stage) {
        (Profile::Readme, VsStage::Hardware) => abi::vuni_draw_id(n) + 1,
        (Profile::Gl, VsStage::Hardware) => abi::vuni_base_instance(n) + 2,
        (Profile::Readme | Profile::Gl, VsStage::Compute) => compute_end,
        (Profile::Vk, _) => compute_end.next_multiple_of(4),
    }
}

/// The largest `n` a profile accepts.
pub const fn max_attribs(profile: Profile) -> u16 {
    match profile {
        Profile::Readme => README_MAX_ATTRIBS,
        Profile::Gl | Profile::Vk => MESA_MAX_ATTRIBS,
    }
}

/// Computes the vertex ABI.
pub fn vertex_abi(input: &VertexInput) -> Result<VertexAbi, VertexError> {
    let VertexInput {
        components,
        stage,
        profile,
    } = *input;
    let n = components.n();
    if n > max_attribs(profile) {
        return Err(VertexError::TooManyAttributes {
            n,
            max: max_attribs(profile),
            profile: profile.name(),
        });
    }
    if n > MAX_ATTRIBS_IN_REGISTERS {
        return Err(VertexError::NeedsSpilling {
            n,
            last: abi::VIN_FIRST_ATTRIB_GPR + n * COMPONENTS_PER_ATTRIB - 1,
            fit: MAX_ATTRIBS_IN_REGISTERS,
        });
    }

    // r4 carries the zero-based vertex index only in the compute variant of the Mesa
    // profiles; the seed text leaves it undefined.
    let writes_r4 = stage == VsStage::Compute && profile != Profile::Readme;
    let mut registers = Vec::new();
    let mut undefined = Vec::new();
    for r in 0..4 {
        undefined.push(RegSlot::new(
            AgxRange::gpr32(r),
            "prolog temporary (undefined)",
        ));
    }
    if writes_r4 {
        registers.push(RegSlot::new(
            VIN_VERTEX_ID_ZERO_BASE,
            "zero-based vertex index (compute grid x)",
        ));
    } else {
        undefined.push(RegSlot::new(
            VIN_VERTEX_ID_ZERO_BASE,
            "prolog temporary (undefined)",
        ));
    }
    registers.push(RegSlot::new(
        VIN_VERTEX_ID,
        "vertex id (includes the base vertex)",
    ));
    registers.push(RegSlot::new(VIN_INSTANCE_ID, "instance id (zero-based)"));
    undefined.push(RegSlot::new(
        AgxRange::gpr32(7),
        "prolog temporary (undefined)",
    ));
    for k in 0..n * COMPONENTS_PER_ATTRIB {
        let name = Components::name(k);
        if components.reads(k) {
            registers.push(RegSlot::new(vin_attrib(k), format!("attrib {name}")));
        } else {
            undefined.push(RegSlot::new(
                vin_attrib(k),
                format!("attrib {name} (not read; not written)"),
            ));
        }
    }

    let uniforms = uniform_map(profile, stage, n);
    let first_free = first_free_uniform_half(profile, stage, n);
    debug_assert_eq!(uniforms.last().map_or(0, UniformSlot::end_half), first_free);
    Ok(VertexAbi {
        profile,
        stage,
        components,
        component_mask: format!("{:#x}", components.bits()),
        n,
        registers,
        undefined,
        uniforms,
        first_free_uniform_half: first_free,
    })
}

/// The uniform block of a profile: bases, clamps, draw parameters and the compute variant's
/// input-assembly pointer, with the profile's padding spelled out so the block has no gaps.
fn uniform_map(profile: Profile, stage: VsStage, n: u16) -> Vec<UniformSlot> {
    let mut u = Vec::new();
    for i in 0..n {
        u.push(UniformSlot::new(
            abi::vuni_vbo_base(i),
            4,
            format!("attrib {i} base address (64-bit)"),
        ));
    }
    for i in 0..n {
        u.push(UniformSlot::new(
            abi::vuni_vbo_clamp(n, i),
            2,
            format!("attrib {i} clamp: inclusive max element index (32-bit)"),
        ));
    }
    u.push(UniformSlot::new(
        abi::vuni_first_vertex(n),
        2,
        "first vertex / index bias (32-bit)",
    ));
    u.push(UniformSlot::new(
        abi::vuni_base_instance(n),
        2,
        "base instance (32-bit)",
    ));
    let draw_id = abi::vuni_draw_id(n);
    let ia = abi::vuni_input_assembly(n);
    match profile {
        // The GL driver keeps draw ID in its own system-value table.
        Profile::Gl => {
            if stage == VsStage::Compute {
                u.push(UniformSlot::new(
                    draw_id,
                    ia - draw_id,
                    "padding (GL keeps draw id elsewhere)",
                ));
            }
        }
        Profile::Readme | Profile::Vk => {
            u.push(UniformSlot::new(draw_id, 1, "draw id (16-bit)"));
            if stage == VsStage::Compute || profile == Profile::Vk {
                u.push(UniformSlot::new(draw_id + 1, ia - draw_id - 1, "padding"));
            }
        }
    }
    if stage == VsStage::Compute {
        u.push(UniformSlot::new(
            ia,
            4,
            "input-assembly buffer pointer (64-bit)",
        ));
    } else if profile == Profile::Vk {
        u.push(UniformSlot::new(
            ia,
            4,
            "input-assembly pointer slot (reserved; read only by the compute variant)",
        ));
    }
    let end = u.last().map_or(0, UniformSlot::end_half);
    let first_free = first_free_uniform_half(profile, stage, n);
    if first_free > end {
        u.push(UniformSlot::new(
            end,
            first_free - end,
            "padding (alignment to 4 halves)",
        ));
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_n1() {
        let c = Components::parse_list("0:x").unwrap();
        let ff = |p, s| {
            vertex_abi(&VertexInput {
                components: c,
                stage: s,
                profile: p,
            })
            .unwrap()
            .first_free_uniform_half
        };
        assert_eq!(ff(Profile::Readme, VsStage::Hardware), 11);
        assert_eq!(ff(Profile::Readme, VsStage::Compute), 18);
        assert_eq!(ff(Profile::Gl, VsStage::Hardware), 10);
        assert_eq!(ff(Profile::Gl, VsStage::Compute), 18);
        assert_eq!(ff(Profile::Vk, VsStage::Hardware), 20);
        assert_eq!(ff(Profile::Vk, VsStage::Compute), 20);
    }
}
