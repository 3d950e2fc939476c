//! Every vector of `data/agx-isa` of the shared test data (Mesa's disassembler test cases and a corpus
//! encoded with applegpu and printed by Mesa's disassembler): bytes decode to exactly the
//! text, the text assembles to exactly the bytes, and decoding then encoding gives the
//! bytes back. The assembler emits the form Mesa's compiler packs: the long form of the
//! rows `agx_pack_instr` always packs long (`iter`, `ldcf`, `lload`, `lstore`,
//! `stack_adjust`), as every such line of Mesa's `cases.txt` has it, and the shortest form
//! otherwise; where applegpu chose the short form of such a row, the corpus line assembles
//! to the long form, which prints the same text.
//!
//! Mesa has two disassemblers that differ in one place: the corpus was printed by the Python
//! one (`operand` in `src/asahi/isa/test/disasm.py` reads the `cache`, `discard` and `hint`
//! fields and not the `lu` modifier of the `coord` encoding in `AGX2.xml`), while the C one
//! the driver prints its shaders with (`_print_operand` in `src/asahi/isa/disasm-internal.h`)
//! prints `lu` as `^`. gpuabi prints what the C one prints, so a corpus line whose texture
//! coordinate has that bit (bit 22 of `smpf`/`smpi`/`imgw`/`imgwblk`) decodes to its text
//! with one `^` more, before an operand; that text assembles to exactly the bytes.
//!
//! A few vectors differ from another encoding only in a bit that Mesa's text does not show,
//! so no assembler can recover them from the text: the zero-extension bit (25) of a
//! non-negative immediate memory index of `load`/`store`/`atomic` (0 is as valid as 1 and
//! prints alike), bit 22 of texture coordinates in the Python disassembler's text (above),
//! and the opcode bit 4 telling the float ballot from the integer ballot, whose texts are
//! the same when the sources have no float immediate or modifier. For those the assembler
//! emits the table's first form; the test checks that the bytes differ in exactly that bit
//! and that the number of such lines is what the data holds (counted from the raw bytes by
//! the rules above, independently of gpuabi).

use std::collections::BTreeMap;

use gpuabi_agx_isa::{assemble_one, decode_one, encode};

struct Vector {
    line: usize,
    bytes: Vec<u8>,
    text: String,
}

fn load(name: &str) -> Option<Vec<Vector>> {
    let path = gpuabi_testdata::shared_data("agx-isa")?.join(name);
    let src = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let (hex, text) = line.split_once(' ').expect("vector line has a space");
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect();
        out.push(Vector {
            line: n + 1,
            bytes,
            text: text.trim_start().to_string(),
        });
    }
    Some(out)
}

/// Which unshown bit `a` and `b` differ in, if they differ in exactly one such bit.
fn unshown_bit(mnemonic: &str, a: &[u8], b: &[u8]) -> Option<&'static str> {
    if a.len() != b.len() {
        return None;
    }
    let word = |x: &[u8]| {
        x.iter()
            .rev()
            .fold(0u128, |w, &byte| (w << 8) | u128::from(byte))
    };
    let diff = word(a) ^ word(b);
    match mnemonic {
        "load" | "store" | "atomic" if diff == 1 << 25 && (word(a) >> 24) & 1 == 1 => {
            Some("zero-extension")
        }
        "smpf" | "smpi" | "imgw" | "imgwblk" if diff == 1 << 22 => Some("coordinate last use"),
        "ballot" if diff == 1 << 4 => Some("float or integer ballot"),
        _ => None,
    }
}

