//! `binary::write` against AMD's own Catalyst binaries in the shared test data (driver
//! 1702.3, Pitcairn, 32 and 64 bit): each kernel is laid out from the OpenCL C source,
//! given the code and the register counts of AMD's binary (what its compiler chose),
//! written, and read back. The read-back kernels must equal what the reader gets from
//! AMD's file, and the written file must equal AMD's byte for byte, section by section,
//! except where listed (what AMD's compiler writes that the layout engine cannot know).

mod common;

use std::path::Path;

use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::binary::{self, BinaryKernel, KernelCode, WriteError};
use gpuabi_catalyst::driver::Device;
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::{layout, KernelLayout, NotesPolicy, Options, ProgramPlace, UserDataPolicy};
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::{elf, LittleEndian as LE};

/// How each source's kernels are used: the bodies of alltypes.cl and structkernel2.cl are
/// empty (nothing used, no dimension); samplekernels.cl reads cb0 and every argument in x.
fn source_of(file: &str) -> (&'static str, bool, Option<&'static str>) {
    match file.trim_end_matches("_64") {
        "samplekernels" => ("samplekernels", false, Some("x")),
        "alltypes" => ("alltypes", true, None),
        "structkernel2" => ("structkernel2", true, None),
        other => panic!("unexpected file {other}"),
    }
}

/// The layouts of every kernel of AMD's binary `file`, from its source.
fn layouts(dir: &Path, file: &str, amd: &binary::CatalystBinary) -> Vec<KernelLayout> {
    let (src, all_unused, dims) = source_of(file);
    let text = std::fs::read_to_string(dir.join(format!("{src}.cl"))).unwrap();
    let n = amd.kernels.len() as u32;
    amd.kernels
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let mut kernel = select_kernel(parse_kernels(&text).unwrap(), Some(&k.kernel)).unwrap();
            if all_unused {
                for a in &mut kernel.args {
                    a.used = false;
                }
            }
            let opts = Options {
                driver: amd.driver.unwrap(),
                is_64bit: amd.bits == 64,
                dims: dims.map(|d| Dims::parse(d).unwrap()),
                userdata: UserDataPolicy::Amd,
                vec3_64: Vec3Policy::Amd,
                setup_buffer_used: !all_unused,
                notes: NotesPolicy::Amd,
                sgprs: Some(k.regs.sgprs),
                vgprs: Some(k.regs.vgprs),
                program: ProgramPlace {
                    index: i as u32,
                    kernels: n,
                },
                ..Options::default()
            };
            layout(&kernel, &opts).unwrap()
        })
        .collect()
}

