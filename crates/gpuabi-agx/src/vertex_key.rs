//! Vertex prolog keys as data: a vertex element description (format, stride, divisor,
//! instanced) and the robustness settings, with the facts the prolog derives from them —
//! the format actually loaded, the conversion after the load, the element index, the
//! bounds and robustness rules, and the address arithmetic (Mesa's `agx_nir_lower_vbo`).
//! The driver side of the contract, the base and clamp uniforms, is [`base_and_clamp`].

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// How a channel's bits are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelType {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Pure unsigned integer.
    Uint,
    /// Pure signed integer.
    Sint,
    /// Unsigned integer converted to float.
    Uscaled,
    /// Signed integer converted to float.
    Sscaled,
    /// Floating point.
    Float,
    /// 16.16 fixed point.
    Fixed,
}

const CHANNEL_TYPES: [(&str, ChannelType); 8] = [
    ("UNORM", ChannelType::Unorm),
    ("SNORM", ChannelType::Snorm),
    ("UINT", ChannelType::Uint),
    ("SINT", ChannelType::Sint),
    ("USCALED", ChannelType::Uscaled),
    ("SSCALED", ChannelType::Sscaled),
    ("FLOAT", ChannelType::Float),
    ("FIXED", ChannelType::Fixed),
];

/// Where an output component comes from after the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Swizzle {
    /// Loaded channel `i` (memory order).
    Channel(u8),
    /// Constant 0.
    Zero,
    /// Constant 1 (integer 1 for pure-integer formats, 1.0 otherwise).
    One,
}

/// The format the prolog actually loads ("interchange" format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Interchange {
    /// 8-bit unorm, converted by the hardware.
    R8Unorm,
    /// 8-bit snorm, converted by the hardware.
    R8Snorm,
    /// 16-bit unorm, converted by the hardware.
    R16Unorm,
    /// 16-bit snorm, converted by the hardware.
    R16Snorm,
    /// Raw 8-bit integers.
    R8Uint,
    /// Raw 16-bit integers.
    R16Uint,
    /// Raw 32-bit integers.
    R32Uint,
    /// Packed 10-10-10-2 unorm, native.
    R10G10B10A2Unorm,
    /// Packed 11-11-10 float, native.
    R11G11B10Float,
}

impl Interchange {
    /// Block size in bytes: the unit of the element stride.
    pub const fn block_bytes(self) -> u32 {
        match self {
            Interchange::R8Unorm | Interchange::R8Snorm | Interchange::R8Uint => 1,
            Interchange::R16Unorm | Interchange::R16Snorm | Interchange::R16Uint => 2,
            Interchange::R32Uint | Interchange::R10G10B10A2Unorm | Interchange::R11G11B10Float => 4,
        }
    }

    /// Whether loads of this format accept a write mask (and hence the built-in shift):
    /// not the packed formats.
    pub const fn supports_mask(self) -> bool {
        !matches!(
            self,
            Interchange::R10G10B10A2Unorm | Interchange::R11G11B10Float
        )
    }
}

/// Work done on the loaded vector before the swizzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conversion {
    /// None: the hardware load already produced the value.
    None,
    /// Sign-extend pure signed integers.
    SignExtend,
    /// Unsigned integer to float.
    U2f,
    /// Signed integer to float.
    I2f,
    /// Float to float of the destination size.
    F2f,
    /// Signed integer to float, then × 1/65536 (16.16 fixed).
    FixedToFloat,
    /// 32-bit unorm to float.
    UnormToFloat,
    /// 32-bit snorm to float.
    SnormToFloat,
    /// Unpack 10-10-10-2 from one 32-bit word (zero-extended), then convert per type.
    Unpack1010102Unsigned,
    /// Unpack 10-10-10-2 from one 32-bit word (sign-extended), then convert per type.
    Unpack1010102Signed,
}

/// A vertex format the prolog can fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VertexFormat {
    /// Mesa pipe-format name.
    pub name: String,
    /// Channels in memory.
    pub channels: u8,
    /// Channel type.
    pub ty: ChannelType,
    /// Format loaded.
    pub interchange: Interchange,
    /// Components the load returns (1 for the unpacked 10-10-10-2 word).
    pub components_loaded: u8,
    /// Conversion after the load.
    pub conversion: Conversion,
    /// Output components x, y, z, w.
    pub swizzle: [Swizzle; 4],
}

