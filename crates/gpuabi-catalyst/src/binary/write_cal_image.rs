//! A kernel's CAL image: the inner 32-bit ELF that [`super::cal_image`] reads, laid out
//! as AMD's compiler writes it (samplekernels.clo of CLRX's test data, driver 1702.3;
//! CLRX's amdbin/AmdBinGen.cpp writes the same regions): the file header, three program
//! headers (encoding table, notes, load), the one-entry encoding table, the section-name
//! table, the section headers, the CAL notes, `.text`, a zeroed `.data`, an empty
//! `.symtab` and `.strtab`.

use object::elf::{PT_LOAD, PT_NOTE};

use crate::driver::Device;

use super::cal_image::{CAL_MACHINE, PT_CAL_ENCODINGS};
use super::elf_bytes::{
    ElfBytes, FileHeader, ProgramHeader32, SectionHeader, StringTable, SHT_PROGBITS, SHT_STRTAB,
    SHT_SYMTAB,
};

/// `e_ident[EI_OSABI]` of a CAL image.
const CAL_OS_ABI: u8 = 0x64;
/// `e_ident[EI_ABIVERSION]` of a CAL image.
const CAL_ABI_VERSION: u8 = 1;
/// `e_flags` of a CAL image.
const CAL_FLAGS: u32 = 1;
/// Type of the encoding-table entry.
const ENCODING_TYPE: u32 = 4;
/// Bytes of `.data`: AMD's compiler writes 4736 zero bytes (and 4736 as its `sh_entsize`).
pub const DATA_BYTES: u32 = 4736;
/// Bytes of `.strtab`: two NULs.
const STRTAB_BYTES: u32 = 2;
/// The three program headers.
const PROGRAM_HEADERS: u16 = 3;
/// Sections: null, `.shstrtab`, `.text`, `.data`, `.symtab`, `.strtab`.
const SECTIONS: u16 = 6;
/// Bytes of a 32-bit program header.
const PROGRAM_HEADER_BYTES: u32 = 32;
/// Bytes of the encoding-table entry.
const ENCODING_BYTES: u32 = 20;

/// Bytes of a CAL image with `notes` and `code` bytes, or `None` past 4 GiB.
pub fn image_size(notes: usize, code: usize) -> Option<u32> {
    let fixed =
        notes_offset() + DATA_BYTES + ElfBytes::new(false).symbol_size() as u32 + STRTAB_BYTES;
    u32::try_from(notes)
        .ok()?
        .checked_add(u32::try_from(code).ok()?)?
        .checked_add(fixed)
}

/// File offset of the note segment (448): everything before it has a fixed size.
fn notes_offset() -> u32 {
    let e = ElfBytes::new(false);
    e.header_size() as u32
        + u32::from(PROGRAM_HEADERS) * PROGRAM_HEADER_BYTES
        + ENCODING_BYTES
        + section_names().0.bytes.len() as u32
        + u32::from(SECTIONS) * e.section_header_size() as u32
}

/// The section-name table and the offsets of `.text`, `.data`, `.symtab`, `.strtab`.
/// AMD's table ends with one more NUL than its names need (40 bytes).
fn section_names() -> (StringTable, [u32; 5]) {
    let mut t = StringTable::new();
    let names = [
        t.add(".shstrtab"),
        t.add(".text"),
        t.add(".data"),
        t.add(".symtab"),
        t.add(".strtab"),
    ];
    t.bytes.push(0);
    (t, names)
}

/// The CAL image of `code` with the note segment `notes`, for `device`. The caller
/// checks [`image_size`] first.
pub fn write(device: &Device, notes: &[u8], code: &[u8]) -> Vec<u8> {
    let (names, [n_shstrtab, n_text, n_data, n_symtab, n_strtab]) = section_names();
    let mut e = ElfBytes::new(false);
    let phoff = e.header_size() as u32;
    let encoding_at = phoff + u32::from(PROGRAM_HEADERS) * PROGRAM_HEADER_BYTES;
    let names_at = encoding_at + ENCODING_BYTES;
    let shoff = names_at + names.bytes.len() as u32;
    let notes_at = notes_offset();
    let text_at = notes_at + notes.len() as u32;
    let data_at = text_at + code.len() as u32;
    let symtab_at = data_at + DATA_BYTES;
    let symbol_bytes = e.symbol_size() as u32;
    let strtab_at = symtab_at + symbol_bytes;
    let end = strtab_at + STRTAB_BYTES;

    e.file_header(&FileHeader {
        os_abi: CAL_OS_ABI,
        abi_version: CAL_ABI_VERSION,
        machine: CAL_MACHINE,
        phoff: u64::from(phoff),
        shoff: u64::from(shoff),
        flags: CAL_FLAGS,
        phnum: PROGRAM_HEADERS,
        shnum: SECTIONS,
        shstrndx: 1,
    });
    let load = end - text_at;
    for p in [
        ProgramHeader32 {
            kind: PT_CAL_ENCODINGS,
            offset: encoding_at,
            filesz: ENCODING_BYTES,
            memsz: 0,
        },
        ProgramHeader32 {
            kind: PT_NOTE.0,
            offset: notes_at,
            filesz: notes.len() as u32,
            memsz: 0,
        },
        ProgramHeader32 {
            kind: PT_LOAD.0,
            offset: text_at,
            filesz: load,
            memsz: load,
        },
    ] {
        e.program_header(&p);
    }
    // The encoding covers the image from the notes to its end.
    for v in [
        device.cal_machine,
        ENCODING_TYPE,
        notes_at,
        end - notes_at,
        0,
    ] {
        e.u32(v);
    }
    e.bytes.extend_from_slice(&names.bytes);
    let section = |name: u32, kind: u32, offset: u32, size: u32| SectionHeader {
        name,
        kind,
        offset: u64::from(offset),
        size: u64::from(size),
        ..SectionHeader::default()
    };
    e.section_header(&SectionHeader::default());
    e.section_header(&section(
        n_shstrtab,
        SHT_STRTAB,
        names_at,
        names.bytes.len() as u32,
    ));
    e.section_header(&section(n_text, SHT_PROGBITS, text_at, code.len() as u32));
    e.section_header(&SectionHeader {
        entsize: u64::from(DATA_BYTES),
        ..section(n_data, SHT_PROGBITS, data_at, DATA_BYTES)
    });
    // `.symtab` holds the null symbol only: `sh_info` 1 (one local), linked to `.strtab`.
    e.section_header(&SectionHeader {
        link: 5,
        info: 1,
        entsize: u64::from(symbol_bytes),
        ..section(n_symtab, SHT_SYMTAB, symtab_at, symbol_bytes)
    });
    e.section_header(&section(n_strtab, SHT_STRTAB, strtab_at, STRTAB_BYTES));
    debug_assert_eq!(e.len(), u64::from(notes_at));
    e.bytes.extend_from_slice(notes);
    e.bytes.extend_from_slice(code);
    e.bytes.resize(
        e.bytes.len() + (DATA_BYTES + symbol_bytes + STRTAB_BYTES) as usize,
        0,
    );
    e.bytes
}