/// The JSON fields in which two kernels differ, with both values.
fn field_differences(ours: &BinaryKernel, amd: &BinaryKernel) -> Vec<String> {
    let (o, a) = (
        serde_json::to_value(ours).unwrap(),
        serde_json::to_value(amd).unwrap(),
    );
    let (o, a) = (o.as_object().unwrap(), a.as_object().unwrap());
    let mut d: Vec<String> = o
        .iter()
        .filter(|(k, v)| a.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: ours {v}, AMD {}", a.get(k).unwrap()))
        .collect();
    for (x, y) in ours
        .args
        .iter()
        .zip(&amd.args)
        .filter(|(x, y)| x.ty != y.ty)
    {
        d.push(format!("{} type: ours {:?}, AMD {:?}", x.name, x.ty, y.ty));
    }
    d
}

fn code_of(data: &[u8], k: &BinaryKernel) -> Vec<u8> {
    data[k.code.offset as usize..k.code.offset as usize + k.code.size].to_vec()
}

/// The kernel with file offsets cleared (the files differ in `.llvmir`'s size).
fn without_offsets(k: &BinaryKernel) -> BinaryKernel {
    let mut k = k.clone();
    k.code.offset = 0;
    for n in &mut k.cal_notes {
        n.offset = 0;
    }
    k
}

/// One section: name, header fields but the offset, and contents.
type Section = (String, [u64; 7], Vec<u8>);

/// The ELF header fields but `e_shoff`, the sections and the symbols of an outer file.
fn parts<H: FileHeader<Endian = LE>>(data: &[u8]) -> (Vec<u64>, Vec<Section>, Vec<[u64; 6]>) {
    let h = H::parse(data).unwrap();
    let e = LE;
    let header = vec![
        u64::from(h.e_type(e).0),
        u64::from(h.e_machine(e).0),
        u64::from(h.e_version(e)),
        h.e_entry(e).into(),
        h.e_phoff(e).into(),
        u64::from(h.e_flags(e).0),
        u64::from(h.e_ehsize(e)),
        u64::from(h.e_phentsize(e)),
        u64::from(h.e_phnum(e)),
        u64::from(h.e_shentsize(e)),
        u64::from(h.e_shnum(e)),
        u64::from(h.e_shstrndx(e).0),
    ];
    let ident = &data[..16];
    let sections = h.sections(e, data).unwrap();
    let list = sections
        .iter()
        .map(|s| {
            let name = String::from_utf8_lossy(sections.section_name(e, s).unwrap()).into_owned();
            let fields = [
                u64::from(s.sh_type(e).0),
                s.sh_flags(e).0,
                s.sh_addr(e).into(),
                u64::from(s.sh_link(e)),
                u64::from(s.sh_info(e)),
                s.sh_addralign(e).into(),
                s.sh_entsize(e).into(),
            ];
            (name, fields, s.data(e, data).unwrap().to_vec())
        })
        .collect();
    let symbols = sections.symbols(e, data, elf::SHT_SYMTAB).unwrap();
    let syms = symbols
        .iter()
        .map(|s| {
            [
                u64::from(s.st_name(e)),
                s.st_value(e).into(),
                s.st_size(e).into(),
                u64::from(s.st_info().0),
                u64::from(s.st_other().0),
                u64::from(s.st_shndx(e).0),
            ]
        })
        .collect();
    let mut header_all = ident.iter().map(|&b| u64::from(b)).collect::<Vec<_>>();
    header_all.extend(header);
    (header_all, list, syms)
}

/// Every byte-level difference between our file and AMD's, as text.
fn byte_differences(ours: &[u8], amd: &[u8]) -> Vec<String> {
    let (oh, os, osym, ah, asec, asym) = if amd[4] == 2 {
        let (a, b, c) = parts::<elf::FileHeader64<LE>>(ours);
        let (d, e, f) = parts::<elf::FileHeader64<LE>>(amd);
        (a, b, c, d, e, f)
    } else {
        let (a, b, c) = parts::<elf::FileHeader32<LE>>(ours);
        let (d, e, f) = parts::<elf::FileHeader32<LE>>(amd);
        (a, b, c, d, e, f)
    };
    let mut d = Vec::new();
    if oh != ah {
        d.push(format!("ELF header: ours {oh:?}, AMD {ah:?}"));
    }
    if os.len() != asec.len() {
        d.push(format!("{} sections, AMD {}", os.len(), asec.len()));
    }
    for (o, a) in os.iter().zip(&asec) {
        if o.0 != a.0 || o.1 != a.1 {
            d.push(format!(
                "section {}: ours {:?}, AMD {} {:?}",
                o.0, o.1, a.0, a.1
            ));
        }
        if o.2 != a.2 {
            d.push(format!(
                "section {}: {} bytes differ from AMD's {}",
                o.0,
                o.2.len(),
                a.2.len()
            ));
        }
    }
    if osym != asym {
        for (o, a) in osym.iter().zip(&asym).filter(|(o, a)| o != a) {
            d.push(format!("symbol: ours {o:?}, AMD {a:?}"));
        }
    }
    d
}

/// The binaries of the test data, sorted by name.
const FILES: [&str; 6] = [
    "alltypes",
    "alltypes_64",
    "samplekernels",
    "samplekernels_64",
    "structkernel2",
    "structkernel2_64",
];
/// Bytes of AMD's `.llvmir` in each of [`FILES`] (readelf's section table).
const LLVMIR_BYTES: [usize; 6] = [5876, 5896, 2000, 2048, 1312, 1332];

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn written_binaries_read_back_as_amds_and_match_its_bytes() {
    let Some(files) = common::catalyst_binaries() else {
        return;
    };
    let dir = files[0].parent().unwrap().to_path_buf();
    let stems: Vec<String> = files
        .iter()
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(stems, FILES);
    let mut all = Vec::new();
    for file in FILES {
        let data = std::fs::read(dir.join(format!("{file}.clo"))).unwrap();
        let amd = binary::read(&data).unwrap();
        let layouts = layouts(&dir, file, &amd);
        let codes: Vec<Vec<u8>> = amd.kernels.iter().map(|k| code_of(&data, k)).collect();
        let kernels: Vec<KernelCode<'_>> = layouts
            .iter()
            .zip(&codes)
            .map(|(layout, code)| KernelCode { layout, code })
            .collect();
        let ours = binary::write(&kernels).unwrap();
        let back = binary::read(&ours).unwrap();
        assert_eq!(back.bits, amd.bits, "{file}");
        assert_eq!(back.machine, amd.machine, "{file}");
        assert_eq!(back.driver, amd.driver, "{file}");
        assert_eq!(back.kernels.len(), amd.kernels.len(), "{file}");
        for (b, a) in back.kernels.iter().zip(&amd.kernels) {
            for d in field_differences(&without_offsets(b), &without_offsets(a)) {
                all.push(format!("{file} {}: read back: {d}", a.kernel));
            }
            // The image runs from 448 bytes before its first note to the end of its
            // `.data` (4736 bytes), `.symtab` (16) and `.strtab` (2).
            let image = |data: &[u8], k: &BinaryKernel| {
                let start = k.cal_notes[0].offset as usize - 448;
                let end = k.code.offset as usize + k.code.size + 4736 + 16 + 2;
                data[start..end].to_vec()
            };
            let (o, x) = (image(&ours, b), image(&data, a));
            let differing: Vec<usize> = (0..o.len().max(x.len()))
                .filter(|&i| o.get(i) != x.get(i))
                .collect();
            if !differing.is_empty() {
                all.push(format!(
                    "{file} {}: CAL image bytes {differing:?} differ",
                    a.kernel
                ));
            }
        }
        for diff in byte_differences(&ours, &data) {
            all.push(format!("{file}: {diff}"));
        }
    }
    // What differs: AMD's `.llvmir` holds the program's LLVM bitcode (gpuabi writes it
    // empty); structkernel2 was compiled with the options " " (gpuabi writes none: the
    // `.comment` is one byte shorter and `__OpenCL_compile_options` has size 0, not 1);
    // in alltypes_64 AMD's CONSTANT_BUFFERS note holds sizes that are no sizes
    // (0x80ffa574, 5, 0x69746165, 0x6f766f31: the 32-bit alltypes.clo has 0 there, as
    // CLRX writes and gpuabi writes), which changes that image and so `.text`.
    let mut expected = Vec::new();
    for (file, llvmir) in FILES.iter().zip(LLVMIR_BYTES) {
        if *file == "alltypes_64" {
            expected.push(format!(
                "{file} myKernel: read back: cbmask: ours [[0,0],[1,0],[11,0],[11,0]], \
                 AMD [[0,2164260980],[1,5],[11,1769235301],[11,1870019121]]"
            ));
            expected.push(format!(
                "{file} myKernel: CAL image bytes {CB_SIZE_BYTES:?} differ"
            ));
        }
        if file.starts_with("structkernel2") {
            let symtab = if file.ends_with("_64") { 120 } else { 80 };
            expected.push(format!(
                "{file}: section .symtab: {symtab} bytes differ from AMD's {symtab}"
            ));
        }
        expected.push(format!(
            "{file}: section .llvmir: 0 bytes differ from AMD's {llvmir}"
        ));
        if file.starts_with("structkernel2") {
            expected.push(format!(
                "{file}: section .comment: 62 bytes differ from AMD's 63"
            ));
        }
        if *file == "alltypes_64" {
            expected.push(format!(
                "{file}: section .text: 6330 bytes differ from AMD's 6330"
            ));
        }
    }
    let symbol_lines: Vec<&String> = all.iter().filter(|l| l.contains("symbol:")).collect();
    assert_eq!(symbol_lines.len(), 2, "{all:#?}");
    for l in &symbol_lines {
        assert!(
            l.starts_with("structkernel2")
                && l.contains("ours [1, 0, 0, 1, 0, 5], AMD [1, 0, 1, 1, 0, 5]"),
            "{l}"
        );
    }
    let rest: Vec<String> = all.into_iter().filter(|l| !l.contains("symbol:")).collect();
    assert_eq!(rest, expected);
}

/// The bytes of alltypes_64's CAL image that differ from AMD's: the size dwords of the
/// CONSTANT_BUFFERS note's four `[id, size]` pairs where AMD's are not 0.
const CB_SIZE_BYTES: [usize; 11] = [860, 863, 868, 876, 877, 878, 879, 884, 885, 886, 887];

/// [`CB_SIZE_BYTES`] lie in the size dwords of alltypes_64's CONSTANT_BUFFERS note: its
/// descriptor starts 20 bytes after its note header, whose file offset the reader gives.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn differing_bytes_are_constant_buffer_sizes() {
    let Some(dir) = common::shared_data("amd-catalyst") else {
        return;
    };
    let data = std::fs::read(dir.join("alltypes_64.clo")).unwrap();
    let k = &binary::read(&data).unwrap().kernels[0];
    let image = k.cal_notes[0].offset as usize - 448;
    let cb = k.cal_notes.iter().find(|n| n.note_type == 10).unwrap();
    let desc = cb.offset as usize - image + 20;
    assert_eq!(cb.size, 32);
    for b in CB_SIZE_BYTES {
        assert!(
            b >= desc && b < desc + 32 && (b - desc) % 8 >= 4,
            "byte {b}"
        );
    }
}

