//! gpuabi's vertex prolog, fragment prolog and fragment epilog keys of a Vulkan draw, made
//! as Honeykrisp makes Mesa's `agx_vs_prolog_key`, `agx_fs_prolog_key` and
//! `agx_fs_epilog_key` at draw time (`hk_flush_dynamic_state` and `agx_fill_velem_keys`
//! in `src/asahi/vulkan/hk_cmd_draw.c`).
//!
//! Vertex prolog:
//! * Robustness is the device's: `robustBufferAccess2` is D3D robustness,
//!   `robustBufferAccess` GL robustness, neither disabled. Soft faults are off: Honeykrisp
//!   asks `agx_has_soft_fault`, which is false on the G13 the captures ran on; without
//!   them `agx_nir_lower_vbo` raises the level to GL itself.
//! * The prolog runs before a hardware vertex shader (no geometry or tessellation stage
//!   in the state), so the key is the hardware variant without an index fetch.
//! * Slots: the shader's inputs are compacted in location order
//!   (`nir_assign_io_var_locations`), so the attribute at location `L` lands in slot
//!   `count of read locations below L`; its format, its binding's dynamic stride, divisor
//!   and input rate make the slot's vertex element, and the components the shader reads
//!   there make its component mask. Attributes at locations the shader does not read
//!   take no part in the code.
//! * With static vertex input Honeykrisp fetches in the main shader
//!   (`static_vi`): the key has no attributes and the prolog loads nothing.
//!
//! Fragment epilog:
//! * Samples, sample shading, alpha-to-coverage, alpha-to-one, the logic op (when on) and
//!   each attachment's format, location (Honeykrisp's `remap`), write mask (0 when colour
//!   writes are disabled) and blend equations; a disabled blend is Honeykrisp's
//!   `ONE`/`ZERO`/`ADD` in both equations, which replaces the destination and is written
//!   as no blend.
//! * From the fragment shader: the size of each location's colour (`size_32`), the
//!   dual-source colour as location 1 (`agx_nir_lower_fs_output_to_epilog`), and
//!   `loc0_w_1` when the compiled shader writes the constant 1.0 to location 0's w. An
//!   attachment whose location the shader does not write is stored nothing (Mesa's
//!   `loc_written`): its key keeps the format (the tile-buffer layout counts it) with an
//!   empty colour mask.
//! * A Vulkan fragment shader has no `gl_FragColor` (`broadcast_rt0` is off); the state
//!   describes shaders without depth/stencil writes and forced early tests, so `write_z`,
//!   `write_s` and `sample_mask_after_force_early` are off.
//!
//! Fragment prolog: compiled only when the sample mask leaves out a sample of the
//! rasterization samples (pipeline statistics and cull distances, its other reasons, are
//! outside the state); then the key has that mask and runs the depth/stencil tests unless
//! the epilog discards (alpha-to-coverage).

use crate::blend::{BlendFactor, BlendFunc, Equation, LogicOp};
use crate::epilog::{EpilogKey, EpilogRt};
use crate::fs_prolog::FsPrologKey;
use crate::prolog::{PrologAttrib, PrologKey};
use crate::tilebuffer::{rt_format, TileBufferError};
use crate::vertex_key::{fetch_plan, Robustness, RobustnessLevel, VertexElement, VertexKeyError};
use crate::vk_format::pipe_format;
use crate::vk_state::{
    field_error, VkFragmentState, VkRobustness, VkShaderOutput, VkStateError, VkVertexState,
};

/// Mesa's `AGX_MAX_ATTRIBS`: prolog slots.
const MAX_SLOTS: usize = 16;
/// Colour attachments (and output locations) of the G13.
const MAX_ATTACHMENTS: usize = 8;

/// `VK_LOGIC_OP_*` names in Vulkan's order, with Mesa's op (`vk_logic_op_to_pipe`).
const LOGIC_OPS: [(&str, LogicOp); 16] = [
    ("CLEAR", LogicOp::Clear),
    ("AND", LogicOp::And),
    ("AND_REVERSE", LogicOp::AndReverse),
    ("COPY", LogicOp::Copy),
    ("AND_INVERTED", LogicOp::AndInverted),
    ("NO_OP", LogicOp::Noop),
    ("XOR", LogicOp::Xor),
    ("OR", LogicOp::Or),
    ("NOR", LogicOp::Nor),
    ("EQUIVALENT", LogicOp::Equiv),
    ("INVERT", LogicOp::Invert),
    ("OR_REVERSE", LogicOp::OrReverse),
    ("COPY_INVERTED", LogicOp::CopyInverted),
    ("OR_INVERTED", LogicOp::OrInverted),
    ("NAND", LogicOp::Nand),
    ("SET", LogicOp::Set),
];

