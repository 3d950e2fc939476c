//! A Vulkan draw's state as DRAW.json describes it: the vertex input and robustness the
//! vertex prolog depends on, and the multisample, blend and attachment state the fragment
//! prolog and epilog depend on, with Vulkan's own enum names. [`crate::hk_key`] turns it
//! into gpuabi's keys as Honeykrisp does.
//!
//! ```json
//! {"vertex": {"robustness": "disabled|robust_buffer_access|robust_buffer_access_2",
//!             "static_vertex_input": false,
//!             "bindings": [{"binding": 0, "stride": 32, "input_rate": "vertex|instance", "divisor": 1}],
//!             "attributes": [{"location": 0, "binding": 0, "format": "VK_FORMAT_R32G32B32_SFLOAT", "offset": 0}],
//!             "shader_inputs": [{"location": 0, "components": "xyz"}]},
//!  "fragment": {"samples": 1, "sample_shading": false, "alpha_to_coverage": false, "alpha_to_one": false,
//!               "sample_mask": 255, "logic_op": null, "blend_constants": [0.0, 0.0, 0.0, 0.0],
//!               "attachments": [{"location": 0, "format": "VK_FORMAT_R8G8B8A8_UNORM", "blend_enable": true,
//!                                "src_color": "VK_BLEND_FACTOR_SRC_ALPHA", "dst_color": "VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA",
//!                                "color_op": "VK_BLEND_OP_ADD", "src_alpha": "VK_BLEND_FACTOR_ONE",
//!                                "dst_alpha": "VK_BLEND_FACTOR_ZERO", "alpha_op": "VK_BLEND_OP_ADD", "write_mask": "rgba"}],
//!               "shader_outputs": [{"location": 0, "index": 0, "type": "float|int|uint", "bits": 32, "w_is_one": false}]}}
//! ```
//!
//! Either part may be absent. Optional fields (defaults in parentheses), each for a state
//! Honeykrisp keys on that the rest cannot express: `static_vertex_input` (false): the
//! pipeline's vertex input is static, so the main shader fetches the attributes itself and
//! the prolog loads nothing; `sample_mask` (all ones): `vkCmdSetSampleMaskEXT`'s mask;
//! `index` (0): 1 for the second colour of dual-source blending; `w_is_one` (false): the
//! compiled fragment shader writes the constant 1.0 to location 0's w (Mesa then leaves it
//! out of the registers, `agx_nir_lower_fs_output_to_epilog`). Every other field is
//! required; unknown fields are errors. Errors name the field by its path
//! (`fragment.attachments[1].src_color`) and what is accepted.

use serde_json::{Map, Value};
use thiserror::Error;

/// A DRAW.json that does not describe a draw.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VkStateError {
    /// The text is not JSON: the reader's message, with the line and column.
    #[error("{0}")]
    Syntax(String),
    /// A field is missing, has the wrong kind of value, or holds a state that is not
    /// accepted.
    #[error("{path}: {what}")]
    Field {
        /// The field's path, e.g. `fragment.attachments[1].src_color`.
        path: String,
        /// What is wrong and what is accepted.
        what: String,
    },
}

/// Builds a [`VkStateError::Field`].
pub(crate) fn field_error(path: impl Into<String>, what: impl Into<String>) -> VkStateError {
    VkStateError::Field {
        path: path.into(),
        what: what.into(),
    }
}

/// The device's robustness features (Honeykrisp keys the vertex prolog on them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VkRobustness {
    /// Neither `robustBufferAccess` nor `robustBufferAccess2`.
    Disabled,
    /// `robustBufferAccess`.
    RobustBufferAccess,
    /// `robustBufferAccess2`.
    RobustBufferAccess2,
}

/// A vertex buffer binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkBinding {
    /// The binding number.
    pub binding: u32,
    /// Stride in bytes (the dynamic stride the draw set).
    pub stride: u32,
    /// Per-instance input rate.
    pub instanced: bool,
    /// Instance divisor (1 for per-vertex bindings; 0 = every instance reads element 0).
    pub divisor: u32,
}

/// A vertex attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkAttribute {
    /// Shader location.
    pub location: u32,
    /// Binding it reads.
    pub binding: u32,
    /// `VK_FORMAT_*` name.
    pub format: String,
    /// Byte offset in the binding.
    pub offset: u32,
}

/// Components the vertex shader reads at one location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkShaderInput {
    /// Shader location.
    pub location: u32,
    /// Bit `c` for x, y, z, w.
    pub components: u8,
}

