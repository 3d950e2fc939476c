//! Random words: decoding never panics, and every word that decodes prints a text that
//! assembles to bytes printing the same text, re-encodes to the same bytes, and is built
//! again from its field values in the same or a shorter form (or, for the rows Mesa's
//! compiler always packs long, in the long form).

use gpuabi_agx_isa::{assemble_one, build, decode_one, encode, Fields};

/// xorshift64*: a fixed, dependency-free stream of test words.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn decoded_words_round_trip() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut decoded, mut tried) = (0, 0);
    for _ in 0..150_000 {
        let mut bytes = [0u8; 12];
        for chunk in bytes.chunks_mut(8) {
            let w = next(&mut seed).to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        tried += 1;
        let Ok(ins) = decode_one(&bytes, 0) else {
            continue;
        };
        decoded += 1;
        let text = ins.to_string();
        let b = ins.bytes();
        assert_eq!(encode(&ins).as_deref(), Ok(&b[..]), "{text}");
        let again = assemble_one(&text).unwrap_or_else(|e| panic!("`{text}` ({b:02x?}): {e}"));
        assert_eq!(again.to_string(), text, "{b:02x?}");
        let fields = Fields {
            dests: ins.dests.clone(),
            srcs: ins.srcs.clone(),
            imms: ins.imms.clone(),
            mods: ins.mods.clone(),
        };
        let built = build(ins.opcode, &fields).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(built.to_string(), text);
        if ins.opcode.def().packed_long {
            assert_eq!(
                built.length,
                *ins.opcode.def().lengths.last().unwrap(),
                "{text}"
            );
        } else {
            assert!(built.length <= ins.length, "{text}");
        }
    }
    eprintln!("{decoded} of {tried} random words decode");
    assert!(decoded > 100);
}
