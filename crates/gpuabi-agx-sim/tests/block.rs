//! The block store `imgwblk` through a PBE descriptor bound to a texture-state register:
//! descriptors written here field by field at the bit positions of the `PBE` struct of
//! Mesa's `src/asahi/genxml/cmdbuf.xml`, tile bytes chosen here, image bytes worked out by
//! hand.

use gpuabi_agx_isa::assemble;
use gpuabi_agx_sim::{run, Fragment, Region, SimError, State};

fn exec(src: &str, st: &mut State) -> Result<usize, SimError> {
    let p = assemble(src, "t.s").expect("assembles");
    run(&p.bytes, st, 1000)
}

fn set_bits(d: &mut [u8], start: u32, size: u32, v: u64) {
    for i in 0..size {
        let b = start + i;
        if v >> i & 1 == 1 {
            d[(b / 8) as usize] |= 1 << (b % 8);
        }
    }
}

const DESCS: u64 = 0x1000;
const IMAGE: u64 = 0x2000;
/// Image bytes nobody wrote.
const UNTOUCHED: u8 = 0xee;

/// A linear PBE: `dim` (2 = 2D, 4 = 2D multisampled), channels, type, swizzle, size,
/// stride, sRGB flag, 4 samples (else 2, when multisampled).
struct Pbe {
    dim: u64,
    channels: u64,
    ty: u64,
    swizzle: [u64; 4],
    width: u64,
    height: u64,
    stride: u64,
    srgb: bool,
    four_samples: bool,
}