/// The vertex half of a draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkVertexState {
    /// The device's robustness.
    pub robustness: VkRobustness,
    /// The pipeline's vertex input is static (not `VK_DYNAMIC_STATE_VERTEX_INPUT_EXT`).
    pub static_vertex_input: bool,
    /// Bindings.
    pub bindings: Vec<VkBinding>,
    /// Attributes.
    pub attributes: Vec<VkAttribute>,
    /// Components the vertex shader reads.
    pub shader_inputs: Vec<VkShaderInput>,
}

/// One colour attachment's blend state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkAttachment {
    /// The fragment output location stored in the attachment
    /// (`VkRenderingAttachmentLocationInfoKHR`).
    pub location: u32,
    /// `VK_FORMAT_*` name.
    pub format: String,
    /// Blending on.
    pub blend_enable: bool,
    /// `VK_BLEND_FACTOR_*` names and `VK_BLEND_OP_*` names: source, destination and op of
    /// colour, then of alpha.
    pub src_color: String,
    /// Destination colour factor.
    pub dst_color: String,
    /// Colour op.
    pub color_op: String,
    /// Source alpha factor.
    pub src_alpha: String,
    /// Destination alpha factor.
    pub dst_alpha: String,
    /// Alpha op.
    pub alpha_op: String,
    /// Components written: bit `c` for r, g, b, a (0 when colour writes are disabled).
    pub write_mask: u8,
}

/// The type of a fragment shader output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VkOutputType {
    /// Floating point.
    Float,
    /// Signed integer.
    Int,
    /// Unsigned integer.
    Uint,
}

/// One output the fragment shader writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VkShaderOutput {
    /// Location.
    pub location: u32,
    /// Dual-source index (0 or 1).
    pub index: u32,
    /// Type.
    pub ty: VkOutputType,
    /// Bits per component: 16 or 32.
    pub bits: u32,
    /// The compiled shader writes the constant 1.0 to w.
    pub w_is_one: bool,
}

/// The fragment half of a draw.
#[derive(Debug, Clone, PartialEq)]
pub struct VkFragmentState {
    /// Rasterization samples.
    pub samples: u32,
    /// The fragment shader runs per sample.
    pub sample_shading: bool,
    /// Alpha-to-coverage.
    pub alpha_to_coverage: bool,
    /// Alpha-to-one.
    pub alpha_to_one: bool,
    /// The sample mask.
    pub sample_mask: u32,
    /// `VK_LOGIC_OP_*` name when logic ops are on.
    pub logic_op: Option<String>,
    /// Blend constants.
    pub blend_constants: [f32; 4],
    /// Colour attachments in attachment order.
    pub attachments: Vec<VkAttachment>,
    /// Outputs the fragment shader writes.
    pub shader_outputs: Vec<VkShaderOutput>,
}

/// A draw's state.
#[derive(Debug, Clone, PartialEq)]
pub struct VkDrawState {
    /// The vertex half, when given.
    pub vertex: Option<VkVertexState>,
    /// The fragment half, when given.
    pub fragment: Option<VkFragmentState>,
}

/// A JSON object being read, with its path for messages.
struct Obj<'a> {
    path: String,
    map: &'a Map<String, Value>,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> Obj<'a> {
    fn new(path: String, v: &'a Value, allowed: &[&str]) -> Result<Obj<'a>, VkStateError> {
        let Value::Object(map) = v else {
            return Err(field_error(
                path,
                format!("{} (expected an object)", kind(v)),
            ));
        };
        if let Some(k) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            let o = Obj { path, map };
            return Err(field_error(
                o.at(k),
                format!("unknown field (expected one of {})", allowed.join(", ")),
            ));
        }
        Ok(Obj { path, map })
    }

    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&self, key: &str) -> Result<&'a Value, VkStateError> {
        self.map
            .get(key)
            .ok_or_else(|| field_error(self.at(key), "missing"))
    }

    fn uint(&self, key: &str, default: Option<u32>) -> Result<u32, VkStateError> {
        let v = match (self.map.get(key), default) {
            (None, Some(d)) => return Ok(d),
            (None, None) => return Err(field_error(self.at(key), "missing (expected an integer)")),
            (Some(v), _) => v,
        };
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                field_error(
                    self.at(key),
                    format!("{v} (expected an integer from 0 to 4294967295)"),
                )
            })
    }

    fn boolean(&self, key: &str, default: Option<bool>) -> Result<bool, VkStateError> {
        match (self.map.get(key), default) {
            (None, Some(d)) => Ok(d),
            (None, None) => Err(field_error(
                self.at(key),
                "missing (expected true or false)",
            )),
            (Some(Value::Bool(b)), _) => Ok(*b),
            (Some(v), _) => Err(field_error(
                self.at(key),
                format!("{} (expected true or false)", kind(v)),
            )),
        }
    }

    fn string(&self, key: &str) -> Result<&'a str, VkStateError> {
        match self.get(key)? {
            Value::String(s) => Ok(s),
            v => Err(field_error(
                self.at(key),
                format!("{} (expected a string)", kind(v)),
            )),
        }
    }

    fn array(&self, key: &str) -> Result<&'a [Value], VkStateError> {
        match self.get(key)? {
            Value::Array(a) => Ok(a),
            v => Err(field_error(
                self.at(key),
                format!("{} (expected an array)", kind(v)),
            )),
        }
    }
}

