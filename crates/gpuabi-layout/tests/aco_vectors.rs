//! The test vectors of the ACO call specification (spec/aco-calls.md §3.4, §5, §6.11),
//! with expected values transcribed from the spec's tables.
//!
//! One rule differs from the specification, which follows an earlier revision of Mesa's
//! call series: Mesa 26.1 marks the return address a return parameter
//! (`aco_isel_helpers.cpp`, `get_callee_info`), so where an ABI has preserved registers it
//! goes to the clobbered ones (RADV's AHIT_ISEC functions take it in s[80:81], as their
//! `p_startpgm` shows). The vectors with preserved registers (V3, V4, V6) are worked out
//! by hand again with that rule; the derivation is beside each.

use gpuabi_layout::aco::{
    assign, parse_signature, register_ranges, Abi, AcoError, AssignRequest, Demand, Gfx, Hints,
    Location, Policy, RegisterBlock, Target,
};
use gpuabi_layout::reg::{RegFile, RegRange, RegSet};

fn block(c: (u16, u16), p: (u16, u16), clobbered_first: bool) -> RegisterBlock {
    RegisterBlock {
        clobbered: Demand::new(c.0, c.1),
        preserved: Demand::new(p.0, p.1),
        clobbered_first,
    }
}

fn abi(block: RegisterBlock, max: Option<Demand>) -> Abi {
    Abi {
        name: "test".into(),
        block,
        max_param_demand: max,
    }
}

fn all_clobbered() -> RegisterBlock {
    block((128, 256), (0, 0), true)
}

fn runs(text: &[&str]) -> Vec<RegRange> {
    text.iter().map(|t| t.parse().unwrap()).collect()
}

/// Runs an assignment and returns `name -> (location text, nep)` in output order.
fn run(
    abi: &Abi,
    gfx: Gfx,
    wave: u32,
    limit: (u16, u16),
    sig: &str,
    policy: Policy,
    hints: Option<&Hints>,
) -> Result<Vec<(String, String, bool)>, AcoError> {
    let signature = parse_signature(sig).unwrap();
    let a = assign(&AssignRequest {
        abi,
        target: Target::new(gfx, wave).unwrap(),
        limit: Demand::new(limit.0, limit.1),
        signature: &signature,
        policy,
        hints,
    })?;
    Ok(a.params
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.location.to_string(),
                p.needs_explicit_preservation,
            )
        })
        .collect())
}

fn expect(got: &[(String, String, bool)], want: &[(&str, &str, bool)]) {
    let want: Vec<(String, String, bool)> = want
        .iter()
        .map(|(n, l, e)| (n.to_string(), l.to_string(), *e))
        .collect();
    assert_eq!(got, want.as_slice());
}

#[test]
fn seed_example_a_with_corrected_end_register() {
    let r = register_ranges(&block((16, 16), (16, 16), false), Demand::new(108, 128)).unwrap();
    assert_eq!(
        r.preserved_runs(RegFile::Sgpr),
        runs(&["s[0:15]", "s[32:47]", "s[64:79]", "s[96:107]"])
    );
    assert_eq!(
        r.clobbered_runs(RegFile::Sgpr),
        runs(&["s[16:31]", "s[48:63]", "s[80:95]"])
    );
    assert_eq!(
        r.preserved_runs(RegFile::Vgpr),
        runs(&["v[0:15]", "v[32:47]", "v[64:79]", "v[96:111]"])
    );
    assert_eq!(
        r.clobbered_runs(RegFile::Vgpr),
        runs(&["v[16:31]", "v[48:63]", "v[80:95]", "v[112:127]"])
    );
    assert_eq!(
        (
            r.num_preserved(RegFile::Sgpr),
            r.num_clobbered(RegFile::Sgpr)
        ),
        (60, 48)
    );
    assert_eq!(
        (
            r.num_preserved(RegFile::Vgpr),
            r.num_clobbered(RegFile::Vgpr)
        ),
        (64, 64)
    );
}

