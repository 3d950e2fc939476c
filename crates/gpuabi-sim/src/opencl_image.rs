//! OpenCL images and samplers as a Catalyst dispatch hands them to a kernel: the image
//! resource (T#) of an image argument, its eight cb1 dwords, and the sampler (S#) of an
//! OpenCL sampler value.
//!
//! Image formats are OpenCL's channel orders R, RG and RGBA with every channel type of
//! 8, 16 or 32 bits (`cl.h` of OpenCL 1.2 numbers them). A format becomes the GCN data
//! format with the channel count and width (`8` … `32_32_32_32`, "Southern Islands Series
//! ISA", image resource DATA_FORMAT) and the number format of the type (UNORM, SNORM,
//! UINT, SINT, FLOAT); the destination selects give 0 for missing colour channels and 1
//! for a missing alpha, as OpenCL 1.2 §8.3 reads images with fewer channels. Images are
//! linear ([`crate::LINEAR_TILING_INDEX`]) with rows of exactly `width` texels.
//!
//! An image argument's eight cb1 dwords (CLRX's doc/AmdAbi.md, "Image arguments"): 0
//! width, 1 height, 2 depth, 3 the OpenCL channel type, 7 the OpenCL channel order; and
//! 4-6 the reciprocals of width, height and depth as f32, which AMD's code multiplies
//! texel coordinates by before it samples through an argument sampler (read from the
//! `imageTransform5MS` kernels of CLRX's test binaries `prginfo8_*`: `v_mul_f32` of the
//! coordinate by cb1 dwords 4 and 5 of the image's slot before an `image_sample` without
//! `unorm`).
//!
//! A sampler value (bit 0 normalized coordinates, bits 1-3 addressing, bits 4-5 filter;
//! CLRX's doc/AmdAbi.md, "Sampler arguments") becomes an S# with both XY filters point or
//! bilinear (and the Z filter of 3D images alike), addressing none and clamp-to-edge as
//! clamp to the last texel, clamp as clamp to a transparent-black border, repeat as wrap
//! and mirrored repeat as mirror. FORCE_UNNORMALIZED stays 0: AMD's code normalizes the
//! coordinates of argument samplers itself (with the reciprocals above) and marks the
//! instruction `unorm` for unnormalized constant samplers.

use crate::exec::image_access::{border, clamp, filter, image_type, ImageResource, Sampler};

/// An OpenCL channel order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelOrder {
    /// `CL_R`.
    R,
    /// `CL_RG`.
    Rg,
    /// `CL_RGBA`.
    Rgba,
}

/// An OpenCL channel type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelType {
    /// `CL_SNORM_INT8`.
    Snorm8,
    /// `CL_SNORM_INT16`.
    Snorm16,
    /// `CL_UNORM_INT8`.
    Unorm8,
    /// `CL_UNORM_INT16`.
    Unorm16,
    /// `CL_SIGNED_INT8`.
    Sint8,
    /// `CL_SIGNED_INT16`.
    Sint16,
    /// `CL_SIGNED_INT32`.
    Sint32,
    /// `CL_UNSIGNED_INT8`.
    Uint8,
    /// `CL_UNSIGNED_INT16`.
    Uint16,
    /// `CL_UNSIGNED_INT32`.
    Uint32,
    /// `CL_HALF_FLOAT`.
    Half,
    /// `CL_FLOAT`.
    Float,
}

/// Channel orders by name, with their `cl.h` values and channel counts.
const ORDERS: [(ChannelOrder, &str, u32, u32); 3] = [
    (ChannelOrder::R, "r", 0x10B0, 1),
    (ChannelOrder::Rg, "rg", 0x10B2, 2),
    (ChannelOrder::Rgba, "rgba", 0x10B5, 4),
];

