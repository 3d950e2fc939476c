//! The vertex prolog generator: from a prolog key, the AGX code that fetches every
//! attribute component the main vertex shader reads into `r(8 + 4a + c)`, as Mesa's
//! `agx_nir_lower_vbo` (called from `agx_nir_prolog_epilog`) does, built with the
//! instruction builder of `gpuabi-agx-isa` and listed in Mesa's assembly syntax.
//!
//! Per attribute slot `a` with components read, following its [`FetchPlan`]:
//! 1. the element index: `r5` (vertex ID, base vertex included) itself, or into `r7`
//!    `r6 / divisor + base_instance` or `base_instance` for divisor 0 (once for consecutive
//!    attributes with the same rule, when nothing took `r7` in between). The division by a
//!    constant is the multiply-high sequence of Granlund and Montgomery ("Division by
//!    Invariant Integers using Multiplication", PLDI 1994, figure 4.1):
//!    `t = umulhi(n, m); q = (t + ((n − t) >> 1)) >> (l − 1)`, `l = ⌈log2 d⌉`,
//!    `m = ⌊2^32 (2^l − d) / d⌋ + 1`), a shift for powers of two — Mesa leaves the
//!    division to NIR's `nir_udiv_imm` lowering, which computes the same quotient;
//! 2. the bounds test `clamp(a) < el` with `csel` against the clamp uniform; the index
//!    clamped to 0 and/or the base zeroed as the robustness rules say;
//! 3. `index = el · stride_el` in `r1`, the base (uniform `du(2a)` or the register pair
//!    `dr2`), one `load` of the channels the read components need (the packed formats load
//!    the whole word) into `r1`…`r4` — the index and base are read when the load issues —
//!    then `wait`; a load whose channels are the components read, in place and contiguous,
//!    with no conversion (or a move's: fp32, 32-bit integers), writes the output registers
//!    itself, and one `wait` at the end covers all such loads;
//! 4. raw registers zeroed when out of bounds (D3D without the address fix-up; straight into
//!    the output registers when the conversion is a move);
//! 5. the conversion of the key's format and the swizzle into `r(8 + 4a + c)` (10-10-10-2
//!    fields sign-extended with `shl`/`asr`, the snorm scale and −1.0 loaded once per
//!    attribute into `r7` and `r2`).
//!
//! Register rules (the ABI's, checked by [`Prolog::reads`]/[`Prolog::writes`]): temporaries
//! are `r1`–`r4` and `r7` only (never `r0`, whose low half is the nesting counter, and no
//! control flow, so the execution mask is never touched); outputs are exactly the
//! components read; `r5`/`r6` are read, never written, in the hardware variant, and written
//! first in the compute variant.
//!
//! Conversions where Mesa's NIR helpers decide the rounding (`nir_format_convert.h`):
//! integer to float rounds to nearest even; 16.16 fixed is `i2f` then × 2^-16 (exact);
//! 32-bit unorm/snorm divide by `2^32 − 1` / `2^31 − 1` rounded to fp32 (2^32 and 2^31),
//! computed as one multiply by the exact reciprocal; 10-bit and 2-bit snorm multiply by the
//! fp32 reciprocal of `2^(bits−1) − 1` (AGX lowers `fdiv` to a reciprocal multiply) and
//! clamp at −1; fp16 widens exactly (an add of −0.0, keeping the sign of zero).
//!
//! The compute variant (`hw = false`) first computes `r5` and `r6` from the grid position
//! and the index buffer ([`compute_ids`]) and ends by writing `r4`, the zero-based vertex
//! index (the `gl`/`vk` profiles' `AGX_ABI_VIN_VERTEX_ID_ZERO_BASE`).

use gpuabi_agx_isa::regs::{dr, du, imm, r, rl, rs, u};
use gpuabi_agx_isa::{args, decode, Arg, Builder, Operand, RegFile};
use serde::Serialize;
use thiserror::Error;