/// `VK_BLEND_OP_*` names of the five standard ops (`vk_blend_op_to_pipe`).
const BLEND_OPS: [(&str, BlendFunc); 5] = [
    ("ADD", BlendFunc::Add),
    ("SUBTRACT", BlendFunc::Subtract),
    ("REVERSE_SUBTRACT", BlendFunc::ReverseSubtract),
    ("MIN", BlendFunc::Min),
    ("MAX", BlendFunc::Max),
];

/// The serialized name of a value (`one_minus_src_alpha`): Vulkan's enum name without its
/// prefix, in lower case.
fn serial<T: serde::Serialize>(x: T) -> String {
    serde_json::to_value(x)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn blend_factor(path: String, name: &str) -> Result<BlendFactor, VkStateError> {
    name.strip_prefix("VK_BLEND_FACTOR_")
        .and_then(|n| {
            let n = n.to_ascii_lowercase();
            BlendFactor::all().find(|f| serial(*f) == n)
        })
        .ok_or_else(|| {
            let names: Vec<String> = BlendFactor::all()
                .map(|f| format!("VK_BLEND_FACTOR_{}", serial(f).to_ascii_uppercase()))
                .collect();
            field_error(
                path,
                format!("`{name}` (expected one of {})", names.join(", ")),
            )
        })
}

fn blend_op(path: String, name: &str) -> Result<BlendFunc, VkStateError> {
    name.strip_prefix("VK_BLEND_OP_")
        .and_then(|n| BLEND_OPS.iter().find(|(v, _)| *v == n))
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let names: Vec<String> = BLEND_OPS
                .iter()
                .map(|(n, _)| format!("VK_BLEND_OP_{n}"))
                .collect();
            let why = if name.ends_with("_EXT") {
                " (advanced blend ops are not generated by gpuabi's epilog)"
            } else {
                ""
            };
            field_error(
                path,
                format!("`{name}`{why} (expected one of {})", names.join(", ")),
            )
        })
}

fn logic_op(path: String, name: &str) -> Result<LogicOp, VkStateError> {
    name.strip_prefix("VK_LOGIC_OP_")
        .and_then(|n| LOGIC_OPS.iter().find(|(v, _)| *v == n))
        .map(|(_, op)| *op)
        .ok_or_else(|| {
            let names: Vec<String> = LOGIC_OPS
                .iter()
                .map(|(n, _)| format!("VK_LOGIC_OP_{n}"))
                .collect();
            field_error(
                path,
                format!("`{name}` (expected null or one of {})", names.join(", ")),
            )
        })
}

/// A `VK_FORMAT_*` name as a pipe format, or an error naming `path`.
fn format(path: String, name: &str) -> Result<String, VkStateError> {
    if !name.starts_with("VK_FORMAT_") {
        return Err(field_error(
            path,
            format!("`{name}` (expected a VK_FORMAT_* name)"),
        ));
    }
    pipe_format(name).ok_or_else(|| {
        field_error(
            path,
            format!("`{name}` is not a colour format (expected an uncompressed, single-plane colour VK_FORMAT_* name)"),
        )
    })
}

