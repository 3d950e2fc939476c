//! Every error condition: malformed or unsupported OpenCL C (with line and column), invalid
//! ids, user data, register counts and options.

use gpuabi_catalyst::driver::{Device, DeviceError};
use gpuabi_catalyst::error::LayoutError;
use gpuabi_catalyst::layout::{layout, Options, UserDataPolicy};
use gpuabi_catalyst::opencl::{parse_kernels, select_kernel};
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::userdata::{parse_list, DataClass, UserDataEntry};

/// Parses `src`, expecting an error at `line:col` whose message contains `what`.
fn parse_err(src: &str, line: usize, col: usize, what: &str) {
    let e = parse_kernels(src).expect_err(src);
    assert_eq!((e.line, e.column), (line, col), "{src}: {e}");
    assert!(e.message.contains(what), "{src}: {e}");
}

#[test]
fn reader_errors_are_located() {
    parse_err("kernel void k(foo x) {}", 1, 15, "unknown type 'foo'");
    parse_err(
        "kernel void k(int a,\n  float* p) {}",
        2,
        8,
        "needs an address space",
    );
    parse_err(
        "kernel void k(global image2d_t* p) {}",
        1,
        22,
        "Illegal pointer type",
    );
    parse_err(
        "kernel void k(global sampler_t* p) {}",
        1,
        22,
        "Illegal pointer type",
    );
    parse_err(
        "kernel void k(global counter32_t* p) {}",
        1,
        22,
        "Illegal pointer type",
    );
    parse_err(
        "kernel void k(global int** p) {}",
        1,
        26,
        "pointers to pointers",
    );
    parse_err("kernel void k(counter64_t c) {}", 1, 15, "counter64");
    parse_err(
        "kernel void k(read_write image2d_t i) {}",
        1,
        15,
        "read_write",
    );
    parse_err("kernel void k(read_only int i) {}", 1, 15, "images only");
    parse_err("kernel void k(local int i) {}", 1, 15, "passed by value");
    parse_err(
        "kernel void k(global int* p) {\n if (1) {\n",
        1,
        30,
        "never closed",
    );
    parse_err(
        "kernel void k(int a) {} /* open",
        1,
        25,
        "unterminated comment",
    );
    parse_err("kernel void k(int a) { @ }", 1, 24, "unexpected character");
    parse_err("kernel int k(int a) {}", 1, 8, "must return void");
    parse_err("kernel void k(int a, float a) {}", 1, 28, "already defined");
    parse_err("kernel void k(void v) {}", 1, 15, "cannot be void");
    parse_err("kernel void k(half h) {}", 1, 15, "half");
    parse_err("kernel void k(bool b) {}", 1, 15, "bool");
    parse_err("kernel void k(int a[4]) {}", 1, 20, "array arguments");
    parse_err(
        "struct s;\nkernel void k(struct s v) {}",
        2,
        15,
        "incomplete",
    );
    parse_err("struct s { };", 1, 10, "empty structures");
    parse_err("struct s { int a : 3; };", 1, 18, "bit-fields");
    parse_err("struct s { global int* p; };", 1, 22, "pointer members");
    parse_err("struct s { int a[x]; };", 1, 18, "array size");
    parse_err("kernel void k(int a {}", 1, 21, "expected ',' or ')'");
    parse_err("kernel void k(int a) ) ", 1, 22, "kernel body");
    parse_err(
        "kernel void k(global int* p, unsigned float f) {}",
        1,
        30,
        "integer type",
    );
    parse_err("kernel void k(float* global p) {}", 1, 22, "before '*'");
    parse_err("kernel void k(enum 3 x) {}", 1, 20, "enumeration tag");
    parse_err("kernel void k(int a)", 1, 21, "kernel body");
    let deep = format!(
        "struct s {}int a;{};",
        "{ struct ".repeat(70),
        " } x;".repeat(70)
    );
    parse_err(&deep, 1, 10 + 9 * 64, "nested deeper than 64");
    parse_err(
        "typedef char b[100000];\nstruct s { b a[1000]; };",
        2,
        10,
        "too large",
    );
}

#[test]
fn kernel_selection() {
    let ks = parse_kernels("kernel void a() {} kernel void b(int x) {}").unwrap();
    assert!(select_kernel(ks.clone(), None)
        .unwrap_err()
        .contains("several kernels"));
    assert!(select_kernel(ks.clone(), Some("c"))
        .unwrap_err()
        .contains("no kernel `c`"));
    assert_eq!(select_kernel(ks, Some("b")).unwrap().args.len(), 1);
    assert!(select_kernel(vec![], None)
        .unwrap_err()
        .contains("no kernel"));
}

