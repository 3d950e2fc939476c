//! AMDHSA dispatches: hand-written kernels (tests/hsa_kernels/) read their kernarg
//! pointer, work-group ids, work-item ids, hidden arguments, explicit arguments, a dispatch
//! packet field and their private segment, and store them per work-item; the test computes
//! every expected value from the NDRange alone, with the record layout the kernels'
//! comments give.

use std::collections::BTreeMap;
use std::process::Command;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::hsa::{
    layout_kernargs, print_kernel_descriptor, print_preamble, ArgSpec, HiddenArgs, KernArg, Kernel,
    KernelDescriptor, ValueKind, ValueType,
};
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::dispatch::{ArgValue, NdRange};
use gpuabi_sim::hsa::{dispatch, HsaError};
use gpuabi_sim::{Image, Limits, Machine, Memory};

const GFX8: &str = include_str!("hsa_kernels/gfx8.s");
const GFX1030: &str = include_str!("hsa_kernels/gfx1030.s");
const GFX1100_W32: &str = include_str!("hsa_kernels/gfx1100_w32.s");
const GFX1100_W64: &str = include_str!("hsa_kernels/gfx1100_w64.s");

const CONFIGS: [(Target, WaveSize, &str); 5] = [
    (Target::Gfx8, WaveSize::W64, GFX8),
    (Target::Gfx1030, WaveSize::W32, GFX1030),
    (Target::Gfx1030, WaveSize::W64, GFX1030),
    (Target::Gfx1100, WaveSize::W32, GFX1100_W32),
    (Target::Gfx1100, WaveSize::W64, GFX1100_W64),
];

/// Dwords each work-item stores.
const RECORD: usize = 20;
const N: f64 = -5.0;
const F: f64 = 2.5;

fn spec(name: &str, size: u32, kind: ValueKind, value_type: Option<ValueType>) -> ArgSpec {
    ArgSpec {
        name: name.into(),
        size,
        align: size,
        kind,
        value_type,
    }
}

/// The kernels' descriptor and arguments (see their header comments).
fn kernel(target: Target, wave: WaveSize) -> Kernel {
    let mut d = KernelDescriptor::new(target, wave);
    d.user_sgpr_private_segment_buffer = target != Target::Gfx1100;
    d.user_sgpr_dispatch_ptr = true;
    d.system_sgpr_workgroup_id_y = true;
    d.system_sgpr_workgroup_id_z = true;
    d.system_sgpr_private_segment_wavefront_offset = true;
    d.system_vgpr_workitem_id = 2;
    d.private_segment_fixed_size = 8;
    d.next_free_vgpr = 13;
    d.next_free_sgpr = 48;
    if (target, wave) == (Target::Gfx1100, WaveSize::W32) {
        d.pad_user_sgprs_like_llvm(target, wave);
    }
    let layout = layout_kernargs(
        &[
            spec("out", 8, ValueKind::GlobalBuffer, None),
            spec("n", 4, ValueKind::ByValue, Some(ValueType::I32)),
            spec("f", 4, ValueKind::ByValue, Some(ValueType::F32)),
        ],
        Some(HiddenArgs::DISPATCH_ONLY),
        target,
    )
    .unwrap();
    Kernel::new("main", d, layout)
}

fn nd(work_dim: u32, global: [u32; 3], local: [u32; 3], offset: [u32; 3]) -> NdRange {
    NdRange {
        work_dim,
        global,
        local,
        offset,
    }
}

fn ndranges() -> Vec<NdRange> {
    vec![
        // Partial last work-groups in every dimension.
        nd(3, [13, 5, 3], [4, 2, 2], [5, 6, 7]),
        // Several waves per work-group, and a last group of 8 work-items.
        nd(1, [200, 1, 1], [96, 1, 1], [3, 0, 0]),
        // Whole work-groups.
        nd(2, [64, 4, 1], [16, 4, 1], [0, 0, 0]),
    ]
}

