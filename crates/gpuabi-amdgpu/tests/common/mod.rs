//! Shared by the llvm-mc tests: finding llvm-mc, its arguments, and the generated corpus
//! of every instruction and operand variant per target and wave size.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::opcodes::{Format, Kind, TABLE};
use gpuabi_amdgpu::{Target, WaveSize};

pub const LLVM_MC: &str = "llvm-mc-19";

/// Rows llvm-mc-19 does not know: RDNA 4's BVH8 and dual box tests and its BVH stacks,
/// which LLVM 20 added (tests/gfx12_bvh.rs checks them against ACO's and LLVM's
/// encodings instead).
pub const UNKNOWN_TO_LLVM_19: [gpuabi_amdgpu::Opcode; 5] = [
    gpuabi_amdgpu::Opcode::ImageBvh8IntersectRay,
    gpuabi_amdgpu::Opcode::ImageBvhDualIntersectRay,
    gpuabi_amdgpu::Opcode::DsBvhStackPush4Pop1RtnB32,
    gpuabi_amdgpu::Opcode::DsBvhStackPush8Pop1RtnB32,
    gpuabi_amdgpu::Opcode::DsBvhStackPush8Pop2RtnB64,
];

pub fn llvm_mc_available() -> bool {
    let found = Command::new(LLVM_MC)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = format!(
            "{LLVM_MC} not found: the llvm-mc round-trip test is skipped (install Debian's \
             llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)"
        );
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

/// llvm-mc's arguments for `text`: the HSA triple when the text names an HSA target id
/// (`.amdgcn_target` must agree with the triple), the bare one otherwise.
pub fn mc_args(text: &str, target: Target, wave: WaveSize) -> Vec<String> {
    let triple = if text.contains(".amdgcn_target") {
        "amdgcn-amd-amdhsa"
    } else {
        "amdgcn"
    };
    let mut args = vec![
        format!("-triple={triple}"),
        format!("-mcpu={}", target.llvm_cpu()),
    ];
    if target.is_rdna() {
        args.push(format!("-mattr=+wavefrontsize{}", wave.lanes()));
    }
    args
}

pub fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("llvm_mc");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Assembles `text` into an object file; returns its bytes or llvm-mc's errors.
pub fn assemble(text: &str, target: Target, wave: WaveSize, name: &str) -> Result<Vec<u8>, String> {
    assemble_for_cpu(text, target, wave, target.llvm_cpu(), name)
}

/// The other LLVM processors of GCN 1.0 (`tahiti`) and GCN 1.1 (`hawaii`), whose encodings
/// must equal those of the target's own processor.
pub fn sibling_cpu(target: Target) -> Option<&'static str> {
    match target {
        Target::Gfx6 => Some("tahiti"),
        Target::Gfx7 => Some("hawaii"),
        _ => None,
    }
}

/// [`assemble`] for LLVM processor `cpu`.
pub fn assemble_for_cpu(
    text: &str,
    target: Target,
    wave: WaveSize,
    cpu: &str,
    name: &str,
) -> Result<Vec<u8>, String> {
    let dir = scratch_dir();
    let src = dir.join(format!("{name}.s"));
    let obj = dir.join(format!("{name}.o"));
    std::fs::write(&src, text).unwrap();
    let mut args = mc_args(text, target, wave);
    args[1] = format!("-mcpu={cpu}");
    let out = Command::new(LLVM_MC)
        .args(args)
        .arg("-filetype=obj")
        .arg("-o")
        .arg(&obj)
        .arg(&src)
        .output()
        .unwrap();
    if !out.status.success() || !out.stderr.is_empty() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&obj).unwrap())
}

/// Encoded size of every instruction of `text`, in order, from `-show-encoding`.
pub fn encoding_sizes(text: &str, target: Target, wave: WaveSize, name: &str) -> Vec<u32> {
    let dir = scratch_dir();
    let src = dir.join(format!("{name}.enc.s"));
    std::fs::write(&src, text).unwrap();
    let out = Command::new(LLVM_MC)
        .args(mc_args(text, target, wave))
        .arg("-show-encoding")
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let enc = l.split("; encoding: [").nth(1)?;
            let body = enc.split(']').next()?;
            Some(body.split(',').count() as u32)
        })
        .collect()
}

