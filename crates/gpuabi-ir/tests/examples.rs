//! Runs the examples under `examples/` and checks their buffers against independent
//! plain-Rust computations of the same results.

use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_ir::{parse, print};

fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap()
}

fn program(name: &str) -> Program {
    let m = parse(&example(name)).unwrap();
    // The canonical print of every example parses back to the same module.
    assert_eq!(parse(&print(&m)).unwrap(), m);
    Program::new(&m).unwrap()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn saxpy_matches_plain_rust() {
    let p = program("saxpy.gsir");
    let n = 1000u32;
    let a = 2.5f32;
    let x: Vec<f32> = (0..1024).map(|i| i as f32 * 0.25 - 7.0).collect();
    let y: Vec<f32> = (0..1024).map(|i| 100.0 - i as f32 * 1.5).collect();
    let mut mem = Memory::new(1 << 20);
    let xa = mem
        .add("x", x.iter().flat_map(|v| v.to_le_bytes()).collect())
        .unwrap();
    let ya = mem
        .add("y", y.iter().flat_map(|v| v.to_le_bytes()).collect())
        .unwrap();
    let args = [u64::from(n), u64::from(a.to_bits()), xa, ya];
    let stats = p
        .dispatch(
            "saxpy",
            &args,
            &Dispatch::linear(1024, 64),
            &mut mem,
            &Limits::default(),
        )
        .unwrap();
    assert_eq!(stats.invocations, 1024);
    let got = f32s(&mem.buffer("y").unwrap().data);
    for i in 0..1024 {
        let want = if (i as u32) < n {
            a.mul_add(x[i], y[i])
        } else {
            y[i]
        };
        assert_eq!(got[i].to_bits(), want.to_bits(), "y[{i}]");
    }
    // x is read only.
    assert_eq!(f32s(&mem.buffer("x").unwrap().data), x);
}

/// The same escape-time iteration and palette, written directly in Rust.
fn mandelbrot_rgba(w: u32, h: u32, max_iter: u32) -> Vec<u8> {
    let mut out = vec![0u8; (w * h * 4) as usize];
    let channel = |c: f32| ((c * 255.0).min(255.0)) as u32 as u8;
    for py in 0..h {
        for px in 0..w {
            let cx = (px as f32 + 0.5) / w as f32 * 3.0 + -2.2;
            let cy = (py as f32 + 0.5) / h as f32 * 3.0 + -1.5;
            let (mut zx, mut zy, mut n) = (0.0f32, 0.0f32, 0u32);
            loop {
                let (zx2, zy2) = (zx * zx, zy * zy);
                if zx2 + zy2 > 4.0 || n >= max_iter {
                    break;
                }
                let xy = zx * zy;
                zx = zx2 - zy2 + cx;
                zy = xy + xy + cy;
                n += 1;
            }
            let rgb = if n >= max_iter {
                [0, 0, 0]
            } else {
                let t = n as f32 / max_iter as f32;
                let s = 1.0 - t;
                [
                    channel(s * (t * t * t) * 9.0),
                    channel(s * s * (t * t) * 15.0),
                    channel(s * s * s * t * 8.5),
                ]
            };
            let i = ((py * w + px) * 4) as usize;
            out[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    out
}

#[test]
fn mandelbrot_matches_plain_rust() {
    let p = program("mandelbrot.gsir");
    let (w, h, max_iter) = (64u32, 48u32, 50u32);
    let mut mem = Memory::new(1 << 20);
    let img = mem.add("image", vec![0; (w * h * 4) as usize]).unwrap();
    let d = Dispatch {
        global_size: [64, 48, 1],
        group_size: [8, 8, 1],
        global_offset: [0; 3],
        work_dim: 2,
    };
    let args = [img, w.into(), h.into(), max_iter.into()];
    p.dispatch("mandelbrot", &args, &d, &mut mem, &Limits::default())
        .unwrap();
    let want = mandelbrot_rgba(w, h, max_iter);
    let got = &mem.buffer("image").unwrap().data;
    assert_eq!(got.len(), want.len());
    let diff = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(diff, None, "first differing byte");
    // Not a trivial picture: some pixels in the set, several colours outside it.
    let mut colours: Vec<&[u8]> = want.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 10);
}

/// An independent plain-Rust version of `examples/raytrace.gsir`: the same scene, the same
/// object order per ray and the same f32 operations in the same order.
mod raytrace_ref {
    #[derive(Clone, Copy, PartialEq)]
    enum Shape {
        Sphere,
        Plane,
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Material {
        Checker,
        Diffuse,
        Mirror,
    }
    struct Obj {
        shape: Shape,
        stripes: bool,
        material: Material,
        g: [f32; 4],
        c: [f32; 3],
    }
    type V = (f32, f32, f32);

    const SCENE: [Obj; 6] = [
        Obj {
            shape: Shape::Plane,
            stripes: false,
            material: Material::Checker,
            g: [0.0, 1.0, 0.0, -1.0],
            c: [0.0, 0.0, 0.0],
        },
        Obj {
            shape: Shape::Sphere,
            stripes: false,
            material: Material::Mirror,
            g: [0.0, 0.0, 5.0, 1.0],
            c: [0.9, 0.9, 0.9],
        },
        Obj {
            shape: Shape::Sphere,
            stripes: false,
            material: Material::Diffuse,
            g: [-2.1, -0.3, 4.3, 0.7],
            c: [0.9, 0.15, 0.1],
        },
        Obj {
            shape: Shape::Sphere,
            stripes: false,
            material: Material::Diffuse,
            g: [2.0, -0.4, 3.9, 0.6],
            c: [0.15, 0.3, 0.95],
        },
        Obj {
            shape: Shape::Sphere,
            stripes: true,
            material: Material::Diffuse,
            g: [0.75, -0.55, 2.9, 0.45],
            c: [0.2, 0.85, 0.25],
        },
        Obj {
            shape: Shape::Sphere,
            stripes: false,
            material: Material::Diffuse,
            g: [-0.8, -0.7, 2.6, 0.3],
            c: [0.95, 0.8, 0.15],
        },
    ];

    fn dot(a: V, b: V) -> f32 {
        a.0 * b.0 + a.1 * b.1 + a.2 * b.2
    }

    fn normalize(v: V) -> V {
        let len = dot(v, v).sqrt();
        (v.0 / len, v.1 / len, v.2 / len)
    }

    fn at(o: V, d: V, t: f32) -> V {
        (o.0 + d.0 * t, o.1 + d.1 * t, o.2 + d.2 * t)
    }

    fn accept(o: V, d: V, t: f32, tbest: f32, obj: &Obj) -> bool {
        if !(t > 0.001 && t < tbest) {
            return false;
        }
        if !obj.stripes {
            return true;
        }
        let s = (at(o, d, t).1 - obj.g[1]) * 7.0;
        s - s.floor() < 0.55
    }

    fn intersect(obj: &Obj, o: V, d: V, t: f32, n: V) -> (f32, V) {
        match obj.shape {
            Shape::Sphere => {
                let oc = (o.0 - obj.g[0], o.1 - obj.g[1], o.2 - obj.g[2]);
                let b = dot(oc, d);
                let c = dot(oc, oc) - obj.g[3] * obj.g[3];
                let disc = b * b - c;
                if disc < 0.0 {
                    return (t, n);
                }
                let sq = disc.sqrt();
                let (t0, t1) = (-b - sq, -b + sq);
                let (ok0, ok1) = (accept(o, d, t0, t, obj), accept(o, d, t1, t, obj));
                if !(ok0 || ok1) {
                    return (t, n);
                }
                let th = if ok0 { t0 } else { t1 };
                let h = at(oc, d, th);
                let u = (h.0 / obj.g[3], h.1 / obj.g[3], h.2 / obj.g[3]);
                if dot(u, d) > 0.0 {
                    (th, (-u.0, -u.1, -u.2))
                } else {
                    (th, u)
                }
            }
            Shape::Plane => {
                let p = (obj.g[0], obj.g[1], obj.g[2]);
                let th = (obj.g[3] - dot(p, o)) / dot(p, d);
                if accept(o, d, th, t, obj) {
                    (th, p)
                } else {
                    (t, n)
                }
            }
        }
    }

    /// `shadow` rays stop at the first hit, skip closest-hit and see white on a miss.
    fn trace(o: V, d: V, depth: u32, shadow: bool, gid: (u32, u32)) -> V {
        let count = SCENE.len() as u32;
        let start = (gid.0 + gid.1 + depth) % count;
        let (mut best, mut hit, mut bn) = (1_000_000.0f32, None, (0.0, 0.0, 0.0));
        for k in 0..count {
            let i = ((start + k) % count) as usize;
            let (t1, n1) = intersect(&SCENE[i], o, d, best, bn);
            let closer = t1 < best;
            if closer {
                hit = Some(i);
            }
            best = t1;
            bn = n1;
            if closer && shadow {
                break;
            }
        }
        let Some(i) = hit else {
            if shadow {
                return (1.0, 1.0, 1.0);
            }
            let u = (d.1 + 1.0) * 0.5;
            let w = 1.0 - u;
            return (w + u * 0.45, w + u * 0.65, 1.0);
        };
        if shadow {
            return (0.0, 0.0, 0.0);
        }
        let obj = &SCENE[i];
        let h = at(o, d, best);
        let n = bn;
        let shade = |c: V| -> V {
            let l = normalize((-0.5, 1.0, -0.6));
            let ndotl = dot(n, l);
            let diffuse = if ndotl > 0.0 {
                let s = (h.0 + n.0 * 0.001, h.1 + n.1 * 0.001, h.2 + n.2 * 0.001);
                ndotl * trace(s, l, depth + 1, true, gid).0
            } else {
                0.0
            };
            let k = diffuse + 0.15;
            (c.0 * k, c.1 * k, c.2 * k)
        };
        match obj.material {
            Material::Diffuse => shade((obj.c[0], obj.c[1], obj.c[2])),
            Material::Checker => {
                let sum = (h.0.floor() as i32).wrapping_add(h.2.floor() as i32);
                if sum & 1 != 0 {
                    shade((0.85, 0.85, 0.8))
                } else {
                    shade((0.25, 0.25, 0.3))
                }
            }
            Material::Mirror => {
                if depth >= 4 {
                    return (0.0, 0.0, 0.0);
                }
                let e = dot(d, n);
                let e2 = e + e;
                let r = (d.0 - n.0 * e2, d.1 - n.1 * e2, d.2 - n.2 * e2);
                let p = (h.0 + n.0 * 0.001, h.1 + n.1 * 0.001, h.2 + n.2 * 0.001);
                let l = trace(p, r, depth + 1, false, gid);
                (l.0 * obj.c[0], l.1 * obj.c[1], l.2 * obj.c[2])
            }
        }
    }

    // fmax/fmin, not clamp: a NaN colour becomes 0 as in the IR.
    #[allow(clippy::manual_clamp)]
    fn to_byte(c: f32) -> u8 {
        (c.max(0.0).min(1.0).sqrt() * 255.0 + 0.5) as u32 as u8
    }

    /// The RGBA8 image.
    pub fn render(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        for py in 0..h {
            for px in 0..w {
                let u = (px as f32 + 0.5) / w as f32 * 2.0 - 1.0;
                let v = 1.0 - (py as f32 + 0.5) / h as f32 * 2.0;
                let d = normalize((u * 0.8, v * 0.8 - 0.12, 1.5));
                let c = trace((0.0, 0.35, -1.0), d, 0, false, (px, py));
                out.extend_from_slice(&[to_byte(c.0), to_byte(c.1), to_byte(c.2), 255]);
            }
        }
        out
    }
}

/// FNV-1a, to report a short checksum of an image.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn run_raytrace(w: u32, h: u32, group: [u32; 3]) -> Vec<u8> {
    let p = program("raytrace.gsir");
    let mut mem = Memory::new(1 << 24);
    let img = mem.add("image", vec![0; (w * h * 4) as usize]).unwrap();
    let scene = mem.add("scene", vec![0; 1024]).unwrap();
    let d = Dispatch {
        global_size: [w, h, 1],
        group_size: group,
        global_offset: [0; 3],
        work_dim: 2,
    };
    p.dispatch(
        "raygen",
        &[img, scene, w.into(), h.into()],
        &d,
        &mut mem,
        &Limits::default(),
    )
    .unwrap();
    mem.buffer("image").unwrap().data.clone()
}

#[test]
fn raytrace_matches_plain_rust() {
    let (w, h) = (128, 128);
    let got = run_raytrace(w, h, [8, 8, 1]);
    let want = raytrace_ref::render(w, h);
    let first_diff = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(
        first_diff.map(|i| (i / 4 % w as usize, i / 4 / w as usize)),
        None,
        "first differing pixel"
    );
    assert_eq!(fnv1a(&got), fnv1a(&want));
    println!("raytrace 128x128 FNV-1a: {:#018x}", fnv1a(&got));
    // The picture has sky, floor and objects: many distinct colours.
    let mut colours: Vec<&[u8]> = want.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 500, "{} colours", colours.len());
}

#[test]
fn raytrace_other_shape_and_groups() {
    // Non-square image with another group shape: same pixels as the reference.
    assert_eq!(
        run_raytrace(40, 24, [4, 8, 1]),
        raytrace_ref::render(40, 24)
    );
}
