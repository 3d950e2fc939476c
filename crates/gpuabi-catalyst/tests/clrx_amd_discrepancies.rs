//! Where gpuabi's layout differed from CLRX 0.1.9 or from AMD's binaries (drivers 1016.4 to
//! 1702.3): each case with the value CLRX or AMD gives. CLRX's behaviour is the default;
//! AMD's is selected with `NotesPolicy::Amd` (`--notes amd`). Expected values are CLRX's
//! and AMD's observed outputs, or hand computations from CLRX's source where stated.

use gpuabi_catalyst::error::LayoutError;
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::resource_ids::Resource;
use gpuabi_catalyst::userdata::{DataClass, UserDataEntry};
use gpuabi_catalyst::{layout, KernelLayout, NotesPolicy, Options, UserDataPolicy};

fn lay(src: &str, opts: Options) -> Result<KernelLayout, LayoutError> {
    layout(&parse_kernels(src).unwrap().remove(0), &opts)
}

fn ok(src: &str, opts: Options) -> KernelLayout {
    lay(src, opts).unwrap()
}

fn dims(d: &str) -> Option<Dims> {
    Some(Dims::parse(d).unwrap())
}

fn proginfo(l: &KernelLayout, address: u32) -> u32 {
    l.notes
        .proginfo
        .iter()
        .find(|e| e[0] == address)
        .map(|e| e[1])
        .unwrap()
}

const R1: &str = "kernel void r1(constant float* a, global float* out) {}";

/// `--const-data` without `--const-data-size` is an empty `.globaldata`, which CLRX takes
/// for no global data: no `;memory:datareqd`, no cb2, constant pointers from cb 2.
#[test]
fn empty_global_data_is_no_global_data() {
    let base = || Options {
        driver: 101604,
        dims: dims("x"),
        const_data: true,
        ..Options::default()
    };
    let l = ok(R1, base());
    assert!(!l.metadata.contains(";memory:datareqd"));
    assert_eq!(l.args[0].resource, Some(Resource::ConstBuffer(2)));
    // Old notes: constant pointers (default size 4096), cb1 (argsSpace 32 / 16), cb0 (15).
    assert_eq!(l.notes.cbmask, vec![[2, 4096], [1, 2], [0, 15]]);
    assert!(l.warnings.iter().any(|w| w.contains("--const-data-size")));
    // With one byte of data: datareqd, cb2 of 1 unit, the pointer at cb 3.
    let l = ok(
        R1,
        Options {
            global_data_bytes: 1,
            ..base()
        },
    );
    assert!(l.metadata.contains(";memory:datareqd\n"));
    assert_eq!(l.args[0].resource, Some(Resource::ConstBuffer(3)));
    assert_eq!(l.notes.cbmask, vec![[3, 4096], [2, 1], [1, 2], [0, 15]]);
    // CLRX computes (size + 15) >> 4 in a 64-bit size_t: 4294967295 gives 268435456.
    let l = ok(
        R1,
        Options {
            global_data_bytes: u32::MAX,
            ..base()
        },
    );
    assert_eq!(l.notes.cbmask[1], [2, 268_435_456]);
}

/// `--pgmrsrc2` with group-id and local-id bits but no `--dims`: CLRX takes the group-id
/// bits only (no local-id VGPRs) and keeps the user's TIDIG_COMP_CNT, even 3.
#[test]
fn pgm_rsrc2_dimensions_without_dims() {
    // 0x1980: TGID_X_EN, TGID_Y_EN, TIDIG_COMP_CNT 3. No user data: USER_SGPR 2.
    let l = ok(
        "kernel void r2(global uint* a) {}",
        Options {
            userdata: UserDataPolicy::Explicit(vec![]),
            pgm_rsrc2: 0x1980,
            ..Options::default()
        },
    );
    assert_eq!(l.regs.pgm_rsrc2, 0x1984);
    assert_eq!((l.regs.pgm_rsrc2 >> 11) & 3, 3);
    assert_eq!(l.regs.group_id_sgprs, vec!["s2", "s3"]);
    assert!(l.regs.local_id_vgprs.is_empty());
    assert_eq!(l.regs.vgprs, 0);
    // CLRX's minimum: raw user-data end 0 + 2 group ids.
    assert_eq!(l.regs.sgprs, 2);
    assert!(l.warnings.iter().any(|w| w.contains("TIDIG_COMP_CNT 3")));
}

