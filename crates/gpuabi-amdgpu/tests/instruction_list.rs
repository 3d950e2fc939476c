//! The instruction list against LLVM 19: for `gfx8` (`tonga`), `gfx1030`, `gfx1100` and `gfx12` in
//! both wave sizes, every value of the opcode field of the scalar and vector ALU encodings
//! (SOP1, SOP2, SOPC, SOPK, VOP1, VOP2, VOPC, VOP3) is put in an instruction word with
//! plain operands and disassembled by llvm-mc-19; the mnemonics it prints (without `_e32`
//! and `_e64`) are the target's instructions of those encodings. Each must be a row of the
//! instruction table on that target or an entry of the list of what the model leaves out
//! (`gpuabi_amdgpu::not_modelled`), and each row of those encodings and each entry must be
//! one of them.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::process::Command;

use common::{llvm_mc_available, LLVM_MC};
use gpuabi_amdgpu::opcodes::{Format, TABLE};
use gpuabi_amdgpu::{not_modelled, Target, WaveSize, NOT_MODELLED};

/// An ALU encoding: its name, the number of opcodes its field holds, and the instruction
/// words to try for opcode `op` (plain operands; aligned register pairs so that the 64-bit
/// forms decode; all-zero operand fields for the instructions without operands).
struct Family {
    name: &'static str,
    opcodes: u32,
    /// The bits that name the encoding and the opcode in the first dword.
    mask: u32,
    words: fn(u32, Target) -> Vec<Vec<u32>>,
}

const FAMILIES: [Family; 8] = [
    Family {
        name: "SOP1",
        opcodes: 256,
        mask: 0xff80_ff00,
        words: |op, _| {
            vec![
                vec![0xbe80_0000 | 6 << 16 | op << 8 | 2],
                vec![0xbe80_0000 | op << 8],
            ]
        },
    },
    // SOP2 opcodes from 0x60 on are the SOPK, SOP1, SOPC and SOPP encodings.
    Family {
        name: "SOP2",
        opcodes: 0x60,
        mask: 0xff80_0000,
        words: |op, _| {
            vec![
                vec![0x8000_0000 | op << 23 | 6 << 16 | 4 << 8 | 2],
                vec![0x8000_0000 | op << 23],
            ]
        },
    },
    Family {
        name: "SOPC",
        opcodes: 128,
        mask: 0xffff_0000,
        words: |op, _| {
            vec![
                vec![0xbf00_0000 | op << 16 | 4 << 8 | 2],
                vec![0xbf00_0000 | op << 16],
            ]
        },
    },
    // SOPK opcodes from 0x1d on are the SOP1, SOPC and SOPP encodings.
    Family {
        name: "SOPK",
        opcodes: 0x1d,
        mask: 0xff80_0000,
        words: |op, _| {
            vec![
                vec![0xb000_0000 | op << 23 | 6 << 16 | 0x10],
                vec![0xb000_0000 | op << 23],
            ]
        },
    },
    Family {
        name: "VOP1",
        opcodes: 256,
        mask: 0xfe01_fe00,
        words: |op, _| {
            vec![
                vec![0x7e00_0000 | 5 << 17 | op << 9 | 0x101],
                vec![0x7e00_0000 | op << 9],
            ]
        },
    },
    // VOP2 opcodes 0x3e and 0x3f are the VOPC and VOP1 encodings.
    Family {
        name: "VOP2",
        opcodes: 0x3e,
        mask: 0xfe00_0000,
        words: |op, _| vec![vec![op << 25 | 5 << 17 | 2 << 9 | 0x101], vec![op << 25]],
    },
    Family {
        name: "VOPC",
        opcodes: 256,
        mask: 0xfffe_0000,
        words: |op, _| {
            vec![
                vec![0x7c00_0000 | op << 17 | 2 << 9 | 0x101],
                vec![0x7c00_0000 | op << 17],
            ]
        },
    },
    // VOP3 (the 64-bit encoding of every vector ALU instruction): `110100` on GCN 1.2,
    // `110101` on RDNA; sources VGPRs, SGPRs, inline constants and `vcc`, so that the
    // instructions with scalar-only or lane-mask sources decode too.
    Family {
        name: "VOP3",
        opcodes: 1024,
        mask: 0xffff_0000,
        words: |op, target| {
            let prefix = if target == Target::Gfx8 { 0x34 } else { 0x35 } << 26;
            [
                (0x101, 0x102, 0x103),
                (0x101, 2, 0x103),
                (2, 3, 4),
                (0x101, 0x102, 0),
                (0x101, 0x102, 0x6a),
                (0x102, 0x80, 0x6a),
                (0x101, 0x102, 0x80),
                (0, 0, 0),
            ]
            .into_iter()
            .map(|(a, b, c)| vec![prefix | op << 16 | 6, a | b << 9 | c << 18])
            .collect()
        },
    },
];

