//! Generated fragment epilogs (stores without blending) run in the simulator over a tile,
//! checked against tile bytes written by a reference from the format definitions: the
//! tile-buffer layout of the ABI text, component `c` of an element format at
//! `offset + c · size`, normalised values clamped and rounded to nearest even (Mesa's
//! `_mesa_float_to_unorm`), integers clamped to the logical channel range
//! (`nir_format_clamp_uint`/`_sint`), fp16 from the `half` crate, 10-10-10-2 packed low
//! field first.

use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_sim::{run, Fragment, State};
use half::f16;

#[derive(Clone, Copy)]
enum Enc {
    Unorm(u32),
    Snorm(u32),
    Uint(u32),
    Sint(u32),
    Raw32,
    Raw32Uint,
    F16,
    Rgb10a2,
}

/// Formats: name, components, element bytes (4 for packed), encoding.
const FORMATS: &[(&str, u32, usize, Enc)] = &[
    ("R8G8B8A8_UNORM", 4, 1, Enc::Unorm(8)),
    ("B8G8R8A8_UNORM", 4, 1, Enc::Unorm(8)),
    ("R8_SNORM", 1, 1, Enc::Snorm(8)),
    ("R16G16B16A16_UNORM", 4, 2, Enc::Unorm(16)),
    ("R16G16_SNORM", 2, 2, Enc::Snorm(16)),
    ("R16G16_FLOAT", 2, 2, Enc::F16),
    ("B5G6R5_UNORM", 3, 2, Enc::F16),
    ("R32G32B32A32_FLOAT", 4, 4, Enc::Raw32),
    ("R32_UINT", 1, 4, Enc::Raw32Uint),
    ("R8G8B8A8_UINT", 4, 1, Enc::Uint(8)),
    ("R8G8_SINT", 2, 1, Enc::Sint(8)),
    ("R16G16B16A16_SINT", 4, 2, Enc::Sint(16)),
    ("R10G10B10A2_UINT", 4, 2, Enc::Uint(10)),
    ("R10G10B10A2_UNORM", 4, 4, Enc::Rgb10a2),
];

fn unorm(x: f64, bits: u32) -> u64 {
    let max = ((1u64 << bits) - 1) as f64;
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * max).round_ties_even() as u64
    }
}

fn snorm(x: f64, bits: u32) -> u64 {
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    let v = if x.is_nan() {
        0
    } else {
        (x.clamp(-1.0, 1.0) * max).round_ties_even() as i64
    };
    (v as u64) & ((1u64 << bits) - 1)
}

/// The stored bytes of `rt`'s components (registers `regs`, `size` bits each; only masked
/// components change `out`).
fn encode(enc: Enc, comps: u32, el: usize, regs: &[u64; 4], size: u32, mask: u8, out: &mut [u8]) {
    let real = |v: u64| {
        if size == 16 {
            f16::from_bits(v as u16).to_f64()
        } else {
            f64::from(f32::from_bits(v as u32))
        }
    };
    let put = |out: &mut [u8], at: usize, v: u64, n: usize| {
        for b in 0..n {
            out[at + b] = (v >> (8 * b)) as u8;
        }
    };
    if let Enc::Rgb10a2 = enc {
        let mut w = u32::from_le_bytes(out[..4].try_into().unwrap()) as u64;
        for c in 0..4 {
            let (shift, bits) = if c == 3 { (30, 2) } else { (10 * c, 10) };
            if mask >> c & 1 == 1 {
                w = (w & !(((1u64 << bits) - 1) << shift))
                    | unorm(real(regs[c as usize]), bits) << shift;
            }
        }
        put(out, 0, w, 4);
        return;
    }
    for (c, &v) in regs.iter().enumerate().take(comps as usize) {
        if mask >> c & 1 == 0 {
            continue;
        }
        let stored = match enc {
            Enc::Unorm(b) => unorm(real(v), b),
            Enc::Snorm(b) => snorm(real(v), b),
            Enc::F16 => {
                if size == 16 {
                    v
                } else {
                    u64::from(f16::from_f32(f32::from_bits(v as u32)).to_bits())
                }
            }
            Enc::Raw32 => {
                if size == 32 {
                    v
                } else {
                    // Widened: fp16 to fp32 for floats, zero-extension for uints.
                    u64::from(f16::from_bits(v as u16).to_f32().to_bits())
                }
            }
            // Widened from 16 bits by zero extension.
            Enc::Raw32Uint => v,
            Enc::Uint(b) => {
                let b = if b == 10 && c == 3 { 2 } else { b };
                v.min((1u64 << b) - 1)
            }
            Enc::Sint(b) => {
                let s = if size == 16 {
                    v as u16 as i16 as i64
                } else {
                    v as u32 as i32 as i64
                };
                let (lo, hi) = (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1);
                s.clamp(lo, hi) as u64
            }
            Enc::Rgb10a2 => unreachable!(),
        };
        put(out, c * el, stored, el);
    }
}

fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

/// A register value for a component of `enc`: floats in and around [−1, 1], integers across
/// and beyond the channel range.
fn value(enc: Enc, size: u32, s: &mut u64) -> u64 {
    let x = (lcg(s) % 3000) as f32 / 1000.0 - 1.2;
    match (enc, size) {
        (Enc::Uint(_) | Enc::Sint(_), 16) => lcg(s) & 0xffff,
        (Enc::Uint(_) | Enc::Sint(_), _) => {
            if lcg(s).is_multiple_of(2) {
                lcg(s) % 300
            } else {
                lcg(s) & 0xffff_ffff
            }
        }
        (Enc::Raw32, 32) if lcg(s).is_multiple_of(2) => lcg(s) & 0xffff_ffff,
        (Enc::Raw32Uint, 16) => lcg(s) & 0xffff,
        (Enc::Raw32Uint, _) => lcg(s) & 0xffff_ffff,
        (_, 16) => u64::from(f16::from_f32(x).to_bits()),
        _ => u64::from(x.to_bits()),
    }
}

#[test]
fn stores_match_the_reference_on_random_keys() {
    let mut s = 99u64;
    for round in 0..150 {
        let count = 1 + (lcg(&mut s) % 3) as usize;
        let broadcast = lcg(&mut s).is_multiple_of(4);
        let first_size = if lcg(&mut s).is_multiple_of(2) {
            16
        } else {
            32
        };
        let mut rts = Vec::new();
        let mut encs = Vec::new();
        for i in 0..count {
            let (name, comps, el, enc) = FORMATS[(lcg(&mut s) % FORMATS.len() as u64) as usize];
            let packed = matches!(enc, Enc::Rgb10a2);
            let all = (1u8 << comps) - 1;
            let mask = if packed || lcg(&mut s).is_multiple_of(2) {
                all
            } else {
                (lcg(&mut s) as u8 & all).max(1)
            };
            // Under broadcast every target reads location 0 at its size.
            let size = if broadcast || i == 0 {
                first_size
            } else if lcg(&mut s).is_multiple_of(2) {
                16
            } else {
                32
            };
            rts.push(Some(EpilogRt {
                format: name.to_string(),
                location: i as u8,
                size,
                colormask: mask,
                blend: None,
            }));
            encs.push((comps, el, enc));
        }
        let samples = [1u8, 2, 4][(lcg(&mut s) % 3) as usize];
        let key = EpilogKey {
            samples,
            write_z: lcg(&mut s).is_multiple_of(2),
            write_s: lcg(&mut s).is_multiple_of(2),
            sample_mask_after_force_early: lcg(&mut s).is_multiple_of(3),
            loc0_w_1: lcg(&mut s).is_multiple_of(3),
            alpha_to_one: lcg(&mut s).is_multiple_of(4),
            broadcast_rt0: broadcast,
            rts,
            unsupported: Vec::new(),
        };
        let formats: Vec<Option<&str>> = key
            .rts
            .iter()
            .map(|r| r.as_ref().map(|r| r.format.as_str()))
            .collect();
        let layout = tilebuffer_layout(&formats, samples).unwrap();
        if layout
            .render_targets
            .iter()
            .any(|p| p.offset_bytes.is_none())
        {
            let e = fragment_epilog(&key).unwrap_err();
            assert!(e.to_string().contains("spilled"), "{e}");
            continue;
        }
        let epilog = fragment_epilog(&key).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let mut frag = Fragment::new(4, 2, u32::from(samples), layout.sample_size_bytes).unwrap();
        for b in frag.tib.iter_mut() {
            *b = lcg(&mut s) as u8;
        }
        let mut st = State {
            exec: 0xff,
            ..State::default()
        };
        // Colours, depth, stencil and the r3h mask per lane.
        let mut regs = vec![[[0u64; 4]; 8]; 8];
        for (lane, lane_regs) in regs.iter_mut().enumerate() {
            for loc in 0..count {
                let rt = key.rts[loc].as_ref().unwrap();
                let (_, _, enc) = encs[loc];
                for c in 0..4u32 {
                    let v = value(enc, u32::from(rt.size), &mut s);
                    lane_regs[loc][c as usize] = v;
                    let half = 8 + 8 * loc as u32 + if rt.size == 16 { c } else { 2 * c };
                    st.set_gpr(lane, half, u32::from(rt.size), v).unwrap();
                }
            }
            st.set_gpr(lane, 4, 32, u64::from((lane as f32 / 8.0).to_bits()))
                .unwrap();
            st.set_gpr(lane, 6, 16, lane as u64 + 100).unwrap();
            st.set_gpr(lane, 7, 16, lcg(&mut s) & 0xf).unwrap();
        }
        let start_tib = frag.tib.clone();
        st.frag = Some(Box::new(frag));
        run(&epilog.code, &mut st, 10_000).unwrap_or_else(|e| panic!("{e}\n{}", epilog.text));

        // The reference tile.
        let mut want = start_tib;
        let sample_size = layout.sample_size_bytes as usize;
        for (lane, lane_regs) in regs.iter().enumerate() {
            let r3h = st.read_gpr(lane, 7, 16).unwrap() as u8;
            let live = if key.sample_mask_after_force_early {
                r3h
            } else {
                0xff
            };
            for sample in 0..usize::from(samples) {
                if live >> sample & 1 == 0 {
                    continue;
                }
                let base = (lane * usize::from(samples) + sample) * sample_size;
                for (i, rt) in key.rts.iter().enumerate() {
                    let rt = rt.as_ref().unwrap();
                    let (comps, el, enc) = encs[i];
                    let loc = if key.broadcast_rt0 {
                        0
                    } else {
                        rt.location as usize
                    };
                    let mut r = lane_regs[loc];
                    // Alpha 1.0: location 0 under loc0_w_1, every location under
                    // alpha-to-one.
                    if (key.alpha_to_one || (loc == 0 && key.loc0_w_1)) && comps == 4 {
                        r[3] = if rt.size == 16 { 0x3c00 } else { 0x3f80_0000 };
                    }
                    let size = u32::from(rt.size);
                    let off = layout
                        .render_targets
                        .iter()
                        .find(|p| p.rt as usize == i)
                        .unwrap();
                    let at = base + off.offset_bytes.unwrap() as usize;
                    encode(
                        enc,
                        comps,
                        el,
                        &r,
                        size,
                        rt.colormask & ((1 << comps) - 1),
                        &mut want[at..],
                    );
                }
            }
        }
        let got = &st.frag.as_ref().unwrap().tib;
        assert_eq!(got, &want, "round {round}\n{}", epilog.text);
        // Depth and stencil of the live samples.
        let f = st.frag.as_ref().unwrap();
        for lane in 0..8usize {
            let r3h = st.read_gpr(lane, 7, 16).unwrap() as u8;
            let live = if key.sample_mask_after_force_early {
                r3h
            } else {
                0xff
            };
            for sample in 0..usize::from(samples) {
                let i = lane * usize::from(samples) + sample;
                let on = live >> sample & 1 == 1;
                let z = (on && key.write_z).then_some((lane as f32 / 8.0).to_bits());
                let st_ = (on && key.write_s).then_some(lane as u16 + 100);
                assert_eq!(f.depth[i], z, "round {round} depth");
                assert_eq!(f.stencil[i], st_, "round {round} stencil");
            }
        }
    }
}

