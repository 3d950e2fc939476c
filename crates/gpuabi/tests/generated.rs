//! Generated programs through the command line: the files and the `gpuabi run` line that
//! reproduce a generated program give the same buffers as running it in-process.

mod common;

use std::process::Command;

use common::scratch;
use gpuabi_fuzz::program::{generate, ArgValue, GenConfig, GeneratedProgram};
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};

/// The buffers after running `g` in the interpreter directly.
fn run_in_process(g: &GeneratedProgram) -> Vec<Vec<u8>> {
    let module = gpuabi_ir::parse(&g.source).expect("generated programs parse");
    let program = Program::new(&module).expect("generated programs verify");
    let mut mem = Memory::new(Limits::default().max_memory_bytes);
    for (name, data) in &g.buffers {
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
    program
        .dispatch(&g.kernel, &args, &d, &mut mem, &Limits::default())
        .expect("generated programs run");
    g.buffers
        .iter()
        .map(|(n, _)| mem.buffer(n).unwrap().data.clone())
        .collect()
}

#[test]
fn run_command_reproduces_the_in_process_run() {
    for seed in 0..12u64 {
        let g = generate(seed, &GenConfig::default());
        let dir = scratch(&format!("generated{seed}"));
        let cmd = g.write_files(&dir).unwrap();
        let words: Vec<&str> = cmd.split_whitespace().collect();
        assert_eq!(words[0], "gpuabi");
        let out = Command::new(env!("CARGO_BIN_EXE_gpuabi"))
            .args(&words[1..])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "seed {seed}: {cmd}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected = run_in_process(&g);
        for ((name, _), want) in g.buffers.iter().zip(&expected) {
            let got = std::fs::read(dir.join(format!("{name}.out.bin"))).unwrap();
            assert!(got == *want, "seed {seed}: buffer `{name}` differs: {cmd}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
