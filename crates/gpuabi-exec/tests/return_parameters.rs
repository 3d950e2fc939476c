//! Return parameters in preserved registers: `tests/programs/return_in_preserved.gsir`
//! returns an `i1` in the SGPR Mesa's assignment gives it in wave32, s1 inside the default
//! ABI's preserved s0-s15 (the padding before a 64-bit uniform parameter), and keeps
//! another function's own `i1` parameter there across a call that returns into it.
//! Compiled for every target and wave size, it leaves the values computed here and every
//! call keeps its contract.

use std::path::PathBuf;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;

mod compiled;

fn module() -> gpuabi_ir::Module {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/return_in_preserved.gsir");
    let text = std::fs::read_to_string(path).expect("tests/programs/return_in_preserved.gsir");
    gpuabi_ir::parse(&text).expect("the program parses")
}

/// The program's output, computed directly: lane `i` stores `count(i, c) + 8 c` with
/// `c = (i % 3 == 0)` and `count(a, c) = 2 (a odd) + 5 c`.
fn expected(n: u32) -> Vec<u8> {
    (0..n)
        .map(|i| {
            let c = u32::from(i % 3 == 0);
            2 * (i % 2) + 5 * c + 8 * c
        })
        .flat_map(u32::to_le_bytes)
        .collect()
}

#[test]
fn a_return_parameter_in_a_preserved_register_carries_the_result() {
    let module = module();
    let n = 128u32;
    let out = compiled::OutLaunch::new(n);
    let launch = out.launch();
    let want = expected(n);
    for (target, wave) in [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx8, WaveSize::W64),
    ] {
        let mut opts = Options::new(target);
        opts.wave = wave;
        let c = gpuabi_codegen::compile(&module, &opts).expect("compiles");
        let config = format!("{} {wave}", target.name());
        compiled::run_both(&module, &c, &launch, &want, &config);
    }
}