/// The waves of a dispatch as the test derives them: work-groups with x fastest, a
/// work-group's work-items in order (x fastest) cut into waves of `lanes`; each wave lists
/// the global ids of its work-items.
fn waves(nd: &NdRange, lanes: u32) -> Vec<Vec<[u32; 3]>> {
    let count = |d: usize| nd.global[d].div_ceil(nd.local[d]);
    let mut out = Vec::new();
    for gz in 0..count(2) {
        for gy in 0..count(1) {
            for gx in 0..count(0) {
                let g = [gx, gy, gz];
                let mut items = Vec::new();
                let size = |d: usize| nd.local[d].min(nd.global[d] - g[d] * nd.local[d]);
                for lz in 0..size(2) {
                    for ly in 0..size(1) {
                        for lx in 0..size(0) {
                            items.push([
                                gx * nd.local[0] + lx,
                                gy * nd.local[1] + ly,
                                gz * nd.local[2] + lz,
                            ]);
                        }
                    }
                }
                for chunk in items.chunks(lanes as usize) {
                    out.push(chunk.to_vec());
                }
            }
        }
    }
    out
}

fn dword(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}

fn run(target: Target, wave: WaveSize, asm: &str, nd: &NdRange) {
    let what = format!("{target} {wave} {nd:?}");
    let k = kernel(target, wave);
    let p = parse(asm, target, wave).unwrap();
    let mut m = Machine::new(Image::new(&p).expect("valid program"));
    let items: u32 = nd.global.iter().product();
    m.memory
        .add("out", vec![0; items as usize * RECORD * 4], 1 << 24)
        .unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("n".to_string(), ArgValue::Numbers(vec![N.into()])),
        ("f".to_string(), ArgValue::Numbers(vec![F.into()])),
    ]);
    let limits = m.limits;
    let setups = dispatch(&k, target, wave, nd, &args, &mut m.memory, &limits).unwrap();
    let expected_waves = waves(nd, wave.lanes());
    assert_eq!(setups.len(), expected_waves.len(), "{what}: waves");
    for (s, w) in setups.iter().zip(&expected_waves) {
        let mask = if w.len() == 64 {
            u64::MAX
        } else {
            (1u64 << w.len()) - 1
        };
        assert_eq!(s.exec, Some(mask), "{what}: exec");
    }
    m.run("main", &setups).unwrap();
    assert_eq!(m.stats.buffer_out_of_range, 0, "{what}");

    let kernarg = m.memory.find("kernarg").unwrap().base;
    let out = &m.memory.find("out").unwrap().data;
    let [lx, ly, lz] = nd.local;
    let [sx, sy, _] = nd.global;
    for w in &expected_waves {
        for g in w {
            let index = ((g[2] * sy + g[1]) * sx + g[0]) as usize;
            let want: [u32; RECORD] = [
                g[0] / lx,
                g[1] / ly,
                g[2] / lz,
                g[0] % lx,
                g[1] % ly,
                g[2] % lz,
                kernarg as u32,
                (kernarg >> 32) as u32,
                sx / lx,
                sy / ly,
                lx | ly << 16,
                lz | (sx % lx) << 16,
                (sy % ly) | (nd.global[2] % lz) << 16,
                nd.offset[0],
                nd.work_dim,
                N as i32 as u32,
                (F as f32).to_bits(),
                sx,
                g[0] + 7,
                (index * RECORD * 4) as u32,
            ];
            let got: Vec<u32> = (0..RECORD)
                .map(|k| dword(out, (index * RECORD + k) * 4))
                .collect();
            assert_eq!(got, want, "{what}: work-item {g:?}");
        }
    }

    // Without architected flat scratch the private segment is a global buffer: the lane
    // `l` of wave `w` keeps its dword `k` at w * 8 * lanes + k * 4 * lanes + 4 * l
    // (swizzled, element size 4, index stride = wave size).
    if target != Target::Gfx1100 {
        let private = &m.memory.find("private_segment").unwrap().data;
        let lanes = wave.lanes() as usize;
        for (wi, w) in expected_waves.iter().enumerate() {
            for (l, g) in w.iter().enumerate() {
                let index = ((g[2] * sy + g[1]) * sx + g[0]) as usize;
                let at = |k: usize| wi * 8 * lanes + k * 4 * lanes + 4 * l;
                assert_eq!(dword(private, at(0)), g[0] + 7, "{what}: private dword 0");
                assert_eq!(
                    dword(private, at(1)),
                    (index * RECORD * 4) as u32,
                    "{what}: private dword 1"
                );
            }
        }
    } else {
        assert!(m.memory.find("private_segment").is_none());
    }
}

