//! The assembler and decoder on hand-made input: encodings worked out bit by bit from
//! applegpu's field descriptions, labels, implicit effects and error messages.

use gpuabi_agx_isa::{
    assemble, assemble_one, build, decode, decode_one, DecodeError, Effects, Fields, Opcode,
    Operand, OperandKind,
};

#[test]
fn hand_encoded_instructions() {
    // mov_imm/ldimm: opcode 0x62 in bits 0..6, destination half in 9..14, immediate at 16.
    // iadd: opcode 0x0e; A (immediate 0) at 16, B (r1l = half 2, type 1) at 28, lsl 1 in 39.
    // while: opcode 0x52, op 2 in 9..10, n = 1 in 11..12, ult = 1 in 13..15.
    // jmp_any: 0xc000 and a 32-bit offset; pop_exec: op 3, n in 11..12.
    let cases: [(&str, &[u8]); 7] = [
        ("ldimm r0l, 0", &[0x62, 0x00, 0x00, 0x00]),
        ("ldimm r1l, 1", &[0x62, 0x04, 0x01, 0x00]),
        (
            "iadd r1l, 0, r1l, lsl 1",
            &[0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00],
        ),
        (
            "while r1l, 15, 1, ult",
            &[0x52, 0x2c, 0x42, 0xf0, 0x00, 0x00],
        ),
        ("jmp_any -100", &[0x00, 0xc0, 0x9c, 0xff, 0xff, 0xff]),
        ("pop_exec 1", &[0x52, 0x0e, 0, 0, 0, 0]),
        ("stop", &[0x88, 0x00]),
    ];
    for (text, bytes) in cases {
        let ins = assemble_one(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(ins.bytes(), bytes, "{text}");
        let back = decode_one(bytes, 0).unwrap();
        let words: Vec<&str> = text.split_whitespace().collect();
        let printed = back.to_string();
        assert_eq!(printed.split_whitespace().collect::<Vec<_>>(), words);
    }
}

#[test]
fn build_from_fields() {
    let op = |n| Opcode::by_name(n).unwrap();
    let pop = Fields {
        imms: vec![1],
        mods: vec![0],
        ..Fields::default()
    };
    assert_eq!(
        build(op("pop_exec"), &pop).unwrap().bytes(),
        [0x52, 0x0e, 0, 0, 0, 0]
    );
    // ldimm r1l, 1: the 4-byte form; r40l needs the 6-byte form's extension bits.
    let ldimm = |half| Fields {
        dests: vec![Some(Operand::gpr(half, 16))],
        imms: vec![1],
        ..Fields::default()
    };
    assert_eq!(
        build(op("ldimm16"), &ldimm(2)).unwrap().bytes(),
        [0x62, 0x04, 0x01, 0x00]
    );
    assert_eq!(build(op("ldimm16"), &ldimm(80)).unwrap().length, 6);
    // An immediate source where the row only takes registers: no encoding.
    let bad = Fields {
        dests: vec![Some(Operand::plain(OperandKind::Imm(3)))],
        imms: vec![1],
        ..Fields::default()
    };
    assert!(build(op("ldimm16"), &bad).is_err());
    assert!(build(op("ldimm16"), &Fields::default()).is_err());
}

#[test]
fn applegpu_names_are_aliases() {
    let a = assemble_one("mov_imm r1l, 1").unwrap();
    assert_eq!(a.bytes(), [0x62, 0x04, 0x01, 0x00]);
    assert_eq!(a.to_string(), "ldimm    r1l, 1");
    let j = assemble_one("jmp_exec_any -100").unwrap();
    assert_eq!(j.bytes(), [0x00, 0xc0, 0x9c, 0xff, 0xff, 0xff]);
}

#[test]
fn printed_text_is_padded_like_mesa() {
    let ins = assemble_one("pop_exec 1").unwrap();
    assert_eq!(ins.to_string(), "pop_exec 1");
    let ins = assemble_one("if   r6,0,  1 , ieq").unwrap();
    assert_eq!(ins.to_string(), "if       r6, 0, 1, ieq");
    assert_eq!(assemble_one("stop").unwrap().to_string(), "stop");
}

#[test]
fn branch_labels_are_byte_offsets_from_the_branch() {
    let src = "top:\n  ldimm r0l, 0   ; 4 bytes\n  jmp_any top\n  jmp_none out // 6 bytes\n  stop\nout: stop\n";
    let p = assemble(src, "t.s").unwrap();
    let numeric = assemble("ldimm r0l, 0\njmp_any -4\njmp_none 8\nstop\nstop\n", "n.s").unwrap();
    assert_eq!(p.bytes, numeric.bytes);
    assert_eq!(p.instructions.len(), 5);
    assert_eq!(p.instructions[2].0, 10);
    assert_eq!(p.instructions[2].1, 4);
}

#[test]
fn effects_are_in_the_table() {
    let e = |n: &str| Opcode::by_name(n).unwrap().effects();
    assert!(e("if_icmp").contains(Effects::EXEC));
    assert!(e("pop_exec").contains(Effects::EXEC));
    assert!(e("load").contains(Effects::MEM_READ));
    assert!(e("store").contains(Effects::MEM_WRITE));
    assert!(e("st_tile").contains(Effects::MEM_WRITE));
    assert!(e("jmp_any").contains(Effects::BRANCH));
    assert!(e("stop").contains(Effects::STOP));
    assert_eq!(e("iadd"), Effects::NONE);
    assert!(Opcode::all().count() > 100);
}

#[test]
fn decode_errors_name_the_byte_offset() {
    // stop (2 bytes), then 0x01 0x00, which no row claims.
    let err = decode(&[0x88, 0x00, 0x01, 0x00]).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Unknown {
            offset: 2,
            bytes: "0100".into()
        }
    );
    assert!(err.to_string().starts_with("byte offset 2:"), "{err}");
    // A 6-byte pop_exec cut after 4 bytes.
    let err = decode(&[0x88, 0x00, 0x52, 0x0e, 0x00, 0x00]).unwrap_err();
    assert!(
        matches!(
            err,
            DecodeError::Truncated {
                offset: 2,
                length: 6,
                left: 4,
                ..
            }
        ),
        "{err}"
    );
    // pop_exec with a stray bit 13 set.
    let err = decode_one(&[0x52, 0x2e, 0, 0, 0, 0], 8).unwrap_err();
    assert!(err.to_string().contains("byte offset 8"), "{err}");
}