/// Parses a channel list such as `"xyz"` over `letters` into a bit mask.
fn mask(path: &str, text: &str, letters: &str, empty_ok: bool) -> Result<u8, VkStateError> {
    let mut m = 0u8;
    for ch in text.chars() {
        let bit = letters.find(ch).filter(|_| ch.is_ascii()).ok_or_else(|| {
            field_error(
                path,
                format!("`{text}` (expected letters of \"{letters}\", each once)"),
            )
        })?;
        if m & (1 << bit) != 0 {
            return Err(field_error(
                path,
                format!(
                    "`{text}` names `{ch}` twice (expected letters of \"{letters}\", each once)"
                ),
            ));
        }
        m |= 1 << bit;
    }
    if m == 0 && !empty_ok {
        return Err(field_error(
            path,
            format!("empty (expected letters of \"{letters}\")"),
        ));
    }
    Ok(m)
}

fn vertex(v: &Value) -> Result<VkVertexState, VkStateError> {
    let o = Obj::new(
        "vertex".into(),
        v,
        &[
            "robustness",
            "static_vertex_input",
            "bindings",
            "attributes",
            "shader_inputs",
        ],
    )?;
    let robustness = match o.string("robustness")? {
        "disabled" => VkRobustness::Disabled,
        "robust_buffer_access" => VkRobustness::RobustBufferAccess,
        "robust_buffer_access_2" => VkRobustness::RobustBufferAccess2,
        other => {
            return Err(field_error(
                o.at("robustness"),
                format!(
                    "`{other}` (expected \"disabled\", \"robust_buffer_access\" or \"robust_buffer_access_2\")"
                ),
            ))
        }
    };
    let mut bindings = Vec::new();
    for (i, b) in o.array("bindings")?.iter().enumerate() {
        let b = Obj::new(
            format!("vertex.bindings[{i}]"),
            b,
            &["binding", "stride", "input_rate", "divisor"],
        )?;
        let instanced = match b.string("input_rate")? {
            "vertex" => false,
            "instance" => true,
            other => {
                return Err(field_error(
                    b.at("input_rate"),
                    format!("`{other}` (expected \"vertex\" or \"instance\")"),
                ))
            }
        };
        bindings.push(VkBinding {
            binding: b.uint("binding", None)?,
            stride: b.uint("stride", None)?,
            instanced,
            divisor: b.uint("divisor", Some(1))?,
        });
    }
    let mut attributes = Vec::new();
    for (i, a) in o.array("attributes")?.iter().enumerate() {
        let a = Obj::new(
            format!("vertex.attributes[{i}]"),
            a,
            &["location", "binding", "format", "offset"],
        )?;
        attributes.push(VkAttribute {
            location: a.uint("location", None)?,
            binding: a.uint("binding", None)?,
            format: a.string("format")?.to_string(),
            offset: a.uint("offset", Some(0))?,
        });
    }
    let mut shader_inputs = Vec::new();
    for (i, s) in o.array("shader_inputs")?.iter().enumerate() {
        let s = Obj::new(
            format!("vertex.shader_inputs[{i}]"),
            s,
            &["location", "components"],
        )?;
        shader_inputs.push(VkShaderInput {
            location: s.uint("location", None)?,
            components: mask(&s.at("components"), s.string("components")?, "xyzw", false)?,
        });
    }
    Ok(VkVertexState {
        robustness,
        static_vertex_input: o.boolean("static_vertex_input", Some(false))?,
        bindings,
        attributes,
        shader_inputs,
    })
}

