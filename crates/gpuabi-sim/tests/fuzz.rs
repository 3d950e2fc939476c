//! Fuzz targets over the simulator: token-level mutations of the example programs that
//! still assemble run under small limits, with and without the ABI contract checker, and
//! Catalyst dispatches of the example kernel with arbitrary NDRanges and arguments. Each
//! target runs for a bounded time under `cargo test`; the property is "an error or a
//! value, never a panic or a hang".

use std::collections::BTreeMap;

use arbitrary::{Result, Unstructured};
use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::opcodes::TABLE;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_fuzz::Edit::{Delete, Duplicate, Move, Replace};
use gpuabi_fuzz::Mutator;
use gpuabi_layout::aco::{Abi, Demand};
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::catalyst::{dispatch, ArgValue, NdRange};
use gpuabi_sim::{Contract, Image, LaneValues, Machine, WaveSetup};

const BUDGET_MS: u64 = 2000;

const EXAMPLES: [(&str, Target, WaveSize); 3] = [
    (
        include_str!("../../../examples/asm/divergent_call.s"),
        Target::Gfx1030,
        WaveSize::W32,
    ),
    (
        include_str!("../../../examples/asm/divergent_call_broken.s"),
        Target::Gfx1030,
        WaveSize::W32,
    ),
    (
        include_str!("../../../examples/asm/catalyst_scale.s"),
        Target::Gfx8,
        WaveSize::W64,
    ),
];

#[rustfmt::skip]
const OPERANDS: &[&str] = &[
    "s0", "s2", "s3", "s80", "s84", "s105", "s[0:1]", "s[2:3]", "s[4:7]", "s[80:81]", "v0",
    "v1", "v80", "v255", "v[0:1]", "v[80:81]", "vcc", "vcc_lo", "exec", "exec_lo", "m0", "off",
    "0", "-1", "1", "31", "63", "64", "0x7fffffff", "0x80000000", "-0x80000000", "0xffffffff",
    "offset:4", "offset:-4", "offset:4095", "main", "callee_a", "callee_b", "main-pc0",
    "main+9223372036854775807", "callee_a-main-9223372036854775808", "pc0+0x7fffffff",
];

/// Example edits: half replace a word, by a mnemonic one time in three and otherwise by an
/// operand that ends its operand list or continues it.
const MUTATOR: Mutator = Mutator {
    ends_word: |c| matches!(c, ' ' | '\n' | ',' | '\t'),
    max_edits: 4,
    edits: &[Delete, Duplicate, Move, Replace, Replace, Replace],
};

fn mutate(u: &mut Unstructured<'_>, text: &str) -> Result<String> {
    MUTATOR.mutate(u, text, |u, _| {
        Ok(if u.ratio(1, 3)? {
            let info = u.choose(TABLE)?;
            format!("{} ", u.choose(&info.spellings())?)
        } else {
            format!(
                "{}{}",
                u.choose(OPERANDS)?,
                if u.arbitrary()? { ", " } else { "\n" }
            )
        })
    })
}

fn machine(u: &mut Unstructured<'_>, image: Image) -> Result<Machine> {
    let mut m = Machine::new(image);
    m.limits.instructions_per_wave = u.int_in_range(0..=3000)?;
    m.limits.scratch_bytes_per_lane = *u.choose(&[0, 16, 256])?;
    m.limits.call_depth = u.int_in_range(0..=8)?;
    m.limits.global_bytes = 1 << 16;
    m.limits.trace_lines = 100;
    m.track_undefined = u.arbitrary()?;
    if u.arbitrary()? {
        m.trace = Some(Vec::new());
    }
    Ok(m)
}

