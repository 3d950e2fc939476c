//! RDNA's ray-tracing instructions: `image_bvh_intersect_ray` and
//! `image_bvh64_intersect_ray`, which test a ray against one node of a bounding volume
//! hierarchy in memory.
//!
//! What the instructions take and return is AMD's ("AMD RDNA 2 Instruction Set
//! Architecture" and "AMD RDNA 3 Instruction Set Architecture", chapter "Ray Tracing"):
//!
//! - the address operand, in dwords: the node pointer (one dword, or two for the `bvh64`
//!   form), the ray extent (the largest distance a hit may have), the ray origin (x, y, z),
//!   its direction and its inverse direction; the 128-bit resource holds the hierarchy's
//!   base address (bits 39:0, in 256-byte units), box sorting (bit 63), the triangle return
//!   mode (bit 120: return the barycentric numerators rather than the triangle id) and, on
//!   RDNA 3, whether the node pointer carries flags (bit 119);
//! - the node pointer's bits 2:0 are the node's type and the rest, shifted left by 3, its
//!   byte offset from the base (so nodes are 64-byte aligned); GPU addresses are 48 bits
//!   (the node address is taken modulo 2^48; Mesa's shaders sign-extend the same addresses
//!   for their own loads, "everything is in the top half of address space":
//!   `build_node_to_addr` in `src/amd/vulkan/nir/radv_nir_rt_common.c`);
//! - a box node (type 4 with 16-bit, type 5 with 32-bit boxes: `radv_bvh_box16_node` and
//!   `radv_bvh_box32_node` in `src/amd/vulkan/bvh/bvh_defines.h`: four child pointers, then
//!   four boxes) returns the pointers of the children whose box the ray enters within its
//!   extent, nearest entry first when sorting is on, and `0xffffffff` for the others, after
//!   them;
//! - a triangle node (types 0 to 3: `radv_bvh_triangle_node`, three vertices first) returns
//!   the hit distance's numerator and denominator and, in the barycentric return mode, the
//!   numerators of the second and third vertex's barycentric coordinates, over the same
//!   denominator, whose sign tells the facing (positive: front);
//! - instance and procedural nodes (types 6 and 7) are read by the shader itself (Mesa's
//!   `radv_build_ray_traversal`), which uses no part of the answer on RDNA 2 and pushes it on
//!   its stack on RDNA 3: they return four `0xffffffff` (no node).
//!
//! The manuals do not give the arithmetic of the box and triangle tests. gpuabi computes
//! them as Mesa's emulation of these instructions does in fp32 (`intersect_ray_amd_software_box`
//! and `intersect_ray_amd_software_tri` in `radv_nir_rt_common.c`, which RADV runs where the
//! hardware lacks them): the slab test with the inverse direction clamped to ±FLT_MAX and a
//! box hit when `tmax >= max(0, tmin)` and `tmin < extent`; the watertight ray/triangle test
//! of Woop, Benthin and Wald (JCGT 2013) with Mesa's rules for shared edges and vertices,
//! returning `(t / |det|, sign(det), v / |det|, w / |det|)` for a hit in front of the
//! origin and `(inf, 1, 0, 0)` otherwise. Real hardware may round differently; a hit
//! distance or barycentric differs in its last bits at most.
//!
//! With pointer flags (RDNA 3, resource bit 119; Mesa's `build_addr_to_node` and
//! `radv_encode_blas_pointer_flags`), node pointer bits 63:54 hold, from bit 54: force
//! opaque, force non-opaque, disable triangle facing culling, flip facing, cull back-facing
//! triangles, cull front-facing triangles, cull opaque, cull non-opaque, skip triangles,
//! skip procedural nodes. RADV culls opacity itself on RDNA 3 and facing only before it
//! (`insert_traversal_triangle_case`), so the instruction applies the facing flags and
//! skip-triangles: a culled or skipped triangle returns the miss answer, and a flipped
//! one's denominator changes sign.

use gpuabi_amdgpu::{Opcode, Target};

use crate::error::SimError;
use crate::exec::half::f16_to_f32_bits;
use crate::exec::memory::bad_address;
use crate::image::{Decoded, Dst, Src};
use crate::memory::Memory;
use crate::wave::Wave;

/// No node: the answer for a child the ray misses, and for nodes without an answer.
pub const INVALID_NODE: u32 = 0xffff_ffff;

