//! Layout of a kernel with 140 pointer arguments (target: under 50 µs), and reading its
//! OpenCL C source.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gpuabi_catalyst::layout::{layout, Options};
use gpuabi_catalyst::opencl::parse_kernels;

fn source() -> String {
    let params: Vec<String> = (0..140)
        .map(|i| match i % 3 {
            0 => format!("global float* p{i}"),
            1 => format!("const global uint4* restrict p{i}"),
            _ => format!("constant int* p{i}"),
        })
        .collect();
    format!("kernel void wide({}) {{ }}", params.join(", "))
}

fn bench(c: &mut Criterion) {
    let src = source();
    let kernel = parse_kernels(&src).unwrap().remove(0);
    let opts = Options::default();
    c.bench_function("layout_140_pointers", |b| {
        b.iter(|| layout(black_box(&kernel), black_box(&opts)).unwrap())
    });
    c.bench_function("parse_140_pointers", |b| {
        b.iter(|| parse_kernels(black_box(&src)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
