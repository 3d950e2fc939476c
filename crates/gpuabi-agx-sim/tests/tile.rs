//! The tile buffer, `sample_mask`, `zs_emit`, `iter`/`ldcf` and converted stores, against
//! conversions written out again here from their definitions (the `half` crate for fp16,
//! a nearest-value search over every 11- and 10-bit float) and values worked out by hand.
//! Sources of the rules: Mesa's `agx_nir_lower_tilebuffer.c` (byte offsets, all-sample
//! stores), `src/util/format/format_utils.h` (`_mesa_float_to_unorm`: clamp, round to
//! nearest even), the sRGB transfer function (IEC 61966-2-1), `EXT_texture_shared_exponent`
//! (rgb9e5) and `agx_default_sample_positions` (sample positions).

use gpuabi_agx_isa::assemble;
use gpuabi_agx_sim::{run, Fragment, Region, SimError, State};
use half::f16;

fn exec(src: &str, st: &mut State) -> Result<usize, SimError> {
    let p = assemble(src, "t.s").expect("assembles");
    run(&p.bytes, st, 1000)
}

/// One lane at pixel (0, 0) of a 1×1 tile.
fn one_pixel(samples: u32, sample_size: u32) -> State {
    State {
        exec: 1,
        frag: Some(Box::new(Fragment::new(1, 1, samples, sample_size).unwrap())),
        ..State::default()
    }
}

fn tib(st: &State) -> &[u8] {
    &st.frag.as_ref().unwrap().tib
}

fn set32(st: &mut State, reg: u32, v: f32) {
    st.set_gpr(0, 2 * reg, 32, u64::from(v.to_bits())).unwrap();
}

fn r32(st: &State, reg: u32) -> u32 {
    st.read_gpr(0, 2 * reg, 32).unwrap() as u32
}

// ---- independent references --------------------------------------------------------

fn ref_unorm(x: f32, bits: u32) -> u32 {
    if x.is_nan() {
        return 0;
    }
    let max = ((1u64 << bits) - 1) as f64;
    (f64::from(x).clamp(0.0, 1.0) * max).round_ties_even() as u32
}

fn ref_snorm(x: f32, bits: u32) -> u32 {
    if x.is_nan() {
        return 0;
    }
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    let v = (f64::from(x).clamp(-1.0, 1.0) * max).round_ties_even() as i64;
    (v as u32) & ((1u32 << bits) - 1)
}

fn ref_srgb(x: f32) -> u32 {
    let x = f64::from(x);
    let s = if x.is_nan() || x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else if x <= 0.0031308 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round_ties_even() as u32
}

/// Value of an unsigned float with 5 exponent bits and `m` fraction bits.
fn small_value(bits: u32, m: u32) -> f64 {
    let e = bits >> m;
    let f = f64::from(bits & ((1 << m) - 1));
    if e == 0 {
        f * 2f64.powi(-14 - m as i32)
    } else {
        (1.0 + f / f64::from(1 << m)) * 2f64.powi(e as i32 - 15)
    }
}

/// The nearest unsigned small float by search over every finite pattern, with infinity
/// standing one unit past the largest; ties to the even pattern. Toward zero: the largest
/// pattern not above.
fn ref_small(x: f32, m: u32, rtz: bool) -> u32 {
    let inf = 0x1f << m;
    if x.is_nan() {
        return inf | 1 << (m - 1);
    }
    let x = f64::from(x);
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return inf;
    }
    let max = inf - 1;
    let top = small_value(max, m) + 2f64.powi(15 - m as i32);
    let value = |b: u32| if b == inf { top } else { small_value(b, m) };
    if rtz {
        return (0..=max).rev().find(|&b| value(b) <= x).unwrap_or(0);
    }
    let mut best = 0;
    for b in 0..=inf {
        let (d, db) = ((value(b) - x).abs(), (value(best) - x).abs());
        if d < db || (d == db && b % 2 == 0) {
            best = b;
        }
    }
    best
}

/// fp16 rounding to nearest even; NaN becomes the default NaN 0x7e00 (applegpu's
/// `fma.py` gives the default NaN for every NaN result).
fn ref_f16_from_f32(x: f32) -> u16 {
    if x.is_nan() {
        0x7e00
    } else {
        f16::from_f32(x).to_bits()
    }
}

fn lcg(seed: &mut u64) -> u32 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 33) as u32
}