/// What one lane's ray is.
#[derive(Debug, Clone, Copy)]
struct Ray {
    extent: f32,
    origin: [f32; 3],
    dir: [f32; 3],
    inv_dir: [f32; 3],
}

/// The fields of the 128-bit BVH resource the instructions use.
#[derive(Debug, Clone, Copy)]
struct Resource {
    base: u64,
    sort: bool,
    barycentrics: bool,
    pointer_flags: bool,
}

impl Resource {
    fn decode(d: [u32; 4]) -> Resource {
        Resource {
            base: (u64::from(d[0]) | u64::from(d[1] & 0xff) << 32) << 8,
            sort: d[1] >> 31 != 0,
            barycentrics: (d[3] >> 24) & 1 != 0,
            pointer_flags: (d[3] >> 23) & 1 != 0,
        }
    }
}

/// Runs `image_bvh_intersect_ray` / `image_bvh64_intersect_ray` in every active lane;
/// `nsa` is the instruction's non-sequential address, if it has one.
pub(crate) fn intersect_ray(
    d: &Decoded,
    nsa: Option<&[u16]>,
    w: &mut Wave,
    mem: &mut Memory,
    target: Target,
) -> Result<(), SimError> {
    let wide = d.op == Opcode::ImageBvh64IntersectRay;
    let dwords = if wide { 12 } else { 11 };
    let regs: Vec<u16> = match (nsa, d.src[0]) {
        (Some(r), _) => r.to_vec(),
        (None, Src::Vgpr(first)) => (0..dwords).map(|k| first + k).collect(),
        _ => Vec::new(),
    };
    let (Dst::Vgpr(out), Src::Sgpr(rsrc), true) =
        (d.dst[0], d.src[1], regs.len() == dwords as usize)
    else {
        return Err(not_modelled(
            d,
            target,
            "an address of 11 (12 for bvh64) VGPRs",
        ));
    };
    let r = rsrc as usize;
    let res = Resource::decode([w.sgpr[r], w.sgpr[r + 1], w.sgpr[r + 2], w.sgpr[r + 3]]);
    let exec = w.exec();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let v = |i: usize| w.v(regs[i], lane);
        let f = |i: usize| f32::from_bits(v(i));
        let (ptr, at) = if wide {
            (u64::from(v(0)) | u64::from(v(1)) << 32, 2)
        } else {
            (u64::from(v(0)), 1)
        };
        let ray = Ray {
            extent: f(at),
            origin: [f(at + 1), f(at + 2), f(at + 3)],
            dir: [f(at + 4), f(at + 5), f(at + 6)],
            inv_dir: [f(at + 7), f(at + 8), f(at + 9)],
        };
        let offset = (ptr & ((1u64 << 45) - 1) & !7) << 3;
        let addr = res.base.wrapping_add(offset) & ((1u64 << 48) - 1);
        let flags = if res.pointer_flags {
            (ptr >> 54) as u32
        } else {
            0
        };
        let mut read = |k: u64| {
            mem.read_u32(addr.wrapping_add(4 * k))
                .ok_or_else(|| bad_address(d, "load", addr.wrapping_add(4 * k), 4, lane))
        };
        let answer = match ptr & 7 {
            0..=3 => {
                if !res.barycentrics {
                    return Err(not_modelled(
                        d,
                        target,
                        "triangle return mode 0 (the triangle id instead of barycentrics)",
                    ));
                }
                let mut vs = [[0f32; 3]; 3];
                for (k, c) in vs.iter_mut().flatten().enumerate() {
                    *c = f32::from_bits(read(k as u64)?);
                }
                triangle(&ray, vs, flags)
            }
            4 => {
                let children = [read(0)?, read(1)?, read(2)?, read(3)?];
                let mut boxes = [[0f32; 6]; 4];
                for (k, c) in boxes.iter_mut().flatten().enumerate() {
                    let word = read(4 + k as u64 / 2)?;
                    let half = if k % 2 == 0 { word } else { word >> 16 };
                    *c = f32::from_bits(f16_to_f32_bits(half as u16));
                }
                boxes_test(&ray, children, boxes, res.sort)
            }
            5 => {
                let children = [read(0)?, read(1)?, read(2)?, read(3)?];
                let mut boxes = [[0f32; 6]; 4];
                for (k, c) in boxes.iter_mut().flatten().enumerate() {
                    *c = f32::from_bits(read(4 + k as u64)?);
                }
                boxes_test(&ray, children, boxes, res.sort)
            }
            _ => [INVALID_NODE; 4],
        };
        for (k, a) in answer.iter().enumerate() {
            w.set_v(out + k as u16, lane, *a);
        }
    }
    Ok(())
}

