//! Interpreter throughput in IR instructions per second on the ray tracer example.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_ir::parse;

fn raytrace(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/raytrace.gsir");
    let src = std::fs::read_to_string(path).expect("examples/raytrace.gsir");
    let program = Program::new(&parse(&src).expect("parses")).expect("verifies");
    let (w, h) = (64u32, 64u32);
    let d = Dispatch {
        global_size: [w, h, 1],
        group_size: [8, 8, 1],
        global_offset: [0; 3],
        work_dim: 2,
    };
    let run = || {
        let mut mem = Memory::new(1 << 20);
        let img = mem
            .add("image", vec![0; (w * h * 4) as usize])
            .expect("fits");
        let scene = mem.add("scene", vec![0; 1024]).expect("fits");
        program
            .dispatch(
                "raygen",
                &[img, scene, w.into(), h.into()],
                &d,
                &mut mem,
                &Limits::default(),
            )
            .expect("runs")
    };
    // Elements = instructions executed by one dispatch.
    let steps = run().steps;
    let mut group = c.benchmark_group("interp");
    group.throughput(Throughput::Elements(steps));
    group.sample_size(20);
    group.bench_function("raytrace_64x64", |b| b.iter(run));
    group.finish();
}

criterion_group!(benches, raytrace);
criterion_main!(benches);
