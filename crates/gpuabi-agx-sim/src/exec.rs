//! Executing instructions on a [`State`], with the semantics applegpu documents
//! (`applegpu.py`, the `exec`/`exec_thread` methods and pseudocode of each instruction).

use gpuabi_agx_isa::{decode, fimm_value, Instruction, Operand, OperandKind, RegFile};

use crate::block;
use crate::convert::{float_to_int, int_to_float, unary};
use crate::error::SimError;
use crate::float::{f16_to_f64, f32_to_f64, fma_exact, saturate, to_f16, to_f32};
use crate::format::{encode_element, pack_word};
use crate::fragment;
use crate::image;
use crate::load::{convert, layout, Layout};
use crate::state::{State, LANES};

/// The special registers `thread_in_grid_x`, `_y`, `_z` (Mesa's `AGX2.xml` numbering).
const SR_THREAD_IN_GRID: [u32; 3] = [80, 81, 82];
/// The special register `input_sample_mask` (Mesa's `AGX2.xml` numbering).
const SR_INPUT_SAMPLE_MASK: u32 = 124;

/// A special register of `lane`. Compute code: lane `l` is thread `grid + (l, 0, 0)`.
/// Fragment code: `thread_in_grid_x`/`_y` are the lane's pixel plus `grid` (the tile's
/// origin), the pixel coordinates Mesa's `agx_compile.c` reads for `load_pixel_coord`;
/// `input_sample_mask` is the coverage the run began with.
fn special_register(st: &State, sr: u32, lane: usize) -> R<u32> {
    if sr == SR_INPUT_SAMPLE_MASK {
        let f = st.frag.as_deref().ok_or(Fail::Unsupported(
            "input_sample_mask needs a fragment context",
        ))?;
        return Ok(u32::from(f.input_coverage[lane]));
    }
    let axis = SR_THREAD_IN_GRID
        .iter()
        .position(|&r| r == sr)
        .ok_or(Fail::Unsupported(
            "special registers other than thread_in_grid_x/y/z and input_sample_mask",
        ))?;
    let origin = st.grid[axis];
    Ok(match (&st.frag, axis) {
        (Some(f), 0) => origin.wrapping_add(u32::from(f.pixel[lane].0)),
        (Some(f), 1) => origin.wrapping_add(u32::from(f.pixel[lane].1)),
        (None, 0) => origin.wrapping_add(lane as u32),
        _ => origin,
    })
}

/// What happens after an instruction.
enum Flow {
    Next,
    Jump(i64),
    Stop,
}

