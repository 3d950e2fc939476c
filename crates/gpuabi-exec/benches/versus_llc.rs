//! gpuabi's compiler next to llc-19 on the same programs, for the README's performance
//! section: `cargo bench -p gpuabi-exec --bench versus_llc` prints one table.
//!
//! For every example (launched as the `versus_llc` test launches it) and processor:
//! (a) compile time: gpuabi (`.gsir` text parsed and compiled by the library, as `gpuabi
//! compile` does) against `llc-19 -O2` on `gpuabi ir emit-llvm`'s output (the whole
//! process, reading the `.ll` file and writing assembly), each the median of repeated
//! runs timed with `std::time::Instant`, and llc's time less its start-up (llc-19 on a
//! module with one empty kernel, for the same processor); (b) the dynamic counts of both codes run in the
//! simulator on the same dispatch: wave instructions, lane-instructions, and ABI overhead
//! as [`gpuabi_exec::AbiInstructions`] defines it (private-memory accesses, lane moves,
//! call and return; the same definition for both), with gpuabi's own attribution of its
//! call-ABI overhead beside it. An example with calls gets a second gpuabi row, `NAME
//! (`*=llvm-gfx`)`, compiled with every function under llc's own convention for callable
//! functions (`--abi-override '*=llvm-gfx'`): the same program under one ABI; the first row
//! keeps the example's own ABIs (Mesa's ray-tracing ABIs for raytrace). Both runs are
//! checked against the interpreter; a pair
//! whose llc output the assembler cannot read yet is listed with the assembler's message.
//!
//! `GPUABI_VERSUS_LLC_RUNS=N` sets the timed compilations per measurement (default 5 for
//! llc, 10× that for gpuabi).

#[path = "../tests/common/versus_llc.rs"]
mod versus_llc;

use std::time::{Duration, Instant};

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;
use gpuabi_exec::{AbiInstructions, Assembly, Outcome};
use versus_llc::{emit_llvm, examples, llc, llc_present, scratch_dir, Launch, CPUS};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(f());
                start.elapsed()
            })
            .collect(),
    )
}

fn options(target: Target, wave: WaveSize) -> Options {
    let mut opts = Options::new(target);
    opts.wave = wave;
    opts
}

/// A run's counts, after checking its buffers against the interpreter's.
fn counts(launch: &Launch, out: &Outcome, expected: &[(String, Vec<u8>)]) -> Result<Row, String> {
    if let Some(v) = out.violations.first() {
        return Err(format!("contract violation: {v}"));
    }
    if let Some(d) = gpuabi_exec::first_difference(expected, &out.buffers) {
        return Err(format!(
            "{}: buffer `{}` byte {} differs from the interpreter's",
            launch.name, d.buffer, d.offset
        ));
    }
    Ok(Row {
        waves: out.stats.instructions(),
        lanes: out.stats.lane_instructions,
        abi: out.abi,
        attributed: out.overhead.iter().map(|o| o.total()).sum(),
    })
}

struct Row {
    waves: u64,
    lanes: u64,
    abi: AbiInstructions,
    attributed: u64,
}

