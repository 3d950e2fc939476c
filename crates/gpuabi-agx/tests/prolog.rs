//! Generated vertex prologs run in the simulator over buffers, checked against a vertex
//! fetch written out again here from the ABI text (element index, inclusive clamp,
//! robustness rules, `base + el · stride` addressing, the driver's base/clamp formula of
//! `agx_calculate_vbo_clamp`) and format conversions from the format definitions (the
//! `half` crate for fp16), on hand-chosen and random keys.

use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
use gpuabi_agx_sim::{run, Region, State, LANES};
use half::f16;

// ---- the reference ------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ty {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Uscaled,
    Sscaled,
    Float,
    Fixed,
}

/// Channels (memory order) of a pipe format: letter and bits; and the type.
fn parse(name: &str) -> (Vec<(char, u32)>, Ty) {
    let (layout, ty) = name.rsplit_once('_').unwrap();
    let ty = match ty {
        "UNORM" => Ty::Unorm,
        "SNORM" => Ty::Snorm,
        "UINT" => Ty::Uint,
        "SINT" => Ty::Sint,
        "USCALED" => Ty::Uscaled,
        "SSCALED" => Ty::Sscaled,
        "FLOAT" => Ty::Float,
        "FIXED" => Ty::Fixed,
        _ => panic!("{name}"),
    };
    let mut chans = Vec::new();
    let mut cur: Option<(char, u32)> = None;
    for ch in layout.chars() {
        if ch.is_ascii_digit() {
            let c = cur.as_mut().unwrap();
            c.1 = c.1 * 10 + ch.to_digit(10).unwrap();
        } else {
            chans.extend(cur.take());
            cur = Some((ch, 0));
        }
    }
    chans.extend(cur);
    (chans, ty)
}

fn small_float(bits: u32, m: u32) -> f32 {
    let e = bits >> m;
    let f = (bits & ((1 << m) - 1)) as f32;
    let scale = (1u32 << m) as f32;
    if e == 31 {
        if f == 0.0 {
            f32::INFINITY
        } else {
            f32::NAN
        }
    } else if e == 0 {
        f / scale * 2f32.powi(-14)
    } else {
        (1.0 + f / scale) * 2f32.powi(e as i32 - 15)
    }
}

fn canon(x: f32) -> u32 {
    // NaN results are the default NaN (applegpu's arithmetic rule).
    if x.is_nan() {
        0x7fc0_0000
    } else {
        x.to_bits()
    }
}

/// Values of the four output components of an element whose bytes are `b`.
fn decode(name: &str, b: &[u8]) -> [u32; 4] {
    let (chans, ty) = parse(name);
    let sext = |v: u32, bits: u32| ((v << (32 - bits)) as i32) >> (32 - bits);
    let one = if matches!(ty, Ty::Uint | Ty::Sint) {
        1
    } else {
        1f32.to_bits()
    };
    let mut out = [0, 0, 0, one];
    let packed = chans.iter().any(|c| c.1 != chans[0].1);
    let word = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    let mut bit = 0;
    for (i, &(letter, bits)) in chans.iter().enumerate() {
        let v = if packed {
            (word(0) >> bit) & ((1u64 << bits) - 1) as u32
        } else {
            let at = i * (bits as usize / 8);
            let mut v = 0u32;
            for k in 0..bits as usize / 8 {
                v |= u32::from(b[at + k]) << (8 * k);
            }
            v
        };
        bit += bits;
        let max = |bits: u32| ((1u64 << bits) - 1) as f32;
        let value = if name == "R11G11B10_FLOAT" {
            canon(small_float(v, if i == 2 { 5 } else { 6 }))
        } else {
            match (ty, bits) {
                (Ty::Unorm, 32) => (v as f32 / u32::MAX as f32).to_bits(),
                (Ty::Unorm, _) => (v as f32 / max(bits)).to_bits(),
                (Ty::Snorm, 32) => (v as i32 as f32 / i32::MAX as f32).max(-1.0).to_bits(),
                (Ty::Snorm, 8 | 16) => {
                    (sext(v, bits).max(-(max(bits - 1) as i32)) as f32 / max(bits - 1)).to_bits()
                }
                (Ty::Snorm, _) => {
                    // Software-unpacked 10-10-10-2: a multiply by the fp32 reciprocal.
                    (sext(v, bits) as f32 * (1.0 / max(bits - 1)))
                        .max(-1.0)
                        .to_bits()
                }
                (Ty::Uint, _) => v,
                (Ty::Sint, _) => sext(v, bits) as u32,
                (Ty::Uscaled, _) => (v as f32).to_bits(),
                (Ty::Sscaled, _) => (sext(v, bits) as f32).to_bits(),
                (Ty::Float, 16) => canon(f16::from_bits(v as u16).to_f32()),
                (Ty::Float, _) => v,
                (Ty::Fixed, _) => (v as i32 as f32 / 65536.0).to_bits(),
            }
        };
        if let Some(c) = "RGBA".find(letter) {
            out[c] = value;
        }
    }
    out
}

