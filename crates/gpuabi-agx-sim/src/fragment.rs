//! Fragment instructions on the [`Fragment`] context: `st_tile`/`ld_tile`, `sample_mask`,
//! `zs_emit`, `iter` (linear and perspective) and `ldcf`.
//!
//! Rules, with their sources; where the sources are silent the rule is gpuabi's:
//! * Register tuples hold the components selected by the mask, compacted (Mesa's
//!   `agx_read_registers` counts `popcount(mask)` registers for `st_tile`). Element
//!   formats place component `c` at `offset + c · element size` (Mesa's
//!   `agx_tilebuffer.c` sizes a one-component physical format's render target as
//!   element size × components); the packed formats hold all components in one word
//!   at `offset`.
//! * A masked store to a packed format replaces only the masked components: the word is
//!   decoded, the masked components replaced and the word encoded again (Mesa never
//!   emits such stores: `ail_isa_format_supports_mask` excludes the packed formats).
//! * Integers are stored from the low bits of the register and loaded zero-extended
//!   (Mesa sign-extends in software after `ld_tile`, `load_tilebuffer`); `f16` stores a
//!   32-bit register rounded to nearest even and loads into a 32-bit register exactly;
//!   normalised, sRGB and packed formats hold floats (the register's size decides fp16 or
//!   fp32) converted by [`crate::format`] and [`crate::load::convert`].
//! * `st_tile` writes the samples in its sample operand that the lane's pixel still covers
//!   (Mesa's stores pass all samples, 0xff, and rely on coverage); `ld_tile` reads the
//!   lowest sample in its sample operand (sample 0 when none).
//! * `sample_mask target, live` kills the samples in `target ∧ ¬live` and marks those in
//!   `target ∧ live` tested (Mesa's `agx_nir_lower_sample_mask`); lanes keep running, their
//!   stores masked by coverage.
//! * `zs_emit mask, regs` records depth (fp32) and/or stencil (16 bits) for the covered
//!   samples in `mask`; a 32-bit register is depth, a 16-bit one stencil, three halves
//!   both (the `zs` field of Mesa's `agx_pack.c`).
//! * `iter` evaluates the plane `a·x + b·y + c` of coefficient register `cf + k` for
//!   component `k` at the pixel centre, at a sample's position (`sample`, the sample
//!   operand an index, else the lowest covered sample) or at the centroid (the centre when
//!   every sample is covered, else the lowest covered sample); the perspective form
//!   divides by the plane of its second coefficient register. The value is computed in
//!   f64 and rounded once to the destination. `ldcf` loads `(a, b, c)` of one register
//!   (Mesa reads the flat value from the third, `agx_emit_load_vary_flat`).

use gpuabi_agx_isa::{Instruction, Operand, OperandKind};

use crate::exec::{dest, per_lane, read_bits, real, real_bits, src, Components, Fail, R};
use crate::float::{f16_to_f64, f32_to_f64, to_f16};
use crate::format::{code, encode_element, pack_word, packed_components};
use crate::load::convert;
use crate::program::Mods;
use crate::state::State;
use crate::tile::Fragment;

const NO_FRAGMENT: &str = "fragment instructions need a fragment context (a tile buffer)";

fn frag(st: &State) -> R<&Fragment> {
    st.frag.as_deref().ok_or(Fail::Unsupported(NO_FRAGMENT))
}

fn tile_fail(lane: usize, what: String) -> Fail {
    Fail::Tile { lane, what }
}

/// Bytes of one element of an element format.
pub(crate) fn element_size(format: u32) -> R<u32> {
    Ok(match format {
        code::I8 | code::U8NORM | code::S8NORM | code::SRGBA8 => 1,
        code::I16 | code::F16 | code::U16NORM | code::S16NORM => 2,
        code::I32 => 4,
        _ => return Err(Fail::Unsupported("tile format")),
    })
}

/// The register tuple of a data operand: first half and size.
fn tuple(op: &Operand) -> R<(u32, u32)> {
    match op.kind {
        OperandKind::Reg { base, size, .. } => Ok((base, size)),
        _ => Err(Fail::Unsupported("data operand kind")),
    }
}