/// The section offsets of a written file follow AMD's placement, checked against
/// samplekernels.clo's section table read with readelf: `.shstrtab` right after the
/// header (0x34), `.strtab` after it (0x6e), `.symtab` 8-aligned (0x118), the section
/// headers after `.text`, 4-aligned (0x3fa6 → 0x3fa8), all shifted by the 2000 bytes of
/// `.llvmir` gpuabi does not write.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn section_offsets_follow_amds() {
    let Some(dir) = common::shared_data("amd-catalyst") else {
        return;
    };
    let data = std::fs::read(dir.join("samplekernels.clo")).unwrap();
    let amd = binary::read(&data).unwrap();
    let layouts = layouts(&dir, "samplekernels", &amd);
    let codes: Vec<Vec<u8>> = amd.kernels.iter().map(|k| code_of(&data, k)).collect();
    let kernels: Vec<KernelCode<'_>> = layouts
        .iter()
        .zip(&codes)
        .map(|(layout, code)| KernelCode { layout, code })
        .collect();
    let ours = binary::write(&kernels).unwrap();
    let h = elf::FileHeader32::<LE>::parse(&*ours).unwrap();
    let offsets: Vec<u32> = h
        .sections(LE, &*ours)
        .unwrap()
        .iter()
        .map(|s| s.sh_offset(LE))
        .collect();
    let llvmir = 0x7d0;
    assert_eq!(
        offsets,
        vec![
            0,
            0x34,
            0x6e,
            0x118,
            0x198,
            0x968 - llvmir,
            0x9a6 - llvmir,
            0xdb2 - llvmir
        ]
    );
    assert_eq!(h.e_shoff.get(LE), 0x3fa8 - llvmir);
    assert_eq!(ours.len() as u32, 0x40e8 - llvmir);
}

