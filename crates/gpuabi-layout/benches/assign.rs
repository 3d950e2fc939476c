//! Parameter assignment of a 16- and a 64-parameter signature.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gpuabi_layout::aco::{
    assign, Abi, AssignRequest, Gfx, Param, Policy, ScalarType, Signature, Target,
};

/// A signature with a mix of classes: vectors, 64-bit values, uniform scalars, lane masks,
/// discardable and return parameters.
fn signature(n: usize) -> Signature {
    let shapes = [
        (ScalarType::U32, 3, false, false, false),
        (ScalarType::U64, 1, true, false, false),
        (ScalarType::F32, 1, false, true, false),
        (ScalarType::U32, 1, true, false, false),
        (ScalarType::Bool, 1, false, false, false),
        (ScalarType::F32, 4, false, false, false),
        (ScalarType::U32, 1, false, false, true),
        (ScalarType::U64, 1, false, false, false),
    ];
    let params = (0..n)
        .map(|i| {
            let (ty, c, uniform, discardable, ret) = shapes[i % shapes.len()];
            Param {
                name: format!("p{i}"),
                ty,
                components: c,
                uniform,
                discardable,
                is_return: ret,
            }
        })
        .collect();
    Signature { params }
}

fn bench(c: &mut Criterion) {
    let target = Target::new(Gfx::Gfx1030, 64).expect("valid target");
    let limit = target.default_limit(Default::default());
    for abi_name in ["ahit-isec", "rt-recursive"] {
        let abi = Abi::builtin(abi_name).expect("built-in ABI");
        for n in [16, 64] {
            let sig = signature(n);
            c.bench_function(&format!("assign/{abi_name}/{n}-params"), |b| {
                b.iter(|| {
                    assign(black_box(&AssignRequest {
                        abi: &abi,
                        target,
                        limit,
                        signature: &sig,
                        policy: Policy::Mesa,
                        hints: None,
                    }))
                })
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
