//! Where gpuabi's tests find the test data kept outside the repository: the shared folder
//! (`../shared` beside the repository, or `GPUABI_SHARED_DIR`), whose `data/` holds AMD's
//! Catalyst binaries, AGX vectors and Mesa captures, and a checkout of CLRX's repository
//! (`GPUABI_CLRX_DIR`), whose test data holds more of AMD's binaries.
//!
//! Tests find the folders with [`shared_data`] and [`clrx_dir`]. A crate whose tests need
//! them calls [`emit_cfgs`] from its build script; a test then carries
//!
//! ```text
//! #[cfg_attr(gpuabi_no_shared_data, ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built")]
//! ```
//!
//! so that a plain `cargo test` lists it as ignored, with the reason, when the data is
//! absent. With `GPUABI_REQUIRE_SHARED=1` (or `GPUABI_REQUIRE_CLRX=1`) nothing is ignored and
//! missing data fails the test instead, as CI wants.

use std::path::PathBuf;

/// The folders of the shared `data/` the tests read.
pub const SHARED_FOLDERS: [&str; 4] = ["agx-exec", "agx-isa", "amd-catalyst", "mesa"];

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
    // Cargo scans a watched folder through and through (for `../shared`'s parent that can
    // be a whole disk), so files stand for the data: the README of each folder that is
    // there. A watched path that does not exist would make Cargo rebuild these crates before
    // every command, so absent folders are not watched: data that appears later is noticed
    // when one of the variables above changes or the crate is rebuilt for another reason,
    // and the ignore reason says the data was absent when the tests were built.
    for folder in SHARED_FOLDERS {
        let readme = root.join("data").join(folder).join("README.md");
        if readme.is_file() {
            println!("cargo::rerun-if-changed={}", readme.display());
        }
    }
    if SHARED_FOLDERS
        .iter()
        .all(|f| !root.join("data").join(f).is_dir())
    {
        // Nothing to watch: ask for the build script itself, so Cargo does not fall back
        // to watching every file of the package.
        println!("cargo::rerun-if-changed=build.rs");
    }
    if !root.join("data").is_dir() && !required("GPUABI_REQUIRE_SHARED") {
        println!("cargo::rustc-cfg={NO_SHARED_DATA}");
    }
    if clrx_missing().is_some() && !required("GPUABI_REQUIRE_CLRX") {
        println!("cargo::rustc-cfg={NO_CLRX}");
    }
}
