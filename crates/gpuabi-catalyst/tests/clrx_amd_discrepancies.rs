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

fn drv(driver: u32) -> Options {
    Options {
        driver,
        ..Options::default()
    }
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
/// text, from 10 (prginfo7_12_10's transformer25gp: inout1 10, inout10 11, inout100 12),
/// lists its UAVs in its compiler's hash order (key · 37 mod 64) and writes the first as
/// `;uavid:` (transformer25gp: 90).
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
    // Buckets of ids 10..18: 50, 23, 60, 33, 6, 43, 16, 53, 26; 14 comes first.
    assert_eq!(amd.ids.uavid, Some(14));
    assert!(amd.metadata.contains(";uavid:14\n"));
    let listed: Vec<u32> = amd.notes.uav.iter().map(|e| e[0]).collect();
    assert_eq!(listed, vec![14, 16, 11, 18, 13, 15, 10, 17, 12, 8]);
    // Sorted: a b c10 c9 m n x y z -> 10..18.
    let ids: Vec<(&str, Option<Resource>)> = amd
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.resource))
        .collect();
    let expect = [
        ("b", 11),
        ("a", 10),
        ("c9", 13),
        ("c10", 12),
        ("z", 18),
        ("y", 17),
        ("x", 16),
        ("m", 14),
        ("n", 15),
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
    assert_eq!(l.args[0].resource, Some(Resource::Uav(10)));
    assert_eq!(l.args[7].resource, Some(Resource::Uav(17)));
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
    // 1348.05-1445.05 without pointers: no uavid, no entry (prginfo4_13_12's image
    // kernels, driver 1348.5).
    assert_eq!(
        amd(
            "kernel void k(uint n) {}",
            Options {
                driver: 144505,
                ..Options::default()
            }
        ),
        Vec::<[u32; 4]>::new()
    );
    // Old notes: pointer entries, then the private UAV 8 as a buffer (prginfo1_12_10's
    // transformer1, driver 1016.4).
    assert_eq!(
        amd(
            "kernel void k(global uint* p) {}",
            Options {
                driver: 101604,
                ..Options::default()
            }
        ),
        vec![[10, 4, 0, 5], [8, 4, 0, 5]]
    );
}

/// Driver 1124.2 in 64-bit mode writes header dword 4 = 0 and no `;memory:64bitABI`;
/// 1016.4 marks them (prginfo1_12_10_64 of CLRX's test data: header dword 4 = 8).
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
    let older = ok(src, opts(101604, NotesPolicy::Amd, false));
    assert_eq!(older.header[4], 8);
    assert!(older.metadata.contains(";memory:64bitABI\n"));
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

/// prginfo8.cl's printf kernels of CLRX's test data.
const PRINTF2: &str =
    "kernel void kernelPrintf2(const global uint* input, global uint* output, global uint* output2) {}";
const PRINTF3: &str = "kernel void kernelPrintf3(const global uint* input, global uint* output, \
                       global uint* output2, global float* mybuf) {}";
const PRINTF4: &str = "struct GF { uint a[64]; }; kernel void kernelPrintf4(const global uint* \
                       input, global uint* output, global uint* output2, struct GF gf, int g) {}";

fn amd_notes(driver: u32) -> Options {
    Options {
        driver,
        notes: NotesPolicy::Amd,
        ..Options::default()
    }
}

