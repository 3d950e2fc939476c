//! RDNA 4's ray-tracing instructions, which llvm-mc-19 does not know, against encodings
//! written down by hand from two independent sources: the dwords Mesa's ACO printed for them
//! in RADV's captures (Mesa 26.1.6 on gfx1201, `RADV_DEBUG=asm`: the "Assembly" of the
//! intersection functions of the `plain` pipeline), and the encodings LLVM's own tests give
//! (llvm/test/MC/AMDGPU/gfx12_asm_vimage.s, LLVM 20 and later). The DS forms ACO did not use
//! are worked out by hand from the DS layout (Mesa's `emit_ds_instruction` in
//! `aco_assembler.cpp`: OP at 25:18, ADDR, DATA0, DATA1 and VDST one byte each in the second
//! dword) and the opcode numbers of Mesa's `aco_opcodes.py`.
//!
//! Also the reading of Mesa's listings, in which LLVM 19 prints these instructions as
//! `(invalid instruction)` lines followed by their remaining dwords disassembled as
//! something else.

use gpuabi_amdgpu::asm::listing::adopt;
use gpuabi_amdgpu::asm::{parse, parse_listed, print};
use gpuabi_amdgpu::{decode, encode, Opcode, Target, WaveSize};

/// The dwords as little-endian bytes.
fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// (text, expected dwords, where the dwords come from)
const CASES: &[(&str, &[u32], &str)] = &[
    (
        "image_bvh8_intersect_ray v[78:87], [v[76:77], v[44:45], v[48:50], v[51:53], v1], s[20:23]",
        &[0xd3e04010, 0x0100284e, 0x33302c4c],
        "ACO, gfx1201 plain/06_intersection",
    ),
    (
        // [0x10,0x00,0xe0,0xd3,0x00,0x00,0x00,0x09,0x00,0x0b,0x03,0x06]
        "image_bvh_dual_intersect_ray v[0:9], [v[0:1], v[11:12], v[3:5], v[6:8], v[9:10]], s[0:3]",
        &[0xd3e00010, 0x09000000, 0x06030b00],
        "LLVM, gfx12_asm_vimage.s",
    ),
    (
        "ds_bvh_stack_push8_pop1_rtn_b32 v57, v43, v57, v[78:85] offset:16",
        &[0xdb840010, 0x394e392b],
        "ACO, gfx1201 plain/06_intersection",
    ),
    (
        // OP 0xe2 << 18 = 0x03880000; ADDR 253, DATA0 252, DATA1 244, VDST 254.
        "ds_bvh_stack_push8_pop2_rtn_b64 v[254:255], v253, v252, v[244:251]",
        &[0xdb880000, 0xfef4fcfd],
        "by hand",
    ),
    (
        // OP 0xe0 << 18 = 0x03800000; offset 64; ADDR 0, DATA0 1, DATA1 2, VDST 1.
        "ds_bvh_stack_push4_pop1_rtn_b32 v1, v0, v1, v[2:5] offset:64",
        &[0xdb800040, 0x01020100],
        "by hand",
    ),
];

#[test]
fn bvh_instructions_encode_as_aco_and_llvm_do() {
    for (text, words, source) in CASES {
        let program = parse(&format!("\t{text}\n"), Target::Gfx12, WaveSize::W32)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            encode(&program).unwrap(),
            bytes(words),
            "{text} (expected from {source})"
        );
    }
}

#[test]
fn bvh_instructions_decode_to_the_text_they_encode_from() {
    for (text, words, _) in CASES {
        let program = decode(&bytes(words), Target::Gfx12, WaveSize::W32)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(print(&program).trim(), *text);
    }
}