/// Why one instruction failed, before the instruction is attached.
pub(crate) enum Fail {
    Unsupported(&'static str),
    Nesting(usize),
    Fault { lane: usize, address: u64 },
    Tile { lane: usize, what: String },
    Image { lane: usize, what: String },
    Sim(SimError),
}

impl From<SimError> for Fail {
    fn from(e: SimError) -> Fail {
        Fail::Sim(e)
    }
}

pub(crate) type R<T> = Result<T, Fail>;

pub(crate) fn sext(v: u64, bits: u32) -> i128 {
    if bits >= 64 {
        return i128::from(v as i64);
    }
    i128::from(((v << (64 - bits)) as i64) >> (64 - bits))
}

pub(crate) fn op_size(op: &Operand) -> u32 {
    match op.kind {
        OperandKind::Reg { size, .. } => size,
        _ => 16,
    }
}

/// The raw bits of an integer operand in `lane` (immediates are 16-bit, zero-extended).
pub(crate) fn read_bits(st: &State, op: &Operand, lane: usize) -> R<u64> {
    Ok(match op.kind {
        OperandKind::Reg {
            file: RegFile::Gpr,
            base,
            size,
            ..
        } => st.read_gpr(lane, base, size)?,
        OperandKind::Reg {
            file: RegFile::Uniform,
            base,
            size,
            ..
        } => st.read_uniform(base, size)?,
        OperandKind::Imm(v) => (v as u64) & 0xffff,
        OperandKind::FImm(c) => u64::from(c),
        _ => return Err(Fail::Unsupported("operand kind")),
    })
}

/// An integer source, sign-extended when it carries `.sx`.
fn read_int(st: &State, op: &Operand, lane: usize) -> R<i128> {
    let v = read_bits(st, op, lane)?;
    Ok(if op.sx {
        sext(v, op_size(op))
    } else {
        i128::from(v)
    })
}

/// A float source as f64: fp16 exact, fp32 with subnormals flushed, then `.abs`/`.neg`.
fn read_float(st: &State, op: &Operand, lane: usize) -> R<f64> {
    let mut x = match op.kind {
        OperandKind::FImm(c) => fimm_value(c),
        _ => {
            let v = read_bits(st, op, lane)?;
            match op_size(op) {
                16 => f16_to_f64(v as u16),
                32 => f32_to_f64(v as u32, true),
                _ => return Err(Fail::Unsupported("64-bit float source")),
            }
        }
    };
    if op.abs {
        x = x.abs();
    }
    if op.neg {
        x = -x;
    }
    Ok(x)
}

pub(crate) fn write(st: &mut State, op: &Operand, lane: usize, value: u64) -> R<()> {
    match op.kind {
        OperandKind::Reg {
            file: RegFile::Gpr,
            base,
            size,
            ..
        } => Ok(st.write_gpr(lane, base, size, value)?),
        _ => Err(Fail::Unsupported("destination kind")),
    }
}

/// Writes a float result: fp32 destinations round with flush-to-zero, fp16 ones keep
/// subnormals; `sat` clamps first.
fn write_float(st: &mut State, op: &Operand, lane: usize, x: f64, sat: bool) -> R<()> {
    let x = if sat { saturate(x) } else { x };
    let bits = match op_size(op) {
        16 => u64::from(to_f16(x)),
        _ => u64::from(to_f32(x, true)),
    };
    write(st, op, lane, bits)
}

pub(crate) fn src(ins: &Instruction, i: usize) -> R<&Operand> {
    ins.srcs
        .get(i)
        .and_then(|s| s.as_ref())
        .ok_or(Fail::Unsupported("absent source"))
}

pub(crate) fn dest(ins: &Instruction) -> R<&Operand> {
    ins.dests
        .first()
        .and_then(|d| d.as_ref())
        .ok_or(Fail::Unsupported("absent destination"))
}

pub(crate) fn modifier(ins: &Instruction, name: &str) -> u32 {
    ins.modifier(name).unwrap_or(0)
}

/// Integer comparison: code bits 0..1 select ==, <, >; bit 2 compares signed; bit 3
/// negates (`icompare_thread` in applegpu).
fn icompare(st: &State, code: u32, a: &Operand, b: &Operand, lane: usize) -> R<bool> {
    let (x, y) = (read_bits(st, a, lane)?, read_bits(st, b, lane)?);
    let (x, y) = if code & 4 != 0 {
        (sext(x, op_size(a)), sext(y, op_size(b)))
    } else {
        (i128::from(x), i128::from(y))
    };
    let r = match code & 3 {
        0 => x == y,
        1 => x < y,
        2 => x > y,
        _ => return Err(Fail::Unsupported("integer condition 3")),
    };
    Ok(r != (code & 8 != 0))
}

/// Float comparison: ==, <, >, >=, <= (codes 0, 1, 2, 5, 6); bit 3 negates.
///
/// Codes 3 and 7 (`fltn`, `fgtn`) are the orderings of minimum and maximum: Mesa's
/// `agx_fminmax_to` (`src/asahi/compiler/agx_compile.c`) computes NIR's `fmin`/`fmax` as
/// `csel a, b, a, b, fltn|fgtn`, and NIR's `fmin`/`fmax` return the other operand when one
/// is NaN. So `a <n b` is true when `b` alone is NaN, false when `a` is NaN (both NaN:
/// false, giving `b`), and `a < b` otherwise; the same with `>` for `fgtn`. Signed zeros
/// compare equal, giving `b`: Mesa's comment there says these modes are incorrect for
/// signed zeros, and lowers the `fmin`/`fmax` that must tell them apart.
fn fcompare(st: &State, code: u32, a: &Operand, b: &Operand, lane: usize) -> R<bool> {
    let (x, y) = (read_float(st, a, lane)?, read_float(st, b, lane)?);
    let r = match code & 7 {
        0 => x == y,
        1 => x < y,
        2 => x > y,
        3 => !x.is_nan() && (y.is_nan() || x < y),
        5 => x >= y,
        6 => x <= y,
        7 => !x.is_nan() && (y.is_nan() || x > y),
        _ => return Err(Fail::Unsupported("float condition 4")),
    };
    Ok(r != (code & 8 != 0))
}

fn saturate_int(v: i128, size: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (size - 1)), (1i128 << (size - 1)) - 1)
    } else {
        (0, (1i128 << size) - 1)
    };
    v.clamp(lo, hi)
}

fn shl(x: u128, s: u32) -> u128 {
    if s >= 128 {
        0
    } else {
        x << s
    }
}

fn shr(x: u128, s: u32) -> u128 {
    if s >= 128 {
        0
    } else {
        x >> s
    }
}

/// The bitfield and shift group (`bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`).
fn bitfield(name: &str, a: u128, b: u128, s: u32, m: u32) -> u128 {
    let mask: u128 = if m == 0 { 0xffff_ffff } else { (1 << m) - 1 };
    match name {
        "bfi" | "shl" => (a & !shl(mask, s)) | shl(b & mask, s),
        "bfeil" | "shr" => (a & !mask) | (shr(b, s) & mask),
        "extr" => shr((b << 32) | a, s) & mask,
        "shlhi" => {
            let shifted = shl(mask, s.saturating_sub(32));
            let hi = if s >= 96 { 0 } else { (b << s) >> 32 };
            (hi & shifted) | (a & !shifted)
        }
        _ => {
            let shifted = (mask << 32) >> s.min(32);
            ((shr(b << 32, s)) & shifted) | (a & !shifted)
        }
    }
}

