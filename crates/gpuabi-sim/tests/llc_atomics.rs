//! Atomics on global, flat and buffer memory from llc-19: tests/llc/atomics.ll (a
//! histogram with non-returning adds, a ticket per work-item from returning adds, every
//! other read-modify-write, exchanges, a compare-and-swap loop, 64-bit atomics, f32 add,
//! min and max, and `llvm.amdgcn.raw.buffer.atomic.*`; tests/llc/atomics_flat.ll through a flat pointer)
//! compiled with
//! `llc-19 -filetype=obj` at -O0 and -O2 for tonga, gfx1030 and gfx1100, run in two
//! work-groups of 256 work-items, and checked against values this test computes in Rust.
//!
//! tests/llc/output_mods.ll, whose code llc-19 writes with the VOP3 `clamp` modifier on
//! f32 and unsigned integer results, runs here too (it shares the dispatch).
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use gpuabi_amdgpu::Target;
use gpuabi_sim::dispatch::ArgValue;

mod llc_tool;

use llc_tool::{dwords, input, llc_available, run_kernel, CPUS};
const ATOMICS: &str = include_str!("llc/atomics.ll");
const ATOMICS_FLAT: &str = include_str!("llc/atomics_flat.ll");
const OUTPUT_MODS: &str = include_str!("llc/output_mods.ll");
const GROUP: u32 = 256;
const ITEMS: u32 = 2 * GROUP;
/// Bytes of the counters buffer `cnt`.
const CNT_BYTES: usize = 128;

fn compile(cpu: &str, opt: u32) -> Vec<u8> {
    llc_tool::compile("llc_atomics", ATOMICS, "atomics", cpu, opt)
}

/// What a run leaves in `out` and `cnt`.
struct Outcome {
    out: Vec<u32>,
    cnt: Vec<u32>,
}

/// Runs kernel `name` of `object` with `cnt` starting as `cnt0`.
fn run(object: &[u8], name: &str, target: Target, cnt0: &[u32]) -> Outcome {
    run_with(object, name, target, &inputs(), cnt0, [ITEMS, GROUP])
}

/// Runs kernel `name` of `object` on `items` work-items in groups of `group`, with `in`
/// holding `input` and `cnt` starting as `cnt0`.
fn run_with(
    object: &[u8],
    name: &str,
    target: Target,
    input: &[u32],
    cnt0: &[u32],
    items_and_group: [u32; 2],
) -> Outcome {
    let input: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut cnt: Vec<u8> = cnt0.iter().flat_map(|v| v.to_le_bytes()).collect();
    cnt.resize(CNT_BYTES, 0);
    let buffers = vec![
        ("in", input),
        ("out", vec![0; 4 * ITEMS as usize]),
        ("cnt", cnt),
    ];
    let args = [
        ("out", ArgValue::Buffer("out".into())),
        ("in", ArgValue::Buffer("in".into())),
        ("cnt", ArgValue::Buffer("cnt".into())),
    ];
    let machine = run_kernel(object, name, target, buffers, &args, items_and_group);
    assert_eq!(machine.stats.buffer_out_of_range, 0, "{name}");
    Outcome {
        out: dwords(&machine, "out"),
        cnt: dwords(&machine, "cnt"),
    }
}

fn inputs() -> Vec<u32> {
    (0..ITEMS).map(input).collect()
}

/// Whether `values` are 0 .. len - 1 in some order.
fn is_permutation(values: &[u32]) -> bool {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.iter().enumerate().all(|(i, x)| *x == i as u32)
}

fn check_hist(o: &Outcome, at: &str) {
    for bin in 0..16 {
        let want = inputs().iter().filter(|x| *x % 16 == bin).count() as u32;
        assert_eq!(o.cnt[bin as usize], want, "{at}: bin {bin}");
    }
}

