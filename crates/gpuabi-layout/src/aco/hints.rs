//! Any-hit/intersection assignment hints derived from the traversal layout (spec §6.10).

use super::assign::{Assignment, Location};
use crate::reg::{RegRange, RegSet};

/// Registers a parameter assignment should stay away from, and preferred registers per
/// parameter name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// First fit tries these registers last.
    pub avoid: RegSet,
    /// A parameter (by name) tries this register range first.
    pub affinity: Vec<(String, RegRange)>,
}

impl Hints {
    /// The preferred range of parameter `name`, if any.
    pub fn affinity_of(&self, name: &str) -> Option<RegRange> {
        self.affinity
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| *r)
    }
}

/// Any-hit/intersection parameters that take the register of a traversal parameter:
/// (any-hit name, traversal name).
const AFFINITY: [(&str, &str); 17] = [
    ("stack_pointer", "stack_pointer"),
    ("launch_id", "launch_id"),
    ("launch_size", "launch_size"),
    ("descriptors", "descriptors"),
    ("dynamic_descriptors", "dynamic_descriptors"),
    ("push_constants", "push_constants"),
    ("sbt_descriptors", "sbt_descriptors"),
    ("shader_record_ptr", "shader_record_ptr"),
    ("cull_mask_and_flags", "cull_mask_and_flags"),
    ("ray_origin", "ray_origin"),
    ("ray_tmin", "ray_tmin"),
    ("ray_direction", "ray_direction"),
    ("candidate_ray_tmax", "ray_tmax"),
    ("primitive_addr", "primitive_addr"),
    ("primitive_id", "primitive_id"),
    ("instance_addr", "instance_addr"),
    ("geometry_id_and_flags", "geometry_id_and_flags"),
];

/// Hints for an any-hit/intersection function or a call to one, from the traversal
/// function's own layout (same limit, traversal ABI): avoid every register of a traversal
/// register parameter (the PCs and the stack pointer included, the return address not),
/// and give matching parameters the traversal parameter's register. A traversal parameter
/// in scratch gives no affinity.
pub fn ahit_isec_hints(traversal: &Assignment) -> Hints {
    let mut hints = Hints::default();
    for p in &traversal.params {
        if let Location::Reg(range) = p.location {
            if p.name != "return_address" {
                hints.avoid.insert_range(range);
            }
        }
    }
    for (ahit, trav) in AFFINITY {
        if let Some(Location::Reg(range)) = traversal.param(trav).map(|p| p.location) {
            hints.affinity.push((ahit.to_string(), range));
        }
    }
    hints
}
