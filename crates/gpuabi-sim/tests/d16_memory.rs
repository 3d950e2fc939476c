//! The `d16` loads and stores of RDNA 2 and RDNA 3 (buffer, global and scratch), against
//! values worked out by hand from the "RDNA2 ISA" and "RDNA3 ISA" manuals: a `*_D16` load
//! writes the loaded byte or short, zero- or sign-extended to 16 bits, into bits 15:0 of
//! its VGPR and keeps bits 31:16; a `*_D16_HI` load writes bits 31:16 and keeps bits 15:0;
//! a `*_D16_HI` store stores the low byte or short of bits 31:16. GCN 1.2 has none of them
//! (llvm-mc-19 refuses them for tonga).

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Descriptor, Image, LaneValues, Machine, Wave, WaveSetup};

/// What every loaded VGPR holds before the load: the kept half shows through.
const OLD: u32 = 0xaaaa_bbbb;
/// The stored VGPR: bits 31:16 are 0x1234.
const DATA: u32 = 0x1234_5678;
/// The buffer: byte 1 is 0x80 (sign bit set), the short at 2 is 0x8001 (sign bit set), the
/// short at 10 is 0x7f02 (sign bit clear).
const BYTES: [u8; 16] = [
    0x11, 0x80, 0x01, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x7f, 0, 0, 0, 0,
];

fn machine(target: Target, wave: WaveSize, body: &str) -> Machine {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Machine::new(Image::new(&p).unwrap())
}

