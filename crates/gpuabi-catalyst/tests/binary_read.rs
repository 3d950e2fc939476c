//! `binary::read` over the real AMD binaries of `data/amd-catalyst` of the shared test data (driver
//! 1702.3, Pitcairn, 32 and 64 bit): every file is read; fields are checked against values
//! read by hand from the bytes; and every kernel's arguments, offsets and resource ids are
//! compared with what the layout engine computes from the OpenCL C source.

mod common;

use std::path::Path;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{encode, Target, WaveSize};
use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::binary::{self, BinaryKernel, CatalystBinary};
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::resource_ids::Resource;
use gpuabi_catalyst::userdata::{DataClass, UserDataEntry};
use gpuabi_catalyst::{layout, KernelLayout, NotesPolicy, Options, UserDataPolicy};

/// `s_endpgm` (SOPP opcode 1) as little-endian bytes, per AMD's Southern Islands ISA manual.
const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

fn read(path: &Path) -> CatalystBinary {
    let data = std::fs::read(path).unwrap();
    binary::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn kernel<'a>(b: &'a CatalystBinary, name: &str) -> &'a BinaryKernel {
    b.kernels.iter().find(|k| k.kernel == name).unwrap()
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn every_binary_is_read() {
    let Some(files) = common::catalyst_binaries() else {
        return;
    };
    for path in &files {
        let b = read(path);
        let name = path.file_stem().unwrap().to_str().unwrap();
        let bits = if name.ends_with("_64") { 64 } else { 32 };
        assert_eq!(b.bits, bits, "{name}");
        // The README of the data: AMD-APP 1702.3, Pitcairn (e_machine 0x3fe).
        assert_eq!(b.driver, Some(170203), "{name}");
        assert_eq!(b.machine, 0x3fe, "{name}");
        let mut names: Vec<&str> = b.kernels.iter().map(|k| k.kernel.as_str()).collect();
        names.sort();
        let expected: &[&str] = match name.trim_end_matches("_64") {
            "samplekernels" => &["add", "multiply"],
            "alltypes" => &["myKernel"],
            "structkernel2" => &["myKernel1"],
            other => panic!("unexpected file {other}"),
        };
        assert_eq!(names, expected, "{name}");
        for k in &b.kernels {
            assert_eq!(k.bits, bits);
            assert_eq!(k.device, "pitcairn");
            assert_eq!(k.abi64, bits == 64, "{name}: ;memory:64bitABI");
            assert_eq!(k.code.hex.len(), 2 * k.code.size);
            assert!(
                k.code.hex.ends_with("000081bf"),
                "{name} {}: code does not end with s_endpgm {S_ENDPGM:02x?}",
                k.kernel
            );
            assert_eq!(k.cal_notes.len(), 17, "{name} {}", k.kernel);
            assert!(
                k.warnings.is_empty(),
                "{name} {}: {:?}",
                k.kernel,
                k.warnings
            );
            // Every kernel decodes fully, and its text assembles back to the same bytes.
            let text = k
                .disassembly
                .as_deref()
                .unwrap_or_else(|| panic!("{name} {}: no disassembly", k.kernel));
            assert!(
                text.ends_with("\ts_endpgm\n"),
                "{name} {}:\n{text}",
                k.kernel
            );
            let program = parse(text, Target::Gfx6, WaveSize::W64)
                .unwrap_or_else(|e| panic!("{name} {}: {e}\n{text}", k.kernel));
            let code = encode(&program).unwrap();
            let hex: String = code.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(hex, k.code.hex, "{name} {}: re-encoded", k.kernel);
            if let Some(llvm) = llvm_mc_text(text) {
                assert_eq!(llvm, code, "{name} {}: llvm-mc's bytes", k.kernel);
            }
        }
    }
}