#[test]
fn seed_example_b_with_corrected_end_register() {
    let r = register_ranges(&block((128, 256), (80, 80), false), Demand::new(108, 128)).unwrap();
    assert_eq!(r.preserved_runs(RegFile::Sgpr), runs(&["s[0:79]"]));
    assert_eq!(r.clobbered_runs(RegFile::Sgpr), runs(&["s[80:107]"]));
    assert_eq!(r.preserved_runs(RegFile::Vgpr), runs(&["v[0:79]"]));
    assert_eq!(r.clobbered_runs(RegFile::Vgpr), runs(&["v[80:127]"]));
    assert_eq!(
        (
            r.num_preserved(RegFile::Sgpr),
            r.num_clobbered(RegFile::Sgpr)
        ),
        (80, 28)
    );
    assert_eq!(
        (
            r.num_preserved(RegFile::Vgpr),
            r.num_clobbered(RegFile::Vgpr)
        ),
        (80, 48)
    );
}

#[test]
fn registers_at_or_above_the_limit_count_as_clobbered() {
    let r = register_ranges(&block((128, 256), (80, 80), false), Demand::new(108, 128)).unwrap();
    let clobbered = r.clobbered();
    assert!(clobbered.contains(gpuabi_layout::reg::Reg::sgpr(108)));
    assert!(clobbered.contains(gpuabi_layout::reg::Reg::vgpr(200)));
    assert!(!clobbered.contains(gpuabi_layout::reg::Reg::sgpr(79)));
}

#[test]
fn builtin_abis_on_every_target_and_wave() {
    // Default limits from spec §4; layouts from the table of spec §5.
    let targets = [
        (Gfx::Gfx8, 64, (102, 128)),
        (Gfx::Gfx9, 64, (102, 128)),
        (Gfx::Gfx1030, 64, (108, 128)),
        (Gfx::Gfx1030, 32, (108, 128)),
        (Gfx::Gfx1100, 64, (108, 144)),
        (Gfx::Gfx1100, 32, (108, 144)),
    ];
    for (gfx, wave, (s, v)) in targets {
        let target = Target::new(gfx, wave).unwrap();
        let limit = target.default_limit(Default::default());
        assert_eq!(limit, Demand::new(s, v));
        for name in ["rt-recursive", "traversal"] {
            let r = register_ranges(&Abi::builtin(name).unwrap().block, limit).unwrap();
            assert!(r.preserved.is_empty(), "{name} on {target}");
            assert_eq!(
                r.clobbered_runs(RegFile::Sgpr),
                vec![RegRange::new(RegFile::Sgpr, 0, s)]
            );
            assert_eq!(
                r.clobbered_runs(RegFile::Vgpr),
                vec![RegRange::new(RegFile::Vgpr, 0, v)]
            );
        }
        let r = register_ranges(&Abi::builtin("ahit-isec").unwrap().block, limit).unwrap();
        assert_eq!(r.preserved_runs(RegFile::Sgpr), runs(&["s[0:79]"]));
        assert_eq!(r.preserved_runs(RegFile::Vgpr), runs(&["v[0:79]"]));
        assert_eq!(
            r.clobbered_runs(RegFile::Sgpr),
            vec![RegRange::new(RegFile::Sgpr, 80, s - 80)]
        );
        assert_eq!(
            r.clobbered_runs(RegFile::Vgpr),
            vec![RegRange::new(RegFile::Vgpr, 80, v - 80)]
        );
    }
}