/// Driver 1016.4 lists the buffer UAVs of its UAV note in its compiler's hash order and
/// writes the first as `;uavid:`, then the private UAV 8 as a buffer when the kernel has an
/// argument; its constant-buffer note has no cb1 without arguments (AMD's prginfo1_12_10
/// and prginfo8_12_10 of CLRX's test data).
#[test]
fn driver_1016_4_lists_uavs_in_hash_order_with_amd_notes() {
    // copier: [[11, 4, 0, 5], [10, 4, 0, 5], [8, 4, 0, 5]], ;uavid:11.
    let copier = ok(
        "kernel void copier(const global uchar8* in, global uchar8* out) {}",
        amd_notes(101604),
    );
    assert_eq!(
        copier.notes.uav,
        vec![[11, 4, 0, 5], [10, 4, 0, 5], [8, 4, 0, 5]]
    );
    assert_eq!(copier.ids.uavid, Some(11));
    assert!(copier.metadata.contains(";uavid:11\n;privateid:8\n"));
    // CLRX: uavid 9, declaration order, no private entry.
    let clrx = ok(
        "kernel void copier(const global uchar8* in, global uchar8* out) {}",
        drv(101604),
    );
    assert_eq!(clrx.ids.uavid, Some(9));
    assert_eq!(clrx.notes.uav, vec![[10, 4, 0, 5], [11, 4, 0, 5]]);
    // kernelPrintf3, mybuf unused (UAV 9, as the printf buffer): each id once.
    let mut k = parse_kernels(PRINTF3).unwrap().remove(0);
    k.args[3].used = false;
    let printf3 = layout(
        &k,
        &Options {
            printf: true,
            ..amd_notes(101604)
        },
    )
    .unwrap();
    assert_eq!(
        printf3.notes.uav,
        vec![
            [9, 4, 0, 5],
            [11, 4, 0, 5],
            [10, 4, 0, 5],
            [12, 4, 0, 5],
            [8, 4, 0, 5]
        ]
    );
    assert_eq!(printf3.ids.uavid, Some(9));
    // kernelPrintf5, no arguments: the printf buffer alone; CONSTANT_BUFFERS [[2, 18],
    // [0, 15]] with 18 units of global data (CLRX's kernelPrintf5 keeps cb1).
    let printf5 = Options {
        printf: true,
        global_data_bytes: 280,
        ..amd_notes(101604)
    };
    let l = ok("kernel void kernelPrintf5() {}", printf5.clone());
    assert_eq!(l.notes.uav, vec![[9, 4, 0, 5]]);
    assert_eq!(l.notes.cbmask, vec![[2, 18], [0, 15]]);
    let l = ok(
        "kernel void kernelPrintf5() {}",
        Options {
            notes: NotesPolicy::Clrx,
            ..printf5
        },
    );
    assert_eq!(l.notes.cbmask, vec![[2, 18], [1, 0], [0, 15]]);
}

/// Drivers before 1348.05 read an image without a sampler through a constant sampler of
/// value 16 (prginfo8_12_10's imageTransform: `;sampler:unknown_16:0:1:16`, IMM_SAMPLER(0)
/// in s[4:7]); 1348.5 has none (prginfo8_13_12).
#[test]
fn old_drivers_read_images_without_sampler_through_sampler_16() {
    let src = "kernel void imageTransform(read_only image2d_t inimg, \
               write_only image2d_t outimg, global uint* inout) {}";
    let opts = |driver| Options {
        dims: dims("xy"),
        userdata: UserDataPolicy::Amd,
        ..amd_notes(driver)
    };
    let old = ok(src, opts(101604));
    assert!(old
        .metadata
        .contains(";function:1:1026\n;sampler:unknown_16:0:1:16\n;uavid:10\n"));
    assert_eq!(
        old.userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_RESOURCE_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_SAMPLER, 0, 4, 4),
            UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 8, 2),
            UserDataEntry::new(DataClass::PTR_CONST_BUFFER_TABLE, 0, 10, 2),
        ]
    );
    assert!(!ok(src, opts(134805)).metadata.contains(";sampler:"));
    // With a sampler argument (imageTransformS) there is none.
    let with_sampler = "kernel void imageTransformS(read_only image2d_t inimg, \
                        write_only image2d_t outimg, global uint* inout, sampler_t samp) {}";
    let l = ok(with_sampler, opts(101604));
    assert!(!l.metadata.contains("unknown_16"));
    assert!(l.metadata.contains(";sampler:samp:0:0:0\n"));
}