use crate::abi::{
    vuni_base_instance, vuni_first_vertex, vuni_input_assembly, vuni_vbo_base, vuni_vbo_clamp,
    COMPONENTS_PER_ATTRIB,
};
use crate::vertex_key::{
    fetch_plan, ChannelType, Conversion, ElementIndex, FetchPlan, Interchange, Robustness, Swizzle,
    VertexElement, VertexKeyError,
};

/// One attribute of a prolog key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrologAttrib {
    /// Attribute slot `a` (registers `r(8 + 4a)`…).
    pub slot: u16,
    /// Format, stride, divisor and instancing.
    pub element: VertexElement,
    /// Components the main shader reads: bit `c` for x, y, z, w.
    pub components: u8,
}

/// A vertex prolog key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrologKey {
    /// Robustness level and soft fault.
    pub robustness: Robustness,
    /// Hardware vertex shader (`true`) or the compute variant.
    pub hw: bool,
    /// Index size of the compute variant's index fetch: 0, 1, 2 or 4 bytes.
    pub index_size: u8,
    /// The attributes.
    pub attribs: Vec<PrologAttrib>,
}

/// A key the generator cannot turn into code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PrologError {
    /// An attribute's format or stride is not fetchable.
    #[error("attribute slot {slot}: {source}")]
    Element {
        /// The slot.
        slot: u16,
        /// Why.
        source: VertexKeyError,
    },
    /// A slot beyond Mesa's 16 vertex attributes.
    #[error("attribute slot {0} is beyond slot 15 (Mesa's AGX_MAX_ATTRIBS is 16)")]
    SlotRange(u16),
    /// Two attributes with the same slot.
    #[error("attribute slot {0} appears twice")]
    DuplicateSlot(u16),
    /// A component mask with bits beyond w.
    #[error("attribute slot {slot}: component mask {mask:#x} has bits beyond x, y, z, w")]
    Components {
        /// The slot.
        slot: u16,
        /// The mask.
        mask: u8,
    },
    /// An index size other than 0, 1, 2 or 4 bytes.
    #[error("index size {0} (expected 0, 1, 2 or 4 bytes)")]
    IndexSize(u8),
    /// Generated code that does not build or decode: a defect of the generator.
    #[error("generated code does not assemble: {0}")]
    Assemble(String),
}

/// A generated vertex prolog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Prolog {
    /// Assembly text in Mesa's syntax, one instruction a line.
    pub text: String,
    /// Machine code.
    #[serde(skip)]
    pub code: Vec<u8>,
    /// GPR halves used: one past the highest half read or written.
    pub gpr_halves: u16,
    /// GPR halves read before the prolog writes them (its register inputs).
    pub reads: Vec<u16>,
    /// GPR halves written.
    pub writes: Vec<u16>,
}

/// Mesa's `AGX_MAX_ATTRIBS`.
const MAX_SLOTS: u16 = 16;
/// fp32 bits of 1.0.
const F32_ONE: u32 = 0x3f80_0000;
/// fp32 bits of −1.0.
const F32_MINUS_ONE: u32 = 0xbf80_0000;
/// fp32 bits of 2^-16 (16.16 fixed point).
const F32_2_POW_M16: u32 = 0x3780_0000;
/// fp32 bits of 2^-32: 1 / f32(2^32 − 1).
const F32_2_POW_M32: u32 = 0x2f80_0000;
/// fp32 bits of 2^-31: 1 / f32(2^31 − 1).
const F32_2_POW_M31: u32 = 0x3000_0000;
/// Largest immediate of an ALU source (8 bits, Mesa's `agx_pack_alu`).
const MAX_ALU_IMM: u32 = 0xff;
/// Register holding the element index while an attribute is fetched.
const EL: Operand = r(7);
/// First register of the raw loaded vector (`r1`…`r4`); the index goes here too.
const RAW: u16 = 1;

/// The 32-bit uniform at half `h`.
fn u32_at(h: u16) -> Operand {
    u(u32::from(h / 2))
}