/// Whether `got` is `want` with one `^` put before one of its operands (after `", "` or the
/// mnemonic's padding), for a texture instruction whose bytes have bit 22 set: Mesa's C
/// disassembler's `lu` mark, which the Python one leaves out.
fn last_use_added(mnemonic: &str, bytes: &[u8], got: &str, want: &str) -> bool {
    let texture = matches!(mnemonic, "smpf" | "smpi" | "imgw" | "imgwblk");
    let bit22 = bytes.get(2).is_some_and(|b| b & 0x40 != 0);
    texture
        && bit22
        && got.len() == want.len() + 1
        && got.match_indices('^').any(|(i, _)| {
            got[..i].ends_with(' ') && format!("{}{}", &got[..i], &got[i + 1..]) == want
        })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[derive(Default)]
struct Tally {
    total: usize,
    decoded: usize,
    assembled: usize,
    shorter: BTreeMap<String, usize>,
    longer: BTreeMap<String, usize>,
    unshown: BTreeMap<&'static str, usize>,
    reencoded: usize,
    last_use_added: usize,
    failures: Vec<String>,
    failing_mnemonics: BTreeMap<String, usize>,
}

fn run(name: &str) -> Option<Tally> {
    let vectors = load(name)?;
    let mut t = Tally::default();
    for v in &vectors {
        t.total += 1;
        let mnemonic = v.text.split_whitespace().next().unwrap_or("").to_string();
        let mut ok = true;
        // Garbage after the instruction must not change its decoding or length.
        let mut padded = v.bytes.clone();
        padded.extend([
            0xca, 0xfe, 0xba, 0xbe, 0xca, 0xfe, 0xba, 0xbe, 0xca, 0xfe, 0xba, 0xbe,
        ]);
        match decode_one(&padded, 0) {
            Ok(ins)
                if ins.length as usize == v.bytes.len()
                    && (ins.to_string() == v.text
                        || last_use_added(&mnemonic, &v.bytes, &ins.to_string(), &v.text)) =>
            {
                t.decoded += 1;
                if ins.to_string() != v.text {
                    t.last_use_added += 1;
                    // The C disassembler's text, with its `^`, gives the bytes back.
                    match assemble_one(&ins.to_string()) {
                        Ok(a) if a.bytes() == v.bytes => {}
                        other => {
                            ok = false;
                            t.failures.push(format!(
                                "{name}:{}: assemble `{ins}` -> {:?}, want {}",
                                v.line,
                                other.map(|a| hex(&a.bytes())),
                                hex(&v.bytes)
                            ));
                        }
                    }
                }
                match encode(&ins) {
                    Ok(b) if b == v.bytes => t.reencoded += 1,
                    Ok(b) => {
                        ok = false;
                        t.failures.push(format!(
                            "{name}:{}: re-encode {} -> {}",
                            v.line,
                            hex(&v.bytes),
                            hex(&b)
                        ));
                    }
                    Err(e) => {
                        ok = false;
                        t.failures.push(format!(
                            "{name}:{}: re-encode {}: {e}",
                            v.line,
                            hex(&v.bytes)
                        ));
                    }
                }
            }
            Ok(ins) => {
                ok = false;
                t.failures.push(format!(
                    "{name}:{}: decode {} -> `{ins}` (len {}), want `{}`",
                    v.line,
                    hex(&v.bytes),
                    ins.length,
                    v.text
                ));
            }
            Err(e) => {
                ok = false;
                t.failures
                    .push(format!("{name}:{}: decode {}: {e}", v.line, hex(&v.bytes)));
            }
        }
        match assemble_one(&v.text) {
            Ok(ins) if ins.bytes() == v.bytes => t.assembled += 1,
            Ok(ins)
                if ins.length as usize != v.bytes.len()
                    && decode_one(&ins.bytes(), 0).is_ok_and(|d| d.to_string() == v.text) =>
            {
                t.assembled += 1;
                let other = if (ins.length as usize) < v.bytes.len() {
                    &mut t.shorter
                } else {
                    &mut t.longer
                };
                *other.entry(mnemonic.clone()).or_default() += 1;
            }
            Ok(ins) if unshown_bit(&mnemonic, &v.bytes, &ins.bytes()).is_some() => {
                t.assembled += 1;
                let kind = unshown_bit(&mnemonic, &v.bytes, &ins.bytes()).unwrap_or("");
                *t.unshown.entry(kind).or_default() += 1;
            }
            Ok(ins) => {
                ok = false;
                t.failures.push(format!(
                    "{name}:{}: assemble `{}` -> {}, want {}",
                    v.line,
                    v.text,
                    hex(&ins.bytes()),
                    hex(&v.bytes)
                ));
            }
            Err(e) => {
                ok = false;
                t.failures
                    .push(format!("{name}:{}: assemble `{}`: {e}", v.line, v.text));
            }
        }
        if !ok {
            *t.failing_mnemonics.entry(mnemonic).or_default() += 1;
        }
    }
    eprintln!(
        "{name}: {} lines; decode {}/{} ({} with the `^` of a coordinate's last use), assemble {}/{} (shorter form: {:?}; longer form: {:?}; differing only in an unshown bit: {:?}), re-encode {}/{}",
        t.total, t.decoded, t.total, t.last_use_added, t.assembled, t.total, t.shorter, t.longer, t.unshown, t.reencoded, t.total
    );
    if !t.failing_mnemonics.is_empty() {
        eprintln!("failing mnemonics: {:?}", t.failing_mnemonics);
        for f in t.failures.iter().take(40) {
            eprintln!("  {f}");
        }
    }
    Some(t)
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn mesa_cases_round_trip() {
    let Some(t) = run("cases.txt") else { return };
    assert_eq!(t.total, 555);
    assert!(t.failures.is_empty(), "{} failures", t.failures.len());
    // Every long-form line whose text also has a short encoding is of a row Mesa's compiler
    // always packs long, so all assemble exactly; the one
    // 6-byte `stack_adjust` line assembles to the 8-byte form Mesa packs.
    assert!(t.shorter.is_empty(), "{:?}", t.shorter);
    let longer: BTreeMap<String, usize> = [("stack_adjust".to_string(), 1)].into();
    assert_eq!(t.longer, longer);
    let unshown: BTreeMap<&str, usize> = [("zero-extension", 1)].into_iter().collect();
    assert_eq!(t.unshown, unshown);
    // Mesa's own cases have no coordinate with the last-use bit.
    assert_eq!(t.last_use_added, 0);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn corpus_round_trips() {
    let Some(t) = run("corpus.txt") else { return };
    assert_eq!(t.total, 3209);
    assert!(t.failures.is_empty(), "{} failures", t.failures.len());
    assert!(
        t.shorter.is_empty(),
        "the corpus uses shortest forms: {:?}",
        t.shorter
    );
    // applegpu's short forms of the rows Mesa always packs long: the lines of these
    // mnemonics whose bytes are the short length (4 bytes for `iter`/`ldcf`, 6 for the
    // others), counted in the data.
    let longer: BTreeMap<String, usize> = [
        ("iter", 30),
        ("ldcf", 39),
        ("lload", 8),
        ("lstore", 7),
        ("stack_adjust", 4),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(t.longer, longer);
    let unshown: BTreeMap<&str, usize> = [
        ("zero-extension", 28),
        ("coordinate last use", 49),
        ("float or integer ballot", 2),
    ]
    .into_iter()
    .collect();
    assert_eq!(t.unshown, unshown);
    // The same 49 lines: their text lacks the `^` Mesa's C disassembler prints.
    assert_eq!(t.last_use_added, 49);
}