fn check_ops(o: &Outcome, start: &[u32], at: &str) {
    let s: Vec<u32> = inputs().iter().map(|x| x.wrapping_sub(4_000_000)).collect();
    let signed = |v: &u32| *v as i32;
    let smax = s.iter().map(signed).chain([start[0] as i32]).max().unwrap();
    let smin = s.iter().map(signed).chain([start[1] as i32]).min().unwrap();
    let umax = s.iter().copied().chain([start[2]]).max().unwrap();
    let umin = s.iter().copied().chain([start[3]]).min().unwrap();
    let and = inputs().iter().fold(start[4], |a, x| a & (x | 4096));
    let or = inputs().iter().fold(start[5], |a, x| a | x);
    let xor = inputs().iter().fold(start[6], |a, x| a ^ x);
    let sub = inputs().iter().fold(start[7], |a, x| a.wrapping_sub(*x));
    // LLVM's LangRef: uinc_wrap gives (old >= v) ? 0 : old + 1, udec_wrap gives
    // (old == 0 || old > v) ? v : old - 1, once per work-item.
    let inc = (0..ITEMS).fold(start[8], |a, _| if a >= 100 { 0 } else { a + 1 });
    let dec = (0..ITEMS).fold(start[9], |a, _| if a == 0 || a > 100 { 100 } else { a - 1 });
    let want = [
        smax as u32,
        smin as u32,
        umax,
        umin,
        and,
        or,
        xor,
        sub,
        inc,
        dec,
    ];
    assert_eq!(&o.cnt[..10], &want, "{at}");
}

#[test]
fn llc_atomics_run_on_global_flat_and_buffer_memory() {
    if !llc_available() {
        return;
    }
    for (cpu, target) in CPUS {
        for opt in [0, 2] {
            let object = compile(cpu, opt);
            let at = |name: &str| format!("{cpu} -O{opt} {name}");

            let o = run(&object, "k_hist", target, &[]);
            check_hist(&o, &at("k_hist"));

            let o = run(&object, "k_ticket", target, &[]);
            assert!(is_permutation(&o.out), "{}", at("k_ticket"));
            assert_eq!(o.cnt[0], ITEMS, "{}", at("k_ticket"));

            let start = [
                0x8000_0000, // smax from the smallest i32
                0x7fff_ffff, // smin from the largest i32
                0,
                u32::MAX,
                u32::MAX,
                0x10,
                0x5a5a_5a5a,
                1_000_000,
                0,
                5,
            ];
            let o = run(&object, "k_ops", target, &start);
            check_ops(&o, &start, &at("k_ops"));

            let start = [11, 22, 33, 44];
            let o = run(&object, "k_swap", target, &start);
            let mut seen: Vec<u32> = o.out.iter().chain(&o.cnt[..4]).copied().collect();
            seen.sort_unstable();
            let mut want: Vec<u32> = start.iter().copied().chain(1000..1000 + ITEMS).collect();
            want.sort_unstable();
            assert_eq!(seen, want, "{}", at("k_swap"));

            let o = run(&object, "k_cas", target, &[3]);
            let sum = inputs().iter().fold(3u32, |a, x| a.wrapping_add(x & 255));
            assert_eq!(o.cnt[0], sum, "{}", at("k_cas"));
            assert!(o.out.iter().all(|t| *t >= 1), "{}", at("k_cas"));

            let o = run(&object, "k_wide", target, &[0xffff_fff0, 1, 0, 0, 7, 0]);
            let total = inputs()
                .iter()
                .fold(0x1_ffff_fff0u64, |a, x| a + u64::from(*x));
            assert_eq!(
                u64::from(o.cnt[0]) | u64::from(o.cnt[1]) << 32,
                total,
                "{}",
                at("k_wide")
            );
            let umax = inputs().iter().map(|x| u64::from(*x) << 20).max().unwrap();
            assert_eq!(
                u64::from(o.cnt[2]) | u64::from(o.cnt[3]) << 32,
                umax,
                "{}",
                at("k_wide")
            );
            assert_eq!(
                u64::from(o.cnt[4]) | u64::from(o.cnt[5]) << 32,
                0x1122_3344_5566_7788,
                "{}",
                at("k_wide")
            );
            // The returned old values are the running sums in some order: each one xor'ed
            // dword pair is one of the prefixes of the adds.
            assert!(o.out.iter().all(|v| *v != 0), "{}", at("k_wide"));

            let flat = llc_tool::compile("llc_atomics", ATOMICS_FLAT, "atomics_flat", cpu, opt);
            let o = run(&flat, "k_flat", target, &[]);
            check_hist(&o, &at("k_flat"));
            assert!(is_permutation(&o.out), "{}", at("k_flat"));
            assert_eq!(o.cnt[16], ITEMS, "{}", at("k_flat"));

            let o = run(&object, "k_float", target, &[0, 0, 5000f32.to_bits()]);
            let xs: Vec<f32> = inputs().iter().map(|v| (v & 1023) as f32).collect();
            let sum: f32 = xs.iter().sum();
            assert_eq!(f32::from_bits(o.cnt[0]), sum, "{}", at("k_float"));
            let max = xs.iter().copied().fold(0.0f32, f32::max);
            let min = xs.iter().copied().fold(5000.0f32, f32::min);
            assert_eq!(f32::from_bits(o.cnt[1]), max, "{}", at("k_float"));
            assert_eq!(f32::from_bits(o.cnt[2]), min, "{}", at("k_float"));
            // The values returned are the running sums: sorted, they step by the xs of some
            // order, from 0 up to the sum less the last x.
            let mut olds: Vec<f32> = o.out.iter().map(|b| f32::from_bits(*b)).collect();
            olds.sort_by(f32::total_cmp);
            assert_eq!(olds[0], 0.0, "{}", at("k_float"));
            assert!(olds.iter().all(|v| *v <= sum), "{}", at("k_float"));

            let o = run(&object, "k_buffer", target, &[]);
            assert!(is_permutation(&o.out), "{}", at("k_buffer"));
            assert_eq!(o.cnt[0], ITEMS, "{}", at("k_buffer"));
            assert_eq!(
                o.cnt[1],
                *inputs().iter().max().unwrap(),
                "{}",
                at("k_buffer")
            );
            assert_eq!(o.cnt[2], 1, "{}", at("k_buffer"));
        }
    }
}

