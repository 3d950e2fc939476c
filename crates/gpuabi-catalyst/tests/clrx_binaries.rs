//! The layout engine under the `amd` policies against every kernel of AMD's own Catalyst
//! OpenCL 1.2 binaries in CLRX's test data: the `prginfo{1,4,7,8}_*.clo.1_0.regen` files of
//! tests/amdbin/amdbins (GCN 1.0, drivers 1016.4 to 1642.5, 32- and 64-bit; CLRX keeps
//! AMD's bytes, `.reconf` files are CLRX's own regeneration) and the AMD-compiled `.clo`
//! files of tests/amdbin/amdbins and tests/amdasm/amdbins (alltypes, structkernel2,
//! samplekernels; driver 1702.3): 254 kernels. Each is laid out from its OpenCL source in
//! the same folder, with what the source says about it (the dimensions its
//! `get_global_id` calls use, the arguments it never reads, printf, the program-scope
//! samplers it reads in the order it first reads them), the binary's driver and bitness,
//! and the size of its program's global data (the compiler's layout of the format
//! strings, read from the `__OpenCL_N_global` symbol).
//!
//! Every field `catalyst layout` computes and a binary records is compared: arguments
//! (name, cb1 offset, resource, type), the special ids, uavprivate, the header, user data,
//! USER_SGPR, PGM_RSRC2, the UAV note, the constant-buffer ids (and sizes before driver
//! 1124.02), INPUTS, INPUT_SAMPLERS,
//! the UAV mask and the metadata lines in order (but `;uniqueid:` and `;function:`, which
//! number kernels in the compiler's own order). A field may differ only where the layout
//! says it cannot derive it for the kernel's driver ([`KernelLayout::not_derived`]).
//!
//! The binaries are read from `GPUABI_CLRX_DIR` (a checkout of CLRX's repository); without
//! it the test prints why and passes.

mod common;

use std::path::{Path, PathBuf};

use gpuabi_amdgpu::{decode, encode, WaveSize};
use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::binary::disasm::target_of;
use gpuabi_catalyst::binary::{self, BinaryKernel, CatalystBinary};
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::{layout, KernelLayout, NotesPolicy, Options, UserDataPolicy};

/// What a kernel's source says about it.
#[derive(Default)]
struct Facts {
    /// Dimensions of its `get_global_id` calls; `None`: none.
    dims: Option<&'static str>,
    /// Arguments it never reads.
    unused: &'static [&'static str],
    /// Every argument is unused and cb0 is not read (empty bodies).
    empty: bool,
    printf: bool,
    /// Values of the program-scope samplers it reads, in the order of its first reads.
    const_samplers: &'static [u32],
}

/// `CLK_FILTER_LINEAR | CLK_ADDRESS_CLAMP` (prginfo4.cl's `samp1`, prginfo8.cl's `csamp1`)
/// and `CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP_TO_EDGE` (`csamp2`) as sampler values
/// (CLRX's doc/AmdAbi.md: bits 1-3 addressing, 4-5 filter).
const LINEAR_CLAMP: u32 = 0x26;
const NEAREST_EDGE: u32 = 0x14;

fn facts(source: &str, kernel: &str) -> Facts {
    let x = Some("x");
    match (source, kernel) {
        ("samplekernels", _) => Facts {
            dims: x,
            ..Facts::default()
        },
        ("alltypes" | "structkernel2", _) => Facts {
            empty: true,
            ..Facts::default()
        },
        ("prginfo1", "transformer2d") => Facts {
            dims: Some("xy"),
            ..Facts::default()
        },
        ("prginfo1", "transformer3d") => Facts {
            dims: Some("xyz"),
            ..Facts::default()
        },
        ("prginfo1" | "prginfo7", _) => Facts {
            dims: x,
            ..Facts::default()
        },
        ("prginfo4", _) => Facts {
            dims: Some("xy"),
            const_samplers: &[LINEAR_CLAMP],
            ..Facts::default()
        },
        ("prginfo8", "imageTransform" | "imageTransformX" | "imageTransformS") => Facts {
            dims: Some("xy"),
            ..Facts::default()
        },
        // `csamp1` is first read in `c2`, before `csamp2`.
        ("prginfo8", "imageTransform5MS") => Facts {
            dims: Some("xy"),
            const_samplers: &[LINEAR_CLAMP, NEAREST_EDGE],
            ..Facts::default()
        },
        ("prginfo8", k) if k.starts_with("kernelPrintf") => Facts {
            dims: Some("xyz"),
            printf: true,
            unused: match k {
                "kernelPrintf3" | "kernelPrintf6" => &["mybuf"],
                "kernelPrintf4" => &["gf", "g"],
                "kernelPrintf7" => &["mybuf", "mybuf2"],
                _ => &[],
            },
            ..Facts::default()
        },
        (s, k) => panic!("no facts for {s} {k}"),
    }
}