/// Block size of the format (bytes of one vertex element).
fn block(name: &str) -> u32 {
    parse(name).0.iter().map(|c| c.1).sum::<u32>() / 8
}

/// Size of the unit the stride must be a multiple of: the loaded format's block (the
/// packed formats load one 32-bit word, array formats one channel).
fn unit(name: &str) -> u32 {
    let (chans, _) = parse(name);
    if chans.iter().any(|c| c.1 != chans[0].1) {
        4
    } else {
        chans[0].1 / 8
    }
}

/// Components the prolog loads for the format (1 for software-unpacked 10-10-10-2).
fn loaded(name: &str) -> usize {
    let (chans, ty) = parse(name);
    if chans.len() == 4 && chans[3].1 == 2 && ty != Ty::Unorm {
        1
    } else {
        chans.len()
    }
}

struct Binding {
    address: u64,
    bytes: Vec<u8>,
    offset: u64,
}

/// The compute variant's input: the index buffer (`index_size` bytes per index) and its
/// range in elements, the instance (grid y) of the SIMD group.
struct IndexFetch {
    indices: Vec<u32>,
    range: u32,
    instance: u32,
}

struct Draw {
    first_vertex: u32,
    vertex_count: u32,
    base_instance: u32,
    bindings: Vec<Option<Binding>>, // per attribute of the key, in key order
    compute: Option<IndexFetch>,
}

const SINK: u64 = 0x8000;

/// Base and clamp as the driver computes them (`agx_calculate_vbo_clamp`): base = the
/// buffer address plus offset, clamp = (size − offset − elsize) / stride (all ones for stride 0), the sink
/// with clamp 0 when the first element does not fit or nothing is bound.
fn driver_base_clamp(key: &PrologKey, a: &PrologAttrib, bind: &Option<Binding>) -> (u64, u32) {
    let elsize = u64::from(block(&a.element.format));
    let sink = if key.robustness.soft_fault { 0 } else { SINK };
    match bind {
        Some(b) if b.bytes.len() as u64 >= b.offset + elsize => {
            let room = b.bytes.len() as u64 - b.offset - elsize;
            let clamp = room
                .checked_div(u64::from(a.element.stride))
                .map_or(u32::MAX, |c| c as u32);
            (b.address + b.offset, clamp)
        }
        _ => (sink, 0),
    }
}

