//! Kernel descriptions written as JSON or TOML instead of OpenCL C.
//!
//! Shape (TOML shown; JSON uses the same fields):
//!
//! ```toml
//! kernel = "scale"
//! # Optional OpenCL C definitions the argument types may use.
//! types = "typedef struct { float4 a; int b; } pair;"
//! reqd_work_group_size = [64, 1, 1]   # optional
//!
//! [[args]]
//! name = "n"
//! type = "uint"
//!
//! [[args]]
//! name = "out"
//! type = "global float*"   # any OpenCL C parameter type
//! unused = false           # optional, default false
//! id = 12                  # optional explicit resource id (UAV, cb, image or counter)
//! ```
//!
//! A file may also hold several kernels as `[[kernels]]` tables of the same shape.

use serde::Deserialize;

use crate::opencl::{parse_param, parse_type_env, SourceError};
use crate::types::Kernel;

/// One argument of a description.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgDesc {
    /// Argument name.
    pub name: String,
    /// OpenCL C type of the parameter (`const global uint*`, `read_only image2d_t`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The kernel does not use the argument.
    #[serde(default)]
    pub unused: bool,
    /// Explicit resource id.
    #[serde(default)]
    pub id: Option<u32>,
}

/// One kernel of a description.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelDesc {
    /// Kernel name.
    pub kernel: String,
    /// OpenCL C definitions (structures, typedefs).
    #[serde(default)]
    pub types: String,
    /// Required work-group size.
    #[serde(default)]
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// Arguments in order.
    #[serde(default)]
    pub args: Vec<ArgDesc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManyDesc {
    kernels: Vec<KernelDesc>,
}

/// Why a description could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptionError {
    /// The JSON or TOML itself is malformed (position in the file).
    #[error("{line}:{column}: {message}")]
    Syntax {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// An argument type or the `types` text is not valid OpenCL C.
    #[error("kernel '{kernel}', {field}: {error}")]
    Type {
        /// The kernel.
        kernel: String,
        /// `types` or `args[N].type`.
        field: String,
        /// The error within that text.
        error: SourceError,
    },
}

/// Format of a description file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescFormat {
    /// JSON.
    Json,
    /// TOML.
    Toml,
}

/// Reads the kernels of a JSON or TOML description.
pub fn parse(text: &str, format: DescFormat) -> Result<Vec<Kernel>, DescriptionError> {
    // Decide the shape first, then read the text again into the right type so that error
    // positions refer to the file.
    let descs = match format {
        DescFormat::Json => {
            let json_err = |e: serde_json::Error| DescriptionError::Syntax {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            };
            let value: serde_json::Value = serde_json::from_str(text).map_err(json_err)?;
            if value.get("kernels").is_some() {
                serde_json::from_str::<ManyDesc>(text)
                    .map_err(json_err)?
                    .kernels
            } else {
                vec![serde_json::from_str::<KernelDesc>(text).map_err(json_err)?]
            }
        }
        DescFormat::Toml => {
            let toml_err = |e: toml::de::Error| {
                let at = e.span().map_or(0, |s| s.start);
                let loc = SourceError::at(text, at, 0, "");
                DescriptionError::Syntax {
                    line: loc.line,
                    column: loc.column,
                    message: e.message().to_string(),
                }
            };
            let table: toml::Table = toml::from_str(text).map_err(toml_err)?;
            if table.contains_key("kernels") {
                toml::from_str::<ManyDesc>(text).map_err(toml_err)?.kernels
            } else {
                vec![toml::from_str::<KernelDesc>(text).map_err(toml_err)?]
            }
        }
    };
    descs.iter().map(to_kernel).collect()
}

fn to_kernel(d: &KernelDesc) -> Result<Kernel, DescriptionError> {
    let env = parse_type_env(&d.types).map_err(|error| DescriptionError::Type {
        kernel: d.kernel.clone(),
        field: "types".into(),
        error,
    })?;
    let mut args = Vec::with_capacity(d.args.len());
    for (i, a) in d.args.iter().enumerate() {
        let decl = format!("{} {}", a.ty, a.name);
        let mut arg = parse_param(&env, &decl).map_err(|error| DescriptionError::Type {
            kernel: d.kernel.clone(),
            field: format!("args[{i}] ('{} {}')", a.ty, a.name),
            error,
        })?;
        arg.used = !a.unused;
        arg.explicit_id = a.id;
        args.push(arg);
    }
    Ok(Kernel {
        name: d.kernel.clone(),
        args,
        reqd_work_group_size: d.reqd_work_group_size,
    })
}
