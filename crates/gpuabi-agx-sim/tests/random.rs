//! Random instructions on a random state end with a state or an error, never a panic.

use gpuabi_agx_isa::decode_one;
use gpuabi_agx_sim::{run, Region, State, LANES};

/// xorshift64*: a fixed, dependency-free stream.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn random_instructions_end_cleanly() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut base = State {
        soft_fault: true,
        ..State::default()
    };
    for lane in 0..LANES {
        for half in (0..256).step_by(4) {
            base.set_gpr(lane, half, 64, next(&mut seed)).unwrap();
        }
    }
    for half in (0..512).step_by(4) {
        base.set_uniform(half, 64, next(&mut seed)).unwrap();
    }
    base.memory.push(Region {
        address: 0,
        bytes: vec![0x5a; 256],
    });
    let (mut ran, mut ok) = (0, 0);
    for _ in 0..100_000 {
        let mut bytes = [0u8; 12];
        for chunk in bytes.chunks_mut(8) {
            let w = next(&mut seed).to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        let Ok(ins) = decode_one(&bytes, 0) else {
            continue;
        };
        let code = &bytes[..ins.length as usize];
        let mut st = base.clone();
        st.exec = next(&mut seed) as u32;
        ran += 1;
        if run(code, &mut st, 16).is_ok() {
            ok += 1;
        }
    }
    eprintln!("{ok} of {ran} random instructions ran");
    assert!(ran > 1000);
}