struct Emitter {
    b: Builder,
    /// The element index `r7` holds, to reuse it for the next attribute with the same.
    r7: Option<ElementIndex>,
    /// Loads into the output registers were issued after the last `wait`.
    pending: bool,
}

impl Emitter {
    fn op(&mut self, name: &str, args: &[Arg]) {
        self.b.push(name, args);
    }
}

/// `⌈log2 d⌉`.
fn ceil_log2(d: u32) -> u32 {
    32 - (d - 1).leading_zeros()
}

fn load_format(i: Interchange) -> &'static str {
    match i {
        Interchange::R8Unorm => "u8norm",
        Interchange::R8Snorm => "s8norm",
        Interchange::R16Unorm => "u16norm",
        Interchange::R16Snorm => "s16norm",
        Interchange::R8Uint => "i8",
        Interchange::R16Uint => "i16",
        Interchange::R32Uint => "i32",
        Interchange::R10G10B10A2Unorm => "rgb10a2",
        Interchange::R11G11B10Float => "rg11b10f",
    }
}

const MASK_NAMES: [&str; 16] = [
    "", "x", "y", "xy", "z", "xz", "yz", "xyz", "w", "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw",
];

/// Emits the element index of `plan` and returns its register: `r5` itself for the vertex
/// ID, else `r7` (computed once for consecutive attributes with the same index rule).
fn element_index(e: &mut Emitter, plan: &FetchPlan, n: u16) -> Operand {
    if plan.element_index == ElementIndex::VertexId {
        return r(5);
    }
    if e.r7 == Some(plan.element_index) {
        return EL;
    }
    e.r7 = Some(plan.element_index);
    let base_instance = u32_at(vuni_base_instance(n));
    match plan.element_index {
        ElementIndex::VertexId => {}
        ElementIndex::BaseInstance => e.op("iadd", &args![EL, base_instance, 0]),
        ElementIndex::InstanceDivided { divisor } => {
            if divisor == 1 {
                e.op("iadd", &args![EL, r(6), base_instance]);
                return EL;
            } else if divisor.is_power_of_two() {
                e.op("shr", &args![EL, r(6), divisor.trailing_zeros()]);
            } else {
                let l = ceil_log2(divisor);
                let m = ((1u64 << 32) * ((1u64 << l) - u64::from(divisor)) / u64::from(divisor) + 1)
                    as u32;
                e.op("ldimm", &args![r(4), m]);
                e.op("imul", &args![dr(2), r(6), r(4)]);
                // r3 = umulhi(n, m); q = (t + ((n - t) >> 1)) >> (l - 1).
                e.op("isub", &args![EL, r(6), r(3)]);
                e.op("shr", &args![EL, EL, 1]);
                e.op("iadd", &args![EL, EL, r(3)]);
                e.op("shr", &args![EL, EL, l - 1]);
            }
            e.op("iadd", &args![EL, EL, base_instance]);
        }
    }
    EL
}

