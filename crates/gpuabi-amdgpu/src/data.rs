//! The data sections of a program (`.rodata`, `.data`, `.bss`, ...): their bytes, the
//! labels in them and the places where a label's address is to be filled in, so that a
//! loader (the simulator) can place them in memory.

use crate::operand::Expr;
use crate::program::{is_code_section, DataValue, Directive, Item, Program, MAX_P2ALIGN};

/// One data section as the program's directives fill it; sections of the same name are
/// one section, continued where the last part ended (as LLVM's assembler appends them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSection {
    /// The section name (`.rodata`).
    pub name: String,
    /// The largest alignment a `.p2align` in it asks for, in bytes (at least 1).
    pub align: u32,
    /// Its contents, with 0 where an address is to be filled in.
    pub bytes: Vec<u8>,
    /// Labels defined in it with their offsets.
    pub labels: Vec<(String, u32)>,
    /// Values that are label addresses.
    pub fixups: Vec<DataFixup>,
}

/// A value of a data directive that is a label's address plus an addend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFixup {
    /// Byte offset in the section.
    pub offset: u32,
    /// Bytes of the value (the low bytes of the 64-bit address).
    pub size: u8,
    /// The label and addend.
    pub expr: Expr,
}

impl Program {
    /// The data sections in order of first appearance; sections without bytes and labels
    /// (such as `.note.GNU-stack`) are left out. The parser bounds every section by
    /// [`crate::program::MAX_DATA_BYTES`].
    pub fn data_sections(&self) -> Vec<DataSection> {
        let mut sections: Vec<DataSection> = Vec::new();
        let mut current: Option<usize> = None;
        for entry in &self.items {
            let item = &entry.item;
            match item {
                Item::Directive(Directive::Text) => current = None,
                Item::Directive(Directive::Section { name, .. }) => {
                    current = if is_code_section(name) {
                        None
                    } else if let Some(i) = sections.iter().position(|s| &s.name == name) {
                        Some(i)
                    } else {
                        sections.push(DataSection {
                            name: name.clone(),
                            align: 1,
                            bytes: Vec::new(),
                            labels: Vec::new(),
                            fixups: Vec::new(),
                        });
                        Some(sections.len() - 1)
                    };
                }
                _ => {
                    let Some(i) = current else { continue };
                    let s = &mut sections[i];
                    let at = s.bytes.len() as u32;
                    match item {
                        Item::Label(name) => s.labels.push((name.clone(), at)),
                        Item::Directive(Directive::P2align(n)) => {
                            let align = 1u32 << (*n).min(MAX_P2ALIGN);
                            s.align = s.align.max(align);
                            s.bytes.resize(at.next_multiple_of(align) as usize, 0);
                        }
                        Item::Directive(d) => {
                            if let Directive::P2alignFill { power, .. } = d {
                                s.align = s.align.max(1u32 << (*power).min(MAX_P2ALIGN));
                            }
                            if let Directive::Data { size, values } = d {
                                for (k, v) in values.iter().enumerate() {
                                    if let DataValue::Expr(e) = v {
                                        s.fixups.push(DataFixup {
                                            offset: at + k as u32 * u32::from(*size),
                                            size: *size,
                                            expr: e.clone(),
                                        });
                                    }
                                }
                            }
                            s.bytes.extend(d.code_bytes(at));
                        }
                        // The parser refuses instructions outside code sections.
                        Item::Inst(_) => {}
                    }
                }
            }
        }
        sections.retain(|s| !s.bytes.is_empty() || !s.labels.is_empty());
        sections
    }
}
