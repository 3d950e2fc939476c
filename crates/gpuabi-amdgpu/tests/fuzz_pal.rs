//! Fuzz targets over the PAL metadata readers: token-level mutations of llc-19's assembly
//! of examples/pal/scale.ll into `pal::read_assembly`, and raw or mutated MessagePack
//! into `pal::read_metadata`. Each runs for a bounded time under `cargo test`; the property
//! is "an error or a value, never a panic".

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::code_object::msgpack::decode;
use gpuabi_amdgpu::pal::{read_assembly, read_metadata};
use gpuabi_amdgpu::Target;
use gpuabi_fuzz::Edit::{Delete, Duplicate, Insert, Move, Replace};
use gpuabi_fuzz::Mutator;

const BUDGET_MS: u64 = 1000;

const EXAMPLE: &str = include_str!("../../../examples/pal/scale-gfx1030.s");

/// The MessagePack of `{amdpal.pipelines: [{.hardware_stages: {.cs: {.entry_point: "m"}},
/// .registers: {0x2e12: 0, 0x2e13: 0x8e}}]}`, written by hand from the specification.
fn note() -> Vec<u8> {
    let mut b = vec![0x81, 0xa0 + 16];
    b.extend(b"amdpal.pipelines");
    b.extend([0x91, 0x82, 0xa0 + 16]);
    b.extend(b".hardware_stages");
    b.extend([0x81, 0xa3]);
    b.extend(b".cs");
    b.extend([0x81, 0xac]);
    b.extend(b".entry_point");
    b.extend([0xa1, b'm', 0xaa]);
    b.extend(b".registers");
    b.extend([0x82, 0xcd, 0x2e, 0x12, 0x00, 0xcd, 0x2e, 0x13, 0xcc, 0x8e]);
    b
}

const WORDS: &[&str] = &[
    "-",
    "- ",
    ":",
    ": ",
    "'",
    "0x2e13",
    "'0x2e13 (COMPUTE_PGM_RSRC2)':",
    ".cs:",
    ".registers:",
    "amdpal.pipelines:",
    "0xffffffffffff",
    "-1",
    "[",
    "]",
    "[1, 2, 3]",
    "...",
    "---",
    ".end_amdgpu_pal_metadata",
    ".amdgpu_pal_metadata",
    "\n",
    "\n  ",
    "\n      ",
    "true",
    ".wavefront_size: 16",
    ".threadgroup_dimensions: [0, 1]",
];

const MUTATOR: Mutator = Mutator {
    ends_word: |c| matches!(c, ' ' | '\n' | ':'),
    max_edits: 6,
    edits: &[Delete, Duplicate, Move, Replace, Insert],
};

#[test]
fn metadata_readers_never_panic() {
    arbtest::arbtest(|u: &mut Unstructured<'_>| -> Result<()> {
        let target = *u.choose(&[Target::Gfx8, Target::Gfx1030, Target::Gfx1100])?;
        if u.arbitrary()? {
            let text = MUTATOR.mutate(u, EXAMPLE, |u, _| Ok(u.choose(WORDS)?.to_string()))?;
            let _ = read_assembly(&text, target);
        } else {
            let mut bytes = note();
            for _ in 0..u.int_in_range(0..=4)? {
                let i = u.choose_index(bytes.len())?;
                bytes[i] = u.arbitrary()?;
            }
            if u.ratio(1, 4)? {
                bytes = u.arbitrary()?;
            }
            if let Ok(value) = decode(&bytes) {
                let _ = read_metadata(&value, target);
            }
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn the_hand_written_note_reads() {
    let value = decode(&note()).unwrap();
    let shader = read_metadata(&value, Target::Gfx1030).unwrap();
    assert_eq!(shader.entry, "m");
    assert_eq!(shader.user_sgprs(), 7);
    assert_eq!(shader.workgroup_ids(), [true, false, false]);
    // No COMPUTE_DISPATCH_INITIATOR: wave64.
    assert_eq!(shader.wave, gpuabi_amdgpu::WaveSize::W64);
}
