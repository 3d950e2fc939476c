//! Compile time per emitted instruction, from `.gsir` text to assembly text:
//! `cargo bench -p gpuabi-codegen --bench compile`. Criterion's throughput figure is
//! emitted instructions per second; its inverse is the time per instruction.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_amdgpu::MODELLED_TARGETS;
use gpuabi_codegen::Options;
use gpuabi_fuzz::program::{generate, GenConfig};

fn text_to_asm(src: &str, opts: &Options) -> usize {
    let module = gpuabi_ir::parse(src).expect("parses");
    let c = gpuabi_codegen::compile(&module, opts).expect("compiles");
    let text = c.assembly().expect("prints");
    black_box(text.len());
    c.kernels.iter().map(|k| k.stats.instructions).sum()
}

fn bench(c: &mut Criterion) {
    let saxpy = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/saxpy.gsir"
    ))
    .expect("examples/saxpy.gsir");
    let mut inputs = vec![("saxpy".to_string(), saxpy)];
    // Generated kernels that compile on every target (the first seeds that do).
    let config = GenConfig {
        transcendentals: false,
        ..GenConfig::default()
    };
    let mut seed = 0;
    while inputs.len() < 4 && seed < 500 {
        let p = generate(seed, &config);
        let m = gpuabi_ir::parse(&p.source).expect("generated programs parse");
        if MODELLED_TARGETS
            .iter()
            .all(|t| gpuabi_codegen::compile(&m, &Options::new(*t)).is_ok())
        {
            inputs.push((format!("generated{seed}"), p.source));
        }
        seed += 1;
    }
    let mut group = c.benchmark_group("compile");
    for target in MODELLED_TARGETS {
        let opts = Options::new(target);
        for (name, src) in &inputs {
            let n = text_to_asm(src, &opts) as u64;
            group.throughput(Throughput::Elements(n));
            group.bench_function(format!("{}/{name}", target.name()), |b| {
                b.iter(|| text_to_asm(black_box(src), &opts))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
