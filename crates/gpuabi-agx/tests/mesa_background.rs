//! Honeykrisp's background programs (the clear at the start of a render pass) and their
//! preambles, as each draw of the project's capture (`testdata/mesa/hk`) bound them, run
//! in the simulator over a tile laid out for the draw's attachments; every sample of
//! every pixel must hold the clear colour in the attachment's tile format.
//!
//! The uniforms are the ones the draw's decoded submit gives the `Load pipeline`
//! (`submits/NN_*.txt`: start and size in halves, then the bytes): the clear colour of
//! render target `rt` as four 32-bit words at half `4 + 8·rt` (`nir_load_preamble(b, nr,
//! 32, 4 + rt * 8)` in `build_background_op`, `src/asahi/lib/agx_bg_eot.c`), which the
//! preamble packs where the format needs it (16-bit integers). The expected bytes are
//! worked out here by hand from the clear values `tools/mesa/hk_capture.c` records
//! (`{1, 2, 3, 4}` for integer formats, `{0.125, 0.25, 0.5, 1.0}` for the others), in the
//! tile format Mesa's background stores (its `st_tile` format: `u8norm`, `srgba8`,
//! `rgb10a2`, `rg11b10f`, `f16`, `i16`, `i32`; R5G6B5 is kept as `f16`).
//!
//! The reloading backgrounds (the partial background, and the shared capture's
//! backgrounds, which load) run in `mesa_partial_background`, the end-of-tile programs in
//! `mesa_end_of_tile`.

// Shared with `mesa_end_of_tile`, which uses more of it.
#[allow(dead_code)]
mod hk_capture;

use gpuabi_agx_sim::{run, Fragment, State, LANES};
use hk_capture::{bound, draw_tile, pipelines, submit, uniforms};

/// The clear colour's bytes as the tile stores `format` (a Vulkan name without
/// `VK_FORMAT_`), worked out by hand.
fn expected(format: &str) -> Vec<u8> {
    let le16 = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let le32 = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    // fp16 of 0.125, 0.25, 0.5, 1.0: exponents 12, 13, 14, 15 (bias 15), mantissa 0.
    let f16 = [0x3000u16, 0x3400, 0x3800, 0x3c00];
    match format {
        // round(x · 255): 31.875, 63.75, 127.5 (to even), 255.
        "R8G8B8A8_UNORM" => vec![32, 64, 128, 255],
        // The sRGB encoding 1.055·x^(1/2.4) − 0.055 of 0.125, 0.25, 0.5 times 255 is
        // 99.09, 136.96, 187.52; alpha stays linear. The tile keeps R, G, B, A in order
        // (the background stores u2…u5, the clear's R…A, with `srgba8`).
        "B8G8R8A8_SRGB" => vec![99, 137, 188, 255],
        "R16G16B16A16_SINT" => le16(&[1, 2, 3, 4]),
        "R16G16_UINT" => le16(&[1, 2]),
        "R32G32_UINT" => le32(&[1, 2]),
        "R32_UINT" => le32(&[1]),
        "R32G32B32A32_SINT" => le32(&[1, 2, 3, 4]),
        "R16G16B16A16_SFLOAT" => le16(&f16),
        "R16G16_SFLOAT" => le16(&f16[..2]),
        // Kept as fp16 R, G, B (6 bytes).
        "R5G6B5_UNORM_PACK16" => le16(&f16[..3]),
        // R in bits 0..10, G 10..20, B 20..30 as round(x · 1023): 127.875, 255.75, 511.5
        // (to even); A in 30..32 as 3.
        "A2B10G10R10_UNORM_PACK32" => le32(&[128 | 256 << 10 | 512 << 20 | 3 << 30]),
        // R and G as 11-bit floats (5-bit exponent, bias 15, 6-bit mantissa) in bits 0..11
        // and 11..22, B as a 10-bit float (5-bit mantissa) in 22..32: 0.125 = 2^-3 is
        // exponent 12, 0.25 is 13, 0.5 is 14.
        "B10G11R11_UFLOAT_PACK32" => le32(&[12 << 6 | (13 << 6) << 11 | (14 << 5) << 22]),
        _ => panic!("no hand-worked clear for {format}"),
    }
}

/// Runs `code` on `st` with the given lanes.
fn run_on(name: &str, what: &str, code: &[u8], st: &mut State, exec: u32) {
    let keep = st.exec;
    st.exec = exec;
    run(code, st, 10_000).unwrap_or_else(|e| panic!("{name}: {what}: {e}"));
    st.exec = keep;
}

#[test]
fn backgrounds_clear_every_sample_to_the_draws_clear_colour() {
    let mut checked = 0;
    let mut formats_seen = std::collections::BTreeSet::new();
    for (draw, roles) in &bound() {
        let Some(bg) = roles.get("background") else {
            continue;
        };
        let code = bg.code();
        let tile = draw_tile(draw);
        let (formats, samples, layout) = (&tile.formats, tile.samples, &tile.layout);
        let submit = submit(draw);
        let load = *pipelines(&submit, "Load pipeline")
            .first()
            .unwrap_or_else(|| panic!("{draw}: no Load pipeline in the submit"));
        let mut st = State::default();
        for (h, v) in uniforms(load) {
            st.set_uniform(h, 16, u64::from(v)).expect("uniform");
        }
        let (w, h) = (8u32, 4u32);
        let mut frag =
            Fragment::new(w, h, u32::from(samples), layout.sample_size_bytes).expect("tile");
        // A tile that is not the clear colour anywhere.
        for b in frag.tib.iter_mut() {
            *b = 0xa5;
        }
        let all = frag.all_samples();
        for l in 0..LANES {
            frag.pixel[l] = ((l as u32 % w) as u16, (l as u32 / w) as u16);
            frag.coverage[l] = all;
            frag.input_coverage[l] = all;
        }
        st.frag = Some(Box::new(frag));
        if let Some(pre) = roles.get("background preshader") {
            run_on(draw, "preamble", &pre.code(), &mut st, 1);
        }
        run_on(draw, "background", &code, &mut st, u32::MAX);
        let frag = st.frag.as_deref().expect("fragment state");
        for p in &layout.render_targets {
            let vk = formats[usize::from(p.rt)].clone().expect("bound");
            let want = expected(&vk);
            let offset = p
                .offset_bytes
                .expect("no spilled render target in the capture");
            assert_eq!(want.len() as u32, p.size_bytes, "{draw}: rt{}", p.rt);
            for y in 0..h {
                for x in 0..w {
                    for s in 0..u32::from(samples) {
                        let i = frag
                            .byte(x, y, s, offset, p.size_bytes)
                            .expect("in the tile");
                        assert_eq!(
                            frag.tib[i..i + want.len()],
                            want[..],
                            "{draw}: rt{} ({vk}) at pixel ({x}, {y}) sample {s}",
                            p.rt
                        );
                    }
                }
            }
            formats_seen.insert(vk);
        }
        checked += 1;
    }
    // Every draw has a background; every attachment format of the capture was cleared.
    assert_eq!(checked, 29);
    assert_eq!(formats_seen.len(), 12, "{formats_seen:?}");
}
