//! 32-bit integer division compiled from a reciprocal (`udiv`, `urem`, `sdiv`, `srem`)
//! gives Rust's own quotients and remainders (the reference, independent of both the
//! interpreter and the code generator) for edge values (0, 1, powers of two and their
//! neighbours, `i32::MIN`, `u32::MAX`, divisors above the dividend) paired with each
//! other and for pseudo-random pairs, on every target the code generator has, in wave32
//! and wave64 where the target runs it. A nonzero divisor only: division by zero is
//! undefined in the IR. `i32::MIN / -1` wraps to `i32::MIN`, as the IR defines.

use gpuabi_amdgpu::{WaveSize, MODELLED_TARGETS};
use gpuabi_codegen::Options;
use gpuabi_ir::interp::Dispatch;

const KERNEL: &str = "
fn @k(%a: ptr, %b: ptr, %out: ptr) kernel {
  %i = global_id 0
  %o4 = mul i32 %i, 4
  %pa = ptradd %a, %o4
  %pb = ptradd %b, %o4
  %x = load i32 %pa
  %y = load i32 %pb
  %q = udiv i32 %x, %y
  %r = urem i32 %x, %y
  %sq = sdiv i32 %x, %y
  %sr = srem i32 %x, %y
  %o16 = mul i32 %i, 16
  %p0 = ptradd %out, %o16
  store i32 %q, %p0
  %p1 = ptradd %p0, 4
  store i32 %r, %p1
  %p2 = ptradd %p0, 8
  store i32 %sq, %p2
  %p3 = ptradd %p0, 12
  store i32 %sr, %p3
  ret
}
";

/// The dividend/divisor pairs: every pair of edge values (a zero divisor left out), then
/// xorshift pairs, to a multiple of 64 lanes.
fn pairs() -> Vec<(u32, u32)> {
    let mut edges = vec![0u32, 1, 2, 3, 5, 7, 10, 255, 256, 0x7fff_ffff, 0x8000_0000];
    edges.extend([
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
        0x1234_5678,
        0xdead_beef,
    ]);
    for k in [8u32, 16, 23, 24, 31] {
        edges.extend([(1 << k) - 1, 1 << k, (1 << k) + 1]);
    }
    let mut v: Vec<(u32, u32)> = Vec::new();
    for &a in &edges {
        for &b in edges.iter().filter(|&&b| b != 0) {
            v.push((a, b));
        }
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    while !v.len().is_multiple_of(64) || v.len() < 4096 {
        let r = next();
        // Divisors of every size: shift the random divisor right by a random amount.
        let b = ((r >> 32) as u32) >> (next() % 32);
        if b != 0 {
            v.push((r as u32, b));
        }
    }
    v
}

fn reference(a: u32, b: u32) -> [u32; 4] {
    let (sa, sb) = (a as i32, b as i32);
    [
        a / b,
        a % b,
        sa.wrapping_div(sb) as u32,
        sa.wrapping_rem(sb) as u32,
    ]
}

#[test]
fn division_from_a_reciprocal_is_exact() {
    let module = gpuabi_ir::parse(KERNEL).expect("the kernel parses");
    let pairs = pairs();
    let words = |f: fn(&(u32, u32)) -> u32| -> Vec<u8> {
        pairs.iter().map(f).flat_map(u32::to_le_bytes).collect()
    };
    let buffers = vec![
        ("a".to_string(), words(|p| p.0)),
        ("b".to_string(), words(|p| p.1)),
        ("out".to_string(), vec![0u8; pairs.len() * 16]),
    ];
    let args: Vec<u64> = (0..3).map(gpuabi_exec::buffer_address).collect();
    let d = Dispatch {
        global_size: [pairs.len() as u32, 1, 1],
        group_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let mut failures = Vec::new();
    for target in MODELLED_TARGETS {
        for wave in [WaveSize::W32, WaveSize::W64] {
            if !target.supports(wave) {
                continue;
            }
            let mut opts = Options::new(target);
            opts.wave = wave;
            let compiled = gpuabi_codegen::compile(&module, &opts).expect("compiles");
            let out = gpuabi_exec::run(
                &compiled,
                "k",
                &d,
                &args,
                &buffers,
                &gpuabi_sim::Limits::default(),
            )
            .unwrap_or_else(|e| panic!("{target} {wave}: {e}"));
            let (_, got) = out
                .buffers
                .iter()
                .find(|(n, _)| n == "out")
                .expect("the output buffer");
            for (lane, &(a, b)) in pairs.iter().enumerate() {
                let want = reference(a, b);
                for (k, name) in ["udiv", "urem", "sdiv", "srem"].iter().enumerate() {
                    let at = lane * 16 + k * 4;
                    let v = u32::from_le_bytes(got[at..at + 4].try_into().unwrap());
                    if v != want[k] && failures.len() < 20 {
                        failures.push(format!(
                            "{target} {wave}: {name} {a:#x}, {b:#x}: {v:#x}, expected {:#x}",
                            want[k]
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
