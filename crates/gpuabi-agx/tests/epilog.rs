//! Generated fragment epilogs (stores without blending) run in the simulator over a tile,
//! checked against tile bytes written by a reference from the format definitions: the
//! tile-buffer layout of the ABI text, component `c` of an element format at
//! `offset + c · size`, normalised values clamped and rounded to nearest even (Mesa's
//! `_mesa_float_to_unorm`), integers clamped to the logical channel range
//! (`nir_format_clamp_uint`/`_sint`), fp16 from the `half` crate, 10-10-10-2 packed low
//! field first.

use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_sim::{run, Fragment, State};
use half::f16;

mod epilog_ref;
use epilog_ref::{encode, lcg, Enc};

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
            sample_shading: false,
            alpha_to_coverage: false,
            logic_op: None,
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
            // Spilled targets run against images in `epilog_features.rs`; here only
            // the keys refused for them are checked.
            match fragment_epilog(&key) {
                Err(e) => {
                    assert!(samples > 1, "{e}");
                    assert!(e.to_string().contains("spilled"), "{e}");
                }
                Ok(_) => assert!(samples == 1),
            }
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
