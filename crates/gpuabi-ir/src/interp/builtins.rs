//! Dispatch intrinsics: where each one's value sits in an invocation's dispatch values.

use crate::ir::Opcode;

/// Number of dispatch values per invocation: seven 3-vectors and the work dimension.
pub(crate) const COUNT: usize = 22;

/// Position of `opcode` (dimension `dim`) in the dispatch values.
pub(crate) fn index(opcode: Opcode, dim: u32) -> u32 {
    let base = match opcode {
        Opcode::LocalId => 0,
        Opcode::GroupId => 3,
        Opcode::GlobalId => 6,
        Opcode::GroupSize => 9,
        Opcode::NumGroups => 12,
        Opcode::GlobalSize => 15,
        Opcode::GlobalOffset => 18,
        _ => return 21, // work_dim
    };
    base + dim.min(2)
}

/// The dispatch values of one invocation, in the order of [`index`].
pub(crate) fn values(
    local: [u32; 3],
    group: [u32; 3],
    group_size: [u32; 3],
    num_groups: [u32; 3],
    offset: [u32; 3],
    work_dim: u32,
) -> [u64; COUNT] {
    let mut v = [0u64; COUNT];
    for d in 0..3 {
        let global = group[d]
            .wrapping_mul(group_size[d])
            .wrapping_add(local[d])
            .wrapping_add(offset[d]);
        v[d] = local[d].into();
        v[3 + d] = group[d].into();
        v[6 + d] = global.into();
        v[9 + d] = group_size[d].into();
        v[12 + d] = num_groups[d].into();
        v[15 + d] = num_groups[d].wrapping_mul(group_size[d]).into();
        v[18 + d] = offset[d].into();
    }
    v[21] = work_dim.into();
    v
}