/// Emits one attribute's fetch.
fn attribute(e: &mut Emitter, a: &PrologAttrib, plan: &FetchPlan, n: u16) {
    let slot = a.slot;
    let clamp = u32_at(vuni_vbo_clamp(n, slot));
    let base_half = vuni_vbo_base(slot);
    // Memory channels the read components need, in order; packed formats load them all
    // (nothing when every component read is a constant of the format's swizzle).
    let fmt = &plan.format;
    let mut needed = 0u8;
    let mut identity = true;
    for c in 0..4 {
        if a.components >> c & 1 == 1 {
            if let Swizzle::Channel(ch) = fmt.swizzle[c] {
                let ch = if fmt.components_loaded == 1 { 0 } else { ch };
                needed |= 1 << ch;
                identity &= usize::from(ch) == c;
            }
        }
    }
    if needed != 0 && !fmt.interchange.supports_mask() {
        needed = ((1u16 << fmt.components_loaded) - 1) as u8;
    }
    // The load writes the output registers itself when the channels it fetches are the
    // components read, in place, contiguous, and need no conversion; the `wait` for it can
    // then come at the end, once for all such loads.
    let run = needed.checked_shr(needed.trailing_zeros()).unwrap_or(0);
    let contiguous = needed != 0 && run & run.wrapping_add(1) == 0;
    // (Widening fp32 and sign-extending 32-bit integers are moves.)
    let plain = match fmt.conversion {
        Conversion::None => true,
        Conversion::F2f | Conversion::SignExtend => raw_bits(fmt.interchange) == 32,
        _ => false,
    };
    let movable = identity && contiguous && plain && fmt.interchange.supports_mask();
    let direct = movable && !plan.zero_data_when_oob;
    // Zeroing out-of-bounds data writes the output registers itself for such loads.
    let zeroed_into_outputs = movable && plan.zero_data_when_oob;
    if needed != 0 {
        // With a stride of 0 every element is element 0: the index is needed only for the
        // robustness tests.
        let el = if plan.stride_el != 0 || plan.zero_base_when_oob || plan.zero_data_when_oob {
            element_index(e, plan, n)
        } else {
            imm(0)
        };
        // Index into r1.
        let el_src = if plan.clamp_index_to_zero && plan.stride_el != 0 {
            e.op("csel", &args![r(1), clamp, el, 0, el, "ult"]);
            r(1)
        } else {
            el
        };
        let index = match plan.stride_el {
            0 => imm(0),
            1 => el_src,
            s => {
                if s <= MAX_ALU_IMM {
                    e.op("imul", &args![r(1), el_src, s]);
                } else {
                    e.op("ldimm", &args![r(1), s]);
                    e.op("imul", &args![r(1), el_src, r(1)]);
                }
                r(1)
            }
        };
        let base = if plan.zero_base_when_oob {
            e.op("csel", &args![r(2), clamp, el, 0, u32_at(base_half), "ult"]);
            e.op(
                "csel",
                &args![r(3), clamp, el, 0, u32_at(base_half + 2), "ult"],
            );
            dr(2)
        } else {
            du(u32::from(base_half / 2))
        };
        let count = needed.count_ones();
        let first = if direct {
            8 + COMPONENTS_PER_ATTRIB * slot + needed.trailing_zeros() as u16
        } else {
            RAW
        };
        let mut load = args![rs(u32::from(first), count), base, index].to_vec();
        if plan.shift != 0 {
            load.push(shift_word(plan.shift));
        }
        load.extend(args![
            load_format(fmt.interchange),
            MASK_NAMES[usize::from(needed)],
            "a"
        ]);
        e.op("load", &load);
        if direct {
            e.pending = true;
        } else {
            e.op("wait", &args!["a"]);
            e.pending = false;
            if plan.zero_data_when_oob {
                let first_out = 8 + COMPONENTS_PER_ATTRIB * slot + needed.trailing_zeros() as u16;
                for k in 0..count as u16 {
                    let d = r(u32::from(first + k));
                    let to = if zeroed_into_outputs {
                        r(u32::from(first_out + k))
                    } else {
                        d
                    };
                    e.op("csel", &args![to, clamp, el, 0, d, "ult"]);
                }
            }
        }
    }
    let raw_of = |ch: u8| -> u16 {
        let ch = if fmt.components_loaded == 1 { 0 } else { ch };
        RAW + (needed & ((1u8 << ch) - 1)).count_ones() as u16
    };
    let integer = matches!(fmt.ty, ChannelType::Uint | ChannelType::Sint);
    if !direct && !zeroed_into_outputs && needed != 0 {
        unpack_constants(e, fmt, a.components);
    }
    for c in 0..4u16 {
        if a.components >> c & 1 == 0 {
            continue;
        }
        let out = r(u32::from(8 + COMPONENTS_PER_ATTRIB * slot + c));
        match fmt.swizzle[usize::from(c)] {
            Swizzle::Zero => e.op("ldimm", &args![out, 0]),
            Swizzle::One => {
                let one = if integer { 1 } else { F32_ONE };
                e.op("ldimm", &args![out, one]);
            }
            Swizzle::Channel(_) if direct || zeroed_into_outputs => {}
            Swizzle::Channel(ch) => convert(e, fmt, ch, raw_of(ch), out),
        }
    }
    // Conversions may take `r7` for a constant.
    if !direct
        && !matches!(
            fmt.conversion,
            Conversion::None | Conversion::F2f | Conversion::U2f | Conversion::I2f
        )
    {
        e.r7 = None;
    }
}

