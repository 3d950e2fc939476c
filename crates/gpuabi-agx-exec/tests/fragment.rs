//! A fragment draw over a 4×2 tile cleared to one colour, one pixel without coverage, the
//! generated epilog storing location 0 to an RGBA8 UNORM target without blending: each
//! covered pixel's bytes are its colour converted here (`round(c · 255)`, no component
//! near a tie), the uncovered pixel keeps the clear. The same draw runs once with a main
//! shader (red from a plane, the rest constants) and once with the registers it leaves
//! given per pixel.

use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx_exec::fragment::{Outputs, Parts};
use gpuabi_agx_exec::{
    rt_rgba, FragmentDraw, FragmentError, FragmentProgram, Names, RgbaError, Tile,
};
use gpuabi_agx_isa::assemble;

const WIDTH: u32 = 4;
const HEIGHT: u32 = 2;
/// The pixel (row order) that starts without coverage.
const KILLED: usize = 5;
const CLEAR: [u8; 4] = [0x20, 0x20, 0x80, 0xff];

fn key() -> EpilogKey {
    EpilogKey {
        rts: vec![Some(EpilogRt {
            format: "R8G8B8A8_UNORM".into(),
            location: 0,
            size: 32,
            colormask: 0xf,
            blend: None,
        })],
        ..EpilogKey::default()
    }
}

fn draw() -> FragmentDraw {
    let mut coverage = vec![1u8; (WIDTH * HEIGHT) as usize];
    coverage[KILLED] = 0;
    FragmentDraw {
        width: WIDTH,
        height: HEIGHT,
        origin: [0, 0],
        blend_constant: None,
        stipple: [u32::MAX; 32],
        clears: vec![(0, CLEAR.to_vec())],
        // cf0 = x / 32 at the pixel centre.
        varyings: vec![(0, [1.0 / 32.0, 0.0, 0.0])],
        coverage: Some(coverage),
        uniform_coverage: false,
    }
}

/// The colour of pixel (x, y): red (x + 0.5) / 32, green 0.25, blue 1, alpha 0.75.
fn colour(x: u32) -> [f32; 4] {
    [(x as f32 + 0.5) / 32.0, 0.25, 1.0, 0.75]
}

fn unorm8(c: f32) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

const MAIN: &str = "\
iter r4, cf0
ldimm r5, 1048576000
ldimm r6, 1065353216
ldimm r7, 1061158912
";

fn check(out: &gpuabi_agx_exec::FragmentOutcome) {
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert_eq!(out.samples.len(), (WIDTH * HEIGHT) as usize);
    for (p, s) in out.samples.iter().enumerate() {
        assert_eq!(
            (s.x, s.y, s.sample),
            (p as u32 % WIDTH, p as u32 / WIDTH, 0)
        );
        let bytes = s.rt[0].as_deref().expect("render target 0 is bound");
        if p == KILLED {
            assert!(!s.covered);
            assert_eq!(bytes, CLEAR);
        } else {
            assert!(s.covered);
            assert_eq!(bytes, colour(s.x).map(unorm8), "pixel {p}");
        }
        assert_eq!((s.depth, s.stencil), (None, None));
    }
}

#[test]
fn main_shader_and_epilog_store_the_colour() {
    let key = key();
    let names = Names::default();
    let tile = Tile::new(&key, &draw(), &names).unwrap();
    let epilog = fragment_epilog(&key).unwrap().code;
    let main = assemble(MAIN, "main.s").unwrap().bytes;
    let program = FragmentProgram::link(
        &key,
        "key",
        Parts {
            prolog: None,
            main: &main,
            epilog: &epilog,
        },
    )
    .unwrap();
    let out = tile.run(&program, None, [0.0; 4], true).unwrap();
    check(&out);
    // Read back as RGBA8: an 8-bit UNORM byte loads as c / 255 and converts back to c.
    let rgba = rt_rgba(&out.fragment, &out.layout, 0, "R8G8B8A8_UNORM").unwrap();
    let stored: Vec<u8> = out
        .samples
        .iter()
        .flat_map(|s| s.rt[0].clone().unwrap())
        .collect();
    assert_eq!(rgba, stored);
    assert_eq!(
        rt_rgba(&out.fragment, &out.layout, 1, "R8G8B8A8_UNORM").unwrap_err(),
        RgbaError::Spilled(1)
    );
    // Seven covered pixels in one group: the main shader and the epilog ran once.
    let stats = out.stats.expect("asked for");
    let main_counts = stats
        .parts()
        .into_iter()
        .find(|(n, _)| *n == "main")
        .expect("the main shader ran")
        .1
        .clone();
    assert_eq!(main_counts.total(), 4);
    assert_eq!(
        main_counts.instructions(),
        vec![("iter", 1), ("ldimm32", 3)]
    );
}

#[test]
fn outputs_stand_for_the_main_shader() {
    let key = key();
    let names = Names {
        key: "K.toml".into(),
        draw: "D.toml".into(),
    };
    let epilog = fragment_epilog(&key).unwrap().code;
    let program = FragmentProgram::link(
        &key,
        "K.toml",
        Parts {
            prolog: None,
            main: &[],
            epilog: &epilog,
        },
    )
    .unwrap();
    let mut outputs = Outputs::new();
    for p in 0..WIDTH * HEIGHT {
        let (x, y) = (p % WIDTH, p / WIDTH);
        let regs = colour(x)
            .iter()
            .enumerate()
            .map(|(c, v)| (8 + 2 * c as u16, 32, u64::from(v.to_bits())))
            .collect();
        outputs.insert((x, y, 0), regs);
    }
    let tile = Tile::new(&key, &draw(), &names).unwrap();
    check(
        &tile
            .run(&program, Some(("O.json", &outputs)), [0.0; 4], false)
            .unwrap(),
    );
    // Without the entry of pixel (1, 0) the run names it.
    outputs.remove(&(1, 0, 0));
    let tile = Tile::new(&key, &draw(), &names).unwrap();
    let e = tile
        .run(&program, Some(("O.json", &outputs)), [0.0; 4], false)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "O.json: pixels: no entry for pixel (1, 0) sample 0 (1 pixel samples without an entry)"
    );
}

#[test]
fn tile_errors_name_the_draw() {
    let names = Names {
        key: "K.toml".into(),
        draw: "D.toml".into(),
    };
    let mut d = draw();
    d.coverage = Some(vec![3]);
    d.uniform_coverage = true;
    let e = Tile::new(&key(), &d, &names).unwrap_err();
    assert!(matches!(
        e,
        FragmentError::Coverage {
            mask: 3,
            samples: 1,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "D.toml: coverage: 0x3 names a sample the key's 1 sample(s) lack (expected a mask below 0x2)"
    );
    let mut d = draw();
    d.width = 0;
    assert!(Tile::new(&key(), &d, &names)
        .unwrap_err()
        .to_string()
        .starts_with("D.toml: width, height: "));
}
