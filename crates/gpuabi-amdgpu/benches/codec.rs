//! Encoder and decoder throughput on the divergent-call example (gfx1030, wave32): a mix of
//! scalar, vector (32-bit and VOP3, with literals), memory and branch instructions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{decode, encode, Target, WaveSize};

fn bench(c: &mut Criterion) {
    let text = include_str!("../../../examples/asm/divergent_call.s");
    let program = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let code = encode(&program).unwrap();
    let count = program.insts().count() as u64;
    let mut group = c.benchmark_group("codec");
    group.throughput(Throughput::Elements(count));
    group.bench_function("encode_divergent_call", |b| {
        b.iter(|| encode(black_box(&program)).unwrap())
    });
    group.bench_function("decode_divergent_call", |b| {
        b.iter(|| decode(black_box(&code), Target::Gfx1030, WaveSize::W32).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
