//! Every kernel of AMD's own Catalyst binaries in CLRX's test data (`prginfo{1,4,7,8}_*`,
//! GCN 1.0, drivers 1016.4 to 1642.5, 32- and 64-bit, as CLRX regenerated them from their
//! data (`.regen`) and from their configuration (`.reconf`)) runs in the simulator from the
//! binary's own ABI and leaves what its OpenCL source (`prginfo1.cl`, `prginfo4.cl`,
//! `prginfo7.cl`, `prginfo8.cl` beside the binaries) computes. The expected values are the
//! sources' expressions written out here in Rust: integer arithmetic wrapping as OpenCL's
//! `uint` does, float expressions evaluated left to right in f32, and image reads as OpenCL
//! 1.2 §8.2 defines the nearest and linear filters at the coordinates the kernels pass
//! (`(float)get_global_id(d)`; the linear filter there blends the texel and its lower
//! neighbours with weight ½ each, texels outside the image being the border colour (0, 0,
//! 0, 0) under CLK_ADDRESS_CLAMP). `read_imageui` through a linear sampler, which OpenCL
//! leaves undefined, reads the nearest texel.
//!
//! The binaries are read from `GPUABI_CLRX_DIR` (a checkout of CLRX's repository); without
//! it the test prints why and passes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Entry, WaveSize};
use gpuabi_catalyst::binary::{self, BinaryKernel, CatalystBinary};
use gpuabi_sim::catalyst::{
    dispatch_kernel, ArgValue, KernelAbi, NdRange, PRINTF_BUFFER, PRINTF_DWORDS_PER_ITEM,
};
use gpuabi_sim::opencl_image::{ImageArg, ImageFormat};
use gpuabi_sim::{Image, Machine, SimError};

const LIMIT: u64 = 1 << 26;

/// The binaries of one source: `prginfoN_*.clo.1_0.regen` and `.reconf`, sorted.
fn binaries(dir: &Path, source: &str) -> Vec<PathBuf> {
    let folder = dir.join("tests/amdbin/amdbins");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(&format!("{source}_"))
                && (name.ends_with(".clo.1_0.regen") || name.ends_with(".clo.1_0.reconf"))
        })
        .collect();
    files.sort();
    files
}

/// One kernel's dispatch: its NDRange, buffers and argument values.
struct Dispatch {
    nd: NdRange,
    buffers: Vec<(String, Vec<u8>)>,
    args: BTreeMap<String, ArgValue>,
}

impl Dispatch {
    fn new(global: [u32; 3], local: [u32; 3], offset: [u32; 3], dims: u32) -> Dispatch {
        Dispatch {
            nd: NdRange {
                work_dim: dims,
                global,
                local,
                offset,
            },
            buffers: Vec::new(),
            args: BTreeMap::new(),
        }
    }

    fn linear(items: u32) -> Dispatch {
        Dispatch::new([items, 1, 1], [64, 1, 1], [0; 3], 1)
    }

    fn buffer(&mut self, arg: &str, bytes: Vec<u8>) {
        self.buffers.push((arg.to_string(), bytes));
        self.args
            .insert(arg.to_string(), ArgValue::Buffer(arg.to_string()));
    }

    fn value(&mut self, arg: &str, numbers: &[f64]) {
        self.args.insert(
            arg.to_string(),
            ArgValue::Numbers(numbers.iter().map(|&n| n.into()).collect()),
        );
    }

    fn image(&mut self, arg: &str, format: &str, size: [u32; 2], bytes: Vec<u8>) {
        self.buffers.push((arg.to_string(), bytes));
        self.args.insert(
            arg.to_string(),
            ArgValue::Image(ImageArg {
                buffer: arg.to_string(),
                format: ImageFormat::parse(format).unwrap(),
                size: [size[0], size[1], 1],
            }),
        );
    }
}

/// Runs `kernel` of `binary` and returns the machine with its memory.
fn run(binary: &CatalystBinary, kernel: &BinaryKernel, d: &Dispatch, what: &str) -> Machine {
    let (m, result) = try_run(binary, kernel, d, what);
    result.unwrap_or_else(|e| panic!("{what}: {e}"));
    m
}

