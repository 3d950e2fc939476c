//! The outer ELF of a Catalyst OpenCL 1.2 binary: per kernel, the symbols
//! `__OpenCL_<k>_metadata` and `__OpenCL_<k>_header` (in `.rodata`) and
//! `__OpenCL_<k>_kernel` (in `.text`, the kernel's CAL image). Symbol values are offsets
//! into their section, as CLRX's `AmdMainBinaryBase` (amdbin/AmdBinaries.cpp) reads them.

use object::elf;
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::LittleEndian;

use super::error::BinaryError;

/// Index of the class byte in `e_ident`.
pub(super) const EI_CLASS: usize = 4;
/// Class byte of a 32-bit ELF.
pub(super) const ELFCLASS32: u8 = 1;
/// Class byte of a 64-bit ELF.
pub(super) const ELFCLASS64: u8 = 2;

/// Prefix of every OpenCL symbol.
pub(super) const PREFIX: &str = "__OpenCL_";

/// A file range: offset and size in bytes.
pub type FileRange = (u64, u64);

/// The three parts of one kernel, as file ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelParts {
    /// Kernel name.
    pub name: String,
    /// Metadata text (file offset, bytes).
    pub metadata: FileRange,
    /// Kernel header.
    pub header: FileRange,
    /// CAL image.
    pub cal_image: FileRange,
}

/// What the outer ELF says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outer {
    /// 64-bit ELF.
    pub is_64bit: bool,
    /// `e_machine` (the device code, 0x3FE for Pitcairn).
    pub machine: u16,
    /// Text of the `.comment` section (the compiler's identification).
    pub comment: Option<String>,
    /// Kernels in symbol-table order of their `_kernel` symbols.
    pub kernels: Vec<KernelParts>,
    /// The program's global constant data: its symbol (`__OpenCL_0_global`, or
    /// `__OpenCL_2_global` before driver 1348.05, as CLRX's amdbin/AmdBinGen.cpp names it)
    /// and file range.
    pub global_data: Option<(String, FileRange)>,
}

/// Which part a symbol names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Metadata,
    Header,
    Kernel,
}

/// Suffix of the symbol of a kernel's metadata text.
pub(super) const METADATA_SUFFIX: &str = "_metadata";
/// Suffix of the symbol of a kernel's header.
pub(super) const HEADER_SUFFIX: &str = "_header";
/// Suffix of the symbol of a kernel's CAL image.
pub(super) const KERNEL_SUFFIX: &str = "_kernel";
/// Suffix of the symbol of the program's global constant data (after a constant-buffer
/// number).
pub(super) const GLOBAL_SUFFIX: &str = "_global";

const PARTS: [(&str, Part); 3] = [
    (METADATA_SUFFIX, Part::Metadata),
    (HEADER_SUFFIX, Part::Header),
    (KERNEL_SUFFIX, Part::Kernel),
];

fn elf_error(len: usize) -> impl Fn(object::read::Error) -> BinaryError {
    move |e| BinaryError::Elf {
        what: "outer ELF".into(),
        offset: 0,
        message: format!("{e} (the file has {len} bytes)"),
    }
}

/// Reads the outer ELF (32- or 64-bit by its class byte).
pub fn read(data: &[u8]) -> Result<Outer, BinaryError> {
    match data.get(EI_CLASS) {
        Some(&ELFCLASS32) => read_as::<elf::FileHeader32<LittleEndian>>(data),
        Some(&ELFCLASS64) => read_as::<elf::FileHeader64<LittleEndian>>(data),
        Some(&c) => Err(BinaryError::NotCatalyst {
            what: "outer ELF".into(),
            offset: EI_CLASS as u64,
            message: format!("ELF class byte {c}, expected 1 (32-bit) or 2 (64-bit)"),
        }),
        None => Err(BinaryError::NotCatalyst {
            what: "outer ELF".into(),
            offset: 0,
            message: format!("{} bytes is too short for an ELF header", data.len()),
        }),
    }
}