/// The `.text` llvm-mc-19 assembles `text` into for Pitcairn (`None` when llvm-mc is not
/// installed, unless `GPUABI_REQUIRE_LLVM_MC=1`).
fn llvm_mc_text(text: &str) -> Option<Vec<u8>> {
    use std::process::Command;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let stem = format!("catalyst-disasm-{}-{:x}", std::process::id(), h.finish());
    let src = dir.join(format!("{stem}.s"));
    let obj = dir.join(format!("{stem}.o"));
    std::fs::write(&src, format!("\t.text\n{text}")).unwrap();
    let out = Command::new("llvm-mc-19")
        .args(["-triple=amdgcn", "-mcpu=pitcairn", "-filetype=obj", "-o"])
        .arg(&obj)
        .arg(&src)
        .output();
    let Ok(out) = out else {
        assert!(
            std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() != Ok("1"),
            "llvm-mc-19 not found"
        );
        eprintln!("llvm-mc-19 not found: the disassembly is not checked against it");
        return None;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let object = std::fs::read(&obj).unwrap();
    Some(gpuabi_amdgpu::elf::read_text(&object).unwrap().code)
}

/// The instructions of `add` and `multiply` (samplekernels.clo), decoded by hand from the
/// bytes with the SMRD, SOP2, VOP2, VOPC, VOP3 and MTBUF tables of AMD's "Southern Islands
/// Series Instruction Set Architecture" (e.g. `4a020501`: VOP2 opcode 0x25 `V_ADD_I32`,
/// vdst 1, vsrc1 2, src0 257 = v1; `eba01000 80020101`: MTBUF op 0, dfmt 4 = 32, nfmt 7 =
/// float, offen, vaddr 1, vdata 1, srsrc 2 = s[8:11], soffset 128 = 0).
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn samplekernels_disassemble_as_read_by_hand() {
    let Some(files) = common::catalyst_binaries() else {
        return;
    };
    let Some(path) = files
        .iter()
        .find(|p| p.file_name().and_then(|n| n.to_str()) == Some("samplekernels.clo"))
    else {
        return;
    };
    let b = read(path);
    let add = kernel(&b, "add").disassembly.clone().unwrap();
    let mul = kernel(&b, "multiply").disassembly.clone().unwrap();
    for line in [
        "s_buffer_load_dword s0, s[4:7], 4",
        "s_buffer_load_dword s1, s[4:7], 24",
        "s_min_u32 s0, s0, 0xffff",
        "s_mul_i32 s0, s12, s0",
        "v_add_i32 v0, vcc, s0, v0",
        "v_cmp_gt_u32 vcc, s4, v0",
        "s_and_saveexec_b64 s[0:1], vcc",
        "s_load_dwordx4 s[8:11], s[2:3], 0x60",
        "tbuffer_load_format_x v1, v1, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen",
        "v_add_i32 v1, vcc, v1, v2",
        "tbuffer_store_format_x v1, v0, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen",
    ] {
        assert!(add.contains(&format!("\t{line}\n")), "`{line}` in:\n{add}");
    }
    assert!(mul.contains("\tv_mul_lo_i32 v1, v2, v1\n"), "{mul}");
    assert_eq!(add.lines().filter(|l| l.starts_with('\t')).count(), 29);
}

/// Values read by hand from samplekernels.clo with a hex dump (Python `struct.unpack` of
/// the ELF headers, the symbol table, the inner ELF's program headers and each note): the
/// `add` CAL image starts at byte 3506 (the `.text` section's offset, symbol value 0,
/// size 6394; the README says the same), its UAV note at byte 3974 holds
/// 12,4,0,5 / 13,4,0,5 / 14,4,0,5 / 11,4,0,5, its PROGINFO note starts with
/// 0x80001000 = 3 and the three entries (0x17,0,2,2), (2,0,4,4), (2,1,8,4), PGM_RSRC2
/// (0x2e13) is 0x98, 0x80001041 (VGPRs) 3, 0x80001042 (SGPRs) 16 (`multiply`: 20), and the
/// UAV_OP_MASK note's first dword 0x7000; the inner `.text` starts 1508 bytes into the
/// image and is 132 bytes long, beginning `04 05 00 c2` (s_buffer_load_dword of cb1).
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn samplekernels_fields_read_by_hand() {
    let Some(dir) = common::shared_data("amd-catalyst") else {
        return;
    };
    let b = read(&dir.join("samplekernels.clo"));
    let add = kernel(&b, "add");
    assert_eq!(
        add.notes.uav,
        vec![[12, 4, 0, 5], [13, 4, 0, 5], [14, 4, 0, 5], [11, 4, 0, 5]]
    );
    assert_eq!(add.cal_notes[2].offset, 3506 + 448 + 20 * 2);
    assert_eq!(
        add.userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 4, 4),
            UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 1, 8, 4),
        ]
    );
    assert_eq!(add.regs.pgm_rsrc2, 0x98);
    assert_eq!(add.user_sgprs, 12);
    // README: group id x in s12, local id x in v0.
    assert_eq!(add.regs.group_id_sgprs, vec!["s12"]);
    assert_eq!(add.regs.local_id_vgprs, vec!["v0"]);
    assert_eq!(add.dims, Dims::parse("x").unwrap());
    assert_eq!((add.regs.vgprs, add.regs.sgprs), (3, 16));
    assert_eq!(kernel(&b, "multiply").regs.sgprs, 20);
    assert_eq!(add.notes.uav_mask[0], 0x7000);
    assert_eq!(add.code.offset, 3506 + 1508);
    assert_eq!(add.code.size, 132);
    assert!(add.code.hex.starts_with("040500c2"));
    assert_eq!(add.header, [0, 0, 0, 0, 0, 1, 0, 0]);
    let names: Vec<(&str, u32, Option<Resource>)> = add
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.slot.offset, a.resource))
        .collect();
    assert_eq!(
        names,
        vec![
            ("n", 0, None),
            ("adat", 16, Some(Resource::Uav(12))),
            ("bdat", 32, Some(Resource::Uav(13))),
            ("cdat", 48, Some(Resource::Uav(14))),
        ]
    );
    assert_eq!(add.args[1].used, Some(true));
    assert_eq!(add.args[0].used, None);
    assert_eq!(
        (
            add.ids.uavid,
            add.ids.printfid,
            add.ids.cbid,
            add.ids.privateid
        ),
        (Some(11), Some(9), Some(10), Some(8))
    );

    // structkernel2.clo: header dwords 0 and 2 hold uavprivate 128 (the metadata line
    // `;memory:uavprivate:128`), the UAV note (byte 2748) 11,4,0,5 / 8,3,0,5, PROGINFO
    // (byte 3028) has no user data and PGM_RSRC2 4 (USER_SGPR 2).
    let s = read(&dir.join("structkernel2.clo"));
    let k = kernel(&s, "myKernel1");
    assert_eq!(k.header, [128, 0, 128, 0, 0, 1, 0, 0]);
    assert_eq!(k.uavprivate, Some(128));
    assert_eq!(k.notes.uav, vec![[11, 4, 0, 5], [8, 3, 0, 5]]);
    assert_eq!(k.cal_notes[2].offset, 2748);
    assert!(k.userdata.is_empty());
    assert_eq!((k.regs.pgm_rsrc2, k.user_sgprs), (4, 2));
    assert_eq!(k.args[0].type_name, "struct mystruct");
    assert_eq!(k.args[1].slot.offset, 80);
    assert_eq!(k.args[2].resource, Some(Resource::Uav(11)));
    assert_eq!(k.args[2].used, Some(false));

    // The 64-bit file: header dword 4 is 8.
    let b64 = read(&dir.join("samplekernels_64.clo"));
    assert_eq!(kernel(&b64, "add").header[4], 8);
}