fn pitcairn_layout(name: &str) -> KernelLayout {
    let kernel = select_kernel(
        parse_kernels(&format!("kernel void {name}(global uint* a) {{}}")).unwrap(),
        None,
    )
    .unwrap();
    layout(&kernel, &Options::default()).unwrap()
}

/// Bad inputs are errors naming what is wrong.
#[test]
fn bad_inputs_are_errors() {
    let l = pitcairn_layout("k");
    let endpgm = [0x00, 0x00, 0x81, 0xbf];
    assert_eq!(binary::write(&[]), Err(WriteError::NoKernels));
    let e = binary::write(&[KernelCode {
        layout: &l,
        code: &[0; 6],
    }])
    .unwrap_err();
    assert!(e.to_string().contains("6 bytes of code"), "{e}");
    let big = vec![0u8; binary::write::MAX_CODE_BYTES + 4];
    let e = binary::write(&[KernelCode {
        layout: &l,
        code: &big,
    }])
    .unwrap_err();
    assert!(
        e.to_string().contains("more than the 16777216 allowed"),
        "{e}"
    );
    let e = binary::write(&[
        KernelCode {
            layout: &l,
            code: &endpgm,
        },
        KernelCode {
            layout: &l,
            code: &endpgm,
        },
    ])
    .unwrap_err();
    assert_eq!(e, WriteError::DuplicateKernel("k".into()));
    let tonga = layout(
        &select_kernel(
            parse_kernels("kernel void t(global uint* a) {}").unwrap(),
            None,
        )
        .unwrap(),
        &Options {
            device: Device::from_name("tonga").unwrap(),
            ..Options::default()
        },
    )
    .unwrap();
    let e = binary::write(&[
        KernelCode {
            layout: &l,
            code: &endpgm,
        },
        KernelCode {
            layout: &tonga,
            code: &endpgm,
        },
    ])
    .unwrap_err();
    assert!(
        e.to_string().contains("tonga (driver 1702.3, 32-bit)"),
        "{e}"
    );
    let mut odd = l.clone();
    odd.kernel = "a:b".into();
    let e = binary::write(&[KernelCode {
        layout: &odd,
        code: &endpgm,
    }])
    .unwrap_err();
    assert!(e.to_string().contains("':' at byte 1"), "{e}");
    // Unknown devices and absent kernels fail before a layout exists.
    assert!(Device::from_name("pitcairnx").is_err());
    assert!(select_kernel(parse_kernels("kernel void k() {}").unwrap(), Some("j")).is_err());
}