/// Sample operands per kind; the first is the plain choice.
pub fn samples(kind: Kind, wave: WaveSize) -> Vec<&'static str> {
    let w64 = wave == WaveSize::W64;
    match kind {
        Kind::SDst(1) => vec!["s5", "m0", "ttmp2"],
        Kind::SDst(2) => vec!["s[6:7]", if w64 { "vcc" } else { "exec" }],
        Kind::SDst(3) => vec!["s[8:10]"],
        Kind::SDst(4) => vec!["s[8:11]"],
        Kind::SDst(_) => vec!["s[16:23]"],
        Kind::SSrc(1) => vec!["s9", "-7", "0x12345", "1.0", "m0", "exec_lo", "vcc_hi"],
        Kind::SSrc(_) => vec!["s[10:11]", "exec", "-1", "0x1234", "0.5"],
        Kind::SReg(1) => vec!["s12", "null"],
        Kind::SReg(_) => vec!["s[12:13]"],
        Kind::VDst(1) => vec!["v1"],
        Kind::VDst(2) => vec!["v[2:3]"],
        Kind::VDst(3) => vec!["v[4:6]"],
        Kind::VDst(_) => vec!["v[4:7]"],
        Kind::VSrc(1) => vec!["v8", "s14", "64", "0x4d2", "-4.0", "vcc_lo"],
        Kind::VSrc(_) => vec!["v[10:11]", "s[16:17]", "2"],
        // `0x3c00` is the inline f16 1.0; `0x7c01` a literal (ACO's signalling NaN).
        Kind::VSrc16 => vec![
            "v8", "s14", "64", "0x7c01", "-4.0", "0x3c00", "0xffef", "vcc_lo",
        ],
        // An inline f64, a literal high dword (3.0 and 0x40490000), an integer inline.
        Kind::VSrcF64 => vec!["v[10:11]", "s[16:17]", "-2.0", "3.0", "0x40490000", "-1"],
        // Inline -1, a literal 0xffff and 0x3c00 (integers here), inline 1.0 and 0.5.
        Kind::VSrcI16 => vec!["v8", "s14", "-1", "0xffff", "0x3c00", "1.0", "-100", "0.5"],
        // RDNA 3's true16 halves (the top VGPR of the 32-bit encoding's 7-bit field), then as
        // `Kind::VSrcI16` (ACO's 0x804c a literal).
        Kind::VDstT16 => vec!["v16.h", "v2.l", "v127.h"],
        Kind::VSrcT16 => vec![
            "v17.l", "v127.h", "s14", "-1", "0xffff", "0x804c", "1.0", "-16", "m0",
        ],
        // The bf16 1.0 as an integer (inline), a literal, inline -1 and 0.5.
        Kind::VSrcBF16 => vec!["v8", "s14", "0x3f80", "0x1234", "-1", "0.5"],
        Kind::VReg(1) => vec!["v12"],
        Kind::VReg(2) => vec!["v[12:13]"],
        Kind::VReg(3) => vec!["v[12:14]"],
        Kind::VReg(_) => vec!["v[12:15]"],
        Kind::MaskDst => {
            if w64 {
                vec!["vcc", "s[20:21]", "null"]
            } else {
                vec!["vcc_lo", "s20", "null"]
            }
        }
        Kind::MaskSrc => {
            if w64 {
                vec!["vcc", "s[22:23]"]
            } else {
                vec!["vcc_lo", "s22"]
            }
        }
        Kind::Lane => vec!["s24", "5", "m0"],
        Kind::Imm16 => vec!["3"],
        Kind::Msg8 => vec!["sendmsg(MSG_RTN_GET_DOORBELL)", "5"],
        Kind::KImm => vec!["0x3a83126f", "1.0"],
        Kind::KImm16 => vec!["0x3c01", "1.0", "0xffef"],
        // An inline f16 bit pattern (0x3c00, taken as `1.0`), a literal pair, inline -1.
        Kind::VSrcPkF16 => vec!["v8", "s14", "0x3c00", "0x3c003c00", "-1", "0.5", "vcc_lo"],
        Kind::Simm16 => vec!["-300", "0x7fff"],
        Kind::Label => vec!["target"],
        Kind::Waitcnt => vec!["vmcnt(0) lgkmcnt(0)", "lgkmcnt(3)", "vmcnt(2) expcnt(1)"],
        Kind::SBase(2) => vec!["s[24:25]"],
        Kind::SBase(_) => vec!["s[24:27]"],
        Kind::SOffset => vec!["0x40", "s26"],
        Kind::BufAddr => vec!["v20", "off", "v[20:21]"],
        Kind::Rsrc => vec!["s[28:31]"],
        Kind::BufSOffset => vec!["s27", "0", "m0"],
        Kind::GlobalAddr => vec!["v22", "v[20:21]"],
        Kind::GlobalSAddr => vec!["s[30:31]", "off"],
        Kind::ScratchAddr => vec!["v23", "off"],
        Kind::ScratchSAddr => vec!["off", "s30"],
        Kind::FlatAddr => vec!["v[20:21]"],
        // A tuple, then the NSA forms of gfx1030 and gfx1100 (each target takes its own).
        Kind::ImageAddr(12) => vec![
            "v[12:23]",
            "[v36, v37, v22, v31, v27, v11, v6, v3, v2, v9, v8, v7]",
            "[v[38:39], v10, v[11:13], v[14:16], v[17:19]]",
        ],
        Kind::ImageAddr(_) => vec![
            "v[12:22]",
            "[v36, v37, v22, v31, v27, v11, v6, v3, v2, v9, v8]",
            "[v38, v10, v[11:13], v[14:16], v[17:19]]",
        ],
        Kind::ImgData => vec!["v[4:7]", "v1", "v[2:3]", "v[4:6]", "v[4:8]"],
        Kind::ImgAddr => vec!["v20", "v[20:21]", "v[20:22]", "v[20:23]"],
        Kind::ImgRsrc => vec!["s[16:23]", "s[36:43]"],
        Kind::ImgSamp => vec!["s[24:27]"],
    }
}