/// The expected outputs of invocation (vertex id `vid`, instance `iid`) of attribute `a`.
fn reference(
    key: &PrologKey,
    a: &PrologAttrib,
    bind: &Option<Binding>,
    d: &Draw,
    vid: u32,
    iid: u32,
) -> [u32; 4] {
    let name = a.element.format.as_str();
    let rs = key.robustness;
    let level = if rs.soft_fault {
        rs.level
    } else {
        rs.level.max(RobustnessLevel::Gl)
    };
    let (base, clamp) = driver_base_clamp(key, a, bind);
    let el = if a.element.instanced {
        iid.checked_div(a.element.divisor).unwrap_or(0) + d.base_instance
    } else {
        vid
    };
    let oob = clamp < el;
    let d3d = level >= RobustnessLevel::D3d;
    let fixup = loaded(name) > 2 && rs.soft_fault;
    let el = if level >= RobustnessLevel::Gl && !(d3d && rs.soft_fault) && oob {
        0
    } else {
        el
    };
    let base = if d3d && fixup && oob { 0 } else { base };
    let zero = d3d && !fixup && oob;
    let elsize = u64::from(block(name));
    let at = base + u64::from(el) * u64::from(a.element.stride);
    let bytes: Vec<u8> = (0..elsize)
        .map(|i| {
            if zero {
                return 0;
            }
            let addr = at + i;
            match bind {
                Some(b) if addr >= b.address && addr < b.address + b.bytes.len() as u64 => {
                    b.bytes[(addr - b.address) as usize]
                }
                _ => 0, // the sink and unmapped memory under soft fault read as zeros
            }
        })
        .collect();
    decode(name, &bytes)
}

/// Runs the prolog of `key` over `draw` and compares every output with the reference.
fn check(key: &PrologKey, draw: &Draw) -> State {
    let prolog = vertex_prolog(key).unwrap_or_else(|e| panic!("{e}"));
    let n = key
        .attribs
        .iter()
        .filter(|a| a.components != 0)
        .map(|a| a.slot + 1)
        .max()
        .unwrap_or(0);
    let mut st = State {
        soft_fault: key.robustness.soft_fault,
        ..State::default()
    };
    if !key.robustness.soft_fault {
        st.memory.push(Region {
            address: SINK,
            bytes: vec![0; 16],
        });
    }
    for (a, b) in key.attribs.iter().zip(&draw.bindings) {
        let (base, clamp) = driver_base_clamp(key, a, b);
        let i = u32::from(a.slot);
        st.set_uniform(4 * i, 64, base).unwrap();
        st.set_uniform(4 * u32::from(n) + 2 * i, 32, u64::from(clamp))
            .unwrap();
        if let Some(b) = b {
            st.memory.push(Region {
                address: b.address,
                bytes: b.bytes.clone(),
            });
        }
    }
    st.set_uniform(6 * u32::from(n), 32, u64::from(draw.first_vertex))
        .unwrap();
    st.set_uniform(6 * u32::from(n) + 2, 32, u64::from(draw.base_instance))
        .unwrap();
    let ids: Vec<(u32, u32)> = match &draw.compute {
        None => (0..LANES as u32)
            .map(|l| {
                (
                    draw.first_vertex + l % draw.vertex_count,
                    l / draw.vertex_count,
                )
            })
            .collect(),
        // The spec's compute variant: vertex ID = index_fetch(x) + first vertex, where an
        // index at or beyond the range yields 0; instance ID = grid y.
        Some(f) => (0..LANES as u32)
            .map(|x| {
                let index = if x < f.range {
                    f.indices[x as usize]
                } else {
                    0
                };
                (index.wrapping_add(draw.first_vertex), f.instance)
            })
            .collect(),
    };
    match &draw.compute {
        None => {
            for (l, &(vid, iid)) in ids.iter().enumerate() {
                st.set_gpr(l, 10, 32, u64::from(vid)).unwrap();
                st.set_gpr(l, 12, 32, u64::from(iid)).unwrap();
            }
        }
        Some(f) => {
            let size = usize::from(key.index_size);
            let bytes: Vec<u8> = f
                .indices
                .iter()
                .flat_map(|i| i.to_le_bytes()[..size].to_vec())
                .collect();
            st.memory.push(Region {
                address: 0x90000,
                bytes,
            });
            let mut ia = 0x90000u64.to_le_bytes().to_vec();
            ia.extend(f.range.to_le_bytes());
            ia.extend(draw.vertex_count.to_le_bytes());
            st.memory.push(Region {
                address: 0x98000,
                bytes: ia,
            });
            st.set_uniform(6 * u32::from(n) + 8, 64, 0x98000).unwrap();
            st.grid = [0, f.instance, 0];
        }
    }
    run(&prolog.code, &mut st, 100_000).unwrap_or_else(|e| panic!("{e}\n{}", prolog.text));
    // Registers: written only temporaries and the components read; r5/r6 intact.
    let mut outputs = Vec::new();
    for a in &key.attribs {
        for c in 0..4u16 {
            if a.components >> c & 1 == 1 {
                let r = 8 + 4 * a.slot + c;
                outputs.extend([2 * r, 2 * r + 1]);
            }
        }
    }
    if draw.compute.is_some() {
        outputs.extend(8..14); // r4, r5, r6
    }
    for &h in &prolog.writes {
        let temp = matches!(h / 2, 1..=4 | 7);
        assert!(
            temp || outputs.contains(&h),
            "writes half {h}\n{}",
            prolog.text
        );
    }
    for h in &outputs {
        assert!(prolog.writes.contains(h), "does not write half {h}");
    }
    if draw.compute.is_some() {
        assert!(prolog.reads.is_empty(), "reads {:?}", prolog.reads);
    } else {
        assert!(
            prolog.reads.iter().all(|&h| (10..14).contains(&h)),
            "reads {:?}",
            prolog.reads
        );
    }
    for (l, &(vid, iid)) in ids.iter().enumerate() {
        assert_eq!(
            st.read_gpr(l, 10, 32).unwrap(),
            u64::from(vid),
            "r5 of lane {l}"
        );
        assert_eq!(
            st.read_gpr(l, 12, 32).unwrap(),
            u64::from(iid),
            "r6 of lane {l}"
        );
        if draw.compute.is_some() {
            assert_eq!(st.read_gpr(l, 8, 32).unwrap(), l as u64, "r4 of lane {l}");
        }
        for (a, b) in key.attribs.iter().zip(&draw.bindings) {
            let want = reference(key, a, b, draw, vid, iid);
            for c in 0..4u16 {
                if a.components >> c & 1 == 1 {
                    let r = 8 + 4 * a.slot + c;
                    let got = st.read_gpr(l, 2 * u32::from(r), 32).unwrap() as u32;
                    assert_eq!(
                        got,
                        want[usize::from(c)],
                        "lane {l} (vertex {vid}, instance {iid}) slot {} {} component {c}: \
                         {got:#x} != {:#x}\n{}",
                        a.slot,
                        a.element.format,
                        want[usize::from(c)],
                        prolog.text
                    );
                }
            }
        }
    }
    st
}