fn fragment(v: &Value) -> Result<VkFragmentState, VkStateError> {
    let o = Obj::new(
        "fragment".into(),
        v,
        &[
            "samples",
            "sample_shading",
            "alpha_to_coverage",
            "alpha_to_one",
            "sample_mask",
            "logic_op",
            "blend_constants",
            "attachments",
            "shader_outputs",
        ],
    )?;
    let logic_op = match o.get("logic_op")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        v => {
            return Err(field_error(
                o.at("logic_op"),
                format!("{} (expected null or a VK_LOGIC_OP_* name)", kind(v)),
            ))
        }
    };
    let constants = o.array("blend_constants")?;
    let mut blend_constants = [0f32; 4];
    if constants.len() != 4 {
        return Err(field_error(
            o.at("blend_constants"),
            format!("{} numbers (expected four: r, g, b, a)", constants.len()),
        ));
    }
    for (i, c) in constants.iter().enumerate() {
        blend_constants[i] = c.as_f64().ok_or_else(|| {
            field_error(
                format!("fragment.blend_constants[{i}]"),
                format!("{} (expected a number)", kind(c)),
            )
        })? as f32;
    }
    let mut attachments = Vec::new();
    for (i, a) in o.array("attachments")?.iter().enumerate() {
        let a = Obj::new(
            format!("fragment.attachments[{i}]"),
            a,
            &[
                "location",
                "format",
                "blend_enable",
                "src_color",
                "dst_color",
                "color_op",
                "src_alpha",
                "dst_alpha",
                "alpha_op",
                "write_mask",
            ],
        )?;
        attachments.push(VkAttachment {
            location: a.uint("location", None)?,
            format: a.string("format")?.to_string(),
            blend_enable: a.boolean("blend_enable", None)?,
            src_color: a.string("src_color")?.to_string(),
            dst_color: a.string("dst_color")?.to_string(),
            color_op: a.string("color_op")?.to_string(),
            src_alpha: a.string("src_alpha")?.to_string(),
            dst_alpha: a.string("dst_alpha")?.to_string(),
            alpha_op: a.string("alpha_op")?.to_string(),
            write_mask: mask(&a.at("write_mask"), a.string("write_mask")?, "rgba", true)?,
        });
    }
    let mut shader_outputs = Vec::new();
    for (i, s) in o.array("shader_outputs")?.iter().enumerate() {
        let s = Obj::new(
            format!("fragment.shader_outputs[{i}]"),
            s,
            &["location", "index", "type", "bits", "w_is_one"],
        )?;
        let ty = match s.string("type")? {
            "float" => VkOutputType::Float,
            "int" => VkOutputType::Int,
            "uint" => VkOutputType::Uint,
            other => {
                return Err(field_error(
                    s.at("type"),
                    format!("`{other}` (expected \"float\", \"int\" or \"uint\")"),
                ))
            }
        };
        let bits = s.uint("bits", None)?;
        if !matches!(bits, 16 | 32) {
            return Err(field_error(
                s.at("bits"),
                format!("{bits} (expected 16 or 32)"),
            ));
        }
        let index = s.uint("index", Some(0))?;
        if index > 1 {
            return Err(field_error(
                s.at("index"),
                format!("{index} (expected 0, or 1 for the second colour of dual-source blending)"),
            ));
        }
        shader_outputs.push(VkShaderOutput {
            location: s.uint("location", None)?,
            index,
            ty,
            bits,
            w_is_one: s.boolean("w_is_one", Some(false))?,
        });
    }
    Ok(VkFragmentState {
        samples: o.uint("samples", None)?,
        sample_shading: o.boolean("sample_shading", None)?,
        alpha_to_coverage: o.boolean("alpha_to_coverage", None)?,
        alpha_to_one: o.boolean("alpha_to_one", None)?,
        sample_mask: o.uint("sample_mask", Some(u32::MAX))?,
        logic_op,
        blend_constants,
        attachments,
        shader_outputs,
    })
}

impl VkDrawState {
    /// Reads a DRAW.json text.
    pub fn from_json(text: &str) -> Result<VkDrawState, VkStateError> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| VkStateError::Syntax(e.to_string()))?;
        let o = Obj::new(String::new(), &v, &["vertex", "fragment"])?;
        Ok(VkDrawState {
            vertex: o.map.get("vertex").map(vertex).transpose()?,
            fragment: o.map.get("fragment").map(fragment).transpose()?,
        })
    }
}
