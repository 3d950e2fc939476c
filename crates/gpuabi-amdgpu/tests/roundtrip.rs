//! Parser robustness and print → parse round trips (without LLVM).

use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Target, WaveSize, MODELLED_TARGETS};
use proptest::prelude::*;

const PIECES: &[&str] = &[
    "s_mov_b32",
    "v_add_co_u32",
    "buffer_load_dword",
    "global_store_b32",
    "s_waitcnt",
    "s_branch",
    "v_cmp_eq_u32_e64",
    "s0",
    "s[2:3]",
    "v[4:7]",
    "v1",
    "vcc",
    "vcc_lo",
    "exec",
    "m0",
    "null",
    "off",
    "offen",
    "offset",
    ":",
    ",",
    "-",
    "+",
    "(",
    ")",
    "1.0",
    "0x7fffffff",
    "99999999999999999999",
    "-17",
    "lbl",
    "lbl:",
    ".text",
    ".globl",
    "vmcnt",
    "s[",
    "v[9:3]",
    "s[1:2]",
    "\n",
    ";",
    "//",
    "_e32",
    "glc",
    "1e400",
    "0x",
    "s_setpc_b64",
    "v_lshlrev_b64",
    ".p2align",
    ".type",
    "@function",
    ".size",
    ".amdgcn_target",
    "\"amdgcn-amd-amdhsa--gfx1030\"",
    "\"",
    "|",
    "neg(",
    "-|v1|",
];

fn strip_lines(items: &[gpuabi_amdgpu::program::Entry]) -> Vec<Item> {
    items.iter().map(|l| l.item.clone()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any sequence of plausible tokens parses or fails with an error; never a panic.
    #[test]
    fn parser_never_panics(picks in prop::collection::vec(0..PIECES.len(), 0..24), t in 0..3usize) {
        let text: Vec<&str> = picks.iter().map(|&i| PIECES[i]).collect();
        let text = text.join(" ");
        let target = MODELLED_TARGETS[t];
        let _ = parse(&text, target, target.default_wave());
    }
}

#[test]
fn examples_print_and_reparse_to_the_same_program() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/asm");
    for (file, target, wave) in [
        ("divergent_call.s", Target::Gfx1030, WaveSize::W32),
        ("catalyst_scale.s", Target::Gfx8, WaveSize::W64),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let a = parse(&text, target, wave).unwrap();
        let printed = print(&a);
        let b = parse(&printed, target, wave).unwrap();
        assert_eq!(strip_lines(&a.items), strip_lines(&b.items), "{file}");
        assert_eq!(print(&b), printed, "{file}: printing is stable");
    }
}

#[test]
fn wave64_on_rdna_spells_masks_as_pairs() {
    let text = "v_cmp_eq_u32 vcc, v0, v1\ns_and_saveexec_b64 s[0:1], vcc\nv_cndmask_b32 v2, v0, v1, s[4:5]\n";
    let p = parse(text, Target::Gfx1100, WaveSize::W64).unwrap();
    assert_eq!(
        print(&p),
        format!("\t{}", text.trim_end().replace('\n', "\n\t")) + "\n"
    );
    assert!(parse(text, Target::Gfx1100, WaveSize::W32).is_err());
}