pub(crate) fn per_lane(st: &mut State, mut f: impl FnMut(&mut State, usize) -> R<()>) -> R<()> {
    for lane in 0..LANES {
        if st.active(lane) {
            f(st, lane)?;
        }
    }
    Ok(())
}

fn float_op(st: &mut State, ins: &Instruction, name: &str) -> R<()> {
    let d = *dest(ins)?;
    let sat = modifier(ins, "saturate") != 0;
    let half_op = name.starts_with('h');
    let srcs: Vec<Operand> = ins.srcs.iter().flatten().copied().collect();
    per_lane(st, |st, lane| {
        let v: Vec<f64> = srcs
            .iter()
            .map(|o| read_float(st, o, lane))
            .collect::<R<_>>()?;
        let exact = match &name[1..] {
            "add" => fma_exact(v[0], 1.0, v[1]),
            "mul" => fma_exact(v[0], v[1], 0.0),
            _ => fma_exact(v[0], v[1], v[2]),
        };
        // A 32-bit operation rounds to fp32 first, also for a 16-bit destination.
        let x = if half_op {
            exact
        } else {
            f64::from(f32::from_bits(to_f32(exact, true)))
        };
        write_float(st, &d, lane, x, sat)
    })
}

/// Nesting-counter update of `if`/`else`/`while` for one lane (applegpu's pseudocode).
fn nest(kind: &str, lane: usize, v: u16, n: u16, cond: impl FnOnce() -> R<bool>) -> R<u16> {
    Ok(match kind {
        "if" => {
            if v != 0 {
                v.checked_add(n).ok_or(Fail::Nesting(lane))?
            } else if !cond()? {
                1
            } else {
                0
            }
        }
        "else" => match v {
            0 => n,
            1 => u16::from(!cond()?),
            _ => v,
        },
        _ => {
            if v < n {
                if cond()? {
                    0
                } else {
                    n
                }
            } else {
                v
            }
        }
    })
}

fn shuffle(st: &mut State, ins: &Instruction) -> R<()> {
    let d = *dest(ins)?;
    let (a_op, b_op) = (*src(ins, 0)?, *src(ins, 1)?);
    if modifier(ins, "quad") == 0 {
        return Err(Fail::Unsupported("quad-scoped shuffle"));
    }
    let op = modifier(ins, "op");
    let rotate = modifier(ins, "rotate") != 0;
    let a: Vec<u64> = (0..LANES)
        .map(|l| read_bits(st, &a_op, l))
        .collect::<R<_>>()?;
    let b: Vec<u64> = (0..LANES)
        .map(|l| read_bits(st, &b_op, l))
        .collect::<R<_>>()?;
    // Every lane of a quad (active or not) contributes the low bits of its index.
    let quad_bits: Vec<usize> = (0..LANES / 4)
        .map(|q| (0..4).fold(0, |acc, i| acc | (b[q * 4 + i] & 3) as usize))
        .collect();
    let quad_value =
        |q: usize, i: usize, f: &dyn Fn(usize, usize) -> usize| a[q * 4 + f(i, quad_bits[q])];
    for t in 0..LANES {
        if !st.active(t) {
            continue;
        }
        let idx = b[t] as usize;
        let value = match (op, rotate) {
            (0, false) => {
                if idx < LANES {
                    a[(idx >> 2) * 4 + quad_bits[idx >> 2]]
                } else {
                    a[t]
                }
            }
            (1, false) => {
                let x = t ^ idx;
                if x < LANES {
                    quad_value((x & 31) >> 2, t & 3, &|i, k| (i ^ k) & 3)
                } else {
                    a[t]
                }
            }
            (2, false) => {
                if t >= idx {
                    quad_value((t - idx) >> 2, t & 3, &|i, k| i.wrapping_sub(k) & 3)
                } else {
                    a[t]
                }
            }
            (2, true) => quad_value((t.wrapping_sub(idx) & 31) >> 2, t & 3, &|i, k| {
                i.wrapping_sub(k) & 3
            }),
            (3, false) => {
                if idx.checked_add(t).is_some_and(|x| x < LANES) {
                    quad_value((idx + t) >> 2, t & 3, &|i, k| (i + k) & 3)
                } else {
                    a[t]
                }
            }
            _ => return Err(Fail::Unsupported("this shuffle form")),
        };
        write(st, &d, t, value)?;
    }
    Ok(())
}

