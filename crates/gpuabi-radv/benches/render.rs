//! RADV's code rendering the recursive example (`examples/rt/mirror`) at 256×256 in the
//! simulator, every call checked, in lane-instructions per second.
//!
//! The capture is navi21's (gfx1030 wave32). The capture was made for a 64×64 launch; RADV's code reads the
//! launch size from the trace parameters (the prolog's `launch_size_addr`, from
//! `trace_rays_ib.txt`, points at the launch words of `VkTraceRaysIndirectCommand2KHR`),
//! which `gpuabi_radv::run` writes from `Scene::size`; the bench sets that to 256×256 and
//! the dispatch's work-groups as RADV's dispatch of an unaligned launch sets them (the
//! capture's `DISPATCH_DIRECT` of 2×64 groups of `COMPUTE_NUM_THREAD_X` = 32 lanes for
//! 64×64): ceil(256 / 32) × 256. RADV's code is unchanged. The work includes the per
//! call-site overhead figures every run gathers (`gpuabi_radv::call_sites`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::PathBuf;

fn mirror_256(c: &mut Criterion) {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/rt/mirror/navi21");
    let mut capture = gpuabi_radv::Capture::read(&dir).unwrap();
    let lanes = capture.dispatch.regs["COMPUTE_NUM_THREAD_X"] & 0xffff;
    assert_eq!(
        capture.dispatch.groups,
        [64u32.div_ceil(lanes), 64, 1],
        "the capture's dispatch is not one row of {lanes} lanes per group"
    );
    capture.scene.size = [256, 256];
    capture.dispatch.groups = [256u32.div_ceil(lanes), 256, 1];
    let options = gpuabi_radv::Options::default();
    let probe = gpuabi_radv::run(&capture, &options).unwrap();
    assert_eq!(probe.output.len(), 256 * 256 * 16);
    eprintln!(
        "mirror 256x256 on navi21: {} lane instructions, {} calls",
        probe.stats.lane_instructions, probe.calls
    );
    let mut g = c.benchmark_group("radv");
    g.sample_size(10);
    g.throughput(Throughput::Elements(probe.stats.lane_instructions));
    g.bench_function("mirror_256x256_navi21", |b| {
        b.iter(|| gpuabi_radv::run(&capture, &options).unwrap().calls)
    });
    g.finish();
}

criterion_group!(benches, mirror_256);
criterion_main!(benches);
