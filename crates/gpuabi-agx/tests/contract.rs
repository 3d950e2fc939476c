//! The boundary contract: breaches injected by hand into parts are reported with the part,
//! the instruction and the register the ABI's register tables name; parts the generators
//! produce keep their own contract.

use gpuabi_agx::blend::{BlendFactor, BlendFunc, Equation};
use gpuabi_agx::contract::{
    check_epilog, check_fs_prolog, check_loop_footer, check_vertex_main, check_vertex_prolog,
    FooterLane, Site,
};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey, EpilogRt};
use gpuabi_agx::fs_prolog::{fragment_prolog, FsPrologKey};
use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
use gpuabi_agx_isa::assemble;

fn code(src: &str) -> Vec<u8> {
    assemble(src, "t.s").expect("assembles").bytes
}

fn rt(format: &str, location: u8, size: u8) -> Option<EpilogRt> {
    Some(EpilogRt {
        format: format.to_string(),
        location,
        size,
        colormask: 0xf,
        blend: None,
    })
}

fn key(rts: Vec<Option<EpilogRt>>) -> EpilogKey {
    EpilogKey {
        samples: 1,
        write_z: false,
        write_s: false,
        sample_mask_after_force_early: false,
        loc0_w_1: false,
        alpha_to_one: false,
        broadcast_rt0: false,
        rts,
        ..EpilogKey::default()
    }
}

#[test]
fn an_epilog_reading_r3h_without_the_forced_early_mask_is_reported() {
    let k = key(vec![rt("R8G8B8A8_UNORM", 0, 32)]);
    let epilog = code("mov r36, r4\nst_tile r4_r5_r6_r7, 0, r3h, 0, u8norm, xyzw\n");
    let v = check_epilog(&k, &epilog).unwrap();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].part, "epilog");
    assert_eq!(v[0].register, "r3h");
    // After one 6-byte `mov`.
    assert_eq!(v[0].site.as_ref().unwrap().offset, 6);
    assert!(v[0].site.as_ref().unwrap().text.starts_with("st_tile"));
    let text = v[0].to_string();
    assert!(text.contains("sample_mask_after_force_early"), "{text}");
    // With the mask in the key the same code is within the contract.
    let k = EpilogKey {
        sample_mask_after_force_early: true,
        ..k
    };
    assert!(check_epilog(&k, &epilog).unwrap().is_empty());
}

#[test]
fn epilog_inputs_follow_the_key() {
    let k = key(vec![rt("R8G8B8A8_UNORM", 0, 32), rt("R16G16_FLOAT", 2, 16)]);
    // Location 2 is 16-bit: r12l, r12h, r13l, r13h; r14 is past it. Location 1 (r8…r11)
    // feeds no target. r2, r3l and r1l need write_z, write_s and sample shading.
    let epilog = code(
        "mov r40, r2\nmov r41l, r3l\nmov r41h, r1l\nmov r42, r9\nmov r43l, r12l\n\
         mov r43h, r13h\nmov r44, r14\nmov r45, r7\n",
    );
    let v = check_epilog(&k, &epilog).unwrap();
    let got: Vec<(&str, usize)> = v
        .iter()
        .map(|v| (v.register.as_str(), v.site.as_ref().unwrap().offset))
        .collect();
    assert_eq!(
        got,
        // Every `mov` here is 6 bytes long.
        [("r2", 0), ("r3l", 6), ("r1l", 12), ("r9", 18), ("r14", 36)]
    );
    assert!(v[0].what.contains("write_z"), "{}", v[0]);
    assert!(v[1].what.contains("write_s"), "{}", v[1]);
    assert!(v[2].what.contains("sample_shading"), "{}", v[2]);
    let k = EpilogKey {
        write_z: true,
        write_s: true,
        loc0_w_1: true,
        sample_shading: true,
        ..k
    };
    let v = check_epilog(&k, &epilog).unwrap();
    let got: Vec<&str> = v.iter().map(|v| v.register.as_str()).collect();
    // Under loc0_w_1 location 0's alpha (r7) is not exported.
    assert_eq!(got, ["r9", "r14", "r7"]);
    assert!(v[2].what.contains("loc0_w_1"), "{}", v[2]);
}

