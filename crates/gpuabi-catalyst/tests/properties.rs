//! Property tests: for any argument list, cb1 slots never overlap, every offset is 16-byte
//! aligned and sizes are multiples of 16; used UAV ids are distinct and above uavid.

use std::collections::HashSet;

use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::layout::{layout, Options};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::resource_ids::Resource;
use proptest::prelude::*;

const TYPES: [&str; 20] = [
    "char",
    "uchar3",
    "short16",
    "int",
    "uint4",
    "long3",
    "ulong16",
    "float8",
    "double3",
    "double2",
    "struct s",
    "global float*",
    "constant int*",
    "local uchar*",
    "global struct s*",
    "read_only image2d_t",
    "write_only image3d_t",
    "sampler_t",
    "counter32_t",
    "global void*",
];

fn arb_args() -> impl Strategy<Value = Vec<(usize, bool)>> {
    // Write-only images and counters are limited to 8 each; keep lists short enough.
    prop::collection::vec((0..TYPES.len(), any::<bool>()), 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slots_never_overlap_and_are_aligned(
        args in arb_args(),
        driver in prop::sample::select(vec![101604u32, 112402, 134805, 144505, 152603, 164205, 170203]),
        amd in any::<bool>(),
        is_64bit in any::<bool>(),
        struct_bytes in 1u32..100,
    ) {
        let params: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, (t, used))| format!("{} {}a{i}", TYPES[*t], if *used { "" } else { "/*unused*/ " }))
            .collect();
        let src = format!(
            "struct s {{ char c[{struct_bytes}]; }};\nkernel void k({}) {{}}",
            params.join(", ")
        );
        let k = parse_kernels(&src).unwrap().remove(0);
        let policy = if amd { Vec3Policy::Amd } else { Vec3Policy::Clrx };
        let l = layout(&k, &Options { driver, is_64bit, vec3_64: policy, ..Options::default() }).unwrap();
        let mut end = 0;
        for a in &l.args {
            prop_assert_eq!(a.slot.offset % 16, 0);
            prop_assert_eq!(a.slot.size % 16, 0);
            prop_assert!(a.slot.offset >= end, "overlap at {}", a.name);
            end = a.slot.offset + a.slot.size;
        }
        prop_assert_eq!(end, l.args_space);
        let mut seen = HashSet::new();
        for a in l.args.iter().filter(|a| a.used) {
            if let Some(Resource::Uav(id) | Resource::ConstUav(id)) = a.resource {
                prop_assert!(seen.insert(id), "uav {} twice", id);
                prop_assert!(Some(id) > l.ids.uavid);
            }
        }
        // USER_SGPR never exceeds 16 and the metadata names every argument once.
        prop_assert!(l.user_sgprs <= 16);
        prop_assert_eq!(l.metadata.matches(";reflection:").count(), l.args.len());
    }
}
