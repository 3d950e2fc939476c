//! Each driver-version gate of §1, checked on both sides of its threshold.

use gpuabi_catalyst::layout::{layout, KernelLayout, Options, UserDataPolicy};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::resource_ids::Resource;
use gpuabi_catalyst::userdata::{DataClass, UserDataEntry};

fn lay(src: &str, opts: Options) -> KernelLayout {
    layout(&parse_kernels(src).unwrap().remove(0), &opts).unwrap()
}

fn drv(driver: u32) -> Options {
    Options {
        driver,
        ..Options::default()
    }
}

const IMAGES: &str = "kernel void k(read_only image2d_t a, global int* g, read_only image3d_t b, write_only image1d_t w) {}";

#[test]
fn gate_112402_metadata_version_and_notes() {
    let old = lay(
        IMAGES,
        Options {
            printf: true,
            ..drv(112401)
        },
    );
    let new = lay(
        IMAGES,
        Options {
            printf: true,
            ..drv(112402)
        },
    );
    assert!(old.metadata.contains(";version:3:1:104\n"));
    assert!(new.metadata.contains(";version:3:1:111\n"));
    // INPUTS: reversed on old drivers.
    assert_eq!(old.notes.inputs, [1, 0]);
    assert_eq!(new.notes.inputs, [0, 1]);
    // UAV note: old = images (id, 2, dim, 3), printf (uavid, 4, 0, 5), pointers;
    // new = argument order, then printf (uavid, 0, 0, 5). 1D image: dim code 1.
    assert_eq!(
        old.notes.uav,
        vec![[0, 2, 1, 3], [9, 4, 0, 5], [10, 4, 0, 5]]
    );
    assert_eq!(
        new.notes.uav,
        vec![[10, 4, 0, 5], [0, 2, 2, 5], [9, 0, 0, 5]]
    );
    // Constant-buffer note: old = (1, ceil(argsSpace/16)), (0, 15); new = (0,0), (1,0).
    assert_eq!(old.notes.cbmask, vec![[1, old.args_space / 16], [0, 15]]);
    assert_eq!(new.notes.cbmask, vec![[0, 0], [1, 0]]);
    // PROGINFO: user data padded to 16 entries on old drivers.
    let ex = vec![UserDataEntry::new(DataClass::IMM_UAV, 10, 2, 4)];
    let o = |d| Options {
        userdata: UserDataPolicy::Explicit(ex.clone()),
        ..drv(d)
    };
    assert_eq!(lay(IMAGES, o(112401)).notes.proginfo.len(), 50 + 4 * 16);
    assert_eq!(lay(IMAGES, o(112402)).notes.proginfo.len(), 50 + 4);
}

#[test]
fn gate_134805_uavid_constant_buffers_header() {
    let src = "struct s { int a; }; kernel void k(global int* g, constant int* c, struct s v) {}";
    let old = lay(src, drv(134804));
    let new = lay(src, drv(134805));
    assert_eq!(
        (old.ids.uavid, old.ids.cbid, old.ids.printfid),
        (Some(9), None, None)
    );
    assert_eq!(
        (new.ids.uavid, new.ids.cbid, new.ids.printfid),
        (Some(11), Some(10), None)
    );
    assert_eq!(old.args[0].resource, Some(Resource::Uav(10)));
    assert_eq!(old.args[1].resource, Some(Resource::ConstBuffer(2)));
    assert!(old.metadata.contains(":hc:2:4:RO:0:0\n"));
    assert_eq!(new.args[0].resource, Some(Resource::Uav(12)));
    assert_eq!(new.args[1].resource, Some(Resource::ConstUav(13)));
    assert!(new.metadata.contains(":c:13:4:RO:0:0\n"));
    // With global data, old drivers start constant pointers at cb 3.
    let old_data = lay(
        src,
        Options {
            const_data: true,
            global_data_bytes: 16,
            ..drv(134804)
        },
    );
    assert_eq!(old_data.args[1].resource, Some(Resource::ConstBuffer(3)));
    assert_eq!(old_data.notes.cbmask, vec![[0, 0], [1, 0], [3, 0], [2, 0]]);
    // uav mask: constant pointers count from 1348.05 only.
    assert_eq!(old.notes.uav_mask[0], 1 << 10);
    assert_eq!(new.notes.uav_mask[0], (1 << 12) | (1 << 13));
    // Header dword 2 = uavprivate from 1348.05 (old formula below 1598.05: 32 * 3 = 96).
    assert_eq!(old.header[2], 0);
    assert_eq!(new.header[2], 96);
}

