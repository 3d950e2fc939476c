//! Memory instructions: scalar loads, buffer loads/stores through resource descriptors,
//! global loads/stores, per-lane scratch.

use gpuabi_amdgpu::opcodes::Narrow;
use gpuabi_amdgpu::{Format, Half, Opcode};

use crate::contract::{Contract, StackPath};
use crate::error::SimError;
use crate::exec::typed::TypedFormat;
use crate::image::{Decoded, Dst, Src};
use crate::memory::Memory;
use crate::stats::Stats;
use crate::wave::Wave;

/// What memory instructions touch besides the wave.
pub struct MemCtx<'a> {
    /// Global memory.
    pub mem: &'a mut Memory,
    /// Counters.
    pub stats: &'a mut Stats,
    /// Bytes of scratch per lane.
    pub scratch_limit: u32,
    /// The contract checker while a call frame with a stack floor is open: stores below
    /// the floor are reported to it.
    pub contract: Option<&'a mut Contract>,
}

impl MemCtx<'_> {
    /// The floor a store by `d` is checked against, if any: `scratch_*` stores against
    /// scratch floors, stores through a swizzled buffer resource against swizzled ones.
    fn store_floor(&self, d: &Decoded, w: &Wave, rsrc: Src) -> Option<(StackPath, u64)> {
        let c = self.contract.as_deref()?;
        let path = match d.op.info().format {
            Format::Scratch => StackPath::Scratch,
            Format::Mubuf | Format::Mtbuf if !d.mods.addr64 => StackPath::SwizzledBuffer,
            _ => return None,
        };
        let floor = c.floor(path)?;
        if path == StackPath::SwizzledBuffer && !descriptor(w, rsrc).swizzle {
            return None;
        }
        Some((path, floor))
    }

    /// Reports a store below the floor.
    fn frame_store(&mut self, d: &Decoded, path: StackPath, lane: usize, address: u64, bytes: u32) {
        if let Some(c) = self.contract.as_deref_mut() {
            c.on_frame_store(d, path, lane as u32, address, bytes);
        }
    }
}

/// The error of an access of `bytes` at `addr` outside every buffer.
pub(crate) fn bad_address(
    d: &Decoded,
    what: &'static str,
    addr: u64,
    bytes: u32,
    lane: usize,
) -> SimError {
    bad(d, what, addr, bytes, lane)
}

fn bad(d: &Decoded, what: &'static str, addr: u64, bytes: u32, lane: usize) -> SimError {
    SimError::BadAddress {
        what,
        addr,
        bytes,
        lane: lane as u32,
        pc: d.addr,
        origin: d.origin.clone(),
    }
}

/// A buffer resource descriptor (V#), decoded from its four dwords (GCN3 §8.1.5 layout;
/// RDNA keeps these fields where this model uses them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// 48-bit base address.
    pub base: u64,
    /// Bytes per record (0: a raw byte range).
    pub stride: u32,
    /// Records (stride != 0) or bytes (stride == 0) in range.
    pub num_records: u32,
    /// Swizzled addressing (scratch).
    pub swizzle: bool,
    /// The lane id is added to the index.
    pub add_tid: bool,
    /// Swizzle: lanes per index group (8, 16, 32, 64).
    pub index_stride: u32,
    /// Swizzle: bytes per element (2, 4, 8, 16).
    pub element_size: u32,
}

impl Descriptor {
    /// Decodes the four dwords.
    pub fn decode(d: [u32; 4]) -> Descriptor {
        Descriptor {
            base: u64::from(d[0]) | u64::from(d[1] & 0xffff) << 32,
            stride: (d[1] >> 16) & 0x3fff,
            swizzle: d[1] >> 31 != 0,
            num_records: d[2],
            add_tid: (d[3] >> 23) & 1 != 0,
            index_stride: 8 << ((d[3] >> 21) & 3),
            element_size: 2 << ((d[3] >> 19) & 3),
        }
    }

    /// Encodes a descriptor (the inverse of [`Descriptor::decode`] on the fields above;
    /// the format fields are set to a 32-bit uint format).
    pub fn encode(&self) -> [u32; 4] {
        let is = self.index_stride.max(8).trailing_zeros() - 3;
        let es = self.element_size.max(2).trailing_zeros() - 1;
        [
            self.base as u32,
            ((self.base >> 32) as u32 & 0xffff)
                | (self.stride & 0x3fff) << 16
                | u32::from(self.swizzle) << 31,
            self.num_records,
            // dst_sel xyzw = 4,5,6,7; num_format uint (4); data_format 32 (4).
            4 | 5 << 3
                | 6 << 6
                | 7 << 9
                | 4 << 12
                | 4 << 15
                | es << 19
                | is << 21
                | u32::from(self.add_tid) << 23,
        ]
    }