/// The vertex prolog key of a draw's vertex state.
pub fn vertex_prolog_key(v: &VkVertexState) -> Result<PrologKey, VkStateError> {
    let level = match v.robustness {
        VkRobustness::Disabled => RobustnessLevel::Disabled,
        VkRobustness::RobustBufferAccess => RobustnessLevel::Gl,
        VkRobustness::RobustBufferAccess2 => RobustnessLevel::D3d,
    };
    let robustness = Robustness {
        level,
        soft_fault: false,
    };
    for (i, b) in v.bindings.iter().enumerate() {
        if v.bindings[..i].iter().any(|o| o.binding == b.binding) {
            return Err(field_error(
                format!("vertex.bindings[{i}].binding"),
                format!("binding {} is described twice", b.binding),
            ));
        }
    }
    for (i, a) in v.attributes.iter().enumerate() {
        if v.attributes[..i].iter().any(|o| o.location == a.location) {
            return Err(field_error(
                format!("vertex.attributes[{i}].location"),
                format!("location {} has two attributes", a.location),
            ));
        }
        format(format!("vertex.attributes[{i}].format"), &a.format)?;
        if !v.bindings.iter().any(|b| b.binding == a.binding) {
            return Err(field_error(
                format!("vertex.attributes[{i}].binding"),
                format!("binding {} is not in vertex.bindings", a.binding),
            ));
        }
    }
    let mut read: Vec<u32> = Vec::new();
    for (i, s) in v.shader_inputs.iter().enumerate() {
        if read.contains(&s.location) {
            return Err(field_error(
                format!("vertex.shader_inputs[{i}].location"),
                format!("location {} is listed twice", s.location),
            ));
        }
        read.push(s.location);
    }
    if read.len() > MAX_SLOTS {
        return Err(field_error(
            "vertex.shader_inputs",
            format!(
                "{} locations read (a vertex shader has at most {MAX_SLOTS} attributes, Mesa's AGX_MAX_ATTRIBS)",
                read.len()
            ),
        ));
    }
    let mut attribs = Vec::new();
    if !v.static_vertex_input {
        for (i, s) in v.shader_inputs.iter().enumerate() {
            let slot = read.iter().filter(|&&l| l < s.location).count() as u16;
            let (ai, a) = v
                .attributes
                .iter()
                .enumerate()
                .find(|(_, a)| a.location == s.location)
                .ok_or_else(|| {
                    field_error(
                        format!("vertex.shader_inputs[{i}].location"),
                        format!(
                            "the shader reads location {} but vertex.attributes has no attribute there",
                            s.location
                        ),
                    )
                })?;
            let (bi, b) = v
                .bindings
                .iter()
                .enumerate()
                .find(|(_, b)| b.binding == a.binding)
                .ok_or_else(|| {
                    field_error(
                        format!("vertex.attributes[{ai}].binding"),
                        "not in vertex.bindings",
                    )
                })?;
            if b.stride > u32::from(u16::MAX) {
                return Err(field_error(
                    format!("vertex.bindings[{bi}].stride"),
                    format!(
                        "{} bytes (Mesa's agx_velem_key holds strides up to 65535)",
                        b.stride
                    ),
                ));
            }
            let element = VertexElement {
                format: format(format!("vertex.attributes[{ai}].format"), &a.format)?,
                stride: b.stride,
                divisor: if b.instanced { b.divisor } else { 1 },
                instanced: b.instanced,
            };
            fetch_plan(&element, robustness).map_err(|e| match e {
                VertexKeyError::UnsupportedVertexFormat(_) => field_error(
                    format!("vertex.attributes[{ai}].format"),
                    format!(
                        "`{}` is not a vertex format Mesa's agx_vbo_internal_format accepts (8-, 16- and 32-bit array formats other than sRGB, 10-10-10-2 and B10G11R11_UFLOAT)",
                        a.format
                    ),
                ),
                VertexKeyError::MisalignedStride { .. } => {
                    field_error(format!("vertex.bindings[{bi}].stride"), e.to_string())
                }
            })?;
            attribs.push(PrologAttrib {
                slot,
                element,
                components: s.components,
            });
        }
        attribs.sort_by_key(|a| a.slot);
    }
    Ok(PrologKey {
        robustness,
        hw: true,
        index_size: 0,
        attribs,
    })
}

fn samples(f: &VkFragmentState) -> Result<u8, VkStateError> {
    match f.samples {
        1 | 2 | 4 => Ok(f.samples as u8),
        n => Err(field_error(
            "fragment.samples",
            format!("{n} (expected 1, 2 or 4: the G13's sample counts)"),
        )),
    }
}

/// The output of `location` and dual-source `index`, with its position in the list.
fn output(f: &VkFragmentState, location: u32, index: u32) -> Option<(usize, &VkShaderOutput)> {
    f.shader_outputs
        .iter()
        .enumerate()
        .find(|(_, o)| o.location == location && o.index == index)
}

