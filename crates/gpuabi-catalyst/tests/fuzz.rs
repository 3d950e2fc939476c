//! Fuzz targets over the Catalyst readers (OpenCL C, JSON/TOML descriptions, user-data
//! lists, AMD binaries), the layout of whatever they accept under arbitrary options, and
//! the binary writer. Each target runs
//! for a bounded time under `cargo test`; the property is "an error or a value, never a
//! panic".

mod common;

use arbitrary::{Result, Unstructured};
use gpuabi_catalyst::binary;
use gpuabi_catalyst::description::{self, DescFormat};
use gpuabi_catalyst::driver::{Device, DEVICES};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::render;
use gpuabi_catalyst::types::Kernel;
use gpuabi_catalyst::userdata::parse_list;
use gpuabi_catalyst::{layout, NotesPolicy, Options, UserDataPolicy};
use gpuabi_fuzz::Edit::{Delete, Duplicate, Insert, Replace};
use gpuabi_fuzz::Mutator;

const BUDGET_MS: u64 = 1500;

const EXAMPLES: [&str; 3] = [
    include_str!("../../../examples/catalyst/e1.cl"),
    include_str!("../../../examples/catalyst/e2.cl"),
    include_str!("../../../examples/catalyst/mixed.cl"),
];

#[rustfmt::skip]
const CL_TOKENS: &[&str] = &[
    "__kernel", "kernel", "void", "k", "(", ")", "{", "}", ";", ",", " ", "\n", "*", "[", "]",
    "uint", "int", "float", "double", "long", "ulong", "char", "uchar", "short", "half",
    "float3", "ulong3", "double16", "int4", "unsigned", "signed", "const", "volatile",
    "restrict", "global", "__global", "constant", "__constant", "local", "__local", "private",
    "read_only", "__write_only", "image2d_t", "image3d_t", "image1d_buffer_t", "sampler_t",
    "counter32_t", "struct", "union", "enum", "typedef", "s", "t", "a", "b", "#define N ",
    "N", "0", "1", "3", "4", "16", "65536", "4294967295", "4294967296",
    "18446744073709551615", "99999999999999999999999", "0x7fffffff", "-1",
    "__attribute__((reqd_work_group_size(", "aligned(", "packed", "))", "//", "/*", "*/",
    "\"", "'", "=", "+", "#", "\\\n",
];

#[rustfmt::skip]
const DESC_TOKENS: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"kernel\"", "\"args\"", "\"name\"", "\"type\"", "\"id\"",
    "\"unused\"", "\"types\"", "\"k\"", "\"global float*\"", "\"uint\"", "\"float3\"",
    "\"struct { double16 a[4294967295]; } \"", "\"image2d_t\"", "\"sampler_t\"",
    "\"constant uint*\"", "12", "0", "4294967295", "4294967296", "-1", "true", "null",
    "kernel = \"k\"\n", "[[args]]\n", "name = \"a\"\n", "type = \"uint\"\n",
    "type = \"global float*\"\n", "id = 20\n", "id = 4294967295\n", "unused = true\n",
    "types = \"typedef struct { float4 a; int b[65536]; } pair;\"\n", "type = \"pair\"\n",
];

/// Text made of the grammar's own tokens, with a little noise.
fn token_text(u: &mut Unstructured<'_>, vocab: &[&str]) -> Result<String> {
    let mut s = String::new();
    let n = u.int_in_range(0..=60)?;
    for _ in 0..n {
        if u.ratio(1, 15)? {
            s.push(u.arbitrary::<char>()?);
        } else {
            s.push_str(u.choose(vocab)?);
        }
        s.push(' ');
    }
    Ok(s)
}

/// Example edits: deletions, duplications, replacements by grammar tokens and inserted
/// numbers, equally often.
const MUTATOR: Mutator = Mutator {
    ends_word: |c| !c.is_alphanumeric() && c != '_',
    max_edits: 6,
    edits: &[Delete, Duplicate, Replace, Insert],
};