/// A mask or index operand: an immediate or a 16-bit register.
fn small(st: &State, op: Option<&Operand>, lane: usize) -> R<Option<u64>> {
    match op {
        None => Ok(None),
        Some(o) => read_bits(st, o, lane).map(Some),
    }
}

/// The pixel a lane addresses: its own, or the explicit coordinates in a register pair.
fn pixel(st: &State, coords: &Operand, lane: usize) -> R<(u32, u32)> {
    let f = frag(st)?;
    match coords.kind {
        OperandKind::Reg { base, .. } => {
            let x = st.read_gpr(lane, base, 16)? as u32;
            let y = st.read_gpr(lane, base + 1, 16)? as u32;
            if x >= f.width || y >= f.height {
                return Err(tile_fail(
                    lane,
                    format!(
                        "addresses pixel ({x}, {y}) outside the {}x{} tile",
                        f.width, f.height
                    ),
                ));
            }
            Ok((x, y))
        }
        _ => {
            let (x, y) = f.pixel[lane];
            Ok((u32::from(x), u32::from(y)))
        }
    }
}

fn tib_range(f: &Fragment, lane: usize, at: (u32, u32, u32), off: u32, len: u32) -> R<usize> {
    f.byte(at.0, at.1, at.2, off, len).ok_or_else(|| {
        tile_fail(
            lane,
            format!(
                "accesses bytes {off}..{} of a {}-byte sample",
                off + len,
                f.sample_size
            ),
        )
    })
}

pub(crate) fn read_le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b))
}

fn write_le(bytes: &mut [u8], v: u64) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (v >> (8 * i)) as u8;
    }
}

/// The stored bits of one element of an element format from a register value.
fn element_bits(format: u32, n: u32, bits: u64, size: u32) -> u64 {
    match format {
        code::F16 if size == 32 => u64::from(to_f16(real(bits, 32))),
        code::I8 | code::I16 | code::I32 | code::F16 => bits,
        _ => encode_element(format, n, real(bits, size)).unwrap_or(0),
    }
}

/// A register value of `size` bits from one stored element.
fn element_value(format: u32, n: u32, stored: u64, size: u32) -> u64 {
    match format {
        code::F16 if size == 32 => real_bits(f16_to_f64(stored as u16), 32),
        code::I8 | code::I16 | code::I32 | code::F16 => stored,
        _ => real_bits(convert(format, n, stored), size),
    }
}

fn mask_bits(mask: u32) -> impl Iterator<Item = u32> {
    (0..4).filter(move |c| mask >> c & 1 == 1)
}

/// `st_tile data, coords, samples, offset`.
pub(crate) fn st_tile(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    frag(st)?;
    let (data, coords, samples) = (*src(ins, 0)?, *src(ins, 1)?, *src(ins, 2)?);
    let (base, size) = tuple(&data)?;
    let format = m.format;
    let mask = m.mask;
    let offset = m.tile_offset;
    per_lane(st, |st, lane| {
        let at = pixel(st, &coords, lane)?;
        let regs: Components<(u32, u64)> = mask_bits(mask)
            .enumerate()
            .map(|(k, c)| Ok((c, st.read_gpr(lane, base + k as u32 * size / 16, size)?)))
            .collect::<R<_>>()?;
        let wanted = small(st, Some(&samples), lane)?.unwrap_or(0) as u8;
        let f = st
            .frag
            .as_deref_mut()
            .ok_or(Fail::Unsupported(NO_FRAGMENT))?;
        let targets = wanted & f.coverage[lane] & f.all_samples();
        for s in mask_bits(u32::from(targets)) {
            let p = (at.0, at.1, s);
            if let Some(n) = packed_components(format) {
                let i = tib_range(f, lane, p, offset, 4)?;
                let old = read_le(&f.tib[i..i + 4]);
                let mut v = [0.0; 4];
                for (c, x) in v.iter_mut().enumerate().take(n as usize) {
                    *x = convert(format, c as u32, old);
                }
                for &(c, bits) in &regs {
                    if c < n {
                        v[c as usize] = real(bits, size);
                    }
                }
                let word = pack_word(format, v).ok_or(Fail::Unsupported("tile format"))?;
                write_le(&mut f.tib[i..i + 4], u64::from(word));
            } else {
                let el = element_size(format)?;
                for &(c, bits) in &regs {
                    let i = tib_range(f, lane, p, offset + c * el, el)?;
                    let stored = element_bits(format, c, bits, size);
                    write_le(&mut f.tib[i..i + el as usize], stored);
                }
            }
        }
        Ok(())
    })
}

