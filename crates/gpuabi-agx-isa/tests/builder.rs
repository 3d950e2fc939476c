//! The instruction builder against the assembler: an instruction built from typed operands
//! encodes to the bytes the assembler gives for its printed text, for words of every row
//! of the table and for every instruction of Mesa's captured Honeykrisp parts; labels are
//! patched as the assembler resolves them; bad operands are errors, not panics.
//!
//! The typed operands are read from decoded instructions here, in the printed order the
//! test lays out itself (destinations, present sources, immediates, non-default modifiers
//! with the table's texts), so the builder never sees text.

use std::path::Path;

use gpuabi_agx_isa::def::ModKind;
use gpuabi_agx_isa::regs::{du, r, rl, rs, u};
use gpuabi_agx_isa::{
    args, assemble, assemble_one, build_instruction, decode, decode_one, Arg, Builder, Instruction,
    Opcode, Operand, OperandKind, RegFile,
};

/// xorshift64*: a fixed, dependency-free stream of test words.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// An operand as its text means it: a tuple of no registers (a load or store with channel
/// mask `none`) prints as nothing, which reads as r0.
fn as_printed(o: Operand) -> Arg {
    match o.kind {
        OperandKind::Reg { count: 0, .. } => Arg::Op(Operand {
            kind: OperandKind::Reg {
                file: RegFile::Gpr,
                base: 0,
                size: 16,
                count: 0,
            },
            ..o
        }),
        _ => Arg::Op(o),
    }
}

/// The operands of `ins` in printed order, typed.
fn typed(ins: &Instruction) -> Vec<Arg> {
    let def = ins.opcode.def();
    let mut out: Vec<Arg> = ins
        .dests
        .iter()
        .map(|d| d.map_or(Arg::Absent, as_printed))
        .collect();
    out.extend(ins.srcs.iter().flatten().map(|&o| as_printed(o)));
    out.extend(ins.imms.iter().map(|&v| Arg::Int(v)));
    for (m, &v) in def.mods.iter().zip(&ins.mods) {
        let text = match m.kind {
            ModKind::Flag => (v != 0).then_some(m.display),
            ModKind::Enum(e) => e.values.iter().find(|(c, _)| *c == v).and_then(|(_, t)| *t),
        };
        out.extend(text.map(Arg::Word));
    }
    out
}

/// Bit positions of a table bit list (`"16:25 42:43"`, negative from the end of `total`).
fn positions(list: &str, total: u32) -> Vec<u32> {
    let at = |s: &str| {
        let v: i64 = s.parse().unwrap();
        if v < 0 {
            (i64::from(total) + v) as u32
        } else {
            v as u32
        }
    };
    list.split_whitespace()
        .flat_map(|r| match r.split_once(':') {
            Some((a, b)) => (at(a)..=at(b)).collect::<Vec<_>>(),
            None => vec![at(r)],
        })
        .collect()
}

/// A random word with `op`'s fixed bits and nothing set outside its fields.
fn word_of(op: Opcode, seed: &mut u64) -> [u8; 12] {
    let def = op.def();
    let total = def.lengths[def.lengths.len() - 1] * 8;
    let mut known = 0u128;
    let lists = def
        .dests
        .iter()
        .chain(def.srcs)
        .map(|o| o.bits)
        .chain(def.imms.iter().map(|i| i.bits))
        .chain(def.mods.iter().map(|m| m.bits))
        .chain(def.exact.iter().map(|(b, _)| *b));
    for list in lists {
        for p in positions(list, total) {
            known |= 1 << p;
        }
    }
    if let Some(b) = def.length_bit {
        known |= 1 << b;
    }
    let mut raw = (u128::from(next(seed)) | (u128::from(next(seed)) << 64)) & known;
    for (list, value) in def.exact {
        for (k, p) in positions(list, total).into_iter().enumerate() {
            raw = (raw & !(1u128 << p)) | (u128::from((value >> k) & 1) << p);
        }
    }
    let mut bytes = [0u8; 12];
    bytes.copy_from_slice(&raw.to_le_bytes()[..12]);
    bytes
}

/// Builds `ins` from its typed operands by its mnemonic and by its row name; both must be
/// the assembler's encoding of its text, or fail where the assembler fails. A few decoded
/// words hold registers beyond their file (a uniform destination `u25744l`), which the
/// builder refuses. Returns whether the instruction was built.
fn check(ins: &Instruction) -> bool {
    let text = ins.to_string();
    let args = typed(ins);
    let beyond_file = ins.dests.iter().chain(&ins.srcs).flatten().any(|o| {
        o.tuple()
            .is_some_and(|t| t.base + t.halves() > u32::from(t.file.halves()))
    });
    if beyond_file {
        // The register model has no such register: the builder refuses it.
        assert!(
            build_instruction(ins.opcode.name(), &args).is_err(),
            "{text}"
        );
        return false;
    }
    let assembled = assemble_one(&text);
    for name in [ins.opcode.mnemonic(), ins.opcode.name()] {
        let built = build_instruction(name, &args);
        match (&assembled, built) {
            (Ok(a), Ok(b)) => {
                assert_eq!(b.bytes(), a.bytes(), "`{text}` built as {name}");
                assert_eq!(b.to_string(), text);
            }
            (Err(_), Err(_)) => {}
            (a, b) => panic!("`{text}` as {name}: assembled {a:?}, built {b:?}"),
        }
    }
    assembled.is_ok()
}