/// PROGINFO 0x80000082 is the LDS_SIZE field of the final PGM_RSRC2, user bits included.
#[test]
fn lds_proginfo_from_final_pgm_rsrc2() {
    let l = ok(
        "kernel void r3(global uint* a) {}",
        Options {
            dims: dims("x"),
            pgm_rsrc2: 0xFFFF_FFFF,
            ..Options::default()
        },
    );
    assert_eq!((l.regs.pgm_rsrc2 >> 15) & 0x1FF, 0x1FF);
    assert_eq!(proginfo(&l, 0x8000_0082), 0x1FF << 8);
}

/// A kernel without user data: AMD and CLRX both give USER_SGPR 2.
#[test]
fn empty_user_data_has_two_user_sgprs() {
    let src = "kernel void r4(void) {}";
    let amd = ok(
        src,
        Options {
            dims: dims("x"),
            setup_buffer_used: false,
            ..Options::default()
        },
    );
    assert!(amd.userdata.is_empty());
    assert_eq!(amd.user_sgprs, 2);
    assert_eq!(amd.regs.group_id_sgprs, vec!["s2"]);
    assert_eq!(amd.regs.pgm_rsrc2, (2 << 1) | (1 << 7));
    let clrx = ok(
        src,
        Options {
            dims: dims("x"),
            userdata: UserDataPolicy::Explicit(vec![]),
            ..Options::default()
        },
    );
    assert_eq!(clrx.user_sgprs, 2);
}

/// Extreme values: CLRX keeps a VGPR count below the local-id VGPRs, takes 4294967295 for
/// "the default" in `.hwregion` and `.uavprivate`; a scratch size whose dword count
/// overflows 32 bits (CLRX would write 0) is refused.
#[test]
fn extreme_values_match_clrx_or_are_refused() {
    let src = "kernel void r5(global uint* a) {}";
    let l = ok(
        src,
        Options {
            dims: dims("xyz"),
            vgprs: Some(1),
            ..Options::default()
        },
    );
    assert_eq!(l.regs.vgprs, 1);
    assert_eq!(proginfo(&l, 0x8000_1041), 1);
    assert!(l.warnings.iter().any(|w| w.contains("local-id VGPRs")));

    assert_eq!(
        lay(
            src,
            Options {
                scratch_bytes: u32::MAX,
                ..Options::default()
            }
        )
        .unwrap_err(),
        LayoutError::ScratchTooBig(u32::MAX)
    );
    // The largest accepted size: (4294967292 + 3) / 4 = 1073741823 dwords.
    let l = ok(
        src,
        Options {
            scratch_bytes: u32::MAX - 3,
            ..Options::default()
        },
    );
    assert_eq!(l.notes.scratch_dwords, 1_073_741_823);

    let l = ok(
        src,
        Options {
            hwregion: u32::MAX,
            uavprivate: Some(u32::MAX),
            scratch_bytes: 64,
            ..Options::default()
        },
    );
    assert!(l.metadata.contains(";memory:hwregion:0\n"));
    // The default uavprivate: no structures, so max(0, scratch 64).
    assert_eq!(l.uavprivate, 64);
    assert!(l.metadata.contains(";memory:uavprivate:64\n"));
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
}

/// AMD's derivation: a kernel whose arguments are all images does not load cb1.
#[test]
fn all_image_kernel_loads_no_cb1_with_amd_notes() {
    let src = "kernel void img(read_only image2d_t src, write_only image2d_t dst) {}";
    let opts = |notes| Options {
        const_samplers: vec![0x10],
        notes,
        ..Options::default()
    };
    let amd = ok(src, opts(NotesPolicy::Amd));
    assert_eq!(
        amd.userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_RESOURCE_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_SAMPLER, 0, 4, 4),
            UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 8, 4),
            UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 12, 2),
        ]
    );
    assert_eq!(amd.user_sgprs, 14);
    // The CLRX policy keeps the spec's rule (cb1 with any used argument). By hand: the
    // resource table takes s2 (budget 12), the sampler fits (4 <= 12 - 4, budget 8), cb0
    // and cb1 do not (8 > 8 - 2: table, budget 6), nor the 8-register image UAV (table).
    let clrx = ok(src, opts(NotesPolicy::Clrx));
    assert_eq!(
        clrx.userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_RESOURCE_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_SAMPLER, 0, 4, 4),
            UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 8, 2),
            UserDataEntry::new(DataClass::PTR_CONST_BUFFER_TABLE, 0, 10, 2),
        ]
    );
}