/// A vertex element that cannot be fetched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VertexKeyError {
    /// Not a format the prolog can fetch.
    #[error("unsupported vertex format `{0}` (array RGB formats of 8/16/32-bit channels, 10-10-10-2 and R11G11B10_FLOAT are supported)")]
    UnsupportedVertexFormat(String),
    /// The stride is not a multiple of the loaded format's block size.
    #[error("stride {stride} is not a multiple of {elsize} bytes, the block size of {format}'s loaded format")]
    MisalignedStride {
        /// The stride.
        stride: u32,
        /// The block size.
        elsize: u32,
        /// The format.
        format: String,
    },
}

fn unsupported(name: &str) -> VertexKeyError {
    VertexKeyError::UnsupportedVertexFormat(name.to_string())
}

/// Swizzle from memory channel letters (`B`, `G`, `R`, `A`, `X` = unused).
fn swizzle_of(letters: &[u8]) -> [Swizzle; 4] {
    let mut s = [Swizzle::Zero, Swizzle::Zero, Swizzle::Zero, Swizzle::One];
    for (i, l) in letters.iter().enumerate() {
        if let Some(out) = b"RGBA".iter().position(|c| c == l) {
            s[out] = Swizzle::Channel(i as u8);
        }
    }
    s
}

/// Parses a pipe-format name and decides how the prolog fetches it.
pub fn vertex_format(name: &str) -> Result<VertexFormat, VertexKeyError> {
    let upper = name.to_ascii_uppercase();
    let bare = upper.strip_prefix("PIPE_FORMAT_").unwrap_or(&upper);
    let (layout, ty_name) = bare.rsplit_once('_').ok_or_else(|| unsupported(name))?;
    let ty = CHANNEL_TYPES
        .iter()
        .find(|(n, _)| *n == ty_name)
        .map(|&(_, t)| t)
        .ok_or_else(|| unsupported(name))?;
    // Split the layout into (letter, bits) channels, e.g. R10G10B10A2 or B8G8R8A8.
    let mut chans: Vec<(u8, u32)> = Vec::new();
    let bytes = layout.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i];
        if !b"RGBAX".contains(&letter) {
            return Err(unsupported(name));
        }
        let start = i + 1;
        i = start;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let bits: u32 = layout[start..i].parse().map_err(|_| unsupported(name))?;
        chans.push((letter, bits));
    }
    if chans.is_empty() || chans.len() > 4 {
        return Err(unsupported(name));
    }
    let letters: Vec<u8> = chans.iter().map(|c| c.0).collect();
    let sizes: Vec<u32> = chans.iter().map(|c| c.1).collect();
    let swizzle = swizzle_of(&letters);
    let channels = chans.len() as u8;

    // 10-10-10-2: native for UNORM, otherwise one 32-bit word unpacked in software.
    if sizes == [10, 10, 10, 2] {
        let (interchange, conversion, loaded) = match ty {
            ChannelType::Unorm => (Interchange::R10G10B10A2Unorm, Conversion::None, 4),
            ChannelType::Snorm | ChannelType::Sint | ChannelType::Sscaled => {
                (Interchange::R32Uint, Conversion::Unpack1010102Signed, 1)
            }
            ChannelType::Uint | ChannelType::Uscaled => {
                (Interchange::R32Uint, Conversion::Unpack1010102Unsigned, 1)
            }
            ChannelType::Float | ChannelType::Fixed => return Err(unsupported(name)),
        };
        return Ok(VertexFormat {
            name: bare.to_string(),
            channels,
            ty,
            interchange,
            components_loaded: loaded,
            conversion,
            swizzle,
        });
    }
    if bare == "R11G11B10_FLOAT" {
        return Ok(VertexFormat {
            name: bare.to_string(),
            channels,
            ty,
            interchange: Interchange::R11G11B10Float,
            components_loaded: 3,
            conversion: Conversion::None,
            swizzle,
        });
    }
    // Array formats only: every channel the same size.
    let bits = sizes[0];
    if sizes.iter().any(|&s| s != bits) {
        return Err(unsupported(name));
    }
    let (interchange, conversion) = match (ty, bits) {
        (ChannelType::Unorm, 8) => (Interchange::R8Unorm, Conversion::None),
        (ChannelType::Snorm, 8) => (Interchange::R8Snorm, Conversion::None),
        (ChannelType::Unorm, 16) => (Interchange::R16Unorm, Conversion::None),
        (ChannelType::Snorm, 16) => (Interchange::R16Snorm, Conversion::None),
        (ChannelType::Unorm, 32) => (Interchange::R32Uint, Conversion::UnormToFloat),
        (ChannelType::Snorm, 32) => (Interchange::R32Uint, Conversion::SnormToFloat),
        (ChannelType::Float, 16 | 32) | (ChannelType::Fixed, 32) => {
            let conv = if ty == ChannelType::Fixed {
                Conversion::FixedToFloat
            } else {
                Conversion::F2f
            };
            (raw_integer(bits), conv)
        }
        (ChannelType::Uint, 8 | 16 | 32) => (raw_integer(bits), Conversion::None),
        (ChannelType::Sint, 8 | 16 | 32) => (raw_integer(bits), Conversion::SignExtend),
        (ChannelType::Uscaled, 8 | 16 | 32) => (raw_integer(bits), Conversion::U2f),
        (ChannelType::Sscaled, 8 | 16 | 32) => (raw_integer(bits), Conversion::I2f),
        _ => return Err(unsupported(name)),
    };
    Ok(VertexFormat {
        name: bare.to_string(),
        channels,
        ty,
        interchange,
        components_loaded: channels,
        conversion,
        swizzle,
    })
}

