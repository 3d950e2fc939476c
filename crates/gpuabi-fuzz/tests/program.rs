//! The program generator against the IR: every generated program parses, verifies, prints
//! back unchanged, runs in the reference interpreter within its default limits, leaves its
//! input buffers alone and gives the same bytes wherever its buffers are placed; across
//! seeds every opcode and every construct appears.

use std::collections::BTreeMap;

use gpuabi_fuzz::program::{generate, ArgValue, GenConfig, GeneratedProgram};
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_ir::ir::instr::OPCODES;
use gpuabi_ir::ir::{InstrKind, Module, Region};

/// Runs `g` with its buffers added to memory in `order` after `padding` empty buffers
/// (which moves every buffer's address); returns the buffers after the run by name.
fn run(g: &GeneratedProgram, program: &Program, order: &[usize], padding: usize) -> Vec<Vec<u8>> {
    try_run(g, program, order, padding)
        .unwrap_or_else(|e| panic!("{}\n{e}\n{}", g.run_command(), g.source))
}

/// Like [`run`], returning a failed run's message.
fn try_run(
    g: &GeneratedProgram,
    program: &Program,
    order: &[usize],
    padding: usize,
) -> Result<Vec<Vec<u8>>, String> {
    let mut mem = Memory::new(Limits::default().max_memory_bytes);
    for k in 0..padding {
        mem.add(&format!("pad{k}"), vec![0; 16]).unwrap();
    }
    for &i in order {
        let (name, data) = &g.buffers[i];
        mem.add(name, data.clone()).unwrap();
    }
    let args: Vec<u64> = g
        .arg_values
        .iter()
        .map(|a| match a {
            ArgValue::Bits(b) => *b,
            ArgValue::Buffer { name, offset } => mem.address(name).unwrap() + offset,
        })
        .collect();
    let d = Dispatch {
        global_size: g.grid,
        group_size: g.group,
        global_offset: g.offset,
        work_dim: g.work_dim,
    };
    if let Err(e) = program.dispatch(&g.kernel, &args, &d, &mut mem, &Limits::default()) {
        return Err(match e {
            gpuabi_ir::interp::DispatchError::Run(r) => r.render("gen.gsir", &g.source),
            other => other.to_string(),
        });
    }
    Ok(g.buffers
        .iter()
        .map(|(n, _)| mem.buffer(n).unwrap().data.clone())
        .collect())
}

fn parse(g: &GeneratedProgram) -> Module {
    gpuabi_ir::parse(&g.source).unwrap_or_else(|e| panic!("{e:?}\n{}", g.source))
}

#[test]
fn programs_are_valid_defined_and_independent_of_buffer_placement() {
    let cfg = GenConfig::default();
    for seed in 0..500u64 {
        let g = generate(seed, &cfg);
        if seed % 10 == 0 {
            assert_eq!(g, generate(seed, &cfg), "seed {seed} is not deterministic");
        }
        let module = parse(&g);
        assert_eq!(
            gpuabi_ir::print(&module),
            g.source,
            "seed {seed}: not canonical"
        );
        let program = Program::new(&module).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
        let n = g.buffers.len();
        let forward: Vec<usize> = (0..n).collect();
        let after = run(&g, &program, &forward, 0);
        for (k, (name, before)) in g.buffers.iter().enumerate() {
            if name != "out" {
                assert_eq!(&after[k], before, "seed {seed}: input `{name}` was written");
            } else if let Some(ArgValue::Buffer { offset, .. }) = g
                .arg_values
                .iter()
                .find(|a| matches!(a, ArgValue::Buffer { name, .. } if name == "out"))
            {
                // Bytes before the kernel's view of `out` belong to no invocation.
                let skip = *offset as usize;
                assert_eq!(
                    after[k][..skip],
                    before[..skip],
                    "seed {seed}: wrote before out"
                );
                assert_ne!(after[k], *before, "seed {seed}: nothing was stored");
            }
        }
        // Every fourth seed again with the buffers elsewhere: stored bytes that depended on
        // an address would differ.
        if seed % 4 == 0 {
            let backward: Vec<usize> = (0..n).rev().collect();
            let moved = run(&g, &program, &backward, 1 + (seed as usize / 4) % 3);
            assert_eq!(
                after, moved,
                "seed {seed}: result depends on buffer addresses"
            );
        }
    }
}