fn attrib(
    slot: u16,
    format: &str,
    stride: u32,
    instanced: bool,
    divisor: u32,
    comps: u8,
) -> PrologAttrib {
    PrologAttrib {
        slot,
        element: VertexElement {
            format: format.to_string(),
            stride,
            divisor,
            instanced,
        },
        components: comps,
    }
}

fn pattern(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as u8
        })
        .collect()
}

// ---- hand-chosen keys ---------------------------------------------------------------

#[test]
fn interleaved_float_and_unorm_attributes() {
    // Position xyz from RGB32F and colour from BGRA8 unorm, interleaved with stride 16.
    let key = PrologKey {
        robustness: Robustness {
            level: RobustnessLevel::Gl,
            soft_fault: false,
        },
        hw: true,
        index_size: 0,
        attribs: vec![
            attrib(0, "R32G32B32_FLOAT", 16, false, 0, 0b1111),
            attrib(1, "B8G8R8A8_UNORM", 16, false, 0, 0b1111),
        ],
    };
    let mut buf = Vec::new();
    for v in 0..8u32 {
        for c in 0..3 {
            buf.extend((v as f32 * 10.0 + c as f32).to_le_bytes());
        }
        buf.extend([v as u8, 0x80, 0xff, 0x40]); // B, G, R, A
    }
    let draw = Draw {
        compute: None,
        first_vertex: 2,
        vertex_count: 8,
        base_instance: 0,
        bindings: vec![
            Some(Binding {
                address: 0x10000,
                bytes: buf.clone(),
                offset: 0,
            }),
            Some(Binding {
                address: 0x10000,
                bytes: buf,
                offset: 12,
            }),
        ],
    };
    let st = check(&key, &draw);
    // By hand: lane 0 is vertex 2: position (20, 21, 22) and w = 1.0 (three channels);
    // colour (R, G, B, A) = (0xff, 0x80, 2, 0x40) / 255 from memory order B, G, R, A.
    let lane0: Vec<u32> = (8..16)
        .map(|r| st.read_gpr(0, 2 * r, 32).unwrap() as u32)
        .collect();
    let want: Vec<u32> = [
        20.0f32,
        21.0,
        22.0,
        1.0,
        1.0,
        128.0 / 255.0,
        2.0 / 255.0,
        64.0 / 255.0,
    ]
    .iter()
    .map(|v| v.to_bits())
    .collect();
    assert_eq!(lane0, want);
}