#[test]
fn kernels_read_their_initial_state() {
    for (target, wave, asm) in CONFIGS {
        for nd in ndranges() {
            run(target, wave, asm, &nd);
        }
    }
}

/// The packet fields at the offsets of `hsa_kernel_dispatch_packet_t` in the HSA
/// runtime's `hsa.h`.
#[test]
fn dispatch_packet_fields() {
    let (target, wave) = (Target::Gfx8, WaveSize::W64);
    let k = kernel(target, wave);
    let mut mem = Memory::new();
    mem.add("out", vec![0; 64], 1 << 20).unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("n".to_string(), ArgValue::Numbers(vec![1.0.into()])),
        ("f".to_string(), ArgValue::Numbers(vec![1.0.into()])),
    ]);
    let nd = nd(3, [13, 5, 3], [4, 2, 2], [0, 0, 0]);
    dispatch(&k, target, wave, &nd, &args, &mut mem, &Limits::default()).unwrap();
    let kernarg = mem.find("kernarg").unwrap().base;
    let p = &mem.find("dispatch_packet").unwrap().data;
    let u16_at = |at: usize| u16::from_le_bytes([p[at], p[at + 1]]);
    assert_eq!(p.len(), 64);
    assert_eq!(u16_at(0) & 0xff, 2, "kernel dispatch packet type");
    assert_eq!(u16_at(2), 3, "dimensions");
    assert_eq!([u16_at(4), u16_at(6), u16_at(8)], [4, 2, 2]);
    assert_eq!([dword(p, 12), dword(p, 16), dword(p, 20)], [13, 5, 3]);
    assert_eq!(dword(p, 24), 8, "private segment bytes per work-item");
    assert_eq!(dword(p, 28), 0, "group segment bytes");
    assert_eq!(u64::from_le_bytes(p[40..48].try_into().unwrap()), kernarg);
}

