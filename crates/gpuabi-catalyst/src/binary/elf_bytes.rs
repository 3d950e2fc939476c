//! Little-endian ELF structures as bytes, for the 32-bit and 64-bit classes: the file
//! header, section headers, symbols and program headers, with the field order and sizes
//! of the System V ABI's ELF specification (`Elf32_Ehdr`, `Elf64_Shdr`, …).

/// Bytes of the `e_ident` array.
const EI_NIDENT: usize = 16;
/// The ELF magic number.
const ELF_MAGIC: [u8; 4] = [0x7F, b'E', b'L', b'F'];
/// `EI_DATA` value of little-endian files.
const ELFDATA2LSB: u8 = 1;
/// `EV_CURRENT`.
pub const EV_CURRENT: u32 = 1;
/// `ET_EXEC`.
pub const ET_EXEC: u16 = 2;

/// `SHT_PROGBITS`.
pub const SHT_PROGBITS: u32 = 1;
/// `SHT_SYMTAB`.
pub const SHT_SYMTAB: u32 = 2;
/// `SHT_STRTAB`.
pub const SHT_STRTAB: u32 = 3;
/// `SHF_ALLOC`.
pub const SHF_ALLOC: u64 = 2;
/// `SHF_EXECINSTR`.
pub const SHF_EXECINSTR: u64 = 4;
/// `SHF_STRINGS`.
pub const SHF_STRINGS: u64 = 0x20;
/// `STT_OBJECT` with `STB_LOCAL`.
pub const LOCAL_OBJECT: u8 = 1;
/// `STT_FUNC` with `STB_LOCAL`.
pub const LOCAL_FUNC: u8 = 2;

/// An ELF file being written: its bytes and its class.
pub struct ElfBytes {
    /// The bytes so far.
    pub bytes: Vec<u8>,
    /// 64-bit class (else 32-bit).
    pub is_64bit: bool,
}

/// The fields of a file header that vary between the files gpuabi writes.
pub struct FileHeader {
    /// `e_ident[EI_OSABI]`.
    pub os_abi: u8,
    /// `e_ident[EI_ABIVERSION]`.
    pub abi_version: u8,
    /// `e_machine`.
    pub machine: u16,
    /// `e_phoff` (0: none).
    pub phoff: u64,
    /// `e_shoff`.
    pub shoff: u64,
    /// `e_flags`.
    pub flags: u32,
    /// `e_phnum`.
    pub phnum: u16,
    /// `e_shnum`.
    pub shnum: u16,
    /// `e_shstrndx`.
    pub shstrndx: u16,
}

/// One section header.
#[derive(Default)]
pub struct SectionHeader {
    /// `sh_name`: offset of the name in the section-name table.
    pub name: u32,
    /// `sh_type`.
    pub kind: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info`.
    pub info: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
}

/// One symbol.
pub struct Symbol {
    /// `st_name`: offset of the name in the string table.
    pub name: u32,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `st_info`.
    pub info: u8,
    /// `st_shndx`.
    pub shndx: u16,
}

/// One program header (of a 32-bit file: CAL images are always 32-bit).
pub struct ProgramHeader32 {
    /// `p_type`.
    pub kind: u32,
    /// `p_offset`.
    pub offset: u32,
    /// `p_filesz`.
    pub filesz: u32,
    /// `p_memsz`.
    pub memsz: u32,
}

impl ElfBytes {
    /// An empty file of the given class.
    pub fn new(is_64bit: bool) -> ElfBytes {
        ElfBytes {
            bytes: Vec::new(),
            is_64bit,
        }
    }

    /// Bytes of the file header.
    pub fn header_size(&self) -> u64 {
        if self.is_64bit {
            64
        } else {
            52
        }
    }

    /// Bytes of a section header.
    pub fn section_header_size(&self) -> u64 {
        if self.is_64bit {
            64
        } else {
            40
        }
    }

    /// Bytes of a symbol.
    pub fn symbol_size(&self) -> u64 {
        if self.is_64bit {
            24
        } else {
            16
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Appends a 16-bit field.
    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a 32-bit field.
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends an address-sized field (`Elf32_Addr`/`Elf64_Addr`, `_Off`, `_Xword`
    /// where the 32-bit class has a word). Callers check that 32-bit values fit.
    pub fn word(&mut self, v: u64) {
        if self.is_64bit {
            self.bytes.extend_from_slice(&v.to_le_bytes());
        } else {
            self.u32(v as u32);
        }
    }

    /// Appends zero bytes up to a multiple of `align`.
    pub fn align(&mut self, align: u64) {
        while !self.len().is_multiple_of(align) {
            self.bytes.push(0);
        }
    }

    /// Appends the file header.
    pub fn file_header(&mut self, h: &FileHeader) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(&ELF_MAGIC);
        self.bytes.push(if self.is_64bit { 2 } else { 1 });
        self.bytes.push(ELFDATA2LSB);
        self.bytes.push(EV_CURRENT as u8);
        self.bytes.push(h.os_abi);
        self.bytes.push(h.abi_version);
        self.bytes.resize(start + EI_NIDENT, 0);
        self.u16(ET_EXEC);
        self.u16(h.machine);
        self.u32(EV_CURRENT);
        self.word(0); // e_entry
        self.word(h.phoff);
        self.word(h.shoff);
        self.u32(h.flags);
        self.u16(self.header_size() as u16);
        self.u16(if h.phnum == 0 { 0 } else { 32 });
        self.u16(h.phnum);
        self.u16(self.section_header_size() as u16);
        self.u16(h.shnum);
        self.u16(h.shstrndx);
    }

    /// Appends a section header.
    pub fn section_header(&mut self, s: &SectionHeader) {
        self.u32(s.name);
        self.u32(s.kind);
        self.word(s.flags);
        self.word(0); // sh_addr
        self.word(s.offset);
        self.word(s.size);
        self.u32(s.link);
        self.u32(s.info);
        self.word(s.align);
        self.word(s.entsize);
    }

    /// Appends a symbol (the two classes order the fields differently).
    pub fn symbol(&mut self, s: &Symbol) {
        self.u32(s.name);
        if self.is_64bit {
            self.bytes.push(s.info);
            self.bytes.push(0);
            self.u16(s.shndx);
            self.word(s.value);
            self.word(s.size);
        } else {
            self.word(s.value);
            self.word(s.size);
            self.bytes.push(s.info);
            self.bytes.push(0);
            self.u16(s.shndx);
        }
    }

    /// Appends a 32-bit program header with zero addresses, flags and alignment.
    pub fn program_header(&mut self, p: &ProgramHeader32) {
        for v in [p.kind, p.offset, 0, 0, p.filesz, p.memsz, 0, 0] {
            self.u32(v);
        }
    }
}

/// A string table: NUL-separated names after a leading NUL, and the offset of each.
pub struct StringTable {
    /// The table's bytes.
    pub bytes: Vec<u8>,
}

impl StringTable {
    /// A table holding only the empty name.
    pub fn new() -> StringTable {
        StringTable { bytes: vec![0] }
    }

    /// Adds `name` and returns its offset.
    pub fn add(&mut self, name: &str) -> u32 {
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.push(0);
        at
    }
}

impl Default for StringTable {
    fn default() -> StringTable {
        StringTable::new()
    }
}