/// AMD lists the `;sampler:` lines in its compiler's `StringMap` order and, from 1124.02,
/// numbers the constant samplers in it: prginfo8's imageTransform5MS (constant samplers
/// 0x26 then 0x14 in the order of first use, sampler arguments samp1 and samp2).
#[test]
fn sampler_lines_follow_amd_compiler_hash_order() {
    let src = "kernel void imageTransform5MS(read_only image2d_t inimg1, \
               read_only image2d_t inimg2, read_only image2d_t inimg3, \
               write_only image2d_t outimg1, write_only image2d_t outimg2, \
               write_only image2d_t outimg3, sampler_t samp1, sampler_t samp2) {}";
    let opts = |driver, notes| Options {
        driver,
        notes,
        const_samplers: vec![0x26, 0x14],
        ..Options::default()
    };
    let lines = |l: KernelLayout| -> Vec<String> {
        l.metadata
            .lines()
            .filter(|l| l.starts_with(";sampler:"))
            .map(str::to_string)
            .collect()
    };
    // prginfo8_12_10 (1016.4).
    assert_eq!(
        lines(ok(src, opts(101604, NotesPolicy::Amd))),
        [
            ";sampler:unknown_20:3:1:20",
            ";sampler:samp1:0:0:0",
            ";sampler:samp2:1:0:0",
            ";sampler:unknown_38:2:1:38"
        ]
    );
    // prginfo8_13_12, _14_9, _14_12 (1348.5, 1573.4, 1642.5).
    for driver in [134805, 157304, 164205] {
        assert_eq!(
            lines(ok(src, opts(driver, NotesPolicy::Amd))),
            [
                ";sampler:unknown_20:2:1:20",
                ";sampler:samp1:0:0:0",
                ";sampler:samp2:1:0:0",
                ";sampler:unknown_38:3:1:38"
            ]
        );
    }
    // CLRX: constant samplers in the given order, then the arguments.
    assert_eq!(
        lines(ok(src, opts(134805, NotesPolicy::Clrx))),
        [
            ";sampler:unknown_38:2:1:38",
            ";sampler:unknown_20:3:1:20",
            ";sampler:samp1:0:0:0",
            ";sampler:samp2:1:0:0"
        ]
    );
}

/// Driver 1573.4 reserves 64 bytes of private memory per pointer of a printf kernel
/// without structures (prginfo8_14_9: kernelPrintf2 192, kernelPrintf3 256), twice CLRX's
/// old formula; 1348.5 and 1642.5 write 0.
#[test]
fn driver_1573_4_doubles_uavprivate_of_printf_kernels() {
    let printf = |driver, notes| Options {
        driver,
        notes,
        printf: true,
        ..Options::default()
    };
    let l = ok(PRINTF2, printf(157304, NotesPolicy::Amd));
    assert_eq!(l.uavprivate, 192);
    assert_eq!(l.header, [0, 0, 192, 0, 2, 1, 0, 0]);
    assert!(l.metadata.contains(";memory:uavprivate:192\n"));
    assert_eq!(
        ok(PRINTF3, printf(157304, NotesPolicy::Amd)).uavprivate,
        256
    );
    assert_eq!(ok(PRINTF2, printf(157304, NotesPolicy::Clrx)).uavprivate, 0);
    assert_eq!(ok(PRINTF2, printf(134805, NotesPolicy::Amd)).uavprivate, 0);
    assert_eq!(ok(PRINTF2, printf(164205, NotesPolicy::Amd)).uavprivate, 0);
    assert_eq!(ok(PRINTF2, drv(157304)).uavprivate, 0);
}

/// Under the `amd` notes policy the layout names the fields whose AMD value it cannot
/// derive, and warns of them; CLRX's policy has none.
#[test]
fn amd_notes_name_the_fields_they_cannot_derive() {
    let fields = |src: &str, o: Options| -> Vec<&'static str> {
        let l = ok(src, o);
        assert_eq!(l.warnings.len(), l.not_derived.len());
        l.not_derived.iter().map(|n| n.field).collect()
    };
    let sampled = "kernel void k(read_only image2d_t i, sampler_t s, global int* o) {}";
    assert_eq!(fields(sampled, amd_notes(101604)), ["input_samplers"]);
    assert!(fields(sampled, amd_notes(112402)).is_empty());
    assert!(fields(sampled, drv(101604)).is_empty());
    let params: Vec<String> = (0..9).map(|i| format!("global int* p{i}")).collect();
    let nine = format!("kernel void k({}) {{}}", params.join(", "));
    let eight = format!("kernel void k({}) {{}}", params[..8].join(", "));
    assert_eq!(
        fields(&nine, amd_notes(134805)),
        ["args", "uav_note", "metadata"]
    );
    assert!(fields(&eight, amd_notes(134805)).is_empty());
    assert!(fields(&nine, amd_notes(112402)).is_empty());
    assert!(fields(&nine, amd_notes(157304)).is_empty());
    let printf = |driver| Options {
        printf: true,
        ..amd_notes(driver)
    };
    assert_eq!(
        fields(PRINTF4, printf(157304)),
        ["uavprivate", "header", "metadata"]
    );
    assert_eq!(fields(PRINTF4, printf(164205)), ["header"]);
    assert!(fields(PRINTF4, printf(134805)).is_empty());
    assert!(fields(PRINTF4, amd_notes(157304)).is_empty());
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
