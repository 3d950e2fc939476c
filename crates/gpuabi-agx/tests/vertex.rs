//! The vertex ABI against the seed's and Mesa's formulas, computed here independently.

use gpuabi_agx::vertex::{vertex_abi, VertexError, VertexInput};
use gpuabi_agx::{Components, Profile, VsStage};
use proptest::prelude::*;

/// First free uniform half, straight from the spec's table (§3.3).
fn expected_first_free(profile: Profile, stage: VsStage, n: u16) -> u16 {
    match (profile, stage) {
        (Profile::Readme, VsStage::Hardware) => 6 * n + 5,
        (Profile::Readme, VsStage::Compute) => 6 * n + 12,
        (Profile::Gl, VsStage::Hardware) => 6 * n + 4,
        (Profile::Gl, VsStage::Compute) => 6 * n + 12,
        (Profile::Vk, _) => (6 * n + 12).div_ceil(4) * 4,
    }
}

fn abi(components: Components, stage: VsStage, profile: Profile) -> gpuabi_agx::VertexAbi {
    vertex_abi(&VertexInput {
        components,
        stage,
        profile,
    })
    .unwrap()
}

fn uniform_at(abi: &gpuabi_agx::VertexAbi, half: u16) -> &gpuabi_agx::UniformSlot {
    abi.uniforms
        .iter()
        .find(|u| u.half == half)
        .unwrap_or_else(|| panic!("no uniform at half {half}"))
}

#[test]
fn formulas_for_n_0_to_16_in_every_profile() {
    for profile in Profile::ALL {
        for stage in [VsStage::Hardware, VsStage::Compute] {
            for n in 0..=16u16 {
                let a = abi(Components::all_of_first(n).unwrap(), stage, profile);
                let ctx = format!("{profile:?} {stage:?} n={n}");
                assert_eq!(a.n, n, "{ctx}");
                assert_eq!(
                    a.first_free_uniform_half,
                    expected_first_free(profile, stage, n),
                    "{ctx}"
                );
                for i in 0..n {
                    let base = uniform_at(&a, 4 * i);
                    assert_eq!(base.size_halves, 4, "{ctx}");
                    assert!(base.meaning.contains("base address"), "{ctx}");
                    let clamp = uniform_at(&a, 4 * n + 2 * i);
                    assert_eq!(clamp.size_halves, 2, "{ctx}");
                    assert!(clamp.meaning.contains("clamp"), "{ctx}");
                }
                assert!(uniform_at(&a, 6 * n).meaning.starts_with("first vertex"));
                assert!(uniform_at(&a, 6 * n + 2)
                    .meaning
                    .starts_with("base instance"));
                let has_draw_id = profile != Profile::Gl;
                assert_eq!(
                    a.uniforms.iter().any(|u| u.half == 6 * n + 4
                        && u.size_halves == 1
                        && u.meaning.starts_with("draw id")),
                    has_draw_id,
                    "{ctx}"
                );
                if stage == VsStage::Compute {
                    let ia = uniform_at(&a, 6 * n + 8);
                    assert_eq!(ia.size_halves, 4);
                    assert!(ia.meaning.starts_with("input-assembly"), "{ctx}");
                }
                // The block tiles 0..first_free with no gap and no overlap.
                let mut end = 0;
                for u in &a.uniforms {
                    assert_eq!(u.half, end, "{ctx}: gap or overlap at {}", u.reg);
                    end += u.size_halves;
                }
                assert_eq!(end, a.first_free_uniform_half, "{ctx}");
                // Attribute component k = 4a + c in r(8 + k), i.e. half 16 + 2k.
                for k in 0..4 * n {
                    let r = a
                        .registers
                        .iter()
                        .find(|r| r.half == 16 + 2 * k)
                        .unwrap_or_else(|| panic!("{ctx}: component {k} missing"));
                    assert_eq!(r.reg.to_string(), format!("r{}", 8 + k));
                    assert_eq!(
                        r.meaning,
                        format!(
                            "attrib {}.{}",
                            k / 4,
                            ["x", "y", "z", "w"][(k % 4) as usize]
                        )
                    );
                }
                let r4_written = stage == VsStage::Compute && profile != Profile::Readme;
                assert_eq!(a.registers.iter().any(|r| r.half == 8), r4_written, "{ctx}");
                assert!(a
                    .registers
                    .iter()
                    .any(|r| r.half == 10 && r.reg.to_string() == "r5"));
                assert!(a
                    .registers
                    .iter()
                    .any(|r| r.half == 12 && r.reg.to_string() == "r6"));
            }
        }
    }
}

