//! Throughput of the AGX layout engines, the part generators and the part linker.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::fragment::{fragment_abi, FragmentInput};
use gpuabi_agx::fs_prolog::{fragment_prolog, FsPrologKey};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx::vertex::{vertex_abi, VertexInput};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
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

/// The part generators on keys that take most of their paths: six attributes of assorted
/// formats and index rules, four blended and masked render targets, a fragment prolog with
/// every feature.
fn generators(c: &mut Criterion) {
    let formats = [
        ("R32G32B32_FLOAT", 12, false, 0),
        ("B8G8R8A8_UNORM", 16, false, 0),
        ("R16G16_SNORM", 8, true, 3),
        ("R10G10B10A2_SNORM", 4, true, 1),
        ("R16G16B16A16_FLOAT", 8, false, 0),
        ("R8G8_SINT", 2, true, 0),
    ];
    let key = PrologKey {
        robustness: Robustness {
            level: RobustnessLevel::D3d,
            soft_fault: false,
        },
        hw: true,
        index_size: 0,
        attribs: formats
            .iter()
            .enumerate()
            .map(
                |(slot, &(format, stride, instanced, divisor))| PrologAttrib {
                    slot: slot as u16,
                    element: VertexElement {
                        format: format.to_string(),
                        stride,
                        divisor,
                        instanced,
                    },
                    components: 0b1111,
                },
            )
            .collect(),
    };
    vertex_prolog(&key).unwrap();
    c.bench_function("vertex_prolog 6 attributes", |b| {
        b.iter(|| vertex_prolog(black_box(&key)).unwrap())
    });

    let over = Equation {
        func: BlendFunc::Add,
        src: BlendFactor::SrcAlpha,
        dst: BlendFactor::OneMinusSrcAlpha,
    };
    let rts = [
        "R8G8B8A8_UNORM",
        "R16G16B16A16_FLOAT",
        "R32G32_FLOAT",
        "B8G8R8A8_SRGB",
    ];
    let key = EpilogKey {
        samples: 4,
        rts: rts
            .iter()
            .enumerate()
            .map(|(i, f)| {
                Some(EpilogRt {
                    format: f.to_string(),
                    location: i as u8,
                    size: if i == 1 { 16 } else { 32 },
                    colormask: if i == 2 { 0b0011 } else { 0b1111 },
                    blend: (i != 2).then_some([over, over]),
                })
            })
            .collect(),
        ..EpilogKey::default()
    };
    fragment_epilog(&key).unwrap();
    c.bench_function("fragment_epilog 4 blended RTs 4x", |b| {
        b.iter(|| fragment_epilog(black_box(&key)).unwrap())
    });

    let key = FsPrologKey {
        api_sample_mask: 0x0d,
        statistics: true,
        polygon_stipple: true,
        run_zs_tests: true,
        cull_distance_size: 2,
        cf_base: 1,
    };
    fragment_prolog(&key).unwrap();
    c.bench_function("fragment_prolog all features", |b| {
        b.iter(|| fragment_prolog(black_box(&key)).unwrap())
    });
}

criterion_group!(benches, engines, generators);
criterion_main!(benches);