pub fn modifier_samples(format: Format, vaddr_is_off: bool) -> Vec<&'static str> {
    modifier_samples_on(format, vaddr_is_off, None)
}

/// [`modifier_samples`] of `target`: RDNA 4 spells the cache policy `th:` and `scope:`, whose
/// hint names depend on the access (`store`; an atomic's are in [`generated_corpus`]).
pub fn modifier_samples_on(
    format: Format,
    vaddr_is_off: bool,
    gfx12_store: Option<bool>,
) -> Vec<&'static str> {
    match (format, gfx12_store) {
        (Format::Mubuf, Some(store)) if vaddr_is_off => vec![
            "",
            " offset:16",
            if store {
                " offset:8388607 th:TH_STORE_NT scope:SCOPE_SE"
            } else {
                " offset:8388607 th:TH_LOAD_NT_HT scope:SCOPE_DEV"
            },
        ],
        (Format::Mubuf, Some(store)) => vec![
            " offen",
            " offen offset:4",
            if store {
                " idxen offset:8 th:TH_STORE_BYPASS scope:SCOPE_SYS"
            } else {
                " idxen offset:8 th:TH_LOAD_LU"
            },
        ],
        (Format::Global | Format::Scratch | Format::Flat, Some(store)) => vec![
            "",
            " offset:-8388608",
            if store {
                " offset:32 th:TH_STORE_RT_WB scope:SCOPE_DEV"
            } else {
                " offset:8388607 th:TH_LOAD_HT scope:SCOPE_SYS"
            },
        ],
        (Format::Smem, Some(_)) => vec!["", " th:TH_LOAD_NT scope:SCOPE_SYS"],
        _ => modifier_samples_gfx11(format, vaddr_is_off),
    }
}