/// The 36 binaries compared: (binary, source file, source name).
fn binaries(clrx: &Path) -> Vec<(PathBuf, PathBuf, String)> {
    let bin = clrx.join("tests/amdbin/amdbins");
    let asm = clrx.join("tests/amdasm/amdbins");
    let mut out = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&bin)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("prginfo") && n.ends_with(".clo.1_0.regen"))
        .collect();
    names.sort();
    for n in names {
        let source = n.split('_').next().unwrap().to_string();
        out.push((bin.join(&n), bin.join(format!("{source}.cl")), source));
    }
    for (dir, source) in [
        (&bin, "alltypes"),
        (&bin, "structkernel2"),
        (&asm, "samplekernels"),
    ] {
        for suffix in ["", "_64"] {
            out.push((
                dir.join(format!("{source}{suffix}.clo")),
                dir.join(format!("{source}.cl")),
                source.to_string(),
            ));
        }
    }
    out
}

/// The layout of `k` from its source, under the `amd` policies.
fn our_layout(source: &str, text: &str, b: &CatalystBinary, k: &BinaryKernel) -> KernelLayout {
    let f = facts(source, &k.kernel);
    let mut kernel = select_kernel(parse_kernels(text).unwrap(), Some(&k.kernel)).unwrap();
    for a in &mut kernel.args {
        if f.empty || f.unused.contains(&a.name.as_str()) {
            a.used = false;
        }
    }
    let opts = Options {
        driver: b.driver.unwrap(),
        is_64bit: b.bits == 64,
        dims: f.dims.map(|d| Dims::parse(d).unwrap()),
        userdata: UserDataPolicy::Amd,
        vec3_64: Vec3Policy::Amd,
        setup_buffer_used: !f.empty,
        notes: NotesPolicy::Amd,
        printf: f.printf,
        const_samplers: f.const_samplers.to_vec(),
        global_data_bytes: b.global_data.as_ref().map_or(0, |g| g.size as u32),
        ..Options::default()
    };
    layout(&kernel, &opts).unwrap_or_else(|e| panic!("{}: {e}", k.kernel))
}

/// Every difference between the binary and our layout: (field as the JSON output names
/// it, AMD's value, ours).
fn differences(ours: &KernelLayout, amd: &BinaryKernel) -> Vec<(&'static str, String, String)> {
    let mut d = Vec::new();
    let mut check = |what: &'static str, a: String, o: String| {
        if a != o {
            d.push((what, a, o));
        }
    };
    let args = |v: Vec<(String, u32, String, String)>| format!("{v:?}");
    check(
        "args",
        args(
            amd.args
                .iter()
                .map(|a| {
                    (
                        a.name.clone(),
                        a.slot.offset,
                        format!("{:?}", a.resource),
                        a.type_name.clone(),
                    )
                })
                .collect(),
        ),
        args(
            ours.args
                .iter()
                .map(|a| {
                    (
                        a.name.clone(),
                        a.slot.offset,
                        format!("{:?}", a.resource),
                        a.type_name.clone(),
                    )
                })
                .collect(),
        ),
    );
    for (what, a, o) in [
        ("uavid", amd.ids.uavid, ours.ids.uavid),
        ("cbid", amd.ids.cbid, ours.ids.cbid),
        ("printfid", amd.ids.printfid, ours.ids.printfid),
        ("privateid", amd.ids.privateid, ours.ids.privateid),
    ] {
        check(what, format!("{a:?}"), format!("{o:?}"));
    }
    check(
        "uavprivate",
        amd.uavprivate.map_or("none".into(), |u| u.to_string()),
        ours.uavprivate.to_string(),
    );
    check(
        "header",
        format!("{:?}", amd.header),
        format!("{:?}", ours.header),
    );
    check(
        "userdata",
        format!("{:?}", amd.userdata),
        format!("{:?}", ours.userdata),
    );
    check(
        "user_sgprs",
        amd.user_sgprs.to_string(),
        ours.user_sgprs.to_string(),
    );
    check(
        "pgm_rsrc2",
        format!("{:#x}", amd.regs.pgm_rsrc2),
        format!("{:#x}", ours.regs.pgm_rsrc2),
    );
    check(
        "uav_note",
        format!("{:?}", amd.notes.uav),
        format!("{:?}", ours.notes.uav),
    );
    // AMD's constant-buffer sizes are not meaningful from driver 1124.02 on (CLRX writes
    // 0); before, they are the sizes in 16-byte units.
    let cbmask = |l: &[[u32; 2]], sizes: bool| {
        format!(
            "{:?}",
            l.iter()
                .map(|e| if sizes { *e } else { [e[0], 0] })
                .collect::<Vec<_>>()
        )
    };
    let old = gpuabi_catalyst::driver::Driver(ours.driver).old_notes();
    check(
        "cbmask",
        cbmask(&amd.notes.cbmask, old),
        cbmask(&ours.notes.cbmask, old),
    );
    check(
        "inputs",
        format!("{:?}", amd.notes.inputs),
        format!("{:?}", ours.notes.inputs),
    );
    check(
        "input_samplers",
        format!("{:?}", amd.notes.input_samplers),
        format!("{:?}", ours.notes.input_samplers),
    );
    check(
        "uav_mask",
        format!("{:?}", amd.notes.uav_mask),
        format!("{:?}", ours.notes.uav_mask),
    );
    let lines = |m: &str| -> Vec<String> {
        m.lines()
            .filter(|l| !l.starts_with(";uniqueid:") && !l.starts_with(";function:"))
            .map(str::to_string)
            .collect()
    };
    let (a, o) = (lines(&amd.metadata), lines(&ours.metadata));
    if a != o {
        // The lines from the first that differs, of each.
        let at = a.iter().zip(&o).take_while(|(x, y)| x == y).count();
        d.push(("metadata", a[at..].join(" "), o[at..].join(" ")));
    }
    d
}