/// The fragment epilog key of a draw's fragment state.
pub fn fragment_epilog_key(f: &VkFragmentState) -> Result<EpilogKey, VkStateError> {
    let samples = samples(f)?;
    for (i, o) in f.shader_outputs.iter().enumerate() {
        let at = |k: &str| format!("fragment.shader_outputs[{i}].{k}");
        if o.location as usize >= MAX_ATTACHMENTS {
            return Err(field_error(
                at("location"),
                format!("{} (expected 0 to 7)", o.location),
            ));
        }
        if f.shader_outputs[..i]
            .iter()
            .any(|p| p.location == o.location && p.index == o.index)
        {
            return Err(field_error(
                at("location"),
                format!("location {} index {} is listed twice", o.location, o.index),
            ));
        }
        if o.index == 1 {
            if o.location != 0 {
                return Err(field_error(
                    at("index"),
                    "1 at a location other than 0 (the second colour of dual-source blending pairs with location 0)",
                ));
            }
            if let Some((j, _)) = output(f, 1, 0) {
                return Err(field_error(
                    format!("fragment.shader_outputs[{j}].location"),
                    "1 beside a dual-source second colour (which takes location 1's registers)",
                ));
            }
            if output(f, 0, 0).is_some_and(|(_, p)| p.bits != o.bits) {
                return Err(field_error(
                    at("bits"),
                    "differs from location 0's (gpuabi's key gives a render target one colour size)",
                ));
            }
        }
        if o.w_is_one && (o.location != 0 || o.index != 0) {
            return Err(field_error(
                at("w_is_one"),
                "true beside a location other than 0 (Mesa's loc0_w_1 is about location 0)",
            ));
        }
    }
    if f.attachments.len() > MAX_ATTACHMENTS {
        return Err(field_error(
            "fragment.attachments",
            format!(
                "{} attachments (the G13 has {MAX_ATTACHMENTS})",
                f.attachments.len()
            ),
        ));
    }
    let logic = f
        .logic_op
        .as_deref()
        .map(|n| logic_op("fragment.logic_op".into(), n))
        .transpose()?;
    let mut rts = Vec::new();
    for (i, a) in f.attachments.iter().enumerate() {
        let at = |k: &str| format!("fragment.attachments[{i}].{k}");
        let fmt = format(at("format"), &a.format)?;
        rt_format(&fmt).map_err(|e| {
            let what = match e {
                TileBufferError::NotRenderable(_) | TileBufferError::UnknownFormat(_) => {
                    format!(
                        "`{}` is not a colour attachment format of the G13's tile buffer",
                        a.format
                    )
                }
                other => other.to_string(),
            };
            field_error(at("format"), what)
        })?;
        if a.location as usize >= MAX_ATTACHMENTS {
            return Err(field_error(
                at("location"),
                format!("{} (expected 0 to 7)", a.location),
            ));
        }
        let eq = |src: &str, dst: &str, op: &str, s: &str, d: &str, o: &str| {
            Ok::<Equation, VkStateError>(Equation {
                func: blend_op(at(o), op)?,
                src: blend_factor(at(s), src)?,
                dst: blend_factor(at(d), dst)?,
            })
        };
        // Honeykrisp reads the equations only when blending is on.
        let blend = if a.blend_enable {
            Some([
                eq(
                    &a.src_color,
                    &a.dst_color,
                    &a.color_op,
                    "src_color",
                    "dst_color",
                    "color_op",
                )?,
                eq(
                    &a.src_alpha,
                    &a.dst_alpha,
                    &a.alpha_op,
                    "src_alpha",
                    "dst_alpha",
                    "alpha_op",
                )?,
            ])
        } else {
            None
        };
        let written = output(f, a.location, 0);
        rts.push(Some(EpilogRt {
            format: fmt,
            location: a.location as u8,
            size: written.map_or(32, |(_, o)| o.bits as u8),
            colormask: if written.is_some() { a.write_mask } else { 0 },
            blend,
        }));
    }
    if f.alpha_to_coverage {
        let written = f
            .attachments
            .first()
            .is_some_and(|a| output(f, a.location, 0).is_some());
        if !written {
            return Err(field_error(
                "fragment.alpha_to_coverage",
                "true, but the shader writes no colour at attachment 0's location (Mesa then has no alpha to cover with; gpuabi's epilog does not model that)",
            ));
        }
    }
    Ok(EpilogKey {
        samples,
        sample_shading: f.sample_shading,
        alpha_to_coverage: f.alpha_to_coverage,
        logic_op: logic,
        write_z: false,
        write_s: false,
        sample_mask_after_force_early: false,
        loc0_w_1: output(f, 0, 0).is_some_and(|(_, o)| o.w_is_one),
        alpha_to_one: f.alpha_to_one,
        broadcast_rt0: false,
        rts,
        unsupported: Vec::new(),
    })
}

/// The fragment prolog key of a draw's fragment state, or `None` when Honeykrisp compiles
/// no fragment prolog for it.
pub fn fragment_prolog_key(f: &VkFragmentState) -> Result<Option<FsPrologKey>, VkStateError> {
    let all = (1u32 << samples(f)?) - 1;
    let api = f.sample_mask & all;
    if api == all {
        return Ok(None);
    }
    // The epilog discards with alpha-to-coverage, and then runs the tests itself.
    let epilog_discards = f.alpha_to_coverage;
    Ok(Some(FsPrologKey {
        api_sample_mask: api as u8,
        run_zs_tests: !epilog_discards,
        ..FsPrologKey::default()
    }))
}