/// `ld_tile data, coords, samples, offset`.
pub(crate) fn ld_tile(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    frag(st)?;
    let d = *dest(ins)?;
    let (coords, samples) = (*src(ins, 0)?, *src(ins, 1)?);
    let (base, size) = tuple(&d)?;
    let format = m.format;
    let mask = m.mask;
    let offset = m.tile_offset;
    per_lane(st, |st, lane| {
        let at = pixel(st, &coords, lane)?;
        let wanted = small(st, Some(&samples), lane)?.unwrap_or(0) as u32;
        let f = frag(st)?;
        let pick = wanted & u32::from(f.all_samples());
        let s = if pick == 0 { 0 } else { pick.trailing_zeros() };
        let p = (at.0, at.1, s);
        let mut values = Components::<u64>::new();
        if packed_components(format).is_some() {
            let i = tib_range(f, lane, p, offset, 4)?;
            let word = read_le(&f.tib[i..i + 4]);
            for c in mask_bits(mask) {
                values.push(real_bits(convert(format, c, word), size));
            }
        } else {
            let el = element_size(format)?;
            for c in mask_bits(mask) {
                let i = tib_range(f, lane, p, offset + c * el, el)?;
                let stored = read_le(&f.tib[i..i + el as usize]);
                values.push(element_value(format, c, stored, size));
            }
        }
        for (k, v) in values.into_iter().enumerate() {
            st.write_gpr(lane, base + k as u32 * size / 16, size, v)?;
        }
        Ok(())
    })
}

/// `sample_mask target, live`.
pub(crate) fn sample_mask(st: &mut State, ins: &Instruction) -> R<()> {
    frag(st)?;
    let (t, l) = (*src(ins, 0)?, *src(ins, 1)?);
    per_lane(st, |st, lane| {
        let target = read_bits(st, &t, lane)? as u8;
        let live = read_bits(st, &l, lane)? as u8;
        let f = st
            .frag
            .as_deref_mut()
            .ok_or(Fail::Unsupported(NO_FRAGMENT))?;
        f.coverage[lane] &= !(target & !live);
        f.tested[lane] |= target & live & f.coverage[lane];
        Ok(())
    })
}

/// `zs_emit samples, regs`.
pub(crate) fn zs_emit(st: &mut State, ins: &Instruction) -> R<()> {
    frag(st)?;
    let (m, zs) = (*src(ins, 0)?, *src(ins, 1)?);
    let OperandKind::Reg {
        base, size, count, ..
    } = zs.kind
    else {
        return Err(Fail::Unsupported(
            "zs_emit without depth or stencil registers",
        ));
    };
    let (z_at, s_at) = match (size, count) {
        (32, 1) => (Some(base), None),
        (16, 1) => (None, Some(base)),
        _ => (Some(base), Some(base + 2)),
    };
    per_lane(st, |st, lane| {
        let wanted = read_bits(st, &m, lane)? as u8;
        let z = z_at.map(|h| st.read_gpr(lane, h, 32)).transpose()?;
        let s = s_at.map(|h| st.read_gpr(lane, h, 16)).transpose()?;
        let f = st
            .frag
            .as_deref_mut()
            .ok_or(Fail::Unsupported(NO_FRAGMENT))?;
        let (x, y) = f.pixel[lane];
        for sample in mask_bits(u32::from(wanted & f.coverage[lane] & f.all_samples())) {
            let Some(i) = f.sample_index(u32::from(x), u32::from(y), sample) else {
                continue;
            };
            if let (Some(z), Some(slot)) = (z, f.depth.get_mut(i)) {
                *slot = Some(z as u32);
            }
            if let (Some(s), Some(slot)) = (s, f.stencil.get_mut(i)) {
                *slot = Some(s as u16);
            }
        }
        Ok(())
    })
}