fn modifier_samples_gfx11(format: Format, vaddr_is_off: bool) -> Vec<&'static str> {
    match format {
        Format::Mubuf if vaddr_is_off => vec!["", " offset:16", " offset:4095 glc"],
        Format::Mubuf => vec![" offen", " offen offset:4", " idxen offset:8 slc"],
        Format::Mtbuf if vaddr_is_off => vec!["", " format:116 offset:16", " offset:4095 glc"],
        Format::Mtbuf => vec![
            " format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen",
            " offen offset:4",
            " format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UINT] idxen offset:8 slc",
            " format:0x60 offen glc",
        ],
        Format::Global | Format::Scratch => vec!["", " offset:-16", " offset:32 glc"],
        Format::Flat => vec!["", " glc", " glc slc"],
        Format::Mimg => vec![
            " dmask:0xf",
            " dmask:0xf unorm glc",
            " dmask:0x1 unorm",
            "",
            " dmask:0x3 slc da",
            " dmask:0x9 unorm",
            " dmask:0x7 r128 lwe",
            " dmask:0xf unorm tfe",
            " dmask:0x8 tfe",
        ],
        _ => vec![""],
    }
}

/// Lines covering every instruction of `target`: for each, the plain operands and every
/// single-slot variation, with each memory modifier set. Lines the project rejects are
/// dropped; every instruction must keep at least one line.
pub fn generated_corpus(target: Target, wave: WaveSize) -> String {
    let mut text = String::from("\t.text\nstart:\n");
    for info in TABLE {
        let Some(name) = info.name(target) else {
            continue;
        };
        if UNKNOWN_TO_LLVM_19.contains(&info.op) {
            continue;
        }
        // Atomics have a returning form (with `glc`, a destination first) and a
        // non-returning one; every other row one operand list.
        let forms: Vec<Vec<Kind>> = if info.atomic.is_some() {
            vec![
                info.slots_with(true).collect(),
                info.slots_with(false).collect(),
            ]
        } else {
            vec![info.slots().collect()]
        };
        let mut kept = 0;
        for slots in forms {
            let mut variants: Vec<Vec<String>> = vec![slots
                .iter()
                .map(|k| samples(*k, wave)[0].to_string())
                .collect()];
            // `s_setreg_b32` takes only the registers the model knows, by name and number.
            // RDNA 4's barrier instructions take the work-group barrier, -1, in the model.
            if matches!(
                info.op,
                gpuabi_amdgpu::Opcode::SBarrierSignal | gpuabi_amdgpu::Opcode::SBarrierWait
            ) {
                variants = vec![vec!["-1".to_string()]];
            }
            // RDNA 4's MODE float fields, which it models, by name and number.
            if info.op == gpuabi_amdgpu::Opcode::SGetregB32 {
                variants = [
                    "hwreg(HW_REG_MODE, 4, 4)",
                    "0x1901",
                    "hwreg(HW_REG_MODE, 0, 8)",
                ]
                .iter()
                .map(|h| vec![samples(slots[0], wave)[0].to_string(), h.to_string()])
                .collect();
            }
            // RDNA 4 has no FLAT_SCR registers (llvm-mc-19: "invalid hardware register").
            if info.op == gpuabi_amdgpu::Opcode::SSetregB32 {
                let names: &[&str] = if target == Target::Gfx12 {
                    &["0xf815", "hwreg(HW_REG_MODE, 0, 4)", "0x1901"]
                } else {
                    &[
                        "hwreg(HW_REG_FLAT_SCR_LO)",
                        "hwreg(HW_REG_FLAT_SCR_HI)",
                        "0xf815",
                    ]
                };
                variants = names
                    .iter()
                    .map(|h| vec![h.to_string(), samples(slots[1], wave)[0].to_string()])
                    .collect();
            }
            for (i, k) in slots.iter().enumerate() {
                for alt in samples(*k, wave).into_iter().skip(1) {
                    let mut v = variants[0].clone();
                    v[i] = alt.to_string();
                    variants.push(v);
                }
            }
            // f32 source modifiers in both spellings, on every source that takes them.
            for src in 0..info.srcs.len() {
                if info.float_srcs >> src & 1 == 0 {
                    continue;
                }
                let i = slots.len() - info.srcs.len() + src;
                for reg in samples(slots[i], wave).into_iter().take(2) {
                    for form in ["-{}", "|{}|", "-|{}|", "neg({})", "abs({})", "neg(abs({}))"] {
                        // llvm-mc reads `--7` as a syntax error.
                        if form == "-{}" && reg.starts_with('-') {
                            continue;
                        }
                        let mut v = variants[0].clone();
                        v[i] = form.replace("{}", reg);
                        variants.push(v);
                    }
                }
            }
            for v in variants {
                let off = v
                    .iter()
                    .zip(&slots)
                    .any(|(s, k)| *k == Kind::BufAddr && s == "off");
                let pair = v
                    .iter()
                    .zip(&slots)
                    .any(|(s, k)| *k == Kind::BufAddr && s == "v[20:21]");
                let mods = if slots.is_empty() {
                    vec![""]
                } else if info.is_ds_two_address() {
                    vec!["", " offset0:1 offset1:255", " offset1:3"]
                } else if info.format == Format::Ds {
                    vec!["", " offset:4", " offset:65535"]
                } else if pair {
                    vec![" addr64", " addr64 offset:12 glc"]
                } else if target == Target::Gfx12 && info.atomic.is_some() {
                    // The returning form keeps the lines with TH_ATOMIC_RETURN, the other
                    // form the rest.
                    let offset = if info.format == Format::Mubuf {
                        if off {
                            ""
                        } else {
                            " offen"
                        }
                    } else {
                        ""
                    };
                    [
                        "",
                        " offset:64",
                        " th:TH_ATOMIC_RETURN",
                        " offset:8 th:TH_ATOMIC_NT_RETURN scope:SCOPE_DEV",
                        " th:TH_ATOMIC_NT",
                        " th:TH_ATOMIC_CASCADE_RT scope:SCOPE_DEV",
                    ]
                    .iter()
                    .map(|m| &*Box::leak(format!("{offset}{m}").into_boxed_str()))
                    .collect()
                } else if target == Target::Gfx12 {
                    modifier_samples_on(info.format, off, Some(info.op.is_store()))
                } else {
                    modifier_samples(info.format, off)
                };
                for m in mods {
                    let line = format!("\t{name} {}{m}\n", v.join(", "));
                    let line = line.replace(&format!("{name} \n"), &format!("{name}\n"));
                    let probe = format!("{line}target:\n");
                    if parse(&probe, target, wave).is_ok() {
                        text.push_str(&line);
                        kept += 1;
                    }
                }
            }
        }
        assert!(kept > 0, "no accepted line for {name} on {target} {wave}");
    }
    let carry = "\ts_add_u32 s0, s0, target-start+4\n\ts_addc_u32 s1, s1, 0\n";
    if target == Target::Gfx12 {
        text.push_str(&gfx12_spelling(carry));
    } else {
        text.push_str(carry);
    }
    text.push_str(
        "\tv_add_f32_e64 v0, v1, v2\n\tv_cmp_gt_u32_e64 s[0:1], v0, v1\n"
            .replace(
                "s[0:1]",
                if wave == WaveSize::W64 {
                    "s[0:1]"
                } else {
                    "s0"
                },
            )
            .as_str(),
    );
    if target == Target::Gfx12 {
        text.push_str(&gfx12_spelling(&encoding_forms(Target::Gfx1100, wave)));
        text.push_str(&gfx12_forms());
    } else {
        text.push_str(&encoding_forms(target, wave));
    }
    text.push_str("target:\n\ts_endpgm\n");
    text
}

