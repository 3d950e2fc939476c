//! Tail calls: `tests/programs/tail_calls.gsir` chains functions whose last call becomes a
//! jump to the callee (direct, through a per-lane pointer, and from a function that is only
//! called directly) next to two trailing calls that must stay calls. Compiled for every
//! target, it leaves the values computed here, the tail calls make no hardware call,
//! every call keeps its contract, and each call site's overhead runs once per wave.

use std::path::PathBuf;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;

mod compiled;

fn module() -> gpuabi_ir::Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/tail_calls.gsir");
    let text = std::fs::read_to_string(path).expect("tests/programs/tail_calls.gsir");
    gpuabi_ir::parse(&text).expect("the program parses")
}

/// The program's header, computed directly: lane `i` calls function `i % 6` with
/// `a = i`, `b = 7 i + 3`.
fn expected(n: u32) -> Vec<u8> {
    let leaf = |a: u32, b: u32| 10 * a + b;
    let twice = |a: u32, b: u32| leaf(a, 2 * b);
    (0..n)
        .map(|i| {
            let (a, b) = (i, 7 * i + 3);
            match i % 6 {
                0 => leaf(a, b),
                1 => twice(a, b),
                2 if a % 2 == 1 => twice(a, b + 1),
                2 => leaf(a, b + 1),
                3 => leaf(a, b) + 1,
                4 => leaf(a + 1, b),
                _ => twice(a, b + 5),
            }
        })
        .flat_map(u32::to_le_bytes)
        .collect()
}

#[test]
fn tail_calls_jump_to_the_callee_and_keep_every_contract() {
    let module = module();
    let n = 128u32;
    let out = compiled::OutLaunch::new(n);
    let launch = out.launch();
    let want = expected(n);
    for (target, wave) in [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx8, WaveSize::W64),
    ] {
        let mut opts = Options::new(target);
        opts.wave = wave;
        let c = gpuabi_codegen::compile(&module, &opts).expect("compiles");
        let config = format!("{} {wave}", target.name());
        let tail = |name: &str| {
            let f = c.functions.iter().find(|f| f.name == name).expect(name);
            (f.tail_call.clone(), f.calls)
        };
        assert_eq!(tail("twice"), (Some("leaf".into()), 0), "{config}");
        assert_eq!(tail("pick"), (Some("$step".into()), 0), "{config}");
        assert_eq!(tail("direct"), (Some("twice".into()), 0), "{config}");
        assert_eq!(tail("notail"), (None, 1), "{config}");
        assert_eq!(tail("keep"), (None, 1), "{config}");
        let out = compiled::run_both(&module, &c, &launch, &want, &config);
        // Per call site: every wave holds lanes of every kind (i % 6 repeats within 32
        // lanes), so each of the four remaining calls runs once per wave, and its copies
        // and linkage (straight-line code around the call) run once per wave each.
        let waves = u64::from(n / wave.lanes());
        let statics = c.site_overhead();
        assert_eq!(c.calls.len(), 4, "{config}");
        for (k, (d, s)) in out.site_overhead.iter().zip(&statics).enumerate() {
            let site = &c.calls[k];
            assert!(s.call_linkage >= 1, "{config}: site {k} has its call");
            assert_eq!(
                d.call_linkage,
                s.call_linkage * waves,
                "{config}: {}",
                site.callee
            );
            assert_eq!(
                d.parameter_copies,
                s.parameter_copies * waves,
                "{config}: {}",
                site.callee
            );
            let swappc = c.costs.iter().find(|x| x.item == site.item);
            assert_eq!(swappc.and_then(|x| x.site), Some(k), "{config}");
        }
    }
}
