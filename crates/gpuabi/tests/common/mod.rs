//! Running the built `gpuabi` binary from the repository root, shared by the CLI tests.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// What one run of the binary left behind.
pub struct Run {
    /// Exit code (-1 if killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Whether the run exited with 0.
    pub fn success(&self) -> bool {
        self.code == 0
    }
}

/// Runs `gpuabi ARGS` in the repository root.
pub fn gpuabi(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuabi"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the gpuabi binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs a command that must succeed; returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let run = gpuabi(args);
    assert!(run.success(), "gpuabi {args:?} failed: {}", run.stderr);
    run.stdout
}

/// Runs a command that must succeed and print JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

/// Runs a command that must fail cleanly (exit 1 or clap's 2, no panic); returns its
/// standard error.
pub fn fails(args: &[&str]) -> String {
    let run = gpuabi(args);
    assert!(
        run.code == 1 || run.code == 2,
        "gpuabi {args:?} should fail with 1 or 2, got {}: {}",
        run.code,
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    run.stderr
}

/// Runs a command that must fail with a message containing `needle`.
pub fn fails_naming(args: &[&str], needle: &str) {
    let stderr = fails(args);
    assert!(
        stderr.contains(needle),
        "{args:?}: stderr does not name {needle}: {stderr}"
    );
}

/// A fresh, empty scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuabi-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[allow(unused_imports)] // Not every test file reads outside data.
pub use gpuabi_testdata::shared_data;

/// The numbers of the buffer `name` that `sim run --print` shows.
pub fn printed_u32s(out: &str, name: &str) -> Vec<u32> {
    let mut values = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if line.starts_with("buffer ") {
            inside = line.starts_with(&format!("buffer {name} "));
            continue;
        }
        if let (true, Some((_, rest))) = (inside, line.split_once(':')) {
            values.extend(rest.split_whitespace().map(|v| v.parse::<u32>().unwrap()));
        }
    }
    values
}

#[allow(unused_imports)] // Not every test file reads outside data.
pub use gpuabi_testdata::clrx_dir;
