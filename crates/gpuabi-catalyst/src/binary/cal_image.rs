//! A kernel's CAL image: the inner 32-bit ELF (machine 0x7D) whose first program header
//! (type 0x70000002) is the encoding table, followed by a PT_NOTE segment of "ATI CAL"
//! notes and a PT_LOAD segment with `.text` and `.data`, as CLRX's `AmdInnerGPUBinary32`
//! (amdbin/AmdBinaries.cpp) reads it.

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader};
use object::LittleEndian;

use super::error::BinaryError;
use super::outer::{EI_CLASS, ELFCLASS32};

/// `e_machine` of a CAL image.
pub const CAL_MACHINE: u16 = 0x7D;
/// Program-header type of the encoding table.
pub const PT_CAL_ENCODINGS: u32 = 0x7000_0002;
/// Bytes of one encoding-table entry (machine, type, offset, size, flags).
const ENCODING_ENTRY_BYTES: usize = 20;
/// Name of every CAL note, NUL-terminated.
pub const CAL_NOTE_NAME: &[u8; 8] = b"ATI CAL\0";
/// Bytes of a CAL note header: name size, descriptor size, type, 8-byte name.
const NOTE_HEADER_BYTES: usize = 20;

/// One CAL note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalNote {
    /// Note type (1 PROGINFO, 16 UAV, …).
    pub note_type: u32,
    /// File offset of the note header.
    pub offset: u64,
    /// The descriptor bytes.
    pub desc: Vec<u8>,
}

/// An entry of the encoding table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// CAL machine code of the device.
    pub machine: u32,
    /// Entry type.
    pub entry_type: u32,
    /// Offset of the encoding in the image.
    pub offset: u32,
    /// Size of the encoding.
    pub size: u32,
    /// Flags.
    pub flags: u32,
}

/// What a CAL image holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalImage {
    /// Encoding table.
    pub encodings: Vec<Encoding>,
    /// Notes in file order.
    pub notes: Vec<CalNote>,
    /// The `.text` section: the kernel's machine code.
    pub text: Vec<u8>,
    /// File offset of `.text`.
    pub text_offset: u64,
    /// Size of `.data`.
    pub data_size: u64,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Reads the CAL image of `kernel` found at file offset `base`.
pub fn read(kernel: &str, image: &[u8], base: u64) -> Result<CalImage, BinaryError> {
    let what = || format!("CAL image of kernel '{kernel}'");
    let elf_err = |e: object::read::Error| BinaryError::Elf {
        what: what(),
        offset: base,
        message: format!("{e} (the image has {} bytes)", image.len()),
    };
    let at = |offset: u64, message: String| BinaryError::CalImage {
        kernel: kernel.to_string(),
        offset: base.saturating_add(offset),
        message,
    };
    if image.get(EI_CLASS) != Some(&ELFCLASS32) {
        return Err(BinaryError::NotCatalyst {
            what: what(),
            offset: base,
            message: "expected a 32-bit ELF".into(),
        });
    }
    let hdr = elf::FileHeader32::<LittleEndian>::parse(image).map_err(elf_err)?;
    let endian = hdr.endian().map_err(elf_err)?;
    let machine = hdr.e_machine(endian).0;
    if machine != CAL_MACHINE {
        return Err(BinaryError::NotCatalyst {
            what: what(),
            offset: base,
            message: format!("e_machine {machine:#x}, expected {CAL_MACHINE:#x}"),
        });
    }
    let phdrs = hdr.program_headers(endian, image).map_err(elf_err)?;
    let Some(first) = phdrs.first() else {
        return Err(at(
            0,
            "no program headers (expected the encoding table first)".into(),
        ));
    };
    if first.p_type(endian).0 != PT_CAL_ENCODINGS {
        return Err(at(
            u64::from(hdr.e_phoff.get(endian)),
            format!(
                "first program header has type {:#x}, expected the encoding table {PT_CAL_ENCODINGS:#x}",
                first.p_type(endian).0
            ),
        ));
    }
    let segment = |p: &elf::ProgramHeader32<LittleEndian>| -> Result<&[u8], BinaryError> {
        let off = u64::from(p.p_offset(endian));
        let size = u64::from(p.p_filesz(endian));
        p.data(endian, image).map_err(|_| {
            at(
                off,
                format!(
                    "segment of {size} bytes at image offset {off} ends past the image ({} bytes)",
                    image.len()
                ),
            )
        })
    };
    let table = segment(first)?;
    if table.len() % ENCODING_ENTRY_BYTES != 0 {
        return Err(at(
            u64::from(first.p_offset(endian)),
            format!(
                "encoding table of {} bytes is not a multiple of {ENCODING_ENTRY_BYTES}",
                table.len()
            ),
        ));
    }
    let encodings = table
        .chunks_exact(ENCODING_ENTRY_BYTES)
        .map(|c| {
            let w = |k: usize| u32_at(c, 4 * k).unwrap_or(0);
            Encoding {
                machine: w(0),
                entry_type: w(1),
                offset: w(2),
                size: w(3),
                flags: w(4),
            }
        })
        .collect();

    let mut notes = Vec::new();
    for p in phdrs.iter().skip(1) {
        if p.p_type(endian) != elf::PT_NOTE {
            continue;
        }
        let seg_off = u64::from(p.p_offset(endian));
        let seg = segment(p)?;
        let mut pos = 0usize;
        while pos < seg.len() {
            let note_at = seg_off + pos as u64;
            let header = seg.get(pos..pos + NOTE_HEADER_BYTES).ok_or_else(|| {
                at(
                    note_at,
                    format!(
                        "CAL note header needs {NOTE_HEADER_BYTES} bytes, the note segment has {} left",
                        seg.len() - pos
                    ),
                )
            })?;
            let name_size = u32_at(header, 0).unwrap_or(0);
            let desc_size = u32_at(header, 4).unwrap_or(0) as usize;
            let note_type = u32_at(header, 8).unwrap_or(0);
            if name_size != 8 || &header[12..20] != CAL_NOTE_NAME {
                return Err(at(
                    note_at,
                    "CAL note without the name \"ATI CAL\" (name size 8)".into(),
                ));
            }
            let start = pos + NOTE_HEADER_BYTES;
            let desc = start
                .checked_add(desc_size)
                .and_then(|end| seg.get(start..end))
                .ok_or_else(|| {
                    at(
                        note_at,
                        format!(
                            "CAL note type {note_type}: descriptor of {desc_size} bytes runs past the note segment ({} bytes left)",
                            seg.len() - start
                        ),
                    )
                })?;
            notes.push(CalNote {
                note_type,
                offset: base + note_at,
                desc: desc.to_vec(),
            });
            pos = start + desc_size;
        }
    }

    let sections = hdr.sections(endian, image).map_err(elf_err)?;
    let (text, text_offset) = match sections.section_by_name(endian, b".text") {
        Some((_, s)) => {
            let bytes = s.data(endian, image).map_err(|_| {
                at(
                    u64::from(s.sh_offset(endian)),
                    format!(
                        ".text of {} bytes ends past the image ({} bytes)",
                        s.sh_size(endian),
                        image.len()
                    ),
                )
            })?;
            (bytes.to_vec(), base + u64::from(s.sh_offset(endian)))
        }
        None => return Err(at(0, "no .text section (the kernel's code)".into())),
    };
    let data_size = sections
        .section_by_name(endian, b".data")
        .map_or(0, |(_, s)| u64::from(s.sh_size(endian)));
    Ok(CalImage {
        encodings,
        notes,
        text,
        text_offset,
        data_size,
    })
}
