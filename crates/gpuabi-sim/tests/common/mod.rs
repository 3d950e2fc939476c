//! Access to a checkout of CLRX's repository (`GPUABI_CLRX_DIR`), whose test data holds AMD
//! Catalyst binaries.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// `GPUABI_CLRX_DIR`, a checkout of CLRX's repository, or `None` (after printing why) when
/// it is unset or missing and `GPUABI_REQUIRE_CLRX` is not `1`.
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
