//! Executing instructions on a [`State`], with the semantics applegpu documents
//! (`applegpu.py`, the `exec`/`exec_thread` methods and pseudocode of each instruction).

use gpuabi_agx_isa::{Instruction, Operand, OperandKind, RegFile};

use crate::alu;
use crate::block;
use crate::error::SimError;
use crate::float::{f16_to_f64, f32_to_f64, to_f16, to_f32};
use crate::format::{encode_element, pack_word};
use crate::fragment;
use crate::image;
use crate::load::{convert, layout, Layout};
use crate::memory::Pages;
use crate::op::Op;
use crate::program::{Bad, Decoded, Mods, Program};
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
    /// To the instruction's branch target.
    Jump,
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

/// The values of one lane's register tuple: at most four components, kept on the stack
/// so that no lane allocates.
pub(crate) type Components<T> = smallvec::SmallVec<[T; 4]>;

pub(crate) fn sext(v: u64, bits: u32) -> i128 {
    if bits >= 64 {
        return i128::from(v as i64);
    }
    i128::from(((v << (64 - bits)) as i64) >> (64 - bits))
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

pub(crate) fn per_lane(st: &mut State, mut f: impl FnMut(&mut State, usize) -> R<()>) -> R<()> {
    for lane in 0..LANES {
        if st.active(lane) {
            f(st, lane)?;
        }
    }
    Ok(())
}

fn shuffle(st: &mut State, ins: &Instruction, m: &Mods) -> R<()> {
    let d = *dest(ins)?;
    let (a_op, b_op) = (*src(ins, 0)?, *src(ins, 1)?);
    if m.quad == 0 {
        return Err(Fail::Unsupported("quad-scoped shuffle"));
    }
    let op = m.op;
    let rotate = m.rotate;
    let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
    for l in 0..LANES {
        a[l] = read_bits(st, &a_op, l)?;
        b[l] = read_bits(st, &b_op, l)?;
    }
    // Every lane of a quad (active or not) contributes the low bits of its index.
    let quad_bits: [usize; LANES / 4] =
        std::array::from_fn(|q| (0..4).fold(0, |acc, i| acc | (b[q * 4 + i] & 3) as usize));
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

fn load(st: &mut State, ins: &Instruction, m: &Mods, pages: &mut Pages) -> R<()> {
    pages.follow(&st.memory);
    let pages = &*pages;
    let d = *dest(ins)?;
    let (base_op, index_op) = (*src(ins, 0)?, *src(ins, 1)?);
    let format = m.format;
    let lay = layout(format).ok_or(Fail::Unsupported("this load format"))?;
    let OperandKind::Reg {
        base: reg, size, ..
    } = d.kind
    else {
        return Err(Fail::Unsupported("destination kind"));
    };
    let mut shift = m.shift.min(2);
    let (item, mask) = match lay {
        Layout::Raw(n) | Layout::Convert(n) => (n, m.mask),
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
        // (component, raw value) of each element the mask selects.
        let mut elements = [(0u32, 0u64); 4];
        let mut count = 0;
        for i in 0..4u32 {
            if mask >> i & 1 == 0 {
                continue;
            }
            let at = (address + (offset + i128::from(i)) * i128::from(item)) as u64;
            elements[count] = (i, pages.read(st, at, item, lane)?);
            count += 1;
        }
        let elements = &elements[..count];
        let mut regs = [0u64; 4];
        let regs: &[u64] = match lay {
            Layout::Raw(_) => {
                for (r, &(_, v)) in regs.iter_mut().zip(elements) {
                    *r = v;
                }
                &regs[..count]
            }
            Layout::Convert(_) => {
                for (r, &(n, v)) in regs.iter_mut().zip(elements) {
                    *r = real_bits(convert(format, n, v), size);
                }
                &regs[..count]
            }
            Layout::Packed(components) => {
                let word = elements.iter().fold(0u64, |w, &(i, v)| w | (v << (8 * i)));
                for (n, r) in regs.iter_mut().enumerate().take(components as usize) {
                    *r = real_bits(convert(format, n as u32, word), size);
                }
                &regs[..components as usize]
            }
        };
        let step = size / 16;
        for (k, &v) in regs.iter().enumerate() {
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
fn store(st: &mut State, ins: &Instruction, m: &Mods, pages: &mut Pages) -> R<()> {
    pages.follow(&st.memory);
    let pages = &*pages;
    let (data, base_op, index_op) = (*src(ins, 0)?, *src(ins, 1)?, *src(ins, 2)?);
    let format = m.format;
    let lay = layout(format).ok_or(Fail::Unsupported("this store format"))?;
    let OperandKind::Reg {
        base: reg, size, ..
    } = data.kind
    else {
        return Err(Fail::Unsupported("store data kind"));
    };
    let (item, shift, mask) = match lay {
        Layout::Raw(n) | Layout::Convert(n) => (n, m.shift.min(2), m.mask),
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
        // (component, value to store) of each element.
        let mut elements = [(0u32, 0u64); 4];
        let mut count = 0;
        match lay {
            Layout::Packed(components) => {
                let mut v = [0.0; 4];
                for (k, x) in v.iter_mut().enumerate().take(components as usize) {
                    *x = real(st.read_gpr(lane, reg + k as u32 * (size / 16), size)?, size);
                }
                let word = pack_word(format, v).ok_or(Fail::Unsupported("this store format"))?;
                elements[0] = (0, u64::from(word));
                count = 1;
            }
            _ => {
                for i in 0..4u32 {
                    if mask >> i & 1 == 0 {
                        continue;
                    }
                    let value = st.read_gpr(lane, reg + count as u32 * (size / 16), size)?;
                    let stored = match lay {
                        Layout::Convert(_) => {
                            encode_element(format, i, real(value, size)).unwrap_or(0)
                        }
                        _ => value,
                    };
                    elements[count] = (i, stored);
                    count += 1;
                }
            }
        }
        for &(i, value) in &elements[..count] {
            let at = (address + (offset + i128::from(i)) * i128::from(item)) as u64;
            pages.write(st, at, item, value, lane)?;
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
fn atomic(st: &mut State, ins: &Instruction, m: &Mods, pages: &mut Pages) -> R<()> {
    pages.follow(&st.memory);
    let pages = &*pages;
    let data = *src(ins, 0)?;
    let (base_op, index_op) = (*src(ins, 1)?, *src(ins, 2)?);
    let op = m.op;
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
        let old = pages.read(st, at, 4, lane)? as u32;
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
        pages.write(st, at, 4, u64::from(new), lane)?;
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

/// Runs one instruction.
fn step(st: &mut State, d: &Decoded, ins: &Instruction, pages: &mut Pages) -> R<Flow> {
    if matches!(d.op, Op::IcmpBallot | Op::FcmpBallot) && d.mods.quad == 0 {
        return Err(Fail::Unsupported("quad-scoped ballot"));
    }
    if let Some(bad) = d.bad {
        // Operands that exist but cannot be read fail when a lane reads them; the
        // nesting instructions read theirs lane by lane (`alu::run`).
        let lazy = matches!(d.op, Op::Nest { .. }) && !matches!(bad, Bad::Absent(_));
        if !lazy {
            if matches!(bad, Bad::Absent(_)) || st.exec != 0 {
                return Err(bad.fail());
            }
            return Ok(Flow::Next);
        }
    }
    if alu::run(st, d)? {
        return Ok(Flow::Next);
    }
    let m = &d.mods;
    match d.op {
        Op::Mfsr => {
            let dst = *dest(ins)?;
            let sr = m.sr;
            per_lane(st, |st, lane| {
                let v = special_register(st, sr, lane)?;
                write(st, &dst, lane, u64::from(v))
            })?;
        }
        Op::Shuffle => shuffle(st, ins, m)?,
        Op::UniformStore => {
            // `mov uN, rM` (`uniform_store` in Mesa's `src/asahi/isa/AGX2.xml`, shown as
            // `mov`): a preamble hands values to its shader through the uniform registers,
            // which the SIMD group shares; with several lanes active the last one's value
            // stays.
            let (dst, s) = (*dest(ins)?, *src(ins, 0)?);
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
            ) = (dst.kind, s.kind)
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
        Op::StVar => {
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
        Op::Store => store(st, ins, m, pages)?,
        Op::Atomic => atomic(st, ins, m, pages)?,
        Op::StTile => fragment::st_tile(st, ins, m)?,
        Op::LdTile => fragment::ld_tile(st, ins, m)?,
        Op::SampleMask => fragment::sample_mask(st, ins)?,
        Op::ZsEmit => fragment::zs_emit(st, ins)?,
        Op::Iter => fragment::iter(st, ins, m, false)?,
        Op::IterProj => fragment::iter(st, ins, m, true)?,
        Op::Ldcf => fragment::ldcf(st, ins)?,
        Op::Imgw => image::imgw(st, ins, m)?,
        Op::Imgwblk => block::imgwblk(st, ins, m)?,
        Op::Smpi => image::smpi(st, ins, m)?,
        Op::Load => load(st, ins, m, pages)?,
        // `wait`, and the pixel interlock `pixwait`, which orders fragments of the same
        // pixel across SIMD groups: one simulated group has none before it.
        Op::Nop => {}
        Op::Stop => return Ok(Flow::Stop),
        Op::JmpAny if st.exec != 0 => return Ok(Flow::Jump),
        Op::JmpNone if st.exec == 0 => return Ok(Flow::Jump),
        Op::JmpAny | Op::JmpNone => {}
        _ => return Err(Fail::Unsupported("instruction not simulated")),
    }
    Ok(Flow::Next)
}

/// Runs `code` from `st` until `stop`, the end of the code, or `max_steps` instructions.
pub fn run(code: &[u8], st: &mut State, max_steps: usize) -> Result<usize, SimError> {
    run_program(&Program::decode(code)?, st, max_steps)
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
    run_program_observed(&Program::decode(code)?, st, max_steps, observe)
}

/// [`run`] on a program decoded once ([`Program::decode`]), for running it many times.
pub fn run_program(p: &Program, st: &mut State, max_steps: usize) -> Result<usize, SimError> {
    drive(p, st, max_steps, &mut Pages::default(), |_, _, _| {})
}

/// [`run_observed`] on a program decoded once.
pub fn run_program_observed(
    p: &Program,
    st: &mut State,
    max_steps: usize,
    observe: &mut dyn FnMut(usize, &Instruction, &mut State),
) -> Result<usize, SimError> {
    drive(p, st, max_steps, &mut Pages::default(), observe)
}

/// Runs `p` on `st` with the page index `pages` of its memory (rebuilt when the regions
/// changed since its last use).
pub(crate) fn drive(
    p: &Program,
    st: &mut State,
    max_steps: usize,
    pages: &mut Pages,
    mut observe: impl FnMut(usize, &Instruction, &mut State),
) -> Result<usize, SimError> {
    let mut i = 0usize;
    let mut steps = 0usize;
    while i < p.ops.len() {
        if steps >= max_steps {
            return Err(SimError::StepLimit(steps));
        }
        steps += 1;
        let ins = &p.ins[i];
        observe(p.offsets[i], ins, st);
        let d = &p.ops[i];
        match step(st, d, ins, pages) {
            Ok(Flow::Next) => i += 1,
            Ok(Flow::Jump) => i = d.target as usize,
            Ok(Flow::Stop) => break,
            Err(f) => return Err(failure(f, p.offsets[i], ins)),
        }
    }
    Ok(steps)
}

/// The error of a failed instruction, naming its offset and text.
fn failure(f: Fail, offset: usize, ins: &Instruction) -> SimError {
    let text = ins.to_string();
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
}