/// `text`, written for gfx1100, in RDNA 4's spelling where it renamed an instruction
/// (llvm-mc-19 takes the old names as aliases; the project's parser takes a target's own).
fn gfx12_spelling(text: &str) -> String {
    text.replace("v_max_f32", "v_max_num_f32")
        .replace("v_min_f32", "v_min_num_f32")
        .replace("v_dual_max_f32", "v_dual_max_num_f32")
        .replace("v_dual_min_f32", "v_dual_min_num_f32")
        .replace("s_addc_u32", "s_add_co_ci_u32")
        .replace("s_add_u32", "s_add_co_u32")
}

/// Encodings the table's rows do not spell: SDWA selections on gfx8 and gfx1030 (every
/// selection, every `dst_unused`, defaults left out, `sext`, an SGPR source on gfx1030) and VOPD
/// pairs on gfx1100 in wave32 (every opcode of the table in some half, a shared literal,
/// the implicit `vcc` of `v_dual_cndmask_b32`).
fn encoding_forms(target: Target, wave: WaveSize) -> String {
    let mut text = String::new();
    if matches!(target, Target::Gfx8 | Target::Gfx1030) {
        text.push_str(
            "\tv_or_b32_sdwa v3, v0, v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_or_b32_sdwa v2, v9, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_3 src1_sel:WORD_1\n\
             \tv_xor_b32_sdwa v2, v9, v2 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_0\n\
             \tv_and_b32_sdwa v2, v9, v2 dst_sel:BYTE_3 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_2\n\
             \tv_mov_b32_sdwa v2, v9 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_2\n\
             \tv_and_b32_sdwa v2, v9, v2\n\
             \tv_xor_b32_sdwa v17, v19, sext(v17) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0\n\
             \tv_max_u32_sdwa v2, sext(v18), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD\n",
        );
    }
    if target == Target::Gfx1030 {
        text.push_str(
            "\tv_or_b32_sdwa v2, s9, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3 src1_sel:WORD_1\n",
        );
        // Compares: the mask in VCC or an SGPR (SD/SDST), SGPR sources, `sext`, EXEC.
        let (mask, high, vcc) = if wave == WaveSize::W32 {
            ("s4", "s100", "vcc_lo")
        } else {
            ("s[4:5]", "s[100:101]", "vcc")
        };
        text.push_str(&format!(
            "\tv_cmp_le_i32_sdwa {mask}, sext(v1), s2 src0_sel:WORD_0 src1_sel:DWORD\n\
             \tv_cmp_gt_u32_sdwa {vcc}, v1, v2 src0_sel:BYTE_1 src1_sel:WORD_1\n\
             \tv_cmp_eq_u32_sdwa {mask}, s1, sext(v2) src0_sel:BYTE_3 src1_sel:BYTE_0\n\
             \tv_cmp_lt_f32_sdwa {mask}, v3, v4 src0_sel:DWORD src1_sel:WORD_1\n\
             \tv_cmp_ne_u32_sdwa {high}, v1, v2\n\
             \tv_cmpx_le_i32_sdwa v1, v2 src0_sel:WORD_0 src1_sel:DWORD\n"
        ));
        // Scalar sources in either position, inline constants, f32 modifiers (ACO's
        // `v_cmp_class_f32_sdwa s26, neg(1), v71 ...`, whose SDST s26 sets bits 11 and 12,
        // where other SDWA instructions hold DST_UNUSED).
        let sdst26 = if wave == WaveSize::W32 {
            "s26"
        } else {
            "s[26:27]"
        };
        text.push_str(&format!(
            "\tv_cmp_class_f32_sdwa {mask}, neg(1), v71 src0_sel:DWORD src1_sel:BYTE_3\n\
             \tv_cmp_class_f32_sdwa {sdst26}, neg(1), v71 src0_sel:DWORD src1_sel:BYTE_3\n\
             \tv_cmp_class_f32_sdwa {mask}, 1, s2 src0_sel:DWORD src1_sel:BYTE_3\n\
             \tv_cmp_class_f32_sdwa {vcc}, |v1|, v2 src0_sel:DWORD src1_sel:BYTE_3\n\
             \tv_cmp_lt_f32_sdwa {mask}, -|v1|, |v2| src0_sel:DWORD src1_sel:BYTE_3\n\
             \tv_add_f32_sdwa v1, -v2, |v3| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_add_f32_sdwa v1, neg(1.0), v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_add_f32_sdwa v1, 0.15915494, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_add_f32_sdwa v1, -s2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_or_b32_sdwa v1, 1, 2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_or_b32_sdwa v1, v2, s3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_or_b32_sdwa v1, sext(-1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             \tv_mov_b32_sdwa v1, -4.0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\n\
             \tv_mov_b32_sdwa v1, src_scc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\n\
             \tv_cndmask_b32_sdwa v1, -v2, |v3|, {vcc} dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n"
        ));
    }
    if target == Target::Gfx8 {
        text.push_str(
            "\tv_add_f32_sdwa v1, -v2, |v3| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n",
        );
    }
    // Constants with f32 modifiers (ACO's `v_cmp_class_f32_e64 s[28:29], neg(1), v77`: the
    // integer 1 with its sign flipped), and `src_scc` as a source.
    let vcc = if wave == WaveSize::W64 {
        "vcc"
    } else {
        "vcc_lo"
    };
    text.push_str(&format!(
        "\tv_add_f32_e64 v0, neg(1), v1\n\tv_add_f32_e64 v0, |1.0|, neg(0.5)\n\
         \tv_add_f32_e64 v0, -|2|, v1\n\tv_cmp_class_f32_e64 {vcc}, neg(1), v1\n\
         \tv_fma_f32 v0, neg(-4.0), v1, |v2|\n\
         \ts_mov_b32 s1, src_scc\n\ts_or_b32 s10, src_scc, s8\n\ts_add_u32 s7, s3, src_scc\n\
         \tv_mov_b32 v1, src_scc\n\tv_cmp_eq_u32 {vcc}, src_scc, v1\n\
         \tv_add_f32_e64 v1, -src_scc, v2\n"
    ));
    if target.is_rdna() {
        text.push_str("\tv_add_f32_e64 v0, neg(0x1234), v1\n\tv_add_f32_e64 v1, src_scc, s2\n");
    }
    // The output modifiers: `clamp` before `omod`, on f32 results and the saturating
    // integer instructions.
    text.push_str(
        "\tv_add_f32_e64 v0, v1, v2 clamp mul:2\n\
         \tv_mul_f32_e64 v0, -v1, |v2| div:2\n\
         \tv_fma_f32 v0, v1, v2, v3 clamp mul:4\n\
         \tv_max_f32_e64 v0, v1, s2 clamp\n\
         \tv_cvt_f32_u32_e64 v1, v2 mul:2\n\
         \tv_rcp_f32_e64 v1, v2 clamp div:2\n",
    );
    let mask = if wave == WaveSize::W64 {
        "s[6:7]"
    } else {
        "s6"
    };
    if matches!(target, Target::Gfx6 | Target::Gfx7) {
        // GCN 1.0/1.1: the f32 lines above cover their VOP3 fields.
    } else if target == Target::Gfx8 {
        text.push_str("\tv_mad_u32_u24 v0, v1, v2, v3 clamp\n");
        text.push_str(
            "\tv_add_u32_e64 v0, vcc, v1, v2 clamp\n\tv_sub_u32_e64 v0, s[6:7], v1, v2 clamp\n",
        );
    } else {
        text.push_str(&format!(
            "\tv_mad_u32_u24 v0, v1, v2, v3 clamp\n\
             \tv_add_nc_u32_e64 v0, v1, v2 clamp\n\
             \tv_sub_nc_u32_e64 v0, v1, s2 clamp\n\
             \tv_subrev_nc_u32_e64 v0, v1, v2 clamp\n\
             \tv_add_co_u32 v0, {mask}, v1, v2 clamp\n\
             \tv_sub_co_u32 v0, {mask}, v1, v2 clamp\n"
        ));
    }
    // VCC as a SADDR (llc-19 allocates it there) and a zero-extended 64-bit literal.
    text.push_str("\ts_mov_b64 s[4:5], 0xffffffff\n");
    // VCC as a scalar load's destination and base (llc-19 allocates it there).
    let smem = "\ts_load_dword vcc_hi, s[4:5], 0x4\n\ts_load_dword vcc_lo, s[4:5], s7\n\
                \ts_load_dwordx2 vcc, s[4:5], 0x8\n\ts_load_dword s1, vcc, 0x4\n\
                \ts_load_dwordx4 s[8:11], vcc, 0x10\n\ts_buffer_load_dword vcc_lo, s[4:7], 0x4\n";
    if target == Target::Gfx1100 {
        text.push_str(
            &smem
                .replace("load_dwordx4", "load_b128")
                .replace("load_dwordx2", "load_b64")
                .replace("load_dword", "load_b32"),
        );
    } else {
        text.push_str(smem);
    }
    if target == Target::Gfx1100 {
        text.push_str(
            "\tscratch_store_b32 off, v67, vcc_lo offset:16\n\
             \tscratch_load_b32 v1, off, vcc_hi\n\
             \tglobal_load_b32 v1, v2, vcc\n",
        );
    }
    if target == Target::Gfx1100 && wave == WaveSize::W32 {
        text.push_str(
            "\tv_dual_mov_b32 v4, 0 :: v_dual_mov_b32 v5, 0\n\
             \tv_dual_mov_b32 v31, v59 :: v_dual_mov_b32 v0, v60\n\
             \tv_dual_cndmask_b32 v1, v2, v1 :: v_dual_and_b32 v2, 0x400000, v0\n\
             \tv_dual_fmac_f32 v6, v8, v6 :: v_dual_fmac_f32 v7, v9, v7\n\
             \tv_dual_mul_f32 v6, 0x3a83126f, v8 :: v_dual_sub_f32 v5, v5, v10\n\
             \tv_dual_add_f32 v0, 0.5, v0 :: v_dual_add_f32 v1, 0.5, v1\n\
             \tv_dual_max_f32 v0, v1, v2 :: v_dual_min_f32 v1, v3, v4\n\
             \tv_dual_min_f32 v0, v1, v2 :: v_dual_max_f32 v1, v3, v4\n\
             \tv_dual_mov_b32 v9, s0 :: v_dual_add_nc_u32 v10, s1, v2\n\
             \tv_dual_sub_f32 v9, s0, v1 :: v_dual_lshlrev_b32 v10, 1, v2\n\
             \tv_dual_cndmask_b32 v9, 0x7fc00000, v1 :: v_dual_cndmask_b32 v10, 0x7fc00000, v2\n\
             \tv_dual_fmamk_f32 v0, v1, 0x40000000, v2 :: v_dual_mov_b32 v1, v3\n\
             \tv_dual_mov_b32 v1, v3 :: v_dual_fmaak_f32 v0, v1, v2, 0x40000000\n\
             \tv_dual_subrev_f32 v4, v5, v6 :: v_dual_subrev_f32 v7, s2, v8\n\
             \tv_dual_mul_dx9_zero_f32 v0, v1, v2 :: v_dual_mov_b32 v1, v3\n\
             \tv_dual_mov_b32 v1, v3 :: v_dual_mul_dx9_zero_f32 v0, -1.0, v2\n",
        );
    }
    text
}

