//! Mesa's ACO disassembly read unchanged: `BBn:` labels, the encoding ACO lists after each
//! instruction, `(then repeated N times)`, and the bits the hardware ignores that ACO sets
//! differently from llvm-mc. The instruction lines and their listed dwords are RADV's
//! (Mesa 26.1.6, the "Assembly" representation of `VK_KHR_pipeline_executable_properties`),
//! arranged into small programs; a branch's listing is worked out by hand for its program.

use gpuabi_amdgpu::asm::listing::adopt;
use gpuabi_amdgpu::asm::{parse, parse_listed, print};
use gpuabi_amdgpu::{decode, dont_care, encode, Item, Target, WaveSize};

/// The dwords of a listing, as little-endian bytes.
fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A miss function for gfx1100 as RADV printed it, with a repeated `s_nop` and a scratch
/// store whose unused ADDR field ACO sets to 0x80 (llvm-mc: 0).
const GFX1100: &str = "\
BB0:
\ts_or_saveexec_b32 s15, -1                                   ; be8f22c1
\tscratch_store_b32 off, v95, s4 offset:108                   ; dc69006c 00045f80
\ts_mov_b32 exec_lo, s15                                      ; befe000f
\ts_cbranch_execz BB2                                         ; bfa50003
BB1:
\ts_nop 0                                                     ; bf800000
\t(then repeated 2 times)
BB2:
\ts_setpc_b64 s[2:3]                                          ; be804802
";

#[test]
fn aco_text_assembles_to_the_listed_bytes() {
    let program = parse(GFX1100, Target::Gfx1100, WaveSize::W32).expect("ACO's text parses");
    // The repeat adds two more `s_nop 0`: 3 in all.
    let nops = program
        .insts()
        .filter(|i| i.op == gpuabi_amdgpu::Opcode::SNop)
        .count();
    assert_eq!(nops, 3);
    let expected = bytes(&[
        0xbe8f22c1, 0xdc69006c, 0x00045f80, 0xbefe000f, 0xbfa50003, 0xbf800000, 0xbf800000,
        0xbf800000, 0xbe804802,
    ]);
    assert_eq!(encode(&program).unwrap(), expected);
}

#[test]
fn ignored_bits_survive_decoding_and_printing() {
    // gfx1030: `scratch_load_dword v63, off, s4 offset:24` with ADDR = 0x80 (ACO), and
    // gfx8: `s_waitcnt lgkmcnt(0)` with SIMM16 bits 15:14 set (ACO writes 0xc07f; the
    // counters occupy bits 3:0, 6:4 and 11:8 only).
    for (target, wave, words, text) in [
        (
            Target::Gfx1030,
            WaveSize::W32,
            &[0xdc304018u32, 0x3f040080][..],
            "scratch_load_dword v63, off, s4 offset:24",
        ),
        (
            Target::Gfx8,
            WaveSize::W64,
            &[0xbf8cc07f][..],
            "s_waitcnt lgkmcnt(0)",
        ),
        (
            Target::Gfx8,
            WaveSize::W64,
            &[0xe0700000, 0x80000180][..],
            "buffer_store_dword v1, off, s[0:3], 0",
        ),
    ] {
        let code = bytes(words);
        let program = decode(&code, target, wave).expect("ACO's bytes decode");
        let inst = program.insts().next().unwrap();
        assert_ne!(inst.dont_care, 0, "{text}");
        assert_eq!(
            inst.dont_care & !dont_care::mask(inst, target),
            0,
            "{text}: only ignored bits are kept"
        );
        assert_eq!(encode(&program).unwrap(), code, "{text}");
        let printed = print(&program);
        assert!(printed.contains(text), "{printed}");
        // The printed listing carries the bits back through the parser.
        let again = parse(&printed, target, wave).unwrap();
        assert_eq!(encode(&again).unwrap(), code, "{printed}");
        // Without the listing, the text encodes as llvm-mc encodes it.
        let plain = parse(text, target, wave).unwrap();
        assert_ne!(encode(&plain).unwrap(), code, "{text}");
    }
}

#[test]
fn a_listing_that_differs_in_bits_that_matter_is_reported_not_taken() {
    // `s_mov_b32 s16, s5` is be900005; the listing names s6 (be900006).
    let text = "\ts_mov_b32 s16, s5 ; be900006\n\ts_mov_b32 s17, s5 ; be910005\n";
    let (mut program, listed) = parse_listed(text, Target::Gfx1100, WaveSize::W32).unwrap();
    assert_eq!(listed.len(), 2);
    let mismatches = adopt(&mut program, &listed);
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].line, 1);
    assert_eq!(mismatches[0].listed, bytes(&[0xbe900006]));
    assert_eq!(mismatches[0].ours, Ok(bytes(&[0xbe900005])));
    // As a comment, the listing does not change the program.
    let program = parse(text, Target::Gfx1100, WaveSize::W32).unwrap();
    assert_eq!(encode(&program).unwrap(), bytes(&[0xbe900005, 0xbe910005]));
}

#[test]
fn comments_that_are_not_listings_are_comments() {
    for comment in [
        "; be90000",
        "; be900005 x",
        "; 0xbe900005",
        "; encoding: [0x05]",
    ] {
        let text = format!("\ts_mov_b32 s16, s5 {comment}\n");
        let (_, listed) = parse_listed(&text, Target::Gfx1100, WaveSize::W32).unwrap();
        assert!(listed.is_empty(), "{comment}");
    }
}

#[test]
fn bad_repeat_lines_are_errors_at_their_place() {
    for (text, line, message) in [
        (
            "BB0:\n\t(then repeated 2 times)\n",
            2,
            "follows no instruction",
        ),
        (
            "\ts_nop 0\n\t(then repeated two times)\n",
            2,
            "expected a count",
        ),
        (
            "\ts_nop 0\n\t(then repeated 99999999999 times)\n",
            2,
            "more than",
        ),
    ] {
        let e = parse(text, Target::Gfx1100, WaveSize::W32).unwrap_err();
        assert_eq!(e.line, line, "{text}: {e}");
        assert_eq!(e.column, 2, "{text}: {e}");
        assert!(e.message.contains(message), "{text}: {e}");
    }
}

#[test]
fn a_repeat_copies_the_listing_too() {
    let text = "\ts_nop 0 ; bf800000\n\t(then repeated 3 times)\n";
    let (program, listed) = parse_listed(text, Target::Gfx1030, WaveSize::W32).unwrap();
    assert_eq!(listed.len(), 4);
    assert!(listed[1..].iter().all(|l| l.line == 2));
    assert!(listed
        .iter()
        .all(|l| matches!(program.items[l.item].item, Item::Inst(_))));
}