fn count(r: &Region, hist: &mut BTreeMap<&'static str, usize>) {
    for i in &r.instrs {
        match &i.kind {
            InstrKind::Op(op) => *hist.entry(op.opcode.name()).or_default() += 1,
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => {
                *hist.entry("if").or_default() += 1;
                if !i.results.is_empty() {
                    *hist.entry("if yielding values").or_default() += 1;
                }
                count(then_region, hist);
                count(else_region, hist);
            }
            InstrKind::Loop { body, .. } => {
                *hist.entry("loop").or_default() += 1;
                count(body, hist);
            }
            InstrKind::Break(_) => *hist.entry("break").or_default() += 1,
            InstrKind::Continue(_) => *hist.entry("continue").or_default() += 1,
            _ => {}
        }
    }
}

#[test]
fn every_opcode_and_construct_appears_across_200_seeds() {
    let cfg = GenConfig::default();
    let mut hist: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut constructs: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut many_live = 0;
    let mut partial_wave = 0;
    let mut multi_group = 0;
    let mut offset = 0;
    let mut dims = [0usize; 3];
    for seed in 0..200u64 {
        let g = generate(seed, &cfg);
        for f in &parse(&g).functions {
            count(&f.body, &mut hist);
        }
        let c = g.constructs;
        for (name, n) in [
            ("uniform if", c.uniform_if),
            ("divergent if", c.divergent_if),
            ("uniform loop", c.uniform_loop),
            ("divergent loop exit", c.divergent_loop_exit),
            ("early break", c.early_break),
            ("early continue", c.early_continue),
            ("alloca", c.allocas),
        ] {
            *constructs.entry(name).or_default() += n;
        }
        many_live += usize::from(c.live_at_end > 100);
        let lanes: u32 = g.group.iter().product();
        partial_wave += usize::from(!lanes.is_multiple_of(32));
        multi_group += usize::from(g.grid != g.group);
        offset += usize::from(g.offset != [0; 3]);
        dims[g.work_dim as usize - 1] += 1;
    }
    eprintln!("opcodes and regions over 200 seeds: {hist:#?}");
    eprintln!("constructs: {constructs:#?}");
    eprintln!(
        "seeds with >100 live i32/f32: {many_live}, partial waves: {partial_wave}, several \
         groups: {multi_group}, global offset: {offset}, dimensions 1/2/3: {dims:?}"
    );
    let missing: Vec<&str> = OPCODES
        .iter()
        .map(|o| o.name)
        .filter(|n| !hist.contains_key(n))
        .collect();
    assert!(missing.is_empty(), "opcodes never generated: {missing:?}");
    for region in ["if", "if yielding values", "loop", "break", "continue"] {
        assert!(hist.get(region).copied().unwrap_or(0) > 0, "no {region}");
    }
    for (name, n) in &constructs {
        assert!(*n > 0, "no {name}");
    }
    assert!(many_live > 0, "no program keeps more than 100 values live");
    assert!(partial_wave > 0 && multi_group > 0 && offset > 0);
    assert!(dims.iter().all(|&n| n > 0), "dimensions {dims:?}");
}

#[test]
fn without_stack_arrays_no_stack_opcode_is_generated() {
    let cfg = GenConfig {
        stack_arrays: false,
        ..GenConfig::default()
    };
    for seed in 0..60u64 {
        let g = generate(seed, &cfg);
        let mut hist = BTreeMap::new();
        for f in &parse(&g).functions {
            count(&f.body, &mut hist);
        }
        for op in ["alloca", "sload", "sstore"] {
            assert!(!hist.contains_key(op), "seed {seed} has `{op}`");
        }
        assert_eq!(g.constructs.allocas, 0);
    }
}