/// RDNA 4's encodings beyond the rows' samples: scalar loads with a negative offset and
/// three dwords, the 24-bit memory offsets at both ends, VBUFFER's resource in high SGPRs,
/// the f64 and 64-bit shift instructions in their new VOP2 form with an SGPR source in
/// VOP3, the scalar transcendentals with modifiers and a literal.
fn gfx12_forms() -> String {
    "\ts_load_b32 s5, s[24:25], -0x800000\n\
     \ts_load_b96 s[4:6], s[2:3], 0x7fffff th:TH_LOAD_HT\n\
     \ts_buffer_load_b96 s[4:6], s[4:7], 0x10 scope:SCOPE_DEV\n\
     \tbuffer_store_b128 v[0:3], v16, s[96:99], null offen\n\
     \tglobal_load_b64 v[36:37], v73, s[18:19] offset:-8388608\n\
     \tscratch_store_b32 off, v1, s24 offset:-8388608\n\
     \tscratch_load_b32 v95, off, s4 offset:24\n\
     \tv_add_f64_e64 v[0:1], s[2:3], v[4:5]\n\
     \tv_lshlrev_b64_e64 v[0:1], s2, v[4:5]\n\
     \tv_s_rcp_f32 s21, -|s21| clamp\n\
     \tv_s_sqrt_f32 s1, 0x1234 mul:2\n\
     \ts_wait_alu 0xfffe\n\
     \ts_cmp_nlt_f32 1.0, 0\n\
     \ts_add_f32 s5, -1.0, 0x1234\n"
        .to_string()
}

/// GCN 1.0 and 1.1 (wave64): llvm-mc encodes them but does not disassemble them.
pub fn gcn1_configs() -> Vec<(Target, WaveSize)> {
    vec![(Target::Gfx6, WaveSize::W64), (Target::Gfx7, WaveSize::W64)]
}

pub fn configs() -> Vec<(Target, WaveSize)> {
    vec![
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
        (Target::Gfx12, WaveSize::W32),
        (Target::Gfx12, WaveSize::W64),
    ]
}
