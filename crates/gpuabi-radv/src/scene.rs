//! A scene as `tools/mesa/rt_scene.py` writes it (`scene.txt`): the launch size, push
//! constants, and the geometries and instances of the acceleration structures, floats as
//! fp32 bit patterns.

use std::path::Path;

use crate::error::RadvError;

/// One bottom-level structure's geometry.
#[derive(Debug, Clone, PartialEq)]
pub enum Primitives {
    /// Triangles, three vertices each.
    Triangles(Vec<[[f32; 3]; 3]>),
    /// Axis-aligned boxes: min x, y, z, max x, y, z.
    Aabbs(Vec<[f32; 6]>),
}

/// One `[[geometry]]`: a BLAS of one geometry.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Its primitives.
    pub primitives: Primitives,
    /// `VK_GEOMETRY_OPAQUE_BIT_KHR`.
    pub opaque: bool,
}

/// One `[[instance]]` of the TLAS.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// The geometry (BLAS) it places.
    pub geometry: usize,
    /// Row-major 3x4 object-to-world transform (`VkTransformMatrixKHR`).
    pub transform: [f32; 12],
    /// `instanceCustomIndex` (24 bits).
    pub custom_index: u32,
    /// The visibility mask (8 bits).
    pub mask: u32,
    /// `instanceShaderBindingTableRecordOffset` (24 bits).
    pub hit_group: u32,
    /// `VkGeometryInstanceFlagsKHR` (8 bits).
    pub flags: u32,
}

/// The scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Launch width and height.
    pub size: [u32; 2],
    /// Push constant words.
    pub push_constants: Vec<u32>,
    /// The BLASes.
    pub geometries: Vec<Geometry>,
    /// The TLAS's instances.
    pub instances: Vec<Instance>,
}

fn hex_floats(line: &str) -> Option<Vec<f32>> {
    line.split_whitespace()
        .map(|w| {
            u32::from_str_radix(w.strip_prefix("0x")?, 16)
                .ok()
                .map(f32::from_bits)
        })
        .collect()
}

fn num(s: &str) -> Option<u32> {
    match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

impl Scene {
    /// Parses `text`, the contents of `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Scene, RadvError> {
        let lines: Vec<&str> = text.lines().collect();
        let mut scene = Scene {
            size: [0; 2],
            push_constants: Vec::new(),
            geometries: Vec::new(),
            instances: Vec::new(),
        };
        let bad = |i: usize, what: &str| RadvError::format(path, i + 1, what.to_string());
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let f: Vec<&str> = line.split_whitespace().collect();
            let get = |key: &str| {
                f.iter()
                    .find_map(|x| x.strip_prefix(key)?.strip_prefix('='))
                    .and_then(num)
            };
            match f.first().copied() {
                Some("size") => {
                    let w = f.get(1).and_then(|s| num(s));
                    let h = f.get(2).and_then(|s| num(s));
                    scene.size = [
                        w.ok_or_else(|| bad(i, "expected `size W H`"))?,
                        h.ok_or_else(|| bad(i, "expected `size W H`"))?,
                    ];
                }
                Some("push_constants") => {
                    let words: Option<Vec<u32>> = f[1..].iter().map(|s| num(s)).collect();
                    let words =
                        words.ok_or_else(|| bad(i, "expected `push_constants N words...`"))?;
                    scene.push_constants = words.get(1..).unwrap_or(&[]).to_vec();
                }
                Some("geometry") => {
                    let count = get("count").ok_or_else(|| bad(i, "expected `count=N`"))? as usize;
                    let opaque = get("opaque").ok_or_else(|| bad(i, "expected `opaque=0|1`"))? != 0;
                    let kind = f.get(2).copied();
                    let per = match kind {
                        Some("triangles") => 3,
                        Some("aabbs") => 1,
                        _ => return Err(bad(i, "expected `triangles` or `aabbs`")),
                    };
                    let mut values = Vec::new();
                    for k in 0..count * per {
                        let at = i + 1 + k;
                        let v = lines
                            .get(at)
                            .and_then(|l| hex_floats(l))
                            .ok_or_else(|| bad(at, "expected fp32 bit patterns"))?;
                        values.push((at, v));
                    }
                    i += count * per;
                    let primitives = if per == 3 {
                        let mut tris = Vec::new();
                        for c in values.chunks(3) {
                            let mut t = [[0f32; 3]; 3];
                            for (k, (at, v)) in c.iter().enumerate() {
                                t[k] = <[f32; 3]>::try_from(&v[..])
                                    .map_err(|_| bad(*at, "expected three coordinates"))?;
                            }
                            tris.push(t);
                        }
                        Primitives::Triangles(tris)
                    } else {
                        let mut boxes = Vec::new();
                        for (at, v) in values {
                            boxes.push(
                                <[f32; 6]>::try_from(&v[..])
                                    .map_err(|_| bad(at, "expected six coordinates"))?,
                            );
                        }
                        Primitives::Aabbs(boxes)
                    };
                    scene.geometries.push(Geometry { primitives, opaque });
                }
                Some("instance") => {
                    let need = |k: &str| get(k).ok_or_else(|| bad(i, &format!("expected `{k}=N`")));
                    let t = lines
                        .get(i + 1)
                        .and_then(|l| hex_floats(l))
                        .and_then(|v| <[f32; 12]>::try_from(&v[..]).ok())
                        .ok_or_else(|| bad(i + 1, "expected the 12 numbers of the transform"))?;
                    scene.instances.push(Instance {
                        geometry: need("geometry")? as usize,
                        transform: t,
                        custom_index: need("custom_index")?,
                        mask: need("mask")?,
                        hit_group: need("hit_group")?,
                        flags: need("flags")?,
                    });
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        if scene.size[0] == 0 || scene.size[1] == 0 {
            return Err(RadvError::format(path, 0, "no `size W H` line"));
        }
        if let Some((k, inst)) = scene
            .instances
            .iter()
            .enumerate()
            .find(|(_, x)| x.geometry >= scene.geometries.len())
        {
            return Err(RadvError::format(
                path,
                0,
                format!(
                    "instance {k} names geometry {}, which is not there",
                    inst.geometry
                ),
            ));
        }
        Ok(scene)
    }
}