#[test]
fn assembly_errors_name_file_line_and_column() {
    let e = assemble("stop\n  frob r0, r1\n", "a.s").unwrap_err();
    assert_eq!((e.file.as_str(), e.line, e.column), ("a.s", 2, 3));
    assert!(e.message.contains("unknown mnemonic `frob`"), "{e}");

    let e = assemble("iadd r0, r1, bogus\n", "b.s").unwrap_err();
    assert_eq!((e.line, e.column), (1, 14), "{e}");
    assert!(e.message.contains("`bogus`"), "{e}");

    let e = assemble("load r0, du8, 0, i32, xy, q\n", "c.s").unwrap_err();
    assert_eq!(e.column, 27, "{e}");

    let e = assemble("x: stop\nx: stop\n", "d.s").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(
        e.to_string()
            .starts_with("d.s:2:1: label `x` is defined twice"),
        "{e}"
    );

    let e = assemble("jmp_any nowhere\n", "e.s").unwrap_err();
    assert!(e.message.contains("label"), "{e}");

    let e = assemble("ldimm r0l, 70000\n", "f.s").unwrap_err();
    assert_eq!(e.column, 12, "{e}");

    let e = assemble("iadd r0, , r1\n", "g.s").unwrap_err();
    assert_eq!(e.column, 10, "{e}");
    assert!(e.message.starts_with("empty operand"), "{e}");
}

#[test]
fn a_coordinates_last_use_is_bit_22() {
    // Honeykrisp's background program (Mesa's own disassembly): the coordinate operand's
    // field is bits 16:21 74:75 22 47 (Mesa's `AGX2.xml`), whose bit 8, the `lu` modifier,
    // lands on bit 22 (byte 2, 0x40) and prints `^`.
    let with: [u8; 8] = [0x71, 0x01, 0x40, 0x00, 0x00, 0xe2, 0x0f, 0x00];
    let text = "smpi     r0_r1_r2_r3, ts0, ss0, ^r0l, 0, 2d, xyzw, auto_lod, a";
    let ins = decode_one(&with, 0).unwrap();
    assert_eq!(ins.to_string(), text);
    assert_eq!(assemble_one(text).unwrap().bytes(), with);
    let mut without = with;
    without[2] = 0;
    assert_eq!(
        assemble_one("smpi r0_r1_r2_r3, ts0, ss0, r0l, 0, 2d, xyzw, auto_lod, a")
            .unwrap()
            .bytes(),
        without
    );
    // The coordinate has no cache bit.
    let e = assemble_one("smpi r0_r1_r2_r3, ts0, ss0, $r0l, 0, 2d, xyzw, auto_lod, a");
    assert!(e.is_err(), "{e:?}");
}