/// Loads the constants of the signed-normalised 10-10-10-2 unpack once per attribute: the
/// fp32 reciprocal of 511 in `r7` (for the 10-bit fields read) and −1.0 in `r2` (free: the
/// packed word is in `r1`).
fn unpack_constants(e: &mut Emitter, fmt: &crate::vertex_key::VertexFormat, components: u8) {
    if fmt.conversion != Conversion::Unpack1010102Signed || fmt.ty != ChannelType::Snorm {
        return;
    }
    let reads = |c: usize| components >> c & 1 == 1 && fmt.swizzle[c] != Swizzle::Zero;
    let ten_bit =
        (0..4).any(|c| reads(c) && matches!(fmt.swizzle[c], Swizzle::Channel(ch) if ch < 3));
    if ten_bit {
        let rcp = (1.0f32 / 511.0).to_bits();
        e.op("ldimm", &args![EL, rcp]);
    }
    e.op("ldimm", &args![r(2), F32_MINUS_ONE]);
}

/// Bits per channel of an array format loaded raw.
fn raw_bits(i: Interchange) -> u32 {
    i.block_bytes() * 8
}

/// The shift modifier `lsl n` of a memory index, from the ISA's table.
fn shift_word(n: u8) -> Arg {
    gpuabi_agx_isa::enums::SHIFT
        .text(u32::from(n))
        // A shift the table has no text for is an operand no row takes: a build error.
        .map_or(Arg::Int(i64::from(n)), Arg::Word)
}

/// Emits the conversion of channel `ch` (raw in `r{raw}`) into `out`.
fn convert(e: &mut Emitter, fmt: &crate::vertex_key::VertexFormat, ch: u8, raw: u16, out: Operand) {
    let rr = r(u32::from(raw));
    let rl = rl(u32::from(raw));
    let bits = raw_bits(fmt.interchange);
    match fmt.conversion {
        Conversion::None => e.op("mov", &args![out, rr]),
        Conversion::SignExtend => sign_extend(e, out, u32::from(raw), bits),
        Conversion::U2f => e.op("u32_to_f", &args![out, rr, "rte"]),
        Conversion::I2f => match bits {
            8 => e.op("s8_to_f", &args![out, rl, "rte"]),
            16 => e.op("s16_to_f", &args![out, rl, "rte"]),
            _ => e.op("s32_to_f", &args![out, rr, "rte"]),
        },
        Conversion::F2f => match bits {
            // `fadd x, −0.0` keeps the sign of zero, as Mesa's `f2f32` does (`fadd r, h,
            // -0.0` in its prologs); AGX multiplies as `fma(a, b, +0)`, so `x · 1.0` would
            // turn −0.0 into +0.0.
            16 => e.op("fadd", &args![out, rl, -0.0]),
            _ => e.op("mov", &args![out, rr]),
        },
        Conversion::FixedToFloat => {
            e.op("s32_to_f", &args![out, rr, "rte"]);
            scale(e, out, F32_2_POW_M16);
        }
        Conversion::UnormToFloat => {
            e.op("u32_to_f", &args![out, rr, "rte"]);
            scale(e, out, F32_2_POW_M32);
        }
        Conversion::SnormToFloat => {
            // i2f(x) · 2^-31 ≥ −1 for every x, so Mesa's clamp at −1 changes nothing.
            e.op("s32_to_f", &args![out, rr, "rte"]);
            scale(e, out, F32_2_POW_M31);
        }
        Conversion::Unpack1010102Unsigned | Conversion::Unpack1010102Signed => {
            let (pos, width) = if ch == 3 {
                (30, 2)
            } else {
                (10 * u32::from(ch), 10)
            };
            if fmt.conversion == Conversion::Unpack1010102Signed {
                // Sign-extended by shifting the field to the top and back (`asr`).
                if pos + width == 32 {
                    e.op("asr", &args![out, rr, pos, 0, 0]);
                } else {
                    e.op("shl", &args![out, rr, 32 - pos - width]);
                    e.op("asr", &args![out, out, 32 - width, 0, 0]);
                }
            } else {
                e.op("bfeil", &args![out, 0, rr, pos, width]);
            }
            match fmt.ty {
                ChannelType::Uscaled => e.op("u32_to_f", &args![out, out, "rte"]),
                ChannelType::Sscaled => e.op("s32_to_f", &args![out, out, "rte"]),
                ChannelType::Snorm => {
                    // The 10-bit scale is in `r7` and −1.0 in `r2` (`unpack_constants`); the
                    // 2-bit field's scale is 1.
                    e.op("s32_to_f", &args![out, out, "rte"]);
                    if width == 10 {
                        e.op("fmul", &args![out, out, EL]);
                    }
                    e.op("csel", &args![out, out, -1.0, out, r(2), "fgt"]);
                }
                _ => {}
            }
        }
    }
}