#[test]
fn spec_example_n1_names() {
    let a = abi(
        Components::parse_list("0:x").unwrap(),
        VsStage::Compute,
        Profile::Readme,
    );
    let names: Vec<(u16, String)> = a
        .uniforms
        .iter()
        .map(|u| (u.half, u.reg.to_string()))
        .collect();
    assert_eq!(
        names,
        [
            (0, "u0_u1".to_string()),
            (4, "u2".to_string()),
            (6, "u3".to_string()),
            (8, "u4".to_string()),
            (10, "u5l".to_string()),
            (11, "u5h_u6".to_string()),
            (14, "u7_u8".to_string()),
        ]
    );
}

#[test]
fn attribute_limits() {
    for profile in [Profile::Gl, Profile::Vk] {
        let err = vertex_abi(&VertexInput {
            components: Components::all_of_first(17).unwrap(),
            stage: VsStage::Hardware,
            profile,
        })
        .unwrap_err();
        assert!(matches!(
            err,
            VertexError::TooManyAttributes { n: 17, max: 16, .. }
        ));
        // A single component in slot 16 (bit 64) also needs 17 slots.
        let err = vertex_abi(&VertexInput {
            components: Components::from_mask(1u128 << 64),
            stage: VsStage::Compute,
            profile,
        })
        .unwrap_err();
        assert!(matches!(err, VertexError::TooManyAttributes { n: 17, .. }));
    }
    let readme = |n| {
        vertex_abi(&VertexInput {
            components: Components::all_of_first(n).unwrap(),
            stage: VsStage::Hardware,
            profile: Profile::Readme,
        })
    };
    let thirty = readme(30).unwrap();
    assert!(thirty.registers.iter().any(|r| r.reg.to_string() == "r127"));
    assert_eq!(thirty.first_free_uniform_half, 185);
    for n in [31, 32] {
        assert!(
            matches!(readme(n).unwrap_err(), VertexError::NeedsSpilling { n: m, .. } if m == n)
        );
    }
    assert!(Components::all_of_first(33).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Written and undefined registers partition r0..r(8 + 4n − 1), and exactly the read
    /// components are written.
    #[test]
    fn registers_partition(mask in any::<u64>(), compute in any::<bool>(), p in 0usize..3) {
        let profile = Profile::ALL[p];
        let stage = if compute { VsStage::Compute } else { VsStage::Hardware };
        let c = Components::from_mask(u128::from(mask));
        let a = abi(c, stage, profile);
        let n = if mask == 0 { 0 } else { (64 - mask.leading_zeros() as u16).div_ceil(4) };
        prop_assert_eq!(a.n, n);
        let mut halves = vec![0u8; 256];
        for r in a.registers.iter().chain(&a.undefined) {
            for h in r.reg.first_half..r.reg.end_half() {
                halves[h as usize] += 1;
            }
        }
        let end = 2 * (8 + 4 * n) as usize;
        prop_assert!(halves[..end].iter().all(|&x| x == 1));
        prop_assert!(halves[end..].iter().all(|&x| x == 0));
        for k in 0..4 * n {
            let written = a.registers.iter().any(|r| r.half == 16 + 2 * k);
            prop_assert_eq!(written, mask & (1 << k) != 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Printing a component set and parsing it back gives the same set, in both syntaxes.
    #[test]
    fn components_round_trip(bits in any::<u128>()) {
        let c = Components::from_mask(bits);
        if bits != 0 {
            prop_assert_eq!(Components::parse_list(&c.to_string()).unwrap(), c);
        }
        prop_assert_eq!(Components::parse_mask(&format!("{bits:#x}")).unwrap(), c);
    }
}