/// Channel types by name, with their `cl.h` values, bits per channel and GCN number
/// format (0 UNORM, 1 SNORM, 4 UINT, 5 SINT, 7 FLOAT).
const TYPES: [(ChannelType, &str, u32, u32, u8); 12] = [
    (ChannelType::Snorm8, "snorm8", 0x10D0, 8, 1),
    (ChannelType::Snorm16, "snorm16", 0x10D1, 16, 1),
    (ChannelType::Unorm8, "unorm8", 0x10D2, 8, 0),
    (ChannelType::Unorm16, "unorm16", 0x10D3, 16, 0),
    (ChannelType::Sint8, "sint8", 0x10D7, 8, 5),
    (ChannelType::Sint16, "sint16", 0x10D8, 16, 5),
    (ChannelType::Sint32, "sint32", 0x10D9, 32, 5),
    (ChannelType::Uint8, "uint8", 0x10DA, 8, 4),
    (ChannelType::Uint16, "uint16", 0x10DB, 16, 4),
    (ChannelType::Uint32, "uint32", 0x10DC, 32, 4),
    (ChannelType::Half, "half", 0x10DD, 16, 7),
    (ChannelType::Float, "float", 0x10DE, 32, 7),
];

/// An OpenCL image format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageFormat {
    /// Channel order.
    pub order: ChannelOrder,
    /// Channel type.
    pub ty: ChannelType,
}

impl ImageFormat {
    /// The format named `ORDER_TYPE` (`rgba_float`, `r_uint32`, `rg_unorm8`).
    pub fn parse(name: &str) -> Result<ImageFormat, String> {
        let orders: Vec<&str> = ORDERS.iter().map(|o| o.1).collect();
        let types: Vec<&str> = TYPES.iter().map(|t| t.1).collect();
        let expected = || {
            format!(
                "expected ORDER_TYPE with ORDER one of {} and TYPE one of {}",
                orders.join(", "),
                types.join(", ")
            )
        };
        let (order, ty) = name
            .split_once('_')
            .ok_or_else(|| format!("image format `{name}`: {}", expected()))?;
        let order = ORDERS
            .iter()
            .find(|o| o.1 == order)
            .ok_or_else(|| format!("image format `{name}`: {}", expected()))?
            .0;
        let ty = TYPES
            .iter()
            .find(|t| t.1 == ty)
            .ok_or_else(|| format!("image format `{name}`: {}", expected()))?
            .0;
        Ok(ImageFormat { order, ty })
    }

    fn order_row(&self) -> (ChannelOrder, &'static str, u32, u32) {
        ORDERS[ORDERS.iter().position(|o| o.0 == self.order).unwrap_or(0)]
    }

    fn type_row(&self) -> (ChannelType, &'static str, u32, u32, u8) {
        TYPES[TYPES.iter().position(|t| t.0 == self.ty).unwrap_or(0)]
    }

    /// Channels per texel.
    pub fn channels(&self) -> u32 {
        self.order_row().3
    }

    /// Bytes per texel.
    pub fn texel_bytes(&self) -> u32 {
        self.channels() * self.type_row().3 / 8
    }

    /// The `cl.h` value of the channel order (`CL_RGBA` is 0x10B5).
    pub fn cl_order(&self) -> u32 {
        self.order_row().2
    }

    /// The `cl.h` value of the channel type (`CL_FLOAT` is 0x10DE).
    pub fn cl_type(&self) -> u32 {
        self.type_row().2
    }

    /// GCN's DATA_FORMAT and NUM_FORMAT of the format.
    pub fn gcn_format(&self) -> (u8, u8) {
        let bits = self.type_row().3;
        let data = match (self.channels(), bits) {
            (1, 8) => 1,
            (1, 16) => 2,
            (1, _) => 4,
            (2, 8) => 3,
            (2, 16) => 5,
            (2, _) => 11,
            (_, 8) => 10,
            (_, 16) => 12,
            _ => 14,
        };
        (data, self.type_row().4)
    }

    /// The destination selects: present channels in order, 0 for missing colours, 1 for
    /// a missing alpha.
    pub fn dst_sel(&self) -> [u8; 4] {
        match self.channels() {
            1 => [4, 0, 0, 1],
            2 => [4, 5, 0, 1],
            _ => [4, 5, 6, 7],
        }
    }
}