/// `out = r{src}` sign-extended from `bits` bits: a 16-bit half with `.sx`, otherwise
/// `(x ^ 2^(bits−1)) − 2^(bits−1)` (ALU immediates hold 8 bits, so larger constants go
/// through `r7`, free once the load is done).
fn sign_extend(e: &mut Emitter, out: Operand, src: u32, bits: u32) {
    match bits {
        32.. => e.op("mov", &args![out, r(src)]),
        16 => e.op("iadd", &args![out, rl(src).sx(), 0]),
        _ => {
            let half = 1u32 << (bits - 1);
            let h = if half <= MAX_ALU_IMM {
                imm(i64::from(half))
            } else {
                e.op("ldimm", &args![EL, half]);
                EL
            };
            e.op("xor", &args![out, r(src), h]);
            e.op("isub", &args![out, out, h]);
        }
    }
}

/// `out *= f32::from_bits(bits)`, the constant through `r7` (free once the load is done).
fn scale(e: &mut Emitter, out: Operand, bits: u32) {
    e.op("ldimm", &args![EL, bits]);
    e.op("fmul", &args![out, out, EL]);
}

/// The compute variant's vertex and instance IDs (`r5`, `r6`): the grid position, the
/// index fetched from the input-assembly buffer (`{u64 index_buffer; u32 range_el; ...}`
/// at uniform half `6n + 8`; an index at or beyond the range reads element 0 and yields
/// 0), plus the first vertex.
fn compute_ids(e: &mut Emitter, index_size: u8, n: u16) {
    let first_vertex = u32_at(vuni_first_vertex(n));
    e.op("mov", &args![r(1), "thread_in_grid_x"]);
    e.op("mov", &args![r(6), "thread_in_grid_y"]);
    if index_size == 0 {
        e.op("iadd", &args![r(5), r(1), first_vertex]);
        return;
    }
    let ia = vuni_input_assembly(n);
    e.op("iadd", &args![r(2), u32_at(ia), 0]);
    e.op("iadd", &args![r(3), u32_at(ia + 2), 0]);
    e.op("load", &args![rs(2, 3), dr(2), 0, "i32", "xyz", "a"]);
    e.op("wait", &args!["a"]);
    e.op("csel", &args![r(7), r(1), r(4), r(1), 0, "ult"]);
    let format = match index_size {
        1 => "i8",
        2 => "i16",
        _ => "i32",
    };
    e.op("load", &args![r(5), dr(2), r(7), format, "x", "a"]);
    e.op("wait", &args!["a"]);
    e.op("csel", &args![r(5), r(1), r(4), r(5), 0, "ult"]);
    e.op("iadd", &args![r(5), r(5), first_vertex]);
}