#[test]
fn a_dual_source_blend_may_read_location_1() {
    let mut rt0 = rt("R8G8B8A8_UNORM", 0, 32).unwrap();
    let epilog = code("fmul r40, r4, r8\n");
    let k = key(vec![Some(rt0.clone())]);
    let v = check_epilog(&k, &epilog).unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].register, "r8");
    rt0.blend = Some([
        Equation {
            func: BlendFunc::Add,
            src: BlendFactor::Src1Color,
            dst: BlendFactor::Zero,
        },
        Equation::REPLACE,
    ]);
    assert!(check_epilog(&key(vec![Some(rt0)]), &epilog)
        .unwrap()
        .is_empty());
}

#[test]
fn epilogs_read_only_the_abi_uniform_halves() {
    let k = key(vec![rt("R8G8B8A8_UNORM", 0, 32)]);
    // u2..u5 are the blend constant; u8 (halves 16, 17) belongs to the main shader.
    let epilog = code("fmul r40, r4, u2\nfmul r41, r5, u8\nmov r42l, u9h\n");
    let v = check_epilog(&k, &epilog).unwrap();
    let got: Vec<(&str, usize)> = v
        .iter()
        .map(|v| (v.register.as_str(), v.site.as_ref().unwrap().offset))
        .collect();
    // `fmul` and `mov` with these operands are 6 bytes long.
    assert_eq!(got, [("u8", 6), ("u9h", 12)], "{v:?}");
}

fn epilog_keys() -> Vec<EpilogKey> {
    let mut keys = Vec::new();
    for (i, rts) in [
        vec![rt("R8G8B8A8_UNORM", 0, 32)],
        vec![rt("R8G8B8A8_UNORM", 0, 16), rt("R16G16_SINT", 1, 32)],
        vec![None, rt("R32_FLOAT", 3, 32), rt("B5G6R5_UNORM", 0, 16)],
    ]
    .into_iter()
    .enumerate()
    {
        for flags in 0..32u32 {
            let mut k = key(rts.clone());
            k.write_z = flags & 1 != 0;
            k.write_s = flags & 2 != 0;
            k.sample_mask_after_force_early = flags & 4 != 0;
            k.loc0_w_1 = flags & 8 != 0;
            k.broadcast_rt0 = flags & 16 != 0 && i == 0;
            keys.push(k);
        }
    }
    keys
}

#[test]
fn generated_epilogs_keep_their_contract() {
    for k in epilog_keys() {
        let e = fragment_epilog(&k).unwrap();
        let v = check_epilog(&k, &e.code).unwrap();
        assert!(v.is_empty(), "{k:?}: {v:?}");
    }
}

#[test]
fn fragment_prologs_have_no_register_inputs() {
    let bad = code("iadd r2, r5, 1\nmov r3, u8\n");
    let v = check_fs_prolog(&bad).unwrap();
    let got: Vec<&str> = v.iter().map(|v| v.register.as_str()).collect();
    assert_eq!(got, ["r5", "u8"], "{v:?}");
    assert_eq!(v[0].part, "prolog");
    for bits in 0..16u32 {
        let k = FsPrologKey {
            api_sample_mask: if bits & 1 != 0 { 0x5 } else { 0xff },
            statistics: bits & 2 != 0,
            polygon_stipple: bits & 4 != 0,
            cull_distance_size: if bits & 8 != 0 { 3 } else { 0 },
            cf_base: 4,
            run_zs_tests: true,
        };
        let p = fragment_prolog(&k).unwrap();
        assert!(check_fs_prolog(&p.code).unwrap().is_empty(), "{k:?}");
    }
}

