//! Acceleration structures in RADV's node layout for RDNA 2 and RDNA 3 (and the emulated
//! ray tracing of older chips, which reads the same layout), encoded directly rather than
//! by running RADV's build shaders.
//!
//! The layout is Mesa's: the header `radv_accel_struct_header`, the nodes
//! `radv_bvh_box32_node`, `radv_bvh_triangle_node`, `radv_bvh_aabb_node` and
//! `radv_bvh_instance_node` (`src/amd/vulkan/bvh/bvh_defines.h`), the placement of parent
//! links, root node, leaves and internal nodes of `radv_get_acceleration_structure_layout`
//! (`src/amd/vulkan/radv_acceleration_structure.c`, checked against RADV's
//! `accelerationStructureSize` of every capture), and the node contents of
//! `radv_encode_triangle_gfx10_3`, `radv_encode_aabb_gfx10_3` and
//! `radv_encode_instance_gfx10_3` (`src/amd/vulkan/bvh/encode.h`) with
//! `radv_encode_sbt_offset_and_flags` and `radv_encode_blas_pointer_flags`
//! (`bvh_helpers.h`). With `propagate_cull_flags` (RDNA 3: `radv_default_build_flags`),
//! triangle nodes carry their opacity, box nodes the opacity of their children and BLAS
//! pointers the instance's flags, as RADV writes them.
//!
//! What is gpuabi's own: the tree. RADV builds it with a sorting builder (LBVH or PLOC);
//! here a node takes up to four consecutive primitives (or nodes) in scene order. The
//! hierarchy is valid (every box bounds its subtree) but shaped differently, which changes
//! the order nodes are visited in, not what a ray hits. All boxes are 32-bit
//! (`radv_bvh_box32_node`; RADV also uses 16-bit boxes on RDNA 2 and 3).

use crate::scene::{Geometry, Instance, Primitives};

const HEADER_BYTES: u32 = 136;
const BOX32_BYTES: u32 = 128;
const TRIANGLE_BYTES: u32 = 64;
const AABB_BYTES: u32 = 64;
const INSTANCE_BYTES: u32 = 128;

/// Mesa's node types (`bvh_defines.h`).
const NODE_TRIANGLE: u32 = 0;
const NODE_BOX32: u32 = 5;
const NODE_INSTANCE: u32 = 6;
const NODE_AABB: u32 = 7;
/// No node.
pub const INVALID_NODE: u32 = 0xffff_ffff;

/// `VK_GEOMETRY_OPAQUE`, in a geometry id's flags.
const GEOMETRY_OPAQUE: u32 = 1 << 31;
/// `VK_BVH_BOX_FLAG_ONLY_OPAQUE`, `VK_BVH_BOX_FLAG_NO_OPAQUE` (Mesa's `vk_bvh_defines.h`).
const ONLY_OPAQUE: u32 = 1;
const NO_OPAQUE: u32 = 2;

/// An encoded structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Byte offset of its root node (the header's `bvh_offset`).
    pub bvh_offset: u32,
    /// Its geometry type (`VkGeometryTypeKHR`: 0 triangles, 1 AABBs, 2 instances).
    pub geometry_type: u32,
    /// The box flags of its root (`VK_BVH_BOX_FLAG_*`), for instances of it.
    pub root_flags: u32,
}

/// `radv_get_acceleration_structure_layout` for `leaves` leaves of `leaf_bytes`:
/// `(bvh_offset, leaf_nodes_offset, internal_nodes_offset, size)`.
pub fn layout(leaves: u32, leaf_bytes: u32) -> (u32, u32, u32, u32) {
    let internal_count = leaves * 4 / (2 * 3) + 1;
    let bvh_size = leaf_bytes * leaves + BOX32_BYTES * internal_count;
    let parent_links = bvh_size / 64 * 4;
    let bvh_offset = (HEADER_BYTES + parent_links).div_ceil(64) * 64;
    let leaf_offset = bvh_offset + BOX32_BYTES;
    let internal_offset = leaf_offset + leaf_bytes * leaves;
    let size = internal_offset + BOX32_BYTES * (internal_count - 1);
    (bvh_offset, leaf_offset, internal_offset, size)
}

/// A child of a box node being built: its node id, bounds and opacity flags.
#[derive(Debug, Clone, Copy)]
struct Child {
    id: u32,
    bounds: [f32; 6],
    flags: u32,
}

fn union(a: [f32; 6], b: [f32; 6]) -> [f32; 6] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].min(b[2]),
        a[3].max(b[3]),
        a[4].max(b[4]),
        a[5].max(b[5]),
    ]
}

