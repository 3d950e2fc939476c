//! The outer ELF of a Catalyst binary, in the order AMD's compiler writes it (driver
//! 1702.3, the binaries of CLRX's test data): the file header, `.shstrtab`, `.strtab`,
//! `.symtab` (8-byte aligned), `.llvmir`, `.comment`, `.rodata` (each kernel's metadata
//! text and header), `.text` (each kernel's CAL image), then the section headers (aligned
//! to 4 bytes in a 32-bit file, 8 in a 64-bit one). The symbols are those
//! [`super::outer`] reads: `__OpenCL_compile_options` in `.comment`, then per kernel
//! `__OpenCL_<k>_metadata`, `__OpenCL_<k>_kernel` and `__OpenCL_<k>_header`.
//!
//! CLRX's amdbin/AmdBinGen.cpp writes the same parts in another section order and without
//! `.llvmir`; gpuabi follows AMD's order and writes `.llvmir` empty (it has no LLVM IR of
//! the kernels), so that the section indices are AMD's.

use super::elf_bytes::{
    ElfBytes, FileHeader, SectionHeader, StringTable, Symbol, LOCAL_FUNC, LOCAL_OBJECT, SHF_ALLOC,
    SHF_EXECINSTR, SHF_STRINGS, SHT_PROGBITS, SHT_STRTAB, SHT_SYMTAB,
};
use super::outer::{HEADER_SUFFIX, KERNEL_SUFFIX, METADATA_SUFFIX, PREFIX};

/// Alignment of `.symtab`.
const SYMTAB_ALIGN: u64 = 8;
/// Section indices of `.comment`, `.rodata` and `.text`.
const COMMENT: u16 = 5;
const RODATA: u16 = 6;
const TEXT: u16 = 7;
/// Sections: null, `.shstrtab`, `.strtab`, `.symtab`, `.llvmir`, `.comment`, `.rodata`,
/// `.text`.
const SECTIONS: u16 = 8;

/// One kernel's parts, as bytes.
pub struct KernelParts<'a> {
    /// Kernel name.
    pub name: &'a str,
    /// Metadata text.
    pub metadata: &'a [u8],
    /// The 32-byte header.
    pub header: &'a [u8],
    /// The CAL image.
    pub image: &'a [u8],
}

/// What the outer file holds besides the kernels.
pub struct OuterInput<'a> {
    /// 64-bit class.
    pub is_64bit: bool,
    /// `e_machine`: the device's ELF machine code.
    pub machine: u16,
    /// Compile options (the start of `.comment`, symbol `__OpenCL_compile_options`).
    pub compile_options: &'a str,
    /// The driver's identification (the rest of `.comment`).
    pub driver_info: &'a str,
}

