//! OpenCL C types as far as a kernel's ABI depends on them: scalars, vectors, structures
//! (with OpenCL C size and alignment), images, samplers, counters and pointers.

use std::fmt;

use serde::Serialize;

/// An OpenCL C scalar type that may appear in a kernel argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    /// `char`, 8-bit signed.
    Char,
    /// `uchar`, 8-bit unsigned.
    UChar,
    /// `short`, 16-bit signed.
    Short,
    /// `ushort`, 16-bit unsigned.
    UShort,
    /// `int`, 32-bit signed.
    Int,
    /// `uint`, 32-bit unsigned.
    UInt,
    /// `long`, 64-bit signed.
    Long,
    /// `ulong`, 64-bit unsigned.
    ULong,
    /// `float`, 32-bit.
    Float,
    /// `double`, 64-bit.
    Double,
}

/// Per-scalar properties: OpenCL C name, size in bytes, and the metadata type name.
struct ScalarInfo {
    scalar: Scalar,
    name: &'static str,
    bytes: u32,
    metadata: &'static str,
}

/// The scalar table; everything about a scalar is looked up here.
const SCALARS: [ScalarInfo; 10] = [
    ScalarInfo {
        scalar: Scalar::Char,
        name: "char",
        bytes: 1,
        metadata: "i8",
    },
    ScalarInfo {
        scalar: Scalar::UChar,
        name: "uchar",
        bytes: 1,
        metadata: "u8",
    },
    ScalarInfo {
        scalar: Scalar::Short,
        name: "short",
        bytes: 2,
        metadata: "i16",
    },
    ScalarInfo {
        scalar: Scalar::UShort,
        name: "ushort",
        bytes: 2,
        metadata: "u16",
    },
    ScalarInfo {
        scalar: Scalar::Int,
        name: "int",
        bytes: 4,
        metadata: "i32",
    },
    ScalarInfo {
        scalar: Scalar::UInt,
        name: "uint",
        bytes: 4,
        metadata: "u32",
    },
    ScalarInfo {
        scalar: Scalar::Long,
        name: "long",
        bytes: 8,
        metadata: "i64",
    },
    ScalarInfo {
        scalar: Scalar::ULong,
        name: "ulong",
        bytes: 8,
        metadata: "u64",
    },
    ScalarInfo {
        scalar: Scalar::Float,
        name: "float",
        bytes: 4,
        metadata: "float",
    },
    ScalarInfo {
        scalar: Scalar::Double,
        name: "double",
        bytes: 8,
        metadata: "double",
    },
];

impl Scalar {
    /// Every scalar type, in table order.
    pub const ALL: [Scalar; 10] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Float,
        Scalar::Double,
    ];

    fn info(self) -> &'static ScalarInfo {
        // The table is in declaration order of the enum.
        &SCALARS[self as usize]
    }

    /// OpenCL C spelling (`uint`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Size in bytes.
    pub fn bytes(self) -> u32 {
        self.info().bytes
    }

    /// Type name used in the Catalyst metadata (`u32`, `i8`, `float`).
    pub fn metadata_name(self) -> &'static str {
        self.info().metadata
    }

    /// The scalar spelled `name` in OpenCL C (`uint`, `float`), if any.
    pub fn from_name(name: &str) -> Option<Scalar> {
        SCALARS.iter().find(|s| s.name == name).map(|s| s.scalar)
    }

    /// The scalar whose metadata type name is `name` (`u32`, `i8`, `float`), if any.
    pub fn from_metadata_name(name: &str) -> Option<Scalar> {
        SCALARS
            .iter()
            .find(|s| s.metadata == name)
            .map(|s| s.scalar)
    }
}

/// Vector sizes OpenCL C allows (1 means a plain scalar).
pub const VECTOR_SIZES: [u8; 6] = [1, 2, 3, 4, 8, 16];

/// A scalar or vector value type (`float`, `uint4`, `long3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ValueType {
    /// Element type.
    pub scalar: Scalar,
    /// Number of elements: 1, 2, 3, 4, 8 or 16.
    pub lanes: u8,
}

