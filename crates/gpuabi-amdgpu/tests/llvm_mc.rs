//! Round trip through LLVM 19's assembler: a corpus covering every instruction of every
//! target is assembled as written and as printed by the project; both must give the same
//! object bytes, and the project's instruction sizes must match LLVM's encodings.
//!
//! The corpus is generated here from sample operands per operand kind (independently of
//! the printer), plus the hand-written programs under `examples/asm/`.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assemble, configs, encoding_sizes, generated_corpus, llvm_mc_available, scratch_dir};

use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::encoding;
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Target, WaveSize};

fn round_trip(original: &str, target: Target, wave: WaveSize, name: &str) {
    let program = parse(original, target, wave).unwrap_or_else(|e| panic!("{name}: {e}"));
    let printed = print(&program);
    let a = assemble(original, target, wave, &format!("{name}.orig"))
        .unwrap_or_else(|e| panic!("{name}: llvm-mc rejects the original:\n{e}"));
    let b = assemble(&printed, target, wave, &format!("{name}.printed"))
        .unwrap_or_else(|e| panic!("{name}: llvm-mc rejects the printed text:\n{e}\n{printed}"));
    assert!(
        a == b,
        "{name}: printed text encodes differently from the original"
    );
    // Sizes: the project's layout must agree with LLVM's encodings, instruction by
    // instruction (program counters are byte addresses).
    let llvm = encoding_sizes(&printed, target, wave, name);
    let ours: Vec<(u32, String)> = program
        .items
        .iter()
        .filter_map(|l| match &l.item {
            Item::Inst(i) => Some((
                encoding::size(i, target, wave),
                gpuabi_amdgpu::asm::printer::print_inst(i, target),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(llvm.len(), ours.len(), "{name}: instruction count");
    for ((size, text), l) in ours.iter().zip(&llvm) {
        assert_eq!(size, l, "{name}: size of `{text}` on {target} {wave}");
    }
}

#[test]
fn generated_corpus_round_trips_through_llvm_mc() {
    if !llvm_mc_available() {
        return;
    }
    for (target, wave) in configs() {
        let corpus = generated_corpus(target, wave);
        round_trip(
            &corpus,
            target,
            wave,
            &format!("corpus-{target}-{}", wave.lanes()),
        );
    }
}

/// The example programs name their target in a first-line comment
/// `; gpuabi: target=gfx1030 wave=32`.
#[test]
fn examples_round_trip_through_llvm_mc() {
    if !llvm_mc_available() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/asm");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("s") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap_or("");
        let Some(spec) = header.strip_prefix("; gpuabi:") else {
            continue;
        };
        let mut target = None;
        let mut wave = None;
        for kv in spec.split_whitespace() {
            if let Some(t) = kv.strip_prefix("target=") {
                target = t.parse::<Target>().ok();
            }
            if let Some(w) = kv.strip_prefix("wave=") {
                wave = w.parse().ok().and_then(WaveSize::from_lanes);
            }
        }
        let (Some(target), Some(wave)) = (target, wave) else {
            panic!("{}: bad header", path.display());
        };
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if text.contains("; gpuabi: expect-error") {
            continue;
        }
        round_trip(&text, target, wave, &name);
        count += 1;
    }
    assert!(count > 0, "no example programs found in {}", dir.display());
}

/// Symbol addresses of an object file, from `llvm-nm-19`.
fn symbols(object: &[u8], name: &str) -> Vec<(String, u32)> {
    let path = scratch_dir().join(format!("{name}.nm.o"));
    std::fs::write(&path, object).unwrap();
    let out = Command::new("llvm-nm-19").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let addr = u32::from_str_radix(f.next()?, 16).ok()?;
            let _kind = f.next()?;
            Some((f.next()?.to_string(), addr))
        })
        .collect()
}

/// The directives of a code generator's output: they assemble as printed, and the
/// project's layout (with `.p2align` padding) puts every symbol where LLVM does.
#[test]
fn directives_round_trip_and_lay_out_as_llvm() {
    if !llvm_mc_available() {
        return;
    }
    for (target, wave, processor) in [
        (Target::Gfx8, WaveSize::W64, "gfx802"),
        (Target::Gfx1030, WaveSize::W32, "gfx1030"),
        (Target::Gfx1100, WaveSize::W64, "gfx1100"),
    ] {
        let text = format!(
            "\t.amdgcn_target \"amdgcn-amd-amdhsa--{processor}\"\n\t.text\n\t.globl main\n\
             \t.p2align 8\n\t.type main,@function\nmain:\n\ts_mov_b32 s0, 0x12345\n\
             \ts_getpc_b64 s[2:3]\n\ts_endpgm\n.Lfunc_end0:\n\t.size main, .Lfunc_end0-main\n\
             \t.p2align 6\n\t.type f,@function\nf:\n\ts_nop 0\n\ts_setpc_b64 s[30:31]\n\
             .Lfunc_end1:\n\t.size f, .Lfunc_end1-f\n\t.p2align 2\ng:\n\ts_endpgm\n"
        );
        let name = format!("directives-{target}-{}", wave.lanes());
        round_trip(&text, target, wave, &name);
        let program = parse(&text, target, wave).unwrap();
        let object = assemble(&text, target, wave, &name).unwrap();
        let layout = program.layout();
        let found = symbols(&object, &name);
        assert!(found.len() >= 3, "{name}: {found:?}");
        for (symbol, addr) in found {
            assert_eq!(
                layout.labels.get(&symbol),
                Some(&addr),
                "{name}: address of `{symbol}`"
            );
        }
    }
}