/// The printed descriptors with the kernels assemble with llvm-mc-19.
#[test]
fn kernels_assemble_with_their_descriptors() {
    let found = Command::new("llvm-mc-19").arg("--version").output().is_ok();
    if !found {
        let msg = "llvm-mc-19 not found: the AMDHSA kernel assembly test is skipped";
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hsa_kernels");
    std::fs::create_dir_all(&dir).unwrap();
    for (target, wave, asm) in CONFIGS {
        let k = kernel(target, wave);
        let block = print_kernel_descriptor("main", &k.descriptor, target, wave).unwrap();
        let text = format!(
            "{}{asm}\n\t.rodata\n\t.p2align 6\n{block}",
            print_preamble(target)
        );
        let src = dir.join(format!("{}_w{}.s", target.name(), wave.lanes()));
        std::fs::write(&src, &text).unwrap();
        let mut cmd = Command::new("llvm-mc-19");
        cmd.args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={}", target.llvm_cpu()),
        ]);
        if target.is_rdna() {
            cmd.arg(format!("-mattr=+wavefrontsize{}", wave.lanes()));
        }
        let out = cmd
            .args(["-filetype=obj", "-o"])
            .arg(dir.join("out.o"))
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{target} {wave}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn arg(name: &str, offset: u32, size: u32, value_type: Option<ValueType>) -> KernArg {
    KernArg {
        name: name.into(),
        offset,
        size,
        align: size.min(8),
        kind: ValueKind::ByValue,
        value_type,
    }
}

/// A kernel of by-value arguments only, to check how numbers become bytes.
fn values_kernel(args: Vec<KernArg>) -> Kernel {
    let size = args.iter().map(|a| a.offset + a.size).max().unwrap_or(0);
    let mut d = KernelDescriptor::new(Target::Gfx1030, WaveSize::W32);
    d.kernarg_size = size;
    Kernel {
        name: "values".into(),
        descriptor: d,
        args,
        kernarg_size: size,
    }
}

fn try_values(k: &Kernel, values: &[(&str, Vec<f64>)]) -> Result<Vec<u8>, HsaError> {
    let args = values
        .iter()
        .map(|(n, v)| {
            (
                n.to_string(),
                ArgValue::Numbers(v.iter().map(|&n| n.into()).collect()),
            )
        })
        .collect();
    let mut mem = Memory::new();
    dispatch(
        k,
        Target::Gfx1030,
        WaveSize::W32,
        &nd(1, [1, 1, 1], [1, 1, 1], [0, 0, 0]),
        &args,
        &mut mem,
        &Limits::default(),
    )?;
    Ok(mem.find("kernarg").unwrap().data.clone())
}

#[test]
fn numbers_become_bytes_per_value_type() {
    let k = values_kernel(vec![
        arg("c", 0, 1, Some(ValueType::I8)),
        arg("l", 8, 8, Some(ValueType::I64)),
        arg("d", 16, 8, Some(ValueType::F64)),
        arg("v", 32, 16, None),
        arg("g", 48, 4, None),
        arg("u", 52, 4, Some(ValueType::I32)),
    ]);
    let seg = try_values(
        &k,
        &[
            ("c", vec![-1.0]),
            ("l", vec![-2.0]),
            ("d", vec![0.1]),
            ("v", vec![1.0, 2.0, 3.0]),
            ("g", vec![0.5]),
            ("u", vec![4294967295.0]),
        ],
    )
    .unwrap();
    assert_eq!(seg[0], 0xff);
    assert_eq!(seg[8..16], (-2i64).to_le_bytes());
    assert_eq!(seg[16..24], 0.1f64.to_bits().to_le_bytes());
    assert_eq!(
        [
            dword(&seg, 32),
            dword(&seg, 36),
            dword(&seg, 40),
            dword(&seg, 44)
        ],
        [1, 2, 3, 0]
    );
    assert_eq!(dword(&seg, 48), 0.5f32.to_bits());
    assert_eq!(dword(&seg, 52), u32::MAX);

    for (name, value) in [
        ("u", vec![2.5]),
        ("u", vec![4294967296.0]),
        ("c", vec![-129.0]),
        ("c", vec![1.0, 2.0]),
    ] {
        let mut values: Vec<(&str, Vec<f64>)> = [
            ("c", vec![0.0]),
            ("l", vec![0.0]),
            ("d", vec![0.0]),
            ("v", vec![0.0]),
            ("g", vec![0.0]),
            ("u", vec![0.0]),
        ]
        .into_iter()
        .filter(|(n, _)| *n != name)
        .collect();
        values.push((name, value.clone()));
        match try_values(&k, &values) {
            Err(HsaError::Arg { name: n, .. }) => assert_eq!(n, name, "{value:?}"),
            other => panic!("{name} = {value:?}: {other:?}"),
        }
    }
}

#[test]
fn bad_dispatches_name_the_problem() {
    let (target, wave) = (Target::Gfx1030, WaveSize::W32);
    let k = kernel(target, wave);
    let good = nd(1, [64, 1, 1], [32, 1, 1], [0, 0, 0]);
    let base = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("n".to_string(), ArgValue::Numbers(vec![1.0.into()])),
        ("f".to_string(), ArgValue::Numbers(vec![1.0.into()])),
    ]);
    let attempt = |args: &BTreeMap<String, ArgValue>, nd: &NdRange, wave: WaveSize| {
        let mut mem = Memory::new();
        mem.add("out", vec![0; 64], 1 << 20).unwrap();
        dispatch(&k, target, wave, nd, args, &mut mem, &Limits::default())
    };
    assert!(attempt(&base, &good, wave).is_ok());

    let arg_name = |r: Result<_, HsaError>| match r {
        Err(HsaError::Arg { name, .. }) => name,
        other => panic!("{other:?}"),
    };
    let mut missing = base.clone();
    missing.remove("n");
    assert_eq!(arg_name(attempt(&missing, &good, wave)), "n");
    let mut unknown = base.clone();
    unknown.insert("m".into(), ArgValue::Numbers(vec![1.0.into()]));
    assert_eq!(arg_name(attempt(&unknown, &good, wave)), "m");
    let mut hidden = base.clone();
    hidden.insert(
        "hidden_grid_dims".into(),
        ArgValue::Numbers(vec![1.0.into()]),
    );
    assert_eq!(arg_name(attempt(&hidden, &good, wave)), "hidden_grid_dims");
    let mut no_buffer = base.clone();
    no_buffer.insert("out".into(), ArgValue::Buffer("nope".into()));
    assert_eq!(arg_name(attempt(&no_buffer, &good, wave)), "out");
    let mut buffer_for_value = base.clone();
    buffer_for_value.insert("f".into(), ArgValue::Buffer("out".into()));
    assert_eq!(arg_name(attempt(&buffer_for_value, &good, wave)), "f");

    for bad in [
        nd(1, [64, 1, 1], [0, 1, 1], [0, 0, 0]),
        nd(1, [64, 2, 1], [32, 1, 1], [0, 0, 0]),
        nd(4, [64, 1, 1], [32, 1, 1], [0, 0, 0]),
        nd(3, [64, 64, 64], [32, 32, 2], [0, 0, 0]),
        nd(1, [u32::MAX, 1, 1], [1, 1, 1], [0, 0, 0]),
    ] {
        assert!(
            matches!(attempt(&base, &bad, wave), Err(HsaError::NdRange(_))),
            "{bad:?}"
        );
    }
    assert!(matches!(
        attempt(&base, &good, WaveSize::W64),
        Err(HsaError::Descriptor(_))
    ));
    let mut mem = Memory::new();
    mem.add("out", vec![0; 64], 1 << 20).unwrap();
    mem.add("kernarg", vec![0; 64], 1 << 20).unwrap();
    assert!(matches!(
        dispatch(&k, target, wave, &good, &base, &mut mem, &Limits::default()),
        Err(HsaError::Memory(_))
    ));

    // More private memory than the limit allows.
    let mut greedy = kernel(target, wave);
    greedy.descriptor.private_segment_fixed_size = 1 << 30;
    let mut mem = Memory::new();
    mem.add("out", vec![0; 64], 1 << 20).unwrap();
    assert!(matches!(
        dispatch(
            &greedy,
            target,
            wave,
            &good,
            &base,
            &mut mem,
            &Limits::default()
        ),
        Err(HsaError::Limit(_))
    ));

    // A MODE the vector ALU model does not compute (denormals flushed, IEEE mode off).
    let flushing = |d: &mut KernelDescriptor| d.float_denorm_mode_32 = 0;
    let not_ieee = |d: &mut KernelDescriptor| d.ieee_mode = false;
    for (change, needle) in [
        (
            &flushing as &dyn Fn(&mut KernelDescriptor),
            "float_denorm_mode_32 0",
        ),
        (&not_ieee, "ieee_mode 0"),
    ] {
        let mut k = kernel(target, wave);
        change(&mut k.descriptor);
        let mut mem = Memory::new();
        mem.add("out", vec![0; 64], 1 << 20).unwrap();
        match dispatch(&k, target, wave, &good, &base, &mut mem, &Limits::default()) {
            Err(e @ HsaError::Mode(_)) => assert!(e.to_string().contains(needle), "{e}"),
            other => panic!("{other:?}"),
        }
    }
}

