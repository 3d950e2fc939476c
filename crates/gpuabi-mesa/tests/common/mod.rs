//! The captures the tests read: the project's own (`testdata/mesa`) and, when present, the
//! shared one (`data/mesa` of the shared test data, or `GPUABI_SHARED_DIR`).

// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::path::PathBuf;

/// One capture and the payload and hit-attribute sizes RADV gave each of its pipelines.
pub struct Capture {
    /// A short name for reports.
    pub name: &'static str,
    /// Its `radv` folder.
    pub radv: PathBuf,
    /// Pipeline → (payload bytes, hit-attribute bytes).
    pub sizes: fn(&str) -> (u32, u32),
}

/// The sizes of the project's capture: RADV sizes every function of a pipeline by the
/// largest payload or callable data of its stages and the largest hit attributes (at least
/// 8 bytes), or by a library's declared interface (`radv_pipeline_rt.c`); these are the
/// sizes of `tools/mesa/shaders` and `tools/mesa/rt_capture.c` under that rule
/// (`testdata/mesa/README.md` lists them).
fn own_sizes(pipeline: &str) -> (u32, u32) {
    match pipeline {
        "plain" => (48, 32),
        "many_ahit" => (12, 16),
        "lib_all" | "linked_all" => (32, 32),
        "lib_hits" | "lib_misc" | "linked_split" => (24, 24),
        other => panic!("no sizes for pipeline `{other}` of the project's capture"),
    }
}

/// The sizes of the shared capture: every pipeline's largest payload or callable data is
/// the 32-byte payload; the largest hit attributes, the intersection shader's 28 bytes
/// (pipelines without it have no any-hit or intersection function).
fn shared_sizes(_pipeline: &str) -> (u32, u32) {
    (32, 28)
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The project's own capture, `testdata/mesa`.
pub fn own_capture() -> Capture {
    Capture {
        name: "testdata",
        radv: repo().join("testdata/mesa/radv"),
        sizes: own_sizes,
    }
}

/// The shared capture, `data/mesa` of the shared test data (`gpuabi_testdata`), or `None`
/// after saying it is missing; with `GPUABI_REQUIRE_SHARED=1` a missing capture panics.
pub fn shared_capture() -> Option<Capture> {
    Some(Capture {
        name: "shared",
        radv: gpuabi_testdata::shared_data("mesa")?.join("radv"),
        sizes: shared_sizes,
    })
}
