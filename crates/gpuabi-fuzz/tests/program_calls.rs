//! The program generator with calls against the IR: every generated program parses,
//! verifies (the verifier checks every `uniform` argument with the IR's uniformity
//! analysis), prints back unchanged and runs in the reference interpreter within its
//! default limits without touching its inputs or depending on where buffers are placed;
//! across seeds every kind of call appears, as found in the parsed modules themselves; a
//! wrong value in a callee shows in memory; and gpuabi's ACO layout engine puts parameters
//! of the wide signatures in scratch.

use std::collections::BTreeMap;

use gpuabi_fuzz::program::{generate, GenConfig, GeneratedProgram};
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
use gpuabi_ir::ir::{Abi, FuncId, Instr, InstrKind, Module, Operand, Region};

fn calls() -> GenConfig {
    GenConfig {
        calls: true,
        ..GenConfig::default()
    }
}

/// Runs `g` with its buffers placed after `padding` empty buffers; returns the buffers
/// after the run and the instructions run per invocation on average, or the interpreter's
/// message.
fn run(
    g: &GeneratedProgram,
    program: &Program,
    padding: usize,
) -> Result<(Vec<Vec<u8>>, u64), String> {
    let mut mem = Memory::new(Limits::default().max_memory_bytes);
    for k in 0..padding {
        mem.add(&format!("pad{k}"), vec![0; 24]).unwrap();
    }
    for (name, data) in &g.buffers {
        mem.add(name, data.clone()).unwrap();
    }
    let args: Vec<u64> = g.arg_bits(|name| mem.address(name).unwrap());
    let d = Dispatch {
        global_size: g.grid,
        group_size: g.group,
        global_offset: g.offset,
        work_dim: g.work_dim,
    };
    let stats = program
        .dispatch(&g.kernel, &args, &d, &mut mem, &Limits::default())
        .map_err(|e| match e {
            gpuabi_ir::interp::DispatchError::Run(r) => r.render("gen.gsir", &g.source),
            other => other.to_string(),
        })?;
    let buffers = g
        .buffers
        .iter()
        .map(|(n, _)| mem.buffer(n).unwrap().data.clone())
        .collect();
    Ok((buffers, stats.steps / stats.invocations.max(1)))
}

fn parse(g: &GeneratedProgram) -> Module {
    gpuabi_ir::parse(&g.source).unwrap_or_else(|e| panic!("{e:?}\n{}", g.source))
}

/// Calls found in a parsed module, independently of the generator's own counts.
#[derive(Debug, Default)]
struct Found {
    direct: usize,
    indirect: usize,
    /// Indirect calls through a `select` of two function pointers.
    selected: usize,
    /// Functions calling themselves.
    recursive: usize,
    /// Calls inside a loop.
    in_loop: usize,
    /// Calls inside an `if`.
    in_if: usize,
    /// Calls with more than 40 arguments.
    wide: usize,
    /// Calls with results.
    with_results: usize,
    abis: BTreeMap<String, usize>,
    divergent_call: usize,
}

impl Found {
    /// Counts what every call site has.
    fn site(&mut self, i: &Instr, args: &[Operand], loops: usize, ifs: usize) {
        self.in_loop += usize::from(loops > 0);
        self.in_if += usize::from(ifs > 0);
        self.wide += usize::from(args.len() > 40);
        self.with_results += usize::from(!i.results.is_empty());
    }
}

fn scan(f: FuncId, r: &Region, loops: usize, ifs: usize, found: &mut Found) {
    for i in &r.instrs {
        match &i.kind {
            InstrKind::If {
                then_region,
                else_region,
                ..
            } => {
                scan(f, then_region, loops, ifs + 1, found);
                scan(f, else_region, loops, ifs + 1, found);
            }
            InstrKind::Loop { body, .. } => scan(f, body, loops + 1, ifs, found),
            InstrKind::Call { callee, args } => {
                found.direct += 1;
                found.recursive += usize::from(*callee == f);
                found.site(i, args, loops, ifs);
            }
            InstrKind::CallIndirect { callee, args, .. } => {
                found.indirect += 1;
                if let Operand::Value(p) = callee {
                    found.selected += usize::from(defined_by_select(r, *p));
                }
                found.site(i, args, loops, ifs);
            }
            _ => {}
        }
    }
}

