//! AMDHSA code objects as `llc -filetype=obj` and `llvm-mc -filetype=obj` write them for
//! `amdgcn-amd-amdhsa` (LLVM's AMDGPUUsage, "ELF Code Object"): the `.text` with its
//! functions, the data sections, the symbols and relocations, the kernel descriptors
//! (`NAME.kd`, 64 bytes each) and the code object metadata note (`NT_AMDGPU_METADATA`,
//! MessagePack).
//!
//! [`read_code_object`] reads a relocatable object into a [`CodeObject`]; its kernels are
//! the same [`Kernel`] descriptions that `hsa::read_kernels` makes of llc's assembly.
//! [`CodeObject::program`] decodes the code with the relocations applied for a given
//! placement of the sections (see `link`). Every malformed, truncated or unsupported
//! part is a [`CodeObjectError`] naming the section and byte offset.

mod descriptor;
mod link;
pub mod msgpack;
mod note;

use object::elf;
use object::read::elf::{ElfFile64, FileHeader as _, SectionHeader as _};
use object::{
    Endianness, Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget,
    SectionKind, SymbolKind, SymbolSection,
};

use crate::elf::{processor_of_flags, EF_AMDGPU_MACH_MASK};
use crate::hsa::Kernel;
use crate::target::{modelled_text, Processor, ENCODED_TARGETS};
use crate::target::{Target, WaveSize};

pub use descriptor::{read_descriptor, uses_dynamic_stack, KERNEL_DESCRIPTOR_BYTES};
pub use link::{Placement, RELOCATED_LABEL_PREFIX};
pub use note::{metadata_note_value, read_metadata_note, NoteKernel, NT_AMDGPU_METADATA};

/// `ELFOSABI_AMDGPU_HSA`: the OS ABI of AMDHSA code objects.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;

/// `ELFOSABI_AMDGPU_PAL`: the OS ABI of PAL code objects (`amdgcn-amd-amdpal`).
pub const ELFOSABI_AMDGPU_PAL: u8 = 65;

/// Largest allocated section (such as `.bss`, which takes no bytes in the file) a code
/// object may ask for: the simulator's buffers are bounded, and a header must not make
/// the reader allocate gigabytes.
pub const MAX_SECTION_BYTES: u64 = 64 << 20;

/// A code object gpuabi cannot read, with where the problem is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {message}")]
pub struct CodeObjectError {
    /// The section and byte offset (`.text byte 0x84`), or `ELF header`.
    pub place: String,
    /// What was wrong.
    pub message: String,
}

pub(crate) fn error(place: impl Into<String>, message: impl Into<String>) -> CodeObjectError {
    CodeObjectError {
        place: place.into(),
        message: message.into(),
    }
}

/// Where a symbol is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In `.text`.
    Text,
    /// In `CodeObject::data[i]`.
    Data(usize),
    /// An absolute value.
    Absolute,
    /// Not defined in the object (an external symbol).
    Undefined,
}

/// A symbol of the object's symbol table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name (a section symbol takes its section's name).
    pub name: String,
    /// Where it is defined.
    pub place: Place,
    /// Its offset in its section (or its value, when absolute).
    pub value: u64,
    /// Its size in bytes.
    pub size: u64,
    /// A function (`STT_FUNC`).
    pub function: bool,
    /// A section symbol (`STT_SECTION`), which relocations of local symbols use.
    pub section_symbol: bool,
}