#[test]
fn degenerate_blocks_and_limits() {
    let zero = block((0, 4), (0, 4), false);
    assert_eq!(
        register_ranges(&zero, Demand::new(108, 128)),
        Err(AcoError::DegenerateBlock {
            file: RegFile::Sgpr
        })
    );
    assert!(matches!(
        register_ranges(&all_clobbered(), Demand::new(129, 128)),
        Err(AcoError::LimitOutOfRange {
            file: RegFile::Sgpr,
            ..
        })
    ));
    assert!(matches!(
        register_ranges(&all_clobbered(), Demand::new(100, 257)),
        Err(AcoError::LimitOutOfRange {
            file: RegFile::Vgpr,
            ..
        })
    ));
    // P = 0 with the preserved part first: nothing preserved, and a warning.
    let r = register_ranges(&block((8, 8), (0, 8), false), Demand::new(32, 32)).unwrap();
    assert_eq!(r.num_preserved(RegFile::Sgpr), 0);
    assert_eq!(r.num_preserved(RegFile::Vgpr), 16);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn mesa_clobbered_formula_over_counts_in_one_corner() {
    use gpuabi_layout::aco::num_clobbered_mesa;
    // Spec §3.2: clobbered_first and L mod stride > C. P = 4, C = 2, L = 9: stride 6, rem 3.
    let b = block((2, 2), (4, 4), true);
    let r = register_ranges(&b, Demand::new(9, 9)).unwrap();
    // By hand: [C C P P P P][C C P] -> clobbered s0-1, s6-7 = 4.
    assert_eq!(r.num_clobbered(RegFile::Sgpr), 4);
    assert_eq!(num_clobbered_mesa(&b, RegFile::Sgpr, 9), 5);
    // Seed example A agrees with the formula.
    assert_eq!(
        num_clobbered_mesa(&block((16, 16), (16, 16), false), RegFile::Sgpr, 108),
        48
    );
}

#[test]
fn v1_filler_and_discardability() {
    let abi = abi(all_clobbered(), None);
    let sig = "y: u64 uniform, a: u32 uniform discardable, b: u32 uniform";
    let common = [
        ("return_address", "s[0:1]", true),
        ("stack_pointer", "s4", true),
        ("divergent_pc", "v[0:1]", true),
        ("uniform_pc", "s[2:3]", true),
    ];
    let mesa = run(&abi, Gfx::Gfx9, 64, (108, 128), sig, Policy::Mesa, None).unwrap();
    let mut want = common.to_vec();
    want.extend([("y", "s[6:7]", true), ("a", "s5", false), ("b", "s8", true)]);
    expect(&mesa, &want);
    let packed = run(&abi, Gfx::Gfx9, 64, (108, 128), sig, Policy::Packed, None).unwrap();
    let mut want = common.to_vec();
    want.extend([("y", "s[6:7]", true), ("a", "s8", false), ("b", "s5", true)]);
    expect(&packed, &want);
}

#[test]
fn v2_mesa_accepts_a_misaligned_filler_at_s1() {
    let abi = abi(all_clobbered(), None);
    let mut avoid = RegSet::new();
    avoid.insert_range("s0".parse().unwrap());
    let hints = Hints {
        avoid,
        affinity: vec![],
    };
    let mesa = run(
        &abi,
        Gfx::Gfx8,
        64,
        (102, 128),
        "x: u32 uniform",
        Policy::Mesa,
        Some(&hints),
    )
    .unwrap();
    expect(
        &mesa,
        &[
            ("return_address", "s[1:2]", true),
            ("stack_pointer", "s[4:7]", true),
            ("divergent_pc", "v[0:1]", true),
            ("uniform_pc", "s[8:9]", true),
            ("x", "s3", true),
        ],
    );
    let packed = run(
        &abi,
        Gfx::Gfx8,
        64,
        (102, 128),
        "x: u32 uniform",
        Policy::Packed,
        Some(&hints),
    )
    .unwrap();
    expect(
        &packed,
        &[
            ("return_address", "s[2:3]", true),
            ("stack_pointer", "s[4:7]", true),
            ("divergent_pc", "v[0:1]", true),
            ("uniform_pc", "s[8:9]", true),
            ("x", "s1", true),
        ],
    );
}

#[test]
fn v3_padded_range_does_not_fit() {
    // Preserved first, 2 preserved and 3 clobbered: preserved s0-s1, s5-s6, s10-s11, ...
    // (period 5 below the limit of 32), clobbered s2-s4, s7-s9, ... and everything from s32.
    // Processing order: return_address, divergent_pc, uniform_pc, stack_pointer, y, w.
    // - return_address (a return parameter): clobbered first fit s[2:3], aligned.
    // - divergent_pc: clobbered v[2:3]. uniform_pc: s4 alone, then s[7:8] misaligned; the
    //   padded s7-s9 fits, no discardable SGPR filler is left: s[8:9].
    // - stack_pointer: preserved s0.
    // - y: preserved s1 alone, s[5:6] misaligned, padded s5-s7 runs into clobbered s7:
    //   mesa sends it to scratch, packed takes the next aligned pair s[10:11].
    // - w: the same again: scratch +8 (mesa), s[20:21] after s15-s16 (packed).
    let abi = abi(block((3, 3), (2, 2), false), None);
    let sig = "y: u64 uniform, w: u64 uniform";
    let common = [
        ("return_address", "s[2:3]", true),
        ("stack_pointer", "s0", true),
        ("divergent_pc", "v[2:3]", true),
        ("uniform_pc", "s[8:9]", true),
    ];
    let mesa = run(&abi, Gfx::Gfx9, 64, (32, 32), sig, Policy::Mesa, None).unwrap();
    let mut want = common.to_vec();
    want.push(("y", "scratch +0", false));
    want.push(("w", "scratch +8", false));
    expect(&mesa, &want);
    let packed = run(&abi, Gfx::Gfx9, 64, (32, 32), sig, Policy::Packed, None).unwrap();
    let mut want = common.to_vec();
    want.push(("y", "s[10:11]", false));
    want.push(("w", "s[20:21]", false));
    expect(&packed, &want);
}

#[test]
fn v4_forced_parameter_cannot_be_placed() {
    // Clobbered first, C = P = 1 SGPR: clobbered s0, s2, s4, ... below the limit of 32, so
    // no two clobbered SGPRs are adjacent there. The return address (a return parameter,
    // forced into registers) needs a clobbered pair: mesa finds s[32:33], at the limit,
    // where its clobbered set goes on (hazard H3, a warning); packed keeps to the registers
    // below the limit and cannot place it.
    let abi = abi(block((1, 256), (1, 0), true), None);
    let sig = "y: u64 uniform, z: u32 uniform";
    let mesa = run(&abi, Gfx::Gfx9, 64, (32, 32), sig, Policy::Mesa, None).unwrap();
    assert_eq!(mesa[0], ("return_address".into(), "s[32:33]".into(), true));
    assert_eq!(
        run(&abi, Gfx::Gfx9, 64, (32, 32), sig, Policy::Packed, None),
        Err(AcoError::ForcedParamUnplaceable("return_address".into()))
    );
}

#[test]
fn v5_demand_limit_and_scratch_offsets() {
    let abi = abi(all_clobbered(), Some(Demand::new(8, 4)));
    let sig = "a: f32x4, b: u32, c: u64 uniform, d: u32x3 uniform, e: u32 uniform, f: bool, g: u32";
    for policy in [Policy::Mesa, Policy::Packed] {
        let signature = parse_signature(sig).unwrap();
        let a = assign(&AssignRequest {
            abi: &abi,
            target: Target::new(Gfx::Gfx9, 64).unwrap(),
            limit: Demand::new(108, 128),
            signature: &signature,
            policy,
            hints: None,
        })
        .unwrap();
        let got: Vec<(String, String, bool)> = a
            .params
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.location.to_string(),
                    p.needs_explicit_preservation,
                )
            })
            .collect();
        expect(
            &got,
            &[
                ("return_address", "s[0:1]", true),
                ("stack_pointer", "s4", true),
                ("divergent_pc", "v[0:1]", true),
                ("uniform_pc", "s[2:3]", true),
                ("a", "scratch +0", false),
                ("b", "v2", true),
                ("c", "s[6:7]", true),
                ("d", "scratch +24", false),
                ("e", "s5", true),
                ("f", "scratch +16", false),
                ("g", "v3", true),
            ],
        );
        assert_eq!(a.scratch_param_size, 36, "{policy:?}");
        assert_eq!(a.demand, Demand::new(8, 4), "{policy:?}");
    }
}

