//! The programs and launches gpuabi's code and llc-19's code are compared on (the
//! `versus_llc` test and benchmark): every example of `examples/` with a scaled-down form
//! of the launch its header comment gives, and generated random programs; and the way
//! llc-19 is run on `gpuabi ir emit-llvm`'s output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_fuzz::program::{generate, GenConfig};
use gpuabi_ir::interp::Dispatch;

/// llc's processor names and gpuabi's targets, with the wave size both use (llc's default:
/// wave32 on RDNA).
pub const CPUS: [(&str, Target, WaveSize); 4] = [
    ("tonga", Target::Gfx8, WaveSize::W64),
    ("gfx1030", Target::Gfx1030, WaveSize::W32),
    ("gfx1100", Target::Gfx1100, WaveSize::W32),
    ("gfx1201", Target::Gfx12, WaveSize::W32),
];

/// The compiler compared with.
pub const LLC: &str = "llc-19";

/// Whether llc-19 runs; when it does not, a message, or a panic under
/// `GPUABI_REQUIRE_LLVM_MC=1`.
pub fn llc_present() -> bool {
    let ok = Command::new(LLC)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{LLC} is missing and GPUABI_REQUIRE_LLVM_MC=1");
        }
        eprintln!("skipped: {LLC} is not installed");
    }
    ok
}

/// A fresh directory for llc's input and output files.
pub fn scratch_dir(what: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuabi-versus-llc-{}-{what}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temporary directory");
    d
}

/// One program and one dispatch of its kernel, with the interpreter's argument bits.
pub struct Launch {
    /// `saxpy`, `seed3`, `calls-seed3`.
    pub name: String,
    /// The `.gsir` text.
    pub source: String,
    /// The kernel run.
    pub kernel: String,
    /// The dispatch.
    pub dispatch: Dispatch,
    /// The buffers, in order (buffer `i` at [`gpuabi_exec::buffer_address`]`(i)`).
    pub buffers: Vec<(String, Vec<u8>)>,
    /// One value per kernel parameter, as the interpreter takes them.
    pub args: Vec<u64>,
}

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(format!("{name}.gsir"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn f32_bytes(values: impl Iterator<Item = f32>) -> Vec<u8> {
    values.flat_map(f32::to_le_bytes).collect()
}

fn grid(global: [u32; 2], group: [u32; 2]) -> Dispatch {
    Dispatch {
        global_size: [global[0], global[1], 1],
        group_size: [group[0], group[1], 1],
        global_offset: [0; 3],
        work_dim: 2,
    }
}

/// Every `.gsir` example with its launch: the command of its header comment with the
/// image scaled from 128×128 to 16×16 (mandelbrot 32×32) to keep debug runs short;
/// prefix_stack, which has no command, on one work-group of 64 with `n` = 60 so that the
/// last work-items take the other branch. The names are checked against the directory.
pub fn examples() -> Vec<Launch> {
    let b = gpuabi_exec::buffer_address;
    let launches = vec![
        Launch {
            name: "mandelbrot".into(),
            source: example("mandelbrot"),
            kernel: "mandelbrot".into(),
            dispatch: grid([32, 32], [8, 8]),
            buffers: vec![("image".into(), vec![0; 32 * 32 * 4])],
            args: vec![b(0), 32, 32, 64],
        },
        Launch {
            name: "prefix_stack".into(),
            source: example("prefix_stack"),
            kernel: "prefix_stack".into(),
            dispatch: Dispatch::linear(64, 64),
            buffers: vec![("out".into(), vec![0; 64 * 4])],
            args: vec![b(0), 60],
        },
        Launch {
            name: "raytrace".into(),
            source: example("raytrace"),
            kernel: "raygen".into(),
            dispatch: grid([16, 16], [8, 8]),
            buffers: vec![
                ("image".into(), vec![0; 16 * 16 * 4]),
                ("scene".into(), vec![0; 1024]),
            ],
            args: vec![b(0), b(1), 16, 16],
        },
        Launch {
            name: "saxpy".into(),
            source: example("saxpy"),
            kernel: "saxpy".into(),
            dispatch: Dispatch::linear(1024, 64),
            buffers: vec![
                (
                    "x".into(),
                    f32_bytes((0..1024).map(|i| i as f32 * 0.25 - 7.0)),
                ),
                (
                    "y".into(),
                    f32_bytes((0..1024).map(|i| 100.0 - i as f32 * 1.5)),
                ),
            ],
            args: vec![1000, u64::from(2.5f32.to_bits()), b(0), b(1)],
        },
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "gsir"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(String::from))
        .collect();
    on_disk.sort();
    let named: Vec<String> = launches.iter().map(|l| l.name.clone()).collect();
    assert_eq!(named, on_disk, "every example has a launch here");
    launches
}

/// Random program `seed` (with functions and calls when `calls`) and its launch.
pub fn random(seed: u64, calls: bool) -> Launch {
    let config = GenConfig {
        calls,
        ..GenConfig::default()
    };
    let p = generate(seed, &config);
    let address = |name: &str| {
        let i = p
            .buffers
            .iter()
            .position(|(n, _)| n == name)
            .expect("named buffer");
        gpuabi_exec::buffer_address(i)
    };
    let args = p.arg_bits(address);
    Launch {
        name: format!("{}seed{seed}", if calls { "calls-" } else { "" }),
        kernel: p.kernel.clone(),
        dispatch: Dispatch {
            global_size: p.grid,
            group_size: p.group,
            global_offset: p.offset,
            work_dim: p.work_dim,
        },
        buffers: p.buffers.clone(),
        args,
        source: p.source,
    }
}

/// Random programs per kind: `GPUABI_LLVM_PROGRAMS`, else `default`.
pub fn random_count(default: u64) -> u64 {
    std::env::var("GPUABI_LLVM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `gpuabi ir emit-llvm` of `source`, written to `dir/name.ll`.
pub fn emit_llvm(name: &str, module: &gpuabi_ir::Module, dir: &Path) -> PathBuf {
    let ll = gpuabi_llvm::emit(module, &gpuabi_llvm::EmitOptions::default())
        .unwrap_or_else(|e| panic!("{name}: emit-llvm: {e}"));
    let file = dir.join(format!("{name}.ll"));
    std::fs::write(&file, ll).expect("write .ll");
    file
}

/// `llc-19 -O2` of `file` for `cpu` (amdhsa): the assembly, or llc's message.
pub fn llc(file: &Path, cpu: &str) -> Result<String, String> {
    let out = Command::new(LLC)
        .args(["-O2", "-mtriple=amdgcn-amd-amdhsa"])
        .arg(format!("-mcpu={cpu}"))
        .arg(file)
        .args(["-o", "-"])
        .output()
        .expect("llc-19 runs");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// LLVM 19 refuses some GFX8 kernels with calls ("scalar registers (N) exceeds limit
/// (96)", `AMDGPUResourceUsageAnalysis`): a kernel's SGPR count includes what its callees
/// may use (every SGPR a GFX8 function may use, for an indirect call's unknown callee), so
/// a kernel with calls near the limit is refused (the same tolerance as gpuabi-llvm's `llc`
/// test). Random programs with calls only.
pub fn known_llc_limitation(cpu: &str, source: &str, stderr: &str) -> bool {
    cpu == "tonga"
        && source.contains(" call")
        && stderr.contains("scalar registers (")
        && stderr.contains("exceeds limit (96)")
}