/// The relocation types of AMDGPUUsage, "Relocation Records".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocKind {
    /// `R_AMDGPU_ABS32_LO`: the low 32 bits of S + A.
    Abs32Lo,
    /// `R_AMDGPU_ABS32_HI`: the high 32 bits of S + A.
    Abs32Hi,
    /// `R_AMDGPU_ABS64`: S + A.
    Abs64,
    /// `R_AMDGPU_REL32`: S + A − P (32 bits).
    Rel32,
    /// `R_AMDGPU_REL64`: S + A − P.
    Rel64,
    /// `R_AMDGPU_ABS32`: S + A (32 bits).
    Abs32,
    /// `R_AMDGPU_GOTPCREL`: G + GOT + A − P (32 bits).
    GotPcRel,
    /// `R_AMDGPU_GOTPCREL32_LO`: the low 32 bits of G + GOT + A − P.
    GotPcRel32Lo,
    /// `R_AMDGPU_GOTPCREL32_HI`: the high 32 bits of G + GOT + A − P.
    GotPcRel32Hi,
    /// `R_AMDGPU_REL32_LO`: the low 32 bits of S + A − P.
    Rel32Lo,
    /// `R_AMDGPU_REL32_HI`: the high 32 bits of S + A − P.
    Rel32Hi,
}

/// The relocation types gpuabi applies: ELF `r_type` (AMDGPUUsage, "AMDGPU ELF Relocation
/// Records"), kind and name.
const RELOCATIONS: [(u32, RelocKind, &str); 11] = [
    (1, RelocKind::Abs32Lo, "R_AMDGPU_ABS32_LO"),
    (2, RelocKind::Abs32Hi, "R_AMDGPU_ABS32_HI"),
    (3, RelocKind::Abs64, "R_AMDGPU_ABS64"),
    (4, RelocKind::Rel32, "R_AMDGPU_REL32"),
    (5, RelocKind::Rel64, "R_AMDGPU_REL64"),
    (6, RelocKind::Abs32, "R_AMDGPU_ABS32"),
    (7, RelocKind::GotPcRel, "R_AMDGPU_GOTPCREL"),
    (8, RelocKind::GotPcRel32Lo, "R_AMDGPU_GOTPCREL32_LO"),
    (9, RelocKind::GotPcRel32Hi, "R_AMDGPU_GOTPCREL32_HI"),
    (10, RelocKind::Rel32Lo, "R_AMDGPU_REL32_LO"),
    (11, RelocKind::Rel32Hi, "R_AMDGPU_REL32_HI"),
];

impl RelocKind {
    /// The kind of an ELF `r_type`, if gpuabi applies it.
    pub fn from_r_type(r_type: u32) -> Option<RelocKind> {
        RELOCATIONS.iter().find(|r| r.0 == r_type).map(|r| r.1)
    }

    /// The ELF name.
    pub fn name(self) -> &'static str {
        RELOCATIONS
            .iter()
            .find(|r| r.1 == self)
            .map_or("R_AMDGPU_?", |r| r.2)
    }

    /// Bytes the relocation writes.
    pub fn bytes(self) -> u64 {
        match self {
            RelocKind::Abs64 | RelocKind::Rel64 => 8,
            _ => 4,
        }
    }

    /// Whether the value is taken through a GOT entry.
    pub fn uses_got(self) -> bool {
        matches!(
            self,
            RelocKind::GotPcRel | RelocKind::GotPcRel32Lo | RelocKind::GotPcRel32Hi
        )
    }
}

/// One relocation record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocation {
    /// Byte offset in its section of the bytes it writes.
    pub offset: u64,
    /// What it computes.
    pub kind: RelocKind,
    /// Index in `CodeObject::symbols` of S.
    pub symbol: usize,
    /// A.
    pub addend: i64,
}

/// An allocated section: its bytes (zeros for `SHT_NOBITS`) and relocations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The section name.
    pub name: String,
    /// The bytes, before relocation.
    pub bytes: Vec<u8>,
    /// `sh_addralign`.
    pub align: u64,
    /// The relocations that apply to it.
    pub relocations: Vec<Relocation>,
}

/// A kernel of the code object: the kernel description and the wave size its
/// descriptor asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectKernel {
    /// Descriptor, arguments and kernarg size, as for llc's assembly.
    pub kernel: Kernel,
    /// The wave size (`ENABLE_WAVEFRONT_SIZE32`).
    pub wave: WaveSize,
    /// `USES_DYNAMIC_STACK`: the private segment size covers only the frames LLVM could
    /// size.
    pub uses_dynamic_stack: bool,
}