#[test]
fn every_format_family() {
    let formats = [
        "R32G32B32A32_FLOAT",
        "R16G16B16A16_FLOAT",
        "R16G16_FLOAT",
        "R8G8B8A8_UNORM",
        "R8G8B8A8_SNORM",
        "R16G16_UNORM",
        "R16G16B16A16_SNORM",
        "R8G8B8A8_UINT",
        "R8G8_SINT",
        "R16G16B16A16_SINT",
        "R32_SINT",
        "R32G32_UINT",
        "R8G8B8A8_USCALED",
        "R8G8_SSCALED",
        "R16_USCALED",
        "R16G16_SSCALED",
        "R32G32_SSCALED",
        "R32_USCALED",
        "R32G32_FIXED",
        "R32_UNORM",
        "R32G32_SNORM",
        "R10G10B10A2_UNORM",
        "B10G10R10A2_UNORM",
        "R10G10B10A2_SNORM",
        "R10G10B10A2_UINT",
        "R10G10B10A2_SSCALED",
        "R10G10B10A2_USCALED",
        "B10G10R10A2_SINT",
        "R11G11B10_FLOAT",
        "R8_UNORM",
        "R8G8B8_SNORM",
    ];
    for (i, f) in formats.iter().enumerate() {
        for soft_fault in [false, true] {
            let stride = block(f).next_multiple_of(unit(f)) * 2;
            let key = PrologKey {
                robustness: Robustness {
                    level: RobustnessLevel::D3d,
                    soft_fault,
                },
                hw: true,
                index_size: 0,
                attribs: vec![attrib(0, f, stride, false, 0, 0b1111)],
            };
            // 20 vertices of data; vertex ids 0..31 run past the end.
            let draw = Draw {
                compute: None,
                first_vertex: 0,
                vertex_count: 32,
                base_instance: 0,
                bindings: vec![Some(Binding {
                    address: 0x10000,
                    bytes: pattern(20 * stride as usize, i as u64),
                    offset: 0,
                })],
            };
            let _ = check(&key, &draw);
        }
    }
}

#[test]
fn instanced_divisors_including_zero() {
    for divisor in [0, 1, 2, 3, 5, 7, 1000] {
        let key = PrologKey {
            robustness: Robustness {
                level: RobustnessLevel::Gl,
                soft_fault: false,
            },
            hw: true,
            index_size: 0,
            attribs: vec![
                attrib(0, "R32_UINT", 4, true, divisor, 0b0001),
                attrib(2, "R16G16_UINT", 8, false, 0, 0b0011),
            ],
        };
        let draw = Draw {
            compute: None,
            first_vertex: 1,
            vertex_count: 3,
            base_instance: 4,
            bindings: vec![
                Some(Binding {
                    address: 0x10000,
                    bytes: (0..64u32).flat_map(|v| v.to_le_bytes()).collect(),
                    offset: 0,
                }),
                Some(Binding {
                    address: 0x20000,
                    bytes: pattern(64, 3),
                    offset: 4,
                }),
            ],
        };
        let _ = check(&key, &draw);
    }
}

