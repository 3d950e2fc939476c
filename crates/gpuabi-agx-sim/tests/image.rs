//! Bindless `imgw` and `smpi` on linear 2D images, with descriptors written here field by
//! field at the bit positions of the `Texture` and `PBE` structs of Mesa's
//! `src/asahi/genxml/cmdbuf.xml`, and pixel bytes worked out by hand.

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

const HEAP: u64 = 0x1000;
const IMAGE: u64 = 0x2000;

/// A 4×2 four-byte image of stride 32 (rows padded to 32 bytes), texture at heap index 0 and
/// PBE at index 1, 2D array.
fn rgba8_state(channels: u64, ty: u64, swizzle: [u64; 4]) -> State {
    let mut heap = vec![0u8; 48];
    {
        let t = &mut heap[..24];
        set_bits(t, 0, 4, 3); // 2D Array
        set_bits(t, 6, 7, channels);
        set_bits(t, 13, 3, ty);
        for (c, s) in swizzle.iter().enumerate() {
            set_bits(t, 16 + 3 * c as u32, 3, *s);
        }
        set_bits(t, 28, 14, 4 - 1);
        set_bits(t, 42, 14, 2 - 1);
        set_bits(t, 66, 36, IMAGE >> 4);
        // (stride − 16) / 16 with a 32-byte stride.
        set_bits(t, 110, 18, 1);
    }
    {
        let p = &mut heap[24..];
        set_bits(p, 0, 4, 3);
        set_bits(p, 6, 7, channels);
        set_bits(p, 13, 3, ty);
        for (c, s) in swizzle.iter().enumerate() {
            set_bits(p, 16 + 2 * c as u32, 2, *s);
        }
        set_bits(p, 24, 14, 4 - 1);
        set_bits(p, 38, 14, 2 - 1);
        set_bits(p, 64, 36, IMAGE >> 4);
        set_bits(p, 104, 21, 32 - 4);
    }
    let mut st = State {
        exec: 1,
        frag: Some(Box::new(Fragment::new(4, 2, 1, 8).unwrap())),
        memory: vec![
            Region {
                address: HEAP,
                bytes: heap,
            },
            Region {
                address: IMAGE,
                bytes: vec![0; 64],
            },
        ],
        ..State::default()
    };
    st.set_uniform(0, 64, HEAP).unwrap();
    // Lane 0 at pixel (3, 1).
    st.frag.as_mut().unwrap().pixel[0] = (3, 1);
    st
}

const PROGRAM: &str = "mfsr r10, thread_in_grid_x
mfsr r11, thread_in_grid_y
mov r12, 0
mov r1, 24
imgw r4_r5_r6_r7, du0, r1, r10, 0, 2d_array
mov r1, 0
mov r13l, 0
smpi r20_r21_r22_r23, du0, r1, ss0, r10, r13l, 2d_array, xyzw, lod_min, a
";

fn set_colour(st: &mut State, v: [f32; 4]) {
    for (c, x) in v.iter().enumerate() {
        st.set_gpr(0, 2 * (4 + c as u32), 32, u64::from(x.to_bits()))
            .unwrap();
    }
}

#[test]
fn rgba8_unorm_write_and_fetch_at_the_lanes_pixel() {
    let mut st = rgba8_state(0x28, 0, [0, 1, 2, 3]);
    set_colour(&mut st, [1.0, 0.5, 0.0, 0.25]);
    exec(PROGRAM, &mut st).unwrap();
    // Pixel (3, 1): row 1 at byte 32, column 3 at byte 12. 0.5 · 255 = 127.5 → 128 (even);
    // 0.25 · 255 = 63.75 → 64.
    let img = &st.memory[1].bytes;
    assert_eq!(&img[44..48], &[255, 128, 0, 64]);
    assert!(img[..44].iter().all(|&b| b == 0));
    let back: Vec<u32> = (0..4)
        .map(|c| st.read_gpr(0, 2 * (20 + c), 32).unwrap() as u32)
        .collect();
    assert_eq!(back[0], 1.0f32.to_bits());
    assert_eq!(back[1], (128.0f32 / 255.0).to_bits());
    assert_eq!(back[2], 0);
    assert_eq!(back[3], (64.0f32 / 255.0).to_bits());
}