#[test]
fn gate_144505_conditional_uavid() {
    let src = "kernel void k(int a, float b) {}";
    assert_eq!(lay(src, drv(144505)).ids.uavid, None);
    assert_eq!(lay(src, drv(134805)).ids.uavid, None);
    assert_eq!(lay(src, drv(144506)).ids.uavid, Some(11));
    assert_eq!(
        lay(
            src,
            Options {
                printf: true,
                ..drv(144505)
            }
        )
        .ids
        .uavid,
        Some(11)
    );
    assert_eq!(
        lay("kernel void k(constant int* c) {}", drv(144505))
            .ids
            .uavid,
        Some(11)
    );
    assert!(!lay(src, drv(144505)).metadata.contains(";uavid:"));
}

#[test]
fn gate_152603_printfid() {
    let src = "kernel void k(int a) {}";
    assert_eq!(lay(src, drv(152602)).ids.printfid, None);
    assert_eq!(lay(src, drv(152603)).ids.printfid, Some(9));
    assert_eq!(
        lay(
            src,
            Options {
                printf: true,
                ..drv(152602)
            }
        )
        .ids
        .printfid,
        Some(9)
    );
    assert_eq!(
        lay(
            src,
            Options {
                printf: true,
                ..drv(134804)
            }
        )
        .ids
        .printfid,
        None
    );
}

#[test]
fn gate_159805_uavprivate_formula() {
    // Old: every argument counts (pointer 32, struct 32, int4 32, double8 = 64 bytes -> 4*32).
    let src =
        "struct s { char c[40]; }; kernel void k(struct s v, global int* p, int4 q, double8 d) {}";
    assert_eq!(lay(src, drv(159804)).uavprivate, 32 + 32 + 32 + 128);
    assert_eq!(lay(src, drv(159805)).uavprivate, 48);
    // A counter alone switches the old formula on, but adds nothing in the new one.
    let c = "kernel void k(counter32_t c, int a) {}";
    assert_eq!(lay(c, drv(159804)).uavprivate, 64);
    assert_eq!(lay(c, drv(159805)).uavprivate, 0);
}

#[test]
fn gate_164205_header_dword0() {
    let src = "struct s { int a[5]; }; kernel void k(struct s v) {}";
    assert_eq!(lay(src, drv(164204)).header[0], 0);
    assert_eq!(lay(src, drv(164205)).header[0], 32);
    assert_eq!(lay(src, drv(164205)).header[2], 32);
}

#[test]
fn gate_134805_implicit_sampler_in_amd_user_data() {
    let src = "kernel void k(read_only image2d_t img, global float* out) {}";
    // Hand computation with the §12.2 budget (see the decision in userdata.rs).
    assert_eq!(
        lay(src, drv(134804)).userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_RESOURCE_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_SAMPLER, 0, 4, 4),
            UserDataEntry::new(DataClass::IMM_UAV, 10, 8, 4),
            UserDataEntry::new(DataClass::PTR_CONST_BUFFER_TABLE, 0, 12, 2),
        ]
    );
    assert_eq!(
        lay(src, drv(134805)).userdata,
        vec![
            UserDataEntry::new(DataClass::PTR_RESOURCE_TABLE, 0, 2, 2),
            UserDataEntry::new(DataClass::IMM_UAV, 12, 4, 4),
            UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 0, 8, 4),
            UserDataEntry::new(DataClass::IMM_CONST_BUFFER, 1, 12, 4),
        ]
    );
}
