//! Every row of the cb1 argument size table (§5), checked through the OpenCL C reader: the
//! size of an argument is the offset of the argument after it.

use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::layout::{layout, Options};
use gpuabi_catalyst::opencl::parse_kernels;

/// cb1 bytes of `decl` (a parameter declaration) under `policy`, both bitnesses agreeing.
fn size_of(prelude: &str, decl: &str, policy: Vec3Policy) -> u32 {
    let src = format!("{prelude}\nkernel void k({decl}, int after) {{}}");
    let k = parse_kernels(&src)
        .unwrap_or_else(|e| panic!("{decl}: {e}"))
        .remove(0);
    let mut sizes = Vec::new();
    for is_64bit in [false, true] {
        let l = layout(
            &k,
            &Options {
                vec3_64: policy,
                is_64bit,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(l.args[0].slot.offset, 0);
        assert_eq!(l.args[1].slot.offset, l.args[0].slot.size, "{decl}");
        sizes.push(l.args[1].slot.offset);
    }
    assert_eq!(sizes[0], sizes[1], "{decl}: 32- and 64-bit differ");
    sizes[0]
}

const SMALL: [&str; 7] = ["char", "uchar", "short", "ushort", "int", "uint", "float"];
const WIDE: [&str; 3] = ["long", "ulong", "double"];

#[test]
fn small_elements() {
    // 8/16/32-bit elements: n = 1..4 -> 16, n = 8 -> 32, n = 16 -> 64.
    for t in SMALL {
        for (suffix, bytes) in [
            ("", 16),
            ("2", 16),
            ("3", 16),
            ("4", 16),
            ("8", 32),
            ("16", 64),
        ] {
            for policy in [Vec3Policy::Clrx, Vec3Policy::Amd] {
                assert_eq!(
                    size_of("", &format!("{t}{suffix} v"), policy),
                    bytes,
                    "{t}{suffix}"
                );
            }
        }
    }
}

#[test]
fn wide_elements() {
    // 64-bit elements: n = 1, 2 -> 16; n = 3, 4 -> 32 (amd: 16 for n = 3); 8 -> 64; 16 -> 128.
    for t in WIDE {
        for (suffix, clrx, amd) in [
            ("", 16, 16),
            ("2", 16, 16),
            ("3", 32, 16),
            ("4", 32, 32),
            ("8", 64, 64),
            ("16", 128, 128),
        ] {
            assert_eq!(
                size_of("", &format!("{t}{suffix} v"), Vec3Policy::Clrx),
                clrx,
                "{t}{suffix}"
            );
            assert_eq!(
                size_of("", &format!("{t}{suffix} v"), Vec3Policy::Amd),
                amd,
                "{t}{suffix} amd"
            );
        }
    }
}

#[test]
fn c_spellings_of_scalars() {
    for (decl, bytes) in [
        ("unsigned char v", 16),
        ("unsigned int v", 16),
        ("unsigned v", 16),
        ("signed char v", 16),
        ("unsigned long v", 16),
        ("const int v", 16),
    ] {
        assert_eq!(size_of("", decl, Vec3Policy::Clrx), bytes, "{decl}");
    }
}

#[test]
fn structures_round_up_to_16() {
    // (definition, struct size by OpenCL C rules computed by hand) -> roundup16(size).
    for (def, size) in [
        ("struct s { char a; };", 1u32),
        ("struct s { char a; int b; };", 8),
        ("struct s { int a[5]; };", 20),
        ("struct s { float4 a; int b; };", 32),
        ("struct s { float3 a; };", 16),
        ("struct s { long a; char b; };", 16),
        ("struct s { char a[17]; };", 17),
        (
            "struct s { short a; struct { char c; double d; } in; };",
            24,
        ),
        ("union s { int a; char b[6]; };", 8),
        ("struct __attribute__((packed)) s { char a; int b; };", 5),
        ("struct s { char a; } __attribute__((aligned(32)));", 32),
    ] {
        let expect = size.div_ceil(16) * 16;
        let kw = if def.starts_with("union") {
            "union"
        } else {
            "struct"
        };
        assert_eq!(
            size_of(def, &format!("{kw} s v"), Vec3Policy::Clrx),
            expect,
            "{def}"
        );
        // The metadata records the structure's own size.
        let src = format!("{def}\nkernel void k({kw} s v) {{}}");
        let k = parse_kernels(&src).unwrap().remove(0);
        let l = layout(&k, &Options::default()).unwrap();
        assert!(
            l.metadata
                .contains(&format!(";value:v:struct:{size}:1:0\n")),
            "{def}\n{}",
            l.metadata
        );
    }
}

#[test]
fn pointers_images_samplers_counters() {
    for space in [
        "global",
        "__global",
        "constant",
        "__constant",
        "local",
        "__local",
    ] {
        for pointee in ["void", "char", "float4", "double16", "struct q"] {
            let decl = format!("{space} {pointee}* p");
            assert_eq!(
                size_of("struct q { int a; };", &decl, Vec3Policy::Clrx),
                16,
                "{decl}"
            );
        }
    }
    for img in [
        "image1d_t",
        "image1d_array_t",
        "image1d_buffer_t",
        "image2d_t",
        "image2d_array_t",
        "image3d_t",
    ] {
        for access in [
            "",
            "__read_only ",
            "read_only ",
            "__write_only ",
            "write_only ",
        ] {
            assert_eq!(
                size_of("", &format!("{access}{img} i"), Vec3Policy::Clrx),
                32,
                "{access}{img}"
            );
        }
    }
    assert_eq!(size_of("", "sampler_t s", Vec3Policy::Clrx), 16);
    assert_eq!(size_of("", "counter32_t c", Vec3Policy::Clrx), 16);
}