/// How each source's kernels are laid out: the bodies of alltypes.cl and structkernel2.cl
/// are empty, so nothing is used and no dimension is enabled; samplekernels.cl reads cb0
/// (global id) and every argument, in x only.
struct Source {
    file: &'static str,
    all_unused: bool,
    dims: Option<&'static str>,
}

const SOURCES: [Source; 3] = [
    Source {
        file: "samplekernels",
        all_unused: false,
        dims: Some("x"),
    },
    Source {
        file: "alltypes",
        all_unused: true,
        dims: None,
    },
    Source {
        file: "structkernel2",
        all_unused: true,
        dims: None,
    },
];

fn our_layout(
    dir: &Path,
    src: &Source,
    b: &CatalystBinary,
    k: &BinaryKernel,
    notes: NotesPolicy,
) -> KernelLayout {
    let text = std::fs::read_to_string(dir.join(format!("{}.cl", src.file))).unwrap();
    let mut kernel = select_kernel(parse_kernels(&text).unwrap(), Some(&k.kernel)).unwrap();
    if src.all_unused {
        for a in &mut kernel.args {
            a.used = false;
        }
    }
    let opts = Options {
        driver: b.driver.unwrap(),
        is_64bit: b.bits == 64,
        dims: src.dims.map(|d| Dims::parse(d).unwrap()),
        userdata: UserDataPolicy::Amd,
        vec3_64: Vec3Policy::Amd,
        setup_buffer_used: !src.all_unused,
        notes,
        ..Options::default()
    };
    layout(&kernel, &opts).unwrap()
}

