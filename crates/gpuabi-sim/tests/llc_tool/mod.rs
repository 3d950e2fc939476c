//! llc-19 for the tests that run its code objects: whether it is installed, the object
//! it makes of an LLVM IR module, and a run of one of its kernels.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::code_object::read_code_object;
use gpuabi_amdgpu::Target;
use gpuabi_sim::code_object::{dispatched_kernel, load, select_kernel};
use gpuabi_sim::dispatch::{ArgValue, NdRange};
use gpuabi_sim::{Contract, Image, Limits, Machine};

pub const LLC: &str = "llc-19";

/// llc's processor names of the targets and gpuabi's targets.
#[allow(dead_code)] // Not every test runs on every target.
pub const CPUS: [(&str, Target); 4] = [
    ("tonga", Target::Gfx8),
    ("gfx1030", Target::Gfx1030),
    ("gfx1100", Target::Gfx1100),
    ("gfx1201", Target::Gfx12),
];

pub fn llc_available() -> bool {
    let found = Command::new(LLC)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = format!(
            "{LLC} not found: the code object tests are skipped (install Debian's llvm-19 \
             package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)"
        );
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

/// A directory for `test`'s files under Cargo's test scratch directory.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `ir` (module `name`) with llc-19 into an AMDHSA object for `cpu` at `-O{opt}`.
#[allow(dead_code)] // Not every test compiles for AMDHSA.
pub fn compile(test: &str, ir: &str, name: &str, cpu: &str, opt: u32) -> Vec<u8> {
    compile_as(test, ir, name, "amdgcn-amd-amdhsa", cpu, opt, "obj")
}

/// Compiles `ir` (module `name`) with llc-19 for `triple` and `cpu` at `-O{opt}` into an
/// object (`filetype` "obj") or assembly ("asm").
pub fn compile_as(
    test: &str,
    ir: &str,
    name: &str,
    triple: &str,
    cpu: &str,
    opt: u32,
    filetype: &str,
) -> Vec<u8> {
    let dir = scratch_dir(test);
    let src = dir.join(format!("{name}-{triple}.ll"));
    std::fs::write(&src, ir).unwrap();
    let extension = if filetype == "obj" { "o" } else { "s" };
    let out_file = dir.join(format!("{name}-{triple}-{cpu}-O{opt}.{extension}"));
    let out = Command::new(LLC)
        .args([
            &format!("-mtriple={triple}"),
            &format!("-mcpu={cpu}"),
            &format!("-O{opt}"),
            &format!("-filetype={filetype}"),
            "-o",
        ])
        .arg(&out_file)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llc-19 failed on {name} for {cpu}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&out_file).unwrap()
}

/// The input of work-item `i`.
#[allow(dead_code)] // Not every test runs kernels on inputs.
pub fn input(i: u32) -> u32 {
    i.wrapping_mul(2_654_435_761) >> 7
}

/// The dwords of buffer `name` after a run.
#[allow(dead_code)] // Not every test reads buffers back.
pub fn dwords(machine: &Machine, name: &str) -> Vec<u32> {
    machine
        .memory
        .find(name)
        .unwrap()
        .data
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs kernel `name` of llc-19's object `object` (built for `target`) over `items`
/// work-items in work-groups of `group`, with `buffers` in that order and `args` by the
/// metadata's names, as its descriptor asks, checking every call against `llvm-gfx`.
/// Panics when the run stops or breaks the contract; returns the machine after the run.
#[allow(dead_code)] // Not every test runs AMDHSA kernels.
pub fn run_kernel(
    object: &[u8],
    name: &str,
    target: Target,
    buffers: Vec<(&str, Vec<u8>)>,
    args: &[(&str, ArgValue)],
    [items, group]: [u32; 2],
) -> Machine {
    let obj = read_code_object(object).unwrap();
    assert_eq!(obj.target, target);
    let kernel = select_kernel(&obj, Some(name)).unwrap();
    let limits = Limits::default();
    let mut memory = gpuabi_sim::Memory::new();
    for (buffer, data) in buffers {
        memory.add(buffer, data, limits.global_bytes).unwrap();
    }
    let program = load(&obj, kernel, &mut memory, limits.global_bytes).unwrap();
    let nd = NdRange {
        work_dim: 1,
        global: [items, 1, 1],
        local: [group, 1, 1],
        offset: [0; 3],
    };
    let args: BTreeMap<String, ArgValue> = args
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    let setups = gpuabi_sim::hsa::dispatch(
        &dispatched_kernel(kernel),
        target,
        kernel.wave,
        &nd,
        &args,
        &mut memory,
        &limits,
    )
    .unwrap();
    let mut machine = Machine::new(Image::new(&program).unwrap());
    machine.memory = memory;
    machine.contract = Some(Contract::llvm_gfx());
    let result = machine.run(name, &setups);
    let violations: Vec<String> = machine.violations().iter().map(|v| v.to_string()).collect();
    result.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(violations.is_empty(), "{name}: {violations:#?}");
    machine
}