#[test]
fn unsupported_requests_are_errors() {
    let rt = |_: bool| {
        Some(EpilogRt {
            format: "R10G10B10A2_UNORM".into(),
            location: 0,
            size: 32,
            colormask: 0b0101,
            blend: None,
        })
    };
    let key = |rts: Vec<Option<EpilogRt>>| EpilogKey {
        samples: 1,
        write_z: false,
        write_s: false,
        sample_mask_after_force_early: false,
        loc0_w_1: false,
        alpha_to_one: false,
        broadcast_rt0: false,
        rts,
        unsupported: Vec::new(),
    };
    let e = fragment_epilog(&key(vec![rt(false)])).unwrap_err();
    assert!(e.to_string().contains("partial colour mask"), "{e}");
    let mut blended = rt(false).unwrap();
    blended.size = 16;
    blended.blend = Some([Equation::REPLACE; 2]);
    let e = fragment_epilog(&key(vec![Some(blended)])).unwrap_err();
    assert!(e.to_string().contains("blending 16-bit colours"), "{e}");
}

// ---- blending ----------------------------------------------------------------------

const FACTORS: [BlendFactor; 15] = [
    BlendFactor::Zero,
    BlendFactor::One,
    BlendFactor::SrcColor,
    BlendFactor::OneMinusSrcColor,
    BlendFactor::SrcAlpha,
    BlendFactor::OneMinusSrcAlpha,
    BlendFactor::DstColor,
    BlendFactor::OneMinusDstColor,
    BlendFactor::DstAlpha,
    BlendFactor::OneMinusDstAlpha,
    BlendFactor::SrcAlphaSaturate,
    BlendFactor::ConstantColor,
    BlendFactor::OneMinusConstantColor,
    BlendFactor::ConstantAlpha,
    BlendFactor::OneMinusConstantAlpha,
];
const FUNCS: [BlendFunc; 5] = [
    BlendFunc::Add,
    BlendFunc::Subtract,
    BlendFunc::ReverseSubtract,
    BlendFunc::Min,
    BlendFunc::Max,
];

