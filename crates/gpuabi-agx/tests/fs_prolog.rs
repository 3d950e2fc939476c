//! Generated fragment prologs run in the simulator over a tile with random coverage, tile
//! origins and stipple patterns, checked against values computed here from the rules of
//! GL and Mesa's `agx_nir_fs_prolog`: the samples kept are the covered samples in the API
//! mask, all of them dropped when the stipple bit of row `y mod 32`, column
//! `31 − (x mod 32)` is 0 or when a cull distance's plane (read from `cf_base + i`) is
//! zero; the counter grows by the covered samples of every pixel; the
//! tests run exactly for the surviving samples when the key asks and something discards.

use gpuabi_agx::fs_prolog::{
    fragment_prolog, FsPrologError, FsPrologKey, ROOT_POLYGON_STIPPLE, ROOT_PS_INVOCATIONS,
};
use gpuabi_agx_sim::{run, Fragment, Region, State};

const ROOT: u64 = 0x1000;
const COUNTER: u64 = 0x2000;
const PATTERN: u64 = 0x3000;

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }
}

fn root_record() -> Vec<u8> {
    let mut r = vec![0u8; 16];
    let at = |o: u32| o as usize;
    r[at(ROOT_PS_INVOCATIONS)..at(ROOT_PS_INVOCATIONS) + 8].copy_from_slice(&COUNTER.to_le_bytes());
    r[at(ROOT_POLYGON_STIPPLE)..at(ROOT_POLYGON_STIPPLE) + 8]
        .copy_from_slice(&PATTERN.to_le_bytes());
    r
}

#[test]
fn random_keys_match_the_reference() {
    let mut rng = Lcg(0x5eed);
    for case in 0..300 {
        let samples = [1u32, 2, 4][(rng.next() % 3) as usize];
        let all = ((1u32 << samples) - 1) as u8;
        let key = FsPrologKey {
            api_sample_mask: if rng.next().is_multiple_of(3) {
                0xff
            } else {
                rng.next() as u8
            },
            statistics: rng.next().is_multiple_of(2),
            polygon_stipple: rng.next().is_multiple_of(2),
            run_zs_tests: rng.next().is_multiple_of(2),
            cull_distance_size: (rng.next() % 4) as u8,
            cf_base: (rng.next() % 4) as u8,
        };
        let prolog = fragment_prolog(&key).unwrap();
        assert!(
            prolog.reads.is_empty(),
            "case {case}: reads {:?}",
            prolog.reads
        );
        let (w, h) = (8u32, 4u32);
        let mut frag = Fragment::new(w, h, samples, 4).unwrap();
        for l in 0..32 {
            frag.coverage[l] = rng.next() as u8 & all;
        }
        frag.input_coverage = frag.coverage;
        // Planes: all zero (either sign) a third of the time, else one non-zero coefficient.
        for _ in 0..8 {
            let mut p = [0u32; 3];
            for c in &mut p {
                *c = if rng.next().is_multiple_of(2) {
                    0x8000_0000
                } else {
                    0
                };
            }
            if !rng.next().is_multiple_of(3) {
                let k = (rng.next() % 3) as usize;
                p[k] = (1.0f32 + (rng.next() % 100) as f32).to_bits();
            }
            frag.cf.push(p);
        }
        let culled = (0..key.cull_distance_size).any(|i| {
            frag.cf[usize::from(key.cf_base + i)]
                .iter()
                .all(|&b| b << 1 == 0)
        });
        let origin = [rng.next() % 100, rng.next() % 100];
        let pattern: Vec<u32> = (0..32).map(|_| rng.next()).collect();
        let start = rng.next();
        let mut st = State {
            frag: Some(Box::new(frag.clone())),
            grid: [origin[0], origin[1], 0],
            memory: vec![
                Region {
                    address: ROOT,
                    bytes: root_record(),
                },
                Region {
                    address: COUNTER,
                    bytes: start.to_le_bytes().to_vec(),
                },
                Region {
                    address: PATTERN,
                    bytes: pattern.iter().flat_map(|w| w.to_le_bytes()).collect(),
                },
            ],
            ..State::default()
        };
        st.set_uniform(12, 64, ROOT).unwrap();
        run(&prolog.code, &mut st, 10_000).unwrap();

        let discards =
            key.api_sample_mask != 0xff || key.polygon_stipple || key.cull_distance_size != 0;
        let mut added = 0u32;
        let out = st.frag.as_ref().unwrap();
        for l in 0..32usize {
            let (px, py) = frag.pixel[l];
            let (x, y) = (origin[0] + u32::from(px), origin[1] + u32::from(py));
            let bit = pattern[(y % 32) as usize] >> (31 - x % 32) & 1;
            let mut keep = frag.coverage[l] & key.api_sample_mask;
            if (key.polygon_stipple && bit == 0) || culled {
                keep = 0;
            }
            added += frag.coverage[l].count_ones();
            assert_eq!(out.coverage[l], keep, "case {case} lane {l}: {key:?}");
            let tested = if key.run_zs_tests && discards {
                keep
            } else {
                0
            };
            assert_eq!(out.tested[l], tested, "case {case} lane {l}: {key:?}");
        }
        let counter = u32::from_le_bytes(st.memory[1].bytes[..4].try_into().unwrap());
        let expected = if key.statistics {
            start.wrapping_add(added)
        } else {
            start
        };
        assert_eq!(counter, expected, "case {case}: {key:?}");
    }
}

#[test]
fn an_empty_key_is_an_empty_prolog() {
    let p = fragment_prolog(&FsPrologKey::default()).unwrap();
    assert!(p.code.is_empty());
    assert_eq!(p.gpr_halves, 0);
}

#[test]
fn too_many_cull_distances_are_refused() {
    let key = FsPrologKey {
        cull_distance_size: 9,
        ..FsPrologKey::default()
    };
    assert!(matches!(
        fragment_prolog(&key),
        Err(FsPrologError::CullDistances(_))
    ));
    let key = FsPrologKey {
        cull_distance_size: 2,
        cf_base: 255,
        ..FsPrologKey::default()
    };
    assert!(matches!(
        fragment_prolog(&key),
        Err(FsPrologError::CullDistances(_))
    ));
}