/// The box flags of a node over children with `flags`: only opaque when all are, no opaque
/// when none is.
fn combine(flags: impl Iterator<Item = u32>) -> u32 {
    flags.fold(ONLY_OPAQUE | NO_OPAQUE, |acc, f| acc & f)
}

struct Writer {
    bytes: Vec<u8>,
    bvh_offset: u32,
    next_internal: u32,
    end: u32,
    propagate: bool,
}

impl Writer {
    fn put(&mut self, at: u32, v: u32) {
        let a = at as usize;
        self.bytes[a..a + 4].copy_from_slice(&v.to_le_bytes());
    }

    fn put_f32(&mut self, at: u32, v: f32) {
        self.put(at, v.to_bits());
    }

    /// The parent link of the node `child`: the dword `child / 8 * 4 + 4` bytes below the
    /// root (`set_parent` in `encode.comp`).
    fn parent(&mut self, child: u32, parent: u32) {
        let at = self.bvh_offset - (child / 8 * 4) - 4;
        self.put(at, parent);
    }

    /// Writes the box node at byte offset `at` (from the root) over up to four children.
    fn box_node(&mut self, at: u32, children: &[Child]) {
        let id = (at >> 3) | NODE_BOX32;
        let base = self.bvh_offset + at;
        let mut flags = 0;
        for i in 0..4 {
            let c = children.get(i);
            self.put(base + 4 * i as u32, c.map_or(INVALID_NODE, |c| c.id));
            for k in 0..6 {
                let v = c.map_or(f32::NAN, |c| c.bounds[k]);
                self.put_f32(base + 16 + 24 * i as u32 + 4 * k as u32, v);
            }
            if let Some(c) = c {
                flags |= (c.flags & 3) << (8 * i);
                self.parent(c.id, id);
            }
        }
        if self.propagate {
            self.put(base + 112, flags);
        }
    }

    /// Builds the tree over `leaves` and writes the root; returns the root's flags.
    fn tree(&mut self, mut level: Vec<Child>) -> u32 {
        while level.len() > 4 {
            let mut next = Vec::new();
            for group in level.chunks(4) {
                let at = self.next_internal;
                self.next_internal += BOX32_BYTES;
                self.box_node(at, group);
                next.push(Child {
                    id: (at >> 3) | NODE_BOX32,
                    bounds: group
                        .iter()
                        .skip(1)
                        .fold(group[0].bounds, |b, c| union(b, c.bounds)),
                    flags: combine(group.iter().map(|c| c.flags)),
                });
            }
            level = next;
        }
        self.box_node(0, &level);
        let root = NODE_BOX32;
        let at = self.bvh_offset - (root / 8 * 4) - 4;
        self.put(at, INVALID_NODE);
        combine(level.iter().map(|c| c.flags))
    }

    /// The header: `bvh_offset`, `root_flags`, the bounds, `size`, `geometry_type`,
    /// `geometry_count`, `leaf_nodes_offset`, `primitive_count`, `instance_count`.
    #[allow(clippy::too_many_arguments)]
    fn header(
        &mut self,
        root_flags: u32,
        bounds: [f32; 6],
        geometry_type: u32,
        leaves: u32,
        leaf_offset: u32,
        instances: u32,
    ) {
        self.put(0, self.bvh_offset);
        self.put(4, root_flags);
        for (k, v) in bounds.iter().enumerate() {
            self.put_f32(8 + 4 * k as u32, *v);
        }
        let end = self.end;
        self.put(80, end);
        self.put(88, geometry_type);
        self.put(92, u32::from(geometry_type != 2));
        self.put(96, leaf_offset);
        self.put(104, leaves);
        self.put(112, instances);
    }
}

fn writer(leaves: u32, leaf_bytes: u32, propagate: bool) -> (Writer, u32) {
    let (bvh_offset, leaf_offset, internal_offset, size) = layout(leaves, leaf_bytes);
    (
        Writer {
            bytes: vec![0; size as usize],
            bvh_offset,
            next_internal: internal_offset - bvh_offset,
            end: size,
            propagate,
        },
        leaf_offset,
    )
}

