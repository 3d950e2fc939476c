//! AMDGPU ELF relocatable objects: the encoder's code in a `.text` section with a symbol
//! per label, and the `.text` of an object read back for the decoder.
//!
//! The header follows LLVM's "User Guide for AMDGPU Backend" (AMDGPUUsage), section "ELF
//! Code Object": `e_machine` is `EM_AMDGPU` (224), `e_flags` holds the processor in
//! `EF_AMDGPU_MACH` (`gfx802` = 0x029 for gpuabi's gfx8, which is LLVM's `tonga`; `gfx1030` =
//! 0x036; `gfx1100` = 0x041). Objects read back may name any processor of a modelled
//! generation ([`Processor`]: `gfx803` = 0x02a is run as gfx8). Like `llvm-mc -triple=amdgcn` (no operating system), the
//! OS ABI is `ELFOSABI_NONE` and no other flag is set.

use object::elf;
use object::read::elf::{ElfFile64, FileHeader as _};
use object::write::elf::{FileHeader, SectionHeader, Sym, Writer};
use object::write::StringId;
use object::{Endianness, Object, ObjectSection, ObjectSymbol, SymbolKind};

use crate::program::{Directive, Item, Program};
use crate::target::{Processor, Target};

/// A problem writing or reading an object file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ElfError(pub String);

/// `EF_AMDGPU_MACH` of a target (AMDGPUUsage, "AMDGPU ELF Header").
pub const fn mach(target: Target) -> Option<u32> {
    match target {
        Target::Gfx6 => Some(0x021),
        Target::Gfx7 => Some(0x026),
        Target::Gfx8 => Some(0x029),
        Target::Gfx1030 => Some(0x036),
        Target::Gfx1100 => Some(0x041),
        Target::Gfx12 => Some(0x04e),
        Target::Gfx9 => None,
    }
}

/// The mask of `EF_AMDGPU_MACH` in `e_flags`.
pub const EF_AMDGPU_MACH_MASK: u32 = 0x0ff;

/// The processor whose `EF_AMDGPU_MACH` is in `e_flags`, if its generation is modelled.
pub fn processor_of_flags(e_flags: u32) -> Option<Processor> {
    Processor::of_mach(e_flags & EF_AMDGPU_MACH_MASK)
}

/// The target whose `EF_AMDGPU_MACH` is in `e_flags`, if the machine model has encodings
/// for it.
pub fn target_of_flags(e_flags: u32) -> Option<Target> {
    processor_of_flags(e_flags)
        .map(|p| p.gfx)
        .filter(|t| t.has_encodings())
}

