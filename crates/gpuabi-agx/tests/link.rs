//! Linked programs byte for byte, built here by hand from the bytes Mesa's
//! `agx_fast_link` (`src/asahi/lib/agx_linker.c`) writes: the sample-loop header and
//! footer with its count and jump offset patched in, and `stop` with 8 `trap`.

use gpuabi_agx::link::{link, LinkError, LinkInput, Part, PartInfo, PassType};

const MOV_R0L_0: [u8; 4] = [0x62, 0x00, 0x00, 0x00];
const MOV_R1L_1: [u8; 4] = [0x62, 0x04, 0x01, 0x00];
const IADD: [u8; 8] = [0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00];
const POP_EXEC: [u8; 6] = [0x52, 0x0e, 0x00, 0x00, 0x00, 0x00];
const STOP: [u8; 2] = [0x88, 0x00];
const TRAP: [u8; 2] = [0x08, 0x00];

fn while_icmp(n: u8) -> [u8; 6] {
    [0x52, 0x2c, 0x42, n << 4, 0x00, 0x00]
}

fn jmp_exec_any(off: i32) -> Vec<u8> {
    let mut v = vec![0x00, 0xc0];
    v.extend_from_slice(&off.to_le_bytes());
    v
}

fn stop_traps() -> Vec<u8> {
    let mut v = STOP.to_vec();
    for _ in 0..8 {
        v.extend_from_slice(&TRAP);
    }
    v
}

fn part(code: &[u8], gprs: u16) -> Part<'_> {
    Part {
        code,
        info: PartInfo {
            gpr_halves: gprs,
            ..PartInfo::default()
        },
    }
}

// Parts made of real instructions (a `pop_exec 1`, an `ldimm r1l, 1`, ...), so that the
// linker's checks of how each part ends can decode them.
const PROLOG: [u8; 6] = POP_EXEC;
const MAIN: [u8; 10] = [0x62, 0x04, 0x01, 0x00, 0x52, 0x0e, 0x00, 0x00, 0x00, 0x00];
const EPILOG: [u8; 4] = MOV_R0L_0;

/// The epilog as Mesa compiles it when it ends the program: `stop` and 8 `trap` at its end.
fn epilog_with_stop() -> Vec<u8> {
    let mut v = EPILOG.to_vec();
    v.extend(stop_traps());
    v
}

fn fragment(samples: Option<u8>) -> Result<gpuabi_agx::LinkedProgram, LinkError> {
    let epilog = if samples.is_some() {
        EPILOG.to_vec()
    } else {
        epilog_with_stop()
    };
    link(&LinkInput {
        prolog: Some(part(&PROLOG, 8)),
        main: part(&MAIN, 24),
        epilog: Some(part(&epilog, 16)),
        samples,
    })
}

#[test]
fn no_sample_shading_is_plain_concatenation() {
    // The linker adds nothing: the epilog brings its own `stop` and traps.
    let p = fragment(None).unwrap();
    let mut want = Vec::new();
    want.extend_from_slice(&PROLOG);
    want.extend_from_slice(&MAIN);
    want.extend(epilog_with_stop());
    assert_eq!(p.code, want);
    assert_eq!(p.combined.info.gpr_halves, 24);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert!(p.emitted.is_empty());
    assert_eq!(p.loop_jump_offset, None);
}