/// Encodes a BLAS of one geometry (geometry index 0).
pub fn blas(g: &Geometry, propagate_cull_flags: bool) -> Encoded {
    let geometry_id = if g.opaque { GEOMETRY_OPAQUE } else { 0 };
    let leaf_flags = if g.opaque { ONLY_OPAQUE } else { NO_OPAQUE };
    let (count, leaf_bytes, geometry_type) = match &g.primitives {
        Primitives::Triangles(t) => (t.len() as u32, TRIANGLE_BYTES, 0),
        Primitives::Aabbs(a) => (a.len() as u32, AABB_BYTES, 1),
    };
    let (mut w, leaf_offset) = writer(count, leaf_bytes, propagate_cull_flags);
    let mut children = Vec::new();
    for i in 0..count {
        let at = leaf_offset + i * leaf_bytes;
        let rel = at - w.bvh_offset;
        let bounds = match &g.primitives {
            Primitives::Triangles(t) => {
                let tri = t[i as usize];
                for (k, v) in tri.iter().flatten().enumerate() {
                    w.put_f32(at + 4 * k as u32, *v);
                }
                w.put(at + 48, i);
                w.put(at + 52, geometry_id);
                // barycentrics_control of radv_encode_triangle_gfx10_3, with the opacity bit
                // when cull flags propagate.
                let opaque_bit = if propagate_cull_flags && g.opaque {
                    128
                } else {
                    0
                };
                w.put(at + 60, 9 | opaque_bit);
                let mut b = [
                    tri[0][0], tri[0][1], tri[0][2], tri[0][0], tri[0][1], tri[0][2],
                ];
                for v in &tri[1..] {
                    b = union(b, [v[0], v[1], v[2], v[0], v[1], v[2]]);
                }
                b
            }
            Primitives::Aabbs(a) => {
                w.put(at, i);
                w.put(at + 4, geometry_id);
                a[i as usize]
            }
        };
        let kind = if geometry_type == 0 {
            NODE_TRIANGLE
        } else {
            NODE_AABB
        };
        children.push(Child {
            id: (rel >> 3) | kind,
            bounds,
            flags: leaf_flags,
        });
    }
    let bounds = children.iter().skip(1).fold(
        children.first().map_or([f32::NAN; 6], |c| c.bounds),
        |b, c| union(b, c.bounds),
    );
    let root_flags = w.tree(children);
    w.header(root_flags, bounds, geometry_type, count, leaf_offset, 0);
    Encoded {
        bvh_offset: w.bvh_offset,
        bytes: w.bytes,
        geometry_type,
        root_flags,
    }
}

/// The inverse of a row-major 3x4 affine transform, in f64 rounded to f32.
fn inverse(t: &[f32; 12]) -> [f32; 12] {
    let m = |r: usize, c: usize| f64::from(t[r * 4 + c]);
    let det = m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1))
        - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0))
        + m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0));
    let mut inv = [[0f64; 3]; 3];
    for (r, row) in inv.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            // The cofactor of (c, r), for the transpose.
            let (r1, r2) = ((c + 1) % 3, (c + 2) % 3);
            let (c1, c2) = ((r + 1) % 3, (r + 2) % 3);
            *v = (m(r1, c1) * m(r2, c2) - m(r1, c2) * m(r2, c1)) / det;
        }
    }
    let mut out = [0f32; 12];
    for r in 0..3 {
        let mut tr = 0f64;
        for c in 0..3 {
            out[r * 4 + c] = inv[r][c] as f32;
            tr -= inv[r][c] * m(c, 3);
        }
        out[r * 4 + 3] = tr as f32;
    }
    out
}

/// `radv_encode_sbt_offset_and_flags`.
fn sbt_offset_and_flags(hit_group: u32, flags: u32) -> u32 {
    let mut v = hit_group & 0xff_ffff;
    if flags & 4 != 0 {
        v |= 1 << 31; // RADV_INSTANCE_FORCE_OPAQUE
    }
    if flags & 8 == 0 {
        v |= 1 << 30; // RADV_INSTANCE_NO_FORCE_NOT_OPAQUE
    }
    if flags & 1 != 0 {
        v |= 1 << 29; // RADV_INSTANCE_TRIANGLE_FACING_CULL_DISABLE
    }
    if flags & 2 != 0 {
        v |= 1 << 28; // RADV_INSTANCE_TRIANGLE_FLIP_FACING
    }
    v
}

/// `radv_encode_blas_pointer_flags`.
fn blas_pointer_flags(flags: u32, geometry_type: u32) -> u64 {
    let mut p = 0u64;
    if flags & 4 != 0 {
        p |= 1 << 54;
    }
    if flags & 8 != 0 {
        p |= 1 << 55;
    }
    if flags & 1 != 0 || geometry_type == 1 {
        p |= 1 << 56;
    }
    if flags & 2 != 0 {
        p |= 1 << 57;
    }
    p |= if geometry_type == 0 { 1 << 63 } else { 1 << 62 };
    p
}

