//! The dispatch a generated kernel runs on: its shape and the contents of its buffers.

use super::literal;
use super::rng::Rng;

/// Grid, group and offset of a dispatch, as `gpuabi run` takes them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub grid: [u32; 3],
    pub group: [u32; 3],
    pub offset: [u32; 3],
    pub work_dim: u32,
}

/// Work-group sizes by dimension count: single invocations, partial waves of 32 and 64
/// (7, 33, 100 invocations) and full ones.
const GROUPS: [&[[u32; 3]]; 3] = [
    &[
        [1, 1, 1],
        [7, 1, 1],
        [32, 1, 1],
        [33, 1, 1],
        [64, 1, 1],
        [100, 1, 1],
        [5, 1, 1],
    ],
    &[
        [1, 1, 1],
        [7, 3, 1],
        [8, 8, 1],
        [33, 2, 1],
        [4, 16, 1],
        [10, 10, 1],
        [3, 5, 1],
    ],
    &[
        [1, 1, 1],
        [7, 3, 2],
        [4, 4, 4],
        [2, 3, 5],
        [33, 1, 2],
        [8, 2, 3],
        [1, 1, 7],
    ],
];

/// Chooses a dispatch of at most `max_invocations` invocations (at least 1).
pub(super) fn shape(rng: &mut Rng, max_invocations: u32) -> Shape {
    let work_dim = rng.range(1, 3);
    let d = work_dim as usize;
    let fits: Vec<[u32; 3]> = GROUPS[d - 1]
        .iter()
        .copied()
        .filter(|g| g.iter().product::<u32>() <= max_invocations)
        .collect();
    let group = if fits.is_empty() {
        [1, 1, 1]
    } else {
        rng.pick(&fits)
    };
    let mut groups = [1u32; 3];
    for n in groups.iter_mut().take(d) {
        *n = rng.range(1, 3);
    }
    let count = |groups: &[u32; 3]| (0..3).map(|k| groups[k] * group[k]).product::<u32>();
    while count(&groups) > max_invocations {
        let k = (0..3).max_by_key(|&k| groups[k]).unwrap_or(0);
        if groups[k] == 1 {
            break;
        }
        groups[k] -= 1;
    }
    let mut offset = [0u32; 3];
    if rng.chance(35) {
        for o in offset.iter_mut().take(d) {
            *o = match rng.below(4) {
                0 => 0,
                1 => rng.range(1, 7),
                2 => rng.range(0, 1000),
                _ => rng.pick(&[100, 4096, 65536]),
            };
        }
    }
    Shape {
        grid: [0, 1, 2].map(|k| groups[k] * group[k]),
        group,
        offset,
        work_dim,
    }
}

/// Contents of an input buffer: little-endian words, half of them interesting f32 bit
/// patterns, a quarter interesting i32 values, the rest random.
pub(super) fn input_data(rng: &mut Rng, bytes: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity(bytes as usize);
    for _ in 0..bytes / 4 {
        let w = match rng.below(4) {
            0 | 1 => literal::random_f32(rng),
            2 => rng.pick(literal::I32_VALUES) as u32,
            _ => rng.next_u64() as u32,
        };
        data.extend_from_slice(&w.to_le_bytes());
    }
    data
}

/// Random bytes: the initial contents of the output buffer, so that a store of the wrong
/// width or to the wrong place shows.
pub(super) fn random_bytes(rng: &mut Rng, bytes: u32) -> Vec<u8> {
    (0..bytes).map(|_| rng.next_u64() as u8).collect()
}