#[test]
fn rdna4_bvh_address_is_five_bracketed_entries() {
    // A single tuple reads as RDNA 3's address; VIMAGE names each entry.
    let err = parse(
        "\timage_bvh8_intersect_ray v[0:9], v[10:20], s[0:3]\n",
        Target::Gfx12,
        WaveSize::W32,
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (1, 35), "{err}");
    assert!(err.message.contains("2 + 2 + 3 + 3 + 1"), "{err}");
    // The instructions are RDNA 4's alone.
    assert!(parse(
        "\tds_bvh_stack_push8_pop1_rtn_b32 v1, v0, v1, v[2:9]\n",
        Target::Gfx1100,
        WaveSize::W32
    )
    .is_err());
}

/// Lines of ACO's listing of the `plain` pipeline's intersection function on gfx1201: the
/// box test, printed by LLVM 19 as two `(invalid instruction)` lines and its third dword as
/// a `v_lshrrev_b32_e32`, and the BVH stack, one `(invalid instruction)` and a `v_or_b32`.
const LISTING: &str = "\
BB0:
\tv_ashrrev_i32_e32 v45, 24, v13                              ; 345a1a98
(invalid instruction)                                        ; d3e04010
(invalid instruction)                                        ; 0100284e
\tv_lshrrev_b32_e32 v152, s76, v22                            ; 33302c4c
\tv_add_co_u32 v0, s26, v54, v1                               ; d7001a00 00020336
\ts_wait_bvhcnt 0x0                                           ; bfc30000
(invalid instruction)                                        ; db840010
\tv_or_b32_e32 v167, v43, v28                                 ; 394e392b
\ts_mov_b32 s18, s28                                          ; be92001c
";

#[test]
fn invalid_instruction_lines_read_as_the_instruction_their_dwords_encode() {
    let (mut program, listed) =
        parse_listed(LISTING, Target::Gfx12, WaveSize::W32).expect("the listing reads");
    assert!(adopt(&mut program, &listed).is_empty());
    let ops: Vec<Opcode> = program.insts().map(|i| i.op).collect();
    assert_eq!(
        ops,
        [
            Opcode::VAshrrevI32,
            Opcode::ImageBvh8IntersectRay,
            Opcode::VAddCoU32,
            Opcode::SWaitBvhcnt,
            Opcode::DsBvhStackPush8Pop1RtnB32,
            Opcode::SMovB32,
        ]
    );
    // The box test is listed on line 3 with its three dwords, the stack on line 8 with two.
    let lines: Vec<(usize, usize)> = listed.iter().map(|l| (l.line, l.words.len())).collect();
    assert_eq!(lines, [(2, 1), (3, 3), (6, 2), (7, 1), (8, 2), (10, 1)]);
    let words: Vec<u32> = [
        0x345a1a98, 0xd3e04010, 0x0100284e, 0x33302c4c, 0xd7001a00, 0x00020336, 0xbfc30000,
        0xdb840010, 0x394e392b, 0xbe92001c,
    ]
    .to_vec();
    assert_eq!(encode(&program).unwrap(), bytes(&words));
}

#[test]
fn invalid_instruction_lines_that_name_nothing_are_refused_where_they_are() {
    let cases = [
        // An unknown VIMAGE opcode (0x82 at 21:14).
        (
            "\ts_nop 0 ; bf800000\n  (invalid instruction) ; d3e08010 00000000 00000000\n",
            (2, 3),
            "no instruction gpuabi models on gfx12",
        ),
        // A DS word of two dwords whose second line lists two.
        (
            "(invalid instruction) ; db840010\n\tv_add_co_u32 v0, s26, v54, v1 ; d7001a00 00020336\n",
            (1, 1),
            "end inside the encoding listed on line 2",
        ),
        // No dwords to read.
        (
            "(invalid instruction)\n",
            (1, 1),
            "without its encoding",
        ),
        // The rest of the instruction is missing.
        (
            "(invalid instruction) ; d3e04010\n(invalid instruction) ; 0100284e\nBB1:\n",
            (1, 1),
            "truncated",
        ),
    ];
    for (text, at, says) in cases {
        let err = parse(text, Target::Gfx12, WaveSize::W32).unwrap_err();
        assert_eq!((err.line, err.column), at, "{err}");
        assert!(err.message.contains(says), "{err}");
    }
}
