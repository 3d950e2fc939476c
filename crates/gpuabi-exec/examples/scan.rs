//! Looks for generated programs whose compiled code disagrees with the interpreter, and
//! prints each failing seed with its size, smallest programs being the easiest to study:
//!
//! `cargo run --release -p gpuabi-exec --example scan -- TARGET WAVE MAX_VGPRS MAX_SGPRS
//! MAX_INSTRS SEEDS [calls]` (MAX_INSTRS 0: the generator's default size; `calls`: programs
//! with calls, see `GenConfig::calls`), e.g. `... -- gfx1030 32 24 32 60 1000` or
//! `... -- gfx1030 32 256 106 10 2000 calls`.

use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_ir::interp::{Dispatch, Limits};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if !(7..=8).contains(&a.len()) {
        eprintln!("usage: scan TARGET WAVE MAX_VGPRS MAX_SGPRS MAX_INSTRS SEEDS [calls]");
        std::process::exit(2);
    }
    let calls = match a.get(7).map(String::as_str) {
        None => false,
        Some("calls") => true,
        Some(other) => {
            eprintln!("argument 7: expected `calls`, found `{other}`");
            std::process::exit(2)
        }
    };
    let num = |i: usize| -> u64 {
        a[i].parse().unwrap_or_else(|_| {
            eprintln!("argument {i}: `{}` is not a number", a[i]);
            std::process::exit(2)
        })
    };
    let Ok(target) = a[1].parse::<gpuabi_amdgpu::Target>() else {
        eprintln!("TARGET: expected gfx8, gfx1030 or gfx1100");
        std::process::exit(2)
    };
    let Some(wave) = gpuabi_amdgpu::WaveSize::from_lanes(num(2) as u32) else {
        eprintln!("WAVE: expected 32 or 64");
        std::process::exit(2)
    };
    let max_instrs = num(5) as usize;
    let base = GenConfig {
        calls,
        ..GenConfig::default()
    };
    let cfg = if max_instrs == 0 {
        base
    } else {
        GenConfig {
            max_instrs,
            max_burst: max_instrs / 2,
            ..base
        }
    };
    let mut opts = gpuabi_codegen::Options::new(target);
    opts.wave = wave;
    opts.max_vgprs = num(3) as u16;
    opts.max_sgprs = num(4) as u16;
    for seed in 0..num(6) {
        let p = generate(seed, &cfg);
        let lines = p.source.lines().count();
        let module = gpuabi_ir::parse(&p.source).expect("generated programs parse");
        let address = |name: &str| {
            let i = p
                .buffers
                .iter()
                .position(|(n, _)| n == name)
                .expect("named buffer");
            gpuabi_exec::buffer_address(i)
        };
        let args = p.arg_bits(address);
        let d = Dispatch {
            global_size: p.grid,
            group_size: p.group,
            global_offset: p.offset,
            work_dim: p.work_dim,
        };
        let limits = Limits::default();
        let compiled = match gpuabi_codegen::compile(&module, &opts) {
            Ok(c) => c,
            Err(e) => {
                println!("seed {seed} ({lines} lines): {e}");
                continue;
            }
        };
        // Function pointers are the compiled code's addresses in both runs.
        let addrs = gpuabi_exec::function_addresses(&module, &compiled).expect("addresses");
        let expected =
            gpuabi_exec::interpret_at(&module, &addrs, &p.kernel, &d, &args, &p.buffers, &limits)
                .expect("generated programs run");
        let sim = gpuabi_sim::Limits::default();
        match gpuabi_exec::run(&compiled, &p.kernel, &d, &args, &p.buffers, &sim) {
            Ok(out) => {
                if let Some(v) = out.violations.first() {
                    println!("seed {seed} ({lines} lines): {v}");
                }
                if let Some(diff) = gpuabi_exec::first_difference(&expected, &out.buffers) {
                    println!("seed {seed} ({lines} lines): {diff:?}");
                }
            }
            Err(e) => println!("seed {seed} ({lines} lines): {e}"),
        }
    }
}
