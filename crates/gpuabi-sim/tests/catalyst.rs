//! A Catalyst OpenCL kernel written in assembly reads its arguments from cb1 and its
//! NDRange from cb0, and writes a buffer, over several work-groups and waves.

use std::collections::BTreeMap;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_catalyst::driver::Device;
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::{layout, KernelLayout, Options};
use gpuabi_sim::catalyst::{dispatch, ArgValue, CatalystError, NdRange};
use gpuabi_sim::{Image, Machine};

const CL: &str = include_str!("../../../examples/asm/catalyst_scale.cl");
const ASM: &str = include_str!("../../../examples/asm/catalyst_scale.s");

fn kernel_layout() -> KernelLayout {
    let kernel = select_kernel(parse_kernels(CL).unwrap(), None).unwrap();
    let opts = Options {
        device: Device::from_name("tonga").unwrap(),
        dims: Some(Dims::parse("x").unwrap()),
        ..Options::default()
    };
    layout(&kernel, &opts).unwrap()
}

fn nd(global: u32, local: u32, offset: u32) -> NdRange {
    NdRange {
        work_dim: 1,
        global: [global, 1, 1],
        local: [local, 1, 1],
        offset: [offset, 0, 0],
    }
}

#[test]
fn kernel_reads_cb0_cb1_and_writes_its_buffer() {
    let l = kernel_layout();
    let p = parse(ASM, Target::Gfx8, WaveSize::W64).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    // 3 work-groups of 96 items: two waves per group, the second with 32 lanes.
    let (global, local, offset) = (288u32, 96u32, 5u32);
    m.memory.add("out", vec![0; 4 * 300], 1 << 20).unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("factor".to_string(), ArgValue::Numbers(vec![3.0.into()])),
        ("bias".to_string(), ArgValue::Numbers(vec![7.0.into()])),
    ]);
    let setups = dispatch(
        &l,
        &nd(global, local, offset),
        &args,
        &mut m.memory,
        1 << 20,
    )
    .unwrap();
    assert_eq!(setups.len(), 6);
    assert_eq!(setups[1].exec, Some((1u64 << 32) - 1));
    m.run("main", &setups).unwrap();
    let out = &m.memory.find("out").unwrap().data;
    for i in 0..300u32 {
        let v = u32::from_le_bytes(out[4 * i as usize..4 * i as usize + 4].try_into().unwrap());
        let want = if (offset..offset + global).contains(&i) {
            i * 3 + 7
        } else {
            0
        };
        assert_eq!(v, want, "out[{i}]");
    }
    assert_eq!(m.stats.waves, 6);
    assert_eq!(m.stats.buffer_out_of_range, 0);
}

#[test]
fn bad_dispatches_are_reported() {
    let l = kernel_layout();
    let mut m = gpuabi_sim::Memory::new();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("nope".into())),
        ("factor".to_string(), ArgValue::Numbers(vec![3.0.into()])),
        ("bias".to_string(), ArgValue::Numbers(vec![7.0.into()])),
    ]);
    let e = dispatch(&l, &nd(100, 64, 0), &args, &mut m, 1 << 20).unwrap_err();
    assert!(matches!(e, CatalystError::NdRange(_)), "{e}");
    let e = dispatch(&l, &nd(128, 64, 0), &args, &mut m, 1 << 20).unwrap_err();
    assert_eq!(e.to_string(), "argument `out`: no buffer `nope`");
    let mut bad = args.clone();
    bad.insert("out".into(), ArgValue::Buffer("o".into()));
    m.add("o", vec![0; 16], 1 << 20).unwrap();
    bad.insert("factor".into(), ArgValue::Numbers(vec![1.5.into()]));
    let e = dispatch(&l, &nd(128, 64, 0), &bad, &mut m, 1 << 20).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    bad.insert("extra".into(), ArgValue::Numbers(vec![1.0.into()]));
    let e = dispatch(&l, &nd(128, 64, 0), &bad, &mut m, 1 << 20).unwrap_err();
    assert!(
        e.to_string()
            .contains("has no argument `extra` (arguments: out, factor, bias)"),
        "{e}"
    );
}