fn raw_integer(bits: u32) -> Interchange {
    match bits {
        8 => Interchange::R8Uint,
        16 => Interchange::R16Uint,
        _ => Interchange::R32Uint,
    }
}

/// Robustness levels, in increasing strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RobustnessLevel {
    /// No checks requested.
    Disabled,
    /// GLES robustness.
    Gles,
    /// GL robustness: out-of-bounds reads return element 0.
    Gl,
    /// D3D robustness: out-of-bounds reads return zeros.
    D3d,
}

/// Robustness settings of the prolog key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Robustness {
    /// Requested level.
    pub level: RobustnessLevel,
    /// Hardware soft fault is on (unmapped low memory reads as zero).
    pub soft_fault: bool,
}

/// A vertex element description of the prolog key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexElement {
    /// Pipe-format name.
    pub format: String,
    /// Stride in bytes.
    pub stride: u32,
    /// Instance divisor (instanced elements; 0 = every instance reads the same element).
    pub divisor: u32,
    /// Per-instance rather than per-vertex.
    pub instanced: bool,
}

/// Which element an invocation reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementIndex {
    /// `el = vertex_id` (r5, already including the base vertex).
    VertexId,
    /// `el = instance_id / divisor + base_instance`.
    InstanceDivided {
        /// The divisor.
        divisor: u32,
    },
    /// `el = base_instance` (divisor 0).
    BaseInstance,
}

/// Everything the prolog derives for one element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FetchPlan {
    /// The format and how it is loaded.
    pub format: VertexFormat,
    /// Element index rule.
    pub element_index: ElementIndex,
    /// Robustness level after raising it to GL when there is no soft fault.
    pub effective_level: RobustnessLevel,
    /// An out-of-bounds element index is replaced by 0.
    pub clamp_index_to_zero: bool,
    /// An out-of-bounds read uses base 0 (the unmapped page reads as zeros).
    pub zero_base_when_oob: bool,
    /// An out-of-bounds read's raw vector is replaced by zeros.
    pub zero_data_when_oob: bool,
    /// Bytes per element unit (block size of the loaded format).
    pub elsize: u32,
    /// Index multiplier: `index = el · stride_el`.
    pub stride_el: u32,
    /// The load's built-in shift: address = `base + (index << shift) · elsize`.
    pub shift: u8,
}

