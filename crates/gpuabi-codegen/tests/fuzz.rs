//! Fuzz target of the compiler: whatever verifies compiles or fails with an error, on every
//! target, wave size and register budget, never a panic or a hang. Inputs are token-level
//! mutations of the examples and of generated kernels (calls removed from neither: a module
//! that calls must be refused cleanly), compiled with budgets from the smallest the flags
//! allow up to the defaults. Runs for a bounded time under `cargo test`.

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::{WaveSize, MODELLED_TARGETS};
use gpuabi_codegen::Options;
use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_fuzz::Edit::{Delete, Duplicate, Move, Replace};
use gpuabi_fuzz::Mutator;

const EXAMPLES: [&str; 3] = [
    include_str!("../../../examples/saxpy.gsir"),
    include_str!("../../../examples/mandelbrot.gsir"),
    include_str!("../../../examples/raytrace.gsir"),
];

const MUTATOR: Mutator = Mutator {
    ends_word: |c| c.is_whitespace() || c == ',',
    max_edits: 4,
    edits: &[Delete, Duplicate, Move, Replace],
};

fn one(u: &mut Unstructured<'_>) -> Result<()> {
    let base = if u.ratio(1, 2)? {
        (*u.choose(&EXAMPLES)?).to_string()
    } else {
        let config = GenConfig {
            max_instrs: 40,
            max_burst: 20,
            ..GenConfig::default()
        };
        generate(u.int_in_range(0..=10_000)?, &config).source
    };
    let text = MUTATOR.mutate(u, &base, |u, _| {
        Ok(u.choose(&[
            "%a", "add", "i64", "0", "4", "uniform", "if", "}", "store", "alloca 8",
        ])?
        .to_string())
    })?;
    let Ok(module) = gpuabi_ir::parse(&text) else {
        return Ok(());
    };
    if gpuabi_ir::verify(&module).is_err() {
        return Ok(());
    }
    let target = *u.choose(&MODELLED_TARGETS)?;
    let mut opts = Options::new(target);
    if target.is_rdna() && u.ratio(1, 2)? {
        opts.wave = WaveSize::W64;
    }
    opts.max_vgprs = u.int_in_range(4..=256)?;
    opts.max_sgprs = u.int_in_range(8..=opts.max_sgprs)?;
    // An error is a fine outcome; a panic fails the test.
    let _ = gpuabi_codegen::compile(&module, &opts);
    Ok(())
}

#[test]
fn compile_never_panics() {
    arbtest::arbtest(|u| {
        one(u)?;
        Ok(())
    })
    .budget_ms(3000);
}