    /// The address of byte `offset` of record `index` (before the scalar offset is added),
    /// or `None` if out of range (then loads read 0 and stores are dropped, as the hardware
    /// does). Raw buffers (stride 0) check the byte offset against `num_records`, structured
    /// ones the index.
    pub fn address(&self, index: u32, offset: u32) -> Option<u64> {
        self.address_of(index, offset, 4)
    }

    /// As [`Descriptor::address`] for an access of `bytes` bytes (raw buffers check that all
    /// of them are in range).
    pub fn address_of(&self, index: u32, offset: u32, bytes: u32) -> Option<u64> {
        // Raw buffers are range-checked on the byte offset, structured ones on the index.
        let in_range = if self.stride == 0 {
            u64::from(offset) + u64::from(bytes) <= u64::from(self.num_records)
        } else {
            index < self.num_records
        };
        if !in_range {
            return None;
        }
        let a = if self.swizzle {
            // GCN3 §8.1.5 swizzled addressing (private/scratch buffers); with ADD_TID the
            // lanes' dwords interleave, so a per-lane stack moves by bytes × wave size.
            let (is, es) = (u64::from(self.index_stride), u64::from(self.element_size));
            let (index, offset) = (u64::from(index), u64::from(offset));
            let (idx_msb, idx_lsb) = (index / is, index % is);
            let (off_msb, off_lsb) = (offset / es, offset % es);
            (idx_msb * u64::from(self.stride) + off_msb * es) * is + idx_lsb * es + off_lsb
        } else {
            u64::from(index) * u64::from(self.stride) + u64::from(offset)
        };
        Some(self.base + a)
    }
}

fn descriptor(w: &Wave, src: Src) -> Descriptor {
    let i = match src {
        Src::Sgpr(i) => i as usize,
        _ => 0,
    };
    Descriptor::decode([w.sgpr[i], w.sgpr[i + 1], w.sgpr[i + 2], w.sgpr[i + 3]])
}

fn smem(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    use Opcode::*;
    let n = match d.op {
        SLoadDwordx2 | SBufferLoadDwordx2 => 2,
        SLoadB96 | SBufferLoadB96 => 3,
        SLoadDwordx4 | SBufferLoadDwordx4 => 4,
        SLoadDword | SBufferLoadDword => 1,
        _ => 8,
    };
    // RDNA 4's sub-dword loads read 1 or 2 bytes at the unaligned address and extend them
    // to 32 bits ("RDNA 4 Instruction Set Architecture", S_LOAD_I8 … S_BUFFER_LOAD_U16).
    let narrow = match d.op {
        SLoadI8 | SBufferLoadI8 => Some((1, true)),
        SLoadU8 | SBufferLoadU8 => Some((1, false)),
        SLoadI16 | SBufferLoadI16 => Some((2, true)),
        SLoadU16 | SBufferLoadU16 => Some((2, false)),
        _ => None,
    };
    let offset = w.s32(d.src[1]);
    let Dst::Sgpr(first) = d.dst[0] else {
        return Ok(());
    };
    let buffer = matches!(
        d.op,
        SBufferLoadDword
            | SBufferLoadDwordx2
            | SBufferLoadB96
            | SBufferLoadDwordx4
            | SBufferLoadI8
            | SBufferLoadU8
            | SBufferLoadI16
            | SBufferLoadU16
    );
    if let Some((bytes, signed)) = narrow {
        let a = if buffer {
            descriptor(w, d.src[0]).address(0, offset)
        } else {
            Some((w.s64(d.src[0]) & 0xffff_ffff_ffff) + u64::from(offset))
        };
        let value = match a {
            Some(a) => {
                let v = ctx
                    .mem
                    .read(a, bytes)
                    .ok_or_else(|| bad(d, "load", a, bytes, 0))?;
                let shift = 32 - 8 * bytes;
                if signed {
                    ((v << shift) as i32 >> shift) as u32
                } else {
                    v
                }
            }
            None => 0,
        };
        w.sgpr[first as usize] = value;
        return Ok(());
    }
    // The address is formed once, at issue, before any data returns: the destination may
    // overlap the base ("AMD GCN3 ISA", Scalar Memory Operations: the data is written when
    // the load returns, tracked by LGKM_CNT).
    let desc = descriptor(w, d.src[0]);
    let base = w.s64(d.src[0]) & 0xffff_ffff_ffff;
    for k in 0..n {
        let value = if buffer {
            let off = (offset & !3).wrapping_add(4 * k);
            match desc.address(0, off) {
                Some(a) => ctx.mem.read_u32(a).ok_or_else(|| bad(d, "load", a, 4, 0))?,
                None => 0,
            }
        } else {
            let a = (base + u64::from(offset) + u64::from(4 * k)) & !3;
            ctx.mem.read_u32(a).ok_or_else(|| bad(d, "load", a, 4, 0))?
        };
        w.sgpr[first as usize + k as usize] = value;
    }
    Ok(())
}