#[test]
fn parts_that_break_the_stop_conventions_are_linked_with_warnings() {
    let warned = |prolog: &[u8], main: &[u8], epilog: &[u8], samples: Option<u8>| {
        let p = link(&LinkInput {
            prolog: Some(part(prolog, 0)),
            main: part(main, 0),
            epilog: Some(part(epilog, 0)),
            samples,
        })
        .unwrap();
        let mut want = prolog.to_vec();
        if samples.is_some() {
            want.extend_from_slice(&MOV_R0L_0);
            want.extend_from_slice(&MOV_R1L_1);
        }
        want.extend_from_slice(main);
        want.extend_from_slice(epilog);
        assert_eq!(&p.code[..want.len()], want, "the bytes are linked as given");
        p.warnings.join("\n")
    };
    // The last part without `stop` and no loop to end the program.
    let w = warned(&PROLOG, &MAIN, &EPILOG, None);
    assert!(w.contains("epilog ends the program without `stop`"), "{w}");
    // A prolog or main shader that stops.
    let mut stops = PROLOG.to_vec();
    stops.extend(stop_traps());
    let w = warned(&stops, &MAIN, &epilog_with_stop(), None);
    assert!(w.contains("prolog ends with `stop`"), "{w}");
    let w = warned(&PROLOG, &stops, &epilog_with_stop(), None);
    assert!(
        w.contains("main ends with `stop` but the epilog follows"),
        "{w}"
    );
    // An epilog that stops inside the sample loop.
    let w = warned(&PROLOG, &MAIN, &epilog_with_stop(), Some(4));
    assert!(
        w.contains("epilog ends with `stop` inside the sample loop"),
        "{w}"
    );
    // Code that does not decode is not judged.
    assert!(warned(&[0xff, 0xff], &[0xff, 0xff], &[0xff, 0xff], None).is_empty());
}

#[test]
fn one_sample_has_header_and_no_loop() {
    let p = fragment(Some(1)).unwrap();
    let mut want = Vec::new();
    want.extend_from_slice(&PROLOG);
    want.extend_from_slice(&MOV_R0L_0);
    want.extend_from_slice(&MOV_R1L_1);
    want.extend_from_slice(&MAIN);
    want.extend_from_slice(&EPILOG);
    want.extend(stop_traps());
    assert_eq!(p.code, want);
}

fn looped(samples: u8, count_field: u8) {
    let p = fragment(Some(samples)).unwrap();
    let loop_bytes = (MAIN.len() + EPILOG.len()) as i32;
    let mut want = Vec::new();
    want.extend_from_slice(&PROLOG);
    want.extend_from_slice(&MOV_R0L_0);
    want.extend_from_slice(&MOV_R1L_1);
    want.extend_from_slice(&MAIN);
    want.extend_from_slice(&EPILOG);
    let footer_start = want.len();
    want.extend_from_slice(&IADD);
    want.extend_from_slice(&while_icmp(count_field));
    want.extend(jmp_exec_any(-(14 + loop_bytes)));
    want.extend_from_slice(&POP_EXEC);
    want.extend(stop_traps());
    assert_eq!(want.len() - footer_start, 44, "footer size from the spec");
    assert_eq!(p.code, want, "samples {samples}");
    // The jump lands on the first byte of the main shader.
    let jmp_at = footer_start + 14;
    assert_eq!(
        jmp_at as i32 + p.loop_jump_offset.unwrap(),
        (PROLOG.len() + 8) as i32
    );
}

#[test]
fn two_samples() {
    looped(2, 0b0011);
}

#[test]
fn four_samples() {
    // Spec example: s = 4 gives `52 2c 42 f0 00 00`.
    looped(4, 0b1111);
}

#[test]
fn spec_jump_example() {
    // off = −100: `00 c0 9c ff ff ff`, i.e. a loop of 86 bytes.
    let main = vec![0u8; 86];
    let p = link(&LinkInput {
        prolog: None,
        main: part(&main, 0),
        epilog: None,
        samples: Some(2),
    })
    .unwrap();
    let footer = &p.code[8 + 86..];
    assert_eq!(&footer[14..20], &[0x00, 0xc0, 0x9c, 0xff, 0xff, 0xff]);
}

#[test]
fn bad_sample_counts() {
    for s in [0u8, 3, 5, 8, 16, 255] {
        assert_eq!(
            fragment(Some(s)).unwrap_err(),
            LinkError::UnsupportedSampleCount(s)
        );
    }
}

#[test]
fn vertex_program_and_gpr_warning() {
    // The main vertex shader ends the program with its own `stop` and traps.
    let mut main = MAIN.to_vec();
    main.extend(stop_traps());
    let p = link(&LinkInput {
        prolog: Some(part(&PROLOG, 40)),
        main: part(&main, 32),
        epilog: None,
        samples: None,
    })
    .unwrap();
    let mut want = PROLOG.to_vec();
    want.extend_from_slice(&main);
    assert_eq!(p.code, want);
    assert_eq!(p.combined.info.gpr_halves, 40);
    assert_eq!(p.warnings.len(), 1);
    assert!(p.warnings[0].contains("prolog uses 40 GPR halves"));
}