fn not_modelled(d: &Decoded, target: Target, what: &str) -> SimError {
    SimError::NotModelled {
        pc: d.addr,
        origin: d.origin.clone(),
        mnemonic: d.op.info().name(target).unwrap_or(d.op.info().mnemonic),
        text: format!("{what} is not modelled"),
    }
}

/// The box test of four children (`[min x, y, z, max x, y, z]` each), Mesa's
/// `intersect_ray_amd_software_box`: children in box order, sorted nearest entry first with
/// its sorting network when `sort`.
fn boxes_test(ray: &Ray, children: [u32; 4], boxes: [[f32; 6]; 4], sort: bool) -> [u32; 4] {
    let inv = ray.inv_dir.map(|x| x.clamp(-f32::MAX, f32::MAX));
    let mut dist = [f32::INFINITY; 4];
    let mut out = [INVALID_NODE; 4];
    for i in 0..4 {
        let b = boxes[i];
        if b[0].is_nan() {
            continue;
        }
        let mut tmin = f32::NEG_INFINITY;
        let mut tmax = f32::INFINITY;
        for a in 0..3 {
            let t0 = (b[a] - ray.origin[a]) * inv[a];
            let t1 = (b[a + 3] - ray.origin[a]) * inv[a];
            // fmax/fmin of NIR and Rust return the other operand for a NaN alike.
            tmin = if a == 0 {
                t0.min(t1)
            } else {
                tmin.max(t0.min(t1))
            };
            tmax = if a == 0 {
                t0.max(t1)
            } else {
                tmax.min(t0.max(t1))
            };
        }
        if tmax >= tmin.max(0.0) && tmin < ray.extent {
            out[i] = children[i];
            dist[i] = tmin;
        }
    }
    if sort {
        for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
            if dist[b] < dist[a] {
                dist.swap(a, b);
                out.swap(a, b);
            }
        }
    }
    out
}

/// Whether an edge lying on the ray is the triangle's (Mesa's `radv_build_intersect_edge`).
fn edge(v0x: f32, v0y: f32, v1x: f32, v1y: f32) -> bool {
    let tx = v1x - v0x;
    let ty = v1y - v0y;
    if tx == 0.0 {
        ty < 0.0
    } else {
        tx < 0.0
    }
}

/// Whether a vertex on the ray is the triangle's (Mesa's `radv_build_intersect_vertex`).
fn vertex(v0x: f32, v1x: f32, v2x: f32) -> bool {
    v1x - v0x <= 0.0 && v2x - v0x > 0.0
}

