//! The fragment register table (spec §5.1) and its errors.

use gpuabi_agx::fragment::{fragment_abi, ColorOutput, FragmentError, FragmentInput};

fn color(text: &str) -> ColorOutput {
    text.parse().unwrap()
}

/// (half, register name) of every slot.
fn table(abi: &gpuabi_agx::FragmentAbi) -> Vec<(u16, String)> {
    abi.registers
        .iter()
        .map(|r| (r.half, r.reg.to_string()))
        .collect()
}

#[test]
fn full_register_table() {
    let abi = fragment_abi(&FragmentInput {
        colors: vec![color("0:f32x4"), color("1:f16x4")],
        dual_source: None,
        depth: true,
        stencil: true,
        sample_shading: true,
        early_tests_with_discard: true,
    })
    .unwrap();
    // Hand-written from the spec: r0l, r1l, r2, r3l, r3h, location 0 (32-bit) in r4..r7,
    // location 1 (16-bit, packed) in r8l, r8h, r9l, r9h.
    let expected: Vec<(u16, String)> = [
        (0, "r0l"),
        (2, "r1l"),
        (4, "r2"),
        (6, "r3l"),
        (7, "r3h"),
        (8, "r4"),
        (10, "r5"),
        (12, "r6"),
        (14, "r7"),
        (16, "r8l"),
        (17, "r8h"),
        (18, "r9l"),
        (19, "r9h"),
    ]
    .into_iter()
    .map(|(h, r)| (h, r.to_string()))
    .collect();
    assert_eq!(table(&abi), expected);
    assert_eq!(abi.link_info.loc_written, 0b11);
    assert_eq!(abi.link_info.size_32, 0b01);
    assert_eq!(abi.main_inputs.len(), 2);
    assert_eq!(abi.first_free_uniform_half, 16);
    let u: Vec<(u16, u16, String)> = abi
        .uniforms
        .iter()
        .map(|u| (u.half, u.size_halves, u.reg.to_string()))
        .collect();
    assert_eq!(
        u,
        [
            (0, 4, "u0_u1".to_string()),
            (4, 2, "u2".to_string()),
            (6, 2, "u3".to_string()),
            (8, 2, "u4".to_string()),
            (10, 2, "u5".to_string()),
            (12, 4, "u6_u7".to_string()),
        ]
    );
}

#[test]
fn every_location_and_width() {
    for loc in 0..8u16 {
        for (bits, per) in [(32, 2u16), (16, 1)] {
            let abi = fragment_abi(&FragmentInput {
                colors: vec![color(&format!("{loc}:u{bits}x4"))],
                ..FragmentInput::default()
            })
            .unwrap();
            let halves: Vec<u16> = abi.registers.iter().map(|r| r.half).collect();
            let base = 8 + 8 * loc;
            assert_eq!(halves, (0..4).map(|c| base + per * c).collect::<Vec<_>>());
            // Location i starts at r(4(i+1)).
            let first = abi.registers[0].reg.to_string();
            let want = if bits == 32 {
                format!("r{}", 4 * (loc + 1))
            } else {
                format!("r{}l", 4 * (loc + 1))
            };
            assert_eq!(first, want);
        }
    }
    let all: Vec<ColorOutput> = (0..8).map(|l| color(&format!("{l}:f32x4"))).collect();
    let abi = fragment_abi(&FragmentInput {
        colors: all,
        ..FragmentInput::default()
    })
    .unwrap();
    assert_eq!(abi.registers.last().unwrap().reg.to_string(), "r35");
    assert_eq!(abi.epilog_input_halves, 72);
}

#[test]
fn no_sample_shading_no_inputs() {
    let abi = fragment_abi(&FragmentInput {
        colors: vec![color("0:f16x2")],
        ..FragmentInput::default()
    })
    .unwrap();
    assert!(abi.main_inputs.is_empty());
    assert!(abi.prolog.register_inputs.is_empty());
    assert_eq!(
        table(&abi),
        [(8, "r4l".to_string()), (9, "r4h".to_string())]
    );
}

#[test]
fn dual_source_is_location_1() {
    let abi = fragment_abi(&FragmentInput {
        colors: vec![color("0:f32x4")],
        dual_source: Some("f32x4".parse().unwrap()),
        ..FragmentInput::default()
    })
    .unwrap();
    let dual: Vec<String> = abi
        .registers
        .iter()
        .filter(|r| r.meaning.starts_with("dual-source"))
        .map(|r| r.reg.to_string())
        .collect();
    assert_eq!(dual, ["r8", "r9", "r10", "r11"]);
    assert_eq!(abi.link_info.loc_written, 0b11);
}

#[test]
fn errors() {
    let run = |colors: &[&str], dual: Option<&str>| {
        fragment_abi(&FragmentInput {
            colors: colors.iter().map(|c| color(c)).collect(),
            dual_source: dual.map(|d| d.parse().unwrap()),
            ..FragmentInput::default()
        })
        .unwrap_err()
    };
    assert_eq!(
        run(&["0:f32x4", "1:f32x4"], Some("f32x4")),
        FragmentError::DualSourceConflict
    );
    assert_eq!(run(&["8:f32x4"], None), FragmentError::TooManyLocations(8));
    assert_eq!(
        run(&["2:f32x4", "2:f16x1"], None),
        FragmentError::DuplicateLocation(2)
    );
    assert_eq!(
        run(&["2:f32x4"], Some("f16")),
        FragmentError::DualSourceWithoutLocation0
    );
    for bad in ["0:f8x4", "0:f32x5", "x:f32", "0f32", "0:q16"] {
        assert!(bad.parse::<ColorOutput>().is_err(), "{bad}");
    }
}