/// The mnemonic llvm-mc-19 prints for each instruction word, `None` where it finds no
/// instruction whose encoding starts with that word's `mask` bits. Each word gets a line of
/// its own after an `s_nop N` marker, and a literal dword in case it takes one.
fn disassemble(
    words: &[Vec<u32>],
    mask: u32,
    target: Target,
    wave: WaveSize,
) -> Vec<Option<String>> {
    const MARKER: u32 = 0xbf80_0000;
    let mut input = String::new();
    for (i, w) in words.iter().enumerate() {
        let dwords = std::iter::once(MARKER | i as u32)
            .chain(w.iter().copied())
            .chain([0x3f80_0000]);
        for d in dwords {
            for b in d.to_le_bytes() {
                let _ = write!(input, "0x{b:02x} ");
            }
        }
        input.push('\n');
    }
    let mut args = vec![
        "--disassemble".to_string(),
        "-show-encoding".to_string(),
        "-arch=amdgcn".to_string(),
        format!("-mcpu={}", target.llvm_cpu()),
    ];
    if target.is_rdna() {
        args.push(format!("-mattr=+wavefrontsize{}", wave.lanes()));
    }
    let mut child = Command::new(LLVM_MC)
        .args(&args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("llvm-mc runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(input.as_bytes()).expect("write to llvm-mc");
    });
    let out = child.wait_with_output().expect("llvm-mc output");
    writer.join().expect("writer");
    let mut names = vec![None; words.len()];
    // The instruction right after marker N is word N's, if its encoding starts with it.
    let mut current: Option<usize> = None;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim();
        let Some((text, encoding)) = line.split_once("; encoding: [") else {
            continue;
        };
        let mnemonic = text.split_whitespace().next().unwrap_or("");
        if mnemonic == "s_nop" {
            current = text.split_whitespace().nth(1).and_then(|n| {
                n.strip_prefix("0x")
                    .map_or(n.parse().ok(), |h| usize::from_str_radix(h, 16).ok())
            });
            continue;
        }
        let Some(i) = current.take().filter(|i| *i < words.len()) else {
            continue;
        };
        let bytes: Vec<u8> = encoding
            .trim_end_matches(']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        let want = 4 * words[i].len();
        if bytes.len() < 4 || !(bytes.len() == want || bytes.len() == want + 4) {
            continue;
        }
        let first = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        if first & mask == words[i][0] & mask {
            let name = mnemonic
                .strip_suffix("_e32")
                .or_else(|| mnemonic.strip_suffix("_e64"))
                .unwrap_or(mnemonic);
            names[i] = Some(name.to_string());
        }
    }
    names
}

/// The instructions llvm-mc-19 has in each ALU encoding of `target` (a VOP1, VOP2 or VOPC
/// instruction's VOP3 form counts under its own encoding).
fn llvm_instructions(target: Target, wave: WaveSize) -> BTreeMap<String, &'static str> {
    let mut found: BTreeMap<String, &'static str> = BTreeMap::new();
    for family in &FAMILIES {
        let mut words = Vec::new();
        for op in 0..family.opcodes {
            words.extend((family.words)(op, target));
        }
        for name in disassemble(&words, family.mask, target, wave)
            .into_iter()
            .flatten()
        {
            found.entry(name).or_insert(family.name);
        }
    }
    found
}

fn is_alu(format: Format) -> bool {
    matches!(
        format,
        Format::Sop1
            | Format::Sop2
            | Format::Sopc
            | Format::Sopk
            | Format::Vop1
            | Format::Vop2
            | Format::Vopc
            | Format::Vop3
    )
}

#[test]
fn every_alu_instruction_of_llvm_is_modelled_or_listed() {
    if !llvm_mc_available() {
        return;
    }
    let mut problems = Vec::new();
    for (target, wave) in common::configs() {
        let llvm = llvm_instructions(target, wave);
        assert!(
            llvm.len() > 500,
            "{target} {wave}: only {} instructions",
            llvm.len()
        );
        let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (name, family) in &llvm {
            let modelled = gpuabi_amdgpu::Opcode::from_name(target, name).is_some();
            let listed = not_modelled(target, name).is_some();
            let c = counts.entry(family).or_default();
            if modelled {
                c.0 += 1;
            } else if listed {
                c.1 += 1;
            } else {
                problems.push(format!(
                    "{target} {wave}: {family} `{name}` is neither modelled nor listed"
                ));
            }
        }
        let names: BTreeSet<&str> = llvm.keys().map(String::as_str).collect();
        for info in TABLE {
            if let Some(name) = info.name(target).filter(|_| is_alu(info.format_on(target))) {
                if !names.contains(name) {
                    problems.push(format!(
                        "{target} {wave}: row `{name}` is not an instruction of llvm-mc-19"
                    ));
                }
            }
        }
        for n in NOT_MODELLED.iter().filter(|n| n.targets.contains(target)) {
            if !names.contains(n.name) {
                problems.push(format!(
                    "{target} {wave}: listed `{}` is not an instruction of llvm-mc-19",
                    n.name
                ));
            }
        }
        let summary: Vec<String> = counts
            .iter()
            .map(|(f, (m, l))| format!("{f} {m} modelled, {l} listed"))
            .collect();
        eprintln!("{target} {wave}: {}", summary.join("; "));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