/// Per-lane byte addresses of a vector memory instruction: `Some(address)` or `None` when a
/// buffer access is out of its descriptor's range.
fn lane_addresses(
    d: &Decoded,
    w: &Wave,
    lane: usize,
    addr_src: Src,
    third: Src,
    fourth: Src,
    dword: u32,
) -> Option<u64> {
    let vaddr = match addr_src {
        Src::Vgpr(r) => Some(r),
        _ => None,
    };
    let inst_offset = d.mods.offset;
    match d.op.info().format {
        // `addr64` (gfx6/gfx7): a 64-bit VGPR address added to the descriptor's base with
        // no range check ("Southern Islands Series ISA", "Buffer Addressing").
        Format::Mubuf | Format::Mtbuf if d.mods.addr64 => {
            let desc = descriptor(w, third);
            let soffset = w.s32(fourth);
            let v = vaddr.map_or(0, |r| {
                u64::from(w.v(r, lane)) | u64::from(w.v(r + 1, lane)) << 32
            });
            Some(
                desc.base
                    .wrapping_add(v)
                    .wrapping_add(u64::from(inst_offset as u32))
                    .wrapping_add(u64::from(4 * dword))
                    .wrapping_add(u64::from(soffset)),
            )
        }
        Format::Mubuf | Format::Mtbuf => {
            let desc = descriptor(w, third);
            let soffset = w.s32(fourth);
            let v = vaddr.map_or(0, |r| w.v(r, lane));
            let vindex = if d.mods.idxen { v } else { 0 };
            let voffset = if d.mods.offen { v } else { 0 };
            let index = vindex.wrapping_add(if desc.add_tid { lane as u32 } else { 0 });
            // The scalar offset is added after swizzling and range checking (GCN3 §8.1.5:
            // ADDR = base + sgpr_offset + buffer_offset), as a wave's scratch offset is.
            // Each dword of a multi-dword access is addressed on its own: in a swizzled
            // buffer consecutive dwords of one lane are elements apart (GCN3 §8.1.5).
            let offset = voffset
                .wrapping_add(inst_offset as u32)
                .wrapping_add(4 * dword);
            desc.address_of(index, offset, access_bytes(d))
                .map(|a| a.wrapping_add(u64::from(soffset)))
        }
        // Flat (gfx8) takes a VGPR pair and no offset; the model's flat memory is global.
        Format::Global | Format::Flat => {
            let a = match (third, vaddr) {
                (Src::Sgpr(_), Some(r)) => w.s64(third).wrapping_add(u64::from(w.v(r, lane))),
                (_, Some(r)) => u64::from(w.v(r, lane)) | u64::from(w.v(r + 1, lane)) << 32,
                _ => 0,
            };
            Some(gpu_va(a.wrapping_add(inst_offset as i64 as u64)))
        }
        _ => {
            // Scratch: a per-lane byte offset, checked by the caller.
            let s = match third {
                Src::Sgpr(_) => u64::from(w.s32(third)),
                _ => 0,
            };
            let v = vaddr.map_or(0, |r| u64::from(w.v(r, lane)));
            Some((s + v).wrapping_add(inst_offset as i64 as u64) & 0xffff_ffff)
        }
    }
}

/// The 48-bit GPU virtual address of a canonical 64-bit address of the upper half (bits 63
/// to 47 set), which is how drivers write addresses there (RADV's 32-bit address space is
/// `0xffff8000_xxxxxxxx`); scalar loads take the low 48 bits of theirs alike. Other
/// addresses are left as they are.
pub(crate) fn gpu_va(a: u64) -> u64 {
    if a >> 47 == 0x1_ffff {
        a & 0xffff_ffff_ffff
    } else {
        a
    }
}