#[test]
fn bgra_swizzle_stores_blue_first() {
    let mut st = rgba8_state(0x28, 0, [2, 1, 0, 3]);
    set_colour(&mut st, [1.0, 0.0, 0.2, 1.0]);
    exec(PROGRAM, &mut st).unwrap();
    // Memory channel 0 gets component 2 (blue): 0.2 · 255 = 51.
    assert_eq!(&st.memory[1].bytes[44..48], &[51, 0, 255, 255]);
    // And the fetch swaps back.
    assert_eq!(st.read_gpr(0, 40, 32).unwrap() as u32, 1.0f32.to_bits());
}

#[test]
fn uint_channels_keep_the_low_bits() {
    // R8G8B8A8 UINT (type 2): integers stored from the low bits, loaded zero-extended.
    let mut st = rgba8_state(0x28, 2, [0, 1, 2, 3]);
    for (c, v) in [7u64, 0x1ff, 0, 200].iter().enumerate() {
        st.set_gpr(0, 2 * (4 + c as u32), 32, *v).unwrap();
    }
    exec(PROGRAM, &mut st).unwrap();
    assert_eq!(&st.memory[1].bytes[44..48], &[7, 0xff, 0, 200]);
    assert_eq!(st.read_gpr(0, 42, 32).unwrap(), 0xff);
}

