//! Where gpuabi's tests find the test data kept outside the repository: the shared folder
//! (`../shared` beside the repository, or `GPUABI_SHARED_DIR`), whose `data/` holds AMD's
//! Catalyst binaries, AGX vectors and Mesa captures, and a checkout of CLRX's repository
//! (`GPUABI_CLRX_DIR`), whose test data holds more of AMD's binaries.
//!
//! Tests find the folders with [`shared_data`] and [`clrx_dir`]. A crate whose tests need
//! them calls [`emit_cfgs`] from its build script; a test then carries
//!
//! ```text
//! #[cfg_attr(gpuabi_no_shared_data, ignore = "needs ../shared/data (or GPUABI_SHARED_DIR), which is absent")]
//! ```
//!
//! so that a plain `cargo test` lists it as ignored, with the reason, when the data is
//! absent. With `GPUABI_REQUIRE_SHARED=1` (or `GPUABI_REQUIRE_CLRX=1`) nothing is ignored and
//! missing data fails the test instead, as CI wants.

use std::path::PathBuf;

/// The `cfg` set when `data/` of the shared folder is absent and not required.
pub const NO_SHARED_DATA: &str = "gpuabi_no_shared_data";

/// The `cfg` set when no CLRX checkout is given and none is required.
pub const NO_CLRX: &str = "gpuabi_no_clrx";

/// The shared folder: `GPUABI_SHARED_DIR` if set, else `shared` beside the repository.
pub fn shared_root() -> PathBuf {
    std::env::var_os("GPUABI_SHARED_DIR").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")),
        PathBuf::from,
    )
}

/// Whether `GPUABI_<what>` asks that missing data fail the tests.
fn required(variable: &str) -> bool {
    std::env::var(variable).as_deref() == Ok("1")
}

/// The folder `data/<name>` of the shared folder, or `None` after saying on standard error
/// that it is missing. With `GPUABI_REQUIRE_SHARED=1` a missing folder panics, failing the
/// test that asked.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let dir = shared_root().join("data").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !required("GPUABI_REQUIRE_SHARED"),
        "GPUABI_REQUIRE_SHARED=1 but {} is missing",
        dir.display()
    );
    eprintln!("skipped: {} is missing", dir.display());
    None
}

/// Why the CLRX checkout cannot be used, or `None` when `GPUABI_CLRX_DIR` names one.
fn clrx_missing() -> Option<String> {
    match std::env::var_os("GPUABI_CLRX_DIR").map(PathBuf::from) {
        Some(d) if d.join("tests/amdbin/amdbins").is_dir() => None,
        Some(d) => Some(format!("{} has no tests/amdbin/amdbins", d.display())),
        None => Some("GPUABI_CLRX_DIR is not set".to_string()),
    }
}

/// `GPUABI_CLRX_DIR`, a checkout of CLRX's repository, or `None` after saying why on
/// standard error. With `GPUABI_REQUIRE_CLRX=1` a missing checkout panics.
pub fn clrx_dir() -> Option<PathBuf> {
    let Some(why) = clrx_missing() else {
        return std::env::var_os("GPUABI_CLRX_DIR").map(PathBuf::from);
    };
    assert!(
        !required("GPUABI_REQUIRE_CLRX"),
        "GPUABI_REQUIRE_CLRX=1 but {why}"
    );
    eprintln!("skipped: {why} (a checkout of CLRX's repository, for its AMD binaries)");
    None
}

/// For a build script: declares the two `cfg`s, sets each whose data is absent and not
/// required, and asks Cargo to run the script again when the answer may change (the
/// variables, or the folder that holds `shared` gaining or losing entries).
pub fn emit_cfgs() {
    println!("cargo::rustc-check-cfg=cfg({NO_SHARED_DATA})");
    println!("cargo::rustc-check-cfg=cfg({NO_CLRX})");
    for variable in [
        "GPUABI_SHARED_DIR",
        "GPUABI_REQUIRE_SHARED",
        "GPUABI_CLRX_DIR",
        "GPUABI_REQUIRE_CLRX",
    ] {
        println!("cargo::rerun-if-env-changed={variable}");
    }
    let root = shared_root();
    // A folder's modification time changes when an entry is added or removed, so watching
    // the nearest existing one notices `shared/data` appearing or going.
    let watched = [root.join("data"), root.clone()]
        .into_iter()
        .chain(root.parent().map(PathBuf::from))
        .find(|p| p.is_dir());
    if let Some(watched) = watched {
        println!("cargo::rerun-if-changed={}", watched.display());
    }
    if !root.join("data").is_dir() && !required("GPUABI_REQUIRE_SHARED") {
        println!("cargo::rustc-cfg={NO_SHARED_DATA}");
    }
    if clrx_missing().is_some() && !required("GPUABI_REQUIRE_CLRX") {
        println!("cargo::rustc-cfg={NO_CLRX}");
    }
}