fn vertex_key(components: u8) -> PrologKey {
    PrologKey {
        robustness: Robustness {
            level: RobustnessLevel::Gl,
            soft_fault: false,
        },
        hw: true,
        index_size: 0,
        attribs: vec![PrologAttrib {
            slot: 0,
            element: VertexElement {
                format: "R32G32_FLOAT".into(),
                stride: 8,
                divisor: 1,
                instanced: false,
            },
            components,
        }],
    }
}

#[test]
fn vertex_breaches_name_part_instruction_and_register() {
    let k = vertex_key(0b0011);
    // The key hands over r8 and r9; this prolog also writes r20 (above what the main
    // shader reads) and reads r3 before writing it; r0 is a temporary.
    let prolog = code("mov r8, r5\nmov r9, r3\nmov r20, r6\nmov r0, r5\n");
    let v = check_vertex_prolog(&k, &prolog).unwrap();
    let got: Vec<String> = v.iter().map(|v| v.to_string()).collect();
    // Each `mov` is 6 bytes long.
    assert_eq!(
        got,
        [
            "prolog: offset 12 `mov      r20, r6`: writes r20, which the main shader does not read",
            "prolog: offset 6 `mov      r9, r3`: reads r3 before writing it (not an ABI input)",
        ]
    );
    // A main shader reading r7 (a prolog temporary) and only r8 of r8, r9.
    let main = code("fadd r30, r8, r7\n");
    let v = check_vertex_main(&k, &main, "main.s").unwrap();
    let got: Vec<(&str, &str)> = v
        .iter()
        .map(|v| (v.part.as_str(), v.register.as_str()))
        .collect();
    assert_eq!(got, [("main", "r7"), ("prolog", "r9")]);
    assert!(v[0].what.contains("poison"), "{}", v[0]);
    // The generated prolog keeps the contract.
    let p = vertex_prolog(&k).unwrap();
    assert!(check_vertex_prolog(&k, &p.code).unwrap().is_empty());
}

/// Mesa's prologs load whole attribute vectors: a component the main shader does not read
/// may be written when another component of its vector is handed over, not otherwise.
#[test]
fn a_prolog_may_write_the_unread_components_of_the_vectors_it_hands_over() {
    let mut k = vertex_key(0b0101);
    k.attribs.push(PrologAttrib {
        slot: 2,
        components: 0b0001,
        ..k.attribs[0].clone()
    });
    // Handed over: r8, r10 (slot 0's x, z) and r16 (slot 2's x); r12..r15 are slot 1's.
    let prolog = code(
        "mov r8, r5\nmov r9, r5\nmov r10, r5\nmov r11, r5\nmov r13, r5\nmov r16, r5\nmov r19, r5\nmov r20, r5\n",
    );
    let v = check_vertex_prolog(&k, &prolog).unwrap();
    let got: Vec<&str> = v.iter().map(|v| v.register.as_str()).collect();
    assert_eq!(got, ["r13", "r20"]);
}

#[test]
fn the_loop_footer_wants_r0l_zero_and_r1l_intact() {
    let site = Site {
        offset: 6,
        text: "mov r1l, 0".into(),
    };
    let lane = FooterLane {
        lane: 3,
        r0l: 0,
        r1l: 4,
        r1l_at_start: 4,
        r0l_writer: None,
        r1l_writer: None,
    };
    assert!(check_loop_footer(&lane).is_empty());
    let v = check_loop_footer(&FooterLane {
        r0l: 2,
        r1l: 0,
        r1l_writer: Some(("epilog".into(), site.clone())),
        ..lane
    });
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].register, "r0l");
    assert_eq!(v[0].part, "main");
    assert_eq!(v[1].register, "r1l");
    assert_eq!(v[1].part, "epilog");
    assert_eq!(v[1].site, Some(site));
    assert!(v[1].what.contains("expected 0x4"), "{}", v[1]);
}