fn load(st: &mut State, ins: &Instruction) -> R<()> {
    let d = *dest(ins)?;
    let (base_op, index_op) = (*src(ins, 0)?, *src(ins, 1)?);
    let format = modifier(ins, "format");
    let lay = layout(format).ok_or(Fail::Unsupported("this load format"))?;
    let OperandKind::Reg {
        base: reg, size, ..
    } = d.kind
    else {
        return Err(Fail::Unsupported("destination kind"));
    };
    let mut shift = modifier(ins, "shift").min(2);
    let (item, mask) = match lay {
        Layout::Raw(n) | Layout::Convert(n) => (n, modifier(ins, "mask")),
        Layout::Packed(_) => {
            shift = 2;
            (1, 0xf)
        }
    };
    per_lane(st, |st, lane| {
        let base = read_bits(st, &base_op, lane)?;
        let index: i128 = match index_op.kind {
            OperandKind::Imm(v) => i128::from(v),
            _ => {
                let v = read_bits(st, &index_op, lane)?;
                if index_op.sx {
                    sext(v, 32)
                } else {
                    i128::from(v)
                }
            }
        };
        let offset = index << shift;
        let mut address = i128::from(base) & !i128::from(item - 1);
        if matches!(lay, Layout::Packed(_)) {
            address &= !3;
        }
        let mut elements = Vec::new();
        for i in 0..4u32 {
            if mask >> i & 1 == 0 {
                continue;
            }
            let at = (address + (offset + i128::from(i)) * i128::from(item)) as u64;
            let mut v = 0u64;
            for k in 0..item {
                let byte = st.read_byte(at.wrapping_add(k)).ok_or(Fail::Fault {
                    lane,
                    address: at.wrapping_add(k),
                })?;
                v |= u64::from(byte) << (8 * k);
            }
            elements.push((i, v));
        }
        let mut regs = Vec::new();
        match lay {
            Layout::Raw(_) => regs.extend(elements.iter().map(|&(_, v)| v)),
            Layout::Convert(_) => {
                for &(n, v) in &elements {
                    regs.push(real_bits(convert(format, n, v), size));
                }
            }
            Layout::Packed(count) => {
                let word = elements.iter().fold(0u64, |w, &(i, v)| w | (v << (8 * i)));
                for n in 0..count {
                    regs.push(real_bits(convert(format, n, word), size));
                }
            }
        }
        let step = size / 16;
        for (k, v) in regs.into_iter().enumerate() {
            st.write_gpr(lane, reg + k as u32 * step, size, v)?;
        }
        Ok(())
    })
}

/// `store`: each register goes where `device_load` would read it. Unconverted formats
/// (`i8`, `i16`, `i32`, `f16`) store the low bytes of each register; the converted
/// element formats encode the register's float (fp16 or fp32 by size) with
/// [`crate::format::encode_element`]; the packed formats encode their registers into one
/// aligned word at `base + 4 · index`, the address the packed load reads (applegpu's
/// `DeviceLoadInstructionDesc` forces shift 2 and mask xyzw for them). Unmapped bytes
/// fault, or are dropped under soft fault.
fn store(st: &mut State, ins: &Instruction) -> R<()> {
    let (data, base_op, index_op) = (*src(ins, 0)?, *src(ins, 1)?, *src(ins, 2)?);
    let format = modifier(ins, "format");
    let lay = layout(format).ok_or(Fail::Unsupported("this store format"))?;
    let OperandKind::Reg {
        base: reg, size, ..
    } = data.kind
    else {
        return Err(Fail::Unsupported("store data kind"));
    };
    let (item, shift, mask) = match lay {
        Layout::Raw(n) | Layout::Convert(n) => {
            (n, modifier(ins, "shift").min(2), modifier(ins, "mask"))
        }
        Layout::Packed(_) => (4, 0, 1),
    };
    per_lane(st, |st, lane| {
        let base = read_bits(st, &base_op, lane)?;
        let index = match index_op.kind {
            OperandKind::Imm(v) => i128::from(v),
            _ => {
                let v = read_bits(st, &index_op, lane)?;
                if index_op.sx {
                    sext(v, 32)
                } else {
                    i128::from(v)
                }
            }
        };
        let address = i128::from(base) & !i128::from(item - 1);
        let offset = index << shift;
        let mut elements = Vec::new();
        match lay {
            Layout::Packed(count) => {
                let mut v = [0.0; 4];
                for (k, x) in v.iter_mut().enumerate().take(count as usize) {
                    *x = real(st.read_gpr(lane, reg + k as u32 * (size / 16), size)?, size);
                }
                let word = pack_word(format, v).ok_or(Fail::Unsupported("this store format"))?;
                elements.push((0, u64::from(word)));
            }
            _ => {
                let mut k = 0u32;
                for i in 0..4u32 {
                    if mask >> i & 1 == 0 {
                        continue;
                    }
                    let value = st.read_gpr(lane, reg + k * (size / 16), size)?;
                    k += 1;
                    let stored = match lay {
                        Layout::Convert(_) => {
                            encode_element(format, i, real(value, size)).unwrap_or(0)
                        }
                        _ => value,
                    };
                    elements.push((i, stored));
                }
            }
        }
        for (i, value) in elements {
            let at = (address + (offset + i128::from(i)) * i128::from(item)) as u64;
            for b in 0..item {
                let addr = at.wrapping_add(b);
                if !st.write_byte(addr, (value >> (8 * b)) as u8) {
                    return Err(Fail::Fault {
                        lane,
                        address: addr,
                    });
                }
            }
        }
        Ok(())
    })
}