/// Runs `body` with the buffer at `v[0:1]` (its address) and in `s[4:7]` (a raw buffer
/// descriptor of `range` bytes), v10-v19 holding [`OLD`], v20 holding [`DATA`]; returns the
/// wave and the buffer's bytes.
fn run(target: Target, wave: WaveSize, body: &str, range: u32) -> (Wave, Vec<u8>) {
    let mut m = machine(target, wave, body);
    let id = m.memory.add("buf", BYTES.to_vec(), 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let d = Descriptor {
        base,
        stride: 0,
        num_records: range,
        swizzle: false,
        add_tid: false,
        index_stride: 8,
        element_size: 4,
    }
    .encode();
    let mut vgprs = vec![
        (0, LaneValues::Uniform(base as u32)),
        (1, LaneValues::Uniform((base >> 32) as u32)),
        (20, LaneValues::Uniform(DATA)),
    ];
    vgprs.extend((10..20).map(|r| (r, LaneValues::Uniform(OLD))));
    let setup = WaveSetup {
        vgprs,
        sgprs: (0..4).map(|i| (4 + i as u16, d[i])).collect(),
        ..Default::default()
    };
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    let data = m.memory.buffer(id).data.clone();
    (w, data)
}

/// The six loads into v10-v15 (byte at 1, short at 2) and the two high-half stores (byte
/// at 5, short at 6), in the spellings of `target` for the family `prefix` with `addr`
/// the operands after the data register.
fn accesses(
    gfx11: bool,
    prefix: &str,
    load_addr: &str,
    store: impl Fn(&str, &str) -> String,
) -> String {
    let names = if gfx11 {
        [
            "d16_u8",
            "d16_hi_u8",
            "d16_i8",
            "d16_hi_i8",
            "d16_b16",
            "d16_hi_b16",
            "d16_hi_b8",
            "d16_hi_b16",
        ]
    } else {
        [
            "ubyte_d16",
            "ubyte_d16_hi",
            "sbyte_d16",
            "sbyte_d16_hi",
            "short_d16",
            "short_d16_hi",
            "byte_d16_hi",
            "short_d16_hi",
        ]
    };
    let mut text = String::new();
    for (k, name) in names[..6].iter().enumerate() {
        let offset = if k < 4 { 1 } else { 2 };
        text.push_str(&format!(
            "\t{prefix}_load_{name} v{}, {load_addr} offset:{offset}\n",
            10 + k
        ));
    }
    text.push_str(&store(&format!("{prefix}_store_{}", names[6]), "offset:5"));
    text.push_str(&store(&format!("{prefix}_store_{}", names[7]), "offset:6"));
    text
}

/// Hand-computed: byte 0x80 is 0x0080 zero-extended and 0xff80 sign-extended to 16 bits;
/// the short 0x8001 needs no extension; the stores write 0x34 (bits 23:16) and 0x34, 0x12
/// (bits 31:16) and nothing else.
fn check(w: &Wave, data: &[u8], what: &str) {
    let expected = [
        (
            10,
            0xaaaa_0080,
            "ubyte_d16: low half, zero-extended, high kept",
        ),
        (11, 0x0080_bbbb, "ubyte_d16_hi: high half, low kept"),
        (12, 0xaaaa_ff80, "sbyte_d16: sign-extended to 16 bits only"),
        (13, 0xff80_bbbb, "sbyte_d16_hi"),
        (14, 0xaaaa_8001, "short_d16"),
        (15, 0x8001_bbbb, "short_d16_hi"),
    ];
    for (r, value, why) in expected {
        assert_eq!(w.v(r, 0), value, "{what}: v{r}: {why}");
    }
    assert_eq!(
        &data[4..9],
        &[0, 0x34, 0x34, 0x12, 0],
        "{what}: the stores write bits 31:16 (one byte, then a short) and nothing around them"
    );
}

#[test]
fn global_d16_on_rdna2_and_rdna3() {
    for (target, wave, gfx11) in [
        (Target::Gfx1030, WaveSize::W32, false),
        (Target::Gfx1030, WaveSize::W64, false),
        (Target::Gfx1100, WaveSize::W32, true),
    ] {
        let body = accesses(gfx11, "global", "v[0:1], off", |name, offset| {
            format!("\t{name} v[0:1], v20, off {offset}\n")
        });
        let (w, data) = run(target, wave, &body, 16);
        check(&w, &data, &format!("global on {target} {wave}"));
    }
}

#[test]
fn buffer_d16_on_rdna2_and_rdna3() {
    for (target, gfx11) in [(Target::Gfx1030, false), (Target::Gfx1100, true)] {
        let body = accesses(gfx11, "buffer", "off, s[4:7], 0", |name, offset| {
            format!("\t{name} v20, off, s[4:7], 0 {offset}\n")
        });
        let (w, data) = run(target, WaveSize::W32, &body, 16);
        check(&w, &data, &format!("buffer on {target}"));
    }
}

#[test]
fn buffer_d16_out_of_range_loads_zero_into_their_half() {
    // A raw range of 2 bytes: the byte at 1 is in range, the short at 2 is not (the load
    // returns 0 into its half; the high-half stores at 5 and 6 are dropped).
    for (target, gfx11) in [(Target::Gfx1030, false), (Target::Gfx1100, true)] {
        let body = accesses(gfx11, "buffer", "off, s[4:7], 0", |name, offset| {
            format!("\t{name} v20, off, s[4:7], 0 {offset}\n")
        });
        let (w, data) = run(target, WaveSize::W32, &body, 2);
        assert_eq!(w.v(10, 0), 0xaaaa_0080, "{target}: in range");
        assert_eq!(w.v(14, 0), 0xaaaa_0000, "{target}: short_d16 out of range");
        assert_eq!(
            w.v(15, 0),
            0x0000_bbbb,
            "{target}: short_d16_hi out of range"
        );
        assert_eq!(
            &data[4..9],
            &[0; 5],
            "{target}: stores out of range dropped"
        );
    }
}

#[test]
fn scratch_d16_and_sub_dword_scratch() {
    // Scratch starts as zeros: a dword store puts 0x12345678 at 0 and the short 0x7f02
    // at 10 comes from a byte-wide and a short-wide store; the loads then read them back.
    for (target, gfx11) in [(Target::Gfx1030, false), (Target::Gfx1100, true)] {
        let n = |gfx10: &str, gfx11_name: &str| {
            if gfx11 {
                gfx11_name.to_string()
            } else {
                gfx10.to_string()
            }
        };
        let body = format!(
            "\tv_mov_b32 v21, 0x7f02\n\tv_mov_b32 v22, 0xcafe0080\n\
             \t{dword} off, v20, off\n\
             \t{short} off, v21, off offset:10\n\
             \t{hibyte} off, v22, off offset:1\n\
             \t{ubyte} v10, off, off offset:1\n\
             \t{sbyte_hi} v11, off, off offset:1\n\
             \t{short_lo} v12, off, off offset:10\n\
             \t{short_hi} v13, off, off offset:10\n\
             \t{byte} off, v22, off offset:12\n\
             \t{shorthi} off, v22, off offset:14\n\
             \t{dword_load} v14, off, off offset:12\n",
            dword = n("scratch_store_dword", "scratch_store_b32"),
            short = n("scratch_store_short", "scratch_store_b16"),
            hibyte = n("scratch_store_byte_d16_hi", "scratch_store_d16_hi_b8"),
            ubyte = n("scratch_load_ubyte_d16", "scratch_load_d16_u8"),
            sbyte_hi = n("scratch_load_sbyte_d16_hi", "scratch_load_d16_hi_i8"),
            short_lo = n("scratch_load_short_d16", "scratch_load_d16_b16"),
            short_hi = n("scratch_load_short_d16_hi", "scratch_load_d16_hi_b16"),
            byte = n("scratch_store_byte", "scratch_store_b8"),
            shorthi = n("scratch_store_short_d16_hi", "scratch_store_d16_hi_b16"),
            dword_load = n("scratch_load_dword", "scratch_load_b32"),
        );
        let (w, _) = run(target, WaveSize::W32, &body, 16);
        // Byte 1 was 0x56 (of 0x12345678), replaced by bits 23:16 of 0xcafe0080: 0xfe.
        assert_eq!(w.v(10, 0), 0xaaaa_00fe, "{target}: ubyte_d16 of 0xfe");
        assert_eq!(w.v(11, 0), 0xfffe_bbbb, "{target}: sbyte_d16_hi of 0xfe");
        assert_eq!(w.v(12, 0), 0xaaaa_7f02, "{target}: short_d16");
        assert_eq!(w.v(13, 0), 0x7f02_bbbb, "{target}: short_d16_hi");
        // Byte 12 gets 0x80 alone, bytes 14-15 get 0xcafe; byte 13 stays 0.
        assert_eq!(
            w.v(14, 0),
            0xcafe_0080,
            "{target}: a byte store writes one byte, a d16_hi short store two"
        );
    }
}

#[test]
fn gcn3_has_no_d16_accesses() {
    // llvm-mc-19 -mcpu=tonga: "instruction not supported on this GPU" for each.
    for inst in [
        "buffer_load_short_d16 v1, off, s[4:7], 0",
        "buffer_load_ubyte_d16_hi v1, off, s[4:7], 0",
        "buffer_store_byte_d16_hi v1, off, s[4:7], 0",
        "flat_load_short_d16_hi v1, v[2:3]",
    ] {
        let err = parse(&format!("\t{inst}\n"), Target::Gfx8, WaveSize::W64)
            .expect_err(inst)
            .to_string();
        assert!(
            err.contains("does not exist on gfx8") || err.contains("unknown instruction"),
            "{inst}: {err}"
        );
    }
}
