//! Compiled calls: the ray tracer on every target that compiles calls gives the
//! interpreter's image and breaks no call contract; and the contract checker catches a
//! compiled callee that breaks its ABI (a restore taken out, for each register file, and a
//! save moved into the caller's frame).

use std::path::PathBuf;

use gpuabi_amdgpu::{Imm, Inst, Item, MemMods, Opcode, Operand, Target, WaveSize};
use gpuabi_codegen::mir::AbiCost;
use gpuabi_codegen::{Compiled, Options};
use gpuabi_ir::interp::{Dispatch, Limits as IrLimits};
use gpuabi_sim::Broken;

mod compiled;

fn raytracer() -> gpuabi_ir::Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/raytrace.gsir");
    let text = std::fs::read_to_string(path).expect("examples/raytrace.gsir");
    gpuabi_ir::parse(&text).expect("the example parses")
}

/// Named buffers, as the runs take them.
type Buffers = Vec<(String, Vec<u8>)>;

/// A 32×16 corner of the render (the buffers and arguments of the example's command).
fn dispatch() -> (Dispatch, Buffers, Vec<u64>) {
    let d = Dispatch {
        global_size: [32, 16, 1],
        group_size: [8, 8, 1],
        global_offset: [0, 0, 0],
        work_dim: 2,
    };
    let buffers = vec![
        ("image".to_string(), vec![0u8; 64 * 1024]),
        ("scene".to_string(), vec![0u8; 1024]),
    ];
    let args = vec![
        gpuabi_exec::buffer_address(0),
        gpuabi_exec::buffer_address(1),
        128,
        128,
    ];
    (d, buffers, args)
}

fn compile(target: Target, wave: WaveSize) -> (gpuabi_ir::Module, Compiled) {
    let module = raytracer();
    let mut opts = Options::new(target);
    opts.wave = wave;
    let c = gpuabi_codegen::compile(&module, &opts).expect("the ray tracer compiles");
    (module, c)
}

fn run(c: &Compiled) -> gpuabi_exec::Outcome {
    let (d, buffers, args) = dispatch();
    match gpuabi_exec::run(
        c,
        "raygen",
        &d,
        &args,
        &buffers,
        &gpuabi_sim::Limits::default(),
    ) {
        Ok(out) => out,
        Err(e) => panic!(
            "the run stops: {}",
            e.to_string().chars().take(400).collect::<String>()
        ),
    }
}

/// The violations of a run of code whose ABI was broken on purpose, which may then also
/// stop with an error (its callers go on with wrong values): those found before it count.
fn violations(c: &Compiled) -> Vec<gpuabi_sim::ContractViolation> {
    let (d, buffers, args) = dispatch();
    let limits = gpuabi_sim::Limits {
        instructions_per_wave: 1_000_000,
        ..gpuabi_sim::Limits::default()
    };
    match gpuabi_exec::run(c, "raygen", &d, &args, &buffers, &limits) {
        Ok(out) => out.violations,
        Err(gpuabi_exec::ExecError::Sim { violations, .. }) => violations,
        Err(e) => panic!("the run could not start: {e}"),
    }
}

#[test]
fn ray_tracer_compiled_equals_interpreter_without_violations() {
    for (target, wave) in [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx8, WaveSize::W64),
    ] {
        let (module, c) = compile(target, wave);
        let out = run(&c);
        let (d, buffers, args) = dispatch();
        let addrs = gpuabi_exec::function_addresses(&module, &c).expect("addresses");
        let expected = gpuabi_exec::interpret_at(
            &module,
            &addrs,
            "raygen",
            &d,
            &args,
            &buffers,
            &IrLimits::default(),
        )
        .expect("the interpreter runs");
        assert_eq!(
            gpuabi_exec::first_difference(&expected, &out.buffers),
            None,
            "{} {wave}",
            target.name()
        );
        assert!(out.violations.is_empty(), "{:?}", out.violations.first());
        // Every call of the 32×16 corner returns and is checked: at least one per pixel
        // for `trace` and three for `to_byte`.
        assert!(out.checked_returns >= 4 * 32 * 16 / wave.lanes() as u64);
        // Something was drawn: not every pixel is black.
        assert!(out.buffers[0].1.chunks(4).any(|p| p[..3] != [0, 0, 0]));
    }
}

/// The instructions of `function` paying for `cost` that are one of `ops`.
fn find(c: &Compiled, function: &str, cost: AbiCost, ops: &[Opcode]) -> Vec<usize> {
    let f = c
        .functions
        .iter()
        .position(|s| s.name == function)
        .expect("compiled function");
    c.costs
        .iter()
        .filter(|i| i.function == f && i.cost == cost)
        .map(|i| i.item)
        .filter(|&i| matches!(&c.program.items[i].item, Item::Inst(x) if ops.contains(&x.op)))
        .collect()
}

/// Whether `isect_sphere` took part in the call that broke its contract: as the callee (a
/// call through `$isect` names the signature and the callee's address) or in the chain of
/// a divergent call.
fn in_sphere(c: &Compiled, v: &gpuabi_sim::ContractViolation) -> bool {
    let image = gpuabi_sim::Image::new(&c.program).expect("image");
    let at = image
        .label_addr("isect_sphere")
        .expect("isect_sphere's label");
    v.callee.contains(&format!("{at:#x}"))
        || v.callee.contains("isect_sphere")
        || v.chain.iter().any(|x| x.contains("isect_sphere"))
}