#[test]
fn a_pixel_outside_the_image_names_the_lane() {
    let mut st = rgba8_state(0x28, 0, [0, 1, 2, 3]);
    st.exec = 0b10;
    st.frag.as_mut().unwrap().pixel[1] = (3, 1);
    st.grid = [2, 0, 0];
    let e = exec(PROGRAM, &mut st).unwrap_err();
    match e {
        SimError::Image {
            lane, what, text, ..
        } => {
            assert_eq!(lane, 1);
            assert!(what.contains("outside the 4x2 image"), "{what}");
            assert!(text.starts_with("imgw"), "{text}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn a_twiddled_descriptor_is_refused() {
    let mut st = rgba8_state(0x28, 0, [0, 1, 2, 3]);
    // Layout 2 (twiddled) in the PBE.
    st.memory[0].bytes[24] |= 2 << 4;
    let e = exec(PROGRAM, &mut st).unwrap_err();
    assert!(e.to_string().contains("layout 2"), "{e}");
}

#[test]
fn an_unmapped_descriptor_faults() {
    let mut st = rgba8_state(0x28, 0, [0, 1, 2, 3]);
    st.set_uniform(0, 64, 0x9000).unwrap();
    let e = exec(PROGRAM, &mut st).unwrap_err();
    assert!(
        matches!(
            e,
            SimError::Fault {
                lane: 0,
                address: 0x9018,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn b5g6r5_packs_blue_in_the_low_bits() {
    // Channels R5G6B5 (0x0b), swizzle (2, 1, 0): memory channel 0 (bits 0-4) is blue.
    let mut st = rgba8_state(0x0b, 0, [2, 1, 0, 3]);
    set_colour(&mut st, [1.0, 0.5, 0.0, 1.0]);
    exec(PROGRAM, &mut st).unwrap();
    // Two bytes per pixel: pixel (3, 1) at 32 + 6. Blue 0, green 0.5 · 63 = 31.5 → 32,
    // red 31: 31 << 11 | 32 << 5 = 0xfc00.
    assert_eq!(&st.memory[1].bytes[38..40], &[0x00, 0xfc]);
    // The fetch: red 31/31, green 32/63, blue 0, alpha (swizzle 3, no such channel) 0.
    assert_eq!(st.read_gpr(0, 40, 32).unwrap() as u32, 1.0f32.to_bits());
    assert_eq!(
        st.read_gpr(0, 42, 32).unwrap() as u32,
        ((32.0f64 / 63.0) as f32).to_bits()
    );
    assert_eq!(st.read_gpr(0, 44, 32).unwrap(), 0);
}

#[test]
fn half_float_channels_round_fp32_data() {
    // R16G16B16A16 FLOAT (0x32, type 4): 8 bytes per pixel; pixel (1, 0) at byte 8.
    let mut st = rgba8_state(0x32, 4, [0, 1, 2, 3]);
    st.frag.as_mut().unwrap().pixel[0] = (1, 0);
    set_colour(&mut st, [1.0, -2.0, 0.1, 65504.0]);
    exec(PROGRAM, &mut st).unwrap();
    // fp16: 1.0 = 0x3c00, −2.0 = 0xc000, 0.1 → 0x2e66 (nearest), 65504 = 0x7bff.
    assert_eq!(
        &st.memory[1].bytes[8..16],
        &[0x00, 0x3c, 0x00, 0xc0, 0x66, 0x2e, 0xff, 0x7b]
    );
}

#[test]
fn a_coordinates_last_use_mark_is_only_a_hint() {
    // `^r10` sets the coordinate's last-use bit (Mesa prints Honeykrisp's background
    // programs with it); the fetch is the same.
    let marked = PROGRAM.replace("ss0, r10, r13l", "ss0, ^r10, r13l");
    assert_ne!(marked, PROGRAM);
    let fetch = |src: &str| {
        let mut st = rgba8_state(0x28, 0, [0, 1, 2, 3]);
        set_colour(&mut st, [1.0, 0.5, 0.0, 0.25]);
        exec(src, &mut st).unwrap();
        st
    };
    let plain = fetch(PROGRAM);
    assert_eq!(
        plain.read_gpr(0, 40, 32).unwrap(),
        u64::from(1.0f32.to_bits())
    );
    // Every register, uniform, memory byte and the tile are the same.
    assert_eq!(fetch(&marked), plain);
}

#[test]
fn multisampled_fetch_through_a_texture_state_register_reads_the_named_sample() {
    // A 2x1 R32_UINT texture of 4 samples bound to ts3; sample s of pixel x holds
    // 100·x + s at (x·4 + s)·4.
    let mut t = vec![0u8; 24];
    set_bits(&mut t, 0, 4, 4); // 2D Multisampled
    set_bits(&mut t, 6, 7, 0x21); // R32
    set_bits(&mut t, 13, 3, 2); // Uint
    for (c, s) in [0u64, 5, 5, 4].iter().enumerate() {
        set_bits(&mut t, 16 + 3 * c as u32, 3, *s);
    }
    set_bits(&mut t, 28, 14, 2 - 1);
    set_bits(&mut t, 42, 14, 1 - 1);
    set_bits(&mut t, 64, 1, 1); // 4 samples
    set_bits(&mut t, 66, 36, IMAGE >> 4);
    set_bits(&mut t, 110, 18, (32 - 16) / 16);
    let image: Vec<u8> = (0..2u32)
        .flat_map(|x| (0..4u32).flat_map(move |s| (100 * x + s).to_le_bytes()))
        .collect();
    let mut st = State {
        exec: 1,
        memory: vec![
            Region {
                address: HEAP,
                bytes: t,
            },
            Region {
                address: IMAGE,
                bytes: image,
            },
        ],
        ..State::default()
    };
    st.bind_texture_state(3, 1, HEAP);
    let fetch = "smpi r4, ts3, ss0, r0, 0, 2d_ms, x, auto_lod, a";
    for (r, v) in [(0, 1u64), (2, 0), (4, 3)] {
        st.set_gpr(0, r, 32, v).unwrap();
    }
    exec(fetch, &mut st).unwrap();
    assert_eq!(st.read_gpr(0, 8, 32).unwrap(), 103);
    // Sample 4 of a 4-sample image is outside it.
    st.set_gpr(0, 4, 32, 4).unwrap();
    let e = exec(fetch, &mut st).unwrap_err().to_string();
    assert!(
        e.contains("smpi") && e.contains("lane 0") && e.contains("4 samples"),
        "{e}"
    );
    // An unbound register is named.
    let e = exec("smpi r4, ts2, ss0, r0, 0, 2d_ms, x, auto_lod, a", &mut st)
        .unwrap_err()
        .to_string();
    assert!(e.contains("ts2"), "{e}");
}
