//! `check`: parse and verify a `.gsir` source, as `gpuabi ir check` does.

use gpuabi_ir::{parse, verify, Module};
use serde::Serialize;

use crate::error::{SourceDiagnostic, WebError};

/// The name the page's source goes by in rendered diagnostics.
pub const FILE: &str = "input.gsir";

/// Parses and verifies `source`: the module, or every diagnostic with its place.
pub fn load(source: &str) -> Result<Module, WebError> {
    let module = parse(source)
        .map_err(|e| WebError::Source(vec![SourceDiagnostic::new(&e.0, FILE, source)]))?;
    verify(&module).map_err(|e| {
        WebError::Source(
            e.0.iter()
                .map(|d| SourceDiagnostic::new(d, FILE, source))
                .collect(),
        )
    })?;
    Ok(module)
}

/// The interpreter's program of `module` (whose text is `source`).
pub fn program(module: &Module, source: &str) -> Result<gpuabi_ir::Program, WebError> {
    gpuabi_ir::Program::new(module).map_err(|e| {
        WebError::Source(
            e.0.iter()
                .map(|d| SourceDiagnostic::new(d, FILE, source))
                .collect(),
        )
    })
}

/// A request naming only a source.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct CheckRequest {
    /// The `.gsir` text.
    pub source: String,
}

/// What `check` says of a valid module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// Functions, kernels included.
    pub functions: usize,
    /// Signatures of indirect calls.
    pub signatures: usize,
    /// The kernels, each with its parameters as `name: type`.
    pub kernels: Vec<KernelInfo>,
}

/// A kernel and its parameters, for the page's launch form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelInfo {
    /// Its name.
    pub name: String,
    /// `(name, type)` of each parameter.
    pub params: Vec<(String, String)>,
}

/// Checks the source of `req`.
pub fn check(req: &CheckRequest) -> Result<Checked, WebError> {
    let module = load(&req.source)?;
    let program = program(&module, &req.source)?;
    let kernels = program
        .kernels()
        .map(|k| KernelInfo {
            name: k.to_string(),
            params: program
                .kernel_params(k)
                .unwrap_or_default()
                .iter()
                .map(|(n, t)| (n.clone(), t.to_string()))
                .collect(),
        })
        .collect();
    Ok(Checked {
        functions: module.functions.len(),
        signatures: module.sigs.len(),
        kernels,
    })
}