/// Whether value `v` is the result of a `select` in region `r`.
fn defined_by_select(r: &Region, v: gpuabi_ir::ir::Value) -> bool {
    r.instrs.iter().any(|i: &Instr| {
        i.results.contains(&v)
            && matches!(&i.kind, InstrKind::Op(op) if op.opcode.name() == "select")
    })
}

#[test]
fn programs_with_calls_are_valid_defined_and_independent_of_buffer_placement() {
    let cfg = calls();
    let mut steps = Vec::new();
    for seed in 0..150u64 {
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
        assert!(module.functions.len() > 1, "seed {seed}: no function");
        let program = Program::new(&module).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
        let (after, per_invocation) =
            run(&g, &program, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", g.source));
        steps.push(per_invocation);
        for (k, (name, before)) in g.buffers.iter().enumerate() {
            if name != "out" {
                assert_eq!(&after[k], before, "seed {seed}: input `{name}` was written");
            }
        }
        if seed % 5 == 0 {
            let (moved, _) = run(&g, &program, 1 + (seed as usize / 5) % 3).unwrap();
            assert_eq!(
                after, moved,
                "seed {seed}: result depends on buffer addresses"
            );
        }
    }
    steps.sort_unstable();
    let (median, largest) = (steps[steps.len() / 2], steps[steps.len() - 1]);
    eprintln!("instructions per invocation: median {median}, largest {largest}");
    // Even a wave of 64 lanes that each take their own path through every call runs far
    // fewer instructions than the simulator's default limit of 10 million per wave.
    assert!(
        largest < 150_000,
        "{largest} instructions in one invocation"
    );
}

#[test]
fn every_kind_of_call_appears_across_seeds() {
    let cfg = calls();
    let mut found = Found::default();
    let mut counted: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut most_live = 0;
    for seed in 0..300u64 {
        let g = generate(seed, &cfg);
        let m = parse(&g);
        for (k, f) in m.functions.iter().enumerate() {
            scan(FuncId(k as u32), &f.body, 0, 0, &mut found);
            if !f.attrs.kernel {
                let abi = f.attrs.abi.as_ref().map_or("none", Abi::name).to_string();
                *found.abis.entry(abi).or_default() += 1;
                found.divergent_call += usize::from(f.attrs.divergent_call);
            }
        }
        let c = g.constructs;
        for (name, n) in [
            ("direct calls", c.direct_calls),
            ("indirect calls", c.indirect_calls),
            ("tail calls", c.tail_calls),
            ("divergent indirect calls", c.divergent_indirect_calls),
            ("recursive functions", c.recursive_functions),
            ("scratch-parameter signatures", c.scratch_param_signatures),
            ("calls in loops", c.calls_in_loops),
            ("calls under divergent ifs", c.calls_under_divergent_if),
            ("calls under uniform ifs", c.calls_under_uniform_if),
            ("return values", c.return_values),
            ("divergent_call functions", c.divergent_call_functions),
            ("uniform ifs", c.uniform_if),
            ("divergent ifs", c.divergent_if),
        ] {
            *counted.entry(name).or_default() += n;
        }
        for (k, abi) in [
            "no abi",
            "rt_recursive",
            "traversal",
            "ahit_isec",
            "llvm_gfx",
            "llvm_amdgpu_gfx",
        ]
        .into_iter()
        .enumerate()
        {
            *counted.entry(abi).or_default() += c.functions_by_abi[k];
        }
        most_live = most_live.max(c.live_across_call);
    }
    eprintln!("found in the modules: {found:#?}");
    eprintln!(
        "counted by the generator: {counted:#?}; most values live across a call: {most_live}"
    );
    for (name, n) in &counted {
        assert!(*n > 0, "no {name}");
    }
    assert!(
        most_live > 100,
        "at most {most_live} values live across a call"
    );
    assert!(found.direct > 0 && found.indirect > 0 && found.selected > 0);
    assert!(found.recursive > 0 && found.in_loop > 0 && found.in_if > 0);
    assert!(found.wide > 0 && found.with_results > 0 && found.divergent_call > 0);
    for abi in ["none", "rt_recursive", "traversal", "ahit_isec"] {
        assert!(
            found.abis.get(abi).copied().unwrap_or(0) > 0,
            "no function with {abi}"
        );
    }
    // The generator's counts agree with the modules'.
    assert_eq!(counted["direct calls"], found.direct);
    assert_eq!(counted["indirect calls"], found.indirect);
}

/// Opcodes whose result has the type named by their type token.
const SAME_TYPE: &[&str] = &[
    "const", "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "and", "or", "xor", "shl",
    "lshr", "ashr", "umin", "umax", "smin", "smax", "not", "neg", "popcount", "select", "load",
    "sload",
];

/// The buffers after a run of `source` in place of `g`'s, or the error message.
fn outcome(g: &GeneratedProgram, source: String) -> Result<Vec<Vec<u8>>, String> {
    let g = GeneratedProgram {
        source,
        ..g.clone()
    };
    let program = Program::new(&parse(&g)).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
    run(&g, &program, 0).map(|(b, _)| b)
}

#[test]
fn every_wrong_value_a_callee_computes_shows_in_memory() {
    // Flip the low bit of one integer result in a function other than the kernel, as a
    // miscompiled instruction or a clobbered register would. Either the buffers differ (or
    // the run fails, which shows it as well), or the instruction never ran: putting a
    // division by zero in its place does not fail.
    let (mut tried, mut seen) = (0, 0);
    for seed in 0..40u64 {
        let g = generate(seed, &calls());
        let lines: Vec<&str> = g.source.lines().collect();
        let mut in_callee = false;
        let mut candidates = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with("fn @") {
                in_callee = !l.contains(") kernel");
            }
            let Some((def, rest)) = l.split_once(" = ") else {
                continue;
            };
            let mut w = rest.split(' ');
            let (Some(op), Some(ty)) = (w.next(), w.next()) else {
                continue;
            };
            if in_callee
                && (ty == "i32" || ty == "i64")
                && SAME_TYPE.contains(&op)
                && !def.contains(',')
            {
                candidates.push((i, def, ty));
            }
        }
        let original = outcome(&g, g.source.clone()).unwrap();
        for k in 0..3 {
            let (i, def, ty) = candidates[(seed as usize * 7919 + k * 104_729) % candidates.len()];
            let name = def.trim_start();
            let indent = &def[..def.len() - name.len()];
            let with_line = |new: String| {
                let mut l = lines.clone();
                l[i] = &new;
                l.join("\n") + "\n"
            };
            let wrong = format!(
                "{}\n{indent}{name} = xor {ty} {name}.wrong, 1",
                lines[i].replacen(name, &format!("{name}.wrong"), 1)
            );
            tried += 1;
            if outcome(&g, with_line(wrong)).as_ref() != Ok(&original) {
                seen += 1;
                continue;
            }
            let probe = format!("{indent}{name} = udiv {ty} 1, 0");
            assert!(
                outcome(&g, with_line(probe)).is_ok(),
                "seed {seed}: line {} ran but a wrong value there left the same memory: {}",
                i + 1,
                lines[i]
            );
        }
    }
    eprintln!("{seen} of {tried} wrong values in callees ran and showed; the others never ran");
    // Most of every callee runs: only untaken arms, skipped loop bodies and family members
    // no pointer chose do not.
    assert!(seen * 3 >= tried * 2, "{seen} of {tried}");
}