/// Runs `kernel` of `binary`: the machine with its memory, and how the run ended.
fn try_run(
    binary: &CatalystBinary,
    kernel: &BinaryKernel,
    d: &Dispatch,
    what: &str,
) -> (Machine, Result<(), SimError>) {
    let code: Vec<u8> = (0..kernel.code.hex.len() / 2)
        .map(|i| u8::from_str_radix(&kernel.code.hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let target = binary::disasm::target_of(kernel.generation.expect("generation"));
    let mut program = gpuabi_amdgpu::decode(&code, target, WaveSize::W64)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    program.items.insert(
        0,
        Entry {
            item: Item::Label("main".into()),
            origin: Default::default(),
        },
    );
    let mut m = Machine::new(Image::new(&program).unwrap());
    for (name, bytes) in &d.buffers {
        m.memory.add(name, bytes.clone(), LIMIT).unwrap();
    }
    let abi = KernelAbi::of_binary(binary, kernel);
    let setups = dispatch_kernel(&abi, &d.nd, &d.args, &mut m.memory, LIMIT)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let result = m.run("main", &setups).map(|_| ());
    (m, result)
}

fn words(m: &Machine, buffer: &str) -> Vec<u32> {
    m.memory
        .find(buffer)
        .unwrap_or_else(|| panic!("no buffer {buffer}"))
        .data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Distinct inputs for buffer `seed`: `n` dwords.
fn input(seed: u32, n: usize) -> Vec<u32> {
    (0..n as u32)
        .map(|i| {
            i.wrapping_mul(2654435761)
                .wrapping_add(seed.wrapping_mul(40503))
                >> 7
        })
        .collect()
}

/// Compares a buffer with the expected dwords.
fn check(m: &Machine, buffer: &str, expected: &[u32], what: &str) {
    let got = words(m, buffer);
    assert_eq!(got.len(), expected.len(), "{what}: `{buffer}` size");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != expected[i]) {
        panic!(
            "{what}: `{buffer}` dword {i}: expected {:#x} ({}), got {:#x} ({})",
            expected[i],
            f32::from_bits(expected[i]),
            got[i],
            f32::from_bits(got[i])
        );
    }
}

// ---------------------------------------------------------------------------------------
// prginfo1.cl: global pointers.

const UINT8: usize = 8;

/// `transformer*`, `copier`, `changer*` (prginfo1.cl) over 128 work-items in groups of 64,
/// and the 2D and 3D transformers over NDRanges where their index expressions (which use
/// `get_global_id` for the sizes) give every work-item its own element.
fn prginfo1(binary: &CatalystBinary, k: &BinaryKernel, what: &str) {
    let n = 128;
    let mul8 = |a: &[u32], f: &dyn Fn(usize, u32) -> u32| -> Vec<u32> {
        a.iter().enumerate().map(|(i, &v)| f(i, v)).collect()
    };
    match k.kernel.as_str() {
        "transformer1" | "transformerVoid" => {
            let mut d = Dispatch::linear(n as u32);
            let a = input(1, n);
            d.buffer("inout", bytes_of(&a));
            let m = run(binary, k, &d, what);
            let e = mul8(&a, &|_, v| v.wrapping_mul(4345));
            check(&m, "inout", &e, what);
        }
        "transformer" | "transformern" => {
            let mut d = Dispatch::linear(n as u32);
            let a = input(2, n * UINT8);
            d.buffer("inout", bytes_of(&a));
            let x = if k.kernel == "transformern" { 77 } else { 4345 };
            if k.kernel == "transformern" {
                d.value("x", &[77.0]);
            }
            let m = run(binary, k, &d, what);
            check(&m, "inout", &mul8(&a, &|_, v| v.wrapping_mul(x)), what);
        }
        "transformer2d" => {
            // gid0 + gid1 * gid0 over x in 7..9, y in 0..4: 7, 14, 21, 28, 8, 16, 24, 32.
            let mut d = Dispatch::new([2, 4, 1], [2, 4, 1], [7, 0, 0], 2);
            let a = input(3, 40 * UINT8);
            d.buffer("inout", bytes_of(&a));
            let m = run(binary, k, &d, what);
            let mut e = a.clone();
            for x in 7..9usize {
                for y in 0..4usize {
                    let idx = x + y * x;
                    for c in 0..UINT8 {
                        e[idx * UINT8 + c] = a[idx * UINT8 + c].wrapping_mul(4345);
                    }
                }
            }
            check(&m, "inout", &e, what);
        }
        "transformer3d" => {
            // gid0 + (gid1 + gid2 * gid1) * gid0 over x in 5..7, y in 2..4, z in 0..2:
            // x * (1 + y * (1 + z)) is 15, 20, 25, 35 and 18, 24, 30, 42.
            let mut d = Dispatch::new([2, 2, 2], [2, 2, 2], [5, 2, 0], 3);
            let a = input(4, 43 * UINT8);
            d.buffer("inout", bytes_of(&a));
            let m = run(binary, k, &d, what);
            let mut e = a.clone();
            for x in 5..7usize {
                for y in 2..4usize {
                    for z in 0..2usize {
                        let idx = x + (y + z * y) * x;
                        for c in 0..UINT8 {
                            e[idx * UINT8 + c] = a[idx * UINT8 + c].wrapping_mul(4345);
                        }
                    }
                }
            }
            check(&m, "inout", &e, what);
        }
        "copier" => {
            let mut d = Dispatch::linear(n as u32);
            let a = input(5, n * UINT8);
            d.buffer("in", bytes_of(&a));
            d.buffer("out", vec![0; n * UINT8 * 4]);
            let m = run(binary, k, &d, what);
            check(&m, "out", &mul8(&a, &|_, v| v.wrapping_mul(4345)), what);
        }
        "changer1" | "changer2" | "constchanger2" => {
            let mut d = Dispatch::linear(n as u32);
            let (a, b) = (input(6, n * UINT8), input(7, n * UINT8));
            d.buffer("in1", bytes_of(&a));
            d.buffer("in2", bytes_of(&b));
            let outs: &[&str] = if k.kernel == "changer1" {
                &["out"]
            } else {
                &["out1", "out2"]
            };
            for o in outs {
                d.buffer(o, vec![0; n * UINT8 * 4]);
            }
            let m = run(binary, k, &d, what);
            check(&m, outs[0], &mul8(&a, &|i, v| v.wrapping_mul(b[i])), what);
            if outs.len() == 2 {
                check(&m, "out2", &mul8(&a, &|i, v| v.wrapping_add(b[i])), what);
            }
        }
        other => panic!("{what}: kernel {other} is not in prginfo1.cl"),
    }
}

// ---------------------------------------------------------------------------------------
// Images (prginfo4.cl, prginfo8.cl).

/// Images are 8×8; the kernels run over 8×8 work-items in groups of 4×4.
const W: u32 = 8;
const H: u32 = 8;

type Texel = [f32; 4];

/// Float image number `n`: small integers, so that every blend of four texels with
/// weights ¼ is exact.
fn float_texels(n: u32) -> Vec<Texel> {
    (0..H)
        .flat_map(|y| {
            (0..W).map(move |x| {
                [
                    (x + 2 * y + n) as f32,
                    (3 * x + y + 1) as f32,
                    ((x * y + n) % 5) as f32,
                    (1 + (x + y + n) % 3) as f32,
                ]
            })
        })
        .collect()
}

fn uint_texels(n: u32) -> Vec<[u32; 4]> {
    (0..H)
        .flat_map(|y| (0..W).map(move |x| [x + 10 * y + n, 2 * x + 3, y * n, 7 + n]))
        .collect()
}

fn float_bytes(t: &[Texel]) -> Vec<u8> {
    t.iter().flatten().flat_map(|v| v.to_le_bytes()).collect()
}

fn uint_bytes(t: &[[u32; 4]]) -> Vec<u8> {
    t.iter().flatten().flat_map(|v| v.to_le_bytes()).collect()
}

/// `read_imagef` through CLK_FILTER_LINEAR | CLK_ADDRESS_CLAMP at unnormalized (u, v)
/// (OpenCL 1.2 §8.2.1.2): i0 = ⌊u − ½⌋, a = frac(u − ½), likewise j0 and b, and the four
/// texels weighted (1−a)(1−b), a(1−b), (1−a)b, ab; texels outside the image are (0, 0, 0,
/// 0).
fn linear_clamp(img: &[Texel], u: f32, v: f32) -> Texel {
    let (tu, tv) = (f64::from(u) - 0.5, f64::from(v) - 0.5);
    let (i0, j0) = (tu.floor() as i64, tv.floor() as i64);
    let (a, b) = (tu - tu.floor(), tv - tv.floor());
    let t = |i: i64, j: i64| -> Texel {
        if (0..i64::from(W)).contains(&i) && (0..i64::from(H)).contains(&j) {
            img[(j * i64::from(W) + i) as usize]
        } else {
            [0.0; 4]
        }
    };
    let mut out = [0.0f32; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let s = (1.0 - a) * (1.0 - b) * f64::from(t(i0, j0)[c])
            + a * (1.0 - b) * f64::from(t(i0 + 1, j0)[c])
            + (1.0 - a) * b * f64::from(t(i0, j0 + 1)[c])
            + a * b * f64::from(t(i0 + 1, j0 + 1)[c]);
        *o = s as f32;
    }
    out
}

/// `read_imagef` through CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP_TO_EDGE at unnormalized
/// (u, v): the texel (clamp(⌊u⌋), clamp(⌊v⌋)).
fn nearest_edge<T: Copy>(img: &[T], u: f32, v: f32) -> T {
    let i = (u.floor() as i64).clamp(0, i64::from(W) - 1);
    let j = (v.floor() as i64).clamp(0, i64::from(H) - 1);
    img[(j * i64::from(W) + i) as usize]
}

fn map4(a: Texel, f: impl Fn(f32) -> f32) -> Texel {
    a.map(f)
}

fn zip4(a: Texel, b: Texel, f: impl Fn(f32, f32) -> f32) -> Texel {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// The expected contents of an RGBA float image: `f` of each pixel position.
fn float_image(f: impl Fn(f32, f32) -> Texel) -> Vec<u32> {
    (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .flat_map(|(x, y)| f(x as f32, y as f32))
        .map(f32::to_bits)
        .collect()
}

fn image_dispatch() -> Dispatch {
    Dispatch::new([W, H, 1], [4, 4, 1], [0; 3], 2)
}

/// prginfo4.cl: images read through the program-scope sampler `samp1` (linear, clamp,
/// unnormalized) and written.
fn prginfo4(binary: &CatalystBinary, k: &BinaryKernel, what: &str) {
    let mut d = image_dispatch();
    let blank = vec![0u8; (W * H * 16) as usize];
    let ins: Vec<Vec<Texel>> = (1..=3).map(float_texels).collect();
    let lin = |n: usize| {
        let img = ins[n].clone();
        move |x: f32, y: f32| linear_clamp(&img, x, y)
    };
    let (s1, s2, s3) = (lin(0), lin(1), lin(2));
    let add = |a: Texel, b: Texel| zip4(a, b, |p, q| p + q);
    let sub = |a: Texel, b: Texel| zip4(a, b, |p, q| p - q);
    let mul = |a: Texel, b: Texel| zip4(a, b, |p, q| p * q);
    let scale = |a: Texel, s: f32| map4(a, |p| p * s);
    let read_inputs = |d: &mut Dispatch, n: usize| {
        for (i, img) in ins.iter().enumerate().take(n) {
            d.image(
                &format!("inimg{}", i + 1),
                "rgba_float",
                [W, H],
                float_bytes(img),
            );
        }
    };
    let outputs = |d: &mut Dispatch, names: &[&str]| {
        for o in names {
            d.image(o, "rgba_float", [W, H], blank.clone());
        }
    };
    let checks: Vec<(&str, Vec<u32>)> = match k.kernel.as_str() {
        "imageTransform" => {
            let img = uint_texels(1);
            d.image("inimg", "rgba_uint32", [W, H], uint_bytes(&img));
            d.image("outimg", "rgba_uint32", [W, H], blank.clone());
            let e: Vec<u32> = (0..H)
                .flat_map(|y| (0..W).map(move |x| (x, y)))
                .flat_map(|(x, y)| nearest_edge(&img, x as f32, y as f32).map(|v| v * 2))
                .collect();
            vec![("outimg", e)]
        }
        "imageTransform2" => {
            read_inputs(&mut d, 2);
            outputs(&mut d, &["outimg1", "outimg2"]);
            vec![
                (
                    "outimg1",
                    float_image(|x, y| add(scale(s1(x, y), 0.5), scale(s2(x, y), 0.25))),
                ),
                (
                    "outimg2",
                    float_image(|x, y| sub(scale(s1(x, y), 0.1), scale(s2(x, y), 0.34))),
                ),
            ]
        }
        "imageTransform3" => {
            read_inputs(&mut d, 1);
            outputs(&mut d, &["outimg1", "outimg2"]);
            vec![
                ("outimg1", float_image(|x, y| scale(s1(x, y), 0.5))),
                (
                    "outimg2",
                    float_image(|x, y| scale(scale(s1(x, y), 0.5), 0.4)),
                ),
            ]
        }
        "imageTransform4" => {
            read_inputs(&mut d, 2);
            outputs(&mut d, &["outimg"]);
            vec![(
                "outimg",
                float_image(|x, y| add(scale(s1(x, y), 0.5), scale(s2(x, y), 0.25))),
            )]
        }
        "imageTransform5" => {
            read_inputs(&mut d, 3);
            outputs(&mut d, &["outimg1", "outimg2", "outimg3"]);
            vec![
                (
                    "outimg1",
                    float_image(|x, y| {
                        add(
                            add(scale(s1(x, y), 0.5), scale(s2(x, y), 0.25)),
                            scale(s3(x, y), 1.55),
                        )
                    }),
                ),
                (
                    "outimg2",
                    float_image(|x, y| {
                        sub(
                            sub(scale(s1(x, y), 0.1), scale(s2(x, y), 0.34)),
                            scale(s3(x, y), 0.01),
                        )
                    }),
                ),
                (
                    "outimg3",
                    float_image(|x, y| {
                        add(
                            scale(mul(scale(s1(x, y), 0.1), s2(x, y)), 0.14),
                            scale(s3(x, y), 0.51),
                        )
                    }),
                ),
            ]
        }
        "imageTransform6" => {
            read_inputs(&mut d, 1);
            outputs(&mut d, &["outimg1", "outimg2", "outimg3"]);
            let c = |x, y| scale(s1(x, y), 0.5);
            vec![
                ("outimg1", float_image(c)),
                ("outimg2", float_image(|x, y| scale(c(x, y), 0.4))),
                ("outimg3", float_image(|x, y| map4(c(x, y), |p| p - 1.3))),
            ]
        }
        "imageTransform7" => {
            read_inputs(&mut d, 3);
            outputs(&mut d, &["outimg"]);
            vec![(
                "outimg",
                float_image(|x, y| {
                    sub(
                        add(scale(s1(x, y), 0.5), scale(s2(x, y), 0.25)),
                        scale(s3(x, y), 1.3),
                    )
                }),
            )]
        }
        other => panic!("{what}: kernel {other} is not in prginfo4.cl"),
    };
    let m = run(binary, k, &d, what);
    for (buffer, e) in checks {
        check(&m, buffer, &e, what);
    }
}

// ---------------------------------------------------------------------------------------
// prginfo7.cl: 140 global pointers.

/// `transformer25gp` (prginfo7.cl) over 64 work-items. AMD's 64-bit code of driver 1348.5
/// (`prginfo7_13_12_64`) never loads the cb1 values of `inout129` to `inout134` (arguments
/// 128 to 133, cb1 bytes 2048 to 2143; every other binary loads all 140 with
/// `s_buffer_load_dword[x2]`): it adds other registers (products of loaded data) to their
/// addresses instead, so its run stops at a load outside every buffer, after the first
/// 128 arguments were transformed.
fn prginfo7(binary: &CatalystBinary, k: &BinaryKernel, what: &str) {
    assert_eq!(k.kernel, "transformer25gp", "{what}");
    let n = 64usize;
    let mut d = Dispatch::linear(n as u32);
    let inputs: Vec<Vec<u32>> = (1..=140).map(|i| input(100 + i, n * UINT8)).collect();
    for (i, a) in inputs.iter().enumerate() {
        d.buffer(&format!("inout{}", i + 1), bytes_of(a));
    }
    let broken = binary.driver == Some(134805) && binary.bits == 64;
    let (m, result) = try_run(binary, k, &d, what);
    let checked = if broken {
        let e = result.expect_err(what);
        assert!(matches!(e, SimError::BadAddress { .. }), "{what}: {e}");
        128
    } else {
        result.unwrap_or_else(|e| panic!("{what}: {e}"));
        140
    };
    for (i, a) in inputs.iter().enumerate().take(checked) {
        // inout1 is multiplied by 5000, inoutK by K.
        let f = if i == 0 { 5000 } else { i as u32 + 1 };
        let e: Vec<u32> = a.iter().map(|v| v.wrapping_mul(f)).collect();
        check(&m, &format!("inout{}", i + 1), &e, what);
    }
}

// ---------------------------------------------------------------------------------------
// prginfo8.cl: images with and without samplers, printf.

/// The printf calls of prginfo8.cl in program order, numbered from 0 (the format ids AMD's
/// compiler writes in front of each record), per kernel.
fn printf_ids(kernel: &str) -> Vec<u32> {
    let calls = [
        ("kernelPrintf", 1),
        ("kernelPrintf2", 1),
        ("kernelPrintf3", 1),
        ("kernelPrintf4", 3),
        ("kernelPrintf5", 1),
        ("kernelPrintf6", 1),
        ("kernelPrintf7", 1),
    ];
    let mut first = 0;
    for (name, n) in calls {
        if name == kernel {
            return (first..first + n).collect();
        }
        first += n;
    }
    panic!("{kernel} has no printf");
}

fn prginfo8(binary: &CatalystBinary, k: &BinaryKernel, what: &str) {
    match k.kernel.as_str() {
        "imageTransform" | "imageTransformS" | "imageTransformX" => {
            let mut d = image_dispatch();
            let img = uint_texels(2);
            d.image("inimg", "rgba_uint32", [W, H], uint_bytes(&img));
            d.image(
                "outimg",
                "rgba_uint32",
                [W, H],
                vec![0; (W * H * 16) as usize],
            );
            let a = input(9, (W * H) as usize);
            d.buffer("inout", bytes_of(&a));
            if k.kernel == "imageTransformS" {
                // CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP_TO_EDGE, unnormalized.
                d.value("samp", &[20.0]);
            }
            let m = run(binary, k, &d, what);
            let e: Vec<u32> = (0..H)
                .flat_map(|y| (0..W).map(move |x| (x, y)))
                .flat_map(|(x, y)| nearest_edge(&img, x as f32, y as f32).map(|v| v * 2))
                .collect();
            check(&m, "outimg", &e, what);
            // inout[g0size * pos.y + pos.x] / 67.
            check(
                &m,
                "inout",
                &a.iter().map(|v| v / 67).collect::<Vec<_>>(),
                what,
            );
        }
        "imageTransform5MS" => {
            let mut d = image_dispatch();
            let ins: Vec<Vec<Texel>> = (4..=6).map(float_texels).collect();
            for (i, img) in ins.iter().enumerate() {
                d.image(
                    &format!("inimg{}", i + 1),
                    "rgba_float",
                    [W, H],
                    float_bytes(img),
                );
            }
            for o in ["outimg1", "outimg2", "outimg3"] {
                d.image(o, "rgba_float", [W, H], vec![0; (W * H * 16) as usize]);
            }
            // samp1: linear, clamp (as csamp1); samp2: nearest, clamp to edge (as csamp2).
            d.value("samp1", &[38.0]);
            d.value("samp2", &[20.0]);
            let m = run(binary, k, &d, what);
            let lin = |n: usize, x, y| linear_clamp(&ins[n], x, y);
            let near = |n: usize, x, y| nearest_edge(&ins[n], x, y);
            let add = |a: Texel, b: Texel| zip4(a, b, |p, q| p + q);
            let sub = |a: Texel, b: Texel| zip4(a, b, |p, q| p - q);
            let mul = |a: Texel, b: Texel| zip4(a, b, |p, q| p * q);
            let scale = |a: Texel, s: f32| map4(a, |p| p * s);
            let c1 = float_image(|x, y| {
                add(
                    add(scale(lin(0, x, y), 0.5), scale(near(1, x, y), 0.25)),
                    scale(lin(2, x, y), 1.55),
                )
            });
            let c2 = float_image(|x, y| {
                sub(
                    sub(scale(lin(0, x, y), 0.1), scale(near(1, x, y), 0.34)),
                    scale(lin(2, x, y), 0.01),
                )
            });
            let c3 = float_image(|x, y| {
                add(
                    scale(mul(scale(lin(0, x, y), 0.1), near(1, x, y)), 0.14),
                    scale(lin(2, x, y), 0.51),
                )
            });
            check(&m, "outimg1", &c1, what);
            check(&m, "outimg2", &c2, what);
            check(&m, "outimg3", &c3, what);
        }
        name if name.starts_with("kernelPrintf") => printf_kernel(binary, k, what),
        other => panic!("{what}: kernel {other} is not in prginfo8.cl"),
    }
}

/// The printf kernels over one work-group of 4×2×2 work-items (printf needs one, see
/// `gpuabi_sim::catalyst`): their output buffers, and each work-item's printf records: the
/// write pointer (one past the last dword written), then per call the format id and the
/// arguments, `size_t` taking 2 dwords in a 64-bit binary.
fn printf_kernel(binary: &CatalystBinary, k: &BinaryKernel, what: &str) {
    let size = [4u32, 2, 2];
    let mut d = Dispatch::new(size, size, [0; 3], 3);
    let a = input(11, size[0] as usize);
    let with_input = k.kernel != "kernelPrintf5";
    if with_input {
        d.buffer("input", bytes_of(&a));
    }
    let outputs = !matches!(k.kernel.as_str(), "kernelPrintf" | "kernelPrintf5");
    if outputs {
        d.buffer("output", vec![0; 16]);
        d.buffer("output2", vec![0; 16]);
    }
    if k.kernel == "kernelPrintf4" {
        d.value("gf", &[0.0]);
        d.value("g", &[0.0]);
    }
    let m = run(binary, k, &d, what);
    if outputs {
        check(
            &m,
            "output",
            &a.iter().map(|v| v.wrapping_mul(4)).collect::<Vec<_>>(),
            what,
        );
        check(
            &m,
            "output2",
            &a.iter().map(|v| v.wrapping_mul(88)).collect::<Vec<_>>(),
            what,
        );
    }
    let size_t = |v: u32| -> Vec<u32> {
        if binary.bits == 64 {
            vec![v, 0]
        } else {
            vec![v]
        }
    };
    let per_item = PRINTF_DWORDS_PER_ITEM as usize;
    let mut e = vec![0u32; per_item * 16];
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let item = (x + size[0] * (y + size[1] * z)) as usize;
                let mut records = Vec::new();
                for id in printf_ids(&k.kernel) {
                    records.push(id);
                    for v in [x, y, z] {
                        records.extend(size_t(v));
                    }
                    if with_input {
                        records.push(a[x as usize]);
                    } else {
                        // kernelPrintf5 passes the three global sizes after the ids.
                        for v in size {
                            records.extend(size_t(v));
                        }
                    }
                }
                let region = &mut e[item * per_item..(item + 1) * per_item];
                region[0] = records.len() as u32 + 1;
                region[1..=records.len()].copy_from_slice(&records);
            }
        }
    }
    check(&m, PRINTF_BUFFER, &e, what);
}

#[test]
#[cfg_attr(
    gpuabi_no_clrx,
    ignore = "needs a checkout of CLRX's repository in GPUABI_CLRX_DIR"
)]
fn every_prginfo_kernel_computes_what_its_source_says() {
    let Some(dir) = gpuabi_testdata::clrx_dir() else {
        return;
    };
    let mut runs = 0;
    for (source, kernels) in [
        ("prginfo1", 10),
        ("prginfo4", 7),
        ("prginfo7", 1),
        ("prginfo8", 11),
    ] {
        let files = binaries(&dir, source);
        assert!(
            !files.is_empty(),
            "no {source} binaries in {}",
            dir.display()
        );
        for path in files {
            let data = std::fs::read(&path).unwrap();
            let b = binary::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(b.kernels.len(), kernels, "{}", path.display());
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            for k in &b.kernels {
                let what = format!("{name} {}", k.kernel);
                match source {
                    "prginfo1" => prginfo1(&b, k, &what),
                    "prginfo4" => prginfo4(&b, k, &what),
                    "prginfo7" => prginfo7(&b, k, &what),
                    _ => prginfo8(&b, k, &what),
                }
                runs += 1;
            }
        }
    }
    // 16 binaries of prginfo1, 7 and 8 (drivers 1016.4, 1348.5, 1526.3, 1642.5), 20 of
    // prginfo4 (also 1124.2): 160 + 140 + 16 + 176 kernels.
    assert_eq!(runs, 492);
}