#[test]
fn run_command_names_every_flag() {
    let g = generate(7, &GenConfig::default());
    let cmd = g.run_command();
    assert!(cmd.starts_with(&format!(
        "gpuabi run {}.gsir --kernel {}",
        g.kernel, g.kernel
    )));
    for (name, data) in &g.buffers {
        assert!(cmd.contains(&format!(" --buffer {name}={}:{name}.bin", data.len())));
        assert!(cmd.contains(&format!(" --dump {name}:bin:{name}.out.bin")));
    }
    for (name, value) in &g.args {
        assert!(cmd.contains(&format!(" --arg {name}={value}")));
    }
    let dir = std::env::temp_dir().join(format!("gpuabi-gen-{}", std::process::id()));
    let written = g.write_files(&dir).unwrap();
    assert_eq!(written, cmd);
    let source = std::fs::read_to_string(dir.join(format!("{}.gsir", g.kernel))).unwrap();
    assert_eq!(source, g.source);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn limits_of_the_configuration_hold() {
    let tight = GenConfig {
        max_instrs: 60,
        max_depth: 1,
        max_trip: 2,
        max_loop_work: 2,
        max_invocations: 8,
        max_burst: 0,
        transcendentals: false,
        stack_arrays: true,
        calls: false,
    };
    let empty = GenConfig {
        max_instrs: 0,
        max_depth: 0,
        max_loop_work: 0,
        max_invocations: 1,
        ..tight.clone()
    };
    for seed in 0..40u64 {
        for cfg in [&tight, &empty] {
            let g = generate(seed, cfg);
            let module = parse(&g);
            let program = Program::new(&module).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
            run(&g, &program, &(0..g.buffers.len()).collect::<Vec<_>>(), 0);
            assert!(g.grid.iter().product::<u32>() <= cfg.max_invocations);
            for word in ["fsin", "fcos", "fexp2", "flog2"] {
                assert!(
                    !g.source.contains(word),
                    "seed {seed}: {word} was switched off"
                );
            }
            if cfg.max_depth == 0 {
                // Only the epilogue's loops (over each stack array, sometimes around the final
                // digest) remain, each with the one `if` that ends it.
                let mut hist = BTreeMap::new();
                for f in &module.functions {
                    count(&f.body, &mut hist);
                }
                assert!(hist["loop"] >= 1, "seed {seed}: {hist:?}");
                assert_eq!(hist["if"], hist["loop"], "seed {seed}");
                assert_eq!(g.constructs.uniform_if + g.constructs.divergent_if, 0);
            }
        }
    }
}

/// Opcodes whose result has the type named by their type token.
const SAME_TYPE: &[&str] = &[
    "const", "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "and", "or", "xor", "shl",
    "lshr", "ashr", "umin", "umax", "smin", "smax", "not", "neg", "popcount", "select", "load",
    "sload",
];

/// `source` with line `i` replaced by `new`.
fn with_line(g: &GeneratedProgram, i: usize, new: &str) -> GeneratedProgram {
    let mut lines: Vec<&str> = g.source.lines().collect();
    lines[i] = new;
    GeneratedProgram {
        source: lines.join("\n") + "\n",
        ..g.clone()
    }
}

/// The buffers after a run of `g`, or the error message.
fn outcome(g: &GeneratedProgram) -> Result<Vec<Vec<u8>>, String> {
    let program = Program::new(&parse(g)).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
    try_run(g, &program, &(0..g.buffers.len()).collect::<Vec<_>>(), 0)
}

#[test]
fn every_wrong_value_that_is_computed_shows_in_memory() {
    // Flip the low bit of one integer result of each program, as a miscompiled instruction
    // would. Either the buffers differ (or the run fails, which shows it as well), or the
    // instruction never ran: putting a division by zero in its place does not fail.
    let (mut tried, mut seen) = (0, 0);
    for seed in 0..50u64 {
        let g = generate(seed, &GenConfig::default());
        let lines: Vec<&str> = g.source.lines().collect();
        let candidates: Vec<(usize, &str, &str)> = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let (def, rest) = l.split_once(" = ")?;
                let mut w = rest.split(' ');
                let (op, ty) = (w.next()?, w.next()?);
                let int = ty == "i32" || ty == "i64";
                (int && SAME_TYPE.contains(&op) && !def.contains(',')).then_some((i, def, ty))
            })
            .collect();
        let original = outcome(&g).unwrap();
        for k in 0..3 {
            let (i, def, ty) = candidates[(seed as usize * 7919 + k * 104_729) % candidates.len()];
            let name = def.trim_start();
            let indent = &def[..def.len() - name.len()];
            let wrong = format!(
                "{}\n{indent}{name} = xor {ty} {name}.wrong, 1",
                lines[i].replacen(name, &format!("{name}.wrong"), 1)
            );
            tried += 1;
            if outcome(&with_line(&g, i, &wrong)).as_ref() != Ok(&original) {
                seen += 1;
                continue;
            }
            let probe = format!("{indent}{name} = udiv {ty} 1, 0");
            assert!(
                outcome(&with_line(&g, i, &probe)).is_ok(),
                "seed {seed}: line {} ran but a wrong value there left the same memory: {}",
                i + 1,
                lines[i]
            );
        }
    }
    eprintln!("{seen} of {tried} wrong values ran and showed; the others never ran");
    // Most of a program runs: only untaken arms and skipped loop bodies do not.
    assert!(seen * 4 >= tried * 3, "{seen} of {tried}");
}