#[test]
fn programs_with_calls_are_valid_under_any_configuration() {
    // Random limits, from none at all to the defaults, with every switch either way.
    arbtest::arbtest(|u| {
        let cfg = GenConfig {
            max_instrs: u.int_in_range(0..=200)?,
            max_depth: u.int_in_range(0..=4)?,
            max_trip: u.int_in_range(1..=6)?,
            max_loop_work: u.int_in_range(0..=36)?,
            max_invocations: u.int_in_range(1..=64)?,
            max_burst: u.int_in_range(0..=140)?,
            transcendentals: u.arbitrary()?,
            stack_arrays: u.arbitrary()?,
            calls: true,
        };
        let seed: u64 = u.arbitrary()?;
        let g = generate(seed, &cfg);
        let module = parse(&g);
        assert_eq!(gpuabi_ir::print(&module), g.source, "{cfg:?} seed {seed}");
        let program = Program::new(&module).unwrap_or_else(|e| panic!("{e}\n{}", g.source));
        let (after, _) = run(&g, &program, 0)
            .unwrap_or_else(|e| panic!("{cfg:?} seed {seed}: {e}\n{}", g.source));
        for (k, (name, before)) in g.buffers.iter().enumerate() {
            if name != "out" {
                assert_eq!(
                    &after[k], before,
                    "{cfg:?} seed {seed}: `{name}` was written"
                );
            }
        }
        assert!(g.grid.iter().product::<u32>() <= cfg.max_invocations);
        if !cfg.stack_arrays {
            assert!(!g.source.contains("alloca"), "{cfg:?} seed {seed}");
        }
        Ok(())
    })
    .budget_ms(3000);
}

