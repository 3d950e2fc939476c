//! Access to the shared test data (`../shared/data/...` from the repository root) and to a
//! checkout of CLRX's repository (`GPUABI_CLRX_DIR`).
#![allow(dead_code)] // Not every test reads both.

use std::io::Write;
use std::path::PathBuf;

/// The folder `data/<name>` of the shared folder (`GPUABI_SHARED_DIR` if set, else
/// `../shared` from the repository root), or `None` (after printing why) when it is absent
/// and `GPUABI_REQUIRE_SHARED` is not `1`.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let root = match std::env::var_os("GPUABI_SHARED_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let dir = root.join("data").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("GPUABI_REQUIRE_SHARED").as_deref() != Ok("1"),
        "GPUABI_REQUIRE_SHARED=1 but {} is missing",
        dir.display()
    );
    eprintln!("skipped: {} is missing", dir.display());
    None
}

/// The `.clo` files of the AMD Catalyst test data, sorted by name.
pub fn catalyst_binaries() -> Option<Vec<PathBuf>> {
    let dir = shared_data("amd-catalyst")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "clo"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .clo files in {}", dir.display());
    Some(files)
}

/// `GPUABI_CLRX_DIR`, a checkout of CLRX's repository (its test data holds AMD's own
/// Catalyst binaries), or `None` (after printing why) when it is unset or missing and
/// `GPUABI_REQUIRE_CLRX` is not `1`.
pub fn clrx_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GPUABI_CLRX_DIR").map(PathBuf::from);
    let why = match &dir {
        Some(d) if d.join("tests/amdbin/amdbins").is_dir() => return dir,
        Some(d) => format!("{} has no tests/amdbin/amdbins", d.display()),
        None => "GPUABI_CLRX_DIR is not set".to_string(),
    };
    assert!(
        std::env::var("GPUABI_REQUIRE_CLRX").as_deref() != Ok("1"),
        "GPUABI_REQUIRE_CLRX=1 but {why}"
    );
    // Written past libtest's capture (which holds `eprintln!` of passing tests), so that a
    // plain `cargo test` shows the skip.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {why} (a checkout of CLRX's repository, for its AMD binaries)"
    );
    None
}