/// Writes `code` (the encoding of `program`, from [`crate::encode()`]) as an AMDGPU ELF64
/// relocatable object: one `.text` section aligned to the largest `.p2align` (at least 4
/// bytes), and a symbol for every label except assembler-local `.L` ones; `.globl` labels
/// are global, `.type NAME,@function` labels are functions with their `.size`.
pub fn write_object(program: &Program, code: &[u8]) -> Result<Vec<u8>, ElfError> {
    let e_flags = mach(program.target)
        .ok_or_else(|| ElfError(format!("no ELF machine for {}", program.target)))?;
    let layout = program.layout();
    let mut align = 4u64;
    let mut globals = Vec::new();
    let mut functions = Vec::new();
    let mut sizes = std::collections::HashMap::new();
    for entry in &program.items {
        match &entry.item {
            Item::Directive(Directive::P2align(n)) => align = align.max(1 << n),
            Item::Directive(Directive::Globl(n)) => globals.push(n.as_str()),
            Item::Directive(Directive::TypeFunction(n)) => functions.push(n.as_str()),
            Item::Directive(Directive::Size(n, e)) => {
                if let Some(v) = layout.eval(e, 0) {
                    sizes.insert(n.as_str(), v.max(0) as u64);
                }
            }
            _ => {}
        }
    }
    // Local symbols come before global ones in an ELF symbol table.
    let mut symbols: Vec<(&str, u32, bool)> = program
        .items
        .iter()
        .filter_map(|e| match &e.item {
            // Labels of data sections have no place in `.text`.
            Item::Label(n) if !n.starts_with(".L") => layout
                .labels
                .get(n)
                .map(|&at| (n.as_str(), at, globals.contains(&n.as_str()))),
            _ => None,
        })
        .collect();
    symbols.sort_by_key(|s| s.2);
    let first_global = symbols.iter().take_while(|s| !s.2).count() as u32 + 1;

    let fail = |e: object::write::Error| ElfError(e.to_string());
    let mut out = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut out);
    w.reserve_file_header();
    let text_name = w.add_section_name(b".text");
    let text_index = w.reserve_section_index();
    let text_offset = w.reserve(code.len() as u64, align);
    w.reserve_null_symbol_index();
    let names: Vec<StringId> = symbols
        .iter()
        .map(|s| w.add_string(s.0.as_bytes()))
        .collect();
    for _ in &symbols {
        w.reserve_symbol_index(Some(text_index));
    }
    w.reserve_symtab_section_index();
    w.reserve_symtab();
    w.reserve_strtab_section_index();
    w.reserve_strtab().map_err(fail)?;
    w.reserve_shstrtab_section_index();
    w.reserve_shstrtab().map_err(fail)?;
    w.reserve_section_headers();

    w.write_file_header(&FileHeader {
        os_abi: elf::ELFOSABI_NONE,
        abi_version: 0,
        e_type: elf::ET_REL,
        e_machine: elf::EM_AMDGPU,
        e_entry: 0,
        e_flags: elf::FileFlags(e_flags),
    })
    .map_err(fail)?;
    w.write_align(align);
    w.write(code);
    w.write_null_symbol();
    for ((name, value, global), id) in symbols.iter().zip(&names) {
        let kind = if functions.contains(name) {
            elf::STT_FUNC
        } else {
            elf::STT_NOTYPE
        };
        let bind = if *global {
            elf::STB_GLOBAL
        } else {
            elf::STB_LOCAL
        };
        let st_name = w.string_offset(Some(*id));
        w.write_symbol(&Sym {
            st_name,
            section: Some(text_index.0),
            st_info: elf::SymbolInfo::new(bind, kind),
            st_other: elf::STV_DEFAULT.into(),
            st_shndx: elf::SHN_UNDEF,
            st_value: u64::from(*value),
            st_size: sizes.get(name).copied().unwrap_or(0),
        });
    }
    w.write_strtab();
    w.write_shstrtab();
    w.write_null_section_header();
    let sh_name = w.section_name_offset(Some(text_name));
    w.write_section_header(&SectionHeader {
        sh_name,
        sh_type: elf::SHT_PROGBITS,
        sh_flags: elf::SHF_ALLOC | elf::SHF_EXECINSTR,
        sh_addr: 0,
        sh_offset: text_offset,
        sh_size: code.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: align,
        sh_entsize: 0,
    });
    w.write_symtab_section_header(first_global);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
    Ok(out)
}

/// The code of an AMDGPU object's `.text` section, the symbols defined in it (name, offset)
/// and the target its `e_flags` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// The bytes of `.text`.
    pub code: Vec<u8>,
    /// Named symbols in `.text` with their offsets, in symbol-table order.
    pub symbols: Vec<(String, u32)>,
    /// The target of `EF_AMDGPU_MACH`, if the machine model has it.
    pub target: Option<Target>,
    /// The processor of `EF_AMDGPU_MACH`, if its generation is modelled.
    pub processor: Option<Processor>,
    /// How many relocations apply to `.text` (their bytes hold zeros until linked).
    pub relocations: usize,
}

/// Reads the `.text` section of an AMDGPU ELF64 object.
pub fn read_text(data: &[u8]) -> Result<Text, ElfError> {
    let file = ElfFile64::<Endianness>::parse(data)
        .map_err(|e| ElfError(format!("not an ELF64 object: {e}")))?;
    let header = file.elf_header();
    let machine = header.e_machine(file.endian());
    if machine != elf::EM_AMDGPU {
        return Err(ElfError(format!(
            "e_machine is {machine}, not EM_AMDGPU (224)"
        )));
    }
    let e_flags = header.e_flags(file.endian());
    let section = file
        .section_by_name(".text")
        .ok_or_else(|| ElfError("the object has no .text section".into()))?;
    let code = section
        .data()
        .map_err(|e| ElfError(format!(".text: {e}")))?
        .to_vec();
    let mut symbols = Vec::new();
    for sym in file.symbols() {
        if sym.section_index() != Some(section.index())
            || matches!(sym.kind(), SymbolKind::Section | SymbolKind::File)
        {
            continue;
        }
        let Ok(name) = sym.name() else { continue };
        if name.is_empty() {
            continue;
        }
        let offset = u32::try_from(sym.address().wrapping_sub(section.address()))
            .map_err(|_| ElfError(format!("symbol `{name}` lies outside .text")))?;
        symbols.push((name.to_string(), offset));
    }
    Ok(Text {
        code,
        symbols,
        target: target_of_flags(e_flags.0),
        processor: processor_of_flags(e_flags.0),
        relocations: section.relocations().count(),
    })
}