#[test]
fn part_errors() {
    let odd = [0u8; 3];
    let e = link(&LinkInput {
        prolog: None,
        main: part(&odd, 0),
        epilog: None,
        samples: None,
    })
    .unwrap_err();
    assert_eq!(
        e,
        LinkError::OddSize {
            part: "main",
            len: 3
        }
    );
    let e = link(&LinkInput {
        prolog: None,
        main: part(&MAIN, 257),
        epilog: None,
        samples: None,
    })
    .unwrap_err();
    assert!(matches!(
        e,
        LinkError::TooManyGprs {
            part: "main",
            halves: 257
        }
    ));
}

#[test]
fn combined_state() {
    let info = |reads_tib, writes_sample_mask, tag_write_disable| PartInfo {
        reads_tib,
        writes_sample_mask,
        tag_write_disable,
        ..PartInfo::default()
    };
    let run = |main: PartInfo, epilog: PartInfo| {
        link(&LinkInput {
            prolog: None,
            main: Part {
                code: &MAIN,
                info: main,
            },
            epilog: Some(Part {
                code: &EPILOG,
                info: epilog,
            }),
            samples: None,
        })
        .unwrap()
        .combined
    };
    let c = run(info(false, false, true), info(false, false, true));
    assert_eq!(c.pass_type, PassType::Opaque);
    assert!(c.early_z && c.info.tag_write_disable);
    let c = run(info(false, true, true), info(true, false, false));
    assert_eq!(c.pass_type, PassType::TranslucentPunchThrough);
    assert!(!c.early_z && !c.info.tag_write_disable);
    assert_eq!(
        run(info(true, false, true), info(false, false, true)).pass_type,
        PassType::Translucent
    );
    assert_eq!(
        run(info(false, false, true), info(false, true, true)).pass_type,
        PassType::PunchThrough
    );
}

#[test]
fn part_facts_combine_field_by_field() {
    let a = PartInfo {
        gpr_halves: 30,
        scratch_bytes: 16,
        reads_tib: true,
        uses_txf: true,
        ..PartInfo::default()
    };
    let b = PartInfo {
        gpr_halves: 12,
        scratch_bytes: 64,
        writes_sample_mask: true,
        disable_tri_merging: true,
        uses_base_param: true,
        tag_write_disable: false,
        ..PartInfo::default()
    };
    let want = PartInfo {
        gpr_halves: 30,
        scratch_bytes: 64,
        reads_tib: true,
        writes_sample_mask: true,
        disable_tri_merging: true,
        uses_txf: true,
        uses_base_param: true,
        tag_write_disable: false,
    };
    assert_eq!(a.combine(b), want);
    assert_eq!(b.combine(a), want);
    // The default part needs nothing, so it leaves any part as it is.
    for p in [a, b, want] {
        assert_eq!(p.combine(PartInfo::default()), p);
    }
}

#[test]
fn combined_facts_are_flat_in_json() {
    // The combined facts sit beside the pass type, not in an object of their own.
    let p = link(&LinkInput {
        prolog: None,
        main: Part {
            code: &[0; 4],
            info: PartInfo {
                gpr_halves: 8,
                ..PartInfo::default()
            },
        },
        epilog: None,
        samples: None,
    })
    .unwrap();
    let v = serde_json::to_value(&p).unwrap();
    let keys: Vec<&str> = v["combined"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = vec![
        "gpr_halves",
        "scratch_bytes",
        "reads_tib",
        "writes_sample_mask",
        "disable_tri_merging",
        "uses_txf",
        "uses_base_param",
        "tag_write_disable",
        "pass_type",
        "early_z",
    ];
    want.sort_unstable();
    assert_eq!(keys, want);
    assert_eq!(v["combined"]["gpr_halves"], 8);
}