#[test]
#[cfg_attr(
    gpuabi_no_clrx,
    ignore = "needs a checkout of CLRX's repository in GPUABI_CLRX_DIR"
)]
fn layouts_agree_with_amd_binaries() {
    let Some(clrx) = common::clrx_dir() else {
        return;
    };
    let mut kernels = 0;
    let mut agree = 0;
    let mut declared = 0;
    let mut report = Vec::new();
    let mut undeclared = Vec::new();
    for (path, source_path, source) in binaries(&clrx) {
        let data = std::fs::read(&path).unwrap();
        let b = binary::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = std::fs::read_to_string(&source_path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for k in &b.kernels {
            kernels += 1;
            let ours = our_layout(&source, &text, &b, k);
            let diffs = differences(&ours, k);
            if diffs.is_empty() {
                agree += 1;
            } else {
                declared += 1;
            }
            for (field, a, o) in diffs {
                let line = format!(
                    "{name} {}: {field}:\n    AMD     {a}\n    gpuabi  {o}",
                    k.kernel
                );
                match ours.not_derived.iter().find(|n| n.field == field) {
                    Some(n) => report.push(format!("{line}\n    (not derived: {})", n.reason)),
                    None => undeclared.push(line),
                }
            }
        }
    }
    eprintln!(
        "{agree} of {kernels} kernels agree in every field; {declared} differ only where \
         the layout says it cannot derive AMD's value:"
    );
    eprintln!("{}", report.join("\n"));
    assert!(
        undeclared.is_empty(),
        "differences the layout does not declare:\n{}",
        undeclared.join("\n")
    );
    assert_eq!(kernels, 254);
    // The kernels with declared differences: 22 with INPUT_SAMPLERS of driver 1016.4
    // (prginfo4's seven and prginfo8's four sampling kernels, 32- and 64-bit), the two
    // transformer25gp of 1348.5 and the four kernelPrintf4 of 1573.4 and 1642.5.
    assert_eq!((agree, declared), (226, 28));
}

/// The bytes of a binary's hex dump.
fn bytes_of(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// The code of every kernel of every Catalyst OpenCL 1.2 binary in CLRX's test data (AMD's
/// `.regen` files, CLRX's `.reconf` regenerations and assembled ones; the files of other
/// formats are left out as the reader refuses them) decodes with the machine model and
/// encodes back to its own bytes, the bits the hardware ignores included (AMD's
/// `s_waitcnt` with bit 12 set, gpuabi_amdgpu::dont_care).
#[test]
#[cfg_attr(
    gpuabi_no_clrx,
    ignore = "needs a checkout of CLRX's repository in GPUABI_CLRX_DIR"
)]
fn kernel_code_decodes_and_encodes_to_its_bytes() {
    let Some(clrx) = common::clrx_dir() else {
        return;
    };
    let mut kernels = 0;
    for dir in ["tests/amdbin/amdbins", "tests/amdasm/amdbins"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(clrx.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".clo"))
            .collect();
        files.sort();
        for path in files {
            let Ok(b) = binary::read(&std::fs::read(&path).unwrap()) else {
                continue;
            };
            for k in &b.kernels {
                let Some(generation) = k.generation else {
                    continue;
                };
                let code = bytes_of(&k.code.hex);
                let target = target_of(generation);
                let what = format!("{} {}", path.display(), k.kernel);
                let program =
                    decode(&code, target, WaveSize::W64).unwrap_or_else(|e| panic!("{what}: {e}"));
                let again = encode(&program).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(again == code, "{what}: re-encoded bytes differ");
                kernels += 1;
            }
        }
    }
    eprintln!("{kernels} kernels decode and encode to their bytes");
    // The 246 prginfo kernels twice (.regen, .reconf); alltypes, structkernel2, amd1 and
    // amd1-diffdims one each, 32- and 64-bit alltypes and structkernel2; samplekernels two,
    // 32- and 64-bit.
    assert_eq!(kernels, 2 * 246 + 6 + 4);
}
