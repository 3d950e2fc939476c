//! Work-group shared memory and barriers from llc-19: tests/llc/shared.ll (a tree
//! reduction with a barrier per step, a padded 16x16 transpose, a histogram with LDS
//! atomics, 64-bit LDS values read and written in pairs) compiled with
//! `llc-19 -filetype=obj` at -O0 to -O3 for tonga, gfx1030 and gfx1100, dispatched in
//! work-groups of 256 work-items (four to eight waves that meet at every `s_barrier`), run
//! with every call checked against LLVM's own calling convention, and compared with the
//! values this test computes in Rust.
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use gpuabi_amdgpu::code_object::read_code_object;
use gpuabi_amdgpu::Target;
use gpuabi_sim::code_object::select_kernel;
use gpuabi_sim::dispatch::ArgValue;

mod llc_tool;

use llc_tool::{dwords, input, llc_available, run_kernel, CPUS};
const SHARED: &str = include_str!("llc/shared.ll");
const GROUP: u32 = 256;
const ITEMS: u32 = 2 * GROUP;
const N: u32 = 37;

/// Compiles shared.ll with llc-19 into an object for `cpu` at `-O{opt}`.
fn compile(cpu: &str, opt: u32) -> Vec<u8> {
    llc_tool::compile("llc_shared", SHARED, "shared", cpu, opt)
}

/// What kernel `name` writes for work-item `i`, computed from the IR's comments.
fn expected(name: &str, i: u32) -> u32 {
    let (g, t) = (i / GROUP, i % GROUP);
    let item = |t: u32| input(g * GROUP + t);
    match name {
        "k_reduce" => (0..GROUP)
            .fold(0u32, |s, k| s.wrapping_add(item(k)))
            .wrapping_add(t),
        "k_transpose" => {
            let (r, c) = (t / 16, t % 16);
            item(16 * c + r).wrapping_add(N)
        }
        "k_hist" => {
            let bin = item(t) % 16;
            let count = (0..GROUP).filter(|k| item(*k) % 16 == bin).count() as u32;
            count * 1000 + 1
        }
        "k_pairs" => {
            let u = 255 - t;
            u.wrapping_add(item(u)).wrapping_add(N)
        }
        _ => panic!("no reference for {name}"),
    }
}

/// Runs kernel `name` of `object` with the `llvm-gfx` contract; returns the output, the
/// waves run and the barriers released.
fn run(object: &[u8], name: &str, target: Target) -> (Vec<u32>, u64, u64) {
    let kernel_uses_lds = {
        let obj = read_code_object(object).unwrap();
        let kernel = select_kernel(&obj, Some(name)).unwrap();
        kernel.kernel.descriptor.group_segment_fixed_size > 0
    };
    assert!(kernel_uses_lds, "{name} uses LDS");
    let input: Vec<u8> = (0..ITEMS).flat_map(|i| input(i).to_le_bytes()).collect();
    let buffers = vec![("in", input), ("out", vec![0; 4 * ITEMS as usize])];
    let args = [
        ("out", ArgValue::Buffer("out".into())),
        ("in", ArgValue::Buffer("in".into())),
        ("n", ArgValue::Numbers(vec![N.into()])),
    ];
    let machine = run_kernel(object, name, target, buffers, &args, [ITEMS, GROUP]);
    assert_eq!(machine.stats.lds_out_of_range, 0, "{name}");
    let values = dwords(&machine, "out");
    (values, machine.stats.waves, machine.stats.barriers)
}

const NAMES: [&str; 4] = ["k_reduce", "k_transpose", "k_hist", "k_pairs"];

#[test]
fn llc_shared_memory_kernels_run_with_barriers() {
    if !llc_available() {
        return;
    }
    for (cpu, target) in CPUS {
        for opt in 0..=3 {
            let object = compile(cpu, opt);
            for name in NAMES {
                let (values, waves, barriers) = run(&object, name, target);
                // Two work-groups of four (wave64) or eight (wave32) waves each.
                assert!(waves == 8 || waves == 16, "{cpu} {name}: {waves} waves");
                // k_reduce meets at a barrier before its loop and once per step.
                let want_barriers = if name == "k_reduce" { 2 * 9 } else { 0 };
                assert!(
                    barriers >= want_barriers && barriers > 0,
                    "{cpu} -O{opt} {name}: {barriers} barriers"
                );
                for (i, v) in values.iter().enumerate() {
                    let want = expected(name, i as u32);
                    assert_eq!(
                        *v, want,
                        "{cpu} -O{opt} {name}: work-item {i} wrote {v}, expected {want}"
                    );
                }
            }
        }
    }
}