/// A float in a range that exercises clamping and rounding of the format.
fn sample_float(seed: &mut u64) -> f32 {
    match lcg(seed) % 8 {
        0 => f32::from_bits(lcg(seed)), // any pattern, NaN and infinities included
        1 => (lcg(seed) % 4096) as f32 / 4095.0 * 70000.0,
        2 => -((lcg(seed) % 1000) as f32) / 500.0,
        3 => (lcg(seed) % 511) as f32 / 510.0 + 0.5 / 510.0, // near halfway points
        _ => (lcg(seed) % 100_000) as f32 / 80_000.0 - 0.1,
    }
}

// ---- stores and loads of every format -----------------------------------------------

/// Element formats: name, bytes, reference encoder of component c.
type Encoder = fn(f32, u32) -> u32;
const ELEMENT_FORMATS: &[(&str, usize, Encoder)] = &[
    ("u8norm", 1, |x, _| ref_unorm(x, 8)),
    ("s8norm", 1, |x, _| ref_snorm(x, 8)),
    ("u16norm", 2, |x, _| ref_unorm(x, 16)),
    ("s16norm", 2, |x, _| ref_snorm(x, 16)),
    ("srgba8", 1, |x, c| {
        if c == 3 {
            ref_unorm(x, 8)
        } else {
            ref_srgb(x)
        }
    }),
    ("f16", 2, |x, _| u32::from(ref_f16_from_f32(x))),
];

#[test]
fn element_formats_store_per_component_bytes() {
    let mut seed = 7;
    for &(name, el, enc) in ELEMENT_FORMATS {
        for _ in 0..300 {
            let mut st = one_pixel(1, 16);
            let v: [f32; 4] = std::array::from_fn(|_| sample_float(&mut seed));
            for (c, x) in v.iter().enumerate() {
                set32(&mut st, 4 + c as u32, *x);
            }
            exec(
                &format!("st_tile r4_r5_r6_r7, 0, 255, 4, {name}, xyzw\n"),
                &mut st,
            )
            .unwrap();
            let mut want = [0u8; 16];
            for c in 0..4 {
                let bits = enc(v[c], c as u32);
                for b in 0..el {
                    want[4 + c * el + b] = (bits >> (8 * b)) as u8;
                }
            }
            assert_eq!(tib(&st), &want, "{name} {v:?}");
        }
    }
}

#[test]
fn hand_computed_stores() {
    let mut st = one_pixel(1, 16);
    for (r, x) in [0.5f32, 1.5, -0.2, 0.2].into_iter().enumerate() {
        set32(&mut st, 4 + r as u32, x);
    }
    // 0.5 · 255 = 127.5 rounds to even 128; 1.5 clamps to 255; -0.2 to 0; 0.2 · 255 = 51.
    exec("st_tile r4_r5_r6_r7, 0, 255, 0, u8norm, xyzw\n", &mut st).unwrap();
    assert_eq!(&tib(&st)[..4], &[128, 255, 0, 51]);
    // s8norm: 0.5 · 127 = 63.5 -> 64; 1.5 -> 127; -0.2 · 127 = -25.4 -> -25 = 0xe7.
    exec("st_tile r4_r5_r6_r7, 0, 255, 4, s8norm, xyzw\n", &mut st).unwrap();
    assert_eq!(&tib(&st)[4..8], &[64, 127, 0xe7, 25]);
    // sRGB of linear 0.5 is 0.7354 · 255 = 187.5 -> 188 (the standard sRGB table); 1.5
    // clamps; alpha 0.2 is linear: 51.
    exec("st_tile r4_r5_r6_r7, 0, 255, 8, srgba8, xyzw\n", &mut st).unwrap();
    assert_eq!(&tib(&st)[8..12], &[188, 255, 0, 51]);
}