/// `atomic dest, data, base, index, op`: per active lane in lane order, reads the 32-bit
/// word at `base + 4 · index`, writes the operation's result and returns the old word in
/// `dest` (when there is one). The operation codes are those of the ISA's `atomic
/// operation` table (applegpu's numbering); `cmpxchg` compares with the first data
/// register and stores the second. The index counts 32-bit words (gpuabi's reading: the
/// instruction has no shift field and only 32-bit data). Unmapped words fault, or read as
/// zero and drop the write under soft fault.
fn atomic(st: &mut State, ins: &Instruction) -> R<()> {
    let data = *src(ins, 0)?;
    let (base_op, index_op) = (*src(ins, 1)?, *src(ins, 2)?);
    let op = modifier(ins, "op");
    let d = ins.dests.first().copied().flatten();
    let OperandKind::Reg { base: reg, .. } = data.kind else {
        return Err(Fail::Unsupported("atomic data kind"));
    };
    per_lane(st, |st, lane| {
        let base = read_bits(st, &base_op, lane)?;
        let index = match index_op.kind {
            OperandKind::Imm(v) => i128::from(v),
            _ => {
                let v = read_bits(st, &index_op, lane)?;
                if index_op.sx {
                    sext(v, 32)
                } else {
                    i128::from(v)
                }
            }
        };
        let at = (i128::from(base) + 4 * index) as u64;
        let mut old = 0u32;
        for k in 0..4u64 {
            let a = at.wrapping_add(k);
            let b = st.read_byte(a).ok_or(Fail::Fault { lane, address: a })?;
            old |= u32::from(b) << (8 * k);
        }
        let x = st.read_gpr(lane, reg, 32)? as u32;
        let new = match op {
            0 => old.wrapping_add(x),
            1 => old.wrapping_sub(x),
            2 => x,
            3 => {
                if old == x {
                    st.read_gpr(lane, reg + 2, 32)? as u32
                } else {
                    old
                }
            }
            4 => old.min(x),
            5 => (old as i32).min(x as i32) as u32,
            6 => old.max(x),
            7 => (old as i32).max(x as i32) as u32,
            8 => old & x,
            9 => old | x,
            10 => old ^ x,
            _ => return Err(Fail::Unsupported("atomic operation")),
        };
        for k in 0..4u64 {
            let a = at.wrapping_add(k);
            if !st.write_byte(a, (new >> (8 * k)) as u8) {
                return Err(Fail::Fault { lane, address: a });
            }
        }
        if let Some(d) = &d {
            write(st, d, lane, u64::from(old))?;
        }
        Ok(())
    })
}

/// A register value as a real number (fp16 or fp32 by size, no flushing).
pub(crate) fn real(bits: u64, size: u32) -> f64 {
    if size == 16 {
        f16_to_f64(bits as u16)
    } else {
        f32_to_f64(bits as u32, false)
    }
}

/// A converted load value in the destination register's float format (no flushing).
pub(crate) fn real_bits(x: f64, size: u32) -> u64 {
    if size == 16 {
        u64::from(to_f16(x))
    } else {
        u64::from(to_f32(x, false))
    }
}