/// Blendable formats: name, components, element bytes, encoding, clamp (0 none, 1 unorm,
/// 2 snorm).
const BLENDABLE: &[(&str, u32, usize, Enc, u8)] = &[
    ("R8G8B8A8_UNORM", 4, 1, Enc::Unorm(8), 1),
    ("R16G16_UNORM", 2, 2, Enc::Unorm(16), 1),
    ("R8G8B8A8_SNORM", 4, 1, Enc::Snorm(8), 2),
    ("R16G16B16A16_FLOAT", 4, 2, Enc::F16, 0),
    ("B5G6R5_UNORM", 3, 2, Enc::F16, 1),
    ("R32G32B32A32_FLOAT", 4, 4, Enc::Raw32, 0),
    ("R10G10B10A2_UNORM", 4, 4, Enc::Rgb10a2, 1),
];

/// The tile value of component `c` as the hardware's load gives it in fp32.
fn decode(enc: Enc, el: usize, c: usize, bytes: &[u8]) -> f32 {
    let raw =
        |at: usize, n: usize| (0..n).fold(0u64, |v, k| v | u64::from(bytes[at + k]) << (8 * k));
    match enc {
        Enc::Unorm(b) => raw(c * el, el) as f32 / ((1u64 << b) - 1) as f32,
        Enc::Snorm(b) => {
            let v = raw(c * el, el);
            let s = ((v << (64 - b)) as i64 >> (64 - b)) as f32;
            let max = ((1u64 << (b - 1)) - 1) as f32;
            s.max(-max) / max
        }
        Enc::F16 => f16::from_bits(raw(c * 2, 2) as u16).to_f32(),
        Enc::Raw32 => f32::from_bits(raw(c * 4, 4) as u32),
        Enc::Rgb10a2 => {
            let w = raw(0, 4);
            if c == 3 {
                (w >> 30) as f32 / 3.0
            } else {
                ((w >> (10 * c)) & 1023) as f32 / 1023.0
            }
        }
        _ => unreachable!(),
    }
}