/// A kernel written for another device carries that device's machine codes: Tonga's
/// outer `e_machine` 0x40A and CAL machine 0x2A (CLRX's amdbin/AmdBinGen.cpp tables).
#[test]
fn device_codes() {
    let kernel = select_kernel(
        parse_kernels("kernel void t(global uint* a) {}").unwrap(),
        None,
    )
    .unwrap();
    let l = layout(
        &kernel,
        &Options {
            device: Device::from_name("tonga").unwrap(),
            is_64bit: true,
            ..Options::default()
        },
    )
    .unwrap();
    let bytes = binary::write(&[KernelCode {
        layout: &l,
        code: &[0x00, 0x00, 0x81, 0xbf],
    }])
    .unwrap();
    assert_eq!(&bytes[18..20], &[0x0A, 0x04]);
    let b = binary::read(&bytes).unwrap();
    assert_eq!(b.kernels[0].device, "tonga");
    assert_eq!(b.kernels[0].bits, 64);
    // The encoding entry is at byte 148 of the image, which starts 448 bytes before the
    // first note.
    let start = b.kernels[0].cal_notes[0].offset as usize - 448;
    assert_eq!(&bytes[start + 148..start + 152], &[0x2A, 0, 0, 0]);
}

/// Argument types for [`any_layout_reads_back`].
const TYPES: [&str; 14] = [
    "uchar3",
    "int",
    "ulong16",
    "double3",
    "struct s",
    "global float*",
    "constant int*",
    "local uchar*",
    "read_only image2d_t",
    "write_only image3d_t",
    "sampler_t",
    "counter32_t",
    "global void*",
    "const global uint*",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Whatever the kernel, driver, device and bits, a written binary reads back the
    /// layout it was written from: header, metadata, CAL notes, user data, PGM_RSRC2,
    /// register counts, special ids and every argument's offset and resource.
    #[test]
    fn any_layout_reads_back(
        args in proptest::collection::vec((0..TYPES.len(), proptest::bool::ANY), 0..8),
        driver in proptest::sample::select(vec![101604u32, 112402, 134805, 144505, 152603, 164205, 170203]),
        device in proptest::sample::select(vec!["capeverde", "hawaii", "tonga", "gfx804"]),
        amd in proptest::bool::ANY,
        is_64bit in proptest::bool::ANY,
        dims in proptest::sample::select(vec!["", "x", "xyz", "xy,x"]),
        scratch in proptest::sample::select(vec![0u32, 64]),
    ) {
        let params: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, (t, used))| format!("{} {}a{i}", TYPES[*t], if *used { "" } else { "/*unused*/ " }))
            .collect();
        let src = format!(
            "struct s {{ char c[20]; }};\nkernel void k({}) {{}}",
            params.join(", ")
        );
        let kernel = parse_kernels(&src).unwrap().remove(0);
        let opts = Options {
            driver,
            device: Device::from_name(device).unwrap(),
            is_64bit,
            dims: (!dims.is_empty()).then(|| Dims::parse(dims).unwrap()),
            scratch_bytes: scratch,
            userdata: UserDataPolicy::Amd,
            vec3_64: Vec3Policy::Amd,
            notes: if amd { NotesPolicy::Amd } else { NotesPolicy::Clrx },
            ..Options::default()
        };
        let l = layout(&kernel, &opts).unwrap();
        let code = [0x00, 0x00, 0x81, 0xbf];
        let bytes = binary::write(&[KernelCode { layout: &l, code: &code }]).unwrap();
        let b = binary::read(&bytes).unwrap();
        let k = &b.kernels[0];
        proptest::prop_assert_eq!(b.driver, Some(driver));
        proptest::prop_assert_eq!(&k.kernel, &l.kernel);
        proptest::prop_assert_eq!(&k.device, &l.device);
        proptest::prop_assert_eq!(k.bits, l.bits);
        proptest::prop_assert_eq!(k.header, l.header);
        proptest::prop_assert_eq!(&k.metadata, &l.metadata);
        proptest::prop_assert_eq!(&k.notes, &l.notes);
        proptest::prop_assert_eq!(&k.userdata, &l.userdata);
        proptest::prop_assert_eq!(k.user_sgprs, l.user_sgprs);
        proptest::prop_assert_eq!(k.regs.pgm_rsrc2, l.regs.pgm_rsrc2);
        proptest::prop_assert_eq!((k.regs.sgprs, k.regs.vgprs), (l.regs.sgprs, l.regs.vgprs));
        proptest::prop_assert_eq!(&k.ids, &l.ids);
        let ours: Vec<_> = l.args.iter().map(|a| (&a.name, a.slot.offset, a.resource)).collect();
        let back: Vec<_> = k.args.iter().map(|a| (&a.name, a.slot.offset, a.resource)).collect();
        proptest::prop_assert_eq!(back, ours);
        proptest::prop_assert_eq!(&k.code.hex, "000081bf");
    }
}