#[test]
fn v6_preserved_and_clobbered_parameters() {
    // Preserved first, 8 and 8: preserved s0-s7, v0-v7; clobbered s8-s15, v8-v15; ...
    // Order: return_address, divergent_pc, uniform_pc, stack_pointer, s, a, b, r.
    // return_address (a return parameter) s[8:9]; divergent_pc v[8:9]; uniform_pc
    // s[10:11]; stack_pointer s0; s: s[1:2] misaligned, padded s1-s3 fits, no SGPR filler:
    // s[2:3]; a: preserved v0; b (discardable): clobbered v10; r (return): v11, handed back
    // explicitly.
    let abi = abi(block((8, 8), (8, 8), false), None);
    let sig = "a: u32, b: u32 discardable, r: u32 return, s: u64 uniform";
    for policy in [Policy::Mesa, Policy::Packed] {
        let got = run(&abi, Gfx::Gfx9, 64, (32, 32), sig, policy, None).unwrap();
        expect(
            &got,
            &[
                ("return_address", "s[8:9]", true),
                ("stack_pointer", "s0", true),
                ("divergent_pc", "v[8:9]", true),
                ("uniform_pc", "s[10:11]", true),
                ("a", "v0", false),
                ("b", "v10", false),
                ("r", "v11", true),
                ("s", "s[2:3]", false),
            ],
        );
    }
}