/// Driver 1016.4 numbers the UAV ids of more than eight pointers by their names sorted as
/// text, and its uavid is then 10.
#[test]
fn old_driver_sorts_many_pointers_by_name_with_amd_notes() {
    let names = ["b", "a", "c9", "c10", "z", "y", "x", "m", "n"];
    let params: Vec<String> = names.iter().map(|n| format!("global int* {n}")).collect();
    let src = format!("kernel void many({}) {{}}", params.join(", "));
    let opts = |notes| Options {
        driver: 101604,
        notes,
        ..Options::default()
    };
    let amd = ok(&src, opts(NotesPolicy::Amd));
    assert_eq!(amd.ids.uavid, Some(10));
    assert!(amd.metadata.contains(";uavid:10\n"));
    // Sorted: a b c10 c9 m n x y z -> 11..19.
    let ids: Vec<(&str, Option<Resource>)> = amd
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.resource))
        .collect();
    let expect = [
        ("b", 12),
        ("a", 11),
        ("c9", 14),
        ("c10", 13),
        ("z", 19),
        ("y", 18),
        ("x", 17),
        ("m", 15),
        ("n", 16),
    ];
    assert_eq!(
        ids,
        expect
            .iter()
            .map(|&(n, id)| (n, Some(Resource::Uav(id))))
            .collect::<Vec<_>>()
    );
    // CLRX: uavid 9, declaration order from 10.
    let clrx = ok(&src, opts(NotesPolicy::Clrx));
    assert_eq!(clrx.ids.uavid, Some(9));
    assert_eq!(clrx.args[0].resource, Some(Resource::Uav(10)));
    assert_eq!(clrx.args[8].resource, Some(Resource::Uav(18)));
    // Eight pointers are numbered in declaration order under both policies.
    let eight = format!("kernel void eight({}) {{}}", params[..8].join(", "));
    let l = ok(&eight, opts(NotesPolicy::Amd));
    assert_eq!(l.ids.uavid, Some(9));
    assert_eq!(l.args[0].resource, Some(Resource::Uav(10)));
}

/// AMD's UAV note has one extra entry: `[uavid, 4, 0, 5]`, or `[8, 3, 0, 5]` with counters,
/// structure arguments or printf (as in samplekernels.clo, alltypes.clo and
/// structkernel2.clo of CLRX's test data, driver 1702.3).
#[test]
fn amd_uav_note_has_an_extra_entry() {
    let amd = |src: &str, o: Options| {
        ok(
            src,
            Options {
                notes: NotesPolicy::Amd,
                ..o
            },
        )
        .notes
        .uav
    };
    let add =
        "kernel void add(uint n, const global uint* a, const global uint* b, global uint* c) {}";
    assert_eq!(
        amd(add, Options::default()),
        vec![[12, 4, 0, 5], [13, 4, 0, 5], [14, 4, 0, 5], [11, 4, 0, 5]]
    );
    assert_eq!(
        ok(add, Options::default()).notes.uav,
        vec![[12, 4, 0, 5], [13, 4, 0, 5], [14, 4, 0, 5]]
    );
    let counter = "kernel void k(global uint* a, counter32_t c) {}";
    assert_eq!(
        amd(counter, Options::default()),
        vec![[12, 4, 0, 5], [8, 3, 0, 5]]
    );
    let st = "struct s { int x; }; kernel void k(struct s v) {}";
    assert_eq!(amd(st, Options::default()), vec![[8, 3, 0, 5]]);
    // printf: CLRX's (uavid, 0, 0, 5) entry, then AMD's private entry.
    let printf = Options {
        printf: true,
        ..Options::default()
    };
    assert_eq!(
        amd("kernel void k(uint n) {}", printf),
        vec![[11, 0, 0, 5], [8, 3, 0, 5]]
    );
    // 1348.05-1445.05 without pointers: no uavid, the entry uses 11.
    assert_eq!(
        amd(
            "kernel void k(uint n) {}",
            Options {
                driver: 144505,
                ..Options::default()
            }
        ),
        vec![[11, 4, 0, 5]]
    );
    // Old notes: pointer entries, then the extra entry with uavid 9.
    assert_eq!(
        amd(
            "kernel void k(global uint* p) {}",
            Options {
                driver: 101604,
                ..Options::default()
            }
        ),
        vec![[10, 4, 0, 5], [9, 4, 0, 5]]
    );
}