fn step(st: &mut State, ins: &Instruction) -> R<Flow> {
    let name = ins.opcode.name();
    match name {
        "ldimm16" | "ldimm32" => {
            let d = *dest(ins)?;
            let v = ins.imms[0] as u64;
            per_lane(st, |st, lane| write(st, &d, lane, v))?;
        }
        "mfsr" => {
            let d = *dest(ins)?;
            let sr = modifier(ins, "sr");
            per_lane(st, |st, lane| {
                let v = special_register(st, sr, lane)?;
                write(st, &d, lane, u64::from(v))
            })?;
        }
        "iadd" | "isub" => {
            let d = *dest(ins)?;
            let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
            let shift = modifier(ins, "shift");
            let sat = modifier(ins, "saturate") != 0
                && shift == 0
                && op_size(&a) <= 32
                && op_size(&b) <= 32
                && op_size(&d) <= 32;
            per_lane(st, |st, lane| {
                let x = read_int(st, &a, lane)?;
                let mut y = read_int(st, &b, lane)?;
                if name == "isub" {
                    y = -y;
                }
                y = if shift < 5 { y << shift } else { 0 };
                let mut r = x + y;
                if sat {
                    r = saturate_int(r, op_size(&d), a.sx || b.sx);
                }
                write(st, &d, lane, r as u64)
            })?;
        }
        "imul" | "imadd" | "imsub" => {
            let d = *dest(ins)?;
            let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
            let c = if name == "imul" {
                None
            } else {
                Some(*src(ins, 2)?)
            };
            let shift = modifier(ins, "shift");
            let c_size = c.as_ref().map_or(16, op_size);
            let sat =
                modifier(ins, "saturate") != 0 && shift == 0 && c_size <= 32 && op_size(&d) <= 32;
            let signed = a.sx || b.sx || c.as_ref().is_some_and(|c| c.sx);
            per_lane(st, |st, lane| {
                let x = read_int(st, &a, lane)?;
                let y = read_int(st, &b, lane)?;
                let mut z = match &c {
                    Some(c) => read_int(st, c, lane)?,
                    None => 0,
                };
                if name == "imsub" {
                    z = -z;
                }
                z = if shift < 5 { z << shift } else { 0 };
                let mut r = x * y + z;
                if sat {
                    r = saturate_int(r, op_size(&d), signed);
                }
                write(st, &d, lane, r as u64)
            })?;
        }
        "shl" | "shr" | "bfi" | "bfeil" | "extr" | "shlhi" | "shrhi" => {
            let d = *dest(ins)?;
            let ops: Vec<Operand> = ins.srcs.iter().flatten().copied().collect();
            let m = if ops.len() == 2 {
                0
            } else {
                ins.imms[0] as u32
            };
            per_lane(st, |st, lane| {
                let v: Vec<u128> = ops
                    .iter()
                    .map(|o| read_bits(st, o, lane).map(u128::from))
                    .collect::<R<_>>()?;
                let (a, b, c) = if v.len() == 2 {
                    (0, v[0], v[1])
                } else {
                    (v[0], v[1], v[2])
                };
                let r = bitfield(name, a, b, (c & 0x7f) as u32, m);
                write(st, &d, lane, r as u64)
            })?;
        }
        "asr" | "asrh" => {
            let d = *dest(ins)?;
            let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
            per_lane(st, |st, lane| {
                let x = sext(read_bits(st, &a, lane)?, op_size(&a));
                let s = (read_bits(st, &b, lane)? & 0x7f) as u32;
                let x = if name == "asrh" { x << 32 } else { x };
                let r = if s >= 127 {
                    if x < 0 {
                        -1
                    } else {
                        0
                    }
                } else {
                    x >> s
                };
                write(st, &d, lane, r as u64)
            })?;
        }
        "fadd" | "fmul" | "ffma" | "hadd" | "hmul" | "hfma" => float_op(st, ins, name)?,
        "not_a" | "mov" | "not" | "mov_a" | "zero" | "and" | "andn1" | "andn2" | "xor" | "or"
        | "nor" | "xnor" | "orn1" | "orn2" | "nand" | "one" => {
            let d = *dest(ins)?;
            // The truth table: bit (a + 2b) of bits 26..27, 38..39 (Mesa's opcode field).
            let tt = ((ins.raw >> 26) & 3) as u32 | (((ins.raw >> 38) & 3) as u32) << 2;
            let a_op = *src(ins, 0)?;
            let b_op = ins.srcs.get(1).copied().flatten();
            per_lane(st, |st, lane| {
                let a = read_bits(st, &a_op, lane)?;
                let b = match &b_op {
                    Some(o) => read_bits(st, o, lane)?,
                    None => 0,
                };
                let r = if tt == 0b0011 || tt == 0b1100 {
                    a
                } else {
                    [!a & !b, a & !b, !a & b, a & b]
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| tt >> i & 1 == 1)
                        .fold(0, |r, (_, v)| r | v)
                };
                write(st, &d, lane, r)
            })?;
        }
        "bitrev" | "popcnt" | "ffs" => {
            let d = *dest(ins)?;
            let a = *src(ins, 0)?;
            per_lane(st, |st, lane| {
                let x = read_bits(st, &a, lane)? as u32;
                let r = match name {
                    "bitrev" => u64::from(x.reverse_bits()),
                    "popcnt" => u64::from(x.count_ones()),
                    _ => {
                        if x == 0 {
                            u64::MAX
                        } else {
                            u64::from(31 - x.leading_zeros())
                        }
                    }
                };
                write(st, &d, lane, r)
            })?;
        }
        "intl" => {
            let d = *dest(ins)?;
            let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
            per_lane(st, |st, lane| {
                let (x, y) = (read_bits(st, &a, lane)?, read_bits(st, &b, lane)?);
                let r = (0..16).fold(0u64, |r, i| {
                    r | ((x >> i & 1) << (2 * i)) | ((y >> i & 1) << (2 * i + 1))
                });
                write(st, &d, lane, r)
            })?;
        }
        "icsel" | "fcsel" => {
            let d = *dest(ins)?;
            let (a, b, x, y) = (*src(ins, 0)?, *src(ins, 1)?, *src(ins, 2)?, *src(ins, 3)?);
            let code = modifier(ins, "condition");
            per_lane(st, |st, lane| {
                let c = if name == "icsel" {
                    icompare(st, code, &a, &b, lane)?
                } else {
                    fcompare(st, code, &a, &b, lane)?
                };
                let v = read_bits(st, if c { &x } else { &y }, lane)?;
                write(st, &d, lane, v)
            })?;
        }
        "if_icmp" | "else_icmp" | "while_icmp" | "if_fcmp" | "else_fcmp" | "while_fcmp" => {
            let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
            let n = ins.imms[0] as u16;
            let code = modifier(ins, "cond");
            let kind = name.split('_').next().unwrap_or("if");
            for lane in 0..LANES {
                let v = st.gpr[lane][0];
                let st_ref: &State = st;
                let r = nest(kind, lane, v, n, || {
                    if name.ends_with("icmp") {
                        icompare(st_ref, code, &a, &b, lane)
                    } else {
                        fcompare(st_ref, code, &a, &b, lane)
                    }
                })?;
                st.gpr[lane][0] = r;
            }
            st.written[0] = true;
            st.exec_from_r0l();
        }
        "pop_exec" => {
            let n = ins.imms[0] as u16;
            for lane in 0..LANES {
                st.gpr[lane][0] = st.gpr[lane][0].saturating_sub(n);
            }
            st.written[0] = true;
            st.exec_from_r0l();
        }
        "update_exec" => st.exec_from_r0l(),
        "ballot" | "icmp_ballot" | "fcmp_ballot" => {
            let d = *dest(ins)?;
            let mut result = 0u64;
            if name == "ballot" {
                result = u64::from(st.exec);
            } else {
                if modifier(ins, "quad") == 0 {
                    return Err(Fail::Unsupported("quad-scoped ballot"));
                }
                let (a, b) = (*src(ins, 0)?, *src(ins, 1)?);
                let code = modifier(ins, "condition");
                for lane in 0..LANES {
                    if st.active(lane) {
                        let c = if name == "icmp_ballot" {
                            icompare(st, code, &a, &b, lane)?
                        } else {
                            fcompare(st, code, &a, &b, lane)?
                        };
                        result |= u64::from(c) << lane;
                    }
                }
            }
            per_lane(st, |st, lane| write(st, &d, lane, result))?;
        }
        "shuffle" => shuffle(st, ins)?,
        "u8_to_f" | "s8_to_f" | "u16_to_f" | "s16_to_f" | "u32_to_f" | "s32_to_f" => {
            let d = *dest(ins)?;
            let a = *src(ins, 0)?;
            let round = modifier(ins, "round");
            let bits: u32 = name[1..name.len() - 5].parse().unwrap_or(32);
            let signed = name.starts_with('s');
            per_lane(st, |st, lane| {
                let v = read_bits(st, &a, lane)? & ((1u64 << bits) - 1);
                let x = if signed {
                    sext(v, bits) as f64
                } else {
                    v as f64
                };
                write(st, &d, lane, int_to_float(x, op_size(&d), round))
            })?;
        }
        "f_to_u16" | "f_to_s16" | "f_to_u32" | "f_to_s32" => {
            let d = *dest(ins)?;
            let a = *src(ins, 0)?;
            let round = modifier(ins, "round");
            // `f_to_` then `u`/`s` and the width.
            let bits: u32 = name[6..].parse().unwrap_or(32);
            let signed = name.as_bytes()[5] == b's';
            per_lane(st, |st, lane| {
                let v = read_bits(st, &a, lane)?;
                let x = match op_size(&a) {
                    16 => f16_to_f64(v as u16),
                    _ => f32_to_f64(v as u32, true),
                };
                write(st, &d, lane, float_to_int(x, bits, signed, round))
            })?;
        }
        "floor" | "ceil" | "trunc" | "rint" | "rcp" | "rsqrt" | "log2" | "exp2" => {
            let d = *dest(ins)?;
            let a = *src(ins, 0)?;
            let sat = modifier(ins, "saturate") != 0;
            per_lane(st, |st, lane| {
                let x = read_float(st, &a, lane)?;
                let y = unary(name, x).unwrap_or(f64::NAN);
                write_float(st, &d, lane, y, sat)
            })?;
        }
        "uniform_store" => {
            // `mov uN, rM` (`uniform_store` in Mesa's `src/asahi/isa/AGX2.xml`, shown as
            // `mov`): a preamble hands values to its shader through the uniform registers,
            // which the SIMD group shares; with several lanes active the last one's value
            // stays.
            let (d, s) = (*dest(ins)?, *src(ins, 0)?);
            let (
                OperandKind::Reg {
                    file: RegFile::Uniform,
                    base: ub,
                    size,
                    count,
                },
                OperandKind::Reg {
                    file: RegFile::Gpr,
                    base: gb,
                    ..
                },
            ) = (d.kind, s.kind)
            else {
                return Err(Fail::Unsupported("uniform store operands"));
            };
            let halves = size / 16 * count;
            per_lane(st, |st, lane| {
                for k in 0..halves {
                    let v = st.read_gpr(lane, gb + k, 16)?;
                    st.set_uniform(ub + k, 16, v)?;
                }
                Ok(())
            })?;
        }
        "st_var" => {
            // `st_var value, slot`: the 32-bit vertex output `slot` of each active lane
            // (`st_var` in Mesa's `src/asahi/isa/AGX2.xml`: an `exreg32` value and a `uvs`
            // slot, a register or an 8-bit immediate). `last` marks the shader's final
            // output write to the hardware and changes no value.
            let v = *src(ins, 0)?;
            let slot = *src(ins, 1)?;
            per_lane(st, |st, lane| {
                let value = read_bits(st, &v, lane)? as u32;
                let slot = read_bits(st, &slot, lane)? as u16;
                st.varyings[lane].insert(slot, value);
                Ok(())
            })?;
        }
        "store" => store(st, ins)?,
        "atomic" => atomic(st, ins)?,
        "st_tile" => fragment::st_tile(st, ins)?,
        "ld_tile" => fragment::ld_tile(st, ins)?,
        "sample_mask" => fragment::sample_mask(st, ins)?,
        "zs_emit" => fragment::zs_emit(st, ins)?,
        "iter" => fragment::iter(st, ins, false)?,
        "iterproj" => fragment::iter(st, ins, true)?,
        "ldcf" => fragment::ldcf(st, ins)?,
        "imgw" => image::imgw(st, ins)?,
        "imgwblk" => block::imgwblk(st, ins)?,
        "smpi" => image::smpi(st, ins)?,
        "load" => load(st, ins)?,
        "wait" => {}
        // The pixel interlock orders fragments of the same pixel across SIMD groups; one
        // simulated group has none before it.
        "pixwait" => {}
        "stop" => return Ok(Flow::Stop),
        "jmp_any" => {
            if st.exec != 0 {
                return Ok(Flow::Jump(ins.imms[0]));
            }
        }
        "jmp_none" => {
            if st.exec == 0 {
                return Ok(Flow::Jump(ins.imms[0]));
            }
        }
        _ => return Err(Fail::Unsupported("instruction not simulated")),
    }
    Ok(Flow::Next)
}

