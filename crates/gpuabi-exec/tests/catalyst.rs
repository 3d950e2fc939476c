//! Kernels compiled for the `catalyst` entry leave the buffers the interpreter leaves:
//! every launch value in a 2-D dispatch with a global offset and partial waves, pointer
//! arguments with offsets into their buffers, one UAV (immediate descriptor) and several
//! (UAV table); stack arrays and VGPR spills in the scratch buffer of the internal global
//! table; and what the entry cannot run is refused with a reason.

use gpuabi_amdgpu::Target;
use gpuabi_catalyst::userdata::DataClass;
use gpuabi_codegen::{Compiled, Entry, KernelEntry, Options};
use gpuabi_exec::ExecError;
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};

/// An argument: raw bits, or a buffer's address plus an offset.
enum Arg {
    Bits(u64),
    Buffer(&'static str, u64),
}

fn options() -> Options {
    Options {
        entry: Entry::Catalyst,
        ..Options::new(Target::Gfx8)
    }
}

fn compile(source: &str) -> Compiled {
    compile_with(source, &options())
}

fn compile_with(source: &str, opts: &Options) -> Compiled {
    let module = gpuabi_ir::parse(source).expect("test kernels parse");
    gpuabi_codegen::compile(&module, opts).expect("test kernels compile")
}

/// Named buffers and their contents.
type Buffers = Vec<(String, Vec<u8>)>;

/// Runs `kernel` in the interpreter and compiled; returns both runs' buffers.
fn both(
    source: &str,
    kernel: &str,
    d: &Dispatch,
    args: &[Arg],
    buffers: &[(&str, Vec<u8>)],
) -> (Buffers, Result<Buffers, ExecError>) {
    both_with(&options(), source, kernel, d, args, buffers)
}

/// [`both`], compiled with `opts`.
fn both_with(
    opts: &Options,
    source: &str,
    kernel: &str,
    d: &Dispatch,
    args: &[Arg],
    buffers: &[(&str, Vec<u8>)],
) -> (Buffers, Result<Buffers, ExecError>) {
    let module = gpuabi_ir::parse(source).expect("test kernels parse");
    let prog = Program::new(&module).expect("test kernels verify");
    let limits = Limits::default();
    let mut mem = Memory::new(limits.max_memory_bytes);
    for (name, data) in buffers {
        mem.add(name, data.clone()).expect("buffers fit");
    }
    let bits: Vec<u64> = args
        .iter()
        .map(|a| match a {
            Arg::Bits(b) => *b,
            Arg::Buffer(name, offset) => mem.address(name).expect("named buffer") + offset,
        })
        .collect();
    let given: Vec<(String, Vec<u8>)> = buffers
        .iter()
        .map(|(n, d)| (n.to_string(), d.clone()))
        .collect();
    let compiled = gpuabi_codegen::compile(&module, opts).expect("test kernels compile");
    let out = gpuabi_exec::run(
        &compiled,
        kernel,
        d,
        &bits,
        &given,
        &gpuabi_sim::Limits::default(),
    )
    .map(|o| o.buffers);
    prog.dispatch(kernel, &bits, d, &mut mem, &limits)
        .expect("the interpreter runs the test kernels");
    let expected = mem
        .buffers
        .iter()
        .map(|b| (b.name.clone(), b.data.clone()))
        .collect();
    (expected, out)
}

fn assert_same(expected: &[(String, Vec<u8>)], actual: &[(String, Vec<u8>)]) {
    if let Some(d) = gpuabi_exec::first_difference(expected, actual) {
        panic!(
            "buffer `{}` byte {}: interpreter {:#04x}, compiled {:#04x}",
            d.buffer, d.offset, d.expected, d.actual
        );
    }
}

fn layout(c: &Compiled) -> &gpuabi_catalyst::KernelLayout {
    match &c.kernels[0].entry {
        KernelEntry::Catalyst(l) => l,
        KernelEntry::Hsa(_) => panic!("compiled for catalyst"),
    }
}

const LAUNCH: &str = "
fn @ids(%out: ptr uniform) kernel {
  %gx = global_id 0
  %gy = global_id 1
  %ox = global_offset 0
  %oy = global_offset 1
  %sx = global_size 0
  %rx = sub i32 %gx, %ox
  %ry = sub i32 %gy, %oy
  %row = mul i32 %ry, %sx
  %idx = add i32 %row, %rx
  %base = mul i32 %idx, 48
  %lx = local_id 0
  %ly = local_id 1
  %grx = group_id 0
  %gry = group_id 1
  %zx = group_size 0
  %zy = group_size 1
  %nx = num_groups 0
  %ny = num_groups 1
  %sy = global_size 1
  %wd = work_dim
  %p0 = ptradd %out, %base
  store i32 %gx, %p0
  %b1 = add i32 %base, 4
  %p1 = ptradd %out, %b1
  store i32 %gy, %p1
  %b2 = add i32 %base, 8
  %p2 = ptradd %out, %b2
  store i32 %lx, %p2
  %b3 = add i32 %base, 12
  %p3 = ptradd %out, %b3
  store i32 %ly, %p3
  %b4 = add i32 %base, 16
  %p4 = ptradd %out, %b4
  store i32 %grx, %p4
  %b5 = add i32 %base, 20
  %p5 = ptradd %out, %b5
  store i32 %gry, %p5
  %b6 = add i32 %base, 24
  %p6 = ptradd %out, %b6
  store i32 %zx, %p6
  %b7 = add i32 %base, 28
  %p7 = ptradd %out, %b7
  store i32 %zy, %p7
  %b8 = add i32 %base, 32
  %p8 = ptradd %out, %b8
  store i32 %nx, %p8
  %b9 = add i32 %base, 36
  %p9 = ptradd %out, %b9
  store i32 %ny, %p9
  %b10 = add i32 %base, 40
  %p10 = ptradd %out, %b10
  store i32 %sy, %p10
  %b11 = add i32 %base, 44
  %p11 = ptradd %out, %b11
  store i32 %wd, %p11
  ret
}
";

#[test]
fn every_launch_value_in_a_2d_dispatch_with_offset() {
    // 8x3 = 24 work-items per group: every wave is partial.
    let d = Dispatch {
        global_size: [16, 6, 1],
        group_size: [8, 3, 1],
        global_offset: [5, 7, 0],
        work_dim: 2,
    };
    let out = vec![0xa5u8; 16 * 6 * 48];
    let (expected, actual) = both(LAUNCH, "ids", &d, &[Arg::Buffer("out", 0)], &[("out", out)]);
    let actual = actual.expect("the compiled kernel runs");
    assert_same(&expected, &actual);
    // Spot check against a hand computation: the work-item (x, y) = (13, 4) of the range
    // is in group (1, 1) at local (5, 1); its global id is (13 + 5, 4 + 7).
    let at = (4 * 16 + 13) * 48;
    let word =
        |k: usize| u32::from_le_bytes(actual[0].1[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
    assert_eq!(
        (0..12).map(word).collect::<Vec<_>>(),
        vec![18, 11, 5, 1, 1, 1, 8, 3, 2, 2, 6, 2]
    );
}

const COPY: &str = "
fn @copy(%n: i32 uniform, %src: ptr uniform, %k: i64 uniform, %dst: ptr uniform, %f: f32 uniform) kernel {
  %i = global_id 0
  %ok = icmp ult i32 %i, %n
  if %ok {
    %off = mul i32 %i, 4
    %ps = ptradd %src, %off
    %v = load i32 %ps
    %kl = trunc i64 %k to i32
    %s = add i32 %v, %kl
    %pd = ptradd %dst, %off
    store i32 %s, %pd
    %fo = add i32 %off, 256
    %pf = ptradd %dst, %fo
    %fv = fmul %f, 2.0
    store f32 %fv, %pf
  }
  ret
}
";

#[test]
fn pointer_arguments_with_offsets_into_their_buffers() {
    let d = Dispatch {
        global_size: [64, 1, 1],
        group_size: [32, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let src: Vec<u8> = (0..512u32).map(|i| (i * 7) as u8).collect();
    let args = [
        Arg::Bits(50),
        Arg::Buffer("src", 16),
        Arg::Bits(0x1_0000_0003),
        Arg::Buffer("dst", 8),
        Arg::Bits(u64::from(1.5f32.to_bits())),
    ];
    let buffers = [("src", src), ("dst", vec![0u8; 600])];
    let (expected, actual) = both(COPY, "copy", &d, &args, &buffers);
    assert_same(&expected, &actual.expect("the compiled kernel runs"));
    // Two pointers: the UAVs come through the UAV table.
    let c = compile(COPY);
    let classes: Vec<DataClass> = layout(&c).userdata.iter().map(|e| e.class).collect();
    assert!(classes.contains(&DataClass::PTR_UAV_TABLE), "{classes:?}");
}

#[test]
fn one_pointer_comes_as_an_immediate_uav() {
    let src = "
fn @fill(%out: ptr uniform, %v: i32 uniform) kernel {
  %i = local_id 0
  %off = mul i32 %i, 4
  %p = ptradd %out, %off
  store i32 %v, %p
  ret
}
";
    let c = compile(src);
    let classes: Vec<DataClass> = layout(&c).userdata.iter().map(|e| e.class).collect();
    // No launch value but the local id: no cb0, cb1 and the UAV as immediates.
    assert_eq!(
        classes,
        vec![DataClass::IMM_UAV, DataClass::IMM_CONST_BUFFER]
    );
    let d = Dispatch {
        global_size: [100, 1, 1],
        group_size: [100, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let (expected, actual) = both(
        src,
        "fill",
        &d,
        &[Arg::Buffer("out", 4), Arg::Bits(0xdead_beef)],
        &[("out", vec![0u8; 408])],
    );
    assert_same(&expected, &actual.expect("the compiled kernel runs"));
}

#[test]
fn a_pointer_into_no_buffer_is_refused() {
    let c = compile(COPY);
    let d = Dispatch {
        global_size: [64, 1, 1],
        group_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let buffers = vec![("src".to_string(), vec![0u8; 64])];
    let args = [1, gpuabi_exec::buffer_address(0), 0, 0x1234, 0];
    let e = gpuabi_exec::run(
        &c,
        "copy",
        &d,
        &args,
        &buffers,
        &gpuabi_sim::Limits::default(),
    )
    .expect_err("dst points nowhere");
    match e {
        ExecError::Setup(m) => assert!(m.contains("`dst`") && m.contains("no buffer"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// The Catalyst layout of the only kernel of `c`.
fn layout_of(c: &Compiled) -> &gpuabi_catalyst::KernelLayout {
    match &c.kernels[0].entry {
        KernelEntry::Catalyst(l) => l,
        other => panic!("{other:?}"),
    }
}

/// Checks that `layout` has scratch as the ABI describes it: the internal global table
/// pointer in the user data, a wave offset SGPR, SCRATCH_EN (PGM_RSRC2 bit 0) and the
/// SCRATCH_BUFFERS note in dwords.
fn assert_scratch_layout(layout: &gpuabi_catalyst::KernelLayout, bytes: u32) {
    assert!(
        layout
            .userdata
            .iter()
            .any(|e| e.class == DataClass::PTR_INTERNAL_GLOBAL_TABLE && e.reg_size == 2),
        "{:?}",
        layout.userdata
    );
    assert!(layout.regs.scratch_offset_sgpr.is_some());
    assert_eq!(layout.regs.pgm_rsrc2 & 1, 1, "SCRATCH_EN");
    assert_eq!(layout.notes.scratch_dwords, bytes.div_ceil(4));
}

#[test]
fn stack_arrays_live_in_the_scratch_buffer_per_lane() {
    let src = include_str!("../../../examples/prefix_stack.gsir");
    let c = compile(src);
    // One 32-byte array (8-byte aligned frame): 32 bytes per lane.
    assert_eq!(c.kernels[0].stats.scratch_bytes, 32);
    assert_scratch_layout(layout_of(&c), 32);
    let d = Dispatch {
        global_size: [192, 1, 1],
        group_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let n = 150u32;
    let (expected, actual) = both(
        src,
        "prefix_stack",
        &d,
        &[Arg::Buffer("out", 0), Arg::Bits(u64::from(n))],
        &[("out", vec![0xa5u8; 192 * 4])],
    );
    let actual = actual.expect("runs");
    assert_same(&expected, &actual);
    // By hand: the array is [i, 3i, 0, 0, 0, 0, 0, i + 7]; out[i] = a[i mod 8] + 3i.
    let out = &actual.iter().find(|(b, _)| b == "out").expect("out").1;
    for i in 0..192u32 {
        let a = [i, 3 * i, 0, 0, 0, 0, 0, i + 7];
        let want = if i < n {
            a[(i % 8) as usize] + 3 * i
        } else {
            0xa5a5_a5a5
        };
        let got = u32::from_le_bytes(out[4 * i as usize..][..4].try_into().unwrap());
        assert_eq!(got, want, "out[{i}]");
    }
}

#[test]
fn vgpr_spills_go_to_the_scratch_buffer() {
    // Eight values loaded per lane and summed only at the end do not fit in 4 VGPRs.
    let mut wide = String::from(
        "fn @w(%x: ptr uniform, %out: ptr uniform) kernel {\n  %i = global_id 0\n  %o = mul i32 %i, 32\n",
    );
    for k in 0..8 {
        wide.push_str(&format!(
            "  %o{k} = add i32 %o, {}\n  %p{k} = ptradd %x, %o{k}\n  %v{k} = load i32 %p{k}\n",
            4 * k
        ));
    }
    wide.push_str("  %s0 = add i32 %v0, %v1\n");
    for k in 2..8 {
        wide.push_str(&format!("  %s{} = add i32 %s{}, %v{k}\n", k - 1, k - 2));
    }
    wide.push_str("  %b = mul i32 %i, 4\n  %q = ptradd %out, %b\n  store i32 %s6, %q\n  ret\n}\n");
    let tight = Options {
        max_vgprs: 4,
        ..options()
    };
    // Without the limit nothing spills and no scratch is set up.
    let roomy = compile(&wide);
    assert_eq!(roomy.kernels[0].stats.scratch_bytes, 0);
    assert!(layout_of(&roomy).regs.scratch_offset_sgpr.is_none());
    let c = compile_with(&wide, &tight);
    let stats = &c.kernels[0].stats;
    assert!(
        stats.vgpr_spills > 0 && stats.scratch_bytes > 0,
        "{stats:?}"
    );
    assert_scratch_layout(layout_of(&c), stats.scratch_bytes);
    let d = Dispatch {
        global_size: [128, 1, 1],
        group_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        work_dim: 1,
    };
    let x: Vec<u8> = (0..128 * 8u32)
        .flat_map(|v| (v * 7 + 1).to_le_bytes())
        .collect();
    let (expected, actual) = both_with(
        &tight,
        &wide,
        "w",
        &d,
        &[Arg::Buffer("x", 0), Arg::Buffer("out", 0)],
        &[("x", x), ("out", vec![0u8; 128 * 4])],
    );
    let actual = actual.expect("runs");
    assert_same(&expected, &actual);
    // By hand: out[i] = sum over k < 8 of (7 (8i + k) + 1) = 448 i + 204.
    let out = &actual.iter().find(|(b, _)| b == "out").expect("out").1;
    for i in 0..128u32 {
        let got = u32::from_le_bytes(out[4 * i as usize..][..4].try_into().unwrap());
        assert_eq!(got, 448 * i + 204, "out[{i}]");
    }
}

#[test]
fn what_is_no_opencl_argument_or_not_gcn_is_refused() {
    let compile_err = |src: &str, opts: &Options| {
        let module = gpuabi_ir::parse(src).expect("parses");
        gpuabi_codegen::compile(&module, opts)
            .expect_err("refused")
            .to_string()
    };
    let flag = "fn @b(%c: i1 uniform, %out: ptr uniform) kernel {\n  ret\n}\n";
    let e = compile_err(flag, &options());
    assert!(e.contains("`%c`") && e.contains("i1"), "{e}");

    let e = compile_err(
        LAUNCH,
        &Options {
            entry: Entry::Catalyst,
            ..Options::new(Target::Gfx1030)
        },
    );
    assert!(e.contains("gfx8"), "{e}");
}