/// Driver 1124.2 in 64-bit mode writes header dword 4 = 0 and no `;memory:64bitABI`.
#[test]
fn driver_1124_2_does_not_mark_64bit_binaries_with_amd_notes() {
    let src = "kernel void k(global uint* p) {}";
    let opts = |driver, notes, printf| Options {
        driver,
        is_64bit: true,
        notes,
        printf,
        ..Options::default()
    };
    let old = ok(src, opts(112402, NotesPolicy::Amd, false));
    assert_eq!(old.header[4], 0);
    assert!(!old.metadata.contains("64bitABI"));
    assert_eq!(ok(src, opts(112402, NotesPolicy::Amd, true)).header[4], 2);
    let clrx = ok(src, opts(112402, NotesPolicy::Clrx, false));
    assert_eq!(clrx.header[4], 8);
    assert!(clrx.metadata.contains(";memory:64bitABI\n"));
    // 1702.3 marks them (samplekernels_64.clo: header dword 4 = 8).
    let new = ok(src, opts(170203, NotesPolicy::Amd, false));
    assert_eq!(new.header[4], 8);
    assert!(new.metadata.contains(";memory:64bitABI\n"));
}

/// AMD marks an unused `const global` pointer and a `const local` pointer `RW` (with
/// `;constarg`); CLRX writes `RO` (alltypes.clo of CLRX's test data, driver 1702.3).
#[test]
fn amd_marks_unused_const_global_and_const_local_pointers_rw() {
    let src = "kernel void k(const global int* /*unused*/ a, const global int* b, \
               const local int* c, const constant int* d) {}";
    let amd = ok(
        src,
        Options {
            notes: NotesPolicy::Amd,
            ..Options::default()
        },
    );
    for line in [
        ";pointer:a:i32:1:1:0:uav:11:4:RW:0:0\n;constarg:0:a\n",
        ";pointer:b:i32:1:1:16:uav:12:4:RO:0:0\n;constarg:1:b\n",
        ";pointer:c:i32:1:1:32:hl:1:4:RW:0:0\n;constarg:2:c\n",
        ";pointer:d:i32:1:1:48:c:13:4:RO:0:0\n;constarg:3:d\n",
    ] {
        assert!(amd.metadata.contains(line), "{line}\n{}", amd.metadata);
    }
    let clrx = ok(src, Options::default());
    assert!(clrx
        .metadata
        .contains(";pointer:a:i32:1:1:0:uav:11:4:RO:0:0\n"));
    assert!(clrx
        .metadata
        .contains(";pointer:c:i32:1:1:32:hl:1:4:RO:0:0\n"));
}

/// The program's global data is there for every kernel of the program, whether it uses it
/// or not: CLRX writes `;memory:datareqd` and the cb2 entry from the program's data alone
/// (amdbin/AmdBinGen.cpp, `generateMetadata` and `generateCALNotes`), as AMD did:
/// prginfo8_12_10's imageTransform (driver 1016.4) does not read the format strings of the
/// program's printf kernels (18 units) and has `;memory:datareqd` and CONSTANT_BUFFERS
/// [[2, 18], [1, 5], [0, 15]].
#[test]
fn global_data_of_the_program_without_use() {
    let src = "kernel void imageTransform(read_only image2d_t inimg, \
               write_only image2d_t outimg, global uint* inout) {}";
    let l = ok(
        src,
        Options {
            driver: 101604,
            global_data_bytes: 280,
            ..Options::default()
        },
    );
    assert!(l.metadata.contains(";memory:datareqd\n"));
    assert_eq!(l.notes.cbmask, vec![[2, 18], [1, 5], [0, 15]]);
    assert!(!l.warnings.iter().any(|w| w.contains("const-data")));
}
