//! Simulator throughput in thread-instructions per second: a counted loop (integer and
//! float arithmetic, a compare-and-branch on the nesting counter) run by all 32 lanes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_agx_isa::assemble;
use gpuabi_agx_sim::{run_program, Program, State, LANES};

/// Iterations of the loop body.
const ITERATIONS: u32 = 1000;

const LOOP: &str = "\
    ldimm r0l, 0
    ldimm r2, 0
    ldimm r3, 1065353216
loop:
    iadd r2, r2, 1
    fmul r4, r3, 1.5
    ffma r3, r4, 0.5, r3
    imadd r5, r2, r2, r5
    while r2, u4, 1, ult
    jmp_any loop
    pop_exec 1
    stop
";

fn bench(c: &mut Criterion) {
    let code = assemble(LOOP, "loop.s").expect("the loop assembles").bytes;
    // Decoded once, as `agx run` decodes each part once per draw.
    let program = Program::decode(&code).expect("the loop decodes");
    let mut start = State::default();
    start
        .set_uniform(8, 32, u64::from(ITERATIONS))
        .expect("u4 exists");
    let steps = run_program(&program, &mut start.clone(), usize::MAX).expect("the loop runs");
    let mut group = c.benchmark_group("agx-sim");
    group.throughput(Throughput::Elements((steps * LANES) as u64));
    group.bench_function("loop", |b| {
        b.iter(|| {
            let mut st = start.clone();
            run_program(&program, &mut st, usize::MAX).expect("the loop runs")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