/// The byte address of `lane`'s first dword of a vector memory instruction, or `None` when
/// a buffer access is out of its descriptor's range.
pub(crate) fn lane_address(
    d: &Decoded,
    w: &Wave,
    lane: usize,
    addr_src: Src,
    third: Src,
    fourth: Src,
) -> Option<u64> {
    lane_addresses(d, w, lane, addr_src, third, fourth, 0)
}

/// The typed format of an MTBUF instruction, or an error naming the instruction.
fn typed_format(d: &Decoded) -> Result<TypedFormat, SimError> {
    let format = d
        .mods
        .format
        .unwrap_or(gpuabi_amdgpu::MemMods::DEFAULT_FORMAT);
    TypedFormat::new(format)
        .map_err(|m| typed_error(d, format!("typed buffer format {format}: {m}")))
}

fn typed_error(d: &Decoded, message: String) -> SimError {
    SimError::Invalid(gpuabi_amdgpu::ProgramError {
        origin: d.origin.clone(),
        message: format!("`{}` at byte {}: {message}", d.op.info().mnemonic, d.addr),
    })
}

/// Bytes one address of a buffer access covers (for the range check): the narrow width,
/// a typed element of less than a dword, or a dword.
fn access_bytes(d: &Decoded) -> u32 {
    match (d.op.info().narrow, d.op.info().format) {
        (Some(n), _) => u32::from(n.bytes),
        (None, Format::Mtbuf) => typed_format(d).map_or(4, |t| t.bytes().min(4)),
        _ => 4,
    }
}

/// A typed buffer access (`tbuffer_*`): per lane, the element's dwords are addressed as a
/// buffer access's dwords are, then converted by [`TypedFormat`]. A load with any dword
/// out of range gives 0 in every component; a store skips the dwords out of range.
fn typed_access(
    d: &Decoded,
    w: &mut Wave,
    ctx: &mut MemCtx,
    data: u16,
    (addr_src, third, fourth): (Src, Src, Src),
    floor: Option<(StackPath, u64)>,
) -> Result<(), SimError> {
    let tf = typed_format(d)?;
    let n = usize::from(d.op.mem_dwords());
    let store = d.op.is_store();
    let units = tf.bytes().div_ceil(4) as usize;
    let unit_bytes = tf.bytes().min(4);
    let mut m = w.exec();
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let addrs: Vec<Option<u64>> = (0..units)
            .map(|k| lane_addresses(d, w, lane, addr_src, third, fourth, k as u32))
            .collect();
        if store {
            let values: Vec<u32> = (0..n).map(|k| w.v(data + k as u16, lane)).collect();
            let element = tf
                .store(&values)
                .map_err(|e| typed_error(d, format!("lane {lane}: {e}")))?;
            if let Some((path, f)) = floor {
                if let Some(a) = addrs.iter().flatten().find(|&&a| a < f) {
                    ctx.frame_store(d, path, lane, *a, tf.bytes());
                }
            }
            for (k, a) in addrs.iter().enumerate() {
                let Some(a) = *a else {
                    ctx.stats.buffer_out_of_range += 1;
                    continue;
                };
                let chunk = &element[4 * k..4 * k + unit_bytes as usize];
                let value = chunk.iter().rev().fold(0u32, |v, b| v << 8 | u32::from(*b));
                ctx.mem
                    .write(a, unit_bytes, value)
                    .ok_or_else(|| bad(d, "store", a, unit_bytes, lane))?;
            }
        } else {
            let mut element = vec![0u8; tf.bytes() as usize];
            let mut in_range = true;
            for (k, a) in addrs.iter().enumerate() {
                let Some(a) = *a else {
                    in_range = false;
                    continue;
                };
                let v = ctx
                    .mem
                    .read(a, unit_bytes)
                    .ok_or_else(|| bad(d, "load", a, unit_bytes, lane))?;
                element[4 * k..4 * k + unit_bytes as usize]
                    .copy_from_slice(&v.to_le_bytes()[..unit_bytes as usize]);
            }
            let values = if in_range {
                tf.load(&element, n)
            } else {
                ctx.stats.buffer_out_of_range += 1;
                [0; 4]
            };
            for (k, v) in values.iter().enumerate().take(n) {
                w.set_v(data + k as u16, lane, *v);
            }
        }
    }
    Ok(())
}