fn nop() -> Item {
    Item::Inst(Inst::new(Opcode::SNop, [Operand::Imm(Imm::Int(0))]))
}

/// `isect_sphere` (ahit_isec, which preserves s0-s79 and v0-v79) saves the preserved
/// SGPRs and VGPRs it may write. Without the restore of a register it did write, its
/// caller sees the register changed: each restore is taken out in turn (a register only
/// written on a path this dispatch does not take stays unchanged without its restore),
/// until one is caught in each file, every violation naming a register taken out (VGPRs
/// are restored up to four at a time).
#[test]
fn a_skipped_restore_is_caught_in_each_register_file() {
    use Opcode::*;
    let loads = [ScratchLoadDword, ScratchLoadDwordx2, ScratchLoadDwordx4];
    for ops in [&[VReadlaneB32][..], &loads[..]] {
        let (_, c) = compile(Target::Gfx1100, WaveSize::W32);
        let restores = find(&c, "isect_sphere", AbiCost::CalleeSave, ops);
        assert!(!restores.is_empty(), "isect_sphere restores with {ops:?}");
        let mut caught = 0;
        for &at in &restores {
            let mut c = c.clone();
            let Item::Inst(restore) = &c.program.items[at].item else {
                unreachable!("an instruction")
            };
            let Some(Operand::Reg(r)) = restore.operands.first().cloned() else {
                panic!("the restore writes a register: {restore:?}")
            };
            c.program.items[at].item = nop();
            let found = violations(&c);
            let taken: Vec<String> = r.regs().map(|x| x.to_string()).collect();
            for v in &found {
                if let Broken::Register { register, .. } = &v.broken {
                    assert!(
                        taken.contains(register),
                        "only {r} was left unrestored: {v}"
                    );
                    assert!(in_sphere(&c, v), "{v}");
                }
            }
            caught += usize::from(!found.is_empty());
            if caught > 0 {
                // One caught restore per file is the claim; the rest only cost time.
                break;
            }
        }
        assert!(caught > 0, "no skipped {ops:?} restore was caught");
    }
}

/// A callee that saves a register below its stack pointer writes its caller's frame.
#[test]
fn a_store_into_the_callers_frame_is_caught() {
    let (_, mut c) = compile(Target::Gfx1100, WaveSize::W32);
    let stores = [
        Opcode::ScratchStoreDword,
        Opcode::ScratchStoreDwordx2,
        Opcode::ScratchStoreDwordx4,
    ];
    let at = find(&c, "isect_sphere", AbiCost::CalleeSave, &stores)[0];
    let Item::Inst(save) = &mut c.program.items[at].item else {
        unreachable!("an instruction")
    };
    save.mods = MemMods {
        offset: -64,
        ..save.mods
    };
    let found = violations(&c);
    assert!(
        found
            .iter()
            .any(|v| in_sphere(&c, v) && matches!(v.broken, Broken::CallerFrame { .. })),
        "no store into the caller's frame among {} violations",
        found.len()
    );
}

/// A `noreturn` callee ends the invocations that call it, here half of each wave under a
/// divergent `if`, also through a second `noreturn` function; the other lanes go on.
#[test]
fn noreturn_calls_end_only_the_calling_invocations() {
    let src = "fn @stop(%p: ptr, %v: i32) noreturn {\n  store i32 %v, %p\n  ret\n}\n\n\
               fn @stop2(%p: ptr, %v: i32) noreturn {\n  %w = add i32 %v, 100\n  \
               call @stop(%p, %w)\n  store i32 -1, %p\n  ret\n}\n\n\
               fn @k(%out: ptr uniform) kernel {\n  %i = global_id 0\n  \
               %o = zext i32 %i to i64\n  %b = mul i64 %o, 4\n  %p = ptradd %out, %b\n  \
               %m = and i32 %i, 3\n  %c = icmp eq i32 %m, 1\n  if %c {\n    \
               call @stop(%p, %i)\n    store i32 -2, %p\n  }\n  %c2 = icmp eq i32 %m, 2\n  \
               if %c2 {\n    call @stop2(%p, %i)\n  }\n  %x = mul i32 %i, 3\n  \
               store i32 %x, %p\n  ret\n}\n";
    let module = gpuabi_ir::parse(src).expect("parses");
    let n = 128u32;
    // Lanes i % 4 == 1 keep i, == 2 keep i + 100, the others 3 i.
    let expected: Vec<u8> = (0..n)
        .map(|i| match i % 4 {
            1 => i,
            2 => i + 100,
            _ => 3 * i,
        })
        .flat_map(u32::to_le_bytes)
        .collect();
    let out = compiled::OutLaunch::new(n);
    let launch = out.launch();
    for (target, wave) in [
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx8, WaveSize::W64),
    ] {
        let mut opts = Options::new(target);
        opts.wave = wave;
        let c = gpuabi_codegen::compile(&module, &opts).expect("compiles");
        let config = format!("{} {wave}", target.name());
        compiled::run_both(&module, &c, &launch, &expected, &config);
    }
}