/// Every difference between the binary and our layout, as text.
fn differences(ours: &KernelLayout, amd: &BinaryKernel) -> Vec<String> {
    let mut d = Vec::new();
    let mut check = |what: String, a: String, b: String| {
        if a != b {
            d.push(format!("{what}: AMD {b}, gpuabi {a}"));
        }
    };
    check(
        "argument count".into(),
        ours.args.len().to_string(),
        amd.args.len().to_string(),
    );
    for (o, a) in ours.args.iter().zip(&amd.args) {
        check(format!("{} name", a.name), o.name.clone(), a.name.clone());
        check(
            format!("{} offset", a.name),
            o.slot.offset.to_string(),
            a.slot.offset.to_string(),
        );
        check(
            format!("{} resource", a.name),
            format!("{:?}", o.resource),
            format!("{:?}", a.resource),
        );
        check(
            format!("{} type", a.name),
            o.type_name.clone(),
            a.type_name.clone(),
        );
    }
    check(
        "ids".into(),
        format!("{:?}", ours.ids),
        format!("{:?}", amd.ids),
    );
    check(
        "uavprivate".into(),
        ours.uavprivate.to_string(),
        amd.uavprivate.map_or("none".into(), |u| u.to_string()),
    );
    check(
        "header".into(),
        format!("{:?}", ours.header),
        format!("{:?}", amd.header),
    );
    check(
        "user data".into(),
        format!("{:?}", ours.userdata),
        format!("{:?}", amd.userdata),
    );
    check(
        "USER_SGPR".into(),
        ours.user_sgprs.to_string(),
        amd.user_sgprs.to_string(),
    );
    check(
        "PGM_RSRC2".into(),
        format!("{:#x}", ours.regs.pgm_rsrc2),
        format!("{:#x}", amd.regs.pgm_rsrc2),
    );
    check(
        "UAV note".into(),
        format!("{:?}", ours.notes.uav),
        format!("{:?}", amd.notes.uav),
    );
    // AMD's constant-buffer sizes are not meaningful (CLRX writes 0): ids only.
    check(
        "CONSTANT_BUFFERS ids".into(),
        format!(
            "{:?}",
            ours.notes.cbmask.iter().map(|e| e[0]).collect::<Vec<_>>()
        ),
        format!(
            "{:?}",
            amd.notes.cbmask.iter().map(|e| e[0]).collect::<Vec<_>>()
        ),
    );
    check(
        "INPUTS".into(),
        format!("{:?}", ours.notes.inputs),
        format!("{:?}", amd.notes.inputs),
    );
    check(
        "INPUT_SAMPLERS".into(),
        format!("{:?}", ours.notes.input_samplers),
        format!("{:?}", amd.notes.input_samplers),
    );
    check(
        "uav mask".into(),
        format!("{:?}", ours.notes.uav_mask),
        format!("{:?}", amd.notes.uav_mask),
    );
    // Metadata lines, except the unique and function ids (CLRX numbers them from 1024 in
    // its own order; AMD's are its compiler's).
    let lines = |m: &str| -> Vec<String> {
        m.lines()
            .filter(|l| !l.starts_with(";uniqueid:") && !l.starts_with(";function:"))
            .map(str::to_string)
            .collect()
    };
    let (ours_lines, amd_lines) = (lines(&ours.metadata), lines(&amd.metadata));
    for l in amd_lines.iter().filter(|l| !ours_lines.contains(l)) {
        d.push(format!("metadata: AMD has {l}"));
    }
    for l in ours_lines.iter().filter(|l| !amd_lines.contains(l)) {
        d.push(format!("metadata: gpuabi has {l}"));
    }
    d
}

