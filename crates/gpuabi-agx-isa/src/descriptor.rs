//! Texture and PBE (pixel back-end) descriptors as the `smpi` texel fetch and the `imgw`
//! image write read them from device memory: the fields of the `Texture` and `PBE` structs
//! of Mesa's `src/asahi/genxml/cmdbuf.xml` that a linear 2D render target needs, at the
//! bit positions given there (24 bytes each, little-endian).
//!
//! Strides follow how Mesa's driver fills the field for linear images
//! (`agx_pack_texture` and `agx_batch_upload_pbe` in `src/gallium/drivers/asahi/agx_state.c`):
//! a texture holds `(stride − 16) / 16`, a PBE `stride − 4`. Only the linear layout is
//! modelled (twiddled and compressed images, mip levels and layers other than 0 are
//! refused), which is what render targets of a linear framebuffer use.

/// Bytes of one descriptor.
pub const DESCRIPTOR_BYTES: usize = 24;

/// The `Texture dimension` values a linear render target uses.
pub mod dimension {
    /// `2D`.
    pub const D2: u32 = 2;
    /// `2D Array`.
    pub const D2_ARRAY: u32 = 3;
    /// `2D Multisampled`.
    pub const D2_MS: u32 = 4;
    /// `2D Array Multisampled`.
    pub const D2_ARRAY_MS: u32 = 8;
}

/// The `Channels` values of the render-target formats.
pub mod channels {
    /// One 8-bit channel.
    pub const R8: u32 = 0x00;
    /// One 16-bit channel.
    pub const R16: u32 = 0x09;
    /// Two 8-bit channels.
    pub const R8G8: u32 = 0x0a;
    /// 5-6-5 bits in 16.
    pub const R5G6B5: u32 = 0x0b;
    /// Four 4-bit channels in 16 bits.
    pub const R4G4B4A4: u32 = 0x0c;
    /// One 32-bit channel.
    pub const R32: u32 = 0x21;
    /// Two 16-bit channels.
    pub const R16G16: u32 = 0x23;
    /// 11-11-10-bit unsigned floats.
    pub const R11G11B10: u32 = 0x25;
    /// 10-10-10-2 bits.
    pub const R10G10B10A2: u32 = 0x26;
    /// 9-9-9 mantissas with a shared exponent.
    pub const R9G9B9E5: u32 = 0x27;
    /// Four 8-bit channels.
    pub const R8G8B8A8: u32 = 0x28;
    /// Two 32-bit channels.
    pub const R32G32: u32 = 0x31;
    /// Four 16-bit channels.
    pub const R16G16B16A16: u32 = 0x32;
    /// Four 32-bit channels.
    pub const R32G32B32A32: u32 = 0x38;
}

/// The `Texture Type` values.
pub mod texture_type {
    /// Unsigned normalised.
    pub const UNORM: u32 = 0;
    /// Signed normalised.
    pub const SNORM: u32 = 1;
    /// Unsigned integer.
    pub const UINT: u32 = 2;
    /// Signed integer.
    pub const SINT: u32 = 3;
    /// Float.
    pub const FLOAT: u32 = 4;
}

/// The `Channel` swizzle values of a texture beyond R, G, B, A: constant one and zero.
pub mod channel {
    /// Constant 1.
    pub const ONE: u32 = 4;
    /// Constant 0.
    pub const ZERO: u32 = 5;
}

/// The `Layout` value of linear images.
pub const LAYOUT_LINEAR: u32 = 0;

/// Which of the two structs a descriptor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `Texture` (read by `smpi`).
    Texture,
    /// `PBE` (written through by `imgw`).
    Pbe,
}

/// Bit position and size of one field in each struct.
struct Field {
    texture: (u32, u32),
    pbe: (u32, u32),
}

