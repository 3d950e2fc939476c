//! The examples of §19 (and §7, §8) of the spec, with expected values from the spec text.

use gpuabi_catalyst::description::{self, DescFormat};
use gpuabi_catalyst::layout::{layout, KernelLayout, Options, UserDataPolicy};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::resource_ids::Resource;
use gpuabi_catalyst::userdata::{DataClass, UserDataEntry};

const E1: &str =
    "kernel void add(uint n, const global uint* a, const global uint* b, global uint* c) { }";
const E2: &str = "kernel void inc(global uint* inout) { inout[0] = 1; }";

fn lay(src: &str, opts: &Options) -> KernelLayout {
    let k = parse_kernels(src).unwrap().remove(0);
    layout(&k, opts).unwrap()
}

fn opts(driver: u32, is_64bit: bool) -> Options {
    Options {
        driver,
        is_64bit,
        dims: Some(Dims::parse("x").unwrap()),
        ..Options::default()
    }
}

/// Checks the user data, USER_SGPR, PGM_RSRC2 and the group-id x SGPR of a `.dims x` kernel
/// against the values of a spec example.
fn assert_user_sgprs(
    l: &KernelLayout,
    userdata: &[UserDataEntry],
    user_sgprs: u32,
    pgm_rsrc2: u32,
    group_id_x: &str,
) {
    assert_eq!(l.userdata, userdata, "driver {}", l.driver);
    assert_eq!(l.user_sgprs, user_sgprs, "driver {}", l.driver);
    assert_eq!(l.regs.pgm_rsrc2, pgm_rsrc2, "driver {}", l.driver);
    assert_eq!(l.regs.group_id_sgprs, [group_id_x], "driver {}", l.driver);
}

#[test]
fn e1_both_bitnesses() {
    for is_64bit in [false, true] {
        let l = lay(E1, &opts(170203, is_64bit));
        let offsets: Vec<u32> = l.args.iter().map(|a| a.slot.offset).collect();
        assert_eq!(offsets, [0, 16, 32, 48]);
        assert_eq!(l.args_space, 64);
        assert_eq!(l.args[0].resource, None);
        assert_eq!(l.args[1].resource, Some(Resource::Uav(12)));
        assert_eq!(l.args[2].resource, Some(Resource::Uav(13)));
        assert_eq!(l.args[3].resource, Some(Resource::Uav(14)));
        assert!(l
            .metadata
            .contains(";pointer:a:u32:1:1:16:uav:12:4:RO:0:0\n;constarg:1:a\n"));
        assert!(l
            .metadata
            .contains(";pointer:b:u32:1:1:32:uav:13:4:RO:0:0\n;constarg:2:b\n"));
        assert!(l
            .metadata
            .contains(";pointer:c:u32:1:1:48:uav:14:4:RW:0:0\n"));
        assert_eq!(
            (l.ids.uavid, l.ids.printfid, l.ids.cbid, l.ids.privateid),
            (Some(11), Some(9), Some(10), Some(8))
        );
        assert_eq!(l.uavprivate, 0);
        assert_eq!(l.notes.uav_mask[0], 0x7000);
        assert_user_sgprs(
            &l,
            &[
                UserDataEntry::new(DataClass::PTR_UAV_TABLE, 0, 2, 2),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 4, 4),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 1, 8, 4),
            ],
            12,
            0x98,
            "s12",
        );
        assert_eq!(l.regs.local_id_vgprs, ["v0"]);
        assert_eq!(l.metadata.contains(";memory:64bitABI\n"), is_64bit);
        assert_eq!(l.header[4], if is_64bit { 8 } else { 0 });
    }
}

#[test]
fn e2_drivers_1016_to_1642() {
    // (driver, uavid, UAV of `inout`): 1348.5-1642.5, then 1016.4 ("the rest unchanged").
    let cases = [
        (134805, 11, 12),
        (140000, 11, 12),
        (144505, 11, 12),
        (152603, 11, 12),
        (164205, 11, 12),
        (101604, 9, 10),
    ];
    for (driver, uavid, uav) in cases {
        let l = lay(E2, &opts(driver, false));
        assert_eq!(l.args[0].slot.offset, 0);
        assert_eq!(l.ids.uavid, Some(uavid), "driver {driver}");
        assert_eq!(l.args[0].resource, Some(Resource::Uav(uav)));
        assert_user_sgprs(
            &l,
            &[
                UserDataEntry::new(DataClass::IMM_UAV, uav, 4, 4),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 8, 4),
                UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 1, 12, 4),
            ],
            16,
            0xA0,
            "s16",
        );
    }
}

#[test]
fn section7_explicit_id_example() {
    let json = r#"{"kernel": "k", "args": [
        {"name": "a", "type": "global float*"},
        {"name": "b", "type": "global float*", "id": 12},
        {"name": "c", "type": "constant uint*"}]}"#;
    let k = description::parse(json, DescFormat::Json)
        .unwrap()
        .remove(0);
    let l = layout(&k, &Options::default()).unwrap();
    assert_eq!(l.args[0].resource, Some(Resource::Uav(13)));
    assert_eq!(l.args[1].resource, Some(Resource::Uav(12)));
    assert_eq!(l.args[2].resource, Some(Resource::ConstUav(14)));
}

#[test]
fn section8_uavprivate_example() {
    let src = "struct s20 { int a[5]; }; struct s40 { int a[10]; };
               kernel void k(struct s20 x, struct s40 y, int z) {}";
    assert_eq!(lay(src, &opts(159805, false)).uavprivate, 80);
    assert_eq!(lay(src, &opts(159804, false)).uavprivate, 96);
    let plain = "kernel void k(int z, global int* p) {}";
    assert_eq!(lay(plain, &opts(159805, false)).uavprivate, 0);
    assert_eq!(lay(plain, &opts(101604, false)).uavprivate, 0);
    // Scratch raises it: max(base, scratch).
    let o = Options {
        scratch_bytes: 200,
        ..opts(170203, false)
    };
    assert_eq!(lay(src, &o).uavprivate, 200);
}

#[test]
fn explicit_userdata_policy_and_empty_list() {
    let o = Options {
        userdata: UserDataPolicy::Explicit(vec![]),
        ..opts(170203, false)
    };
    let l = lay(E1, &o);
    // No entries: USER_SGPR 2, but the minimum SGPR count ignores the fallback.
    assert_eq!(l.user_sgprs, 2);
    assert_eq!(l.regs.group_id_sgprs, ["s2"]);
    assert_eq!(l.regs.sgprs, 1);
    assert_eq!(l.regs.pgm_rsrc2, (2 << 1) | (1 << 7));
}