/// The SGPRs the kernels above do not read, in AMDHSA order on gfx8 (hand-counted: private
/// segment buffer s[0:3], dispatch ptr s[4:5], queue ptr s[6:7], kernarg ptr s[8:9],
/// dispatch id s[10:11], flat scratch init s[12:13], private segment size s14, work-group
/// id x s15, work-group info s16, wave offset s17) and flat scratch init on gfx1030.
#[test]
fn other_sgpr_values() {
    let mut d = KernelDescriptor::new(Target::Gfx8, WaveSize::W64);
    d.user_sgpr_private_segment_buffer = true;
    d.user_sgpr_dispatch_ptr = true;
    d.user_sgpr_queue_ptr = true;
    d.user_sgpr_dispatch_id = true;
    d.user_sgpr_flat_scratch_init = true;
    d.user_sgpr_private_segment_size = true;
    d.system_sgpr_workgroup_info = true;
    d.system_sgpr_private_segment_wavefront_offset = true;
    d.private_segment_fixed_size = 10;
    let layout = layout_kernargs(&[], None, Target::Gfx8).unwrap();
    let k = Kernel::new("k", d, layout);
    let mut mem = Memory::new();
    // Two work-groups of 96 work-items: two waves each.
    let nd = nd(1, [192, 1, 1], [96, 1, 1], [0, 0, 0]);
    let setups = dispatch(
        &k,
        Target::Gfx8,
        WaveSize::W64,
        &nd,
        &BTreeMap::new(),
        &mut mem,
        &Limits::default(),
    )
    .unwrap();
    let packet = mem.find("dispatch_packet").unwrap().base;
    let scratch = mem.find("private_segment").unwrap();
    // 12 bytes per lane (10 rounded up to dwords) for 64 lanes of 4 waves.
    assert_eq!(scratch.data.len(), 12 * 64 * 4);
    let sgpr = |w: usize, n: u16| {
        setups[w]
            .sgprs
            .iter()
            .find(|(r, _)| *r == n)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("wave {w}: s{n} not set"))
    };
    for w in 0..4 {
        assert_eq!(sgpr(w, 0), scratch.base as u32, "buffer base");
        assert_eq!(sgpr(w, 1) & 0xffff, (scratch.base >> 32) as u32);
        assert_eq!(sgpr(w, 1) >> 31, 1, "swizzled");
        assert_eq!(sgpr(w, 2), 12, "num_records: bytes per lane");
        assert_eq!((sgpr(w, 3) >> 19) & 3, 1, "element size 4");
        assert_eq!((sgpr(w, 3) >> 21) & 3, 3, "index stride 64");
        assert_eq!((sgpr(w, 3) >> 23) & 1, 1, "ADD_TID_ENABLE");
        assert_eq!(
            [sgpr(w, 4), sgpr(w, 5)],
            [packet as u32, (packet >> 32) as u32]
        );
        assert_eq!([sgpr(w, 6), sgpr(w, 7)], [0, 0], "queue ptr");
        assert_eq!([sgpr(w, 10), sgpr(w, 11)], [0, 0], "dispatch id");
        assert_eq!([sgpr(w, 12), sgpr(w, 13)], [0, 12], "flat scratch init");
        assert_eq!(sgpr(w, 14), 12, "private segment size");
        assert_eq!(sgpr(w, 15), w as u32 / 2, "work-group id x");
        let first = if w % 2 == 0 { 1 << 31 } else { 0 };
        assert_eq!(sgpr(w, 16), first | 2, "work-group info");
        assert_eq!(sgpr(w, 17), w as u32 * 12 * 64, "wave offset");
    }
    assert_eq!(setups[1].exec, Some((1 << 32) - 1));

    let mut d = KernelDescriptor::new(Target::Gfx1030, WaveSize::W32);
    d.user_sgpr_kernarg_segment_ptr = false;
    d.user_sgpr_flat_scratch_init = true;
    d.private_segment_fixed_size = 4;
    let k = Kernel::new("k", d, layout_kernargs(&[], None, Target::Gfx1030).unwrap());
    let mut mem = Memory::new();
    let setups = dispatch(
        &k,
        Target::Gfx1030,
        WaveSize::W32,
        &nd,
        &BTreeMap::new(),
        &mut mem,
        &Limits::default(),
    )
    .unwrap();
    let base = mem.find("private_segment").unwrap().base;
    assert_eq!(
        setups[0].sgprs[..2],
        [(0, base as u32), (1, (base >> 32) as u32)]
    );
}