#[test]
fn every_row_builds_as_it_assembles() {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut missing = Vec::new();
    let (mut built, mut refused) = (0, 0);
    for op in Opcode::all() {
        let mut hits = 0;
        for _ in 0..400 {
            let bytes = word_of(op, &mut seed);
            let Ok(ins) = decode_one(&bytes, 0) else {
                continue;
            };
            if ins.opcode != op {
                continue;
            }
            if !check(&ins) {
                refused += 1;
                continue;
            }
            hits += 1;
            if hits == 20 {
                break;
            }
        }
        built += hits;
        if hits == 0 {
            missing.push(op.name());
        }
    }
    eprintln!(
        "{built} instructions built, {refused} refused by both; rows without a word that \
         decodes and assembles: {missing:?}"
    );
    let rows = Opcode::all().count();
    assert!(
        missing.len() * 50 < rows,
        "{} of {rows} rows never decoded: {missing:?}",
        missing.len()
    );
}

#[test]
fn mesa_parts_build_as_mesa_packed_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/hk/parts");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let code = std::fs::read(&path).unwrap();
        let Ok(program) = decode(&code) else {
            continue;
        };
        for (at, ins) in &program {
            let assembled = assemble_one(&ins.to_string()).unwrap();
            assert!(check(ins));
            // Where the assembler gives Mesa's bytes, so does the builder.
            if assembled.bytes() == ins.bytes() {
                let built = build_instruction(ins.opcode.mnemonic(), &typed(ins)).unwrap();
                assert_eq!(built.bytes(), ins.bytes(), "{} +{at}", path.display());
            }
            n += 1;
        }
    }
    assert!(n > 1000, "only {n} instructions in {}", dir.display());
}

#[test]
fn hand_encoded_instructions() {
    // The encodings of tests/asm.rs worked out bit by bit from applegpu's field
    // descriptions, here from typed operands.
    let cases: [(&str, Vec<Arg>, &[u8]); 5] = [
        ("ldimm", args![rl(1), 1].to_vec(), &[0x62, 0x04, 0x01, 0x00]),
        (
            "iadd",
            args![rl(1), 0, rl(1), "lsl 1"].to_vec(),
            &[0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00],
        ),
        (
            "while",
            args![rl(1), 15, 1, "ult"].to_vec(),
            &[0x52, 0x2c, 0x42, 0xf0, 0x00, 0x00],
        ),
        (
            "jmp_exec_any",
            args![-100].to_vec(),
            &[0x00, 0xc0, 0x9c, 0xff, 0xff, 0xff],
        ),
        ("stop", Vec::new(), &[0x88, 0x00]),
    ];
    for (name, args, bytes) in cases {
        let ins = build_instruction(name, &args).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ins.bytes(), bytes, "{name}");
    }
}

#[test]
fn labels_are_patched_as_the_assembler_resolves_them() {
    let text = "\
        ldimm r1l, 1\n\
        top:\n\
        iadd r1l, 0, r1l, lsl 1\n\
        jmp_any out\n\
        load r4_r5_r6, du2, r7, i32, xyz, a\n\
        jmp_any top\n\
        out:\n\
        fadd r8, r9, -0.0\n\
        stop\n";
    let want = assemble(text, "t.s").unwrap();
    let mut b = Builder::new();
    let (top, out) = (b.label(), b.label());
    b.push("ldimm", &args![rl(1), 1]);
    b.place(top);
    b.push("iadd", &args![rl(1), 0, rl(1), "lsl 1"]);
    b.push("jmp_any", &args![out]);
    b.push("load", &args![rs(4, 3), du(2), r(7), "i32", "xyz", "a"]);
    b.push("jmp_any", &args![top]);
    b.place(out);
    b.push("fadd", &args![r(8), r(9), -0.0]);
    b.push("stop", &[]);
    let code = b.finish().unwrap();
    assert_eq!(code.bytes, want.bytes);
    let listing: String = want
        .instructions
        .iter()
        .map(|(_, _, i)| format!("{i}\n"))
        .collect();
    assert_eq!(code.text(), listing);
}

#[test]
fn bad_operands_are_errors() {
    let e = build_instruction("iadd", &args![r(1), u(3), 0, "nonsense"]).unwrap_err();
    assert!(e.message.contains("operand 4"), "{e}");
    let e = build_instruction("fadd", &args![r(1), r(2), 0.3]).unwrap_err();
    assert!(e.message.contains("8-bit float"), "{e}");
    assert!(build_instruction("nosuch", &[]).is_err());
    assert!(build_instruction("ldimm", &args![r(300), 1]).is_err());
    let mut b = Builder::new();
    let l = b.label();
    b.push("jmp_any", &args![l]);
    let e = b.finish().unwrap_err();
    assert_eq!(e.at, Some(0));
    assert!(e.to_string().contains("never placed"), "{e}");
    let mut b = Builder::new();
    b.push("stop", &[]).push("nosuch", &[]).push("stop", &[]);
    assert_eq!(b.finish().unwrap_err().at, Some(1));
}