#[test]
fn scratch_comes_as_a_swizzled_descriptor_in_the_internal_global_table() {
    let kernel = select_kernel(parse_kernels(CL).unwrap(), None).unwrap();
    let opts = Options {
        device: Device::from_name("tonga").unwrap(),
        dims: Some(Dims::parse("x").unwrap()),
        // 10 bytes: SCRATCH_BUFFERS = 3 dwords, 12 bytes per work-item.
        scratch_bytes: 10,
        ..Options::default()
    };
    let l = layout(&kernel, &opts).unwrap();
    let table = l
        .userdata
        .iter()
        .find(|e| e.class == gpuabi_catalyst::userdata::DataClass::PTR_INTERNAL_GLOBAL_TABLE)
        .expect("scratch gives the internal global table pointer");
    let wave_offset: u16 = l.regs.scratch_offset_sgpr.as_deref().unwrap()[1..]
        .parse()
        .unwrap();
    let mut m = gpuabi_sim::memory::Memory::default();
    m.add("out", vec![0; 4 * 256], 1 << 20).unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("factor".to_string(), ArgValue::Numbers(vec![3.0.into()])),
        ("bias".to_string(), ArgValue::Numbers(vec![7.0.into()])),
    ]);
    // 2 work-groups of 96 items: 4 waves.
    let setups = dispatch(&l, &nd(192, 96, 0), &args, &mut m, 1 << 20).unwrap();
    assert_eq!(setups.len(), 4);
    let scratch = m.find("scratch").expect("scratch buffer");
    // 4 waves × 64 lanes × 12 bytes.
    assert_eq!(scratch.data.len(), 4 * 64 * 12);
    let base = scratch.base;
    for (w, s) in setups.iter().enumerate() {
        let sgpr = |n: u16| s.sgprs.iter().find(|(r, _)| *r == n).map(|(_, v)| *v);
        // Each wave's slice follows the previous one: 64 lanes × 12 bytes.
        assert_eq!(sgpr(wave_offset), Some(w as u32 * 768), "wave {w}");
        let lo = sgpr(table.reg_start as u16).unwrap();
        let hi = sgpr(table.reg_start as u16 + 1).unwrap();
        let t = u64::from(lo) | u64::from(hi) << 32;
        // Entry 1 (bytes 16..32) holds the descriptor; fields per AMD's GCN3 ISA manual,
        // "Buffer Resource": dword 1 bits 0-15 base[47:32], bits 16-29 stride, bit 31
        // SWIZZLE_ENABLE; dword 2 NUM_RECORDS; dword 3 bits 19-20 ELEMENT_SIZE (1 = 4
        // bytes), bits 21-22 INDEX_STRIDE (3 = 64), bit 23 ADD_TID_ENABLE.
        let d: Vec<u32> = (0..4)
            .map(|k| m.read_u32(t + 16 + 4 * k).unwrap())
            .collect();
        assert_eq!(d[0], base as u32);
        assert_eq!(d[1] & 0xffff, (base >> 32) as u32);
        assert_eq!((d[1] >> 16) & 0x3fff, 0, "stride");
        assert_eq!(d[1] >> 31, 1, "swizzle");
        assert_eq!(d[2], 12, "bytes per lane");
        assert_eq!((d[3] >> 19) & 3, 1, "element size 4");
        assert_eq!((d[3] >> 21) & 3, 3, "index stride 64");
        assert_eq!((d[3] >> 23) & 1, 1, "ADD_TID_ENABLE");
        // Entry 0 is zero.
        assert!((0..4).all(|k| m.read_u32(t + 4 * k) == Some(0)));
    }
}

#[test]
fn long_arguments_are_exact_and_pointers_find_their_buffer() {
    let src = "kernel void k(global ulong* out, ulong seed, long delta) {}";
    let kernel = select_kernel(parse_kernels(src).unwrap(), None).unwrap();
    let opts = Options {
        device: Device::from_name("tonga").unwrap(),
        dims: Some(Dims::parse("x").unwrap()),
        ..Options::default()
    };
    let l = layout(&kernel, &opts).unwrap();
    let mut m = gpuabi_sim::Memory::new();
    m.add("out", vec![0; 64], 1 << 20).unwrap();
    // `out` is given no value: it points to the buffer of its name. 0x9E3779B97F4A7C15
    // needs all 64 bits; through a double it became 0x9E3779B97F4A8000.
    let args = BTreeMap::from([
        (
            "seed".to_string(),
            ArgValue::Numbers(vec![0x9E37_79B9_7F4A_7C15u64.into()]),
        ),
        ("delta".to_string(), ArgValue::Numbers(vec![(-3i64).into()])),
    ]);
    dispatch(&l, &nd(64, 64, 0), &args, &mut m, 1 << 20).unwrap();
    let cb1 = &m.find("cb1").unwrap().data;
    let at = |name: &str| {
        let a = l.args.iter().find(|a| a.name == name).unwrap();
        let o = a.slot.offset as usize;
        u64::from_le_bytes(cb1[o..o + 8].try_into().unwrap())
    };
    assert_eq!(at("seed"), 0x9E37_79B9_7F4A_7C15);
    assert_eq!(at("delta"), (-3i64) as u64);
    // Without a buffer of its name the pointer has no value.
    let mut empty = gpuabi_sim::Memory::new();
    let e = dispatch(&l, &nd(64, 64, 0), &args, &mut empty, 1 << 20).unwrap_err();
    assert!(e.to_string().contains("`out`"), "{e}");
}