/// Arbitrary descriptors, argument lists, NDRanges and values: a dispatch either is refused
/// with an error or gives the waves the test derives, never a panic or a huge allocation.
#[test]
fn arbitrary_dispatches_never_panic() {
    use arbitrary::Unstructured;
    arbtest::arbtest(|u: &mut Unstructured<'_>| {
        let (target, wave, _) = *u.choose(&CONFIGS)?;
        let mut d = KernelDescriptor::new(target, wave);
        d.user_sgpr_private_segment_buffer = u.arbitrary()?;
        d.user_sgpr_dispatch_ptr = u.arbitrary()?;
        d.user_sgpr_queue_ptr = u.arbitrary()?;
        d.user_sgpr_dispatch_id = u.arbitrary()?;
        d.user_sgpr_flat_scratch_init = u.arbitrary()?;
        d.user_sgpr_private_segment_size = u.arbitrary()?;
        d.system_sgpr_private_segment_wavefront_offset = u.arbitrary()?;
        d.system_sgpr_workgroup_id_y = u.arbitrary()?;
        d.system_sgpr_workgroup_info = u.arbitrary()?;
        d.system_vgpr_workitem_id = u.int_in_range(0..=3)?;
        d.user_sgpr_count = u.arbitrary::<Option<u8>>()?.map(|c| u32::from(c % 20));
        d.private_segment_fixed_size = *u.choose(&[0, 3, 64, 4096, 1 << 20, u32::MAX])?;
        let any_size = |u: &mut Unstructured<'_>| -> arbitrary::Result<u32> {
            Ok(*u.choose(&[0, 1, 2, 3, 4, 8, 12, 16, 4096, u32::MAX])?)
        };
        let mut args = Vec::new();
        for name in ["a", "b", "c"] {
            if u.arbitrary()? {
                args.push(KernArg {
                    name: name.into(),
                    offset: any_size(u)?,
                    size: any_size(u)?,
                    align: 4,
                    kind: *u.choose(&[
                        ValueKind::ByValue,
                        ValueKind::GlobalBuffer,
                        ValueKind::Image,
                        ValueKind::HiddenGridDims,
                    ])?,
                    value_type: *u.choose(&[
                        None,
                        Some(ValueType::I8),
                        Some(ValueType::I32),
                        Some(ValueType::F16),
                        Some(ValueType::F64),
                    ])?,
                });
            }
        }
        let kernarg_size = any_size(u)?;
        d.kernarg_size = kernarg_size;
        let k = Kernel {
            name: "k".into(),
            descriptor: d,
            args,
            kernarg_size,
        };
        let size = |u: &mut Unstructured<'_>| -> arbitrary::Result<u32> {
            Ok(*u.choose(&[0, 1, 3, 32, 64, 100, 1024, 65536, u32::MAX])?)
        };
        let nd = NdRange {
            work_dim: u.int_in_range(0..=4)?,
            global: [size(u)?, size(u)?, size(u)?],
            local: [size(u)?, size(u)?, size(u)?],
            offset: [size(u)?, size(u)?, size(u)?],
        };
        let mut values = BTreeMap::new();
        for name in ["a", "b", "c", "d"] {
            if u.ratio(3, 4)? {
                let v = if u.arbitrary()? {
                    ArgValue::Buffer((*u.choose(&["buf", "missing"])?).to_string())
                } else {
                    let n = u.int_in_range(0..=5)?;
                    let mut v = Vec::new();
                    for _ in 0..n {
                        v.push(*u.choose(&[
                            0.0,
                            -1.0,
                            0.5,
                            255.0,
                            4294967296.0,
                            -1e300,
                            f64::NAN,
                            f64::INFINITY,
                        ])?);
                    }
                    ArgValue::Numbers(v.into_iter().map(Into::into).collect())
                };
                values.insert(name.to_string(), v);
            }
        }
        let limits = Limits {
            global_bytes: 1 << 24,
            ..Limits::default()
        };
        let mut mem = Memory::new();
        mem.add("buf", vec![0; 16], limits.global_bytes).unwrap();
        if let Ok(setups) = dispatch(&k, target, wave, &nd, &values, &mut mem, &limits) {
            assert_eq!(setups.len(), waves(&nd, wave.lanes()).len());
            assert!(setups.iter().all(|s| s.exec.is_some_and(|e| e != 0)));
        }
        Ok(())
    })
    .budget_ms(1000);
}

