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
pub fn input(i: u32) -> u32 {
    i.wrapping_mul(2_654_435_761) >> 7
}