fn clamp_ref(x: f32, norm: u8) -> f32 {
    match norm {
        // fsat: NaN and anything not above zero (-0.0 too) become +0.
        1 => {
            if x.is_nan() || x <= 0.0 {
                0.0
            } else {
                x.min(1.0)
            }
        }
        2 => {
            let x = if x > -1.0 { x } else { -1.0 };
            if x > 1.0 {
                1.0
            } else {
                x
            }
        }
        _ => x,
    }
}

/// One blended component, with the operations in the order the generator documents.
fn blend_ref(
    eq: &Equation,
    c: usize,
    s: &[f32; 4],
    d: &[f32; 4],
    comps: usize,
    k: &[f32; 4],
) -> f32 {
    let dget = |i: usize| if i >= comps { 1.0 } else { d[i] };
    let factor = |f: BlendFactor| -> Option<f32> {
        Some(match f {
            BlendFactor::Zero => return None,
            BlendFactor::One => return Some(f32::NAN), // marks "unmultiplied"
            BlendFactor::SrcColor => s[c],
            BlendFactor::OneMinusSrcColor => -s[c] + 1.0,
            BlendFactor::SrcAlpha => s[3],
            BlendFactor::OneMinusSrcAlpha => -s[3] + 1.0,
            BlendFactor::DstColor => dget(c),
            BlendFactor::OneMinusDstColor => -dget(c) + 1.0,
            BlendFactor::DstAlpha => dget(3),
            BlendFactor::OneMinusDstAlpha if comps < 4 => return None,
            BlendFactor::OneMinusDstAlpha => -dget(3) + 1.0,
            BlendFactor::SrcAlphaSaturate if c == 3 => return Some(f32::NAN),
            BlendFactor::SrcAlphaSaturate if comps < 4 => return None,
            BlendFactor::SrcAlphaSaturate => {
                let t = -dget(3) + 1.0;
                if s[3] < t {
                    s[3]
                } else {
                    t
                }
            }
            BlendFactor::ConstantColor => k[c],
            BlendFactor::OneMinusConstantColor => -k[c] + 1.0,
            BlendFactor::ConstantAlpha => k[3],
            BlendFactor::OneMinusConstantAlpha => -k[3] + 1.0,
            _ => unreachable!(),
        })
    };
    let term = |v: f32, f: Option<f32>| match f {
        None => 0.0,
        Some(x) if x.is_nan() => v,
        Some(x) => v * x,
    };
    match eq.func {
        BlendFunc::Min => {
            if s[c] < d[c] {
                s[c]
            } else {
                d[c]
            }
        }
        BlendFunc::Max => {
            if s[c] > d[c] {
                s[c]
            } else {
                d[c]
            }
        }
        BlendFunc::Add => term(s[c], factor(eq.src)) + term(d[c], factor(eq.dst)),
        BlendFunc::Subtract => term(s[c], factor(eq.src)) + -term(d[c], factor(eq.dst)),
        BlendFunc::ReverseSubtract => term(d[c], factor(eq.dst)) + -term(s[c], factor(eq.src)),
    }
}