impl Pbe {
    fn rgba8(width: u64, height: u64, stride: u64) -> Pbe {
        Pbe {
            dim: 2,
            channels: 0x28,
            ty: 0,
            swizzle: [0, 1, 2, 3],
            width,
            height,
            stride,
            srgb: false,
            four_samples: false,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut p = vec![0u8; 24];
        set_bits(&mut p, 0, 4, self.dim);
        set_bits(&mut p, 6, 7, self.channels);
        set_bits(&mut p, 13, 3, self.ty);
        for (c, s) in self.swizzle.iter().enumerate() {
            set_bits(&mut p, 16 + 2 * c as u32, 2, *s);
        }
        set_bits(&mut p, 24, 14, self.width - 1);
        set_bits(&mut p, 38, 14, self.height - 1);
        set_bits(&mut p, 56, 1, u64::from(self.four_samples));
        set_bits(&mut p, 64, 36, IMAGE >> 4);
        set_bits(&mut p, 104, 21, self.stride - 4);
        set_bits(&mut p, 125, 1, u64::from(self.srgb));
        p
    }
}

/// A state with a `w` × `h` tile of `samples` samples of `sample_size` bytes whose byte
/// `i` is `tile(i)`, the PBE bound to ts1, an image of `image_bytes` untouched bytes and
/// the tile's origin at `origin`.
fn state(
    (w, h, samples, sample_size): (u32, u32, u32, u32),
    tile: impl Fn(usize) -> u8,
    pbe: &Pbe,
    image_bytes: usize,
    origin: (u32, u32),
) -> State {
    let mut frag = Fragment::new(w, h, samples, sample_size).unwrap();
    for (i, b) in frag.tib.iter_mut().enumerate() {
        *b = tile(i);
    }
    let mut descs = vec![0u8; 24];
    descs.extend(pbe.bytes());
    let mut st = State {
        frag: Some(Box::new(frag)),
        memory: vec![
            Region {
                address: DESCS,
                bytes: descs,
            },
            Region {
                address: IMAGE,
                bytes: vec![UNTOUCHED; image_bytes],
            },
        ],
        grid: [origin.0, origin.1, 0],
        ..State::default()
    };
    // ts0 and ts1 from the table: ts1 is the PBE.
    st.bind_texture_state(0, 2, DESCS);
    st
}

fn image(st: &State) -> &[u8] {
    &st.memory[1].bytes
}

#[test]
fn rgba8_tile_lands_at_the_tile_origin_with_the_image_stride() {
    // A 4x2 tile of 8-byte samples, the render target at byte 4 of each: pixel (x, y)
    // holds 16·(y·4 + x) + (4, 5, 6, 7). The image is 8x4 RGBA8 with stride 40; the tile
    // sits at (2, 1).
    let pbe = Pbe::rgba8(8, 4, 40);
    let mut st = state((4, 2, 1, 8), |i| i as u8 * 2, &pbe, 160, (2, 1));
    exec("mov r0l, 4\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st).unwrap();
    let img = image(&st);
    for y in 0..4usize {
        for x in 0..8usize {
            let at = y * 40 + x * 4;
            let inside = (2..6).contains(&x) && (1..3).contains(&y);
            let want: Vec<u8> = if inside {
                // Tile pixel (x − 2, y − 1) starts at byte 8·p; bytes 4..8 doubled.
                let p = (y - 1) * 4 + (x - 2);
                (4..8).map(|k| ((8 * p + k) * 2) as u8).collect()
            } else {
                vec![UNTOUCHED; 4]
            };
            assert_eq!(img[at..at + 4], want[..], "pixel ({x}, {y})");
        }
    }
    // The row padding (bytes 32..40 of each row) stays untouched.
    for y in 0..4 {
        assert!(img[y * 40 + 32..y * 40 + 40]
            .iter()
            .all(|&b| b == UNTOUCHED));
    }
}

#[test]
fn pixels_past_the_image_edge_are_not_written() {
    // A 4x2 tile at (2, 1) of a 3x2 image: only tile pixels (0, 0) → (2, 1) lie inside.
    let pbe = Pbe::rgba8(3, 2, 16);
    let mut st = state((4, 2, 1, 4), |i| i as u8 + 1, &pbe, 64, (2, 1));
    exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st).unwrap();
    let img = image(&st);
    assert_eq!(img[16 + 8..16 + 12], [1, 2, 3, 4]);
    let untouched = img
        .iter()
        .enumerate()
        .filter(|&(i, _)| !(24..28).contains(&i))
        .all(|(_, &b)| b == UNTOUCHED);
    assert!(untouched);
}

#[test]
fn multisampled_tile_stores_every_sample_side_by_side() {
    // A 2x1 tile of 4 samples of 4 bytes (R32_UINT at offset 0); a 2x1 image of 4
    // samples: sample s of pixel x at (x·4 + s)·4.
    let pbe = Pbe {
        dim: 4,
        channels: 0x21,
        ty: 2,
        swizzle: [0, 0, 0, 0],
        width: 2,
        height: 1,
        stride: 32,
        srgb: false,
        four_samples: true,
    };
    let mut st = state((2, 1, 4, 4), |i| i as u8, &pbe, 32, (0, 0));
    exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d_ms, i32", &mut st).unwrap();
    let want: Vec<u8> = (0..32).collect();
    assert_eq!(image(&st), &want[..]);
}

#[test]
fn srgb_tile_bytes_are_copied_with_the_bgra_swizzle_and_the_srgb_flag_ignored() {
    // B8G8R8A8: memory channel 0 from component 2 (blue). The tile holds the sRGB bytes
    // (10, 20, 30, 40); the image gets them as stored, blue first.
    let pbe = Pbe {
        swizzle: [2, 1, 0, 3],
        srgb: true,
        ..Pbe::rgba8(1, 1, 16)
    };
    let tile = [10u8, 20, 30, 40];
    let mut st = state((1, 1, 1, 4), |i| tile[i], &pbe, 16, (0, 0));
    exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, srgba8", &mut st).unwrap();
    assert_eq!(image(&st)[..4], [30, 20, 10, 40]);
}

#[test]
fn packed_words_are_copied_bit_for_bit() {
    // rgb10a2 into R10G10B10A2 unorm, rg11b10f into R11G11B10 float: the word as stored,
    // also an 11-bit NaN (exponent 31, fraction 1) in the red channel of the second.
    for (format, channels, ty, word) in [
        ("rgb10a2", 0x26, 0, 0xdead_beefu32),
        ("rg11b10f", 0x25, 4, 0x1234_5000 | 0x7c1),
    ] {
        let pbe = Pbe {
            channels,
            ty,
            ..Pbe::rgba8(1, 1, 16)
        };
        let bytes = word.to_le_bytes();
        let mut st = state((1, 1, 1, 4), |i| bytes[i], &pbe, 16, (0, 0));
        exec(
            &format!("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, {format}"),
            &mut st,
        )
        .unwrap();
        assert_eq!(image(&st)[..4], bytes, "{format}");
    }
}

#[test]
fn half_float_components_convert_to_r5g6b5_unorm() {
    // Mesa stores an R5G6B5 target's f16 tile with format i16. The half floats 0.5,
    // 0.25, 1.0 become round(0.5·31) = 16 (15.5 to even), round(0.25·63) = 16
    // (15.75), round(1.0·31) = 31: 16 | 16 << 5 | 31 << 11.
    let pbe = Pbe {
        channels: 0x0b,
        ty: 0,
        ..Pbe::rgba8(1, 1, 16)
    };
    let halves = [0x3800u16, 0x3400, 0x3c00];
    let tile: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
    let mut st = state((1, 1, 1, 6), |i| tile[i], &pbe, 16, (0, 0));
    exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, i16", &mut st).unwrap();
    let want: u16 = 16 | 16 << 5 | 31 << 11;
    assert_eq!(image(&st)[..2], want.to_le_bytes());
    assert!(image(&st)[2..].iter().all(|&b| b == UNTOUCHED));
}

#[test]
fn what_is_not_modelled_stops_the_run_naming_instruction_and_lane() {
    let pbe = Pbe::rgba8(4, 2, 16);
    let fresh = || state((4, 2, 1, 4), |_| 0, &pbe, 32, (0, 0));
    let err = |src: &str, st: &mut State| exec(src, st).unwrap_err().to_string();

    // An unbound texture-state register.
    let e = err(
        "mov r0l, 0\nimgwblk r0l, ts5, r0, 0, 2d, u8norm",
        &mut fresh(),
    );
    assert!(
        e.contains("imgwblk") && e.contains("lane 0") && e.contains("ts5"),
        "{e}"
    );

    // A multisampled store through a single-sampled descriptor.
    let e = err(
        "mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d_ms, u8norm",
        &mut fresh(),
    );
    assert!(e.contains("imgwblk") && e.contains("dimension"), "{e}");

    // Explicit coordinates.
    let e = err(
        "mov r0l, 0\nimgwblk r0l, ts1, r0, 0, explicit_coords, 2d, u8norm",
        &mut fresh(),
    );
    assert!(e.contains("explicit block coordinates"), "{e}");

    // Lanes disagreeing on the offset: lane 3 is named.
    let mut st = fresh();
    st.set_gpr(3, 0, 16, 4).unwrap();
    let e = err("imgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st);
    assert!(e.contains("lane 3") && e.contains("tile offset 4"), "{e}");

    // A render target past the sample's bytes.
    let e = err(
        "mov r0l, 2\nimgwblk r0l, ts1, r0, 0, 2d, u8norm",
        &mut fresh(),
    );
    assert!(e.contains("bytes 4..5 of a 4-byte sample"), "{e}");

    // A twiddled descriptor (layout 2 at bit 4).
    let mut st = fresh();
    st.memory[0].bytes[24] |= 2 << 4;
    let e = err("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st);
    assert!(e.contains("layout 2") && e.contains("lane 0"), "{e}");

    // An image that does not fit the memory given: the fault names the address.
    let small = Pbe::rgba8(4, 4, 16);
    let mut st = state((4, 2, 1, 4), |_| 0, &small, 32, (0, 2));
    let e = err("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st);
    assert!(e.contains("0x2020"), "{e}");
}

#[test]
fn normalised_components_convert_by_value_into_wider_float_channels() {
    // u8norm bytes 0, 255, 51, 128 into an RGBA16 float image: 0, 1.0, 0.2, 128/255 as
    // half floats. 0.2 = 1.6 · 2^-3: exponent 12, fraction 0.6 · 1024 = 614.4 → 614;
    // 128/255 = 1.0039 · 2^-1: exponent 14, fraction 4.016 → 4.
    let pbe = Pbe {
        channels: 0x32,
        ty: 4,
        ..Pbe::rgba8(1, 1, 16)
    };
    let tile = [0u8, 255, 51, 128];
    let mut st = state((1, 1, 1, 4), |i| tile[i], &pbe, 16, (0, 0));
    exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st).unwrap();
    let want: Vec<u8> = [0u16, 0x3c00, 12 << 10 | 614, 14 << 10 | 4]
        .iter()
        .flat_map(|h| h.to_le_bytes())
        .collect();
    assert_eq!(image(&st)[..8], want[..]);

    // Into an integer image the block store has no rule: refused, naming the lane.
    let pbe = Pbe {
        channels: 0x28,
        ty: 2,
        ..Pbe::rgba8(1, 1, 16)
    };
    let mut st = state((1, 1, 1, 4), |i| tile[i], &pbe, 16, (0, 0));
    let e = exec("mov r0l, 0\nimgwblk r0l, ts1, r0, 0, 2d, u8norm", &mut st)
        .unwrap_err()
        .to_string();
    assert!(e.contains("lane 0") && e.contains("integer image"), "{e}");
}