#[test]
fn division_by_constants_is_exact() {
    // The multiply-high sequence for every divisor up to 300 and some large ones, over
    // instance ids chosen near multiples and at the top of the range.
    for divisor in (1..300).chain([641, 65_537, 0x7fff_ffff, 0x8000_0001, u32::MAX]) {
        let key = PrologKey {
            robustness: Robustness {
                level: RobustnessLevel::Disabled,
                soft_fault: true,
            },
            hw: true,
            index_size: 0,
            // A stride (a stride of 0 reads element 0 without computing the index).
            attribs: vec![attrib(0, "R32_UINT", 4, true, divisor, 1)],
        };
        let prolog = vertex_prolog(&key).unwrap();
        let mut st = State {
            soft_fault: true,
            ..State::default()
        };
        let ids: Vec<u32> = (0..LANES as u32)
            .map(|l| match l % 4 {
                0 => divisor.wrapping_mul(l + 1),
                1 => divisor.wrapping_mul(l).wrapping_sub(1),
                2 => u32::MAX - l,
                _ => l * 977,
            })
            .collect();
        for (l, id) in ids.iter().enumerate() {
            st.set_gpr(l, 12, 32, u64::from(*id)).unwrap();
        }
        // Run only the index computation: up to the load.
        let cut = prolog
            .text
            .lines()
            .position(|s| s.starts_with("load"))
            .unwrap();
        let text: String = prolog
            .text
            .lines()
            .take(cut)
            .map(|s| format!("{s}\n"))
            .collect();
        let code = gpuabi_agx_isa::assemble(&text, "t.s").unwrap().bytes;
        run(&code, &mut st, 1000).unwrap();
        for (l, id) in ids.iter().enumerate() {
            assert_eq!(
                st.read_gpr(l, 14, 32).unwrap(),
                u64::from(id / divisor),
                "{id} / {divisor}"
            );
        }
    }
}

#[test]
fn compute_variant_fetches_indices() {
    for index_size in [0u8, 1, 2, 4] {
        let key = PrologKey {
            robustness: Robustness {
                level: RobustnessLevel::Gl,
                soft_fault: false,
            },
            hw: false,
            index_size,
            attribs: vec![
                attrib(0, "R32G32_FLOAT", 8, false, 0, 0b0011),
                attrib(1, "R8G8B8A8_UINT", 4, true, 2, 0b1001),
            ],
        };
        // Indices below 11 fit every index size.
        let indices: Vec<u32> = (0..32u32).map(|i| (i * 7 + 3) % 11).collect();
        let draw = Draw {
            first_vertex: 2,
            vertex_count: 32,
            base_instance: 1,
            bindings: vec![
                Some(Binding {
                    address: 0x10000,
                    bytes: pattern(128, 1),
                    offset: 0,
                }),
                Some(Binding {
                    address: 0x20000,
                    bytes: pattern(40, 2),
                    offset: 0,
                }),
            ],
            compute: Some(IndexFetch {
                // Non-indexed draws fetch nothing: the vertex index is x.
                indices: if index_size == 0 {
                    (0..32).collect()
                } else {
                    indices
                },
                range: if index_size == 0 { 32 } else { 27 },
                instance: 5,
            }),
        };
        let _ = check(&key, &draw);
    }
}

// ---- random keys --------------------------------------------------------------------