#[test]
fn blending_matches_the_reference_bit_for_bit() {
    let mut s = 7u64;
    for round in 0..300 {
        let (name, comps, el, enc, norm) =
            BLENDABLE[(lcg(&mut s) % BLENDABLE.len() as u64) as usize];
        let mut eq = || Equation {
            func: FUNCS[(lcg(&mut s) % 5) as usize],
            src: FACTORS[(lcg(&mut s) % 15) as usize],
            dst: FACTORS[(lcg(&mut s) % 15) as usize],
        };
        let eqs = [eq(), eq()];
        let all = (1u8 << comps) - 1;
        let mask = if lcg(&mut s).is_multiple_of(2) {
            all
        } else {
            lcg(&mut s) as u8 & all
        };
        let key = EpilogKey {
            samples: 1,
            write_z: false,
            write_s: false,
            sample_mask_after_force_early: false,
            loc0_w_1: false,
            alpha_to_one: lcg(&mut s).is_multiple_of(4),
            broadcast_rt0: false,
            rts: vec![Some(EpilogRt {
                format: name.to_string(),
                location: 0,
                size: 32,
                colormask: mask,
                blend: Some(eqs),
            })],
            unsupported: Vec::new(),
        };
        let epilog = match fragment_epilog(&key) {
            Ok(e) => e,
            Err(e) => panic!("round {round}: {e}"),
        };
        let layout = tilebuffer_layout(&[Some(name)], 1).unwrap();
        let mut frag = Fragment::new(4, 2, 1, layout.sample_size_bytes).unwrap();
        for b in frag.tib.iter_mut() {
            *b = lcg(&mut s) as u8;
        }
        // Keep fp16 and fp32 destinations finite and moderate.
        if matches!(enc, Enc::F16 | Enc::Raw32) {
            for p in 0..8 {
                for c in 0..comps as usize {
                    let v = (lcg(&mut s) % 3000) as f32 / 1000.0 - 1.2;
                    let at = p * layout.sample_size_bytes as usize + c * el;
                    match enc {
                        Enc::F16 => {
                            frag.tib[at..at + 2].copy_from_slice(&f16::from_f32(v).to_le_bytes())
                        }
                        _ => frag.tib[at..at + 4].copy_from_slice(&v.to_le_bytes()),
                    }
                }
            }
        }
        let start = frag.tib.clone();
        let mut st = State {
            exec: 0xff,
            frag: Some(Box::new(frag)),
            ..State::default()
        };
        let k: [f32; 4] = std::array::from_fn(|_| (lcg(&mut s) % 1000) as f32 / 999.0);
        for (i, v) in k.iter().enumerate() {
            st.set_uniform(4 + 2 * i as u32, 32, u64::from(v.to_bits()))
                .unwrap();
        }
        let mut src = [[0f32; 4]; 8];
        for (lane, sv) in src.iter_mut().enumerate() {
            for (c, x) in sv.iter_mut().enumerate() {
                *x = (lcg(&mut s) % 3000) as f32 / 1000.0 - 1.2;
                st.set_gpr(lane, 8 + 2 * c as u32, 32, u64::from(x.to_bits()))
                    .unwrap();
            }
        }
        run(&epilog.code, &mut st, 10_000).unwrap_or_else(|e| panic!("{e}\n{}", epilog.text));
        let mut want = start.clone();
        let size = layout.sample_size_bytes as usize;
        for (lane, sv) in src.iter().enumerate() {
            let at = lane * size;
            let mut sc = *sv;
            if key.alpha_to_one {
                sc[3] = 1.0;
            }
            let sc = sc.map(|x| clamp_ref(x, norm));
            if mask == 0 {
                continue;
            }
            // The destination as loaded, and clamped for blending when the tile holds fp16.
            let raw: [f32; 4] = std::array::from_fn(|c| {
                if c < comps as usize {
                    decode(enc, el, c, &start[at..])
                } else {
                    0.0
                }
            });
            let d = if matches!(enc, Enc::F16) {
                raw.map(|v| clamp_ref(v, norm))
            } else {
                raw
            };
            let mut out = [0u64; 4];
            for c in 0..comps as usize {
                let v = if mask >> c & 1 == 0 {
                    raw[c]
                } else {
                    let e = if c == 3 { &eqs[1] } else { &eqs[0] };
                    clamp_ref(blend_ref(e, c, &sc, &d, comps as usize, &k), norm)
                };
                out[c] = u64::from(v.to_bits());
            }
            encode(enc, comps, el, &out, 32, all, &mut want[at..]);
        }
        assert_eq!(
            st.frag.as_ref().unwrap().tib,
            want,
            "round {round}\n{:?}\n{}",
            eqs,
            epilog.text
        );
    }
}