/// Every difference between the binaries and our layouts of their sources with `notes`.
fn report(dir: &Path, notes: NotesPolicy) -> Vec<String> {
    let mut report = Vec::new();
    for src in &SOURCES {
        for suffix in ["", "_64"] {
            let b = read(&dir.join(format!("{}{suffix}.clo", src.file)));
            for k in &b.kernels {
                let ours = our_layout(dir, src, &b, k, notes);
                for diff in differences(&ours, k) {
                    report.push(format!("{}{suffix} {}: {diff}", src.file, k.kernel));
                }
            }
        }
    }
    report
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn binaries_agree_with_the_layout_of_their_sources() {
    let Some(dir) = common::shared_data("amd-catalyst") else {
        return;
    };
    // With AMD's notes everything compared agrees, metadata lines included.
    let amd = report(&dir, NotesPolicy::Amd);
    assert!(amd.is_empty(), "\n{}", amd.join("\n"));
    // CLRX writes no extra UAV-note entry (AMD writes one to every kernel: 8 kernels), and
    // `RO` for alltypes.cl's unused `const global void* v61` and `const local void* v63`.
    let clrx = report(&dir, NotesPolicy::Clrx);
    let (uav, other): (Vec<&String>, Vec<&String>) =
        clrx.iter().partition(|l| l.contains(": UAV note: "));
    assert_eq!(uav.len(), 8, "\n{}", clrx.join("\n"));
    let mut expected = Vec::new();
    for file in ["alltypes", "alltypes_64"] {
        for (who, access) in [("AMD", "RW"), ("gpuabi", "RO")] {
            for line in [
                format!(";pointer:v61:u8:1:1:1904:uav:11:1:{access}:0:0"),
                format!(";pointer:v63:u8:1:1:1936:hl:1:1:{access}:0:0"),
            ] {
                expected.push(format!("{file} myKernel: metadata: {who} has {line}"));
            }
        }
    }
    assert_eq!(
        other,
        expected.iter().collect::<Vec<_>>(),
        "\n{}",
        clrx.join("\n")
    );
}

/// samplekernels.clo with `bytes` written at `at`.
fn patched(dir: &Path, at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut b = std::fs::read(dir.join("samplekernels.clo")).unwrap();
    b[at..at + bytes.len()].copy_from_slice(bytes);
    b
}

fn error_of(bytes: &[u8]) -> String {
    binary::read(bytes).unwrap_err().to_string()
}

/// Damaged files give errors naming the place. Offsets in samplekernels.clo were read by
/// hand (see `samplekernels_fields_read_by_hand`): `.symtab` at 280 with 16-byte entries
/// (entry 4 is `__OpenCL_add_header`), the `add` CAL image at 3506 with its note segment
/// at image offset 448, its metadata at `.rodata` offset 2470.
#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn damaged_binaries_give_located_errors() {
    let Some(dir) = common::shared_data("amd-catalyst") else {
        return;
    };
    let whole = std::fs::read(dir.join("samplekernels.clo")).unwrap();
    assert!(error_of(&[]).contains("too short"));
    let e = error_of(&whole[..40]);
    assert!(e.starts_with("outer ELF at byte 0:"), "{e}");
    // Cut inside the first CAL image: the section headers (at the end) are gone.
    let e = error_of(&whole[..4000]);
    assert!(
        e.contains("section header") && e.contains("4000 bytes"),
        "{e}"
    );
    // `__OpenCL_add_kernel` (entry 3) of 100000 bytes does not fit `.text`.
    let e = error_of(&patched(&dir, 280 + 3 * 16 + 8, &100_000u32.to_le_bytes()));
    assert!(
        e.contains("__OpenCL_add_kernel") && e.contains(".text") && e.contains("0..100000"),
        "{e}"
    );
    // The first note's name.
    let e = error_of(&patched(&dir, 3506 + 448 + 12, b"XTI CAL\0"));
    assert!(
        e.contains("kernel 'add'") && e.contains("byte 3954") && e.contains("ATI CAL"),
        "{e}"
    );
    // The UAV note (third) claims a huge descriptor.
    let e = error_of(&patched(
        &dir,
        3506 + 448 + 40 + 4,
        &[0xF0, 0xFF, 0xFF, 0xFF],
    ));
    assert!(e.contains("byte 3994") && e.contains("runs past"), "{e}");
    // `;value:n:u32:…` becomes `q32` (the metadata's eighth line).
    let meta = 2470 + whole[2470..].windows(4).position(|w| w == b"u32:").unwrap();
    let e = error_of(&patched(&dir, meta, b"q"));
    assert!(
        e.contains("metadata line 8") && e.contains("unknown value type 'q32'"),
        "{e}"
    );
    // `__OpenCL_add_header` of 31 bytes.
    let e = error_of(&patched(&dir, 280 + 4 * 16 + 8, &31u32.to_le_bytes()));
    assert!(
        e.contains("header") && e.contains("31 bytes, expected 32"),
        "{e}"
    );
}