fn lay_err(src: &str, opts: Options) -> LayoutError {
    layout(&parse_kernels(src).unwrap().remove(0), &opts).expect_err(src)
}

fn with_ids(src: &str, ids: &[Option<u32>]) -> gpuabi_catalyst::types::Kernel {
    let mut k = parse_kernels(src).unwrap().remove(0);
    for (a, id) in k.args.iter_mut().zip(ids) {
        a.explicit_id = *id;
    }
    k
}

fn ids_err(src: &str, ids: &[Option<u32>], opts: Options) -> LayoutError {
    layout(&with_ids(src, ids), &opts).expect_err(src)
}

#[test]
fn resource_id_errors() {
    let o = Options::default;
    let g2 = "kernel void k(global int* a, global int* b) {}";
    assert!(matches!(
        ids_err(g2, &[Some(8)], o()),
        LayoutError::UavIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(g2, &[Some(1024)], o()),
        LayoutError::UavIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(g2, &[Some(20), Some(20)], o()),
        LayoutError::UavIdAlreadyUsed { id: 20, .. }
    ));
    // The uavid itself may be shared by explicit ids.
    assert!(layout(&with_ids(g2, &[Some(11), Some(11)]), &o()).is_ok());
    let unused = "kernel void k(global int* /*unused*/ a) {}";
    assert!(matches!(
        ids_err(unused, &[Some(12)], o()),
        LayoutError::UavIdOutOfRange { .. }
    ));
    // Automatic assignment running past 1023.
    let e = layout(
        &with_ids(g2, &[]),
        &Options {
            uavid: Some(1022),
            ..o()
        },
    )
    .expect_err("exhausted");
    assert!(
        matches!(e, LayoutError::UavIdOutOfRange { ref arg, .. } if arg == "b"),
        "{e}"
    );

    let old = || Options {
        driver: 134804,
        ..Options::default()
    };
    let c2 = "kernel void k(constant int* a, constant int* b) {}";
    assert!(matches!(
        ids_err(c2, &[Some(1)], old()),
        LayoutError::CbIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(c2, &[Some(160)], old()),
        LayoutError::CbIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(c2, &[Some(5), Some(5)], old()),
        LayoutError::CbIdAlreadyUsed { .. }
    ));
    let many_c: Vec<String> = (0..159).map(|i| format!("constant int* c{i}")).collect();
    let src = format!("kernel void k({}) {{}}", many_c.join(", "));
    assert!(matches!(
        lay_err(&src, old()),
        LayoutError::CbIdOutOfRange { .. }
    ));

    let ro2 = "kernel void k(read_only image2d_t a, read_only image2d_t b) {}";
    assert!(matches!(
        ids_err(ro2, &[Some(128)], o()),
        LayoutError::RdImgIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(ro2, &[Some(3), Some(3)], o()),
        LayoutError::RdImgIdAlreadyUsed { .. }
    ));
    let many_ro: Vec<String> = (0..129).map(|i| format!("image2d_t i{i}")).collect();
    let src = format!("kernel void k({}) {{}}", many_ro.join(", "));
    assert!(matches!(
        lay_err(&src, o()),
        LayoutError::RdImgIdOutOfRange { .. }
    ));

    let wo2 = "kernel void k(write_only image2d_t a, write_only image2d_t b) {}";
    assert!(matches!(
        ids_err(wo2, &[Some(8)], o()),
        LayoutError::WrImgIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(wo2, &[Some(1), Some(1)], o()),
        LayoutError::WrImgIdAlreadyUsed { .. }
    ));
    let many_wo: Vec<String> = (0..9)
        .map(|i| format!("write_only image2d_t w{i}"))
        .collect();
    let src = format!("kernel void k({}) {{}}", many_wo.join(", "));
    assert_eq!(
        lay_err(&src, o()),
        LayoutError::TooManyWriteOnlyImages { count: 9 }
    );

    let ct2 = "kernel void k(counter32_t a, counter32_t b) {}";
    assert!(matches!(
        ids_err(ct2, &[Some(8)], o()),
        LayoutError::CounterIdOutOfRange { .. }
    ));
    assert!(matches!(
        ids_err(ct2, &[Some(0), Some(0)], o()),
        LayoutError::CounterIdAlreadyUsed { .. }
    ));
    let many_ct: Vec<String> = (0..9).map(|i| format!("counter32_t c{i}")).collect();
    let src = format!("kernel void k({}) {{}}", many_ct.join(", "));
    assert!(matches!(
        lay_err(&src, o()),
        LayoutError::CounterIdOutOfRange { .. }
    ));

    let v = "kernel void k(int a, local int* l, sampler_t s) {}";
    for i in 0..3 {
        let mut ids = [None; 3];
        ids[i] = Some(1);
        assert!(matches!(
            ids_err(v, &ids, o()),
            LayoutError::IdNotAllowed { .. }
        ));
    }
}

