//! Throughput of the AGX layout engines and the part linker.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gpuabi_agx::fragment::{fragment_abi, FragmentInput};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx::vertex::{vertex_abi, VertexInput};
use gpuabi_agx::{Components, Profile, VsStage};

fn engines(c: &mut Criterion) {
    let vs = VertexInput {
        components: Components::all_of_first(16).unwrap(),
        stage: VsStage::Compute,
        profile: Profile::Vk,
    };
    c.bench_function("vertex_abi n=16", |b| {
        b.iter(|| vertex_abi(black_box(&vs)).unwrap())
    });

    let fs = FragmentInput {
        colors: (0..8)
            .map(|l| format!("{l}:f32x4").parse().unwrap())
            .collect(),
        depth: true,
        stencil: true,
        sample_shading: true,
        ..FragmentInput::default()
    };
    c.bench_function("fragment_abi 8 locations", |b| {
        b.iter(|| fragment_abi(black_box(&fs)).unwrap())
    });

    let rts = [Some("R32G32B32A32_FLOAT"); 8];
    c.bench_function("tilebuffer 8 RTs 4x", |b| {
        b.iter(|| tilebuffer_layout(black_box(&rts), 4).unwrap())
    });

    let main = vec![0u8; 4096];
    let epilog = vec![0u8; 512];
    let info = PartInfo::default();
    let input = LinkInput {
        prolog: None,
        main: Part { code: &main, info },
        epilog: Some(Part {
            code: &epilog,
            info,
        }),
        samples: Some(4),
    };
    c.bench_function("link 4.5 KiB, 4 samples", |b| {
        b.iter(|| link(black_box(&input)).unwrap())
    });
}

criterion_group!(benches, engines);
criterion_main!(benches);
