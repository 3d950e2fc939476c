//! llc-19 for the tests that run its code objects: whether it is installed, and the
//! object it makes of an LLVM IR module.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const LLC: &str = "llc-19";

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

/// Compiles `ir` (module `name`) with llc-19 into an object for `cpu` at `-O{opt}`.
pub fn compile(test: &str, ir: &str, name: &str, cpu: &str, opt: u32) -> Vec<u8> {
    let dir = scratch_dir(test);
    let src = dir.join(format!("{name}.ll"));
    std::fs::write(&src, ir).unwrap();
    let obj = dir.join(format!("{name}-{cpu}-O{opt}.o"));
    let out = Command::new(LLC)
        .args([
            "-mtriple=amdgcn-amd-amdhsa",
            &format!("-mcpu={cpu}"),
            &format!("-O{opt}"),
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llc-19 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&obj).unwrap()
}

/// The input of work-item `i`.
pub fn input(i: u32) -> u32 {
    i.wrapping_mul(2_654_435_761) >> 7
}