/// A spill stored while lane 0 is off and reloaded with every lane on reads, for lane 0,
/// private memory nothing wrote: the machine reports that read (once, at the reload), and
/// not the reload of a dword every lane stored.
#[test]
fn reads_of_unwritten_private_memory_are_reported() {
    let asm = "main:
	s_add_u32 s0, s0, s11
	s_addc_u32 s1, s1, 0
	v_mov_b32 v1, 7
	buffer_store_dword v1, off, s[0:3], 0 offset:4
	v_cmp_ne_u32 vcc, 0, v0
	s_and_saveexec_b64 s[12:13], vcc
	buffer_store_dword v1, off, s[0:3], 0
	s_or_b64 exec, exec, s[12:13]
	buffer_load_dword v2, off, s[0:3], 0 offset:4
	buffer_load_dword v3, off, s[0:3], 0
	s_waitcnt vmcnt(0)
	s_endpgm
";
    let (target, wave) = (Target::Gfx8, WaveSize::W64);
    let k = kernel(target, wave);
    let p = parse(asm, target, wave).unwrap();
    let mut m = Machine::new(Image::new(&p).expect("valid program"));
    m.memory.add("out", vec![0; 64], 1 << 24).unwrap();
    let args = BTreeMap::from([
        ("out".to_string(), ArgValue::Buffer("out".into())),
        ("n".to_string(), ArgValue::Numbers(vec![N.into()])),
        ("f".to_string(), ArgValue::Numbers(vec![F.into()])),
    ]);
    let limits = m.limits;
    let nd = nd(1, [64, 1, 1], [64, 1, 1], [0, 0, 0]);
    let setups = dispatch(&k, target, wave, &nd, &args, &mut m.memory, &limits).unwrap();
    m.track_undefined = true;
    m.run("main", &setups).unwrap();
    let reads: Vec<(u32, u64, u32)> = m
        .unwritten
        .iter()
        .map(|u| (u.origin.line().unwrap_or(0), u.offset, u.bytes))
        .collect();
    // Line 11 loads dword 0, which lane 0 never stored: in the swizzled private segment
    // (element size 4, index stride 64) lane 0's dword 0 of wave 0 is at byte 0.
    assert_eq!(reads, [(11, 0, 4)]);
    assert!(m.unwritten.iter().all(|u| u.buffer == "private_segment"));
}
