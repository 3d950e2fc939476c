//! The machine-IR text reads back: for random programs (without and with calls, stack
//! arrays, and under tight register limits so that values spill) on every target, every
//! function printed after every pass parses, and printing what was read gives the same
//! text. `GPUABI_MIR_PROGRAMS` sets the programs per configuration (default 3).

use gpuabi_amdgpu::{Target, WaveSize, MODELLED_TARGETS};
use gpuabi_codegen::mir::{parse_functions, print_function};
use gpuabi_codegen::{CallOptions, Entry, Inspect, Options, PrintAfter};
use gpuabi_fuzz::program::{generate, GenConfig};

/// Checks that `printed` (dumps headed by `; after PASS` comments) reads back to itself.
fn round_trip(printed: &str, target: Target) -> Result<usize, String> {
    let functions = parse_functions(printed, target).map_err(|e| e.to_string())?;
    let again: String = functions
        .iter()
        .map(|f| print_function(f, target))
        .collect();
    let expected: String = printed
        .lines()
        .filter(|l| !l.trim_start().starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect();
    if again != expected {
        let line = again
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(format!(
            "printed again differs at line {}:\n  read:  {:?}\n  again: {:?}",
            line + 1,
            expected.lines().nth(line),
            again.lines().nth(line)
        ));
    }
    Ok(functions.len())
}

fn programs() -> u64 {
    std::env::var("GPUABI_MIR_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[test]
fn printed_machine_ir_reads_back_to_the_same_text() {
    let configs = [
        GenConfig::default(),
        GenConfig {
            calls: true,
            ..GenConfig::default()
        },
    ];
    let mut dumps = 0;
    let mut failures = Vec::new();
    for config in &configs {
        for target in MODELLED_TARGETS {
            if config.calls && !target.is_rdna() {
                continue;
            }
            for tight in [false, true] {
                let mut opts = Options::new(target);
                if tight {
                    (opts.max_vgprs, opts.max_sgprs) =
                        if config.calls { (64, 48) } else { (24, 32) };
                }
                let mut variants = vec![opts];
                if target == Target::Gfx8 && !config.calls {
                    variants.push(Options {
                        entry: Entry::Catalyst,
                        ..opts
                    });
                }
                if target.is_rdna() {
                    variants.push(Options {
                        wave: WaveSize::W64,
                        ..opts
                    });
                }
                for opts in variants {
                    for seed in 0..programs() {
                        let p = generate(seed, config);
                        let module = gpuabi_ir::parse(&p.source).expect("generated programs parse");
                        let out = gpuabi_codegen::compile_inspect(
                            &module,
                            &opts,
                            &CallOptions::default(),
                            &Inspect {
                                verify: true,
                                print_after: PrintAfter::All,
                            },
                        );
                        match round_trip(&out.printed, target) {
                            Ok(n) => dumps += n,
                            Err(e) => failures.push(format!(
                                "seed {seed}, {} {} {:?}: {e}",
                                target.name(),
                                opts.wave,
                                opts.entry
                            )),
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(dumps > 100, "only {dumps} functions were printed");
}
