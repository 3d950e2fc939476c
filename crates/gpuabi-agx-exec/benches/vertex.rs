//! `agx run vertex` over 1,000,000 vertices with a six-attribute key: the generated
//! prolog decoded once, the draw's memory and uniforms set up, and 31,250 SIMD groups
//! run, in vertices per second. The key is the one `benches/vertex_key.toml` writes for
//! the command line (`gpuabi agx run vertex --key benches/vertex_key.toml --draw
//! benches/vertex_draw.toml`, whose buffers are zero-filled); here the buffers hold
//! varied bytes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
use gpuabi_agx_exec::vertex::{Binding, VertexBuffer};
use gpuabi_agx_exec::{Names, VertexDraw, VertexProgram};

/// Vertices of the draw.
const VERTICES: u32 = 1_000_000;

/// The six attributes: slot, format, stride and the components the main shader reads.
const ATTRIBUTES: [(u16, &str, u32, u8); 6] = [
    (0, "R32G32B32_FLOAT", 12, 0b0111),
    (1, "R10G10B10A2_SNORM", 4, 0b0111),
    (2, "B8G8R8A8_UNORM", 4, 0b1111),
    (3, "R16G16_FLOAT", 4, 0b0011),
    (4, "R16G16B16A16_SNORM", 8, 0b1111),
    (5, "R8G8B8A8_UINT", 4, 0b1111),
];

fn key() -> PrologKey {
    PrologKey {
        robustness: Robustness {
            level: RobustnessLevel::D3d,
            soft_fault: false,
        },
        hw: true,
        index_size: 0,
        attribs: ATTRIBUTES
            .iter()
            .map(|&(slot, format, stride, components)| PrologAttrib {
                slot,
                element: VertexElement {
                    format: format.to_string(),
                    stride,
                    divisor: 1,
                    instanced: false,
                },
                components,
            })
            .collect(),
    }
}

/// One buffer and binding per attribute, each holding every vertex's element; the bytes
/// come from a linear congruential generator (any varied bytes do).
fn draw() -> VertexDraw {
    let mut seed = 0x2545_f491_u32;
    let mut buffers = Vec::new();
    let mut bindings = Vec::new();
    for (i, &(slot, format, stride, _)) in ATTRIBUTES.iter().enumerate() {
        let bytes = (0..VERTICES as usize * stride as usize)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 24) as u8
            })
            .collect::<Vec<u8>>();
        bindings.push(Binding {
            slot,
            buffer: i,
            offset: 0,
            size: bytes.len() as u64,
        });
        buffers.push(VertexBuffer {
            name: format.to_string(),
            bytes,
        });
    }
    VertexDraw {
        vertex_count: VERTICES,
        instance_count: 1,
        buffers,
        bindings,
        ..VertexDraw::default()
    }
}

fn bench(c: &mut Criterion) {
    let key = key();
    let code = vertex_prolog(&key).expect("the key generates").code;
    let draw = draw();
    let names = Names::default();
    let mut group = c.benchmark_group("agx-exec");
    group.sample_size(10);
    group.throughput(Throughput::Elements(u64::from(VERTICES)));
    group.bench_function("vertex 1M, 6 attributes", |b| {
        b.iter(|| {
            let program = VertexProgram::new(key.clone(), &code).expect("the prolog decodes");
            let out = program.run(&draw, &names, false).expect("the draw runs");
            assert_eq!(out.len(), VERTICES as usize);
            out
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