/// Decides how the prolog fetches `element`.
pub fn fetch_plan(element: &VertexElement, rs: Robustness) -> Result<FetchPlan, VertexKeyError> {
    let format = vertex_format(&element.format)?;
    let elsize = format.interchange.block_bytes();
    if !element.stride.is_multiple_of(elsize) {
        return Err(VertexKeyError::MisalignedStride {
            stride: element.stride,
            elsize,
            format: format.name.clone(),
        });
    }
    // Without soft fault, null buffers need GL robustness and a real sink buffer.
    let level = if rs.soft_fault {
        rs.level
    } else {
        rs.level.max(RobustnessLevel::Gl)
    };
    let d3d = level >= RobustnessLevel::D3d;
    let address_fixup = format.components_loaded > 2 && rs.soft_fault;
    let mut stride_el = element.stride / elsize;
    let mut shift = 0;
    if (stride_el == 2 || stride_el == 4) && format.interchange.supports_mask() {
        shift = stride_el.trailing_zeros() as u8;
        stride_el = 1;
    }
    let element_index = match (element.instanced, element.divisor) {
        (false, _) => ElementIndex::VertexId,
        (true, 0) => ElementIndex::BaseInstance,
        (true, divisor) => ElementIndex::InstanceDivided { divisor },
    };
    Ok(FetchPlan {
        format,
        element_index,
        effective_level: level,
        clamp_index_to_zero: level >= RobustnessLevel::Gl && !(d3d && rs.soft_fault),
        zero_base_when_oob: d3d && address_fixup,
        zero_data_when_oob: d3d && !address_fixup,
        elsize,
        stride_el,
        shift,
    })
}

/// One invocation's fetch: element index, bounds and byte address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fetch {
    /// Element index used for the address.
    pub element: u32,
    /// The element index was beyond the clamp.
    pub out_of_bounds: bool,
    /// Byte address loaded from.
    pub address: u64,
    /// The loaded data is replaced by zeros.
    pub zeroed: bool,
}

impl FetchPlan {
    /// Evaluates the plan for one invocation, given the ABI registers and uniforms.
    pub fn fetch(
        &self,
        vertex_id: u32,
        instance_id: u32,
        base_instance: u32,
        base: u64,
        clamp: u32,
    ) -> Fetch {
        let el = match self.element_index {
            ElementIndex::VertexId => vertex_id,
            ElementIndex::InstanceDivided { divisor } => {
                (instance_id / divisor).wrapping_add(base_instance)
            }
            ElementIndex::BaseInstance => base_instance,
        };
        // The clamp is inclusive.
        let oob = clamp < el;
        let el = if self.clamp_index_to_zero && oob {
            0
        } else {
            el
        };
        let base = if self.zero_base_when_oob && oob {
            0
        } else {
            base
        };
        let index = u64::from(el) * u64::from(self.stride_el);
        let address = base.wrapping_add((index << self.shift) * u64::from(self.elsize));
        Fetch {
            element: el,
            out_of_bounds: oob,
            address,
            zeroed: self.zero_data_when_oob && oob,
        }
    }
}

/// Base address and clamp uniforms the driver pushes for one attribute (spec §4.3); an
/// attribute whose first element does not fit gets the sink with clamp 0.
pub fn base_and_clamp(
    buffer_address: u64,
    buffer_size: u64,
    offset: u64,
    stride: u32,
    elsize: u32,
    sink: u64,
) -> (u64, u32) {
    match offset.checked_add(u64::from(elsize)) {
        Some(end) if buffer_size >= end => {
            let clamp = if stride != 0 {
                let c = (buffer_size - offset - u64::from(elsize)) / u64::from(stride);
                u32::try_from(c).unwrap_or(u32::MAX)
            } else {
                u32::MAX
            };
            (buffer_address.wrapping_add(offset), clamp)
        }
        _ => (sink, 0),
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swizzle::Channel(c) => write!(f, "{}", ["x", "y", "z", "w"][usize::from(*c)]),
            Swizzle::Zero => f.write_str("0"),
            Swizzle::One => f.write_str("1"),
        }
    }
}