#[test]
fn llc_clamp_modifiers_run() {
    if !llc_available() {
        return;
    }
    // Floats from -0.6 to 1.29 in steps of 0.03: times 3, below 0, inside [0, 1] and above.
    let xs: Vec<f32> = (0..64).map(|t| (t as f32 - 20.0) * 0.03).collect();
    let bits: Vec<u32> = xs.iter().map(|x| x.to_bits()).collect();
    for (cpu, target) in CPUS {
        let object = llc_tool::compile("llc_atomics", OUTPUT_MODS, "output_mods", cpu, 2);
        let o = run_with(&object, "k_clamp", target, &bits, &[], [64, 64]);
        for t in 0..64 {
            let want = (xs[t] * 3.0).clamp(0.0, 1.0);
            assert_eq!(
                o.out[t],
                want.to_bits(),
                "{cpu}: work-item {t}: clamp({} * 3)",
                xs[t]
            );
            let sum = bits[t].saturating_add(t as u32 + 0x7fff_fff0);
            // For gfx8 llc-19 writes the subtraction as `v_subrev_u32_e32` without `clamp`
            // (the clamp operand its instruction selection gave the VOP3 form is gone from
            // the code it emits), so there the difference wraps: the simulator runs the code
            // as written.
            let want = if target == Target::Gfx8 {
                sum.wrapping_sub(1000)
            } else {
                sum.saturating_sub(1000)
            };
            assert_eq!(
                o.out[64 + t],
                want,
                "{cpu}: work-item {t}: saturating add and sub"
            );
        }
    }
}