const DIMENSION: Field = Field {
    texture: (0, 4),
    pbe: (0, 4),
};
const LAYOUT: Field = Field {
    texture: (4, 2),
    pbe: (4, 2),
};
const CHANNELS: Field = Field {
    texture: (6, 7),
    pbe: (6, 7),
};
const TYPE: Field = Field {
    texture: (13, 3),
    pbe: (13, 3),
};
const WIDTH: Field = Field {
    texture: (28, 14),
    pbe: (24, 14),
};
const HEIGHT: Field = Field {
    texture: (42, 14),
    pbe: (38, 14),
};
const ADDRESS: Field = Field {
    texture: (66, 36),
    pbe: (64, 36),
};
const SRGB: Field = Field {
    texture: (108, 1),
    pbe: (125, 1),
};
const STRIDE: Field = Field {
    texture: (110, 18),
    pbe: (104, 21),
};
/// `Samples` (`Sample Count`: 0 is 2 samples, 1 is 4), meaningful for the multisampled
/// dimensions only.
const SAMPLES: Field = Field {
    texture: (64, 1),
    pbe: (56, 1),
};
/// Swizzle R: 3 bits per channel in a texture, 2 in a PBE.
const SWIZZLE: Field = Field {
    texture: (16, 3),
    pbe: (16, 2),
};

/// The decoded fields of a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Texture dimension.
    pub dimension: u32,
    /// Memory layout.
    pub layout: u32,
    /// `Channels` code.
    pub channels: u32,
    /// `Texture Type` code.
    pub ty: u32,
    /// Swizzle of R, G, B, A (`Channel` codes).
    pub swizzle: [u32; 4],
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Byte address of pixel (0, 0).
    pub address: u64,
    /// sRGB conversion of R, G and B.
    pub srgb: bool,
    /// Bytes from one row to the next.
    pub stride: u64,
    /// Samples per pixel: 2 or 4 for the multisampled dimensions, 1 otherwise.
    pub samples: u32,
}

/// Whether `dimension` is one of the multisampled `Texture dimension` values.
fn multisampled(dimension: u32) -> bool {
    matches!(dimension, dimension::D2_MS | dimension::D2_ARRAY_MS)
}

fn bits(bytes: &[u8; DESCRIPTOR_BYTES], (start, size): (u32, u32)) -> u64 {
    (0..size).fold(0u64, |v, i| {
        let b = start + i;
        v | u64::from(bytes[(b / 8) as usize] >> (b % 8) & 1) << i
    })
}

fn put(bytes: &mut [u8; DESCRIPTOR_BYTES], (start, size): (u32, u32), value: u64) {
    for i in 0..size {
        let b = start + i;
        let (byte, bit) = ((b / 8) as usize, b % 8);
        bytes[byte] = bytes[byte] & !(1 << bit) | (((value >> i) & 1) as u8) << bit;
    }
}

impl Field {
    fn of(&self, kind: Kind) -> (u32, u32) {
        match kind {
            Kind::Texture => self.texture,
            Kind::Pbe => self.pbe,
        }
    }
}

impl Descriptor {
    /// Decodes the fields of a `kind` descriptor.
    pub fn decode(kind: Kind, bytes: &[u8; DESCRIPTOR_BYTES]) -> Descriptor {
        let f = |field: &Field| bits(bytes, field.of(kind));
        let (sw_start, sw_size) = SWIZZLE.of(kind);
        let stride = f(&STRIDE);
        let dimension = f(&DIMENSION) as u32;
        Descriptor {
            dimension,
            layout: f(&LAYOUT) as u32,
            channels: f(&CHANNELS) as u32,
            ty: f(&TYPE) as u32,
            swizzle: std::array::from_fn(|c| {
                bits(bytes, (sw_start + c as u32 * sw_size, sw_size)) as u32
            }),
            width: f(&WIDTH) as u32 + 1,
            height: f(&HEIGHT) as u32 + 1,
            address: f(&ADDRESS) << 4,
            srgb: f(&SRGB) == 1,
            stride: match kind {
                Kind::Texture => stride * 16 + 16,
                Kind::Pbe => stride + 4,
            },
            samples: match (multisampled(dimension), f(&SAMPLES)) {
                (false, _) => 1,
                (true, 0) => 2,
                (true, _) => 4,
            },
        }
    }