/// A relocatable AMDHSA code object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeObject {
    /// The generation of `EF_AMDGPU_MACH`.
    pub target: Target,
    /// LLVM's processor of `EF_AMDGPU_MACH` (`gfx803`).
    pub processor: Processor,
    /// `.text`.
    pub text: Section,
    /// The other allocated sections that hold data (`.rodata`, `.data`, `.bss`, ...).
    pub data: Vec<Section>,
    /// The symbol table, in order (entry 0, the null symbol, left out).
    pub symbols: Vec<Symbol>,
    /// The kernels, in the metadata's order (none in a PAL object).
    pub kernels: Vec<ObjectKernel>,
    /// A PAL object's compute shader, from its metadata note (`amdpal.pipelines`);
    /// `None` for an AMDHSA object.
    pub pal: Option<crate::pal::PalShader>,
}

impl CodeObject {
    /// The symbols defined in `.text` with a name, as (name, offset), functions first in
    /// address order: the labels of the decoded code.
    pub fn text_labels(&self) -> Vec<(String, u32)> {
        let mut labels: Vec<(String, u32)> = self
            .symbols
            .iter()
            .filter(|s| s.place == Place::Text && !s.section_symbol && !s.name.is_empty())
            .filter_map(|s| Some((s.name.clone(), u32::try_from(s.value).ok()?)))
            .collect();
        labels.sort_by_key(|l| l.1);
        labels
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&ObjectKernel> {
        self.kernels.iter().find(|k| k.kernel.name == name)
    }
}

/// A section's name, or `section N` when it has none (or an unreadable one), so that every
/// error names a place.
fn section_name(s: &object::read::elf::ElfSection64<'_, '_, Endianness>) -> String {
    match s.name() {
        Ok(n) if !n.is_empty() => n.to_string(),
        _ => format!("section {}", s.index().0),
    }
}

fn section_place(name: &str, offset: u64) -> String {
    format!("{name} byte 0x{offset:x}")
}

/// Reads an AMDHSA relocatable code object.
pub fn read_code_object(data: &[u8]) -> Result<CodeObject, CodeObjectError> {
    let file = ElfFile64::<Endianness>::parse(data)
        .map_err(|e| error("ELF header", format!("not an ELF64 object: {e}")))?;
    let endian = file.endian();
    let header = file.elf_header();
    let machine = header.e_machine(endian);
    if machine != elf::EM_AMDGPU {
        return Err(error(
            "ELF header",
            format!("e_machine is {machine}, not EM_AMDGPU (224)"),
        ));
    }
    let os_abi = header.e_ident().os_abi.0;
    let pal = os_abi == ELFOSABI_AMDGPU_PAL;
    if os_abi != ELFOSABI_AMDGPU_HSA && !pal {
        return Err(error(
            "ELF header",
            format!(
                "OS ABI is {os_abi}, not ELFOSABI_AMDGPU_HSA ({ELFOSABI_AMDGPU_HSA}) or \
                 ELFOSABI_AMDGPU_PAL ({ELFOSABI_AMDGPU_PAL}): not an AMDHSA or PAL code object"
            ),
        ));
    }
    let e_type = header.e_type(endian);
    if e_type != elf::ET_REL {
        return Err(error(
            "ELF header",
            format!("e_type is {e_type}; gpuabi reads relocatable objects (ET_REL, 1) only"),
        ));
    }
    let flags = header.e_flags(endian).0;
    let processor = processor_of_flags(flags)
        .filter(|p| p.gfx.has_encodings())
        .ok_or_else(|| {
            let mach = flags & EF_AMDGPU_MACH_MASK;
            let what = match processor_of_flags(flags) {
                Some(p) => format!("is {p}, which the machine model has no encodings for"),
                None => "is not a processor of a modelled generation".to_string(),
            };
            error(
                "ELF header",
                format!(
                    "EF_AMDGPU_MACH 0x{mach:03x} {what}; it runs {}",
                    modelled_text(&ENCODED_TARGETS)
                ),
            )
        })?;
    let target = processor.gfx;

    // Sections: `.text` and the allocated data sections, by ELF section index.
    let mut text: Option<(usize, Section)> = None;
    let mut data_sections: Vec<(usize, Section)> = Vec::new();
    let mut note: Option<(String, Vec<u8>)> = None;
    for s in file.sections() {
        let name = section_name(&s);
        let sh = s.elf_section_header();
        let sh_type = sh.sh_type(endian);
        let sh_flags = sh.sh_flags(endian).0;
        let alloc = sh_flags & elf::SHF_ALLOC.0 != 0;
        // llc marks the metadata note allocated in AMDHSA objects but not in PAL ones.
        if sh_type == elf::SHT_NOTE && (alloc || pal) {
            let bytes = s
                .data()
                .map_err(|e| error(name.clone(), format!("section data: {e}")))?;
            note = Some((name, bytes.to_vec()));
            continue;
        }
        if !alloc || s.size() == 0 {
            continue;
        }
        let exec = sh_flags & elf::SHF_EXECINSTR.0 != 0;
        let bytes = if s.kind() == SectionKind::UninitializedData {
            if s.size() > MAX_SECTION_BYTES {
                return Err(error(
                    name,
                    format!(
                        "{} bytes, more than the {MAX_SECTION_BYTES} gpuabi allocates",
                        s.size()
                    ),
                ));
            }
            vec![0; s.size() as usize]
        } else {
            s.data()
                .map_err(|e| error(name.clone(), format!("section data: {e}")))?
                .to_vec()
        };
        let section = Section {
            name: name.clone(),
            bytes,
            align: s.align().max(1),
            relocations: Vec::new(),
        };
        if exec {
            if text.is_some() {
                return Err(error(
                    name,
                    "a second executable section; gpuabi runs objects whose code is all in .text",
                ));
            }
            text = Some((s.index().0, section));
        } else {
            data_sections.push((s.index().0, section));
        }
    }
    let (text_index, mut text) =
        text.ok_or_else(|| error("section headers", "the object has no .text section"))?;

    // Symbols, with places by section.
    let mut symbols = Vec::new();
    let mut by_elf_index = std::collections::HashMap::new();
    for sym in file.symbols() {
        let place = match sym.section() {
            SymbolSection::Section(i) if i.0 == text_index => Place::Text,
            SymbolSection::Section(i) => match data_sections.iter().position(|d| d.0 == i.0) {
                Some(d) => Place::Data(d),
                None => Place::Undefined,
            },
            SymbolSection::Absolute => Place::Absolute,
            _ => Place::Undefined,
        };
        let section_symbol = sym.kind() == SymbolKind::Section;
        let name = if section_symbol {
            match sym
                .section_index()
                .and_then(|i| file.section_by_index(i).ok())
            {
                Some(s) => s.name().unwrap_or("").to_string(),
                None => String::new(),
            }
        } else {
            sym.name().unwrap_or("").to_string()
        };
        by_elf_index.insert(sym.index().0, symbols.len());
        symbols.push(Symbol {
            name,
            place,
            value: sym.address(),
            size: sym.size(),
            function: sym.kind() == SymbolKind::Text,
            section_symbol,
        });
    }

    // Relocations of the kept sections.
    for s in file.sections() {
        let index = s.index().0;
        let name = section_name(&s);
        let target_section = if index == text_index {
            &mut text
        } else if let Some(d) = data_sections.iter_mut().find(|d| d.0 == index) {
            &mut d.1
        } else {
            continue;
        };
        for (offset, r) in s.relocations() {
            let place = section_place(&name, offset);
            let RelocationFlags::Elf { r_type } = r.flags() else {
                return Err(error(place, "not an ELF relocation"));
            };
            let r_type = r_type.0;
            let kind = RelocKind::from_r_type(r_type).ok_or_else(|| {
                error(
                    place.clone(),
                    format!("relocation type {r_type} is not one gpuabi applies"),
                )
            })?;
            let RelocationTarget::Symbol(sym) = r.target() else {
                return Err(error(place, "relocation without a symbol"));
            };
            let symbol = *by_elf_index.get(&sym.0).ok_or_else(|| {
                error(
                    place.clone(),
                    format!("relocation names symbol {}, which is not in .symtab", sym.0),
                )
            })?;
            let end = offset.checked_add(kind.bytes());
            if end.is_none_or(|e| e > target_section.bytes.len() as u64) {
                return Err(error(
                    place,
                    format!(
                        "{} writes past the end of the section ({} bytes)",
                        kind.name(),
                        target_section.bytes.len()
                    ),
                ));
            }
            target_section.relocations.push(Relocation {
                offset,
                kind,
                symbol,
                addend: r.addend(),
            });
        }
    }
    let data: Vec<Section> = data_sections.into_iter().map(|d| d.1).collect();

    // Kernels: the metadata joined with the descriptors.
    let (note_name, note_bytes) = note.ok_or_else(|| {
        error(
            "section headers",
            "no .note section with the code object metadata",
        )
    })?;
    if pal {
        let (at, value) = metadata_note_value(&note_bytes).map_err(|(offset, message)| {
            error(section_place(&note_name, offset as u64), message)
        })?;
        let shader = crate::pal::read_metadata(&value, target).map_err(|e| {
            error(
                section_place(&note_name, at as u64),
                format!("PAL metadata: {}", e.message),
            )
        })?;
        return Ok(CodeObject {
            processor,
            target,
            text,
            data,
            symbols,
            kernels: Vec::new(),
            pal: Some(shader),
        });
    }
    let metadata = read_metadata_note(&note_bytes)
        .map_err(|(offset, message)| error(section_place(&note_name, offset as u64), message))?;
    let mut kernels = Vec::new();
    for m in metadata {
        let kd = symbols
            .iter()
            .find(|s| s.name == m.symbol && !s.section_symbol)
            .ok_or_else(|| {
                error(
                    "metadata",
                    format!(
                        "kernel `{}`: no symbol `{}` for its descriptor",
                        m.name, m.symbol
                    ),
                )
            })?;
        let Place::Data(d) = kd.place else {
            return Err(error(
                "metadata",
                format!(
                    "kernel `{}`: `{}` is not in a data section",
                    m.name, m.symbol
                ),
            ));
        };
        let section = &data[d];
        let place = section_place(&section.name, kd.value);
        let bytes: [u8; KERNEL_DESCRIPTOR_BYTES] = usize::try_from(kd.value)
            .ok()
            .and_then(|at| {
                section
                    .bytes
                    .get(at..at.checked_add(KERNEL_DESCRIPTOR_BYTES)?)
            })
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| {
                error(
                    place.clone(),
                    format!(
                        "kernel descriptor `{}` does not fit its section ({} bytes)",
                        m.symbol,
                        section.bytes.len()
                    ),
                )
            })?;
        let wave = descriptor::wave_of(&bytes);
        if !target.supports(wave) {
            return Err(error(
                place,
                format!(
                    "kernel descriptor `{}` asks for {wave} on {target}",
                    m.symbol
                ),
            ));
        }
        if !symbols
            .iter()
            .any(|s| s.name == m.name && s.place == Place::Text)
        {
            return Err(error(
                "metadata",
                format!("kernel `{}` has no symbol in .text", m.name),
            ));
        }
        let kernel = Kernel {
            name: m.name,
            descriptor: read_descriptor(&bytes, target),
            args: m.args,
            kernarg_size: m.kernarg_segment_size,
        };
        kernels.push(ObjectKernel {
            kernel,
            wave,
            uses_dynamic_stack: uses_dynamic_stack(&bytes),
        });
    }
    Ok(CodeObject {
        processor,
        target,
        text,
        data,
        symbols,
        kernels,
        pal: None,
    })
}