#[test]
fn v7_lane_masks() {
    let abi = abi(all_clobbered(), None);
    let sig = "m: bool, n: boolx4 uniform";
    let w32 = run(&abi, Gfx::Gfx1030, 32, (108, 128), sig, Policy::Mesa, None).unwrap();
    assert_eq!(
        &w32[4..],
        &[
            ("m".into(), "s5".into(), true),
            ("n".into(), "s6".into(), true)
        ]
    );
    let w64 = run(&abi, Gfx::Gfx9, 64, (108, 128), sig, Policy::Mesa, None).unwrap();
    assert_eq!(
        &w64[4..],
        &[
            ("m".into(), "s[6:7]".into(), true),
            ("n".into(), "s[8:9]".into(), true)
        ]
    );
}

#[test]
fn uniform_return_parameters_are_rejected() {
    use gpuabi_layout::aco::{Param, ScalarType, Signature};
    let signature = Signature {
        params: vec![Param::new("p", ScalarType::U32, 1).uniform().returned()],
    };
    let abi = abi(all_clobbered(), None);
    let err = assign(&AssignRequest {
        abi: &abi,
        target: Target::new(Gfx::Gfx9, 64).unwrap(),
        limit: Demand::new(108, 128),
        signature: &signature,
        policy: Policy::Mesa,
        hints: None,
    })
    .unwrap_err();
    assert_eq!(err, AcoError::UniformReturnParam("p".into()));
}

#[test]
fn demand_limit_below_the_forced_parameters_is_an_error() {
    let abi = abi(all_clobbered(), Some(Demand::new(3, 48)));
    let got = run(&abi, Gfx::Gfx9, 64, (108, 128), "", Policy::Mesa, None);
    assert_eq!(
        got,
        Err(AcoError::ForcedParamUnplaceable("uniform_pc".into()))
    );
}

#[test]
fn location_json_shape() {
    let reg = serde_json::to_value(Location::Reg("s[0:1]".parse().unwrap())).unwrap();
    assert_eq!(reg, serde_json::json!("s[0:1]"));
    let scratch = serde_json::to_value(Location::Scratch { offset: 24 }).unwrap();
    assert_eq!(scratch, serde_json::json!({"scratch_offset": 24}));
}

/// Mesa keeps the clobbered registers at or above the limit available, so once s0-s7 are
/// taken a discardable parameter lands on s8, which the program cannot use; the packed
/// policy sends it to scratch. Hand-computed: the system parameters and the 64-bit `a`
/// (aligned first) take s[0:1], s[2:3], s4 and s[6:7]; `b` fills s5.
#[test]
fn parameters_at_or_above_the_limit() {
    let abi = abi(all_clobbered(), None);
    let sig = "a: u64 uniform, b: u32 uniform, c: u32 uniform discardable";
    let common = [
        ("return_address", "s[0:1]", true),
        ("stack_pointer", "s4", true),
        ("divergent_pc", "v[0:1]", true),
        ("uniform_pc", "s[2:3]", true),
        ("a", "s[6:7]", true),
        ("b", "s5", true),
    ];
    let mesa = run(&abi, Gfx::Gfx9, 64, (8, 8), sig, Policy::Mesa, None).unwrap();
    let mut want = common.to_vec();
    want.push(("c", "s8", false));
    expect(&mesa, &want);
    let packed = run(&abi, Gfx::Gfx9, 64, (8, 8), sig, Policy::Packed, None).unwrap();
    let mut want = common.to_vec();
    want.push(("c", "scratch +0", false));
    expect(&packed, &want);
}