/// gpuabi's run of `launch`; with `every`, every function under that call ABI
/// (`--abi-override '*=ABI'`).
fn gpuabi_row(
    launch: &Launch,
    target: Target,
    wave: WaveSize,
    every: Option<&str>,
) -> Result<Row, String> {
    let module = gpuabi_ir::parse(&launch.source).map_err(|e| format!("{e:?}"))?;
    let call_opts = gpuabi_codegen::CallOptions {
        overrides: every
            .map(|abi| vec![("*".to_string(), abi.to_string())])
            .unwrap_or_default(),
        ..Default::default()
    };
    let compiled = gpuabi_codegen::compile_with(&module, &options(target, wave), &call_opts)
        .map_err(|e| e.to_string())?;
    let addrs = gpuabi_exec::function_addresses(&module, &compiled).map_err(|e| e.to_string())?;
    let expected = interpret(launch, &module, &addrs)?;
    let out = gpuabi_exec::run(
        &compiled,
        &launch.kernel,
        &launch.dispatch,
        &launch.args,
        &launch.buffers,
        &gpuabi_sim::Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    counts(launch, &out, &expected)
}

fn llc_row(launch: &Launch, asm: &str, target: Target, wave: WaveSize) -> Result<Row, String> {
    let module = gpuabi_ir::parse(&launch.source).map_err(|e| format!("{e:?}"))?;
    let assembly = Assembly::parse(asm, target, wave).map_err(|e| e.to_string())?;
    let addrs = assembly
        .function_addresses(&module)
        .map_err(|e| e.to_string())?;
    let expected = interpret(launch, &module, &addrs)?;
    let out = assembly
        .run(
            &launch.kernel,
            &launch.dispatch,
            &launch.args,
            &launch.buffers,
            &gpuabi_sim::Limits::default(),
        )
        .map_err(|e| e.to_string())?;
    counts(launch, &out, &expected)
}

fn interpret(
    launch: &Launch,
    module: &gpuabi_ir::Module,
    addrs: &[u64],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    gpuabi_exec::interpret_at(
        module,
        addrs,
        &launch.kernel,
        &launch.dispatch,
        &launch.args,
        &launch.buffers,
        &gpuabi_ir::interp::Limits::default(),
    )
    .map_err(|e| e.to_string())
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn ratio(a: u64, b: u64) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too, once, with
    // one timed run, as a check that it still works.
    let quick = !std::env::args().any(|a| a == "--bench");
    if !llc_present() {
        return;
    }
    let runs: usize = std::env::var("GPUABI_VERSUS_LLC_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 1 } else { 5 });
    let dir = scratch_dir("bench");
    let mut timing = vec![
        "| example | target | gpuabi compile (ms) | llc-19 -O2 (ms) | llc / gpuabi | llc less start-up / gpuabi |".to_string(),
        "|---|---|---:|---:|---:|---:|".to_string(),
    ];
    let mut dynamic = vec![
        "| example | target | wave instrs gpuabi / llc (ratio) | lane instrs gpuabi / llc (ratio) | ABI overhead gpuabi / llc (private, lane moves, linkage) | gpuabi's attributed overhead |".to_string(),
        "|---|---|---|---|---|---:|".to_string(),
    ];
    let mut pending = Vec::new();
    let empty = dir.join("empty.ll");
    std::fs::write(&empty, "define amdgpu_kernel void @k() {\n  ret void\n}\n")
        .expect("write empty.ll");
    let start_up: Vec<Duration> = CPUS
        .iter()
        .map(|(cpu, ..)| time(runs, || llc(&empty, cpu).expect("llc-19 compiles")))
        .collect();
    for launch in examples() {
        let module = gpuabi_ir::parse(&launch.source).expect("the example parses");
        let ll = emit_llvm(&launch.name, &module, &dir);
        for (i, (cpu, target, wave)) in CPUS.into_iter().enumerate() {
            let opts = options(target, wave);
            let ours = time(runs * 10, || {
                let m = gpuabi_ir::parse(&launch.source).expect("parses");
                gpuabi_codegen::compile(&m, &opts).expect("compiles")
            });
            let theirs = time(runs, || llc(&ll, cpu).expect("llc-19 compiles"));
            // Below a quarter of llc's time the difference is within the spread of runs
            // on a loaded machine.
            let work = theirs.saturating_sub(start_up[i]);
            let work = if work * 4 < theirs {
                "within the spread".to_string()
            } else {
                format!("{:.0}×", work.as_secs_f64() / ours.as_secs_f64())
            };
            timing.push(format!(
                "| {} | {cpu} | {} | {} | {:.0}× | {work} |",
                launch.name,
                ms(ours),
                ms(theirs),
                theirs.as_secs_f64() / ours.as_secs_f64(),
            ));
            let asm = llc(&ll, cpu).expect("llc-19 compiles");
            let l = llc_row(&launch, &asm, target, wave);
            // Programs with calls once more with every function under llc's own
            // convention, the program compared under one ABI.
            let conventions: &[Option<&str>] = if module.functions.len() > 1 {
                &[None, Some("llvm-gfx")]
            } else {
                &[None]
            };
            for &every in conventions {
                let g = gpuabi_row(&launch, target, wave, every);
                let name = match every {
                    Some(abi) => format!("{} (`*={abi}`)", launch.name),
                    None => launch.name.clone(),
                };
                match (g, l.as_ref()) {
                (Ok(g), Ok(l)) => dynamic.push(format!(
                    "| {} | {cpu} | {} / {} ({}) | {} / {} ({}) | {} ({}, {}, {}) / {} ({}, {}, {}) | {} |",
                    name,
                    g.waves,
                    l.waves,
                    ratio(g.waves, l.waves),
                    g.lanes,
                    l.lanes,
                    ratio(g.lanes, l.lanes),
                    g.abi.total(),
                    g.abi.private_memory,
                    g.abi.lane_moves,
                    g.abi.linkage,
                    l.abi.total(),
                    l.abi.private_memory,
                    l.abi.lane_moves,
                    l.abi.linkage,
                    g.attributed,
                )),
                (Ok(g), Err(e)) => {
                    dynamic.push(format!(
                        "| {} | {cpu} | {} / — | {} / — | {} ({}, {}, {}) / — | {} |",
                        name,
                        g.waves,
                        g.lanes,
                        g.abi.total(),
                        g.abi.private_memory,
                        g.abi.lane_moves,
                        g.abi.linkage,
                        g.attributed,
                    ));
                    pending.push(format!("{name} {cpu}: llc's code: {e}"));
                }
                (Err(e), _) => pending.push(format!("{name} {cpu}: gpuabi: {e}")),
            }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let start_up: Vec<String> = CPUS
        .iter()
        .zip(&start_up)
        .map(|((cpu, ..), t)| format!("{cpu} {} ms", ms(*t)))
        .collect();
    println!(
        "compile time (median of {} gpuabi and {runs} llc-19 runs; llc-19 start-up: {}):\n{}\n",
        runs * 10,
        start_up.join(", "),
        timing.join("\n")
    );
    println!(
        "dynamic counts, same dispatch, same simulator:\n{}\n",
        dynamic.join("\n")
    );
    if !pending.is_empty() {
        println!("not compared:\n{}", pending.join("\n"));
    }
}
