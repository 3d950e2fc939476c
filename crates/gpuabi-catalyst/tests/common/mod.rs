//! Access to the shared test data (`data/...` of the shared test data from the repository root) and to a
//! checkout of CLRX's repository (`GPUABI_CLRX_DIR`).
#![allow(dead_code)] // Not every test reads both.

use std::path::PathBuf;

#[allow(unused_imports)] // Not every test file reads outside data.
pub use gpuabi_testdata::shared_data;

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

#[allow(unused_imports)] // Not every test file reads outside data.
pub use gpuabi_testdata::clrx_dir;