/// An image argument: the buffer holding its texels, its format and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageArg {
    /// The buffer of texels (row-major, rows of `size[0]` texels, no padding).
    pub buffer: String,
    /// The format.
    pub format: ImageFormat,
    /// Width, height and depth in texels (1 where the image has no such dimension).
    pub size: [u32; 3],
}

impl ImageArg {
    /// Bytes the texels take.
    pub fn bytes(&self) -> u64 {
        u64::from(self.format.texel_bytes())
            * u64::from(self.size[0])
            * u64::from(self.size[1])
            * u64::from(self.size[2])
    }

    /// The T# of the image at `base` with the resource type `ty`
    /// ([`crate::image_type`]).
    pub fn resource(&self, base: u64, ty: u8) -> [u32; 8] {
        let (data_format, num_format) = self.format.gcn_format();
        ImageResource {
            base,
            data_format,
            num_format,
            width: self.size[0],
            height: if ty == image_type::D1_ARRAY {
                1
            } else {
                self.size[1]
            },
            depth: if ty == image_type::D1_ARRAY {
                self.size[1]
            } else {
                self.size[2]
            },
            pitch: self.size[0],
            dst_sel: self.format.dst_sel(),
            base_level: 0,
            last_level: 0,
            tiling_index: crate::LINEAR_TILING_INDEX,
            ty,
        }
        .encode()
    }

    /// The eight cb1 dwords of the argument.
    pub fn cb1_dwords(&self) -> [u32; 8] {
        let inv = |n: u32| (1.0f32 / n as f32).to_bits();
        [
            self.size[0],
            self.size[1],
            self.size[2],
            self.format.cl_type(),
            inv(self.size[0]),
            inv(self.size[1]),
            inv(self.size[2]),
            self.format.cl_order(),
        ]
    }
}

/// The S# of an OpenCL sampler value.
pub fn sampler_descriptor(value: u32) -> [u32; 4] {
    let addressing = match value >> 1 & 7 {
        1 => clamp::WRAP,
        3 => clamp::CLAMP_BORDER,
        4 => clamp::MIRROR,
        _ => clamp::CLAMP_LAST_TEXEL,
    };
    let linear = value >> 4 & 3 == 2;
    Sampler {
        clamp: [addressing; 3],
        force_unnormalized: false,
        mag_filter: if linear {
            filter::BILINEAR
        } else {
            filter::POINT
        },
        min_filter: if linear {
            filter::BILINEAR
        } else {
            filter::POINT
        },
        // Z_FILTER: 1 point, 2 linear.
        z_filter: if linear { 2 } else { 1 },
        mip_filter: 0,
        filter_mode: 0,
        border_color: border::TRANS_BLACK,
    }
    .encode()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name() {
        let f = ImageFormat::parse("rgba_float").unwrap();
        assert_eq!(f.gcn_format(), (14, 7));
        assert_eq!(
            (f.cl_order(), f.cl_type(), f.texel_bytes()),
            (0x10B5, 0x10DE, 16)
        );
        let f = ImageFormat::parse("r_uint8").unwrap();
        assert_eq!(f.gcn_format(), (1, 4));
        assert_eq!(f.dst_sel(), [4, 0, 0, 1]);
        assert_eq!(ImageFormat::parse("rg_half").unwrap().gcn_format(), (5, 7));
        assert!(ImageFormat::parse("bgra_unorm8")
            .unwrap_err()
            .contains("ORDER_TYPE"));
        assert!(ImageFormat::parse("rgba").is_err());
    }

    #[test]
    fn sampler_values() {
        // 0x26: linear, clamp, unnormalized (CLRX's example).
        let s = Sampler::decode(sampler_descriptor(0x26));
        assert_eq!(s.clamp[0], clamp::CLAMP_BORDER);
        assert_eq!(
            (s.mag_filter, s.min_filter),
            (filter::BILINEAR, filter::BILINEAR)
        );
        assert!(!s.force_unnormalized);
        // 0x14: nearest, clamp to edge.
        let s = Sampler::decode(sampler_descriptor(0x14));
        assert_eq!(s.clamp[1], clamp::CLAMP_LAST_TEXEL);
        assert_eq!(s.mag_filter, filter::POINT);
    }
}