#[test]
fn integer_formats_store_low_bits_and_load_zero_extended() {
    let mut st = one_pixel(1, 16);
    st.set_gpr(0, 8, 32, 0x1234_5678).unwrap(); // r4
    st.set_gpr(0, 10, 32, 0x9abc_def0).unwrap(); // r5
    exec(
        "st_tile r4_r5, 0, 255, 0, i8, xy\nst_tile r4_r5, 0, 255, 2, i16, yz\n\
         st_tile r5, 0, 255, 12, i32, x\n",
        &mut st,
    )
    .unwrap();
    // i8: x at 0, y at 1; i16 yz at 2 + 2 and 2 + 4; i32 x at 12.
    assert_eq!(
        tib(&st),
        &[0x78, 0xf0, 0, 0, 0x78, 0x56, 0xf0, 0xde, 0, 0, 0, 0, 0xf0, 0xde, 0xbc, 0x9a]
    );
    exec(
        "ld_tile r8_r9, 0, 255, 0, i8, xy\nld_tile r10l, 0, 255, 6, i16, x\n\
         ld_tile r11, 0, 255, 12, i32, x\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(r32(&st, 8), 0x78);
    assert_eq!(r32(&st, 9), 0xf0);
    assert_eq!(st.read_gpr(0, 20, 16).unwrap(), 0xdef0);
    assert_eq!(r32(&st, 11), 0x9abc_def0);
}

#[test]
fn element_formats_load_back_as_floats() {
    // Every stored byte pattern of the 8-bit formats, and samples of the 16-bit ones.
    type Decoder = fn(u32) -> f64;
    let cases: &[(&str, u32, Decoder)] = &[
        ("u8norm", 256, |k| f64::from(k as f32 / 255.0)),
        ("s8norm", 256, |k| {
            f64::from((k as u8 as i8).max(-127) as f32 / 127.0)
        }),
        ("u16norm", 65536, |k| f64::from(k as f32 / 65535.0)),
        ("s16norm", 65536, |k| {
            f64::from((k as u16 as i16).max(-32767) as f32 / 32767.0)
        }),
    ];
    for &(name, count, value) in cases {
        for k in (0..count).step_by(if count > 256 { 97 } else { 1 }) {
            let mut st = one_pixel(1, 4);
            st.frag.as_mut().unwrap().tib[..4].copy_from_slice(&k.to_le_bytes());
            exec(
                &format!("ld_tile r4, 0, 255, 0, {name}, x\nld_tile r5l, 0, 255, 0, {name}, x\n"),
                &mut st,
            )
            .unwrap();
            let want = value(k & (count - 1));
            assert_eq!(r32(&st, 4), (want as f32).to_bits(), "{name} {k}");
            let h = st.read_gpr(0, 10, 16).unwrap() as u16;
            assert_eq!(h, f16::from_f64(want).to_bits(), "{name} {k} as fp16");
        }
    }
    // f16: 16-bit registers take the bits, 32-bit ones the exact value.
    let mut st = one_pixel(1, 4);
    st.frag.as_mut().unwrap().tib[..2].copy_from_slice(&0x3555u16.to_le_bytes());
    exec(
        "ld_tile r4, 0, 255, 0, f16, x\nld_tile r5l, 0, 255, 0, f16, x\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(r32(&st, 4), f16::from_bits(0x3555).to_f32().to_bits());
    assert_eq!(st.read_gpr(0, 10, 16).unwrap(), 0x3555);
}

#[test]
fn small_float_formats_round_as_the_search_says() {
    let mut seed = 11;
    for rtz in [false, true] {
        let name = if rtz { "rg11b10f_rtz" } else { "rg11b10f" };
        for _ in 0..400 {
            let v: [f32; 3] = std::array::from_fn(|_| sample_float(&mut seed));
            let mut st = one_pixel(1, 4);
            for (c, x) in v.iter().enumerate() {
                set32(&mut st, 4 + c as u32, *x);
            }
            exec(
                &format!("st_tile r4_r5_r6, 0, 255, 0, {name}, xyz\n"),
                &mut st,
            )
            .unwrap();
            let want = ref_small(v[0], 6, rtz)
                | ref_small(v[1], 6, rtz) << 11
                | ref_small(v[2], 5, rtz) << 22;
            let got = u32::from_le_bytes(tib(&st)[..4].try_into().unwrap());
            assert_eq!(got, want, "{name} {v:?}");
        }
    }
    // 1.0 is exponent 15, fraction 0 in each field; loading gives 1.0 back.
    let mut st = one_pixel(1, 4);
    for r in 4..7 {
        set32(&mut st, r, 1.0);
    }
    exec(
        "st_tile r4_r5_r6, 0, 255, 0, rg11b10f, xyz\nld_tile r8_r9_r10, 0, 255, 0, rg11b10f, xyz\n",
        &mut st,
    )
    .unwrap();
    let want = 15u32 << 6 | 15 << (11 + 6) | 15 << (22 + 5);
    assert_eq!(u32::from_le_bytes(tib(&st)[..4].try_into().unwrap()), want);
    assert_eq!([r32(&st, 8), r32(&st, 9), r32(&st, 10)], [0x3f80_0000; 3]);
}

#[test]
fn rgb10a2_packs_ten_ten_ten_two() {
    let mut st = one_pixel(1, 4);
    for (r, x) in [1.0f32, 0.5, 0.0, 0.7].into_iter().enumerate() {
        set32(&mut st, 4 + r as u32, x);
    }
    exec("st_tile r4_r5_r6_r7, 0, 255, 0, rgb10a2, xyzw\n", &mut st).unwrap();
    // 1023; 0.5 · 1023 = 511.5 -> 512; 0; 0.7 · 3 = 2.1 -> 2.
    let want = 1023u32 | 512 << 10 | 2 << 30;
    assert_eq!(u32::from_le_bytes(tib(&st)[..4].try_into().unwrap()), want);
    // A masked store replaces only green.
    set32(&mut st, 8, 0.25);
    exec("st_tile r8, 0, 255, 0, rgb10a2, y\n", &mut st).unwrap();
    let want = 1023u32 | 256 << 10 | 2 << 30; // 0.25 · 1023 = 255.75 -> 256
    assert_eq!(u32::from_le_bytes(tib(&st)[..4].try_into().unwrap()), want);
    exec("ld_tile r10_r11, 0, 255, 0, rgb10a2, yw\n", &mut st).unwrap();
    assert_eq!(r32(&st, 10), (256.0f32 / 1023.0).to_bits());
    assert_eq!(r32(&st, 11), (2.0f32 / 3.0).to_bits());
}

#[test]
fn rgb9e5_shares_the_exponent_of_the_largest_component() {
    let mut st = one_pixel(1, 8);
    for (r, x) in [1.0f32, 0.5, 0.25].into_iter().enumerate() {
        set32(&mut st, 4 + r as u32, x);
    }
    exec("st_tile r4_r5_r6, 0, 255, 0, rgb9e5, xyz\n", &mut st).unwrap();
    // max 1.0: exponent floor(log2 1) + 1 + 15 = 16, unit 2^(16 - 24) = 1/256: 256, 128, 64.
    let want = 16u32 << 27 | 64 << 18 | 128 << 9 | 256;
    assert_eq!(u32::from_le_bytes(tib(&st)[..4].try_into().unwrap()), want);

    // Error bound on random values: each component within half a unit of the shared
    // exponent (a unit toward zero), and the largest mantissa uses the top bit unless the
    // exponent is the smallest.
    let mut seed = 5;
    for rtz in [false, true] {
        let name = if rtz { "rgb9e5_rtz" } else { "rgb9e5" };
        for _ in 0..400 {
            let v: [f32; 3] = std::array::from_fn(|_| sample_float(&mut seed));
            let mut st = one_pixel(1, 4);
            for (c, x) in v.iter().enumerate() {
                set32(&mut st, 4 + c as u32, *x);
            }
            exec(
                &format!("st_tile r4_r5_r6, 0, 255, 0, {name}, xyz\n"),
                &mut st,
            )
            .unwrap();
            let w = u32::from_le_bytes(tib(&st)[..4].try_into().unwrap());
            let e = (w >> 27) as i32;
            let unit = 2f64.powi(e - 24);
            let m = [w & 511, w >> 9 & 511, w >> 18 & 511];
            let clamp = |x: f32| {
                if x.is_nan() {
                    0.0
                } else {
                    f64::from(x).clamp(0.0, 65408.0)
                }
            };
            for c in 0..3 {
                let err = f64::from(m[c]) * unit - clamp(v[c]);
                if rtz {
                    assert!((-unit..=0.0).contains(&err), "{name} {v:?} {w:#x}");
                } else {
                    assert!(err.abs() <= unit / 2.0, "{name} {v:?} {w:#x}");
                }
            }
            let maxm = m.into_iter().max().unwrap();
            assert!(maxm >= 256 || e == 0 || rtz, "{name} {v:?} {w:#x}");
        }
    }
}

// ---- samples, coverage, explicit coordinates ----------------------------------------

#[test]
fn stores_go_to_covered_samples_and_sample_mask_kills() {
    let mut st = one_pixel(4, 4);
    set32(&mut st, 4, 1.0);
    // Kill sample 1 (target 0b0010, live 0): later stores skip it.
    exec(
        "sample_mask 2, 0\nst_tile r4, 0, 255, 0, u8norm, x\n",
        &mut st,
    )
    .unwrap();
    let t = tib(&st);
    assert_eq!([t[0], t[4], t[8], t[12]], [255, 0, 255, 255]);
    let f = st.frag.as_ref().unwrap();
    assert_eq!(f.coverage[0], 0b1101);
    // Samples 2 and 3 pass their tests: tested, not killed.
    exec("sample_mask 12, 12\n", &mut st).unwrap();
    assert_eq!(st.frag.as_ref().unwrap().tested[0], 0b1100);
    // A sample operand restricts the store; ld_tile reads the lowest sample it names.
    set32(&mut st, 4, 0.0);
    exec(
        "st_tile r4, 0, 4, 0, u8norm, x\nld_tile r6, 0, 12, 0, u8norm, x\nld_tile r7, 0, 8, 0, u8norm, x\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(r32(&st, 6), 0); // sample 2, just cleared
    assert_eq!(r32(&st, 7), 0x3f80_0000); // sample 3
}

#[test]
fn explicit_coordinates_address_another_pixel() {
    let mut st = State {
        exec: 1,
        frag: Some(Box::new(Fragment::new(4, 2, 1, 4).unwrap())),
        ..State::default()
    };
    st.set_gpr(0, 18, 16, 3).unwrap(); // r9l = x
    st.set_gpr(0, 19, 16, 1).unwrap(); // r9h = y
    st.set_gpr(0, 8, 32, 0xabcd).unwrap();
    exec(
        "st_tile r4, r9l_r9h, 1, 0, explicit_coords, i32, x\n",
        &mut st,
    )
    .unwrap();
    // Pixel (3, 1) of a 4-wide tile is pixel 7: bytes 28..32.
    assert_eq!(&tib(&st)[28..32], &[0xcd, 0xab, 0, 0]);
    st.set_gpr(0, 19, 16, 2).unwrap();
    let e = exec(
        "st_tile r4, r9l_r9h, 1, 0, explicit_coords, i32, x\n",
        &mut st,
    )
    .unwrap_err();
    assert!(matches!(e, SimError::Tile { lane: 0, .. }), "{e}");
}

#[test]
fn out_of_sample_offsets_and_missing_context_are_errors() {
    let mut st = one_pixel(1, 8);
    let e = exec("st_tile r4_r5, 0, 255, 4, i32, xy\n", &mut st).unwrap_err();
    assert!(
        matches!(
            e,
            SimError::Tile {
                lane: 0,
                offset: 0,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("bytes 8..12 of a 8-byte sample"),
        "{e}"
    );
    let mut st = State::default();
    let e = exec("ld_tile r4, 0, 255, 0, i32, x\n", &mut st).unwrap_err();
    assert!(matches!(e, SimError::Unsupported { .. }), "{e}");
}

#[test]
fn zs_emit_records_depth_and_stencil_of_covered_samples() {
    let mut st = one_pixel(2, 4);
    set32(&mut st, 2, 0.75); // r2 depth
    st.set_gpr(0, 6, 16, 0x42).unwrap(); // r3l stencil
    exec("sample_mask 1, 0\nzs_emit 255, r2\n", &mut st).unwrap();
    let f = st.frag.as_ref().unwrap();
    assert_eq!(f.depth, vec![None, Some(0.75f32.to_bits())]);
    assert_eq!(f.stencil, vec![None, None]);
    exec("zs_emit 2, r3l\n", &mut st).unwrap();
    assert_eq!(st.frag.as_ref().unwrap().stencil, vec![None, Some(0x42)]);
}

// ---- coefficient registers ----------------------------------------------------------

fn with_planes(samples: u32, planes: &[[f32; 3]]) -> State {
    let mut f = Fragment::new(4, 4, samples, 4).unwrap();
    f.cf = planes.iter().map(|p| p.map(f32::to_bits)).collect();
    State {
        exec: 0b11,
        frag: Some(Box::new(f)),
        ..State::default()
    }
}

#[test]
fn iter_evaluates_planes_at_centres_and_samples() {
    // cf0: 2x + 3y + 1; cf1: 0.5x - y; cf2: w = x + 1.
    let mut st = with_planes(4, &[[2.0, 3.0, 1.0], [0.5, -1.0, 0.0], [1.0, 0.0, 1.0]]);
    exec("iter r4_r5, cf0\n", &mut st).unwrap();
    // Lane 1 is pixel (1, 0), centre (1.5, 0.5): 2·1.5 + 3·0.5 + 1 = 5.5; 0.75 - 0.5 = 0.25.
    assert_eq!(st.read_gpr(1, 8, 32).unwrap(), u64::from(5.5f32.to_bits()));
    assert_eq!(
        st.read_gpr(1, 10, 32).unwrap(),
        u64::from(0.25f32.to_bits())
    );
    // Sample 1 of the 4x pattern sits at (14/16, 6/16): 2·1.875 + 3·0.375 + 1 = 5.875.
    exec("iter r6, cf0, 1, sample\n", &mut st).unwrap();
    assert_eq!(
        st.read_gpr(1, 12, 32).unwrap(),
        u64::from(5.875f32.to_bits())
    );
    // Perspective: (2x + 3y + 1) / (x + 1) at (1.5, 0.5) = 5.5 / 2.5 = 2.2, in fp16.
    exec("iter r7l, cf0, cf2\n", &mut st).unwrap();
    assert_eq!(
        st.read_gpr(1, 14, 16).unwrap(),
        u64::from(f16::from_f64(2.2).to_bits())
    );
    // Centroid with sample 0 killed: the lowest covered sample, 1.
    exec("sample_mask 1, 0\niter r8, cf0, centroid\n", &mut st).unwrap();
    assert_eq!(
        st.read_gpr(1, 16, 32).unwrap(),
        u64::from(5.875f32.to_bits())
    );
    // ldcf loads the three coefficients.
    exec("ldcf r10_r11_r12, cf1\n", &mut st).unwrap();
    let got: Vec<u64> = (0..3)
        .map(|k| st.read_gpr(0, 20 + 2 * k, 32).unwrap())
        .collect();
    let want: Vec<u64> = [0.5f32, -1.0, 0.0]
        .iter()
        .map(|v| u64::from(v.to_bits()))
        .collect();
    assert_eq!(got, want);
    // A register past the given ones is an error naming the lane.
    let e = exec("iter r4, cf3\n", &mut st).unwrap_err();
    assert!(e.to_string().contains("cf3"), "{e}");
}

// ---- converted device stores --------------------------------------------------------

#[test]
fn converted_stores_are_the_inverse_of_loads() {
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.memory.push(Region {
        address: 0x1000,
        bytes: vec![0; 16],
    });
    st.set_uniform(8, 64, 0x1000).unwrap(); // du4
    for (r, x) in [0.5f32, -1.0, 1.0, 0.2].into_iter().enumerate() {
        set32(&mut st, 4 + r as u32, x);
    }
    exec(
        "store r4_r5_r6_r7, du4, 0, u8norm, xyzw, a\nstore r4_r5, du4, 2, s16norm, xy, a\n\
         store r4_r5_r6_r7, du4, 3, rgb10a2, xyzw, a\n",
        &mut st,
    )
    .unwrap();
    let m = &st.memory[0].bytes;
    assert_eq!(&m[..4], &[128, 0, 255, 51]);
    // s16norm 0.5 · 32767 = 16383.5 -> 16384 = 0x4000; -1 -> -32767 = 0x8001; at 2·2 bytes.
    assert_eq!(&m[4..8], &[0x00, 0x40, 0x01, 0x80]);
    // rgb10a2 word 3 at byte 12: 512 | 0 | 1023 << 20 | round(0.6) = 1 << 30.
    let want = 512u32 | 1023 << 20 | 1 << 30;
    assert_eq!(u32::from_le_bytes(m[12..16].try_into().unwrap()), want);
    exec("load r8_r9_r10_r11, du4, 3, rgb10a2, xyzw, a\n", &mut st).unwrap();
    assert_eq!(r32(&st, 8), (512.0f32 / 1023.0).to_bits());
    assert_eq!(r32(&st, 10), 0x3f80_0000);
    assert_eq!(r32(&st, 11), (1.0f32 / 3.0).to_bits());
}

#[test]
fn fragment_special_registers_are_pixel_and_input_coverage() {
    let mut st = State {
        exec: 0b11,
        grid: [64, 32, 0],
        frag: Some(Box::new(Fragment::new(2, 2, 4, 4).unwrap())),
        ..State::default()
    };
    // Lane 1 is pixel (1, 0); kills do not change the input mask.
    exec(
        "sample_mask 6, 0\nmov r2, thread_in_grid_x\nmov r3, thread_in_grid_y\nmov r4l, input_sample_mask\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(st.read_gpr(1, 4, 32).unwrap(), 65);
    assert_eq!(st.read_gpr(1, 6, 32).unwrap(), 32);
    assert_eq!(st.read_gpr(1, 8, 16).unwrap(), 0xf);
    assert_eq!(st.frag.as_ref().unwrap().coverage[1], 0b1001);
}
