//! Fuzz target over the decoder: random bytes, encoded example programs with random byte
//! edits, and random words carrying a real format's identifying bits. The property is "an
//! error naming a byte offset inside the input, or a program that encodes back to the very
//! bytes and prints as text that parses to the same program", never a panic.

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::microcode::layouts;
use gpuabi_amdgpu::{decode, encode, Target, WaveSize};

const BUDGET_MS: u64 = 3000;

const EXAMPLES: [(&str, Target, WaveSize); 2] = [
    (
        include_str!("../../../examples/asm/divergent_call.s"),
        Target::Gfx1030,
        WaveSize::W32,
    ),
    (
        include_str!("../../../examples/asm/catalyst_scale.s"),
        Target::Gfx8,
        WaveSize::W64,
    ),
];

fn config(u: &mut Unstructured<'_>) -> Result<(Target, WaveSize)> {
    Ok(*u.choose(&[
        (Target::Gfx6, WaveSize::W64),
        (Target::Gfx7, WaveSize::W64),
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
    ])?)
}

/// Machine code of an example with up to eight bytes replaced, dropped or inserted.
fn edited_example(u: &mut Unstructured<'_>) -> Result<(Vec<u8>, Target, WaveSize)> {
    let (text, target, wave) = *u.choose(&EXAMPLES)?;
    let program = parse(text, target, wave).expect("example parses");
    let mut code = encode(&program).expect("example encodes");
    for _ in 0..u.int_in_range(0..=8)? {
        if code.is_empty() {
            break;
        }
        let at = u.choose_index(code.len())?;
        match u.int_in_range(0..=3)? {
            0 => {
                code.remove(at);
            }
            1 => code.insert(at, u.arbitrary()?),
            _ => code[at] ^= 1 << u.int_in_range(0..=7)?,
        }
    }
    Ok((code, target, wave))
}

/// Words with the identifying bits of one of the target's formats and random fields.
fn format_words(u: &mut Unstructured<'_>) -> Result<(Vec<u8>, Target, WaveSize)> {
    let (target, wave) = config(u)?;
    let mut code = Vec::new();
    for _ in 0..u.int_in_range(1..=6)? {
        let layout = u.choose(layouts(target))?;
        let first: u32 = u.arbitrary()?;
        let word = (first & !layout.ident_mask) | layout.ident;
        code.extend_from_slice(&word.to_le_bytes());
        for _ in 1..layout.bytes / 4 + u.int_in_range(0..=1)? {
            let extra: u32 = u.arbitrary()?;
            code.extend_from_slice(&extra.to_le_bytes());
        }
    }
    Ok((code, target, wave))
}

#[test]
fn decoder_never_panics_and_round_trips() {
    arbtest::arbtest(|u| {
        let (bytes, target, wave) = match u.int_in_range(0..=3)? {
            0 => {
                let (t, w) = config(u)?;
                (u.arbitrary::<Vec<u8>>()?, t, w)
            }
            1 => edited_example(u)?,
            _ => format_words(u)?,
        };
        match decode(&bytes, target, wave) {
            Err(e) => assert!(
                e.offset < bytes.len().max(1),
                "error offset {} outside {} bytes: {e}",
                e.offset,
                bytes.len()
            ),
            Ok(program) => {
                let again = encode(&program).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(again, bytes, "encode(decode(b)) != b");
                let text = print(&program);
                let parsed = parse(&text, target, wave)
                    .unwrap_or_else(|e| panic!("decoded text does not parse: {e}\n{text}"));
                assert_eq!(encode(&parsed).unwrap(), bytes, "{text}");
            }
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}