/// An example file with random token-level edits.
fn mutate(u: &mut Unstructured<'_>, text: &str, vocab: &[&str]) -> Result<String> {
    MUTATOR.mutate(u, text, |u, edit| {
        Ok(if edit == Insert {
            let n = *u.choose(&[
                "0",
                "1",
                "3",
                "65535",
                "4294967295",
                "4294967296",
                "99999999999999999999",
            ])?;
            n.to_string()
        } else {
            format!("{} ", u.choose(vocab)?)
        })
    })
}

fn options(u: &mut Unstructured<'_>) -> Result<Options> {
    let mut o = Options::default();
    let device: Device = *u.choose(&DEVICES)?;
    o.device = device;
    o.driver = *u.choose(&[0, 1, 1348, 1573, 1702, 1800, 1912, 2004, u32::MAX])?;
    o.is_64bit = u.arbitrary()?;
    if u.arbitrary()? {
        if let Ok(d) = Dims::parse(u.choose(&["x", "xy", "xyz", "xz,x", "", "z,y"])?) {
            o.dims = Some(d);
        }
    }
    o.tgsize = u.arbitrary()?;
    o.scratch_bytes = big(u)?;
    o.hwlocal = big(u)?;
    o.hwregion = big(u)?;
    o.printf = u.arbitrary()?;
    o.const_data = u.arbitrary()?;
    o.global_data_bytes = big(u)?;
    if u.arbitrary()? {
        let list = *u.choose(&[
            "",
            "IMM_UAV,10,2,4",
            "PTR_RESOURCE_TABLE,0,0,2;IMM_CONST_BUFFER,1,2,4;IMM_UAV,12,6,4",
            "IMM_UAV,10,15,4294967295",
            "IMM_UAV,4294967295,4294967295,4294967295",
            "IMM_SAMPLER,0,0,4;IMM_SAMPLER,0,0,4",
        ])?;
        if let Ok(entries) = parse_list(list) {
            o.userdata = UserDataPolicy::Explicit(entries);
        }
    }
    o.uavid = opt(u)?;
    o.cbid = opt(u)?;
    o.printfid = opt(u)?;
    o.privateid = opt(u)?;
    o.uavprivate = opt(u)?;
    o.pgm_rsrc2 = u.arbitrary()?;
    o.exceptions = big(u)?;
    o.sgprs = opt(u)?;
    o.vgprs = opt(u)?;
    o.float_mode = big(u)?;
    o.ieee_mode = u.arbitrary()?;
    if u.arbitrary()? {
        o.cws = Some([big(u)?, big(u)?, big(u)?]);
    }
    let n = u.int_in_range(0..=20)?;
    for _ in 0..n {
        o.const_samplers.push(u.arbitrary()?);
    }
    o.setup_buffer_used = u.arbitrary()?;
    Ok(o)
}

fn big(u: &mut Unstructured<'_>) -> Result<u32> {
    Ok(match u.int_in_range(0..=3)? {
        0 => u.arbitrary()?,
        1 => u32::MAX - u.int_in_range(0..=16)?,
        _ => u.int_in_range(0..=300)?,
    })
}

fn opt(u: &mut Unstructured<'_>) -> Result<Option<u32>> {
    Ok(if u.arbitrary()? { Some(big(u)?) } else { None })
}

fn lay_out_all(u: &mut Unstructured<'_>, kernels: &[Kernel]) -> Result<()> {
    for k in kernels {
        let o = options(u)?;
        if let Ok(l) = layout(k, &o) {
            let _ = render::text::render(&l);
            let _ = render::json::render(&l);
            let _ = render::clrx::render(&l);
            let _ = render::svg::render(&l);
        }
    }
    Ok(())
}

