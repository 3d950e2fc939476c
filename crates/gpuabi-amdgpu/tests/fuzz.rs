//! Fuzz targets over the assembler: the parser, the printer and the validator on raw text,
//! on lines built from the instruction table's own mnemonics and operand syntax, and on
//! token-level mutations of the example programs. Each target runs for a bounded time under
//! `cargo test`; the property is "an error or a value, never a panic".

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::opcodes::TABLE;
use gpuabi_amdgpu::validate::{check_inst, operand_range};
use gpuabi_amdgpu::{decode, encode, Operand, Target, WaveSize};
use gpuabi_fuzz::Edit::{Delete, Duplicate, Move, Replace};
use gpuabi_fuzz::Mutator;

const BUDGET_MS: u64 = 1500;

const EXAMPLES: [&str; 3] = [
    include_str!("../../../examples/asm/divergent_call.s"),
    include_str!("../../../examples/asm/divergent_call_broken.s"),
    include_str!("../../../examples/asm/catalyst_scale.s"),
];

#[rustfmt::skip]
const OPERANDS: &[&str] = &[
    "s0", "s1", "s105", "s106", "s127", "s128", "s255", "s4294967296", "s[0:1]", "s[2:3]",
    "s[4:7]", "s[8:15]", "s[1:0]", "s[0:4294967295]", "s[4294967295:4294967295]", "s[0:511]",
    "v0", "v1", "v255", "v256", "v[0:1]", "v[4:7]", "v[254:257]", "v[0:18446744073709551616]",
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "null", "off", "0", "-1",
    "64", "-16", "0.5", "-4.0", "0x3f800000", "0xffffffffffffffff", "0x1ffffffffffffffff",
    "99999999999999999999", "offset:4", "offset:-4", "offset:4095", "offset:99999999999",
    "offset:-99999999999999999999", "glc", "slc", "dlc", "offen", "idxen",
    "vmcnt(0)", "lgkmcnt(0)", "expcnt(7)", "vmcnt(63)", "vmcnt(99999999999)", "lbl", "lbl-pc0",
    "lbl+4", "lbl-lbl", "main", "abs(v1)", "-v1", "|v1|", "lbl-9223372036854775807",
    "lbl+9223372036854775807", "main-lbl-9223372036854775808",
];

#[rustfmt::skip]
const GLUE: &[&str] = &[", ", " ", "\n", ":", "\n\t", ";", "&", "(", ")", "-", "+", "\n.text\n", "\n.globl main\n"];

/// Lines of real mnemonics with operands from the operand syntax.
fn token_program(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = String::from("main:\n");
    for _ in 0..u.int_in_range(0..=20)? {
        match u.int_in_range(0..=9)? {
            0 => {
                s.push_str(u.choose(&["lbl", "pc0", "main", "x"])?);
                s.push_str(":\n");
            }
            1 => s.push_str(u.choose(GLUE)?),
            _ => {
                let info = u.choose(TABLE)?;
                s.push_str(u.choose(&info.spellings())?);
                s.push_str(u.choose(&["", "", "_e32", "_e64"])?);
                s.push(' ');
                for k in 0..u.int_in_range(0..=5)? {
                    if k > 0 {
                        s.push_str(if u.ratio(9, 10)? { ", " } else { " " });
                    }
                    s.push_str(u.choose(OPERANDS)?);
                }
                s.push('\n');
            }
        }
        if u.ratio(1, 30)? {
            s.push(u.arbitrary()?);
        }
    }
    Ok(s)
}

/// Example edits: an edit in five is a new operand, one a new mnemonic.
const MUTATOR: Mutator = Mutator {
    ends_word: |c| matches!(c, ' ' | '\n' | ',' | '\t'),
    max_edits: 5,
    edits: &[Delete, Duplicate, Move, Replace, Replace],
};

/// An example with random token-level edits.
fn mutate(u: &mut Unstructured<'_>) -> Result<String> {
    let text = *u.choose(&EXAMPLES)?;
    MUTATOR.mutate(u, text, |u, _| {
        Ok(if u.arbitrary()? {
            format!("{} ", u.choose(OPERANDS)?)
        } else {
            let info = u.choose(TABLE)?;
            format!("{} ", u.choose(&info.spellings())?)
        })
    })
}

/// Source text of one of the three kinds.
fn source(u: &mut Unstructured<'_>) -> Result<String> {
    match u.int_in_range(0..=5)? {
        0 => u.arbitrary(),
        1 | 2 => token_program(u),
        _ => mutate(u),
    }
}

#[test]
fn assembler_never_panics() {
    arbtest::arbtest(|u| {
        let text = source(u)?;
        let target = *u.choose(&[Target::Gfx8, Target::Gfx1030, Target::Gfx1100])?;
        let wave = *u.choose(&[WaveSize::W32, WaveSize::W64])?;
        let Ok(program) = parse(&text, target, wave) else {
            return Ok(());
        };
        let layout = program.layout();
        for inst in program.insts() {
            let _ = check_inst(inst, target, wave);
            for op in &inst.operands {
                let _ = operand_range(op);
                if let Operand::Expr(e) = op {
                    let _ = layout.eval(e, u.arbitrary()?);
                }
            }
        }
        // What encodes decodes back to a program with the same code.
        if let Ok(code) = encode(&program) {
            let decoded = decode(&code, target, wave)
                .unwrap_or_else(|e| panic!("encoded program does not decode: {e}\n{text}"));
            assert_eq!(encode(&decoded).ok(), Some(code), "{text}");
        }
        // What parses prints to text that parses again.
        let printed = print(&program);
        if let Err(e) = parse(&printed, target, wave) {
            panic!("printed program does not parse: {e}\n{printed}\nfrom:\n{text}");
        }
        Ok(())
    })
    .budget_ms(2 * BUDGET_MS);
}

/// Inputs found by fuzzing, kept as plain tests.
#[test]
fn regressions() {
    // program.rs Layout::eval: `label + addend` overflowed i64.
    let text = "main:\n  s_add_u32 s6, s4, main+9223372036854775807\n  s_endpgm\n";
    let program = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let layout = program.layout();
    let Some(Operand::Expr(e)) = program.insts().next().map(|i| &i.operands[2]) else {
        panic!("expected a label expression");
    };
    // main is at offset 0 and the program at 16: 16 + (2^63 - 1) wraps to -2^63 + 15.
    assert_eq!(layout.eval(e, 16), Some(i64::MIN + 15));
}