impl ValueType {
    /// Number of elements as stored: a 3-vector is stored as a 4-vector in OpenCL C.
    pub fn stored_lanes(self) -> u32 {
        if self.lanes == 3 {
            4
        } else {
            u32::from(self.lanes)
        }
    }

    /// `sizeof` in OpenCL C (a 3-vector has the size of a 4-vector).
    pub fn size(self) -> u32 {
        self.stored_lanes() * self.scalar.bytes()
    }

    /// Alignment in OpenCL C: vectors are aligned to their size.
    pub fn align(self) -> u32 {
        self.size()
    }

    /// Parses `uint`, `float4`, `long3` (no spaces).
    pub fn from_name(name: &str) -> Option<ValueType> {
        let digits = name.trim_start_matches(|c: char| !c.is_ascii_digit());
        let base = &name[..name.len() - digits.len()];
        let scalar = Scalar::from_name(base)?;
        let lanes = if digits.is_empty() {
            1
        } else {
            let n: u8 = digits.parse().ok()?;
            if n == 1 || !VECTOR_SIZES.contains(&n) {
                return None;
            }
            n
        };
        Some(ValueType { scalar, lanes })
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lanes == 1 {
            f.write_str(self.scalar.name())
        } else {
            write!(f, "{}{}", self.scalar.name(), self.lanes)
        }
    }
}

/// Image dimensionality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ImageDim {
    /// `image1d_t`.
    D1,
    /// `image1d_array_t`.
    D1Array,
    /// `image1d_buffer_t`.
    D1Buffer,
    /// `image2d_t`.
    D2,
    /// `image2d_array_t`.
    D2Array,
    /// `image3d_t`.
    D3,
}

/// Per-dimension names: OpenCL C type, CLRX `.arg` type, metadata DIM, old UAV-note dim code.
const IMAGE_DIMS: [(ImageDim, &str, &str, &str, u32); 6] = [
    (ImageDim::D1, "image1d_t", "image1d", "1D", 1),
    (
        ImageDim::D1Array,
        "image1d_array_t",
        "image1d_array",
        "1DA",
        0,
    ),
    (
        ImageDim::D1Buffer,
        "image1d_buffer_t",
        "image1d_buffer",
        "1DB",
        0,
    ),
    (ImageDim::D2, "image2d_t", "image2d", "2D", 2),
    (
        ImageDim::D2Array,
        "image2d_array_t",
        "image2d_array",
        "2DA",
        2,
    ),
    (ImageDim::D3, "image3d_t", "image3d", "3D", 3),
];

impl ImageDim {
    fn row(self) -> &'static (ImageDim, &'static str, &'static str, &'static str, u32) {
        &IMAGE_DIMS[self as usize]
    }

    /// OpenCL C type name (`image2d_t`).
    pub fn cl_name(self) -> &'static str {
        self.row().1
    }

    /// CLRX `.arg` type name (`image2d`).
    pub fn clrx_name(self) -> &'static str {
        self.row().2
    }

    /// Metadata dimension name (`2D`, `1DA`).
    pub fn metadata_name(self) -> &'static str {
        self.row().3
    }

    /// Dimension code of old drivers' UAV note (2D/2DA 2, 1D 1, 1DA/1DB 0, 3D 3).
    pub fn old_uav_dim(self) -> u32 {
        self.row().4
    }

    /// The dimension whose OpenCL C type is `name`.
    pub fn from_cl_name(name: &str) -> Option<ImageDim> {
        IMAGE_DIMS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The dimension whose metadata name is `name` (`2D`, `1DA`).
    pub fn from_metadata_name(name: &str) -> Option<ImageDim> {
        IMAGE_DIMS.iter().find(|r| r.3 == name).map(|r| r.0)
    }
}

/// Image access qualifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageAccess {
    /// `read_only` (the default).
    ReadOnly,
    /// `write_only`.
    WriteOnly,
}

/// Address space of a pointer argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AddrSpace {
    /// `__global`: a UAV.
    Global,
    /// `__constant`: a UAV from 1348.05, a constant buffer before.
    Constant,
    /// `__local`: an offset in LDS.
    Local,
}

impl AddrSpace {
    /// OpenCL C spelling without underscores.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
        }
    }
}