#[test]
fn opencl_reader_and_layout_never_panic() {
    arbtest::arbtest(|u| {
        let text = match u.int_in_range(0..=4)? {
            0 => u.arbitrary::<String>()?,
            1 | 2 => token_text(u, CL_TOKENS)?,
            _ => {
                let base = *u.choose(&EXAMPLES)?;
                mutate(u, base, CL_TOKENS)?
            }
        };
        if let Ok(kernels) = parse_kernels(&text) {
            lay_out_all(u, &kernels)?;
        }
        Ok(())
    })
    .budget_ms(2 * BUDGET_MS);
}

#[test]
fn description_reader_and_layout_never_panic() {
    const JSON: &str = include_str!("../../../examples/catalyst/explicit_ids.json");
    const TOML: &str = include_str!("../../../examples/catalyst/scale.toml");
    arbtest::arbtest(|u| {
        let (text, format) = match u.int_in_range(0..=4)? {
            0 => (
                u.arbitrary::<String>()?,
                *u.choose(&[DescFormat::Json, DescFormat::Toml])?,
            ),
            1 => (
                token_text(u, DESC_TOKENS)?,
                *u.choose(&[DescFormat::Json, DescFormat::Toml])?,
            ),
            2 | 3 => (mutate(u, JSON, DESC_TOKENS)?, DescFormat::Json),
            _ => (mutate(u, TOML, DESC_TOKENS)?, DescFormat::Toml),
        };
        if let Ok(kernels) = description::parse(&text, format) {
            lay_out_all(u, &kernels)?;
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

/// Dword values that make offsets, sizes and counts go wrong.
const EVIL_WORDS: [u32; 8] = [0, 1, 3, 8, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF0, u32::MAX];

/// A real binary with byte-level damage: truncation, flipped bytes, dwords overwritten
/// with extreme values (near the outer header, the CAL image headers, or anywhere), and
/// deleted or inserted bytes.
fn damage(u: &mut Unstructured<'_>, original: &[u8]) -> Result<Vec<u8>> {
    let mut b = original.to_vec();
    // The CAL images start with their own ELF magic: aim there too.
    let inner: Vec<usize> = (1..b.len().saturating_sub(4))
        .filter(|&i| b[i..i + 4] == *b"\x7fELF")
        .collect();
    for _ in 0..u.int_in_range(1..=4)? {
        if b.is_empty() {
            break;
        }
        match u.int_in_range(0..=4)? {
            0 => {
                let n = u.int_in_range(0..=b.len())?;
                b.truncate(n);
            }
            1 => {
                let i = u.choose_index(b.len())?;
                b[i] ^= 1 << u.int_in_range(0..=7)?;
            }
            2 => {
                let base = match u.int_in_range(0..=2)? {
                    0 => 0,
                    1 if !inner.is_empty() => *u.choose(&inner)?,
                    _ => u.choose_index(b.len())?,
                };
                let at = (base + 4 * u.int_in_range(0..=64)?).min(b.len().saturating_sub(4));
                let w = if u.arbitrary()? {
                    *u.choose(&EVIL_WORDS)?
                } else {
                    u.arbitrary()?
                };
                let end = (at + 4).min(b.len());
                let bytes = w.to_le_bytes();
                b[at..end].copy_from_slice(&bytes[..end - at]);
            }
            3 => {
                let i = u.choose_index(b.len())?;
                let n = u.int_in_range(1..=16)?.min(b.len() - i);
                b.drain(i..i + n);
            }
            _ => {
                let i = u.int_in_range(0..=b.len())?;
                let byte: u8 = u.arbitrary()?;
                let n = u.int_in_range(1..=16)?;
                b.splice(i..i, std::iter::repeat_n(byte, n));
            }
        }
    }
    Ok(b)
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn binary_reader_never_panics_on_damaged_binaries() {
    let Some(files) = common::catalyst_binaries() else {
        return;
    };
    let originals: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    arbtest::arbtest(|u| {
        let original = u.choose(&originals)?;
        let bytes = damage(u, original)?;
        match binary::read(&bytes) {
            Ok(b) => {
                for k in &b.kernels {
                    let _ = render::inspect::render(k);
                }
                let _ = serde_json::to_string(&b);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
        Ok(())
    })
    .budget_ms(2 * BUDGET_MS);
}

/// The writer, given layouts of the example kernels for any device, driver, bits,
/// dimensions and policy, arbitrary code and sometimes an arbitrary kernel name or a kernel
/// twice: an error or a binary that reads back with the same kernels and code.
#[test]
fn binary_writer_never_panics_and_its_output_reads_back() {
    let kernels: Vec<Kernel> = EXAMPLES
        .iter()
        .flat_map(|t| parse_kernels(t).unwrap())
        .collect();
    arbtest::arbtest(|u| {
        let mut layouts = Vec::new();
        let mut codes = Vec::new();
        for _ in 0..u.int_in_range(1..=3)? {
            let o = Options {
                device: *u.choose(&DEVICES)?,
                driver: *u.choose(&[101604, 112402, 134805, 152603, 170203, 200406])?,
                is_64bit: u.arbitrary()?,
                dims: Dims::parse(u.choose(&["x", "xy", "xyz", "xz,x"])?).ok(),
                scratch_bytes: u.int_in_range(0..=4096)?,
                printf: u.arbitrary()?,
                notes: if u.arbitrary()? {
                    NotesPolicy::Amd
                } else {
                    NotesPolicy::Clrx
                },
                ..Options::default()
            };
            let Ok(mut l) = layout(u.choose(&kernels)?, &o) else {
                continue;
            };
            if u.ratio(1, 8)? {
                l.kernel = u.arbitrary()?;
            }
            let code: Vec<u8> = if u.ratio(1, 4)? {
                u.arbitrary()?
            } else {
                let dwords = u.int_in_range(1..=32)?;
                u.bytes(4 * dwords)?.to_vec()
            };
            layouts.push(l);
            codes.push(code);
        }
        let list: Vec<binary::KernelCode<'_>> = layouts
            .iter()
            .zip(&codes)
            .map(|(layout, code)| binary::KernelCode { layout, code })
            .collect();
        if let Ok(bytes) = binary::write(&list) {
            let back = binary::read(&bytes).unwrap_or_else(|e| panic!("reading back: {e}"));
            assert_eq!(back.kernels.len(), list.len());
            for (b, k) in back.kernels.iter().zip(&list) {
                assert_eq!(b.kernel, k.layout.kernel);
                let hex: String = k.code.iter().map(|x| format!("{x:02x}")).collect();
                assert_eq!(b.code.hex, hex);
            }
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "typedef {}int x;{} t; kernel void k(t a) {{}}",
        "struct { ".repeat(100_000),
        "} y;".repeat(100_000)
    );
    assert!(parse_kernels(&deep).is_err());
    let parens = format!(
        "kernel void k(int a[{}1{}]) {{}}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let _ = parse_kernels(&parens);
    let json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(description::parse(&json, DescFormat::Json).is_err());
}

#[test]
fn huge_struct_arrays_are_an_error() {
    let src = "typedef struct { double16 a[4294967295]; double16 b[4294967295]; } s;\n\
               kernel void k(s v) {}";
    if let Ok(kernels) = parse_kernels(src) {
        for k in &kernels {
            let _ = layout(k, &Options::default());
        }
    }
}

/// Inputs found while hunting, kept as plain tests.
#[test]
fn regressions() {
    // render/svg.rs drew one box per 16-byte slot: 5 arguments of 16 MB made 5 million
    // boxes (2.7 GB, 40 s). The picture stays small now.
    let src = "typedef struct { char a[16000000]; } s;\nkernel void k(s v, s w, s x, s y, s z) {}";
    let kernels = parse_kernels(src).unwrap();
    let l = layout(&kernels[0], &Options::default()).unwrap();
    let svg = render::svg::render(&l);
    assert!(svg.len() < 100_000, "{} bytes of SVG", svg.len());
}