fn read_as<Elf: FileHeader<Endian = LittleEndian>>(data: &[u8]) -> Result<Outer, BinaryError> {
    let elf_error = elf_error(data.len());
    let hdr = Elf::parse(data).map_err(&elf_error)?;
    let endian = hdr.endian().map_err(&elf_error)?;
    let sections = hdr.sections(endian, data).map_err(&elf_error)?;
    let comment = sections
        .section_by_name(endian, b".comment")
        .and_then(|(_, s)| s.data(endian, data).ok())
        .map(|b| {
            String::from_utf8_lossy(b)
                .trim_end_matches('\0')
                .to_string()
        });
    let symbols = sections
        .symbols(endian, data, elf::SHT_SYMTAB)
        .map_err(&elf_error)?;

    // name -> [metadata, header, kernel]
    let mut found: Vec<(String, [Option<FileRange>; 3])> = Vec::new();
    let mut global_data = None;
    for sym in symbols.iter() {
        let Ok(raw) = symbols.symbol_name(endian, sym) else {
            continue;
        };
        let Some(rest) = std::str::from_utf8(raw)
            .ok()
            .and_then(|s| s.strip_prefix(PREFIX))
        else {
            continue;
        };
        let global = rest
            .strip_suffix(GLOBAL_SUFFIX)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let named = PARTS
            .iter()
            .find_map(|(suffix, p)| rest.strip_suffix(suffix).map(|k| (k, *p)));
        if named.is_none() && !global {
            continue;
        }
        let symbol = format!("{PREFIX}{rest}");
        let index = sym
            .st_shndx(endian)
            .index()
            .ok_or_else(|| BinaryError::SymbolOutOfRange {
                symbol: symbol.clone(),
                section: format!("index {:#x}", sym.st_shndx(endian).0),
                start: sym.st_value(endian).into(),
                end: sym.st_value(endian).into(),
                section_size: 0,
            })?;
        let section = sections
            .section(object::SectionIndex(usize::from(index)))
            .map_err(|_| BinaryError::SymbolOutOfRange {
                symbol: symbol.clone(),
                section: format!("index {index}"),
                start: sym.st_value(endian).into(),
                end: sym.st_value(endian).into(),
                section_size: 0,
            })?;
        let sec_name = sections
            .section_name(endian, section)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_else(|_| format!("index {index}"));
        let start: u64 = sym.st_value(endian).into();
        let size: u64 = sym.st_size(endian).into();
        let sec_off: u64 = section.sh_offset(endian).into();
        let sec_size: u64 = section.sh_size(endian).into();
        let end = start.checked_add(size);
        let file_end = sec_off.checked_add(sec_size);
        if end.is_none_or(|e| e > sec_size) || file_end.is_none_or(|e| e > data.len() as u64) {
            return Err(BinaryError::SymbolOutOfRange {
                symbol,
                section: sec_name,
                start,
                end: end.unwrap_or(u64::MAX),
                section_size: sec_size,
            });
        }
        let range = (sec_off + start, size);
        let Some((kernel, part)) = named else {
            global_data.get_or_insert((symbol, range));
            continue;
        };
        let at = match found.iter().position(|(n, _)| n == kernel) {
            Some(i) => i,
            None => {
                found.push((kernel.to_string(), [None; 3]));
                found.len() - 1
            }
        };
        found[at].1[part as usize] = Some(range);
    }
    let mut kernels = Vec::new();
    for (name, parts) in found {
        // Symbols of other kinds (`__OpenCL_compile_options`) have no `_kernel` part.
        let Some(cal_image) = parts[Part::Kernel as usize] else {
            continue;
        };
        let get = |p: Part, suffix: &str| {
            parts[p as usize].ok_or_else(|| BinaryError::MissingSymbol {
                kernel: name.clone(),
                symbol: format!("{PREFIX}{name}{suffix}"),
            })
        };
        kernels.push(KernelParts {
            metadata: get(Part::Metadata, "_metadata")?,
            header: get(Part::Header, "_header")?,
            cal_image,
            name,
        });
    }
    if kernels.is_empty() {
        return Err(BinaryError::NoKernels);
    }
    Ok(Outer {
        is_64bit: hdr.is_type_64(),
        machine: hdr.e_machine(endian).0,
        comment,
        kernels,
        global_data,
    })
}