#[test]
fn random_keys_match_the_reference() {
    const FORMATS: &[&str] = &[
        "R32G32B32A32_FLOAT",
        "R32G32_FLOAT",
        "R16G16B16A16_FLOAT",
        "R8G8B8A8_UNORM",
        "B8G8R8A8_UNORM",
        "R8G8_SNORM",
        "R16G16B16A16_UNORM",
        "R16_SNORM",
        "R8G8B8A8_UINT",
        "R16G16B16A16_SINT",
        "R32G32B32_SINT",
        "R8G8B8A8_SSCALED",
        "R16G16_USCALED",
        "R32_FIXED",
        "R32G32B32A32_UNORM",
        "R32_SNORM",
        "R10G10B10A2_UNORM",
        "R10G10B10A2_SNORM",
        "B10G10R10A2_UINT",
        "R11G11B10_FLOAT",
    ];
    let levels = [
        RobustnessLevel::Disabled,
        RobustnessLevel::Gles,
        RobustnessLevel::Gl,
        RobustnessLevel::D3d,
    ];
    let mut s = 0x1234_5678u64;
    let mut rnd = |m: u64| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) % m
    };
    for _ in 0..120 {
        let count = 1 + rnd(4) as usize;
        let mut slots: Vec<u16> = (0..16).collect();
        let mut attribs = Vec::new();
        let mut bindings = Vec::new();
        for k in 0..count {
            let slot = slots.remove(rnd(slots.len() as u64) as usize);
            let f = FORMATS[rnd(FORMATS.len() as u64) as usize];
            let u = unit(f);
            let stride = match rnd(4) {
                0 => 0,
                1 => block(f).next_multiple_of(u),
                2 => block(f).next_multiple_of(u) * 2,
                _ => u * (1 + rnd(12) as u32),
            };
            let instanced = rnd(3) == 0;
            let divisor = [0, 1, 2, 3, 6][rnd(5) as usize];
            let comps = 1 + rnd(15) as u8;
            attribs.push(attrib(slot, f, stride, instanced, divisor, comps));
            bindings.push(match rnd(6) {
                0 => None,
                _ => Some(Binding {
                    address: 0x10000 * (k as u64 + 1),
                    bytes: pattern(rnd(200) as usize, rnd(1000)),
                    offset: rnd(8) * u64::from(u),
                }),
            });
        }
        let hw = rnd(4) != 0;
        let index_size = [0u8, 1, 2, 4][rnd(4) as usize];
        let compute = (!hw).then(|| {
            let mask = (1u64 << (8 * u32::from(index_size).max(1))) - 1;
            // Without an index buffer the vertex index is x itself.
            let indexed = index_size != 0;
            IndexFetch {
                indices: (0..32)
                    .map(|x| if indexed { (rnd(24) & mask) as u32 } else { x })
                    .collect(),
                range: if indexed { rnd(33) as u32 } else { 32 },
                instance: rnd(5) as u32,
            }
        });
        let key = PrologKey {
            robustness: Robustness {
                level: levels[rnd(4) as usize],
                soft_fault: rnd(2) == 0,
            },
            hw,
            index_size,
            attribs,
        };
        let vertex_count = 1 + rnd(16) as u32;
        let draw = Draw {
            compute,
            first_vertex: rnd(4) as u32,
            vertex_count,
            base_instance: rnd(3) as u32,
            bindings,
        };
        let _ = check(&key, &draw);
    }
}

#[test]
fn arbitrary_keys_never_panic_and_keep_the_register_rules() {
    const NAMES: &[&str] = &[
        "R32G32B32A32_FLOAT",
        "R16G16_SNORM",
        "B10G10R10A2_SSCALED",
        "R11G11B10_FLOAT",
        "R8G8B8_UINT",
        "R5G6B5_UNORM",
        "",
        "R8G8_",
        "X8_UNORM",
        "R99_FLOAT",
    ];
    arbtest::arbtest(|u| {
        let levels = [
            RobustnessLevel::Disabled,
            RobustnessLevel::Gles,
            RobustnessLevel::Gl,
            RobustnessLevel::D3d,
        ];
        let mut attribs = Vec::new();
        for _ in 0..u.int_in_range(0..=5)? {
            let slot = u.int_in_range(0..=20)?;
            let name = *u.choose(NAMES)?;
            attribs.push(attrib(
                slot,
                name,
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
            ));
        }
        let key = PrologKey {
            robustness: Robustness {
                level: *u.choose(&levels)?,
                soft_fault: u.arbitrary()?,
            },
            hw: u.arbitrary()?,
            index_size: u.arbitrary()?,
            attribs,
        };
        if let Ok(p) = vertex_prolog(&key) {
            let allowed = |h: u16| {
                matches!(h / 2, 1..=4 | 7)
                    || (!key.hw && matches!(h / 2, 5 | 6))
                    || key.attribs.iter().any(|a| {
                        let r = h / 2;
                        r >= 8 + 4 * a.slot
                            && r < 12 + 4 * a.slot
                            && a.components >> (r - 8 - 4 * a.slot) & 1 == 1
                    })
            };
            assert!(
                p.writes.iter().all(|&h| allowed(h)),
                "{:?}\n{}",
                p.writes,
                p.text
            );
        }
        Ok(())
    });
}
