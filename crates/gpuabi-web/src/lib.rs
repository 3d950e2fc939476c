//! gpuabi-web: gpuabi's libraries behind a small JSON-in, JSON-out API, the whole of what the
//! web page under `web/` calls (built for `wasm32-unknown-unknown` with `wasm-bindgen`).
//! Every call takes one JSON request and returns `{"ok": true, "result": ...}` or
//! `{"ok": false, "error": {"kind", "message", ...}}`; nothing here reads files, starts
//! processes or threads, or reads a clock, so the same code runs natively (where it is
//! tested) and in the browser.
//!
//! - [`check_json`]: parse and verify a `.gsir` source; errors at line and column.
//! - [`compile_json`]: the assembly for a target and wave size, each call site's frame.
//! - [`run_json`]: the interpreter and the simulator with `gpuabi run`'s launch flags.
//! - [`aco_ranges_json`], [`aco_assign_json`]: `gpuabi aco ranges` and `aco assign`.
//! - [`examples_json`]: the repository's `examples/*.gsir`, embedded when this is built.

pub mod aco;
pub mod compile;
pub mod error;
pub mod run;
pub mod source;

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use error::WebError;

include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// `[{"name", "source"}, ...]`: every example, by file name.
pub fn examples_json() -> String {
    let list: Vec<_> = EXAMPLES
        .iter()
        .map(|(name, source)| serde_json::json!({"name": name, "source": source}))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Parses `request`, answers it with `f`, and writes the answer's JSON.
fn answer<Q: DeserializeOwned, R: Serialize>(
    request: &str,
    f: impl FnOnce(&Q) -> Result<R, WebError>,
) -> String {
    let result = serde_json::from_str::<Q>(request)
        .map_err(|e| WebError::Request(e.to_string()))
        .and_then(|q| f(&q));
    let value = match result {
        Ok(r) => match serde_json::to_value(r) {
            Ok(v) => serde_json::json!({"ok": true, "result": v}),
            Err(e) => {
                serde_json::json!({"ok": false, "error": WebError::Request(e.to_string()).to_json()})
            }
        },
        Err(e) => serde_json::json!({"ok": false, "error": e.to_json()}),
    };
    value.to_string()
}

/// `{"source"}` → the module's functions, signatures and kernels, or its diagnostics.
pub fn check_json(request: &str) -> String {
    answer(request, source::check)
}

/// [`compile::CompileRequest`] → [`compile::CompileResult`].
pub fn compile_json(request: &str) -> String {
    answer(request, compile::compile)
}

/// [`run::RunRequest`] → [`run::RunResult`].
pub fn run_json(request: &str) -> String {
    answer(request, run::run)
}

/// [`aco::AcoRequest`] → the ranges report, its text and SVG.
pub fn aco_ranges_json(request: &str) -> String {
    answer(request, aco::ranges)
}

/// [`aco::AcoRequest`] → the assignment report, its text and SVG.
pub fn aco_assign_json(request: &str) -> String {
    answer(request, aco::assign_params)
}

/// The JavaScript names of the API (`examples`, `check`, `compile`, `run`, `aco_ranges`, `aco_assign`).
#[cfg(target_arch = "wasm32")]
mod bindings {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// See [`crate::examples_json`].
    #[wasm_bindgen]
    pub fn examples() -> String {
        crate::examples_json()
    }

    /// See [`crate::check_json`].
    #[wasm_bindgen]
    pub fn check(request: &str) -> String {
        crate::check_json(request)
    }

    /// See [`crate::compile_json`].
    #[wasm_bindgen]
    pub fn compile(request: &str) -> String {
        crate::compile_json(request)
    }

    /// See [`crate::run_json`].
    #[wasm_bindgen]
    pub fn run(request: &str) -> String {
        crate::run_json(request)
    }

    /// See [`crate::aco_ranges_json`].
    #[wasm_bindgen]
    pub fn aco_ranges(request: &str) -> String {
        crate::aco_ranges_json(request)
    }

    /// See [`crate::aco_assign_json`].
    #[wasm_bindgen]
    pub fn aco_assign(request: &str) -> String {
        crate::aco_assign_json(request)
    }
}