#[test]
fn mutated_programs_run_to_an_end() {
    arbtest::arbtest(|u| {
        let (base, target, wave) = *u.choose(&EXAMPLES)?;
        let text = mutate(u, base)?;
        let Ok(program) = parse(&text, target, wave) else {
            return Ok(());
        };
        let mut m = machine(u, Image::new(&program).unwrap())?;
        if target != Target::Gfx8 && u.arbitrary()? {
            let abi = Abi::builtin("ahit-isec").unwrap();
            let limit = if u.arbitrary()? {
                None
            } else {
                Some(Demand::new(u.arbitrary()?, u.arbitrary()?))
            };
            let sp = Some(RegRange::new(RegFile::Sgpr, 84, 1));
            if let Ok(c) = Contract::from_aco(&abi, target, wave, limit, &[], sp) {
                m.contract = Some(c);
            }
        }
        let size = *u.choose(&[0usize, 4, 256, 4096])?;
        let out = m.memory.add("out", vec![0; size], 1 << 16).unwrap();
        let base = m.memory.buffer(out).base;
        let setup = WaveSetup {
            exec: if u.arbitrary()? {
                Some(u.arbitrary()?)
            } else {
                None
            },
            sgprs: vec![
                (2, base as u32),
                (3, (base >> 32) as u32),
                (u.int_in_range(0..=200)?, u.arbitrary()?),
            ],
            vgprs: vec![
                (0, LaneValues::LaneId(0)),
                (
                    u.int_in_range(0..=300)?,
                    LaneValues::Uniform(u.arbitrary()?),
                ),
            ],
            ..Default::default()
        };
        let waves = u.int_in_range(1..=3)?;
        let _ = m.run(
            u.choose(&["main", "callee_a", "nowhere"])?,
            &vec![setup; waves],
        );
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn catalyst_dispatches_never_panic() {
    let kernel_src = include_str!("../../../examples/asm/catalyst_scale.cl");
    let program = parse(EXAMPLES[2].0, Target::Gfx8, WaveSize::W64).unwrap();
    let kernel = parse_kernels(kernel_src).unwrap().remove(0);
    arbtest::arbtest(|u| {
        let options = gpuabi_catalyst::Options {
            device: gpuabi_catalyst::driver::Device::from_name("tonga").unwrap(),
            is_64bit: u.arbitrary()?,
            ..Default::default()
        };
        let Ok(layout) = gpuabi_catalyst::layout(&kernel, &options) else {
            return Ok(());
        };
        let size = |u: &mut Unstructured<'_>| -> Result<u32> {
            Ok(*u.choose(&[0, 1, 3, 64, 128, 1024, 65536, u32::MAX])?)
        };
        let nd = NdRange {
            work_dim: u.int_in_range(0..=4)?,
            global: [size(u)?, size(u)?, size(u)?],
            local: [size(u)?, size(u)?, size(u)?],
            offset: [size(u)?, size(u)?, size(u)?],
        };
        let mut m = machine(u, Image::new(&program).unwrap())?;
        let bytes = *u.choose(&[0usize, 4, 4096])?;
        m.memory.add("buf", vec![0; bytes], 1 << 16).unwrap();
        let mut args = BTreeMap::new();
        for name in ["out", "factor", "bias", "nope"] {
            if u.ratio(3, 4)? {
                let v = if u.arbitrary()? {
                    ArgValue::Buffer((*u.choose(&["buf", "cb0", "missing"])?).to_string())
                } else {
                    let n = u.int_in_range(0..=5)?;
                    let mut v = Vec::new();
                    for _ in 0..n {
                        v.push(*u.choose(&[
                            0.0,
                            1.0,
                            -1.0,
                            0.5,
                            4294967296.0,
                            f64::NAN,
                            f64::INFINITY,
                        ])?);
                    }
                    ArgValue::Numbers(v.into_iter().map(Into::into).collect())
                };
                args.insert(name.to_string(), v);
            }
        }
        // Keep the runs short: only small grids are executed.
        let limit = m.limits.global_bytes;
        if let Ok(setups) = dispatch(&layout, &nd, &args, &mut m.memory, limit) {
            if setups.len() <= 8 {
                let _ = m.run("main", &setups);
            }
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

/// Inputs the targets above found, kept as plain tests.
#[test]
fn regressions() {
    let kernel = parse_kernels(include_str!("../../../examples/asm/catalyst_scale.cl"))
        .unwrap()
        .remove(0);
    let options = gpuabi_catalyst::Options {
        device: gpuabi_catalyst::driver::Device::from_name("tonga").unwrap(),
        ..Default::default()
    };
    let layout = gpuabi_catalyst::layout(&kernel, &options).unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("buf".into())),
        ("factor".to_string(), ArgValue::Numbers(vec![2.0.into()])),
        ("bias".to_string(), ArgValue::Numbers(vec![1.0.into()])),
    ]);
    let nd = |work_dim, global, local| NdRange {
        work_dim,
        global,
        local,
        offset: [0; 3],
    };
    let run = |nd: NdRange| {
        let mut memory = gpuabi_sim::Memory::new();
        memory.add("buf", vec![0; 64], 1 << 20).unwrap();
        dispatch(&layout, &nd, &args, &mut memory, 1 << 20)
    };
    // catalyst.rs NdRange::check: the product of three 2^32-1 group counts overflowed u64.
    assert!(run(nd(3, [u32::MAX; 3], [1; 3])).is_err());
    // The same for the work-items of a group of three 2^32-1 local sizes.
    assert!(run(nd(3, [u32::MAX; 3], [u32::MAX; 3])).is_err());
    // One wave per 64-item group: 4096 groups are the most (limits::MAX_WAVES), 4097 too many.
    assert_eq!(
        run(nd(1, [64 * 4096, 1, 1], [64, 1, 1])).unwrap().len(),
        4096
    );
    assert!(run(nd(1, [64 * 4097, 1, 1], [64, 1, 1])).is_err());
    // 1024-item groups take 16 waves each: 256 groups fit, 257 do not.
    assert_eq!(
        run(nd(1, [1024 * 256, 1, 1], [1024, 1, 1])).unwrap().len(),
        4096
    );
    assert!(run(nd(1, [1024 * 257, 1, 1], [1024, 1, 1])).is_err());
}

#[test]
fn waves_share_one_register_file_and_scratch() {
    // Keeping every wave's state made memory grow with the wave count (4096 wave64 waves of
    // 64 KiB scratch per lane were 16 GiB). Waves now reuse one state, reset between them.
    // The effective per-lane limit is also capped whatever the limits say.
    let text = "main:\n  v_mov_b32 v1, 0xfff0\n  scratch_store_dword v1, v1, off\n  s_endpgm\n";
    let program = parse(text, Target::Gfx1030, WaveSize::W64).unwrap();
    let mut m = Machine::new(Image::new(&program).unwrap());
    let last = m
        .run("main", &vec![WaveSetup::default(); 3])
        .unwrap()
        .unwrap();
    assert_eq!(m.stats.scratch_bytes_stored, 3 * 64 * 4);
    // The last wave's scratch holds its own store (4 bytes at 0xfff0 per lane) and nothing
    // older; v1 holds what the last wave wrote.
    assert!(last.scratch.iter().all(|lane| lane.len() == 0xfff0 + 4));
    assert_eq!(last.vgpr[64], 0xfff0);
    assert!(m.run("main", &[]).unwrap().is_none());

    let far = "main:\n  v_mov_b32 v1, 0x7ffffff0\n  scratch_store_dword v1, v1, off\n  s_endpgm\n";
    let program = parse(far, Target::Gfx1030, WaveSize::W64).unwrap();
    let mut m = Machine::new(Image::new(&program).unwrap());
    m.limits.scratch_bytes_per_lane = u32::MAX;
    assert!(m.run("main", &[WaveSetup::default()]).is_err());
}