/// The signature of non-kernel function `f` in the text form of gpuabi's ACO layout engine
/// (`ptr` and `i64` are `u64`, `i1` a `bool` lane mask), with its ABI; `None` for a
/// function without one of the three ray-tracing ABIs.
fn layout_signature(f: &gpuabi_ir::ir::Function) -> Option<(String, gpuabi_layout::aco::Abi)> {
    use gpuabi_ir::ir::Type;
    let abi = gpuabi_layout::aco::Abi::builtin(f.attrs.abi.as_ref()?.name())?;
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let ty = match f.ty(p.value) {
                Type::I1 => "bool",
                Type::I32 => "u32",
                Type::F32 => "f32",
                _ => "u64",
            };
            let mut s = format!("{}: {ty}", f.value_name(p.value));
            for (on, word) in [
                (p.attrs.uniform, " uniform"),
                (p.attrs.discardable, " discardable"),
                (p.attrs.ret, " return"),
            ] {
                if on {
                    s.push_str(word);
                }
            }
            s
        })
        .collect();
    Some((params.join(", "), abi))
}

#[test]
fn wide_signatures_put_parameters_in_scratch() {
    // gpuabi's own implementation of ACO's parameter assignment is the independent
    // judge: every signature the generator counts as past `max_param_demand` must get
    // parameters in scratch there, on every target and wave size.
    use gpuabi_layout::aco::{
        assign, parse_signature, AssignRequest, Gfx, LimitInputs, Location, Policy, Target,
    };
    let mut spilled = 0;
    for seed in 0..200u64 {
        let g = generate(seed, &calls());
        let m = parse(&g);
        for (gfx, wave) in [(Gfx::Gfx1100, 32), (Gfx::Gfx1100, 64), (Gfx::Gfx8, 64)] {
            let target = Target::new(gfx, wave).unwrap();
            // One entry per signature: the members of a family share theirs.
            let mut with_scratch = std::collections::BTreeSet::new();
            for f in m.functions.iter().filter(|f| !f.attrs.kernel) {
                let Some((text, abi)) = layout_signature(f) else {
                    continue;
                };
                let types: Vec<_> = f.params.iter().map(|p| f.ty(p.value)).collect();
                let signature = parse_signature(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
                let a = assign(&AssignRequest {
                    abi: &abi,
                    target,
                    limit: target.default_limit(LimitInputs::default()),
                    signature: &signature,
                    policy: Policy::Mesa,
                    hints: None,
                })
                .unwrap_or_else(|e| panic!("seed {seed} @{}: {e}", f.name));
                if a.params
                    .iter()
                    .any(|p| matches!(p.location, Location::Scratch { .. }))
                {
                    with_scratch.insert(format!("{types:?} {text} {:?}", f.attrs));
                }
            }
            assert!(
                with_scratch.len() >= g.constructs.scratch_param_signatures,
                "seed {seed} {gfx:?} wave{wave}: {} signatures with scratch parameters, \
                 the generator counts {}",
                with_scratch.len(),
                g.constructs.scratch_param_signatures
            );
        }
        spilled += g.constructs.scratch_param_signatures;
    }
    assert!(
        spilled > 10,
        "only {spilled} signatures with scratch parameters"
    );
}