/// Executes a memory instruction.
pub fn exec(d: &Decoded, w: &mut Wave, ctx: &mut MemCtx) -> Result<(), SimError> {
    let format = d.op.info().format;
    if format == Format::Smem {
        return smem(d, w, ctx);
    }
    if format == Format::Mimg {
        return crate::exec::image_access::exec(d, w, ctx);
    }
    if let Some(a) = d.op.info().atomic {
        return crate::exec::mem_atomic::exec(d, a, w, ctx);
    }
    let n = u32::from(d.op.mem_dwords());
    let store = d.op.is_store();
    // Operand positions: loads `vdst, addr, X, Y`; stores `vdata, addr, X, Y` (buffer) or
    // `addr, vdata, saddr` (global, scratch).
    let (data, addr_src, third, fourth) = match (format, store) {
        (Format::Mubuf | Format::Mtbuf, false) => (d.dst[0], d.src[0], d.src[1], d.src[2]),
        (Format::Mubuf | Format::Mtbuf, true) => (vdst(d.src[0]), d.src[1], d.src[2], d.src[3]),
        (_, false) => (d.dst[0], d.src[0], d.src[1], Src::None),
        (_, true) => (vdst(d.src[1]), d.src[0], d.src[2], Src::None),
    };
    let Dst::Vgpr(data) = data else {
        return Ok(());
    };
    let scratch = format == Format::Scratch;
    let floor = if store {
        ctx.store_floor(d, w, third)
    } else {
        None
    };
    if format == Format::Mtbuf {
        return typed_access(d, w, ctx, data, (addr_src, third, fourth), floor);
    }
    let narrow = d.op.info().narrow;
    let exec = w.exec();
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let Some(addr) = lane_addresses(d, w, lane, addr_src, third, fourth, 0) else {
            ctx.stats.buffer_out_of_range += 1;
            if !store {
                // An out-of-range load returns 0, which a `d16` load writes into its half.
                let v = match narrow {
                    Some(x) => narrow_load_value(x, w.v(data, lane), 0),
                    None => 0,
                };
                w.set_v(data, lane, v);
                for k in 1..n {
                    w.set_v(data + k as u16, lane, 0);
                }
            }
            continue;
        };
        if scratch {
            let bytes = narrow.map_or(4 * n, |x| u32::from(x.bytes));
            let end = addr + u64::from(bytes);
            if end > u64::from(ctx.scratch_limit) {
                return Err(SimError::ScratchLimit {
                    what: if store { "store" } else { "load" },
                    offset: addr,
                    bytes,
                    lane: lane as u32,
                    limit: ctx.scratch_limit,
                    pc: d.addr,
                    origin: d.origin.clone(),
                });
            }
            if let Some((path, f)) = floor {
                if addr < f {
                    ctx.frame_store(d, path, lane, addr, bytes);
                }
            }
            let mem = &mut w.scratch[lane];
            if store && mem.len() < end as usize {
                mem.resize(end as usize, 0);
            }
            if let Some(x) = narrow {
                let at = addr as usize;
                if store {
                    let v = narrow_store_value(x, w.v(data, lane)).to_le_bytes();
                    w.scratch[lane][at..at + bytes as usize].copy_from_slice(&v[..bytes as usize]);
                    ctx.stats.scratch_bytes_stored += u64::from(bytes);
                } else {
                    // Scratch never written reads as 0.
                    let mut raw = [0u8; 4];
                    if let Some(b) = w.scratch[lane].get(at..at + bytes as usize) {
                        raw[..bytes as usize].copy_from_slice(b);
                    }
                    let v = narrow_load_value(x, w.v(data, lane), u32::from_le_bytes(raw));
                    w.set_v(data, lane, v);
                    ctx.stats.scratch_bytes_loaded += u64::from(bytes);
                }
                continue;
            }
            for k in 0..n as usize {
                let at = addr as usize + 4 * k;
                if store {
                    let v = w.vgpr[(data as usize + k) * crate::wave::LANE_STRIDE + lane];
                    w.scratch[lane][at..at + 4].copy_from_slice(&v.to_le_bytes());
                } else {
                    // Scratch never written reads as 0.
                    let s = &w.scratch[lane];
                    let v = s
                        .get(at..at + 4)
                        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                    w.set_v(data + k as u16, lane, v);
                }
            }
            if store {
                ctx.stats.scratch_bytes_stored += u64::from(4 * n);
            } else {
                ctx.stats.scratch_bytes_loaded += u64::from(4 * n);
            }
            continue;
        }
        if let Some(narrow) = narrow {
            let bytes = u32::from(narrow.bytes);
            if store {
                if let Some((path, f)) = floor {
                    if addr < f {
                        ctx.frame_store(d, path, lane, addr, bytes);
                    }
                }
                let v = narrow_store_value(narrow, w.v(data, lane));
                ctx.mem
                    .write(addr, bytes, v)
                    .ok_or_else(|| bad(d, "store", addr, bytes, lane))?;
            } else {
                let v = ctx
                    .mem
                    .read(addr, bytes)
                    .ok_or_else(|| bad(d, "load", addr, bytes, lane))?;
                w.set_v(data, lane, narrow_load_value(narrow, w.v(data, lane), v));
            }
            continue;
        }
        // Every dword's address is formed before any destination is written: the
        // destination may overlap the address register.
        let mut addrs = [Some(addr); 4];
        if matches!(format, Format::Mubuf | Format::Mtbuf) {
            for (k, slot) in addrs.iter_mut().enumerate().take(n as usize).skip(1) {
                *slot = lane_addresses(d, w, lane, addr_src, third, fourth, k as u32);
            }
        } else {
            for (k, slot) in addrs.iter_mut().enumerate().take(n as usize).skip(1) {
                *slot = Some(addr.wrapping_add(4 * k as u64));
            }
        }
        if let Some((path, f)) = floor {
            // One report per lane, at the first dword below the floor.
            if let Some(a) = addrs[..n as usize].iter().flatten().find(|&&a| a < f) {
                ctx.frame_store(d, path, lane, *a, 4 * n);
            }
        }
        for k in 0..n {
            let Some(a) = addrs[k as usize] else {
                ctx.stats.buffer_out_of_range += 1;
                if !store {
                    w.set_v(data + k as u16, lane, 0);
                }
                continue;
            };
            if store {
                let v = w.v(data + k as u16, lane);
                ctx.mem
                    .write_u32(a, v)
                    .ok_or_else(|| bad(d, "store", a, 4, lane))?;
            } else {
                let v = ctx
                    .mem
                    .read_u32(a)
                    .ok_or_else(|| bad(d, "load", a, 4, lane))?;
                w.set_v(data + k as u16, lane, v);
            }
        }
    }
    Ok(())
}