/// A structure (or union) with its OpenCL C size and alignment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct StructType {
    /// Tag or typedef name, as written.
    pub name: String,
    /// `sizeof`, in bytes.
    pub size: u32,
    /// Alignment, in bytes.
    pub align: u32,
}

/// What a pointer argument points to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Pointee {
    /// `void`.
    Void,
    /// A scalar or vector.
    Value {
        /// The element type.
        ty: ValueType,
    },
    /// A structure.
    Struct {
        /// The structure.
        ty: StructType,
    },
}

impl Pointee {
    /// The element size the metadata records: `(n == 3 ? 4 : n) * e`, the structure size
    /// (4 if it is 0), or 1 for `void`.
    pub fn metadata_elem_size(&self) -> u32 {
        match self {
            Pointee::Void => 1,
            Pointee::Value { ty } => ty.size(),
            Pointee::Struct { ty } => {
                if ty.size == 0 {
                    4
                } else {
                    ty.size
                }
            }
        }
    }
}

/// The type of one kernel argument.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum ArgType {
    /// A scalar or vector passed by value.
    Value {
        /// The type.
        ty: ValueType,
    },
    /// A structure passed by value.
    Struct {
        /// The structure.
        ty: StructType,
    },
    /// A pointer into global, constant or local memory.
    Pointer {
        /// What it points to.
        pointee: Pointee,
        /// The address space.
        space: AddrSpace,
        /// The pointee is `const`.
        is_const: bool,
        /// The pointee is `volatile`.
        is_volatile: bool,
        /// The pointer is `restrict`.
        is_restrict: bool,
    },
    /// An image.
    Image {
        /// Dimensionality.
        dim: ImageDim,
        /// Access qualifier.
        access: ImageAccess,
    },
    /// `sampler_t`.
    Sampler,
    /// AMD's `counter32_t`.
    Counter32,
}

impl ArgType {
    /// The OpenCL C spelling used as the reflection type name (`uint`, `float4`,
    /// `image2d_t`, `sampler_t`, `counter32_t`, `structure`, `float*`).
    pub fn default_type_name(&self) -> String {
        match self {
            ArgType::Value { ty } => ty.to_string(),
            ArgType::Struct { .. } => "structure".to_string(),
            ArgType::Pointer { pointee, .. } => match pointee {
                Pointee::Void => "void*".to_string(),
                Pointee::Value { ty } => format!("{ty}*"),
                Pointee::Struct { .. } => "structure*".to_string(),
            },
            ArgType::Image { dim, .. } => dim.cl_name().to_string(),
            ArgType::Sampler => "sampler_t".to_string(),
            ArgType::Counter32 => "counter32_t".to_string(),
        }
    }
}

/// One kernel argument as declared.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct KernelArg {
    /// Argument name.
    pub name: String,
    /// Reflection type name (the OpenCL spelling, or a typedef name as written).
    pub type_name: String,
    /// Its type.
    pub ty: ArgType,
    /// Whether the kernel uses it (`/*unused*/` clears this).
    pub used: bool,
    /// An explicitly requested resource id (UAV, cb, image or counter id).
    pub explicit_id: Option<u32>,
}

/// A kernel's name and argument list: the input of the layout engine.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// Arguments in declaration order.
    pub args: Vec<KernelArg>,
    /// `reqd_work_group_size` from the source, if given.
    pub reqd_work_group_size: Option<[u32; 3]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_table_matches_enum_order() {
        for (i, s) in Scalar::ALL.iter().enumerate() {
            assert_eq!(SCALARS[i].scalar, *s);
        }
        for (i, r) in IMAGE_DIMS.iter().enumerate() {
            assert_eq!(r.0 as usize, i);
        }
    }

    #[test]
    fn value_type_names() {
        assert_eq!(
            ValueType::from_name("float4"),
            Some(ValueType {
                scalar: Scalar::Float,
                lanes: 4
            })
        );
        assert_eq!(ValueType::from_name("uint1"), None);
        assert_eq!(ValueType::from_name("int5"), None);
        assert_eq!(ValueType::from_name("long3").map(|t| t.size()), Some(32));
        assert_eq!(ValueType::from_name("uchar3").map(|t| t.align()), Some(4));
    }
}