/// The outer file, or `None` when a 32-bit file would pass 4 GiB.
pub fn write(input: &OuterInput<'_>, kernels: &[KernelParts<'_>]) -> Option<Vec<u8>> {
    let mut shstrtab = StringTable::new();
    let names = [
        shstrtab.add(".shstrtab"),
        shstrtab.add(".strtab"),
        shstrtab.add(".symtab"),
        shstrtab.add(".llvmir"),
        shstrtab.add(".comment"),
        shstrtab.add(".rodata"),
        shstrtab.add(".text"),
    ];
    let mut strtab = StringTable::new();
    let mut e = ElfBytes::new(input.is_64bit);
    let mut symbols = vec![
        Symbol {
            name: 0,
            value: 0,
            size: 0,
            info: 0,
            shndx: 0,
        },
        Symbol {
            name: strtab.add(&format!("{PREFIX}compile_options")),
            value: 0,
            size: input.compile_options.len() as u64,
            info: LOCAL_OBJECT,
            shndx: COMMENT,
        },
    ];
    let (mut rodata, mut text) = (0u64, 0u64);
    for k in kernels {
        let symbol = |strtab: &mut StringTable, suffix: &str| {
            strtab.add(&format!("{PREFIX}{}{suffix}", k.name))
        };
        let metadata = (rodata, k.metadata.len() as u64);
        let header = (rodata + metadata.1, k.header.len() as u64);
        rodata = header.0 + header.1;
        let image = (text, k.image.len() as u64);
        text += image.1;
        for (suffix, (value, size), info, shndx) in [
            (METADATA_SUFFIX, metadata, LOCAL_OBJECT, RODATA),
            (KERNEL_SUFFIX, image, LOCAL_FUNC, TEXT),
            (HEADER_SUFFIX, header, LOCAL_OBJECT, RODATA),
        ] {
            symbols.push(Symbol {
                name: symbol(&mut strtab, suffix),
                value,
                size,
                info,
                shndx,
            });
        }
    }

    let shstrtab_at = e.header_size();
    let strtab_at = shstrtab_at + shstrtab.bytes.len() as u64;
    let symtab_at = (strtab_at + strtab.bytes.len() as u64).next_multiple_of(SYMTAB_ALIGN);
    let symtab_size = symbols.len() as u64 * e.symbol_size();
    let llvmir_at = symtab_at + symtab_size;
    let comment_size = (input.compile_options.len() + input.driver_info.len()) as u64;
    let comment_at = llvmir_at;
    let rodata_at = comment_at + comment_size;
    let text_at = rodata_at + rodata;
    let shoff = (text_at + text).next_multiple_of(if input.is_64bit { 8 } else { 4 });
    let end = shoff + u64::from(SECTIONS) * e.section_header_size();
    if !input.is_64bit && end > u64::from(u32::MAX) {
        return None;
    }

    e.bytes.reserve(end as usize);
    e.file_header(&FileHeader {
        os_abi: 0,
        abi_version: 0,
        machine: input.machine,
        phoff: 0,
        shoff,
        flags: 0,
        phnum: 0,
        shnum: SECTIONS,
        shstrndx: 1,
    });
    e.bytes.extend_from_slice(&shstrtab.bytes);
    e.bytes.extend_from_slice(&strtab.bytes);
    e.align(SYMTAB_ALIGN);
    for s in &symbols {
        e.symbol(s);
    }
    e.bytes.extend_from_slice(input.compile_options.as_bytes());
    e.bytes.extend_from_slice(input.driver_info.as_bytes());
    for k in kernels {
        e.bytes.extend_from_slice(k.metadata);
        e.bytes.extend_from_slice(k.header);
    }
    for k in kernels {
        e.bytes.extend_from_slice(k.image);
    }
    e.align(if input.is_64bit { 8 } else { 4 });
    debug_assert_eq!(e.len(), shoff);
    let [n_shstrtab, n_strtab, n_symtab, n_llvmir, n_comment, n_rodata, n_text] = names;
    let section = |name: u32, kind: u32, flags: u64, offset: u64, size: u64| SectionHeader {
        name,
        kind,
        flags,
        offset,
        size,
        align: 1,
        ..SectionHeader::default()
    };
    e.section_header(&SectionHeader::default());
    for s in [
        section(
            n_shstrtab,
            SHT_STRTAB,
            SHF_STRINGS,
            shstrtab_at,
            shstrtab.bytes.len() as u64,
        ),
        section(
            n_strtab,
            SHT_STRTAB,
            SHF_STRINGS,
            strtab_at,
            strtab.bytes.len() as u64,
        ),
        // AMD's `.symtab` has `sh_info` 0 though every symbol is local.
        SectionHeader {
            link: 2,
            align: SYMTAB_ALIGN,
            entsize: e.symbol_size(),
            ..section(n_symtab, SHT_SYMTAB, 0, symtab_at, symtab_size)
        },
        section(n_llvmir, SHT_PROGBITS, 0, llvmir_at, 0),
        section(n_comment, SHT_PROGBITS, 0, comment_at, comment_size),
        section(n_rodata, SHT_PROGBITS, SHF_ALLOC, rodata_at, rodata),
        section(
            n_text,
            SHT_PROGBITS,
            SHF_ALLOC | SHF_EXECINSTR,
            text_at,
            text,
        ),
    ] {
        e.section_header(&s);
    }
    Some(e.bytes)
}