/// The register value a sub-dword load leaves: the `bytes` loaded (the low bytes of
/// `loaded`), zero- or sign-extended to 32 bits, or for a `d16` load to 16 bits and placed
/// in its half of `old`, whose other half is kept ("RDNA2 ISA", "RDNA3 ISA":
/// `*_LOAD_*_D16` write VDATA[15:0], the `_HI` forms VDATA[31:16]).
fn narrow_load_value(narrow: Narrow, old: u32, loaded: u32) -> u32 {
    let shift = 32 - 8 * u32::from(narrow.bytes);
    let v = if narrow.signed {
        ((loaded << shift) as i32 >> shift) as u32
    } else {
        loaded << shift >> shift
    };
    match narrow.d16 {
        None => v,
        Some(half) => {
            let at = half.shift();
            (old & !(0xffff << at)) | (v & 0xffff) << at
        }
    }
}

/// The value a sub-dword store writes the low bytes of: the register, or for the `d16_hi`
/// stores its bits 31:16 ("RDNA2 ISA", "RDNA3 ISA": `*_STORE_*_D16_HI` store
/// VDATA[31:16]).
fn narrow_store_value(narrow: Narrow, reg: u32) -> u32 {
    reg >> narrow.d16.map_or(0, Half::shift)
}

fn vdst(src: Src) -> Dst {
    match src {
        Src::Vgpr(r) => Dst::Vgpr(r),
        _ => Dst::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_round_trip_and_swizzle() {
        let d = Descriptor {
            base: 0x1_0000_0000,
            stride: 4,
            num_records: u32::MAX,
            swizzle: true,
            add_tid: true,
            index_stride: 64,
            element_size: 4,
        };
        assert_eq!(Descriptor::decode(d.encode()), d);
        // Swizzled scratch: dword k of lane l lies at base + k*4*64 + l*4.
        assert_eq!(d.address(3, 8), Some(0x1_0000_0000 + 2 * 4 * 64 + 3 * 4));
        let raw = Descriptor {
            stride: 0,
            swizzle: false,
            add_tid: false,
            num_records: 16,
            ..d
        };
        assert_eq!(raw.address(0, 12), Some(0x1_0000_000c));
        assert_eq!(raw.address(0, 13), None);
    }
}