#[test]
fn special_id_errors() {
    let src = "kernel void k(global int* a) {}";
    for (which, opts) in [
        (
            "uavid",
            Options {
                uavid: Some(1024),
                ..Options::default()
            },
        ),
        (
            "cbid",
            Options {
                cbid: Some(1024),
                ..Options::default()
            },
        ),
        (
            "printfid",
            Options {
                printfid: Some(5000),
                ..Options::default()
            },
        ),
        (
            "privateid",
            Options {
                privateid: Some(1024),
                ..Options::default()
            },
        ),
    ] {
        assert!(
            matches!(lay_err(src, opts), LayoutError::SpecialIdOutOfRange { which: w, .. } if w == which)
        );
    }
}

#[test]
fn userdata_errors() {
    let src = "kernel void k(int a) {}";
    let e = |class, reg_start, reg_size| UserDataEntry {
        class,
        api_slot: 0,
        reg_start,
        reg_size,
    };
    let with = |list: Vec<UserDataEntry>| Options {
        userdata: UserDataPolicy::Explicit(list),
        ..Options::default()
    };
    assert_eq!(
        lay_err(src, with(vec![e(DataClass::IMM_UAV, 0, 1); 17])),
        LayoutError::TooManyUserData(17)
    );
    assert!(layout(
        &parse_kernels(src).unwrap()[0],
        &with(vec![e(DataClass::IMM_UAV, 0, 1); 16])
    )
    .is_ok());
    assert!(matches!(
        lay_err(src, with(vec![e(DataClass::IMM_UAV, 16, 0)])),
        LayoutError::RegStartOutOfRange { .. }
    ));
    assert!(matches!(
        lay_err(src, with(vec![e(DataClass::IMM_UAV, 14, 4)])),
        LayoutError::RegEndOutOfRange { .. }
    ));
    assert!(layout(
        &parse_kernels(src).unwrap()[0],
        &with(vec![e(DataClass::IMM_UAV, 12, 4)])
    )
    .is_ok());
    assert!(parse_list("NOT_A_CLASS,0,2,2")
        .unwrap_err()
        .message
        .contains("Unknown Data Class"));
    assert!(parse_list("IMM_UAV,x,2,2")
        .unwrap_err()
        .message
        .contains("not a number"));
}

#[test]
fn register_and_option_errors() {
    let src = "kernel void k(int a) {}";
    let gcn12 = Device::from_name("tonga").unwrap();
    assert!(layout(
        &parse_kernels(src).unwrap()[0],
        &Options {
            sgprs: Some(102),
            ..Options::default()
        }
    )
    .is_ok());
    assert!(matches!(
        lay_err(
            src,
            Options {
                sgprs: Some(103),
                ..Options::default()
            }
        ),
        LayoutError::TooManySgprs { max: 102, .. }
    ));
    assert!(matches!(
        lay_err(
            src,
            Options {
                sgprs: Some(101),
                device: gcn12,
                ..Options::default()
            }
        ),
        LayoutError::TooManySgprs { max: 100, .. }
    ));
    assert_eq!(
        lay_err(
            src,
            Options {
                vgprs: Some(257),
                ..Options::default()
            }
        ),
        LayoutError::TooManyVgprs(257)
    );
    assert_eq!(
        lay_err(
            src,
            Options {
                hwlocal: 32769,
                ..Options::default()
            }
        ),
        LayoutError::HwLocalTooBig(32769)
    );
    assert_eq!(
        lay_err(
            src,
            Options {
                float_mode: 256,
                ..Options::default()
            }
        ),
        LayoutError::FloatModeOutOfRange(256)
    );
    assert_eq!(
        lay_err(
            src,
            Options {
                exceptions: 128,
                ..Options::default()
            }
        ),
        LayoutError::ExceptionsOutOfRange(128)
    );
    assert!(matches!(
        Device::from_name("gfx900"),
        Err(DeviceError::Unsupported(..))
    ));
    assert!(Device::from_name("gfx900")
        .unwrap_err()
        .to_string()
        .contains("Unsupported GPU device type by OpenCL 1.2 binary format"));
    assert!(Dims::parse("xq").is_err());
}
