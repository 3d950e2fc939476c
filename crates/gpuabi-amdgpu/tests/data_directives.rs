//! The data directives of GNU as and llvm-mc (`.data`, `.pushsection`, `.ascii`, `.float`,
//! `.uleb128`, `.balign`, `.space`, ...): the bytes gpuabi puts in each section must equal
//! the bytes llvm-mc-19 puts in the same section of its object, and the printed program
//! must fill its sections the same way.

mod common;

use std::collections::BTreeMap;

use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::{Target, WaveSize};
use object::{Object, ObjectSection};

/// Every directive of the data family, in several sections, with section switches by
/// name, by stack and by `.previous`.
const DATA: &str = r#"	.text
	s_endpgm
	.data
	.byte 1, 2, 0xff
	.balign 8
	.value 0x1234, -2
	.2byte 7
	.4byte 0x89abcdef
	.int -1
	.8byte 0x0123456789abcdef
	.section .rodata
	.ascii "ab\n\t\\\"\101\x42"
	.asciz "zero"
	.string "s"
	.p2align 2
	.float 1.5, -0.25, 3
	.double 2.0e-3, -1
	.pushsection .data.extra
	.uleb128 0, 127, 128, 624485
	.sleb128 -1, 63, 64, -64, -65, -123456
	.popsection
	.space 3
	.skip 2, 0x7f
	.align 16
	.byte 9
	.previous
	.zero 5
	.data
	.quad 42
	.text
	s_nop 0
	.end
	.byte 99
"#;

/// The bytes of every non-empty allocated data section of an object, by name.
fn object_sections(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let file = object::File::parse(bytes).unwrap();
    file.sections()
        .filter_map(|s| {
            let name = s.name().ok()?.to_string();
            let data = s.data().ok()?.to_vec();
            (name.starts_with(".data") || name.starts_with(".rodata")).then_some((name, data))
        })
        .filter(|(_, d)| !d.is_empty())
        .collect()
}

/// The bytes gpuabi puts in every data section of `text`.
fn gpuabi_sections(text: &str, target: Target) -> BTreeMap<String, Vec<u8>> {
    let program = parse(text, target, WaveSize::W64).unwrap_or_else(|e| panic!("{e}"));
    program
        .data_sections()
        .into_iter()
        .map(|s| (s.name, s.bytes))
        .collect()
}

#[test]
fn data_directives_fill_sections_as_llvm_mc_does() {
    let target = Target::Gfx8;
    let ours = gpuabi_sections(DATA, target);
    // The hand count of the `.data` bytes: 3 bytes aligned to 8, 3 shorts, 2 longs, one
    // quad, then the 5 zeros after `.previous` (which, after `.popsection` restored
    // `.rodata`, returns to the section before it: `.data`) and `.quad 42`.
    assert_eq!(ours[".data"].len(), 8 + 6 + 8 + 8 + 5 + 8);
    assert_eq!(ours[".data.extra"][..6], [0, 0x7f, 0x80, 0x01, 0xe5, 0x8e]);
    if !common::llvm_mc_available() {
        return;
    }
    let object = common::assemble(DATA, target, WaveSize::W64, "data_directives").unwrap();
    assert_eq!(ours, object_sections(&object));

    // The printed program fills the same sections.
    let printed = print(&parse(DATA, target, WaveSize::W64).unwrap());
    assert_eq!(
        gpuabi_sections(&printed, target),
        ours,
        "printed:\n{printed}"
    );
    let object = common::assemble(&printed, target, WaveSize::W64, "data_printed").unwrap();
    assert_eq!(object_sections(&object), ours, "printed:\n{printed}");
}

#[test]
fn bad_data_directives_name_the_place() {
    let cases = [
        (
            "\t.data\n\t.ascii \"a\\q\"\n",
            "2:9",
            "unknown escape `\\q`",
        ),
        ("\t.data\n\t.ascii 5\n", "2:", "expected a quoted string"),
        ("\t.data\n\t.uleb128 -1\n", "2:", "unsigned"),
        ("\t.data\n\t.balign 3\n", "2:", "power of two"),
        ("\t.popsection\n", "1:", "without a section to go back to"),
        ("\t.previous\n", "1:", "without a section to go back to"),
        ("\t.reloc 0, R_AMDGPU_ABS32, x\n", "1:", "relocation"),
        ("\t.data\n\t.space 0x7fffffff\n", "2:", "MiB"),
        ("\t.frobnicate\n", "1:", "unknown directive `.frobnicate`"),
    ];
    for (text, place, message) in cases {
        let err = parse(text, Target::Gfx8, WaveSize::W64)
            .expect_err(text)
            .to_string();
        assert!(
            err.contains(place) && err.contains(message),
            "{text:?}: {err}"
        );
    }
}