/// Attribute slots with uniforms: highest slot read + 1.
pub fn slots(key: &PrologKey) -> u16 {
    key.attribs
        .iter()
        .filter(|a| a.components != 0)
        .map(|a| a.slot + 1)
        .max()
        .unwrap_or(0)
}

/// Generates the vertex prolog of `key`.
pub fn vertex_prolog(key: &PrologKey) -> Result<Prolog, PrologError> {
    if !matches!(key.index_size, 0 | 1 | 2 | 4) {
        return Err(PrologError::IndexSize(key.index_size));
    }
    let mut seen = [false; MAX_SLOTS as usize];
    for a in &key.attribs {
        if a.slot >= MAX_SLOTS {
            return Err(PrologError::SlotRange(a.slot));
        }
        if std::mem::replace(&mut seen[usize::from(a.slot)], true) {
            return Err(PrologError::DuplicateSlot(a.slot));
        }
        if a.components > 0xf {
            return Err(PrologError::Components {
                slot: a.slot,
                mask: a.components,
            });
        }
    }
    let n = slots(key);
    let mut e = Emitter {
        b: Builder::new(),
        r7: None,
        pending: false,
    };
    let mut attribs: Vec<&PrologAttrib> =
        key.attribs.iter().filter(|a| a.components != 0).collect();
    attribs.sort_by_key(|a| a.slot);
    if !key.hw {
        compute_ids(&mut e, key.index_size, n);
    }
    for a in attribs {
        let plan =
            fetch_plan(&a.element, key.robustness).map_err(|source| PrologError::Element {
                slot: a.slot,
                source,
            })?;
        attribute(&mut e, a, &plan, n);
    }
    if e.pending {
        e.op("wait", &args!["a"]);
    }
    if !key.hw {
        // Written last: the attribute fetches use r4 as a temporary.
        e.op("mov", &args![r(4), "thread_in_grid_x"]);
    }
    let code =
        e.b.finish()
            .map_err(|err| PrologError::Assemble(err.to_string()))?;
    let (reads, writes) = register_use(&code.bytes)?;
    let gpr_halves = reads
        .iter()
        .chain(&writes)
        .map(|h| h + 1)
        .max()
        .unwrap_or(0);
    Ok(Prolog {
        text: code.text(),
        code: code.bytes,
        gpr_halves,
        reads,
        writes,
    })
}

/// GPR halves read before being written, and halves written, by straight-line `code`.
pub fn register_use(code: &[u8]) -> Result<(Vec<u16>, Vec<u16>), PrologError> {
    let program = decode(code).map_err(|e| PrologError::Assemble(e.to_string()))?;
    let gprs = usize::from(RegFile::Gpr.halves());
    let mut read = vec![false; gprs];
    let mut written = vec![false; gprs];
    let halves = |op: &Operand| -> Vec<usize> {
        match op.tuple() {
            Some(t) if t.file == RegFile::Gpr => t.half_range().map(|h| h as usize).collect(),
            _ => Vec::new(),
        }
    };
    for (_, ins) in &program {
        for op in ins.srcs.iter().flatten() {
            for h in halves(op) {
                if h < gprs && !written[h] {
                    read[h] = true;
                }
            }
        }
        for op in ins.dests.iter().flatten() {
            for h in halves(op) {
                if h < gprs {
                    written[h] = true;
                }
            }
        }
    }
    let list = |v: &[bool]| (0..gprs as u16).filter(|&h| v[usize::from(h)]).collect();
    Ok((list(&read), list(&written)))
}