/// The triangle test, Mesa's `intersect_ray_amd_software_tri`, with RDNA 3's pointer
/// flags for facing (0 without them).
fn triangle(ray: &Ray, v: [[f32; 3]; 3], flags: u32) -> [u32; 4] {
    const MISS: [u32; 4] = [0x7f80_0000, 0x3f80_0000, 0, 0];
    let (disable_cull, flip) = (flags >> 2 & 1 != 0, flags >> 3 & 1 != 0);
    let (cull_back, cull_front, skip) = (
        flags >> 4 & 1 != 0,
        flags >> 5 & 1 != 0,
        flags >> 8 & 1 != 0,
    );
    if skip {
        return MISS;
    }
    let dir = ray.dir;
    let abs = dir.map(f32::abs);
    let (mut kx, mut ky, kz) = if abs[0] >= abs[1] {
        if abs[0] >= abs[2] {
            (1, 2, 0)
        } else {
            (0, 1, 2)
        }
    } else if abs[1] >= abs[2] {
        (2, 0, 1)
    } else {
        (0, 1, 2)
    };
    if dir[kz] < 0.0 {
        std::mem::swap(&mut kx, &mut ky);
    }
    let sz = ray.inv_dir[kz];
    let sx = dir[kx] * sz;
    let sy = dir[ky] * sz;
    let rel = v.map(|p| {
        [
            p[0] - ray.origin[0],
            p[1] - ray.origin[1],
            p[2] - ray.origin[2],
        ]
    });
    let (a, b, c) = (rel[0], rel[1], rel[2]);
    let ax = a[kx] - sx * a[kz];
    let ay = a[ky] - sy * a[kz];
    let bx = b[kx] - sx * b[kz];
    let by = b[ky] - sy * b[kz];
    let cx = c[kx] - sx * c[kz];
    let cy = c[ky] - sy * c[kz];
    let u = cx * by - cy * bx;
    let vv = ax * cy - ay * cx;
    let ww = bx * ay - by * ax;
    let back = u < 0.0 || vv < 0.0 || ww < 0.0;
    let front = u > 0.0 || vv > 0.0 || ww > 0.0;
    let mut hit = !(back && front);
    let (ea, eb, ec) = (u == 0.0, vv == 0.0, ww == 0.0);
    if ea || eb || ec {
        let on_edge = (ea && edge(bx, by, cx, cy))
            || (eb && edge(cx, cy, ax, ay))
            || (ec && edge(ax, ay, bx, by));
        let (va, vb, vc) = (eb && ec, ea && ec, ea && eb);
        let on_vertex =
            (va && vertex(ax, bx, cx)) || (vb && vertex(bx, cx, ax)) || (vc && vertex(cx, ax, bx));
        hit = hit && on_edge && (!(va || vb || vc) || on_vertex);
    }
    if !hit {
        return MISS;
    }
    let det = u + (vv + ww);
    let az = sz * a[kz];
    let bz = sz * b[kz];
    let cz = sz * c[kz];
    let t = u * az + vv * bz + ww * cz;
    let sign = if det > 0.0 {
        1.0
    } else if det < 0.0 {
        -1.0
    } else {
        0.0
    };
    if sign * t < 0.0 {
        return MISS;
    }
    let mut facing_front = sign > 0.0;
    if flip {
        facing_front = !facing_front;
    }
    if !disable_cull && ((cull_back && !facing_front) || (cull_front && facing_front)) {
        return MISS;
    }
    let d = det.abs();
    let denom = if flip { -sign } else { sign };
    [
        (t / d).to_bits(),
        f32::to_bits(denom),
        (vv / d).to_bits(),
        (ww / d).to_bits(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: [f32; 3], dir: [f32; 3]) -> Ray {
        Ray {
            extent: 100.0,
            origin,
            dir,
            inv_dir: dir.map(|x| 1.0 / x),
        }
    }

    /// A ray down -z through (0.25, 0.25) hits the triangle (0,0,0) (1,0,0) (0,1,0) at
    /// distance 4 (by hand: origin z = 4), with barycentrics (0.25, 0.25).
    #[test]
    fn triangle_hit_distance_and_barycentrics() {
        let r = ray([0.25, 0.25, 4.0], [0.0, 0.0, -1.0]);
        let a = triangle(&r, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
        let t = f32::from_bits(a[0]) / f32::from_bits(a[1]);
        assert_eq!(t, 4.0);
        let i = f32::from_bits(a[2]) / f32::from_bits(a[1]);
        let j = f32::from_bits(a[3]) / f32::from_bits(a[1]);
        assert_eq!((i, j), (0.25, 0.25));
        // Seen from -z the same triangle turns the other way: the denominator's sign flips.
        let r2 = ray([0.25, 0.25, -4.0], [0.0, 0.0, 1.0]);
        let b = triangle(&r2, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
        assert_eq!(f32::from_bits(a[1]) * f32::from_bits(b[1]), -1.0);
        // Outside: a miss.
        let r3 = ray([0.75, 0.75, 4.0], [0.0, 0.0, -1.0]);
        let m = triangle(&r3, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
        assert_eq!(f32::from_bits(m[0]), f32::INFINITY);
    }

    /// Two boxes on the ray's path come back nearest first; one behind the origin and one
    /// beyond the extent do not.
    #[test]
    fn boxes_nearest_first() {
        let mut r = ray([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        r.extent = 10.0;
        let unit = |x: f32| [x, -1.0, -1.0, x + 1.0, 1.0, 1.0];
        let got = boxes_test(
            &r,
            [11, 12, 13, 14],
            [unit(5.0), unit(2.0), unit(-3.0), unit(20.0)],
            true,
        );
        assert_eq!(got, [12, 11, INVALID_NODE, INVALID_NODE]);
        let unsorted = boxes_test(
            &r,
            [11, 12, 13, 14],
            [unit(5.0), unit(2.0), unit(-3.0), unit(20.0)],
            false,
        );
        assert_eq!(unsorted, [11, 12, INVALID_NODE, INVALID_NODE]);
    }
}
