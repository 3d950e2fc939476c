//! `sim run FILE.clo` end to end on damaged AMD binaries: whatever `binary::read` accepts is
//! decoded, dispatched with the binary's own ABI and run under small limits. The property
//! is "an error or a result, never a panic, a hang or an unbounded allocation".

#[path = "../../gpuabi-catalyst/tests/common/mod.rs"]
mod catalyst_data;

use std::collections::BTreeMap;

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Entry, WaveSize};
use gpuabi_catalyst::args::ArgKind;
use gpuabi_catalyst::binary::{self, disasm, BinaryKernel};
use gpuabi_sim::catalyst::{dispatch_binary, ArgValue, NdRange};
use gpuabi_sim::{Image, Machine};

/// Dword values that make offsets, sizes and counts go wrong.
const EVIL_WORDS: [u32; 6] = [0, 3, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF0, u32::MAX];

/// Truncation, flipped bits and overwritten dwords: damage that keeps most binaries
/// readable, so that the dispatch and the run see odd values.
fn damage(u: &mut Unstructured<'_>, original: &[u8]) -> Result<Vec<u8>> {
    let mut b = original.to_vec();
    for _ in 0..u.int_in_range(1..=3)? {
        match u.int_in_range(0..=3)? {
            0 if u.ratio(1, 4)? => {
                let n = u.int_in_range(0..=b.len())?;
                b.truncate(n);
            }
            1 if !b.is_empty() => {
                let i = u.choose_index(b.len())?;
                b[i] ^= 1 << u.int_in_range(0..=7)?;
            }
            _ if b.len() >= 4 => {
                let at = u.choose_index(b.len() - 3)? & !3;
                let w = if u.arbitrary()? {
                    *u.choose(&EVIL_WORDS)?
                } else {
                    u.arbitrary()?
                };
                b[at..at + 4].copy_from_slice(&w.to_le_bytes());
            }
            _ => {}
        }
    }
    Ok(b)
}

/// Decodes, dispatches and runs one kernel as `sim run` does; errors are fine. Whether
/// the run finished.
fn run_kernel(k: &BinaryKernel) -> bool {
    let Some(generation) = k.generation else {
        return false;
    };
    let target = disasm::target_of(generation);
    let Ok(code) = (0..k.code.hex.len() / 2)
        .map(|i| u8::from_str_radix(&k.code.hex[2 * i..2 * i + 2], 16))
        .collect::<std::result::Result<Vec<u8>, _>>()
    else {
        return false;
    };
    let Ok(mut program) = gpuabi_amdgpu::decode(&code, target, WaveSize::W64) else {
        return false;
    };
    program.items.insert(
        0,
        Entry {
            item: Item::Label("main".into()),
            origin: Default::default(),
        },
    );
    let Ok(image) = Image::new(&program) else {
        return false;
    };
    let mut m = Machine::new(image);
    m.limits.instructions_per_wave = 20_000;
    m.limits.global_bytes = 1 << 24;
    let mut args = BTreeMap::new();
    for (i, a) in k.args.iter().enumerate() {
        let value = match a.kind {
            ArgKind::Pointer => {
                let name = format!("b{i}");
                if m.memory.add(&name, vec![0; 1024], 1 << 24).is_err() {
                    return false;
                }
                ArgValue::Buffer(name)
            }
            _ => ArgValue::Numbers(vec![1.0.into()]),
        };
        args.insert(a.name.clone(), value);
    }
    let nd = NdRange {
        work_dim: 1,
        global: [128, 1, 1],
        local: [64, 1, 1],
        offset: [0, 0, 0],
    };
    match dispatch_binary(k, &nd, &args, &mut m.memory, 1 << 24) {
        Ok(setups) => m.run("main", &setups).is_ok(),
        Err(_) => false,
    }
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn damaged_binaries_dispatch_and_run_without_panics() {
    let Some(files) = catalyst_data::catalyst_binaries() else {
        return;
    };
    let originals: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    // The undamaged binaries run too: `add` and `multiply` of both samplekernels files.
    let mut ran = 0;
    for o in &originals {
        for k in &binary::read(o).unwrap().kernels {
            ran += usize::from(run_kernel(k));
        }
    }
    assert!(ran >= 4, "{ran} kernels ran");
    // Sizes a damaged binary may claim: cb1 of 4 GiB, scratch of 4 G dwords per item.
    let samples = files
        .iter()
        .position(|f| f.ends_with("samplekernels.clo"))
        .expect("samplekernels.clo");
    let mut k = binary::read(&originals[samples]).unwrap().kernels.remove(0);
    assert!(run_kernel(&k), "{} runs", k.kernel);
    k.args_space = u32::MAX - 15;
    assert!(!run_kernel(&k), "a 4 GiB cb1 is refused");
    k.args_space = 64;
    k.notes.scratch_dwords = u32::MAX;
    run_kernel(&k);
    arbtest::arbtest(|u| {
        let original = u.choose(&originals)?;
        let bytes = damage(u, original)?;
        if let Ok(b) = binary::read(&bytes) {
            for k in &b.kernels {
                let _ = run_kernel(k);
            }
        }
        Ok(())
    })
    .budget_ms(3000);
}