/// Transforms the box `b` by `t` (the bounds of its eight corners).
fn transform_box(t: &[f32; 12], b: [f32; 6]) -> [f32; 6] {
    let mut out = [
        f32::INFINITY,
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];
    for corner in 0..8 {
        let p = [
            if corner & 1 == 0 { b[0] } else { b[3] },
            if corner & 2 == 0 { b[1] } else { b[4] },
            if corner & 4 == 0 { b[2] } else { b[5] },
        ];
        for r in 0..3 {
            let v = t[r * 4] * p[0] + t[r * 4 + 1] * p[1] + t[r * 4 + 2] * p[2] + t[r * 4 + 3];
            out[r] = out[r].min(v);
            out[r + 3] = out[r + 3].max(v);
        }
    }
    out
}

/// The bounds a BLAS's header holds.
fn blas_bounds(b: &Encoded) -> [f32; 6] {
    let f =
        |k: usize| f32::from_le_bytes(b.bytes[8 + 4 * k..12 + 4 * k].try_into().unwrap_or([0; 4]));
    [f(0), f(1), f(2), f(3), f(4), f(5)]
}

/// Encodes the TLAS over `instances`, whose BLASes (`blases[geometry]`) are at
/// `addresses[geometry]` (sign-extended GPU addresses).
pub fn tlas(
    instances: &[Instance],
    blases: &[Encoded],
    addresses: &[u64],
    propagate_cull_flags: bool,
) -> Encoded {
    let count = instances.len() as u32;
    let (mut w, leaf_offset) = writer(count, INSTANCE_BYTES, propagate_cull_flags);
    let mut children = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let at = leaf_offset + i as u32 * INSTANCE_BYTES;
        let blas = &blases[inst.geometry];
        let node_base =
            (addresses[inst.geometry] + u64::from(blas.bvh_offset)) >> 3 & ((1u64 << 45) - 1);
        let ptr = if propagate_cull_flags {
            node_base | blas_pointer_flags(inst.flags, blas.geometry_type)
        } else {
            node_base
        };
        w.put(at, ptr as u32);
        w.put(at + 4, (ptr >> 32) as u32);
        w.put(
            at + 8,
            (inst.custom_index & 0xff_ffff) | (inst.mask & 0xff) << 24,
        );
        w.put(at + 12, sbt_offset_and_flags(inst.hit_group, inst.flags));
        for (k, v) in inverse(&inst.transform).iter().enumerate() {
            w.put_f32(at + 16 + 4 * k as u32, *v);
        }
        w.put(at + 64, i as u32);
        w.put(at + 68, blas.bvh_offset);
        for (k, v) in inst.transform.iter().enumerate() {
            w.put_f32(at + 80 + 4 * k as u32, *v);
        }
        // An instance's opacity: its BLAS's unless its flags force one (the IR's root flags).
        let flags = if inst.flags & 4 != 0 {
            ONLY_OPAQUE
        } else if inst.flags & 8 != 0 {
            NO_OPAQUE
        } else {
            blas.root_flags
        };
        children.push(Child {
            id: ((at - w.bvh_offset) >> 3) | NODE_INSTANCE,
            bounds: transform_box(&inst.transform, blas_bounds(blas)),
            flags,
        });
    }
    let bounds = children.iter().skip(1).fold(
        children.first().map_or([f32::NAN; 6], |c| c.bounds),
        |b, c| union(b, c.bounds),
    );
    let root_flags = w.tree(children);
    w.header(root_flags, bounds, 2, count, leaf_offset, count);
    Encoded {
        bvh_offset: w.bvh_offset,
        bytes: w.bytes,
        geometry_type: 2,
        root_flags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout reproduces RADV's sizes of the triangles example (by hand from
    /// `radv_get_acceleration_structure_layout`, and as its `acceleration_structures.txt`
    /// lists them): 4 triangles 832 bytes, 2 triangles 576, a TLAS of 4 instances 1088.
    #[test]
    fn sizes_are_radvs() {
        assert_eq!(layout(4, TRIANGLE_BYTES).3, 832);
        assert_eq!(layout(2, TRIANGLE_BYTES).3, 576);
        assert_eq!(layout(4, INSTANCE_BYTES).3, 1088);
        assert_eq!(layout(4, TRIANGLE_BYTES).0, 192);
    }

    /// The inverse of a scaled, translated transform, by hand.
    #[test]
    fn inverse_of_scale_and_translation() {
        let t = [2.0, 0.0, 0.0, 1.0, 0.0, 4.0, 0.0, -2.0, 0.0, 0.0, 0.5, 3.0];
        assert_eq!(
            inverse(&t),
            [0.5, 0.0, 0.0, -0.5, 0.0, 0.25, 0.0, 0.5, 0.0, 0.0, 2.0, -6.0]
        );
    }
}
