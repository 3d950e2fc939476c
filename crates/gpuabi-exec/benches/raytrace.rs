//! The README's main job, split in its two costs: compiling `examples/raytrace.gsir`
//! (direct, indirect, divergent and recursive calls) for each target, and running the
//! compiled 128×128 render in the simulator with every call's contract checked.
//! `cargo bench -p gpuabi-exec --bench raytrace`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::{Compiled, Options};
use gpuabi_ir::interp::Dispatch;

fn source() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/raytrace.gsir"
    ))
    .expect("examples/raytrace.gsir")
}

fn compile(src: &str, target: Target, wave: WaveSize) -> Compiled {
    let module = gpuabi_ir::parse(src).expect("the example parses");
    let mut opts = Options::new(target);
    opts.wave = wave;
    gpuabi_codegen::compile(&module, &opts).expect("the ray tracer compiles")
}

/// The dispatch of the README's first command: 128×128 pixels in 8×8 groups.
fn render(c: &Compiled) -> u64 {
    let d = Dispatch {
        global_size: [128, 128, 1],
        group_size: [8, 8, 1],
        global_offset: [0, 0, 0],
        work_dim: 2,
    };
    let buffers = vec![
        ("image".to_string(), vec![0u8; 64 * 1024]),
        ("scene".to_string(), vec![0u8; 1024]),
    ];
    let args = [
        gpuabi_exec::buffer_address(0),
        gpuabi_exec::buffer_address(1),
        128,
        128,
    ];
    let out = gpuabi_exec::run(
        c,
        "raygen",
        &d,
        &args,
        &buffers,
        &gpuabi_sim::Limits::default(),
    )
    .expect("the render runs");
    assert!(out.violations.is_empty(), "no contract violation");
    out.checked_returns
}

fn bench(c: &mut Criterion) {
    let src = source();
    let targets = [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx8, WaveSize::W64),
    ];
    let mut group = c.benchmark_group("raytrace_compile");
    for (target, wave) in targets {
        let n = compile(&src, target, wave).program.items.len() as u64;
        group.throughput(Throughput::Elements(n));
        group.bench_function(format!("{}_{wave}", target.name()), |b| {
            b.iter(|| compile(black_box(&src), target, wave))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("raytrace_render_128x128");
    group.sample_size(10);
    for (target, wave) in [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx8, WaveSize::W64),
    ] {
        let compiled = compile(&src, target, wave);
        group.bench_function(format!("{}_{wave}", target.name()), |b| {
            b.iter(|| render(black_box(&compiled)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