    /// Encodes the modelled fields as a `kind` descriptor (other bits zero): the inverse
    /// of [`Descriptor::decode`] for values that fit their fields.
    pub fn encode(&self, kind: Kind) -> [u8; DESCRIPTOR_BYTES] {
        let mut b = [0u8; DESCRIPTOR_BYTES];
        let mut set = |field: &Field, v: u64| put(&mut b, field.of(kind), v);
        set(&DIMENSION, u64::from(self.dimension));
        set(&LAYOUT, u64::from(self.layout));
        set(&CHANNELS, u64::from(self.channels));
        set(&TYPE, u64::from(self.ty));
        set(&WIDTH, u64::from(self.width.saturating_sub(1)));
        set(&HEIGHT, u64::from(self.height.saturating_sub(1)));
        set(&ADDRESS, self.address >> 4);
        set(&SRGB, u64::from(self.srgb));
        set(
            &SAMPLES,
            u64::from(multisampled(self.dimension) && self.samples == 4),
        );
        set(
            &STRIDE,
            match kind {
                Kind::Texture => self.stride.saturating_sub(16) / 16,
                Kind::Pbe => self.stride.saturating_sub(4),
            },
        );
        let (sw_start, sw_size) = SWIZZLE.of(kind);
        for (c, &s) in self.swizzle.iter().enumerate() {
            put(
                &mut b,
                (sw_start + c as u32 * sw_size, sw_size),
                u64::from(s),
            );
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sit_at_the_genxml_positions() {
        // A PBE of a 3x2 image at 0x1230 with stride 16: width−1 = 2 at bit 24, height−1
        // = 1 at bit 38, address >> 4 = 0x123 at bit 64, stride − 4 = 12 at bit 104.
        let d = Descriptor {
            dimension: dimension::D2,
            layout: LAYOUT_LINEAR,
            channels: 0x28,
            ty: 0,
            swizzle: [0, 1, 2, 3],
            width: 3,
            height: 2,
            address: 0x1230,
            srgb: false,
            stride: 16,
            samples: 1,
        };
        let b = d.encode(Kind::Pbe);
        assert_eq!(b[0], 0x02); // dimension 2, layout 0, channels low bits 0 (0x28 << 6)
        assert_eq!(b[1], (0x28u8 >> 2) & 0x1f);
        assert_eq!(b[3], 2); // width − 1
        assert_eq!(b[4] >> 6, 1); // height − 1, bits 38-39
        assert_eq!(u16::from_le_bytes([b[8], b[9]]), 0x123);
        assert_eq!(b[13], 12);
        assert_eq!(Descriptor::decode(Kind::Pbe, &b), d);
        let t = d.encode(Kind::Texture);
        // Texture: width − 1 at bit 28, stride (16 − 16) / 16 = 0 at bit 110, address at 66.
        assert_eq!(t[3] >> 4, 2);
        assert_eq!(
            u64::from_le_bytes(t[8..16].try_into().unwrap()) >> 2 & 0xfff,
            0x123
        );
        assert_eq!(Descriptor::decode(Kind::Texture, &t), d);
    }

    #[test]
    fn sample_count_is_one_bit_of_multisampled_dimensions() {
        let mut d = Descriptor {
            dimension: dimension::D2_MS,
            layout: LAYOUT_LINEAR,
            channels: 0x28,
            ty: 0,
            swizzle: [0, 1, 2, 3],
            width: 3,
            height: 2,
            address: 0x1230,
            srgb: false,
            stride: 16,
            samples: 4,
        };
        // `Samples` is bit 56 of a PBE (byte 7, bit 0) and bit 64 of a texture (byte 8,
        // bit 0, below the address at bit 66); 1 means 4 samples.
        let b = d.encode(Kind::Pbe);
        assert_eq!(b[7] & 1, 1);
        assert_eq!(Descriptor::decode(Kind::Pbe, &b), d);
        assert_eq!(d.encode(Kind::Texture)[8] & 1, 1);
        d.samples = 2;
        let b = d.encode(Kind::Pbe);
        assert_eq!(b[7] & 1, 0);
        assert_eq!(Descriptor::decode(Kind::Pbe, &b).samples, 2);
        // The bit means nothing for a single-sampled dimension.
        let mut raw = b;
        raw[0] = (raw[0] & !0xf) | dimension::D2 as u8;
        raw[7] |= 1;
        assert_eq!(Descriptor::decode(Kind::Pbe, &raw).samples, 1);
    }
}