/// The coefficient register a `cf` operand names in `lane`.
fn cf_index(st: &State, op: &Operand, lane: usize) -> R<usize> {
    Ok(match op.kind {
        OperandKind::Cf(n) => n as usize,
        _ => (read_bits(st, op, lane)? & 0xff) as usize,
    })
}

fn plane(f: &Fragment, lane: usize, cf: usize) -> R<[f64; 3]> {
    let p = f.cf.get(cf).ok_or_else(|| {
        tile_fail(
            lane,
            format!(
                "reads coefficient register cf{cf}, but {} are given",
                f.cf.len()
            ),
        )
    })?;
    Ok(p.map(|b| f32_to_f64(b, false)))
}

/// The position a lane interpolates at.
fn position(st: &State, m: &Mods, sample: Option<&Operand>, lane: usize) -> R<(f64, f64)> {
    let f = frag(st)?;
    let (x, y) = f.pixel[lane];
    let (x, y) = (f64::from(x), f64::from(y));
    let covered = f.coverage[lane] & f.all_samples();
    let lowest = if covered == 0 {
        None
    } else {
        Some(covered.trailing_zeros())
    };
    let offset = match m.interpolation {
        1 | 3 => {
            let s = match small(st, sample, lane)? {
                Some(s) => s as u32,
                None => lowest.unwrap_or(0),
            };
            if s >= f.samples {
                return Err(tile_fail(
                    lane,
                    format!("interpolates at sample {s} of {}", f.samples),
                ));
            }
            f.sample_position(s)
        }
        2 if covered != f.all_samples() => lowest.map_or((0.5, 0.5), |s| f.sample_position(s)),
        _ => (0.5, 0.5),
    };
    Ok((x + offset.0, y + offset.1))
}

/// `iter dest, cf[, cf_w][, sample]`.
pub(crate) fn iter(st: &mut State, ins: &Instruction, m: &Mods, perspective: bool) -> R<()> {
    frag(st)?;
    let d = *dest(ins)?;
    let OperandKind::Reg {
        base, size, count, ..
    } = d.kind
    else {
        return Err(Fail::Unsupported("destination kind"));
    };
    let cf = *src(ins, 0)?;
    let w = if perspective {
        Some(*src(ins, 1)?)
    } else {
        None
    };
    let sample = ins
        .srcs
        .get(if perspective { 2 } else { 1 })
        .copied()
        .flatten();
    per_lane(st, |st, lane| {
        let (x, y) = position(st, m, sample.as_ref(), lane)?;
        let first = cf_index(st, &cf, lane)?;
        let f = frag(st)?;
        let at = |p: [f64; 3]| p[0] * x + p[1] * y + p[2];
        let divisor = match &w {
            Some(w) => at(plane(f, lane, cf_index(st, w, lane)?)?),
            None => 1.0,
        };
        let values: Components<f64> = (0..count as usize)
            .map(|k| Ok(at(plane(f, lane, first + k)?) / divisor))
            .collect::<R<_>>()?;
        for (k, v) in values.into_iter().enumerate() {
            st.write_gpr(lane, base + k as u32 * size / 16, size, real_bits(v, size))?;
        }
        Ok(())
    })
}

/// `ldcf dest, cf`.
pub(crate) fn ldcf(st: &mut State, ins: &Instruction) -> R<()> {
    frag(st)?;
    let d = *dest(ins)?;
    let (base, size) = tuple(&d)?;
    let cf = *src(ins, 0)?;
    per_lane(st, |st, lane| {
        let i = cf_index(st, &cf, lane)?;
        let p = plane(frag(st)?, lane, i)?;
        for (k, v) in p.into_iter().enumerate() {
            st.write_gpr(lane, base + k as u32 * size / 16, size, real_bits(v, size))?;
        }
        Ok(())
    })
}