/// Runs `code` from `st` until `stop`, the end of the code, or `max_steps` instructions.
pub fn run(code: &[u8], st: &mut State, max_steps: usize) -> Result<usize, SimError> {
    run_observed(code, st, max_steps, &mut |_, _, _| {})
}

/// [`run`] with `observe(offset, instruction, state)` called before each instruction, as a
/// debugger's breakpoint: it may read the state (to count instructions or check a
/// contract at an offset) and change it (to place values where a part would have left
/// them).
pub fn run_observed(
    code: &[u8],
    st: &mut State,
    max_steps: usize,
    observe: &mut dyn FnMut(usize, &Instruction, &mut State),
) -> Result<usize, SimError> {
    let program = decode(code)?;
    let mut pc = 0usize;
    let mut steps = 0usize;
    while let Ok(i) = program.binary_search_by_key(&pc, |(o, _)| *o) {
        if steps >= max_steps {
            return Err(SimError::StepLimit(steps));
        }
        steps += 1;
        let ins = &program[i].1;
        observe(pc, ins, st);
        let flow = step(st, ins).map_err(|f| {
            let text = ins.to_string();
            let offset = pc;
            match f {
                Fail::Unsupported(why) => SimError::Unsupported { offset, text, why },
                Fail::Nesting(lane) => SimError::Nesting { offset, text, lane },
                Fail::Fault { lane, address } => SimError::Fault {
                    offset,
                    text,
                    lane,
                    address,
                },
                Fail::Tile { lane, what } => SimError::Tile {
                    offset,
                    text,
                    lane,
                    what,
                },
                Fail::Image { lane, what } => SimError::Image {
                    offset,
                    text,
                    lane,
                    what,
                },
                Fail::Sim(e) => SimError::At {
                    offset,
                    text,
                    inner: Box::new(e),
                },
            }
        })?;
        match flow {
            Flow::Next => pc += ins.length as usize,
            Flow::Jump(off) => pc = (pc as i64 + off) as usize,
            Flow::Stop => break,
        }
    }
    Ok(steps)
}
